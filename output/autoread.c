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
	const struct rt_table *t;
	char w[32];

	snprintf(w, sizeof(w), "results[%zu]", i);
	t = auto_raw_read(c, s, w, r);
	if (t == &auto_summary_table)
		*summary = 1;
	if (t == &auto_fat_step_table)
		r->fat.copies_lacked = (c->lacked & AUTO_LACK_FAT_COPIES) != 0;
	if (t == &auto_open_step_table) {
		rd_open_means(s, "linear", &r->open_linear);
		rd_open_means(s, "random", &r->open_random);
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
		rt_fail(&c, -ENOENT, res, "results has no \"%s\" step",
			rt_step_name(&auto_align_step_table));
	rd_capacity(&c, doc, r);
	r->lacks = c.lacked;
	if (!c.ret && (r->lacks & AUTO_LACK_OPEN_PASSES))
		rd_open_bounds(doc, r);
	return c.ret;
}
