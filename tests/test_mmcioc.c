// SPDX-License-Identifier: GPL-2.0-only
/*
 * An eMMC's EXT_CSD asked of the device (device/mmcioc.c), where no eMMC
 * is needed: a device that is none (a character device, a regular file,
 * a loop device) and a user who is not root are each refused in one
 * phrase, and --registers says it in one line.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "c.h"
#include "mmcioc.h"
#include "util.h"

/* losetup, where it is installed; NULL if not. */
static const char *losetup(void)
{
	static const char *const paths[] = {
		"/usr/sbin/losetup", "/sbin/losetup", "/usr/bin/losetup",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(paths); i++)
		if (!access(paths[i], X_OK))
			return paths[i];
	return NULL;
}

/*
 * A loop device over a file of 16 MiB into dev; 0, or -1 (said) where
 * none can be made (no losetup, not root, no loop driver).
 */
static int loop_attach(char *img, char *dev, size_t len)
{
	char *argv[] = { (char *)losetup(), (char *)"-f", (char *)"--show",
			 img, NULL };
	struct cmd_result res;
	int fd = mkstemp(img), ok;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, 16 << 20), 0);
	close(fd);
	if (!argv[0] || getuid() || run_cmd(argv, &res)) {
		printf("extcsd: no loop device (losetup, root): skipped\n");
		unlink(img);
		return -1;
	}
	ok = res.status == 0 && !strncmp(res.out, "/dev/loop", 9);
	snprintf(dev, len, "%.*s", (int)strcspn(res.out, "\n"), res.out);
	cmd_result_free(&res);
	if (!ok) {
		printf("extcsd: losetup failed: skipped\n");
		unlink(img);
	}
	return ok ? 0 : -1;
}

static void loop_detach(char *img, const char *dev)
{
	char *argv[] = { (char *)losetup(), (char *)"-d", (char *)dev, NULL };
	struct cmd_result res;

	if (!run_cmd(argv, &res))
		cmd_result_free(&res);
	unlink(img);
}

/* ext_csd_read_device as user nobody, in a child; its return value. */
static int read_as_nobody(const char *dev)
{
	pid_t pid = fork();
	int status;

	ck_assert_int_ge(pid, 0);
	if (!pid) {
		struct ext_csd_raw raw;
		char why[200];

		if (setgid(65534) || setuid(65534))
			_exit(100);
		_exit(-ext_csd_read_device(dev, &raw, why, sizeof(why)));
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	return -WEXITSTATUS(status);
}

/*
 * The ioctl where there is no eMMC: a character device, a regular file,
 * a loop device (a block device of another driver) and a user who is
 * not root each refused in one phrase; --registers says it in one line
 * (exit 2 for no eMMC, 1 for a refusal).
 */
START_TEST(test_ioctl_refused)
{
	char img[] = "/tmp/fb_extcsd_imgXXXXXX", dev[64], args[96], why[200];
	struct ext_csd_raw raw;
	struct fb_run r;

	ck_assert_int_eq(ext_csd_read_device("/dev/null", &raw, why,
					     sizeof(why)), -ENOTTY);
	ck_assert_str_eq(why, "not an MMC block device (a character device)");
	ck_assert_int_eq(raw.form, EXT_CSD_NONE);
	ck_assert_int_eq(ext_csd_read_device("tests/data/extcsd/README.md",
					     &raw, why, sizeof(why)), -ENOTTY);
	ck_assert_str_eq(why, "not an MMC block device (a regular file)");
	ck_assert_int_eq(ext_csd_read_device("/nonexistent/mmcblk0", &raw,
					     why, sizeof(why)), -ENOENT);
	fb_run("--registers=/dev/null --json", &r);
	ck_assert_int_eq(r.status, 2);
	ck_assert_str_eq(r.out, "");
	ck_assert_str_eq(r.err,
			 "flashbench: --registers /dev/null: not an MMC block device (a character device)\n");
	fb_free(&r);
	if (loop_attach(img, dev, sizeof(dev)))
		return;
	ck_assert_int_eq(ext_csd_read_device(dev, &raw, why, sizeof(why)),
			 -ENOTTY);
	ck_assert_msg(!strncmp(why, "not an MMC block device (MMC_IOC_CMD: ",
			       38), "%s", why);
	snprintf(args, sizeof(args), "--registers=%s", dev);
	fb_run(args, &r);
	ck_assert_int_eq(r.status, 2);
	ck_assert_str_eq(r.out, "");
	ck_assert_msg(strstr(r.err, ": not an MMC block device (MMC_IOC_CMD: "),
		      "%s", r.err);
	ck_assert_uint_eq(count_str(r.err, "\n"), 1);
	fb_free(&r);
	ck_assert_int_eq(read_as_nobody(dev), -EACCES);
	loop_detach(img, dev);
}
END_TEST

Suite *mmcioc_suite(void)
{
	Suite *s = suite_create("mmcioc");
	TCase *tc = tcase_create("mmcioc");

	tcase_add_test(tc, test_ioctl_refused);
	suite_add_tcase(s, tc);
	return s;
}
