/* SPDX-License-Identifier: GPL-2.0-only */
/* Helpers shared by the test suites. */
#ifndef FLASHBENCH_TESTS_UTIL_H
#define FLASHBENCH_TESTS_UTIL_H

#include <check.h>
#include <stddef.h>

#include "dev.h"

Suite *format_suite(void);
Suite *sim_suite(void);
Suite *bench_suite(void);
Suite *vm_suite(void);
Suite *writes_suite(void);
Suite *cli_suite(void);
Suite *loop_suite(void);
Suite *auto_suite(void);
Suite *analyze_suite(void);
Suite *safe_suite(void);

/* Print how many loop-device tests ran and how many were skipped. */
void loop_report(void);

/* What a command printed and how it ended. */
struct cmd_result {
	int status;	/* exit status, or 128 + signal */
	char *out;	/* stdout, NUL-terminated, malloc'd */
	char *err;	/* stderr, NUL-terminated, malloc'd */
};

/*
 * Run argv (argv[0] is a path, not searched) with stdin from /dev/null and
 * collect its output.  Returns 0, or -errno if it could not be started.
 */
int run_cmd(char *const argv[], struct cmd_result *res);
void cmd_result_free(struct cmd_result *res);

/* The path of the flashbench (or erase) binary under test. */
const char *flashbench_bin(void);
const char *erase_bin(void);

/* A simulated card built from SPEC; fails the test if SPEC is bad. */
struct device *sim_card(const char *spec);

/* Count how often needle occurs in hay. */
size_t count_str(const char *hay, const char *needle);

/*
 * Check that text is exactly one valid JSON document; with a dotted path
 * ("verdict.erase_size", "results.0.align_byte") also copy that value's
 * text into out.  Returns 0, -1 for invalid JSON, -2 if path is absent.
 */
int json_get(const char *text, const char *path, char *out, size_t out_len);

#endif /* FLASHBENCH_TESTS_UTIL_H */
