/* SPDX-License-Identifier: GPL-2.0-only */
/* What holds a block device (mounts, swap, stacked devices, loops). */
#ifndef FLASHBENCH_HOLDERS_H
#define FLASHBENCH_HOLDERS_H

#include <stddef.h>

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

#endif /* FLASHBENCH_HOLDERS_H */
