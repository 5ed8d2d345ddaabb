// SPDX-License-Identifier: GPL-2.0-only
/*
 * Statistics of timings: the median of a set of values and a mean that
 * leaves out the largest.  A card's timings have stalls (a garbage
 * collection, the host's scheduling): the median and the trimmed mean
 * are what one such value does not move far.
 */
#include <stdlib.h>
#include <string.h>

#include "stats.h"

int stats_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double stats_median_sort(double *v, size_t n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), stats_cmp_double);
	if (n % 2)
		return v[n / 2];
	return (v[n / 2 - 1] + v[n / 2]) / 2;
}

double stats_median(const double *v, size_t n)
{
	double tmp[STATS_MEDIAN_MAX];

	if (!n || n > STATS_MEDIAN_MAX)
		return 0;
	memcpy(tmp, v, n * sizeof(*v));
	return stats_median_sort(tmp, n);
}

double stats_trimmed_mean(const double *v, size_t n)
{
	double sum = 0, largest = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		sum += v[i];
		if (v[i] > largest)
			largest = v[i];
	}
	if (n >= 4)
		return (sum - largest) / (double)(n - 1);
	return n ? sum / (double)n : 0;
}
