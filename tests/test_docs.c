// SPDX-License-Identifier: GPL-2.0-only
/*
 * The documentation and the conveniences around the measurements: man
 * pages against the table of options and --help (both ways) and their
 * rendering, the --plot SVGs
 * against the tables they draw (parsed as XML, rendered to PNG), the
 * progress line on a pseudo-terminal (and its absence elsewhere), and the
 * bash completion.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analyze.h"
#include "bench.h"
#include "flashbench.h"
#include "format.h"
#include "modes.h"
#include "options.h"
#include "progplan.h"
#include "progress.h"
#include "rowtext.h"
#include "sim.h"
#include "util.h"

/* ---- small helpers ---- */

/* The directory of the sources: where the binary under test lives. */
static const char *srcdir(void)
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
static char *read_all(const char *path, size_t *len)
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
static char *src_file(const char *name)
{
	char path[4200];
	char *text;

	snprintf(path, sizeof(path), "%s/%s", srcdir(), name);
	text = read_all(path, NULL);
	ck_assert_msg(text != NULL, "cannot read %s", path);
	return text;
}

/* Is a program on PATH? */
static int have_prog(const char *name)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", name);
	return system(cmd) == 0;
}

/* In CI a missing tool is a failure, elsewhere a skipped check. */
static int tool_missing(const char *name, const char *package)
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

#define MAX_OPTS 128

struct optset {
	char name[MAX_OPTS][40];
	size_t n;
};

static void opt_add(struct optset *s, const char *name, size_t len)
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

static int opt_has(const struct optset *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->name[i], name))
			return 1;
	return 0;
}

static int is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int is_alnum(char c)
{
	return is_alpha(c) || (c >= '0' && c <= '9');
}

/*
 * The options a --help text names: "--long" anywhere and "-x" after white
 * space or a comma, followed by neither a letter nor a digit.
 */
static void help_options(const char *t, struct optset *s)
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
static void man_options(const char *t, struct optset *s)
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
static size_t opt_missing(const struct optset *a, const struct optset *b,
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
static void prog_help(const char *prog, struct optset *s, char **text)
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
static void check_help_vs_man(const char *prog, const char *page,
			      size_t min_opts)
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
static void table_options(struct optset *s)
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
static void check_same_options(const struct optset *a, const char *a_name,
			       const struct optset *b, const char *b_name)
{
	char why[1024];

	ck_assert_msg(!opt_missing(a, b, why, sizeof(why)),
		      "in %s but not in %s:%s", a_name, b_name, why);
	ck_assert_msg(!opt_missing(b, a, why, sizeof(why)),
		      "in %s but not in %s:%s", b_name, a_name, why);
}

/* The table of options, the man page and --help name the same options. */
START_TEST(test_flashbench_man_options)
{
	struct optset table = { .n = 0 }, man = { .n = 0 }, help = { .n = 0 };
	char *text = src_file("flashbench.1");

	table_options(&table);
	ck_assert_uint_ge(table.n, 40);
	man_options(text, &man);
	free(text);
	check_same_options(&table, "the table of options", &man,
			   "flashbench.1");
	prog_help(flashbench_bin(), &help, NULL);
	check_same_options(&table, "the table of options", &help,
			   "flashbench --help");
	/* the table holds what it must: a few we know */
	ck_assert(opt_has(&table, "--open-au-nr"));
	ck_assert(opt_has(&table, "-O"));
	ck_assert(opt_has(&table, "--findfat"));
	ck_assert(opt_has(&table, "--simulate"));
	ck_assert(opt_has(&table, "--plot"));
	ck_assert(opt_has(&table, "-q"));
}
END_TEST

/*
 * The command-line fuzzer's dictionary names every option of the table
 * ("--name", "--name=" or "-x"), so that it reaches each one.
 */
START_TEST(test_fuzz_dict_options)
{
	struct optset table = { .n = 0 };
	char *dict = src_file("tests/fuzz/cli.dict"), a[48], b[48];
	size_t i;

	table_options(&table);
	for (i = 0; i < table.n; i++) {
		snprintf(a, sizeof(a), "\"%s\"", table.name[i]);
		snprintf(b, sizeof(b), "\"%s=", table.name[i]);
		ck_assert_msg(strstr(dict, a) || strstr(dict, b),
			      "tests/fuzz/cli.dict lacks %s", table.name[i]);
	}
	free(dict);
}
END_TEST

/* Nonzero if word occurs in text with no [a-z0-9_] right before or after. */
static int has_word(const char *text, const char *word)
{
	size_t n = strlen(word);
	const char *p;

	for (p = strstr(text, word); p; p = strstr(p + 1, word)) {
		char b = p == text ? ' ' : p[-1], a = p[n];

		if (!is_alnum(b) && b != '_' && !is_alnum(a) && a != '_')
			return 1;
	}
	return 0;
}

/*
 * Every --simulate key the parser takes (the SIM_KEY rows of simspec.c)
 * is named in --help, the man page, doc/simulate.md (the README's list of
 * keys) and the completion (issue 9 item 22: six of them were only in a
 * source comment).
 */
START_TEST(test_simulate_keys_documented)
{
	char *src = src_file("device/simspec.c");
	char *man = src_file("flashbench.1");
	char *readme = src_file("doc/simulate.md");
	char *comp = src_file("completion/flashbench.bash");
	struct optset opts = { .n = 0 };
	char *help = NULL, key[32], with_eq[40];
	const char *p;
	size_t keys = 0;

	prog_help(flashbench_bin(), &opts, &help);
	for (p = strstr(src, "SIM_KEY(SK_"); p;
	     p = strstr(p + 1, "SIM_KEY(SK_")) {
		const char *q = strchr(p, '"');

		ck_assert_ptr_nonnull(q);
		snprintf(key, sizeof(key), "%.*s", (int)strcspn(q + 1, "\""),
			 q + 1);
		snprintf(with_eq, sizeof(with_eq), "%s=", key);
		ck_assert_msg(has_word(help, key), "--help lacks key %s", key);
		ck_assert_msg(has_word(man, key), "man lacks key %s", key);
		ck_assert_msg(has_word(readme, key),
			      "doc/simulate.md lacks key %s", key);
		ck_assert_msg(strstr(comp, with_eq),
			      "completion lacks key %s", key);
		keys++;
	}
	ck_assert_uint_ge(keys, 18);
	free(help);
	free(src);
	free(man);
	free(readme);
	free(comp);
}
END_TEST

/*
 * make install puts the completion under both command names, as
 * bash-completion loads it by the name typed; make uninstall removes
 * everything install made (issue 9 item 22).  The discard tool is
 * installed as flashbench-erase, as Debian's package has it, and names
 * itself so; its man page and flashbench(1)'s references to it follow the
 * name (issue 20 item 4).
 */
START_TEST(test_install_uninstall)
{
	static const char *const files[] = {
		"usr/bin/flashbench", "usr/bin/flashbench-erase",
		"usr/share/man/man1/flashbench.1",
		"usr/share/man/man1/flashbench-erase.1",
		"usr/share/bash-completion/completions/flashbench",
		"usr/share/bash-completion/completions/flashbench-erase",
		"usr/share/flashbench/flashbench.schema.json",
	};
	char dir[] = "/tmp/fb_installXXXXXX", cmd[5120], path[512];
	char *argv[] = { (char *)"/bin/sh", (char *)"-c", cmd, NULL };
	char *erase_argv[] = { path, NULL };
	char *a, *b;
	struct cmd_result r;
	size_t i;

	if (tool_missing("make", "make"))
		return;
	ck_assert_ptr_nonnull(mkdtemp(dir));
	/* not the jobserver of a make check that may be running this */
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s install PREFIX=/usr DESTDIR='%s'",
		 srcdir(), dir);
	ck_assert_int_eq(run_cmd(argv, &r), 0);
	ck_assert_msg(r.status == 0, "make install: %s", r.err);
	cmd_result_free(&r);
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		ck_assert_msg(access(path, R_OK) == 0, "not installed: %s",
			      files[i]);
	}
	snprintf(path, sizeof(path), "%s/usr/bin/erase", dir);
	ck_assert_msg(access(path, F_OK) != 0, "installed as a bare erase");
	/* the erase tool's completion is the same script */
	snprintf(path, sizeof(path), "%s/%s", dir, files[4]);
	a = read_all(path, NULL);
	snprintf(path, sizeof(path), "%s/%s", dir, files[5]);
	b = read_all(path, NULL);
	ck_assert(a && b && !strcmp(a, b));
	ck_assert_ptr_nonnull(strstr(b,
		"complete -F _flashbench_erase erase flashbench-erase\n"));
	free(a);
	free(b);
	/* the pages name the installed command, never a bare erase */
	snprintf(path, sizeof(path), "%s/%s", dir, files[3]);
	a = read_all(path, NULL);
	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(strstr(a, "\n.TH FLASHBENCH\\-ERASE 1 "));
	ck_assert_ptr_nonnull(strstr(a, ".SH NAME\nflashbench\\-erase \\- "));
	ck_assert_ptr_nonnull(strstr(a,
				     ".SH SYNOPSIS\n.B flashbench\\-erase\n"));
	ck_assert_ptr_null(strstr(a, "\n.B erase\n"));
	ck_assert_ptr_null(strstr(a, "sudo erase "));
	free(a);
	snprintf(path, sizeof(path), "%s/%s", dir, files[2]);
	a = read_all(path, NULL);
	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(strstr(a, "\n.BR flashbench\\-erase (1)"));
	ck_assert_ptr_null(strstr(a, "\n.BR erase (1)"));
	free(a);
	/* and so do the tool's messages, run by that name */
	snprintf(path, sizeof(path), "%s/%s", dir, files[1]);
	ck_assert_int_eq(run_cmd(erase_argv, &r), 0);
	ck_assert_int_eq(r.status, 2);
	ck_assert_msg(!strncmp(r.err, "flashbench-erase: expected ", 27),
		      "flashbench-erase says: %s", r.err);
	cmd_result_free(&r);
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s uninstall PREFIX=/usr DESTDIR='%s' && "
		 "test -z \"$(find '%s' -type f -o -type l)\" && rm -rf '%s'",
		 srcdir(), dir, dir, dir);
	ck_assert_int_eq(run_cmd(argv, &r), 0);
	ck_assert_msg(r.status == 0, "make uninstall left files: %s %s",
		      r.out, r.err);
	cmd_result_free(&r);
}
END_TEST

/*
 * open_random defaults to open when open is given, else 2: the code does
 * that and --help, the man page and doc/simulate.md say it (issue 9 item
 * 22; they said "2").
 */
START_TEST(test_open_random_default_documented)
{
	char *man = src_file("flashbench.1");
	char *readme = src_file("doc/simulate.md");
	struct optset opts = { .n = 0 };
	struct sim_params p;
	char *help = NULL, err[128];
	const char *entry;

	sim_params_default(&p);
	ck_assert_uint_eq(p.open_random, 2);
	ck_assert_int_eq(sim_parse_spec(&p, "open=6", err, sizeof(err)), 0);
	ck_assert_uint_eq(p.open_random, 6);
	prog_help(flashbench_bin(), &opts, &help);
	ck_assert_ptr_nonnull(strstr(help, "open_random\n"
		"                               (default: open)"));
	entry = strstr(man, ".B open_random\n");
	ck_assert_ptr_nonnull(entry);
	ck_assert_ptr_nonnull(strstr(entry, "is given, else 2)"));
	ck_assert_ptr_null(strstr(man, "random order (2)"));
	ck_assert_ptr_nonnull(strstr(readme, "| open_random | AUs kept open in random order; 0: none | as many as open when open is given, else 2 |\n"));
	free(help);
	free(man);
	free(readme);
}
END_TEST

