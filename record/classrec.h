/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The class check's record (-L's "results", --auto --destructive's
 * "class"): one entry per class checked, what was measured and what the
 * class requires, and its table of fields (rectab.h).  modes/class.c
 * fills the entries from what it measured and judged; --analyze reads
 * the measured figures back and judges them again.
 */
#ifndef FLASHBENCH_CLASSREC_H
#define FLASHBENCH_CLASSREC_H

#include <stdint.h>

#include "rectab.h"

/* What was measured for a class. */
struct class_measured {
	double write_mbps;		/* its run's slowest unit, 10^6 B/s */
	uint64_t longest_write_ns;
	uint64_t recording_unit;	/* bytes; 0: the class's own */
	int iops;			/* the four rates below are there (an
					 * application class) */
	double read_iops, write_iops;	/* random 4 KiB, queue depth 1 */
	double read_iops_qd4, write_iops_qd4; /* ... queue depth 4 */
};

/* What the class requires. */
struct class_required {
	double write_mbps;		/* 10^6 B/s */
	uint64_t longest_write_ns;
	int iops;			/* an application class: the three
					 * below are there */
	double read_iops, write_iops;	/* per second */
	unsigned int queue_depth;	/* of those figures */
};

/* One class checked, as the record keeps it. */
struct class_entry {
	const char *name;		/* "C10" */
	int claimed;			/* the card states it */
	int judged;			/* pass below is there */
	int pass;
	struct class_measured measured;
	struct class_required required;
};

/* An entry's fields; and the entry of "record_said" (name and pass). */
extern const struct rt_table class_entry_table;
extern const struct rt_table class_said_table;

#endif /* FLASHBENCH_CLASSREC_H */
