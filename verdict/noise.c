// SPDX-License-Identifier: GPL-2.0-only
/*
 * --auto's timing noise judged: how often the align reads were delayed,
 * and what that does to every confidence.  Pure.
 */
#include <stdlib.h>

#include "auto.h"
#include "writecache.h"

/*
 * Host noise.  The reads just before and just after a boundary (pre and
 * post) cross none, at any alignment: in a row, all seven positions read
 * alike, but for what the host or the card adds now and then (another
 * program's time slice, a pause).  Such a read is far above its row's
 * median: twice it, and NOISE_FLOOR more.
 */
#define NOISE_FLOOR 500000.0	/* ns: a delay, not a slower read */


static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* Count the delayed reads of rows[] (see auto.h). */
void auto_count_delays(const struct align_row *rows, size_t n,
		       unsigned int *cells, unsigned int *delayed,
		       double *max_ns)
{
	size_t i, p, k;

	for (i = 0; i < n; i++) {
		if (rows[i].npos != 7)
			continue;
		for (k = 0; k < 3; k += 2) {
			int64_t v[7], m;

			for (p = 0; p < 7; p++)
				v[p] = rows[i].pos_ns[p][k];
			qsort(v, 7, sizeof(v[0]), cmp_i64);
			m = v[3];
			for (p = 0; p < 7; p++) {
				double x = (double)(v[p] - m);

				*cells += 1;
				if (v[p] <= 2 * m || x <= NOISE_FLOOR)
					continue;
				*delayed += 1;
				if (x > *max_ns)
					*max_ns = x;
			}
		}
	}
}

/*
 * Is the noise high?  Delays that the least of two reads in a row does not
 * remove, at 1.5 % of positions or more: they come in runs (a loaded CPU,
 * a shared bus), as long as what the write steps look for.  A card's own
 * pauses come one at a time, even at one request in ten (0.8 % of
 * positions then), and the write steps tell them from a collapse.
 */
#define NOISE_RUNS_PERMILLE 15
#define NOISE_MIN_CELLS 100	/* fewer: too few to tell */
#define NOISE_MARGIN 4		/* a collapse this many delays over */
/*
 * A count held within this of the fastest probe: a card that collapses
 * gradually writes one AU over its count a fifth slower (x1.22 on a quiet
 * host), which a delayed reference hides unless held is measured against
 * the fastest probe.
 */
#define NOISE_HELD 1.15

int auto_noise_high(unsigned int cells, unsigned int delayed)
{
	return cells >= NOISE_MIN_CELLS &&
	       1000ULL * delayed >= (uint64_t)NOISE_RUNS_PERMILLE * cells;
}


/* The noise of the run, from every align table's reads. */
void auto_noise_sum(struct auto_result *r)
{
	struct auto_noise *n = &r->noise;
	size_t i;

	n->cells = n->delayed = n->once_cells = n->once_delayed = 0;
	n->delay_ns = 0;
	for (i = 0; i < r->ntables; i++) {
		const struct auto_table *t = &r->tables[i];

		n->cells += t->cells;
		n->delayed += t->least_delayed;
		n->once_cells += t->once_cells;
		n->once_delayed += t->once_delayed;
		if (t->delay_ns > n->delay_ns)
			n->delay_ns = t->delay_ns;
	}
}

void auto_noise_level(struct auto_noise *n)
{
	if (auto_noise_high(n->cells, n->delayed))
		n->level = AUTO_NOISE_HIGH;
	else if (n->delayed || n->once_delayed)
		n->level = AUTO_NOISE_SOME;
	else
		n->level = AUTO_NOISE_LOW;
}

static void cap(enum analyze_confidence *c, enum analyze_confidence max)
{
	if (*c > max)
		*c = max;
}

/* The ratio of o's probe of nr AUs; 0 when there is none. */
static double probe_ratio(const struct auto_open *o, unsigned int nr)
{
	size_t i;

	for (i = 0; i < o->nprobes; i++)
		if (o->probes[i].nr == nr)
			return o->probes[i].ratio;
	return 0;
}

/*
 * An open-AU count on a noisy host: a run of delayed writes looks like a
 * collapse, and a delayed reference hides a small one (a card that
 * collapses gradually), so the count stands (medium at most) only when it
 * held within NOISE_HELD of the fastest probe and the collapse one over it
 * cost far more per write than any delay seen; else it is low.
 */
static void noise_open(struct auto_open *o, double delay_ns)
{
	double held, coll, base = 1;
	size_t i;

	if (!o->measured || o->confidence <= ANALYZE_CONF_LOW)
		return;
	/* the reference itself may have been delayed: the fastest probe */
	for (i = 0; i < o->nprobes; i++)
		if (!o->probes[i].collapsed && o->probes[i].ratio < base)
			base = o->probes[i].ratio;
	held = o->nr <= 1 ? 1 : probe_ratio(o, o->nr);
	coll = o->from_linear ? 0 : probe_ratio(o, o->nr + 1);
	if (o->nr && held > 0 && held <= NOISE_HELD * base &&
	    (coll - held) * o->ref_ns > NOISE_MARGIN * delay_ns)
		cap(&o->confidence, ANALYZE_CONF_MEDIUM);
	else
		cap(&o->confidence, ANALYZE_CONF_LOW);
}

/*
 * Let every confidence take the noise into account.  On a noisy host the
 * write steps time single writes, which the noise delays in runs as long
 * as what they look for (a collapse, a faster area, a boundary): their
 * answers are low unless far clear of the delays seen.  The reads were
 * read again until sure (align_read); a value the reads still leave short
 * of high is low.  Write steps placed by an erase size read with low
 * confidence are low too: the AUs they wrote may not be AUs.
 */
void auto_noise_confidence(struct auto_result *r)
{
	const enum analyze_confidence any = ANALYZE_CONF_HIGH;
	enum analyze_confidence writes = r->erase_fallback ?
					 ANALYZE_CONF_LOW : any;

	if (r->noise.level == AUTO_NOISE_HIGH) {
		struct align_verdict *v = &r->align;

		noise_open(&r->open_linear, r->noise.delay_ns);
		noise_open(&r->open_random, r->noise.delay_ns);
		/* each delay lets a write cache fold and take the next
		 * writes, a collection's cost and all */
		if (cache_seen(&r->cache)) {
			cap(&r->open_linear.confidence, ANALYZE_CONF_LOW);
			cap(&r->open_random.confidence, ANALYZE_CONF_LOW);
		}
		cap(&r->fat.confidence, ANALYZE_CONF_LOW);
		if (r->erase_from == AUTO_ERASE_FROM_WRITES)
			cap(&v->erase.confidence, ANALYZE_CONF_LOW);
		if (v->erase.confidence < ANALYZE_CONF_HIGH)
			cap(&v->erase.confidence, ANALYZE_CONF_LOW);
		if (v->page.confidence < ANALYZE_CONF_HIGH)
			cap(&v->page.confidence, ANALYZE_CONF_LOW);
		if (v->plane.confidence < ANALYZE_CONF_HIGH)
			cap(&v->plane.confidence, ANALYZE_CONF_LOW);
		if (v->group.confidence < ANALYZE_CONF_HIGH)
			cap(&v->group.confidence, ANALYZE_CONF_LOW);
	}
	cap(&r->open_linear.confidence, writes);
	cap(&r->open_random.confidence, writes);
	cap(&r->fat.confidence, writes);
}

void auto_noise_mapping(struct auto_result *r)
{
	if (r->noise.level == AUTO_NOISE_HIGH && cache_seen(&r->cache))
		cap(&r->mapping.unit_confidence, ANALYZE_CONF_LOW);
}
