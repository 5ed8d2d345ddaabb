// SPDX-License-Identifier: GPL-2.0-only
/*
 * --auto: the survey the classic tool's users did by hand, as decisions.
 *
 * 1. Align tables (read-only).  Alignments 2^n and 3 * 2^n are sampled at
 *    positions i * 3 * 2^m, a multiple of every alignment measured, so a
 *    boundary of an alignment A is an erase-block boundary exactly when A
 *    is a multiple of the erase size, for SDXC's 3 * 2^n AUs as for powers
 *    of two.  analyze_align() decides from the levels of the diff column.
 *    Block size 1 KiB first; 4 KiB and 16 KiB only when that is unclear.
 * 2. FAT area (writes).  Small writes at the start of each AU from the
 *    first, in order (as -f) and out of order (as -f --random), against
 *    the same in AUs far from the start, until the speed has settled; a run
 *    of AUs clearly faster in either order is the optimised area.
 * 3. Open AUs (writes), linear then random order.  A probe with nr AUs
 *    writes the same chunk position into each AU in turn, position after
 *    position.  While the card keeps nr AUs open a write costs what it
 *    costs with one AU; one AU more and every turn forces garbage
 *    collection, many times slower.  nr grows by half until a probe
 *    collapses, then steps up one at a time from the last nr that held.  A
 *    probe stops as soon as it has clearly held or clearly collapsed (its
 *    warm-up counts for the AUs the probe before held open), so
 *    the search costs a small part of the classic procedure's device time.
 * 0. The erase size from writes (when the tables are unsure, before 2 and
 *    3): see erase_search().
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "auto.h"
#include "format.h"
#include "vm.h"

#define AUTO_AU_SPACING 12	/* probe AUs are every 12th AU, as -O */
#define AUTO_MAX_RANGES 256	/* ranges the write steps announce */
#define AUTO_WARMUP 1		/* chunk positions not measured */
#define AUTO_POSITIONS 12	/* chunk positions measured at most */
#define AUTO_HELD_PASSES 4	/* fast passes that show a probe held */
#define AUTO_COLLAPSE 4.0	/* slower than this: collapsed */
#define AUTO_HOLD 1.5		/* faster than this: held */
#define AUTO_GC_SURE 40.0	/* slower than this: a garbage collection
				   beyond doubt (a pause of a few ms is not) */
#define AUTO_CHUNK 16384	/* probe write size, at least a page */
#define AUTO_MERGE_WRITES 2	/* writes out of order on an AU written
				   whole, to tell a merge per write (the
				   least kept: pauses only add) */
#define AUTO_MERGE_PART 0.6	/* each costs this part of writing the AU
				   whole, at least: a merge (a copy is no
				   cheaper; slow programming of a 64 KiB
				   page at 2 MB/s is 0.4 of a 1 MiB AU) */
#define AUTO_ALIGN_COUNT 3	/* reads per align position (min kept) */
#define AUTO_ALIGN_FIRST 2	/* of them, read before the first look */
#define AUTO_ALIGN_TOP (3ULL << 30)	/* largest spacing and alignment */

static uint64_t round_up(uint64_t x, uint64_t m)
{
	return (x + m - 1) / m * m;
}

/* The first AU of the open-AU probes: past the FAT probe and 64 MiB. */
static uint64_t probe_base(uint64_t erase)
{
	uint64_t base = round_up(64 << 20, erase);

	if (base < 16 * erase)
		base = 16 * erase;
	return base;
}

/*
 * AUs between probe AUs: every 12th, as -O, or closer on a device too
 * small for AUTO_MAX_NR of them so (a 1 GiB card of 24 MiB AUs).
 */
static uint64_t probe_spacing(uint64_t dev_size, uint64_t erase)
{
	uint64_t base = probe_base(erase), room;

	room = dev_size > base ? (dev_size - base) / erase : 0;
	room /= AUTO_MAX_NR;
	return room >= AUTO_AU_SPACING ? AUTO_AU_SPACING : room ? room : 1;
}

/* The largest nr the device has room for, at most AUTO_MAX_NR. */
static unsigned int probe_max_nr(uint64_t dev_size, uint64_t erase)
{
	uint64_t base = probe_base(erase);
	uint64_t spacing = probe_spacing(dev_size, erase);
	unsigned int nr = 0;

	while (nr < AUTO_MAX_NR &&
	       base + ((uint64_t)nr * spacing + 1) * erase <= dev_size)
		nr++;
	return nr;
}

/* The AUs far from the start that an ordinary AU is measured in. */
static uint64_t fat_ref_au(uint64_t dev_size, uint64_t erase, unsigned int j)
{
	return dev_size / erase * 3 / 8 + 7 + (uint64_t)j * AUTO_AU_SPACING;
}

/* How many AUs the FAT probe may look at: at most 64 MiB or 16 AUs. */
static unsigned int fat_max_scan(uint64_t dev_size, uint64_t erase)
{
	uint64_t n = (64ULL << 20) / erase;

	if (n < 16)
		n = 16;
	if (n > AUTO_FAT_MAX)
		n = AUTO_FAT_MAX;
	if (n > dev_size / erase / 4)
		n = dev_size / erase / 4;
	return (unsigned int)n;
}

/*
 * It looks at 8 MiB at least (a FAT area at 4-8 MiB on a card of 512 KiB
 * AUs starts at AU 8) and 5 AUs at least (an area a few AUs in), and 2
 * ordinary AUs after the last fast one (each AU looked at costs a garbage
 * collection: the one it closes, of a whole AU on a card of large AUs).
 */
static unsigned int fat_min_scan(uint64_t dev_size, uint64_t erase)
{
	uint64_t n = (8ULL << 20) / erase, max = fat_max_scan(dev_size, erase);

	if (n < 5)
		n = 5;
	return n < max ? (unsigned int)n : (unsigned int)max;
}

static int range_cmp(const void *a, const void *b)
{
	const struct bench_range *x = a, *y = b;

	return x->start_byte < y->start_byte ? -1 :
	       x->start_byte > y->start_byte;
}

/* Sort ranges and merge those that overlap or touch; returns how many. */
static int merge_ranges(struct bench_range *r, size_t n)
{
	size_t i, m = 0;

	qsort(r, n, sizeof(*r), range_cmp);
	for (i = 0; i < n; i++) {
		if (m && r[i].start_byte <= r[m - 1].end_byte) {
			if (r[i].end_byte > r[m - 1].end_byte)
				r[m - 1].end_byte = r[i].end_byte;
			continue;
		}
		r[m++] = r[i];
	}
	return (int)m;
}

void auto_advise(uint64_t erase_byte, uint64_t page_byte,
		 unsigned int sector_byte, struct auto_advice *a)
{
	uint64_t start = round_up(1 << 20, erase_byte ? erase_byte : 1 << 20);
	uint64_t stride = page_byte / 4096, segs = erase_byte / (2 << 20);

	a->sector_byte = sector_byte ? sector_byte : 512;
	a->start_sector = start / a->sector_byte;
	a->ext4_stride = stride ? (unsigned int)stride : 1;
	a->ext4_stripe_width = (unsigned int)(erase_byte / 4096);
	a->f2fs_segs = segs ? (unsigned int)segs : 1;
	a->max_sectors = 0;
	a->no_data = 0;
}

/*
 * The advice for r: auto_advise(), and after a capacity check that found
 * the card short, a partition that ends below the usable size (at an
 * erase block boundary when known), or no data at all when not even
 * that fits.
 */
void auto_advise_for(const struct auto_result *r, struct auto_advice *a)
{
	const struct capacity_result *c = &r->capacity;
	uint64_t erase = r->align.erase.size_byte, end, start;

	auto_advise(erase, r->align.page.size_byte, r->sector_byte, a);
	if (!r->capacity_done || !capacity_short(c))
		return;
	start = a->start_sector * a->sector_byte;
	end = erase ? c->usable_byte / erase * erase :
	      c->usable_byte / a->sector_byte * a->sector_byte;
	if (c->kind == CAPACITY_DAMAGED || end < start + (1ULL << 20)) {
		a->no_data = 1;
		return;
	}
	a->max_sectors = (end - start) / a->sector_byte;
}

int auto_write_ranges(uint64_t dev_size, uint64_t erase_byte,
		      struct bench_range *ranges, size_t max)
{
	unsigned int nr = probe_max_nr(dev_size, erase_byte), i;
	uint64_t base = probe_base(erase_byte);
	size_t n = 0;

	/* the FAT probe's small writes: at the start of each AU */
	for (i = 0; i < fat_max_scan(dev_size, erase_byte); i++) {
		if (n >= max)
			return -ENOSPC;
		ranges[n].start_byte = i * erase_byte;
		ranges[n++].end_byte = i * erase_byte + AUTO_FAT_SPAN;
	}
	for (i = 0; i < nr; i++) {
		uint64_t s = base + (uint64_t)i *
			     probe_spacing(dev_size, erase_byte) * erase_byte;

		if (n >= max)
			return -ENOSPC;
		ranges[n].start_byte = s;
		ranges[n++].end_byte = s + erase_byte;
	}
	for (i = 0; i < AUTO_FAT_REFS; i++) {
		uint64_t s = fat_ref_au(dev_size, erase_byte, i) * erase_byte;

		if (n >= max)
			return -ENOSPC;
		ranges[n].start_byte = s;
		ranges[n++].end_byte = s + AUTO_FAT_SPAN;
	}
	return merge_ranges(ranges, n);
}

static void say(const struct auto_hooks *h, const char *fmt, const char *a)
{
	if (h && h->progress) {
		fprintf(h->progress, fmt, a);
		fflush(h->progress);
	}
}

/* ---- step 1: align ---- */

/* Alignments 3 * 2^n and 2^n that divide spacing, descending. */
static size_t align_list(uint64_t spacing, uint64_t min, uint64_t *a,
			 size_t max)
{
	uint64_t p = spacing / 3;	/* the power of two in spacing */
	size_t n = 0;

	while (p >= 1 && n + 2 <= max) {
		if (3 * p >= min)
			a[n++] = 3 * p;
		if (p >= min)
			a[n++] = p;
		p >>= 1;
	}
	return n;
}

/* The align tables' block sizes, smallest first. */
static const uint64_t auto_block_sizes[AUTO_MAX_TABLES] = {
	1024, 4096, 16384,
};

/* Block size of table i: at least two logical blocks (half-block reads). */
static uint64_t table_block(size_t i, unsigned int lbs)
{
	uint64_t bs = auto_block_sizes[i];

	return bs < 2ULL * lbs ? 2ULL * lbs : bs;
}

/* The smallest spacing (3 * 2^n) of a table of bs-byte blocks. */
static uint64_t min_spacing(uint64_t bs)
{
	uint64_t spacing = 3;

	while (spacing < 4 * bs)
		spacing <<= 1;
	return spacing;
}

