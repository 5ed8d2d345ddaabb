/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The erase size measured beside what the card states (the AU in its SSR,
 * an eMMC's EXT_CSD) and what the kernel says (preferred_erase_size), with
 * why they differ; an eMMC's page sizes beside the page measured, and its
 * health.
 */
#ifndef FLASHBENCH_RECONCILE_H
#define FLASHBENCH_RECONCILE_H

#include <stdint.h>
#include <stdio.h>

#include "card.h"
#include "json.h"

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

/* How stated relates to measured. */
enum reconcile_fit reconcile_fit(uint64_t measured, uint64_t stated);

/* Compare measured with what raw and info say (an EXT_CSD included). */
void reconcile(struct reconcile *rc, uint64_t measured_byte,
	       const struct card_raw *raw, const struct card_info *info);

/*
 * Set what the EXT_CSD e states (e->have 0: nothing) against
 * rc->measured_byte; reconcile() calls it.
 */
void reconcile_ext_csd(struct reconcile *rc, const struct ext_csd_info *e);

/* The page measured (0: none) against the EXT_CSD's page sizes. */
void reconcile_page(struct reconcile *rc, uint64_t page_byte);

/* Nonzero when there is something to say (a stated AU or the kernel's). */
int reconcile_any(const struct reconcile *rc);

/* The lines of --auto: the sizes side by side and why they differ. */
void reconcile_print(FILE *out, const struct reconcile *rc);

/* The object "reconcile" of --auto --json. */
void reconcile_json(struct json *j, const struct reconcile *rc);

#endif /* FLASHBENCH_RECONCILE_H */
