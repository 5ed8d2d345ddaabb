// SPDX-License-Identifier: GPL-2.0-only
/*
 * Everything checked before any I/O: the command line on its own
 * (check_args), then against the device (its size, the block size, each
 * test's own checks, the writing tests' ranges).  What a test needs of
 * its own it checks itself (test.h's check op); here the rows are asked
 * in turn.  A bad value is one line naming it and EXIT_USAGE, found
 * before a single write.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "c.h"
#include "capacity.h"
#include "cli.h"
#include "format.h"
#include "options.h"
#include "status.h"
#include "wrap.h"

/*
 * Identify path.  A path that does not exist is known by the real path
 * of its directory and its last component (or as typed, if even the
 * directory cannot be resolved).
 */
void path_identify(const char *path, struct path_id *id)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX], real[PATH_MAX];

	id->exists = !stat(path, &id->st);
	if (id->exists)
		return;
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	if (realpath(dir, real))
		snprintf(id->canon, sizeof(id->canon), "%s/%s", real,
			 slash ? slash + 1 : path);
	else
		snprintf(id->canon, sizeof(id->canon), "%s", path);
}

/* Do a and b name one file (or one file still to be created)? */
int same_file(const struct path_id *a, const struct path_id *b)
{
	if (a->exists != b->exists)
		return 0;
	if (a->exists)
		return a->st.st_dev == b->st.st_dev &&
		       a->st.st_ino == b->st.st_ino;
	return !strcmp(a->canon, b->canon);
}

/* The paths of a command line, and which of them flashbench writes. */
struct named_path {
	const char *what;		/* "--out", "DEVICE" ... */
	const char *path;		/* as typed, or NULL */
	int written;			/* truncated or created by us */
};

/*
 * The paths flashbench writes must be files of their own: never a block
 * device (results written over a card, even the one under test), never
 * the same file as another path of the command line (two streams
 * interleaved, a journal or the device overwritten by results).
 * Returns 0 or EXIT_USAGE.
 */
static int check_paths(struct cli *c)
{
	const struct named_path p[] = {
		{ "--out", c->out_path, 1 },
		{ "--plot", c->plot_path && strcmp(c->plot_path, "-") ?
				    c->plot_path : NULL, 1 },
		{ "--journal", c->journal, 1 },
		{ "--restore", c->restore, 1 },	/* removed once restored */
		{ "DEVICE", c->device, 0 },
	};
	struct path_id id[ARRAY_SIZE(p)];
	size_t i, k;

	for (i = 0; i < ARRAY_SIZE(p); i++) {
		if (!p[i].path)
			continue;
		path_identify(p[i].path, &id[i]);
		if (i < 2 && id[i].exists && S_ISBLK(id[i].st.st_mode))
			return usage_error(c->err,
					   "invalid %s '%s': a block device; results go to a file (or '-')",
					   p[i].what, p[i].path);
		if (i == 3 && id[i].exists && !S_ISREG(id[i].st.st_mode))
			return usage_error(c->err,
					   "invalid --restore '%s': not a regular file, so not a journal",
					   p[i].path);
		for (k = 0; k < i; k++)
			if (p[k].path && (p[i].written || p[k].written) &&
			    same_file(&id[k], &id[i]))
				return usage_error(c->err,
						   "%s '%s' and %s '%s' name the same file",
						   p[k].what, p[k].path,
						   p[i].what, p[i].path);
	}
	return 0;
}

/*
 * Nonzero if DEVICE looks like the SPEC of "--simulate erase=8M", where
 * the '=' was forgotten: key=value and no such file.
 */
static int spec_hint(const struct cli *c)
{
	struct stat st;

	return !c->sim_spec && strchr(c->device, '=') &&
	       stat(c->device, &st) != 0;
}

/* ---- the tests' own checks (test.h) ---- */

