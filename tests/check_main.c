// SPDX-License-Identifier: GPL-2.0-only
/*
 * The test runner: every suite of the project in one binary.  CK_RUN_SUITE
 * and CK_RUN_CASE pick what to run, CK_VERBOSITY how much to say.
 */
#include <check.h>
#include <stdlib.h>

#include "util.h"

/* build/tests/suites.h: SUITE(name) for each tests/test_name.c */
#define SUITE(name) Suite *name##_suite(void);
#include "suites.h"
#undef SUITE

int main(void)
{
	SRunner *sr = srunner_create(NULL);
	int failed;

#define SUITE(name) srunner_add_suite(sr, name##_suite());
#include "suites.h"
#undef SUITE
	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	loop_report();
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
