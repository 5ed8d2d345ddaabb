// SPDX-License-Identifier: GPL-2.0-only
/*
 * The bash completion (completion/flashbench.bash), run in bash: the
 * options and values it offers against the table of options.
 */
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "docread.h"
#include "options.h"
#include "sim.h"
#include "util.h"

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

Suite *completion_suite(void)
{
	Suite *s = suite_create("completion");
	TCase *tc;

	tc = tcase_create("completion");
	tcase_add_test(tc, test_completion);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return s;
}
