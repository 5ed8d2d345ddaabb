// SPDX-License-Identifier: GPL-2.0-only
/*
 * What holds a block device: mounts, swap, stacked block devices and loop
 * devices, of the device itself, its partitions or its whole disk.  The
 * writing tests refuse a device that anything else uses.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "holders.h"

/* A block device or one of its partitions, as the kernel numbers them. */
struct dev_node {
	dev_t rdev;			/* major:minor */
	char name[64];			/* sysfs name, e.g. "loop3p1" */
};

/* The nodes to check: a device, its partitions, its whole device. */
struct dev_nodes {
	struct dev_node *v;		/* array of n nodes */
	size_t n;			/* number of nodes */
};

/* Add one node; returns 0 or -ENOMEM. */
static int nodes_add(struct dev_nodes *nodes, dev_t rdev, const char *name)
{
	struct dev_node *v;

	v = realloc(nodes->v, (nodes->n + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	nodes->v = v;
	v[nodes->n].rdev = rdev;
	snprintf(v[nodes->n].name, sizeof(v->name), "%.63s", name);
	nodes->n++;
	return 0;
}

/* The node with this major:minor, or NULL. */
static const struct dev_node *nodes_find(const struct dev_nodes *nodes,
					 dev_t rdev)
{
	size_t i;

	for (i = 0; i < nodes->n; i++)
		if (nodes->v[i].rdev == rdev)
			return &nodes->v[i];
	return NULL;
}

/* Read "major:minor" from a sysfs dev file; returns 0 or -errno. */
static int sysfs_read_devt(const char *file, dev_t *rdev)
{
	unsigned int maj, min;
	FILE *f = fopen(file, "re");
	int n;

	if (!f)
		return -errno;
	n = fscanf(f, "%u:%u", &maj, &min);
	fclose(f);
	if (n != 2)
		return -EINVAL;
	*rdev = makedev(maj, min);
	return 0;
}

/*
 * A partition is not free while its whole device is mounted (a
 * "superfloppy" card): add the disk that sysfs dir is a partition of.
 * link is where dir points, ".../block/mmcblk0/mmcblk0p1".  Returns 0 or
 * -ENOMEM.
 */
static int nodes_add_disk(struct dev_nodes *nodes, const char *dir,
			  char *link)
{
	char file[128], *slash;
	dev_t disk;

	snprintf(file, sizeof(file), "%s/partition", dir);
	if (access(file, F_OK))
		return 0;
	snprintf(file, sizeof(file), "%s/../dev", dir);
	slash = strrchr(link, '/');
	if (sysfs_read_devt(file, &disk) || !slash)
		return 0;
	*slash = '\0';
	slash = strrchr(link, '/');
	return nodes_add(nodes, disk, slash ? slash + 1 : link);
}

/*
 * List the device rdev, its partitions, and the whole device if it is a
 * partition, from /sys/dev/block/MAJ:MIN.  Without sysfs only the device
 * itself is listed, named after path.  Returns 0 or -ENOMEM.
 */
static int nodes_list(struct dev_nodes *nodes, dev_t rdev, const char *path)
{
	char dir[64], link[PATH_MAX], file[PATH_MAX + 80];
	const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	struct dirent *de;
	ssize_t n;
	dev_t part = 0;
	DIR *d;
	int ret;

	snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u", major(rdev),
		 minor(rdev));
	n = readlink(dir, link, sizeof(link) - 1);
	if (n > 0) {
		link[n] = '\0';
		name = strrchr(link, '/') ? strrchr(link, '/') + 1 : link;
	}
	ret = nodes_add(nodes, rdev, name);
	if (!ret && n > 0)
		ret = nodes_add_disk(nodes, dir, link);
	if (ret)
		return ret;
	d = opendir(dir);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(file, sizeof(file), "%s/%s/partition", dir,
			 de->d_name);
		if (access(file, F_OK))
			continue;
		snprintf(file, sizeof(file), "%s/%s/dev", dir, de->d_name);
		if (sysfs_read_devt(file, &part))
			continue;
		ret = nodes_add(nodes, part, de->d_name);
		if (ret)
			break;
	}
	closedir(d);
	return ret;
}

/* Undo the octal escapes (\040 for a space) of mountinfo and swaps. */
static void unescape_octal(char *s)
{
	char *w = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*w++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
				      (s[3] - '0'));
			s += 3;
		} else {
			*w++ = *s;
		}
	}
	*w = '\0';
}

/* The node a mount source or swap file path is, or NULL. */
static const struct dev_node *nodes_find_path(const struct dev_nodes *nodes,
					      const char *path)
{
	struct stat st;

	/* only device nodes: never stat network or pseudo sources */
	if (strncmp(path, "/dev/", 5) || stat(path, &st) ||
	    !S_ISBLK(st.st_mode))
		return NULL;
	return nodes_find(nodes, st.st_rdev);
}

/*
 * Is any node mounted?  mountinfo gives major:minor for most
 * filesystems; btrfs reports an anonymous number, so the mount source
 * is compared too.  Returns 0 or -EBUSY with a reason in holder.
 */
