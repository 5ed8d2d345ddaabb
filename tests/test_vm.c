// SPDX-License-Identifier: GPL-2.0-only
/*
 * Tests of the timing VM.  Most run on a tiny recording device defined
 * here: it logs every (operation, offset, length), checks the data it is
 * given and charges a fixed, known time, so that every value the VM
 * computes can be asserted to the nanosecond.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "format.h"
#include "vm.h"
#include "recdev.h"
#include "util.h"

/* ---- helpers ---- */

/* A program's run: output, table, error. */
struct run {
	char *out;
	size_t out_len;
	struct vm_table tab;
	char err[256];
	int ret;
};

static void run_prog(struct run *res, struct device *dev,
		     struct vm_node *prog)
{
	FILE *f;

	memset(res, 0, sizeof(*res));
	f = open_memstream(&res->out, &res->out_len);
	ck_assert_ptr_nonnull(f);
	res->ret = vm_run(dev, prog, f, &res->tab, res->err,
			  sizeof(res->err));
	fclose(f);
	vm_free(prog);
}

static void run_done(struct run *res)
{
	free(res->out);
	vm_table_free(&res->tab);
}

static struct vm_node *cell(struct vm_node *n)
{
	return vm_unary(VM_PRINT, vm_unary(VM_FORMAT, n));
}

static struct vm_node *leaf(enum vm_op op)
{
	return vm_leaf(op);
}

/* The one recorded cell of a one-cell run. */
static const struct vm_cell *only_cell(const struct run *res)
{
	ck_assert_int_eq(res->ret, 0);
	ck_assert_uint_eq(res->tab.nrows, 1);
	ck_assert_uint_eq(res->tab.rows[0].ncells, 1);
	return &res->tab.rows[0].cells[0];
}

/* ---- I/O leaves ---- */

START_TEST(test_read_leaf)
{
	struct rec_dev *r = rec_open(1 << 20);
	struct run res;
	const struct vm_cell *c;

	run_prog(&res, &r->dev,
		 cell(vm_len_fixed(4096, vm_off_fixed(8192, leaf(VM_READ)))));
	c = only_cell(&res);
	ck_assert_uint_eq(r->n, 1);
	ck_assert_int_eq(r->log[0].op, REC_READ);
	ck_assert_uint_eq(r->log[0].off, 8192);
	ck_assert_uint_eq(r->log[0].len, 4096);
	ck_assert_uint_eq(r->dev.io_count, 1);
	/* a sample formats as its time */
	ck_assert_int_eq(c->unit, VM_UNIT_NS);
	ck_assert_double_eq(c->value, REC_READ_NS(4096));
	ck_assert_str_eq(c->text, "5.1\u00b5s");
	ck_assert_str_eq(res.out, "5.1\u00b5s  ");
	ck_assert_int_eq(r->misaligned, 0);
	/* two clock readings per operation, nothing else */
	ck_assert_uint_eq(r->clock_reads, 2);
	run_done(&res);
	dev_close(&r->dev);
}
END_TEST

static const struct {
	enum vm_op op;
	int pattern;
} write_leaves[] = {
	{ VM_WRITE_ZERO, 0x00 },
	{ VM_WRITE_ONES, 0xff },
	{ VM_WRITE_5A, 0x5a },
	{ VM_WRITE_RAND, -1 },
};

START_TEST(test_write_leaves)
{
	struct rec_dev *r = rec_open(1 << 20);
	enum vm_op op = write_leaves[_i].op;
	struct run res;
	const struct vm_cell *c;
	size_t i;

	/* two lengths: the buffer is allocated once, for the largest */
	run_prog(&res, &r->dev,
		 cell(vm_unary(VM_REDUCE_TOTAL,
			       vm_len_pow2(VM_LEN_POW2_UP, 1024, 8192,
					   vm_off_fixed(65536, leaf(op))))));
	c = only_cell(&res);
	ck_assert_uint_eq(r->n, 4);
	for (i = 0; i < r->n; i++) {
		ck_assert_int_eq(r->log[i].op, REC_WRITE);
		ck_assert_uint_eq(r->log[i].off, 65536);
		ck_assert_uint_eq(r->log[i].len, 1024u << i);
		ck_assert_int_eq(r->log[i].pattern, write_leaves[_i].pattern);
		ck_assert_ptr_eq(r->log[i].buf, r->log[0].buf);
	}
	ck_assert_double_eq(c->value, REC_WRITE_NS(1024) + REC_WRITE_NS(2048) +
				      REC_WRITE_NS(4096) + REC_WRITE_NS(8192));
	ck_assert_int_eq(r->misaligned, 0);
	run_done(&res);
	dev_close(&r->dev);
}
END_TEST

START_TEST(test_erase_leaf)
{
	struct rec_dev *r = rec_open(1 << 20);
	struct run res;
	const struct vm_cell *c;

	run_prog(&res, &r->dev,
		 cell(vm_len_fixed(65536, vm_off_fixed(131072,
						       leaf(VM_ERASE)))));
	c = only_cell(&res);
	ck_assert_uint_eq(r->n, 1);
	ck_assert_int_eq(r->log[0].op, REC_DISCARD);
	ck_assert_uint_eq(r->log[0].off, 131072);
	ck_assert_uint_eq(r->log[0].len, 65536);
	ck_assert_double_eq(c->value, REC_DISCARD_NS);
	ck_assert_str_eq(c->text, "500ns");
	run_done(&res);
	dev_close(&r->dev);
}
END_TEST

START_TEST(test_length_leaf)
{
	struct rec_dev *r = rec_open(1 << 20);
	struct run res;
	const struct vm_cell *c;

	run_prog(&res, &r->dev, cell(vm_len_fixed(3 << 19, leaf(VM_LENGTH))));
	c = only_cell(&res);
	ck_assert_int_eq(c->unit, VM_UNIT_BYTES);
	ck_assert_double_eq(c->value, 3 << 19);
	ck_assert_str_eq(c->text, "1.5MiB");
	ck_assert_str_eq(res.out, "1.5MiB  ");
	ck_assert_uint_eq(r->dev.io_count, 0);
	run_done(&res);
	dev_close(&r->dev);
}
END_TEST

/* ---- offset series ---- */

START_TEST(test_off_lin)
{
	struct rec_dev *r = rec_open(1 << 24);
	struct run res;
	size_t i;

	run_prog(&res, &r->dev,
		 vm_unary(VM_DROP,
			  vm_len_fixed(1024,
				       vm_off_series(VM_OFF_LIN, 4096, 65536, 5,
						     leaf(VM_READ)))));
	ck_assert_int_eq(res.ret, 0);
	ck_assert_uint_eq(r->n, 5);
	for (i = 0; i < 5; i++)
		ck_assert_uint_eq(r->log[i].off, 4096 + i * 65536);
	run_done(&res);
	dev_close(&r->dev);
}
END_TEST

