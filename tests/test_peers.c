// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulated card as the kernel sees it (tests/peers): fusecard shows
 * the card as a file, run-peer puts a loop device with direct I/O over
 * it and runs a command on that device.  Here the command is dd with
 * O_DIRECT; the tests check that what is written comes back, that every
 * read and write reaches the card (no page cache between), that a fake
 * card aliases as planted, that a card of 4 KiB sectors is a 4Kn block
 * device, and that run-peer leaves nothing behind.
 *
 * Needs root, /dev/fuse, losetup, fusermount3 and the helper (built by
 * make check where libfuse3-dev is installed).  When any is missing the
 * test is skipped with a printed reason, unless CI is "true": then it
 * fails.  No timing is asserted.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dev.h"
#include "util.h"

#define MiB ((size_t)1024 * 1024)

/* What the helper counted for one kind of request (its --stats file). */
struct peer_stats {
	uint64_t count;
	uint64_t bytes;
	uint64_t errors;
};

/* One run of run-peer. */
struct peer_run {
	char tmp[96];			/* its directory ($PEER_TMP) */
	struct cmd_result res;		/* run-peer's status and output */
	struct peer_stats read, write;
	char loop[32];			/* "loopN" it set up */
	char mnt[PATH_MAX];		/* the mount point it set up */
};

/*
 * The peers cannot run here: under CI that is a failure, elsewhere a
 * printed skip.  Returns 0 so callers can return it.
 */
static int peer_skip(const char *test, const char *why)
{
	const char *ci = getenv("CI");

	if (ci && !strcmp(ci, "true"))
		ck_abort_msg("peers test %s cannot run under CI: %s", test,
			     why);
	printf("peers test %s skipped: %s\n", test, why);
	fflush(stdout);
	return 0;
}

/* 1 when everything the peers need is here, else 0 after peer_skip(). */
static int peer_ready(const char *test)
{
	const char *bin = getenv("FUSECARD_BIN");

	if (geteuid())
		return peer_skip(test, "FUSE and loop devices need root");
	if (!bin || access(bin, X_OK))
		return peer_skip(test, "no fusecard helper (make check builds"
				 " it where libfuse3-dev is installed)");
	if (access("/dev/fuse", R_OK | W_OK))
		return peer_skip(test, "no /dev/fuse");
	if (access("/usr/bin/fusermount3", X_OK) &&
	    access("/bin/fusermount3", X_OK))
		return peer_skip(test, "fusermount3 is not installed (fuse3)");
	if (access("/usr/sbin/losetup", X_OK) && access("/sbin/losetup", X_OK))
		return peer_skip(test, "losetup is not installed");
	if (access("tests/peers/run-peer", X_OK))
		return peer_skip(test, "tests/peers/run-peer not found"
				 " (run from the top of the tree)");
	return 1;
}

