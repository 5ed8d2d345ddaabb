// SPDX-License-Identifier: GPL-2.0-only
/*
 * What kind of card it is: how it maps what is written (issue 26).  A
 * block-mapped card (the card of 2011) keeps a few AUs open and pays a
 * garbage collection for one more: the open-AU search collapses.  A
 * page-mapped (hybrid) card, as A1/A2 cards and eMMC, maps small units
 * anywhere: no number of AUs written in turn collapses, and a write out
 * of order costs what one in order does.  Decided from the open-AU
 * searches' raw fields alone; on a page-mapped card the answers that
 * assume AUs (how many are open, a FAT area) are capped to low, and the
 * erase size, which no write there shows, is the reads' alone.
 */
#include <math.h>
#include <string.h>

#include "auto.h"
#include "stats.h"
#include "writecache.h"

#define MAP_MANY 16		/* AUs in turn with no collapse: more than
				   most block-mapped cards keep open */
#define MAP_ALL 30		/* more than any keeps (1-30) */

static void cap(enum analyze_confidence *c, enum analyze_confidence max)
{
	if (*c > max)
		*c = max;
}

/* A write out of order into one AU against one in order (0: unknown). */
static double order_ratio(const struct auto_result *r)
{
	const struct auto_open *l = &r->open_linear, *n = &r->open_random;

	if (!n->measured || !n->nprobes || l->ref_ns <= 0)
		return 0;
	return n->probes[0].mean_ns / l->ref_ns;
}

/* Page-mapped: how sure, from how far both orders held. */
static enum analyze_confidence pages_confidence(const struct auto_result *r,
						double order)
{
	const struct auto_open *l = &r->open_linear, *n = &r->open_random;
	enum analyze_confidence c = ANALYZE_CONF_LOW;

	if (l->nr >= MAP_MANY && order > 0 && order <= AUTO_HOLD &&
	    n->at_least)
		c = l->nr > MAP_ALL ? ANALYZE_CONF_HIGH : ANALYZE_CONF_MEDIUM;
	if (r->noise.level == AUTO_NOISE_HIGH || r->erase_fallback)
		cap(&c, ANALYZE_CONF_MEDIUM);
	return c;
}

/* No card that maps pages has AUs to keep open nor a FAT area. */
static void pages_caps(struct auto_result *r)
{
	cap(&r->open_linear.confidence, ANALYZE_CONF_LOW);
	cap(&r->open_random.confidence, ANALYZE_CONF_LOW);
	cap(&r->fat.confidence, ANALYZE_CONF_LOW);
	if (r->erase_from == AUTO_ERASE_FROM_WRITES)
		cap(&r->align.erase.confidence, ANALYZE_CONF_LOW);
}

int auto_mapping_standin(struct auto_result *r)
{
	const struct auto_erase_search *e = &r->erase_writes;

	if (!e->measured || e->filled || e->erase_byte)
		return 0;
	r->mapping.standin_byte = AUTO_MAP_STANDIN;
	r->skip_reason = "no AUs to look in: no write paid for a garbage collection";
	r->skip_settle = NULL;
	return 1;
}

int auto_mapping_unit_wanted(const struct auto_result *r)
{
	const struct auto_open *l = &r->open_linear, *n = &r->open_random;

	if (!l->measured || !l->nprobes)
		return 0;
	/* a block-mapped card's page, where no read shows it (sector_page) */
	if (!l->at_least)
		return r->sector_byte > 512 &&
		       r->align.page.confidence < ANALYZE_CONF_MEDIUM;
	return !n->measured || !n->nprobes || n->at_least;
}

/*
 * The mapping unit: the one size whose unaligned write costs clearly
 * more than its aligned one (two units in part against one whole), the
 * others' alike.  High when the others stay within UNIT_CLEAN.
 */
#define UNIT_SHOWS 1.3		/* an unaligned write this much dearer */
#define UNIT_CLEAN 1.1		/* the other sizes within this */

