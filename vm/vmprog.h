/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A program of the timing VM (vm.h tells what its operations do): the
 * operations, the node, and what can be done with a program short of
 * running it: build it and free it (vm/tree.c), check it and measure its
 * reach (vm/check.c), print it (vm/tree.c), and the order of its random
 * series (vm/shuffle.c).  Included through vm.h.
 */
#ifndef FLASHBENCH_VMPROG_H
#define FLASHBENCH_VMPROG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The operations.  (Not O_*: that prefix belongs to <fcntl.h>.) */
enum vm_op {
	/* I/O leaves: current length at current offset, one timed sample */
	VM_READ,
	VM_WRITE_ZERO,		/* write 0x00 */
	VM_WRITE_ONES,		/* write 0xff */
	VM_WRITE_5A,		/* write 0x5a */
	VM_WRITE_RAND,		/* write pseudo-random bytes */
	VM_ERASE,		/* discard */
	/* other leaves */
	VM_LENGTH,		/* the current length, in bytes */
	VM_NEWLINE,		/* end the current table row */
	/* offset series: one operand, evaluated at each offset */
	VM_OFF_FIXED,		/* once, at off_byte */
	VM_OFF_LIN,		/* off_byte + i * stride, i = 0 .. count-1 */
	VM_OFF_RAND,		/* the same positions, pseudo-random order */
	/* length series: one operand, evaluated at each length */
	VM_LEN_FIXED,		/* len_byte */
	VM_LEN_POW2_UP,		/* len_byte, 2 len_byte, ... up to len_max_byte */
	VM_LEN_POW2_DOWN,	/* len_max_byte, halving, down to len_byte */
	/* control */
	VM_REPEAT,		/* the operand count times */
	VM_SEQ,			/* every operand in turn */
	/* lists of samples to one sample */
	VM_REDUCE_MIN,		/* the sample with the shortest time */
	VM_REDUCE_MAX,		/* the sample with the longest time */
	VM_REDUCE_AVG,		/* mean time and mean bytes */
	VM_REDUCE_TOTAL,	/* summed time and summed bytes */
	/* presentation */
	VM_BPS,			/* sample -> bytes per second */
	VM_FORMAT,		/* number (or a sample's time) -> cell */
	VM_PRINT,		/* emit a cell: "%-7s " */
	VM_DROP,		/* evaluate the operand, discard its value */
	/* added later; kept last so that the numbers above stay */
	VM_NUMBER,		/* leaf: the number len_byte, in bytes */
	VM_DIFF,		/* three samples (before, on, after) -> four
				 * numbers in ns: the three times and
				 * on - (before + after) / 2 */
	VM_MIN_POS,		/* per-position minimum: every I/O of the
				 * operand is kept at its offset; then one row
				 * per offset, in offset order: offset, least
				 * time.  Also when the operand fails. */
	VM_OP_NR
};

/* stride_byte value meaning "the current length". */
#define VM_CUR_LEN UINT64_MAX

/*
 * A program node.  Build nodes with the constructors below; they take
 * ownership of their operands, and vm_free() releases a whole tree.
 */
struct vm_node {
	enum vm_op op;
	uint64_t off_byte;	/* VM_OFF_*: offset of the first position */
	uint64_t stride_byte;	/* VM_OFF_LIN/RAND: step, or VM_CUR_LEN */
	uint64_t count;		/* VM_OFF_LIN/RAND, VM_REPEAT: iterations;
				 * VM_OFF_* with span_byte: 0 */
	uint64_t span_byte;	/* VM_OFF_LIN/RAND: if non-zero, count is
				 * span_byte / current length */
	uint64_t len_byte;	/* VM_LEN_FIXED: the length; VM_LEN_POW2_*:
				 * the smallest; VM_NUMBER: the number */
	uint64_t len_max_byte;	/* VM_LEN_POW2_*: the largest length */
	uint64_t key;		/* VM_OFF_RAND: selects the permutation */
	int key_fixed;		/* VM_OFF_RAND: the order is
				 * vm_shuffle(i, count, key + r), r the
				 * iteration of the enclosing repeat (else
				 * key is mixed with the offset and length
				 * it runs at) */
	size_t nkids;		/* number of operands */
	struct vm_node **kids;	/* operands, in order */
};

