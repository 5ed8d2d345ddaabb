// SPDX-License-Identifier: GPL-2.0-only
/*
 * --analyze on --auto's record: read back (output/autoread.c), decided
 * today (auto_decide) and printed as a live run prints it; where the
 * record's verdict differs from today's, each field it said otherwise
 * is named, compared through the verdict's table (record/autotab.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "auto.h"
#include "autoout.h"
#include "autoraw.h"
#include "autoread.h"
#include "autorun.h"
#include "class.h"
#include "cli.h"
#include "format.h"
#include "jsonread.h"
#include "plot.h"
#include "rechead.h"
#include "reconcile.h"
#include "recint.h"
#include "rectab.h"
#include "sysfs.h"

/* ---- what the record said otherwise ---- */

/* Does the row have a confidence (as text, "none" ... "high")? */
static const struct jr_value *said_conf(const struct rt_field *f,
					const struct jr_value *verdict)
{
	const struct rt_field *c = rt_conf_row(&auto_verdict_table);

	return jr_get(jr_get(verdict, c->name), f->name);
}

/* Row f of a verdict as text: "8MiB", "none", "2, high". */
static void said_text(char *buf, size_t len, const struct rt_field *f,
		      const struct jr_value *v, const struct jr_value *cv)
{
	const char *conf = jr_str(cv, NULL);
	char sz[FMT_LEN], val[FMT_LEN + 24];

	if (!v || v->type == JR_NULL)
		snprintf(val, sizeof(val), "none");
	else if (v->type == JR_STRING)
		snprintf(val, sizeof(val), "%s", v->s);
	else if (rt_bytes(f) && (v->flags & JR_UINT64))
		snprintf(val, sizeof(val), "%s", fmt_size(sz, v->u));
	else if (v->flags & JR_UINT64)
		snprintf(val, sizeof(val), "%" PRIu64, v->u);
	else
		snprintf(val, sizeof(val), "%g", v->d);
	if (f->conf_off && conf)
		snprintf(buf, len, "%s, %s", val, conf);
	else
		snprintf(buf, len, "%s", val);
}

/* Today's value of row f (conf: its confidence) in *v; 0: none. */
static int said_now(const struct rt_field *f,
		    const struct auto_verdict_rec *now, int conf,
		    struct jr_value *v)
{
	if (conf)
		return rt_conf_value(&auto_verdict_table, f, now, v);
	return rt_value(f, now, v);
}

/* Does row f (conf: its confidence) differ between today and then? */
static int said_differs(const struct rt_field *f,
			const struct auto_verdict_rec *now,
			const struct jr_value *then, int conf)
{
	const struct jr_value *b = conf ? said_conf(f, then) :
				   jr_get(then, f->name);
	struct jr_value a;

	/* a field the record does not have, it did not say otherwise */
	return said_now(f, now, conf, &a) && b && !rt_same(&a, b);
}

static int said_any(const struct rt_field *f,
		    const struct auto_verdict_rec *now,
		    const struct jr_value *then)
{
	return said_differs(f, now, then, 0) ||
	       (f->conf_off && said_differs(f, now, then, 1));
}

/* Text: one line per field the record said otherwise. */
static size_t said_print(FILE *out, const struct auto_verdict_rec *now,
			 const struct jr_value *then, const char *version)
{
	const struct rt_field *f;
	struct jr_value v, cv;
	char a[96], b[96];
	unsigned int k;
	size_t n = 0;

	for (k = 1; (f = rt_said(&auto_verdict_table, k)); k++) {
		if (!said_any(f, now, then))
			continue;
		if (!n++)
			fprintf(out, "the record (flashbench %s) said otherwise:\n",
				version);
		said_now(f, now, 0, &v);
		said_text(a, sizeof(a), f, &v,
			  said_now(f, now, 1, &cv) ? &cv : NULL);
		said_text(b, sizeof(b), f, jr_get(then, f->name),
			  said_conf(f, then));
		fprintf(out, "  %s: %s (the record said %s)\n", f->label, a,
			b);
	}
	return n;
}

