/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The table of cells a run of the timing VM records (vm/value.c), for
 * the writers that want raw bytes and nanoseconds rather than text.
 * Included through vm.h.
 */
#ifndef FLASHBENCH_VMTABLE_H
#define FLASHBENCH_VMTABLE_H

#include <stddef.h>

#include "format.h"

/* What a number or cell counts. */
enum vm_unit {
	VM_UNIT_BYTES,		/* bytes */
	VM_UNIT_NS,		/* nanoseconds */
	VM_UNIT_BPS,		/* bytes per second */
};

/* One printed cell with the raw number behind it. */
struct vm_cell {
	char text[FMT_LEN];	/* as printed, without padding */
	double value;		/* raw value in unit */
	enum vm_unit unit;	/* what value counts */
};

/* One output line. */
struct vm_row {
	struct vm_cell *cells;	/* ncells cells, left to right */
	size_t ncells;		/* cells in this row */
	size_t cap;		/* allocated cells */
};

/*
 * Everything a run printed, as rows of cells (one row per output line),
 * for writers that want raw bytes and nanoseconds.  Zero-initialise it;
 * vm_run() empties it first; release it with vm_table_free().
 */
struct vm_table {
	struct vm_row *rows;	/* nrows rows, top to bottom */
	size_t nrows;		/* rows recorded */
	size_t cap;		/* allocated rows */
	size_t max_cells;	/* limit on cells in all (0: no limit) */
	size_t ncells;		/* cells recorded in all */
	int row_open;		/* the last row has not seen a newline */
};

/* Release what a table holds and empty it (max_cells is kept). */
void vm_table_free(struct vm_table *tab);

#endif /* FLASHBENCH_VMTABLE_H */
