// SPDX-License-Identifier: GPL-2.0-only
/*
 * The chart engine of --plot (see chart.h): one small engine for every
 * chart, so the tests' charts look and read alike.  Sizes and
 * alignments go on log axes because the tests halve or double them.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "c.h"
#include "chart.h"
#include "format.h"
#include "plot.h"

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
void chart_text(FILE *f, double x, double y, const char *anchor,
		const char *cls, const char *s)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" class=\"%s\">",
		x, y, anchor, cls);
	xml_text(f, s);
	fputs("</text>\n", f);
}

void chart_page_begin(FILE *f, double w, double h, const char *title)
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
	chart_text(f, w / 2, 26, "middle", "title", title);
}

/* Finish the document; 0 or -EIO. */
int chart_page_end(FILE *f)
{
	fputs("</svg>\n", f);
	if (fflush(f) == EOF || ferror(f))
		return -EIO;
	return 0;
}

/* Where v lies on axis a, from 0 to 1. */
static double axis_pos(const struct chart_axis *a, double v)
{
	if (a->log) {
		if (v <= 0)
			v = a->lo;
		return (log(v) - log(a->lo)) / (log(a->hi) - log(a->lo));
	}
	return (v - a->lo) / (a->hi - a->lo);
}

double chart_px_x(const struct chart *c, double v)
{
	return c->x0 + c->w * axis_pos(&c->x, v);
}

double chart_px_y(const struct chart *c, double v)
{
	return c->y0 + c->h * (1 - axis_pos(&c->y, v));
}

/* A tick label for value v of axis a. */
static void tick_label(char *buf, const struct chart_axis *a, double v)
{
	switch (a->unit) {
	case CHART_BYTES:
		fmt_size(buf, (uint64_t)llround(v));
		break;
	case CHART_NS:
		fmt_time(buf, (int64_t)llround(v));
		break;
	case CHART_BPS:
		if (v == 0)
			snprintf(buf, FMT_LEN, "0");
		else
			fmt_rate(buf, v);
		break;
	case CHART_MIB:
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
static double axis_step(const struct chart_axis *a, double span)
{
	double step = nice_step(span, 6);

	return a->whole && step < 1 ? 1 : step;
}

/*
 * Fit a linear axis to [lo, hi], always including zero, and round its
 * ends to ticks.
 */
void chart_fit_linear(struct chart_axis *a, double lo, double hi)
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
void chart_fit_log(struct chart_axis *a, double lo, double hi, double base)
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
static size_t axis_ticks(const struct chart_axis *a, double *t, size_t max)
{
	size_t n = 0, skip;
	double v, step, base;

	if (!a->log) {
		step = axis_step(a, a->hi - a->lo);
		for (v = a->lo; v <= a->hi + step * 1e-6 && n < max; v += step)
			t[n++] = fabs(v) < step * 1e-9 ? 0 : v;
		return n;
	}
	base = a->unit == CHART_BYTES ? 2 : 10;
	skip = (size_t)ceil(log(a->hi / a->lo) / log(base) / 12);
	if (skip < 1)
		skip = 1;
	step = pow(base, (double)skip);
	for (v = a->lo; v <= a->hi * 1.0001 && n < max; v *= step)
		t[n++] = v;
	return n;
}

/* Axes, grid, tick labels and axis titles of a chart. */
void chart_frame(struct chart *c)
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
		p = chart_px_x(c, t[i]);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
			p, c->y0, p, c->y0 + c->h);
		tick_label(buf, &c->x, t[i]);
		chart_text(f, p, c->y0 + c->h + 16, "middle", "tick", buf);
	}
	n = axis_ticks(&c->y, t, 64);
	for (i = 0; i < n; i++) {
		p = chart_px_y(c, t[i]);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n",
			c->x0, p, c->x0 + c->w, p, t[i] == 0 ? "#888" : "#ddd");
		tick_label(buf, &c->y, t[i]);
		chart_text(f, c->x0 - 6, p + 4, "end", "tick", buf);
	}
	chart_text(f, c->x0 + c->w / 2, c->y0 + c->h + 36, "middle", "axis",
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
void chart_legend(struct chart *c, const char *color, const char *name)
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
	chart_text(c->f, c->x0 + 28 + c->legend_x, y, "start", "legend", name);
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
void chart_series(struct chart *c, const char *name, const double *x,
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
				chart_px_x(c, x[idx[i]]),
				chart_px_y(c, y[idx[i]]));
		fputs("\"/>\n", f);
		free(idx);
	}
	if (n > PLOT_MAX_CIRCLES) {
		/* zero-length strokes with round caps: one dot per M */
		fprintf(f, "<path class=\"marks\" fill=\"none\" stroke=\"%s\" stroke-width=\"3\" stroke-linecap=\"round\" d=\"",
			color);
		for (i = 0; i < n; i++)
			fprintf(f, "M%.1f %.1fh0", chart_px_x(c, x[i]), chart_px_y(c, y[i]));
		fputs("\"/>\n", f);
	} else {
		for (i = 0; i < n; i++) {
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\">",
				chart_px_x(c, x[i]), chart_px_y(c, y[i]),
				color);
			if (tips && tips[i]) {
				fputs("<title>", f);
				xml_text(f, tips[i]);
				fputs("</title>", f);
			}
			fputs("</circle>\n", f);
		}
	}
	fputs("</g>\n", f);
	chart_legend(c, color, name);
}

/* A dashed vertical mark at x, named kind, labelled text. */
void chart_vmark(struct chart *c, const char *kind, double x,
			uint64_t bytes, const char *color, const char *text,
			int row)
{
	double p = chart_px_x(c, x);

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
void chart_init(struct chart *c, FILE *f, double top, double w,
		       double h)
{
	memset(c, 0, sizeof(*c));
	c->f = f;
	c->x0 = 90;
	c->y0 = top;
	c->w = w - 90 - 30;
	c->h = h;
}
