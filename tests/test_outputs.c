// SPDX-License-Identifier: GPL-2.0-only
/*
 * The command line's output files (front/outputs.c): a refusal leaves -o
 * as it was, two outputs on one path are refused, and a journal that is
 * taken is named as what it is.
 */
#include <ftw.h>
#include <signal.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "blockdev.h"
#include "capacity.h"
#include "fault.h"
#include "preserve.h"
#include "sim.h"
#include "util.h"
#include "tfiles.h"

/* ---- output files of the command line ---- */

/* Run flashbench in-process; fmt's %1$s is the test directory. */
static void t_fb(struct fb_run *r, const char *fmt)
{
	char args[1024];

	snprintf(args, sizeof(args), fmt, t_dir);
	fb_run(args, r);
}

/* Does the file at path hold exactly text? */
static int t_holds(const char *path, const char *text)
{
	unsigned char *buf;
	size_t len;
	int same;

	if (!t_exists(path))
		return 0;
	buf = t_read_file(path, &len);
	same = len == strlen(text) && !memcmp(buf, text, len);
	free(buf);
	return same;
}

/*
 * Command lines refused after -o was given: keep.txt (there before) must
 * stay as it was and new.txt must not appear, whatever is refused and
 * however late; a refusal reads and writes nothing.
 */
static const struct {
	const char *args;
	int status;
} t_refused[] = {
	/* the journal exists */
	{ "-O -e 64K -b 16K --offset=1M -o %1$s/keep.txt --preserve "
	  "--journal=%1$s/existing.txt %1$s/card", 2 },
	/* the plot cannot be made */
	{ "-s --scatter-order=4 -o %1$s/keep.txt --plot=%1$s/no/x.svg "
	  "%1$s/card", 2 },
	{ "-s --scatter-order=4 -o %1$s/new.txt --plot=%1$s/no/x.svg "
	  "%1$s/card", 2 },
	/* not a journal */
	{ "--restore=%1$s/existing.txt -o %1$s/keep.txt %1$s/card", 1 },
	{ "--restore=%1$s/existing.txt -o %1$s/new.txt %1$s/card", 1 },
	/* past the end */
	{ "-O -e 4M -o %1$s/keep.txt %1$s/card", 2 },
};

START_TEST(test_out_kept_on_refusal)
{
	char keep[256], newf[256], existing[256], card[256];
	struct fb_run r;

	t_make_file(t_path(card, sizeof(card), "card"), T_SIZE, 60);
	t_write_file(t_path(keep, sizeof(keep), "keep.txt"), "keep\n", 5);
	t_write_file(t_path(existing, sizeof(existing), "existing.txt"),
		     "mine\n", 5);
	t_path(newf, sizeof(newf), "new.txt");
	t_fb(&r, t_refused[_i].args);
	ck_assert_msg(r.status == t_refused[_i].status, "status %d: %s",
		      r.status, r.err);
	ck_assert_msg(t_holds(keep, "keep\n"), "keep.txt changed: %s", r.err);
	ck_assert_msg(!t_exists(newf), "new.txt made: %s", r.err);
	ck_assert(t_holds(existing, "mine\n"));
	ck_assert_uint_eq(r.io_calls, 0);
	ck_assert_ptr_null(strstr(r.err, "will overwrite"));
	ck_assert_uint_eq(count_str(r.err, "flashbench: "), 1);
	fb_free(&r);
}
END_TEST

/*
 * Two paths of one command line that name one file, one of them written
 * by flashbench: refused before anything is opened.  x.txt (there
 * before) and the card stay as they were, j and new are not made.
 */
