// SPDX-License-Identifier: GPL-2.0-only
/*
 * --auto's mapping step as its record keeps it (results entry "mapping"):
 * the AUs the open-AU searches assumed where the card showed none, the
 * unit probe's writes and its device time.  The verdict (pages or AUs,
 * the unit) is decided again from them and the open-AU searches
 * (verdict/mapping.c).
 */
#include <stddef.h>

#include "autoraw.h"

#define MS(member) offsetof(struct auto_map_size, member)
#define AR(member) offsetof(struct auto_result, member)

static const struct rt_field size_rows[] = {
	{ .name = "size", .kind = RT_U64, .off = MS(size_byte),
	  .unit = "bytes" },
	{ .name = "unaligned_offset", .kind = RT_U64, .off = MS(offset_byte),
	  .unit = "bytes" },
	{ .name = "aligned_ns", .kind = RT_DOUBLE, .off = MS(aligned_ns),
	  .unit = "ns" },
	{ .name = "unaligned_ns", .kind = RT_DOUBLE, .off = MS(unaligned_ns),
	  .unit = "ns" },
};

static const struct rt_table size_table = RT_TABLE("unit write", size_rows);

static const char *const map_step[] = { "mapping" };

static const struct rt_field map_step_rows[] = {
	{ .name = "step", .kind = RT_CONST, .names = map_step, .nnames = 1 },
	{ .name = "assumed_erase_size", .kind = RT_U64,
	  .off = AR(mapping.standin_byte), .unit = "bytes",
	  .flags = RT_ZERO_NULL },
	{ .name = "unit_probe", .kind = RT_BOOL, .off = AR(mapping.measured) },
	{ .name = "unit_writes", .kind = RT_ARRAY, .off = AR(mapping.sizes),
	  .sub = &size_table, .count_off = AR(mapping.nsizes),
	  .elem_size = sizeof(struct auto_map_size), .max = AUTO_MAP_SIZES },
	/* the unit probe's share of the device time; since shape 11 */
	{ .name = "device_time_ns", .kind = RT_U64,
	  .off = AR(step_ns[AUTO_STEP_MAPPING]), .unit = "ns",
	  .flags = RT_OPTIONAL },
};

const struct rt_table auto_mapping_step_table =
	RT_TABLE("mapping", map_step_rows);
