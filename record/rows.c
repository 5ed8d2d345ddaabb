// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the classic read tests' rows give besides their figures (see
 * rows.h): two readings of an align table folded into one (--auto
 * reads a table again where it was unsure), and interval's regression
 * line and how far each size lies above it.  Pure computation on the
 * rows, shared by the measuring (modes/, probes/) and the showing
 * (output/).
 */
#include <stddef.h>
#include <stdint.h>

#include "rows.h"

void align_fold(struct align_row *a, const struct align_row *b, size_t n)
{
	size_t r, i, k;

	for (r = 0; r < n; r++, a++, b++) {
		int64_t sum[3] = { 0, 0, 0 };

		if (a->align_byte != b->align_byte || a->npos != ALIGN_POS ||
		    b->npos != ALIGN_POS)
			continue;
		for (i = 0; i < ALIGN_POS; i++) {
			int64_t *t = a->pos_ns[i];

			for (k = 0; k < 3; k++) {
				if (b->pos_ns[i][k] < t[k])
					t[k] = b->pos_ns[i][k];
				sum[k] += t[k];
			}
			/* as the VM's diff: on - (pre + post) / 2 */
			a->pos_diff_ns[i] = t[1] - (t[0] + t[2]) / 2;
		}
		a->pre_ns = sum[0] / ALIGN_POS;
		a->on_ns = sum[1] / ALIGN_POS;
		a->post_ns = sum[2] / ALIGN_POS;
		a->diff_ns = a->on_ns - (a->pre_ns + a->post_ns) / 2;
	}
}

struct interval_fit interval_regress(const struct interval_row *rows,
				     size_t nrows)
{
	struct interval_fit fit = { 0, 0 };
	double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0, slope, det;
	size_t i;

	/* the three smallest sizes are dominated by command overhead */
	if (nrows < 5)
		return fit;
	for (i = 3; i < nrows; i++) {
		double x = (double)rows[i].len_byte, y = (double)rows[i].min_ns;
		/*
		 * Timing noise is proportional to the time, so weigh each
		 * point by 1/y^2: least squares on relative errors.  Plain
		 * least squares lets the jitter of the longest reads swamp
		 * the access time.
		 */
		double w = y > 0 ? 1.0 / (y * y) : 0;

		sw += w;
		sx += w * x;
		sy += w * y;
		sxx += w * x * x;
		sxy += w * x * y;
	}
	det = sw * sxx - sx * sx;
	if (det <= 0)
		return fit;
	slope = (sw * sxy - sx * sy) / det;	/* ns per byte */
	fit.access_ns = (sy - slope * sx) / sw;
	fit.bytes_per_s = slope > 0 ? 1e9 / slope : 0;
	return fit;
}

double interval_overhead_ns(const struct interval_fit *fit,
			    const struct interval_row *row)
{
	double ns_per_byte = fit->bytes_per_s > 0 ? 1e9 / fit->bytes_per_s : 0;

	return row->min_ns - (fit->access_ns + ns_per_byte * row->len_byte);
}
