// SPDX-License-Identifier: GPL-2.0-only
/*
 * The recording device of the tests (see recdev.h).
 */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "recdev.h"

static int rec_log(struct device *dev, enum rec_op op, const void *buf,
		   size_t len, off_t off)
{
	struct rec_dev *r = (struct rec_dev *)dev;
	const unsigned char *p = buf;
	struct rec_io *io;

	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 64;
		r->log = realloc(r->log, r->cap * sizeof(*r->log));
		ck_assert_ptr_nonnull(r->log);
	}
	io = &r->log[r->n++];
	io->op = op;
	io->off = (uint64_t)off;
	io->len = len;
	io->buf = buf;
	io->untimed = dev->untimed;
	io->pattern = -1;
	if (op == REC_WRITE && len) {
		size_t i;

		io->pattern = p[0];
		for (i = 1; i < len; i++)
			if (p[i] != p[0]) {
				io->pattern = -1;
				break;
			}
	}
	if (buf && (uintptr_t)buf % 512)
		r->misaligned++;
	if (op == REC_WRITE && r->wlog_fd > 0)
		ck_assert_int_eq(write(r->wlog_fd, io, sizeof(*io)),
				 (ssize_t)sizeof(*io));
	if (dev->inner)
		return 0;	/* a tap: inner says */
	/* outside the device: refused, as a real one would */
	if (off < 0 || !len || (uint64_t)off + len > dev->size_byte)
		return dev_fail(dev, op == REC_READ ? "read" :
				op == REC_WRITE ? "write" : "discard", off,
				len, EINVAL);
	if (r->fail_at && r->n == r->fail_at)
		return dev_fail(dev, op == REC_READ ? "read" :
				op == REC_WRITE ? "write" : "discard", off,
				len, r->fail_err);
	switch (op) {
	case REC_READ:
		r->now_ns += REC_READ_NS(len);
		break;
	case REC_WRITE:
		r->now_ns += REC_WRITE_NS(len);
		break;
	default:
		r->now_ns += REC_DISCARD_NS;
		break;
	}
	return 0;
}

static int rec_read(struct device *dev, void *buf, size_t len, off_t off)
{
	return rec_log(dev, REC_READ, buf, len, off);
}

static int rec_write(struct device *dev, const void *buf, size_t len,
		     off_t off)
{
	return rec_log(dev, REC_WRITE, buf, len, off);
}

static int rec_discard(struct device *dev, off_t off, uint64_t len)
{
	return rec_log(dev, REC_DISCARD, NULL, len, off);
}

static uint64_t rec_now(struct device *dev)
{
	struct rec_dev *r = (struct rec_dev *)dev;

	r->clock_reads++;
	return r->now_ns;
}

static void rec_destroy(struct device *dev)
{
	struct rec_dev *r = (struct rec_dev *)dev;

	free(r->log);
	free(r);
}

static const struct dev_ops rec_ops = {
	.read = rec_read,
	.write = rec_write,
	.discard = rec_discard,
	.now_ns = rec_now,
	.destroy = rec_destroy,
};

struct rec_dev *rec_open(uint64_t size)
{
	struct rec_dev *r = calloc(1, sizeof(*r));

	ck_assert_ptr_nonnull(r);
	r->dev.ops = &rec_ops;
	r->dev.path = "recorder";
	r->dev.size_byte = size;
	r->dev.logical_block_size = 512;
	return r;
}

/* The tap's operations: log, then pass on to inner. */
static int tap_result(struct device *dev, int ret)
{
	if (ret)
		dev->last_error = dev->inner->last_error;
	return ret;
}

static int tap_read(struct device *dev, void *buf, size_t len, off_t off)
{
	struct device *in = dev->inner;

	rec_log(dev, REC_READ, buf, len, off);
	in->io_count++;
	return tap_result(dev, in->ops->read(in, buf, len, off));
}

static int tap_write(struct device *dev, const void *buf, size_t len,
		     off_t off)
{
	struct device *in = dev->inner;

	rec_log(dev, REC_WRITE, buf, len, off);
	in->io_count++;
	return tap_result(dev, in->ops->write(in, buf, len, off));
}

static int tap_discard(struct device *dev, off_t off, uint64_t len)
{
	struct device *in = dev->inner;

	rec_log(dev, REC_DISCARD, NULL, len, off);
	in->io_count++;
	return tap_result(dev, in->ops->discard(in, off, len));
}

static uint64_t tap_now(struct device *dev)
{
	return dev->inner->ops->now_ns(dev->inner);
}

static void tap_destroy(struct device *dev)
{
	dev_close(dev->inner);
	rec_destroy(dev);
}

static const struct dev_ops tap_ops = {
	.read = tap_read,
	.write = tap_write,
	.discard = tap_discard,
	.now_ns = tap_now,
	.destroy = tap_destroy,
};

struct rec_dev *rec_tap(struct device *inner)
{
	struct rec_dev *r = rec_open(inner->size_byte);

	r->dev.ops = &tap_ops;
	r->dev.path = inner->path;
	r->dev.logical_block_size = inner->logical_block_size;
	r->dev.inner = inner;
	return r;
}

