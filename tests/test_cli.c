// SPDX-License-Identifier: GPL-2.0-only
/*
 * The front end: every bad command line is refused with one line naming
 * the option, exit status 2 and no I/O at all; good ones run the tests
 * asked for, in the classic order, with results where -o says.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "fault.h"
#include "flashbench.h"
#include "format.h"
#include "modes.h"
#include "util.h"

#define MAX_ARGS 32

/* The n-th line (from 0) of text, copied into buf; NULL if none. */
static const char *nth_line(const char *text, size_t n, char *buf,
			    size_t len)
{
	const char *end;

	while (n--) {
		text = strchr(text, '\n');
		if (!text)
			return NULL;
		text++;
	}
	if (!*text)
		return NULL;
	end = strchrnul(text, '\n');
	snprintf(buf, len, "%.*s", (int)(end - text), text);
	return buf;
}

/* Assert err is exactly one "flashbench: " line with want, nothing else. */
static void assert_one_error(const char *args, const char *err,
			     const char *want)
{
	const char *nl = strchr(err, '\n');

	ck_assert_msg(strncmp(err, "flashbench: ", 12) == 0,
		      "'%s': stderr does not start with 'flashbench: ': %s",
		      args, err);
	ck_assert_msg(nl && nl[1] == '\0',
		      "'%s': stderr is not exactly one line: %s", args, err);
	ck_assert_msg(strstr(err, want) && strstr(err, want) < nl,
		      "'%s': error line does not name '%s': %s", args, want,
		      err);
}

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

/* Counts lines of text that start with prefix. */
static size_t count_lines_with(const char *text, const char *prefix)
{
	size_t n = 0, len = strlen(prefix);
	const char *p = text;

	while (*p) {
		if (strncmp(p, prefix, len) == 0)
			n++;
		p = strchrnul(p, '\n');
		if (*p)
			p++;
	}
	return n;
}

static size_t count_lines(const char *text)
{
	return count_str(text, "\n");
}

/* -a: one row per alignment from align_max() down to 2 blocks. */
START_TEST(test_align_runs)
{
	uint64_t maxalign = align_max(8ULL << 30, 1024), a;
	size_t rows = 0, i = 0;
	char line[256], want[64];
	struct fb_run r;

	fb_run("-a -b 1024 --simulate", &r);
	ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
	ck_assert_str_eq(r.err, "");
	for (a = maxalign; a >= 2048; a >>= 1) {
		snprintf(want, sizeof(want), "align %llu\tpre ",
			 (unsigned long long)a);
		ck_assert_ptr_nonnull(nth_line(r.out, i++, line,
					       sizeof(line)));
		ck_assert_msg(strncmp(line, want, strlen(want)) == 0,
			      "line %zu: %s", i, line);
		ck_assert_ptr_nonnull(strstr(line, "\tdiff "));
		rows++;
	}
	ck_assert_uint_eq(count_lines(r.out), rows);
	/* 7 positions, 3 reads each, --count (8) times */
	ck_assert_uint_eq(r.io_calls, rows * 7 * 3 * 8);
	ck_assert_uint_eq(r.opens, 1);
	fb_free(&r);
}
END_TEST

/* -s: 2^order lines "%f\t%f" in offset order, count rounds. */
START_TEST(test_scatter_runs)
{
	struct fb_run r;
	char line[256];
	size_t i;

	fb_run("-s --scatter-order=6 -c 3 --simulate", &r);
	ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
	ck_assert_uint_eq(count_lines(r.out), 64);
	for (i = 0; i < 64; i++) {
		double mib, ms;

		ck_assert_ptr_nonnull(nth_line(r.out, i, line, sizeof(line)));
		ck_assert_int_eq(sscanf(line, "%lf\t%lf", &mib, &ms), 2);
		/* offsets are blocks of the default 16 KiB */
		ck_assert_double_eq_tol(mib, i * 16384 / 1048576.0, 1e-6);
		ck_assert(ms > 0);
	}
	ck_assert_uint_eq(r.io_calls, 64 * 3);
	fb_free(&r);
}
END_TEST

/* -i: one line per size, the regression line, one overhead per size. */
START_TEST(test_interval_runs)
{
	struct fb_run r;
	char line[256], want[64];
	size_t k;

	fb_run("-i --interval-order=8 --simulate", &r);
	ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
	ck_assert_uint_eq(count_lines(r.out), 8 + 1 + 8);
	for (k = 0; k < 8; k++) {
		snprintf(want, sizeof(want), "%llu bytes: min ",
			 512ULL << k);
		nth_line(r.out, k, line, sizeof(line));
		ck_assert_msg(strncmp(line, want, strlen(want)) == 0,
			      "line %zu: %s", k, line);
		snprintf(want, sizeof(want), "bytes %llu, time ", 512ULL << k);
		nth_line(r.out, 9 + k, line, sizeof(line));
		ck_assert_msg(strncmp(line, want, strlen(want)) == 0,
			      "line %zu: %s", 9 + k, line);
	}
	nth_line(r.out, 8, line, sizeof(line));
	ck_assert_ptr_nonnull(strstr(line, " MB/s, "));
	ck_assert_ptr_nonnull(strstr(line, " access time"));
	ck_assert_uint_eq(r.io_calls, 8 * 8);
	fb_free(&r);
}
END_TEST

