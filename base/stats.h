/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Statistics of timings: the one median (and the order it sorts by) and
 * the mean without the largest value, for the verdicts and the probes.
 */
#ifndef FLASHBENCH_STATS_H
#define FLASHBENCH_STATS_H

#include <stddef.h>

/* qsort() order of doubles: ascending. */
int stats_cmp_double(const void *a, const void *b);

/* The median of v[0..n), sorting v in place; 0 when n is 0. */
double stats_median_sort(double *v, size_t n);

#define STATS_MEDIAN_MAX 16	/* values stats_median() takes at most */
/*
 * The median of v[0..n), v left as it is; 0 when n is 0 or more than
 * STATS_MEDIAN_MAX.
 */
double stats_median(const double *v, size_t n);

/*
 * The mean of v[0..n) without its largest value when n is 4 or more (a
 * lone stall does not count); 0 when n is 0.
 */
double stats_trimmed_mean(const double *v, size_t n);

#endif /* FLASHBENCH_STATS_H */
