// SPDX-License-Identifier: GPL-2.0-only
/*
 * The device layer.  The generic part times operations through a table of
 * backend operations; the real backend below opens block devices and
 * regular files with O_DIRECT so that every read and write reaches the
 * card instead of the page cache.
 */
#include <dirent.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <linux/ioprio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "dev.h"

/* Alignment of I/O buffers: enough for O_DIRECT on any logical block. */
#define DEV_BUF_ALIGN 4096

uint64_t dev_monotonic_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts))
		abort();	/* a timing tool without a clock cannot go on */
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

int dev_fail(struct device *dev, const char *op, off_t off, uint64_t len,
	     int err)
{
	dev->last_error.op = op;
	dev->last_error.off_byte = off;
	dev->last_error.len_byte = len;
	dev->last_error.err = err;
	return -err;
}

static volatile sig_atomic_t *dev_stop;

void dev_set_stop_flag(volatile sig_atomic_t *flag)
{
	dev_stop = flag;
}

int dev_read(struct device *dev, void *buf, size_t len, off_t off,
	     uint64_t *time_ns)
{
	uint64_t t0, t1;
	int ret;

	if (dev_stop && *dev_stop)
		return dev_fail(dev, "read", off, len, EINTR);
	dev->io_count++;
	t0 = dev->ops->now_ns(dev);
	ret = dev->ops->read(dev, buf, len, off);
	t1 = dev->ops->now_ns(dev);
	if (time_ns)
		*time_ns = t1 - t0;
	return ret;
}

int dev_write(struct device *dev, const void *buf, size_t len, off_t off,
	      uint64_t *time_ns)
{
	uint64_t t0, t1;
	int ret;

	if (dev_stop && *dev_stop)
		return dev_fail(dev, "write", off, len, EINTR);
	dev->io_count++;
	t0 = dev->ops->now_ns(dev);
	ret = dev->ops->write(dev, buf, len, off);
	t1 = dev->ops->now_ns(dev);
	if (time_ns)
		*time_ns = t1 - t0;
	return ret;
}

int dev_discard(struct device *dev, off_t off, uint64_t len,
		uint64_t *time_ns)
{
	uint64_t t0, t1;
	int ret;

	if (dev_stop && *dev_stop)
		return dev_fail(dev, "discard", off, len, EINTR);
	dev->io_count++;
	t0 = dev->ops->now_ns(dev);
	ret = dev->ops->discard(dev, off, len);
	t1 = dev->ops->now_ns(dev);
	if (time_ns)
		*time_ns = t1 - t0;
	return ret;
}

uint64_t dev_now_ns(struct device *dev)
{
	return dev->ops->now_ns(dev);
}

void dev_close(struct device *dev)
{
	if (dev)
		dev->ops->destroy(dev);
}

void *dev_alloc_buf(size_t len)
{
	void *buf;

	if (posix_memalign(&buf, DEV_BUF_ALIGN, len ? len : DEV_BUF_ALIGN))
		return NULL;
	return buf;
}

void dev_free_buf(void *buf)
{
	free(buf);
}

void dev_fill(void *buf, size_t len, enum dev_pattern pat, uint64_t seed)
{
	unsigned char *p = buf;
	uint64_t x = seed | 1;
	size_t i;

	switch (pat) {
	case DEV_PAT_ZERO:
		memset(buf, 0x00, len);
		break;
	case DEV_PAT_ONES:
		memset(buf, 0xff, len);
		break;
	case DEV_PAT_5A:
		memset(buf, 0x5a, len);
		break;
	case DEV_PAT_RANDOM:
		for (i = 0; i < len; i++) {
			/* xorshift64: cheap bytes the card cannot compress */
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			p[i] = (unsigned char)(x >> 24);
		}
		break;
	}
}

/* ---- what holds a block device ---- */

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

/* ---- real backend (block device or regular file) ---- */

/* A block device or regular file opened with O_DIRECT. */
struct blk_device {
	struct device dev;		/* must be first */
	int fd;				/* O_DIRECT descriptor */
	int is_blk;			/* block device (1) or file (0) */
	int writable;			/* opened with DEV_WRITE */
	char *path;			/* our copy of dev.path */
};

/* O_DIRECT wants buffers aligned at least to this many bytes. */
#define DEV_DIRECT_ALIGN 512

/*
 * Is [off, off + len) aligned to the logical block size and inside the
 * device, and buf (if any) aligned for O_DIRECT?  Returns 0 or -EINVAL
 * (recorded as a failure of op).
 */
