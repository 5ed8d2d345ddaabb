/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The align test's rows shown: the classic table (-a) and the rows as
 * JSON objects (-a --json, --auto's tables).
 */
#ifndef FLASHBENCH_ALIGNTEXT_H
#define FLASHBENCH_ALIGNTEXT_H

#include <stddef.h>
#include <stdio.h>

#include "rows.h"
#include "json.h"

/* The classic table: one line per alignment. */
void print_align(FILE *out, const struct align_row *rows, size_t nrows);

/* The rows as JSON objects (align, pre_ns, on_ns, post_ns, diff_ns). */
void json_align(struct json *j, const struct align_row *rows, size_t nrows);

#endif /* FLASHBENCH_ALIGNTEXT_H */
