// SPDX-License-Identifier: GPL-2.0-only
/*
 * The write latency of --auto's run (record/latrec.h): a wrapper over
 * the device the run is given that times every single write the steps
 * make up to LAT_MAX_BYTE (a larger one takes long by its size alone;
 * batches of queued writes, the class check's, are left out: their time
 * is the queue's), and at the end sums them up.  The run tells it which
 * step writes (auto_latency_step()), so the longest write names its
 * step.  Untimed I/O (--preserve's saving and putting back) goes below
 * it and never counts.
 */
#include <stdlib.h>
#include <string.h>

#include "probe.h"

struct lat_dev {
	struct device dev;
	uint64_t *ns;			/* each write's time */
	size_t n, cap;
	uint64_t max_ns, max_off, max_len;
	enum lat_step step, max_step;	/* now writing; the longest's */
};

static int lat_write(struct device *dev, const void *buf, size_t len,
		     off_t off)
{
	struct lat_dev *l = (struct lat_dev *)dev;
	uint64_t t0 = dev_now_ns(dev->inner), t;
	int ret = dev_fwd_write(dev, buf, len, off);

	t = dev_now_ns(dev->inner) - t0;
	if (ret || dev->untimed || len > LAT_MAX_BYTE)
		return ret;
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 4096;
		uint64_t *grown = realloc(l->ns, cap * sizeof(*grown));

		if (!grown)
			return 0;	/* the write went: not counted */
		l->ns = grown;
		l->cap = cap;
	}
	l->ns[l->n++] = t;
	if (t > l->max_ns) {
		l->max_ns = t;
		l->max_off = (uint64_t)off;
		l->max_len = len;
		l->max_step = l->step;
	}
	return 0;
}

static void lat_destroy(struct device *dev)
{
	struct lat_dev *l = (struct lat_dev *)dev;

	free(l->ns);
	free(l);
}

static const struct dev_ops lat_ops = {
	.read = dev_fwd_read,
	.write = lat_write,
	.discard = dev_fwd_discard,
	.batch = dev_fwd_batch,
	.now_ns = dev_fwd_now_ns,
	.destroy = lat_destroy,
};

struct device *auto_latency_wrap(struct device *dev)
{
	return dev_wrap_new(sizeof(struct lat_dev), &lat_ops, dev);
}

enum lat_step auto_latency_step(struct device *dev, enum lat_step s)
{
	enum lat_step was;
	struct lat_dev *l;

	while (dev && dev->ops != &lat_ops)
		dev = dev->inner;
	if (!dev)
		return LAT_STEP_NONE;
	l = (struct lat_dev *)dev;
	was = l->step;
	l->step = s;
	return was;
}

/* qsort() order of uint64_t: ascending. */
static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

void auto_latency_done(struct device *w, struct auto_latency *res)
{
	struct lat_dev *l = (struct lat_dev *)w;

	if (!w)
		return;
	memset(res, 0, sizeof(*res));
	if (l->n) {
		size_t i;

		res->measured = 1;
		res->writes = l->n;
		res->max_ns = l->max_ns;
		res->max_off_byte = l->max_off;
		res->max_len_byte = l->max_len;
		res->max_step = l->max_step;
		qsort(l->ns, l->n, sizeof(*l->ns), cmp_u64);
		/* the least time that 99 % of the writes kept within */
		res->p99_ns = l->ns[(l->n * 99 + 99) / 100 - 1];
		for (i = 0; i < l->n; i++) {
			res->over_write += l->ns[i] > LAT_WRITE_NS;
			res->over_update += l->ns[i] > LAT_UPDATE_NS;
		}
	}
	lat_destroy(w);
}
