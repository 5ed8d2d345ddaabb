// SPDX-License-Identifier: GPL-2.0-only
/*
 * How a run ends (front/status.c): a full -o, an I/O error, a missing
 * device, an I/O error in the middle of every test, a write error, and
 * ^C in the middle of -s: one line naming what failed, the exit status
 * it maps to, and what was measured before it kept.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fault.h"
#include "flashbench.h"
#include "frontrun.h"
#include "util.h"

/* A results stream that cannot be written is an error at the end. */
START_TEST(test_out_full)
{
	struct fb_run r;

	fb_run("-s --scatter-order=10 -o /dev/full --simulate", &r);
	ck_assert_int_eq(r.status, 1);
	ck_assert_ptr_nonnull(strstr(r.err, "flashbench: write error on /dev/full: "));
	ck_assert_uint_eq(line_count(r.err), 1);
	fb_free(&r);
}
END_TEST

/* An I/O error: one line naming op, length, offset, device; exit 1. */
START_TEST(test_io_error)
{
	char want[256];
	struct fb_run r;

	/*
	 * All of scatter (order 3, one round), one align row (7 positions,
	 * 3 reads each), then the first read of the second row fails: its
	 * "pre" read at maxalign / 2 - blocksize, maxalign being 1 GiB.
	 */
	fault_plan_init(&fb_fault_plan);
	fb_fault_plan.eio_op = 8 + 21 + 1;
	flashbench_open_hook = fb_fault_hook;
	fb_run("-a -s --scatter-order=3 -c 1 --simulate", &r);
	unhook();
	ck_assert_int_eq(r.status, 1);
	ck_assert_uint_eq(line_count(r.err), 1);
	snprintf(want, sizeof(want),
		 "flashbench: read of 16384 bytes at offset %llu on simulated card failed: %s\n",
		 (512ULL << 20) - 16384, strerror(EIO));
	ck_assert_str_eq(r.err, want);
	/* what was measured before the failure is still there */
	ck_assert_uint_eq(line_count(r.out), 8 + 1);
	ck_assert_uint_eq(count_lines_with(r.out, "align 1073741824\t"), 1);
	fb_free(&r);
}
END_TEST

/* A write error: warnings first, then one line naming the write; exit 1. */
START_TEST(test_write_error)
{
	const char *last;
	struct fb_run r;
	char want[256];

	fault_plan_init(&fb_fault_plan);
	fb_fault_plan.enospc_byte = 0;	/* full: every write fails */
	flashbench_open_hook = fb_fault_hook;
	fb_run("-s --scatter-order=2 -f --fat-nr=1 --simulate", &r);
	unhook();
	ck_assert_int_eq(r.status, 1);
	ck_assert_uint_eq(line_count(r.err), 3);
	ck_assert_ptr_nonnull(strstr(r.err, "flashbench: will overwrite bytes 0-4194304 on simulated card\n"));
	last = strchr(strchr(r.err, '\n') + 1, '\n') + 1;
	/* -f starts with the whole first AU in one write */
	snprintf(want, sizeof(want),
		 "flashbench: write of 4194304 bytes at offset 0 on simulated card failed: %s\n",
		 strerror(ENOSPC));
	ck_assert_str_eq(last, want);
	/* scatter's results were printed before the failure */
	ck_assert_uint_eq(line_count(r.out), 4);
	fb_free(&r);
}
END_TEST

/* A DEVICE that cannot be opened: one line naming it, exit 1. */
START_TEST(test_missing_device)
{
	const char *args[] = { "-a", "/nonexistent/flashbench-dev", NULL };
	struct cmd_result r;

	bin_run(args, &r);
	ck_assert_int_eq(r.status, 1);
	ck_assert_uint_eq(line_count(r.err), 1);
	ck_assert_ptr_nonnull(strstr(r.err, "flashbench: "));
	ck_assert_ptr_nonnull(strstr(r.err, "/nonexistent/flashbench-dev"));
	ck_assert_str_eq(r.out, "");
	cmd_result_free(&r);
}
END_TEST

