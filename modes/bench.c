// SPDX-License-Identifier: GPL-2.0-only
/*
 * The read tests: align, scatter and interval.  They only read, so they
 * are safe on a card holding data.  Each fills an array of results; the
 * print functions reproduce the classic output formats.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "format.h"
#include "json.h"

void bench_opts_default(struct bench_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->blocksize_byte = 16384;
	o->erasesize_byte = 4 << 20;
	o->count = 8;
	o->scatter_order = 9;
	o->scatter_span = 1;
	o->interval_order = 13;
	o->open_au_nr = 2;
	o->fat_nr = 6;
	o->offset_byte = 16 << 20;
	o->log = stderr;
}

/* One round of a bijection on bits-wide integers: add, odd multiply, xorshift. */
static uint64_t shuffle_round(uint64_t x, unsigned int bits, uint64_t mask,
			      uint64_t key)
{
	x = (x + key) & mask;
	x = (x * 0x9e3779b97f4a7c15ULL) & mask;	/* odd: invertible mod 2^bits */
	x ^= x >> (bits / 2 + 1);
	return x;
}

/* A permutation of [0, 2^bits), mixed enough to look random. */
static uint64_t shuffle_pow2(uint64_t x, unsigned int bits, uint64_t key)
{
	uint64_t mask = bits >= 64 ? ~0ULL : (1ULL << bits) - 1;
	uint64_t k = key * 0xbf58476d1ce4e5b9ULL + 0x94d049bb133111ebULL;
	int r;

	for (r = 0; r < 4; r++) {
		x = shuffle_round(x, bits, mask, k);
		k = (k ^ (k >> 31)) * 0xd6e8feb86659fd93ULL + 1;
	}
	return x;
}

uint64_t bench_shuffle(uint64_t i, uint64_t n, uint64_t key)
{
	unsigned int bits = 0;
	uint64_t x;

	if (n <= 1)
		return 0;
	i %= n;		/* the walk below only ends for i inside [0, n) */
	while (bits < 64 && (1ULL << bits) < n)
		bits++;
	/*
	 * Cycle walking: following the permutation of the enclosing power of
	 * two until it lands inside [0, n) is itself a permutation of [0, n).
	 */
	x = shuffle_pow2(i, bits, key);
	while (x >= n)
		x = shuffle_pow2(x, bits, key);
	return x;
}

/*
 * An I/O buffer of len bytes; NULL when out of memory or when len does not
 * fit in this machine's size_t (a 4 GiB block on a 32-bit board).
 */
static void *alloc_io_buf(uint64_t len)
{
	return len <= SIZE_MAX ? dev_alloc_buf((size_t)len) : NULL;
}

uint64_t align_max(uint64_t dev_size, uint64_t blocksize)
{
	uint64_t a = 1;

	if (7 + blocksize > dev_size)
		return 0;
	while (a < (1ULL << 60) && 7 * (a << 1) + blocksize <= dev_size)
		a <<= 1;
	return a;
}

/* The minimum time of count reads of len bytes at off. */
static int read_min(struct device *dev, void *buf, size_t len, off_t off,
		    unsigned int count, uint64_t *min_ns)
{
	uint64_t t;
	unsigned int i;

	*min_ns = UINT64_MAX;
	for (i = 0; i < count; i++) {
		int ret = dev_read(dev, buf, len, off, &t);

		if (ret)
			return ret;
		if (t < *min_ns)
			*min_ns = t;
	}
	return 0;
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
			ret = read_min(dev, buf, bs, (off_t)pos + where[k],
				       o->count, &t[k]);
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
	buf = alloc_io_buf(bs);
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

/* Keep the points of p[0..n) that were read, in order; returns how many. */
static size_t scatter_measured(struct scatter_point *p, uint64_t n)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (p[i].time_ns != UINT64_MAX)
			p[k++] = p[i];
	return k;
}

int bench_scatter(struct device *dev, const struct bench_opts *o,
		  struct scatter_point **pts, size_t *npts)
{
	const uint64_t bs = o->blocksize_byte;
	const uint64_t n = 1ULL << o->scatter_order;
	const uint64_t len = bs * o->scatter_span;
	struct scatter_point *p;
	unsigned int round;
	uint64_t i, t;
	void *buf;
	int ret = 0;

	*pts = NULL;
	*npts = 0;
	if (o->scatter_order > 30 || !o->scatter_span ||
	    (n - 1 + o->scatter_span) * bs > dev->size_byte)
		return -EINVAL;
	p = n <= SIZE_MAX / sizeof(*p) ? malloc(n * sizeof(*p)) : NULL;
	buf = alloc_io_buf(len);
	if (!p || !buf) {
		ret = -ENOMEM;
		goto out_free;
	}
	for (i = 0; i < n; i++) {
		p[i].off_byte = i * bs;
		p[i].time_ns = UINT64_MAX;
	}
	/*
	 * A pseudo-random visiting order keeps the card's read-ahead from
	 * hiding the cost of each position.
	 */
	for (round = 0; round < o->count && !ret; round++) {
		for (i = 0; i < n; i++) {
			uint64_t pos = bench_shuffle(i, n, round);

			ret = dev_read(dev, buf, len, (off_t)(pos * bs), &t);
			if (ret)
				break;
			if (t < p[pos].time_ns)
				p[pos].time_ns = t;
		}
	}
	/* cut short: the positions read so far are still worth printing */
	*npts = ret ? scatter_measured(p, n) : n;
	*pts = p;
	p = NULL;
out_free:
	free(p);
	dev_free_buf(buf);
	return ret;
}

