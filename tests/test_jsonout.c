// SPDX-License-Identifier: GPL-2.0-only
/*
 * --json through the front end (front/jsonout.c): every test's document
 * has the shape doc/flashbench.schema.json describes, with the raw
 * numbers behind the table.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "flashbench.h"
#include "rechead.h"
#include "util.h"

/* Every test's --json document has the schema's shape. */
static const struct {
	const char *args;
	const char *test;
	size_t results;		/* elements of "results" */
} json_runs[] = {
	{ "-a -b 1024 --simulate=size=1G", "align", 17 },	/* 128MiB..2KiB */
	{ "-s --scatter-order=6 --simulate=size=1G", "scatter", 64 },
	/* 8 sizes; the regression has its own key (issue 9 item 21) */
	{ "-i --interval-order=8 --simulate=size=1G", "interval", 8 },
	{ "-O -b 256K --open-au-nr=3 --simulate=size=1G", "open-au", 5 },
	{ "-f -b 1M --fat-nr=4 --simulate=size=1G", "find-fat", 3 },
	{ "-p --simulate=size=1G", "program", 13 },
};

START_TEST(test_json_shape)
{
	char args[256], buf[128], path[64];
	struct fb_run r;
	size_t n;

	snprintf(args, sizeof(args), "--json %s", json_runs[_i].args);
	fb_run(args, &r);
	ck_assert_msg(r.status == 0, "%s: %d %s", args, r.status, r.err);
	ck_assert_int_eq(json_get(r.out, NULL, NULL, 0), 0);
	ck_assert_str_eq(json_at(r.out, "version", buf, sizeof(buf)),
			 "\"" FLASHBENCH_VERSION "\"");
	snprintf(path, sizeof(path), "\"%s\"", json_runs[_i].test);
	ck_assert_str_eq(json_at(r.out, "test", buf, sizeof(buf)), path);
	ck_assert_str_eq(json_at(r.out, "device.size", buf, sizeof(buf)),
			 "1073741824");
	ck_assert_str_eq(json_at(r.out, "device.logical_block_size", buf,
			      sizeof(buf)), "512");
	json_at(r.out, "device.path", buf, sizeof(buf));
	json_at(r.out, "device.sysfs", buf, sizeof(buf));
	json_at(r.out, "options.blocksize", buf, sizeof(buf));
	ck_assert_str_eq(json_at(r.out, "verdict", buf, sizeof(buf)), "null");
	ck_assert_str_eq(json_at(r.out, "interrupted", buf, sizeof(buf)),
			 "false");
	for (n = 0;; n++) {
		snprintf(path, sizeof(path), "results.%zu", n);
		if (json_get(r.out, path, NULL, 0))
			break;
	}
	ck_assert_uint_eq(n, json_runs[_i].results);
	/* nothing but the document on the results stream */
	ck_assert_int_eq(r.out[0], '{');
	fb_free(&r);
}
END_TEST

/*
 * -i --json (issue 9 item 21): one result per size, each with its
 * overhead above the regression line, the line itself beside them;
 * the overheads are the text's.
 */
START_TEST(test_json_interval)
{
	struct fb_run text, js;
	char buf[64], path[64], want[96];
	double bps, access;
	size_t i;

	fb_run("-i --interval-order=6 -c 2 --simulate=size=1G", &text);
	fb_run("-i --interval-order=6 -c 2 --json --simulate=size=1G", &js);
	ck_assert_int_eq(text.status, 0);
	ck_assert_int_eq(js.status, 0);
	ck_assert_int_eq(json_get(js.out, "results.6", NULL, 0), -2);
	bps = atof(json_at(js.out, "regression.bytes_per_s", buf, sizeof(buf)));
	access = atof(json_at(js.out, "regression.access_ns", buf, sizeof(buf)));
	ck_assert(bps > 1e6 && access > 0);
	for (i = 0; i < 6; i++) {
		double min_ns, over;

		snprintf(path, sizeof(path), "results.%zu.min_ns", i);
		min_ns = atof(json_at(js.out, path, buf, sizeof(buf)));
		snprintf(path, sizeof(path), "results.%zu.overhead_ns", i);
		over = atof(json_at(js.out, path, buf, sizeof(buf)));
		ck_assert_double_eq_tol(over, min_ns - access -
					(512 << i) * 1e9 / bps, 1e-3);
		snprintf(want, sizeof(want), "bytes %d, time %.0f overhead %g\n",
			 512 << i, min_ns, over);
		ck_assert_msg(strstr(text.out, want), "no '%s' in %s", want,
			      text.out);
	}
	fb_free(&text);
	fb_free(&js);
}
END_TEST

/* Raw numbers: the align rows in ns match the table's on the same card. */
START_TEST(test_json_raw_numbers)
{
	struct fb_run text, js;
	char buf[64], want[64];

	fb_run("-a -b 1024 --simulate=size=1G,noise=0", &text);
	fb_run("-a -b 1024 --json --simulate=size=1G,noise=0", &js);
	ck_assert_int_eq(text.status, 0);
	ck_assert_int_eq(js.status, 0);
	ck_assert_str_eq(json_at(js.out, "results.0.align", buf, sizeof(buf)),
			 "134217728");
	/* the last table line is the 2KiB row; compare its diff */
	json_at(js.out, "results.16.diff_ns", buf, sizeof(buf));
	ck_assert_str_eq(json_at(js.out, "results.16.align", want, sizeof(want)),
			 "2048");
	ck_assert_ptr_nonnull(strstr(text.out, "align 2048\t"));
	ck_assert_int_lt(llabs(atoll(buf)), 1000);	/* below the page */
	json_at(js.out, "results.10.diff_ns", buf, sizeof(buf));
	ck_assert_int_gt(atoll(buf), 100000);		/* 128KiB: a page */
	fb_free(&text);
	fb_free(&js);
}
END_TEST

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

