// SPDX-License-Identifier: GPL-2.0-only
/*
 * --plot: SVG charts as plain text.  See plot.h.
 *
 * One small chart engine (a panel with two axes, linear or log, series of
 * points, vertical marks) and one function per test that feeds it.  Sizes
 * and alignments go on log axes because the tests halve or double them;
 * times and throughputs on linear axes from zero, except interval's
 * times, which span three decades.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "c.h"
#include "format.h"
#include "plot.h"

#define PAGE_W		900.0	/* px, a single chart */
#define PAGE_H		560.0

/* What an axis counts, which decides its tick labels. */
enum axis_unit {
	AX_BYTES,		/* sizes, fmt_size() */
	AX_NS,			/* times, fmt_time() */
	AX_BPS,			/* throughput, fmt_rate() */
	AX_MIB,			/* offsets in MiB */
	AX_NUM,			/* plain numbers */
};

struct axis {
	double lo, hi;		/* range, in the unit */
	int log;		/* 1: log scale (lo > 0) */
	int whole;		/* 1: counts things, ticks at integers only */
	enum axis_unit unit;
	const char *label;	/* axis title */
};

/* A panel of the page: where it is and its axes. */
struct chart {
	FILE *f;
	double x0, y0;		/* top left of the plot area, px */
	double w, h;		/* size of the plot area, px */
	struct axis x, y;
	unsigned int nseries;	/* series drawn so far, for colours */
	double legend_x;	/* where the next legend entry goes, px */
	unsigned int legend_row; /* legend rows above the first */
};

static const char *const palette[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
	"#ff7f0e", "#17becf", "#8c564b", "#e377c2",
	"#7f7f7f", "#bcbd22",
};

#define NPALETTE (ARRAY_SIZE(palette))

/* One ASCII character of text, escaped where XML needs it. */
static void xml_put_ascii(FILE *f, char c)
{
	switch (c) {
	case '&':
		fputs("&amp;", f);
		break;
	case '<':
		fputs("&lt;", f);
		break;
	case '>':
		fputs("&gt;", f);
		break;
	case '"':
		fputs("&quot;", f);
		break;
	case '\'':
		fputs("&apos;", f);
		break;
	default:
		/* control characters are not allowed in XML 1.0 */
		fputc((unsigned char)c < 0x20 ? '?' : c, f);
	}
}

/*
 * Write s escaped; UTF-8 passes through, a byte that is not part of a
 * UTF-8 character (a file name in another encoding) becomes U+FFFD: the
 * document declares UTF-8, and a parser rejects anything else.
 */
static void xml_text(FILE *f, const char *s)
{
	size_t len;

	for (; *s; s += len) {
		len = utf8_char_len(s);
		if (!len) {
			fputs("\xef\xbf\xbd", f);
			len = 1;
		} else if (len > 1) {
			fwrite(s, 1, len, f);
		} else {
			xml_put_ascii(f, *s);
		}
	}
}

/* <text> at x, y with the given anchor and class, content escaped. */
static void text_at(FILE *f, double x, double y, const char *anchor,
		    const char *cls, const char *s)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" class=\"%s\">",
		x, y, anchor, cls);
	xml_text(f, s);
	fputs("</text>\n", f);
}

static void page_begin(FILE *f, double w, double h, const char *title)
{
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
		"width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\">\n",
		w, h, w, h);
	fputs("<title>", f);
	xml_text(f, title);
	fputs("</title>\n", f);
	fputs("<style>\n"
	      "text { font-family: sans-serif; font-size: 12px; fill: #222; }\n"
	      "text.title { font-size: 16px; font-weight: bold; }\n"
	      "text.sub { font-size: 13px; }\n"
	      "text.tick { font-size: 11px; fill: #444; }\n"
	      "text.axis { font-size: 12px; }\n"
	      "text.mark { font-size: 12px; font-weight: bold; }\n"
	      "text.note { font-size: 13px; fill: #555; }\n"
	      "</style>\n", f);
	fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"#ffffff\"/>\n",
		w, h);
	text_at(f, w / 2, 26, "middle", "title", title);
}

/* Finish the document; 0 or -EIO. */
static int page_end(FILE *f)
{
	fputs("</svg>\n", f);
	if (fflush(f) == EOF || ferror(f))
		return -EIO;
	return 0;
}

/* Where v lies on axis a, from 0 to 1. */
static double axis_pos(const struct axis *a, double v)
{
	if (a->log) {
		if (v <= 0)
			v = a->lo;
		return (log(v) - log(a->lo)) / (log(a->hi) - log(a->lo));
	}
	return (v - a->lo) / (a->hi - a->lo);
}

