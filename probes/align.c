// SPDX-License-Identifier: GPL-2.0-only
/*
 * --auto's first step, read-only: align tables.  Alignments 2^n and
 * 3 * 2^n are sampled at positions i * 3 * 2^m, a multiple of every
 * alignment measured, so a boundary of an alignment A is an erase-block
 * boundary exactly when A is a multiple of the erase size, for SDXC's
 * 3 * 2^n AUs as for powers of two.  Block size 1 KiB first; 4 KiB and
 * 16 KiB only when that is unclear.  The rows, read counts and delays go
 * to the record; verdict/tables.c judges them.
 */
#include <errno.h>
#include <stdlib.h>

#include "format.h"
#include "probe.h"

#define AUTO_ALIGN_COUNT 3	/* reads per align position (min kept) */
#define AUTO_ALIGN_FIRST 2	/* of them, read before the first look */
#define AUTO_ALIGN_TOP (3ULL << 30)	/* largest spacing and alignment */

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
	return auto_table_decide(t);
}

/* Delays that the least of reads in a row does not remove (noise.c). */
static int table_noisy(const struct auto_table *t)
{
	return auto_noise_high(t->cells, t->least_delayed);
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
			auto_count_delays(rows, nrows, &t->once_cells,
					  &t->once_delayed, &t->delay_ns);
		align_fold(t->rows, rows, nrows);
		t->count += count;
	}
	free(rows);
	return ret ? ret : auto_table_decide(t);
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
	auto_count_delays(t->rows, t->nrows, &t->cells, &t->least_delayed,
			  &t->delay_ns);
	if (!ret)
		ret = auto_table_decide(t);
	if (ret || auto_table_sure(t, writes))
		return ret;
	ret = align_more(dev, ao, a, n, AUTO_ALIGN_COUNT - AUTO_ALIGN_FIRST,
			 t);
	for (k = 0; !ret && k < NOISE_ROUNDS && table_noisy(t) &&
	     !auto_table_sure(t, writes); k++) {
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
	if (7 * spacing + bs > dev->size_byte || spacing < auto_min_spacing(bs))
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
	if (ret) {
		free(rows);
		return ret == -ENOMEM ? ret : 0;
	}
	r->group_probe.blocksize_byte = bs;
	r->group_probe.spacing_byte = spacing;
	r->group_probe.rows = rows;
	r->group_probe.nrows = nrows;
	auto_group_decide(r);
	return 0;
}

/*
 * Did the erase search from writes run and find no erase size?  A card
 * that maps pages pays no garbage collection while free space lasts
 * (today's sweep card 39: 1 MiB read from one table, low), so no write
 * settles what the tables left to writes.
 */
static int writes_found_none(const struct auto_result *r)
{
	return r->erase_writes.measured && !r->erase_writes.erase_byte;
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
	return r->destructive && r->search_fits && !writes_found_none(r);
}

/* The tables from the next block size on, until they are sure enough. */
static int align_tables(struct device *dev, const struct bench_opts *o,
			const struct auto_hooks *h, struct auto_result *r)
{
	char buf[FMT_LEN];
	size_t i;
	int ret;

	for (i = 0; i < AUTO_MAX_TABLES; i++) {
		uint64_t bs = auto_table_block(i, dev->logical_block_size);

		if (r->ntables &&
		    bs <= r->tables[r->ntables - 1].blocksize_byte)
			continue;
		auto_say(h, "auto: align test, block size %s\n", fmt_size(buf, bs));
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
		auto_align_choose(r);
		if (r->align.page.confidence >= ANALYZE_CONF_MEDIUM &&
		    (r->align.erase.confidence == ANALYZE_CONF_HIGH ||
		     writes_decide(r)))
			break;
	}
	return 0;
}

int auto_probe_align(struct device *dev, const struct bench_opts *o,
		     const struct auto_hooks *h, struct auto_result *r)
{
	int ret = align_tables(dev, o, h, r);

	return ret ? ret : group_probe(dev, o, r);
}

int auto_probe_align_more(struct device *dev, const struct bench_opts *o,
			  const struct auto_hooks *h, struct auto_result *r)
{
	uint64_t t0 = dev_now_ns(dev);
	int ret;

	if (!writes_found_none(r) || !r->ntables ||
	    r->align.erase.confidence == ANALYZE_CONF_HIGH)
		return 0;
	ret = align_tables(dev, o, h, r);
	if (!ret && !r->group_probe.rows)
		ret = group_probe(dev, o, r);
	r->step_ns[AUTO_STEP_ALIGN] += dev_now_ns(dev) - t0;
	if (!ret)
		auto_erase_combine(r);
	return ret;
}