START_TEST(test_nested_offsets_add)
{
	struct rec_dev *r = rec_open(1 << 26);
	struct run res;
	size_t i, j;

	/* fixed 1M + AU series (3 x 4M) + chunk series (4 x current len) */
	run_prog(&res, &r->dev,
		 vm_unary(VM_DROP,
			  vm_off_fixed(1 << 20,
				       vm_len_fixed(8192,
						    vm_off_series(VM_OFF_LIN, 0, 4 << 20, 3,
								  vm_off_series(VM_OFF_LIN, 512,
										VM_CUR_LEN, 4,
										leaf(VM_WRITE_ZERO)))))));
	ck_assert_int_eq(res.ret, 0);
	ck_assert_uint_eq(r->n, 12);
	for (i = 0; i < 3; i++)
		for (j = 0; j < 4; j++)
			ck_assert_uint_eq(r->log[i * 4 + j].off,
					  (1 << 20) + i * (4 << 20) + 512 +
					  j * 8192);
	run_done(&res);
	dev_close(&r->dev);
}
END_TEST

START_TEST(test_off_span)
{
	struct rec_dev *r = rec_open(1 << 24);
	struct run res;
	size_t i;

	/* 64K span in 16K steps: 4 writes; 24K span: floor(24/16) = 1 */
	run_prog(&res, &r->dev,
		 vm_unary(VM_DROP,
			  vm_len_fixed(16384,
				       vm_seq(2,
					      vm_off_span(VM_OFF_LIN, 1 << 20, 65536,
							  leaf(VM_WRITE_5A)),
					      vm_off_span(VM_OFF_LIN, 0, 24576,
							  leaf(VM_WRITE_5A))))));
	ck_assert_int_eq(res.ret, 0);
	ck_assert_uint_eq(r->n, 5);
	for (i = 0; i < 4; i++) {
		ck_assert_uint_eq(r->log[i].off, (1 << 20) + i * 16384);
		ck_assert_uint_eq(r->log[i].len, 16384);
	}
	ck_assert_uint_eq(r->log[4].off, 0);
	run_done(&res);
	dev_close(&r->dev);
}
END_TEST

/* Every position of an n-position random series is visited once. */
static void check_rand_covers(uint64_t n)
{
	struct rec_dev *r = rec_open(1ULL << 40);
	unsigned char *seen = calloc(n, 1);
	struct run res;
	uint64_t i;

	ck_assert_ptr_nonnull(seen);
	run_prog(&res, &r->dev,
		 vm_unary(VM_DROP,
			  vm_len_fixed(512,
				       vm_off_series(VM_OFF_RAND, 1024, 4096, n,
						     leaf(VM_READ)))));
	ck_assert_int_eq(res.ret, 0);
	ck_assert_uint_eq(r->n, n);
	for (i = 0; i < n; i++) {
		uint64_t pos = (r->log[i].off - 1024) / 4096;

		ck_assert_uint_ge(r->log[i].off, 1024);
		ck_assert_uint_eq((r->log[i].off - 1024) % 4096, 0);
		ck_assert_uint_lt(pos, n);
		ck_assert_msg(!seen[pos], "position %llu twice (n=%llu)",
			      (unsigned long long)pos, (unsigned long long)n);
		seen[pos] = 1;
	}
	free(seen);
	run_done(&res);
	dev_close(&r->dev);
}

START_TEST(test_off_rand_covers)
{
	static const uint64_t sizes[] = { 1, 2, 3, 7, 12, 64, 100, 257, 1000,
					  4096, 12345 };

	check_rand_covers(sizes[_i]);
}
END_TEST

START_TEST(test_off_rand_span)
{
	struct rec_dev *r = rec_open(1 << 24);
	struct run res;
	unsigned int seen = 0;
	size_t i;

	run_prog(&res, &r->dev,
		 vm_unary(VM_DROP,
			  vm_len_fixed(8192,
				       vm_off_span(VM_OFF_RAND, 0, 16 * 8192,
						   leaf(VM_WRITE_ONES)))));
	ck_assert_int_eq(res.ret, 0);
	ck_assert_uint_eq(r->n, 16);
	for (i = 0; i < 16; i++) {
		ck_assert_uint_eq(r->log[i].off % 8192, 0);
		ck_assert_uint_lt(r->log[i].off / 8192, 16);
		seen |= 1u << (r->log[i].off / 8192);
	}
	ck_assert_uint_eq(seen, 0xffff);
	run_done(&res);
	dev_close(&r->dev);
}
END_TEST

/* ---- length series ---- */

/* Run a length series printing each length; compare the lengths. */
static void check_lengths(enum vm_op op, uint64_t min, uint64_t max,
			  const uint64_t *want, size_t n)
{
	struct rec_dev *r = rec_open(1ULL << 32);
	struct run res;
	size_t i;

	run_prog(&res, &r->dev,
		 vm_len_pow2(op, min, max,
			     vm_seq(3, cell(leaf(VM_LENGTH)),
				    vm_unary(VM_DROP, leaf(VM_READ)),
				    leaf(VM_NEWLINE))));
	ck_assert_msg(res.ret == 0, "%s", res.err);
	ck_assert_uint_eq(res.tab.nrows, n);
	ck_assert_uint_eq(r->n, n);
	for (i = 0; i < n; i++) {
		ck_assert_uint_eq(res.tab.rows[i].ncells, 1);
		ck_assert_double_eq(res.tab.rows[i].cells[0].value,
				    (double)want[i]);
		ck_assert_uint_eq(r->log[i].len, want[i]);
	}
	run_done(&res);
	dev_close(&r->dev);
}

