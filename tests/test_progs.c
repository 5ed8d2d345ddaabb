// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the writing modes share (modes/progs.c): each announces exactly
 * the byte ranges it then overwrites, and refuses options that would
 * write past the end of the card before any I/O.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cli.h"
#include "modes.h"
#include "progs.h"
#include "recdev.h"
#include "util.h"
#include "wtable.h"

START_TEST(test_write_ranges)
{
	struct bench_range r[8];
	struct bench_opts o;
	uint64_t end;

	bench_opts_default(&o);
	o.erasesize_byte = 4 * MiB;
	o.open_au_nr = 3;
	o.offset_byte = 16 * MiB;
	ck_assert_int_eq(progs_write_ranges(&open_au_prog, &o, 1ULL << 30, r,
					    8), 3);
	ck_assert_uint_eq(r[0].start_byte, 16 * MiB);
	ck_assert_uint_eq(r[0].end_byte, 20 * MiB);
	ck_assert_uint_eq(r[1].start_byte, 64 * MiB);
	ck_assert_uint_eq(r[1].end_byte, 68 * MiB);
	ck_assert_uint_eq(r[2].start_byte, 112 * MiB);
	ck_assert_uint_eq(r[2].end_byte, 116 * MiB);
	/* exactly up to the end is fine, a byte further is not */
	end = 116 * MiB;
	ck_assert_int_eq(progs_write_ranges(&open_au_prog, &o, end, r, 8), 3);
	ck_assert_int_eq(progs_write_ranges(&open_au_prog, &o, end - 512, r,
					    8), -EINVAL);
	/* counting only, and a too-small array */
	ck_assert_int_eq(progs_write_ranges(&open_au_prog, &o, end, NULL, 0),
			 3);
	ck_assert_int_eq(progs_write_ranges(&open_au_prog, &o, end, r, 2),
			 -ENOSPC);

	o.fat_nr = 6;
	ck_assert_int_eq(progs_write_ranges(&find_fat_prog, &o, 1ULL << 30, r,
					    8), 1);
	ck_assert_uint_eq(r[0].start_byte, 0);
	ck_assert_uint_eq(r[0].end_byte, 24 * MiB);
	ck_assert_int_eq(progs_write_ranges(&find_fat_prog, &o, 20 * MiB, r,
					    8), -EINVAL);

	ck_assert_int_eq(progs_write_ranges(&program_prog, &o, 20 * MiB, r,
					    8), 1);
	ck_assert_uint_eq(r[0].start_byte, 16 * MiB);
	ck_assert_uint_eq(r[0].end_byte, 20 * MiB);
	ck_assert_int_eq(progs_write_ranges(&program_prog, &o,
					    20 * MiB - 512, r, 8), -EINVAL);

	/* nonsense options and tests */
	ck_assert_int_eq(progs_write_ranges(&align_prog, &o, 1ULL << 30, r,
					    8), -EINVAL);
	o.open_au_nr = 0;
	ck_assert_int_eq(progs_write_ranges(&open_au_prog, &o, 1ULL << 30, r,
					    8), -EINVAL);
	o.open_au_nr = 2;
	o.offset_byte = UINT64_MAX - MiB;
	ck_assert_int_eq(progs_write_ranges(&open_au_prog, &o, UINT64_MAX, r,
					    8), -EINVAL);
	o.offset_byte = 0;
	o.erasesize_byte = 24 * KiB;	/* not a multiple of 16K blocks */
	ck_assert_int_eq(progs_write_ranges(&find_fat_prog, &o, 1ULL << 30, r,
					    8), -EINVAL);
}
END_TEST

static int cmp_range(const void *a, const void *b)
{
	const struct bench_range *x = a, *y = b;

	if (x->start_byte != y->start_byte)
		return x->start_byte < y->start_byte ? -1 : 1;
	return 0;
}

/* Run test on a recording device; its writes must be exactly ranges. */
static void check_covers(unsigned int test, const struct bench_opts *o)
{
	struct rec_dev *r = rec_open(1ULL << 30);
	struct bench_range want[16], *w;
	size_t i, nw = 0, m = 0;
	int n;

	n = progs_write_ranges(test_of(test)->prog, o, r->dev.size_byte, want,
			       16);
	ck_assert_int_gt(n, 0);
	ck_assert_int_eq(progs_run(&r->dev, test_of(test)->prog, o, NULL, NULL,
				   NULL, 0), 0);
	ck_assert_uint_eq(rec_count(r, REC_DISCARD), 0);
	w = calloc(r->n, sizeof(*w));
	ck_assert_ptr_nonnull(w);
	for (i = 0; i < r->n; i++)
		if (r->log[i].op == REC_WRITE)
			w[nw++] = (struct bench_range){
				r->log[i].off, r->log[i].off + r->log[i].len };
	ck_assert_uint_gt(nw, 0);
	/* merge what was written */
	qsort(w, nw, sizeof(*w), cmp_range);
	for (i = 1; i < nw; i++) {
		if (w[i].start_byte <= w[m].end_byte) {
			if (w[i].end_byte > w[m].end_byte)
				w[m].end_byte = w[i].end_byte;
		} else {
			w[++m] = w[i];
		}
	}
	ck_assert_uint_eq(m + 1, (size_t)n);
	for (i = 0; i < (size_t)n; i++) {
		ck_assert_uint_eq(w[i].start_byte, want[i].start_byte);
		ck_assert_uint_eq(w[i].end_byte, want[i].end_byte);
	}
	free(w);
	dev_close(&r->dev);
}

START_TEST(test_ranges_are_what_is_written)
{
	struct bench_opts o;

	bench_opts_default(&o);
	o.log = NULL;
	o.erasesize_byte = 2 * MiB;
	o.blocksize_byte = 64 * KiB;
	o.open_au_nr = 4;
	o.offset_byte = 16 * MiB;
	check_covers(BENCH_OPEN_AU, &o);
	o.random = 1;
	o.erasesize_byte = 3 * MiB;
	o.offset_byte = 3 * MiB;
	check_covers(BENCH_OPEN_AU, &o);
	o.fat_nr = 3;
	check_covers(BENCH_FIND_FAT, &o);
	o.random = 0;
	check_covers(BENCH_FIND_FAT, &o);
	check_covers(BENCH_PROGRAM, &o);
}
END_TEST

START_TEST(test_refuses_past_end)
{
	struct device *dev = sim_card("size=64M,erase=4M,noise=0");
	struct bench_opts o;
	char err[256];

	bench_opts_default(&o);
	o.log = NULL;
	o.open_au_nr = 2;
	o.offset_byte = 16 * MiB;	/* second AU at 64M: past the end */
	ck_assert_int_eq(progs_run(dev, &open_au_prog, &o, NULL, NULL, err,
				   sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "past the end"));
	o.fat_nr = 17;
	ck_assert_int_eq(find_fat_run(dev, &o, NULL), -EINVAL);
	o.erasesize_byte = 8 * KiB;	/* smaller than 2 blocks */
	ck_assert_int_eq(progs_run(dev, &find_fat_prog, &o, NULL, NULL, err,
				   sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "invalid options for the test");
	ck_assert_uint_eq(dev->io_count, 0);
	dev_close(dev);
}
END_TEST

Suite *progs_suite(void)
{
	Suite *s = suite_create("progs");
	TCase *tc = tcase_create("progs");

	tcase_add_test(tc, test_write_ranges);
	tcase_add_test(tc, test_ranges_are_what_is_written);
	tcase_add_test(tc, test_refuses_past_end);
	suite_add_tcase(s, tc);
	return s;
}
