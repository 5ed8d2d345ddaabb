// SPDX-License-Identifier: GPL-2.0-only
/*
 * Align-table analysis: erase and page size, program unit and allocation
 * group from the diff column and the positions' reads.  No I/O: the text
 * tables are read and the verdicts printed in output/analyzetext.c.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "analyze.h"
#include "analyzeint.h"
#include "format.h"
#include "stats.h"

/* A row this many sigmas beyond every level is a spike, not a level. */
#define OUTLIER_SIGMA 5.0

/*
 * What is known of the levels (SD specification, part 2, AU sizes; the
 * flash parts cards are built from).  Pages are 2 to 64 KiB; a card may
 * read several pages at once across planes (a program unit of a few
 * pages); the erase block (AU) is 16 KiB to 64 MiB, and on cards over
 * 1 GiB in practice at least 512 KiB; allocation groups of many AUs lie
 * far above, from 256 MiB.
 * (PAGE_MAX_BYTE: analyzeint.h)
 */
#define PLANE_MAX_PAGES 4
#define ERASE_MAX_BYTE (64ULL << 20)
#define ERASE_PRACTICAL_BYTE (512ULL << 10)
#define BIG_CARD_BYTE (1ULL << 30)
#define GROUP_MIN_BYTE (128ULL << 20)

/* Fit the model with f's sizes: medians per group and the L1 cost. */
static void fit_model(struct actx *c, struct fit *f)
{
	size_t i, g, k;

	f->cost = 0;
	f->valid = 1;
	for (g = 0; g <= f->ns; g++) {
		for (i = 0, k = 0; i < c->n; i++)
			if (an_row_group(c, i, f) == (int)g)
				c->scratch[k++] = c->diff[i];
		f->cnt[g] = k;
		f->med[g] = 0;
		if (!k) {
			f->valid = 0;
			continue;
		}
		f->med[g] = stats_median_sort(c->scratch, k);
		for (i = 0; i < k; i++)
			f->cost += fabs(c->scratch[i] - f->med[g]);
		if (g && !(f->med[g] > f->med[g - 1]))
			f->valid = 0;
		/*
		 * A level between two others is shared by every multiple of
		 * its size below the next size; one row alone (often the row
		 * at half the erase size, which many cards show a little
		 * raised) is no level.  The page level may be one row: the
		 * table ends a page or two below the program unit.
		 */
		if (g && g < f->ns && k < 2 &&
		    !(g == 1 && f->size[0] <= PAGE_MAX_BYTE))
			f->valid = 0;
	}
}

/* Alignments worth trying as a size: 2^n and 3 * 2^n. */
static int is_candidate(uint64_t a)
{
	if (!a)
		return 0;
	if (a % 3 == 0)
		a /= 3;
	return (a & (a - 1)) == 0;
}

/* Distinct candidate alignments of the table, largest first. */
static size_t candidates(const struct actx *c, uint64_t *cand)
{
	size_t i, j, nc = 0;
	uint64_t a;

	for (i = 0; i < c->n; i++) {
		a = c->align[i];
		if (!is_candidate(a))
			continue;
		for (j = 0; j < nc && cand[j] != a; j++)
			;
		if (j == nc)
			cand[nc++] = a;
	}
	for (i = 1; i < nc; i++)
		for (j = i; j > 0 && cand[j - 1] < cand[j]; j--) {
			a = cand[j];
			cand[j] = cand[j - 1];
			cand[j - 1] = a;
		}
	return nc;
}

/*
 * Sizes of f with x added in order (out); 0 if x is there already or
 * does not nest (each size a multiple of the one below).
 */
static int with_size(const struct fit *f, uint64_t x, struct fit *out)
{
	size_t i, k = 0;

	memset(out, 0, sizeof(*out));
	for (i = 0; i <= f->ns; i++) {
		if (i < f->ns && f->size[i] == x)
			return 0;
		if ((i == f->ns || f->size[i] > x) && (!k || out->size[k - 1] < x))
			out->size[k++] = x;
		if (i < f->ns)
			out->size[k++] = f->size[i];
	}
	out->ns = k;
	for (i = 1; i < k; i++)
		if (out->size[i] % out->size[i - 1])
			return 0;
	return 1;
}

/* Do all steps of f pass at least low? */
static int all_steps_pass(struct actx *c, const struct fit *f)
{
	struct analyze_step s;
	size_t j;

	for (j = 0; j < f->ns; j++) {
		an_step_test(c, f, (int)j, &s);
		if (!s.confidence)
			return 0;
	}
	return 1;
}

