// SPDX-License-Identifier: GPL-2.0-only
/*
 * The block device (device/blockdev.c) on real loop devices: geometry
 * from the kernel, reads of the planted content, writes that stay in
 * their range, batches, read-only and exclusive opens; and on a regular
 * file, a short read and what is no device at all.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blockdev.h"
#include "dev.h"
#include "fault.h"
#include "holders.h"
#include "loopdev.h"
#include "util.h"

/* ---- device layer ---- */

/* Size and logical block size are the kernel's, reads the planted data. */
static void check_geometry(unsigned int sector_size)
{
	struct loop_fix fx;
	struct device *dev;
	uint64_t t_ns;
	size_t len = 64 * 1024;
	void *buf = dev_alloc_buf(len), *want = malloc(len);
	off_t offs[3];
	int i;

	if (!loop_setup(&fx, sector_size == 4096 ? "dev_geometry_4k"
						   : "dev_geometry",
			0, sector_size))
		goto out_free;
	ck_assert_int_eq(dev_open(&dev, fx.dev, 0, NULL, 0), 0);
	ck_assert_uint_eq(dev->size_byte, blockdev_get("--getsize64", fx.dev));
	ck_assert_uint_eq(dev->size_byte, fx.size_byte);
	ck_assert_uint_eq(dev->logical_block_size,
			  blockdev_get("--getss", fx.dev));
	ck_assert_uint_eq(dev->logical_block_size, sector_size);
	ck_assert_str_eq(dev->path, fx.dev);

	/* three timed reads: planted bytes, a time that is plausible */
	offs[0] = 0;
	offs[1] = (off_t)(3 * MiB + 7 * sector_size);
	offs[2] = (off_t)(fx.size_byte - len);
	for (i = 0; i < 3; i++) {
		t_ns = 0;
		ck_assert_int_eq(dev_read(dev, buf, len, offs[i], &t_ns), 0);
		planted(want, fx.seed, (uint64_t)offs[i], len);
		ck_assert_msg(!memcmp(buf, want, len),
			      "read at %lld returned other data",
			      (long long)offs[i]);
		ck_assert_msg(t_ns > 0 && t_ns < 2000000000ULL,
			      "read took %" PRIu64 " ns", t_ns);
	}
	ck_assert_uint_eq(dev->io_count, 3);
	if (sector_size > 512) {
		/* 512-byte aligned is not enough on a 4K device */
		ck_assert_int_eq(dev_read(dev, buf, 512, 0, NULL), -EINVAL);
		ck_assert_int_eq(dev_read(dev, buf, 4096, 512, NULL),
				 -EINVAL);
	}
	dev_close(dev);
out_free:
	dev_free_buf(buf);
	free(want);
}

START_TEST(test_dev_geometry)
{
	check_geometry(512);
}
END_TEST

START_TEST(test_dev_geometry_4k)
{
	check_geometry(4096);
}
END_TEST

/* Requests a device cannot serve, each with its failure recorded. */
static const struct bad_io {
	const char *what;
	long long off;		/* -1: the device size */
	long long len;
	size_t buf_off;		/* misalignment of the buffer */
} bad_ios[] = {
	{ "unaligned offset", 1, 512, 0 },
	{ "unaligned length", 0, 100, 0 },
	{ "negative offset", -512, 512, 0 },
	{ "at the end", -1, 512, 0 },
	{ "across the end", -2, 1024, 0 },
	{ "unaligned buffer", 0, 512, 8 },
};

