// SPDX-License-Identifier: GPL-2.0-only
/*
 * The hard sweep: --auto --destructive on 320 simulated cards that mix
 * what real cards do (multi-plane pages, allocation groups, gradual or
 * weak AU steps, pauses, read-ahead, no read signature at all, random
 * order writes slower or never kept open, FAT areas that show only in
 * random-order writes, gradual collapse), sizes 1-128 GiB, erase sizes
 * 1-64 MiB.  Each card's verdict is scored field by field against what
 * was planted, and the tally is reported per behaviour:
 *
 *   exact    the planted value, with medium or high confidence
 *   unsure   the planted value with low confidence, or no value
 *   wrong    another value with low confidence
 *   WRONG    another value with medium or high confidence
 *
 * A card counts as exact when every field is; the goal is at least 97 %
 * exact cards and not a single WRONG field.
 *
 * SWEEP_MECH=1 gives each card also other mechanics than the model's own
 * (hardcard.h: how it takes writes out of order, what closing an AU
 * costs, which it closes, a new card, what the FAT area gains), and
 * SWEEP_HOST=light|heavy puts every card behind a busy host; the tally
 * then has a row per mechanic and, per mechanic and field, the WRONG
 * ones.  The goal is not asserted then: the verdict was fitted to the
 * model's own mechanics (issue 17), and this says where it is not yet
 * right.  SWEEP_TODAY=1 draws today's mechanics too (a pSLC cache, a
 * page map, idle maintenance, write stalls, 4 KiB sectors: hardcard.h),
 * scored as sweepscore.h says (a page-mapped card has no open-AU limit
 * and no FAT area; a class passed that a cached card fails past its
 * cache is WRONG), with a row per today's mechanic; make bench-today
 * sums them over three noise draws and two hosts.  That is a report; the
 * goal for today's cards is asserted on a sample of them, a quiet host
 * and the first noise draw (test_today_sweep).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "autorun.h"
#include "class.h"
#include "decide.h"
#include "hardcard.h"
#include "sim.h"
#include "sweepscore.h"
#include "util.h"

/* One card that is not exact: its spec and the fields that are not. */
static void print_card(unsigned int i, const struct hard_card *c,
		       const struct auto_result *r,
		       const enum outcome out[F_NR], enum outcome worst)
{
	char buf[64];
	unsigned int k;

	fprintf(stderr, "hard sweep: card %u %s: %s\n", i,
		outcome_names[worst], c->spec);
	for (k = 0; k < F_NR; k++) {
		if (out[k] == O_EXACT)
			continue;
		field_value(r, k, buf, sizeof(buf));
		fprintf(stderr, "    %s %s: %s (confidence %s)\n",
			field_names[k], outcome_names[out[k]], buf,
			analyze_confidence_name(field_conf(r, k)));
	}
}

START_TEST(test_hard_sweep)
{
	static struct sweep_tally t;
	unsigned int i, k, ran = 0;
	const unsigned int stride = test_stride();
	int drawn = hard_env_drawn();
	struct bench_opts o;

	memset(&t, 0, sizeof(t));
	bench_opts_default(&o);
	for (i = 0; i < HARD_CARDS; i += stride, ran++) {
		struct hard_card c;
		struct auto_result r;
		struct device *dev;
		enum outcome out[F_NR], worst;

		hard_card_env(i, &c);
		dev = sim_card(c.spec);
		ck_assert_int_eq(sweep_run(&c, dev, &o, &r), 0);
		decide_check(&r, c.spec);
		record_check(&r, dev->size_byte, c.spec);
		score_card(&c, &r, out);
		for (k = 0; k < F_NR; k++)
			if (out[k] == O_WRONG_SURE && k == F_CLASS)
				fprintf(stderr, "hard sweep: card %u: a class passed that it fails past its cache: %s\n",
					i, c.spec);
			else if (out[k] == O_WRONG_SURE)
				fprintf(stderr, "hard sweep: card %u: %s wrong with confidence %s: %s\n",
					i, field_names[k],
					analyze_confidence_name(
						field_conf(&r, k)), c.spec);
		worst = sweep_add(&t, &c, &r, out);
		if (worst != O_EXACT && getenv("SWEEP_VERBOSE"))
			print_card(i, &c, &r, out, worst);
		auto_free(&r);
		dev_close(dev);
	}
	printf("hard sweep: %u cards, %u exact (%.1f%%), %u with a confident wrong field; each record read back gave the run's verdict\n",
	       ran, t.exact, 100.0 * t.exact / ran, t.wrong_sure);
	sweep_print(stdout, &t);
	if (drawn)
		sweep_print_mechanics(stdout, &t);
	if (getenv("SWEEP_TODAY"))
		sweep_print_today(stdout, &t);
	fflush(stdout);
	if (drawn) {
		printf("hard sweep: SWEEP_MECH, SWEEP_TODAY or SWEEP_HOST set: goal not asserted\n");
		return;
	}
	/*
	 * The goal (issue 11): no confident wrong field, 97 % exact; the
	 * share of exact cards only over the whole sweep (a sample of it,
	 * FB_TEST_STRIDE, may hold most of the few inexact ones).
	 */
	ck_assert_uint_eq(t.wrong_sure, 0);
	if (stride == 1)
		ck_assert_uint_ge(t.exact * 100, 97 * HARD_CARDS);
	else
		printf("hard sweep: every %u%s card (FB_TEST_STRIDE): share of exact cards not asserted\n",
		       stride, stride == 2 ? "nd" : stride == 3 ? "rd" : "th");
}
END_TEST

