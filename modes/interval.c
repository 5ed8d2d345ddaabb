// SPDX-License-Identifier: GPL-2.0-only
/*
 * The interval test (-i): read time against read size, and the
 * least-squares line through it (transfer rate and access time).
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

uint64_t interval_first_len(unsigned int logical_block_size)
{
	return logical_block_size > 512 ? logical_block_size : 512;
}

/*
 * One row per size from first up to max, doubling: the size, then the
 * time of each of count reads, 9 sizes apart.  NULL when out of memory.
 */
static struct vm_node *interval_program(const struct bench_opts *o,
					uint64_t first, uint64_t max)
{
	struct vm_node *rows[64], *prog;
	uint64_t len;
	size_t n = 0;

	for (len = first; len <= max && n < 64; len *= 2)
		rows[n++] = vm_len_fixed(len,
			vm_seq(3, progs_cell(vm_leaf(VM_LENGTH)),
			       vm_off_series(VM_OFF_LIN, 0, 9 * len, o->count,
					     progs_cell(vm_leaf(VM_READ))),
			       vm_leaf(VM_NEWLINE)));
	prog = vm_seqv(n, rows);
	return progs_built(prog);
}

/* One interval_row from the cells of a complete row (count reads). */
static void interval_fill(struct interval_row *r, const struct vm_row *row)
{
	uint64_t sum = 0;
	size_t j;

	r->len_byte = (uint64_t)row->cells[0].value;
	r->min_ns = UINT64_MAX;
	r->max_ns = 0;
	for (j = 1; j < row->ncells; j++) {
		uint64_t t = (uint64_t)row->cells[j].value;

		sum += t;
		if (t < r->min_ns)
			r->min_ns = t;
		if (t > r->max_ns)
			r->max_ns = t;
	}
	r->avg_ns = sum / (row->ncells - 1);
}

int interval_rows(const struct vm_table *tab, unsigned int count,
		  struct interval_row **rows, size_t *nrows)
{
	struct interval_row *r = calloc(tab->nrows ? tab->nrows : 1,
					sizeof(*r));
	size_t i, n = 0;

	*rows = NULL;
	*nrows = 0;
	if (!r)
		return -ENOMEM;
	/* a size cut short by a failure has fewer cells: not a result */
	for (i = 0; i < tab->nrows; i++)
		if (tab->rows[i].ncells == 1 + (size_t)count)
			interval_fill(&r[n++], &tab->rows[i]);
	if (!n) {	/* nothing measured: nothing to free either */
		free(r);
		r = NULL;
	}
	*rows = r;
	*nrows = n;
	return 0;
}

/* The options alone: 0 or -EINVAL. */
static int interval_check(const struct bench_opts *o)
{
	return o->interval_order < 1 || o->interval_order > 30 || !o->count ?
	       -EINVAL : 0;
}

/* -i: sizes from the device's smallest read up to 512 << (order - 1). */
static int interval_build(const struct bench_opts *o, uint64_t dev_byte,
			  unsigned int lbs, struct vm_node **prog)
{
	const uint64_t max = 512ULL << (o->interval_order - 1);
	uint64_t first = interval_first_len(lbs);

	(void)dev_byte;
	*prog = NULL;
	if (first > max)
		return -EINVAL;
	*prog = interval_program(o, first, max);
	return *prog ? 0 : -ENOMEM;
}

int bench_interval(struct device *dev, const struct bench_opts *o,
		   struct interval_row **rows, size_t *nrows)
{
	struct vm_table tab = { 0 };
	int ret, conv;

	ret = progs_run(dev, &interval_prog, o, NULL, &tab, NULL, 0);
	/* the sizes measured before a failure are still worth printing */
	conv = interval_rows(&tab, o->count, rows, nrows);
	vm_table_free(&tab);
	return ret ? ret : conv;
}

static void interval_print(FILE *out, const struct bench_opts *o,
			   const struct vm_table *tab)
{
	struct interval_row *rows;
	size_t n;

	if (interval_rows(tab, o->count, &rows, &n))
		return;
	if (n)
		print_interval(out, rows, n);
	free(rows);
}

/* The rows, then beside them the line through them (or null). */
static void interval_json(struct json *j, const struct bench_opts *o,
			  const struct vm_table *tab)
{
	struct interval_fit fit = { 0, 0 };
	struct interval_row *rows = NULL;
	size_t i, n = 0;

	json_array_begin(j, BODY_KEY(RM_RESULTS));
	if (!interval_rows(tab, o->count, &rows, &n) && n)
		fit = interval_regress(rows, n);
	for (i = 0; i < n; i++) {
		json_object_begin(j, NULL);
		json_u64(j, "bytes", rows[i].len_byte);
		json_u64(j, "min_ns", rows[i].min_ns);
		json_u64(j, "avg_ns", rows[i].avg_ns);
		json_u64(j, "max_ns", rows[i].max_ns);
		json_double(j, "overhead_ns",
			    interval_overhead_ns(&fit, &rows[i]));
		json_object_end(j);
	}
	free(rows);
	json_array_end(j);
	if (fit.bytes_per_s > 0) {
		json_object_begin(j, BODY_KEY(RM_REGRESSION));
		json_double(j, "bytes_per_s", fit.bytes_per_s);
		json_double(j, "access_ns", fit.access_ns);
		json_object_end(j);
	} else {
		json_null(j, BODY_KEY(RM_REGRESSION));
	}
}

/* --plot: the times against size, and the line through them. */
static int interval_plot(FILE *f, const char *title, enum bench_test test,
			 const struct bench_opts *o,
			 const struct vm_table *tab)
{
	struct interval_row *rows;
	struct interval_fit fit;
	size_t n;
	int ret;

	(void)test;
	ret = interval_rows(tab, o->count, &rows, &n);
	if (ret)
		return ret;
	fit = interval_regress(rows, n);
	ret = plot_interval(f, title, rows, n, &fit);
	free(rows);
	return ret;
}

/* The progress line's steps: one per size. */
static void interval_step(char *buf, size_t len, const struct bench_opts *o,
			  const char *row, uint64_t io)
{
	(void)o;
	(void)io;
	snprintf(buf, len, "%s reads", row ? row : "");
}

const struct progs_mode interval_prog = {
	.check = interval_check,
	.build = interval_build,
	.print = interval_print,
	.json = interval_json,
	.plot = interval_plot,
	.step = interval_step,
};

int interval_run(struct device *dev, const struct bench_opts *o, FILE *out)
{
	return progs_bench(dev, &interval_prog, o, out);
}