/* Several tests given in any order run as -s, -a, -i. */
START_TEST(test_classic_order)
{
	struct fb_run r;
	char line[256];
	size_t i, n;

	fb_run("-i --interval-order=6 --simulate -a -b 1M -s --scatter-order=3 -c 1",
	       &r);
	ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
	n = count_lines(r.out);
	/* 8 scatter lines, align rows 1GiB..2MiB (10), 6 + 1 + 6 interval */
	ck_assert_uint_eq(n, 8 + 10 + 13);
	for (i = 0; i < n; i++) {
		double a, b;

		nth_line(r.out, i, line, sizeof(line));
		if (i < 8)
			ck_assert_msg(sscanf(line, "%lf\t%lf", &a, &b) == 2 &&
				      !strchr(line, ' '),
				      "line %zu not scatter: %s", i, line);
		else if (i < 18)
			ck_assert_msg(strncmp(line, "align ", 6) == 0,
				      "line %zu not align: %s", i, line);
		else
			ck_assert_msg(strstr(line, "bytes") ||
				      strstr(line, "MB/s"),
				      "line %zu not interval: %s", i, line);
	}
	ck_assert_uint_eq(count_lines_with(r.out, "align "), 10);
	fb_free(&r);
}
END_TEST

/* Every way of writing 4 MiB means 4 MiB: align's last row is 2 blocks. */
START_TEST(test_size_suffixes)
{
	static const char *const spellings[] = {
		"4M", "4MiB", "4miB", "4m", "4MB", "0x400000", "04194304",
		"4096K", "4096kiB", "4194304B",
	};
	char args[128], last[256];
	struct fb_run r;

	snprintf(args, sizeof(args), "-a -c 1 --simulate -b %s", spellings[_i]);
	fb_run(args, &r);
	ck_assert_msg(r.status == 0, "'%s': status %d: %s", args, r.status,
		      r.err);
	/* 7 * 1GiB + 4MiB fits 8GiB: rows 1GiB .. 8MiB */
	ck_assert_uint_eq(count_lines(r.out), 8);
	nth_line(r.out, 7, last, sizeof(last));
	ck_assert_msg(strncmp(last, "align 8388608\t", 14) == 0, "'%s': %s",
		      args, last);
	fb_free(&r);
}
END_TEST

/* Long options in every spelling, before and after the device. */
START_TEST(test_option_spellings)
{
	struct fb_run a, b;

	fb_run("-s --scatter-order=4 --scatter-span=2 -c 2 -b 8K --simulate",
	       &a);
	fb_run("--simulate --scatter --scatter-order 4 --scatter-span 2 --count=2 --blocksize 8192",
	       &b);
	ck_assert_int_eq(a.status, 0);
	ck_assert_int_eq(b.status, 0);
	ck_assert_uint_eq(count_lines(a.out), 16);
	ck_assert_str_eq(a.out, b.out);
	ck_assert_uint_eq(a.io_calls, 16 * 2);
	fb_free(&a);
	fb_free(&b);
}
END_TEST

/* -v says more on stderr and changes nothing in the results. */
START_TEST(test_verbose_to_err)
{
	struct fb_run q, v;

	fb_run("-s --scatter-order=5 --simulate", &q);
	fb_run("-v -v -s --scatter-order=5 --simulate --verbose", &v);
	ck_assert_int_eq(q.status, 0);
	ck_assert_int_eq(v.status, 0);
	ck_assert_str_eq(q.err, "");
	ck_assert_str_ne(v.err, "");
	ck_assert_ptr_nonnull(strstr(v.err, "simulated card"));
	ck_assert_str_eq(q.out, v.out);
	fb_free(&q);
	fb_free(&v);
}
END_TEST

/* Nonzero if every line of text starts with "flashbench: ". */
static int all_prefixed(const char *text)
{
	const char *p = text;

	while (*p) {
		if (strncmp(p, "flashbench: ", 12))
			return 0;
		p = strchrnul(p, '\n');
		if (*p)
			p++;
	}
	return 1;
}

/*
 * -v and -vv (issue 9 item 20): every line on stderr starts with
 * "flashbench: " as the man page says, --auto's step lines too; -vv adds
 * the program each writing test runs, which -v leaves out.
 */
START_TEST(test_verbose_levels)
{
	static const char *const runs[] = {
		"-O -q --simulate=size=128M",
		"--auto --destructive -q --simulate=size=1G",
		"-a -c 1 --offset=1G --simulate=size=64M",
	};
	char args[128];
	struct fb_run v, vv;

	snprintf(args, sizeof(args), "%s -v", runs[_i]);
	fb_run(args, &v);
	snprintf(args, sizeof(args), "%s -vv", runs[_i]);
	fb_run(args, &vv);
	ck_assert_int_eq(v.status, 0);
	ck_assert_int_eq(vv.status, 0);
	ck_assert_msg(all_prefixed(v.err), "-v: %s", v.err);
	ck_assert_msg(all_prefixed(vv.err), "-vv: %s", vv.err);
	ck_assert_str_eq(v.out, vv.out);
	ck_assert_ptr_null(strstr(v.err, "flashbench: vm: "));
	if (_i == 0)
		ck_assert_ptr_nonnull(strstr(vv.err, "flashbench: vm: len_pow2_down min=16384 max=4194304\n"));
	if (_i == 1)
		ck_assert_ptr_nonnull(strstr(v.err, "flashbench: auto: align test, block size 1KiB\n"));
	fb_free(&v);
	fb_free(&vv);
}
END_TEST

