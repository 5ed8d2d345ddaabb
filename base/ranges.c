// SPDX-License-Identifier: GPL-2.0-only
/*
 * Byte ranges sorted and merged: the announcement of the writes, the
 * ranges --auto's steps overwrite and --preserve's saved ranges all reduce
 * a list of ranges to the bytes it covers, in order.
 */
#include <stdlib.h>

#include "ranges.h"

/* qsort() order of ranges: by start. */
static int range_cmp(const void *a, const void *b)
{
	const struct bench_range *x = a, *y = b;

	return (x->start_byte > y->start_byte) -
	       (x->start_byte < y->start_byte);
}

size_t ranges_merge(struct bench_range *r, size_t n)
{
	size_t i, k = 0;

	if (!n)
		return 0;
	qsort(r, n, sizeof(*r), range_cmp);
	for (i = 0; i < n; i++) {
		if (k && r[i].start_byte <= r[k - 1].end_byte) {
			if (r[i].end_byte > r[k - 1].end_byte)
				r[k - 1].end_byte = r[i].end_byte;
			continue;
		}
		r[k++] = r[i];
	}
	return k;
}
