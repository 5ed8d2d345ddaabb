/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Byte ranges: what a writing test overwrites, what --preserve saves.
 * The one sort-and-merge of them lives here.
 */
#ifndef FLASHBENCH_RANGES_H
#define FLASHBENCH_RANGES_H

#include <stddef.h>
#include <stdint.h>

/* A byte range a writing test will overwrite: [start, end). */
struct bench_range {
	uint64_t start_byte;
	uint64_t end_byte;
};

/*
 * Sort r[0..n) by start and merge the ranges that overlap or touch, in
 * place; returns how many are left (0 when n is 0).
 */
size_t ranges_merge(struct bench_range *r, size_t n);

#endif /* FLASHBENCH_RANGES_H */
