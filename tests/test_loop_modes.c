// SPDX-License-Identifier: GPL-2.0-only
/*
 * flashbench's modes on real loop devices (O_DIRECT against the host's
 * block layer): the classic tests, --auto, and what is refused there (a
 * mounted or write-protected card, the device as -o, --plot or journal).
 */
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "loopdev.h"
#include "util.h"

/* ---- flashbench on a loop device ---- */

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
				     "erase size: none\n"));
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
	unwrap_text(res.out);
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
	unwrap_err(res.err);
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

Suite *loop_modes_suite(void)
{
	Suite *s = suite_create("loop_modes");
	TCase *tc;

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
	tcase_add_test(tc, test_fb_out_block_device);
	tcase_add_test(tc, test_fb_journal_is_device);
	suite_add_tcase(s, tc);
	return s;
}
