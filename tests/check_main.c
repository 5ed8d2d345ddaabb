// SPDX-License-Identifier: GPL-2.0-only
/*
 * The test runner: every suite of the project in one binary.  CK_RUN_SUITE
 * and CK_RUN_CASE pick what to run, CK_VERBOSITY how much to say.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "util.h"

/* build/tests/suites.h: SUITE(name) for each tests/test_name.c */
#define SUITE(name) Suite *name##_suite(void);
#include "suites.h"
#undef SUITE

/* rm -rf dir (the documents the schema suite validated). */
static void remove_dir(const char *dir)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", dir);
}

int main(void)
{
	char json_dir[] = "/tmp/flashbench-json.XXXXXX";
	int own_dir = 0;
	SRunner *sr;
	int failed;

	/*
	 * A timeout only catches a test that hangs: give every test case
	 * that sets none two minutes, not Check's 4 s, so that a busy
	 * machine or a sanitizer build is never mistaken for a hang.
	 * Read when the suites below create their test cases.
	 */
	setenv("CK_DEFAULT_TIMEOUT", "120", 0);
	/* every --json document of the run, for the schema suite (last) */
	if (!getenv("FB_JSON_DIR") && mkdtemp(json_dir)) {
		setenv("FB_JSON_DIR", json_dir, 1);
		own_dir = 1;
	}
	sr = srunner_create(NULL);
#define SUITE(name) srunner_add_suite(sr, name##_suite());
#include "suites.h"
#undef SUITE
	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	loop_report();
	if (own_dir)
		remove_dir(json_dir);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
