// SPDX-License-Identifier: GPL-2.0-only
/* --auto's verdict, advice and reconcile: their tables (see autotab.h). */
#include <stddef.h>

#include "autotab.h"
#include "c.h"

#define AV(member) offsetof(struct auto_verdict_rec, member)
#define AD(member) offsetof(struct auto_advice_rec, member)
#define RC(member) offsetof(struct reconcile, member)
#define CONF(member) .conf_off = AV(member) + 1

static const char *const conf_name[] = { "none", "low", "medium", "high" };

/* The capacity check's verdict: with --destructive, null until it ran. */
static enum rt_how capacity_when(const void *rec)
{
	const struct auto_verdict_rec *v = rec;

	if (!v->destructive)
		return RT_OMIT;
	return v->capacity_done ? RT_WRITE : RT_NULL;
}

/*
 * The write cache: where the step ran (--destructive, a record of this
 * version or later), null where it saw none.
 */
static enum rt_how cache_when(const void *rec)
{
	const struct auto_verdict_rec *v = rec;

	if (!v->destructive || !v->cache_measured)
		return RT_OMIT;
	return v->cache_dropped ? RT_WRITE : RT_NULL;
}

/* The write latency: where the run timed writes. */
static enum rt_how latency_when(const void *rec)
{
	const struct auto_verdict_rec *v = rec;

	return v->destructive && v->latency.measured ? RT_WRITE : RT_OMIT;
}

/* label and said: how --analyze names what a record said otherwise */
static const struct rt_field verdict_rows[] = {
	{ .name = "erase_size", .kind = RT_U64, .off = AV(erase_byte),
	  .unit = "bytes", .flags = RT_ZERO_NULL, CONF(erase_conf),
	  .label = "erase size", .said = 1 },
	{ .name = "page_size", .kind = RT_U64, .off = AV(page_byte),
	  .unit = "bytes", .flags = RT_ZERO_NULL, CONF(page_conf),
	  .label = "page size", .said = 2 },
	{ .name = "program_unit", .kind = RT_U64, .off = AV(plane_byte),
	  .unit = "bytes", .flags = RT_ZERO_NULL, CONF(plane_conf),
	  .label = "program unit", .said = 3 },
	{ .name = "allocation_group", .kind = RT_U64, .off = AV(group_byte),
	  .unit = "bytes", .flags = RT_ZERO_NULL, CONF(group_conf),
	  .label = "allocation group", .said = 4 },
	{ .name = "open_au_linear", .kind = RT_UINT, .off = AV(open_linear_nr),
	  .unit = "count", CONF(open_linear_conf),
	  .has_off = RT_HAS(struct auto_verdict_rec, open_linear_known),
	  .label = "open AUs linear", .said = 5 },
	{ .name = "open_au_random", .kind = RT_UINT, .off = AV(open_random_nr),
	  .unit = "count", CONF(open_random_conf),
	  .has_off = RT_HAS(struct auto_verdict_rec, open_random_known),
	  .label = "open AUs random", .said = 6 },
	/* the text's ">= 32": no collapse up to the most the search tried */
	{ .name = "open_au_linear_at_least", .kind = RT_BOOL,
	  .off = AV(open_linear_at_least),
	  .has_off = RT_HAS(struct auto_verdict_rec, open_linear_known) },
	{ .name = "open_au_random_at_least", .kind = RT_BOOL,
	  .off = AV(open_random_at_least),
	  .has_off = RT_HAS(struct auto_verdict_rec, open_random_known) },
	{ .name = "fat_start", .kind = RT_U64, .off = AV(fat_start),
	  .unit = "AUs", CONF(fat_conf),
	  .has_off = RT_HAS(struct auto_verdict_rec, fat_found),
	  .label = "FAT area start (AU)", .said = 7 },
	{ .name = "fat_start_byte", .kind = RT_U64, .off = AV(fat_start_byte),
	  .unit = "bytes",
	  .has_off = RT_HAS(struct auto_verdict_rec, fat_found),
	  .label = "FAT area start", .said = 8 },
	{ .name = "fat_erase_blocks", .kind = RT_U64, .off = AV(fat_count),
	  .unit = "AUs", CONF(fat_conf),
	  .has_off = RT_HAS(struct auto_verdict_rec, fat_measured),
	  .label = "FAT area AUs", .said = 9 },
	{ .name = "fat_writes", .kind = RT_STRING, .off = AV(fat_writes),
	  .label = "FAT area shown by", .said = 10 },
	{ .name = "timing_noise", .kind = RT_STRING, .off = AV(timing_noise),
	  .label = "timing noise", .said = 11 },
	{ .name = "erase_size_from", .kind = RT_STRING, .off = AV(erase_from),
	  .label = "erase size from", .said = 12 },
	{ .name = "mapping", .kind = RT_STRING, .off = AV(mapping),
	  CONF(mapping_conf), .label = "mapping", .said = 13 },
	{ .name = "mapping_aus", .kind = RT_UINT, .off = AV(mapping_aus),
	  .unit = "count", .flags = RT_ZERO_NULL,
	  .label = "mapping AUs", .said = 14 },
	{ .name = "mapping_reason", .kind = RT_STRING,
	  .off = AV(mapping_reason) },
	{ .name = "mapping_unit", .kind = RT_U64, .off = AV(mapping_unit_byte),
	  .unit = "bytes", .flags = RT_ZERO_NULL, CONF(mapping_unit_conf),
	  .label = "mapping unit", .said = 15 },
	{ .name = "confidence", .kind = RT_CONF, .names = conf_name,
	  .nnames = ARRAY_SIZE(conf_name) },
	{ .name = "capacity", .kind = RT_OBJECT, .off = AV(capacity),
	  .sub = &capacity_verdict_table, .when = capacity_when },
	{ .name = "write_cache", .kind = RT_OBJECT, .off = AV(cache),
	  .sub = &cache_verdict_table, .when = cache_when,
	  .flags = RT_DERIVED },
	{ .name = "write_latency", .kind = RT_OBJECT, .off = AV(latency),
	  .sub = &latency_verdict_table, .when = latency_when,
	  .flags = RT_DERIVED },
};

