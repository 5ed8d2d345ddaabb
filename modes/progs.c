// SPDX-License-Identifier: GPL-2.0-only
/*
 * The writing tests (-O, -f, -p) as VM programs, and the byte ranges each
 * of them overwrites.
 *
 * Access sizes run from the erase size down to the block size, halving.
 * An erase size of 3 * 2^n (12 MiB, 24 MiB on SDXC cards) halves to
 * 6M, 3M, 1.5M ...; the series stops at the smallest size that is still
 * a multiple of the block size (12M with 16K blocks ends at 48K), so that
 * every access stays aligned to the block size.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "vm.h"

/* The open-AU test uses every 12th AU, far enough apart that no card
 * treats them as one larger unit. */
#define PROGS_AU_SPACING 12

/* The program test: 16 MiB into the device, inside one 4 MiB region,
 * sizes 2 MiB down to 512 bytes. */
#define PROGS_P_OFF (16ULL << 20)
#define PROGS_P_SPAN (4ULL << 20)
#define PROGS_P_MAX (2ULL << 20)
#define PROGS_P_MIN 512ULL

/* Check the options a writing test depends on.  Returns 0 or -EINVAL. */
static int progs_check_opts(unsigned int test, const struct bench_opts *o)
{
	uint64_t bs = o->blocksize_byte, es = o->erasesize_byte;

	if (test == BENCH_PROGRAM)
		return 0;
	if (test != BENCH_OPEN_AU && test != BENCH_FIND_FAT)
		return -EINVAL;
	if (bs < 512 || (bs & (bs - 1)) || es < 2 * bs || es % bs)
		return -EINVAL;
	if (test == BENCH_OPEN_AU && !o->open_au_nr)
		return -EINVAL;
	if (test == BENCH_FIND_FAT && !o->fat_nr)
		return -EINVAL;
	return 0;
}

/*
 * All ranges of a test, sorted and merged, into a malloc'd array.
 * Returns how many, or -EINVAL (bad options, overflow) / -ENOMEM.
 */
static int progs_ranges(unsigned int test, const struct bench_opts *o,
			struct bench_range **out)
{
	uint64_t es = o->erasesize_byte, step, start, end;
	struct bench_range *r;
	size_t n = 0, i;
	int ret = progs_check_opts(test, o);

	*out = NULL;
	if (ret)
		return ret;
	if (test == BENCH_OPEN_AU) {
		if (o->open_au_nr > INT32_MAX)
			return -EINVAL;
		r = calloc(o->open_au_nr, sizeof(*r));
		if (!r)
			return -ENOMEM;
		if (__builtin_mul_overflow(es, PROGS_AU_SPACING, &step))
			goto out_inval;
		/* ascending offsets and step > es: already sorted, disjoint */
		for (i = 0; i < o->open_au_nr; i++) {
			if (__builtin_mul_overflow(step, i, &start) ||
			    __builtin_add_overflow(start, o->offset_byte,
						   &start) ||
			    __builtin_add_overflow(start, es, &end))
				goto out_inval;
			r[n++] = (struct bench_range){ start, end };
		}
	} else {
		r = calloc(1, sizeof(*r));
		if (!r)
			return -ENOMEM;
		if (test == BENCH_FIND_FAT) {
			if (__builtin_mul_overflow(es, (uint64_t)o->fat_nr,
						   &end))
				goto out_inval;
			r[n++] = (struct bench_range){ 0, end };
		} else {
			r[n++] = (struct bench_range){
				PROGS_P_OFF, PROGS_P_OFF + PROGS_P_SPAN };
		}
	}
	*out = r;
	return (int)n;

out_inval:
	free(r);
	return -EINVAL;
}

/*
 * Fill ranges (when non-NULL) with the ranges a writing test overwrites.
 * Beyond bench.h's contract: with ranges NULL it only counts them, and it
 * returns -ENOSPC rather than a silently shortened list when max is too
 * small, because the list is what the user is warned about.
 */
