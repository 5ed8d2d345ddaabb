// SPDX-License-Identifier: GPL-2.0-only
/*
 * flashbench - identify characteristics of flash media.
 *
 * The front end: parse the command line, check every value before any I/O
 * (a typo must never cost a card a write cycle, let alone its data), open
 * the device, check what depends on its size, then run the tests in the
 * classic order.  Only this file prints errors and chooses exit codes.
 */
#include <errno.h>
#include <getopt.h>
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

/* How a value option is spelt, what it may hold and where it goes. */
struct value_spec {
	const char *name;	/* long option name, for messages */
	int is_size;		/* 1: parse_size() suffixes allowed */
	int is_order;		/* 1: an exponent, report "out of range" */
	uint64_t min;		/* smallest value allowed */
	uint64_t max;		/* largest value allowed */
	size_t field;		/* offset of its field in struct bench_opts */
	int is_uint;		/* that field is unsigned int, not uint64_t */
};

#define U64_FIELD(f)	offsetof(struct bench_opts, f), 0
#define UINT_FIELD(f)	offsetof(struct bench_opts, f), 1

static const struct value_spec value_specs[V_NR] = {
	[V_BLOCKSIZE] = { "blocksize", 1, 0, 1, UINT64_MAX,
			  U64_FIELD(blocksize_byte) },
	[V_ERASESIZE] = { "erasesize", 1, 0, 1, UINT64_MAX,
			  U64_FIELD(erasesize_byte) },
	[V_COUNT] = { "count", 0, 0, 1, UINT_MAX, UINT_FIELD(count) },
	[V_SCATTER_ORDER] = { "scatter-order", 0, 1, 1, 24,
			      UINT_FIELD(scatter_order) },
	[V_SCATTER_SPAN] = { "scatter-span", 0, 0, 1, UINT_MAX,
			     UINT_FIELD(scatter_span) },
	[V_INTERVAL_ORDER] = { "interval-order", 0, 1, 5, 24,
			       UINT_FIELD(interval_order) },
	[V_OPEN_AU_NR] = { "open-au-nr", 0, 0, 1, UINT_MAX,
			   UINT_FIELD(open_au_nr) },
	[V_OFFSET] = { "offset", 1, 0, 0, UINT64_MAX, U64_FIELD(offset_byte) },
	[V_FAT_NR] = { "fat-nr", 0, 0, 1, UINT_MAX, UINT_FIELD(fat_nr) },
};

/*
 * The tests each value option matters to.  One rule for all options: a
 * value is always checked for its own form (a typo is never let through),
 * but one that no test asked for uses is accepted and ignored, and -v
 * says so.  Refusing it instead would break classic scripts such as
 * "-i --interval-order=13 -b 16384" (-i reads its own sizes).
 */
static const unsigned int value_users[V_NR] = {
	[V_BLOCKSIZE] = BENCH_ALIGN | BENCH_SCATTER | BENCH_OPEN_AU |
			BENCH_FIND_FAT,
	[V_ERASESIZE] = BENCH_OPEN_AU | BENCH_FIND_FAT,
	[V_COUNT] = BENCH_ALIGN | BENCH_SCATTER | BENCH_INTERVAL,
	[V_SCATTER_ORDER] = BENCH_SCATTER,
	[V_SCATTER_SPAN] = BENCH_SCATTER,
	[V_INTERVAL_ORDER] = BENCH_INTERVAL,
	[V_OPEN_AU_NR] = BENCH_OPEN_AU,
	[V_OFFSET] = BENCH_OPEN_AU,
	[V_FAT_NR] = BENCH_FIND_FAT,
};

/* The tests used by "--random", for the note. */
#define RANDOM_USERS	(BENCH_OPEN_AU | BENCH_FIND_FAT)

