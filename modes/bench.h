/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The tests flashbench runs, one file each in modes/ (the table of them:
 * modes.h).  Measurement is kept apart from
 * presentation: the read tests fill result arrays that the print functions
 * (or a JSON writer) turn into output.  All functions return 0 or -errno;
 * on an I/O error dev->last_error names the operation.
 */
#ifndef FLASHBENCH_BENCH_H
#define FLASHBENCH_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "dev.h"
#include "opts.h"
#include "ranges.h"
#include "rows.h"

/* Fill o with the classic defaults (the table of options, options.c). */
void bench_opts_default(struct bench_opts *o);

/*
 * An I/O buffer of len bytes (free with dev_free_buf()); NULL when out of
 * memory or when len does not fit in this machine's size_t (a 4 GiB block
 * on a 32-bit board).
 */
void *bench_alloc_io_buf(uint64_t len);

/* The largest alignment the align test samples on a device of size. */
uint64_t align_max(uint64_t dev_size, uint64_t blocksize);

/*
 * Run the align test; *rows (malloc'd, caller frees) gets one row per
 * alignment from the largest down to 2 * blocksize.
 */
int bench_align(struct device *dev, const struct bench_opts *o,
		struct align_row **rows, size_t *nrows);
/*
 * The align measurement with a free choice of alignments: each of the
 * naligns alignments (descending) is sampled at i * spacing + align,
 * i = 0..6.  --auto uses a spacing of 3 * 2^n so that 3 * 2^n erase sizes
 * (SDXC) show as clearly as powers of two.
 */
int bench_align_at(struct device *dev, const struct bench_opts *o,
		   uint64_t spacing, const uint64_t *aligns, size_t naligns,
		   struct align_row **rows, size_t *nrows);

/*
 * The complete rows of the VM table an align program filled, as
 * align_rows (*rows malloc'd, caller frees; NULL when there are none).
 * Returns 0 or -ENOMEM.
 */
struct vm_table;
int align_rows(const struct vm_table *tab, struct align_row **rows,
	       size_t *nrows);

/*
 * The scatter test; *pts has 2^order points in offset order.  When a read
 * fails (or a signal stops the test), *pts still holds the positions read
 * so far, each with the minimum of its reads, and the error is returned.
 */
int bench_scatter(struct device *dev, const struct bench_opts *o,
		  struct scatter_point **pts, size_t *npts);
/* The points of a scatter program's VM table (*pts malloc'd, or NULL). */
int scatter_points(const struct vm_table *tab, struct scatter_point **pts,
		   size_t *npts);

/*
 * The smallest interval read: 512 bytes, or the logical block size of a
 * device that cannot read less (the sizes double from there).
 */
uint64_t interval_first_len(unsigned int logical_block_size);

/*
 * The interval test and its regression: one row per size from
 * interval_first_len() up to 512 << (interval_order - 1).
 */
int bench_interval(struct device *dev, const struct bench_opts *o,
		   struct interval_row **rows, size_t *nrows);
/* The complete rows of an interval program's VM table, count reads each
 * (*rows malloc'd, or NULL). */
int interval_rows(const struct vm_table *tab, unsigned int count,
		  struct interval_row **rows, size_t *nrows);

#endif /* FLASHBENCH_BENCH_H */
