// SPDX-License-Identifier: GPL-2.0-only
/*
 * The program tree of the timing VM: the constructors that build a node
 * and take ownership of its operands, vm_free(), and vm_print_prog(),
 * which shows a tree one node per line (for -v and the tests).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "vmint.h"

/* ---- building and freeing programs ---- */

/* A node with room for n operands, or NULL. */
static struct vm_node *vm_alloc(enum vm_op op, size_t n)
{
	struct vm_node *node = calloc(1, sizeof(*node));

	if (!node)
		return NULL;
	node->op = op;
	if (n) {
		node->kids = calloc(n, sizeof(*node->kids));
		if (!node->kids) {
			free(node);
			return NULL;
		}
		node->nkids = n;
	}
	return node;
}

void vm_free(struct vm_node *prog)
{
	size_t i;

	if (!prog)
		return;
	for (i = 0; prog->kids && i < prog->nkids; i++)
		vm_free(prog->kids[i]);
	free(prog->kids);
	free(prog);
}

struct vm_node *vm_leaf(enum vm_op op)
{
	return vm_alloc(op, 0);
}

struct vm_node *vm_unary(enum vm_op op, struct vm_node *kid)
{
	struct vm_node *node = vm_alloc(op, 1);

	if (!node) {
		vm_free(kid);
		return NULL;
	}
	node->kids[0] = kid;
	return node;
}

struct vm_node *vm_off_fixed(uint64_t off_byte, struct vm_node *kid)
{
	struct vm_node *node = vm_unary(VM_OFF_FIXED, kid);

	if (node)
		node->off_byte = off_byte;
	return node;
}

struct vm_node *vm_off_series(enum vm_op op, uint64_t off_byte,
			      uint64_t stride_byte, uint64_t count,
			      struct vm_node *kid)
{
	struct vm_node *node = vm_unary(op, kid);

	if (node) {
		node->off_byte = off_byte;
		node->stride_byte = stride_byte;
		node->count = count;
		node->key = 0x9e3779b97f4a7c15ULL;
	}
	return node;
}

struct vm_node *vm_off_span(enum vm_op op, uint64_t off_byte,
			    uint64_t span_byte, struct vm_node *kid)
{
	struct vm_node *node = vm_off_series(op, off_byte, VM_CUR_LEN, 0, kid);

	if (node)
		node->span_byte = span_byte;
	return node;
}

struct vm_node *vm_off_keyed(uint64_t off_byte, uint64_t stride_byte,
			     uint64_t count, uint64_t key,
			     struct vm_node *kid)
{
	struct vm_node *node = vm_off_series(VM_OFF_RAND, off_byte,
					     stride_byte, count, kid);

	if (node) {
		node->key = key;
		node->key_fixed = 1;
	}
	return node;
}

struct vm_node *vm_number(uint64_t bytes)
{
	struct vm_node *node = vm_leaf(VM_NUMBER);

	if (node)
		node->len_byte = bytes;
	return node;
}

struct vm_node *vm_len_fixed(uint64_t len_byte, struct vm_node *kid)
{
	struct vm_node *node = vm_unary(VM_LEN_FIXED, kid);

	if (node)
		node->len_byte = len_byte;
	return node;
}

struct vm_node *vm_len_pow2(enum vm_op op, uint64_t min_byte,
			    uint64_t max_byte, struct vm_node *kid)
{
	struct vm_node *node = vm_unary(op, kid);

	if (node) {
		node->len_byte = min_byte;
		node->len_max_byte = max_byte;
	}
	return node;
}

struct vm_node *vm_repeat(uint64_t count, struct vm_node *kid)
{
	struct vm_node *node = vm_unary(VM_REPEAT, kid);

	if (node)
		node->count = count;
	return node;
}

struct vm_node *vm_seqv(size_t n, struct vm_node *const kids[])
{
	struct vm_node *node = vm_alloc(VM_SEQ, n);
	size_t i;

	if (!node) {
		for (i = 0; i < n; i++)
			vm_free(kids[i]);
		return NULL;
	}
	for (i = 0; i < n; i++)
		node->kids[i] = kids[i];
	return node;
}

struct vm_node *vm_seq(size_t n, ...)
{
	struct vm_node *node = vm_alloc(VM_SEQ, n);
	va_list ap;
	size_t i;

	va_start(ap, n);
	for (i = 0; i < n; i++) {
		struct vm_node *kid = va_arg(ap, struct vm_node *);

		if (node)
			node->kids[i] = kid;
		else
			vm_free(kid);
	}
	va_end(ap);
	return node;
}

/* ---- printing programs ---- */

static void print_node(FILE *f, const struct vm_node *n, unsigned int depth)
{
	size_t i;

	fprintf(f, "%*s", (int)(2 * depth), "");
	if (!n) {
		fprintf(f, "(missing)\n");
		return;
	}
	if (depth > VM_MAX_DEPTH) {
		fprintf(f, "...\n");
		return;
	}
	fprintf(f, "%s", vm_op_name(n->op));
	switch (n->op) {
	case VM_OFF_FIXED:
		fprintf(f, " off=%" PRIu64, n->off_byte);
		break;
	case VM_OFF_LIN:
	case VM_OFF_RAND:
		fprintf(f, " off=%" PRIu64, n->off_byte);
		if (n->stride_byte == VM_CUR_LEN)
			fprintf(f, " stride=length");
		else
			fprintf(f, " stride=%" PRIu64, n->stride_byte);
		if (n->span_byte)
			fprintf(f, " count=span/length span=%" PRIu64,
				n->span_byte);
		else
			fprintf(f, " count=%" PRIu64, n->count);
		if (n->op == VM_OFF_RAND && n->key_fixed)
			fprintf(f, " key=%" PRIu64, n->key);
		break;
	case VM_LEN_FIXED:
		fprintf(f, " len=%" PRIu64, n->len_byte);
		break;
	case VM_LEN_POW2_UP:
	case VM_LEN_POW2_DOWN:
		fprintf(f, " min=%" PRIu64 " max=%" PRIu64, n->len_byte,
			n->len_max_byte);
		break;
	case VM_REPEAT:
		fprintf(f, " count=%" PRIu64, n->count);
		break;
	case VM_NUMBER:
		fprintf(f, " value=%" PRIu64, n->len_byte);
		break;
	default:
		break;
	}
	fputc('\n', f);
	if (!n->kids && n->nkids) {
		fprintf(f, "%*s(missing)\n", (int)(2 * depth + 2), "");
		return;
	}
	for (i = 0; i < n->nkids; i++)
		print_node(f, n->kids[i], depth + 1);
}

void vm_print_prog(FILE *f, const struct vm_node *prog)
{
	print_node(f, prog, 0);
}
