// SPDX-License-Identifier: GPL-2.0-only
/*
 * The find-FAT test (-f): the write speed of each of the first AUs, one
 * column per AU; FAT-optimised AUs stand out.  It writes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "modes.h"
#include "plot.h"
#include "progs.h"
#include "vm.h"

static int find_fat_check(const struct bench_opts *o)
{
	int ret = progs_check_sizes(o);

	return ret ? ret : o->fat_nr ? 0 : -EINVAL;
}

/* The first fat_nr AUs, as one range. */
static int find_fat_ranges(const struct bench_opts *o,
			   struct bench_range **out)
{
	uint64_t end;

	*out = NULL;
	if (__builtin_mul_overflow(o->erasesize_byte, (uint64_t)o->fat_nr,
				   &end))
		return -EINVAL;
	*out = calloc(1, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	**out = (struct bench_range){ 0, end };
	return 1;
}

/*
 * -f: for each size, write each of the first AUs completely and report
 * its throughput, one column per AU.  FAT-optimised AUs stand out.
 */
static int find_fat_build(const struct bench_opts *o, uint64_t dev_byte,
			  unsigned int lbs, struct vm_node **prog)
{
	uint64_t es = o->erasesize_byte;
	struct vm_node *au, *aus;

	(void)dev_byte;
	(void)lbs;

	au = vm_off_span(o->random ? VM_OFF_RAND : VM_OFF_LIN, 0, es,
			 vm_leaf(VM_WRITE_RAND));
	aus = vm_off_series(VM_OFF_LIN, 0, es, o->fat_nr,
			    progs_rate_cell(au));
	*prog = vm_len_pow2(VM_LEN_POW2_DOWN, o->blocksize_byte, es,
			    vm_seq(3, progs_cell(vm_leaf(VM_LENGTH)), aus,
				   vm_leaf(VM_NEWLINE)));
	return *prog ? 0 : -ENOMEM;
}

/* --plot: the throughput of each AU at each size. */
static int find_fat_plot(FILE *f, const char *title, enum bench_test test,
			 const struct bench_opts *o, const struct vm_table *tab)
{
	(void)test;
	(void)o;
	return plot_table(f, title,
			  "whole-AU write throughput of each of the first AUs; a column that stands out is the FAT area",
			  find_fat_column, tab);
}

const struct progs_mode find_fat_prog = {
	.check = find_fat_check,
	.ranges = find_fat_ranges,
	.build = find_fat_build,
	.json = progs_json_rates,
	.plot = find_fat_plot,
};

int find_fat_run(struct device *dev, const struct bench_opts *o, FILE *out)
{
	return progs_bench(dev, &find_fat_prog, o, out);
}

int find_fat_write_ranges(enum bench_test test, const struct bench_opts *o,
			  uint64_t dev_size, struct bench_range *ranges,
			  size_t max)
{
	(void)test;
	return progs_write_ranges(&find_fat_prog, o, dev_size, ranges, max);
}

void find_fat_column(char *buf, size_t len, size_t k)
{
	snprintf(buf, len, "AU %zu", k - 1);
}
