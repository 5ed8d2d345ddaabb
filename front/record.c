// SPDX-License-Identifier: GPL-2.0-only
/*
 * --analyze on a record: a JSON document written by --json, judged again
 * with today's rules.  --auto's record (read-only or --destructive) is
 * read back (output/autoread.c), decided (auto_decide) and printed as a
 * live run prints it; -a's rows get the classic analysis of a text
 * table; the class check's figures (-L's, or --auto --destructive's) are
 * judged again against today's thresholds.  Where the record's own
 * verdict differs from today's, each field (and class) it said otherwise
 * is named.  -C's record is judged from what its search saw (the lowest
 * write lost, how far data came back, the aliases' period, the flush);
 * in --auto's record the capacity check's result stays the record's.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "c.h"
#include "auto.h"
#include "autoout.h"
#include "autoread.h"
#include "capacity.h"
#include "capfix.h"
#include "class.h"
#include "cli.h"
#include "format.h"
#include "jsonread.h"
#include "plot.h"
#include "reconcile.h"
#include "record.h"
#include "rectab.h"
#include "sysfs.h"

/* The major version of the records this one reads. */
#define RECORD_MAJOR 2

/* A parsed record and where it came from. */
struct record {
	const char *path;		/* for messages */
	struct jr_value *doc;
};

/* ---- a value of the record written again ---- */

static void emit(struct json *j, const char *key, const struct jr_value *v)
{
	size_t i;

	switch (v->type) {
	case JR_NULL:
		json_null(j, key);
		break;
	case JR_BOOL:
		json_bool(j, key, v->b);
		break;
	case JR_NUMBER:
		if (v->flags & JR_UINT64)
			json_u64(j, key, v->u);
		else if (v->flags & JR_INT64)
			json_i64(j, key, v->i);
		else
			json_double(j, key, v->d);
		break;
	case JR_STRING:
		json_string(j, key, v->s);
		break;
	case JR_ARRAY:
		json_array_begin(j, key);
		for (i = 0; i < v->n; i++)
			emit(j, NULL, &v->v[i]);
		json_array_end(j);
		break;
	case JR_OBJECT:
		json_object_begin(j, key);
		for (i = 0; i < v->n; i++)
			emit(j, v->keys[i], &v->v[i]);
		json_object_end(j);
		break;
	}
}

/* Member key of the record as it is, or null. */
static void emit_member(struct json *j, const struct jr_value *doc,
			const char *key)
{
	const struct jr_value *v = jr_get(doc, key);

	if (v)
		emit(j, key, v);
	else
		json_null(j, key);
}

/* ---- the class check: the record's figures, judged today ---- */

/* The record's card claims into *cl; NULL when it has no card. */
static const struct card_claims *record_claims(const struct jr_value *doc,
					       struct card_claims *cl)
{
	const struct jr_value *card = jr_path(doc, "device.card");

	if (!jr_is(card, JR_OBJECT))
		return NULL;
	cl->speed_class = (int)jr_i64(jr_get(card, "speed_class"), -1);
	cl->uhs_grade = (int)jr_i64(jr_get(card, "uhs_grade"), -1);
	cl->video_class = (int)jr_i64(jr_get(card, "video_class"), -1);
	cl->app_class = (int)jr_i64(jr_get(card, "app_class"), -1);
	return cl;
}

/*
 * The class entries cl of the record judged today into r: 0, or a
 * one-line error in err (an entry without its figures).
 */
static int record_class(const struct jr_value *doc, const struct jr_value *cl,
			struct class_result *r, char *err, size_t len)
{
	struct class_entry e[CLASS_NR];
	struct card_claims claims;
	const char *missing;
	size_t i, n = jr_len(cl), bad;

