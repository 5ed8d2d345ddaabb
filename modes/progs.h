/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The writing tests as VM programs: what each writing mode gives the
 * shared machinery of progs.c, and what that machinery offers them.
 */
#ifndef FLASHBENCH_PROGS_H
#define FLASHBENCH_PROGS_H

#include <stddef.h>
#include <stdio.h>

#include "bench.h"
#include "dev.h"
#include "vm.h"

/* A writing mode's part (its row of modes.c points to it). */
struct progs_mode {
	/* check the options it depends on: 0 or -EINVAL */
	int (*check)(const struct bench_opts *o);
	/*
	 * the byte ranges it overwrites, sorted and disjoint, into a
	 * malloc'd *out: how many, or -EINVAL (overflow) / -ENOMEM
	 */
	int (*ranges)(const struct bench_opts *o, struct bench_range **out);
	/* its program on a device whose smallest I/O is lbs bytes */
	struct vm_node *(*build)(const struct bench_opts *o, unsigned int lbs);
};

extern const struct progs_mode open_au_prog, find_fat_prog, program_prog;

/* The sizes -O and -f halve through, checked: 0 or -EINVAL. */
int progs_check_sizes(const struct bench_opts *o);

/*
 * A program just built: prog, or NULL (prog freed) when an allocation
 * failed somewhere inside it.
 */
struct vm_node *progs_built(struct vm_node *prog);

/* print(format(n)): one table cell. */
struct vm_node *progs_cell(struct vm_node *n);

/* The throughput cell of a list of samples: total bytes / total time. */
struct vm_node *progs_rate_cell(struct vm_node *samples);

/*
 * Build the program of one writing test (a BENCH_* bit) as it runs on a
 * device with 512-byte blocks.  Returns 0 or -EINVAL / -ENOMEM; *prog
 * is freed with vm_free().
 */
int progs_build(unsigned int test, const struct bench_opts *o,
		struct vm_node **prog);

/*
 * Run one writing test on dev: check its ranges fit the device, print
 * the program to o->log with o->verbose, then run it.  -p stops at the
 * device's logical block size when that is above 512.  Returns 0 or
 * -errno as vm_run() (err may be NULL).
 */
int progs_run(struct device *dev, unsigned int test,
	      const struct bench_opts *o, FILE *out, struct vm_table *tab,
	      char *err, size_t err_len);

/* progs_run() for a mode's entry point: program errors go to o->log. */
int progs_bench(struct device *dev, unsigned int test,
		const struct bench_opts *o, FILE *out);

#endif /* FLASHBENCH_PROGS_H */