START_TEST(test_len_pow2)
{
	static const uint64_t up[] = { 512, 1024, 2048, 4096 };
	static const uint64_t down[] = { 4096, 2048, 1024, 512 };
	static const uint64_t one[] = { 8192 };
	static const uint64_t twelve_k[] = { 12288, 6144, 3072 };
	static const uint64_t twelve_m[] = {
		12 << 20, 6 << 20, 3 << 20, 3 << 19, 768 << 10, 384 << 10,
		192 << 10, 96 << 10, 48 << 10,
	};
	static const uint64_t up_odd[] = { 1024, 2048, 4096, 8192 };

	check_lengths(VM_LEN_POW2_UP, 512, 4096, up, 4);
	check_lengths(VM_LEN_POW2_DOWN, 512, 4096, down, 4);
	check_lengths(VM_LEN_POW2_DOWN, 8192, 8192, one, 1);
	check_lengths(VM_LEN_POW2_UP, 8192, 8192, one, 1);
	/* 3 * 2^n stops at the smallest multiple of the minimum */
	check_lengths(VM_LEN_POW2_DOWN, 1024, 12288, twelve_k, 3);
	check_lengths(VM_LEN_POW2_DOWN, 16384, 12 << 20, twelve_m, 9);
	/* up stops at the last length that does not exceed the maximum */
	check_lengths(VM_LEN_POW2_UP, 1024, 12288, up_odd, 4);
}
END_TEST

START_TEST(test_len_fixed_nested)
{
	struct rec_dev *r = rec_open(1 << 20);
	struct run res;

	/* the innermost length wins; a fixed length yields its operand */
	run_prog(&res, &r->dev,
		 cell(vm_len_fixed(4096, vm_len_fixed(1024, leaf(VM_LENGTH)))));
	ck_assert_double_eq(only_cell(&res)->value, 1024);
	run_done(&res);
	dev_close(&r->dev);
}
END_TEST

/* ---- repeat and sequence ---- */

START_TEST(test_repeat)
{
	struct rec_dev *r = rec_open(1 << 20);
	struct run res;
	size_t i;

	run_prog(&res, &r->dev,
		 cell(vm_unary(VM_REDUCE_TOTAL,
			       vm_len_fixed(2048,
					    vm_off_fixed(4096,
							 vm_repeat(7, leaf(VM_READ)))))));
	ck_assert_double_eq(only_cell(&res)->value, 7 * REC_READ_NS(2048));
	ck_assert_uint_eq(r->n, 7);
	for (i = 0; i < 7; i++)
		ck_assert_uint_eq(r->log[i].off, 4096);
	run_done(&res);
	dev_close(&r->dev);
}
END_TEST

START_TEST(test_seq_order)
{
	struct rec_dev *r = rec_open(1 << 20);
	struct run res;

	run_prog(&res, &r->dev,
		 vm_len_fixed(512,
			      vm_seq(5, cell(leaf(VM_LENGTH)),
				     vm_unary(VM_DROP, leaf(VM_WRITE_ZERO)),
				     vm_unary(VM_DROP, leaf(VM_READ)),
				     vm_unary(VM_DROP, leaf(VM_ERASE)),
				     leaf(VM_NEWLINE))));
	ck_assert_int_eq(res.ret, 0);
	ck_assert_uint_eq(r->n, 3);
	ck_assert_int_eq(r->log[0].op, REC_WRITE);
	ck_assert_int_eq(r->log[1].op, REC_READ);
	ck_assert_int_eq(r->log[2].op, REC_DISCARD);
	ck_assert_str_eq(res.out, "512B    \n");
	run_done(&res);
	dev_close(&r->dev);
}
END_TEST

/* ---- reduce, bps, format, print, newline, drop ---- */

/* Four writes of 512..4096 bytes. */
static struct vm_node *four_writes(void)
{
	return vm_len_pow2(VM_LEN_POW2_UP, 512, 4096, leaf(VM_WRITE_ZERO));
}

START_TEST(test_reduce)
{
	static const enum vm_op ops[] = {
		VM_REDUCE_MIN, VM_REDUCE_MAX, VM_REDUCE_AVG, VM_REDUCE_TOTAL,
	};
	const uint64_t t[4] = { REC_WRITE_NS(512), REC_WRITE_NS(1024), REC_WRITE_NS(2048),
				REC_WRITE_NS(4096) };
	const uint64_t sum = t[0] + t[1] + t[2] + t[3];
	/* time and bytes of each reduction */
	const double want_ns[4] = { t[0], t[3], (sum + 2) / 4, sum };
	const double want_bytes[4] = { 512, 4096, 7680 / 4, 7680 };
	struct rec_dev *r = rec_open(1 << 20);
	struct run res;
	size_t i;

	/* the time cell and the rate cell of each reduction, one row each */
	for (i = 0; i < 4; i++) {
		run_prog(&res, &r->dev,
			 vm_seq(2, cell(vm_unary(ops[i], four_writes())),
				cell(vm_unary(VM_BPS,
					      vm_unary(ops[i], four_writes())))));
		ck_assert_msg(res.ret == 0, "%s", res.err);
		ck_assert_uint_eq(res.tab.nrows, 1);
		ck_assert_uint_eq(res.tab.rows[0].ncells, 2);
		ck_assert_int_eq(res.tab.rows[0].cells[0].unit, VM_UNIT_NS);
		ck_assert_double_eq(res.tab.rows[0].cells[0].value,
				    want_ns[i]);
		ck_assert_int_eq(res.tab.rows[0].cells[1].unit, VM_UNIT_BPS);
		ck_assert_double_eq_tol(res.tab.rows[0].cells[1].value,
					want_bytes[i] * 1e9 / want_ns[i],
					1e-6);
		run_done(&res);
	}
	dev_close(&r->dev);
}
END_TEST

START_TEST(test_reduce_nested_lists)
{
	struct rec_dev *r = rec_open(1 << 24);
	struct run res;

	/* a list of lists of samples flattens: 3 x 4 reads */
	run_prog(&res, &r->dev,
		 cell(vm_unary(VM_REDUCE_TOTAL,
			       vm_len_fixed(1024,
					    vm_off_series(VM_OFF_LIN, 0, 1 << 20, 3,
							  vm_repeat(4, leaf(VM_READ)))))));
	ck_assert_double_eq(only_cell(&res)->value, 12 * REC_READ_NS(1024));
	run_done(&res);
	dev_close(&r->dev);
}
END_TEST

START_TEST(test_bps_format)
{
	struct rec_dev *r = rec_open(1 << 24);
	struct run res;
	const struct vm_cell *c;
	char want[FMT_LEN];
	double rate = 65536 * 1e9 / (double)REC_WRITE_NS(65536);

	run_prog(&res, &r->dev,
		 cell(vm_unary(VM_BPS, vm_len_fixed(65536,
						    leaf(VM_WRITE_ZERO)))));
	c = only_cell(&res);
	ck_assert_int_eq(c->unit, VM_UNIT_BPS);
	ck_assert_double_eq_tol(c->value, rate, 1e-6);
	/* 65536 bytes in 133072 ns: 492.5 MB/s */
	ck_assert_str_eq(c->text, "492M/s");
	ck_assert_str_eq(c->text, fmt_rate(want, rate));
	ck_assert_str_eq(res.out, "492M/s  ");
	run_done(&res);
	dev_close(&r->dev);
}
END_TEST

