// SPDX-License-Identifier: GPL-2.0-only
/*
 * The open-AU test (-O): how many AUs the card keeps open at once.  It
 * writes, so its ranges are announced (and saved with --preserve) first.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "modes.h"
#include "plot.h"
#include "progs.h"
#include "vm.h"

/* The AUs are every 12th one, far enough apart that no card treats them
 * as one larger unit. */
#define OPEN_AU_SPACING 12

static int open_au_check(const struct bench_opts *o)
{
	int ret = progs_check_sizes(o);

	return ret ? ret : o->open_au_nr ? 0 : -EINVAL;
}

/* open_au_nr AUs of erasesize bytes, OPEN_AU_SPACING AUs apart. */
static int open_au_ranges(const struct bench_opts *o,
			  struct bench_range **out)
{
	uint64_t es = o->erasesize_byte, step, start, end;
	struct bench_range *r;
	size_t i;

	*out = NULL;
	if (o->open_au_nr > INT32_MAX)
		return -EINVAL;
	r = calloc(o->open_au_nr, sizeof(*r));
	if (!r)
		return -ENOMEM;
	if (__builtin_mul_overflow(es, OPEN_AU_SPACING, &step))
		goto out_inval;
	/* ascending offsets and step > es: already sorted, disjoint */
	for (i = 0; i < o->open_au_nr; i++) {
		if (__builtin_mul_overflow(step, i, &start) ||
		    __builtin_add_overflow(start, o->offset_byte, &start) ||
		    __builtin_add_overflow(start, es, &end))
			goto out_inval;
		r[i] = (struct bench_range){ start, end };
	}
	*out = r;
	return (int)o->open_au_nr;

out_inval:
	free(r);
	return -EINVAL;
}

/*
 * -O: for each size, walk the chunk positions of an AU and at each
 * position write that chunk into every one of the AUs in turn, in a
 * pseudo-random AU order.  A card that keeps all of them open writes at
 * full speed; one AU more and it must garbage-collect at every turn.
 */
static int open_au_build(const struct bench_opts *o, uint64_t dev_byte,
			 unsigned int lbs, struct vm_node **prog)
{
	uint64_t es = o->erasesize_byte;
	struct vm_node *aus, *chunks;

	(void)dev_byte;
	(void)lbs;

	aus = vm_off_series(VM_OFF_RAND, o->offset_byte,
			    OPEN_AU_SPACING * es, o->open_au_nr,
			    vm_leaf(VM_WRITE_RAND));
	chunks = vm_off_span(o->random ? VM_OFF_RAND : VM_OFF_LIN, 0, es,
			     aus);
	*prog = vm_len_pow2(VM_LEN_POW2_DOWN, o->blocksize_byte, es,
			    vm_seq(3, progs_cell(vm_leaf(VM_LENGTH)),
				   progs_rate_cell(chunks),
				   vm_leaf(VM_NEWLINE)));
	return *prog ? 0 : -ENOMEM;
}

/* --plot: the throughput of each size. */
static int open_au_plot(FILE *f, const char *title, enum bench_test test,
			const struct bench_opts *o, const struct vm_table *tab)
{
	(void)test;
	(void)o;
	return plot_table(f, title,
			  "throughput stays up as sizes shrink while the card keeps enough AUs open",
			  open_au_column, tab);
}

const struct progs_mode open_au_prog = {
	.check = open_au_check,
	.ranges = open_au_ranges,
	.build = open_au_build,
	.json = progs_json_rates,
	.plot = open_au_plot,
};

int open_au_run(struct device *dev, const struct bench_opts *o, FILE *out)
{
	return progs_bench(dev, &open_au_prog, o, out);
}

int open_au_write_ranges(enum bench_test test, const struct bench_opts *o,
			 uint64_t dev_size, struct bench_range *ranges,
			 size_t max)
{
	(void)test;
	return progs_write_ranges(&open_au_prog, o, dev_size, ranges, max);
}

void open_au_column(char *buf, size_t len, size_t k)
{
	(void)k;
	snprintf(buf, len, "write");
}
