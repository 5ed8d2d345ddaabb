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

#endif /* FLASHBENCH_TEST_DECIDE_H */