static void unit_decide(struct auto_mapping *m)
{
	const struct auto_map_size *z = m->sizes, *best = NULL;
	size_t i;

	if (!m->measured || !m->nsizes)
		return;
	for (i = 0; i < m->nsizes; i++) {
		double p = z[i].aligned_ns > 0 ?
			   z[i].unaligned_ns / z[i].aligned_ns : 0;

		if (p > m->unit_penalty) {
			if (m->unit_penalty > m->other_penalty)
				m->other_penalty = m->unit_penalty;
			m->unit_penalty = p;
			best = &z[i];
		} else if (p > m->other_penalty) {
			m->other_penalty = p;
		}
	}
	if (!best || m->unit_penalty < UNIT_SHOWS ||
	    m->other_penalty * UNIT_SHOWS / UNIT_CLEAN > m->unit_penalty)
		return;
	m->unit_byte = best->size_byte;
	m->unit_confidence = m->other_penalty <= UNIT_CLEAN ?
			     ANALYZE_CONF_HIGH : ANALYZE_CONF_MEDIUM;
	m->small_ratio = best->aligned_ns > 0 ?
			 z[0].aligned_ns / best->aligned_ns : 0;
}

int auto_mapping_unit_shown(const struct auto_mapping *m)
{
	struct auto_mapping t = *m;

	t.unit_byte = 0;
	t.unit_penalty = t.other_penalty = 0;
	unit_decide(&t);
	return t.unit_byte != 0;
}

/*
 * No unit shown on large sectors: every write the host can make is
 * whole units of the sector's size or less, and a unit no larger than
 * the sector shows no read-modify-write (today's sweep cards 188, 51: 4
 * KiB units on 4 KiB sectors).  A block-mapped card behind a write cache
 * the probes wrote into shows none either; only a cache step that wrote
 * half the card with no drop (no pSLC cache is larger: eMMC's
 * MAX_ENH_SIZE_MULT allows a half of the user area at most) rules that
 * out: then the unit is the sector, at most (medium).  So does a cache
 * the run saw and filled before the probes (today's sweep card 250: a
 * 4 KiB unit on 4 KiB sectors behind 512 MiB of pSLC): past it, a
 * block-mapped card collapses, and a unit larger than the sector shows.
 */
static int unit_in_sector(const struct auto_result *r)
{
	const struct auto_cache *c = &r->cache;
	const struct auto_mapping *m = &r->mapping;

	if (r->sector_byte <= 512 || !m->measured || m->unit_byte ||
	    m->unit_penalty > UNIT_CLEAN || !c->measured)
		return 0;
	/* a cache seen and filled before the probes: they ran past it */
	if (cache_seen(c))
		return c->topups > 0 && r->noise.level != AUTO_NOISE_HIGH;
	return c->nchunks * c->chunk_byte >= c->cap_byte &&
	       c->start_byte + c->cap_byte +
	       CACHE_MARGIN_CHUNKS * c->chunk_byte >= c->dev_half_byte;
}

/* Placed in AUs assumed: no count of open AUs stands beyond low. */
static void standin_caps(struct auto_result *r)
{
	struct auto_mapping *m = &r->mapping;

	cap(&r->open_linear.confidence, ANALYZE_CONF_LOW);
	cap(&r->open_random.confidence, ANALYZE_CONF_LOW);
	cap(&m->confidence, m->kind == AUTO_MAP_PAGES ? ANALYZE_CONF_MEDIUM :
			    ANALYZE_CONF_LOW);
}

/* The decided fields of m cleared, its raw ones kept. */
static void mapping_clear(struct auto_mapping *m)
{
	m->kind = AUTO_MAP_UNKNOWN;
	m->confidence = ANALYZE_CONF_NONE;
	m->nr = 0;
	m->order_ratio = 0;
	m->why = NULL;
	m->unit_byte = 0;
	m->unit_confidence = ANALYZE_CONF_NONE;
	m->unit_penalty = m->other_penalty = m->small_ratio = 0;
	m->erase_top = 0;
	m->erase_half_ns = m->erase_top_ns = m->erase_above_ns = 0;
	m->page_byte = 0;
	m->page_sector = 0;
	m->page_hidden = 0;
	m->unit_sector = 0;
	memset(&m->page_reads, 0, sizeof(m->page_reads));
}

