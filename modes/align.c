// SPDX-License-Identifier: GPL-2.0-only
/*
 * The align test (-a): reads just before, across and just after the
 * boundaries of every power-of-two alignment.  Crossing an erase-block
 * boundary costs the most, a page boundary a little: the diff column
 * steps at the page and at the erase size.  Read-only.
 */
#include <errno.h>
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

uint64_t align_max(uint64_t dev_size, uint64_t blocksize)
{
	uint64_t a = 1;

	if (7 + blocksize > dev_size)
		return 0;
	while (a < (1ULL << 60) && 7 * (a << 1) + blocksize <= dev_size)
		a <<= 1;
	return a;
}

/* The cells of a row: the alignment, then pre, on, post and their diff
 * at each of the ALIGN_POS positions. */
#define ALIGN_CELLS (1 + 4 * ALIGN_POS)

/*
 * The least time of count reads at off: the card's own cost, without
 * what the rest of the system adds at times.
 */
static struct vm_node *align_min(uint64_t off, unsigned int count)
{
	return vm_off_fixed(off, vm_unary(VM_REDUCE_MIN,
					  vm_repeat(count, vm_leaf(VM_READ))));
}

/*
 * One row: reads just before, across and just after the boundaries
 * i * spacing + align, i = 0..6, each followed by its diff.
 */
static struct vm_node *align_row_prog(const struct bench_opts *o,
				      uint64_t spacing, uint64_t align)
{
	const uint64_t bs = o->blocksize_byte;
	struct vm_node *pos;

	pos = vm_unary(VM_DIFF,
		       vm_seq(3, align_min(0, o->count),
			      align_min(bs - bs / 2, o->count),
			      align_min(bs, o->count)));
	return vm_seq(3, progs_cell(vm_number(align)),
		      vm_off_series(VM_OFF_LIN, align - bs, spacing,
				    ALIGN_POS, progs_cell(pos)),
		      vm_leaf(VM_NEWLINE));
}

/* The program of the naligns alignments; NULL when out of memory. */
static struct vm_node *align_program(const struct bench_opts *o,
				     uint64_t spacing, const uint64_t *aligns,
				     size_t naligns)
{
	struct vm_node **rows = calloc(naligns, sizeof(*rows)), *prog;
	size_t i;

	if (!rows)
		return NULL;
	for (i = 0; i < naligns; i++)
		rows[i] = align_row_prog(o, spacing, aligns[i]);
	prog = vm_len_fixed(o->blocksize_byte, vm_seqv(naligns, rows));
	free(rows);
	return progs_built(prog);
}

/* One align_row from the cells of a complete row. */
static void align_fill(struct align_row *row, const struct vm_cell *c)
{
	uint64_t sum[3] = { 0, 0, 0 };
	size_t i, k;

	row->align_byte = (uint64_t)c[0].value;
	for (i = 0; i < ALIGN_POS; i++) {
		const struct vm_cell *p = &c[1 + 4 * i];

		for (k = 0; k < 3; k++) {
			row->pos_ns[i][k] = (int64_t)p[k].value;
			sum[k] += (uint64_t)p[k].value;
		}
		row->pos_diff_ns[i] = (int64_t)p[3].value;
	}
	row->npos = ALIGN_POS;
	row->pre_ns = (int64_t)(sum[0] / ALIGN_POS);
	row->on_ns = (int64_t)(sum[1] / ALIGN_POS);
	row->post_ns = (int64_t)(sum[2] / ALIGN_POS);
	row->diff_ns = row->on_ns - (row->pre_ns + row->post_ns) / 2;
}

int align_rows(const struct vm_table *tab, struct align_row **rows,
	       size_t *nrows)
{
	struct align_row *r = calloc(tab->nrows ? tab->nrows : 1, sizeof(*r));
	size_t i, n = 0;

	*rows = NULL;
	*nrows = 0;
	if (!r)
		return -ENOMEM;
	/* a row cut short by a failure has fewer cells: not a result */
	for (i = 0; i < tab->nrows; i++)
		if (tab->rows[i].ncells == ALIGN_CELLS)
			align_fill(&r[n++], tab->rows[i].cells);
	if (!n) {	/* nothing measured: nothing to free either */
		free(r);
		r = NULL;
	}
	*rows = r;
	*nrows = n;
	return 0;
}

