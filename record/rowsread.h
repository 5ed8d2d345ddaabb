/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The classic align table read back from an -a record (rowsread.c).
 */
#ifndef FLASHBENCH_ROWSREAD_H
#define FLASHBENCH_ROWSREAD_H

#include <stddef.h>

#include "jsonread.h"
#include "rows.h"

/* Where a record's rows fall short: the row and the member it lacks. */
struct align_rows_bad {
	const struct jr_value *row;	/* NULL: the rows are fine */
	size_t index;
	const char *member;
};

/*
 * The rows of res (an -a record's "results"), malloc'd in *rows, their
 * number in *n.  Returns 0; -ENOENT when res is no array of rows;
 * -EINVAL with *bad filled when a row lacks a number; -ENOMEM.
 */
int align_rows_read(const struct jr_value *res, struct align_row **rows,
		    size_t *n, struct align_rows_bad *bad);

#endif /* FLASHBENCH_ROWSREAD_H */