static double px_x(const struct chart *c, double v)
{
	return c->x0 + c->w * axis_pos(&c->x, v);
}

static double px_y(const struct chart *c, double v)
{
	return c->y0 + c->h * (1 - axis_pos(&c->y, v));
}

/* A tick label for value v of axis a. */
static void tick_label(char *buf, const struct axis *a, double v)
{
	switch (a->unit) {
	case AX_BYTES:
		fmt_size(buf, (uint64_t)llround(v));
		break;
	case AX_NS:
		fmt_time(buf, (int64_t)llround(v));
		break;
	case AX_BPS:
		if (v == 0)
			snprintf(buf, FMT_LEN, "0");
		else
			fmt_rate(buf, v);
		break;
	case AX_MIB:
		snprintf(buf, FMT_LEN, "%gMiB", v);
		break;
	default:
		snprintf(buf, FMT_LEN, "%g", v);
	}
}

/* A round step giving about n ticks over span (1, 2 or 5 times 10^k). */
static double nice_step(double span, int n)
{
	double raw = span / n, mag, r;

	if (raw <= 0)
		return 1;
	mag = pow(10, floor(log10(raw)));
	r = raw / mag;
	return (r < 1.5 ? 1 : r < 3.5 ? 2 : r < 7.5 ? 5 : 10) * mag;
}

/* The tick step of linear axis a over span: at least 1 if it counts. */
static double axis_step(const struct axis *a, double span)
{
	double step = nice_step(span, 6);

	return a->whole && step < 1 ? 1 : step;
}

/*
 * Fit a linear axis to [lo, hi], always including zero, and round its
 * ends to ticks.
 */
static void axis_fit_linear(struct axis *a, double lo, double hi)
{
	double step;

	if (lo > 0)
		lo = 0;
	if (hi < 0)
		hi = 0;
	if (hi - lo <= 0)
		hi = lo + 1;
	step = axis_step(a, hi - lo);
	a->lo = floor(lo / step) * step;
	a->hi = ceil(hi / step) * step;
	if (a->hi <= hi - step * 1e-9)
		a->hi += step;
	a->log = 0;
}

/* Fit a log axis to powers of base around [lo, hi] (lo > 0). */
static void axis_fit_log(struct axis *a, double lo, double hi, double base)
{
	if (lo <= 0)
		lo = 1;
	if (hi <= lo)
		hi = lo * base;
	a->lo = pow(base, floor(log(lo) / log(base) + 1e-9));
	a->hi = pow(base, ceil(log(hi) / log(base) - 1e-9));
	if (a->hi <= a->lo)
		a->hi = a->lo * base;
	a->log = 1;
}

/* Tick positions of a: powers of two or ten for log axes. */
static size_t axis_ticks(const struct axis *a, double *t, size_t max)
{
	size_t n = 0, skip;
	double v, step, base;

	if (!a->log) {
		step = axis_step(a, a->hi - a->lo);
		for (v = a->lo; v <= a->hi + step * 1e-6 && n < max; v += step)
			t[n++] = fabs(v) < step * 1e-9 ? 0 : v;
		return n;
	}
	base = a->unit == AX_BYTES ? 2 : 10;
	skip = (size_t)ceil(log(a->hi / a->lo) / log(base) / 12);
	if (skip < 1)
		skip = 1;
	step = pow(base, (double)skip);
	for (v = a->lo; v <= a->hi * 1.0001 && n < max; v *= step)
		t[n++] = v;
	return n;
}

/* Axes, grid, tick labels and axis titles of a chart. */
static void chart_frame(struct chart *c)
{
	FILE *f = c->f;
	char buf[FMT_LEN];
	double t[64], p;
	size_t i, n;

	fprintf(f, "<g class=\"frame\">\n");
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#fafafa\" stroke=\"#888\"/>\n",
		c->x0, c->y0, c->w, c->h);
	n = axis_ticks(&c->x, t, 64);
	for (i = 0; i < n; i++) {
		p = px_x(c, t[i]);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
			p, c->y0, p, c->y0 + c->h);
		tick_label(buf, &c->x, t[i]);
		text_at(f, p, c->y0 + c->h + 16, "middle", "tick", buf);
	}
	n = axis_ticks(&c->y, t, 64);
	for (i = 0; i < n; i++) {
		p = px_y(c, t[i]);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n",
			c->x0, p, c->x0 + c->w, p, t[i] == 0 ? "#888" : "#ddd");
		tick_label(buf, &c->y, t[i]);
		text_at(f, c->x0 - 6, p + 4, "end", "tick", buf);
	}
	text_at(f, c->x0 + c->w / 2, c->y0 + c->h + 36, "middle", "axis",
		c->x.label);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" class=\"axis\" transform=\"rotate(-90 %.1f %.1f)\">",
		c->x0 - 62, c->y0 + c->h / 2, c->x0 - 62, c->y0 + c->h / 2);
	xml_text(f, c->y.label);
	fputs("</text>\n</g>\n", f);
}

