// SPDX-License-Identifier: GPL-2.0-only
/*
 * Every example of the README, doc/ and the man page is run, and prints
 * what the text shows (issue 20 item 1).
 *
 * An example is a command line starting "$ " (in the README and doc/
 * indented by four spaces, in the man page inside .EX/.EE), continued
 * while a line ends in a backslash; the lines after it, up to a blank
 * line, the next command or the block's end, are what it prints.  A line
 * "..." stands for lines left out; without one at the end the output
 * must end where the example's does.  Lines starting "flashbench: " are
 * looked for, in order, on the error stream.  In the man page a block
 * after the comment line '.\" quoted' shows a real card's output: the
 * command runs on the simulated card, and each line shown must have the
 * shape of the line printed (its first word and its number of words).
 *
 * Each runs under bash in a scratch directory whose flashbench (and
 * ./flashbench) is the binary under test with any /dev/... device
 * replaced by the simulated card (--simulate), with sudo running the
 * command as it is (the tests run as root or not at all on devices) and
 * gnuplot a stub; tests/ is the source tree's.  A command must exit 0:
 * an example that shows another status ends in "; echo $?".  --restore
 * is the one exception: a simulated card keeps no journal (nothing is
 * saved on it), so its line must run and find none; test_loop_preserve.c
 * restores real journals on loop devices.  Two commands of the README
 * are not examples ("$ " lines) but are tested too: the set-up line by
 * test_readme.c (test_setup_line_runs), and make check by being the
 * tests.
 *
 * What each example prints fits 80 columns on both streams (issue 27
 * item 14), the whole of one piped into head or grep too; so do --auto,
 * -C and -L on cards of every kind, with and without -v, --analyze of
 * every table and record of tests/data, --registers, --survey, and every
 * golden output shown to a terminal.  Only a command to copy that names
 * a --simulate= spec may be longer (check_width()).
 */
#include <dirent.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "c.h"
#include "docread.h"
#include "util.h"

#define EX_MAX 64
#define EX_CMD 1024
#define EX_WANT 8192

struct example {
	char cmd[EX_CMD];	/* the command, continuations joined */
	char want[EX_WANT];	/* what it prints, lines joined by \n */
	unsigned int line;	/* where it starts in its file */
	int shape;		/* a real card's output, quoted: only the
				 * shape of each line is compared */
};

/* A file of the source tree, NUL-terminated (malloc'd); fails if none. */
static char *src_text(const char *name)
{
	char path[4200], *buf;
	long len;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", srcdir(), name);
	f = fopen(path, "rb");
	ck_assert_msg(f != NULL, "cannot read %s", path);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	buf = malloc((size_t)len + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(fread(buf, 1, (size_t)len, f), (size_t)len);
	buf[len] = '\0';
	fclose(f);
	return buf;
}

/* Append s (n bytes) and a newline to buf of size len. */
static void add_line(char *buf, size_t len, const char *s, size_t n)
{
	size_t at = strlen(buf);

	ck_assert_msg(at + n + 2 <= len, "an example is too long");
	memcpy(buf + at, s, n);
	buf[at + n] = '\n';
	buf[at + n + 1] = '\0';
}

/* The man page's escapes in one line, undone in place. */
static void man_plain(char *s)
{
	static const struct {
		const char *from, *to;
	} esc[] = {
		{ "\\-", "-" }, { "\\(aq", "'" }, { "\\(dq", "\"" },
		{ "\\(mc", "\xc2\xb5" }, { "\\&", "" }, { "\\e", "\\" },
	};
	size_t i;

	for (i = 0; i < sizeof(esc) / sizeof(esc[0]); i++) {
		char *p;

		while ((p = strstr(s, esc[i].from))) {
			size_t f = strlen(esc[i].from), t = strlen(esc[i].to);

			memcpy(p, esc[i].to, t);
			memmove(p + t, p + f, strlen(p + f) + 1);
		}
	}
}

/*
 * The examples of text: lines starting with prefix then "$ ", and the
 * lines after them that start with prefix up to a blank one (man: the
 * lines of an .EX block up to the next command or .EE).  Returns how
 * many.
 */
static size_t find_examples(const char *text, const char *prefix, int man,
			    struct example *ex, size_t max)
{
	size_t n = 0, plen = strlen(prefix);
	unsigned int lineno = 0;
	struct example *cur = NULL;
	int cont = 0, in = !man, quoted = 0;
	const char *p = text;
	char line[EX_CMD];

	for (; *p; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] == '\n')) {
		size_t len = strcspn(p, "\n");

		lineno++;
		snprintf(line, sizeof(line), "%.*s", (int)len, p);
		if (man) {
			if (!strncmp(line, ".\\\" quoted", 10))
				quoted = 1;
			if (!strcmp(line, ".EX"))
				in = 1;
			if (!strcmp(line, ".EE"))
				in = quoted = 0;
			if (!in || line[0] == '.') {
				cur = NULL;
				continue;
			}
			man_plain(line);
		} else if (strncmp(line, prefix, plen) || !line[plen]) {
			cur = NULL;
			continue;
		}
		len = strlen(line + plen);
		if (cont) {
			add_line(cur->cmd, sizeof(cur->cmd),
				 line + plen + strspn(line + plen, " "),
				 strlen(line + plen + strspn(line + plen, " ")));
		} else if (!strncmp(line + plen, "$ ", 2)) {
			ck_assert_uint_lt(n, max);
			cur = &ex[n++];
			cur->cmd[0] = cur->want[0] = '\0';
			cur->line = lineno;
			cur->shape = quoted;
			add_line(cur->cmd, sizeof(cur->cmd), line + plen + 2,
				 len - 2);
		} else if (cur) {
			add_line(cur->want, sizeof(cur->want), line + plen,
				 len);
		}
		cont = cur && len && line[plen + len - 1] == '\\';
	}
	return n;
}

