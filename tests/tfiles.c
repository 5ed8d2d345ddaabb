// SPDX-License-Identifier: GPL-2.0-only
/* What the safety suites share (see tfiles.h). */
#include <ftw.h>
#include <signal.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "blockdev.h"
#include "fault.h"
#include "preserve.h"
#include "sim.h"
#include "util.h"
#include "tfiles.h"

const struct bench_range t_ranges[T_NRANGES] = {
	{ 0, 8 * KiB },
	{ 1 * MiB + 512, 4 * MiB + 512 },
	{ T_SIZE - 4 * KiB, T_SIZE },
};

/* Temporary directory of the test case, and of the running test. */
char t_base[64];
char t_dir[96];

/* A path in the test directory. */
const char *t_path(char *buf, size_t len, const char *name)
{
	/* without a directory of its own, a test would share "/NAME" with
	 * every other test run on the machine */
	ck_assert_msg(t_dir[0], "t_path(%s) outside a test directory: give "
		      "the case t_base_setup and t_dir_setup", name);
	snprintf(buf, len, "%s/%s", t_dir, name);
	return buf;
}

/* Does path exist? */
int t_exists(const char *path)
{
	struct stat st;

	return !lstat(path, &st);
}

/* Write len bytes from buf to a new file at path. */
void t_write_file(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	ck_assert_msg(fd >= 0, "create %s: %s", path, strerror(errno));
	ck_assert_int_eq(write(fd, buf, len), (ssize_t)len);
	ck_assert_int_eq(fsync(fd), 0);
	close(fd);
}

/*
 * The whole content of a file, malloc'd and NUL-terminated (for the
 * string functions); *len gets its size.
 */
unsigned char *t_read_file(const char *path, size_t *len)
{
	unsigned char *buf;
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	ck_assert_msg(fd >= 0, "open %s: %s", path, strerror(errno));
	ck_assert_int_eq(fstat(fd, &st), 0);
	*len = (size_t)st.st_size;
	buf = malloc(*len + 1);
	ck_assert_ptr_nonnull(buf);
	buf[*len] = '\0';
	ck_assert_int_eq(read(fd, buf, *len), (ssize_t)*len);
	close(fd);
	return buf;
}

/* A file of size bytes of pseudo-random content from seed. */
void t_make_file(const char *path, size_t size, uint64_t seed)
{
	unsigned char *buf = malloc(size);

	ck_assert_ptr_nonnull(buf);
	dev_fill(buf, size, DEV_PAT_RANDOM, seed);
	t_write_file(path, buf, size);
	free(buf);
}

/*
 * Open path read-write as a device, behind the guard that notes what is
 * written into saved ranges (as the front end does with --preserve): the
 * scribbles of these tests are the writing test.
 */
struct device *t_guard(struct device *dev)
{
	struct device *g = NULL;

	ck_assert_int_eq(preserve_wrap(&g, dev), 0);
	return g;
}

/* Open path read-write as a device, without a guard. */
struct device *t_open_raw(const char *path)
{
	struct device *dev = NULL;
	int ret = dev_open(&dev, path, DEV_WRITE, NULL, 0);

	ck_assert_msg(!ret, "dev_open %s: %s", path, strerror(-ret));
	return dev;
}

struct device *t_open(const char *path)
{
	return t_guard(t_open_raw(path));
}

/* Everything on dev, read with O_DIRECT (malloc'd, dev->size_byte). */
unsigned char *t_snapshot(struct device *dev)
{
	unsigned char *all = malloc(dev->size_byte);
	unsigned char *buf = dev_alloc_buf(MiB);
	uint64_t off, step;

	ck_assert_ptr_nonnull(all);
	ck_assert_ptr_nonnull(buf);
	for (off = 0; off < dev->size_byte; off += step) {
		step = dev->size_byte - off < MiB ? dev->size_byte - off : MiB;
		ck_assert_int_eq(dev_read(dev, buf, step, (off_t)off, NULL), 0);
		memcpy(all + off, buf, step);
	}
	dev_free_buf(buf);
	return all;
}

/* Does dev hold exactly want (dev->size_byte bytes)? */
int t_same(struct device *dev, const unsigned char *want)
{
	unsigned char *now = t_snapshot(dev);
	int same = !memcmp(now, want, dev->size_byte);

	free(now);
	return same;
}

/* Overwrite every test range with 0x5a. */
void t_scribble(struct device *dev)
{
	size_t i;

	for (i = 0; i < T_NRANGES; i++) {
		size_t len = t_ranges[i].end_byte - t_ranges[i].start_byte;
		unsigned char *buf = dev_alloc_buf(len);

		ck_assert_ptr_nonnull(buf);
		dev_fill(buf, len, DEV_PAT_5A, 0);
		ck_assert_int_eq(dev_write(dev, buf, len,
					   (off_t)t_ranges[i].start_byte,
					   NULL), 0);
		dev_free_buf(buf);
	}
}

