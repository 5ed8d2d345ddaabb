/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The write latency of a run (--auto --destructive, issue 26): every
 * single write up to 512 KiB its steps made, timed, summed up as the
 * longest (where, and in which step) and the 99th percentile and counted
 * against the SD specification's limits, 250 ms for one write and 750 ms
 * for a file-system update.  A logger or a camera drops data on exactly
 * those writes.  Its tables of fields:
 * the raw step ("results", "write_latency") and the verdict's object
 * ("verdict"."write_latency").
 */
#ifndef FLASHBENCH_LATREC_H
#define FLASHBENCH_LATREC_H

#include <stdint.h>

#include "rectab.h"

#define LAT_WRITE_NS	250000000ULL	/* SD: one write, at most */
#define LAT_UPDATE_NS	750000000ULL	/* SD: a file-system update */
#define LAT_MAX_BYTE	(512ULL << 10)	/* writes timed: up to the SD
					   recording unit of UHS and video */

/*
 * The step of the run a write was made in: the steps that force AU
 * copies on purpose (the erase search, the open-AU searches, the FAT
 * probe) pay long writes of their own doing.
 */
enum lat_step {
	LAT_STEP_NONE,			/* not known (an older record) */
	LAT_STEP_CACHE,			/* the write cache, its top-ups */
	LAT_STEP_ERASE,			/* the erase search from writes */
	LAT_STEP_OPEN_LINEAR,		/* the open-AU search, in order */
	LAT_STEP_OPEN_RANDOM,		/* and out of order */
	LAT_STEP_MAPPING,		/* the mapping unit probe */
	LAT_STEP_FAT,			/* the FAT area probe */
	LAT_STEP_CAPACITY,		/* the capacity check */
	LAT_STEP_CLASS,			/* the class check */
	LAT_STEPS
};

struct auto_latency {
	int measured;			/* 0: no writes timed */
	uint64_t writes;		/* single writes timed */
	uint64_t max_ns;		/* the longest */
	uint64_t max_off_byte;		/* where it went */
	uint64_t max_len_byte;		/* and its size */
	enum lat_step max_step;		/* the step it was made in */
	uint64_t p99_ns;		/* 99 % of the writes took no longer */
	uint64_t over_write;		/* writes over LAT_WRITE_NS */
	uint64_t over_update;		/* writes over LAT_UPDATE_NS */
};

/* Whether a step forces AU copies on purpose: its long writes are its own. */
int lat_step_copies(enum lat_step s);

/* The raw step, over struct auto_latency. */
extern const struct rt_table auto_latency_step_table;
/* The verdict's object: the same fields. */
extern const struct rt_table latency_verdict_table;

#endif /* FLASHBENCH_LATREC_H */
