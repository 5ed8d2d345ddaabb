/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The write cache decided from the times of the chunks written in
 * sequence (record/cacherec.h): pure functions of the record, which the
 * probe also asks while it writes, to know when to stop.
 */
#ifndef FLASHBENCH_WRITECACHE_H
#define FLASHBENCH_WRITECACHE_H

#include <stddef.h>
#include <stdint.h>

#include "cacherec.h"

/*
 * The first chunk of the first run of CACHE_RUN chunks in ns[0..n) each
 * slower by CACHE_DROP than the median of those before it (at least
 * least of them); n when there is none.
 */
size_t cache_drop_at(const double *ns, size_t n, size_t least);

/* Every decided field of c from its raw times. */
void auto_cache_decide(struct auto_cache *c);

/* A chunk slower than this (ns) shows the cache full (0: no cache). */
double cache_full_ns(const struct auto_cache *c);

/* Did c see a cache: a drop, or one the recheck found (late)? */
int cache_seen(const struct auto_cache *c);

/*
 * Should the later steps' writes be followed by a recheck: the fill
 * reached the cap with no drop, and none has been seen since.
 */
int cache_recheck_wanted(const struct auto_cache *c);

/*
 * The bytes the fill of c writes at most: its cap, and CACHE_MARGIN_CHUNKS
 * past it, where a cache the size of the cap shows its drop.
 */
uint64_t cache_fill_byte(const struct auto_cache *c);

/* Did the fill of c reach its cap (no drop before it)? */
int cache_cap_reached(const struct auto_cache *c);

/*
 * Is what was measured after the fill of c unsettled: the fill reached
 * its cap with no drop, short of the device's first half, and no
 * recheck saw one since, so a write cache larger than the writes may
 * still have taken every later write?  A class passed then holds only
 * inside such a cache: not a pass (issue 26).
 */
int cache_unsettled(const struct auto_cache *c);

/*
 * Was a rate of mbps measured after the fill of c too fast for the card
 * past its cache: its cache, folded back meanwhile, took those writes
 * again?  A class met so holds only within it: not a pass.
 */
int cache_retaken(const struct auto_cache *c, double mbps);

/* A decided record's rate of a chunk of c taking ns, 10^6 bytes/s. */
double cache_mbps(const struct auto_cache *c, double ns);

/* c's verdict for the record's "write_cache" object. */
void cache_verdict_of(const struct auto_cache *c,
		      struct cache_verdict_rec *v);

#endif /* FLASHBENCH_WRITECACHE_H */
