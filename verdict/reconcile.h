/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The erase size measured beside what the card states (the AU in its SSR)
 * and what the kernel says (preferred_erase_size), with why they differ.
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

struct reconcile {
	uint64_t measured_byte;		/* erase size found, 0 none */
	uint64_t stated_byte;		/* AU the SSR states, 0 none */
	uint64_t kernel_byte;		/* preferred_erase_size, 0 none */
	enum reconcile_fit stated_fit, kernel_fit;
	enum reconcile_kernel kernel_from;
};

/* How stated relates to measured. */
enum reconcile_fit reconcile_fit(uint64_t measured, uint64_t stated);

/* Compare measured with what raw and info say. */
void reconcile(struct reconcile *rc, uint64_t measured_byte,
	       const struct card_raw *raw, const struct card_info *info);

/* Nonzero when there is something to say (a stated AU or the kernel's). */
int reconcile_any(const struct reconcile *rc);

/* The lines of --auto: the sizes side by side and why they differ. */
void reconcile_print(FILE *out, const struct reconcile *rc);

/* The object "reconcile" of --auto --json. */
void reconcile_json(struct json *j, const struct reconcile *rc);

#endif /* FLASHBENCH_RECONCILE_H */
