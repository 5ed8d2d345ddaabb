/* SPDX-License-Identifier: GPL-2.0-only */
/* The verdict of a run, recomputed from its record's raw fields alone. */
#ifndef FLASHBENCH_TEST_DECIDE_H
#define FLASHBENCH_TEST_DECIDE_H

#include "auto.h"

/*
 * Assert (libcheck) that auto_decide() over a copy of r with every
 * verdict field wiped gives r's verdict, field for field; what names
 * the run in a failure.
 */
void decide_check(const struct auto_result *r, const char *what);

/*
 * Assert that r's record (the JSON --auto --json writes, of a device of
 * size bytes), read back by auto_record_read() and decided, gives r's
 * verdict field for field (tests/test_record.c).
 */
void record_check(const struct auto_result *r, uint64_t size,
		  const char *what);

#endif /* FLASHBENCH_TEST_DECIDE_H */
