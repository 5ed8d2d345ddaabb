// SPDX-License-Identifier: GPL-2.0-only
/*
 * --survey's rows (see survey.h): what each record kind holds, read by
 * name, so that records of every version that wrote these names mix; a
 * member a version did not write is a value not measured.  The serial
 * number is never copied: only a short hash of the CID that holds it.
 * The rows of one card are joined here too; output/survey.c prints them.
 */
#include <errno.h>
#include <stddef.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analyze.h"
#include "autotab.h"
#include "c.h"
#include "cacherec.h"
#include "cardrec.h"
#include "caprec.h"
#include "classrec.h"
#include "extcsd.h"
#include "latrec.h"
#include "rechead.h"
#include "rectab.h"
#include "rowsread.h"
#include "survey.h"

/* ---- reading a record ---- */

static void copy_str(char *dst, size_t len, const struct jr_value *v)
{
	snprintf(dst, len, "%s", jr_str(v, ""));
}

/* A number of the record (the device, its registers): set if it is one. */
static void num_of(struct survey_num *n, const struct jr_value *v)
{
	memset(n, 0, sizeof(*n));
	if (!jr_is(v, JR_NUMBER) || !(v->flags & JR_UINT64))
		return;
	n->conf = SV_HIGH;
	n->set = 1;
	n->v = v->u;
}

/* A confidence's index among its names is its survey_conf. */
_Static_assert(SV_LOW == 1 && SV_MEDIUM == 2 && SV_HIGH == 3,
	       "none, low, medium, high");

/*
 * The number at offset off of rec, read by table t (held: the rows that
 * held a value), with its row's confidence if it has one (a confidence
 * of "none" makes the value unmeasured, as a null does).
 */
static void num_at(struct survey_num *n, const struct rt_table *t,
		   const void *rec, uint64_t held, size_t off)
{
	const struct rt_field *f = rt_row_at(t, off);
	const char *p = rec;

	memset(n, 0, sizeof(*n));
	if (!f || !((held >> rt_index(t, f)) & 1))
		return;
	n->conf = f->conf_off ? *(const int *)(p + f->conf_off - 1) : SV_HIGH;
	if (!n->conf)
		return;
	n->set = 1;
	n->v = f->kind == RT_UINT ? *(const unsigned int *)(p + f->off) :
				    *(const uint64_t *)(p + f->off);
}

/* "C10 U1 V30 A1" from the card's claims; "none", or "" when unknown. */
static void stated_classes(char *buf, size_t len, const struct card_claims *c)
{
	const struct {
		int v;
		const char *prefix;
	} claims[] = {
		{ c->speed_class, "C" }, { c->uhs_grade, "U" },
		{ c->video_class, "V" }, { c->app_class, "A" },
	};
	size_t i, n = 0, known = 0;

	buf[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(claims); i++) {
		if (claims[i].v < 0)
			continue;
		known++;
		if (claims[i].v && n < len)
			n += (size_t)snprintf(buf + n, len - n, "%s%s%d",
					      n ? " " : "", claims[i].prefix,
					      claims[i].v);
	}
	if (known && !buf[0])
		snprintf(buf, len, "none");
}

/* One field of an eMMC's EXT_CSD, where the device defines it. */
static void num_ext_csd(struct survey_num *n, const struct ext_csd_info *e,
			enum ext_csd_field f)
{
	memset(n, 0, sizeof(*n));
	if (!ext_csd_get(e, f, &n->v))
		return;
	n->set = 1;
	n->conf = SV_HIGH;
}

/*
 * An eMMC's EXT_CSD, as the record keeps it (its hex string): its wear,
 * and its size where no CSD states one.
 */
