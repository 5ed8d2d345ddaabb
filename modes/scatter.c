// SPDX-License-Identifier: GPL-2.0-only
/*
 * The scatter test (-s): the minimum read time at every block position of
 * a span of the device, visited in a pseudo-random order, for gnuplot.
 * Read-only.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "format.h"
#include "modes.h"
#include "vm.h"

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
	buf = bench_alloc_io_buf(len);
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
			uint64_t pos = vm_shuffle(i, n, round);

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

int scatter_run(struct device *dev, const struct bench_opts *o, FILE *out)
{
	struct scatter_point *pts = NULL;
	size_t n = 0;
	int ret = bench_scatter(dev, o, &pts, &n);

	print_scatter(out, pts, n);
	free(pts);
	return ret;
}
