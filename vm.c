// SPDX-License-Identifier: GPL-2.0-only
/*
 * The timing VM: programs are trees of operations (see vm.h).  A run has
 * three phases.  vm_check() walks the tree once to verify the nesting and
 * the types and to plan the buffers; the buffers are then allocated and
 * filled; only then does evaluation start, so that nothing but the I/O
 * itself happens between the two clock readings of a timed operation.
 *
 * This file is the runner: evaluation and vm_run().  Building, freeing
 * and printing programs are in vm/tree.c, the check, the plan and the
 * extent in vm/check.c, the values and the table in vm/value.c, the
 * random order in vm/shuffle.c, the operations' names in vm/ops.c
 * (what they share: vm/vmint.h).  They never call back into this file.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vm.h"
#include "vmint.h"

/* Seed of the pseudo-random write data. */
#define VM_RAND_SEED 0x5eedf1a5b0a7dULL

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
		ret = vm_list_push(v, cap, &item);
	if (ret)
		vm_value_free(v);
	return ret;
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
	vm_value_free(v);
	return ret;
}

static int eval_len_series(struct vm_state *st, const struct vm_node *n,
			   const struct vm_ctx *ctx, struct vm_value *v)
{
	uint64_t lens[VM_MAX_POW2];
	struct vm_ctx c = *ctx;
	size_t k = vm_pow2_lengths(n, lens), i;

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
			ret = vm_list_push(v, in->n, &item);
		if (ret) {
			vm_value_free(v);
			return ret;
		}
	}
	return 0;
}

static int print_one(struct vm_state *st, const struct vm_value *cell)
{
	if (st->tab) {
		int ret = vm_table_add(st->tab, cell);
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
			int ret = vm_table_new_row(st->tab);

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
	vm_value_free(&in);
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
	vm_value_free(&in);
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
	vm_value_free(&v);
	if (ret == -ENOMEM && err && err_len && !err[0])
		vm_err(err, err_len, ret, "out of memory");
	if (tab)
		tab->row_open = 0;

out_free_bufs:
	for (i = 0; i < VM_NBUF; i++)
		dev_free_buf(st.buf[i]);
	return ret;
}