static int blk_check(struct device *dev, const char *op, const void *buf,
		     uint64_t len, off_t off)
{
	uint64_t lbs = dev->logical_block_size;

	if (off < 0 || (uint64_t)off % lbs || len % lbs ||
	    (uint64_t)off > dev->size_byte ||
	    len > dev->size_byte - (uint64_t)off ||
	    (buf && (uintptr_t)buf % DEV_DIRECT_ALIGN))
		return dev_fail(dev, op, off, len, EINVAL);
	return 0;
}

/*
 * Move exactly len bytes, retrying short transfers and EINTR; a transfer
 * of nothing means the device ended early (-EIO).  Returns 0 or -errno.
 */
static int blk_xfer(struct device *dev, void *buf, size_t len, off_t off,
		    int write)
{
	struct blk_device *b = (struct blk_device *)dev;
	const char *op = write ? "write" : "read";
	size_t done = 0;
	ssize_t n;
	int ret;

	ret = blk_check(dev, op, buf, len, off);
	if (ret)
		return ret;
	while (done < len) {
		if (write)
			n = pwrite(b->fd, (char *)buf + done, len - done,
				   off + (off_t)done);
		else
			n = pread(b->fd, (char *)buf + done, len - done,
				  off + (off_t)done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return dev_fail(dev, op, off, len, errno);
		if (n == 0)
			return dev_fail(dev, op, off, len, EIO);
		done += (size_t)n;
	}
	return 0;
}

static int blk_read(struct device *dev, void *buf, size_t len, off_t off)
{
	return blk_xfer(dev, buf, len, off, 0);
}

static int blk_write(struct device *dev, const void *buf, size_t len,
		     off_t off)
{
	/* blk_xfer only reads from buf when writing */
	return blk_xfer(dev, (void *)buf, len, off, 1);
}

/*
 * Discard: BLKDISCARD tells the card the range is unused (it may erase
 * it); a regular file gets a hole instead.
 */
static int blk_discard(struct device *dev, off_t off, uint64_t len)
{
	struct blk_device *b = (struct blk_device *)dev;
	int ret;

	ret = blk_check(dev, "discard", NULL, len, off);
	if (ret)
		return ret;
	if (!b->writable)
		return dev_fail(dev, "discard", off, len, EBADF);
	if (b->is_blk) {
		uint64_t range[2] = { (uint64_t)off, len };

		ret = ioctl(b->fd, BLKDISCARD, range);
	} else {
		ret = fallocate(b->fd,
				FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
				off, (off_t)len);
	}
	if (ret)
		return dev_fail(dev, "discard", off, len, errno);
	return 0;
}

static uint64_t blk_now_ns(struct device *dev)
{
	(void)dev;
	return dev_monotonic_ns();
}

static void blk_destroy(struct device *dev)
{
	struct blk_device *b = (struct blk_device *)dev;

	close(b->fd);
	free(b->path);
	free(b);
}

static const struct dev_ops blk_ops = {
	.read = blk_read,
	.write = blk_write,
	.discard = blk_discard,
	.now_ns = blk_now_ns,
	.destroy = blk_destroy,
};

/* Size and logical block size from the kernel; returns 0 or -errno. */
static int blk_geometry(struct blk_device *b, const struct stat *st)
{
	uint64_t size;
	int lbs;

	if (!b->is_blk) {
		/* a file: whole 512-byte sectors, as a disk image would be */
		b->dev.logical_block_size = 512;
		b->dev.size_byte = (uint64_t)st->st_size & ~(uint64_t)511;
		return 0;
	}
	if (ioctl(b->fd, BLKGETSIZE64, &size) ||
	    ioctl(b->fd, BLKSSZGET, &lbs))
		return -errno;
	if (lbs < 512 || (lbs & (lbs - 1)))
		return -EINVAL;
	b->dev.size_byte = size;
	b->dev.logical_block_size = (unsigned int)lbs;
	return 0;
}

/*
 * Recent kernels open a read-only block device (an SD card with its
 * write-protect switch set) for writing and fail each write instead, so
 * ask.  Returns 0 or -EROFS.
 */
static int blk_check_writable(struct blk_device *b)
{
	int ro = 0;

	if (b->writable && b->is_blk && !ioctl(b->fd, BLKROGET, &ro) && ro)
		return -EROFS;
	return 0;
}

int dev_open(struct device **devp, const char *path, unsigned int flags,
	     char *holder, size_t holder_len)
{
	struct blk_device *b;
	struct stat st, fst;
	int oflags, fd, ret;

	*devp = NULL;
	if (holder && holder_len)
		holder[0] = '\0';
	if (stat(path, &st))
		return -errno;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (!S_ISBLK(st.st_mode) && !S_ISREG(st.st_mode))
		return -ENOTBLK;

	/*
	 * O_DIRECT: bypass the page cache so that every read and write
	 * reaches the card and its time is the card's.
	 */
	oflags = O_DIRECT | O_CLOEXEC;
	oflags |= flags & DEV_WRITE ? O_RDWR : O_RDONLY;
	if ((flags & DEV_EXCL) && S_ISBLK(st.st_mode)) {
		/* first find out who holds it, so a refusal can say */
		ret = dev_check_unused(path, holder, holder_len);
		if (ret)
			return ret;
		/* then let the kernel refuse anything mounted or claimed */
		oflags |= O_EXCL;
	}
	fd = open(path, oflags);
	if (fd < 0) {
		ret = -errno;
		if (ret == -EBUSY && holder && holder_len && !holder[0])
			snprintf(holder, holder_len,
				 "%s is opened exclusively by another program",
				 path);
		return ret;
	}
	/* the path may have been replaced since it was checked */
	if (fstat(fd, &fst) ||
	    (fst.st_mode & S_IFMT) != (st.st_mode & S_IFMT) ||
	    (S_ISBLK(st.st_mode) && fst.st_rdev != st.st_rdev)) {
		ret = -EAGAIN;
		goto out_close;
	}
	b = calloc(1, sizeof(*b));
	if (!b) {
		ret = -ENOMEM;
		goto out_close;
	}
	b->path = strdup(path);
	if (!b->path) {
		ret = -ENOMEM;
		goto out_free_b;
	}
	b->fd = fd;
	b->is_blk = S_ISBLK(fst.st_mode);
	b->writable = !!(flags & DEV_WRITE);
	b->dev.ops = &blk_ops;
	b->dev.path = b->path;
	ret = blk_geometry(b, &fst);
	if (ret)
		goto out_free_path;
	ret = blk_check_writable(b);
	if (ret)
		goto out_free_path;
	*devp = &b->dev;
	return 0;

out_free_path:
	free(b->path);
out_free_b:
	free(b);
out_close:
	close(fd);
	return ret;
}

/* ---- a quieter system for steadier timing ---- */

/* One line of dev_quiet_system()'s report. */
static void quiet_log(FILE *log, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void quiet_log(FILE *log, const char *fmt, ...)
{
	va_list ap;

	if (!log)
		return;
	fputs("flashbench: ", log);
	va_start(ap, fmt);
	vfprintf(log, fmt, ap);
	va_end(ap);
	fputc('\n', log);
}

/*
 * Lock memory so no page fault lands inside a timed operation.  Future
 * mappings are locked too, which fails allocations beyond
 * RLIMIT_MEMLOCK, so only when the limit cannot bite (root, or none).
 */
static void quiet_memory(FILE *log)
{
	struct rlimit rl;

	if (geteuid() != 0 && !getrlimit(RLIMIT_MEMLOCK, &rl) &&
	    rl.rlim_cur != RLIM_INFINITY) {
		quiet_log(log, "memory not locked: RLIMIT_MEMLOCK is %llu bytes and locking future buffers could make them fail",
			  (unsigned long long)rl.rlim_cur);
		return;
	}
	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		quiet_log(log, "memory not locked (mlockall): %s",
			  strerror(errno));
	else
		quiet_log(log, "memory locked (mlockall): no page faults while timing");
}

/*
 * Raise CPU and I/O priority.  No SCHED_FIFO: the block layer completes
 * our own requests in kernel threads and soft interrupts of normal
 * priority, which a real-time task spinning on the same CPU would delay
 * (making the timing worse) or starve (hanging the machine).  Likewise
 * the highest best-effort I/O class rather than the real-time one, which
 * could starve the system's own I/O when the card is its root.
 */
static void quiet_priority(FILE *log)
{
	if (setpriority(PRIO_PROCESS, 0, -20))
		quiet_log(log, "CPU priority not raised (nice -20): %s",
			  strerror(errno));
	else
		quiet_log(log, "CPU priority raised to nice -20");
	if (syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, 0,
		    IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 0)))
		quiet_log(log, "I/O priority not raised (best-effort 0): %s",
			  strerror(errno));
	else
		quiet_log(log, "I/O priority raised to best-effort 0");
	quiet_log(log, "scheduler left at SCHED_OTHER: a real-time task would delay the kernel threads completing its own I/O");
}

void dev_quiet_system(FILE *log)
{
	quiet_memory(log);
	quiet_priority(log);
}
