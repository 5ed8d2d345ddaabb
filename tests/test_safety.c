// SPDX-License-Identifier: GPL-2.0-only
/*
 * --preserve through the front end (front/safety.c): a simulated card
 * holds nothing to save, and a writing test that fails half way leaves
 * a device as it was, or a journal that --restore finishes with; what
 * it saved and restored is said without -v.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fault.h"
#include "flashbench.h"
#include "util.h"

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
	static const char said[] = "flashbench: --preserve: the simulated card holds no data; nothing saved\n";
	struct fb_run plain, kept;
	char *p;

	fb_run("-O --simulate=size=128M", &plain);
	ck_assert_int_eq(plain.status, 0);
	fb_run("-O --preserve --journal=/nonexistent/dir/sim.journal "
	       "--simulate=size=128M", &kept);
	ck_assert_msg(kept.status == 0, "status %d: %s", kept.status,
		      kept.err);
	ck_assert_str_eq(kept.out, plain.out);
	/* the same, but one line, without -v, that nothing was saved
	 * (issue 27 item 17) */
	p = strstr(kept.err, said);
	ck_assert_ptr_nonnull(p);
	memmove(p, p + strlen(said), strlen(p + strlen(said)) + 1);
	ck_assert_str_eq(kept.err, plain.err);
	fb_free(&kept);
	fb_run("-O --preserve -v --simulate=size=128M", &kept);
	ck_assert_int_eq(kept.status, 0);
	ck_assert_ptr_nonnull(strstr(kept.err, "flashbench: --preserve: the simulated card holds no data; nothing saved\n"));
	ck_assert_int_ne(access("flashbench-simulated_card.journal", F_OK), 0);
	fb_free(&kept);
	fb_free(&plain);
}
END_TEST

/*
 * With --preserve, a writing test that fails half way still leaves the
 * device (a regular file here) as it was, and removes its journal: the
 * write that failed changed nothing, so the restore finds its blocks as
 * saved and leaves them alone (writing them again would fail again).
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
	fault_plan_init(&fb_fault_plan);
	fb_fault_plan.eio_kinds = FAULT_WRITE;
	/* inside what each writes: -O from 16M, -f from 0, -p 16M-20M */
	fb_fault_plan.eio_byte = _i == 1 ? 1 << 20 : (16 << 20) + (512 << 10);
	flashbench_open_hook = fb_fault_hook;
	fb_run(args, &r);
	flashbench_open_hook = NULL;
	ck_assert_msg(r.status == 1, "%s: %d %s", args, r.status, r.err);
	ck_assert_ptr_nonnull(strstr(r.err, "write of "));
	check_width(args, r.err_raw);	/* (issue 27 item 14) */
	ck_assert_ptr_null(strstr(r.err, "--restore="));
	ck_assert_uint_eq(image_sum(img), sum);
	ck_assert_int_ne(access(journal, F_OK), 0);
	unlink(img);
	fb_free(&r);
}
END_TEST

/*
 * Without -v, --preserve says in one line each where it saved what a
 * run will overwrite and that it put it back (issue 27 item 17: it said
 * nothing of either); the device holds what it held.
 */
START_TEST(test_preserve_said)
{
	char img[] = "/dev/shm/flashbench-said-XXXXXX", args[512], want[512];
	char journal[64];
	uint64_t sum;
	struct fb_run r;
	int fd = mkstemp(img);

	ck_assert_int_ge(fd, 0);
	close(fd);
	sum = make_image(img, 32 << 20);
	snprintf(journal, sizeof(journal), "%s.journal", img);
	snprintf(args, sizeof(args), "-p --preserve --journal=%s %s", journal,
		 img);
	fb_run(args, &r);
	ck_assert_msg(r.status == 0, "%s: %d %s", args, r.status, r.err);
	snprintf(want, sizeof(want),
		 "flashbench: --preserve: saved what will be overwritten in %s\n",
		 journal);
	ck_assert_msg(count_str(r.err, want) == 1, "%s", r.err);
	snprintf(want, sizeof(want),
		 "flashbench: --preserve: restored what the tests overwrote on %s\n",
		 img);
	ck_assert_msg(count_str(r.err, want) == 1, "%s", r.err);
	/* the saving comes first, and no more is said of it than that */
	ck_assert(strstr(r.err, "saved what") < strstr(r.err, "restored what"));
	ck_assert_uint_eq(count_str(r.err, "--preserve"), 2);
	ck_assert_uint_eq(image_sum(img), sum);
	ck_assert_int_ne(access(journal, F_OK), 0);
	unlink(img);
	fb_free(&r);
}
END_TEST

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

Suite *safety_suite(void)
{
	Suite *s = suite_create("safety");
	TCase *tc = tcase_create("safety");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_eio_preserve, 0, 3);
	tcase_add_test(tc, test_preserve_simulated);
	tcase_add_test(tc, test_preserve_said);
	suite_add_tcase(s, tc);
	return s;
}