/*
 * One legend entry above the plot area, after the ones before it; rows
 * that are full continue upwards.
 */
static void legend(struct chart *c, const char *color, const char *name)
{
	/* about 7 px per character of the 12 px sans-serif font */
	double w = 34 + 7.0 * (double)strlen(name), y;

	if (c->legend_x > 0 && c->legend_x + w > c->w) {
		c->legend_x = 0;
		c->legend_row++;
	}
	y = c->y0 - 10 - 16.0 * c->legend_row;
	fprintf(c->f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"4\" fill=\"%s\"/>\n",
		c->x0 + 10 + c->legend_x, y - 5, color);
	text_at(c->f, c->x0 + 28 + c->legend_x, y, "start", "legend", name);
	c->legend_x += w;
}

/* Sort an index by x (insertion sort: series are short and nearly sorted). */
static void sort_by_x(size_t *idx, const double *x, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i++)
		idx[i] = i;
	for (i = 1; i < n; i++) {
		size_t k = idx[i];
		for (j = i; j > 0 && x[idx[j - 1]] > x[k]; j--)
			idx[j] = idx[j - 1];
		idx[j] = k;
	}
}

/*
 * One series: n points (x[i], y[i]), joined in the order of x by a line
 * when line is set (the measurements may come in any order).
 * tips[i] (may be NULL) is the tooltip of point i.
 */
static void chart_series(struct chart *c, const char *name, const double *x,
			 const double *y, size_t n, int line,
			 const char *const *tips)
{
	const char *color = palette[c->nseries++ % NPALETTE];
	size_t *idx = line && n > 1 ? malloc(n * sizeof(*idx)) : NULL;
	FILE *f = c->f;
	size_t i;

	fprintf(f, "<g class=\"series\" data-column=\"");
	xml_text(f, name);
	fprintf(f, "\" data-points=\"%zu\">\n", n);
	if (idx) {
		sort_by_x(idx, x, n);
		fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"",
			color);
		for (i = 0; i < n; i++)
			fprintf(f, "%s%.1f,%.1f", i ? " " : "",
				px_x(c, x[idx[i]]), px_y(c, y[idx[i]]));
		fputs("\"/>\n", f);
		free(idx);
	}
	if (n > PLOT_MAX_CIRCLES) {
		/* zero-length strokes with round caps: one dot per M */
		fprintf(f, "<path class=\"marks\" fill=\"none\" stroke=\"%s\" stroke-width=\"3\" stroke-linecap=\"round\" d=\"",
			color);
		for (i = 0; i < n; i++)
			fprintf(f, "M%.1f %.1fh0", px_x(c, x[i]), px_y(c, y[i]));
		fputs("\"/>\n", f);
	} else {
		for (i = 0; i < n; i++) {
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\">",
				px_x(c, x[i]), px_y(c, y[i]), color);
			if (tips && tips[i]) {
				fputs("<title>", f);
				xml_text(f, tips[i]);
				fputs("</title>", f);
			}
			fputs("</circle>\n", f);
		}
	}
	fputs("</g>\n", f);
	legend(c, color, name);
}

/* A dashed vertical mark at x, named kind, labelled text. */
static void chart_vmark(struct chart *c, const char *kind, double x,
			uint64_t bytes, const char *color, const char *text,
			int row)
{
	double p = px_x(c, x);

	fprintf(c->f, "<g class=\"mark\" data-kind=\"%s\" data-bytes=\"%" PRIu64 "\">\n",
		kind, bytes);
	fprintf(c->f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\" stroke-dasharray=\"6 4\"/>\n",
		p, c->y0, p, c->y0 + c->h, color);
	fprintf(c->f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" class=\"mark\" fill=\"%s\" style=\"fill: %s\">",
		p + (p > c->x0 + c->w / 2 ? -6 : 6), c->y0 + 18 + 16.0 * row,
		p > c->x0 + c->w / 2 ? "end" : "start", color, color);
	xml_text(c->f, text);
	fputs("</text>\n</g>\n", c->f);
}