/* getopt values of the options that have no short form. */
enum {
	OPT_SCATTER_ORDER = 256,
	OPT_SCATTER_SPAN,
	OPT_INTERVAL_ORDER,
	OPT_OPEN_AU_NR,
	OPT_OFFSET,
	OPT_FAT_NR,
	OPT_SIMULATE,
	OPT_AUTO,
	OPT_DESTRUCTIVE,
	OPT_JSON,
	OPT_ANALYZE,
	OPT_REGISTERS,
	OPT_PLOT,
	OPT_PRESERVE,
	OPT_JOURNAL,
	OPT_RESTORE,
	OPT_FORCE,
};

static const char short_opts[] = ":asiOrfpCLqc:b:e:o:vhV";

static const struct option long_opts[] = {
	{ "align", no_argument, NULL, 'a' },
	{ "scatter", no_argument, NULL, 's' },
	{ "scatter-order", required_argument, NULL, OPT_SCATTER_ORDER },
	{ "scatter-span", required_argument, NULL, OPT_SCATTER_SPAN },
	{ "interval", no_argument, NULL, 'i' },
	{ "interval-order", required_argument, NULL, OPT_INTERVAL_ORDER },
	{ "open-au", no_argument, NULL, 'O' },
	{ "open-au-nr", required_argument, NULL, OPT_OPEN_AU_NR },
	{ "offset", required_argument, NULL, OPT_OFFSET },
	{ "random", no_argument, NULL, 'r' },
	{ "find-fat", no_argument, NULL, 'f' },
	{ "findfat", no_argument, NULL, 'f' },
	{ "fat-nr", required_argument, NULL, OPT_FAT_NR },
	{ "program", no_argument, NULL, 'p' },
	{ "capacity", no_argument, NULL, 'C' },
	{ "class", no_argument, NULL, 'L' },
	{ "count", required_argument, NULL, 'c' },
	{ "blocksize", required_argument, NULL, 'b' },
	{ "erasesize", required_argument, NULL, 'e' },
	{ "out", required_argument, NULL, 'o' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "simulate", optional_argument, NULL, OPT_SIMULATE },
	{ "auto", no_argument, NULL, OPT_AUTO },
	{ "destructive", no_argument, NULL, OPT_DESTRUCTIVE },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "analyze", required_argument, NULL, OPT_ANALYZE },
	{ "registers", required_argument, NULL, OPT_REGISTERS },
	{ "plot", required_argument, NULL, OPT_PLOT },
	{ "quiet", no_argument, NULL, 'q' },
	{ "preserve", no_argument, NULL, OPT_PRESERVE },
	{ "journal", required_argument, NULL, OPT_JOURNAL },
	{ "restore", required_argument, NULL, OPT_RESTORE },
	{ "force", no_argument, NULL, OPT_FORCE },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

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

/* "invalid --NAME 'VALUE': why"; returns EXIT_USAGE. */
static int bad_value(const struct cli *c, enum cli_value v, const char *val,
		     const char *why)
{
	return usage_error(c->err, "invalid --%s '%s': %s",
			   value_specs[v].name, val, why);
}

/* Nonzero if x is a power of two. */
static int is_pow2(uint64_t x)
{
	return x && !(x & (x - 1));
}

/* Nonzero if x is a power of two or three times one. */
static int is_erase_shape(uint64_t x)
{
	return is_pow2(x) || (x % 3 == 0 && is_pow2(x / 3));
}

/* Plain decimal digits only: counts and orders take no suffix. */
static int is_decimal(const char *s)
{
	return *s && s[strspn(s, "0123456789")] == '\0';
}

/*
 * Parse the value of option v into *val and check what can be checked on
 * its own.  Returns 0 or EXIT_USAGE (after printing why).
 */