static void row_ext_csd(struct survey_row *row, const struct jr_value *card)
{
	const char *hex = card_doc_ext_hex(card);
	struct ext_csd_raw raw;
	struct ext_csd_info e;
	char why[128];

	if (!hex || ext_csd_parse(hex, strlen(hex), &raw, why, sizeof(why)))
		return;
	ext_csd_decode(&raw, &e);
	num_ext_csd(&row->life_a, &e, ECF_DEVICE_LIFE_TIME_EST_TYP_A);
	num_ext_csd(&row->life_b, &e, ECF_DEVICE_LIFE_TIME_EST_TYP_B);
	num_ext_csd(&row->pre_eol, &e, ECF_PRE_EOL_INFO);
	if (!row->size.set && ext_csd_bytes(&e, ECF_SEC_COUNT)) {
		row->size.set = 1;
		row->size.conf = SV_HIGH;
		row->size.v = ext_csd_bytes(&e, ECF_SEC_COUNT);
	}
}

/* The identity: registers where the record has them. */
static void row_identity(struct survey_row *row, const struct jr_value *dev)
{
	const struct jr_value *card = jr_get(dev, DEVICE_KEY(card));
	const struct rt_table *t = &card_table;
	struct rt_rd rd = { .loose = 1 };
	struct card_doc d;
	uint64_t held = 0;

	card_doc_init(&d);
	rd.present = &held;
	if (jr_is(card, JR_OBJECT))
		rt_read(&rd, t, card, DEVICE_KEY(card), &d);
	copy_str(row->device, sizeof(row->device),
		 jr_get(dev, DEVICE_KEY(path)));
	row->manfid = d.ci.manfid;
	row->oemid = d.ci.oemid;
	snprintf(row->name, sizeof(row->name), "%s", d.ci.name);
	snprintf(row->date, sizeof(row->date), "%s", d.ci.date);
	copy_str(row->cid, sizeof(row->cid),
		 jr_get(card_doc_registers(card), card_file_names[CF_CID]));
	/* a record written with --hide-serial: its hash, as written */
	if (d.serial_hash[0])
		snprintf(row->serial_hash, sizeof(row->serial_hash), "%.8s",
			 d.serial_hash);
	else
		record_serial_hash(row->serial_hash, row->cid, row->manfid,
				   row->oemid, row->name, d.ci.serial);
	num_of(&row->size, jr_get(dev, DEVICE_KEY(size_byte)));
	if (!row->size.set)	/* --registers: what the CSD states */
		num_of(&row->size,
		       jr_get(card, CARD_KEY(ci.csd.capacity_byte)));
	num_at(&row->au_stated, t, &d, held,
	       offsetof(struct card_doc, ci.au_byte));
	stated_classes(row->stated, sizeof(row->stated), &d.ci.claims);
	row_ext_csd(row, card);
}

#define GEO(member) offsetof(struct auto_verdict_rec, member)

/* Pages or AUs, and a page-mapped card's unit (unknown: unset). */
static void row_mapping(struct survey_row *row, const struct rt_table *t,
			const struct auto_verdict_rec *g, uint64_t held)
{
	const struct rt_field *f = rt_row_at(t, GEO(mapping));

	row->mapping[0] = '\0';
	if (!((held >> rt_index(t, f)) & 1) || !g->mapping ||
	    !g->mapping_conf)
		return;
	snprintf(row->mapping, sizeof(row->mapping), "%s", g->mapping);
	row->mapping_conf = (enum survey_conf)g->mapping_conf;
	num_at(&row->map_unit, t, g, held, GEO(mapping_unit_byte));
}

/*
 * The write cache (null in the verdict: measured, none seen) and the
 * longest single write the run timed (rows the verdict table derives
 * from the raw steps, so read here by their own tables).
 */
