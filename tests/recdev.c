// SPDX-License-Identifier: GPL-2.0-only
/*
 * The recording device of the tests (see recdev.h).
 */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

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

size_t rec_count(const struct rec_dev *r, enum rec_op op)
{
	size_t i, n = 0;

	for (i = 0; i < r->n; i++)
		n += r->log[i].op == op;
	return n;
}
