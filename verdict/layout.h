/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Where --auto's steps read and write: pure functions of the device's
 * size and logical block size (verdict/layout.c).  The probes place their
 * I/O with them, the front end announces and saves what the write steps
 * may overwrite, and a record read back is judged with them (whether the
 * erase search had room).
 */
#ifndef FLASHBENCH_LAYOUT_H
#define FLASHBENCH_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "autorecord.h"
#include "ranges.h"

#define AUTO_AU_SPACING 12	/* probe AUs are every 12th AU, as -O */
#define AUTO_MAX_RANGES 256	/* ranges the write steps announce */

/* The first AU of the open-AU probes: past the FAT probe and 64 MiB. */
uint64_t auto_probe_base(uint64_t erase);
/* AUs between probe AUs. */
uint64_t auto_probe_spacing(uint64_t dev_size, uint64_t erase);
/* The largest nr the device has room for, at most AUTO_MAX_NR. */
unsigned int auto_probe_max_nr(uint64_t dev_size, uint64_t erase);
/* The AUs far from the start that an ordinary AU is measured in. */
uint64_t auto_fat_ref_au(uint64_t dev_size, uint64_t erase, unsigned int j);
/* How many AUs the FAT probe may look at, and must. */
unsigned int auto_fat_max_scan(uint64_t dev_size, uint64_t erase);
unsigned int auto_fat_min_scan(uint64_t dev_size, uint64_t erase);
/* Block size of align table i on a device of lbs-byte logical blocks. */
uint64_t auto_table_block(size_t i, unsigned int lbs);
/* The smallest spacing (3 * 2^n) of a table of bs-byte blocks. */
uint64_t auto_min_spacing(uint64_t bs);

#define SEARCH_MIN (128ULL << 10)	/* smallest size looked for */
#define SEARCH_MAX_CANDS 40
#define SEARCH_DATA_MAX (1ULL << 20)	/* data per warm-up position on a
					   card that copies nothing */

/* Where the erase search writes; a function of the device alone. */
struct search_layout {
	uint64_t chunk;			/* write size */
	uint64_t top;			/* largest size looked for */
	uint64_t warm_start;		/* first warm-up write */
	uint64_t warm_cap;		/* largest warm-up step */
	uint64_t anchor[AUTO_ERASE_ANCHORS];
	uint64_t cand[SEARCH_MAX_CANDS]; /* 2^n and 3 * 2^n, ascending */
	size_t ncand;
};

/* The step after warm-up write i. */
uint64_t auto_warm_step(const struct search_layout *l, unsigned int i);
/* Where the erase search writes on a device: 0 or -EINVAL (too small). */
int auto_search_layout(uint64_t dev_size, unsigned int lbs,
		       struct search_layout *l);

/*
 * The smallest device, in bytes, --auto can survey: its first align
 * table must fit (on a device with logical blocks of lbs bytes).
 */
uint64_t auto_min_size(unsigned int lbs);

/*
 * The ranges the write steps overwrite on a device of dev_size bytes with
 * AUs of erase_byte, merged and sorted.  Returns how many (at most max),
 * or -ENOSPC.
 */
int auto_write_ranges(uint64_t dev_size, uint64_t erase_byte,
		      struct bench_range *ranges, size_t max);

/*
 * The small ranges the erase search from writes may overwrite on a device
 * of dev_size bytes and logical blocks of lbs, merged and sorted.  Returns
 * how many (at most max), -ENOSPC, or -EINVAL when the device is too small
 * for the search.
 */
int auto_search_ranges(uint64_t dev_size, unsigned int lbs,
		       struct bench_range *ranges, size_t max);

#endif /* FLASHBENCH_LAYOUT_H */
