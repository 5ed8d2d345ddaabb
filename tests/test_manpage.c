// SPDX-License-Identifier: GPL-2.0-only
/*
 * The man pages against the table of options and --help (both ways), their
 * sections and rendering, and the values --help, the man page and
 * doc/simulate.md document (the --simulate keys and defaults, -b's
 * minimum) against the code; the page as a user reads it (issue 27 item
 * 18): no font macro that runs words together (".BR \-\-destructive ):
 * the verdict" rendered "--destructive):theverdict"), the classic align
 * table's page read from the row the README reads it from, entries a
 * reader can scan (--auto was one paragraph of 90 lines), the record's
 * shape as the code has it.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "docread.h"
#include "options.h"
#include "rechead.h"
#include "sim.h"
#include "util.h"

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
 * name the short option of every writing test in the table (as "\\-X")?
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
	for (i = 0; i < test_table_nr; i++) {
		const char *q;

		if (!test_table[i]->writes)
			continue;
		snprintf(want, sizeof(want), "\\-%c",
			 test_table[i]->short_option);
		q = strstr(p, want);
		if (!q || q > end)
			return test_table[i]->short_option;
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
	/* with it what the write cache's recheck before it may write */
	p = after(r.err, p, "will overwrite bytes 134217728-234881024 on simulated card\n");
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
 * is the table's (issue 20 item 2: -C and -L were left out of the man
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
	/* the man page's run order, then --help's, are the table's */
	for (i = 0; i < test_table_nr; i++)
		if (test_table[i]->short_option)	/* not --auto */
			snprintf(order + strlen(order),
				 sizeof(order) - strlen(order), "%s-%c",
				 i ? ", " : "", test_table[i]->short_option);
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
	for (i = 0; i < test_table_nr; i++) {
		if (test_table[i]->writes) {
			char opt[4] = { '-', test_table[i]->short_option, 0,
					0 };

			ck_assert_msg(strstr(r.err, opt), "%s lacks %s",
				      r.err, opt);
		}
	}
	fb_free(&r);
	free(man);
}
END_TEST


/* Is the argument at s (n bytes, unquoted) a plain word: "the", "says,"? */
static int plain_word(const char *s, size_t n)
{
	size_t i;

	if (!n || !isalpha((unsigned char)s[0]))
		return 0;
	for (i = 0; i < n; i++)
		if (!isalpha((unsigned char)s[i]) &&
		    !(i == n - 1 && strchr(",.;:", s[i])))
			return 0;
	return 1;
}

/*
 * Two plain words in a row among a font macro's arguments: the macro
 * alternates fonts and puts no space between its arguments, so they run
 * together.  Returns 1 for such a line.
 */
static int runs_together(const char *line)
{
	static const char *const macros[] = { ".BR ", ".RB ", ".BI ", ".IB ",
					       ".IR ", ".RI " };
	const char *p = NULL;
	size_t i, n, prev = 0;

	for (i = 0; i < sizeof(macros) / sizeof(macros[0]) && !p; i++)
		if (!strncmp(line, macros[i], 4))
			p = line + 4;
	if (!p)
		return 0;
	for (;;) {
		p += strspn(p, " ");
		if (!*p || *p == '\n')
			return 0;
		if (*p == '"') {
			const char *q = strchr(p + 1, '"');

			n = q ? (size_t)(q - p) + 1 : strcspn(p, "\n");
			prev = 0;
		} else {
			n = strcspn(p, " \n");
			if (plain_word(p, n) && prev)
				return 1;
			prev = plain_word(p, n);
		}
		p += n;
	}
}

