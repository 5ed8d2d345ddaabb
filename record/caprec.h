/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * -C's record: what the capacity search saw (the evidence, "results"),
 * what is decided from it (the verdict), what to do about a fake (the
 * fix) and how long the check would take (the estimate), with their
 * tables of fields (rectab.h).  modes/capacity.c fills the evidence,
 * verdict/capacity.c decides the verdict from it, output/capfixtext.c
 * the fix (from the table modes/capfix.c reads), modes/capest.c times
 * the estimate.
 */
#ifndef FLASHBENCH_CAPREC_H
#define FLASHBENCH_CAPREC_H

#include <stdint.h>

#include "rectab.h"

/* What the card turned out to be. */
enum capacity_kind {
	CAPACITY_GENUINE,	/* every probe came back */
	CAPACITY_LIMBO,		/* past usable, writes are lost */
	CAPACITY_WRAP,		/* addresses alias modulo usable */
	CAPACITY_DAMAGED,	/* blocks below usable did not come back */
};

/*
 * What the search saw, the raw evidence its verdict comes from (kept in
 * the record's "results"): capacity_decide() judges it without a device.
 */
struct capacity_evidence {
	uint64_t stored_byte;		/* data came back up to here */
	int lost;			/* a write was lost ... */
	uint64_t lost_byte;		/* ... the lowest one, from here */
	int lost_garbage;		/* read there: not zeros */
	int lost_below_stored;		/* one lost below one that came back */
	uint64_t alias_byte;		/* blocks read back naming another
					 * offset: the period they share, its
					 * divisors tried (0: none seen) */
	uint64_t flush_byte;		/* written to defeat a cache */
	uint64_t cache_byte;		/* a cache held a block the flash lost,
					 * flushed this far (0: none) */
};

struct capacity_result {
	struct capacity_evidence ev;	/* what the search saw */
	uint64_t announced_byte;	/* the device's size */
	uint64_t usable_byte;		/* stores data up to here */
	uint64_t modulus_byte;		/* wrap: the modulus, else 0 */
	uint64_t lost_byte;		/* the first probe that failed */
	uint64_t cache_byte;		/* write cache seen (0: none) */
	uint64_t flush_byte;		/* written to defeat a cache, at most */
	uint64_t defeat_byte;		/* a fake behind a larger cache may
					 * pass for genuine */
	enum capacity_kind kind;
	int exact;			/* usable within 1 % (or 1 MiB) */
	int limbo_garbage;		/* limbo reads return garbage */
	unsigned int probes;		/* signature blocks written */
	uint64_t written_byte;		/* all bytes written */
	uint64_t device_ns;		/* device time of the whole test */
	unsigned int logical_block_size;
};

/* What the advice is. */
enum capfix_how {
	CAPFIX_NOTHING,		/* genuine */
	CAPFIX_NO_DATA,		/* damaged, or too little of it */
	CAPFIX_KEEP,		/* every partition ends within it */
	CAPFIX_SHRINK,		/* one command shrinks the last one */
	CAPFIX_REPLACE,		/* a new table of one partition */
};

/* The advice as the record keeps it. */
struct capfix_advice {
	enum capfix_how how;
	const char *command;	/* NULL: none */
};

/*
 * How long the check will take, timed on the device before its first
 * write (modes/capest.c); the estimates are the record's "estimate".
 */
struct capacity_estimate {
	/* measured, device time in ns */
	uint64_t read_block_ns;		/* a 4 KiB block far out: mean */
	uint64_t write_block_ns;	/* written: the slowest */
	uint64_t read_part_ns;		/* a part of the flush region */
	uint64_t write_part_ns;
	uint64_t part_byte;		/* its size */
	/* the estimates, device time in ns */
	uint64_t fake_ns;		/* the check on a fake found at once */
	uint64_t genuine_ns;		/* on a genuine card: the most */
	uint64_t save_fake_ns;		/* --preserve's save on a limbo fake
					   found at once: the least */
	uint64_t save_ns;		/* ... on a genuine card: the most */
	uint64_t back_fake_ns;		/* its write-back and verify */
	uint64_t back_ns;		/* ... on a genuine card */
};

/* The kinds of operation --time-ops counts (front/timeops.c). */
enum timeops_kind {
	TIMEOPS_READ,
	TIMEOPS_WRITE,
	TIMEOPS_FLUSH,		/* writes in the flush region */
	TIMEOPS_SAVE_READ,
	TIMEOPS_WRITE_BACK,
	TIMEOPS_VERIFY,		/* reads after the write-back */
	TIMEOPS_TIMING_IO,	/* the estimate's reads and writes */
	TIMEOPS_NR,
};

/* What --time-ops counted of one kind, and of each: "time_ops". */
struct timeops_count {
	uint64_t n;			/* calls */
	uint64_t byte;			/* bytes moved */
	uint64_t ns;			/* device time */
};

struct timeops_rec {
	struct timeops_count k[TIMEOPS_NR];
};

/* The evidence (results[0]), the verdict, the fix beside it. */
extern const struct rt_table capacity_evidence_table;
extern const struct rt_table capacity_verdict_table;
extern const struct rt_table capfix_table;

/* The estimate said before the check; --time-ops' counts. */
extern const struct rt_table capacity_estimate_table;
extern const struct rt_table timeops_table;

/* The kind's name: "genuine", "limbo", "wraparound", "damaged". */
const char *capacity_kind_name(enum capacity_kind kind);

/* The check's units: a probe, a signed unit, the search's finest step. */
#define CAPACITY_BLOCK	4096ULL		/* a probe */
#define CAPACITY_SECTOR	512ULL		/* a signed unit */
#define CAPACITY_STEP	(1ULL << 20)	/* the search's finest step */

#endif /* FLASHBENCH_CAPREC_H */
