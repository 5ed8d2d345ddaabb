// SPDX-License-Identifier: GPL-2.0-only
/*
 * --auto's verdict as JSON (output/autojson.c, its members in
 * record/autotab.c): an open-AU count that is only a lower bound (the
 * text's ">= 32") says so in its own member (issue 27 item 6).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auto.h"
#include "autoout.h"
#include "autorun.h"
#include "json.h"
#include "sim.h"
#include "util.h"

/* The verdict of r as one JSON document (malloc'd). */
static char *verdict_json(const struct auto_result *r)
{
	char *doc = NULL;
	size_t len = 0;
	struct json j;
	FILE *f = open_memstream(&doc, &len);

	ck_assert_ptr_nonnull(f);
	json_init(&j, f);
	json_object_begin(&j, NULL);
	auto_json_verdict(&j, r);
	json_object_end(&j);
	fclose(f);
	return doc;
}

START_TEST(test_open_at_least)
{
	static const struct {
		const char *spec;
		const char *nr, *at_least;
	} cases[] = {
		/* more open than the search tries: a bound */
		{ "erase=4M,size=16G,page=16K,open=40,open_random=3,fat=0,"
		  "noise=1,seed=3", "32", "true" },
		{ "erase=4M,page=16K,open=5,open_random=3,fat=0,noise=1,seed=3",
		  "5", "false" },
	};
	char buf[64];
	struct bench_opts o;
	size_t i;

	bench_opts_default(&o);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct device *dev = sim_card(cases[i].spec);
		struct auto_result r;
		char *doc;

		ck_assert_int_eq(auto_run(dev, &o, 1, NULL, &r), 0);
		doc = verdict_json(&r);
		ck_assert_str_eq(json_at(doc, "verdict.open_au_linear", buf,
					 sizeof(buf)), cases[i].nr);
		ck_assert_str_eq(json_at(doc, "verdict.open_au_linear_at_least",
					 buf, sizeof(buf)), cases[i].at_least);
		ck_assert_str_eq(json_at(doc, "verdict.open_au_random_at_least",
					 buf, sizeof(buf)), "false");
		free(doc);
		auto_free(&r);
		dev_close(dev);
	}
}
END_TEST

/* Without --destructive nothing was counted: null, as the count is. */
START_TEST(test_open_at_least_null)
{
	struct device *dev = sim_card("size=1G");
	struct auto_result r;
	struct bench_opts o;
	char buf[64], *doc;

	bench_opts_default(&o);
	ck_assert_int_eq(auto_run(dev, &o, 0, NULL, &r), 0);
	doc = verdict_json(&r);
	ck_assert_str_eq(json_at(doc, "verdict.open_au_linear", buf,
				 sizeof(buf)), "null");
	ck_assert_str_eq(json_at(doc, "verdict.open_au_linear_at_least", buf,
				 sizeof(buf)), "null");
	free(doc);
	auto_free(&r);
	dev_close(dev);
}
END_TEST

Suite *autojson_suite(void)
{
	Suite *s = suite_create("autojson");
	TCase *tc = tcase_create("autojson");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_open_at_least);
	tcase_add_test(tc, test_open_at_least_null);
	suite_add_tcase(s, tc);
	return s;
}