START_TEST(test_runs_together)
{
	char *man = src_file("flashbench.1"), *line, *save = NULL;

	ck_assert(runs_together(".BR \\-\\-destructive ): the verdict says\n"));
	ck_assert(!runs_together(".BR fdisk \" and \" sfdisk\n"));
	ck_assert(!runs_together(".IR dir | device\n"));
	ck_assert(!runs_together(".IR estimate :\n"));
	for (line = strtok_r(man, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		ck_assert_msg(!runs_together(line), "flashbench.1: %s", line);
	}
	free(man);
}
END_TEST

/* The page is the row of 8 KiB in the classic table, as the README says. */
START_TEST(test_align_page_row)
{
	char *man = src_file("flashbench.1"), *readme = src_file("README");

	ck_assert_ptr_nonnull(strstr(readme, "mark the page (here 8192: the diff almost vanishes at 4096)"));
	ck_assert_ptr_nonnull(strstr(man, "the row of\n8 KiB is the page (the diff falls there, and almost vanishes at 4 KiB)"));
	ck_assert_ptr_null(strstr(man, "almost vanishes at 8 KiB"));
	free(man);
	free(readme);
}
END_TEST

/*
 * The source lines of the man page's entry (a .TP paragraph) that starts
 * at p: up to the next .TP, .SS or .SH.
 */
static size_t entry_lines(const char *p)
{
	size_t n = 0;

	for (p = strchr(p, '\n'); p && p[1]; p = strchr(p + 1, '\n')) {
		if (!strncmp(p + 1, ".TP", 3) || !strncmp(p + 1, ".SS", 3) ||
		    !strncmp(p + 1, ".SH", 3))
			break;
		n++;
	}
	return n;
}

/* The entry that begins with tag (".TP\n" then tag), or fail. */
static const char *entry_of(const char *man, const char *tag)
{
	char want[128];
	const char *at;

	snprintf(want, sizeof(want), ".TP\n%s\n", tag);
	at = strstr(man, want);
	ck_assert_msg(at != NULL, "no entry %s", tag);
	return at + 4;
}

/*
 * A reference a user can scan (issue 27 item 18): no option's entry runs
 * past 60 lines of source (--auto's was 90, --analyze's and --json's
 * over 100: how --auto decides is its own section, VERDICT, and what a
 * record holds, how it is judged again and surveyed are RECORDS'
 * subsections); --survey's JSON is told under --survey, not under
 * --markdown; what a record reveals is said (item 10); the record's
 * shape is the one the code writes.
 */
START_TEST(test_man_scannable)
{
	static const char *const sections[] = {
		".SH VERDICT\n", ".SS \"What it reads\"\n",
		".SS \"What it says\"\n", ".SS \"The write steps\"\n",
		".SH RECORDS\n", ".SS \"What a record holds\"\n",
		".SS \"What a record reveals\"\n",
		".SS \"Judging a record again\"\n",
		".SS \"Surveying records\"\n",
	};
	char *man = src_file("flashbench.1"), want[64], *end;
	const char *p, *opts;
	size_t i, longest = 0;

	for (i = 0; i < ARRAY_SIZE(sections); i++)
		ck_assert_msg(strstr(man, sections[i]), "no %s", sections[i]);
	opts = strstr(man, "\n.SH OPTIONS\n");
	ck_assert_ptr_nonnull(opts);
	end = strstr(opts + 1, "\n.SH ");
	ck_assert_ptr_nonnull(end);
	*end = '\0';
	for (p = strstr(opts, "\n.TP\n"); p; p = strstr(p + 1, "\n.TP\n")) {
		size_t n = entry_lines(p + 5);

		ck_assert_msg(n <= 60, "an entry of %zu lines: %.60s", n,
			      p + 5);
		longest = n > longest ? n : longest;
	}
	ck_assert_uint_ge(longest, 20);
	ck_assert_uint_le(entry_lines(entry_of(opts, ".B \\-\\-auto")), 30);
	p = entry_of(opts, ".B \\-\\-markdown");
	ck_assert_ptr_null(memmem(p, (size_t)(strstr(p, "\n.TP\n") - p),
				  "json", 4));
	p = entry_of(opts, ".BI \\-\\-survey \" file\" \"\\fR|\\fP\" dir ...");
	ck_assert_ptr_nonnull(memmem(p, (size_t)(strstr(p, "\n.TP\n") - p),
				     ".B \\-\\-json\n", 10));
	*end = '\n';
	/* what a record reveals, and how to leave the serial out (item 10) */
	p = strstr(man, ".SS \"What a record reveals\"\n");
	p = strstr(p, "serial number");
	ck_assert_ptr_nonnull(p);
	ck_assert_ptr_nonnull(strstr(p, ".B \\-\\-hide\\-serial\n"));
	snprintf(want, sizeof(want), "The record's shape (%d: ", RECORD_SHAPE);
	ck_assert_msg(strstr(man, want), "the man page lacks '%s'", want);
	free(man);
}
END_TEST

Suite *manpage_suite(void)
{
	Suite *s = suite_create("manpage");
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
	tcase_add_test(tc, test_blocksize_minimum_documented);
	tcase_add_test(tc, test_simulate_keys_documented);
	tcase_add_test(tc, test_open_random_default_documented);
	tcase_add_test(tc, test_runs_together);
	tcase_add_test(tc, test_align_page_row);
	tcase_add_test(tc, test_man_scannable);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return s;
}
