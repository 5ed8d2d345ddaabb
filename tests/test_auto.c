// SPDX-License-Identifier: GPL-2.0-only
/*
 * --auto on simulated cards: the verdict must be the geometry planted in
 * the card, and a confident verdict must never be wrong.
 */
#include <stdio.h>
#include <stdlib.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "auto.h"
#include "autoout.h"
#include "autorun.h"
#include "decide.h"
#include "flashbench.h"
#include "probe.h"
#include "sim.h"
#include "util.h"
#include "writecache.h"

#define SWEEP_CARDS 200u

enum field { F_ERASE, F_PAGE, F_OPEN_LIN, F_OPEN_RAND, F_FAT, F_NR };
static const char *const field_names[F_NR] = {
	"erase size", "page size", "open AUs linear", "open AUs random",
	"FAT area",
};

/* right/wrong by confidence, per field */
static unsigned int tally[F_NR][2][4];

static void score(enum field f, int right, enum analyze_confidence c,
		  int *all_right, int *all_high, const char *spec)
{
	tally[f][right][c]++;
	if (!right)
		*all_right = 0;
	if (c != ANALYZE_CONF_HIGH)
		*all_high = 0;
	ck_assert_msg(right || c != ANALYZE_CONF_HIGH,
		      "%s: wrong %s with high confidence", spec,
		      field_names[f]);
}

START_TEST(test_sweep)
{
	unsigned int i, exact = 0, low_noise = 0, low_noise_high = 0, ran = 0;
	const unsigned int stride = test_stride();
	struct bench_opts o;

	memset(tally, 0, sizeof(tally));
	bench_opts_default(&o);
	for (i = 0; i < SWEEP_CARDS; i += stride, ran++) {
		struct sweep_card c;
		struct auto_result r;
		struct device *dev;
		int all_right = 1, all_high = 1, fat_right;

		sweep_card(i, &c);
		dev = sim_card(c.spec);
		ck_assert_int_eq(auto_run(dev, &o, 1, NULL, &r), 0);
		decide_check(&r, c.spec);
		score(F_ERASE, r.align.erase.size_byte == c.erase,
		      r.align.erase.confidence, &all_right, &all_high, c.spec);
		score(F_PAGE, r.align.page.size_byte == c.page,
		      r.align.page.confidence, &all_right, &all_high, c.spec);
		score(F_OPEN_LIN, r.open_linear.measured &&
		      r.open_linear.nr == c.open && !r.open_linear.at_least,
		      r.open_linear.confidence, &all_right, &all_high, c.spec);
		score(F_OPEN_RAND, r.open_random.measured &&
		      r.open_random.nr == c.open_random &&
		      !r.open_random.at_least,
		      r.open_random.confidence, &all_right, &all_high, c.spec);
		fat_right = r.fat.measured &&
			    (c.fat ? r.fat.found && r.fat.start == c.fat_start &&
					     r.fat.count == c.fat
				   : !r.fat.found);
		score(F_FAT, fat_right, r.fat.confidence, &all_right, &all_high,
		      c.spec);
		if (!all_right)
			fprintf(stderr, "sweep: not exact: %s\n", c.spec);
		exact += all_right;
		if (c.noise <= 2) {
			low_noise++;
			low_noise_high += all_high;
		}
		auto_free(&r);
		dev_close(dev);
	}
	printf("auto sweep: %u cards, %u exact (%.1f%%); noise <= 2%%: %u cards, %u all high confidence\n",
	       ran, exact, 100.0 * exact / ran, low_noise, low_noise_high);
	for (i = 0; i < F_NR; i++)
		printf("  %-16s right: high %3u medium %3u low %3u none %3u | wrong: high %u medium %u low %u none %u\n",
		       field_names[i], tally[i][1][3], tally[i][1][2],
		       tally[i][1][1], tally[i][1][0], tally[i][0][3],
		       tally[i][0][2], tally[i][0][1], tally[i][0][0]);
	/*
	 * The shares over the cards looked at: all of them in make check,
	 * every FB_TEST_STRIDE-th under the sanitizers (the same shares
	 * asserted of the sample).
	 */
	ck_assert_uint_ge(exact * 100, 95 * ran);
	ck_assert_uint_ge(low_noise_high * 100, 80 * low_noise);
}
END_TEST

/* Without --destructive nothing is written and the write steps say so. */
START_TEST(test_read_only)
{
	struct device *dev = sim_card("erase=8M,page=32K,noise=1");
	struct auto_result r;
	struct bench_opts o;
	char *text;
	size_t len;
	FILE *f = open_memstream(&text, &len);

	bench_opts_default(&o);
	ck_assert_int_eq(auto_run(dev, &o, 0, NULL, &r), 0);
	ck_assert_uint_eq(r.align.erase.size_byte, 8 << 20);
	ck_assert_uint_eq(r.align.page.size_byte, 32 << 10);
	ck_assert(!r.open_linear.measured && !r.open_random.measured &&
		  !r.fat.measured);
	auto_print(f, &r, "/dev/card", NULL);
	fclose(f);
	unwrap_text(text);
	ck_assert_ptr_nonnull(strstr(text, "erase size: 8MiB (confidence high)\n"));
	ck_assert_ptr_nonnull(strstr(text, "page size: 32KiB (confidence"));
	ck_assert_ptr_nonnull(strstr(text, "open AUs linear: skipped\n"));
	ck_assert_ptr_nonnull(strstr(text, "open AUs random: skipped\n"));
	ck_assert_ptr_nonnull(strstr(text, "FAT area: skipped\n"));
	ck_assert_ptr_nonnull(strstr(text, "flashbench --auto --destructive /dev/card"));
	ck_assert_ptr_nonnull(strstr(text, "sector 16384 "));
	free(text);
	auto_free(&r);
	dev_close(dev);
}
END_TEST

/*
 * AUs up to the SD specification's largest (64 MiB) and beyond are read
 * with rows above them: the align tables reach at least 4 * 64 MiB on a
 * card large enough, and the erase size is the planted one, confidently.
 */
START_TEST(test_large_au)
{
	static const struct {
		const char *spec;
		uint64_t erase;
	} cases[] = {
		{ "erase=64M,size=16G", 64ULL << 20 },
		{ "erase=64M,size=64G,noise=3", 64ULL << 20 },
		{ "erase=128M,size=64G", 128ULL << 20 },
		{ "erase=256M,size=64G,page=32K", 256ULL << 20 },
		{ "erase=48M,size=48G", 48ULL << 20 },
	};
	struct bench_opts o;
	size_t i;

	bench_opts_default(&o);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct device *dev = sim_card(cases[i].spec);
		struct auto_result r;

		ck_assert_int_eq(auto_run(dev, &o, 0, NULL, &r), 0);
		ck_assert_uint_ge(r.tables[0].rows[0].align_byte, 256ULL << 20);
		ck_assert_msg(r.align.erase.size_byte == cases[i].erase,
			      "%s: erase size %llu", cases[i].spec,
			      (unsigned long long)r.align.erase.size_byte);
		ck_assert_msg(r.align.erase.confidence == ANALYZE_CONF_HIGH,
			      "%s: confidence %d", cases[i].spec,
			      r.align.erase.confidence);
		auto_free(&r);
		dev_close(dev);
	}
}
END_TEST

/*
 * The FAT area as planted: long ones, ones that do not start at AU 0, and
 * none at all, each read with high confidence; the probe looks on until
 * the speed has settled, so it has seen AUs past the area.
 */
START_TEST(test_fat_area)
{
	static const struct {
		const char *spec;
		unsigned int start, count;
		int linear, random;	/* which writes must show it */
	} cases[] = {
		{ "fat=6", 0, 6, 1, 1 },
		{ "fat=8,noise=3", 0, 8, 1, 1 },
		{ "fat=3,fat_start=4", 4, 3, 1, 1 },
		{ "erase=512K,size=2G,fat=8,fat_start=8", 8, 8, 1, 1 },
		{ "erase=1M,size=2G,fat=12,fat_start=2,page=4K", 2, 12, 1, 1 },
		/* only random-order small writes show these (-f --random) */
		{ "fat_kind=random", 0, 1, 0, 1 },
		{ "fat_kind=random,fat=4,fat_start=2,noise=4", 2, 4, 0, 1 },
		{ "fat_kind=random,fat=3,page=4K,erase=2M,size=4G", 0, 3, 0, 1 },
		{ "fat_kind=random,fat=2,open_random=0", 0, 2, 0, 1 },
		{ "fat_kind=linear,fat=3,fat_start=1", 1, 3, 1, 0 },
		{ "fat=0", 0, 0, 0, 0 },
		{ "erase=512K,size=2G,fat=0,noise=5", 0, 0, 0, 0 },
	};
	struct bench_opts o;
	size_t i;

	bench_opts_default(&o);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct device *dev = sim_card(cases[i].spec);
		struct auto_result r;
		uint64_t min;

		ck_assert_int_eq(auto_run(dev, &o, 1, NULL, &r), 0);
		ck_assert(r.fat.measured);
		ck_assert_msg(r.fat.found == (cases[i].count > 0) &&
			      (!r.fat.found || (r.fat.start == cases[i].start &&
						r.fat.count == cases[i].count)),
			      "%s: found %d start %u count %u", cases[i].spec,
			      r.fat.found, r.fat.start, r.fat.count);
		ck_assert_msg(r.fat.confidence == ANALYZE_CONF_HIGH,
			      "%s: confidence %d", cases[i].spec,
			      r.fat.confidence);
		/* until the speed settles: two ordinary AUs past the area,
		 * and 8 MiB and 5 AUs at least; no more (each costs a
		 * garbage collection) */
		min = (8 << 20) / r.align.erase.size_byte;
		if (min < 5)
			min = 5;
		if (min < cases[i].start + cases[i].count + 2)
			min = cases[i].start + cases[i].count + 2;
		ck_assert_uint_eq(r.fat.naus, min);
		ck_assert_msg(r.fat.linear == cases[i].linear &&
			      r.fat.random == cases[i].random,
			      "%s: linear %d random %d", cases[i].spec,
			      r.fat.linear, r.fat.random);
		auto_free(&r);
		dev_close(dev);
	}
}
END_TEST

