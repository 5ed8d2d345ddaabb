// SPDX-License-Identifier: GPL-2.0-only
/*
 * The safety wrappers: the fault-injecting device (every fault at the
 * planned operation or byte, errors recorded, ENODEV sticky, a transparent
 * pass-through otherwise) and --preserve (save, scribble, restore to the
 * bit on regular files and loop devices; journals of other devices and
 * damaged journals refused without a single write; a failing device keeps
 * the journal; the simulated card's times unchanged by a backup).
 */
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

#define KiB (1024ULL)
#define MiB (1024ULL * KiB)

/* Size of the test files and loop devices. */
#define T_SIZE		(8 * MiB)

/* The ranges the preserve tests save: first blocks, a long run crossing
 * several I/O chunks at an odd block, the last blocks. */
static const struct bench_range t_ranges[] = {
	{ 0, 8 * KiB },
	{ 1 * MiB + 512, 4 * MiB + 512 },
	{ T_SIZE - 4 * KiB, T_SIZE },
};
#define T_NRANGES (sizeof(t_ranges) / sizeof(t_ranges[0]))

/* The state section of a journal of n bytes of 512-byte blocks. */
#define T_STATE_BYTE(n)	(16 + 16 * ((n) / 512))

/* ---- helpers ---- */

/* Temporary directory of the test case, and of the running test. */
static char t_base[64];
static char t_dir[96];

/* A path in the test directory. */
static const char *t_path(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", t_dir, name);
	return buf;
}

/* Does path exist? */
static int t_exists(const char *path)
{
	struct stat st;

	return !lstat(path, &st);
}

/* Write len bytes from buf to a new file at path. */
static void t_write_file(const char *path, const void *buf, size_t len)
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
static unsigned char *t_read_file(const char *path, size_t *len)
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
static void t_make_file(const char *path, size_t size, uint64_t seed)
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
static struct device *t_guard(struct device *dev)
{
	struct device *g = NULL;

	ck_assert_int_eq(preserve_wrap(&g, dev), 0);
	return g;
}

/* Open path read-write as a device, without a guard. */
static struct device *t_open_raw(const char *path)
{
	struct device *dev = NULL;
	int ret = dev_open(&dev, path, DEV_WRITE, NULL, 0);

	ck_assert_msg(!ret, "dev_open %s: %s", path, strerror(-ret));
	return dev;
}

static struct device *t_open(const char *path)
{
	return t_guard(t_open_raw(path));
}

/* Everything on dev, read with O_DIRECT (malloc'd, dev->size_byte). */
static unsigned char *t_snapshot(struct device *dev)
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
static int t_same(struct device *dev, const unsigned char *want)
{
	unsigned char *now = t_snapshot(dev);
	int same = !memcmp(now, want, dev->size_byte);

	free(now);
	return same;
}

/* Overwrite every test range with 0x5a. */
static void t_scribble(struct device *dev)
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
static struct preserve *t_save(struct device *dev, const char *journal)
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
static struct device *t_wrap(struct device *dev,
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
static void t_base_setup(void)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(t_base, sizeof(t_base), "%s/fbsafe-XXXXXX",
		 tmp && *tmp && strlen(tmp) < 40 ? tmp : "/var/tmp");
	if (!mkdtemp(t_base))
		ck_abort_msg("mkdtemp %s: %s", t_base, strerror(errno));
}

/* Each test gets a fresh directory of its own inside it. */
static void t_dir_setup(void)
{
	snprintf(t_dir, sizeof(t_dir), "%s/t-XXXXXX", t_base);
	if (!mkdtemp(t_dir))
		ck_abort_msg("mkdtemp %s: %s", t_dir, strerror(errno));
}

/* The losetup binary, or NULL. */
static const char *t_losetup(void)
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
static void t_base_teardown(void)
{
	nftw(t_base, t_rm, 16, FTW_DEPTH | FTW_PHYS);
}

/* ---- fault: pass-through ---- */

/* One operation of the pass-through workload. */
struct t_op {
	unsigned int kind;	/* FAULT_READ, FAULT_WRITE, FAULT_DISCARD */
	uint64_t off_byte;
	uint64_t len_byte;
};

static const struct t_op t_workload[] = {
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
#define T_NWORK (sizeof(t_workload) / sizeof(t_workload[0]))

/* The name dev_error gives an operation kind. */
static const char *t_op_name(unsigned int kind)
{
	if (kind == FAULT_READ)
		return "read";
	return kind == FAULT_WRITE ? "write" : "discard";
}

/* Run op on dev; returns its result, its time in *t. */
static int t_do(struct device *dev, const struct t_op *op, void *buf,
		uint64_t *t)
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

START_TEST(test_fault_passthrough)
{
	struct device *plain = sim_card("size=1G,noise=3,seed=7");
	struct device *inner = sim_card("size=1G,noise=3,seed=7");
	struct device *f = t_wrap(inner, NULL);
	unsigned char *buf = dev_alloc_buf(4 * MiB);
	struct fault_stats st;
	uint64_t ta, tb;
	size_t i;

	ck_assert_ptr_nonnull(buf);
	dev_fill(buf, 4 * MiB, DEV_PAT_ZERO, 0);
	ck_assert_uint_eq(f->size_byte, plain->size_byte);
	ck_assert_uint_eq(f->logical_block_size, plain->logical_block_size);
	ck_assert_str_eq(f->path, inner->path);
	for (i = 0; i < T_NWORK; i++) {
		ck_assert_int_eq(t_do(plain, &t_workload[i], buf, &ta), 0);
		ck_assert_int_eq(t_do(f, &t_workload[i], buf, &tb), 0);
		ck_assert_msg(ta == tb, "op %zu: %llu ns plain, %llu wrapped",
			      i, (unsigned long long)ta,
			      (unsigned long long)tb);
		ck_assert_uint_eq(dev_now_ns(f), dev_now_ns(inner));
		ck_assert_uint_eq(dev_now_ns(f), dev_now_ns(plain));
	}
	ck_assert_int_eq(fault_get_stats(f, &st), 0);
	ck_assert_uint_eq(st.reads, 3);
	ck_assert_uint_eq(st.writes, 5);
	ck_assert_uint_eq(st.discards, 1);
	ck_assert_uint_eq(st.injected, 0);
	ck_assert_uint_eq(st.written_byte,
			  64 * KiB + 16 * KiB + 512 + 4 * MiB + 3 * KiB);
	ck_assert_uint_eq(f->io_count, T_NWORK);
	ck_assert_uint_eq(inner->io_count, T_NWORK);
	ck_assert_int_eq(fault_get_stats(plain, &st), -EINVAL);
	dev_free_buf(buf);
	dev_close(plain);
	dev_close(f);		/* closes inner too (else ASan: leak) */
}
END_TEST

START_TEST(test_fault_bad_plan)
{
	struct device *inner = sim_card("size=1G");
	struct device *f = (struct device *)1;
	struct fault_plan plan;

	fault_plan_init(&plan);
	plan.eio_kinds = 0x10;
	ck_assert_int_eq(fault_wrap(&f, inner, &plan), -EINVAL);
	ck_assert_ptr_null(f);
	fault_plan_init(&plan);
	plan.eio_op = 0;	/* operations count from 1 */
	ck_assert_int_eq(fault_wrap(&f, inner, &plan), -EINVAL);
	ck_assert_int_eq(fault_wrap(&f, NULL, NULL), -EINVAL);
	dev_close(inner);	/* still ours after a failed wrap */
}
END_TEST

/* ---- fault: each kind at the planned operation or byte ---- */

/* Check the last error of dev. */
static void t_err(struct device *dev, const char *op, uint64_t off,
		  uint64_t len, int err)
{
	ck_assert_str_eq(dev->last_error.op, op);
	ck_assert_uint_eq(dev->last_error.off_byte, off);
	ck_assert_uint_eq(dev->last_error.len_byte, len);
	ck_assert_int_eq(dev->last_error.err, err);
}

START_TEST(test_fault_eio_op)
{
	struct device *inner = sim_card("size=1G,noise=0"), *f;
	unsigned char *buf = dev_alloc_buf(64 * KiB);
	struct fault_plan plan;
	struct fault_stats st;
	uint64_t before;

	fault_plan_init(&plan);
	plan.eio_op = 3;
	f = t_wrap(inner, &plan);
	dev_fill(buf, 64 * KiB, DEV_PAT_ZERO, 0);
	ck_assert_int_eq(dev_read(f, buf, 4 * KiB, 0, NULL), 0);
	ck_assert_int_eq(dev_write(f, buf, 4 * KiB, 0, NULL), 0);
	before = dev_now_ns(f);
	ck_assert_int_eq(dev_write(f, buf, 8 * KiB, 12 * MiB, NULL), -EIO);
	t_err(f, "write", 12 * MiB, 8 * KiB, EIO);
	/* the failed operation never reached the card */
	ck_assert_uint_eq(dev_now_ns(f), before);
	ck_assert_uint_eq(inner->io_count, 2);
	/* one failure, not a dead device */
	ck_assert_int_eq(dev_read(f, buf, 64 * KiB, 0, NULL), 0);
	ck_assert_int_eq(dev_discard(f, 0, 4 * MiB, NULL), 0);
	ck_assert_int_eq(fault_get_stats(f, &st), 0);
	ck_assert_uint_eq(st.injected, 1);
	ck_assert_uint_eq(inner->io_count, 4);
	dev_free_buf(buf);
	dev_close(f);
}
END_TEST

/* eio_byte and eio_kinds: which operations touching the byte fail. */
static const struct t_eio_case {
	unsigned int kinds;	/* plan.eio_kinds */
	unsigned int kind;	/* operation tried */
	uint64_t off_byte;
	uint64_t len_byte;
	int want;		/* its result */
} t_eio_byte[] = {
	{ FAULT_ALL, FAULT_READ, 1 * MiB, 8 * KiB, -EIO },
	{ FAULT_ALL, FAULT_READ, 1 * MiB + 8 * KiB, 8 * KiB, 0 },
	{ FAULT_ALL, FAULT_READ, 1 * MiB + 4 * KiB, 512, -EIO },
	{ FAULT_ALL, FAULT_READ, 1 * MiB + 4 * KiB + 512, 512, 0 },
	{ FAULT_ALL, FAULT_READ, 1 * MiB - 8 * KiB, 8 * KiB, 0 },
	{ FAULT_ALL, FAULT_WRITE, 0, 4 * MiB, -EIO },
	{ FAULT_ALL, FAULT_DISCARD, 0, 4 * MiB, -EIO },
	{ FAULT_WRITE, FAULT_READ, 1 * MiB, 8 * KiB, 0 },
	{ FAULT_WRITE, FAULT_WRITE, 1 * MiB, 8 * KiB, -EIO },
	{ FAULT_WRITE, FAULT_DISCARD, 0, 4 * MiB, 0 },
	{ FAULT_READ | FAULT_DISCARD, FAULT_DISCARD, 1 * MiB, 4 * MiB, -EIO },
	{ FAULT_READ | FAULT_DISCARD, FAULT_WRITE, 1 * MiB, 4 * MiB, 0 },
};

START_TEST(test_fault_eio_byte)
{
	const uint64_t bad = 1 * MiB + 4 * KiB + 100;
	struct device *f, *inner = sim_card("size=1G,noise=0");
	unsigned char *buf = dev_alloc_buf(4 * MiB);
	struct fault_plan plan;
	struct t_op op;

	fault_plan_init(&plan);
	plan.eio_byte = bad;
	plan.eio_kinds = t_eio_byte[_i].kinds;
	f = t_wrap(inner, &plan);
	dev_fill(buf, 4 * MiB, DEV_PAT_ONES, 0);
	op.kind = t_eio_byte[_i].kind;
	op.off_byte = t_eio_byte[_i].off_byte;
	op.len_byte = t_eio_byte[_i].len_byte;
	ck_assert_int_eq(t_do(f, &op, buf, NULL), t_eio_byte[_i].want);
	if (t_eio_byte[_i].want)
		t_err(f, t_op_name(op.kind), op.off_byte, op.len_byte, EIO);
	else
		ck_assert_ptr_null(f->last_error.op);
	/* the same byte fails again: a bad sector stays bad */
	ck_assert_int_eq(t_do(f, &op, buf, NULL), t_eio_byte[_i].want);
	dev_free_buf(buf);
	dev_close(f);
}
END_TEST

/*
 * The first byte of b[0, len) that is not val inside [lo, hi) and zero
 * outside, or len.  (Tests assert once on the result: every assertion
 * is a message to the parent process.)
 */
static size_t t_bad_byte(const unsigned char *b, size_t len, size_t lo,
			 size_t hi, unsigned char val)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (b[i] != (i >= lo && i < hi ? val : 0))
			break;
	return i;
}

