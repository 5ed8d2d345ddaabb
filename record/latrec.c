// SPDX-License-Identifier: GPL-2.0-only
/* The write latency's tables of fields (see latrec.h). */
#include <stddef.h>

#include "c.h"
#include "latrec.h"

#define AL(member) offsetof(struct auto_latency, member)

#define LAT_ROWS							\
	{ .name = "writes", .kind = RT_U64, .off = AL(writes),		\
	  .unit = "count" },						\
	{ .name = "longest_ns", .kind = RT_U64, .off = AL(max_ns),		\
	  .unit = "ns" },						\
	{ .name = "max_offset", .kind = RT_U64, .off = AL(max_off_byte), \
	  .unit = "bytes" },						\
	{ .name = "max_size", .kind = RT_U64, .off = AL(max_len_byte),	\
	  .unit = "bytes" },						\
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
