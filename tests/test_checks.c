// SPDX-License-Identifier: GPL-2.0-only
/*
 * Everything checked before any I/O (front/checks.c and the parse of
 * front/options.c): every bad command line is refused with one line
 * naming the option, exit status 2 and no I/O at all, from the function
 * and from the real binary; writing tests that would reach past the end;
 * options a test does not use (accepted, ignored, named under -v).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "flashbench.h"
#include "frontrun.h"
#include "util.h"

/* A bad command line and what its one error line must contain. */
struct bad_case {
	const char *args;
	const char *want;	/* substring of the error line */
	int needs_device;	/* 1: only the device's size can tell */
};

static const struct bad_case bad_cases[] = {
	/* not a number, junk, overflow, negative, zero */
	{ "-a -b abc --simulate", "invalid --blocksize 'abc'", 0 },
	{ "-a -b 4X --simulate", "invalid --blocksize '4X'", 0 },
	{ "-a -b 16KX --simulate", "invalid --blocksize '16KX'", 0 },
	{ "-a -b 99999999999999999999 --simulate",
	  "invalid --blocksize '99999999999999999999': number too large", 0 },
	{ "-a --blocksize=-512 --simulate", "invalid --blocksize '-512'", 0 },
	{ "-a -b 0 --simulate", "invalid --blocksize '0'", 0 },
	{ "-a -b= --simulate", "invalid --blocksize '='", 0 },
	/* the shape of the block size */
	{ "-a -b 1000 --simulate",
	  "invalid --blocksize '1000': not a power of two", 0 },
	{ "-a -b 1536 --simulate", "invalid --blocksize '1536'", 0 },
	{ "-a -b 100 --simulate", "invalid --blocksize '100'", 0 },
	{ "-a -b 256 --simulate", "invalid --blocksize '256'", 0 },
	/* the shape of the erase size */
	{ "-O -e 5M --simulate", "invalid --erasesize '5M'", 0 },
	{ "-O -e 20M --simulate", "invalid --erasesize '20M'", 0 },
	{ "-f --erasesize=0 --simulate", "invalid --erasesize '0'", 0 },
	{ "-O -e 16K -b 16K --simulate", "invalid --erasesize '16K'", 0 },
	{ "-f -e 6M -b 4M --simulate", "invalid --erasesize '6M'", 0 },
	{ "-a -e 0x --simulate", "invalid --erasesize '0x'", 0 },
	/* a lowercase b is bits: 4Mb is 512 KiB, not 4 MiB */
	{ "-a -b 4Mb --simulate",
	  "invalid --blocksize '4Mb': a lowercase b means bits; sizes are in bytes (4M)",
	  0 },
	{ "-a -b 16kib --simulate",
	  "invalid --blocksize '16kib': a lowercase b means bits; sizes are in bytes (16k)",
	  0 },
	{ "-O -e 0x4Mb --simulate", "invalid --erasesize '0x4Mb': a lowercase b",
	  0 },
	{ "-O --offset=16mb --simulate", "invalid --offset '16mb': a lowercase b",
	  0 },
	/* orders and counts */
	{ "-s --scatter-order=0 --simulate", "invalid --scatter-order '0'", 0 },
	{ "-s --scatter-order=25 --simulate", "invalid --scatter-order '25'",
	  0 },
	{ "-s --scatter-order=9x --simulate", "invalid --scatter-order '9x'",
	  0 },
	{ "-s --scatter-span=0 --simulate", "invalid --scatter-span '0'", 0 },
	{ "-i --interval-order=4 --simulate", "invalid --interval-order '4'",
	  0 },
	{ "-i --interval-order=25 --simulate",
	  "invalid --interval-order '25'", 0 },
	{ "-a -c 0 --simulate", "invalid --count '0'", 0 },
	{ "-a --count=many --simulate", "invalid --count 'many'", 0 },
	{ "-a --count=-3 --simulate", "invalid --count '-3'", 0 },
	{ "-a -c 99999999999 --simulate", "invalid --count '99999999999'", 0 },
	/* every repetition's time is held: 10^9 of them would not fit */
	{ "-a -c 1000000000 --simulate",
	  "invalid --count '1000000000': at most 100000", 0 },
	{ "-s --count=100001 --simulate",
	  "invalid --count '100001': at most 100000", 0 },
	{ "-i -c 4294967295 --simulate", "invalid --count '4294967295'", 0 },
	{ "-O --open-au-nr=0 --simulate", "invalid --open-au-nr '0'", 0 },
	{ "-f --fat-nr=0 --simulate", "invalid --fat-nr '0'", 0 },
	{ "-O --offset=x --simulate", "invalid --offset 'x'", 0 },
	/* an -O offset off the AU grid: every write would straddle two AUs */
	{ "-O --offset=1M --simulate",
	  "invalid --offset '1M': not a multiple of the erase size (4MiB), so each write would straddle two AUs; nearest valid offsets: 0 and 4M",
	  0 },
	{ "-O -e 12M --offset=20M --simulate",
	  "not a multiple of the erase size (12MiB), so each write would straddle two AUs; nearest valid offsets: 12M and 24M",
	  0 },
	{ "-O --offset=8388609 --simulate", "nearest valid offsets: 8M and 12M",
	  0 },
	{ "-O -e 3M --offset=4294967296 --simulate",
	  "nearest valid offsets: 4095M and 4098M", 0 },
	{ "-O -e 1536K -b 512 --offset=1000 --simulate",
	  "nearest valid offsets: 0 and 1536K", 0 },
	/* arguments and options */
	{ "-a", "missing DEVICE", 0 },
	{ "-a /dev/one /dev/two", "'/dev/two'", 0 },
	{ "/dev/one -a /dev/two", "'/dev/two'", 0 },
	{ "-a --bogus --simulate", "'--bogus'", 0 },
	{ "-a --bogus=1 --simulate", "'--bogus'", 0 },
	{ "-a -Z --simulate", "'-Z'", 0 },
	{ "-a --simulate -b", "'-b'", 0 },
	{ "-a --simulate --blocksize", "'--blocksize'", 0 },
	/* getopt's refusals name the option at fault (issue 9 item 14) */
	{ "--simulate -Za", "unrecognized option '-Z'", 0 },
	{ "-a --simulate -vZ", "unrecognized option '-Z'", 0 },
	{ "--ver --simulate",
	  "option '--ver' is ambiguous; possibilities: '--verbose' '--version'",
	  0 },
	{ "--align=3 --simulate", "option '--align' doesn't allow an argument",
	  0 },
	{ "-a --simulate --count", "option '--count' requires an argument", 0 },
	{ "--simulate", "need at least one test", 0 },
	/* say what to run (issue 9 item 20) */
	{ "--simulate=size=64M",
	  "need at least one test: --auto finds the erase and page size by itself (read-only), -a is the classic align test",
	  0 },
	{ "-v -r -c 2 /dev/null", "need at least one test", 0 },
	{ "-a --simulate /dev/null", "--simulate", 0 },
	{ "/dev/null -a --simulate=size=64M", "'/dev/null'", 0 },
	/* issue 9 item 18 */
	{ "-a --simulate erase=8M",
	  "exclude each other; for a simulated card of that SPEC write --simulate=erase=8M",
	  0 },
	{ "-a --simulate=erase=4M,erase=8M",
	  "invalid --simulate 'erase=4M,erase=8M': erase given twice", 1 },
	{ "-a --simulate --plot -a",
	  "option '--plot' needs a file name, not '-a' (for a file of that name write ./-a)",
	  0 },
	{ "-a -o -q --simulate", "option '--out' needs a file name, not '-q'",
	  0 },
	{ "-a --simulate --plot=-",
	  "--plot=- draws on standard output, where the results go", 0 },
	{ "-a -b 512 --simulate",
	  "invalid --blocksize '512': --align needs at least 1024, twice the logical block size",
	  1 },
	{ "-O --offset=1T --simulate",
	  "--open-au with --offset=1T --open-au-nr=2", 1 },
	/* larger than the device */
	{ "-a -b 8M --simulate=size=64M", "invalid --blocksize '8M'", 1 },
	{ "-s -b 128M --simulate=size=64M", "invalid --blocksize '128M'", 1 },
	{ "-s --scatter-order=13 --simulate=size=64M", "--scatter-order=13",
	  1 },
	{ "-s --scatter-order=12 --scatter-span=4097 --simulate=size=64M",
	  "--scatter-span=4097", 1 },
	{ "-i --interval-order=20 --simulate=size=64M", "--interval-order=20",
	  1 },
	{ "-i -c 100 --interval-order=16 --simulate=size=64M", "--count=100",
	  1 },
	{ "-O --offset=1000 --simulate=size=64M", "invalid --offset '1000'", 1 },
};