START_TEST(test_print_table)
{
	struct rec_dev *r = rec_open(1 << 24);
	struct run res;
	const char *want =
		"2KiB    6.1\u00b5s  \n"
		"1KiB    4.05\u00b5s \n"
		"512B    3.02\u00b5s \n";
	size_t i;

	/* a classic table: each cell %-7s plus a space, lines end in one */
	run_prog(&res, &r->dev,
		 vm_len_pow2(VM_LEN_POW2_DOWN, 512, 2048,
			     vm_seq(3, cell(leaf(VM_LENGTH)),
				    cell(leaf(VM_WRITE_ONES)),
				    leaf(VM_NEWLINE))));
	ck_assert_int_eq(res.ret, 0);
	ck_assert_str_eq(res.out, want);
	ck_assert_uint_eq(res.tab.nrows, 3);
	for (i = 0; i < 3; i++) {
		const struct vm_row *row = &res.tab.rows[i];
		uint64_t len = 2048 >> i;

		ck_assert_uint_eq(row->ncells, 2);
		ck_assert_double_eq(row->cells[0].value, len);
		ck_assert_int_eq(row->cells[0].unit, VM_UNIT_BYTES);
		ck_assert_double_eq(row->cells[1].value, REC_WRITE_NS(len));
		ck_assert_int_eq(row->cells[1].unit, VM_UNIT_NS);
	}
	run_done(&res);
	dev_close(&r->dev);
}
END_TEST

START_TEST(test_long_cell_and_empty_rows)
{
	struct rec_dev *r = rec_open(1 << 24);
	struct run res;

	/* a cell longer than 7 is not cut; a bare newline is a row */
	run_prog(&res, &r->dev,
		 vm_len_fixed(1536,
			      vm_seq(4, leaf(VM_NEWLINE),
				     cell(vm_unary(VM_BPS, leaf(VM_ERASE))),
				     cell(leaf(VM_LENGTH)),
				     leaf(VM_NEWLINE))));
	ck_assert_int_eq(res.ret, 0);
	/* 1536 bytes in 500 ns: 3.07 GB/s */
	ck_assert_str_eq(res.out, "\n3.07G/s 1.5KiB  \n");
	ck_assert_uint_eq(res.tab.nrows, 2);
	ck_assert_uint_eq(res.tab.rows[0].ncells, 0);
	ck_assert_uint_eq(res.tab.rows[1].ncells, 2);
	run_done(&res);
	dev_close(&r->dev);
}
END_TEST

START_TEST(test_drop)
{
	struct rec_dev *r = rec_open(1 << 24);
	struct run res;

	/* drop runs its operand (I/O, printing) but yields nothing */
	run_prog(&res, &r->dev,
		 vm_unary(VM_DROP,
			  vm_len_fixed(512,
				       vm_seq(2, cell(leaf(VM_LENGTH)),
					      vm_repeat(3, leaf(VM_READ))))));
	ck_assert_int_eq(res.ret, 0);
	ck_assert_uint_eq(r->n, 3);
	ck_assert_str_eq(res.out, "512B    ");
	run_done(&res);
	dev_close(&r->dev);
}
END_TEST

START_TEST(test_no_output_file)
{
	struct rec_dev *r = rec_open(1 << 24);
	struct vm_node *p = vm_len_fixed(512, cell(leaf(VM_READ)));
	struct vm_table tab = { 0 };

	/* out and tab may both be NULL, or only one of them */
	ck_assert_int_eq(vm_run(&r->dev, p, NULL, NULL, NULL, 0), 0);
	ck_assert_int_eq(vm_run(&r->dev, p, NULL, &tab, NULL, 0), 0);
	ck_assert_uint_eq(tab.nrows, 1);
	/* a second run empties the table first */
	ck_assert_int_eq(vm_run(&r->dev, p, NULL, &tab, NULL, 0), 0);
	ck_assert_uint_eq(tab.nrows, 1);
	ck_assert_uint_eq(tab.ncells, 1);
	ck_assert_uint_eq(r->n, 3);
	vm_table_free(&tab);
	vm_free(p);
	dev_close(&r->dev);
}
END_TEST

/* ---- errors at run time ---- */

START_TEST(test_io_error_stops)
{
	struct rec_dev *r = rec_open(1 << 24);
	struct run res;

	r->fail_at = 3;
	r->fail_err = EIO;
	run_prog(&res, &r->dev,
		 vm_len_fixed(4096,
			      vm_off_series(VM_OFF_LIN, 0, 4096, 10,
					    cell(leaf(VM_WRITE_ZERO)))));
	ck_assert_int_eq(res.ret, -EIO);
	ck_assert_uint_eq(r->n, 3);	/* nothing after the failure */
	ck_assert_str_eq(r->dev.last_error.op, "write");
	ck_assert_uint_eq(r->dev.last_error.off_byte, 8192);
	ck_assert_uint_eq(r->dev.last_error.len_byte, 4096);
	ck_assert_int_eq(r->dev.last_error.err, EIO);
	ck_assert_ptr_nonnull(strstr(res.err, "8192"));
	/* the two cells before it were printed and recorded */
	ck_assert_uint_eq(res.tab.ncells, 2);
	run_done(&res);
	dev_close(&r->dev);
}
END_TEST

START_TEST(test_past_end)
{
	struct rec_dev *r = rec_open(1 << 20);
	struct run res;

	run_prog(&res, &r->dev,
		 vm_unary(VM_DROP,
			  vm_len_fixed(4096,
				       vm_off_fixed((1 << 20) - 2048,
						    leaf(VM_READ)))));
	ck_assert_int_eq(res.ret, -EINVAL);
	ck_assert_uint_eq(r->dev.io_count, 0);
	ck_assert_ptr_nonnull(strstr(res.err, "past the end"));
	run_done(&res);

	run_prog(&res, &r->dev,
		 vm_unary(VM_DROP,
			  vm_len_fixed(4096,
				       vm_off_fixed(UINT64_MAX - 1023,
						    leaf(VM_READ)))));
	ck_assert_int_eq(res.ret, -EINVAL);
	run_done(&res);

	/* offsets that overflow while adding up */
	run_prog(&res, &r->dev,
		 vm_unary(VM_DROP,
			  vm_len_fixed(512,
				       vm_off_fixed(UINT64_MAX - 511,
						    vm_off_series(VM_OFF_LIN, 0, UINT64_MAX / 2, 3,
								  leaf(VM_READ))))));
	ck_assert_int_eq(res.ret, -EINVAL);
	ck_assert_uint_eq(r->dev.io_count, 0);
	run_done(&res);
	dev_close(&r->dev);
}
END_TEST

