// SPDX-License-Identifier: GPL-2.0-only
/*
 * The front end's side of data safety: say which bytes the writing tests
 * will overwrite, choose and check --preserve's journal, save before the
 * first write and put back after the last, and --restore a journal.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "format.h"
#include "preserve.h"
#include "progress.h"
#include "ranges.h"
#include "wrap.h"

/* Where a wrapped message goes on. */
#define ERR_LEAD "flashbench:   "

/* Most ranges announced one per line without -v. */
#define ANNOUNCE_LINES	128

/* How many ranges from r[i] on have its length, one stride apart. */
static size_t run_of(const struct bench_range *r, size_t n, size_t i)
{
	uint64_t len = r[i].end_byte - r[i].start_byte, stride;
	size_t j = i + 1;

	if (j >= n || r[j].end_byte - r[j].start_byte != len)
		return 1;
	stride = r[j].start_byte - r[i].start_byte;
	while (j + 1 < n && r[j + 1].end_byte - r[j + 1].start_byte == len &&
	       r[j + 1].start_byte - r[j].start_byte == stride)
		j++;
	return j - i + 1;
}

/*
 * Many ranges (--capacity's probes): a line with their number, total and
 * span, then one per run of equal ranges at a fixed stride, or per range
 * standing alone.
 */
static void announce_compact(const struct cli *c, const struct device *dev,
			     const struct bench_range *r, size_t n,
			     uint64_t total)
{
	char a[FMT_LEN], b[FMT_LEN];
	size_t i, k;

	wrap_printf(c->err, ERR_LEAD,
		"flashbench: will overwrite %zu ranges on %s, %s in all, in bytes %" PRIu64 "-%" PRIu64 ":\n",
		n, dev->path, fmt_size(a, total), r[0].start_byte,
		r[n - 1].end_byte);
	for (i = 0; i < n; i += k) {
		k = run_of(r, n, i);
		if (k < 3) {
			k = 1;
			fprintf(c->err,
				"flashbench: - bytes %" PRIu64 "-%" PRIu64 " (%s)\n",
				r[i].start_byte, r[i].end_byte,
				fmt_size(a, r[i].end_byte - r[i].start_byte));
			continue;
		}
		wrap_printf(c->err, ERR_LEAD,
			"flashbench: - %zu blocks of %s, %s apart, in bytes %" PRIu64 "-%" PRIu64 "\n",
			k, fmt_size(a, r[i].end_byte - r[i].start_byte),
			fmt_size(b, r[i + 1].start_byte - r[i].start_byte),
			r[i].start_byte, r[i + k - 1].end_byte);
	}
	fprintf(c->err,
		"flashbench: each END is the first byte left alone; -v lists every range\n");
}

/*
 * Say which bytes will be overwritten: one line per range, sorted, with
 * adjacent and overlapping ranges merged, then the total, saying once
 * that END is exclusive; more than ANNOUNCE_LINES ranges compactly
 * unless -v.  Sorts and merges r (n ranges) in place.
 */
void announce(const struct cli *c, const struct device *dev,
	      struct bench_range *r, size_t n)
{
	char sz[FMT_LEN];
	uint64_t total = 0;
	size_t i;

	if (!n)
		return;
	n = ranges_merge(r, n);
	for (i = 0; i < n; i++)
		total += r[i].end_byte - r[i].start_byte;
	if (n > ANNOUNCE_LINES && !c->o.verbose) {
		announce_compact(c, dev, r, n, total);
		return;
	}
	for (i = 0; i < n; i++)
		wrap_printf(c->err, ERR_LEAD,
			    "flashbench: will overwrite bytes %" PRIu64 "-%" PRIu64 " on %s\n",
			    r[i].start_byte, r[i].end_byte, dev->path);
	wrap_printf(c->err, ERR_LEAD,
		"flashbench: %s in all, in %zu range%s; each END is the first byte left alone\n",
		fmt_size(sz, total), n, n == 1 ? "" : "s");
}

/*
 * The writes of one --auto step in one line: the number of ranges, their
 * total and their span; -v lists every range (announce()).  Sorts and
 * merges r (n ranges) in place.
 */
static void announce_step(const struct cli *c, const struct device *dev,
			  struct bench_range *r, size_t n)
{
	char sz[FMT_LEN];
	uint64_t total = 0;
	size_t i;