/* Make the scratch directory and its stand-ins in dir (a template). */
static void example_dir(char *dir)
{
	char path[4300], tests[4200];
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/flashbench", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "#!/bin/sh\n"
		"# the flashbench under test, a device under /dev the simulated card\n"
		"for a do\n\tshift\n\tcase $a in\n"
		"\t/dev/*) set -- \"$@\" --simulate ;;\n"
		"\t*) set -- \"$@\" \"$a\" ;;\n\tesac\ndone\n"
		"exec '%s' \"$@\"\n", flashbench_bin());
	fclose(f);
	ck_assert_int_eq(chmod(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/sudo", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("#!/bin/sh\nexec \"$@\"\n", f);
	fclose(f);
	ck_assert_int_eq(chmod(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/gnuplot", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("#!/bin/sh\n# a stand-in: the data file must be there\n"
	      "f=${3#*\\\"}; test -s \"${f%\\\"*}\"\n", f);
	fclose(f);
	ck_assert_int_eq(chmod(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/tests", dir);
	snprintf(tests, sizeof(tests), "%s/tests", srcdir());
	ck_assert_int_eq(symlink(tests, path), 0);
}

static void example_dir_remove(const char *dir)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* The next line of *p (copied into line), or 0 at the end. */
static int next_line(const char **p, char *line, size_t len)
{
	size_t n;

	if (!**p)
		return 0;
	n = strcspn(*p, "\n");
	snprintf(line, len, "%.*s", (int)n, *p);
	*p += n + ((*p)[n] == '\n');
	return 1;
}

/* Words of a line, and whether two lines have the same first one. */
static size_t words(const char *s)
{
	size_t n = 0;

	for (s += strspn(s, " \t"); *s; s += strspn(s, " \t"), n++)
		s += strcspn(s, " \t");
	return n;
}

/* Is the first word of s a decimal fraction (a measurement, not a size)? */
static int number_first(const char *s)
{
	size_t n = strcspn(s, " \t");

	return n && strspn(s, "0123456789.") == n && memchr(s, '.', n);
}

/*
 * Are two lines alike: the same, or for a quoted card's (shape) the same
 * number of words and the same first word, any fraction for a fraction.
 */
static int same_line(const char *a, const char *b, int shape)
{
	size_t n = strcspn(a, " \t");

	if (!shape)
		return !strcmp(a, b);
	if (words(a) != words(b))
		return 0;
	if (number_first(a) && number_first(b))
		return 1;
	return n == strcspn(b, " \t") && !strncmp(a, b, n);
}

/*
 * Does out hold want's lines in order ("..." for lines left out; "flashbench: "
 * lines in err instead)?  Returns NULL, or what did not match.
 */
static const char *match(const char *want, const char *out, const char *err,
			 int shape, char *why, size_t len)
{
	const char *w = want, *o = out, *e = err;
	char wl[EX_CMD], ol[EX_CMD];
	int gap = 0;

	while (next_line(&w, wl, sizeof(wl))) {
		if (!strcmp(wl, "...")) {
			gap = 1;
			continue;
		}
		if (!strncmp(wl, "flashbench: ", 12)) {
			const char *at = strstr(e, wl);

			if (!at) {
				snprintf(why, len, "no '%s' on stderr", wl);
				return why;
			}
			e = at + strlen(wl);
			continue;
		}
		for (;;) {
			if (!next_line(&o, ol, sizeof(ol))) {
				snprintf(why, len, "no line '%s'", wl);
				return why;
			}
			if (same_line(ol, wl, shape))
				break;
			if (!gap) {
				snprintf(why, len, "'%s' where the text has '%s'",
					 ol, wl);
				return why;
			}
		}
		gap = 0;
	}
	/* (a quoted card's lines all look alike: they need not end it) */
	if (want[0] && !gap && !shape && next_line(&o, ol, sizeof(ol))) {
		snprintf(why, len, "more output: '%s'", ol);
		return why;
	}
	return NULL;
}

/*
 * An example piped into head or grep shows a part of what flashbench
 * prints: the whole, on both streams, fits 80 columns too (the command
 * up to its first '|', without its 2>/dev/null).
 */
static void width_unpiped(const char *cmd, const char *dir, const char *why)
{
	char script[EX_CMD + 512], head[EX_CMD], *p;
	char *argv[] = { (char *)"/bin/bash", (char *)"-c", script, NULL };
	struct cmd_result r;

	if (!strchr(cmd, '|') || !strstr(cmd, "flashbench"))
		return;
	snprintf(head, sizeof(head), "%.*s", (int)strcspn(cmd, "|"), cmd);
	while ((p = strstr(head, "2>/dev/null")))
		memmove(p, p + 11, strlen(p + 11) + 1);
	snprintf(script, sizeof(script), "cd '%s' && PATH='%s':$PATH && %s",
		 dir, dir, head);
	ck_assert_int_eq(run_cmd(argv, &r), 0);
	check_width(why, r.out);
	check_width(why, r.err);
	cmd_result_free(&r);
}

/* Run one example of file in dir and check what it prints. */
static void run_example(const char *file, const struct example *ex,
			const char *dir)
{
	char script[EX_CMD + 512], why[2 * EX_CMD + 64], cmd[EX_CMD], *p;
	char *argv[] = { (char *)"/bin/bash", (char *)"-c", script, NULL };
	struct cmd_result r;

	/* the command on one line, for the messages */
	snprintf(cmd, sizeof(cmd), "%s", ex->cmd);
	for (p = cmd; (p = strchr(p, '\n')); )
		*p = ' ';

	snprintf(script, sizeof(script),
		 "cd '%s' && PATH='%s':$PATH && %s", dir, dir, ex->cmd);
	ck_assert_int_eq(run_cmd(argv, &r), 0);
	if (strstr(ex->cmd, "--restore")) {
		ck_assert_msg(r.status == 1 &&
			      strstr(r.err, "cannot open journal"),
			      "%s:%u: %s: status %d: %s", file, ex->line,
			      cmd, r.status, r.err);
	} else {
		ck_assert_msg(r.status == 0, "%s:%u: %s: status %d: %s", file,
			      ex->line, cmd, r.status, r.err);
	}
	ck_assert_msg(!match(ex->want, r.out, r.err, ex->shape, why,
			     sizeof(why)),
		      "%s:%u: %s: %s", file, ex->line, cmd, why);
	/* what a user sees fits a terminal (issue 27 item 14) */
	snprintf(why, sizeof(why), "%s:%u: %s", file, ex->line, cmd);
	check_width(why, r.out);
	check_width(why, r.err);
	cmd_result_free(&r);
	width_unpiped(ex->cmd, dir, why);
}

/* Run every example of file; returns how many there were. */
static size_t run_examples(const char *file, const char *prefix, int man)
{
	struct example *ex = calloc(EX_MAX, sizeof(*ex));
	char *text = src_text(file), dir[] = "/tmp/fb-examples-XXXXXX";
	size_t n, i;

	ck_assert_ptr_nonnull(ex);
	n = find_examples(text, prefix, man, ex, EX_MAX);
	example_dir(dir);
	for (i = 0; i < n; i++)
		run_example(file, &ex[i], dir);
	example_dir_remove(dir);
	free(text);
	free(ex);
	return n;
}

/* The reader of examples finds commands, continuations and outputs. */
START_TEST(test_find_examples)
{
	static const char text[] =
		"Intro\n\n    $ a one \\\n      two\n    out 1\n    ...\n"
		"    out 2\n\n    not a command\n    $ b\n";
	static const char man[] =
		".EX\n$ x \\e\n  \\-y\n\\&...\n.EE\n$ not\n"
		".\\\" quoted\n.EX\n$ z\n.EE\n";
	struct example ex[4];
	char why[256];

	ck_assert_uint_eq(find_examples(text, "    ", 0, ex, 4), 2);
	ck_assert_str_eq(ex[0].cmd, "a one \\\ntwo\n");
	ck_assert_str_eq(ex[0].want, "out 1\n...\nout 2\n");
	ck_assert_uint_eq(ex[0].line, 3);
	ck_assert_str_eq(ex[1].cmd, "b\n");
	ck_assert_str_eq(ex[1].want, "");
	ck_assert_uint_eq(find_examples(man, "", 1, ex, 4), 2);
	ck_assert_str_eq(ex[0].cmd, "x \\\n-y\n");
	ck_assert_str_eq(ex[0].want, "...\n");
	ck_assert_str_eq(ex[1].cmd, "z\n");
	ck_assert(!ex[0].shape && ex[1].shape);
	/* the matcher: in order, gaps only where "..." says */
	ck_assert_ptr_null(match("out 1\n...\nout 2\n", "out 1\nx\nout 2\n",
				 "", 0, why, sizeof(why)));
	ck_assert_ptr_nonnull(match("out 1\nout 2\n", "out 1\nx\nout 2\n",
				    "", 0, why, sizeof(why)));
	ck_assert_ptr_nonnull(match("out 1\n", "out 1\nmore\n", "", 0, why,
				    sizeof(why)));
	ck_assert_ptr_nonnull(match("out 2\n...\n", "out 1\nout 2\n", "",
				    0, why, sizeof(why)));
	ck_assert_ptr_null(match("...\nout 2\n", "out 1\nout 2\n", "", 0,
				 why, sizeof(why)));
	/* a quoted card's lines: the first word and the number of words */
	ck_assert_ptr_null(match("4MiB 8.79M/s\n", "4MiB 12.1M/s\n", "", 1,
				 why, sizeof(why)));
	ck_assert_ptr_nonnull(match("4MiB 8.79M/s\n", "2MiB 12.1M/s\n", "",
				    1, why, sizeof(why)));
	ck_assert_ptr_nonnull(match("4MiB 8.79M/s\n", "4MiB 1 2\n", "", 1,
				    why, sizeof(why)));
	ck_assert_ptr_null(match("flashbench: w\n", "", "flashbench: w 1\n",
				 0, why, sizeof(why)));
	ck_assert_ptr_nonnull(match("flashbench: v\n", "", "flashbench: w\n",
				    0, why, sizeof(why)));
}
END_TEST

START_TEST(test_readme_examples)
{
	ck_assert_uint_ge(run_examples("README", "    ", 0), 10);
}
END_TEST

START_TEST(test_doc_examples)
{
	run_examples("doc/verdict.md", "    ", 0);
	run_examples("doc/simulate.md", "    ", 0);
}
END_TEST

START_TEST(test_man_examples)
{
	ck_assert_uint_ge(run_examples("flashbench.1", "", 1), 15);
}
END_TEST

/*
 * Beyond the examples: what --auto, -C, -L and --survey print on cards
 * of every kind fits 80 columns, on both streams (issue 27 item 14).
 */
START_TEST(test_width)
{
	static const char *const runs[] = {
		"--auto --simulate",
		"--auto --destructive --simulate",
		"--auto --destructive --simulate=readsig=0",
		"--auto --destructive --simulate=size=1G,erase=8M,page=32K,open=2,open_random=1,fat=2,noise=2,seed=7",
		"--auto --destructive --simulate=size=2G,real_size=512M",
		"--auto --destructive --simulate=size=2G,real_size=512M,fake=wrap",
		"-C --simulate",
		"-C --simulate=size=16G,real_size=2G",
		"-C --simulate=size=64G,real_size=3000M,fake=wrap",
		"-C --simulate=size=16M,erase=1M",
		"-L --simulate",
		"-L --simulate=claims=C10+U1+A1",
	};
	char dir[] = "/tmp/fb-width-XXXXXX", path[64], args[128];
	struct fb_run r;
	size_t i;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	for (i = 0; i < ARRAY_SIZE(runs); i++) {
		fb_run(runs[i], &r);
		check_width(runs[i], r.out);
		check_width(runs[i], r.err_raw);
		/* nothing found says so once (item 19: "none (confidence
		 * none)", of the erase size from reads on readsig=0) */
		ck_assert_msg(!strstr(r.out, "none (confidence none)"), "%s: %s",
			      runs[i], r.out);
		fb_free(&r);
	}
	/* --survey of a record of each --auto run */
	for (i = 0; i < 6; i++) {
		FILE *f;

		snprintf(args, sizeof(args), "%s --json", runs[i]);
		fb_run(args, &r);
		snprintf(path, sizeof(path), "%s/%zu.json", dir, i);
		f = fopen(path, "w");
		ck_assert_ptr_nonnull(f);
		fputs(r.out, f);
		fclose(f);
		fb_free(&r);
	}
	snprintf(args, sizeof(args), "--survey %s", dir);
	fb_run(args, &r);
	ck_assert_int_eq(r.status, 0);
	check_width(args, r.out);
	check_width(args, r.err_raw);
	fb_free(&r);
	example_dir_remove(dir);
}
END_TEST

/*
 * The "from writes" evidence on a card seen only with data written
 * first says once what the writes saw (issue 27 item 14: 437 characters
 * that said "further and further apart" twice), in lines of 80 columns.
 */
START_TEST(test_from_writes_once)
{
	static const char args[] = "--auto --destructive --simulate=readsig=0,erase=8M,open=6,open_random=2,used=0";
	struct fb_run r;
	char *line;

	fb_run(args, &r);
	ck_assert_int_eq(r.status, 0);
	check_width(args, r.out);
	unwrap_text(r.out);
	line = strstr(r.out, "\n  from writes: 8MiB (confidence high): ");
	ck_assert_ptr_nonnull(line);
	line[strcspn(line + 1, "\n") + 1] = '\0';
	ck_assert_uint_eq(count_str(line, "further and further apart"), 1);
	ck_assert_uint_eq(count_str(line, "without it showed no collection"), 1);
	ck_assert_uint_le(strlen(line), 400);
	fb_free(&r);
}
END_TEST

/* One run's two streams against 80 columns. */
static void width_of_run(const char *args)
{
	struct fb_run r;

	fb_run(args, &r);
	check_width(args, r.out);
	check_width(args, r.err_raw);
	fb_free(&r);
}

/*
 * -v's lines too: the man page promises every line fits 80 columns, the
 * evidence behind -v among them (issue 27 item 14).
 */
START_TEST(test_width_verbose)
{
	static const char *const runs[] = {
		"--auto -v --simulate",
		"--auto -v --simulate=size=8G,erase=3M,page=16K,group=2G,noise=2.5,seed=127",
		"--auto --destructive -v --simulate",
		"--auto --destructive -v --simulate=readsig=0,ftl=page,map=16K",
		"--auto --destructive -v --simulate=ftl=page,map=8K",
		"--auto --destructive -v --simulate=size=2G,real_size=512M,fake=wrap",
		"--auto --destructive --simulate=ftl=page,map=8K",
		"--auto --destructive --simulate=readsig=0,ftl=page,map=16K",
		"-C -v --simulate=size=16G,real_size=2G",
		"-L -v --simulate=claims=C10+U1+A1",
		"-a -v --erasesize=8M --simulate",
		"-O -v --simulate=size=1G",
		"-f -v --simulate=size=1G",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(runs); i++)
		width_of_run(runs[i]);
}
END_TEST

/*
 * The files of a folder of the source tree (sub) whose names end in
 * suffix, as paths from the tree's top; returns how many (max at most).
 */
static size_t data_files(const char *sub, const char *suffix,
			 char names[][256], size_t max)
{
	char path[4200];
	struct dirent *d;
	size_t n = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "%s/%s", srcdir(), sub);
	dir = opendir(path);
	ck_assert_msg(dir != NULL, "%s", path);
	while ((d = readdir(dir)) && n < max) {
		size_t len = strlen(d->d_name), sl = strlen(suffix);

		if (d->d_name[0] == '.' || len < sl ||
		    strcmp(d->d_name + len - sl, suffix))
			continue;
		ck_assert_int_lt(snprintf(names[n++], 256, "%s/%s", sub,
					  d->d_name), 256);
	}
	closedir(dir);
	return n;
}

/*
 * --analyze of every saved table and record of tests/data (with and
 * without -v), --registers of every register set, --survey of the
 * records: what they print fits 80 columns (issue 27 item 14).
 */
START_TEST(test_width_records)
{
	static char names[64][256];
	char here[4096], args[320];
	size_t n, i;

	n = data_files("tests/data", ".txt", names, 64);
	ck_assert_uint_ge(n, 5);
	n += data_files("tests/data/records", ".json", names + n, 64 - n);
	/* paths from the source tree, as a user names them: a message that
	 * quotes one is as long wherever the tree sits */
	ck_assert_ptr_nonnull(getcwd(here, sizeof(here)));
	ck_assert_int_eq(chdir(srcdir()), 0);
	for (i = 0; i < n; i++) {
		ck_assert_int_lt(snprintf(args, sizeof(args), "--analyze=%s",
					  names[i]), (int)sizeof(args));
		width_of_run(args);
		ck_assert_int_lt(snprintf(args, sizeof(args),
					  "--analyze=%s -v", names[i]),
				 (int)sizeof(args));
		width_of_run(args);
	}
	n = data_files("tests/data/extcsd", "", names, 64);
	ck_assert_uint_ge(n, 5);
	for (i = 0; i < n; i++) {
		if (strstr(names[i], ".md"))
			continue;
		ck_assert_int_lt(snprintf(args, sizeof(args), "--registers %s",
					  names[i]), (int)sizeof(args));
		width_of_run(args);
	}
	width_of_run("--registers tests/data/registers-sl16g");
	width_of_run("--survey tests/data/records");
	ck_assert_int_eq(chdir(here), 0);
}
END_TEST

/*
 * Every golden output shown to a terminal (not JSON, a plot's data, CSV
 * or Markdown) fits 80 columns, on both streams: the bad command lines,
 * the warnings and the classic tables too (issue 27 item 14).  The
 * golden's own "$ flashbench ..." head is the command, not its output.
 */
START_TEST(test_width_golden)
{
	static char names[256][256];
	size_t n, i, checked = 0;
	char *text;

	n = data_files("tests/golden", ".out", names, 256);
	ck_assert_uint_ge(n, 50);
	for (i = 0; i < n; i++) {
		const char *p;

		if (strstr(names[i], "json") || strstr(names[i], "plot") ||
		    strstr(names[i], "markdown") || strstr(names[i], "csv"))
			continue;
		text = src_text(names[i]);
		/* (the head's "$ flashbench ..." left out) */
		p = strncmp(text, "$ ", 2) ? text : text + strcspn(text, "\n");
		check_width(names[i], p);
		free(text);
		checked++;
	}
	ck_assert_uint_ge(checked, 50);
	text = src_text("tests/golden/survey.txt");
	check_width("tests/golden/survey.txt", text);
	free(text);
}
END_TEST

Suite *examples_suite(void)
{
	Suite *s = suite_create("examples");
	TCase *tc = tcase_create("examples");

	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test_find_examples);
	tcase_add_test(tc, test_readme_examples);
	tcase_add_test(tc, test_doc_examples);
	tcase_add_test(tc, test_man_examples);
	tcase_add_test(tc, test_width);
	tcase_add_test(tc, test_width_verbose);
	tcase_add_test(tc, test_from_writes_once);
	tcase_add_test(tc, test_width_records);
	tcase_add_test(tc, test_width_golden);
	suite_add_tcase(s, tc);
	return s;
}
