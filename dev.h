/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The device layer: one interface for the real block device (or regular
 * file) opened with O_DIRECT (device/blockdev.h), the simulated card and
 * the wrappers that stack on any device.  Every function returns 0 or
 * -errno and never prints; the front end turns the error recorded in
 * struct device into a message.
 */
#ifndef FLASHBENCH_DEV_H
#define FLASHBENCH_DEV_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <signal.h>
#include <sys/types.h>

struct device;

/*
 * One request of a batch (dev_batch()): a read of len bytes at off into
 * buf, or a write of them from buf.  Requests of one batch that are in
 * flight together each need their own buffer for reads.
 */
struct dev_req {
	int write;		/* 0: read into buf, 1: write from buf */
	void *buf;		/* aligned as dev_alloc_buf() aligns */
	size_t len;
	off_t off;
};

/* Requests in one batch at most (the SD command queue holds 32). */
#define DEV_BATCH_MAX	32

/* The operations a backend implements.  All return 0 or -errno. */
struct dev_ops {
	/* transfer exactly len bytes at byte offset off */
	int (*read)(struct device *dev, void *buf, size_t len, off_t off);
	int (*write)(struct device *dev, const void *buf, size_t len,
		     off_t off);
	/* discard (BLKDISCARD) len bytes at off */
	int (*discard)(struct device *dev, off_t off, uint64_t len);
	/*
	 * Issue the n requests of req together, as a queue the device may
	 * serve in any order, and return when every one has completed: 0,
	 * or the -errno of the first in req's order that failed (others
	 * may have been done).  NULL: dev_batch() issues them one at a
	 * time.  A wrapper forwards it through dev_batch_ops() on inner.
	 */
	int (*batch)(struct device *dev, const struct dev_req *req,
		     unsigned int n);
	/* the device's clock in ns: monotonic, virtual for the simulation */
	uint64_t (*now_ns)(struct device *dev);
	/*
	 * make what was written durable (out of any volatile cache); NULL
	 * when there is nothing to flush.  Wrappers leave it NULL: dev_flush()
	 * finds the backend below them.
	 */
	int (*flush)(struct device *dev);
	/*
	 * let ns pass with no I/O: a virtual clock advances by ns (its card
	 * sees the host idle); NULL for a device in real time, where
	 * dev_idle() sleeps.  Wrappers leave it NULL, as flush.
	 */
	int (*idle)(struct device *dev, uint64_t ns);
	/* release everything the backend holds, including dev itself */
	void (*destroy)(struct device *dev);
};

/* The last failed operation, kept so the front end can name it. */
struct dev_error {
	const char *op;		/* "read", "write", "discard", "open" ... */
	off_t off_byte;		/* where it started */
	uint64_t len_byte;	/* how much it asked for */
	int err;		/* positive errno */
};

/*
 * A device.  Backends embed it as their first member and keep everything
 * else private to their own file.
 */
struct device {
	const struct dev_ops *ops;
	const char *path;		/* as given; "simulated card" for sim */
	uint64_t size_byte;		/* usable size */
	unsigned int logical_block_size; /* bytes; reads/writes align to it */
	uint64_t io_count;		/* read/write/discard calls issued */
	/*
	 * Non-zero while I/O is not part of a measurement (backing up and
	 * restoring with --preserve): a virtual clock neither advances nor
	 * draws noise, so the measurements come out as without it.
	 */
	int untimed;
	struct dev_error last_error;	/* filled when an operation fails */
	/*
	 * The device a wrapper (fault injector, progress) forwards to; NULL
	 * for a backend.  dev_flush() and dev_untimed() follow it, so every
	 * wrapper passes them on without a line of its own.
	 */
	struct device *inner;
};

/* Data written by the writing tests. */
enum dev_pattern {
	DEV_PAT_ZERO,		/* 0x00 */
	DEV_PAT_ONES,		/* 0xff */
	DEV_PAT_5A,		/* 0x5a */
	DEV_PAT_RANDOM,		/* pseudo-random bytes */
};

/* Close any device, real or simulated. */
void dev_close(struct device *dev);

/*
 * Timed I/O: the two clock readings enclose nothing but the transfer.
 * Each returns 0 or -errno and, on success, the elapsed ns in *time_ns
 * (time_ns may be NULL).
 */
