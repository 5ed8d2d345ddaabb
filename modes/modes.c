// SPDX-License-Identifier: GPL-2.0-only
/*
 * The table of modes (see modes.h).  Each mode lives in a file of its
 * own: align.c, scatter.c, interval.c (reads), open_au.c, find_fat.c,
 * program.c (writes), all of them VM programs run by progs.c; and
 * capacity.c, class.c.
 */
#include "c.h"
#include "capacity.h"
#include "class.h"
#include "modes.h"
#include "progs.h"

const struct mode modes[] = {
	{ .test = BENCH_SCATTER, .name = "scatter", .option = "--scatter",
	  .short_option = 's', .run = scatter_run, .prog = &scatter_prog },
	{ .test = BENCH_FIND_FAT, .name = "find-fat", .option = "--find-fat",
	  .short_option = 'f', .writes = 1, .run = find_fat_run,
	  .write_ranges = find_fat_write_ranges, .column = find_fat_column,
	  .prog = &find_fat_prog },
	{ .test = BENCH_ALIGN, .name = "align", .option = "--align",
	  .short_option = 'a', .run = align_run, .prog = &align_prog },
	{ .test = BENCH_OPEN_AU, .name = "open-au", .option = "--open-au",
	  .short_option = 'O', .writes = 1, .run = open_au_run,
	  .write_ranges = open_au_write_ranges, .column = open_au_column,
	  .prog = &open_au_prog },
	{ .test = BENCH_INTERVAL, .name = "interval", .option = "--interval",
	  .short_option = 'i', .run = interval_run, .prog = &interval_prog },
	{ .test = BENCH_PROGRAM, .name = "program", .option = "--program",
	  .short_option = 'p', .writes = 1, .run = program_run,
	  .write_ranges = program_write_ranges, .column = program_column,
	  .prog = &program_prog },
	{ .test = BENCH_CAPACITY, .name = "capacity", .option = "--capacity",
	  .short_option = 'C', .writes = 1, .run = capacity_run,
	  .write_ranges = capacity_write_ranges },
	{ .test = BENCH_CLASS, .name = "class", .option = "--class",
	  .short_option = 'L', .writes = 1, .run = class_run,
	  .write_ranges = class_write_ranges },
};

const size_t modes_nr = ARRAY_SIZE(modes);

_Static_assert(ARRAY_SIZE(modes) <= MODES_MAX,
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