START_TEST(test_misaligned)
{
	struct rec_dev *r = rec_open(1 << 20);
	struct run res;

	run_prog(&res, &r->dev,
		 vm_unary(VM_DROP, vm_len_fixed(4096,
						vm_off_fixed(100,
							     leaf(VM_READ)))));
	ck_assert_int_eq(res.ret, -EINVAL);
	ck_assert_ptr_nonnull(strstr(res.err, "aligned"));
	run_done(&res);
	run_prog(&res, &r->dev,
		 vm_unary(VM_DROP, vm_len_fixed(1000, leaf(VM_WRITE_ZERO))));
	ck_assert_int_eq(res.ret, -EINVAL);
	ck_assert_uint_eq(r->dev.io_count, 0);
	run_done(&res);
	dev_close(&r->dev);
}
END_TEST

START_TEST(test_span_shorter_than_length)
{
	struct rec_dev *r = rec_open(1 << 24);
	struct run res;

	/* decided at run time: span 8K at lengths 4K, 8K, 16K */
	run_prog(&res, &r->dev,
		 vm_len_pow2(VM_LEN_POW2_UP, 4096, 16384,
			     vm_seq(2, cell(vm_unary(VM_REDUCE_MIN,
						     vm_off_span(VM_OFF_LIN, 0, 8192,
								 leaf(VM_READ)))),
				    leaf(VM_NEWLINE))));
	ck_assert_int_eq(res.ret, -EINVAL);
	ck_assert_ptr_nonnull(strstr(res.err, "empty series"));
	ck_assert_uint_eq(r->n, 3);
	ck_assert_uint_eq(res.tab.nrows, 2);
	run_done(&res);
	dev_close(&r->dev);
}
END_TEST

START_TEST(test_table_too_small)
{
	struct rec_dev *r = rec_open(1 << 24);
	struct run res;
	struct vm_node *p;
	FILE *f;

	memset(&res, 0, sizeof(res));
	res.tab.max_cells = 2;
	p = vm_len_fixed(512, vm_repeat(3, cell(leaf(VM_LENGTH))));
	f = open_memstream(&res.out, &res.out_len);
	res.ret = vm_run(&r->dev, p, f, &res.tab, res.err, sizeof(res.err));
	fclose(f);
	ck_assert_int_eq(res.ret, -ENOSPC);
	ck_assert_ptr_nonnull(strstr(res.err, "too small"));
	ck_assert_uint_eq(res.tab.ncells, 2);
	ck_assert_uint_eq(res.tab.max_cells, 2);
	vm_free(p);
	run_done(&res);
	dev_close(&r->dev);
}
END_TEST

/* ---- malformed programs ---- */

/* A program that must be refused with -EINVAL before any I/O. */
static void check_refused(struct vm_node *prog, const char *why)
{
	struct rec_dev *r = rec_open(1 << 24);
	struct run res;
	char err[256] = "";

	ck_assert_int_eq(vm_check(prog, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, why), "check said '%s', want '%s'", err,
		      why);
	run_prog(&res, &r->dev, prog);
	ck_assert_int_eq(res.ret, -EINVAL);
	ck_assert_msg(strstr(res.err, why), "run said '%s', want '%s'",
		      res.err, why);
	ck_assert_uint_eq(r->dev.io_count, 0);
	ck_assert_uint_eq(res.out_len, 0);
	ck_assert_uint_eq(res.tab.nrows, 0);
	run_done(&res);
	dev_close(&r->dev);
}

START_TEST(test_bad_nesting)
{
	struct vm_node *n;

	check_refused(NULL, "empty program");
	check_refused(vm_unary(VM_PRINT, NULL), "print: missing operand");
	check_refused(vm_len_fixed(512, vm_seq(3, leaf(VM_NEWLINE),
					       (struct vm_node *)NULL,
					       leaf(VM_NEWLINE))),
		      "seq: missing operand 2");
	check_refused(vm_seq(0), "seq without operands");
	check_refused(vm_len_fixed(512, vm_unary(VM_READ, leaf(VM_READ))),
		      "read takes no operand");
	check_refused(leaf(VM_DROP), "drop takes one operand, has 0");
	check_refused(leaf(VM_OFF_FIXED), "off_fixed takes one operand");
	check_refused(vm_unary(VM_DROP, leaf(VM_READ)),
		      "read outside a length series");
	check_refused(cell(leaf(VM_LENGTH)), "length outside a length series");
	check_refused(vm_unary(VM_DROP,
			       vm_off_span(VM_OFF_LIN, 0, 4096,
					   leaf(VM_NEWLINE))),
		      "current length outside a length series");
	check_refused(vm_unary(VM_DROP,
			       vm_off_series(VM_OFF_RAND, 0, VM_CUR_LEN, 4,
					     leaf(VM_NEWLINE))),
		      "current length outside a length series");
	n = leaf(VM_NEWLINE);
	n->op = (enum vm_op)99;
	check_refused(n, "unknown operation 99");
	/* a seq whose operand array is missing */
	n = leaf(VM_SEQ);
	n->nkids = 2;
	check_refused(n, "seq: missing operand");
}
END_TEST

START_TEST(test_cycle)
{
	struct vm_node *n = vm_unary(VM_DROP, NULL);
	char err[128];

	n->kids[0] = n;		/* a tree that is not a tree */
	ck_assert_int_eq(vm_check(n, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "deeper"));
	n->kids[0] = NULL;
	vm_free(n);
}
END_TEST

