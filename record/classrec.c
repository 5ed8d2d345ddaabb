// SPDX-License-Identifier: GPL-2.0-only
/* The class check's record: its table of fields (see classrec.h). */
#include <stddef.h>

#include "classrec.h"

#define M(member) offsetof(struct class_measured, member)
#define R(member) offsetof(struct class_required, member)
#define E(member) offsetof(struct class_entry, member)

/* An application class's figures: there only for A1 and A2. */
#define IOPS(type) .flags = RT_OPTIONAL | RT_HAS_OMIT | RT_SETS_HAS, \
		    .has_off = RT_HAS(type, iops)

static const struct rt_field measured_rows[] = {
	{ .name = "write_mbps", .kind = RT_DOUBLE, .off = M(write_mbps),
	  .unit = "10^6 bytes/s", .flags = RT_KEY },
	{ .name = "longest_write_ns", .kind = RT_U64,
	  .off = M(longest_write_ns), .unit = "ns", .flags = RT_KEY },
	{ .name = "recording_unit", .kind = RT_U64,
	  .off = M(recording_unit), .unit = "bytes" },
	{ .name = "read_iops", .kind = RT_DOUBLE, .off = M(read_iops),
	  .unit = "per second", IOPS(struct class_measured) },
	{ .name = "write_iops", .kind = RT_DOUBLE, .off = M(write_iops),
	  .unit = "per second", IOPS(struct class_measured) },
	{ .name = "read_iops_qd4", .kind = RT_DOUBLE,
	  .off = M(read_iops_qd4), .unit = "per second",
	  IOPS(struct class_measured) },
	{ .name = "write_iops_qd4", .kind = RT_DOUBLE,
	  .off = M(write_iops_qd4), .unit = "per second",
	  IOPS(struct class_measured) },
};

static const struct rt_table measured_table =
	RT_TABLE("class_result.measured", measured_rows);

static const struct rt_field required_rows[] = {
	{ .name = "write_mbps", .kind = RT_DOUBLE, .off = R(write_mbps),
	  .unit = "10^6 bytes/s" },
	{ .name = "longest_write_ns", .kind = RT_U64,
	  .off = R(longest_write_ns), .unit = "ns" },
	{ .name = "read_iops", .kind = RT_DOUBLE, .off = R(read_iops),
	  .unit = "per second", IOPS(struct class_required) },
	{ .name = "write_iops", .kind = RT_DOUBLE, .off = R(write_iops),
	  .unit = "per second", IOPS(struct class_required) },
	{ .name = "queue_depth", .kind = RT_UINT, .off = R(queue_depth),
	  IOPS(struct class_required) },
};

static const struct rt_table required_table =
	RT_TABLE("class_result.required", required_rows);

/* "within_cache" only where it is true (a class unsure). */
static enum rt_how within_when(const void *rec)
{
	const struct class_entry *e = rec;

	return e->judged && e->within ? RT_WRITE : RT_OMIT;
}

/* The rows an entry and record_said's entry share. */
#define ROW_NAME { .name = "class", .kind = RT_STRING, .off = E(name), \
		   .flags = RT_KEY }
#define ROW_PASS(more) { .name = "pass", .kind = RT_BOOL, .off = E(pass), \
			 .flags = RT_OPTIONAL | RT_HAS_OMIT | more,     \
			 .has_off = RT_HAS(struct class_entry, judged) }
#define ROW_WITHIN(more) { .name = "within_cache", .kind = RT_BOOL,	\
			   .off = E(within), .when = within_when,	\
			   .flags = RT_OPTIONAL | more }

static const struct rt_field entry_rows[] = {
	ROW_NAME,
	{ .name = "claimed", .kind = RT_BOOL, .off = E(claimed),
	  .flags = RT_DERIVED },
	ROW_PASS(RT_DERIVED),
	ROW_WITHIN(RT_DERIVED),
	{ .name = "measured", .kind = RT_OBJECT, .off = E(measured),
	  .sub = &measured_table },
	{ .name = "required", .kind = RT_OBJECT, .off = E(required),
	  .sub = &required_table, .flags = RT_DERIVED },
};

const struct rt_table class_entry_table =
	RT_TABLE("class_result", entry_rows);

static const struct rt_field said_rows[] = {
	ROW_NAME,
	ROW_PASS(RT_SETS_HAS),
	ROW_WITHIN(0),
};

const struct rt_table class_said_table =
	RT_TABLE("record_said.classes", said_rows);

static const struct rt_field said_list_rows[] = {
	{ .name = "classes", .kind = RT_ARRAY,
	  .off = offsetof(struct class_said, e), .sub = &class_said_table,
	  .count_off = offsetof(struct class_said, n),
	  .elem_size = sizeof(struct class_entry), .max = CLASS_NR },
};

const struct rt_table class_said_list_table =
	RT_TABLE("record_said", said_list_rows);
