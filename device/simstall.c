// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulated card on its own: what it does while the host leaves it
 * idle, and the long stalls of its writes.  Both cost the host time that
 * no position or size explains; a logger or a camera drops data on
 * exactly those.  Real cards: the longest 4 KiB write ranges from 15 to
 * 500 ms depending on the card (an 8 GB eMMC: 99th percentile 263 ms,
 * longest 429 ms), where the SD specification allows a card 250 ms for
 * one write and 750 ms for a file-system update.
 *
 * Idle is time on the card's clock between the end of one command and
 * the start of the next: the host leaves the card alone (dev_idle());
 * in one run of commands there is none (sim.c's sim_arrive() sees it).
 * While idle the card folds its pSLC cache (simcache.c), and:
 *
 *   maint_ms=D, maint_idle_ms=T  background maintenance: when the card
 *              was written since its last maintenance and then left
 *              idle for T ms, it works D ms on its own (eMMC's BKOPS,
 *              an SD card's housekeeping).  A command that arrives
 *              during that time waits for the end of it; one that
 *              arrives later finds it done.  Once per idle spell.
 *   stall_ms=D, stall_bytes=S, stall_writes=N  long write stalls (an
 *              inline reclaim): the write that crosses every S-th byte
 *              written takes D ms more, once for each it crosses;
 *              stall_writes=N is S = N pages (every N-th write of a
 *              page).  A card reclaims when the pages it programmed fill
 *              its free blocks, so the stalls follow the bytes written,
 *              never the count of requests: the same data sent as one
 *              4 MiB write or as eight of 512 KiB (as a kernel may split
 *              it) meets the same stalls.  Where the first stall falls
 *              within the first S bytes comes from the seed; then they
 *              fall exactly every S bytes.
 *
 * Waits and stalls are added after the noise, as the pauses are.  Untimed
 * I/O (--preserve) neither waits nor stalls nor counts.
 */
#include <stdint.h>

#include "sim.h"
#include "simint.h"

#define SIM_STALL_SEED	0x7374616c6cULL	/* "stall": its own sequence */

/*
 * Place the first stall from the seed (stall_bytes over stall_writes;
 * for stall_writes at a page's start, so writes of a page stall at the
 * N-th each time).
 */
void sim_stall_init(struct sim_card *c)
{
	uint64_t st = c->p.seed ^ SIM_STALL_SEED, n = c->p.stall_writes;
	uint64_t page = c->p.page_byte;

	c->stall_every = c->p.stall_bytes ? c->p.stall_bytes : n * page;
	c->stall_phase = 0;
	if (c->p.stall_bytes)
		c->stall_phase = sim_rand_of(&st) % c->stall_every;
	else if (n)
		c->stall_phase = sim_rand_of(&st) % n * page;
}

/*
 * How long a command arriving after idle_ns of idle time waits for the
 * maintenance that idle time started, in ns (0: none, or done by then).
 */
uint64_t sim_maint_wait_ns(struct sim_card *c, uint64_t idle_ns)
{
	uint64_t start = (uint64_t)(c->p.maint_idle_ms * 1e6);
	uint64_t end = start + (uint64_t)(c->p.maint_ms * 1e6);

	if (!c->p.maint_ms || !c->dirty || idle_ns < start)
		return 0;
	c->dirty = false;
	return idle_ns < end ? end - idle_ns : 0;
}

/* A write request of len bytes: its stalls go into extra_ns. */
void sim_stall_write(struct sim_card *c, uint64_t len)
{
	uint64_t stall = (uint64_t)(c->p.stall_ms * 1e6), before, every;

	if (c->dev.untimed)
		return;
	c->dirty = true;
	before = c->nr_written + c->stall_phase;
	c->nr_written += len;
	every = c->stall_every;
	if (every)
		c->extra_ns += ((before + len) / every - before / every) *
			       stall;
}