/* A 1 MiB file of zeros in the test directory, opened as a device. */
static struct device *t_zero_file(const char *name, char *path, size_t len)
{
	unsigned char *zero = calloc(1, 1 * MiB);

	ck_assert_ptr_nonnull(zero);
	t_path(path, len, name);
	t_write_file(path, zero, 1 * MiB);
	free(zero);
	return t_open(path);
}

START_TEST(test_fault_short)
{
	char path[256];
	struct device *f, *inner = t_zero_file("short", path, sizeof(path));
	unsigned char *buf = dev_alloc_buf(8 * KiB), *file;
	struct fault_plan plan;
	struct fault_stats st;
	size_t len, i;

	fault_plan_init(&plan);
	plan.short_op = 1;
	plan.short_byte = 1536 + 100;	/* rounded down to 3 blocks */
	f = t_wrap(inner, &plan);
	dev_fill(buf, 8 * KiB, DEV_PAT_5A, 0);
	ck_assert_int_eq(dev_write(f, buf, 8 * KiB, 64 * KiB, NULL), -EIO);
	t_err(f, "write", 64 * KiB, 8 * KiB, EIO);
	ck_assert_int_eq(fault_get_stats(f, &st), 0);
	ck_assert_uint_eq(st.written_byte, 1536);
	ck_assert_uint_eq(st.injected, 1);
	/* exactly the first 1536 bytes reached the file */
	file = t_read_file(path, &len);
	ck_assert_uint_eq(len, 1 * MiB);
	i = t_bad_byte(file, len, 64 * KiB, 64 * KiB + 1536, 0x5a);
	ck_assert_msg(i == len, "byte %zu is %#x", i, file[i]);
	free(file);

	/* a short read: the head is data, the rest poison */
	plan.short_op = 2;
	plan.short_byte = 1024;
	ck_assert_int_eq(fault_set_plan(f, &plan), 0);
	memset(buf, 0x11, 8 * KiB);
	ck_assert_int_eq(dev_read(f, buf, 4 * KiB, 64 * KiB, NULL), -EIO);
	t_err(f, "read", 64 * KiB, 4 * KiB, EIO);
	for (i = 0; i < 4 * KiB; i++)
		ck_assert_uint_eq(buf[i], i < 1024 ? 0x5a : 0xa5);
	ck_assert_uint_eq(buf[4 * KiB], 0x11);	/* nothing past len */
	/* the next read is whole again */
	ck_assert_int_eq(dev_read(f, buf, 4 * KiB, 64 * KiB, NULL), 0);
	ck_assert_uint_eq(buf[2 * KiB], 0);
	dev_free_buf(buf);
	dev_close(f);
}
END_TEST

START_TEST(test_fault_enospc)
{
	char path[256];
	struct device *f, *inner = t_zero_file("nospc", path, sizeof(path));
	unsigned char *buf = dev_alloc_buf(16 * KiB), *file;
	struct fault_plan plan;
	struct fault_stats st;
	size_t len, i;

	fault_plan_init(&plan);
	plan.enospc_byte = 512 * KiB;
	f = t_wrap(inner, &plan);
	dev_fill(buf, 16 * KiB, DEV_PAT_ONES, 0);
	ck_assert_int_eq(dev_write(f, buf, 8 * KiB, 0, NULL), 0);
	ck_assert_int_eq(dev_write(f, buf, 16 * KiB, 512 * KiB - 4 * KiB,
				   NULL), -ENOSPC);
	t_err(f, "write", 512 * KiB - 4 * KiB, 16 * KiB, ENOSPC);
	ck_assert_int_eq(dev_write(f, buf, 4 * KiB, 600 * KiB, NULL),
			 -ENOSPC);
	t_err(f, "write", 600 * KiB, 4 * KiB, ENOSPC);
	/* reads are not writes */
	ck_assert_int_eq(dev_read(f, buf, 16 * KiB, 600 * KiB, NULL), 0);
	ck_assert_int_eq(fault_get_stats(f, &st), 0);
	ck_assert_uint_eq(st.written_byte, 8 * KiB + 4 * KiB);
	ck_assert_uint_eq(st.injected, 2);
	file = t_read_file(path, &len);
	ck_assert_uint_eq(t_bad_byte(file, 8 * KiB, 0, 8 * KiB, 0xff),
			  8 * KiB);
	i = 8 * KiB + t_bad_byte(file + 8 * KiB, len - 8 * KiB, 500 * KiB,
				 504 * KiB, 0xff);
	ck_assert_msg(i == len, "byte %zu is %#x", i, file[i]);
	free(file);
	dev_free_buf(buf);
	dev_close(f);
}
END_TEST

START_TEST(test_fault_lost)
{
	char path[256];
	struct device *f, *inner = t_zero_file("lost", path, sizeof(path));
	unsigned char *buf = dev_alloc_buf(16 * KiB), *file;
	struct fault_plan plan;
	struct fault_stats st;
	size_t len, i;

	fault_plan_init(&plan);
	plan.lost_byte = 256 * KiB;
	f = t_wrap(inner, &plan);
	dev_fill(buf, 16 * KiB, DEV_PAT_5A, 0);
	/* a counterfeit card says yes and keeps only what it has */
	ck_assert_int_eq(dev_write(f, buf, 16 * KiB, 248 * KiB, NULL), 0);
	ck_assert_ptr_null(f->last_error.op);
	ck_assert_int_eq(fault_get_stats(f, &st), 0);
	ck_assert_uint_eq(st.written_byte, 8 * KiB);
	ck_assert_uint_eq(st.lost_byte, 8 * KiB);
	file = t_read_file(path, &len);
	i = t_bad_byte(file, len, 248 * KiB, 256 * KiB, 0x5a);
	ck_assert_msg(i == len, "byte %zu is %#x", i, file[i]);
	free(file);
	dev_free_buf(buf);
	dev_close(f);
}
END_TEST

START_TEST(test_fault_enodev)
{
	struct device *inner = sim_card("size=1G,noise=0"), *f;
	unsigned char *buf = dev_alloc_buf(4 * KiB);
	struct fault_plan plan;
	struct fault_stats st;
	uint64_t t;
	int i;

	fault_plan_init(&plan);
	plan.enodev_op = 2;
	f = t_wrap(inner, &plan);
	dev_fill(buf, 4 * KiB, DEV_PAT_ZERO, 0);
	ck_assert_int_eq(dev_read(f, buf, 4 * KiB, 0, NULL), 0);
	ck_assert_int_eq(dev_write(f, buf, 4 * KiB, 8 * KiB, NULL), -ENODEV);
	t_err(f, "write", 8 * KiB, 4 * KiB, ENODEV);
	/* gone for good, even when the plan no longer says so */
	fault_plan_init(&plan);
	ck_assert_int_eq(fault_set_plan(f, &plan), 0);
	for (i = 0; i < 5; i++) {
		ck_assert_int_eq(dev_read(f, buf, 4 * KiB, 0, NULL), -ENODEV);
		t_err(f, "read", 0, 4 * KiB, ENODEV);
		ck_assert_int_eq(dev_discard(f, 0, 4 * MiB, NULL), -ENODEV);
		t_err(f, "discard", 0, 4 * MiB, ENODEV);
	}
	/* the clock still works and a failed call took no device time */
	ck_assert_int_eq(dev_read(f, buf, 4 * KiB, 0, &t), -ENODEV);
	ck_assert_uint_eq(t, 0);
	ck_assert_uint_eq(inner->io_count, 1);
	ck_assert_int_eq(fault_get_stats(f, &st), 0);
	ck_assert_uint_eq(st.injected, 12);
	dev_free_buf(buf);
	dev_close(f);
}
END_TEST

static volatile sig_atomic_t t_batch_stop;

static void t_batch_on_usr1(int sig)
{
	(void)sig;
	t_batch_stop = 1;
}

/* n writes of 4 KiB from buf, 1 MiB apart from base. */
static void t_writes(struct dev_req *q, unsigned int n, void *buf,
		     uint64_t base)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		q[i].write = 1;
		q[i].buf = buf;
		q[i].len = 4 * KiB;
		q[i].off = (off_t)(base + i * MiB);
	}
}

/*
 * Faults inside a batch: each request is numbered as if alone; the ones
 * before a fault go down together (on a queued card, as one batch: one
 * access), the faulty one fails and ends the batch.  A signal raised
 * inside a batch does not cut it (it is in the card), the next one is
 * refused.  A lost write inside a batch is lost silently.
 */
