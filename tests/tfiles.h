/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the fault, preserve and outputs suites share: a temporary
 * directory per test, files of known contents, devices opened on them
 * (plain, behind the preserve guard or the fault injector), and loop
 * devices over them.
 */
#ifndef FLASHBENCH_TESTS_TFILES_H
#define FLASHBENCH_TESTS_TFILES_H

#include <stddef.h>
#include <stdint.h>

#include "dev.h"
#include "fault.h"
#include "preserve.h"

#define KiB (1024ULL)
#define MiB (1024ULL * KiB)

/* Size of the test files and loop devices. */
#define T_SIZE		(8 * MiB)

/*
 * The ranges the preserve tests save: first blocks, a long run crossing
 * several I/O chunks at an odd block, the last blocks.
 */
#define T_NRANGES 3
extern const struct bench_range t_ranges[T_NRANGES];

/* The state section of a journal of n bytes of 512-byte blocks. */
#define T_STATE_BYTE(n)	(16 + 16 * ((n) / 512))

/* Temporary directory of the test case, and of the running test. */
extern char t_base[64];
extern char t_dir[96];

/* One operation of the pass-through workload. */
struct t_op {
	unsigned int kind;	/* FAULT_READ, FAULT_WRITE, FAULT_DISCARD */
	uint64_t off_byte;
	uint64_t len_byte;
};

/* A workload of reads, writes and a discard over a 1 GiB card. */
#define T_NWORK 9
extern const struct t_op t_workload[T_NWORK];

/* Each is described where it is defined, in tfiles.c. */
int t_do(struct device *dev, const struct t_op *op, void *buf, uint64_t *t);
const char *t_path(char *buf, size_t len, const char *name);
int t_exists(const char *path);
void t_write_file(const char *path, const void *buf, size_t len);
unsigned char *t_read_file(const char *path, size_t *len);
void t_make_file(const char *path, size_t size, uint64_t seed);
struct device *t_guard(struct device *dev);
struct device *t_open_raw(const char *path);
struct device *t_open(const char *path);
unsigned char *t_snapshot(struct device *dev);
int t_same(struct device *dev, const unsigned char *want);
void t_scribble(struct device *dev);
struct preserve *t_save(struct device *dev, const char *journal);
struct device *t_wrap(struct device *dev,
			     const struct fault_plan *plan);
void t_base_setup(void);
void t_dir_setup(void);
const char *t_losetup(void);
void t_base_teardown(void);

#endif
