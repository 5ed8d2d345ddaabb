/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a run was asked to do: the tests (one bit each) and their options,
 * as every record carries them; and what a check returns when it finds
 * the card short of its claims.
 */
#ifndef FLASHBENCH_OPTS_H
#define FLASHBENCH_OPTS_H

#include <stdint.h>
#include <stdio.h>

/* Test bits; the classic tool runs them in this order. */
enum bench_test {
	BENCH_SCATTER = 1 << 0,		/* -s */
	BENCH_FIND_FAT = 1 << 1,	/* -f */
	BENCH_ALIGN = 1 << 2,		/* -a */
	BENCH_OPEN_AU = 1 << 3,		/* -O */
	BENCH_INTERVAL = 1 << 4,	/* -i */
	BENCH_PROGRAM = 1 << 5,		/* -p */
	BENCH_CAPACITY = 1 << 6,	/* --capacity */
	BENCH_CLASS = 1 << 7,		/* -L, --class */
};

#define BENCH_WRITING (BENCH_FIND_FAT | BENCH_OPEN_AU | BENCH_PROGRAM | \
		       BENCH_CAPACITY | BENCH_CLASS)

struct card_info;

/* Everything the command line says about how to run the tests. */
struct bench_opts {
	uint64_t blocksize_byte;	/* smallest access, -b */
	uint64_t erasesize_byte;	/* AU size for -O/-f, -e */
	unsigned int count;		/* repetitions of each read, -c */
	unsigned int scatter_order;	/* scatter over 2^order blocks */
	unsigned int scatter_span;	/* blocks per scatter read */
	unsigned int interval_order;	/* sizes up to 512 << (order-1) */
	unsigned int open_au_nr;	/* AUs written in turn by -O */
	unsigned int fat_nr;		/* AUs looked at by -f */
	uint64_t flush_byte;		/* -C's flush, --flush (0: its own) */
	uint64_t offset_byte;		/* where -O starts */
	uint64_t cache_cap_byte;	/* --cache-cap: the write-cache
					 * step writes at most this */
	int sustained;			/* --sustained: no cap but the
					 * device's first half */
	int random;			/* -r: pseudo-random order in an AU */
	int verbose;			/* -v count */
	FILE *log;			/* where -v detail goes (stderr) */
	const struct card_info *card;	/* the card's registers, decoded
					 * (its AU, the classes it states);
					 * NULL: unknown */
};

/*
 * What a check (--capacity, --class) returns, instead of 0, when it ran
 * and found the card short of what it claims: it stores less than it
 * announces (a limbo fake, a wraparound fake, or damaged: BENCH_SHORT),
 * or misses a class it states (BENCH_SHORT).  Errors stay -errno.
 */
#define BENCH_SHORT	1
#define BENCH_LIMBO	2	/* a fake: writes past its real size lost */
#define BENCH_WRAP	3	/* a fake: addresses repeat */

#endif /* FLASHBENCH_OPTS_H */
