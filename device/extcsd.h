/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * An eMMC's own word: its 512-byte EXT_CSD register, read from the hex
 * string Linux prints in debugfs (either byte order), from 512 raw bytes,
 * or from the device (device/mmcioc.c), and decoded field by field with
 * the units of JEDEC JESD84-B51 (eMMC 5.1).  Pure: no I/O here.
 */
#ifndef FLASHBENCH_EXTCSD_H
#define FLASHBENCH_EXTCSD_H

#include <stddef.h>
#include <stdint.h>

#define EXT_CSD_BYTES	512

/* How the bytes were found. */
enum ext_csd_form {
	EXT_CSD_NONE,		/* not read */
	EXT_CSD_HEX,		/* debugfs hex string, byte 0 first */
	EXT_CSD_HEX_REVERSED,	/* hex string of kernels before about 2013,
				 * byte 511 first */
	EXT_CSD_BINARY,		/* 512 raw bytes */
	EXT_CSD_IOCTL,		/* read from the device (CMD8) */
};

/* The register as read, byte 0 first whatever the form. */
struct ext_csd_raw {
	enum ext_csd_form form;
	uint8_t b[EXT_CSD_BYTES];
};

/* The fields decoded, in the order the text and JSON give them. */
enum ext_csd_field {
	ECF_EXT_CSD_REV,
	ECF_SEC_COUNT,
	ECF_DEVICE_TYPE,
	ECF_HC_ERASE_GRP_SIZE,
	ECF_HC_WP_GRP_SIZE,
	ECF_ERASE_GROUP_DEF,
	ECF_ACC_SIZE,
	ECF_OPTIMAL_WRITE_SIZE,
	ECF_OPTIMAL_READ_SIZE,
	ECF_OPTIMAL_TRIM_UNIT_SIZE,
	ECF_LARGE_UNIT_SIZE_M1,
	ECF_DATA_SECTOR_SIZE,
	ECF_CACHE_SIZE,
	ECF_CACHE_CTRL,
	ECF_PARTITIONING_SUPPORT,
	ECF_MAX_ENH_SIZE_MULT,
	ECF_PARTITIONS_ATTRIBUTE,
	ECF_PARTITION_SETTING_COMPLETED,
	ECF_ENH_SIZE_MULT,
	ECF_ENH_START_ADDR,
	ECF_BOOT_SIZE_MULT,
	ECF_RPMB_SIZE_MULT,
	ECF_SEC_FEATURE_SUPPORT,
	ECF_DEVICE_LIFE_TIME_EST_TYP_A,
	ECF_DEVICE_LIFE_TIME_EST_TYP_B,
	ECF_PRE_EOL_INFO,
	ECF_SUPPORTED_MODES,
	ECF_FW_CONFIG,
	ECF_CMDQ_SUPPORT,
	ECF_CMDQ_DEPTH,
	ECF_NR
};

/* How a field's value becomes a size in bytes. */
enum ext_csd_unit {
	EU_NONE,	/* not a size */
	EU_SECTORS,	/* x 512 B */
	EU_512K,	/* x 512 KiB */
	EU_WP_GROUP,	/* x the erase group (HC_ERASE_GRP_SIZE) */
	EU_ENH,		/* x HC_WP_GRP_SIZE x HC_ERASE_GRP_SIZE x 512 KiB */
	EU_SUPER_PAGE,	/* 512 B x 2^(n-1), n 1..8 */
	EU_4K,		/* x 4 KiB */
	EU_4K_POW2,	/* 4 KiB x 2^(n-1), n 1..21 */
	EU_MIB_M1,	/* (n + 1) MiB */
	EU_KIBIBIT,	/* x 1024 bits = x 128 B */
	EU_128K,	/* x 128 KiB */
	EU_DATA_SECTOR,	/* 0: 512 B, 1: 4 KiB */
	EU_ADDRESS,	/* sectors on a device over 2 GiB, else bytes */
};

/* One field of the register. */
struct ext_csd_desc {
	const char *name;	/* JEDEC's name in lower case: the JSON key */
	const char *bytes_name;	/* the key of its size, NULL if none */
	unsigned short offset;	/* its first (lowest) byte */
	unsigned char len;	/* bytes, little-endian */
	unsigned char mask;	/* the bits the size is taken from, 0: all */
	unsigned char min_rev;	/* the EXT_CSD_REV it first appears in */
	unsigned char zero_null; /* 0 is JEDEC's "not defined" */
	enum ext_csd_unit unit;
};

/* The fields, indexed by enum ext_csd_field. */
extern const struct ext_csd_desc ext_csd_fields[ECF_NR];

#define EXT_CSD_NOTES		4
#define EXT_CSD_NOTE_MAX	128

/*
 * The register decoded.  A field is defined when the device states it:
 * its revision has it and, where JEDEC says 0 is "not defined", it is not
 * 0; value is the field as read (cmdq_depth: the queue depth, the field
 * plus one), bytes its size where known (has_bytes).
 */
struct ext_csd_info {
	int have;			/* an EXT_CSD was decoded */
	enum ext_csd_form form;
	unsigned int rev;		/* EXT_CSD_REV */
	uint64_t value[ECF_NR];
	uint64_t bytes[ECF_NR];
	unsigned char defined[ECF_NR];
	unsigned char has_bytes[ECF_NR];
	char firmware[17];		/* FIRMWARE_VERSION in hex, byte 254
					 * first; "" when not stated */
	size_t nr_notes;		/* what is odd in what was read */
	char note[EXT_CSD_NOTES][EXT_CSD_NOTE_MAX];
};

/*
 * Read an EXT_CSD from the contents of an ext_csd file, len bytes: 1,024
 * hex digits (white space anywhere is skipped) in either byte order, told
 * apart by S_CMD_SET (byte 504, bit 0 set on every eMMC) and EXT_CSD_REV
 * (byte 192, 0..8), or 512 raw bytes.  Returns 0, or -EINVAL with the
 * reason in why.
 */
int ext_csd_parse(const void *buf, size_t len, struct ext_csd_raw *raw,
		  char *why, size_t why_len);

/* Decode raw into e; never fails (what is odd goes to e->note). */
void ext_csd_decode(const struct ext_csd_raw *raw, struct ext_csd_info *e);

/* The field's value if the device states it (returns 1), else 0. */
int ext_csd_get(const struct ext_csd_info *e, enum ext_csd_field f,
		uint64_t *v);

/* The field's size in bytes, 0 when unknown. */
uint64_t ext_csd_bytes(const struct ext_csd_info *e, enum ext_csd_field f);

/* "5.1" for EXT_CSD_REV 8 ...; NULL for a revision JEDEC has not used. */
const char *ext_csd_version(unsigned int rev);

/* How the bytes were found, in words ("hex string, byte 0 first" ...). */
const char *ext_csd_form_text(enum ext_csd_form form);

/*
 * DEVICE_LIFE_TIME_EST_TYP_A/B in words: "0-10 %" ... "90-100 %",
 * "exceeded" (0x0B), "reserved"; into buf, returned.
 */
char *ext_csd_life_text(char *buf, size_t len, uint64_t v);

/* PRE_EOL_INFO in words: "normal", "warning", "urgent" or "reserved". */
const char *ext_csd_pre_eol_text(uint64_t v);

/*
 * The wear in one phrase, into buf (returned): "life time used 50-60 %
 * (type A), 50-60 % (type B), pre-EOL normal", each part the device
 * states; "" when it states none (before eMMC 5.0).
 */
char *ext_csd_health(char *buf, size_t len, const struct ext_csd_info *e);

#endif /* FLASHBENCH_EXTCSD_H */
