// SPDX-License-Identifier: GPL-2.0-only
/*
 * The table of options (front/options.c): every row complete, every mode
 * of the table of tests an option, the parse doing what each row says,
 * the defaults reaching the tests, and --help laid out from the rows.
 * The man page and the completion are checked against the table in
 * test_manpage.c and test_completion.c.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "format.h"
#include "options.h"
#include "util.h"

/* A row's field in c. */
static void *field(struct cli *c, const struct opt_row *r)
{
	return (char *)c + r->field;
}

/* A row's value field as a number. */
static uint64_t number(struct cli *c, const struct opt_row *r)
{
	if (r->kind == OPT_SIZE)
		return *(uint64_t *)field(c, r);
	return *(unsigned int *)field(c, r);
}

/*
 * opt_parse() of "flashbench" and the words of args (split at spaces)
 * into c; returns its status, *err gets what it said (free it).  c's
 * strings point into a copy of args kept until the next call.
 */
static int parse(struct cli *c, const char *args, char **err)
{
	static char copy[256];
	char *argv[16], *tok, *save = NULL, *out = NULL;
	size_t elen = 0, olen = 0;
	FILE *out_f = open_memstream(&out, &olen);
	int argc = 0, ret;

	ck_assert_uint_lt(strlen(args), sizeof(copy));
	snprintf(copy, sizeof(copy), "%s", args);
	ck_assert_ptr_nonnull(out_f);
	memset(c, 0, sizeof(*c));
	bench_opts_default(&c->o);
	c->err = open_memstream(err, &elen);
	ck_assert_ptr_nonnull(c->err);
	argv[argc++] = (char *)"flashbench";
	for (tok = strtok_r(copy, " ", &save); tok && argc < 15;
	     tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	argv[argc] = NULL;
	ret = opt_parse(c, argc, argv, out_f);
	fclose(c->err);
	c->err = NULL;
	fclose(out_f);
	free(out);
	return ret;
}

/* Every row says all it must, and no two rows are spelt alike. */
START_TEST(test_rows_complete)
{
	size_t i, k, n;
	int v;

	for (i = 0; i < opt_rows_nr; i++) {
		const struct opt_row *r = &opt_rows[i];

		ck_assert_msg(opt_name(r)[0], "row %zu has no name", i);
		ck_assert_msg(r->alias || (r->help && r->help[0]),
			      "--%s has no help", opt_name(r));
		ck_assert_msg(!r->alias || (i && opt_rows[i - 1].kind ==
						  r->kind &&
					    opt_rows[i - 1].mode == r->mode),
			      "--%s is an alias of nothing", opt_name(r));
		ck_assert_msg(!opt_takes_value(r) || r->arg,
			      "--%s takes a value but --help names none",
			      opt_name(r));
		for (k = 0; k < i; k++) {
			ck_assert_msg(strcmp(opt_name(r),
					     opt_name(&opt_rows[k])),
				      "--%s twice", opt_name(r));
			ck_assert_msg(r->alias || !opt_short(r) ||
				      opt_short(r) != opt_short(&opt_rows[k]),
				      "-%c twice", opt_short(r));
		}
	}
	/* every value of enum cli_value has one row, its default valid */
	for (v = 0; v < V_NR; v++) {
		const struct opt_row *r = opt_value_row(v);

		ck_assert_msg(r != NULL, "no row for value %d", v);
		for (i = 0, n = 0; i < opt_rows_nr; i++)
			n += opt_rows[i].kind >= OPT_SIZE &&
			     opt_rows[i].kind <= OPT_ORDER &&
			     opt_rows[i].value == v;
		ck_assert_uint_eq(n, 1);
		ck_assert_msg(r->def >= r->min && r->def <= r->max &&
			      (!r->check || !r->check(r->def)),
			      "--%s: default %" PRIu64 " not allowed", r->name,
			      r->def);
		ck_assert_msg(r->field - offsetof(struct cli, o) <
				      sizeof(struct bench_opts),
			      "--%s: not a field of struct bench_opts",
			      r->name);
	}
}
END_TEST

/* Each test of the table of tests is one option, named as its row says. */
START_TEST(test_every_mode_an_option)
{
	size_t i, k, n;

	for (k = 0; k < test_table_nr; k++) {
		const struct test *t = test_table[k];
		const struct opt_row *row = NULL;

		for (i = 0, n = 0; i < opt_rows_nr; i++) {
			if (opt_rows[i].kind != OPT_MODE ||
			    opt_rows[i].alias || opt_rows[i].mode != t->test)
				continue;
			row = &opt_rows[i];
			n++;
		}
		ck_assert_msg(n == 1, "%s: %zu option rows", t->option, n);
		ck_assert_str_eq(opt_name(row), t->option + 2);
		ck_assert_int_eq(opt_short(row), t->short_option);
	}
	for (i = 0; i < opt_rows_nr; i++)
		ck_assert_msg(opt_rows[i].kind != OPT_MODE ||
			      test_of(opt_rows[i].mode),
			      "row %zu runs no test", i);
}
END_TEST

/* Every row, long and short, does what it says; every range holds. */
START_TEST(test_parse_by_table)
{
	struct cli c;
	char args[128], *err;
	size_t i;

	for (i = 0; i < opt_rows_nr; i++) {
		const struct opt_row *r = &opt_rows[i];
		const char *name = opt_name(r);
		char s = opt_short(r);

		switch (r->kind) {
		case OPT_MODE:
			snprintf(args, sizeof(args), "--%s", name);
			ck_assert_int_eq(parse(&c, args, &err), -1);
			ck_assert_uint_eq(c.tests, r->mode);
			free(err);
			if (s) {
				snprintf(args, sizeof(args), "-%c", s);
				ck_assert_int_eq(parse(&c, args, &err), -1);
				ck_assert_uint_eq(c.tests, r->mode);
				free(err);
			}
			break;
		case OPT_FLAG:
		case OPT_MORE:
			snprintf(args, sizeof(args), "--%s --%s", name, name);
			ck_assert_int_eq(parse(&c, args, &err), -1);
			ck_assert_int_eq(*(int *)field(&c, r),
					 r->kind == OPT_MORE ? 2 : 1);
			free(err);
			break;
		case OPT_SIZE:
		case OPT_NUMBER:
		case OPT_ORDER:
			/* the largest value taken, then one more */
			snprintf(args, sizeof(args), "--%s=%" PRIu64, name,
				 r->max);
			if (!r->check) {
				ck_assert_int_eq(parse(&c, args, &err), -1);
				ck_assert_uint_eq(number(&c, r), r->max);
				free(err);
			}
			snprintf(args, sizeof(args), "--%s=%" PRIu64 "0", name,
				 r->max);
			ck_assert_int_eq(parse(&c, args, &err), EXIT_USAGE);
			ck_assert_msg(strstr(err, name), "%s: %s", args, err);
			free(err);
			if (r->min) {
				snprintf(args, sizeof(args), "--%s=%" PRIu64,
					 name, r->min - 1);
				ck_assert_int_eq(parse(&c, args, &err),
						 EXIT_USAGE);
				free(err);
			}
			snprintf(args, sizeof(args), "--%s=%" PRIu64, name,
				 r->def);
			ck_assert_int_eq(parse(&c, args, &err), -1);
			ck_assert_uint_eq(number(&c, r), r->def);
			ck_assert_ptr_nonnull(c.arg[r->value]);
			free(err);
			break;
		case OPT_FILE:
			snprintf(args, sizeof(args), "--%s=x.out", name);
			ck_assert_int_eq(parse(&c, args, &err), -1);
			ck_assert_str_eq(*(const char **)field(&c, r), "x.out");
			ck_assert(r->flag == (size_t)-1 ||
				  *(int *)((char *)&c + r->flag) == 1);
			free(err);
			snprintf(args, sizeof(args), "--%s -a", name);
			ck_assert_int_eq(parse(&c, args, &err), EXIT_USAGE);
			free(err);
			break;
		case OPT_TEXT:
			snprintf(args, sizeof(args), "--%s=k=v", name);
			ck_assert_int_eq(parse(&c, args, &err), -1);
			ck_assert_str_eq(*(const char **)field(&c, r), "k=v");
			ck_assert_int_eq(*(int *)((char *)&c + r->flag), 1);
			free(err);
			break;
		case OPT_HELP:
		case OPT_VERSION:
			snprintf(args, sizeof(args), "-%c", s);
			ck_assert_int_eq(parse(&c, args, &err), 0);
			free(err);
			break;
		}
	}
	/* -o - is standard output: no file */
	ck_assert_int_eq(parse(&c, "-o -", &err), -1);
	ck_assert_ptr_null(c.out_path);
	free(err);
}
END_TEST

/* A run with no value option given reports the table's defaults. */
START_TEST(test_defaults_reach_the_run)
{
	struct fb_run run;
	char path[64], got[64], want[FMT_LEN];
	size_t i;

	fb_run("--analyze=tests/data/seed001.txt --json", &run);
	ck_assert_int_eq(run.status, 0);
	for (i = 0; i < opt_rows_nr; i++) {
		const struct opt_row *r = &opt_rows[i];
		char *p;

		if (r->kind < OPT_SIZE || r->kind > OPT_ORDER)
			continue;
		snprintf(path, sizeof(path), "options.%s", r->name);
		for (p = path; *p; p++)
			*p = *p == '-' ? '_' : *p;
		ck_assert_int_eq(json_get(run.out, path, got, sizeof(got)), 0);
		snprintf(want, sizeof(want), "%" PRIu64, r->def);
		ck_assert_msg(!strcmp(got, want), "%s: %s, table says %s",
			      path, got, want);
	}
	fb_free(&run);
}
END_TEST

/*
 * --help: one line per row, its text at column 29, "%D" the row's
 * default, the sections in order.
 */
START_TEST(test_help_from_table)
{
	struct fb_run run;
	char want[256], def[FMT_LEN];
	const char *prev = NULL;
	size_t i;

	fb_run("--help", &run);
	ck_assert_int_eq(run.status, 0);
	for (i = 0; i < opt_rows_nr; i++) {
		const struct opt_row *r = &opt_rows[i];
		const char *line, *text = r->help, *d;
		size_t n;

		if (r->alias)
			continue;
		if (opt_short(r))
			snprintf(want, sizeof(want), "\n -%c, --%s",
				 opt_short(r), opt_name(r));
		else
			snprintf(want, sizeof(want), "\n     --%s",
				 opt_name(r));
		for (line = strstr(run.out, want);
		     line && !strchr(" ,[", line[strlen(want)]);
		     line = strstr(line + 1, want))
			;
		ck_assert_msg(line != NULL, "--help lacks '%s'", want + 1);
		line++;
		/* the first line of its text, "%D" as the default */
		n = strcspn(text, "\n");
		d = strstr(text, "%D");
		if (d && d < text + n) {
			if (r->kind == OPT_SIZE)
				fmt_size(def, r->def);
			else
				snprintf(def, sizeof(def), "%" PRIu64, r->def);
			snprintf(want, sizeof(want), "%.*s%s%.*s",
				 (int)(d - text), text, def,
				 (int)(n - (size_t)(d - text) - 2), d + 2);
		} else {
			snprintf(want, sizeof(want), "%.*s", (int)n, text);
		}
		ck_assert_msg(!strncmp(line + 29, want, strlen(want)),
			      "--%s: '%.60s', want '%s' at column 29",
			      opt_name(r), line, want);
		/* within a section, in the table's order */
		if (prev && r->section == opt_rows[i - 1].section)
			ck_assert_msg(line > prev, "--%s out of order",
				      opt_name(r));
		prev = line;
	}
	ck_assert(strstr(run.out, "(default 16KiB)"));
	fb_free(&run);
}
END_TEST

Suite *options_suite(void)
{
	Suite *s = suite_create("options");
	TCase *tc = tcase_create("table");

	tcase_add_test(tc, test_rows_complete);
	tcase_add_test(tc, test_every_mode_an_option);
	tcase_add_test(tc, test_parse_by_table);
	tcase_add_test(tc, test_defaults_reach_the_run);
	tcase_add_test(tc, test_help_from_table);
	suite_add_tcase(s, tc);
	return s;
}
