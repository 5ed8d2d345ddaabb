// SPDX-License-Identifier: GPL-2.0-only
/*
 * --preserve on real loop devices: what a writing test overwrote written
 * back after a signal or a kill, --restore from the journal, -C's writes
 * saved and restored, only what was written written back.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "fault.h"
#include "flashbench.h"
#include "loopdev.h"
#include "recdev.h"
#include "util.h"

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
	unwrap_err(res.err);
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

Suite *loop_preserve_suite(void)
{
	Suite *s = suite_create("loop_preserve");
	TCase *tc;

	tc = loop_tcase("preserve");
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
	suite_add_tcase(s, tc);
	return s;
}
