// SPDX-License-Identifier: GPL-2.0-only
/*
 * The hard sweep: --auto --destructive on 320 simulated cards that mix
 * what real cards do (multi-plane pages, allocation groups, gradual or
 * weak AU steps, pauses, read-ahead, no read signature at all, random
 * order writes slower or never kept open, FAT areas that show only in
 * random-order writes, gradual collapse), sizes 1-128 GiB, erase sizes
 * 1-64 MiB.  Each card's verdict is scored field by field against what
 * was planted, and the tally is reported per behaviour:
 *
 *   exact    the planted value, with medium or high confidence
 *   unsure   the planted value with low confidence, or no value
 *   wrong    another value with low confidence
 *   WRONG    another value with medium or high confidence
 *
 * A card counts as exact when every field is; the goal is at least 97 %
 * exact cards and not a single WRONG field.
 *
 * SWEEP_MECH=1 gives each card also other mechanics than the model's own
 * (hardcard.h: how it takes writes out of order, what closing an AU
 * costs, which it closes, a new card, what the FAT area gains), and
 * SWEEP_HOST=light|heavy puts every card behind a busy host; the tally
 * then has a row per mechanic and, per mechanic and field, the WRONG
 * ones.  The goal is not asserted then: the verdict was fitted to the
 * model's own mechanics (issue 17), and this says where it is not yet
 * right.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "autorun.h"
#include "decide.h"
#include "hardcard.h"
#include "sim.h"
#include "util.h"

enum outcome { O_EXACT, O_UNSURE, O_WRONG_LOW, O_WRONG_SURE, O_NR };

static const char *const outcome_names[O_NR] = {
	"exact", "unsure", "wrong-low", "WRONG",
};

enum field {
	F_ERASE, F_PAGE, F_UNIT, F_GROUP, F_OPEN_LIN, F_OPEN_RAND, F_FAT, F_NR
};

static const char *const field_names[F_NR] = {
	"erase size", "page size", "program unit", "alloc group",
	"open linear", "open random", "FAT area",
};

/* The outcome of one field: right or wrong, and how sure. */
static enum outcome judge(int given, int right, enum analyze_confidence conf)
{
	int sure = conf >= ANALYZE_CONF_MEDIUM;

	if (!given)
		return O_UNSURE;
	if (right)
		return sure ? O_EXACT : O_UNSURE;
	return sure ? O_WRONG_SURE : O_WRONG_LOW;
}

/*
 * A step that only some cards have (program unit, allocation group):
 * want 0 means the card has none, and then none is exact and any value
 * wrong.  Without a read signature nothing can show it: none is exact.
 */
static enum outcome judge_optional(const struct analyze_step *st,
				   uint64_t want)
{
	if (!want)
		return st->size_byte ? judge(1, 0, st->confidence) : O_EXACT;
	return judge(st->size_byte != 0, st->size_byte == want,
		     st->confidence);
}

/* An open-AU count; "at least n" is unsure when n does not overstate. */
static enum outcome judge_open(const struct auto_open *o, unsigned int want)
{
	if (o->measured && o->at_least && o->nr <= want)
		return O_UNSURE;
	return judge(o->measured, o->nr == want && !o->at_least,
		     o->confidence);
}

/* Score every field of r against c; out[f] gets each outcome. */
static void score_card(const struct hard_card *c, const struct auto_result *r,
		       enum outcome out[F_NR])
{
	const struct analyze_step *e = &r->align.erase, *p = &r->align.page;
	const struct auto_open *ol = &r->open_linear, *orr = &r->open_random;
	const struct auto_fat *f = &r->fat;