#define N_BAD (sizeof(bad_cases) / sizeof(bad_cases[0]))

/* Each bad command line: status 2, one error line, no I/O, no results. */
START_TEST(test_bad_in_process)
{
	const struct bad_case *c = &bad_cases[_i];
	struct fb_run r;

	fb_run(c->args, &r);
	ck_assert_msg(r.status == 2, "'%s': status %d, stderr %s", c->args,
		      r.status, r.err);
	assert_one_error(c->args, r.err, c->want);
	ck_assert_msg(r.io_calls == 0, "'%s': %llu I/O calls", c->args,
		      (unsigned long long)r.io_calls);
	if (!c->needs_device)
		ck_assert_msg(r.opens == 0, "'%s': opened a device", c->args);
	ck_assert_str_eq(r.out, "");
	fb_free(&r);
}
END_TEST

/* The same refusals from the real binary, through its exit status. */
START_TEST(test_bad_binary)
{
	static const char *const picks[] = {
		"-a -b 1000 --simulate",
		"-a -b 99999999999999999999 --simulate",
		"-a -b 4Mb --simulate",
		"-a -c 1000000000 --simulate",
		"-O -e 5M --simulate",
		"-a",
		"--simulate",
		"-a --bogus --simulate",
		"-a -b 8M --simulate=size=64M",
	};
	const char *args = picks[_i];
	const struct bad_case *c = NULL;
	char *copy = strdup(args), *argv[MAX_ARGS + 1], *save = NULL, *tok;
	struct cmd_result res;
	size_t i;
	int argc = 0;

	for (i = 0; i < N_BAD; i++)
		if (strcmp(bad_cases[i].args, args) == 0)
			c = &bad_cases[i];
	ck_assert_ptr_nonnull(c);
	argv[argc++] = (char *)flashbench_bin();
	for (tok = strtok_r(copy, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	argv[argc] = NULL;
	ck_assert_int_eq(run_cmd(argv, &res), 0);
	ck_assert_msg(res.status == 2, "'%s': exit %d", args, res.status);
	assert_one_error(args, res.err, c->want);
	ck_assert_str_eq(res.out, "");
	cmd_result_free(&res);
	free(copy);
}
END_TEST

/* An -o FILE that cannot be created is refused before any I/O. */
START_TEST(test_out_bad_path)
{
	struct fb_run r;

	fb_run("-a -o /nonexistent/dir/file --simulate", &r);
	ck_assert_int_eq(r.status, 2);
	assert_one_error("-o /nonexistent/dir/file", r.err,
			 "--out '/nonexistent/dir/file'");
	ck_assert_uint_eq(r.io_calls, 0);
	fb_free(&r);
}
END_TEST

/* A logical block larger than the tests' accesses is refused up front. */
START_TEST(test_logical_block)
{
	static const struct bad_case cases[] = {
		{ "-a -b 4096 --simulate", "invalid --blocksize '4096'", 1 },
		{ "-s -b 2048 --simulate", "invalid --blocksize '2048'", 1 },
		{ "-O -b 2K --simulate", "invalid --blocksize '2K'", 1 },
		{ "-O --offset=16777728 --simulate",
		  "invalid --offset '16777728'", 1 },
	};
	const struct bad_case *c = &cases[_i];
	struct fb_run r;

	hook_lbs = 4096;
	flashbench_open_hook = lbs_hook;
	fb_run(c->args, &r);
	unhook();
	ck_assert_msg(r.status == 2, "'%s': status %d: %s", c->args, r.status,
		      r.err);
	assert_one_error(c->args, r.err, c->want);
	ck_assert_uint_eq(r.io_calls, 0);
	fb_free(&r);
}
END_TEST

/* Writing tests that would reach past the end are refused before I/O. */
START_TEST(test_bad_writes)
{
	static const struct bad_case cases[] = {
		{ "-O --open-au-nr=10 --simulate=size=64M", "--open-au-nr=10",
		  1 },
		{ "-O --offset=60M --simulate=size=64M", "--offset=60M", 1 },
		{ "-O -e 12M --open-au-nr=2 --simulate=size=64M",
		  "--erasesize=12M", 1 },
		{ "-f --fat-nr=17 --simulate=size=64M", "--fat-nr=17", 1 },
		{ "-a -f -e 8M --fat-nr=9 --simulate=size=64M", "--fat-nr=9",
		  1 },
		{ "-p --simulate=size=16M", "--program", 1 },
		/* the real footprint, AUs spaced apart (issue 9 item 16) */
		{ "-O --simulate=size=64M",
		  "writes 2 AUs spaced 12 AUs apart, up to byte 71303168, past the end",
		  1 },
		{ "-O --open-au-nr=3 -e 1M --offset=0 --simulate=size=16M",
		  "writes 3 AUs spaced 12 AUs apart, up to byte 26214400,", 1 },
		{ "-f --fat-nr=17 --simulate=size=64M",
		  "writes up to byte 71303168, past the end", 1 },
	};
	const struct bad_case *c = &cases[_i];
	struct fb_run r;

	fb_run(c->args, &r);
	ck_assert_msg(r.status == 2, "'%s': status %d: %s", c->args, r.status,
		      r.err);
	assert_one_error(c->args, r.err, c->want);
	ck_assert_uint_eq(r.io_calls, 0);
	ck_assert_str_eq(r.out, "");
	fb_free(&r);
}
END_TEST

/*
 * One rule for options a test does not use (issue 9 item 17): accepted,
 * ignored (the results are those of the run without them) and named
 * under -v; never silently for one test and refused for another.
 */
static const struct unused_case {
	const char *plain;	/* the run without the unused options */
	const char *extra;	/* the unused options */
	const char *notes;	/* what -v says about them, in order */
} unused_cases[] = {
	{ "-a -c 1 --simulate=size=64M", "--offset=1G",
	  "flashbench: --offset=1G ignored: only --open-au and --class use it\n" },
	{ "-a -c 1 --simulate=size=64M", "-e 16K -b 16K",
	  "flashbench: --erasesize=16K ignored: only --find-fat, --open-au and --class use it\n" },
	{ "-a -c 1 --simulate=size=64M", "-e 5M -r",
	  NULL },	/* 5M is no erase size: refused, used or not */
	{ "--auto -q --simulate=size=256M", "-e 8M -b 4K -c 2 -r",
	  "flashbench: --blocksize=4K ignored: only --scatter, --find-fat, --align and --open-au use it\n"
	  "flashbench: --erasesize=8M ignored: only --find-fat, --open-au and --class use it\n"
	  "flashbench: --count=2 ignored: only --scatter, --align and --interval use it\n"
	  "flashbench: --random ignored: only --find-fat and --open-au use it\n" },
	/* a classic line: -i reads its own sizes */
	{ "-i --interval-order=13 -c 2 --simulate", "-b 16384",
	  "flashbench: --blocksize=16384 ignored: only --scatter, --find-fat, --align and --open-au use it\n" },
	{ "-p --simulate=size=64M", "-c 3 --fat-nr=2",
	  "flashbench: --count=3 ignored: only --scatter, --align and --interval use it\n"
	  "flashbench: --fat-nr=2 ignored: only --find-fat uses it\n" },
};

START_TEST(test_unused_options)
{
	const struct unused_case *u = &unused_cases[_i];
	char args[256];
	struct fb_run plain, quiet, verbose;

	fb_run(u->plain, &plain);
	ck_assert_int_eq(plain.status, 0);
	snprintf(args, sizeof(args), "%s %s", u->plain, u->extra);
	fb_run(args, &quiet);
	if (!u->notes) {
		ck_assert_int_eq(quiet.status, 2);
		assert_one_error(args, quiet.err, "invalid --erasesize '5M'");
		goto out;
	}
	ck_assert_msg(quiet.status == 0, "%s: %d %s", args, quiet.status,
		      quiet.err);
	ck_assert_str_eq(quiet.out, plain.out);
	ck_assert_str_eq(quiet.err, plain.err);
	snprintf(args, sizeof(args), "%s %s -v", u->plain, u->extra);
	fb_run(args, &verbose);
	ck_assert_int_eq(verbose.status, 0);
	ck_assert_str_eq(verbose.out, plain.out);
	ck_assert_msg(strncmp(verbose.err, u->notes, strlen(u->notes)) == 0,
		      "%s: stderr %s", args, verbose.err);
	fb_free(&verbose);
out:
	fb_free(&plain);
	fb_free(&quiet);
}
END_TEST

/* Conflicting modes: exit 2, one message naming them, and no I/O. */
static const struct {
	const char *args;
	const char *says;
} conflicts[] = {
	{ "--auto -a --simulate", "--auto runs on its own" },
	{ "--auto -O --simulate", "--auto runs on its own" },
	{ "--analyze=tests/data/seed000.txt -a --simulate",
	  "--analyze runs on its own" },
	{ "--auto --analyze=tests/data/seed000.txt",
	  "--auto, --analyze and --restore exclude each other" },
	{ "--destructive -a --simulate", "--destructive needs --auto" },
	{ "--destructive --simulate", "--destructive needs --auto" },
	{ "--json -a -s --simulate", "--json takes one test at a time" },
	{ "--json -O -f --simulate", "--json takes one test at a time" },
	{ "--analyze=tests/data/seed000.txt /dev/null",
	  "DEVICE '/dev/null' is not used" },
	{ "--analyze=tests/data/seed000.txt --simulate",
	  "--analyze and --simulate exclude each other" },
	{ "--analyze=/nonexistent/table", "invalid --analyze '/nonexistent" },
	{ "--auto", "missing DEVICE" },
	{ "--auto /dev/a /dev/b", "only one DEVICE" },
	{ "--preserve -a --simulate", "--preserve needs a writing test" },
	{ "--journal=/tmp/j -i --simulate", "--journal needs a writing test" },
	{ "--preserve --auto --simulate", "--preserve needs a writing test" },
	{ "--restore=/tmp/j -a /dev/null", "--restore runs on its own" },
	{ "--restore=/tmp/j --auto /dev/null",
	  "--auto, --analyze and --restore exclude each other" },
	{ "--restore=/tmp/j", "missing DEVICE" },
	/* no plain-text line inside a --json run (issue 9 item 19) */
	{ "--restore=/tmp/j --json /dev/null",
	  "--json reports tests, not --restore" },
	/* bad --simulate specs */
	{ "-a --simulate=erase=4M,page=3K", "page=3K" },
	{ "-a --simulate=foo=1", "unknown key 'foo'" },
	{ "-a --simulate=erase=4M,page=8M", "--simulate 'erase=4M,page=8M'" },
	{ "-a --simulate=erase=5M", "erase=5M" },
	{ "-a --simulate=noise=-1", "noise" },
	{ "-a --simulate=open=4,open_random=9", "open_random" },
	{ "-a --simulate=size=", "size" },
	{ "-a --simulate=seed", "seed" },
	/* a DEVICE that is no device */
	{ "-a /tmp", "invalid DEVICE '/tmp': a directory" },
	{ "-a /dev/null", "invalid DEVICE '/dev/null': neither a block device" },
	{ "-O /dev/zero", "invalid DEVICE '/dev/zero'" },
};

START_TEST(test_conflicts)
{
	struct fb_run r;

	fb_run(conflicts[_i].args, &r);
	ck_assert_msg(r.status == 2, "%s: status %d", conflicts[_i].args,
		      r.status);
	ck_assert_msg(strstr(r.err, conflicts[_i].says), "%s: '%s'",
		      conflicts[_i].args, r.err);
	ck_assert_uint_eq(count_str(r.err, "flashbench: "), 1);
	ck_assert_uint_eq(r.io_calls, 0);
	ck_assert_uint_eq(r.opens, 0);
	ck_assert_str_eq(r.out, "");
	/* one line (and util-linux's naming --help, where getopt refused) */
	ck_assert_uint_eq(count_str(r.err, "\n") -
			  count_str(r.err, "Try 'flashbench --help'"), 1);
	fb_free(&r);
}
END_TEST

Suite *checks_suite(void)
{
	Suite *s = suite_create("checks");
	TCase *tc;

	tc = tcase_create("bad");
	tcase_add_loop_test(tc, test_bad_in_process, 0, N_BAD);
	tcase_add_loop_test(tc, test_bad_binary, 0, 9);
	tcase_add_loop_test(tc, test_logical_block, 0, 4);
	tcase_add_test(tc, test_out_bad_path);
	tcase_add_loop_test(tc, test_conflicts, 0,
			    sizeof(conflicts) / sizeof(conflicts[0]));
	suite_add_tcase(s, tc);

	tc = tcase_create("writes");
	tcase_add_loop_test(tc, test_bad_writes, 0, 9);
	tcase_add_loop_test(tc, test_unused_options, 0,
			    sizeof(unused_cases) / sizeof(unused_cases[0]));
	suite_add_tcase(s, tc);
	return s;
}
