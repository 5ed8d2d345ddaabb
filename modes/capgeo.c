// SPDX-License-Identifier: GPL-2.0-only
/*
 * --capacity's geometry (where it may write on a device of a given size,
 * its probe positions, the ranges it announces) and its signature blocks
 * (each 512-byte sector names its offset and the run's key): the search
 * itself is modes/capacity.c.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "capacity.h"
#include "capint.h"

uint64_t capacity_flush_most(uint64_t dev_size)
{
	return dev_size / 4 / CAP_BLOCK * CAP_BLOCK;
}

/*
 * The geometry of a device of size bytes, its flush region flush_byte
 * long (--flush; 0: the check's own); 0 or -EINVAL (too small).
 */
int cap_geo_init(struct cap_geo *g, uint64_t size, uint64_t flush_byte)
{
	uint64_t w;

	if (size < CAP_MIN_SIZE)
		return -EINVAL;
	w = size / 128 < CAP_FLUSH_MAX ? size / 128 : CAP_FLUSH_MAX;
	if (flush_byte)	/* more (or less) than that, [W, 2W) */
		w = flush_byte < capacity_flush_most(size) ?
		    flush_byte : capacity_flush_most(size);
	g->size = size;
	g->flush = w / CAP_BLOCK * CAP_BLOCK;
	g->first = g->flush < CAP_FLUSH_FIRST ? g->flush : CAP_FLUSH_FIRST;
	g->grid = size / CAP_GRID / CAP_BLOCK * CAP_BLOCK;
	g->chunk = g->grid < CAP_CHUNK ? g->grid : CAP_CHUNK;
	g->lo0 = (unsigned int)((2 * g->flush + CAP_BLOCK - 1) / g->grid);
	return 0;
}

/* The end of coarse probe k (1..256). */
uint64_t cap_end(const struct cap_geo *g, unsigned int k)
{
	return k >= CAP_GRID ? g->size : k * g->grid;
}

/*
 * The fine step between coarse probes k - 1 and k: 1/128 of where it
 * starts (a usable size within 1 %), at most 1/16 of the grid, at least
 * 1 MiB.
 */
uint64_t cap_step(const struct cap_geo *g, unsigned int k)
{
	uint64_t s = cap_end(g, k - 1) / CAP_REL;

	if (s > g->grid / CAP_FINE)
		s = g->grid / CAP_FINE;
	s = s / CAP_BLOCK * CAP_BLOCK;
	return s < CAP_STEP ? CAP_STEP : s;
}

/* Note end e as position n (when there is room); the count. */
static size_t cap_put(uint64_t *pos, size_t max, size_t n, uint64_t e)
{
	if (pos && n < max)
		pos[n] = e;
	return n + 1;
}

/*
 * The end of every probe the search may write, ascending: every MiB
 * below the coarse grid, then the coarse grid with its fine steps.  The
 * count.
 */
size_t cap_positions(const struct cap_geo *g, uint64_t *pos, size_t max)
{
	uint64_t e, top = cap_end(g, g->lo0);
	unsigned int k;
	size_t n = 0;

	for (e = CAP_STEP; e <= top; e += CAP_STEP)
		n = cap_put(pos, max, n, e);
	for (k = g->lo0 + 1; k <= CAP_GRID; k++) {
		uint64_t s = cap_step(g, k);

		for (e = cap_end(g, k - 1) + s; e < cap_end(g, k); e += s)
			n = cap_put(pos, max, n, e);
		n = cap_put(pos, max, n, cap_end(g, k));
	}
	return n;
}

/* Ranges as they are noted: merged with the last when they touch. */
struct cap_ranges {
	struct bench_range *r;	/* NULL: count only */
	size_t max, n;
	uint64_t last_end;	/* end of range n - 1 */
};

/* Note [start, end), ascending. */
static void cap_range(struct cap_ranges *rs, uint64_t start, uint64_t end)
{
	if (rs->n && start <= rs->last_end) {
		if (end <= rs->last_end)
			return;
		if (rs->r && rs->n <= rs->max)
			rs->r[rs->n - 1].end_byte = end;
	} else {
		if (rs->r && rs->n < rs->max)
			rs->r[rs->n].start_byte = start;
		if (rs->r && rs->n < rs->max)
			rs->r[rs->n].end_byte = end;
		rs->n++;
	}
	rs->last_end = end;
}

int capacity_write_ranges(enum bench_test test, const struct bench_opts *o,
			  uint64_t dev_size, struct bench_range *ranges,
			  size_t max)
{
	struct cap_ranges rs = { ranges, max, 0, 0 };
	struct cap_geo g;
	uint64_t *pos;
	size_t i, np;

	(void)test;
	if (cap_geo_init(&g, dev_size, o ? o->flush_byte : 0))
		return -EINVAL;
	np = cap_positions(&g, NULL, 0);
	pos = malloc(np * sizeof(*pos));
	if (!pos)
		return -ENOMEM;
	cap_positions(&g, pos, np);
	for (i = 0; i < np && pos[i] <= g.flush; i++)
		cap_range(&rs, pos[i] - CAP_BLOCK, pos[i]);
	cap_range(&rs, g.flush, 2 * g.flush);
	for (; i < np; i++)
		if (pos[i] - CAP_BLOCK >= 2 * g.flush &&
		    pos[i] - CAP_BLOCK < g.size - g.chunk)
			cap_range(&rs, pos[i] - CAP_BLOCK, pos[i]);
	cap_range(&rs, g.size - g.chunk, g.size);
	free(pos);
	if (ranges && max < rs.n)
		return -ENOSPC;
	return rs.n > INT_MAX ? -E2BIG : (int)rs.n;
}

int capacity_flush_region(uint64_t dev_size, uint64_t flush_byte,
			  uint64_t *start, uint64_t *end)
{
	struct cap_geo g;

	if (cap_geo_init(&g, dev_size, flush_byte))
		return -EINVAL;
	*start = g.flush;
	*end = 2 * g.flush;
	return 0;
}

/* A finalizer of splitmix64: spreads x over 64 bits. */
uint64_t cap_mix(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* Word i of the sector at off. */
static uint64_t cap_word(uint64_t key, uint64_t off, unsigned int i)
{
	if (i == 0)
		return CAP_MAGIC ^ key;
	if (i == 1)
		return off;
	return cap_mix(key ^ cap_mix(off + i));
}

/* Sign len bytes of buf as written at off. */
void cap_sign(unsigned char *buf, uint64_t len, uint64_t off,
	      uint64_t key)
{
	uint64_t s, w;
	unsigned int i;

	for (s = 0; s < len; s += CAP_SECTOR)
		for (i = 0; i < CAP_WORDS; i++) {
			w = cap_word(key, off + s, i);
			memcpy(buf + s + 8 * i, &w, sizeof(w));
		}
}

/* Is the sector ours?  Then *named gets the offset it names. */
int cap_ours(const unsigned char *sec, uint64_t key, uint64_t *named)
{
	uint64_t w, off;
	unsigned int i;

	memcpy(&w, sec, sizeof(w));
	if (w != (CAP_MAGIC ^ key))
		return 0;
	memcpy(&off, sec + 8, sizeof(off));
	for (i = 2; i < CAP_WORDS; i++) {
		memcpy(&w, sec + 8 * i, sizeof(w));
		if (w != cap_word(key, off, i))
			return 0;
	}
	*named = off;
	return 1;
}