	out[F_ERASE] = judge(e->size_byte != 0, e->size_byte == c->erase,
			     e->confidence);
	if (c->behaviours & (1u << B_NOREADSIG))
		/* nothing in the reads shows the page: none is right */
		out[F_PAGE] = p->size_byte ?
			judge(1, p->size_byte == c->page, p->confidence) :
			O_EXACT;
	else
		out[F_PAGE] = judge(p->size_byte != 0,
				    p->size_byte == c->page, p->confidence);
	if (c->behaviours & (1u << B_NOREADSIG)) {
		out[F_UNIT] = judge_optional(&r->align.plane, 0);
		out[F_GROUP] = judge_optional(&r->align.group, 0);
	} else {
		out[F_UNIT] = judge_optional(&r->align.plane,
					     c->plane * c->page);
		out[F_GROUP] = judge_optional(&r->align.group, c->group);
	}
	/*
	 * A group with fewer than three boundaries inside the card (2 GiB
	 * on 4 or 6 GiB) shows as one or two slow reads, which a pause
	 * makes as well: no reading can tell it.  Its value is welcome,
	 * none is right too; another value is still wrong.
	 */
	if (c->group && c->size / c->group < 4 && out[F_GROUP] == O_UNSURE &&
	    !r->align.group.size_byte)
		out[F_GROUP] = O_EXACT;
	out[F_OPEN_LIN] = judge_open(ol, c->open);
	out[F_OPEN_RAND] = judge_open(orr, c->open_random);
	if (!f->measured)
		out[F_FAT] = O_UNSURE;
	else if (c->fat)
		out[F_FAT] = judge(1, f->found && f->start == c->fat_start &&
				   f->count == c->fat, f->confidence);
	else
		out[F_FAT] = judge(1, !f->found, f->confidence);
	/*
	 * An area that only programs writes out of order faster
	 * (fat_kind=random, fat_gain=speed) on a card that copies the AU at
	 * every one of them (open random 0: ooo=merge, copy-whole, or none
	 * kept in random mode): its writes pay the same copy as any AU's,
	 * and no write shows it (-f --random neither).  Its value is
	 * welcome, none is right too; another value is still wrong.
	 */
	if (c->fat && (c->behaviours & (1u << B_FATRANDOM)) &&
	    (c->mechanics & (1u << M_FAT_SPEED)) && !c->open_random &&
	    f->measured && !f->found)
		out[F_FAT] = O_EXACT;
}

/* The confidence r gives field f. */
static enum analyze_confidence field_conf(const struct auto_result *r,
					 enum field f)
{
	switch (f) {
	case F_ERASE:
		return r->align.erase.confidence;
	case F_PAGE:
		return r->align.page.confidence;
	case F_UNIT:
		return r->align.plane.confidence;
	case F_GROUP:
		return r->align.group.confidence;
	case F_OPEN_LIN:
		return r->open_linear.confidence;
	case F_OPEN_RAND:
		return r->open_random.confidence;
	default:
		return r->fat.confidence;
	}
}

/* The value r gives field f, for the verbose report. */
static void field_value(const struct auto_result *r, enum field f,
			char *buf, size_t len)
{
	const struct auto_open *o = f == F_OPEN_LIN ? &r->open_linear :
						      &r->open_random;

	if (f <= F_GROUP) {
		const struct analyze_step *st[] = {
			&r->align.erase, &r->align.page, &r->align.plane,
			&r->align.group,
		};

		snprintf(buf, len, "%llu",
			 (unsigned long long)st[f]->size_byte);
	} else if (f == F_FAT) {
		snprintf(buf, len, "%s%u+%u", r->fat.measured ? "" : "-",
			 r->fat.start, r->fat.found ? r->fat.count : 0);
	} else {
		snprintf(buf, len, "%s%u%s", o->measured ? "" : "-", o->nr,
			 o->at_least ? "+" : "");
	}
}

/* Short names of the fields, for the mechanic x field table. */
static const char *const field_short[F_NR] = {
	"erase", "page", "unit", "group", "o-lin", "o-rnd", "FAT",
};

/*
 * The tally per mechanic, and per mechanic and field the WRONG ones;
 * mechanics no card has are left out.
 */
static void print_mechanics(unsigned int by_mech[M_NR][O_NR],
			    const unsigned int cards_in[M_NR],
			    unsigned int wrong[M_NR][F_NR])
{
	unsigned int m, k;

	printf("  %-18s %5s %6s %6s %9s %6s\n", "mechanic", "cards",
	       "exact", "unsure", "wrong-low", "WRONG");
	for (m = 0; m < M_NR; m++)
		if (cards_in[m])
			printf("  %-18s %5u %6u %6u %9u %6u\n",
			       mechanic_names[m],
			       cards_in[m], by_mech[m][O_EXACT],
			       by_mech[m][O_UNSURE], by_mech[m][O_WRONG_LOW],
			       by_mech[m][O_WRONG_SURE]);
	printf("  WRONG fields by mechanic:\n  %-18s", "");
	for (k = 0; k < F_NR; k++)
		printf(" %6s", field_short[k]);
	printf("\n");
	for (m = 0; m < M_NR; m++) {
		if (!cards_in[m])
			continue;
		printf("  %-18s", mechanic_names[m]);
		for (k = 0; k < F_NR; k++)
			printf(" %6u", wrong[m][k]);
		printf("\n");
	}
}

/* One card that is not exact: its spec and the fields that are not. */
static void print_card(unsigned int i, const struct hard_card *c,
		       const struct auto_result *r,
		       const enum outcome out[F_NR], enum outcome worst)
{
	char buf[64];
	unsigned int k;

	fprintf(stderr, "hard sweep: card %u %s: %s\n", i,
		outcome_names[worst], c->spec);
	for (k = 0; k < F_NR; k++) {
		if (out[k] == O_EXACT)
			continue;
		field_value(r, k, buf, sizeof(buf));
		fprintf(stderr, "    %s %s: %s (confidence %s)\n",
			field_names[k], outcome_names[out[k]], buf,
			analyze_confidence_name(field_conf(r, k)));
	}
}