/* The value option of that long name ("offset"), or V_NR. */
static enum cli_value value_named(const char *name)
{
	enum cli_value v;

	for (v = 0; v < V_NR; v++)
		if (!strcmp(opt_value_row(v)->name, name))
			break;
	return v;
}

/* test_check's given: as typed, or NULL when not given. */
static const char *given_of(const void *ctx, const char *name)
{
	const struct cli *c = ctx;
	enum cli_value v = value_named(name);

	return v < V_NR ? c->arg[v] : NULL;
}

/* test_check's text: as typed, or the default as a number. */
static const char *text_of(const void *ctx, const char *name)
{
	const struct cli *c = ctx;
	enum cli_value v = value_named(name);

	return v < V_NR ? c->text[v] : "";
}

/*
 * Ask test t's check at stage at (dev NULL: the command line alone);
 * what it refuses is one line.  Returns 0 or EXIT_USAGE.
 */
static int check_test(struct cli *c, const struct device *dev,
		      const struct test *t, enum test_check_at at)
{
	char why[512] = "";
	struct test_check k = {
		.o = &c->o, .dev = dev, .dev_byte = c->run.dev_byte,
		.given = given_of, .text = text_of, .ctx = c,
		.why = why, .why_len = sizeof(why),
	};

	if (!t->check || !t->check(t, &k, at))
		return 0;
	return usage_error(c->err, "%s", why);
}

/* Every test asked for, checked at stage at; 0 or EXIT_USAGE. */
static int check_tests(struct cli *c, const struct device *dev,
		       enum test_check_at at)
{
	size_t i;

	for (i = 0; i < test_table_nr; i++)
		if ((c->tests & test_table[i]->test) &&
		    check_test(c, dev, test_table[i], at))
			return EXIT_USAGE;
	return 0;
}

/* --registers runs on its own.  Returns 0 or EXIT_USAGE. */
static int check_registers(struct cli *c, int others)
{
	if (others || c->tests || c->simulate || c->destructive ||
	    c->preserve || c->plot_path)
		return usage_error(c->err,
				   "--registers decodes register files on its own, without tests, --simulate, --plot or --preserve");
	if (c->device)
		return usage_error(c->err,
				   "--registers decodes register files: DEVICE '%s' is not used",
				   c->device);
	return 0;
}

/* --survey reads records alone: FILE... and one format. */
static int check_survey(struct cli *c)
{
	if (c->tests || c->analyze_path || c->registers_dir ||
	    c->restore || c->simulate || c->destructive || c->preserve ||
	    c->plot_path || c->force)
		return usage_error(c->err,
				   "--survey reads records on its own, without tests, --auto, --analyze, --simulate, --plot or --preserve");
	if (!c->files_nr)
		return usage_error(c->err,
				   "--survey needs FILE... (records written by --json, or directories of them)");
	if (c->csv + c->markdown + c->json > 1)
		return usage_error(c->err,
				   "--csv, --markdown and --json exclude each other");
	return check_paths(c);
}

/*
 * The tests that write, in --help's order, as a refusal names them
 * ("-O, -f, -p, -C, -L or --auto --destructive") into buf: each by its
 * short option, one that writes only under --destructive by its option
 * and that; destructive: only the latter, by their option alone.
 */
static void writing_tests(char *buf, size_t len, int destructive)
{
	char name[TESTS_MAX][32];
	size_t i, n = 0, at = 0;

	for (i = 0; i < opt_rows_nr && n < TESTS_MAX; i++) {
		const struct opt_row *r = &opt_rows[i];
		const struct test *t = r->kind == OPT_MODE && !r->alias ?
				       test_of(r->mode) : NULL;

		if (t && t->writes_destructive)
			snprintf(name[n++], sizeof(name[0]), "%s%s", t->option,
				 destructive ? "" : " --destructive");
		else if (t && t->writes && !destructive)
			snprintf(name[n++], sizeof(name[0]), "-%c",
				 t->short_option);
	}
	buf[0] = '\0';
	for (i = 0; i < n && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s",
				       !i ? "" : i + 1 < n ? ", " : " or ",
				       name[i]);
}

