// SPDX-License-Identifier: GPL-2.0-only
/*
 * --auto's record read back into a struct auto_result: every member
 * output/autojson.c writes of the raw measurements, by the same names.
 * A member the decisions or the printing need and the record lacks is
 * an error naming it; nothing is guessed.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "autoraw.h"
#include "autoread.h"
#include "layout.h"
#include "rechead.h"
#include "rectab.h"

/* One kind of a row's times at each position (k: 0-2, or -1 the diff). */
static void rd_position_ns(struct rt_rd *c, const struct jr_value *p,
			   const char *where, const char *key,
			   struct align_row *row, int k)
{
	const struct jr_value *a = rt_rd_array(c, p, where, key, 7);
	char w[96];
	size_t i;

	if (!a)
		return;
	if (k == 0)
		row->npos = (unsigned int)a->n;
	else if (a->n != row->npos)
		rt_fail(c, -EINVAL, a, "%s.%s has %zu entries, pre_ns %u",
			where, key, a->n, row->npos);
	for (i = 0; i < a->n && i < row->npos && !c->ret; i++) {
		snprintf(w, sizeof(w), "%s.%s[%zu]", where, key, i);
		if (k < 0)
			row->pos_diff_ns[i] = rt_rd_i64(c, &a->v[i], w);
		else
			row->pos_ns[i][k] = rt_rd_i64(c, &a->v[i], w);
	}
}

/* Row i of rows[] and positions[] of a step. */
static void rd_row(struct rt_rd *c, const struct jr_value *row,
		   const struct jr_value *pos, const char *where, size_t i,
		   struct align_row *r)
{
	char w[64], p[64];

	snprintf(w, sizeof(w), "%s.rows[%zu]", where, i);
	snprintf(p, sizeof(p), "%s.positions[%zu]", where, i);
	r->align_byte = rt_rd_u64(c, row, w, "align", 0);
	r->pre_ns = rt_rd_i64(c, rt_rd_member(c, row, w, "pre_ns", JR_NUMBER), w);
	r->on_ns = rt_rd_i64(c, rt_rd_member(c, row, w, "on_ns", JR_NUMBER), w);
	r->post_ns = rt_rd_i64(c, rt_rd_member(c, row, w, "post_ns", JR_NUMBER), w);
	r->diff_ns = rt_rd_i64(c, rt_rd_member(c, row, w, "diff_ns", JR_NUMBER), w);
	if (!pos)	/* an older record: the row alone, as a pasted table's */
		return;
	if (!c->ret && rt_rd_u64(c, pos, p, "align", 0) != r->align_byte)
		rt_fail(c, -EINVAL, pos, "%s.align is not %s.align", p, w);
	rd_position_ns(c, pos, p, "pre_ns", r, 0);
	rd_position_ns(c, pos, p, "on_ns", r, 1);
	rd_position_ns(c, pos, p, "post_ns", r, 2);
	rd_position_ns(c, pos, p, "diff_ns", r, -1);
}

/* A step's rows[] and positions[] (one entry per row) into *rows. */
static void rd_rows(struct rt_rd *c, const struct jr_value *s, const char *where,
		    struct align_row **rows, size_t *n)
{
	const struct jr_value *rw = rt_rd_array(c, s, where, "rows", 4096);
	const struct jr_value *ps = NULL;
	size_t i;

	if (!rt_rd_lacks(c, s, "positions", AUTO_LACK_POSITIONS))
		ps = rt_rd_array(c, s, where, "positions", 4096);
	if (!rw || (!ps && !(c->lacked & AUTO_LACK_POSITIONS)))
		return;
	if (ps && rw->n != ps->n) {
		rt_fail(c, -EINVAL, ps, "%s has %zu rows but %zu positions",
			where, rw->n, ps->n);
		return;
	}
	*rows = calloc(rw->n ? rw->n : 1, sizeof(**rows));
	if (!*rows) {
		rt_fail(c, -ENOMEM, s, "out of memory");
		return;
	}
	*n = rw->n;
	for (i = 0; i < rw->n && !c->ret; i++)
		rd_row(c, &rw->v[i], ps ? &ps->v[i] : NULL, where, i,
		       &(*rows)[i]);
}

