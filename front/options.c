// SPDX-License-Identifier: GPL-2.0-only
/*
 * The table of options (see options.h) and what is made of it: getopt's
 * long options and short-option string, the parse, the defaults and the
 * --help text.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "c.h"
#include "cli.h"
#include "format.h"
#include "test.h"
#include "options.h"

/* The smallest block size. */
#define MIN_IO_BYTE		512ULL

/*
 * The most repetitions of each read (-c).  -a reads 21 places per row
 * count times each, about 20 rows: 100000 is some 40 million reads, half
 * a day on a card at 1 ms a read, and the timings of a measurement's
 * repetitions are all held until their least is taken (about 100 bytes
 * each: 10 MB here, 100 GB at a count of 10^9).  The least of a few
 * dozen reads already is the card's own cost.
 */
#define MAX_COUNT		100000

#define CLI(f)		offsetof(struct cli, f)
#define NO_FLAG		((size_t)-1)

/* Nonzero if x is a power of two. */
static int is_pow2(uint64_t x)
{
	return x && !(x & (x - 1));
}

/* -b: a power of two, at least 512. */
static const char *valid_blocksize(uint64_t v)
{
	if (!is_pow2(v))
		return "not a power of two";
	if (v < MIN_IO_BYTE)
		return "must be at least 512";
	return NULL;
}

/* -e: a power of two or three times one. */
static const char *valid_erasesize(uint64_t v)
{
	if (is_pow2(v) || (v % 3 == 0 && is_pow2(v / 3)))
		return NULL;
	return "not a power of two or 3 times a power of two";
}

static const char *valid_flush(uint64_t v)
{
	if (v && v < (1 << 20))
		return "less than 1MiB";
	return v % 4096 ? "not a multiple of 4KiB" : NULL;
}

/* --cache-cap: whole chunks of the write-cache step, a few at least */
static const char *valid_cache_cap(uint64_t v)
{
	if (v && v < (64 << 20))
		return "less than 64MiB";
	return (v % (4 << 20)) ? "not a multiple of 4MiB" : NULL;
}

#define MODE_ROW(bit, text)						\
	{ .kind = OPT_MODE, .mode = (bit), .flag = NO_FLAG,		\
	  .section = SEC_TESTS, .help = (text) }
#define FLAG_ROW(lname, sname, f, sec, text)				\
	{ .name = (lname), .short_name = (sname), .kind = OPT_FLAG,	\
	  .field = CLI(f), .flag = NO_FLAG, .section = (sec),		\
	  .help = (text) }
#define FILE_ROW(lname, sname, f, what, text)				\
	{ .name = (lname), .short_name = (sname), .kind = OPT_FILE,	\
	  .field = CLI(f), .flag = NO_FLAG, .arg = (what),		\
	  .section = SEC_BEYOND, .help = (text) }
/* "%D" in the help of a value option stands for its default. */
#define VALUE_ROW(lname, sname, k, v, f, d, lo, hi, chk, u, what, text) \
	{ .name = (lname), .short_name = (sname), .kind = (k),		\
	  .value = (v), .field = CLI(o.f), .flag = NO_FLAG, .def = (d),	\
	  .min = (lo), .max = (hi), .check = (chk), .users = (u),	\
	  .arg = (what), .section = SEC_OPTIONS, .help = (text) }

/*
 * In getopt's order, which is the order getopt_problem() lists an
 * ambiguous abbreviation's matches in ("--r": --random, --registers,
 * --restore); --help prints each section in this order.
 */
