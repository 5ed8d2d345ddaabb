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
#include "progs.h"
#include "vm.h"

/*
 * count rounds over the n = 2^order positions, each round in a
 * pseudo-random order of its own (a visiting order the card cannot
 * predict keeps its read-ahead from hiding the cost of each position),
 * and the least time at each position.  NULL when out of memory.
 */
static struct vm_node *scatter_prog(const struct bench_opts *o)
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
	*pts = p;
	*npts = n;
	return 0;
}

int bench_scatter(struct device *dev, const struct bench_opts *o,
		  struct scatter_point **pts, size_t *npts)
{
	const uint64_t bs = o->blocksize_byte;
	const uint64_t n = 1ULL << o->scatter_order;
	struct vm_table tab = { 0 };
	struct vm_node *prog;
	int ret, conv;

	*pts = NULL;
	*npts = 0;
	if (o->scatter_order > 30 || !o->scatter_span || !o->count ||
	    (n - 1 + o->scatter_span) * bs > dev->size_byte)
		return -EINVAL;
	prog = scatter_prog(o);
	if (!prog)
		return -ENOMEM;
	ret = vm_run(dev, prog, NULL, &tab, NULL, 0);
	vm_free(prog);
	/* cut short: the positions read so far are still worth printing */
	conv = scatter_points(&tab, pts, npts);
	vm_table_free(&tab);
	return ret ? ret : conv;
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