START_TEST(test_fault_batch)
{
	struct device *inner = sim_card("size=1G,noise=0,queue=4,"
					"write_mbps=16");
	unsigned char *buf = dev_alloc_buf(4 * KiB);
	struct sigaction sa, old;
	struct fault_plan plan;
	struct fault_stats st;
	struct dev_req q[5];
	struct device *f;

	dev_fill(buf, 4 * KiB, DEV_PAT_5A, 0);
	fault_plan_init(&plan);
	plan.eio_op = 3;
	f = t_wrap(inner, &plan);
	t_writes(q, 5, buf, 8 * MiB);
	ck_assert_int_eq(dev_batch(f, q, 5, NULL), -EIO);
	t_err(f, "write", 10 * MiB, 4 * KiB, EIO);
	ck_assert_uint_eq(inner->io_count, 2);
	/* the two went down together: one access (700 µs), two pages */
	ck_assert_uint_eq(dev_now_ns(inner), 700000 + 2 * 1024000);
	ck_assert_int_eq(fault_get_stats(f, &st), 0);
	ck_assert_uint_eq(st.writes, 3);
	ck_assert_uint_eq(st.injected, 1);
	ck_assert_uint_eq(st.written_byte, 8 * KiB);

	/* a signal at the second request of the next batch */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = t_batch_on_usr1;
	ck_assert_int_eq(sigaction(SIGUSR1, &sa, &old), 0);
	dev_set_stop_flag(&t_batch_stop);
	fault_plan_init(&plan);
	plan.signal_op = 5;
	plan.signal = SIGUSR1;
	ck_assert_int_eq(fault_set_plan(f, &plan), 0);
	ck_assert_int_eq(dev_batch(f, q, 4, NULL), 0);
	ck_assert_int_eq(t_batch_stop, 1);
	ck_assert_uint_eq(inner->io_count, 6);
	ck_assert_int_eq(dev_batch(f, q, 4, NULL), -EINTR);
	t_err(f, "write", 8 * MiB, 4 * KiB, EINTR);
	ck_assert_uint_eq(inner->io_count, 6);
	dev_set_stop_flag(NULL);
	sigaction(SIGUSR1, &old, NULL);

	/* the second write of a batch lost past 64 MiB + 1 MiB + 2 KiB */
	fault_plan_init(&plan);
	plan.lost_byte = 65 * MiB + 2 * KiB;
	ck_assert_int_eq(fault_set_plan(f, &plan), 0);
	t_writes(q, 2, buf, 64 * MiB);
	ck_assert_int_eq(dev_batch(f, q, 2, NULL), 0);
	ck_assert_int_eq(fault_get_stats(f, &st), 0);
	ck_assert_uint_eq(st.lost_byte, 2 * KiB);
	ck_assert_int_eq(dev_read(inner, buf, 4 * KiB, 65 * MiB, NULL), 0);
	ck_assert_uint_eq(buf[0], 0x5a);
	ck_assert_uint_eq(buf[2 * KiB], 0);
	dev_free_buf(buf);
	dev_close(f);
}
END_TEST

/*
 * Every wrapper passes a batch on as a batch: four queued reads through
 * the guard and the fault injector cost one access and four transfers
 * on a card with a queue, not four accesses.
 */
START_TEST(test_stack_batch)
{
	struct device *inner = sim_card("size=1G,noise=0,queue=4"), *g;
	unsigned char *buf = dev_alloc_buf(16 * KiB);
	struct dev_req q[4];
	unsigned int i;
	uint64_t t;

	g = t_guard(t_wrap(inner, NULL));
	for (i = 0; i < 4; i++) {
		q[i].write = 0;
		q[i].buf = buf + i * 4 * KiB;
		q[i].len = 4 * KiB;
		q[i].off = (off_t)(i * MiB);
	}
	ck_assert_int_eq(dev_batch(g, q, 4, &t), 0);
	/* access 700 µs, 4 KiB at 25 MB/s: 163.84 µs each */
	ck_assert_uint_eq(t, 700000 + 4 * 163840);
	ck_assert_uint_eq(inner->io_count, 4);
	ck_assert_uint_eq(g->io_count, 4);
	dev_free_buf(buf);
	dev_close(g);
}
END_TEST

/* The one stop mechanism (dev_set_stop_flag) stops a stack at its top. */
START_TEST(test_fault_stop)
{
	static volatile sig_atomic_t stop;
	struct device *inner = sim_card("size=1G,noise=0"), *f;
	unsigned char *buf = dev_alloc_buf(4 * KiB);
	struct fault_plan plan;

	fault_plan_init(&plan);
	f = t_wrap(inner, &plan);
	dev_set_stop_flag(&stop);
	dev_fill(buf, 4 * KiB, DEV_PAT_ZERO, 0);
	ck_assert_int_eq(dev_write(f, buf, 4 * KiB, 0, NULL), 0);
	stop = 1;	/* what a signal handler would do */
	ck_assert_int_eq(dev_write(f, buf, 4 * KiB, 4 * KiB, NULL), -EINTR);
	t_err(f, "write", 4 * KiB, 4 * KiB, EINTR);
	ck_assert_int_eq(dev_read(f, buf, 4 * KiB, 0, NULL), -EINTR);
	ck_assert_uint_eq(inner->io_count, 1);
	stop = 0;
	ck_assert_int_eq(dev_read(f, buf, 4 * KiB, 0, NULL), 0);
	dev_set_stop_flag(NULL);
	dev_free_buf(buf);
	dev_close(f);
}
END_TEST

/*
 * A wrapper passes untimed I/O and flushes on without code of its own:
 * marked untimed through the fault injector, the simulated card's
 * virtual clock stands still; a flush through it reaches the card.
 */
START_TEST(test_stack_forwards)
{
	struct device *inner = sim_card("size=1G,noise=0"), *f;
	unsigned char *buf = dev_alloc_buf(4 * KiB);
	uint64_t t;

	f = t_wrap(inner, NULL);
	ck_assert_ptr_eq(f->inner, inner);
	ck_assert_int_eq(dev_read(f, buf, 4 * KiB, 0, &t), 0);
	ck_assert_uint_gt(t, 0);
	dev_untimed(f, 1);
	ck_assert_int_eq(inner->untimed, 1);
	ck_assert_int_eq(dev_read(f, buf, 4 * KiB, 0, &t), 0);
	ck_assert_uint_eq(t, 0);
	dev_untimed(f, 0);
	ck_assert_int_eq(inner->untimed, 0);
	ck_assert_int_eq(dev_read(f, buf, 4 * KiB, 0, &t), 0);
	ck_assert_uint_gt(t, 0);
	ck_assert_int_eq(dev_flush(f), 0);
	dev_free_buf(buf);
	dev_close(f);
}
END_TEST

/* ---- preserve on regular files ---- */

START_TEST(test_preserve_roundtrip)
{
	char path[256], journal[256], tmp[300];
	struct device *dev;
	unsigned char *before;
	struct preserve *p;
	char why[256] = "x";

	t_make_file(t_path(path, sizeof(path), "card"), T_SIZE, 1);
	t_path(journal, sizeof(journal), "card.journal");
	dev = t_open(path);
	before = t_snapshot(dev);
	p = t_save(dev, journal);
	ck_assert_uint_eq(preserve_bytes(p), 8 * KiB + 3 * MiB + 4 * KiB);
	ck_assert_str_eq(preserve_journal(p), journal);
	ck_assert(t_exists(journal));
	snprintf(tmp, sizeof(tmp), "%s.tmp", journal);
	ck_assert(!t_exists(tmp));
	/* the backup is a read: the device is unchanged */
	ck_assert(t_same(dev, before));
	t_scribble(dev);
	ck_assert(!t_same(dev, before));
	ck_assert(t_exists(journal));
	ck_assert_int_eq(preserve_restore(p, why, sizeof(why)), 0);
	ck_assert_str_eq(why, "");
	ck_assert(t_same(dev, before));
	ck_assert(!t_exists(journal));
	preserve_free(p);
	dev_close(dev);
	free(before);
}
END_TEST

/* The journal is a complete, self-describing file of the right size. */
START_TEST(test_preserve_journal_layout)
{
	char path[256], journal[256];
	struct device *dev;
	unsigned char *j;
	struct preserve *p;
	size_t len;

	t_make_file(t_path(path, sizeof(path), "card"), T_SIZE, 2);
	t_path(journal, sizeof(journal), "card.journal");
	dev = t_open(path);
	p = t_save(dev, journal);
	j = t_read_file(journal, &len);
	ck_assert_uint_eq(len, 192 + T_NRANGES * 24 + preserve_bytes(p) + 24 +
				       T_STATE_BYTE(preserve_bytes(p)));
	ck_assert(!memcmp(j, "FBJOURNL", 8));
	ck_assert_uint_eq(j[8], PRESERVE_VERSION);
	ck_assert_uint_eq(j[12] | j[13] << 8, 512);
	ck_assert_uint_eq(j[16 + 2], (T_SIZE >> 16) & 0xff);
	ck_assert_str_eq((char *)j + 56, path);
	ck_assert(!memcmp(j + len - T_STATE_BYTE(preserve_bytes(p)) - 24,
			  "FBJ-END\n", 8));
	ck_assert(!memcmp(j + len - T_STATE_BYTE(preserve_bytes(p)),
			  "FBJSTATE", 8));
	/* the first record holds the first bytes of the device */
	ck_assert_uint_eq(j[192 + 8 + 1], (8 * KiB) >> 8);
	{
		unsigned char *dev_data = t_snapshot(dev);

		ck_assert(!memcmp(j + 192 + 24, dev_data, 8 * KiB));
		free(dev_data);
	}
	free(j);
	preserve_free(p);	/* no restore: the journal stays */
	ck_assert(t_exists(journal));
	dev_close(dev);
}
END_TEST

START_TEST(test_preserve_refuses_existing_journal)
{
	char path[256], journal[256], why[256];
	struct device *dev;
	struct preserve *p = (struct preserve *)1;
	unsigned char *j;
	size_t len;

	t_make_file(t_path(path, sizeof(path), "card"), T_SIZE, 3);
	t_path(journal, sizeof(journal), "card.journal");
	t_write_file(journal, "precious", 8);
	dev = t_open(path);
	ck_assert_int_eq(preserve_save(&p, dev, t_ranges, T_NRANGES, journal,
				       why, sizeof(why)), -EEXIST);
	ck_assert_ptr_null(p);
	/* not a journal: nothing to restore from it */
	ck_assert_msg(strstr(why, "not a flashbench journal") &&
		      !strstr(why, "--restore"), "why: %s", why);
	j = t_read_file(journal, &len);
	ck_assert_uint_eq(len, 8);
	ck_assert(!memcmp(j, "precious", 8));
	free(j);
	dev_close(dev);
}
END_TEST

/* Ranges preserve_save() must refuse before doing anything. */
static const struct bench_range t_bad_ranges[][1] = {
	{ { 100, 4096 } },		/* not block-aligned start */
	{ { 0, 4000 } },		/* not block-aligned end */
	{ { T_SIZE - 4096, T_SIZE + 4096 } },	/* past the end */
	{ { 4096, 4096 } },		/* empty */
	{ { 8192, 4096 } },		/* backwards */
};

