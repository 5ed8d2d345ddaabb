// SPDX-License-Identifier: GPL-2.0-only
/*
 * The table of modes (modes/modes.c): every row complete and consistent,
 * every mode reachable from the command line under its option, described
 * in the man page, and run through its row's entry point.  A mode added
 * with a row left half filled fails here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "modes.h"
#include "sim.h"
#include "util.h"

#define ALL_TESTS (BENCH_SCATTER | BENCH_FIND_FAT | BENCH_ALIGN | \
		   BENCH_OPEN_AU | BENCH_INTERVAL | BENCH_PROGRAM | \
		   BENCH_CAPACITY | BENCH_CLASS)

/* Every field of every row is filled, and the rows agree with each other. */
START_TEST(test_rows_complete)
{
	unsigned int seen = 0, writing = 0;
	size_t i, j;

	ck_assert_uint_ge(modes_nr, 6);
	ck_assert_uint_le(modes_nr, MODES_MAX);
	for (i = 0; i < modes_nr; i++) {
		const struct mode *m = &modes[i];
		char opt[64];

		ck_assert_msg(m->test && !(m->test & (m->test - 1)),
			      "row %zu: not one bit", i);
		ck_assert_msg(!(seen & m->test), "row %zu: bit twice", i);
		seen |= m->test;
		ck_assert_msg(m->name && *m->name, "row %zu: no name", i);
		snprintf(opt, sizeof(opt), "--%s", m->name);
		ck_assert_msg(m->option && !strcmp(m->option, opt),
			      "%s: option '%s'", m->name, m->option);
		ck_assert_msg(m->short_option, "%s: no short option", m->name);
		ck_assert_msg(m->run, "%s: no run", m->name);
		ck_assert_msg(!m->writes == !m->write_ranges,
			      "%s: writes but no ranges, or the reverse",
			      m->name);
		ck_assert_msg(!m->writing == !m->column,
			      "%s: a VM mode names its columns", m->name);
		ck_assert_msg(!m->writing || m->writes,
			      "%s: a VM mode that does not write", m->name);
		writing |= m->writes ? m->test : 0;
		ck_assert_ptr_eq(mode_of(m->test), m);
		for (j = 0; j < i; j++)
			ck_assert_msg(modes[j].short_option != m->short_option,
				      "%s: short option taken", m->name);
	}
	ck_assert_uint_eq(seen, ALL_TESTS);
	ck_assert_uint_eq(writing, BENCH_WRITING);
	ck_assert_ptr_null(mode_of((enum bench_test)(1 << 20)));
	ck_assert_str_eq(mode_option((enum bench_test)(1 << 20)), "test");
}
END_TEST

/* Options small enough for a quick run of any mode on the simulated card. */
#define QUICK "--simulate=size=256M -c 1 --scatter-order=6 --interval-order=8 -b 256K -e 1M --fat-nr=2"

/*
 * The front end runs each mode under its long and its short option, and
 * prints exactly what the row's entry point prints on a fresh card.
 */
START_TEST(test_rows_run)
{
	const struct mode *m = &modes[_i];
	char args[256];
	struct fb_run rl, rs;
	struct bench_opts o;
	struct device *dev;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	snprintf(args, sizeof(args), "%s %s", QUICK, m->option);
	fb_run(args, &rl);
	ck_assert_msg(rl.status == 0, "%s: status %d: %s", args, rl.status,
		      rl.err);
	snprintf(args, sizeof(args), "%s -%c", QUICK, m->short_option);
	fb_run(args, &rs);
	ck_assert_int_eq(rs.status, 0);
	ck_assert_str_eq(rs.out, rl.out);
	ck_assert_uint_gt(strlen(rl.out), 0);

	bench_opts_default(&o);
	o.count = 1;
	o.scatter_order = 6;
	o.interval_order = 8;
	o.blocksize_byte = 256 << 10;
	o.erasesize_byte = 1 << 20;
	o.fat_nr = 2;
	dev = sim_card("size=256M");
	f = open_memstream(&text, &len);
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(m->run(dev, &o, f), 0);
	fclose(f);
	dev_close(dev);
	ck_assert_str_eq(text, rl.out);
	free(text);
	fb_free(&rl);
	fb_free(&rs);
}
END_TEST

/* opt as groff source writes it: every '-' as "\\-". */
static void groff_dashes(char *buf, size_t len, const char *opt)
{
	size_t n = 0;

	for (; *opt && n + 3 < len; opt++) {
		if (*opt == '-')
			buf[n++] = '\\';
		buf[n++] = *opt;
	}
	buf[n] = '\0';
}

/* The man page describes every mode under its options. */
START_TEST(test_rows_documented)
{
	FILE *f = fopen("flashbench.1", "r");
	char *page = NULL, want[64], opt[32];
	size_t len = 0, i;

	ck_assert_msg(f != NULL, "flashbench.1 not found (run from the top)");
	ck_assert_int_ne(getdelim(&page, &len, '\0', f), -1);
	fclose(f);
	for (i = 0; i < modes_nr; i++) {
		groff_dashes(want, sizeof(want), modes[i].option);
		ck_assert_msg(strstr(page, want) != NULL,
			      "flashbench.1 does not describe %s", want);
		snprintf(opt, sizeof(opt), "-%c", modes[i].short_option);
		groff_dashes(want, sizeof(want), opt);
		ck_assert_msg(strstr(page, want) != NULL,
			      "flashbench.1 does not name -%c",
			      modes[i].short_option);
	}
	free(page);
}
END_TEST

Suite *modetable_suite(void)
{
	Suite *s = suite_create("modetable");
	TCase *tc = tcase_create("rows");

	tcase_add_test(tc, test_rows_complete);
	tcase_add_loop_test(tc, test_rows_run, 0, (int)modes_nr);
	tcase_add_test(tc, test_rows_documented);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return s;
}
