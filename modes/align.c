// SPDX-License-Identifier: GPL-2.0-only
/*
 * The align test (-a): reads just before, across and just after the
 * boundaries of every power-of-two alignment.  Crossing an erase-block
 * boundary costs the most, a page boundary a little: the diff column
 * steps at the page and at the erase size.  Read-only.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "format.h"
#include "json.h"
#include "modes.h"

uint64_t align_max(uint64_t dev_size, uint64_t blocksize)
{
	uint64_t a = 1;

	if (7 + blocksize > dev_size)
		return 0;
	while (a < (1ULL << 60) && 7 * (a << 1) + blocksize <= dev_size)
		a <<= 1;
	return a;
}

/*
 * Measure one alignment: reads just before, across and just after the
 * boundaries i * spacing + align, i = 0..6.  The minimum of repeated reads
 * is the card's cost without interference from the rest of the system.
 */
static int align_one(struct device *dev, const struct bench_opts *o,
		     void *buf, uint64_t spacing, struct align_row *row)
{
	const uint64_t bs = o->blocksize_byte;
	const int64_t where[3] = { -(int64_t)bs, -(int64_t)bs / 2, 0 };
	uint64_t sum[3] = { 0, 0, 0 }, t[3];
	int i, k, ret;

	for (i = 0; i < 7; i++) {
		uint64_t pos = i * spacing + row->align_byte;

		for (k = 0; k < 3; k++) {
			ret = bench_read_min(dev, buf, bs,
					     (off_t)pos + where[k], o->count,
					     &t[k]);
			if (ret)
				return ret;
			sum[k] += t[k];
		}
		row->pos_diff_ns[i] = (int64_t)t[1] -
				      ((int64_t)t[0] + (int64_t)t[2]) / 2;
	}
	row->npos = 7;
	row->pre_ns = (int64_t)(sum[0] / 7);
	row->on_ns = (int64_t)(sum[1] / 7);
	row->post_ns = (int64_t)(sum[2] / 7);
	row->diff_ns = row->on_ns - (row->pre_ns + row->post_ns) / 2;
	return 0;
}

int bench_align_at(struct device *dev, const struct bench_opts *o,
		   uint64_t spacing, const uint64_t *aligns, size_t naligns,
		   struct align_row **rows, size_t *nrows)
{
	const uint64_t bs = o->blocksize_byte;
	struct align_row *r;
	size_t n = 0, i;
	void *buf;
	int ret = 0;

	*rows = NULL;
	*nrows = 0;
	if (!bs || (bs / 2) % dev->logical_block_size || !naligns)
		return -EINVAL;
	for (i = 0; i < naligns; i++)
		if (aligns[i] < bs || aligns[i] > spacing ||
		    6 * spacing + aligns[i] + bs > dev->size_byte)
			return -EINVAL;
	r = calloc(naligns, sizeof(*r));
	buf = bench_alloc_io_buf(bs);
	if (!r || !buf) {
		ret = -ENOMEM;
		goto out_free;
	}
	for (i = 0; i < naligns; i++) {
		r[n].align_byte = aligns[i];
		ret = align_one(dev, o, buf, spacing, &r[n]);
		if (ret)
			break;
		n++;
	}
	/* what was measured before a failure is still worth printing */
	*rows = r;
	*nrows = n;
	r = NULL;
out_free:
	free(r);
	dev_free_buf(buf);
	return ret;
}

int bench_align(struct device *dev, const struct bench_opts *o,
		struct align_row **rows, size_t *nrows)
{
	const uint64_t bs = o->blocksize_byte;
	uint64_t maxalign = align_max(dev->size_byte, bs), a, aligns[64];
	size_t n = 0;

	*rows = NULL;
	*nrows = 0;
	if (!bs || maxalign < 2 * bs)
		return -EINVAL;
	for (a = maxalign; a >= 2 * bs && n < 64; a >>= 1)
		aligns[n++] = a;
	return bench_align_at(dev, o, maxalign, aligns, n, rows, nrows);
}

void print_align(FILE *out, const struct align_row *rows, size_t nrows)
{
	char pre[FMT_LEN], on[FMT_LEN], post[FMT_LEN], diff[FMT_LEN];
	size_t i;

	for (i = 0; i < nrows; i++)
		fprintf(out, "align %" PRIu64 "\tpre %s\ton %s\tpost %s\tdiff %s\n",
			rows[i].align_byte, fmt_time(pre, rows[i].pre_ns),
			fmt_time(on, rows[i].on_ns),
			fmt_time(post, rows[i].post_ns),
			fmt_time(diff, rows[i].diff_ns));
}

void json_align(struct json *j, const struct align_row *rows, size_t nrows)
{
	size_t i;

	for (i = 0; i < nrows; i++) {
		json_object_begin(j, NULL);
		json_u64(j, "align", rows[i].align_byte);
		json_i64(j, "pre_ns", rows[i].pre_ns);
		json_i64(j, "on_ns", rows[i].on_ns);
		json_i64(j, "post_ns", rows[i].post_ns);
		json_i64(j, "diff_ns", rows[i].diff_ns);
		json_object_end(j);
	}
}

int align_run(struct device *dev, const struct bench_opts *o, FILE *out)
{
	struct align_row *rows = NULL;
	size_t n = 0;
	int ret = bench_align(dev, o, &rows, &n);

	print_align(out, rows, n);
	free(rows);
	return ret;
}
