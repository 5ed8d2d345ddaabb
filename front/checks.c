// SPDX-License-Identifier: GPL-2.0-only
/*
 * Everything checked before any I/O: the command line on its own
 * (check_args), then against the device (its size, the block size, the
 * read tests' reach, the writing tests' ranges).  A bad value is one
 * line naming it and EXIT_USAGE, found before a single write.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "c.h"
#include "capacity.h"
#include "class.h"
#include "cli.h"
#include "format.h"
#include "layout.h"
#include "options.h"
#include "status.h"
#include "progs.h"

/* The smallest block size, and the first size -i reads. */
#define MIN_IO_BYTE		512ULL

/* Round x up to a multiple of m (m > 0); saturates instead of wrapping. */
static uint64_t round_up(uint64_t x, uint64_t m)
{
	uint64_t r = x % m;

	if (!r)
		return x;
	return x > UINT64_MAX - (m - r) ? UINT64_MAX : x + (m - r);
}

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

/* v as --offset takes it: "12M", "4G", or plain bytes. */
static char *offset_text(char *buf, size_t len, uint64_t v)
{
	static const char units[] = "GMK";
	unsigned int i;

	for (i = 0; i < 3; i++) {
		unsigned int shift = 30 - 10 * i;

		if (v && !(v & ((1ULL << shift) - 1))) {
			snprintf(buf, len, "%" PRIu64 "%c", v >> shift,
				 units[i]);
			return buf;
		}
	}
	snprintf(buf, len, "%" PRIu64, v);
	return buf;
}

/*
 * -O writes whole AUs from --offset: an offset off the AU grid makes every
 * write straddle two AUs, which measures something else.  Refused rather
 * than rounded, so the offset the user reads back is the one used.
 */
