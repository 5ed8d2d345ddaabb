// SPDX-License-Identifier: GPL-2.0-only
/*
 * Running quietly (front/quiet.c): the memory, CPU and I/O priority
 * lines it logs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quiet.h"
#include "util.h"

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

Suite *quiet_suite(void)
{
	Suite *s = suite_create("quiet");
	TCase *tc;

	tc = tcase_create("quiet");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_quiet_system);
	suite_add_tcase(s, tc);
	return s;
}
