// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the suites of the documents share (man pages, plots, progress,
 * completion, install, README): the files of the source tree, the tools a
 * check needs, the options a --help text, a man page or the table of
 * options names, and a directory for the files a test writes.
 */
#include <libgen.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "docread.h"
#include "options.h"
#include "util.h"

/* The directory of the sources: where the binary under test lives. */
const char *srcdir(void)
{
	static char dir[4096];
	char *copy;

	if (dir[0])
		return dir;
	copy = strdup(flashbench_bin());
	ck_assert_ptr_nonnull(copy);
	snprintf(dir, sizeof(dir), "%s", dirname(copy));
	free(copy);
	return dir;
}

/* All of a file, NUL-terminated (malloc'd), or NULL. */
char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0, cap = 0, got;

	if (!f)
		return NULL;
	do {
		if (cap - n < 65536) {
			char *more;

			cap = cap * 2 + 65536;
			more = realloc(buf, cap);
			ck_assert_ptr_nonnull(more);
			buf = more;
		}
		got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
	} while (got);
	fclose(f);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

/* A file of the source tree (fails the test if it is missing). */
char *src_file(const char *name)
{
	char path[4200];
	char *text;

	snprintf(path, sizeof(path), "%s/%s", srcdir(), name);
	text = read_all(path, NULL);
	ck_assert_msg(text != NULL, "cannot read %s", path);
	return text;
}

/* Is a program on PATH? */
int have_prog(const char *name)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", name);
	return system(cmd) == 0;
}

/* In CI a missing tool is a failure, elsewhere a skipped check. */
int tool_missing(const char *name, const char *package)
{
	const char *ci = getenv("CI");

	if (have_prog(name))
		return 0;
	ck_assert_msg(!(ci && !strcmp(ci, "true")),
		      "%s is missing in CI: install %s", name, package);
	fprintf(stderr, "docs: %s not found (package %s), check skipped\n",
		name, package);
	return 1;
}

/* ---- option sets ---- */

/* Add name (len bytes of it) to s, unless s has it. */
void opt_add(struct optset *s, const char *name, size_t len)
{
	size_t i;

	if (len >= sizeof(s->name[0]))
		len = sizeof(s->name[0]) - 1;
	for (i = 0; i < s->n; i++)
		if (strlen(s->name[i]) == len && !strncmp(s->name[i], name, len))
			return;
	ck_assert_uint_lt(s->n, MAX_OPTS);
	memcpy(s->name[s->n], name, len);
	s->name[s->n][len] = '\0';
	s->n++;
}

/* Does s hold name? */
int opt_has(const struct optset *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->name[i], name))
			return 1;
	return 0;
}

/* ASCII letters and digits (not the locale's). */
int is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

int is_alnum(char c)
{
	return is_alpha(c) || (c >= '0' && c <= '9');
}

/*
 * The options a --help text names: "--long" anywhere and "-x" after white
 * space or a comma, followed by neither a letter nor a digit.
 */
void help_options(const char *t, struct optset *s)
{
	size_t i, j;

	for (i = 0; t[i]; i++) {
		if (t[i] != '-' || (i && !strchr(" \t\n,(", t[i - 1])))
			continue;
		if (t[i + 1] == '-' && is_alpha(t[i + 2])) {
			for (j = i + 2; is_alnum(t[j]) || t[j] == '-'; j++)
				;
			opt_add(s, t + i, j - i);
			i = j - 1;
		} else if (is_alpha(t[i + 1]) && !is_alnum(t[i + 2]) &&
			   t[i + 2] != '-') {
			opt_add(s, t + i, 2);
		}
	}
}

/*
 * The options a man page names, outside its examples (.EX/.EE, .nf/.fi)
 * and comments: every \-\-long, and the \-x short options of the
 * OPTIONS section (elsewhere \-x may belong to another program).
 */
void man_options(const char *t, struct optset *s)
{
	int in_example = 0, in_options = 0;
	const char *line = t, *end, *p;
	char name[40];
	size_t n;

	for (; *line; line = *end ? end + 1 : end) {
		end = strchr(line, '\n');
		if (!end)
			end = line + strlen(line);
		if (!strncmp(line, ".EX", 3) || !strncmp(line, ".nf", 3))
			in_example = 1;
		if (!strncmp(line, ".EE", 3) || !strncmp(line, ".fi", 3))
			in_example = 0;
		if (!strncmp(line, ".SH", 3))
			in_options = !strncmp(line, ".SH OPTIONS", 11);
		if (in_example || !strncmp(line, ".\\\"", 3))
			continue;
		for (p = line; p < end; p++) {
			if (strncmp(p, "\\-", 2))
				continue;
			if (!strncmp(p, "\\-\\-", 4) && is_alpha(p[4])) {
				/* \-\-open\-au\-nr is --open-au-nr */
				strcpy(name, "--");
				n = 2;
				p += 4;
				while (p < end && n < sizeof(name) - 1) {
					if (is_alnum(*p)) {
						name[n++] = *p++;
					} else if (!strncmp(p, "\\-", 2) &&
						   is_alnum(p[2])) {
						name[n++] = '-';
						p += 2;
					} else {
						break;
					}
				}
				opt_add(s, name, n);
				p--;
			} else if (in_options && is_alpha(p[2]) &&
				   !is_alnum(p[3]) && p[3] != '\\') {
				name[0] = '-';
				name[1] = p[2];
				opt_add(s, name, 2);
				p += 2;
			}
		}
	}
}

