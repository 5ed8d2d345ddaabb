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