const struct rt_table auto_verdict_table =
	RT_TABLE("geometry", verdict_rows);

#define ERASE_KNOWN .has_off = RT_HAS(struct auto_advice_rec, erase_known)

static const struct rt_field advice_rows[] = {
	{ .name = "erase_size_known", .kind = RT_BOOL, .off = AD(erase_known) },
	{ .name = "sector_size", .kind = RT_U64, .off = AD(sector_byte),
	  .unit = "bytes" },
	{ .name = "partition_start_sector", .kind = RT_U64,
	  .off = AD(start_sector), .unit = "sectors" },
	{ .name = "partition_start", .kind = RT_U64, .off = AD(start_byte),
	  .unit = "bytes" },
	{ .name = "ext4_stride", .kind = RT_U64, .off = AD(ext4_stride),
	  .unit = "4 KiB blocks", ERASE_KNOWN },
	{ .name = "ext4_stripe_width", .kind = RT_U64,
	  .off = AD(ext4_stripe_width), .unit = "4 KiB blocks", ERASE_KNOWN },
	{ .name = "f2fs_segments_per_section", .kind = RT_U64,
	  .off = AD(f2fs_segs), .unit = "count", ERASE_KNOWN },
	{ .name = "partition_max_sectors", .kind = RT_U64,
	  .off = AD(max_sectors), .unit = "sectors", .flags = RT_ZERO_NULL },
	{ .name = "partition_max_size", .kind = RT_U64, .off = AD(max_byte),
	  .unit = "bytes", .flags = RT_ZERO_NULL },
	{ .name = "keep_no_data", .kind = RT_BOOL, .off = AD(no_data) },
};

const struct rt_table auto_advice_table = RT_TABLE("advice", advice_rows);

/* 0 (unknown, not shown) is written null */
static const char *const fit_name[] = {
	[FIT_UNKNOWN] = NULL, [FIT_AGREES] = "agrees",
	[FIT_SUBUNIT] = "sub-unit", [FIT_MULTIPLE] = "multiple",
	[FIT_DISAGREES] = "disagrees",
};

