// SPDX-License-Identifier: GPL-2.0-only
/*
 * --auto --destructive's write-cache step, the first write step (see
 * record/cacherec.h; the writing is modes/wcache.c's): its one range
 * announced before the first write, the chunks until the speed drops or
 * the cap (--cache-cap, or the device's first half with --sustained),
 * the refill after idle, and the top-ups before the later steps.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "probe.h"
#include "ranges.h"
#include "wcache.h"
#include "writecache.h"

int auto_probe_cache(struct device *dev, const struct bench_opts *o,
		     const struct auto_hooks *h, struct auto_result *r)
{
	struct auto_cache *c = &r->cache;
	struct bench_range rg;
	uint64_t t0 = dev_now_ns(dev);
	int ret;

	auto_latency_step(dev, LAT_STEP_CACHE);
	if (!wcache_place(wcache_cap(o, dev->size_byte), dev->size_byte,
			  r->align.erase.size_byte, c))
		return 0;
	rg.start_byte = c->start_byte;
	rg.end_byte = c->start_byte + cache_fill_byte(c);
	ret = auto_announce(h, &rg, 1);
	if (ret)
		return ret;
	auto_say(h, "auto: %s\n", "write cache (writes)");
	ret = wcache_fill(dev, h ? h->stop : NULL, c);
	if (!ret && !(h && h->stop && *h->stop))
		ret = wcache_refill(dev, c);
	r->step_ns[AUTO_STEP_CACHE] = dev_now_ns(dev) - t0;
	return ret;
}

int auto_cache_topup(struct device *dev, struct auto_result *r)
{
	enum lat_step was = auto_latency_step(dev, LAT_STEP_CACHE);
	uint64_t t0 = dev_now_ns(dev);
	int ret = wcache_topup(dev, &r->cache, r->align.erase.size_byte);

	r->step_ns[AUTO_STEP_CACHE] += dev_now_ns(dev) - t0;
	auto_latency_step(dev, was);
	return ret;
}

/*
 * Slow chunks in a row that say a cache filled, not a card closing the
 * AUs the steps left open (one per chunk at least): the open AUs the
 * searches found, in both orders; before them, as many as they look for.
 */
static unsigned int recheck_run(const struct auto_result *r)
{
	unsigned int open = r->open_linear.measured ?
			    r->open_linear.nr + r->open_random.nr :
			    AUTO_MAX_NR;

	return CACHE_RUN + open;
}

int auto_cache_recheck(struct device *dev, const struct auto_hooks *h,
		       struct auto_result *r, enum cache_at at)
{
	uint64_t t0 = dev_now_ns(dev);
	enum lat_step was;
	int ret;

	if (!cache_recheck_wanted(&r->cache))
		return 0;
	auto_say(h, "auto: %s\n", "write cache filled meanwhile? (writes)");
	r->cache.recheck_at = at;
	was = auto_latency_step(dev, LAT_STEP_CACHE);
	ret = wcache_recheck(dev, &r->cache, recheck_run(r));
	auto_latency_step(dev, was);
	r->step_ns[AUTO_STEP_CACHE] += dev_now_ns(dev) - t0;
	return ret ? ret : r->cache.late;
}

/*
 * Were the write steps' answers what a write cache larger than the cap
 * would show?  The cache step reached its own cap (the default: the
 * user set none) short of half the card with no drop, and an open-AU
 * search held up to as many AUs as it looks for, in order or out of
 * order (no block-mapped card keeps more AUs open out of order than in
 * order: a collapse in order below it is a pause's), its small and
 * unaligned writes, where measured, costing by their bytes alone (no
 * mapping unit): a block-mapped card behind a cache looks so until the
 * cache is full (a page-mapped card shows its unit, unless no larger
 * than the sector).  Today's sweep cards 56 and 95, second noise draw:
 * a pause read as a collapse in order at 9 and 4 AUs, none out of order.
 */
static int push_wanted(const struct bench_opts *o,
		       const struct auto_result *r)
{
	const struct auto_open *l = &r->open_linear, *n = &r->open_random;

	return !o->cache_cap_byte && !o->sustained &&
	       cache_unsettled(&r->cache) && l->measured &&
	       (l->at_least || (n->measured && n->at_least)) &&
	       (!r->mapping.measured ||
		!auto_mapping_unit_shown(&r->mapping));
}

int auto_cache_push(struct device *dev, const struct bench_opts *o,
		    const struct auto_hooks *h, struct auto_result *r)
{
	uint64_t t0 = dev_now_ns(dev);
	enum lat_step was;
	int ret;

	if (!push_wanted(o, r))
		return 0;
	auto_say(h, "auto: %s\n", "write cache larger than the cap? (writes)");
	was = auto_latency_step(dev, LAT_STEP_CACHE);
	ret = wcache_push(dev, &r->cache, r->cache.nchunks);
	auto_latency_step(dev, was);
	r->step_ns[AUTO_STEP_CACHE] += dev_now_ns(dev) - t0;
	return ret;
}

int auto_announce_past(const struct auto_hooks *h,
		       const struct auto_result *r,
		       const struct bench_range *ranges, int n, int recheck)
{
	struct bench_range *all = malloc(((size_t)n + 1) * sizeof(*all));
	int ret;

	if (!all)
		return -ENOMEM;
	memcpy(all, ranges, (size_t)n * sizeof(*all));
	if (wcache_later_range(&r->cache, recheck, &all[n]))	/* merged */
		n = (int)ranges_merge(all, (size_t)n + 1);
	ret = auto_announce(h, all, n);
	free(all);
	return ret;
}