/* The least ratio of a probe above the count found: its collapse. */
static double collapse_ratio(const struct auto_open *o)
{
	double least = 0;
	size_t i;

	for (i = 0; i < o->nprobes; i++)
		if (o->probes[i].nr > o->nr &&
		    (!least || o->probes[i].ratio < least))
			least = o->probes[i].ratio;
	return least;
}

static void kind_decide(struct auto_result *r)
{
	const struct auto_open *l = &r->open_linear, *n = &r->open_random;
	struct auto_mapping *m = &r->mapping;

	if (!r->destructive) {
		m->why = "the open-AU search writes (--destructive)";
		return;
	}
	if (!l->measured || !l->nprobes) {
		m->why = r->skip_reason ? r->skip_reason :
			 "the open-AU search did not run";
		return;
	}
	if (!l->at_least && r->mapping.standin_byte &&
	    collapse_ratio(l) < AUTO_GC_SURE) {
		m->why = "writes slowed with many AUs in turn, too little for a collection of an AU: a page-mapped card collecting as it fills, or a write cache filling";
		return;
	}
	if (!l->at_least) {
		m->kind = AUTO_MAP_AUS;
		m->nr = l->nr;
		m->confidence = l->confidence;
		return;
	}
	if (n->measured && n->nprobes && !n->at_least) {
		m->why = "no collapse in order, yet one out of order";
		/*
		 * no card keeps more AUs open in order than the search
		 * looks for, and fewer out of order: a page-mapped card
		 * collecting as it fills slows some writes out of order
		 */
		cap(&r->open_random.confidence, ANALYZE_CONF_LOW);
		return;
	}
	m->kind = AUTO_MAP_PAGES;
	m->nr = l->nr;
	m->order_ratio = order_ratio(r);
	m->confidence = pages_confidence(r, m->order_ratio);
	pages_caps(r);
	unit_decide(m);
	/*
	 * A block-mapped card behind a pSLC cache holds every probe too
	 * while the cache takes the writes, but the cache shows no unit: a
	 * read-modify-write of a unit is what only a map of units pays.
	 */
	if (unit_in_sector(r)) {
		m->unit_byte = r->sector_byte;
		m->unit_confidence = ANALYZE_CONF_MEDIUM;
		m->unit_sector = 1;
	}
	if (!m->unit_byte)
		cap(&m->confidence, ANALYZE_CONF_LOW);
}

/*
 * The erase size of a card that maps pages, from reads alone.  No write
 * shows its erase blocks (it collects none while free space lasts), so
 * a gradual AU step in the reads (a boundary of half the AU costs part
 * of what one of the AU costs) is all there is to read, and the reads
 * leave where such a ramp ends low.  It ends at e when the reads show
 * both sides of its top: the rise into e is clear (reads across odd
 * multiples of e/2 well below those across odd multiples of e, and
 * themselves above those across odd multiples of e/4: a ramp), and past
 * e it is flat (odd multiples of e cost what multiples of 2e do, where a
 * ramp going on would raise those by as much again).  Every table's
 * reads at every position pooled, an allocation group's boundaries left
 * out.  Medium: no write confirms it.
 */
#define RAMP_RISE_T 5		/* each rise over its standard error */
#define RAMP_FLAT 0.25		/* past the top, within this of the rise */
#define RAMP_MIN_READS 3	/* reads of each kind of boundary */
#define RAMP_MAX_READS 256
#define MEDIAN_SE 1.2533	/* a median's standard error over a mean's */
#define MAD_SIGMA 1.4826	/* a normal sigma over its MAD */

enum ramp_class { RAMP_QUARTER, RAMP_HALF, RAMP_ODD, RAMP_EVEN, RAMP_NR };