/*
 * The smallest -b that -a takes is stated where -b is described, in
 * --help and the man page (issue 9 item 18).
 */
START_TEST(test_blocksize_minimum_documented)
{
	char *man = src_file("flashbench.1"), *help = NULL;
	struct optset opts = { .n = 0 };
	const char *b;

	prog_help(flashbench_bin(), &opts, &help);
	b = strstr(help, " -b, --blocksize ");
	ck_assert_ptr_nonnull(b);
	ck_assert_msg(strstr(b, "for -a at least twice") &&
		      strstr(b, "for -a at least twice") < strstr(b, " -e, "),
		      "--help: -b does not say the minimum for -a");
	b = strstr(man, "\\-\\-blocksize \" size\"");
	ck_assert_ptr_nonnull(b);
	ck_assert_msg(strstr(b, "at least twice the logical block size") &&
		      strstr(b, "at least twice the logical block size") <
		      strstr(b, "\\-\\-erasesize"),
		      "man: -b does not say the minimum for -a");
	free(help);
	free(man);
}
END_TEST

START_TEST(test_erase_man_options)
{
	check_help_vs_man(erase_bin(), "erase.1", 4);
}
END_TEST

/* The comparison catches a page that lacks an option, both ways. */
START_TEST(test_man_check_can_fail)
{
	static const char page[] =
		".TH X 1\n.SH OPTIONS\n.TP\n.BR \\-a \", \" \\-\\-align\n"
		".TP\n.BR \\-\\-open\\-au\\-nr \" n\"\n"
		".SH EXAMPLES\n.EX\nmkfs \\-E stride=4 \\-\\-not\\-an\\-option\n.EE\n"
		"see \\fB\\-x\\fR of other tools\n";
	static const char help[] =
		" -a, --align        align\n"
		"     --open-au-nr <num>\n"
		" -b, --blocksize <size>\n";
	struct optset h = { .n = 0 }, m = { .n = 0 };
	char why[256];

	help_options(help, &h);
	man_options(page, &m);
	ck_assert_uint_eq(m.n, 3);	/* -a --align --open-au-nr */
	ck_assert(opt_has(&m, "--open-au-nr"));
	ck_assert(!opt_has(&m, "-E") && !opt_has(&m, "-x"));
	ck_assert(!opt_has(&m, "--not-an-option"));
	ck_assert_uint_eq(opt_missing(&h, &m, why, sizeof(why)), 2);
	ck_assert_str_eq(why, " -b --blocksize");
	ck_assert_uint_eq(opt_missing(&m, &h, why, sizeof(why)), 0);
}
END_TEST

/* groff renders the page without a single warning. */
static void check_renders(const char *page)
{
	char path[4200];
	char *argv[] = { (char *)"/bin/sh", (char *)"-c",
			 (char *)"groff -man -Tutf8 -ww -z \"$0\"", path, NULL };
	struct cmd_result r;

	if (tool_missing("groff", "groff-base"))
		return;
	snprintf(path, sizeof(path), "%s/%s", srcdir(), page);
	ck_assert_int_eq(run_cmd(argv, &r), 0);
	ck_assert_msg(r.status == 0 && !r.err[0],
		      "groff on %s: status %d: %s", page, r.status, r.err);
	cmd_result_free(&r);
}

START_TEST(test_man_renders)
{
	check_renders("flashbench.1");
	check_renders("erase.1");
}
END_TEST

/* The pages have the sections a man page needs. */
START_TEST(test_man_sections)
{
	static const char *const need[] = {
		".SH NAME", ".SH SYNOPSIS", ".SH DESCRIPTION", ".SH OPTIONS",
		".SH EXIT STATUS", ".SH SAFETY", ".SH EXAMPLES",
		".SH SEE ALSO",
	};
	const char *pages[] = { "flashbench.1", "erase.1" };
	size_t i, k;

	for (k = 0; k < 2; k++) {
		char *t = src_file(pages[k]);

		for (i = 0; i < sizeof(need) / sizeof(need[0]); i++)
			ck_assert_msg(strstr(t, need[i]), "%s lacks %s",
				      pages[k], need[i]);
		/* exit statuses 0, 1, 2 and 128+N are explained */
		ck_assert(strstr(t, ".B 0\n") && strstr(t, ".B 1\n") &&
			  strstr(t, ".B 2\n") && strstr(t, "128+"));
		free(t);
	}
}
END_TEST

/*
 * Does the man page text from the first start on, up to the next stop,
 * name the short option of every writing test in modes[] (as "\\-X")?
 * Returns the first one missing, or 0.
 */
static char writing_missing(const char *text, const char *start,
			    const char *stop)
{
	const char *p = strstr(text, start), *end;
	char want[8];
	size_t i;

	ck_assert_msg(p != NULL, "no '%s' in the man page", start);
	end = strstr(p + strlen(start), stop);
	ck_assert_ptr_nonnull(end);
	for (i = 0; i < modes_nr; i++) {
		const char *q;

		if (!modes[i].writes)
			continue;
		snprintf(want, sizeof(want), "\\-%c", modes[i].short_option);
		q = strstr(p, want);
		if (!q || q > end)
			return modes[i].short_option;
	}
	return 0;
}

/* Where what lies in text, after from (fails if absent). */
static const char *after(const char *text, const char *from, const char *what)
{
	const char *at = strstr(from, what);

	ck_assert_msg(at != NULL, "'%s' missing after byte %td", what,
		      from - text);
	return at + strlen(what);
}

/*
 * --auto --destructive's write steps, in the man page, come in the order
 * they run (-v names each, the class check's range is announced last),
 * and only the class check is called the last (issue 20 item 2: the
 * capacity check and the class check were both "the last write step").
 */
START_TEST(test_man_write_steps_order)
{
	char *man = src_file("flashbench.1");
	const char *d, *p;
	struct fb_run r;

	ck_assert_ptr_null(strstr(man, "last write step"));
	d = after(man, man, ".B \\-\\-destructive\nLet\n");
	p = after(man, d, "the open AUs, the FAT area, the capacity check\n");
	p = after(man, p, "and last\n.B \\-\\-class\n");
	ck_assert_ptr_null(strstr(man, "the last of them"));
	fb_run("--auto --destructive -v --simulate=size=1G", &r);
	ck_assert_int_eq(r.status, 0);
	p = after(r.err, r.err, "auto: open-AU search, linear order (writes)\n");
	p = after(r.err, p, "auto: open-AU search, random order (writes)\n");
	p = after(r.err, p, "auto: FAT area probe (writes)\n");
	p = after(r.err, p, "auto: capacity check (writes)\n");
	p = after(r.err, p, "will overwrite bytes 16777216-100663296 on simulated card\n");
	ck_assert_ptr_null(strstr(p, "will overwrite"));
	fb_free(&r);
	free(man);
}
END_TEST

/*
 * -L is described by what it writes: on a card that states 16 MiB AUs,
 * 4 units of 4 MiB, not "4 AUs" (issue 20 item 2).
 */
