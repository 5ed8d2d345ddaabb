// SPDX-License-Identifier: GPL-2.0-only
/*
 * make bench: device time of --auto --destructive against the classic
 * manual procedure on the same simulated card, read off the card's
 * virtual clock so the figures do not depend on this machine's load.
 *
 * The classic procedure is what the README taught: -a -b 1024, then -O
 * with the (now known) erase size and -b 16384 for nr = 1 .. open+1,
 * linear and then with -r, then -f --fat-nr=6 and -f --fat-nr=6 --random
 * (--auto looks for a FAT area in both orders, as an engineer runs -f and
 * -f --random: a card's area may show only in one).  Goal: ratio <= 0.05 on
 * cards with a read signature: the default card, the ten sweep cards and
 * every card of the hard sweep that has one (tests/hardcard.h).  Cards without one (readsig=0) find the
 * erase size from writes: their lines show what that search costs.  The
 * capacity check that --auto --destructive ends with answers a question
 * the classic procedure never asked: it is shown apart and not compared.
 * SWEEP_MECH and SWEEP_HOST draw the hard cards as the sweep does
 * (hardcard.h); BENCH_CLASSIC_CACHE is then left alone.
 *
 * Today's cards (issue 26): make bench also states the device time of
 * --auto --destructive's steps on a panel of them (the peers' panel,
 * tests/peers/bench-peers PEERS_PANEL=today), and "today [K/N]" (make
 * bench-today) scores the hard sweep with today's mechanics drawn
 * (SWEEP_TODAY=1) over three noise draws, on a quiet and on a busy host,
 * per behaviour, per mechanic and per field (tests/sweepscore.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "autorun.h"
#include "card.h"
#include "class.h"
#include "format.h"
#include "hardcard.h"
#include "modes.h"
#include "sim.h"
#include "sweepscore.h"
#include "util.h"

#define GOAL 0.05

static struct device *card(const char *spec)
{
	struct sim_params p;
	struct device *dev;
	char err[256];

	sim_params_default(&p);
	if (sim_parse_spec(&p, spec, err, sizeof(err)) || sim_open(&dev, &p)) {
		fprintf(stderr, "bench: bad card %s: %s\n", spec, err);
		exit(2);
	}
	return dev;
}

/*
 * Device ns of the classic procedure on a fresh card; when steps is not
 * NULL, the time of each of its steps into it.
 */
static double classic_ns(const char *spec, uint64_t erase, unsigned int open,
			 char *steps, size_t len)
{
	struct device *dev = card(spec);
	struct align_row *rows;
	struct bench_opts o;
	unsigned int nr;
	uint64_t t0 = dev_now_ns(dev), t[4];
	size_t n;
	FILE *null = fopen("/dev/null", "w");
	int r;

	bench_opts_default(&o);
	o.log = NULL;
	o.blocksize_byte = 1024;
	if (bench_align(dev, &o, &rows, &n))
		exit(1);
	free(rows);
	t[0] = dev_now_ns(dev);
	o.blocksize_byte = 16384;
	o.erasesize_byte = erase;
	o.offset_byte = (16ULL << 20) / erase * erase;
	if (o.offset_byte < 16ULL << 20)
		o.offset_byte += erase;
	for (r = 0; r < 2; r++) {
		o.random = r;
		for (nr = 1; nr <= open + 1; nr++) {
			o.open_au_nr = nr;
			if (open_au_run(dev, &o, null))
				exit(1);
		}
		t[1 + r] = dev_now_ns(dev);
	}
	o.fat_nr = 6;
	for (r = 0; r < 2; r++) {
		o.random = r;
		if (find_fat_run(dev, &o, null))
			exit(1);
	}
	fclose(null);
	t[3] = dev_now_ns(dev);
	if (steps)
		snprintf(steps, len,
			 "  classic steps: align %.1fs, open linear %.1fs, open random %.1fs, FAT %.1fs\n",
			 (t[0] - t0) / 1e9, (t[1] - t[0]) / 1e9,
			 (t[2] - t[1]) / 1e9, (t[3] - t[2]) / 1e9);
	dev_close(dev);
	return (double)(t[3] - t0);
}

/*
 * What the write-cache step wrote and saw, for the steps' line: its cap,
 * what it wrote, and the cache (none, its size, or more than the cap).
 */
