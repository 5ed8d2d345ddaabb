// SPDX-License-Identifier: GPL-2.0-only
/*
 * The read tests: align must find the geometry planted in a simulated
 * card, scatter must visit every position once, interval's regression must
 * recover the planted transfer rate and access time.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "sim.h"
#include "vm.h"
#include "recdev.h"
#include "util.h"

/* vm_shuffle is a permutation of [0, n) for powers of two and others. */
START_TEST(test_shuffle_covers)
{
	const uint64_t n = _i <= 20 ? 1ULL << _i : 3 * (1ULL << (_i - 20)) + 7;
	unsigned char *seen = calloc(n, 1);
	uint64_t i, moved = 0, outside = 0, twice = 0;

	ck_assert_ptr_nonnull(seen);
	/* plain counting: a Check assertion per element costs too much */
	for (i = 0; i < n; i++) {
		uint64_t p = vm_shuffle(i, n, 42);

		if (p >= n) {
			outside++;
			continue;
		}
		twice += seen[p];
		seen[p] = 1;
		moved += p != i;
	}
	ck_assert_uint_eq(outside, 0);
	ck_assert_uint_eq(twice, 0);
	/* and it does move things: at most a few fixed points */
	if (n >= 16)
		ck_assert_uint_gt(moved, n / 2);
	free(seen);
}
END_TEST

/* Scatter reads each of 2^N positions exactly once per round. */
START_TEST(test_scatter_visits_once)
{
	const unsigned int order = _i;
	const uint64_t n = 1ULL << order;
	struct rec_dev *r = rec_open((n + 1) * 512);
	struct bench_opts o;
	struct scatter_point *pts;
	size_t npts, i, bad = 0;
	uint32_t *hits = calloc(n + 1, sizeof(*hits));

	ck_assert_ptr_nonnull(hits);
	bench_opts_default(&o);
	o.blocksize_byte = 512;
	o.scatter_order = order;
	o.scatter_span = 2;
	o.count = 1;
	ck_assert_int_eq(bench_scatter(&r->dev, &o, &pts, &npts), 0);
	ck_assert_uint_eq(npts, n);
	ck_assert_uint_eq(rec_count(r, REC_READ), r->n);	/* reads only */
	for (i = 0; i < r->n; i++)
		hits[r->log[i].off / 512]++;
	for (i = 0; i < n; i++)
		bad += hits[i] != 1 || pts[i].off_byte != i * 512 ||
		       pts[i].time_ns != REC_READ_NS(1024);
	ck_assert_uint_eq(bad, 0);
	ck_assert_uint_eq(hits[n], 0);
	free(hits);
	free(pts);
	dev_close(&r->dev);
}
END_TEST

/* A scatter that would reach past the end is refused before any read. */
START_TEST(test_scatter_too_big)
{
	struct rec_dev *r = rec_open(64 * 512);
	struct bench_opts o;
	struct scatter_point *pts;
	size_t npts;

	bench_opts_default(&o);
	o.blocksize_byte = 512;
	o.scatter_order = 6;
	o.scatter_span = 2;	/* 65 blocks: one too many */
	ck_assert_int_eq(bench_scatter(&r->dev, &o, &pts, &npts), -EINVAL);
	ck_assert_uint_eq(r->dev.io_count, 0);
	dev_close(&r->dev);
}
END_TEST

/*
 * Align samples 7 positions per alignment and never reads past the end,
 * whatever the device size (the classic tool wrapped around).
 */
START_TEST(test_align_in_bounds)
{
	static const uint64_t sizes[] = {
		64 << 20, (64 << 20) + 512, 7 * (1 << 20) + 1024,
		(7 << 20) + 1023 * 512, 123456 * 512,
	};
	struct rec_dev *r = rec_open(sizes[_i]);
	struct bench_opts o;
	struct align_row *rows;
	size_t n, i;
	uint64_t max;

	bench_opts_default(&o);
	o.blocksize_byte = 1024;
	o.count = 2;
	max = align_max(sizes[_i], 1024);
	ck_assert_uint_le(7 * max + 1024, sizes[_i]);
	ck_assert_uint_gt(14 * max + 1024, sizes[_i]);
	ck_assert_int_eq(bench_align(&r->dev, &o, &rows, &n), 0);
	ck_assert_uint_eq(rows[0].align_byte, max);
	ck_assert_uint_eq(rows[n - 1].align_byte, 2048);
	/* 7 positions x pre/on/post x count reads per alignment */
	ck_assert_uint_eq(r->dev.io_count, n * 7 * 3 * 2);
	for (i = 0; i < n; i++)
		/* the recorder charges the same for every read */
		ck_assert_int_eq(rows[i].diff_ns, 0);
	free(rows);
	dev_close(&r->dev);
}
END_TEST

