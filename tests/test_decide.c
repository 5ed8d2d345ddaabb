// SPDX-License-Identifier: GPL-2.0-only
/*
 * --auto's decisions (verdict/) are pure functions of the record: the
 * verdict of a run on a simulated card is what auto_decide() makes of the
 * run's raw measurements alone, with every verdict field wiped first.
 * decide_check() is also called on every card of the auto and hard
 * sweeps.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "autoout.h"
#include "autorun.h"
#include "decide.h"
#include "flashbench.h"
#include "json.h"
#include "sim.h"
#include "util.h"

/* A confidence other than c: the decision must write its own. */
static enum analyze_confidence other(enum analyze_confidence c)
{
	return c == ANALYZE_CONF_HIGH ? ANALYZE_CONF_NONE : ANALYZE_CONF_HIGH;
}

/* Spoil what the decisions of one open-AU search fill. */
static void wipe_open(struct auto_open *o)
{
	size_t i;

	o->nr++;
	o->at_least = !o->at_least;
	o->confidence = other(o->confidence);
	o->from_linear = 99;
	o->ref_ns = -1;
	for (i = 0; i < o->nprobes; i++) {
		o->probes[i].ratio = -1;
		o->probes[i].collapsed = !o->probes[i].collapsed;
		o->probes[i].log_aus = 99;
	}
}

/* Spoil every verdict field of r: what is left is the raw record. */
static void wipe_verdict(struct auto_result *r)
{
	const struct analyze_step none = { 0 };
	struct auto_fat *f = &r->fat;
	size_t i;

	for (i = 0; i < r->ntables; i++)
		memset(&r->tables[i].verdict, 0xff,
		       sizeof(r->tables[i].verdict));
	r->chosen = 7;
	r->align.erase = r->align.page = none;
	r->align.plane = r->align.group = none;
	r->erase_from = AUTO_ERASE_CONFIRMED;
	r->erase_reads.size_byte = 12345;
	r->erase_fallback = !r->erase_fallback;
	r->noise.level = r->noise.level == AUTO_NOISE_HIGH ? AUTO_NOISE_LOW :
			 AUTO_NOISE_HIGH;
	r->erase_writes.erase_byte = 1;
	r->erase_writes.confidence = other(r->erase_writes.confidence);
	f->found = !f->found;
	f->start = f->count = 99;
	f->linear = f->random = f->nocopy = 2;
	f->slot_unseen = f->speed_hidden = 2;
	f->confidence = other(f->confidence);
	memset(f->lin_ratio, 0xff, sizeof(f->lin_ratio));
	memset(f->rnd_ratio, 0xff, sizeof(f->rnd_ratio));
	memset(f->copy_ratio, 0xff, sizeof(f->copy_ratio));
	wipe_open(&r->open_linear);
	wipe_open(&r->open_random);
}