static const char *cache_said(const struct auto_cache *c, char *buf,
			      size_t len)
{
	char cap[FMT_LEN], w[FMT_LEN], sz[FMT_LEN];

	fmt_size(cap, c->cap_byte);
	fmt_size(w, (uint64_t)c->nchunks * c->chunk_byte);
	fmt_size(sz, c->size_byte);
	snprintf(buf, len, "cap %s, wrote %s%s: %s%s", cap, w,
		 c->rechecks ? " and a recheck" : "",
		 c->dropped || c->late ? "cache " : "no cache",
		 c->dropped || c->late ? (c->late ? "over the cap" : sz) : "");
	return buf;
}

/*
 * Device ns of --auto --destructive on a fresh card, without its capacity
 * check and its write-cache step (stated apart); the time of each step
 * into steps.
 */
static double auto_ns(const char *spec, char *steps, size_t len)
{
	struct device *dev = card(spec);
	struct auto_result r;
	struct bench_opts o;
	char cs[160];
	double t;

	bench_opts_default(&o);
	if (auto_run(dev, &o, 1, NULL, &r))
		exit(1);
	t = (double)r.device_ns - (double)r.step_ns[AUTO_STEP_CACHE];
	if (r.capacity_done)
		t -= (double)r.capacity.device_ns;
	snprintf(steps, len,
		 "  auto steps: align %.1fs, erase from writes %.1fs, FAT %.1fs, open linear %.1fs, open random %.1fs; not compared: capacity %.1fs, write cache %.1fs (%s)\n",
		 r.step_ns[AUTO_STEP_ALIGN] / 1e9,
		 r.step_ns[AUTO_STEP_ERASE_WRITES] / 1e9,
		 r.step_ns[AUTO_STEP_FAT] / 1e9,
		 r.step_ns[AUTO_STEP_OPEN_LINEAR] / 1e9,
		 r.step_ns[AUTO_STEP_OPEN_RANDOM] / 1e9,
		 r.capacity_done ? r.capacity.device_ns / 1e9 : 0.0,
		 r.step_ns[AUTO_STEP_CACHE] / 1e9, cache_said(&r.cache, cs,
							    sizeof(cs)));
	auto_free(&r);
	dev_close(dev);
	return t;
}

static double compare(const char *name, const char *spec, uint64_t erase,
		      unsigned int open)
{
	char steps[256];
	double a = auto_ns(spec, steps, sizeof(steps));
	double c = classic_ns(spec, erase, open, NULL, 0);

	fputs(steps, stdout);
	printf("%-12s auto %8.1fs  classic %9.1fs  ratio %.4f  (%s)\n", name,
	       a / 1e9, c / 1e9, a / c, spec);
	return a / c;
}

/*
 * The classic procedure's device time on hard card i.  Its time depends
 * on the card alone, not on --auto: with BENCH_CLASSIC_CACHE=FILE it is
 * read from FILE when there ("card ns" lines) and added to it when not, so
 * that a change to --auto is measured again on every card in minutes.
 */
static double hard_classic_ns(unsigned int i, const struct hard_card *c)
{
	/* the cache knows card numbers, not the mechanics drawn */
	const char *path = hard_env_drawn() ? NULL :
			   getenv("BENCH_CLASSIC_CACHE");
	unsigned int k;
	double ns;
	FILE *f;

	if (path && (f = fopen(path, "r"))) {
		while (fscanf(f, "%u %lf", &k, &ns) == 2)
			if (k == i) {
				fclose(f);
				return ns;
			}
		fclose(f);
	}
	ns = classic_ns(c->spec, c->erase, c->open, NULL, 0);
	if (path && (f = fopen(path, "a"))) {
		fprintf(f, "%u %.0f\n", i, ns);
		fclose(f);
	}
	return ns;
}

/*
 * The cards of the hard sweep that have a read signature (the others
 * find the erase size from writes, whose cost the readsig=0 lines show):
 * each over the goal is listed; returns how many.
 */
static unsigned int hard_sweep(unsigned int shard, unsigned int shards,
			       double *worst)
{
	unsigned int i, n = 0, over = 0;

	*worst = 0;
	for (i = shard; i < HARD_CARDS; i += shards) {
		struct hard_card c;
		char steps[256];
		double a, r;

		hard_card_env(i, &c);
		if (c.behaviours & (1u << B_NOREADSIG))
			continue;
		a = auto_ns(c.spec, steps, sizeof(steps));
		r = a / hard_classic_ns(i, &c);
		n++;
		if (r > *worst)
			*worst = r;
		if (r > GOAL || getenv("SWEEP_VERBOSE")) {
			over += r > GOAL;
			printf("hard card %u%s: ratio %.4f, auto %.1fs (%s)\n%s",
			       i, r > GOAL ? " over the goal" : "", r,
			       a / 1e9, c.spec, steps);
		}
	}
	printf("hard sweep: %u cards with a read signature, worst ratio %.4f, %u over %.2f\n",
	       n, *worst, over, GOAL);
	return over;
}

