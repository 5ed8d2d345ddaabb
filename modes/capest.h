/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * How long --capacity will take, said before its first write: a short
 * timing of the device (a flush part and four to eight blocks far apart
 * read, then written back as read, in ranges the check overwrites
 * anyway) and the check's plan on a device of that size.
 */
#ifndef FLASHBENCH_CAPEST_H
#define FLASHBENCH_CAPEST_H

#include <stdint.h>
#include <stdio.h>

#include "caprec.h"
#include "dev.h"

/*
 * Time dev and estimate the check with --flush=flush_byte (0: its own
 * flush) (0 or -errno).  Its writes put back what was read, at the last
 * block and the start of the flush region.
 */
int capacity_estimate(struct device *dev, uint64_t flush_byte,
		      struct capacity_estimate *e);

/* A step of the check's plan on a genuine card: n_io calls of io_byte. */
struct capacity_step {
	uint64_t n_io;
	uint64_t io_byte;
	const char *label;
};

#define CAPACITY_STEPS	9	/* steps in the plan */

/*
 * The plan on a device of size bytes, for the progress line: the count
 * (0: too small).
 */
size_t capacity_plan_steps(uint64_t size, uint64_t flush_byte,
			   struct capacity_step st[CAPACITY_STEPS]);

/* One line on err: the estimate, the save and write-back with save. */
void capacity_estimate_print(FILE *err, const struct capacity_estimate *e,
			     int save);

#endif /* FLASHBENCH_CAPEST_H */
