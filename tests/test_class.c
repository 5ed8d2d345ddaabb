// SPDX-License-Identifier: GPL-2.0-only
/*
 * The rated classes, measured (--class, modes/class.c): speed, UHS,
 * video and application classes pass or fail on simulated cards built
 * to meet or miss them, at queue depth 1 and 4, alone and in --auto.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "card.h"
#include "class.h"
#include "fault.h"
#include "flashbench.h"
#include "util.h"

/* Measure --class on a simulated card and judge claims (NULL: all). */
static void class_on(const char *spec, const char *claims,
		     struct class_result *r)
{
	struct card_claims c;
	struct bench_opts o;
	struct class_plan p;
	struct device *dev;
	char sized[256];

	/*
	 * --sustained writes the device's first half when no cache ends
	 * sooner: 512 MiB of these cards, not 4 GiB of the default 8 GiB
	 * (the classes measure the same past it; the suite runs under
	 * qemu and the sanitizers).
	 */
	snprintf(sized, sizeof(sized), "%s%s", strstr(spec, "size=") ? "" :
		 "size=1G,", spec);
	dev = sim_card(sized);

	bench_opts_default(&o);
	o.offset_byte = 16 << 20;
	o.sustained = 1;	/* past any cache: pass or FAIL, not unsure */
	class_plan(&p, &o, 0);
	ck_assert_int_eq(class_measure(dev, &p, r), 0);
	if (claims) {
		char why[128];

		ck_assert_int_eq(card_parse_claims(claims, &c, why,
						   sizeof(why)), 0);
	}
	class_judge(r, claims ? &c : NULL);
	dev_close(dev);
}

static const struct class_check *check_of(const struct class_result *r,
					  const char *name)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (!strcmp(r->c[i].name, name))
			return &r->c[i];
	ck_abort_msg("no class %s", name);
	return NULL;
}

/* Rates from the model: access + len / rate for each write. */
static double model_mbps(double access_us, double len, double mbps)
{
	return len / (access_us * 1e-6 + len / (mbps * 1e6)) / 1e6;
}

/* A card built to meet C10, U1 and A1. */
START_TEST(test_class_pass)
{
	struct class_result r;

	class_on("noise=0,open=24,page=4K,access_us=300,write_mbps=20",
		 "C10+U1+A1", &r);
	ck_assert_uint_eq(r.n, 3);
	ck_assert_int_eq(r.all, 0);
	ck_assert_double_eq_tol(r.sd.min_mbps,
				model_mbps(300, 65536, 20), 0.01);
	ck_assert_double_eq_tol(r.uhs.min_mbps,
				model_mbps(300, 524288, 20), 0.01);
	ck_assert_double_eq_tol(r.read_iops, 1e6 / (300 + 4096 / 25.0), 1);
	ck_assert_double_eq_tol(r.write_iops, 1e6 / (300 + 4096 / 20.0), 1);
	ck_assert_int_eq(check_of(&r, "C10")->pass, 1);
	ck_assert_int_eq(check_of(&r, "C10")->claimed, 1);
	ck_assert_int_eq(check_of(&r, "U1")->pass, 1);
	ck_assert_int_eq(check_of(&r, "A1")->pass, 1);
}
END_TEST

/*
 * The typical card claiming C10+U1+A1 meets C10 and U1 (10.6 and 11.8
 * MB/s) but not A1: 1157 reads/s, and random writes across more AUs than
 * it keeps open each cost a copy.
 */
