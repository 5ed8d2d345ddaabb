// SPDX-License-Identifier: GPL-2.0-only
/* The read tests (placeholder until they land). */
#include <errno.h>
#include <string.h>

#include "bench.h"

void bench_opts_default(struct bench_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->blocksize_byte = 16384;
	o->erasesize_byte = 4 << 20;
	o->count = 8;
	o->scatter_order = 9;
	o->scatter_span = 1;
	o->interval_order = 13;
	o->open_au_nr = 2;
	o->fat_nr = 6;
	o->log = stderr;
}

uint64_t bench_shuffle(uint64_t i, uint64_t n, uint64_t key)
{
	(void)key;
	return i % n;
}
