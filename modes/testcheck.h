/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The check operations (test.h) of the rows modes/ implements
 * (testcheck.c): each says what its test needs of the command line and
 * the device, at the stage the front end asks.
 */
#ifndef FLASHBENCH_TESTCHECK_H
#define FLASHBENCH_TESTCHECK_H

#include "test.h"

int align_check(const struct test *t, const struct test_check *k,
		enum test_check_at at);
int scatter_check(const struct test *t, const struct test_check *k,
		  enum test_check_at at);
int interval_check(const struct test *t, const struct test_check *k,
		   enum test_check_at at);
int open_au_check(const struct test *t, const struct test_check *k,
		  enum test_check_at at);
int find_fat_check(const struct test *t, const struct test_check *k,
		   enum test_check_at at);
int program_check(const struct test *t, const struct test_check *k,
		  enum test_check_at at);
int capacity_check(const struct test *t, const struct test_check *k,
		   enum test_check_at at);
int class_check(const struct test *t, const struct test_check *k,
		enum test_check_at at);

#endif /* FLASHBENCH_TESTCHECK_H */
