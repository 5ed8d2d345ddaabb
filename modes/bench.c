// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the modes share: I/O buffers (their defaults are in the table of
 * options, front/options.c).  Each mode has a file of its own (align.c,
 * scatter.c, interval.c, open_au.c, find_fat.c, program.c); the table of
 * modes is in modes.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

void *bench_alloc_io_buf(uint64_t len)
{
	return len <= SIZE_MAX ? dev_alloc_buf((size_t)len) : NULL;
}
