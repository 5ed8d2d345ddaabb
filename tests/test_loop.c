// SPDX-License-Identifier: GPL-2.0-only
/*
 * Tests on real loop devices: the device layer, the refusal of mounted or
 * held devices, and the erase tool.  Each test builds its own loop device
 * over a file of known pseudo-random content, so reads can be checked
 * byte for byte and writes can be shown to stay inside their range.
 *
 * Loop devices need root.  When one cannot be set up the test is skipped
 * with a printed reason, unless CI is "true": then it fails.  Check runs
 * every test in a forked child and a failing child exits at once, so
 * everything a test creates (file, loop device, mount, swap) is written
 * to a ledger first and undone by the parent as well as by the child.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/blkpg.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/swap.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "blockdev.h"
#include "cli.h"
#include "dev.h"
#include "fault.h"
#include "flashbench.h"
#include "holders.h"
#include "preserve.h"
#include "quiet.h"
#include "recdev.h"
#include "util.h"

#define MiB ((uint64_t)1024 * 1024)

/* Size of the loop devices: big enough for a small ext4 and a partition. */
#define LOOP_SIZE (64 * MiB)

/* Options for loop_setup(). */
#define LOOP_PARTSCAN	0x1	/* losetup -P, one-partition MBR */
#define LOOP_RDONLY	0x2	/* losetup -r: a write-protected card */

/* One test's loop device. */
struct loop_fix {
	char img[PATH_MAX];	/* backing file */
	char dev[64];		/* /dev/loopN */
	char part[80];		/* /dev/loopNp1 (LOOP_PARTSCAN) or "" */
	char mnt[PATH_MAX];	/* mount point while mounted, else "" */
	uint64_t size_byte;	/* size of the device */
	uint64_t seed;		/* content seed, see word_at() */
};

/* The test runner's pid, taken in loop_suite() before Check forks. */
static pid_t runner_pid;

/* This test already counted as ran (a later skip takes it back). */
static int counted_ran;

/* ---- small helpers ---- */

/* The runner's scratch directory, created on first use. */
static const char *state_dir(void)
{
	static char dir[64];

	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "/tmp/flashbench-loop.%ld",
			 (long)(runner_pid ? runner_pid : getpid()));
		if (mkdir(dir, 0700) && errno != EEXIST)
			ck_abort_msg("mkdir %s: %s", dir, strerror(errno));
	}
	return dir;
}

/*
 * Where the images go: /dev/shm when it has room (a loop device over
 * memory makes the slow small-block tests several times faster), else
 * the state directory.
 */
static const char *image_dir(void)
{
	struct statvfs sv;

	if (!statvfs("/dev/shm", &sv) &&
	    (uint64_t)sv.f_bavail * sv.f_frsize >= 1024 * MiB)
		return "/dev/shm";
	return state_dir();
}

/* Append one line to a file in the state directory. */
static void state_append(const char *file, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void state_append(const char *file, const char *fmt, ...)
{
	char path[128];
	va_list ap;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", state_dir(), file);
	f = fopen(path, "a");
	ck_assert_msg(f != NULL, "open %s: %s", path, strerror(errno));
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
	fclose(f);
}

/* The full path of a system tool, or NULL when it is not installed. */
static const char *find_tool(const char *name)
{
	static const char *const dirs[] = { "/usr/sbin", "/sbin", "/usr/bin",
					    "/bin" };
	static char cache[16][64];
	size_t i, slot;

	for (slot = 0; slot < 16 && cache[slot][0]; slot++) {
		const char *base = strrchr(cache[slot], '/') + 1;

		if (!strcmp(base, name))
			return cache[slot];
	}
	if (slot == 16)
		slot = 0;
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(cache[slot], sizeof(cache[slot]), "%s/%s", dirs[i],
			 name);
		if (!access(cache[slot], X_OK))
			return cache[slot];
	}
	cache[slot][0] = '\0';
	return NULL;
}

/*
 * Run tool (looked up with find_tool) with the NULL-terminated arguments
 * that follow.  Returns the exit status, or -1 if the tool is missing or
 * would not start.  The output is kept in res when res is non-NULL.
 */