static int check_offset(struct cli *c)
{
	const uint64_t es = c->o.erasesize_byte, off = c->o.offset_byte;
	char size[FMT_LEN], down[FMT_LEN], up[FMT_LEN];

	if (!(c->tests & BENCH_OPEN_AU) || !(off % es))
		return 0;
	offset_text(down, sizeof(down), off - off % es);
	if (round_up(off, es) == UINT64_MAX)
		return usage_error(c->err,
				   "invalid --offset '%s': not a multiple of the erase size (%s), so each write would straddle two AUs; nearest valid offset: %s",
				   c->text[V_OFFSET], fmt_size(size, es), down);
	return usage_error(c->err,
			   "invalid --offset '%s': not a multiple of the erase size (%s), so each write would straddle two AUs; nearest valid offsets: %s and %s",
			   c->text[V_OFFSET], fmt_size(size, es), down,
			   offset_text(up, sizeof(up), round_up(off, es)));
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
	if (c->tests || c->autorun || c->analyze_path || c->registers_dir ||
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
 * Check what needs no device: DEVICE given (once), a test asked for, the
 * erase size against the block size, the -O offset against the erase
 * size.  Returns 0 or EXIT_USAGE.
 */
int check_args(struct cli *c)
{
	enum cli_value v;
	int runs_alone = c->autorun + !!c->analyze_path + !!c->restore;

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
	if (runs_alone && c->tests)
		return usage_error(c->err,
				   "--%s runs on its own, without test options such as -a",
				   c->autorun ? "auto" : c->restore ? "restore" :
				   "analyze");
	if (c->preserve && !tests_writing(c->tests) &&
	    !(c->autorun && c->destructive))
		return usage_error(c->err,
				   "--%s needs a writing test (-O, -f, -p, -C, -L or --auto --destructive)",
				   c->journal ? "journal" : "preserve");
	if (c->destructive && !c->autorun)
		return usage_error(c->err, "--destructive needs --auto");
	if (c->time_ops && c->tests != BENCH_CAPACITY)
		return usage_error(c->err,
				   "--time-ops times --capacity alone: give -C and no other test");
	if (c->force && !c->restore)
		return usage_error(c->err,
				   "--force goes with --restore (it restores unchecked)");
	if (c->json && (c->tests & (c->tests - 1)))
		return usage_error(c->err,
				   "--json takes one test at a time");
	if (c->plot_path && (c->tests & (c->tests - 1)))
		return usage_error(c->err,
				   "--plot takes one test at a time");
	if (c->plot_path && (c->tests & BENCH_CLASS))
		return usage_error(c->err, "--plot does not draw --class");
	if (c->plot_path && c->restore)
		return usage_error(c->err, "--plot draws tests, not --restore");
	if (c->plot_path && (c->tests & BENCH_CAPACITY))
		return usage_error(c->err,
				   "--plot draws timings; --capacity has none to draw");
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
		return usage_error(c->err, "missing DEVICE");
	if (!c->tests && !c->autorun && !c->restore)
		return usage_error(c->err,
				   "need at least one test: --auto finds the erase and page size by itself (read-only), -a is the classic align test; --help lists them all");
	/* -O starts past the FAT area: the table's default, on the AU grid */
	if (!c->arg[V_OFFSET])
		c->o.offset_byte = round_up(opt_value_row(V_OFFSET)->def,
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
	return check_offset(c);
}

/*
 * "DEVICE (N bytes)" for messages about the end of the device, with
 * c->run.dev_byte: a file's own size, not the whole blocks the tests can use.
 */
#define DEV_FMT "%s (%" PRIu64 " bytes)"

/* Check the read tests against the device; returns 0 or EXIT_USAGE. */
int check_read_tests(struct cli *c, const struct device *dev)
{
	const struct bench_opts *o = &c->o;
	const char *bs = c->text[V_BLOCKSIZE];

	if ((c->tests & BENCH_ALIGN) &&
	    (o->blocksize_byte / 2) % dev->logical_block_size)
		return usage_error(c->err,
				   "invalid --blocksize '%s': --align needs at least %u, twice the logical block size of %s (it reads at half-block offsets)",
				   bs, 2 * dev->logical_block_size, dev->path);
	/* the smallest maxalign is two blocks: 7 * 2 + 1 blocks */
	if ((c->tests & BENCH_ALIGN) &&
	    align_max(dev->size_byte, o->blocksize_byte) <
		    2 * o->blocksize_byte) {
		char size[FMT_LEN];

		if (c->arg[V_BLOCKSIZE])
			return usage_error(c->err,
					   "invalid --blocksize '%s': --align needs 15 blocks, more than " DEV_FMT,
					   bs, dev->path, c->run.dev_byte);
		return usage_error(c->err,
				   "--align needs 15 blocks of the default --blocksize (%s), more than " DEV_FMT "; give a smaller -b",
				   fmt_size(size, o->blocksize_byte),
				   dev->path, c->run.dev_byte);
	}
	/* how far a read test reaches: its program's extent */
	if ((c->tests & BENCH_SCATTER) &&
	    progs_extent(&scatter_prog, o, dev) > dev->size_byte)
		return usage_error(c->err,
				   "--scatter-order=%s --scatter-span=%s --blocksize=%s reach past the end of " DEV_FMT,
				   c->text[V_SCATTER_ORDER],
				   c->text[V_SCATTER_SPAN], bs, dev->path,
				   c->run.dev_byte);
	if ((c->tests & BENCH_INTERVAL) &&
	    interval_first_len(dev->logical_block_size) >
		    MIN_IO_BYTE << (o->interval_order - 1))
		return usage_error(c->err,
				   "invalid --interval-order '%s': its largest read is smaller than the %u-byte logical blocks of %s",
				   c->text[V_INTERVAL_ORDER],
				   dev->logical_block_size, dev->path);
	if ((c->tests & BENCH_INTERVAL) &&
	    progs_extent(&interval_prog, o, dev) > dev->size_byte)
		return usage_error(c->err,
				   "--interval-order=%s --count=%s reach past the end of " DEV_FMT,
				   c->text[V_INTERVAL_ORDER], c->text[V_COUNT],
				   dev->path, c->run.dev_byte);
	return 0;
}

/*
 * Where test t would write on a device of any size, for messages: how
 * many erase sizes apart its AUs start (0: one range) and the end of the
 * last range.  Returns 0, or -EINVAL when that overflows 64 bits.
 */
static int write_footprint(const struct cli *c, enum bench_test t,
			   uint64_t *spacing_au, uint64_t *end_byte)
{
	const struct test *m = test_of(t);
	struct bench_range *r;
	int n;

	if (!m || !m->prog)	/* the modes run as VM programs only */
		return -EINVAL;
	n = m->plan(t, &c->o, UINT64_MAX, NULL, 0);
	if (n <= 0)
		return -EINVAL;
	r = calloc((size_t)n, sizeof(*r));
	if (!r || m->plan(t, &c->o, UINT64_MAX, r, (size_t)n) != n) {
		free(r);
		return -EINVAL;
	}
	*spacing_au = n < 2 ? 0 : (r[1].start_byte - r[0].start_byte) /
				  c->o.erasesize_byte;
	*end_byte = r[n - 1].end_byte;
	free(r);
	return 0;
}

/* -L reaching past the end: its units, its random I/O and its end. */
static int class_past_end(struct cli *c, const struct device *dev)
{
	char unit[FMT_LEN], span[FMT_LEN];
	struct class_plan p;

	class_plan(&p, &c->o, c->run.card.au_byte);
	return usage_error(c->err,
			   "--class with --offset=%s writes %u units of %s and %s of random I/O, up to byte %" PRIu64 ", past the end of " DEV_FMT,
			   c->text[V_OFFSET], p.units,
			   fmt_size(unit, p.unit_byte),
			   fmt_size(span, p.span_byte),
			   p.offset_byte + p.units * p.unit_byte + p.span_byte,
			   dev->path, c->run.dev_byte);
}

/*
 * A writing test reaching past the end, told in terms of its options and
 * the byte it would reach: -O spaces its AUs apart, so its footprint is
 * far larger than --open-au-nr erase blocks.
 */
static int write_past_end(struct cli *c, enum bench_test test,
			  const struct device *dev)
{
	const char *es = c->text[V_ERASESIZE];
	uint64_t spacing = 0, end = 0;
	char reach[160] = "reaches past the end";

	if (!write_footprint(c, test, &spacing, &end) && spacing)
		snprintf(reach, sizeof(reach),
			 "writes %s AUs spaced %" PRIu64 " AUs apart, up to byte %" PRIu64 ", past the end",
			 c->text[V_OPEN_AU_NR], spacing, end);
	else if (end)
		snprintf(reach, sizeof(reach),
			 "writes up to byte %" PRIu64 ", past the end", end);
	if (test == BENCH_OPEN_AU)
		return usage_error(c->err,
				   "--open-au with --offset=%s --open-au-nr=%s --erasesize=%s %s of " DEV_FMT,
				   c->text[V_OFFSET], c->text[V_OPEN_AU_NR], es,
				   reach, dev->path, c->run.dev_byte);
	if (test == BENCH_FIND_FAT)
		return usage_error(c->err,
				   "--find-fat with --fat-nr=%s --erasesize=%s %s of " DEV_FMT,
				   c->text[V_FAT_NR], es, reach, dev->path,
				   c->run.dev_byte);
	if (test == BENCH_CAPACITY)
		return usage_error(c->err,
				   "--capacity needs at least 16MiB, more than " DEV_FMT,
				   dev->path, c->run.dev_byte);
	if (test == BENCH_CLASS)
		return class_past_end(c, dev);
	return usage_error(c->err,
			   "--program needs the first 20MiB, more than " DEV_FMT,
			   dev->path, c->run.dev_byte);
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
	if (n == -EINVAL)
		return write_past_end(c, t, dev);
	if (n < 0) {
		fprintf(c->err, "flashbench: %s: cannot plan the writes: %s\n",
			m->option, strerror(-n));
		return EXIT_DEVICE;
	}
	plan->n = (size_t)n;
	return 0;
}

/*
 * -L writes units of the AU the card states (else --erasesize), at most
 * 4 MiB, from --offset: an offset off that grid is refused as -O refuses
 * one off the AU grid, rather than rounded up unsaid.  Under -v, says
 * when the card's AU overrides --erasesize.  Returns 0 or EXIT_USAGE.
 */
static int check_class_offset(struct cli *c)
{
	char unit[FMT_LEN], down[FMT_LEN], up[FMT_LEN];
	uint64_t off = c->o.offset_byte;
	struct class_plan p;

	if (!(c->tests & BENCH_CLASS))
		return 0;
	class_plan(&p, &c->o, c->run.card.au_byte);
	if (c->o.verbose && c->run.card.au_byte && c->arg[V_ERASESIZE])
		fprintf(c->err,
			"flashbench: --class writes units of the AU the card states (%s), not of --erasesize=%s\n",
			fmt_size(unit, c->run.card.au_byte),
			c->text[V_ERASESIZE]);
	if (!c->arg[V_OFFSET] || !(off % p.unit_byte))
		return 0;
	offset_text(down, sizeof(down), off - off % p.unit_byte);
	offset_text(up, sizeof(up), round_up(off, p.unit_byte));
	return usage_error(c->err,
			   "invalid --offset '%s': --class writes units of %s, and it is not a multiple of them; nearest valid offsets: %s and %s",
			   c->text[V_OFFSET], fmt_size(unit, p.unit_byte),
			   down, up);
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

	if ((c->tests & BENCH_OPEN_AU) &&
	    c->o.offset_byte % dev->logical_block_size)
		return usage_error(c->err,
				   "invalid --offset '%s': not a multiple of the logical block size (%u) of %s",
				   c->text[V_OFFSET], dev->logical_block_size,
				   dev->path);
	if (check_class_offset(c))
		return EXIT_USAGE;
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

	if (!(c->tests & (BENCH_ALIGN | BENCH_SCATTER | BENCH_OPEN_AU |
			  BENCH_FIND_FAT)))
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
	uint64_t min;

	if (!c->tests && !c->autorun)
		return 0;
	if (!c->run.dev_byte)
		return usage_error(c->err, "%s is empty", dev->path);
	if (dev->size_byte < dev->logical_block_size)
		return usage_error(c->err,
				   DEV_FMT " is smaller than one %u-byte block",
				   dev->path, c->run.dev_byte,
				   dev->logical_block_size);
	min = auto_min_size(dev->logical_block_size);
	if (c->autorun && dev->size_byte < min) {
		char size[FMT_LEN];

		return usage_error(c->err,
				   "--auto needs at least %s (%" PRIu64 " bytes), more than " DEV_FMT,
				   fmt_size(size, min), min, dev->path,
				   c->run.dev_byte);
	}
	if (((c->tests & BENCH_CAPACITY) || (c->autorun && c->destructive)) &&
	    c->o.flush_byte > capacity_flush_most(dev->size_byte)) {
		char most[FMT_LEN];

		return usage_error(c->err,
				   "--flush=%s: at most a quarter of " DEV_FMT ", %s",
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

	for (i = 0; i < test_table_nr; i++)
		n += !!(users & test_table[i]->test);
	fprintf(c->err, "flashbench: %s ignored: only ", option);
	for (i = 0; i < test_table_nr; i++) {
		if (!(users & test_table[i]->test))
			continue;
		k++;
		fprintf(c->err, "%s%s", test_table[i]->option,
			k == n ? "" : k + 1 == n ? " and " : ", ");
	}
	fprintf(c->err, " use%s it\n", n == 1 ? "s" : "");
}

void note_unused(const struct cli *c)
{
	char option[64];
	enum cli_value v;
	size_t i;

	if (!c->o.verbose)
		return;
	for (v = 0; v < V_NR; v++) {
		const struct opt_row *r = opt_value_row(v);

		if (!c->arg[v] || !r->users || (c->tests & r->users))
			continue;
		/* --auto --destructive runs the capacity check */
		if (v == V_FLUSH && c->autorun && c->destructive)
			continue;
		snprintf(option, sizeof(option), "--%s=%.40s", r->name,
			 c->arg[v]);
		note_ignored(c, option, r->users);
	}
	/* then the flags: -r */
	for (i = 0; i < opt_rows_nr; i++) {
		const struct opt_row *r = &opt_rows[i];

		if (r->kind == OPT_FLAG && r->users &&
		    !(c->tests & r->users) &&
		    *(const int *)((const char *)c + r->field)) {
			snprintf(option, sizeof(option), "--%s", r->name);
			note_ignored(c, option, r->users);
		}
	}
}
