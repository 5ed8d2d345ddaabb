/* SPDX-License-Identifier: GPL-2.0-only */
/* Helpers shared by the test suites. */
#ifndef FLASHBENCH_TESTS_UTIL_H
#define FLASHBENCH_TESTS_UTIL_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>

#include "dev.h"

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
/*
 * FB_TEST_STRIDE=N: long sweeps look at every Nth card or noise draw
 * only (the sanitizer build and qemu in CI, where each costs several
 * times more); make check runs them all.
 */
unsigned int test_stride(void);
const char *erase_bin(void);

/* A simulated card built from SPEC; fails the test if SPEC is bad. */
struct device *sim_card(const char *spec);

/* One card of the --auto sweep, with the geometry planted in it. */
struct sweep_card {
	uint64_t erase, page;
	unsigned int open, open_random, fat, fat_start;
	double noise;
	char spec[256];		/* --simulate SPEC of the card */
};

/*
 * Card number i of the sweep: erase 1-16 MiB (some 3 * 2^n), page
 * 4-64 KiB, open 1-16 and fewer in random order, fat 0-4 at various
 * starts, noise 0-5 %; the same i always gives the same card.
 */
void sweep_card(unsigned int i, struct sweep_card *c);

#define FB_MAX_ARGS 32

/* What one in-process run of flashbench_main() did. */
struct fb_run {
	int status;		/* return value of flashbench_main() */
	char *out;		/* results stream, NUL-terminated */
	char *err;		/* error stream, each message on one line
				 * (unwrap_err()), NUL-terminated */
	char *err_raw;		/* the error stream as printed, wrapped
				 * at 80 columns */
	uint64_t io_calls;	/* dev_* I/O calls on devices it opened */
	unsigned int opens;	/* devices it opened */
};

/*
 * Run flashbench_main() with the space-separated arguments in args (no
 * value contains a space) and collect what it did; free with fb_free().
 */
void fb_run(const char *args, struct fb_run *r);
void fb_free(struct fb_run *r);

/*
 * Keep a copy of out in $FB_JSON_DIR when it is one JSON document (what
 * --json wrote), for the schema suite to validate; fb_run() calls it.
 */
void json_doc_keep(const char *out);

/* Count how often needle occurs in hay. */
size_t count_str(const char *hay, const char *needle);

/*
 * Fail the test (naming what) if a line of text is over 80 columns
 * (characters of UTF-8, not bytes); a command to copy that names a
 * simulated card by its --simulate=... spec, as long as the user typed
 * it, may be longer.
 */
void check_width(const char *what, const char *text);

/*
 * Messages wrapped at 80 columns joined back into one line each, in
 * place: each "\nflashbench:   " (where a message goes on) becomes a
 * space (a list's items start "flashbench: - ": lines of their own).
 * Returns s.
 */
char *unwrap_err(char *s);

/*
 * --auto's report with its wrapped lines joined, in place: each "\n    "
 * (a line going on under the one before, or a command on a line of its
 * own) becomes a space.  Returns s.
 */
char *unwrap_text(char *s);

/* The longest tests/data/extcsd/NAME/ext_csd file read. */
#define EXTCSD_DUMP_MAX 4096

/* Read tests/data/extcsd/NAME/ext_csd into buf; returns its length. */
size_t extcsd_dump(const char *name, char *buf, size_t len);

/* The first byte of text that is not well-formed UTF-8, or NULL. */
const char *utf8_invalid(const char *text);

/*
 * Check that text is exactly one valid JSON document, in UTF-8; with a
 * dotted path ("verdict.erase_size", "results.0.align_byte") also copy
 * that value's text into out.  Returns 0, -1 for invalid JSON, -2 if path is absent.
 */
int json_get(const char *text, const char *path, char *out, size_t out_len);

/*
 * A JSON value of r's output, as text, failing the test if none (in a
 * buffer the next call reuses).
 */
const char *fb_json(const struct fb_run *r, const char *path);

/* The value at path in a JSON document, as text, failing the test if none. */
const char *json_at(const char *doc, const char *path, char *buf, size_t len);

/*
 * An open hook (flashbench_open_hook) that puts the fault injector, with
 * the faults planned in fb_fault_plan, around every device the front end
 * opens.
 */
struct fault_plan;
extern struct fault_plan fb_fault_plan;
struct device *fb_fault_hook(struct device *dev);

#endif /* FLASHBENCH_TESTS_UTIL_H */