const struct opt_row opt_rows[] = {
	MODE_ROW(BENCH_ALIGN, "read-alignment test (read-only)"),
	MODE_ROW(BENCH_SCATTER, "scatter read test (read-only)"),
	MODE_ROW(BENCH_INTERVAL, "read-size regression (read-only)"),
	MODE_ROW(BENCH_OPEN_AU, "open erase block test (writes!)"),
	MODE_ROW(BENCH_FIND_FAT, "per-AU write speed of the first AUs\n"
				 "  (writes!)"),
	{ .name = "findfat", .kind = OPT_MODE, .mode = BENCH_FIND_FAT,
	  .alias = 1, .flag = NO_FLAG, .section = SEC_TESTS },
	MODE_ROW(BENCH_PROGRAM, "fixed write/read pattern table (writes!)"),
	MODE_ROW(BENCH_CAPACITY, "is all of the card there? finds a fake's\n"
				 "  usable size (writes!)"),
	MODE_ROW(BENCH_CLASS, "the speed, UHS, video and application\n"
			      "  classes the card states, measured\n"
			      "  (writes!)"),
	VALUE_ROW("blocksize", 'b', OPT_SIZE, V_BLOCKSIZE, blocksize_byte,
		  16384, 1, UINT64_MAX, valid_blocksize,
		  BENCH_ALIGN | BENCH_SCATTER | BENCH_OPEN_AU | BENCH_FIND_FAT,
		  "<size>", "smallest access size (default %D);\n"
			    "  at least 512, for -a at least twice\n"
			    "  the logical block size (1KiB on most\n"
			    "  cards)"),
	VALUE_ROW("erasesize", 'e', OPT_SIZE, V_ERASESIZE, erasesize_byte,
		  4 << 20, 1, UINT64_MAX, valid_erasesize,
		  BENCH_OPEN_AU | BENCH_FIND_FAT | BENCH_CLASS,
		  "<size>", "erase block (AU) size for -O and -f,\n"
			    "  and for -L where the card states none\n"
			    "  (default %D)"),
	VALUE_ROW("count", 'c', OPT_NUMBER, V_COUNT, count, 8, 1, MAX_COUNT,
		  NULL, BENCH_ALIGN | BENCH_SCATTER | BENCH_INTERVAL,
		  "<num>", "repetitions of each read (default %D)"),
	VALUE_ROW("scatter-order", 0, OPT_ORDER, V_SCATTER_ORDER,
		  scatter_order, 9, 1, 24, NULL, BENCH_SCATTER,
		  "<num>", "scatter over 2^num blocks (default %D)"),
	VALUE_ROW("scatter-span", 0, OPT_NUMBER, V_SCATTER_SPAN, scatter_span,
		  1, 1, UINT_MAX, NULL, BENCH_SCATTER,
		  "<num>", "blocks per scatter read (default %D)"),
	VALUE_ROW("interval-order", 0, OPT_ORDER, V_INTERVAL_ORDER,
		  interval_order, 13, 5, 24, NULL, BENCH_INTERVAL,
		  "<num>", "interval read sizes up to 512<<(num-1)\n"
			   "  (default %D)"),
	VALUE_ROW("open-au-nr", 0, OPT_NUMBER, V_OPEN_AU_NR, open_au_nr,
		  2, 1, UINT_MAX, NULL, BENCH_OPEN_AU,
		  "<num>", "erase blocks written in turn by -O\n"
			   "  (default %D)"),
	VALUE_ROW("offset", 0, OPT_SIZE, V_OFFSET, offset_byte, 16 << 20,
		  0, UINT64_MAX, NULL, BENCH_OPEN_AU | BENCH_CLASS,
		  "<size>", "where -O and -L start, a multiple of the\n"
			    "  erase size (-L: of its unit, the AU up\n"
			    "  to 4MiB; default %D rounded up to it)"),
	{ .name = "random", .short_name = 'r', .kind = OPT_FLAG,
	  .field = CLI(o.random), .flag = NO_FLAG,
	  .users = BENCH_OPEN_AU | BENCH_FIND_FAT, .section = SEC_OPTIONS,
	  .help = "random order inside an erase block" },
	VALUE_ROW("fat-nr", 0, OPT_NUMBER, V_FAT_NR, fat_nr, 6, 1, UINT_MAX,
		  NULL, BENCH_FIND_FAT,
		  "<num>", "erase blocks looked at by -f (default %D)"),
	VALUE_ROW("flush", 0, OPT_SIZE, V_FLUSH, flush_byte, 0, 0,
		  UINT64_MAX, valid_flush, BENCH_CAPACITY,
		  "<size>", "what -C writes to push a fake's write\n"
			    "  cache out, defeating one up to half of\n"
			    "  it (default, or 0: 1/128 of the device,\n"
			    "  at most 256MiB; at most a quarter of it)"),
	VALUE_ROW("cache-cap", 0, OPT_SIZE, V_CACHE_CAP, cache_cap_byte,
		  0, 0, UINT64_MAX, valid_cache_cap, BENCH_CLASS | TEST_AUTO,
		  "<size>", "what -L and --auto --destructive write at\n"
			    "  most to get past a write cache (default\n"
			    "  1/64 of the device, at least 512MiB)"),
	{ .name = "sustained", .kind = OPT_FLAG, .field = CLI(o.sustained),
	  .flag = NO_FLAG, .users = BENCH_CLASS | TEST_AUTO,
	  .section = SEC_OPTIONS,
	  .help = "-L, --auto --destructive: no cap but half\n"
		  "  the device to get past a write cache" },
	{ .name = "auto", .kind = OPT_MODE, .mode = TEST_AUTO,
	  .flag = NO_FLAG, .section = SEC_BEYOND,
	  .help = "find erase size, page size, open AUs and\n"
		  "  FAT area and say what to do with them;\n"
		  "  read-only unless --destructive" },
	FLAG_ROW("destructive", 0, destructive, SEC_BEYOND,
		 "let --auto run its write steps (writes!)"),
	FILE_ROW("analyze", 0, analyze_path, "<file>",
		 "read saved align tables ('-': stdin) and\n"
		 "  state erase and page size, no device"),
	FILE_ROW("registers", 0, registers_dir, "<dir>",
		 "decode a card's register files (cid, csd,\n"
		 "  scr, ssr, ... as in sysfs), no device"),
	FLAG_ROW("survey", 0, survey, SEC_BEYOND,
		 "one row per card from records written by\n"
		 "  --json (FILE... or directories of them),\n"
		 "  no device"),
	FLAG_ROW("csv", 0, csv, SEC_BEYOND, "--survey's table as CSV"),
	FLAG_ROW("markdown", 0, markdown, SEC_BEYOND,
		 "--survey's table in Markdown"),
	FLAG_ROW("json", 0, json, SEC_BEYOND,
		 "one JSON document instead of the table"),
	FILE_ROW("plot", 0, plot_path, "<file.svg>",
		 "also draw the results as an SVG chart\n"
		 "  ('-': stdout, with -o for the results)"),
	FLAG_ROW("preserve", 0, preserve, SEC_BEYOND,
		 "save what the writing tests overwrite and\n"
		 "  write it back when they end, fail or\n"
		 "  are interrupted"),
	{ .name = "journal", .kind = OPT_FILE, .field = CLI(journal),
	  .flag = CLI(preserve), .arg = "<file>", .section = SEC_BEYOND,
	  .help = "where --preserve keeps its copy (default\n"
		  "  ./flashbench-<device name>.journal)" },
	FILE_ROW("restore", 0, restore, "<journal>",
		 "put a journal back on DEVICE after a\n"
		 "  crash or power loss"),
	FLAG_ROW("hide-serial", 0, hide_serial, SEC_BEYOND,
		 "with --json: a record without the card's\n"
		 "  serial number (its hash in its place)"),
	FLAG_ROW("time-ops", 0, time_ops, SEC_BEYOND,
		 "with -C: the device time of each kind\n"
		 "  of operation (reads, writes, flushes,\n"
		 "  --preserve's save and write-back)"),
	FLAG_ROW("force", 0, force, SEC_BEYOND,
		 "with --restore: even where DEVICE no\n"
		 "  longer holds what the run wrote"),
	{ .name = "out", .short_name = 'o', .kind = OPT_FILE,
	  .field = CLI(out_path), .flag = NO_FLAG, .dash_none = 1,
	  .arg = "<file>", .section = SEC_OPTIONS,
	  .help = "write results to <file> ('-': stdout)" },
	{ .name = "verbose", .short_name = 'v', .kind = OPT_MORE,
	  .field = CLI(o.verbose), .flag = NO_FLAG, .section = SEC_OPTIONS,
	  .help = "more detail on stderr (-vv: also the\n"
		  "  program of each writing test)" },
	FLAG_ROW("quiet", 'q', quiet, SEC_OPTIONS,
		 "no progress line on the terminal"),
	{ .name = "simulate", .kind = OPT_TEXT, .field = CLI(sim_spec),
	  .flag = CLI(simulate), .arg = "<spec>", .section = SEC_OPTIONS,
	  .help = "test a simulated card instead of a\n"
		  "  device; <spec> is key=value,...\n"
		  "  (size, erase, page, open, open_random\n"
		  "  (default: open), fat, fat_start, noise,\n"
		  "  seed, read_mbps, write_mbps, access_us;\n"
		  "  costs: page_us, au_us, erase_us,\n"
		  "  discard_us, fat_mbps, fat_page)\n"
		  "what real cards do, off by default:\n"
		  "  readsig=0 (no read signature),\n"
		  "  plane, plane_us (multi-plane step),\n"
		  "  group, group_us (allocation group),\n"
		  "  au_spread (gradual AU step),\n"
		  "  pause_pct, pause_us (long pauses),\n"
		  "  readahead (read-ahead cache),\n"
		  "  random_mbps, open_random=0,\n"
		  "  collapse=gradual,\n"
		  "  real_size, fake=limbo-zero|\n"
		  "  limbo-garbage|wrap, cache,\n"
		  "  cache_kind=through|back (a fake card),\n"
		  "  claims=C10+U1+A1, au (the classes and\n"
		  "  AU its registers state),\n"
		  "  queue, queue_cache (a command queue\n"
		  "  and its write cache, as A2 cards),\n"
		  "  fat_kind=linear|random|both;\n"
		  "how cards differ inside, off by default:\n"
		  "  ooo=random|merge|copy-whole|\n"
		  "  copy-written, random_us, close=old|\n"
		  "  rest|all, fullclose, evict=lru|oldest,\n"
		  "  used=0 (a new card),\n"
		  "  fat_gain=both|speed|slot;\n"
		  "a busy host: busy_pct, busy_us,\n"
		  "  busy_burst, host=quiet|light|heavy;\n"
		  "today's cards, off by default: slc,\n"
		  "  slc_mbps, fold_mbps (a pSLC write\n"
		  "  cache), ftl=page, map, spare (a\n"
		  "  page-mapped card), maint_ms,\n"
		  "  maint_idle_ms (work when idle),\n"
		  "  stall_ms, stall_writes, stall_bytes\n"
		  "  (long write stalls), sector=4K;\n"
		  "  see flashbench(1)" },
	{ .name = "help", .short_name = 'h', .kind = OPT_HELP,
	  .flag = NO_FLAG, .section = SEC_LAST,
	  .help = "display this help" },
	{ .name = "version", .short_name = 'V', .kind = OPT_VERSION,
	  .flag = NO_FLAG, .section = SEC_LAST, .help = "display version" },
};