/*
 * A record says when its run started (UTC, ISO 8601; SOURCE_DATE_EPOCH
 * when set) and the host's kernel, with the record's shape.
 */
START_TEST(test_json_started)
{
	char want[128], buf[128], k[512];
	struct utsname u;
	struct fb_run r;
	time_t t0, t1;
	struct tm tm;

	ck_assert_int_eq(uname(&u), 0);
	snprintf(k, sizeof(k), "\"%s %s %s\"", u.sysname, u.release,
		 u.machine);
	setenv("SOURCE_DATE_EPOCH", "1795833094", 1);
	fb_run("-a -c 1 --json -q --simulate", &r);
	unsetenv("SOURCE_DATE_EPOCH");
	ck_assert_int_eq(r.status, 0);
	ck_assert_str_eq(json_at(r.out, "started", buf, sizeof(buf)),
			 "\"2026-11-28T02:31:34Z\"");
	ck_assert_str_eq(json_at(r.out, "kernel", buf, sizeof(buf)), k);
	snprintf(want, sizeof(want), "%d", RECORD_SHAPE);
	ck_assert_str_eq(json_at(r.out, "record_version", buf, sizeof(buf)),
			 want);
	fb_free(&r);
	/* the clock's time, taken before the run */
	t0 = time(NULL);
	fb_run("-a -c 1 --json -q --simulate", &r);
	t1 = time(NULL);
	json_at(r.out, "started", buf, sizeof(buf));
	for (; t0 <= t1; t0++) {
		gmtime_r(&t0, &tm);
		strftime(want, sizeof(want), "\"%Y-%m-%dT%H:%M:%SZ\"", &tm);
		if (!strcmp(buf, want))
			break;
	}
	ck_assert_msg(t0 <= t1, "started %s is not the run's time", buf);
	fb_free(&r);
}
END_TEST

/*
 * --hide-serial: the record holds no serial number (not as a number, not
 * in the CID, not as the kernel's attribute), and says so with the hash
 * --survey shows of the whole CID in its place; refused without --json.
 */
START_TEST(test_json_hide_serial)
{
	static const char spec[] = " --json -q --simulate=claims=C10,seed=3";
	char cid[64], serial[16], hash[32], buf[64];
	struct fb_run plain, hidden, r;
	char path[] = "/tmp/fb-hide-serialXXXXXX", args[128];
	FILE *f;
	int fd;

	fb_run("-a -c 1 --hide-serial -q --simulate=claims=C10", &r);
	ck_assert_int_eq(r.status, 2);
	ck_assert_ptr_nonnull(strstr(r.err, "--hide-serial goes with --json"));
	fb_free(&r);

	snprintf(args, sizeof(args), "-a -c 1%s", spec);
	fb_run(args, &plain);
	snprintf(args, sizeof(args), "-a -c 1 --hide-serial%s", spec);
	fb_run(args, &hidden);
	ck_assert_int_eq(hidden.status, 0);
	json_at(plain.out, "device.card.registers.cid", cid, sizeof(cid));
	ck_assert_uint_eq(strlen(cid), 34);	/* quoted */
	/* the serial, 0x00000003, as the CID holds it */
	snprintf(serial, sizeof(serial), "%.8s", cid + 1 + 18);
	ck_assert_str_eq(serial, "00000003");
	ck_assert_str_eq(json_at(plain.out, "device.card.serial", buf,
				 sizeof(buf)), "3");
	ck_assert_str_eq(json_at(hidden.out, "device.card.serial", buf,
				 sizeof(buf)), "null");
	json_at(hidden.out, "device.card.registers.cid", buf, sizeof(buf));
	ck_assert_int_eq(strncmp(buf, cid, 19), 0);
	ck_assert_int_eq(strncmp(buf + 19, "00000000", 8), 0);
	ck_assert_str_eq(buf + 27, cid + 27);
	ck_assert_ptr_null(strstr(hidden.out, "0x00000003"));
	ck_assert_ptr_nonnull(strstr(plain.out, "\"serial\": \"0x00000003\""));
	json_at(hidden.out, "device.card.serial_hash", hash, sizeof(hash));

	/* the hash is --survey's of the whole CID */
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	fputs(plain.out, f);
	fclose(f);
	snprintf(args, sizeof(args), "--survey --json %s", path);
	fb_run(args, &r);
	ck_assert_str_eq(json_at(r.out, "0.serial_hash", buf, sizeof(buf)),
			 hash);
	fb_free(&r);
	unlink(path);
	fb_free(&plain);
	fb_free(&hidden);
}
END_TEST

Suite *jsonout_suite(void)
{
	Suite *s = suite_create("jsonout");
	TCase *tc = tcase_create("jsonout");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_json_shape, 0, N(json_runs));
	tcase_add_test(tc, test_json_raw_numbers);
	tcase_add_test(tc, test_json_interval);
	tcase_add_test(tc, test_json_started);
	tcase_add_test(tc, test_json_hide_serial);
	suite_add_tcase(s, tc);
	return s;
}