/* A chart filling the usual place on a page of width w. */
static void chart_init(struct chart *c, FILE *f, double top, double w,
		       double h)
{
	memset(c, 0, sizeof(*c));
	c->f = f;
	c->x0 = 90;
	c->y0 = top;
	c->w = w - 90 - 30;
	c->h = h;
}

/* ---- align ---- */

/* Mark one size of an align verdict, if there is one. */
static void mark_step(struct chart *c, const char *kind,
		      const struct analyze_step *s, const char *color, int row)
{
	char size[FMT_LEN], text[96];

	if (!s->size_byte)
		return;
	snprintf(text, sizeof(text), "%s size %s (confidence %s)", kind,
		 fmt_size(size, s->size_byte),
		 analyze_confidence_name(s->confidence));
	chart_vmark(c, kind, (double)s->size_byte, s->size_byte, color, text,
		    row);
}

/* The align chart in the area starting at top, of plot height h. */
static int align_chart(FILE *f, double top, double w, double h,
		       const struct align_row *rows, size_t n,
		       const struct align_verdict *v)
{
	static const char *const names[4] = { "pre", "on", "post", "diff" };
	double *x = calloc(n ? n : 1, sizeof(double) * 5), *y;
	char **tips = calloc(n ? n : 1, sizeof(char *));
	double lo = 0, hi = 0, amin = 0, amax = 0;
	char a[FMT_LEN], t[FMT_LEN];
	struct chart c;
	size_t i, k;
	int ret = 0;

	if (!x || !tips) {
		ret = -ENOMEM;
		goto out_free;
	}
	y = x + n;
	for (i = 0; i < n; i++) {
		const int64_t vals[4] = { rows[i].pre_ns, rows[i].on_ns,
					  rows[i].post_ns, rows[i].diff_ns };

		x[i] = (double)rows[i].align_byte;
		for (k = 0; k < 4; k++) {
			y[k * n + i] = (double)vals[k];
			lo = fmin(lo, (double)vals[k]);
			hi = fmax(hi, (double)vals[k]);
		}
		amin = i ? fmin(amin, x[i]) : x[i];
		amax = i ? fmax(amax, x[i]) : x[i];
	}
	chart_init(&c, f, top, w, h);
	c.x = (struct axis){ .unit = AX_BYTES, .label = "alignment (log scale)" };
	c.y = (struct axis){ .unit = AX_NS, .label = "read time" };
	axis_fit_log(&c.x, amin ? amin : 1024, amax ? amax : 2048, 2);
	axis_fit_linear(&c.y, lo, hi * 1.05);
	chart_frame(&c);
	for (k = 0; k < 4; k++) {
		for (i = 0; i < n; i++) {
			char *s = NULL;

			free(tips[i]);
			tips[i] = NULL;
			if (asprintf(&s, "align %s: %s %s",
				     fmt_size(a, rows[i].align_byte), names[k],
				     fmt_time(t, (int64_t)y[k * n + i])) >= 0)
				tips[i] = s;
		}
		chart_series(&c, names[k], x, y + k * n, n, 1,
			     (const char *const *)tips);
	}
	if (v) {
		mark_step(&c, "erase", &v->erase, "#b00000", 0);
		mark_step(&c, "page", &v->page, "#006000", 1);
		if (!v->erase.size_byte)
			text_at(f, c.x0 + c.w / 2, c.y0 + c.h / 2, "middle",
				"note", "no erase size found in this table");
	}
out_free:
	for (i = 0; tips && i < n; i++)
		free(tips[i]);
	free(tips);
	free(x);
	return ret;
}

int plot_align(FILE *f, const char *title, const struct align_row *rows,
	       size_t n, const struct align_verdict *v)
{
	int ret;

	page_begin(f, PAGE_W, PAGE_H, title);
	if (v) {
		char sub[160], e[FMT_LEN], p[FMT_LEN];

		snprintf(sub, sizeof(sub),
			 "diff = on - (pre + post) / 2; erase size %s, page size %s",
			 v->erase.size_byte ? fmt_size(e, v->erase.size_byte) :
					      "none",
			 v->page.size_byte ? fmt_size(p, v->page.size_byte) :
					     "none");
		text_at(f, PAGE_W / 2, 46, "middle", "sub", sub);
	}
	ret = align_chart(f, 90, PAGE_W, PAGE_H - 150, rows, n, v);
	return ret ? ret : page_end(f);
}

/* ---- scatter ---- */