static const char *const t_same_path[] = {
	"-s --scatter-order=4 -o %1$s/x.txt --plot=%1$s/x.txt %1$s/card",
	"-s --scatter-order=4 -o %1$s/new --plot=%1$s/./new %1$s/card",
	"-s --scatter-order=4 -o %1$s/x.txt --plot=%1$s/link %1$s/card",
	"-O -e 64K -b 16K --offset=1M -o %1$s/j --journal=%1$s/./j "
	"%1$s/card",
	"-O -e 64K -b 16K --offset=1M --plot=%1$s/link --journal=%1$s/x.txt "
	"%1$s/card",
	"-s --scatter-order=4 -o %1$s/card %1$s/card",
	"-s --scatter-order=4 --plot=%1$s/../%2$s/card %1$s/card",
	"--restore=%1$s/x.txt -o %1$s/link %1$s/card",
	"-O -e 64K -b 16K --offset=1M --journal=%1$s/card %1$s/card",
};

START_TEST(test_out_same_path)
{
	char x[256], link[256], card[256], args[1024];
	const char *dir = strrchr(t_dir, '/') + 1;
	unsigned char *before;
	struct device *dev;
	struct fb_run r;

	t_make_file(t_path(card, sizeof(card), "card"), T_SIZE, 61);
	t_write_file(t_path(x, sizeof(x), "x.txt"), "precious", 8);
	ck_assert_int_eq(symlink("x.txt", t_path(link, sizeof(link), "link")),
			 0);
	dev = t_open(card);
	before = t_snapshot(dev);
	dev_close(dev);
	snprintf(args, sizeof(args), t_same_path[_i], t_dir, dir);
	fb_run(args, &r);
	ck_assert_msg(r.status == 2, "status %d: %s", r.status, r.err);
	ck_assert_msg(strstr(r.err, "name the same file"), "%s", r.err);
	ck_assert_uint_eq(r.io_calls, 0);
	ck_assert(t_holds(x, "precious"));
	ck_assert(!t_exists(t_path(link, sizeof(link), "new")));
	ck_assert(!t_exists(t_path(link, sizeof(link), "j")));
	dev = t_open(card);
	ck_assert(t_same(dev, before));
	dev_close(dev);
	fb_free(&r);
	free(before);
}
END_TEST

/* Outputs on paths of their own still work, and replace what was there. */
START_TEST(test_out_distinct_paths)
{
	char x[256], card[256], svg[256];
	struct fb_run r;

	t_make_file(t_path(card, sizeof(card), "card"), T_SIZE, 62);
	t_write_file(t_path(x, sizeof(x), "x.txt"), "precious and long", 17);
	t_write_file(t_path(svg, sizeof(svg), "x.svg"), "old", 3);
	t_fb(&r, "-s --scatter-order=4 -o %1$s/x.txt --plot=%1$s/x.svg "
		 "%1$s/card");
	ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
	fb_free(&r);
	{
		size_t len;
		unsigned char *t = t_read_file(x, &len);
		char *text = strndup((char *)t, len);

		/* 16 lines "offset\ttime", nothing left of what was there */
		ck_assert_ptr_nonnull(text);
		ck_assert_uint_eq(count_str(text, "\n"), 16);
		ck_assert(!memcmp(t, "0.000000\t", 9));
		ck_assert_ptr_null(memchr(t, 'p', len));
		free(text);
		free(t);
		t = t_read_file(svg, &len);
		ck_assert(len > 100 && !memcmp(t, "<?xml", 5));
		free(t);
	}
}
END_TEST

/*
 * A --journal path that is taken: refused before any I/O and before any
 * "will overwrite" line, the file left alone, and --restore= proposed
 * only for what is a journal.
 */
static const struct {
	const char *journal;	/* %1$s: the test directory */
	const char *want;	/* in the message */
	int is_journal;		/* --restore=JOURNAL proposed */
} t_taken[] = {
	{ "%1$s/mine.txt", "is not a flashbench journal", 0 },
	{ "/dev/full", "is a character device", 0 },
	{ "%1$s", "is a directory", 0 },
	{ "%1$s/card", "name the same file", 0 },
	{ "%1$s/old.journal", "holds the data of an earlier run", 1 },
};

