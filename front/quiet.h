/* SPDX-License-Identifier: GPL-2.0-only */
/* Steadier timing for the whole process: the front end calls it once. */
#ifndef FLASHBENCH_QUIET_H
#define FLASHBENCH_QUIET_H

#include <stdio.h>

/*
 * Make timing steadier: lock memory, raise the scheduling priority.  What
 * worked and what did not is written to log (may be NULL).
 */
void quiet_system(FILE *log);

#endif /* FLASHBENCH_QUIET_H */