/*
 * Every option of a in b; the missing ones are listed in why.  Returns
 * how many are missing.
 */
size_t opt_missing(const struct optset *a, const struct optset *b,
		   char *why, size_t len)
{
	size_t i, miss = 0, used = 0;

	why[0] = '\0';
	for (i = 0; i < a->n; i++) {
		if (opt_has(b, a->name[i]))
			continue;
		miss++;
		if (used < len)
			used += snprintf(why + used, len - used, " %s",
					 a->name[i]);
	}
	return miss;
}

/* Run prog --help and collect its options. */
void prog_help(const char *prog, struct optset *s, char **text)
{
	char *argv[] = { (char *)prog, (char *)"--help", NULL };
	struct cmd_result r;

	ck_assert_int_eq(run_cmd(argv, &r), 0);
	ck_assert_msg(r.status == 0, "%s --help: status %d", prog, r.status);
	help_options(r.out, s);
	if (text)
		*text = strdup(r.out);
	cmd_result_free(&r);
}

/* --help and the man page name the same options. */
void check_help_vs_man(const char *prog, const char *page, size_t min_opts)
{
	struct optset help = { .n = 0 }, man = { .n = 0 };
	char why[1024];
	char *text = src_file(page);

	prog_help(prog, &help, NULL);
	man_options(text, &man);
	ck_assert_msg(help.n >= min_opts, "%s --help: only %zu options found",
		      prog, help.n);
	ck_assert_msg(!opt_missing(&help, &man, why, sizeof(why)),
		      "in %s --help but not in %s:%s", prog, page, why);
	ck_assert_msg(!opt_missing(&man, &help, why, sizeof(why)),
		      "in %s but not in %s --help:%s", page, prog, why);
	free(text);
}

/* Every option of the table of options, "--name" and "-x". */
void table_options(struct optset *s)
{
	char name[48];
	size_t i;

	for (i = 0; i < opt_rows_nr; i++) {
		const struct opt_row *r = &opt_rows[i];

		snprintf(name, sizeof(name), "--%s", opt_name(r));
		opt_add(s, name, strlen(name));
		if (opt_short(r) && !r->alias) {
			snprintf(name, sizeof(name), "-%c", opt_short(r));
			opt_add(s, name, 2);
		}
	}
}

/* Every option of a in b and of b in a, else fail naming them. */
void check_same_options(const struct optset *a, const char *a_name,
			const struct optset *b, const char *b_name)
{
	char why[1024];

	ck_assert_msg(!opt_missing(a, b, why, sizeof(why)),
		      "in %s but not in %s:%s", a_name, b_name, why);
	ck_assert_msg(!opt_missing(b, a, why, sizeof(why)),
		      "in %s but not in %s:%s", b_name, a_name, why);
}

/* Where the SVGs and PNGs go: FLASHBENCH_PLOT_DIR, or a temp dir. */
char work_dir[256];

void work_dir_setup(void)
{
	const char *d = getenv("FLASHBENCH_PLOT_DIR");

	if (d && *d) {
		snprintf(work_dir, sizeof(work_dir), "%s", d);
		mkdir(work_dir, 0755);
		return;
	}
	snprintf(work_dir, sizeof(work_dir), "/tmp/fb-plots-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(work_dir));
}

void work_dir_teardown(void)
{
	char cmd[300];

	if (getenv("FLASHBENCH_PLOT_DIR") || !work_dir[0])
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", work_dir);
	if (system(cmd) != 0)
		fprintf(stderr, "docs: cannot remove %s\n", work_dir);
}

/* Lines of text (those starting with prefix, if not NULL). */
size_t count_lines(const char *t, const char *prefix)
{
	size_t n = 0;
	const char *p;

	for (p = t; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : p)
		if (!prefix || !strncmp(p, prefix, strlen(prefix)))
			n += *p != '\n';
	return n;
}
