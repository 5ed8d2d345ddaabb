// SPDX-License-Identifier: GPL-2.0-only
/*
 * The hard sweep's scoring and tallies (see sweepscore.h).
 */
#include <stdio.h>

#include "autorun.h"
#include "class.h"
#include "sweepscore.h"
#include "writecache.h"

const char *const outcome_names[O_NR] = {
	"exact", "unsure", "wrong-low", "WRONG",
};

const char *const field_names[F_NR] = {
	"erase size", "page size", "program unit", "alloc group",
	"open linear", "open random", "FAT area", "mapping", "write cache",
	"class",
};

/* Short names of the fields, for the tables by mechanic. */
static const char *const field_short[F_NR] = {
	"erase", "page", "unit", "group", "o-lin", "o-rnd", "FAT", "map",
	"cache", "class",
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

/*
 * What a page-mapped card has none of (issue 26): a number of open AUs
 * (no limit: "at least n" is right), a FAT area.  None is exact, a value
 * wrong.
 */
static enum outcome judge_none(int measured, int value,
			       enum analyze_confidence conf)
{
	return measured && value ? judge(1, 0, conf) : O_EXACT;
}

/*
 * A class the check passed that the card fails past its write cache
 * (its native rate is under what the class needs) is WRONG whatever the
 * check said of its confidence: a user buys on it.  A class met only
 * within writes a larger cache may have taken (unsure, not a pass) is
 * unsure: the check said it cannot tell.
 */
static enum outcome judge_class(const struct hard_card *c,
				const struct auto_result *r)
{
	enum outcome o = O_EXACT;
	size_t k;

	if (!r->class)
		return O_EXACT;
	for (k = 0; k < r->class->n; k++) {
		const struct class_check *cc = &r->class->c[k];

		if (cc->kind != CLASS_APP && cc->pass &&
		    c->native_mbps < cc->need_mbps)
			return O_WRONG_SURE;
		if (cc->within)
			o = O_UNSURE;
	}
	return o;
}

/*
 * A mapping unit no larger than the sector, on a card without a write
 * cache: every write the host can make is whole units, so none costs a
 * read-modify-write (simpage.c charges one only to a unit written in
 * part), and no write shows the unit; what does show, writes held in
 * every order with no unit, is also what a block-mapped card behind a
 * pSLC cache larger than the run wrote shows (simcache.c: the cache
 * takes every write at its own rate until full).  Only a fill of half
 * the card (no cache is larger: eMMC's MAX_ENH_SIZE_MULT) tells them
 * apart, which --cache-cap or --sustained buys (verdict/mapping.c's
 * unit_in_sector then names the sector).  Cards 188, 51: 4 KiB units on
 * 4 KiB sectors.  Pages named (any confidence: the cache is not ruled
 * out) and no unit, with that reason (no cache seen, the unit probe
 * run), is exact there.
 */
static int unit_hidden(const struct hard_card *c, const struct auto_result *r)
{
	const struct auto_mapping *m = &r->mapping;

	return c->map && c->map <= r->sector_byte && !c->slc &&
	       m->kind == AUTO_MAP_PAGES && m->measured && !m->unit_byte &&
	       r->cache.measured && !cache_seen(&r->cache);
}

/*
 * The mapping: on a page-mapped card pages and the unit planted, each
 * at medium or high; AUs named there, or pages named on a block-mapped
 * card, wrong.  A block-mapped card's AUs (or no answer) are what its
 * open-AU fields judge.
 */
static enum outcome judge_mapping(const struct hard_card *c,
				  const struct auto_result *r)
{
	const struct auto_mapping *m = &r->mapping;
	enum outcome kind;

	if (!c->map)
		return m->kind == AUTO_MAP_PAGES ? judge(1, 0, m->confidence) :
						   O_EXACT;
	if (unit_hidden(c, r))
		return O_EXACT;
	if (m->kind != AUTO_MAP_PAGES)
		return judge(m->kind == AUTO_MAP_AUS, 0, m->confidence);
	kind = judge(1, 1, m->confidence);
	if (kind != O_EXACT)
		return kind;
	return judge(m->unit_byte != 0, m->unit_byte == c->map,
		     m->unit_confidence);
}

/* The write cache r names against the pSLC cache planted in c. */
static enum outcome judge_cache(const struct hard_card *c,
				const struct auto_result *r)
{
	const struct auto_cache *k = &r->cache;
	double native, size;

	if (!k->measured)
		return O_UNSURE;
	if (!c->slc)
		return cache_seen(k) ? O_WRONG_SURE : O_EXACT;
	/* none seen: wrong where the fill wrote past the cache's end and a
	 * run of chunks more (a drop shows in them), unsure short of it */
	if (!cache_seen(k))
		return (uint64_t)k->nchunks * k->chunk_byte >=
		       c->slc + CACHE_RUN * k->chunk_byte ?
		       O_WRONG_SURE : O_UNSURE;
	native = cache_mbps(k, k->native_ns);
	if (native <= 0.8 * c->native_mbps || native >= 1.2 * c->native_mbps)
		return O_WRONG_SURE;
	size = (double)k->size_byte / (double)c->slc;
	/* one the recheck found is "more than" what the fill wrote */
	if (k->late)
		return size <= 1.02 ? O_EXACT : O_WRONG_SURE;
	return size >= 0.5 && size <= 2 ? O_EXACT : O_WRONG_SURE;
}

/*
 * Is the page of c, and the program unit over it, truly out of reach of
 * timed I/O?  A page-mapped card on 4 KiB sectors whose one read step
 * is at most 16 KiB: a page of 8 or 16 KiB, or pages of 4 KiB read two
 * or four at once across planes.  Reads are of whole 4 KiB sectors
 * (sim.c's sim_read_ns(): a read costs a page more only where it needs
 * one more page than its length does, so a 4 KiB page costs nothing
 * extra to any of them), which leaves one step at the unit either way:
 * a page of 16 KiB (card 62, 280) reads as pages of 4 KiB four at a time
 * (card 58) do.  On a block-mapped card a write smaller than the page or
 * off its alignment tells them apart (verdict/mapping.c's sector_page);
 * on a page-mapped one writes cost by the mapping unit alone
 * (simpage.c), whatever the page.  A page of 8 KiB with a unit of 16 KiB
 * over it (card 52) shows two levels, and is not counted here.  Only
 * none with the verdict's reason (mapping.page_hidden) is exact then.
 */
static int page_hidden(const struct hard_card *c, const struct auto_result *r)
{
	uint64_t unit = c->plane ? c->plane * c->page : c->page;

	return (c->today & (1u << T_SECTOR)) &&
	       (c->today & ((1u << T_PAGE) | (1u << T_FULL))) &&
	       unit <= 16384 && (!c->plane || c->page <= 4096) &&
	       r->mapping.page_hidden && !r->align.page.size_byte &&
	       !r->align.plane.size_byte;
}

/* The page, program unit and group fields of r against c. */
static void score_reads(const struct hard_card *c, const struct auto_result *r,
			enum outcome out[F_NR])
{
	const struct analyze_step *p = &r->align.page;
	int nosig = !!(c->behaviours & (1u << B_NOREADSIG));

	/* 4 KiB sectors: no read of 4 KiB blocks shows a 4 KiB page */
	if ((c->today & (1u << T_SECTOR)) && c->page <= 4096)
		nosig = 1;
	if (nosig)
		/* nothing in the reads shows the page: none is right */
		out[F_PAGE] = p->size_byte ?
			judge(1, p->size_byte == c->page, p->confidence) :
			O_EXACT;
	else
		out[F_PAGE] = judge(p->size_byte != 0,
				    p->size_byte == c->page, p->confidence);
	if (page_hidden(c, r)) {
		out[F_PAGE] = O_EXACT;
		out[F_UNIT] = O_EXACT;
	} else if (c->behaviours & (1u << B_NOREADSIG)) {
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
}

/*
 * A page-mapped card: the erase block its reads show (without a read
 * signature, none: no write shows one), no open-AU limit, no FAT area.
 */
static void score_pages(const struct hard_card *c,
			const struct auto_result *r, enum outcome out[F_NR])
{
	const struct analyze_step *e = &r->align.erase;
	const struct auto_open *ol = &r->open_linear, *orr = &r->open_random;

	if (c->behaviours & (1u << B_NOREADSIG))
		out[F_ERASE] = judge_none(1, e->size_byte != 0,
					  e->confidence);
	out[F_OPEN_LIN] = judge_none(ol->measured, !ol->at_least,
				     ol->confidence);
	out[F_OPEN_RAND] = judge_none(orr->measured, !orr->at_least,
				      orr->confidence);
	out[F_FAT] = judge_none(r->fat.measured, r->fat.found,
				r->fat.confidence);
}

void score_card(const struct hard_card *c, const struct auto_result *r,
		enum outcome out[F_NR])
{
	const struct analyze_step *e = &r->align.erase;
	const struct auto_fat *f = &r->fat;

	out[F_ERASE] = judge(e->size_byte != 0, e->size_byte == c->erase,
			     e->confidence);
	score_reads(c, r, out);
	out[F_OPEN_LIN] = judge_open(&r->open_linear, c->open);
	out[F_OPEN_RAND] = judge_open(&r->open_random, c->open_random);
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
	if (c->today & ((1u << T_PAGE) | (1u << T_FULL)))
		score_pages(c, r, out);
	out[F_MAPPING] = judge_mapping(c, r);
	out[F_CACHE] = judge_cache(c, r);
	out[F_CLASS] = judge_class(c, r);
}

int sweep_run(const struct hard_card *c, struct device *dev,
	      const struct bench_opts *o, struct auto_result *r)
{
	if (c->today & (1u << T_SLC))
		return auto_run_all(dev, o, 1, NULL, NULL, r);
	return auto_run(dev, o, 1, NULL, r);
}

enum analyze_confidence field_conf(const struct auto_result *r, enum field f)
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
	case F_FAT:
		return r->fat.confidence;
	case F_MAPPING:
		return r->mapping.kind == AUTO_MAP_PAGES &&
		       r->mapping.unit_byte &&
		       r->mapping.unit_confidence < r->mapping.confidence ?
		       r->mapping.unit_confidence : r->mapping.confidence;
	default:
		return ANALYZE_CONF_NONE;
	}
}