/* The named cards of the hard sweep, each with its ratio and steps. */
static unsigned int hard_cards(int argc, char **argv)
{
	unsigned int over = 0;
	int k;

	for (k = 2; k < argc; k++) {
		struct hard_card c;
		char steps[256], csteps[256];
		unsigned int i;
		double a, r;

		if (sscanf(argv[k], "%u", &i) != 1 || i >= HARD_CARDS) {
			fprintf(stderr, "bench: no hard card %s\n", argv[k]);
			exit(2);
		}
		hard_card_env(i, &c);
		a = auto_ns(c.spec, steps, sizeof(steps));
		r = a / classic_ns(c.spec, c.erase, c.open, csteps,
				   sizeof(csteps));
		over += r > GOAL;
		printf("hard card %u: ratio %.4f, auto %.1fs (%s)\n%s%s", i, r,
		       a / 1e9, c.spec, steps, csteps);
	}
	return over;
}

/*
 * Today's cards, as the peers' panel has them (tests/peers/bench-peers):
 * the device time of each step of --auto --destructive, the class check
 * (past a cache: what it measured) included.
 */
static const char *const today_panel[][2] = {
	{ "A1 pages+pSLC",
	  "size=32G,erase=4M,page=16K,ftl=page,map=4K,slc=512M,claims=C10+U1+A1" },
	{ "A2 pages+pSLC",
	  "size=64G,erase=8M,page=16K,ftl=page,map=16K,slc=1G,claims=C10+U3+V30+A2" },
	{ "V30 18MB/s+pSLC",
	  "size=64G,erase=8M,page=16K,open=5,slc=1G,write_mbps=18,claims=C10+U3+V30" },
	{ "eMMC maint",
	  "size=8G,erase=4M,page=16K,ftl=page,map=4K,readsig=0,maint_ms=200" },
	{ "dashcam stalls",
	  "size=32G,erase=4M,page=16K,open=4,stall_ms=400,stall_bytes=64M,claims=C10+U1+V10" },
	{ "USB 4K sectors",
	  "size=16G,erase=4M,page=16K,sector=4K,readsig=0,open=3" },
	{ "pages nearly full",
	  "size=8G,erase=4M,page=16K,ftl=page,map=4K,spare=2" },
	{ "modern control",
	  "size=32G,erase=4M,page=16K,open=6,claims=C10+U1" },
};

static void today_panel_times(void)
{
	size_t i;

	printf("today's cards: device time of --auto --destructive's steps (s)\n");
	for (i = 0; i < sizeof(today_panel) / sizeof(today_panel[0]); i++) {
		struct device *dev = card(today_panel[i][1]);
		struct card_raw raw;
		struct card_info ci;
		struct sim_params p;
		struct auto_result r;
		struct bench_opts o;
		char err[256], cs[160];

		sim_params_default(&p);
		sim_parse_spec(&p, today_panel[i][1], err, sizeof(err));
		sim_card_registers(&p, &raw);
		card_decode(&raw, &ci);
		bench_opts_default(&o);
		if (auto_run_all(dev, &o, 1, &ci, NULL, &r))
			exit(1);
		printf("  %-18s %s\n    write cache %.1f (%s),\n    align %.1f, erase from writes %.1f, FAT %.1f, open linear %.1f, open random %.1f, capacity %.1f, class %.1f; in all %.1f\n",
		       today_panel[i][0], today_panel[i][1],
		       r.step_ns[AUTO_STEP_CACHE] / 1e9,
		       cache_said(&r.cache, cs, sizeof(cs)),
		       r.step_ns[AUTO_STEP_ALIGN] / 1e9,
		       r.step_ns[AUTO_STEP_ERASE_WRITES] / 1e9,
		       r.step_ns[AUTO_STEP_FAT] / 1e9,
		       r.step_ns[AUTO_STEP_OPEN_LINEAR] / 1e9,
		       r.step_ns[AUTO_STEP_OPEN_RANDOM] / 1e9,
		       r.capacity_done ? r.capacity.device_ns / 1e9 : 0.0,
		       r.class ? r.class->device_ns / 1e9 : 0.0,
		       (r.device_ns + (r.class ? r.class->device_ns : 0)) /
		       1e9);
		auto_free(&r);
		dev_close(dev);
	}
}

/*
 * The hard sweep with today's mechanics drawn (SWEEP_TODAY=1), every Nth
 * card from card K, over three noise draws (SWEEP_SEED 0, 1000, 2000) on
 * a quiet host and a heavy one: a line per draw and host, then the sum
 * per behaviour, mechanic and field.  Returns the WRONG cards.
 */