const size_t opt_rows_nr = ARRAY_SIZE(opt_rows);

/* getopt's values for the options without a short letter: 256 + row. */
#define OPT_VAL_BASE 256

const char *opt_name(const struct opt_row *r)
{
	const struct test *m;

	if (r->name)
		return r->name;
	m = test_of(r->mode);
	return m ? m->option + 2 : "";
}

char opt_short(const struct opt_row *r)
{
	const struct test *m;

	if (r->short_name || r->kind != OPT_MODE)
		return r->short_name;
	m = test_of(r->mode);
	return m ? m->short_option : 0;
}

int opt_takes_value(const struct opt_row *r)
{
	return r->kind >= OPT_SIZE && r->kind <= OPT_TEXT;
}

/* Nonzero if the row's value is a number of enum cli_value. */
static int is_value(const struct opt_row *r)
{
	return r->kind >= OPT_SIZE && r->kind <= OPT_ORDER;
}

const struct opt_row *opt_value_row(int v)
{
	size_t i;

	for (i = 0; i < opt_rows_nr; i++)
		if (is_value(&opt_rows[i]) && opt_rows[i].value == v)
			return &opt_rows[i];
	return NULL;
}

/* Where a row's field is in c. */
static void *field_of(const struct cli *c, size_t field)
{
	return (char *)c + field;
}