/* The class of a boundary at a against erase size e, or RAMP_NR. */
static enum ramp_class ramp_class(uint64_t a, uint64_t e, uint64_t group)
{
	if (!a || (group && a % group == 0) || e % 4)
		return RAMP_NR;
	if (a % (2 * e) == 0)
		return RAMP_EVEN;
	if (a % e == 0)
		return RAMP_ODD;
	if (a % (e / 2) == 0)
		return RAMP_HALF;
	return a % (e / 4) == 0 ? RAMP_QUARTER : RAMP_NR;
}

/* The reads of tables [t0, t1) in class k, into v (at most max); how many. */
static size_t ramp_reads(const struct auto_result *r, size_t t0, size_t t1,
			 enum ramp_class k, double *v, size_t max)
{
	uint64_t e = r->align.erase.size_byte, g = r->align.group.size_byte;
	size_t i, j, n = 0;
	unsigned int p;

	for (i = t0; i < t1; i++)
		for (j = 0; j < r->tables[i].nrows; j++) {
			const struct align_row *w = &r->tables[i].rows[j];

			if (ramp_class(w->align_byte, e, g) != k)
				continue;
			for (p = 0; p < w->npos && n < max; p++)
				v[n++] = (double)w->pos_diff_ns[p];
			if (!w->npos && n < max)
				v[n++] = (double)w->diff_ns;
		}
	return n;
}

/* The rise from class lo to class hi over its standard error. */
static double ramp_t(const double *med, const size_t *n, double sigma,
		     int lo, int hi)
{
	return (med[hi] - med[lo]) /
	       (MEDIAN_SE * sigma * sqrt(1.0 / (double)n[lo] +
					 1.0 / (double)n[hi]));
}

/*
 * Does the ramp of the reads end at the erase size they read?  The
 * medians of the reads across half of it, it and twice it go in m.
 */
static int ramp_top_in(const struct auto_result *r, size_t t0, size_t t1,
		       struct auto_mapping *m)
{
	double v[RAMP_NR][RAMP_MAX_READS], dev[RAMP_NR * RAMP_MAX_READS];
	double med[RAMP_NR], sigma, rise;
	size_t n[RAMP_NR], k, i, nd = 0;

	for (k = 0; k < RAMP_NR; k++) {
		n[k] = ramp_reads(r, t0, t1, (enum ramp_class)k, v[k],
				  RAMP_MAX_READS);
		if (n[k] < RAMP_MIN_READS)
			return 0;
		med[k] = stats_median_sort(v[k], n[k]);
		for (i = 0; i < n[k]; i++)
			dev[nd++] = fabs(v[k][i] - med[k]);
	}
	sigma = fmax(MAD_SIGMA * stats_median_sort(dev, nd),
		     0.005 * med[RAMP_EVEN] + 1.0);
	m->erase_half_ns = med[RAMP_HALF];
	m->erase_top_ns = med[RAMP_ODD];
	m->erase_above_ns = med[RAMP_EVEN];
	rise = med[RAMP_ODD] - med[RAMP_HALF];
	return ramp_t(med, n, sigma, RAMP_HALF, RAMP_ODD) >= RAMP_RISE_T &&
	       ramp_t(med, n, sigma, RAMP_QUARTER, RAMP_HALF) >= RAMP_RISE_T &&
	       fabs(med[RAMP_EVEN] - med[RAMP_ODD]) <= RAMP_FLAT * rise;
}

/*
 * Every table's reads pooled; else the first table's alone, the one
 * every run reads first (where the erase search from writes found none,
 * the tables it was left read later: probes/align.c; tables of larger
 * blocks read the same boundaries with more spread, card 147 of the
 * ramp tests: a clear top in the first, none in all three pooled).
 */
static int ramp_top_clear(const struct auto_result *r, struct auto_mapping *m)
{
	return ramp_top_in(r, 0, r->ntables, m) ||
	       (r->ntables > 1 && ramp_top_in(r, 0, 1, m));
}

