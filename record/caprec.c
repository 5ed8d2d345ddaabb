// SPDX-License-Identifier: GPL-2.0-only
/* -C's record: its tables of fields (see caprec.h). */
#include <stddef.h>

#include "c.h"
#include "caprec.h"

#define EV(member) offsetof(struct capacity_evidence, member)
#define V(member) offsetof(struct capacity_result, member)

static const char *const step_name[] = { "capacity" };
static const char *const reads_name[] = { "zeros", "garbage" };
static const char *const kind_name[] = { "genuine", "limbo", "wraparound",
					 "damaged" };
static const char *const fix_name[] = { "nothing", "no_data", "keep",
					"shrink", "replace" };

const char *capacity_kind_name(enum capacity_kind kind)
{
	return (size_t)kind < ARRAY_SIZE(kind_name) ? kind_name[kind] : "?";
}

#define LOST .has_off = RT_HAS(struct capacity_evidence, lost)

static const struct rt_field evidence_rows[] = {
	{ .name = "step", .kind = RT_CONST, .names = step_name,
	  .nnames = 1, .flags = RT_KEY },
	{ .name = "stored_up_to", .kind = RT_U64, .off = EV(stored_byte),
	  .unit = "bytes", .flags = RT_KEY },
	{ .name = "lost_from", .kind = RT_U64, .off = EV(lost_byte),
	  .unit = "bytes", .flags = RT_KEY | RT_SETS_HAS, LOST },
	{ .name = "lost_reads", .kind = RT_ENUM, .off = EV(lost_garbage),
	  .names = reads_name, .nnames = 2, .flags = RT_KEY, LOST },
	{ .name = "lost_below_stored", .kind = RT_BOOL,
	  .off = EV(lost_below_stored), .flags = RT_KEY },
	{ .name = "alias_period", .kind = RT_U64, .off = EV(alias_byte),
	  .unit = "bytes", .flags = RT_KEY },
	{ .name = "flush_bytes", .kind = RT_U64, .off = EV(flush_byte),
	  .unit = "bytes", .flags = RT_KEY },
	{ .name = "cache_held_up_to", .kind = RT_U64, .off = EV(cache_byte),
	  .unit = "bytes", .flags = RT_KEY },
};

const struct rt_table capacity_evidence_table =
	RT_TABLE("capacity_evidence", evidence_rows);

/* The modulus is there for a wraparound alone. */
static enum rt_how modulus_when(const void *rec)
{
	const struct capacity_result *r = rec;

	return r->kind == CAPACITY_WRAP ? RT_WRITE : RT_NULL;
}

/* What reads past the usable size return: for a limbo card alone. */
static enum rt_how limbo_when(const void *rec)
{
	const struct capacity_result *r = rec;

	return r->kind == CAPACITY_LIMBO ? RT_WRITE : RT_OMIT;
}

/* Only a limbo or wraparound card's usable size can be exact. */
static void exact_get(const void *rec, union rt_scalar *v)
{
	const struct capacity_result *r = rec;

	v->b = r->kind != CAPACITY_GENUINE && r->kind != CAPACITY_DAMAGED &&
	       r->exact;
}

/* said: the order in which --analyze names what a record said otherwise */
static const struct rt_field verdict_rows[] = {
	{ .name = "usable_size", .kind = RT_U64, .off = V(usable_byte),
	  .unit = "bytes", .label = "usable size", .said = 2 },
	{ .name = "announced_size", .kind = RT_U64,
	  .off = V(announced_byte), .unit = "bytes", .flags = RT_KEY },
	{ .name = "kind", .kind = RT_ENUM, .off = V(kind),
	  .names = kind_name, .nnames = ARRAY_SIZE(kind_name),
	  .flags = RT_OPEN, .label = "kind", .said = 1 },
	{ .name = "cache_size", .kind = RT_U64, .off = V(cache_byte),
	  .unit = "bytes", .label = "write cache", .said = 6 },
	{ .name = "modulus", .kind = RT_U64, .off = V(modulus_byte),
	  .unit = "bytes", .flags = RT_NULLABLE, .when = modulus_when,
	  .label = "modulus", .said = 4 },
	{ .name = "limbo_reads", .kind = RT_ENUM, .off = V(limbo_garbage),
	  .names = reads_name, .nnames = 2, .flags = RT_OPTIONAL,
	  .when = limbo_when, .label = "reads past it", .said = 5 },
	{ .name = "cache_defeated_up_to", .kind = RT_U64,
	  .off = V(defeat_byte), .unit = "bytes",
	  .label = "caches defeated up to", .said = 7 },
	{ .name = "usable_exact", .kind = RT_BOOL, .off = V(exact),
	  .get = exact_get, .label = "usable size exact", .said = 3 },
	{ .name = "probes", .kind = RT_UINT, .off = V(probes) },
	{ .name = "bytes_written", .kind = RT_U64, .off = V(written_byte),
	  .unit = "bytes" },
	{ .name = "device_ns", .kind = RT_U64, .off = V(device_ns),
	  .unit = "ns" },
};

const struct rt_table capacity_verdict_table =
	RT_TABLE("capacity", verdict_rows);

static const struct rt_field fix_rows[] = {
	{ .name = "fix", .kind = RT_ENUM,
	  .off = offsetof(struct capfix_advice, how), .names = fix_name,
	  .nnames = ARRAY_SIZE(fix_name), .flags = RT_OPTIONAL },
	{ .name = "fix_command", .kind = RT_STRING,
	  .off = offsetof(struct capfix_advice, command),
	  .flags = RT_OPTIONAL | RT_NULLABLE },
};

const struct rt_table capfix_table = RT_TABLE("capacity", fix_rows);

#define EST(jname, member) \
	{ .name = jname, .kind = RT_U64, \
	  .off = offsetof(struct capacity_estimate, member), .unit = "ns" }

static const struct rt_field estimate_rows[] = {
	EST("fake_ns", fake_ns),
	EST("genuine_ns", genuine_ns),
	EST("save_fake_ns", save_fake_ns),
	EST("save_ns", save_ns),
	EST("write_back_fake_ns", back_fake_ns),
	EST("write_back_ns", back_ns),
	EST("block_write_ns", write_block_ns),
};

const struct rt_table capacity_estimate_table =
	RT_TABLE("estimate", estimate_rows);

#define TC(member) offsetof(struct timeops_count, member)

static const struct rt_field count_rows[] = {
	{ .name = "count", .kind = RT_U64, .off = TC(n), .unit = "count" },
	{ .name = "bytes", .kind = RT_U64, .off = TC(byte), .unit = "bytes" },
	{ .name = "device_ns", .kind = RT_U64, .off = TC(ns), .unit = "ns" },
};

static const struct rt_table count_table =
	RT_TABLE("time_ops kind", count_rows);

#define KIND(jname, kind_) \
	{ .name = jname, .kind = RT_OBJECT, .sub = &count_table, \
	  .off = offsetof(struct timeops_rec, k[kind_]) }

static const struct rt_field timeops_rows[] = {
	KIND("read", TIMEOPS_READ),
	KIND("write", TIMEOPS_WRITE),
	KIND("flush", TIMEOPS_FLUSH),
	KIND("save", TIMEOPS_SAVE_READ),
	KIND("write_back", TIMEOPS_WRITE_BACK),
	KIND("verify", TIMEOPS_VERIFY),
	KIND("timing", TIMEOPS_TIMING_IO),
};

const struct rt_table timeops_table = RT_TABLE("time_ops", timeops_rows);