	if (n > CLASS_NR) {
		snprintf(err, len, "%u:%u: %zu classes, more than there are",
			 cl->line, cl->col, n);
		return -1;
	}
	for (i = 0; i < n; i++) {
		const struct jr_value *v = jr_at(cl, i);
		struct rt_rd rd = { .loose = 1 };

		memset(&e[i], 0, sizeof(e[i]));
		if (rt_read(&rd, &class_entry_table, v, "class", &e[i])) {
			snprintf(err, len, "%u:%u: a class without its name or its measured write_mbps and longest_write_ns: the record lacks raw data today's rules need",
				 v->line, v->col);
			return -1;
		}
	}
	bad = class_refill(r, e, n);
	if (bad) {
		const struct jr_value *v = jr_at(cl, bad - 1);

		snprintf(err, len, "%u:%u: class \"%s\" is unknown to flashbench %s",
			 v->line, v->col, e[bad - 1].name, FLASHBENCH_VERSION);
		return -1;
	}
	class_judge(r, record_claims(doc, &claims));
	missing = class_missing(r);
	if (missing) {
		snprintf(err, len, "%u:%u: today's rules judge class %s, whose figures the record lacks",
			 cl->line, cl->col, missing);
		return -1;
	}
	return 0;
}

/* The record's pass of class name (-1: it did not judge it). */
static int record_pass(const struct jr_value *cl, const char *name)
{
	size_t i;

	for (i = 0; i < jr_len(cl); i++) {
		struct rt_rd rd = { .loose = 1 };
		struct class_entry e = { 0 };

		rt_read(&rd, &class_said_table, jr_at(cl, i), "class", &e);
		if (e.name && !strcmp(e.name, name))
			return e.judged ? e.pass : -1;
	}
	return -1;
}

/* How many classes the record judged otherwise than today. */
static size_t class_said_n(const struct class_result *r,
			   const struct jr_value *cl)
{
	size_t i, n = 0;

	for (i = 0; r && i < r->n; i++) {
		int then = record_pass(cl, r->c[i].name);

		n += then >= 0 && then != r->c[i].pass;
	}
	return n;
}

/* Text: one line per class the record judged otherwise; how many. */
static size_t class_said_print(FILE *out, const struct class_result *r,
			       const struct jr_value *cl, size_t before,
			       const char *version)
{
	size_t i, n = 0;

	for (i = 0; r && i < r->n; i++) {
		int then = record_pass(cl, r->c[i].name);

		if (then < 0 || then == r->c[i].pass)
			continue;
		if (!before && !n)
			fprintf(out, "the record (flashbench %s) said otherwise:\n",
				version);
		n++;
		fprintf(out, "  class %s: %s (the record said %s)\n",
			r->c[i].name, r->c[i].pass ? "pass" : "FAIL",
			then ? "pass" : "FAIL");
	}
	return n;
}

/* JSON: record_said's "classes", each class judged otherwise. */
static void class_said_json(struct json *j, const struct class_result *r,
			    const struct jr_value *cl)
{
	size_t i;

	if (!class_said_n(r, cl))
		return;
	json_array_begin(j, "classes");
	for (i = 0; i < r->n; i++) {
		int then = record_pass(cl, r->c[i].name);
		struct class_entry e = { .name = r->c[i].name, .judged = 1,
					 .pass = then };

		if (then < 0 || then == r->c[i].pass)
			continue;
		rt_write_object(j, NULL, &class_said_table, &e);
	}
	json_array_end(j);
}

/* -L's record: its classes judged again, printed as a live run. */
static int class_record(struct cli *c, FILE *out, const struct record *rec)
{
	const struct jr_value *cl = jr_get(rec->doc, "results");
	const char *version = jr_str(jr_get(rec->doc, "version"), "?");
	char err[JR_ERR_LEN + 160];
	struct class_result r;
	FILE *res = out;
	struct json j;
	int ret;

	if (!jr_is(cl, JR_ARRAY) || !cl->n)
		return usage_error(c->err, "--analyze: %s:%u:%u: a -L record without classes in \"results\"",
				   rec->path, cl ? cl->line : 1,
				   cl ? cl->col : 1);
	if (record_class(rec->doc, cl, &r, err, sizeof(err)))
		return usage_error(c->err, "--analyze: %s:%s", rec->path, err);
	ret = open_outputs(c, out, &res);
	if (ret)
		return ret;
	if (c->json) {
		json_init(&j, res);
		json_object_begin(&j, NULL);
		json_string(&j, "version", FLASHBENCH_VERSION);
		json_string(&j, "test", "class");
		emit_member(&j, rec->doc, "device");
		emit_member(&j, rec->doc, "options");
		json_array_begin(&j, "results");
		class_json(&j, &r);
		json_array_end(&j);
		json_null(&j, "verdict");
		if (class_said_n(&r, cl)) {
			json_object_begin(&j, "record_said");
			class_said_json(&j, &r, cl);
			json_object_end(&j);
		}
		json_tail(&j, class_short(&r),
			  jr_bool(jr_get(rec->doc, "interrupted"), 0));
	} else {
		fprintf(res, "class check: judged again from the figures of a record of flashbench %s\n",
			version);
		class_print_checks(res, &r);
		class_said_print(res, &r, cl, 0, version);
	}
	if (finish_output(c, res, res != out))
		return EXIT_DEVICE;
	return 0;
}

