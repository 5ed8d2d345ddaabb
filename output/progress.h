/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The progress line: for runs longer than about two seconds, one
 * self-updating line on a terminal (test, step, percent, time left).
 * Nothing at all when the stream is not a terminal or with -q.
 *
 * A test is described up front as segments of I/O calls of one length
 * (the modes' progplan_start() works them out for every test and hands
 * them down); the line then follows the device's I/O count.
 * progress_attach() stacks a wrapper on the device (as the fault injector
 * does) whose clock updates the line just before the first clock reading
 * of each I/O call, never between the two readings of a timed transfer.
 */
#ifndef FLASHBENCH_PROGRESS_H
#define FLASHBENCH_PROGRESS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "dev.h"

/* Runs shorter than this never show a line. */
#define PROGRESS_DELAY_NS	2000000000ULL

/* The line is redrawn at most this often. */
#define PROGRESS_REDRAW_NS	200000000ULL

/* A stretch of a test: n_io I/O calls of io_byte bytes each. */
struct progress_seg {
	uint64_t n_io;		/* I/O calls */
	uint64_t io_byte;	/* bytes per call */
	char label[24];		/* the step, as shown ("align 4MiB") */
};

struct progress;

/*
 * A progress reporter writing to tty.  It stays silent (but valid) when
 * quiet is set or tty is not a terminal.  Returns NULL only when out of
 * memory; every function below accepts NULL and then does nothing.
 */
struct progress *progress_new(FILE *tty, int quiet);

/* Clear the line and free p (detach it before closing the device). */
void progress_free(struct progress *p);

/* Nonzero if p may print at all (a terminal, not quiet). */
int progress_enabled(const struct progress *p);

/* Replace the wall clock (ns), for tests; NULL restores it. */
void progress_set_clock(struct progress *p, uint64_t (*now_ns)(void));

/*
 * Begin a test called name: nseg segments (copied; nseg 0 means the
 * amount of work is unknown, so no percent and no estimate is shown).
 * Returns 0 or -ENOMEM.
 */
int progress_start(struct progress *p, const char *name,
		   const struct progress_seg *segs, size_t nseg);

/* io_done I/O calls of the current test are finished; maybe redraw. */
void progress_step(struct progress *p, uint64_t io_done);

/* Show text as the step (tests of unknown length, such as --auto). */
void progress_label(struct progress *p, const char *text);

/* Take the line off the terminal for a message; it comes back later. */
void progress_clear(struct progress *p);

/* The test is over: clear the line. */
void progress_done(struct progress *p);

/*
 * Follow dev's I/O count from now on: returns the device to run the tests
 * on, a wrapper around dev that counts each I/O call just before its
 * first clock reading (dev itself when p is disabled, already follows a
 * device, or memory is short).  Closing the wrapper closes dev.
 */
struct device *progress_attach(struct progress *p, struct device *dev);

/*
 * Stop following: free the wrapper progress_attach() returned and give
 * back the device below it (any other device is returned as it is).
 */
struct device *progress_detach(struct progress *p, struct device *dev);

/*
 * When p is enabled and out is a terminal too, a stream that clears the
 * progress line before each line written to out (close it with
 * progress_unwrap()); otherwise out itself.
 */
FILE *progress_wrap(struct progress *p, FILE *out);

/*
 * Undo progress_wrap(): flush and close the wrapper; returns the stream
 * that was wrapped (f itself if it was not a wrapper).
 */
FILE *progress_unwrap(struct progress *p, FILE *f);

/*
 * A stream for --auto's step lines: each line becomes the step shown,
 * and is copied to log, prefixed "flashbench: ", when log is not NULL.
 * Returns NULL if both are off; close it with progress_unwrap().
 */
FILE *progress_log(struct progress *p, FILE *log);

#endif /* FLASHBENCH_PROGRESS_H */
