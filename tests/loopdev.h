/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Real loop devices for the suites that test on them (blockdev, holders,
 * erase, loop_modes, loop_preserve): the fixture, its ledger (what a test
 * created, undone even after a failed child), skipping and counting, the
 * planted content, and the system tools run on them.
 */
#ifndef FLASHBENCH_TESTS_LOOPDEV_H
#define FLASHBENCH_TESTS_LOOPDEV_H

#include <check.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "util.h"

#define MiB ((uint64_t)1024 * 1024)

/* Size of the loop devices: big enough for a small ext4 and a partition. */
#define LOOP_SIZE (64 * MiB)

/* Options for loop_setup(). */
#define LOOP_PARTSCAN	0x1	/* losetup -P, one-partition MBR */
#define LOOP_RDONLY	0x2	/* losetup -r: a write-protected card */

/* One test's loop device. */
struct loop_fix {
	char img[PATH_MAX];	/* backing file */
	char dev[64];		/* /dev/loopN */
	char part[80];		/* /dev/loopNp1 (LOOP_PARTSCAN) or "" */
	char mnt[PATH_MAX];	/* mount point while mounted, else "" */
	uint64_t size_byte;	/* size of the device */
	uint64_t seed;		/* content seed, see planted() */
};

/* What scan() does with the bytes it reads. */
enum scan_mode { SCAN_HASH, SCAN_PLANTED, SCAN_ZERO };

/* A test case whose tests use loop devices, cleaned up in any case. */
TCase *loop_tcase(const char *name);

/* Each is described where it is defined, in loopdev.c. */
int loop_setup(struct loop_fix *fx, const char *test,
	       unsigned int opts, unsigned int sector_size);
void loop_skip(const char *test, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
const char *state_dir(void);
void state_append(const char *file, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
const char *find_tool(const char *name);
int run_tool(struct cmd_result *res, const char *tool, ...);
int run_erase(struct cmd_result *res, const char *a, const char *b,
	      const char *c, const char *d);
int run_fb(struct cmd_result *res, ...);
void planted(void *buf, uint64_t seed, uint64_t off, size_t len);
uint64_t scan(const char *path, uint64_t off, uint64_t len,
	      enum scan_mode mode, uint64_t seed);
uint64_t region_hash(const char *path, uint64_t off, uint64_t len);
uint64_t blockdev_get(const char *opt, const char *dev);
int make_ext4(const char *test, const char *dev);
void mount_ext4(struct loop_fix *fx, const char *dev);
void unmount_and_fsck(struct loop_fix *fx, const char *dev);

#endif /* FLASHBENCH_TESTS_LOOPDEV_H */
