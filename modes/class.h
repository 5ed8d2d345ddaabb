/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * --class: the speed, UHS, video and application classes a card states,
 * measured from the host in the card's current state.  This is not the
 * SD Association's certification procedure: it writes as the class
 * definitions describe and compares with their thresholds.
 *
 *   speed C2..C10, UHS U1 U3, video V6..V90: sequential writes over whole
 *   AUs (an AU above 4 MiB in 4 MiB sub-units) in recording units (64 KiB
 *   for the speed classes, 512 KiB for UHS and video); the slowest unit's
 *   rate (10^6 bytes/s) must reach the class, and no single write may
 *   take over 250 ms
 *   application A1 (A2): random 4 KiB reads >= 1500 (4000) per second,
 *   random 4 KiB writes >= 500 (2000) per second, and >= 10 MB/s
 *   sequential writes (the 512 KiB units); a card too slow for all of
 *   them in 10 s of device time each is judged on those done
 *
 * The random I/O runs at queue depth 1 (one request at a time) and at
 * queue depth 4 (four issued together, dev_batch(), timed from the first
 * submitted to the last completed).  A1 is judged at depth 1: its
 * definition predates the command queue.  A2 is judged at depth 4: its
 * figures need the card's command queue and cache, which the host must
 * enable; when A2 fails only on the writes the report says so.
 */
#ifndef FLASHBENCH_CLASS_H
#define FLASHBENCH_CLASS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bench.h"
#include "card.h"
#include "classrec.h"
#include "dev.h"
#include "json.h"

#define CLASS_UNITS		4	/* AUs (or sub-units) written */
#define CLASS_SD_RU_BYTE	(64ULL << 10)	/* speed class recording unit */
#define CLASS_UHS_RU_BYTE	(512ULL << 10)	/* UHS/video recording unit */
#define CLASS_SPAN_BYTE		(64ULL << 20)	/* random I/O region */
#define CLASS_RANDOM_OPS	1000	/* random reads, then writes */
#define CLASS_IO_BYTE		4096	/* random I/O size */
#define CLASS_MIN_OPS		20	/* random I/O at least, each */
#define CLASS_BUDGET_NS		10000000000ULL	/* random I/O at most */
#define CLASS_MAX_BUSY_NS	250000000ULL	/* longest write allowed */
#define CLASS_QD		4U	/* queue depth of the queued run */

/* The plan for a device of dev_byte given the AU (0: o's erase size). */
void class_plan(struct class_plan *p, const struct bench_opts *o,
		uint64_t au_byte);

/* The ranges --class overwrites, as a mode's write_ranges. */
int class_write_ranges(enum bench_test test, const struct bench_opts *o,
		       uint64_t dev_size, struct bench_range *ranges,
		       size_t max);

/* Measure.  Returns 0 or -errno (r holds what was measured). */
int class_measure(struct device *dev, const struct class_plan *p,
		  struct class_result *r);

/*
 * Judge the classes c states (all of them when c is NULL or states
 * none) against what r measured.
 */
void class_judge(struct class_result *r, const struct card_claims *c);

/* Does the card miss a class it states (after class_judge())? */
int class_short(const struct class_result *r);

/*
 * Fill r's measurements from a record's n entries (their names and
 * measured figures), as class_judge() needs them (the plan and the
 * counts stay 0): 0, or 1 + the index of a class name it does not know.
 */
size_t class_refill(struct class_result *r, const struct class_entry *e,
		    size_t n);

/* After class_judge() on a refilled r: the first class judged whose
 * figures the record lacks, or NULL. */
const char *class_missing(const struct class_result *r);

/* The classes' lines alone (a record's check: no plan, no counts). */
void class_print_checks(FILE *out, const struct class_result *r);

/*
 * What an interrupted check had measured, with no class judged: the
 * sequential runs and random I/O it finished.
 */
void class_print_stopped(FILE *out, const struct class_result *r);

/* The report, with its device time; without it (for --auto's total). */
void class_print(FILE *out, const struct class_result *r);
void class_print_body(FILE *out, const struct class_result *r);
void class_json(struct json *j, const struct class_result *r);

/*
 * -L's writes past a write cache before the classes, as the record's
 * "cache_fill" (the write_cache step's members); none where it made
 * none.  0 or -ENOMEM.
 */
int class_json_cache(struct json *j, const struct class_result *r);

/*
 * Where the classes of r were measured: past a write cache, or within
 * what the cap let the writes before them reach (nothing where no
 * writes went before them).
 */
void class_print_cache(FILE *out, const struct class_result *r);

#endif /* FLASHBENCH_CLASS_H */