START_TEST(test_journal_taken)
{
	char card[256], mine[256], old[256], journal[256], args[1024];
	char want[300];
	unsigned char *before;
	struct device *dev;
	struct preserve *p;
	struct fb_run r;

	t_make_file(t_path(card, sizeof(card), "card"), T_SIZE, 63);
	t_write_file(t_path(mine, sizeof(mine), "mine.txt"), "mine\n", 5);
	/* a real journal, of another card */
	t_make_file(t_path(old, sizeof(old), "old.card"), T_SIZE, 64);
	dev = t_open(old);
	p = t_save(dev, t_path(old, sizeof(old), "old.journal"));
	preserve_free(p);
	dev_close(dev);
	dev = t_open(card);
	before = t_snapshot(dev);
	dev_close(dev);
	snprintf(journal, sizeof(journal), t_taken[_i].journal, t_dir);
	snprintf(args, sizeof(args),
		 "-O -e 64K -b 16K --offset=1M --journal=%s %s", journal, card);
	fb_run(args, &r);
	ck_assert_msg(r.status == 2, "status %d: %s", r.status, r.err);
	ck_assert_msg(strstr(r.err, t_taken[_i].want), "%s", r.err);
	ck_assert_uint_eq(count_str(r.err, "\n"), 1);
	ck_assert_uint_eq(r.io_calls, 0);
	snprintf(want, sizeof(want), "--restore=%s", journal);
	if (t_taken[_i].is_journal)
		ck_assert_msg(strstr(r.err, want), "%s", r.err);
	else
		ck_assert_msg(!strstr(r.err, "--restore"), "%s", r.err);
	ck_assert(t_holds(mine, "mine\n"));
	dev = t_open(card);
	ck_assert(t_same(dev, before));
	dev_close(dev);
	free(before);
	fb_free(&r);
}
END_TEST

/* ---- commands the results propose ---- */

/*
 * -C's sfdisk line on a fake card: a command that runs as given, with
 * sudo as --auto's has it, naming DEVICE for the simulated card (it said
 * "| sfdisk simulated card"), a path as given, and a partition that ends
 * where the card stops storing data (issue 20 item 2).
 */
START_TEST(test_capacity_sfdisk_line)
{
	struct capacity_result c = {
		.announced_byte = 8ULL << 30, .usable_byte = 4ULL << 30,
		.kind = CAPACITY_LIMBO, .logical_block_size = 512,
	};
	unsigned long long start, size;
	char *text = NULL;
	const char *p;
	struct fb_run r;
	size_t len = 0;
	FILE *f;

	fb_run("-C -q --simulate=real_size=4G", &r);
	ck_assert_int_eq(r.status, 4);	/* a limbo fake */
	p = strstr(r.out, "echo 'start=");
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(sscanf(p, "echo 'start=%llu, size=%llu", &start,
				&size), 2);
	ck_assert_uint_eq((start + size) * 512, 4ULL << 30);
	ck_assert_ptr_nonnull(strstr(p, "' | sudo sfdisk DEVICE\n"));
	fb_free(&r);
	f = open_memstream(&text, &len);
	capacity_print(f, &c, "/dev/sdz");
	fclose(f);
	ck_assert_ptr_nonnull(strstr(text, "' | sudo sfdisk /dev/sdz\n"));
	free(text);
}
END_TEST

Suite *outputs_suite(void)
{
	Suite *s = suite_create("outputs");
	TCase *tc;

	tc = tcase_create("outputs");
	tcase_add_unchecked_fixture(tc, t_base_setup, t_base_teardown);
	tcase_add_checked_fixture(tc, t_dir_setup, NULL);
	tcase_add_loop_test(tc, test_out_kept_on_refusal, 0,
			    sizeof(t_refused) / sizeof(t_refused[0]));
	tcase_add_loop_test(tc, test_out_same_path, 0,
			    sizeof(t_same_path) / sizeof(t_same_path[0]));
	tcase_add_test(tc, test_out_distinct_paths);
	tcase_add_loop_test(tc, test_journal_taken, 0,
			    sizeof(t_taken) / sizeof(t_taken[0]));
	tcase_add_test(tc, test_capacity_sfdisk_line);
	suite_add_tcase(s, tc);
	return s;
}