/*
 * A FAT area that only needs no open AU (fat_gain=slot): its writes cost
 * what any AU's do until the card has more AUs in random mode than it
 * keeps, when an ordinary AU pays a copy and the area does not (-f
 * --random's twice the speed).  Found, on several mechanics, with medium
 * confidence at least, by the visits that paid no copy.
 */
START_TEST(test_fat_slot)
{
	static const struct {
		const char *spec;
		unsigned int start, count;
	} cases[] = {
		{ "fat_gain=slot", 0, 1 },
		{ "fat_gain=slot,open=2,open_random=1,fat=1,fat_start=4,"
		  "erase=3M,size=8G,evict=oldest", 4, 1 },
		{ "fat_gain=slot,open=14,open_random=12,fat=2,fat_start=2,"
		  "erase=2M,size=4G,used=0,close=rest", 2, 2 },
		{ "fat_gain=slot,open=4,open_random=4,fat=3,fat_start=1,"
		  "random_us=300,fullclose=1,noise=2", 1, 3 },
		{ "fat_gain=slot,fat_kind=random,open=5,open_random=2,fat=2,"
		  "close=all,used=0,seed=3", 0, 2 },
	};
	struct bench_opts o;
	size_t i;

	bench_opts_default(&o);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct device *dev = sim_card(cases[i].spec);
		struct auto_result r;

		ck_assert_int_eq(auto_run(dev, &o, 1, NULL, &r), 0);
		ck_assert_msg(r.fat.found && r.fat.start == cases[i].start &&
			      r.fat.count == cases[i].count,
			      "%s: found %d start %u count %u", cases[i].spec,
			      r.fat.found, r.fat.start, r.fat.count);
		ck_assert_msg(r.fat.confidence >= ANALYZE_CONF_MEDIUM,
			      "%s: confidence %d", cases[i].spec,
			      r.fat.confidence);
		ck_assert(r.fat.nocopy && r.fat.refs_paid && r.fat.prime_paid);
		auto_free(&r);
		dev_close(dev);
	}
}
END_TEST

/*
 * Open-AU counts that one probe alone could read otherwise, on cards
 * where the other count is plain: the first may be read otherwise only
 * at low confidence, the other is the one planted.
 * - A card that collapses gradually and programs fast (45 MB/s): one AU
 *   over its 13 costs only x1.34 (the log's second programming of each
 *   16 KiB write), under the hold limit, and two over collapse.  The
 *   count read, 14, stands no higher than low: 13 or 14 the probes
 *   cannot tell.
 * - A card in random mode with one AU more than it keeps pays a
 *   collection at one write of every pass; with a write cache behind a
 *   light host (0.5 % of the requests 4 ms late), a late write lets the
 *   cache fold and take the next few, collection and all, so one pass
 *   of the run showed none and 8 AUs "held" (today's sweep card 148: 8
 *   open in random order, high, for 7).
 */
static const struct {
	const char *spec;
	int random;			/* the count that may be misread: the
					   random one (else the linear) */
	unsigned int unsure, plain;	/* the counts planted */
	enum analyze_confidence sure;	/* the plain one's, at least */
} open_unsure[] = {
	{ "size=64G,erase=16M,page=16K,collapse=gradual,open=13,"
	  "open_random=1,noise=2,seed=133,write_mbps=45",
	  0, 13, 1, ANALYZE_CONF_MEDIUM },
	{ "size=2G,erase=3M,page=4K,plane=2,fat_kind=both,open=12,"
	  "open_random=7,fat=1,fat_start=4,noise=2.5,seed=149,slc=256M,"
	  "write_mbps=18,host=light",
	  1, 7, 12, ANALYZE_CONF_NONE },
};

START_TEST(test_open_unsure)
{
	struct device *dev = sim_card(open_unsure[_i].spec);
	const struct auto_open *u, *p;
	struct bench_opts o;
	struct auto_result r;

	bench_opts_default(&o);
	ck_assert_int_eq(auto_run(dev, &o, 1, NULL, &r), 0);
	u = open_unsure[_i].random ? &r.open_random : &r.open_linear;
	p = open_unsure[_i].random ? &r.open_linear : &r.open_random;
	ck_assert_msg(u->nr == open_unsure[_i].unsure ||
		      u->confidence <= ANALYZE_CONF_LOW,
		      "open %s %u, confidence %d",
		      open_unsure[_i].random ? "random" : "linear", u->nr,
		      u->confidence);
	ck_assert_uint_eq(p->nr, open_unsure[_i].plain);
	ck_assert_int_ge(p->confidence, open_unsure[_i].sure);
	auto_free(&r);
	dev_close(dev);
}
END_TEST

/*
 * A heavy host in front of a write cache: each delay is idle for the
 * card, which folds some of its cache and takes the next writes there,
 * collections and all, so a probe over the card's count may hold
 * (today's sweep card 152: 11 open, medium, for 10; card 108: a 16 KiB
 * mapping unit, medium, for 8 KiB).  The open AUs and the unit are low.
 */
START_TEST(test_noise_cache)
{
	static const char *const specs[] = {
		"size=16G,erase=24M,page=32K,random_mbps=3,fat_kind=random,"
		"open=10,open_random=5,fat=2,fat_start=2,noise=2.5,seed=153,"
		"slc=512M,write_mbps=18,host=heavy",
		"size=128G,erase=24M,page=16K,plane=2,readahead=128K,open=8,"
		"open_random=5,fat=2,fat_start=1,noise=0.5,seed=109,slc=256M,"
		"write_mbps=18,ftl=page,map=8K,spare=2,host=heavy",
	};
	struct bench_opts o;
	size_t i;

	bench_opts_default(&o);
	for (i = 0; i < ARRAY_SIZE(specs); i++) {
		struct device *dev = sim_card(specs[i]);
		struct auto_result r;

		ck_assert_int_eq(auto_run(dev, &o, 1, NULL, &r), 0);
		ck_assert_int_eq(r.noise.level, AUTO_NOISE_HIGH);
		ck_assert(r.cache.size_byte > 0);
		ck_assert_int_le(r.open_linear.confidence, ANALYZE_CONF_LOW);
		ck_assert_int_le(r.open_random.confidence, ANALYZE_CONF_LOW);
		ck_assert_int_le(r.mapping.unit_confidence, ANALYZE_CONF_LOW);
		auto_free(&r);
		dev_close(dev);
	}
}
END_TEST

/*
 * A card with a write cache behind a host late now and then (5 % of the
 * requests by 400 µs: too little for the reads to call the host noisy):
 * the card is idle meanwhile, its cache folds a little and takes the
 * next small writes, copy and all, so an ordinary AU's visit can look
 * like a FAT AU's (seed 1 read 3 AUs with high confidence).  The area
 * found is the one planted, or said with low confidence.
 */
START_TEST(test_fat_cache_late)
{
	struct bench_opts o;
	unsigned int seed, sure = 0;

	bench_opts_default(&o);
	for (seed = 1; seed <= 6; seed++) {
		char spec[160];
		struct device *dev;
		struct auto_result r;

		snprintf(spec, sizeof(spec),
			 "size=64G,erase=8M,page=16K,open=5,slc=1G,"
			 "write_mbps=18,busy_pct=5,busy_us=400,seed=%u", seed);
		dev = sim_card(spec);
		ck_assert_int_eq(auto_run(dev, &o, 1, NULL, &r), 0);
		if (r.fat.confidence >= ANALYZE_CONF_MEDIUM) {
			ck_assert_msg(r.fat.found && r.fat.start == 0 &&
				      r.fat.count == 1,
				      "%s: found %d start %u count %u", spec,
				      r.fat.found, r.fat.start, r.fat.count);
			sure++;
		}
		auto_free(&r);
		dev_close(dev);
	}
	ck_assert_uint_ge(sure, 1);
}
END_TEST

/*
 * Where the probe could not have seen an area it says so, and caps what
 * it says of none: at low on a card that keeps more AUs in random mode
 * than the probe puts there (no visit pays a copy: an area that needs no
 * open AU looks like any other), at medium on one whose every write out
 * of order copies the AU (an area only faster at programming them is
 * lost in the copy).  A card without an area but with the same costs
 * reads the same.
 */
START_TEST(test_fat_unseen)
{
	static const struct {
		const char *spec;
		int slot, speed;	/* why it could not show */
		enum analyze_confidence conf;
	} cases[] = {
		{ "open=40,open_random=40,fat_gain=slot,fat=2", 1, 0,
		  ANALYZE_CONF_LOW },
		{ "open=40,open_random=40,fat=0", 1, 0, ANALYZE_CONF_LOW },
		{ "ooo=copy-whole,fat_kind=random,fat_gain=speed,fat=2,"
		  "fat_start=1", 0, 1, ANALYZE_CONF_MEDIUM },
		{ "ooo=merge,open_random=0,fat=0,erase=2M,size=4G", 0, 1,
		  ANALYZE_CONF_MEDIUM },
	};
	struct bench_opts o;
	size_t i;

	bench_opts_default(&o);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct device *dev = sim_card(cases[i].spec);
		struct auto_result r;

		ck_assert_int_eq(auto_run(dev, &o, 1, NULL, &r), 0);
		ck_assert_msg(r.fat.measured && !r.fat.found &&
			      r.fat.confidence == cases[i].conf &&
			      r.fat.slot_unseen == cases[i].slot &&
			      r.fat.speed_hidden == cases[i].speed,
			      "%s: found %d confidence %d unseen %d hidden %d",
			      cases[i].spec, r.fat.found, r.fat.confidence,
			      r.fat.slot_unseen, r.fat.speed_hidden);
		auto_free(&r);
		dev_close(dev);
	}
}
END_TEST