/* ---- what the record said otherwise ---- */

/* The verdict's fields, their words in text, and which are sizes. */
static const struct said_field {
	const char *key, *label;
	int size, conf;		/* a size in bytes; has a confidence */
} said_fields[] = {
	{ "erase_size", "erase size", 1, 1 },
	{ "page_size", "page size", 1, 1 },
	{ "program_unit", "program unit", 1, 1 },
	{ "allocation_group", "allocation group", 1, 1 },
	{ "open_au_linear", "open AUs linear", 0, 1 },
	{ "open_au_random", "open AUs random", 0, 1 },
	{ "fat_start", "FAT area start (AU)", 0, 1 },
	{ "fat_start_byte", "FAT area start", 1, 0 },
	{ "fat_erase_blocks", "FAT area AUs", 0, 1 },
	{ "fat_writes", "FAT area shown by", 0, 0 },
	{ "timing_noise", "timing noise", 0, 0 },
	{ "erase_size_from", "erase size from", 0, 0 },
};

/* Field f of a verdict as text: "8MiB", "none", "2, high". */
static void said_text(char *buf, size_t len, const struct said_field *f,
		      const struct jr_value *verdict)
{
	const struct jr_value *v = jr_get(verdict, f->key);
	const char *conf = jr_str(jr_get(jr_get(verdict, "confidence"),
					 f->key), NULL);
	char sz[FMT_LEN], val[FMT_LEN + 24];

	if (!v || v->type == JR_NULL)
		snprintf(val, sizeof(val), "none");
	else if (v->type == JR_STRING)
		snprintf(val, sizeof(val), "%s", v->s);
	else if (f->size && (v->flags & JR_UINT64))
		snprintf(val, sizeof(val), "%s", fmt_size(sz, v->u));
	else if (v->flags & JR_UINT64)
		snprintf(val, sizeof(val), "%" PRIu64, v->u);
	else
		snprintf(val, sizeof(val), "%g", v->d);
	if (f->conf && conf)
		snprintf(buf, len, "%s, %s", val, conf);
	else
		snprintf(buf, len, "%s", val);
}

/* Does field f differ between today's verdict and the record's? */
static int said_differs(const struct said_field *f, const struct jr_value *now,
			const struct jr_value *then, int conf)
{
	const struct jr_value *a, *b;

	if (conf) {
		now = jr_get(now, "confidence");
		then = jr_get(then, "confidence");
	}
	a = jr_get(now, f->key);
	b = jr_get(then, f->key);
	/* a field the record does not have, it did not say otherwise */
	return a && b && !rt_same(a, b);
}

static int said_any(const struct said_field *f, const struct jr_value *now,
		    const struct jr_value *then)
{
	return said_differs(f, now, then, 0) ||
	       (f->conf && said_differs(f, now, then, 1));
}

/* Text: one line per field the record said otherwise. */
static size_t said_print(FILE *out, const struct jr_value *now,
			 const struct jr_value *then, const char *version)
{
	char a[96], b[96];
	size_t i, n = 0;

	for (i = 0; i < ARRAY_SIZE(said_fields); i++) {
		const struct said_field *f = &said_fields[i];

		if (!said_any(f, now, then))
			continue;
		if (!n++)
			fprintf(out, "the record (flashbench %s) said otherwise:\n",
				version);
		said_text(a, sizeof(a), f, now);
		said_text(b, sizeof(b), f, then);
		fprintf(out, "  %s: %s (the record said %s)\n", f->label, a,
			b);
	}
	return n;
}

