// SPDX-License-Identifier: GPL-2.0-only
/*
 * Golden outputs: what flashbench prints, byte for byte, for a fixed set of
 * command lines (tests/golden/cases): every mode as a table, as JSON and
 * as a plot on three simulated cards, --auto --destructive, --analyze of
 * every seed and real table, -v, and bad command lines.  Moving code
 * around must not change any of it.  When a change is meant to change
 * output, `make golden` writes the files anew; the diff then shows what
 * changed, for review.
 *
 * Each case is one line "NAME ARGS..." (words split at spaces; @PLOT@
 * stands for a temporary file whose contents are recorded too, and is
 * written back wherever its name shows in the output).  Paths are
 * relative to the source tree, where make check runs; a record's
 * "started" is GOLDEN_EPOCH and its kernel @KERNEL@.  Its record,
 * tests/golden/NAME.out, holds the exit status, stdout, stderr and the
 * plot.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "util.h"

#define GOLDEN_MAX_ARGS 40
#define GOLDEN_EPOCH "1795824000"	/* 2026-11-28T00:00:00Z */

/* Where the cases and records are. */
static const char *golden_dir(void)
{
	const char *d = getenv("GOLDEN_DIR");

	return d && *d ? d : "tests/golden";
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *text = NULL;
	size_t len = 0;
	FILE *mem;
	int c;

	if (!f)
		return NULL;
	mem = open_memstream(&text, &len);
	ck_assert_ptr_nonnull(mem);
	while ((c = getc(f)) != EOF)
		putc(c, mem);
	fclose(f);
	fclose(mem);
	return text;
}

/*
 * Replace every "from" in text by "to"; the result is malloc'd.  Used
 * both ways: @PLOT@ into the file's name in the arguments, the name back
 * into @PLOT@ in the record, so that records never hold a random name.
 */
static char *replace(const char *text, const char *from, const char *to)
{
	size_t from_len = strlen(from);
	char *out = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&out, &len);

	ck_assert_ptr_nonnull(mem);
	while (*text) {
		if (!strncmp(text, from, from_len)) {
			fputs(to, mem);
			text += from_len;
		} else {
			putc(*text++, mem);
		}
	}
	fclose(mem);
	return out;
}

/*
 * The host's kernel as a record names it ("Linux 6.1.0 x86_64"): written
 * @KERNEL@ in the golden records, which other hosts must match too.
 */
static const char *host_kernel(void)
{
	static char k[3 * sizeof(((struct utsname *)0)->release)];
	struct utsname u;

	if (!k[0] && !uname(&u))
		snprintf(k, sizeof(k), "%s %s %s", u.sysname, u.release,
			 u.machine);
	return k[0] ? k : "@KERNEL@";
}

/*
 * Run one case and return its record (malloc'd): the command line as
 * written, the exit status, stdout, stderr and the plot file; the host's
 * kernel in it as @KERNEL@.
 */
static char *run_case(const char *line)
{
	char *copy = strdup(line), *tok, *save = NULL, *argv[GOLDEN_MAX_ARGS];
	char plot[] = "/tmp/fb-golden-plotXXXXXX", *rec = NULL, *p, *named;
	struct cmd_result r;
	size_t len = 0, argc = 0, i;
	FILE *mem;
	int fd;

	ck_assert_ptr_nonnull(copy);
	fd = mkstemp(plot);
	ck_assert_int_ge(fd, 0);
	close(fd);
	unlink(plot);	/* flashbench creates it if the case asks */
	argv[argc++] = (char *)flashbench_bin();
	strtok_r(copy, " ", &save);	/* the case's name */
	while ((tok = strtok_r(NULL, " ", &save))) {
		ck_assert_uint_lt(argc, GOLDEN_MAX_ARGS - 1);
		argv[argc++] = replace(tok, "@PLOT@", plot);
	}
	argv[argc] = NULL;
	ck_assert_int_eq(run_cmd(argv, &r), 0);
	mem = open_memstream(&rec, &len);
	ck_assert_ptr_nonnull(mem);
	fprintf(mem, "$ flashbench%s\n--- exit %d\n--- stdout\n%s--- stderr\n%s",
		line + strcspn(line, " "), r.status, r.out, r.err);
	p = slurp(plot);
	if (p) {
		fprintf(mem, "--- plot\n%s", p);
		free(p);
		unlink(plot);
	}
	fclose(mem);
	cmd_result_free(&r);
	for (i = 1; i < argc; i++)
		free(argv[i]);
	free(copy);
	named = replace(rec, plot, "@PLOT@");
	free(rec);
	rec = replace(named, host_kernel(), "@KERNEL@");
	free(named);
	return rec;
}

/* A case's record must equal its file (or, with GOLDEN_UPDATE, become it). */
static int check_case(const char *line, int update)
{
	char name[128], path[4096], *rec, *want;
	int same;

	snprintf(name, sizeof(name), "%.*s", (int)strcspn(line, " "), line);
	snprintf(path, sizeof(path), "%s/%s.out", golden_dir(), name);
	rec = run_case(line);
	if (update) {
		FILE *f = fopen(path, "w");

		ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
		fputs(rec, f);
		ck_assert_int_eq(fclose(f), 0);
		free(rec);
		return 1;
	}
	want = slurp(path);
	same = want && !strcmp(want, rec);
	if (!same)
		fprintf(stderr, "golden: %s differs from %s (make golden, then "
			"git diff tests/golden, shows how)\n", name, path);
	free(want);
	free(rec);
	return same;
}

START_TEST(test_golden_outputs)
{
	char cases[4096], *text, *line, *save = NULL;
	int update = getenv("GOLDEN_UPDATE") != NULL;
	unsigned int n = 0, differ = 0;

	/* the records' "started": the same from one run to the next */
	setenv("SOURCE_DATE_EPOCH", GOLDEN_EPOCH, 1);
	snprintf(cases, sizeof(cases), "%s/cases", golden_dir());
	text = slurp(cases);
	ck_assert_msg(text != NULL, "cannot read %s", cases);
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!*line || *line == '#')
			continue;
		n++;
		differ += !check_case(line, update);
	}
	free(text);
	printf("golden: %u cases%s, %u differ\n", n,
	       update ? " written" : "", differ);
	ck_assert_uint_gt(n, 80);
	ck_assert_msg(differ == 0, "%u of %u golden outputs differ", differ, n);
}
END_TEST

Suite *golden_suite(void)
{
	Suite *s = suite_create("golden");
	TCase *tc = tcase_create("outputs");

	tcase_add_test(tc, test_golden_outputs);
	tcase_set_timeout(tc, 300);
	suite_add_tcase(s, tc);
	return s;
}
