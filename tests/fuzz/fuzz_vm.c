// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness for the timing VM: the input bytes are decoded into a
 * program tree built with the vm.h constructors (every operation, unknown
 * ones too, NULL operands, wrong constructors for an operation, lengths
 * and offsets both sensible and absurd), then vm_check() judges it and
 * vm_run() runs it on a small simulated card (16 MiB, 1 MiB AUs) whose
 * I/O calls are rationed.  A program whose evaluation would visit too
 * many nodes is only checked, never run, so every input ends quickly.
 *
 * Checked: vm_check() returns 0 or -EINVAL with a one-line reason;
 * vm_run() refuses exactly what vm_check() refuses, then before any I/O
 * and with an empty table; a run ends with 0 or a known error, -EIO only
 * when the ration ran out; the table it fills is consistent and within
 * max_cells; a second run on a fresh card gives the same result, table
 * and I/O count (the card and the VM's random orders are deterministic).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"
#include "vm.h"

#define VM_FUZZ_CARD "size=16M,erase=1M,page=16K"
/* Nodes built per input, at most. */
#define VM_FUZZ_MAX_NODES 200
/* Nesting of the built tree, at most (vm_check's own limit is lower). */
#define VM_FUZZ_MAX_DEPTH 24
/* Nodes a run may evaluate, estimated; above it the program only checks. */
#define VM_FUZZ_MAX_WORK 200000

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The undecoded rest of the input; zeros once it runs out. */
struct reader {
	const uint8_t *p;
	size_t n;
	unsigned int nodes;	/* built so far */
};

static uint8_t get8(struct reader *r)
{
	if (!r->n)
		return 0;
	r->n--;
	return *r->p++;
}

static uint64_t get64(struct reader *r)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 8; i++)
		v = v << 8 | get8(r);
	return v;
}

/* Values no sane program uses, to reach the overflow checks. */
static uint64_t absurd(struct reader *r)
{
	static const uint64_t v[] = {
		0, 1, 511, UINT64_MAX, UINT64_MAX - 511, 1ULL << 63,
		(1ULL << 63) + 512, 1ULL << 40, (64ULL << 20) + 512,
		UINT32_MAX + 1ULL, SIZE_MAX / 2 + 1,
	};
	uint8_t b = get8(r);

	if (b >= sizeof(v) / sizeof(v[0]))
		return get64(r);
	return v[b];
}

/* A length: mostly a power of two (or 3 * 2^n) from 512 B to 4 MiB. */
static uint64_t get_len(struct reader *r)
{
	uint8_t b = get8(r), k = get8(r);

	switch (b % 16) {
	case 10:
		return 1536ULL << (k % 12);
	case 11:
		return (uint64_t)k * 512;
	case 12:
		return k;
	case 13:	/* the whole card, half of it */
		return k & 1 ? 16ULL << 20 : 8ULL << 20;
	case 14:
		return absurd(r);
	default:
		return 512ULL << (k % 14);
	}
}

/* An offset: mostly 512-byte aligned inside the card. */
static uint64_t get_off(struct reader *r)
{
	uint8_t b = get8(r), k = get8(r);

	switch (b % 8) {
	case 0:
		return 0;
	case 5:
		return (uint64_t)k << 20;	/* past the end from 16 up */
	case 6:
		return (uint64_t)k * 512 + (b >> 3);
	case 7:
		return absurd(r);
	default:
		return ((uint64_t)k << 16) + (uint64_t)(b >> 3) * 512;
	}
}

/* A count: 0 to 15 mostly. */
static uint64_t get_count(struct reader *r)
{
	uint8_t b = get8(r);

	if (b >= 0xf0)
		return absurd(r);
	return b % 16;
}

static struct vm_node *build(struct reader *r, unsigned int depth);

/* An operand; NULL now and then. */
static struct vm_node *kid(struct reader *r, unsigned int depth)
{
	if (get8(r) == 0xff)
		return NULL;
	return build(r, depth + 1);
}

/* The operations, and a few past the end (still in the enum's range). */
static enum vm_op get_op(struct reader *r)
{
	return (enum vm_op)(get8(r) % (VM_OP_NR + 3));
}

static struct vm_node *build_seq(struct reader *r, unsigned int depth)
{
	struct vm_node *kids[5];
	size_t n = get8(r) % 6, i;

	for (i = 0; i < n; i++)
		kids[i] = kid(r, depth);
	if (n == 2 && get8(r) & 1)	/* the variadic constructor too */
		return vm_seq(2, kids[0], kids[1]);
	return vm_seqv(n, kids);
}

static struct vm_node *build(struct reader *r, unsigned int depth)
{
	struct vm_node *n;
	enum vm_op op;
	uint8_t how;

