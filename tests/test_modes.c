// SPDX-License-Identifier: GPL-2.0-only
/*
 * The rows of the table of tests (modes/modes.c and the table,
 * front/tests.c): every row complete and consistent, every test reachable
 * from the command line under its option, described in the man page, and
 * run through its row.  A test added with a row left half filled fails
 * here.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capest.h"
#include "cli.h"
#include "format.h"
#include "progplan.h"
#include "progress.h"
#include "progs.h"
#include "sim.h"
#include "recdev.h"
#include "util.h"

#define ALL_TESTS (BENCH_SCATTER | BENCH_FIND_FAT | BENCH_ALIGN | \
		   BENCH_OPEN_AU | BENCH_INTERVAL | BENCH_PROGRAM | \
		   BENCH_CAPACITY | BENCH_CLASS)

/*
 * Every field of every row is filled, and the rows agree with each other;
 * every classic mode is a VM program with its outputs, -C, -L and --auto
 * are measured in C.
 */
START_TEST(test_rows_complete)
{
	unsigned int seen = 0, writing = 0;
	size_t i, j;

	ck_assert_uint_ge(test_table_nr, 9);
	ck_assert_uint_le(test_table_nr, TESTS_MAX);
	for (i = 0; i < test_table_nr; i++) {
		const struct test *m = test_table[i];
		char opt[64];

		ck_assert_msg(m->test && !(m->test & (m->test - 1)),
			      "row %zu: not one bit", i);
		ck_assert_msg(!(seen & m->test), "row %zu: bit twice", i);
		seen |= m->test;
		ck_assert_msg(m->name && *m->name, "row %zu: no name", i);
		snprintf(opt, sizeof(opt), "--%s", m->name);
		ck_assert_msg(m->option && !strcmp(m->option, opt),
			      "%s: option '%s'", m->name, m->option);
		ck_assert_msg(!m->short_option == !!m->alone,
			      "%s: a short option unless it runs alone",
			      m->name);
		ck_assert_msg(m->measure && (m->print || m->alone) && m->json,
			      "%s: no measure, print or json", m->name);
		ck_assert_msg(!m->writes == !m->plan,
			      "%s: writes but no ranges, or the reverse",
			      m->name);
		ck_assert_msg(!m->plot == !!m->no_plot,
			      "%s: no plot and no reason, or the reverse",
			      m->name);
		if (m->prog) {
			const struct progs_mode *pm = m->prog;

			ck_assert_msg(pm->check && pm->build && pm->json &&
				      pm->plot, "%s: program row incomplete",
				      m->name);
			ck_assert_msg(!pm->ranges == !m->writes,
				      "%s: ranges are for writing modes",
				      m->name);
			/* a read mode's table comes from its cells */
			ck_assert_msg(m->writes || pm->print,
				      "%s: a read mode prints nothing",
				      m->name);
		}
		writing |= m->writes ? m->test : 0;
		ck_assert_ptr_eq(test_of(m->test), m);
		for (j = 0; j < i && m->short_option; j++)
			ck_assert_msg(test_table[j]->short_option !=
				      m->short_option,
				      "%s: short option taken", m->name);
	}
	ck_assert_uint_eq(seen, ALL_TESTS | TEST_AUTO);
	ck_assert_uint_eq(writing, BENCH_WRITING);
	for (i = 0; i < test_table_nr; i++)
		ck_assert_msg(!test_table[i]->prog ==
			      !!(test_table[i]->test &
				 (BENCH_CAPACITY | BENCH_CLASS | TEST_AUTO)),
			      "%s: not a VM program", test_table[i]->name);
	ck_assert_ptr_null(test_of(1u << 20));
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
	const struct test *m = test_table[_i];
	char args[256];
	struct fb_run rl, rs;
	struct bench_opts o;
	struct device *dev;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	if (m->alone)	/* --auto: its own suites */
		return;
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
	if (m->test == BENCH_CAPACITY) {
		struct capacity_estimate e;

		/* as the front end: the estimate's timing first */
		ck_assert_int_eq(capacity_estimate(dev, o.flush_byte, &e), 0);
	}
	ck_assert_int_eq(test_run_text(m, dev, &o, f), 0);
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
	for (i = 0; i < test_table_nr; i++) {
		const struct test *m = test_table[i];

		groff_dashes(want, sizeof(want), m->option);
		ck_assert_msg(strstr(page, want) != NULL,
			      "flashbench.1 does not describe %s", want);
		if (!m->short_option)
			continue;
		snprintf(opt, sizeof(opt), "-%c", m->short_option);
		groff_dashes(want, sizeof(want), opt);
		ck_assert_msg(strstr(page, want) != NULL,
			      "flashbench.1 does not name -%c",
			      m->short_option);
	}
	free(page);
}
END_TEST