/*
 * A card read as mapping pages whose erase size only the reads give, at
 * low confidence: where the top of a gradual AU step stands clear in
 * them, medium.  Pages at low confidence too (a write cache larger than
 * the run wrote not ruled out: today's sweep card 188, a 4 KiB unit on
 * 4 KiB sectors): the erase search found none either way, and where the
 * reads' step ends is theirs alone.
 */
static void pages_erase(struct auto_result *r)
{
	struct auto_mapping *m = &r->mapping;
	struct analyze_step *e = &r->align.erase;

	if (m->kind != AUTO_MAP_PAGES ||
	    r->erase_from != AUTO_ERASE_FROM_READS || !e->size_byte ||
	    e->confidence != ANALYZE_CONF_LOW ||
	    r->noise.level == AUTO_NOISE_HIGH || !ramp_top_clear(r, m))
		return;
	e->confidence = ANALYZE_CONF_MEDIUM;
	m->erase_top = 1;
}

/*
 * The page of a block-mapped card of large logical sectors, from writes.
 * On 4 KiB sectors no read is finer than 8 KiB and no table row below
 * 16 KiB: a page of 8 or 16 KiB reads as a raised floor or a step at the
 * first row, as a program unit over pages of 4 KiB reads too (tables.c:
 * low).  A block-mapped card programs whole pages: a write smaller than a
 * page costs one, a write of a page off its alignment two.  The unit
 * probe, run there as well, shows both: the one size whose unaligned
 * write costs clearly more, smaller writes costing as much as it, is the
 * page (medium: no read confirms it).  Where
 * none does and a write of one sector costs clearly less than one of two,
 * each sector is programmed alone: the page is no larger than the sector
 * (none to name), and a step the reads show is a program unit over such
 * pages: medium where no write cache was in front (a cache takes writes
 * of any size alike), low otherwise.
 */
#define SMALL_ALONE 0.5		/* of what its bytes cost at larger sizes */

/* Does a write of one sector cost clearly less than one of two? */
static int sector_alone(const struct auto_mapping *m)
{
	const struct auto_map_size *z = m->sizes;
	double per;

	if (m->nsizes < 3 || z[1].size_byte != 2 * z[0].size_byte)
		return 0;
	per = (z[2].aligned_ns - z[1].aligned_ns) /
	      (double)(z[2].size_byte - z[1].size_byte);
	return per > 0 && z[1].aligned_ns - z[0].aligned_ns >=
			  SMALL_ALONE * per * (double)z[0].size_byte;
}

/*
 * A program unit over the page w from writes, from the reads of the
 * first table (blocks of two sectors, whose read across a boundary a
 * costs what every unit dividing a costs): the size u of 2 or 4 pages
 * whose odd multiples read clearly dearer than the odd multiples of u/2,
 * and the odd multiples of 2u no dearer than those of u (no unit above
 * it below the AU).  Medium: the page is known, and only 2 or 4 of it
 * are tried.
 */
#define UNIT_MAX_PAGES 4	/* a multi-plane unit: 2 or 4 pages */
#define UNIT_RISE_T 5		/* the rise over its standard error */

/* The reads of table t across odd multiples of s below the AU e. */
static size_t odd_reads(const struct auto_table *t, uint64_t s, uint64_t e,
			double *v, size_t max)
{
	size_t j, n = 0;
	unsigned int p;

	for (j = 0; j < t->nrows; j++) {
		const struct align_row *w = &t->rows[j];

		if (w->align_byte % s || w->align_byte % (2 * s) == 0 ||
		    (e && w->align_byte % e == 0))
			continue;
		for (p = 0; p < w->npos && n < max; p++)
			v[n++] = (double)w->pos_diff_ns[p];
	}
	return n;
}