START_TEST(test_preserve_bad_ranges)
{
	char path[256], journal[256], tmp[300], why[256] = "";
	struct device *dev;
	struct preserve *p = NULL;

	t_make_file(t_path(path, sizeof(path), "card"), T_SIZE, 4);
	t_path(journal, sizeof(journal), "card.journal");
	snprintf(tmp, sizeof(tmp), "%s.tmp", journal);
	dev = t_open(path);
	ck_assert_int_eq(preserve_save(&p, dev, t_bad_ranges[_i], 1, journal,
				       why, sizeof(why)), -EINVAL);
	ck_assert_ptr_null(p);
	ck_assert_msg(why[0], "no reason given");
	ck_assert(!t_exists(journal));
	ck_assert(!t_exists(tmp));
	ck_assert_int_eq(preserve_save(&p, dev, t_ranges, 0, journal, NULL, 0),
			 -EINVAL);
	dev_close(dev);
}
END_TEST

START_TEST(test_preserve_save_read_error)
{
	char path[256], journal[256], tmp[300], why[256] = "";
	struct device *dev;
	struct preserve *p = NULL;
	struct fault_plan plan;

	t_make_file(t_path(path, sizeof(path), "card"), T_SIZE, 5);
	t_path(journal, sizeof(journal), "card.journal");
	snprintf(tmp, sizeof(tmp), "%s.tmp", journal);
	fault_plan_init(&plan);
	plan.eio_byte = 2 * MiB;
	dev = t_wrap(t_open(path), &plan);
	ck_assert_int_eq(preserve_save(&p, dev, t_ranges, T_NRANGES, journal,
				       why, sizeof(why)), -EIO);
	ck_assert_ptr_null(p);
	ck_assert_msg(strstr(why, "saving bytes"), "why: %s", why);
	ck_assert(!t_exists(journal));
	ck_assert(!t_exists(tmp));
	/* a journal that cannot be created */
	fault_plan_init(&plan);
	ck_assert_int_eq(fault_set_plan(dev, &plan), 0);
	t_path(journal, sizeof(journal), "no/such/dir.journal");
	ck_assert_int_eq(preserve_save(&p, dev, t_ranges, T_NRANGES, journal,
				       why, sizeof(why)), -ENOENT);
	ck_assert_ptr_null(p);
	ck_assert_msg(strstr(why, "cannot create"), "why: %s", why);
	dev_close(dev);
}
END_TEST

START_TEST(test_preserve_crash_then_journal)
{
	char path[256], journal[256], why[256] = "x";
	unsigned char *before;
	struct device *dev;
	struct preserve *p;

	t_make_file(t_path(path, sizeof(path), "card"), T_SIZE, 6);
	t_path(journal, sizeof(journal), "card.journal");
	dev = t_open(path);
	before = t_snapshot(dev);
	p = t_save(dev, journal);
	t_scribble(dev);
	/* the crash: the memory copy and the device handle are gone */
	preserve_free(p);
	dev_close(dev);
	ck_assert(t_exists(journal));

	dev = t_open(path);
	ck_assert(!t_same(dev, before));
	ck_assert_int_eq(preserve_restore_journal(journal, dev, why,
						  sizeof(why)), 0);
	ck_assert_str_eq(why, "");
	ck_assert(t_same(dev, before));
	ck_assert(!t_exists(journal));
	/* and a second --restore finds nothing to do */
	ck_assert_int_eq(preserve_restore_journal(journal, dev, why,
						  sizeof(why)), -ENOENT);
	ck_assert_msg(strstr(why, "cannot open journal"), "why: %s", why);
	dev_close(dev);
	free(before);
}
END_TEST

/*
 * Other devices.  A journal is made on card A (seed 10), A scribbled;
 * then restore is tried on B, which differs as the row says.  Changes
 * inside the saved ranges that the run did not write (the scribble goes
 * through the guard, the poke does not) are refused too: not as another
 * device, but as data written since.
 */
static const struct {
	uint64_t size_byte;	/* B's size */
	int other_seed;		/* B has other random content */
	uint64_t poke_byte;	/* B = A with this byte changed, or -1 */
	int want;		/* restore_journal result on B */
	int inside;		/* the change is inside a saved range */
} t_foreign[] = {
	{ T_SIZE + 1 * MiB, 0, UINT64_MAX, -ESTALE, 0 },	/* bigger */
	{ T_SIZE - 512, 0, UINT64_MAX, -ESTALE, 0 },	/* a block less */
	{ T_SIZE, 1, UINT64_MAX, -ESTALE, 0 },		/* other card */
	{ T_SIZE, 0, 512 * KiB, -ESTALE, 0 },		/* first MiB */
	{ T_SIZE, 0, T_SIZE - 600 * KiB, -ESTALE, 0 },	/* last MiB */
	{ T_SIZE, 0, T_SIZE / 31 * 17 + 100, -ESTALE, 0 },	/* a sample */
	{ T_SIZE, 0, UINT64_MAX, 0, 0 },	/* A as the run left it */
	/* inside a saved range, not by the run: A, written since */
	{ T_SIZE, 0, 4 * KiB, -ESTALE, 1 },
	{ T_SIZE, 0, 2 * MiB, -ESTALE, 1 },
};

START_TEST(test_preserve_foreign)
{
	char a[256], b[256], journal[256], why[256] = "";
	unsigned char *a_data, *a_file, *b_data, *b_before;
	struct device *dev;
	struct preserve *p;
	size_t len;
	int ret;

	t_make_file(t_path(a, sizeof(a), "a"), T_SIZE, 10);
	t_path(b, sizeof(b), "b");
	t_path(journal, sizeof(journal), "a.journal");
	dev = t_open(a);
	a_data = t_snapshot(dev);
	p = t_save(dev, journal);
	t_scribble(dev);
	preserve_free(p);
	dev_close(dev);

	/* B: a copy of A (scribbled too), then made different */
	a_file = t_read_file(a, &len);
	b_data = calloc(1, t_foreign[_i].size_byte);
	ck_assert_ptr_nonnull(b_data);
	memcpy(b_data, a_file, len < t_foreign[_i].size_byte ?
				       len : t_foreign[_i].size_byte);
	free(a_file);
	if (t_foreign[_i].size_byte > len)
		dev_fill(b_data + len, t_foreign[_i].size_byte - len,
			 DEV_PAT_RANDOM, 11);
	if (t_foreign[_i].other_seed)
		dev_fill(b_data, t_foreign[_i].size_byte, DEV_PAT_RANDOM, 12);
	if (t_foreign[_i].poke_byte != UINT64_MAX)
		b_data[t_foreign[_i].poke_byte] ^= 0x01;
	t_write_file(b, b_data, t_foreign[_i].size_byte);
	free(b_data);

	dev = t_open(b);
	b_before = t_snapshot(dev);
	ret = preserve_restore_journal(journal, dev, why, sizeof(why));
	ck_assert_msg(ret == t_foreign[_i].want, "got %d (%s)", ret, why);
	if (ret) {
		ck_assert_msg(strstr(why, t_foreign[_i].want == -ESTALE &&
					       t_foreign[_i].inside ?
					       "no longer hold" :
					       "belongs to another device"),
			      "why: %s", why);
		ck_assert(t_same(dev, b_before));	/* nothing written */
		ck_assert(t_exists(journal));
	} else {
		/* B was A all along: the saved ranges are back */
		size_t i;

		b_data = t_snapshot(dev);
		for (i = 0; i < T_NRANGES; i++)
			ck_assert(!memcmp(b_data + t_ranges[i].start_byte,
					  a_data + t_ranges[i].start_byte,
					  t_ranges[i].end_byte -
						  t_ranges[i].start_byte));
		free(b_data);
		ck_assert(!t_exists(journal));
	}
	free(b_before);
	free(a_data);
	dev_close(dev);
}
END_TEST

/*
 * Damage done to a good journal of len bytes, the last tail of them its
 * state; returns the new length.
 */
static size_t t_damage(unsigned char *j, size_t len, size_t tail, int how)
{
	switch (how) {
	case 0:
		return 0;			/* empty */
	case 1:
		return 100;			/* half a header */
	case 2:
		return len / 2;			/* cut in the data */
	case 3:
		return len - 1;			/* trailer cut short */
	case 4:
		return len - 24;		/* no trailer */
	case 5:
		j[len] = 0;			/* a byte too many */
		return len + 1;
	case 6:
		j[0] = 'X';			/* not a journal */
		return len;
	case 7:
		j[17] ^= 0x40;			/* header: device size */
		return len;
	case 8:
		j[192] ^= 0x02;			/* record: offset */
		return len;
	case 9:
		j[192 + 24 + 4000] ^= 0x80;	/* data */
		return len;
	case 10:
		j[len - tail - 10] ^= 0x01;	/* trailer hash */
		return len;
	case 11:
		j[8] = PRESERVE_VERSION + 1;	/* unknown version */
		return len;
	case 12:
		j[len - tail + 3] ^= 0x01;	/* state magic */
		return len;
	default:
		j[len - tail - 100] ^= 0x10;	/* last range's data */
		return len;
	}
}
#define T_NDAMAGE 14

START_TEST(test_preserve_damaged_journal)
{
	char path[256], journal[256], bad[256], why[256] = "";
	unsigned char *scribbled, *good, *j;
	struct device *dev, *inner;
	struct fault_stats st;
	struct preserve *p;
	size_t len, blen;
	int ret;

	t_make_file(t_path(path, sizeof(path), "card"), T_SIZE, 20);
	t_path(journal, sizeof(journal), "card.journal");
	t_path(bad, sizeof(bad), "bad.journal");
	inner = t_open(path);
	p = t_save(inner, journal);
	t_scribble(inner);
	scribbled = t_snapshot(inner);

	good = t_read_file(journal, &len);
	j = calloc(1, len + 1);	/* room for a byte too many */
	ck_assert_ptr_nonnull(j);
	memcpy(j, good, len);
	free(good);
	blen = t_damage(j, len, T_STATE_BYTE(preserve_bytes(p)), _i);
	t_write_file(bad, j, blen);
	free(j);
	preserve_free(p);

	dev = t_wrap(inner, NULL);	/* counts the writes */
	ret = preserve_restore_journal(bad, dev, why, sizeof(why));
	ck_assert_msg(ret == -EINVAL, "damage %d: got %d (%s)", _i, ret, why);
	ck_assert_msg(why[0], "no reason given");
	ck_assert_msg(strstr(why, bad), "why does not name the file: %s", why);
	ck_assert_int_eq(fault_get_stats(dev, &st), 0);
	ck_assert_uint_eq(st.writes, 0);
	ck_assert(t_same(dev, scribbled));
	ck_assert(t_exists(bad));
	/* the good journal still does its job */
	ck_assert_int_eq(preserve_restore_journal(journal, dev, why,
						  sizeof(why)), 0);
	ck_assert(!t_same(dev, scribbled));
	ck_assert(!t_exists(journal));
	free(scribbled);
	dev_close(dev);
}
END_TEST

