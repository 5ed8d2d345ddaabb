// SPDX-License-Identifier: GPL-2.0-only
/*
 * --auto's record as JSON: the "verdict" and "advice" members and the
 * "results" array of raw measurements (see auto.h).  Reads the record
 * only.
 *
 * Where the raw fields the decisions read are ("results" entries by their
 * "step"; --analyze on a record reads them back):
 * - align: blocksize, spacing, around (null: 0), reads_per_position
 *   (count), rows[] (medians), positions[] (each row's pos_ns as pre_ns,
 *   on_ns, post_ns and its pos_diff_ns as diff_ns; npos their length).
 * - group: blocksize, spacing, rows[], positions[] (struct auto_group).
 * - erase_writes: its presence (measured), anchors[].offset and
 *   .first_boundary (null: 0).
 * - fat: its presence (measured), reference_linear_ns, reference_random_ns,
 *   reference_copy_ns, reference_least_copy_ns (ref_gc_ns),
 *   reference_paid_copy (refs_paid), aus[] (naus) .linear_ns, .random_ns,
 *   .copy_ns, .typical_ns.
 * - open_au and summary: their tables (record/autoraw.c); mapping: its
 *   table (record/automap.c).
 * And the document's "options"."destructive".
 */
#include <inttypes.h>
#include <string.h>

#include "analyze.h"
#include "auto.h"
#include "autoout.h"
#include "autoraw.h"
#include "format.h"
#include "rowtext.h"

static const char *conf(enum analyze_confidence c)
{
	return analyze_confidence_name(c);
}

/* "fat_writes": which small writes showed the FAT area (none: null). */
static const char *const fat_writes[] = {
	[AUTO_FAT_BY_BOTH] = "both",
	[AUTO_FAT_BY_LINEAR] = "linear",
	[AUTO_FAT_BY_RANDOM] = "random",
};

static void json_size_or_null(struct json *j, const char *key, uint64_t v)
{
	if (v)
		json_u64(j, key, v);
	else
		json_null(j, key);
}

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
	o->open_random_known = n->measured;
	o->open_random_nr = n->nr;
	o->open_random_conf = n->measured ? n->confidence : 0;
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
}

