// SPDX-License-Identifier: GPL-2.0-only
/*
 * Running the tests a command line asks for (front/runtests.c): each
 * classic test's rows, the classic order, size suffixes and option
 * spellings, -v's lines, the "will overwrite" announcements, --help and
 * --version, results where -o says, the default --offset.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "flashbench.h"
#include "format.h"
#include "frontrun.h"
#include "modes.h"
#include "util.h"

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
	ck_assert_uint_eq(line_count(r.out), rows);
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
	ck_assert_uint_eq(line_count(r.out), 64);
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
	ck_assert_uint_eq(line_count(r.out), 8 + 1 + 8);
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
	n = line_count(r.out);
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
	ck_assert_uint_eq(line_count(r.out), 8);
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
	ck_assert_uint_eq(line_count(a.out), 16);
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
	uint64_t total = 0, a, b, d;
	size_t n = 0, want, k;
	char sz[FMT_LEN], tot[FMT_LEN], every[FMT_LEN], tot2[FMT_LEN];

	if (sscanf(p, "flashbench: will overwrite %zu ranges on simulated card, %15s in all",
		   &want, tot) != 2)
		return NULL;
	ck_assert_uint_gt(want, 128);
	for (p = strchr(p, '\n') + 1; !strncmp(p, "flashbench: - ", 14);
	     p = strchr(p, '\n') + 1) {
		uint64_t block, apart;

		if (sscanf(p, "flashbench: - bytes %" SCNu64 "-%" SCNu64,
			   &a, &b) == 2) {
			total += b - a;
			n++;
			continue;
		}
		/* k blocks, a stride apart, from a to d */
		ck_assert_int_eq(sscanf(p, "flashbench: - %zu blocks of %15s %15s apart, in bytes %" SCNu64 "-%" SCNu64,
					&k, sz, every, &a, &d), 5);
		sz[strcspn(sz, ",")] = '\0';
		ck_assert_int_eq(parse_size(sz, &block), 0);
		ck_assert_uint_eq((d - a - block) % (k - 1), 0);
		apart = (d - a - block) / (k - 1);
		ck_assert_str_eq(fmt_size(tot2, apart), every);
		total += k * block;
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
	/* --auto: the write cache, the open-AU searches, the class check */
	ck_assert_uint_eq(phases, _i ? 1 : 4);
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
 * signature the erase size comes from writes: five steps (the write
 * cache first).
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
	ck_assert_uint_eq(k, 5);
	ck_assert_uint_eq(n[0], 1);	/* the write cache's one range */
	ck_assert_uint_gt(n[1], 100);	/* the erase search */
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
	ck_assert_uint_eq(line_count(s.out), 32);
	ck_assert_str_eq(text, s.out);
	free(text);
	fb_free(&r);
	fb_free(&s);
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
	ck_assert_uint_eq(line_count(r.out), 5 + 1 + 5);
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
		n = test_of(order[i])->plan(order[i], o, size, r, 64);
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
	ck_assert_uint_eq(line_count(want), 3 + 1);
	fb_run("-O -b 256K --open-au-nr=3 --simulate=size=256M", &r);
	ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
	ck_assert_str_eq(r.err, want);
	ck_assert_uint_eq(line_count(r.out), 5);
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
			  line_count(r.err) - 1);
	ck_assert_uint_eq(count_lines_with(r.err, "flashbench: 7MiB in all, in 3 ranges; "),
			  1);
	n = line_count(r.out);
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

Suite *runtests_suite(void)
{
	Suite *s = suite_create("runtests");
	TCase *tc;

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

	tc = tcase_create("writes");
	tcase_add_test(tc, test_open_au_runs);
	tcase_add_test(tc, test_default_offset);
	tcase_add_test(tc, test_all_tests_order);
	suite_add_tcase(s, tc);
	return s;
}
