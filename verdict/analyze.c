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
#include "format.h"

/* Most steps one table is read for: page, program unit, erase, group. */
#define MAX_STEPS 5

/* 1.4826 * MAD estimates a normal standard deviation. */
#define MAD_TO_SIGMA 1.4826
/* A row this many sigmas beyond every level is a spike, not a level. */
#define OUTLIER_SIGMA 5.0
/* A row this many sigmas below its level contradicts the model. */
#define DROP_SIGMA 4.0
#define DROP_READ 0.01	/* of a read: never far below, whatever the noise */
/*
 * A row this many sigmas off its level towards the other, and this part
 * of the step at least: a ramp (its rows sit a third or half way; a row a
 * few percent of the step up is a read's own variation on a quiet card).
 */
#define BETWEEN_SIGMA 3.0
#define BETWEEN_STEP 0.1
/* The standard error of a median is sqrt(pi / 2) times that of a mean. */
#define MEDIAN_SE 1.2533

/*
 * What is known of the levels (SD specification, part 2, AU sizes; the
 * flash parts cards are built from).  Pages are 2 to 64 KiB; a card may
 * read several pages at once across planes (a program unit of a few
 * pages); the erase block (AU) is 16 KiB to 64 MiB, and on cards over
 * 1 GiB in practice at least 512 KiB; allocation groups of many AUs lie
 * far above, from 256 MiB.
 */
#define PAGE_MAX_BYTE (64ULL << 10)
#define PLANE_MAX_PAGES 4
#define ERASE_MAX_BYTE (64ULL << 20)
#define ERASE_PRACTICAL_BYTE (512ULL << 10)
#define BIG_CARD_BYTE (1ULL << 30)
#define GROUP_MIN_BYTE (128ULL << 20)

/*
 * What a step must show for each confidence.  A step is judged on three
 * independent things: the robust t (is it noise?), the ratio of the two
 * levels (is the upper level clearly higher, not a 10% wobble on precise
 * numbers?) and the step as a share of one read (is it a physical effect
 * of crossing a boundary, not a few ns on a fast loop device?).  The t
 * bar for "low" is well above 2 because the best of many candidate
 * splits is tested, and the best of many noise splits looks better than
 * one.
 */
static const struct {
	double t;		/* robust t */
	double ratio;		/* upper level / lower level */
	double rel;		/* step / read time */
	double misfit;		/* share of rows nearer the other level */
	double spikes;		/* chance that spikes made the step */
} need[] = {
	[ANALYZE_CONF_LOW] = { 5.0, 1.25, 0.01, 0.20, 0.1 },
	[ANALYZE_CONF_MEDIUM] = { 8.0, 1.4, 0.04, 0.15, 0.01 },
	[ANALYZE_CONF_HIGH] = { 15.0, 1.45, 0.05, 0.06, 0.001 },
};

/* The table under analysis and scratch space for the fits. */
struct actx {
	size_t n;
	size_t ncand;		/* candidate sizes tried */
	const uint64_t *align;	/* bytes */
	const double *diff;	/* ns */
	const struct align_row *rows;	/* as given: their positions */
	uint64_t top;		/* largest alignment, bytes */
	double read_ns;		/* median read time; 0 if unknown */
	double *scratch;	/* n values */
	unsigned char *skip;	/* rows set aside as outliers: SKIP_* */
	size_t nskip;
};

/*
 * One fitted level model: steps at sizes size[0] < size[1] < ..., each a
 * multiple of the one before.  Group g holds the rows whose alignment is
 * a multiple of size[g - 1] but not of size[g] (group 0: of none).
 */
