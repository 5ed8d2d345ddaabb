/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The card's own word: the registers an SD card keeps (CID, CSD, SCR, SSR)
 * and what the kernel shows of them in sysfs, read and decoded, and an
 * eMMC's EXT_CSD (extcsd.h) beside them.  The bit positions are those of
 * the SD Physical Layer specification; a register is a hex string with
 * its highest bit first, as sysfs prints it.
 */
#ifndef FLASHBENCH_CARD_H
#define FLASHBENCH_CARD_H

#include <stddef.h>
#include <stdint.h>

#include "extcsd.h"

/* The files read, in sysfs's names. */
enum card_file {
	CF_CID, CF_CSD, CF_SCR, CF_SSR, CF_TYPE, CF_NAME, CF_MANFID,
	CF_OEMID, CF_DATE, CF_SERIAL, CF_HWREV, CF_FWREV,
	CF_PREFERRED_ERASE_SIZE, CF_ERASE_SIZE, CF_LIFE_TIME,
	CF_PRE_EOL_INFO, CF_VENDOR, CF_MODEL, CF_NR
};

#define CARD_VAL_MAX	136	/* an SSR is 128 hex digits */
#define CARD_NOTES	8
#define CARD_NOTE_MAX	128

/* Where the files came from: what a missing one means. */
enum card_source {
	CARD_NONE,	/* a regular file: no sysfs at all */
	CARD_DIR,	/* --registers DIR */
	CARD_SYSFS,	/* a block device's sysfs directory */
	CARD_SIM,	/* the simulated card */
};

/* What stood where a register file was expected (card_raw.not_file). */
#define CARD_IS_DIR	1	/* a directory */
#define CARD_NOT_REG	2	/* a device, a FIFO ... */

/*
 * The files as read, trimmed; have[f] when the file was there, not_file[f]
 * (CARD_IS_DIR, CARD_NOT_REG) when something else stood in its place.
 * An eMMC's EXT_CSD (the file ext_csd, or the device asked) is in ext
 * (ext.form EXT_CSD_NONE when not read); ext_err is -errno when it was
 * there but could not be read, with the reason in ext_why.
 */
struct card_raw {
	enum card_source source;
	char val[CF_NR][CARD_VAL_MAX];
	unsigned char have[CF_NR];
	unsigned char not_file[CF_NR];
	struct ext_csd_raw ext;
	int ext_err;
	char ext_why[CARD_NOTE_MAX + 64];
};

/* sysfs's name of each file, indexed by enum card_file. */
extern const char *const card_file_names[CF_NR];

/* The length in bits of CID, CSD, SCR and SSR. */
#define CARD_CID_BITS	128
#define CARD_CSD_BITS	128
#define CARD_SCR_BITS	64
#define CARD_SSR_BITS	512

struct card_cid {
	unsigned int mid;	/* manufacturer ID [127:120] */
	unsigned int oid;	/* OEM/application ID [119:104] */
	char pnm[6];		/* product name [103:64] */
	unsigned int prv;	/* product revision [63:56], BCD n.m */
	uint32_t psn;		/* serial number [55:24] */
	unsigned int year;	/* [19:12] + 2000 */
	unsigned int month;	/* [11:8] */
};

struct card_csd {
	unsigned int structure;	/* [127:126]: 0 = v1, 1 = v2 */
	uint64_t capacity_byte;	/* 0 when the structure is unknown */
};

struct card_scr {
	unsigned int sd_spec;	/* [59:56] */
	unsigned int data_after_erase; /* [55] */
	unsigned int spec3;	/* [47] */
	unsigned int spec4;	/* [42] */
	unsigned int specx;	/* [41:38] */
};

struct card_ssr {
	unsigned int speed_class;	/* [447:440] code */
	unsigned int perf_move;		/* [439:432] MB/s */
	unsigned int au_code;		/* [431:428] */
	unsigned int erase_size;	/* [423:408] AUs */
	unsigned int erase_timeout;	/* [407:402] s */
	unsigned int erase_offset;	/* [401:400] s */
	unsigned int uhs_grade;		/* [399:396] */
	unsigned int uhs_au_code;	/* [395:392] */
	unsigned int video_class;	/* [391:384] */
	unsigned int app_class;		/* [339:336] */
	unsigned int discard;		/* [313] */
};

