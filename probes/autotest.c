// SPDX-License-Identifier: GPL-2.0-only
/*
 * --auto's row of the table of tests (test.h): its whole run
 * (auto_run_all(), run.c), its writes announced phase by phase through
 * the run context's announce hook (the one --preserve watches), the
 * card's short claims and the erase size beside the card's judged, and
 * the record and verdict shown as text (output/autotext.c), JSON
 * (output/autojson.c) or a chart (output/plotauto.c).
 */
#include <string.h>

#include "autoout.h"
#include "autorun.h"
#include "capverdict.h"
#include "class.h"
#include "format.h"
#include "json.h"
#include "layout.h"
#include "plot.h"
#include "progress.h"
#include "recbody.h"
#include "reconcile.h"
#include "sysfs.h"
#include "test.h"

/* --auto's record: the run's, the erase size reconciled, sysfs's word. */
struct auto_rec {
	struct auto_result r;
	struct reconcile rc;		/* the erase size found beside the
					 * card's and the kernel's */
	struct sysfs_info sysfs;	/* what sysfs says of the device */
};

/*
 * The options --auto runs with: the run's, but the default --offset,
 * which --auto ignores (and says so under -v): its class check starts
 * there.
 */
static void auto_opts(const struct test_ctx *x, struct bench_opts *o)
{
	*o = *x->o;
	o->offset_byte = x->offset_default_byte;
}

/* Its first align table must fit on the device. */
static int auto_check(const struct test *t, const struct test_check *k,
		      enum test_check_at at)
{
	uint64_t min;
	char size[FMT_LEN];

	if (at != TEST_CHECK_DEVICE)
		return 0;
	min = auto_min_size(k->dev->logical_block_size);
	if (k->dev->size_byte >= min)
		return 0;
	return test_why(k,
			"%s needs at least %s (%" PRIu64 " bytes), more than " TEST_DEV_FMT,
			t->option, fmt_size(size, min), min, k->dev->path,
			k->dev_byte);
}

static int auto_measure(const struct test *t, const struct test_ctx *x,
			struct device *dev, FILE *live, void *rec)
{
	struct auto_rec *a = rec;
	struct auto_hooks h = {
		.progress = progress_log(x->prog,
					 x->o->verbose ? x->log : NULL),
		.before_write = x->announce,
		.ctx = x->announce_ctx,
		.stop = x->stop,
	};
	struct bench_opts o;
	int ret;

	(void)t;
	(void)live;
	if (!x->simulated)
		sysfs_read(dev->path, &a->sysfs);
	auto_opts(x, &o);
	ret = auto_run_all(dev, &o, x->destructive, x->o->card, &h, &a->r);
	progress_unwrap(x->prog, h.progress);
	return ret;
}

int auto_short_of(const struct auto_result *r, const struct class_result *cr)
{
	int cap = r->capacity_done ? capacity_short(&r->capacity) : 0;
	int cls = cr && class_short(cr) ? BENCH_SHORT : 0;

	return cap > cls ? cap : cls;
}

/*
 * The card short of its claims, by the capacity check or the class
 * check (each judged as it ran, so a run cut short keeps them), and the
 * erase size found beside the card's and the kernel's.
 */
static int auto_judge(const struct test_ctx *x, void *rec, int ret)
{
	struct auto_rec *a = rec;
	const struct auto_result *r = &a->r;

	(void)ret;
	if (x->card_raw && x->o->card)
		reconcile(&a->rc, r->align.erase.size_byte, x->card_raw,
			  x->o->card);
	reconcile_page(&a->rc, r->align.page.size_byte);
	reconcile_cache(&a->rc, r->cache.dropped ? r->cache.size_byte : 0);
	return auto_short_of(r, r->class);
}

/* The report, the class check's lines, the end; -v: the evidence. */
static void auto_print_op(const struct test *t, const struct test_ctx *x,
			  void *rec, int ret, const struct device *dev,
			  FILE *out)
{
	const struct auto_rec *a = rec;
	const struct auto_result *r = &a->r;

	(void)t;
	(void)ret;
	(void)dev;
	auto_print_run(out, r, x->label, x->simulated ? NULL : &a->sysfs,
		       &a->rc);
	if (r->class)
		class_print_body(out, r->class);
	auto_print_run_end(out, r, r->class ? r->class->device_ns : 0);
	/* under -v, the statistics behind the align verdict */
	if (x->o->verbose && x->log)
		auto_print_evidence(x->log, r, "flashbench: ");
}

void auto_json_body(struct json *j, const struct auto_result *r,
		    const struct reconcile *rc, const struct class_result *cr)
{
	auto_json_results(j, r);
	auto_json_verdict(j, r);
	auto_json_advice(j, r);
	reconcile_json(j, rc);
	if (!cr) {
		json_null(j, BODY_KEY(RM_CLASS));
		return;
	}
	json_array_begin(j, BODY_KEY(RM_CLASS));
	class_json(j, cr);
	json_array_end(j);
}

static void auto_json_op(const struct test *t, const struct test_ctx *x,
			 void *rec, int ret, const struct device *dev,
			 struct json *j)
{
	const struct auto_rec *a = rec;

	(void)t;
	(void)x;
	(void)ret;
	(void)dev;
	auto_json_body(j, &a->r, &a->rc, a->r.class);
}

/* One page, titled by the device as the user named it. */
static int auto_plot(const struct test *t, const struct test_ctx *x,
		     const void *rec, FILE *f, const char *title)
{
	const struct auto_rec *a = rec;
	char own[320];

	(void)title;
	snprintf(own, sizeof(own), "flashbench %s %.280s", t->option,
		 x->label);
	return plot_auto(f, own, &a->r, a->r.class);
}

static void auto_release(void *rec)
{
	struct auto_rec *a = rec;

	auto_free(&a->r);
}

const struct test auto_test = {
	.test = TEST_AUTO, .name = "auto", .option = "--auto", .alone = 1,
	.writes_destructive = 1, .takes_options = BENCH_CAPACITY,
	.check = auto_check, .rec_size = sizeof(struct auto_rec),
	.measure = auto_measure,
	.judge = auto_judge, .print = auto_print_op, .json = auto_json_op,
	.plot = auto_plot, .release = auto_release,
};