/* Faults during a restore: each must fail it and keep the journal. */
static const struct {
	const char *what;
	int want;		/* preserve_restore() result */
} t_restore_fault[] = {
	{ "EIO on a write in the middle range", -EIO },
	{ "short write", -EIO },
	{ "device full", -ENOSPC },
	{ "device gone", -ENODEV },
	{ "writes lost (counterfeit card)", -EIO },
	{ "read-back fails", -EIO },
};

/* Arm fault _i of t_restore_fault on f. */
static void t_arm_restore_fault(struct device *f, int i)
{
	struct fault_plan plan;
	struct fault_stats st;

	fault_plan_init(&plan);
	ck_assert_int_eq(fault_get_stats(f, &st), 0);
	switch (i) {
	case 0:
		plan.eio_byte = 2 * MiB + 512;
		plan.eio_kinds = FAULT_WRITE;
		break;
	case 1:
		plan.short_op = st.reads + st.writes + st.discards + 2;
		plan.short_byte = 4096;
		break;
	case 2:
		plan.enospc_byte = 3 * MiB;
		break;
	case 3:
		plan.enodev_op = st.reads + st.writes + st.discards + 3;
		break;
	case 4:
		plan.lost_byte = T_SIZE - 2 * KiB;
		break;
	default:
		plan.eio_byte = T_SIZE - 512;
		plan.eio_kinds = FAULT_READ;
		break;
	}
	ck_assert_int_eq(fault_set_plan(f, &plan), 0);
}

START_TEST(test_preserve_restore_fails)
{
	char path[256], journal[256], why[256] = "";
	unsigned char *before;
	struct device *f, *g, *dev;
	struct preserve *p;
	int ret;

	t_make_file(t_path(path, sizeof(path), "card"), T_SIZE, 30);
	t_path(journal, sizeof(journal), "card.journal");
	f = t_wrap(t_open_raw(path), NULL);
	g = t_guard(f);
	before = t_snapshot(g);
	p = t_save(g, journal);
	t_scribble(g);
	t_arm_restore_fault(f, _i);
	ret = preserve_restore(p, why, sizeof(why));
	ck_assert_msg(ret == t_restore_fault[_i].want, "%s: got %d (%s)",
		      t_restore_fault[_i].what, ret, why);
	ck_assert_msg(why[0], "no reason given");
	ck_assert_msg(strstr(why, path), "why does not name %s: %s", path,
		      why);
	ck_assert(t_exists(journal));
	preserve_free(p);
	dev_close(g);

	/* --restore later, on a healthy handle, finishes the job: what
	 * the restore cut short wrote counts as written by the run */
	dev = t_open(path);
	ck_assert_int_eq(preserve_restore_journal(journal, dev, why,
						  sizeof(why)), 0);
	ck_assert(t_same(dev, before));
	ck_assert(!t_exists(journal));
	dev_close(dev);
	free(before);
}
END_TEST

START_TEST(test_preserve_restore_journal_eio)
{
	char path[256], journal[256], why[256] = "";
	unsigned char *before;
	struct device *dev;
	struct fault_plan plan;
	struct preserve *p;

	t_make_file(t_path(path, sizeof(path), "card"), T_SIZE, 31);
	t_path(journal, sizeof(journal), "card.journal");
	dev = t_open(path);
	before = t_snapshot(dev);
	p = t_save(dev, journal);
	t_scribble(dev);
	preserve_free(p);

	fault_plan_init(&plan);
	plan.eio_byte = 2 * MiB;
	plan.eio_kinds = FAULT_WRITE;
	dev = t_wrap(dev, &plan);
	ck_assert_int_eq(preserve_restore_journal(journal, dev, why,
						  sizeof(why)), -EIO);
	ck_assert_msg(strstr(why, "restoring bytes"), "why: %s", why);
	ck_assert(t_exists(journal));
	/* what could be written was: the other ranges are back */
	{
		unsigned char *now = t_snapshot(dev);
		size_t i;

		for (i = 0; i < T_NRANGES; i += 2)
			ck_assert(!memcmp(now + t_ranges[i].start_byte,
					  before + t_ranges[i].start_byte,
					  t_ranges[i].end_byte -
						  t_ranges[i].start_byte));
		ck_assert(memcmp(now, before, T_SIZE));
		free(now);
	}
	/* the bad sector gets remapped; a second --restore succeeds */
	fault_plan_init(&plan);
	ck_assert_int_eq(fault_set_plan(dev, &plan), 0);
	ck_assert_int_eq(preserve_restore_journal(journal, dev, why,
						  sizeof(why)), 0);
	ck_assert(t_same(dev, before));
	ck_assert(!t_exists(journal));
	dev_close(dev);
	free(before);
}
END_TEST

START_TEST(test_preserve_journal_name)
{
	static const struct {
		const char *dev;
		const char *want;
	} t[] = {
		{ "/dev/mmcblk0", "./flashbench-mmcblk0.journal" },
		{ "/dev/disk/by-id/usb-SD:0", "./flashbench-usb-SD_0.journal" },
		{ "simulated card", "./flashbench-simulated_card.journal" },
		{ "sdb", "./flashbench-sdb.journal" },
		{ "/dev/", "./flashbench-device.journal" },
	};
	char buf[64];
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		ck_assert_int_eq(preserve_journal_name(buf, sizeof(buf),
						       t[i].dev), 0);
		ck_assert_str_eq(buf, t[i].want);
	}
	ck_assert_int_eq(preserve_journal_name(buf, 20, "/dev/mmcblk0"),
			 -ENAMETOOLONG);
}
END_TEST

/*
 * Signals during a restore.  A device that raises SIGINT from inside
 * its first write, as a user pressing ^C at the worst moment: the
 * handler must not run until the restore is complete.
 */
static volatile sig_atomic_t t_sigint_seen;
static int t_sigint_early = -1;		/* seen inside the write? */

static void t_on_sigint(int sig)
{
	(void)sig;
	t_sigint_seen++;
}

/* A device passing everything to inner, with a ^C in its first write. */
struct t_sigdev {
	struct device dev;
	struct device *inner;
};

static int t_sig_read(struct device *dev, void *buf, size_t len, off_t off)
{
	struct device *in = ((struct t_sigdev *)dev)->inner;

	return in->ops->read(in, buf, len, off);
}

static int t_sig_write(struct device *dev, const void *buf, size_t len,
		       off_t off)
{
	struct device *in = ((struct t_sigdev *)dev)->inner;

	if (t_sigint_early < 0) {
		raise(SIGINT);
		/* raise() returns: the test has a SIGINT handler installed */
		/* cppcheck-suppress unreachableCode */
		t_sigint_early = t_sigint_seen;
	}
	return in->ops->write(in, buf, len, off);
}

static int t_sig_discard(struct device *dev, off_t off, uint64_t len)
{
	struct device *in = ((struct t_sigdev *)dev)->inner;

	return in->ops->discard(in, off, len);
}

static uint64_t t_sig_now(struct device *dev)
{
	struct device *in = ((struct t_sigdev *)dev)->inner;

	return in->ops->now_ns(in);
}

static void t_sig_destroy(struct device *dev)
{
	dev_close(((struct t_sigdev *)dev)->inner);
	free(dev);
}

static const struct dev_ops t_sig_ops = {
	.read = t_sig_read,
	.write = t_sig_write,
	.discard = t_sig_discard,
	.now_ns = t_sig_now,
	.destroy = t_sig_destroy,
};

START_TEST(test_preserve_restore_holds_signals)
{
	char path[256], journal[256], why[256] = "";
	struct t_sigdev *sd = calloc(1, sizeof(*sd));
	struct sigaction sa, old;
	unsigned char *before;
	struct preserve *p;

	ck_assert_ptr_nonnull(sd);
	t_make_file(t_path(path, sizeof(path), "card"), T_SIZE, 60);
	t_path(journal, sizeof(journal), "card.journal");
	sd->inner = t_open(path);
	sd->dev = *sd->inner;
	sd->dev.ops = &t_sig_ops;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = t_on_sigint;
	sigemptyset(&sa.sa_mask);
	ck_assert_int_eq(sigaction(SIGINT, &sa, &old), 0);

	before = t_snapshot(&sd->dev);
	p = t_save(&sd->dev, journal);
	t_scribble(sd->inner);
	ck_assert_int_eq(preserve_restore(p, why, sizeof(why)), 0);
	ck_assert_int_eq(t_sigint_early, 0);	/* held off ... */
	ck_assert_int_eq(t_sigint_seen, 1);	/* ... then delivered */
	ck_assert(t_same(&sd->dev, before));
	ck_assert(!t_exists(journal));
	sigaction(SIGINT, &old, NULL);
	preserve_free(p);
	dev_close(&sd->dev);
	free(before);
}
END_TEST

/* Options for small writing tests: 64 KiB AUs, 16 KiB blocks. */
static void t_small_opts(struct bench_opts *o)
{
	bench_opts_default(o);
	o->erasesize_byte = 64 * KiB;
	o->blocksize_byte = 16 * KiB;
	o->open_au_nr = 3;
	o->fat_nr = 4;
	o->log = NULL;
}

