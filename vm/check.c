// SPDX-License-Identifier: GPL-2.0-only
/*
 * Checking a program of the timing VM without running it: its nesting,
 * its operands and their types (vm_check()), what a run of it needs
 * (vm_plan(): the longest I/O and which write buffers), and how far on
 * the device its I/O can reach (vm_extent()).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "vmint.h"

/* ---- checking: nesting, types, buffers ---- */

/* What a node yields: base type wrapped in depth levels of list. */
enum vm_base {
	VT_NONE,
	VT_SAMPLE,
	VT_NUM,
	VT_CELL,
};

struct vm_type {
	enum vm_base base;
	unsigned int depth;	/* levels of list around base */
};

static const char *type_name(struct vm_type t, char *buf, size_t len)
{
	static const char *const base[] = {
		[VT_NONE] = "nothing", [VT_SAMPLE] = "sample",
		[VT_NUM] = "number", [VT_CELL] = "cell",
	};
	size_t used = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < t.depth && used + 9 < len; i++)
		used += snprintf(buf + used, len - used, "list of ");
	snprintf(buf + used, len - used, "%s", base[t.base]);
	return buf;
}

static int type_eq(struct vm_type a, struct vm_type b)
{
	return a.base == b.base && a.depth == b.depth;
}

/* A series of values of type t: a list of them, or nothing. */
static struct vm_type list_of(struct vm_type t)
{
	if (t.base != VT_NONE)
		t.depth++;
	return t;
}

struct vm_checker {
	struct vm_plan plan;
	int in_min_pos;		/* inside a VM_MIN_POS */
	char *err;
	size_t err_len;
};

static int check_node(struct vm_checker *c, const struct vm_node *n,
		      const struct vm_node *parent, unsigned int depth,
		      int has_len, struct vm_type *t);

/* The arity an operation requires: 0, 1, or SIZE_MAX for "1 or more". */
static size_t op_arity(enum vm_op op)
{
	if (op <= VM_NEWLINE || op == VM_NUMBER)
		return 0;
	if (op == VM_SEQ)
		return SIZE_MAX;
	return 1;
}

/* Check the shape of n: known operation, right number of operands. */
static int check_shape(struct vm_checker *c, const struct vm_node *n,
		       const struct vm_node *parent, unsigned int depth)
{
	size_t arity, i;

	if (!n) {
		if (!parent)
			return vm_err(c->err, c->err_len, -EINVAL,
				      "empty program");
		return vm_err(c->err, c->err_len, -EINVAL,
			      "%s: missing operand", vm_op_name(parent->op));
	}
	if (depth > VM_MAX_DEPTH)
		return vm_err(c->err, c->err_len, -EINVAL,
			      "program nested deeper than %d levels",
			      VM_MAX_DEPTH);
	if ((unsigned int)n->op >= VM_OP_NR)
		return vm_err(c->err, c->err_len, -EINVAL,
			      "unknown operation %d", (int)n->op);
	arity = op_arity(n->op);
	if (arity == 0 && n->nkids)
		return vm_err(c->err, c->err_len, -EINVAL,
			      "%s takes no operand, has %zu",
			      vm_op_name(n->op), n->nkids);
	if (arity == 1 && n->nkids != 1)
		return vm_err(c->err, c->err_len, -EINVAL,
			      "%s takes one operand, has %zu",
			      vm_op_name(n->op), n->nkids);
	if (arity == SIZE_MAX && !n->nkids)
		return vm_err(c->err, c->err_len, -EINVAL,
			      "%s without operands", vm_op_name(n->op));
	if (n->nkids && !n->kids)
		return vm_err(c->err, c->err_len, -EINVAL,
			      "%s: missing operand", vm_op_name(n->op));
	for (i = 0; i < n->nkids; i++)
		if (!n->kids[i])
			return vm_err(c->err, c->err_len, -EINVAL,
				      "%s: missing operand %zu",
				      vm_op_name(n->op), i + 1);
	return 0;
}

/* An operand of type got where want was expected. */
static int type_mismatch(struct vm_checker *c, const struct vm_node *n,
			 const char *want, struct vm_type got)
{
	char buf[64];

	return vm_err(c->err, c->err_len, -EINVAL,
		      "type mismatch: %s wants %s, its operand yields %s",
		      vm_op_name(n->op), want, type_name(got, buf, sizeof(buf)));
}