START_TEST(test_hard_sweep)
{
	static unsigned int by_behaviour[B_NR][O_NR], by_field[F_NR][O_NR];
	static unsigned int cards_in[B_NR], by_mech[M_NR][O_NR];
	static unsigned int mech_in[M_NR], mech_wrong[M_NR][F_NR];
	unsigned int i, b, k, m, exact = 0, wrong_sure = 0, ran = 0;
	const unsigned int stride = test_stride();
	int drawn = hard_env_drawn();
	struct bench_opts o;

	bench_opts_default(&o);
	for (i = 0; i < HARD_CARDS; i += stride, ran++) {
		struct hard_card c;
		struct auto_result r;
		struct device *dev;
		enum outcome out[F_NR], worst = O_EXACT;

		hard_card_env(i, &c);
		dev = sim_card(c.spec);
		ck_assert_int_eq(auto_run(dev, &o, 1, NULL, &r), 0);
		decide_check(&r, c.spec);
		record_check(&r, dev->size_byte, c.spec);
		score_card(&c, &r, out);
		for (k = 0; k < F_NR; k++) {
			by_field[k][out[k]]++;
			if (out[k] > worst)
				worst = out[k];
			for (m = 0; m < M_NR; m++)
				if (c.mechanics & (1u << m))
					mech_wrong[m][k] +=
						out[k] == O_WRONG_SURE;
			if (out[k] == O_WRONG_SURE)
				fprintf(stderr, "hard sweep: card %u: %s wrong with confidence %s: %s\n",
					i, field_names[k],
					analyze_confidence_name(
						field_conf(&r, k)), c.spec);
		}
		for (b = 0; b < B_NR; b++)
			if (c.behaviours & (1u << b)) {
				by_behaviour[b][worst]++;
				cards_in[b]++;
			}
		for (m = 0; m < M_NR; m++)
			if (c.mechanics & (1u << m)) {
				by_mech[m][worst]++;
				mech_in[m]++;
			}
		exact += worst == O_EXACT;
		wrong_sure += worst == O_WRONG_SURE;
		if (worst != O_EXACT && getenv("SWEEP_VERBOSE"))
			print_card(i, &c, &r, out, worst);
		auto_free(&r);
		dev_close(dev);
	}
	printf("hard sweep: %u cards, %u exact (%.1f%%), %u with a confident wrong field; each record read back gave the run's verdict\n",
	       ran, exact, 100.0 * exact / ran, wrong_sure);
	printf("  %-18s %5s %6s %6s %9s %6s\n", "behaviour", "cards",
	       "exact", "unsure", "wrong-low", "WRONG");
	for (b = 0; b < B_NR; b++)
		printf("  %-18s %5u %6u %6u %9u %6u\n", behaviour_names[b],
		       cards_in[b], by_behaviour[b][O_EXACT],
		       by_behaviour[b][O_UNSURE], by_behaviour[b][O_WRONG_LOW],
		       by_behaviour[b][O_WRONG_SURE]);
	for (k = 0; k < F_NR; k++)
		printf("  field %-12s %6u exact %6u unsure %6u wrong-low %6u WRONG\n",
		       field_names[k], by_field[k][O_EXACT],
		       by_field[k][O_UNSURE], by_field[k][O_WRONG_LOW],
		       by_field[k][O_WRONG_SURE]);
	if (drawn)
		print_mechanics(by_mech, mech_in, mech_wrong);
	fflush(stdout);
	if (drawn) {
		printf("hard sweep: SWEEP_MECH or SWEEP_HOST set: goal not asserted\n");
		return;
	}
	/*
	 * The goal (issue 11): no confident wrong field, 97 % exact; the
	 * share of exact cards only over the whole sweep (a sample of it,
	 * FB_TEST_STRIDE, may hold most of the few inexact ones).
	 */
	ck_assert_uint_eq(wrong_sure, 0);
	if (stride == 1)
		ck_assert_uint_ge(exact * 100, 97 * HARD_CARDS);
	else
		printf("hard sweep: every %u%s card (FB_TEST_STRIDE): share of exact cards not asserted\n",
		       stride, stride == 2 ? "nd" : stride == 3 ? "rd" : "th");
}
END_TEST

/*
 * Cards of the sweep that once had a confident wrong field, each with
 * what it showed: none may have one again.
 */
