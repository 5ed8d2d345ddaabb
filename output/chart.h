/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The chart engine of --plot: an SVG page written as plain text, panels
 * with two axes (linear or log), series of points and vertical marks.
 * It knows no test: output/plot.c and output/plotauto.c feed it.  What
 * a script may read in the charts (series, marks) is told in plot.h.
 */
#ifndef FLASHBENCH_CHART_H
#define FLASHBENCH_CHART_H

#include <stdint.h>
#include <stdio.h>

#define CHART_PAGE_W	900.0	/* px, a single chart */
#define CHART_PAGE_H	560.0

/* What an axis counts, which decides its tick labels. */
enum chart_unit {
	CHART_BYTES,		/* sizes, fmt_size() */
	CHART_NS,		/* times, fmt_time() */
	CHART_BPS,		/* throughput, fmt_rate() */
	CHART_MIB,		/* offsets in MiB */
	CHART_NUM,		/* plain numbers */
};

/* One axis of a chart. */
struct chart_axis {
	double lo, hi;		/* range, in the unit */
	int log;		/* 1: log scale (lo > 0) */
	int whole;		/* 1: counts things, ticks at integers only */
	enum chart_unit unit;
	const char *label;	/* axis title */
};

/* A panel of the page: where it is and its axes. */
struct chart {
	FILE *f;
	double x0, y0;		/* top left of the plot area, px */
	double w, h;		/* size of the plot area, px */
	struct chart_axis x, y;
	unsigned int nseries;	/* series drawn so far, for colours */
	double legend_x;	/* where the next legend entry goes, px */
	unsigned int legend_row; /* legend rows above the first */
};

/* Begin the SVG document: its size in px, title, styles, background. */
void chart_page_begin(FILE *f, double w, double h, const char *title);

/* Finish the document; 0 or -EIO. */
int chart_page_end(FILE *f);

/* <text> at x, y with the given anchor and class, content escaped. */
void chart_text(FILE *f, double x, double y, const char *anchor,
		const char *cls, const char *s);

/* A chart filling the usual place on a page of width w. */
void chart_init(struct chart *c, FILE *f, double top, double w, double h);

/* Fit a linear axis to [lo, hi], with zero, its ends rounded to ticks. */
void chart_fit_linear(struct chart_axis *a, double lo, double hi);

/* Fit a log axis to powers of base around [lo, hi] (lo > 0). */
void chart_fit_log(struct chart_axis *a, double lo, double hi, double base);

/* Axes, grid, tick labels and axis titles of a chart. */
void chart_frame(struct chart *c);

/* Where value v lies on the page, px: along x, along y. */
double chart_px_x(const struct chart *c, double v);
double chart_px_y(const struct chart *c, double v);

/*
 * One series: n points (x[i], y[i]), joined in the order of x by a line
 * when line is set; tips[i] (may be NULL) is the tooltip of point i.
 */
void chart_series(struct chart *c, const char *name, const double *x,
		  const double *y, size_t n, int line,
		  const char *const *tips);

/* One legend entry above the plot area, after the ones before it. */
void chart_legend(struct chart *c, const char *color, const char *name);

/* A dashed vertical mark at x, named kind, labelled text, in row row. */
void chart_vmark(struct chart *c, const char *kind, double x,
		 uint64_t bytes, const char *color, const char *text, int row);

#endif /* FLASHBENCH_CHART_H */
