// SPDX-License-Identifier: GPL-2.0-only
/*
 * The classic align table read back from a record: an -a record's
 * "results", one object per row ("align", "pre_ns", "on_ns", "post_ns",
 * "diff_ns"), as --analyze judges it and --survey shows it.
 */
#include <errno.h>
#include <stdlib.h>

#include "c.h"
#include "rowsread.h"

/* The members of a row, in the order a missing one is named. */
static const char *const members[] = {
	"align", "pre_ns", "on_ns", "post_ns", "diff_ns",
};

int align_rows_read(const struct jr_value *res, struct align_row **rows,
		    size_t *n, struct align_rows_bad *bad)
{
	struct align_row *t;
	size_t i, k;

	*rows = NULL;
	*n = 0;
	bad->row = NULL;
	bad->member = NULL;
	if (!jr_is(res, JR_ARRAY) || !res->n)
		return -ENOENT;
	for (i = 0; i < res->n; i++)
		for (k = 0; k < ARRAY_SIZE(members); k++)
			if (!jr_is(jr_get(&res->v[i], members[k]),
				   JR_NUMBER)) {
				bad->row = &res->v[i];
				bad->index = i;
				bad->member = members[k];
				return -EINVAL;
			}
	t = calloc(res->n, sizeof(*t));
	if (!t)
		return -ENOMEM;
	for (i = 0; i < res->n; i++) {
		const struct jr_value *row = &res->v[i];

		t[i].align_byte = jr_u64(jr_get(row, members[0]), 0);
		t[i].pre_ns = jr_i64(jr_get(row, members[1]), 0);
		t[i].on_ns = jr_i64(jr_get(row, members[2]), 0);
		t[i].post_ns = jr_i64(jr_get(row, members[3]), 0);
		t[i].diff_ns = jr_i64(jr_get(row, members[4]), 0);
	}
	*rows = t;
	*n = res->n;
	return 0;
}
