/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * An eMMC's EXT_CSD, shown: the lines --registers prints beside the SD
 * registers, and registers.ext_csd of the JSON's device.card.
 */
#ifndef FLASHBENCH_EXTCSDOUT_H
#define FLASHBENCH_EXTCSDOUT_H

#include <stdio.h>

#include "extcsd.h"
#include "json.h"

/* What the EXT_CSD states, one indented line per concern, and its health. */
void ext_csd_print(FILE *out, const struct ext_csd_info *e);

/*
 * The object key (the registers' EXT_CSD): how it was read, its 1,024
 * hex digits, and each field by its JEDEC name with its value and its
 * size in bytes (null where the device does not state it).
 */
void ext_csd_json(struct json *j, const char *key,
		  const struct ext_csd_raw *raw, const struct ext_csd_info *e);

#endif /* FLASHBENCH_EXTCSDOUT_H */
