// SPDX-License-Identifier: GPL-2.0-only
/*
 * The page-mapped simulated card (ftl=page, map=, spare=): a hybrid FTL
 * as in A1 and A2 cards and eMMC, which maps each mapping unit of map
 * bytes (4-16 KiB on real cards) to any place in the flash, rather than
 * whole AUs to erase blocks.  What the classic tests find on a
 * block-mapped card is then not there: no limit of open AUs (the classic
 * -O on a SanDisk Ultra 64 GB showed 64 and more AUs open, no collapse),
 * no cost for writes out of order, no FAT area.  What shows instead:
 *
 *   - a write smaller than the mapping unit, or not aligned to it, costs
 *     a read-modify-write of each unit it covers in part: the card reads
 *     the rest of the unit (map / read_mbps, when the unit holds data)
 *     and programs the whole unit;
 *   - garbage collection, only as the card fills.  The flash holds
 *     size * (1 + spare / 100) bytes (at least three erase blocks more
 *     than size) in erase blocks of erase bytes.  Every write goes to the
 *     next free unit of the block being written; the unit it replaces
 *     turns invalid.  When a fresh block is needed and fewer than two are
 *     free, the card reclaims the block with the fewest valid units
 *     (greedy): it copies them into the block being written and erases
 *     the block, which costs valid * map / write_mbps + erase_us.  On a
 *     card with free space this never happens; a card rewritten in order
 *     leaves whole blocks invalid, which cost the erase alone; small
 *     writes all over a full card make every block half valid or more,
 *     and each reclaim copies that much: the cost grows as the free space
 *     runs out.
 *
 * A write costs access + (units touched) * map / write_mbps + the reads
 * of its partial units + the reclaims it needed.  used=1 (the default)
 * starts with every unit holding data, as a card filled once and never
 * trimmed; used=0 a new card, all free.  A discard frees the units it
 * covers whole.  Reads cost what they cost on a block-mapped card.  The
 * keys of the AUs (open, open_random, fat, ooo, close ...) do not apply.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "sim.h"
#include "simint.h"

#define SIM_PAGE_NONE	UINT32_MAX	/* an unmapped unit, a free slot */
#define SIM_PAGE_LAID	0		/* a map entry as laid out at first */
#define SIM_PAGE_MIN_FREE 2		/* reclaim below this many blocks */
#define SIM_PAGE_MORE	3		/* blocks beyond size, at least */

/* The map of a page-mapped card. */
struct sim_page {
	uint64_t unit_byte;	/* the mapping unit */
	uint32_t per_block;	/* units in an erase block */
	uint32_t nr_block;	/* erase blocks of the flash */
	bool used;		/* laid out full (used=1) or empty */
	uint64_t units;		/* logical units */
	/*
	 * The maps, allocated zeroed so that a large card costs memory only
	 * for what is written: SIM_PAGE_LAID, as laid out at first (used:
	 * unit l in flash unit l; new: none), SIM_PAGE_NONE, or the unit
	 * plus one.
	 */
	uint32_t *fwd;		/* per logical unit: its flash unit */
	uint32_t *rev;		/* per flash unit: its logical unit */
	uint32_t cursor;	/* where the next search for a victim starts */
	uint32_t *valid;	/* per block: units that hold data */
	bool *is_free;		/* per block: erased, in the free list */
	uint32_t *free;		/* free blocks, a stack */
	uint32_t nr_free;
	uint32_t front;		/* the block being written */
	uint32_t front_used;	/* its units written */
};

/* Erase blocks of the flash of a page-mapped card of p. */
uint64_t sim_page_blocks(const struct sim_params *p)
{
	uint64_t per = p->erase_byte / p->map_byte;
	uint64_t units = p->size_byte / p->map_byte;
	uint64_t least = (units + per - 1) / per + SIM_PAGE_MORE;
	double want = (double)units * (1.0 + p->spare_pct / 100.0);
	uint64_t blocks = (uint64_t)ceil(want / (double)per);

	return blocks > least ? blocks : least;
}

/*
 * Lay out the blocks: on a used card logical unit l in flash unit l (the
 * maps say so by SIM_PAGE_LAID), the rest free; a partly filled last
 * block goes on being written.
 */
static void sim_page_layout(struct sim_page *g)
{
	uint64_t b, full = g->used ? g->units / g->per_block : 0;

	for (b = 0; b < full; b++)
		g->valid[b] = g->per_block;
	g->valid[full] = g->used ?
			 (uint32_t)(g->units - full * g->per_block) : 0;
	g->front = (uint32_t)full;
	g->front_used = g->valid[full];
	for (b = g->nr_block; b-- > full + 1;) {
		g->is_free[b] = true;
		g->free[g->nr_free++] = (uint32_t)b;
	}
}

/* The flash unit logical unit l is in, or SIM_PAGE_NONE. */
static uint32_t sim_page_fwd(const struct sim_page *g, uint64_t l)
{
	uint32_t f = g->fwd[l];

	if (f == SIM_PAGE_LAID)
		return g->used ? (uint32_t)l : SIM_PAGE_NONE;
	return f == SIM_PAGE_NONE ? f : f - 1;
}

/* The logical unit flash unit f holds, or SIM_PAGE_NONE. */
static uint32_t sim_page_rev(const struct sim_page *g, uint64_t f)
{
	uint32_t l = g->rev[f];

	if (l == SIM_PAGE_LAID)
		return g->used && f < g->units ? (uint32_t)f : SIM_PAGE_NONE;
	return l == SIM_PAGE_NONE ? l : l - 1;
}

