// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulated card's pseudo-SLC write cache (slc=, slc_mbps=,
 * fold_mbps=), in front of either map: the AUs of a block-mapped card
 * (simau.c) or the mapping units of a page-mapped one (simpage.c).
 *
 * Today's cards write part of their flash one bit per cell (pSLC), which
 * programs several times faster than the native two or three bits (MLC,
 * TLC), and fold it into native cells later.  Real cards: an SD Express
 * card writes about 375 MB/s, then about 30 once its cache is full; USB
 * sticks go 300 -> 80 -> 45 MB/s after some 20 s of writing; an eMMC 5.x
 * states the largest such area it can make (MAX_ENH_SIZE_MULT: a half of
 * its user area on MLC parts, a third on TLC).
 *
 * The model: a write costs access + len / slc_mbps while the cache has
 * room, and what the map charges (write_mbps, the open AUs, the page
 * map's garbage collection: the native speed) once it is full; a write
 * that fills it pays the first rate for what fits and its share of the
 * native cost for the rest.  Every byte written into it counts, whatever
 * its address (the cache is a log).  The card folds in the order written,
 * so what folding leaves behind is what writing natively would have left:
 * the map's state moves on at every write, cached or not, and only its
 * cost is not charged while the cache takes the write.  The card folds
 * while idle, at fold_mbps: idle is time on the card's clock between the
 * end of one command and the start of the next (dev_idle()), so writes
 * after a pause are fast again, by fold_mbps times the pause.  Untimed
 * I/O (--preserve's save and write-back) neither fills nor drains it.
 */
#include <stdint.h>

#include "sim.h"
#include "simint.h"

/* What the map (AUs or pages) charges for a write, in ns. */
static double sim_native_ns(struct sim_card *c, uint64_t pos, uint64_t len)
{
	if (c->page)
		return sim_page_write_ns(c, pos, len);
	return sim_write_ns(c, pos, len, 0.0);
}

/*
 * The cost of a write of len bytes at pos without the access time, in
 * ns: into the pSLC cache as far as it has room, natively for the rest.
 */
double sim_store_ns(struct sim_card *c, uint64_t pos, uint64_t len)
{
	const struct sim_params *p = &c->p;
	uint64_t fit = 0;
	double native, t;

	if (p->slc_byte && !c->dev.untimed)
		fit = p->slc_byte - c->slc_fill < len ?
		      p->slc_byte - c->slc_fill : len;
	native = sim_native_ns(c, pos, len);
	if (!fit) {
		t = native;
	} else {
		/* the part that fits at the cache's rate, the rest natively */
		c->slc_fill += fit;
		t = sim_xfer_ns(fit, p->slc_mbps) +
		    native * (double)(len - fit) / (double)len;
	}
	return t;
}

/* Fold what idle_ns of idle time allows from the cache into the flash. */
void sim_slc_fold(struct sim_card *c, uint64_t idle_ns)
{
	double folded = (double)idle_ns * c->p.fold_mbps / 1000.0;

	if (folded >= (double)c->slc_fill)
		c->slc_fill = 0;
	else
		c->slc_fill -= (uint64_t)folded;
}