uint64_t opt_get_value(const struct cli *c, int v)
{
	const struct opt_row *r = opt_value_row(v);
	const void *f = field_of(c, r->field);

	if (r->kind == OPT_SIZE)
		return *(const uint64_t *)f;
	return *(const unsigned int *)f;
}

/*
 * The classic defaults: the table's (every value option is a field of
 * struct bench_opts), and -v's detail on stderr.
 */
void bench_opts_default(struct bench_opts *o)
{
	size_t i;

	memset(o, 0, sizeof(*o));
	o->log = stderr;
	for (i = 0; i < opt_rows_nr; i++) {
		const struct opt_row *r = &opt_rows[i];
		void *f = (char *)o + (r->field - CLI(o));

		if (r->kind == OPT_SIZE)
			*(uint64_t *)f = r->def;
		else if (is_value(r))
			*(unsigned int *)f = (unsigned int)r->def;
	}
}

/* ---- the parse ---- */

/* "invalid --NAME 'VALUE': why"; returns EXIT_USAGE. */
static int bad_value(const struct cli *c, const struct opt_row *r,
		     const char *val, const char *why)
{
	return usage_error(c->err, "invalid --%s '%s': %s", r->name, val,
			   why);
}

/* Plain decimal digits only: counts and orders take no suffix. */
static int is_decimal(const char *s)
{
	return *s && s[strspn(s, "0123456789")] == '\0';
}