size_t rec_count(const struct rec_dev *r, enum rec_op op)
{
	size_t i, n = 0;

	for (i = 0; i < r->n; i++)
		n += r->log[i].op == op;
	return n;
}

/* ---- what --preserve wrote back ---- */

#define REC_MIB ((uint64_t)1024 * 1024)

/* A byte interval [a, b). */
struct rec_span {
	uint64_t a, b;
};

static int rec_span_cmp(const void *x, const void *y)
{
	const struct rec_span *s = x, *t = y;

	return (s->a > t->a) - (s->a < t->a);
}

/*
 * The writes tap r logged from its I/O from on, up to to, with
 * dev_untimed() on (untimed: --preserve's write-back) or off (the
 * test's), sorted and merged where they touch or overlap, into *s
 * (malloc'd); returns how many; *nio gets the number of writes.
 */
static size_t rec_spans(const struct rec_dev *r, size_t from, size_t to,
		      int untimed, struct rec_span **s, size_t *nio)
{
	struct rec_span *v = malloc((r->n ? r->n : 1) * sizeof(*v));
	size_t i, n = 0, k = 0;

	ck_assert_ptr_nonnull(v);
	for (i = from; i < to; i++) {
		if (r->log[i].op != REC_WRITE ||
		    !r->log[i].untimed != !untimed)
			continue;
		v[n].a = r->log[i].off;
		v[n++].b = r->log[i].off + r->log[i].len;
	}
	*nio = n;
	qsort(v, n, sizeof(*v), rec_span_cmp);
	for (i = 0; i < n; i++) {
		if (k && v[i].a <= v[k - 1].b) {
			if (v[i].b > v[k - 1].b)
				v[k - 1].b = v[i].b;
			continue;
		}
		v[k++] = v[i];
	}
	*s = v;
	return k;
}

/* Does one of the n ranges rg hold all of [a, b)? */
static int rec_in_one(const struct bench_range *rg, size_t n, uint64_t a,
		    uint64_t b)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (a >= rg[i].start_byte && b <= rg[i].end_byte)
			return 1;
	return 0;
}

/*
 * What a restore writes back for the n spans s the test wrote: each, and
 * the gap between two of them in one range when under 1 REC_MIB (preserve
 * writes it rather than write twice into one erase block); in place,
 * returns how many.
 */
static size_t rec_joined(struct rec_span *s, size_t n,
		       const struct bench_range *rg, size_t nrg)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		if (k && s[i].a - s[k - 1].b < REC_MIB &&
		    rec_in_one(rg, nrg, s[k - 1].a, s[i].b)) {
			s[k - 1].b = s[i].b;
			continue;
		}
		s[k++] = s[i];
	}
	return k;
}

/* Writes of at most 1 REC_MIB (preserve's largest) that cover n spans. */
static size_t rec_chunks(const struct rec_span *s, size_t n)
{
	size_t i, c = 0;

	for (i = 0; i < n; i++)
		c += (size_t)((s[i].b - s[i].a + REC_MIB - 1) / REC_MIB);
	return c;
}

/*
 * Between I/O from and to of tap r, a restore of the ranges rg wrote
 * back what the test wrote, no more (the gaps rec_joined() allows aside),
 * in the fewest writes of at most 1 REC_MIB; returns how many distinct spans
 * the test wrote, *nback how many writes went back.
 */
size_t rec_wrote_back_written(const struct rec_dev *r, size_t from,
				   size_t to, const struct bench_range *rg,
				   size_t nrg, size_t *nback)
{
	struct rec_span *w, *b;
	size_t nw, nj, nb, iow, i;

	nw = rec_spans(r, from, to, 0, &w, &iow);
	nb = rec_spans(r, from, to, 1, &b, nback);
	ck_assert_uint_gt(nw, 0);
	nj = rec_joined(w, nw, rg, nrg);
	ck_assert_msg(*nback == rec_chunks(w, nj),
		      "%zu writes back for %zu spans written (%zu writes, %zu chunks)",
		      *nback, nw, iow, rec_chunks(w, nj));
	ck_assert_uint_eq(nb, nj);
	for (i = 0; i < nj; i++)
		ck_assert_msg(b[i].a == w[i].a && b[i].b == w[i].b,
			      "span %zu: wrote %llu-%llu, back %llu-%llu", i,
			      (unsigned long long)w[i].a,
			      (unsigned long long)w[i].b,
			      (unsigned long long)b[i].a,
			      (unsigned long long)b[i].b);
	free(w);
	free(b);
	return nw;
}

struct rec_dev *rec_wlog_load(struct rec_dev *r, int fd)
{
	struct rec_io io;

	if (!r)
		r = rec_open(UINT64_MAX / 2);
	ck_assert_int_eq(lseek(fd, 0, SEEK_SET), 0);
	while (read(fd, &io, sizeof(io)) == (ssize_t)sizeof(io)) {
		if (r->n == r->cap) {
			r->cap = r->cap ? 2 * r->cap : 64;
			r->log = realloc(r->log, r->cap * sizeof(*r->log));
			ck_assert_ptr_nonnull(r->log);
		}
		io.buf = NULL;
		r->log[r->n++] = io;
	}
	return r;
}
