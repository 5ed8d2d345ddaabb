// SPDX-License-Identifier: GPL-2.0-only
/* The write-cache step's tables of fields (see cacherec.h). */
#include <stddef.h>

#include "autorecord.h"
#include "c.h"
#include "cacherec.h"

#define CV(member) offsetof(struct cache_verdict_rec, member)
#define AC(member) offsetof(struct auto_result, cache.member)

/* The refill: measured or not, all its members together. */
static enum rt_how refill_when(const void *rec)
{
	const struct cache_verdict_rec *v = rec;

	return v->idle_ns ? RT_WRITE : RT_NULL;
}

static const struct rt_field verdict_rows[] = {
	{ .name = "size_bytes", .kind = RT_U64, .off = CV(size_byte),
	  .unit = "bytes" },
	{ .name = "size_at_least", .kind = RT_BOOL,
	  .off = CV(size_at_least) },
	{ .name = "fast_mbps", .kind = RT_DOUBLE, .off = CV(fast_mbps),
	  .unit = "MB/s" },
	{ .name = "native_mbps", .kind = RT_DOUBLE, .off = CV(native_mbps),
	  .unit = "MB/s" },
	{ .name = "refill_idle_ns", .kind = RT_U64, .off = CV(idle_ns),
	  .unit = "ns", .when = refill_when },
	{ .name = "refill_bytes", .kind = RT_U64, .off = CV(refill_byte),
	  .unit = "bytes", .when = refill_when },
	{ .name = "refill_whole", .kind = RT_BOOL, .off = CV(refill_whole),
	  .when = refill_when },
};

const struct rt_table cache_verdict_table =
	RT_TABLE("write_cache", verdict_rows);

/* One chunk's time: an entry of "chunks" ({"write_ns": N}). */
static const struct rt_field ns_rows[] = {
	{ .name = "write_ns", .kind = RT_DOUBLE, .off = 0, .unit = "ns" },
};

static const struct rt_table ns_table = RT_TABLE("write", ns_rows);

static const char *const cache_step[] = { "write_cache" };

/* After which writes the last recheck was made (none: null). */
static const char *const recheck_at_name[] = {
	[CACHE_AT_NONE] = NULL, [CACHE_AT_ERASE] = "erase_writes",
	[CACHE_AT_PROBES] = "write_steps", [CACHE_AT_CLASS] = "capacity",
};

static const struct rt_field step_rows[] = {
	{ .name = "step", .kind = RT_CONST, .names = cache_step,
	  .nnames = 1 },
	{ .name = "chunks_from", .kind = RT_U64, .off = AC(start_byte),
	  .unit = "bytes" },
	{ .name = "cap", .kind = RT_U64, .off = AC(cap_byte),
	  .unit = "bytes" },
	{ .name = "chunk_size", .kind = RT_U64, .off = AC(chunk_byte),
	  .unit = "bytes" },
	{ .name = "chunks", .kind = RT_ARRAY, .off = AC(chunk_ns),
	  .sub = &ns_table, .count_off = AC(nchunks),
	  .elem_size = sizeof(double), .max = CACHE_MAX_CHUNKS },
	{ .name = "idle_ns", .kind = RT_U64, .off = AC(idle_ns),
	  .unit = "ns" },
	{ .name = "refill_chunks", .kind = RT_ARRAY, .off = AC(refill_ns),
	  .sub = &ns_table, .count_off = AC(nrefill),
	  .elem_size = sizeof(double), .max = CACHE_REFILL_CHUNKS },
	{ .name = "topup_bytes", .kind = RT_U64, .off = AC(topup_byte),
	  .unit = "bytes" },
	{ .name = "topups", .kind = RT_UINT, .off = AC(topups),
	  .unit = "count" },
	{ .name = "rechecks", .kind = RT_UINT, .off = AC(rechecks),
	  .unit = "count" },
	{ .name = "recheck_after", .kind = RT_ENUM, .off = AC(recheck_at),
	  .names = recheck_at_name, .nnames = ARRAY_SIZE(recheck_at_name),
	  .flags = RT_ZERO_NULL },
	{ .name = "recheck_run", .kind = RT_UINT, .off = AC(late_run),
	  .unit = "count" },
	{ .name = "recheck_chunks", .kind = RT_ARRAY, .off = AC(late_ns),
	  .sub = &ns_table, .count_off = AC(nlate),
	  .elem_size = sizeof(double), .max = CACHE_LATE_CHUNKS },
	/* the step and its top-ups */
	{ .name = "device_time_ns", .kind = RT_U64,
	  .off = offsetof(struct auto_result, step_ns[AUTO_STEP_CACHE]),
	  .unit = "ns" },
};

/* A record that has the step ran it. */
static void cache_read_done(void *rec)
{
	struct auto_result *r = rec;

	r->cache.measured = 1;
}

const struct rt_table auto_cache_step_table = {
	"write_cache step", step_rows, ARRAY_SIZE(step_rows),
	cache_read_done
};