START_TEST(test_class_fail)
{
	struct class_result r;

	class_on("noise=0", "C10+U1+A1", &r);
	ck_assert_int_eq(check_of(&r, "C10")->pass, 1);
	ck_assert_int_eq(check_of(&r, "U1")->pass, 1);
	ck_assert_int_eq(check_of(&r, "A1")->pass, 0);
	ck_assert_double_lt(r.read_iops, 1500);
	ck_assert_double_lt(r.write_iops, 500);
	/* a slower card fails C10 and U1 and still meets C6 */
	class_on("noise=0,write_mbps=8", "C10+U1", &r);
	ck_assert_int_eq(check_of(&r, "C10")->pass, 0);
	ck_assert_int_eq(check_of(&r, "U1")->pass, 0);
	class_on("noise=0,write_mbps=8", "C6", &r);
	ck_assert_int_eq(check_of(&r, "C6")->pass, 1);
	/* U3 and V30 need 30 MB/s in 512 KiB units */
	class_on("noise=0,write_mbps=40,access_us=200", "U3+V30", &r);
	ck_assert_double_gt(r.uhs.min_mbps, 30);
	ck_assert_int_eq(check_of(&r, "U3")->pass, 1);
	ck_assert_int_eq(check_of(&r, "V30")->pass, 1);
	class_on("noise=0,write_mbps=25", "U3+V10", &r);
	ck_assert_int_eq(check_of(&r, "U3")->pass, 0);
	ck_assert_int_eq(check_of(&r, "V10")->pass, 1);
}
END_TEST

/*
 * A class met faster than the card writes past the cache it showed was
 * met in that cache again (it folded back while a busy host paused: the
 * today's sweep's light and heavy hosts passed V30 so on cards of 18
 * MB/s): unsure, not a pass.  Met at the card's own speed past it, or
 * with no cache seen, it stands; missed, it fails.
 */
START_TEST(test_class_retaken)
{
	static const struct {
		int dropped;
		double uhs_mbps;	/* the class check's slowest unit */
		const char *said;	/* U3's word */
	} runs[] = {
		{ 1, 60, "unsure" },	/* 60 against 18 past the cache */
		{ 1, 21, "FAIL" },	/* under U3's 30 */
		{ 0, 60, "pass" },	/* no cache seen: the card's speed */
		{ 1, 36, "unsure" },	/* x2 */
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(runs); i++) {
		struct class_result r;
		struct card_claims c;
		char why[128];
		const struct class_check *k;

		memset(&r, 0, sizeof(r));
		r.cache.measured = 1;
		r.cache.dropped = runs[i].dropped;
		r.cache.chunk_byte = 4 << 20;
		/* past the cache: a 4 MiB chunk at 18 MB/s */
		r.cache.native_ns = (4 << 20) / 18e6 * 1e9;
		r.cache.fast_ns = r.cache.native_ns / 4;
		r.sd.min_mbps = 15;
		r.uhs.min_mbps = runs[i].uhs_mbps;
		r.sd.max_write_ns = r.uhs.max_write_ns = 30000000;
		ck_assert_int_eq(card_parse_claims("C10+U3", &c, why,
						   sizeof(why)), 0);
		class_judge(&r, &c);
		k = check_of(&r, "U3");
		ck_assert_msg(!strcmp(k->within ? "unsure" : k->pass ? "pass" :
				      "FAIL", runs[i].said),
			      "run %zu: U3 within %d pass %d, not %s", i,
			      k->within, k->pass, runs[i].said);
		/* C10 at 15 MB/s is under 1.25 x 18: the card's own speed */
		ck_assert_int_eq(check_of(&r, "C10")->pass, 1);
	}
}
END_TEST

/* A2 failing on the writes alone says why. */
START_TEST(test_class_a2_writes)
{
	struct class_result r;
	const struct class_check *k;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	class_on("noise=0,open=24,page=4K,access_us=100,read_mbps=100,"
		 "write_mbps=20,random_mbps=4", "A2", &r);
	k = check_of(&r, "A2");
	ck_assert_double_gt(r.read_iops, 4000);
	ck_assert_double_lt(r.write_iops, 2000);
	ck_assert_int_eq(k->pass, 0);
	ck_assert_int_eq(k->writes_only, 1);
	f = open_memstream(&text, &len);
	class_print(f, &r);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(text, "A2   FAIL"));
	ck_assert_ptr_nonnull(strstr(text, "command queue and cache"));
	/* whole sentences, none cut across lines (issue 20 item 2) */
	ck_assert_ptr_nonnull(strstr(text, "class check: measured from the host, on the card as it is now\n  (not the SD Association's certification procedure)\n"));
	free(text);
}
END_TEST

