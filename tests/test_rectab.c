// SPDX-License-Identifier: GPL-2.0-only
/*
 * The record tables (record/rectab.h) against the record's schema
 * (doc/flashbench.schema.json): every row of a table is a property of
 * its schema object with a type that matches its kind (a row that may
 * be written null allows null; an enum's names are the schema's; a
 * size or time names its unit), and every property of those objects is
 * a row of one of their tables.  A doctored table and a doctored schema
 * show that the walk fails when they disagree.  The record's members
 * are the head's and the tail's rows and the body's (record/recbody.h),
 * all of them.
 *
 * And a JSON name is spelled in its table alone: no string of the
 * program's sources (comments aside) outside record/'s table files is
 * a name of a table's row or of the body, but where the file is listed
 * as using the same word for something else; a doctored source shows
 * it is found.
 */
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alignrec.h"
#include "autoraw.h"
#include "autotab.h"
#include "c.h"
#include "caprec.h"
#include "cardrec.h"
#include "classrec.h"
#include "extcsd.h"
#include "jsonread.h"
#include "rechead.h"
#include "rectab.h"
#include "tfiles.h"
#include "util.h"

#define SCHEMA "doc/flashbench.schema.json"

/* A schema object and the tables whose rows are its properties. */
struct pairing {
	const char *path;		/* in the schema, dotted */
	const struct rt_table *t[10];	/* NULL-terminated */
	int partial;			/* some properties in no table yet */
};

static const struct pairing pairings[] = {
	{ .path = "definitions.class_result", .t = { &class_entry_table } },
	{ .path = "definitions.capacity",
	  .t = { &capacity_verdict_table, &capfix_table } },
	{ .path = "definitions.capacity_evidence",
	  .t = { &capacity_evidence_table } },
	{ .path = "definitions.estimate", .t = { &capacity_estimate_table } },
	{ .path = "definitions.time_ops", .t = { &timeops_table } },
	{ .path = "definitions.record_said.properties.classes.items",
	  .t = { &class_said_table } },
	/* the members of --auto's and -C's verdicts aside */
	{ .path = "definitions.record_said",
	  .t = { &class_said_list_table }, .partial = 1 },
	{ .path = "definitions.geometry", .t = { &auto_verdict_table } },
	{ .path = "definitions.advice", .t = { &auto_advice_table } },
	{ .path = "definitions.reconcile", .t = { &reconcile_table } },
	{ .path = "definitions.align_row", .t = { &align_row_table } },
	{ .path = "definitions.device.properties.card", .t = { &card_table } },
	/* the JEDEC fields are extcsd.c's table (test_rectab_ext_csd) */
	{ .path = "definitions.ext_csd", .t = { &ext_csd_table },
	  .partial = 1 },
	{ .path = "definitions.device", .t = { &record_device_table } },
	{ .path = "definitions.options", .t = { &record_options_table } },
	/* the members a test writes between the head and the tail aside */
	{ .path = "definitions.record",
	  .t = { &record_head_table, &record_tail_table }, .partial = 1 },
	{ .path = "definitions.auto_step",
	  .t = { &auto_align_step_table, &auto_group_step_table,
		 &auto_erase_step_table, &auto_fat_step_table,
		 &auto_open_step_table, &auto_mapping_step_table,
		 &auto_cache_step_table, &auto_latency_step_table,
		 &auto_summary_table } },
};

/*
 * The tables of the pairing that has t (a nested record whose schema
 * object other tables share: "capacity" with its fix); else t alone.
 */
static const struct rt_table *const *tables_of(const struct rt_table *t,
					       const struct rt_table *alone[2])
{
	size_t i, k;

	for (i = 0; i < ARRAY_SIZE(pairings); i++)
		for (k = 0; pairings[i].t[k]; k++)
			if (pairings[i].t[k] == t)
				return pairings[i].t;
	alone[0] = t;
	alone[1] = NULL;
	return alone;
}

/* What the walk found wrong, one line each. */
struct findings {
	char text[4096];
	size_t n;
};