struct fit {
	uint64_t size[MAX_STEPS];	/* bytes */
	size_t ns;			/* steps */
	double med[MAX_STEPS + 1];	/* ns, median of each group */
	size_t cnt[MAX_STEPS + 1];
	double cost;			/* ns, sum of absolute residuals */
	int valid;			/* groups non-empty, levels rising */
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median of v[0..n) (n > 0); reorders v. */
static double median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	if (n % 2)
		return v[n / 2];
	return (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int level_of(uint64_t align, const uint64_t *size, size_t ns)
{
	size_t j;

	for (j = ns; j > 0; j--)
		if (align % size[j - 1] == 0)
			return (int)j;
	return 0;
}

/* Why a row is set aside (0: it is not). */
#define SKIP_ASTRAY 1	/* the model does not explain it */
#define SKIP_GROUP 2	/* a few of its reads crossed a larger boundary */

/* Group of row i under the model's sizes; -1 if set aside. */
static int row_group(const struct actx *c, size_t i, const struct fit *f)
{
	if (c->skip[i])
		return -1;
	return level_of(c->align[i], f->size, f->ns);
}

/* Fit the model with f's sizes: medians per group and the L1 cost. */
static void fit_model(struct actx *c, struct fit *f)
{
	size_t i, g, k;

	f->cost = 0;
	f->valid = 1;
	for (g = 0; g <= f->ns; g++) {
		for (i = 0, k = 0; i < c->n; i++)
			if (row_group(c, i, f) == (int)g)
				c->scratch[k++] = c->diff[i];
		f->cnt[g] = k;
		f->med[g] = 0;
		if (!k) {
			f->valid = 0;
			continue;
		}
		f->med[g] = median(c->scratch, k);
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

/* Robust sigma of the rows of group g of fit f around its median. */
static double group_sigma(struct actx *c, const struct fit *f, int g)
{
	size_t i, k = 0;

	for (i = 0; i < c->n; i++)
		if (row_group(c, i, f) == g)
			c->scratch[k++] = fabs(c->diff[i] - f->med[g]);
	return k ? MAD_TO_SIGMA * median(c->scratch, k) : 0;
}

/*
 * One row alone on a side of a step can be an outlier, so such a step is
 * a guess, unless the lone row is one a spike cannot make: the last row
 * of the table far below every other (reads are slowed by accidents, not
 * sped up), or a page level clearly between the levels around it.
 */
static int lone_row_believed(const struct analyze_step *s, int j)
{
	if (j > 1 || s->ratio < 3 || s->t < need[ANALYZE_CONF_HIGH].t)
		return 0;
	if (j == 1)	/* the step above a lone page level */
		return s->lone_page;
	/* the last row far below the rest, or a page row over two or more */
	if (s->n_lower == 1)
		return s->n_upper >= 2;
	return s->n_lower >= 2 && s->candidate_byte <= PAGE_MAX_BYTE;
}

/*
 * The ratio a step needs for confidence l.  The ratio guards against a
 * wobble of a few percent on precise numbers; a step over a level that
 * stands clear between the levels around it, no row astray and far
 * above the noise, is no wobble even where the levels below are raised
 * (read-ahead raises every diff: a program unit of 4 over 3 then):
 * medium from 1.2.
 */
static double ratio_bar(const struct analyze_step *s, int l)
{
	if (l <= ANALYZE_CONF_MEDIUM && s->clean_below && !s->n_misfit &&
	    !s->n_skipped && s->t >= need[ANALYZE_CONF_HIGH].t)
		return fmin(need[l].ratio, 1.2);
	return need[l].ratio;
}

static enum analyze_confidence judge(const struct analyze_step *s, int j)
{
	size_t nmin = s->n_upper < s->n_lower ? s->n_upper : s->n_lower;
	double misfit = (double)s->n_misfit /
			(double)(s->n_upper + s->n_lower + s->n_skipped);
	enum analyze_confidence conf = ANALYZE_CONF_NONE;
	int l;

	if (!(s->upper_ns > s->lower_ns))
		return ANALYZE_CONF_NONE;
	/*
	 * One row alone has no noise of its own to judge by: a big step,
	 * unless it is the step above a page level that stands clear of
	 * the rows on both sides (the program unit over a lone page row).
	 */
	if (nmin < 2 && s->ratio < 3 && !s->lone_page)
		return ANALYZE_CONF_NONE;
	for (l = ANALYZE_CONF_LOW; l <= ANALYZE_CONF_HIGH; l++) {
		if (s->t < need[l].t || s->ratio < ratio_bar(s, l) ||
		    misfit > need[l].misfit || s->spike_p > need[l].spikes)
			break;
		if (s->rel > 0 && s->rel < need[l].rel)
			break;
		conf = l;
	}
	/* a row that contradicts the model: a guess at best */
	if (s->n_drop && conf > ANALYZE_CONF_LOW)
		conf = ANALYZE_CONF_LOW;
	if (nmin < 2 && conf > ANALYZE_CONF_MEDIUM)
		conf = ANALYZE_CONF_MEDIUM;
	if (nmin < 2 && conf > ANALYZE_CONF_LOW && !lone_row_believed(s, j))
		conf = ANALYZE_CONF_LOW;
	return conf;
}

/*
 * Is the upper group of step j a level between two others, every row of
 * it above every row below and below every row of the level above?  A
 * spike does not stop between two levels; a page level does.
 */
static int level_between(const struct actx *c, const struct fit *f, int j)
{
	double lo = -INFINITY, hi = INFINITY, xmin = INFINITY;
	double xmax = -INFINITY;
	size_t i;

	if ((size_t)j + 1 >= f->ns)
		return 0;
	for (i = 0; i < c->n; i++) {
		int g = row_group(c, i, f);

		if (g == j)
			lo = fmax(lo, c->diff[i]);
		else if (g == j + 1) {
			xmin = fmin(xmin, c->diff[i]);
			xmax = fmax(xmax, c->diff[i]);
		} else if (g == j + 2) {
			hi = fmin(hi, c->diff[i]);
		}
	}
	return xmin > lo && xmax < hi;
}

/*
 * Is row i raised only by some of its reads, most of them at or below
 * max?  A ramp raises a row at every position; a boundary far larger than
 * the step's (an allocation group's) lies under only some of the
 * positions the row reads across (a 512 MiB row read 1.5 GiB apart
 * crosses a 2 GiB group twice in seven), and is no sign against the step.
 */
static int few_reads_raised(const struct actx *c, size_t i, double max)
{
	const struct align_row *r = c->rows ? &c->rows[i] : NULL;
	double d[7];
	unsigned int k;

	if (!r || r->npos < 5 || r->npos > 7)
		return 0;	/* no positions: text tables */
	for (k = 0; k < r->npos; k++)
		d[k] = (double)r->pos_diff_ns[k];
	return median(d, r->npos) <= max;
}

/*
 * Test step j of fit f (between groups j + 1 and j): a robust Welch t
 * (difference of medians over the standard error from each group's own
 * MAD: reads crossing an erase boundary are noisier than the rest), the
 * level ratio, the step next to a read, and how likely spikes made it.
 */
static void step_test(struct actx *c, const struct fit *f, int j,
		      struct analyze_step *s)
{
	int up = j + 1, down = j, g;
	double mu = f->med[up], md = f->med[down], d, su, sd, pooled;
	double floor_ns, spike, drop_u, drop_d, between_u, between_d;
	size_t i, k = 0, nu = f->cnt[up], nd = f->cnt[down], nu_off = 0;

	memset(s, 0, sizeof(*s));
	s->candidate_byte = f->size[j];
	for (i = 0; i < c->n; i++) {
		g = level_of(c->align[i], f->size, f->ns);
		/* a row set aside counts against the step it belongs to */
		if (c->skip[i] == SKIP_ASTRAY && (g == up || g == down)) {
			s->n_misfit++;
			s->n_skipped++;
		}
		g = row_group(c, i, f);
		if (g != up && g != down)
			continue;
		c->scratch[k++] = fabs(c->diff[i] - f->med[g]);
		if (g == up && fabs(c->diff[i] - md) < fabs(c->diff[i] - mu)) {
			s->n_misfit++;
			nu_off++;
		}
		if (g == down && fabs(c->diff[i] - mu) < fabs(c->diff[i] - md) &&
		    !few_reads_raised(c, i, md + (mu - md) / 4))
			s->n_misfit++;
	}
	pooled = MAD_TO_SIGMA * median(c->scratch, k);
	/*
	 * A MAD of one or two rows says nothing: use the other group's,
	 * or both groups'.  Noise grows with the level (a read across an
	 * erase boundary varies more than one inside a page), so a small
	 * lower group gets the upper group's noise scaled to its level.
	 */
	su = nu >= 3 ? group_sigma(c, f, up) : pooled;
	sd = nd >= 3 ? group_sigma(c, f, down) : pooled;
	if (nd < 3 && nu >= 3 && md > 0 && mu > md)
		sd = fmin(pooled, su * md / mu);
	/* printed values carry 3 significant digits: noise is never 0 */
	floor_ns = 0.005 * fmax(fabs(mu), fabs(md)) + 1.0;
	su = fmax(su, floor_ns);
	sd = fmax(sd, floor_ns);
	d = mu - md;
	s->upper_ns = mu;
	s->lower_ns = md;
	s->sigma_ns = fmax(su, sd);
	s->n_upper = nu;
	s->n_lower = nd;
	/*
	 * A diff is three reads, each of which varies by about a percent
	 * on its own: a few rows that happen to agree closely must not make
	 * that variation look like a row astray.
	 */
	drop_u = fmax(DROP_SIGMA * su, DROP_READ * c->read_ns);
	drop_d = fmax(DROP_SIGMA * sd, DROP_READ * c->read_ns);
	between_u = fmax(BETWEEN_SIGMA * su, BETWEEN_STEP * d);
	between_d = fmax(BETWEEN_SIGMA * sd, BETWEEN_STEP * d);
	for (i = 0; i < c->n; i++) {
		double x = c->diff[i];

		g = row_group(c, i, f);
		/* rows far below their level: a read is never that fast */
		if ((g == up && x < mu - drop_u) ||
		    (g == down && x < md - drop_d))
			s->n_drop++;
		/* rows part way up: the step is a ramp, not one size */
		if ((g == up && x < mu - between_u && x > (mu + md) / 2) ||
		    (g == down && x > md + between_d && x < (mu + md) / 2 &&
		     !few_reads_raised(c, i, md + between_d)))
			s->n_between++;
	}
	s->t = d / (MEDIAN_SE * sqrt(su * su / (double)nu +
				     sd * sd / (double)nd));
	/*
	 * Over a lower level near zero (or below), the ratio is taken to
	 * twice the noise (of the lower level, if it is above zero) instead: a flat table's best split has an upper
	 * level of a sigma or two and must not pass as a step.
	 */
	s->ratio = mu > 0 ? mu / fmax(md, fmax(2 * (md > 0 ? sd : pooled),
					       floor_ns)) : 0;
	s->rel = c->read_ns > 0 ? d / c->read_ns : 0;
	/*
	 * Real tables have single rows far off their level (seed 003 has
	 * two rows at erase level deep down among the small ones).  With
	 * such spikes at the rate this table shows (rule of succession over
	 * the rows nearer the other level), how likely is it that all the
	 * upper rows at the upper level spiked, at any candidate split?
	 */
	spike = (double)(s->n_misfit + 1) /
		(double)(nu + nd + s->n_skipped + 2);
	s->spike_p = fmin(1, (double)c->ncand *
			     pow(spike, (double)(nu - nu_off)));
	if (level_between(c, f, j))
		s->spike_p = 0;
	s->clean_below = j >= 1 && level_between(c, f, j - 1);
	s->lone_page = j == 1 && nd == 1 && f->size[0] <= PAGE_MAX_BYTE &&
		       level_between(c, f, 0);
	s->confidence = judge(s, j);
	if (s->confidence != ANALYZE_CONF_NONE)
		s->size_byte = s->candidate_byte;
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
		step_test(c, f, (int)j, &s);
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
		g = row_group(c, i, f);
		if (g >= 0)
			c->scratch[k++] = fabs(c->diff[i] - f->med[g]);
	}
	if (!k)
		return 0;
	sigma = fmax(MAD_TO_SIGMA * median(c->scratch, k),
		     0.005 * fmax(fabs(top), fabs(bottom)) + 1.0);
	for (i = 0; i < c->n; i++) {
		g = row_group(c, i, f);
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

			c->skip[i] = few_reads_raised(c, i, at) ? SKIP_GROUP :
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
		int l = row_group(c, i, f);

		if (l >= 0 && l != level_of(c->align[i], g->size, g->ns) &&
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
		mu = median(up, nu);
		for (i = 0, nd = 0; i < c->n; i++)
			if (c->align[i] % erase == 0 && c->align[i] % gsz)
				up[nu + nd++] = c->diff[i];
		md = median(up + nu, nd);
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
 * The allocation group from the positions.  A row of an align table is
 * the mean of reads across the boundaries i * spacing + align, i = 0..6
 * (the spacing is the largest alignment), and a group far above the AU
 * is a boundary of only some of them: the rows mix group and AU level
 * (the PQI card's 2 GiB group against a spacing of 1.5 or 3 GiB).  Each
 * position of each row at erase level is one read across a known
 * boundary: split them by whether that boundary is a multiple of the
 * group size, for every size from 128 MiB up, and keep the size whose
 * split leaves no read on the wrong side of the midpoint.
 */
struct pos_split {
	size_t nu, nd;		/* reads across a group boundary, others */
	size_t up_low;		/* of the first, below the midpoint */
	size_t down_high;	/* of the others, above it */
	double mu, md, sigma;	/* medians, robust noise of the others */
};

/*
 * Every read: its boundary in b, in d its diff above the level the model
 * f gives its row (a group boundary costs the same on top of any level);
 * how many.
 */
static size_t pos_samples(const struct actx *c, const struct fit *f,
			  uint64_t *b, double *d)
{
	size_t i, k, n = 0;

	for (i = 0; i < c->n; i++) {
		const struct align_row *r = &c->rows[i];
		double level;

		if (r->npos != 7)
			return 0;	/* not every row has its positions */
		level = f->med[level_of(r->align_byte, f->size, f->ns)];
		for (k = 0; k < r->npos; k++) {
			b[n] = k * c->top + r->align_byte;
			d[n++] = (double)r->pos_diff_ns[k] - level;
		}
	}
	return n;
}

static void pos_split(const uint64_t *b, const double *d, size_t n,
		      uint64_t g, double level, double *tmp,
		      struct pos_split *ps)
{
	size_t i, k = 0;
	double mid;

	memset(ps, 0, sizeof(*ps));
	for (i = 0; i < n; i++)
		if (b[i] % g == 0)
			tmp[k++] = d[i];
	ps->nu = k;
	ps->nd = n - k;
	if (ps->nu < 3 || ps->nd < 3)
		return;
	ps->mu = median(tmp, k);
	for (i = 0, k = 0; i < n; i++)
		if (b[i] % g)
			tmp[k++] = d[i];
	ps->md = median(tmp, k);
	for (i = 0; i < k; i++)
		tmp[i] = fabs(tmp[i] - ps->md);
	ps->sigma = fmax(MAD_TO_SIGMA * median(tmp, k), 0.005 * level + 1);
	mid = (ps->mu + ps->md) / 2;
	for (i = 0; i < n; i++) {
		if (b[i] % g == 0)
			ps->up_low += d[i] < mid;
		else
			ps->down_high += d[i] > mid;
	}
}

/*
 * A split that shows a group: a clear step (8 % of the erase level or
 * more), few reads astray.
 */
static int pos_split_shows(const struct pos_split *ps, double level)
{
	return ps->nu >= 3 && ps->mu - ps->md >= 0.08 * level &&
	       ps->mu - ps->md >= 8 * ps->sigma && !ps->up_low &&
	       ps->down_high <= 1 + ps->nd / 50;
}

/*
 * Find the group from the positions (0: none seen, grp untouched; -1:
 * the positions show no group; 1: grp filled).  High when no read is
 * astray and no other size splits the reads the same way; medium with
 * one read astray (a spike); low when another size cannot be told apart.
 */
/* The group the reads d across boundaries b show; see pos_group(). */
struct group_reads {
	const uint64_t *b;
	const double *d;	/* above the level of their kind of row */
	size_t n;
	uint64_t erase;
	uint64_t top;		/* the largest boundary */
	double level;		/* the erase level */
	double read_ns;		/* a read; 0 unknown */
};

static int group_from_reads(const struct group_reads *gr, double *tmp,
			    struct analyze_step *grp)
{
	uint64_t cand[2 * 64];
	size_t k, nc = 0, best, same = 0;
	struct pos_split ps, bs = { 0 };

	/* every size 2^n and 3 * 2^n some boundary read is a multiple of */
	for (k = 27; k < 62 && (1ULL << k) <= gr->top; k++) {
		cand[nc++] = 1ULL << k;
		if (3ULL << k <= gr->top)
			cand[nc++] = 3ULL << k;
	}
	best = nc;
	for (k = 0; k < nc; k++) {
		if (cand[k] <= gr->erase)
			continue;
		pos_split(gr->b, gr->d, gr->n, cand[k], gr->level, tmp, &ps);
		if (!pos_split_shows(&ps, gr->level))
			continue;
		if (best < nc && ps.nu == bs.nu &&
		    ps.down_high == bs.down_high) {
			same++;
			continue;
		}
		if (best == nc || ps.down_high < bs.down_high) {
			best = k;
			bs = ps;
			same = 0;
		}
	}
	if (best == nc)
		return -1;
	memset(grp, 0, sizeof(*grp));
	grp->size_byte = grp->candidate_byte = cand[best];
	grp->confidence = same ? ANALYZE_CONF_LOW : bs.down_high ?
			  ANALYZE_CONF_MEDIUM : ANALYZE_CONF_HIGH;
	grp->upper_ns = gr->level + bs.mu;
	grp->lower_ns = gr->level + bs.md;
	grp->sigma_ns = bs.sigma;
	grp->ratio = grp->lower_ns > 0 ? grp->upper_ns / grp->lower_ns : 0;
	grp->t = (bs.mu - bs.md) / bs.sigma;
	grp->rel = gr->read_ns > 0 ? (bs.mu - bs.md) / gr->read_ns : 0;
	grp->n_upper = bs.nu;
	grp->n_lower = bs.nd;
	grp->n_misfit = bs.down_high;
	return 1;
}

static int pos_group(const struct actx *c, const struct fit *f, size_t e,
		     struct analyze_step *grp)
{
	struct group_reads gr = {
		.erase = f->size[e], .level = f->med[e + 1],
		.top = 7 * c->top, .read_ns = c->read_ns,
	};
	uint64_t *b = calloc(7 * c->n, sizeof(*b));
	double *d = calloc(7 * c->n, sizeof(*d));
	double *tmp = calloc(7 * c->n, sizeof(*tmp));
	int ret = 0;

	if (!b || !d || !tmp)
		goto out;
	gr.b = b;
	gr.d = d;
	gr.n = pos_samples(c, f, b, d);
	if (gr.n)
		ret = group_from_reads(&gr, tmp, grp);
out:
	free(tmp);
	free(d);
	free(b);
	return ret;
}

/* Median of the diffs d[i] whose boundary b[i] is (on 1) an AU's or not. */
static double class_median(const uint64_t *b, const double *d, size_t n,
			   uint64_t erase, int on, double *tmp)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if ((b[i] % erase == 0) == on)
			tmp[k++] = d[i];
	return k ? median(tmp, k) : 0;
}

int analyze_group_rows(const struct align_row *rows, size_t n,
		       uint64_t spacing, uint64_t erase,
		       struct analyze_step *grp)
{
	struct group_reads gr = { .erase = erase, .top = 7 * spacing };
	uint64_t *b = calloc(7 * n + 1, sizeof(*b));
	double *d = calloc(7 * n + 1, sizeof(*d));
	double *tmp = calloc(7 * n + 1, sizeof(*tmp));
	double on_au, off_au;
	size_t i, k, m = 0;
	int ret = -ENOMEM;

	if (!b || !d || !tmp)
		goto out;
	for (i = 0; i < n; i++)
		for (k = 0; k < rows[i].npos && k < 7; k++) {
			b[m] = k * spacing + rows[i].align_byte;
			d[m++] = (double)rows[i].pos_diff_ns[k];
		}
	on_au = class_median(b, d, m, erase, 1, tmp);
	off_au = class_median(b, d, m, erase, 0, tmp);
	for (i = 0; i < m; i++)
		d[i] -= (b[i] % erase) ? off_au : on_au;
	gr.b = b;
	gr.d = d;
	gr.n = m;
	gr.level = on_au;
	ret = m ? group_from_reads(&gr, tmp, grp) : -1;
	ret = ret > 0 ? 0 : -ENOENT;
out:
	free(tmp);
	free(d);
	free(b);
	return ret;
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
	if (pos_group(c, f, (size_t)e, &v->group) < 0)
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
		step_test(c, &f, (int)j, &st[j]);
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
	c.read_ns = fmax(median(scratch, n), 0);
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