/* JSON: "record_said", the record's value of each field that differs. */
static void said_json(struct json *j, const struct jr_value *now,
		      const struct jr_value *then, const struct class_result *cr,
		      const struct jr_value *cl)
{
	const size_t n = now ? ARRAY_SIZE(said_fields) :
			       0;
	const struct jr_value *tc = jr_get(then, "confidence");
	size_t i, any = 0, conf = 0;

	for (i = 0; i < n; i++) {
		any += said_any(&said_fields[i], now, then);
		conf += said_fields[i].conf &&
			said_differs(&said_fields[i], now, then, 1);
	}
	if (!any && !class_said_n(cr, cl))
		return;
	json_object_begin(j, "record_said");
	for (i = 0; i < n; i++)
		if (said_differs(&said_fields[i], now, then, 0))
			emit(j, said_fields[i].key,
			     jr_get(then, said_fields[i].key));
	if (conf) {
		json_object_begin(j, "confidence");
		for (i = 0; i < n; i++)
			if (said_fields[i].conf &&
			    said_differs(&said_fields[i], now, then, 1))
				emit(j, said_fields[i].key,
				     jr_get(tc, said_fields[i].key));
		json_object_end(j);
	}
	class_said_json(j, cr, cl);
	json_object_end(j);
}

/* What write(j, arg) writes as one object's members, parsed (NULL: out
 * of memory). */
static struct jr_value *written(void (*write)(struct json *, const void *),
				const void *arg)
{
	struct jr_value *root = NULL;
	char *buf = NULL, err[JR_ERR_LEN];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json j;

	if (!f)
		return NULL;
	json_init(&j, f);
	json_object_begin(&j, NULL);
	write(&j, arg);
	json_object_end(&j);
	fclose(f);
	jr_parse(buf, len, NULL, &root, err, sizeof(err));
	free(buf);
	return root;
}

static void write_auto_verdict(struct json *j, const void *r)
{
	auto_json_verdict(j, r);
}

/* {"verdict": today's verdict of r}, parsed (NULL: out of memory). */
static struct jr_value *verdict_now(const struct auto_result *r)
{
	return written(write_auto_verdict, r);
}

/* ---- -C's record: what the search saw, judged today ---- */

/* A verdict member as text: "2GiB", "limbo", "true", "none". */
static void cap_said_text(char *buf, size_t len, const struct rt_field *f,
			  const struct jr_value *v)
{
	char sz[FMT_LEN];

	if (!v || v->type == JR_NULL)
		snprintf(buf, len, "none");
	else if (v->type == JR_STRING)
		snprintf(buf, len, "%s", v->s);
	else if (v->type == JR_BOOL)
		snprintf(buf, len, "%s", v->b ? "yes" : "no");
	else if (rt_bytes(f) && (v->flags & JR_UINT64))
		snprintf(buf, len, "%s", fmt_size(sz, v->u));
	else
		snprintf(buf, len, "%g", v->d);
}

/*
 * Does row f differ between today's verdict r and the record's, then?
 * Today's value in *now.
 */
static int cap_differs(const struct rt_field *f,
		       const struct capacity_result *r,
		       const struct jr_value *then, struct jr_value *now)
{
	const struct jr_value *b = jr_get(then, f->name);

	if (!rt_value(f, r, now) || !b)
		return 0;	/* one side does not have it */
	return !rt_same(now, b);
}

