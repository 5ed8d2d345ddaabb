// SPDX-License-Identifier: GPL-2.0-only
/*
 * The program test (-p): a fixed table of linear and random-order writes
 * (zeros, ones, 0x5a) and reads, 16 MiB into the device, inside one
 * 4 MiB region, for sizes 2 MiB down to 512 bytes.  It writes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "modes.h"
#include "plot.h"
#include "progs.h"
#include "vm.h"

#define PROGRAM_OFF (16ULL << 20)
#define PROGRAM_SPAN (4ULL << 20)
#define PROGRAM_MAX (2ULL << 20)
#define PROGRAM_MIN 512ULL

/* It takes no option: always fine. */
static int program_check(const struct bench_opts *o)
{
	(void)o;
	return 0;
}

static int program_ranges(const struct bench_opts *o,
			  struct bench_range **out)
{
	(void)o;
	*out = calloc(1, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	**out = (struct bench_range){ PROGRAM_OFF, PROGRAM_OFF + PROGRAM_SPAN };
	return 1;
}

/* One -p column: op over the whole region in order (linear or random). */
static struct vm_node *p_col(enum vm_op order, enum vm_op op)
{
	return progs_rate_cell(vm_off_span(order, 0, PROGRAM_SPAN,
					   vm_leaf(op)));
}

/*
 * -p: linear writes of zeros, ones and 0x5a and a linear read, then the
 * same four in random order, for each size from 2 MiB down to min_byte
 * (512, or the logical block size of a device that cannot do less).
 */
static int program_build(const struct bench_opts *o, uint64_t dev_byte,
			 unsigned int lbs, struct vm_node **prog)
{
	uint64_t min_byte = lbs > PROGRAM_MIN ? lbs : PROGRAM_MIN;
	struct vm_node *row;

	(void)o;
	(void)dev_byte;

	row = vm_seq(10, progs_cell(vm_leaf(VM_LENGTH)),
		     p_col(VM_OFF_LIN, VM_WRITE_ZERO),
		     p_col(VM_OFF_LIN, VM_WRITE_ONES),
		     p_col(VM_OFF_LIN, VM_WRITE_5A),
		     p_col(VM_OFF_LIN, VM_READ),
		     p_col(VM_OFF_RAND, VM_WRITE_ZERO),
		     p_col(VM_OFF_RAND, VM_WRITE_ONES),
		     p_col(VM_OFF_RAND, VM_WRITE_5A),
		     p_col(VM_OFF_RAND, VM_READ),
		     vm_leaf(VM_NEWLINE));
	*prog = vm_off_fixed(PROGRAM_OFF,
			     vm_len_pow2(VM_LEN_POW2_DOWN, min_byte,
					 PROGRAM_MAX, row));
	return *prog ? 0 : -ENOMEM;
}

/* --plot: the throughput of each column at each size. */
static int program_plot(FILE *f, const char *title, enum bench_test test,
			const struct bench_opts *o, const struct vm_table *tab)
{
	(void)test;
	(void)o;
	return plot_table(f, title,
			  "throughput of linear and random writes and reads",
			  program_column, tab);
}

const struct progs_mode program_prog = {
	.check = program_check,
	.ranges = program_ranges,
	.build = program_build,
	.json = progs_json_rates,
	.plot = program_plot,
};

int program_run(struct device *dev, const struct bench_opts *o, FILE *out)
{
	return progs_bench(dev, &program_prog, o, out);
}

int program_write_ranges(enum bench_test test, const struct bench_opts *o,
			 uint64_t dev_size, struct bench_range *ranges,
			 size_t max)
{
	(void)test;
	return progs_write_ranges(&program_prog, o, dev_size, ranges, max);
}

void program_column(char *buf, size_t len, size_t k)
{
	static const char *const names[8] = {
		"write 0x00", "write 0xff", "write 0x5a", "read",
		"random write 0x00", "random write 0xff",
		"random write 0x5a", "random read",
	};

	if (k >= 1 && k <= 8)
		snprintf(buf, len, "%s", names[k - 1]);
	else
		snprintf(buf, len, "column %zu", k);
}
