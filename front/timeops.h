/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * --time-ops: the device time of each kind of operation of a run, as
 * f3probe's --time-ops gives it: the check's reads, its writes, its
 * flush writes (those that push its probes out of a write cache),
 * --preserve's save, write-back and verifying reads, and the short
 * timing the estimate of the run's duration is made from.  A wrapper on the
 * device (as the progress line's) counts each call and the device time
 * it took; the front end names the phase (save, test, write-back).
 */
#ifndef FLASHBENCH_TIMEOPS_H
#define FLASHBENCH_TIMEOPS_H

#include <stdint.h>
#include <stdio.h>

#include "caprec.h"
#include "dev.h"

enum timeops_phase {
	TIMEOPS_TEST,		/* the test itself */
	TIMEOPS_SAVE,		/* --preserve saving */
	TIMEOPS_BACK,		/* --preserve writing back and verifying */
	TIMEOPS_TIMING,		/* the estimate's timing, before the test */
};

struct timeops {
	enum timeops_phase phase;
	uint64_t flush_lo, flush_hi;	/* the flush region */
	struct device *backend;		/* the device at the bottom */
	uint64_t n[TIMEOPS_NR];		/* calls */
	uint64_t byte[TIMEOPS_NR];	/* bytes moved */
	uint64_t ns[TIMEOPS_NR];	/* device time */
};

/*
 * Count dev's I/O into t from now on (t is zeroed; the flush region is
 * --capacity's on dev): the wrapper to run on (closing it closes dev),
 * or dev itself when memory is short.
 */
struct device *timeops_attach(struct timeops *t, struct device *dev);

/* The phase the following I/O belongs to. */
void timeops_phase(struct timeops *t, enum timeops_phase phase);

/*
 * The table ("time per operation") and its JSON object time_ops (per
 * kind: count, bytes, device_ns).
 */
void timeops_print(FILE *out, const struct timeops *t);
struct json;
void timeops_json(struct json *j, const struct timeops *t);

#endif /* FLASHBENCH_TIMEOPS_H */