int plot_scatter(FILE *f, const char *title,
		 const struct scatter_point *pts, size_t n)
{
	double *x = calloc(n ? 2 * n : 1, sizeof(double)), *y;
	double xmax = 0, ymax = 0;
	struct chart c;
	size_t i;

	if (!x)
		return -ENOMEM;
	y = x + n;
	for (i = 0; i < n; i++) {
		x[i] = pts[i].off_byte / (1024.0 * 1024.0);
		y[i] = (double)pts[i].time_ns;
		xmax = fmax(xmax, x[i]);
		ymax = fmax(ymax, y[i]);
	}
	page_begin(f, PAGE_W, PAGE_H, title);
	text_at(f, PAGE_W / 2, 46, "middle", "sub",
		"minimum read time at each offset; bands and steps show how the card maps its blocks");
	chart_init(&c, f, 90, PAGE_W, PAGE_H - 150);
	c.x = (struct axis){ .unit = AX_MIB, .label = "offset" };
	c.y = (struct axis){ .unit = AX_NS, .label = "read time" };
	axis_fit_linear(&c.x, 0, xmax > 0 ? xmax : 1);
	axis_fit_linear(&c.y, 0, ymax * 1.05);
	chart_frame(&c);
	chart_series(&c, "time", x, y, n, 0, NULL);
	free(x);
	return page_end(f);
}

/* ---- interval ---- */

int plot_interval(FILE *f, const char *title,
		  const struct interval_row *rows, size_t n,
		  const struct interval_fit *fit)
{
	static const char *const names[3] = { "min", "avg", "max" };
	double *x = calloc(n ? 4 * n : 1, sizeof(double)), *y;
	double lo = 0, hi = 0;
	char sub[160], r[FMT_LEN], a[FMT_LEN];
	struct chart c;
	size_t i, k;

	if (!x)
		return -ENOMEM;
	y = x + n;
	for (i = 0; i < n; i++) {
		const uint64_t v[3] = { rows[i].min_ns, rows[i].avg_ns,
					rows[i].max_ns };

		x[i] = (double)rows[i].len_byte;
		for (k = 0; k < 3; k++) {
			y[k * n + i] = v[k] ? (double)v[k] : 1;
			lo = i || k ? fmin(lo, y[k * n + i]) : y[k * n + i];
			hi = fmax(hi, y[k * n + i]);
		}
	}
	page_begin(f, PAGE_W, PAGE_H, title);
	snprintf(sub, sizeof(sub),
		 "regression (sizes from the fourth up): %s, %s access time",
		 fmt_rate(r, fit->bytes_per_s),
		 fmt_time(a, (int64_t)fit->access_ns));
	text_at(f, PAGE_W / 2, 46, "middle", "sub", sub);
	chart_init(&c, f, 90, PAGE_W, PAGE_H - 150);
	c.x = (struct axis){ .unit = AX_BYTES, .label = "read size (log scale)" };
	c.y = (struct axis){ .unit = AX_NS, .label = "read time (log scale)" };
	axis_fit_log(&c.x, n ? x[0] : 512, n ? x[n - 1] : 1024, 2);
	axis_fit_log(&c.y, lo, hi, 10);
	chart_frame(&c);
	for (k = 0; k < 3; k++)
		chart_series(&c, names[k], x, y + k * n, n, 1, NULL);
	/* the line time = access + size / rate, drawn where it is positive */
	if (fit->bytes_per_s > 0) {
		int first = 1;

		fprintf(f, "<g class=\"fit\" data-bytes-per-s=\"%g\" data-access-ns=\"%g\">\n<polyline fill=\"none\" stroke=\"#000\" stroke-width=\"1.5\" stroke-dasharray=\"4 3\" points=\"",
			fit->bytes_per_s, fit->access_ns);
		for (i = 0; i <= 64; i++) {
			double xs = c.x.lo * pow(c.x.hi / c.x.lo, i / 64.0);
			double t = fit->access_ns + xs * 1e9 / fit->bytes_per_s;

			if (t < c.y.lo || t > c.y.hi)
				continue;
			fprintf(f, "%s%.1f,%.1f", first ? "" : " ", px_x(&c, xs),
				px_y(&c, t));
			first = 0;
		}
		fputs("\"/>\n</g>\n", f);
		legend(&c, "#000", "regression");
	}
	free(x);
	return page_end(f);
}

/* ---- the writing tests ---- */