/*
 * Today's sweep in make check (issue 26, item 6): every TODAY_STRIDE-th
 * card with today's mechanics drawn beside the older ones (the cards of
 * SWEEP_TODAY=1), a quiet host, the first noise draw: no field wrong
 * with medium or high confidence, and at least TODAY_EXACT of the
 * TODAY_CARDS exact, as measured when it was set (every card: 311 of
 * 320, 97.2 %, the goal of issue 26; this sample 77 of 80, cards 44, 52
 * and 132 not exact).  FB_TEST_STRIDE multiplies the stride, and
 * SWEEP_SEED draws the noise again: the share is then not asserted.
 * About 20 s of CPU.
 */
#define TODAY_STRIDE 4

/* Is this the first noise draw (SWEEP_SEED unset or 0: hardcard.h)? */
static int first_draw(void)
{
	const char *v = getenv("SWEEP_SEED");

	return !v || !strtoul(v, NULL, 10);
}

#define TODAY_CARDS (HARD_CARDS / TODAY_STRIDE)
#define TODAY_EXACT 77

START_TEST(test_today_sweep)
{
	static struct sweep_tally t;
	const unsigned int stride = TODAY_STRIDE * test_stride();
	unsigned int i, ran = 0;
	struct bench_opts o;

	memset(&t, 0, sizeof(t));
	bench_opts_default(&o);
	for (i = 0; i < HARD_CARDS; i += stride, ran++) {
		struct hard_card c;
		struct auto_result r;
		struct device *dev;
		enum outcome out[F_NR], worst;

		hard_card_today(i, &c);
		dev = sim_card(c.spec);
		ck_assert_int_eq(sweep_run(&c, dev, &o, &r), 0);
		score_card(&c, &r, out);
		worst = sweep_add(&t, &c, &r, out);
		if (worst != O_EXACT)
			print_card(i, &c, &r, out, worst);
		auto_free(&r);
		dev_close(dev);
	}
	printf("today's sweep: %u cards, %u exact (%.1f%%), %u with a confident wrong field\n",
	       ran, t.exact, 100.0 * t.exact / ran, t.wrong_sure);
	ck_assert_uint_eq(t.wrong_sure, 0);
	/* the level of the first noise draw (the second: 76, the third: 77) */
	if (stride == TODAY_STRIDE && first_draw())
		ck_assert_uint_ge(t.exact, TODAY_EXACT);
}
END_TEST

/*
 * Cards of the sweep that once had a confident wrong field, each with
 * what it showed: none may have one again.
 */
static const unsigned int once_wrong[] = {
	13,	/* random slower (x6): open random read as 0, medium */
	18,	/* gradual AU step (8 MiB read as 4 MiB, high) */
	30,	/* gradual AU step, pauses (64 MiB read as 32 MiB) */
	188,	/* gradual AU step, 2 MiB on 8 GiB (read as 1 MiB) */
	53,	/* 4 KiB pages four at a time: the 4 KiB table's first
		   step (16 KiB) read as the page, high */
	227,	/* gradual AU step and multi-plane (erase and page) */
	41,	/* gradual AU step over 64 KiB pages: its foot (a quarter
		   of the AU, four pages) is no program unit */
	44,	/* ditto */
	250,	/* random slower, 1 MiB AU: open random 0, medium */
	298,	/* random slower, pauses, gradual collapse: ditto */
};

