// SPDX-License-Identifier: GPL-2.0-only
/*
 * The write cache from the times of chunks written in sequence: where
 * the speed dropped, by a ratio against the chunks before (never an
 * absolute time: a card may be fast or slow), how large the cache is,
 * its speed and the native one, and how much of it came back after the
 * card was left idle.  A lone slow chunk is a stall, not a drop: a
 * drop lasts, so it takes a run of slow chunks.
 */
#include <string.h>

#include "stats.h"
#include "writecache.h"

/* The median of ns[from..to), ns left as it is. */
static double median_of(const double *ns, size_t from, size_t to)
{
	double tmp[CACHE_MAX_CHUNKS];
	size_t n = to - from;

	if (n > CACHE_MAX_CHUNKS)
		n = CACHE_MAX_CHUNKS;
	memcpy(tmp, ns + from, n * sizeof(*tmp));
	return stats_median_sort(tmp, n);
}

/* Are ns[d..d+CACHE_RUN) each slower than limit? */
static int slow_run(const double *ns, size_t d, double limit)
{
	size_t k;

	for (k = 0; k < CACHE_RUN; k++)
		if (ns[d + k] <= limit)
			return 0;
	return 1;
}

size_t cache_drop_at(const double *ns, size_t n, size_t least)
{
	double lo = 0;
	size_t d;

	for (d = 0; d + CACHE_RUN <= n; d++) {
		/* the median is never below the least: most d end here */
		if (d >= least && ns[d] > CACHE_DROP * lo &&
		    slow_run(ns, d, CACHE_DROP * median_of(ns, 0, d)))
			return d;
		if (!d || ns[d] < lo)
			lo = ns[d];
	}
	return n;
}

/* How much of a chunk taking t went into the cache: 0 to 1. */
static double cached_part(const struct auto_cache *c, double t)
{
	double f;

	if (c->native_ns <= c->fast_ns)
		return 0;
	f = (c->native_ns - t) / (c->native_ns - c->fast_ns);
	return f < 0 ? 0 : f > 1 ? 1 : f;
}

/*
 * The bytes a run of chunks ns[0..n) took at the fast speed, the run
 * slowing at d (n: it never did): the chunks before d - 1 whole, and of
 * the two around the edge the part their times say.
 */
static uint64_t cached_bytes(const struct auto_cache *c, const double *ns,
			     size_t n, size_t d)
{
	double part = 0;

	if (d >= n)
		return (uint64_t)n * c->chunk_byte;
	if (d)
		part += cached_part(c, ns[d - 1]);
	part += cached_part(c, ns[d]);
	return (uint64_t)(d ? d - 1 : 0) * c->chunk_byte +
	       (uint64_t)(part * (double)c->chunk_byte);
}

/* The refill: how much was fast again after the idle time. */
static void refill_decide(struct auto_cache *c)
{
	size_t d = c->nrefill;
	size_t k;

	/* against the fill's speeds: slow as natively, in a run */
	for (k = 0; k + CACHE_RUN <= c->nrefill; k++)
		if (slow_run(c->refill_ns, k, cache_full_ns(c))) {
			d = k;
			break;
		}
	c->refill_byte = cached_bytes(c, c->refill_ns, c->nrefill, d);
	if (c->refill_byte > c->size_byte)
		c->refill_byte = c->size_byte;
	c->refill_whole = c->refill_byte + c->chunk_byte / 2 >= c->size_byte;
}

/*
 * No drop up to the cap: did the recheck see the speed drop since (a
 * run of late_run of its chunks, at least CACHE_RUN, each slower than
 * the fill's by CACHE_DROP)?
 */
static void late_decide(struct auto_cache *c)
{
	const size_t run = c->late_run > CACHE_RUN ? c->late_run : CACHE_RUN;
	size_t k, slow = 0;

	for (k = 0; k < c->nlate && slow < run; k++)
		slow = c->late_ns[k] > CACHE_DROP * c->fast_ns ? slow + 1 : 0;
	if (slow < run)
		return;
	k -= run;
	c->late = 1;
	c->native_ns = median_of(c->late_ns, k, c->nlate);
	c->size_byte = (uint64_t)c->nchunks * c->chunk_byte;
}

void auto_cache_decide(struct auto_cache *c)
{
	size_t n = c->nchunks, d;

	c->late = 0;
	c->dropped = 0;
	c->drop_at = 0;
	c->size_byte = c->refill_byte = 0;
	c->refill_whole = 0;
	c->fast_ns = c->native_ns = 0;
	if (!c->measured || !n)
		return;
	d = cache_drop_at(c->chunk_ns, n, CACHE_FAST_CHUNKS);
	if (d >= n) {
		c->fast_ns = median_of(c->chunk_ns, 0, n);
		late_decide(c);
		return;
	}
	c->dropped = 1;
	c->drop_at = (unsigned int)d;
	c->fast_ns = median_of(c->chunk_ns, 0, d);
	c->native_ns = median_of(c->chunk_ns, d, n);
	c->size_byte = cached_bytes(c, c->chunk_ns, n, d);
	if (c->idle_ns && c->nrefill)
		refill_decide(c);
}

double cache_full_ns(const struct auto_cache *c)
{
	return cache_seen(c) ? CACHE_DROP * c->fast_ns : 0;
}

int cache_seen(const struct auto_cache *c)
{
	return c->dropped || c->late;
}

uint64_t cache_fill_byte(const struct auto_cache *c)
{
	return c->cap_byte + CACHE_MARGIN_CHUNKS * c->chunk_byte;
}

int cache_cap_reached(const struct auto_cache *c)
{
	return c->nchunks && (uint64_t)c->nchunks * c->chunk_byte >= c->cap_byte;
}

int cache_unsettled(const struct auto_cache *c)
{
	uint64_t end = c->start_byte + (uint64_t)c->nchunks * c->chunk_byte;

	/* the cap reached half the card (--sustained): as far as any goes */
	return c->measured && !cache_seen(c) && cache_cap_reached(c) &&
	       end + c->chunk_byte <= c->dev_half_byte;
}

/*
 * A class's writes faster than this times the card's speed past its
 * cache were taken by the cache again: a fold while the host paused (a
 * busy host's idle is the card's) emptied part of it.  Writes of 64 or
 * 512 KiB into an AU go no faster than the fill's 4 MiB chunks on flash.
 */
#define CACHE_RETAKEN 1.25

int cache_retaken(const struct auto_cache *c, double mbps)
{
	return c->measured && cache_seen(c) && c->native_ns > 0 &&
	       mbps > CACHE_RETAKEN * cache_mbps(c, c->native_ns);
}

int cache_recheck_wanted(const struct auto_cache *c)
{
	return c->measured && !cache_seen(c) && cache_cap_reached(c);
}

double cache_mbps(const struct auto_cache *c, double ns)
{
	return ns > 0 ? (double)c->chunk_byte * 1e3 / ns : 0;
}

void cache_verdict_of(const struct auto_cache *c,
		      struct cache_verdict_rec *v)
{
	memset(v, 0, sizeof(*v));
	if (!cache_seen(c))
		return;
	v->size_byte = c->size_byte;
	v->size_at_least = c->late;
	v->fast_mbps = cache_mbps(c, c->fast_ns);
	v->native_mbps = cache_mbps(c, c->native_ns);
	v->idle_ns = c->nrefill ? c->idle_ns : 0;
	v->refill_byte = c->refill_byte;
	v->refill_whole = c->refill_whole;
}