/*
 * The "will overwrite" lines (item 20): sorted, adjacent and overlapping
 * ranges merged, then the total and, once per phase, that END is
 * exclusive.  --auto --destructive -v announces three phases range by
 * range: its write steps, the capacity check, then --class; -C alone
 * (over 128 ranges) compactly: their number and total, then runs of
 * equal blocks.
 */
/*
 * A compact announcement at p: its line of number and total, then the
 * lines of its runs, which must add up to both.  Its last line, or NULL
 * when there is none.
 */
static const char *compact_phase(const char *p)
{
	static const char foot[] = "flashbench: each END is the first byte left alone; -v lists every range\n";
	uint64_t total = 0, a, b, c, d;
	size_t n = 0, want, k;
	char sz[FMT_LEN], tot[FMT_LEN], every[FMT_LEN];

	if (sscanf(p, "flashbench: will overwrite %zu ranges on simulated card, %15s in all",
		   &want, tot) != 2)
		return NULL;
	ck_assert_uint_gt(want, 128);
	for (p = strchr(p, '\n') + 1; !strncmp(p, "flashbench:   ", 14);
	     p = strchr(p, '\n') + 1) {
		if (sscanf(p, "flashbench:   bytes %" SCNu64 "-%" SCNu64,
			   &a, &b) == 2) {
			total += b - a;
			n++;
			continue;
		}
		ck_assert_int_eq(sscanf(p, "flashbench:   %zu blocks of %15s one every %15s from bytes %" SCNu64 "-%" SCNu64 " to bytes %" SCNu64 "-%" SCNu64,
					&k, sz, every, &a, &b, &c, &d), 7);
		ck_assert_uint_eq(d - c, b - a);
		ck_assert_uint_eq((c - a) % (k - 1), 0);
		total += k * (b - a);
		n += k;
	}
	ck_assert_uint_eq(n, want);
	fmt_size(sz, total);
	ck_assert_str_eq(sz, tot);
	ck_assert(!strncmp(p, foot, sizeof(foot) - 1));
	return p;
}

START_TEST(test_announce_merged)
{
	static const char *const runs[] = {
		"--auto --destructive -q -v --simulate=size=1G",
		"-O -f -q --simulate=size=128M",
	};
	static const char line[] = "flashbench: will overwrite bytes ";
	uint64_t start, end, last_end = 0, total = 0;
	const char *p, *q;
	char want[160], sz[FMT_LEN];
	size_t n = 0, phases = 0;
	struct fb_run r;

	fb_run(runs[_i], &r);
	ck_assert_int_eq(r.status, 0);
	for (p = r.err; *p; p = strchr(p, '\n') + 1) {
		ck_assert_ptr_nonnull(strchr(p, '\n'));
		q = compact_phase(p);
		if (q) {
			phases++;
			p = q;
			continue;
		}
		if (!strncmp(p, line, sizeof(line) - 1)) {
			ck_assert_int_eq(sscanf(p + sizeof(line) - 1,
						"%" SCNu64 "-%" SCNu64, &start,
						&end), 2);
			ck_assert_uint_lt(start, end);
			/* a gap between any two: else they'd be one line */
			ck_assert(!n || start > last_end);
			last_end = end;
			total += end - start;
			n++;
			continue;
		}
		q = strstr(p, " in all, in ");
		if (!q || q > strchr(p, '\n'))
			continue;	/* -v's other lines */
		fmt_size(sz, total);
		snprintf(want, sizeof(want),
			 "flashbench: %s in all, in %zu range%s; each END is the first byte left alone\n",
			 sz, n, n == 1 ? "" : "s");
		ck_assert(!strncmp(p, want, strlen(want)));
		/* -f writes 0-24M, -O 16-20M and 64-68M: two, not three */
		if (_i == 1)
			ck_assert_uint_eq(n, 2);
		phases++;
		n = 0;
		total = 0;
	}
	ck_assert_uint_eq(phases, _i ? 1 : 3);
	ck_assert_uint_eq(count_str(r.err, "END"), phases);
	fb_free(&r);
}
END_TEST

/*
 * The phases of a "-v" announcement in err: for each, the number of
 * ranges, their total and span, into n[], total[], lo[], hi[] (at most
 * max); returns how many phases.
 */
static size_t listed_phases(const char *err, size_t *n, uint64_t *total,
			    uint64_t *lo, uint64_t *hi, size_t max)
{
	static const char line[] = "flashbench: will overwrite bytes ";
	size_t k = 0, i = 0;
	uint64_t a, b;
	const char *p;

	for (p = err; *p && k < max; p = strchr(p, '\n') + 1) {
		if (!strncmp(p, line, sizeof(line) - 1)) {
			ck_assert_int_eq(sscanf(p + sizeof(line) - 1,
						"%" SCNu64 "-%" SCNu64, &a, &b),
					 2);
			if (!i)
				lo[k] = a;
			hi[k] = b;
			total[k] = i ? total[k] + (b - a) : b - a;
			i++;
		} else if (i && strstr(p, " in all, in ")) {
			n[k++] = i;
			i = 0;
		}
	}
	return k;
}

