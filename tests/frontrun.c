// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the suites of the front end share (checks, runtests, status,
 * opendev): the one error line of a refusal asserted, lines counted, the
 * open hook that gives a device another logical block size, and the real
 * binary run.
 */
#include <stdlib.h>
#include <string.h>

#include "flashbench.h"
#include "frontrun.h"
#include "util.h"

/* Assert err is exactly one "flashbench: " line with want, nothing else. */
void assert_one_error(const char *args, const char *err, const char *want)
{
	char *copy = strdup(err);
	const char *nl;

	/* a message wrapped at 80 columns is one message */
	ck_assert_ptr_nonnull(copy);
	err = unwrap_err(copy);
	nl = strchr(err, '\n');
	ck_assert_msg(strncmp(err, "flashbench: ", 12) == 0,
		      "'%s': stderr does not start with 'flashbench: ': %s",
		      args, err);
	/* (where getopt refused it, util-linux's line naming --help) */
	ck_assert_msg(nl && (nl[1] == '\0' ||
			     !strcmp(nl + 1, "Try 'flashbench --help' for more information.\n")),
		      "'%s': stderr is not exactly one line: %s", args, err);
	ck_assert_msg(strstr(err, want) && strstr(err, want) < nl,
		      "'%s': error line does not name '%s': %s", args, want,
		      err);
	free(copy);
}

/* How many lines of text start with prefix. */
size_t count_lines_with(const char *text, const char *prefix)
{
	size_t n = 0, len = strlen(prefix);
	const char *p = text;

	while (*p) {
		if (strncmp(p, prefix, len) == 0)
			n++;
		p = strchrnul(p, '\n');
		if (*p)
			p++;
	}
	return n;
}

/* How many lines text has (newlines, as the front end ends each). */
size_t line_count(const char *text)
{
	return count_str(text, "\n");
}

/* The logical block size lbs_hook() gives. */
unsigned int hook_lbs;

/* An open hook: the device as opened, with hook_lbs as its block size. */
struct device *lbs_hook(struct device *dev)
{
	dev->logical_block_size = hook_lbs;
	return dev;
}

/* No open hook any more (after lbs_hook or fb_fault_hook). */
void unhook(void)
{
	flashbench_open_hook = NULL;
}

/* Run the real binary with argv[1..] = args (NULL-terminated). */
void bin_run(const char *const *args, struct cmd_result *res)
{
	char *argv[MAX_ARGS + 1];
	int argc = 0;

	argv[argc++] = (char *)flashbench_bin();
	while (*args && argc < MAX_ARGS)
		argv[argc++] = (char *)*args++;
	argv[argc] = NULL;
	ck_assert_int_eq(run_cmd(argv, res), 0);
}
