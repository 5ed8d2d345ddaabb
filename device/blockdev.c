// SPDX-License-Identifier: GPL-2.0-only
/*
 * The real backend: a block device or a regular file opened with
 * O_DIRECT, so that every read and write reaches the card instead of the
 * page cache, timed with the monotonic clock.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "blockdev.h"
#include "holders.h"

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

static int blk_flush(struct device *dev)
{
	struct blk_device *b = (struct blk_device *)dev;

	if (fsync(b->fd))
		return dev_fail(dev, "flush", 0, 0, errno);
	return 0;
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
	.flush = blk_flush,
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