/*
 * --auto --destructive announces each write step in one line: the
 * number of ranges, their total and span, as -v then lists them (issue
 * 20 item 2: 127 lines for the erase search alone).  Without a read
 * signature the erase size comes from writes: four steps.
 */
START_TEST(test_announce_auto_steps)
{
	size_t n[8], k, i, got_n;
	uint64_t total[8], lo[8], hi[8], a, b;
	char sz[FMT_LEN], tot[FMT_LEN];
	struct fb_run r, v;
	const char *p;

	fb_run("--auto --destructive --simulate=readsig=0", &r);
	fb_run("--auto --destructive -v --simulate=readsig=0", &v);
	ck_assert_int_eq(r.status, 0);
	ck_assert_int_eq(v.status, 0);
	k = listed_phases(v.err, n, total, lo, hi, 8);
	ck_assert_uint_eq(k, 4);
	ck_assert_uint_gt(n[0], 100);	/* the erase search */
	/* one line per step, nothing else */
	ck_assert_uint_eq(count_str(r.err, "\n"), k);
	for (p = r.err, i = 0; i < k; i++, p = strchr(p, '\n') + 1) {
		fmt_size(sz, total[i]);
		if (n[i] == 1) {
			ck_assert_int_eq(sscanf(p, "flashbench: will overwrite bytes %" SCNu64 "-%" SCNu64 " on simulated card, %15s",
						&a, &b, tot), 3);
			got_n = 1;
		} else {
			ck_assert_int_eq(sscanf(p, "flashbench: will overwrite %zu ranges on simulated card, %15s in all, within bytes %" SCNu64 "-%" SCNu64,
						&got_n, tot, &a, &b), 4);
			ck_assert_ptr_nonnull(strstr(p, "-v lists them\n"));
		}
		if (n[i] == 1)
			tot[strcspn(tot, " ")] = '\0';
		ck_assert_uint_eq(got_n, n[i]);
		ck_assert_str_eq(tot, sz);
		ck_assert_uint_eq(a, lo[i]);
		ck_assert_uint_eq(b, hi[i]);
	}
	fb_free(&r);
	fb_free(&v);
}
END_TEST

/*
 * --auto's verdict says in words why it is sure; the statistics (t,
 * misfits, spike chance) are -v detail on stderr (item 20).
 */
START_TEST(test_auto_plain_words)
{
	struct fb_run r, v;

	fb_run("--auto -q --simulate=size=1G", &r);
	fb_run("--auto -q -v --simulate=size=1G", &v);
	ck_assert_int_eq(r.status, 0);
	ck_assert_str_eq(r.out, v.out);
	ck_assert_ptr_null(strstr(r.out, "misfits"));
	ck_assert_ptr_null(strstr(r.out, "spike chance"));
	ck_assert_ptr_null(strstr(r.out, ", t "));
	ck_assert_ptr_nonnull(strstr(r.out, "  erase: reads across a 4MiB boundary cost "));
	ck_assert_ptr_nonnull(strstr(r.out, " times the noise, all "));
	ck_assert_str_eq(r.err, "");
	ck_assert_ptr_nonnull(strstr(v.err, "flashbench: erase: step at 4MiB: "));
	ck_assert_ptr_nonnull(strstr(v.err, "spike chance"));
	fb_free(&r);
	fb_free(&v);
}
END_TEST

/* The long options the help must mention. */
static const char *const long_names[] = {
	"--align", "--scatter", "--scatter-order", "--scatter-span",
	"--interval", "--interval-order", "--open-au", "--open-au-nr",
	"--offset", "--random", "--find-fat", "--findfat", "--fat-nr",
	"--program", "--count", "--blocksize", "--erasesize", "--out",
	"--verbose", "--simulate", "--help", "--version",
};

START_TEST(test_help)
{
	const char *help, *ver;
	struct fb_run r, s;
	size_t i;

	fb_run("--help", &r);
	fb_run("-a -h /dev/whatever", &s);
	ck_assert_int_eq(r.status, 0);
	ck_assert_str_eq(r.err, "");
	ck_assert_uint_eq(r.opens, 0);
	ck_assert_ptr_nonnull(strstr(r.out, "Usage:\n flashbench "));
	for (i = 0; i < sizeof(long_names) / sizeof(long_names[0]); i++)
		ck_assert_msg(strstr(r.out, long_names[i]), "help lacks %s",
			      long_names[i]);
	ck_assert_ptr_nonnull(strstr(r.out, " -b, --blocksize <size> "));
	/* --help and --version come last among the options */
	help = strstr(r.out, " -h, --help ");
	ver = strstr(r.out, " -V, --version ");
	ck_assert_ptr_nonnull(help);
	ck_assert_ptr_nonnull(ver);
	ck_assert(ver > help);
	for (i = 0; i < sizeof(long_names) / sizeof(long_names[0]) - 2; i++)
		ck_assert_msg(strstr(r.out, long_names[i]) < help,
			      "%s after --help", long_names[i]);
	ck_assert_int_eq(s.status, 0);
	ck_assert_str_eq(s.out, r.out);
	fb_free(&r);
	fb_free(&s);
}
END_TEST

