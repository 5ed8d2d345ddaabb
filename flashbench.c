// SPDX-License-Identifier: GPL-2.0-only
/*
 * flashbench - identify characteristics of flash media.
 *
 * The front end: parse the command line (by the table of options,
 * front/options.c), check every value before any I/O (a typo must never
 * cost a card a write cycle, let alone its data), open the device, check
 * what depends on its size, then run the tests in the classic order.
 * Only the front end (this file and front/) prints errors and chooses
 * exit codes.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "auto.h"
#include "bench.h"
#include "blockdev.h"
#include "class.h"
#include "dev.h"
#include "flashbench.h"
#include "format.h"
#include "cli.h"
#include "modes.h"
#include "options.h"
#include "progs.h"
#include "preserve.h"
#include "progress.h"
#include "quiet.h"
#include "sim.h"

/* Where the open-AU test starts by default: past the FAT area. */
#define DEFAULT_OFFSET_BYTE	(16ULL << 20)

/* The smallest block size, and the first size -i reads. */
#define MIN_IO_BYTE		512ULL

unsigned int flashbench_dev_opens;
uint64_t flashbench_io_calls;
struct device *(*flashbench_open_hook)(struct device *dev);
uint64_t (*flashbench_progress_clock)(void);

volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig)
{
	stop_signal = sig;
}

int usage_error(FILE *err, const char *fmt, ...)
{
	va_list ap;

	fputs("flashbench: ", err);
	va_start(ap, fmt);
	vfprintf(err, fmt, ap);
	va_end(ap);
	fputc('\n', err);
	return EXIT_USAGE;
}

/* Round x up to a multiple of m (m > 0); saturates instead of wrapping. */
static uint64_t round_up(uint64_t x, uint64_t m)
{
	uint64_t r = x % m;

	if (!r)
		return x;
	return x > UINT64_MAX - (m - r) ? UINT64_MAX : x + (m - r);
}