int plot_table(FILE *f, const char *title, const char *sub,
	       void (*column)(char *buf, size_t len, size_t k),
	       const struct vm_table *tab)
{
	size_t ncol = 0, nrow = 0, r, k, i;
	double *x, *y, xmin = 0, xmax = 0, ymax = 0;
	char name[32], sz[FMT_LEN], rate[FMT_LEN], **tips;
	struct chart c;

	for (r = 0; r < tab->nrows; r++)
		if (tab->rows[r].ncells > 1) {
			nrow++;
			if (tab->rows[r].ncells - 1 > ncol)
				ncol = tab->rows[r].ncells - 1;
		}
	x = calloc((nrow + 1) * (ncol + 1), sizeof(double));
	tips = calloc(nrow + 1, sizeof(char *));
	if (!x || !tips) {
		free(x);
		free(tips);
		return -ENOMEM;
	}
	y = x + nrow;
	page_begin(f, PAGE_W, PAGE_H, title);
	text_at(f, PAGE_W / 2, 46, "middle", "sub", sub);
	for (r = 0, i = 0; r < tab->nrows; r++) {
		const struct vm_row *row = &tab->rows[r];

		if (row->ncells < 2)
			continue;
		x[i] = row->cells[0].value;
		xmin = i ? fmin(xmin, x[i]) : x[i];
		xmax = fmax(xmax, x[i]);
		for (k = 1; k < row->ncells; k++) {
			y[(k - 1) * nrow + i] = row->cells[k].value;
			ymax = fmax(ymax, row->cells[k].value);
		}
		i++;
	}
	chart_init(&c, f, 90 + 16.0 * (ncol > 6), PAGE_W, PAGE_H - 150);
	c.x = (struct axis){ .unit = AX_BYTES, .label = "access size (log scale)" };
	c.y = (struct axis){ .unit = AX_BPS, .label = "throughput" };
	axis_fit_log(&c.x, xmin > 0 ? xmin : 512, xmax > 0 ? xmax : 1024, 2);
	axis_fit_linear(&c.y, 0, ymax * 1.05);
	chart_frame(&c);
	for (k = 0; k < ncol; k++) {
		if (column)
			column(name, sizeof(name), k + 1);
		else
			snprintf(name, sizeof(name), "column %zu", k + 1);
		for (i = 0; i < nrow; i++) {
			free(tips[i]);
			tips[i] = NULL;
			if (asprintf(&tips[i], "%s: %s %s",
				     fmt_size(sz, (uint64_t)x[i]), name,
				     fmt_rate(rate, y[k * nrow + i])) < 0)
				tips[i] = NULL;
		}
		chart_series(&c, name, x, y + k * nrow, nrow, 1,
			     (const char *const *)tips);
	}
	for (i = 0; i < nrow; i++)
		free(tips[i]);
	free(tips);
	free(x);
	return page_end(f);
}

/* ---- --auto ---- */

/* The open-AU probes of one order as a series: ratio against nr. */
static void open_series(struct chart *c, const char *name,
			const struct auto_open *o)
{
	double x[AUTO_MAX_PROBES], y[AUTO_MAX_PROBES];
	size_t i;

	for (i = 0; i < o->nprobes; i++) {
		x[i] = o->probes[i].nr;
		y[i] = o->probes[i].ratio;
	}
	chart_series(c, name, x, y, o->nprobes, 1, NULL);
}

/* A verdict line for the summary: "open AUs, linear: 4 (high)". */
static void open_text(char *buf, size_t len, const struct auto_open *o)
{
	if (!o->measured)
		snprintf(buf, len, "not measured");
	else
		snprintf(buf, len, "%s%u (confidence %s)",
			 o->at_least ? "at least " : "", o->nr,
			 analyze_confidence_name(o->confidence));
}

/* A size found with its confidence: "32KiB (confidence high)". */
static void step_text(char *buf, size_t len, const struct analyze_step *st)
{
	char a[FMT_LEN];

	snprintf(buf, len, "%s (confidence %s)",
		 st->size_byte ? fmt_size(a, st->size_byte) : "none",
		 analyze_confidence_name(st->confidence));
}

static void fat_text(char *buf, size_t len, const struct auto_fat *fat)
{
	if (!fat->measured)
		snprintf(buf, len, "FAT area: not measured");
	else if (!fat->found)
		snprintf(buf, len, "FAT area: none (confidence %s)",
			 analyze_confidence_name(fat->confidence));
	else
		snprintf(buf, len, "FAT area: %u AU%s from AU %u (confidence %s)",
			 fat->count, fat->count == 1 ? "" : "s", fat->start,
			 analyze_confidence_name(fat->confidence));
}