START_TEST(test_type_mismatch)
{
	/* print wants a cell */
	check_refused(vm_len_fixed(512, vm_unary(VM_PRINT, leaf(VM_LENGTH))),
		      "print wants a cell, its operand yields number");
	/* bps wants a sample, not a list */
	check_refused(vm_len_fixed(512, cell(vm_unary(VM_BPS,
						      vm_repeat(2, leaf(VM_READ))))),
		      "bps wants a sample, its operand yields list of sample");
	/* reduce wants a list of samples */
	check_refused(vm_len_fixed(512, cell(vm_unary(VM_REDUCE_MIN,
						      leaf(VM_READ)))),
		      "reduce_min wants a list of samples, its operand yields sample");
	check_refused(vm_len_fixed(512, cell(vm_unary(VM_REDUCE_AVG,
						      vm_repeat(2, leaf(VM_LENGTH))))),
		      "yields list of number");
	check_refused(vm_len_fixed(512, cell(vm_unary(VM_REDUCE_TOTAL,
						      leaf(VM_NEWLINE)))),
		      "yields nothing");
	/* format wants a number or a sample */
	check_refused(vm_len_fixed(512, vm_unary(VM_PRINT,
						 vm_unary(VM_FORMAT,
							  cell(leaf(VM_LENGTH))))),
		      "format wants a number or a sample, its operand yields nothing");
	check_refused(vm_len_fixed(512, cell(vm_unary(VM_FORMAT,
						      leaf(VM_LENGTH)))),
		      "format wants a number or a sample, its operand yields cell");
	check_refused(vm_len_fixed(512, cell(vm_unary(VM_FORMAT,
						      vm_repeat(2, leaf(VM_READ))))),
		      "format wants a number or a sample, its operand yields list of cell");
	/* diff wants one list of samples */
	check_refused(vm_len_fixed(512, cell(vm_unary(VM_DIFF,
						      leaf(VM_READ)))),
		      "diff wants a list of samples, its operand yields sample");
	check_refused(vm_len_fixed(512, cell(vm_unary(VM_DIFF,
						      vm_repeat(2, vm_repeat(3, leaf(VM_READ)))))),
		      "diff wants a list of samples, its operand yields list of list of sample");
	/* a sequence of samples and numbers */
	check_refused(vm_len_fixed(512, vm_unary(VM_DROP,
						 vm_seq(2, leaf(VM_READ),
							leaf(VM_LENGTH)))),
		      "seq mixes sample and number");
}
END_TEST

START_TEST(test_empty_series)
{
	check_refused(vm_len_fixed(512,
				   vm_unary(VM_DROP,
					    vm_off_series(VM_OFF_LIN, 0, 512, 0,
							  leaf(VM_READ)))),
		      "off_lin: empty series");
	check_refused(vm_len_fixed(512,
				   vm_unary(VM_DROP,
					    vm_off_series(VM_OFF_RAND, 0, 512, 0,
							  leaf(VM_READ)))),
		      "off_rand: empty series");
	check_refused(vm_len_fixed(512, vm_unary(VM_DROP,
						 vm_repeat(0, leaf(VM_READ)))),
		      "repeat: empty series");
	check_refused(vm_len_fixed(0, vm_unary(VM_DROP, leaf(VM_READ))),
		      "len_fixed: zero length");
	check_refused(vm_len_pow2(VM_LEN_POW2_UP, 0, 4096,
				  vm_unary(VM_DROP, leaf(VM_READ))),
		      "len_pow2_up: empty series");
	check_refused(vm_len_pow2(VM_LEN_POW2_DOWN, 4096, 2048,
				  vm_unary(VM_DROP, leaf(VM_READ))),
		      "len_pow2_down: empty series");
	/* the largest length must be a multiple of the smallest */
	check_refused(vm_len_pow2(VM_LEN_POW2_DOWN, 1024, 1536,
				  vm_unary(VM_DROP, leaf(VM_READ))),
		      "len_pow2_down: empty series");
}
END_TEST

START_TEST(test_constructor_null_operand)
{
	struct vm_node *kids[2];

	/* every constructor accepts NULL and check reports it */
	check_refused(vm_off_fixed(0, NULL), "off_fixed: missing operand");
	check_refused(vm_len_fixed(512, NULL), "len_fixed: missing operand");
	check_refused(vm_repeat(2, NULL), "repeat: missing operand");
	check_refused(vm_len_pow2(VM_LEN_POW2_UP, 512, 1024, NULL),
		      "len_pow2_up: missing operand");
	check_refused(vm_len_fixed(512, vm_off_span(VM_OFF_LIN, 0, 512, NULL)),
		      "off_lin: missing operand");
	kids[0] = leaf(VM_NEWLINE);
	kids[1] = NULL;
	check_refused(vm_seqv(2, kids), "seq: missing operand 2");
}
END_TEST

/* ---- numbers, lists of cells, differences, per-position minima ---- */

/* number is a label; format and print take a list item by item. */
START_TEST(test_number_and_list_cells)
{
	struct rec_dev *r = rec_open(1 << 20);
	struct run res;
	const struct vm_row *row;
	size_t i;

	run_prog(&res, &r->dev,
		 vm_len_fixed(512,
			      vm_seq(3, cell(vm_number(12345)),
				     cell(vm_repeat(3, leaf(VM_READ))),
				     leaf(VM_NEWLINE))));
	ck_assert_msg(res.ret == 0, "%s", res.err);
	ck_assert_uint_eq(res.tab.nrows, 1);
	row = &res.tab.rows[0];
	ck_assert_uint_eq(row->ncells, 4);
	ck_assert_int_eq(row->cells[0].unit, VM_UNIT_BYTES);
	ck_assert_double_eq(row->cells[0].value, 12345);
	for (i = 1; i < 4; i++) {
		ck_assert_int_eq(row->cells[i].unit, VM_UNIT_NS);
		ck_assert_double_eq(row->cells[i].value, REC_READ_NS(512));
	}
	ck_assert_uint_eq(r->n, 3);
	run_done(&res);
	dev_close(&r->dev);
}
END_TEST

/* diff: the three times, then on - (before + after) / 2. */
START_TEST(test_diff)
{
	static const uint64_t lens[3][3] = {
		{ 512, 4096, 1024 },	/* a step up: 5096 - 1768 */
		{ 4096, 512, 1536 },	/* below its neighbours: < 0 */
		{ 1024, 1024, 1024 },	/* flat: 0 */
	};
	const uint64_t *l = lens[_i];
	struct rec_dev *r = rec_open(1 << 20);
	int64_t t[3], want;
	struct run res;
	const struct vm_row *row;
	size_t i;

	run_prog(&res, &r->dev,
		 vm_seq(2, cell(vm_unary(VM_DIFF,
					 vm_seq(3, vm_len_fixed(l[0], leaf(VM_READ)),
						vm_len_fixed(l[1], leaf(VM_READ)),
						vm_len_fixed(l[2], leaf(VM_READ))))),
			leaf(VM_NEWLINE)));
	ck_assert_msg(res.ret == 0, "%s", res.err);
	row = &res.tab.rows[0];
	ck_assert_uint_eq(row->ncells, 4);
	for (i = 0; i < 3; i++) {
		t[i] = (int64_t)REC_READ_NS(l[i]);
		ck_assert_double_eq(row->cells[i].value, (double)t[i]);
	}
	want = t[1] - (t[0] + t[2]) / 2;
	ck_assert_double_eq(row->cells[3].value, (double)want);
	ck_assert_int_eq(row->cells[3].unit, VM_UNIT_NS);
	ck_assert_int_eq(_i == 0 ? want > 0 : _i == 1 ? want < 0 : want == 0,
			 1);
	run_done(&res);
	dev_close(&r->dev);
}
END_TEST

