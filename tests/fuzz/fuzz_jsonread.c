// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness for the JSON reader: jr_parse() on the raw input,
 * with small limits (depth 16, 4096 values) so that each is reached.
 *
 * Checked: a refused text leaves no tree and an error "LINE:COL: ..."
 * of one line whose LINE is within the input's lines; a tree is walked
 * whole (every lookup on every member), its strings as long as they say,
 * its exact integers equal to their double where a double holds them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"
#include "jsonread.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void walk(const struct jr_value *v, unsigned int depth)
{
	size_t i;

	if (depth > 17)
		fuzz_fail("depth %u past the limit", depth);
	switch (v->type) {
	case JR_STRING:
		if (!v->s || v->s[v->len] != '\0')
			fuzz_fail("string not terminated at its length");
		break;
	case JR_NUMBER:
		if ((v->flags & JR_UINT64) && v->u < (1ULL << 53) &&
		    (double)v->u != v->d)
			fuzz_fail("u64 %llu but double %g",
				  (unsigned long long)v->u, v->d);
		break;
	case JR_OBJECT:
		for (i = 0; i < v->n; i++)
			if (!jr_get(v, v->keys[i]))
				fuzz_fail("member %zu not found by name", i);
		/* fall through */
	case JR_ARRAY:
		for (i = 0; i < v->n; i++)
			walk(&v->v[i], depth + 1);
		if (v->type == JR_ARRAY && jr_at(v, v->n))
			fuzz_fail("element past the end");
		break;
	default:
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct jr_limits lim = { .max_depth = 16, .max_values = 4096 };
	struct jr_value *root = (void *)1;
	char err[JR_ERR_LEN];
	int ret;

	ret = jr_parse((const char *)data, size, &lim, &root, err,
		       sizeof(err));
	if (ret) {
		unsigned long line;
		size_t i, lines = 1;

		if (root)
			fuzz_fail("refused (%d) but a tree", ret);
		if (ret != -EINVAL && ret != -E2BIG)
			fuzz_fail("error %d", ret);
		for (i = 0; i < size; i++)
			lines += data[i] == '\n';
		line = strtoul(err, NULL, 10);
		if (!line || line > lines || !strchr(err, ':') ||
		    strchr(err, '\n'))
			fuzz_fail("bad message \"%s\" (%zu lines)", err, lines);
		return 0;
	}
	walk(root, 0);
	jr_free(root);
	return 0;
}
