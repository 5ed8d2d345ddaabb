// SPDX-License-Identifier: GPL-2.0-only
/*
 * The writing tests (-O, -f, -p) on the simulated card: each must recover
 * what was planted in the card (open AUs, random-order open AUs, FAT
 * area), print the classic table, and overwrite exactly the byte ranges
 * bench_write_ranges() announces.
 */
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "format.h"
#include "progs.h"
#include "vm.h"
#include "recdev.h"
#include "util.h"

#define MiB (1ULL << 20)
#define KiB (1ULL << 10)

/* ---- parsing the printed table ---- */

/* Undo fmt_rate(): "8.79M/s" -> 8.79e6.  Returns 0 or -EINVAL. */
static int parse_rate(const char *s, double *v)
{
	static const struct {
		const char *suffix;
		double mult;
	} units[] = {
		{ "B/s", 1 }, { "K/s", 1e3 }, { "M/s", 1e6 }, { "G/s", 1e9 },
	};
	char *end;
	size_t i;
	double x = strtod(s, &end);

	if (end == s)
		return -EINVAL;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].suffix)) {
			*v = x * units[i].mult;
			return 0;
		}
	return -EINVAL;
}

/* Undo fmt_size(): "1.5MiB" -> 1572864.  Returns 0 or -EINVAL. */
static int parse_size_cell(const char *s, double *v)
{
	static const struct {
		const char *suffix;
		double mult;
	} units[] = {
		{ "B", 1 }, { "KiB", 1024.0 }, { "MiB", 1048576.0 },
		{ "GiB", 1073741824.0 },
	};
	char *end;
	size_t i;
	double x = strtod(s, &end);

	if (end == s)
		return -EINVAL;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].suffix)) {
			*v = x * units[i].mult;
			return 0;
		}
	return -EINVAL;
}

#define MAX_ROWS 32
#define MAX_COLS 16

/* A printed table, split into cells. */
struct table {
	size_t nrows;
	size_t ncols[MAX_ROWS];
	char cell[MAX_ROWS][MAX_COLS][FMT_LEN];
};

/*
 * Split classic write-table output into cells, failing the test unless
 * every cell is "%-7s " (so every line ends in a space) and every line
 * ends in a newline.
 */
static void split_table(const char *out, struct table *t)
{
	const char *p = out;

	memset(t, 0, sizeof(*t));
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t c = 0;

		ck_assert_msg(nl, "unterminated line: '%s'", p);
		ck_assert_uint_lt(t->nrows, MAX_ROWS);
		while (p < nl) {
			size_t len = strcspn(p, " \n"), pad;

			ck_assert_msg(len > 0 && len < FMT_LEN,
				      "bad cell in '%.*s'", (int)(nl - p), p);
			ck_assert_uint_lt(c, MAX_COLS);
			memcpy(t->cell[t->nrows][c], p, len);
			t->cell[t->nrows][c][len] = '\0';
			p += len;
			/* bytes, not characters: "µs" cells are not used here */
			pad = len < 7 ? 7 - len + 1 : 1;
			ck_assert_msg(strspn(p, " ") == pad,
				      "cell '%s' padded wrongly in row %zu",
				      t->cell[t->nrows][c], t->nrows);
			p += pad;
			c++;
		}
		t->ncols[t->nrows++] = c;
		p = nl + 1;
	}
}

/* The rate in a cell, failing the test if it is not one. */
static double rate_of(const struct table *t, size_t row, size_t col)
{
	double v;

	ck_assert_uint_lt(col, t->ncols[row]);
	ck_assert_msg(parse_rate(t->cell[row][col], &v) == 0,
		      "row %zu col %zu: '%s' is not a rate", row, col,
		      t->cell[row][col]);
	return v;
}

/* ---- running a test ---- */

struct wrun {
	char *out;
	size_t out_len;
	struct table t;
	struct vm_table tab;
	char err[256];
	int ret;
};

