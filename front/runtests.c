// SPDX-License-Identifier: GPL-2.0-only
/*
 * The tests a command line asks for, run the same way whatever the test
 * (the rows of tests.c): their records made, --preserve's save, what they
 * foresee said, then each measured, judged and shown (test_run(): the
 * text, or the JSON document between its head and tail, and the plot),
 * and the exit status of what they found.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "json.h"
#include "options.h"
#include "progplan.h"
#include "test.h"

void test_context(struct cli *c, struct device *dev, struct phase_ctx *ph,
		  struct test_ctx *x)
{
	memset(x, 0, sizeof(*x));
	x->o = &c->o;
	x->log = c->err;
	x->stop = &stop_signal;
	x->saving = c->preserve && !c->simulate;
	x->destructive = c->destructive;
	x->simulated = c->simulate;
	x->label = c->run.label;
	x->card_raw = &c->run.card_raw;
	x->prog = c->run.prog;
	x->offset_default_byte = opt_value_row(V_OFFSET)->def;
	if (ph) {
		ph->c = c;
		ph->dev = dev;
		x->announce = announce_phase;
		x->announce_ctx = ph;
	}
}

/* The device as the user named it: its path, or --simulate[=SPEC]. */
static void device_label(struct cli *c, const struct device *dev)
{
	if (c->simulate)
		snprintf(c->run.label, sizeof(c->run.label), "--simulate%s%s",
			 c->sim_spec ? "=" : "",
			 c->sim_spec ? c->sim_spec : "");
	else
		snprintf(c->run.label, sizeof(c->run.label), "%s", dev->path);
}

/*
 * A zeroed record for each test asked for (NULL for the others), indexed
 * like the table; 0 or EXIT_DEVICE.  tests_free() frees them.
 */
static int tests_records(const struct cli *c, void *rec[TESTS_MAX])
{
	size_t i;

	for (i = 0; i < test_table_nr; i++) {
		if (!(c->tests & test_table[i]->test))
			continue;
		rec[i] = calloc(1, test_table[i]->rec_size ?
				   test_table[i]->rec_size : 1);
		if (!rec[i]) {
			fprintf(c->err, "flashbench: %s: out of memory\n",
				test_table[i]->option);
			return EXIT_DEVICE;
		}
	}
	return 0;
}

/* What the tests asked for foresee (-C: how long it will take). */
static void tests_foresee(struct cli *c, struct device *dev,
			  void *rec[TESTS_MAX])
{
	struct test_ctx x;
	size_t i;

	test_context(c, dev, NULL, &x);
	for (i = 0; i < test_table_nr; i++)
		if (rec[i] && test_table[i]->foresee)
			test_table[i]->foresee(&x, dev, rec[i]);
}

static void tests_free(void *rec[TESTS_MAX])
{
	size_t i;

	for (i = 0; i < test_table_nr; i++) {
		if (rec[i] && test_table[i]->release)
			test_table[i]->release(rec[i]);
		free(rec[i]);
		rec[i] = NULL;
	}
}

/*
 * Run test t into rec and show it: on out as text, or as --json's
 * document (c->run.jdoc); the plot beside.  Returns 0, BENCH_SHORT, _LIMBO,
 * _WRAP or -errno.
 */
static int run_one(struct cli *c, struct device *dev, const struct test *t,
		   void *rec, FILE *out)
{
	struct test_show s = { .out = out };
	struct phase_ctx ph;
	struct test_ctx x;
	int ret;

	test_context(c, dev, &ph, &x);
	if (c->run.plot) {
		snprintf(c->run.plot->title, sizeof(c->run.plot->title),
			 "flashbench %s %s", t->option, dev->path);
		s.plot = c->run.plot->f;
		s.title = c->run.plot->title;
	}
	if (c->json) {
		json_init(&c->run.jdoc, out);
		json_head(c, &c->run.jdoc, t->name, dev);
		s.out = NULL;
		s.json = &c->run.jdoc;
	}
	ret = test_run(t, &x, dev, rec, &s);
	plot_note(c->run.plot, s.plot_ret);
	if (c->json)
		json_end(c, &c->run.jdoc, short_status(s.judged) != 0);
	return ret;
}

/* Run the tests asked for, in order; returns 0 or an exit status. */
static int run_rows(struct cli *c, struct device *dev, void *rec[TESTS_MAX],
		    FILE *out)
{
	size_t i;
	int ret;

	for (i = 0; i < test_table_nr; i++) {
		const struct test *t = test_table[i];

		if (!(c->tests & t->test))
			continue;
		if (c->o.verbose && !t->alone)
			fprintf(c->err, "flashbench: running %s on %s\n",
				t->option, dev->path);
		progplan_start(c->run.prog, t, &c->o, dev);
		ret = run_one(c, dev, t, rec[i], out);
		progress_done(c->run.prog);
		if (short_status(ret)) {
			c->run.short_found = short_worst(c->run.short_found,
						     short_status(ret));
			continue;
		}
		if (ret) {
			fflush(out);
			if (stop_signal)
				return EXIT_SIGNAL + stop_signal;
			if (ret == -ECANCELED)	/* --preserve said why */
				return EXIT_DEVICE;
			return test_failed(c->err, dev, t->option, ret);
		}
	}
	return c->run.short_found;
}

/*
 * The tests' records, --preserve's save, what the tests foresee (-C's
 * estimate), then the tests.
 */
int run_tests(struct cli *c, struct device *dev, FILE *res)
{
	void *rec[TESTS_MAX] = { NULL };
	int ret;

	device_label(c, dev);
	ret = tests_records(c, rec);
	timeops_phase(&c->run.tops, TIMEOPS_SAVE);
	if (!ret)
		ret = save_tests(c, dev);
	if (ret)
		goto out_free;
	/* after the save: its timing writes are journalled as the test's */
	timeops_phase(&c->run.tops, TIMEOPS_TIMING);
	tests_foresee(c, dev, rec);
	timeops_phase(&c->run.tops, TIMEOPS_TEST);
	ret = run_rows(c, dev, rec, res);
out_free:
	tests_free(rec);
	return ret;
}
