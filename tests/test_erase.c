// SPDX-License-Identifier: GPL-2.0-only
/*
 * The discard tool (erase.c) on real loop devices: what it discards
 * and what it leaves, its refusals, 4K sectors, a busy device; and what
 * is no device at all.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "loopdev.h"
#include "util.h"

START_TEST(test_erase_range)
{
	/* 512-byte aligned but not 4K aligned at either end */
	const uint64_t start = 5 * MiB + 1536, len = 3 * MiB + 1024;
	const uint64_t end = start + len;
	char s_start[32], s_len[32], want[256];
	struct cmd_result res;
	struct loop_fix fx;
	uint64_t pre, post;

	if (!loop_setup(&fx, "erase_range", 0, 0))
		return;
	pre = region_hash(fx.dev, 0, start);
	post = region_hash(fx.dev, end, fx.size_byte - end);
	ck_assert_uint_gt(scan(fx.dev, start, len, SCAN_ZERO, 0), 0);

	snprintf(s_start, sizeof(s_start), "%" PRIu64, start);
	snprintf(s_len, sizeof(s_len), "%" PRIu64, len);
	ck_assert_int_eq(run_erase(&res, fx.dev, s_start, s_len, NULL), 0);
	snprintf(want, sizeof(want), "erasing %" PRIu64 " to %" PRIu64
		 " on %s\n", start, end, fx.dev);
	ck_assert_str_eq(res.out, want);
	/* erase speaks as erase (issue 9 item 14) */
	snprintf(want, sizeof(want), "erase: will overwrite bytes %"
		 PRIu64 "-%" PRIu64 " on %s\n", start, end, fx.dev);
	ck_assert_str_eq(res.err, want);
	cmd_result_free(&res);

	ck_assert_uint_eq(scan(fx.dev, start, len, SCAN_ZERO, 0), 0);
	ck_assert_uint_eq(region_hash(fx.dev, 0, start), pre);
	ck_assert_uint_eq(region_hash(fx.dev, end, fx.size_byte - end), post);
	ck_assert_uint_eq(scan(fx.dev, 0, start, SCAN_PLANTED, fx.seed), 0);

	/* suffixes: the last MiB, "63MiB 1M" */
	ck_assert_int_eq(run_erase(&res, fx.dev, "63MiB", "1M", NULL), 0);
	snprintf(want, sizeof(want), "erasing %" PRIu64 " to %" PRIu64
		 " on %s\n", 63 * MiB, 64 * MiB, fx.dev);
	ck_assert_str_eq(res.out, want);
	cmd_result_free(&res);
	ck_assert_uint_eq(scan(fx.dev, 63 * MiB, MiB, SCAN_ZERO, 0), 0);
	ck_assert_uint_eq(scan(fx.dev, end, 63 * MiB - end, SCAN_PLANTED,
			       fx.seed), 0);
}
END_TEST

/* Command lines erase refuses with status 2, before touching anything. */
#define USAGE "expected <device> <start> <length>, "
static const struct erase_case {
	int argc;		/* arguments after the device */
	const char *start;
	const char *len;
	const char *extra;
	const char *err;	/* expected in stderr */
	int device;		/* refused for the device: no usage error */
} erase_bad[] = {
	{ 0, NULL, NULL, NULL, USAGE "got 1 ", 0 },
	{ 1, "0", NULL, NULL, USAGE "got 2 ", 0 },
	{ 3, "0", "512", "512", USAGE "got 4 ", 0 },
	{ 2, "abc", "512", NULL, "start", 0 },
	{ 2, "0", "-512", NULL, "length", 0 },
	{ 2, "0", "0", NULL, "length", 0 },
	{ 2, "0", "99999999999999999999", NULL, "length", 0 },
	{ 2, "0", "12Q", NULL, "length", 0 },
	{ 2, "100", "512", NULL, "aligned", 1 },
	{ 2, "512", "1000", NULL, "aligned", 1 },
	{ 2, "64M", "512", NULL, "beyond the end", 1 },
	{ 2, "63M", "2M", NULL, "beyond the end", 1 },
	{ 2, "512", "18446744073709551104", NULL, "beyond the end", 1 },
};

START_TEST(test_erase_bad_args)
{
	const struct erase_case *c = &erase_bad[_i];
	struct cmd_result res;
	struct loop_fix fx;
	uint64_t before;

	if (!loop_setup(&fx, "erase_bad_args", 0, 0))
		return;
	before = region_hash(fx.dev, 0, fx.size_byte);
	ck_assert_int_eq(run_erase(&res, fx.dev, c->argc > 0 ? c->start : NULL,
				   c->argc > 1 ? c->len : NULL,
				   c->argc > 2 ? c->extra : NULL), 2);
	ck_assert_msg(strstr(res.err, c->err), "stderr lacks '%s': %s",
		      c->err, res.err);
	/* one line, as flashbench's usage errors (issue 9 item 20) */
	ck_assert_msg(!strncmp(res.err, "erase: ", 7) &&
		      count_str(res.err, "\n") == 1, "not one line: %s",
		      res.err);
	/* a usage error names where to read more */
	ck_assert_msg(c->device || strstr(res.err, " (erase --help)\n"),
		      "no --help named: %s", res.err);
	ck_assert_ptr_null(strstr(res.err, "will overwrite"));
	ck_assert_str_eq(res.out, "");
	cmd_result_free(&res);
	ck_assert_uint_eq(region_hash(fx.dev, 0, fx.size_byte), before);
}
END_TEST