START_TEST(test_man_class_units)
{
	char *man = src_file("flashbench.1");
	struct fb_run r;

	ck_assert_ptr_null(strstr(man, "writes over 4 AUs"));
	ck_assert_ptr_nonnull(strstr(man, "measured (writes!): sequential writes of 4 units from\n"));
	ck_assert_ptr_nonnull(strstr(man, "or 4 MiB where the AU is larger: 4 MiB units on a card of 16 MiB AUs,\n16 MiB in all, a quarter of an AU each.\n"));
	fb_run("-L --simulate=erase=16M,au=16M,claims=C10", &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_ptr_nonnull(strstr(r.out, "sequential: 4 units of 4MiB from 16MiB,"));
	fb_free(&r);
	free(man);
}
END_TEST

/*
 * Every list of the writing tests names all of them, and the run order
 * is modes[]'s (issue 20 item 2: -C and -L were left out of the man
 * page's DESCRIPTION, SAFETY and --preserve, the --preserve refusal and
 * --help's run order).
 */
START_TEST(test_writing_tests_listed)
{
	static const char *const lists[][2] = {
		{ "The write tests\n", "overwrite parts" },
		{ "Before a writing test\n", "overwrites anything" },
		{ ".B The write tests destroy data.\n", "overwrite parts" },
	};
	char *man = src_file("flashbench.1"), order[64] = "";
	char c, *help = NULL;
	size_t i, len = 0;
	struct fb_run r;
	FILE *f;

	for (i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		c = writing_missing(man, lists[i][0], lists[i][1]);
		ck_assert_msg(!c, "-%c missing after '%s'", c, lists[i][0]);
	}
	/* the man page's run order, then --help's, are modes[]'s */
	for (i = 0; i < modes_nr; i++)
		snprintf(order + strlen(order), sizeof(order) - strlen(order),
			 "%s-%c", i ? ", " : "", modes[i].short_option);
	c = writing_missing(man, "they run in the classic order", ".PP");
	ck_assert_msg(!c, "-%c missing from the run order", c);
	f = open_memstream(&help, &len);
	opt_print_help(f);
	fclose(f);
	ck_assert_msg(strstr(help, order), "--help lacks the order %s", order);
	free(help);
	/* the refusal names them too */
	fb_run("--preserve -a --simulate", &r);
	ck_assert_int_eq(r.status, 2);
	for (i = 0; i < modes_nr; i++) {
		if (modes[i].writes) {
			char opt[4] = { '-', modes[i].short_option, 0, 0 };

			ck_assert_msg(strstr(r.err, opt), "%s lacks %s",
				      r.err, opt);
		}
	}
	fb_free(&r);
	free(man);
}
END_TEST

/* ---- a tiny XML checker for the SVGs ---- */

#define SVG_MAX_SERIES 64
#define SVG_MAX_MARKS 8

struct svg_series {
	char column[64];	/* data-column */
	long declared;		/* data-points */
	long counted;		/* circles, or M in a marks path */
};

struct svg_mark {
	char kind[32];		/* data-kind */
	uint64_t bytes;		/* data-bytes */
};

struct svg_info {
	char err[160];		/* why it is not well-formed */
	char root[16];		/* name of the root element */
	struct svg_series s[SVG_MAX_SERIES];
	size_t ns;
	struct svg_mark m[SVG_MAX_MARKS];
	size_t nm;
	size_t nfit;		/* <g class="fit"> */
	size_t ntext;		/* <text> elements */
};

static int is_name_char(char c)
{
	return is_alnum(c) || c == '-' || c == '_' || c == ':' || c == '.';
}

/* Check the entities of text up to end; 0 or -1. */
static int check_entities(const char *p, const char *end)
{
	static const char *const ents[] = { "&amp;", "&lt;", "&gt;",
					    "&quot;", "&apos;" };
	size_t i;

	for (; p < end; p++) {
		if (*p == '<')
			return -1;
		if (*p != '&')
			continue;
		for (i = 0; i < 5; i++)
			if (!strncmp(p, ents[i], strlen(ents[i])))
				break;
		if (i < 5)
			continue;
		if (p[1] == '#') {
			const char *q = p + 2 + (p[2] == 'x');

			while (q < end && is_alnum(*q))
				q++;
			if (q < end && *q == ';' && q > p + 2)
				continue;
		}
		return -1;
	}
	return 0;
}

/* Copy attribute name's value from the tag [p, end) into out. */
static int attr_get(const char *p, const char *end, const char *name,
		    char *out, size_t len)
{
	size_t nl = strlen(name);

	for (; p + nl + 2 < end; p++) {
		const char *v, *q;

		if ((p[-1] != ' ' && p[-1] != '\n') || strncmp(p, name, nl) ||
		    p[nl] != '=')
			continue;
		v = p + nl + 2;
		q = memchr(v, p[nl + 1], (size_t)(end - v));
		if (!q)
			return -1;
		snprintf(out, len, "%.*s", (int)(q - v), v);
		return 0;
	}
	return -1;
}

/* Attributes: name="value" or name='value', separated by white space. */
static int check_attrs(const char *p, const char *end)
{
	while (p < end) {
		const char *q;

		while (p < end && strchr(" \t\r\n", *p))
			p++;
		if (p >= end)
			return 0;
		q = p;
		while (q < end && is_name_char(*q))
			q++;
		if (q == p || q + 1 >= end || q[0] != '=' ||
		    (q[1] != '"' && q[1] != '\''))
			return -1;
		p = memchr(q + 2, q[1], (size_t)(end - q - 2));
		if (!p || check_entities(q + 2, p))
			return -1;
		p++;
		if (p < end && !strchr(" \t\r\n", *p))
			return -1;
	}
	return 0;
}

#define SVG_FAIL(...)                                                  \
	do {                                                           \
		snprintf(info->err, sizeof(info->err), __VA_ARGS__);   \
		return -1;                                             \
	} while (0)

/*
 * Check that text is one well-formed XML document and collect the series
 * and marks of a flashbench SVG.  Returns 0 or -1 (reason in info->err).
 */
static int svg_parse(const char *text, struct svg_info *info)
{
	char stack[64][16], cls[64], buf[64];
	long series_at[64];	/* series index open at each depth */
	const char *p = text, *q, *end;
	size_t depth = 0, nroots = 0, k;

	memset(info, 0, sizeof(*info));
	q = utf8_invalid(text);
	if (q)
		SVG_FAIL("not UTF-8 at byte %zu", (size_t)(q - text));
	while (*p) {
		if (*p != '<') {
			q = strchr(p, '<');
			end = q ? q : p + strlen(p);
			if (check_entities(p, end))
				SVG_FAIL("bad character data near '%.20s'", p);
			if (!depth)
				for (q = p; q < end; q++)
					if (!strchr(" \t\r\n", *q))
						SVG_FAIL("text outside the root");
			p = end;
			continue;
		}
		if (!strncmp(p, "<?", 2)) {
			q = strstr(p, "?>");
			if (!q || (p != text))
				SVG_FAIL("misplaced processing instruction");
			p = q + 2;
			continue;
		}
		if (!strncmp(p, "<!--", 4)) {
			q = strstr(p, "-->");
			if (!q)
				SVG_FAIL("unterminated comment");
			p = q + 3;
			continue;
		}
		end = strchr(p, '>');
		if (!end)
			SVG_FAIL("unterminated tag");
		if (p[1] == '/') {
			for (q = p + 2; is_name_char(*q); q++)
				;
			if (!depth || strlen(stack[depth - 1]) != (size_t)(q - p - 2) ||
			    strncmp(stack[depth - 1], p + 2, (size_t)(q - p - 2)))
				SVG_FAIL("mismatched end tag '%.20s'", p);
			for (; q < end; q++)
				if (!strchr(" \t\r\n", *q))
					SVG_FAIL("junk in end tag");
			depth--;
			p = end + 1;
			continue;
		}
		for (q = p + 1; is_name_char(*q); q++)
			;
		if (q == p + 1 || (q - p - 1) >= 16)
			SVG_FAIL("bad element name near '%.20s'", p);
		{
			int empty = end[-1] == '/';
			const char *aend = empty ? end - 1 : end;
			char name[16];

			snprintf(name, sizeof(name), "%.*s", (int)(q - p - 1),
				 p + 1);
			if (check_attrs(q, aend))
				SVG_FAIL("bad attributes in <%s>", name);
			if (!depth && nroots++)
				SVG_FAIL("more than one root element");
			if (!depth)
				snprintf(info->root, sizeof(info->root), "%s",
					 name);
			cls[0] = '\0';
			attr_get(q, aend, "class", cls, sizeof(cls));
			series_at[depth] = depth ? series_at[depth - 1] : -1;
			if (!strcmp(name, "g") && !strcmp(cls, "series")) {
				struct svg_series *s = &info->s[info->ns];

				if (info->ns == SVG_MAX_SERIES)
					SVG_FAIL("too many series");
				attr_get(q, aend, "data-column", s->column,
					 sizeof(s->column));
				if (!attr_get(q, aend, "data-points", buf,
					      sizeof(buf)))
					s->declared = atol(buf);
				series_at[depth] = (long)info->ns++;
			}
			if (!strcmp(name, "g") && !strcmp(cls, "mark") &&
			    info->nm < SVG_MAX_MARKS) {
				struct svg_mark *m = &info->m[info->nm++];

				attr_get(q, aend, "data-kind", m->kind,
					 sizeof(m->kind));
				if (!attr_get(q, aend, "data-bytes", buf,
					      sizeof(buf)))
					m->bytes = strtoull(buf, NULL, 10);
			}
			if (!strcmp(name, "g") && !strcmp(cls, "fit"))
				info->nfit++;
			if (!strcmp(name, "text"))
				info->ntext++;
			if (series_at[depth] >= 0 && !strcmp(name, "circle"))
				info->s[series_at[depth]].counted++;
			if (series_at[depth] >= 0 && !strcmp(name, "path") &&
			    !strcmp(cls, "marks")) {
				const char *d = strstr(q, " d=\"");

				for (d = d ? d + 4 : aend; d < aend && *d != '"';
				     d++)
					info->s[series_at[depth]].counted +=
						*d == 'M';
			}
			if (!empty) {
				if (depth == 64)
					SVG_FAIL("nested too deep");
				snprintf(stack[depth], sizeof(stack[0]), "%s",
					 name);
				depth++;
			}
		}
		p = end + 1;
	}
	if (depth)
		SVG_FAIL("<%s> not closed", stack[depth - 1]);
	if (!nroots)
		SVG_FAIL("no root element");
	for (k = 0; k < info->ns; k++)
		if (info->s[k].declared != info->s[k].counted) {
			snprintf(buf, sizeof(buf), "%s", info->s[k].column);
			SVG_FAIL("series %s: %ld points declared, %ld drawn",
				 buf, info->s[k].declared,
				 info->s[k].counted);
		}
	return 0;
}

START_TEST(test_xml_checker)
{
	static const char *const bad[] = {
		"<a><b></a>", "<a x=1/>", "<a>&foo;</a>", "<a></a><b/>",
		"<a>x < y</a>", "<a b=\"1\"c=\"2\"/>", "text<a/>", "<a>",
		"<a x=\"&\"/>",
		"<svg><g class=\"series\" data-points=\"2\"><circle/></g></svg>",
	};
	struct svg_info info;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(svg_parse(bad[i], &info) == -1,
			      "accepted '%s'", bad[i]);
	ck_assert_int_eq(svg_parse("<?xml version=\"1.0\"?>\n<svg a='1'>"
				   "<g class=\"series\" data-column=\"x\" "
				   "data-points=\"3\"><circle/><path class="
				   "\"marks\" d=\"M1 1h0M2 2h0\"/></g>"
				   "<!-- c --><t>&amp;&#181;</t></svg>\n",
				   &info), 0);
	ck_assert_str_eq(info.root, "svg");
	ck_assert_uint_eq(info.ns, 1);
	ck_assert_int_eq(info.s[0].counted, 3);
}
END_TEST

/* ---- --plot ---- */

/* Where the SVGs and PNGs go: FLASHBENCH_PLOT_DIR, or a temp dir. */
static char plot_dir[256];

static void plot_dir_setup(void)
{
	const char *d = getenv("FLASHBENCH_PLOT_DIR");

	if (d && *d) {
		snprintf(plot_dir, sizeof(plot_dir), "%s", d);
		mkdir(plot_dir, 0755);
		return;
	}
	snprintf(plot_dir, sizeof(plot_dir), "/tmp/fb-plots-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(plot_dir));
}

static void plot_dir_teardown(void)
{
	char cmd[300];

	if (getenv("FLASHBENCH_PLOT_DIR") || !plot_dir[0])
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", plot_dir);
	if (system(cmd) != 0)
		fprintf(stderr, "docs: cannot remove %s\n", plot_dir);
}

/*
 * Run flashbench with args and --plot=NAME.svg, check the document and
 * render it to NAME.png.  Returns the SVG text (malloc'd); *stdout_text
 * gets the results.
 */
static char *plot_run(const char *name, const char *args,
		      struct svg_info *info, char **stdout_text)
{
	char cmd[1024], svg[512], png[512];
	struct fb_run r;
	char *text;

	snprintf(svg, sizeof(svg), "%s/%s.svg", plot_dir, name);
	snprintf(png, sizeof(png), "%s/%s.png", plot_dir, name);
	snprintf(cmd, sizeof(cmd), "%s --plot=%s", args, svg);
	fb_run(cmd, &r);
	ck_assert_msg(r.status == 0, "'%s': status %d: %s", cmd, r.status,
		      r.err);
	text = read_all(svg, NULL);
	ck_assert_msg(text != NULL, "no %s", svg);
	ck_assert_msg(svg_parse(text, info) == 0, "%s: %s", svg, info->err);
	ck_assert_str_eq(info->root, "svg");
	ck_assert_msg(strstr(text, "xmlns=\"http://www.w3.org/2000/svg\""),
		      "%s: no SVG namespace", svg);
	/* self-contained: nothing fetched from elsewhere */
	ck_assert(!strstr(text, "href") && !strstr(text, "<script") &&
		  !strstr(text, "@import"));
	if (!tool_missing("rsvg-convert", "librsvg2-bin")) {
		char *argv[] = { (char *)"/bin/sh", (char *)"-c",
				 (char *)"rsvg-convert \"$0\" -o \"$1\"", svg,
				 png, NULL };
		struct cmd_result c;
		char *pngdata;
		size_t len = 0;

		ck_assert_int_eq(run_cmd(argv, &c), 0);
		ck_assert_msg(c.status == 0 && !c.err[0],
			      "rsvg-convert %s: status %d: %s", svg, c.status,
			      c.err);
		cmd_result_free(&c);
		pngdata = read_all(png, &len);
		ck_assert_msg(pngdata && len > 1000 &&
			      !memcmp(pngdata, "\x89PNG", 4), "%s: no PNG", png);
		free(pngdata);
	}
	if (stdout_text)
		*stdout_text = strdup(r.out);
	fb_free(&r);
	return text;
}

/* Lines of text, and the fields of its first line. */
static size_t count_lines(const char *t, const char *prefix)
{
	size_t n = 0;
	const char *p;

	for (p = t; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : p)
		if (!prefix || !strncmp(p, prefix, strlen(prefix)))
			n += *p != '\n';
	return n;
}

static size_t count_fields(const char *line)
{
	size_t n = 0;
	int in = 0;

	for (; *line && *line != '\n'; line++) {
		if (*line == ' ' || *line == '\t')
			in = 0;
		else if (!in && ++n)
			in = 1;
	}
	return n;
}

/* The series named column (fails if absent). */
static const struct svg_series *series(const struct svg_info *info,
				       const char *column)
{
	size_t i;

	for (i = 0; i < info->ns; i++)
		if (!strcmp(info->s[i].column, column))
			return &info->s[i];
	ck_abort_msg("no series '%s'", column);
	return NULL;
}

static const struct svg_mark *mark(const struct svg_info *info,
				   const char *kind)
{
	size_t i;

	for (i = 0; i < info->nm; i++)
		if (!strcmp(info->m[i].kind, kind))
			return &info->m[i];
	return NULL;
}

/* The align plot of a planted card: 4 series, the verdict marked. */
static void check_align_plot(const char *name, const char *spec,
			     uint64_t bs, uint64_t erase)
{
	static const char *const cols[4] = { "pre", "on", "post", "diff" };
	struct bench_opts o;
	struct align_row *rows = NULL;
	struct align_verdict v;
	struct svg_info info;
	struct device *dev;
	const struct svg_mark *m;
	char args[256], *out, *svg, *mine;
	size_t n = 0, len = 0, k;
	FILE *f;

	snprintf(args, sizeof(args), "-a -b %" PRIu64 " --simulate=%s", bs,
		 spec);
	svg = plot_run(name, args, &info, &out);
	/* the same rows in-process, to know the verdict */
	bench_opts_default(&o);
	o.blocksize_byte = bs;
	dev = sim_card(spec);
	ck_assert_int_eq(bench_align(dev, &o, &rows, &n), 0);
	dev_close(dev);
	f = open_memstream(&mine, &len);
	print_align(f, rows, n);
	fclose(f);
	ck_assert_str_eq(mine, out);	/* really the same table */
	ck_assert_int_eq(analyze_align(rows, n, &v), 0);
	ck_assert_uint_eq(v.erase.size_byte, erase);
	ck_assert_uint_eq(info.ns, 4);
	for (k = 0; k < 4; k++)
		ck_assert_int_eq(series(&info, cols[k])->counted, (long)n);
	ck_assert_uint_eq(n, count_lines(out, "align "));
	m = mark(&info, "erase");
	ck_assert_msg(m, "%s: erase size not marked", name);
	ck_assert_uint_eq(m->bytes, v.erase.size_byte);
	m = mark(&info, "page");
	if (v.page.size_byte) {
		ck_assert_msg(m, "%s: page size not marked", name);
		ck_assert_uint_eq(m->bytes, v.page.size_byte);
	} else {
		ck_assert_ptr_null(m);
	}
	free(rows);
	free(mine);
	free(out);
	free(svg);
}

START_TEST(test_plot_align)
{
	check_align_plot("align", "erase=4M,page=16K", 4096, 4 << 20);
	check_align_plot("align-8m", "erase=8M,page=32K,seed=3", 8192,
			 8 << 20);
}
END_TEST

START_TEST(test_plot_scatter)
{
	struct svg_info info;
	char *out, *svg;

	/* circles up to PLOT_MAX_CIRCLES points, one path beyond */
	svg = plot_run("scatter", "-s --scatter-order=9 -c 2 --simulate",
		       &info, &out);
	ck_assert_uint_eq(info.ns, 1);
	ck_assert_int_eq(series(&info, "time")->counted, 512);
	ck_assert_uint_eq(count_lines(out, NULL), 512);
	free(out);
	free(svg);
	svg = plot_run("scatter-big", "-s --scatter-order=12 -c 1 --simulate",
		       &info, &out);
	ck_assert_int_eq(series(&info, "time")->counted, 4096);
	ck_assert_uint_eq(count_lines(out, NULL), 4096);
	ck_assert(strstr(svg, "class=\"marks\""));
	free(out);
	free(svg);
}
END_TEST

START_TEST(test_plot_interval)
{
	struct svg_info info;
	char *out, *svg;
	size_t rows;

	svg = plot_run("interval", "-i --interval-order=10 --simulate", &info,
		       &out);
	rows = count_lines(out, "bytes ");	/* the overhead lines */
	ck_assert_uint_eq(rows, 10);
	ck_assert_uint_eq(info.ns, 3);
	ck_assert_int_eq(series(&info, "min")->counted, 10);
	ck_assert_int_eq(series(&info, "avg")->counted, 10);
	ck_assert_int_eq(series(&info, "max")->counted, 10);
	ck_assert_uint_eq(info.nfit, 1);
	free(out);
	free(svg);
}
END_TEST

/* A writing test's plot: one series per column, a point per row. */
static void check_table_plot(const char *name, const char *args,
			     size_t want_cols, const char *first_col)
{
	struct svg_info info;
	char *out, *svg;
	size_t rows, cols, k;

	svg = plot_run(name, args, &info, &out);
	rows = count_lines(out, NULL);
	cols = count_fields(out) - 1;
	ck_assert_uint_eq(cols, want_cols);
	ck_assert_uint_gt(rows, 3);
	ck_assert_uint_eq(info.ns, cols);
	for (k = 0; k < info.ns; k++)
		ck_assert_int_eq(info.s[k].counted, (long)rows);
	ck_assert_str_eq(info.s[0].column, first_col);
	free(out);
	free(svg);
}

START_TEST(test_plot_writes)
{
	check_table_plot("open-au", "-O --open-au-nr=3 -b 64K --simulate", 1,
			 "write");
	check_table_plot("find-fat", "-f --fat-nr=5 -b 64K --simulate", 5,
			 "AU 0");
	check_table_plot("program", "-p --simulate", 8, "write 0x00");
	/* the plot does not change the table */
	{
		struct svg_info info;
		struct fb_run plain;
		char *out, *svg;

		svg = plot_run("open-au-r", "-O -r -b 256K --simulate", &info,
			       &out);
		fb_run("-O -r -b 256K --simulate", &plain);
		ck_assert_str_eq(out, plain.out);
		fb_free(&plain);
		free(out);
		free(svg);
	}
}
END_TEST

/*
 * The x-axis tick labels of the chart after at (text-anchor middle, up
 * to the chart's axis title) are whole numbers; returns how many.
 */
static size_t check_whole_ticks(const char *at)
{
	const char *end, *p;
	size_t n = 0;
	char *stop;

	ck_assert_ptr_nonnull(at);
	end = strstr(at, "class=\"axis\"");
	ck_assert_ptr_nonnull(end);
	for (p = strstr(at, "text-anchor=\"middle\" class=\"tick\">");
	     p && p < end;
	     p = strstr(p + 1, "text-anchor=\"middle\" class=\"tick\">")) {
		p = strchr(p, '>') + 1;
		strtod(p, &stop);
		ck_assert_msg(*stop == '<' && !memchr(p, '.', (size_t)(stop - p)),
			      "tick %.8s is not a whole number", p);
		n++;
	}
	return n;
}

/* The value after svg_key in the chart is the one after text_key. */
static void same_value(const char *svg, const char *text,
		       const char *svg_key, const char *text_key)
{
	const char *a = strstr(svg, svg_key), *b = strstr(text, text_key);
	size_t n;

	ck_assert_msg(a != NULL, "the chart lacks '%s'", svg_key);
	ck_assert_msg(b != NULL, "the text lacks '%s'", text_key);
	a += strlen(svg_key);
	b += strlen(text_key);
	n = strcspn(a, " ,<");
	ck_assert_msg(n > 0 && !strncmp(a, b, n) && strchr(" ,\n", b[n]),
		      "chart %.*s, text %.20s", (int)n, a, b);
}

START_TEST(test_plot_auto)
{
	struct svg_info info;
	const struct svg_mark *m;
	char *svg, *text;

	svg = plot_run("auto", "--auto --destructive --simulate=fat=2,fat_start=1",
		       &info, NULL);
	m = mark(&info, "erase");
	ck_assert_msg(m && m->bytes == 4 << 20, "auto: erase mark");
	ck_assert(strstr(svg, "erase size: 4MiB"));
	m = mark(&info, "open-linear");
	ck_assert_msg(m && m->bytes == 4, "auto: linear open AUs mark");
	m = mark(&info, "open-random");
	ck_assert_msg(m && m->bytes == 2, "auto: random open AUs mark");
	m = mark(&info, "fat");
	ck_assert_msg(m && m->bytes == 1, "auto: FAT mark");
	ck_assert_int_eq(series(&info, "in order")->counted, 5);
	ck_assert_int_eq(series(&info, "out of order")->counted, 5);
	/* AUs are counted: the open-AU and FAT charts' x ticks are whole */
	ck_assert_uint_ge(check_whole_ticks(strstr(svg, ">open-AU probes:")), 3);
	ck_assert_uint_ge(check_whole_ticks(strstr(svg, ">FAT probe:")), 3);
	free(svg);
	/* the whole verdict, as the text gives it (issue 20 item 2) */
	svg = plot_run("auto-all", "--auto --destructive --simulate=size=16G,plane=2,group=2G",
		       &info, &text);
	same_value(svg, text, "program unit: ", "program unit: ");
	same_value(svg, text, "allocation group: ", "allocation group: ");
	same_value(svg, text, "capacity: genuine, all ",
		   "capacity: genuine as far as the check sees, all ");
	ck_assert_ptr_nonnull(strstr(svg, ">classes: FAIL U3 V30 V60 V90 A1 A2; 7 of 13 pass<"));
	ck_assert_uint_eq(count_str(text, " FAIL "), 6);
	ck_assert_uint_eq(count_str(text, " pass "), 7);
	same_value(svg, text, "device time: ", "device time: ");
	free(text);
	free(svg);
	/* read-only: the write panels say why they are empty */
	svg = plot_run("auto-ro", "--auto --simulate", &info, NULL);
	ck_assert(strstr(svg, "need --destructive"));
	ck_assert_ptr_null(mark(&info, "open-linear"));
	free(svg);
}
END_TEST

/* --json and --plot together: one document on stdout, the chart beside. */
START_TEST(test_plot_json)
{
	struct svg_info info;
	char *out, *svg, v[64];

	svg = plot_run("json-open-au", "-O --json -b 256K --simulate", &info,
		       &out);
	ck_assert_int_eq(json_get(out, "results.4.size", v, sizeof(v)), 0);
	ck_assert_int_eq(json_get(out, "results.5.size", v, sizeof(v)), -2);
	ck_assert_int_eq(series(&info, "write")->counted, 5);	/* 4M..256K */
	ck_assert(!strstr(out, "<svg"));
	free(out);
	free(svg);
	svg = plot_run("json-align", "-a --json -b 64K --simulate", &info,
		       &out);
	ck_assert_int_eq(json_get(out, "results.0.align", v, sizeof(v)), 0);
	ck_assert_int_eq(json_get(out, "verdict", v, sizeof(v)), 0);
	ck_assert_ptr_nonnull(mark(&info, "erase"));
	free(out);
	free(svg);
}
END_TEST

/*
 * A DEVICE whose name is not UTF-8: --json and --plot stay valid, each
 * bad byte becomes U+FFFD, valid UTF-8 ("\xc3\xa9", e acute) is kept.
 */
START_TEST(test_plot_json_bad_utf8_name)
{
	char dev[300], args[700], want[300], v[300], *out, *svg;
	struct svg_info info;
	int fd;

	snprintf(dev, sizeof(dev), "%s/caf\xc3\xa9-\xff\xc3-XXXXXX",
		 plot_dir);
	fd = mkstemp(dev);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, 16 << 20), 0);
	close(fd);
	snprintf(args, sizeof(args), "-a --json -c 1 -b 64K %s", dev);
	svg = plot_run("bad-utf8", args, &info, &out);
	unlink(dev);
	/* plot_run checked the SVG is well-formed UTF-8; so is the JSON */
	ck_assert_msg(json_get(out, "device.path", v, sizeof(v)) == 0,
		      "invalid JSON: %s", out);
	snprintf(want, sizeof(want), "\"%.*s\\ufffd\\ufffd%s\"",
		 (int)(strstr(dev, "\xff") - dev), dev, strstr(dev, "\xff") + 2);
	ck_assert_str_eq(v, want);
	snprintf(want, sizeof(want), "%.*s\xef\xbf\xbd\xef\xbf\xbd%s",
		 (int)(strstr(dev, "\xff") - dev), dev, strstr(dev, "\xff") + 2);
	ck_assert_msg(strstr(svg, want), "no '%s' in the SVG", want);
	free(out);
	free(svg);
}
END_TEST

