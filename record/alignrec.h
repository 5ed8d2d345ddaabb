/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What an align table says, as records keep it: the steps the analysis
 * (verdict/analyze.h) finds in the diff column, each with its size, its
 * confidence and the numbers behind it.  --auto's record (autorecord.h)
 * holds one for its reads; the plots and the text show them.  And the
 * tables of an align table's rows as records keep them (rectab.h).
 */
#ifndef FLASHBENCH_ALIGNREC_H
#define FLASHBENCH_ALIGNREC_H

#include <stddef.h>
#include <stdint.h>

#include "rectab.h"
#include "rows.h"

/* How sure the analysis is of a size; ordered, none < low < ... */
enum analyze_confidence {
	ANALYZE_CONF_NONE = 0,
	ANALYZE_CONF_LOW,
	ANALYZE_CONF_MEDIUM,
	ANALYZE_CONF_HIGH,
};

/* One detected step in the diff column and the numbers behind it. */
struct analyze_step {
	uint64_t size_byte;		/* erase or page size; 0 = none */
	uint64_t candidate_byte;	/* best split tried, even if rejected */
	enum analyze_confidence confidence;
	double upper_ns;		/* median diff, rows above */
	double lower_ns;		/* median diff, rows below */
	double sigma_ns;		/* robust noise (1.4826 * MAD) */
	double ratio;			/* upper / lower, floored */
	double t;			/* robust Welch t, unitless */
	double rel;			/* step / read; 0: unknown */
	size_t n_upper;			/* rows in the upper group */
	size_t n_lower;			/* rows in the lower group */
	size_t n_misfit;		/* rows nearer the other level
					   or set aside as outliers */
	size_t n_skipped;		/* rows set aside as outliers */
	size_t n_drop;			/* rows far below their level */
	size_t n_between;		/* rows part way to the other level */
	int lone_page;			/* lower group: one row, a page level */
	int clean_below;		/* lower group a level between: every
					   row above those below it */
	double spike_p;			/* chance spikes made the step */
};

/* What one align table says. */
struct align_verdict {
	struct analyze_step erase;	/* erase block (AU) size */
	struct analyze_step page;	/* page size: the smallest step */
	struct analyze_step plane;	/* program unit (multi-plane access),
					   a few pages */
	struct analyze_step group;	/* allocation group, far above */
};

/* A confidence's words, by enum analyze_confidence. */
extern const char *const align_conf_names[4];

/*
 * An align row's medians (-a's "results", --auto's "rows"), over struct
 * align_row; and its reads at every position ("positions", an array
 * beside the rows: each entry's "align" is its row's).
 */
extern const struct rt_table align_row_table;
extern const struct rt_table align_position_table;

#endif /* FLASHBENCH_ALIGNREC_H */
