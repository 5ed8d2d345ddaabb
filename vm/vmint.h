/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The timing VM's private header: what vm.c (the runner) and the files
 * of vm/ share.  Not for use outside them; the VM's interface is vm.h,
 * which gathers vmprog.h and vmtable.h (the files of vm/ include those,
 * not vm.h: vm/ stands below vm.c).
 *
 * From the bottom up (a file calls only those before it, and none calls
 * back into vm.c): vm/ops.c names the operations, words the errors and
 * lists a power-of-two series; vm/shuffle.c orders VM_OFF_RAND;
 * vm/value.c holds the values a node yields and the table of cells;
 * vm/tree.c builds, frees and prints programs; vm/check.c checks a
 * program, plans its buffers and says how far it reaches; vm.c runs it.
 */
#ifndef FLASHBENCH_VMINT_H
#define FLASHBENCH_VMINT_H

#include <stddef.h>
#include <stdint.h>

#include "vmprog.h"
#include "vmtable.h"

/* Deeper trees are refused: real programs are a handful of levels, and
 * a hand-built tree that contains a cycle must not recurse forever. */
#define VM_MAX_DEPTH 64

/* A series has at most one length per bit of a uint64_t. */
#define VM_MAX_POW2 64

/* What a run needs, gathered by the check. */
struct vm_plan {
	uint64_t max_len_byte;	/* largest length an I/O leaf may see */
	unsigned int bufs;	/* bit (1 << op) for each I/O leaf used */
};

/* What a node yields when it runs. */
enum vm_vtype {
	VV_NONE,
	VV_SAMPLE,
	VV_NUM,
	VV_CELL,
	VV_LIST,
};

struct vm_value {
	enum vm_vtype type;
	uint64_t time_ns;		/* VV_SAMPLE: elapsed time */
	uint64_t bytes;			/* VV_SAMPLE: bytes transferred */
	double num;			/* VV_NUM, VV_CELL: raw value */
	enum vm_unit unit;		/* VV_NUM, VV_CELL: what num counts */
	char text[FMT_LEN];		/* VV_CELL: formatted num */
	struct vm_value *items;		/* VV_LIST: n values */
	size_t n;			/* VV_LIST: values in items */
};

/* ops.c */
int vm_err(char *err, size_t err_len, int ret, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
size_t vm_pow2_lengths(const struct vm_node *n, uint64_t *lens);

/* value.c */
void vm_value_free(struct vm_value *v);
int vm_list_push(struct vm_value *list, uint64_t cap,
		 struct vm_value *item);
int vm_table_new_row(struct vm_table *tab);
int vm_table_add(struct vm_table *tab, const struct vm_value *cell);

/* check.c */
int vm_plan(const struct vm_node *prog, struct vm_plan *plan,
	    char *err, size_t err_len);

#endif /* FLASHBENCH_VMINT_H */
