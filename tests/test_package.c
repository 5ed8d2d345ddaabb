// SPDX-License-Identifier: GPL-2.0-only
/*
 * The Debian package's sources (debian/) and what the README says of
 * them: a Maintainer that names the project and a no-reply address, the
 * changelog signed by it, and the README saying that dpkg-buildpackage
 * runs make check unless DEB_BUILD_OPTIONS=nocheck (issue 27 item 19).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* A file of the source tree (the tests run at its top), malloc'd. */
static char *slurp(const char *path)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = fopen(path, "r");

	ck_assert_msg(f != NULL, "cannot read %s", path);
	ck_assert_int_eq(getdelim(&buf, &len, '\0', f) > 0, 1);
	fclose(f);
	return buf;
}

#define MAINTAINER "flashbench developers <flashbench@noreply.example.org>"

START_TEST(test_maintainer)
{
	char *control = slurp("debian/control");
	char *changelog = slurp("debian/changelog");

	ck_assert_ptr_nonnull(strstr(control, "\nMaintainer: " MAINTAINER "\n"));
	ck_assert_ptr_null(strstr(control, "Seed "));
	/* the newest entry is signed by the maintainer */
	ck_assert_ptr_nonnull(strstr(changelog, "\n -- " MAINTAINER "  "));
	free(control);
	free(changelog);
}
END_TEST

START_TEST(test_readme_nocheck)
{
	char *rules = slurp("debian/rules");
	char *readme = slurp("README");

	/* dh_auto_test runs make check: the README says how to skip it */
	ck_assert_ptr_null(strstr(rules, "override_dh_auto_test"));
	ck_assert_ptr_nonnull(strstr(readme, "dpkg-buildpackage"));
	ck_assert_ptr_nonnull(strstr(readme, "make check first"));
	ck_assert_ptr_nonnull(strstr(readme, "DEB_BUILD_OPTIONS=nocheck"));
	free(rules);
	free(readme);
}
END_TEST

Suite *package_suite(void)
{
	Suite *s = suite_create("package");
	TCase *tc = tcase_create("debian");

	tcase_add_test(tc, test_maintainer);
	tcase_add_test(tc, test_readme_nocheck);
	suite_add_tcase(s, tc);
	return s;
}
