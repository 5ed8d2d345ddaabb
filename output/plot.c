// SPDX-License-Identifier: GPL-2.0-only
/*
 * --plot of the classic tests: align, scatter, interval and the writing
 * tests' throughput tables, each one page drawn by the chart engine
 * (chart.c).  See plot.h.  Times and throughputs go on linear axes from
 * zero, except interval's times, which span three decades.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "chart.h"
#include "format.h"
#include "plot.h"

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
int plot_align_chart(FILE *f, double top, double w, double h,
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
	c.x = (struct chart_axis){ .unit = CHART_BYTES, .label = "alignment (log scale)" };
	c.y = (struct chart_axis){ .unit = CHART_NS, .label = "read time" };
	chart_fit_log(&c.x, amin ? amin : 1024, amax ? amax : 2048, 2);
	chart_fit_linear(&c.y, lo, hi * 1.05);
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
			chart_text(f, c.x0 + c.w / 2, c.y0 + c.h / 2, "middle",
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

	chart_page_begin(f, CHART_PAGE_W, CHART_PAGE_H, title);
	if (v) {
		char sub[160], e[FMT_LEN], p[FMT_LEN];

		snprintf(sub, sizeof(sub),
			 "diff = on - (pre + post) / 2; erase size %s, page size %s",
			 v->erase.size_byte ? fmt_size(e, v->erase.size_byte) :
					      "none",
			 v->page.size_byte ? fmt_size(p, v->page.size_byte) :
					     "none");
		chart_text(f, CHART_PAGE_W / 2, 46, "middle", "sub", sub);
	}
	ret = plot_align_chart(f, 90, CHART_PAGE_W, CHART_PAGE_H - 150, rows,
			       n, v);
	return ret ? ret : chart_page_end(f);
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
	chart_page_begin(f, CHART_PAGE_W, CHART_PAGE_H, title);
	chart_text(f, CHART_PAGE_W / 2, 46, "middle", "sub",
		   "minimum read time at each offset; bands and steps show how the card maps its blocks");
	chart_init(&c, f, 90, CHART_PAGE_W, CHART_PAGE_H - 150);
	c.x = (struct chart_axis){ .unit = CHART_MIB, .label = "offset" };
	c.y = (struct chart_axis){ .unit = CHART_NS, .label = "read time" };
	chart_fit_linear(&c.x, 0, xmax > 0 ? xmax : 1);
	chart_fit_linear(&c.y, 0, ymax * 1.05);
	chart_frame(&c);
	chart_series(&c, "time", x, y, n, 0, NULL);
	free(x);
	return chart_page_end(f);
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
	chart_page_begin(f, CHART_PAGE_W, CHART_PAGE_H, title);
	snprintf(sub, sizeof(sub),
		 "regression (sizes from the fourth up): %s, %s access time",
		 fmt_rate(r, fit->bytes_per_s),
		 fmt_time(a, (int64_t)fit->access_ns));
	chart_text(f, CHART_PAGE_W / 2, 46, "middle", "sub", sub);
	chart_init(&c, f, 90, CHART_PAGE_W, CHART_PAGE_H - 150);
	c.x = (struct chart_axis){ .unit = CHART_BYTES, .label = "read size (log scale)" };
	c.y = (struct chart_axis){ .unit = CHART_NS, .label = "read time (log scale)" };
	chart_fit_log(&c.x, n ? x[0] : 512, n ? x[n - 1] : 1024, 2);
	chart_fit_log(&c.y, lo, hi, 10);
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
			fprintf(f, "%s%.1f,%.1f", first ? "" : " ", chart_px_x(&c, xs),
				chart_px_y(&c, t));
			first = 0;
		}
		fputs("\"/>\n</g>\n", f);
		chart_legend(&c, "#000", "regression");
	}
	free(x);
	return chart_page_end(f);
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
	chart_page_begin(f, CHART_PAGE_W, CHART_PAGE_H, title);
	chart_text(f, CHART_PAGE_W / 2, 46, "middle", "sub", sub);
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
	chart_init(&c, f, 90 + 16.0 * (ncol > 6), CHART_PAGE_W,
		   CHART_PAGE_H - 150);
	c.x = (struct chart_axis){ .unit = CHART_BYTES, .label = "access size (log scale)" };
	c.y = (struct chart_axis){ .unit = CHART_BPS, .label = "throughput" };
	chart_fit_log(&c.x, xmin > 0 ? xmin : 512, xmax > 0 ? xmax : 1024, 2);
	chart_fit_linear(&c.y, 0, ymax * 1.05);
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
	return chart_page_end(f);
}
