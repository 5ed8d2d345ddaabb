// SPDX-License-Identifier: GPL-2.0-only
/*
 * --survey's rows (see survey.h): what each record kind holds, read by
 * name, so that records of every version that wrote these names mix; a
 * member a version did not write is a value not measured.  The serial
 * number is never copied: only a short hash of the CID that holds it.
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
#include "caprec.h"
#include "classrec.h"
#include "extcsd.h"
#include "format.h"
#include "json.h"
#include "rechead.h"
#include "rectab.h"
#include "rowsread.h"
#include "survey.h"
#include "wrap.h"

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
static void stated_classes(char *buf, size_t len, const struct jr_value *card)
{
	static const struct {
		const char *key, *prefix;
	} claims[] = {
		{ "speed_class", "C" }, { "uhs_grade", "U" },
		{ "video_class", "V" }, { "app_class", "A" },
	};
	size_t i, n = 0, known = 0;

	buf[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(claims); i++) {
		uint64_t v = jr_u64(jr_get(card, claims[i].key), UINT64_MAX);

		if (v == UINT64_MAX)
			continue;
		known++;
		if (v && n < len)
			n += (size_t)snprintf(buf + n, len - n, "%s%s%" PRIu64,
					      n ? " " : "", claims[i].prefix,
					      v);
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
	const char *hex = jr_str(jr_path(card, "registers.ext_csd.hex"), NULL);
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
	const struct jr_value *card = jr_get(dev, "card");
	const char *hidden = jr_str(jr_get(card, "serial_hash"), NULL);

	copy_str(row->device, sizeof(row->device), jr_get(dev, "path"));
	row->manfid = jr_i64(jr_get(card, "manfid"), -1);
	row->oemid = jr_i64(jr_get(card, "oemid"), -1);
	copy_str(row->name, sizeof(row->name), jr_get(card, "name"));
	copy_str(row->date, sizeof(row->date), jr_get(card, "date"));
	copy_str(row->cid, sizeof(row->cid), jr_path(card, "registers.cid"));
	/* a record written with --hide-serial: its hash, as written */
	if (hidden)
		snprintf(row->serial_hash, sizeof(row->serial_hash), "%.8s",
			 hidden);
	else
		record_serial_hash(row->serial_hash, row->cid, row->manfid,
				   row->oemid, row->name,
				   jr_i64(jr_get(card, "serial"), -1));
	num_of(&row->size, jr_get(dev, "size"));
	if (!row->size.set)	/* --registers: what the CSD states */
		num_of(&row->size, jr_get(card, "capacity"));
	num_of(&row->au_stated, jr_get(card, "au_size"));
	stated_classes(row->stated, sizeof(row->stated), card);
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
	rt_read(&rd, t, v, "verdict", &g);
	num_at(&row->au, t, &g, held, GEO(erase_byte));
	num_at(&row->page, t, &g, held, GEO(page_byte));
	num_at(&row->unit, t, &g, held, GEO(plane_byte));
	num_at(&row->open_linear, t, &g, held, GEO(open_linear_nr));
	num_at(&row->open_random, t, &g, held, GEO(open_random_nr));
	num_at(&fat_nr, t, &g, held, GEO(fat_count));
	row_mapping(row, t, &g, held);
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
	const struct jr_value *verdict = jr_get(doc, "verdict");
	int ret = record_head_check(doc, why, why_len);

	if (ret)
		return ret;
	copy_str(row->test, sizeof(row->test), jr_get(doc, "test"));
	copy_str(row->version, sizeof(row->version), jr_get(doc, "version"));
	row_identity(row, jr_get(doc, "device"));
	record_head_read(doc, &h);
	row->started_ns = started_ns(h.started);
	row->records = 1;
	if (!strcmp(row->test, "auto")) {
		row_geometry(row, verdict);
		row_capacity(row, jr_get(verdict, rt_row_at(&auto_verdict_table,
						GEO(capacity))->name));
		row_classes(row, jr_get(doc, "class"));
	} else if (!strcmp(row->test, "align")) {
		row_align(row, jr_get(doc, "results"));
	} else if (!strcmp(row->test, "capacity")) {
		row_capacity(row, verdict);
	} else if (!strcmp(row->test, "class")) {
		row_classes(row, jr_get(doc, "results"));
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
		&newer->pre_eol,
	};
	const struct survey_num *o[] = {
		&older->size, &older->usable, &older->au_stated, &older->au,
		&older->page, &older->unit, &older->open_linear,
		&older->open_random, &older->fat_start, &older->fat_size,
		&older->map_unit, &older->life_a, &older->life_b,
		&older->pre_eol,
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

/* ---- the table ---- */

/* The columns, in order, for every format. */
enum survey_col {
	COL_CARD, COL_MFR, COL_OEM, COL_DATE, COL_SERIAL, COL_SIZE,
	COL_USABLE, COL_AU_STATED, COL_AU, COL_PAGE, COL_UNIT, COL_OPEN,
	COL_OPEN_RANDOM, COL_FAT, COL_MAPPING, COL_LIFE, COL_STATED,
	COL_MEASURED, COL_RUNS, COL_RECORD, COL_NR,
};

static const char *const col_head[COL_NR] = {
	"card", "mfr", "oem", "date", "serial#", "size", "usable",
	"AU stated", "AU", "page", "unit", "open", "open rnd", "FAT",
	"map", "life", "classes", "measured", "runs", "record",
};

#define CELL_LEN 288	/* the longest cell: a record's path */

static const char *conf_mark(enum survey_conf c)
{
	return c == SV_LOW ? "?" : c == SV_MEDIUM ? "~" : "";
}

static void cell_size(char *buf, const struct survey_num *n)
{
	snprintf(buf, CELL_LEN, "-");
	if (n->set) {
		char s[FMT_LEN];

		snprintf(buf, CELL_LEN, "%s%s", fmt_size(s, n->v),
			 conf_mark(n->conf));
	}
}

static void cell_count(char *buf, const struct survey_num *n)
{
	if (!n->set)
		snprintf(buf, CELL_LEN, "-");
	else
		snprintf(buf, CELL_LEN, "%" PRIu64 "%s", n->v,
			 conf_mark(n->conf));
}

/* "0-4MiB" (start to end), "none", "-". */
static void cell_fat(char *buf, const struct survey_row *r)
{
	char a[FMT_LEN], b[FMT_LEN];

	if (!r->fat_size.set)
		snprintf(buf, CELL_LEN, "-");
	else if (!r->fat_size.v)
		snprintf(buf, CELL_LEN, "none%s", conf_mark(r->fat_size.conf));
	else
		snprintf(buf, CELL_LEN, "%s-%s%s",
			 r->fat_start.v ? fmt_size(a, r->fat_start.v) : "0",
			 fmt_size(b, r->fat_start.v + r->fat_size.v),
			 conf_mark(r->fat_size.conf));
}

/* "512MiB wrap" for a fake; the size alone for a genuine card. */
static void cell_usable(char *buf, const struct survey_row *r)
{
	char s[FMT_LEN];

	if (!r->usable.set)
		snprintf(buf, CELL_LEN, "-");
	else if (!strcmp(r->capacity_kind, "genuine") || !r->capacity_kind[0])
		snprintf(buf, CELL_LEN, "%s", fmt_size(s, r->usable.v));
	else
		snprintf(buf, CELL_LEN, "%s %s", fmt_size(s, r->usable.v),
			 r->capacity_kind);
}

/* "pages 16KiB~" (its unit, its mark), "aus", "-". */
static void cell_mapping(char *buf, const struct survey_row *r)
{
	size_t n;

	if (!r->mapping[0]) {
		snprintf(buf, CELL_LEN, "-");
		return;
	}
	n = (size_t)snprintf(buf, CELL_LEN, "%s%s", r->mapping,
			     conf_mark(r->mapping_conf));
	if (r->map_unit.set) {
		buf[n++] = ' ';
		cell_size(buf + n, &r->map_unit);
	}
}

/*
 * An eMMC's wear: the life time used of the type worn most, and the
 * pre-EOL state where it is not normal ("50-60 %", "90-100 % urgent").
 */
static void cell_life(char *buf, const struct survey_row *r)
{
	const struct survey_num *w = &r->life_b;
	char life[32];
	size_t n;

	if (!w->set || (r->life_a.set && r->life_a.v > w->v &&
			r->life_a.v <= 11))
		w = &r->life_a;
	if (!w->set && !r->pre_eol.set) {
		snprintf(buf, CELL_LEN, "-");
		return;
	}
	n = (size_t)snprintf(buf, CELL_LEN, "%s", w->set ?
			     ext_csd_life_text(life, sizeof(life), w->v) :
			     "");
	if (r->pre_eol.set && r->pre_eol.v != 1)
		snprintf(buf + n, CELL_LEN - n, "%spre-EOL %s", n ? " " : "",
			 ext_csd_pre_eol_text(r->pre_eol.v));
}

/* "C10:pass U3:FAIL". */
static void cell_measured(char *buf, const struct survey_row *r)
{
	size_t i, n = 0;

	snprintf(buf, CELL_LEN, "-");
	for (i = 0; i < r->nr_classes && n < CELL_LEN; i++)
		n += (size_t)snprintf(buf + n, CELL_LEN - n, "%s%s:%s",
				      i ? " " : "", r->classes[i].name,
				      r->classes[i].pass ? "pass" : "FAIL");
}

/* The OEM ID as its two ASCII letters where it is that ("SM"), else hex. */
static void cell_oem(char *buf, int64_t oem)
{
	int hi = (int)(oem >> 8) & 0xff, lo = (int)oem & 0xff;

	if (oem < 0)
		snprintf(buf, CELL_LEN, "-");
	else if (oem <= 0xffff && hi > 0x20 && hi < 0x7f && lo > 0x20 &&
		 lo < 0x7f)
		snprintf(buf, CELL_LEN, "%c%c", hi, lo);
	else
		snprintf(buf, CELL_LEN, "0x%04" PRIx64, (uint64_t)oem);
}

/* The last part of a path. */
static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static void cell(char *buf, const struct survey_row *r, enum survey_col c)
{
	const char *dash = "-";

	switch (c) {
	case COL_CARD:
		snprintf(buf, CELL_LEN, "%s", r->name[0] ? r->name :
			 r->device[0] ? r->device : dash);
		break;
	case COL_MFR:
		if (r->manfid < 0)
			snprintf(buf, CELL_LEN, "-");
		else
			snprintf(buf, CELL_LEN, "0x%02" PRIx64,
				 (uint64_t)r->manfid);
		break;
	case COL_OEM:
		cell_oem(buf, r->oemid);
		break;
	case COL_DATE:
		snprintf(buf, CELL_LEN, "%s", r->date[0] ? r->date : dash);
		break;
	case COL_SERIAL:
		snprintf(buf, CELL_LEN, "%s",
			 r->serial_hash[0] ? r->serial_hash : dash);
		break;
	case COL_SIZE:
		cell_size(buf, &r->size);
		break;
	case COL_USABLE:
		cell_usable(buf, r);
		break;
	case COL_AU_STATED:
		cell_size(buf, &r->au_stated);
		break;
	case COL_AU:
		cell_size(buf, &r->au);
		break;
	case COL_PAGE:
		cell_size(buf, &r->page);
		break;
	case COL_UNIT:
		cell_size(buf, &r->unit);
		break;
	case COL_OPEN:
		cell_count(buf, &r->open_linear);
		break;
	case COL_OPEN_RANDOM:
		cell_count(buf, &r->open_random);
		break;
	case COL_FAT:
		cell_fat(buf, r);
		break;
	case COL_MAPPING:
		cell_mapping(buf, r);
		break;
	case COL_LIFE:
		cell_life(buf, r);
		break;
	case COL_STATED:
		snprintf(buf, CELL_LEN, "%s", r->stated[0] ? r->stated : dash);
		break;
	case COL_MEASURED:
		cell_measured(buf, r);
		break;
	case COL_RUNS:
		snprintf(buf, CELL_LEN, "%u", r->records);
		break;
	default:
		snprintf(buf, CELL_LEN, "%s", base_name(r->record));
		break;
	}
}

static const char legend[] =
	"? low confidence, ~ medium, - not in the record; serial# is a hash;\n"
	" a card without registers is a row per device path, size and verdict";

/*
 * One "head value" pair of a card's lines at column *col (0: at the
 * start of a line after the first, its lead not printed yet): on this
 * line when it fits, else on the next; a pair wider than a line is
 * wrapped at its spaces.
 */
static void text_pair(FILE *out, const char *head, const char *value,
		      size_t *col)
{
	static const char lead[] = "  ";
	char pair[CELL_LEN + 32];
	size_t len;

	snprintf(pair, sizeof(pair), "%s %s", head, value);
	len = wrap_cols(pair, strlen(pair));
	if (*col && *col + 2 + len <= WRAP_COLS) {
		fprintf(out, "  %s", pair);
		*col += 2 + len;
		return;
	}
	if (*col)
		fputc('\n', out);
	fputs(lead, out);
	if (strlen(lead) + len <= WRAP_COLS) {
		fputs(pair, out);
		*col = strlen(lead) + len;
		return;
	}
	wrap_puts(out, lead, pair);
	*col = 0;
}

/*
 * A terminal's survey: a card a few lines long, its columns as "head
 * value" pairs packed into 80 columns (the table itself is --csv's and
 * --markdown's, whose lines no one reads on a terminal).
 */
static void print_text(FILE *out, const struct survey_row *rows, size_t n)
{
	char buf[CELL_LEN];
	size_t i, c, col;

	for (i = 0; i < n; i++) {
		cell(buf, &rows[i], COL_CARD);
		fputs(buf, out);
		col = wrap_cols(buf, strlen(buf));
		for (c = COL_CARD + 1; c < COL_NR; c++) {
			cell(buf, &rows[i], c);
			text_pair(out, col_head[c], buf, &col);
		}
		if (col)	/* (else a wrapped pair ended the line) */
			fputc('\n', out);
	}
	wrap_printf(out, "", "(%s)\n", legend);
}

/* A CSV field, quoted where it holds a comma, quote or line break. */
static void csv_field(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

static void print_csv(FILE *out, const struct survey_row *rows, size_t n)
{
	char buf[CELL_LEN];
	size_t i, c;

	for (c = 0; c < COL_NR; c++) {
		csv_field(out, col_head[c]);
		fputc(c + 1 < COL_NR ? ',' : '\n', out);
	}
	for (i = 0; i < n; i++)
		for (c = 0; c < COL_NR; c++) {
			cell(buf, &rows[i], c);
			csv_field(out, buf);
			fputc(c + 1 < COL_NR ? ',' : '\n', out);
		}
}

/* A Markdown cell: '|' escaped, line breaks as spaces. */
static void md_cell(FILE *out, const char *s)
{
	fputs(" ", out);
	for (; *s; s++) {
		if (*s == '|' || *s == '\\')
			fputc('\\', out);
		fputc(*s == '\n' || *s == '\r' ? ' ' : *s, out);
	}
	fputs(" |", out);
}

static void print_markdown(FILE *out, const struct survey_row *rows,
			   size_t n)
{
	char buf[CELL_LEN];
	size_t i, c;

	fputc('|', out);
	for (c = 0; c < COL_NR; c++)
		md_cell(out, col_head[c]);
	fputs("\n|", out);
	for (c = 0; c < COL_NR; c++)
		fputs("---|", out);
	fputc('\n', out);
	for (i = 0; i < n; i++) {
		fputc('|', out);
		for (c = 0; c < COL_NR; c++) {
			cell(buf, &rows[i], c);
			md_cell(out, buf);
		}
		fputc('\n', out);
	}
	fprintf(out, "\n%s\n", legend);
}

static const char *conf_name(const struct survey_num *n)
{
	static const char *const names[] = {
		[SV_LOW] = "low", [SV_MEDIUM] = "medium", [SV_HIGH] = "high",
	};

	return names[n->conf];
}

/* {"value": v, "confidence": "high"}, or null. */
static void json_num(struct json *j, const char *key,
		     const struct survey_num *n)
{
	if (!n->set) {
		json_null(j, key);
		return;
	}
	json_object_begin(j, key);
	json_u64(j, "value", n->v);
	json_string(j, "confidence", conf_name(n));
	json_object_end(j);
}

/* A register's raw value, or null. */
static void json_raw_or_null(struct json *j, const char *key,
			     const struct survey_num *n)
{
	if (n->set)
		json_u64(j, key, n->v);
	else
		json_null(j, key);
}

static void json_text_or_null(struct json *j, const char *key,
			      const char *s)
{
	if (s[0])
		json_string(j, key, s);
	else
		json_null(j, key);
}

static void json_row(struct json *j, const struct survey_row *r)
{
	size_t i;

	json_object_begin(j, NULL);
	json_text_or_null(j, "name", r->name);
	if (r->manfid >= 0)
		json_u64(j, "manfid", (uint64_t)r->manfid);
	else
		json_null(j, "manfid");
	if (r->oemid >= 0)
		json_u64(j, "oemid", (uint64_t)r->oemid);
	else
		json_null(j, "oemid");
	json_text_or_null(j, "date", r->date);
	json_text_or_null(j, "serial_hash", r->serial_hash);
	json_text_or_null(j, "device", r->device);
	json_num(j, "size", &r->size);
	json_num(j, "usable_size", &r->usable);
	json_text_or_null(j, "capacity_kind", r->capacity_kind);
	json_num(j, "au_stated", &r->au_stated);
	json_num(j, "erase_size", &r->au);
	json_num(j, "page_size", &r->page);
	json_num(j, "program_unit", &r->unit);
	json_num(j, "open_au_linear", &r->open_linear);
	json_num(j, "open_au_random", &r->open_random);
	json_num(j, "fat_start", &r->fat_start);
	json_num(j, "fat_size", &r->fat_size);
	if (r->mapping[0]) {
		struct survey_num m = { .set = 1, .conf = r->mapping_conf };

		json_object_begin(j, "mapping");
		json_string(j, "value", r->mapping);
		json_string(j, "confidence", conf_name(&m));
		json_object_end(j);
	} else {
		json_null(j, "mapping");
	}
	json_num(j, "mapping_unit", &r->map_unit);
	json_raw_or_null(j, "life_time_est_typ_a", &r->life_a);
	json_raw_or_null(j, "life_time_est_typ_b", &r->life_b);
	json_raw_or_null(j, "pre_eol_info", &r->pre_eol);
	json_text_or_null(j, "classes_stated", r->stated);
	json_array_begin(j, "classes_measured");
	for (i = 0; i < r->nr_classes; i++) {
		json_object_begin(j, NULL);
		json_string(j, "class", r->classes[i].name);
		json_bool(j, "pass", r->classes[i].pass);
		json_object_end(j);
	}
	json_array_end(j);
	json_u64(j, "records", r->records);
	json_string(j, "grouped_by", survey_grouped_by(r));
	json_string(j, "record", r->record);
	json_string(j, "record_test", r->test);
	json_string(j, "record_version", r->version);
	json_object_end(j);
}

static void print_json(FILE *out, const struct survey_row *rows, size_t n)
{
	struct json j;
	size_t i;

	json_init(&j, out);
	json_array_begin(&j, NULL);
	for (i = 0; i < n; i++)
		json_row(&j, &rows[i]);
	json_array_end(&j);
}

void survey_print(FILE *out, const struct survey_row *rows, size_t n,
		  enum survey_format fmt)
{
	switch (fmt) {
	case SURVEY_CSV:
		print_csv(out, rows, n);
		break;
	case SURVEY_MARKDOWN:
		print_markdown(out, rows, n);
		break;
	case SURVEY_JSON:
		print_json(out, rows, n);
		break;
	default:
		print_text(out, rows, n);
		break;
	}
}
