// SPDX-License-Identifier: GPL-2.0-only
/*
 * One step of an align table judged (part of the align-table analysis,
 * verdict/analyze.c): its robust t, level ratio and share of a read, the
 * rows that do not fit it, and the confidence they allow.  No I/O.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "analyzeint.h"
#include "stats.h"

/* A row this many sigmas below its level contradicts the model. */
#define DROP_SIGMA 4.0
#define DROP_READ 0.01	/* of a read: never far below, whatever the noise */
/* The standard error of a median is sqrt(pi / 2) times that of a mean. */
#define MEDIAN_SE 1.2533

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

/* Robust sigma of the rows of group g of fit f around its median. */
static double group_sigma(struct actx *c, const struct fit *f, int g)
{
	size_t i, k = 0;

	for (i = 0; i < c->n; i++)
		if (an_row_group(c, i, f) == g)
			c->scratch[k++] = fabs(c->diff[i] - f->med[g]);
	return k ? MAD_TO_SIGMA * stats_median_sort(c->scratch, k) : 0;
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
		int g = an_row_group(c, i, f);

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
int an_few_reads_raised(const struct actx *c, size_t i, double max)
{
	const struct align_row *r = c->rows ? &c->rows[i] : NULL;
	double d[7];
	unsigned int k;

	if (!r || r->npos < 5 || r->npos > 7)
		return 0;	/* no positions: text tables */
	for (k = 0; k < r->npos; k++)
		d[k] = (double)r->pos_diff_ns[k];
	return stats_median_sort(d, r->npos) <= max;
}

/*
 * Test step j of fit f (between groups j + 1 and j): a robust Welch t
 * (difference of medians over the standard error from each group's own
 * MAD: reads crossing an erase boundary are noisier than the rest), the
 * level ratio, the step next to a read, and how likely spikes made it.
 */
void an_step_test(struct actx *c, const struct fit *f, int j,
		  struct analyze_step *s)
{
	int up = j + 1, down = j, g;
	double mu = f->med[up], md = f->med[down], d, su, sd, pooled;
	double floor_ns, spike, drop_u, drop_d, between_u, between_d;
	size_t i, k = 0, nu = f->cnt[up], nd = f->cnt[down], nu_off = 0;

	memset(s, 0, sizeof(*s));
	s->candidate_byte = f->size[j];
	for (i = 0; i < c->n; i++) {
		g = an_level_of(c->align[i], f->size, f->ns);
		/* a row set aside counts against the step it belongs to */
		if (c->skip[i] == SKIP_ASTRAY && (g == up || g == down)) {
			s->n_misfit++;
			s->n_skipped++;
		}
		g = an_row_group(c, i, f);
		if (g != up && g != down)
			continue;
		c->scratch[k++] = fabs(c->diff[i] - f->med[g]);
		if (g == up && fabs(c->diff[i] - md) < fabs(c->diff[i] - mu)) {
			s->n_misfit++;
			nu_off++;
		}
		if (g == down && fabs(c->diff[i] - mu) < fabs(c->diff[i] - md) &&
		    !an_few_reads_raised(c, i, md + (mu - md) / 4))
			s->n_misfit++;
	}
	pooled = MAD_TO_SIGMA * stats_median_sort(c->scratch, k);
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

		g = an_row_group(c, i, f);
		/* rows far below their level: a read is never that fast */
		if ((g == up && x < mu - drop_u) ||
		    (g == down && x < md - drop_d))
			s->n_drop++;
		/* rows part way up: the step is a ramp, not one size */
		if ((g == up && x < mu - between_u && x > (mu + md) / 2) ||
		    (g == down && x > md + between_d && x < (mu + md) / 2 &&
		     !an_few_reads_raised(c, i, md + between_d)))
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
