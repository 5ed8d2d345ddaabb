/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the suites of the front end share (checks, runtests, status,
 * opendev): the one error line of a refusal asserted, lines counted, the
 * open hook that gives a device another logical block size, and the real
 * binary run.
 */
#ifndef FLASHBENCH_TESTS_FRONTRUN_H
#define FLASHBENCH_TESTS_FRONTRUN_H

#include <stddef.h>

#include "dev.h"
#include "util.h"

/* The most arguments a test passes the real binary. */
#define MAX_ARGS 32

/* Assert err is exactly one "flashbench: " line with want, nothing else. */
void assert_one_error(const char *args, const char *err, const char *want);
/* How many lines of text start with prefix. */
size_t count_lines_with(const char *text, const char *prefix);
/* How many lines text has (newlines, as the front end ends each). */
size_t line_count(const char *text);

/* The logical block size lbs_hook() gives. */
extern unsigned int hook_lbs;
/* An open hook: the device as opened, with hook_lbs as its block size. */
struct device *lbs_hook(struct device *dev);
/* No open hook any more (after lbs_hook or fb_fault_hook). */
void unhook(void);

/* Run the real binary with argv[1..] = args (NULL-terminated). */
void bin_run(const char *const *args, struct cmd_result *res);

#endif /* FLASHBENCH_TESTS_FRONTRUN_H */
