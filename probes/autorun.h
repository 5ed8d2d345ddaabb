/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * --auto's entry points for the front end and the tests: its row of the
 * table of tests, the run and how it talks to the front end (where its
 * write steps may write is verdict/layout.h).  The procedures' own parts
 * are in probe.h.
 */
#ifndef FLASHBENCH_AUTORUN_H
#define FLASHBENCH_AUTORUN_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "autorecord.h"
#include "bench.h"
#include "card.h"
#include "dev.h"

struct class_result;
struct json;
struct reconcile;
struct test;

/* How auto_run talks to the front end. */
struct auto_hooks {
	FILE *progress;		/* one line per step (may be NULL) */
	/*
	 * Called after the read-only steps and before the first write, with
	 * every range the write steps may overwrite; a non-zero return
	 * cancels the write steps with that error.  May be NULL.  When the
	 * erase size comes from writes it is called twice: first with the
	 * ranges of that search, then, once the search is over, with those
	 * of the steps that use its result (the front end may put back what
	 * the search overwrote before it saves the next ranges).
	 */
	int (*before_write)(void *ctx, const struct bench_range *ranges,
			    size_t n);
	void *ctx;
	/*
	 * Non-zero when a stop was asked: the class check, the last step,
	 * is then not begun.  May be NULL.
	 */
	const volatile sig_atomic_t *stop;
};

/*
 * Run the survey on dev.  With destructive, also the write steps.
 * Returns 0 or -errno (dev->last_error names a failed I/O); on error res
 * holds what was found so far.  Free with auto_free().
 */
int auto_run(struct device *dev, const struct bench_opts *o, int destructive,
	     const struct auto_hooks *hooks, struct auto_result *res);

/*
 * --auto as the front end runs it: auto_run(), then with destructive
 * (and no stop asked) the class check from o's --offset (--auto's own:
 * the default) in AUs of the size ci states, else the erase size found,
 * judged against the classes ci states; without destructive, the plan of
 * what it and the capacity check would overwrite.  Returns 0 or -errno,
 * as auto_run().
 */
int auto_run_all(struct device *dev, const struct bench_opts *o,
		 int destructive, const struct card_info *ci,
		 const struct auto_hooks *hooks, struct auto_result *res);

/* --auto's row of the table of tests (autotest.c; test.h). */
extern const struct test auto_test;

/*
 * What a run of r with the class check cr (NULL: none) finds short of
 * the card's claims: 0, BENCH_SHORT, BENCH_LIMBO or BENCH_WRAP, the
 * capacity check's kind of fake first.
 */
int auto_short_of(const struct auto_result *r, const struct class_result *cr);

/*
 * --auto's members of its JSON document, a run's or a record's judged
 * again: results, verdict, advice, the erase size reconciled (rc) and
 * the class check cr (null: none).
 */
void auto_json_body(struct json *j, const struct auto_result *r,
		    const struct reconcile *rc, const struct class_result *cr);

#endif /* FLASHBENCH_AUTORUN_H */
