// SPDX-License-Identifier: GPL-2.0-only
/*
 * --analyze on a record's class check (-L's "results", --auto
 * --destructive's "class"): the measured figures read back through the
 * class entry's table and judged again with today's thresholds; the
 * classes the record judged otherwise named.
 */
#include <stdlib.h>
#include <string.h>

#include "autorecord.h"
#include "class.h"
#include "classrec.h"
#include "cli.h"
#include "jsonread.h"
#include "recint.h"
#include "cardrec.h"
#include "rechead.h"
#include "rectab.h"
#include "test.h"
#include "writecache.h"

/* ---- the class check: the record's figures, judged today ---- */

/* What a record said of a class. */
enum { SAID_NONE, SAID_FAIL, SAID_PASS, SAID_WITHIN };

/* The record's card claims into *cl; NULL when it has no card. */
static const struct card_claims *record_claims(const struct jr_value *doc,
					       struct card_claims *cl)
{
	const struct jr_value *card = REC_DEVICE(doc, card);
	struct card_doc d;

	if (!jr_is(card, JR_OBJECT))
		return NULL;
	card_doc_init(&d);
	card_doc_read(card, &d);
	*cl = d.ci.claims;
	return cl;
}

static int record_said(const struct jr_value *cl, const char *name);

/*
 * A record without the writes before its classes: a class it said was
 * met only within a write cache stays unsure (nothing here settles it).
 */
static void keep_within(struct class_result *r, const struct jr_value *cl)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (r->c[i].pass && record_said(cl, r->c[i].name) == SAID_WITHIN) {
			r->c[i].pass = 0;
			r->c[i].within = 1;
		}
}

/*
 * The class entries cl of the record judged today into r: 0, or a
 * one-line error in err (an entry without its figures).
 */
int record_class(const struct jr_value *doc, const struct jr_value *cl,
		 const struct auto_cache *cache, struct class_result *r,
		 char *err, size_t len)
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
	if (cache)
		r->cache = *cache;
	class_judge(r, record_claims(doc, &claims));
	if (!cache)
		keep_within(r, cl);
	missing = class_missing(r);
	if (missing) {
		snprintf(err, len, "%u:%u: today's rules judge class %s, whose figures the record lacks",
			 cl->line, cl->col, missing);
		return -1;
	}
	return 0;
}

/* What the record said of class name (SAID_NONE: it did not judge it). */
static int record_said(const struct jr_value *cl, const char *name)
{
	size_t i;

	for (i = 0; i < jr_len(cl); i++) {
		struct rt_rd rd = { .loose = 1 };
		struct class_entry e = { 0 };

		rt_read(&rd, &class_said_table, jr_at(cl, i), "class", &e);
		if (e.name && !strcmp(e.name, name))
			return !e.judged ? SAID_NONE : e.within ? SAID_WITHIN :
			       e.pass ? SAID_PASS : SAID_FAIL;
	}
	return SAID_NONE;
}

/* What today's judging says of check k, as record_said() does. */
static int said_now(const struct class_check *k)
{
	return k->within ? SAID_WITHIN : k->pass ? SAID_PASS : SAID_FAIL;
}

/* A record's word for it. */
static const char *said_word(int said)
{
	return said == SAID_WITHIN ? "unsure" : said == SAID_PASS ? "pass" :
	       "FAIL";
}

/* How many classes the record judged otherwise than today. */
size_t class_said_n(const struct class_result *r,
			   const struct jr_value *cl)
{
	size_t i, n = 0;

	for (i = 0; r && i < r->n; i++) {
		int then = record_said(cl, r->c[i].name);

		n += then != SAID_NONE && then != said_now(&r->c[i]);
	}
	return n;
}

/* Text: one line per class the record judged otherwise; how many. */
size_t class_said_print(FILE *out, const struct class_result *r,
			       const struct jr_value *cl, size_t before,
			       const char *version)
{
	size_t i, n = 0;

	for (i = 0; r && i < r->n; i++) {
		int then = record_said(cl, r->c[i].name);

		if (then == SAID_NONE || then == said_now(&r->c[i]))
			continue;
		if (!before && !n)
			fprintf(out, "the record (flashbench %s) said otherwise:\n",
				version);
		n++;
		fprintf(out, "  class %s: %s (the record said %s)\n",
			r->c[i].name, said_word(said_now(&r->c[i])),
			said_word(then));
	}
	return n;
}

