// SPDX-License-Identifier: GPL-2.0-only
/*
 * base/ranges.c: byte ranges sorted by start, those that overlap or touch
 * merged into one, the rest kept apart.
 */
#include <check.h>
#include <stdint.h>

#include "c.h"
#include "ranges.h"

#define MAXR 6

static const struct {
	const char *what;
	size_t n;
	struct bench_range in[MAXR];
	size_t nout;
	struct bench_range out[MAXR];
} merges[] = {
	{ "none", 0, { { 0, 0 } }, 0, { { 0, 0 } } },
	{ "one", 1, { { 4096, 8192 } }, 1, { { 4096, 8192 } } },
	{ "apart, out of order", 2, { { 100, 200 }, { 0, 50 } },
	  2, { { 0, 50 }, { 100, 200 } } },
	{ "touching", 2, { { 50, 100 }, { 0, 50 } }, 1, { { 0, 100 } } },
	{ "one byte apart", 2, { { 0, 50 }, { 51, 100 } },
	  2, { { 0, 50 }, { 51, 100 } } },
	{ "overlapping", 2, { { 0, 60 }, { 40, 100 } }, 1, { { 0, 100 } } },
	{ "inside another", 2, { { 0, 100 }, { 10, 20 } }, 1, { { 0, 100 } } },
	{ "same start, the longer kept", 3,
	  { { 10, 20 }, { 10, 90 }, { 10, 30 } }, 1, { { 10, 90 } } },
	{ "a chain and one apart", 5,
	  { { 300, 400 }, { 0, 10 }, { 20, 30 }, { 10, 20 }, { 30, 35 } },
	  2, { { 0, 35 }, { 300, 400 } } },
	{ "the last byte of a device", 2,
	  { { UINT64_MAX - 10, UINT64_MAX }, { 0, UINT64_MAX - 10 } },
	  1, { { 0, UINT64_MAX } } },
};

START_TEST(test_merge)
{
	struct bench_range r[MAXR];
	size_t i, n = merges[_i].n;

	for (i = 0; i < n; i++)
		r[i] = merges[_i].in[i];
	n = ranges_merge(r, n);
	ck_assert_msg(n == merges[_i].nout, "%s: %zu ranges, not %zu",
		      merges[_i].what, n, merges[_i].nout);
	for (i = 0; i < n; i++) {
		ck_assert_msg(r[i].start_byte == merges[_i].out[i].start_byte &&
			      r[i].end_byte == merges[_i].out[i].end_byte,
			      "%s: range %zu is [%ju, %ju)", merges[_i].what,
			      i, (uintmax_t)r[i].start_byte,
			      (uintmax_t)r[i].end_byte);
	}
}
END_TEST

Suite *ranges_suite(void)
{
	Suite *s = suite_create("ranges");
	TCase *tc = tcase_create("ranges");

	tcase_add_loop_test(tc, test_merge, 0, (int)ARRAY_SIZE(merges));
	suite_add_tcase(s, tc);
	return s;
}