/* The options and alignments fit the device: 0 or -EINVAL. */
static int align_check(const struct device *dev, const struct bench_opts *o,
		       uint64_t spacing, const uint64_t *aligns,
		       size_t naligns)
{
	const uint64_t bs = o->blocksize_byte;
	size_t i;

	if (!bs || (bs / 2) % dev->logical_block_size || !naligns ||
	    !o->count)
		return -EINVAL;
	for (i = 0; i < naligns; i++)
		if (aligns[i] < bs || aligns[i] > spacing ||
		    6 * spacing + aligns[i] + bs > dev->size_byte)
			return -EINVAL;
	return 0;
}

int bench_align_at(struct device *dev, const struct bench_opts *o,
		   uint64_t spacing, const uint64_t *aligns, size_t naligns,
		   struct align_row **rows, size_t *nrows)
{
	struct vm_table tab = { 0 };
	struct vm_node *prog;
	int ret, conv;

	*rows = NULL;
	*nrows = 0;
	ret = align_check(dev, o, spacing, aligns, naligns);
	if (ret)
		return ret;
	prog = align_program(o, spacing, aligns, naligns);
	if (!prog)
		return -ENOMEM;
	ret = vm_run(dev, prog, NULL, &tab, NULL, 0);
	vm_free(prog);
	/* what was measured before a failure is still worth printing */
	conv = align_rows(&tab, rows, nrows);
	vm_table_free(&tab);
	return ret ? ret : conv;
}

/* The options alone: 0 or -EINVAL. */
static int align_check_opts(const struct bench_opts *o)
{
	return o->blocksize_byte && o->count ? 0 : -EINVAL;
}

/*
 * -a: every power-of-two alignment from align_max() down to two blocks,
 * each sampled at seven boundaries align_max() apart.
 */
static int align_build(const struct bench_opts *o, uint64_t dev_byte,
		       unsigned int lbs, struct vm_node **prog)
{
	const uint64_t bs = o->blocksize_byte;
	uint64_t maxalign = align_max(dev_byte, bs), a, aligns[64];
	size_t n = 0;

	*prog = NULL;
	if (maxalign < 2 * bs || (bs / 2) % lbs)
		return -EINVAL;
	for (a = maxalign; a >= 2 * bs && n < 64; a >>= 1)
		aligns[n++] = a;
	*prog = align_program(o, maxalign, aligns, n);
	return *prog ? 0 : -ENOMEM;
}

int bench_align(struct device *dev, const struct bench_opts *o,
		struct align_row **rows, size_t *nrows)
{
	struct vm_table tab = { 0 };
	int ret, conv;

	ret = progs_run(dev, &align_prog, o, NULL, &tab, NULL, 0);
	/* what was measured before a failure is still worth printing */
	conv = align_rows(&tab, rows, nrows);
	vm_table_free(&tab);
	return ret ? ret : conv;
}

/* The classic table from the cells of a run. */
static void align_print(FILE *out, const struct bench_opts *o,
			const struct vm_table *tab)
{
	struct align_row *rows;
	size_t n;

	(void)o;
	if (align_rows(tab, &rows, &n))
		return;
	print_align(out, rows, n);
	free(rows);
}

static void align_json(struct json *j, const struct bench_opts *o,
		       const struct vm_table *tab)
{
	struct align_row *rows;
	size_t n = 0;

	(void)o;
	json_array_begin(j, BODY_KEY(RM_RESULTS));
	if (!align_rows(tab, &rows, &n)) {
		json_align(j, rows, n);
		free(rows);
	}
	json_array_end(j);
}

/* --plot: the rows, with the erase and page size analyze_align() sees. */
static int align_plot(FILE *f, const char *title, enum bench_test test,
		      const struct bench_opts *o, const struct vm_table *tab)
{
	struct align_verdict v;
	struct align_row *rows;
	size_t n;
	int ret;

	(void)test;
	(void)o;
	ret = align_rows(tab, &rows, &n);
	if (ret)
		return ret;
	ret = plot_align(f, title, rows, n,
			 n && !analyze_align(rows, n, &v) ? &v : NULL);
	free(rows);
	return ret;
}

/* The progress line's steps: one per alignment. */
static void align_step(char *buf, size_t len, const struct bench_opts *o,
		       const char *row, uint64_t io)
{
	(void)o;
	(void)io;
	snprintf(buf, len, "align %s", row ? row : "");
}

const struct progs_mode align_prog = {
	.check = align_check_opts,
	.build = align_build,
	.print = align_print,
	.json = align_json,
	.plot = align_plot,
	.step = align_step,
};

int align_run(struct device *dev, const struct bench_opts *o, FILE *out)
{
	return progs_bench(dev, &align_prog, o, out);
}