uint64_t auto_min_size(unsigned int lbs)
{
	uint64_t bs = table_block(0, lbs);

	return 7 * min_spacing(bs) + bs;
}

/*
 * A second table that only has to confirm an erase size the first one
 * read (its page already clear) reads the rows around it first: from a
 * sixteenth of it (128 KiB at least: no page step inside) to 16 times
 * it, both levels with several rows, at half the cost.  When they do not
 * make it sure, it reads the rest of the table too and decides on all.
 */
#define AROUND_MIN (512ULL << 10)	/* an erase size worth a window */
#define AROUND_SPAN 16
#define AROUND_FLOOR (128ULL << 10)
#define AROUND_ROWS 10			/* fewer: the whole table at once */

/* Is alignment a around erase? */
static int is_around(uint64_t a, uint64_t erase)
{
	uint64_t lo = erase / AROUND_SPAN;

	return a >= (lo > AROUND_FLOOR ? lo : AROUND_FLOOR) &&
	       a <= erase * AROUND_SPAN;
}

/* The alignments of a[] around erase (in) or not (!in), in order. */
static size_t pick(const uint64_t *a, size_t n, uint64_t erase, int in,
		   uint64_t *out)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (is_around(a[i], erase) == in)
			out[k++] = a[i];
	return k;
}

/* Rows w (around erase) and o (the others) back in the order of a[]. */
static struct align_row *merge_rows(const uint64_t *a, size_t n,
				    uint64_t erase, const struct align_row *w,
				    const struct align_row *o)
{
	struct align_row *m = calloc(n, sizeof(*m));
	size_t i;

	for (i = 0; m && i < n; i++)
		m[i] = is_around(a[i], erase) ? *w++ : *o++;
	return m;
}

/* The rest of table t (the rows not around t->around_byte). */
static int align_rest(struct device *dev, const struct bench_opts *ao,
		      const uint64_t *a, size_t n, struct auto_table *t)
{
	uint64_t rest[128];
	struct align_row *rows, *m;
	size_t k, nrows;
	int ret;

	k = pick(a, n, t->around_byte, 0, rest);
	ret = bench_align_at(dev, ao, t->spacing_byte, rest, k, &rows,
			     &nrows);
	m = ret ? NULL : merge_rows(a, n, t->around_byte, t->rows, rows);
	free(rows);
	if (ret)
		return ret;
	if (!m)
		return -ENOMEM;
	free(t->rows);
	t->rows = m;
	t->nrows = n;
	t->around_byte = 0;
	return analyze_align(t->rows, t->nrows, &t->verdict);
}

/*
 * Is table t sure enough to skip the rest of its reads?  A table read
 * around an erase size only confirms it; a whole table also gives the
 * page, and a program unit it saw but doubts may firm up.  When writes
 * will settle the erase size (writes), the page is all it must give.
 */
static int table_sure(const struct auto_table *t, int writes)
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

/*
 * Host noise.  The reads just before and just after a boundary (pre and
 * post) cross none, at any alignment: in a row, all seven positions read
 * alike, but for what the host or the card adds now and then (another
 * program's time slice, a pause).  Such a read is far above its row's
 * median: twice it, and NOISE_FLOOR more.
 */
#define NOISE_FLOOR 500000.0	/* ns: a delay, not a slower read */

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* Count the delayed reads of rows[] into *cells, *delayed, *max_ns. */
static void count_delays(const struct align_row *rows, size_t n,
			 unsigned int *cells, unsigned int *delayed,
			 double *max_ns)
{
	size_t i, p, k;

	for (i = 0; i < n; i++) {
		if (rows[i].npos != 7)
			continue;
		for (k = 0; k < 3; k += 2) {
			int64_t v[7], m;

			for (p = 0; p < 7; p++)
				v[p] = rows[i].pos_ns[p][k];
			qsort(v, 7, sizeof(v[0]), cmp_i64);
			m = v[3];
			for (p = 0; p < 7; p++) {
				double x = (double)(v[p] - m);

				*cells += 1;
				if (v[p] <= 2 * m || x <= NOISE_FLOOR)
					continue;
				*delayed += 1;
				if (x > *max_ns)
					*max_ns = x;
			}
		}
	}
}

/*
 * Is the noise high?  Delays that the least of two reads in a row does not
 * remove, at 1.5 % of positions or more: they come in runs (a loaded CPU,
 * a shared bus), as long as what the write steps look for.  A card's own
 * pauses come one at a time, even at one request in ten (0.8 % of
 * positions then), and the write steps tell them from a collapse.
 */
#define NOISE_RUNS_PERMILLE 15
#define NOISE_MIN_CELLS 100	/* fewer: too few to tell */
#define NOISE_MARGIN 4		/* a collapse this many delays over */

static int noise_high(unsigned int cells, unsigned int delayed)
{
	return cells >= NOISE_MIN_CELLS &&
	       1000ULL * delayed >= (uint64_t)NOISE_RUNS_PERMILLE * cells;
}

static int table_noisy(const struct auto_table *t)
{
	return noise_high(t->cells, t->least_delayed);
}

/*
 * One more pass of count reads over table t's rows, folded in (each
 * position keeps its least time); a pass of one read also tells how often
 * a single read is delayed.
 */
static int align_more(struct device *dev, const struct bench_opts *ao,
		      const uint64_t *a, size_t n, unsigned int count,
		      struct auto_table *t)
{
	struct bench_opts more = *ao;
	struct align_row *rows;
	size_t nrows;
	int ret;

	more.count = count;
	ret = bench_align_at(dev, &more, t->spacing_byte, a, n, &rows, &nrows);
	if (!ret && nrows != t->nrows)
		ret = -EIO;
	if (!ret) {
		if (count == 1)
			count_delays(rows, nrows, &t->once_cells,
				     &t->once_delayed, &t->delay_ns);
		align_fold(t->rows, rows, nrows);
		t->count += count;
	}
	free(rows);
	return ret ? ret : analyze_align(t->rows, t->nrows, &t->verdict);
}

/*
 * The n rows a[] of table t at AUTO_ALIGN_FIRST reads per position, then,
 * unless they make t sure, at the rest of AUTO_ALIGN_COUNT, each read
 * keeping its least time: a clear card pays two thirds of the reads, an
 * unclear one all of them, as if they had been counted at once.  On a
 * noisy host (delays in runs defeat the least of reads in a row), up to
 * NOISE_ROUNDS further passes, each far from the others in time, until
 * the table is sure: the evidence is close only because of the noise.
 */
#define NOISE_ROUNDS 2

static int align_read(struct device *dev, const struct bench_opts *ao,
		      const uint64_t *a, size_t n, int writes,
		      struct auto_table *t, unsigned int *rounds)
{
	struct bench_opts more = *ao;
	unsigned int k;
	int ret;

	more.count = AUTO_ALIGN_FIRST;
	ret = bench_align_at(dev, &more, t->spacing_byte, a, n, &t->rows,
			     &t->nrows);
	t->count = more.count;
	count_delays(t->rows, t->nrows, &t->cells, &t->least_delayed,
		     &t->delay_ns);
	if (!ret)
		ret = analyze_align(t->rows, t->nrows, &t->verdict);
	if (ret || table_sure(t, writes))
		return ret;
	ret = align_more(dev, ao, a, n, AUTO_ALIGN_COUNT - AUTO_ALIGN_FIRST,
			 t);
	for (k = 0; !ret && k < NOISE_ROUNDS && table_noisy(t) &&
	     !table_sure(t, writes); k++) {
		ret = align_more(dev, ao, a, n, 1, t);
		++*rounds;
	}
	return ret;
}

static int align_table(struct device *dev, const struct bench_opts *o,
		       uint64_t bs, uint64_t erase, int writes,
		       struct auto_table *t, unsigned int *rounds)
{
	struct bench_opts ao = *o;
	uint64_t spacing = 3, aligns[128], win[128];
	size_t n, k = 0;
	int ret;

	/*
	 * Every alignment the spacing allows: rows well above the largest
	 * AU (64 MiB) read it with certainty, and allocation groups of 1-2
	 * GiB show on cards large enough; each row costs ~60 ms at 1 KiB.
	 */
	while (7 * (spacing << 1) + bs <= dev->size_byte &&
	       (spacing << 1) <= AUTO_ALIGN_TOP)
		spacing <<= 1;
	if (7 * spacing + bs > dev->size_byte || spacing < min_spacing(bs))
		return -EINVAL;
	n = align_list(spacing, 2 * bs, aligns, 128);
	if (erase >= AROUND_MIN)
		k = pick(aligns, n, erase, 1, win);
	t->around_byte = k >= AROUND_ROWS && k < n ? erase : 0;
	ao.blocksize_byte = bs;
	ao.count = AUTO_ALIGN_COUNT;
	t->blocksize_byte = bs;
	t->spacing_byte = spacing;
	ret = align_read(dev, &ao, t->around_byte ? win : aligns,
			 t->around_byte ? k : n, writes, t, rounds);
	if (ret || !t->around_byte ||
	    t->verdict.erase.confidence == ANALYZE_CONF_HIGH)
		return ret;
	return align_rest(dev, &ao, aligns, n, t);
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
 * Pick the erase size from the most confident table, the page size from
 * the tables that agree with it.  A weak step that no second table
 * confirms is what noise looks like (a loop device over a file has no
 * erase blocks at all): it is reported as none.
 */
static void align_choose(struct auto_result *r)
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

#define GROUP_UNIT (256ULL << 20)	/* the group probe's step */
#define GROUP_ROWS 32			/* its rows, at most */

/*
 * On a small card the tables' spacing (3 * 2^n, a seventh of the card at
 * most) puts one or two reads across the boundaries of a group of 1 or 2
 * GiB, too few to tell.  Rows a multiple of 256 MiB apart read across
 * every multiple of 256 MiB of the card once (a 4 GiB card: 2 rows, 126
 * reads), and the group shows in those reads, when the AU is known.
 */
static int group_probe(struct device *dev, const struct bench_opts *o,
		       struct auto_result *r)
{
	const struct auto_table *t = &r->tables[r->chosen];
	uint64_t erase = r->align.erase.size_byte, bs = t->blocksize_byte;
	uint64_t spacing, aligns[GROUP_ROWS];
	struct bench_opts ao = *o;
	struct align_row *rows;
	struct analyze_step g;
	size_t n = 0, nrows;
	int ret;