/* The evidence of results[0] into r; 0, or the error in err. */
static int cap_evidence(const struct jr_value *doc, struct capacity_result *r,
			char *err, size_t len)
{
	const struct jr_value *res = jr_get(doc, "results");
	const struct jr_value *e = jr_at(res, 0);
	const struct jr_value *v = jr_get(doc, "verdict");
	struct rt_rd rd = { .loose = 1 };

	memset(r, 0, sizeof(*r));
	if (rt_read(&rd, &capacity_evidence_table, e, "results[0]", &r->ev)) {
		if (rd.missing->kind == RT_CONST)
			snprintf(err, len, "%u:%u: a -C record without what the search saw (\"results\" is empty: records made before -C kept it hold the verdict only)",
				 res ? res->line : doc->line,
				 res ? res->col : doc->col);
		else
			snprintf(err, len, "%u:%u: results[0] has no \"%s\": the record lacks raw data today's rules need",
				 e->line, e->col, rd.missing->name);
		return -1;
	}
	rd = (struct rt_rd){ .loose = 1 };
	if (rt_read(&rd, &capacity_verdict_table, v, "verdict", r)) {
		snprintf(err, len, "%u:%u: no \"verdict\" with the %s",
			 v ? v->line : doc->line, v ? v->col : doc->col,
			 rd.missing->name);
		return -1;
	}
	r->logical_block_size = (unsigned int)jr_u64(
		jr_path(doc, "device.logical_block_size"), 512);
	capacity_decide(r);
	return 0;
}

/* Text: one line per verdict member the record said otherwise. */
static void cap_said_print(FILE *res, const struct capacity_result *r,
			   const struct jr_value *then, const char *version)
{
	const struct rt_field *f;
	struct jr_value now;
	unsigned int k;
	size_t n = 0;

	for (k = 1; (f = rt_said(&capacity_verdict_table, k)); k++) {
		char a[64], b[64];

		if (!cap_differs(f, r, then, &now))
			continue;
		if (!n++)
			fprintf(res, "the record (flashbench %s) said otherwise:\n",
				version);
		cap_said_text(a, sizeof(a), f, &now);
		cap_said_text(b, sizeof(b), f, jr_get(then, f->name));
		fprintf(res, "  %s: %s (the record said %s)\n", f->label, a,
			b);
	}
}

/* JSON: "record_said", the record's value of each member that differs. */
static void cap_said_json(struct json *j, const struct capacity_result *r,
			  const struct jr_value *then)
{
	const struct rt_field *f;
	struct jr_value now;
	unsigned int k, n = 0;

	for (k = 1; (f = rt_said(&capacity_verdict_table, k)); k++)
		n += cap_differs(f, r, then, &now);
	if (!n)
		return;
	json_object_begin(j, "record_said");
	for (k = 1; (f = rt_said(&capacity_verdict_table, k)); k++)
		if (cap_differs(f, r, then, &now))
			emit(j, f->name, jr_get(then, f->name));
	json_object_end(j);
}

/* -C's record: judged again from what its search saw. */
static int capacity_record(struct cli *c, FILE *out, const struct record *rec)
{
	const char *version = jr_str(jr_get(rec->doc, "version"), "?");
	const char *path = jr_str(jr_path(rec->doc, "device.path"), "DEVICE");
	const struct jr_value *then = jr_get(rec->doc, "verdict");
	char err[JR_ERR_LEN + 160];
	struct capacity_result r;
	FILE *res = out;
	struct json j;
	int ret;

	if (cap_evidence(rec->doc, &r, err, sizeof(err)))
		return usage_error(c->err, "--analyze: %s:%s", rec->path, err);
	ret = open_outputs(c, out, &res);
	if (ret)
		return ret;
	if (c->json) {
		json_init(&j, res);
		json_object_begin(&j, NULL);
		json_string(&j, "version", FLASHBENCH_VERSION);
		json_string(&j, "test", "capacity");
		emit_member(&j, rec->doc, "device");
		emit_member(&j, rec->doc, "options");
		json_array_begin(&j, "results");
		capacity_json_evidence(&j, &r);
		json_array_end(&j);
		json_object_begin(&j, "verdict");
		capacity_json(&j, &r);
		capfix_json(&j, &r, NULL, path);
		json_object_end(&j);
		emit_member(&j, rec->doc, "estimate");
		if (jr_get(rec->doc, "time_ops"))
			emit_member(&j, rec->doc, "time_ops");
		cap_said_json(&j, &r, then);
		json_tail(&j, capacity_short(&r) != 0,
			  jr_bool(jr_get(rec->doc, "interrupted"), 0));
	} else {
		capacity_print(res, &r, path);
		cap_said_print(res, &r, then, version);
	}
	if (finish_output(c, res, res != out))
		return EXIT_DEVICE;
	return 0;
}

/* ---- --auto's record ---- */

