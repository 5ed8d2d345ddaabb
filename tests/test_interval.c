// SPDX-License-Identifier: GPL-2.0-only
/*
 * The interval test (-i, modes/interval.c): its regression recovers the
 * transfer rate and access time planted in a simulated card, its table
 * is the classic one, and it starts at the logical block size.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "format.h"
#include "rowtext.h"
#include "util.h"

/* Interval's regression recovers the planted rate and access time. */
START_TEST(test_interval_recovers)
{
	static const struct {
		double mbps, access_us;
	} cards[] = {
		{ 20, 500 }, { 38, 62 }, { 10, 1000 }, { 80, 150 }, { 5, 300 },
	};
	struct interval_row *rows;
	struct interval_fit fit;
	struct bench_opts o;
	struct device *dev;
	char spec[128];
	size_t n;

	snprintf(spec, sizeof(spec), "read_mbps=%g,access_us=%g,noise=1,seed=%d",
		 cards[_i].mbps, cards[_i].access_us, _i + 3);
	dev = sim_card(spec);
	bench_opts_default(&o);
	ck_assert_int_eq(bench_interval(dev, &o, &rows, &n), 0);
	ck_assert_uint_eq(n, 13);
	ck_assert_uint_eq(rows[12].len_byte, 2 << 20);
	fit = interval_regress(rows, n);
	ck_assert_double_eq_tol(fit.bytes_per_s / 1e6, cards[_i].mbps,
				cards[_i].mbps * 0.05);
	ck_assert_double_eq_tol(fit.access_ns / 1e3, cards[_i].access_us,
				cards[_i].access_us * 0.05);
	free(rows);
	dev_close(dev);
}
END_TEST

/* The interval table has the classic shape. */
START_TEST(test_interval_format)
{
	struct device *dev = sim_card("noise=0");
	struct interval_row *rows;
	struct bench_opts o;
	char *text, line[256];
	size_t n, len;
	FILE *f = open_memstream(&text, &len);
	unsigned long long bytes, t;
	double mbps, oh;
	char u1[16], u2[16], u3[16];
	int i;

	bench_opts_default(&o);
	o.interval_order = 6;
	ck_assert_int_eq(bench_interval(dev, &o, &rows, &n), 0);
	print_interval(f, rows, n);
	fclose(f);
	f = fmemopen(text, len, "r");
	for (i = 0; i < 6; i++) {
		ck_assert_ptr_nonnull(fgets(line, sizeof(line), f));
		ck_assert_int_eq(sscanf(line, "%llu bytes: min %15s avg %15s max %15s %lf MB/s",
					&bytes, u1, u2, u3, &mbps), 5);
		ck_assert_uint_eq(bytes, 512ULL << i);
	}
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), f));
	ck_assert_int_eq(sscanf(line, "%lf MB/s, %15s access time", &mbps, u1), 2);
	for (i = 0; i < 6; i++) {
		ck_assert_ptr_nonnull(fgets(line, sizeof(line), f));
		ck_assert_int_eq(sscanf(line, "bytes %llu, time %llu overhead %lf",
					&bytes, &t, &oh), 3);
		ck_assert_uint_eq(t, rows[i].min_ns);
	}
	ck_assert_ptr_null(fgets(line, sizeof(line), f));
	fclose(f);
	free(text);
	free(rows);
	dev_close(dev);
}
END_TEST

/*
 * A device that cannot read less than lbs bytes: the interval sizes start
 * there, and the largest stays 512 << (order - 1); none left is refused.
 */
START_TEST(test_interval_large_blocks)
{
	struct device *dev = sim_card("noise=0");
	struct interval_row *rows;
	struct bench_opts o;
	size_t n, i;

	bench_opts_default(&o);
	o.interval_order = 6;			/* up to 16 KiB */
	dev->logical_block_size = 4096;
	ck_assert_int_eq(bench_interval(dev, &o, &rows, &n), 0);
	ck_assert_uint_eq(n, 3);
	for (i = 0; i < n; i++) {
		ck_assert_uint_eq(rows[i].len_byte, 4096ULL << i);
		ck_assert_uint_gt(rows[i].min_ns, 0);
	}
	free(rows);
	dev->logical_block_size = 32768;
	ck_assert_int_eq(bench_interval(dev, &o, &rows, &n), -EINVAL);
	ck_assert_uint_eq(n, 0);
	ck_assert_uint_eq(dev->io_count, 3 * 8);
	dev_close(dev);
}
END_TEST

Suite *interval_suite(void)
{
	Suite *s = suite_create("interval");
	TCase *tc = tcase_create("interval");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_interval_recovers, 0, 5);
	tcase_add_test(tc, test_interval_format);
	tcase_add_test(tc, test_interval_large_blocks);
	suite_add_tcase(s, tc);
	return s;
}
