// SPDX-License-Identifier: GPL-2.0-only
/*
 * --auto as a whole: the steps in their order, each procedure filling its
 * part of the record, the hand-off to the capacity check, and at the end
 * the verdict: auto_decide() over the record (verdict/auto.c).  Then, as
 * the front end runs it (auto_run_all()), the class check.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "capacity.h"
#include "probe.h"
#include "wcache.h"
#include "writecache.h"

/*
 * The ranges the capacity check overwrites (its own phase: --capacity's,
 * from the device size alone), malloc'd in *rg.  Returns how many, 0
 * (*rg NULL) when the device is too small for it, or -errno.
 */
static int capacity_ranges(const struct bench_opts *o, uint64_t dev_byte,
			   struct bench_range **rg)
{
	int n;

	*rg = NULL;
	n = capacity_write_ranges(BENCH_CAPACITY, o, dev_byte, NULL, 0);
	if (n < 0)
		return 0;
	*rg = malloc((size_t)n * sizeof(**rg));
	if (!*rg)
		return -ENOMEM;
	return capacity_write_ranges(BENCH_CAPACITY, o, dev_byte, *rg,
				     (size_t)n);
}

/*
 * The last write step of auto_run(): is all of the card there?  A device
 * too small for it skips it.  Returns 0 or -errno.
 */
static int auto_capacity(struct device *dev, const struct bench_opts *o,
			 const struct auto_hooks *h, struct auto_result *r)
{
	struct bench_range *rg;
	int n, ret;

	n = capacity_ranges(o, dev->size_byte, &rg);
	if (!rg)
		return n;
	ret = n < 0 ? n : auto_announce(h, rg, n);
	free(rg);
	if (ret)
		return ret;
	auto_say(h, "auto: %s\n", "capacity check (writes)");
	auto_latency_step(dev, LAT_STEP_CAPACITY);
	ret = capacity_measure(dev, o, &r->capacity);
	r->capacity_done = !ret;
	return ret;
}

/*
 * On a card the open-AU searches read as page-mapped, what a small or
 * unaligned write costs (probes/mapping.c), in the probe AUs they wrote.
 * Returns 0 or -errno.
 */
static int auto_probe_unit(struct device *dev, uint64_t erase,
			   const struct auto_hooks *h, struct auto_result *r)
{
	uint64_t t1 = dev_now_ns(dev);
	int ret;

	if (!auto_mapping_unit_wanted(r))
		return 0;
	auto_say(h, "auto: %s\n", "mapping unit, small and unaligned writes (writes)");
	auto_latency_step(dev, LAT_STEP_MAPPING);
	ret = auto_probe_mapping(dev, erase, &r->mapping);
	r->step_ns[AUTO_STEP_MAPPING] = dev_now_ns(dev) - t1;
	return ret;
}

/*
 * The erase search from writes, the cache the run found filled first;
 * made again, from what the reads said, where a cache larger than the
 * write-cache step's cap filled while it wrote; where it found none, the
 * tables the align step left to it.  0 or -errno.
 */
static int auto_erase_writes(struct device *dev, const struct bench_opts *o,
			     const struct auto_hooks *h, struct auto_result *r)
{
	int ret = auto_cache_topup(dev, r);

	auto_latency_step(dev, LAT_STEP_ERASE);
	if (!ret)
		ret = auto_probe_erase(dev, h, r);
	if (!ret &&
	    (ret = auto_cache_recheck(dev, h, r, CACHE_AT_ERASE)) > 0) {
		r->align.erase = r->erase_reads;
		memset(&r->erase_writes, 0, sizeof(r->erase_writes));
		ret = auto_cache_topup(dev, r);
		if (!ret)
			ret = auto_probe_erase(dev, h, r);
	}
	/* no write showed it: the reads left to the writes */
	return ret ? ret : auto_probe_align_more(dev, o, h, r);
}

/*
 * The erase search from writes made again past a cache that filled only
 * after it (a cache larger than the cap: it wrote into the cache, and
 * whatever it found was the cache's), where it found none or another
 * size than the write probes' erase: writes past the cache settle what
 * the reads left low (today's sweep cards 74, 88: gradual AU steps
 * behind 1 GiB of pSLC).  An erase size it finds other than the one the
 * write probes were placed in stands for the verdict alone.  0 or
 * -errno.
 */