/*
 * Parse the value s of row r into *val and check what can be checked on
 * its own.  Returns 0 or EXIT_USAGE (after printing why).
 */
static int parse_value(struct cli *c, const struct opt_row *r, const char *s,
		       uint64_t *val)
{
	const char *why;
	int ret;

	c->arg[r->value] = s;
	if (s[0] == '-' && s[1] >= '0' && s[1] <= '9')
		return bad_value(c, r, s, "must not be negative");
	if (r->kind != OPT_SIZE && !is_decimal(s))
		return bad_value(c, r, s, "not a number");
	ret = parse_size(s, val);
	if (ret == -ERANGE)
		return bad_value(c, r, s, "number too large");
	if (ret && size_bits_suffix(s)) {
		char bits[96];

		snprintf(bits, sizeof(bits),
			 "a lowercase b means bits; sizes are in bytes (%.*s)",
			 (int)size_bits_suffix(s), s);
		return bad_value(c, r, s, bits);
	}
	if (ret)
		return bad_value(c, r, s, "not a valid size");
	if (r->kind == OPT_ORDER && (*val < r->min || *val > r->max)) {
		char range[64];

		snprintf(range, sizeof(range),
			 "out of range %" PRIu64 "-%" PRIu64, r->min, r->max);
		return bad_value(c, r, s, range);
	}
	if (*val == 0 && r->min > 0)
		return bad_value(c, r, s, "must not be zero");
	if (*val > r->max && (r->max == UINT_MAX || r->max == UINT64_MAX))
		return bad_value(c, r, s, "number too large");
	if (*val > r->max) {
		char most[64];

		snprintf(most, sizeof(most), "at most %" PRIu64, r->max);
		return bad_value(c, r, s, most);
	}
	why = r->check ? r->check(*val) : NULL;
	return why ? bad_value(c, r, s, why) : 0;
}

/* Store a value option's value; returns 0 or EXIT_USAGE. */
static int set_value(struct cli *c, const struct opt_row *r, const char *s)
{
	void *f = field_of(c, r->field);
	uint64_t val;
	int ret = parse_value(c, r, s, &val);

	if (ret)
		return ret;
	if (r->kind == OPT_SIZE)
		*(uint64_t *)f = val;
	else
		*(unsigned int *)f = (unsigned int)val; /* max checked */
	return 0;
}

/*
 * Store the file name of row r.  "-" alone stands for standard input or
 * output; any other value starting with '-' is an option typed where the
 * file name was forgotten ("--plot -a"), refused rather than taken for a
 * file.  Returns 0 or EXIT_USAGE.
 */
