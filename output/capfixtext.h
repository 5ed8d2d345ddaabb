/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What --capacity tells a user to do about a fake (see capfix.h for the
 * reading of the partition table): one sfdisk(8) command that keeps the
 * card's partitions within its usable size, planned from the check's
 * verdict and the table, and shown as text or JSON.
 */
#ifndef FLASHBENCH_CAPFIXTEXT_H
#define FLASHBENCH_CAPFIXTEXT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "caprec.h"

/* The entries of an MBR. */
#define CAPFIX_ENTRIES		4U

/* The partition table as far as the advice needs it. */
enum capfix_label {
	CAPFIX_NO_TABLE,	/* none (or none understood) */
	CAPFIX_MBR,		/* an MBR ("dos") */
	CAPFIX_GPT,		/* a protective MBR: a GPT */
};

struct capfix_table {
	enum capfix_label label;
	unsigned int n_over;	/* MBR partitions reaching past the usable
				 * size (filled by capfix_plan()) */
	unsigned int last;	/* 1..4: the partition that ends last */
	int last_extended;	/* ... is an extended partition */
	uint64_t last_start;	/* its first sector (logical blocks) */
	uint64_t last_end;	/* the sector after it */
	uint64_t end[CAPFIX_ENTRIES];	/* every entry's end (0: empty) */
	uint64_t start[CAPFIX_ENTRIES];
};

/*
 * The advice for r on a device at path whose table is t (NULL: not
 * read, as CAPFIX_NO_TABLE): its kind, and the command (for SHRINK and
 * REPLACE, else "") in cmd.
 */
enum capfix_how capfix_plan(const struct capacity_result *r,
			    struct capfix_table *t, const char *path,
			    char *cmd, size_t len);

/*
 * The sfdisk command that makes a new table of one FAT partition (type c,
 * as cards come) from sector start, of size sectors (0: to the end), on
 * path; an MBR in place of a GPT when gpt.  -C and --auto give this one
 * command.
 */
void capfix_command(char *cmd, size_t len, uint64_t start, uint64_t size,
		    int gpt, const char *path);

/* The report's "to do:" lines. */
void capfix_print(FILE *out, const struct capacity_result *r,
		  struct capfix_table *t, const char *path);

/* JSON members fix ("nothing", "no_data", "keep", "shrink", "replace")
 * and fix_command (null when there is none). */
struct json;
void capfix_json(struct json *j, const struct capacity_result *r,
		 struct capfix_table *t, const char *path);

#endif /* FLASHBENCH_CAPFIXTEXT_H */