/*
 * Add the step that fits best among those every step of the new model
 * passes; returns 1 if one was added to f.
 */
static int add_step(struct actx *c, const uint64_t *cand, size_t nc,
		    struct fit *f)
{
	struct fit *tried, best;
	size_t i, j, nt = 0;
	int found = 0;

	if (f->ns >= MAX_STEPS)
		return 0;
	tried = calloc(nc, sizeof(*tried));
	if (!tried)
		return 0;
	for (i = 0; i < nc; i++) {
		if (!with_size(f, cand[i], &tried[nt]))
			continue;
		fit_model(c, &tried[nt]);
		if (tried[nt].valid && (!f->ns || tried[nt].cost < f->cost))
			nt++;
	}
	/* best fit first (insertion sort: a few dozen models) */
	for (i = 1; i < nt; i++)
		for (j = i; j > 0 && tried[j].cost < tried[j - 1].cost; j--) {
			best = tried[j];
			tried[j] = tried[j - 1];
			tried[j - 1] = best;
		}
	for (i = 0; i < nt && !found; i++)
		if (all_steps_pass(c, &tried[i])) {
			*f = tried[i];
			found = 1;
		}
	free(tried);
	return found;
}

/* Do the sizes of f rise, each a multiple of the one below? */
static int nested(const struct fit *f)
{
	size_t k;

	for (k = 1; k < f->ns; k++)
		if (f->size[k] <= f->size[k - 1] || f->size[k] % f->size[k - 1])
			return 0;
	return 1;
}

/*
 * Move one step at a time to the size that fits better, while every step
 * still passes: a step added early (a split at 2 MiB that a row at half
 * the AU made look best) may sit where a later step shows it should not.
 */
static void refine(struct actx *c, const uint64_t *cand, size_t nc,
		   struct fit *f)
{
	struct fit g;
	size_t i, j, rounds;
	int moved = 1;

	for (rounds = 0; moved && rounds < 4 * MAX_STEPS; rounds++) {
		moved = 0;
		for (j = 0; j < f->ns; j++)
			for (i = 0; i < nc; i++) {
				g = *f;
				g.size[j] = cand[i];
				if (cand[i] == f->size[j] || !nested(&g))
					continue;
				fit_model(c, &g);
				if (g.valid && g.cost < f->cost &&
				    all_steps_pass(c, &g)) {
					*f = g;
					moved = 1;
				}
			}
	}
}

/*
 * Every step the table shows, from none up: greedy forward selection,
 * each model refined before the next step is added.
 */
static void fit_steps(struct actx *c, const uint64_t *cand, size_t nc,
		      struct fit *f)
{
	memset(f, 0, sizeof(*f));
	fit_model(c, f);
	while (add_step(c, cand, nc, f))
		refine(c, cand, nc, f);
}

/*
 * Set aside the rows model does not explain: rows above their own level
 * and nearer a higher one, and rows far above the highest level (a spike
 * on top of the erase level).  A read can be slowed by anything, but not
 * sped up beyond what the flash does: a row below its level is evidence
 * against the model, not a spike, and stays.  A row raised by only a few
 * of its reads, the rest at its level, read across a boundary larger than
 * the model's at those positions (an allocation group): set aside too,
 * but no sign against the model.  Returns how many.
 */
static size_t mark_outliers(struct actx *c, const struct fit *f)
{
	double top = f->med[f->ns], bottom = f->med[0], sigma, x, own;
	size_t i, k = 0, nout = 0, l;
	int g;

	for (i = 0; i < c->n; i++) {
		g = an_row_group(c, i, f);
		if (g >= 0)
			c->scratch[k++] = fabs(c->diff[i] - f->med[g]);
	}
	if (!k)
		return 0;
	sigma = fmax(MAD_TO_SIGMA * stats_median_sort(c->scratch, k),
		     0.005 * fmax(fabs(top), fabs(bottom)) + 1.0);
	for (i = 0; i < c->n; i++) {
		g = an_row_group(c, i, f);
		if (g < 0)
			continue;
		x = c->diff[i];
		own = fabs(x - f->med[g]);
		if (x <= f->med[g])
			continue;
		for (l = 0; l <= f->ns; l++)
			if (l != (size_t)g && fabs(x - f->med[l]) < own)
				break;
		if (l <= f->ns || x > top + OUTLIER_SIGMA * sigma) {
			double at = f->med[g] + ((size_t)g < f->ns ?
				    (f->med[g + 1] - f->med[g]) / 4 :
				    OUTLIER_SIGMA * sigma);

			c->skip[i] = an_few_reads_raised(c, i, at) ? SKIP_GROUP :
								  SKIP_ASTRAY;
			nout++;
		}
	}
	return nout;
}