/* JSON: "record_said", the record's value of each field that differs. */
static void said_json(struct json *j, const struct auto_verdict_rec *now,
		      const struct jr_value *then, const struct class_result *cr,
		      const struct jr_value *cl)
{
	const struct rt_field *c = rt_conf_row(&auto_verdict_table);
	const struct rt_field *f;
	size_t any = 0, conf = 0;
	unsigned int k;

	for (k = 1; (f = rt_said(&auto_verdict_table, k)); k++) {
		any += said_any(f, now, then);
		conf += f->conf_off && said_differs(f, now, then, 1);
	}
	if (!any && !class_said_n(cr, cl))
		return;
	json_object_begin(j, BODY_KEY(RM_SAID));
	for (k = 1; (f = rt_said(&auto_verdict_table, k)); k++)
		if (said_differs(f, now, then, 0))
			record_emit(j, f->name, jr_get(then, f->name));
	if (conf) {
		json_object_begin(j, c->name);
		for (k = 1; (f = rt_said(&auto_verdict_table, k)); k++)
			if (f->conf_off && said_differs(f, now, then, 1))
				record_emit(j, f->name, said_conf(f, then));
		json_object_end(j);
	}
	class_said_json(j, cr, cl);
	json_object_end(j);
}

/* ---- --auto's record ---- */

/* The record's reconcile, against today's erase size. */
static void record_reconcile(const struct jr_value *doc, uint64_t erase,
			     struct reconcile *rc)
{
	struct rt_rd rd = { .loose = 1 };

	memset(rc, 0, sizeof(*rc));
	rt_read(&rd, &reconcile_table, jr_get(doc, BODY_KEY(RM_RECONCILE)),
		BODY_KEY(RM_RECONCILE),
		rc);
	rc->measured_byte = erase;
	rc->stated_fit = reconcile_fit(erase, rc->stated_byte);
	rc->kernel_fit = reconcile_fit(erase, rc->kernel_byte);
}

/*
 * An eMMC's EXT_CSD kept in the record (device.card.registers.ext_csd,
 * its bytes), decoded again and set against today's sizes.
 */
