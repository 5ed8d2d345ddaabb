// SPDX-License-Identifier: GPL-2.0-only
/*
 * The timing VM: programs are trees of operations (see vm.h).  A run has
 * three phases.  vm_check() walks the tree once to verify the nesting and
 * the types and to plan the buffers; the buffers are then allocated and
 * filled; only then does evaluation start, so that nothing but the I/O
 * itself happens between the two clock readings of a timed operation.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "vm.h"

/* Deeper trees are refused: real programs are a handful of levels, and
 * a hand-built tree that contains a cycle must not recurse forever. */
#define VM_MAX_DEPTH 64

/* Seed of the pseudo-random write data. */
#define VM_RAND_SEED 0x5eedf1a5b0a7dULL

static const char *const vm_names[VM_OP_NR] = {
	[VM_READ] = "read",
	[VM_WRITE_ZERO] = "write_zero",
	[VM_WRITE_ONES] = "write_ones",
	[VM_WRITE_5A] = "write_5a",
	[VM_WRITE_RAND] = "write_rand",
	[VM_ERASE] = "erase",
	[VM_LENGTH] = "length",
	[VM_NEWLINE] = "newline",
	[VM_OFF_FIXED] = "off_fixed",
	[VM_OFF_LIN] = "off_lin",
	[VM_OFF_RAND] = "off_rand",
	[VM_LEN_FIXED] = "len_fixed",
	[VM_LEN_POW2_UP] = "len_pow2_up",
	[VM_LEN_POW2_DOWN] = "len_pow2_down",
	[VM_REPEAT] = "repeat",
	[VM_SEQ] = "seq",
	[VM_REDUCE_MIN] = "reduce_min",
	[VM_REDUCE_MAX] = "reduce_max",
	[VM_REDUCE_AVG] = "reduce_avg",
	[VM_REDUCE_TOTAL] = "reduce_total",
	[VM_BPS] = "bps",
	[VM_FORMAT] = "format",
	[VM_PRINT] = "print",
	[VM_DROP] = "drop",
	[VM_NUMBER] = "number",
	[VM_DIFF] = "diff",
	[VM_MIN_POS] = "min_pos",
};

const char *vm_op_name(enum vm_op op)
{
	if ((unsigned int)op >= VM_OP_NR)
		return "?";
	return vm_names[op];
}

