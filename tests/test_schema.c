// SPDX-License-Identifier: GPL-2.0-only
/*
 * The record's shape (doc/flashbench.schema.json): every JSON document
 * the suites before this one had flashbench write (tests/util.c keeps
 * each in $FB_JSON_DIR), and one of each kind written here, validated
 * against it in one run of a validator from Debian's packages
 * (python3-jsonschema's jsonschema; JSONSCHEMA_BIN names another).  This
 * suite runs last (the Makefile's SUITES).  Without the validator it
 * is skipped, except in CI.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

#define SCHEMA "doc/flashbench.schema.json"

static const char *validator(void)
{
	const char *v = getenv("JSONSCHEMA_BIN");

	return v && *v ? v : "/usr/bin/jsonschema";
}

/* Nonzero when the validator is there; else say so (failing in CI). */
static int have_validator(void)
{
	const char *ci = getenv("CI");

	if (!access(validator(), X_OK))
		return 1;
	ck_assert_msg(!ci || !*ci, "%s missing (apt-get install python3-jsonschema)",
		      validator());
	printf("schema: %s missing, documents not validated\n", validator());
	return 0;
}

/*
 * Validate the *.json files of dir in one run; returns its exit status
 * and, in *n, how many files it was given.  What it said goes to *out
 * (malloc'd).
 */
static int validate_dir(const char *dir, size_t *n, char **out)
{
	struct cmd_result res;
	struct dirent *e;
	char **argv = NULL, **more;
	size_t k = 0, i;
	DIR *d = opendir(dir);

	ck_assert_msg(d != NULL, "%s", dir);
	argv = calloc(4, sizeof(*argv));
	ck_assert_ptr_nonnull(argv);
	argv[k++] = strdup(validator());
	argv[k++] = strdup("--output=pretty");
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);

		if (len < 6 || strcmp(e->d_name + len - 5, ".json"))
			continue;
		more = realloc(argv, (k + 4) * sizeof(*argv));
		ck_assert_ptr_nonnull(more);
		argv = more;
		argv[k++] = strdup("-i");
		ck_assert_int_ge(asprintf(&argv[k++], "%s/%s", dir, e->d_name),
				 0);
	}
	closedir(d);
	*n = (k - 2) / 2;
	argv[k++] = strdup(SCHEMA);
	argv[k] = NULL;
	ck_assert_int_eq(run_cmd(argv, &res), 0);
	for (i = 0; i < k; i++)
		free(argv[i]);
	free(argv);
	/* the validator reports failures on stderr, successes on stdout */
	ck_assert_int_ge(asprintf(out, "%s%s", res.out, res.err), 0);
	cmd_result_free(&res);
	return res.status;
}

/* The failures of a validator's pretty output, first lines of each. */
static void print_failures(const char *out)
{
	const char *p = out;
	unsigned int shown = 0;

	while ((p = strstr(p, "===[ValidationError]")) && shown < 10) {
		const char *end = strstr(p + 1, "-----");

		fprintf(stderr, "%.*s\n", end ? (int)(end - p > 1500 ? 1500 :
						      end - p) : 1500, p);
		p++;
		shown++;
	}
}

/* One document of each kind --json writes, so that each is checked. */
static const char *const kinds[] = {
	"--auto --destructive --json -q --simulate=size=1G,claims=C10+U1,fat=2",
	"--auto --destructive --json -q --simulate=size=2G,real_size=1G,fake=wrap,claims=C10",
	"--auto --json -q --simulate=size=512M,readsig=0",
	"-a --json --simulate=size=256M",
	"-s --json --scatter-order=5 --simulate=size=256M",
	"-i --json --interval-order=8 --simulate=size=256M",
	"-O --json -b 256K --simulate=size=256M",
	"-f --json -b 1M --fat-nr=3 --simulate=size=256M",
	"-p --json --simulate=size=256M",
	"-C --json -q --simulate=size=1G,real_size=512M,fake=limbo-garbage",
	"-L --json -q --simulate=size=1G,claims=C10+U3+V30+A2",
	"--analyze=tests/data/seed000.txt --json",
	"--registers=tests/data/extcsd/samsung-bjnb4r --json",
};

START_TEST(test_schema_documents)
{
	const char *dir = getenv("FB_JSON_DIR");
	struct fb_run r;
	char *out;
	size_t i, n;
	int status;

	ck_assert_msg(dir != NULL, "FB_JSON_DIR not set (check_main sets it)");
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		fb_run(kinds[i], &r);
		ck_assert_msg(r.status == 0 ||
			      (r.status >= 3 && r.status <= 5), "%s: %d %s",
			      kinds[i], r.status, r.err);
		fb_free(&r);
	}
	if (!have_validator())
		return;
	status = validate_dir(dir, &n, &out);
	printf("schema: %zu JSON documents validated against %s\n", n,
	       SCHEMA);
	fflush(stdout);
	if (status)
		print_failures(out);
	ck_assert_uint_ge(n, sizeof(kinds) / sizeof(kinds[0]));
	ck_assert_msg(status == 0, "documents that do not match %s: see above",
		      SCHEMA);
	free(out);
}
END_TEST

/* Records that break the shape, each caught (and named). */
static const struct {
	const char *from, *to;	/* replace the first from by to */
	const char *why;	/* in the validator's message */
} broken[] = {
	{ "\"erase_size\": 4194304,\n    \"page_size\"",
	  "\"erase_size\": \"4MiB\",\n    \"page_size\"", "'4MiB' is not of type" },
	{ "\"interrupted\": false", "\"interrupted\": false, \"extra\": 1",
	  "'extra' was unexpected" },
	{ "\"pre_ns\"", "\"pre_us\"", "'pre_ns' is a required property" },
	{ "\"test\": \"auto\"", "\"test\": \"autox\"", "'autox' is not one of" },
};

START_TEST(test_schema_catches)
{
	char dir[] = "/tmp/fb-schema.XXXXXX", path[64], *out, *doc, *at;
	struct fb_run r;
	size_t n;
	FILE *f;

	if (!have_validator())
		return;
	ck_assert_ptr_nonnull(mkdtemp(dir));
	fb_run("--auto --json -q --simulate=size=256M", &r);
	ck_assert_int_eq(r.status, 0);
	at = strstr(r.out, broken[_i].from);
	ck_assert_msg(at != NULL, "no %s in the record", broken[_i].from);
	ck_assert_int_ge(asprintf(&doc, "%.*s%s%s", (int)(at - r.out), r.out,
				  broken[_i].to, at + strlen(broken[_i].from)),
			 0);
	snprintf(path, sizeof(path), "%s/broken.json", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(doc, f);
	fclose(f);
	ck_assert_int_ne(validate_dir(dir, &n, &out), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_msg(strstr(out, "===[ValidationError]===(") &&
		      strstr(out, "broken.json") &&
		      strstr(out, broken[_i].why), "%.600s", out);
	/* the same record unbroken passes */
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(r.out, f);
	fclose(f);
	free(out);
	ck_assert_int_eq(validate_dir(dir, &n, &out), 0);
	free(out);
	unlink(path);
	rmdir(dir);
	free(doc);
	fb_free(&r);
}
END_TEST

Suite *schema_suite(void)
{
	Suite *s = suite_create("schema");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_schema_catches, 0,
			    sizeof(broken) / sizeof(broken[0]));
	tcase_add_test(tc, test_schema_documents);
	tcase_set_timeout(tc, 300);
	suite_add_tcase(s, tc);
	return s;
}
