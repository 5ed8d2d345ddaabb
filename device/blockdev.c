// SPDX-License-Identifier: GPL-2.0-only
/*
 * The real backend: a block device or a regular file opened with
 * O_DIRECT, so that every read and write reaches the card instead of the
 * page cache, timed with the monotonic clock.
 *
 * A batch of requests goes to the kernel at once through Linux AIO,
 * called through syscall(2) (io_setup, io_submit, io_getevents): with
 * O_DIRECT the block layer then holds them all, and a card with a
 * command queue may overlap them.  No library is needed; where the
 * kernel or the architecture lacks these calls, the requests go one by
 * one.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/aio_abi.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
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
	aio_context_t aio;		/* Linux AIO context, for batches */
	int aio_state;			/* 0 not tried, 1 set up, -1 none */
};

#if defined(SYS_io_setup) && defined(SYS_io_submit) && \
	defined(SYS_io_getevents) && defined(SYS_io_destroy)
#define BLK_HAVE_AIO 1
#else
#define BLK_HAVE_AIO 0
#endif

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

/* The requests one at a time: the fallback without AIO. */
static int blk_serial(struct device *dev, const struct dev_req *req,
		      unsigned int n)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; i < n && !ret; i++)
		ret = blk_xfer(dev, req[i].buf, req[i].len, req[i].off,
			       req[i].write);
	return ret;
}

#if BLK_HAVE_AIO
/* Is an AIO context ready (set up on first use)? */
static int blk_aio_ready(struct blk_device *b)
{
	if (!b->aio_state) {
		b->aio = 0;
		b->aio_state = syscall(SYS_io_setup, DEV_BATCH_MAX, &b->aio) ?
			       -1 : 1;
	}
	return b->aio_state > 0;
}

/* Give up AIO on b: io_destroy() waits for what is still in flight. */
static void blk_aio_drop(struct blk_device *b)
{
	if (b->aio_state > 0)
		syscall(SYS_io_destroy, b->aio);
	b->aio_state = -1;
}

/* Submit cb[0..n); the number submitted, err[] set for the others. */
static unsigned int blk_submit(struct blk_device *b, struct iocb **cb,
			       unsigned int n, int *err)
{
	unsigned int done = 0, i;
	long r;

	while (done < n) {
		r = syscall(SYS_io_submit, b->aio, (long)(n - done),
			    cb + done);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		done += (unsigned int)r;
	}
	for (i = done; i < n; i++)
		err[i] = errno ? errno : EIO;
	return done;
}

/* Wait for n submitted requests; their results into err[] (0 or errno). */
static int blk_reap(struct blk_device *b, const struct dev_req *req,
		    unsigned int n, int *err)
{
	struct io_event ev[DEV_BATCH_MAX];
	unsigned int got = 0, i;
	long r;

	while (got < n) {
		r = syscall(SYS_io_getevents, b->aio, (long)(n - got),
			    (long)(n - got), ev, NULL);
		if (r < 0 && errno == EINTR)
			continue;	/* a signal: the batch still ends */
		if (r <= 0) {
			int e = r < 0 ? errno : EIO;

			blk_aio_drop(b);	/* waits for the rest */
			return e;
		}
		for (i = 0; i < (unsigned int)r; i++) {
			uint64_t k = ev[i].data;

			if (ev[i].res < 0)
				err[k] = (int)-ev[i].res;
			else if ((uint64_t)ev[i].res < req[k].len)
				err[k] = -1;	/* short: finish it below */
		}
		got += (unsigned int)r;
	}
	return 0;
}

/* Submit req[0..n) at once and wait for all; err[] per request. */
static int blk_aio(struct blk_device *b, const struct dev_req *req,
		   unsigned int n, int *err)
{
	struct iocb cb[DEV_BATCH_MAX], *list[DEV_BATCH_MAX];
	unsigned int i, sent;

	memset(cb, 0, n * sizeof(cb[0]));
	for (i = 0; i < n; i++) {
		cb[i].aio_data = i;
		cb[i].aio_fildes = (uint32_t)b->fd;
		cb[i].aio_lio_opcode = req[i].write ? IOCB_CMD_PWRITE :
				       IOCB_CMD_PREAD;
		cb[i].aio_buf = (uint64_t)(uintptr_t)req[i].buf;
		cb[i].aio_nbytes = req[i].len;
		cb[i].aio_offset = req[i].off;
		list[i] = &cb[i];
	}
	errno = 0;
	sent = blk_submit(b, list, n, err);
	if (!sent && (err[0] == ENOSYS || err[0] == EINVAL))
		return -ENOSYS;	/* no AIO for this file: one by one */
	return -blk_reap(b, req, sent, err);
}

/*
 * A batch: checked whole before any I/O, then submitted at once; a
 * request the kernel cut short is done again, whole, by blk_xfer().
 */
static int blk_batch(struct device *dev, const struct dev_req *req,
		     unsigned int n)
{
	struct blk_device *b = (struct blk_device *)dev;
	int err[DEV_BATCH_MAX] = { 0 };
	unsigned int i;
	int ret;

	for (i = 0; i < n; i++) {
		ret = blk_check(dev, req[i].write ? "write" : "read",
				req[i].buf, req[i].len, req[i].off);
		if (ret)
			return ret;
	}
	if (!blk_aio_ready(b))
		return blk_serial(dev, req, n);
	ret = blk_aio(b, req, n, err);
	if (ret == -ENOSYS) {
		blk_aio_drop(b);
		return blk_serial(dev, req, n);
	}
	if (ret)
		return dev_fail(dev, "batch", req->off, req->len, -ret);
	for (i = 0; i < n; i++) {
		if (err[i] < 0)
			err[i] = -blk_xfer(dev, req[i].buf, req[i].len,
					   req[i].off, req[i].write);
		if (err[i] > 0)
			return dev_fail(dev, req[i].write ? "write" : "read",
					req[i].off, req[i].len, err[i]);
	}
	return 0;
}
#else
static int blk_batch(struct device *dev, const struct dev_req *req,
		     unsigned int n)
{
	return blk_serial(dev, req, n);
}
#endif

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

#if BLK_HAVE_AIO
	blk_aio_drop(b);
#endif
	close(b->fd);
	free(b->path);
	free(b);
}

static const struct dev_ops blk_ops = {
	.read = blk_read,
	.write = blk_write,
	.discard = blk_discard,
	.batch = blk_batch,
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