int sim_page_init(struct sim_card *c)
{
	const struct sim_params *p = &c->p;
	uint64_t units = p->size_byte / p->map_byte;
	struct sim_page *g = calloc(1, sizeof(*g));
	uint64_t flash;

	if (!g)
		return -ENOMEM;
	c->page = g;
	g->unit_byte = p->map_byte;
	g->per_block = (uint32_t)(p->erase_byte / p->map_byte);
	g->nr_block = (uint32_t)sim_page_blocks(p);
	flash = (uint64_t)g->nr_block * g->per_block;
	g->used = p->used;
	g->units = units;
	g->fwd = calloc(units, sizeof(*g->fwd));
	g->rev = calloc(flash, sizeof(*g->rev));
	g->valid = calloc(g->nr_block, sizeof(*g->valid));
	g->is_free = calloc(g->nr_block, sizeof(*g->is_free));
	g->free = calloc(g->nr_block, sizeof(*g->free));
	if (!g->fwd || !g->rev || !g->valid || !g->is_free || !g->free)
		return -ENOMEM;	/* sim_page_free() frees what was had */
	sim_page_layout(g);
	return 0;
}

void sim_page_free(struct sim_card *c)
{
	struct sim_page *g = c->page;

	if (!g)
		return;
	free(g->fwd);
	free(g->rev);
	free(g->valid);
	free(g->is_free);
	free(g->free);
	free(g);
	c->page = NULL;
}

/* Turn the flash unit logical unit l is in invalid, if it is in one. */
static void sim_page_drop(struct sim_page *g, uint64_t l)
{
	uint32_t f = sim_page_fwd(g, l);

	if (f == SIM_PAGE_NONE)
		return;
	g->rev[f] = SIM_PAGE_NONE;
	g->valid[f / g->per_block]--;
	g->fwd[l] = SIM_PAGE_NONE;
}

/* Put logical unit l in the next unit of the block being written. */
static void sim_page_put(struct sim_page *g, uint32_t l)
{
	uint32_t f = g->front * g->per_block + g->front_used++;

	g->fwd[l] = f + 1;
	g->rev[f] = l + 1;
	g->valid[g->front]++;
}

/*
 * The block with the fewest valid units, neither free nor written now:
 * the first such from the last victim on, and at once one with none (a
 * card rewritten in order finds it next to the last).
 */
static uint32_t sim_page_victim(struct sim_page *g)
{
	uint32_t i, best = SIM_PAGE_NONE;

	for (i = 0; i < g->nr_block; i++) {
		uint32_t b = (g->cursor + i) % g->nr_block;

		if (g->is_free[b] || b == g->front)
			continue;
		if (best == SIM_PAGE_NONE || g->valid[b] < g->valid[best])
			best = b;
		if (!g->valid[b])
			break;
	}
	if (best != SIM_PAGE_NONE)
		g->cursor = best;
	return best;
}

/* Take a free block to write into; the block written so far is full. */
static void sim_page_next(struct sim_page *g)
{
	g->front = g->free[--g->nr_free];
	g->is_free[g->front] = false;
	g->front_used = 0;
}

/*
 * Reclaim one block: copy its valid units into the block being written
 * (taking a free one when that fills), erase it.  Returns the cost in ns,
 * or -1 when no block would give anything back.
 */
static double sim_page_reclaim(struct sim_card *c)
{
	struct sim_page *g = c->page;
	uint32_t v = sim_page_victim(g), i, moved;

	if (v == SIM_PAGE_NONE || g->valid[v] == g->per_block)
		return -1;
	moved = g->valid[v];
	for (i = 0; i < g->per_block && g->valid[v]; i++) {
		uint32_t l = sim_page_rev(g, (uint64_t)v * g->per_block + i);

		if (l == SIM_PAGE_NONE)
			continue;
		if (g->front_used == g->per_block)
			sim_page_next(g);
		sim_page_drop(g, l);
		sim_page_put(g, l);
	}
	g->is_free[v] = true;
	g->free[g->nr_free++] = v;
	return sim_xfer_ns((uint64_t)moved * g->unit_byte, c->p.write_mbps) +
	       c->p.erase_us * 1000.0;
}

/*
 * A unit to write logical unit l into, reclaiming blocks first when the
 * block being written is full and fewer than two are free.  Returns the
 * cost of the reclaims, in ns.
 */
static double sim_page_place(struct sim_card *c, uint32_t l)
{
	struct sim_page *g = c->page;
	double t = 0;

	sim_page_drop(g, l);
	if (g->front_used == g->per_block) {
		double r;

		while (g->nr_free < SIM_PAGE_MIN_FREE &&
		       (r = sim_page_reclaim(c)) >= 0)
			t += r;
		if (g->front_used == g->per_block)
			sim_page_next(g);
	}
	sim_page_put(g, l);
	return t;
}

double sim_page_write_ns(struct sim_card *c, uint64_t pos, uint64_t len)
{
	struct sim_page *g = c->page;
	uint64_t map = g->unit_byte, end = pos + len, u;
	uint64_t first = pos / map, last = (end - 1) / map;
	double t = 0;

	for (u = first; u <= last; u++) {
		bool part = u * map < pos || (u + 1) * map > end;

		/* the rest of a unit written in part is read, then merged */
		if (part && sim_page_fwd(g, u) != SIM_PAGE_NONE)
			t += sim_xfer_ns(map, c->p.read_mbps);
		t += sim_page_place(c, (uint32_t)u);
	}
	return t + sim_xfer_ns((last - first + 1) * map, c->p.write_mbps);
}

void sim_page_discard(struct sim_card *c, uint64_t pos, uint64_t len)
{
	struct sim_page *g = c->page;
	uint64_t map = g->unit_byte, u;

	for (u = (pos + map - 1) / map; (u + 1) * map <= pos + len; u++)
		sim_page_drop(g, u);
}
