/* SPDX-License-Identifier: GPL-2.0-only */
/* --analyze on a JSON record (front/record.c) beside text tables. */
#ifndef FLASHBENCH_RECORD_H
#define FLASHBENCH_RECORD_H

#include <stddef.h>
#include <stdio.h>

#include "analyze.h"
#include "jsonread.h"

struct cli;

/*
 * Is text (read from path) to be read as a record rather than text
 * tables: JSON, or named *.json (even empty, or text)?
 */
int is_record(const char *path, const char *text, size_t len);

/*
 * Judge the record text (len bytes, read from c->analyze_path) with
 * today's rules and print it as a live run; returns the exit status (2
 * with one line on c->err for a record that cannot be judged).
 */
int run_record(struct cli *c, FILE *out, const char *text, size_t len);

/*
 * Print the verdicts of n align tables as --analyze does, read from the
 * -a record record (its text says first whose record it is) or from text
 * (NULL); the status.
 */
int analyze_tables_out(struct cli *c, FILE *out, const struct align_table *t,
		       size_t n, const struct jr_value *record);

#endif /* FLASHBENCH_RECORD_H */