/* The medians of the reads across odd multiples of w << k, k < kn. */
static int odd_levels(const struct auto_result *r, uint64_t w, double *med,
		      size_t *n, double *sigma, unsigned int kn)
{
	double v[RAMP_MAX_READS], dev[RAMP_NR * RAMP_MAX_READS];
	size_t i, nd = 0;
	unsigned int k;

	for (k = 0; k < kn; k++) {
		n[k] = odd_reads(&r->tables[0], w << k,
				 r->align.erase.size_byte, v, RAMP_MAX_READS);
		if (n[k] < RAMP_MIN_READS)
			return 0;
		med[k] = stats_median_sort(v, n[k]);
		for (i = 0; i < n[k] && nd < ARRAY_SIZE(dev); i++)
			dev[nd++] = fabs(v[i] - med[k]);
	}
	*sigma = fmax(MAD_SIGMA * stats_median_sort(dev, nd),
		      0.005 * med[kn - 1] + 1.0);
	return 1;
}

static void unit_over_page(struct auto_result *r, uint64_t w)
{
	struct analyze_step *u = &r->align.plane;
	double med[RAMP_NR], sigma;
	size_t n[RAMP_NR];
	unsigned int k;

	if (!r->ntables || r->tables[0].blocksize_byte > w ||
	    !odd_levels(r, w, med, n, &sigma, RAMP_NR))
		return;
	for (k = 1; (w << k) <= UNIT_MAX_PAGES * w && k + 1 < RAMP_NR; k++) {
		double rise = med[k] - med[k - 1];

		if (ramp_t(med, n, sigma, (int)k - 1, (int)k) < UNIT_RISE_T)
			continue;
		if (fabs(med[k + 1] - med[k]) > RAMP_FLAT * rise)
			return;
		memset(u, 0, sizeof(*u));
		u->size_byte = u->candidate_byte = w << k;
		u->confidence = ANALYZE_CONF_MEDIUM;
		u->upper_ns = med[k];
		u->lower_ns = med[k - 1];
		u->sigma_ns = sigma;
		return;
	}
}

/*
 * Does a write smaller than w cost what one of w does, as a page's
 * would (it programs the whole page)?  The second sign of a page, from
 * other writes than the unaligned ones: a delay that slowed those alone
 * shows no page.
 */
#define SMALL_AS_PAGE 0.9	/* of what a write of the page costs */

static int small_as_page(const struct auto_mapping *m, uint64_t w)
{
	const struct auto_map_size *z = m->sizes;
	double tw = 0;
	size_t i;

	for (i = 0; i < m->nsizes; i++)
		if (z[i].size_byte == w)
			tw = z[i].aligned_ns;
	for (i = 0; i < m->nsizes && z[i].size_byte < w; i++)
		if (z[i].aligned_ns < SMALL_AS_PAGE * tw)
			return 0;
	return tw > 0;
}

/* The page w from writes: the reads' steps made to agree, or left. */
static void page_is(struct auto_result *r, uint64_t w)
{
	struct analyze_step *p = &r->align.page, *u = &r->align.plane;

	if (u->size_byte && u->size_byte < w)
		return;		/* a program unit below the page: no */
	r->mapping.page_reads = *p;
	if (u->size_byte == w)
		memset(u, 0, sizeof(*u));
	else if (!u->size_byte && p->size_byte > w) {
		*u = *p;	/* a step above the page: a unit over it */
		cap(&u->confidence, ANALYZE_CONF_LOW);
	}
	memset(p, 0, sizeof(*p));
	p->size_byte = p->candidate_byte = w;
	p->confidence = ANALYZE_CONF_MEDIUM;
	r->mapping.page_byte = w;
	if (!u->size_byte)
		unit_over_page(r, w);
}

/* No page above the sector: the reads' step, if any, a unit over it. */
static void page_in_sector(struct auto_result *r)
{
	struct analyze_step *p = &r->align.page, *u = &r->align.plane;
	const struct auto_cache *c = &r->cache;

	r->mapping.page_reads = *p;
	r->mapping.page_sector = 1;
	if (!u->size_byte && p->size_byte) {
		*u = *p;
		u->confidence = c->measured && !c->dropped && !c->late ?
				ANALYZE_CONF_MEDIUM : ANALYZE_CONF_LOW;
	}
	memset(p, 0, sizeof(*p));
}

