// SPDX-License-Identifier: GPL-2.0-only
/* The write latency's tables of fields (see latrec.h). */
#include <stddef.h>

#include "c.h"
#include "latrec.h"

#define AL(member) offsetof(struct auto_latency, member)

static const char *const lat_step_name[LAT_STEPS] = {
	[LAT_STEP_NONE] = NULL, [LAT_STEP_CACHE] = "write_cache",
	[LAT_STEP_ERASE] = "erase_writes",
	[LAT_STEP_OPEN_LINEAR] = "open_au_linear",
	[LAT_STEP_OPEN_RANDOM] = "open_au_random",
	[LAT_STEP_MAPPING] = "mapping", [LAT_STEP_FAT] = "fat",
	[LAT_STEP_CAPACITY] = "capacity", [LAT_STEP_CLASS] = "class",
};

int lat_step_copies(enum lat_step s)
{
	return s == LAT_STEP_ERASE || s == LAT_STEP_OPEN_LINEAR ||
	       s == LAT_STEP_OPEN_RANDOM || s == LAT_STEP_FAT;
}

/* since the record's shape 12: older records lack longest_step (null) */
#define LAT_ROWS							\
	{ .name = "writes", .kind = RT_U64, .off = AL(writes),		\
	  .unit = "count" },						\
	{ .name = "longest_ns", .kind = RT_U64, .off = AL(max_ns),		\
	  .unit = "ns" },						\
	{ .name = "max_offset", .kind = RT_U64, .off = AL(max_off_byte), \
	  .unit = "bytes" },						\
	{ .name = "max_size", .kind = RT_U64, .off = AL(max_len_byte),	\
	  .unit = "bytes" },						\
	{ .name = "longest_step", .kind = RT_ENUM, .off = AL(max_step),	\
	  .names = lat_step_name, .nnames = LAT_STEPS,			\
	  .flags = RT_ZERO_NULL | RT_OPTIONAL },				\
	{ .name = "p99_ns", .kind = RT_U64, .off = AL(p99_ns),		\
	  .unit = "ns" },						\
	{ .name = "over_250ms", .kind = RT_U64, .off = AL(over_write),	\
	  .unit = "count" },						\
	{ .name = "over_750ms", .kind = RT_U64, .off = AL(over_update),	\
	  .unit = "count" }

static const struct rt_field verdict_rows[] = {
	LAT_ROWS,
};

const struct rt_table latency_verdict_table =
	RT_TABLE("write_latency", verdict_rows);

static const char *const lat_step[] = { "write_latency" };

static const struct rt_field step_rows[] = {
	{ .name = "step", .kind = RT_CONST, .names = lat_step, .nnames = 1 },
	LAT_ROWS,
};

/* A record that has the step timed writes. */
static void latency_read_done(void *rec)
{
	struct auto_latency *l = rec;

	l->measured = 1;
}

const struct rt_table auto_latency_step_table = {
	"write_latency step", step_rows, ARRAY_SIZE(step_rows),
	latency_read_done
};
