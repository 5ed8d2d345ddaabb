/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Byte ranges: what a writing test overwrites, what --preserve saves.
 */
#ifndef FLASHBENCH_RANGES_H
#define FLASHBENCH_RANGES_H

#include <stdint.h>

/* A byte range a writing test will overwrite: [start, end). */
struct bench_range {
	uint64_t start_byte;
	uint64_t end_byte;
};

#endif /* FLASHBENCH_RANGES_H */
