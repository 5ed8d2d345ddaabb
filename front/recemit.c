// SPDX-License-Identifier: GPL-2.0-only
/*
 * A value read from a record written again as it was (--analyze's JSON
 * repeats what a record said beside today's verdict).  A leaf: the files
 * that judge each kind of record (record.c, recauto.c, recclass.c) use
 * it and it uses none of them.
 */
#include "json.h"
#include "jsonread.h"
#include "recint.h"

void record_emit(struct json *j, const char *key, const struct jr_value *v)
{
	size_t i;

	switch (v->type) {
	case JR_NULL:
		json_null(j, key);
		break;
	case JR_BOOL:
		json_bool(j, key, v->b);
		break;
	case JR_NUMBER:
		if (v->flags & JR_UINT64)
			json_u64(j, key, v->u);
		else if (v->flags & JR_INT64)
			json_i64(j, key, v->i);
		else
			json_double(j, key, v->d);
		break;
	case JR_STRING:
		json_string(j, key, v->s);
		break;
	case JR_ARRAY:
		json_array_begin(j, key);
		for (i = 0; i < v->n; i++)
			record_emit(j, NULL, &v->v[i]);
		json_array_end(j);
		break;
	case JR_OBJECT:
		json_object_begin(j, key);
		for (i = 0; i < v->n; i++)
			record_emit(j, v->keys[i], &v->v[i]);
		json_object_end(j);
		break;
	}
}

void record_emit_member(struct json *j, const struct jr_value *doc,
			const char *key)
{
	const struct jr_value *v = jr_get(doc, key);

	if (v)
		record_emit(j, key, v);
	else
		json_null(j, key);
}

void record_json_head(struct json *j, FILE *res, const struct jr_value *doc,
		      const char *test)
{
	json_init(j, res);
	json_object_begin(j, NULL);
	json_string(j, "version", FLASHBENCH_VERSION);
	json_string(j, "test", test);
	record_emit_member(j, doc, "device");
	record_emit_member(j, doc, "options");
}
