/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The hard sweep's scoring: each field of a verdict against what was
 * planted in the card (hardcard.h), and the tallies per behaviour, per
 * mechanic, per today's mechanic and per field.  The sweep suite
 * (test_sweep.c) asserts its goal with them; make bench's report of
 * today's cards (bench_auto.c) sums them over noise draws and hosts.
 *
 *   exact    the planted value, with medium or high confidence
 *   unsure   the planted value with low confidence, or no value
 *   wrong    another value with low confidence
 *   WRONG    another value with medium or high confidence; and a class
 *            passed that the card fails past its write cache
 *
 * The mapping (verdict.mapping): a page-mapped card must be named pages
 * with its unit, at medium or high; a block-mapped card named pages is
 * wrong (its count of AUs is the open-AU fields' to judge).
 *
 * The write cache (verdict.write_cache): on a card with a pSLC cache,
 * one seen whose native speed is within a fifth of the planted and whose
 * size within half to twice (one the recheck found, "more than" the
 * fill wrote: not over the planted); none seen where the fill wrote
 * past the cache's end and a run of chunks more, or another speed or
 * size, WRONG (the step states no confidence: what it states, it states
 * as measured); none where the fill stopped short of that unsure.  On a
 * card with none, a cache named is WRONG.
 */
#ifndef FLASHBENCH_TESTS_SWEEPSCORE_H
#define FLASHBENCH_TESTS_SWEEPSCORE_H

#include <stdio.h>

#include "autorecord.h"
#include "bench.h"
#include "dev.h"
#include "hardcard.h"

enum outcome { O_EXACT, O_UNSURE, O_WRONG_LOW, O_WRONG_SURE, O_NR };

extern const char *const outcome_names[O_NR];

enum field {
	F_ERASE, F_PAGE, F_UNIT, F_GROUP, F_OPEN_LIN, F_OPEN_RAND, F_FAT,
	F_MAPPING, F_CACHE, F_CLASS, F_NR
};

extern const char *const field_names[F_NR];

/*
 * Score every field of r against c; out[f] gets each outcome.  The
 * class field is exact where the class check did not run.
 */
void score_card(const struct hard_card *c, const struct auto_result *r,
		enum outcome out[F_NR]);

/* The confidence r gives field f (none for the class field). */
enum analyze_confidence field_conf(const struct auto_result *r, enum field f);

/* The value r gives field f, for the verbose report. */
void field_value(const struct auto_result *r, enum field f, char *buf,
		 size_t len);

/* The tallies of a sweep, zeroed before it. */
struct sweep_tally {
	unsigned int cards, exact, wrong_sure;
	unsigned int by_behaviour[B_NR][O_NR], behaviour_in[B_NR];
	unsigned int by_mech[M_NR][O_NR], mech_in[M_NR];
	unsigned int mech_wrong[M_NR][F_NR];
	unsigned int by_today[T_NR][O_NR], today_in[T_NR];
	unsigned int today_wrong[T_NR][F_NR];
	unsigned int by_field[F_NR][O_NR];
	/* device time of --auto's steps on each today's mechanic, ns */
	double today_step_ns[T_NR][AUTO_STEPS];
	double today_ns[T_NR];		/* and of the whole run */
};

/*
 * Add card c, scored out, to t; its worst outcome.  r gives the device
 * time of its steps.
 */
enum outcome sweep_add(struct sweep_tally *t, const struct hard_card *c,
		       const struct auto_result *r,
		       const enum outcome out[F_NR]);

/*
 * --auto --destructive on card c (dev): auto_run(), and on a card with a
 * write cache auto_run_all(), whose class check (every class, as on a
 * card whose registers cannot be read) the class field scores.  0 or
 * -errno.
 */
int sweep_run(const struct hard_card *c, struct device *dev,
	      const struct bench_opts *o, struct auto_result *r);

/* The tally per behaviour and per field. */
void sweep_print(FILE *f, const struct sweep_tally *t);
/* Per mechanic, and per mechanic and field the WRONG ones. */
void sweep_print_mechanics(FILE *f, const struct sweep_tally *t);
/* Per today's mechanic, its WRONG fields, and its steps' device time. */
void sweep_print_today(FILE *f, const struct sweep_tally *t);

#endif /* FLASHBENCH_TESTS_SWEEPSCORE_H */
