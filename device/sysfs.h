/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the kernel says about a block device in sysfs: the queue limits and,
 * for MMC/SD cards, the erase sizes and identity the card reports.
 */
#ifndef FLASHBENCH_SYSFS_H
#define FLASHBENCH_SYSFS_H

#include <stddef.h>

#define SYSFS_MAX 16

struct sysfs_entry {
	const char *key;	/* e.g. "preferred_erase_size" */
	char value[64];		/* as the kernel printed it, trimmed */
	int numeric;		/* value is a plain decimal number */
};

struct sysfs_info {
	size_t n;
	struct sysfs_entry e[SYSFS_MAX];
};

/*
 * Read the attributes of the block device at path (a partition is looked
 * up through its disk).  Returns the number of entries found (0 for a
 * regular file or a device without sysfs).
 */
size_t sysfs_read(const char *path, struct sysfs_info *info);

/* The value of key, or NULL. */
const char *sysfs_get(const struct sysfs_info *info, const char *key);

#endif /* FLASHBENCH_SYSFS_H */
