/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * --capacity's advice on a fake, the card's side: the partition table in
 * its first sector (an MBR; a GPT is only recognised), read before the
 * check may write over it.  The advice planned from it and shown (an
 * sfdisk(8) command that shrinks the one partition reaching past the
 * usable size and keeps the rest of the table, f3fix's job; else a new
 * table of one partition) is output/capfixtext.h.
 */
#ifndef FLASHBENCH_CAPFIX_H
#define FLASHBENCH_CAPFIX_H

#include "capfixtext.h"
#include "dev.h"

/*
 * Read the table in dev's first sector, untimed (the check's timings are
 * left as they are).  A table that cannot be read or is not understood
 * is CAPFIX_NO_TABLE.
 */
void capfix_read(struct device *dev, struct capfix_table *t);

#endif /* FLASHBENCH_CAPFIX_H */
