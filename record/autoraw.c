// SPDX-License-Identifier: GPL-2.0-only
/* --auto's raw measurements: the steps' tables (see autoraw.h). */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "alignrec.h"
#include "autoraw.h"
#include "autotab.h"
#include "c.h"

#define OP(member) offsetof(struct auto_open, member)
#define PR(member) offsetof(struct auto_probe, member)
#define NS(member) offsetof(struct auto_noise, member)
#define AR(member) offsetof(struct auto_result, member)

/* Decided from the raw fields again: written, never read. */
#define DECIDED .flags = RT_DERIVED

/* The member that names a step's entry: its table's RT_CONST row. */
static const char step_key[] = "step";

/* ---- align, group: tables of rows read ---- */

/* What an align table read: its read size, the distance between reads. */
#define READ_ROWS(type) \
	{ .name = "blocksize", .kind = RT_U64, \
	  .off = offsetof(type, blocksize_byte), .unit = "bytes" }, \
	{ .name = "spacing", .kind = RT_U64, \
	  .off = offsetof(type, spacing_byte), .unit = "bytes" }

/* Its rows' medians and, beside them, each row's reads (malloc'd). */
#define TABLE_ROWS(type) \
	{ .name = "rows", .kind = RT_ARRAY, .off = offsetof(type, rows), \
	  .sub = &align_row_table, .count_off = offsetof(type, nrows), \
	  .elem_size = sizeof(struct align_row), .max = AUTO_MAX_ROWS, \
	  .flags = RT_ALLOC }, \
	{ .name = "positions", .kind = RT_ARRAY, .off = offsetof(type, rows), \
	  .sub = &align_position_table, \
	  .count_off = offsetof(type, nrows), \
	  .elem_size = sizeof(struct align_row), .max = AUTO_MAX_ROWS, \
	  .flags = RT_ALLOC, .late = AUTO_LACK_POSITIONS }

#define AUTO_MAX_ROWS 4096	/* rows a record's table may have */

static const char *const align_step[] = { "align" };

static const struct rt_field align_step_rows[] = {
	{ .name = step_key, .kind = RT_CONST, .names = align_step,
	  .nnames = 1 },
	READ_ROWS(struct auto_table),
	{ .name = "around", .kind = RT_U64,
	  .off = offsetof(struct auto_table, around_byte), .unit = "bytes",
	  .flags = RT_ZERO_NULL },
	{ .name = "reads_per_position", .kind = RT_UINT,
	  .off = offsetof(struct auto_table, count), .unit = "count" },
	TABLE_ROWS(struct auto_table),
};

const struct rt_table auto_align_step_table =
	RT_TABLE("align", align_step_rows);

static const char *const group_step[] = { "group" };

static const struct rt_field group_step_rows[] = {
	{ .name = step_key, .kind = RT_CONST, .names = group_step,
	  .nnames = 1 },
	READ_ROWS(struct auto_group),
	TABLE_ROWS(struct auto_group),
};

const struct rt_table auto_group_step_table =
	RT_TABLE("group", group_step_rows);

/* ---- erase_writes: the erase size from writes ---- */

#define ES(member) offsetof(struct auto_result, erase_writes.member)

/* An anchor: an entry over anchor_byte[k] and boundary_byte[k]. */
static const struct rt_field anchor_rows[] = {
	{ .name = "offset", .kind = RT_U64, .off = 0, .unit = "bytes" },
	{ .name = "first_boundary", .kind = RT_U64,
	  .off = ES(boundary_byte) - ES(anchor_byte), .unit = "bytes",
	  .flags = RT_ZERO_NULL },
};

static const struct rt_table anchor_table = RT_TABLE("anchor", anchor_rows);

/* A record that has the step ran it. */
static void erase_read_done(void *rec)
{
	struct auto_result *r = rec;

	r->erase_writes.measured = 1;
}

static const char *const erase_step[] = { "erase_writes" };