static int parse_value(struct cli *c, enum cli_value v, const char *s,
		       uint64_t *val)
{
	const struct value_spec *vs = &value_specs[v];
	int ret;

	c->arg[v] = s;
	if (s[0] == '-' && s[1] >= '0' && s[1] <= '9')
		return bad_value(c, v, s, "must not be negative");
	if (!vs->is_size && !is_decimal(s))
		return bad_value(c, v, s, "not a number");
	ret = parse_size(s, val);
	if (ret == -ERANGE)
		return bad_value(c, v, s, "number too large");
	if (ret)
		return bad_value(c, v, s, "not a valid size");
	if (vs->is_order && (*val < vs->min || *val > vs->max)) {
		char why[64];

		snprintf(why, sizeof(why), "out of range %" PRIu64 "-%" PRIu64,
			 vs->min, vs->max);
		return bad_value(c, v, s, why);
	}
	if (*val == 0 && vs->min > 0)
		return bad_value(c, v, s, "must not be zero");
	if (*val > vs->max)
		return bad_value(c, v, s, "number too large");
	if (v == V_BLOCKSIZE && !is_pow2(*val))
		return bad_value(c, v, s, "not a power of two");
	if (v == V_BLOCKSIZE && *val < MIN_IO_BYTE)
		return bad_value(c, v, s, "must be at least 512");
	if (v == V_ERASESIZE && !is_erase_shape(*val))
		return bad_value(c, v, s,
				 "not a power of two or 3 times a power of two");
	return 0;
}

/* The field of o that option v sets, as a number. */
static uint64_t get_value(const struct bench_opts *o, enum cli_value v)
{
	const char *f = (const char *)o + value_specs[v].field;

	if (value_specs[v].is_uint)
		return *(const unsigned int *)f;
	return *(const uint64_t *)f;
}

/* Store an option's value in the bench options; returns 0 or EXIT_USAGE. */
static int set_value(struct cli *c, enum cli_value v, const char *s)
{
	char *f = (char *)&c->o + value_specs[v].field;
	uint64_t val;
	int ret = parse_value(c, v, s, &val);

	if (ret)
		return ret;
	if (value_specs[v].is_uint)
		*(unsigned int *)f = (unsigned int)val; /* max checked */
	else
		*(uint64_t *)f = val;
	return 0;
}