/*
 * A FAT area faster only at programming (fat_gain=speed) on 4 KiB
 * sectors: the probe's least write is 4 KiB, whose access time hides
 * most of the gain, so its AUs are only x1.16-1.2 faster than the far
 * ones, under the x1.25 an area needs (the hard sweep with 4 KiB sectors
 * and the mechanics, cards 50 and 150, read "none" at medium).  None is
 * low there and says which AUs were faster; the same card with no area
 * keeps its none sure.
 */
static const struct {
	const char *spec;
	unsigned int fat;		/* the area's AUs, from AU 0 */
} faint_cards[] = {
	{ "size=16G,erase=16M,page=4K,pause_pct=1,pause_us=1520,open=8,"
	  "open_random=4,fat=2,fat_start=0,noise=0,seed=151,random_us=81,"
	  "fullclose=1,used=0,fat_gain=speed,sector=4K", 2 },
	{ "size=8G,erase=16M,page=8K,pause_pct=2,pause_us=4454,"
	  "readahead=128K,fat_kind=random,open=6,open_random=6,fat=3,"
	  "fat_start=0,noise=1,seed=51,ooo=copy-written,evict=oldest,"
	  "fat_gain=speed,sector=4K", 3 },
	{ "size=16G,erase=16M,page=4K,pause_pct=1,pause_us=1520,open=8,"
	  "open_random=4,fat=0,noise=0,seed=151,random_us=81,"
	  "fullclose=1,used=0,sector=4K", 0 },
};

START_TEST(test_fat_faint)
{
	struct device *dev = sim_card(faint_cards[_i].spec);
	unsigned int fat = faint_cards[_i].fat;
	struct bench_opts o;
	struct auto_result r;
	char *text, want[64];
	size_t len;
	FILE *f;

	bench_opts_default(&o);
	ck_assert_int_eq(auto_run(dev, &o, 1, NULL, &r), 0);
	ck_assert(r.fat.measured && !r.fat.found);
	ck_assert_uint_eq(r.fat.faint_count, fat);
	if (fat) {
		ck_assert_uint_eq(r.fat.faint_start, 0);
		ck_assert_double_gt(r.fat.faint_ratio, 1.1);
		ck_assert_double_lt(r.fat.faint_ratio, AUTO_FAT_FAST);
		ck_assert_int_eq(r.fat.confidence, ANALYZE_CONF_LOW);
	} else {
		ck_assert_int_ge(r.fat.confidence, ANALYZE_CONF_MEDIUM);
	}
	f = open_memstream(&text, &len);
	auto_print(f, &r, "/dev/card", NULL);
	fclose(f);
	unwrap_text(text);
	snprintf(want, sizeof(want), "  not seen: AUs 0-%u took small writes x",
		 fat - 1);
	ck_assert(!strstr(text, want) == !fat);
	ck_assert(!strstr(text, "the classic FAT test, whose larger writes show such a gain (-f --erasesize=16MiB), would settle it\n") == !fat);
	free(text);
	auto_free(&r);
	dev_close(dev);
}
END_TEST

/*
 * Cards with no read signature (eMMC, USB bridges): the erase size comes
 * from writes, as planted, with high confidence, and the open-AU and FAT
 * steps run with it.
 */
START_TEST(test_erase_from_writes)
{
	static const struct {
		const char *spec;
		uint64_t erase;
		unsigned int open;
	} cases[] = {
		{ "", 4 << 20, 4 },
		{ "erase=1M,size=2G,open=2", 1 << 20, 2 },
		{ "erase=512K,size=1G,open=16,noise=3", 512 << 10, 16 },
		{ "erase=3M,size=6G,open=7", 3 << 20, 7 },
		{ "erase=12M,size=12G,open=3,noise=4,seed=5", 12 << 20, 3 },
		{ "erase=8M,size=16G,open=12,noise=5,seed=9", 8 << 20, 12 },
		{ "erase=64M,size=32G,open=5", 64ULL << 20, 5 },
		{ "readsig=0,erase=2M,size=4G,open=6", 2 << 20, 6 },
		{ "readsig=0,erase=24M,open=4,noise=2", 24 << 20, 4 },
	};
	struct bench_opts o;
	size_t i;

	bench_opts_default(&o);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char spec[160];
		struct device *dev;
		struct auto_result r;

		snprintf(spec, sizeof(spec), "au_us=0,page_us=0%s%s",
			 cases[i].spec[0] ? "," : "", cases[i].spec);
		dev = sim_card(spec);
		ck_assert_int_eq(auto_run(dev, &o, 1, NULL, &r), 0);
		ck_assert_uint_eq(r.erase_reads.size_byte, 0);
		ck_assert(r.erase_writes.measured && r.erase_writes.filled);
		ck_assert_msg(r.align.erase.size_byte == cases[i].erase,
			      "%s: erase size %llu", spec,
			      (unsigned long long)r.align.erase.size_byte);
		ck_assert_int_eq(r.align.erase.confidence, ANALYZE_CONF_HIGH);
		ck_assert_int_eq(r.erase_from, AUTO_ERASE_FROM_WRITES);
		ck_assert_msg(r.open_linear.measured &&
			      r.open_linear.nr == cases[i].open,
			      "%s: open %u", spec, r.open_linear.nr);
		ck_assert(r.fat.found && r.fat.start == 0 && r.fat.count == 1);
		auto_free(&r);
		dev_close(dev);
	}
}
END_TEST

/*
 * Reads that are unsure: the writes confirm the right value, correct a
 * wrong one, and leave one they cannot check to the reads.
 */
START_TEST(test_erase_confirm)
{
	struct bench_opts o;
	struct auto_result r;
	struct device *dev;

	bench_opts_default(&o);
	/* a weak AU step: reads say 8 MiB with low confidence */
	dev = sim_card("au_us=40,noise=2,erase=8M");
	ck_assert_int_eq(auto_run(dev, &o, 1, NULL, &r), 0);
	ck_assert_uint_eq(r.erase_reads.size_byte, 8 << 20);
	ck_assert_int_lt(r.erase_reads.confidence, ANALYZE_CONF_HIGH);
	ck_assert_uint_eq(r.align.erase.size_byte, 8 << 20);
	ck_assert_int_eq(r.align.erase.confidence, ANALYZE_CONF_HIGH);
	ck_assert_int_eq(r.erase_from, AUTO_ERASE_CONFIRMED);
	ck_assert_uint_eq(r.open_linear.nr, 4);
	auto_free(&r);
	dev_close(dev);
	/* weaker still: reads name the page as the erase size, writes fix it */
	dev = sim_card("au_us=30,noise=3");
	ck_assert_int_eq(auto_run(dev, &o, 1, NULL, &r), 0);
	ck_assert_uint_ne(r.erase_reads.size_byte, 4 << 20);
	ck_assert_uint_eq(r.align.erase.size_byte, 4 << 20);
	ck_assert_int_eq(r.align.erase.confidence, ANALYZE_CONF_HIGH);
	ck_assert_int_eq(r.erase_from, AUTO_ERASE_FROM_WRITES);
	auto_free(&r);
	dev_close(dev);
	/* reads sure of it: no writes spent on the erase size */
	dev = sim_card("");
	ck_assert_int_eq(auto_run(dev, &o, 1, NULL, &r), 0);
	ck_assert(!r.erase_writes.measured);
	ck_assert_uint_eq(r.step_ns[AUTO_STEP_ERASE_WRITES], 0);
	auto_free(&r);
	dev_close(dev);
}
END_TEST

/*
 * Plain --auto that found no erase size sends the user to --destructive
 * only when that run would find it by writing.
 */
START_TEST(test_no_erase_advice)
{
	struct bench_opts o;
	struct auto_result r;
	struct device *dev;
	char *text;
	size_t len;
	FILE *f;

	bench_opts_default(&o);
	dev = sim_card("au_us=0,page_us=0");
	ck_assert_int_eq(auto_run(dev, &o, 0, NULL, &r), 0);
	ck_assert_uint_eq(r.align.erase.size_byte, 0);
	ck_assert(r.search_fits);
	f = open_memstream(&text, &len);
	auto_print(f, &r, "/dev/card", NULL);
	fclose(f);
	unwrap_text(text);
	ck_assert_ptr_nonnull(strstr(text, "skipped: the erase size from writes, open AUs and FAT area (they write to the device); run them with: flashbench --auto --destructive /dev/card\n"));
	free(text);
	auto_free(&r);
	/* and that run does not skip them */
	ck_assert_int_eq(auto_run(dev, &o, 1, NULL, &r), 0);
	ck_assert_ptr_null(r.skip_reason);
	ck_assert_uint_eq(r.align.erase.size_byte, 4 << 20);
	auto_free(&r);
	dev_close(dev);
	/* too small for the search: no advice that would skip the same */
	dev = sim_card("au_us=0,page_us=0,size=64M,erase=1M");
	ck_assert_int_eq(auto_run(dev, &o, 0, NULL, &r), 0);
	ck_assert(!r.search_fits);
	f = open_memstream(&text, &len);
	auto_print(f, &r, "/dev/card", NULL);
	fclose(f);
	unwrap_text(text);
	ck_assert_ptr_null(strstr(text, "--destructive"));
	ck_assert_ptr_nonnull(strstr(text, "too small to find it by writing"));
	free(text);
	auto_free(&r);
	ck_assert_int_eq(auto_run(dev, &o, 1, NULL, &r), 0);
	ck_assert(!r.fat.measured && !r.open_linear.measured);
	auto_free(&r);
	dev_close(dev);
}
END_TEST

