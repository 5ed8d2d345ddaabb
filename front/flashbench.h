/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The flashbench front end as a function, so the tests can run it
 * in-process as often as they like, plus the hooks that let them see
 * (and interfere with) the devices it opens (front/opendev.c) and the
 * progress line's clock (front/outputs.c): all unused in use.
 */
#ifndef FLASHBENCH_FLASHBENCH_H
#define FLASHBENCH_FLASHBENCH_H

#include <stdint.h>
#include <stdio.h>

#include "dev.h"

/*
 * Parse argv, check it, run the tests; results go to out, errors and -v
 * detail to err.  Returns the exit status (front/status.h: 0 done, 1 the
 * device failed, 2 a bad command line, 3 the card is short of its
 * claims, 4 a limbo fake, 5 a wraparound fake, 128 + N stopped by
 * signal N); never exits.
 */
int flashbench_main(int argc, char **argv, FILE *out, FILE *err);

/* Devices opened by flashbench_main (real or simulated), ever. */
extern unsigned int flashbench_dev_opens;

/* dev_* I/O calls (reads, writes, discards) on those devices, summed. */
extern uint64_t flashbench_io_calls;

/*
 * Called with each device right after it is opened, before it is checked
 * against the command line and before any I/O; returns the device to use:
 * a test may change its size or logical block size, or return a wrapper
 * (a fault injector) that owns it.  NULL when unused.
 */
extern struct device *(*flashbench_open_hook)(struct device *dev);

/*
 * The wall clock (ns) the progress line reads; NULL (the default) is the
 * real monotonic clock.  Tests set a virtual one so that whether a line
 * appears never depends on how fast the machine is.
 */
extern uint64_t (*flashbench_progress_clock)(void);

#endif /* FLASHBENCH_FLASHBENCH_H */
