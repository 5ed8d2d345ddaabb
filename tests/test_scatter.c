// SPDX-License-Identifier: GPL-2.0-only
/*
 * The scatter test (-s, modes/scatter.c): it reads each position once per
 * round, and refuses a span larger than the card before any I/O.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "bench.h"
#include "recdev.h"
#include "util.h"

/* Scatter reads each of 2^N positions exactly once per round. */
START_TEST(test_scatter_visits_once)
{
	const unsigned int order = _i;
	const uint64_t n = 1ULL << order;
	struct rec_dev *r = rec_open((n + 1) * 512);
	struct bench_opts o;
	struct scatter_point *pts;
	size_t npts, i, bad = 0;
	uint32_t *hits = calloc(n + 1, sizeof(*hits));

	ck_assert_ptr_nonnull(hits);
	bench_opts_default(&o);
	o.blocksize_byte = 512;
	o.scatter_order = order;
	o.scatter_span = 2;
	o.count = 1;
	ck_assert_int_eq(bench_scatter(&r->dev, &o, &pts, &npts), 0);
	ck_assert_uint_eq(npts, n);
	ck_assert_uint_eq(rec_count(r, REC_READ), r->n);	/* reads only */
	for (i = 0; i < r->n; i++)
		hits[r->log[i].off / 512]++;
	for (i = 0; i < n; i++)
		bad += hits[i] != 1 || pts[i].off_byte != i * 512 ||
		       pts[i].time_ns != REC_READ_NS(1024);
	ck_assert_uint_eq(bad, 0);
	ck_assert_uint_eq(hits[n], 0);
	free(hits);
	free(pts);
	dev_close(&r->dev);
}
END_TEST

/* A scatter that would reach past the end is refused before any read. */
START_TEST(test_scatter_too_big)
{
	struct rec_dev *r = rec_open(64 * 512);
	struct bench_opts o;
	struct scatter_point *pts;
	size_t npts;

	bench_opts_default(&o);
	o.blocksize_byte = 512;
	o.scatter_order = 6;
	o.scatter_span = 2;	/* 65 blocks: one too many */
	ck_assert_int_eq(bench_scatter(&r->dev, &o, &pts, &npts), -EINVAL);
	ck_assert_uint_eq(r->dev.io_count, 0);
	dev_close(&r->dev);
}
END_TEST

Suite *scatter_suite(void)
{
	Suite *s = suite_create("scatter");
	TCase *tc = tcase_create("scatter");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_scatter_visits_once, 1, 21);
	tcase_add_test(tc, test_scatter_too_big);
	suite_add_tcase(s, tc);
	return s;
}