static int check_mounts(const struct dev_nodes *nodes, char *holder,
			size_t holder_len)
{
	const struct dev_node *hit;
	char *line = NULL, *tok[8], *save;
	unsigned int maj, min;
	size_t cap = 0;
	int ret = 0, i;
	FILE *f;

	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return 0;	/* O_EXCL still stops the write */
	while (!ret && getline(&line, &cap, f) > 0) {
		char *sep;

		line[strcspn(line, "\n")] = '\0';
		sep = strstr(line, " - ");
		if (!sep)
			continue;
		*sep = '\0';
		for (i = 0; i < 5; i++)
			tok[i] = strtok_r(i ? NULL : line, " ", &save);
		tok[5] = strtok_r(sep + 3, " ", &save);	/* fstype */
		tok[6] = strtok_r(NULL, " ", &save);	/* source */
		if (!tok[2] || !tok[4] ||
		    sscanf(tok[2], "%u:%u", &maj, &min) != 2)
			continue;
		hit = nodes_find(nodes, makedev(maj, min));
		if (!hit && tok[6]) {
			unescape_octal(tok[6]);
			hit = nodes_find_path(nodes, tok[6]);
		}
		if (!hit)
			continue;
		unescape_octal(tok[4]);
		snprintf(holder, holder_len, "/dev/%s is mounted on %s",
			 hit->name, tok[4]);
		ret = -EBUSY;
	}
	free(line);
	fclose(f);
	return ret;
}

/* Is any node an active swap area?  Returns 0 or -EBUSY. */
static int check_swaps(const struct dev_nodes *nodes, char *holder,
		       size_t holder_len)
{
	const struct dev_node *hit;
	char *line = NULL, *save;
	size_t cap = 0;
	int ret = 0;
	FILE *f;

	f = fopen("/proc/swaps", "re");
	if (!f)
		return 0;
	while (!ret && getline(&line, &cap, f) > 0) {
		char *name = strtok_r(line, " \t\n", &save);

		if (!name)
			continue;
		unescape_octal(name);
		hit = nodes_find_path(nodes, name);
		if (!hit)
			continue;
		snprintf(holder, holder_len, "/dev/%s is in use as swap",
			 hit->name);
		ret = -EBUSY;
	}
	free(line);
	fclose(f);
	return ret;
}

/*
 * Does another block device sit on any node (device-mapper, md, ...)?
 * The kernel lists them in /sys/class/block/NAME/holders.  Returns 0 or
 * -EBUSY.
 */
static int check_holders(const struct dev_nodes *nodes, char *holder,
			 size_t holder_len)
{
	char dir[128], file[128 + 256], dm[128];
	struct dirent *de;
	size_t i;
	FILE *f;

	for (i = 0; i < nodes->n; i++) {
		DIR *d;

		snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u/holders",
			 major(nodes->v[i].rdev), minor(nodes->v[i].rdev));
		d = opendir(dir);
		if (!d)
			continue;
		while ((de = readdir(d)) && de->d_name[0] == '.')
			;
		if (!de) {
			closedir(d);
			continue;
		}
		/* a device-mapper holder has a friendlier name */
		dm[0] = '\0';
		snprintf(file, sizeof(file), "/sys/class/block/%s/dm/name",
			 de->d_name);
		f = fopen(file, "re");
		if (f) {
			if (!fgets(dm, sizeof(dm), f))
				dm[0] = '\0';
			dm[strcspn(dm, "\n")] = '\0';
			fclose(f);
		}
		snprintf(holder, holder_len, "/dev/%s is held by %s%s%s%s",
			 nodes->v[i].name, de->d_name, dm[0] ? " (" : "", dm,
			 dm[0] ? ")" : "");
		closedir(d);
		return -EBUSY;
	}
	return 0;
}

/*
 * Is any node the backing device of a loop device (say, a card being
 * imaged)?  The kernel lets that loop device and us write at the same
 * time, so only sysfs tells.  Returns 0 or -EBUSY.
 */
static int check_loop_backing(const struct dev_nodes *nodes, char *holder,
			      size_t holder_len)
{
	const struct dev_node *hit = NULL;
	char file[300], back[PATH_MAX];
	struct dirent *de;
	DIR *d = opendir("/sys/class/block");
	FILE *f;

	if (!d)
		return 0;
	while (!hit && (de = readdir(d))) {
		if (strncmp(de->d_name, "loop", 4))
			continue;
		snprintf(file, sizeof(file),
			 "/sys/class/block/%.200s/loop/backing_file",
			 de->d_name);
		f = fopen(file, "re");
		if (!f)
			continue;
		if (fgets(back, sizeof(back), f)) {
			back[strcspn(back, "\n")] = '\0';
			hit = nodes_find_path(nodes, back);
		}
		fclose(f);
		if (hit)
			snprintf(holder, holder_len,
				 "/dev/%s is the backing device of /dev/%.200s",
				 hit->name, de->d_name);
	}
	closedir(d);
	return hit ? -EBUSY : 0;
}

int dev_check_unused(const char *path, char *holder, size_t holder_len)
{
	struct dev_nodes nodes = { NULL, 0 };
	char reason[512];
	struct stat st;
	int ret;

	if (holder && holder_len)
		holder[0] = '\0';
	if (stat(path, &st))
		return -errno;
	if (!S_ISBLK(st.st_mode))
		return 0;
	ret = nodes_list(&nodes, st.st_rdev, path);
	if (!ret)
		ret = check_mounts(&nodes, reason, sizeof(reason));
	if (!ret)
		ret = check_swaps(&nodes, reason, sizeof(reason));
	if (!ret)
		ret = check_holders(&nodes, reason, sizeof(reason));
	if (!ret)
		ret = check_loop_backing(&nodes, reason, sizeof(reason));
	if (ret == -EBUSY && holder && holder_len)
		snprintf(holder, holder_len, "%s", reason);
	free(nodes.v);
	return ret;
}
