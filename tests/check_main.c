// SPDX-License-Identifier: GPL-2.0-only
/*
 * The test runner: every suite of the project in one binary.  CK_RUN_SUITE
 * and CK_RUN_CASE pick what to run, CK_VERBOSITY how much to say.
 */
#include <check.h>
#include <stdlib.h>

#include "util.h"

int main(void)
{
	SRunner *sr = srunner_create(format_suite());
	int failed;

	srunner_add_suite(sr, sim_suite());
	srunner_add_suite(sr, bench_suite());
	srunner_add_suite(sr, vm_suite());
	srunner_add_suite(sr, writes_suite());
	srunner_add_suite(sr, cli_suite());
	srunner_add_suite(sr, auto_suite());
	srunner_add_suite(sr, loop_suite());
	srunner_add_suite(sr, analyze_suite());
	srunner_add_suite(sr, modes_suite());
	srunner_add_suite(sr, safe_suite());
	srunner_add_suite(sr, docs_suite());
	srunner_add_suite(sr, modetable_suite());
	srunner_add_suite(sr, sweep_suite());
	srunner_add_suite(sr, capacity_suite());
	srunner_add_suite(sr, golden_suite());
	srunner_add_suite(sr, card_suite());
	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	loop_report();
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
