/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The align-table analysis' own parts, shared by its files
 * (verdict/analyze.c, steptest.c, group.c, and the level model they all
 * use, levels.c); not for use elsewhere.
 */
#ifndef FLASHBENCH_ANALYZEINT_H
#define FLASHBENCH_ANALYZEINT_H

#include <stddef.h>
#include <stdint.h>

#include "analyze.h"

/* Most steps one table is read for: page, program unit, erase, group. */
#define MAX_STEPS 5

/* 1.4826 * MAD estimates a normal standard deviation. */
#define MAD_TO_SIGMA 1.4826

/*
 * A row this many sigmas off its level towards the other, and this part
 * of the step at least: a ramp (its rows sit a third or half way; a row a
 * few percent of the step up is a read's own variation on a quiet card).
 */
#define BETWEEN_SIGMA 3.0
#define BETWEEN_STEP 0.1

/* Why a row is set aside (0: it is not). */
#define SKIP_ASTRAY 1	/* the model does not explain it */
#define SKIP_GROUP 2	/* a few of its reads crossed a larger boundary */
/* Most a page can be (a step below it may be the page). */
#define PAGE_MAX_BYTE (64ULL << 10)

/* The table under analysis and scratch space for the fits. */
struct actx {
	size_t n;
	size_t ncand;		/* candidate sizes tried */
	const uint64_t *align;	/* bytes */
	const double *diff;	/* ns */
	const struct align_row *rows;	/* as given: their positions */
	uint64_t top;		/* largest alignment, bytes */
	double read_ns;		/* median read time; 0 if unknown */
	double *scratch;	/* n values */
	unsigned char *skip;	/* rows set aside as outliers: SKIP_* */
	size_t nskip;
};

/*
 * One fitted level model: steps at sizes size[0] < size[1] < ..., each a
 * multiple of the one before.  Group g holds the rows whose alignment is
 * a multiple of size[g - 1] but not of size[g] (group 0: of none).
 */
struct fit {
	uint64_t size[MAX_STEPS];	/* bytes */
	size_t ns;			/* steps */
	double med[MAX_STEPS + 1];	/* ns, median of each group */
	size_t cnt[MAX_STEPS + 1];
	double cost;			/* ns, sum of absolute residuals */
	int valid;			/* groups non-empty, levels rising */
};

/* The level (0..ns) of alignment align against the step sizes size[]. */
int an_level_of(uint64_t align, const uint64_t *size, size_t ns);

/* The group of row i under f's sizes; -1 if it is set aside. */
int an_row_group(const struct actx *c, size_t i, const struct fit *f);

/* Was row i raised above max by only a few of its reads (a larger
 * boundary crossed by some positions, not a level)? */
int an_few_reads_raised(const struct actx *c, size_t i, double max);

/* Judge step j of the fit f (between its groups j and j + 1) into s. */
void an_step_test(struct actx *c, const struct fit *f, int j,
		  struct analyze_step *s);

/*
 * The allocation group from the positions of the rows at erase level
 * (the fit f, its erase step e) into s: 1 found, 0 none, -errno.
 */
int an_pos_group(const struct actx *c, const struct fit *f, size_t e,
		 struct analyze_step *s);

#endif /* FLASHBENCH_ANALYZEINT_H */