START_TEST(test_version)
{
	static const char *const spellings[] = { "--version", "-V" };
	struct fb_run r;
	size_t i;

	/* -V as erase has it (issue 9 item 14) */
	for (i = 0; i < 2; i++) {
		fb_run(spellings[i], &r);
		ck_assert_int_eq(r.status, 0);
		ck_assert_str_eq(r.out, "flashbench " FLASHBENCH_VERSION "\n");
		ck_assert_str_eq(r.err, "");
		fb_free(&r);
	}
}
END_TEST

/* -o FILE gets the results, stdout nothing; "-o -" means stdout. */
START_TEST(test_out_file)
{
	char path[] = "/tmp/fb_cli_outXXXXXX", args[128], *text;
	struct fb_run r, s;
	size_t len;
	FILE *f;
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	close(fd);
	snprintf(args, sizeof(args), "-s --scatter-order=5 -o %s --simulate",
		 path);
	fb_run(args, &r);
	fb_run("-s --scatter-order=5 --out=- --simulate", &s);
	ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
	ck_assert_str_eq(r.out, "");
	ck_assert_str_eq(r.err, "");
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	text = calloc(1, 65536);
	len = fread(text, 1, 65535, f);
	fclose(f);
	unlink(path);
	ck_assert_uint_gt(len, 0);
	ck_assert_int_eq(s.status, 0);
	ck_assert_uint_eq(count_lines(s.out), 32);
	ck_assert_str_eq(text, s.out);
	free(text);
	fb_free(&r);
	fb_free(&s);
}
END_TEST