static void found(struct findings *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void found(struct findings *w, const char *fmt, ...)
{
	size_t len = strlen(w->text);
	va_list ap;

	w->n++;
	if (len + 2 >= sizeof(w->text))
		return;
	va_start(ap, fmt);
	vsnprintf(w->text + len, sizeof(w->text) - len - 1, fmt, ap);
	va_end(ap);
	strcat(w->text, "\n");
}

/* Does the property's "type" (a string or an array) name type? */
static int has_type(const struct jr_value *prop, const char *type)
{
	const struct jr_value *t = jr_get(prop, "type");
	size_t i;

	if (jr_is(t, JR_STRING))
		return !strcmp(t->s, type);
	for (i = 0; i < jr_len(t); i++)
		if (!strcmp(jr_str(jr_at(t, i), ""), type))
			return 1;
	return 0;
}

/* Does the property's "enum" hold name (NULL: null)? */
static int in_enum(const struct jr_value *prop, const char *name)
{
	const struct jr_value *e = jr_get(prop, "enum");
	size_t i;

	for (i = 0; i < jr_len(e); i++) {
		const struct jr_value *v = jr_at(e, i);

		if (name ? jr_is(v, JR_STRING) && !strcmp(v->s, name) :
			   jr_is(v, JR_NULL))
			return 1;
	}
	return 0;
}

/* May the row be written null? */
static int writes_null(const struct rt_field *f)
{
	return (f->flags & (RT_ZERO_NULL | RT_NULLABLE | RT_NEG_NULL)) ||
	       (f->has_off && !(f->flags & RT_HAS_OMIT)) ||
	       f->kind == RT_DOUBLE;	/* inf and nan */
}

static const char *json_type(const struct rt_field *f)
{
	switch (f->kind) {
	case RT_U64:
	case RT_UINT:
	case RT_I64:
	case RT_INDEX:
	case RT_INT:
		return "integer";
	case RT_DOUBLE:
		return "number";
	case RT_BOOL:
		return "boolean";
	case RT_STRING:
	case RT_CHARS:
		return "string";
	case RT_OBJECT:
		return "object";
	case RT_ARRAY:
	case RT_LIST:
		return "array";
	default:
		return NULL;	/* an enum */
	}
}

static void walk(struct findings *w, const struct jr_value *schema,
		 const struct jr_value *obj, const char *where,
		 const struct rt_table *const *t, int partial);

/* A property, or what its "$ref" ("#/definitions/x") names. */
static const struct jr_value *resolve(const struct jr_value *schema,
				      const struct jr_value *prop)
{
	const char *ref = jr_str(jr_get(prop, "$ref"), NULL);
	char path[128];
	size_t i;

	if (!ref || strncmp(ref, "#/", 2))
		return prop;
	snprintf(path, sizeof(path), "%s", ref + 2);
	for (i = 0; path[i]; i++)
		if (path[i] == '/')
			path[i] = '.';
	return jr_path(schema, path);
}

/* An RT_CONF row: an object of the confidence of each row that has one. */
static void check_conf(struct findings *w, const struct rt_table *t,
		       const struct rt_field *c, const struct jr_value *prop,
		       const char *where)
{
	const struct jr_value *props = jr_get(prop, "properties");
	size_t i, k, n = 0;

	for (i = 0; i < t->n; i++) {
		const struct jr_value *p;

		if (!t->f[i].conf_off)
			continue;
		n++;
		p = jr_get(props, t->f[i].name);
		if (!p)
			found(w, "%s.%s.%s: not in the schema", where, c->name,
			      t->f[i].name);
		for (k = 0; p && k < c->nnames; k++)
			if (!in_enum(p, c->names[k]))
				found(w, "%s.%s.%s: \"%s\" is not in the schema's enum",
				      where, c->name, t->f[i].name,
				      c->names[k]);
	}
	if (jr_len(props) != n)
		found(w, "%s.%s: %zu members in the schema, %zu rows with a confidence",
		      where, c->name, jr_len(props), n);
}

/* Row f of table t against property prop. */
static void check_row(struct findings *w, const struct jr_value *schema,
		      const struct rt_table *t, const struct rt_field *f,
		      const struct jr_value *prop, const char *where)
{
	const char *type = json_type(f);
	const char *desc;
	size_t i;

	prop = resolve(schema, prop);
	desc = jr_str(jr_get(prop, "description"), "");
	if (f->kind == RT_CONF) {
		check_conf(w, t, f, prop, where);
		return;
	}
	/* a string row may be held to an enum, an enum row to a string */
	if (f->kind == RT_STRING && jr_get(prop, "enum"))
		type = NULL;
	if (!type && !jr_get(prop, "enum") && !has_type(prop, "string"))
		found(w, "%s.%s: a string in the table, not in the schema",
		      where, f->name);
	if (type && !has_type(prop, type))
		found(w, "%s.%s: a %s in the table, not in the schema", where,
		      f->name, type);
	for (i = 0; jr_get(prop, "enum") && i < f->nnames; i++)
		if (f->names[i] && !in_enum(prop, f->names[i]))
			found(w, "%s.%s: \"%s\" is not in the schema's enum",
			      where, f->name, f->names[i]);
	if (writes_null(f) && !has_type(prop, "null") && !in_enum(prop, NULL))
		found(w, "%s.%s: may be written null, the schema says not",
		      where, f->name);
	if (f->unit && (!strcmp(f->unit, "bytes") || !strcmp(f->unit, "ns")) &&
	    !strcasestr(desc, f->unit) &&
	    !(!strcmp(f->unit, "ns") && strstr(desc, "nanoseconds")))
		found(w, "%s.%s: in %s, the schema's description does not say so",
		      where, f->name, f->unit);
	if (f->kind == RT_LIST) {
		struct rt_field e = { .name = "items", .kind = f->elem };
		const struct jr_value *items = resolve(schema,
						       jr_get(prop, "items"));

		/* the schema may hold integers to "number" */
		if (!has_type(items, json_type(&e)) &&
		    !(f->elem != RT_DOUBLE && has_type(items, "number")))
			found(w, "%s.%s: a list of %s in the table, not in the schema",
			      where, f->name, json_type(&e));
	}
	if ((f->kind == RT_OBJECT || f->kind == RT_ARRAY) && f->sub) {
		const struct rt_table *alone[2];
		char w2[160];

		snprintf(w2, sizeof(w2), "%s.%s", where, f->name);
		if (f->kind == RT_ARRAY)
			prop = resolve(schema, jr_get(prop, "items"));
		walk(w, schema, prop, w2, tables_of(f->sub, alone), 0);
	}
}

/*
 * The rows of tables t against the schema object obj, both ways (one
 * way when partial).
 */
static void walk(struct findings *w, const struct jr_value *schema,
		 const struct jr_value *obj, const char *where,
		 const struct rt_table *const *t, int partial)
{
	const struct jr_value *props = jr_get(obj, "properties");
	size_t i, k;

	if (!jr_is(props, JR_OBJECT)) {
		found(w, "%s: no properties in the schema", where);
		return;
	}
	for (k = 0; t[k]; k++)
		for (i = 0; i < t[k]->n; i++) {
			const struct rt_field *f = &t[k]->f[i];
			const struct jr_value *p = jr_get(props, f->name);

			if (f->flags & RT_SPREAD)
				continue;	/* another table's */
			if (!p)
				found(w, "%s.%s: in table %s, not in the schema",
				      where, f->name, t[k]->name);
			else
				check_row(w, schema, t[k], f, p, where);
		}
	for (i = 0; !partial && i < props->n; i++) {
		int in = 0;

		for (k = 0; t[k] && !in; k++)
			in = rt_find(t[k], props->keys[i]) != NULL;
		if (!in)
			found(w, "%s.%s: in the schema, in no table", where,
			      props->keys[i]);
	}
}

/* Every pairing walked; how many disagreements. */
static size_t walk_all(const struct jr_value *schema, struct findings *w)
{
	size_t i;

	memset(w, 0, sizeof(*w));
	for (i = 0; i < ARRAY_SIZE(pairings); i++)
		walk(w, schema, jr_path(schema, pairings[i].path),
		     pairings[i].path, pairings[i].t, pairings[i].partial);
	return w->n;
}

static struct jr_value *load_schema(void)
{
	struct jr_value *doc = NULL;
	char err[JR_ERR_LEN];
	size_t len;
	unsigned char *text = t_read_file(SCHEMA, &len);

	ck_assert_msg(text != NULL, "%s", SCHEMA);
	ck_assert_msg(!jr_parse((const char *)text, len, NULL, &doc, err,
				sizeof(err)), "%s:%s", SCHEMA, err);
	free(text);
	return doc;
}

START_TEST(test_rectab_schema)
{
	struct jr_value *schema = load_schema();
	struct findings w;

	ck_assert_msg(walk_all(schema, &w) == 0, "%s", w.text);
	jr_free(schema);
}
END_TEST

/*
 * The schema's shape: FNV-1a over every member's name and every value
 * but the descriptions (rewording a member is no change of shape), in
 * the schema's order; a record's shape only: not --survey's rows, which
 * no record holds.
 */
static uint64_t shape_sum(const struct jr_value *v, uint64_t h)
{
	const char *p;
	size_t i;

	switch (v->type) {
	case JR_OBJECT:
		for (i = 0; i < v->n; i++) {
			if (!strcmp(v->keys[i], "description") ||
			    !strcmp(v->keys[i], "survey_row"))
				continue;
			for (p = v->keys[i]; *p; p++)
				h = (h ^ (unsigned char)*p) * 0x100000001b3ULL;
			h = shape_sum(&v->v[i], (h ^ ':') * 0x100000001b3ULL);
		}
		break;
	case JR_ARRAY:
		for (i = 0; i < v->n; i++)
			h = shape_sum(&v->v[i], (h ^ ',') * 0x100000001b3ULL);
		break;
	default: {
		char num[32];

		if (v->type == JR_STRING)
			p = v->s;
		else if (v->type == JR_NUMBER)
			p = (snprintf(num, sizeof(num), "%.17g", v->d), num);
		else
			p = jr_type_name(v->type);
		for (; *p; p++)
			h = (h ^ (unsigned char)*p) * 0x100000001b3ULL;
		if (v->type == JR_BOOL)
			h = (h ^ (unsigned char)v->b) * 0x100000001b3ULL;
		break;
	}
	}
	return h;
}

/*
 * The record's shape version (record/rechead.h) changes whenever the
 * schema's shape does: a member added, taken out or made another type
 * is a new RECORD_SHAPE (a reader tells records apart by it), and
 * RECORD_SHAPE_SUM is the sum this test prints.
 */
START_TEST(test_rectab_shape)
{
	struct jr_value *schema = load_schema();
	uint64_t sum = shape_sum(schema, 0xcbf29ce484222325ULL);

	ck_assert_msg(sum == RECORD_SHAPE_SUM,
		      "%s changed shape: raise RECORD_SHAPE (now %d) in record/rechead.h, say there what the new shape holds, and set RECORD_SHAPE_SUM to 0x%016llx",
		      SCHEMA, RECORD_SHAPE, (unsigned long long)sum);
	jr_free(schema);
}
END_TEST

/*
 * EXT_CSD's fields (device/extcsd.c's table, which the record's
 * ext_csd table spreads), each with its size where it has one, are the
 * other properties of the schema's ext_csd.
 */
START_TEST(test_rectab_ext_csd)
{
	struct jr_value *schema = load_schema();
	const struct jr_value *props = jr_path(schema,
				"definitions.ext_csd.properties");
	size_t i, n = 0;

	for (i = 0; i < ECF_NR; i++) {
		const struct ext_csd_desc *d = &ext_csd_fields[i];

		ck_assert_msg(jr_get(props, d->name), "%s", d->name);
		n++;
		if (d->bytes_name) {
			ck_assert_msg(jr_get(props, d->bytes_name), "%s",
				      d->bytes_name);
			n++;
		}
	}
	for (i = 0; i < ext_csd_table.n; i++)
		n += !(ext_csd_table.f[i].flags & RT_SPREAD);
	ck_assert_uint_eq(jr_len(props), n);
	jr_free(schema);
}
END_TEST

/* A row renamed, a row of another kind, a property more: found. */
/*
 * Every member of a record is a row of the head's or the tail's table or
 * one of the body's members (recbody.h), and each of those is one of the
 * schema's record.
 */
START_TEST(test_rectab_record_whole)
{
	struct jr_value *schema = load_schema();
	const struct jr_value *props = jr_path(schema,
				"definitions.record.properties");
	struct findings w = { { 0 }, 0 };
	size_t i, k;

	for (i = 0; i < RM_NR; i++)
		if (!jr_get(props, record_members[i]))
			found(&w, "record.%s: in recbody.h, not in the schema",
			      record_members[i]);
	for (i = 0; i < jr_len(props); i++) {
		const char *name = props->keys[i];

		for (k = 0; k < RM_NR && strcmp(record_members[k], name); k++)
			;
		if (k == RM_NR && !rt_find(&record_head_table, name) &&
		    !rt_find(&record_tail_table, name))
			found(&w, "record.%s: in the schema, in no table and not in recbody.h",
			      name);
	}
	ck_assert_msg(w.n == 0, "%s", w.text);
	jr_free(schema);
}
END_TEST

START_TEST(test_rectab_disagree)
{
	struct jr_value *schema = load_schema();
	struct jr_value *props = (struct jr_value *)jr_path(schema,
				"definitions.capacity_evidence.properties");
	struct rt_field rows[16];
	struct rt_table t = { "doctored", rows, capacity_evidence_table.n,
			      NULL };
	const struct rt_table *tt[2] = { &t, NULL };
	struct findings w = { { 0 }, 0 };
	char *key;

	ck_assert_uint_le(t.n, ARRAY_SIZE(rows));
	memcpy(rows, capacity_evidence_table.f, t.n * sizeof(rows[0]));
	walk(&w, schema, jr_path(schema, "definitions.capacity_evidence"),
	     "evidence", tt, 0);
	ck_assert_msg(w.n == 0, "%s", w.text);

	rows[1].name = "stored_up_to_renamed";	/* both ways */
	walk(&w, schema, jr_path(schema, "definitions.capacity_evidence"),
	     "evidence", tt, 0);
	ck_assert_uint_eq(w.n, 2);
	rows[1] = capacity_evidence_table.f[1];

	rows[4].kind = RT_U64;		/* a bool in the schema */
	memset(&w, 0, sizeof(w));
	walk(&w, schema, jr_path(schema, "definitions.capacity_evidence"),
	     "evidence", tt, 0);
	ck_assert_uint_eq(w.n, 1);
	rows[4] = capacity_evidence_table.f[4];

	key = props->keys[2];		/* a property no table has */
	props->keys[2] = (char *)"was_lost_from";
	ck_assert_uint_gt(walk_all(schema, &w), 0);
	ck_assert_ptr_nonnull(strstr(w.text, "was_lost_from"));
	props->keys[2] = key;
	ck_assert_uint_eq(walk_all(schema, &w), 0);
	jr_free(schema);
}
END_TEST

/* ---- a JSON name spelled in its table alone ---- */

/* The folders and files of the program (not its tests). */
static const char *const source_dirs[] = {
	"base", "device", "vm", "safety", "record", "verdict", "output",
	"modes", "probes", "front",
};
static const char *const source_files[] = {
	"dev.c", "dev.h", "vm.c", "vm.h", "flashbench.c", "erase.c",
};

/*
 * The same word in a file where it is no member of a table's record:
 * another kind's (the simulated card's keys, --survey's rows, the
 * options), a test's or a step's name, a word of the text.  Each such
 * line names the file and the word; a word it does not name is found.
 */
static const struct {
	const char *file, *name;
} elsewhere[] = {
	/* the tests' and the steps' names, words of a message */
	{ "modes/modes.c", "align" }, { "modes/modes.c", "capacity" },
	{ "modes/modes.c", "class" },
	{ "output/survey.c", "class" }, { "output/surveyrow.c", "align" },
	{ "output/surveyrow.c", "capacity" }, { "output/surveyrow.c", "class" },
	/* --survey's rows grouped by the card, the device or the record */
	{ "output/surveyrow.c", "card" }, { "output/surveyrow.c", "device" },
	{ "front/recclass.c", "class" },
	{ "front/offline.c", "registers" }, { "output/analyzetext.c", "align" },
	{ "modes/capest.c", "probes" }, { "modes/capest.c", "flush" },
	{ "device/blockdev.c", "flush" }, { "safety/preserve.c", "device" },
	/* words of the text and the plots */
	{ "output/autotext.c", "collapsed" }, { "output/autotext.c", "linear" },
	{ "output/autotext.c", "random" }, { "output/plotauto.c", "linear" },
	{ "output/plotauto.c", "fat" }, { "output/plot.c", "regression" },
	{ "output/plotauto.c", "random" }, { "output/plot.c", "offset" },
	{ "modes/class.c", "pass" }, { "front/recclass.c", "pass" },
	/* values of a member: verdict.fat_writes, verdict.erase_size_from */
	{ "output/autojson.c", "linear" }, { "output/autojson.c", "random" },
	{ "output/autojson.c", "writes" }, { "output/autojson.c", "aus" },
	/* the simulated card's SPEC keys */
	{ "device/simspec.c", "au" }, { "device/simspec.c", "fat_start" },
	{ "device/simspec.c", "fat" },
	{ "device/simspec.c", "linear" }, { "device/simspec.c", "random" },
	{ "device/simspec.c", "write_mbps" }, { "device/simspec.c", "size" },
	/* the kernel's files (sysfs, the registers), EXT_CSD's fields */
	{ "device/card.c", "erase_size" }, { "device/card.c", "date" },
	{ "device/card.c", "manfid" }, { "device/card.c", "name" },
	{ "device/card.c", "oemid" }, { "device/card.c", "serial" },
	{ "device/sysfs.c", "erase_size" }, { "device/sysfs.c", "date" },
	{ "device/sysfs.c", "manfid" }, { "device/sysfs.c", "name" },
	{ "device/sysfs.c", "oemid" },
	{ "device/sysfs.c", "logical_block_size" },
	{ "output/autotext.c", "erase_size" },
	{ "output/autotext.c", "manfid" },
	{ "output/autotext.c", "name" }, { "output/autotext.c", "oemid" },
	{ "device/card.c", "pre_eol_info" },
	{ "output/survey.c", "pre_eol_info" },
	/* the options' names (--count, --version, ...) */
	{ "front/options.c", "blocksize" }, { "front/options.c", "offset" },
	{ "front/options.c", "random" }, { "front/options.c", "count" },
	{ "front/options.c", "destructive" },
	{ "front/options.c", "erasesize" },
	{ "front/options.c", "flush" }, { "front/options.c", "registers" },
	{ "front/options.c", "sustained" },
	{ "front/options.c", "simulate" }, { "front/options.c", "version" },
	{ "erase.c", "version" }, { "modes/testcheck.c", "blocksize" },
	{ "modes/testcheck.c", "count" }, { "modes/testcheck.c", "erasesize" },
	{ "modes/testcheck.c", "offset" },
	/*
	 * the documents of other kinds: --survey's rows, --time-ops',
	 * --analyze's tables, scatter's and interval's rows
	 */
	{ "output/survey.c", "confidence" }, { "output/survey.c", "measured" },
	{ "output/survey.c", "erase_size" }, { "output/survey.c", "page_size" },
	{ "output/survey.c", "program_unit" },
	{ "output/survey.c", "open_au_linear" },
	{ "output/survey.c", "open_au_random" },
	{ "output/survey.c", "usable_size" },
	{ "output/survey.c", "fat_start" },
	{ "output/survey.c", "pass" }, { "output/survey.c", "card" },
	{ "output/survey.c", "within_cache" },
	{ "output/survey.c", "date" }, { "output/survey.c", "device" },
	{ "output/survey.c", "manfid" }, { "output/survey.c", "name" },
	{ "output/survey.c", "oemid" }, { "output/survey.c", "size" },
	{ "output/survey.c", "serial_hash" }, { "output/survey.c", "classes" },
	{ "output/survey.c", "record_version" },
	{ "output/survey.c", "mapping" }, { "output/survey.c", "mapping_unit" },
	{ "output/survey.c", "write_cache" },
	{ "output/survey.c", "size_at_least" },
	{ "output/survey.c", "fast_mbps" }, { "output/survey.c", "native_mbps" },
	{ "front/timeops.c", "writes" }, { "front/timeops.c", "save" },
	{ "front/timeops.c", "timing" }, { "front/timeops.c", "verify" },
	{ "modes/interval.c", "bytes" },
	/* the device's operations by name: which one failed, the VM's */
	{ "dev.c", "read" }, { "dev.c", "write" }, { "vm.c", "read" },
	{ "vm.c", "write" }, { "vm/ops.c", "read" },
	{ "device/blockdev.c", "read" }, { "device/blockdev.c", "write" },
	{ "device/fault.c", "read" }, { "device/fault.c", "write" },
	{ "device/sim.c", "read" }, { "device/sim.c", "write" },
	{ "safety/guard.c", "save" }, { "modes/open_au.c", "write" },
	{ "modes/program.c", "read" },
	{ "front/analyzeout.c", "rows" }, { "modes/scatter.c", "offset" },
	{ "modes/progs.c", "size" },
};

/* Which lines of elsewhere[] the sources used (each must be). */
static unsigned char used[ARRAY_SIZE(elsewhere)];

/* Every JSON name of the tables (and those they nest), once each. */
struct names {
	const char *name[512];
	size_t n;
};

static void add_name(struct names *nm, const char *name)
{
	size_t k;

	for (k = 0; k < nm->n && strcmp(nm->name[k], name); k++)
		;
	if (k == nm->n && nm->n < ARRAY_SIZE(nm->name))
		nm->name[nm->n++] = name;
}

static void add_names(struct names *nm, const struct rt_table *t)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		const struct rt_field *f = &t->f[i];

		if (f->flags & RT_SPREAD)
			continue;
		add_name(nm, f->name);
		if (f->sub)
			add_names(nm, f->sub);
	}
}

