// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the classic tests show on every kind of card.  The simulated card
 * offers the ways cards differ inside (ooo=, close=, evict=, fullclose,
 * fat_kind=, fat_gain=; doc/simulate.md); an expert reads the classic
 * -O, -O -r, -f and -f -r tables on each, and must read what was
 * planted:
 *
 *   -O     full speed at small writes with as many AUs as the card keeps
 *          open, a collapse with one more: whatever the card does out of
 *          order, on closing or on choosing which AU to close;
 *   -O -r  on a card that turns AUs to random mode (today's, ooo=random)
 *          the same with the AUs it keeps open out of order; on one that
 *          merges or copies the whole AU at every write out of order, a
 *          collapse with one AU (it keeps none open out of order); on one
 *          that copies what the AU holds so far, a cost at every write,
 *          the same with one AU as with three (no limit to find);
 *   -f     the FAT AU faster in linear order when it gains speed there;
 *   -f -r  the FAT AU far faster in whole-AU random order when it needs
 *          no random-mode slot (fat_gain both or slot), never so when it
 *          gains speed alone.
 *
 * These are the signatures --auto's probes must read as well (the hard
 * sweep's mechanics draw, SWEEP_MECH=1); here they are pinned on the
 * card itself, through the classic tests as this program runs them.
 *
 * Today's cards (doc/simulate.md), read the same way:
 *
 *   page-mapped (ftl=page): -O shows no collapse, with one AU more than
 *          a block-mapped card keeps open nor with sixteen; -O -r costs
 *          what -O costs (order is nothing to it); -f and -f -r find no
 *          FAT AU; -a shows the flash's page and erase block as on a
 *          block-mapped card (reads see the flash, not the map); -p's
 *          writes of half the mapping unit cost a read-modify-write of
 *          it: their rate falls to under half the unit's;
 *   a pSLC cache in front of AUs (slc=): -O runs at the cache's rate
 *          until the cache is full, then at the card's own; one AU over
 *          the limit collapses only from the row the cache filled in,
 *          whatever the block size there: that row moves with the AUs
 *          written (cache / (AUs * erase)), not with the limit, which is
 *          still behind it;
 *          on a page-mapped card the cache's rate, then the native one:
 *          no collapse at all;
 *   page-mapped nearly full (spare=2): -O as with room to spare, a row
 *          or two dipping with sixteen AUs while the card collects;
 *   write stalls (stall_writes=): -O's small writes are slower, not
 *          collapsed; the limit is where it was, out of order too; in -f
 *          a stall slows one cell, and the FAT AU stays the fastest;
 *   maintenance after idle, 4 KiB sectors: the classic tests never leave
 *          the card idle and write whole 4 KiB blocks: the same -O, -f
 *          and -f -r tables; -a under a sector's blocks is refused.
 */
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "c.h"
#include "util.h"
#include "wtable.h"

#define OPEN 4U		/* AUs kept open in order */
#define OPEN_RANDOM 2U	/* out of order, on a card with random mode */

static const char *const ooo[] = { "", ",ooo=random", ",ooo=merge",
				   ",ooo=copy-whole", ",ooo=copy-written" };
static const char *const closing[] = { "", ",close=rest", ",close=all" };
static const char *const evict[] = { "", ",evict=oldest" };
static const char *const fullclose[] = { "", ",fullclose=1" };

#define NR(a) (sizeof(a) / sizeof((a)[0]))

/* -O (random: -O -r) with nr AUs: the rates at 4 MiB and at 16 KiB. */
static void open_rates(const char *spec, unsigned int nr, int random,
		       double *large, double *small)
{
	struct bench_opts o;
	struct wrun w;

	bench_opts_default(&o);
	o.erasesize_byte = 4 * MiB;
	o.blocksize_byte = 16 * KiB;
	o.open_au_nr = nr;
	o.random = random;
	o.offset_byte = 16 * MiB;
	o.log = NULL;
	run_on(&w, spec, BENCH_OPEN_AU, &o);
	ck_assert_uint_eq(w.t.nrows, 9);	/* 4MiB .. 16KiB */
	*large = rate_at(&w, 0, 1);
	*small = rate_at(&w, w.t.nrows - 1, 1);
	wrun_done(&w);
}

/* Card _i of the product of the mechanics' forms. */
static void mech_spec(int i, char *spec, size_t len, size_t *ooo_form)
{
	size_t a = (size_t)i % NR(ooo), b = (size_t)i / NR(ooo) % NR(closing);
	size_t c = (size_t)i / NR(ooo) / NR(closing) % NR(evict);
	size_t d = (size_t)i / NR(ooo) / NR(closing) / NR(evict);

	snprintf(spec, len,
		 "size=1G,erase=4M,page=16K,open=%u,open_random=%u,fat=0,noise=0%s%s%s%s",
		 OPEN, OPEN_RANDOM, ooo[a], closing[b], evict[c],
		 fullclose[d]);
	*ooo_form = a;
}

START_TEST(test_classic_open_au)
{
	double large, fit, over, r1, r2, r3, big;
	char spec[200];
	size_t form;

	mech_spec(_i, spec, sizeof(spec), &form);

	/* -O: the collapse lies between OPEN and OPEN + 1 */
	open_rates(spec, OPEN, 0, &large, &fit);
	open_rates(spec, OPEN + 1, 0, &big, &over);
	ck_assert_msg(fit * 2 >= large, "%s: -O %u: %.3g at 16K, %.3g at 4M",
		      spec, OPEN, fit, large);
	ck_assert_msg(over * 10 <= fit, "%s: -O %u: %.3g at 16K, not below %.3g / 10",
		      spec, OPEN + 1, over, fit);

	open_rates(spec, 1, 1, &big, &r1);
	open_rates(spec, OPEN_RANDOM, 1, &big, &r2);
	open_rates(spec, OPEN_RANDOM + 1, 1, &big, &r3);
	switch (form) {
	case 0:		/* today's card: random mode, as ooo=random */
	case 1:
		ck_assert_msg(r2 * 2 >= fit && r3 * 10 <= r2,
			      "%s: -O -r: %.3g with %u AUs, %.3g with %u",
			      spec, r2, OPEN_RANDOM, r3, OPEN_RANDOM + 1);
		break;
	case 2:		/* a merge or a whole-AU copy at every write */
	case 3:
		ck_assert_msg(r1 * 10 <= fit,
			      "%s: -O -r with one AU: %.3g, not below %.3g / 10",
			      spec, r1, fit);
		break;
	default:	/* a copy of what the AU holds: a cost, no limit */
		ck_assert_msg(r1 * 1.25 <= fit && r1 * 5 >= fit,
			      "%s: -O -r with one AU: %.3g against %.3g in order",
			      spec, r1, fit);
		ck_assert_msg(r3 * 1.2 >= r1 && r3 <= r1 * 1.2,
			      "%s: -O -r: %.3g with 1 AU, %.3g with %u", spec,
			      r1, r3, OPEN_RANDOM + 1);
		break;
	}
}
END_TEST

/* -f (random: -f -r) on 4 AUs, FAT AU 1: the rates at 16 KiB. */
static void fat_rates(const char *spec, int random, double *r)
{
	struct bench_opts o;
	struct wrun w;
	size_t i;

	bench_opts_default(&o);
	o.erasesize_byte = 4 * MiB;
	o.blocksize_byte = 16 * KiB;
	o.fat_nr = 4;
	o.random = random;
	o.log = NULL;
	run_on(&w, spec, BENCH_FIND_FAT, &o);
	ck_assert_uint_eq(w.t.nrows, 9);
	for (i = 0; i < 4; i++)
		r[i] = rate_at(&w, w.t.nrows - 1, i + 1);
	wrun_done(&w);
}

static const char *const fat_kind[] = { "linear", "random", "both" };
static const char *const fat_gain[] = { "both", "speed", "slot" };

START_TEST(test_classic_find_fat)
{
	const size_t k = (size_t)_i % NR(fat_kind);
	const size_t g = (size_t)_i / NR(fat_kind) % NR(fat_gain);
	const size_t f = (size_t)_i / NR(fat_kind) / NR(fat_gain);
	const int in_order = k != 1 && g != 2;	/* linear speed gained */
	const int slot = k != 0 && g != 1;	/* random mode for free */
	double lin[4], rnd[4], others_l, others_r;
	char spec[200];

	snprintf(spec, sizeof(spec),
		 "size=1G,erase=4M,page=16K,open=%u,open_random=%u,fat=1,fat_start=1,noise=0,fat_kind=%s,fat_gain=%s%s",
		 OPEN, OPEN_RANDOM, fat_kind[k], fat_gain[g], ooo[f]);
	fat_rates(spec, 0, lin);
	fat_rates(spec, 1, rnd);
	others_l = (lin[0] + lin[2] + lin[3]) / 3;
	others_r = (rnd[0] + rnd[2] + rnd[3]) / 3;
	if (in_order)
		ck_assert_msg(lin[1] >= 1.3 * others_l,
			      "%s: -f: FAT AU %.3g, others %.3g", spec, lin[1],
			      others_l);
	else
		ck_assert_msg(lin[1] <= 1.1 * others_l,
			      "%s: -f: FAT AU %.3g, others %.3g", spec, lin[1],
			      others_l);
	if (slot)
		ck_assert_msg(rnd[1] >= 1.5 * others_r,
			      "%s: -f -r: FAT AU %.3g, others %.3g", spec,
			      rnd[1], others_r);
	else
		ck_assert_msg(rnd[1] < 1.5 * others_r,
			      "%s: -f -r: FAT AU %.3g, others %.3g", spec,
			      rnd[1], others_r);
}
END_TEST

/* -O (random: -O -r) with nr AUs: every row's rate; returns the rows. */
static size_t open_rows(const char *spec, unsigned int nr, int random,
			double *rate)
{
	struct bench_opts o;
	struct wrun w;
	size_t r;

	bench_opts_default(&o);
	o.erasesize_byte = 4 * MiB;
	o.blocksize_byte = 16 * KiB;
	o.open_au_nr = nr;
	o.random = random;
	o.offset_byte = 16 * MiB;
	o.log = NULL;
	run_on(&w, spec, BENCH_OPEN_AU, &o);
	for (r = 0; r < w.t.nrows; r++)
		rate[r] = rate_at(&w, r, 1);
	r = w.t.nrows;
	wrun_done(&w);
	return r;
}

#define TODAY "size=1G,erase=4M,page=16K,open=4,open_random=2,noise=0"

static const char *const page_map[] = { "4K", "16K" };

START_TEST(test_classic_page_mapped)
{
	double large, fit, over, many, big, r1, r16, lin[4], rnd[4], others;
	char spec[200];

	snprintf(spec, sizeof(spec), TODAY ",fat=1,fat_start=1,ftl=page,map=%s",
		 page_map[_i]);
	/* -O: no limit to find */
	open_rates(spec, OPEN, 0, &large, &fit);
	open_rates(spec, OPEN + 1, 0, &big, &over);
	open_rates(spec, 16, 0, &big, &many);
	ck_assert_msg(fit * 2 >= large && over >= fit * 0.95 &&
		      many >= fit * 0.95,
		      "%s: -O at 16K: %.3g with %u AUs, %.3g with %u, %.3g with 16 (%.3g at 4M)",
		      spec, fit, OPEN, over, OPEN + 1, many, large);
	/* -O -r: out of order costs what in order does */
	open_rates(spec, 1, 1, &big, &r1);
	open_rates(spec, 16, 1, &big, &r16);
	ck_assert_msg(r1 >= fit * 0.95 && r16 >= fit * 0.95,
		      "%s: -O -r at 16K: %.3g with 1 AU, %.3g with 16, %.3g in order",
		      spec, r1, r16, fit);
	/* -f, -f -r: no FAT area */
	fat_rates(spec, 0, lin);
	fat_rates(spec, 1, rnd);
	others = (lin[0] + lin[2] + lin[3]) / 3;
	ck_assert_msg(lin[1] <= 1.05 * others && lin[1] >= 0.95 * others,
		      "%s: -f: AU 1 %.3g, others %.3g", spec, lin[1], others);
	others = (rnd[0] + rnd[2] + rnd[3]) / 3;
	ck_assert_msg(rnd[1] <= 1.05 * others && rnd[1] >= 0.95 * others,
		      "%s: -f -r: AU 1 %.3g, others %.3g", spec, rnd[1],
		      others);
}
END_TEST

/*
 * -p's linear writes of zeros at the sizes of rows r and r + 1 (half
 * of it): the rate of the smaller against the larger.
 */
static double program_halving(const char *spec, size_t r)
{
	struct bench_opts o;
	struct wrun w;
	double half;

	bench_opts_default(&o);
	o.log = NULL;
	run_on(&w, spec, BENCH_PROGRAM, &o);
	ck_assert_uint_gt(w.t.nrows, r + 1);
	half = rate_at(&w, r + 1, 1) / rate_at(&w, r, 1);
	wrun_done(&w);
	return half;
}

/*
 * -p on a page-mapped card: a write of half the mapping unit programs the
 * whole unit and first reads the rest of it (a read-modify-write), so its
 * rate drops to well under half the unit's, where a block-mapped card's
 * write of half its page programs the page alone: exactly half.  An
 * expert reads the unit where the rate first falls faster than the size.
 */
START_TEST(test_classic_page_program)
{
	static const size_t unit_row[] = { 9, 7 };	/* 4 KiB, 16 KiB */
	double page, block;
	char spec[200];

	snprintf(spec, sizeof(spec), TODAY ",fat=0,ftl=page,map=%s",
		 page_map[_i]);
	page = program_halving(spec, unit_row[_i]);
	block = program_halving(TODAY ",fat=0", 7);	/* its 16 KiB page */
	ck_assert_msg(page < 0.45 && block > 0.48 && block < 0.52,
		      "%s: -p: half the unit at x%.3g of the unit's rate, half the page of a block-mapped card at x%.3g",
		      spec, page, block);
	/* above the unit a write programs whole units: no such drop */
	ck_assert_double_ge(program_halving(spec, unit_row[_i] - 1), 0.5);
}
END_TEST

/* -a on spec prints what it prints on the plain block-mapped card. */
static void same_align(const char *spec, const char *block_size)
{
	struct fb_run a, b;
	char args[256];

	snprintf(args, sizeof(args), "-a -b %s --simulate=%s", block_size,
		 spec);
	fb_run(args, &a);
	snprintf(args, sizeof(args), "-a -b %s --simulate=" TODAY,
		 block_size);
	fb_run(args, &b);
	ck_assert_int_eq(a.status, 0);
	ck_assert_str_eq(a.out, b.out);
	/* the erase block's step, 310 µs, up from 4 MiB; the page's below */
	ck_assert_msg(strstr(a.out, "align 4194304\t") &&
		      strstr(a.out, "diff 310") && strstr(a.out, "diff 160"),
		      "%s: -a: %s", spec, a.out);
	fb_free(&a);
	fb_free(&b);
}

START_TEST(test_classic_page_align)
{
	same_align(TODAY ",ftl=page,map=16K", "8K");
	same_align(TODAY ",sector=4K", "8K");
}
END_TEST

/* Rows of -O with nr AUs written wholly into a cache of slc bytes. */
static size_t rows_in_cache(uint64_t slc, unsigned int nr)
{
	return (size_t)(slc / (nr * 4 * MiB));
}

/*
 * A 64 MiB pSLC cache in front of a block-mapped card keeping OPEN AUs
 * open: -O's first rows at the cache's rate (4 x write_mbps), then the
 * card's own, where one AU over the limit collapses, from the row the
 * cache filled in on.
 */
START_TEST(test_classic_cached)
{
	static const unsigned int nrs[] = { OPEN + 1, 8, 16 };
	const char *spec = TODAY ",fat=0,slc=64M";
	double rate[MAX_ROWS], ref[MAX_ROWS], fit;
	size_t rows, r, fill, i;

	open_rows(TODAY ",fat=0", OPEN, 0, ref);
	fit = ref[8];
	/* OPEN AUs: fast, then the card's own rates, no collapse */
	rows = open_rows(spec, OPEN, 0, rate);
	fill = rows_in_cache(64 * MiB, OPEN);
	for (r = 0; r < fill; r++)
		ck_assert_msg(rate[r] >= 3 * ref[r],
			      "%s: -O %u row %zu: %.3g, plain card %.3g",
			      spec, OPEN, r, rate[r], ref[r]);
	for (r = fill + 1; r < rows; r++)
		ck_assert_double_eq_tol(rate[r], ref[r], ref[r] * 0.01);
	for (i = 0; i < ARRAY_SIZE(nrs); i++) {
		rows = open_rows(spec, nrs[i], 0, rate);
		fill = rows_in_cache(64 * MiB, nrs[i]);
		for (r = 0; r < fill; r++)
			ck_assert_msg(rate[r] >= 3 * ref[r],
				      "%s: -O %u row %zu: %.3g, not fast",
				      spec, nrs[i], r, rate[r]);
		/* from the row the cache fills in on, the collapse */
		for (r = fill; r < rows; r++)
			ck_assert_msg(rate[r] <= 0.6 * ref[r],
				      "%s: -O %u row %zu: %.3g, no collapse (%.3g plain)",
				      spec, nrs[i], r, rate[r], ref[r]);
		ck_assert_msg(rate[rows - 1] * 10 <= fit,
			      "%s: -O %u: %.3g at 16K, %.3g plain", spec,
			      nrs[i], rate[rows - 1], fit);
	}
	/* -O -r: the same with the AUs kept open out of order */
	rows = open_rows(spec, OPEN_RANDOM + 1, 1, rate);
	fill = rows_in_cache(64 * MiB, OPEN_RANDOM + 1);
	ck_assert_uint_ge(fill, 5);
	ck_assert_msg(rate[0] >= 3 * ref[0] && rate[rows - 1] * 10 <= fit,
		      "%s: -O -r %u: %.3g at 4M, %.3g at 16K", spec,
		      OPEN_RANDOM + 1, rate[0], rate[rows - 1]);
}
END_TEST

/* Stalls slow small writes down; they are not a collapse. */
START_TEST(test_classic_stalls)
{
	const char *spec = TODAY ",fat=0,stall_writes=500,stall_ms=300";
	double large, fit, plain_fit, big, over;

	open_rates(TODAY ",fat=0", OPEN, 0, &big, &plain_fit);
	open_rates(spec, OPEN, 0, &large, &fit);
	open_rates(spec, OPEN + 1, 0, &big, &over);
	ck_assert_msg(fit <= 0.95 * plain_fit && fit >= 0.5 * plain_fit,
		      "%s: -O %u at 16K: %.3g, %.3g without stalls", spec,
		      OPEN, fit, plain_fit);
	ck_assert_msg(over * 10 <= fit,
		      "%s: -O %u at 16K: %.3g, %.3g with %u", spec, OPEN + 1,
		      over, fit, OPEN);
}
END_TEST

/* Maintenance after idle, 4 KiB sectors: the plain card's tables. */
START_TEST(test_classic_unchanged)
{
	static const char *const more[] = { ",maint_ms=500,maint_idle_ms=1",
					    ",sector=4K" };
	double plain[MAX_ROWS], rate[MAX_ROWS];
	char spec[200];
	size_t i, rows, r;

	rows = open_rows(TODAY ",fat=0", OPEN + 1, 0, plain);
	for (i = 0; i < ARRAY_SIZE(more); i++) {
		snprintf(spec, sizeof(spec), TODAY ",fat=0%s", more[i]);
		ck_assert_uint_eq(open_rows(spec, OPEN + 1, 0, rate), rows);
		for (r = 0; r < rows; r++)
			ck_assert_double_eq(rate[r], plain[r]);
	}
}
END_TEST

/* -f (random: -f -r) on 4 AUs, FAT AU 1: every row's four rates. */
static size_t fat_table(const char *spec, int random, double (*r)[4])
{
	struct bench_opts o;
	struct wrun w;
	size_t i, k, n;

	bench_opts_default(&o);
	o.erasesize_byte = 4 * MiB;
	o.blocksize_byte = 16 * KiB;
	o.fat_nr = 4;
	o.random = random;
	o.log = NULL;
	run_on(&w, spec, BENCH_FIND_FAT, &o);
	n = w.t.nrows;
	for (k = 0; k < n; k++)
		for (i = 0; i < 4; i++)
			r[k][i] = rate_at(&w, k, i + 1);
	wrun_done(&w);
	return n;
}

/*
 * Write stalls in -O -r and -f: a stall slows one write, so one cell of
 * a table, never a column nor every row after it.  -O -r holds with the
 * AUs kept open out of order and collapses with one more, as without
 * stalls; in -f the FAT AU is the fastest at most rows, and where it is
 * not, a stall slowed its own cell: an expert reads past the one cell.
 */
START_TEST(test_classic_stalls_more)
{
	const char *spec = TODAY ",fat=1,fat_start=1,stall_writes=500,stall_ms=300";
	double big, plain, held, over, rows[MAX_ROWS][4], ref[MAX_ROWS][4];
	size_t n, k, i, fastest = 0, slowed = 0;

	open_rates(TODAY ",fat=0", OPEN_RANDOM, 1, &big, &plain);
	open_rates(spec, OPEN_RANDOM, 1, &big, &held);
	open_rates(spec, OPEN_RANDOM + 1, 1, &big, &over);
	ck_assert_msg(held >= 0.5 * plain && over * 10 <= held,
		      "%s: -O -r at 16K: %.3g with %u AUs (%.3g without stalls), %.3g with %u",
		      spec, held, OPEN_RANDOM, plain, over, OPEN_RANDOM + 1);
	n = fat_table(TODAY ",fat=1,fat_start=1", 0, ref);
	ck_assert_uint_eq(fat_table(spec, 0, rows), n);
	for (k = 0; k < n; k++) {
		ck_assert(ref[k][1] > ref[k][0] && ref[k][1] > ref[k][2] &&
			  ref[k][1] > ref[k][3]);
		for (i = 0; i < 4; i++)
			slowed += rows[k][i] < 0.9 * ref[k][i];
		if (rows[k][1] > rows[k][0] && rows[k][1] > rows[k][2] &&
		    rows[k][1] > rows[k][3])
			fastest++;
		else
			ck_assert_msg(rows[k][1] < 0.9 * ref[k][1],
				      "%s: -f row %zu: the FAT AU %.3g, not the fastest, %.3g without stalls",
				      spec, k, rows[k][1], ref[k][1]);
	}
	ck_assert_msg(slowed >= 1 && fastest * 2 > n,
		      "%s: -f: the FAT AU fastest at %zu of %zu rows, %zu cells slowed",
		      spec, fastest, n, slowed);
}
END_TEST

/*
 * A page-mapped card nearly full (spare=2) under -O: with as many AUs as
 * a block-mapped card keeps open, and one more, the table of a card with
 * room to spare (overwriting the same AUs leaves whole erase blocks
 * stale, reclaimed for nothing); with sixteen, a row or two dip while
 * the card collects, to no less than half, and the small writes' rows
 * are the spare card's: no collapse at any number of AUs.  With a pSLC
 * cache in front (slc=), -O's first rows run at the cache's rate, then
 * the native rate: never a collapse.
 */
START_TEST(test_classic_pages_full_cached)
{
	const char *full = TODAY ",fat=0,ftl=page,map=4K,spare=2";
	const char *spare = TODAY ",fat=0,ftl=page,map=4K";
	const char *cached = TODAY ",fat=0,ftl=page,map=4K,slc=64M";
	double ref[MAX_ROWS], rate[MAX_ROWS];
	static const unsigned int nrs[] = { OPEN, OPEN + 1, 16 };
	size_t i, rows;

	rows = open_rows(spare, OPEN, 0, ref);
	for (i = 0; i < ARRAY_SIZE(nrs); i++) {
		size_t r, fill;

		ck_assert_uint_eq(open_rows(full, nrs[i], 0, rate), rows);
		for (r = 0; r < rows; r++)
			ck_assert_msg(rate[r] >= (nrs[i] > OPEN + 1 &&
						  r < rows / 2 ? 0.5 : 0.95) *
					       ref[r],
				      "%s: -O %u row %zu: %.3g, %.3g with spare room",
				      full, nrs[i], r, rate[r], ref[r]);
		ck_assert_uint_eq(open_rows(cached, nrs[i], 0, rate), rows);
		fill = rows_in_cache(64 * MiB, nrs[i]);
		for (r = 0; r < rows; r++)
			ck_assert_msg(r < fill ? rate[r] >= 3 * ref[r] :
				      rate[r] >= 0.95 * ref[r],
				      "%s: -O %u row %zu: %.3g, %.3g without the cache",
				      cached, nrs[i], r, rate[r], ref[r]);
	}
}
END_TEST

/*
 * Maintenance after idle and 4 KiB sectors under -f and -f -r: the
 * plain card's tables, the FAT AU found.  -a with blocks under a sector
 * on 4 KiB sectors is refused, as the kernel refuses such reads.
 */
START_TEST(test_classic_fat_unchanged)
{
	static const char *const more[] = { ",maint_ms=500,maint_idle_ms=1",
					    ",sector=4K" };
	double plain[MAX_ROWS][4], rows[MAX_ROWS][4];
	char spec[200];
	struct fb_run a;
	int random;

	for (random = 0; random < 2; random++) {
		size_t i, k, n;

		n = fat_table(TODAY ",fat=1,fat_start=1", random, plain);
		ck_assert_msg(plain[n - 1][1] >= 1.3 * plain[n - 1][0],
			      "-f%s: FAT AU %.3g, AU 0 %.3g",
			      random ? " -r" : "", plain[n - 1][1],
			      plain[n - 1][0]);
		for (i = 0; i < ARRAY_SIZE(more); i++) {
			snprintf(spec, sizeof(spec),
				 TODAY ",fat=1,fat_start=1%s", more[i]);
			ck_assert_uint_eq(fat_table(spec, random, rows), n);
			for (k = 0; k < n; k++)
				ck_assert_msg(!memcmp(rows[k], plain[k],
						      sizeof(rows[k])),
					      "%s: -f%s row %zu differs", spec,
					      random ? " -r" : "", k);
		}
	}
	fb_run("-a -b 1K --simulate=" TODAY ",sector=4K", &a);
	ck_assert_int_eq(a.status, 2);
	ck_assert_ptr_nonnull(strstr(a.err, "logical block size (4096)"));
	fb_free(&a);
}
END_TEST

Suite *classic_suite(void)
{
	Suite *s = suite_create("classic");
	TCase *tc = tcase_create("mechanics");

	tcase_add_loop_test(tc, test_classic_open_au, 0,
			    (int)(NR(ooo) * NR(closing) * NR(evict) *
				  NR(fullclose)));
	tcase_add_loop_test(tc, test_classic_find_fat, 0,
			    (int)(NR(fat_kind) * NR(fat_gain) * NR(ooo)));
	tcase_set_timeout(tc, 300);
	suite_add_tcase(s, tc);

	tc = tcase_create("today");
	tcase_add_loop_test(tc, test_classic_page_mapped, 0,
			    (int)NR(page_map));
	tcase_add_loop_test(tc, test_classic_page_program, 0,
			    (int)NR(page_map));
	tcase_add_test(tc, test_classic_page_align);
	tcase_add_test(tc, test_classic_cached);
	tcase_add_test(tc, test_classic_stalls);
	tcase_add_test(tc, test_classic_unchanged);
	tcase_add_test(tc, test_classic_stalls_more);
	tcase_add_test(tc, test_classic_pages_full_cached);
	tcase_add_test(tc, test_classic_fat_unchanged);
	tcase_set_timeout(tc, 300);
	suite_add_tcase(s, tc);
	return s;
}
