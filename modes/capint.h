/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The capacity check's own parts, shared by modes/capacity.c (the search)
 * and modes/capgeo.c (geometry and signatures); not for use elsewhere.
 */
#ifndef FLASHBENCH_CAPINT_H
#define FLASHBENCH_CAPINT_H

#include <stddef.h>
#include <stdint.h>

#include "capacity.h"

#define CAP_BLOCK	CAPACITY_BLOCK
#define CAP_SECTOR	CAPACITY_SECTOR
#define CAP_GRID	256ULL		/* coarse probe positions */
#define CAP_SPLIT_FIRST	8U		/* probes in round 1 */
#define CAP_SPLIT	32U		/* probes in a later round, at most */
#define CAP_PROBE_COST	(4ULL << 20)	/* a probe costs about as much as
					 * flushing this */
#define CAP_STEP	CAPACITY_STEP
#define CAP_FINE	16ULL		/* fine steps per coarse one, at most */
#define CAP_REL		128ULL		/* a fine step: at most 1/128
					 * of where it starts */
#define CAP_CHUNK	(1ULL << 20)	/* the top chunk, at most */
#define CAP_FLUSH_FIRST	(32ULL << 20)	/* flushed in round 1 at least */
#define CAP_FLUSH_MAX	(256ULL << 20)	/* largest cache defeated */
#define CAP_FLUSH_PARTS	32ULL		/* the first flush in parts */
#define CAP_MIN_SIZE	(16ULL << 20)	/* smallest device checked */
#define CAP_NONE	UINT64_MAX	/* no write lost yet */
#define CAP_WITNESSES	8U		/* aliases kept to check a modulus */
#define CAP_DIVISORS	8192U		/* of a sector count below 2^40 */
#define CAP_WORDS	(CAP_SECTOR / 8)
#define CAP_MAGIC	0x4643415041434954ULL	/* "FCAPACIT" */

/* Where the check may write on a device of size bytes. */
struct cap_geo {
	uint64_t size;		/* announced size S */
	uint64_t flush;		/* W: the flush region is [W, 2W) */
	uint64_t first;		/* flushed in round 1: min(W, 32 MiB) */
	uint64_t grid;		/* S / 256, in whole blocks */
	uint64_t chunk;		/* the top chunk [S - chunk, S) */
	unsigned int lo0;	/* coarse probes 1..lo0 lie in or below the
				 * flush region */
};

/* The geometry of a device of size bytes; 0 or -EINVAL (too small). */
int cap_geo_init(struct cap_geo *g, uint64_t size, uint64_t flush_byte);

/* The end of coarse probe k (1..256). */
uint64_t cap_end(const struct cap_geo *g, unsigned int k);

/* The fine step between coarse probes k - 1 and k. */
uint64_t cap_step(const struct cap_geo *g, unsigned int k);

/* Every probe's end, ascending, into pos (max of them); how many. */
size_t cap_positions(const struct cap_geo *g, uint64_t *pos, size_t max);

/* A finalizer of splitmix64: spreads x over 64 bits. */
uint64_t cap_mix(uint64_t x);

/* Fill buf (len bytes, for offset off) with sectors of ours, key. */
void cap_sign(unsigned char *buf, uint64_t len, uint64_t off, uint64_t key);

/* Is sec a sector of ours (key)?  1 with the offset it names in *named. */
int cap_ours(const unsigned char *sec, uint64_t key, uint64_t *named);

#endif /* FLASHBENCH_CAPINT_H */
