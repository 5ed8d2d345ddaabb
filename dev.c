// SPDX-License-Identifier: GPL-2.0-only
/*
 * The device layer: timed I/O through a table of backend operations.
 * Every backend (the O_DIRECT block device in device/blockdev.c, the
 * simulated card, the wrappers) is reached through these calls, so the
 * clock readings around a transfer enclose nothing but the transfer.
 * A wrapper is made and forwards what it does not change with the
 * dev_wrap_new() and dev_fwd_*() calls at the end.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dev.h"

/* Alignment of I/O buffers: enough for O_DIRECT on any logical block. */
#define DEV_BUF_ALIGN 4096

uint64_t dev_monotonic_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts))
		abort();	/* a timing tool without a clock cannot go on */
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

int dev_fail(struct device *dev, const char *op, off_t off, uint64_t len,
	     int err)
{
	dev->last_error.op = op;
	dev->last_error.off_byte = off;
	dev->last_error.len_byte = len;
	dev->last_error.err = err;
	return -err;
}

static volatile sig_atomic_t *dev_stop;

void dev_set_stop_flag(volatile sig_atomic_t *flag)
{
	dev_stop = flag;
}

int dev_read(struct device *dev, void *buf, size_t len, off_t off,
	     uint64_t *time_ns)
{
	uint64_t t0, t1;
	int ret;

	if (dev_stop && *dev_stop)
		return dev_fail(dev, "read", off, len, EINTR);
	dev->io_count++;
	t0 = dev->ops->now_ns(dev);
	ret = dev->ops->read(dev, buf, len, off);
	t1 = dev->ops->now_ns(dev);
	if (time_ns)
		*time_ns = t1 - t0;
	return ret;
}

int dev_write(struct device *dev, const void *buf, size_t len, off_t off,
	      uint64_t *time_ns)
{
	uint64_t t0, t1;
	int ret;

	if (dev_stop && *dev_stop)
		return dev_fail(dev, "write", off, len, EINTR);
	dev->io_count++;
	t0 = dev->ops->now_ns(dev);
	ret = dev->ops->write(dev, buf, len, off);
	t1 = dev->ops->now_ns(dev);
	if (time_ns)
		*time_ns = t1 - t0;
	return ret;
}

int dev_discard(struct device *dev, off_t off, uint64_t len,
		uint64_t *time_ns)
{
	uint64_t t0, t1;
	int ret;

	if (dev_stop && *dev_stop)
		return dev_fail(dev, "discard", off, len, EINTR);
	dev->io_count++;
	t0 = dev->ops->now_ns(dev);
	ret = dev->ops->discard(dev, off, len);
	t1 = dev->ops->now_ns(dev);
	if (time_ns)
		*time_ns = t1 - t0;
	return ret;
}

/* The requests one at a time, in order, up to the first failure. */
static int dev_batch_serial(struct device *dev, const struct dev_req *req,
			    unsigned int n)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; i < n && !ret; i++)
		ret = req[i].write ? dev->ops->write(dev, req[i].buf,
						     req[i].len, req[i].off) :
		      dev->ops->read(dev, req[i].buf, req[i].len,
				     req[i].off);
	return ret;
}

int dev_batch_ops(struct device *dev, const struct dev_req *req,
		  unsigned int n)
{
	if (!n || n > DEV_BATCH_MAX)
		return dev_fail(dev, "batch", 0, 0, EINVAL);
	if (dev->ops->batch)
		return dev->ops->batch(dev, req, n);
	return dev_batch_serial(dev, req, n);
}

int dev_batch(struct device *dev, const struct dev_req *req, unsigned int n,
	      uint64_t *time_ns)
{
	uint64_t t0, t1;
	int ret;

	if (dev_stop && *dev_stop && n)
		return dev_fail(dev, req->write ? "write" : "read", req->off,
				req->len, EINTR);
	dev->io_count += n;
	t0 = dev->ops->now_ns(dev);
	ret = dev_batch_ops(dev, req, n);
	t1 = dev->ops->now_ns(dev);
	if (time_ns)
		*time_ns = t1 - t0;
	return ret;
}