START_TEST(test_once_wrong)
{
	struct hard_card c;
	struct auto_result r;
	struct bench_opts o;
	struct device *dev;
	enum outcome out[F_NR];
	unsigned int k;

	bench_opts_default(&o);
	hard_card(once_wrong[_i], &c);
	dev = sim_card(c.spec);
	ck_assert_int_eq(auto_run(dev, &o, 1, NULL, &r), 0);
	score_card(&c, &r, out);
	for (k = 0; k < F_NR; k++)
		ck_assert_msg(out[k] != O_WRONG_SURE,
			      "card %u: %s wrong with confidence %s: %s",
			      once_wrong[_i], field_names[k],
			      analyze_confidence_name(field_conf(&r, k)),
			      c.spec);
	auto_free(&r);
	dev_close(dev);
}
END_TEST

/*
 * Allocation groups whose boundaries lie under only some positions of
 * the rows (the spacing is no multiple of the group): 2 GiB over 8 MiB
 * AUs, 1 GiB over 3 MiB AUs (read as 3 GiB from the rows at erase level
 * alone), 2 GiB over 24 MiB AUs; on small cards, where the tables put
 * too few reads across its boundaries, the group probe's reads (1 GiB on
 * 4 GiB, 2 GiB on 8 GiB).  Each is read exactly, medium or high.
 */
static const unsigned int group_cards[] = { 7, 5, 94, 45, 59, 126, 288 };

START_TEST(test_group_cards)
{
	struct hard_card c;
	struct auto_result r;
	struct bench_opts o;
	struct device *dev;

	bench_opts_default(&o);
	hard_card(group_cards[_i], &c);
	ck_assert_uint_ne(c.group, 0);
	dev = sim_card(c.spec);
	ck_assert_int_eq(auto_run(dev, &o, 1, NULL, &r), 0);
	ck_assert_msg(r.align.group.size_byte == c.group,
		      "card %u: group %llu, planted %llu: %s", group_cards[_i],
		      (unsigned long long)r.align.group.size_byte,
		      (unsigned long long)c.group, c.spec);
	ck_assert_int_ge(r.align.group.confidence, ANALYZE_CONF_MEDIUM);
	auto_free(&r);
	dev_close(dev);
}
END_TEST

/*
 * Cards whose every field is read exactly, medium or high: read-ahead
 * (every diff raised, a program unit of 4 over 3) with 4 KiB pages read
 * four at a time (55, 58), 8 KiB pages two at a time (24, 49, 192).
 */
static const unsigned int exact_cards[] = { 24, 49, 55, 58, 192 };

START_TEST(test_exact_cards)
{
	struct hard_card c;
	struct auto_result r;
	struct bench_opts o;
	struct device *dev;
	enum outcome out[F_NR];
	char buf[64];
	unsigned int k;

	bench_opts_default(&o);
	hard_card(exact_cards[_i], &c);
	dev = sim_card(c.spec);
	ck_assert_int_eq(auto_run(dev, &o, 1, NULL, &r), 0);
	score_card(&c, &r, out);
	for (k = 0; k < F_NR; k++) {
		field_value(&r, k, buf, sizeof(buf));
		ck_assert_msg(out[k] == O_EXACT, "card %u: %s %s (%s): %s",
			      exact_cards[_i], field_names[k], buf,
			      analyze_confidence_name(field_conf(&r, k)),
			      c.spec);
	}
	auto_free(&r);
	dev_close(dev);
}
END_TEST

/*
 * Today's scoring (sweepscore.c) on verdicts made up for it: on a
 * page-mapped card an open-AU count is WRONG at high confidence and "at
 * least n" exact, a FAT area found WRONG and none exact; a cached card
 * whose class check passed V30 at a native 18 MB/s is WRONG, at 45 MB/s
 * exact, unsure (within a cache maybe) unsure; the same verdicts on a 2011 card score as before; a page-mapped
 * card named AUs, or pages with another unit, WRONG, a 2011 card named
 * pages WRONG; a write cache named on a card without one WRONG, on a
 * cached card right at its size and native speed, WRONG at another speed
 * or none where the fill wrote past the cache's end and a run more,
 * unsure none short of that; "more than" a size right up to the planted.
 */