/* The tables' names and the record's body members' (recbody.h). */
static void all_names(struct names *nm)
{
	size_t i, k;

	memset(nm, 0, sizeof(*nm));
	for (i = 0; i < ARRAY_SIZE(pairings); i++)
		for (k = 0; pairings[i].t[k]; k++)
			add_names(nm, pairings[i].t[k]);
	for (i = 0; i < RM_NR; i++)
		add_name(nm, record_members[i]);
	for (i = 0; i < ECF_NR; i++) {	/* ext_csd's spread fields */
		add_name(nm, ext_csd_fields[i].name);
		if (ext_csd_fields[i].bytes_name)
			add_name(nm, ext_csd_fields[i].bytes_name);
	}
	ck_assert_uint_lt(nm->n, ARRAY_SIZE(nm->name));
}

static int is_elsewhere(const char *file, const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(elsewhere); i++)
		if (!strcmp(elsewhere[i].file, file) &&
		    !strcmp(elsewhere[i].name, name)) {
			used[i] = 1;
			return 1;
		}
	return 0;
}

/* Is s (len bytes) a name of nm that the file may not spell? */
static void scan_word(struct findings *w, const struct names *nm,
		      const char *file, const char *s, size_t len)
{
	size_t k;

	for (k = 0; k < nm->n; k++)
		if (strlen(nm->name[k]) == len &&
		    !strncmp(s, nm->name[k], len) &&
		    !is_elsewhere(file, nm->name[k]))
			found(w, "%s: \"%s\" outside its table", file,
			      nm->name[k]);
}