/* The part of the record the decisions made again is what the run said. */
#define SAME(part) \
	ck_assert_msg(!memcmp(&d->part, &r->part, sizeof(r->part)), \
		      "%s: %s not what the run said", what, #part)

void decide_check(const struct auto_result *r, const char *what)
{
	struct auto_result *d = malloc(sizeof(*d));
	size_t i;

	ck_assert_ptr_nonnull(d);
	memcpy(d, r, sizeof(*d));
	wipe_verdict(d);
	auto_decide(d);
	for (i = 0; i < r->ntables; i++)
		SAME(tables[i].verdict);
	SAME(chosen);
	SAME(align);
	SAME(erase_from);
	SAME(erase_reads);
	SAME(erase_fallback);
	SAME(noise);
	SAME(erase_writes);
	SAME(fat);
	SAME(open_linear);
	SAME(open_random);
	free(d);
}

/* A spread of the auto sweep's cards; one run in six read-only. */
START_TEST(test_decide_sweep)
{
	unsigned int i;
	struct bench_opts o;

	bench_opts_default(&o);
	for (i = 0; i < 24; i++) {
		struct sweep_card c;
		struct auto_result r;
		struct device *dev;

		sweep_card(i * 8 + 3, &c);
		dev = sim_card(c.spec);
		ck_assert_int_eq(auto_run(dev, &o, i % 6 != 5, NULL, &r), 0);
		decide_check(&r, c.spec);
		auto_free(&r);
		dev_close(dev);
	}
}
END_TEST

/* How many times needle is in hay. */
static unsigned int count_of(const char *hay, const char *needle)
{
	unsigned int n = 0;

	while ((hay = strstr(hay, needle))) {
		n++;
		hay += strlen(needle);
	}
	return n;
}

/*
 * The JSON results carry the raw fields the decisions read: a mean per
 * open-AU probe, a typical write per FAT AU, the positions of every row
 * of every table and of the group probe.
 */
/*
 * A heavy host's delayed reference hides a gradual collapse: a card of 2
 * open AUs read 3 at medium (hard card 18 on a heavy host: 2 AUs x0.554,
 * 3 AUs x0.748 of a delayed reference, 4 AUs x187).  Measured against
 * the fastest probe, 3 AUs were 1.35 times slower: the count is low, on
 * any host (a count held well above the fastest probe may be one over a
 * gradual collapse: verdict/openau.c), and on a noisy host again.
 */
START_TEST(test_noise_gradual)
{
	static const double mean_ms[] = { 3.78, 2.094, 2.827, 706.9 };
	static struct auto_result r;
	struct auto_open *o = &r.open_linear;
	unsigned int i;

	memset(&r, 0, sizeof(r));
	r.noise.level = AUTO_NOISE_HIGH;
	r.noise.delay_ns = 8.92e6;
	o->measured = 1;
	o->chunk_byte = 16384;
	o->max_nr = 64;
	for (i = 0; i < 4; i++) {
		o->probes[i].nr = i + 1;
		o->probes[i].positions = 4;
		o->probes[i].mean_ns = mean_ms[i] * 1e6;
	}
	o->nprobes = 4;
	auto_open_decide(o, NULL);
	ck_assert_uint_eq(o->nr, 3);
	ck_assert_int_eq(o->confidence, ANALYZE_CONF_LOW);
	auto_noise_confidence(&r);
	ck_assert_int_eq(o->confidence, ANALYZE_CONF_LOW);
	/* held as fast as the fastest probe: the count stands */
	o->probes[2].mean_ns = 2.2e6;
	auto_open_decide(o, NULL);
	auto_noise_confidence(&r);
	ck_assert_uint_eq(o->nr, 3);
	ck_assert_int_eq(o->confidence, ANALYZE_CONF_MEDIUM);
}
END_TEST

START_TEST(test_json_raw)
{
	static const struct {
		const char *spec;
		int destructive;
		int group;		/* the group probe reads rows */
	} cases[] = {
		{ "size=1G,erase=8M,page=32K,open=2,open_random=1,fat=2,"
		  "noise=2,seed=7", 1, 0 },
		{ "size=8G,erase=3M,page=16K,group=2G,noise=2.5,seed=127",
		  0, 1 },
	};
	struct bench_opts o;
	size_t i, k, rows;

	bench_opts_default(&o);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct device *dev = sim_card(cases[i].spec);
		struct auto_result r;
		struct json j;
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);

		ck_assert_ptr_nonnull(f);
		ck_assert_int_eq(auto_run(dev, &o, cases[i].destructive, NULL,
					  &r), 0);
		decide_check(&r, cases[i].spec);
		json_init(&j, f);
		json_object_begin(&j, NULL);
		auto_json_results(&j, &r);
		json_object_end(&j);
		fclose(f);
		ck_assert_int_eq(r.group_probe.rows != NULL, cases[i].group);
		ck_assert_uint_eq(count_of(buf, "\"step\": \"group\""),
				  cases[i].group);
		for (k = 0, rows = r.group_probe.nrows; k < r.ntables; k++)
			rows += r.tables[k].nrows;
		ck_assert_uint_eq(count_of(buf, "\"diff_ns\": ["), rows);
		ck_assert_uint_eq(count_of(buf, "\"mean_ns\""),
				  r.open_linear.nprobes +
				  r.open_random.nprobes);
		ck_assert_uint_eq(count_of(buf, "\"typical_ns\""),
				  r.fat.naus);
		ck_assert_uint_eq(count_of(buf, "\"max_nr\""),
				  2 * cases[i].destructive);
		ck_assert(!cases[i].destructive || r.fat.naus > 0);
		free(buf);
		auto_free(&r);
		dev_close(dev);
	}
}
END_TEST

Suite *decide_suite(void)
{
	Suite *s = suite_create("decide");
	TCase *tc = tcase_create("decide");

	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test_decide_sweep);
	tcase_add_test(tc, test_json_raw);
	tcase_add_test(tc, test_noise_gradual);
	suite_add_tcase(s, tc);
	return s;
}
