// SPDX-License-Identifier: GPL-2.0-only
/*
 * The classic align table read back from a record: an -a record's
 * "results", one object per row (align_row_table's members), as
 * --analyze judges it and --survey shows it.
 */
#include <errno.h>
#include <stdlib.h>

#include "alignrec.h"
#include "c.h"
#include "recbody.h"
#include "rowsread.h"

/* Row o read into *a: NULL, or the first member (in table order) it lacks. */
static const char *missing_member(const struct jr_value *o,
				  struct align_row *a)
{
	uint64_t present = 0;
	char err[8];
	struct rt_rd rd = { .err = err, .err_len = sizeof(err), .loose = 1,
			    .present = &present };
	size_t k;

	rt_read(&rd, &align_row_table, o, BODY_KEY(RM_RESULTS), a);
	for (k = 0; k < align_row_table.n; k++)
		if (!(present & (1ULL << k)))
			return align_row_table.f[k].name;
	return NULL;
}

int align_rows_read(const struct jr_value *res, struct align_row **rows,
		    size_t *n, struct align_rows_bad *bad)
{
	struct align_row *t;
	size_t i;

	*rows = NULL;
	*n = 0;
	bad->row = NULL;
	bad->member = NULL;
	if (!jr_is(res, JR_ARRAY) || !res->n)
		return -ENOENT;
	t = calloc(res->n, sizeof(*t));
	if (!t)
		return -ENOMEM;
	for (i = 0; i < res->n; i++) {
		bad->member = missing_member(&res->v[i], &t[i]);
		if (bad->member) {
			bad->row = &res->v[i];
			bad->index = i;
			free(t);
			return -EINVAL;
		}
	}
	*rows = t;
	*n = res->n;
	return 0;
}