static int debug(void)
{
	return getenv("WRITES_DEBUG") != NULL;
}

/* Run a writing test on the simulated card described by spec. */
static void run_on(struct wrun *w, const char *spec, unsigned int test,
		   const struct bench_opts *o)
{
	struct device *dev = sim_card(spec);
	FILE *f;

	memset(w, 0, sizeof(*w));
	f = open_memstream(&w->out, &w->out_len);
	ck_assert_ptr_nonnull(f);
	w->ret = progs_run(dev, test, o, f, &w->tab, w->err, sizeof(w->err));
	fclose(f);
	dev_close(dev);
	if (debug())
		fprintf(stderr, "--- %s (nr %u%s):\n%s", spec, o->open_au_nr,
			o->random ? ", random" : "", w->out);
	ck_assert_msg(w->ret == 0, "%s: %s", spec, w->err);
	split_table(w->out, &w->t);
	/* the printed table and the raw one agree */
	ck_assert_uint_eq(w->tab.nrows, w->t.nrows);
}

static void wrun_done(struct wrun *w)
{
	free(w->out);
	vm_table_free(&w->tab);
}

/*
 * The throughput of row r (column c) from the printed cell, checked
 * against the raw number behind it (three significant digits).
 */
static double rate_at(const struct wrun *w, size_t r, size_t c)
{
	double printed = rate_of(&w->t, r, c);
	const struct vm_cell *cell;

	ck_assert_uint_lt(c, w->tab.rows[r].ncells);
	cell = &w->tab.rows[r].cells[c];
	ck_assert_int_eq(cell->unit, VM_UNIT_BPS);
	ck_assert_double_eq_tol(printed, cell->value, cell->value * 0.006);
	return printed;
}

/* Options of the open-AU test on an AU of erase bytes. */
static void open_au_opts(struct bench_opts *o, uint64_t erase,
			 unsigned int nr, int random)
{
	bench_opts_default(o);
	o->erasesize_byte = erase;
	o->blocksize_byte = 16 * KiB;
	o->open_au_nr = nr;
	o->random = random;
	o->offset_byte = (16 * MiB + erase - 1) / erase * erase;
	o->log = NULL;
}

/* Rows of -O: erase size .. 16K; first and last rates. */
static void open_au_rates(const char *spec, uint64_t erase,
			  unsigned int nr, int random, double *large,
			  double *small)
{
	struct bench_opts o;
	struct wrun w;
	size_t rows = 0, i;
	uint64_t len;

	for (len = erase; len >= 16 * KiB; len /= 2)
		rows++;
	open_au_opts(&o, erase, nr, random);
	run_on(&w, spec, BENCH_OPEN_AU, &o);
	ck_assert_uint_eq(w.t.nrows, rows);
	for (i = 0; i < rows; i++) {
		double size;

		ck_assert_uint_eq(w.t.ncols[i], 2);
		ck_assert_int_eq(parse_size_cell(w.t.cell[i][0], &size), 0);
		ck_assert_double_eq(size, (double)(erase >> i));
		ck_assert_double_eq(w.tab.rows[i].cells[0].value,
				    (double)(erase >> i));
		rate_at(&w, i, 1);
	}
	*large = rate_at(&w, 0, 1);
	*small = rate_at(&w, rows - 1, 1);
	wrun_done(&w);
}

/* ---- -O ---- */

static const uint64_t erase_sizes[] = { 2 * MiB, 4 * MiB, 8 * MiB };

