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
#define SIM_PAGE_MIN_FREE 2		/* reclaim below this many blocks */
#define SIM_PAGE_MORE	3		/* blocks beyond size, at least */

/* The map of a page-mapped card. */
struct sim_page {
	uint64_t unit_byte;	/* the mapping unit */
	uint32_t per_block;	/* units in an erase block */
	uint32_t nr_block;	/* erase blocks of the flash */
	uint32_t *fwd;		/* per logical unit: its flash unit */
	uint32_t *rev;		/* per flash unit: its logical unit */
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

/* Lay out a used card: logical unit l in flash unit l, the rest free. */
static void sim_page_layout(struct sim_page *g, uint64_t units, bool used)
{
	uint64_t u, b, full = used ? units / g->per_block : 0;

	for (u = 0; u < units; u++)
		g->fwd[u] = used ? (uint32_t)u : SIM_PAGE_NONE;
	for (u = 0; u < (uint64_t)g->nr_block * g->per_block; u++)
		g->rev[u] = used && u < units ? (uint32_t)u : SIM_PAGE_NONE;
	for (b = 0; b < g->nr_block; b++) {
		g->valid[b] = b < full ? g->per_block : 0;
		if (used && b == full)
			g->valid[b] = (uint32_t)(units - full * g->per_block);
	}
	/* a partly filled last block goes on being written */
	g->front = (uint32_t)full;
	g->front_used = g->valid[full];
	for (b = g->nr_block; b-- > full + 1;) {
		g->is_free[b] = true;
		g->free[g->nr_free++] = (uint32_t)b;
	}
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
	g->fwd = malloc(units * sizeof(*g->fwd));
	g->rev = malloc(flash * sizeof(*g->rev));
	g->valid = calloc(g->nr_block, sizeof(*g->valid));
	g->is_free = calloc(g->nr_block, sizeof(*g->is_free));
	g->free = calloc(g->nr_block, sizeof(*g->free));
	if (!g->fwd || !g->rev || !g->valid || !g->is_free || !g->free)
		return -ENOMEM;	/* sim_page_free() frees what was had */
	sim_page_layout(g, units, p->used);
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
	uint32_t f = g->fwd[l];

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

	g->fwd[l] = f;
	g->rev[f] = l;
	g->valid[g->front]++;
}

/* The block with the fewest valid units, neither free nor written now. */
static uint32_t sim_page_victim(const struct sim_page *g)
{
	uint32_t b, best = SIM_PAGE_NONE;

	for (b = 0; b < g->nr_block; b++)
		if (!g->is_free[b] && b != g->front &&
		    (best == SIM_PAGE_NONE || g->valid[b] < g->valid[best]))
			best = b;
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
		uint32_t l = g->rev[v * g->per_block + i];

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
	double t = 0, r;

	sim_page_drop(g, l);
	if (g->front_used == g->per_block) {
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
		if (part && g->fwd[u] != SIM_PAGE_NONE)
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
