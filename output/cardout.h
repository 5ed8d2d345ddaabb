/* SPDX-License-Identifier: GPL-2.0-only */
/* The card's own word, printed: as text and as JSON's device.card. */
#ifndef FLASHBENCH_CARDOUT_H
#define FLASHBENCH_CARDOUT_H

#include <stdio.h>

#include "card.h"
#include "json.h"

/* What the registers say, one indented line per fact. */
void card_print(FILE *out, const struct card_raw *raw,
		const struct card_info *ci);

/*
 * The object "card": identity, claims, raw registers, what is missing;
 * serial_hash (NULL: none) written beside a serial hidden (--hide-serial).
 */
void card_json(struct json *j, const struct card_raw *raw,
	       const struct card_info *ci, const char *serial_hash);

#endif /* FLASHBENCH_CARDOUT_H */