START_TEST(test_open_au_linear)
{
	uint64_t erase = erase_sizes[_i / 8];
	unsigned int open = _i % 8 + 1;
	double large, small;
	char spec[160];

	snprintf(spec, sizeof(spec),
		 "size=1G,erase=%lluM,page=16K,open=%u,open_random=1,fat=0,noise=0",
		 (unsigned long long)(erase / MiB), open);
	/* as many AUs as the card keeps open: small writes stay fast */
	open_au_rates(spec, erase, open, 0, &large, &small);
	ck_assert_msg(small * 2 >= large,
		      "%s nr=%u: %.0f B/s at 16K vs %.0f B/s at erase size",
		      spec, open, small, large);
	/* one more: they collapse */
	open_au_rates(spec, erase, open + 1, 0, &large, &small);
	ck_assert_msg(small * 4 <= large,
		      "%s nr=%u: %.0f B/s at 16K vs %.0f B/s at erase size",
		      spec, open + 1, small, large);
}
END_TEST

START_TEST(test_open_au_random)
{
	uint64_t erase = erase_sizes[_i / 6];
	unsigned int open_random = _i % 6 + 1, open = open_random + 2;
	double large, small;
	char spec[160];

	snprintf(spec, sizeof(spec),
		 "size=1G,erase=%lluM,page=16K,open=%u,open_random=%u,fat=0,noise=0",
		 (unsigned long long)(erase / MiB), open, open_random);
	open_au_rates(spec, erase, open_random, 1, &large, &small);
	ck_assert_msg(small * 2 >= large,
		      "%s -r nr=%u: %.0f B/s at 16K vs %.0f B/s", spec,
		      open_random, small, large);
	open_au_rates(spec, erase, open_random + 1, 1, &large, &small);
	ck_assert_msg(small * 4 <= large,
		      "%s -r nr=%u: %.0f B/s at 16K vs %.0f B/s", spec,
		      open_random + 1, small, large);
	/* in linear order the same card still keeps open_random + 1 */
	open_au_rates(spec, erase, open_random + 1, 0, &large, &small);
	ck_assert_msg(small * 2 >= large,
		      "%s nr=%u: %.0f B/s at 16K vs %.0f B/s", spec,
		      open_random + 1, small, large);
}
END_TEST

START_TEST(test_open_au_noisy)
{
	const char *spec = "size=1G,erase=4M,open=5,open_random=3,noise=5,seed=7";
	double large, small;

	/* 5% timing noise does not blur the verdicts */
	open_au_rates(spec, 4 * MiB, 5, 0, &large, &small);
	ck_assert_double_ge(small * 2, large);
	open_au_rates(spec, 4 * MiB, 6, 0, &large, &small);
	ck_assert_double_le(small * 4, large);
	open_au_rates(spec, 4 * MiB, 3, 1, &large, &small);
	ck_assert_double_ge(small * 2, large);
	open_au_rates(spec, 4 * MiB, 4, 1, &large, &small);
	ck_assert_double_le(small * 4, large);
}
END_TEST

START_TEST(test_open_au_sdxc_erase)
{
	static const char *const want[] = {
		"12MiB", "6MiB", "3MiB", "1.5MiB", "768KiB", "384KiB",
		"192KiB", "96KiB", "48KiB",
	};
	struct bench_opts o;
	struct wrun w;
	size_t i;

	/* 12 MiB AUs halve to the smallest multiple of the block size */
	open_au_opts(&o, 12 * MiB, 2, 0);
	ck_assert_uint_eq(o.offset_byte, 24 * MiB);
	run_on(&w, "size=1536M,erase=12M,page=16K,open=4,fat=0,noise=0",
	       BENCH_OPEN_AU, &o);
	ck_assert_uint_eq(w.t.nrows, 9);
	for (i = 0; i < 9; i++) {
		ck_assert_str_eq(w.t.cell[i][0], want[i]);
		ck_assert_double_eq(w.tab.rows[i].cells[0].value,
				    (double)((12 * MiB) >> i));
	}
	wrun_done(&w);
}
END_TEST