	if (!n)
		return;
	if (c->o.verbose) {
		announce(c, dev, r, n);
		return;
	}
	n = ranges_merge(r, n);
	for (i = 0; i < n; i++)
		total += r[i].end_byte - r[i].start_byte;
	if (n == 1) {
		wrap_printf(c->err, ERR_LEAD,
			"flashbench: will overwrite bytes %" PRIu64 "-%" PRIu64 " on %s, %s (END excluded)\n",
			r[0].start_byte, r[0].end_byte, dev->path,
			fmt_size(sz, total));
		return;
	}
	wrap_printf(c->err, ERR_LEAD,
		"flashbench: will overwrite %zu ranges on %s, %s in all, within bytes %" PRIu64 "-%" PRIu64 " (END excluded); -v lists them\n",
		n, dev->path, fmt_size(sz, total), r[0].start_byte,
		r[n - 1].end_byte);
}

/* A copy of n ranges to sort and merge, or NULL (out of memory). */
static struct bench_range *ranges_dup(const struct bench_range *r, size_t n)
{
	struct bench_range *m = malloc((n ? n : 1) * sizeof(*m));

	if (m && n)
		memcpy(m, r, n * sizeof(*m));
	return m;
}

/*
 * The run context's announce hook (test.h): a later phase of a test's
 * writes (--auto's write steps, the erase size from writes before the
 * rest) announced, and under --preserve first what the earlier phase
 * overwrote put back, then what this one will overwrite saved.  ctx is a
 * struct phase_ctx.  0, or -ECANCELED when --preserve could not (it said
 * why).
 */
int announce_phase(void *ctx, const struct bench_range *r, size_t n)
{
	struct phase_ctx *a = ctx;
	struct bench_range *m;

	progress_clear(a->c->run.prog);
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
			wrap_printf(a->c->err, ERR_LEAD,
				    "flashbench: will overwrite bytes %" PRIu64 "-%" PRIu64 " on %s\n",
				    r[i].start_byte, r[i].end_byte,
				    a->dev->path);
	}
	return save_ranges(a->c, a->dev, r, n, 0) ? -ECANCELED : 0;
}

/* Say which bytes the writing tests will overwrite, all tests together. */
void announce_writes(const struct cli *c, const struct device *dev,
		     const struct write_plan plan[TESTS_MAX])
{
	struct bench_range *all;
	size_t i, n = 0;

	for (i = 0; i < test_table_nr; i++)
		n += plan[i].n;
	all = malloc((n ? n : 1) * sizeof(*all));
	if (!all) {	/* out of memory: unmerged, then */
		size_t j;

		for (i = 0; i < test_table_nr; i++)
			for (j = 0; j < plan[i].n; j++)
				wrap_printf(c->err, ERR_LEAD,
					    "flashbench: will overwrite bytes %" PRIu64 "-%" PRIu64 " on %s\n",
					    plan[i].ranges[j].start_byte,
					    plan[i].ranges[j].end_byte,
					    dev->path);
		return;
	}
	for (i = 0, n = 0; i < test_table_nr; i++) {
		if (plan[i].n)
			memcpy(all + n, plan[i].ranges,
			       plan[i].n * sizeof(*all));
		n += plan[i].n;
	}
	announce(c, dev, all, n);
	free(all);
}

/* ---- --preserve and --restore ---- */

/* Does the default journal land on -o or --plot?  0 or EXIT_USAGE. */
static int check_default_journal(struct cli *c)
{
	const char *outs[2] = { c->out_path, c->plot_path };
	struct path_id j, o;
	size_t i;

	if (outs[1] && !strcmp(outs[1], "-"))
		outs[1] = NULL;	/* standard output */
	path_identify(c->run.journal_buf, &j);
	for (i = 0; i < 2; i++) {
		if (!outs[i])
			continue;
		path_identify(outs[i], &o);
		if (same_file(&j, &o))
			return usage_error(c->err,
					   "%s '%s' is where --preserve keeps its journal; give another --journal",
					   i ? "--plot" : "--out", outs[i]);
	}
	return 0;
}

/*
 * Choose the journal of --preserve and refuse a path that is taken, before
 * any output is opened or any write announced.  Returns 0 or EXIT_USAGE.
 */
int check_journal(struct cli *c, const struct device *dev)
{
	char why[512] = "";

	if (!c->preserve || c->simulate)	/* no journal: save_ranges() */
		return 0;
	if (c->journal)
		snprintf(c->run.journal_buf, sizeof(c->run.journal_buf), "%s",
			 c->journal);
	else if (preserve_journal_name(c->run.journal_buf,
				       sizeof(c->run.journal_buf), dev->path))
		snprintf(c->run.journal_buf, sizeof(c->run.journal_buf),
			 "flashbench.journal");
	if (!c->journal && check_default_journal(c))
		return EXIT_USAGE;
	if (!preserve_check_journal(c->run.journal_buf, why, sizeof(why)))
		return 0;
	wrap_printf(c->err, ERR_LEAD, "flashbench: --preserve: %s\n", why);
	return EXIT_USAGE;
}