static void json_verdict(struct json *j, const struct align_verdict *v,
			 const struct auto_result *r)
{
	struct auto_verdict_rec o;

	auto_verdict_of(v, r, &o);
	rt_write_object(j, "verdict", &auto_verdict_table, &o);
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
	rt_write_object(j, "advice", &auto_advice_table, &o);
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

static void json_search(struct json *j, const struct auto_result *r)
{
	const struct auto_erase_search *s = &r->erase_writes;
	unsigned int k;

	json_object_begin(j, NULL);
	json_string(j, "step", "erase_writes");
	json_size_or_null(j, "erase_size", s->erase_byte);
	json_string(j, "confidence", conf(s->confidence));
	json_size_or_null(j, "reads_erase_size", r->erase_reads.size_byte);
	json_string(j, "reads_confidence", conf(r->erase_reads.confidence));
	json_u64(j, "chunk_size", s->chunk_byte);
	json_u64(j, "largest_size", s->top_byte);
	json_u64(j, "warmup_writes", s->warmup);
	json_bool(j, "open_aus_full", s->filled);
	json_size_or_null(j, "data_size", s->data_byte);
	json_u64(j, "data_writes", s->data_writes);
	json_double(j, "open_au_write_ns", s->fast_ns);
	json_double(j, "new_au_write_ns", s->slow_ns);
	json_u64(j, "writes", s->writes);
	json_u64(j, "device_time_ns", r->step_ns[AUTO_STEP_ERASE_WRITES]);
	json_array_begin(j, "anchors");
	for (k = 0; k < s->nanchors; k++) {
		json_object_begin(j, NULL);
		json_u64(j, "offset", s->anchor_byte[k]);
		json_size_or_null(j, "first_boundary", s->boundary_byte[k]);
		json_object_end(j);
	}
	json_array_end(j);
	json_object_end(j);
}

static void json_fat(struct json *j, const struct auto_fat *f)
{
	size_t k;

	json_object_begin(j, NULL);
	json_string(j, "step", "fat");
	json_u64(j, "chunk_size", f->chunk_byte);
	json_double(j, "reference_linear_ns", f->ref_lin_ns);
	json_double(j, "reference_random_ns", f->ref_rnd_ns);
	json_double(j, "reference_copy_ns", f->ref_copy_ns);
	json_u64(j, "primed_aus", f->primed);
	json_bool(j, "primed_paid_copy", f->prime_paid);
	json_bool(j, "reference_paid_copy", f->refs_paid);
	json_double(j, "reference_least_copy_ns", f->ref_gc_ns);
	json_bool(j, "no_copy", f->found && f->nocopy);
	json_string(j, "not_seen", f->found ? NULL : f->slot_unseen ?
		    "no_copy" : f->speed_hidden ? "speed" : NULL);
	json_array_begin(j, "reference_aus");
	for (k = 0; k < AUTO_FAT_REFS; k++)
		json_u64(j, NULL, f->ref_au[k]);
	json_array_end(j);
	json_array_begin(j, "aus");
	for (k = 0; k < f->naus; k++) {
		json_object_begin(j, NULL);
		json_u64(j, "au", k);
		json_double(j, "linear_ns", f->lin_ns[k]);
		json_double(j, "random_ns", f->rnd_ns[k]);
		json_double(j, "linear_ratio", f->lin_ratio[k]);
		json_double(j, "random_ratio", f->rnd_ratio[k]);
		json_double(j, "copy_ns", f->copy_ns[k]);
		json_double(j, "copy_ratio", f->copy_ratio[k]);
		json_double(j, "typical_ns", f->typ_ns[k]);
		json_object_end(j);
	}
	json_array_end(j);
	json_object_end(j);
}

/*
 * One kind of a row's times at each of its positions: pre (k 0), on (1),
 * post (2), or the diff (k < 0).
 */
static void json_position_ns(struct json *j, const char *key,
			     const struct align_row *row, int k)
{
	unsigned int p;

	json_array_begin(j, key);
	for (p = 0; p < row->npos && p < 7; p++)
		json_i64(j, NULL, k < 0 ? row->pos_diff_ns[p] :
				  row->pos_ns[p][k]);
	json_array_end(j);
}

/*
 * The reads of each row at each of its positions (least of the reads per
 * position): what the decisions read beside the rows' medians.
 */
static void json_positions(struct json *j, const struct align_row *rows,
			   size_t n)
{
	size_t i;

	json_array_begin(j, "positions");
	for (i = 0; i < n; i++) {
		json_object_begin(j, NULL);
		json_u64(j, "align", rows[i].align_byte);
		json_position_ns(j, "pre_ns", &rows[i], 0);
		json_position_ns(j, "on_ns", &rows[i], 1);
		json_position_ns(j, "post_ns", &rows[i], 2);
		json_position_ns(j, "diff_ns", &rows[i], -1);
		json_object_end(j);
	}
	json_array_end(j);
}

/* Rows read by --auto: their medians ("rows") and "positions". */
static void json_rows(struct json *j, const struct align_row *rows, size_t n)
{
	json_array_begin(j, "rows");
	json_align(j, rows, n);
	json_array_end(j);
	json_positions(j, rows, n);
}

/* The group probe's rows, when it read any. */
static void json_group(struct json *j, const struct auto_group *g)
{
	json_object_begin(j, NULL);
	json_string(j, "step", "group");
	json_u64(j, "blocksize", g->blocksize_byte);
	json_u64(j, "spacing", g->spacing_byte);
	json_rows(j, g->rows, g->nrows);
	json_object_end(j);
}

void auto_json_results(struct json *j, const struct auto_result *r)
{
	size_t i;

	json_array_begin(j, "results");
	for (i = 0; i < r->ntables; i++) {
		const struct auto_table *t = &r->tables[i];

		json_object_begin(j, NULL);
		json_string(j, "step", "align");
		json_u64(j, "blocksize", t->blocksize_byte);
		json_u64(j, "spacing", t->spacing_byte);
		json_size_or_null(j, "around", t->around_byte);
		json_u64(j, "reads_per_position", t->count);
		json_rows(j, t->rows, t->nrows);
		json_object_end(j);
	}
	if (r->group_probe.rows)
		json_group(j, &r->group_probe);
	if (r->erase_writes.measured)
		json_search(j, r);
	if (r->fat.measured) {
		json_fat(j, &r->fat);
	}
	if (r->open_linear.measured || r->open_random.measured)
		rt_write_object(j, NULL, &auto_open_step_table, r);
	if (r->mapping.measured || r->mapping.standin_byte)
		rt_write_object(j, NULL, &auto_mapping_step_table, r);
	rt_write_object(j, NULL, &auto_summary_table, r);
	json_array_end(j);
}
