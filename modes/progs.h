/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The modes as VM programs: what each mode gives the shared machinery of
 * progs.c (its program and how its results read back from the VM's table
 * of cells), and what that machinery offers them.  Every mode but
 * --capacity and --class runs this way, so the table output, --json,
 * --plot and the progress line each have one path.
 */
#ifndef FLASHBENCH_PROGS_H
#define FLASHBENCH_PROGS_H

#include <stddef.h>
#include <stdio.h>

#include "bench.h"
#include "dev.h"
#include "vm.h"

struct json;

/* A mode's program part (its row of modes.c points to it). */
struct progs_mode {
	/* check the options it depends on: 0 or -EINVAL */
	int (*check)(const struct bench_opts *o);
	/*
	 * the writing modes: the byte ranges it overwrites, sorted and
	 * disjoint, into a malloc'd *out: how many, or -EINVAL (overflow)
	 * / -ENOMEM; NULL for the read modes
	 */
	int (*ranges)(const struct bench_opts *o, struct bench_range **out);
	/*
	 * its program on a device of dev_byte bytes whose smallest I/O is
	 * lbs bytes, into *prog: 0, -EINVAL (the options cannot make a
	 * program for such a device) or -ENOMEM
	 */
	int (*build)(const struct bench_opts *o, uint64_t dev_byte,
		     unsigned int lbs, struct vm_node **prog);
	/*
	 * the classic table from the cells of a run (rows cut short by a
	 * failure left out); NULL: the VM prints it as the mode runs
	 */
	void (*print)(FILE *out, const struct bench_opts *o,
		      const struct vm_table *tab);
	/* --json: the "results" array from the cells, and what goes beside */
	void (*json)(struct json *j, const struct bench_opts *o,
		     const struct vm_table *tab);
	/* --plot from the cells: 0 or -errno */
	int (*plot)(FILE *f, const char *title, enum bench_test test,
		    const struct bench_opts *o, const struct vm_table *tab);
	/*
	 * the progress line's name for the step I/O number io (from 0)
	 * belongs to; row is the label of the table row being filled (or
	 * NULL).  NULL: each step is named by its I/O size.
	 */
	void (*step)(char *buf, size_t len, const struct bench_opts *o,
		     const char *row, uint64_t io);
};

extern const struct progs_mode align_prog, scatter_prog, interval_prog;
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
 * The functions below take the program part of the mode they run (pm,
 * its row's prog): the caller, who knows the row, passes it down, so
 * that nothing here looks the table of tests up.
 */

/*
 * The ranges pm's writing mode overwrites on a device of dev_size bytes,
 * merged and sorted, into ranges (when not NULL; with NULL they are only
 * counted).  Returns how many, -EINVAL when the options are bad, pm is a
 * read mode or a range would reach past dev_size, or -ENOSPC rather than
 * a silently shortened list when max is too small: the list is what the
 * user is warned about.  The writing modes' rows of the table of tests
 * call it (their plan).
 */
int progs_write_ranges(const struct progs_mode *pm,
		       const struct bench_opts *o, uint64_t dev_size,
		       struct bench_range *ranges, size_t max);

/*
 * Build pm's program as it runs on a device with 512-byte blocks and no
 * end.  Returns 0 or -EINVAL / -ENOMEM; *prog is freed with vm_free().
 */
int progs_build(const struct progs_mode *pm, const struct bench_opts *o,
		struct vm_node **prog);

/*
 * The byte just past the furthest I/O pm's program makes on dev: what
 * must fit in the device.  UINT64_MAX when no program can be built for
 * these options on dev.
 */
uint64_t progs_extent(const struct progs_mode *pm,
		      const struct bench_opts *o, const struct device *dev);

/*
 * Run pm's mode on dev (pm NULL: -EINVAL): check that it fits the
 * device (a writing test's ranges, a read test's extent), print a
 * writing test's program to o->log with -vv, then run it, its cells into
 * tab (may be NULL).  A writing test's table goes to out (may be NULL)
 * as it runs; a read test's is printed from tab by its print hook.  -p
 * stops at the device's logical block size when that is above 512.
 * Returns 0 or -errno as vm_run() (err may be NULL).
 */
int progs_run(struct device *dev, const struct progs_mode *pm,
	      const struct bench_opts *o, FILE *out, struct vm_table *tab,
	      char *err, size_t err_len);

/*
 * A mode's entry point: progs_run(), then its classic table to out;
 * program errors go to o->log.
 */
int progs_bench(struct device *dev, const struct progs_mode *pm,
		const struct bench_opts *o, FILE *out);

/*
 * The progress line's name for I/O number io (from 0) of io_byte bytes
 * of pm's mode, tab holding the cells of the run so far.
 */
void progs_step(char *buf, size_t len, const struct progs_mode *pm,
		const struct bench_opts *o, const struct vm_table *tab,
		uint64_t io, uint64_t io_byte);

/* --json of a writing test: per row its size and throughputs. */
void progs_json_rates(struct json *j, const struct bench_opts *o,
		      const struct vm_table *tab);

#endif /* FLASHBENCH_PROGS_H */
