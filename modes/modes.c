// SPDX-License-Identifier: GPL-2.0-only
/*
 * The table of modes (see modes.h).  Each mode lives in a file of its
 * own: align.c, scatter.c, interval.c (reads), open_au.c, find_fat.c,
 * program.c (writes, as VM programs run by progs.c).
 */
#include "capacity.h"
#include "class.h"
#include "modes.h"
#include "progs.h"

const struct mode modes[] = {
	{ BENCH_SCATTER, "scatter", "--scatter", 's', 0, scatter_run,
	  NULL, NULL, NULL },
	{ BENCH_FIND_FAT, "find-fat", "--find-fat", 'f', 1, bench_find_fat,
	  bench_write_ranges, find_fat_column, &find_fat_prog },
	{ BENCH_ALIGN, "align", "--align", 'a', 0, align_run,
	  NULL, NULL, NULL },
	{ BENCH_OPEN_AU, "open-au", "--open-au", 'O', 1, bench_open_au,
	  bench_write_ranges, open_au_column, &open_au_prog },
	{ BENCH_INTERVAL, "interval", "--interval", 'i', 0, interval_run,
	  NULL, NULL, NULL },
	{ BENCH_PROGRAM, "program", "--program", 'p', 1, bench_program,
	  bench_write_ranges, program_column, &program_prog },
	{ BENCH_CAPACITY, "capacity", "--capacity", 'C', 1, capacity_run,
	  capacity_write_ranges, NULL, NULL },
	{ BENCH_CLASS, "class", "--class", 'L', 1, class_run,
	  class_write_ranges, NULL, NULL },
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
