// SPDX-License-Identifier: GPL-2.0-only
/*
 * An eMMC's EXT_CSD asked of the device itself, as mmc-utils does: CMD8
 * (SEND_EXT_CSD), a 512-byte read, through the MMC_IOC_CMD ioctl of the
 * kernel's MMC block driver.  The kernel lets only CAP_SYS_RAWIO (root)
 * send it, and only on the whole device, not a partition.  Only the
 * kernel's UAPI header is used; the command's response flags live in a
 * header the kernel does not export, so they are spelled out here.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/mmc/ioctl.h>

#include "mmcioc.h"

/* The kernel's include/linux/mmc/core.h: what CMD8 answers with. */
#define MMC_FLAG_RSP_PRESENT	(1u << 0)
#define MMC_FLAG_RSP_CRC	(1u << 2)
#define MMC_FLAG_RSP_OPCODE	(1u << 4)
#define MMC_FLAG_CMD_ADTC	(1u << 5)	/* addressed, with data */
#define MMC_FLAG_RSP_SPI_S1	(1u << 7)
#define MMC_FLAG_RSP_R1		(MMC_FLAG_RSP_PRESENT | MMC_FLAG_RSP_CRC | \
				 MMC_FLAG_RSP_OPCODE)
#define MMC_CMD_SEND_EXT_CSD	8

/* What a file that is no block device is, for the message. */
static const char *file_kind(mode_t mode)
{
	return S_ISCHR(mode) ? "a character device" :
	       S_ISDIR(mode) ? "a directory" :
	       S_ISREG(mode) ? "a regular file" : "not a block device";
}

/* Say why; returns err. */
static int fail(int err, char *why, size_t len, const char *what)
{
	snprintf(why, len, "%s", what);
	return err;
}

/* CMD8 on the open block device fd into buf; 0 or -errno. */
static int send_ext_csd(int fd, uint8_t *buf, char *why, size_t len)
{
	struct mmc_ioc_cmd cmd;
	char msg[160];
	int err;

	memset(&cmd, 0, sizeof(cmd));
	cmd.opcode = MMC_CMD_SEND_EXT_CSD;
	cmd.flags = MMC_FLAG_RSP_SPI_S1 | MMC_FLAG_RSP_R1 | MMC_FLAG_CMD_ADTC;
	cmd.blksz = EXT_CSD_BYTES;
	cmd.blocks = 1;
	mmc_ioc_cmd_set_data(cmd, buf);
	if (!ioctl(fd, MMC_IOC_CMD, &cmd))
		return 0;
	err = errno;
	if (err == ENOTTY || err == EINVAL) {
		snprintf(msg, sizeof(msg),
			 "not an MMC block device (MMC_IOC_CMD: %s)",
			 strerror(err));
		return fail(-ENOTTY, why, len, msg);
	}
	if (err == EPERM || err == EACCES)
		return fail(-err, why, len,
			    "MMC_IOC_CMD needs root (CAP_SYS_RAWIO) and the whole device, not a partition");
	snprintf(msg, sizeof(msg), "MMC_IOC_CMD (CMD8): %s", strerror(err));
	return fail(-err, why, len, msg);
}

int ext_csd_read_device(const char *path, struct ext_csd_raw *raw,
			char *why, size_t why_len)
{
	uint8_t buf[EXT_CSD_BYTES];
	char msg[160];
	struct stat st;
	int fd, ret;

	memset(raw, 0, sizeof(*raw));
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		snprintf(msg, sizeof(msg), "%s%s", strerror(-ret),
			 ret == -EACCES || ret == -EPERM ?
			 " (reading the EXT_CSD needs root)" : "");
		return fail(ret, why, why_len, msg);
	}
	if (fstat(fd, &st)) {
		ret = -errno;
		close(fd);
		return fail(ret, why, why_len, strerror(-ret));
	}
	if (!S_ISBLK(st.st_mode)) {
		snprintf(msg, sizeof(msg), "not an MMC block device (%s)",
			 file_kind(st.st_mode));
		close(fd);
		return fail(-ENOTTY, why, why_len, msg);
	}
	ret = send_ext_csd(fd, buf, why, why_len);
	close(fd);
	if (ret)
		return ret;
	if (ext_csd_parse(buf, sizeof(buf), raw, msg, sizeof(msg)))
		return fail(-EIO, why, why_len, msg);
	raw->form = EXT_CSD_IOCTL;
	return 0;
}
