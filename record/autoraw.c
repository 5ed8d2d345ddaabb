// SPDX-License-Identifier: GPL-2.0-only
/* --auto's raw measurements: the steps' tables (see autoraw.h). */
#include <math.h>
#include <stddef.h>

#include "autoraw.h"
#include "autotab.h"
#include "c.h"

#define OP(member) offsetof(struct auto_open, member)
#define PR(member) offsetof(struct auto_probe, member)
#define NS(member) offsetof(struct auto_noise, member)
#define AR(member) offsetof(struct auto_result, member)

/* Decided from the raw fields again: written, never read. */
#define DECIDED .flags = RT_DERIVED

static const struct rt_field probe_rows[] = {
	{ .name = "nr", .kind = RT_UINT, .off = PR(nr), .unit = "count" },
	{ .name = "ratio", .kind = RT_DOUBLE, .off = PR(ratio), DECIDED },
	{ .name = "collapsed", .kind = RT_BOOL, .off = PR(collapsed),
	  DECIDED },
	{ .name = "positions", .kind = RT_UINT, .off = PR(positions),
	  .unit = "count" },
	{ .name = "mean_ns", .kind = RT_DOUBLE, .off = PR(mean_ns),
	  .unit = "ns", .late = AUTO_LACK_OPEN_PASSES },
	{ .name = "slow_every_pass_aus", .kind = RT_UINT,
	  .off = PR(dear_aus), .unit = "count",
	  .late = AUTO_LACK_OPEN_PASSES },
};

static const struct rt_table probe_table = RT_TABLE("probe", probe_rows);

/* An AU written whole and a merge into it: measured together or not. */
static enum rt_how whole_when(const void *rec)
{
	const struct auto_open *o = rec;

	return o->whole_ns > 0 ? RT_WRITE : RT_NULL;
}

/* A record with one of them null has neither. */
static void open_read_done(void *rec)
{
	struct auto_open *o = rec;

	if (isnan(o->whole_ns) || isnan(o->merge_ns))
		o->whole_ns = o->merge_ns = 0;
}

static const struct rt_field open_rows[] = {
	{ .name = "measured", .kind = RT_BOOL, .off = OP(measured) },
	{ .name = "chunk_size", .kind = RT_U64, .off = OP(chunk_byte),
	  .unit = "bytes" },
	{ .name = "reference_write_ns", .kind = RT_DOUBLE, .off = OP(ref_ns),
	  .unit = "ns", DECIDED },
	{ .name = "at_least", .kind = RT_BOOL, .off = OP(at_least), DECIDED },
	{ .name = "max_nr", .kind = RT_UINT, .off = OP(max_nr),
	  .unit = "count", .late = AUTO_LACK_OPEN_PASSES },
	{ .name = "whole_au_write_ns", .kind = RT_DOUBLE, .off = OP(whole_ns),
	  .unit = "ns", .when = whole_when, .late = AUTO_LACK_OPEN_PASSES },
	{ .name = "merge_write_ns", .kind = RT_DOUBLE, .off = OP(merge_ns),
	  .unit = "ns", .when = whole_when, .late = AUTO_LACK_OPEN_PASSES },
	{ .name = "collapsed_in_linear_order", .kind = RT_UINT,
	  .off = OP(from_linear), .unit = "count",
	  .flags = RT_ZERO_NULL | RT_DERIVED },
	{ .name = "probes", .kind = RT_ARRAY, .off = OP(probes),
	  .sub = &probe_table, .count_off = OP(nprobes),
	  .elem_size = sizeof(struct auto_probe), .max = AUTO_MAX_PROBES },
};

static const struct rt_table open_table = {
	"open_au order", open_rows, ARRAY_SIZE(open_rows), open_read_done
};

static const char *const open_step[] = { "open_au" };

static const struct rt_field open_step_rows[] = {
	{ .name = "step", .kind = RT_CONST, .names = open_step, .nnames = 1 },
	{ .name = "linear", .kind = RT_OBJECT, .off = AR(open_linear),
	  .sub = &open_table },
	{ .name = "random", .kind = RT_OBJECT, .off = AR(open_random),
	  .sub = &open_table },
};

const struct rt_table auto_open_step_table =
	RT_TABLE("open_au", open_step_rows);

static const char *const noise_name[] = {
	[AUTO_NOISE_LOW] = "low", [AUTO_NOISE_SOME] = "some",
	[AUTO_NOISE_HIGH] = "high",
};

