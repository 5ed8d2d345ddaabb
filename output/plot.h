/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * --plot: a self-contained SVG chart of the test just run, written as
 * plain text (no library, no external fonts, styles or images).
 *
 * The charts are for people, but also carry what a script needs to
 * check them: every table column is a <g class="series"> with
 * data-column (its name) and data-points (one point per table row, each
 * a <circle> with a <title>, or for long series one "M" of a single
 * <path class="marks">); marked sizes are <g class="mark"> with
 * data-kind and data-bytes.  Every function returns 0, or -EIO if
 * writing to f failed.
 */
#ifndef FLASHBENCH_PLOT_H
#define FLASHBENCH_PLOT_H

#include <stddef.h>
#include <stdio.h>

#include "analyze.h"
#include "autorecord.h"
#include "opts.h"
#include "rows.h"
#include "classrec.h"
#include "vm.h"

/* Series longer than this are drawn as one path instead of circles. */
#define PLOT_MAX_CIRCLES 1024

/*
 * align: pre, on, post and diff against the alignment (log axis); the
 * erase and page size of v (may be NULL) are marked.
 */
int plot_align(FILE *f, const char *title, const struct align_row *rows,
	       size_t n, const struct align_verdict *v);

/* scatter: read time against offset. */
int plot_scatter(FILE *f, const char *title,
		 const struct scatter_point *pts, size_t n);

/*
 * interval: min, avg and max time against size, with fit, the
 * regression line through them (interval_regress()).
 */
int plot_interval(FILE *f, const char *title,
		  const struct interval_row *rows, size_t n,
		  const struct interval_fit *fit);

/*
 * open-au, find-fat, program: throughput against access size, one
 * series per throughput column of tab (the cells of the run); column
 * names column k (from 1) into buf, as the mode knows its columns (NULL:
 * "column K"); sub is the line under the title.
 */
int plot_table(FILE *f, const char *title, const char *sub,
	       void (*column)(char *buf, size_t len, size_t k),
	       const struct vm_table *tab);

/*
 * The align chart of plot_align() in a panel of a page of width w from
 * top down, plot area h px high (plot_auto() draws it too): 0 or -ENOMEM.
 */
int plot_align_chart(FILE *f, double top, double w, double h,
		     const struct align_row *rows, size_t n,
		     const struct align_verdict *v);

/*
 * --auto: align table, open-AU probes, FAT probe and verdict, one page;
 * cr is the class check of --auto --destructive (NULL: not run).
 */
int plot_auto(FILE *f, const char *title, const struct auto_result *r,
	      const struct class_result *cr);

#endif /* FLASHBENCH_PLOT_H */