/* ---- paths ---- */

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
	struct path_id id[sizeof(p) / sizeof(p[0])];
	size_t i, k;

	for (i = 0; i < sizeof(p) / sizeof(p[0]); i++) {
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

/*
 * Check what needs no device: DEVICE given (once), a test asked for, the
 * erase size against the block size, the -O offset against the erase
 * size.  Returns 0 or EXIT_USAGE.
 */
static int check_args(struct cli *c)
{
	enum cli_value v;
	int runs_alone = c->autorun + !!c->analyze_path + !!c->restore;

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
	if (c->preserve && !(c->tests & BENCH_WRITING) &&
	    !(c->autorun && c->destructive))
		return usage_error(c->err,
				   "--%s needs a writing test (-O, -f, -p or --auto --destructive)",
				   c->journal ? "journal" : "preserve");
	if (c->destructive && !c->autorun)
		return usage_error(c->err, "--destructive needs --auto");
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
	if (!c->arg[V_OFFSET])
		c->o.offset_byte = round_up(DEFAULT_OFFSET_BYTE,
					    c->o.erasesize_byte);
	/* messages quote values as typed, defaults as numbers */
	for (v = 0; v < V_NR; v++) {
		snprintf(c->num[v], sizeof(c->num[v]), "%" PRIu64,
			 opt_get_value(c, v));
		c->text[v] = c->arg[v] ? c->arg[v] : c->num[v];
	}
	if ((c->tests & opt_value_row(V_ERASESIZE)->users) &&
	    c->o.erasesize_byte / 2 < c->o.blocksize_byte)
		return usage_error(c->err,
				   "invalid --erasesize '%s': must be at least twice --blocksize (%s)",
				   c->text[V_ERASESIZE], c->text[V_BLOCKSIZE]);
	return check_offset(c);
}

/*
 * "DEVICE (N bytes)" for messages about the end of the device, with
 * c->dev_byte: a file's own size, not the whole blocks the tests can use.
 */
#define DEV_FMT "%s (%" PRIu64 " bytes)"

/* Check the read tests against the device; returns 0 or EXIT_USAGE. */
static int check_read_tests(struct cli *c, const struct device *dev)
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
					   bs, dev->path, c->dev_byte);
		return usage_error(c->err,
				   "--align needs 15 blocks of the default --blocksize (%s), more than " DEV_FMT "; give a smaller -b",
				   fmt_size(size, o->blocksize_byte),
				   dev->path, c->dev_byte);
	}
	/* how far a read test reaches: its program's extent */
	if ((c->tests & BENCH_SCATTER) &&
	    progs_extent(BENCH_SCATTER, o, dev) > dev->size_byte)
		return usage_error(c->err,
				   "--scatter-order=%s --scatter-span=%s --blocksize=%s reach past the end of " DEV_FMT,
				   c->text[V_SCATTER_ORDER],
				   c->text[V_SCATTER_SPAN], bs, dev->path,
				   c->dev_byte);
	if ((c->tests & BENCH_INTERVAL) &&
	    interval_first_len(dev->logical_block_size) >
		    MIN_IO_BYTE << (o->interval_order - 1))
		return usage_error(c->err,
				   "invalid --interval-order '%s': its largest read is smaller than the %u-byte logical blocks of %s",
				   c->text[V_INTERVAL_ORDER],
				   dev->logical_block_size, dev->path);
	if ((c->tests & BENCH_INTERVAL) &&
	    progs_extent(BENCH_INTERVAL, o, dev) > dev->size_byte)
		return usage_error(c->err,
				   "--interval-order=%s --count=%s reach past the end of " DEV_FMT,
				   c->text[V_INTERVAL_ORDER], c->text[V_COUNT],
				   dev->path, c->dev_byte);
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
	struct bench_range *r;
	int n = bench_write_ranges(t, &c->o, UINT64_MAX, NULL, 0);

	if (n <= 0)
		return -EINVAL;
	r = calloc((size_t)n, sizeof(*r));
	if (!r ||
	    bench_write_ranges(t, &c->o, UINT64_MAX, r, (size_t)n) != n) {
		free(r);
		return -EINVAL;
	}
	*spacing_au = n < 2 ? 0 : (r[1].start_byte - r[0].start_byte) /
				  c->o.erasesize_byte;
	*end_byte = r[n - 1].end_byte;
	free(r);
	return 0;
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
				   reach, dev->path, c->dev_byte);
	if (test == BENCH_FIND_FAT)
		return usage_error(c->err,
				   "--find-fat with --fat-nr=%s --erasesize=%s %s of " DEV_FMT,
				   c->text[V_FAT_NR], es, reach, dev->path,
				   c->dev_byte);
	if (test == BENCH_CAPACITY)
		return usage_error(c->err,
				   "--capacity needs at least 16MiB, more than " DEV_FMT,
				   dev->path, c->dev_byte);
	return usage_error(c->err,
			   "--program needs the first 20MiB, more than " DEV_FMT,
			   dev->path, c->dev_byte);
}

/*
 * Ask writing mode m which ranges it overwrites: first how many (ranges
 * NULL), then the ranges.  Returns 0, EXIT_USAGE when the test would
 * reach past the end, or EXIT_DEVICE.
 */