int bench_write_ranges(enum bench_test test, const struct bench_opts *o,
		       uint64_t dev_size, struct bench_range *ranges,
		       size_t max)
{
	struct bench_range *r;
	int n = progs_ranges(test, o, &r);

	if (n < 0)
		return n;
	if (r[n - 1].end_byte > dev_size) {
		n = -EINVAL;
		goto out_free;
	}
	if (ranges) {
		if ((size_t)n > max) {
			n = -ENOSPC;
			goto out_free;
		}
		memcpy(ranges, r, n * sizeof(*r));
	}
out_free:
	free(r);
	return n;
}

/* print(format(n)): one table cell. */
static struct vm_node *cell(struct vm_node *n)
{
	return vm_unary(VM_PRINT, vm_unary(VM_FORMAT, n));
}

/* The throughput cell of a list of samples: total bytes / total time. */
static struct vm_node *rate_cell(struct vm_node *samples)
{
	return cell(vm_unary(VM_BPS, vm_unary(VM_REDUCE_TOTAL, samples)));
}

/*
 * -O: for each size, walk the chunk positions of an AU and at each
 * position write that chunk into every one of the AUs in turn, in a
 * pseudo-random AU order.  A card that keeps all of them open writes at
 * full speed; one AU more and it must garbage-collect at every turn.
 */
static struct vm_node *prog_open_au(const struct bench_opts *o)
{
	uint64_t es = o->erasesize_byte;
	struct vm_node *aus, *chunks;

	aus = vm_off_series(VM_OFF_RAND, o->offset_byte,
			    PROGS_AU_SPACING * es, o->open_au_nr,
			    vm_leaf(VM_WRITE_RAND));
	chunks = vm_off_span(o->random ? VM_OFF_RAND : VM_OFF_LIN, 0, es,
			     aus);
	return vm_len_pow2(VM_LEN_POW2_DOWN, o->blocksize_byte, es,
			   vm_seq(3, cell(vm_leaf(VM_LENGTH)),
				  rate_cell(chunks), vm_leaf(VM_NEWLINE)));
}

/*
 * -f: for each size, write each of the first AUs completely and report
 * its throughput, one column per AU.  FAT-optimised AUs stand out.
 */
static struct vm_node *prog_find_fat(const struct bench_opts *o)
{
	uint64_t es = o->erasesize_byte;
	struct vm_node *au, *aus;

	au = vm_off_span(o->random ? VM_OFF_RAND : VM_OFF_LIN, 0, es,
			 vm_leaf(VM_WRITE_RAND));
	aus = vm_off_series(VM_OFF_LIN, 0, es, o->fat_nr, rate_cell(au));
	return vm_len_pow2(VM_LEN_POW2_DOWN, o->blocksize_byte, es,
			   vm_seq(3, cell(vm_leaf(VM_LENGTH)), aus,
				  vm_leaf(VM_NEWLINE)));
}

/* One -p column: op over the whole region in order (linear or random). */
static struct vm_node *p_col(enum vm_op order, enum vm_op op)
{
	return rate_cell(vm_off_span(order, 0, PROGS_P_SPAN, vm_leaf(op)));
}

/*
 * -p: linear writes of zeros, ones and 0x5a and a linear read, then the
 * same four in random order, for each size from 2 MiB down to min_byte
 * (512, or the logical block size of a device that cannot do less).
 */
static struct vm_node *prog_program(uint64_t min_byte)
{
	struct vm_node *row;

	row = vm_seq(10, cell(vm_leaf(VM_LENGTH)),
		     p_col(VM_OFF_LIN, VM_WRITE_ZERO),
		     p_col(VM_OFF_LIN, VM_WRITE_ONES),
		     p_col(VM_OFF_LIN, VM_WRITE_5A),
		     p_col(VM_OFF_LIN, VM_READ),
		     p_col(VM_OFF_RAND, VM_WRITE_ZERO),
		     p_col(VM_OFF_RAND, VM_WRITE_ONES),
		     p_col(VM_OFF_RAND, VM_WRITE_5A),
		     p_col(VM_OFF_RAND, VM_READ),
		     vm_leaf(VM_NEWLINE));
	return vm_off_fixed(PROGS_P_OFF,
			    vm_len_pow2(VM_LEN_POW2_DOWN, min_byte,
					PROGS_P_MAX, row));
}

