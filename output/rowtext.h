/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The classic read tests' rows shown: their classic tables (-a, -s,
 * -i), and the align rows as JSON objects (-a --json, --auto's tables).
 */
#ifndef FLASHBENCH_ROWTEXT_H
#define FLASHBENCH_ROWTEXT_H

#include <stddef.h>
#include <stdio.h>

#include "json.h"
#include "rows.h"

/* -a: one line per alignment. */
void print_align(FILE *out, const struct align_row *rows, size_t nrows);

/* The rows as JSON objects (align, pre_ns, on_ns, post_ns, diff_ns). */
void json_align(struct json *j, const struct align_row *rows, size_t nrows);

/* -s: one line per point, offset in MiB and time in ms (for gnuplot). */
void print_scatter(FILE *out, const struct scatter_point *pts, size_t n);

/*
 * -i: one line per size, the regression line, and how far each size
 * lies above it.
 */
void print_interval(FILE *out, const struct interval_row *rows,
		    size_t nrows);

#endif /* FLASHBENCH_ROWTEXT_H */