static const struct rt_field erase_step_rows[] = {
	{ .name = step_key, .kind = RT_CONST, .names = erase_step,
	  .nnames = 1 },
	{ .name = "erase_size", .kind = RT_U64, .off = ES(erase_byte),
	  .unit = "bytes", .flags = RT_ZERO_NULL | RT_DERIVED },
	{ .name = "confidence", .kind = RT_ENUM, .off = ES(confidence),
	  .names = align_conf_names, .nnames = 4, DECIDED },
	{ .name = "reads_erase_size", .kind = RT_U64,
	  .off = AR(erase_reads.size_byte), .unit = "bytes",
	  .flags = RT_ZERO_NULL | RT_DERIVED },
	{ .name = "reads_confidence", .kind = RT_ENUM,
	  .off = AR(erase_reads.confidence), .names = align_conf_names,
	  .nnames = 4, DECIDED },
	{ .name = "chunk_size", .kind = RT_U64, .off = ES(chunk_byte),
	  .unit = "bytes" },
	{ .name = "largest_size", .kind = RT_U64, .off = ES(top_byte),
	  .unit = "bytes" },
	{ .name = "warmup_writes", .kind = RT_UINT, .off = ES(warmup),
	  .unit = "count" },
	{ .name = "open_aus_full", .kind = RT_BOOL, .off = ES(filled) },
	{ .name = "data_size", .kind = RT_U64, .off = ES(data_byte),
	  .unit = "bytes", .flags = RT_ZERO_NULL },
	{ .name = "data_writes", .kind = RT_UINT, .off = ES(data_writes),
	  .unit = "count" },
	{ .name = "open_au_write_ns", .kind = RT_DOUBLE, .off = ES(fast_ns),
	  .unit = "ns" },
	{ .name = "new_au_write_ns", .kind = RT_DOUBLE, .off = ES(slow_ns),
	  .unit = "ns" },
	{ .name = "writes", .kind = RT_UINT, .off = ES(writes),
	  .unit = "count" },
	{ .name = "device_time_ns", .kind = RT_U64,
	  .off = AR(step_ns[AUTO_STEP_ERASE_WRITES]), .unit = "ns" },
	{ .name = "anchors", .kind = RT_ARRAY, .off = ES(anchor_byte),
	  .sub = &anchor_table, .count_off = ES(nanchors),
	  .elem_size = sizeof(uint64_t), .max = AUTO_ERASE_ANCHORS,
	  .flags = RT_COUNT_UINT },
};

const struct rt_table auto_erase_step_table = {
	"erase_writes", erase_step_rows, ARRAY_SIZE(erase_step_rows),
	erase_read_done
};

/* ---- fat: the FAT area ---- */

#define FT(member) offsetof(struct auto_fat, member)

/*
 * The FAT probe's copy visits: 0 where an older record lacks them (no
 * copy then looks paid or spared: the area shows by its speed).
 */
#define COPIES .late = AUTO_LACK_FAT_COPIES

/* An AU looked at: an entry over lin_ns[k], rnd_ns[k] and the rest. */
#define AU(member) .off = FT(member)

static const struct rt_field fat_au_rows[] = {
	{ .name = "au", .kind = RT_INDEX, .unit = "AUs" },
	{ .name = "linear_ns", .kind = RT_DOUBLE, AU(lin_ns), .unit = "ns" },
	{ .name = "random_ns", .kind = RT_DOUBLE, AU(rnd_ns), .unit = "ns" },
	{ .name = "linear_ratio", .kind = RT_DOUBLE, AU(lin_ratio), DECIDED },
	{ .name = "random_ratio", .kind = RT_DOUBLE, AU(rnd_ratio), DECIDED },
	{ .name = "copy_ns", .kind = RT_DOUBLE, AU(copy_ns), .unit = "ns",
	  COPIES },
	{ .name = "copy_ratio", .kind = RT_DOUBLE, AU(copy_ratio), DECIDED },
	{ .name = "typical_ns", .kind = RT_DOUBLE, AU(typ_ns), .unit = "ns",
	  COPIES },
};

static const struct rt_table fat_au_table = RT_TABLE("fat AU", fat_au_rows);

/* The area's visits paid no copy: said only of an area found. */
static void no_copy_get(const void *rec, union rt_scalar *v)
{
	const struct auto_fat *f = rec;

	v->b = f->found && f->nocopy;
}

/* Why no area showed, when none did and one could have hidden. */
static void not_seen_get(const void *rec, union rt_scalar *v)
{
	const struct auto_fat *f = rec;

	v->s = f->found ? NULL : f->slot_unseen ? "no_copy" :
	       f->speed_hidden ? "speed" : f->faint_count ? "faint" : NULL;
}

static void fat_read_done(void *rec)
{
	struct auto_fat *f = rec;

	f->measured = 1;
}

static const char *const fat_step[] = { "fat" };

