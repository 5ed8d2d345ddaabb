// SPDX-License-Identifier: GPL-2.0-only
/*
 * --auto's record as JSON: the "verdict" and "advice" members and the
 * "results" array of raw measurements (see auto.h).  Reads the record
 * only.
 *
 * The raw fields the decisions read ("results" entries by their step;
 * --analyze on a record reads them back) are the steps' tables
 * (record/autoraw.c); and the document's "options"."destructive".
 */
#include <inttypes.h>
#include <string.h>

#include "analyze.h"
#include "auto.h"
#include "autoout.h"
#include "autoraw.h"
#include "format.h"
#include "recbody.h"
#include "rowtext.h"
#include "writecache.h"

/* "fat_writes": which small writes showed the FAT area (none: null). */
static const char *const fat_writes[] = {
	[AUTO_FAT_BY_BOTH] = "both",
	[AUTO_FAT_BY_LINEAR] = "linear",
	[AUTO_FAT_BY_RANDOM] = "random",
};

/* Where the erase size came from, in the record's words. */
static const char *erase_from(const struct auto_result *r)
{
	if (!r->erase_writes.erase_byte)
		return "reads";
	return r->erase_from == AUTO_ERASE_FROM_WRITES ? "writes" :
	       r->erase_from == AUTO_ERASE_CONFIRMED ? "reads and writes" :
						       "reads";
}

/* The mapping's members of the verdict. */
static void auto_mapping_of(const struct auto_mapping *m,
			    struct auto_verdict_rec *o)
{
	static const char *const kind[] = {
		[AUTO_MAP_UNKNOWN] = NULL, [AUTO_MAP_PAGES] = "pages",
		[AUTO_MAP_AUS] = "aus",
	};

	o->mapping = kind[m->kind];
	o->mapping_conf = m->confidence;
	o->mapping_aus = m->kind == AUTO_MAP_UNKNOWN ? 0 : m->nr;
	o->mapping_unit_byte = m->unit_byte;
	o->mapping_unit_conf = m->unit_confidence;
	o->mapping_reason = m->kind != AUTO_MAP_UNKNOWN ? NULL :
			    m->why ? m->why : "reads alone do not show it";
}

void auto_verdict_of(const struct align_verdict *v,
		     const struct auto_result *r, struct auto_verdict_rec *o)
{
	const struct auto_open *l = &r->open_linear, *n = &r->open_random;
	const struct auto_fat *f = &r->fat;

	memset(o, 0, sizeof(*o));
	o->erase_byte = v->erase.size_byte;
	o->erase_conf = v->erase.confidence;
	o->page_byte = v->page.size_byte;
	o->page_conf = v->page.confidence;
	o->plane_byte = v->plane.size_byte;
	o->plane_conf = v->plane.confidence;
	o->group_byte = v->group.size_byte;
	o->group_conf = v->group.confidence;
	o->open_linear_known = l->measured;
	o->open_linear_nr = l->nr;
	o->open_linear_conf = l->measured ? l->confidence : 0;
	o->open_linear_at_least = l->at_least;
	o->open_random_known = n->measured;
	o->open_random_nr = n->nr;
	o->open_random_conf = n->measured ? n->confidence : 0;
	o->open_random_at_least = n->at_least;
	o->fat_measured = f->measured;
	o->fat_found = f->measured && f->found;
	/* fat_start counts AUs; fat_start_byte is the same in bytes */
	o->fat_start = f->start;
	o->fat_start_byte = (uint64_t)f->start * v->erase.size_byte;
	o->fat_count = o->fat_found ? f->count : 0;
	o->fat_conf = f->measured ? f->confidence : 0;
	o->fat_writes = o->fat_found ? fat_writes[auto_fat_shown_by(f)] :
				       NULL;
	o->timing_noise = r->noise.cells ? auto_noise_name(r->noise.level) :
					   NULL;
	o->erase_from = erase_from(r);
	auto_mapping_of(&r->mapping, o);
	o->destructive = r->destructive;
	o->capacity_done = r->capacity_done;
	if (r->capacity_done)
		o->capacity = r->capacity;
	o->latency = r->latency;
	o->cache_measured = r->cache.measured;
	o->cache_dropped = cache_seen(&r->cache);
	cache_verdict_of(&r->cache, &o->cache);
}

static void json_verdict(struct json *j, const struct align_verdict *v,
			 const struct auto_result *r)
{
	struct auto_verdict_rec o;

	auto_verdict_of(v, r, &o);
	rt_write_object(j, BODY_KEY(RM_VERDICT), &auto_verdict_table, &o);
}

void auto_json_advice(struct json *j, const struct auto_result *r)
{
	uint64_t erase = r->align.erase.size_byte;
	struct auto_advice_rec o;
	struct auto_advice a;

	auto_advise_for(r, &a);
	o.erase_known = erase != 0;
	o.sector_byte = a.sector_byte;
	o.start_sector = a.start_sector;
	o.start_byte = a.start_sector * a.sector_byte;
	o.ext4_stride = a.ext4_stride;
	o.ext4_stripe_width = a.ext4_stripe_width;
	o.f2fs_segs = a.f2fs_segs;
	o.max_sectors = a.max_sectors;
	o.max_byte = a.max_sectors * a.sector_byte;
	o.no_data = a.no_data;
	rt_write_object(j, BODY_KEY(RM_ADVICE), &auto_advice_table, &o);
}

void auto_json_verdict(struct json *j, const struct auto_result *r)
{
	json_verdict(j, &r->align, r);
}

void auto_json_align_verdict(struct json *j, const struct align_verdict *v)
{
	static const struct auto_result none;	/* nothing measured */

	json_verdict(j, v, &none);
}

void auto_json_results(struct json *j, const struct auto_result *r)
{
	json_array_begin(j, BODY_KEY(RM_RESULTS));
	auto_raw_write(j, r);
	json_array_end(j);
}