/* The record's reconcile, against today's erase size. */
static void record_reconcile(const struct jr_value *doc, uint64_t erase,
			     struct reconcile *rc)
{
	const struct jr_value *v = jr_get(doc, "reconcile");
	const char *from = jr_str(jr_get(v, "kernel_from"), "");

	memset(rc, 0, sizeof(*rc));
	rc->measured_byte = erase;
	rc->stated_byte = jr_u64(jr_get(v, "stated_au_size"), 0);
	rc->kernel_byte = jr_u64(jr_get(v, "kernel_preferred_erase_size"), 0);
	rc->stated_fit = reconcile_fit(erase, rc->stated_byte);
	rc->kernel_fit = reconcile_fit(erase, rc->kernel_byte);
	rc->kernel_from = !strcmp(from, "ssr") ? KERNEL_FROM_SSR :
			  !strcmp(from, "capacity guess") ? KERNEL_GUESS :
			  !strcmp(from, "other") ? KERNEL_OTHER : KERNEL_NONE;
}

/*
 * An eMMC's EXT_CSD kept in the record (device.card.registers.ext_csd,
 * its bytes), decoded again and set against today's sizes.
 */
static void record_ext_csd(const struct jr_value *doc, uint64_t page,
			   struct reconcile *rc)
{
	const char *hex = jr_str(jr_path(doc,
				 "device.card.registers.ext_csd.hex"), NULL);
	struct ext_csd_raw raw;
	struct ext_csd_info e;
	char why[CARD_NOTE_MAX];

	if (!hex || ext_csd_parse(hex, strlen(hex), &raw, why, sizeof(why)))
		return;
	ext_csd_decode(&raw, &e);
	reconcile_ext_csd(rc, &e);
	reconcile_page(rc, page);
}

/* device.sysfs as the kernel printed it, for the text. */
static void record_sysfs(const struct jr_value *doc, struct sysfs_info *s)
{
	const struct jr_value *v = jr_path(doc, "device.sysfs");
	size_t i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < jr_len(v) && s->n < SYSFS_MAX; i++) {
		struct sysfs_entry *e = &s->e[s->n];

		e->key = v->keys[i];
		e->numeric = (v->v[i].flags & JR_UINT64) != 0;
		if (e->numeric)
			snprintf(e->value, sizeof(e->value), "%" PRIu64,
				 v->v[i].u);
		else if (v->v[i].type == JR_STRING)
			snprintf(e->value, sizeof(e->value), "%s", v->v[i].s);
		else
			continue;
		s->n++;
	}
}

/* What a live run names the device by: its path or --simulate=SPEC. */
static void record_target(const struct jr_value *doc, char *buf, size_t len)
{
	const char *spec = jr_str(jr_path(doc, "options.simulate"), NULL);

	if (jr_bool(jr_path(doc, "device.simulated"), 0))
		snprintf(buf, len, "--simulate%s%s", spec && *spec ? "=" : "",
			 spec && *spec ? spec : "");
	else
		snprintf(buf, len, "%s",
			 jr_str(jr_path(doc, "device.path"), "DEVICE"));
}

static void auto_record_json(FILE *res, const struct record *rec,
			     const struct auto_result *r,
			     const struct reconcile *rc,
			     const struct class_result *cr,
			     const struct jr_value *now)
{
	const struct jr_value *doc = rec->doc;
	struct json j;

	json_init(&j, res);
	json_object_begin(&j, NULL);
	json_string(&j, "version", FLASHBENCH_VERSION);
	json_string(&j, "test", "auto");
	emit_member(&j, doc, "device");
	emit_member(&j, doc, "options");
	auto_json_results(&j, r);
	auto_json_verdict(&j, r);
	auto_json_advice(&j, r);
	reconcile_json(&j, rc);
	if (cr) {
		json_array_begin(&j, "class");
		class_json(&j, cr);
		json_array_end(&j);
	} else {
		json_null(&j, "class");
	}
	if (jr_get(doc, "error"))
		emit_member(&j, doc, "error");
	said_json(&j, now, jr_get(doc, "verdict"), cr, jr_get(doc, "class"));
	json_tail(&j, (r->capacity_done && capacity_short(&r->capacity)) ||
		      (cr && class_short(cr)),
		  jr_bool(jr_get(doc, "interrupted"), 0));
}

