// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the modes share: the classic defaults and I/O buffers.  Each
 * mode has a file of its own (align.c, scatter.c, interval.c, open_au.c,
 * find_fat.c, program.c); the table of modes is in modes.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
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
	o->offset_byte = 16 << 20;
	o->log = stderr;
}

void *bench_alloc_io_buf(uint64_t len)
{
	return len <= SIZE_MAX ? dev_alloc_buf((size_t)len) : NULL;
}
