/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The rows the classic read tests measure (-a, -s, -i): the record their
 * measuring fills and their judging, text, JSON and plots read.
 */
#ifndef FLASHBENCH_ROWS_H
#define FLASHBENCH_ROWS_H

#include <stddef.h>
#include <stdint.h>

/* The positions the align test samples each alignment at. */
#define ALIGN_POS 7

/* One line of the align table; times in ns (averages of minima). */
struct align_row {
	uint64_t align_byte;
	int64_t pre_ns;
	int64_t on_ns;
	int64_t post_ns;
	int64_t diff_ns;		/* on - (pre + post) / 2 */
	unsigned int npos;		/* positions sampled (ALIGN_POS;
					 * 0: unknown) */
	int64_t pos_diff_ns[ALIGN_POS];	/* diff at each position */
	int64_t pos_ns[ALIGN_POS][3];	/* pre, on, post at each position */
};

/* One scatter point: the minimum time of a read at offset. */
struct scatter_point {
	uint64_t off_byte;
	uint64_t time_ns;
};

/* One interval size: min/avg/max time of count reads. */
struct interval_row {
	uint64_t len_byte;
	uint64_t min_ns;
	uint64_t avg_ns;
	uint64_t max_ns;
};

/* Interval's least-squares line: time = access_ns + len / rate. */
struct interval_fit {
	double bytes_per_s;
	double access_ns;
};

/*
 * Fold a second reading b of the same n rows into a: each read keeps the
 * least time of both, as if its reads had been counted together (a
 * count of 2 and then 1 gives what a count of 3 gives).  Rows whose
 * alignments or positions differ are left alone.
 */
void align_fold(struct align_row *a, const struct align_row *b, size_t n);

/*
 * Interval's least-squares line through the sizes from the fourth up,
 * weighted for relative errors; all zero with fewer than five rows.
 */
struct interval_fit interval_regress(const struct interval_row *rows,
				     size_t nrows);

/* How far row lies above the regression line fit, in ns (may be < 0). */
double interval_overhead_ns(const struct interval_fit *fit,
			    const struct interval_row *row);

#endif /* FLASHBENCH_ROWS_H */