/*
 * Check what needs no device: DEVICE given (once), a test asked for, the
 * erase size against the block size, the -O offset against the erase
 * size.  Returns 0 or EXIT_USAGE.
 */
int check_args(struct cli *c)
{
	const struct test *one = test_of(c->tests), *timed = tests_timing();
	unsigned int alone = tests_alone(c->tests);
	int runs_alone = !!alone + !!c->analyze_path + !!c->restore;
	enum cli_value v;
	char writing[128];

	if (c->survey)
		return check_survey(c);
	if (c->csv || c->markdown)
		return usage_error(c->err,
				   "--%s formats --survey's table: it needs --survey",
				   c->csv ? "csv" : "markdown");
	if (c->registers_dir)
		return check_registers(c, runs_alone);
	if (runs_alone > 1)
		return usage_error(c->err,
				   "--auto, --analyze and --restore exclude each other");
	if (runs_alone && (c->tests & ~tests_alone(c->tests)))
		return usage_error(c->err,
				   "%s runs on its own, without test options such as -a",
				   alone ? test_of(alone)->option :
				   c->restore ? "--restore" : "--analyze");
	if (c->preserve && !tests_writing(c->tests) &&
	    !(c->destructive && tests_destructive(c->tests))) {
		writing_tests(writing, sizeof(writing), 0);
		return usage_error(c->err, "--%s needs a writing test (%s)",
				   c->journal ? "journal" : "preserve",
				   writing);
	}
	if (c->destructive && !tests_destructive(c->tests)) {
		writing_tests(writing, sizeof(writing), 1);
		return usage_error(c->err, "--destructive needs %s", writing);
	}
	if (c->time_ops && (!timed || c->tests != timed->test))
		return usage_error(c->err,
				   "--time-ops times %s alone: give -%c and no other test",
				   timed ? timed->option : "a test",
				   timed ? timed->short_option : '?');
	if (c->hide_serial && !c->json)
		return usage_error(c->err,
				   "--hide-serial goes with --json (the record is what keeps the serial number)");
	if (c->force && !c->restore)
		return usage_error(c->err,
				   "--force goes with --restore (it restores unchecked)");
	if (c->json && (c->tests & (c->tests - 1)))
		return usage_error(c->err,
				   "--json takes one test at a time");
	if (c->plot_path && (c->tests & (c->tests - 1)))
		return usage_error(c->err,
				   "--plot takes one test at a time");
	if (c->plot_path && one && one->no_plot)
		return usage_error(c->err, "--plot %s", one->no_plot);
	if (c->plot_path && c->restore)
		return usage_error(c->err, "--plot draws tests, not --restore");
	if (c->json && c->restore)
		return usage_error(c->err, "--json reports tests, not --restore");
	if (c->plot_path && !strcmp(c->plot_path, "-") && !c->out_path)
		return usage_error(c->err,
				   "--plot=- draws on standard output, where the results go: send them to a file with -o FILE");
	if (c->analyze_path && c->device)
		return usage_error(c->err,
				   "--analyze reads saved tables: DEVICE '%s' is not used",
				   c->device);
	if (c->analyze_path && c->simulate)
		return usage_error(c->err,
				   "--analyze and --simulate exclude each other");
	if (check_paths(c))
		return EXIT_USAGE;
	if (c->analyze_path)
		return 0;
	if (c->simulate && c->device && spec_hint(c))
		return usage_error(c->err,
				   "--simulate and DEVICE '%s' exclude each other; for a simulated card of that SPEC write --simulate=%s",
				   c->device, c->device);
	if (c->simulate && c->device)
		return usage_error(c->err,
				   "--simulate and DEVICE '%s' exclude each other",
				   c->device);
	if (!c->simulate && !c->device)
		return usage_error_help(c->err, "missing DEVICE");
	if (!c->tests && !c->restore)
		return usage_error(c->err,
				   "need at least one test: --auto finds the erase and page size by itself (read-only), -a is the classic align test; --help lists them all");
	/* -O starts past the FAT area: the table's default, on the AU grid */
	if (!c->arg[V_OFFSET])
		c->o.offset_byte = test_round_up(opt_value_row(V_OFFSET)->def,
						 c->o.erasesize_byte);
	/* messages quote values as typed, defaults as numbers */
	for (v = 0; v < V_NR; v++) {
		snprintf(c->num[v], sizeof(c->num[v]), "%" PRIu64,
			 opt_get_value(c, v));
		c->text[v] = c->arg[v] ? c->arg[v] : c->num[v];
	}
	if ((c->tests & opt_value_row(V_ERASESIZE)->users &
	     opt_value_row(V_BLOCKSIZE)->users) &&
	    c->o.erasesize_byte / 2 < c->o.blocksize_byte)
		return usage_error(c->err,
				   "invalid --erasesize '%s': must be at least twice --blocksize (%s)",
				   c->text[V_ERASESIZE], c->text[V_BLOCKSIZE]);
	return check_tests(c, NULL, TEST_CHECK_LINE);
}

