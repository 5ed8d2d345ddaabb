// SPDX-License-Identifier: GPL-2.0-only
/*
 * The guard: a device in front of the card's that, before a write goes
 * down, saves the ranges it touches that are not saved yet (saving
 * lazily, -C alone) and notes the write in the journal's state, with the
 * time that takes kept off the clock.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "presint.h"

/* ---- saving lazily: a range just before the run first writes it ---- */

/*
 * The saved contents of the block the run wrote at another place whose
 * write data holds (x maps to where the run wrote it: a wraparound), or
 * NULL.  What x held before the run is then what was saved there.
 */
static const unsigned char *wix_alias(const struct preserve *p, uint64_t x,
				      const unsigned char *data)
{
	uint64_t h = pv_block_hash(0, data, p->lbs);
	size_t i;

	if (!p->wix_cap || pv_uniform(data, p->lbs))
		return NULL;
	i = (size_t)(h ^ (h >> 29)) & (p->wix_cap - 1);
	for (; p->wix[2 * i + 1]; i = (i + 1) & (p->wix_cap - 1)) {
		uint64_t y = p->wix[2 * i + 1] - 1;
		size_t k;

		if (p->wix[2 * i] != h || y == x ||
		    !pv_holds_block_of(p, y, data))
			continue;
		for (k = 0; k < p->n; k++) {
			const struct preserve_range *r = &p->r[k];

			if (r->saved && y >= r->off_byte &&
			    y - r->off_byte < r->len_byte)
				return r->data + (y - r->off_byte);
		}
	}
	return NULL;
}

/*
 * Does data, read at x, hold what the run wrote at another block (one it
 * still holds, as pv_state_check() found: the index is rebuilt there after
 * a crash)?  Only a card that maps two addresses to one place shows
 * that.
 */
int pv_wix_foreign(const struct preserve *p, uint64_t x,
		   const unsigned char *data)
{
	uint64_t h;
	size_t i;

	if (!p->wix_cap || pv_uniform(data, p->lbs))
		return 0;
	h = pv_block_hash(0, data, p->lbs);
	i = (size_t)(h ^ (h >> 29)) & (p->wix_cap - 1);
	for (; p->wix[2 * i + 1]; i = (i + 1) & (p->wix_cap - 1)) {
		uint64_t y = p->wix[2 * i + 1] - 1;

		if (p->wix[2 * i] == h && y != x &&
		    pv_holds_block_of(p, y, data))
			return 1;
	}
	return 0;
}

/* Read range r from dev (untimed) into its data; 0 or -errno. */
static int read_range(struct preserve *p, struct device *dev,
		      struct preserve_range *r)
{
	uint64_t done, step;
	int ret = 0;

	dev_untimed(dev, 1);
	for (done = 0; !ret && done < r->len_byte; done += step) {
		step = min((uint64_t)p->chunk_byte, r->len_byte - done);
		ret = dev_read(dev, r->data + done, step,
			       (off_t)(r->off_byte + done), NULL);
		p->lazy_calls++;
		p->lazy_bytes += step;
	}
	dev_untimed(dev, 0);
	return ret;
}

/*
 * Save range r: read it through dev, put it into the journal and sync,
 * then note it saved in the state and sync again.  A crash between the
 * two leaves the range unsaved (its tags 0), which it still is: nothing
 * was written there.  Returns 0 or -errno.
 */
static int save_range(struct preserve *p, struct device *dev,
		      struct preserve_range *r)
{
	uint64_t k, nb = r->len_byte / p->lbs, first = r->first_block;
	int ret = read_range(p, dev, r);

	if (ret)
		return ret;
	for (k = 0; k < nb; k++) {
		unsigned char *d = r->data + k * p->lbs;
		const unsigned char *was = wix_alias(p, r->off_byte +
						     k * p->lbs, d);

		if (was)
			memcpy(d, was, p->lbs);
		p->saved_h[first + k] = pv_saved_tag(r->off_byte +
						     k * p->lbs, d, p->lbs);
		p->state[2 * (first + k)] = pv_block_hash(r->off_byte +
							  k * p->lbs, d,
							  p->lbs);
		p->state[2 * (first + k) + 1] = p->state[2 * (first + k)];
	}
	if (pwrite(p->jfd, r->data, (size_t)r->len_byte,
		   (off_t)r->file_off) != (ssize_t)r->len_byte ||
	    fdatasync(p->jfd))
		return -EIO;
	ret = pv_state_put(p, first, nb);
	if (!ret && fdatasync(p->jfd))
		ret = -EIO;
	if (!ret)
		r->saved = 1;
	return ret;
}

/*
 * Save every range that [off, off + len) touches and that is not saved
 * yet, before that write goes down.  Returns 0 or -errno: the write must
 * then not go down.
 */
static int save_touched(struct preserve *p, struct device *dev,
			uint64_t off, uint64_t len)
{
	size_t i;
	int ret;

	if (!p->lazy)
		return 0;
	if (p->jfd < 0)
		return -EIO;
	for (i = 0; i < p->n; i++) {
		struct preserve_range *r = &p->r[i];

		if (r->saved || off >= r->off_byte + r->len_byte ||
		    r->off_byte >= off + len)
			continue;
		ret = save_range(p, dev, r);
		if (ret)
			return ret;
	}
	return 0;
}

/* ---- the guard: a device that records writes into the ranges ---- */

static const struct dev_ops guard_ops;

/*
 * Record the write in the journal, then pass it on.  The recording
 * happens inside the caller's timed interval, so its duration is taken
 * off the guard's clock: the measurement sees the write alone.
 */