	if (!erase || r->align.group.size_byte ||
	    t->spacing_byte >= AUTO_ALIGN_TOP || dev->size_byte < bs)
		return 0;
	spacing = (dev->size_byte - bs) / 7 / GROUP_UNIT * GROUP_UNIT;
	if (spacing < GROUP_UNIT || spacing / GROUP_UNIT > GROUP_ROWS)
		return 0;
	for (; n < spacing / GROUP_UNIT; n++)
		aligns[n] = spacing - n * GROUP_UNIT;
	ao.blocksize_byte = bs;
	ao.count = AUTO_ALIGN_COUNT;
	ret = bench_align_at(dev, &ao, spacing, aligns, n, &rows, &nrows);
	if (!ret && !analyze_group_rows(rows, nrows, spacing, erase, &g))
		r->align.group = g;
	free(rows);
	return ret == -ENOMEM ? ret : 0;
}

/*
 * Will writes settle the erase size that the tables so far leave unsure?
 * With --destructive, an erase size read with less than high confidence
 * (or none) is found, confirmed or corrected by writing
 * (auto_erase_writes), which costs less than a further table; once the
 * page is clear, another table would only repeat what the writes decide.
 */
static int writes_decide(const struct auto_result *r)
{
	return r->destructive && r->search_fits;
}

static int auto_align(struct device *dev, const struct bench_opts *o,
		      const struct auto_hooks *h, struct auto_result *r)
{
	char buf[FMT_LEN];
	size_t i;
	int ret;

	for (i = 0; i < AUTO_MAX_TABLES; i++) {
		uint64_t bs = table_block(i, dev->logical_block_size);

		if (i && bs <= r->tables[r->ntables - 1].blocksize_byte)
			continue;
		say(h, "auto: align test, block size %s\n", fmt_size(buf, bs));
		/* a table only to confirm the erase size: around it first */
		ret = align_table(dev, o, bs, r->ntables &&
				  r->align.page.confidence >=
				  ANALYZE_CONF_MEDIUM ?
				  r->align.erase.size_byte : 0,
				  writes_decide(r), &r->tables[r->ntables],
				  &r->noise.rounds);
		if (ret) {
			/* a table cut short decides nothing */
			free(r->tables[r->ntables].rows);
			r->tables[r->ntables].rows = NULL;
		}
		if (ret == -EINVAL && r->ntables)
			break;		/* device too small for this size */
		if (ret)
			return ret;
		r->ntables++;
		align_choose(r);
		if (r->align.page.confidence >= ANALYZE_CONF_MEDIUM &&
		    (r->align.erase.confidence == ANALYZE_CONF_HIGH ||
		     writes_decide(r)))
			break;
	}
	return group_probe(dev, o, r);
}

/* ---- write programs ---- */

/* Run prog and return the raw value of the only cell it prints. */
static int run_cell(struct device *dev, struct vm_node *prog, double *val)
{
	struct vm_table tab = { 0 };
	int ret;

	if (!prog)
		return -ENOMEM;
	ret = vm_run(dev, prog, NULL, &tab, NULL, 0);
	vm_free(prog);
	if (!ret && (tab.nrows != 1 || tab.rows[0].ncells != 1))
		ret = -EINVAL;
	if (!ret)
		*val = tab.rows[0].cells[0].value;
	vm_table_free(&tab);
	return ret;
}

/* print(format(reduce_total(kid))): the time of all writes in kid. */
static struct vm_node *total_time(struct vm_node *kid)
{
	return vm_unary(VM_PRINT, vm_unary(VM_FORMAT,
					   vm_unary(VM_REDUCE_TOTAL, kid)));
}

/* ---- step 2: FAT area ---- */

/* One write of len bytes at off; its time in *ns. */
static int write_one(struct device *dev, uint64_t off, uint64_t len,
		     double *ns)
{
	return run_cell(dev, total_time(vm_len_fixed(len,
			vm_off_series(VM_OFF_LIN, off, 0, 1,
				      vm_leaf(VM_WRITE_5A)))), ns);
}

#define FAT_GC 8.0		/* a write this much slower than a small
				   write paid a copy (a garbage collection) */
#define FAT_AGAIN 3		/* small writes out of order after the fill */
#define FAT_HIDDEN 5.0		/* writes out of order this much dearer
				   than in order: sparing a write's own cost
				   on each would not reach AUTO_FAT_FAST */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(const double *v, size_t n)
{
	double tmp[AUTO_FAT_WRITES * AUTO_FAT_REFS + FAT_AGAIN];

	if (!n || n > sizeof(tmp) / sizeof(tmp[0]))
		return 0;
	memcpy(tmp, v, n * sizeof(*v));
	qsort(tmp, n, sizeof(*tmp), cmp_double);
	return n % 2 ? tmp[n / 2] : (tmp[n / 2 - 1] + tmp[n / 2]) / 2;
}

/*
 * What an AU's visit writes in order before it goes back a second time:
 * enough that a card which merges or copies what the AU holds pays for it
 * whatever its form (on a new card a merge copies only what the AU held
 * when it was opened: the first write out of order reopens it full of
 * this).  A quarter of the AU, at most 512 KiB (a copy of it costs
 * several of the slowest small writes).
 */
static uint64_t fat_fill(uint64_t erase)
{
	uint64_t w = erase / 4;

	return w < AUTO_FAT_SPAN ? w : AUTO_FAT_SPAN;
}

/*
 * One AU's visit, as -f and -f --random write an AU: AUTO_FAT_WRITES small
 * writes in order from the AU's start, then as many again out of order
 * among them; then the AU written in order up to fat_fill(), and three
 * small writes out of order once more.  The first write of each kind may
 * open the AU or turn it to random mode and pay for closing another (a
 * garbage collection): it is not kept in lin and rnd, which get the
 * others' times; *nrnd how many random ones were kept (a card that
 * merges on every out-of-order write is clearly ordinary after two of
 * them).  *copy gets what the small writes cost beyond what each costs
 * in the AU anyway, *typ the median small write in order, and *gc the
 * least any write paid beyond it, of those that took FAT_GC times as long
 * (a copy; 0 none did).
 */
static int fat_au(struct device *dev, uint64_t off, uint64_t c, uint64_t fill,
		  double *lin, double *rnd, size_t *nrnd, double *copy,
		  double *typ, double *gc)
{
	/* each below the last end and not at the AU's start: out of order */
	static const unsigned int order[AUTO_FAT_WRITES] = { 3, 1, 4, 2, 5, 3 };
	/* after the fill: each merges on a card that merges (4 reopens) */
	static const unsigned int again[FAT_AGAIN] = { 4, 2, 1 };
	double t, first = 0, ooo[AUTO_FAT_WRITES + FAT_AGAIN], floor;
	unsigned int i, n = 0;
	int ret;

	for (i = 0; i < AUTO_FAT_WRITES; i++) {
		ret = write_one(dev, off + i * c, c, &t);
		if (ret)
			return ret;
		if (i)
			lin[i - 1] = t;
		else
			first = t;
	}
	*typ = median(lin, AUTO_FAT_WRITES - 1);
	*nrnd = 0;
	for (i = 0; i < AUTO_FAT_WRITES; i++) {
		ret = write_one(dev, off + order[i] * c, c, &t);
		if (ret)
			return ret;
		ooo[n++] = t;
		if (!i)
			continue;
		rnd[(*nrnd)++] = t;
		if (*nrnd == 2 && rnd[0] > 8 * *typ && rnd[1] > 8 * *typ)
			break;
	}
	if (fill > AUTO_FAT_WRITES * c) {
		ret = write_one(dev, off + AUTO_FAT_WRITES * c,
				fill - AUTO_FAT_WRITES * c, &t);
		if (ret)
			return ret;
	}
	for (i = 0; i < FAT_AGAIN; i++) {
		ret = write_one(dev, off + again[i] * c, c, &ooo[n++]);
		if (ret)
			return ret;
	}
	/*
	 * Beyond what each write costs in the AU anyway: the writes in order
	 * their median, those out of order their least (the AU's own rate
	 * and cost per write out of order, whatever they are)
	 */
	floor = ooo[0];
	for (i = 1; i < n; i++)
		floor = ooo[i] < floor ? ooo[i] : floor;
	*copy = first > *typ ? first - *typ : 0;
	*gc = first > FAT_GC * *typ ? first - *typ : 0;
	for (i = 0; i < AUTO_FAT_WRITES - 1; i++)
		*copy += lin[i] > *typ ? lin[i] - *typ : 0;
	for (i = 0; i < n; i++) {
		*copy += ooo[i] - floor;
		if (ooo[i] > FAT_GC * *typ && (!*gc || ooo[i] - *typ < *gc))
			*gc = ooo[i] - *typ;
	}
	return 0;
}

static uint64_t fat_chunk(const struct device *dev)
{
	return dev->logical_block_size > 512 ? dev->logical_block_size : 512;
}

/*
 * Put probe AUs (those of the open-AU searches, from the last down) in
 * random mode until one pays a copy: then the card keeps no more AUs out
 * of order, as on -f --random's whole AUs, and from then on each ordinary
 * AU that takes writes out of order pays a copy when it goes to random
 * mode or when it is opened (the open AUs all random ones).  Each probe
 * AU gets two small writes in order at its start, then one below them;
 * the second write, right after the first, is the small write to compare
 * with.  A card whose random-mode AUs cost nothing as many as these
 * (probe_max_nr()) never pays: the caller says so.
 */
static int fat_prime(struct device *dev, uint64_t erase, struct auto_fat *f)
{
	const unsigned int nr = probe_max_nr(dev->size_byte, erase);
	const uint64_t base = probe_base(erase), c = f->chunk_byte;
	const uint64_t spacing = probe_spacing(dev->size_byte, erase);
	double t[3], small = 0;
	unsigned int k;

	for (k = 0; k < nr && !f->prime_paid; k++) {
		uint64_t off = base + (uint64_t)(nr - 1 - k) * spacing * erase;
		static const unsigned int pos[3] = { 1, 2, 0 };
		unsigned int i;

		for (i = 0; i < 3; i++) {
			int ret = write_one(dev, off + pos[i] * c, c, &t[i]);

			if (ret)
				return ret;
		}
		if (!small || t[1] < small)
			small = t[1];
		f->primed = k + 1;
		f->prime_paid = t[0] > FAT_GC * small || t[2] > FAT_GC * small;
	}
	return 0;
}

/*
 * An AU paid no copy: a small part of what a far one paid, and less than
 * half the least copy a far one paid in one write (an AU that paid a
 * smaller copy than the far ones did, closing an AU that held less, still
 * paid one; a pause of the host is shorter than a copy).
 */
static int fat_no_copy(const struct auto_fat *f, unsigned int i)
{
	return f->copy_ratio[i] > AUTO_FAT_NOCOPY &&
	       f->copy_ns[i] < f->ref_gc_ns / 2;
}

static int fat_is_fast(const struct auto_fat *f, unsigned int i)
{
	return f->lin_ratio[i] > AUTO_FAT_FAST ||
	       f->rnd_ratio[i] > AUTO_FAT_FAST || fat_no_copy(f, i);
}

/* The first run of AUs faster than those far from the start. */
static void fat_area(struct auto_fat *f)
{
	unsigned int i;

	f->found = 0;
	f->count = 0;
	f->linear = f->random = f->nocopy = 0;
	for (i = 0; i < f->naus && !f->found; i++)
		if (fat_is_fast(f, i)) {
			f->found = 1;
			f->start = i;
		}
	while (f->found && f->start + f->count < f->naus &&
	       fat_is_fast(f, f->start + f->count))
		f->count++;
	if (!f->found)
		return;
	f->linear = f->random = f->nocopy = 1;
	for (i = f->start; i < f->start + f->count; i++) {
		f->linear &= f->lin_ratio[i] > AUTO_FAT_FAST;
		f->random &= f->rnd_ratio[i] > AUTO_FAT_FAST;
		f->nocopy &= fat_no_copy(f, i);
	}
}

/*
 * Confidence from the small writes' speed: the gap between the slowest AU
 * of the area and the fastest of the others.
 */
static enum analyze_confidence fat_speed_conf(const struct auto_fat *f)
{
	double in_min = 1e9, out_max = 0;
	unsigned int i;