static void rd_align(struct rt_rd *c, const struct jr_value *s, const char *where,
		     struct auto_result *r)
{
	struct auto_table *t;

	if (r->ntables == AUTO_MAX_TABLES) {
		rt_fail(c, -EINVAL, s, "%s: more than %d align tables", where,
			AUTO_MAX_TABLES);
		return;
	}
	t = &r->tables[r->ntables++];
	t->blocksize_byte = rt_rd_u64(c, s, where, "blocksize", 0);
	t->spacing_byte = rt_rd_u64(c, s, where, "spacing", 0);
	t->around_byte = rt_rd_u64(c, s, where, "around", 1);
	t->count = rt_rd_uint(c, s, where, "reads_per_position");
	rd_rows(c, s, where, &t->rows, &t->nrows);
}

static void rd_group(struct rt_rd *c, const struct jr_value *s, const char *where,
		     struct auto_group *g)
{
	g->blocksize_byte = rt_rd_u64(c, s, where, "blocksize", 0);
	g->spacing_byte = rt_rd_u64(c, s, where, "spacing", 0);
	rd_rows(c, s, where, &g->rows, &g->nrows);
}

static void rd_search(struct rt_rd *c, const struct jr_value *s,
		      const char *where, struct auto_result *r)
{
	struct auto_erase_search *e = &r->erase_writes;
	const struct jr_value *a;
	char w[64];
	size_t k;

	e->measured = 1;
	e->chunk_byte = rt_rd_u64(c, s, where, "chunk_size", 0);
	e->top_byte = rt_rd_u64(c, s, where, "largest_size", 0);
	e->warmup = rt_rd_uint(c, s, where, "warmup_writes");
	e->filled = rt_rd_bool(c, s, where, "open_aus_full");
	e->data_byte = rt_rd_u64(c, s, where, "data_size", 1);
	e->data_writes = rt_rd_uint(c, s, where, "data_writes");
	e->fast_ns = rt_rd_f64(c, s, where, "open_au_write_ns");
	e->slow_ns = rt_rd_f64(c, s, where, "new_au_write_ns");
	e->writes = rt_rd_uint(c, s, where, "writes");
	r->step_ns[AUTO_STEP_ERASE_WRITES] = rt_rd_u64(c, s, where,
						       "device_time_ns", 0);
	a = rt_rd_array(c, s, where, "anchors", AUTO_ERASE_ANCHORS);
	for (k = 0; a && k < a->n && !c->ret; k++) {
		snprintf(w, sizeof(w), "%s.anchors[%zu]", where, k);
		e->anchor_byte[k] = rt_rd_u64(c, &a->v[k], w, "offset", 0);
		e->boundary_byte[k] = rt_rd_u64(c, &a->v[k], w, "first_boundary",
					     1);
	}
	e->nanchors = a ? (unsigned int)a->n : 0;
}

/*
 * A member of the FAT probe's copy visits: 0 where an older record lacks
 * them (no copy then looks paid or spared: the area shows by its speed).
 */
static double copies(struct rt_rd *c, const struct jr_value *o,
		     const char *where, const char *key)
{
	if (rt_rd_lacks(c, o, key, AUTO_LACK_FAT_COPIES))
		return 0;
	return rt_rd_f64(c, o, where, key);
}

