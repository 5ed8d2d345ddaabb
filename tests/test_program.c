// SPDX-License-Identifier: GPL-2.0-only
/*
 * The program test (-p, modes/program.c): its classic table on the
 * simulated card, and a device with 4096-byte logical blocks.
 */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "modes.h"
#include "recdev.h"
#include "util.h"
#include "wtable.h"

START_TEST(test_program)
{
	static const char *const sizes[] = {
		"2MiB", "1MiB", "512KiB", "256KiB", "128KiB", "64KiB", "32KiB",
		"16KiB", "8KiB", "4KiB", "2KiB", "1KiB", "512B",
	};
	struct bench_opts o;
	struct wrun w;
	regex_t line_re, rate_re;
	size_t r, c;
	char *line, *save = NULL, *copy;

	bench_opts_default(&o);
	o.log = NULL;
	run_on(&w, "size=256M,noise=0", BENCH_PROGRAM, &o);
	ck_assert_uint_eq(w.t.nrows, 13);
	ck_assert_int_eq(regcomp(&rate_re,
				 "^[0-9]+(\\.[0-9]+)?[KMG]?/s$|^[0-9]+B/s$",
				 REG_EXTENDED | REG_NOSUB), 0);
	/* a size cell then 8 rate cells, each "%-7s " */
	ck_assert_int_eq(regcomp(&line_re,
				 "^[0-9.]+(B|KiB|MiB) +"
				 "([0-9.]+[KMG]?B?/s +){8}$",
				 REG_EXTENDED | REG_NOSUB), 0);
	copy = strdup(w.out);
	for (r = 0, line = strtok_r(copy, "\n", &save); line;
	     r++, line = strtok_r(NULL, "\n", &save)) {
		ck_assert_msg(regexec(&line_re, line, 0, NULL, 0) == 0,
			      "line %zu: '%s'", r, line);
		ck_assert_uint_lt(r, 13);
		ck_assert_str_eq(w.t.cell[r][0], sizes[r]);
		ck_assert_uint_eq(w.t.ncols[r], 9);
		ck_assert_uint_eq(w.tab.rows[r].ncells, 9);
		for (c = 1; c < 9; c++) {
			ck_assert_msg(regexec(&rate_re, w.t.cell[r][c], 0,
					      NULL, 0) == 0, "'%s'",
				      w.t.cell[r][c]);
			ck_assert_double_gt(rate_at(&w, r, c), 0);
		}
	}
	ck_assert_uint_eq(r, 13);
	/* reads are faster than writes on this card (25 vs 12 MB/s) */
	ck_assert_double_gt(rate_at(&w, 0, 4), rate_at(&w, 0, 1));
	free(copy);
	regfree(&line_re);
	regfree(&rate_re);
	wrun_done(&w);
}
END_TEST

START_TEST(test_program_4k_sectors)
{
	struct rec_dev *r = rec_open(1ULL << 30);
	struct bench_opts o;
	struct table t;
	char *out = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&out, &len);

	/* a 4Kn device cannot write 512 bytes: -p stops at 4KiB */
	r->dev.logical_block_size = 4096;
	bench_opts_default(&o);
	o.log = NULL;
	ck_assert_int_eq(program_run(&r->dev, &o, f), 0);
	fclose(f);
	split_table(out, &t);
	ck_assert_uint_eq(t.nrows, 10);
	ck_assert_str_eq(t.cell[0][0], "2MiB");
	ck_assert_str_eq(t.cell[9][0], "4KiB");
	for (i = 0; i < r->n; i++) {
		ck_assert_uint_eq(r->log[i].off % 4096, 0);
		ck_assert_uint_eq(r->log[i].len % 4096, 0);
	}
	free(out);
	dev_close(&r->dev);
}
END_TEST

Suite *program_suite(void)
{
	Suite *s = suite_create("program");
	TCase *tc = tcase_create("program");

	tcase_add_test(tc, test_program);
	tcase_add_test(tc, test_program_4k_sectors);
	suite_add_tcase(s, tc);
	return s;
}