static const char *const kernel_name[] = {
	[KERNEL_NONE] = NULL, [KERNEL_FROM_SSR] = "ssr",
	[KERNEL_GUESS] = "capacity guess", [KERNEL_OTHER] = "other",
};

/* The write cache measured against the pSLC area (0: null) */
static const char *const pslc_fit_name[] = { NULL, "within", "larger" };

#define EM(member) offsetof(struct reconcile_emmc, member)
#define SIZE(key, member) { .name = key, .kind = RT_U64, .off = EM(member), \
			    .unit = "bytes", .flags = RT_ZERO_NULL }
#define FIT(key, member) { .name = key, .kind = RT_ENUM, .off = EM(member), \
			   .names = fit_name, .nnames = ARRAY_SIZE(fit_name), \
			   .flags = RT_ZERO_NULL }

/* The wear in words, null when the EXT_CSD states none. */
static void health_get(const void *rec, union rt_scalar *v)
{
	const struct reconcile_emmc *m = rec;

	v->s = m->health[0] ? m->health : NULL;
}

static const struct rt_field emmc_rows[] = {
	SIZE("erase_group_size", erase_group_byte),
	FIT("erase_group_fit", erase_group_fit),
	SIZE("large_unit_size", large_unit_byte),
	FIT("large_unit_fit", large_unit_fit),
	SIZE("measured_page_size", page_byte),
	SIZE("super_page_size", super_page_byte),
	FIT("super_page_fit", super_page_fit),
	SIZE("optimal_write_size", optimal_write_byte),
	FIT("optimal_write_fit", optimal_write_fit),
	SIZE("cache_size", cache_byte),
	FIT("cache_fit", cache_fit),
	SIZE("pslc_max_size", pslc_max_byte),
	SIZE("write_cache_size", write_cache_byte),
	{ .name = "write_cache_fit", .kind = RT_ENUM,
	  .off = EM(write_cache_fit), .names = pslc_fit_name,
	  .nnames = ARRAY_SIZE(pslc_fit_name), .flags = RT_ZERO_NULL },
	{ .name = "health", .kind = RT_STRING, .get = health_get },
};

static const struct rt_table emmc_table = RT_TABLE("emmc", emmc_rows);

static const struct rt_field reconcile_rows[] = {
	{ .name = "measured_erase_size", .kind = RT_U64,
	  .off = RC(measured_byte), .unit = "bytes",
	  .flags = RT_ZERO_NULL | RT_DERIVED },
	{ .name = "stated_au_size", .kind = RT_U64, .off = RC(stated_byte),
	  .unit = "bytes", .flags = RT_ZERO_NULL },
	{ .name = "stated_fit", .kind = RT_ENUM, .off = RC(stated_fit),
	  .names = fit_name, .nnames = ARRAY_SIZE(fit_name),
	  .flags = RT_ZERO_NULL | RT_DERIVED },
	{ .name = "kernel_preferred_erase_size", .kind = RT_U64,
	  .off = RC(kernel_byte), .unit = "bytes", .flags = RT_ZERO_NULL },
	{ .name = "kernel_from", .kind = RT_ENUM, .off = RC(kernel_from),
	  .names = kernel_name, .nnames = ARRAY_SIZE(kernel_name),
	  .flags = RT_ZERO_NULL },
	{ .name = "kernel_fit", .kind = RT_ENUM, .off = RC(kernel_fit),
	  .names = fit_name, .nnames = ARRAY_SIZE(fit_name),
	  .flags = RT_ZERO_NULL | RT_DERIVED },
	/* an eMMC's: decoded again from the EXT_CSD the record keeps */
	{ .name = "emmc", .kind = RT_OBJECT, .off = RC(emmc),
	  .sub = &emmc_table, .flags = RT_HAS_OMIT | RT_DERIVED,
	  .has_off = RT_HAS(struct reconcile, emmc.have) },
};

const struct rt_table reconcile_table = RT_TABLE("reconcile", reconcile_rows);