START_TEST(test_plot_analyze)
{
	char args[4400];
	struct svg_info info;
	char *svg;

	snprintf(args, sizeof(args), "--analyze=%s/tests/data/seed000.txt",
		 srcdir());
	svg = plot_run("analyze", args, &info, NULL);
	ck_assert_int_eq(series(&info, "diff")->counted, 17);
	ck_assert_msg(mark(&info, "erase") &&
		      mark(&info, "erase")->bytes == 4 << 20,
		      "seed 000 is a 4 MiB card");
	free(svg);
}
END_TEST

START_TEST(test_plot_errors)
{
	struct fb_run r;

	fb_run("-a -s --simulate --plot=/tmp/x.svg", &r);
	ck_assert_int_eq(r.status, 2);
	ck_assert(strstr(r.err, "--plot takes one test"));
	ck_assert_uint_eq(r.io_calls, 0);
	fb_free(&r);
	fb_run("-a --simulate --plot=/nonexistent/dir/x.svg", &r);
	ck_assert_int_eq(r.status, 2);
	ck_assert(strstr(r.err, "invalid --plot '/nonexistent/dir/x.svg'"));
	ck_assert_uint_eq(r.io_calls, 0);
	ck_assert_str_eq(r.out, "");
	fb_free(&r);
	fb_run("-a --simulate --plot", &r);
	ck_assert_int_eq(r.status, 2);
	fb_free(&r);
	/* the errno of the failed write, not EIO (issue 9 item 18) */
	fb_run("-a -c 1 --simulate=size=64M --plot=/dev/full", &r);
	ck_assert_int_eq(r.status, 1);
	ck_assert_str_eq(r.err, "flashbench: cannot write the plot /dev/full: No space left on device\n");
	ck_assert_uint_eq(count_lines(r.out, "align "), 9);
	fb_free(&r);
}
END_TEST