/* A results stream that cannot be written is an error at the end. */
START_TEST(test_out_full)
{
	struct fb_run r;

	fb_run("-s --scatter-order=10 -o /dev/full --simulate", &r);
	ck_assert_int_eq(r.status, 1);
	ck_assert_ptr_nonnull(strstr(r.err, "flashbench: write error on /dev/full: "));
	ck_assert_uint_eq(count_lines(r.err), 1);
	fb_free(&r);
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

/*
 * A device that fails: the simulated card behind the fault injector,
 * with the fault planned in fb_fault_plan (one I/O error, or a full device).
 */
static unsigned int hook_lbs;

static struct device *lbs_hook(struct device *dev)
{
	dev->logical_block_size = hook_lbs;
	return dev;
}

static void unhook(void)
{
	flashbench_open_hook = NULL;
}

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
	ck_assert_uint_eq(count_lines(r.err), 1);
	snprintf(want, sizeof(want),
		 "flashbench: read of 16384 bytes at offset %llu on simulated card failed: %s\n",
		 (512ULL << 20) - 16384, strerror(EIO));
	ck_assert_str_eq(r.err, want);
	/* what was measured before the failure is still there */
	ck_assert_uint_eq(count_lines(r.out), 8 + 1);
	ck_assert_uint_eq(count_lines_with(r.out, "align 1073741824\t"), 1);
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

/* With 4 KiB logical blocks, -a -b 8K still runs. */
START_TEST(test_logical_block_ok)
{
	struct fb_run r;

	hook_lbs = 4096;
	flashbench_open_hook = lbs_hook;
	fb_run("-a -b 8K -c 1 --simulate", &r);
	unhook();
	ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
	ck_assert_uint_gt(count_lines_with(r.out, "align "), 0);
	fb_free(&r);
}
END_TEST

/*
 * -i on a device that cannot read 512 bytes starts at its logical block
 * (issue 9 item 9); only an order whose largest read is smaller than one
 * block is refused.
 */
START_TEST(test_logical_block_interval)
{
	struct fb_run r;

	hook_lbs = 4096;
	flashbench_open_hook = lbs_hook;
	fb_run("-i --interval-order=8 -c 1 --simulate", &r);
	unhook();
	ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
	ck_assert(!strncmp(r.out, "4096 bytes: min ", 16));
	/* 4K .. 64K: five sizes, the regression, five overheads */
	ck_assert_uint_eq(count_lines(r.out), 5 + 1 + 5);
	ck_assert_uint_eq(count_lines_with(r.out, "bytes 4096, "), 1);
	ck_assert_uint_eq(count_lines_with(r.out, "65536 bytes: "), 1);
	fb_free(&r);
	hook_lbs = 16384;
	flashbench_open_hook = lbs_hook;
	fb_run("-i --interval-order=5 --simulate", &r);
	unhook();
	ck_assert_int_eq(r.status, 2);
	assert_one_error("-i --interval-order=5", r.err,
			 "invalid --interval-order '5'");
	ck_assert_uint_eq(r.io_calls, 0);
	fb_free(&r);
}
END_TEST

/* flashbench_main can run many times: same arguments, same results. */
START_TEST(test_reentrant)
{
	struct fb_run a, bad, b;

	fb_run("-s --scatter-order=4 --simulate", &a);
	fb_run("-s --scatter-order=99 --simulate", &bad);
	fb_run("-s --scatter-order=4 --simulate", &b);
	ck_assert_int_eq(a.status, 0);
	ck_assert_int_eq(bad.status, 2);
	ck_assert_int_eq(b.status, 0);
	ck_assert_str_eq(a.out, b.out);
	ck_assert_uint_eq(a.io_calls, b.io_calls);
	fb_free(&a);
	fb_free(&bad);
	fb_free(&b);
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

/* The "will overwrite" lines of every range the modes' rows give. */
static char *expected_warnings(unsigned int tests, const struct bench_opts *o,
			       uint64_t size)
{
	static const enum bench_test order[] = {
		BENCH_FIND_FAT, BENCH_OPEN_AU, BENCH_PROGRAM,
	};
	struct bench_range r[64];
	char *text = NULL, sz[FMT_LEN];
	size_t len = 0, i, lines = 0;
	FILE *f = open_memstream(&text, &len);
	uint64_t total = 0;
	int n, j;

	/* tests whose ranges neither touch nor overlap: one line each */
	ck_assert_ptr_nonnull(f);
	for (i = 0; i < 3; i++) {
		if (!(tests & order[i]))
			continue;
		n = mode_of(order[i])->write_ranges(order[i], o, size, r, 64);
		ck_assert_int_gt(n, 0);
		for (j = 0; j < n; j++) {
			fprintf(f, "flashbench: will overwrite bytes %llu-%llu on simulated card\n",
				(unsigned long long)r[j].start_byte,
				(unsigned long long)r[j].end_byte);
			total += r[j].end_byte - r[j].start_byte;
			lines++;
		}
	}
	fprintf(f, "flashbench: %s in all, in %zu range%s; each END is the first byte left alone\n",
		fmt_size(sz, total), lines, lines == 1 ? "" : "s");
	fclose(f);
	return text;
}

/* -O: the ranges announced on stderr, one table line per size. */
START_TEST(test_open_au_runs)
{
	static const char *const sizes[] = {
		"4MiB ", "2MiB ", "1MiB ", "512KiB ", "256KiB ",
	};
	struct bench_opts o;
	struct fb_run r;
	char line[256], *want;
	size_t i;

	bench_opts_default(&o);
	o.blocksize_byte = 256 << 10;
	o.open_au_nr = 3;
	o.offset_byte = 16 << 20;	/* the default for 4 MiB AUs */
	want = expected_warnings(BENCH_OPEN_AU, &o, 256 << 20);
	ck_assert_uint_eq(count_lines(want), 3 + 1);
	fb_run("-O -b 256K --open-au-nr=3 --simulate=size=256M", &r);
	ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
	ck_assert_str_eq(r.err, want);
	ck_assert_uint_eq(count_lines(r.out), 5);
	for (i = 0; i < 5; i++) {
		nth_line(r.out, i, line, sizeof(line));
		ck_assert_msg(strncmp(line, sizes[i], strlen(sizes[i])) == 0,
			      "line %zu: %s", i, line);
		ck_assert_ptr_nonnull(strstr(line, "/s "));
	}
	ck_assert_uint_gt(r.io_calls, 0);
	free(want);
	fb_free(&r);
}
END_TEST

/* The default --offset is 16 MiB rounded up to the erase size. */
START_TEST(test_default_offset)
{
	struct bench_opts o;
	struct fb_run r;
	char *want;

	bench_opts_default(&o);
	o.erasesize_byte = 12 << 20;
	o.open_au_nr = 1;
	o.offset_byte = 24 << 20;
	want = expected_warnings(BENCH_OPEN_AU, &o, 8ULL << 30);
	ck_assert_ptr_nonnull(strstr(want, " bytes 25165824-"));
	fb_run("-O -e 12M --open-au-nr=1 -b 1M --simulate", &r);
	/* -b differs from o, but not the range an AU covers */
	ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
	ck_assert_str_eq(r.err, want);
	free(want);
	fb_free(&r);
}
END_TEST

/*
 * All six tests at once run as -s -f -a -O -i -p, the warnings for every
 * write come first, and a failing write stops the run after the results
 * of the tests before it.
 */
START_TEST(test_all_tests_order)
{
	struct fb_run r;
	char line[256];
	size_t i, n;

	fb_run("-p -i --interval-order=5 -O -a -f -s --scatter-order=2 -e 1M -b 256K --fat-nr=2 -c 1 --simulate=size=64M",
	       &r);
	ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
	/* -f 0-2M; -O 16-17M inside -p's 16-20M, merged; -O 28-29M */
	ck_assert_uint_eq(count_lines_with(r.err, "flashbench: will overwrite bytes "),
			  count_lines(r.err) - 1);
	ck_assert_uint_eq(count_lines_with(r.err, "flashbench: 7MiB in all, in 3 ranges; "),
			  1);
	n = count_lines(r.out);
	/* scatter 4, find-fat 3, align 5 (8M..512K), open-au 3,
	 * interval 5 + 1 + 5, program 13 */
	ck_assert_uint_eq(n, 4 + 3 + 5 + 3 + 11 + 13);
	for (i = 0; i < n; i++) {
		nth_line(r.out, i, line, sizeof(line));
		if (i < 4)
			ck_assert_msg(!strchr(line, ' '), "%zu: %s", i, line);
		else if (i < 7)
			ck_assert_msg(count_str(line, "/s ") == 2, "%zu: %s",
				      i, line);
		else if (i < 12)
			ck_assert_msg(!strncmp(line, "align ", 6), "%zu: %s",
				      i, line);
		else if (i < 15)
			ck_assert_msg(count_str(line, "/s ") == 1, "%zu: %s",
				      i, line);
		else if (i < 26)
			ck_assert_msg(strstr(line, "bytes") ||
				      strstr(line, "MB/s"), "%zu: %s", i,
				      line);
		else
			ck_assert_msg(count_str(line, "/s ") == 8, "%zu: %s",
				      i, line);
	}
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
	ck_assert_uint_eq(count_lines(r.err), 3);
	ck_assert_ptr_nonnull(strstr(r.err, "flashbench: will overwrite bytes 0-4194304 on simulated card\n"));
	last = strchr(strchr(r.err, '\n') + 1, '\n') + 1;
	/* -f starts with the whole first AU in one write */
	snprintf(want, sizeof(want),
		 "flashbench: write of 4194304 bytes at offset 0 on simulated card failed: %s\n",
		 strerror(ENOSPC));
	ck_assert_str_eq(last, want);
	/* scatter's results were printed before the failure */
	ck_assert_uint_eq(count_lines(r.out), 4);
	fb_free(&r);
}
END_TEST

/* Run the real binary with argv[1..] = args (NULL-terminated). */
static void bin_run(const char *const *args, struct cmd_result *res)
{
	char *argv[MAX_ARGS + 1];
	int argc = 0;

	argv[argc++] = (char *)flashbench_bin();
	while (*args && argc < MAX_ARGS)
		argv[argc++] = (char *)*args++;
	argv[argc] = NULL;
	ck_assert_int_eq(run_cmd(argv, res), 0);
}

/* A sparse 64 MiB regular file as DEVICE; path is filled in. */
static void make_file_dev(char *path)
{
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, 64 << 20), 0);
	close(fd);
}

