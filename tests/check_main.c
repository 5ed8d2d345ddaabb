// SPDX-License-Identifier: GPL-2.0-only
/*
 * The test runner: every suite of the project in one binary.  CK_RUN_SUITE
 * and CK_RUN_CASE pick what to run, CK_VERBOSITY how much to say;
 * FB_SUITES (only these) and FB_SKIP_SUITES (all but these), each a list
 * of suite names separated by spaces, split the suites between runners
 * that run side by side (make check runs three).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* build/tests/suites.h: SUITE(name) for each tests/test_name.c */
#define SUITE(name) Suite *name##_suite(void);
#include "suites.h"
#undef SUITE

/* Is name a word of the space-separated list? */
static int listed(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;

	while ((p = strstr(p, name))) {
		if ((p == list || p[-1] == ' ') && (!p[n] || p[n] == ' '))
			return 1;
		p += n;
	}
	return 0;
}

static int wanted(const char *name)
{
	const char *only = getenv("FB_SUITES"), *skip = getenv("FB_SKIP_SUITES");
	const char *one = getenv("CK_RUN_SUITE");

	if (one && *one && strcmp(one, name))
		return 0;
	if (only && !listed(only, name))
		return 0;
	return !(skip && listed(skip, name));
}

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
	int failed, added = 0;

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
#define SUITE(name) \
	if (wanted(#name)) { \
		srunner_add_suite(sr, name##_suite()); \
		added++; \
	}
#include "suites.h"
#undef SUITE
	if (!added) {		/* the other runner has them all */
		srunner_free(sr);
		if (own_dir)
			remove_dir(json_dir);
		return EXIT_SUCCESS;
	}
	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	loop_report();
	if (own_dir)
		remove_dir(json_dir);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