static const struct rt_field fat_step_rows[] = {
	{ .name = step_key, .kind = RT_CONST, .names = fat_step, .nnames = 1 },
	{ .name = "chunk_size", .kind = RT_U64, .off = FT(chunk_byte),
	  .unit = "bytes" },
	{ .name = "reference_linear_ns", .kind = RT_DOUBLE,
	  .off = FT(ref_lin_ns), .unit = "ns" },
	{ .name = "reference_random_ns", .kind = RT_DOUBLE,
	  .off = FT(ref_rnd_ns), .unit = "ns" },
	{ .name = "reference_copy_ns", .kind = RT_DOUBLE,
	  .off = FT(ref_copy_ns), .unit = "ns", COPIES },
	{ .name = "primed_aus", .kind = RT_UINT, .off = FT(primed),
	  .unit = "count", COPIES },
	{ .name = "primed_paid_copy", .kind = RT_BOOL, .off = FT(prime_paid),
	  COPIES },
	{ .name = "reference_paid_copy", .kind = RT_BOOL,
	  .off = FT(refs_paid), COPIES },
	{ .name = "reference_least_copy_ns", .kind = RT_DOUBLE,
	  .off = FT(ref_gc_ns), .unit = "ns", COPIES },
	{ .name = "no_copy", .kind = RT_BOOL, .get = no_copy_get, DECIDED },
	{ .name = "not_seen", .kind = RT_STRING, .get = not_seen_get,
	  .flags = RT_NULLABLE | RT_DERIVED },
	{ .name = "reference_aus", .kind = RT_LIST, .elem = RT_U64,
	  .off = FT(ref_au), .elem_size = sizeof(uint64_t),
	  .max = AUTO_FAT_REFS, .unit = "AUs", .flags = RT_FIXED },
	{ .name = "aus", .kind = RT_ARRAY, .off = 0, .sub = &fat_au_table,
	  .count_off = FT(naus), .elem_size = sizeof(double),
	  .max = AUTO_FAT_MAX, .flags = RT_COUNT_UINT },
};

const struct rt_table auto_fat_step_table = {
	"fat", fat_step_rows, ARRAY_SIZE(fat_step_rows), fat_read_done
};

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
	{ .name = step_key, .kind = RT_CONST, .names = open_step,
	  .nnames = 1 },
	{ .name = "linear", .kind = RT_OBJECT, .off = AR(open_linear),
	  .sub = &open_table },
	{ .name = "random", .kind = RT_OBJECT, .off = AR(open_random),
	  .sub = &open_table },
};

const struct rt_table auto_open_step_table =
	RT_TABLE("open_au", open_step_rows);

/*
 * The means of an older record's open-AU probes in one order, which it
 * did not keep: each probe's ratio to the search's reference write (the
 * first probe's mean, which the record keeps), as the run worked it out.
 */
static void open_means_read(const struct jr_value *v, struct auto_open *o)
{
	const struct jr_value *pr = jr_get(v, rt_key(&open_table,
						     OP(probes)));
	const char *mean = rt_key(&probe_table, PR(mean_ns));
	const char *ratio = rt_key(&probe_table, PR(ratio));
	double ref = jr_double(jr_get(v, rt_key(&open_table, OP(ref_ns))), 0);
	size_t i;

	for (i = 0; i < o->nprobes && i < jr_len(pr); i++)
		if (!jr_get(jr_at(pr, i), mean))
			o->probes[i].mean_ns = i ? ref * jr_double(
				jr_get(jr_at(pr, i), ratio), 0) : ref;
}

