/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The class check's record (-L's "results", --auto --destructive's
 * "class"): what the check measured and judged (struct class_result,
 * which modes/class.c fills and the plots read), one entry per class
 * checked, what was measured and what the class requires, and its table
 * of fields (rectab.h).  modes/class.c fills the entries from what it
 * measured and judged; --analyze reads the measured figures back and
 * judges them again.
 */
#ifndef FLASHBENCH_CLASSREC_H
#define FLASHBENCH_CLASSREC_H

#include <stddef.h>
#include <stdint.h>

#include "cacherec.h"
#include "rectab.h"

#define CLASS_NR		13	/* C2 C4 C6 C10 U1 U3 V6..V90 A1 A2 */

enum class_kind { CLASS_SPEED, CLASS_UHS, CLASS_VIDEO, CLASS_APP };

/* Where and how much --class writes. */
struct class_plan {
	uint64_t unit_byte;	/* AU, or 4 MiB when the AU is larger */
	uint64_t offset_byte;	/* first unit; then the random region */
	unsigned int units;
	uint64_t span_byte;	/* random region */
	unsigned int ops;	/* random reads and writes, each */
	int past_cache;		/* -L: first write past a write cache */
	uint64_t cache_cap_byte; /* at most so much (0: the default) */
	int sustained;		/* or the device's first half */
};

/* One sequential run: all units in recording units of ru_byte. */
struct class_seq {
	uint64_t ru_byte;
	double min_mbps;	/* slowest unit, 10^6 bytes/s */
	uint64_t max_write_ns;	/* longest single write */
};

/* One class checked. */
struct class_check {
	char name[8];		/* "C10" */
	enum class_kind kind;
	int level;		/* 10 for C10 and V10, 1 for U1 and A1 */
	int claimed;		/* the card states it */
	int pass;
	int writes_only;	/* failed only on random writes (A2) */
	unsigned int qd;	/* A1/A2: queue depth judged at (1, 4) */
	double need_mbps;	/* required sequential rate */
	double need_read_iops, need_write_iops; /* A1/A2 */
	int within;		/* not pass: met only where a write cache
				   larger than the writes before may have
				   taken the writes (unsure) */
};

/* What the check measured and judged. */
struct class_result {
	struct class_plan plan;
	struct class_seq sd;	/* 64 KiB recording units */
	struct class_seq uhs;	/* 512 KiB recording units */
	double read_iops;	/* random 4 KiB, queue depth 1 */
	double write_iops;
	unsigned int reads, writes;	/* random I/O done */
	double read_iops_qd4;	/* random 4 KiB, queue depth 4 */
	double write_iops_qd4;
	unsigned int reads_qd4, writes_qd4;	/* random I/O done */
	uint64_t device_ns;	/* device time of the whole test */
	int all;		/* the card states no class: all checked */
	int unknown;		/* no SD status register was read */
	struct auto_cache cache; /* writing past a write cache first (-L's
				  * own, or the --auto run's) */
	uint64_t cache_ns;	/* of device_ns, -L's own writing past it */
	size_t n;
	struct class_check c[CLASS_NR];
};

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
	int within;			/* not pass: met only within what a
					 * write cache may have taken */
	struct class_measured measured;
	struct class_required required;
};

/* The classes a record judged otherwise (record_said's "classes"). */
struct class_said {
	struct class_entry e[CLASS_NR];
	size_t n;
};

/*
 * An entry's fields; the entry of "record_said" (name and pass), and
 * record_said's member of them (over struct class_said).
 */
extern const struct rt_table class_entry_table;
extern const struct rt_table class_said_table;
extern const struct rt_table class_said_list_table;

#endif /* FLASHBENCH_CLASSREC_H */