/*
 * A string literal: a name, or a path of names ("device.card", as
 * jr_path() takes it), each part scanned.
 */
static void scan_literal(struct findings *w, const struct names *nm,
			 const char *file, const char *s, size_t len)
{
	size_t i, start = 0;

	if (strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_.") < len) {
		scan_word(w, nm, file, s, len);
		return;
	}
	for (i = 0; i <= len; i++)
		if (i == len || s[i] == '.') {
			scan_word(w, nm, file, s + start, i - start);
			start = i + 1;
		}
}

/*
 * The string literals of C text (comments skipped) that are a name of
 * nm, each a finding unless the file is allowed it.
 */
static void scan_text(struct findings *w, const struct names *nm,
		      const char *file, const char *text)
{
	const char *p = text;

	while (*p) {
		const char *q;

		if (p[0] == '/' && p[1] == '*') {
			q = strstr(p + 2, "*/");
			p = q ? q + 2 : p + strlen(p);
			continue;
		}
		if ((p[0] == '/' && p[1] == '/') ||
		    (p[0] == '#' && (p == text || p[-1] == '\n'))) {
			p += strcspn(p, "\n");	/* and #include "x.h" */
			continue;
		}
		if (*p == '\'') {
			p += p[1] == '\\' ? 4 : 3;	/* '"' or '\"' */
			continue;
		}
		if (*p++ != '"')
			continue;
		for (q = p; *q && *q != '"'; q++)
			if (*q == '\\' && q[1])
				q++;
		scan_literal(w, nm, file, p, (size_t)(q - p));
		p = *q ? q + 1 : q;
	}
}

