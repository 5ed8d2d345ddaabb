// SPDX-License-Identifier: GPL-2.0-only
/*
 * Refusing a device in use (device/holders.c), on real loop devices:
 * mounted, a partition of it mounted, a superfloppy, swap, the backing
 * file of another loop device; dev_open and erase alike.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/swap.h>

#include "blockdev.h"
#include "holders.h"
#include "loopdev.h"
#include "util.h"

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

	/* flashbench names a device that is the one mounted once (issue
	 * 27 item 19: "flashbench: /dev/sdb: /dev/sdb is mounted on ...") */
	ck_assert_int_eq(run_fb(&res, "-p", target, (char *)NULL), 1);
	unwrap_err(res.err);
	if (!strncmp(holder, target, strlen(target)) &&
	    holder[strlen(target)] == ' ')
		snprintf(msg, sizeof(msg), "flashbench: %s\n", holder);
	else
		snprintf(msg, sizeof(msg), "flashbench: %s: %s\n", target,
			 holder);
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

Suite *holders_suite(void)
{
	Suite *s = suite_create("holders");
	TCase *tc;

	tc = loop_tcase("refuse");
	tcase_add_test(tc, test_refuse_mounted);
	tcase_add_test(tc, test_refuse_partition);
	tcase_add_test(tc, test_refuse_superfloppy);
	tcase_add_test(tc, test_refuse_swap);
	tcase_add_test(tc, test_refuse_loop_backing);
	suite_add_tcase(s, tc);
	return s;
}