/*
 * Save the ranges about to be overwritten, once, before the first write
 * (sparse: by the MiB as written, see preserve_save_sparse()).  Returns
 * 0, or an exit status after saying why.
 */
int save_ranges(struct cli *c, struct device *dev,
		const struct bench_range *r, size_t n, int sparse)
{
	char why[512] = "";
	int ret;

	if (!c->preserve || c->run.saved || !n)
		return 0;
	/* a simulated card holds no data: nothing to keep, no journal */
	if (c->simulate) {
		fprintf(c->err, "flashbench: --preserve: the simulated card holds no data; nothing saved\n");
		return 0;
	}
	ret = (sparse ? preserve_save_sparse : preserve_save)(&c->run.saved, dev,
		r, n, c->run.journal_buf, why, sizeof(why));
	if (ret) {
		wrap_printf(c->err, ERR_LEAD, "flashbench: --preserve: %s\n",
			    why[0] ? why : strerror(-ret));
		return stop_signal ? 128 + stop_signal : EXIT_DEVICE;
	}
	/* one line each, saved and restored: the user's data is at stake */
	wrap_printf(c->err, ERR_LEAD,
		    "flashbench: --preserve: saved what will be overwritten in %s\n",
		    c->run.journal_buf);
	return 0;
}

/*
 * The union of the ranges every writing test in tests (BENCH_* bits;
 * read-only ones are ignored) overwrites on a device of dev_size bytes,
 * sorted and merged: what to save once before the first writing test
 * and to restore once after the last, so that no restore disturbs a
 * later test.  The table of tests is read here, in the front end, and
 * safety/ gets only the ranges.  *ranges is malloc'd (NULL and *n = 0
 * when no test writes).  Returns 0, -EINVAL if a test reaches past the
 * end, -ENOMEM.
 */
int tests_write_ranges(unsigned int tests, const struct bench_opts *o,
		       uint64_t dev_size, struct bench_range **ranges,
		       size_t *n)
{
	struct bench_range *r = NULL, *grown;
	size_t i, nr = 0;
	int cnt;

	*ranges = NULL;
	*n = 0;
	for (i = 0; i < test_table_nr; i++) {
		const struct test *md = test_table[i];

		if (!md->writes || !(tests & md->test))
			continue;
		cnt = md->plan(md->test, o, dev_size, NULL, 0);
		if (cnt < 0)
			goto out_fail;
		grown = realloc(r, (nr + (size_t)cnt + 1) * sizeof(*r));
		if (!grown) {
			cnt = -ENOMEM;
			goto out_fail;
		}
		r = grown;
		cnt = md->plan(md->test, o, dev_size, r + nr, (size_t)cnt);
		if (cnt < 0)
			goto out_fail;
		nr += (size_t)cnt;
	}
	if (!nr) {
		free(r);
		return 0;
	}
	*ranges = r;
	*n = ranges_merge(r, nr);
	return 0;

out_fail:
	free(r);
	return cnt;
}

/* Save the union of the writing tests' ranges; 0 or an exit status. */
int save_tests(struct cli *c, struct device *dev)
{
	struct bench_range *r = NULL;
	size_t n = 0;
	int ret;

	if (!c->preserve || !tests_writing(c->tests))
		return 0;
	ret = tests_write_ranges(c->tests, &c->o, dev->size_byte, &r, &n);
	if (ret) {
		fprintf(c->err, "flashbench: --preserve: %s\n", strerror(-ret));
		return EXIT_DEVICE;
	}
	/* a test alone that writes no copies: saved by the MiB it writes */
	ret = save_ranges(c, dev, r, n, tests_own_data(c->tests));
	free(r);
	return ret;
}

/*
 * Say, range by range, what a restore of p could not put back (a fake
 * card: see preserve_losses()), and that the journal keeps it.  Returns
 * nonzero when there was any.
 */
