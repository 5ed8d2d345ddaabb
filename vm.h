/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The timing VM.  A measurement is a program: a tree of small operations
 * evaluated against a device.  Every node runs in a context {offset,
 * length} and yields a value:
 *
 *   I/O leaves (read, write, erase)  -> a timed sample {time_ns, bytes}
 *   length                           -> a number of bytes
 *   offset/length series, repeat     -> a list of what their operand yields
 *   sequence                         -> a list of its operands' values
 *   number                           -> a fixed number of bytes
 *   reduce (min, max, avg, total)    -> a sample made from a list
 *   diff                             -> three times and their difference
 *   bps                              -> a number in bytes per second
 *   format                           -> a table cell (text + raw number),
 *                                       or a list of them from a list
 *   print, newline, drop             -> nothing (print/newline emit output)
 *   min_pos                          -> nothing (emits one row per offset)
 *
 * Series and repeats of operands that yield nothing yield nothing.
 * Offsets of nested series add up; a length series sets the length that
 * I/O leaves transfer.  Programs are checked before anything runs: wrong
 * nesting, type mismatches and empty series are reported as -EINVAL with
 * a message, never a crash.  vm_run() returns 0 or -errno and writes only
 * to the FILE it is given.
 */
#ifndef FLASHBENCH_VM_H
#define FLASHBENCH_VM_H

#include <stdio.h>

#include "dev.h"
#include "vmprog.h"	/* the operations, the node, building, checking */
#include "vmtable.h"	/* the table of cells a run records */

/*
 * Check and run prog on dev, printing cells to out (may be NULL) and
 * recording them in tab (may be NULL).  Write buffers are allocated and
 * filled before the first timed operation.  Returns 0; -EINVAL for a bad
 * program or an access outside the device (reason in err); -ENOSPC when
 * tab->max_cells is too small; -ENOMEM; or the first I/O error, which
 * stops the run (dev->last_error names the operation).
 */
int vm_run(struct device *dev, const struct vm_node *prog, FILE *out,
	   struct vm_table *tab, char *err, size_t err_len);

#endif /* FLASHBENCH_VM_H */