/*
 * Is the file one of record/'s tables (it defines rows of fields), or
 * device/extcsd.c's table of EXT_CSD's fields?
 */
static int is_table_file(const char *file, const char *text)
{
	if (!strcmp(file, "device/extcsd.c"))
		return 1;
	return !strncmp(file, "record/", 7) &&
	       strstr(text, "const struct rt_field ") != NULL;
}

static void scan_file(struct findings *w, const struct names *nm,
		      const char *file)
{
	size_t len;
	char *text = (char *)t_read_file(file, &len);

	ck_assert_msg(text != NULL, "%s", file);
	if (!is_table_file(file, text))
		scan_text(w, nm, file, text);
	free(text);
}

/* Every .c and .h of the program scanned; how many findings. */
static size_t scan_all(struct findings *w, const struct names *nm)
{
	char path[512];
	size_t i;

	memset(w, 0, sizeof(*w));
	for (i = 0; i < ARRAY_SIZE(source_files); i++)
		scan_file(w, nm, source_files[i]);
	for (i = 0; i < ARRAY_SIZE(source_dirs); i++) {
		DIR *d = opendir(source_dirs[i]);
		struct dirent *e;

		ck_assert_msg(d != NULL, "%s", source_dirs[i]);
		while ((e = readdir(d))) {
			size_t n = strlen(e->d_name);

			if (n < 3 || e->d_name[0] == '.' ||
			    (strcmp(e->d_name + n - 2, ".c") &&
			     strcmp(e->d_name + n - 2, ".h")))
				continue;
			snprintf(path, sizeof(path), "%s/%s", source_dirs[i],
				 e->d_name);
			scan_file(w, nm, path);
		}
		closedir(d);
	}
	return w->n;
}