START_TEST(test_dev_invalid)
{
	const struct bad_io *b = &bad_ios[_i];
	struct loop_fix fx;
	struct device *dev;
	unsigned char *buf = dev_alloc_buf(8192);
	uint64_t before;
	long long off;

	if (!loop_setup(&fx, "dev_invalid", 0, 0))
		goto out_free;
	before = region_hash(fx.dev, 0, fx.size_byte);
	ck_assert_int_eq(dev_open(&dev, fx.dev, DEV_WRITE, NULL, 0), 0);
	off = b->off;
	if (off == -1)
		off = (long long)fx.size_byte;
	else if (off == -2)
		off = (long long)fx.size_byte - 512;
	ck_assert_msg(dev_read(dev, buf + b->buf_off, (size_t)b->len,
			       (off_t)off, NULL) == -EINVAL,
		      "read: %s accepted", b->what);
	ck_assert_str_eq(dev->last_error.op, "read");
	ck_assert_int_eq(dev->last_error.off_byte, off);
	ck_assert_uint_eq(dev->last_error.len_byte, (uint64_t)b->len);
	ck_assert_int_eq(dev->last_error.err, EINVAL);
	memset(&dev->last_error, 0, sizeof(dev->last_error));
	ck_assert_msg(dev_write(dev, buf + b->buf_off, (size_t)b->len,
				(off_t)off, NULL) == -EINVAL,
		      "write: %s accepted", b->what);
	ck_assert_str_eq(dev->last_error.op, "write");
	ck_assert_int_eq(dev->last_error.err, EINVAL);
	if (!b->buf_off) {
		ck_assert_int_eq(dev_discard(dev, (off_t)off, (uint64_t)b->len,
					     NULL), -EINVAL);
		ck_assert_str_eq(dev->last_error.op, "discard");
	}
	dev_close(dev);
	ck_assert_msg(region_hash(fx.dev, 0, fx.size_byte) == before,
		      "a refused request changed the device");
out_free:
	dev_free_buf(buf);
}
END_TEST

/* A read-only open refuses writes and discards with EBADF. */
START_TEST(test_dev_readonly)
{
	struct loop_fix fx;
	struct device *dev;
	void *buf = dev_alloc_buf(4096);

	if (!loop_setup(&fx, "dev_readonly", 0, 0))
		goto out_free;
	ck_assert_int_eq(dev_open(&dev, fx.dev, 0, NULL, 0), 0);
	dev_fill(buf, 4096, DEV_PAT_ZERO, 0);
	ck_assert_int_eq(dev_write(dev, buf, 4096, 0, NULL), -EBADF);
	ck_assert_str_eq(dev->last_error.op, "write");
	ck_assert_int_eq(dev->last_error.err, EBADF);
	ck_assert_int_eq(dev_discard(dev, 0, 4096, NULL), -EBADF);
	ck_assert_str_eq(dev->last_error.op, "discard");
	dev_close(dev);
	ck_assert_uint_eq(scan(fx.dev, 0, MiB, SCAN_PLANTED, fx.seed), 0);
out_free:
	dev_free_buf(buf);
}
END_TEST

/* A write-protected device: no write open, erase fails with status 1. */
START_TEST(test_dev_write_protected)
{
	struct cmd_result res;
	struct loop_fix fx;
	struct device *dev;
	char want[128];

	if (!loop_setup(&fx, "dev_write_protected", LOOP_RDONLY, 0))
		return;
	ck_assert_int_eq(dev_open(&dev, fx.dev, DEV_WRITE | DEV_EXCL, NULL,
				  0), -EROFS);
	ck_assert_int_eq(dev_open(&dev, fx.dev, 0, NULL, 0), 0);
	dev_close(dev);
	ck_assert_int_eq(run_erase(&res, fx.dev, "0", "4096", NULL), 1);
	snprintf(want, sizeof(want),
		 "erase: %s: the device is write-protected\n", fx.dev);
	ck_assert_str_eq(res.err, want);
	cmd_result_free(&res);
	ck_assert_uint_eq(scan(fx.dev, 0, MiB, SCAN_PLANTED, fx.seed), 0);
}
END_TEST