START_TEST(test_preserve_ranges)
{
	struct bench_range *r = (struct bench_range *)1;
	struct bench_opts o;
	size_t n = 99;

	t_small_opts(&o);
	/* -f: the first 4 AUs; -O: 3 AUs 12 AUs apart from 16 MiB; -p:
	 * 4 MiB at 16 MiB, which swallows -O's */
	ck_assert_int_eq(preserve_ranges(BENCH_FIND_FAT | BENCH_OPEN_AU |
						 BENCH_PROGRAM | BENCH_ALIGN,
					 &o, 24 * MiB, &r, &n), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_uint_eq(r[0].start_byte, 0);
	ck_assert_uint_eq(r[0].end_byte, 256 * KiB);
	ck_assert_uint_eq(r[1].start_byte, 16 * MiB);
	ck_assert_uint_eq(r[1].end_byte, 20 * MiB);
	free(r);

	ck_assert_int_eq(preserve_ranges(BENCH_OPEN_AU | BENCH_FIND_FAT, &o,
					 24 * MiB, &r, &n), 0);
	ck_assert_uint_eq(n, 4);
	ck_assert_uint_eq(r[0].end_byte, 256 * KiB);
	ck_assert_uint_eq(r[1].start_byte, 16 * MiB);
	ck_assert_uint_eq(r[2].start_byte, 16 * MiB + 768 * KiB);
	ck_assert_uint_eq(r[3].start_byte, 16 * MiB + 1536 * KiB);
	ck_assert_uint_eq(r[3].end_byte, 16 * MiB + 1600 * KiB);
	free(r);

	ck_assert_int_eq(preserve_ranges(BENCH_ALIGN | BENCH_SCATTER, &o,
					 24 * MiB, &r, &n), 0);
	ck_assert_ptr_null(r);
	ck_assert_uint_eq(n, 0);
	/* -p needs 20 MiB */
	ck_assert_int_eq(preserve_ranges(BENCH_PROGRAM, &o, 18 * MiB, &r, &n),
			 -EINVAL);
	ck_assert_ptr_null(r);
}
END_TEST

/*
 * The whole flow on a file: save the union of what -f, -O and -p
 * announce, run them (they write for real), restore: every byte is back,
 * and nothing the tests changed lay outside what was saved.
 */
START_TEST(test_preserve_writing_tests)
{
	char path[256], journal[256], why[256] = "";
	unsigned char *before, *after;
	struct bench_range *r;
	struct bench_opts o;
	struct preserve *p = NULL;
	struct device *dev;
	uint64_t i, changed = 0, outside = UINT64_MAX;
	size_t n, k;
	FILE *out;

	t_small_opts(&o);
	o.count = 1;
	t_make_file(t_path(path, sizeof(path), "card"), 24 * MiB, 50);
	t_path(journal, sizeof(journal), "card.journal");
	dev = t_open(path);
	before = t_snapshot(dev);
	/* the tests run below: --class needs more than this file */
	ck_assert_int_eq(preserve_ranges(BENCH_WRITING & ~BENCH_CLASS, &o,
					 dev->size_byte, &r, &n), 0);
	ck_assert_int_eq(preserve_save(&p, dev, r, n, journal, why,
				       sizeof(why)), 0);
	out = fopen("/dev/null", "we");
	ck_assert_ptr_nonnull(out);
	ck_assert_int_eq(bench_find_fat(dev, &o, out), 0);
	ck_assert_int_eq(bench_open_au(dev, &o, out), 0);
	ck_assert_int_eq(bench_program(dev, &o, out), 0);
	fclose(out);
	after = t_snapshot(dev);
	/* (one assertion at the end: each one is a message to the parent) */
	for (i = 0; i < dev->size_byte && outside == UINT64_MAX; i++) {
		if (before[i] == after[i])
			continue;
		changed++;
		for (k = 0; k < n; k++)
			if (i >= r[k].start_byte && i < r[k].end_byte)
				break;
		if (k == n)
			outside = i;
	}
	ck_assert_msg(outside == UINT64_MAX,
		      "byte %llu changed outside the ranges",
		      (unsigned long long)outside);
	ck_assert_uint_gt(changed, 4 * MiB);
	ck_assert_int_eq(preserve_restore(p, why, sizeof(why)), 0);
	ck_assert(t_same(dev, before));
	ck_assert(!t_exists(journal));
	preserve_free(p);
	free(r);
	free(after);
	free(before);
	dev_close(dev);
}
END_TEST

/* ---- preserve on the simulated card ---- */

/*
 * A writing test's view of the card: the time of every operation of
 * the workload.  With noise=0 the card's state alone decides the times,
 * so a backup taken before and written back after must leave them as
 * they are without one.
 */
static void t_sim_times(struct device *dev, uint64_t *t)
{
	unsigned char *buf = dev_alloc_buf(4 * MiB);
	size_t i;

	ck_assert_ptr_nonnull(buf);
	dev_fill(buf, 4 * MiB, DEV_PAT_ZERO, 0);
	for (i = 0; i < T_NWORK; i++)
		ck_assert_int_eq(t_do(dev, &t_workload[i], buf, &t[i]), 0);
	dev_free_buf(buf);
}

START_TEST(test_preserve_sim_times)
{
	static const struct bench_range r[] = {
		{ 16 * MiB, 16 * MiB + 80 * KiB },
		{ 48 * MiB, 48 * MiB + 512 },
		{ 64 * MiB, 68 * MiB },
		{ 80 * MiB, 80 * MiB + 4 * KiB },
	};
	const char *spec = "size=1G,noise=0,open=2";
	/* b behind the guard: its noting of writes takes no card time */
	struct device *a = sim_card(spec), *b = t_guard(sim_card(spec));
	uint64_t ta[T_NWORK], tb[T_NWORK];
	char journal[256], why[256] = "";
	struct preserve *p = NULL;
	size_t i;

	t_path(journal, sizeof(journal), "sim.journal");
	t_sim_times(a, ta);
	ck_assert_int_eq(preserve_save(&p, b, r, 4, journal, why, sizeof(why)),
			 0);
	ck_assert(t_exists(journal));
	t_sim_times(b, tb);
	ck_assert_int_eq(preserve_restore(p, why, sizeof(why)), 0);
	ck_assert(!t_exists(journal));
	for (i = 0; i < T_NWORK; i++)
		ck_assert_msg(ta[i] == tb[i],
			      "op %zu: %llu ns, %llu with backup", i,
			      (unsigned long long)ta[i],
			      (unsigned long long)tb[i]);
	preserve_free(p);
	dev_close(a);
	dev_close(b);
}
END_TEST

/* ---- preserve on a loop device ---- */

/*
 * Attach file to a loop device with direct I/O and open it read-write
 * and exclusively; the loop device goes away when it is closed.  Returns
 * NULL (and says why) when this machine cannot, which fails the test
 * under CI=true.
 */
static struct device *t_loop_open_plan(const char *file, char *name,
				       size_t name_len,
				       const struct fault_plan *plan)
{
	char *attach[] = { (char *)t_losetup(), "--direct-io=on", "-f",
			   "--show", (char *)file, NULL };
	const char *ci = getenv("CI");
	struct cmd_result res = { 0 };
	struct device *dev = NULL;
	char why[512] = "need root and losetup";

	if (attach[0] && geteuid() == 0 && !run_cmd(attach, &res)) {
		if (res.status == 0 && !strncmp(res.out, "/dev/", 5)) {
			char *detach[] = { attach[0], "-d", name, NULL };
			char holder[256] = "";
			int ret;

			res.out[strcspn(res.out, "\n")] = '\0';
			snprintf(name, name_len, "%s", res.out);
			ret = dev_open(&dev, name, DEV_WRITE | DEV_EXCL,
				       holder, sizeof(holder));
			snprintf(why, sizeof(why), "open %s: %s %s", name,
				 strerror(-ret), holder);
			/* while it is open, -d only marks it to go at close */
			cmd_result_free(&res);
			if (!run_cmd(detach, &res))
				cmd_result_free(&res);
		} else {
			snprintf(why, sizeof(why), "losetup: %s", res.err);
			cmd_result_free(&res);
		}
	}
	if (dev)
		return t_guard(plan ? t_wrap(dev, plan) : dev);
	if (ci && !strcmp(ci, "true"))
		ck_abort_msg("CI=true but no loop device for %s: %s", file,
			     why);
	fprintf(stderr, "test_safe: skipped: no loop device: %s\n", why);
	return NULL;
}

/* A loop device over file behind the guard, or NULL (skipped). */
static struct device *t_loop_open(const char *file, char *name,
				  size_t name_len)
{
	return t_loop_open_plan(file, name, name_len, NULL);
}

/*
 * Batch b (0..3) of 8 requests of 4 KiB in the long saved range: writes
 * of pattern 0x10 + b, a read among them, and in batch 1 two writes of
 * the same block.
 */
static void t_batch(struct dev_req *q, unsigned char *bufs, unsigned int b)
{
	unsigned int i;

	for (i = 0; i < 8; i++) {
		q[i].write = i != 6;
		q[i].buf = bufs + i * 4 * KiB;
		q[i].len = 4 * KiB;
		q[i].off = (off_t)(1 * MiB + 512 +
				   ((b * 8 + i) * 97 % 700) * 4 * KiB);
		memset(q[i].buf, 0x10 + (int)b, 4 * KiB);
	}
	if (b == 1) {
		q[5].off = q[1].off;
		memset(q[5].buf, 0x20, 4 * KiB);
	}
}

/*
 * The guard records every write of a batch: batches of writes (one of
 * them writing a block twice) on a loop device under --preserve, the
 * fourth failing with EIO in its third request, then a crash.  The
 * journal restores the device bit-identically; a write the guard had
 * not noted would leave a block the journal does not know (-ESTALE).
 */
START_TEST(test_preserve_loop_batch)
{
	char file[256], name[64], journal[256], why[256] = "";
	unsigned char *before, *bufs = dev_alloc_buf(8 * 4 * KiB);
	struct fault_plan plan;
	struct dev_req q[8];
	struct device *dev;
	struct preserve *p;
	unsigned int b;

	ck_assert_ptr_nonnull(bufs);
	t_make_file(t_path(file, sizeof(file), "batch.img"), T_SIZE, 42);
	t_path(journal, sizeof(journal), "batch.journal");
	t_batch(q, bufs, 3);
	fault_plan_init(&plan);
	plan.eio_byte = (uint64_t)q[2].off + 512;
	plan.eio_kinds = FAULT_WRITE;
	dev = t_loop_open_plan(file, name, sizeof(name), &plan);
	if (!dev) {
		dev_free_buf(bufs);
		return;
	}
	before = t_snapshot(dev);
	p = t_save(dev, journal);
	for (b = 0; b < 3; b++) {
		t_batch(q, bufs, b);
		ck_assert_int_eq(dev_batch(dev, q, 8, NULL), 0);
	}
	ck_assert_uint_eq(bufs[6 * 4 * KiB], before[q[6].off]);
	t_batch(q, bufs, 3);
	ck_assert_int_eq(dev_batch(dev, q, 8, NULL), -EIO);
	ck_assert_int_eq(dev->last_error.off_byte, q[2].off);
	/* the crash: all but the journal is lost */
	preserve_free(p);
	dev_close(dev);
	dev = t_loop_open(file, name, sizeof(name));
	ck_assert_ptr_nonnull(dev);
	ck_assert(!t_same(dev, before));
	ck_assert_int_eq(preserve_restore_journal(journal, dev, why,
						  sizeof(why)), 0);
	ck_assert_str_eq(why, "");
	ck_assert(t_same(dev, before));
	ck_assert(!t_exists(journal));
	dev_close(dev);
	dev_free_buf(bufs);
	free(before);
}
END_TEST

START_TEST(test_preserve_loop)
{
	char file[256], name[64], journal[256], why[256] = "";
	unsigned char *before;
	struct device *dev;
	struct preserve *p;

	t_make_file(t_path(file, sizeof(file), "loop.img"), T_SIZE, 40);
	t_path(journal, sizeof(journal), "loop.journal");
	dev = t_loop_open(file, name, sizeof(name));
	if (!dev)
		return;
	ck_assert_uint_eq(dev->size_byte, T_SIZE);
	before = t_snapshot(dev);
	p = t_save(dev, journal);
	t_scribble(dev);
	ck_assert(!t_same(dev, before));
	ck_assert_int_eq(preserve_restore(p, why, sizeof(why)), 0);
	ck_assert(t_same(dev, before));
	ck_assert(!t_exists(journal));
	preserve_free(p);

	/* crash: save and scribble, then lose everything but the journal */
	p = t_save(dev, journal);
	t_scribble(dev);
	preserve_free(p);
	dev_close(dev);
	/* the card comes back, maybe under another name */
	dev = t_loop_open(file, name, sizeof(name));
	ck_assert_ptr_nonnull(dev);
	ck_assert(!t_same(dev, before));
	ck_assert_int_eq(preserve_restore_journal(journal, dev, why,
						  sizeof(why)), 0);
	ck_assert(t_same(dev, before));
	ck_assert(!t_exists(journal));
	dev_close(dev);
	free(before);
}
END_TEST

START_TEST(test_preserve_loop_foreign)
{
	char a[256], b[256], name[64], journal[256], why[256] = "";
	unsigned char *b_before;
	struct device *dev;
	struct preserve *p;

	t_make_file(t_path(a, sizeof(a), "a.img"), T_SIZE, 41);
	t_make_file(t_path(b, sizeof(b), "b.img"), T_SIZE, 42);
	t_path(journal, sizeof(journal), "a.journal");
	dev = t_loop_open(a, name, sizeof(name));
	if (!dev)
		return;
	p = t_save(dev, journal);
	t_scribble(dev);
	preserve_free(p);
	dev_close(dev);

	dev = t_loop_open(b, name, sizeof(name));
	ck_assert_ptr_nonnull(dev);
	b_before = t_snapshot(dev);
	ck_assert_int_eq(preserve_restore_journal(journal, dev, why,
						  sizeof(why)), -ESTALE);
	ck_assert_msg(strstr(why, "belongs to another device"), "why: %s",
		      why);
	ck_assert(t_same(dev, b_before));
	ck_assert(t_exists(journal));
	dev_close(dev);
	free(b_before);

	/* A is still restorable */
	dev = t_loop_open(a, name, sizeof(name));
	ck_assert_ptr_nonnull(dev);
	ck_assert_int_eq(preserve_restore_journal(journal, dev, why,
						  sizeof(why)), 0);
	dev_close(dev);
}
END_TEST

/*
 * The card was written after the run was cut off (a new file system):
 * --restore refuses, one line naming the bytes and --force, without a
 * write, and keeps the journal; forced, it restores.
 */
START_TEST(test_restore_after_rewrite)
{
	char path[256], journal[256], why[512] = "";
	unsigned char *before, *rewritten, *buf;
	struct device *dev;
	struct preserve *p;

	t_make_file(t_path(path, sizeof(path), "card"), T_SIZE, 65);
	t_path(journal, sizeof(journal), "card.journal");
	dev = t_open(path);
	before = t_snapshot(dev);
	p = t_save(dev, journal);
	t_scribble(dev);		/* the run, through the guard */
	preserve_free(p);		/* cut off */
	dev_close(dev);

	/* mkfs: 4 KiB of something else inside the second range */
	dev = t_open_raw(path);
	buf = dev_alloc_buf(4 * KiB);
	ck_assert_ptr_nonnull(buf);
	dev_fill(buf, 4 * KiB, DEV_PAT_RANDOM, 66);
	ck_assert_int_eq(dev_write(dev, buf, 4 * KiB, 3 * MiB, NULL), 0);
	dev_free_buf(buf);
	rewritten = t_snapshot(dev);
	ck_assert_int_eq(preserve_restore_journal(journal, dev, why,
						  sizeof(why)), -ESTALE);
	ck_assert_msg(strstr(why, "bytes 3145728-3146240 of ") &&
		      strstr(why, "no longer hold") && strstr(why, "--force") &&
		      !strchr(why, '\n'), "why: %s", why);
	ck_assert(t_same(dev, rewritten));
	ck_assert(t_exists(journal));

	/* forced: everything saved goes back over it */
	ck_assert_int_eq(preserve_load_journal(&p, journal, dev, 1, why,
					       sizeof(why)), 0);
	ck_assert_int_eq(preserve_restore(p, why, sizeof(why)), 0);
	preserve_free(p);
	ck_assert(t_same(dev, before));
	ck_assert(!t_exists(journal));
	dev_close(dev);
	free(before);
	free(rewritten);
}
END_TEST

/*
 * A write cut short by the crash: its blocks hold the old data or the
 * new, either is what the run wrote; a restore cut short likewise.
 */
START_TEST(test_restore_after_short_write)
{
	char path[256], journal[256], why[512] = "";
	unsigned char *before, *buf;
	struct device *f, *g;
	struct fault_plan plan;
	struct fault_stats st;
	struct preserve *p;

	t_make_file(t_path(path, sizeof(path), "card"), T_SIZE, 67);
	t_path(journal, sizeof(journal), "card.journal");
	f = t_wrap(t_open_raw(path), NULL);
	g = t_guard(f);
	before = t_snapshot(g);
	p = t_save(g, journal);
	/* the next write moves 8 KiB of its 64 KiB, then the crash */
	ck_assert_int_eq(fault_get_stats(f, &st), 0);
	fault_plan_init(&plan);
	plan.short_op = st.reads + st.writes + st.discards + 1;
	plan.short_byte = 8 * KiB;
	ck_assert_int_eq(fault_set_plan(f, &plan), 0);
	buf = dev_alloc_buf(64 * KiB);
	ck_assert_ptr_nonnull(buf);
	dev_fill(buf, 64 * KiB, DEV_PAT_5A, 0);
	ck_assert_int_eq(dev_write(g, buf, 64 * KiB, 2 * MiB, NULL), -EIO);
	dev_free_buf(buf);
	preserve_free(p);
	dev_close(g);

	g = t_open(path);
	ck_assert(!t_same(g, before));
	ck_assert_int_eq(preserve_restore_journal(journal, g, why,
						  sizeof(why)), 0);
	ck_assert(t_same(g, before));
	dev_close(g);
	free(before);
}
END_TEST

/* --force only means something to --restore. */
START_TEST(test_force_needs_restore)
{
	struct fb_run r;

	fb_run("--force -a --simulate", &r);
	ck_assert_int_eq(r.status, 2);
	ck_assert_ptr_nonnull(strstr(r.err, "--force goes with --restore"));
	ck_assert_uint_eq(r.opens, 0);
	fb_free(&r);
}
END_TEST

/*
 * --restore after a crash at every step of making the journal: it is
 * written to JOURNAL.tmp, fsync'd, then given its name, then the .tmp
 * removed, and only then does the test write.  A crash before the name
 * (no JOURNAL, a .tmp cut anywhere, even whole) left the device as it
 * was: nothing to restore, the stale .tmp removed, exit 0.  A crash
 * between the name and the removal restores from JOURNAL and removes
 * the .tmp too.
 */
START_TEST(test_restore_unfinished_journal)
{
	char path[256], journal[256], tmp[300], args[700];
	unsigned char *j, *before;
	struct device *dev;
	struct preserve *p;
	struct fb_run r;
	size_t len, k, cuts[12];

	t_make_file(t_path(path, sizeof(path), "card"), T_SIZE, 3);
	t_path(journal, sizeof(journal), "card.journal");
	snprintf(tmp, sizeof(tmp), "%s.tmp", journal);
	dev = t_open(path);
	before = t_snapshot(dev);
	p = t_save(dev, journal);
	j = t_read_file(journal, &len);
	preserve_free(p);
	dev_close(dev);
	ck_assert_int_eq(unlink(journal), 0);
	/* cut after 0, 1 byte, the magic, the header, a record, half ... */
	cuts[0] = 0;
	cuts[1] = 1;
	cuts[2] = 8;
	cuts[3] = 191;
	cuts[4] = 192;
	cuts[5] = 192 + 24;
	cuts[6] = len / 2;
	cuts[7] = len - 25;
	cuts[8] = len - 1;
	cuts[9] = len;		/* whole, fsync'd, not yet named */
	snprintf(args, sizeof(args), "--restore=%s %s", journal, path);
	for (k = 0; k < 10; k++) {
		t_write_file(tmp, j, cuts[k]);
		fb_run(args, &r);
		ck_assert_msg(r.status == 0, "cut at %zu: status %d: %s",
			      cuts[k], r.status, r.err);
		ck_assert_ptr_nonnull(strstr(r.out, "nothing to restore"));
		ck_assert_str_eq(r.err, "");
		ck_assert_uint_eq(r.io_calls, 0);
		ck_assert_msg(!t_exists(tmp), "cut at %zu: .tmp left", cuts[k]);
		fb_free(&r);
	}
	/* named, .tmp not yet removed, the test wrote: a real restore */
	dev = t_open(path);
	p = t_save(dev, journal);
	t_scribble(dev);
	preserve_free(p);
	dev_close(dev);
	t_write_file(tmp, j, len);
	fb_run(args, &r);
	ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
	ck_assert_ptr_nonnull(strstr(r.out, "restored"));
	ck_assert(!t_exists(journal));
	ck_assert(!t_exists(tmp));
	fb_free(&r);
	dev = t_open_raw(path);
	ck_assert(t_same(dev, before));
	dev_close(dev);
	/* no journal and no .tmp: still an error */
	fb_run(args, &r);
	ck_assert_int_eq(r.status, 1);
	fb_free(&r);
	free(j);
	free(before);
}
END_TEST

/* ---- output files of the command line ---- */

/* Run flashbench in-process; fmt's %1$s is the test directory. */
static void t_fb(struct fb_run *r, const char *fmt)
{
	char args[1024];

	snprintf(args, sizeof(args), fmt, t_dir);
	fb_run(args, r);
}

/* Does the file at path hold exactly text? */
static int t_holds(const char *path, const char *text)
{
	unsigned char *buf;
	size_t len;
	int same;

	if (!t_exists(path))
		return 0;
	buf = t_read_file(path, &len);
	same = len == strlen(text) && !memcmp(buf, text, len);
	free(buf);
	return same;
}

/*
 * Command lines refused after -o was given: keep.txt (there before) must
 * stay as it was and new.txt must not appear, whatever is refused and
 * however late; a refusal reads and writes nothing.
 */
static const struct {
	const char *args;
	int status;
} t_refused[] = {
	/* the journal exists */
	{ "-O -e 64K -b 16K --offset=1M -o %1$s/keep.txt --preserve "
	  "--journal=%1$s/existing.txt %1$s/card", 2 },
	/* the plot cannot be made */
	{ "-s --scatter-order=4 -o %1$s/keep.txt --plot=%1$s/no/x.svg "
	  "%1$s/card", 2 },
	{ "-s --scatter-order=4 -o %1$s/new.txt --plot=%1$s/no/x.svg "
	  "%1$s/card", 2 },
	/* not a journal */
	{ "--restore=%1$s/existing.txt -o %1$s/keep.txt %1$s/card", 1 },
	{ "--restore=%1$s/existing.txt -o %1$s/new.txt %1$s/card", 1 },
	/* past the end */
	{ "-O -e 4M -o %1$s/keep.txt %1$s/card", 2 },
};

START_TEST(test_out_kept_on_refusal)
{
	char keep[256], newf[256], existing[256], card[256];
	struct fb_run r;

	t_make_file(t_path(card, sizeof(card), "card"), T_SIZE, 60);
	t_write_file(t_path(keep, sizeof(keep), "keep.txt"), "keep\n", 5);
	t_write_file(t_path(existing, sizeof(existing), "existing.txt"),
		     "mine\n", 5);
	t_path(newf, sizeof(newf), "new.txt");
	t_fb(&r, t_refused[_i].args);
	ck_assert_msg(r.status == t_refused[_i].status, "status %d: %s",
		      r.status, r.err);
	ck_assert_msg(t_holds(keep, "keep\n"), "keep.txt changed: %s", r.err);
	ck_assert_msg(!t_exists(newf), "new.txt made: %s", r.err);
	ck_assert(t_holds(existing, "mine\n"));
	ck_assert_uint_eq(r.io_calls, 0);
	ck_assert_ptr_null(strstr(r.err, "will overwrite"));
	ck_assert_uint_eq(count_str(r.err, "flashbench: "), 1);
	fb_free(&r);
}
END_TEST

/*
 * Two paths of one command line that name one file, one of them written
 * by flashbench: refused before anything is opened.  x.txt (there
 * before) and the card stay as they were, j and new are not made.
 */
static const char *const t_same_path[] = {
	"-s --scatter-order=4 -o %1$s/x.txt --plot=%1$s/x.txt %1$s/card",
	"-s --scatter-order=4 -o %1$s/new --plot=%1$s/./new %1$s/card",
	"-s --scatter-order=4 -o %1$s/x.txt --plot=%1$s/link %1$s/card",
	"-O -e 64K -b 16K --offset=1M -o %1$s/j --journal=%1$s/./j "
	"%1$s/card",
	"-O -e 64K -b 16K --offset=1M --plot=%1$s/link --journal=%1$s/x.txt "
	"%1$s/card",
	"-s --scatter-order=4 -o %1$s/card %1$s/card",
	"-s --scatter-order=4 --plot=%1$s/../%2$s/card %1$s/card",
	"--restore=%1$s/x.txt -o %1$s/link %1$s/card",
	"-O -e 64K -b 16K --offset=1M --journal=%1$s/card %1$s/card",
};

START_TEST(test_out_same_path)
{
	char x[256], link[256], card[256], args[1024];
	const char *dir = strrchr(t_dir, '/') + 1;
	unsigned char *before;
	struct device *dev;
	struct fb_run r;

	t_make_file(t_path(card, sizeof(card), "card"), T_SIZE, 61);
	t_write_file(t_path(x, sizeof(x), "x.txt"), "precious", 8);
	ck_assert_int_eq(symlink("x.txt", t_path(link, sizeof(link), "link")),
			 0);
	dev = t_open(card);
	before = t_snapshot(dev);
	dev_close(dev);
	snprintf(args, sizeof(args), t_same_path[_i], t_dir, dir);
	fb_run(args, &r);
	ck_assert_msg(r.status == 2, "status %d: %s", r.status, r.err);
	ck_assert_msg(strstr(r.err, "name the same file"), "%s", r.err);
	ck_assert_uint_eq(r.io_calls, 0);
	ck_assert(t_holds(x, "precious"));
	ck_assert(!t_exists(t_path(link, sizeof(link), "new")));
	ck_assert(!t_exists(t_path(link, sizeof(link), "j")));
	dev = t_open(card);
	ck_assert(t_same(dev, before));
	dev_close(dev);
	fb_free(&r);
	free(before);
}
END_TEST

/* Outputs on paths of their own still work, and replace what was there. */
START_TEST(test_out_distinct_paths)
{
	char x[256], card[256], svg[256];
	struct fb_run r;

	t_make_file(t_path(card, sizeof(card), "card"), T_SIZE, 62);
	t_write_file(t_path(x, sizeof(x), "x.txt"), "precious and long", 17);
	t_write_file(t_path(svg, sizeof(svg), "x.svg"), "old", 3);
	t_fb(&r, "-s --scatter-order=4 -o %1$s/x.txt --plot=%1$s/x.svg "
		 "%1$s/card");
	ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
	fb_free(&r);
	{
		size_t len;
		unsigned char *t = t_read_file(x, &len);
		char *text = strndup((char *)t, len);

		/* 16 lines "offset\ttime", nothing left of what was there */
		ck_assert_ptr_nonnull(text);
		ck_assert_uint_eq(count_str(text, "\n"), 16);
		ck_assert(!memcmp(t, "0.000000\t", 9));
		ck_assert_ptr_null(memchr(t, 'p', len));
		free(text);
		free(t);
		t = t_read_file(svg, &len);
		ck_assert(len > 100 && !memcmp(t, "<?xml", 5));
		free(t);
	}
}
END_TEST

/*
 * A --journal path that is taken: refused before any I/O and before any
 * "will overwrite" line, the file left alone, and --restore= proposed
 * only for what is a journal.
 */
static const struct {
	const char *journal;	/* %1$s: the test directory */
	const char *want;	/* in the message */
	int is_journal;		/* --restore=JOURNAL proposed */
} t_taken[] = {
	{ "%1$s/mine.txt", "is not a flashbench journal", 0 },
	{ "/dev/full", "is a character device", 0 },
	{ "%1$s", "is a directory", 0 },
	{ "%1$s/card", "name the same file", 0 },
	{ "%1$s/old.journal", "holds the data of an earlier run", 1 },
};

START_TEST(test_journal_taken)
{
	char card[256], mine[256], old[256], journal[256], args[1024];
	char want[300];
	unsigned char *before;
	struct device *dev;
	struct preserve *p;
	struct fb_run r;

	t_make_file(t_path(card, sizeof(card), "card"), T_SIZE, 63);
	t_write_file(t_path(mine, sizeof(mine), "mine.txt"), "mine\n", 5);
	/* a real journal, of another card */
	t_make_file(t_path(old, sizeof(old), "old.card"), T_SIZE, 64);
	dev = t_open(old);
	p = t_save(dev, t_path(old, sizeof(old), "old.journal"));
	preserve_free(p);
	dev_close(dev);
	dev = t_open(card);
	before = t_snapshot(dev);
	dev_close(dev);
	snprintf(journal, sizeof(journal), t_taken[_i].journal, t_dir);
	snprintf(args, sizeof(args),
		 "-O -e 64K -b 16K --offset=1M --journal=%s %s", journal, card);
	fb_run(args, &r);
	ck_assert_msg(r.status == 2, "status %d: %s", r.status, r.err);
	ck_assert_msg(strstr(r.err, t_taken[_i].want), "%s", r.err);
	ck_assert_uint_eq(count_str(r.err, "\n"), 1);
	ck_assert_uint_eq(r.io_calls, 0);
	snprintf(want, sizeof(want), "--restore=%s", journal);
	if (t_taken[_i].is_journal)
		ck_assert_msg(strstr(r.err, want), "%s", r.err);
	else
		ck_assert_msg(!strstr(r.err, "--restore"), "%s", r.err);
	ck_assert(t_holds(mine, "mine\n"));
	dev = t_open(card);
	ck_assert(t_same(dev, before));
	dev_close(dev);
	free(before);
	fb_free(&r);
}
END_TEST

Suite *safe_suite(void)
{
	Suite *s = suite_create("safe");
	TCase *tc;

	tc = tcase_create("fault");
	tcase_add_unchecked_fixture(tc, t_base_setup, t_base_teardown);
	tcase_add_checked_fixture(tc, t_dir_setup, NULL);
	tcase_add_test(tc, test_fault_passthrough);
	tcase_add_test(tc, test_fault_bad_plan);
	tcase_add_test(tc, test_fault_eio_op);
	tcase_add_loop_test(tc, test_fault_eio_byte, 0,
			    sizeof(t_eio_byte) / sizeof(t_eio_byte[0]));
	tcase_add_test(tc, test_fault_short);
	tcase_add_test(tc, test_fault_enospc);
	tcase_add_test(tc, test_fault_lost);
	tcase_add_test(tc, test_fault_enodev);
	tcase_add_test(tc, test_fault_stop);
	tcase_add_test(tc, test_fault_batch);
	tcase_add_test(tc, test_stack_batch);
	tcase_add_test(tc, test_stack_forwards);
	suite_add_tcase(s, tc);

	tc = tcase_create("preserve");
	tcase_add_unchecked_fixture(tc, t_base_setup, t_base_teardown);
	tcase_add_checked_fixture(tc, t_dir_setup, NULL);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_preserve_roundtrip);
	tcase_add_test(tc, test_restore_unfinished_journal);
	tcase_add_test(tc, test_preserve_journal_layout);
	tcase_add_test(tc, test_preserve_refuses_existing_journal);
	tcase_add_loop_test(tc, test_preserve_bad_ranges, 0,
			    sizeof(t_bad_ranges) / sizeof(t_bad_ranges[0]));
	tcase_add_test(tc, test_preserve_save_read_error);
	tcase_add_test(tc, test_preserve_crash_then_journal);
	tcase_add_loop_test(tc, test_preserve_foreign, 0,
			    sizeof(t_foreign) / sizeof(t_foreign[0]));
	tcase_add_loop_test(tc, test_preserve_damaged_journal, 0, T_NDAMAGE);
	tcase_add_loop_test(tc, test_preserve_restore_fails, 0,
			    sizeof(t_restore_fault) /
				    sizeof(t_restore_fault[0]));
	tcase_add_test(tc, test_preserve_restore_journal_eio);
	tcase_add_test(tc, test_preserve_journal_name);
	tcase_add_test(tc, test_preserve_restore_holds_signals);
	tcase_add_test(tc, test_preserve_sim_times);
	tcase_add_test(tc, test_preserve_ranges);
	tcase_add_test(tc, test_preserve_writing_tests);
	tcase_add_test(tc, test_restore_after_rewrite);
	tcase_add_test(tc, test_restore_after_short_write);
	tcase_add_test(tc, test_force_needs_restore);
	suite_add_tcase(s, tc);

	tc = tcase_create("preserve_loop");
	tcase_add_unchecked_fixture(tc, t_base_setup, t_base_teardown);
	tcase_add_checked_fixture(tc, t_dir_setup, NULL);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_preserve_loop);
	tcase_add_test(tc, test_preserve_loop_batch);
	tcase_add_test(tc, test_preserve_loop_foreign);
	suite_add_tcase(s, tc);

	tc = tcase_create("outputs");
	tcase_add_unchecked_fixture(tc, t_base_setup, t_base_teardown);
	tcase_add_checked_fixture(tc, t_dir_setup, NULL);
	tcase_add_loop_test(tc, test_out_kept_on_refusal, 0,
			    sizeof(t_refused) / sizeof(t_refused[0]));
	tcase_add_loop_test(tc, test_out_same_path, 0,
			    sizeof(t_same_path) / sizeof(t_same_path[0]));
	tcase_add_test(tc, test_out_distinct_paths);
	tcase_add_loop_test(tc, test_journal_taken, 0,
			    sizeof(t_taken) / sizeof(t_taken[0]));
	suite_add_tcase(s, tc);
	return s;
}