/* The classes passed, "C10 U1 ...", and those unsure ("V30?"). */
static void class_value(const struct auto_result *r, char *buf, size_t len)
{
	size_t k, n = 0;

	buf[0] = 0;
	for (k = 0; r->class && k < r->class->n && n < len; k++)
		if (r->class->c[k].pass || r->class->c[k].within)
			n += (size_t)snprintf(buf + n, len - n, "%s%s ",
					      r->class->c[k].name,
					      r->class->c[k].within ? "?" : "");
}

void field_value(const struct auto_result *r, enum field f, char *buf,
		 size_t len)
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
	} else if (f == F_MAPPING) {
		snprintf(buf, len, "%s unit %llu",
			 r->mapping.kind == AUTO_MAP_PAGES ? "pages" :
			 r->mapping.kind == AUTO_MAP_AUS ? "AUs" : "none",
			 (unsigned long long)r->mapping.unit_byte);
	} else if (f == F_CACHE) {
		snprintf(buf, len, "%s%llu MiB, %.3g then %.3g MB/s",
			 cache_seen(&r->cache) ? "" : "none: ",
			 (unsigned long long)(r->cache.size_byte >> 20),
			 cache_mbps(&r->cache, r->cache.fast_ns),
			 cache_mbps(&r->cache, r->cache.native_ns));
	} else if (f == F_CLASS) {
		class_value(r, buf, len);
	} else {
		snprintf(buf, len, "%s%u%s", o->measured ? "" : "-", o->nr,
			 o->at_least ? "+" : "");
	}
}