static int plan_one(struct cli *c, const struct device *dev,
		    const struct mode *m, struct write_plan *plan)
{
	enum bench_test t = m->test;
	int n;

	n = m->write_ranges(t, &c->o, dev->size_byte, NULL, 0);
	if (n > 0) {
		plan->ranges = calloc((size_t)n, sizeof(*plan->ranges));
		if (!plan->ranges)
			n = -ENOMEM;
		else
			n = m->write_ranges(t, &c->o, dev->size_byte,
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
 * Check the writing tests against the device and fill plan[] (indexed
 * like modes[]) with the ranges each will overwrite.  Returns 0,
 * EXIT_USAGE or EXIT_DEVICE.
 */
static int plan_writes(struct cli *c, const struct device *dev,
		       struct write_plan plan[MODES_MAX])
{
	size_t k;
	int ret;

	if ((c->tests & BENCH_OPEN_AU) &&
	    c->o.offset_byte % dev->logical_block_size)
		return usage_error(c->err,
				   "invalid --offset '%s': not a multiple of the logical block size (%u) of %s",
				   c->text[V_OFFSET], dev->logical_block_size,
				   dev->path);
	for (k = 0; k < modes_nr; k++) {
		if (!modes[k].writes || !(c->tests & modes[k].test))
			continue;
		ret = plan_one(c, dev, &modes[k], &plan[k]);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Everything about the block size that holds for every test using it:
 * a multiple of the logical block size and not larger than the device.
 */
static int check_blocksize(struct cli *c, const struct device *dev)
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
				   bs, dev->path, c->dev_byte);
	if (c->o.blocksize_byte > dev->size_byte) {
		char size[FMT_LEN];

		return usage_error(c->err,
				   DEV_FMT " is smaller than one block of the default --blocksize (%s); give a smaller -b",
				   dev->path, c->dev_byte,
				   fmt_size(size, c->o.blocksize_byte));
	}
	return 0;
}

/*
 * What holds for any test and for --auto: the device has at least one
 * whole logical block, and --auto's first align table fits.
 */
static int check_size(struct cli *c, const struct device *dev)
{
	uint64_t min;

	if (!c->tests && !c->autorun)
		return 0;
	if (!c->dev_byte)
		return usage_error(c->err, "%s is empty", dev->path);
	if (dev->size_byte < dev->logical_block_size)
		return usage_error(c->err,
				   DEV_FMT " is smaller than one %u-byte block",
				   dev->path, c->dev_byte,
				   dev->logical_block_size);
	min = auto_min_size(dev->logical_block_size);
	if (c->autorun && dev->size_byte < min) {
		char size[FMT_LEN];

		return usage_error(c->err,
				   "--auto needs at least %s (%" PRIu64 " bytes), more than " DEV_FMT,
				   fmt_size(size, min), min, dev->path,
				   c->dev_byte);
	}
	return 0;
}

/* DEVICE's size for messages: a regular file's own, not its whole blocks. */
static uint64_t told_size(const struct cli *c, const struct device *dev)
{
	struct stat st;

	if (!c->simulate && c->device && !stat(c->device, &st) &&
	    S_ISREG(st.st_mode))
		return (uint64_t)st.st_size;
	return dev->size_byte;
}

/* Create the simulated card of --simulate; returns 0 or an exit status. */
static int open_sim(struct cli *c, struct device **devp)
{
	struct sim_params p;
	char why[256] = "";
	int ret;

	sim_params_default(&p);
	if (c->sim_spec && sim_parse_spec(&p, c->sim_spec, why, sizeof(why)))
		return usage_error(c->err, "invalid --simulate '%s': %s",
				   c->sim_spec, why);
	ret = sim_open(devp, &p);
	if (ret) {
		fprintf(c->err, "flashbench: cannot create the simulated card: %s\n",
			strerror(-ret));
		return EXIT_DEVICE;
	}
	return 0;
}

/* Nonzero if path names a block device. */
static int is_block_device(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISBLK(st.st_mode);
}

/*
 * Open DEVICE: read-only for the read tests, exclusively and read-write
 * as soon as one test writes.  Returns 0 or an exit status.
 */
static int open_real(struct cli *c, struct device **devp)
{
	unsigned int flags = 0;
	char holder[256] = "";
	int ret;

	if ((c->tests & BENCH_WRITING) || c->destructive || c->restore)
		flags = DEV_WRITE | DEV_EXCL;
	ret = dev_open(devp, c->device, flags, holder, sizeof(holder));
	if (ret && holder[0]) {
		fprintf(c->err, "flashbench: %s: %s\n", c->device, holder);
		return EXIT_DEVICE;
	}
	/* not a device at all: a bad command line, not a failing device */
	if (ret == -EISDIR || ret == -ENOTBLK)
		return usage_error(c->err, "invalid DEVICE '%s': %s",
				   c->device, ret == -ENOTBLK ?
				   "neither a block device nor a regular file" :
				   "a directory");
	/* a card's write-protect switch, not a read-only file system */
	if (ret == -EROFS && is_block_device(c->device)) {
		fprintf(c->err, "flashbench: %s: the device is write-protected\n",
			c->device);
		return EXIT_DEVICE;
	}
	if (ret) {
		fprintf(c->err, "flashbench: cannot open %s: %s\n", c->device,
			strerror(-ret));
		return EXIT_DEVICE;
	}
	return 0;
}

/*
 * With --preserve, put DEVICE behind a guard that notes in the journal
 * what the tests write (preserve.h), so that --restore can later tell
 * the test's data from anything written since.  0 or EXIT_DEVICE.
 */
static int guard_device(struct cli *c, struct device **devp)
{
	struct device *g;
	int ret;

	if (!c->preserve || c->simulate)
		return 0;
	ret = preserve_wrap(&g, *devp);
	if (ret) {
		fprintf(c->err, "flashbench: --preserve: %s\n", strerror(-ret));
		dev_close(*devp);
		*devp = NULL;
		return EXIT_DEVICE;
	}
	*devp = g;
	return 0;
}

/* Open DEVICE or the simulated card; returns 0 or an exit status. */
static int open_device(struct cli *c, struct device **devp)
{
	int ret;

	*devp = NULL;
	ret = c->simulate ? open_sim(c, devp) : open_real(c, devp);
	if (ret)
		return ret;
	flashbench_dev_opens++;
	if (flashbench_open_hook)
		*devp = flashbench_open_hook(*devp);
	ret = guard_device(c, devp);
	if (ret)
		return ret;
	c->dev_byte = told_size(c, *devp);
	return 0;
}

static void close_device(struct device *dev)
{
	if (!dev)
		return;
	flashbench_io_calls += dev->io_count;
	dev_close(dev);
}

/* Report a failed test; returns EXIT_DEVICE. */
int test_failed(struct cli *c, const struct device *dev,
		const char *option, int ret)
{
	const struct dev_error *e = &dev->last_error;

	if (e->op && e->err)
		fprintf(c->err,
			"flashbench: %s of %" PRIu64 " bytes at offset %lld on %s failed: %s\n",
			e->op, e->len_byte, (long long)e->off_byte, dev->path,
			strerror(e->err));
	else
		fprintf(c->err, "flashbench: %s failed: %s\n", option,
			strerror(-ret));
	return EXIT_DEVICE;
}

/* ---- options a test does not use ---- */

/* "flashbench: OPTION ignored: only --x and --y use it" (under -v). */
static void note_ignored(const struct cli *c, const char *option,
			 unsigned int users)
{
	size_t i, k = 0, n = 0;

	for (i = 0; i < modes_nr; i++)
		n += !!(users & modes[i].test);
	fprintf(c->err, "flashbench: %s ignored: only ", option);
	for (i = 0; i < modes_nr; i++) {
		if (!(users & modes[i].test))
			continue;
		k++;
		fprintf(c->err, "%s%s", modes[i].option,
			k == n ? "" : k + 1 == n ? " and " : ", ");
	}
	fprintf(c->err, " use%s it\n", n == 1 ? "s" : "");
}

/* Under -v, name each option given that no test asked for uses. */
static void note_unused(const struct cli *c)
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

/* Run the tests asked for; returns 0 or an exit status. */
static int run_tests(struct cli *c, struct device *dev, FILE *out)
{
	size_t i;
	int ret;

	for (i = 0; i < modes_nr; i++) {
		const struct mode *m = &modes[i];
		enum bench_test t = m->test;

		if (!(c->tests & t))
			continue;
		if (c->o.verbose)
			fprintf(c->err, "flashbench: running %s on %s\n",
				m->option, dev->path);
		if (c->plot)
			snprintf(c->plot->title, sizeof(c->plot->title),
				 "flashbench %s %s", m->option, dev->path);
		progress_plan_test(c->prog, t, &c->o, dev);
		if (c->json)
			ret = run_json(c, dev, t, m->option, out);
		else if (c->plot && m->prog)
			ret = run_vm_mode(c, dev, m, out, NULL);
		else
			ret = m->run(dev, &c->o, out);
		progress_done(c->prog);
		if (ret) {
			fflush(out);
			if (stop_signal)
				return 128 + stop_signal;
			return test_failed(c, dev, m->option, ret);
		}
	}
	return 0;
}

/* Check everything against the device, then run; returns the status. */
static int run(struct cli *c, FILE *out)
{
	struct write_plan plan[MODES_MAX] = { { NULL, 0 } };
	struct device *dev = NULL;
	FILE *res = out;
	size_t i;
	int ret;

	ret = open_device(c, &dev);
	if (ret)
		return ret;
	device_card(c, dev, &c->card_raw, &c->card);
	class_set_card(&c->card);
	if (c->o.verbose)
		fprintf(c->err,
			"flashbench: %s: %" PRIu64 " bytes, logical block %u bytes\n",
			dev->path, dev->size_byte, dev->logical_block_size);
	ret = check_size(c, dev);
	if (!ret)
		ret = check_blocksize(c, dev);
	if (!ret)
		ret = check_read_tests(c, dev);
	if (!ret)
		ret = plan_writes(c, dev, plan);
	if (!ret)
		ret = check_journal(c, dev);
	if (!ret)
		ret = load_restore(c, dev);
	if (!ret)
		ret = open_outputs(c, out, &res);
	if (ret)
		goto out_close_dev;
	if (!c->simulate)
		quiet_system(c->o.verbose ? c->err : NULL);
	announce_writes(c, dev, plan);
	c->prog = progress_new(c->err, c->quiet);
	if (flashbench_progress_clock)
		progress_set_clock(c->prog, flashbench_progress_clock);
	dev = progress_attach(c->prog, dev);
	res = progress_wrap(c->prog, res);
	if (c->restore)
		ret = run_restore(c, dev, res);
	else if (c->autorun)
		ret = run_auto(c, dev, res);
	else if (!(ret = save_tests(c, dev)))
		ret = run_tests(c, dev, res);
	res = progress_unwrap(c->prog, res);
	/* whatever happened, put back what was saved */
	if (restore_saved(c, dev))
		ret = EXIT_DEVICE;
	dev = progress_detach(c->prog, dev);
	progress_free(c->prog);
	c->prog = NULL;
	if (plot_close(c) && !ret)
		ret = EXIT_DEVICE;
	if (finish_output(c, res, res != out) && !ret)
		ret = EXIT_DEVICE;
out_close_dev:
	class_set_card(NULL);
	preserve_free(c->loaded);
	c->loaded = NULL;
	close_device(dev);
	for (i = 0; i < modes_nr; i++)
		free(plan[i].ranges);
	return ret;
}

/*
 * run() with SIGINT, SIGTERM and SIGHUP turned into a stop within one
 * I/O: what was measured is printed, what --preserve saved is put back,
 * and the exit status is 128 + the signal (1 if the restore failed).
 */
static int run_stoppable(struct cli *c, FILE *out)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa, old[3];
	size_t i;
	int ret;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	stop_signal = 0;
	for (i = 0; i < 3; i++)
		sigaction(sigs[i], &sa, &old[i]);
	dev_set_stop_flag(&stop_signal);
	ret = run(c, out);
	dev_set_stop_flag(NULL);
	for (i = 0; i < 3; i++)
		sigaction(sigs[i], &old[i], NULL);
	if (stop_signal) {
		fprintf(c->err, "flashbench: stopped by %s\n",
			strsignal(stop_signal));
		if (!c->restore_failed)
			ret = 128 + stop_signal;
	}
	return ret;
}

int flashbench_main(int argc, char **argv, FILE *out, FILE *err)
{
	struct cli c;
	int ret;

	memset(&c, 0, sizeof(c));
	bench_opts_default(&c.o);
	c.o.log = err;
	c.err = err;
	ret = opt_parse(&c, argc, argv, out);
	if (ret == 0)	/* --help or --version */
		return finish_output(&c, out, 0);
	if (ret > 0)
		return ret;
	ret = check_args(&c);
	if (ret)
		return ret;
	note_unused(&c);
	if (c.analyze_path)
		return run_analyze(&c, out);
	if (c.registers_dir)
		return run_registers(&c, out);
	return run_stoppable(&c, out);
}

#ifndef FLASHBENCH_NO_MAIN
int main(int argc, char **argv)
{
	return flashbench_main(argc, argv, stdout, stderr);
}
#endif