static int say_losses(struct cli *c, const struct preserve *p,
		      const char *path, const char *journal)
{
	static const char *const reads[] = { "", "zeros", "other data" };
	const struct preserve_loss *l;
	size_t i, n = preserve_losses(p, &l);
	uint64_t sum = 0;

	for (i = 0; i < n; i++) {
		struct wrap w;
		FILE *f = wrap_begin(&w, c->err, ERR_LEAD);

		sum += l[i].len_byte;
		fprintf(f, "flashbench: bytes %" PRIu64 "-%" PRIu64
			" of %s could not be restored: ", l[i].off_byte,
			l[i].off_byte + l[i].len_byte, path);
		if (l[i].kind == PRESERVE_ALIASED)
			fprintf(f, "they read back what was restored at bytes %" PRIu64 "-%" PRIu64 " (the card stores both at one place)\n",
				l[i].alias_byte, l[i].alias_byte + l[i].len_byte);
		else
			fprintf(f, "what was written there vanished (they read back %s)\n",
				reads[l[i].kind]);
		wrap_end(&w);
	}
	if (n)
		wrap_printf(c->err, ERR_LEAD,
			    "flashbench: %zu range%s of %s (%" PRIu64 " bytes) could not be restored: the card does not keep what is written there (a fake card? see --capacity); what was saved from them stays in %s\n",
			    n, n > 1 ? "s" : "", path, sum, journal);
	return n > 0;
}

/* Write back what --preserve saved; returns 0 or EXIT_DEVICE. */
int restore_saved(struct cli *c, const struct device *dev)
{
	char why[512] = "";
	int ret, lost;

	if (!c->run.saved)
		return 0;
	dev_set_stop_flag(NULL);	/* a stop must not stop the restore */
	ret = preserve_restore(c->run.saved, why, sizeof(why));
	lost = ret == -EIO &&
	       say_losses(c, c->run.saved, dev->path, c->run.journal_buf);
	preserve_free(c->run.saved);
	c->run.saved = NULL;
	if (lost) {
		c->run.restore_failed = 1;
		return EXIT_DEVICE;
	}
	if (ret) {
		c->run.restore_failed = 1;
		wrap_printf(c->err, ERR_LEAD,
			"flashbench: restoring %s failed: %s; the saved data stays in %s: run flashbench --restore=%s %s\n",
			dev->path, why[0] ? why : strerror(-ret), c->run.journal_buf,
			c->run.journal_buf, dev->path);
		return EXIT_DEVICE;
	}
	wrap_printf(c->err, ERR_LEAD,
		    "flashbench: --preserve: restored what the tests overwrote on %s\n",
		    dev->path);
	return 0;
}

/* --restore's failure: why, naming the journal once. */
static void restore_error(const struct cli *c, const char *why, int ret)
{
	if (why[0] && strstr(why, c->restore))
		wrap_printf(c->err, ERR_LEAD, "flashbench: %s\n", why);
	else
		wrap_printf(c->err, ERR_LEAD, "flashbench: --restore=%s: %s\n",
			    c->restore, why[0] ? why : strerror(-ret));
}

/*
 * Check the journal of --restore=JOURNAL against DEVICE before any output
 * is opened; returns 0 or EXIT_DEVICE.
 */
int load_restore(struct cli *c, struct device *dev)
{
	char why[512] = "";
	int ret;

	if (!c->restore)
		return 0;
	if (preserve_journal_unfinished(c->restore)) {
		c->run.restore_unfinished = 1;
		return 0;
	}
	ret = preserve_load_journal(&c->run.loaded, c->restore, dev, c->force,
				    why, sizeof(why));
	if (!ret)
		return 0;
	restore_error(c, why, ret);
	return EXIT_DEVICE;
}

/* --restore=JOURNAL DEVICE, checked; returns the exit status. */
int run_restore(struct cli *c, struct device *dev, FILE *res)
{
	char why[512] = "";
	int ret, lost;

	if (c->run.restore_unfinished) {
		ret = preserve_drop_unfinished(c->restore);
		wrap_printf(res, "  ", "nothing to restore on %s: %s was never completed (only %s.tmp exists), so the test had not started writing; %s %s.tmp\n",
			dev->path, c->restore, c->restore,
			ret ? "could not remove" : "removed", c->restore);
		return 0;
	}
	ret = preserve_restore(c->run.loaded, why, sizeof(why));
	lost = ret == -EIO &&
	       say_losses(c, c->run.loaded, dev->path, c->restore);
	preserve_free(c->run.loaded);
	c->run.loaded = NULL;
	if (lost)
		return EXIT_DEVICE;
	if (ret) {
		restore_error(c, why, ret);
		return EXIT_DEVICE;
	}
	/* a crash between naming the journal and removing JOURNAL.tmp */
	preserve_drop_unfinished(c->restore);
	fprintf(res, "restored %s from %s\n", dev->path, c->restore);
	return 0;
}