START_TEST(test_rectab_names_once)
{
	struct findings w;
	struct names nm;

	size_t i;

	all_names(&nm);
	memset(used, 0, sizeof(used));
	scan_all(&w, &nm);
	for (i = 0; i < ARRAY_SIZE(elsewhere); i++)
		if (!used[i])
			found(&w, "%s: \"%s\" no longer spelled there: take it off the list",
			      elsewhere[i].file, elsewhere[i].name);
	ck_assert_msg(w.n == 0, "%s", w.text);
}
END_TEST

/* A name written by hand is found; in a comment, or allowed, it is not. */
START_TEST(test_rectab_names_found)
{
	struct findings w = { { 0 }, 0 };
	struct names nm;

	all_names(&nm);
	scan_text(&w, &nm, "output/new.c",
		  "\tjson_u64(j, \"chunk_size\", f->chunk_byte);\n");
	ck_assert_uint_eq(w.n, 1);
	ck_assert_ptr_nonnull(strstr(w.text, "\"chunk_size\" outside"));
	scan_text(&w, &nm, "output/new.c",
		  "/* \"chunk_size\" */ x = '\"'; s = \"a \\\"pre_ns\\\"\";\n"
		  "// \"anchors\"\n");
	ck_assert_uint_eq(w.n, 1);
	scan_text(&w, &nm, "device/simspec.c", "{ \"au\", 1 },\n");
	ck_assert_uint_eq(w.n, 1);
	scan_text(&w, &nm, "device/simspec.c", "{ \"aus\", 1 },\n");
	ck_assert_uint_eq(w.n, 2);
	scan_text(&w, &nm, "front/new.c", "jr_path(d, \"x.anchors.y\");\n");
	ck_assert_uint_eq(w.n, 3);
}
END_TEST

Suite *rectab_suite(void)
{
	Suite *s = suite_create("rectab");
	TCase *tc = tcase_create("rectab");

	tcase_add_test(tc, test_rectab_schema);
	tcase_add_test(tc, test_rectab_disagree);
	tcase_add_test(tc, test_rectab_record_whole);
	tcase_add_test(tc, test_rectab_shape);
	tcase_add_test(tc, test_rectab_ext_csd);
	tcase_add_test(tc, test_rectab_names_once);
	tcase_add_test(tc, test_rectab_names_found);
	suite_add_tcase(s, tc);
	return s;
}