/* The FAT probe's far AUs and each AU's times. */
static void rd_fat_aus(struct rt_rd *c, const struct jr_value *s,
		       const char *where, struct auto_fat *f)
{
	const struct jr_value *refs, *aus;
	char w[64];
	size_t k;

	refs = rt_rd_array(c, s, where, "reference_aus", AUTO_FAT_REFS);
	for (k = 0; refs && k < refs->n && !c->ret; k++) {
		if (!(refs->v[k].flags & JR_UINT64))
			rt_fail(c, -EINVAL, &refs->v[k],
				"%s.reference_aus[%zu] is not an AU", where, k);
		f->ref_au[k] = refs->v[k].u;
	}
	aus = rt_rd_array(c, s, where, "aus", AUTO_FAT_MAX);
	for (k = 0; aus && k < aus->n && !c->ret; k++) {
		const struct jr_value *au = &aus->v[k];

		snprintf(w, sizeof(w), "%s.aus[%zu]", where, k);
		f->lin_ns[k] = rt_rd_f64(c, au, w, "linear_ns");
		f->rnd_ns[k] = rt_rd_f64(c, au, w, "random_ns");
		f->copy_ns[k] = copies(c, au, w, "copy_ns");
		f->typ_ns[k] = copies(c, au, w, "typical_ns");
	}
	f->naus = aus ? (unsigned int)aus->n : 0;
}

static void rd_fat(struct rt_rd *c, const struct jr_value *s, const char *where,
		   struct auto_fat *f)
{
	f->measured = 1;
	f->chunk_byte = rt_rd_u64(c, s, where, "chunk_size", 0);
	f->ref_lin_ns = rt_rd_f64(c, s, where, "reference_linear_ns");
	f->ref_rnd_ns = rt_rd_f64(c, s, where, "reference_random_ns");
	f->ref_copy_ns = copies(c, s, where, "reference_copy_ns");
	if (!rt_rd_lacks(c, s, "primed_aus", AUTO_LACK_FAT_COPIES))
		f->primed = rt_rd_uint(c, s, where, "primed_aus");
	if (!rt_rd_lacks(c, s, "primed_paid_copy", AUTO_LACK_FAT_COPIES))
		f->prime_paid = rt_rd_bool(c, s, where, "primed_paid_copy");
	if (!rt_rd_lacks(c, s, "reference_paid_copy", AUTO_LACK_FAT_COPIES))
		f->refs_paid = rt_rd_bool(c, s, where, "reference_paid_copy");
	f->ref_gc_ns = copies(c, s, where, "reference_least_copy_ns");
	rd_fat_aus(c, s, where, f);
	f->copies_lacked = (c->lacked & AUTO_LACK_FAT_COPIES) != 0;
}

/*
 * The means of an older record's open-AU probes, which it did not keep:
 * each probe's ratio to the search's reference write (the first probe's
 * mean, which the record keeps), as the run worked it out.
 */
static void rd_open_means(const struct jr_value *s, const char *order,
			  struct auto_open *o)
{
	const struct jr_value *v = jr_get(s, order);
	const struct jr_value *pr = jr_get(v, "probes");
	double ref = jr_double(jr_get(v, "reference_write_ns"), 0);
	size_t i;

	for (i = 0; i < o->nprobes && i < jr_len(pr); i++)
		if (!jr_get(jr_at(pr, i), "mean_ns"))
			o->probes[i].mean_ns = i ? ref * jr_double(
				jr_get(jr_at(pr, i), "ratio"), 0) : ref;
}

/* One entry of "results", by its step. */
static void rd_step(struct rt_rd *c, const struct jr_value *s, size_t i,
		    struct auto_result *r, int *summary)
{
	const char *step;
	char w[32];

	snprintf(w, sizeof(w), "results[%zu]", i);
	if (!jr_is(s, JR_OBJECT)) {
		rt_fail(c, -EINVAL, s, "%s is not an object", w);
		return;
	}
	step = rt_rd_str_null(c, s, w, "step");
	if (!step)
		rt_fail(c, -ENOENT, s, "%s has no \"step\"", w);
	else if (!strcmp(step, "align"))
		rd_align(c, s, w, r);
	else if (!strcmp(step, "group"))
		rd_group(c, s, w, &r->group_probe);
	else if (!strcmp(step, "erase_writes"))
		rd_search(c, s, w, r);
	else if (!strcmp(step, "fat"))
		rd_fat(c, s, w, &r->fat);
	else if (!strcmp(step, rt_step_name(&auto_open_step_table))) {
		rt_read(c, &auto_open_step_table, s, w, r);
		rd_open_means(s, "linear", &r->open_linear);
		rd_open_means(s, "random", &r->open_random);
	}
	else if (!strcmp(step, rt_step_name(&auto_mapping_step_table)))
		rt_read(c, &auto_mapping_step_table, s, w, r);
	else if (!strcmp(step, rt_step_name(&auto_summary_table))) {
		rt_read(c, &auto_summary_table, s, w, r);
		*summary = 1;
	} else {
		rt_fail(c, -EINVAL, s, "%s: unknown step \"%s\"", w, step);
	}
}