/* diff of anything but three samples stops the run. */
START_TEST(test_diff_wants_three)
{
	struct rec_dev *r = rec_open(1 << 20);
	struct run res;

	run_prog(&res, &r->dev,
		 vm_len_fixed(512, cell(vm_unary(VM_DIFF,
						 vm_repeat(2, leaf(VM_READ))))));
	ck_assert_int_eq(res.ret, -EINVAL);
	ck_assert_ptr_nonnull(strstr(res.err, "diff wants three samples, has 2"));
	ck_assert_uint_eq(res.tab.ncells, 0);
	run_done(&res);
	dev_close(&r->dev);
}
END_TEST

/* A keyed random series visits in the order vm_shuffle(i, n, key). */
START_TEST(test_off_keyed_order)
{
	struct rec_dev *r = rec_open(1 << 20);
	struct vm_node *round;
	struct run res;
	uint64_t i;

	/* the same order at another offset and length: the key alone */
	run_prog(&res, &r->dev,
		 vm_seq(2, vm_len_fixed(512,
					vm_off_keyed(0, 512, 10, 7,
						     vm_unary(VM_DROP,
							      leaf(VM_READ)))),
			vm_len_fixed(1024,
				     vm_off_fixed(8192,
						  vm_off_keyed(0, 1024, 10, 7,
							       vm_unary(VM_DROP,
									leaf(VM_READ)))))));
	ck_assert_msg(res.ret == 0, "%s", res.err);
	ck_assert_uint_eq(r->n, 20);
	for (i = 0; i < 10; i++) {
		ck_assert_uint_eq(r->log[i].off, vm_shuffle(i, 10, 7) * 512);
		ck_assert_uint_eq(r->log[10 + i].off,
				  8192 + vm_shuffle(i, 10, 7) * 1024);
	}
	run_done(&res);
	/* in a repeat, round r uses key + r */
	r->n = 0;
	round = vm_off_keyed(0, 512, 10, 7, vm_unary(VM_DROP, leaf(VM_READ)));
	run_prog(&res, &r->dev, vm_len_fixed(512, vm_repeat(3, round)));
	ck_assert_msg(res.ret == 0, "%s", res.err);
	ck_assert_uint_eq(r->n, 30);
	for (i = 0; i < 30; i++)
		ck_assert_uint_eq(r->log[i].off,
				  vm_shuffle(i % 10, 10, 7 + i / 10) * 512);
	run_done(&res);
	dev_close(&r->dev);
}
END_TEST

/* rounds rounds over n positions of len bytes, round r in the order
 * vm_shuffle(i, n, r). */
static struct vm_node *rounds_prog(unsigned int rounds, uint64_t n,
				   uint64_t len)
{
	struct vm_node *round = vm_off_keyed(0, len, n, 0,
					     vm_unary(VM_DROP, leaf(VM_READ)));

	return vm_len_fixed(len, vm_unary(VM_MIN_POS,
					  vm_repeat(rounds, round)));
}

/*
 * min_pos on a noisy simulated card: the least time of each position,
 * in offset order, exactly what the same reads made by hand give on an
 * identical card.
 */
START_TEST(test_min_pos_on_sim_card)
{
	static const char spec[] = "size=64M,erase=4M,noise=3,seed=11";
	struct device *dev = sim_card(spec), *ref = sim_card(spec);
	const uint64_t n = 64, len = 16384;
	uint64_t best[64], t, i;
	void *buf = dev_alloc_buf(len);
	struct run res;
	unsigned int k;
	int differ = 0;

	ck_assert_ptr_nonnull(buf);
	for (i = 0; i < n; i++)
		best[i] = UINT64_MAX;
	for (k = 0; k < 4; k++)
		for (i = 0; i < n; i++) {
			uint64_t pos = vm_shuffle(i, n, k);

			ck_assert_int_eq(dev_read(ref, buf, len,
						  (off_t)(pos * len), &t), 0);
			differ |= best[pos] != UINT64_MAX && t != best[pos];
			if (t < best[pos])
				best[pos] = t;
		}
	ck_assert_msg(differ, "the card's noise shows no different times");
	run_prog(&res, dev, rounds_prog(4, n, len));
	ck_assert_msg(res.ret == 0, "%s", res.err);
	ck_assert_uint_eq(dev->io_count, 4 * n);
	ck_assert_uint_eq(res.tab.nrows, n);
	for (i = 0; i < n; i++) {
		const struct vm_row *row = &res.tab.rows[i];

		ck_assert_uint_eq(row->ncells, 2);
		ck_assert_int_eq(row->cells[0].unit, VM_UNIT_BYTES);
		ck_assert_double_eq(row->cells[0].value, (double)(i * len));
		ck_assert_int_eq(row->cells[1].unit, VM_UNIT_NS);
		ck_assert_double_eq(row->cells[1].value, (double)best[i]);
	}
	ck_assert_uint_eq(dev_now_ns(dev), dev_now_ns(ref));
	dev_free_buf(buf);
	run_done(&res);
	dev_close(dev);
	dev_close(ref);
}
END_TEST

/*
 * A failure in the second round: the positions read before it are still
 * emitted, in offset order, and the error is passed on.
 */
START_TEST(test_min_pos_cut_short)
{
	static const uint64_t fail_at[] = { 1, 3, 6 };
	struct rec_dev *r = rec_open(1 << 20);
	uint64_t done = fail_at[_i] - 1, want_rows, i;
	struct run res;

	r->fail_at = fail_at[_i];
	r->fail_err = EIO;
	run_prog(&res, &r->dev, rounds_prog(2, 4, 512));
	ck_assert_int_eq(res.ret, -EIO);
	ck_assert_uint_eq(r->n, fail_at[_i]);
	want_rows = done < 4 ? done : 4;
	ck_assert_uint_eq(res.tab.nrows, want_rows);
	for (i = 0; i < want_rows; i++) {
		uint64_t off = (uint64_t)res.tab.rows[i].cells[0].value;
		size_t k;
		int read = 0;

		for (k = 0; k < done; k++)
			read |= r->log[k].off == off;
		ck_assert_msg(read, "offset %" PRIu64 " was not read", off);
		ck_assert(!i || res.tab.rows[i - 1].cells[0].value < off);
		ck_assert_double_eq(res.tab.rows[i].cells[1].value,
				    REC_READ_NS(512));
	}
	run_done(&res);
	dev_close(&r->dev);
}
END_TEST

