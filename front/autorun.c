// SPDX-License-Identifier: GPL-2.0-only
/*
 * --auto: run the verdict (verdict/auto.c) with hooks that announce and
 * preserve its writes, then print it, as a table, JSON or a chart.
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
#include "format.h"
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

	progress_clear(a->c->prog);
	/*
	 * A later phase (the erase size came from writes): put back what
	 * the earlier one overwrote, then save what this one will.
	 */
	if (a->c->saved) {
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

/*
 * Under -v, the statistics behind --auto's align verdict (t, misfits,
 * spike chance) on the error stream, each line prefixed.
 */
static void auto_evidence(const struct cli *c, const struct auto_result *r)
{
	struct align_verdict reads = r->align;
	char *text = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *f;

	if (!c->o.verbose)
		return;
	f = open_memstream(&text, &len);
	if (!f)
		return;
	/* the reads' verdict, as auto_print() words it */
	if (r->erase_writes.measured)
		reads.erase = r->erase_reads;
	analyze_print_evidence(f, &reads);
	fclose(f);
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		fprintf(c->err, "flashbench: %s\n", line + strspn(line, " "));
	free(text);
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
 * The options --auto's class check runs with: the user's, but the
 * default --offset, which --auto ignores (and says so under -v).
 */
static void auto_class_opts(const struct cli *c, struct bench_opts *o)
{
	struct bench_opts d;

	bench_opts_default(&d);
	*o = c->o;
	o->offset_byte = d.offset_byte;
}

/*
 * --auto --destructive's last step: --class in AUs of the size the card
 * states, else the one measured.  Skipped (cr->n stays 0, *skip_end the
 * byte it would reach) where the device is too small.  Returns 0 or
 * -errno.
 */
static int auto_class(struct cli *c, struct announce_ctx *a,
		      const struct auto_result *r, struct class_result *cr,
		      uint64_t *skip_end)
{
	uint64_t au = c->card.au_byte ? c->card.au_byte :
		      r->align.erase.size_byte;
	struct bench_range rg;
	struct bench_opts o;
	struct class_plan p;
	int ret;

	auto_class_opts(c, &o);
	class_plan(&p, &o, au);
	rg.start_byte = p.offset_byte;
	rg.end_byte = p.offset_byte + p.units * p.unit_byte + p.span_byte;
	if (rg.end_byte > a->dev->size_byte) {
		*skip_end = rg.end_byte;
		return 0;
	}
	ret = announce_ranges(a, &rg, 1);
	if (!ret)
		ret = class_measure(a->dev, &p, cr);
	class_judge(cr, &c->card.claims);
	return ret;
}

/*
 * What --destructive would add to a read-only run besides the write
 * steps auto_print() names: the capacity check and the class check,
 * each with what it may overwrite, as their announcements will count
 * it.  Empty when neither fits on the device.
 */
static void destructive_extras(const struct cli *c, const struct device *dev,
			       const struct auto_result *r, char *buf,
			       size_t len)
{
	uint64_t au = c->card.au_byte ? c->card.au_byte :
		      r->align.erase.size_byte;
	uint64_t cap_byte = 0, end;
	struct bench_range *rg;
	char a[FMT_LEN], cls[96] = "";
	struct bench_opts o;
	struct class_plan p;
	int n, i;

	auto_class_opts(c, &o);
	class_plan(&p, &o, au);
	end = p.offset_byte + p.units * p.unit_byte + p.span_byte;
	if (end <= dev->size_byte) {
		char b[FMT_LEN];

		snprintf(cls, sizeof(cls), "the class check (it overwrites %s from %s on)",
			 fmt_size(a, end - p.offset_byte),
			 fmt_size(b, p.offset_byte));
	}
	n = capacity_write_ranges(BENCH_CAPACITY, &c->o, dev->size_byte,
				  NULL, 0);
	rg = n > 0 ? malloc((size_t)n * sizeof(*rg)) : NULL;
	if (rg)
		n = capacity_write_ranges(BENCH_CAPACITY, &c->o,
					  dev->size_byte, rg, (size_t)n);
	for (i = 0; rg && i < n; i++)
		cap_byte += rg[i].end_byte - rg[i].start_byte;
	free(rg);
	buf[0] = '\0';
	if (cap_byte)
		snprintf(buf, len, "--destructive also runs the capacity check (it may overwrite %s in %d places across the device)%s%s\n",
			 fmt_size(a, cap_byte), n, cls[0] ? " and " : "", cls);
	else if (cls[0])
		snprintf(buf, len, "--destructive also runs %s\n", cls);
}

/*
 * auto_print()'s text with extra inserted after its "skipped:" line
 * (when there is one), and without its last line, the device time of
 * the verdict's steps, when untimed: the class check ran after them,
 * and auto_total() gives one total for the whole run instead.
 */
static void print_verdict(FILE *res, const struct auto_result *r,
			  const char *target, const struct sysfs_info *sysfs,
			  int untimed, const char *extra)
{
	char *text = NULL, *last, *skip;
	size_t len = 0, at;
	FILE *f = open_memstream(&text, &len);

	if (!f) {
		auto_print(res, r, target, sysfs);
		return;
	}
	auto_print(f, r, target, sysfs);
	fclose(f);
	if (untimed && len && text[len - 1] == '\n') {
		text[len - 1] = '\0';
		last = strrchr(text, '\n');
		last = last ? last + 1 : text;
		text[len - 1] = '\n';
		if (!strncmp(last, "device time: ", 13))
			len = (size_t)(last - text);
	}
	skip = strstr(text, "\nskipped: ");
	at = skip ? (size_t)(strchr(skip + 1, '\n') + 1 - text) : len;
	if (!extra || at > len)
		at = len;
	fwrite(text, 1, at, res);
	if (extra && skip)
		fputs(extra, res);
	fwrite(text + at, 1, len - at, res);
	free(text);
}

/* One share of the device time: ", what 1.2s" when it took any. */
static void print_share(FILE *res, const char *what, uint64_t ns)
{
	if (ns) {
		char t[FMT_LEN];

		fprintf(res, ", %s %s", what, fmt_time(t, (int64_t)ns));
	}
}

/*
 * The device time of --auto --destructive with the class check: one
 * total, then each step's share.
 */
static void auto_total(FILE *res, const struct auto_result *r,
		       const struct class_result *cr)
{
	char t[FMT_LEN], a[FMT_LEN];

	fprintf(res, "device time: %s in all: align %s",
		fmt_time(t, (int64_t)(r->device_ns + cr->device_ns)),
		fmt_time(a, (int64_t)r->step_ns[0]));
	print_share(res, "erase size from writes", r->step_ns[4]);
	print_share(res, "FAT area", r->step_ns[1]);
	print_share(res, "open AUs linear", r->step_ns[2]);
	print_share(res, "open AUs random", r->step_ns[3]);
	if (r->capacity_done)
		print_share(res, "capacity check", r->capacity.device_ns);
	print_share(res, "class check", cr->device_ns);
	fputc('\n', res);
}

/* Run --auto and print its verdict; returns 0 or an exit status. */
int run_auto(struct cli *c, struct device *dev, FILE *res)
{
	struct announce_ctx actx = { c, dev };
	struct auto_hooks h = {
		.progress = progress_log(c->prog, c->o.verbose ? c->err : NULL),
		.before_write = announce_ranges,
		.ctx = &actx,
	};
	struct sysfs_info sysfs = { 0 };
	struct auto_result r;
	struct reconcile rc;
	struct class_result cr = { .n = 0 };
	uint64_t class_end = 0;
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
	progress_start(c->prog, "--auto", NULL, 0);
	ret = auto_run(dev, &c->o, c->destructive, &h, &r);
	if (!ret && c->destructive && !stop_signal)
		ret = auto_class(c, &actx, &r, &cr, &class_end);
	c->short_found = short_worst(
		r.capacity_done ? short_status(capacity_short(&r.capacity)) : 0,
		cr.n && class_short(&cr) ? EXIT_SHORT : 0);
	progress_unwrap(c->prog, h.progress);
	progress_done(c->prog);
	auto_reconcile(c, dev, &r, &rc);
	if (c->plot) {
		snprintf(c->plot->title, sizeof(c->plot->title),
			 "flashbench --auto %.280s", target);
		plot_note(c->plot, plot_auto(c->plot->f, c->plot->title, &r,
						  cr.n ? &cr : NULL));
	}
	if (c->json) {
		json_init(&j, res);
		json_head(c, &j, "auto", dev);
		auto_json_results(&j, &r);
		auto_json_verdict(&j, &r);
		auto_json_advice(&j, &r);
		reconcile_json(&j, &rc);
		if (cr.n) {
			json_array_begin(&j, "class");
			class_json(&j, &cr);
			json_array_end(&j);
		} else {
			json_null(&j, "class");
		}
		if (ret && !stop_signal)
			json_string(&j, "error", strerror(-ret));
		json_tail(&j, c->short_found, stop_signal != 0);
	} else {
		char extra[256] = "";

		if (!c->destructive)
			destructive_extras(c, dev, &r, extra, sizeof(extra));
		print_verdict(res, &r, target, c->simulate ? NULL : &sysfs,
			      cr.n != 0, extra[0] ? extra : NULL);
		reconcile_print(res, &rc);
		if (cr.n) {
			class_print_body(res, &cr);
			auto_total(res, &r, &cr);
		}
		if (class_end)
			fprintf(res, "class check: skipped: it writes up to byte %" PRIu64 ", past the end of the device (%" PRIu64 " bytes)\n",
				class_end, dev->size_byte);
		auto_evidence(c, &r);
	}
	auto_free(&r);
	if (ret) {
		fflush(res);
		if (stop_signal)
			return 128 + stop_signal;
		if (ret == -ECANCELED)	/* --preserve said why */
			return EXIT_DEVICE;
		return test_failed(c, dev, "--auto", ret);
	}
	return c->short_found;
}