void auto_open_means_read(const struct jr_value *step, struct auto_result *r)
{
	const struct rt_table *t = &auto_open_step_table;

	open_means_read(jr_get(step, rt_key(t, AR(open_linear))),
			&r->open_linear);
	open_means_read(jr_get(step, rt_key(t, AR(open_random))),
			&r->open_random);
}

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
	{ .name = step_key, .kind = RT_CONST, .names = summary_step,
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

/* The align step's member of each row's reads: its row records lack. */
static const char *positions_key(void)
{
	const struct rt_table *t = &auto_align_step_table;
	size_t i;

	for (i = 0; i < t->n; i++)
		if (t->f[i].late == AUTO_LACK_POSITIONS)
			return t->f[i].name;
	return NULL;
}

int auto_raw_has_positions(const struct jr_value *results)
{
	const char *align = rt_step_name(&auto_align_step_table);
	size_t i;

	for (i = 0; i < jr_len(results); i++) {
		const struct jr_value *s = jr_at(results, i);

		if (!strcmp(jr_str(jr_get(s, step_key), ""), align))
			return jr_get(s, positions_key()) != NULL;
	}
	return 1;
}

const char *const auto_lack_names[AUTO_LACKS] = {
	"positions", "timing_noise", "fat_copies", "open_au_passes",
};

/* ---- the entries of "results", in the order they are written ---- */

static int group_read(const struct auto_result *r)
{
	return r->group_probe.rows != NULL;
}

static int erase_ran(const struct auto_result *r)
{
	return r->erase_writes.measured;
}

static int fat_ran(const struct auto_result *r)
{
	return r->fat.measured;
}

static int open_ran(const struct auto_result *r)
{
	return r->open_linear.measured || r->open_random.measured;
}

static int cache_ran(const struct auto_result *r)
{
	return r->cache.measured;
}

static int latency_ran(const struct auto_result *r)
{
	return r->latency.measured;
}

static int mapping_ran(const struct auto_result *r)
{
	return r->mapping.measured || r->mapping.standin_byte;
}

/* A step's entries: where its record is in struct auto_result. */
struct raw_step {
	const struct rt_table *t;
	size_t off;			/* its record (the first) */
	size_t elem_size;		/* several: one record's size */
	size_t count_off;		/* several: a size_t of how many */
	size_t max;			/* several: at most */
	int (*ran)(const struct auto_result *r); /* once: written? (NULL:
						 * always) */
};

static const struct raw_step raw_steps[] = {
	{ &auto_align_step_table, AR(tables), sizeof(struct auto_table),
	  AR(ntables), AUTO_MAX_TABLES, NULL },
	{ &auto_group_step_table, AR(group_probe), 0, 0, 0, group_read },
	{ &auto_cache_step_table, 0, 0, 0, 0, cache_ran },
	{ &auto_erase_step_table, 0, 0, 0, 0, erase_ran },
	{ &auto_fat_step_table, AR(fat), 0, 0, 0, fat_ran },
	{ &auto_open_step_table, 0, 0, 0, 0, open_ran },
	{ &auto_mapping_step_table, 0, 0, 0, 0, mapping_ran },
	{ &auto_latency_step_table, AR(latency), 0, 0, 0, latency_ran },
	{ &auto_summary_table, 0, 0, 0, 0, NULL },
};

static const void *rec_at(const struct auto_result *r, size_t off)
{
	return (const char *)r + off;
}

void auto_raw_write(struct json *j, const struct auto_result *r)
{
	const struct raw_step *s;
	size_t i, n;

	for (s = raw_steps; s < raw_steps + ARRAY_SIZE(raw_steps); s++) {
		if (s->elem_size) {
			n = *(const size_t *)rec_at(r, s->count_off);
			for (i = 0; i < n; i++)
				rt_write_object(j, NULL, s->t,
						rec_at(r, s->off +
						       i * s->elem_size));
		} else if (!s->ran || s->ran(r)) {
			rt_write_object(j, NULL, s->t, rec_at(r, s->off));
		}
	}
}

/* The record an entry of step s is read into (NULL: too many). */
static void *entry_of(struct rt_rd *c, const struct raw_step *s,
		      const struct jr_value *o, const char *where,
		      struct auto_result *r)
{
	size_t *n;

	if (!s->elem_size)
		return (char *)r + s->off;
	n = (size_t *)((char *)r + s->count_off);
	if (*n == s->max) {
		rt_fail(c, -EINVAL, o, "%s: more than %zu %s tables", where,
			s->max, rt_step_name(s->t));
		return NULL;
	}
	return (char *)r + s->off + (*n)++ * s->elem_size;
}

const struct rt_table *auto_raw_read(struct rt_rd *c,
				     const struct jr_value *o,
				     const char *where, struct auto_result *r)
{
	const struct raw_step *s;
	const char *step;
	void *rec;

	if (!jr_is(o, JR_OBJECT)) {
		rt_fail(c, -EINVAL, o, "%s is not an object", where);
		return NULL;
	}
	step = rt_rd_str_null(c, o, where, step_key);
	if (!step) {
		rt_fail(c, -ENOENT, o, "%s has no \"%s\"", where, step_key);
		return NULL;
	}
	for (s = raw_steps; s < raw_steps + ARRAY_SIZE(raw_steps); s++) {
		if (strcmp(step, rt_step_name(s->t)))
			continue;
		rec = entry_of(c, s, o, where, r);
		if (rec)
			rt_read(c, s->t, o, where, rec);
		return s->t;
	}
	rt_fail(c, -EINVAL, o, "%s: unknown step \"%s\"", where, step);
	return NULL;
}