/* Writes land exactly where asked, discards read back as zeros. */
START_TEST(test_dev_roundtrip)
{
	const uint64_t w1 = 3 * MiB + 4096, w1_len = 128 * 1024;
	const uint64_t w2 = 10 * MiB + 512, w2_len = 64 * 1024 + 512;
	const uint64_t d = 20 * MiB, d_len = MiB;
	struct loop_fix fx;
	struct device *dev;
	unsigned char *buf = dev_alloc_buf(w1_len), *back;
	uint64_t outside[4];

	back = dev_alloc_buf(w1_len);
	if (!loop_setup(&fx, "dev_roundtrip", 0, 0))
		goto out_free;
	ck_assert_int_eq(dev_open(&dev, fx.dev, DEV_WRITE, NULL, 0), 0);

	dev_fill(buf, w1_len, DEV_PAT_5A, 0);
	ck_assert_int_eq(dev_write(dev, buf, w1_len, (off_t)w1, NULL), 0);
	ck_assert_int_eq(dev_read(dev, back, w1_len, (off_t)w1, NULL), 0);
	ck_assert(!memcmp(buf, back, w1_len));

	dev_fill(buf, w2_len, DEV_PAT_RANDOM, 42);
	ck_assert_int_eq(dev_write(dev, buf, w2_len, (off_t)w2, NULL), 0);
	ck_assert_int_eq(dev_read(dev, back, w2_len, (off_t)w2, NULL), 0);
	ck_assert(!memcmp(buf, back, w2_len));

	ck_assert_int_eq(dev_discard(dev, (off_t)d, d_len, NULL), 0);
	ck_assert_uint_eq(dev->io_count, 5);
	dev_close(dev);

	/* and through another descriptor: written, zeroed, untouched */
	ck_assert_uint_eq(scan(fx.dev, d, d_len, SCAN_ZERO, 0), 0);
	outside[0] = scan(fx.dev, 0, w1, SCAN_PLANTED, fx.seed);
	outside[1] = scan(fx.dev, w1 + w1_len, w2 - w1 - w1_len,
			  SCAN_PLANTED, fx.seed);
	outside[2] = scan(fx.dev, w2 + w2_len, d - w2 - w2_len,
			  SCAN_PLANTED, fx.seed);
	outside[3] = scan(fx.dev, d + d_len, fx.size_byte - d - d_len,
			  SCAN_PLANTED, fx.seed);
	ck_assert_uint_eq(outside[0] + outside[1] + outside[2] + outside[3],
			  0);
out_free:
	dev_free_buf(buf);
	dev_free_buf(back);
}
END_TEST

/* Requests of a batch: n of 4 KiB at spread-out offsets from base. */
static void batch_reqs(struct dev_req *q, unsigned int n, int write,
		       uint64_t base)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		q[i].write = write;
		q[i].buf = dev_alloc_buf(4096);
		ck_assert_ptr_nonnull(q[i].buf);
		dev_fill(q[i].buf, 4096, DEV_PAT_RANDOM, 101 + 2 * i);
		q[i].len = 4096;
		q[i].off = (off_t)(base + (uint64_t)((i * 37) % n) * 3 * 4096 +
				   512);
	}
}

static void batch_free(struct dev_req *q, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		dev_free_buf(q[i].buf);
}

/*
 * A batch on a real device (Linux AIO): writes land where asked, a batch
 * of reads brings them back, a batch with one bad request does nothing,
 * and a fault planted inside a batch fails it there: what came before
 * it is written, what follows is not.
 */