static int set_file(struct cli *c, const struct opt_row *r, const char *val)
{
	if (val[0] == '-' && val[1])
		return usage_error(c->err,
				   "option '--%s' needs a file name, not '%s' (for a file of that name write ./%s)",
				   r->name, val, val);
	if (r->dash_none && !strcmp(val, "-"))
		val = NULL;
	*(const char **)field_of(c, r->field) = val;
	return 0;
}

/*
 * Do what row r says with its value val (NULL: none given).  Returns -1
 * to go on, or an exit status as opt_parse().
 */
static int apply(struct cli *c, const struct opt_row *r, const char *val,
		 FILE *out)
{
	int *flag = r->flag == NO_FLAG ? NULL : field_of(c, r->flag);
	int ret = 0;

	if (flag)
		*flag = 1;
	switch (r->kind) {
	case OPT_MODE:
		c->tests |= r->mode;
		break;
	case OPT_FLAG:
		*(int *)field_of(c, r->field) = 1;
		break;
	case OPT_MORE:
		(*(int *)field_of(c, r->field))++;
		break;
	case OPT_SIZE:
	case OPT_NUMBER:
	case OPT_ORDER:
		ret = set_value(c, r, val);
		break;
	case OPT_FILE:
		ret = set_file(c, r, val);
		break;
	case OPT_TEXT:
		*(const char **)field_of(c, r->field) = val;
		break;
	case OPT_HELP:
		opt_print_help(out);
		return 0;
	case OPT_VERSION:
		fprintf(out, "flashbench %s\n", FLASHBENCH_VERSION);
		return 0;
	}
	return ret ? ret : -1;
}

/* getopt's value of row i. */
static int opt_val(size_t i)
{
	char s = opt_short(&opt_rows[i]);

	return s ? s : OPT_VAL_BASE + (int)i;
}

/* getopt's arguments, made from the table once. */
struct getopt_args {
	struct option longs[ARRAY_SIZE(opt_rows) + 1];
	char shorts[2 * ARRAY_SIZE(opt_rows) + 2];
};

static void getopt_args_make(struct getopt_args *g)
{
	size_t i, k = 0;

	memset(g, 0, sizeof(*g));
	g->shorts[k++] = ':';	/* ':' for a missing value, not '?' */
	for (i = 0; i < opt_rows_nr; i++) {
		const struct opt_row *r = &opt_rows[i];
		char s = opt_short(r);

		g->longs[i].name = opt_name(r);
		g->longs[i].has_arg = r->kind == OPT_TEXT ? optional_argument :
				      opt_takes_value(r) ? required_argument :
				      no_argument;
		g->longs[i].val = opt_val(i);
		if (!s || r->alias)
			continue;
		g->shorts[k++] = s;
		if (opt_takes_value(r))
			g->shorts[k++] = ':';
	}
}

/* The row getopt_long() found: by its index, or by its short letter. */
static const struct opt_row *row_of(int opt, int index)
{
	size_t i;

	if (index >= 0)
		return &opt_rows[index];
	for (i = 0; i < opt_rows_nr; i++)
		if (opt_val(i) == opt)
			return &opt_rows[i];
	return NULL;
}

int opt_parse(struct cli *c, int argc, char **argv, FILE *out)
{
	struct getopt_args g;
	char buf[256];

	getopt_args_make(&g);
	optind = 0;	/* full reset, so that we can be called again */
	opterr = 0;
	for (;;) {
		const struct opt_row *r;
		int opt, index = -1, ret;

		opt = getopt_long(argc, argv, g.shorts, g.longs, &index);
		if (opt == -1)
			break;
		r = opt == '?' || opt == ':' ? NULL : row_of(opt, index);
		if (!r)
			return usage_error_help(c->err, "%s",
					   getopt_problem(buf, sizeof(buf),
							  opt, argc, argv,
							  g.longs));
		ret = apply(c, r, optarg, out);
		if (ret >= 0)
			return ret;
	}
	if (c->survey) {	/* FILE... */
		c->files = argv + optind;
		c->files_nr = (size_t)(argc - optind);
		return -1;
	}
	if (optind < argc)
		c->device = argv[optind++];
	if (optind < argc)
		return usage_error_help(c->err,
				   "unexpected argument '%s': only one DEVICE",
				   argv[optind]);
	return -1;
}

