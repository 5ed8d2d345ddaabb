/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The table of modes: one row per test flashbench can run, in the classic
 * order (-s, -f, -a, -O, -i, -p).  Everything that used to list the modes
 * for itself (the run order, the writing tests, --preserve's ranges, the
 * progress line's names, the plot's column names) reads this table, so
 * adding a mode is one row here and the mode's own file.
 */
#ifndef FLASHBENCH_MODES_H
#define FLASHBENCH_MODES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bench.h"
#include "dev.h"

struct progs_mode;

struct mode {
	enum bench_test test;	/* the mode's bit */
	const char *name;	/* "align" */
	const char *option;	/* "--align": how the user asks for it */
	char short_option;	/* 'a' */
	int writes;		/* overwrites data on the device */
	/*
	 * run it and print the classic table to out; 0, BENCH_SHORT,
	 * BENCH_LIMBO or BENCH_WRAP (a check found the card short of its
	 * claims) or -errno
	 */
	int (*run)(struct device *dev, const struct bench_opts *o,
		   FILE *out);
	/*
	 * The writing modes: the byte ranges it overwrites, merged and
	 * sorted, as progs_write_ranges() (how many, or -errno); NULL for
	 * the read modes.
	 */
	int (*write_ranges)(enum bench_test test, const struct bench_opts *o,
			    uint64_t dev_size, struct bench_range *ranges,
			    size_t max);
	/*
	 * The writing modes: the name of throughput column k (from 1) of
	 * its table, into buf; NULL for the read modes.
	 */
	void (*column)(char *buf, size_t len, size_t k);
	/*
	 * the modes run as VM programs (all but capacity and class): the
	 * program, its checks, the writing ones' ranges, and how the
	 * results read back from the VM's cells as the table, JSON, the
	 * plot and the progress line's steps (progs.h)
	 */
	const struct progs_mode *prog;
};

/*
 * The modes' own entry points, one file each (the rows point to them):
 * NAME_run runs the mode and prints its classic table; the writing
 * modes' NAME_write_ranges and NAME_column are their rows' write_ranges
 * and column.
 */
int align_run(struct device *dev, const struct bench_opts *o, FILE *out);
int scatter_run(struct device *dev, const struct bench_opts *o, FILE *out);
int interval_run(struct device *dev, const struct bench_opts *o, FILE *out);
int open_au_run(struct device *dev, const struct bench_opts *o, FILE *out);
int find_fat_run(struct device *dev, const struct bench_opts *o, FILE *out);
int program_run(struct device *dev, const struct bench_opts *o, FILE *out);
int open_au_write_ranges(enum bench_test test, const struct bench_opts *o,
			 uint64_t dev_size, struct bench_range *ranges,
			 size_t max);
int find_fat_write_ranges(enum bench_test test, const struct bench_opts *o,
			  uint64_t dev_size, struct bench_range *ranges,
			  size_t max);
int program_write_ranges(enum bench_test test, const struct bench_opts *o,
			 uint64_t dev_size, struct bench_range *ranges,
			 size_t max);
void open_au_column(char *buf, size_t len, size_t k);
void find_fat_column(char *buf, size_t len, size_t k);
void program_column(char *buf, size_t len, size_t k);

/* Room for every mode: arrays indexed like modes[] use it. */
#define MODES_MAX 8

/* Every mode, in the classic run order; modes_nr rows. */
extern const struct mode modes[];
extern const size_t modes_nr;

/* The row of one BENCH_* bit, or NULL. */
const struct mode *mode_of(enum bench_test test);

/* The option of one BENCH_* bit ("--align"), or "test". */
const char *mode_option(enum bench_test test);

#endif /* FLASHBENCH_MODES_H */