/* A card that keeps no AU open in random order: the answer is 0. */
/*
 * Host noise: a quiet host shows none; a busy one (delays in runs) is
 * measured as high, the align tables read again, and no write step's
 * answer that the delays could have made keeps a high confidence.
 */
START_TEST(test_noise)
{
	struct bench_opts o;
	struct auto_result r;
	struct device *dev;
	char *text;
	size_t len;
	FILE *f;

	bench_opts_default(&o);
	dev = sim_card("host=light");
	ck_assert_int_eq(auto_run(dev, &o, 1, NULL, &r), 0);
	ck_assert_int_ne(r.noise.level, AUTO_NOISE_HIGH);
	ck_assert_uint_eq(r.noise.delayed, 0);
	ck_assert_int_eq(r.fat.confidence, ANALYZE_CONF_HIGH);
	ck_assert_int_eq(r.open_linear.confidence, ANALYZE_CONF_HIGH);
	auto_free(&r);
	dev_close(dev);
	/* seed 7 reads 2 open AUs and a FAT area of 16 AUs in the delays */
	dev = sim_card(_i ? "host=heavy,seed=7" : "host=heavy,seed=1");
	ck_assert_int_eq(auto_run(dev, &o, 1, NULL, &r), 0);
	ck_assert_int_eq(r.noise.level, AUTO_NOISE_HIGH);
	ck_assert_uint_gt(r.noise.delayed * 100, r.noise.cells);
	ck_assert_uint_gt(r.noise.rounds, 0);
	ck_assert_uint_eq(r.align.erase.size_byte, 4 << 20);
	ck_assert_int_le(r.fat.confidence, ANALYZE_CONF_LOW);
	ck_assert_int_le(r.open_linear.confidence, r.open_linear.nr == 4 ?
			 ANALYZE_CONF_MEDIUM : ANALYZE_CONF_LOW);
	ck_assert_int_le(r.open_random.confidence, r.open_random.nr == 2 ?
			 ANALYZE_CONF_MEDIUM : ANALYZE_CONF_LOW);
	f = open_memstream(&text, &len);
	auto_print(f, &r, "/dev/card", NULL);
	fclose(f);
	unwrap_text(text);
	ck_assert_ptr_nonnull(strstr(text, "timing noise: high: "));
	ck_assert_ptr_nonnull(strstr(text, "the host or the card is noisy: close other programs, or run again"));
	free(text);
	auto_free(&r);
	dev_close(dev);
}
END_TEST

/*
 * A write step whose premise failed (no erase size to place its writes)
 * says so, and what would settle it, in the text and the JSON.
 */
START_TEST(test_skip_settle)
{
	struct bench_opts o;
	struct auto_result r;
	struct device *dev;
	struct json j;
	char *text;
	size_t len;
	FILE *f;

	bench_opts_default(&o);
	dev = sim_card("au_us=0,page_us=0,size=64M,erase=1M");
	ck_assert_int_eq(auto_run(dev, &o, 1, NULL, &r), 0);
	ck_assert_uint_eq(r.align.erase.size_byte, 0);
	ck_assert(!r.fat.measured && !r.open_linear.measured);
	ck_assert_ptr_nonnull(r.skip_reason);
	ck_assert_ptr_nonnull(r.skip_settle);
	f = open_memstream(&text, &len);
	auto_print(f, &r, "/dev/card", NULL);
	fclose(f);
	unwrap_text(text);
	ck_assert_ptr_nonnull(strstr(text, "FAT area: skipped: no erase size to place their writes"));
	ck_assert_ptr_nonnull(strstr(text, "; to settle it: read the erase size in the classic align table (flashbench -a /dev/card)"));
	free(text);
	f = open_memstream(&text, &len);
	json_init(&j, f);
	json_object_begin(&j, NULL);
	auto_json_results(&j, &r);
	json_object_end(&j);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(text, "\"skipped_steps\": [\n"));
	ck_assert_ptr_nonnull(strstr(text, "\"open_au_random\"\n"));
	ck_assert_ptr_nonnull(strstr(text, "\"settle\": \"read the erase size"));
	free(text);
	auto_free(&r);
	dev_close(dev);
}
END_TEST

/*
 * An erase size the write steps ran on at low confidence: on a card that
 * keeps AUs open, the classic align table and then -O with the size it
 * shows settle it; on one that maps pages -O finds no AUs kept open to
 * count (the open-AU searches wrote as it would), so the advice names
 * what does: the card's own word, or the reads again.  The erase search's
 * own note says the same.  A page-mapped card whose AU step spreads over
 * 8 alignments reads its erase size low and no write shows one.
 */
START_TEST(test_erase_settle)
{
	struct auto_result r = { 0 };
	struct bench_opts o;
	struct device *dev;
	char *text;
	size_t len;
	FILE *f;

	r.mapping.kind = AUTO_MAP_AUS;
	ck_assert_ptr_nonnull(strstr(auto_erase_settle(&r),
				     "flashbench -a DEVICE, then"));
	ck_assert_ptr_nonnull(strstr(auto_erase_settle(&r),
				     "-O --erasesize=SIZE"));
	r.mapping.kind = AUTO_MAP_PAGES;
	ck_assert_ptr_null(strstr(auto_erase_settle(&r), "--erasesize"));
	bench_opts_default(&o);
	dev = sim_card("size=2G,erase=4M,page=16K,ftl=page,map=16K,"
		       "au_spread=8,seed=1");
	ck_assert_int_eq(auto_run(dev, &o, 1, NULL, &r), 0);
	ck_assert(r.erase_fallback);
	ck_assert_int_eq(r.mapping.kind, AUTO_MAP_PAGES);
	ck_assert_uint_eq(r.erase_writes.erase_byte, 0);
	f = open_memstream(&text, &len);
	auto_print(f, &r, "/dev/card", NULL);
	fclose(f);
	unwrap_text(text);
	ck_assert_ptr_null(strstr(text, "--erasesize"));
	ck_assert_ptr_null(strstr(text, "-O with a guessed erase size"));
	ck_assert_ptr_nonnull(strstr(text, "the open-AU searches, which write as -O does, found no AUs kept open: the card maps pages (mapping, below)\n"));
	ck_assert_ptr_nonnull(strstr(text, "to settle it: the card's own word (flashbench --registers /dev/card: an SD card's AU size, an eMMC's erase group; not behind a USB bridge), or the classic align table on a quiet host (flashbench -a /dev/card)"));
	free(text);
	auto_free(&r);
	dev_close(dev);
}
END_TEST

/*
 * The step of the run's longest write (probes/latency.c), against a spy
 * below the latency wrapper: it times each single write the wrapper
 * times and notes, for the longest, which step the progress lines had
 * last announced (cards with no write cache: no top-up writes between
 * the announcements).  Cards whose longest write falls in the open-AU
 * search out of order, the erase search, the capacity check and the
 * class check.
 */
struct spy_dev {
	struct device dev;
	FILE *progress;			/* the run's progress lines */
	uint64_t max_ns;
	long max_at;			/* how far they went at the longest */
};

static int spy_write(struct device *d, const void *buf, size_t len,
		     off_t off)
{
	struct spy_dev *s = (struct spy_dev *)d;
	uint64_t t0 = dev_now_ns(d->inner), t;
	int ret = dev_fwd_write(d, buf, len, off);

	t = dev_now_ns(d->inner) - t0;
	if (!ret && !d->untimed && len <= LAT_MAX_BYTE && t > s->max_ns) {
		s->max_ns = t;
		s->max_at = ftell(s->progress);
	}
	return ret;
}

static const struct dev_ops spy_ops = {
	.read = dev_fwd_read, .write = spy_write,
	.discard = dev_fwd_discard, .batch = dev_fwd_batch,
	.now_ns = dev_fwd_now_ns, .destroy = dev_fwd_destroy,
};

/* The step a progress line announces (LAT_STEP_NONE: none). */
static enum lat_step announced_step(const char *line)
{
	static const struct {
		const char *says;
		enum lat_step step;
	} says[] = {
		{ "auto: write cache", LAT_STEP_CACHE },
		{ "auto: erase size from writes", LAT_STEP_ERASE },
		{ "auto: open-AU search, linear", LAT_STEP_OPEN_LINEAR },
		{ "auto: open-AU search again", LAT_STEP_OPEN_LINEAR },
		{ "auto: open-AU search, random", LAT_STEP_OPEN_RANDOM },
		{ "auto: mapping unit", LAT_STEP_MAPPING },
		{ "auto: FAT area", LAT_STEP_FAT },
		{ "auto: capacity check", LAT_STEP_CAPACITY },
		{ "auto: class check", LAT_STEP_CLASS },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(says); i++)
		if (!strncmp(line, says[i].says, strlen(says[i].says)))
			return says[i].step;
	return LAT_STEP_NONE;
}

static const struct {
	const char *spec;
	enum lat_step step;
	const char *said;		/* the text's last latency line */
} step_cards[] = {
	{ "noise=0", LAT_STEP_OPEN_RANDOM,
	  "  the longest was in the open-AU search out of order (it forces AU copies)\n" },
	{ "size=2G,erase=4M,page=16K,ftl=page,map=16K,au_spread=8,seed=1",
	  LAT_STEP_ERASE,
	  "  the longest was in the erase search from writes (it forces AU copies)\n" },
	{ "size=2G,erase=4M,page=16K,open=4,seed=1", LAT_STEP_CAPACITY,
	  "  the longest was in the capacity check\n" },
	{ "ftl=page,size=2G", LAT_STEP_CLASS,
	  "  the longest was in the class check\n" },
};