/* The diff levels of an align table: above, between and below a range. */
struct levels {
	int64_t min_au, max_page, min_page, max_sub;
};

static struct levels table_levels(const struct align_row *rows, size_t n,
				  uint64_t erase, uint64_t page)
{
	struct levels l = { INT64_MAX, INT64_MIN, INT64_MAX, INT64_MIN };
	size_t i;

	for (i = 0; i < n; i++) {
		int64_t d = rows[i].diff_ns;

		if (rows[i].align_byte % erase == 0) {
			if (d < l.min_au)
				l.min_au = d;
		} else if (rows[i].align_byte >= page) {
			if (d > l.max_page)
				l.max_page = d;
			if (d < l.min_page)
				l.min_page = d;
		} else if (d > l.max_sub) {
			l.max_sub = d;
		}
	}
	return l;
}

/*
 * The sweep of the issue: five erase sizes by three page sizes, with
 * noise, -b 1024.  The diff must be large at and above the planted erase
 * size, smaller but clearly present from the page size up, and small
 * below the page size.
 */
START_TEST(test_align_finds_geometry)
{
	static const unsigned int erase_mib[] = { 1, 2, 4, 8, 16 };
	static const unsigned int page_kib[] = { 8, 16, 32 };
	const uint64_t erase = (uint64_t)erase_mib[_i / 3] << 20;
	const uint64_t page = (uint64_t)page_kib[_i % 3] << 10;
	struct align_row *rows;
	struct bench_opts o;
	struct device *dev;
	struct levels l;
	char spec[128];
	size_t n;

	snprintf(spec, sizeof(spec), "size=1G,erase=%u,page=%u,noise=2,seed=%d",
		 erase_mib[_i / 3] << 20, page_kib[_i % 3] << 10, _i + 1);
	dev = sim_card(spec);
	bench_opts_default(&o);
	o.blocksize_byte = 1024;
	ck_assert_int_eq(bench_align(dev, &o, &rows, &n), 0);
	l = table_levels(rows, n, erase, page);
	ck_assert_msg(l.min_au > l.max_page + (l.max_page - l.max_sub) / 2,
		      "%s: AU level %lld not above page level %lld", spec,
		      (long long)l.min_au, (long long)l.max_page);
	ck_assert_msg(l.min_page > 3 * (l.max_sub > 0 ? l.max_sub : 0) + 1000,
		      "%s: page level %lld not above sub-page level %lld", spec,
		      (long long)l.min_page, (long long)l.max_sub);
	free(rows);
	dev_close(dev);
}
END_TEST

/* Run a test on a fresh card and return its output. */
static char *align_output(const char *spec)
{
	struct device *dev = sim_card(spec);
	struct align_row *rows;
	struct bench_opts o;
	size_t n, len;
	char *text;
	FILE *f = open_memstream(&text, &len);

	bench_opts_default(&o);
	o.blocksize_byte = 1024;
	ck_assert_int_eq(bench_align(dev, &o, &rows, &n), 0);
	print_align(f, rows, n);
	fclose(f);
	free(rows);
	dev_close(dev);
	return text;
}

/* The same seed gives byte-identical output, another seed does not. */
START_TEST(test_align_deterministic)
{
	char *a = align_output("noise=3,seed=7");
	char *b = align_output("noise=3,seed=7");
	char *c = align_output("noise=3,seed=8");

	ck_assert_str_eq(a, b);
	ck_assert_str_ne(a, c);
	ck_assert_uint_eq(count_str(a, "align "), 20);	/* 1GiB .. 2KiB */
	free(a);
	free(b);
	free(c);
}
END_TEST

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

Suite *bench_suite(void)
{
	Suite *s = suite_create("bench");
	TCase *tc = tcase_create("read tests");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_shuffle_covers, 0, 26);
	tcase_add_loop_test(tc, test_scatter_visits_once, 1, 21);
	tcase_add_test(tc, test_scatter_too_big);
	tcase_add_loop_test(tc, test_align_in_bounds, 0, 5);
	tcase_add_loop_test(tc, test_align_finds_geometry, 0, 15);
	tcase_add_test(tc, test_align_deterministic);
	tcase_add_loop_test(tc, test_interval_recovers, 0, 5);
	tcase_add_test(tc, test_interval_format);
	tcase_add_test(tc, test_interval_large_blocks);
	suite_add_tcase(s, tc);
	return s;
}