void print_scatter(FILE *out, const struct scatter_point *pts, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		fprintf(out, "%f\t%f\n", pts[i].off_byte / (1024.0 * 1024.0),
			pts[i].time_ns / 1e6);
}

/* Bytes the interval test spans on the device for its largest size. */
static uint64_t interval_span(const struct bench_opts *o)
{
	uint64_t max = 512ULL << (o->interval_order - 1);

	return ((uint64_t)(o->count - 1) * 9 + 1) * max;
}

uint64_t interval_first_len(unsigned int logical_block_size)
{
	return logical_block_size > 512 ? logical_block_size : 512;
}

/* Time count reads of len bytes, 9 * len apart, into r. */
static int interval_measure(struct device *dev, unsigned int count,
			    void *buf, uint64_t len, struct interval_row *r)
{
	uint64_t t, sum = 0;
	unsigned int j;
	int ret;

	r->len_byte = len;
	r->min_ns = UINT64_MAX;
	for (j = 0; j < count; j++) {
		ret = dev_read(dev, buf, len, (off_t)(9 * len * j), &t);
		if (ret)
			return ret;
		sum += t;
		if (t < r->min_ns)
			r->min_ns = t;
		if (t > r->max_ns)
			r->max_ns = t;
	}
	r->avg_ns = sum / count;
	return 0;
}

int bench_interval(struct device *dev, const struct bench_opts *o,
		   struct interval_row **rows, size_t *nrows)
{
	const unsigned int order = o->interval_order;
	const uint64_t max = 512ULL << (order - 1);
	uint64_t len = interval_first_len(dev->logical_block_size);
	struct interval_row *r;
	size_t k = 0;
	void *buf;
	int ret = 0;

	*rows = NULL;
	*nrows = 0;
	if (order < 1 || order > 30 || !o->count || len > max ||
	    interval_span(o) > dev->size_byte)
		return -EINVAL;
	r = calloc(order, sizeof(*r));
	buf = alloc_io_buf(max);
	if (!r || !buf) {
		ret = -ENOMEM;
		goto out_free;
	}
	for (; len <= max && !ret; len *= 2)
		ret = interval_measure(dev, o->count, buf, len, &r[k++]);
	/* the sizes measured before a failure are still worth printing */
	*rows = r;
	*nrows = ret ? k - 1 : k;
	r = NULL;
out_free:
	free(r);
	dev_free_buf(buf);
	return ret;
}

struct interval_fit interval_regress(const struct interval_row *rows,
				     size_t nrows)
{
	struct interval_fit fit = { 0, 0 };
	double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0, slope, det;
	size_t i;

	/* the three smallest sizes are dominated by command overhead */
	if (nrows < 5)
		return fit;
	for (i = 3; i < nrows; i++) {
		double x = (double)rows[i].len_byte, y = (double)rows[i].min_ns;
		/*
		 * Timing noise is proportional to the time, so weigh each
		 * point by 1/y^2: least squares on relative errors.  Plain
		 * least squares lets the jitter of the longest reads swamp
		 * the access time.
		 */
		double w = y > 0 ? 1.0 / (y * y) : 0;

		sw += w;
		sx += w * x;
		sy += w * y;
		sxx += w * x * x;
		sxy += w * x * y;
	}
	det = sw * sxx - sx * sx;
	if (det <= 0)
		return fit;
	slope = (sw * sxy - sx * sy) / det;	/* ns per byte */
	fit.access_ns = (sy - slope * sx) / sw;
	fit.bytes_per_s = slope > 0 ? 1e9 / slope : 0;
	return fit;
}

double interval_overhead_ns(const struct interval_fit *fit,
			    const struct interval_row *row)
{
	double ns_per_byte = fit->bytes_per_s > 0 ? 1e9 / fit->bytes_per_s : 0;

	return row->min_ns - (fit->access_ns + ns_per_byte * row->len_byte);
}

void print_interval(FILE *out, const struct interval_row *rows,
		    size_t nrows)
{
	char mn[FMT_LEN], avg[FMT_LEN], mx[FMT_LEN], acc[FMT_LEN];
	struct interval_fit fit = interval_regress(rows, nrows);
	size_t i;

	for (i = 0; i < nrows; i++)
		fprintf(out, "%" PRIu64 " bytes: min %s avg %s max %s: %g MB/s\n",
			rows[i].len_byte, fmt_time(mn, rows[i].min_ns),
			fmt_time(avg, rows[i].avg_ns),
			fmt_time(mx, rows[i].max_ns),
			rows[i].len_byte * 1e3 / rows[i].min_ns);
	fprintf(out, "%g MB/s, %s access time\n", fit.bytes_per_s / 1e6,
		fmt_time(acc, (int64_t)fit.access_ns));
	/* overhead: how far each size lies above the regression line */
	for (i = 0; i < nrows; i++)
		fprintf(out, "bytes %" PRIu64 ", time %" PRIu64 " overhead %g\n",
			rows[i].len_byte, rows[i].min_ns,
			interval_overhead_ns(&fit, &rows[i]));
}
