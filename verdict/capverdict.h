/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The capacity check judged (verdict/capacity.c): its record in, its
 * verdict out, no I/O.
 */
#ifndef FLASHBENCH_CAPVERDICT_H
#define FLASHBENCH_CAPVERDICT_H

#include "caprec.h"

/*
 * The verdict from r->ev and r->announced_byte (verdict/capacity.c): the
 * kind, the usable size and whether it is exact, the modulus, the cache
 * and how large a cache the flush defeats.  No I/O.
 */
void capacity_decide(struct capacity_result *r);

/*
 * Does the card store less than it announces (not genuine)?  0, or
 * BENCH_LIMBO, BENCH_WRAP or BENCH_SHORT (damaged); verdict/capacity.c.
 */
int capacity_short(const struct capacity_result *r);

#endif /* FLASHBENCH_CAPVERDICT_H */