/* verdict.capacity as the record states it, when the check ran. */
static void rd_capacity(struct rt_rd *c, const struct jr_value *doc,
			struct auto_result *r)
{
	const struct jr_value *v = jr_path(doc, "verdict.capacity");

	if (!jr_is(v, JR_OBJECT))
		return;
	r->capacity_done = 1;
	if (c->older) {
		/* the record's own verdict: what an older one holds of it */
		struct rt_rd loose = { .loose = 1 };

		rt_read(&loose, &capacity_verdict_table, v, "verdict.capacity",
			&r->capacity);
		return;
	}
	rt_read(c, &capacity_verdict_table, v, "verdict.capacity",
		 &r->capacity);
}

/* device.size and .logical_block_size: the sector and the search's room. */
static void rd_device(struct rt_rd *c, const struct jr_value *doc,
		      struct auto_result *r)
{
	const struct jr_value *d = rt_rd_member(c, doc, "the record", "device",
					     JR_OBJECT);
	uint64_t size;

	if (!d)
		return;
	size = rt_rd_u64(c, d, "device", "size", 0);
	r->device_byte = size;
	r->sector_byte = rt_rd_uint(c, d, "device", "logical_block_size");
	if (!c->ret) {
		struct bench_range ranges[AUTO_MAX_RANGES];

		r->search_fits = auto_search_ranges(size, r->sector_byte,
						    ranges,
						    AUTO_MAX_RANGES) >= 0;
	}
}

/*
 * The searches' bound an older record did not keep: the most AUs a probe
 * could write on the device at the erase size the run used (its verdict).
 */
static void rd_open_bounds(const struct jr_value *doc, struct auto_result *r)
{
	uint64_t erase = jr_u64(jr_path(doc, "verdict.erase_size"), 0);
	unsigned int max = erase ? auto_probe_max_nr(r->device_byte, erase) :
			   0;

	if (!r->open_linear.max_nr)
		r->open_linear.max_nr = max;
	if (!r->open_random.max_nr)
		r->open_random.max_nr = max;
}

int auto_record_read(const struct jr_value *doc, struct auto_result *r,
		     char *err, size_t err_len)
{
	struct rt_rd c = { .err = err, .err_len = err_len };
	const struct jr_value *res, *opt;
	int summary = 0;
	size_t i;

	memset(r, 0, sizeof(*r));
	c.older = record_shape(doc) < RECORD_SHAPE_WHOLE;
	rd_device(&c, doc, r);
	opt = rt_rd_member(&c, doc, "the record", "options", JR_OBJECT);
	r->destructive = rt_rd_bool(&c, opt, "options", "destructive");
	res = rt_rd_member(&c, doc, "the record", "results", JR_ARRAY);
	for (i = 0; res && i < res->n && !c.ret; i++)
		rd_step(&c, &res->v[i], i, r, &summary);
	if (!c.ret && !summary)
		rt_fail(&c, -ENOENT, res, "results has no \"%s\" step",
			rt_step_name(&auto_summary_table));
	if (!c.ret && !r->ntables && !r->skip_reason)
		rt_fail(&c, -ENOENT, res, "results has no \"align\" step");
	rd_capacity(&c, doc, r);
	r->lacks = c.lacked;
	if (!c.ret && (r->lacks & AUTO_LACK_OPEN_PASSES))
		rd_open_bounds(doc, r);
	return c.ret;
}
