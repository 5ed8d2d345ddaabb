/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The card's own word as a record keeps it (device.card): the identity
 * (its serial's hash in its place under --hide-serial), the AU and the
 * classes it states, its capacity, the register files as read (an
 * eMMC's EXT_CSD decoded) and what was missing, with its tables of
 * fields (rectab.h).  output/cardout.c fills it from what was read
 * (card_doc_fill()), front/jsonout.c writes it in the record's head;
 * --survey and --analyze read it back.
 */
#ifndef FLASHBENCH_CARDREC_H
#define FLASHBENCH_CARDREC_H

#include "card.h"
#include "json.h"
#include "jsonread.h"
#include "rectab.h"

/* What the card table is over. */
struct card_doc {
	struct card_info ci;		/* decoded; read back: the identity
					 * (-1 and "" unknown), the AU, the
					 * claims (-1 unknown) */
	char serial_hash[12];		/* a serial hidden (--hide-serial):
					 * its hash; "" none, left out */
	/* writing only: */
	const struct card_raw *raw;	/* the files as read */
	char missing[256];		/* card_missing() of raw */
};

extern const struct rt_table card_table;
extern const struct rt_table ext_csd_table;	/* registers' EXT_CSD */

/* The member of the card object at offset member of struct card_doc. */
#define CARD_KEY(member) \
	rt_key(&card_table, offsetof(struct card_doc, member))

/* A card_doc to read into: everything unknown. */
void card_doc_init(struct card_doc *d);

/* Read the card object o loosely into d (after card_doc_init()). */
void card_doc_read(const struct jr_value *o, struct card_doc *d);

/* The card object's "registers" (NULL: none). */
const struct jr_value *card_doc_registers(const struct jr_value *card);

/* The EXT_CSD's hex digits among the card object's registers, or NULL. */
const char *card_doc_ext_hex(const struct jr_value *card);

#endif /* FLASHBENCH_CARDREC_H */