/* --plot=- draws on standard output, the results going to -o FILE. */
START_TEST(test_plot_stdout)
{
	char path[] = "/tmp/fb_plot_outXXXXXX", args[128], *text;
	struct svg_info info;
	struct fb_run r;
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	close(fd);
	snprintf(args, sizeof(args),
		 "-a -c 1 --simulate=size=64M --plot=- -o %s", path);
	fb_run(args, &r);
	ck_assert_msg(r.status == 0, "%s: %s", args, r.err);
	ck_assert_msg(svg_parse(r.out, &info) == 0, "%s", info.err);
	ck_assert_str_eq(info.root, "svg");
	text = read_all(path, NULL);
	ck_assert_ptr_nonnull(text);
	ck_assert_uint_eq(count_lines(text, "align "), 9);
	ck_assert_ptr_null(strstr(text, "<svg"));
	free(text);
	fb_free(&r);
	unlink(path);
	/* no file named "-" was made */
	ck_assert_int_ne(access("-", F_OK), 0);
}
END_TEST

/* ---- progress ---- */

static uint64_t fake_ns;

static uint64_t fake_clock(void)
{
	return fake_ns;
}

/* What the terminal got so far (waits up to ms for the first byte). */
static void pty_drain(int master, char *buf, size_t len, int ms)
{
	struct pollfd pfd = { .fd = master, .events = POLLIN };
	size_t n = 0;

	buf[0] = '\0';
	while (n < len - 1 && poll(&pfd, 1, n ? 50 : ms) > 0) {
		ssize_t got = read(master, buf + n, len - 1 - n);

		if (got <= 0)
			break;
		n += (size_t)got;
	}
	buf[n] = '\0';
}

START_TEST(test_progress_module)
{
	struct progress_seg segs[2] = {
		{ 100, 32768, "first" },
		{ 100, 32768, "second" },
	};
	char buf[4096];
	int master, slave;
	struct progress *p;
	FILE *tty, *mem, *out;
	char *memtext = NULL;
	size_t memlen = 0;

	ck_assert_int_eq(openpty(&master, &slave, NULL, NULL, NULL), 0);
	tty = fdopen(slave, "w");
	ck_assert_ptr_nonnull(tty);
	fake_ns = 1000;
	p = progress_new(tty, 0);
	ck_assert(progress_enabled(p));
	progress_set_clock(p, fake_clock);
	ck_assert_int_eq(progress_start(p, "--test", segs, 2), 0);
	/* the first two seconds: nothing */
	fake_ns += 1900000000ULL;
	progress_step(p, 10);
	pty_drain(master, buf, sizeof(buf), 100);
	ck_assert_str_eq(buf, "");
	/* then a line: a quarter done in 2 s, so 6 s left */
	fake_ns += 100000000ULL;
	progress_step(p, 50);
	pty_drain(master, buf, sizeof(buf), 1000);
	ck_assert_msg(strstr(buf, "flashbench: --test: first, 25%, 0:06 left"),
		      "got '%s'", buf);
	ck_assert(buf[0] == '\r' && strstr(buf, "\033[K"));
	ck_assert(!strchr(buf, '\n'));
	/* not redrawn within 200 ms */
	fake_ns += 100000000ULL;
	progress_step(p, 60);
	pty_drain(master, buf, sizeof(buf), 100);
	ck_assert_str_eq(buf, "");
	/* three quarters at 4 s: the second step, 2 s left (rounded up) */
	fake_ns += 1900000000ULL;
	progress_step(p, 150);
	pty_drain(master, buf, sizeof(buf), 1000);
	ck_assert_msg(strstr(buf, "second, 75%, 0:02 left"), "got '%s'", buf);
	/* a results line on the same terminal clears the line first */
	out = progress_wrap(p, tty);
	ck_assert_ptr_ne(out, tty);
	fprintf(out, "4MiB    8.79M/s \n");
	pty_drain(master, buf, sizeof(buf), 1000);
	ck_assert_msg(!strncmp(buf, "\r\033[K4MiB    8.79M/s ", 19),
		      "got '%s'", buf);
	ck_assert_ptr_eq(progress_unwrap(p, out), tty);
	/* done: the line is cleared when it was shown */
	fake_ns += 300000000ULL;
	progress_step(p, 190);
	progress_done(p);
	pty_drain(master, buf, sizeof(buf), 1000);
	ck_assert_msg(strlen(buf) > 8 &&
		      !strcmp(buf + strlen(buf) - 4, "\r\033[K"),
		      "got '%s'", buf);
	progress_free(p);

	/* quiet, or not a terminal: never a byte */
	fake_ns = 0;
	p = progress_new(tty, 1);
	ck_assert(!progress_enabled(p));
	progress_set_clock(p, fake_clock);
	progress_start(p, "--test", segs, 2);
	fake_ns = 5000000000ULL;
	progress_step(p, 100);
	progress_done(p);
	progress_free(p);
	pty_drain(master, buf, sizeof(buf), 200);
	ck_assert_str_eq(buf, "");
	mem = open_memstream(&memtext, &memlen);
	fake_ns = 0;
	p = progress_new(mem, 0);
	ck_assert(!progress_enabled(p));
	progress_set_clock(p, fake_clock);
	progress_start(p, "--test", segs, 2);
	fake_ns = 5000000000ULL;
	progress_step(p, 100);
	progress_done(p);
	progress_free(p);
	fclose(mem);
	ck_assert_uint_eq(memlen, 0);
	free(memtext);
	fclose(tty);
	close(master);
}
END_TEST

/* A test of unknown length shows its step and the time elapsed. */
/*
 * On a narrow terminal the line keeps its numbers and cuts the words
 * before them (issue 9 item 20): first "flashbench: ", then the step.
 */
START_TEST(test_progress_narrow)
{
	struct progress_seg segs[1] = {
		{ 100, 32768, "precondition 16KiB" },
	};
	struct winsize ws = { .ws_row = 24, .ws_col = 30 };
	char buf[4096], *line;
	int master, slave;
	struct progress *p;
	FILE *tty;

	ck_assert_int_eq(openpty(&master, &slave, NULL, NULL, &ws), 0);
	tty = fdopen(slave, "w");
	ck_assert_ptr_nonnull(tty);
	fake_ns = 1000;
	p = progress_new(tty, 0);
	progress_set_clock(p, fake_clock);
	ck_assert_int_eq(progress_start(p, "--auto", segs, 1), 0);
	fake_ns += 2000000000ULL;
	progress_step(p, 25);
	pty_drain(master, buf, sizeof(buf), 1000);
	/* "\r" LINE "\033[K": LINE fits in 29 columns, numbers whole */
	ck_assert_msg(buf[0] == '\r' && strstr(buf, "\033[K"), "got '%s'",
		      buf);
	line = buf + 1;
	*strstr(line, "\033[K") = '\0';
	ck_assert_msg(strlen(line) <= 29, "too wide: '%s'", line);
	ck_assert_str_eq(line, "--auto: preco, 25%, 0:06 left");
	progress_done(p);
	progress_free(p);
	fclose(tty);
	close(master);
}
END_TEST

START_TEST(test_progress_unknown_length)
{
	char buf[1024];
	int master, slave;
	struct progress *p;
	FILE *tty, *log;

	ck_assert_int_eq(openpty(&master, &slave, NULL, NULL, NULL), 0);
	tty = fdopen(slave, "w");
	fake_ns = 0;
	p = progress_new(tty, 0);
	progress_set_clock(p, fake_clock);
	progress_start(p, "--auto", NULL, 0);
	log = progress_log(p, NULL);
	fprintf(log, "auto: FAT area probe (writes)\n");
	fake_ns = 65000000000ULL;
	progress_step(p, 7);
	pty_drain(master, buf, sizeof(buf), 1000);
	ck_assert_msg(strstr(buf, "flashbench: --auto: FAT area probe (writes), 1:05 elapsed"),
		      "got '%s'", buf);
	ck_assert(!strchr(buf, '%'));
	ck_assert_ptr_null(progress_unwrap(p, log));
	progress_free(p);
	fclose(tty);
	close(master);
}
END_TEST