/* A regular file as DEVICE, with options before and after it. */
START_TEST(test_file_device)
{
	char path[] = "/tmp/fb_cli_devXXXXXX";
	struct cmd_result a, b;
	size_t rows = 0;
	uint64_t x;

	make_file_dev(path);
	{
		const char *args[] = { "-a", "-b", "4096", "-c", "1", path,
				       NULL };
		const char *perm[] = { path, "-a", "-c", "1", "--blocksize",
				       "4K", NULL };

		bin_run(args, &a);
		bin_run(perm, &b);
	}
	unlink(path);
	ck_assert_msg(a.status == 0, "exit %d: %s", a.status, a.err);
	ck_assert_msg(b.status == 0, "exit %d: %s", b.status, b.err);
	/* 7 * 8MiB + 4KiB fits 64MiB: rows 8MiB .. 8KiB */
	for (x = 8 << 20; x >= 8192; x >>= 1)
		rows++;
	ck_assert_uint_eq(count_lines_with(a.out, "align "), rows);
	ck_assert_uint_eq(count_lines(a.out), rows);
	ck_assert_uint_eq(count_lines_with(b.out, "align "), rows);
	ck_assert_ptr_nonnull(strstr(a.out, "align 8388608\tpre "));
	ck_assert_str_eq(a.err, "");
	cmd_result_free(&a);
	cmd_result_free(&b);
}
END_TEST

/* Sizes past a real file's end are refused before anything is read. */
START_TEST(test_file_device_too_small)
{
	char path[] = "/tmp/fb_cli_devXXXXXX";
	struct cmd_result r;

	make_file_dev(path);
	{
		const char *args[] = { "-s", "--scatter-order=13", path,
				       NULL };

		bin_run(args, &r);
	}
	unlink(path);
	ck_assert_int_eq(r.status, 2);
	assert_one_error("-s --scatter-order=13 FILE", r.err,
			 "--scatter-order=13");
	ck_assert_str_eq(r.out, "");
	cmd_result_free(&r);
}
END_TEST

/* A regular file of size bytes as DEVICE; path is filled in. */
static void make_sized_file(char *path, off_t size)
{
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, size), 0);
	close(fd);
}

/* Tiny files: what is refused, and what the one line must and must not say. */
static const struct tiny_case {
	const char *args;	/* before FILE */
	off_t size;
	const char *want, *want2, *not;
} tiny_cases[] = {
	{ "--auto", 0, "is empty", NULL, "blocksize" },
	{ "--auto", 1000, "(1000 bytes)", "--auto needs", "blocksize" },
	{ "--auto", 4096, "(4096 bytes)", "--auto needs", "blocksize" },
	{ "--auto --json", 4096, "(4096 bytes)", "--auto needs", "blocksize" },
	{ "--auto", 44031, "(44031 bytes)", "43KiB", "blocksize" },
	{ "-a", 0, "is empty", NULL, "blocksize" },
	{ "-i", 0, "is empty", NULL, "interval" },
	{ "-a", 1000, "(1000 bytes)", "default --blocksize", "'16384'" },
	{ "-a -b 4K", 1000, "invalid --blocksize '4K'", "(1000 bytes)", NULL },
	{ "-s --scatter-order=4 -b 512", 1000, "(1000 bytes)", NULL, NULL },
};

/*
 * --auto and the classic tests on files too small for them: exit 2, one
 * line with the file's real size, no verdict, no I/O; an empty file is
 * called empty, and a --blocksize never given is not blamed.
 */
