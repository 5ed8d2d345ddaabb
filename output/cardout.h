/* SPDX-License-Identifier: GPL-2.0-only */
/* The card's own word, printed: as text, and made ready for JSON. */
#ifndef FLASHBENCH_CARDOUT_H
#define FLASHBENCH_CARDOUT_H

#include <stdio.h>

#include "card.h"
#include "cardrec.h"
#include "json.h"

/* What the registers say, one indented line per fact. */
void card_print(FILE *out, const struct card_raw *raw,
		const struct card_info *ci);

/*
 * The card's record (identity, claims, raw registers, what is missing)
 * made from what was read and decoded, for the card table to write.
 */
void card_doc_fill(struct card_doc *d, const struct card_raw *raw,
		   const struct card_info *ci);

#endif /* FLASHBENCH_CARDOUT_H */
