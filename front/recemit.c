// SPDX-License-Identifier: GPL-2.0-only
/*
 * A value read from a record written again as it was (--analyze's JSON
 * repeats what a record said beside today's verdict), and what every
 * record judged again begins with: its head, and the line that says
 * whose record it is.  A leaf: the files
 * that judge each kind of record (record.c, recauto.c, recclass.c) use
 * it and it uses none of them.
 */
#include <string.h>

#include "json.h"
#include "jsonread.h"
#include "rechead.h"
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
	struct record_head h;

	/* this document's shape; the run's start and kernel, the record's */
	record_head_read(doc, &h);
	h.shape = RECORD_SHAPE;
	json_init(j, res);
	json_object_begin(j, NULL);
	json_string(j, "version", FLASHBENCH_VERSION);
	json_string(j, "test", test);
	rt_write(j, &record_head_table, &h);
	record_emit_member(j, doc, "device");
	record_emit_member(j, doc, "options");
}

const char *record_device_path(const struct jr_value *doc)
{
	if (jr_bool(jr_path(doc, "device.simulated"), 0))
		return jr_str(jr_path(doc, "device.path"), "DEVICE");
	return "DEVICE";
}

void record_says_first(FILE *out, const struct jr_value *doc)
{
	const char *path = jr_str(jr_path(doc, "device.path"), NULL);
	const char *version = jr_str(jr_get(doc, "version"), "?");
	int simulated = jr_bool(jr_path(doc, "device.simulated"), 0);
	struct record_head h;
	char date[40];

	record_head_read(doc, &h);
	/* "2026-11-28T04:31:34Z" as "2026-11-28 at 04:31:34 UTC" */
	if (h.started && strlen(h.started) == 20 && h.started[10] == 'T')
		snprintf(date, sizeof(date), "on %.10s at %.8s UTC", h.started,
			 h.started + 11);
	else
		snprintf(date, sizeof(date), "on a date it does not say");
	fprintf(out, "record of %s made %s by flashbench %s,\n",
		simulated ? "a simulated card" : path ? path :
		"a device it does not name", date, version);
	fprintf(out, "judged again with the rules of this version (flashbench %s)\n",
		FLASHBENCH_VERSION);
	if (path && !simulated)
		fprintf(out, "its commands say DEVICE: the card's device now, which may not be %s\n",
			path);
}
