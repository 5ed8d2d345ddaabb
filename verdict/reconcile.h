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

#include "autotab.h"
#include "card.h"
#include "json.h"

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

/*
 * The write cache --auto measured (0: none) against the pSLC area the
 * EXT_CSD says the eMMC can make (MAX_ENH_SIZE_MULT).
 */
void reconcile_cache(struct reconcile *rc, uint64_t cache_byte);

/* The page measured (0: none) against the EXT_CSD's page sizes. */
void reconcile_page(struct reconcile *rc, uint64_t page_byte);

/* Nonzero when there is something to say (a stated AU or the kernel's). */
int reconcile_any(const struct reconcile *rc);

/* The lines of --auto: the sizes side by side and why they differ. */
void reconcile_print(FILE *out, const struct reconcile *rc);

/* The object "reconcile" of --auto --json. */
void reconcile_json(struct json *j, const struct reconcile *rc);

#endif /* FLASHBENCH_RECONCILE_H */
