/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers shared by the libFuzzer harnesses: a simulated card whose I/O
 * calls are rationed, so that no input can make a run take long, and a
 * stream that swallows output.
 */
#ifndef FLASHBENCH_FUZZ_UTIL_H
#define FLASHBENCH_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "dev.h"

/* I/O calls a device may make before each further one fails with EIO. */
#define FUZZ_MAX_IO 20000
/* Bytes it may read or write so (the card fills every read buffer). */
#define FUZZ_MAX_BYTES (512ULL << 20)

/*
 * Ration dev (one device at a time): after max_io read, write or discard
 * calls, or FUZZ_MAX_BYTES read or written, every further call fails with
 * -EIO.  Returns nothing; the device is restored when it is closed.
 */
void fuzz_budget(struct device *dev, uint64_t max_io);

/* I/O calls refused by the current budget so far. */
extern uint64_t fuzz_budget_refused;

/*
 * Open a simulated card from spec (NULL: the default card) with a budget
 * of FUZZ_MAX_IO.  Returns 0 or -errno (-EINVAL for a bad spec).
 */
int fuzz_sim_open(struct device **devp, const char *spec);

/* A stream that discards everything written to it (opened once). */
FILE *fuzz_null(void);

/* Abort with a message on stderr: a broken invariant is a crash. */
void fuzz_fail(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));

#endif /* FLASHBENCH_FUZZ_UTIL_H */