static int guard_write(struct device *dev, const void *buf, size_t len,
		       off_t off)
{
	struct guard *g = (struct guard *)dev;
	struct device *in = g->dev.inner;

	if (g->p) {
		uint64_t t0 = in->ops->now_ns(in);
		int ret = save_touched(g->p, in, (uint64_t)off, len);

		if (!ret)
			pv_state_record(g->p, buf, len, (uint64_t)off);
		g->paused_ns += in->ops->now_ns(in) - t0;
		if (ret)
			return dev_fail(&g->dev, "save", off, len, -ret);
	}
	return dev_fwd_write(dev, buf, len, off);
}

/* A discard leaves blocks that read as zeros on the cards that matter. */
static int guard_discard(struct device *dev, off_t off, uint64_t len)
{
	struct guard *g = (struct guard *)dev;
	struct device *in = g->dev.inner;
	unsigned char *zero;

	if (g->p && (zero = calloc(1, g->p->chunk_byte))) {
		uint64_t t0 = in->ops->now_ns(in);
		uint64_t done, step;
		int ret = save_touched(g->p, in, (uint64_t)off, len);

		if (ret) {
			free(zero);
			g->paused_ns += in->ops->now_ns(in) - t0;
			return dev_fail(&g->dev, "save", off, len, -ret);
		}
		for (done = 0; done < len; done += step) {
			step = min((uint64_t)g->p->chunk_byte, len - done);
			pv_state_record(g->p, zero, step, (uint64_t)off + done);
		}
		free(zero);
		g->paused_ns += in->ops->now_ns(in) - t0;
	}
	return dev_fwd_discard(dev, off, len);
}

/* Do requests a and b touch a byte in common? */
static int req_overlap(const struct dev_req *a, const struct dev_req *b)
{
	return a->off < b->off + (off_t)b->len &&
	       b->off < a->off + (off_t)a->len;
}

/*
 * The requests at the head of req that may go down together: up to the
 * first that overlaps an earlier one where either writes.  Inside one
 * batch the device may complete them in any order, so each block holds
 * either what it held or the one write of the batch that covers it,
 * which is what the journal records.
 */
static unsigned int guard_run(const struct dev_req *req, unsigned int n)
{
	unsigned int i, k;

	for (i = 1; i < n; i++)
		for (k = 0; k < i; k++)
			if ((req[i].write || req[k].write) &&
			    req_overlap(&req[i], &req[k]))
				return i;
	return n;
}

/*
 * Record every write of a batch in the journal before any of them
 * reaches the device, then pass the batch on, in runs that overlap
 * nothing inside; the recording is off the clock, as for one write.
 */
static int guard_batch(struct device *dev, const struct dev_req *req,
		       unsigned int n)
{
	struct guard *g = (struct guard *)dev;
	struct device *in = g->dev.inner;
	unsigned int i, run;

	for (; n; req += run, n -= run) {
		int ret;

		run = guard_run(req, n);
		if (g->p) {
			uint64_t t0 = in->ops->now_ns(in);

			for (i = 0, ret = 0; !ret && i < run; i++)
				if (req[i].write)
					ret = save_touched(g->p, in,
							   (uint64_t)req[i].off,
							   req[i].len);
			for (i = 0; !ret && i < run; i++)
				if (req[i].write)
					pv_state_record(g->p, req[i].buf,
							req[i].len,
							(uint64_t)req[i].off);
			g->paused_ns += in->ops->now_ns(in) - t0;
			if (ret)
				return dev_fail(&g->dev, "save", req->off,
						req->len, -ret);
		}
		ret = dev_fwd_batch(dev, req, run);
		if (ret)
			return ret;
	}
	return 0;
}

static uint64_t guard_now_ns(struct device *dev)
{
	return dev_fwd_now_ns(dev) - ((struct guard *)dev)->paused_ns;
}

static void guard_destroy(struct device *dev)
{
	struct guard *g = (struct guard *)dev;

	if (g->p)
		pv_guard_detach(g->p);
	dev_fwd_destroy(dev);
}

static const struct dev_ops guard_ops = {
	.read = dev_fwd_read,	/* a read changes nothing to note */
	.write = guard_write,
	.discard = guard_discard,
	.batch = guard_batch,
	.now_ns = guard_now_ns,
	.destroy = guard_destroy,
};

int preserve_wrap(struct device **out, struct device *inner)
{
	struct guard *g;

	*out = NULL;
	if (!inner)
		return -EINVAL;
	g = dev_wrap_new(sizeof(*g), &guard_ops, inner);
	if (!g)
		return -ENOMEM;
	*out = &g->dev;
	return 0;
}

/*
 * The guard dev is, or stacks on (a progress line), or NULL.  Let it
 * record p's writes from now on (pv_guard_attach()).
 */
struct guard *pv_find_guard(struct device *dev)
{
	while (dev && dev->ops != &guard_ops)
		dev = dev->inner;
	return (struct guard *)dev;
}

int preserve_lazy_io(struct device *dev, uint64_t *calls, uint64_t *bytes,
		     uint64_t *paused_ns)
{
	const struct guard *g = pv_find_guard(dev);

	*calls = g && g->p ? g->p->lazy_calls : 0;
	*bytes = g && g->p ? g->p->lazy_bytes : 0;
	*paused_ns = g ? g->paused_ns : 0;
	return g && g->p && g->p->lazy;
}

void pv_guard_attach(struct preserve *p, struct device *dev)
{
	struct guard *g = pv_find_guard(dev);

	if (!g || g->p)
		return;
	g->p = p;
	p->guard = g;
}