	for (i = 0; i < f->naus; i++) {
		int in = f->found && i >= f->start && i < f->start + f->count;
		double l = f->lin_ratio[i], r = f->rnd_ratio[i];

		if (in && (f->linear ? l : r) < in_min)
			in_min = f->linear ? l : r;
		if (in && f->linear && f->random && r < in_min)
			in_min = r;
		if (!in && (l > out_max || r > out_max))
			out_max = l > r ? l : r;
	}
	if (f->found && (f->linear || f->random))
		return in_min > 1.3 && in_min - out_max > 0.2 ?
			ANALYZE_CONF_HIGH : in_min - out_max > 0.1 ?
			ANALYZE_CONF_MEDIUM : ANALYZE_CONF_LOW;
	if (f->found)
		return ANALYZE_CONF_NONE;
	return out_max < 1.15 ? ANALYZE_CONF_HIGH :
	       out_max < 1.2 ? ANALYZE_CONF_MEDIUM : ANALYZE_CONF_LOW;
}

/*
 * How far AU i's copies lie from paying none, in units of the bound
 * fat_no_copy() sets (half the least copy a far AU paid in one write):
 * an area's AU lies well below 1, an ordinary one's at 2 or more.
 */
static double fat_copy_margin(const struct auto_fat *f, unsigned int i)
{
	return f->ref_gc_ns > 0 ? f->copy_ns[i] / (f->ref_gc_ns / 2) : 0;
}

/*
 * Confidence from the visits: an ordinary AU's pays a copy as the far
 * AUs' do, an area's pays none.
 */
static enum analyze_confidence fat_copy_conf(const struct auto_fat *f)
{
	double in_max = 0, out_min = 1e9;
	unsigned int i;

	for (i = 0; i < f->naus; i++) {
		int in = f->found && i >= f->start && i < f->start + f->count;
		double m = fat_copy_margin(f, i);

		if (in && m > in_max)
			in_max = m;
		if (!in && (!fat_no_copy(f, i) || f->found) && m < out_min)
			out_min = m;
	}
	if (f->found && f->nocopy)
		return in_max < 0.25 && out_min > 1.5 ? ANALYZE_CONF_HIGH :
		       in_max < 0.5 && out_min > 1 ? ANALYZE_CONF_MEDIUM :
		       ANALYZE_CONF_LOW;
	if (f->found)
		return ANALYZE_CONF_NONE;
	return out_min > 1.5 ? ANALYZE_CONF_HIGH : ANALYZE_CONF_MEDIUM;
}

/*
 * The first run of AUs faster than those far from the start, and which
 * writes showed it.  An area that shows is as sure as the evidence that
 * showed it (the better of the two); none is as sure as the less sure,
 * and capped where the probe could not have seen an area: at low when
 * writes out of order paid no copy anywhere (an area that only spares
 * it, the one -f --random shows on a card that keeps fewer AUs in random
 * mode than it writes, looks like any other: the main form is not ruled
 * out), at medium when each paid one (only an area faster at programming
 * them and no more is lost in the copy's time: -f --random would not
 * show it either).
 */
static void fat_decide(struct auto_fat *f)
{
	enum analyze_confidence s, v;

	fat_area(f);
	f->slot_unseen = !f->refs_paid &&
			 f->ref_rnd_ns <= AUTO_FAT_FAST * f->ref_lin_ns;
	f->speed_hidden = f->ref_rnd_ns > FAT_HIDDEN * f->ref_lin_ns;
	s = fat_speed_conf(f);
	v = fat_copy_conf(f);
	if (f->found && f->start + f->count == f->naus)
		f->confidence = ANALYZE_CONF_LOW;	/* no end seen */
	else if (f->found)
		f->confidence = s > v ? s : v;
	else
		f->confidence = s < v ? s : v;
	if (!f->found && f->speed_hidden &&
	    f->confidence > ANALYZE_CONF_MEDIUM)
		f->confidence = ANALYZE_CONF_MEDIUM;
	if (!f->found && f->slot_unseen && f->confidence > ANALYZE_CONF_LOW)
		f->confidence = ANALYZE_CONF_LOW;
}

/* Measure the AUs far from the start: what an ordinary AU does. */
static int fat_refs(struct device *dev, uint64_t erase, struct auto_fat *f)
{
	double lin[AUTO_FAT_WRITES * AUTO_FAT_REFS];
	double rnd[AUTO_FAT_WRITES * AUTO_FAT_REFS];
	size_t nl = 0, nr = 0, k;
	unsigned int j;
	double copy, typ, gc;

	f->refs_paid = 1;
	for (j = 0; j < AUTO_FAT_REFS; j++) {
		int ret;

		f->ref_au[j] = fat_ref_au(dev->size_byte, erase, j);
		ret = fat_au(dev, f->ref_au[j] * erase, f->chunk_byte,
			     fat_fill(erase), lin + nl, rnd + nr, &k, &copy,
			     &typ, &gc);
		if (ret)
			return ret;
		nl += AUTO_FAT_WRITES - 1;
		nr += k;
		f->refs_paid &= gc > 0;
		if (!j || gc < f->ref_gc_ns)
			f->ref_gc_ns = gc;
		if (!j || copy < f->ref_copy_ns)
			f->ref_copy_ns = copy;
	}
	f->ref_lin_ns = median(lin, nl);
	f->ref_rnd_ns = median(rnd, nr);
	return 0;
}

/*
 * The FAT probe: with the card's random-mode AUs all taken (fat_prime),
 * small writes in order and out of order at the start of each AU from the
 * first, against the same in AUs far from the start, until the speed has
 * settled: at least fat_min_scan() AUs, and two ordinary ones after the
 * last fast one.
 */
static int auto_fat(struct device *dev, uint64_t erase, struct auto_fat *f)
{
	unsigned int i, min = fat_min_scan(dev->size_byte, erase);
	unsigned int max = fat_max_scan(dev->size_byte, erase), last = 0;
	int ret, seen = 0;
	double typ, gc;

	f->chunk_byte = fat_chunk(dev);
	ret = fat_prime(dev, erase, f);
	if (!ret)
		ret = fat_refs(dev, erase, f);
	if (ret)
		return ret;
	for (i = 0; i < max && (i < min || (seen && i < last + 3)); i++) {
		double lin[AUTO_FAT_WRITES], rnd[AUTO_FAT_WRITES];
		size_t nr;

		ret = fat_au(dev, i * erase, f->chunk_byte, fat_fill(erase),
			     lin, rnd, &nr, &f->copy_ns[i], &typ, &gc);
		if (ret)
			return ret;
		f->lin_ns[i] = median(lin, AUTO_FAT_WRITES - 1);
		f->rnd_ns[i] = median(rnd, nr);
		f->lin_ratio[i] = f->ref_lin_ns / f->lin_ns[i];
		f->rnd_ratio[i] = f->ref_rnd_ns / f->rnd_ns[i];
		f->copy_ratio[i] = f->ref_copy_ns /
				   (f->copy_ns[i] > typ ? f->copy_ns[i] : typ);
		f->naus = i + 1;
		if (fat_is_fast(f, i)) {
			seen = 1;
			last = i;
		}
	}
	f->measured = 1;
	fat_decide(f);
	return 0;
}

/* ---- the erase size from writes ---- */

#define SEARCH_MIN (128ULL << 10)	/* smallest size looked for */
#define SEARCH_SLOW 4.0		/* slower than a write into an open AU by
				   this: the write paid for a collection */
#define SEARCH_MAX_CANDS 40
#define SEARCH_GC_PART 0.3	/* and at least this part of the first
				   collection seen */
#define SEARCH_FILL 8.0		/* the warm-up's collections: slower than
				   this many open-AU writes */
#define SEARCH_ALIKE 1.5	/* and within this factor of each other */
#define SEARCH_DATA_MAX (1ULL << 20)	/* data per warm-up position on a
					   card that copies nothing */
#define SEARCH_DATA_GC 16.0	/* its copy: this many open-AU writes */

/* Where the erase search writes; a function of the device alone. */
struct search_layout {
	uint64_t chunk;			/* write size */
	uint64_t top;			/* largest size looked for */
	uint64_t warm_start;		/* first warm-up write */
	uint64_t warm_cap;		/* largest warm-up step */
	uint64_t anchor[AUTO_ERASE_ANCHORS];
	uint64_t cand[SEARCH_MAX_CANDS]; /* 2^n and 3 * 2^n, ascending */
	size_t ncand;
};

/* The step after warm-up write i: 1 MiB, doubling every 8 writes. */
static uint64_t warm_step(const struct search_layout *l, unsigned int i)
{
	uint64_t step = (1ULL << 20) << (i / 8);

	return step < l->warm_cap ? step : l->warm_cap;
}

static uint64_t warm_span(const struct search_layout *l)
{
	uint64_t span = 0;
	unsigned int i;

	for (i = 0; i < AUTO_ERASE_WARMUP; i++)
		span += warm_step(l, i);
	return span;
}

/*
 * Sizes up to top, anchors at multiples of 3 * (the largest power of two
 * up to top), so each is a boundary for every size looked for, near the
 * end of the device, the warm-up walk below them and past the FAT probe.
 * The largest top of 256 MiB down to 4 MiB that fits.
 */
static int search_layout(uint64_t dev_size, unsigned int lbs,
			 struct search_layout *l)
{
	uint64_t top, k, p;
	unsigned int j;

