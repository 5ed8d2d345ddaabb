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
#include "json.h"
#include "modes.h"
#include "plot.h"
#include "recbody.h"
#include "rowtext.h"
#include "progs.h"
#include "vm.h"

/*
 * count rounds over the n = 2^order positions, each round in a
 * pseudo-random order of its own (a visiting order the card cannot
 * predict keeps its read-ahead from hiding the cost of each position),
 * and the least time at each position.  NULL when out of memory.
 */
static struct vm_node *scatter_program(const struct bench_opts *o)
{
	const uint64_t bs = o->blocksize_byte;
	struct vm_node *round;

	/* round r visits in the order vm_shuffle(i, n, r) */
	round = vm_off_keyed(0, bs, 1ULL << o->scatter_order, 0,
			     vm_unary(VM_DROP, vm_leaf(VM_READ)));
	return progs_built(vm_len_fixed(bs * o->scatter_span,
					vm_unary(VM_MIN_POS,
						 vm_repeat(o->count, round))));
}

int scatter_points(const struct vm_table *tab, struct scatter_point **pts,
		   size_t *npts)
{
	struct scatter_point *p = calloc(tab->nrows ? tab->nrows : 1,
					 sizeof(*p));
	size_t i, n = 0;

	*pts = NULL;
	*npts = 0;
	if (!p)
		return -ENOMEM;
	for (i = 0; i < tab->nrows; i++) {
		const struct vm_row *row = &tab->rows[i];

		if (row->ncells != 2)
			continue;
		p[n].off_byte = (uint64_t)row->cells[0].value;
		p[n++].time_ns = (uint64_t)row->cells[1].value;
	}
	if (!n) {	/* nothing measured: nothing to free either */
		free(p);
		p = NULL;
	}
	*pts = p;
	*npts = n;
	return 0;
}

/* The options alone: 0 or -EINVAL. */
static int scatter_check(const struct bench_opts *o)
{
	uint64_t len;

	if (o->scatter_order > 30 || !o->scatter_span || !o->count ||
	    !o->blocksize_byte ||
	    __builtin_mul_overflow(o->blocksize_byte, o->scatter_span, &len))
		return -EINVAL;
	return 0;
}

static int scatter_build(const struct bench_opts *o, uint64_t dev_byte,
			 unsigned int lbs, struct vm_node **prog)
{
	(void)dev_byte;
	(void)lbs;
	*prog = scatter_program(o);
	return *prog ? 0 : -ENOMEM;
}

int bench_scatter(struct device *dev, const struct bench_opts *o,
		  struct scatter_point **pts, size_t *npts)
{
	struct vm_table tab = { 0 };
	int ret, conv;

	ret = progs_run(dev, &scatter_prog, o, NULL, &tab, NULL, 0);
	/* cut short: the positions read so far are still worth printing */
	conv = scatter_points(&tab, pts, npts);
	vm_table_free(&tab);
	return ret ? ret : conv;
}

static void scatter_print(FILE *out, const struct bench_opts *o,
			  const struct vm_table *tab)
{
	struct scatter_point *pts;
	size_t n;

	(void)o;
	if (scatter_points(tab, &pts, &n))
		return;
	print_scatter(out, pts, n);
	free(pts);
}

static void scatter_json(struct json *j, const struct bench_opts *o,
			 const struct vm_table *tab)
{
	struct scatter_point *pts;
	size_t n = 0;

	(void)o;
	json_array_begin(j, BODY_KEY(RM_RESULTS));
	if (!scatter_points(tab, &pts, &n)) {
		size_t i;

		for (i = 0; i < n; i++) {
			json_object_begin(j, NULL);
			json_u64(j, "offset", pts[i].off_byte);
			json_u64(j, "time_ns", pts[i].time_ns);
			json_object_end(j);
		}
		free(pts);
	}
	json_array_end(j);
}

/* --plot: read time against offset. */
static int scatter_plot(FILE *f, const char *title, enum bench_test test,
			const struct bench_opts *o, const struct vm_table *tab)
{
	struct scatter_point *pts;
	size_t n;
	int ret;

	(void)test;
	(void)o;
	ret = scatter_points(tab, &pts, &n);
	if (ret)
		return ret;
	ret = plot_scatter(f, title, pts, n);
	free(pts);
	return ret;
}

/* The progress line's steps: one per round. */
static void scatter_step(char *buf, size_t len, const struct bench_opts *o,
			 const char *row, uint64_t io)
{
	(void)row;
	snprintf(buf, len, "round %" PRIu64 "/%u",
		 (uint64_t)(io >> o->scatter_order) + 1, o->count);
}

const struct progs_mode scatter_prog = {
	.check = scatter_check,
	.build = scatter_build,
	.print = scatter_print,
	.json = scatter_json,
	.plot = scatter_plot,
	.step = scatter_step,
};

int scatter_run(struct device *dev, const struct bench_opts *o, FILE *out)
{
	return progs_bench(dev, &scatter_prog, o, out);
}
