// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fault-injecting device.  It stacks on any device: each operation is
 * numbered, checked against the plan, and either forwarded to the inner
 * device or failed the way real hardware fails.
 *
 * The device interface moves whole requests (dev.h: "transfer exactly
 * len bytes"), so a short transfer cannot be returned as a count.  It is
 * modelled as what the real backend makes of a device whose transfer
 * stops early: the first part reaches the inner device, then the
 * operation fails with EIO (ENOSPC for a full device), recorded for the
 * whole request.  A short read leaves a poison pattern in the part of
 * the buffer it did not fill, so a caller that ignores the error reads
 * garbage rather than stale data that looks right.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "fault.h"

/* What a short read leaves in the bytes it did not transfer. */
#define FAULT_POISON	0xa5

/* A device with faults planted in front of another one. */
struct fault_device {
	struct device dev;		/* must be first */
	struct fault_plan plan;		/* what to break */
	uint64_t ops;			/* operations seen so far */
	int gone;			/* ENODEV happened: all ops fail */
	int signalled;			/* signal_write_byte was met */
	struct fault_stats st;		/* for fault_get_stats() */
};

static const struct dev_ops fault_ops;

void fault_plan_init(struct fault_plan *plan)
{
	memset(plan, 0, sizeof(*plan));
	plan->enodev_op = FAULT_NEVER;
	plan->eio_op = FAULT_NEVER;
	plan->eio_byte = FAULT_NEVER;
	plan->eio_kinds = FAULT_ALL;
	plan->short_op = FAULT_NEVER;
	plan->enospc_byte = FAULT_NEVER;
	plan->lost_byte = FAULT_NEVER;
	plan->signal_op = FAULT_NEVER;
	plan->signal = 0;
	plan->signal_write_byte = FAULT_NEVER;
}

/* Returns 0 if plan can be followed, else -EINVAL. */
static int fault_plan_check(const struct fault_plan *plan)
{
	if (plan->eio_kinds & ~(unsigned int)FAULT_ALL)
		return -EINVAL;
	if (!plan->enodev_op || !plan->eio_op || !plan->short_op ||
	    !plan->signal_op)
		return -EINVAL;	/* operations count from 1 */
	return 0;
}

/* Does [off, off + len) contain byte? */
static int fault_covers(off_t off, uint64_t len, uint64_t byte)
{
	return byte != FAULT_NEVER && (uint64_t)off <= byte &&
	       byte - (uint64_t)off < len;
}

/* len rounded down to whole logical blocks of dev. */
static uint64_t fault_round(const struct device *dev, uint64_t len)
{
	return len - len % dev->logical_block_size;
}

/*
 * Decide the fate of one operation of kind (FAULT_READ ...) on
 * [off, off + len).  Returns 0 to forward it whole, or the positive errno
 * it must fail with, after forwarding the first *part bytes.
 */
static int fault_decide(struct fault_device *f, unsigned int kind, off_t off,
			uint64_t len, uint64_t *part)
{
	const struct fault_plan *p = &f->plan;
	uint64_t op = ++f->ops;

	*part = 0;
	if (op == p->signal_op && p->signal)
		raise(p->signal);
	if (kind == FAULT_WRITE && p->signal && !f->signalled &&
	    fault_covers(off, len, p->signal_write_byte)) {
		f->signalled = 1;
		raise(p->signal);
	}
	if (f->gone || op >= p->enodev_op) {
		f->gone = 1;
		return ENODEV;
	}
	if (op == p->eio_op)
		return EIO;
	if ((p->eio_kinds & kind) && fault_covers(off, len, p->eio_byte))
		return EIO;
	if (kind != FAULT_DISCARD && op == p->short_op) {
		*part = fault_round(&f->dev, p->short_byte < len ?
					     p->short_byte : len);
		return EIO;
	}
	if (kind == FAULT_WRITE && p->enospc_byte != FAULT_NEVER &&
	    (uint64_t)off + len > p->enospc_byte) {
		if (p->enospc_byte > (uint64_t)off)
			*part = fault_round(&f->dev,
					    p->enospc_byte - (uint64_t)off);
		return ENOSPC;
	}
	return 0;
}

/* A read whose fate fault_decide() gave: err after the first part bytes. */
static int fault_read_as(struct fault_device *f, void *buf, size_t len,
			 off_t off, int err, uint64_t part)
{
	if (part) {
		int ret = dev_fwd_read(&f->dev, buf, part, off);

		if (ret)
			return ret;
	}
	if (!err)
		return 0;
	if (buf && part < len)
		memset((char *)buf + part, FAULT_POISON, len - part);
	f->st.injected++;
	return dev_fail(&f->dev, "read", off, len, err);
}

static int fault_read(struct device *dev, void *buf, size_t len, off_t off)
{
	struct fault_device *f = (struct fault_device *)dev;
	uint64_t part;
	int err;

	f->st.reads++;
	err = fault_decide(f, FAULT_READ, off, len, &part);
	if (!err)
		part = len;
	return fault_read_as(f, buf, len, off, err, part);
}

/*
 * The fate of a write: the errno it fails with (0: none) after the first
 * *part bytes; a write that loses its tail (lost_byte) fails with none.
 */
static int fault_write_fate(struct fault_device *f, size_t len, off_t off,
			    uint64_t *part)
{
	uint64_t lost = f->plan.lost_byte;
	int err;

	f->st.writes++;
	err = fault_decide(f, FAULT_WRITE, off, len, part);
	if (err)
		return err;
	*part = len;
	if (lost != FAULT_NEVER && (uint64_t)off + len > lost) {
		*part = lost > (uint64_t)off ?
				fault_round(&f->dev, lost - (uint64_t)off) : 0;
		f->st.lost_byte += len - *part;
		f->st.injected++;
	}
	return 0;
}

/* A write whose fate fault_write_fate() gave. */
static int fault_write_as(struct fault_device *f, const void *buf,
			  size_t len, off_t off, int err, uint64_t part)
{
	if (part) {
		int ret = dev_fwd_write(&f->dev, buf, part, off);

		if (ret)
			return ret;
		f->st.written_byte += part;
	}
	if (!err)
		return 0;
	f->st.injected++;
	return dev_fail(&f->dev, "write", off, len, err);
}

static int fault_write(struct device *dev, const void *buf, size_t len,
		       off_t off)
{
	struct fault_device *f = (struct fault_device *)dev;
	uint64_t part;
	int err = fault_write_fate(f, len, off, &part);

	return fault_write_as(f, buf, len, off, err, part);
}

/* Pass n requests no fault touches to the inner device as one batch. */
static int fault_pass(struct fault_device *f, const struct dev_req *req,
		      unsigned int n)
{
	unsigned int i;
	int ret;

	if (!n)
		return 0;
	ret = dev_fwd_batch(&f->dev, req, n);
	if (ret)
		return ret;
	for (i = 0; i < n; i++)
		if (req[i].write)
			f->st.written_byte += req[i].len;
	return 0;
}

/*
 * A batch: each request numbered and decided in order as if alone; the
 * runs of untouched ones go down as batches, a request with a fault is
 * served as fault_read() or fault_write() would, and the first failure
 * ends the batch (what follows it is not issued).
 */
static int fault_batch(struct device *dev, const struct dev_req *req,
		       unsigned int n)
{
	struct fault_device *f = (struct fault_device *)dev;
	unsigned int i, run = 0;
	uint64_t part;
	int err, ret;

	for (i = 0; i < n; i++) {
		const struct dev_req *q = &req[i];

		if (q->write) {
			err = fault_write_fate(f, q->len, q->off, &part);
		} else {
			f->st.reads++;
			err = fault_decide(f, FAULT_READ, q->off, q->len,
					   &part);
			if (!err)
				part = q->len;
		}
		if (!err && part == q->len) {
			run++;
			continue;
		}
		ret = fault_pass(f, q - run, run);
		run = 0;
		if (!ret)
			ret = q->write ? fault_write_as(f, q->buf, q->len,
							q->off, err, part) :
			      fault_read_as(f, q->buf, q->len, q->off, err,
					    part);
		if (ret)
			return ret;
	}
	return fault_pass(f, req + n - run, run);
}

static int fault_discard(struct device *dev, off_t off, uint64_t len)
{
	struct fault_device *f = (struct fault_device *)dev;
	uint64_t part;
	int err;

	f->st.discards++;
	err = fault_decide(f, FAULT_DISCARD, off, len, &part);
	if (err) {
		f->st.injected++;
		return dev_fail(dev, "discard", off, len, err);
	}
	return dev_fwd_discard(dev, off, len);
}

static const struct dev_ops fault_ops = {
	.read = fault_read,
	.write = fault_write,
	.discard = fault_discard,
	.batch = fault_batch,
	.now_ns = dev_fwd_now_ns,	/* a wrapper takes no time of its own */
	.destroy = dev_fwd_destroy,
};

int fault_wrap(struct device **out, struct device *inner,
	       const struct fault_plan *plan)
{
	struct fault_device *f;
	struct fault_plan none;

	*out = NULL;
	if (!inner)
		return -EINVAL;
	if (!plan) {
		fault_plan_init(&none);
		plan = &none;
	}
	if (fault_plan_check(plan))
		return -EINVAL;
	f = dev_wrap_new(sizeof(*f), &fault_ops, inner);
	if (!f)
		return -ENOMEM;
	f->plan = *plan;
	*out = &f->dev;
	return 0;
}

int fault_get_stats(const struct device *dev, struct fault_stats *st)
{
	if (!dev || dev->ops != &fault_ops)
		return -EINVAL;
	*st = ((const struct fault_device *)dev)->st;
	return 0;
}

int fault_set_plan(struct device *dev, const struct fault_plan *plan)
{
	if (!dev || dev->ops != &fault_ops || !plan || fault_plan_check(plan))
		return -EINVAL;
	((struct fault_device *)dev)->plan = *plan;
	return 0;
}