enum outcome sweep_add(struct sweep_tally *t, const struct hard_card *c,
		       const struct auto_result *r,
		       const enum outcome out[F_NR])
{
	enum outcome worst = O_EXACT;
	unsigned int k, b, m, s;

	for (k = 0; k < F_NR; k++) {
		t->by_field[k][out[k]]++;
		if (out[k] > worst)
			worst = out[k];
		for (m = 0; m < M_NR; m++)
			if (c->mechanics & (1u << m))
				t->mech_wrong[m][k] += out[k] == O_WRONG_SURE;
		for (m = 0; m < T_NR; m++)
			if (c->today & (1u << m))
				t->today_wrong[m][k] += out[k] == O_WRONG_SURE;
	}
	for (b = 0; b < B_NR; b++)
		if (c->behaviours & (1u << b)) {
			t->by_behaviour[b][worst]++;
			t->behaviour_in[b]++;
		}
	for (m = 0; m < M_NR; m++)
		if (c->mechanics & (1u << m)) {
			t->by_mech[m][worst]++;
			t->mech_in[m]++;
		}
	for (m = 0; m < T_NR; m++) {
		if (!(c->today & (1u << m)))
			continue;
		t->by_today[m][worst]++;
		t->today_in[m]++;
		for (s = 0; s < AUTO_STEPS; s++)
			t->today_step_ns[m][s] += (double)r->step_ns[s];
		t->today_ns[m] += (double)r->device_ns;
	}
	t->cards++;
	t->exact += worst == O_EXACT;
	t->wrong_sure += worst == O_WRONG_SURE;
	return worst;
}

