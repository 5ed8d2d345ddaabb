// SPDX-License-Identifier: GPL-2.0-only
/*
 * The README's commands: its set-up line names the packages CI installs
 * and runs (on stub package managers), and its align example shows what
 * flashbench -a prints.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyze.h"
#include "docread.h"
#include "util.h"

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
	ck_assert_ptr_nonnull(strstr(prose, "\n    table 1: "));

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
	/* the verdict as printed (80 columns: it may go on a second line),
	 * each line indented as the README quotes it */
	quoted = calloc(2 * strlen(r.out) + 8, 1);
	ck_assert_ptr_nonnull(quoted);
	for (at = r.out; *at; at = nl + 1) {
		nl = strchr(at, '\n');
		ck_assert_ptr_nonnull(nl);
		strcat(quoted, "\n    ");
		strncat(quoted, at, (size_t)(nl - at));
	}
	strcat(quoted, "\n");
	ck_assert_msg(strstr(prose, quoted), "the README lacks%s", quoted);
	cmd_result_free(&r);
	free(quoted);
	free(prose);
	free(table);
	free(readme);
}
END_TEST

/*
 * The README's "Where things live" is a few lines and a pointer to the
 * contributors' map (issue 27 item 18: it listed every file), and that
 * map, doc/house.md, is there.
 */
START_TEST(test_readme_where)
{
	char *readme = src_file("README"), *house = src_file("doc/house.md");
	const char *at = strstr(readme, "\nWhere things live\n");
	char *where;

	ck_assert_ptr_nonnull(at);
	where = text_until(at, "\nLicense");
	ck_assert_uint_le(count_str(where, "\n"), 25);
	ck_assert_ptr_nonnull(strstr(where, "doc/house.md"));
	ck_assert_ptr_nonnull(strstr(house, "front/"));
	free(where);
	free(house);
	free(readme);
}
END_TEST

Suite *readme_suite(void)
{
	Suite *s = suite_create("readme");
	TCase *tc;

	tc = tcase_create("readme");
	tcase_add_test(tc, test_setup_line_matches_ci);
	tcase_add_test(tc, test_setup_line_runs);
	tcase_add_test(tc, test_readme_align_example);
	tcase_add_test(tc, test_readme_where);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return s;
}