	if (depth >= VM_FUZZ_MAX_DEPTH || r->nodes >= VM_FUZZ_MAX_NODES ||
	    !r->n)
		return vm_leaf(VM_READ);
	r->nodes++;
	op = get_op(r);
	how = get8(r);
	if (how >= 0xf8) {	/* a constructor that does not fit op */
		switch (how & 3) {
		case 0:
			return vm_leaf(op);
		case 1:
			return vm_unary(op, kid(r, depth));
		case 2:
			n = build_seq(r, depth);
			if (n)
				n->op = op;
			return n;
		default:
			n = vm_off_series(VM_OFF_LIN, get_off(r), get_len(r),
					  get_count(r), kid(r, depth));
			if (n) {
				n->op = op;
				n->span_byte = get_len(r);
			}
			return n;
		}
	}
	switch (op) {
	case VM_READ:
	case VM_WRITE_ZERO:
	case VM_WRITE_ONES:
	case VM_WRITE_5A:
	case VM_WRITE_RAND:
	case VM_ERASE:
	case VM_LENGTH:
	case VM_NEWLINE:
		return vm_leaf(op);
	case VM_NUMBER:
		return vm_number(get64(r));
	case VM_OFF_FIXED:
		return vm_off_fixed(get_off(r), kid(r, depth));
	case VM_OFF_LIN:
	case VM_OFF_RAND:
		if (how & 1) {
			uint64_t off = get_off(r), span = get_len(r) * 4;

			return vm_off_span(op, off, span, kid(r, depth));
		}
		{
			uint64_t off = get_off(r);
			uint64_t stride = how & 2 ? VM_CUR_LEN : get_len(r);
			uint64_t count = get_count(r);

			n = vm_off_series(op, off, stride, count,
					  kid(r, depth));
		}
		if (n && how & 4)
			n->key = get64(r);
		if (n && how & 8)
			n->key_fixed = 1;
		return n;
	case VM_LEN_FIXED:
		return vm_len_fixed(get_len(r), kid(r, depth));
	case VM_LEN_POW2_UP:
	case VM_LEN_POW2_DOWN:
		{
			uint64_t min = get_len(r), max = get_len(r);

			return vm_len_pow2(op, min, max, kid(r, depth));
		}
	case VM_REPEAT:
		return vm_repeat(get_count(r), kid(r, depth));
	case VM_SEQ:
		return build_seq(r, depth);
	default:	/* unary, or unknown */
		if (how & 1 && op >= VM_OP_NR)
			return vm_leaf(op);
		return vm_unary(op, kid(r, depth));
	}
}

/* a * b, saturating. */
static uint64_t mul_sat(uint64_t a, uint64_t b)
{
	uint64_t p;

	return __builtin_mul_overflow(a, b, &p) ? UINT64_MAX : p;
}

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/*
 * An upper bound of the nodes a run of n evaluates, when the innermost
 * length is at least min_len (0: no length yet).
 */
static uint64_t work(const struct vm_node *n, uint64_t min_len)
{
	uint64_t w = 0, each;
	size_t i;

	if (!n)
		return 1;
	switch (n->op) {
	case VM_LEN_FIXED:
		min_len = n->len_byte;
		break;
	case VM_LEN_POW2_UP:
	case VM_LEN_POW2_DOWN:
		min_len = n->len_byte;
		break;
	default:
		break;
	}
	for (i = 0; n->kids && i < n->nkids; i++)
		w = add_sat(w, work(n->kids[i], min_len));
	switch (n->op) {
	case VM_OFF_LIN:
	case VM_OFF_RAND:
		each = n->count;
		if (n->span_byte)
			each = n->span_byte / (min_len ? min_len : 1);
		w = mul_sat(w, each);
		break;
	case VM_REPEAT:
		w = mul_sat(w, n->count);
		break;
	case VM_LEN_POW2_UP:
	case VM_LEN_POW2_DOWN:
		w = mul_sat(w, 64);
		break;
	default:
		break;
	}
	return add_sat(w, 1);
}

/* Every row's cells add up to the table's count, within its limit. */
static void check_table(const struct vm_table *tab)
{
	size_t i, j, cells = 0;

	for (i = 0; i < tab->nrows; i++) {
		const struct vm_row *row = &tab->rows[i];

		if (row->ncells > row->cap)
			fuzz_fail("row %zu: %zu cells in room for %zu", i,
				  row->ncells, row->cap);
		for (j = 0; j < row->ncells; j++)
			if (!memchr(row->cells[j].text, '\0', FMT_LEN))
				fuzz_fail("row %zu cell %zu: unterminated",
					  i, j);
		cells += row->ncells;
	}
	if (cells != tab->ncells)
		fuzz_fail("table counts %zu cells, rows hold %zu",
			  tab->ncells, cells);
	if (tab->max_cells && tab->ncells > tab->max_cells)
		fuzz_fail("%zu cells past the limit of %zu", tab->ncells,
			  tab->max_cells);
	if (tab->row_open)
		fuzz_fail("a row left open after the run");
}

