/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The progress line's plan of a test: what I/O calls it will make, as
 * the segments output/progress.h follows.  The line knows no mode; the
 * modes work their plan out here and hand it down.
 */
#ifndef FLASHBENCH_PROGPLAN_H
#define FLASHBENCH_PROGPLAN_H

#include <stddef.h>

#include "bench.h"
#include "dev.h"
#include "progress.h"
#include "test.h"

/*
 * The segments of test t (its row of the table of tests) as it runs on
 * dev with o, into *segs (malloc'd, *nseg of them; NULL and 0 on
 * failure), by its steps operation.  Returns 0 or -errno (-EINVAL for a
 * test that cannot be planned).
 */
int progplan_steps(const struct test *t, const struct bench_opts *o,
		   const struct device *dev, struct progress_seg **segs,
		   size_t *nseg);

/*
 * The steps operations of the rows (test.h): a VM program dry-run on a
 * device that only records the calls, each named by the mode's step
 * (progs_step()); --capacity's and --class's steps from their own plans.
 */
int progplan_vm(const struct test *t, const struct bench_opts *o,
		const struct device *dev, struct progress_seg **segs,
		size_t *nseg);
int progplan_capacity(const struct test *t, const struct bench_opts *o,
		      const struct device *dev, struct progress_seg **segs,
		      size_t *nseg);
int progplan_class(const struct test *t, const struct bench_opts *o,
		   const struct device *dev, struct progress_seg **segs,
		   size_t *nseg);

/*
 * Work out the segments of test t with progplan_steps() and start it on
 * p, named by its option (with no segments if it cannot be planned).
 * Returns 0 or -errno.
 */
int progplan_start(struct progress *p, const struct test *t,
		   const struct bench_opts *o, const struct device *dev);

#endif /* FLASHBENCH_PROGPLAN_H */
