/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The rows the classic read tests measure (-a, -s, -i): the record their
 * measuring fills and their judging, text, JSON and plots read.
 */
#ifndef FLASHBENCH_ROWS_H
#define FLASHBENCH_ROWS_H

#include <stdint.h>

/* One line of the align table; times in ns (averages of minima). */
struct align_row {
	uint64_t align_byte;
	int64_t pre_ns;
	int64_t on_ns;
	int64_t post_ns;
	int64_t diff_ns;		/* on - (pre + post) / 2 */
	unsigned int npos;		/* positions sampled (7; 0: unknown) */
	int64_t pos_diff_ns[7];		/* diff at each position */
	int64_t pos_ns[7][3];		/* pre, on, post at each position */
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

#endif /* FLASHBENCH_ROWS_H */