	memset(l, 0, sizeof(*l));
	l->chunk = lbs > 4096 ? lbs : 4096;
	for (top = 256ULL << 20; top >= 4ULL << 20; top >>= 1) {
		uint64_t lcm = 3 * top;

		l->top = top;
		l->warm_cap = top / 4 < (64ULL << 20) ? top / 4 : 64ULL << 20;
		if (dev_size < top + 2 * l->chunk + 3 * lcm)
			continue;
		k = (dev_size - top - 2 * l->chunk) / lcm;
		for (j = 0; j < AUTO_ERASE_ANCHORS; j++)
			l->anchor[j] = (k - AUTO_ERASE_ANCHORS + 1 + j) * lcm;
		if (l->anchor[0] < warm_span(l) + 2 * l->chunk + (64ULL << 20))
			continue;
		/*
		 * Two chunks below 1 MiB boundaries: never the last chunk
		 * of an AU, which a card that closes an AU written to its
		 * end (fullclose) would close at once, keeping no slot.
		 */
		l->warm_start = l->anchor[0] - warm_span(l) - 2 * l->chunk;
		for (p = SEARCH_MIN; p <= top && l->ncand + 2 <= SEARCH_MAX_CANDS;
		     p <<= 1) {
			l->cand[l->ncand++] = p;
			if (3 * p / 2 <= top && p >= 2 * SEARCH_MIN)
				l->cand[l->ncand++] = 3 * p / 2;
		}
		/* 3 * 2^n and 2^n interleave: 128K 256K 384K 512K 768K ... */
		return 0;
	}
	return -EINVAL;
}

static void add_range(struct bench_range *r, size_t *n, uint64_t a,
		      uint64_t b)
{
	r[*n].start_byte = a;
	r[(*n)++].end_byte = b;
}

int auto_search_ranges(uint64_t dev_size, unsigned int lbs,
		       struct bench_range *ranges, size_t max)
{
	struct search_layout l;
	uint64_t pos;
	size_t n = 0, i;
	unsigned int j;

	if (search_layout(dev_size, lbs, &l))
		return -EINVAL;
	if (max < AUTO_ERASE_WARMUP + AUTO_ERASE_ANCHORS * (1 + l.ncand))
		return -ENOSPC;
	pos = l.warm_start;
	for (j = 0; j < AUTO_ERASE_WARMUP; j++) {
		/* the chunk, and what search_data() may write after it */
		add_range(ranges, &n, pos, pos + 2 * l.chunk + SEARCH_DATA_MAX);
		pos += warm_step(&l, j);
	}
	for (j = 0; j < AUTO_ERASE_ANCHORS; j++) {
		add_range(ranges, &n, l.anchor[j], l.anchor[j] + l.chunk);
		for (i = 0; i < l.ncand; i++)
			add_range(ranges, &n,
				  l.anchor[j] + l.cand[i] - 2 * l.chunk,
				  l.anchor[j] + l.cand[i] + l.chunk);
	}
	return merge_ranges(ranges, n);
}

/* One write of the search; *slow when it paid for a collection. */
static int search_write(struct device *dev, struct auto_erase_search *s,
			uint64_t off, int *slow)
{
	double t;
	int ret = write_one(dev, off, s->chunk_byte, &t);

	if (ret)
		return ret;
	s->writes++;
	s->last_ns = t;
	/* a pause of a few ms is not a collection of a whole AU */
	*slow = s->fast_ns > 0 && t > SEARCH_SLOW * s->fast_ns &&
		t > SEARCH_GC_PART * s->gc_ns;
	if (*slow && t > s->slow_ns)
		s->slow_ns = t;
	if (!*slow && (s->fast_ns <= 0 || t < s->fast_ns))
		s->fast_ns = t;
	return 0;
}

/*
 * Small writes further and further apart until one pays for a garbage
 * collection: from then on the card's open AUs are all taken, and every
 * write into an AU not open closes one.
 */
static int search_warmup(struct device *dev, const struct search_layout *l,
			 struct auto_erase_search *s, double *first)
{
	int slow;

	/*
	 * Two writes each slower than SEARCH_FILL open-AU writes and alike
	 * (within SEARCH_ALIKE): collections of whole AUs cost much the
	 * same; pauses of a few ms are neither as long nor alike.  It goes
	 * on where it stopped when an anchor shows the AUs were not full.
	 */
	while (s->warmup < AUTO_ERASE_WARMUP && !s->filled) {
		int ret = search_write(dev, s, s->warm_pos, &slow);
		double t;

		if (ret)
			return ret;
		s->warm_pos += warm_step(l, s->warmup++);
		t = s->last_ns;
		if (!slow || t < SEARCH_FILL * s->fast_ns)
			continue;
		if (*first && t < SEARCH_ALIKE * *first &&
		    *first < SEARCH_ALIKE * t)
			s->filled = 1;
		else
			*first = t;
	}
	s->gc_ns = *first;
	return 0;
}

/*
 * From anchor a (a boundary for every size), the first boundary: the
 * smallest size whose write at a + size pays for a collection while the
 * one just below it does not.  0 when none shows, or one shows where no
 * size looked for has a boundary.
 */
static int search_anchor(struct device *dev, const struct search_layout *l,
			 uint64_t a, struct auto_erase_search *s,
			 uint64_t *boundary)
{
	int ret, slow;
	size_t i;

	*boundary = 0;
	ret = search_write(dev, s, a, &slow);
	if (ret || !slow) {
		s->filled = 0;	/* a new AU that cost nothing: not full */
		return ret;
	}
	/*
	 * Below each size, the chunk before its last: the last would close
	 * the AU on a card that closes an AU written to its end.
	 */
	for (i = 0; i < l->ncand; i++) {
		ret = search_write(dev, s, a + l->cand[i] - 2 * l->chunk,
				   &slow);
		if (ret || slow)
			return ret;
		ret = search_write(dev, s, a + l->cand[i], &slow);
		if (ret)
			return ret;
		if (slow) {
			*boundary = l->cand[i];
			return 0;
		}
	}
	return 0;
}

/*
 * The size two anchors agree on with none against it (high), or two
 * against one (medium).  An anchor that saw no boundary (its own write
 * into a new AU cost nothing: the open AUs were not full yet) is not
 * against it.
 */
static void search_decide(struct auto_erase_search *s)
{
	unsigned int i, j, agree, against;

	s->erase_byte = 0;
	s->confidence = ANALYZE_CONF_NONE;
	for (i = 0; i < s->nanchors; i++) {
		uint64_t b = s->boundary_byte[i];

		if (!b)
			continue;
		for (j = 0, agree = 0, against = 0; j < s->nanchors; j++) {
			agree += s->boundary_byte[j] == b;
			against += s->boundary_byte[j] &&
				   s->boundary_byte[j] != b;
		}
		if (agree >= 2) {
			s->erase_byte = b;
			s->confidence = against ? ANALYZE_CONF_MEDIUM :
				ANALYZE_CONF_HIGH;
			return;
		}
	}
}

/*
 * A card whose AUs hold no data (new, or discarded) may copy nothing when
 * it closes one: no write of the warm-up walk pays for a collection,
 * however many AUs it opens.  The classic -O sees the collapse on such a
 * card because it writes its AUs whole first.  So, once: data after each
 * warm-up position (from the 1 MiB boundary above it, enough that
 * copying it costs SEARCH_DATA_GC open-AU writes, as the first data write
 * shows), and the walk again, each write at the end of that data: it
 * opens the AU again, now holding data, and closing it copies the data.
 */
static int search_data(struct device *dev, const struct search_layout *l,
		       struct auto_erase_search *s)
{
	uint64_t pos = l->warm_start + 2 * l->chunk, d = SEARCH_DATA_MAX;
	double t;
	unsigned int i;
	int ret = 0;

