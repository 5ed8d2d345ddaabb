// SPDX-License-Identifier: GPL-2.0-only
/* What the kernel says about a block device in sysfs. */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "c.h"
#include "sysfs.h"

/* The attributes worth showing beside a verdict, relative to the disk. */
static const char *const attrs[][2] = {
	{ "logical_block_size", "queue/logical_block_size" },
	{ "physical_block_size", "queue/physical_block_size" },
	{ "discard_granularity", "queue/discard_granularity" },
	{ "discard_max_bytes", "queue/discard_max_bytes" },
	{ "optimal_io_size", "queue/optimal_io_size" },
	{ "minimum_io_size", "queue/minimum_io_size" },
	{ "rotational", "queue/rotational" },
	{ "preferred_erase_size", "device/preferred_erase_size" },
	{ "erase_size", "device/erase_size" },
	{ "type", "device/type" },
	{ "name", "device/name" },
	{ "manfid", "device/manfid" },
	{ "oemid", "device/oemid" },
	{ "date", "device/date" },
};

/* Read the first line of dir/rel into buf, trimmed; 0 on success. */
static int read_attr(const char *dir, const char *rel, char *buf, size_t len)
{
	char path[PATH_MAX];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (!fgets(buf, (int)len, f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	n = strlen(buf);
	while (n && isspace((unsigned char)buf[n - 1]))
		buf[--n] = '\0';
	return 0;
}

static int is_number(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return 0;
	return 1;
}

size_t sysfs_read(const char *path, struct sysfs_info *info)
{
	char dir[PATH_MAX], probe[PATH_MAX + 16];
	struct stat st;
	size_t i;

	info->n = 0;
	if (stat(path, &st) || !S_ISBLK(st.st_mode))
		return 0;
	snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u",
		 major(st.st_rdev), minor(st.st_rdev));
	/* a partition has no queue/ of its own: use its disk's */
	snprintf(probe, sizeof(probe), "%s/partition", dir);
	if (!stat(probe, &st)) {
		size_t n = strlen(dir);

		if (n + 3 < sizeof(dir))
			strcat(dir, "/..");
	}
	for (i = 0; i < ARRAY_SIZE(attrs); i++) {
		struct sysfs_entry *e = &info->e[info->n];

		if (info->n >= SYSFS_MAX)
			break;
		if (read_attr(dir, attrs[i][1], e->value, sizeof(e->value)))
			continue;
		e->key = attrs[i][0];
		e->numeric = is_number(e->value);
		info->n++;
	}
	return info->n;
}

const char *sysfs_get(const struct sysfs_info *info, const char *key)
{
	size_t i;

	for (i = 0; i < info->n; i++)
		if (!strcmp(info->e[i].key, key))
			return info->e[i].value;
	return NULL;
}