/*
 * A card with a command queue (queue=8) and the cache enabled meets A2
 * at queue depth 4; the same card with the cache off fails it on the
 * writes alone and says why; without a queue the reads fall short too.
 * Exact figures, noise=0: access 300 µs, 4 KiB at 50 MB/s (81.92 µs),
 * a 16 KiB page at 20 MB/s (819.2 µs), into the cache 204.8 µs.
 */
#define T_A2 "noise=0,open=16,access_us=300,read_mbps=50,write_mbps=20"

START_TEST(test_class_a2_queue)
{
	struct class_result r;
	const struct class_check *k;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	class_on(T_A2 ",queue=8,queue_cache=1", "A2", &r);
	k = check_of(&r, "A2");
	ck_assert_uint_eq(k->qd, 4);
	ck_assert_double_eq_tol(r.read_iops, 1e6 / (300 + 81.92), 0.01);
	ck_assert_double_eq_tol(r.read_iops_qd4, 4e6 / (300 + 4 * 81.92),
				0.01);
	ck_assert_double_eq_tol(r.write_iops, 1e6 / (300 + 819.2), 0.01);
	ck_assert_double_eq_tol(r.write_iops_qd4, 4e6 / (300 + 4 * 204.8),
				0.01);
	ck_assert_uint_eq(r.reads_qd4, CLASS_RANDOM_OPS);
	ck_assert_uint_eq(r.writes_qd4, CLASS_RANDOM_OPS);
	ck_assert_int_eq(k->pass, 1);

	/* the cache off: queued writes program one by one */
	class_on(T_A2 ",queue=8", "A2", &r);
	k = check_of(&r, "A2");
	ck_assert_double_eq_tol(r.write_iops_qd4, 4e6 / (300 + 4 * 819.2),
				0.01);
	ck_assert_double_gt(r.read_iops_qd4, 4000);
	ck_assert_int_eq(k->pass, 0);
	ck_assert_int_eq(k->writes_only, 1);
	f = open_memstream(&text, &len);
	class_print(f, &r);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(text,
		"  queue depth 1               2618       893    1000    1000\n"
		"  queue depth 4               6373      1118    1000    1000\n"));
	ck_assert_ptr_nonnull(strstr(text,
		"       queue depth 4: 6373 reads/s (needs 4000), 1118 writes/s (needs 2000)\n"
		"       A2 relies on the card's command queue and cache"));
	free(text);

	/* no queue: depth 4 is depth 1, the reads fail A2 too; A1 passes */
	class_on(T_A2, NULL, &r);
	ck_assert_double_eq_tol(r.read_iops_qd4, r.read_iops, 0.01);
	ck_assert_int_eq(check_of(&r, "A2")->pass, 0);
	ck_assert_int_eq(check_of(&r, "A2")->writes_only, 0);
	ck_assert_uint_eq(check_of(&r, "A1")->qd, 1);
	ck_assert_int_eq(check_of(&r, "A1")->pass, 1);
}
END_TEST

/* --class --json: both depths measured, the depth A2 is judged at. */
START_TEST(test_class_json_qd4)
{
	struct fb_run r;

	fb_run("--class --json -q --simulate=claims=A2," T_A2 ",queue=8", &r);
	/* it states A2 and misses it: short of its claims */
	ck_assert_int_eq(r.status, 3);
	ck_assert_str_eq(fb_json(&r, "short_of_claims"), "true");
	ck_assert_str_eq(fb_json(&r, "results.0.class"), "\"A2\"");
	ck_assert_str_eq(fb_json(&r, "results.0.pass"), "false");
	ck_assert_int_eq((int)atof(fb_json(&r, "results.0.measured.read_iops")),
			 2618);
	ck_assert_int_eq((int)atof(fb_json(&r,
			 "results.0.measured.read_iops_qd4")), 6372);
	ck_assert_int_eq((int)atof(fb_json(&r,
			 "results.0.measured.write_iops_qd4")), 1118);
	ck_assert_str_eq(fb_json(&r, "results.0.required.queue_depth"), "4");
	fb_free(&r);
}
END_TEST

