// SPDX-License-Identifier: GPL-2.0-only
/*
 * Align-table analysis (erase and page size from the diff column) and the
 * --analyze text parser.  Nothing here does I/O except the print
 * functions, which write to the FILE they are given.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "analyze.h"
#include "format.h"

/* Row groups of the level model: below page, page level, erase level. */
enum { GRP_LO, GRP_MID, GRP_HI, GRP_NR };

/* 1.4826 * MAD estimates a normal standard deviation. */
#define MAD_TO_SIGMA 1.4826
/* A row this many sigmas beyond every level is a spike, not a level. */
#define OUTLIER_SIGMA 5.0
/* A row this many sigmas below its level contradicts the model. */
#define DROP_SIGMA 4.0
/* Smaller erase sizes are not believed (see decide()). */
#define MIN_ERASE_BYTE (128 * 1024)
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
	[ANALYZE_CONF_LOW] = { 5.0, 1.25, 0.03, 0.20, 0.1 },
	[ANALYZE_CONF_MEDIUM] = { 8.0, 1.5, 0.04, 0.15, 0.01 },
	[ANALYZE_CONF_HIGH] = { 15.0, 1.6, 0.05, 0.06, 0.001 },
};

/* The table under analysis and scratch space for the fits. */
struct actx {
	size_t n;
	size_t ncand;		/* candidate sizes tried */
	const uint64_t *align;	/* bytes */
	const double *diff;	/* ns */
	double read_ns;		/* median read time; 0 if unknown */
	double *scratch;	/* n values */
	unsigned char *skip;	/* rows set aside as outliers */
	size_t nskip;
};

/* One fitted level model. */
struct fit {
	uint64_t erase;		/* bytes */
	uint64_t page;		/* bytes, 0 = two-level model */
	double med[GRP_NR];	/* ns, median of each group */
	size_t cnt[GRP_NR];
	double cost;		/* ns, sum of absolute residuals */
	int valid;		/* groups non-empty, levels rising */
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

static int group_of(uint64_t align, uint64_t erase, uint64_t page)
{
	if (align % erase == 0)
		return GRP_HI;
	if (page && align % page == 0)
		return GRP_MID;
	return GRP_LO;
}

/* Group of row i under a model with these sizes; -1 if set aside. */
static int row_group(const struct actx *c, size_t i, uint64_t erase,
		     uint64_t page)
{
	if (c->skip[i])
		return -1;
	return group_of(c->align[i], erase, page);
}

/* Fit the model with these sizes: medians per group and the L1 cost. */
static void fit_model(struct actx *c, uint64_t erase, uint64_t page,
		      struct fit *f)
{
	size_t i, g;

	memset(f, 0, sizeof(*f));
	f->erase = erase;
	f->page = page;
	for (g = 0; g < GRP_NR; g++) {
		size_t k = 0;

		for (i = 0; i < c->n; i++)
			if (row_group(c, i, erase, page) == (int)g)
				c->scratch[k++] = c->diff[i];
		f->cnt[g] = k;
		if (!k)
			continue;
		f->med[g] = median(c->scratch, k);
		for (i = 0; i < k; i++)
			f->cost += fabs(c->scratch[i] - f->med[g]);
	}
	f->valid = f->cnt[GRP_HI] && f->cnt[GRP_LO] &&
		   f->med[GRP_HI] > f->med[page ? GRP_MID : GRP_LO];
	/*
	 * A page level is shared by every multiple of the page size below
	 * the erase size; one row alone (often the row at half the erase
	 * size, which many cards show a little raised) is no page level.
	 */
	if (page)
		f->valid = f->valid && f->cnt[GRP_MID] >= 2 &&
			   f->med[GRP_MID] > f->med[GRP_LO];
}

static enum analyze_confidence judge(const struct analyze_step *s)
{
	size_t nmin = s->n_upper < s->n_lower ? s->n_upper : s->n_lower;
	double misfit = (double)s->n_misfit /
			(double)(s->n_upper + s->n_lower + s->n_skipped);
	enum analyze_confidence conf = ANALYZE_CONF_NONE;
	int l;

