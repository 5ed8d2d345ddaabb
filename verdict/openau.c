// SPDX-License-Identifier: GPL-2.0-only
/*
 * --auto's open-AU searches judged.  Each probe of nr AUs, written in
 * turn, held (a write costs what it costs with one AU) or collapsed (a
 * garbage collection per turn); the search grows nr by half until a
 * probe collapses, then steps up one at a time from the last that held
 * (auto_open_next() is that walk, for the procedure in probes/opensearch.c
 * and for the decision alike).  Pure.
 */
#include <string.h>

#include "auto.h"

/*
 * A write slower than this did not hold: AUTO_HOLD times the reference,
 * but no more above it than AUTO_HOLD - 1 times a write in linear order
 * (lin_ref_ns; 0: unknown).  Out of order the reference may be dear (slow
 * programming, a copy of what was written per write); a log's second
 * programming, or a copy, costs as much in either order and must not hide
 * in it.
 */
double auto_hold_limit(double ref_ns, double lin_ref_ns)
{
	double base = lin_ref_ns > 0 && lin_ref_ns < ref_ns ?
		      lin_ref_ns : ref_ns;

	return ref_ns + (AUTO_HOLD - 1) * base;
}

/*
 * A card that keeps one AU more than it can through a log (collapse
 * gradual) writes the AU it would close twice.  One that closes the least
 * recently written AU closes each in turn: every write costs more.  One
 * that closes the AU it opened first closes the same one while no other
 * is opened: only its writes cost more, a small part of the mean, but in
 * every pass.  So a probe collapsed as a log when a few of its AUs (half
 * at most) were dear in each of AUTO_HELD_PASSES passes or more; and it
 * collapsed when its typical write was over the hold limit.
 */
void auto_probe_judge(struct auto_probe *p, double ref_ns, double lin_ref_ns)
{
	const double hold_ns = auto_hold_limit(ref_ns, lin_ref_ns);

	p->ratio = ref_ns > 0 ? p->mean_ns / ref_ns : 1.0;
	/* over the limit: a card that collapses gradually costs a little */
	p->collapsed = ref_ns > 0 && p->mean_ns > hold_ns;
	p->log_aus = p->nr > 1 && p->positions >= AUTO_HELD_PASSES &&
		     2 * p->dear_aus <= p->nr ? p->dear_aus : 0;
	if (p->log_aus)
		p->collapsed = 1;
}

/*
 * A count that held this much slower than the fastest probe that held is
 * in doubt: one AU over a card that collapses gradually costs a little (a
 * log's second programming of each write), x1.34 on a card that programs
 * at 45 MB/s, under the hold limit: the count may be one over.
 */
#define OPEN_HELD_FLAT 1.15

/* The fastest probe of o that held (the reference itself may be slow). */
static double held_base(const struct auto_open *o)
{
	double base = 1;
	size_t i;

	for (i = 0; i < o->nprobes; i++)
		if (!o->probes[i].collapsed && o->probes[i].ratio < base)
			base = o->probes[i].ratio;
	return base;
}

static enum analyze_confidence open_confidence(double held, double collapsed)
{
	if (held < AUTO_HOLD && collapsed > 2 * AUTO_COLLAPSE)
		return ANALYZE_CONF_HIGH;
	if (held < 2 && collapsed > AUTO_COLLAPSE)
		return ANALYZE_CONF_MEDIUM;
	return ANALYZE_CONF_LOW;
}

/*
 * The next nr to try: one more up to 5 (a collapse costs a garbage
 * collection per write, more with larger AUs, a probe that holds a few
 * small writes: 4 then 6 would collapse twice on a card of 4), then half
 * as many again, max last.
 */
static unsigned int next_nr(unsigned int nr, unsigned int max)
{
	unsigned int next = nr + (nr >= 5 ? nr / 2 : 1);

	return next > max && nr < max ? max : next;
}

/* The largest ratio of a collapsed probe of o (0: none collapsed). */
static double collapse_ratio(const struct auto_open *o)
{
	double m = 0;
	size_t i;

	for (i = 0; i < o->nprobes; i++)
		if (o->probes[i].collapsed && o->probes[i].ratio > m)
			m = o->probes[i].ratio;
	return m;
}

/*
 * An AU in random mode is an open AU with a finer map: a card keeps no
 * more AUs open in random order than in linear order.  When the linear
 * search found its number with a collapse one over it, the random search
 * stops there: the probe one over would collapse again, at a garbage
 * collection per write.  Returns that number, or 0 to search on.
 */
static unsigned int random_cap(const struct auto_open *lin)
{
	if (!lin || !lin->measured || lin->at_least || !lin->nr ||
	    lin->confidence < ANALYZE_CONF_MEDIUM)
		return 0;
	return lin->nr;
}

/*
 * The answer 0 (random order) wants a merge test when random order with
 * one AU costs more than AUTO_COLLAPSE writes in linear order, but not so
 * much that no card programs that slowly out of order (AUTO_GC_SURE: a
 * copy beyond doubt).
 */
static double random_slowdown(const struct auto_open *o,
			      const struct auto_open *lin)
{
	return lin && lin->ref_ns > 0 ? o->ref_ns / lin->ref_ns : 0;
}