START_TEST(test_dev_batch)
{
	struct dev_req w[8], r[8];
	struct fault_plan plan;
	struct device *dev, *f;
	struct loop_fix fx;
	uint64_t t = 0, bad = 0;
	unsigned int i;

	if (!loop_setup(&fx, "dev_batch", 0, 0))
		return;
	ck_assert_int_eq(dev_open(&dev, fx.dev, DEV_WRITE, NULL, 0), 0);
	batch_reqs(w, 8, 1, 4 * MiB);
	batch_reqs(r, 8, 0, 4 * MiB);
	ck_assert_int_eq(dev_batch(dev, w, 8, &t), 0);
	ck_assert_uint_gt(t, 0);
	ck_assert_int_eq(dev_batch(dev, r, 8, NULL), 0);
	for (i = 0; i < 8; i++)
		ck_assert(!memcmp(w[i].buf, r[i].buf, 4096));
	ck_assert_uint_eq(dev->io_count, 16);
	/* one request out of line: nothing is written */
	batch_free(w, 8);
	batch_reqs(w, 8, 1, 20 * MiB);
	w[5].off += 100;
	ck_assert_int_eq(dev_batch(dev, w, 8, NULL), -EINVAL);
	ck_assert_str_eq(dev->last_error.op, "write");
	ck_assert_int_eq(dev->last_error.off_byte, w[5].off);
	w[5].off -= 100;
	/* EIO in the third write of a batch behind the fault injector */
	fault_plan_init(&plan);
	plan.eio_byte = (uint64_t)w[2].off + 100;
	ck_assert_int_eq(fault_wrap(&f, dev, &plan), 0);
	ck_assert_int_eq(dev_batch(f, w, 8, NULL), -EIO);
	ck_assert_str_eq(f->last_error.op, "write");
	ck_assert_int_eq(f->last_error.off_byte, w[2].off);
	dev_close(f);
	for (i = 0; i < 8; i++) {
		unsigned char *back = dev_alloc_buf(4096);
		int fd = open(fx.dev, O_RDONLY | O_DIRECT);

		ck_assert(fd >= 0 && back);
		ck_assert(pread(fd, back, 4096, w[i].off) == 4096);
		close(fd);
		/* the first two are written, the others are as planted */
		if (i < 2)
			bad += memcmp(back, w[i].buf, 4096) != 0;
		else
			bad += scan(fx.dev, (uint64_t)w[i].off, 4096,
				    SCAN_PLANTED, fx.seed);
		dev_free_buf(back);
	}
	ck_assert_uint_eq(bad, 0);
	ck_assert_uint_eq(scan(fx.dev, 0, 4 * MiB, SCAN_PLANTED, fx.seed), 0);
	batch_free(w, 8);
	batch_free(r, 8);
}
END_TEST

/* DEV_EXCL takes the device; a second exclusive open is refused. */
START_TEST(test_dev_exclusive)
{
	char holder[256];
	struct loop_fix fx;
	struct device *a, *b;

	if (!loop_setup(&fx, "dev_exclusive", 0, 0))
		return;
	ck_assert_int_eq(dev_check_unused(fx.dev, holder, sizeof(holder)), 0);
	ck_assert_str_eq(holder, "");
	ck_assert_int_eq(dev_open(&a, fx.dev, DEV_WRITE | DEV_EXCL, holder,
				  sizeof(holder)), 0);
	ck_assert_int_eq(dev_open(&b, fx.dev, DEV_WRITE | DEV_EXCL, holder,
				  sizeof(holder)), -EBUSY);
	ck_assert_ptr_null(b);
	ck_assert_msg(strstr(holder, fx.dev) && strstr(holder, "exclusive"),
		      "holder '%s'", holder);
	/* the read tests may still look at it */
	ck_assert_int_eq(dev_open(&b, fx.dev, 0, NULL, 0), 0);
	dev_close(b);
	dev_close(a);
	ck_assert_int_eq(dev_open(&b, fx.dev, DEV_WRITE | DEV_EXCL, holder,
				  sizeof(holder)), 0);
	dev_close(b);
}
END_TEST

