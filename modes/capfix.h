/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What --capacity tells a user to do about a fake: one command that keeps
 * the card's partitions within its usable size.  It reads the partition
 * table in the first sector (an MBR; a GPT is only recognised) and
 * prints, where one partition alone reaches past the usable size, an
 * sfdisk(8) command that shrinks that partition and keeps the rest of the
 * table (f3fix's job); else a command for a new table of one partition.
 */
#ifndef FLASHBENCH_CAPFIX_H
#define FLASHBENCH_CAPFIX_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "capacity.h"
#include "dev.h"

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
	uint64_t end[4];	/* every entry's end (0: empty) */
	uint64_t start[4];
};

/*
 * Read the table in dev's first sector, untimed (the check's timings are
 * left as they are).  A table that cannot be read or is not understood
 * is CAPFIX_NO_TABLE.
 */
void capfix_read(struct device *dev, struct capfix_table *t);

/*
 * The advice for r on a device at path whose table is t (NULL: not
 * read, as CAPFIX_NO_TABLE): its kind, and the command (for SHRINK and
 * REPLACE, else "") in cmd.
 */
enum capfix_how capfix_plan(const struct capacity_result *r,
			    struct capfix_table *t, const char *path,
			    char *cmd, size_t len);

/* The report's "to do:" lines. */
void capfix_print(FILE *out, const struct capacity_result *r,
		  struct capfix_table *t, const char *path);

/* JSON members fix ("nothing", "no_data", "keep", "shrink", "replace")
 * and fix_command (null when there is none). */
struct json;
void capfix_json(struct json *j, const struct capacity_result *r,
		 struct capfix_table *t, const char *path);

#endif /* FLASHBENCH_CAPFIX_H */
