// SPDX-License-Identifier: GPL-2.0-only
/*
 * The allocation group read from an align table's positions (part of the
 * align-table analysis, verdict/analyze.c).  No I/O.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "analyzeint.h"
#include "stats.h"

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
		level = f->med[an_level_of(r->align_byte, f->size, f->ns)];
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
	ps->mu = stats_median_sort(tmp, k);
	for (i = 0, k = 0; i < n; i++)
		if (b[i] % g)
			tmp[k++] = d[i];
	ps->md = stats_median_sort(tmp, k);
	for (i = 0; i < k; i++)
		tmp[i] = fabs(tmp[i] - ps->md);
	ps->sigma = fmax(MAD_TO_SIGMA * stats_median_sort(tmp, k), 0.005 * level + 1);
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

int an_pos_group(const struct actx *c, const struct fit *f, size_t e,
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
	return k ? stats_median_sort(tmp, k) : 0;
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
