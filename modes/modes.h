/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The classic modes' own entry points, one file each: run a mode and
 * print its classic table, and the writing modes' ranges and column
 * names.  Their rows of the table of tests (test.h) are modes.c's; the
 * table itself is the front end's (front/tests.c).
 */
#ifndef FLASHBENCH_MODES_H
#define FLASHBENCH_MODES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bench.h"
#include "dev.h"

/*
 * NAME_run runs the mode and prints its classic table (as test_run_text()
 * of its row); the writing modes' NAME_write_ranges are their rows' plan,
 * NAME_column names column k (from 1) of their tables.
 */
int align_run(struct device *dev, const struct bench_opts *o, FILE *out);
int scatter_run(struct device *dev, const struct bench_opts *o, FILE *out);
int interval_run(struct device *dev, const struct bench_opts *o, FILE *out);
int open_au_run(struct device *dev, const struct bench_opts *o, FILE *out);
int find_fat_run(struct device *dev, const struct bench_opts *o, FILE *out);
int program_run(struct device *dev, const struct bench_opts *o, FILE *out);
int open_au_write_ranges(enum bench_test test, const struct bench_opts *o,
			 uint64_t dev_size, struct bench_range *ranges,
			 size_t max);
int find_fat_write_ranges(enum bench_test test, const struct bench_opts *o,
			  uint64_t dev_size, struct bench_range *ranges,
			  size_t max);
int program_write_ranges(enum bench_test test, const struct bench_opts *o,
			 uint64_t dev_size, struct bench_range *ranges,
			 size_t max);
void open_au_column(char *buf, size_t len, size_t k);
void find_fat_column(char *buf, size_t len, size_t k);
void program_column(char *buf, size_t len, size_t k);

#endif /* FLASHBENCH_MODES_H */
