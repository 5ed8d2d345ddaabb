/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * How a run ends: the exit statuses (the README's table), the signal
 * that asked it to stop, and the one-line messages of a refused command
 * line and of a failed test.  A leaf of the front end: every other file
 * of it and flashbench.c use it, it uses none of them.
 */
#ifndef FLASHBENCH_STATUS_H
#define FLASHBENCH_STATUS_H

#include <signal.h>
#include <stdio.h>

#include "dev.h"

#define EXIT_USAGE	2	/* bad command line, found before any I/O */
#define EXIT_DEVICE	1	/* the device failed or refused */
#define EXIT_SHORT	3	/* a check found the card short of its claims:
				 * damaged, or a class it states not met */
#define EXIT_LIMBO	4	/* a fake whose writes past its real size
				 * are lost (-C, --auto --destructive) */
#define EXIT_WRAP	5	/* a fake whose addresses repeat */
#define EXIT_SIGNAL	128	/* + N: stopped by signal N */

/* The signal that asked us to stop (SIGINT, SIGTERM, SIGHUP), or 0. */
extern volatile sig_atomic_t stop_signal;

/*
 * Turn SIGINT, SIGTERM and SIGHUP into stop_signal (and the devices'
 * stop within one I/O) until stop_release(); old keeps what was there.
 */
struct stop_old {
	struct sigaction sa[3];
};
void stop_catch(struct stop_old *old);
void stop_release(const struct stop_old *old);

/* One message naming what is wrong (nothing more); returns EXIT_USAGE. */
int usage_error(FILE *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * usage_error() for a command line getopt or the arguments refused (an
 * unknown option, a missing DEVICE), followed, as util-linux does, by
 * "Try 'flashbench --help' for more information."
 */
int usage_error_help(FILE *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Tell on err that option's test failed on dev with ret (-errno), from
 * the device's last error when it has one; returns EXIT_DEVICE.
 */
int test_failed(FILE *err, const struct device *dev, const char *option,
		int ret);

/*
 * The exit status of a check's result (BENCH_SHORT, _LIMBO, _WRAP; 0 for
 * anything else), and the more telling of two statuses (a fake's kind
 * over a plain "short").
 */
int short_status(int bench);
int short_worst(int a, int b);

#endif /* FLASHBENCH_STATUS_H */
