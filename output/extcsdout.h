/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * An eMMC's EXT_CSD, shown: the lines --registers prints beside the SD
 * registers (the JSON is record/cardrec.c's).
 */
#ifndef FLASHBENCH_EXTCSDOUT_H
#define FLASHBENCH_EXTCSDOUT_H

#include <stdio.h>

#include "extcsd.h"

/* What the EXT_CSD states, one indented line per concern, and its health. */
void ext_csd_print(FILE *out, const struct ext_csd_info *e);

#endif /* FLASHBENCH_EXTCSDOUT_H */