/* Fast on average, but one write over 250 ms fails the class. */
START_TEST(test_class_busy)
{
	struct card_claims c = { 10, 1, 0, 0 };
	struct class_result r;

	memset(&r, 0, sizeof(r));
	r.sd.min_mbps = r.uhs.min_mbps = 20;
	r.sd.max_write_ns = r.uhs.max_write_ns = CLASS_MAX_BUSY_NS;
	class_judge(&r, &c);
	ck_assert_uint_eq(r.n, 2);
	ck_assert_int_eq(r.c[0].pass, 1);
	ck_assert_int_eq(r.c[1].pass, 1);
	r.sd.max_write_ns = CLASS_MAX_BUSY_NS + 1;
	class_judge(&r, &c);
	ck_assert_int_eq(r.c[0].pass, 0);
	ck_assert_int_eq(r.c[1].pass, 1);
	r.uhs.min_mbps = 9.99;
	class_judge(&r, &c);
	ck_assert_int_eq(r.c[1].pass, 0);
}
END_TEST

/*
 * A class failed for a write over 250 ms, not for its speed, says so
 * (issue 27 item 16).
 */
START_TEST(test_class_busy_reason)
{
	struct card_claims c = { 10, 0, 0, 0 };
	struct class_result r;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	memset(&r, 0, sizeof(r));
	r.sd.min_mbps = r.uhs.min_mbps = 20;
	r.sd.max_write_ns = 1065000000ULL;
	class_judge(&r, &c);
	f = open_memstream(&text, &len);
	ck_assert_ptr_nonnull(f);
	class_print_checks(f, &r);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(text, "  C10  FAIL  20.0 MB/s (needs 10), longest write 1.065s, over the 250ms allowed\n"));
	free(text);
	/* within the limit: no such words */
	r.sd.max_write_ns = CLASS_MAX_BUSY_NS;
	class_judge(&r, &c);
	f = open_memstream(&text, &len);
	ck_assert_ptr_nonnull(f);
	class_print_checks(f, &r);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(text, "  C10  pass  20.0 MB/s (needs 10), longest write 250ms\n"));
	free(text);
}
END_TEST

/*
 * --auto --destructive -v names the class check while it runs, after
 * the capacity check (which the progress line showed for both before).
 */
START_TEST(test_class_named_in_auto)
{
	const char *cap, *cls;
	struct fb_run r;

	fb_run("--auto --destructive -v --simulate=size=1G,noise=0", &r);
	ck_assert_int_eq(r.status, 0);
	cap = strstr(r.err, "flashbench: auto: capacity check (writes)\n");
	cls = strstr(r.err, "flashbench: auto: class check (writes)\n");
	ck_assert_ptr_nonnull(cap);
	ck_assert_ptr_nonnull(cls);
	ck_assert(cls > cap);
	fb_free(&r);
}
END_TEST

/*
 * -L stopped by ^C after its sequential run in 64 KiB units prints what
 * it had measured, no class judged (issue 27 item 17).
 */
START_TEST(test_class_stopped)
{
	struct fb_run r;

	fault_plan_init(&fb_fault_plan);
	fb_fault_plan.signal_op = 270;
	fb_fault_plan.signal = SIGINT;
	flashbench_open_hook = fb_fault_hook;
	fb_run("-L --simulate=noise=0", &r);
	flashbench_open_hook = NULL;
	ck_assert_msg(r.status == 130, "status %d: %s", r.status, r.err);
	ck_assert_ptr_nonnull(strstr(r.out, "class check: interrupted after "));
	ck_assert_ptr_nonnull(strstr(r.out, ", no class judged\n"));
	ck_assert_msg(strstr(r.out, "\nsequential in units of 64KiB: slowest 10.6 MB/s, longest write "),
		      "%s", r.out);
	ck_assert_ptr_null(strstr(r.out, " pass "));
	ck_assert_ptr_null(strstr(r.out, " FAIL "));
	fb_free(&r);
}
END_TEST