	if (!(s->upper_ns > s->lower_ns))
		return ANALYZE_CONF_NONE;
	for (l = ANALYZE_CONF_LOW; l <= ANALYZE_CONF_HIGH; l++) {
		if (s->t < need[l].t || s->ratio < need[l].ratio ||
		    misfit > need[l].misfit || s->spike_p > need[l].spikes)
			break;
		if (s->rel > 0 && s->rel < need[l].rel)
			break;
		conf = l;
	}
	/* a row that contradicts the model: a guess at best */
	if (s->n_drop && conf > ANALYZE_CONF_LOW)
		conf = ANALYZE_CONF_LOW;
	/* one row alone can be an outlier: never more than low */
	if (nmin < 2 && conf > ANALYZE_CONF_LOW)
		conf = ANALYZE_CONF_LOW;
	return conf;
}

/* Robust sigma of the rows of group g of fit f around its median. */
static double group_sigma(struct actx *c, const struct fit *f, int g)
{
	size_t i, k = 0;

	for (i = 0; i < c->n; i++)
		if (row_group(c, i, f->erase, f->page) == g)
			c->scratch[k++] = fabs(c->diff[i] - f->med[g]);
	return k ? MAD_TO_SIGMA * median(c->scratch, k) : 0;
}

/*
 * Test the step between groups up and down of fit f: a robust Welch t
 * (difference of medians over the standard error from each group's own
 * MAD: reads crossing an erase boundary are noisier than the rest), the
 * level ratio, the step next to a read, and how likely spikes made it.
 */
static void step_test(struct actx *c, const struct fit *f, int up, int down,
		      uint64_t size, struct analyze_step *s)
{
	double mu = f->med[up], md = f->med[down], d, su, sd, pooled;
	double floor_ns, spike;
	size_t i, k = 0, nu = f->cnt[up], nd = f->cnt[down], nu_off = 0;
	int g;

	memset(s, 0, sizeof(*s));
	s->candidate_byte = size;
	s->n_misfit = c->nskip;
	s->n_skipped = c->nskip;
	for (i = 0; i < c->n; i++) {
		g = row_group(c, i, f->erase, f->page);
		if (g != up && g != down)
			continue;
		c->scratch[k++] = fabs(c->diff[i] - f->med[g]);
		if (g == up && fabs(c->diff[i] - md) < fabs(c->diff[i] - mu)) {
			s->n_misfit++;
			nu_off++;
		}
		if (g == down && fabs(c->diff[i] - mu) < fabs(c->diff[i] - md))
			s->n_misfit++;
	}
	pooled = MAD_TO_SIGMA * median(c->scratch, k);
	/* a MAD of one or two rows says nothing: use both groups' */
	su = nu >= 3 ? group_sigma(c, f, up) : pooled;
	sd = nd >= 3 ? group_sigma(c, f, down) : pooled;
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
	/* rows far below their level: a read is never that much faster */
	for (i = 0; i < c->n; i++) {
		g = row_group(c, i, f->erase, f->page);
		if ((g == up && c->diff[i] < mu - DROP_SIGMA * su) ||
		    (g == down && c->diff[i] < md - DROP_SIGMA * sd))
			s->n_drop++;
	}
	s->t = d / (MEDIAN_SE * sqrt(su * su / (double)nu +
				     sd * sd / (double)nd));
	/*
	 * Over a lower level near zero (or below), the ratio is taken to
	 * twice the noise instead: a flat table's best split has an upper
	 * level of a sigma or two and must not pass as a step.
	 */
	s->ratio = mu > 0 ? mu / fmax(md, fmax(2 * pooled, floor_ns)) : 0;
	s->rel = c->read_ns > 0 ? d / c->read_ns : 0;
	/*
	 * Real tables have single rows far off their level (seed 003 has
	 * two rows at erase level deep down among the small ones).  With
	 * such spikes at the rate this table shows (rule of succession over
	 * the rows nearer the other level), how likely is it that all the
	 * upper rows at the upper level spiked, at any candidate split?
	 */
	spike = (double)(s->n_misfit + 1) / (double)(nu + nd + c->nskip + 2);
	s->spike_p = fmin(1, (double)c->ncand *
			     pow(spike, (double)(nu - nu_off)));
	s->confidence = judge(s);
	if (s->confidence != ANALYZE_CONF_NONE)
		s->size_byte = size;
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
 * Best (lowest cost) valid model over the candidate sizes: two levels
 * (with_page 0), or three with the erase size given or free (erase 0).
 */
static int best_fit(struct actx *c, const uint64_t *cand, size_t nc,
		    uint64_t erase, int with_page, struct fit *best)
{
	struct fit f;
	size_t i, j;
	int found = 0;

	for (i = 0; i < nc; i++) {
		if (erase && cand[i] != erase)
			continue;
		for (j = with_page ? i + 1 : nc; j <= nc; j++) {
			if (j < nc && cand[i] % cand[j])
				continue;
			if (with_page && j == nc)
				break;
			fit_model(c, cand[i], j < nc ? cand[j] : 0, &f);
			if (f.valid && (!found || f.cost < best->cost)) {
				*best = f;
				found = 1;
			}
		}
	}
	return found;
}

/*
 * One pass of the decision; v zeroed on entry.  Returns 1 and the model
 * behind the verdict in *model if an erase size was found, else 0.
 */
static int decide_once(struct actx *c, const uint64_t *cand, size_t nc,
		       struct align_verdict *v, struct fit *model)
{
	struct analyze_step hi, lo;
	struct fit f1, f2, fp;
	int have1, have2;

	have1 = best_fit(c, cand, nc, 0, 0, &f1);
	have2 = best_fit(c, cand, nc, 0, 1, &f2);
	if (have1 && have2) {
		step_test(c, &f2, GRP_HI, GRP_MID, f2.erase, &hi);
		step_test(c, &f2, GRP_MID, GRP_LO, f2.page, &lo);
		/* three levels need both steps and a better fit than two */
		if (hi.confidence && lo.confidence && f2.cost < f1.cost) {
			v->erase = hi;
			v->page = lo;
			*model = f2;
			return 1;
		}
	}
	if (!have1)
		return 0;
	step_test(c, &f1, GRP_HI, GRP_LO, f1.erase, &v->erase);
	if (!v->erase.confidence)
		return 0;
	*model = f1;
	if (best_fit(c, cand, nc, f1.erase, 1, &fp)) {
		step_test(c, &fp, GRP_MID, GRP_LO, fp.page, &v->page);
		if (v->page.confidence)
			*model = fp;
	}
	return 1;
}

/*
 * Set aside the rows model does not explain: rows above their own level
 * and nearer a higher one, and rows far above the highest level (a spike
 * on top of the erase level).  A read can be slowed by anything, but not
 * sped up beyond what the flash does: a row below its level is evidence
 * against the model, not a spike, and stays.  Returns how many.
 */
static size_t mark_outliers(struct actx *c, const struct fit *f)
{
	double top = -INFINITY, bottom = INFINITY, sigma, x, own;
	size_t i, k = 0, nout = 0;
	int g, l;

	for (l = 0; l < GRP_NR; l++)
		if (f->cnt[l]) {
			top = fmax(top, f->med[l]);
			bottom = fmin(bottom, f->med[l]);
		}
	for (i = 0; i < c->n; i++) {
		g = row_group(c, i, f->erase, f->page);
		if (g >= 0)
			c->scratch[k++] = fabs(c->diff[i] - f->med[g]);
	}
	if (!k)
		return 0;
	sigma = fmax(MAD_TO_SIGMA * median(c->scratch, k),
		     0.005 * fmax(fabs(top), fabs(bottom)) + 1.0);
	for (i = 0; i < c->n; i++) {
		g = row_group(c, i, f->erase, f->page);
		if (g < 0)
			continue;
		x = c->diff[i];
		own = fabs(x - f->med[g]);
		if (x <= f->med[g])
			continue;
		for (l = 0; l < GRP_NR; l++)
			if (l != g && f->cnt[l] && fabs(x - f->med[l]) < own)
				break;
		if (l < GRP_NR || x > top + OUTLIER_SIGMA * sigma) {
			c->skip[i] = 1;
			nout++;
		}
	}
	return nout;
}

/*
 * Is model f told apart from the model with sizes erase2/page2 by a row
 * that is not set aside and sits within 3 sigma of its level?
 */
static int told_apart(const struct actx *c, const struct fit *f,
		      uint64_t erase2, uint64_t page2, double sigma)
{
	size_t i;

	for (i = 0; i < c->n; i++) {
		int g = row_group(c, i, f->erase, f->page);

		if (g >= 0 && g != group_of(c->align[i], erase2, page2) &&
		    fabs(c->diff[i] - f->med[g]) <= 3 * sigma)
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
			  struct align_verdict *v)
{
	uint64_t e = v->erase.size_byte, p = v->page.size_byte;
	size_t i;

	for (i = 0; i < nc; i++) {
		uint64_t x = cand[i];

		if (e && x != e && (!p || (x > p && x % p == 0)) &&
		    !told_apart(c, f, x, p, v->erase.sigma_ns) &&
		    v->erase.confidence > ANALYZE_CONF_LOW)
			v->erase.confidence = ANALYZE_CONF_LOW;
		if (p && x != p && x < e && e % x == 0 &&
		    !told_apart(c, f, e, x, v->page.sigma_ns) &&
		    v->page.confidence > ANALYZE_CONF_LOW)
			v->page.confidence = ANALYZE_CONF_LOW;
	}
}

/*
 * Decide the sizes; c is filled, v zeroed.  A first pass fits the level
 * model to every row; rows it cannot explain are set aside and a second
 * pass decides without them.
 */
static void decide(struct actx *c, const uint64_t *cand, size_t nc,
		   struct align_verdict *v)
{
	struct fit model;

	if (!decide_once(c, cand, nc, v, &model))
		return;
	c->nskip = mark_outliers(c, &model);
	if (c->nskip) {
		memset(v, 0, sizeof(*v));
		if (!decide_once(c, cand, nc, v, &model))
			return;
	}
	cap_ambiguous(c, &model, cand, nc, v);
	/*
	 * No flash erases less than 128 KiB at a time; a step that small
	 * is a page step with the erase step lost in the noise above it.
	 */
	if (v->erase.size_byte && v->erase.size_byte < MIN_ERASE_BYTE &&
	    v->erase.confidence > ANALYZE_CONF_LOW)
		v->erase.confidence = ANALYZE_CONF_LOW;
}

int analyze_align(const struct align_row *rows, size_t n,
		  struct align_verdict *v)
{
	struct actx c = { .n = n };
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

const char *analyze_confidence_name(enum analyze_confidence c)
{
	switch (c) {
	case ANALYZE_CONF_LOW:
		return "low";
	case ANALYZE_CONF_MEDIUM:
		return "medium";
	case ANALYZE_CONF_HIGH:
		return "high";
	default:
		return "none";
	}
}

static void print_size(FILE *out, const char *what,
		       const struct analyze_step *s)
{
	char buf[FMT_LEN];

	if (!s->size_byte) {
		fprintf(out, "%s none", what);
		return;
	}
	fprintf(out, "%s %s (confidence %s)", what,
		fmt_size(buf, s->size_byte),
		analyze_confidence_name(s->confidence));
}

void analyze_print_verdict(FILE *out, size_t table_no,
			   const struct align_verdict *v)
{
	fprintf(out, "table %zu: ", table_no);
	print_size(out, "erase size", &v->erase);
	fputs(", ", out);
	print_size(out, "page size", &v->page);
	fputc('\n', out);
}

static void print_step(FILE *out, const char *what,
		       const struct analyze_step *s)
{
	char sz[FMT_LEN], up[FMT_LEN], lo[FMT_LEN], sg[FMT_LEN];

	if (!s->candidate_byte) {
		fprintf(out, "  %s: no step to test\n", what);
		return;
	}
	fprintf(out, "  %s: %s %s: diff %s on %zu rows vs %s on %zu rows, ",
		what, s->size_byte ? "step at" : "rejected",
		fmt_size(sz, s->candidate_byte),
		fmt_time(up, (int64_t)llround(s->upper_ns)), s->n_upper,
		fmt_time(lo, (int64_t)llround(s->lower_ns)), s->n_lower);
	fprintf(out, "noise %s, ratio %.3g, t %.3g, step %.3g%% of a read, ",
		fmt_time(sg, (int64_t)llround(s->sigma_ns)), s->ratio, s->t,
		100 * s->rel);
	fprintf(out, "%zu misfits, %zu far below, spike chance %.2g\n",
		s->n_misfit, s->n_drop, s->spike_p);
}

void analyze_print_evidence(FILE *out, const struct align_verdict *v)
{
	print_step(out, "erase", &v->erase);
	print_step(out, "page", &v->page);
}

/* ---- the --analyze parser ---- */

/* A run of non-space bytes in the text. */
struct tok {
	const char *s;
	size_t len;
};

/*
 * Length of the white space at p: ASCII, U+00A0 (also as an HTML entity)
 * and the Unicode spaces.
 */
static size_t space_len(const unsigned char *p, size_t left)
{
	if (strchr(" \t\n\r\v\f", p[0]) && p[0])
		return 1;
	if (left >= 2 && p[0] == 0xc2 && p[1] == 0xa0)
		return 2;
	/* a no-break space in HTML source */
	if (left >= 6 && (!strncasecmp((const char *)p, "&nbsp;", 6) ||
			  !strncmp((const char *)p, "&#160;", 6)))
		return 6;
	if (left < 3)
		return 0;
	/* U+2000..U+200B, U+202F, U+205F, U+3000 */
	if (p[0] == 0xe2 && p[1] == 0x80 &&
	    ((p[2] >= 0x80 && p[2] <= 0x8b) || p[2] == 0xaf))
		return 3;
	if (p[0] == 0xe2 && p[1] == 0x81 && p[2] == 0x9f)
		return 3;
	if (p[0] == 0xe3 && p[1] == 0x80 && p[2] == 0x80)
		return 3;
	return 0;
}

/* Split text into tokens; returns the count or -ENOMEM. */
static long tokenize(const char *text, size_t len, struct tok **toks)
{
	const unsigned char *p = (const unsigned char *)text;
	struct tok *t = NULL, *nt;
	size_t i = 0, start, n = 0, cap = 0;

	while (i < len) {
		size_t sp = space_len(p + i, len - i);

		if (sp) {
			i += sp;
			continue;
		}
		start = i;
		while (i < len && !space_len(p + i, len - i))
			i++;
		if (n == cap) {
			cap = cap ? 2 * cap : 256;
			nt = realloc(t, cap * sizeof(*t));
			if (!nt) {
				free(t);
				return -ENOMEM;
			}
			t = nt;
		}
		t[n].s = text + start;
		t[n].len = i - start;
		n++;
	}
	*toks = t;
	return (long)n;
}

static int tok_is(const struct tok *t, const char *word)
{
	return t->len == strlen(word) && !memcmp(t->s, word, t->len);
}

/*
 * Length of the micro sign at the start of s, in any form a mail archive
 * or a web page turns U+00B5 into, or 0: the sign itself, the Greek mu
 * that some fonts and editors substitute, UTF-8 shown as Latin-1 and
 * encoded again ("\xc3\x82\xc2\xb5", list archives), the bare Latin-1
 * byte, HTML entities, and the ASCII "u".
 */
static size_t micro_len(const char *s, size_t len)
{
	static const char *const forms[] = {
		"\xc2\xb5",		/* U+00B5 MICRO SIGN */
		"\xce\xbc",		/* U+03BC GREEK SMALL LETTER MU */
		"\xc3\x82\xc2\xb5",	/* U+00B5 shown as Latin-1 */
		"\xc3\x8e\xc2\xbc",	/* U+03BC shown as Latin-1 */
		"\xb5",		/* Latin-1 */
		"&micro;", "&mu;", "&#181;", "&#xb5;", "&#956;", "&#x3bc;",
		"u",
	};
	size_t i;

	for (i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		size_t n = strlen(forms[i]);

		if (n <= len && !strncasecmp(s, forms[i], n))
			return n;
	}
	return 0;
}

/*
 * Nanoseconds per unit, or 0 if s is not a time unit; an empty unit
 * (raw ns) only counts when glued to its number.
 */
static double unit_ns(const char *s, size_t len, int glued)
{
	static const struct {
		const char *name;
		double ns;
	} units[] = {
		{ "", 1 },		/* classic: raw ns cut to 7 chars */
		{ "n", 1 },		/* ditto, "ns" cut after the n */
		{ "ns", 1 },
		{ "ms", 1e6 },
		{ "s", 1e9 },
	};
	size_t i, mu;

	/* punctuation a web page may glue on */
	while (len && strchr(",;)]", s[len - 1]))
		len--;
	if (!len && !glued)
		return 0;
	mu = micro_len(s, len);
	if (mu && len == mu + 1 && s[mu] == 's')
		return 1e3;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strlen(units[i].name) == len &&
		    !memcmp(units[i].name, s, len))
			return units[i].ns;
	return 0;
}

/*
 * Parse a decimal number at the start of s; returns the bytes used (0 if
 * none) and the value in *val.
 */
static size_t parse_number(const char *s, size_t len, double *val)
{
	size_t i = 0, digits = 0;
	double v = 0;
	int neg = 0;

	if (i < len && (s[i] == '-' || s[i] == '+'))
		neg = s[i++] == '-';
	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++, digits++)
		v = v * 10 + (s[i] - '0');
	if (i < len && s[i] == '.') {
		double scale = 1;

		for (i++; i < len && s[i] >= '0' && s[i] <= '9';
		     i++, digits++) {
			scale /= 10;
			v += scale * (s[i] - '0');
		}
	}
	if (!digits)
		return 0;
	*val = neg ? -v : v;
	return i;
}

/* A time value: "741µs", "741 µs", "-49389n", "-412331". */
struct tval {
	double ns;
	int cut;		/* may be the classic's truncated raw ns */
};

/* Parse a time starting at token *i; advances *i past it. */
static int parse_time(const struct tok *t, size_t nt, size_t *i,
		      struct tval *tv)
{
	const struct tok *k = &t[*i];
	double v, mult;
	size_t used;

	if (*i >= nt)
		return -EINVAL;
	used = parse_number(k->s, k->len, &v);
	if (!used)
		return -EINVAL;
	mult = unit_ns(k->s + used, k->len - used, 1);
	if (!mult)
		return -EINVAL;
	tv->cut = v < 0 && k->len == 7 && used == 7;
	(*i)++;
	/* a unit in its own token after a bare number */
	if (used == k->len && *i < nt && unit_ns(t[*i].s, t[*i].len, 0)) {
		mult = unit_ns(t[*i].s, t[*i].len, 0);
		tv->cut = 0;
		(*i)++;
	}
	v *= mult;
	if (!(fabs(v) < 9e18))
		return -EINVAL;
	tv->ns = v;
	return 0;
}

/* The alignment after "align": a size, as the options take it. */
static int parse_align(const struct tok *k, uint64_t *val)
{
	char buf[32];

	if (!k->len || k->len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, k->s, k->len);
	buf[k->len] = '\0';
	if (parse_size(buf, val) || !*val)
		return -EINVAL;
	return 0;
}

/*
 * The classic printed a negative diff as raw ns cut to 7 characters, so
 * "-412331" may be -412331 ns or -4123312 ns and more.  The diff is also
 * on - (pre + post) / 2 of the printed columns: take the scale nearest to
 * that.
 */
static double uncut_diff(double diff, double recomputed)
{
	double best = diff, v = diff;
	int k;

	for (k = 1; k <= 3; k++) {
		v *= 10;
		if (fabs(v - recomputed) < fabs(best - recomputed))
			best = v;
	}
	return best;
}

/* Parse the record starting at token i ("align"); *next past it. */
static int parse_record(const struct tok *t, size_t nt, size_t i,
			struct align_row *row, size_t *next)
{
	static const char *const names[] = { "pre", "on", "post", "diff" };
	struct tval tv[4];
	size_t f;
	double re;

	memset(row, 0, sizeof(*row));
	if (i + 9 >= nt || !tok_is(&t[i], "align") ||
	    parse_align(&t[i + 1], &row->align_byte))
		return -EINVAL;
	i += 2;
	for (f = 0; f < 4; f++) {
		if (i >= nt || !tok_is(&t[i], names[f]))
			return -EINVAL;
		i++;
		if (parse_time(t, nt, &i, &tv[f]))
			return -EINVAL;
	}
	re = tv[1].ns - (tv[0].ns + tv[2].ns) / 2;
	if (tv[3].cut)
		tv[3].ns = uncut_diff(tv[3].ns, re);
	row->pre_ns = llround(tv[0].ns);
	row->on_ns = llround(tv[1].ns);
	row->post_ns = llround(tv[2].ns);
	row->diff_ns = llround(tv[3].ns);
	*next = i;
	return 0;
}

/* Append row to the last table, or to a new one. */
static int add_row(struct align_table **tables, size_t *ntables,
		   size_t *cap, size_t *rowcap, const struct align_row *row)
{
	struct align_table *tab, *nt;
	struct align_row *nr;

	tab = *ntables ? &(*tables)[*ntables - 1] : NULL;
	if (!tab || row->align_byte >= tab->rows[tab->nrows - 1].align_byte) {
		if (*ntables == *cap) {
			*cap = *cap ? 2 * *cap : 4;
			nt = realloc(*tables, *cap * sizeof(*nt));
			if (!nt)
				return -ENOMEM;
			*tables = nt;
		}
		tab = &(*tables)[(*ntables)++];
		tab->rows = NULL;
		tab->nrows = 0;
		*rowcap = 0;
	}
	if (tab->nrows == *rowcap) {
		*rowcap = *rowcap ? 2 * *rowcap : 32;
		nr = realloc(tab->rows, *rowcap * sizeof(*nr));
		if (!nr)
			return -ENOMEM;
		tab->rows = nr;
	}
	tab->rows[tab->nrows++] = *row;
	return 0;
}

int analyze_parse(const char *text, size_t len, struct align_table **tables,
		  size_t *ntables)
{
	struct align_row row;
	struct tok *toks;
	size_t i, next, cap = 0, rowcap = 0;
	long nt;
	int ret = 0;

	*tables = NULL;
	*ntables = 0;
	nt = tokenize(text, len, &toks);
	if (nt < 0)
		return (int)nt;
	for (i = 0; i < (size_t)nt; i++) {
		if (parse_record(toks, (size_t)nt, i, &row, &next))
			continue;
		ret = add_row(tables, ntables, &cap, &rowcap, &row);
		if (ret)
			break;
		i = next - 1;
	}
	free(toks);
	if (ret) {
		analyze_free_tables(*tables, *ntables);
		*tables = NULL;
		*ntables = 0;
	}
	return ret;
}

void analyze_free_tables(struct align_table *tables, size_t ntables)
{
	size_t i;

	for (i = 0; i < ntables; i++)
		free(tables[i].rows);
	free(tables);
}

int analyze_text(FILE *out, const char *text, size_t len, int verbose)
{
	struct align_table *tables;
	struct align_verdict v;
	size_t i, n;
	int ret;

	ret = analyze_parse(text, len, &tables, &n);
	if (ret)
		return ret;
	for (i = 0; i < n; i++) {
		ret = analyze_align(tables[i].rows, tables[i].nrows, &v);
		if (ret)
			break;
		analyze_print_verdict(out, i + 1, &v);
		if (verbose)
			analyze_print_evidence(out, &v);
	}
	analyze_free_tables(tables, n);
	return ret ? ret : (int)n;
}
