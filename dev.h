/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The device layer: one interface for a real block device (or regular
 * file) opened with O_DIRECT, and for the simulated card.  Every function
 * returns 0 or -errno and never prints; the front end turns the error
 * recorded in struct device into a message.
 */
#ifndef FLASHBENCH_DEV_H
#define FLASHBENCH_DEV_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <signal.h>
#include <sys/types.h>

struct device;

/* The operations a backend implements.  All return 0 or -errno. */
struct dev_ops {
	/* transfer exactly len bytes at byte offset off */
	int (*read)(struct device *dev, void *buf, size_t len, off_t off);
	int (*write)(struct device *dev, const void *buf, size_t len,
		     off_t off);
	/* discard (BLKDISCARD) len bytes at off */
	int (*discard)(struct device *dev, off_t off, uint64_t len);
	/* the device's clock in ns: monotonic, virtual for the simulation */
	uint64_t (*now_ns)(struct device *dev);
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
};

/* Flags for dev_open(). */
#define DEV_WRITE	0x1	/* open read-write (writing tests only) */
#define DEV_EXCL	0x2	/* refuse a mounted or otherwise held device */

/* Data written by the writing tests. */
enum dev_pattern {
	DEV_PAT_ZERO,		/* 0x00 */
	DEV_PAT_ONES,		/* 0xff */
	DEV_PAT_5A,		/* 0x5a */
	DEV_PAT_RANDOM,		/* pseudo-random bytes */
};

/*
 * Open a block device or regular file with O_DIRECT.  Returns 0 or -errno;
 * on failure *devp is NULL and, when holder is non-NULL, holder receives a
 * human-readable reason naming what holds the device (mount point,
 * partition, exclusive opener), or an empty string.
 * -EISDIR for a directory, -ENOTBLK for anything neither a block device
 * nor a regular file, -EBUSY when DEV_EXCL finds the device in use,
 * -EROFS for a write-protected device opened with DEV_WRITE, -EINVAL when
 * the file system of a regular file refuses O_DIRECT.  A
 * regular file has 512-byte logical blocks and its size is rounded down
 * to whole blocks.  Reads and writes need offset and length aligned to
 * the logical block size, a 512-byte aligned buffer, and the range inside
 * the device, else -EINVAL (recorded in last_error).
 */
int dev_open(struct device **devp, const char *path, unsigned int flags,
	     char *holder, size_t holder_len);

/*
 * Is the block device at path unused: neither it nor any of its
 * partitions (nor, for a partition, its whole device) mounted
 * (/proc/self/mountinfo), active swap (/proc/swaps), held by another block
 * device such as device-mapper (sysfs holders/) or backing a loop device?
 * Returns 0 (also for a regular file), -EBUSY with a one-line reason in
 * holder such as "/dev/loop3p1 is mounted on /mnt/x" or "/dev/loop3 is
 * held by dm-0 (vg-root)", or -errno if path cannot be examined.  Used
 * by dev_open() with DEV_EXCL, which then also opens with O_EXCL so the
 * kernel refuses what this check cannot see.
 */
int dev_check_unused(const char *path, char *holder, size_t holder_len);

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
 * From now on dev_read(), dev_write() and dev_discard() fail with -EINTR,
 * before any I/O, while *flag is non-zero (flag NULL: never).  A signal
 * handler sets the flag; the test running stops within one I/O.
 */
void dev_set_stop_flag(volatile sig_atomic_t *flag);

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
 * Make timing steadier: lock memory, raise the scheduling priority.  What
 * worked and what did not is written to log (may be NULL).
 */
void dev_quiet_system(FILE *log);

#endif /* FLASHBENCH_DEV_H */
