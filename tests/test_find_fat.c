// SPDX-License-Identifier: GPL-2.0-only
/*
 * The FAT-area test (-f, modes/find_fat.c) on the simulated card: the AUs
 * planted as a FAT area stand out in its table, wherever they are.
 */
#include <stddef.h>

#include "bench.h"
#include "util.h"
#include "wtable.h"

/* Run -f on spec; the rates of the smallest size, one per AU. */
static void find_fat_rates(const char *spec, double *rates, size_t n)
{
	struct bench_opts o;
	struct wrun w;
	size_t i, last;

	bench_opts_default(&o);
	o.erasesize_byte = 4 * MiB;
	o.blocksize_byte = 16 * KiB;
	o.fat_nr = n;
	o.log = NULL;
	run_on(&w, spec, BENCH_FIND_FAT, &o);
	ck_assert_uint_eq(w.t.nrows, 9);	/* 4MiB .. 16KiB */
	for (i = 0; i < w.t.nrows; i++)
		ck_assert_uint_eq(w.t.ncols[i], n + 1);
	ck_assert_str_eq(w.t.cell[0][0], "4MiB");
	last = w.t.nrows - 1;
	ck_assert_str_eq(w.t.cell[last][0], "16KiB");
	for (i = 0; i < n; i++)
		rates[i] = rate_at(&w, last, i + 1);
	wrun_done(&w);
}

START_TEST(test_find_fat)
{
	double r[6], others = 0, lo = 1e30, hi = 0;
	size_t i;

	find_fat_rates("size=256M,erase=4M,open=4,fat=2,fat_start=0,noise=0",
		       r, 6);
	for (i = 2; i < 6; i++)
		others = r[i] > others ? r[i] : others;
	for (i = 0; i < 2; i++)
		ck_assert_msg(r[i] >= 1.25 * others,
			      "FAT AU %zu: %.0f B/s vs %.0f B/s", i, r[i],
			      others);

	/* no FAT area: no column stands out */
	find_fat_rates("size=256M,erase=4M,open=4,fat=0,noise=0", r, 6);
	for (i = 0; i < 6; i++) {
		lo = r[i] < lo ? r[i] : lo;
		hi = r[i] > hi ? r[i] : hi;
	}
	ck_assert_msg(hi <= 1.1 * lo, "%.0f .. %.0f B/s", lo, hi);
}
END_TEST

START_TEST(test_find_fat_elsewhere)
{
	double r[6], others = 0;
	size_t i;

	/* a FAT area in AUs 3 and 4 shows in columns 3 and 4 */
	find_fat_rates("size=256M,erase=4M,open=4,fat=2,fat_start=3,noise=0",
		       r, 6);
	for (i = 0; i < 6; i++)
		if (i != 3 && i != 4)
			others = r[i] > others ? r[i] : others;
	ck_assert_double_ge(r[3], 1.25 * others);
	ck_assert_double_ge(r[4], 1.25 * others);
}
END_TEST

Suite *find_fat_suite(void)
{
	Suite *s = suite_create("find_fat");
	TCase *tc = tcase_create("find_fat");

	tcase_add_test(tc, test_find_fat);
	tcase_add_test(tc, test_find_fat_elsewhere);
	suite_add_tcase(s, tc);
	return s;
}