/* Write len bytes of seeded pseudo-random data to path. */
static void write_pattern(const char *path, size_t len, uint64_t seed)
{
	void *buf = malloc(len);
	FILE *f = fopen(path, "we");

	ck_assert(buf && f);
	dev_fill(buf, len, DEV_PAT_RANDOM, seed);
	ck_assert_uint_eq(fwrite(buf, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
	free(buf);
}

/* Number of bytes at which file path differs from want (len bytes). */
static size_t count_diff(const char *path, const unsigned char *want,
			 size_t len)
{
	unsigned char *got = malloc(len);
	FILE *f = fopen(path, "re");
	size_t n, i, diff = 0;

	ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
	ck_assert(got != NULL);
	n = fread(got, 1, len, f);
	fclose(f);
	ck_assert_msg(n == len, "%s: %zu bytes, not %zu", path, n, len);
	for (i = 0; i < len; i++)
		diff += got[i] != want[i];
	free(got);
	return diff;
}

/* Read the helper's totals for op from its stats file. */
static void read_stats(const char *path, const char *op,
		       struct peer_stats *st)
{
	char line[256], name[16];
	FILE *f = fopen(path, "re");

	ck_assert_msg(f != NULL, "no stats from fusecard: %s", path);
	memset(st, 0, sizeof(*st));
	while (fgets(line, sizeof(line), f)) {
		uint64_t v[8];

		if (sscanf(line, "%15s %" SCNu64 " %" SCNu64 " %" SCNu64
			   " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
			   " %" SCNu64, name, &v[0], &v[1], &v[2], &v[3],
			   &v[4], &v[5], &v[6], &v[7]) == 9 &&
		    !strcmp(name, op)) {
			st->count = v[0];
			st->bytes = v[1];
			st->errors = v[7];
		}
	}
	fclose(f);
}

/* Take the loop device and mount point from run-peer's one line. */
static void parse_setup_line(struct peer_run *r)
{
	const char *on = strstr(r->res.err, " on /dev/");
	const char *over = strstr(r->res.err, " over ");

	ck_assert_msg(on && over, "no set-up line from run-peer: %s",
		      r->res.err);
	ck_assert_int_eq(sscanf(on, " on /dev/%31s", r->loop), 1);
	ck_assert_int_eq(sscanf(over, " over %4095[^ ,]", r->mnt), 1);
	ck_assert_msg(strlen(r->mnt) > 5 &&
		      !strcmp(r->mnt + strlen(r->mnt) - 5, "/card"),
		      "odd card path %s", r->mnt);
	r->mnt[strlen(r->mnt) - 5] = '\0';
}

/*
 * Run script (sh -c, with $PEER_DEV and $PEER_TMP) through run-peer on
 * the card of spec; collect the helper's totals.
 */
static void peer_run(struct peer_run *r, const char *spec, const char *script)
{
	char stats[128];
	char *argv[] = { "tests/peers/run-peer", "--stats", stats,
			 (char *)spec, "/bin/sh", "-c", (char *)script, NULL };

	snprintf(stats, sizeof(stats), "%s/stats", r->tmp);
	setenv("PEER_TMP", r->tmp, 1);
	ck_assert_int_eq(run_cmd(argv, &r->res), 0);
	ck_assert_msg(r->res.status == 0, "run-peer %s: status %d: %s", spec,
		      r->res.status, r->res.err);
	parse_setup_line(r);
	read_stats(stats, "read", &r->read);
	read_stats(stats, "write", &r->write);
}

/* run-peer left neither its loop device on the card nor its mount. */
static void assert_torn_down(const struct peer_run *r)
{
	char path[128], back[PATH_MAX] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/sys/block/%s/loop/backing_file",
		 r->loop);
	f = fopen(path, "re");
	if (f) {
		/* the number may be someone else's by now: not our file */
		if (!fgets(back, sizeof(back), f))
			back[0] = '\0';
		fclose(f);
	}
	ck_assert_msg(!strstr(back, r->mnt), "%s still on %s", r->loop, back);
	ck_assert_msg(access(r->mnt, F_OK) && errno == ENOENT,
		      "mount point %s left behind", r->mnt);
}

/*
 * The suite's scratch directory, made in the runner before the tests
 * fork and removed after them, so a failed test leaves nothing behind.
 */
static char scratch[64];

static int remove_entry(const char *path, const struct stat *st, int flag,
			struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void scratch_make(void)
{
	strcpy(scratch, "/tmp/flashbench-peers.XXXXXX");
	if (!mkdtemp(scratch))
		scratch[0] = '\0';
}

static void scratch_remove(void)
{
	if (scratch[0])
		nftw(scratch, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
}

/* A fresh run with its own directory under the scratch directory. */
static void peer_init(struct peer_run *r, const char *name)
{
	memset(r, 0, sizeof(*r));
	ck_assert_msg(scratch[0], "no scratch directory");
	snprintf(r->tmp, sizeof(r->tmp), "%s/%s", scratch, name);
	ck_assert_msg(!mkdir(r->tmp, 0700), "mkdir %s: %s", r->tmp,
		      strerror(errno));
}

/*
 * 4 MiB written with O_DIRECT at 32 MiB and read back twice: the same
 * bytes each time; the card saw exactly the 4 MiB written and both
 * reads (a page cache would have answered the second).
 */
START_TEST(test_peer_direct)
{
	const size_t len = 4 * MiB;
	unsigned char *want;
	struct peer_run r;
	char path[128];

	if (!peer_ready("direct"))
		return;
	want = malloc(len);
	ck_assert(want != NULL);
	peer_init(&r, "direct");
	snprintf(path, sizeof(path), "%s/p", r.tmp);
	write_pattern(path, len, 17);
	dev_fill(want, len, DEV_PAT_RANDOM, 17);
	peer_run(&r, "size=256M",
		 "dd if=$PEER_TMP/p of=$PEER_DEV bs=1M seek=32 oflag=direct"
		 " status=none && for i in 1 2; do dd if=$PEER_DEV"
		 " of=$PEER_TMP/r$i bs=1M skip=32 count=4 iflag=direct"
		 " status=none || exit 1; done");
	ck_assert(strstr(r.res.err, "run-peer: card 'size=256M' on /dev/"));
	snprintf(path, sizeof(path), "%s/r1", r.tmp);
	ck_assert_uint_eq(count_diff(path, want, len), 0);
	snprintf(path, sizeof(path), "%s/r2", r.tmp);
	ck_assert_uint_eq(count_diff(path, want, len), 0);
	ck_assert_uint_eq(r.write.bytes, len);
	ck_assert_uint_eq(r.write.errors, 0);
	ck_assert_uint_ge(r.read.bytes, 2 * len);
	ck_assert_uint_eq(r.read.errors, 0);
	assert_torn_down(&r);
	cmd_result_free(&r.res);
	free(want);
}
END_TEST

/* A fake card through the loop device, and what reads must show. */
static const struct {
	const char *spec;
	unsigned int write_mib;	/* 1 MiB of pattern written here */
	unsigned int read_mib;	/* 1 MiB read back here */
	int zeros;		/* 1: the read shows zeros, 0: the pattern */
} fake_row[] = {
	/* addresses wrap modulo the 16 MiB that really store data */
	{ "size=64M,real_size=16M,fake=wrap", 40, 8, 0 },
	{ "size=64M,real_size=16M,fake=wrap", 2, 50, 0 },
	/* writes past 16 MiB are lost, reads there return zeros */
	{ "size=64M,real_size=16M,fake=limbo-zero", 40, 40, 1 },
	{ "size=64M,real_size=16M,fake=limbo-zero", 4, 4, 0 },
};

START_TEST(test_peer_fake)
{
	unsigned char *want;
	struct peer_run r;
	char path[128], script[512];

	if (!peer_ready("fake"))
		return;
	want = calloc(1, MiB);
	ck_assert(want != NULL);
	snprintf(path, sizeof(path), "fake%d", _i);
	peer_init(&r, path);
	snprintf(path, sizeof(path), "%s/p", r.tmp);
	write_pattern(path, MiB, 100 + _i);
	if (!fake_row[_i].zeros)
		dev_fill(want, MiB, DEV_PAT_RANDOM, 100 + _i);
	snprintf(script, sizeof(script),
		 "dd if=$PEER_TMP/p of=$PEER_DEV bs=1M seek=%u oflag=direct"
		 " status=none && dd if=$PEER_DEV of=$PEER_TMP/r1 bs=1M"
		 " skip=%u count=1 iflag=direct status=none",
		 fake_row[_i].write_mib, fake_row[_i].read_mib);
	peer_run(&r, fake_row[_i].spec, script);
	snprintf(path, sizeof(path), "%s/r1", r.tmp);
	ck_assert_msg(count_diff(path, want, MiB) == 0,
		      "%s: 1 MiB written at %u MiB, read at %u MiB: not %s",
		      fake_row[_i].spec, fake_row[_i].write_mib,
		      fake_row[_i].read_mib,
		      fake_row[_i].zeros ? "zeros" : "the pattern");
	ck_assert_uint_eq(r.write.bytes, MiB);
	assert_torn_down(&r);
	cmd_result_free(&r.res);
	free(want);
}
END_TEST

/*
 * sector=4K through the loop device: the kernel states 4096-byte logical
 * blocks and refuses a 512-byte O_DIRECT read with EINVAL before the
 * card sees it; a 4 KiB read goes through.
 */
START_TEST(test_peer_4kn)
{
	struct peer_run r;
	char path[128], text[64] = "";
	FILE *f;

	if (!peer_ready("4kn"))
		return;
	peer_init(&r, "4kn");
	peer_run(&r, "size=64M,sector=4K",
		 "blockdev --getss $PEER_DEV > $PEER_TMP/ss &&"
		 " ! dd if=$PEER_DEV of=/dev/null bs=512 count=1 iflag=direct"
		 " status=none 2> $PEER_TMP/e &&"
		 " dd if=$PEER_DEV of=/dev/null bs=4096 count=1 iflag=direct"
		 " status=none");
	snprintf(path, sizeof(path), "%s/ss", r.tmp);
	f = fopen(path, "re");
	ck_assert(f != NULL);
	ck_assert_ptr_nonnull(fgets(text, sizeof(text), f));
	fclose(f);
	ck_assert_str_eq(text, "4096\n");
	snprintf(path, sizeof(path), "%s/e", r.tmp);
	f = fopen(path, "re");
	ck_assert(f != NULL);
	ck_assert_ptr_nonnull(fgets(text, sizeof(text), f));
	fclose(f);
	ck_assert_msg(strstr(text, "Invalid argument"), "dd said: %s", text);
	ck_assert_uint_eq(r.read.errors, 0);
	assert_torn_down(&r);
	cmd_result_free(&r.res);
}
END_TEST

Suite *peers_suite(void)
{
	Suite *s = suite_create("peers");
	TCase *tc = tcase_create("peers");

	tcase_add_unchecked_fixture(tc, scratch_make, scratch_remove);

	tcase_add_test(tc, test_peer_direct);
	tcase_add_loop_test(tc, test_peer_fake, 0,
			    sizeof(fake_row) / sizeof(fake_row[0]));
	tcase_add_test(tc, test_peer_4kn);
	suite_add_tcase(s, tc);
	return s;
}