/*
 * "DEVICE (N bytes)" for messages about the end of the device, with
 * c->run.dev_byte: a file's own size, not the whole blocks the tests can use.
 */
#define DEV_FMT TEST_DEV_FMT

/*
 * Check what each test asked for needs of the device, before any plan;
 * returns 0 or EXIT_USAGE.
 */
int check_tests_device(struct cli *c, const struct device *dev)
{
	return check_tests(c, dev, TEST_CHECK_DEVICE);
}

/*
 * Ask writing test t which ranges it overwrites: first how many (ranges
 * NULL), then the ranges.  Returns 0, EXIT_USAGE when the test would
 * reach past the end, or EXIT_DEVICE.
 */
static int plan_one(struct cli *c, const struct device *dev,
		    const struct test *m, struct write_plan *plan)
{
	enum bench_test t = m->test;
	int n;

	n = m->plan(t, &c->o, dev->size_byte, NULL, 0);
	if (n > 0) {
		plan->ranges = calloc((size_t)n, sizeof(*plan->ranges));
		if (!plan->ranges)
			n = -ENOMEM;
		else
			n = m->plan(t, &c->o, dev->size_byte,
				    plan->ranges, (size_t)n);
	}
	if (n == -EINVAL && check_test(c, dev, m, TEST_CHECK_PAST_END))
		return EXIT_USAGE;
	if (n == -EINVAL)
		return usage_error(c->err,
				   "%s reaches past the end of " DEV_FMT,
				   m->option, dev->path, c->run.dev_byte);
	if (n < 0) {
		fprintf(c->err, "flashbench: %s: cannot plan the writes: %s\n",
			m->option, strerror(-n));
		return EXIT_DEVICE;
	}
	plan->n = (size_t)n;
	return 0;
}

/*
 * Check the writing tests against the device and fill plan[] (indexed
 * like the table of tests) with the ranges each will overwrite.  Returns 0,
 * EXIT_USAGE or EXIT_DEVICE.
 */
int plan_writes(struct cli *c, const struct device *dev,
		struct write_plan plan[TESTS_MAX])
{
	size_t k;
	int ret;

