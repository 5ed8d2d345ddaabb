// SPDX-License-Identifier: GPL-2.0-only
/*
 * An align table as records keep it (see alignrec.h): its rows (the
 * medians, -a's "results" and --auto's "rows") and each row's reads at
 * every position ("positions"), and the words of a confidence.
 */
#include <stddef.h>

#include "alignrec.h"
#include "c.h"

const char *const align_conf_names[4] = {
	[ANALYZE_CONF_NONE] = "none", [ANALYZE_CONF_LOW] = "low",
	[ANALYZE_CONF_MEDIUM] = "medium", [ANALYZE_CONF_HIGH] = "high",
};

#define AR(member) offsetof(struct align_row, member)

/* A row and its positions name their columns alike. */
static const char col_align[] = "align";
static const char col_pre[] = "pre_ns";
static const char col_on[] = "on_ns";
static const char col_post[] = "post_ns";
static const char col_diff[] = "diff_ns";

static const struct rt_field row_rows[] = {
	{ .name = col_align, .kind = RT_U64, .off = AR(align_byte),
	  .unit = "bytes" },
	{ .name = col_pre, .kind = RT_I64, .off = AR(pre_ns), .unit = "ns" },
	{ .name = col_on, .kind = RT_I64, .off = AR(on_ns), .unit = "ns" },
	{ .name = col_post, .kind = RT_I64, .off = AR(post_ns), .unit = "ns" },
	{ .name = col_diff, .kind = RT_I64, .off = AR(diff_ns), .unit = "ns" },
};

const struct rt_table align_row_table = RT_TABLE("align_row", row_rows);

/* One column's reads at each position: pre, on, post (k), or the diff. */
#define POS_NS(col, k) \
	{ .name = col, .kind = RT_LIST, .elem = RT_I64, \
	  .off = AR(pos_ns[0][k]), .elem_size = sizeof(int64_t[3]), \
	  .count_off = AR(npos), .max = ALIGN_POS, .unit = "ns", \
	  .flags = RT_COUNT_UINT }

static const struct rt_field position_rows[] = {
	{ .name = col_align, .kind = RT_U64, .off = AR(align_byte),
	  .unit = "bytes", .flags = RT_SAME },
	POS_NS(col_pre, 0),
	POS_NS(col_on, 1),
	POS_NS(col_post, 2),
	{ .name = col_diff, .kind = RT_LIST, .elem = RT_I64,
	  .off = AR(pos_diff_ns), .elem_size = sizeof(int64_t),
	  .count_off = AR(npos), .max = ALIGN_POS, .unit = "ns",
	  .flags = RT_COUNT_UINT },
};

const struct rt_table align_position_table =
	RT_TABLE("align position", position_rows);