/*
 * Is model f told apart from the model g (same steps, one size other) by
 * a row that is not set aside and sits within 3 sigma of its level?
 */
static int told_apart(const struct actx *c, const struct fit *f,
		      const struct fit *g, double sigma)
{
	size_t i;

	for (i = 0; i < c->n; i++) {
		int l = an_row_group(c, i, f);

		if (l >= 0 && l != an_level_of(c->align[i], g->size, g->ns) &&
		    fabs(c->diff[i] - f->med[l]) <= 3 * sigma)
			return 1;
	}
	return 0;
}

/*
 * The rows that tell a size from another may all be set aside or far off
 * their level (a spike on the row at half the erase size leaves nothing
 * between the two): then the size is a guess among several.
 */
static void cap_ambiguous(const struct actx *c, const struct fit *f,
			  const uint64_t *cand, size_t nc,
			  struct analyze_step *steps)
{
	struct fit g;
	size_t i, j;

	for (j = 0; j < f->ns; j++) {
		if (steps[j].confidence <= ANALYZE_CONF_LOW)
			continue;
		for (i = 0; i < nc; i++) {
			g = *f;
			g.size[j] = cand[i];
			if (cand[i] == f->size[j] || !nested(&g))
				continue;
			if (!told_apart(c, f, &g, steps[j].sigma_ns)) {
				steps[j].confidence = ANALYZE_CONF_LOW;
				break;
			}
		}
	}
}

static void cap(struct analyze_step *s, enum analyze_confidence max)
{
	if (s->confidence > max)
		s->confidence = max;
}

/*
 * An allocation group seen only in the ranks: the rows at multiples of a
 * size far above the erase size all read slower than every other row at
 * erase level (the Gentoo wiki's PQI card: 2 GiB and up against 4 MiB to
 * 1 GiB).  At least three rows, a step of 8%, and a separation that
 * chance gives less than one time in twenty over the sizes tried: low.
 * Rows set aside as spikes count too: on the group's side they are what
 * a group looks like, below it they spoil the separation.
 */
static void rank_group(struct actx *c, const struct fit *f, size_t je,
		       const uint64_t *cand, size_t nc,
		       struct analyze_step *grp)
{
	uint64_t erase = f->size[je];
	size_t i, k, nu, nd, ntry = 0;
	double lo_max, hi_min, p, comb, mu, md;

	for (k = 0; k < nc; k++) {
		uint64_t gsz = cand[k];
		double *up = c->scratch;

		if (gsz < GROUP_MIN_BYTE || gsz % erase)
			continue;
		ntry++;
		nu = nd = 0;
		lo_max = -INFINITY;
		hi_min = INFINITY;
		for (i = 0; i < c->n; i++) {
			if (c->align[i] % erase)
				continue;
			if (c->align[i] % gsz == 0) {
				up[nu++] = c->diff[i];
				hi_min = fmin(hi_min, c->diff[i]);
			} else {
				nd++;
				lo_max = fmax(lo_max, c->diff[i]);
			}
		}
		if (nu < 3 || nd < 3 || !(hi_min > lo_max))
			continue;
		for (comb = 1, i = 0; i < nu; i++)
			comb = comb * (double)(nd + nu - i) / (double)(i + 1);
		mu = stats_median_sort(up, nu);
		for (i = 0, nd = 0; i < c->n; i++)
			if (c->align[i] % erase == 0 && c->align[i] % gsz)
				up[nu + nd++] = c->diff[i];
		md = stats_median_sort(up + nu, nd);
		p = (double)ntry / comb;
		if (p < 0.05 && mu - md >= 0.08 * md) {
			memset(grp, 0, sizeof(*grp));
			grp->size_byte = grp->candidate_byte = gsz;
			grp->confidence = ANALYZE_CONF_LOW;
			grp->upper_ns = mu;
			grp->lower_ns = md;
			grp->ratio = md > 0 ? mu / md : 0;
			grp->n_upper = nu;
			grp->n_lower = nd;
			grp->spike_p = p;
			return;
		}
	}
}