static int auto_erase_again(struct device *dev, const struct bench_opts *o,
			    const struct auto_hooks *h, struct auto_result *r,
			    uint64_t erase)
{
	if (!r->erase_writes.measured ||
	    (r->erase_writes.erase_byte == erase &&
	     r->align.erase.confidence == ANALYZE_CONF_HIGH))
		return 0;
	r->align.erase = r->erase_reads;
	memset(&r->erase_writes, 0, sizeof(r->erase_writes));
	return auto_erase_writes(dev, o, h, r);
}

/*
 * The open-AU searches, the mapping unit and the FAT area probe, in AUs
 * of erase bytes, the cache the run found filled first.  0 or -errno.
 */
static int auto_write_probes(struct device *dev, uint64_t erase,
			     const struct auto_hooks *h,
			     struct auto_result *r)
{
	struct probe_area area = { 0 };
	uint64_t t1, before;
	unsigned int n;
	int ret;

	for (n = 0; n < AUTO_MAX_NR; n++)
		area.order[n] = n;
	ret = auto_cache_topup(dev, r);
	if (ret)
		return ret;
	auto_say(h, "auto: %s\n", "open-AU search, linear order (writes)");
	auto_latency_step(dev, LAT_STEP_OPEN_LINEAR);
	t1 = dev_now_ns(dev);
	ret = auto_probe_open(dev, erase, NULL, &area, &r->open_linear);
	if (!ret && r->open_linear.at_least) {
		/* no collapse on the AUs as found: on AUs full of data? */
		auto_say(h, "auto: %s\n", "open-AU search again, on AUs written whole first (writes)");
		memset(&r->open_linear, 0, sizeof(r->open_linear));
		area.whole = 1;
		r->precondition_again = 1;
		ret = auto_probe_open(dev, erase, NULL, &area, &r->open_linear);
	}
	r->step_ns[AUTO_STEP_OPEN_LINEAR] += dev_now_ns(dev) - t1;
	r->precondition_byte += area.written;
	if (ret)
		return ret;
	auto_say(h, "auto: %s\n", "open-AU search, random order (writes)");
	auto_latency_step(dev, LAT_STEP_OPEN_RANDOM);
	t1 = dev_now_ns(dev);
	before = area.written;
	ret = auto_probe_open(dev, erase, &r->open_linear, &area,
			      &r->open_random);
	r->step_ns[AUTO_STEP_OPEN_RANDOM] += dev_now_ns(dev) - t1;
	r->precondition_byte += area.written - before;
	if (ret)
		return ret;
	ret = auto_probe_unit(dev, erase, h, r);
	if (ret || r->mapping.standin_byte)
		return ret;
	/* last: it puts the probe AUs in random mode (fat_prime) */
	auto_say(h, "auto: %s\n", "FAT area probe (writes)");
	auto_latency_step(dev, LAT_STEP_FAT);
	t1 = dev_now_ns(dev);
	ret = auto_probe_fat(dev, erase, &r->fat);
	r->step_ns[AUTO_STEP_FAT] += dev_now_ns(dev) - t1;
	/* a cache that folded while the host was late hides copies */
	if (ret || !r->fat.found || !cache_seen(&r->cache))
		return ret;
	ret = auto_cache_topup(dev, r);		/* the cache's step's time */
	t1 = dev_now_ns(dev);
	if (!ret)
		ret = auto_probe_fat_again(dev, erase, &r->fat);
	r->step_ns[AUTO_STEP_FAT] += dev_now_ns(dev) - t1;
	return ret;
}

/*
 * What auto_write_probes() measured, forgotten: a cache larger than the
 * write-cache step's cap filled while they wrote, and their answers may
 * be the cache's.  The AUs the mapping assumed stay.
 */
static void auto_write_probes_forget(struct auto_result *r)
{
	uint64_t standin = r->mapping.standin_byte;

	memset(&r->open_linear, 0, sizeof(r->open_linear));
	memset(&r->open_random, 0, sizeof(r->open_random));
	memset(&r->fat, 0, sizeof(r->fat));
	memset(&r->mapping, 0, sizeof(r->mapping));
	r->mapping.standin_byte = standin;
	r->precondition_again = 0;
}