static const unsigned int once_wrong[] = {
	13,	/* random slower (x6): open random read as 0, medium */
	18,	/* gradual AU step (8 MiB read as 4 MiB, high) */
	30,	/* gradual AU step, pauses (64 MiB read as 32 MiB) */
	188,	/* gradual AU step, 2 MiB on 8 GiB (read as 1 MiB) */
	53,	/* 4 KiB pages four at a time: the 4 KiB table's first
		   step (16 KiB) read as the page, high */
	227,	/* gradual AU step and multi-plane (erase and page) */
	41,	/* gradual AU step over 64 KiB pages: its foot (a quarter
		   of the AU, four pages) is no program unit */
	44,	/* ditto */
	250,	/* random slower, 1 MiB AU: open random 0, medium */
	298,	/* random slower, pauses, gradual collapse: ditto */
};

START_TEST(test_once_wrong)
{
	struct hard_card c;
	struct auto_result r;
	struct bench_opts o;
	struct device *dev;
	enum outcome out[F_NR];
	unsigned int k;

	bench_opts_default(&o);
	hard_card(once_wrong[_i], &c);
	dev = sim_card(c.spec);
	ck_assert_int_eq(auto_run(dev, &o, 1, NULL, &r), 0);
	score_card(&c, &r, out);
	for (k = 0; k < F_NR; k++)
		ck_assert_msg(out[k] != O_WRONG_SURE,
			      "card %u: %s wrong with confidence %s: %s",
			      once_wrong[_i], field_names[k],
			      analyze_confidence_name(field_conf(&r, k)),
			      c.spec);
	auto_free(&r);
	dev_close(dev);
}
END_TEST

/*
 * Allocation groups whose boundaries lie under only some positions of
 * the rows (the spacing is no multiple of the group): 2 GiB over 8 MiB
 * AUs, 1 GiB over 3 MiB AUs (read as 3 GiB from the rows at erase level
 * alone), 2 GiB over 24 MiB AUs; on small cards, where the tables put
 * too few reads across its boundaries, the group probe's reads (1 GiB on
 * 4 GiB, 2 GiB on 8 GiB).  Each is read exactly, medium or high.
 */
static const unsigned int group_cards[] = { 7, 5, 94, 45, 59, 126, 288 };

START_TEST(test_group_cards)
{
	struct hard_card c;
	struct auto_result r;
	struct bench_opts o;
	struct device *dev;

	bench_opts_default(&o);
	hard_card(group_cards[_i], &c);
	ck_assert_uint_ne(c.group, 0);
	dev = sim_card(c.spec);
	ck_assert_int_eq(auto_run(dev, &o, 1, NULL, &r), 0);
	ck_assert_msg(r.align.group.size_byte == c.group,
		      "card %u: group %llu, planted %llu: %s", group_cards[_i],
		      (unsigned long long)r.align.group.size_byte,
		      (unsigned long long)c.group, c.spec);
	ck_assert_int_ge(r.align.group.confidence, ANALYZE_CONF_MEDIUM);
	auto_free(&r);
	dev_close(dev);
}
END_TEST

/*
 * Cards whose every field is read exactly, medium or high: read-ahead
 * (every diff raised, a program unit of 4 over 3) with 4 KiB pages read
 * four at a time (55, 58), 8 KiB pages two at a time (24, 49, 192).
 */
static const unsigned int exact_cards[] = { 24, 49, 55, 58, 192 };

START_TEST(test_exact_cards)
{
	struct hard_card c;
	struct auto_result r;
	struct bench_opts o;
	struct device *dev;
	enum outcome out[F_NR];
	char buf[64];
	unsigned int k;

	bench_opts_default(&o);
	hard_card(exact_cards[_i], &c);
	dev = sim_card(c.spec);
	ck_assert_int_eq(auto_run(dev, &o, 1, NULL, &r), 0);
	score_card(&c, &r, out);
	for (k = 0; k < F_NR; k++) {
		field_value(&r, k, buf, sizeof(buf));
		ck_assert_msg(out[k] == O_EXACT, "card %u: %s %s (%s): %s",
			      exact_cards[_i], field_names[k], buf,
			      analyze_confidence_name(field_conf(&r, k)),
			      c.spec);
	}
	auto_free(&r);
	dev_close(dev);
}
END_TEST

Suite *sweep_suite(void)
{
	Suite *s = suite_create("sweep");
	TCase *tc = tcase_create("hard");

	tcase_add_loop_test(tc, test_once_wrong, 0,
			    sizeof(once_wrong) / sizeof(once_wrong[0]));
	tcase_add_loop_test(tc, test_group_cards, 0,
			    sizeof(group_cards) / sizeof(group_cards[0]));
	tcase_add_loop_test(tc, test_exact_cards, 0,
			    sizeof(exact_cards) / sizeof(exact_cards[0]));
	tcase_add_test(tc, test_hard_sweep);
	tcase_set_timeout(tc, 1200);
	suite_add_tcase(s, tc);
	return s;
}