/*
 * A gradual AU signature ramps up over several alignments below the AU;
 * the fit puts the step in the middle of the ramp.  The AU is the top:
 * while every row at the step's size (a multiple of it, not of twice it)
 * sits part way up, the ramp goes on and the AU is at least twice that.
 */
static uint64_t ramp_top(const struct actx *c, const struct fit *f,
			 size_t e, const struct analyze_step *s)
{
	uint64_t size = f->size[e], limit = e + 1 < f->ns ? f->size[e + 1] : 0;
	double full = s->upper_ns - BETWEEN_SIGMA * s->sigma_ns;
	size_t i;

	for (;;) {
		size_t edge = 0, between = 0, above = 0;

		for (i = 0; i < c->n; i++) {
			uint64_t a = c->align[i];

			if (c->skip[i] || a % size)
				continue;
			if (a % (2 * size) == 0) {
				above++;
				continue;
			}
			edge++;
			between += c->diff[i] < full;
		}
		if (!edge || between < edge || above < 2 ||
		    (limit && 2 * size >= limit))
			return size;
		size *= 2;
	}
}

/* The erase step among steps[first..ns): the largest in the AU range. */
static int pick_erase(const struct fit *f, const struct analyze_step *st,
		      size_t first)
{
	int best = -1;
	size_t j;

	for (j = first; j < f->ns; j++) {
		if (!st[j].size_byte || f->size[j] > ERASE_MAX_BYTE)
			continue;
		if (best < 0 || st[j].upper_ns - st[j].lower_ns >
				st[best].upper_ns - st[best].lower_ns)
			best = (int)j;
	}
	/*
	 * No AU-sized step: a step above is a larger unit than the SD
	 * specification's (USB sticks and eMMC have them), read as the AU
	 * on its own evidence.
	 */
	for (j = first; best < 0 && j < f->ns; j++)
		if (st[j].size_byte)
			best = (int)j;
	return best;
}

/*
 * Is step j (below or above the erase step e) a part of the same ramp:
 * within a factor of 4 of its neighbour and a third of e's step or more?
 * The row at half the AU a little raised (a quarter of the step, seed
 * 004) is common and no ramp.
 */
static int ramp_part(const struct fit *f, const struct analyze_step *st,
		     size_t j, size_t nb, int e)
{
	const struct analyze_step *s = &st[j];
	uint64_t lo = f->size[j < nb ? j : nb], hi = f->size[j < nb ? nb : j];

	return s->size_byte && f->size[j] <= ERASE_MAX_BYTE && hi <= 4 * lo &&
	       3 * (s->upper_ns - s->lower_ns) >=
	       st[e].upper_ns - st[e].lower_ns;
}

/*
 * A gradual AU signature (a boundary of half or a quarter of the AU costs
 * part of what one of the AU costs) may fit as steps at neighbouring
 * sizes in the AU range, each a good part of the whole: the AU is the top
 * of them, whichever carries the largest part.  Returns the top step and
 * sets *ramp when e had such a neighbour.
 */
static int ramp_of(const struct fit *f, const struct analyze_step *st,
		   size_t first, int e, int *ramp)
{
	size_t j = (size_t)e;

	*ramp = j > first && ramp_part(f, st, j - 1, j, e);
	while (j + 1 < f->ns && ramp_part(f, st, j + 1, j, e)) {
		j++;
		*ramp = 1;
	}
	return (int)j;
}

/*
 * Name the steps as an engineer does.  A step at 64 KiB or below is a
 * page, never an erase block; one at up to a few pages above the page is
 * the program unit of multi-plane access; the erase block is the largest
 * step in the AU range above those; a step far above it is an allocation
 * group.  Confidence follows the step's own evidence, capped where the
 * reading is a guess.
 */
static void classify(struct actx *c, const struct fit *f,
		     struct analyze_step *st, const uint64_t *cand, size_t nc,
		     struct align_verdict *v)
{
	size_t j = 0, k;
	int e, ramp;