/* On a 4K-sector device, 512-byte alignment is not enough. */
START_TEST(test_erase_4k)
{
	struct cmd_result res;
	struct loop_fix fx;

	if (!loop_setup(&fx, "erase_4k", 0, 4096))
		return;
	ck_assert_int_eq(run_erase(&res, fx.dev, "512", "4096", NULL), 2);
	ck_assert_ptr_nonnull(strstr(res.err, "4096 bytes"));
	cmd_result_free(&res);
	ck_assert_int_eq(run_erase(&res, fx.dev, "4096", "1536", NULL), 2);
	cmd_result_free(&res);
	ck_assert_uint_eq(scan(fx.dev, 0, 2 * MiB, SCAN_PLANTED, fx.seed), 0);
	ck_assert_int_eq(run_erase(&res, fx.dev, "4096", "8192", NULL), 0);
	cmd_result_free(&res);
	ck_assert_uint_eq(scan(fx.dev, 4096, 8192, SCAN_ZERO, 0), 0);
	ck_assert_uint_eq(scan(fx.dev, 0, 4096, SCAN_PLANTED, fx.seed), 0);
	ck_assert_uint_eq(scan(fx.dev, 12288, 2 * MiB, SCAN_PLANTED,
			       fx.seed), 0);
}
END_TEST

/* A device someone holds open exclusively: exit 1, nothing erased. */
START_TEST(test_erase_busy)
{
	struct cmd_result res;
	struct loop_fix fx;
	char want[128];
	int fd;

	if (!loop_setup(&fx, "erase_busy", 0, 0))
		return;
	fd = open(fx.dev, O_RDONLY | O_EXCL);
	ck_assert_msg(fd >= 0, "open %s O_EXCL: %s", fx.dev, strerror(errno));
	ck_assert_int_eq(run_erase(&res, fx.dev, "0", "1M", NULL), 1);
	snprintf(want, sizeof(want), "erase: %s: ", fx.dev);
	ck_assert_msg(!strncmp(res.err, want, strlen(want)) &&
		      count_str(res.err, "\n") == 1, "stderr: %s", res.err);
	ck_assert_str_eq(res.out, "");
	cmd_result_free(&res);
	close(fd);
	ck_assert_uint_eq(scan(fx.dev, 0, MiB, SCAN_PLANTED, fx.seed), 0);
}
END_TEST

START_TEST(test_erase_not_a_device)
{
	struct cmd_result res;

	ck_assert_int_eq(run_erase(&res, "/dev/null", "0", "512", NULL), 1);
	ck_assert_str_eq(res.err, "erase: /dev/null: not a block device\n");
	cmd_result_free(&res);
	ck_assert_int_eq(run_erase(&res, "/nonexistent", "0", "512", NULL), 1);
	ck_assert_ptr_nonnull(strstr(res.err, "erase: /nonexistent: "));
	cmd_result_free(&res);
	ck_assert_int_eq(run_erase(&res, "--help", NULL, NULL, NULL), 0);
	ck_assert_ptr_nonnull(strstr(res.out, "Usage:\n erase [options] "));
	ck_assert_ptr_nonnull(strstr(res.out, " -h, --help "));
	ck_assert_ptr_nonnull(strstr(res.out, " -V, --version "));
	cmd_result_free(&res);
	ck_assert_int_eq(run_erase(&res, "--version", NULL, NULL, NULL), 0);
	ck_assert_ptr_nonnull(strstr(res.out, FLASHBENCH_VERSION));
	cmd_result_free(&res);
	ck_assert_int_eq(run_erase(&res, "--bogus", "/dev/null", "0", "1"), 2);
	ck_assert_str_eq(res.err, "erase: unrecognized option '--bogus' (erase --help)\n");
	cmd_result_free(&res);
	/* named erase:, not by its full path, on one line (item 14) */
	ck_assert_int_eq(run_erase(&res, "-x", "/dev/null", "0", "1"), 2);
	ck_assert_str_eq(res.err, "erase: unrecognized option '-x' (erase --help)\n");
	cmd_result_free(&res);
}
END_TEST

Suite *erase_suite(void)
{
	Suite *s = suite_create("erase");
	TCase *tc;

	tc = loop_tcase("file");
	tcase_add_test(tc, test_erase_not_a_device);
	suite_add_tcase(s, tc);

	tc = loop_tcase("erase");
	tcase_add_test(tc, test_erase_range);
	tcase_add_loop_test(tc, test_erase_bad_args, 0,
			    sizeof(erase_bad) / sizeof(erase_bad[0]));
	tcase_add_test(tc, test_erase_4k);
	tcase_add_test(tc, test_erase_busy);
	suite_add_tcase(s, tc);
	return s;
}