START_TEST(test_open_au_verbose)
{
	struct device *dev = sim_card("size=256M,noise=0");
	struct bench_opts o;
	char *log = NULL, *out = NULL;
	size_t log_len = 0, out_len = 0;
	FILE *lf = open_memstream(&log, &log_len);
	FILE *of = open_memstream(&out, &out_len);

	open_au_opts(&o, 4 * MiB, 2, 1);
	o.blocksize_byte = 1 * MiB;
	o.verbose = 2;
	o.log = lf;
	ck_assert_int_eq(bench_open_au(dev, &o, of), 0);
	fclose(lf);
	fclose(of);
	/* -vv prints the program: sizes, random chunks, random AUs */
	ck_assert_ptr_nonnull(strstr(log, "flashbench: vm: len_pow2_down min=1048576 max=4194304\n"));
	ck_assert_ptr_nonnull(strstr(log, "flashbench: vm:             off_rand off=0 stride=length count=span/length span=4194304\n"));
	ck_assert_ptr_nonnull(strstr(log, "flashbench: vm:               off_rand off=16777216 stride=50331648 count=2\n"));
	ck_assert_ptr_nonnull(strstr(log, "write_rand\n"));
	ck_assert_ptr_null(strstr(out, "off_rand"));
	ck_assert_uint_eq(count_str(out, "\n"), 3);
	ck_assert_int_eq(strncmp(out, "4MiB    ", 8), 0);
	free(log);
	free(out);
	dev_close(dev);
}
END_TEST

/* ---- -f ---- */

/* Run -f on spec; the rates of the smallest size, one per AU. */
static void find_fat_rates(const char *spec, double *rates, size_t n)
{
	struct bench_opts o;
	struct wrun w;
	size_t i, last;

	bench_opts_default(&o);
	o.erasesize_byte = 4 * MiB;
	o.blocksize_byte = 16 * KiB;
	o.fat_nr = n;
	o.log = NULL;
	run_on(&w, spec, BENCH_FIND_FAT, &o);
	ck_assert_uint_eq(w.t.nrows, 9);	/* 4MiB .. 16KiB */
	for (i = 0; i < w.t.nrows; i++)
		ck_assert_uint_eq(w.t.ncols[i], n + 1);
	ck_assert_str_eq(w.t.cell[0][0], "4MiB");
	last = w.t.nrows - 1;
	ck_assert_str_eq(w.t.cell[last][0], "16KiB");
	for (i = 0; i < n; i++)
		rates[i] = rate_at(&w, last, i + 1);
	wrun_done(&w);
}

START_TEST(test_find_fat)
{
	double r[6], others = 0, lo = 1e30, hi = 0;
	size_t i;

	find_fat_rates("size=256M,erase=4M,open=4,fat=2,fat_start=0,noise=0",
		       r, 6);
	for (i = 2; i < 6; i++)
		others = r[i] > others ? r[i] : others;
	for (i = 0; i < 2; i++)
		ck_assert_msg(r[i] >= 1.25 * others,
			      "FAT AU %zu: %.0f B/s vs %.0f B/s", i, r[i],
			      others);

	/* no FAT area: no column stands out */
	find_fat_rates("size=256M,erase=4M,open=4,fat=0,noise=0", r, 6);
	for (i = 0; i < 6; i++) {
		lo = r[i] < lo ? r[i] : lo;
		hi = r[i] > hi ? r[i] : hi;
	}
	ck_assert_msg(hi <= 1.1 * lo, "%.0f .. %.0f B/s", lo, hi);
}
END_TEST

START_TEST(test_find_fat_elsewhere)
{
	double r[6], others = 0;
	size_t i;

	/* a FAT area in AUs 3 and 4 shows in columns 3 and 4 */
	find_fat_rates("size=256M,erase=4M,open=4,fat=2,fat_start=3,noise=0",
		       r, 6);
	for (i = 0; i < 6; i++)
		if (i != 3 && i != 4)
			others = r[i] > others ? r[i] : others;
	ck_assert_double_ge(r[3], 1.25 * others);
	ck_assert_double_ge(r[4], 1.25 * others);
}
END_TEST