/* JSON: record_said's "classes", each class judged otherwise. */
void class_said_json(struct json *j, const struct class_result *r,
			    const struct jr_value *cl)
{
	struct class_said said = { .n = 0 };
	size_t i;

	if (!class_said_n(r, cl))
		return;
	for (i = 0; i < r->n && said.n < CLASS_NR; i++) {
		int then = record_said(cl, r->c[i].name);
		struct class_entry *e = &said.e[said.n];

		if (then == SAID_NONE || then == said_now(&r->c[i]))
			continue;
		e->name = r->c[i].name;
		e->judged = 1;
		e->pass = then == SAID_PASS;
		e->within = then == SAID_WITHIN;
		said.n++;
	}
	rt_write(j, &class_said_list_table, &said);
}

/*
 * -L's writes past a write cache before its classes, as the record kept
 * them (shape 10 on), decided into *cache; NULL where it lacks them.
 */
static const struct auto_cache *record_fill(const struct jr_value *doc,
					    struct auto_cache *cache)
{
	const struct jr_value *v = jr_get(doc, BODY_KEY(RM_CACHE_FILL));
	struct rt_rd rd = { .loose = 1 };
	struct auto_result *a;

	if (!jr_is(v, JR_OBJECT))
		return NULL;
	a = calloc(1, sizeof(*a));	/* the step's table reads a run's */
	if (!a)
		return NULL;
	if (rt_read(&rd, &auto_cache_step_table, v, BODY_KEY(RM_CACHE_FILL),
		    a)) {
		free(a);
		return NULL;
	}
	*cache = a->cache;
	free(a);
	cache->dev_half_byte = jr_u64(REC_DEVICE(doc, size_byte), 0) / 2;
	auto_cache_decide(cache);
	return cache;
}

/* -L's record: its classes judged again, printed as a live run. */
int class_record(struct cli *c, FILE *out, const struct record *rec)
{
	const struct jr_value *cl = jr_get(rec->doc, BODY_KEY(RM_RESULTS));
	const char *version = jr_str(jr_get(rec->doc, HEAD_KEY(version)), "?");
	char err[JR_ERR_LEN + 160];
	struct class_result r;
	struct auto_cache cache;
	const struct auto_cache *fill = record_fill(rec->doc, &cache);
	FILE *res = out;
	struct json j;
	int ret;

	if (!jr_is(cl, JR_ARRAY) || !cl->n)
		return usage_error(c->err, "--analyze: %s:%u:%u: a -L record without classes in \"results\"",
				   rec->path, cl ? cl->line : 1,
				   cl ? cl->col : 1);
	if (record_class(rec->doc, cl, fill, &r, err, sizeof(err)))
		return usage_error(c->err, "--analyze: %s:%s", rec->path, err);
	ret = open_outputs(c, out, &res);
	if (ret)
		return ret;
	if (c->json) {
		record_json_head(&j, res, rec, class_test.name);
		json_array_begin(&j, BODY_KEY(RM_RESULTS));
		class_json(&j, &r);
		json_array_end(&j);
		json_null(&j, BODY_KEY(RM_VERDICT));
		if (class_said_n(&r, cl)) {
			json_object_begin(&j, BODY_KEY(RM_SAID));
			class_said_json(&j, &r, cl);
			json_object_end(&j);
		}
		json_tail(&j, class_short(&r),
			  jr_bool(jr_get(rec->doc, TAIL_KEY(interrupted)), 0));
	} else {
		record_says_first(res, rec->doc);
		fputs("class check: judged again from the record's figures\n",
		      res);
		class_print_cache(res, &r);
		class_print_checks(res, &r);
		class_said_print(res, &r, cl, 0, version);
	}
	if (finish_output(c, res, res != out))
		return EXIT_DEVICE;
	return class_short(&r) ? EXIT_SHORT : 0;	/* as the live run */
}