static int check_series(struct vm_checker *c, const struct vm_node *n,
			unsigned int depth, int has_len, struct vm_type *t)
{
	struct vm_type kt;
	int ret;

	switch (n->op) {
	case VM_OFF_LIN:
	case VM_OFF_RAND:
		if (n->span_byte && n->count)
			return vm_err(c->err, c->err_len, -EINVAL,
				      "%s: both a count and a span",
				      vm_op_name(n->op));
		if (!n->span_byte && !n->count)
			return vm_err(c->err, c->err_len, -EINVAL,
				      "%s: empty series (count 0)",
				      vm_op_name(n->op));
		if ((n->span_byte || n->stride_byte == VM_CUR_LEN) &&
		    !has_len)
			return vm_err(c->err, c->err_len, -EINVAL,
				      "%s uses the current length outside a length series",
				      vm_op_name(n->op));
		break;
	case VM_REPEAT:
		if (!n->count)
			return vm_err(c->err, c->err_len, -EINVAL,
				      "repeat: empty series (count 0)");
		break;
	default:
		break;
	}
	ret = check_node(c, n->kids[0], n, depth + 1, has_len, &kt);
	if (ret)
		return ret;
	*t = list_of(kt);
	return 0;
}

static int check_len(struct vm_checker *c, const struct vm_node *n,
		     unsigned int depth, struct vm_type *t)
{
	uint64_t lens[VM_MAX_POW2], max;
	int ret;

	if (n->op == VM_LEN_FIXED) {
		if (!n->len_byte)
			return vm_err(c->err, c->err_len, -EINVAL,
				      "len_fixed: zero length");
		max = n->len_byte;
	} else {
		size_t k = vm_pow2_lengths(n, lens);

		if (!k)
			return vm_err(c->err, c->err_len, -EINVAL,
				      "%s: empty series (%" PRIu64 " .. %" PRIu64 ")",
				      vm_op_name(n->op), n->len_byte,
				      n->len_max_byte);
		max = lens[0] > lens[k - 1] ? lens[0] : lens[k - 1];
	}
	/* a length past SIZE_MAX (32-bit) fails when its buffer is made */
	if (max > c->plan.max_len_byte)
		c->plan.max_len_byte = max;
	ret = check_node(c, n->kids[0], n, depth + 1, 1, t);
	if (ret)
		return ret;
	if (n->op != VM_LEN_FIXED)
		*t = list_of(*t);
	return 0;
}

static int check_seq(struct vm_checker *c, const struct vm_node *n,
		     unsigned int depth, int has_len, struct vm_type *t)
{
	struct vm_type kt, seen = { VT_NONE, 0 };
	char b1[64], b2[64];
	size_t i;

	for (i = 0; i < n->nkids; i++) {
		int ret = check_node(c, n->kids[i], n, depth + 1, has_len, &kt);
		if (ret)
			return ret;
		if (kt.base == VT_NONE)
			continue;
		if (seen.base != VT_NONE && !type_eq(seen, kt))
			return vm_err(c->err, c->err_len, -EINVAL,
				      "type mismatch: seq mixes %s and %s",
				      type_name(seen, b1, sizeof(b1)),
				      type_name(kt, b2, sizeof(b2)));
		seen = kt;
	}
	*t = list_of(seen);
	return 0;
}

/* Check an operation with one operand that transforms a value. */
static int check_unary(struct vm_checker *c, const struct vm_node *n,
		       unsigned int depth, int has_len, struct vm_type *t)
{
	struct vm_type kt;
	int ret;

	ret = check_node(c, n->kids[0], n, depth + 1, has_len, &kt);
	if (ret)
		return ret;
	switch (n->op) {
	case VM_OFF_FIXED:
		*t = kt;
		return 0;
	case VM_REDUCE_MIN:
	case VM_REDUCE_MAX:
	case VM_REDUCE_AVG:
	case VM_REDUCE_TOTAL:
		if (kt.base != VT_SAMPLE || !kt.depth)
			return type_mismatch(c, n, "a list of samples", kt);
		*t = (struct vm_type){ VT_SAMPLE, 0 };
		return 0;
	case VM_DIFF:
		if (kt.base != VT_SAMPLE || kt.depth != 1)
			return type_mismatch(c, n, "a list of samples", kt);
		*t = (struct vm_type){ VT_NUM, 1 };
		return 0;
	case VM_BPS:
		if (kt.base != VT_SAMPLE || kt.depth)
			return type_mismatch(c, n, "a sample", kt);
		*t = (struct vm_type){ VT_NUM, 0 };
		return 0;
	case VM_FORMAT:	/* a list formats item by item */
		if (kt.base != VT_NUM && kt.base != VT_SAMPLE)
			return type_mismatch(c, n, "a number or a sample", kt);
		*t = (struct vm_type){ VT_CELL, kt.depth };
		return 0;
	case VM_PRINT:
		if (kt.base != VT_CELL)
			return type_mismatch(c, n, "a cell", kt);
		*t = (struct vm_type){ VT_NONE, 0 };
		return 0;
	default:	/* VM_DROP */
		*t = (struct vm_type){ VT_NONE, 0 };
		return 0;
	}
}

