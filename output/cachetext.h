/* SPDX-License-Identifier: GPL-2.0-only */
/* --auto's write cache and write latency as text (output/cachetext.c). */
#ifndef FLASHBENCH_CACHETEXT_H
#define FLASHBENCH_CACHETEXT_H

#include <stdio.h>

#include "cacherec.h"
#include "latrec.h"

/*
 * "write cache: ..." and its evidence, when the step ran: the size, the
 * fast and the native speed, the refill after idle; or none seen, and
 * whether the cap stopped it.
 */
void cache_print(FILE *out, const struct auto_cache *c);

/*
 * "write latency: ...": the longest single write and the 99th
 * percentile against the SD specification's 250 ms and 750 ms, when the
 * run timed writes.
 */
void latency_print(FILE *out, const struct auto_latency *l);

#endif /* FLASHBENCH_CACHETEXT_H */
