/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * An eMMC's EXT_CSD asked of the device: CMD8 through the kernel's
 * MMC_IOC_CMD ioctl (root only).
 */
#ifndef FLASHBENCH_MMCIOC_H
#define FLASHBENCH_MMCIOC_H

#include <stddef.h>

#include "extcsd.h"

/*
 * Read the EXT_CSD of the eMMC at path (the whole device, /dev/mmcblkN)
 * into raw (form EXT_CSD_IOCTL).  Returns 0, or -errno with the reason in
 * one phrase in why: -ENOTTY not an MMC block device, -EACCES or -EPERM
 * not root (or a partition), another -errno as the kernel said.
 */
int ext_csd_read_device(const char *path, struct ext_csd_raw *raw,
			char *why, size_t why_len);

#endif /* FLASHBENCH_MMCIOC_H */