static void auto_record_text(FILE *res, const struct record *rec,
			     const struct auto_result *r,
			     const struct reconcile *rc,
			     const struct class_result *cr,
			     const struct jr_value *now)
{
	const char *version = jr_str(jr_get(rec->doc, "version"), "?");
	struct sysfs_info sysfs;
	char target[512];
	size_t n = 0;

	record_target(rec->doc, target, sizeof(target));
	record_sysfs(rec->doc, &sysfs);
	auto_print(res, r, target,
		   jr_bool(jr_path(rec->doc, "device.simulated"), 0) ?
			NULL : &sysfs);
	reconcile_print(res, rc);
	if (cr) {
		fputs("class check: judged again from the record's figures\n",
		      res);
		class_print_checks(res, cr);
	}
	if (now)
		n = said_print(res, now, jr_get(rec->doc, "verdict"), version);
	class_said_print(res, cr, jr_get(rec->doc, "class"), n, version);
}

/* An --auto record: read, decided today, printed as a live run. */
static int auto_record(struct cli *c, FILE *out, const struct record *rec)
{
	struct auto_result *r = malloc(sizeof(*r));
	char err[JR_ERR_LEN + 160];
	struct class_result cr;
	struct jr_value *now;
	struct reconcile rc;
	FILE *res = out;
	int ret, have;

	if (!r)
		return usage_error(c->err, "--analyze: %s", strerror(ENOMEM));
	ret = auto_record_read(rec->doc, r, err, sizeof(err));
	if (ret) {
		auto_free(r);
		free(r);
		return usage_error(c->err, "--analyze: %s:%s", rec->path, err);
	}
	auto_decide(r);
	if (jr_len(jr_get(rec->doc, "class")) &&
	    record_class(rec->doc, jr_get(rec->doc, "class"), &cr, err,
			 sizeof(err))) {
		auto_free(r);
		free(r);
		return usage_error(c->err, "--analyze: %s:%s", rec->path, err);
	}
	ret = open_outputs(c, out, &res);
	if (ret) {
		auto_free(r);
		free(r);
		return ret;
	}
	now = verdict_now(r);
	record_reconcile(rec->doc, r->align.erase.size_byte, &rc);
	record_ext_csd(rec->doc, r->align.page.size_byte, &rc);
	if (c->plot)
		plot_note(c->plot, plot_auto(c->plot->f, c->plot->title, r,
					     NULL));
	have = jr_len(jr_get(rec->doc, "class")) != 0;
	if (c->json)
		auto_record_json(res, rec, r, &rc, have ? &cr : NULL,
				 jr_get(now, "verdict"));
	else
		auto_record_text(res, rec, r, &rc, have ? &cr : NULL,
				 jr_get(now, "verdict"));
	jr_free(now);
	auto_free(r);
	free(r);
	ret = plot_close(c) ? EXIT_DEVICE : 0;
	if (finish_output(c, res, res != out))
		return EXIT_DEVICE;
	return ret;
}

/* ---- -a's record: its rows, as a text table ---- */

