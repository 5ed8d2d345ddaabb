/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The capacity check shown (output/captext.c): its report as text and
 * its record's members as JSON.
 */
#ifndef FLASHBENCH_CAPTEXT_H
#define FLASHBENCH_CAPTEXT_H

#include <stdio.h>

#include "caprec.h"

/* The evidence as the record's results[0] ("step": "capacity"). */
struct json;
void capacity_json_evidence(struct json *j, const struct capacity_result *r);

/* The report up to its advice (what was found, cache, what was written). */
void capacity_print_findings(FILE *out, const struct capacity_result *r);

/* The report, with what to do, for the device at path. */
void capacity_print(FILE *out, const struct capacity_result *r,
		    const char *path);

/*
 * What an interrupted check had done: what it wrote and how far data
 * came back, with no verdict (its search had not ended).
 */
void capacity_print_stopped(FILE *out, const struct capacity_result *r);

/* The verdict's members (usable_size, announced_size, kind, ...). */
void capacity_json(struct json *j, const struct capacity_result *r);

#endif /* FLASHBENCH_CAPTEXT_H */