/* The capacity check's verdict, as the text's "capacity:" line says it. */
static void capacity_text(char *buf, size_t len, const struct auto_result *r)
{
	const struct capacity_result *c = &r->capacity;
	char u[FMT_LEN], a[FMT_LEN];

	if (!r->capacity_done)
		snprintf(buf, len, "capacity: not checked");
	else if (c->kind == CAPACITY_GENUINE)
		snprintf(buf, len, "capacity: genuine, all %s store data",
			 fmt_size(a, c->announced_byte));
	else
		snprintf(buf, len, "capacity: FAKE (%s), usable %s%s of %s",
			 capacity_kind_name(c->kind),
			 c->kind == CAPACITY_LIMBO && !c->exact ?
			 "at least " : "", fmt_size(u, c->usable_byte),
			 fmt_size(a, c->announced_byte));
}

/* The class check's verdict: the classes that failed, and how many passed. */
static void class_text(char *buf, size_t len, const struct class_result *cr)
{
	size_t i, at, pass = 0;

	if (!cr || !cr->n) {
		snprintf(buf, len, "classes: not checked");
		return;
	}
	at = (size_t)snprintf(buf, len, "classes:");
	for (i = 0; i < cr->n; i++) {
		if (cr->c[i].pass)
			pass++;
		else if (at < len)
			at += (size_t)snprintf(buf + at, len - at, "%s %s",
					       at == 8 ? " FAIL" : "",
					       cr->c[i].name);
	}
	if (at < len)
		snprintf(buf + at, len - at, "%s%zu of %zu pass",
			 at == 8 ? " " : "; ", pass, cr->n);
}

/*
 * The verdict above the charts, two columns: the sizes and the FAT area
 * on the left, the open AUs, the checks and the device time on the right.
 */
static void verdict_lines(FILE *f, const struct auto_result *r,
			  const struct class_result *cr, double top)
{
	char line[200], b[FMT_LEN], t[96];
	uint64_t ns = r->device_ns + (cr && cr->n ? cr->device_ns : 0);

	step_text(t, sizeof(t), &r->align.erase);
	snprintf(line, sizeof(line), "erase size: %s", t);
	text_at(f, 90, top, "start", "sub", line);
	step_text(t, sizeof(t), &r->align.page);
	snprintf(line, sizeof(line), "page size: %s", t);
	text_at(f, 90, top + 20, "start", "sub", line);
	step_text(t, sizeof(t), &r->align.plane);
	snprintf(line, sizeof(line), "program unit: %s", t);
	text_at(f, 90, top + 40, "start", "sub", line);
	step_text(t, sizeof(t), &r->align.group);
	snprintf(line, sizeof(line), "allocation group: %s", t);
	text_at(f, 90, top + 60, "start", "sub", line);
	fat_text(line, sizeof(line), &r->fat);
	text_at(f, 90, top + 80, "start", "sub", line);
	open_text(t, sizeof(t), &r->open_linear);
	snprintf(line, sizeof(line), "open AUs, linear order: %s", t);
	text_at(f, 480, top, "start", "sub", line);
	open_text(t, sizeof(t), &r->open_random);
	snprintf(line, sizeof(line), "open AUs, random order: %s", t);
	text_at(f, 480, top + 20, "start", "sub", line);
	capacity_text(line, sizeof(line), r);
	text_at(f, 480, top + 40, "start", "sub", line);
	class_text(line, sizeof(line), cr);
	text_at(f, 480, top + 60, "start", "sub", line);
	snprintf(line, sizeof(line), "device time: %s%s%s",
		 fmt_time(b, (int64_t)ns),
		 r->skip_reason ? "; write steps skipped: " : "",
		 r->skip_reason ? r->skip_reason : "");
	text_at(f, 480, top + 80, "start", "sub", line);
}

/* A panel that says why it is empty. */
static void empty_panel(FILE *f, double top, double h, const char *why)
{
	fprintf(f, "<rect x=\"90\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#f4f4f4\" stroke=\"#bbb\"/>\n",
		top, PAGE_W - 120, h);
	text_at(f, PAGE_W / 2, top + h / 2, "middle", "note", why);
}