	for (i = 0; i < AUTO_ERASE_WARMUP && !ret; i++) {
		ret = write_one(dev, pos, d, &t);
		s->data_writes++;
		pos += warm_step(l, i);
		if (i || s->fast_ns <= 0 || t <= SEARCH_DATA_GC * s->fast_ns)
			continue;
		/* the first: a copy of d costs about as much */
		d = (uint64_t)(d * SEARCH_DATA_GC * s->fast_ns / t);
		d = round_up(d < SEARCH_MIN ? SEARCH_MIN : d, l->chunk);
	}
	s->data_byte = d;
	s->warmup = 0;
	s->warm_pos = l->warm_start + d;
	return ret;
}

static int erase_search(struct device *dev, struct auto_erase_search *s)
{
	struct search_layout l;
	double first;
	unsigned int j;
	int ret;

	memset(s, 0, sizeof(*s));
	ret = search_layout(dev->size_byte, dev->logical_block_size, &l);
	if (ret)
		return ret;
	s->chunk_byte = l.chunk;
	s->top_byte = l.top;
	s->measured = 1;
	s->warm_pos = l.warm_start;
	for (j = 0; j < AUTO_ERASE_ANCHORS; j++) {
		/* a third anchor only when the first two disagree */
		if (j == 2 && s->boundary_byte[0] &&
		    s->boundary_byte[0] == s->boundary_byte[1])
			break;
		if (!s->filled) {
			first = 0;
			ret = search_warmup(dev, &l, s, &first);
			if (!ret && !s->filled && !s->data_byte) {
				ret = search_data(dev, &l, s);
				first = 0;
				ret = ret ? ret : search_warmup(dev, &l, s,
								&first);
			}
			if (ret || !s->filled)
				return ret;
		}
		s->anchor_byte[j] = l.anchor[j];
		ret = search_anchor(dev, &l, l.anchor[j], s,
				    &s->boundary_byte[j]);
		if (ret)
			return ret;
		s->nanchors = j + 1;
	}
	search_decide(s);
	return 0;
}

/* ---- step 3: open AUs ---- */

/*
 * The probe AUs, shared by the searches in both orders.  A used card's
 * AUs hold old data: one written in part and closed costs a garbage
 * collection, which is what shows a collapse.  An AU discarded (or never
 * written since the card was made) holds none, and closing it costs
 * nothing: on such AUs the card seems to keep any number open.  So the
 * searches write the AUs as they find them, and write them whole first
 * (precondition) only when that is needed: when the positions of an AU
 * are used up, and, for every AU, when the search in linear order saw no
 * collapse at all.
 */
struct probe_area {
	int whole;		/* precondition each AU before its first use */
	unsigned int touched;	/* AUs [0, touched) written to */
	unsigned int ready;	/* AUs [0, ready) preconditioned */
	unsigned int last;	/* the AU written last */
	unsigned int order[AUTO_MAX_NR]; /* probe AU k is AU order[k] */
	unsigned int last_k;	/* the last write: AU order[last_k] */
	unsigned int last_nr;	/* of a probe with so many AUs */
	uint64_t written;	/* bytes written to precondition */
};

struct probe_ctx {
	struct device *dev;
	uint64_t erase;
	uint64_t chunk;
	uint64_t base;
	uint64_t spacing;		/* AUs between probe AUs */
	int random;
	uint64_t used;		/* chunk positions used since preconditioned */
	struct probe_area *area;
	unsigned int held;	/* AUs [0, held) the last probe held open */
	double lin_ref_ns;	/* a write in linear order (0: unknown) */
	int prev_collapsed;	/* the last probe collapsed */
	int newest;		/* take the AUs written last (see
				   probe_newest()) */
};

/* The start of probe AU i, in bytes. */
static uint64_t probe_au(const struct probe_ctx *c, unsigned int i)
{
	return c->base + (uint64_t)i * c->spacing * c->erase;
}

/*
 * Take as AUs of a probe with nr AUs the nr written last, in the order
 * they were written.  A probe with more AUs than the card keeps open
 * leaves AUs open that the next, smaller one does not write.  A card that
 * closes the least recently written AU closes those first; one that
 * closes the AU it opened first (FIFO) would close the probe's own AUs
 * first, open them again, close more of them, and take passes to settle:
 * a probe that would hold would seem to collapse.  The AUs written last
 * are also the ones opened last, in either order; written as they were,
 * the card keeps them and closes the others, in either order, and a
 * probe with more takes the others from the oldest on.  The last probe
 * had last_nr AUs; order[] stays a permutation of the AUs.
 */
static void probe_newest(struct probe_area *a, unsigned int nr)
{
	const unsigned int n = a->last_nr;
	unsigned int seq[AUTO_MAX_NR], i;

	if (n < 2 || nr >= n)
		return;
	/* seq: the last probe's AUs, the oldest written first */
	for (i = 0; i < n; i++)
		seq[i] = a->order[(a->last_k + 1 + i) % n];
	for (i = 0; i < n; i++)
		a->order[i] = seq[(n - nr + i) % n];
}

/*
 * Write probe AUs [from, to) once, whole: they start from a known state,
 * full of data, with nothing half-written that a garbage collection would
 * have to copy in the middle of a measurement.
 */
static int precondition(const struct probe_ctx *c, unsigned int from,
			unsigned int to)
{
	double t;

	c->area->written += (uint64_t)(to - from) * c->erase;
	return run_cell(c->dev, total_time(vm_off_series(VM_OFF_LIN,
				probe_au(c, from),
				c->spacing * c->erase, to - from,
				vm_len_fixed(c->erase, vm_leaf(VM_WRITE_5A)))),
			&t);
}

/*
 * The chunk position of the next pass.  Linear order walks up the AU;
 * random order walks down it with pseudo-random gaps, so that every write
 * lands below the previous one in its AU and the card sees out-of-order
 * writes at every step.  Positions are never reused until the AUs are
 * preconditioned again: a later probe never writes below where an earlier
 * one stopped, which would look like random order to the card.  The last
 * chunk of an AU is never written: a card that closes an AU written to
 * its end (fullclose) would close it at no cost, and the probe would see
 * the card keep any number open.
 */
static uint64_t next_position(struct probe_ctx *c)
{
	const uint64_t npos = c->erase / c->chunk - 1;
	uint64_t slot = c->used++;

	if (!c->random)
		return slot;
	return npos - 1 - 2 * slot - vm_shuffle(slot, 2, npos);
}

/* Positions one probe may use at most, in units of next_position(). */
static uint64_t positions_left(const struct probe_ctx *c)
{
	const uint64_t npos = c->erase / c->chunk - 1;
	const uint64_t per = c->random ? 2 : 1;

	return npos / per > c->used ? npos / per - c->used : 0;
}

/*
 * The mean without its largest value (when there are enough): a card that
 * collapses at only some positions still shows, a lone stall does not.
 */
static double trimmed_mean(const double *v, size_t n)
{
	double sum = 0, max = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		sum += v[i];
		if (v[i] > max)
			max = v[i];
	}
	if (n >= 4)
		return (sum - max) / (double)(n - 1);
	return n ? sum / (double)n : 0;
}

/*
 * In random order the AUs written last are not those opened last: an AU
 * stays open pass after pass, and only one closed and opened again is
 * new to the card.  A card that closes the random-mode AU it opened first
 * may then close the probe's own AUs one per pass, for as many passes as
 * it has AUs, as a collapse does.  So after a collapse in random order
 * the AUs of the last probe that the next does not write, probe AUs
 * [nr, n), are written whole: an AU written whole in one write needs no
 * slot, and the card closes it at once, whichever mechanics it has.
 */
static int probe_flush(struct probe_ctx *c, unsigned int nr, unsigned int n)
{
	unsigned int k;
	int ret = 0;
	double t;

	for (k = nr; k < n && !ret; k++) {
		c->area->written += c->erase;
		ret = write_one(c->dev, probe_au(c, c->area->order[k]), c->erase,
				&t);
	}
	return ret;
}

/*
 * Ready the AUs of a probe with nr AUs and warm passes of warm-up: a set
 * the card has not seen lately after a larger probe collapsed, the AUs
 * written whole first when the search asks for it, and all of them again
 * when their positions run out.
 */
static int probe_ready(struct probe_ctx *c, unsigned int nr,
		       unsigned int warm)
{
	unsigned int *ready = &c->area->ready, *touched = &c->area->touched;
	int ret;

	if (nr > 1 && (c->prev_collapsed || c->newest)) {
		const unsigned int n = c->area->last_nr;

		probe_newest(c->area, nr);
		c->newest = 0;
		ret = c->random && c->prev_collapsed && nr < n ?
		      probe_flush(c, nr, n) : 0;
		if (ret)
			return ret;
	}
	if (c->area->whole && nr > *ready) {
		ret = precondition(c, *ready, nr);
		if (ret)
			return ret;
		*ready = nr;
	}
	if (nr > *touched)
		*touched = nr;
	/*
	 * Room for the warm-up and four passes, what a probe that holds
	 * takes (one that must look longer uses what is left): writing the
	 * AUs whole again costs as much as several probes.
	 */
	if (positions_left(c) >= warm + AUTO_HELD_PASSES)
		return 0;
	/* every AU written to: a later probe may reach any of them */
	ret = precondition(c, 0, *touched);
	if (ret)
		return ret;
	*ready = *touched;
	c->used = 0;
	c->held = 0;	/* closed: each opens again */
	return 0;
}

/*
 * A card that keeps one AU more than it can through a log (collapse
 * gradual) writes the AU it would close twice.  One that closes the least
 * recently written AU closes each in turn: every write costs more.  One
 * that closes the AU it opened first closes the same one while no other
 * is opened: only its writes cost more, a small part of the mean, but in
 * every pass.  How many AUs were dear (slower than hold_limit()) in
 * each of the m passes, when the others were not: 0 unless a few were.
 */
static unsigned int log_aus(const unsigned int *dear, unsigned int nr,
			    unsigned int m)
{
	unsigned int k, n = 0;

	if (m < AUTO_HELD_PASSES)
		return 0;
	for (k = 0; k < nr; k++)
		n += dear[k] == m;
	return 2 * n <= nr ? n : 0;
}

/*
 * A write slower than this did not hold: AUTO_HOLD times the reference,
 * but no more above it than AUTO_HOLD - 1 times a write in linear order.
 * Out of order the reference may be dear (slow programming, a copy of
 * what was written per write); a log's second programming, or a copy,
 * costs as much in either order and must not hide in it.
 */
static double hold_limit(const struct probe_ctx *c, double ref_ns)
{
	double base = c->lin_ref_ns > 0 && c->lin_ref_ns < ref_ns ?
		      c->lin_ref_ns : ref_ns;

	return ref_ns + (AUTO_HOLD - 1) * base;
}

/* The typical time of one write with nr AUs written in turn. */
static int probe(struct probe_ctx *c, unsigned int nr, double ref_ns,
		 struct auto_probe *p, double *mean_ns)
{
	/* random order: one pass opens the AUs, the next turns them random */
	const unsigned int warm = AUTO_WARMUP + (c->random ? 1 : 0);
	const unsigned int passes = warm + AUTO_POSITIONS;
	double per[AUTO_POSITIONS];
	unsigned int i, m = 0, fast = 0, slow = 0, huge = 0;
	unsigned int streak = 0, hstreak = 0;	/* slow, huge writes in a row */
	unsigned int run = 0;	/* passes in a row with a slow write */
	unsigned int dear[AUTO_MAX_NR] = { 0 };	/* passes each AU's write
						   was not fast in */
	const double hold_ns = hold_limit(c, ref_ns);
	int ret, stop = 0;

	ret = probe_ready(c, nr, warm);
	if (ret)
		return ret;
	for (i = 0; i < passes && positions_left(c) && !stop; i++) {
		uint64_t pos = next_position(c);
		const unsigned int pass_slow = slow;
		double sum = 0, t;
		unsigned int k;

		/* one write at a time, so that a collapse stops the probe at
		 * once: each collapsed write costs a whole garbage collection */
		for (k = 0; k < nr && !stop; k++) {
			/*
			 * One AU: the one written last, surely still open.
			 * More: in the same order in every probe, so that a
			 * card that closes the AU it opened first (not the
			 * least recently written) settles in one pass after
			 * a probe with more AUs left others open.
			 */
			unsigned int au = nr == 1 ? c->area->last :
						    c->area->order[k];
			uint64_t at = probe_au(c, au);

			ret = run_cell(c->dev, total_time(vm_len_fixed(c->chunk,
					vm_off_series(VM_OFF_LIN,
						at + pos * c->chunk,
						0, 1, vm_leaf(VM_WRITE_5A)))), &t);
			if (ret)
				return ret;
			c->area->last = au;
			if (nr > 1)
				c->area->last_k = k;
			sum += t;
			/*
			 * The warm-up's writes open the new AUs, which may
			 * close others; an AU the last probe held open pays
			 * for a collection only when this one is too many.
			 */
			if ((i < warm && k >= c->held) || ref_ns <= 0)
				continue;
			dear[k] += i >= warm && t > hold_ns;
			slow += t > AUTO_COLLAPSE * ref_ns;
			huge += t > AUTO_GC_SURE * ref_ns;
			streak = t > AUTO_COLLAPSE * ref_ns ? streak + 1 : 0;
			hstreak = t > AUTO_GC_SURE * ref_ns ? hstreak + 1 : 0;
			/* clearly collapsed: several writes as slow as a
			 * garbage collection, half of the AUs' (a card in
			 * random mode may collapse at only some of them) or
			 * three in a row (pauses come one at a time); two
			 * will do when each took what only a collection of
			 * a large AU takes: each costs seconds on such a
			 * card */
			if (((slow >= 3 || huge >= 2) &&
			     slow >= (nr + 1) / 2) ||
			    streak >= 3 || hstreak >= 2) {
				per[m++] = sum / (k + 1);
				stop = 1;
			}
		}
		if (i < warm || stop)
			continue;
		per[m++] = sum / nr;
		if (ref_ns > 0) {
			fast += per[m - 1] < hold_ns;
			/* clearly held: four fast passes; clearly not:
			 * none fast in four (one AU over, through a log) */
			if (m >= AUTO_HELD_PASSES && (fast == m || !fast))
				break;
			/*
			 * Collapsed at only some writes (random mode): a
			 * collection in each of three passes in a row, where
			 * pauses put one in a pass now and then at most.
			 */
			run = slow > pass_slow ? run + 1 : 0;
			if (run >= 3)
				break;
		}
	}
	/*
	 * The reference is the typical write: pauses must not move it.  The
	 * others keep the mean: a card in random mode may collapse at only
	 * some of the writes.
	 */
	*mean_ns = nr == 1 ? median(per, m) : trimmed_mean(per, m);
	p->nr = nr;
	p->positions = m;
	p->ratio = ref_ns > 0 ? *mean_ns / ref_ns : 1.0;
	/* over the limit: a card that collapses gradually costs a little */
	p->collapsed = ref_ns > 0 && *mean_ns > hold_ns;
	p->log_aus = nr > 1 ? log_aus(dear, nr, m) : 0;
	if (p->log_aus)
		p->collapsed = 1;
	c->held = p->collapsed ? 0 : nr;
	c->prev_collapsed = nr > 1 && p->collapsed;
	if (nr > 1)
		c->area->last_nr = nr;
	return 0;
}

