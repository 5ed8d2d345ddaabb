// SPDX-License-Identifier: GPL-2.0-only
/*
 * --auto's verdict as a whole: every decision of the steps applied, in
 * the order the run took them, to the raw fields of the record (see the
 * table in auto.h).  Pure: what a record says with today's rules.
 */
#include "auto.h"
#include "writecache.h"

/*
 * The confidences of the write steps are capped for the noise last,
 * after the random search has read the linear one's (random_cap()) and
 * the premise the erase size as the steps found it.
 */
static void cap_at(enum analyze_confidence *c, enum analyze_confidence max)
{
	if (*c > max)
		*c = max;
}

/*
 * What a record of an older shape lacks costs (auto_result.lacks): with
 * no timing noise measured a noisy host is not ruled out, nor without
 * the slow AUs of each pass a card that keeps one AU more in a log, so
 * the write steps' answers are medium at most; without the copy visits
 * an area that only spares a copy could not show, so "none" is low.
 */
static void lacks_confidence(struct auto_result *r)
{
	if (r->lacks & (AUTO_LACK_NOISE | AUTO_LACK_OPEN_PASSES)) {
		cap_at(&r->open_linear.confidence, ANALYZE_CONF_MEDIUM);
		cap_at(&r->open_random.confidence, ANALYZE_CONF_MEDIUM);
	}
	if (r->lacks & AUTO_LACK_NOISE)
		cap_at(&r->fat.confidence, ANALYZE_CONF_MEDIUM);
	if ((r->lacks & AUTO_LACK_FAT_COPIES) && !r->fat.found)
		cap_at(&r->fat.confidence, ANALYZE_CONF_LOW);
}

void auto_decide(struct auto_result *r)
{
	const struct analyze_step none = { 0 };
	size_t i;

	for (i = 0; i < r->ntables; i++)
		auto_table_decide(&r->tables[i]);
	if (r->ntables)
		auto_align_choose(r);
	auto_group_decide(r);
	auto_cache_decide(&r->cache);
	r->erase_from = AUTO_ERASE_FROM_READS;
	r->erase_reads = none;
	auto_erase_decide(&r->erase_writes);
	if (r->erase_writes.measured)
		auto_erase_combine(r);
	auto_fat_decide(&r->fat);
	auto_open_decide(&r->open_linear, NULL);
	auto_open_decide(&r->open_random, &r->open_linear);
	auto_noise_level(&r->noise);
	r->erase_fallback = r->destructive &&
			    r->align.erase.size_byte &&
			    r->align.erase.confidence == ANALYZE_CONF_LOW;
	auto_noise_confidence(r);
	lacks_confidence(r);
	auto_mapping_decide(r);
	auto_noise_mapping(r);
}
