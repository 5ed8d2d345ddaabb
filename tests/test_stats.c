// SPDX-License-Identifier: GPL-2.0-only
/*
 * base/stats.c: the median (sorting its values, or of a copy left as it
 * is), the order it sorts by, and the mean without the largest value.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "c.h"
#include "stats.h"

#define MAXV 17

static const struct {
	const char *what;
	size_t n;
	double v[MAXV];
	double median;
	double trimmed;
} sets[] = {
	{ "empty", 0, { 0 }, 0, 0 },
	{ "one", 1, { 7 }, 7, 7 },
	{ "two: their mean", 2, { 9, 3 }, 6, 6 },
	{ "three, out of order", 3, { 30, 10, 20 }, 20, 20 },
	{ "four: a stall left out of the mean", 4, { 10, 1000, 12, 14 },
	  13, 12 },
	{ "alike values", 5, { 5, 5, 5, 5, 5 }, 5, 5 },
	{ "negative and fractional", 3, { -1.5, 2.25, 0.5 }, 0.5, 1.25 / 3 },
	{ "sixteen, the most a copy takes", 16,
	  { 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1 },
	  8.5, 120.0 / 15 },
};

/* Close enough: every value above is exact in binary but 1.25 / 3. */
static int near(double a, double b)
{
	return fabs(a - b) <= 1e-12 * fmax(1, fabs(b));
}

START_TEST(test_median_copy)
{
	double v[MAXV] = { 0 };
	size_t i, n = sets[_i].n;

	for (i = 0; i < n; i++)
		v[i] = sets[_i].v[i];
	ck_assert_msg(near(stats_median(v, n), sets[_i].median),
		      "%s: median %g", sets[_i].what, stats_median(v, n));
	for (i = 0; i < n; i++)
		ck_assert_msg(v[i] == sets[_i].v[i], "%s: value %zu moved",
			      sets[_i].what, i);
}
END_TEST

START_TEST(test_median_sort)
{
	double v[MAXV] = { 0 };
	size_t i, n = sets[_i].n;

	for (i = 0; i < n; i++)
		v[i] = sets[_i].v[i];
	ck_assert_msg(near(stats_median_sort(v, n), sets[_i].median),
		      "%s: median", sets[_i].what);
	for (i = 1; i < n; i++)
		ck_assert_msg(v[i - 1] <= v[i], "%s: not sorted at %zu",
			      sets[_i].what, i);
}
END_TEST

START_TEST(test_trimmed_mean)
{
	double t = stats_trimmed_mean(sets[_i].v, sets[_i].n);

	ck_assert_msg(near(t, sets[_i].trimmed), "%s: trimmed mean %g",
		      sets[_i].what, t);
}
END_TEST

/* A copy takes at most STATS_MEDIAN_MAX values: more give 0. */
START_TEST(test_median_copy_most)
{
	double v[STATS_MEDIAN_MAX + 1];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(v); i++)
		v[i] = (double)(i + 1);
	ck_assert(stats_median(v, ARRAY_SIZE(v)) == 0);
	ck_assert(stats_median_sort(v, ARRAY_SIZE(v)) == 9);
}
END_TEST

START_TEST(test_cmp)
{
	double a = 1, b = 2, nan_ = NAN;

	ck_assert_int_eq(stats_cmp_double(&a, &b), -1);
	ck_assert_int_eq(stats_cmp_double(&b, &a), 1);
	ck_assert_int_eq(stats_cmp_double(&a, &a), 0);
	/* NaN is neither above nor below: qsort keeps no promise for it */
	ck_assert_int_eq(stats_cmp_double(&a, &nan_), 0);
}
END_TEST

Suite *stats_suite(void)
{
	Suite *s = suite_create("stats");
	TCase *tc = tcase_create("stats");

	tcase_add_loop_test(tc, test_median_copy, 0, (int)ARRAY_SIZE(sets));
	tcase_add_loop_test(tc, test_median_sort, 0, (int)ARRAY_SIZE(sets));
	tcase_add_loop_test(tc, test_trimmed_mean, 0, (int)ARRAY_SIZE(sets));
	tcase_add_test(tc, test_median_copy_most);
	tcase_add_test(tc, test_cmp);
	suite_add_tcase(s, tc);
	return s;
}