START_TEST(test_min_pos_nested)
{
	check_refused(vm_len_fixed(512,
				   vm_unary(VM_MIN_POS,
					    vm_unary(VM_MIN_POS,
						     leaf(VM_READ)))),
		      "min_pos inside min_pos");
}
END_TEST

/* ---- the program printer ---- */

START_TEST(test_print_prog)
{
	struct vm_node *p;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	p = vm_off_fixed(16 << 20,
			 vm_len_pow2(VM_LEN_POW2_DOWN, 512, 2048,
				     vm_seq(2, cell(leaf(VM_LENGTH)),
					    vm_repeat(3,
						      vm_off_span(VM_OFF_RAND, 0, 4096,
								  leaf(VM_WRITE_5A))))));
	vm_print_prog(f, p);
	vm_print_prog(f, NULL);
	fclose(f);
	ck_assert_str_eq(buf,
			 "off_fixed off=16777216\n"
			 "  len_pow2_down min=512 max=2048\n"
			 "    seq\n"
			 "      print\n"
			 "        format\n"
			 "          length\n"
			 "      repeat count=3\n"
			 "        off_rand off=0 stride=length count=span/length span=4096\n"
			 "          write_5a\n"
			 "(missing)\n");
	free(buf);
	vm_free(p);
	ck_assert_str_eq(vm_op_name(VM_REDUCE_AVG), "reduce_avg");
	ck_assert_str_eq(vm_op_name((enum vm_op)-1), "?");
}
END_TEST

/* ---- on the simulated card ---- */

START_TEST(test_on_sim_card)
{
	struct device *dev = sim_card("size=64M,erase=4M,noise=0,fat=0");
	struct run res;
	uint64_t t0 = dev_now_ns(dev);
	double sum = 0;
	size_t i;

	/* 3 sizes x (1 + 2 + 4) reads over 8K; the sum of the times is
	 * exactly the time the card's clock moved */
	run_prog(&res, dev,
		 vm_len_pow2(VM_LEN_POW2_DOWN, 2048, 8192,
			     vm_seq(3, cell(leaf(VM_LENGTH)),
				    cell(vm_unary(VM_REDUCE_TOTAL,
						  vm_off_span(VM_OFF_LIN, 1 << 20, 8192,
							      leaf(VM_READ)))),
				    leaf(VM_NEWLINE))));
	ck_assert_msg(res.ret == 0, "%s", res.err);
	ck_assert_uint_eq(dev->io_count, 7);
	ck_assert_uint_eq(res.tab.nrows, 3);
	for (i = 0; i < 3; i++)
		sum += res.tab.rows[i].cells[1].value;
	ck_assert_double_eq(sum, (double)(dev_now_ns(dev) - t0));
	run_done(&res);
	dev_close(dev);
}
END_TEST

/* vm_shuffle is a permutation of [0, n) for powers of two and others. */
START_TEST(test_shuffle_covers)
{
	const uint64_t n = _i <= 20 ? 1ULL << _i : 3 * (1ULL << (_i - 20)) + 7;
	unsigned char *seen = calloc(n, 1);
	uint64_t i, moved = 0, outside = 0, twice = 0;

	ck_assert_ptr_nonnull(seen);
	/* plain counting: a Check assertion per element costs too much */
	for (i = 0; i < n; i++) {
		uint64_t p = vm_shuffle(i, n, 42);

		if (p >= n) {
			outside++;
			continue;
		}
		twice += seen[p];
		seen[p] = 1;
		moved += p != i;
	}
	ck_assert_uint_eq(outside, 0);
	ck_assert_uint_eq(twice, 0);
	/* and it does move things: at most a few fixed points */
	if (n >= 16)
		ck_assert_uint_gt(moved, n / 2);
	free(seen);
}
END_TEST

Suite *vm_suite(void)
{
	Suite *s = suite_create("vm");
	TCase *tc = tcase_create("ops");
	TCase *te = tcase_create("errors");

	tcase_add_test(tc, test_read_leaf);
	tcase_add_loop_test(tc, test_write_leaves, 0,
			    sizeof(write_leaves) / sizeof(write_leaves[0]));
	tcase_add_test(tc, test_erase_leaf);
	tcase_add_test(tc, test_length_leaf);
	tcase_add_test(tc, test_off_lin);
	tcase_add_test(tc, test_nested_offsets_add);
	tcase_add_test(tc, test_off_span);
	tcase_add_loop_test(tc, test_off_rand_covers, 0, 11);
	tcase_add_test(tc, test_off_rand_span);
	tcase_add_test(tc, test_len_pow2);
	tcase_add_test(tc, test_len_fixed_nested);
	tcase_add_test(tc, test_repeat);
	tcase_add_test(tc, test_seq_order);
	tcase_add_test(tc, test_reduce);
	tcase_add_test(tc, test_reduce_nested_lists);
	tcase_add_test(tc, test_bps_format);
	tcase_add_test(tc, test_print_table);
	tcase_add_test(tc, test_long_cell_and_empty_rows);
	tcase_add_test(tc, test_drop);
	tcase_add_test(tc, test_no_output_file);
	tcase_add_test(tc, test_number_and_list_cells);
	tcase_add_loop_test(tc, test_diff, 0, 3);
	tcase_add_test(tc, test_off_keyed_order);
	tcase_add_test(tc, test_min_pos_on_sim_card);
	tcase_add_loop_test(tc, test_min_pos_cut_short, 0, 3);
	tcase_add_test(tc, test_print_prog);
	tcase_add_test(tc, test_on_sim_card);
	tcase_add_loop_test(tc, test_shuffle_covers, 0, 26);
	suite_add_tcase(s, tc);

	tcase_add_test(te, test_io_error_stops);
	tcase_add_test(te, test_past_end);
	tcase_add_test(te, test_misaligned);
	tcase_add_test(te, test_span_shorter_than_length);
	tcase_add_test(te, test_table_too_small);
	tcase_add_test(te, test_bad_nesting);
	tcase_add_test(te, test_cycle);
	tcase_add_test(te, test_type_mismatch);
	tcase_add_test(te, test_empty_series);
	tcase_add_test(te, test_constructor_null_operand);
	tcase_add_test(te, test_diff_wants_three);
	tcase_add_test(te, test_min_pos_nested);
	suite_add_tcase(s, te);
	return s;
}
