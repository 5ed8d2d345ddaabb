// SPDX-License-Identifier: GPL-2.0-only
/*
 * Opening DEVICE (front/opendev.c) when it is a regular file: a file
 * device measured as a card, one too small for the tests asked for, the
 * tiny ones, --auto on the smallest it takes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "frontrun.h"
#include "util.h"

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
	ck_assert_uint_eq(line_count(a.out), rows);
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

Suite *opendev_suite(void)
{
	Suite *s = suite_create("opendev");
	TCase *tc;

	tc = tcase_create("file");
	tcase_add_test(tc, test_file_device);
	tcase_add_test(tc, test_file_device_too_small);
	tcase_add_loop_test(tc, test_file_device_tiny, 0,
			    sizeof(tiny_cases) / sizeof(tiny_cases[0]));
	tcase_add_test(tc, test_file_device_auto_smallest);
	suite_add_tcase(s, tc);
	return s;
}