/* ---- -p ---- */

START_TEST(test_program)
{
	static const char *const sizes[] = {
		"2MiB", "1MiB", "512KiB", "256KiB", "128KiB", "64KiB", "32KiB",
		"16KiB", "8KiB", "4KiB", "2KiB", "1KiB", "512B",
	};
	struct bench_opts o;
	struct wrun w;
	regex_t line_re, rate_re;
	size_t r, c;
	char *line, *save = NULL, *copy;

	bench_opts_default(&o);
	o.log = NULL;
	run_on(&w, "size=256M,noise=0", BENCH_PROGRAM, &o);
	ck_assert_uint_eq(w.t.nrows, 13);
	ck_assert_int_eq(regcomp(&rate_re,
				 "^[0-9]+(\\.[0-9]+)?[KMG]?/s$|^[0-9]+B/s$",
				 REG_EXTENDED | REG_NOSUB), 0);
	/* a size cell then 8 rate cells, each "%-7s " */
	ck_assert_int_eq(regcomp(&line_re,
				 "^[0-9.]+(B|KiB|MiB) +"
				 "([0-9.]+[KMG]?B?/s +){8}$",
				 REG_EXTENDED | REG_NOSUB), 0);
	copy = strdup(w.out);
	for (r = 0, line = strtok_r(copy, "\n", &save); line;
	     r++, line = strtok_r(NULL, "\n", &save)) {
		ck_assert_msg(regexec(&line_re, line, 0, NULL, 0) == 0,
			      "line %zu: '%s'", r, line);
		ck_assert_uint_lt(r, 13);
		ck_assert_str_eq(w.t.cell[r][0], sizes[r]);
		ck_assert_uint_eq(w.t.ncols[r], 9);
		ck_assert_uint_eq(w.tab.rows[r].ncells, 9);
		for (c = 1; c < 9; c++) {
			ck_assert_msg(regexec(&rate_re, w.t.cell[r][c], 0,
					      NULL, 0) == 0, "'%s'",
				      w.t.cell[r][c]);
			ck_assert_double_gt(rate_at(&w, r, c), 0);
		}
	}
	ck_assert_uint_eq(r, 13);
	/* reads are faster than writes on this card (25 vs 12 MB/s) */
	ck_assert_double_gt(rate_at(&w, 0, 4), rate_at(&w, 0, 1));
	free(copy);
	regfree(&line_re);
	regfree(&rate_re);
	wrun_done(&w);
}
END_TEST

/* ---- the ranges ---- */

