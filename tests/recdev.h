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

#include "bench.h"
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

/*
 * Append the writes a tap logged to the file at fd (wlog_fd) to r's log
 * (r NULL: a new recorder's, which is no device to use; dev_close() it);
 * returns r.
 */
struct rec_dev *rec_wlog_load(struct rec_dev *r, int fd);

/*
 * Between I/O from and to of r, a --preserve restore of the nrg ranges
 * rg wrote back what the test wrote (its untimed writes against the
 * timed ones), no more but the gaps under 1 MiB inside one range that
 * preserve joins, in the fewest writes of at most 1 MiB; fails the test
 * otherwise.  Returns how many distinct spans the test wrote, *nback
 * how many writes went back.
 */
size_t rec_wrote_back_written(const struct rec_dev *r, size_t from,
			      size_t to, const struct bench_range *rg,
			      size_t nrg, size_t *nback);

#endif /* FLASHBENCH_TESTS_RECDEV_H */