START_TEST(test_file_device_tiny)
{
	const struct tiny_case *c = &tiny_cases[_i];
	char path[] = "/tmp/fb_cli_tinyXXXXXX", args[128];
	struct fb_run r;

	make_sized_file(path, c->size);
	snprintf(args, sizeof(args), "%s %s", c->args, path);
	fb_run(args, &r);
	unlink(path);
	ck_assert_msg(r.status == 2, "'%s' (%lld bytes): status %d: %s",
		      c->args, (long long)c->size, r.status, r.err);
	assert_one_error(c->args, r.err, c->want);
	if (c->want2)
		assert_one_error(c->args, r.err, c->want2);
	ck_assert_msg(!c->not || !strstr(r.err, c->not),
		      "'%s': '%s' in: %s", c->args, c->not, r.err);
	ck_assert_str_eq(r.out, "");
	ck_assert_uint_eq(r.io_calls, 0);
	fb_free(&r);
}
END_TEST

/* The smallest file --auto surveys (43 KiB) runs to a verdict. */
START_TEST(test_file_device_auto_smallest)
{
	char path[] = "/tmp/fb_cli_tinyXXXXXX", args[64];
	struct fb_run r;

	make_sized_file(path, 44032);
	snprintf(args, sizeof(args), "--auto %s", path);
	fb_run(args, &r);
	unlink(path);
	ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
	ck_assert_ptr_nonnull(strstr(r.out, "erase size: "));
	ck_assert_uint_gt(r.io_calls, 0);
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
	ck_assert_uint_eq(count_lines(r.err), 1);
	ck_assert_ptr_nonnull(strstr(r.err, "flashbench: "));
	ck_assert_ptr_nonnull(strstr(r.err, "/nonexistent/flashbench-dev"));
	ck_assert_str_eq(r.out, "");
	cmd_result_free(&r);
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
	ck_assert_uint_eq(count_str(r.err, "\n"), 1);	/* one line */
	fb_free(&r);
}
END_TEST

/* ---- an I/O error in the middle of every test ---- */

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

/* ---- ^C in the middle of -s ---- */

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

Suite *cli_suite(void)
{
	Suite *s = suite_create("cli");
	TCase *tc = tcase_create("bad");

	tcase_add_loop_test(tc, test_bad_in_process, 0, N_BAD);
	tcase_add_loop_test(tc, test_bad_binary, 0, 9);
	tcase_add_loop_test(tc, test_logical_block, 0, 4);
	tcase_add_test(tc, test_out_bad_path);
	tcase_add_loop_test(tc, test_conflicts, 0,
			    sizeof(conflicts) / sizeof(conflicts[0]));
	suite_add_tcase(s, tc);

	tc = tcase_create("good");
	tcase_add_test(tc, test_align_runs);
	tcase_add_test(tc, test_scatter_runs);
	tcase_add_test(tc, test_interval_runs);
	tcase_add_test(tc, test_classic_order);
	tcase_add_loop_test(tc, test_size_suffixes, 0, 10);
	tcase_add_test(tc, test_option_spellings);
	tcase_add_test(tc, test_verbose_to_err);
	tcase_add_loop_test(tc, test_verbose_levels, 0, 3);
	tcase_add_loop_test(tc, test_announce_merged, 0, 2);
	tcase_add_test(tc, test_announce_auto_steps);
	tcase_add_test(tc, test_auto_plain_words);
	tcase_add_test(tc, test_help);
	tcase_add_test(tc, test_version);
	tcase_add_test(tc, test_out_file);
	tcase_add_test(tc, test_reentrant);
	tcase_add_test(tc, test_logical_block_ok);
	tcase_add_test(tc, test_logical_block_interval);
	suite_add_tcase(s, tc);

	tc = tcase_create("failures");
	tcase_add_test(tc, test_out_full);
	tcase_add_test(tc, test_io_error);
	tcase_add_test(tc, test_missing_device);
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_eio_midway, 0,
			    sizeof(eio_runs) / sizeof(eio_runs[0]));
	tcase_add_test(tc, test_scatter_stopped_first_round);
	tcase_add_test(tc, test_scatter_stopped_third_round);
	tcase_add_test(tc, test_scatter_stopped_json);
	suite_add_tcase(s, tc);

	tc = tcase_create("writes");
	tcase_add_loop_test(tc, test_bad_writes, 0, 9);
	tcase_add_loop_test(tc, test_unused_options, 0,
			    sizeof(unused_cases) / sizeof(unused_cases[0]));
	tcase_add_test(tc, test_open_au_runs);
	tcase_add_test(tc, test_default_offset);
	tcase_add_test(tc, test_all_tests_order);
	tcase_add_test(tc, test_write_error);
	suite_add_tcase(s, tc);

	tc = tcase_create("file");
	tcase_add_test(tc, test_file_device);
	tcase_add_test(tc, test_file_device_too_small);
	tcase_add_loop_test(tc, test_file_device_tiny, 0,
			    sizeof(tiny_cases) / sizeof(tiny_cases[0]));
	tcase_add_test(tc, test_file_device_auto_smallest);
	suite_add_tcase(s, tc);
	return s;
}