/* What a planned test is made of. */
START_TEST(test_progress_plan)
{
	struct device *dev = sim_card(NULL);
	struct bench_opts o;
	int master, slave;
	struct progress *p;
	FILE *tty;

	ck_assert_int_eq(openpty(&master, &slave, NULL, NULL, NULL), 0);
	tty = fdopen(slave, "w");
	bench_opts_default(&o);
	p = progress_new(tty, 0);
	/* planning reads nothing from the device */
	ck_assert_int_eq(progplan_start(p, mode_of(BENCH_OPEN_AU), &o, dev), 0);
	ck_assert_int_eq(progplan_start(p, mode_of(BENCH_ALIGN), &o, dev), 0);
	ck_assert_uint_eq(dev->io_count, 0);
	/* attached, the count follows the device; detached, its clock is back */
	{
		void *buf = dev_alloc_buf(4096);
		struct device *w;
		uint64_t t;

		w = progress_attach(p, dev);
		ck_assert_ptr_ne(w, dev);
		ck_assert_ptr_eq(w->inner, dev);
		ck_assert_int_eq(dev_read(w, buf, 4096, 0, &t), 0);
		ck_assert_uint_gt(t, 0);	/* the virtual clock still runs */
		ck_assert_uint_eq(dev->io_count, 1);
		/* a wrapper forwards untimed I/O: the clock stands still */
		dev_untimed(w, 1);
		ck_assert_int_eq(dev_read(w, buf, 4096, 0, &t), 0);
		ck_assert_uint_eq(t, 0);
		dev_untimed(w, 0);
		ck_assert_ptr_eq(progress_detach(p, w), dev);
		ck_assert_ptr_eq(progress_detach(p, dev), dev);
		dev_free_buf(buf);
	}
	/* a batch goes down as a batch: one access for two queued reads */
	{
		struct device *q = sim_card("noise=0,queue=2"), *w;
		void *buf = dev_alloc_buf(8192);
		struct dev_req r[2] = {
			{ 0, buf, 4096, 0 },
			{ 0, (char *)buf + 4096, 4096, 1 << 20 },
		};
		uint64_t t;

		w = progress_attach(p, q);
		ck_assert_ptr_eq(w->inner, q);
		ck_assert_int_eq(dev_batch(w, r, 2, &t), 0);
		ck_assert_uint_eq(t, 700000 + 2 * 163840);
		ck_assert_uint_eq(q->io_count, 2);
		ck_assert_ptr_eq(progress_detach(p, w), q);
		dev_free_buf(buf);
		dev_close(q);
	}
	progress_free(p);
	dev_close(dev);
	fclose(tty);
	close(master);
}
END_TEST

/* A virtual wall clock for the progress line: 10 ms per reading. */
static uint64_t progress_vclock_ns;

static uint64_t progress_vclock(void)
{
	progress_vclock_ns += 10000000;
	return progress_vclock_ns;
}

/*
 * Run the front end in a child process with stderr on a pseudo-terminal
 * (or a pipe when on_tty is 0) and the progress line on the virtual
 * clock above, so that the line shows however fast the machine is;
 * returns the exit status and what stderr got.
 */
static int run_on_pty(const char *const args[], int on_tty, char *err,
		      size_t len)
{
	char *argv[32];
	int master = -1, slave = -1, pfd[2], status, argc;
	size_t n = 0;
	char sink[4096];
	pid_t pid;

	argv[0] = (char *)"flashbench";
	for (argc = 1; argc < 31 && args[argc - 1]; argc++)
		argv[argc] = (char *)args[argc - 1];
	argv[argc] = NULL;
	if (on_tty) {
		ck_assert_int_eq(openpty(&master, &slave, NULL, NULL, NULL), 0);
	} else {
		ck_assert_int_eq(pipe(pfd), 0);
		master = pfd[0];
		slave = pfd[1];
	}
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		FILE *out = fopen("/dev/null", "w");
		FILE *tty = fdopen(slave, "w");

		close(master);
		if (!out || !tty)
			_exit(127);
		flashbench_progress_clock = progress_vclock;
		status = flashbench_main(argc, argv, out, tty);
		fclose(tty);
		fclose(out);
		_exit(status);
	}
	close(slave);
	for (;;) {
		/* keep reading when err is full, so the child never blocks */
		ssize_t got = n < len - 1 ?
			read(master, err + n, len - 1 - n) :
			read(master, sink, sizeof(sink));

		if (got > 0) {
			n += n < len - 1 ? (size_t)got : 0;
			continue;
		}
		if (got < 0 && errno == EINTR)
			continue;
		break;	/* EOF, or EIO once the child closed the pty */
	}
	err[n] = '\0';
	close(master);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

START_TEST(test_progress_end_to_end)
{
	/*
	 * 2 rounds over 2^12 positions: 8192 reads, about 80 s on the
	 * virtual clock of run_on_pty (the line reads it at every call
	 * while 5 ms pass between readings), well past the progress line's
	 * 2 s delay, however fast the machine.
	 */
	char out[300], arg[320];
	const char *args[] = { "--simulate", "-s", "-b", "4K",
			       "--scatter-order=12", "-c", "2", arg, NULL, NULL };
	const char *quiet[] = { "--simulate", "-s", "-b", "4K",
				"--scatter-order=12", "-c", "2", arg, "-q",
				NULL };
	static char err[1 << 16];
	char *res;
	size_t len = 0;
	int status;

	snprintf(out, sizeof(out), "%s/progress.txt", plot_dir);
	snprintf(arg, sizeof(arg), "-o%s", out);
	status = run_on_pty(args, 1, err, sizeof(err));
	res = read_all(out, &len);
	unlink(out);	/* nothing left behind, whatever fails below */
	ck_assert_int_eq(status, 0);
	ck_assert_msg(strstr(err, "\rflashbench: --scatter: round ") &&
		      strstr(err, "%, "), "no progress line: '%.300s'", err);
	ck_assert_msg(!strchr(err, '\n'), "more than one line: '%.300s'", err);
	ck_assert_msg(strlen(err) > 4 &&
		      !strcmp(err + strlen(err) - 4, "\r\033[K"),
		      "line not cleared: '%.300s'", err + strlen(err) -
		      (strlen(err) > 300 ? 300 : strlen(err)));
	/* never in the results */
	ck_assert_ptr_nonnull(res);
	ck_assert_uint_eq(count_lines(res, NULL), 1 << 12);
	ck_assert_ptr_null(strchr(res, '\r'));
	ck_assert_ptr_null(strchr(res, '\033'));
	free(res);
	/* -q, and stderr not a terminal: nothing */
	ck_assert_int_eq(run_on_pty(quiet, 1, err, sizeof(err)), 0);
	unlink(out);
	ck_assert_str_eq(err, "");
	ck_assert_int_eq(run_on_pty(args, 0, err, sizeof(err)), 0);
	unlink(out);
	ck_assert_str_eq(err, "");
}
END_TEST

/*
 * Every message on a terminal that shows the progress line starts on a
 * line of its own: after a newline, after the line was cleared
 * ("\r\033[K"), or as a redrawn line ("\r"); never glued to the end
 * of a progress line.  Returns the number of messages glued.
 */
static size_t glued_messages(const char *err)
{
	const char *p = err;
	size_t n = 0;

	while ((p = strstr(p, "flashbench: "))) {
		size_t i = (size_t)(p - err);

		if (i && err[i - 1] != '\n' && err[i - 1] != '\r' &&
		    !(i >= 4 && !strncmp(err + i - 4, "\r\033[K", 4)))
			n++;
		p++;
	}
	return n;
}

/* The file the front end opened, as a simulated card of its size. */
static struct device *sim_of_file(struct device *file)
{
	char spec[96];

	snprintf(spec, sizeof(spec), "readsig=0,size=%llu",
		 (unsigned long long)file->size_byte);
	dev_close(file);
	return sim_card(spec);
}

/*
 * --auto --destructive --preserve on a terminal, where the erase size
 * comes from writes (no read signature): the later steps put back what
 * the erase search wrote, which redraws the progress line, and only then
 * announce their own writes; each message still starts a line of its
 * own (issue 20 item 2).  The card is a simulated one behind a sparse
 * file, so that --preserve saves and restores.
 */
START_TEST(test_progress_auto_messages)
{
	char img[300], journal[300];
	const char *args[] = { "--auto", "--destructive", "--preserve",
			       "--journal", journal, img, NULL };
	static char err[1 << 18];
	int fd;

	snprintf(img, sizeof(img), "%s/card.img", plot_dir);
	snprintf(journal, sizeof(journal), "%s/card.journal", plot_dir);
	fd = open(img, O_CREAT | O_EXCL | O_WRONLY, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, 1LL << 30), 0);
	close(fd);
	flashbench_open_hook = sim_of_file;
	fd = run_on_pty(args, 1, err, sizeof(err));
	flashbench_open_hook = NULL;
	unlink(img);
	ck_assert_msg(fd == 0, "status %d: %.2000s", fd, err);
	ck_assert_msg(strstr(err, "\rflashbench: --auto: "),
		      "no progress line: '%.300s'", err);
	ck_assert_msg(strstr(err, "will overwrite"), "no announcement");
	ck_assert_msg(glued_messages(err) == 0,
		      "%zu messages glued to the progress line: '%.2000s'",
		      glued_messages(err), err);
}
END_TEST

/*
 * -L's progress line shows its step, percent and time left, as the man
 * page promises (it said only "running, 0:02 elapsed").
 */
START_TEST(test_progress_class)
{
	const char *args[] = { "--simulate=size=1G", "-L", NULL };
	static char err[1 << 16];

	ck_assert_int_eq(run_on_pty(args, 1, err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "\rflashbench: --class: random "),
		      "no step: '%.300s'", err);
	ck_assert_msg(strstr(err, " left\033[K"), "no time left: '%.300s'",
		      err);
	ck_assert_ptr_null(strstr(err, "running"));
	ck_assert_uint_eq(glued_messages(err), 0);
}
END_TEST

/*
 * -C's progress line too shows its step, percent and time left (it said
 * only "running, 0:02 elapsed").
 */
START_TEST(test_progress_capacity)
{
	const char *args[] = { "--simulate=size=8G", "-C", NULL };
	static char err[1 << 16];

	ck_assert_int_eq(run_on_pty(args, 1, err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "\rflashbench: --capacity: flush"),
		      "no step: '%.300s'", err);
	ck_assert_msg(strstr(err, "%, "), "no percent: '%.300s'", err);
	ck_assert_msg(strstr(err, " left\033[K"), "no time left: '%.300s'",
		      err);
	ck_assert_ptr_null(strstr(err, "running"));
	ck_assert_uint_eq(glued_messages(err), 0);
}
END_TEST

/* ---- bash completion ---- */

/*
 * Complete line (as typed, the cursor at its end) with the function fn
 * of completion/flashbench.bash; *out gets the candidates, one per line.
 */
