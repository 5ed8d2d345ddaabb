// SPDX-License-Identifier: GPL-2.0-only
/*
 * What kind of card it is: how it maps what is written (issue 26).  A
 * block-mapped card (the card of 2011) keeps a few AUs open and pays a
 * garbage collection for one more: the open-AU search collapses.  A
 * page-mapped (hybrid) card, as A1/A2 cards and eMMC, maps small units
 * anywhere: no number of AUs written in turn collapses, and a write out
 * of order costs what one in order does.  Decided from the open-AU
 * searches' raw fields alone; on a page-mapped card the answers that
 * assume AUs (how many are open, a FAT area) are capped to low.
 */
#include "auto.h"

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

	return l->measured && l->nprobes && l->at_least &&
	       (!n->measured || !n->nprobes || n->at_least);
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
	if (!m->unit_byte)
		cap(&m->confidence, ANALYZE_CONF_LOW);
}

void auto_mapping_decide(struct auto_result *r)
{
	mapping_clear(&r->mapping);
	kind_decide(r);
	if (r->mapping.standin_byte)
		standin_caps(r);
}