static enum analyze_confidence open_confidence(double held, double collapsed)
{
	if (held < AUTO_HOLD && collapsed > 2 * AUTO_COLLAPSE)
		return ANALYZE_CONF_HIGH;
	if (held < 2 && collapsed > AUTO_COLLAPSE)
		return ANALYZE_CONF_MEDIUM;
	return ANALYZE_CONF_LOW;
}

/*
 * The ratio of probe nr, taken from the probes already made when there is
 * one (the search may have passed it), else measured.
 */
static int sharp_ratio(struct probe_ctx *c, struct auto_open *res,
		       unsigned int nr, double *ratio)
{
	struct auto_probe *p;
	double m;
	size_t i;
	int ret;

	for (i = 0; i < res->nprobes; i++)
		if (res->probes[i].nr == nr) {
			*ratio = res->probes[i].ratio;
			return 0;
		}
	p = &res->probes[res->nprobes++];
	ret = probe(c, nr, res->ref_ns, p, &m);
	if (!ret && p->ratio > *ratio)
		*ratio = p->ratio;
	return ret;
}

/*
 * The next nr to try: one more up to 5 (a collapse costs a garbage
 * collection per write, more with larger AUs, a probe that holds a few
 * small writes: 4 then 6 would collapse twice on a card of 4), then half
 * as many again, max last.
 */
static unsigned int next_nr(unsigned int nr, unsigned int max)
{
	unsigned int next = nr + (nr >= 5 ? nr / 2 : 1);

	return next > max && nr < max ? max : next;
}

/*
 * A card that keeps no AU open in random order merges an AU on every
 * out-of-order write: with one AU, random order already costs many
 * writes.  So does a card that only programs slower out of order (seed
 * 004's -p random columns), or copies what it wrote since the last write
 * out of order: a few times slower, and such a card keeps AUs open.  What
 * a merge costs depends on the mechanics (what the AU held, what closing
 * copies), so no ratio tells them apart; what does: a merge of an AU full
 * of data costs about what writing the AU whole does.  So the AU is
 * written whole (its time: whole_ns), and written out of order again (the
 * least of AUTO_MERGE_WRITES writes, each below the last: merge_ns).
 */
static int merge_test(struct probe_ctx *c, struct auto_open *res)
{
	const uint64_t top = c->erase / c->chunk - 2;
	uint64_t at = probe_au(c, c->area->last);
	double t[AUTO_MERGE_WRITES];
	unsigned int j;
	int ret;

	c->area->written += c->erase;
	ret = write_one(c->dev, at, c->erase, &res->whole_ns);
	/* the first opens the AU, in order; each later one is below it */
	for (j = 0; j <= AUTO_MERGE_WRITES && !ret; j++)
		ret = write_one(c->dev, at + top * (AUTO_MERGE_WRITES - j) /
				AUTO_MERGE_WRITES * c->chunk, c->chunk,
				&t[j ? j - 1 : 0]);
	if (ret)
		return ret;
	res->merge_ns = t[0];
	for (j = 1; j < AUTO_MERGE_WRITES; j++)
		if (t[j] < res->merge_ns)
			res->merge_ns = t[j];
	return 0;
}

/*
 * The answer 0 when random order with one AU costs more than
 * AUTO_COLLAPSE writes in linear order and, on an AU written whole, each
 * write out of order costs AUTO_MERGE_PART of writing it whole at least:
 * a copy of the AU per write, whatever else the card does.  Else the
 * search goes on against its own, slower, reference.  Returns 1 when
 * answered.
 */
static int open_none(struct probe_ctx *c, struct auto_open *res,
		     double lin_ref_ns, int *ret)
{
	double r = lin_ref_ns > 0 ? res->ref_ns / lin_ref_ns : 0;

	*ret = 0;
	if (r <= AUTO_COLLAPSE)
		return 0;
	/* no card programs that much slower out of order: a copy */
	if (r < AUTO_GC_SURE)
		*ret = merge_test(c, res);
	else
		res->merge_ns = res->whole_ns = 0;
	if (*ret || res->merge_ns < AUTO_MERGE_PART * res->whole_ns)
		return *ret != 0;
	res->measured = 1;
	res->nr = 0;
	res->at_least = 0;
	res->confidence = ANALYZE_CONF_HIGH;
	return 1;
}

/* The largest ratio of a collapsed probe of o (0: none collapsed). */
static double collapse_ratio(const struct auto_open *o)
{
	double m = 0;
	size_t i;

	for (i = 0; i < o->nprobes; i++)
		if (o->probes[i].collapsed && o->probes[i].ratio > m)
			m = o->probes[i].ratio;
	return m;
}

/*
 * An AU in random mode is an open AU with a finer map: a card keeps no
 * more AUs open in random order than in linear order.  When the linear
 * search found its number with a collapse one over it, the random search
 * stops there: the probe one over would collapse again, at a garbage
 * collection per write.  Returns that number, or 0 to search on.
 */
static unsigned int random_cap(const struct auto_open *lin)
{
	if (!lin || !lin->measured || lin->at_least || !lin->nr ||
	    lin->confidence < ANALYZE_CONF_MEDIUM)
		return 0;
	return lin->nr;
}

/*
 * The open-AU search in one order: linear when lin is NULL, else random,
 * lin being what the search in linear order found.
 */
static int auto_open(struct device *dev, uint64_t erase,
		     const struct auto_open *lin, struct probe_area *area,
		     struct auto_open *res)
{
	const int random = lin != NULL;
	const double lin_ref_ns = lin ? lin->ref_ns : 0;
	struct probe_ctx c = {
		.dev = dev, .erase = erase, .random = random,
		.base = probe_base(erase), .area = area,
		.spacing = probe_spacing(dev->size_byte, erase),
		.lin_ref_ns = lin ? lin->ref_ns : 0,
	};
	const unsigned int top = probe_max_nr(dev->size_byte, erase);
	unsigned int max = top, held = 1, coll = 0, nr, limit = random_cap(lin);
	double held_ratio = 1, coll_ratio = 0, m;
	struct auto_probe *p;
	int ret;

	c.chunk = AUTO_CHUNK;
	while (c.chunk * 4 > erase && c.chunk > 512)
		c.chunk /= 2;
	res->chunk_byte = c.chunk;
	if (max < 2)
		return -EINVAL;
	p = &res->probes[res->nprobes++];
	ret = probe(&c, 1, lin_ref_ns, p, &res->ref_ns);
	if (ret || (lin && open_none(&c, res, lin_ref_ns, &ret)))
		return ret;
	c.newest = random;	/* the linear search's AUs are open */
	if (limit && limit < max)
		max = limit;
	else
		limit = 0;
	/*
	 * Growing by half until it collapses, then up one at a time from
	 * the last that held: a probe that holds costs a few small writes,
	 * one that collapses a garbage collection per write, and one with
	 * more AUs more of them; so only two collapse, neither by much.
	 */
	for (nr = 2; nr <= max; nr = next_nr(nr, max)) {
		p = &res->probes[res->nprobes++];
		ret = probe(&c, nr, res->ref_ns, p, &m);
		if (ret)
			return ret;
		if (p->collapsed) {
			coll = nr;
			coll_ratio = p->ratio;
			break;
		}
		held = nr;
		held_ratio = p->ratio;
	}
	while (coll && coll - held > 1 && res->nprobes < AUTO_MAX_PROBES) {
		nr = held + 1;
		p = &res->probes[res->nprobes++];
		ret = probe(&c, nr, res->ref_ns, p, &m);
		if (ret)
			return ret;
		if (p->collapsed) {
			coll = nr;
			coll_ratio = p->ratio;
		} else {
			held = nr;
			held_ratio = p->ratio;
		}
	}
	if (limit && !coll) {
		coll = limit + 1;
		coll_ratio = collapse_ratio(lin);
		res->from_linear = coll;
	}
	/*
	 * One AU over costing only a little (a card that keeps one more in
	 * a log): two over must collapse for the answer to be sure.
	 */
	if (coll && coll_ratio <= AUTO_COLLAPSE && coll < top &&
	    !res->from_linear && res->nprobes < AUTO_MAX_PROBES) {
		ret = sharp_ratio(&c, res, coll + 1, &coll_ratio);
		if (ret)
			return ret;
	}
	res->measured = 1;
	res->nr = held;
	res->at_least = !coll;
	res->confidence = coll ? open_confidence(held_ratio, coll_ratio) :
				 ANALYZE_CONF_LOW;
	return 0;
}

/*
 * Take the erase size from writes when the reads were not sure of it:
 * confirmed when both agree, replaced when the writes are surer.
 */
static void erase_combine(struct auto_result *r)
{
	const struct auto_erase_search *s = &r->erase_writes;
	struct analyze_step *e = &r->align.erase;

	r->erase_reads = *e;
	if (!s->erase_byte)
		return;
	if (s->erase_byte == e->size_byte) {
		r->erase_from = AUTO_ERASE_CONFIRMED;
		if (s->confidence > e->confidence)
			e->confidence = s->confidence;
		return;
	}
	if (s->confidence <= e->confidence)
		return;
	r->erase_from = AUTO_ERASE_FROM_WRITES;
	e->size_byte = s->erase_byte;
	e->confidence = s->confidence;
}

/* Announce ranges (first call or a later phase); 0 or the hook's error. */
static int announce(const struct auto_hooks *h, struct bench_range *ranges,
		    int n)
{
	if (!h || !h->before_write)
		return 0;
	return h->before_write(h->ctx, ranges, (size_t)n);
}

/* The erase search from writes, when the reads were not sure. */
static int auto_erase_writes(struct device *dev, const struct auto_hooks *h,
			     struct auto_result *r)
{
	struct bench_range ranges[AUTO_MAX_RANGES];
	uint64_t t1 = dev_now_ns(dev);
	int n, ret;