/* A per-position minimum: any operand, but not inside another one. */
static int check_min_pos(struct vm_checker *c, const struct vm_node *n,
			 unsigned int depth, int has_len, struct vm_type *t)
{
	struct vm_type kt;
	int ret;

	if (c->in_min_pos)
		return vm_err(c->err, c->err_len, -EINVAL,
			      "min_pos inside min_pos");
	c->in_min_pos = 1;
	ret = check_node(c, n->kids[0], n, depth + 1, has_len, &kt);
	c->in_min_pos = 0;
	*t = (struct vm_type){ VT_NONE, 0 };
	return ret;
}

static int check_node(struct vm_checker *c, const struct vm_node *n,
		      const struct vm_node *parent, unsigned int depth,
		      int has_len, struct vm_type *t)
{
	int ret = check_shape(c, n, parent, depth);

	if (ret)
		return ret;
	switch (n->op) {
	case VM_READ:
	case VM_WRITE_ZERO:
	case VM_WRITE_ONES:
	case VM_WRITE_5A:
	case VM_WRITE_RAND:
	case VM_ERASE:
	case VM_LENGTH:
		if (!has_len)
			return vm_err(c->err, c->err_len, -EINVAL,
				      "%s outside a length series",
				      vm_op_name(n->op));
		if (n->op != VM_LENGTH)
			c->plan.bufs |= 1u << n->op;
		*t = (struct vm_type){
			n->op == VM_LENGTH ? VT_NUM : VT_SAMPLE, 0 };
		return 0;
	case VM_NEWLINE:
		*t = (struct vm_type){ VT_NONE, 0 };
		return 0;
	case VM_NUMBER:
		*t = (struct vm_type){ VT_NUM, 0 };
		return 0;
	case VM_MIN_POS:
		return check_min_pos(c, n, depth, has_len, t);
	case VM_OFF_LIN:
	case VM_OFF_RAND:
	case VM_REPEAT:
		return check_series(c, n, depth, has_len, t);
	case VM_LEN_FIXED:
	case VM_LEN_POW2_UP:
	case VM_LEN_POW2_DOWN:
		return check_len(c, n, depth, t);
	case VM_SEQ:
		return check_seq(c, n, depth, has_len, t);
	default:
		return check_unary(c, n, depth, has_len, t);
	}
}

/*
 * Check prog and gather what a run of it needs into *plan (plan may be
 * NULL); returns 0 or -EINVAL with the reason in err.
 */
int vm_plan(const struct vm_node *prog, struct vm_plan *plan,
		   char *err, size_t err_len)
{
	struct vm_checker c = { .err = err, .err_len = err_len };
	struct vm_type t;
	int ret;

	ret = check_node(&c, prog, NULL, 0, 0, &t);
	if (!ret && plan)
		*plan = c.plan;
	return ret;
}

int vm_check(const struct vm_node *prog, char *err, size_t err_len)
{
	return vm_plan(prog, NULL, err, err_len);
}

/* ---- how far a program reaches ---- */

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
	uint64_t r;

	return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

/* The end of the furthest I/O of n run at offset 0 with length len. */
static uint64_t extent(const struct vm_node *n, uint64_t len)
{
	uint64_t lens[VM_MAX_POW2], end = 0, e, stride, count;
	size_t i, k;

	switch (n->op) {
	case VM_READ:
	case VM_WRITE_ZERO:
	case VM_WRITE_ONES:
	case VM_WRITE_5A:
	case VM_WRITE_RAND:
	case VM_ERASE:
		return len;
	case VM_LEN_FIXED:
		return extent(n->kids[0], n->len_byte);
	case VM_LEN_POW2_UP:
	case VM_LEN_POW2_DOWN:
		k = vm_pow2_lengths(n, lens);
		for (i = 0; i < k; i++) {
			e = extent(n->kids[0], lens[i]);
			end = e > end ? e : end;
		}
		return end;
	default:
		break;
	}
	for (i = 0; i < n->nkids; i++) {
		e = extent(n->kids[i], len);
		end = e > end ? e : end;
	}
	if (!end)
		return 0;
	switch (n->op) {
	case VM_OFF_FIXED:
		return sat_add(n->off_byte, end);
	case VM_OFF_LIN:
	case VM_OFF_RAND:
		stride = n->stride_byte == VM_CUR_LEN ? len : n->stride_byte;
		count = n->span_byte ? (len ? n->span_byte / len : 0) :
				       n->count;
		if (!count)
			return 0;
		return sat_add(sat_add(n->off_byte,
				       sat_mul(count - 1, stride)), end);
	default:
		return end;
	}
}

uint64_t vm_extent(const struct vm_node *prog)
{
	if (vm_check(prog, NULL, 0))
		return UINT64_MAX;
	return extent(prog, 0);
}