/* No claims: every class, none claimed; the ranges of the plan. */
START_TEST(test_class_all)
{
	struct class_result r;
	struct bench_range rg[2];
	struct bench_opts o;

	class_on("noise=0", NULL, &r);
	ck_assert_int_eq(r.all, 1);
	ck_assert_uint_eq(r.n, CLASS_NR);
	ck_assert_int_eq(r.c[0].claimed, 0);
	ck_assert_int_eq(check_of(&r, "C4")->pass, 1);
	ck_assert_int_eq(check_of(&r, "U3")->pass, 0);
	bench_opts_default(&o);
	o.offset_byte = 16 << 20;
	o.card = NULL;	/* no card told: the AU of --erasesize */
	/* and where it first writes past a write cache */
	ck_assert_int_eq(class_write_ranges(0, &o, 8ULL << 30, rg, 2), 2);
	ck_assert_uint_eq(rg[0].start_byte, 16 << 20);
	ck_assert_uint_eq(rg[0].end_byte, (16 + 16 + 64) << 20);
	/* past 8 AUs of the largest a card of 8 GiB has (32 MiB): no AU
	 * known, a FAT area may reach that far */
	ck_assert_uint_eq(rg[1].start_byte, 256 << 20);
	ck_assert_uint_eq(rg[1].end_byte, (256 + 512 + 20) << 20); /* a margin */
	ck_assert_int_eq(class_write_ranges(0, &o, 64ULL << 20, rg, 2),
			 -EINVAL);
}
END_TEST

/*
 * What the list of classes says it checks: those the card states; all,
 * for a card whose status register states none; all, for a device whose
 * registers could not be read, saying so (issue 20 item 2: it said "the
 * card states no class").
 */
START_TEST(test_class_unknown_registers)
{
	static const struct {
		const char *args, *head;
		int all, unknown;
	} runs[] = {
		{ "-L -q --simulate=noise=0",
		  "\nno SD registers could be read, so every class is checked:\n",
		  1, 1 },
		{ "-L -q --simulate=noise=0,au=4M",
		  "\nthe card states no class, so every class is checked:\n",
		  1, 0 },
		{ "-L -q --simulate=noise=0,claims=C10",
		  "\nthe classes the card states:\n  C10  unsure", 0, 0 },
	};
	struct class_result r;
	struct fb_run f;

	fb_run(runs[_i].args, &f);
	ck_assert_int_eq(f.status, 0);
	ck_assert_msg(strstr(f.out, runs[_i].head), "%s", f.out);
	ck_assert_uint_eq(count_str(f.out, "  C2 "), runs[_i].all);
	fb_free(&f);
	/* the module's own judgement */
	class_on("noise=0", runs[_i].unknown ? NULL : "C10", &r);
	ck_assert_int_eq(r.unknown, runs[_i].unknown);
}
END_TEST

/* A time as fmt_time() prints it ("1.475s", "6.28ms"), in seconds. */
static double secs(const char *p)
{
	char *end;
	double v = strtod(p, &end);

	if (!strncmp(end, "ms", 2))
		return v / 1e3;
	if (!strncmp(end, "\u00b5s", strlen("\u00b5s")))
		return v / 1e6;
	if (!strncmp(end, "ns", 2))
		return v / 1e9;
	ck_assert_int_eq(*end, 's');
	return v;
}

/* A copy of text with its wrapped lines joined (malloc'd). */
static char *unwrap(const char *text)
{
	char *u = strdup(text), *w = u;
	const char *t;

	ck_assert_ptr_nonnull(u);
	for (t = text; *t; t++) {
		if (!strncmp(t, "\n    ", 5)) {
			*w++ = ' ';
			t += 4;
			continue;
		}
		*w++ = *t;
	}
	*w = '\0';
	return u;
}

/*
 * --auto --destructive gives one device time, for the whole run with the
 * class check, then each step's share, which add up to it (issue 20
 * item 2: a total for the verdict's steps, the class block, then the
 * class check's own total).
 */