/* The options of QUICK, with count reads of each. */
static void quick_opts(struct bench_opts *o, unsigned int count)
{
	bench_opts_default(o);
	o->count = count;
	o->scatter_order = 6;
	o->interval_order = 8;
	o->blocksize_byte = 256 << 10;
	o->erasesize_byte = 1 << 20;
	o->fat_nr = 2;
	o->log = NULL;
}

/*
 * A mode's I/O plan is its program: the progress line's segments laid
 * end to end are exactly the calls the mode then makes, length by
 * length, and the program's extent (what the size checks use) is
 * exactly as far as those calls reach.  Planning makes no I/O.
 */
START_TEST(test_plan_is_the_run)
{
	const struct test *m = test_table[_i];
	struct progress_seg *segs;
	struct bench_opts o;
	struct rec_dev *r;
	size_t nseg, k, io = 0;
	uint64_t j, end = 0;
	FILE *f;

	if (!m->prog)
		return;
	quick_opts(&o, 2);
	r = rec_open(256 << 20);
	ck_assert_int_eq(progplan_steps(m, &o, &r->dev, &segs, &nseg), 0);
	ck_assert_uint_eq(r->n, 0);
	f = fopen("/dev/null", "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(test_run_text(m, &r->dev, &o, f), 0);
	fclose(f);
	ck_assert_uint_gt(r->n, 0);
	for (k = 0; k < nseg; k++) {
		ck_assert_uint_gt(segs[k].n_io, 0);
		for (j = 0; j < segs[k].n_io; j++, io++) {
			ck_assert_uint_lt(io, r->n);
			ck_assert_uint_eq(segs[k].io_byte, r->log[io].len);
		}
	}
	ck_assert_uint_eq(io, r->n);
	for (k = 0; k < r->n; k++)
		if (r->log[k].off + r->log[k].len > end)
			end = r->log[k].off + r->log[k].len;
	ck_assert_uint_eq(progs_extent(m->prog, &o, &r->dev), end);
	free(segs);
	dev_close(&r->dev);
}
END_TEST

/* Check segment k: n_io calls of io_byte, named label. */
static void check_seg(const struct progress_seg *s, uint64_t n_io,
		      uint64_t io_byte, const char *label)
{
	ck_assert_uint_eq(s->n_io, n_io);
	ck_assert_uint_eq(s->io_byte, io_byte);
	ck_assert_str_eq(s->label, label);
}

/*
 * The read modes' steps on the progress line, as they were named before
 * their plan came from their programs: one per alignment, per round of
 * scatter, per interval size.
 */
START_TEST(test_plan_read_steps)
{
	const uint64_t bs = 256 << 10;
	struct progress_seg *segs;
	char want[32], size[FMT_LEN];
	struct bench_opts o;
	struct rec_dev *r = rec_open(256 << 20);
	size_t n, k = 0;
	uint64_t a;
	unsigned int i;

	quick_opts(&o, 3);
	ck_assert_int_eq(progplan_steps(&align_test, &o, &r->dev,
					&segs, &n), 0);
	for (a = align_max(256 << 20, bs); a >= 2 * bs; a >>= 1, k++) {
		ck_assert_uint_lt(k, n);
		snprintf(want, sizeof(want), "align %s", fmt_size(size, a));
		check_seg(&segs[k], 21 * 3, bs, want);
	}
	ck_assert_uint_eq(k, n);
	ck_assert_uint_eq(n, 7);	/* 32M down to 512K */
	free(segs);

	ck_assert_int_eq(progplan_steps(&scatter_test, &o, &r->dev,
					&segs, &n), 0);
	ck_assert_uint_eq(n, 3);
	for (i = 0; i < 3; i++) {
		snprintf(want, sizeof(want), "round %u/3", i + 1);
		check_seg(&segs[i], 64, bs, want);
	}
	free(segs);

	ck_assert_int_eq(progplan_steps(&interval_test, &o, &r->dev,
					&segs, &n), 0);
	ck_assert_uint_eq(n, 8);
	for (i = 0; i < 8; i++) {
		snprintf(want, sizeof(want), "%s reads",
			 fmt_size(size, 512ULL << i));
		check_seg(&segs[i], 3, 512ULL << i, want);
	}
	free(segs);
	ck_assert_uint_eq(r->n, 0);
	dev_close(&r->dev);
}
END_TEST

/*
 * The size checks of the read modes come from their programs' extent:
 * exactly the bytes the classic formulas give, (2^order - 1 + span)
 * blocks for scatter and ((count - 1) * 9 + 1) largest sizes for
 * interval; and a scatter one block too long is refused before any read.
 */
START_TEST(test_extent_read_modes)
{
	static const struct {
		unsigned int order, span, count;
		uint64_t bs;
	} sc[] = {
		{ 9, 1, 8, 16384 }, { 6, 2, 1, 1024 }, { 12, 4097, 2, 512 },
		{ 1, 1, 1, 4096 },
	};
	struct rec_dev *r = rec_open(1ULL << 40);
	struct scatter_point *pts;
	struct bench_opts o;
	size_t i, npts;

	for (i = 0; i < sizeof(sc) / sizeof(sc[0]); i++) {
		bench_opts_default(&o);
		o.scatter_order = sc[i].order;
		o.scatter_span = sc[i].span;
		o.count = sc[i].count;
		o.blocksize_byte = sc[i].bs;
		ck_assert_uint_eq(progs_extent(&scatter_prog, &o, &r->dev),
				  ((1ULL << sc[i].order) - 1 + sc[i].span) *
					  sc[i].bs);
	}
	for (i = 1; i <= 13; i++) {
		bench_opts_default(&o);
		o.interval_order = (unsigned int)i;
		o.count = (unsigned int)(i % 5 + 1);
		ck_assert_uint_eq(progs_extent(&interval_prog, &o, &r->dev),
				  ((o.count - 1ULL) * 9 + 1) *
					  (512ULL << (i - 1)));
	}
	dev_close(&r->dev);

	r = rec_open(64 * 1024);
	bench_opts_default(&o);
	o.scatter_order = 6;
	o.scatter_span = 2;	/* 65 blocks of 1K: one too many */
	o.blocksize_byte = 1024;
	ck_assert_uint_eq(progs_extent(&scatter_prog, &o, &r->dev),
			  65 * 1024);
	ck_assert_int_eq(bench_scatter(&r->dev, &o, &pts, &npts), -EINVAL);
	ck_assert_uint_eq(npts, 0);
	free(pts);
	ck_assert_uint_eq(r->n, 0);
	dev_close(&r->dev);
}
END_TEST

Suite *modes_suite(void)
{
	Suite *s = suite_create("modes");
	TCase *tc = tcase_create("rows");

	tcase_add_test(tc, test_rows_complete);
	tcase_add_loop_test(tc, test_rows_run, 0, (int)test_table_nr);
	tcase_add_test(tc, test_rows_documented);
	tcase_add_loop_test(tc, test_plan_is_the_run, 0,
			    (int)test_table_nr);
	tcase_add_test(tc, test_plan_read_steps);
	tcase_add_test(tc, test_extent_read_modes);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return s;
}
