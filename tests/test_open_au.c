// SPDX-License-Identifier: GPL-2.0-only
/*
 * The open-AU test (-O, modes/open_au.c) on the simulated card: it must
 * recover how many AUs the card keeps open, in linear and random order,
 * and print the classic table.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "modes.h"
#include "util.h"
#include "wtable.h"

/* Options of the open-AU test on an AU of erase bytes. */
static void open_au_opts(struct bench_opts *o, uint64_t erase,
			 unsigned int nr, int random)
{
	bench_opts_default(o);
	o->erasesize_byte = erase;
	o->blocksize_byte = 16 * KiB;
	o->open_au_nr = nr;
	o->random = random;
	o->offset_byte = (16 * MiB + erase - 1) / erase * erase;
	o->log = NULL;
}

/* Rows of -O: erase size .. 16K; first and last rates. */
static void open_au_rates(const char *spec, uint64_t erase,
			  unsigned int nr, int random, double *large,
			  double *small)
{
	struct bench_opts o;
	struct wrun w;
	size_t rows = 0, i;
	uint64_t len;

	for (len = erase; len >= 16 * KiB; len /= 2)
		rows++;
	open_au_opts(&o, erase, nr, random);
	run_on(&w, spec, BENCH_OPEN_AU, &o);
	ck_assert_uint_eq(w.t.nrows, rows);
	for (i = 0; i < rows; i++) {
		double size;

		ck_assert_uint_eq(w.t.ncols[i], 2);
		ck_assert_int_eq(parse_size_cell(w.t.cell[i][0], &size), 0);
		ck_assert_double_eq(size, (double)(erase >> i));
		ck_assert_double_eq(w.tab.rows[i].cells[0].value,
				    (double)(erase >> i));
		rate_at(&w, i, 1);
	}
	*large = rate_at(&w, 0, 1);
	*small = rate_at(&w, rows - 1, 1);
	wrun_done(&w);
}

/* ---- -O ---- */

static const uint64_t erase_sizes[] = { 2 * MiB, 4 * MiB, 8 * MiB };

START_TEST(test_open_au_linear)
{
	uint64_t erase = erase_sizes[_i / 8];
	unsigned int open = _i % 8 + 1;
	double large, small;
	char spec[160];

	snprintf(spec, sizeof(spec),
		 "size=1G,erase=%lluM,page=16K,open=%u,open_random=1,fat=0,noise=0",
		 (unsigned long long)(erase / MiB), open);
	/* as many AUs as the card keeps open: small writes stay fast */
	open_au_rates(spec, erase, open, 0, &large, &small);
	ck_assert_msg(small * 2 >= large,
		      "%s nr=%u: %.0f B/s at 16K vs %.0f B/s at erase size",
		      spec, open, small, large);
	/* one more: they collapse */
	open_au_rates(spec, erase, open + 1, 0, &large, &small);
	ck_assert_msg(small * 4 <= large,
		      "%s nr=%u: %.0f B/s at 16K vs %.0f B/s at erase size",
		      spec, open + 1, small, large);
}
END_TEST

START_TEST(test_open_au_random)
{
	uint64_t erase = erase_sizes[_i / 6];
	unsigned int open_random = _i % 6 + 1, open = open_random + 2;
	double large, small;
	char spec[160];

	snprintf(spec, sizeof(spec),
		 "size=1G,erase=%lluM,page=16K,open=%u,open_random=%u,fat=0,noise=0",
		 (unsigned long long)(erase / MiB), open, open_random);
	open_au_rates(spec, erase, open_random, 1, &large, &small);
	ck_assert_msg(small * 2 >= large,
		      "%s -r nr=%u: %.0f B/s at 16K vs %.0f B/s", spec,
		      open_random, small, large);
	open_au_rates(spec, erase, open_random + 1, 1, &large, &small);
	ck_assert_msg(small * 4 <= large,
		      "%s -r nr=%u: %.0f B/s at 16K vs %.0f B/s", spec,
		      open_random + 1, small, large);
	/* in linear order the same card still keeps open_random + 1 */
	open_au_rates(spec, erase, open_random + 1, 0, &large, &small);
	ck_assert_msg(small * 2 >= large,
		      "%s nr=%u: %.0f B/s at 16K vs %.0f B/s", spec,
		      open_random + 1, small, large);
}
END_TEST