static void record_ext_csd(const struct jr_value *doc, uint64_t page,
			   struct reconcile *rc)
{
	const char *hex = card_doc_ext_hex(REC_DEVICE(doc, card));
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
	const struct jr_value *v = REC_DEVICE(doc, sysfs);
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

/*
 * What a live run names the device by: --simulate=SPEC, or DEVICE for a
 * path (its commands are templates: the path may now be another disk).
 */
static void record_target(const struct jr_value *doc, char *buf, size_t len)
{
	const char *spec = jr_str(REC_OPTION(doc, spec), NULL);

	if (jr_bool(REC_DEVICE(doc, simulated), 0))
		snprintf(buf, len, "--simulate%s%s", spec && *spec ? "=" : "",
			 spec && *spec ? spec : "");
	else
		snprintf(buf, len, "%s", record_device_path(doc));
}

/* What each lack (bit k of AUTO_LACK_*) costs, in lines of the text. */
static const char *const lack_cost[AUTO_LACKS] = {
	"  the reads at each position of its align rows: they are judged as a\n"
	"    pasted table's\n",
	"  the timing noise: the write steps' answers are medium at most (a noisy\n"
	"    host is not ruled out)\n",
	"  the FAT probe's copy visits: an area shows by its speed alone, and none\n"
	"    found is low at most\n",
	"  the open-AU probes' slow AUs in each pass: a card that keeps one AU more\n"
	"    in a log is not told apart, so the counts are medium at most (their\n"
	"    means come from the record's ratios)\n",
};

/* Text: what a record of an older shape lacks, and what that costs. */
static void lacks_print(FILE *out, const struct jr_value *doc,
			unsigned int lacks)
{
	unsigned int k;

	if (!lacks)
		return;
	fprintf(out, "the record, of an older shape (%u), lacks what today's rules read; it is\njudged from what it holds, at this cost:\n",
		record_shape(doc));
	for (k = 0; k < AUTO_LACKS; k++)
		if (lacks & (1u << k))
			fputs(lack_cost[k], out);
}

/* JSON: "record_lacks", the names of what it lacks (none: no member). */
static void lacks_json(struct json *j, unsigned int lacks)
{
	unsigned int k;

	if (!lacks)
		return;
	json_array_begin(j, BODY_KEY(RM_LACKS));
	for (k = 0; k < AUTO_LACKS; k++)
		if (lacks & (1u << k))
			json_string(j, NULL, auto_lack_names[k]);
	json_array_end(j);
}

/*
 * The status the live run had, by today's rules: a fake's kind (4, 5),
 * or a card short of its claims (3); 0.
 */
static int record_status(const struct auto_result *r,
			 const struct class_result *cr)
{
	return short_status(auto_short_of(r, cr));
}

static void auto_record_json(FILE *res, const struct record *rec,
			     const struct auto_result *r,
			     const struct reconcile *rc,
			     const struct class_result *cr,
			     const struct auto_verdict_rec *now)
{
	const struct jr_value *doc = rec->doc;
	struct json j;

	record_json_head(&j, res, rec, auto_test.name);
	auto_json_body(&j, r, rc, cr);
	if (jr_get(doc, BODY_KEY(RM_ERROR)))
		record_emit_member(&j, doc, BODY_KEY(RM_ERROR));
	lacks_json(&j, r->lacks);
	said_json(&j, now, jr_get(doc, BODY_KEY(RM_VERDICT)), cr,
		  jr_get(doc, BODY_KEY(RM_CLASS)));
	json_tail(&j, record_status(r, cr) != 0,
		  jr_bool(jr_get(doc, TAIL_KEY(interrupted)), 0));
}

/*
 * The device time: with the class check's when the record holds it (one
 * total, each step's share, as the live run said), else the record's
 * steps' alone, saying what it leaves out.
 */
static void record_time(FILE *res, const struct auto_result *r,
			const struct class_result *cr)
{
	char a[FMT_LEN];

	if (!cr || r->step_ns[AUTO_STEP_CLASS]) {
		auto_print_time(res, r, cr ? r->step_ns[AUTO_STEP_CLASS] : 0);
		return;
	}
	fprintf(res, "device time: %s, and the class check's, which the record does not hold\n",
		fmt_time(a, (int64_t)r->device_ns));
}

static void auto_record_text(FILE *res, const struct record *rec,
			     const struct auto_result *r,
			     const struct reconcile *rc,
			     const struct class_result *cr,
			     const struct auto_verdict_rec *now)
{
	const char *version = jr_str(jr_get(rec->doc, HEAD_KEY(version)), "?");
	struct sysfs_info sysfs;
	char target[512];
	size_t n = 0;

	record_says_first(res, rec->doc);
	lacks_print(res, rec->doc, r->lacks);
	record_target(rec->doc, target, sizeof(target));
	record_sysfs(rec->doc, &sysfs);
	auto_print_verdict(res, r, target,
			   jr_bool(REC_DEVICE(rec->doc, simulated), 0) ?
				NULL : &sysfs);
	if (!cr)
		record_time(res, r, cr);
	reconcile_print(res, rc);
	if (cr) {
		fputs("class check: judged again from the record's figures\n",
		      res);
		class_print_checks(res, cr);
		record_time(res, r, cr);
	}
	n = said_print(res, now, jr_get(rec->doc, BODY_KEY(RM_VERDICT)),
		       version);
	class_said_print(res, cr, jr_get(rec->doc, BODY_KEY(RM_CLASS)), n,
			 version);
}

/* An --auto record: read, decided today, printed as a live run. */
int auto_record(struct cli *c, FILE *out, const struct record *rec)
{
	struct auto_result *r = malloc(sizeof(*r));
	char err[JR_ERR_LEN + 160];
	struct auto_verdict_rec now;
	struct class_result cr;
	struct reconcile rc;
	FILE *res = out;
	int ret, have, status;

	if (!r)
		return usage_error(c->err, "--analyze: %s", strerror(ENOMEM));
	ret = auto_record_read(rec->doc, r, err, sizeof(err));
	if (ret) {
		auto_free(r);
		free(r);
		return usage_error(c->err, "--analyze: %s:%s", rec->path, err);
	}
	auto_decide(r);
	if (jr_len(jr_get(rec->doc, BODY_KEY(RM_CLASS))) &&
	    record_class(rec->doc, jr_get(rec->doc, BODY_KEY(RM_CLASS)),
			 &r->cache, &cr, err, sizeof(err))) {
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
	auto_verdict_of(&r->align, r, &now);
	record_reconcile(rec->doc, r->align.erase.size_byte, &rc);
	record_ext_csd(rec->doc, r->align.page.size_byte, &rc);
	reconcile_cache(&rc, r->cache.dropped ? r->cache.size_byte : 0);
	if (c->run.plot)
		plot_note(c->run.plot, plot_auto(c->run.plot->f, c->run.plot->title, r,
					     NULL));
	have = jr_len(jr_get(rec->doc, BODY_KEY(RM_CLASS))) != 0;
	if (c->json)
		auto_record_json(res, rec, r, &rc, have ? &cr : NULL,
				 &now);
	else
		auto_record_text(res, rec, r, &rc, have ? &cr : NULL,
				 &now);
	status = record_status(r, have ? &cr : NULL);
	auto_free(r);
	free(r);
	ret = plot_close(c) ? EXIT_DEVICE : 0;
	if (finish_output(c, res, res != out))
		return EXIT_DEVICE;
	return ret ? ret : status;
}