/* Do two runs agree cell by cell? */
static int same_table(const struct vm_table *a, const struct vm_table *b)
{
	size_t i, j;

	if (a->nrows != b->nrows || a->ncells != b->ncells)
		return 0;
	for (i = 0; i < a->nrows; i++) {
		const struct vm_row *x = &a->rows[i], *y = &b->rows[i];

		if (x->ncells != y->ncells)
			return 0;
		for (j = 0; j < x->ncells; j++)
			if (strcmp(x->cells[j].text, y->cells[j].text) ||
			    memcmp(&x->cells[j].value, &y->cells[j].value,
				   sizeof(double)) ||
			    x->cells[j].unit != y->cells[j].unit)
				return 0;
	}
	return 1;
}

/* Run prog once more on a fresh card: the same as the first run? */
static void run_again(const struct vm_node *prog, int ret, const char *err,
		      const struct vm_table *tab, uint64_t io_count)
{
	struct vm_table again;
	struct device *dev;
	char err2[256];
	int ret2;

	if (fuzz_sim_open(&dev, VM_FUZZ_CARD))
		fuzz_fail("cannot open the simulated card");
	memset(&again, 0, sizeof(again));
	again.max_cells = tab->max_cells;
	ret2 = vm_run(dev, prog, NULL, &again, err2, sizeof(err2));
	if (ret2 != ret || (ret && strcmp(err, err2)) ||
	    dev->io_count != io_count || !same_table(tab, &again))
		fuzz_fail("second run differs: %d '%s' (%llu I/O), then %d '%s' (%llu)",
			  ret, ret ? err : "", (unsigned long long)io_count,
			  ret2, ret2 ? err2 : "",
			  (unsigned long long)dev->io_count);
	vm_table_free(&again);
	dev_close(dev);
}

static void one_line(const char *err, size_t len, const char *what)
{
	if (!memchr(err, '\0', len) || !err[0] || strchr(err, '\n'))
		fuzz_fail("%s: reason not one line: '%.*s'", what, (int)len,
			  err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct reader r = { data, size, 0 };
	struct vm_table tab;
	struct vm_node *prog;
	struct device *dev;
	uint64_t refused, io;
	char err[256];
	uint8_t flags = get8(&r);
	int checked, ret;

	prog = build(&r, 0);
	if (flags & 1 && prog) {	/* an empty program now and then */
		vm_free(prog);
		prog = NULL;
	}
	/* FUZZ_VM_PRINT=1 shows the program (triage) */
	vm_print_prog(getenv("FUZZ_VM_PRINT") ? stderr : fuzz_null(), prog);
	checked = vm_check(prog, err, sizeof(err));
	if (getenv("FUZZ_VM_PRINT"))
		fprintf(stderr, "vm_check: %d %s\n", checked,
			checked ? err : "");
	if (checked && checked != -EINVAL)
		fuzz_fail("vm_check: %d", checked);
	if (checked)
		one_line(err, sizeof(err), "vm_check");
	if (!checked && work(prog, 0) > VM_FUZZ_MAX_WORK)
		goto out_free;
	if (fuzz_sim_open(&dev, VM_FUZZ_CARD))
		fuzz_fail("cannot open the simulated card");
	memset(&tab, 0, sizeof(tab));
	tab.max_cells = flags >> 4;	/* 0: no limit */
	refused = fuzz_budget_refused;
	ret = vm_run(dev, prog, flags & 2 ? fuzz_null() : NULL,
		     flags & 4 ? &tab : NULL, err, sizeof(err));
	if (checked) {
		if (ret != -EINVAL)
			fuzz_fail("vm_check said %d, vm_run %d", checked, ret);
		if (dev->io_count || tab.nrows || tab.ncells)
			fuzz_fail("a refused program ran: %llu I/O calls, %zu rows",
				  (unsigned long long)dev->io_count, tab.nrows);
	}
	switch (ret) {
	case 0:
		break;
	case -EIO:
		if (fuzz_budget_refused == refused)
			fuzz_fail("vm_run: -EIO from the simulated card");
		/* fall through */
	case -EINVAL:
	case -ENOSPC:
	case -ENOMEM:
		one_line(err, sizeof(err), "vm_run");
		break;
	default:
		fuzz_fail("vm_run: %d", ret);
	}
	if (ret == -ENOSPC && !tab.max_cells)
		fuzz_fail("vm_run: -ENOSPC without a cell limit");
	check_table(&tab);
	io = dev->io_count;
	dev_close(dev);
	/* with the table, or the second run would see fewer cells */
	if (flags & 8 && flags & 4)
		run_again(prog, ret, err, &tab, io);
	vm_table_free(&tab);
out_free:
	vm_free(prog);
	return 0;
}
