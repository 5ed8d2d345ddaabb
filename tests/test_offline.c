// SPDX-License-Identifier: GPL-2.0-only
/*
 * --analyze through the front end (front/offline.c): the users' real
 * tables read as their authors read them, the levels named apart, and
 * input without an align table refused as bad input.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "flashbench.h"
#include "util.h"

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
	ck_assert_str_eq(json_at(r.out, "device", buf, sizeof(buf)), "null");
	if (seeds[_i].tables)
		ck_assert_str_eq(json_at(r.out, "verdict.erase_size", buf,
				      sizeof(buf)),
				 seeds[_i].erase[11] == '4' ? "4194304" :
							     "8388608");
	else
		ck_assert_str_eq(json_at(r.out, "verdict", buf, sizeof(buf)),
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
	check_width("--analyze", r.out);
	unwrap_text(r.out);
	ck_assert_ptr_nonnull(strstr(r.out, "table 1: erase size 4MiB "));
	ck_assert_ptr_nonnull(strstr(r.out, ", page size 4KiB (confidence "));
	ck_assert_ptr_nonnull(strstr(r.out, ", program unit 16KiB (confidence "));
	ck_assert_ptr_nonnull(strstr(r.out, ", allocation group 2GiB (confidence "));
	fb_free(&r);
	fb_run("--analyze=tests/data/pqi-32g-microsd-gentoo-wiki.txt --json",
	       &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_str_eq(json_at(r.out, "verdict.page_size", buf, sizeof(buf)),
			 "4096");
	ck_assert_str_eq(json_at(r.out, "verdict.program_unit", buf,
			      sizeof(buf)), "16384");
	ck_assert_str_eq(json_at(r.out, "verdict.allocation_group", buf,
			      sizeof(buf)), "2147483648");
	ck_assert_str_eq(json_at(r.out, "verdict.confidence.allocation_group",
			      buf, sizeof(buf)), "\"low\"");
	fb_free(&r);
	fb_run("--analyze=tests/data/seed000.txt --json", &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_str_eq(json_at(r.out, "verdict.page_size", buf, sizeof(buf)),
			 "8192");
	ck_assert_str_eq(json_at(r.out, "verdict.program_unit", buf,
			      sizeof(buf)), "16384");
	ck_assert_str_eq(json_at(r.out, "verdict.confidence.program_unit", buf,
			      sizeof(buf)), "\"medium\"");
	ck_assert_str_eq(json_at(r.out, "verdict.allocation_group", buf,
			      sizeof(buf)), "null");
	ck_assert_str_eq(json_at(r.out, "verdict.confidence.allocation_group",
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

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

Suite *offline_suite(void)
{
	Suite *s = suite_create("offline");
	TCase *tc = tcase_create("offline");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_analyze_seeds, 0, N(seeds));
	tcase_add_test(tc, test_analyze_flat);
	tcase_add_loop_test(tc, test_analyze_no_table, 0, N(no_tables));
	tcase_add_test(tc, test_analyze_levels);
	suite_add_tcase(s, tc);
	return s;
}
