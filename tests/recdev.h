/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The recording device the tests share: every read, write and discard is
 * logged (offset, length, the byte a write's data is made of) and costs
 * a fixed, known time on a virtual clock, so a test can check exactly
 * which I/O a mode or program makes and what it measured.  One I/O can
 * be made to fail; I/O outside the device fails with EINVAL.
 */
#ifndef FLASHBENCH_TESTS_RECDEV_H
#define FLASHBENCH_TESTS_RECDEV_H

#include <stddef.h>
#include <stdint.h>

#include "dev.h"

enum rec_op { REC_READ, REC_WRITE, REC_DISCARD };

/* One logged I/O. */
struct rec_io {
	enum rec_op op;
	uint64_t off;
	uint64_t len;
	int pattern;		/* byte all of a write's data equals, or -1 */
	const void *buf;	/* buffer address */
	int untimed;		/* dev_untimed() was on (--preserve's I/O) */
};

struct rec_dev {
	struct device dev;	/* must be first */
	uint64_t now_ns;	/* virtual clock */
	uint64_t clock_reads;	/* calls of now_ns */
	uint64_t fail_at;	/* 1-based I/O number that fails; 0: none */
	int fail_err;		/* positive errno of that failure */
	int misaligned;		/* buffers not 512-byte aligned */
	struct rec_io *log;	/* n I/Os, in order */
	size_t n, cap;
	/*
	 * Above 0: a file each write is also appended to (a struct
	 * rec_io, buf meaningless) before it goes down, so that a parent
	 * learns what a child killed mid-run wrote.
	 */
	int wlog_fd;
};

/* Costs, in ns: reads 1000 + len, writes 2000 + 2 len, discard 500. */
#define REC_READ_NS(len) (1000 + (uint64_t)(len))
#define REC_WRITE_NS(len) (2000 + 2 * (uint64_t)(len))
#define REC_DISCARD_NS 500

/* A recorder of size bytes with 512-byte logical blocks (a test may
 * change dev.logical_block_size); close it with dev_close(). */
struct rec_dev *rec_open(uint64_t size);

/*
 * A recorder in front of inner (a tap): it logs every I/O as rec_open()'s
 * does, then passes it on; inner's size, block size and clock, nothing
 * fails but what inner fails.  Owns inner: dev_close() closes both.
 */
struct rec_dev *rec_tap(struct device *inner);

/* How many I/Os of kind op it logged. */
size_t rec_count(const struct rec_dev *r, enum rec_op op);

#endif /* FLASHBENCH_TESTS_RECDEV_H */