/*
 * Where no ratio shows the page (a fast card, whose access dwarfs a
 * page's program time: today's sweep card 7, 8 KiB pages at 45 MB/s, an
 * unaligned write of 8 KiB x1.21 an aligned one), its excess does: the
 * one size whose unaligned write costs about what as many bytes more
 * cost aligned (one page more programmed), the others' next to nothing.
 */
#define EXCESS_SHOWS 0.7	/* of what its size more costs, at least */
#define EXCESS_CLEAN 0.2	/* the others' at most */

static uint64_t page_by_excess(const struct auto_mapping *m)
{
	const struct auto_map_size *z = m->sizes;
	uint64_t page = 0;
	size_t i;

	for (i = 0; i + 1 < m->nsizes; i++) {
		double more = z[i + 1].aligned_ns - z[i].aligned_ns;
		double ex = z[i].unaligned_ns - z[i].aligned_ns;

		if (z[i + 1].size_byte != 2 * z[i].size_byte)
			return 0;
		if (more <= 0)
			continue;
		if (ex >= EXCESS_SHOWS * more) {
			if (page)
				return 0;
			page = z[i].size_byte;
		} else if (ex > EXCESS_CLEAN * more) {
			return 0;
		}
	}
	return page;
}

static void sector_page(struct auto_result *r)
{
	uint64_t w;
	struct auto_mapping t = r->mapping;

	if (r->sector_byte <= 512 || t.kind != AUTO_MAP_AUS ||
	    t.confidence < ANALYZE_CONF_MEDIUM || !t.measured ||
	    r->noise.level == AUTO_NOISE_HIGH ||
	    r->align.page.confidence >= ANALYZE_CONF_MEDIUM)
		return;
	unit_decide(&t);
	if (t.unit_byte && t.unit_confidence >= ANALYZE_CONF_MEDIUM &&
	    small_as_page(&t, t.unit_byte))
		page_is(r, t.unit_byte);
	else if (!t.unit_byte && (w = page_by_excess(&t)) &&
		 small_as_page(&t, w))
		page_is(r, w);
	else if (!t.unit_byte && t.unit_penalty <= UNIT_CLEAN &&
		 sector_alone(&t))
		page_in_sector(r);
}

/*
 * The page of a card that maps pages, on large sectors.  No write shows
 * it (such a card programs what it is written by its mapping unit), and
 * on sectors of 4 KiB no read is finer than two of them: pages of one
 * sector, read two or four at once across planes, show as one step at
 * the unit, as pages of that size do (sim.c's reads: a page of 4 KiB
 * costs nothing extra to reads of whole sectors).  The reads' step up
 * to HIDDEN_SECTORS sectors, named with less than medium confidence, is
 * either: no page, the reason said (mapping.page_hidden), the step kept
 * as the evidence.  eMMC's EXT_CSD states it (ACC_SIZE, the super-page;
 * OPTIMAL_WRITE_SIZE): --registers reads it.  A page of two sectors
 * with a unit over it shows two levels, and stays the reads'.
 */
#define HIDDEN_SECTORS 4

static void pages_sector_page(struct auto_result *r)
{
	struct analyze_step *p = &r->align.page;
	struct auto_mapping *m = &r->mapping;

	if (m->kind != AUTO_MAP_PAGES || r->sector_byte <= 512 ||
	    r->align.plane.size_byte ||
	    p->confidence >= ANALYZE_CONF_MEDIUM ||
	    p->size_byte > HIDDEN_SECTORS * r->sector_byte)
		return;
	m->page_reads = *p;
	m->page_hidden = 1;
	memset(p, 0, sizeof(*p));
}

void auto_mapping_decide(struct auto_result *r)
{
	mapping_clear(&r->mapping);
	kind_decide(r);
	pages_erase(r);
	sector_page(r);
	pages_sector_page(r);
	if (r->mapping.standin_byte)
		standin_caps(r);
}
