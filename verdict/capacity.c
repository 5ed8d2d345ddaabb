// SPDX-License-Identifier: GPL-2.0-only
/*
 * --capacity's verdict: a pure function of what the search saw (struct
 * capacity_evidence), so that a record is judged again as the run was;
 * and whether the card it found is short, as an exit status.
 */
#include "capverdict.h"
#include "opts.h"

void capacity_decide(struct capacity_result *r)
{
	const struct capacity_evidence *e = &r->ev;
	uint64_t slack;

	r->limbo_garbage = e->lost_garbage;
	r->flush_byte = e->flush_byte;
	r->cache_byte = e->cache_byte;
	r->lost_byte = 0;
	r->modulus_byte = 0;
	r->exact = 0;
	r->usable_byte = e->stored_byte / CAPACITY_BLOCK * CAPACITY_BLOCK;
	if (e->lost) {
		r->lost_byte = e->lost_byte;
		if (r->usable_byte > e->lost_byte)
			r->usable_byte = e->lost_byte / CAPACITY_BLOCK *
					 CAPACITY_BLOCK;
	}
	if (e->alias_byte) {
		/* addresses repeat: the period is the flash's size */
		r->kind = CAPACITY_WRAP;
		r->modulus_byte = e->alias_byte;
		r->usable_byte = e->alias_byte;
		r->exact = 1;
	} else if (e->lost_below_stored) {
		r->kind = CAPACITY_DAMAGED;
	} else if (e->lost) {
		/* exact when the lost write lies within 1 % (or a step) */
		r->kind = CAPACITY_LIMBO;
		slack = r->usable_byte / 100 > CAPACITY_STEP ?
			r->usable_byte / 100 : CAPACITY_STEP;
		r->exact = e->lost_byte - r->usable_byte <= slack;
	} else {
		r->kind = CAPACITY_GENUINE;
		r->usable_byte = r->announced_byte;
	}
	/* the scan's step after the whole flush region: half of it */
	r->defeat_byte = e->flush_byte / 2 / CAPACITY_SECTOR * CAPACITY_SECTOR;
}

int capacity_short(const struct capacity_result *r)
{
	switch (r->kind) {
	case CAPACITY_GENUINE:
		return 0;
	case CAPACITY_LIMBO:
		return BENCH_LIMBO;
	case CAPACITY_WRAP:
		return BENCH_WRAP;
	default:
		return BENCH_SHORT;
	}
}
