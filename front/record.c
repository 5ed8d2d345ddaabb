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
 *
 * This file reads the record, checks its version and hands it to its
 * kind, found by its test's row in the table of tests (judged[]): -C's
 * and -a's here, --auto's in recauto.c, the class check's in
 * recclass.c.  Every member of a verdict is read and compared through
 * the record's tables (record/rectab.h), never by writing it again.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "autorun.h"
#include "c.h"
#include "capacity.h"
#include "capfix.h"
#include "cli.h"
#include "format.h"
#include "jsonread.h"
#include "record.h"
#include "rechead.h"
#include "rowsread.h"
#include "recint.h"
#include "rectab.h"
#include "test.h"

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
	const struct jr_value *res = jr_get(doc, BODY_KEY(RM_RESULTS));
	const struct jr_value *e = jr_at(res, 0);
	const struct jr_value *v = jr_get(doc, BODY_KEY(RM_VERDICT));
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
	if (rt_read(&rd, &capacity_verdict_table, v, BODY_KEY(RM_VERDICT), r)) {
		snprintf(err, len, "%u:%u: no \"verdict\" with the %s",
			 v ? v->line : doc->line, v ? v->col : doc->col,
			 rd.missing->name);
		return -1;
	}
	r->logical_block_size = (unsigned int)jr_u64(
		REC_DEVICE(doc, block_byte), 512);
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
	json_object_begin(j, BODY_KEY(RM_SAID));
	for (k = 1; (f = rt_said(&capacity_verdict_table, k)); k++)
		if (cap_differs(f, r, then, &now))
			record_emit(j, f->name, jr_get(then, f->name));
	json_object_end(j);
}

/* -C's record: judged again from what its search saw. */
static int capacity_record(struct cli *c, FILE *out, const struct record *rec)
{
	const char *version = jr_str(jr_get(rec->doc, HEAD_KEY(version)), "?");
	const char *path = record_device_path(rec->doc);
	const struct jr_value *then = jr_get(rec->doc, BODY_KEY(RM_VERDICT));
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
		record_json_head(&j, res, rec, capacity_test.name);
		json_array_begin(&j, BODY_KEY(RM_RESULTS));
		capacity_json_evidence(&j, &r);
		json_array_end(&j);
		json_object_begin(&j, BODY_KEY(RM_VERDICT));
		capacity_json(&j, &r);
		capfix_json(&j, &r, NULL, path);
		json_object_end(&j);
		record_emit_member(&j, rec->doc, BODY_KEY(RM_ESTIMATE));
		if (jr_get(rec->doc, BODY_KEY(RM_TIME_OPS)))
			record_emit_member(&j, rec->doc, BODY_KEY(RM_TIME_OPS));
		cap_said_json(&j, &r, then);
		json_tail(&j, capacity_short(&r) != 0,
			  jr_bool(jr_get(rec->doc, TAIL_KEY(interrupted)), 0));
	} else {
		record_says_first(res, rec->doc);
		capacity_print(res, &r, path);
		cap_said_print(res, &r, then, version);
	}
	if (finish_output(c, res, res != out))
		return EXIT_DEVICE;
	/* the live run's status: a fake's kind, or short of its claims */
	return short_status(capacity_short(&r));
}

/* ---- -a's record: its rows, as a text table ---- */

static int align_record(struct cli *c, FILE *out, const struct record *rec)
{
	const struct jr_value *res = jr_get(rec->doc, BODY_KEY(RM_RESULTS));
	struct align_table t = { 0 };
	struct align_rows_bad bad;
	int ret;

	ret = align_rows_read(res, &t.rows, &t.nrows, &bad);
	if (ret == -ENOENT)
		return usage_error(c->err, "--analyze: %s:%u:%u: an -a record without rows in \"results\"",
				   rec->path, res ? res->line : 1,
				   res ? res->col : 1);
	if (ret == -EINVAL)
		return usage_error(c->err, "--analyze: %s:%u:%u: results[%zu] has no number \"%s\": the record lacks raw data today's rules need",
				   rec->path, bad.row->line, bad.row->col,
				   bad.index, bad.member);
	if (ret)
		return usage_error(c->err, "--analyze: %s", strerror(-ret));
	ret = analyze_tables_out(c, out, &t, 1, rec->doc);
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

/*
 * The tests whose records hold a verdict to judge again, each by its
 * row in the table of tests (its "test" the row's name), and how.
 */
static const struct {
	const struct test *t;
	int (*judge)(struct cli *c, FILE *out, const struct record *rec);
} judged[] = {
	{ &auto_test, auto_record }, { &align_test, align_record },
	{ &capacity_test, capacity_record }, { &class_test, class_record },
};

/* The index in judged[] of a record of test (ARRAY_SIZE: none). */
static size_t judged_of(const char *test)
{
	size_t k;

	for (k = 0; k < ARRAY_SIZE(judged); k++)
		if (!strcmp(test, judged[k].t->name))
			break;
	return k;
}

/* Those tests as the user asks for them: "--auto, -a, -C and -L". */
static void judged_names(char *buf, size_t len)
{
	size_t k, at = 0;

	buf[0] = '\0';
	for (k = 0; k < ARRAY_SIZE(judged) && at < len; k++) {
		const struct test *t = judged[k].t;
		const char *sep = !k ? "" : k + 1 < ARRAY_SIZE(judged) ?
				  ", " : " and ";

		if (t->short_option)
			at += (size_t)snprintf(buf + at, len - at, "%s-%c",
					       sep, t->short_option);
		else
			at += (size_t)snprintf(buf + at, len - at, "%s%s",
					       sep, t->option);
	}
}

int is_record(const char *path, const char *text, size_t len)
{
	size_t i = 0, n = strlen(path);

	while (i < len && strchr(" \t\r\n", text[i]))
		i++;
	/* a file named as a record is read as one, even empty or text */
	return (i < len && (text[i] == '{' || text[i] == '[')) ||
	       (n > 5 && !strcmp(path + n - 5, ".json"));
}

int run_record(struct cli *c, FILE *out, const char *text, size_t len)
{
	struct record rec = { strcmp(c->analyze_path, "-") ?
			      c->analyze_path : "standard input", NULL,
			      c->hide_serial };
	char why[JR_ERR_LEN + 160], names[64];
	const struct jr_value *t;
	const char *test, *no;
	size_t k;
	int ret;

	if (record_parse(text, len, &rec.doc, why, sizeof(why)))
		return usage_error(c->err, "--analyze: %s:%s", rec.path, why);
	t = jr_get(rec.doc, HEAD_KEY(test));
	test = jr_str(t, "");
	no = refusal(test);
	k = judged_of(test);
	if (no) {
		ret = usage_error(c->err, "--analyze: %s:%u:%u: %s", rec.path,
				  t->line, t->col, no);
	} else if (k < ARRAY_SIZE(judged)) {
		ret = judged[k].judge(c, out, &rec);
	} else {
		judged_names(names, sizeof(names));
		ret = usage_error(c->err, "--analyze: %s:%u:%u: a record of test \"%s\": it has no verdict to judge again (records of %s have)",
				  rec.path, t->line, t->col, test, names);
	}
	jr_free(rec.doc);
	return ret;
}