START_TEST(test_latency_step)
{
	struct spy_dev *spy;
	struct auto_hooks h = { 0 };
	struct bench_opts o;
	struct auto_result r;
	enum lat_step step = LAT_STEP_NONE;
	char *progress, *text, *line;
	size_t plen, len;
	FILE *f;

	bench_opts_default(&o);
	h.progress = open_memstream(&progress, &plen);
	spy = dev_wrap_new(sizeof(*spy), &spy_ops,
			   sim_card(step_cards[_i].spec));
	ck_assert_ptr_nonnull(spy);
	spy->progress = h.progress;
	ck_assert_int_eq(auto_run_all(&spy->dev, &o, 1, NULL, &h, &r), 0);
	fclose(h.progress);
	ck_assert(!cache_seen(&r.cache));
	ck_assert_uint_eq(r.latency.max_ns, spy->max_ns);
	progress[spy->max_at] = '\0';
	for (line = progress; line; line = strchr(line, '\n'), line += !!line)
		if (announced_step(line) != LAT_STEP_NONE)
			step = announced_step(line);
	ck_assert_int_eq(step, step_cards[_i].step);
	ck_assert_int_eq(r.latency.max_step, step);
	/* a stale step: no wrapper below, nothing to tell */
	ck_assert_int_eq(auto_latency_step(&spy->dev, LAT_STEP_FAT),
			 LAT_STEP_NONE);
	f = open_memstream(&text, &len);
	auto_print(f, &r, "/dev/card", NULL);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(text, step_cards[_i].said));
	free(text);
	free(progress);
	auto_free(&r);
	dev_close(&spy->dev);
}
END_TEST

START_TEST(test_open_random_none)
{
	static const char *const specs[] = {
		"open_random=0", "open_random=0,open=8,erase=2M,size=4G,noise=3",
		"readsig=0,open_random=0,open=2",
	};
	struct bench_opts o;
	size_t i;

	bench_opts_default(&o);
	for (i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		struct device *dev = sim_card(specs[i]);
		struct auto_result r;

		ck_assert_int_eq(auto_run(dev, &o, 1, NULL, &r), 0);
		ck_assert(r.open_random.measured && !r.open_random.at_least);
		ck_assert_msg(r.open_random.nr == 0, "%s: %u", specs[i],
			      r.open_random.nr);
		ck_assert_int_eq(r.open_random.confidence, ANALYZE_CONF_HIGH);
		ck_assert_uint_gt(r.open_linear.nr, 0);
		auto_free(&r);
		dev_close(dev);
	}
}
END_TEST

/*
 * A card keeps no more AUs open in random order than in linear order: the
 * random search stops at the linear answer, without the probe one over it
 * (a garbage collection per write), and says so.  A card that keeps fewer
 * in random order is still probed up to its collapse.
 */
START_TEST(test_open_random_cap)
{
	static const struct {
		const char *spec;
		unsigned int open, open_random, from_linear;
	} cases[] = {
		{ "open=1,erase=3M,size=6G,fat=3,fat_start=2,noise=1.5", 1, 1, 2 },
		{ "open=3,open_random=3,erase=2M,size=4G", 3, 3, 4 },
		{ "open=4,open_random=2", 4, 2, 0 },
	};
	struct bench_opts o;
	size_t i, k;

	bench_opts_default(&o);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct device *dev = sim_card(cases[i].spec);
		const struct auto_open *ro;
		struct auto_result r;

		ck_assert_int_eq(auto_run(dev, &o, 1, NULL, &r), 0);
		ro = &r.open_random;
		ck_assert_uint_eq(r.open_linear.nr, cases[i].open);
		ck_assert_msg(ro->nr == cases[i].open_random && !ro->at_least &&
			      ro->confidence == ANALYZE_CONF_HIGH,
			      "%s: random %u confidence %d", cases[i].spec,
			      ro->nr, ro->confidence);
		ck_assert_uint_eq(ro->from_linear, cases[i].from_linear);
		for (k = 0; k < ro->nprobes; k++)
			ck_assert_uint_le(ro->probes[k].nr,
					  cases[i].open_random + 1);
		if (cases[i].from_linear)
			for (k = 0; k < ro->nprobes; k++)
				ck_assert(!ro->probes[k].collapsed);
		auto_free(&r);
		dev_close(dev);
	}
}
END_TEST

/*
 * A probe with more AUs than the card keeps open stops as soon as three
 * writes pay for a collection, counting in its warm-up the writes to AUs
 * the probe before held open (they cost nothing unless this one is too
 * many): on these cards the linear search took 8.6 s and 6.5 s of device
 * time when the warm-up was never counted (the second now 6.0 s: it steps
 * 4, 5, 7 rather than 4, 6, 9, a held probe more for a collapse less on
 * cards of 4 or 6).
 */
START_TEST(test_open_warm_collapse)
{
	static const struct {
		const char *spec;
		unsigned int open;
		double max_s;
	} cases[] = {
		{ "size=6G,erase=3M,page=8K,open=6,open_random=1,fat=1,"
		  "fat_start=6,noise=5,seed=7", 6, 7.5 },
		{ "size=2G,erase=1M,page=16K,open=13,open_random=9,fat=4,"
		  "fat_start=4,noise=4,seed=4", 13, 6.2 },
	};
	struct bench_opts o;
	size_t i;

	bench_opts_default(&o);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct device *dev = sim_card(cases[i].spec);
		struct auto_result r;

		ck_assert_int_eq(auto_run(dev, &o, 1, NULL, &r), 0);
		ck_assert_uint_eq(r.open_linear.nr, cases[i].open);
		ck_assert_int_eq(r.open_linear.confidence, ANALYZE_CONF_HIGH);
		ck_assert_msg(r.step_ns[AUTO_STEP_OPEN_LINEAR] <
			      cases[i].max_s * 1e9,
			      "%s: linear search %.2f s", cases[i].spec,
			      r.step_ns[AUTO_STEP_OPEN_LINEAR] / 1e9);
		auto_free(&r);
		dev_close(dev);
	}
}
END_TEST

/*
 * The probe AUs are written as found: on a used card (every simulated
 * card starts full of old data) nothing is written to precondition them
 * while their positions last.  On a card whose data was all discarded the
 * AUs a probe reopens hold what earlier probes wrote, and closing them
 * costs its copy: the same answer.  A search in linear order that sees no
 * collapse at all (here: a card keeping more AUs open than the search
 * tries) is made again on AUs written whole first, which a card that
 * closes written-in-part AUs for nothing needs.
 */
START_TEST(test_open_precondition)
{
	static const struct {
		const char *spec;
		int discard, again;
		unsigned int open;
	} cases[] = {
		{ "erase=4M,page=16K,open=5,open_random=3,fat=0,noise=1,seed=3",
		  0, 0, 5 },
		{ "erase=4M,page=16K,open=5,open_random=3,fat=0,noise=1,seed=3",
		  1, 0, 5 },
		{ "erase=4M,size=16G,page=16K,open=40,open_random=3,fat=0,"
		  "noise=1,seed=3", 0, 1, AUTO_MAX_NR },
	};
	struct bench_opts o;
	size_t i;

	bench_opts_default(&o);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct device *dev = sim_card(cases[i].spec);
		struct auto_result r;

		if (cases[i].discard)
			ck_assert_int_eq(dev->ops->discard(dev, 0,
							   dev->size_byte), 0);
		ck_assert_int_eq(auto_run(dev, &o, 1, NULL, &r), 0);
		ck_assert_uint_eq(r.open_linear.nr, cases[i].open);
		ck_assert_int_eq(r.open_linear.at_least, cases[i].again);
		ck_assert_int_eq(r.precondition_again, cases[i].again);
		if (cases[i].again)
			ck_assert_uint_ge(r.precondition_byte,
					  (uint64_t)AUTO_MAX_NR * (4 << 20));
		else
			ck_assert_uint_eq(r.precondition_byte, 0);
		auto_free(&r);
		dev_close(dev);
	}
}
END_TEST

/*
 * On a card of large AUs each collapsed write costs a collection of
 * seconds: two writes that slow end the probe (a pause of a few ms is
 * not that slow), where three are needed at ordinary collapse ratios.
 */
START_TEST(test_open_huge_collapse)
{
	struct device *dev = sim_card("size=16G,erase=24M,page=8K,open=1,"
				      "open_random=1,fat=0,noise=1,seed=5");
	struct bench_opts o;
	struct auto_result r;

	bench_opts_default(&o);
	ck_assert_int_eq(auto_run(dev, &o, 1, NULL, &r), 0);
	ck_assert_uint_eq(r.open_linear.nr, 1);
	ck_assert_int_eq(r.open_linear.confidence, ANALYZE_CONF_HIGH);
	ck_assert_uint_eq(r.open_linear.nprobes, 2);
	ck_assert(r.open_linear.probes[1].collapsed);
	/* the first measured pass: its two writes, both collections */
	ck_assert_uint_eq(r.open_linear.probes[1].positions, 1);
	auto_free(&r);
	dev_close(dev);
}
END_TEST

/*
 * An allocation group far above the AU crosses the boundaries of only some
 * of a row's seven positions: rows raised by those few reads (the 512 MiB
 * and 1.5 GiB rows of a 16 GiB card read 1.5 GiB apart, the 256 MiB row of
 * an 8 GiB card) are set aside as no sign against the erase step, and a
 * row a few percent of the step up on a quiet card is no ramp: the first
 * table reads the erase size with high confidence, the group too.  A
 * ramp, which raises every position, still holds it down.
 */