static void complete(const char *line, const char *fn, char **out)
{
	static const char script[] =
		"source \"$1/completion/flashbench.bash\" || exit 3\n"
		"PATH=\"$2:$PATH\"\n"
		"COMP_LINE=$3; COMP_POINT=${#3}\n"
		"read -ra COMP_WORDS <<< \"$3\"\n"
		"[[ $3 == *' ' ]] && COMP_WORDS+=('')\n"
		"COMP_CWORD=$((${#COMP_WORDS[@]} - 1))\n"
		"$4\n"
		"printf '%s\\n' \"${COMPREPLY[@]}\"\n";
	char bindir[4096], *copy = strdup(flashbench_bin());
	char *argv[] = { (char *)"/bin/bash", (char *)"-c", (char *)script,
			 (char *)"complete", (char *)srcdir(), bindir,
			 (char *)line, (char *)fn, NULL };
	struct cmd_result r;

	snprintf(bindir, sizeof(bindir), "%s", dirname(copy));
	free(copy);
	ck_assert_int_eq(run_cmd(argv, &r), 0);
	ck_assert_msg(r.status == 0, "completing '%s': status %d: %s", line,
		      r.status, r.err);
	*out = r.out;
	free(r.err);
}

/*
 * The options among the words of text from the first start (its first
 * skip characters left out) to the next stop, split at any of seps,
 * into s.
 */
static void script_options(const char *text, const char *start, size_t skip,
			   const char *stop, const char *seps,
			   struct optset *s)
{
	const char *p = strstr(text, start), *end;

	ck_assert_msg(p != NULL, "no '%s' in the completion", start);
	p += skip;
	end = strstr(p, stop);
	ck_assert_ptr_nonnull(end);
	while (p < end) {
		size_t n = strcspn(p, seps);

		if (p + n > end)
			n = (size_t)(end - p);
		if (n && *p == '-')
			opt_add(s, p, n);
		p += n ? n : 1;
	}
}

/*
 * The completion's own lists against the table of options: the options
 * that take a value (completed from the next word), and the list it
 * offers where flashbench cannot be run.
 */
static void check_completion_lists(void)
{
	struct optset table = { .n = 0 }, values = { .n = 0 };
	struct optset comp = { .n = 0 };
	char *text = src_file("completion/flashbench.bash"), name[48];
	size_t i;

	table_options(&table);
	for (i = 0; i < opt_rows_nr; i++) {
		const struct opt_row *r = &opt_rows[i];

		if (r->kind == OPT_TEXT) {
			snprintf(name, sizeof(name), "--%s=", opt_name(r));
			opt_add(&table, name, strlen(name));
		}
		if (!opt_takes_value(r) || r->kind == OPT_TEXT)
			continue;
		snprintf(name, sizeof(name), "--%s", opt_name(r));
		opt_add(&values, name, strlen(name));
		if (opt_short(r)) {
			snprintf(name, sizeof(name), "-%c", opt_short(r));
			opt_add(&values, name, 2);
		}
	}
	script_options(text, "_flashbench_value_opts='", 24, "'", "|", &comp);
	check_same_options(&values, "the table's options with a value",
			   &comp, "_flashbench_value_opts");
	comp.n = 0;
	script_options(text, "printf '%s\\n' -a ", 14, "\n}", " \t\n\\",
		       &comp);
	check_same_options(&table, "the table of options", &comp,
			   "the completion's list");
	free(text);
}

/*
 * Every word the completion offers for a --simulate key is a value the
 * simulated card takes.
 */
static void check_simulate_values(void)
{
	static const char *const keys[] = {
		"fake", "collapse", "fat_kind", "host", "claims", "ftl",
	};
	char line[128], spec[160], why[256], *got, *w, *save = NULL;
	struct sim_params p;
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		size_t n = 0;

		snprintf(line, sizeof(line), "flashbench --simulate=%s=",
			 keys[i]);
		complete(line, "_flashbench", &got);
		for (w = strtok_r(got, "\n", &save); w;
		     w = strtok_r(NULL, "\n", &save), n++) {
			snprintf(spec, sizeof(spec), "real_size=4G,%s=%s",
				 keys[i], w);
			sim_params_default(&p);
			ck_assert_msg(!sim_parse_spec(&p, spec, why,
						      sizeof(why)),
				      "%s: %s", spec, why);
		}
		ck_assert_msg(n >= 2, "%s: %zu words", keys[i], n);
		free(got);
	}
}

static void assert_completes(const char *line, const char *want)
{
	char *got;

	complete(line, "_flashbench", &got);
	ck_assert_msg(!strcmp(got, want), "'%s' -> '%s', want '%s'", line, got,
		      want);
	free(got);
}

START_TEST(test_completion)
{
	struct optset help = { .n = 0 }, comp = { .n = 0 };
	char *got, why[1024];
	size_t i;

	if (access("/bin/bash", X_OK))
		return;
	assert_completes("flashbench --al", "--align\n");
	assert_completes("flashbench --scatter-o", "--scatter-order\n");
	assert_completes("flashbench -b 6", "64K\n");
	assert_completes("flashbench --erasesize 1", "1M\n12M\n16M\n");
	assert_completes("flashbench --interval-order=2",
			 "20\n21\n22\n23\n24\n");
	/* bash replaces what follows the last "=" of the word */
	assert_completes("flashbench --simulate=er", "erase=\nerase_us=\n");
	assert_completes("flashbench --simulate=size=8G,open",
			 "8G,open=\n8G,open_random=\n");
	assert_completes("flashbench --simulate=size=8G,fat_",
			 "8G,fat_start=\n8G,fat_mbps=\n8G,fat_page=\n8G,fat_kind=\n8G,fat_gain=\n");
	/* no DEVICE after --simulate */
	assert_completes("flashbench --simulate -a ", "\n");
	/* the words some --simulate keys take (issue 20 item 2) */
	assert_completes("flashbench --simulate=size=8G,fake=l",
			 "limbo-zero\nlimbo-garbage\n");
	assert_completes("flashbench --simulate=collapse=",
			 "sharp\ngradual\n");
	assert_completes("flashbench --simulate=claims=C10+U",
			 "C10+U1\nC10+U3\n");
	assert_completes("flashbench --simulate=claims=V",
			 "V6\nV10\nV30\nV60\nV90\n");
	check_simulate_values();
	/* a DEVICE after --restore JOURNAL, in either spelling */
	{
		char line[4200];
		int k;

		for (k = 0; k < 2; k++) {
			snprintf(line, sizeof(line),
				 "flashbench --restore%sj %s/tests/data/seed00",
				 k ? "=" : " ", srcdir());
			complete(line, "_flashbench", &got);
			ck_assert_msg(count_lines(got, NULL) == 5, "'%s' -> '%s'",
				      line, got);
			free(got);
		}
	}
	/* files where a path is typed (in directory order) */
	{
		char line[4200];

		snprintf(line, sizeof(line), "flashbench %s/tests/data/seed00",
			 srcdir());
		complete(line, "_flashbench", &got);
		ck_assert_uint_eq(count_lines(got, NULL), 5);
		for (i = 0; i < 5; i++) {
			snprintf(line, sizeof(line),
				 "%s/tests/data/seed00%zu.txt\n", srcdir(), i);
			ck_assert_msg(strstr(got, line), "no %s in %s", line,
				      got);
		}
		free(got);
	}
	/* every option of --help, and no other */
	complete("flashbench -", "_flashbench", &got);
	help_options(got, &comp);
	prog_help(flashbench_bin(), &help, NULL);
	ck_assert_msg(!opt_missing(&help, &comp, why, sizeof(why)),
		      "not completed:%s", why);
	ck_assert_msg(!opt_missing(&comp, &help, why, sizeof(why)),
		      "completed but not in --help:%s", why);
	ck_assert(strstr(got, "--simulate=\n"));
	free(got);
	check_completion_lists();
	/* erase: options, then a device, then sizes */
	complete("erase --v", "_flashbench_erase", &got);
	ck_assert_str_eq(got, "--version\n");
	free(got);
	complete("erase /dev/x 1", "_flashbench_erase", &got);
	ck_assert_str_eq(got, "16M\n");
	free(got);
	/* block devices for DEVICE, where the machine has some */
	for (i = 0; i < 8; i++) {
		char dev[32], line[64];
		struct stat st;

		snprintf(dev, sizeof(dev), "/dev/loop%zu", i);
		if (stat(dev, &st) || !S_ISBLK(st.st_mode))
			continue;
		snprintf(line, sizeof(line), "flashbench -a %s", dev);
		complete(line, "_flashbench", &got);
		ck_assert_msg(strstr(got, dev), "'%s' -> '%s'", line, got);
		free(got);
		break;
	}
}
END_TEST

/* ---- the set-up line ---- */

/*
 * The words of the first line of text holding key, from key on, up to the
 * end of the line, a '"' or "&&"; each word (a package name) padded with a
 * space on both sides, so that " name " finds it.
 */
static void package_words(const char *file, const char *key, char *words,
			  size_t len)
{
	char *text = src_file(file), *at, *end;
	size_t n = 1;

	at = strstr(text, key);
	ck_assert_msg(at != NULL, "%s has no '%s'", file, key);
	at += strlen(key);
	end = at + strcspn(at, "\n\"");
	if (strstr(at, "&&") && strstr(at, "&&") < end)
		end = strstr(at, "&&");
	snprintf(words, len, " ");
	while (at < end) {
		size_t w = strcspn(at, " \t\n\"&");

		if (w && n + w + 2 < len && at + w <= end) {
			memcpy(words + n, at, w);
			n += w;
			words[n++] = ' ';
			words[n] = '\0';
		}
		at += w ? w : 1;
	}
	free(text);
}

/* Every word of a is in b. */
static void assert_words_in(const char *a, const char *what_a,
			    const char *b, const char *what_b)
{
	char word[128];
	const char *at = a;
	int n;

	while (sscanf(at, " %127s%n", word, &n) == 1) {
		char padded[160];

		snprintf(padded, sizeof(padded), " %s ", word);
		ck_assert_msg(strstr(b, padded) != NULL,
			      "%s has '%s', %s does not", what_a, word, what_b);
		at += n;
	}
}

/*
 * The README's set-up line installs exactly what CI installs, so that a
 * newcomer who follows it runs every test, none skipped.
 */
START_TEST(test_setup_line_matches_ci)
{
	char readme[1024], ci[1024];

	package_words("README", "apt-get install -y", readme, sizeof(readme));
	package_words(".ci/run", "PACKAGES=\"", ci, sizeof(ci));
	ck_assert_msg(strlen(ci) > 10, "no package list in .ci/run");
	assert_words_in(ci, ".ci/run", readme, "the README's set-up line");
	assert_words_in(readme, "the README's set-up line", ci, ".ci/run");
}
END_TEST

/*
 * The README's set-up line: the first line holding "apt-get install -y",
 * without its indentation (malloc'd).
 */
static char *setup_line(void)
{
	char *text = src_file("README"), *at, *start, *line;
	size_t len;

	at = strstr(text, "apt-get install -y");
	ck_assert_msg(at != NULL, "the README has no set-up line");
	for (start = at; start > text && start[-1] != '\n'; start--)
		;
	start += strspn(start, " \t");
	len = strcspn(start, "\n");
	line = strndup(start, len);
	ck_assert_ptr_nonnull(line);
	free(text);
	return line;
}

/* Write an executable shell script at dir/name. */
static void write_stub(const char *dir, const char *name, const char *body)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	ck_assert_msg(f != NULL, "cannot write %s", path);
	fprintf(f, "#!/bin/sh\n%s", body);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_int_eq(chmod(path, 0755), 0);
}

