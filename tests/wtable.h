/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Running a writing test (-O, -f, -p) on the simulated card, and reading
 * back the classic table it printed: shared by their suites.
 */
#ifndef FLASHBENCH_TESTS_WTABLE_H
#define FLASHBENCH_TESTS_WTABLE_H

#include <stddef.h>

#include "bench.h"
#include "format.h"
#include "vm.h"

#define MiB (1ULL << 20)
#define KiB (1ULL << 10)

#define MAX_ROWS 32
#define MAX_COLS 16

/* A printed table, split into cells. */
struct table {
	size_t nrows;
	size_t ncols[MAX_ROWS];
	char cell[MAX_ROWS][MAX_COLS][FMT_LEN];
};

/* Undo fmt_size(): "1.5MiB" -> 1572864.  Returns 0 or -EINVAL. */
int parse_size_cell(const char *s, double *v);

/*
 * Split classic write-table output into cells, failing the test unless
 * every cell is "%-7s " (so every line ends in a space) and every line
 * ends in a newline.
 */
void split_table(const char *out, struct table *t);

/* The rate in a cell, failing the test if it is not one. */
double rate_of(const struct table *t, size_t row, size_t col);

/* One run of a writing test: what it printed and the raw table. */
struct wrun {
	char *out;
	size_t out_len;
	struct table t;
	struct vm_table tab;
	char err[256];
	int ret;
};

/* Run a writing test on the simulated card described by spec. */
void run_on(struct wrun *w, const char *spec, unsigned int test,
	    const struct bench_opts *o);
void wrun_done(struct wrun *w);

/*
 * The throughput of row r (column c) from the printed cell, checked
 * against the raw number behind it (three significant digits).
 */
double rate_at(const struct wrun *w, size_t r, size_t c);

#endif
