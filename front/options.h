/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The table of options: one row per option of flashbench holds its
 * spelling, what it takes, where its value goes, its default, which
 * tests use it and its line in --help.  getopt's arrays, the parse, the
 * defaults, --help and the documentation tests all read the table; the
 * tests' own options (-a, --align ...) take their names from the table
 * of tests (tests.c).  Adding an option is one row here and a field of
 * struct cli or struct bench_opts.
 */
#ifndef FLASHBENCH_OPTIONS_H
#define FLASHBENCH_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bench.h"

struct cli;

/* What an option takes and what it does with it. */
enum opt_kind {
	OPT_MODE,	/* runs a test of the table of tests */
	OPT_FLAG,	/* sets an int to 1 */
	OPT_MORE,	/* adds 1 to an int each time (-v, -vv) */
	OPT_SIZE,	/* a uint64_t; K, M, G, T suffixes or 0x */
	OPT_NUMBER,	/* an unsigned int, decimal digits */
	OPT_ORDER,	/* an unsigned int exponent: "out of range" */
	OPT_FILE,	/* a file name, "-" for standard input or output */
	OPT_TEXT,	/* an optional text (--simulate[=SPEC]) */
	OPT_HELP,	/* print --help */
	OPT_VERSION,	/* print the version */
};

/* The parts of --help, in the order printed. */
enum opt_section {
	SEC_TESTS,	/* the classic tests (and -C, -L) */
	SEC_BEYOND,	/* --auto, --json, --preserve ... */
	SEC_OPTIONS,	/* what the tests take */
	SEC_LAST,	/* -h and -V, after a blank line */
	SEC_NR,
};

/* One option. */
struct opt_row {
	const char *name;	/* long name without "--"; NULL: the mode's */
	char short_name;	/* 'b', or 0; OPT_MODE: 0 takes the mode's */
	enum opt_kind kind;
	unsigned int mode;	/* OPT_MODE: the test it runs (its bit) */
	int alias;		/* another name of the row above (--findfat) */
	size_t field;		/* offset of its field in struct cli */
	size_t flag;		/* OPT_FILE, OPT_TEXT: an int set to 1 too */
	int dash_none;		/* OPT_FILE: "-" leaves the field NULL */
	int value;		/* OPT_SIZE..OPT_ORDER: its enum cli_value */
	uint64_t def;		/* OPT_SIZE..OPT_ORDER: the default */
	uint64_t min, max;	/* OPT_SIZE..OPT_ORDER: the range allowed */
	/* OPT_SIZE: what else a value must be; NULL or why not */
	const char *(*check)(uint64_t v);
	unsigned int users;	/* tests that read it: -v notes it unused */
	const char *arg;	/* "<size>" in --help */
	enum opt_section section;
	const char *help;	/* --help text; '\n' starts an indented line */
};

/* Every option, in getopt's order (the order of ambiguous matches). */
extern const struct opt_row opt_rows[];
extern const size_t opt_rows_nr;

/* A row's long name ("align" for the mode's row) and short letter. */
const char *opt_name(const struct opt_row *r);
char opt_short(const struct opt_row *r);

/* Nonzero if the row takes a value of its own (OPT_SIZE..OPT_TEXT). */
int opt_takes_value(const struct opt_row *r);

/* The row of the value option v (an enum cli_value). */
const struct opt_row *opt_value_row(int v);

/* Option v's value in c, as a number. */
uint64_t opt_get_value(const struct cli *c, int v);

/*
 * Parse argv into c by the table.  Returns -1 to go on, or an exit
 * status: 0 after --help or --version, EXIT_USAGE after an error (one
 * line on c->err).
 */
int opt_parse(struct cli *c, int argc, char **argv, FILE *out);

/* Print --help, laid out from the table. */
void opt_print_help(FILE *out);

#endif /* FLASHBENCH_OPTIONS_H */
