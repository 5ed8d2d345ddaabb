/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Writing past a write cache (modes/wcache.c): the chunks in sequence
 * until the speed drops, the refill after idle, the top-up before a
 * later measurement.  For --auto's write-cache step and for -L.
 */
#ifndef FLASHBENCH_WCACHE_H
#define FLASHBENCH_WCACHE_H

#include <signal.h>
#include <stdint.h>

#include "bench.h"
#include "cacherec.h"
#include "dev.h"
#include "opts.h"

/*
 * The cap o asks for on a device of dev_byte bytes: with --sustained
 * the whole device (wcache_place() keeps to its first half), else
 * --cache-cap (0: the default).
 */
static inline uint64_t wcache_cap(const struct bench_opts *o,
				  uint64_t dev_byte)
{
	return o->sustained ? dev_byte : o->cache_cap_byte;
}

/*
 * Where the chunks go on a device of dev_byte bytes: a cache of cap
 * bytes at most looked for (0: the default, 1/64 of the device, at least
 * CACHE_CAP_BYTE), CACHE_MARGIN_CHUNKS written past it, within the first
 * half of the device, from 128 MiB or past the first 8 AUs of
 * au_byte (0: not known, the largest a card of the size has), where a
 * FAT area may be; c's start_byte,
 * chunk_byte, cap_byte.  Returns 0 when the device is too small for it.
 */
int wcache_place(uint64_t cap, uint64_t dev_byte, uint64_t au_byte,
		 struct auto_cache *c);

/*
 * Chunks until the speed dropped and CACHE_NATIVE_CHUNKS past it, or
 * the cap and CACHE_MARGIN_CHUNKS past it, or *stop (may be NULL); c
 * decided.  0 or -errno.
 */
int wcache_fill(struct device *dev, const volatile sig_atomic_t *stop,
		struct auto_cache *c);

/*
 * Where c dropped: the card left idle CACHE_IDLE_NS, then chunks from
 * the start again until they are as slow as natively (at most the
 * cache's size and a run more); c decided.  0 or -errno.
 */
int wcache_refill(struct device *dev, struct auto_cache *c);

/*
 * Where c dropped: chunks from the first AU boundary (erase bytes; 0:
 * not known) until one is as slow as natively, then to an AU's end.
 * 0 or -errno.
 */
int wcache_topup(struct device *dev, struct auto_cache *c, uint64_t erase);

/*
 * Where c reached its cap with no drop: a few chunks from the start
 * again, until a run of run of them (CACHE_RUN at least: more where the
 * card may have AUs open to close, each at a copy's cost) is slower
 * than the fill's by CACHE_DROP (a cache larger than the cap filled
 * since: c->late) or CACHE_LATE_FAST are not; c decided.  0 or -errno.
 */
int wcache_recheck(struct device *dev, struct auto_cache *c,
		   unsigned int run);

/*
 * Where c reached its cap with no drop and the later steps read what a
 * cache would show: the chunks of a recheck written again and again, at
 * most most of them, until a run of CACHE_RUN is slower than the fill's
 * by CACHE_DROP (a cache larger than the cap, full now: the recheck
 * that follows says so); their bytes count as top-ups.  0 or -errno.
 */
int wcache_push(struct device *dev, struct auto_cache *c, size_t most);

/*
 * The bytes the top-ups of c, and its recheck where recheck, may still
 * write, into *rg: what a later phase announces besides its own, so that
 * --preserve saves them in that phase too.  Returns 0 where they write
 * nothing.
 */
int wcache_later_range(const struct auto_cache *c, int recheck,
		       struct bench_range *rg);

#endif /* FLASHBENCH_WCACHE_H */