/* A card's stated classes: -1 when unknown (0 = states none). */
struct card_claims {
	int speed_class;	/* 0, 2, 4, 6, 10 */
	int uhs_grade;		/* 0, 1, 3 */
	int video_class;	/* 0, 6, 10, 30, 60, 90 */
	int app_class;		/* 0, 1, 2 */
};

/* Everything decoded, with the identity from the CID or the kernel. */
struct card_info {
	int have_cid, have_csd, have_scr, have_ssr;
	struct card_cid cid;
	struct card_csd csd;
	struct card_scr scr;
	struct card_ssr ssr;
	int64_t manfid, oemid, serial;	/* -1: unknown */
	char name[16];			/* "" unknown, likewise below */
	char revision[16];		/* "n.m" */
	char date[16];			/* "YYYY-MM" */
	struct card_claims claims;
	struct ext_csd_info ext;	/* an eMMC's EXT_CSD (ext.have) */
	uint64_t au_byte;		/* AU the SSR states, 0: none */
	uint64_t uhs_au_byte;		/* UHS AU, 0: none */
	size_t nr_notes;		/* what is wrong with what was read */
	char note[CARD_NOTES][CARD_NOTE_MAX];
};

/*
 * Check that hex holds exactly bits / 4 hex digits.  Returns 0 or
 * -EINVAL with the reason in why.
 */
int card_check_hex(const char *hex, unsigned int bits, char *why,
		   size_t len);

/* Bits [hi:lo] (at most 32) of a checked register of the given length. */
uint32_t card_bits(const char *hex, unsigned int bits, unsigned int hi,
		   unsigned int lo);

/* Set bits [hi:lo] of a register of '0'..'f' digits to v (for the sim). */
void card_set_bits(char *hex, unsigned int bits, unsigned int hi,
		   unsigned int lo, uint32_t v);

/* The AU of SSR AU_SIZE code 1..15, 0 for 0 or reserved codes. */
uint64_t card_au_byte(unsigned int code);

/* The AU_SIZE code of an AU size, 0 when no code states it. */
unsigned int card_au_code(uint64_t au_byte);

/* Decode raw into info; never fails (problems go to info->note). */
void card_decode(const struct card_raw *raw, struct card_info *info);

/*
 * Read the files of dir (any subset, ext_csd among them) into raw as
 * source.  Returns the number of files found.
 */
size_t card_read_dir(const char *dir, enum card_source source,
		     struct card_raw *raw);

/*
 * Nonzero if raw holds any SD/MMC file (a register or an attribute of the
 * kernel's MMC core), not only the vendor and model any disk may have.
 */
int card_is_sd_mmc(const struct card_raw *raw);

/*
 * Read the sysfs files of the block device at path (CARD_NONE if none)
 * and, on an eMMC, its EXT_CSD (card_read_ext_csd).
 */
size_t card_read_device(const char *path, struct card_raw *raw);

/*
 * Ask the device at path for its EXT_CSD (root only) into raw->ext;
 * returns 0, or -errno with the reason in raw->ext_err and ext_why.
 */
int card_read_ext_csd(const char *path, struct card_raw *raw);

/*
 * What is missing and why, in one line, into buf ("" when nothing is).
 * Never blames the card: a USB bridge or an old kernel hides registers.
 */
void card_missing(const struct card_raw *raw, char *buf, size_t len);

/*
 * Parse claims such as "C10+U1+V30+A1" (speed, UHS, video, application
 * class; each family at most once).  Families not named are 0.  Returns
 * 0 or -EINVAL with the reason in why.
 */
int card_parse_claims(const char *s, struct card_claims *c, char *why,
		      size_t len);

/*
 * The preferred_erase_size the kernel sets: the AU the SSR states, else a
 * guess from the capacity (512 KiB below 128 MiB ... 4 MiB from 1 GiB).
 */
uint64_t card_kernel_pref(uint64_t size_byte, uint64_t au_byte);

/*
 * Build the registers of a card of size_byte that states au_byte (0:
 * none) and claims c, as sysfs would show them, into raw.
 */
void card_build(struct card_raw *raw, uint64_t size_byte, uint64_t au_byte,
		const struct card_claims *c, uint64_t serial);

#endif /* FLASHBENCH_CARD_H */
