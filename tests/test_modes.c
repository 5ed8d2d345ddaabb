// SPDX-License-Identifier: GPL-2.0-only
/*
 * The modes beyond the classic tests, through the front end: --auto,
 * --analyze and --json, their conflicts, and the JSON document's shape.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fault.h"
#include "flashbench.h"
#include "util.h"

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

/* The value at path in a JSON document, as text. */
static const char *jget(const char *doc, const char *path, char *buf,
			size_t len)
{
	int ret = json_get(doc, path, buf, len);

	ck_assert_msg(ret == 0, "JSON path %s: %d in %.300s", path, ret, doc);
	return buf;
}

/* Every test's --json document has the shape of SPEC section 5. */
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
	ck_assert_str_eq(jget(r.out, "version", buf, sizeof(buf)),
			 "\"" FLASHBENCH_VERSION "\"");
	snprintf(path, sizeof(path), "\"%s\"", json_runs[_i].test);
	ck_assert_str_eq(jget(r.out, "test", buf, sizeof(buf)), path);
	ck_assert_str_eq(jget(r.out, "device.size", buf, sizeof(buf)),
			 "1073741824");
	ck_assert_str_eq(jget(r.out, "device.logical_block_size", buf,
			      sizeof(buf)), "512");
	jget(r.out, "device.path", buf, sizeof(buf));
	jget(r.out, "device.sysfs", buf, sizeof(buf));
	jget(r.out, "options.blocksize", buf, sizeof(buf));
	ck_assert_str_eq(jget(r.out, "verdict", buf, sizeof(buf)), "null");
	ck_assert_str_eq(jget(r.out, "interrupted", buf, sizeof(buf)),
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
	bps = atof(jget(js.out, "regression.bytes_per_s", buf, sizeof(buf)));
	access = atof(jget(js.out, "regression.access_ns", buf, sizeof(buf)));
	ck_assert(bps > 1e6 && access > 0);
	for (i = 0; i < 6; i++) {
		double min_ns, over;

		snprintf(path, sizeof(path), "results.%zu.min_ns", i);
		min_ns = atof(jget(js.out, path, buf, sizeof(buf)));
		snprintf(path, sizeof(path), "results.%zu.overhead_ns", i);
		over = atof(jget(js.out, path, buf, sizeof(buf)));
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
	ck_assert_str_eq(jget(js.out, "results.0.align", buf, sizeof(buf)),
			 "134217728");
	/* the last table line is the 2KiB row; compare its diff */
	jget(js.out, "results.16.diff_ns", buf, sizeof(buf));
	ck_assert_str_eq(jget(js.out, "results.16.align", want, sizeof(want)),
			 "2048");
	ck_assert_ptr_nonnull(strstr(text.out, "align 2048\t"));
	ck_assert_int_lt(llabs(atoll(buf)), 1000);	/* below the page */
	jget(js.out, "results.10.diff_ns", buf, sizeof(buf));
	ck_assert_int_gt(atoll(buf), 100000);		/* 128KiB: a page */
	fb_free(&text);
	fb_free(&js);
}
END_TEST

/* --auto --destructive on simulated cards: the verdict is what was planted. */
static const struct {
	const char *spec;
	const char *erase, *page, *open_lin, *open_rand, *fat_start, *fat_nr;
} auto_cards[] = {
	{ "", "4194304", "16384", "4", "2", "0", "1" },
	{ "erase=8M,page=32K,open=6,open_random=3,fat=2,fat_start=1,noise=2",
	  "8388608", "32768", "6", "3", "1", "2" },
	{ "size=12G,erase=12M,page=16K,open=3,open_random=1,fat=0,noise=1",
	  "12582912", "16384", "3", "1", "null", "0" },
	{ "erase=2M,page=8K,open=9,open_random=5,fat=4,fat_start=2,noise=3,seed=7",
	  "2097152", "8192", "9", "5", "2", "4" },
};

START_TEST(test_auto_json_verdict)
{
	char args[256], buf[64];
	struct fb_run r;

	snprintf(args, sizeof(args), "--auto --destructive --json --simulate%s%s",
		 auto_cards[_i].spec[0] ? "=" : "", auto_cards[_i].spec);
	fb_run(args, &r);
	ck_assert_msg(r.status == 0, "%s: %d %s", args, r.status, r.err);
	ck_assert_int_eq(json_get(r.out, NULL, NULL, 0), 0);
	ck_assert_str_eq(jget(r.out, "test", buf, sizeof(buf)), "\"auto\"");
	ck_assert_str_eq(jget(r.out, "verdict.erase_size", buf, sizeof(buf)),
			 auto_cards[_i].erase);
	ck_assert_str_eq(jget(r.out, "verdict.page_size", buf, sizeof(buf)),
			 auto_cards[_i].page);
	ck_assert_str_eq(jget(r.out, "verdict.open_au_linear", buf,
			      sizeof(buf)), auto_cards[_i].open_lin);
	ck_assert_str_eq(jget(r.out, "verdict.open_au_random", buf,
			      sizeof(buf)), auto_cards[_i].open_rand);
	ck_assert_str_eq(jget(r.out, "verdict.fat_start", buf, sizeof(buf)),
			 auto_cards[_i].fat_start);
	ck_assert_str_eq(jget(r.out, "verdict.fat_erase_blocks", buf,
			      sizeof(buf)), auto_cards[_i].fat_nr);
	ck_assert_str_eq(jget(r.out, "verdict.confidence.erase_size", buf,
			      sizeof(buf)), "\"high\"");
	/* fat_start counts AUs; fat_start_byte is bytes (item 21) */
	jget(r.out, "verdict.fat_start_byte", buf, sizeof(buf));
	if (strcmp(auto_cards[_i].fat_start, "null"))
		ck_assert_uint_eq(strtoull(buf, NULL, 10),
				  strtoull(auto_cards[_i].fat_start, NULL, 10) *
				  strtoull(auto_cards[_i].erase, NULL, 10));
	else
		ck_assert_str_eq(buf, "null");
	/* the advice, as the text gives it (item 21) */
	ck_assert_str_eq(jget(r.out, "advice.erase_size_known", buf,
			      sizeof(buf)), "true");
	jget(r.out, "advice.partition_start", buf, sizeof(buf));
	ck_assert_uint_eq(strtoull(buf, NULL, 10) %
			  strtoull(auto_cards[_i].erase, NULL, 10), 0);
	ck_assert_uint_ge(strtoull(buf, NULL, 10), 1 << 20);
	ck_assert_uint_lt(strtoull(buf, NULL, 10),
			  (1 << 20) + strtoull(auto_cards[_i].erase, NULL, 10));
	jget(r.out, "advice.ext4_stripe_width", buf, sizeof(buf));
	ck_assert_uint_eq(strtoull(buf, NULL, 10) * 4096,
			  strtoull(auto_cards[_i].erase, NULL, 10));
	jget(r.out, "advice.ext4_stride", buf, sizeof(buf));
	ck_assert_uint_eq(strtoull(buf, NULL, 10) * 4096,
			  strtoull(auto_cards[_i].page, NULL, 10));
	/* the writes were announced before they happened */
	ck_assert_ptr_nonnull(strstr(r.err, "flashbench: will overwrite bytes 0-"));
	fb_free(&r);
}
END_TEST

/* Without --destructive: read-only, and the text says how to go on. */
START_TEST(test_auto_read_only_text)
{
	struct fb_run r;

	fb_run("--auto --simulate=erase=8M,page=32K", &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_ptr_nonnull(strstr(r.out, "erase size: 8MiB (confidence high)\n"));
	ck_assert_ptr_nonnull(strstr(r.out, "page size: 32KiB (confidence "));
	ck_assert_ptr_nonnull(strstr(r.out, "open AUs linear: skipped\n"));
	ck_assert_ptr_nonnull(strstr(r.out,
		"flashbench --auto --destructive --simulate=erase=8M,page=32K"));
	ck_assert_ptr_nonnull(strstr(r.out, "mkfs.ext4 -b 4096 -E stride=8,stripe_width=2048"));
	ck_assert_ptr_nonnull(strstr(r.out, "mkfs.f2fs -s 4"));
	ck_assert_ptr_null(strstr(r.err, "will overwrite"));
	fb_free(&r);
}
END_TEST

/* --analyze on the users' real tables: the erase size their authors saw. */
static const struct {
	const char *file;
	size_t tables;
	const char *erase;	/* every table's */
} seeds[] = {
	{ "tests/data/seed000.txt", 1, "erase size 4MiB" },
	{ "tests/data/seed001.txt", 1, "erase size 8MiB" },
	{ "tests/data/seed003.txt", 1, "erase size 8MiB" },
	{ "tests/data/seed004.txt", 7, "erase size 4MiB" },
};

START_TEST(test_analyze_seeds)
{
	char args[128], buf[64];
	struct fb_run r;

	snprintf(args, sizeof(args), "--analyze=%s", seeds[_i].file);
	fb_run(args, &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_uint_eq(r.opens, 0);
	ck_assert_uint_eq(count_str(r.out, ": erase size "), seeds[_i].tables);
	if (seeds[_i].erase)
		ck_assert_uint_eq(count_str(r.out, seeds[_i].erase),
				  seeds[_i].tables);
	else
		ck_assert_ptr_nonnull(strstr(r.out, "no align table found"));
	fb_free(&r);
	snprintf(args, sizeof(args), "--analyze=%s --json", seeds[_i].file);
	fb_run(args, &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_int_eq(json_get(r.out, NULL, NULL, 0), 0);
	ck_assert_str_eq(jget(r.out, "device", buf, sizeof(buf)), "null");
	if (seeds[_i].tables)
		ck_assert_str_eq(jget(r.out, "verdict.erase_size", buf,
				      sizeof(buf)),
				 seeds[_i].erase[11] == '4' ? "4194304" :
							     "8388608");
	else
		ck_assert_str_eq(jget(r.out, "verdict", buf, sizeof(buf)),
				 "null");
	fb_free(&r);
}
END_TEST

/*
 * The verdict names the page, the program unit (multi-plane) and the
 * allocation group apart: the Gentoo wiki's PQI card (4K page, 16K
 * multi-plane, 4M erase block, 2G group) and the classic README's card
 * (8K pages read two at a time), in the text and in JSON.
 */
START_TEST(test_analyze_levels)
{
	char buf[64];
	struct fb_run r;

	fb_run("--analyze=tests/data/pqi-32g-microsd-gentoo-wiki.txt", &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_ptr_nonnull(strstr(r.out, "table 1: erase size 4MiB "));
	ck_assert_ptr_nonnull(strstr(r.out, ", page size 4KiB (confidence "));
	ck_assert_ptr_nonnull(strstr(r.out, ", program unit 16KiB (confidence "));
	ck_assert_ptr_nonnull(strstr(r.out, ", allocation group 2GiB (confidence "));
	fb_free(&r);
	fb_run("--analyze=tests/data/pqi-32g-microsd-gentoo-wiki.txt --json",
	       &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_str_eq(jget(r.out, "verdict.page_size", buf, sizeof(buf)),
			 "4096");
	ck_assert_str_eq(jget(r.out, "verdict.program_unit", buf,
			      sizeof(buf)), "16384");
	ck_assert_str_eq(jget(r.out, "verdict.allocation_group", buf,
			      sizeof(buf)), "2147483648");
	ck_assert_str_eq(jget(r.out, "verdict.confidence.allocation_group",
			      buf, sizeof(buf)), "\"low\"");
	fb_free(&r);
	fb_run("--analyze=tests/data/seed000.txt --json", &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_str_eq(jget(r.out, "verdict.page_size", buf, sizeof(buf)),
			 "8192");
	ck_assert_str_eq(jget(r.out, "verdict.program_unit", buf,
			      sizeof(buf)), "16384");
	ck_assert_str_eq(jget(r.out, "verdict.confidence.program_unit", buf,
			      sizeof(buf)), "\"medium\"");
	ck_assert_str_eq(jget(r.out, "verdict.allocation_group", buf,
			      sizeof(buf)), "null");
	ck_assert_str_eq(jget(r.out, "verdict.confidence.allocation_group",
			      buf, sizeof(buf)), "\"none\"");
	fb_free(&r);
}
END_TEST

/*
 * Input with no align table is bad input: one line on stderr, exit 2,
 * nothing on stdout, -o left alone; a directory is called one.
 */
static const struct {
	const char *what;
	int kind;	/* 0 file of text, 1 random bytes, 2 directory, 3 file */
	const char *text;
} no_tables[] = {
	{ "an article on eMCP testing", 3, "tests/data/seed002.txt" },
	{ "empty", 0, "" },
	{ "prose", 0, "An SD card has erase blocks of 4 MiB; align them.\n"
		      "align the partitions, pre-erase, diff the results\n" },
	{ "random", 1, NULL },
	{ "directory", 2, NULL },
};

START_TEST(test_analyze_no_table)
{
	char dir[] = "/tmp/fb-analyze-XXXXXX", in[64], out[64], svg[64];
	char want[128], args[256], *kept;
	const char *extra[] = { "", " --json", " --plot=" };
	struct fb_run r;
	size_t k;
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(in, sizeof(in), "%s/in", dir);
	snprintf(out, sizeof(out), "%s/out", dir);
	snprintf(svg, sizeof(svg), "%s/x.svg", dir);
	if (no_tables[_i].kind == 3) {
		snprintf(in, sizeof(in), "%s", no_tables[_i].text);
	} else if (no_tables[_i].kind == 2) {
		ck_assert_int_eq(mkdir(in, 0700), 0);
	} else {
		uint64_t x = 0x9e3779b97f4a7c15ULL;
		int i;

		f = fopen(in, "w");
		ck_assert_ptr_nonnull(f);
		if (no_tables[_i].kind == 0)
			fputs(no_tables[_i].text, f);
		for (i = 0; no_tables[_i].kind == 1 && i < 65536; i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			fputc((int)(x & 0xff), f);
		}
		fclose(f);
	}
	if (no_tables[_i].kind == 2)
		snprintf(want, sizeof(want), "invalid --analyze '%s': %s", in,
			 strerror(EISDIR));
	else
		snprintf(want, sizeof(want), "no align table found in %s", in);
	for (k = 0; k < 3; k++) {
		f = fopen(out, "w");
		fputs("kept\n", f);
		fclose(f);
		snprintf(args, sizeof(args), "--analyze=%s -o %s%s%s", in, out,
			 extra[k], k == 2 ? svg : "");
		fb_run(args, &r);
		ck_assert_msg(r.status == 2, "%s%s: status %d: %s",
			      no_tables[_i].what, extra[k], r.status, r.err);
		ck_assert_msg(!strncmp(r.err, "flashbench: ", 12) &&
			      strstr(r.err, want) &&
			      count_str(r.err, "\n") == 1,
			      "%s%s: '%s'", no_tables[_i].what, extra[k],
			      r.err);
		ck_assert_str_eq(r.out, "");
		kept = NULL;
		f = fopen(out, "r");
		ck_assert_ptr_nonnull(f);
		ck_assert_int_eq(fscanf(f, "%ms", &kept), 1);
		fclose(f);
		ck_assert_str_eq(kept, "kept");
		free(kept);
		ck_assert_int_ne(access(svg, F_OK), 0);
		fb_free(&r);
	}
	/* and to standard output, as a script would read it */
	snprintf(args, sizeof(args), "--analyze=%s", in);
	fb_run(args, &r);
	ck_assert_int_eq(r.status, 2);
	ck_assert_str_eq(r.out, "");
	fb_free(&r);
	unlink(out);
	if (no_tables[_i].kind == 2)
		rmdir(in);
	else if (no_tables[_i].kind != 3)
		unlink(in);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* A table with no step gives "none", not an invented size. */
START_TEST(test_analyze_flat)
{
	char path[] = "/tmp/flashbench-flat-XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");
	unsigned long long a;
	struct fb_run r;
	char args[64];
	int i = 0;

	ck_assert_ptr_nonnull(f);
	for (a = 1ULL << 30; a >= 2048; a >>= 1, i++)
		fprintf(f, "align %llu\tpre 741µs\ton %dµs\tpost 742µs\tdiff %.3gµs\n",
			a, 741 + i % 3, (i % 3) - 0.5);
	fclose(f);
	snprintf(args, sizeof(args), "--analyze=%s", path);
	fb_run(args, &r);
	unlink(path);
	ck_assert_int_eq(r.status, 0);
	ck_assert_ptr_nonnull(strstr(r.out, "table 1: erase size none"));
	fb_free(&r);
}
END_TEST

/* ---- an I/O error in the middle of every test ---- */

static struct fault_plan hook_plan;

/* Put a fault injector around every device the front end opens. */
static struct device *fault_hook(struct device *dev)
{
	struct device *w;

	ck_assert_int_eq(fault_wrap(&w, dev, &hook_plan), 0);
	return w;
}

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
	fault_plan_init(&hook_plan);
	hook_plan.eio_op = ops / 2;
	flashbench_open_hook = fault_hook;
	fb_run(eio_runs[_i], &r);
	flashbench_open_hook = NULL;
	ck_assert_msg(r.status == 1, "%s: %d %s", eio_runs[_i], r.status,
		      r.err);
	/* the error, beside the "will overwrite" lines and their total */
	ck_assert_uint_eq(count_str(r.err, "\n") -
			  count_str(r.err, "flashbench: will overwrite") -
			  count_str(r.err, "; each END is the first byte left alone\n"),
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
	fault_plan_init(&hook_plan);
	hook_plan.signal_op = stop_op;
	hook_plan.signal = SIGINT;
	flashbench_open_hook = fault_hook;
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

/* Fill path with size bytes of a pattern; returns its checksum. */
static uint64_t make_image(const char *path, size_t size)
{
	FILE *f = fopen(path, "w");
	uint64_t x = 88172645463325252ULL, sum = 0;
	size_t i, written = 0;

	ck_assert_ptr_nonnull(f);
	for (i = 0; i < size / 8; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		sum = sum * 31 + x;
		written += fwrite(&x, 8, 1, f);	/* one assertion, below */
	}
	ck_assert_uint_eq(written, size / 8);
	ck_assert_int_eq(fclose(f), 0);
	return sum;
}

static uint64_t image_sum(const char *path)
{
	FILE *f = fopen(path, "r");
	uint64_t x, sum = 0;

	ck_assert_ptr_nonnull(f);
	while (fread(&x, 8, 1, f) == 1)
		sum = sum * 31 + x;
	fclose(f);
	return sum;
}

/*
 * A simulated card holds no data: --preserve saves nothing and writes no
 * journal, so a journal directory that does not exist is no failure,
 * and the results are those of the run without --preserve (item 19).
 */
START_TEST(test_preserve_simulated)
{
	struct fb_run plain, kept;

	fb_run("-O --simulate=size=128M", &plain);
	ck_assert_int_eq(plain.status, 0);
	fb_run("-O --preserve --journal=/nonexistent/dir/sim.journal "
	       "--simulate=size=128M", &kept);
	ck_assert_msg(kept.status == 0, "status %d: %s", kept.status,
		      kept.err);
	ck_assert_str_eq(kept.out, plain.out);
	ck_assert_str_eq(kept.err, plain.err);
	fb_free(&kept);
	fb_run("-O --preserve -v --simulate=size=128M", &kept);
	ck_assert_int_eq(kept.status, 0);
	ck_assert_ptr_nonnull(strstr(kept.err, "flashbench: --preserve: the simulated card holds no data; nothing saved, no journal\n"));
	ck_assert_int_ne(access("flashbench-simulated_card.journal", F_OK), 0);
	fb_free(&kept);
	fb_free(&plain);
}
END_TEST

/*
 * With --preserve, a writing test that fails half way still leaves the
 * device (a regular file here) as it was, and removes its journal.
 */
START_TEST(test_eio_preserve)
{
	static const char *const tests[] = {
		"-O -e 1M -b 64K --open-au-nr=2", "-f -e 1M -b 128K --fat-nr=3",
		"-p",
	};
	char img[] = "/dev/shm/flashbench-eio-XXXXXX", args[512], journal[64];
	uint64_t sum;
	struct fb_run r;
	int fd = mkstemp(img);

	ck_assert_int_ge(fd, 0);
	close(fd);
	sum = make_image(img, 32 << 20);
	snprintf(journal, sizeof(journal), "%s.journal", img);
	snprintf(args, sizeof(args), "%s --preserve --journal=%s %s",
		 tests[_i], journal, img);
	fault_plan_init(&hook_plan);
	hook_plan.eio_kinds = FAULT_WRITE;
	/* inside what each writes: -O from 16M, -f from 0, -p 16M-20M */
	hook_plan.eio_byte = _i == 1 ? 1 << 20 : (16 << 20) + (512 << 10);
	flashbench_open_hook = fault_hook;
	fb_run(args, &r);
	flashbench_open_hook = NULL;
	ck_assert_msg(r.status == 1, "%s: %d %s", args, r.status, r.err);
	ck_assert_ptr_nonnull(strstr(r.err, "write of "));
	/*
	 * The failing sector fails the restore too: the rest is back, and
	 * the journal stays for --restore, which then finishes the job.
	 */
	ck_assert_ptr_nonnull(strstr(r.err, "--restore="));
	ck_assert_int_eq(access(journal, F_OK), 0);
	fb_free(&r);
	snprintf(args, sizeof(args), "--restore=%s %s", journal, img);
	fb_run(args, &r);
	ck_assert_msg(r.status == 0, "%s: %d %s", args, r.status, r.err);
	ck_assert_uint_eq(image_sum(img), sum);
	ck_assert_int_ne(access(journal, F_OK), 0);
	unlink(img);
	fb_free(&r);
}
END_TEST

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

Suite *modes_suite(void)
{
	Suite *s = suite_create("modes");
	TCase *tc = tcase_create("modes");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_conflicts, 0, N(conflicts));
	tcase_add_loop_test(tc, test_json_shape, 0, N(json_runs));
	tcase_add_test(tc, test_json_raw_numbers);
	tcase_add_test(tc, test_json_interval);
	tcase_add_loop_test(tc, test_auto_json_verdict, 0, N(auto_cards));
	tcase_add_test(tc, test_auto_read_only_text);
	tcase_add_loop_test(tc, test_analyze_seeds, 0, N(seeds));
	tcase_add_test(tc, test_analyze_flat);
	tcase_add_loop_test(tc, test_analyze_no_table, 0, N(no_tables));
	tcase_add_test(tc, test_analyze_levels);
	suite_add_tcase(s, tc);
	tc = tcase_create("faults");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_eio_midway, 0, N(eio_runs));
	tcase_add_test(tc, test_scatter_stopped_first_round);
	tcase_add_test(tc, test_scatter_stopped_third_round);
	tcase_add_test(tc, test_scatter_stopped_json);
	tcase_add_loop_test(tc, test_eio_preserve, 0, 3);
	tcase_add_test(tc, test_preserve_simulated);
	suite_add_tcase(s, tc);
	return s;
}