START_TEST(test_group_rows)
{
	static const struct {
		const char *spec;
		uint64_t erase;
		enum analyze_confidence conf;
	} cases[] = {
		{ "size=16G,erase=6M,page=32K,group=2G,noise=1.5,seed=271",
		  6 << 20, ANALYZE_CONF_HIGH },
		{ "size=8G,erase=3M,page=16K,group=2G,noise=2.5,seed=127",
		  3 << 20, ANALYZE_CONF_HIGH },
		{ "size=16G,erase=6M,page=32K,group=2G,au_spread=3,noise=1.5,"
		  "seed=271", 6 << 20, ANALYZE_CONF_LOW },
	};
	struct bench_opts o;
	size_t i;

	bench_opts_default(&o);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct device *dev = sim_card(cases[i].spec);
		const struct align_verdict *v;
		struct auto_result r;

		ck_assert_int_eq(auto_run(dev, &o, 0, NULL, &r), 0);
		v = &r.tables[0].verdict;
		ck_assert_uint_eq(v->erase.size_byte, cases[i].erase);
		ck_assert_msg(v->erase.confidence == cases[i].conf,
			      "%s: confidence %d", cases[i].spec,
			      v->erase.confidence);
		ck_assert_uint_eq(r.align.group.size_byte, 2ULL << 30);
		auto_free(&r);
		dev_close(dev);
	}
}
END_TEST

/*
 * A collapse costs a garbage collection per write: a probe ends on three
 * slow writes in a row (linear order; pauses come one at a time), or two
 * of a large AU's collection, or on a collection in each of three passes
 * in a row (random mode, where only some writes collapse); and a probe
 * needs room for its warm-up and four passes before the AUs are written
 * whole again.  On this card of 1 MiB AUs (64 chunk positions) the
 * searches took 4.7 s and 7.6 s of device time without these, now 2.86 s
 * and 3.16 s (3.18 s in linear order without the three in a row, 3.25 s
 * in random order without the two, 4.2 s and 5.8 s without the room and
 * the passes).
 */
START_TEST(test_open_cost)
{
	struct device *dev = sim_card("size=16G,erase=1M,page=8K,plane=2,"
				      "pause_pct=2,pause_us=1046,open=12,"
				      "open_random=11,fat=1,fat_start=2,"
				      "noise=3,seed=242");
	struct bench_opts o;
	struct auto_result r;

	bench_opts_default(&o);
	ck_assert_int_eq(auto_run(dev, &o, 1, NULL, &r), 0);
	ck_assert_uint_eq(r.open_linear.nr, 12);
	ck_assert_int_eq(r.open_linear.confidence, ANALYZE_CONF_HIGH);
	ck_assert_uint_eq(r.open_random.nr, 11);
	ck_assert_int_ge(r.open_random.confidence, ANALYZE_CONF_MEDIUM);
	ck_assert_msg(r.step_ns[AUTO_STEP_OPEN_LINEAR] < 3.0e9, "linear %.2f s",
		      r.step_ns[AUTO_STEP_OPEN_LINEAR] / 1e9);
	ck_assert_msg(r.step_ns[AUTO_STEP_OPEN_RANDOM] < 3.2e9, "random %.2f s",
		      r.step_ns[AUTO_STEP_OPEN_RANDOM] / 1e9);
	auto_free(&r);
	dev_close(dev);
}
END_TEST

/*
 * A second align table that only has to confirm the erase size (the
 * first read it with medium confidence, and the page clearly) reads the
 * alignments from a sixteenth of it up: fewer rows, the same verdict.
 */
START_TEST(test_align_around)
{
	struct device *dev = sim_card("size=2G,erase=1M,page=4K,noise=5,"
				      "seed=13");
	const struct auto_table *t;
	struct bench_opts o;
	struct auto_result r;
	size_t k;

	bench_opts_default(&o);
	ck_assert_int_eq(auto_run(dev, &o, 0, NULL, &r), 0);
	ck_assert_uint_eq(r.ntables, 2);
	ck_assert_int_eq(r.tables[0].verdict.erase.confidence,
			 ANALYZE_CONF_MEDIUM);
	t = &r.tables[1];
	ck_assert_uint_eq(t->around_byte, 1 << 20);
	ck_assert_uint_lt(t->nrows, r.tables[0].nrows);
	for (k = 0; k < t->nrows; k++)
		ck_assert_uint_ge(t->rows[k].align_byte, 128 << 10);
	ck_assert_uint_eq(r.align.erase.size_byte, 1 << 20);
	ck_assert_int_eq(r.align.erase.confidence, ANALYZE_CONF_HIGH);
	ck_assert_uint_eq(r.align.page.size_byte, 4 << 10);
	ck_assert_int_eq(r.align.page.confidence, ANALYZE_CONF_HIGH);
	auto_free(&r);
	dev_close(dev);
}
END_TEST

/*
 * A table is read at two reads per position first; a card it reads
 * clearly stops there, one it does not gets the third read at every
 * position (kept only where it was the faster), and the evidence says
 * how many reads each table kept the least of.
 */
START_TEST(test_align_reads)
{
	static const char *const specs[] = {
		"erase=4M,page=16K,noise=1,seed=2",	/* clear */
		"erase=4M,page=16K,noise=1,seed=2,readsig=0",	/* none */
	};
	struct device *dev = sim_card(specs[_i]);
	struct bench_opts o;
	struct auto_result r;
	char *text;
	size_t len;
	FILE *f = open_memstream(&text, &len);

	bench_opts_default(&o);
	ck_assert_int_eq(auto_run(dev, &o, 0, NULL, &r), 0);
	if (!_i) {
		ck_assert_uint_eq(r.ntables, 1);
		ck_assert_uint_eq(r.tables[0].count, 2);
		ck_assert_uint_eq(r.align.erase.size_byte, 4 << 20);
		ck_assert_uint_eq(r.align.page.size_byte, 16 << 10);
	} else {
		size_t i;

		ck_assert_uint_eq(r.ntables, 3);
		for (i = 0; i < r.ntables; i++)
			ck_assert_uint_eq(r.tables[i].count, 3);
		ck_assert_uint_eq(r.align.erase.size_byte, 0);
	}
	auto_print(f, &r, "/dev/card", NULL);
	fclose(f);
	unwrap_text(text);
	ck_assert_ptr_nonnull(strstr(text, _i ? "the least of 3 reads each\n" :
				     "the least of 2 reads each\n"));
	free(text);
	auto_free(&r);
	dev_close(dev);
}
END_TEST

/*
 * With --destructive, tables stop once the page is clear: the writes
 * settle an erase size the reads leave unsure (a gradual AU step), for
 * less than the further tables a read-only run needs; nor does the table
 * get a third read for the erase size's sake.
 */
START_TEST(test_writes_decide)
{
	const char *spec = "size=2G,erase=4M,page=16K,au_spread=3,open=2,"
			   "fat=0,noise=3,seed=5";
	struct device *ro = sim_card(spec), *rw = sim_card(spec);
	struct auto_result a, b;
	struct bench_opts o;

	bench_opts_default(&o);
	ck_assert_int_eq(auto_run(ro, &o, 0, NULL, &a), 0);
	ck_assert_int_eq(auto_run(rw, &o, 1, NULL, &b), 0);
	ck_assert_int_lt(a.tables[0].verdict.erase.confidence,
			 ANALYZE_CONF_HIGH);
	ck_assert_uint_gt(a.ntables, 1);
	ck_assert_uint_eq(a.tables[0].count, 3);
	ck_assert_uint_eq(b.ntables, 1);
	ck_assert_uint_eq(b.tables[0].count, 2);
	ck_assert_int_ge(b.align.page.confidence, ANALYZE_CONF_MEDIUM);
	ck_assert_int_eq(b.erase_from, AUTO_ERASE_CONFIRMED);
	ck_assert_uint_eq(b.align.erase.size_byte, 4 << 20);
	ck_assert_int_eq(b.align.erase.confidence, ANALYZE_CONF_HIGH);
	ck_assert_uint_eq(b.align.page.size_byte, 16 << 10);
	auto_free(&a);
	auto_free(&b);
	dev_close(ro);
	dev_close(rw);
}
END_TEST

/*
 * Hard cards an expert still reads: a USB stick with a read-ahead cache
 * and pauses, cards with no read signature and pauses, a weak spread AU
 * step, a card that keeps one AU more in a log (gradual collapse).  Erase
 * size and open AUs as planted, with high confidence.
 */
START_TEST(test_hard_cards)
{
	static const struct {
		const char *spec;
		uint64_t erase;
		unsigned int open;
	} cases[] = {
		{ "readahead=64K,pause_pct=2", 4 << 20, 4 },
		{ "readahead=128K,pause_pct=5,pause_us=3000,noise=3", 4 << 20, 4 },
		{ "readsig=0,pause_pct=10,erase=2M,size=4G", 2 << 20, 4 },
		{ "readsig=0,pause_pct=5,pause_us=3000", 4 << 20, 4 },
		{ "readsig=0,pause_pct=10,erase=1M,size=2G,seed=3", 1 << 20, 4 },
		{ "readsig=0,collapse=gradual,open=6", 4 << 20, 6 },
		{ "collapse=gradual", 4 << 20, 4 },
		{ "collapse=gradual,open=1,erase=8M", 8 << 20, 1 },
		{ "au_spread=4,noise=3", 4 << 20, 4 },
	};
	struct bench_opts o;
	size_t i;

	bench_opts_default(&o);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct device *dev = sim_card(cases[i].spec);
		struct auto_result r;

		ck_assert_int_eq(auto_run(dev, &o, 1, NULL, &r), 0);
		ck_assert_msg(r.align.erase.size_byte == cases[i].erase &&
			      r.align.erase.confidence == ANALYZE_CONF_HIGH,
			      "%s: erase %llu confidence %d", cases[i].spec,
			      (unsigned long long)r.align.erase.size_byte,
			      r.align.erase.confidence);
		ck_assert_msg(r.open_linear.nr == cases[i].open &&
			      !r.open_linear.at_least &&
			      r.open_linear.confidence == ANALYZE_CONF_HIGH,
			      "%s: open %u confidence %d", cases[i].spec,
			      r.open_linear.nr, r.open_linear.confidence);
		auto_free(&r);
		dev_close(dev);
	}
}
END_TEST