static void open_panel(FILE *f, const struct auto_result *r, double top,
		       double h)
{
	const struct auto_open *l = &r->open_linear, *m = &r->open_random;
	double xmax = 2, ymax = 1;
	char text[48];
	struct chart c;
	size_t i;

	text_at(f, 90, top - 28, "start", "sub",
		"open-AU probes: write time against one open AU, by AUs written in turn");
	if (!l->measured && !m->measured) {
		empty_panel(f, top, h, r->skip_reason ?
			    "not measured: the write steps need --destructive" :
			    "not measured");
		return;
	}
	for (i = 0; i < l->nprobes; i++) {
		xmax = fmax(xmax, l->probes[i].nr);
		ymax = fmax(ymax, l->probes[i].ratio);
	}
	for (i = 0; i < m->nprobes; i++) {
		xmax = fmax(xmax, m->probes[i].nr);
		ymax = fmax(ymax, m->probes[i].ratio);
	}
	chart_init(&c, f, top, PAGE_W, h);
	c.x = (struct axis){ .unit = AX_NUM, .whole = 1,
			     .label = "AUs written in turn" };
	c.y = (struct axis){ .unit = AX_NUM, .label = "time / time with one AU" };
	axis_fit_linear(&c.x, 0, xmax + 1);
	axis_fit_linear(&c.y, 0, ymax * 1.1);
	chart_frame(&c);
	if (l->measured)
		open_series(&c, "linear", l);
	if (m->measured)
		open_series(&c, "random", m);
	if (l->measured && l->nr) {
		snprintf(text, sizeof(text), "linear: %s%u open AUs",
			 l->at_least ? ">= " : "", l->nr);
		chart_vmark(&c, "open-linear", l->nr, l->nr, "#1f77b4", text,
			    0);
	}
	if (m->measured && m->nr) {
		snprintf(text, sizeof(text), "random: %s%u open AUs",
			 m->at_least ? ">= " : "", m->nr);
		chart_vmark(&c, "open-random", m->nr, m->nr, "#d62728", text,
			    1);
	}
}

static void fat_panel(FILE *f, const struct auto_result *r, double top,
		      double h)
{
	const struct auto_fat *fat = &r->fat;
	double x[AUTO_FAT_MAX], yl[AUTO_FAT_MAX], yr[AUTO_FAT_MAX], ymax = 2;
	struct chart c;
	unsigned int i;

	text_at(f, 90, top - 28, "start", "sub",
		"FAT probe: small-write speed of the first AUs against AUs far from the start");
	if (!fat->measured) {
		empty_panel(f, top, h, r->skip_reason ?
			    "not measured: the write steps need --destructive" :
			    "not measured");
		return;
	}
	for (i = 0; i < fat->naus && i < AUTO_FAT_MAX; i++) {
		x[i] = i;
		yl[i] = fat->lin_ratio[i];
		yr[i] = fat->rnd_ratio[i];
		ymax = fmax(ymax, fmax(yl[i], yr[i]));
	}
	chart_init(&c, f, top, PAGE_W, h);
	c.x = (struct axis){ .unit = AX_NUM, .whole = 1, .label = "AU number" };
	c.y = (struct axis){ .unit = AX_NUM, .label = "speed / far AUs" };
	axis_fit_linear(&c.x, 0, fat->naus > 1 ? fat->naus - 1 : 1);
	axis_fit_linear(&c.y, 0, ymax * 1.1);
	chart_frame(&c);
	chart_series(&c, "in order", x, yl, i, 1, NULL);
	chart_series(&c, "out of order", x, yr, i, 1, NULL);
	if (fat->found) {
		char text[64];

		if (fat->count > 1)
			snprintf(text, sizeof(text), "FAT area: AUs %u-%u",
				 fat->start, fat->start + fat->count - 1);
		else
			snprintf(text, sizeof(text), "FAT area: AU %u",
				 fat->start);
		chart_vmark(&c, "fat", fat->start, fat->start, "#b00000",
			    text, 0);
	}
}

int plot_auto(FILE *f, const char *title, const struct auto_result *r,
	      const struct class_result *cr)
{
	const double h = 1280;
	const struct auto_table *t = &r->tables[r->chosen];
	int ret = 0;

	page_begin(f, PAGE_W, h, title);
	verdict_lines(f, r, cr, 56);
	if (r->ntables) {
		char sub[128], bs[FMT_LEN];

		snprintf(sub, sizeof(sub),
			 "align test with %s blocks (the table the verdict comes from)",
			 fmt_size(bs, t->blocksize_byte));
		text_at(f, 90, 182, "start", "sub", sub);
		ret = align_chart(f, 210, PAGE_W, 300, t->rows, t->nrows,
				  &r->align);
	} else {
		empty_panel(f, 210, 300, "no align table");
	}
	if (ret)
		return ret;
	open_panel(f, r, 600, 250);
	fat_panel(f, r, 950, 250);
	return page_end(f);
}