START_TEST(test_write_ranges)
{
	struct bench_range r[8];
	struct bench_opts o;
	uint64_t end;

	bench_opts_default(&o);
	o.erasesize_byte = 4 * MiB;
	o.open_au_nr = 3;
	o.offset_byte = 16 * MiB;
	ck_assert_int_eq(bench_write_ranges(BENCH_OPEN_AU, &o, 1ULL << 30, r,
					    8), 3);
	ck_assert_uint_eq(r[0].start_byte, 16 * MiB);
	ck_assert_uint_eq(r[0].end_byte, 20 * MiB);
	ck_assert_uint_eq(r[1].start_byte, 64 * MiB);
	ck_assert_uint_eq(r[1].end_byte, 68 * MiB);
	ck_assert_uint_eq(r[2].start_byte, 112 * MiB);
	ck_assert_uint_eq(r[2].end_byte, 116 * MiB);
	/* exactly up to the end is fine, a byte further is not */
	end = 116 * MiB;
	ck_assert_int_eq(bench_write_ranges(BENCH_OPEN_AU, &o, end, r, 8), 3);
	ck_assert_int_eq(bench_write_ranges(BENCH_OPEN_AU, &o, end - 512, r,
					    8), -EINVAL);
	/* counting only, and a too-small array */
	ck_assert_int_eq(bench_write_ranges(BENCH_OPEN_AU, &o, end, NULL, 0),
			 3);
	ck_assert_int_eq(bench_write_ranges(BENCH_OPEN_AU, &o, end, r, 2),
			 -ENOSPC);

	o.fat_nr = 6;
	ck_assert_int_eq(bench_write_ranges(BENCH_FIND_FAT, &o, 1ULL << 30, r,
					    8), 1);
	ck_assert_uint_eq(r[0].start_byte, 0);
	ck_assert_uint_eq(r[0].end_byte, 24 * MiB);
	ck_assert_int_eq(bench_write_ranges(BENCH_FIND_FAT, &o, 20 * MiB, r,
					    8), -EINVAL);

	ck_assert_int_eq(bench_write_ranges(BENCH_PROGRAM, &o, 20 * MiB, r,
					    8), 1);
	ck_assert_uint_eq(r[0].start_byte, 16 * MiB);
	ck_assert_uint_eq(r[0].end_byte, 20 * MiB);
	ck_assert_int_eq(bench_write_ranges(BENCH_PROGRAM, &o,
					    20 * MiB - 512, r, 8), -EINVAL);

	/* nonsense options and tests */
	ck_assert_int_eq(bench_write_ranges(BENCH_ALIGN, &o, 1ULL << 30, r,
					    8), -EINVAL);
	o.open_au_nr = 0;
	ck_assert_int_eq(bench_write_ranges(BENCH_OPEN_AU, &o, 1ULL << 30, r,
					    8), -EINVAL);
	o.open_au_nr = 2;
	o.offset_byte = UINT64_MAX - MiB;
	ck_assert_int_eq(bench_write_ranges(BENCH_OPEN_AU, &o, UINT64_MAX, r,
					    8), -EINVAL);
	o.offset_byte = 0;
	o.erasesize_byte = 24 * KiB;	/* not a multiple of 16K blocks */
	ck_assert_int_eq(bench_write_ranges(BENCH_FIND_FAT, &o, 1ULL << 30, r,
					    8), -EINVAL);
}
END_TEST

static int cmp_range(const void *a, const void *b)
{
	const struct bench_range *x = a, *y = b;

	if (x->start_byte != y->start_byte)
		return x->start_byte < y->start_byte ? -1 : 1;
	return 0;
}

/* Run test on a recording device; its writes must be exactly ranges. */
static void check_covers(unsigned int test, const struct bench_opts *o)
{
	struct rec_dev *r = rec_open(1ULL << 30);
	struct bench_range want[16], *w;
	size_t i, nw = 0, m = 0;
	int n;

	n = bench_write_ranges(test, o, r->dev.size_byte, want, 16);
	ck_assert_int_gt(n, 0);
	ck_assert_int_eq(progs_run(&r->dev, test, o, NULL, NULL, NULL, 0), 0);
	ck_assert_uint_eq(rec_count(r, REC_DISCARD), 0);
	w = calloc(r->n, sizeof(*w));
	ck_assert_ptr_nonnull(w);
	for (i = 0; i < r->n; i++)
		if (r->log[i].op == REC_WRITE)
			w[nw++] = (struct bench_range){
				r->log[i].off, r->log[i].off + r->log[i].len };
	ck_assert_uint_gt(nw, 0);
	/* merge what was written */
	qsort(w, nw, sizeof(*w), cmp_range);
	for (i = 1; i < nw; i++) {
		if (w[i].start_byte <= w[m].end_byte) {
			if (w[i].end_byte > w[m].end_byte)
				w[m].end_byte = w[i].end_byte;
		} else {
			w[++m] = w[i];
		}
	}
	ck_assert_uint_eq(m + 1, (size_t)n);
	for (i = 0; i < (size_t)n; i++) {
		ck_assert_uint_eq(w[i].start_byte, want[i].start_byte);
		ck_assert_uint_eq(w[i].end_byte, want[i].end_byte);
	}
	free(w);
	dev_close(&r->dev);
}