/* Partition start, ext4 and f2fs options for several erase sizes. */
START_TEST(test_advice)
{
	static const struct {
		uint64_t erase, page;
		uint64_t sector;
		unsigned int stride, stripe, segs;
	} cases[] = {
		{ 512 << 10, 8 << 10, 2048, 2, 128, 1 },
		{ 1 << 20, 4 << 10, 2048, 1, 256, 1 },
		{ 2 << 20, 16 << 10, 4096, 4, 512, 1 },
		{ 4 << 20, 16 << 10, 8192, 4, 1024, 2 },
		{ 4 << 20, 0, 8192, 1, 1024, 2 },
		{ 8 << 20, 32 << 10, 16384, 8, 2048, 4 },
		{ 12 << 20, 64 << 10, 24576, 16, 3072, 6 },
		{ 16 << 20, 2 << 10, 32768, 1, 4096, 8 },
		{ 24 << 20, 16 << 10, 49152, 4, 6144, 12 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct auto_advice a;

		auto_advise(cases[i].erase, cases[i].page, 0, &a);
		ck_assert_uint_eq(a.start_sector, cases[i].sector);
		ck_assert_uint_eq(a.sector_byte, 512);
		/* on a device of 4096-byte sectors: the same byte */
		auto_advise(cases[i].erase, cases[i].page, 4096, &a);
		ck_assert_uint_eq(a.start_sector * 4096, cases[i].sector * 512);
		ck_assert_uint_eq(a.sector_byte, 4096);
		auto_advise(cases[i].erase, cases[i].page, 512, &a);
		ck_assert_uint_eq(a.start_sector, cases[i].sector);
		ck_assert_uint_eq(a.ext4_stride, cases[i].stride);
		ck_assert_uint_eq(a.ext4_stripe_width, cases[i].stripe);
		ck_assert_uint_eq(a.f2fs_segs, cases[i].segs);
	}
}
END_TEST

/*
 * The printed advice counts in the device's own sectors (what sfdisk
 * takes): an 8 MiB AU is sector 16384 of 512 bytes, sector 2048 of 4096
 * bytes; the one-line sfdisk command says before it that it replaces
 * the whole partition table.
 */
START_TEST(test_advice_sectors)
{
	static const unsigned int lbs[] = { 512, 4096 };
	struct device *dev = sim_card("erase=8M,page=32K,noise=1");
	struct auto_result r;
	struct bench_opts o;
	char want[256], *text, *cmd;
	unsigned long long start;
	size_t len;
	FILE *f;

	bench_opts_default(&o);
	dev->logical_block_size = lbs[_i];
	ck_assert_int_eq(auto_run(dev, &o, 0, NULL, &r), 0);
	ck_assert_uint_eq(r.sector_byte, lbs[_i]);
	f = open_memstream(&text, &len);
	auto_print(f, &r, "/dev/card", NULL);
	fclose(f);
	unwrap_text(text);
	snprintf(want, sizeof(want),
		 "  partition start: sector %u of %u bytes (8MiB, ",
		 (8 << 20) / lbs[_i], lbs[_i]);
	ck_assert_msg(strstr(text, want), "%s", text);
	cmd = strstr(text, "echo 'start=");
	ck_assert_ptr_nonnull(cmd);
	ck_assert_int_eq(sscanf(cmd, "echo 'start=%llu, type=c' | sudo sfdisk ",
				&start), 1);
	ck_assert_uint_eq(start * lbs[_i], 8 << 20);
	ck_assert_ptr_nonnull(strstr(text,
		"(this replaces the whole partition table: every partition on the card and its data are lost): echo 'start="));
	ck_assert_ptr_nonnull(strstr(cmd, "| sudo sfdisk /dev/card\n"));
	free(text);
	auto_free(&r);
	dev_close(dev);
}
END_TEST

/*
 * A device that records every write and passes everything on to a
 * simulated card: what the write steps really wrote, to hold against what
 * they announced.
 */
#define REC_MAX_RANGES 16384

struct rec_dev {
	struct device dev;		/* must be first */
	struct device *inner;
	struct bench_range announced[REC_MAX_RANGES];
	size_t nannounced;
	unsigned int calls;		/* before_write calls */
	uint64_t writes, outside;	/* writes; of them not announced */
	uint64_t first_outside;		/* offset of the first such write */
};

static int rec_read(struct device *d, void *buf, size_t len, off_t off)
{
	struct rec_dev *r = (struct rec_dev *)d;

	return r->inner->ops->read(r->inner, buf, len, off);
}

static int rec_write(struct device *d, const void *buf, size_t len,
		     off_t off)
{
	struct rec_dev *r = (struct rec_dev *)d;
	uint64_t a = (uint64_t)off, b = a + len;
	size_t i;
	int in = 0;

	for (i = 0; i < r->nannounced && !in; i++)
		in = a >= r->announced[i].start_byte &&
		     b <= r->announced[i].end_byte;
	r->writes++;
	if (!in && !r->outside++)
		r->first_outside = a;
	return r->inner->ops->write(r->inner, buf, len, off);
}

static int rec_discard(struct device *d, off_t off, uint64_t len)
{
	struct rec_dev *r = (struct rec_dev *)d;

	return r->inner->ops->discard(r->inner, off, len);
}

static uint64_t rec_now(struct device *d)
{
	struct rec_dev *r = (struct rec_dev *)d;

	return r->inner->ops->now_ns(r->inner);
}

static void rec_destroy(struct device *d)
{
	struct rec_dev *r = (struct rec_dev *)d;

	dev_close(r->inner);
	free(r);
}

static const struct dev_ops rec_ops = {
	.read = rec_read, .write = rec_write, .discard = rec_discard,
	.now_ns = rec_now, .destroy = rec_destroy,
};

static struct rec_dev *rec_card(const char *spec)
{
	struct rec_dev *r = calloc(1, sizeof(*r));

	ck_assert_ptr_nonnull(r);
	r->inner = sim_card(spec);
	r->dev = *r->inner;
	r->dev.ops = &rec_ops;
	return r;
}

static int rec_announce(void *ctx, const struct bench_range *ranges,
			size_t n)
{
	struct rec_dev *r = ctx;
	size_t i;

	r->calls++;
	for (i = 0; i < n; i++) {
		ck_assert_uint_lt(ranges[i].start_byte, ranges[i].end_byte);
		ck_assert_uint_le(ranges[i].end_byte, r->dev.size_byte);
		ck_assert(!i || ranges[i].start_byte > ranges[i - 1].end_byte);
		ck_assert_uint_lt(r->nannounced, REC_MAX_RANGES);
		r->announced[r->nannounced++] = ranges[i];
	}
	return 0;
}

/*
 * Every write of --auto --destructive lies in a range announced before
 * it (what --preserve saves and the "will overwrite" lines name).
 */
START_TEST(test_ranges_cover_writes)
{
	static const char *const specs[] = {
		"", "fat=6", "erase=512K,size=2G,fat=8,fat_start=8",
		"erase=12M,size=12G,open=6",
		"au_us=0,page_us=0,erase=3M,size=6G,open=7",
	};
	struct bench_opts o;
	size_t i;

	bench_opts_default(&o);
	for (i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		struct rec_dev *rec = rec_card(specs[i]);
		struct auto_hooks h = { .before_write = rec_announce,
					.ctx = rec };
		struct auto_result r;

		ck_assert_int_eq(auto_run(&rec->dev, &o, 1, &h, &r), 0);
		ck_assert(r.fat.measured && r.open_linear.measured);
		/*
		 * the write cache announces its range first, the erase
		 * search its own next, the capacity check its own last
		 */
		ck_assert(r.capacity_done);
		ck_assert_uint_eq(rec->calls,
				  r.erase_writes.measured ? 4 : 3);
		ck_assert_uint_gt(rec->writes, 0);
		ck_assert_msg(!rec->outside,
			      "%s: %llu of %llu writes not announced, first at %llu",
			      specs[i], (unsigned long long)rec->outside,
			      (unsigned long long)rec->writes,
			      (unsigned long long)rec->first_outside);
		auto_free(&r);
		dev_close(&rec->dev);
	}
}
END_TEST

/*
 * A card that keeps what is written, as far as --preserve can tell: every
 * sector reads as a pattern of its offset until written; a sector written
 * with anything else is dirty (and reads as 0xee, so saving it after the
 * fact saves the wrong data) until the pattern is written back.
 */
struct keep_dev {
	struct device dev;		/* must be first */
	struct device *inner;		/* the simulated card */
	struct device *file;		/* what the front end opened */
	uint8_t *dirty;			/* one bit per sector */
	uint64_t ndirty, writes;
};

static struct keep_dev *keep;

static uint8_t keep_byte(uint64_t off)
{
	return (uint8_t)((off >> 9) * 37 + (off & 511) * 11 + 5);
}

static int keep_is_dirty(uint64_t sector)
{
	return keep->dirty[sector / 8] >> (sector % 8) & 1;
}

static int keep_read(struct device *d, void *buf, size_t len, off_t off)
{
	uint8_t *b = buf;
	size_t i;
	int ret = keep->inner->ops->read(keep->inner, buf, len, off);

	(void)d;
	for (i = 0; !ret && i < len; i++)
		b[i] = keep_is_dirty(((uint64_t)off + i) / 512) ? 0xee :
		       keep_byte((uint64_t)off + i);
	return ret;
}

static int keep_write(struct device *d, const void *buf, size_t len,
		      off_t off)
{
	const uint8_t *b = buf;
	size_t i, k;

	(void)d;
	keep->writes++;
	for (i = 0; i < len; i += 512) {
		uint64_t sec = ((uint64_t)off + i) / 512;
		int clean = 1, was = keep_is_dirty(sec);

		for (k = 0; k < 512 && clean; k++)
			clean = b[i + k] == keep_byte((uint64_t)off + i + k);
		if (clean && was) {
			keep->dirty[sec / 8] &= (uint8_t)~(1u << (sec % 8));
			keep->ndirty--;
		} else if (!clean && !was) {
			keep->dirty[sec / 8] |= (uint8_t)(1u << (sec % 8));
			keep->ndirty++;
		}
	}
	return keep->inner->ops->write(keep->inner, buf, len, off);
}

static int keep_discard(struct device *d, off_t off, uint64_t len)
{
	(void)d;
	return keep->inner->ops->discard(keep->inner, off, len);
}

static uint64_t keep_now(struct device *d)
{
	(void)d;
	return keep->inner->ops->now_ns(keep->inner);
}

static void keep_destroy(struct device *d)
{
	(void)d;
	dev_close(keep->inner);	/* keep itself is checked, then freed */
	dev_close(keep->file);
}

static const struct dev_ops keep_ops = {
	.read = keep_read, .write = keep_write, .discard = keep_discard,
	.now_ns = keep_now, .destroy = keep_destroy,
};

/*
 * The front end opened a (sparse) file; the test runs on a simulated card
 * of its size with no read signature, seen through keep_dev, so that
 * --preserve takes it for a real device with data on it.
 */
static struct device *keep_hook(struct device *dev)
{
	char spec[96];

	snprintf(spec, sizeof(spec), "readsig=0,size=%llu",
		 (unsigned long long)dev->size_byte);
	keep = calloc(1, sizeof(*keep));
	ck_assert_ptr_nonnull(keep);
	keep->inner = sim_card(spec);
	keep->file = dev;
	keep->dev = *dev;
	keep->dev.ops = &keep_ops;
	keep->dirty = calloc(dev->size_byte / 512 / 8 + 1, 1);
	ck_assert_ptr_nonnull(keep->dirty);
	return &keep->dev;
}

/*
 * --preserve when the erase size comes from writes: the search's writes
 * are put back before the later steps save theirs, and at the end every
 * sector written holds what it held before.
 */
START_TEST(test_preserve_two_phases)
{
	char args[512], journal[64], img[64];
	struct fb_run r;
	int fd;

	snprintf(journal, sizeof(journal), "/tmp/fb-auto-%d.journal",
		 (int)getpid());
	snprintf(img, sizeof(img), "/tmp/fb-auto-%d.img", (int)getpid());
	fd = open(img, O_CREAT | O_EXCL | O_WRONLY, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, 8LL << 30), 0);	/* sparse */
	close(fd);
	snprintf(args, sizeof(args),
		 "--auto --destructive --preserve --journal %s %s", journal,
		 img);
	flashbench_open_hook = keep_hook;
	fb_run(args, &r);
	flashbench_open_hook = NULL;
	unlink(img);
	/*
	 * its reads never return what was written past the first MiBs: a
	 * limbo fake to the capacity step (status 4)
	 */
	ck_assert_msg(r.status == 4, "status %d: %.300s", r.status, r.err);
	ck_assert_ptr_nonnull(strstr(r.out, "erase size: 4MiB (confidence high), from writes\n"));
	ck_assert_ptr_nonnull(strstr(r.out, "open AUs linear: 4 "));
	ck_assert_uint_gt(keep->writes, 100);
	ck_assert_uint_eq(keep->ndirty, 0);
	ck_assert_int_ne(access(journal, F_OK), 0);
	fb_free(&r);
	free(keep->dirty);
	free(keep);
	keep = NULL;
}
END_TEST

