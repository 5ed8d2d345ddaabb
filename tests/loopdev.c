// SPDX-License-Identifier: GPL-2.0-only
/*
 * Real loop devices for the suites that test on them (blockdev, holders,
 * erase, loop_modes, loop_preserve): each test builds its own loop device
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
#include <time.h>
#include <unistd.h>

#include "loopdev.h"

/* The test runner's pid, taken in loop_tcase() before Check forks. */
static pid_t runner_pid;

/* This test already counted as ran (a later skip takes it back). */
static int counted_ran;

/* ---- small helpers ---- */

/* The runner's scratch directory, created on first use. */
const char *state_dir(void)
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
void state_append(const char *file, const char *fmt, ...)
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
const char *find_tool(const char *name)
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
int run_tool(struct cmd_result *res, const char *tool, ...)
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
int run_erase(struct cmd_result *res, const char *a, const char *b,
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
void planted(void *buf, uint64_t seed, uint64_t off, size_t len)
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
uint64_t scan(const char *path, uint64_t off, uint64_t len,
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
uint64_t region_hash(const char *path, uint64_t off, uint64_t len)
{
	return scan(path, off, len, SCAN_HASH, 0);
}

/* A number the kernel reports for a device via blockdev(8). */
uint64_t blockdev_get(const char *opt, const char *dev)
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
void loop_skip(const char *test, const char *fmt, ...)
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
int loop_setup(struct loop_fix *fx, const char *test,
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
	/* a name no file has: one a killed run of the same pid left is skipped */
	do
		snprintf(fx->img, sizeof(fx->img), "%s/flashbench-img.%ld.%u",
			 image_dir(), (long)getpid(), ++serial);
	while (!access(fx->img, F_OK));
	fx->seed = (uint64_t)getpid() * 1000 + serial;
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
int make_ext4(const char *test, const char *dev)
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
void mount_ext4(struct loop_fix *fx, const char *dev)
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
void unmount_and_fsck(struct loop_fix *fx, const char *dev)
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

/* Run flashbench with the NULL-terminated arguments; returns its status. */
int run_fb(struct cmd_result *res, ...)
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

/* A test case whose tests use loop devices, cleaned up in any case. */
TCase *loop_tcase(const char *name)
{
	TCase *tc = tcase_create(name);

	if (!runner_pid)	/* in the runner, before Check forks */
		runner_pid = getpid();
	tcase_add_checked_fixture(tc, NULL, loop_teardown);
	tcase_add_unchecked_fixture(tc, NULL, loop_teardown);
	tcase_set_timeout(tc, 60);
	return tc;
}

/* Print how many loop-device tests ran and how many were skipped. */
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

