// SPDX-License-Identifier: GPL-2.0-only
/*
 * The table of modes (see modes.h) and the small adapters that give each
 * mode the same shape of entry point.
 */
#include <stdlib.h>

#include "modes.h"

/* The read modes print what they measured, even after a failure. */
static int run_align(struct device *dev, const struct bench_opts *o,
		     FILE *out)
{
	struct align_row *rows = NULL;
	size_t n = 0;
	int ret = bench_align(dev, o, &rows, &n);

	print_align(out, rows, n);
	free(rows);
	return ret;
}

static int run_scatter(struct device *dev, const struct bench_opts *o,
		       FILE *out)
{
	struct scatter_point *pts = NULL;
	size_t n = 0;
	int ret = bench_scatter(dev, o, &pts, &n);

	print_scatter(out, pts, n);
	free(pts);
	return ret;
}

static int run_interval(struct device *dev, const struct bench_opts *o,
			FILE *out)
{
	struct interval_row *rows = NULL;
	size_t n = 0;
	int ret = bench_interval(dev, o, &rows, &n);

	if (n)
		print_interval(out, rows, n);
	free(rows);
	return ret;
}

static void column_find_fat(char *buf, size_t len, size_t k)
{
	snprintf(buf, len, "AU %zu", k - 1);
}

static void column_open_au(char *buf, size_t len, size_t k)
{
	(void)k;
	snprintf(buf, len, "write");
}

static void column_program(char *buf, size_t len, size_t k)
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

const struct mode modes[] = {
	{ BENCH_SCATTER, "scatter", "--scatter", 's', 0, run_scatter,
	  NULL, NULL },
	{ BENCH_FIND_FAT, "find-fat", "--find-fat", 'f', 1, bench_find_fat,
	  bench_write_ranges, column_find_fat },
	{ BENCH_ALIGN, "align", "--align", 'a', 0, run_align, NULL, NULL },
	{ BENCH_OPEN_AU, "open-au", "--open-au", 'O', 1, bench_open_au,
	  bench_write_ranges, column_open_au },
	{ BENCH_INTERVAL, "interval", "--interval", 'i', 0, run_interval,
	  NULL, NULL },
	{ BENCH_PROGRAM, "program", "--program", 'p', 1, bench_program,
	  bench_write_ranges, column_program },
};

const size_t modes_nr = sizeof(modes) / sizeof(modes[0]);

_Static_assert(sizeof(modes) / sizeof(modes[0]) <= MODES_MAX,
	       "MODES_MAX must hold every mode");

const struct mode *mode_of(enum bench_test test)
{
	size_t i;

	for (i = 0; i < modes_nr; i++)
		if (modes[i].test == test)
			return &modes[i];
	return NULL;
}

const char *mode_option(enum bench_test test)
{
	const struct mode *m = mode_of(test);

	return m ? m->option : "test";
}
