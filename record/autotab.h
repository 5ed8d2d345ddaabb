/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * --auto's verdict, advice and reconcile as the record keeps them
 * ("verdict", "advice", "reconcile"), with their tables of fields
 * (rectab.h).  output/autojson.c
 * fills them from a decided struct auto_result; --analyze compares the
 * verdict it decides today with a record's through the same rows.
 */
#ifndef FLASHBENCH_AUTOTAB_H
#define FLASHBENCH_AUTOTAB_H

#include <stdint.h>

#include "cacherec.h"
#include "caprec.h"
#include "latrec.h"
#include "rectab.h"

/*
 * The verdict: each size 0 when not found (written null), each count
 * with a flag saying it was measured, each confidence an enum
 * analyze_confidence.
 */
struct auto_verdict_rec {
	uint64_t erase_byte, page_byte, plane_byte, group_byte;
	int erase_conf, page_conf, plane_conf, group_conf;
	int open_linear_known, open_random_known;
	unsigned int open_linear_nr, open_random_nr;
	int open_linear_conf, open_random_conf;
	int open_linear_at_least, open_random_at_least;	/* nr: a bound */
	int fat_measured, fat_found;
	uint64_t fat_start, fat_start_byte;	/* AUs; bytes */
	uint64_t fat_count;			/* AUs (0: none found) */
	int fat_conf;
	const char *fat_writes;		/* "both", "linear", "random", NULL */
	const char *timing_noise;	/* its level, NULL: not counted */
	const char *erase_from;		/* "reads", "writes", ... */
	int destructive, capacity_done;
	struct capacity_result capacity;
	const char *mapping;		/* "pages", "aus", NULL: unknown */
	int mapping_conf;
	unsigned int mapping_aus;	/* AUs open, or held up to */
	const char *mapping_reason;	/* NULL unless unknown */
	uint64_t mapping_unit_byte;	/* pages: the unit, 0 not seen */
	int mapping_unit_conf;
	int cache_measured;		/* the write-cache step ran */
	int cache_dropped;		/* and saw a cache */
	struct cache_verdict_rec cache;
	struct auto_latency latency;	/* the run's single writes */
};

/* The advice: what to do with the sizes found. */
struct auto_advice_rec {
	int erase_known;		/* the three below are there */
	uint64_t sector_byte;
	uint64_t start_sector, start_byte;
	uint64_t ext4_stride, ext4_stripe_width;	/* 4 KiB blocks */
	uint64_t f2fs_segs;		/* 2 MiB segments per section */
	uint64_t max_sectors, max_byte;	/* 0: no limit */
	int no_data;
};

/* --auto's erase size beside what the card and the kernel state. */
/* How a stated size relates to the measured one. */
enum reconcile_fit {
	FIT_UNKNOWN,	/* one of them is not known */
	FIT_AGREES,	/* equal */
	FIT_SUBUNIT,	/* an AU above 4 MiB measured in 4 MiB sub-units */
	FIT_MULTIPLE,	/* a multiple or divisor: consistent */
	FIT_DISAGREES,
};

/* Where the kernel's preferred_erase_size came from. */
enum reconcile_kernel {
	KERNEL_NONE,	/* not shown */
	KERNEL_FROM_SSR,	/* the AU the SSR states */
	KERNEL_GUESS,	/* a guess from the capacity: the SSR states no AU */
	KERNEL_OTHER,	/* eMMC or otherwise */
};

/* What an eMMC's EXT_CSD states, beside what was measured. */
struct reconcile_emmc {
	int have;			/* an EXT_CSD was read */
	uint64_t erase_group_byte;	/* HC_ERASE_GRP_SIZE, 0 not stated */
	uint64_t large_unit_byte;	/* LARGE_UNIT_SIZE_M1, 0 not stated */
	enum reconcile_fit erase_group_fit, large_unit_fit; /* vs erase */
	uint64_t page_byte;		/* the page measured, 0 none */
	uint64_t super_page_byte;	/* ACC_SIZE, 0 not stated */
	uint64_t optimal_write_byte;	/* OPTIMAL_WRITE_SIZE, 0 not stated */
	enum reconcile_fit super_page_fit, optimal_write_fit; /* vs page */
	/*
	 * The volatile cache it states (0: none or not stated).  Set against
	 * a write cache measured (issue 26 item 2) once --auto measures one:
	 * until then cache_fit stays FIT_UNKNOWN and the text says so.
	 */
	uint64_t cache_byte;
	enum reconcile_fit cache_fit;
	/*
	 * The pSLC area it can make (MAX_ENH_SIZE_MULT; 0 not stated)
	 * against the write cache --auto measured (0: none measured):
	 * within it (1), larger (2), or not known (0).
	 */
	uint64_t pslc_max_byte;
	uint64_t write_cache_byte;
	int write_cache_fit;
	char health[160];		/* ext_csd_health(), "" none stated */
};

struct reconcile {
	uint64_t measured_byte;		/* erase size found, 0 none */
	uint64_t stated_byte;		/* AU the SSR states, 0 none */
	uint64_t kernel_byte;		/* preferred_erase_size, 0 none */
	enum reconcile_fit stated_fit, kernel_fit;
	enum reconcile_kernel kernel_from;
	struct reconcile_emmc emmc;	/* an eMMC's EXT_CSD, where read */
};

extern const struct rt_table auto_verdict_table;
extern const struct rt_table auto_advice_table;
extern const struct rt_table reconcile_table;

#endif /* FLASHBENCH_AUTOTAB_H */