static void row_writes(struct survey_row *row, const struct jr_value *v)
{
	const struct rt_table *t = &auto_verdict_table;
	const char *cname = rt_row_at(t, GEO(cache))->name;
	const char *lname = rt_row_at(t, GEO(latency))->name;
	const struct jr_value *cv = jr_get(v, cname);
	const struct jr_value *lv = jr_get(v, lname);
	struct rt_rd rd = { .loose = 1 };
	struct cache_verdict_rec c;
	struct auto_latency l;

	row->cache = jr_is(cv, JR_NULL) ? SV_CACHE_NONE : SV_CACHE_UNKNOWN;
	if (jr_is(cv, JR_OBJECT)) {
		memset(&c, 0, sizeof(c));
		rt_read(&rd, &cache_verdict_table, cv, cname, &c);
		row->cache = SV_CACHE_SEEN;
		row->cache_byte = c.size_byte;
		row->cache_at_least = c.size_at_least;
		row->cache_fast_mbps = c.fast_mbps;
		row->cache_native_mbps = c.native_mbps;
	}
	if (!jr_is(lv, JR_OBJECT))
		return;
	memset(&l, 0, sizeof(l));
	rt_read(&rd, &latency_verdict_table, lv, lname, &l);
	if (!l.writes)
		return;
	row->write_max_ns.set = row->write_p99_ns.set = 1;
	row->write_max_ns.conf = row->write_p99_ns.conf = SV_HIGH;
	row->write_max_ns.v = l.max_ns;
	row->write_p99_ns.v = l.p99_ns;
}

/* What --auto's verdict says of the card's geometry. */
static void row_geometry(struct survey_row *row, const struct jr_value *v)
{
	const struct rt_table *t = &auto_verdict_table;
	struct rt_rd rd = { .loose = 1 };
	struct auto_verdict_rec g;
	struct survey_num fat_nr;
	uint64_t held = 0;

	memset(&g, 0, sizeof(g));
	rd.present = &held;
	rt_read(&rd, t, v, BODY_KEY(RM_VERDICT), &g);
	num_at(&row->au, t, &g, held, GEO(erase_byte));
	num_at(&row->page, t, &g, held, GEO(page_byte));
	num_at(&row->unit, t, &g, held, GEO(plane_byte));
	num_at(&row->open_linear, t, &g, held, GEO(open_linear_nr));
	num_at(&row->open_random, t, &g, held, GEO(open_random_nr));
	num_at(&fat_nr, t, &g, held, GEO(fat_count));
	row_mapping(row, t, &g, held);
	row_writes(row, v);
	if (!fat_nr.set || !row->au.set)
		return;
	row->fat_size = fat_nr;
	row->fat_size.v = fat_nr.v * row->au.v;
	num_at(&row->fat_start, t, &g, held, GEO(fat_start_byte));
	row->fat_start.conf = fat_nr.conf;
}

/* One size the align table shows, with its confidence (none: unset). */
static void num_step(struct survey_num *n, const struct analyze_step *s)
{
	memset(n, 0, sizeof(*n));
	if (!s->size_byte || s->confidence == ANALYZE_CONF_NONE)
		return;
	n->set = 1;
	n->v = s->size_byte;
	n->conf = s->confidence == ANALYZE_CONF_LOW ? SV_LOW :
		  s->confidence == ANALYZE_CONF_MEDIUM ? SV_MEDIUM : SV_HIGH;
}

/* What an -a record's rows show, judged as --analyze judges them. */
static void row_align(struct survey_row *row, const struct jr_value *res)
{
	struct align_rows_bad bad;
	struct align_verdict v;
	struct align_row *rows;
	size_t n;

	if (align_rows_read(res, &rows, &n, &bad))
		return;
	if (!analyze_align(rows, n, &v)) {
		num_step(&row->au, &v.erase);
		num_step(&row->page, &v.page);
		num_step(&row->unit, &v.plane);
	}
	free(rows);
}

/* What -C found (the verdict of -C, or --auto --destructive's). */
static void row_capacity(struct survey_row *row, const struct jr_value *cap)
{
	const struct rt_table *t = &capacity_verdict_table;
	const struct rt_field *kind =
		rt_row_at(t, offsetof(struct capacity_result, kind));
	struct rt_rd rd = { .loose = 1 };
	struct capacity_result r;
	uint64_t held = 0;

	memset(&r, 0, sizeof(r));
	rd.present = &held;
	rt_read(&rd, t, cap, "capacity", &r);
	num_at(&row->usable, t, &r, held,
	       offsetof(struct capacity_result, usable_byte));
	row->capacity_kind[0] = '\0';
	if ((held >> rt_index(t, kind)) & 1)
		snprintf(row->capacity_kind, sizeof(row->capacity_kind),
			 "%s", capacity_kind_name(r.kind));
}