	if (j < f->ns && st[j].size_byte && f->size[j] <= PAGE_MAX_BYTE) {
		v->page = st[j++];
		/*
		 * The step above is a program unit only if the page below
		 * it is one: it is named no surer than the page.
		 */
		if (j < f->ns && st[j].size_byte &&
		    f->size[j] <= PLANE_MAX_PAGES * f->size[j - 1]) {
			v->plane = st[j++];
			cap(&v->plane, v->page.confidence);
			/*
			 * Another step close above: the foot of a gradual
			 * AU step (a quarter of the AU a few pages up)
			 * reads the same way.
			 */
			if (j < f->ns && st[j].size_byte &&
			    f->size[j] <= 4 * f->size[j - 1])
				cap(&v->plane, ANALYZE_CONF_LOW);
		}
	}
	while (j < f->ns && f->size[j] <= PAGE_MAX_BYTE)
		j++;
	e = pick_erase(f, st, j);
	if (e < 0)
		return;
	e = ramp_of(f, st, j, e, &ramp);
	v->erase = st[e];
	v->erase.size_byte = v->erase.candidate_byte = ramp_top(c, f, (size_t)e,
								&st[e]);
	/* where a ramp ends is a guess from reads: writes tell */
	if (v->erase.size_byte != f->size[e] || ramp)
		cap(&v->erase, ANALYZE_CONF_LOW);
	if (f->size[e] < ERASE_PRACTICAL_BYTE && c->top >= BIG_CARD_BYTE)
		cap(&v->erase, ANALYZE_CONF_LOW);
	/* the row at half the AU a little raised is common; more a ramp */
	if (st[e].n_between)
		cap(&v->erase, st[e].n_between > 1 ? ANALYZE_CONF_LOW :
						     ANALYZE_CONF_MEDIUM);
	for (k = (size_t)e + 1; k < f->ns; k++)
		if (st[k].size_byte && f->size[k] >= GROUP_MIN_BYTE &&
		    f->size[k] > f->size[e]) {
			v->group = st[k];
			if (st[k].n_between)
				cap(&v->group, ANALYZE_CONF_LOW);
			break;
		}
	if (!v->group.size_byte)
		rank_group(c, f, (size_t)e, cand, nc, &v->group);
	/* the reads one by one say more than the rows: they decide */
	if (an_pos_group(c, f, (size_t)e, &v->group) < 0)
		cap(&v->group, ANALYZE_CONF_LOW);
}

/*
 * Decide the sizes; c is filled, v zeroed.  A first pass fits the level
 * model to every row; rows it cannot explain are set aside and a second
 * pass decides without them.
 */
static void decide(struct actx *c, const uint64_t *cand, size_t nc,
		   struct align_verdict *v)
{
	struct analyze_step st[MAX_STEPS];
	struct fit f;
	size_t j;

	fit_steps(c, cand, nc, &f);
	if (!f.ns)
		return;
	c->nskip = mark_outliers(c, &f);
	if (c->nskip) {
		fit_steps(c, cand, nc, &f);
		if (!f.ns)
			return;
	}
	for (j = 0; j < f.ns; j++)
		an_step_test(c, &f, (int)j, &st[j]);
	cap_ambiguous(c, &f, cand, nc, st);
	classify(c, &f, st, cand, nc, v);
}

int analyze_align(const struct align_row *rows, size_t n,
		  struct align_verdict *v)
{
	struct actx c = { .n = n, .rows = rows };
	uint64_t *align, *cand;
	double *diff, *scratch;
	unsigned char *skip;
	size_t i, nc;
	int ret = -ENOMEM;

	if (!v)
		return -EINVAL;
	memset(v, 0, sizeof(*v));
	if (!rows || !n)
		return -EINVAL;
	align = calloc(n, sizeof(*align));
	cand = calloc(n, sizeof(*cand));
	diff = calloc(n, sizeof(*diff));
	scratch = calloc(n, sizeof(*scratch));
	skip = calloc(n, sizeof(*skip));
	if (!align || !cand || !diff || !scratch || !skip)
		goto out_free;
	for (i = 0; i < n; i++) {
		align[i] = rows[i].align_byte;
		diff[i] = (double)rows[i].diff_ns;
		scratch[i] = ((double)rows[i].pre_ns +
			      (double)rows[i].post_ns) / 2;
		if (align[i] > c.top)
			c.top = align[i];
	}
	c.align = align;
	c.diff = diff;
	c.scratch = scratch;
	c.skip = skip;
	c.read_ns = fmax(stats_median_sort(scratch, n), 0);
	nc = candidates(&c, cand);
	c.ncand = nc;
	decide(&c, cand, nc, v);
	ret = 0;
out_free:
	free(skip);
	free(scratch);
	free(diff);
	free(cand);
	free(align);
	return ret;
}