static unsigned int today_sweep(unsigned int shard, unsigned int shards)
{
	static const char *const hosts[] = { "", "heavy" };
	static struct sweep_tally all;
	unsigned int d, h, i;
	struct bench_opts o;

	bench_opts_default(&o);
	setenv("SWEEP_TODAY", "1", 1);
	for (d = 0; d < 3; d++)
		for (h = 0; h < 2; h++) {
			struct sweep_tally t;
			char seed[16];

			memset(&t, 0, sizeof(t));
			snprintf(seed, sizeof(seed), "%u", d * 1000);
			setenv("SWEEP_SEED", seed, 1);
			setenv("SWEEP_HOST", hosts[h], 1);
			for (i = shard; i < HARD_CARDS; i += shards) {
				struct hard_card c;
				struct auto_result r;
				struct device *dev;
				enum outcome out[F_NR];

				hard_card_env(i, &c);
				dev = card(c.spec);
				if (sweep_run(&c, dev, &o, &r))
					exit(1);
				score_card(&c, &r, out);
				sweep_add(&t, &c, &r, out);
				sweep_add(&all, &c, &r, out);
				auto_free(&r);
				dev_close(dev);
			}
			printf("today's sweep, draw %u, host %s: %u cards, %u exact (%.1f%%), %u with a WRONG field\n",
			       d, h ? hosts[h] : "quiet", t.cards, t.exact,
			       100.0 * t.exact / t.cards, t.wrong_sure);
		}
	printf("today's sweep, 3 draws x 2 hosts: %u cards, %u exact (%.1f%%), %u with a WRONG field\n",
	       all.cards, all.exact, 100.0 * all.exact / all.cards,
	       all.wrong_sure);
	sweep_print(stdout, &all);
	sweep_print_today(stdout, &all);
	return all.wrong_sure;
}

/*
 * With no argument: the default card, the sweep cards and the cards
 * without a read signature.  With "hard K/N": every Nth card of the hard
 * sweep from card K (make bench-hard runs them in parallel; it takes
 * long: the classic procedure on a 128 GiB card is hours of device time).
 * With "card I...": the hard sweep's cards I..., whatever their kind.
 * With "today [K/N]": today's sweep (make bench-today), every Nth card;
 * with "panel": today's panel alone.
 */
int main(int argc, char **argv)
{
	double def, worst = 0, hard_worst;
	unsigned int i, shard = 0, shards = 1;
	char name[16];
	int met;

	setvbuf(stdout, NULL, _IOLBF, 0);	/* progress, line by line */
	if (argc == 3 && !strcmp(argv[1], "hard") &&
	    sscanf(argv[2], "%u/%u", &shard, &shards) == 2 && shard < shards)
		return hard_sweep(shard, shards, &hard_worst) ? 1 : 0;
	if (argc >= 3 && !strcmp(argv[1], "card"))
		return hard_cards(argc, argv) ? 1 : 0;
	if (argc == 2 && !strcmp(argv[1], "panel")) {
		today_panel_times();
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "today") &&
	    (argc == 2 || (argc == 3 && sscanf(argv[2], "%u/%u", &shard,
					       &shards) == 2 &&
			   shard < shards)))
		return today_sweep(shard, shards) ? 1 : 0;
	if (argc != 1) {
		fprintf(stderr, "usage: bench_auto [hard K/N | card I... | today [K/N] | panel]\n");
		return 2;
	}
	def = compare("default", "", 4 << 20, 4);
	for (i = 0; i < 10; i++) {
		struct sweep_card c;
		double r;

		sweep_card(i, &c);
		snprintf(name, sizeof(name), "sweep %u", i);
		r = compare(name, c.spec, c.erase, c.open);
		if (r > worst)
			worst = r;
	}
	/* no read signature: the erase size comes from writes */
	compare("readsig=0", "readsig=0", 4 << 20, 4);
	compare("readsig=0 1M", "readsig=0,erase=1M,size=2G,open=2", 1 << 20,
		2);
	compare("readsig=0 12M", "readsig=0,erase=12M,open=6", 12 << 20, 6);
	today_panel_times();
	met = def <= GOAL && worst <= GOAL;
	printf("ratio (device time, --auto --destructive without the capacity check / classic): default card %.4f, worst of 10 sweep cards %.4f; goal <= %.2f: %s\n",
	       def, worst, GOAL, met ? "met" : "MISSED");
	return met ? 0 : 1;
}