	for (k = 0; k < test_table_nr; k++) {
		const struct test *t = test_table[k];

		if (!t->writes || !(c->tests & t->test))
			continue;
		ret = plan_one(c, dev, t, &plan[k]);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Everything about the block size that holds for every test using it:
 * a multiple of the logical block size and not larger than the device.
 */
int check_blocksize(struct cli *c, const struct device *dev)
{
	const char *bs = c->text[V_BLOCKSIZE];

	if (!(c->tests & opt_value_row(V_BLOCKSIZE)->users))
		return 0;
	if (c->o.blocksize_byte % dev->logical_block_size)
		return usage_error(c->err,
				   "invalid --blocksize '%s': not a multiple of the logical block size (%u) of %s",
				   bs, dev->logical_block_size, dev->path);
	if (c->o.blocksize_byte > dev->size_byte && c->arg[V_BLOCKSIZE])
		return usage_error(c->err,
				   "invalid --blocksize '%s': larger than " DEV_FMT,
				   bs, dev->path, c->run.dev_byte);
	if (c->o.blocksize_byte > dev->size_byte) {
		char size[FMT_LEN];

		return usage_error(c->err,
				   DEV_FMT " is smaller than one block of the default --blocksize (%s); give a smaller -b",
				   dev->path, c->run.dev_byte,
				   fmt_size(size, c->o.blocksize_byte));
	}
	return 0;
}

/*
 * What holds for any test and for --auto: the device has at least one
 * whole logical block, and --auto's first align table fits.
 */
int check_size(struct cli *c, const struct device *dev)
{
	if (!c->tests)
		return 0;
	if (!c->run.dev_byte)
		return usage_error(c->err, "%s is empty", dev->path);
	if (dev->size_byte < dev->logical_block_size)
		return usage_error(c->err,
				   DEV_FMT " is smaller than one %u-byte block",
				   dev->path, c->run.dev_byte,
				   dev->logical_block_size);
	if ((tests_using(c->tests, c->destructive) &
	     opt_value_row(V_FLUSH)->users) &&
	    c->o.flush_byte > capacity_flush_most(dev->size_byte)) {
		char most[FMT_LEN];

		return usage_error(c->err,
				   "invalid --flush '%s': more than a quarter of " DEV_FMT ", %s",
				   c->text[V_FLUSH], dev->path, c->run.dev_byte,
				   fmt_size(most,
					    capacity_flush_most(dev->size_byte)));
	}
	return 0;
}

/* ---- options a test does not use ---- */

/* "flashbench: OPTION ignored: only --x and --y use it" (under -v). */
static void note_ignored(const struct cli *c, const char *option,
			 unsigned int users)
{
	size_t i, k = 0, n = 0;
	struct wrap w;
	FILE *out;

	for (i = 0; i < test_table_nr; i++)
		n += !!(users & test_table[i]->test);
	out = wrap_begin(&w, c->err, "flashbench:   ");
	fprintf(out, "flashbench: %s ignored: only ", option);
	for (i = 0; i < test_table_nr; i++) {
		if (!(users & test_table[i]->test))
			continue;
		k++;
		fprintf(out, "%s%s", test_table[i]->option,
			k == n ? "" : k + 1 == n ? " and " : ", ");
	}
	fprintf(out, " use%s it\n", n == 1 ? "s" : "");
	wrap_end(&w);
}

void note_unused(const struct cli *c)
{
	unsigned int using = tests_using(c->tests, c->destructive);
	char option[64];
	enum cli_value v;
	size_t i;

	if (!c->o.verbose)
		return;
	for (v = 0; v < V_NR; v++) {
		const struct opt_row *r = opt_value_row(v);

		if (!c->arg[v] || !r->users || (using & r->users))
			continue;
		snprintf(option, sizeof(option), "--%s=%.40s", r->name,
			 c->arg[v]);
		note_ignored(c, option, r->users);
	}
	/* then the flags: -r */
	for (i = 0; i < opt_rows_nr; i++) {
		const struct opt_row *r = &opt_rows[i];

		if (r->kind == OPT_FLAG && r->users && !(using & r->users) &&
		    *(const int *)((const char *)c + r->field)) {
			snprintf(option, sizeof(option), "--%s", r->name);
			note_ignored(c, option, r->users);
		}
	}
}
