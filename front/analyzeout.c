// SPDX-License-Identifier: GPL-2.0-only
/*
 * How --analyze shows align tables, read from text or from a record
 * (front/record.c): each table's verdict as text (its evidence under
 * -v) or as a JSON document, and the first table's plot.  A leaf that
 * offline.c and record.c both use.
 */
#include <errno.h>
#include <string.h>

#include "recbody.h"
#include "rowtext.h"
#include "autoout.h"
#include "cli.h"
#include "plot.h"
#include "record.h"
#include "recint.h"

/* --analyze as JSON: every table with its verdict; the first on top. */
static int analyze_json(struct cli *c, FILE *res, const struct align_table *t,
			size_t n)
{
	struct align_verdict v, first;
	struct json j;
	size_t i;
	int ret = 0;

	json_init(&j, res);
	json_head(c, &j, "analyze", NULL);
	json_array_begin(&j, BODY_KEY(RM_RESULTS));
	for (i = 0; i < n && !ret; i++) {
		ret = analyze_align(t[i].rows, t[i].nrows, &v);
		if (ret)
			break;
		if (!i)
			first = v;
		json_object_begin(&j, NULL);
		json_u64(&j, "table", i + 1);
		json_array_begin(&j, "rows");
		json_align(&j, t[i].rows, t[i].nrows);
		json_array_end(&j);
		auto_json_align_verdict(&j, &v);
		json_object_end(&j);
	}
	json_array_end(&j);
	if (n && !ret)
		auto_json_align_verdict(&j, &first);
	else
		json_null(&j, BODY_KEY(RM_VERDICT));
	json_tail(&j, 0, 0);
	return ret;
}

/* --analyze as text: each table's verdict (and evidence under -v). */
static int analyze_tables_text(FILE *res, const struct align_table *t,
			       size_t n, int verbose)
{
	struct align_verdict v;
	size_t i;

	for (i = 0; i < n; i++) {
		int ret = analyze_align(t[i].rows, t[i].nrows, &v);
		if (ret)
			return ret;
		analyze_print_verdict(res, i + 1, &v);
		if (verbose)
			analyze_print_evidence(res, &v);
	}
	return 0;
}

/* Plot the first of the tables (an empty chart if none). */
static void plot_analyze(struct cli *c, const struct align_table *t, size_t n)
{
	struct align_verdict v;

	plot_note(c->run.plot, plot_align(c->run.plot->f, c->run.plot->title,
				      n ? t[0].rows : NULL,
				      n ? t[0].nrows : 0,
				      n ? plot_verdict(t[0].rows, t[0].nrows,
						       &v) : NULL));
}

int analyze_tables_out(struct cli *c, FILE *out, const struct align_table *t,
		       size_t n, const struct jr_value *record)
{
	FILE *res = out;
	int ret;

	ret = open_outputs(c, out, &res);
	if (ret)
		return ret;
	if (c->run.plot)
		plot_analyze(c, t, n);
	if (c->json) {
		ret = analyze_json(c, res, t, n);
	} else {
		if (record)
			record_says_first(res, record);
		ret = analyze_tables_text(res, t, n, c->o.verbose);
	}
	if (ret)
		fprintf(c->err, "flashbench: --analyze: %s\n", strerror(-ret));
	if (plot_close(c) && !ret)
		ret = -EIO;
	if (finish_output(c, res, res != out) && !ret)
		return EXIT_DEVICE;
	return ret ? EXIT_DEVICE : 0;
}
