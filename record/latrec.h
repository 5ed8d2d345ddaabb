/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The write latency of a run (--auto --destructive, issue 26): every
 * single write up to 512 KiB its steps made, timed, summed up as the longest and the
 * 99th percentile and counted against the SD specification's limits,
 * 250 ms for one write and 750 ms for a file-system update.  A logger or
 * a camera drops data on exactly those writes.  Its tables of fields:
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

struct auto_latency {
	int measured;			/* 0: no writes timed */
	uint64_t writes;		/* single writes timed */
	uint64_t max_ns;		/* the longest */
	uint64_t max_off_byte;		/* where it went */
	uint64_t max_len_byte;		/* and its size */
	uint64_t p99_ns;		/* 99 % of the writes took no longer */
	uint64_t over_write;		/* writes over LAT_WRITE_NS */
	uint64_t over_update;		/* writes over LAT_UPDATE_NS */
};

/* The raw step, over struct auto_latency. */
extern const struct rt_table auto_latency_step_table;
/* The verdict's object: the same fields. */
extern const struct rt_table latency_verdict_table;

#endif /* FLASHBENCH_LATREC_H */
