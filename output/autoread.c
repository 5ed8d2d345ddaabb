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
#include "autotab.h"
#include "layout.h"
#include "rechead.h"
#include "rectab.h"

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
	if (t == &auto_open_step_table)
		auto_open_means_read(s, r);
}

/* verdict.capacity as the record states it, when the check ran. */
static void rd_capacity(struct rt_rd *c, const struct jr_value *doc,
			struct auto_result *r)
{
	const char *cap = rt_key(&auto_verdict_table,
				 offsetof(struct auto_verdict_rec, capacity));
	const struct jr_value *v = jr_get(jr_get(doc, BODY_KEY(RM_VERDICT)),
					  cap);
	char where[64];

	if (!jr_is(v, JR_OBJECT))
		return;
	r->capacity_done = 1;
	snprintf(where, sizeof(where), "verdict.%s", cap);
	if (c->older) {
		/* the record's own verdict: what an older one holds of it */
		struct rt_rd loose = { .loose = 1 };

		rt_read(&loose, &capacity_verdict_table, v, where,
			&r->capacity);
		return;
	}
	rt_read(c, &capacity_verdict_table, v, where, &r->capacity);
}

/* The device's size and block: the sector and the search's room. */
static void rd_device(struct rt_rd *c, const struct jr_value *doc,
		      struct auto_result *r)
{
	const char *dev = HEAD_KEY(dev);
	const struct jr_value *d = rt_rd_member(c, doc, "the record", dev,
					     JR_OBJECT);
	uint64_t size;

	if (!d)
		return;
	size = rt_rd_u64(c, d, dev, DEVICE_KEY(size_byte), 0);
	r->device_byte = size;
	r->sector_byte = rt_rd_uint(c, d, dev, DEVICE_KEY(block_byte));
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
	const char *key = rt_key(&auto_verdict_table,
				 offsetof(struct auto_verdict_rec, erase_byte));
	uint64_t erase = jr_u64(jr_get(jr_get(doc, BODY_KEY(RM_VERDICT)),
				       key), 0);
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
	opt = rt_rd_member(&c, doc, "the record", HEAD_KEY(opts), JR_OBJECT);
	r->destructive = rt_rd_bool(&c, opt, HEAD_KEY(opts),
				    OPTIONS_KEY(destructive));
	res = rt_rd_member(&c, doc, "the record", BODY_KEY(RM_RESULTS),
			   JR_ARRAY);
	for (i = 0; res && i < res->n && !c.ret; i++)
		rd_step(&c, &res->v[i], i, r, &summary);
	if (!c.ret && !summary)
		rt_fail(&c, -ENOENT, res, "results has no \"%s\" step",
			rt_step_name(&auto_summary_table));
	if (!c.ret && !r->ntables && !r->skip_reason)
		rt_fail(&c, -ENOENT, res, "results has no \"%s\" step",
			rt_step_name(&auto_align_step_table));
	rd_capacity(&c, doc, r);
	r->cache.dev_half_byte = r->device_byte / 2;	/* its writes' bound */
	r->lacks = c.lacked;
	if (!c.ret && (r->lacks & AUTO_LACK_OPEN_PASSES))
		rd_open_bounds(doc, r);
	return c.ret;
}
