/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the suites of the documents share (man pages, plots, progress,
 * completion, install, README): the files of the source tree, the tools a
 * check needs, the options a --help text, a man page or the table of
 * options names, and a directory for the files a test writes.
 */
#ifndef FLASHBENCH_TESTS_DOCREAD_H
#define FLASHBENCH_TESTS_DOCREAD_H

#include <stddef.h>

/* The directory of the sources: where the binary under test lives. */
const char *srcdir(void);
/* All of a file, NUL-terminated (malloc'd), or NULL. */
char *read_all(const char *path, size_t *len);
/* A file of the source tree (fails the test if it is missing). */
char *src_file(const char *name);
/* Is a program on PATH? */
int have_prog(const char *name);
/* In CI a missing tool is a failure, elsewhere a skipped check. */
int tool_missing(const char *name, const char *package);
/* Lines of text (those starting with prefix, if not NULL). */
size_t count_lines(const char *t, const char *prefix);

int is_alpha(char c);
int is_alnum(char c);

/* A set of option names ("--long", "-x"), each once. */
#define MAX_OPTS 128

struct optset {
	char name[MAX_OPTS][40];
	size_t n;
};

/* Each is described where it is defined, in docread.c. */
void opt_add(struct optset *s, const char *name, size_t len);
int opt_has(const struct optset *s, const char *name);
void help_options(const char *t, struct optset *s);
void man_options(const char *t, struct optset *s);
size_t opt_missing(const struct optset *a, const struct optset *b,
		   char *why, size_t len);
void prog_help(const char *prog, struct optset *s, char **text);
void check_help_vs_man(const char *prog, const char *page, size_t min_opts);
void table_options(struct optset *s);
void check_same_options(const struct optset *a, const char *a_name,
			const struct optset *b, const char *b_name);

/*
 * Where a test's files go (the SVGs and PNGs of --plot, the progress
 * tests' files): FLASHBENCH_PLOT_DIR, or a temporary directory that
 * work_dir_teardown removes.  A checked fixture of the plot and progress
 * suites.
 */
extern char work_dir[256];
void work_dir_setup(void);
void work_dir_teardown(void);

#endif /* FLASHBENCH_TESTS_DOCREAD_H */