/* A leaf (I/O, VM_LENGTH, VM_NEWLINE); NULL if out of memory. */
struct vm_node *vm_leaf(enum vm_op op);

/*
 * A node with one operand (reduce, bps, format, print, drop); NULL if out
 * of memory, in which case kid is freed.  All constructors below behave
 * alike; a NULL operand is accepted here and reported by vm_check().
 */
struct vm_node *vm_unary(enum vm_op op, struct vm_node *kid);

/* VM_OFF_FIXED at off_byte. */
struct vm_node *vm_off_fixed(uint64_t off_byte, struct vm_node *kid);

/* VM_OFF_LIN or VM_OFF_RAND: count positions stride_byte apart. */
struct vm_node *vm_off_series(enum vm_op op, uint64_t off_byte,
			      uint64_t stride_byte, uint64_t count,
			      struct vm_node *kid);

/*
 * VM_OFF_LIN or VM_OFF_RAND over span_byte in steps of the current
 * length: span / length positions.
 */
struct vm_node *vm_off_span(enum vm_op op, uint64_t off_byte,
			    uint64_t span_byte, struct vm_node *kid);

/*
 * VM_OFF_RAND in the order vm_shuffle(i, count, key + r), i = 0 ..
 * count-1, r being the iteration of the innermost enclosing repeat (0
 * outside one), wherever it runs: rounds that each visit the positions
 * in an order of their own, known beforehand.
 */
struct vm_node *vm_off_keyed(uint64_t off_byte, uint64_t stride_byte,
			     uint64_t count, uint64_t key,
			     struct vm_node *kid);

/* VM_NUMBER: the number bytes (a row's label). */
struct vm_node *vm_number(uint64_t bytes);

/* VM_LEN_FIXED: the operand runs with length len_byte. */
struct vm_node *vm_len_fixed(uint64_t len_byte, struct vm_node *kid);

/*
 * VM_LEN_POW2_UP or VM_LEN_POW2_DOWN between min_byte and max_byte.  Up:
 * min, 2 min, 4 min ... while <= max.  Down: max, max/2 ... while the
 * length stays >= min and a multiple of min (so an erase size of 3 * 2^n
 * stops at the smallest multiple of min, e.g. 12M/16K ends at 48K).
 */
struct vm_node *vm_len_pow2(enum vm_op op, uint64_t min_byte,
			    uint64_t max_byte, struct vm_node *kid);

/* VM_REPEAT: the operand count times. */
struct vm_node *vm_repeat(uint64_t count, struct vm_node *kid);

/* VM_SEQ of n operands given as arguments (NULLs reported by check). */
struct vm_node *vm_seq(size_t n, ...);

/* VM_SEQ of n operands from an array (the nodes, not the array, move). */
struct vm_node *vm_seqv(size_t n, struct vm_node *const kids[]);

/* Free a program tree (NULL is fine). */
void vm_free(struct vm_node *prog);

/* The name of an operation ("off_lin"), or "?" for an unknown one. */
const char *vm_op_name(enum vm_op op);

/*
 * Check a program without running it.  Returns 0, or -EINVAL with a
 * one-line reason in err (wrong nesting, type mismatch, empty series,
 * missing operand).
 */
int vm_check(const struct vm_node *prog, char *err, size_t err_len);

/*
 * How far prog reaches: the byte just past the furthest I/O it can make
 * (0 if it makes none; UINT64_MAX past 64 bits or for a program
 * vm_check() refuses).  Walks the program without running it.
 */
uint64_t vm_extent(const struct vm_node *prog);

/*
 * Pseudo-random permutation of [0, n): the i-th position to visit.  Every
 * position is visited exactly once as i runs over [0, n); key picks the
 * permutation.  Reads and writes in an order the card cannot predict
 * defeat its read-ahead and its linear-write optimisations.
 */
uint64_t vm_shuffle(uint64_t i, uint64_t n, uint64_t key);

/* Print prog as an indented tree, one node per line. */
void vm_print_prog(FILE *f, const struct vm_node *prog);

#endif /* FLASHBENCH_VMPROG_H */
