/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * --capacity: is all of the card there?  A search for the highest offset
 * that really stores data, through blocks that name their own offset and
 * a per-run key, with a write cache defeated between writing and reading
 * back.  See capacity.c for the procedure and the blocks it may write.
 */
#ifndef FLASHBENCH_CAPACITY_H
#define FLASHBENCH_CAPACITY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bench.h"
#include "caprec.h"
#include "captext.h"
#include "capverdict.h"
#include "dev.h"

/*
 * --flush (bench_opts.flush_byte): the flush region [W, 2W) is that long
 * (0: 1/128 of the device, at most 256 MiB), at most
 * capacity_flush_most() of the device.
 */
uint64_t capacity_flush_most(uint64_t dev_size);

/* Run the check on dev.  Returns 0 or -errno (-EINVAL: too small). */
int capacity_measure(struct device *dev, const struct bench_opts *o,
		     struct capacity_result *r);

/* The ranges it may overwrite, as the row's plan (test.h). */
int capacity_write_ranges(enum bench_test test, const struct bench_opts *o,
			  uint64_t dev_size, struct bench_range *ranges,
			  size_t max);

/*
 * The flush region on a device of dev_size bytes with --flush=flush_byte
 * (0: the check's own): [*start, *end), what the check writes to push
 * its probes out of a write cache.  0 or -EINVAL (too small).
 */
int capacity_flush_region(uint64_t dev_size, uint64_t flush_byte,
			  uint64_t *start, uint64_t *end);

#endif /* FLASHBENCH_CAPACITY_H */