START_TEST(test_class_auto_one_total)
{
	const char *p, *q;
	char *unwrapped;
	double total, sum = 0;
	struct fb_run r, v;

	fb_run("--auto --destructive -q --simulate=noise=0", &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_uint_eq(count_str(r.out, "device time: "), 1);
	p = strstr(r.out, "device time: ");
	ck_assert_ptr_nonnull(p);
	/* after the class block, the last line (wrapped: the lines after
	 * it go on under it) */
	ck_assert_ptr_nonnull(strstr(r.out, "\n  A2   "));
	ck_assert(p > strstr(r.out, "\n  A2   "));
	for (q = strchr(p, '\n'); q[1]; q = strchr(q + 1, '\n'))
		ck_assert(!strncmp(q + 1, "    ", 4));
	total = secs(p + 13);
	ck_assert_ptr_nonnull(strstr(p, " in all: align "));
	for (q = strstr(p, ": align ") + 1; (q = strpbrk(q, "0123456789"));
	     q = strpbrk(q, ",\n")) {
		sum += secs(q);
		if (!strpbrk(q, ","))
			break;
	}
	ck_assert_msg(sum > total * 0.999 && sum < total * 1.001,
		      "shares %g s, total %g s: %s", sum, total, p);
	/*
	 * the class check's share is about what -L alone takes but its
	 * own writing past a write cache (the run's step did that)
	 */
	fb_run("-L -q --simulate=noise=0", &v);
	q = strstr(v.out, "device time: ");
	ck_assert_ptr_nonnull(q);
	ck_assert_ptr_nonnull(strstr(q, " ("));
	unwrapped = unwrap(p);
	ck_assert_ptr_nonnull(strstr(unwrapped, ", class check "));
	ck_assert_double_eq_tol(secs(strstr(unwrapped, ", class check ") + 14),
				secs(q + 13) - secs(strstr(q, " (") + 2),
				secs(q + 13) * 0.1);
	ck_assert_double_gt(total, secs(q + 13) + 5);
	free(unwrapped);
	fb_free(&r);
	fb_free(&v);
}
END_TEST

/*
 * -L uses --erasesize (where the card states no AU) and --offset, so -v
 * does not call them ignored; an --offset off its grid of units is
 * refused before any I/O, as -O refuses one off the AU grid, rather
 * than rounded up unsaid (issue 20 item 2).
 */
START_TEST(test_class_offset_options)
{
	struct fb_run r;

	fb_run("-L -q -v -e 2M --offset=6M --simulate=noise=0", &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_ptr_null(strstr(r.err, "ignored"));
	/* 4 units of 2MiB from 6MiB, then 64MiB of random I/O */
	ck_assert_ptr_nonnull(strstr(r.err, "will overwrite bytes 6291456-81788928 "));
	ck_assert_ptr_nonnull(strstr(r.out, "sequential: 4 units of 2MiB from 6MiB,"));
	fb_free(&r);
	fb_run("-L -q --offset=3M --simulate=noise=0", &r);
	ck_assert_int_eq(r.status, 2);
	ck_assert_uint_eq(r.io_calls, 0);
	ck_assert_str_eq(unwrap_err(r.err), "flashbench: invalid --offset '3M': --class writes units of 4MiB, and it is not a multiple of them; nearest valid offsets: 0 and 4M\n");
	fb_free(&r);
	/* the card's AU (8MiB: units of 4MiB) rules over -e 1M */
	fb_run("-L -q -v -e 1M --offset=3M --simulate=noise=0,au=8M", &r);
	ck_assert_int_eq(r.status, 2);
	ck_assert_ptr_nonnull(strstr(r.err, "the AU the card states (8MiB), not of --erasesize=1M\n"));
	fb_free(&r);
	fb_run("-L -q -e 1M --offset=3M --simulate=noise=0", &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_ptr_nonnull(strstr(r.out, "sequential: 4 units of 1MiB from 3MiB,"));
	fb_free(&r);
}
END_TEST

/*
 * A device too small for -L: refused before any I/O in -L's own terms
 * (it said "--program needs the first 20MiB"); --auto --destructive
 * says that it skipped the class check, and why (issue 20 item 2).
 */
START_TEST(test_class_too_small)
{
	struct fb_run r;

	fb_run("-L -q --simulate=size=64M", &r);
	ck_assert_int_eq(r.status, 2);
	ck_assert_uint_eq(r.io_calls, 0);
	ck_assert_str_eq(unwrap_err(r.err), "flashbench: --class with --offset=16777216 writes 4 units of 4MiB and 64MiB of random I/O, up to byte 100663296, past the end of simulated card (67108864 bytes)\n");
	fb_free(&r);
	fb_run("--auto --destructive -q --simulate=size=64M", &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_ptr_null(strstr(r.out, "class check: measured"));
	ck_assert_ptr_nonnull(strstr(r.out, "\nclass check: skipped: it writes up to byte "));
	ck_assert_ptr_nonnull(strstr(r.out, ", past the end at 67108864\n"));
	fb_free(&r);
}
END_TEST

/*
 * --auto --destructive ends with --class: a card claiming C10+U1+A1 that
 * meets C10 and U1 only (unsure: no cache's end seen); the writes announced; JSON per class.
 */
START_TEST(test_class_in_auto)
{
	struct fb_run r;

	fb_run("--auto --destructive -q --simulate=claims=C10+U1+A1,noise=0",
	       &r);
	ck_assert_int_eq(r.status, 3);	/* A1 stated, not met */
	/* met, but no drop showed a cache's end: unsure (issue 26) */
	ck_assert_ptr_nonnull(strstr(r.out, "  C10  unsure  10.6 MB/s"));
	ck_assert_ptr_nonnull(strstr(r.out, "  U1   unsure  11.8 MB/s"));
	ck_assert_ptr_nonnull(strstr(r.out, "  A1   FAIL  11.8 MB/s"));
	/* its range and what the write cache's recheck before it may
	 * write (from 128 MiB) */
	ck_assert_ptr_nonnull(strstr(r.err,
		"will overwrite 2 ranges on simulated card, 176MiB in all"));
	ck_assert_ptr_nonnull(strstr(r.err, "bytes 16777216-234881024"));
	fb_free(&r);
	fb_run("--auto --destructive -q --json "
	       "--simulate=claims=C10+U1+A1,noise=0", &r);
	ck_assert_int_eq(r.status, 3);
	ck_assert_str_eq(fb_json(&r, "short_of_claims"), "true");
	ck_assert_str_eq(fb_json(&r, "class.0.class"), "\"C10\"");
	ck_assert_str_eq(fb_json(&r, "class.0.claimed"), "true");
	ck_assert_str_eq(fb_json(&r, "class.0.pass"), "false");
	ck_assert_str_eq(fb_json(&r, "class.0.within_cache"), "true");
	ck_assert_str_eq(fb_json(&r, "class.2.class"), "\"A1\"");
	ck_assert_str_eq(fb_json(&r, "class.2.pass"), "false");
	ck_assert_str_eq(fb_json(&r, "class.2.required.read_iops"), "1500");
	fb_free(&r);
	/* too small for it: skipped, and no class in the JSON */
	fb_run("--auto --destructive -q --json --simulate=size=64M,noise=0",
	       &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_str_eq(fb_json(&r, "class"), "null");
	fb_free(&r);
}
END_TEST

Suite *class_suite(void)
{
	Suite *s = suite_create("class");
	TCase *tc = tcase_create("class");

	tcase_add_test(tc, test_class_pass);
	tcase_add_test(tc, test_class_fail);
	tcase_add_test(tc, test_class_retaken);
	tcase_add_test(tc, test_class_a2_writes);
	tcase_add_test(tc, test_class_a2_queue);
	tcase_add_test(tc, test_class_json_qd4);
	tcase_add_test(tc, test_class_busy);
	tcase_add_test(tc, test_class_busy_reason);
	tcase_add_test(tc, test_class_stopped);
	tcase_add_test(tc, test_class_named_in_auto);
	tcase_add_test(tc, test_class_all);
	tcase_add_test(tc, test_class_in_auto);
	tcase_add_test(tc, test_class_auto_one_total);
	tcase_add_test(tc, test_class_offset_options);
	tcase_add_test(tc, test_class_too_small);
	tcase_add_loop_test(tc, test_class_unknown_registers, 0, 3);
	tcase_set_timeout(tc, 120);
	suite_add_tcase(s, tc);
	return s;
}