static int run_tool(struct cmd_result *res, const char *tool, ...)
{
	struct cmd_result local;
	char *argv[16];
	const char *path = find_tool(tool);
	va_list ap;
	int argc = 1;

	if (!res)
		res = &local;
	memset(res, 0, sizeof(*res));
	if (!path)
		return -1;
	argv[0] = (char *)path;
	va_start(ap, tool);
	while (argc < 15 && (argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	argv[argc] = NULL;
	if (run_cmd(argv, res))
		return -1;
	if (res == &local)
		cmd_result_free(res);
	return res->status;
}

/* Run the erase binary; returns its exit status (output in res). */
static int run_erase(struct cmd_result *res, const char *a, const char *b,
		     const char *c, const char *d)
{
	char *argv[6] = { (char *)erase_bin(), (char *)a, (char *)b,
			  (char *)c, (char *)d, NULL };

	ck_assert_int_eq(run_cmd(argv, res), 0);
	return res->status;
}

/* 64-bit mixing (splitmix64): the content of the n-th word. */
static uint64_t word_at(uint64_t seed, uint64_t n)
{
	uint64_t z = seed + (n + 1) * 0x9e3779b97f4a7c15ULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Fill buf with the planted content of bytes [off, off + len). */
static void planted(void *buf, uint64_t seed, uint64_t off, size_t len)
{
	uint64_t *w = buf;
	size_t i;

	/* off and len are multiples of 8 everywhere in this file */
	for (i = 0; i < len / 8; i++)
		w[i] = word_at(seed, off / 8 + i);
}

/*
 * Read [off, off + len) of path with O_DIRECT and hash it (FNV-1a), or
 * compare it with the planted content or with zeros, depending on mode.
 */
enum scan_mode { SCAN_HASH, SCAN_PLANTED, SCAN_ZERO };

static uint64_t scan(const char *path, uint64_t off, uint64_t len,
		     enum scan_mode mode, uint64_t seed)
{
	const size_t chunk = MiB;
	uint64_t h = 0xcbf29ce484222325ULL, bad = 0, done, i;
	unsigned char *buf = dev_alloc_buf(chunk), *want = malloc(chunk);
	int fd = open(path, O_RDONLY | O_DIRECT);
	size_t n;

	ck_assert_msg(fd >= 0, "open %s: %s", path, strerror(errno));
	ck_assert(buf && want);
	for (done = 0; done < len; done += n) {
		n = len - done < chunk ? len - done : chunk;
		ck_assert_msg(pread(fd, buf, n, off + done) == (ssize_t)n,
			      "read %s at %" PRIu64, path, off + done);
		if (mode == SCAN_PLANTED)
			planted(want, seed, off + done, n);
		for (i = 0; i < n; i++) {
			h = (h ^ buf[i]) * 0x100000001b3ULL;
			if (mode == SCAN_ZERO)
				bad += buf[i] != 0;
			else if (mode == SCAN_PLANTED)
				bad += buf[i] != want[i];
		}
	}
	close(fd);
	dev_free_buf(buf);
	free(want);
	return mode == SCAN_HASH ? h : bad;
}

/* The hash of a region of a device. */
static uint64_t region_hash(const char *path, uint64_t off, uint64_t len)
{
	return scan(path, off, len, SCAN_HASH, 0);
}

/* A number the kernel reports for a device via blockdev(8). */
static uint64_t blockdev_get(const char *opt, const char *dev)
{
	struct cmd_result res;
	uint64_t v;

	ck_assert_msg(run_tool(&res, "blockdev", opt, dev, (char *)NULL) == 0,
		      "blockdev %s %s failed", opt, dev);
	ck_assert_int_eq(sscanf(res.out, "%" SCNu64, &v), 1);
	cmd_result_free(&res);
	return v;
}

/* ---- the ledger: undo everything even after a failed child ---- */

/* Is dir a mount point right now? */
static int is_mounted(const char *dir)
{
	char *line = NULL, mp[PATH_MAX];
	size_t cap = 0;
	int found = 0;
	FILE *f = fopen("/proc/self/mountinfo", "re");

	if (!f)
		return 0;
	while (!found && getline(&line, &cap, f) > 0)
		found = sscanf(line, "%*s %*s %*s %*s %4095s", mp) == 1 &&
			!strcmp(mp, dir);
	free(line);
	fclose(f);
	return found;
}

/* Is loop device dev still backed by img (and not reused by others)? */
static int loop_backs(const char *dev, const char *img)
{
	char file[128], back[PATH_MAX] = "";
	FILE *f;

	snprintf(file, sizeof(file), "/sys/class/block/%s/loop/backing_file",
		 strrchr(dev, '/') + 1);
	f = fopen(file, "re");
	if (!f)
		return 0;
	if (!fgets(back, sizeof(back), f))
		back[0] = '\0';
	fclose(f);
	back[strcspn(back, "\n")] = '\0';
	return !strcmp(back, img);
}

/* Undo one ledger line: "mount DIR", "swap DEV", "loop DEV IMG", ... */
static void undo(char *line)
{
	char what[16], a[PATH_MAX], b[PATH_MAX];
	int n = sscanf(line, "%15s %4095s %4095s", what, a, b);

	if (n < 2)
		return;
	if (!strcmp(what, "mount") && is_mounted(a)) {
		if (umount2(a, 0))
			umount2(a, MNT_DETACH);
	} else if (!strcmp(what, "swap")) {
		swapoff(a);
	} else if (!strcmp(what, "loop") && n == 3 && loop_backs(a, b)) {
		run_tool(NULL, "losetup", "-d", a, (char *)NULL);
	} else if (!strcmp(what, "dir")) {
		rmdir(a);
	} else if (!strcmp(what, "file")) {
		unlink(a);
	}
}

/* Undo every ledger entry, newest first, and empty the ledger. */
static void ledger_sweep(void)
{
	char path[128], *lines[256], *line = NULL;
	size_t cap = 0, n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/ledger", state_dir());
	f = fopen(path, "re");
	if (!f)
		return;
	while (n < 256 && getline(&line, &cap, f) > 0) {
		line[strcspn(line, "\n")] = '\0';
		lines[n++] = line;
		line = NULL;
		cap = 0;
	}
	free(line);
	fclose(f);
	while (n--) {
		undo(lines[n]);
		free(lines[n]);
	}
	unlink(path);
}

/* ---- skipping, counting ---- */

/*
 * A loop test cannot run: under CI that is a failure, elsewhere a skip
 * that is said out loud and counted.
 */
static void loop_skip(const char *test, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void loop_skip(const char *test, const char *fmt, ...)
{
	const char *ci = getenv("CI");
	char why[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	why[strcspn(why, "\n")] = '\0';
	if (ci && !strcmp(ci, "true"))
		ck_abort_msg("loop test %s cannot run under CI: %s", test,
			     why);
	printf("loop test %s skipped: %s\n", test, why);
	fflush(stdout);
	if (counted_ran)
		state_append("tally", "unran %s", test);
	state_append("tally", "skip %s", test);
}

/* Count a loop test that ran (its device is up). */
static void loop_ran(const char *test)
{
	counted_ran = 1;
	state_append("tally", "ran %s", test);
}

/* ---- the fixture ---- */

/* Write the image: planted words, and an MBR with one partition. */
static void write_image(struct loop_fix *fx, unsigned int opts)
{
	uint64_t *buf = malloc(MiB), off, sector0[64];
	unsigned char *mbr = (unsigned char *)sector0;
	int fd;

	ck_assert(buf != NULL);
	fd = open(fx->img, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	ck_assert_msg(fd >= 0, "create %s: %s", fx->img, strerror(errno));
	state_append("ledger", "file %s", fx->img);
	for (off = 0; off < fx->size_byte; off += MiB) {
		planted(buf, fx->seed, off, MiB);
		ck_assert(pwrite(fd, buf, MiB, (off_t)off) == (ssize_t)MiB);
	}
	if (opts & LOOP_PARTSCAN) {
		/* partition 1: Linux (0x83) from sector 2048 to the end */
		uint64_t sectors = fx->size_byte / 512 - 2048;

		planted(sector0, fx->seed, 0, sizeof(sector0));
		memset(mbr + 446, 0, 64);
		mbr[446 + 4] = 0x83;
		mbr[446 + 1] = mbr[446 + 5] = 0xfe;
		mbr[446 + 2] = mbr[446 + 3] = mbr[446 + 6] =
			mbr[446 + 7] = 0xff;
		mbr[446 + 9] = 2048 >> 8;
		mbr[446 + 12] = sectors & 0xff;
		mbr[446 + 13] = (sectors >> 8) & 0xff;
		mbr[446 + 14] = (sectors >> 16) & 0xff;
		mbr[446 + 15] = (sectors >> 24) & 0xff;
		mbr[510] = 0x55;
		mbr[511] = 0xaa;
		ck_assert(pwrite(fd, mbr, 512, 0) == 512);
	}
	ck_assert(fsync(fd) == 0);
	close(fd);
	free(buf);
}

/* Wait up to 3 s for a device node to appear. */
static int wait_node(const char *path)
{
	struct timespec ts = { 0, 50 * 1000 * 1000 };
	int i;

	for (i = 0; i < 60; i++) {
		if (!access(path, F_OK))
			return 0;
		nanosleep(&ts, NULL);
	}
	return -1;
}

/*
 * Tell the kernel about partition 1 of the MBR written by write_image(),
 * as partx(8) would: kernels built without partition table parsers scan
 * nothing, but still take partitions given with BLKPG.  Returns 0 or
 * -errno.
 */
static int add_partition(struct loop_fix *fx)
{
	struct blkpg_partition part = {
		.start = 2048 * 512,
		.length = (long long)fx->size_byte - 2048 * 512,
		.pno = 1,
	};
	struct blkpg_ioctl_arg arg = {
		.op = BLKPG_ADD_PARTITION,
		.datalen = sizeof(part),
		.data = &part,
	};
	int fd = open(fx->dev, O_RDONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	if (ioctl(fd, BLKPG, &arg) && errno != EBUSY)
		ret = -errno;
	close(fd);
	return ret;
}

/*
 * Build a loop device over a fresh image (sector_size 0: the default).
 * Returns 1, or 0 after loop_skip() when loop devices are unavailable.
 */
static int loop_setup(struct loop_fix *fx, const char *test,
		      unsigned int opts, unsigned int sector_size)
{
	static unsigned int serial;
	struct cmd_result res;
	char ss[16];
	int status;

	memset(fx, 0, sizeof(*fx));
	counted_ran = 0;
	if (geteuid() != 0) {
		loop_skip(test, "loop devices need root");
		return 0;
	}
	if (!find_tool("losetup")) {
		loop_skip(test, "losetup is not installed");
		return 0;
	}
	fx->size_byte = LOOP_SIZE;
	fx->seed = (uint64_t)getpid() * 1000 + ++serial;
	snprintf(fx->img, sizeof(fx->img), "%s/flashbench-img.%ld.%u",
		 image_dir(), (long)getpid(), serial);
	write_image(fx, opts);
	snprintf(ss, sizeof(ss), "%u", sector_size ? sector_size : 512);
	status = run_tool(&res, "losetup", "--direct-io=on",
			  "--sector-size", ss, "-f", "--show",
			  opts & LOOP_RDONLY ? "-r" : "--direct-io=on",
			  opts & LOOP_PARTSCAN ? "-P" : fx->img,
			  opts & LOOP_PARTSCAN ? fx->img : NULL, (char *)NULL);
	if (status != 0) {
		loop_skip(test, "losetup failed (status %d): %s", status,
			  status < 0 ? "not started" : res.err);
		cmd_result_free(&res);
		unlink(fx->img);
		return 0;
	}
	sscanf(res.out, "%63s", fx->dev);
	cmd_result_free(&res);
	state_append("ledger", "loop %s %s", fx->dev, fx->img);
	if (opts & LOOP_PARTSCAN) {
		int ret;

		snprintf(fx->part, sizeof(fx->part), "%sp1", fx->dev);
		ret = access(fx->part, F_OK) ? add_partition(fx) : 0;
		if (ret || wait_node(fx->part)) {
			loop_skip(test, "partition %s did not appear: %s",
				  fx->part, ret ? strerror(-ret) : "no node");
			ledger_sweep();
			return 0;
		}
	}
	loop_ran(test);
	return 1;
}

/* mkfs.ext4 dev; returns 1, or 0 after loop_skip(). */
static int make_ext4(const char *test, const char *dev)
{
	struct cmd_result res;
	int status;

	if (!find_tool("mkfs.ext4")) {
		loop_skip(test, "mkfs.ext4 is not installed");
		return 0;
	}
	status = run_tool(&res, "mkfs.ext4", "-q", "-F", dev, (char *)NULL);
	ck_assert_msg(status == 0, "mkfs.ext4 %s: status %d: %s", dev, status,
		      res.err);
	cmd_result_free(&res);
	return 1;
}

/* Mount dev (ext4) on a fresh directory, remembered in fx->mnt. */
static void mount_ext4(struct loop_fix *fx, const char *dev)
{
	snprintf(fx->mnt, sizeof(fx->mnt), "%s/mnt.XXXXXX", state_dir());
	ck_assert_msg(mkdtemp(fx->mnt) != NULL, "mkdtemp: %s",
		      strerror(errno));
	state_append("ledger", "dir %s", fx->mnt);
	state_append("ledger", "mount %s", fx->mnt);
	ck_assert_msg(mount(dev, fx->mnt, "ext4", 0, NULL) == 0,
		      "mount %s on %s: %s", dev, fx->mnt, strerror(errno));
}

/* Unmount fx->mnt and check the file system on dev with fsck -n. */
static void unmount_and_fsck(struct loop_fix *fx, const char *dev)
{
	struct cmd_result res;
	int status;

	ck_assert_msg(umount2(fx->mnt, 0) == 0, "umount %s: %s", fx->mnt,
		      strerror(errno));
	status = run_tool(&res, "fsck", "-n", dev, (char *)NULL);
	ck_assert_msg(status == 0, "fsck -n %s: status %d\n%s%s", dev, status,
		      res.out, res.err);
	cmd_result_free(&res);
}

/* Checked and unchecked teardown alike: undo the ledger. */
static void loop_teardown(void)
{
	ledger_sweep();
}

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

/* ---- refusal of mounted and held devices ---- */

/* dev_open, dev_check_unused and erase all refuse target, naming why. */
static void check_refused(const char *target, const char *want)
{
	struct cmd_result res;
	struct device *dev = (struct device *)1;
	char holder[512], msg[600];

	ck_assert_int_eq(dev_open(&dev, target, DEV_WRITE | DEV_EXCL, holder,
				  sizeof(holder)), -EBUSY);
	ck_assert_ptr_null(dev);
	ck_assert_msg(strstr(holder, want), "holder '%s' lacks '%s'", holder,
		      want);
	ck_assert_int_eq(dev_check_unused(target, holder, sizeof(holder)),
			 -EBUSY);
	ck_assert_msg(strstr(holder, want), "holder '%s' lacks '%s'", holder,
		      want);

	ck_assert_int_eq(run_erase(&res, target, "0", "4096", NULL), 1);
	snprintf(msg, sizeof(msg), "erase: %s: %s\n", target, holder);
	ck_assert_str_eq(res.err, msg);
	ck_assert_str_eq(res.out, "");
	cmd_result_free(&res);
}

START_TEST(test_refuse_mounted)
{
	struct loop_fix fx;
	struct device *dev;
	char want[PATH_MAX + 128];

	if (!loop_setup(&fx, "refuse_mounted", 0, 0) ||
	    !make_ext4("refuse_mounted", fx.dev))
		return;
	mount_ext4(&fx, fx.dev);
	snprintf(want, sizeof(want), "%s is mounted on %s", fx.dev, fx.mnt);
	check_refused(fx.dev, want);
	/* reading a mounted card is allowed */
	ck_assert_int_eq(dev_open(&dev, fx.dev, 0, NULL, 0), 0);
	dev_close(dev);
	unmount_and_fsck(&fx, fx.dev);
	ck_assert_int_eq(dev_open(&dev, fx.dev, DEV_WRITE | DEV_EXCL, NULL,
				  0), 0);
	dev_close(dev);
}
END_TEST

/* A mounted partition protects the whole device. */
START_TEST(test_refuse_partition)
{
	struct loop_fix fx;
	struct device *dev;
	char want[PATH_MAX + 128];

	if (!loop_setup(&fx, "refuse_partition", LOOP_PARTSCAN, 0) ||
	    !make_ext4("refuse_partition", fx.part))
		return;
	mount_ext4(&fx, fx.part);
	snprintf(want, sizeof(want), "%s is mounted on %s", fx.part, fx.mnt);
	check_refused(fx.dev, want);
	check_refused(fx.part, want);
	unmount_and_fsck(&fx, fx.part);
	ck_assert_int_eq(dev_open(&dev, fx.dev, DEV_WRITE | DEV_EXCL, NULL,
				  0), 0);
	dev_close(dev);
}
END_TEST

/* A partition of a device mounted as a whole ("superfloppy") is not free. */
START_TEST(test_refuse_superfloppy)
{
	struct loop_fix fx;
	char want[PATH_MAX + 128];

	if (!loop_setup(&fx, "refuse_superfloppy", LOOP_PARTSCAN, 0) ||
	    !make_ext4("refuse_superfloppy", fx.dev))
		return;
	mount_ext4(&fx, fx.dev);
	snprintf(want, sizeof(want), "%s is mounted on %s", fx.dev, fx.mnt);
	check_refused(fx.part, want);
	check_refused(fx.dev, want);
	unmount_and_fsck(&fx, fx.dev);
}
END_TEST

/*
 * A device under another loop device is in use, though the kernel allows
 * an exclusive open of it.
 */
START_TEST(test_refuse_loop_backing)
{
	struct cmd_result res;
	struct loop_fix fx;
	char upper[64] = "", want[160];

	if (!loop_setup(&fx, "refuse_loop_backing", 0, 0))
		return;
	ck_assert_int_eq(run_tool(&res, "losetup", "-f", "--show", fx.dev,
				  (char *)NULL), 0);
	sscanf(res.out, "%63s", upper);
	cmd_result_free(&res);
	state_append("ledger", "loop %s %s", upper, fx.dev);
	snprintf(want, sizeof(want), "%s is the backing device of %s",
		 fx.dev, upper);
	check_refused(fx.dev, want);
	ck_assert_int_eq(run_tool(NULL, "losetup", "-d", upper, (char *)NULL),
			 0);
	ck_assert_int_eq(dev_check_unused(fx.dev, NULL, 0), 0);
}
END_TEST

/* An active swap area is in use too. */
START_TEST(test_refuse_swap)
{
	struct loop_fix fx;
	char want[128];

	if (!loop_setup(&fx, "refuse_swap", 0, 0))
		return;
	if (run_tool(NULL, "mkswap", fx.dev, (char *)NULL) != 0) {
		loop_skip("refuse_swap", "mkswap is missing or failed");
		return;
	}
	state_append("ledger", "swap %s", fx.dev);
	if (swapon(fx.dev, 0)) {
		loop_skip("refuse_swap", "swapon: %s", strerror(errno));
		return;
	}
	snprintf(want, sizeof(want), "%s is in use as swap", fx.dev);
	check_refused(fx.dev, want);
	ck_assert_int_eq(swapoff(fx.dev), 0);
	ck_assert_int_eq(dev_check_unused(fx.dev, NULL, 0), 0);
}
END_TEST

/* ---- erase ---- */

START_TEST(test_erase_range)
{
	/* 512-byte aligned but not 4K aligned at either end */
	const uint64_t start = 5 * MiB + 1536, len = 3 * MiB + 1024;
	const uint64_t end = start + len;
	char s_start[32], s_len[32], want[256];
	struct cmd_result res;
	struct loop_fix fx;
	uint64_t pre, post;

	if (!loop_setup(&fx, "erase_range", 0, 0))
		return;
	pre = region_hash(fx.dev, 0, start);
	post = region_hash(fx.dev, end, fx.size_byte - end);
	ck_assert_uint_gt(scan(fx.dev, start, len, SCAN_ZERO, 0), 0);

	snprintf(s_start, sizeof(s_start), "%" PRIu64, start);
	snprintf(s_len, sizeof(s_len), "%" PRIu64, len);
	ck_assert_int_eq(run_erase(&res, fx.dev, s_start, s_len, NULL), 0);
	snprintf(want, sizeof(want), "erasing %" PRIu64 " to %" PRIu64
		 " on %s\n", start, end, fx.dev);
	ck_assert_str_eq(res.out, want);
	/* erase speaks as erase (issue 9 item 14) */
	snprintf(want, sizeof(want), "erase: will overwrite bytes %"
		 PRIu64 "-%" PRIu64 " on %s\n", start, end, fx.dev);
	ck_assert_str_eq(res.err, want);
	cmd_result_free(&res);

	ck_assert_uint_eq(scan(fx.dev, start, len, SCAN_ZERO, 0), 0);
	ck_assert_uint_eq(region_hash(fx.dev, 0, start), pre);
	ck_assert_uint_eq(region_hash(fx.dev, end, fx.size_byte - end), post);
	ck_assert_uint_eq(scan(fx.dev, 0, start, SCAN_PLANTED, fx.seed), 0);

	/* suffixes: the last MiB, "63MiB 1M" */
	ck_assert_int_eq(run_erase(&res, fx.dev, "63MiB", "1M", NULL), 0);
	snprintf(want, sizeof(want), "erasing %" PRIu64 " to %" PRIu64
		 " on %s\n", 63 * MiB, 64 * MiB, fx.dev);
	ck_assert_str_eq(res.out, want);
	cmd_result_free(&res);
	ck_assert_uint_eq(scan(fx.dev, 63 * MiB, MiB, SCAN_ZERO, 0), 0);
	ck_assert_uint_eq(scan(fx.dev, end, 63 * MiB - end, SCAN_PLANTED,
			       fx.seed), 0);
}
END_TEST

/* Command lines erase refuses with status 2, before touching anything. */
static const struct erase_case {
	int argc;		/* arguments after the device */
	const char *start;
	const char *len;
	const char *extra;
	const char *err;	/* expected in stderr */
} erase_bad[] = {
	{ 0, NULL, NULL, NULL, "expected <device> <start> <length>, got 1 " },
	{ 1, "0", NULL, NULL, "expected <device> <start> <length>, got 2 " },
	{ 3, "0", "512", "512", "expected <device> <start> <length>, got 4 " },
	{ 2, "abc", "512", NULL, "start" },
	{ 2, "0", "-512", NULL, "length" },
	{ 2, "0", "0", NULL, "length" },
	{ 2, "0", "99999999999999999999", NULL, "length" },
	{ 2, "0", "12Q", NULL, "length" },
	{ 2, "100", "512", NULL, "aligned" },
	{ 2, "512", "1000", NULL, "aligned" },
	{ 2, "64M", "512", NULL, "beyond the end" },
	{ 2, "63M", "2M", NULL, "beyond the end" },
	{ 2, "512", "18446744073709551104", NULL, "beyond the end" },
};

START_TEST(test_erase_bad_args)
{
	const struct erase_case *c = &erase_bad[_i];
	struct cmd_result res;
	struct loop_fix fx;
	uint64_t before;

	if (!loop_setup(&fx, "erase_bad_args", 0, 0))
		return;
	before = region_hash(fx.dev, 0, fx.size_byte);
	ck_assert_int_eq(run_erase(&res, fx.dev, c->argc > 0 ? c->start : NULL,
				   c->argc > 1 ? c->len : NULL,
				   c->argc > 2 ? c->extra : NULL), 2);
	ck_assert_msg(strstr(res.err, c->err), "stderr lacks '%s': %s",
		      c->err, res.err);
	/* one line, as flashbench's usage errors (issue 9 item 20) */
	ck_assert_msg(!strncmp(res.err, "erase: ", 7) &&
		      count_str(res.err, "\n") == 1, "not one line: %s",
		      res.err);
	ck_assert_ptr_null(strstr(res.err, "will overwrite"));
	ck_assert_str_eq(res.out, "");
	cmd_result_free(&res);
	ck_assert_uint_eq(region_hash(fx.dev, 0, fx.size_byte), before);
}
END_TEST

/* On a 4K-sector device, 512-byte alignment is not enough. */
START_TEST(test_erase_4k)
{
	struct cmd_result res;
	struct loop_fix fx;

	if (!loop_setup(&fx, "erase_4k", 0, 4096))
		return;
	ck_assert_int_eq(run_erase(&res, fx.dev, "512", "4096", NULL), 2);
	ck_assert_ptr_nonnull(strstr(res.err, "4096 bytes"));
	cmd_result_free(&res);
	ck_assert_int_eq(run_erase(&res, fx.dev, "4096", "1536", NULL), 2);
	cmd_result_free(&res);
	ck_assert_uint_eq(scan(fx.dev, 0, 2 * MiB, SCAN_PLANTED, fx.seed), 0);
	ck_assert_int_eq(run_erase(&res, fx.dev, "4096", "8192", NULL), 0);
	cmd_result_free(&res);
	ck_assert_uint_eq(scan(fx.dev, 4096, 8192, SCAN_ZERO, 0), 0);
	ck_assert_uint_eq(scan(fx.dev, 0, 4096, SCAN_PLANTED, fx.seed), 0);
	ck_assert_uint_eq(scan(fx.dev, 12288, 2 * MiB, SCAN_PLANTED,
			       fx.seed), 0);
}
END_TEST

/* A device someone holds open exclusively: exit 1, nothing erased. */
START_TEST(test_erase_busy)
{
	struct cmd_result res;
	struct loop_fix fx;
	char want[128];
	int fd;

	if (!loop_setup(&fx, "erase_busy", 0, 0))
		return;
	fd = open(fx.dev, O_RDONLY | O_EXCL);
	ck_assert_msg(fd >= 0, "open %s O_EXCL: %s", fx.dev, strerror(errno));
	ck_assert_int_eq(run_erase(&res, fx.dev, "0", "1M", NULL), 1);
	snprintf(want, sizeof(want), "erase: %s: ", fx.dev);
	ck_assert_msg(!strncmp(res.err, want, strlen(want)) &&
		      count_str(res.err, "\n") == 1, "stderr: %s", res.err);
	ck_assert_str_eq(res.out, "");
	cmd_result_free(&res);
	close(fd);
	ck_assert_uint_eq(scan(fx.dev, 0, MiB, SCAN_PLANTED, fx.seed), 0);
}
END_TEST

/* ---- flashbench on a loop device ---- */

/* Run flashbench with the NULL-terminated arguments; returns its status. */
static int run_fb(struct cmd_result *res, ...)
{
	char *argv[16];
	va_list ap;
	int argc = 1;

	argv[0] = (char *)flashbench_bin();
	va_start(ap, res);
	while (argc < 15 && (argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	argv[argc] = NULL;
	ck_assert_int_eq(run_cmd(argv, res), 0);
	return res->status;
}

/* A printed time ("741µs", "1.08ms", "-412ns") in ns; aborts if bad. */
static double time_ns(const char *s)
{
	static const struct {
		const char *unit;
		double ns;
	} units[] = {
		{ "ns", 1 }, { "µs", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
	};
	char *end;
	double v = strtod(s, &end);
	size_t i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (end != s && !strcmp(end, units[i].unit))
			return v * units[i].ns;
	ck_abort_msg("not a time: '%s'", s);
	return 0;
}

/* Next line of text (advancing *pos), or NULL at the end. */
static char *next_line(char **pos)
{
	char *line = *pos, *nl;

	if (!line || !*line)
		return NULL;
	nl = strchr(line, '\n');
	ck_assert_msg(nl != NULL, "unterminated line '%s'", line);
	*nl = '\0';
	*pos = nl + 1;
	return line;
}

/* A read-only test leaves every byte of the device as it was. */
static void check_read_only_run(struct loop_fix *fx, struct cmd_result *res)
{
	ck_assert_msg(res->status == 0, "status %d: %s", res->status,
		      res->err);
	ck_assert_ptr_null(strstr(res->err, "will overwrite"));
	ck_assert_uint_eq(scan(fx->dev, 0, fx->size_byte, SCAN_PLANTED,
			       fx->seed), 0);
}

START_TEST(test_fb_align)
{
	struct cmd_result res;
	struct loop_fix fx;
	uint64_t want_align = 8 * MiB, align;
	char pre[32], on[32], post[32], diff[32], *pos, *line;

	if (!loop_setup(&fx, "fb_align", 0, 0))
		return;
	/* 7 * 8MiB + 1KiB fits in 64MiB, 7 * 16MiB does not */
	run_fb(&res, "-a", "-b", "1024", fx.dev, (char *)NULL);
	check_read_only_run(&fx, &res);
	pos = res.out;
	while ((line = next_line(&pos))) {
		double pre_ns, on_ns, post_ns, diff_ns, tol;

		ck_assert_msg(sscanf(line, "align %" SCNu64 "\tpre %31[^\t]"
				     "\ton %31[^\t]\tpost %31[^\t]\tdiff %31s",
				     &align, pre, on, post, diff) == 5,
			      "bad line '%s'", line);
		ck_assert_uint_eq(align, want_align);
		pre_ns = time_ns(pre);
		on_ns = time_ns(on);
		post_ns = time_ns(post);
		diff_ns = time_ns(diff);
		ck_assert(pre_ns > 0 && on_ns > 0 && post_ns > 0);
		ck_assert(pre_ns < 1e9 && on_ns < 1e9 && post_ns < 1e9);
		/* three significant digits each */
		tol = 0.01 * (pre_ns + on_ns + post_ns) + 10;
		ck_assert_msg(fabs(on_ns - (pre_ns + post_ns) / 2 - diff_ns) <=
			      tol, "diff %s of '%s'", diff, line);
		want_align /= 2;
	}
	ck_assert_uint_eq(want_align, 1024);	/* down to 2 * blocksize */
	cmd_result_free(&res);
}
END_TEST

START_TEST(test_fb_scatter)
{
	struct cmd_result res;
	struct loop_fix fx;
	double off_mib, t_ms;
	unsigned int n = 0;
	char *pos, *line, want[32];

	if (!loop_setup(&fx, "fb_scatter", 0, 0))
		return;
	run_fb(&res, "-s", "--scatter-order=8", fx.dev, (char *)NULL);
	check_read_only_run(&fx, &res);
	pos = res.out;
	while ((line = next_line(&pos))) {
		ck_assert_msg(sscanf(line, "%lf\t%lf", &off_mib, &t_ms) == 2,
			      "bad line '%s'", line);
		/* one 16KiB block per position, in offset order */
		snprintf(want, sizeof(want), "%f\t", n * 16384.0 / MiB);
		ck_assert_msg(!strncmp(line, want, strlen(want)),
			      "line %u: '%s'", n, line);
		ck_assert_msg(t_ms > 0 && t_ms < 1000, "line '%s'", line);
		n++;
	}
	ck_assert_uint_eq(n, 256);
	cmd_result_free(&res);
}
END_TEST

/*
 * -i --interval-order=10 on a loop device: sizes 512 B .. 256 KiB, or
 * from the logical block size up where the device cannot read less.
 */
static void check_interval(unsigned int sector_size)
{
	char min[32], avg[32], max[32], acc[32], *pos, *line;
	double min_ns[10], mbps, a, v;
	struct cmd_result res;
	struct loop_fix fx;
	uint64_t n, t;
	int k, first = sector_size == 4096 ? 3 : 0;

	if (!loop_setup(&fx, first ? "fb_interval_4k" : "fb_interval", 0,
			sector_size))
		return;
	run_fb(&res, "-i", "--interval-order=10", fx.dev, (char *)NULL);
	check_read_only_run(&fx, &res);
	pos = res.out;
	for (k = first; k < 10; k++) {
		line = next_line(&pos);
		ck_assert_ptr_nonnull(line);
		ck_assert_msg(sscanf(line, "%" SCNu64 " bytes: min %31s avg "
				     "%31s max %31[^:]: %lf MB/s",
				     &n, min, avg, max, &mbps) == 5,
			      "bad line '%s'", line);
		ck_assert_uint_eq(n, 512ULL << k);
		min_ns[k] = time_ns(min);
		ck_assert(min_ns[k] > 0);
		ck_assert(min_ns[k] <= time_ns(avg) * 1.01);
		ck_assert(time_ns(avg) <= time_ns(max) * 1.01);
		/* MB/s from the minimum */
		v = n / min_ns[k] * 1e3;
		ck_assert_msg(fabs(mbps - v) <= 0.01 * v, "'%s'", line);
	}
	line = next_line(&pos);
	ck_assert_ptr_nonnull(line);
	ck_assert_msg(sscanf(line, "%lf MB/s, %31s access time", &a, acc) == 2,
		      "bad line '%s'", line);
	for (k = first; k < 10; k++) {
		line = next_line(&pos);
		ck_assert_ptr_nonnull(line);
		ck_assert_msg(sscanf(line, "bytes %" SCNu64 ", time %" SCNu64
				     " overhead %lf", &n, &t, &v) == 3,
			      "bad line '%s'", line);
		ck_assert_uint_eq(n, 512ULL << k);
		ck_assert_msg(fabs((double)t - min_ns[k]) <=
			      0.006 * min_ns[k] + 1, "'%s'", line);
	}
	ck_assert_ptr_null(next_line(&pos));
	cmd_result_free(&res);
}

START_TEST(test_fb_interval)
{
	check_interval(512);
}
END_TEST

/* 4096-byte logical blocks (losetup -b 4096): from 4 KiB up. */
START_TEST(test_fb_interval_4k)
{
	check_interval(4096);
}
END_TEST

/* The byte ranges a writing run announced on stderr. */
struct ranges {
	uint64_t start[64];	/* first byte */
	uint64_t end[64];	/* one past the last byte */
	unsigned int n;		/* number of ranges */
};

static void parse_ranges(const char *err, const char *dev, struct ranges *r)
{
	const char *p = err;
	char want[96];
	int used;

	snprintf(want, sizeof(want), " on %s\n", dev);
	r->n = 0;
	while ((p = strstr(p, "flashbench: will overwrite bytes "))) {
		ck_assert_uint_lt(r->n, 64);
		ck_assert_int_eq(sscanf(p, "flashbench: will overwrite bytes %"
					SCNu64 "-%" SCNu64 "%n",
					&r->start[r->n], &r->end[r->n], &used),
				 2);
		ck_assert_msg(!strncmp(p + used, want, strlen(want)),
			      "range line '%.80s'", p);
		ck_assert_uint_lt(r->start[r->n], r->end[r->n]);
		r->n++;
		p += used;
	}
}

/* Is byte off inside one of the ranges? */
static int in_ranges(const struct ranges *r, uint64_t off)
{
	unsigned int i;

	for (i = 0; i < r->n; i++)
		if (off >= r->start[i] && off < r->end[i])
			return 1;
	return 0;
}

/*
 * Run a writing test: status 0, ranges announced, every byte outside
 * them as planted, and something inside them changed.  Returns stdout.
 */
static char *check_writing_run(const char *test, char *const args[])
{
	struct cmd_result res;
	struct loop_fix fx;
	struct ranges r;
	uint64_t off, changed = 0;
	char *argv[16], *out;
	int argc = 0;

	if (!loop_setup(&fx, test, 0, 0))
		return NULL;
	argv[argc++] = (char *)flashbench_bin();
	while (*args && argc < 14)
		argv[argc++] = *args++;
	argv[argc++] = fx.dev;
	argv[argc] = NULL;
	ck_assert_int_eq(run_cmd(argv, &res), 0);
	ck_assert_msg(res.status == 0, "status %d: %s", res.status, res.err);
	parse_ranges(res.err, fx.dev, &r);
	ck_assert_uint_gt(r.n, 0);
	for (off = 0; off < r.n; off++)
		ck_assert(r.start[off] % 65536 == 0 &&
			  r.end[off] % 65536 == 0 && r.end[off] <= fx.size_byte);
	/* 64KiB at a time: every range is made of whole 64KiB pieces */
	for (off = 0; off < fx.size_byte; off += 65536) {
		uint64_t bad = scan(fx.dev, off, 65536, SCAN_PLANTED, fx.seed);

		if (in_ranges(&r, off))
			changed += bad;
		else
			ck_assert_msg(bad == 0, "%" PRIu64 " bytes changed at %"
				      PRIu64 ", outside the announced ranges",
				      bad, off);
	}
	ck_assert_uint_gt(changed, 0);
	out = res.out;
	res.out = NULL;
	cmd_result_free(&res);
	return out;
}

/*
 * A write-test table: one row per size, every cell "%-7s " (so each row
 * is 8 * (1 + ncol) characters and ends with a space), then ncol rates.
 */
static void check_table(char *out, const char *const sizes[],
			unsigned int ncol)
{
	char *pos = out, *save;
	unsigned int row, col;

	for (row = 0; sizes[row]; row++) {
		char *line = next_line(&pos), *cell;

		ck_assert_msg(line != NULL, "row %s missing", sizes[row]);
		ck_assert_msg(strlen(line) == 8 * (1 + ncol),
			      "row '%s' is not %u cells", line, 1 + ncol);
		for (col = 0; col <= ncol; col++)
			ck_assert_msg(line[8 * col] != ' ' &&
				      line[8 * col + 7] == ' ',
				      "row '%s': cell %u is not %%-7s", line,
				      col);
		cell = strtok_r(line, " ", &save);
		ck_assert_str_eq(cell, sizes[row]);
		for (col = 0; col < ncol; col++) {
			cell = strtok_r(NULL, " ", &save);
			ck_assert_msg(cell && strstr(cell, "/s"),
				      "row %s: cell %u is '%s'", sizes[row],
				      col, cell ? cell : "");
		}
	}
	ck_assert_ptr_null(next_line(&pos));
}

static const char *const sizes_1m_256k[] = { "1MiB", "512KiB", "256KiB",
					     NULL };

START_TEST(test_fb_open_au)
{
	char *const linear[] = { "-O", "-e", "1M", "-b", "256K",
				 "--open-au-nr=2", NULL };
	char *const random[] = { "-O", "-r", "-e", "1M", "-b", "256K",
				 "--open-au-nr=3", NULL };
	char *out = check_writing_run("fb_open_au", _i ? random : linear);

	if (out)
		check_table(out, sizes_1m_256k, 1);
	free(out);
}
END_TEST

START_TEST(test_fb_find_fat)
{
	char *const args[] = { "-f", "-e", "1M", "-b", "256K", "--fat-nr=2",
			       NULL };
	char *out = check_writing_run("fb_find_fat", args);

	if (out)
		check_table(out, sizes_1m_256k, 2);
	free(out);
}
END_TEST

START_TEST(test_fb_program)
{
	static const char *const sizes[] = {
		"2MiB", "1MiB", "512KiB", "256KiB", "128KiB", "64KiB", "32KiB",
		"16KiB", "8KiB", "4KiB", "2KiB", "1KiB", "512B", NULL
	};
	char *const args[] = { "-p", NULL };
	char *out = check_writing_run("fb_program", args);

	if (out)
		check_table(out, sizes, 8);
	free(out);
}
END_TEST

/* Writing tests refuse a mounted device; reading tests may look. */
/*
 * --auto on a loop device over a file: a file has no erase blocks, so the
 * verdict must not invent one; the JSON document parses; nothing written.
 */
START_TEST(test_fb_auto)
{
	struct cmd_result res;
	struct loop_fix fx;
	char val[64];

	if (!loop_setup(&fx, "fb_auto", 0, 0))
		return;
	run_fb(&res, "--auto", "--json", fx.dev, (char *)NULL);
	check_read_only_run(&fx, &res);
	ck_assert_int_eq(json_get(res.out, NULL, NULL, 0), 0);
	ck_assert_int_eq(json_get(res.out, "test", val, sizeof(val)), 0);
	ck_assert_str_eq(val, "\"auto\"");
	ck_assert_int_eq(json_get(res.out, "verdict.erase_size", val,
				  sizeof(val)), 0);
	ck_assert_str_eq(val, "null");
	ck_assert_int_eq(json_get(res.out, "verdict.confidence.erase_size", val,
				  sizeof(val)), 0);
	ck_assert_str_eq(val, "\"none\"");
	ck_assert_int_eq(json_get(res.out, "device.size", val, sizeof(val)), 0);
	ck_assert_uint_eq(strtoull(val, NULL, 10), fx.size_byte);
	ck_assert_int_eq(json_get(res.out,
				  "device.sysfs.logical_block_size", val,
				  sizeof(val)), 0);
	ck_assert_str_eq(val, "512");
	cmd_result_free(&res);
	run_fb(&res, "--auto", fx.dev, (char *)NULL);
	check_read_only_run(&fx, &res);
	ck_assert_ptr_nonnull(strstr(res.out,
				     "erase size: none (confidence none)\n"));
	/* too small to find it by writing: --destructive would skip the same */
	ck_assert_ptr_null(strstr(res.out, "--auto --destructive"));
	ck_assert_ptr_nonnull(strstr(res.out, "too small to find it by writing"));
	cmd_result_free(&res);
}
END_TEST

/*
 * --auto's advice counts in the device's own sectors: on a device of
 * 4096-byte logical blocks (losetup -b 4096) the number it gives, handed
 * to sfdisk, puts the partition at 1 MiB (the MBR counts in logical
 * blocks).  A file has no erase size, so this is the advice for that
 * case; the advice for sizes found is checked in test_auto.
 */
START_TEST(test_fb_auto_4k)
{
	unsigned char *mbr = dev_alloc_buf(4096);
	unsigned long long sector;
	unsigned int sector_byte;
	uint64_t before, start_lba;
	struct cmd_result res;
	struct loop_fix fx;
	char *line, cmd[160];
	int fd;

	ck_assert_ptr_nonnull(mbr);
	if (!loop_setup(&fx, "fb_auto_4k", 0, 4096))
		goto out_free;
	if (!find_tool("sfdisk")) {
		loop_skip("fb_auto_4k", "sfdisk is not installed");
		goto out_free;
	}
	before = region_hash(fx.dev, 0, fx.size_byte);
	ck_assert_msg(run_fb(&res, "--auto", fx.dev, (char *)NULL) == 0, "%s",
		      res.err);
	ck_assert_uint_eq(region_hash(fx.dev, 0, fx.size_byte), before);
	line = strstr(res.out, "multiples of sector ");
	ck_assert_msg(line && sscanf(line, "multiples of sector %llu, in %u-byte sectors",
				     &sector, &sector_byte) == 2, "%s", res.out);
	ck_assert_uint_eq(sector_byte, 4096);
	cmd_result_free(&res);

	snprintf(cmd, sizeof(cmd), "echo 'start=%llu' | sfdisk -q %s", sector,
		 fx.dev);
	ck_assert_msg(run_tool(&res, "sh", "-c", cmd, (char *)NULL) == 0,
		      "%s: %s", cmd, res.err);
	cmd_result_free(&res);
	/* the MBR counts in logical blocks: partition 1 starts at 1 MiB */
	fd = open(fx.dev, O_RDONLY | O_DIRECT | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pread(fd, mbr, 4096, 0), 4096);
	close(fd);
	ck_assert(mbr[510] == 0x55 && mbr[511] == 0xaa);
	start_lba = (uint32_t)mbr[454] | (uint32_t)mbr[455] << 8 |
		    (uint32_t)mbr[456] << 16 | (uint32_t)mbr[457] << 24;
	ck_assert_uint_eq(start_lba, sector);
	ck_assert_uint_eq(start_lba * blockdev_get("--getss", fx.dev), MiB);
out_free:
	dev_free_buf(mbr);
}
END_TEST

/* ---- --preserve, signals and --restore ---- */

/* The writing tests, long enough on a loop device to be interrupted. */
#define SLOW_WRITES "-f -O -p -e 1M -b 512 --fat-nr=2"

/*
 * Where they are stopped: the first write covering this byte, well
 * inside the tests (-O and -p write from 16 MiB) and inside what -p
 * alone writes, after the first rows of their tables.
 */
#define STOP_AT (17 * MiB + 4096)

static struct fault_plan slow_plan;

static struct device *slow_hook(struct device *dev)
{
	struct device *w;

	ck_assert_int_eq(fault_wrap(&w, dev, &slow_plan), 0);
	return w;
}

/*
 * The writing tests given (SLOW_WRITES, or others) with --preserve on
 * fx, in this process, with signal sig raised while the first write
 * covering byte STOP_AT is under way: the stop lands at the same write
 * however fast the machine is.  The journal is fx's image + ".journal".
 */
static void slow_writes_stopped(struct loop_fix *fx, const char *tests,
				int sig, char *journal, size_t len,
				struct fb_run *r)
{
	char args[PATH_MAX * 2 + 128];

	snprintf(journal, len, "%s.journal", fx->img);
	snprintf(args, sizeof(args), "%s --preserve --journal %s %s", tests,
		 journal, fx->dev);
	fault_plan_init(&slow_plan);
	slow_plan.signal_write_byte = STOP_AT;
	slow_plan.signal = sig;
	flashbench_open_hook = slow_hook;
	fb_run(args, r);
	flashbench_open_hook = NULL;
}

/* The same killed by SIGKILL there, in a child: its journal stays. */
static void slow_writes_killed(struct loop_fix *fx, char *journal,
			       size_t len)
{
	int status;
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (!pid) {
		struct fb_run r;

		slow_writes_stopped(fx, SLOW_WRITES, SIGKILL, journal, len,
				    &r);
		_exit(0);	/* not reached */
	}
	snprintf(journal, len, "%s.journal", fx->img);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
}

/* With --preserve every writing test leaves the device bit-identical. */
START_TEST(test_fb_preserve)
{
	static const char *const tests[][7] = {
		{ "-O", "-e", "1M", "--open-au-nr=3", NULL },
		{ "-O", "-r", "-e", "1M", "-b", "256K", NULL },
		{ "-f", "-e", "1M", "--fat-nr=3", NULL },
		{ "-p", NULL },
	};
	char journal[PATH_MAX + 16], *argv[16];
	struct cmd_result res;
	struct loop_fix fx;
	int argc = 0, k;

	if (!loop_setup(&fx, "fb_preserve", 0, 0))
		return;
	snprintf(journal, sizeof(journal), "%s.journal", fx.img);
	argv[argc++] = (char *)flashbench_bin();
	for (k = 0; tests[_i][k]; k++)
		argv[argc++] = (char *)tests[_i][k];
	argv[argc++] = (char *)"--preserve";
	argv[argc++] = (char *)"--journal";
	argv[argc++] = journal;
	argv[argc++] = fx.dev;
	argv[argc] = NULL;
	ck_assert_int_eq(run_cmd(argv, &res), 0);
	ck_assert_msg(res.status == 0, "status %d: %s", res.status, res.err);
	ck_assert_ptr_nonnull(strstr(res.err, "will overwrite bytes"));
	ck_assert_uint_eq(scan(fx.dev, 0, fx.size_byte, SCAN_PLANTED, fx.seed),
			  0);
	ck_assert_int_ne(access(journal, F_OK), 0);	/* removed */
	cmd_result_free(&res);
}
END_TEST

/*
 * SIGINT (and SIGTERM) in the middle of the writing tests: they stop,
 * what was saved goes back, the exit status is 128 + the signal.
 */
START_TEST(test_fb_preserve_signal)
{
	const int sig = _i ? SIGTERM : SIGINT;
	char journal[PATH_MAX + 16];
	struct loop_fix fx;
	struct fb_run r;

	if (!loop_setup(&fx, "fb_preserve_signal", 0, 0))
		return;
	slow_writes_stopped(&fx, SLOW_WRITES, sig, journal, sizeof(journal),
			    &r);
	ck_assert_msg(r.status == 128 + sig, "status %d: %s", r.status, r.err);
	/* some of the table was measured and printed before the stop */
	ck_assert_msg(strstr(r.out, "1MiB"), "%s", r.out);
	ck_assert_uint_eq(scan(fx.dev, 0, fx.size_byte, SCAN_PLANTED, fx.seed),
			  0);
	ck_assert_int_ne(access(journal, F_OK), 0);
	fb_free(&r);
}
END_TEST

/* ---- --capacity with --preserve ---- */

static struct fault_plan capacity_plan;

static struct device *capacity_hook(struct device *dev)
{
	struct device *w;

	ck_assert_int_eq(fault_wrap(&w, dev, &capacity_plan), 0);
	return w;
}

/* In-process --capacity --preserve on fx under plan. */
static void capacity_run(struct loop_fix *fx, const char *journal,
			 const struct fault_plan *plan, struct fb_run *r)
{
	char args[PATH_MAX * 2 + 64];

	snprintf(args, sizeof(args), "-C --preserve --journal %s %s",
		 journal, fx->dev);
	capacity_plan = *plan;
	flashbench_open_hook = capacity_hook;
	fb_run(args, r);
	flashbench_open_hook = NULL;
}

/*
 * --capacity --preserve leaves the loop device bit-identical: on the
 * device as it is (genuine), made a limbo fake past 24 MiB by the fault
 * injector (what is written there is lost, and so is what is restored
 * there), and when ^C stops it in the middle of the flush.
 */
START_TEST(test_fb_capacity_preserve)
{
	char journal[PATH_MAX + 16];
	struct fault_plan plan;
	struct loop_fix fx;
	struct fb_run r;

	if (!loop_setup(&fx, "fb_capacity_preserve", 0, 0))
		return;
	snprintf(journal, sizeof(journal), "%s.journal", fx.img);
	fault_plan_init(&plan);
	if (_i == 1)
		plan.lost_byte = 24 * MiB;
	if (_i == 2) {
		/* in the middle of the flush region [512K, 1M) */
		plan.signal_write_byte = 768 * 1024;
		plan.signal = SIGINT;
	}
	capacity_run(&fx, journal, &plan, &r);
	if (_i == 2) {
		ck_assert_msg(r.status == 130, "status %d: %s", r.status,
			      r.err);
	} else {
		char want[64];

		/* a limbo fake is short of its claims: status 4 */
		ck_assert_msg(r.status == (_i ? 4 : 0), "status %d: %s",
			      r.status, r.err);
		snprintf(want, sizeof(want), "kind:           %s",
			 _i ? "limbo" : "genuine");
		ck_assert_msg(strstr(r.out, want), "%s", r.out);
	}
	ck_assert_ptr_nonnull(strstr(r.err, "will overwrite 252 ranges"));
	ck_assert_uint_eq(scan(fx.dev, 0, fx.size_byte, SCAN_PLANTED, fx.seed),
			  0);
	ck_assert_int_ne(access(journal, F_OK), 0);
	fb_free(&r);
}
END_TEST

/*
 * SIGKILL in the middle of --capacity: the journal restores the device
 * bit-identically with --restore.
 */
START_TEST(test_fb_capacity_kill_restore)
{
	char journal[PATH_MAX + 16];
	struct fault_plan plan;
	struct cmd_result res;
	struct loop_fix fx;
	int status;
	pid_t pid;

	if (!loop_setup(&fx, "fb_capacity_kill_restore", 0, 0))
		return;
	snprintf(journal, sizeof(journal), "%s.journal", fx.img);
	fault_plan_init(&plan);
	plan.signal_write_byte = 768 * 1024;	/* mid-flush */
	plan.signal = SIGKILL;
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		struct fb_run r;

		capacity_run(&fx, journal, &plan, &r);
		_exit(0);	/* not reached: killed mid-flush */
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	ck_assert_int_eq(access(journal, F_OK), 0);
	ck_assert_uint_gt(scan(fx.dev, 0, fx.size_byte, SCAN_PLANTED,
			       fx.seed), 0);
	run_fb(&res, "--restore", journal, fx.dev, (char *)NULL);
	ck_assert_msg(res.status == 0, "status %d: %s", res.status, res.err);
	cmd_result_free(&res);
	ck_assert_uint_eq(scan(fx.dev, 0, fx.size_byte, SCAN_PLANTED, fx.seed),
			  0);
	ck_assert_int_ne(access(journal, F_OK), 0);
}
END_TEST

/* ---- --preserve writes back only what was written ---- */

/* Where the tap of written_hook() appends its writes. */
static int written_fd = -1;

/* A tap logging each write to written_fd over a fault wrapper. */
static struct device *written_hook(struct device *dev)
{
	struct device *w;
	struct rec_dev *tap;

	ck_assert_int_eq(fault_wrap(&w, dev, &capacity_plan), 0);
	tap = rec_tap(w);
	tap->wlog_fd = written_fd;
	return &tap->dev;
}

/* A new file in the state directory for the writes, open. */
static int written_log(const char *name)
{
	char path[128];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", state_dir(), name);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	ck_assert_msg(fd >= 0, "open %s: %s", path, strerror(errno));
	unlink(path);
	return fd;
}

/* --capacity's ranges on fx: what it announces and --preserve saves. */
static size_t capacity_ranges(const struct loop_fix *fx,
			      struct bench_range **r)
{
	struct bench_opts o;
	size_t n;

	bench_opts_default(&o);
	o.log = NULL;
	ck_assert_int_eq(tests_write_ranges(BENCH_CAPACITY, &o, fx->size_byte,
					    r, &n), 0);
	return n;
}

/*
 * --capacity --preserve writes back only what it wrote (issue 18): the
 * probes it wrote and its flush region, not the ~250 ranges it announced;
 * the device is bit-identical afterwards.
 */
START_TEST(test_fb_capacity_preserve_written)
{
	char journal[PATH_MAX + 16], args[PATH_MAX * 2 + 64];
	struct bench_range *rg;
	struct loop_fix fx;
	struct rec_dev *log;
	struct fb_run r;
	size_t n, back, spans;

	if (!loop_setup(&fx, "fb_capacity_preserve_written", 0, 0))
		return;
	snprintf(journal, sizeof(journal), "%s.journal", fx.img);
	written_fd = written_log("capacity-written");
	fault_plan_init(&capacity_plan);
	snprintf(args, sizeof(args), "-C --preserve --journal %s %s", journal,
		 fx.dev);
	flashbench_open_hook = written_hook;
	fb_run(args, &r);
	flashbench_open_hook = NULL;
	ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
	/* as many ranges announced as -C plans on this device */
	n = capacity_ranges(&fx, &rg);
	ck_assert_uint_gt(n, 100);
	snprintf(args, sizeof(args), "will overwrite %zu ranges", n);
	ck_assert_msg(strstr(r.err, args), "%s: %.300s", args, r.err);
	log = rec_wlog_load(NULL, written_fd);
	spans = rec_wrote_back_written(log, 0, log->n, rg, n, &back);
	ck_assert_uint_lt(back, n / 4);
	ck_assert_uint_gt(spans, 1);
	ck_assert_uint_eq(scan(fx.dev, 0, fx.size_byte, SCAN_PLANTED, fx.seed),
			  0);
	ck_assert_int_ne(access(journal, F_OK), 0);
	dev_close(&log->dev);
	close(written_fd);
	free(rg);
	fb_free(&r);
}
END_TEST

/* The first sector of dev (512 bytes), read around the page cache. */
static void read_mbr(const char *dev, unsigned char *out)
{
	unsigned char *buf = dev_alloc_buf(4096);
	int fd = open(dev, O_RDONLY | O_DIRECT | O_CLOEXEC);

	ck_assert_ptr_nonnull(buf);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pread(fd, buf, 4096, 0), 4096);
	close(fd);
	memcpy(out, buf, 512);
	dev_free_buf(buf);
}

/* A 32-bit little-endian word of an MBR entry. */
static uint64_t mbr_le32(const unsigned char *p)
{
	return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 |
	       (uint64_t)p[3] << 24;
}

/*
 * f3fix's job: -C on a limbo fake (past 40 MiB, by the fault injector)
 * with two partitions, the second over the rest of the card, prints one
 * command; run as printed (sudo aside: we are root), it leaves partition
 * 2 ending at or below the usable size (within a MiB of it) with its
 * start and type, and the rest of the first sector as it was: boot code,
 * disk identifier, partition 1, empty entries 3 and 4.
 */
START_TEST(test_fb_capacity_shrink)
{
	unsigned char before[512], after[512];
	unsigned long long usable;
	char journal[PATH_MAX + 16], cmd[512], *p, *e;
	struct cmd_result res;
	struct fault_plan plan;
	struct loop_fix fx;
	struct fb_run r;
	uint64_t end;

	if (!loop_setup(&fx, "fb_capacity_shrink", 0, 0))
		return;
	if (!find_tool("sfdisk")) {
		loop_skip("fb_capacity_shrink", "sfdisk is not installed");
		return;
	}
	snprintf(cmd, sizeof(cmd), "printf 'label: dos\\nstart=2048, size=30720, type=c\\nstart=32768, type=83\\n' | sfdisk -q %s",
		 fx.dev);
	ck_assert_msg(run_tool(&res, "sh", "-c", cmd, (char *)NULL) == 0,
		      "%s: %s", cmd, res.err);
	cmd_result_free(&res);
	read_mbr(fx.dev, before);
	ck_assert_uint_eq(mbr_le32(before + 446 + 16 + 8) +
			  mbr_le32(before + 446 + 16 + 12),
			  fx.size_byte / 512);
	snprintf(journal, sizeof(journal), "%s.journal", fx.img);
	fault_plan_init(&plan);
	plan.lost_byte = 40 * MiB;
	capacity_run(&fx, journal, &plan, &r);
	ck_assert_msg(r.status == 4, "status %d: %s", r.status, r.err);
	p = strstr(r.out, "usable size:    ");
	ck_assert_ptr_nonnull(p);
	p = strchr(p, '(');
	ck_assert(p && sscanf(p, "(%llu bytes)", &usable) == 1);
	ck_assert_uint_le(usable, 40 * MiB);
	ck_assert_uint_gt(usable, 32 * MiB);
	p = strstr(r.out, "' | sudo sfdisk -N 2 ");
	ck_assert_msg(p, "%s", r.out);
	while (p > r.out && p[-1] != '\n')
		p--;
	p += strspn(p, " ");
	e = strchr(p, '\n');
	ck_assert_ptr_nonnull(e);
	snprintf(cmd, sizeof(cmd), "%.*s", (int)(e - p), p);
	ck_assert_ptr_nonnull(strstr(cmd, fx.dev));
	/* as printed, without sudo */
	p = strstr(cmd, "sudo ");
	memmove(p, p + 5, strlen(p + 5) + 1);
	fb_free(&r);
	ck_assert_msg(run_tool(&res, "sh", "-c", cmd, (char *)NULL) == 0,
		      "%s: %s", cmd, res.err);
	cmd_result_free(&res);
	read_mbr(fx.dev, after);
	end = mbr_le32(after + 446 + 16 + 8) + mbr_le32(after + 446 + 16 + 12);
	ck_assert_msg(end * 512 <= usable, "%s: ends at %" PRIu64, cmd, end);
	ck_assert_uint_ge(end * 512 + MiB, usable);
	/* partition 2's status, CHS start and type, then its start */
	ck_assert_mem_eq(after + 446 + 16, before + 446 + 16, 5);
	ck_assert_mem_eq(after + 446 + 16 + 8, before + 446 + 16 + 8, 4);
	/* everything else in the first sector */
	ck_assert_mem_eq(after, before, 446 + 16);
	ck_assert_mem_eq(after + 446 + 32, before + 446 + 32, 512 - 446 - 32);
}
END_TEST

/*
 * SIGKILL in the middle of --capacity --preserve's flush, then
 * --restore: it writes back what the killed run wrote (the write under
 * way included: the journal noted it before it went down), no more, and
 * the device is bit-identical.
 */
START_TEST(test_fb_capacity_kill_restore_written)
{
	char journal[PATH_MAX + 16], args[PATH_MAX * 2 + 64];
	struct bench_range *rg;
	struct fault_plan plan;
	struct loop_fix fx;
	struct rec_dev *log;
	struct fb_run r;
	size_t n, killed, back;
	int status;
	pid_t pid;

	if (!loop_setup(&fx, "fb_capacity_kill_restore_written", 0, 0))
		return;
	snprintf(journal, sizeof(journal), "%s.journal", fx.img);
	written_fd = written_log("capacity-killed");
	fault_plan_init(&plan);
	plan.signal_write_byte = 768 * 1024;	/* mid-flush */
	plan.signal = SIGKILL;
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		snprintf(args, sizeof(args), "-C --preserve --journal %s %s",
			 journal, fx.dev);
		capacity_plan = plan;
		flashbench_open_hook = written_hook;
		fb_run(args, &r);
		_exit(0);	/* not reached: killed mid-flush */
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	ck_assert_int_eq(access(journal, F_OK), 0);
	log = rec_wlog_load(NULL, written_fd);
	killed = log->n;
	ck_assert_uint_gt(killed, 0);
	close(written_fd);

	written_fd = written_log("capacity-restore");
	fault_plan_init(&capacity_plan);
	snprintf(args, sizeof(args), "--restore=%s %s", journal, fx.dev);
	flashbench_open_hook = written_hook;
	fb_run(args, &r);
	flashbench_open_hook = NULL;
	ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
	log = rec_wlog_load(log, written_fd);
	ck_assert_uint_gt(log->n, killed);
	n = capacity_ranges(&fx, &rg);
	rec_wrote_back_written(log, 0, log->n, rg, n, &back);
	ck_assert_uint_lt(back, n / 4);
	ck_assert_uint_eq(scan(fx.dev, 0, fx.size_byte, SCAN_PLANTED, fx.seed),
			  0);
	ck_assert_int_ne(access(journal, F_OK), 0);
	dev_close(&log->dev);
	close(written_fd);
	free(rg);
	fb_free(&r);
}
END_TEST

/* --json stopped by SIGINT is still one complete document. */
START_TEST(test_fb_json_interrupted)
{
	char journal[PATH_MAX + 16], val[32];
	struct loop_fix fx;
	struct fb_run r;

	if (!loop_setup(&fx, "fb_json_interrupted", 0, 0))
		return;
	slow_writes_stopped(&fx, "--json -p", SIGINT, journal, sizeof(journal),
			    &r);
	ck_assert_msg(r.status == 130, "status %d: %s", r.status, r.err);
	ck_assert_int_eq(json_get(r.out, NULL, NULL, 0), 0);
	ck_assert_int_eq(json_get(r.out, "interrupted", val, sizeof(val)), 0);
	ck_assert_str_eq(val, "true");
	ck_assert_uint_eq(scan(fx.dev, 0, fx.size_byte, SCAN_PLANTED, fx.seed),
			  0);
	fb_free(&r);
}
END_TEST

/*
 * SIGKILL leaves no chance to restore: the journal does, with --restore,
 * bit-identically; a journal is refused on another device.
 */
START_TEST(test_fb_restore_after_kill)
{
	char journal[PATH_MAX + 16];
	struct cmd_result res;
	struct loop_fix fx;

	if (!loop_setup(&fx, "fb_restore_after_kill", 0, 0))
		return;
	slow_writes_killed(&fx, journal, sizeof(journal));
	ck_assert_int_eq(access(journal, F_OK), 0);
	ck_assert_uint_gt(scan(fx.dev, 0, fx.size_byte, SCAN_PLANTED,
			       fx.seed), 0);
	run_fb(&res, "--restore", journal, fx.dev, (char *)NULL);
	ck_assert_msg(res.status == 0, "status %d: %s", res.status, res.err);
	cmd_result_free(&res);
	ck_assert_uint_eq(scan(fx.dev, 0, fx.size_byte, SCAN_PLANTED, fx.seed),
			  0);
	ck_assert_int_ne(access(journal, F_OK), 0);
}
END_TEST

/*
 * A new 1 MiB ext4 file system at the start of the device, where the
 * first writing test (-f) was writing: made with mkfs.ext4 in a file and
 * copied there, so that nothing outside the saved ranges changes (the
 * fingerprint cannot tell).  Returns 1, or 0 after loop_skip().
 */
static int new_fs_at_start(const char *test, struct loop_fix *fx)
{
	char img[PATH_MAX + 8];
	unsigned char *buf = dev_alloc_buf(MiB);
	int fd;

	snprintf(img, sizeof(img), "%s.fs", fx->img);
	state_append("ledger", "file %s", img);
	fd = open(img, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, (off_t)MiB), 0);
	close(fd);
	if (!make_ext4(test, img)) {
		dev_free_buf(buf);
		return 0;
	}
	fd = open(img, O_RDONLY | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(read(fd, buf, MiB), (ssize_t)MiB);
	close(fd);
	unlink(img);
	fd = open(fx->dev, O_WRONLY | O_DIRECT | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pwrite(fd, buf, MiB, 0), (ssize_t)MiB);
	ck_assert_int_eq(fsync(fd), 0);
	close(fd);
	dev_free_buf(buf);
	return 1;
}

/*
 * SIGKILL, then a new file system is made where the run was writing,
 * before anyone thinks of --restore: the journal's ranges no longer hold
 * what the run wrote, so --restore refuses (one line, exit 1, not a byte
 * written, the journal kept); --restore --force puts the old data back
 * regardless.  (Before the journal noted what the run wrote, --restore
 * restored over the new file system.)
 */
START_TEST(test_fb_restore_after_mkfs)
{
	char journal[PATH_MAX + 16];
	struct cmd_result res;
	struct loop_fix fx;
	uint64_t fs_hash;

	if (!loop_setup(&fx, "fb_restore_after_mkfs", 0, 0))
		return;
	slow_writes_killed(&fx, journal, sizeof(journal));
	ck_assert_int_eq(access(journal, F_OK), 0);
	if (!new_fs_at_start("fb_restore_after_mkfs", &fx))
		return;
	fs_hash = region_hash(fx.dev, 0, fx.size_byte);
	ck_assert_int_eq(run_fb(&res, "--restore", journal, fx.dev,
				(char *)NULL), 1);
	ck_assert_msg(count_str(res.err, "\n") == 1 &&
		      strstr(res.err, "no longer hold what the interrupted run wrote") &&
		      strstr(res.err, "--force"), "%s", res.err);
	cmd_result_free(&res);
	ck_assert_uint_eq(region_hash(fx.dev, 0, fx.size_byte), fs_hash);
	ck_assert_int_eq(access(journal, F_OK), 0);
	ck_assert_int_eq(run_fb(&res, "--restore", journal, "--force", fx.dev,
				(char *)NULL), 0);
	cmd_result_free(&res);
	ck_assert_int_ne(access(journal, F_OK), 0);
	/* what the journal held is back, over the new file system */
	ck_assert_uint_eq(scan(fx.dev, 0, fx.size_byte, SCAN_PLANTED, fx.seed),
			  0);
}
END_TEST

START_TEST(test_fb_mounted)
{
	struct cmd_result res;
	struct loop_fix fx;

	if (!loop_setup(&fx, "fb_mounted", 0, 0) ||
	    !make_ext4("fb_mounted", fx.dev))
		return;
	mount_ext4(&fx, fx.dev);
	ck_assert_int_eq(run_fb(&res, "-O", "-e", "1M", "-b", "256K", fx.dev,
				(char *)NULL), 1);
	ck_assert_msg(strstr(res.err, fx.mnt) && count_str(res.err, "\n") == 1,
		      "stderr: %s", res.err);
	ck_assert_ptr_null(strstr(res.err, "will overwrite"));
	cmd_result_free(&res);
	ck_assert_int_eq(run_fb(&res, "-a", "-b", "4096", fx.dev,
				(char *)NULL), 0);
	cmd_result_free(&res);
	unmount_and_fsck(&fx, fx.dev);
}
END_TEST

/*
 * A write-protected card (losetup -r): every writing mode says so, as
 * erase does, not "Read-only file system" (issue 9 item 15); a read test
 * still runs.
 */
START_TEST(test_fb_write_protected)
{
	static const char *const modes[][3] = {
		{ "-O", NULL, NULL },
		{ "-p", NULL, NULL },
		{ "-f", "--fat-nr=2", NULL },
		{ "--auto", "--destructive", NULL },
	};
	struct cmd_result res;
	struct loop_fix fx;
	char want[128];
	size_t i;

	if (!loop_setup(&fx, "fb_write_protected", LOOP_RDONLY, 0))
		return;
	snprintf(want, sizeof(want),
		 "flashbench: %s: the device is write-protected\n", fx.dev);
	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		ck_assert_int_eq(run_fb(&res, modes[i][0], fx.dev, modes[i][1],
					(char *)NULL), 1);
		ck_assert_str_eq(res.err, want);
		ck_assert_str_eq(res.out, "");
		cmd_result_free(&res);
	}
	ck_assert_int_eq(run_fb(&res, "-a", "-b", "4096", "-c", "1", fx.dev,
				(char *)NULL), 0);
	cmd_result_free(&res);
	ck_assert_uint_eq(scan(fx.dev, 0, MiB, SCAN_PLANTED, fx.seed), 0);
}
END_TEST

/*
 * -o and --plot never write to a block device, not even the one under
 * the read-only test: refused before anything is opened, every byte of
 * the device as planted.  A character device such as /dev/null is fine.
 */
START_TEST(test_fb_out_block_device)
{
	struct cmd_result res;
	struct loop_fix fx;

	if (!loop_setup(&fx, "fb_out_block_device", 0, 0))
		return;
	ck_assert_int_eq(run_fb(&res, "-a", "-c", "1", "-b", "4096", fx.dev,
				"-o", fx.dev, (char *)NULL), 2);
	ck_assert_msg(strstr(res.err, "a block device") &&
		      count_str(res.err, "flashbench: ") == 1, "%s", res.err);
	ck_assert_str_eq(res.out, "");
	cmd_result_free(&res);
	ck_assert_int_eq(run_fb(&res, "-s", "--simulate", "--scatter-order=4",
				"--plot", fx.dev, (char *)NULL), 2);
	ck_assert_ptr_nonnull(strstr(res.err, "a block device"));
	cmd_result_free(&res);
	ck_assert_int_eq(run_fb(&res, "--analyze", "/dev/null", "--out",
				fx.dev, (char *)NULL), 2);
	cmd_result_free(&res);
	ck_assert_uint_eq(scan(fx.dev, 0, fx.size_byte, SCAN_PLANTED, fx.seed),
			  0);
	ck_assert_int_eq(run_fb(&res, "-s", "--simulate", "--scatter-order=4",
				"-o", "/dev/null", (char *)NULL), 0);
	ck_assert_str_eq(res.out, "");
	cmd_result_free(&res);
}
END_TEST

/*
 * The device itself as --journal or --restore journal: refused before
 * any I/O, no "will overwrite" line, never "--restore=" the device; the
 * device as planted.
 */
START_TEST(test_fb_journal_is_device)
{
	struct cmd_result res;
	struct loop_fix fx;

	if (!loop_setup(&fx, "fb_journal_is_device", 0, 0))
		return;
	ck_assert_int_eq(run_fb(&res, "-O", "-e", "1M", "-b", "256K",
				"--journal", fx.dev, fx.dev, (char *)NULL), 2);
	ck_assert_msg(count_str(res.err, "\n") == 1 &&
		      strstr(res.err, "name the same file") &&
		      !strstr(res.err, "--restore"), "%s", res.err);
	cmd_result_free(&res);
	ck_assert_int_eq(run_fb(&res, "--restore", fx.dev, fx.dev,
				(char *)NULL), 2);
	ck_assert_msg(!strstr(res.err, "--restore="), "%s", res.err);
	cmd_result_free(&res);
	ck_assert_uint_eq(scan(fx.dev, 0, fx.size_byte, SCAN_PLANTED, fx.seed),
			  0);
}
END_TEST

/* ---- no loop device needed ---- */

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

START_TEST(test_erase_not_a_device)
{
	struct cmd_result res;

	ck_assert_int_eq(run_erase(&res, "/dev/null", "0", "512", NULL), 1);
	ck_assert_str_eq(res.err, "erase: /dev/null: not a block device\n");
	cmd_result_free(&res);
	ck_assert_int_eq(run_erase(&res, "/nonexistent", "0", "512", NULL), 1);
	ck_assert_ptr_nonnull(strstr(res.err, "erase: /nonexistent: "));
	cmd_result_free(&res);
	ck_assert_int_eq(run_erase(&res, "--help", NULL, NULL, NULL), 0);
	ck_assert_ptr_nonnull(strstr(res.out, "Usage:\n erase [options] "));
	ck_assert_ptr_nonnull(strstr(res.out, " -h, --help "));
	ck_assert_ptr_nonnull(strstr(res.out, " -V, --version "));
	cmd_result_free(&res);
	ck_assert_int_eq(run_erase(&res, "--version", NULL, NULL, NULL), 0);
	ck_assert_ptr_nonnull(strstr(res.out, FLASHBENCH_VERSION));
	cmd_result_free(&res);
	ck_assert_int_eq(run_erase(&res, "--bogus", "/dev/null", "0", "1"), 2);
	ck_assert_str_eq(res.err, "erase: unrecognized option '--bogus'\n");
	cmd_result_free(&res);
	/* named erase:, not by its full path, on one line (item 14) */
	ck_assert_int_eq(run_erase(&res, "-x", "/dev/null", "0", "1"), 2);
	ck_assert_str_eq(res.err, "erase: unrecognized option '-x'\n");
	cmd_result_free(&res);
}
END_TEST

START_TEST(test_quiet_system)
{
	char *text = NULL;
	size_t len = 0;
	FILE *log = open_memstream(&text, &len);

	ck_assert_ptr_nonnull(log);
	quiet_system(log);
	quiet_system(NULL);	/* must not crash without a log */
	fclose(log);
	ck_assert_msg(count_str(text, "\n") >= 3, "log: %s", text);
	ck_assert_uint_eq(count_str(text, "flashbench: "),
			  count_str(text, "\n"));
	ck_assert_ptr_nonnull(strstr(text, "memory"));
	ck_assert_ptr_nonnull(strstr(text, "CPU priority"));
	ck_assert_ptr_nonnull(strstr(text, "I/O priority"));
	free(text);
}
END_TEST

/* ---- suite ---- */

/* A test case whose tests use loop devices, cleaned up in any case. */
static TCase *loop_tcase(const char *name)
{
	TCase *tc = tcase_create(name);

	tcase_add_checked_fixture(tc, NULL, loop_teardown);
	tcase_add_unchecked_fixture(tc, NULL, loop_teardown);
	tcase_set_timeout(tc, 60);
	return tc;
}

Suite *loop_suite(void)
{
	Suite *s = suite_create("loop");
	TCase *tc;

	runner_pid = getpid();

	tc = loop_tcase("file");
	tcase_add_test(tc, test_dev_regular_file);
	tcase_add_test(tc, test_dev_short_read);
	tcase_add_test(tc, test_dev_not_a_device);
	tcase_add_test(tc, test_erase_not_a_device);
	tcase_add_test(tc, test_quiet_system);
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

	tc = loop_tcase("refuse");
	tcase_add_test(tc, test_refuse_mounted);
	tcase_add_test(tc, test_refuse_partition);
	tcase_add_test(tc, test_refuse_superfloppy);
	tcase_add_test(tc, test_refuse_swap);
	tcase_add_test(tc, test_refuse_loop_backing);
	suite_add_tcase(s, tc);

	tc = loop_tcase("erase");
	tcase_add_test(tc, test_erase_range);
	tcase_add_loop_test(tc, test_erase_bad_args, 0,
			    sizeof(erase_bad) / sizeof(erase_bad[0]));
	tcase_add_test(tc, test_erase_4k);
	tcase_add_test(tc, test_erase_busy);
	suite_add_tcase(s, tc);

	tc = loop_tcase("flashbench");
	tcase_add_test(tc, test_fb_align);
	tcase_add_test(tc, test_fb_scatter);
	tcase_add_test(tc, test_fb_interval);
	tcase_add_test(tc, test_fb_interval_4k);
	tcase_add_loop_test(tc, test_fb_open_au, 0, 2);
	tcase_add_test(tc, test_fb_find_fat);
	tcase_add_test(tc, test_fb_program);
	tcase_add_test(tc, test_fb_mounted);
	tcase_add_test(tc, test_fb_write_protected);
	tcase_add_test(tc, test_fb_auto);
	tcase_add_test(tc, test_fb_auto_4k);
	tcase_add_loop_test(tc, test_fb_preserve, 0, 4);
	tcase_add_loop_test(tc, test_fb_preserve_signal, 0, 2);
	tcase_add_test(tc, test_fb_json_interrupted);
	tcase_add_test(tc, test_fb_restore_after_kill);
	tcase_add_loop_test(tc, test_fb_capacity_preserve, 0, 3);
	tcase_add_test(tc, test_fb_capacity_kill_restore);
	tcase_add_test(tc, test_fb_capacity_preserve_written);
	tcase_add_test(tc, test_fb_capacity_shrink);
	tcase_add_test(tc, test_fb_capacity_kill_restore_written);
	tcase_add_test(tc, test_fb_restore_after_mkfs);
	tcase_add_test(tc, test_fb_out_block_device);
	tcase_add_test(tc, test_fb_journal_is_device);
	suite_add_tcase(s, tc);
	return s;
}

void loop_report(void)
{
	char path[128];
	unsigned int ran = 0, skipped = 0;
	FILE *f;

	if (!runner_pid)
		runner_pid = getpid();
	ledger_sweep();
	snprintf(path, sizeof(path), "%s/tally", state_dir());
	f = fopen(path, "re");
	if (f) {
		char line[256];

		while (fgets(line, sizeof(line), f)) {
			ran += !strncmp(line, "ran ", 4);
			ran -= !strncmp(line, "unran ", 6);
			skipped += !strncmp(line, "skip ", 5);
		}
		fclose(f);
		unlink(path);
	}
	rmdir(state_dir());
	printf("loop-device tests: %u ran, %u skipped\n", ran, skipped);
}
