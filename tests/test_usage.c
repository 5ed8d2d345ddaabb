// SPDX-License-Identifier: GPL-2.0-only
/*
 * How a refused run says so (front/status.c, front/opendev.c): a command
 * line getopt or the arguments refused names --help as util-linux's
 * tools do, every message fits 80 columns, and a device only root may
 * open names sudo (issue 27 item 15).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

static const char help_line[] =
	"Try 'flashbench --help' for more information.\n";

/* The command lines refused before any test: what each says first. */
static const struct {
	const char *args, *says;
	int help;	/* followed by the --help line */
} refused[] = {
	{ "", "flashbench: missing DEVICE\n", 1 },
	{ "-a", "flashbench: missing DEVICE\n", 1 },
	{ "--bogus", "flashbench: unrecognized option '--bogus'\n", 1 },
	{ "--simulate -Z", "flashbench: unrecognized option '-Z'\n", 1 },
	{ "--simulate -a --blocksize",
	  "flashbench: option '--blocksize' requires an argument\n", 1 },
	{ "-a one two",
	  "flashbench: unexpected argument 'two': only one DEVICE\n", 1 },
	/* what is wrong is said in full: no --help needed */
	{ "--destructive --simulate -a", "flashbench: --destructive needs --auto\n",
	  0 },
	{ "--simulate", "flashbench: need at least one test: --auto finds the",
	  0 },
	/* --flush refused in one form, too small or too large (item 19) */
	{ "-C --flush=512K --simulate",
	  "flashbench: invalid --flush '512K': less than 1MiB\n", 0 },
	{ "-C --flush=3G --simulate",
	  "flashbench: invalid --flush '3G': more than a quarter of simulated", 0 },
};

START_TEST(test_refused_names_help)
{
	struct fb_run r;

	fb_run(refused[_i].args, &r);
	ck_assert_int_eq(r.status, 2);
	ck_assert_msg(!strncmp(r.err, refused[_i].says,
			       strlen(refused[_i].says)),
		      "%s: %s", refused[_i].args, r.err);
	if (refused[_i].help) {
		ck_assert_uint_eq(count_str(r.err, help_line), 1);
		ck_assert(strlen(r.err) >= sizeof(help_line) - 1);
		ck_assert_str_eq(r.err + strlen(r.err) -
				 (sizeof(help_line) - 1), help_line);
	} else {
		ck_assert_ptr_null(strstr(r.err, help_line));
	}
	check_width(refused[_i].args, r.err_raw);
	ck_assert_str_eq(r.out, "");
	fb_free(&r);
}
END_TEST

/*
 * A user who may not open a device is told to use sudo; a file they may
 * not read is only "Permission denied".  Run as nobody (setpriv, as
 * root) or as the user running the tests.
 */
static int run_unprivileged(const char *path, struct cmd_result *res)
{
	char *as_nobody[] = { (char *)"/usr/bin/setpriv",
			      (char *)"--reuid=65534", (char *)"--regid=65534",
			      (char *)"--clear-groups",
			      (char *)flashbench_bin(), (char *)"-a",
			      (char *)path, NULL };

	char *version[] = { (char *)"/usr/bin/setpriv",
			    (char *)"--reuid=65534", (char *)"--regid=65534",
			    (char *)"--clear-groups",
			    (char *)flashbench_bin(), (char *)"--version", NULL };
	int runs;

	if (geteuid()) {
		char *direct[] = { (char *)flashbench_bin(), (char *)"-a",
				   (char *)path, NULL };

		return run_cmd(direct, res);
	}
	if (access("/usr/bin/setpriv", X_OK))
		return -1;
	/* nobody may run the binary at all (not under qemu-user, whose
	 * binfmt handler root's tests call for a foreign binary)? */
	if (run_cmd(version, res))
		return -1;
	runs = res->status == 0;
	cmd_result_free(res);
	if (!runs)
		return -1;
	return run_cmd(as_nobody, res);
}

START_TEST(test_permission_names_sudo)
{
	static const char *const devs[] = { "/dev/loop0", "/dev/sda",
					    "/dev/mmcblk0", "/dev/nvme0n1" };
	char file[] = "/tmp/fb-perm-XXXXXX";
	const char *dev = NULL;
	struct cmd_result r;
	struct stat st;
	size_t i;
	int fd;

	/* a regular file nobody may read: no sudo */
	fd = mkstemp(file);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, 1 << 20), 0);
	close(fd);
	ck_assert_int_eq(chmod(file, 0), 0);
	if (run_unprivileged(file, &r)) {
		unlink(file);
		return;	/* no way to drop root here */
	}
	unlink(file);
	if (r.status == 0 || !strstr(r.err, "Permission denied")) {
		cmd_result_free(&r);	/* (a user with CAP_DAC_OVERRIDE) */
		return;
	}
	ck_assert_int_eq(r.status, 1);
	ck_assert_ptr_null(strstr(r.err, "sudo"));
	cmd_result_free(&r);
	/* a block device only root may open: sudo */
	for (i = 0; i < sizeof(devs) / sizeof(devs[0]) && !dev; i++)
		if (!stat(devs[i], &st) && S_ISBLK(st.st_mode) &&
		    !(st.st_mode & 0066))
			dev = devs[i];
	if (!dev)
		return;
	ck_assert_int_eq(run_unprivileged(dev, &r), 0);
	ck_assert_int_eq(r.status, 1);
	ck_assert_msg(strstr(r.err, "Permission denied") &&
		      strstr(r.err, "sudo"), "%s", r.err);
	check_width(dev, r.err);
	cmd_result_free(&r);
}
END_TEST

Suite *usage_suite(void)
{
	Suite *s = suite_create("usage");
	TCase *tc = tcase_create("usage");

	tcase_add_loop_test(tc, test_refused_names_help, 0,
			    (int)(sizeof(refused) / sizeof(refused[0])));
	tcase_add_test(tc, test_permission_names_sudo);
	suite_add_tcase(s, tc);
	return s;
}