int auto_open_merge_wanted(const struct auto_open *o,
			   const struct auto_open *lin)
{
	double r = random_slowdown(o, lin);

	return r > AUTO_COLLAPSE && r < AUTO_GC_SURE;
}

/*
 * The answer is 0 when random order with one AU costs more than
 * AUTO_COLLAPSE writes in linear order and, on an AU written whole, each
 * write out of order costs AUTO_MERGE_PART of writing it whole at least
 * (or no merge test was wanted: a copy beyond doubt): a copy of the AU
 * per write, whatever else the card does.  Else the search goes on
 * against its own, slower, reference.
 */
int auto_open_none(const struct auto_open *o, const struct auto_open *lin)
{
	if (random_slowdown(o, lin) <= AUTO_COLLAPSE)
		return 0;
	return !(o->merge_ns < AUTO_MERGE_PART * o->whole_ns);
}

/* Where the walk over a search's probes stands. */
struct open_walk {
	unsigned int need;		/* the next probe's nr; 0: over */
	unsigned int held;		/* the largest nr that held */
	unsigned int coll;		/* the least that collapsed (0: none) */
	unsigned int from_linear;	/* coll taken from the linear search */
	double held_ratio, coll_ratio;
};

/*
 * The search's walk over the probes o has: growing by half until one
 * collapses, then up one at a time from the last that held (a probe that
 * holds costs a few small writes, one that collapses a garbage collection
 * per write: so only two collapse, neither by much).  In random order it
 * stops at what the linear search found (random_cap()).  One AU over
 * costing only a little (a card that keeps one more in a log): two over
 * must collapse for the answer to be sure, so the ratio of coll + 1 too.
 */
static void open_walk(const struct auto_open *o, const struct auto_open *lin,
		      struct open_walk *w)
{
	unsigned int max = o->max_nr, limit = random_cap(lin), nr;
	const struct auto_probe *p;
	size_t i = 1, k;

	memset(w, 0, sizeof(*w));
	w->held = 1;
	w->held_ratio = 1;
	if (!o->nprobes) {
		w->need = 1;
		return;
	}
	if (limit && limit < max)
		max = limit;
	else
		limit = 0;
	for (nr = 2; nr <= max; nr = next_nr(nr, max)) {
		if (i >= o->nprobes) {
			w->need = nr;
			return;
		}
		p = &o->probes[i++];
		if (p->collapsed) {
			w->coll = nr;
			w->coll_ratio = p->ratio;
			break;
		}
		w->held = nr;
		w->held_ratio = p->ratio;
	}
	while (w->coll && w->coll - w->held > 1 && i < AUTO_MAX_PROBES) {
		if (i >= o->nprobes) {
			w->need = w->held + 1;
			return;
		}
		p = &o->probes[i++];
		if (p->collapsed) {
			w->coll = p->nr;
			w->coll_ratio = p->ratio;
		} else {
			w->held = p->nr;
			w->held_ratio = p->ratio;
		}
	}
	if (limit && !w->coll) {
		w->coll = limit + 1;
		w->coll_ratio = collapse_ratio(lin);
		w->from_linear = w->coll;
	}
	if (!w->coll || w->coll_ratio > AUTO_COLLAPSE || w->coll >= o->max_nr ||
	    w->from_linear || i >= AUTO_MAX_PROBES)
		return;
	/* the probe one over: made already when the search passed it */
	for (k = 0; k < i; k++)
		if (o->probes[k].nr == w->coll + 1) {
			w->coll_ratio = o->probes[k].ratio;
			return;
		}
	if (i >= o->nprobes)
		w->need = w->coll + 1;
	else if (o->probes[i].ratio > w->coll_ratio)
		w->coll_ratio = o->probes[i].ratio;
}

unsigned int auto_open_next(const struct auto_open *o,
			    const struct auto_open *lin)
{
	struct open_walk w;

	open_walk(o, lin, &w);
	return w.need;
}

/*
 * The search o (random order when lin, the linear search, is given):
 * every probe judged against the reference (the first probe, of one AU,
 * against the linear search's), then the answer.
 */
void auto_open_decide(struct auto_open *o, const struct auto_open *lin)
{
	const double lin_ref_ns = lin ? lin->ref_ns : 0;
	struct open_walk w;
	size_t i;

	o->nr = 0;
	o->at_least = 0;
	o->from_linear = 0;
	o->confidence = ANALYZE_CONF_NONE;
	o->ref_ns = o->nprobes ? o->probes[0].mean_ns : 0;
	if (!o->measured || !o->nprobes)
		return;
	for (i = 0; i < o->nprobes; i++)
		auto_probe_judge(&o->probes[i], i ? o->ref_ns : lin_ref_ns,
				 lin_ref_ns);
	if (lin && auto_open_none(o, lin)) {
		o->nr = 0;
		o->at_least = 0;
		o->confidence = ANALYZE_CONF_HIGH;
		return;
	}
	open_walk(o, lin, &w);
	o->nr = w.held;
	o->at_least = !w.coll;
	o->from_linear = w.from_linear;
	o->confidence = w.coll ? open_confidence(w.held_ratio, w.coll_ratio) :
				 ANALYZE_CONF_LOW;
	if (w.coll && w.held > 1 &&
	    w.held_ratio > OPEN_HELD_FLAT * held_base(o))
		o->confidence = ANALYZE_CONF_LOW;
}