/* The --help text, in util-linux's layout. */
static const char help_text[] =
"\nUsage:\n"
" flashbench [options] <device>\n"
" flashbench [options] --simulate[=<spec>]\n"
"\n"
"Identify characteristics of flash media (erase block and page size,\n"
"number of open erase blocks, FAT area) by timing reads and writes.\n"
"\n"
"Tests (run in this order: -s, -f, -a, -O, -i, -p):\n"
" -a, --align                 read-alignment test (read-only)\n"
" -s, --scatter               scatter read test (read-only)\n"
" -i, --interval              read-size regression (read-only)\n"
" -O, --open-au               open erase block test (writes!)\n"
" -f, --find-fat, --findfat   per-AU write speed of the first AUs\n"
"                               (writes!)\n"
" -p, --program               fixed write/read pattern table (writes!)\n"
" -C, --capacity              is all of the card there? finds a fake's\n"
"                               usable size (writes!)\n"
" -L, --class                 the speed, UHS, video and application\n"
"                               classes the card states, measured\n"
"                               (writes!)\n"
"\n"
"Beyond the classic tests:\n"
"     --auto                  find erase size, page size, open AUs and\n"
"                               FAT area and say what to do with them;\n"
"                               read-only unless --destructive\n"
"     --destructive           let --auto run its write steps (writes!)\n"
"     --analyze <file>        read saved align tables ('-': stdin) and\n"
"                               state erase and page size, no device\n"
"     --registers <dir>       decode a card's register files (cid, csd,\n"
"                               scr, ssr, ... as in sysfs), no device\n"
"     --json                  one JSON document instead of the table\n"
"     --plot <file.svg>       also draw the results as an SVG chart\n"
"                               ('-': stdout, with -o for the results)\n"
"     --preserve              save what the writing tests overwrite and\n"
"                               write it back when they end, fail or\n"
"                               are interrupted\n"
"     --journal <file>        where --preserve keeps its copy (default\n"
"                               ./flashbench-<device name>.journal)\n"
"     --restore <journal>     put a journal back on DEVICE after a\n"
"                               crash or power loss\n"
"     --force                 with --restore: even where DEVICE no\n"
"                               longer holds what the run wrote\n"
"\n"
"Options:\n"
" -b, --blocksize <size>      smallest access size (default 16KiB);\n"
"                               at least 512, for -a at least twice\n"
"                               the logical block size (1KiB on most\n"
"                               cards)\n"
" -e, --erasesize <size>      erase block (AU) size for -O and -f\n"
"                               (default 4MiB)\n"
" -c, --count <num>           repetitions of each read (default 8)\n"
"     --scatter-order <num>   scatter over 2^num blocks (default 9)\n"
"     --scatter-span <num>    blocks per scatter read (default 1)\n"
"     --interval-order <num>  interval read sizes up to 512<<(num-1)\n"
"                               (default 13)\n"
"     --open-au-nr <num>      erase blocks written in turn by -O\n"
"                               (default 2)\n"
"     --offset <size>         where -O starts, a multiple of the erase\n"
"                               size (default 16MiB rounded up to it)\n"
" -r, --random                random order inside an erase block\n"
"     --fat-nr <num>          erase blocks looked at by -f (default 6)\n"
" -o, --out <file>            write results to <file> ('-': stdout)\n"
" -v, --verbose               more detail on stderr (-vv: also the\n"
"                               program of each writing test)\n"
" -q, --quiet                 no progress line on the terminal\n"
"     --simulate[=<spec>]     test a simulated card instead of a\n"
"                               device; <spec> is key=value,...\n"
"                               (size, erase, page, open, open_random\n"
"                               (default: open), fat, fat_start, noise,\n"
"                               seed, read_mbps, write_mbps, access_us;\n"
"                               costs: page_us, au_us, erase_us,\n"
"                               discard_us, fat_mbps, fat_page)\n"
"                             what real cards do, off by default:\n"
"                               readsig=0 (no read signature),\n"
"                               plane, plane_us (multi-plane step),\n"
"                               group, group_us (allocation group),\n"
"                               au_spread (gradual AU step),\n"
"                               pause_pct, pause_us (long pauses),\n"
"                               readahead (read-ahead cache),\n"
"                               random_mbps, open_random=0,\n"
"                               collapse=gradual,\n"
"                               real_size, fake=limbo-zero|\n"
"                               limbo-garbage|wrap, cache (a fake card),\n"
"                               claims=C10+U1+A1, au (the classes and\n"
"                               AU its registers state),\n"
"                               fat_kind=linear|random|both;\n"
"                               see flashbench(1)\n"
"\n"
" -h, --help                  display this help\n"
" -V, --version               display version\n"
"\n"
"Sizes take a K, M, G or T suffix (KiB, MiB, GiB, TiB) or 0x for hex.\n";

static void print_help(FILE *out)
{
	fputs(help_text, out);
}

/*
 * Store the file name of option --name in *dst.  "-" alone stands for
 * standard input or output; any other value starting with '-' is an
 * option typed where the file name was forgotten ("--plot -a"), refused
 * rather than taken for a file.  Returns 0 or EXIT_USAGE.
 */
static int file_value(struct cli *c, const char *name, const char *val,
		      const char **dst)
{
	if (val[0] == '-' && val[1])
		return usage_error(c->err,
				   "option '--%s' needs a file name, not '%s' (for a file of that name write ./%s)",
				   name, val, val);
	*dst = val;
	return 0;
}

/*
 * Parse argv into c.  Returns -1 to go on, or an exit status: 0 after
 * --help or --version, EXIT_USAGE after an error.
 */