static int align_record(struct cli *c, FILE *out, const struct record *rec)
{
	const struct jr_value *res = jr_get(rec->doc, "results");
	struct align_table t = { 0 };
	size_t i;
	int ret;

	if (!jr_is(res, JR_ARRAY) || !res->n)
		return usage_error(c->err, "--analyze: %s:%u:%u: an -a record without rows in \"results\"",
				   rec->path, res ? res->line : 1,
				   res ? res->col : 1);
	t.rows = calloc(res->n, sizeof(*t.rows));
	if (!t.rows)
		return usage_error(c->err, "--analyze: %s", strerror(ENOMEM));
	t.nrows = res->n;
	for (i = 0; i < res->n; i++) {
		const struct jr_value *row = &res->v[i];
		struct align_row *a = &t.rows[i];
		const char *bad = !jr_is(jr_get(row, "align"), JR_NUMBER) ?
				  "align" :
				  !jr_is(jr_get(row, "pre_ns"), JR_NUMBER) ?
				  "pre_ns" :
				  !jr_is(jr_get(row, "on_ns"), JR_NUMBER) ?
				  "on_ns" :
				  !jr_is(jr_get(row, "post_ns"), JR_NUMBER) ?
				  "post_ns" :
				  !jr_is(jr_get(row, "diff_ns"), JR_NUMBER) ?
				  "diff_ns" : NULL;

		if (bad) {
			free(t.rows);
			return usage_error(c->err, "--analyze: %s:%u:%u: results[%zu] has no number \"%s\": the record lacks raw data today's rules need",
					   rec->path, row->line, row->col, i,
					   bad);
		}
		a->align_byte = jr_u64(jr_get(row, "align"), 0);
		a->pre_ns = jr_i64(jr_get(row, "pre_ns"), 0);
		a->on_ns = jr_i64(jr_get(row, "on_ns"), 0);
		a->post_ns = jr_i64(jr_get(row, "post_ns"), 0);
		a->diff_ns = jr_i64(jr_get(row, "diff_ns"), 0);
	}
	ret = analyze_tables_out(c, out, &t, 1);
	free(t.rows);
	return ret;
}

/* ---- the record's kind ---- */

/* What a record of test name says when it cannot be judged again. */
static const char *refusal(const char *test)
{
	if (!strcmp(test, "analyze"))
		return "this is --analyze's output, not a record: analyze the record it read";
	return NULL;
}

/* Is the version a record this one reads ("2.x.y"); 0, else the error. */
static int check_version(struct cli *c, const struct record *rec)
{
	const struct jr_value *v = jr_get(rec->doc, "version");
	const char *s = jr_str(v, NULL);
	char *end;
	unsigned long major;

	if (!s)
		return usage_error(c->err, "--analyze: %s:%u:%u: no \"version\": not a flashbench record",
				   rec->path, v ? v->line : rec->doc->line,
				   v ? v->col : rec->doc->col);
	major = strtoul(s, &end, 10);
	if (end == s || *end != '.' || major != RECORD_MAJOR)
		return usage_error(c->err, "--analyze: %s:%u:%u: a record of version \"%s\", unknown to flashbench %s (it reads version %d.x)",
				   rec->path, v->line, v->col, s,
				   FLASHBENCH_VERSION, RECORD_MAJOR);
	return 0;
}

int is_record(const char *text, size_t len)
{
	size_t i = 0;

	while (i < len && strchr(" \t\r\n", text[i]))
		i++;
	return i < len && (text[i] == '{' || text[i] == '[');
}

int run_record(struct cli *c, FILE *out, const char *text, size_t len)
{
	struct record rec = { strcmp(c->analyze_path, "-") ?
			      c->analyze_path : "standard input", NULL };
	const struct jr_value *t;
	char err[JR_ERR_LEN];
	const char *test, *no;
	int ret;

	if (jr_parse(text, len, NULL, &rec.doc, err, sizeof(err)))
		return usage_error(c->err, "--analyze: %s:%s (not a whole JSON document)",
				   rec.path, err);
	t = jr_get(rec.doc, "test");
	test = jr_str(t, NULL);
	ret = check_version(c, &rec);
	if (!ret && !test)
		ret = usage_error(c->err, "--analyze: %s:%u:%u: no \"test\": not a flashbench record",
				  rec.path, rec.doc->line, rec.doc->col);
	no = ret ? NULL : refusal(test);
	if (no)
		ret = usage_error(c->err, "--analyze: %s:%u:%u: %s", rec.path,
				  t->line, t->col, no);
	else if (!ret && !strcmp(test, "auto"))
		ret = auto_record(c, out, &rec);
	else if (!ret && !strcmp(test, "align"))
		ret = align_record(c, out, &rec);
	else if (!ret && !strcmp(test, "class"))
		ret = class_record(c, out, &rec);
	else if (!ret && !strcmp(test, "capacity"))
		ret = capacity_record(c, out, &rec);
	else if (!ret)
		ret = usage_error(c->err, "--analyze: %s:%u:%u: a record of test \"%s\": it has no verdict to judge again (records of --auto, -a, -C and -L have)",
				  rec.path, t->line, t->col, test);
	jr_free(rec.doc);
	return ret;
}
