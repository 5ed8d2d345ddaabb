// SPDX-License-Identifier: GPL-2.0-only
/*
 * The one road every test takes (test.h): measure into the record, judge
 * it, show it as text or as the JSON document's members, and plot it.
 * The front end runs its rows through test_run(); test_run_text() is the
 * classic entry point of a mode (a device, the options, a stream).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "recbody.h"
#include "test.h"

/* The JSON members of a run: the test's, "error", what it foresaw. */
static void show_json(const struct test *t, const struct test_ctx *x,
		      void *rec, int ret, const struct device *dev,
		      struct json *j)
{
	t->json(t, x, rec, ret, dev, j);
	/* a stop is told by "interrupted", not as an error */
	if (ret < 0 && !(x->stop && *x->stop))
		json_string(j, BODY_KEY(RM_ERROR), strerror(-ret));
	if (t->json_foreseen)
		t->json_foreseen(j, rec);
}

int test_run(const struct test *t, const struct test_ctx *x,
	     struct device *dev, void *rec, struct test_show *s)
{
	int ret;

	ret = t->measure(t, x, dev, s->json ? NULL : s->out, rec);
	s->judged = t->judge ? t->judge(x, rec, ret) : 0;
	if (s->json)
		show_json(t, x, rec, ret, dev, s->json);
	else if (t->print)
		t->print(t, x, rec, ret, dev, s->out);
	if (s->plot && t->plot) {
		int p = t->plot(t, x, rec, s->plot, s->title);

		if (!s->plot_ret)
			s->plot_ret = p;
	}
	return ret ? ret : s->judged;
}

int test_run_text(const struct test *t, struct device *dev,
		  const struct bench_opts *o, FILE *out)
{
	struct test_ctx x = { .o = o, .log = o->log };
	struct test_show s = { .out = out };
	void *rec = calloc(1, t->rec_size ? t->rec_size : 1);
	int ret;

	if (!rec)
		return -ENOMEM;
	ret = test_run(t, &x, dev, rec, &s);
	if (t->release)
		t->release(rec);
	free(rec);
	return ret;
}
