// SPDX-License-Identifier: GPL-2.0-only
/*
 * The classic read tests' rows as text, and the align rows as JSON (see
 * rowtext.h); the tests, which measure them, are modes/align.c,
 * scatter.c and interval.c.
 */
#include <inttypes.h>

#include "alignrec.h"
#include "format.h"
#include "rowtext.h"

void print_align(FILE *out, const struct align_row *rows, size_t nrows)
{
	char pre[FMT_LEN], on[FMT_LEN], post[FMT_LEN], diff[FMT_LEN];
	size_t i;

	for (i = 0; i < nrows; i++)
		fprintf(out, "align %" PRIu64 "\tpre %s\ton %s\tpost %s\tdiff %s\n",
			rows[i].align_byte, fmt_time(pre, rows[i].pre_ns),
			fmt_time(on, rows[i].on_ns),
			fmt_time(post, rows[i].post_ns),
			fmt_time(diff, rows[i].diff_ns));
}

void json_align(struct json *j, const struct align_row *rows, size_t nrows)
{
	size_t i;

	for (i = 0; i < nrows; i++)
		rt_write_object(j, NULL, &align_row_table, &rows[i]);
}

void print_scatter(FILE *out, const struct scatter_point *pts, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		fprintf(out, "%f\t%f\n", pts[i].off_byte / (1024.0 * 1024.0),
			pts[i].time_ns / 1e6);
}

void print_interval(FILE *out, const struct interval_row *rows,
		    size_t nrows)
{
	char mn[FMT_LEN], avg[FMT_LEN], mx[FMT_LEN], acc[FMT_LEN];
	struct interval_fit fit = interval_regress(rows, nrows);
	size_t i;

	for (i = 0; i < nrows; i++)
		fprintf(out, "%" PRIu64 " bytes: min %s avg %s max %s: %g MB/s\n",
			rows[i].len_byte, fmt_time(mn, rows[i].min_ns),
			fmt_time(avg, rows[i].avg_ns),
			fmt_time(mx, rows[i].max_ns),
			rows[i].len_byte * 1e3 / rows[i].min_ns);
	fprintf(out, "%g MB/s, %s access time\n", fit.bytes_per_s / 1e6,
		fmt_time(acc, (int64_t)fit.access_ns));
	/* overhead: how far each size lies above the regression line */
	for (i = 0; i < nrows; i++)
		fprintf(out, "bytes %" PRIu64 ", time %" PRIu64 " overhead %g\n",
			rows[i].len_byte, rows[i].min_ns,
			interval_overhead_ns(&fit, &rows[i]));
}