/* progs_build() for a device whose smallest I/O is lbs bytes. */
static int progs_build_for(unsigned int test, const struct bench_opts *o,
			   unsigned int lbs, struct vm_node **prog)
{
	int ret = progs_check_opts(test, o);

	*prog = NULL;
	if (ret)
		return ret;
	switch (test) {
	case BENCH_OPEN_AU:
		*prog = prog_open_au(o);
		break;
	case BENCH_FIND_FAT:
		*prog = prog_find_fat(o);
		break;
	default:
		*prog = prog_program(lbs > PROGS_P_MIN ? lbs : PROGS_P_MIN);
		break;
	}
	if (!*prog)
		return -ENOMEM;
	/* a NULL deep inside means an allocation failed */
	if (vm_check(*prog, NULL, 0)) {
		vm_free(*prog);
		*prog = NULL;
		return -ENOMEM;
	}
	return 0;
}

int progs_build(unsigned int test, const struct bench_opts *o,
		struct vm_node **prog)
{
	return progs_build_for(test, o, PROGS_P_MIN, prog);
}

/*
 * Under -vv, the program a writing test runs, to o->log, each line
 * prefixed as all -v detail is ("flashbench: vm: ").
 */
static void log_prog(const struct bench_opts *o, const struct vm_node *prog)
{
	char *text = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *f;

	if (o->verbose < 2 || !o->log)
		return;
	f = open_memstream(&text, &len);
	if (!f)
		return;
	vm_print_prog(f, prog);
	fclose(f);
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		fprintf(o->log, "flashbench: vm: %s\n", line);
	free(text);
}

int progs_run(struct device *dev, unsigned int test,
	      const struct bench_opts *o, FILE *out, struct vm_table *tab,
	      char *err, size_t err_len)
{
	struct vm_node *prog;
	int ret;

	if (err && err_len)
		err[0] = '\0';
	ret = bench_write_ranges(test, o, dev->size_byte, NULL, 0);
	if (ret < 0 && err && err_len) {
		if (progs_check_opts(test, o))
			snprintf(err, err_len, "invalid options for the test");
		else
			snprintf(err, err_len,
				 "the test reaches past the end of the device (%llu bytes)",
				 (unsigned long long)dev->size_byte);
	}
	if (ret < 0)
		return ret;
	ret = progs_build_for(test, o, dev->logical_block_size, &prog);
	if (ret)
		return ret;
	log_prog(o, prog);
	ret = vm_run(dev, prog, out, tab, err, err_len);
	vm_free(prog);
	return ret;
}

/* Run a test for the bench_* entry points; explain program errors. */
static int progs_bench(struct device *dev, unsigned int test,
		       const struct bench_opts *o, FILE *out)
{
	char err[256];
	int ret = progs_run(dev, test, o, out, NULL, err, sizeof(err));

	/* I/O errors are the front end's to report, from dev->last_error */
	if (ret == -EINVAL && err[0] && o->log)
		fprintf(o->log, "flashbench: %s\n", err);
	return ret;
}

int bench_open_au(struct device *dev, const struct bench_opts *o, FILE *out)
{
	return progs_bench(dev, BENCH_OPEN_AU, o, out);
}

int bench_find_fat(struct device *dev, const struct bench_opts *o,
		   FILE *out)
{
	return progs_bench(dev, BENCH_FIND_FAT, o, out);
}

int bench_program(struct device *dev, const struct bench_opts *o, FILE *out)
{
	return progs_bench(dev, BENCH_PROGRAM, o, out);
}