static void print_head(FILE *f, const char *what)
{
	fprintf(f, "  %-18s %5s %6s %6s %9s %6s\n", what, "cards", "exact",
		"unsure", "wrong-low", "WRONG");
}

static void print_row(FILE *f, const char *name, unsigned int n,
		      const unsigned int o[O_NR])
{
	fprintf(f, "  %-18s %5u %6u %6u %9u %6u\n", name, n, o[O_EXACT],
		o[O_UNSURE], o[O_WRONG_LOW], o[O_WRONG_SURE]);
}

void sweep_print(FILE *f, const struct sweep_tally *t)
{
	unsigned int b, k;

	print_head(f, "behaviour");
	for (b = 0; b < B_NR; b++)
		print_row(f, behaviour_names[b], t->behaviour_in[b],
			  t->by_behaviour[b]);
	for (k = 0; k < F_NR; k++)
		fprintf(f, "  field %-12s %6u exact %6u unsure %6u wrong-low %6u WRONG\n",
			field_names[k], t->by_field[k][O_EXACT],
			t->by_field[k][O_UNSURE], t->by_field[k][O_WRONG_LOW],
			t->by_field[k][O_WRONG_SURE]);
}

/* Per row (mechanic), the WRONG fields. */
static void print_wrong(FILE *f, const char *const *names, unsigned int nr,
			const unsigned int *in,
			const unsigned int (*wrong)[F_NR])
{
	unsigned int m, k;

	fprintf(f, "  WRONG fields by mechanic:\n  %-18s", "");
	for (k = 0; k < F_NR; k++)
		fprintf(f, " %5s", field_short[k]);
	fprintf(f, "\n");
	for (m = 0; m < nr; m++) {
		if (!in[m])
			continue;
		fprintf(f, "  %-18s", names[m]);
		for (k = 0; k < F_NR; k++)
			fprintf(f, " %5u", wrong[m][k]);
		fprintf(f, "\n");
	}
}

void sweep_print_mechanics(FILE *f, const struct sweep_tally *t)
{
	unsigned int m;

	print_head(f, "mechanic");
	for (m = 0; m < M_NR; m++)
		if (t->mech_in[m])
			print_row(f, mechanic_names[m], t->mech_in[m],
				  t->by_mech[m]);
	print_wrong(f, mechanic_names, M_NR, t->mech_in, t->mech_wrong);
}

void sweep_print_today(FILE *f, const struct sweep_tally *t)
{
	static const char *const step_short[AUTO_STEPS] = {
		"align", "FAT", "o-lin", "o-rnd", "erase-w",
		[AUTO_STEP_CACHE] = "cache",
	};
	unsigned int m, s;

	print_head(f, "today's mechanic");
	for (m = 0; m < T_NR; m++)
		if (t->today_in[m])
			print_row(f, today_names[m], t->today_in[m],
				  t->by_today[m]);
	print_wrong(f, today_names, T_NR, t->today_in, t->today_wrong);
	fprintf(f, "  device time per card (s), by today's mechanic:\n  %-18s",
		"");
	for (s = 0; s < AUTO_STEPS; s++)	/* a step added since: "new" */
		fprintf(f, " %7s", step_short[s] ? step_short[s] : "new");
	fprintf(f, " %7s\n", "run");
	for (m = 0; m < T_NR; m++) {
		if (!t->today_in[m])
			continue;
		fprintf(f, "  %-18s", today_names[m]);
		for (s = 0; s < AUTO_STEPS; s++)
			fprintf(f, " %7.1f", t->today_step_ns[m][s] / 1e9 /
				t->today_in[m]);
		fprintf(f, " %7.1f\n", t->today_ns[m] / 1e9 / t->today_in[m]);
	}
}
