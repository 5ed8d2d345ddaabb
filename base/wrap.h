/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Prose that fits a terminal: lines over WRAP_COLS columns broken at
 * spaces, the lines after the first starting with a lead (an indent, or
 * "flashbench:   " on the error stream).  Every report that writes
 * sentences (-C, -L, --auto, the messages) wraps through here, so that
 * one rule decides where a line breaks.
 */
#ifndef FLASHBENCH_WRAP_H
#define FLASHBENCH_WRAP_H

#include <stddef.h>
#include <stdio.h>

/* Columns a line may take: a terminal's usual width. */
#define WRAP_COLS 80

/* The columns of the first n bytes of s (UTF-8: one a character). */
size_t wrap_cols(const char *s, size_t n);

/*
 * Print text: each of its lines as it is when it fits WRAP_COLS columns,
 * else broken at spaces into lines that fit, each after the first
 * starting with lead.  A word longer than a line is not cut.
 */
void wrap_puts(FILE *out, const char *lead, const char *text);

/* wrap_puts() of a printf format. */
void wrap_printf(FILE *out, const char *lead, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A paragraph printed in pieces, wrapped as one when it ends. */
struct wrap {
	FILE *f;		/* where the pieces go */
	FILE *out;		/* where the wrapped text goes */
	const char *lead;	/* wrap_puts()'s lead */
	char *buf;		/* the pieces so far */
	size_t len;
};

/*
 * Start a paragraph for out; returns the stream to print its pieces to
 * (out itself, unwrapped, if memory is short).
 */
FILE *wrap_begin(struct wrap *w, FILE *out, const char *lead);

/* Print the paragraph wrap_begin() started, wrapped. */
void wrap_end(struct wrap *w);

#endif /* FLASHBENCH_WRAP_H */