/* Save the test ranges of dev into journal; the save must work. */
struct preserve *t_save(struct device *dev, const char *journal)
{
	struct preserve *p = NULL;
	char why[256];
	int ret;

	ret = preserve_save(&p, dev, t_ranges, T_NRANGES, journal, why,
			    sizeof(why));
	ck_assert_msg(!ret, "preserve_save: %s (%s)", strerror(-ret), why);
	ck_assert_ptr_nonnull(p);
	return p;
}

/* Wrap dev in a fault device following plan (NULL: none). */
struct device *t_wrap(struct device *dev,
			     const struct fault_plan *plan)
{
	struct device *f = NULL;

	ck_assert_int_eq(fault_wrap(&f, dev, plan), 0);
	ck_assert_ptr_nonnull(f);
	return f;
}

/*
 * Make the test case's directory in the parent (an unchecked fixture, so
 * that its teardown runs even after a test failed in its child).
 */
void t_base_setup(void)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(t_base, sizeof(t_base), "%s/fbsafe-XXXXXX",
		 tmp && *tmp && strlen(tmp) < 40 ? tmp : "/var/tmp");
	if (!mkdtemp(t_base))
		ck_abort_msg("mkdtemp %s: %s", t_base, strerror(errno));
}

/* Each test gets a fresh directory of its own inside it. */
void t_dir_setup(void)
{
	snprintf(t_dir, sizeof(t_dir), "%s/t-XXXXXX", t_base);
	if (!mkdtemp(t_dir))
		ck_abort_msg("mkdtemp %s: %s", t_dir, strerror(errno));
}

/* The losetup binary, or NULL. */
const char *t_losetup(void)
{
	static const char *const where[] = { "/usr/sbin/losetup",
					     "/sbin/losetup",
					     "/usr/bin/losetup" };
	size_t i;

	for (i = 0; i < sizeof(where) / sizeof(where[0]); i++)
		if (!access(where[i], X_OK))
			return where[i];
	return NULL;
}

/* Detach every loop device still backed by file (after a failure). */
static void t_loop_detach_file(const char *file)
{
	char *argv[] = { (char *)t_losetup(), "-j", (char *)file, NULL };
	struct cmd_result res;
	char *line, *save;

	if (!argv[0] || run_cmd(argv, &res))
		return;
	for (line = strtok_r(res.out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *del[] = { argv[0], "-d", line, NULL };
		struct cmd_result r2;
		char *colon = strchr(line, ':');

		if (!colon)
			continue;
		*colon = '\0';
		if (!run_cmd(del, &r2))
			cmd_result_free(&r2);
	}
	cmd_result_free(&res);
}

/* Remove one thing left under the base directory. */
static int t_rm(const char *path, const struct stat *st, int type,
		struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (type == FTW_DP) {
		rmdir(path);
		return 0;
	}
	t_loop_detach_file(path);
	unlink(path);
	return 0;
}

/* Remove the test case's directory and everything in it. */
void t_base_teardown(void)
{
	nftw(t_base, t_rm, 16, FTW_DEPTH | FTW_PHYS);
}

/* The pass-through workload. */
const struct t_op t_workload[T_NWORK] = {
	{ FAULT_READ, 0, 4 * KiB },
	{ FAULT_WRITE, 16 * MiB, 64 * KiB },
	{ FAULT_WRITE, 16 * MiB + 64 * KiB, 16 * KiB },
	{ FAULT_READ, 4 * MiB - 8 * KiB, 16 * KiB },
	{ FAULT_WRITE, 48 * MiB, 512 },
	{ FAULT_DISCARD, 32 * MiB, 4 * MiB },
	{ FAULT_WRITE, 64 * MiB, 4 * MiB },
	{ FAULT_READ, 64 * MiB, 1 * MiB },
	{ FAULT_WRITE, 80 * MiB + 512, 3 * KiB },
};

/* Run op on dev; returns its result, its time in *t. */
int t_do(struct device *dev, const struct t_op *op, void *buf, uint64_t *t)
{
	switch (op->kind) {
	case FAULT_READ:
		return dev_read(dev, buf, op->len_byte, (off_t)op->off_byte, t);
	case FAULT_WRITE:
		return dev_write(dev, buf, op->len_byte, (off_t)op->off_byte,
				 t);
	default:
		return dev_discard(dev, (off_t)op->off_byte, op->len_byte, t);
	}
}