START_TEST(test_today_scoring)
{
	static struct auto_result r;
	static struct class_result cl;
	struct hard_card c;
	enum outcome out[F_NR];

	hard_card(0, &c);
	memset(&r, 0, sizeof(r));
	r.align.erase.size_byte = c.erase;
	r.align.erase.confidence = ANALYZE_CONF_HIGH;
	r.open_linear.measured = 1;
	r.open_linear.nr = c.open + 18;
	r.open_linear.confidence = ANALYZE_CONF_HIGH;
	r.fat.measured = 1;
	r.fat.found = 1;
	r.fat.confidence = ANALYZE_CONF_MEDIUM;
	score_card(&c, &r, out);
	ck_assert_int_eq(out[F_OPEN_LIN], O_WRONG_SURE);
	ck_assert_int_eq(out[F_CLASS], O_EXACT);
	c.today = 1u << T_PAGE;
	score_card(&c, &r, out);
	ck_assert_int_eq(out[F_OPEN_LIN], O_WRONG_SURE);
	ck_assert_int_eq(out[F_FAT], O_WRONG_SURE);
	ck_assert_int_eq(out[F_ERASE], O_EXACT);
	r.open_linear.at_least = 1;
	r.fat.found = 0;
	score_card(&c, &r, out);
	ck_assert_int_eq(out[F_OPEN_LIN], O_EXACT);
	ck_assert_int_eq(out[F_FAT], O_EXACT);
	/* a cached card: V30 passed, 18 MB/s past the cache */
	c.today = 1u << T_SLC;
	c.native_mbps = 18;
	cl.n = 1;
	snprintf(cl.c[0].name, sizeof(cl.c[0].name), "V30");
	cl.c[0].kind = CLASS_VIDEO;
	cl.c[0].need_mbps = 30;
	cl.c[0].pass = 1;
	r.class = &cl;
	score_card(&c, &r, out);
	ck_assert_int_eq(out[F_CLASS], O_WRONG_SURE);
	c.native_mbps = 45;
	score_card(&c, &r, out);
	ck_assert_int_eq(out[F_CLASS], O_EXACT);
	c.native_mbps = 18;
	cl.c[0].pass = 0;
	score_card(&c, &r, out);
	ck_assert_int_eq(out[F_CLASS], O_EXACT);
	cl.c[0].within = 1;	/* met within a cache maybe: unsure */
	score_card(&c, &r, out);
	ck_assert_int_eq(out[F_CLASS], O_UNSURE);
	cl.c[0].within = 0;
	/* the mapping: AUs on a page-mapped card, pages on a block-mapped */
	r.class = NULL;
	c.today = 1u << T_PAGE;
	c.map = 8192;
	r.mapping.kind = AUTO_MAP_AUS;
	r.mapping.confidence = ANALYZE_CONF_HIGH;
	score_card(&c, &r, out);
	ck_assert_int_eq(out[F_MAPPING], O_WRONG_SURE);
	r.mapping.kind = AUTO_MAP_PAGES;
	r.mapping.confidence = ANALYZE_CONF_MEDIUM;
	r.mapping.unit_byte = 4096;
	r.mapping.unit_confidence = ANALYZE_CONF_HIGH;
	score_card(&c, &r, out);
	ck_assert_int_eq(out[F_MAPPING], O_WRONG_SURE);
	r.mapping.unit_byte = 8192;
	score_card(&c, &r, out);
	ck_assert_int_eq(out[F_MAPPING], O_EXACT);
	r.mapping.confidence = ANALYZE_CONF_LOW;
	score_card(&c, &r, out);
	ck_assert_int_eq(out[F_MAPPING], O_UNSURE);
	c.today = 1u << T_2011;
	c.map = 0;
	r.mapping.confidence = ANALYZE_CONF_MEDIUM;
	score_card(&c, &r, out);
	ck_assert_int_eq(out[F_MAPPING], O_WRONG_SURE);
	r.mapping.kind = AUTO_MAP_AUS;
	score_card(&c, &r, out);
	ck_assert_int_eq(out[F_MAPPING], O_EXACT);
	/* the write cache: 512 MiB, 18 MB/s past it */
	r.cache.measured = 1;
	r.cache.chunk_byte = 4 << 20;
	r.cache.cap_byte = 1024 << 20;
	r.cache.dropped = 1;
	score_card(&c, &r, out);
	ck_assert_int_eq(out[F_CACHE], O_WRONG_SURE);	/* none planted */
	c.today = 1u << T_SLC;
	c.slc = 512 << 20;
	c.native_mbps = 18;
	r.cache.size_byte = 480 << 20;
	r.cache.native_ns = (4 << 20) * 1e3 / 18.5;
	score_card(&c, &r, out);
	ck_assert_int_eq(out[F_CACHE], O_EXACT);
	r.cache.native_ns = (4 << 20) * 1e3 / 45;
	score_card(&c, &r, out);
	ck_assert_int_eq(out[F_CACHE], O_WRONG_SURE);
	r.cache.dropped = 0;
	r.cache.nchunks = 128 + CACHE_RUN;	/* past its end and a run */
	score_card(&c, &r, out);
	ck_assert_int_eq(out[F_CACHE], O_WRONG_SURE);	/* none seen */
	r.cache.nchunks = 128 + CACHE_RUN - 1;
	score_card(&c, &r, out);
	ck_assert_int_eq(out[F_CACHE], O_UNSURE);	/* none up to a cap */
	/* "more than" the fill wrote: right up to the planted size */
	r.cache.late = 1;
	r.cache.size_byte = 532 << 20;
	r.cache.native_ns = (4 << 20) * 1e3 / 18.5;
	c.slc = 1024 << 20;
	score_card(&c, &r, out);
	ck_assert_int_eq(out[F_CACHE], O_EXACT);
	c.slc = 512 << 20;
	score_card(&c, &r, out);
	ck_assert_int_eq(out[F_CACHE], O_WRONG_SURE);
	/*
	 * A page-mapped card on 4 KiB sectors, a 16 KiB page: no page with
	 * the reason exact, page and unit; none without it unsure; a page
	 * of 8 KiB under a unit of 16 KiB (two levels) not hidden.
	 */
	memset(&r, 0, sizeof(r));
	c.today = (1u << T_PAGE) | (1u << T_SECTOR);
	c.slc = 0;
	c.page = 16384;
	c.plane = 0;
	c.map = 8192;
	r.sector_byte = 4096;
	r.mapping.kind = AUTO_MAP_PAGES;
	r.mapping.confidence = ANALYZE_CONF_HIGH;
	r.mapping.unit_byte = 8192;
	r.mapping.unit_confidence = ANALYZE_CONF_HIGH;
	score_card(&c, &r, out);
	ck_assert_int_eq(out[F_PAGE], O_UNSURE);
	r.mapping.page_hidden = 1;
	score_card(&c, &r, out);
	ck_assert_int_eq(out[F_PAGE], O_EXACT);
	ck_assert_int_eq(out[F_UNIT], O_EXACT);
	c.page = 8192;
	c.plane = 2;
	score_card(&c, &r, out);
	ck_assert_int_eq(out[F_UNIT], O_UNSURE);
	/*
	 * A 4 KiB unit on 4 KiB sectors, no cache: pages named, low, no
	 * unit, no cache seen in what the run wrote: exact; on a card with
	 * a cache (past it the unit shows as the sector) unsure.
	 */
	c.map = 4096;
	r.mapping.confidence = ANALYZE_CONF_LOW;
	r.mapping.unit_byte = 0;
	r.mapping.measured = 1;
	r.cache.measured = 1;
	score_card(&c, &r, out);
	ck_assert_int_eq(out[F_MAPPING], O_EXACT);
	c.slc = 512 << 20;
	c.today |= 1u << T_SLC;
	score_card(&c, &r, out);
	ck_assert_int_eq(out[F_MAPPING], O_UNSURE);
}
END_TEST