int dev_read(struct device *dev, void *buf, size_t len, off_t off,
	     uint64_t *time_ns);
int dev_write(struct device *dev, const void *buf, size_t len, off_t off,
	      uint64_t *time_ns);
int dev_discard(struct device *dev, off_t off, uint64_t len,
		uint64_t *time_ns);

/*
 * Queued I/O: the n requests of req (1..DEV_BATCH_MAX) issued together,
 * timed from before the first is submitted to after the last completes
 * (*time_ns, may be NULL).  On a device without a queue they are served
 * one at a time.  Returns 0 or the -errno of the first that failed, in
 * req's order; the others may have been done, as on a real queue.
 */
int dev_batch(struct device *dev, const struct dev_req *req, unsigned int n,
	      uint64_t *time_ns);

/*
 * The untimed part of dev_batch(), for wrappers to pass a batch to the
 * device below: dev's batch operation, or its reads and writes one by
 * one (stopping at the first failure) when it has none.  0 or -errno.
 */
int dev_batch_ops(struct device *dev, const struct dev_req *req,
		  unsigned int n);

/*
 * From now on dev_read(), dev_write(), dev_batch() and dev_discard() fail with -EINTR,
 * before any I/O, while *flag is non-zero (flag NULL: never).  A signal
 * handler sets the flag; the test running stops within one I/O.
 */
void dev_set_stop_flag(volatile sig_atomic_t *flag);

/*
 * Make what was written to dev durable: the flush of the first device
 * down the stack that has one.  Returns 0 or -errno.
 */
int dev_flush(struct device *dev);

/*
 * Mark the I/O that follows as not part of a measurement (on nonzero) or
 * as measured again (on 0), on dev and every device below it: a virtual
 * clock then neither advances nor draws noise.  Calls nest.
 */
void dev_untimed(struct device *dev, int on);

/*
 * Leave dev idle for ns (no I/O): the idle operation of the first device
 * down the stack that has one (a virtual clock moves on), else a sleep of
 * ns in real time.  Returns 0 or -errno (-EINTR when the stop flag is
 * set).
 */
int dev_idle(struct device *dev, uint64_t ns);

/* The device's clock in ns (virtual for the simulated card). */
uint64_t dev_now_ns(struct device *dev);

/* A monotonic wall clock in ns; aborts if the clock cannot be read. */
uint64_t dev_monotonic_ns(void);

/* A buffer aligned for O_DIRECT, or NULL.  Free with dev_free_buf(). */
void *dev_alloc_buf(size_t len);
void dev_free_buf(void *buf);

/* Fill buf with a write pattern (seed only matters for DEV_PAT_RANDOM). */
void dev_fill(void *buf, size_t len, enum dev_pattern pat, uint64_t seed);

/* Record a failure in dev->last_error and return -err. */
int dev_fail(struct device *dev, const char *op, off_t off, uint64_t len,
	     int err);

/*
 * Wrappers: a device stacked on another (dev->inner) that changes some
 * operations and forwards the rest, as the fault injector, --preserve's
 * guard, the progress line and --time-ops do.  Each embeds struct device
 * first.
 *
 * dev_wrap_new() allocates one of size bytes, zeroed, with ops, stacked
 * on inner: its path, size and logical block size are inner's.  Returns
 * it (its struct device first), or NULL when out of memory.
 */
void *dev_wrap_new(size_t size, const struct dev_ops *ops,
		   struct device *inner);

/*
 * Forward one operation of wrapper dev to dev->inner unchanged, untimed:
 * counted in inner's io_count, and a failure recorded on dev too (the
 * caller looks at the outer device).  A wrapper names them in its
 * dev_ops for what it does not change, or calls them to pass an
 * operation on after its own part.  0 or -errno.
 */
int dev_fwd_read(struct device *dev, void *buf, size_t len, off_t off);
int dev_fwd_write(struct device *dev, const void *buf, size_t len,
		  off_t off);
int dev_fwd_discard(struct device *dev, off_t off, uint64_t len);
int dev_fwd_batch(struct device *dev, const struct dev_req *req,
		  unsigned int n);

/* inner's clock: a wrapper takes no time of its own. */
uint64_t dev_fwd_now_ns(struct device *dev);

/* Close inner, then free dev: a wrapper with nothing else to release. */
void dev_fwd_destroy(struct device *dev);

#endif /* FLASHBENCH_DEV_H */