static const char *const eio_runs[] = {
	"-a -b 1024 --simulate=size=1G",
	"-s --scatter-order=10 --simulate=size=1G",
	"-i --simulate=size=1G",
	"-O -b 256K --open-au-nr=3 --simulate=size=1G",
	"-O -r -b 256K --simulate=size=1G",
	"-f -b 1M --simulate=size=1G",
	"-p --simulate=size=1G",
	"--auto --destructive --simulate=size=1G",
	"-a -b 1024 --json --simulate=size=1G",
};

/* ---- an I/O error in the middle of every test ---- */

/*
 * EIO half way through: the test stops at once with one line naming the
 * operation, its offset and length, exit 1, and what was measured before
 * is still printed.
 */
START_TEST(test_eio_midway)
{
	char want[128];
	struct fb_run r;
	uint64_t ops;

	fb_run(eio_runs[_i], &r);
	ck_assert_int_eq(r.status, 0);
	ops = r.io_calls;
	fb_free(&r);
	fault_plan_init(&fb_fault_plan);
	fb_fault_plan.eio_op = ops / 2;
	flashbench_open_hook = fb_fault_hook;
	fb_run(eio_runs[_i], &r);
	flashbench_open_hook = NULL;
	ck_assert_msg(r.status == 1, "%s: %d %s", eio_runs[_i], r.status,
		      r.err);
	/*
	 * the error, beside the "will overwrite" lines (or the compact
	 * announcement's runs) and their total
	 */
	ck_assert_uint_eq(count_str(r.err, "\n") -
			  count_str(r.err, "flashbench: will overwrite") -
			  count_str(r.err, "flashbench:   ") -
			  count_str(r.err, "each END is the first byte left alone"),
			  1);
	snprintf(want, sizeof(want), "bytes at offset ");
	ck_assert_msg(strstr(r.err, want) && strstr(r.err,
		      "on simulated card failed: Input/output error\n"),
		      "%s: '%s'", eio_runs[_i], r.err);
	ck_assert_msg(strstr(r.err, "flashbench: read of ") ||
		      strstr(r.err, "flashbench: write of "), "'%s'", r.err);
	/* stopped there: no I/O after the failed one */
	ck_assert_uint_eq(r.io_calls, ops / 2);
	/* what came before was printed */
	ck_assert_str_ne(r.out, "");
	if (strstr(eio_runs[_i], "--json"))
		ck_assert_int_eq(json_get(r.out, NULL, NULL, 0), 0);
	fb_free(&r);
}
END_TEST

#define SC_ARGS "-s --scatter-order=10 --simulate=size=1G"

#define SC_N 1024

/* Scatter lines into t_ms[position]; returns the lines, -1 if bad. */
static int scatter_parse(const char *text, double *t_ms, int *seen)
{
	const char *p = text;
	int n = 0;

	memset(seen, 0, SC_N * sizeof(*seen));
	while (*p) {
		double off_mib, ms;
		long pos;

		if (sscanf(p, "%lf\t%lf\n", &off_mib, &ms) != 2)
			return -1;
		pos = lround(off_mib * 64);	/* 16 KiB blocks */
		if (pos < 0 || pos >= SC_N || seen[pos]++)
			return -1;
		t_ms[pos] = ms;
		n++;
		p = strchr(p, '\n');
		if (!p)
			return -1;
		p++;
	}
	return n;
}