/*
 * Cards of other mechanics than the model's own (issue 17), each read
 * exactly with medium or high confidence; before, each had a field wrong
 * with confidence (or none):
 * 0 FIFO eviction (evict=oldest): a smaller probe after a collapse closed
 *   its own AUs one after the other and seemed to collapse (open 5);
 * 1 a log that takes the AU opened first (gradual, FIFO): one AU dearer
 *   in every pass, the others not (open 3);
 * 2 FIFO, random order: a smaller probe after a collapse (open 10);
 * 3 slow programming and a copy of what was written, out of order: six
 *   times a linear write, but no merge (open random 0);
 * 4 fullclose: the random probe wrote the last chunk of its AUs, which
 *   closed them (open random 10);
 * 5 the card: no read signature, fullclose: the erase search's
 *   warm-up wrote the last chunk of AUs and saw no collection;
 * 6 a new card (used=0) that copies nothing when it closes an AU: the
 *   erase search needs data in the AUs first.
 */
static const struct {
	const char *spec;
	uint64_t erase;
	unsigned int lin, rnd;
} mech_cards[] = {
	{ "size=4G,erase=2M,page=8K,open=6,open_random=0,ooo=merge,"
	  "close=all,fullclose=1,evict=oldest,noise=0,seed=17", 2 << 20, 6, 0 },
	{ "size=16G,erase=4M,collapse=gradual,open=2,open_random=0,"
	  "close=rest,evict=oldest,noise=0.5,seed=207", 4 << 20, 2, 0 },
	{ "size=32G,erase=12M,page=4K,random_mbps=4,open=14,open_random=8,"
	  "close=all,evict=oldest,used=0,noise=0,seed=44", 12 << 20, 14, 8 },
	{ "size=16G,erase=8M,page=64K,random_mbps=2,open=10,open_random=10,"
	  "ooo=copy-written,used=0,noise=1.5,seed=299", 8 << 20, 10, 10 },
	{ "size=64G,erase=32M,page=32K,open=14,open_random=12,random_us=143,"
	  "close=rest,fullclose=1,evict=oldest,used=0,noise=2.5,seed=15",
	  32 << 20, 14, 12 },
	{ "readsig=0,erase=8M,open=6,open_random=2,close=rest,fullclose=1,"
	  "used=0", 8 << 20, 6, 2 },
	{ "readsig=0,erase=8M,open=6,open_random=2,used=0", 8 << 20, 6, 2 },
};

START_TEST(test_mechanics)
{
	struct device *dev = sim_card(mech_cards[_i].spec);
	struct bench_opts o;
	struct auto_result r;

	bench_opts_default(&o);
	ck_assert_int_eq(auto_run(dev, &o, 1, NULL, &r), 0);
	ck_assert_uint_eq(r.align.erase.size_byte, mech_cards[_i].erase);
	ck_assert_int_ge(r.align.erase.confidence, ANALYZE_CONF_MEDIUM);
	ck_assert_msg(r.open_linear.nr == mech_cards[_i].lin &&
		      !r.open_linear.at_least &&
		      r.open_linear.confidence >= ANALYZE_CONF_MEDIUM,
		      "%s: open linear %u", mech_cards[_i].spec,
		      r.open_linear.nr);
	ck_assert_msg(r.open_random.nr == mech_cards[_i].rnd &&
		      !r.open_random.at_least &&
		      r.open_random.confidence >= ANALYZE_CONF_MEDIUM,
		      "%s: open random %u", mech_cards[_i].spec,
		      r.open_random.nr);
	/* the new card: seen only with data written first */
	if (_i == 6)
		ck_assert_uint_gt(r.erase_writes.data_byte, 0);
	auto_free(&r);
	dev_close(dev);
}
END_TEST

Suite *auto_suite(void)
{
	Suite *s = suite_create("auto");
	TCase *tc = tcase_create("auto");

	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test_advice);
	tcase_add_loop_test(tc, test_advice_sectors, 0, 2);
	tcase_add_test(tc, test_ranges_cover_writes);
	tcase_add_test(tc, test_read_only);
	tcase_add_test(tc, test_large_au);
	tcase_add_test(tc, test_fat_area);
	tcase_add_test(tc, test_fat_slot);
	tcase_add_test(tc, test_fat_unseen);
	tcase_add_test(tc, test_fat_cache_late);
	tcase_add_loop_test(tc, test_fat_faint, 0, ARRAY_SIZE(faint_cards));
	tcase_add_loop_test(tc, test_open_unsure, 0, ARRAY_SIZE(open_unsure));
	tcase_add_test(tc, test_noise_cache);
	tcase_add_test(tc, test_erase_from_writes);
	tcase_add_test(tc, test_erase_confirm);
	tcase_add_test(tc, test_no_erase_advice);
	tcase_add_loop_test(tc, test_noise, 0, 2);
	tcase_add_test(tc, test_skip_settle);
	tcase_add_test(tc, test_erase_settle);
	tcase_add_loop_test(tc, test_latency_step, 0, ARRAY_SIZE(step_cards));
	tcase_add_test(tc, test_open_random_none);
	tcase_add_test(tc, test_open_random_cap);
	tcase_add_test(tc, test_open_warm_collapse);
	tcase_add_test(tc, test_open_precondition);
	tcase_add_test(tc, test_open_huge_collapse);
	tcase_add_test(tc, test_open_cost);
	tcase_add_loop_test(tc, test_mechanics, 0,
			    sizeof(mech_cards) / sizeof(mech_cards[0]));
	tcase_add_test(tc, test_group_rows);
	tcase_add_test(tc, test_align_around);
	tcase_add_loop_test(tc, test_align_reads, 0, 2);
	tcase_add_test(tc, test_writes_decide);
	tcase_add_test(tc, test_hard_cards);
	tcase_add_test(tc, test_preserve_two_phases);
	tcase_add_test(tc, test_sweep);
	suite_add_tcase(s, tc);
	return s;
}