	n = auto_search_ranges(dev->size_byte, dev->logical_block_size,
			       ranges, AUTO_MAX_RANGES);
	if (n < 0)
		return 0;	/* too small a device: the reads decide */
	ret = announce(h, ranges, n);
	if (ret)
		return ret;
	say(h, "auto: %s\n", "erase size from writes");
	ret = erase_search(dev, &r->erase_writes);
	r->step_ns[4] = dev_now_ns(dev) - t1;
	if (!ret)
		erase_combine(r);
	return ret;
}

/*
 * The last write step: is all of the card there?  Its own phase of
 * ranges (--capacity's, from the device size alone).  A device too small
 * for it skips it.  Returns 0 or -errno.
 */
static int auto_capacity(struct device *dev, const struct bench_opts *o,
			 const struct auto_hooks *h, struct auto_result *r)
{
	struct bench_range *rg;
	int n, ret;

	n = capacity_write_ranges(BENCH_CAPACITY, o, dev->size_byte, NULL, 0);
	if (n < 0)
		return 0;
	rg = malloc((size_t)n * sizeof(*rg));
	if (!rg)
		return -ENOMEM;
	n = capacity_write_ranges(BENCH_CAPACITY, o, dev->size_byte, rg,
				  (size_t)n);
	ret = n < 0 ? n : announce(h, rg, n);
	free(rg);
	if (ret)
		return ret;
	say(h, "auto: %s\n", "capacity check (writes)");
	ret = capacity_measure(dev, o, &r->capacity);
	r->capacity_done = !ret;
	return ret;
}

/* ---- host noise and what it does to the verdict ---- */

/* The noise of the run, from every align table's reads. */
static void noise_measure(struct auto_result *r)
{
	struct auto_noise *n = &r->noise;
	size_t i;

	n->cells = n->delayed = n->once_cells = n->once_delayed = 0;
	n->delay_ns = 0;
	for (i = 0; i < r->ntables; i++) {
		const struct auto_table *t = &r->tables[i];

		n->cells += t->cells;
		n->delayed += t->least_delayed;
		n->once_cells += t->once_cells;
		n->once_delayed += t->once_delayed;
		if (t->delay_ns > n->delay_ns)
			n->delay_ns = t->delay_ns;
	}
	if (noise_high(n->cells, n->delayed))
		n->level = AUTO_NOISE_HIGH;
	else if (n->delayed || n->once_delayed)
		n->level = AUTO_NOISE_SOME;
	else
		n->level = AUTO_NOISE_LOW;
}

static void cap(enum analyze_confidence *c, enum analyze_confidence max)
{
	if (*c > max)
		*c = max;
}

/* The ratio of o's probe of nr AUs; 0 when there is none. */
static double probe_ratio(const struct auto_open *o, unsigned int nr)
{
	size_t i;

	for (i = 0; i < o->nprobes; i++)
		if (o->probes[i].nr == nr)
			return o->probes[i].ratio;
	return 0;
}

/*
 * An open-AU count on a noisy host: a run of delayed writes looks like a
 * collapse, and a delayed reference hides a small one (a card that
 * collapses gradually), so the count stands (medium at most) only when it
 * held as fast as the fastest probe and the collapse one over it cost far
 * more per write than any delay seen; else it is low.
 */
static void noise_open(struct auto_open *o, double delay_ns)
{
	double held, coll, base = 1;
	size_t i;

	if (!o->measured || o->confidence <= ANALYZE_CONF_LOW)
		return;
	/* the reference itself may have been delayed: the fastest probe */
	for (i = 0; i < o->nprobes; i++)
		if (!o->probes[i].collapsed && o->probes[i].ratio < base)
			base = o->probes[i].ratio;
	held = o->nr <= 1 ? 1 : probe_ratio(o, o->nr);
	coll = o->from_linear ? 0 : probe_ratio(o, o->nr + 1);
	if (o->nr && held > 0 && held < AUTO_HOLD * base &&
	    (coll - held) * o->ref_ns > NOISE_MARGIN * delay_ns)
		cap(&o->confidence, ANALYZE_CONF_MEDIUM);
	else
		cap(&o->confidence, ANALYZE_CONF_LOW);
}

/*
 * Let every confidence take the noise into account.  On a noisy host the
 * write steps time single writes, which the noise delays in runs as long
 * as what they look for (a collapse, a faster area, a boundary): their
 * answers are low unless far clear of the delays seen.  The reads were
 * read again until sure (align_read); a value the reads still leave short
 * of high is low.  Write steps placed by an erase size read with low
 * confidence are low too: the AUs they wrote may not be AUs.
 */
static void noise_confidence(struct auto_result *r)
{
	const enum analyze_confidence any = ANALYZE_CONF_HIGH;
	enum analyze_confidence writes = r->erase_fallback ?
					 ANALYZE_CONF_LOW : any;

	if (r->noise.level == AUTO_NOISE_HIGH) {
		struct align_verdict *v = &r->align;

		noise_open(&r->open_linear, r->noise.delay_ns);
		noise_open(&r->open_random, r->noise.delay_ns);
		cap(&r->fat.confidence, ANALYZE_CONF_LOW);
		if (r->erase_from == AUTO_ERASE_FROM_WRITES)
			cap(&v->erase.confidence, ANALYZE_CONF_LOW);
		if (v->erase.confidence < ANALYZE_CONF_HIGH)
			cap(&v->erase.confidence, ANALYZE_CONF_LOW);
		if (v->page.confidence < ANALYZE_CONF_HIGH)
			cap(&v->page.confidence, ANALYZE_CONF_LOW);
		if (v->plane.confidence < ANALYZE_CONF_HIGH)
			cap(&v->plane.confidence, ANALYZE_CONF_LOW);
		if (v->group.confidence < ANALYZE_CONF_HIGH)
			cap(&v->group.confidence, ANALYZE_CONF_LOW);
	}
	cap(&r->open_linear.confidence, writes);
	cap(&r->open_random.confidence, writes);
	cap(&r->fat.confidence, writes);
}

/*
 * Why the write steps cannot run, and what would settle it, when the
 * erase size is not known well enough to place their writes.  With one
 * read at low confidence, they run on it (erase_fallback): their answers
 * are low, but said.
 */
static int erase_premise(struct auto_result *r)
{
	const struct analyze_step *e = &r->align.erase;

	if (e->size_byte && e->confidence >= ANALYZE_CONF_MEDIUM)
		return 1;
	if (e->size_byte && e->confidence == ANALYZE_CONF_LOW) {
		r->erase_fallback = 1;
		return 1;
	}
	r->skip_reason = r->erase_writes.measured ?
		"no erase size to place their writes, from reads nor from writes" :
		"no erase size to place their writes, and the device is too small to find it by writing";
	r->skip_settle = r->noise.level == AUTO_NOISE_HIGH ?
		"the timings were noisy: run again on a quiet host (close other programs)" :
		"read the erase size in the classic align table (flashbench -a DEVICE), then measure with it (flashbench -O --erasesize=SIZE DEVICE, flashbench -f --erasesize=SIZE DEVICE)";
	return 0;
}

int auto_run(struct device *dev, const struct bench_opts *o, int destructive,
	     const struct auto_hooks *h, struct auto_result *r)
{
	struct bench_range ranges[AUTO_MAX_RANGES];
	uint64_t t0 = dev_now_ns(dev), t1, erase;
	struct probe_area area = { 0 };
	int ret, n;

	for (n = 0; n < AUTO_MAX_NR; n++)
		area.order[n] = (unsigned int)n;

	memset(r, 0, sizeof(*r));
	r->destructive = destructive;
	r->search_fits = auto_search_ranges(dev->size_byte,
					    dev->logical_block_size, ranges,
					    AUTO_MAX_RANGES) >= 0;
	r->sector_byte = dev->logical_block_size;
	ret = auto_align(dev, o, h, r);
	r->step_ns[0] = dev_now_ns(dev) - t0;
	noise_measure(r);
	if (ret)
		goto out;
	if (!destructive) {
		r->skip_reason = "needs --destructive";
		r->skip_settle = "flashbench --auto --destructive DEVICE";
		goto out;
	}
	if (r->align.erase.confidence < ANALYZE_CONF_HIGH) {
		ret = auto_erase_writes(dev, h, r);
		if (ret)
			goto out;
	}
	erase = r->align.erase.size_byte;
	if (!erase_premise(r))
		goto out;
	n = auto_write_ranges(dev->size_byte, erase, ranges,
			      AUTO_MAX_RANGES);
	if (n < 0 || probe_max_nr(dev->size_byte, erase) < 2) {
		r->skip_reason = "the device is too small for the write probes";
		goto out;
	}
	ret = announce(h, ranges, n);
	if (ret)
		goto out;
	say(h, "auto: %s\n", "open-AU search, linear order (writes)");
	t1 = dev_now_ns(dev);
	ret = auto_open(dev, erase, NULL, &area, &r->open_linear);
	if (!ret && r->open_linear.at_least) {
		/* no collapse on the AUs as found: on AUs full of data? */
		say(h, "auto: %s\n", "open-AU search again, on AUs written whole first (writes)");
		memset(&r->open_linear, 0, sizeof(r->open_linear));
		area.whole = 1;
		r->precondition_again = 1;
		ret = auto_open(dev, erase, NULL, &area, &r->open_linear);
	}
	r->step_ns[2] = dev_now_ns(dev) - t1;
	r->precondition_byte = area.written;
	if (ret)
		goto out;
	say(h, "auto: %s\n", "open-AU search, random order (writes)");
	t1 = dev_now_ns(dev);
	ret = auto_open(dev, erase, &r->open_linear, &area, &r->open_random);
	r->step_ns[3] = dev_now_ns(dev) - t1;
	r->precondition_byte = area.written;
	if (ret)
		goto out;
	/* last: it puts the probe AUs in random mode (fat_prime) */
	say(h, "auto: %s\n", "FAT area probe (writes)");
	t1 = dev_now_ns(dev);
	ret = auto_fat(dev, erase, &r->fat);
	r->step_ns[1] = dev_now_ns(dev) - t1;
out:
	noise_confidence(r);
	if (!ret && destructive)
		ret = auto_capacity(dev, o, h, r);
	r->device_ns = dev_now_ns(dev) - t0;
	return ret;
}

void auto_free(struct auto_result *r)
{
	size_t i;

	for (i = 0; i < r->ntables; i++)
		free(r->tables[i].rows);
	r->ntables = 0;
}

const char *auto_fat_shown_by(const struct auto_fat *f)
{
	if (!f->found)
		return NULL;
	/* an area that spares the copy shows in -f --random: out of order */
	return f->linear && (f->random || f->nocopy) ? "both" :
	       f->linear ? "linear" : "random";
}
