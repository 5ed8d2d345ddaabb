/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The write-cache step's record (--auto --destructive, issue 26): what
 * the writes in sequence saw (the raw times of each chunk), what is
 * decided from them (verdict/cache.c), and its tables of fields: the
 * raw step ("results", "write_cache") and the verdict's object
 * ("verdict"."write_cache").
 *
 * Today's cards write into a pseudo-SLC cache several times faster than
 * their native flash until it holds some hundred MiB to a few GiB, then
 * drop to the native speed; idle, they fold it back.  The step writes
 * chunks in sequence until the speed drops (a run of chunks slower than
 * those before by a ratio: never an absolute time) or a cap is reached
 * and a few chunks past it (a cache the size of the cap drops there),
 * writes a few chunks more to know the native speed, and, where it saw
 * a drop, leaves the card idle a while and writes again to see how much
 * of the cache came back.  The later steps write a chunk or more first
 * (a top-up) so that the cache is full before they time anything.
 *
 * Where the cap came first, a cache larger than the cap may still fill
 * while the later steps write, and their answers would be the cache's:
 * so after them a few chunks are written again from the start (a
 * recheck).  Slow ones in a run say a cache filled meanwhile ("late"):
 * the steps are made again, past it.  A run long enough that it is no
 * card closing the AUs the steps left open (each closed at the cost of
 * a copy as a chunk opens one): on a card with no cache the chunks are
 * fast again once they are closed.
 */
#ifndef FLASHBENCH_CACHEREC_H
#define FLASHBENCH_CACHEREC_H

#include <stddef.h>
#include <stdint.h>

#include "rectab.h"

#define CACHE_CHUNK_BYTE	(4ULL << 20)	/* the least chunk */
#define CACHE_CAP_CHUNKS	512	/* chunks of the cap at most */
#define CACHE_MARGIN_CHUNKS	5	/* written past the cap: a cache the
					   size of the cap drops there */
#define CACHE_MAX_CHUNKS	(CACHE_CAP_CHUNKS + CACHE_MARGIN_CHUNKS)
					/* chunks of the fill at most */
#define CACHE_REFILL_CHUNKS	256	/* chunks of the refill at most */
#define CACHE_CAP_BYTE		(512ULL << 20)	/* the default cap, at
						   least (else 1/64 of the
						   device) */
#define CACHE_FAST_CHUNKS	4	/* chunks before a drop, at least */
#define CACHE_RUN		3	/* slower chunks in a row: a drop */
#define CACHE_NATIVE_CHUNKS	5	/* chunks past the drop, measured */
#define CACHE_DROP		1.5	/* slower than the fast ones by this */
#define CACHE_IDLE_NS		10000000000ULL	/* idle before the refill */
#define CACHE_LATE_CHUNKS	24	/* a recheck's chunks at most */
#define CACHE_LATE_FAST		2	/* fast ones that end a recheck */

/* Where the last recheck was made: after which steps' writes. */
enum cache_at {
	CACHE_AT_NONE,
	CACHE_AT_ERASE,		/* the erase search from writes */
	CACHE_AT_PROBES,	/* the open-AU searches, the FAT probe */
	CACHE_AT_CLASS,		/* all of them and the capacity check,
				   before the class check */
};

struct auto_cache {
	int measured;			/* 0: not run */
	uint64_t start_byte;		/* the chunks are written from here */
	uint64_t cap_byte;		/* the largest cache looked for: the
					   chunks go CACHE_MARGIN_CHUNKS
					   past it at most */
	uint64_t dev_half_byte;		/* the most any cap could reach */
	uint64_t chunk_byte;		/* each write */
	size_t nchunks;			/* chunks written */
	double chunk_ns[CACHE_MAX_CHUNKS]; /* each one's time */
	uint64_t idle_ns;		/* idle before the refill (0: none) */
	size_t nrefill;			/* refill chunks written (from
					   start_byte again) */
	double refill_ns[CACHE_REFILL_CHUNKS];
	uint64_t topup_byte;		/* written before later steps */
	unsigned int topups;		/* in so many top-ups */
	unsigned int rechecks;		/* rechecks made */
	enum cache_at recheck_at;	/* the last one's place */
	unsigned int late_run;		/* slow chunks in a row it took to
					   say a cache filled (AUs the card
					   may have left open close first) */
	size_t nlate;			/* the last one's chunks (from
					   start_byte again) */
	double late_ns[CACHE_LATE_CHUNKS];
	/* decided (verdict/cache.c): */
	int dropped;			/* the speed dropped: a cache */
	unsigned int drop_at;		/* the first chunk of the slow run */
	uint64_t size_byte;		/* what it took at the fast speed */
	double fast_ns, native_ns;	/* a chunk's median time before and
					   after the drop (fast_ns: of all,
					   where none) */
	uint64_t refill_byte;		/* fast again after idle_ns */
	int refill_whole;		/* all of it came back */
	int late;			/* no drop up to the cap, but the
					   recheck saw one: a cache larger
					   than the cap (size_byte: the cap
					   written, at least) */
};

/* The verdict's "write_cache" object, from a decided struct auto_cache. */
struct cache_verdict_rec {
	uint64_t size_byte;
	int size_at_least;		/* larger than size_byte (late) */
	double fast_mbps, native_mbps;	/* 10^6 bytes/s */
	uint64_t idle_ns;		/* the refill's idle (0: none) */
	uint64_t refill_byte;
	int refill_whole;
};

extern const struct rt_table cache_verdict_table;
/* The raw step, over struct auto_result (its cache, its device time). */
extern const struct rt_table auto_cache_step_table;

#endif /* FLASHBENCH_CACHEREC_H */