/*
 * 4 KiB logical sectors: no read finer than 8 KiB, rows from 16 KiB.  A
 * step there may be four pages of 4 KiB read at once: no sure page.  A
 * step above rows that are raised too (every 8 KiB boundary costs) is a
 * program unit over pages of 8 KiB at most.  A page of 32 KiB shows as
 * on any card.  No page read wrong with medium or high confidence.
 */
static const struct {
	const char *spec;
	uint64_t page, unit;		/* read as; 0: none */
	enum analyze_confidence page_conf;
	uint64_t planted;		/* the page planted */
} sector_cards[] = {
	{ "page=16K", 16384, 0, ANALYZE_CONF_LOW, 16384 },
	{ "page=4K,plane=4", 16384, 0, ANALYZE_CONF_LOW, 4096 },
	{ "page=8K,plane=4", 8192, 32768, ANALYZE_CONF_LOW, 8192 },
	{ "page=32K", 32768, 0, ANALYZE_CONF_HIGH, 32768 },
};

START_TEST(test_sector_pages)
{
	struct auto_result r;
	struct bench_opts o;
	struct device *dev;
	char spec[200];

	snprintf(spec, sizeof(spec), "size=8G,sector=4K,noise=1,%s",
		 sector_cards[_i].spec);
	bench_opts_default(&o);
	dev = sim_card(spec);
	ck_assert_int_eq(auto_run(dev, &o, 0, NULL, &r), 0);
	ck_assert_msg(r.align.page.size_byte == sector_cards[_i].page &&
		      r.align.page.confidence == sector_cards[_i].page_conf &&
		      r.align.plane.size_byte == sector_cards[_i].unit,
		      "%s: page %llu (%s), unit %llu", spec,
		      (unsigned long long)r.align.page.size_byte,
		      analyze_confidence_name(r.align.page.confidence),
		      (unsigned long long)r.align.plane.size_byte);
	ck_assert(r.align.page.size_byte == sector_cards[_i].planted ||
		  r.align.page.confidence < ANALYZE_CONF_MEDIUM);
	auto_free(&r);
	dev_close(dev);
}
END_TEST

