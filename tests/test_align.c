// SPDX-License-Identifier: GPL-2.0-only
/*
 * The align test (-a, modes/align.c): it samples 7 positions per alignment
 * without reading past the end, finds the geometry planted in a
 * simulated card, and prints the same table for the same seed.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "format.h"
#include "recdev.h"
#include "rowtext.h"
#include "util.h"

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

/*
 * Two readings of the same rows folded keep, read by read, the least time
 * of both, with each diff and mean made anew from them; a reading folded
 * into itself changes nothing, and a row of another alignment is left
 * alone.
 */
START_TEST(test_align_fold)
{
	static const uint64_t aligns[] = { 4 << 20, 1 << 20, 16384, 4096 };
	const size_t n = sizeof(aligns) / sizeof(aligns[0]);
	struct device *dev = sim_card("noise=20,seed=3");
	struct align_row *a, *b, *f, *same;
	struct bench_opts o;
	size_t na, nb, i, k, m, lower = 0;

	bench_opts_default(&o);
	o.blocksize_byte = 1024;
	o.count = 2;
	ck_assert_int_eq(bench_align_at(dev, &o, 6 << 20, aligns, n, &a, &na),
			 0);
	o.count = 1;
	ck_assert_int_eq(bench_align_at(dev, &o, 6 << 20, aligns, n, &b, &nb),
			 0);
	ck_assert_uint_eq(na, n);
	ck_assert_uint_eq(nb, n);
	f = malloc(n * sizeof(*f));
	same = malloc(n * sizeof(*same));
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(same);
	memcpy(f, a, n * sizeof(*f));
	align_fold(f, b, n);
	for (i = 0; i < n; i++) {
		int64_t sum[3] = { 0, 0, 0 };

		ck_assert_uint_eq(f[i].npos, 7);
		for (k = 0; k < 7; k++) {
			const int64_t *t = f[i].pos_ns[k];

			for (m = 0; m < 3; m++) {
				int64_t x = a[i].pos_ns[k][m];
				int64_t y = b[i].pos_ns[k][m];

				ck_assert_int_eq(t[m], x < y ? x : y);
				lower += y < x;
				sum[m] += t[m];
			}
			ck_assert_int_eq(f[i].pos_diff_ns[k],
					 t[1] - (t[0] + t[2]) / 2);
		}
		ck_assert_int_eq(f[i].pre_ns, sum[0] / 7);
		ck_assert_int_eq(f[i].on_ns, sum[1] / 7);
		ck_assert_int_eq(f[i].post_ns, sum[2] / 7);
		ck_assert_int_eq(f[i].diff_ns,
				 f[i].on_ns - (f[i].pre_ns + f[i].post_ns) / 2);
	}
	/* with 20 % noise the single reads were sometimes the faster */
	ck_assert_uint_gt(lower, 0);
	ck_assert_uint_lt(lower, n * 7 * 3);
	memcpy(same, f, n * sizeof(*same));
	align_fold(same, f, n);
	ck_assert_int_eq(memcmp(same, f, n * sizeof(*same)), 0);
	/* rows that do not match are not folded */
	memcpy(same, a, n * sizeof(*same));
	b[0].align_byte = 1;
	align_fold(same, b, 1);
	ck_assert_int_eq(memcmp(same, a, sizeof(*same)), 0);
	free(a);
	free(b);
	free(f);
	free(same);
	dev_close(dev);
}
END_TEST

Suite *align_suite(void)
{
	Suite *s = suite_create("align");
	TCase *tc = tcase_create("align");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_align_in_bounds, 0, 5);
	tcase_add_loop_test(tc, test_align_finds_geometry, 0, 15);
	tcase_add_test(tc, test_align_deterministic);
	tcase_add_test(tc, test_align_fold);
	suite_add_tcase(s, tc);
	return s;
}