int auto_run(struct device *dev, const struct bench_opts *o, int destructive,
	     const struct auto_hooks *h, struct auto_result *r)
{
	struct bench_range ranges[AUTO_MAX_RANGES];
	uint64_t t0 = dev_now_ns(dev), erase;
	int ret, n;

	memset(r, 0, sizeof(*r));
	r->destructive = destructive;
	r->search_fits = auto_search_ranges(dev->size_byte,
					    dev->logical_block_size, ranges,
					    AUTO_MAX_RANGES) >= 0;
	r->sector_byte = dev->logical_block_size;
	ret = auto_probe_align(dev, o, h, r);
	r->step_ns[AUTO_STEP_ALIGN] = dev_now_ns(dev) - t0;
	auto_noise_sum(r);
	auto_noise_level(&r->noise);
	if (ret)
		goto out;
	if (!destructive) {
		r->skip_reason = "needs --destructive";
		r->skip_settle = "flashbench --auto --destructive DEVICE";
		goto out;
	}
	/* first: the later steps time writes past a cache it finds */
	ret = auto_probe_cache(dev, o, h, r);
	if (ret)
		goto out;
	if (r->align.erase.confidence < ANALYZE_CONF_HIGH) {
		ret = auto_erase_writes(dev, o, h, r);
		if (ret)
			goto out;
	}
	erase = r->align.erase.size_byte;
	if (!auto_erase_premise(r)) {
		if (!auto_mapping_standin(r))
			goto out;
		erase = r->mapping.standin_byte;
	}
	n = auto_write_ranges(dev->size_byte, erase, ranges,
			      AUTO_MAX_RANGES);
	if (n < 0 || auto_probe_max_nr(dev->size_byte, erase) < 2) {
		r->skip_reason = "the device is too small for the write probes";
		goto out;
	}
	ret = auto_announce_past(h, r, ranges, n, 1);
	if (!ret)
		ret = auto_write_probes(dev, erase, h, r);
	/* their answers a cache's?  Filled, if it is no larger again */
	if (!ret)
		ret = auto_cache_push(dev, o, h, r);
	/* a cache larger than the cap, filled by them: again, past it */
	if (!ret &&
	    (ret = auto_cache_recheck(dev, h, r, CACHE_AT_PROBES)) > 0) {
		auto_write_probes_forget(r);
		ret = auto_erase_again(dev, o, h, r, erase);
		if (!ret)
			ret = auto_write_probes(dev, erase, h, r);
	}
out:
	/* the verdict is the decisions' over the record, by construction */
	if (ret)
		auto_noise_confidence(r);
	else
		auto_decide(r);
	if (!ret && destructive)
		ret = auto_capacity(dev, o, h, r);
	r->device_ns = dev_now_ns(dev) - t0;
	return ret;
}

/*
 * Without --destructive: what it would add besides the steps auto_print()
 * names, the write-cache step, the capacity check and the class check,
 * each with what it would overwrite, as their announcements would count
 * it.
 */
static void plan_destructive(struct device *dev, const struct bench_opts *o,
			     const struct card_info *ci, struct auto_result *r)
{
	struct bench_range *rg;
	struct class_plan p;
	int n, i;

	auto_class_place(o, ci, r, &p);
	/* where the write-cache step would write (nothing measured) */
	wcache_place(wcache_cap(o, dev->size_byte), dev->size_byte,
		     r->align.erase.size_byte, &r->cache);
	n = capacity_ranges(o, dev->size_byte, &rg);
	for (i = 0; rg && i < n; i++)
		r->capacity_plan_byte += rg[i].end_byte - rg[i].start_byte;
	r->capacity_plan_ranges = n;
	free(rg);
}

int auto_run_all(struct device *dev, const struct bench_opts *o,
		 int destructive, const struct card_info *ci,
		 const struct auto_hooks *h, struct auto_result *r)
{
	struct device *w = destructive ? auto_latency_wrap(dev) : NULL;
	int ret = auto_run(w ? w : dev, o, destructive, h, r);

	r->device_byte = dev->size_byte;
	if (!destructive)
		plan_destructive(dev, o, ci, r);
	else if (!ret && !(h && h->stop && *h->stop)) {
		auto_latency_step(w, LAT_STEP_CLASS);
		ret = auto_probe_class(w ? w : dev, o, ci, h, r);
	}
	if (w && ret)	/* the wrapper's failure is the device's */
		dev->last_error = w->last_error;
	auto_latency_done(w, &r->latency);
	return ret;
}