START_TEST(test_dev_regular_file)
{
	char path[128];
	uint64_t want[128];
	unsigned char *buf = dev_alloc_buf(4096);
	struct device *dev;
	int fd;

	snprintf(path, sizeof(path), "%s/file.XXXXXX", state_dir());
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	state_append("ledger", "file %s", path);
	planted(want, 7, 0, sizeof(want));
	ck_assert(write(fd, want, sizeof(want)) == sizeof(want));
	ck_assert(write(fd, want, 200) == 200);	/* a partial sector */
	close(fd);

	ck_assert_int_eq(dev_open(&dev, path, 0, NULL, 0), 0);
	ck_assert_uint_eq(dev->size_byte, 1024);
	ck_assert_uint_eq(dev->logical_block_size, 512);
	ck_assert_int_eq(dev_read(dev, buf, 1024, 0, NULL), 0);
	ck_assert(!memcmp(buf, want, 1024));
	ck_assert_int_eq(dev_read(dev, buf, 512, 1024, NULL), -EINVAL);
	dev_close(dev);

	ck_assert_int_eq(dev_open(&dev, path, DEV_WRITE | DEV_EXCL, NULL, 0),
			 0);
	ck_assert_int_eq(dev_discard(dev, 512, 512, NULL), 0);
	ck_assert_int_eq(dev_read(dev, buf, 1024, 0, NULL), 0);
	ck_assert(!memcmp(buf, want, 512));
	ck_assert_uint_eq(buf[512] | buf[700] | buf[1023], 0);
	dev_close(dev);
	unlink(path);
	dev_free_buf(buf);
}
END_TEST

/* A file that shrinks under the reader: a read of nothing is -EIO. */
START_TEST(test_dev_short_read)
{
	unsigned char *buf = dev_alloc_buf(8192);
	struct device *dev;
	char path[128];
	int fd;

	snprintf(path, sizeof(path), "%s/short.XXXXXX", state_dir());
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	state_append("ledger", "file %s", path);
	ck_assert_int_eq(ftruncate(fd, 8192), 0);
	ck_assert_int_eq(dev_open(&dev, path, 0, NULL, 0), 0);
	ck_assert_uint_eq(dev->size_byte, 8192);
	ck_assert_int_eq(ftruncate(fd, 4096), 0);
	close(fd);

	/* the first transfer is short (4096), the next one moves nothing */
	ck_assert_int_eq(dev_read(dev, buf, 8192, 0, NULL), -EIO);
	ck_assert_str_eq(dev->last_error.op, "read");
	ck_assert_int_eq(dev->last_error.off_byte, 0);
	ck_assert_uint_eq(dev->last_error.len_byte, 8192);
	ck_assert_int_eq(dev->last_error.err, EIO);
	ck_assert_int_eq(dev_read(dev, buf, 4096, 0, NULL), 0);
	dev_close(dev);
	dev_free_buf(buf);
}
END_TEST

START_TEST(test_dev_not_a_device)
{
	struct device *dev = (struct device *)1;
	char holder[64] = "x";

	ck_assert_int_eq(dev_open(&dev, "/tmp", 0, holder, sizeof(holder)),
			 -EISDIR);
	ck_assert_ptr_null(dev);
	ck_assert_str_eq(holder, "");
	ck_assert_int_eq(dev_open(&dev, "/dev/null", 0, NULL, 0), -ENOTBLK);
	ck_assert_int_eq(dev_open(&dev, "/nonexistent/card", 0, NULL, 0),
			 -ENOENT);
	ck_assert_int_eq(dev_check_unused("/nonexistent/card", NULL, 0),
			 -ENOENT);
	ck_assert_int_eq(dev_check_unused("/dev/null", NULL, 0), 0);
}
END_TEST

Suite *blockdev_suite(void)
{
	Suite *s = suite_create("blockdev");
	TCase *tc;

	tc = loop_tcase("file");
	tcase_add_test(tc, test_dev_regular_file);
	tcase_add_test(tc, test_dev_short_read);
	tcase_add_test(tc, test_dev_not_a_device);
	suite_add_tcase(s, tc);

	tc = loop_tcase("dev");
	tcase_add_test(tc, test_dev_geometry);
	tcase_add_test(tc, test_dev_geometry_4k);
	tcase_add_loop_test(tc, test_dev_invalid, 0,
			    sizeof(bad_ios) / sizeof(bad_ios[0]));
	tcase_add_test(tc, test_dev_readonly);
	tcase_add_test(tc, test_dev_roundtrip);
	tcase_add_test(tc, test_dev_batch);
	tcase_add_test(tc, test_dev_write_protected);
	tcase_add_test(tc, test_dev_exclusive);
	suite_add_tcase(s, tc);
	return s;
}
