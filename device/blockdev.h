/* SPDX-License-Identifier: GPL-2.0-only */
/* The real backend: a block device or regular file opened with O_DIRECT. */
#ifndef FLASHBENCH_BLOCKDEV_H
#define FLASHBENCH_BLOCKDEV_H

#include <stddef.h>

#include "dev.h"

/* Flags for dev_open(). */
#define DEV_WRITE	0x1	/* open read-write (writing tests only) */
#define DEV_EXCL	0x2	/* refuse a mounted or otherwise held device */

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

#endif /* FLASHBENCH_BLOCKDEV_H */