static const struct rt_field noise_rows[] = {
	{ .name = "level", .kind = RT_ENUM, .off = NS(level),
	  .names = noise_name, .nnames = ARRAY_SIZE(noise_name), DECIDED },
	{ .name = "positions", .kind = RT_UINT, .off = NS(cells),
	  .unit = "count" },
	{ .name = "positions_delayed", .kind = RT_UINT, .off = NS(delayed),
	  .unit = "count" },
	{ .name = "single_reads", .kind = RT_UINT, .off = NS(once_cells),
	  .unit = "count" },
	{ .name = "single_reads_delayed", .kind = RT_UINT,
	  .off = NS(once_delayed), .unit = "count" },
	{ .name = "largest_delay_ns", .kind = RT_DOUBLE, .off = NS(delay_ns),
	  .unit = "ns" },
	{ .name = "further_passes", .kind = RT_UINT, .off = NS(rounds),
	  .unit = "count" },
};

static const struct rt_table noise_table =
	RT_TABLE("timing_noise", noise_rows);

/* The write steps a skip left out, by the names of their verdicts. */
#define AV(member) offsetof(struct auto_verdict_rec, member)

static void skipped_put(struct json *j, const struct rt_field *f,
			const void *rec)
{
	const struct auto_result *r = rec;
	const struct rt_table *v = &auto_verdict_table;

	json_array_begin(j, f->name);
	if (r->skip_reason && !r->fat.measured)
		json_string(j, NULL, "fat");
	if (r->skip_reason && !r->open_linear.measured)
		json_string(j, NULL, rt_row_at(v, AV(open_linear_nr))->name);
	if (r->skip_reason && !r->open_random.measured)
		json_string(j, NULL, rt_row_at(v, AV(open_random_nr))->name);
	json_array_end(j);
}

/* The noise: null where an older record's reads did not measure it. */
static enum rt_how noise_when(const void *rec)
{
	const struct auto_result *r = rec;

	return r->lacks & AUTO_LACK_NOISE ? RT_NULL : RT_WRITE;
}

/* What would let the skipped steps run: said only when some were. */
static enum rt_how settle_when(const void *rec)
{
	const struct auto_result *r = rec;

	return r->skip_reason ? RT_WRITE : RT_NULL;
}

/* Each step's share of the device time (the erase search's: its step's). */
#define SHARE(key, step) { .name = key, .kind = RT_U64, \
	.off = (step) * sizeof(uint64_t), .unit = "ns" }

static const struct rt_field share_rows[] = {
	SHARE("align", AUTO_STEP_ALIGN),
	SHARE("fat", AUTO_STEP_FAT),
	SHARE("open_au_linear", AUTO_STEP_OPEN_LINEAR),
	SHARE("open_au_random", AUTO_STEP_OPEN_RANDOM),
	SHARE("class", AUTO_STEP_CLASS),
};

static const struct rt_table share_table =
	RT_TABLE("step_device_time", share_rows);

/* The shares are known: a run's, or a record's that kept them. */
static enum rt_how shares_when(const void *rec)
{
	const struct auto_result *r = rec;

	return r->step_ns[AUTO_STEP_ALIGN] ? RT_WRITE : RT_NULL;
}

static const char *const summary_step[] = { "summary" };

static const struct rt_field summary_rows[] = {
	{ .name = "step", .kind = RT_CONST, .names = summary_step,
	  .nnames = 1 },
	{ .name = "device_time_ns", .kind = RT_U64, .off = AR(device_ns),
	  .unit = "ns" },
	{ .name = "precondition_bytes", .kind = RT_U64,
	  .off = AR(precondition_byte), .unit = "bytes" },
	{ .name = "precondition_again", .kind = RT_BOOL,
	  .off = AR(precondition_again) },
	{ .name = "skipped", .kind = RT_STRING, .off = AR(skip_reason) },
	{ .name = "skipped_steps", .kind = RT_ARRAY, .put = skipped_put,
	  DECIDED },
	{ .name = "settle", .kind = RT_STRING, .off = AR(skip_settle),
	  .when = settle_when, .flags = RT_OPTIONAL },
	{ .name = "erase_size_fallback", .kind = RT_BOOL,
	  .off = AR(erase_fallback), DECIDED },
	{ .name = "timing_noise", .kind = RT_OBJECT, .off = AR(noise),
	  .sub = &noise_table, .when = noise_when,
	  .late = AUTO_LACK_NOISE },
	/* since the record's shape 3: older records lack it (null) */
	{ .name = "step_device_time_ns", .kind = RT_OBJECT, .off = AR(step_ns),
	  .sub = &share_table, .flags = RT_OPTIONAL | RT_NULLABLE,
	  .when = shares_when },
};

const struct rt_table auto_summary_table =
	RT_TABLE("summary", summary_rows);

const char *rt_step_name(const struct rt_table *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (t->f[i].kind == RT_CONST)
			return t->f[i].names[0];
	return NULL;
}

const char *const auto_lack_names[AUTO_LACKS] = {
	"positions", "timing_noise", "fat_copies", "open_au_passes",
};
