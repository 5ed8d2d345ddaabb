// SPDX-License-Identifier: GPL-2.0-only
/*
 * --auto's erase size from writes (probes/erasesearch.c) on a device
 * with no erase blocks at all, behind a busy host: a loop device over a
 * file, while another program does its I/O.  Writes there are slow only
 * when the host delays them, at random; no draw of those delays may pass
 * for a boundary (issue 27 item 7: once, a fresh loop device showed an
 * erase size and had its FAT area and open AUs measured).  And a card
 * that has AUs behind the same host is still read right.
 */
#include <stdio.h>
#include <stdlib.h>

#include "autorun.h"
#include "probe.h"
#include "sim.h"
#include "util.h"

/*
 * Page-mapped and no read signature: every write costs the same, as on
 * a loop device, and no align table shows anything.  The host's delays:
 * frequent (busy_pct), long (busy_us) or heavy-tailed (pause_pct).
 */
#define NO_AUS "size=2G,ftl=page,readsig=0"
static const char *const busy_hosts[] = {
	"busy_pct=30,busy_us=8000",
	"pause_pct=30,pause_us=5000",
	"busy_pct=20,busy_us=20000",
	"busy_pct=15,pause_pct=20",
};

#define DRAWS 500u	/* noise seeds per host */

/* The erase search alone, on many draws of each host's delays. */
START_TEST(test_no_aus_busy)
{
	unsigned int seed, found = 0, n = 0;

	/* FB_TEST_STRIDE=N: every Nth draw (none may find a size) */
	for (seed = 1; seed <= DRAWS; seed += test_stride(), n++) {
		struct auto_result *r = calloc(1, sizeof(*r));
		struct device *dev;
		char spec[160];

		ck_assert_ptr_nonnull(r);
		snprintf(spec, sizeof(spec), NO_AUS ",%s,seed=%u",
			 busy_hosts[_i], seed);
		dev = sim_card(spec);
		ck_assert_int_eq(auto_probe_erase(dev, NULL, r), 0);
		ck_assert(r->erase_writes.measured);
		if (r->erase_writes.erase_byte) {
			fprintf(stderr, "%s: erase size %llu (confidence %d)\n",
				spec,
				(unsigned long long)r->erase_writes.erase_byte,
				r->erase_writes.confidence);
			found++;
		}
		dev_close(dev);
		free(r);
	}
	ck_assert_msg(!found, "%s: %u of %u draws found an erase size",
		      busy_hosts[_i], found, n);
}
END_TEST

/*
 * The whole run: no erase size, from reads nor from writes, and no
 * number of open AUs nor FAT area said with more than low confidence.
 */
START_TEST(test_no_aus_run)
{
	struct bench_opts o;
	unsigned int seed;

	bench_opts_default(&o);
	/* FB_TEST_STRIDE=N: every Nth draw, each a whole run */
	for (seed = 1; seed <= 20; seed += test_stride()) {
		struct auto_result r;
		struct device *dev;
		char spec[160];

		snprintf(spec, sizeof(spec), NO_AUS ",%s,seed=%u",
			 busy_hosts[_i], seed);
		dev = sim_card(spec);
		ck_assert_int_eq(auto_run(dev, &o, 1, NULL, &r), 0);
		ck_assert_msg(!r.align.erase.size_byte,
			      "%s: erase size %llu", spec,
			      (unsigned long long)r.align.erase.size_byte);
		ck_assert(r.erase_writes.measured &&
			  !r.erase_writes.erase_byte);
		ck_assert_int_le(r.open_linear.confidence, ANALYZE_CONF_LOW);
		ck_assert_int_le(r.open_random.confidence, ANALYZE_CONF_LOW);
		ck_assert(!r.fat.found ||
			  r.fat.confidence <= ANALYZE_CONF_LOW);
		auto_free(&r);
		dev_close(dev);
	}
}
END_TEST

/*
 * Cards with AUs behind the same hosts: never a wrong size, and found
 * with high confidence in at least found_pct[host] of the draws (the
 * longest delays hide some collections: none is then said).
 */
START_TEST(test_aus_busy)
{
	static const struct {
		const char *spec;
		uint64_t erase;
	} cards[] = {
		{ "readsig=0", 4 << 20 },
		{ "readsig=0,erase=512K,size=1G,open=16,noise=3", 512 << 10 },
		{ "readsig=0,erase=1M,size=2G,open=2", 1 << 20 },
		{ "readsig=0,erase=12M,open=6", 12 << 20 },
		{ "readsig=0,erase=8M,open=6,close=rest,fullclose=1", 8 << 20 },
		{ "readsig=0,erase=8M,open=1", 8 << 20 },
		{ "readsig=0,erase=8M,open=6,used=0", 8 << 20 },
		{ "readsig=0,collapse=gradual,open=6", 4 << 20 },
	};
	static const unsigned int found_pct[] = { 95, 70, 45, 90 };
	unsigned int seed, n = 0, found = 0;
	size_t i;

	for (i = 0; i < sizeof(cards) / sizeof(cards[0]); i++) {
		for (seed = 1; seed <= 25; seed++) {
			struct auto_result *r = calloc(1, sizeof(*r));
			const struct auto_erase_search *e;
			struct device *dev;
			char spec[200];

			ck_assert_ptr_nonnull(r);
			e = &r->erase_writes;
			snprintf(spec, sizeof(spec), "%s,%s,seed=%u",
				 cards[i].spec, busy_hosts[_i], seed);
			dev = sim_card(spec);
			ck_assert_int_eq(auto_probe_erase(dev, NULL, r), 0);
			ck_assert_msg(!e->erase_byte ||
				      e->erase_byte == cards[i].erase,
				      "%s: erase size %llu (confidence %d)",
				      spec, (unsigned long long)e->erase_byte,
				      e->confidence);
			n++;
			found += e->erase_byte &&
				 e->confidence == ANALYZE_CONF_HIGH;
			dev_close(dev);
			free(r);
		}
	}
	fprintf(stderr, "erasesearch: %s: %u of %u found\n", busy_hosts[_i],
		found, n);
	ck_assert_uint_ge(found * 100, found_pct[_i] * n);
}
END_TEST

Suite *erasesearch_suite(void)
{
	Suite *s = suite_create("erasesearch");
	TCase *tc = tcase_create("core");
	int n = (int)(sizeof(busy_hosts) / sizeof(busy_hosts[0]));

	tcase_add_loop_test(tc, test_no_aus_busy, 0, n);
	tcase_add_loop_test(tc, test_no_aus_run, 0, n);
	tcase_add_loop_test(tc, test_aus_busy, 0, n);
	suite_add_tcase(s, tc);
	return s;
}