/* The classes measured: --auto's "class", -L's "results". */
static void row_classes(struct survey_row *row, const struct jr_value *arr)
{
	size_t i;

	for (i = 0; i < jr_len(arr) && row->nr_classes < SURVEY_CLASSES;
	     i++) {
		struct survey_class *k = &row->classes[row->nr_classes];
		struct rt_rd rd = { .loose = 1 };
		struct class_entry e = { 0 };

		rt_read(&rd, &class_said_table, jr_at(arr, i), "class", &e);
		if (!e.judged)
			continue;
		snprintf(k->name, sizeof(k->name), "%s", e.name ? e.name : "");
		k->pass = e.pass;
		k->within = e.within;
		row->nr_classes++;
	}
}

/* "2026-11-28T04:31:34Z" in ns since the epoch; 0 for anything else. */
static int64_t started_ns(const char *s)
{
	struct tm tm;
	char *end;

	memset(&tm, 0, sizeof(tm));
	end = s ? strptime(s, "%Y-%m-%dT%H:%M:%SZ", &tm) : NULL;
	if (!end || *end)
		return 0;
	return (int64_t)timegm(&tm) * 1000000000;
}

int survey_row_from(const struct jr_value *doc, struct survey_row *row,
		    char *why, size_t why_len)
{
	struct record_head h;
	const struct jr_value *verdict = jr_get(doc, BODY_KEY(RM_VERDICT));
	int ret = record_head_check(doc, why, why_len);

	if (ret)
		return ret;
	copy_str(row->test, sizeof(row->test), jr_get(doc, HEAD_KEY(test)));
	copy_str(row->version, sizeof(row->version),
		 jr_get(doc, HEAD_KEY(version)));
	row_identity(row, jr_get(doc, HEAD_KEY(dev)));
	record_head_read(doc, &h);
	row->started_ns = started_ns(h.started);
	row->records = 1;
	if (!strcmp(row->test, "auto")) {
		row_geometry(row, verdict);
		row_capacity(row, jr_get(verdict, rt_row_at(&auto_verdict_table,
						GEO(capacity))->name));
		row_classes(row, jr_get(doc, BODY_KEY(RM_CLASS)));
	} else if (!strcmp(row->test, "align")) {
		row_align(row, jr_get(doc, BODY_KEY(RM_RESULTS)));
	} else if (!strcmp(row->test, "capacity")) {
		row_capacity(row, verdict);
	} else if (!strcmp(row->test, "class")) {
		row_classes(row, jr_get(doc, BODY_KEY(RM_RESULTS)));
	}
	return 0;
}

/* ---- one row per card ---- */

/* Fill what newer lacks from older, field by field. */
static void fill_from(struct survey_row *newer, const struct survey_row *older)
{
	struct survey_num *n[] = {
		&newer->size, &newer->usable, &newer->au_stated, &newer->au,
		&newer->page, &newer->unit, &newer->open_linear,
		&newer->open_random, &newer->fat_start, &newer->fat_size,
		&newer->map_unit, &newer->life_a, &newer->life_b,
		&newer->pre_eol, &newer->write_max_ns, &newer->write_p99_ns,
	};
	const struct survey_num *o[] = {
		&older->size, &older->usable, &older->au_stated, &older->au,
		&older->page, &older->unit, &older->open_linear,
		&older->open_random, &older->fat_start, &older->fat_size,
		&older->map_unit, &older->life_a, &older->life_b,
		&older->pre_eol, &older->write_max_ns, &older->write_p99_ns,
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(n); i++)
		if (!n[i]->set)
			*n[i] = *o[i];
	if (!newer->capacity_kind[0])
		memcpy(newer->capacity_kind, older->capacity_kind,
		       sizeof(newer->capacity_kind));
	if (!newer->stated[0])
		memcpy(newer->stated, older->stated, sizeof(newer->stated));
	if (newer->cache == SV_CACHE_UNKNOWN) {
		newer->cache = older->cache;
		newer->cache_byte = older->cache_byte;
		newer->cache_at_least = older->cache_at_least;
		newer->cache_fast_mbps = older->cache_fast_mbps;
		newer->cache_native_mbps = older->cache_native_mbps;
	}
	if (!newer->mapping[0]) {
		memcpy(newer->mapping, older->mapping, sizeof(newer->mapping));
		newer->mapping_conf = older->mapping_conf;
	}
	if (!newer->nr_classes) {
		newer->nr_classes = older->nr_classes;
		memcpy(newer->classes, older->classes, sizeof(older->classes));
	}
	newer->records += older->records;
}