START_TEST(test_ranges_are_what_is_written)
{
	struct bench_opts o;

	bench_opts_default(&o);
	o.log = NULL;
	o.erasesize_byte = 2 * MiB;
	o.blocksize_byte = 64 * KiB;
	o.open_au_nr = 4;
	o.offset_byte = 16 * MiB;
	check_covers(BENCH_OPEN_AU, &o);
	o.random = 1;
	o.erasesize_byte = 3 * MiB;
	o.offset_byte = 3 * MiB;
	check_covers(BENCH_OPEN_AU, &o);
	o.fat_nr = 3;
	check_covers(BENCH_FIND_FAT, &o);
	o.random = 0;
	check_covers(BENCH_FIND_FAT, &o);
	check_covers(BENCH_PROGRAM, &o);
}
END_TEST

START_TEST(test_program_4k_sectors)
{
	struct rec_dev *r = rec_open(1ULL << 30);
	struct bench_opts o;
	struct table t;
	char *out = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&out, &len);

	/* a 4Kn device cannot write 512 bytes: -p stops at 4KiB */
	r->dev.logical_block_size = 4096;
	bench_opts_default(&o);
	o.log = NULL;
	ck_assert_int_eq(bench_program(&r->dev, &o, f), 0);
	fclose(f);
	split_table(out, &t);
	ck_assert_uint_eq(t.nrows, 10);
	ck_assert_str_eq(t.cell[0][0], "2MiB");
	ck_assert_str_eq(t.cell[9][0], "4KiB");
	for (i = 0; i < r->n; i++) {
		ck_assert_uint_eq(r->log[i].off % 4096, 0);
		ck_assert_uint_eq(r->log[i].len % 4096, 0);
	}
	free(out);
	dev_close(&r->dev);
}
END_TEST

START_TEST(test_refuses_past_end)
{
	struct device *dev = sim_card("size=64M,erase=4M,noise=0");
	struct bench_opts o;
	char err[256];

	bench_opts_default(&o);
	o.log = NULL;
	o.open_au_nr = 2;
	o.offset_byte = 16 * MiB;	/* second AU at 64M: past the end */
	ck_assert_int_eq(progs_run(dev, BENCH_OPEN_AU, &o, NULL, NULL, err,
				   sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "past the end"));
	o.fat_nr = 17;
	ck_assert_int_eq(bench_find_fat(dev, &o, NULL), -EINVAL);
	o.erasesize_byte = 8 * KiB;	/* smaller than 2 blocks */
	ck_assert_int_eq(progs_run(dev, BENCH_FIND_FAT, &o, NULL, NULL, err,
				   sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "invalid options for the test");
	ck_assert_uint_eq(dev->io_count, 0);
	dev_close(dev);
}
END_TEST

Suite *writes_suite(void)
{
	Suite *s = suite_create("writes");
	TCase *tc = tcase_create("open_au");
	TCase *tf = tcase_create("find_fat");
	TCase *tp = tcase_create("program");
	TCase *tr = tcase_create("ranges");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_open_au_linear, 0, 24);
	tcase_add_loop_test(tc, test_open_au_random, 0, 18);
	tcase_add_test(tc, test_open_au_noisy);
	tcase_add_test(tc, test_open_au_sdxc_erase);
	tcase_add_test(tc, test_open_au_verbose);
	suite_add_tcase(s, tc);
	tcase_add_test(tf, test_find_fat);
	tcase_add_test(tf, test_find_fat_elsewhere);
	suite_add_tcase(s, tf);
	tcase_add_test(tp, test_program);
	tcase_add_test(tp, test_program_4k_sectors);
	suite_add_tcase(s, tp);
	tcase_add_test(tr, test_write_ranges);
	tcase_add_test(tr, test_ranges_are_what_is_written);
	tcase_add_test(tr, test_refuses_past_end);
	suite_add_tcase(s, tr);
	return s;
}