int dev_flush(struct device *dev)
{
	for (; dev; dev = dev->inner)
		if (dev->ops->flush)
			return dev->ops->flush(dev);
	return 0;
}

int dev_idle(struct device *dev, uint64_t ns)
{
	struct timespec ts;
	struct device *d;

	for (d = dev; d; d = d->inner)
		if (d->ops->idle)
			return d->ops->idle(d, ns);
	ts.tv_sec = (time_t)(ns / 1000000000ULL);
	ts.tv_nsec = (long)(ns % 1000000000ULL);
	while (nanosleep(&ts, &ts))
		if (errno != EINTR || (dev_stop && *dev_stop))
			return dev_fail(dev, "idle", 0, 0, errno);
	return 0;
}

void dev_untimed(struct device *dev, int on)
{
	for (; dev; dev = dev->inner)
		dev->untimed += on ? 1 : -1;
}

uint64_t dev_now_ns(struct device *dev)
{
	return dev->ops->now_ns(dev);
}

void dev_close(struct device *dev)
{
	if (dev)
		dev->ops->destroy(dev);
}

void *dev_alloc_buf(size_t len)
{
	void *buf;

	if (posix_memalign(&buf, DEV_BUF_ALIGN, len ? len : DEV_BUF_ALIGN))
		return NULL;
	return buf;
}

void dev_free_buf(void *buf)
{
	free(buf);
}

void dev_fill(void *buf, size_t len, enum dev_pattern pat, uint64_t seed)
{
	unsigned char *p = buf;
	uint64_t x = seed | 1;
	size_t i;

	switch (pat) {
	case DEV_PAT_ZERO:
		memset(buf, 0x00, len);
		break;
	case DEV_PAT_ONES:
		memset(buf, 0xff, len);
		break;
	case DEV_PAT_5A:
		memset(buf, 0x5a, len);
		break;
	case DEV_PAT_RANDOM:
		for (i = 0; i < len; i++) {
			/* xorshift64: cheap bytes the card cannot compress */
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			p[i] = (unsigned char)(x >> 24);
		}
		break;
	}
}

/* ---- wrappers ---- */

void *dev_wrap_new(size_t size, const struct dev_ops *ops,
		   struct device *inner)
{
	struct device *w = calloc(1, size);

	if (!w)
		return NULL;
	w->ops = ops;
	w->path = inner->path;
	w->size_byte = inner->size_byte;
	w->logical_block_size = inner->logical_block_size;
	w->inner = inner;
	return w;
}

/* Pass inner's result on, its failure recorded on the wrapper too. */
static int dev_fwd_result(struct device *dev, int ret)
{
	if (ret)
		dev->last_error = dev->inner->last_error;
	return ret;
}

int dev_fwd_read(struct device *dev, void *buf, size_t len, off_t off)
{
	struct device *in = dev->inner;

	in->io_count++;
	return dev_fwd_result(dev, in->ops->read(in, buf, len, off));
}

int dev_fwd_write(struct device *dev, const void *buf, size_t len,
		  off_t off)
{
	struct device *in = dev->inner;

	in->io_count++;
	return dev_fwd_result(dev, in->ops->write(in, buf, len, off));
}

int dev_fwd_discard(struct device *dev, off_t off, uint64_t len)
{
	struct device *in = dev->inner;

	in->io_count++;
	return dev_fwd_result(dev, in->ops->discard(in, off, len));
}

int dev_fwd_batch(struct device *dev, const struct dev_req *req,
		  unsigned int n)
{
	dev->inner->io_count += n;
	return dev_fwd_result(dev, dev_batch_ops(dev->inner, req, n));
}

uint64_t dev_fwd_now_ns(struct device *dev)
{
	return dev->inner->ops->now_ns(dev->inner);
}

void dev_fwd_destroy(struct device *dev)
{
	dev_close(dev->inner);
	free(dev);
}