START_TEST(test_open_au_noisy)
{
	const char *spec = "size=1G,erase=4M,open=5,open_random=3,noise=5,seed=7";
	double large, small;

	/* 5% timing noise does not blur the verdicts */
	open_au_rates(spec, 4 * MiB, 5, 0, &large, &small);
	ck_assert_double_ge(small * 2, large);
	open_au_rates(spec, 4 * MiB, 6, 0, &large, &small);
	ck_assert_double_le(small * 4, large);
	open_au_rates(spec, 4 * MiB, 3, 1, &large, &small);
	ck_assert_double_ge(small * 2, large);
	open_au_rates(spec, 4 * MiB, 4, 1, &large, &small);
	ck_assert_double_le(small * 4, large);
}
END_TEST

START_TEST(test_open_au_sdxc_erase)
{
	static const char *const want[] = {
		"12MiB", "6MiB", "3MiB", "1.5MiB", "768KiB", "384KiB",
		"192KiB", "96KiB", "48KiB",
	};
	struct bench_opts o;
	struct wrun w;
	size_t i;

	/* 12 MiB AUs halve to the smallest multiple of the block size */
	open_au_opts(&o, 12 * MiB, 2, 0);
	ck_assert_uint_eq(o.offset_byte, 24 * MiB);
	run_on(&w, "size=1536M,erase=12M,page=16K,open=4,fat=0,noise=0",
	       BENCH_OPEN_AU, &o);
	ck_assert_uint_eq(w.t.nrows, 9);
	for (i = 0; i < 9; i++) {
		ck_assert_str_eq(w.t.cell[i][0], want[i]);
		ck_assert_double_eq(w.tab.rows[i].cells[0].value,
				    (double)((12 * MiB) >> i));
	}
	wrun_done(&w);
}
END_TEST

START_TEST(test_open_au_verbose)
{
	struct device *dev = sim_card("size=256M,noise=0");
	struct bench_opts o;
	char *log = NULL, *out = NULL;
	size_t log_len = 0, out_len = 0;
	FILE *lf = open_memstream(&log, &log_len);
	FILE *of = open_memstream(&out, &out_len);

	open_au_opts(&o, 4 * MiB, 2, 1);
	o.blocksize_byte = 1 * MiB;
	o.verbose = 2;
	o.log = lf;
	ck_assert_int_eq(open_au_run(dev, &o, of), 0);
	fclose(lf);
	fclose(of);
	/* -vv prints the program: sizes, random chunks, random AUs */
	ck_assert_ptr_nonnull(strstr(log, "flashbench: vm: len_pow2_down min=1048576 max=4194304\n"));
	ck_assert_ptr_nonnull(strstr(log, "flashbench: vm:             off_rand off=0 stride=length count=span/length span=4194304\n"));
	ck_assert_ptr_nonnull(strstr(log, "flashbench: vm:               off_rand off=16777216 stride=50331648 count=2\n"));
	ck_assert_ptr_nonnull(strstr(log, "write_rand\n"));
	ck_assert_ptr_null(strstr(out, "off_rand"));
	ck_assert_uint_eq(count_str(out, "\n"), 3);
	ck_assert_int_eq(strncmp(out, "4MiB    ", 8), 0);
	free(log);
	free(out);
	dev_close(dev);
}
END_TEST

Suite *open_au_suite(void)
{
	Suite *s = suite_create("open_au");
	TCase *tc = tcase_create("open_au");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_open_au_linear, 0, 24);
	tcase_add_loop_test(tc, test_open_au_random, 0, 18);
	tcase_add_test(tc, test_open_au_noisy);
	tcase_add_test(tc, test_open_au_sdxc_erase);
	tcase_add_test(tc, test_open_au_verbose);
	suite_add_tcase(s, tc);
	return s;
}