/* The uninterrupted results of SC_ARGS with -c count. */
static void scatter_full(unsigned int count, double *t_ms)
{
	char args[128];
	struct fb_run r;
	int seen[SC_N];

	snprintf(args, sizeof(args), SC_ARGS " -c %u", count);
	fb_run(args, &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_int_eq(scatter_parse(r.out, t_ms, seen), SC_N);
	fb_free(&r);
}

/* SC_ARGS -c 4 (with --json) stopped by SIGINT during read stop_op. */
static void scatter_stopped(uint64_t stop_op, int json, struct fb_run *r)
{
	char args[128];

	snprintf(args, sizeof(args), SC_ARGS " -c 4%s",
		 json ? " --json" : "");
	fault_plan_init(&fb_fault_plan);
	fb_fault_plan.signal_op = stop_op;
	fb_fault_plan.signal = SIGINT;
	flashbench_open_hook = fb_fault_hook;
	fb_run(args, r);
	flashbench_open_hook = NULL;
	ck_assert_msg(r->status == 130, "status %d: %s", r->status, r->err);
	ck_assert_str_eq(r->err, "flashbench: stopped by Interrupt\n");
	/* the read under way completes, the next one is not made */
	ck_assert_uint_eq(r->io_calls, stop_op);
}

/* ---- ^C in the middle of -s ---- */

/*
 * ^C during the first round: the positions read so far are printed,
 * each with the time of its one read.
 */
START_TEST(test_scatter_stopped_first_round)
{
	static double t1[SC_N], t[SC_N];
	int seen[SC_N], i;
	struct fb_run r;

	scatter_full(1, t1);
	scatter_stopped(300, 0, &r);
	ck_assert_int_eq(scatter_parse(r.out, t, seen), 300);
	for (i = 0; i < SC_N; i++)
		ck_assert(!seen[i] || t[i] == t1[i]);
	fb_free(&r);
}
END_TEST

/*
 * ^C in the third of four rounds: every position, each the minimum of the
 * rounds done so far, between that of two rounds and that of three.
 */
START_TEST(test_scatter_stopped_third_round)
{
	static double t2[SC_N], t3[SC_N], t[SC_N];
	int seen[SC_N], i, at_t3 = 0, at_t2 = 0;
	struct fb_run r;

	scatter_full(2, t2);
	scatter_full(3, t3);
	scatter_stopped(2 * SC_N + 552, 0, &r);
	ck_assert_int_eq(scatter_parse(r.out, t, seen), SC_N);
	for (i = 0; i < SC_N; i++) {
		ck_assert_msg(t3[i] <= t[i] && t[i] <= t2[i],
			      "position %d: %f not in [%f, %f]", i, t[i],
			      t3[i], t2[i]);
		at_t3 += t[i] == t3[i] && t3[i] < t2[i];
		at_t2 += t[i] == t2[i] && t3[i] < t2[i];
	}
	/* some positions had their third read, others not yet */
	ck_assert_int_gt(at_t3, 0);
	ck_assert_int_gt(at_t2, 0);
	fb_free(&r);
}
END_TEST

/* The same with --json: one document, "interrupted": true. */
START_TEST(test_scatter_stopped_json)
{
	static const uint64_t stops[] = { 300, 2 * SC_N + 552 };
	static const int want[] = { 300, SC_N };
	char path[32], v[32];
	struct fb_run r;
	size_t k;

	for (k = 0; k < 2; k++) {
		scatter_stopped(stops[k], 1, &r);
		ck_assert_int_eq(json_get(r.out, NULL, NULL, 0), 0);
		ck_assert_int_eq(json_get(r.out, "interrupted", v, sizeof(v)),
				 0);
		ck_assert_str_eq(v, "true");
		snprintf(path, sizeof(path), "results.%d.time_ns",
			 want[k] - 1);
		ck_assert_int_eq(json_get(r.out, path, v, sizeof(v)), 0);
		ck_assert_uint_gt(strtoull(v, NULL, 10), 0);
		snprintf(path, sizeof(path), "results.%d", want[k]);
		ck_assert_int_eq(json_get(r.out, path, v, sizeof(v)), -2);
		ck_assert_int_eq(json_get(r.out, "error", v, sizeof(v)), -2);
		fb_free(&r);
	}
}
END_TEST

Suite *status_suite(void)
{
	Suite *s = suite_create("status");
	TCase *tc;

	tc = tcase_create("failures");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_out_full);
	tcase_add_test(tc, test_io_error);
	tcase_add_test(tc, test_missing_device);
	tcase_add_loop_test(tc, test_eio_midway, 0,
			    sizeof(eio_runs) / sizeof(eio_runs[0]));
	tcase_add_test(tc, test_scatter_stopped_first_round);
	tcase_add_test(tc, test_scatter_stopped_third_round);
	tcase_add_test(tc, test_scatter_stopped_json);
	suite_add_tcase(s, tc);

	tc = tcase_create("writes");
	tcase_add_test(tc, test_write_error);
	suite_add_tcase(s, tc);
	return s;
}