/* When a row's run was: the record's start, else its file's time. */
static int64_t row_time(const struct survey_row *r)
{
	return r->started_ns ? r->started_ns : r->mtime_ns;
}

/*
 * Nonzero if a was made after b (ties: the later file name).  A copy or
 * a download changes a file's time, not the record's start.
 */
static int newer_than(const struct survey_row *a, const struct survey_row *b)
{
	if (row_time(a) != row_time(b))
		return row_time(a) > row_time(b);
	return strcmp(a->record, b->record) > 0;
}

static int row_cmp(const void *pa, const void *pb)
{
	const struct survey_row *a = pa, *b = pb;
	uint64_t ma = (uint64_t)a->manfid, mb = (uint64_t)b->manfid;
	int d;

	if (ma != mb)	/* -1, unknown, sorts last */
		return ma < mb ? -1 : 1;
	d = strcmp(a->name, b->name);
	if (!d)
		d = strcmp(a->serial_hash, b->serial_hash);
	return d ? d : strcmp(a->record, b->record);
}

/* Nonzero if a and b hold no value that differs. */
static int agree(const struct survey_row *a, const struct survey_row *b)
{
	const struct survey_num *na[] = {
		&a->size, &a->usable, &a->au, &a->page, &a->unit,
		&a->open_linear, &a->open_random, &a->fat_size,
	};
	const struct survey_num *nb[] = {
		&b->size, &b->usable, &b->au, &b->page, &b->unit,
		&b->open_linear, &b->open_random, &b->fat_size,
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(na); i++)
		if (na[i]->set && nb[i]->set && na[i]->v != nb[i]->v)
			return 0;
	return !a->capacity_kind[0] || !b->capacity_kind[0] ||
	       !strcmp(a->capacity_kind, b->capacity_kind);
}

/*
 * Nonzero if the records of a and b are of one card: the same CID (by
 * its hash, which a record written with --hide-serial keeps); or,
 * neither having registers (a USB reader, a loop device), the same
 * device path and size and no value found that differs.
 */
static int same_card(const struct survey_row *a, const struct survey_row *b)
{
	/* the hash of the CID: a record written with --hide-serial keeps
	 * it, not the whole CID */
	if (a->serial_hash[0] || b->serial_hash[0])
		return !strcmp(a->serial_hash, b->serial_hash);
	if (a->cid[0] || b->cid[0])
		return !strcmp(a->cid, b->cid);
	return a->device[0] && !strcmp(a->device, b->device) &&
	       a->size.set && b->size.set && agree(a, b);
}

size_t survey_merge(struct survey_row *rows, size_t n)
{
	size_t i, k, out = 0;

	for (i = 0; i < n; i++) {
		for (k = 0; k < out; k++)
			if (same_card(&rows[k], &rows[i]))
				break;
		if (k == out) {
			if (out != i)
				rows[out] = rows[i];
			out++;
		} else if (newer_than(&rows[i], &rows[k])) {
			struct survey_row older = rows[k];

			rows[k] = rows[i];
			fill_from(&rows[k], &older);
		} else {
			fill_from(&rows[k], &rows[i]);
		}
	}
	qsort(rows, out, sizeof(*rows), row_cmp);
	return out;
}

const char *survey_grouped_by(const struct survey_row *r)
{
	if (r->cid[0] || r->serial_hash[0])
		return "card";
	return r->device[0] && r->size.set ? "device" : "record";
}