/*
 * Write stalls are no collection: a page-mapped card whose writes stall
 * for 305 ms every 176 (today's sweep card 67 read 20 AUs open, then 16
 * out of order, from the probes a stall fell in) has no open-AU limit;
 * a block-mapped one with stalls keeps the AUs it keeps.
 */
START_TEST(test_stalls_no_collapse)
{
	static const char *const spec[] = {
		"size=3G,erase=12M,page=32K,open=8,noise=1,seed=68,ftl=page,map=16K,stall_ms=305,stall_writes=176",
		"size=8G,erase=4M,page=16K,open=6,open_random=3,noise=1,stall_ms=400,stall_writes=150",
	};
	struct auto_result r;
	struct bench_opts o;
	struct device *dev;

	bench_opts_default(&o);
	dev = sim_card(spec[_i]);
	ck_assert_int_eq(auto_run(dev, &o, 1, NULL, &r), 0);
	if (!_i)
		ck_assert_msg(r.open_linear.at_least && r.open_random.at_least &&
			      r.mapping.kind == AUTO_MAP_PAGES &&
			      r.mapping.unit_byte == 16384,
			      "%s: open %u%s/%u%s, mapping %d unit %llu",
			      spec[_i], r.open_linear.nr,
			      r.open_linear.at_least ? "+" : "",
			      r.open_random.nr,
			      r.open_random.at_least ? "+" : "",
			      (int)r.mapping.kind,
			      (unsigned long long)r.mapping.unit_byte);
	else
		ck_assert_msg(r.open_linear.nr == 6 && !r.open_linear.at_least &&
			      r.open_random.nr == 3 &&
			      r.open_linear.confidence >= ANALYZE_CONF_MEDIUM,
			      "%s: open %u/%u", spec[_i], r.open_linear.nr,
			      r.open_random.nr);
	auto_free(&r);
	dev_close(dev);
}
END_TEST

Suite *sweep_suite(void)
{
	Suite *s = suite_create("sweep");
	TCase *tc = tcase_create("hard");

	tcase_add_loop_test(tc, test_once_wrong, 0,
			    sizeof(once_wrong) / sizeof(once_wrong[0]));
	tcase_add_loop_test(tc, test_group_cards, 0,
			    sizeof(group_cards) / sizeof(group_cards[0]));
	tcase_add_loop_test(tc, test_exact_cards, 0,
			    sizeof(exact_cards) / sizeof(exact_cards[0]));
	tcase_add_test(tc, test_hard_sweep);
	tcase_set_timeout(tc, 1200);
	suite_add_tcase(s, tc);
	tc = tcase_create("todaysweep");
	tcase_add_test(tc, test_today_sweep);
	tcase_set_timeout(tc, 900);
	suite_add_tcase(s, tc);
	tc = tcase_create("scoring");
	tcase_add_test(tc, test_today_scoring);
	suite_add_tcase(s, tc);
	tc = tcase_create("today");
	tcase_add_loop_test(tc, test_sector_pages, 0,
			    sizeof(sector_cards) / sizeof(sector_cards[0]));
	tcase_add_loop_test(tc, test_stalls_no_collapse, 0, 2);
	tcase_set_timeout(tc, 300);
	suite_add_tcase(s, tc);
	return s;
}
