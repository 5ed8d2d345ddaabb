// SPDX-License-Identifier: GPL-2.0-only
/*
 * --auto's align tables judged: each table's verdict from its rows, the
 * erase and page size from the tables together, the allocation group from
 * the group probe's rows.  Pure: the record in, the verdict out.
 */
#include <stdlib.h>

#include "analyze.h"
#include "auto.h"
#include "layout.h"

int auto_table_decide(struct auto_table *t)
{
	return analyze_align(t->rows, t->nrows, &t->verdict);
}

/*
 * Is table t sure enough to skip the rest of its reads?  A table read
 * around an erase size only confirms it; a whole table also gives the
 * page, and a program unit it saw but doubts may firm up.  When writes
 * will settle the erase size (writes), the page is all it must give.
 */
int auto_table_sure(const struct auto_table *t, int writes)
{
	const struct align_verdict *v = &t->verdict;

	if (writes && !t->around_byte)
		return v->page.confidence >= ANALYZE_CONF_MEDIUM &&
		       v->plane.confidence != ANALYZE_CONF_LOW;
	if (v->erase.confidence != ANALYZE_CONF_HIGH)
		return 0;
	return t->around_byte ||
	       (v->page.confidence == ANALYZE_CONF_HIGH &&
		v->plane.confidence != ANALYZE_CONF_LOW);
}

/* How many tables found this erase size with at least low confidence. */
static size_t erase_votes(const struct auto_result *r, uint64_t size)
{
	size_t i, n = 0;

	for (i = 0; i < r->ntables; i++)
		n += r->tables[i].verdict.erase.size_byte == size &&
		     r->tables[i].verdict.erase.confidence >= ANALYZE_CONF_LOW;
	return n;
}

/*
 * A table of larger blocks starts higher up: its smallest step may be a
 * program unit over a page it cannot see (4 KiB pages read four at a
 * time: a table of 4 KiB blocks, rows from 8 KiB, shows a step at 16 KiB
 * only).  A table that agrees on the erase size and shows a page below
 * the first row of the chosen one reads further down: it decides.
 */
static size_t page_below(const struct auto_result *r, size_t best,
			 size_t page)
{
	uint64_t first = 2 * r->tables[page].blocksize_byte;
	size_t i, below = page;

	/* the surest of them (a third table may follow a low first one) */
	for (i = 0; i < r->ntables; i++) {
		const struct align_verdict *v = &r->tables[i].verdict;

		if (v->erase.size_byte ==
		    r->tables[best].verdict.erase.size_byte &&
		    v->page.size_byte && v->page.size_byte < first &&
		    (below == page || v->page.confidence >
		     r->tables[below].verdict.page.confidence))
			below = i;
	}
	return below;
}

/*
 * The group from table best, or, when it only read around the erase size,
 * from a whole table that agrees on that size.
 */
static struct analyze_step table_group(const struct auto_result *r,
				       size_t best)
{
	const struct analyze_step none = { 0 };
	uint64_t erase = r->tables[best].verdict.erase.size_byte;
	size_t i;

	if (!r->tables[best].around_byte)
		return r->tables[best].verdict.group;
	for (i = 0; i < r->ntables; i++)
		if (!r->tables[i].around_byte &&
		    r->tables[i].verdict.erase.size_byte == erase)
			return r->tables[i].verdict.group;
	return none;
}

/*
 * May the page come from table i when the erase size comes from best?
 * From a table that agrees on the erase size; when best read only around
 * it (the first table's page was clear), from the tables that read below.
 */
static int page_from(const struct auto_result *r, size_t best, size_t i)
{
	if (r->tables[best].around_byte)
		return !r->tables[i].around_byte;
	return r->tables[i].verdict.erase.size_byte ==
	       r->tables[best].verdict.erase.size_byte;
}

/*
 * On a device of large logical blocks (4 KiB: a 4Kn device, some USB
 * sticks) no table reads blocks smaller than two of them: the rows start
 * at four blocks (16 KiB), and a page of half a block or less costs a
 * read across its boundary what it costs elsewhere.  So a step at the
 * first row may be four such pages read at once, and is no sure page;
 * and where the rows below the step are raised as well (every boundary
 * of one block costs), the page is that block at most, the step a
 * program unit over it.  Neither order of a block's pages shows: low.
 */
#define FLOOR_PART 0.25		/* rows below the step this much of it */
#define FLOOR_UNIT_MAX 4	/* a program unit of this many pages */

static void sector_pages(struct auto_result *r)
{
	const uint64_t bs = r->ntables ? r->tables[0].blocksize_byte : 0;
	struct analyze_step *p = &r->align.page, *u = &r->align.plane;

	if (bs <= auto_table_block(0, 0) || !p->size_byte)
		return;
	if (p->lower_ns > FLOOR_PART * p->upper_ns &&
	    p->lower_ns > 2 * p->sigma_ns) {
		if (!u->size_byte && p->size_byte <= FLOOR_UNIT_MAX * bs) {
			*u = *p;
			if (u->confidence > ANALYZE_CONF_MEDIUM)
				u->confidence = ANALYZE_CONF_MEDIUM;
		}
		p->size_byte = bs;
		p->confidence = ANALYZE_CONF_LOW;
	} else if (p->size_byte <= 2 * bs &&
		   p->confidence > ANALYZE_CONF_LOW) {
		p->confidence = ANALYZE_CONF_LOW;
	}
}

/*
 * Pick the erase size from the most confident table, the page size from
 * the tables that agree with it.  A weak step that no second table
 * confirms is what noise looks like (a loop device over a file has no
 * erase blocks at all): it is reported as none.
 */
void auto_align_choose(struct auto_result *r)
{
	size_t i, best = 0, page = 0;

	for (i = 1; i < r->ntables; i++)
		if (r->tables[i].verdict.erase.confidence >
		    r->tables[best].verdict.erase.confidence)
			best = i;
	page = best;
	for (i = 0; i < r->ntables; i++) {
		const struct align_verdict *v = &r->tables[i].verdict;

		if (page_from(r, best, i) &&
		    (r->tables[page].around_byte ||
		     v->page.confidence > r->tables[page].verdict.page.confidence))
			page = i;
	}
	page = page_below(r, best, page);
	r->chosen = best;
	r->align.erase = r->tables[best].verdict.erase;
	r->align.page = r->tables[page].verdict.page;
	r->align.plane = r->tables[page].verdict.plane;
	r->align.group = table_group(r, best);
	sector_pages(r);
	if (r->align.erase.confidence == ANALYZE_CONF_LOW &&
	    r->ntables > 1 && erase_votes(r, r->align.erase.size_byte) < 2) {
		r->align.erase.size_byte = 0;
		r->align.erase.confidence = ANALYZE_CONF_NONE;
		r->align.page.size_byte = 0;
		r->align.page.confidence = ANALYZE_CONF_NONE;
		r->align.plane.size_byte = 0;
		r->align.plane.confidence = ANALYZE_CONF_NONE;
		r->align.group.size_byte = 0;
		r->align.group.confidence = ANALYZE_CONF_NONE;
	}
}

/*
 * The group probe's rows (see probes/align.c) decide the allocation
 * group when they show one.
 */
void auto_group_decide(struct auto_result *r)
{
	const struct auto_group *p = &r->group_probe;
	struct analyze_step g;

	if (p->rows && !analyze_group_rows(p->rows, p->nrows, p->spacing_byte,
					   r->align.erase.size_byte, &g))
		r->align.group = g;
}