/*
 * Stand-ins for what the set-up line may call, each logging to $LOG: id
 * says $STUB_UID; sudo runs its command with uid 0; apt-get refuses to
 * run but as root, as the real one does; make records who built.
 */
static void setup_stubs(const char *dir, int with_sudo)
{
	write_stub(dir, "id",
		   "case \"$1\" in\n"
		   "-u|-ru|-ur) echo \"$STUB_UID\" ;;\n"
		   "*) echo \"uid=$STUB_UID gid=$STUB_UID\" ;;\n"
		   "esac\n");
	write_stub(dir, "apt-get",
		   "if [ \"$(id -u)\" != 0 ]; then\n"
		   "\techo 'E: Could not open lock file - are you root?' >&2\n"
		   "\texit 100\n"
		   "fi\n"
		   "echo \"uid $(id -u): apt-get $*\" >>\"$LOG\"\n");
	write_stub(dir, "make", "echo \"uid $(id -u): make $*\" >>\"$LOG\"\n");
	if (with_sudo)
		write_stub(dir, "sudo",
			   "echo \"sudo $*\" >>\"$LOG\"\n"
			   "export STUB_UID=0\n"
			   "exec \"$@\"\n");
}

/*
 * Run line under shell with only the stubs on PATH, as uid; returns what
 * the stubs logged (malloc'd).
 */
static char *run_setup_line(const char *shell, const char *line,
			    const char *dir, int uid, int with_sudo)
{
	char path_env[600], log_env[600], uid_env[32], log[520], cmd[600];
	char *argv[] = { "/usr/bin/env", "-i", path_env, log_env, uid_env,
			 (char *)shell, "-c", (char *)line, NULL };
	struct cmd_result r;
	char *logged;

	snprintf(cmd, sizeof(cmd), "rm -f '%s'/*", dir);
	ck_assert_int_eq(system(cmd), 0);
	setup_stubs(dir, with_sudo);
	snprintf(log, sizeof(log), "%s/log", dir);
	snprintf(path_env, sizeof(path_env), "PATH=%s", dir);
	snprintf(log_env, sizeof(log_env), "LOG=%s", log);
	snprintf(uid_env, sizeof(uid_env), "STUB_UID=%d", uid);
	ck_assert_int_eq(run_cmd(argv, &r), 0);
	ck_assert_msg(r.status == 0,
		      "%s as uid %d, sudo %s: exit %d: %s", shell, uid,
		      with_sudo ? "present" : "absent", r.status, r.err);
	logged = read_all(log, NULL);
	ck_assert_msg(logged != NULL, "%s as uid %d: nothing ran", shell, uid);
	cmd_result_free(&r);
	return logged;
}

/*
 * The commands the set-up line should run, as the stubs log them: apt-get
 * update, apt-get install -y with .ci/run's packages (in .ci/run's
 * order), through sudo when via_sudo, then make as uid.
 */
static void expected_setup_log(char *out, size_t len, int uid, int via_sudo)
{
	char ci[1024], install[1100];
	size_t n = 0;

	/* ci is " name name ... name " */
	package_words(".ci/run", "PACKAGES=\"", ci, sizeof(ci));
	snprintf(install, sizeof(install), "install -y%.*s",
		 (int)strlen(ci) - 1, ci);
	if (via_sudo)
		n += snprintf(out + n, len - n, "sudo apt-get update\n");
	n += snprintf(out + n, len - n, "uid 0: apt-get update\n");
	if (via_sudo)
		n += snprintf(out + n, len - n, "sudo apt-get %s\n", install);
	snprintf(out + n, len - n, "uid 0: apt-get %s\nuid %d: make \n",
		 install, uid);
}

/*
 * The README's set-up line, exactly as written, on a fresh Debian or
 * Ubuntu machine: as root where sudo is not installed (a container), and
 * as a user through sudo; under dash (sh) and bash.  apt-get update comes
 * first, and the build is the user's own (make not run as root).
 */
START_TEST(test_setup_line_runs)
{
	static const char *const shells[] = { "/bin/sh", "/bin/dash",
					      "/bin/bash" };
	char dir[] = "/tmp/fb-setup-XXXXXX", want[2048], cmd[64];
	char *line = setup_line(), *got;
	size_t i;

	/* pasted into an interactive bash, '!' would expand from history */
	ck_assert_msg(!strchr(line, '!'), "set-up line has '!': %s", line);
	ck_assert_ptr_nonnull(mkdtemp(dir));
	for (i = 0; i < sizeof(shells) / sizeof(shells[0]); i++) {
		if (access(shells[i], X_OK)) {
			ck_assert_msg(strcmp(shells[i], "/bin/bash") &&
				      strcmp(shells[i], "/bin/sh"),
				      "no %s", shells[i]);
			continue;
		}
		got = run_setup_line(shells[i], line, dir, 0, 0);
		expected_setup_log(want, sizeof(want), 0, 0);
		ck_assert_msg(!strcmp(got, want),
			      "%s as root without sudo ran\n%s\nnot\n%s",
			      shells[i], got, want);
		free(got);
		got = run_setup_line(shells[i], line, dir, 1000, 1);
		expected_setup_log(want, sizeof(want), 1000, 1);
		ck_assert_msg(!strcmp(got, want),
			      "%s as a user with sudo ran\n%s\nnot\n%s",
			      shells[i], got, want);
		free(got);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
	free(line);
}
END_TEST

/* ---- the README's align example ---- */

/* A copy of text from at up to the first of end (fails if none). */
static char *text_until(const char *at, const char *end)
{
	const char *stop = strstr(at, end);
	char *copy;

	ck_assert_msg(stop != NULL, "no '%s' in the README", end);
	copy = strndup(at, stop - at + 1);
	ck_assert_ptr_nonnull(copy);
	return copy;
}

/* The number after the words key in text, its lines joined (0: none). */
static unsigned long number_after(const char *text, const char *key)
{
	char *flat = strdup(text), *p;
	unsigned long n = 0;

	ck_assert_ptr_nonnull(flat);
	for (p = flat; *p; p++)
		if (*p == '\n')
			*p = ' ';
	p = strstr(flat, key);
	ck_assert_msg(p != NULL, "the README does not say '%s'", key);
	n = strtoul(p + strlen(key), NULL, 10);
	free(flat);
	return n;
}

/*
 * The README's align table, as it is printed there, is a whole table:
 * --analyze reads from it the AU, the page and the planes' unit that the
 * text beside it names, and prints the line the text quotes.
 */
START_TEST(test_readme_align_example)
{
	char *readme = src_file("README"), *table, *prose, *quoted, *nl;
	const char *at;
	char path[] = "/tmp/fb-readme-align-XXXXXX", arg[64];
	char *argv[] = { (char *)flashbench_bin(), arg, NULL };
	struct align_table *t;
	struct align_verdict v;
	struct cmd_result r;
	size_t nt, len;
	int fd;

	/* the table: from under the heading's rule to the blank line */
	at = strstr(readme, "\nReading the align table\n---");
	ck_assert_ptr_nonnull(at);
	at = strchr(at + strlen("\nReading the align table\n"), '\n') + 1;
	table = text_until(at, "\n\n");
	ck_assert_msg(!strstr(table, "..."), "the example has rows left out");
	/* the text about it, up to the next section */
	prose = text_until(at + strlen(table), "\nOther tests\n");
	at = strstr(prose, "\n    table 1: ");
	ck_assert_ptr_nonnull(at);
	quoted = strndup(at + 5, strcspn(at + 5, "\n"));
	ck_assert_ptr_nonnull(quoted);

	ck_assert_int_eq(analyze_parse(table, strlen(table), &t, &nt), 0);
	ck_assert_uint_eq(nt, 1);
	ck_assert_uint_eq(t[0].nrows, count_str(table, "align "));
	ck_assert_int_eq(analyze_align(t[0].rows, t[0].nrows, &v), 0);
	ck_assert_uint_eq(v.erase.size_byte,
			  number_after(prose, "the AU is ") << 20);
	ck_assert_uint_eq(v.page.size_byte,
			  number_after(prose, "mark the page (here "));
	ck_assert_uint_eq(v.plane.size_byte,
			  number_after(prose, "planes at once (here "));
	analyze_free_tables(t, nt);

	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	len = strlen(table);
	ck_assert_int_eq(write(fd, table, len), (ssize_t)len);
	close(fd);
	snprintf(arg, sizeof(arg), "--analyze=%s", path);
	ck_assert_int_eq(run_cmd(argv, &r), 0);
	unlink(path);
	ck_assert_int_eq(r.status, 0);
	nl = strchr(r.out, '\n');
	ck_assert_ptr_nonnull(nl);
	*nl = '\0';
	ck_assert_str_eq(r.out, quoted);
	cmd_result_free(&r);
	free(quoted);
	free(prose);
	free(table);
	free(readme);
}
END_TEST

Suite *docs_suite(void)
{
	Suite *s = suite_create("docs");
	TCase *tc;

	tc = tcase_create("man");
	tcase_add_test(tc, test_flashbench_man_options);
	tcase_add_test(tc, test_fuzz_dict_options);
	tcase_add_test(tc, test_erase_man_options);
	tcase_add_test(tc, test_man_check_can_fail);
	tcase_add_test(tc, test_man_renders);
	tcase_add_test(tc, test_man_sections);
	tcase_add_test(tc, test_writing_tests_listed);
	tcase_add_test(tc, test_man_write_steps_order);
	tcase_add_test(tc, test_man_class_units);
	tcase_add_test(tc, test_setup_line_matches_ci);
	tcase_add_test(tc, test_setup_line_runs);
	tcase_add_test(tc, test_readme_align_example);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);

	tc = tcase_create("plot");
	tcase_add_checked_fixture(tc, plot_dir_setup, plot_dir_teardown);
	tcase_add_test(tc, test_xml_checker);
	tcase_add_test(tc, test_plot_align);
	tcase_add_test(tc, test_plot_scatter);
	tcase_add_test(tc, test_plot_interval);
	tcase_add_test(tc, test_plot_writes);
	tcase_add_test(tc, test_plot_auto);
	tcase_add_test(tc, test_plot_json);
	tcase_add_test(tc, test_plot_json_bad_utf8_name);
	tcase_add_test(tc, test_plot_analyze);
	tcase_add_test(tc, test_plot_errors);
	tcase_add_test(tc, test_plot_stdout);
	tcase_add_test(tc, test_blocksize_minimum_documented);
	tcase_add_test(tc, test_simulate_keys_documented);
	tcase_add_test(tc, test_open_random_default_documented);
	tcase_add_test(tc, test_install_uninstall);
	tcase_set_timeout(tc, 300);
	suite_add_tcase(s, tc);

	tc = tcase_create("progress");
	tcase_add_checked_fixture(tc, plot_dir_setup, plot_dir_teardown);
	tcase_add_test(tc, test_progress_module);
	tcase_add_test(tc, test_progress_narrow);
	tcase_add_test(tc, test_progress_unknown_length);
	tcase_add_test(tc, test_progress_plan);
	tcase_add_test(tc, test_progress_end_to_end);
	tcase_add_test(tc, test_progress_auto_messages);
	tcase_add_test(tc, test_progress_capacity);
	tcase_add_test(tc, test_progress_class);
	tcase_set_timeout(tc, 300);
	suite_add_tcase(s, tc);

	tc = tcase_create("completion");
	tcase_add_test(tc, test_completion);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return s;
}