static int parse_args(struct cli *c, int argc, char **argv, FILE *out)
{
	char buf[256];
	int opt, ret = 0;

	optind = 0;	/* full reset, so that we can be called again */
	opterr = 0;
	while ((opt = getopt_long(argc, argv, short_opts, long_opts,
				  NULL)) != -1) {
		switch (opt) {
		case 'a':
			c->tests |= BENCH_ALIGN;
			break;
		case 's':
			c->tests |= BENCH_SCATTER;
			break;
		case 'i':
			c->tests |= BENCH_INTERVAL;
			break;
		case 'O':
			c->tests |= BENCH_OPEN_AU;
			break;
		case 'f':
			c->tests |= BENCH_FIND_FAT;
			break;
		case 'p':
			c->tests |= BENCH_PROGRAM;
			break;
		case 'C':
			c->tests |= BENCH_CAPACITY;
			break;
		case 'L':
			c->tests |= BENCH_CLASS;
			break;
		case 'r':
			c->o.random = 1;
			break;
		case 'v':
			c->o.verbose++;
			break;
		case 'o':
			ret = file_value(c, "out", optarg, &c->out_path);
			if (!ret && !strcmp(optarg, "-"))
				c->out_path = NULL;
			break;
		case 'b':
			ret = set_value(c, V_BLOCKSIZE, optarg);
			break;
		case 'e':
			ret = set_value(c, V_ERASESIZE, optarg);
			break;
		case 'c':
			ret = set_value(c, V_COUNT, optarg);
			break;
		case OPT_SCATTER_ORDER:
			ret = set_value(c, V_SCATTER_ORDER, optarg);
			break;
		case OPT_SCATTER_SPAN:
			ret = set_value(c, V_SCATTER_SPAN, optarg);
			break;
		case OPT_INTERVAL_ORDER:
			ret = set_value(c, V_INTERVAL_ORDER, optarg);
			break;
		case OPT_OPEN_AU_NR:
			ret = set_value(c, V_OPEN_AU_NR, optarg);
			break;
		case OPT_OFFSET:
			ret = set_value(c, V_OFFSET, optarg);
			break;
		case OPT_FAT_NR:
			ret = set_value(c, V_FAT_NR, optarg);
			break;
		case OPT_SIMULATE:
			c->simulate = 1;
			c->sim_spec = optarg;
			break;
		case OPT_AUTO:
			c->autorun = 1;
			break;
		case OPT_DESTRUCTIVE:
			c->destructive = 1;
			break;
		case OPT_JSON:
			c->json = 1;
			break;
		case OPT_ANALYZE:
			ret = file_value(c, "analyze", optarg, &c->analyze_path);
			break;
		case OPT_REGISTERS:
			ret = file_value(c, "registers", optarg,
					 &c->registers_dir);
			break;
		case OPT_PLOT:
			ret = file_value(c, "plot", optarg, &c->plot_path);
			break;
		case 'q':
			c->quiet = 1;
			break;
		case OPT_PRESERVE:
			c->preserve = 1;
			break;
		case OPT_JOURNAL:
			c->preserve = 1;
			ret = file_value(c, "journal", optarg, &c->journal);
			break;
		case OPT_RESTORE:
			ret = file_value(c, "restore", optarg, &c->restore);
			break;
		case OPT_FORCE:
			c->force = 1;
			break;
		case 'h':
			print_help(out);
			return 0;
		case 'V':
			fprintf(out, "flashbench %s\n", FLASHBENCH_VERSION);
			return 0;
		default:	/* '?' or ':' */
			return usage_error(c->err, "%s",
					   getopt_problem(buf, sizeof(buf),
							  opt, argc, argv,
							  long_opts));
		}
		if (ret)
			return ret;
	}
	if (optind < argc)
		c->device = argv[optind++];
	if (optind < argc)
		return usage_error(c->err,
				   "unexpected argument '%s': only one DEVICE",
				   argv[optind]);
	return -1;
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
			 get_value(&c->o, v));
		c->text[v] = c->arg[v] ? c->arg[v] : c->num[v];
	}
	if ((c->tests & value_users[V_ERASESIZE]) &&
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

	if (!c->o.verbose)
		return;
	for (v = 0; v < V_NR; v++) {
		if (!c->arg[v] || !value_users[v] ||
		    (c->tests & value_users[v]))
			continue;
		snprintf(option, sizeof(option), "--%s=%.40s",
			 value_specs[v].name, c->arg[v]);
		note_ignored(c, option, value_users[v]);
	}
	if (c->o.random && !(c->tests & RANDOM_USERS))
		note_ignored(c, "--random", RANDOM_USERS);
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
	ret = parse_args(&c, argc, argv, out);
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