static int vm_err(char *err, size_t err_len, int ret, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Store a reason in err (if there is one) and return ret. */
static int vm_err(char *err, size_t err_len, int ret, const char *fmt, ...)
{
	if (err && err_len) {
		va_list ap;

		va_start(ap, fmt);
		vsnprintf(err, err_len, fmt, ap);
		va_end(ap);
	}
	return ret;
}

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

/* ---- the lengths of a power-of-two series ---- */

/* A series has at most one length per bit of a uint64_t. */
#define VM_MAX_POW2 64

/*
 * Fill lens with the lengths of a VM_LEN_POW2_* node in order; returns
 * how many (0 if the node's bounds are invalid).
 */
static size_t pow2_lengths(const struct vm_node *n, uint64_t *lens)
{
	uint64_t min = n->len_byte, max = n->len_max_byte, len;
	size_t k = 0;

	if (!min || max < min)
		return 0;
	if (n->op == VM_LEN_POW2_UP) {
		for (len = min; k < VM_MAX_POW2; len *= 2) {
			lens[k++] = len;
			if (len > max / 2)
				break;
		}
		return k;
	}
	if (max % min)
		return 0;
	for (len = max; k < VM_MAX_POW2; len /= 2) {
		lens[k++] = len;
		if (len % 2 || len / 2 < min || (len / 2) % min)
			break;
	}
	return k;
}

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

/* What a run needs, gathered by the check. */
struct vm_plan {
	uint64_t max_len_byte;	/* largest length an I/O leaf may see */
	unsigned int bufs;	/* bit (1 << op) for each I/O leaf used */
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
		size_t k = pow2_lengths(n, lens);

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

static int vm_plan(const struct vm_node *prog, struct vm_plan *plan,
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
		k = pow2_lengths(n, lens);
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

/* ---- values ---- */

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

static void value_free(struct vm_value *v)
{
	if (v->type == VV_LIST) {
		size_t i;

		for (i = 0; i < v->n; i++)
			value_free(&v->items[i]);
		free(v->items);
	}
	v->type = VV_NONE;
	v->items = NULL;
	v->n = 0;
}

/*
 * Append item (moved) to the list being built in list, which has room
 * for cap values once allocated.  Nothing is not a value: it is skipped.
 */
static int list_push(struct vm_value *list, uint64_t cap,
		     struct vm_value *item)
{
	if (item->type == VV_NONE)
		return 0;
	if (!list->items) {
		if (cap > SIZE_MAX / sizeof(*list->items))
			goto out_nomem;
		list->items = calloc(cap, sizeof(*list->items));
		if (!list->items)
			goto out_nomem;
		list->type = VV_LIST;
	}
	if (list->n >= cap) {	/* a series is never longer than announced */
		value_free(item);
		return -EINVAL;
	}
	list->items[list->n++] = *item;
	item->type = VV_NONE;
	return 0;

out_nomem:
	value_free(item);
	return -ENOMEM;
}

/* ---- tables ---- */

void vm_table_free(struct vm_table *tab)
{
	size_t i;

	if (!tab)
		return;
	for (i = 0; i < tab->nrows; i++)
		free(tab->rows[i].cells);
	free(tab->rows);
	tab->rows = NULL;
	tab->nrows = tab->cap = tab->ncells = 0;
	tab->row_open = 0;
}

/* Start a new row. */
static int table_new_row(struct vm_table *tab)
{
	if (tab->nrows == tab->cap) {
		size_t cap = tab->cap ? tab->cap * 2 : 16;
		struct vm_row *rows = realloc(tab->rows, cap * sizeof(*rows));

		if (!rows)
			return -ENOMEM;
		tab->rows = rows;
		tab->cap = cap;
	}
	memset(&tab->rows[tab->nrows++], 0, sizeof(*tab->rows));
	tab->row_open = 1;
	return 0;
}

static int table_add(struct vm_table *tab, const struct vm_value *cell)
{
	struct vm_row *row;

	if (tab->max_cells && tab->ncells >= tab->max_cells)
		return -ENOSPC;
	if (!tab->row_open) {
		int ret = table_new_row(tab);

		if (ret)
			return ret;
	}
	row = &tab->rows[tab->nrows - 1];
	if (row->ncells == row->cap) {
		size_t cap = row->cap ? row->cap * 2 : 8;
		struct vm_cell *cells = realloc(row->cells,
						cap * sizeof(*cells));

		if (!cells)
			return -ENOMEM;
		row->cells = cells;
		row->cap = cap;
	}
	memcpy(row->cells[row->ncells].text, cell->text, FMT_LEN);
	row->cells[row->ncells].value = cell->num;
	row->cells[row->ncells].unit = cell->unit;
	row->ncells++;
	tab->ncells++;
	return 0;
}

/* ---- evaluation ---- */

/* Where a node runs. */
struct vm_ctx {
	uint64_t off_byte;	/* sum of the enclosing offsets */
	uint64_t len_byte;	/* set by the innermost length series */
	uint64_t round;		/* iteration of the innermost repeat */
};

/* Buffers: one for reads, one per write pattern (index by op). */
#define VM_NBUF (VM_WRITE_RAND + 1)

/* One offset of a per-position minimum. */
struct vm_pos {
	uint64_t key;		/* offset + 1; 0: a free slot */
	uint64_t time_ns;	/* the least time seen there */
};

/* The offsets a VM_MIN_POS has seen: open addressing, by offset. */
struct vm_minpos {
	struct vm_pos *slot;	/* cap slots, at most half of them used */
	size_t cap;		/* a power of two, or 0 */
	size_t n;		/* slots used */
};

struct vm_state {
	struct device *dev;
	FILE *out;
	struct vm_table *tab;
	void *buf[VM_NBUF];	/* max_len bytes each, filled beforehand */
	struct vm_minpos *minpos;	/* the VM_MIN_POS running, or NULL */
	char *err;
	size_t err_len;
};

static uint64_t mix64(uint64_t x);

/* Put time_ns at slot key of m, keeping the least; m has room. */
static void minpos_put(struct vm_minpos *m, uint64_t key, uint64_t time_ns)
{
	size_t i = (size_t)mix64(key) & (m->cap - 1);

	while (m->slot[i].key && m->slot[i].key != key)
		i = (i + 1) & (m->cap - 1);
	if (!m->slot[i].key) {
		m->slot[i].key = key;
		m->slot[i].time_ns = time_ns;
		m->n++;
	} else if (time_ns < m->slot[i].time_ns) {
		m->slot[i].time_ns = time_ns;
	}
}

/* Keep the time of an I/O at off_byte; 0 or -ENOMEM. */
static int minpos_note(struct vm_minpos *m, uint64_t off_byte,
		       uint64_t time_ns)
{
	if (2 * (m->n + 1) > m->cap) {
		struct vm_minpos big = { NULL, m->cap ? 2 * m->cap : 64, 0 };
		size_t i;

		if (big.cap > SIZE_MAX / sizeof(*big.slot))
			return -ENOMEM;
		big.slot = calloc(big.cap, sizeof(*big.slot));
		if (!big.slot)
			return -ENOMEM;
		for (i = 0; i < m->cap; i++)
			if (m->slot[i].key)
				minpos_put(&big, m->slot[i].key,
					   m->slot[i].time_ns);
		free(m->slot);
		*m = big;
	}
	minpos_put(m, off_byte + 1, time_ns);
	return 0;
}

static int eval(struct vm_state *st, const struct vm_node *n,
		const struct vm_ctx *ctx, struct vm_value *v);

static int eval_io(struct vm_state *st, const struct vm_node *n,
		   const struct vm_ctx *ctx, struct vm_value *v)
{
	struct device *dev = st->dev;
	uint64_t off = ctx->off_byte, len = ctx->len_byte, time_ns = 0;
	unsigned int lbs = dev->logical_block_size ? dev->logical_block_size
						   : 1;
	const char *what = vm_op_name(n->op);
	int ret;

	if (off > dev->size_byte || len > dev->size_byte - off)
		return vm_err(st->err, st->err_len, -EINVAL,
			      "%s of %" PRIu64 " bytes at %" PRIu64
			      " reaches past the end of the device (%" PRIu64
			      " bytes)", what, len, off, dev->size_byte);
	if (off % lbs || len % lbs)
		return vm_err(st->err, st->err_len, -EINVAL,
			      "%s of %" PRIu64 " bytes at %" PRIu64
			      " is not aligned to %u-byte blocks",
			      what, len, off, lbs);
	switch (n->op) {
	case VM_READ:
		what = "read";
		ret = dev_read(dev, st->buf[n->op], len, (off_t)off,
			       &time_ns);
		break;
	case VM_ERASE:
		what = "discard";
		ret = dev_discard(dev, (off_t)off, len, &time_ns);
		break;
	default:
		what = "write";
		ret = dev_write(dev, st->buf[n->op], len, (off_t)off,
				&time_ns);
		break;
	}
	if (ret) {
		if (dev->last_error.err != -ret)
			dev_fail(dev, what, (off_t)off, len, -ret);
		return vm_err(st->err, st->err_len, ret,
			      "%s of %" PRIu64 " bytes at %" PRIu64 ": %s",
			      what, len, off, strerror(-ret));
	}
	v->type = VV_SAMPLE;
	v->time_ns = time_ns;
	v->bytes = len;
	/* after the clock readings: keeping it is not part of the I/O */
	if (st->minpos)
		return minpos_note(st->minpos, off, time_ns);
	return 0;
}

/*
 * Evaluate kid in c and append its value to the list in v, which has
 * room for cap values.  On failure v is freed.
 */
static int eval_push(struct vm_state *st, const struct vm_node *kid,
		     const struct vm_ctx *c, uint64_t cap, struct vm_value *v)
{
	struct vm_value item;
	int ret;

	memset(&item, 0, sizeof(item));
	ret = eval(st, kid, c, &item);
	if (!ret)
		ret = list_push(v, cap, &item);
	if (ret)
		value_free(v);
	return ret;
}

/* One round of a bijection on bits-wide integers: add, multiply, xorshift. */
static uint64_t shuffle_round(uint64_t x, unsigned int bits, uint64_t mask,
			      uint64_t key)
{
	x = (x + key) & mask;
	x = (x * 0x9e3779b97f4a7c15ULL) & mask;	/* odd: invertible mod 2^bits */
	x ^= x >> (bits / 2 + 1);
	return x;
}

/* A permutation of [0, 2^bits), mixed enough to look random. */
static uint64_t shuffle_pow2(uint64_t x, unsigned int bits, uint64_t key)
{
	uint64_t mask = bits >= 64 ? ~0ULL : (1ULL << bits) - 1;
	uint64_t k = key * 0xbf58476d1ce4e5b9ULL + 0x94d049bb133111ebULL;
	int r;

	for (r = 0; r < 4; r++) {
		x = shuffle_round(x, bits, mask, k);
		k = (k ^ (k >> 31)) * 0xd6e8feb86659fd93ULL + 1;
	}
	return x;
}

uint64_t vm_shuffle(uint64_t i, uint64_t n, uint64_t key)
{
	unsigned int bits = 0;
	uint64_t x;

	if (n <= 1)
		return 0;
	i %= n;		/* the walk below only ends for i inside [0, n) */
	while (bits < 64 && (1ULL << bits) < n)
		bits++;
	/*
	 * Cycle walking: following the permutation of the enclosing power of
	 * two until it lands inside [0, n) is itself a permutation of [0, n).
	 */
	x = shuffle_pow2(i, bits, key);
	while (x >= n)
		x = shuffle_pow2(x, bits, key);
	return x;
}

/* Spread the bits of x so that nearby offsets pick unrelated orders. */
static uint64_t mix64(uint64_t x)
{
	x ^= x >> 31;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 29;
	return x;
}

static int eval_off_series(struct vm_state *st, const struct vm_node *n,
			   const struct vm_ctx *ctx, struct vm_value *v)
{
	uint64_t stride = n->stride_byte, count = n->count, key, i, pos;
	struct vm_ctx c = *ctx;
	int ret;

	if (stride == VM_CUR_LEN)
		stride = ctx->len_byte;
	if (n->span_byte)
		count = ctx->len_byte ? n->span_byte / ctx->len_byte : 0;
	if (!count)
		return vm_err(st->err, st->err_len, -EINVAL,
			      "%s: empty series (span %" PRIu64
			      " shorter than length %" PRIu64 ")",
			      vm_op_name(n->op), n->span_byte, ctx->len_byte);
	/*
	 * A different order for every place the series is entered: the
	 * card must not find a pattern across the rows of a table.
	 */
	key = n->key_fixed ? n->key + ctx->round :
	      n->key ^ mix64(ctx->off_byte) ^ mix64(~ctx->len_byte);
	for (i = 0; i < count; i++) {
		pos = n->op == VM_OFF_RAND ? vm_shuffle(i, count, key) : i;
		if (pos >= count) {
			ret = vm_err(st->err, st->err_len, -EINVAL,
				     "%s: shuffle gave position %" PRIu64
				     " of %" PRIu64, vm_op_name(n->op), pos,
				     count);
			goto out_free;
		}
		if (__builtin_mul_overflow(pos, stride, &c.off_byte) ||
		    __builtin_add_overflow(c.off_byte, n->off_byte,
					   &c.off_byte) ||
		    __builtin_add_overflow(c.off_byte, ctx->off_byte,
					   &c.off_byte)) {
			ret = vm_err(st->err, st->err_len, -EINVAL,
				     "%s: offset overflows", vm_op_name(n->op));
			goto out_free;
		}
		ret = eval_push(st, n->kids[0], &c, count, v);
		if (ret)
			return ret;
	}
	return 0;

out_free:
	value_free(v);
	return ret;
}

static int eval_len_series(struct vm_state *st, const struct vm_node *n,
			   const struct vm_ctx *ctx, struct vm_value *v)
{
	uint64_t lens[VM_MAX_POW2];
	struct vm_ctx c = *ctx;
	size_t k = pow2_lengths(n, lens), i;

	for (i = 0; i < k; i++) {
		int ret;

		c.len_byte = lens[i];
		ret = eval_push(st, n->kids[0], &c, k, v);
		if (ret)
			return ret;
	}
	return 0;
}

static int eval_repeat(struct vm_state *st, const struct vm_node *n,
		       const struct vm_ctx *ctx, struct vm_value *v)
{
	struct vm_ctx c = *ctx;
	uint64_t i;

	for (i = 0; i < n->count; i++) {
		int ret;

		c.round = i;
		ret = eval_push(st, n->kids[0], &c, n->count, v);

		if (ret)
			return ret;
	}
	return 0;
}

static int eval_seq(struct vm_state *st, const struct vm_node *n,
		    const struct vm_ctx *ctx, struct vm_value *v)
{
	size_t i;

	for (i = 0; i < n->nkids; i++) {
		int ret = eval_push(st, n->kids[i], ctx, n->nkids, v);

		if (ret)
			return ret;
	}
	return 0;
}

/* Running state of a reduction. */
struct vm_acc {
	uint64_t n;		/* samples seen */
	uint64_t time_ns;	/* their summed time */
	uint64_t bytes;		/* their summed bytes */
	struct vm_value pick;	/* the minimum or maximum so far */
};

static void reduce_walk(const struct vm_value *v, enum vm_op op,
			struct vm_acc *a)
{
	if (v->type == VV_LIST) {
		size_t i;

		for (i = 0; i < v->n; i++)
			reduce_walk(&v->items[i], op, a);
		return;
	}
	if (v->type != VV_SAMPLE)
		return;
	if (!a->n || (op == VM_REDUCE_MIN && v->time_ns < a->pick.time_ns) ||
	    (op == VM_REDUCE_MAX && v->time_ns > a->pick.time_ns))
		a->pick = *v;
	a->n++;
	a->time_ns += v->time_ns;
	a->bytes += v->bytes;
}

static int eval_reduce(struct vm_state *st, const struct vm_node *n,
		       const struct vm_value *in, struct vm_value *v)
{
	struct vm_acc a;

	memset(&a, 0, sizeof(a));
	reduce_walk(in, n->op, &a);
	if (!a.n)
		return vm_err(st->err, st->err_len, -EINVAL,
			      "%s of an empty list", vm_op_name(n->op));
	v->type = VV_SAMPLE;
	switch (n->op) {
	case VM_REDUCE_MIN:
	case VM_REDUCE_MAX:
		v->time_ns = a.pick.time_ns;
		v->bytes = a.pick.bytes;
		break;
	case VM_REDUCE_AVG:	/* rounded to the nearest integer */
		v->time_ns = (a.time_ns + a.n / 2) / a.n;
		v->bytes = (a.bytes + a.n / 2) / a.n;
		break;
	default:
		v->time_ns = a.time_ns;
		v->bytes = a.bytes;
		break;
	}
	return 0;
}

static void format_one(const struct vm_value *in, struct vm_value *v)
{
	v->type = VV_CELL;
	if (in->type == VV_SAMPLE) {
		v->num = (double)in->time_ns;
		v->unit = VM_UNIT_NS;
	} else {
		v->num = in->num;
		v->unit = in->unit;
	}
	/* a double past the integer's range does not convert: saturate */
	switch (v->unit) {
	case VM_UNIT_BYTES:
		fmt_size(v->text, v->num < 0x1p64 ? (uint64_t)v->num
						  : UINT64_MAX);
		break;
	case VM_UNIT_NS:
		fmt_time(v->text, v->num < 0x1p63 ? (int64_t)v->num
						  : INT64_MAX);
		break;
	default:
		fmt_rate(v->text, v->num);
		break;
	}
}

/* A cell from a number or a sample; a list of them from a list. */
static int eval_format(const struct vm_value *in, struct vm_value *v)
{
	size_t i;

	if (in->type != VV_LIST) {
		format_one(in, v);
		return 0;
	}
	for (i = 0; i < in->n; i++) {
		struct vm_value item;
		int ret;

		memset(&item, 0, sizeof(item));
		ret = eval_format(&in->items[i], &item);
		if (!ret)
			ret = list_push(v, in->n, &item);
		if (ret) {
			value_free(v);
			return ret;
		}
	}
	return 0;
}

static int print_one(struct vm_state *st, const struct vm_value *cell)
{
	if (st->tab) {
		int ret = table_add(st->tab, cell);
		if (ret == -ENOSPC)
			return vm_err(st->err, st->err_len, ret,
				      "result table too small (%zu cells)",
				      st->tab->max_cells);
		if (ret)
			return ret;
	}
	if (st->out)
		fprintf(st->out, "%-7s ", cell->text);
	return 0;
}

/* Emit a cell, or every cell of a list in order. */
static int eval_print(struct vm_state *st, const struct vm_value *cell)
{
	size_t i;

	if (cell->type != VV_LIST)
		return print_one(st, cell);
	for (i = 0; i < cell->n; i++) {
		int ret = eval_print(st, &cell->items[i]);

		if (ret)
			return ret;
	}
	return 0;
}

static int eval_newline(struct vm_state *st)
{
	if (st->tab) {
		if (!st->tab->row_open) {
			int ret = table_new_row(st->tab);

			if (ret)
				return ret;
		}
		st->tab->row_open = 0;
	}
	if (st->out)
		fputc('\n', st->out);
	return 0;
}

/*
 * Three samples (before, on, after) -> their times and how far the
 * middle one lies above the mean of its neighbours, rounded toward zero
 * as C divides: the cost of crossing a boundary, in the align test.
 */
static int eval_diff(struct vm_state *st, const struct vm_value *in,
		     struct vm_value *v)
{
	int64_t t[3];
	size_t i;

	if (in->type != VV_LIST || in->n != 3)
		return vm_err(st->err, st->err_len, -EINVAL,
			      "diff wants three samples, has %zu",
			      in->type == VV_LIST ? in->n : (size_t)0);
	for (i = 0; i < 3; i++)
		t[i] = (int64_t)in->items[i].time_ns;
	v->type = VV_LIST;
	v->n = 4;
	v->items = calloc(4, sizeof(*v->items));
	if (!v->items) {
		v->type = VV_NONE;
		v->n = 0;
		return -ENOMEM;
	}
	for (i = 0; i < 4; i++) {
		v->items[i].type = VV_NUM;
		v->items[i].unit = VM_UNIT_NS;
		v->items[i].num = (double)(i < 3 ? t[i] :
					   t[1] - (t[0] + t[2]) / 2);
	}
	return 0;
}

/* qsort() order of positions: by offset. */
static int pos_cmp(const void *a, const void *b)
{
	const struct vm_pos *x = a, *y = b;

	return (x->key > y->key) - (x->key < y->key);
}

/* One row of a per-position minimum: offset, time. */
static int emit_pos(struct vm_state *st, const struct vm_pos *p)
{
	struct vm_value off = { .type = VV_NUM, .unit = VM_UNIT_BYTES };
	struct vm_value t = { .type = VV_SAMPLE };
	struct vm_value cell;
	int ret;

	off.num = (double)(p->key - 1);
	t.time_ns = p->time_ns;
	format_one(&off, &cell);
	ret = eval_print(st, &cell);
	if (ret)
		return ret;
	format_one(&t, &cell);
	ret = eval_print(st, &cell);
	return ret ? ret : eval_newline(st);
}

/*
 * VM_MIN_POS: run the operand keeping the least time at each offset,
 * then emit the offsets in order.  What was read before a failure (or a
 * stop) is emitted too: a minimum over the reads made so far.
 */
static int eval_min_pos(struct vm_state *st, const struct vm_node *n,
			const struct vm_ctx *ctx)
{
	struct vm_minpos m = { NULL, 0, 0 };
	struct vm_value in;
	size_t i, k = 0;
	int ret, out;

	memset(&in, 0, sizeof(in));
	st->minpos = &m;
	ret = eval(st, n->kids[0], ctx, &in);
	st->minpos = NULL;
	value_free(&in);
	for (i = 0; i < m.cap; i++)
		if (m.slot[i].key)
			m.slot[k++] = m.slot[i];
	if (k)
		qsort(m.slot, k, sizeof(*m.slot), pos_cmp);
	for (i = 0, out = 0; i < k && !out; i++)
		out = emit_pos(st, &m.slot[i]);
	free(m.slot);
	return ret ? ret : out;
}

/* Evaluate a node with one operand that transforms its value. */
static int eval_unary(struct vm_state *st, const struct vm_node *n,
		      const struct vm_ctx *ctx, struct vm_value *v)
{
	struct vm_value in;
	struct vm_ctx c = *ctx;
	int ret;

	memset(&in, 0, sizeof(in));
	if (n->op == VM_OFF_FIXED &&
	    __builtin_add_overflow(c.off_byte, n->off_byte, &c.off_byte))
		return vm_err(st->err, st->err_len, -EINVAL,
			      "off_fixed: offset overflows");
	if (n->op == VM_LEN_FIXED)
		c.len_byte = n->len_byte;
	ret = eval(st, n->kids[0], &c, &in);
	if (ret)
		return ret;
	switch (n->op) {
	case VM_OFF_FIXED:
	case VM_LEN_FIXED:
		*v = in;	/* the value passes through */
		return 0;
	case VM_REDUCE_MIN:
	case VM_REDUCE_MAX:
	case VM_REDUCE_AVG:
	case VM_REDUCE_TOTAL:
		ret = eval_reduce(st, n, &in, v);
		break;
	case VM_BPS:
		v->type = VV_NUM;
		v->unit = VM_UNIT_BPS;
		v->num = in.time_ns ? (double)in.bytes * 1e9 / in.time_ns
				    : INFINITY;
		break;
	case VM_FORMAT:
		ret = eval_format(&in, v);
		break;
	case VM_DIFF:
		ret = eval_diff(st, &in, v);
		break;
	case VM_PRINT:
		ret = eval_print(st, &in);
		break;
	default:	/* VM_DROP */
		break;
	}
	value_free(&in);
	return ret;
}

static int eval(struct vm_state *st, const struct vm_node *n,
		const struct vm_ctx *ctx, struct vm_value *v)
{
	switch (n->op) {
	case VM_READ:
	case VM_WRITE_ZERO:
	case VM_WRITE_ONES:
	case VM_WRITE_5A:
	case VM_WRITE_RAND:
	case VM_ERASE:
		return eval_io(st, n, ctx, v);
	case VM_LENGTH:
		v->type = VV_NUM;
		v->num = (double)ctx->len_byte;
		v->unit = VM_UNIT_BYTES;
		return 0;
	case VM_NEWLINE:
		return eval_newline(st);
	case VM_NUMBER:
		v->type = VV_NUM;
		v->num = (double)n->len_byte;
		v->unit = VM_UNIT_BYTES;
		return 0;
	case VM_MIN_POS:
		return eval_min_pos(st, n, ctx);
	case VM_OFF_LIN:
	case VM_OFF_RAND:
		return eval_off_series(st, n, ctx, v);
	case VM_LEN_POW2_UP:
	case VM_LEN_POW2_DOWN:
		return eval_len_series(st, n, ctx, v);
	case VM_REPEAT:
		return eval_repeat(st, n, ctx, v);
	case VM_SEQ:
		return eval_seq(st, n, ctx, v);
	default:
		return eval_unary(st, n, ctx, v);
	}
}

/*
 * Allocate one buffer per kind of I/O the program does, as large as its
 * largest length, and fill the write buffers with their pattern now so
 * that no preparation happens inside a timed operation.
 */
static int alloc_bufs(struct vm_state *st, const struct vm_plan *plan)
{
	static const enum dev_pattern pat[VM_NBUF] = {
		[VM_WRITE_ZERO] = DEV_PAT_ZERO,
		[VM_WRITE_ONES] = DEV_PAT_ONES,
		[VM_WRITE_5A] = DEV_PAT_5A,
		[VM_WRITE_RAND] = DEV_PAT_RANDOM,
	};
	/* an I/O longer than the device fails before it needs a buffer */
	uint64_t max = plan->max_len_byte < st->dev->size_byte ?
		       plan->max_len_byte : st->dev->size_byte;
	size_t len;
	int i;

	if (max > SIZE_MAX)	/* 32-bit and a huge block */
		return -ENOMEM;
	len = (size_t)max;
	for (i = 0; i < VM_NBUF; i++) {
		if (!(plan->bufs & (1u << i)))
			continue;
		st->buf[i] = dev_alloc_buf(len);
		if (!st->buf[i])
			return -ENOMEM;
		if (i == VM_READ)
			memset(st->buf[i], 0, len);
		else
			dev_fill(st->buf[i], len, pat[i], VM_RAND_SEED);
	}
	return 0;
}

int vm_run(struct device *dev, const struct vm_node *prog, FILE *out,
	   struct vm_table *tab, char *err, size_t err_len)
{
	struct vm_state st = {
		.dev = dev, .out = out, .tab = tab,
		.err = err, .err_len = err_len,
	};
	struct vm_ctx ctx = { 0, 0, 0 };
	struct vm_value v;
	struct vm_plan plan;
	int ret, i;

	if (err && err_len)
		err[0] = '\0';
	if (tab)
		vm_table_free(tab);
	if (!dev)
		return vm_err(err, err_len, -EINVAL, "no device");
	ret = vm_plan(prog, &plan, err, err_len);
	if (ret)
		return ret;
	ret = alloc_bufs(&st, &plan);
	if (ret) {
		vm_err(err, err_len, ret, "out of memory for %" PRIu64
		       "-byte buffers", plan.max_len_byte);
		goto out_free_bufs;
	}
	memset(&v, 0, sizeof(v));
	ret = eval(&st, prog, &ctx, &v);
	value_free(&v);
	if (ret == -ENOMEM && err && err_len && !err[0])
		vm_err(err, err_len, ret, "out of memory");
	if (tab)
		tab->row_open = 0;

out_free_bufs:
	for (i = 0; i < VM_NBUF; i++)
		dev_free_buf(st.buf[i]);
	return ret;
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
