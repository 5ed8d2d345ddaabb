// SPDX-License-Identifier: GPL-2.0-only
/*
 * --auto: its whole run (probes/run.c auto_run_all()) with hooks that
 * announce and preserve its writes, then the record and its verdict
 * shown, as text (output/autotext.c), JSON or a chart.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "autoout.h"
#include "autorun.h"
#include "capacity.h"
#include "cardout.h"
#include "class.h"
#include "cli.h"
#include "plot.h"
#include "progress.h"
#include "reconcile.h"
#include "sysfs.h"

/* ---- --auto ---- */

/* What auto_run's hook needs to announce (and save) the writes. */
struct announce_ctx {
	struct cli *c;
	struct device *dev;
};

static int announce_ranges(void *ctx, const struct bench_range *r, size_t n)
{
	struct announce_ctx *a = ctx;
	struct bench_range *m;

	progress_clear(a->c->run.prog);
	/*
	 * A later phase (the erase size came from writes): put back what
	 * the earlier one overwrote, then save what this one will.
	 */
	if (a->c->run.saved) {
		if (restore_saved(a->c, a->dev))
			return -ECANCELED;
		dev_set_stop_flag(&stop_signal);
	}
	m = ranges_dup(r, n);
	if (m) {
		announce_step(a->c, a->dev, m, n);
		free(m);
	} else {
		size_t i;

		for (i = 0; i < n; i++)
			fprintf(a->c->err,
				"flashbench: will overwrite bytes %" PRIu64 "-%" PRIu64 " on %s\n",
				r[i].start_byte, r[i].end_byte, a->dev->path);
	}
	return save_ranges(a->c, a->dev, r, n, 0) ? -ECANCELED : 0;
}

/* The erase size found beside the AU the card states and the kernel's. */
static void auto_reconcile(const struct cli *c, const struct device *dev,
			   const struct auto_result *r, struct reconcile *rc)
{
	struct card_raw raw;
	struct card_info ci;

	device_card(c, dev, &raw, &ci);
	reconcile(rc, r->align.erase.size_byte, &raw, &ci);
	reconcile_page(rc, r->align.page.size_byte);
}

/*
 * The options --auto runs with: the user's, but the default --offset,
 * which --auto ignores (and says so under -v): its class check starts
 * there.
 */
static void auto_opts(const struct cli *c, struct bench_opts *o)
{
	struct bench_opts d;

	bench_opts_default(&d);
	*o = c->o;
	o->offset_byte = d.offset_byte;
}

/* Run --auto and print its verdict; returns 0 or an exit status. */
int run_auto(struct cli *c, struct device *dev, FILE *res)
{
	struct announce_ctx actx = { c, dev };
	struct auto_hooks h = {
		.progress = progress_log(c->run.prog, c->o.verbose ? c->err : NULL),
		.before_write = announce_ranges,
		.ctx = &actx,
		.stop = &stop_signal,
	};
	struct sysfs_info sysfs = { 0 };
	struct auto_result r;
	struct reconcile rc;
	struct bench_opts o;
	char target[512];
	struct json j;
	int ret;

	if (c->simulate)
		snprintf(target, sizeof(target), "--simulate%s%s",
			 c->sim_spec ? "=" : "", c->sim_spec ? c->sim_spec : "");
	else
		snprintf(target, sizeof(target), "%s", dev->path);
	if (!c->simulate)
		sysfs_read(dev->path, &sysfs);
	progress_start(c->run.prog, "--auto", NULL, 0);
	auto_opts(c, &o);
	ret = auto_run_all(dev, &o, c->destructive, &c->run.card, &h, &r);
	c->run.short_found = short_worst(
		r.capacity_done ? short_status(capacity_short(&r.capacity)) : 0,
		r.class && class_short(r.class) ? EXIT_SHORT : 0);
	progress_unwrap(c->run.prog, h.progress);
	progress_done(c->run.prog);
	auto_reconcile(c, dev, &r, &rc);
	if (c->run.plot) {
		snprintf(c->run.plot->title, sizeof(c->run.plot->title),
			 "flashbench --auto %.280s", target);
		plot_note(c->run.plot, plot_auto(c->run.plot->f, c->run.plot->title, &r,
						  r.class));
	}
	if (c->json) {
		json_init(&j, res);
		json_head(c, &j, "auto", dev);
		auto_json_results(&j, &r);
		auto_json_verdict(&j, &r);
		auto_json_advice(&j, &r);
		reconcile_json(&j, &rc);
		if (r.class) {
			json_array_begin(&j, "class");
			class_json(&j, r.class);
			json_array_end(&j);
		} else {
			json_null(&j, "class");
		}
		if (ret && !stop_signal)
			json_string(&j, "error", strerror(-ret));
		json_tail(&j, c->run.short_found, stop_signal != 0);
	} else {
		auto_print_run(res, &r, target, c->simulate ? NULL : &sysfs,
			       &rc);
		if (r.class)
			class_print_body(res, r.class);
		auto_print_run_end(res, &r, r.class ? r.class->device_ns : 0);
		/* under -v, the statistics behind the align verdict */
		if (c->o.verbose)
			auto_print_evidence(c->err, &r, "flashbench: ");
	}
	auto_free(&r);
	if (ret) {
		fflush(res);
		if (stop_signal)
			return 128 + stop_signal;
		if (ret == -ECANCELED)	/* --preserve said why */
			return EXIT_DEVICE;
		return test_failed(c->err, dev, "--auto", ret);
	}
	return c->run.short_found;
}