/* ---- --help ---- */

/* What --help says before, between and after the rows. */
static const char help_head[] =
"\nUsage:\n"
" flashbench [options] <device>\n"
" flashbench [options] --simulate[=<spec>]\n"
" flashbench --survey [--csv|--markdown|--json] <file|dir>...\n"
"\n"
"Identify characteristics of flash media (erase block and page size,\n"
"number of open erase blocks, FAT area) by timing reads and writes.\n"
"\n";

static const char *const section_head[SEC_NR] = {
	[SEC_TESTS] = NULL,	/* tests_head(): the table of tests' order */
	[SEC_BEYOND] = "Beyond the classic tests:\n",
	[SEC_OPTIONS] = "Options:\n",
	[SEC_LAST] = "",
};

static const char help_tail[] =
"\nSizes take a K, M, G or T suffix (KiB, MiB, GiB, TiB) or 0x for hex.\n";

/* The column the help texts start at. */
#define HELP_COL 29

/* " -b, --blocksize <size>" and its aliases, into buf. */
static void help_label(char *buf, size_t len, size_t i)
{
	const struct opt_row *r = &opt_rows[i];
	char s = opt_short(r);
	size_t k, n;

	if (s)
		n = (size_t)snprintf(buf, len, " -%c, --%s", s, opt_name(r));
	else
		n = (size_t)snprintf(buf, len, "     --%s", opt_name(r));
	for (k = i + 1; k < opt_rows_nr && opt_rows[k].alias && n < len; k++)
		n += (size_t)snprintf(buf + n, len - n, ", --%s",
				      opt_name(&opt_rows[k]));
	if (r->arg && n < len)
		snprintf(buf + n, len - n, r->kind == OPT_TEXT ? "[=%s]" :
			 " %s", r->arg);
}

/* A value option's default as its help says it: "16KiB", "8". */
static void help_default(char *buf, const struct opt_row *r)
{
	if (r->kind == OPT_SIZE)
		fmt_size(buf, r->def);
	else
		snprintf(buf, FMT_LEN, "%" PRIu64, r->def);
}

/* A row's help text, each line after the first indented to HELP_COL. */
static void help_text(FILE *out, const struct opt_row *r)
{
	const char *p;
	char def[FMT_LEN];

	for (p = r->help; *p; p++) {
		if (*p == '\n') {
			fprintf(out, "\n%*s", HELP_COL, "");
		} else if (p[0] == '%' && p[1] == 'D') {
			help_default(def, r);
			fputs(def, out);
			p++;
		} else {
			fputc(*p, out);
		}
	}
	fputc('\n', out);
}

/* "Tests (run in this order: -s, -f, ...):", as run_tests() runs them. */
static void tests_head(FILE *out)
{
	const char *sep = "";
	size_t i;

	fputs("Tests (run in this order: ", out);
	for (i = 0; i < test_table_nr; i++) {
		if (!test_table[i]->short_option)
			continue;	/* --auto: a section of its own */
		fprintf(out, "%s-%c", sep, test_table[i]->short_option);
		sep = ", ";
	}
	fputs("):\n", out);
}

void opt_print_help(FILE *out)
{
	char label[128];
	size_t i;
	int s;

	fputs(help_head, out);
	for (s = 0; s < SEC_NR; s++) {
		if (s)
			fputc('\n', out);
		if (section_head[s])
			fputs(section_head[s], out);
		else
			tests_head(out);
		for (i = 0; i < opt_rows_nr; i++) {
			if (opt_rows[i].section != (enum opt_section)s ||
			    opt_rows[i].alias)
				continue;
			help_label(label, sizeof(label), i);
			fprintf(out, "%-*s ", HELP_COL - 1, label);
			help_text(out, &opt_rows[i]);
		}
	}
	fputs(help_tail, out);
}
