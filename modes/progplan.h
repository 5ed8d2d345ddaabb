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
#include "modes.h"
#include "progress.h"

/*
 * The segments of mode m (its row of the table of modes, passed down by
 * the caller) as it runs on dev with o, into *segs (malloc'd, *nseg of
 * them; NULL and 0 on failure): a VM program dry-run on a device that
 * only records the calls, each named by the mode's step (progs_step());
 * --capacity's and --class's steps from their own plans.  Returns 0 or
 * -errno (-EINVAL for a test that cannot be planned).
 */
int progplan_steps(const struct mode *m, const struct bench_opts *o,
		   const struct device *dev, struct progress_seg **segs,
		   size_t *nseg);

/*
 * Work out the segments of mode m with progplan_steps() and start it on
 * p, named by its option (with no segments if it cannot be planned).
 * Returns 0 or -errno.
 */
int progplan_start(struct progress *p, const struct mode *m,
		   const struct bench_opts *o, const struct device *dev);

#endif /* FLASHBENCH_PROGPLAN_H */
