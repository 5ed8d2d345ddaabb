// SPDX-License-Identifier: GPL-2.0-only
/*
 * make install and make uninstall into a scratch DESTDIR: what is
 * installed under which name, and that uninstall leaves nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "docread.h"
#include "util.h"

/*
 * make install puts the completion under both command names, as
 * bash-completion loads it by the name typed; make uninstall removes
 * everything install made (issue 9 item 22).  The discard tool is
 * installed as flashbench-erase, as Debian's package has it, and names
 * itself so; its man page and flashbench(1)'s references to it follow the
 * name (issue 20 item 4).
 */
START_TEST(test_install_uninstall)
{
	static const char *const files[] = {
		"usr/bin/flashbench", "usr/bin/flashbench-erase",
		"usr/share/man/man1/flashbench.1",
		"usr/share/man/man1/flashbench-erase.1",
		"usr/share/bash-completion/completions/flashbench",
		"usr/share/bash-completion/completions/flashbench-erase",
		"usr/share/flashbench/flashbench.schema.json",
	};
	char dir[] = "/tmp/fb_installXXXXXX", cmd[5120], path[512];
	char *argv[] = { (char *)"/bin/sh", (char *)"-c", cmd, NULL };
	char *erase_argv[] = { path, NULL };
	char *a, *b;
	struct cmd_result r;
	size_t i;

	if (tool_missing("make", "make"))
		return;
	ck_assert_ptr_nonnull(mkdtemp(dir));
	/* not the jobserver of a make check that may be running this */
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s install PREFIX=/usr DESTDIR='%s'",
		 srcdir(), dir);
	ck_assert_int_eq(run_cmd(argv, &r), 0);
	ck_assert_msg(r.status == 0, "make install: %s", r.err);
	cmd_result_free(&r);
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		ck_assert_msg(access(path, R_OK) == 0, "not installed: %s",
			      files[i]);
	}
	snprintf(path, sizeof(path), "%s/usr/bin/erase", dir);
	ck_assert_msg(access(path, F_OK) != 0, "installed as a bare erase");
	/* the erase tool's completion is the same script */
	snprintf(path, sizeof(path), "%s/%s", dir, files[4]);
	a = read_all(path, NULL);
	snprintf(path, sizeof(path), "%s/%s", dir, files[5]);
	b = read_all(path, NULL);
	ck_assert(a && b && !strcmp(a, b));
	ck_assert_ptr_nonnull(strstr(b,
		"complete -F _flashbench_erase erase flashbench-erase\n"));
	free(a);
	free(b);
	/* the pages name the installed command, never a bare erase */
	snprintf(path, sizeof(path), "%s/%s", dir, files[3]);
	a = read_all(path, NULL);
	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(strstr(a, "\n.TH FLASHBENCH\\-ERASE 1 "));
	ck_assert_ptr_nonnull(strstr(a, ".SH NAME\nflashbench\\-erase \\- "));
	ck_assert_ptr_nonnull(strstr(a,
				     ".SH SYNOPSIS\n.B flashbench\\-erase\n"));
	ck_assert_ptr_null(strstr(a, "\n.B erase\n"));
	ck_assert_ptr_null(strstr(a, "sudo erase "));
	free(a);
	snprintf(path, sizeof(path), "%s/%s", dir, files[2]);
	a = read_all(path, NULL);
	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(strstr(a, "\n.BR flashbench\\-erase (1)"));
	ck_assert_ptr_null(strstr(a, "\n.BR erase (1)"));
	free(a);
	/* and so do the tool's messages, run by that name */
	snprintf(path, sizeof(path), "%s/%s", dir, files[1]);
	ck_assert_int_eq(run_cmd(erase_argv, &r), 0);
	ck_assert_int_eq(r.status, 2);
	ck_assert_msg(!strncmp(r.err, "flashbench-erase: expected ", 27),
		      "flashbench-erase says: %s", r.err);
	cmd_result_free(&r);
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s uninstall PREFIX=/usr DESTDIR='%s' && "
		 "test -z \"$(find '%s' -type f -o -type l)\" && rm -rf '%s'",
		 srcdir(), dir, dir, dir);
	ck_assert_int_eq(run_cmd(argv, &r), 0);
	ck_assert_msg(r.status == 0, "make uninstall left files: %s %s",
		      r.out, r.err);
	cmd_result_free(&r);
}
END_TEST

Suite *install_suite(void)
{
	Suite *s = suite_create("install");
	TCase *tc;

	tc = tcase_create("install");
	tcase_add_test(tc, test_install_uninstall);
	tcase_set_timeout(tc, 300);
	suite_add_tcase(s, tc);
	return s;
}
