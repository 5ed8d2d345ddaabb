// SPDX-License-Identifier: GPL-2.0-only
/* The writing tests as VM programs (placeholder until they land). */
#include <errno.h>

#include "bench.h"
#include "vm.h"

int bench_write_ranges(enum bench_test test, const struct bench_opts *o,
		       uint64_t dev_size, struct bench_range *ranges,
		       size_t max)
{
	(void)test;
	(void)o;
	(void)dev_size;
	(void)ranges;
	(void)max;
	return -ENOSYS;
}

int bench_open_au(struct device *dev, const struct bench_opts *o, FILE *out)
{
	(void)dev;
	(void)o;
	(void)out;
	return -ENOSYS;
}

int bench_find_fat(struct device *dev, const struct bench_opts *o,
		   FILE *out)
{
	(void)dev;
	(void)o;
	(void)out;
	return -ENOSYS;
}

int bench_program(struct device *dev, const struct bench_opts *o, FILE *out)
{
	(void)dev;
	(void)o;
	(void)out;
	return -ENOSYS;
}
