// SPDX-License-Identifier: GPL-2.0-only
/*
 * The eMMC's EXT_CSD (device/extcsd.c): every real dump of
 * tests/data/extcsd/ decodes to the values its source states (where a
 * source states nothing, to what mmc-utils' `mmc extcsd read` prints for
 * the same bytes), in both byte orders and as raw bytes; the units at
 * their edges; bad input named in one phrase.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c.h"
#include "extcsd.h"
#include "util.h"

/* Read and decode a dump; fails the test if it does not parse. */
static void decode_dump(const char *name, struct ext_csd_raw *raw,
			struct ext_csd_info *e)
{
	char buf[EXTCSD_DUMP_MAX], why[256] = "";
	size_t n = extcsd_dump(name, buf, sizeof(buf));

	ck_assert_msg(!ext_csd_parse(buf, n, raw, why, sizeof(why)),
		      "%s: %s", name, why);
	ext_csd_decode(raw, e);
	ck_assert_int_eq(e->have, 1);
}

/* A field stated (value, and bytes where a size), or null (NUL_). */
#define NUL_ UINT64_MAX

struct want {
	enum ext_csd_field f;
	uint64_t value;		/* NUL_: not stated */
	uint64_t bytes;		/* 0: not a size */
};

/* Check e against the list w. */
static void check_fields(const char *name, const struct ext_csd_info *e,
			 const struct want *w, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const char *field = ext_csd_fields[w[i].f].name;
		uint64_t v = 0;
		int have = ext_csd_get(e, w[i].f, &v);

		if (w[i].value == NUL_) {
			ck_assert_msg(!have, "%s: %s is %llu, not null", name,
				      field, (unsigned long long)v);
			continue;
		}
		ck_assert_msg(have, "%s: %s is null", name, field);
		ck_assert_msg(v == w[i].value, "%s: %s is %llu, not %llu",
			      name, field, (unsigned long long)v,
			      (unsigned long long)w[i].value);
		if (w[i].bytes)
			ck_assert_msg(ext_csd_bytes(e, w[i].f) == w[i].bytes,
				      "%s: %s is %llu bytes, not %llu", name,
				      field,
				      (unsigned long long)ext_csd_bytes(e,
							w[i].f),
				      (unsigned long long)w[i].bytes);
	}
}

#define KIB(n) ((uint64_t)(n) << 10)
#define MIB(n) ((uint64_t)(n) << 20)

/*
 * Samsung BJNB4R 32GB eMMC 5.1, as the bring-up report states it:
 * revision 8, 61071360 sectors (31268536320 bytes), CARD_TYPE 0x57,
 * boot and RPMB 0x20 (4 MiB each), partition config, bus width and timing
 * at power-on values, erase group 512 KiB and write-protect group 8 MiB;
 * CACHE_SIZE 0x10000, which the report reads as 64 MiB: it counts
 * kibibits, so 8 MiB.  The rest as mmc-utils prints it.
 */
static const struct want samsung[] = {
	{ ECF_EXT_CSD_REV, 8, 0 },
	{ ECF_SEC_COUNT, 61071360, 31268536320ULL },
	{ ECF_DEVICE_TYPE, 0x57, 0 },
	{ ECF_BOOT_SIZE_MULT, 0x20, MIB(4) },
	{ ECF_RPMB_SIZE_MULT, 0x20, MIB(4) },
	{ ECF_HC_ERASE_GRP_SIZE, 1, KIB(512) },
	{ ECF_HC_WP_GRP_SIZE, 0x10, MIB(8) },
	{ ECF_CACHE_SIZE, 0x10000, MIB(8) },
	{ ECF_ERASE_GROUP_DEF, 0, 0 },
	{ ECF_ACC_SIZE, 7, KIB(32) },
	{ ECF_LARGE_UNIT_SIZE_M1, 7, MIB(8) },
	{ ECF_OPTIMAL_WRITE_SIZE, 0x10, KIB(64) },
	{ ECF_OPTIMAL_READ_SIZE, NUL_, 0 },
	{ ECF_OPTIMAL_TRIM_UNIT_SIZE, 1, KIB(4) },
	{ ECF_MAX_ENH_SIZE_MULT, 0x747, KIB(15261696) },
	{ ECF_ENH_SIZE_MULT, 0, 0 },
	{ ECF_PARTITIONING_SUPPORT, 7, 0 },
	{ ECF_PARTITION_SETTING_COMPLETED, 0, 0 },
	{ ECF_DEVICE_LIFE_TIME_EST_TYP_A, 6, 0 },
	{ ECF_DEVICE_LIFE_TIME_EST_TYP_B, 6, 0 },
	{ ECF_PRE_EOL_INFO, 1, 0 },
	{ ECF_CMDQ_SUPPORT, 1, 0 },
	{ ECF_CMDQ_DEPTH, 16, 0 },
	{ ECF_CACHE_CTRL, 0, 0 },
	{ ECF_DATA_SECTOR_SIZE, 0, 512 },
	{ ECF_SEC_FEATURE_SUPPORT, 0x55, 0 },
};

/*
 * SanDisk DA4064 (PineBook Pro), from fwupd's emulation of the ioctl:
 * the firmware version fwupd reads is EXT_CSD bytes 254..261 ("56230a17"
 * in ASCII); field firmware update possible (SUPPORTED_MODES bit 0 set,
 * FW_CONFIG bit 0 clear).  The rest as mmc-utils prints it: the command
 * queue 32 deep, the cache 512 KiB and on.
 */
static const struct want sandisk[] = {
	{ ECF_EXT_CSD_REV, 8, 0 },
	{ ECF_SUPPORTED_MODES, 3, 0 },	/* FFU and VSM */
	{ ECF_FW_CONFIG, 0, 0 },
	{ ECF_SEC_COUNT, 0x0747c000, 0x0747c000ULL * 512 },
	{ ECF_HC_ERASE_GRP_SIZE, 1, KIB(512) },
	{ ECF_HC_WP_GRP_SIZE, 0x10, MIB(8) },
	{ ECF_ERASE_GROUP_DEF, 1, 0 },
	{ ECF_ACC_SIZE, 8, KIB(64) },
	{ ECF_LARGE_UNIT_SIZE_M1, 0, MIB(1) },
	{ ECF_OPTIMAL_WRITE_SIZE, 8, KIB(32) },
	{ ECF_OPTIMAL_READ_SIZE, 8, KIB(32) },
	{ ECF_OPTIMAL_TRIM_UNIT_SIZE, 8, KIB(512) },
	{ ECF_CACHE_SIZE, 0x1000, KIB(512) },
	{ ECF_CACHE_CTRL, 1, 0 },
	{ ECF_RPMB_SIZE_MULT, 0x80, MIB(16) },
	{ ECF_BOOT_SIZE_MULT, 0x20, MIB(4) },
	{ ECF_MAX_ENH_SIZE_MULT, 0x925, KIB(19177472) },
	{ ECF_DEVICE_LIFE_TIME_EST_TYP_A, 1, 0 },
	{ ECF_DEVICE_LIFE_TIME_EST_TYP_B, 1, 0 },
	{ ECF_PRE_EOL_INFO, 1, 0 },
	{ ECF_CMDQ_DEPTH, 32, 0 },
};

/*
 * The oznotes eMMC 4.41 part, as the script's sample output states it:
 * revision 5 (4.41), 3696 MiB (SEC_COUNT x 512 B), boot partitions and
 * RPMB 2048 KiB each (16 x 128 KiB), partitioning and enhanced area
 * supported, PRE_EOL not defined (it came with 5.0), SEC_FEATURE_SUPPORT
 * 0x15 (the script reads its bits mirrored).  Nothing of eMMC 4.5 and
 * later is stated: the cache, the large unit, the optimal sizes, the
 * health and the command queue are null.
 */
static const struct want oznotes1[] = {
	{ ECF_EXT_CSD_REV, 5, 0 },
	{ ECF_SEC_COUNT, 7569408, MIB(3696) },
	{ ECF_BOOT_SIZE_MULT, 0x10, KIB(2048) },
	{ ECF_RPMB_SIZE_MULT, 0x10, KIB(2048) },
	{ ECF_PARTITIONING_SUPPORT, 3, 0 },
	{ ECF_SEC_FEATURE_SUPPORT, 0x15, 0 },
	{ ECF_PRE_EOL_INFO, NUL_, 0 },
	{ ECF_DEVICE_LIFE_TIME_EST_TYP_A, NUL_, 0 },
	{ ECF_DEVICE_LIFE_TIME_EST_TYP_B, NUL_, 0 },
	{ ECF_HC_ERASE_GRP_SIZE, 1, KIB(512) },
	{ ECF_HC_WP_GRP_SIZE, 8, MIB(4) },
	{ ECF_ERASE_GROUP_DEF, 0, 0 },
	{ ECF_ACC_SIZE, 7, KIB(32) },
	{ ECF_MAX_ENH_SIZE_MULT, 0x15e, KIB(1433600) },
	{ ECF_ENH_SIZE_MULT, 0, 0 },
	{ ECF_CACHE_SIZE, NUL_, 0 },
	{ ECF_LARGE_UNIT_SIZE_M1, NUL_, 0 },
	{ ECF_OPTIMAL_WRITE_SIZE, NUL_, 0 },
	{ ECF_CMDQ_DEPTH, NUL_, 0 },
	{ ECF_SUPPORTED_MODES, NUL_, 0 },
};

/*
 * The other two oznotes dumps (their source states nothing): as
 * mmc-utils prints them, an eMMC 5.0 part.  Its optimal write size (4 x
 * 4 KiB) is its super-page (ACC_SIZE 6: 512 B x 2^5).
 */
static const struct want oznotes[] = {
	{ ECF_EXT_CSD_REV, 7, 0 },
	{ ECF_SEC_COUNT, 0xe90000, 0xe90000ULL * 512 },
	{ ECF_HC_ERASE_GRP_SIZE, 1, KIB(512) },
	{ ECF_HC_WP_GRP_SIZE, 0x10, MIB(8) },
	{ ECF_ERASE_GROUP_DEF, 1, 0 },
	{ ECF_ACC_SIZE, 6, KIB(16) },
	{ ECF_OPTIMAL_WRITE_SIZE, 4, KIB(16) },
	{ ECF_OPTIMAL_TRIM_UNIT_SIZE, 1, KIB(4) },
	{ ECF_OPTIMAL_READ_SIZE, NUL_, 0 },
	{ ECF_LARGE_UNIT_SIZE_M1, 7, MIB(8) },
	{ ECF_CACHE_SIZE, 0x10000, MIB(8) },
	{ ECF_MAX_ENH_SIZE_MULT, 0x136, KIB(2539520) },
	{ ECF_DEVICE_LIFE_TIME_EST_TYP_A, 1, 0 },
	{ ECF_DEVICE_LIFE_TIME_EST_TYP_B, 1, 0 },
	{ ECF_PRE_EOL_INFO, 1, 0 },
	{ ECF_CMDQ_SUPPORT, NUL_, 0 },
	{ ECF_CMDQ_DEPTH, NUL_, 0 },
};

static const struct dump {
	const char *name;
	enum ext_csd_form form;
	const struct want *w;
	size_t n;
} dumps[] = {
	{ "samsung-bjnb4r", EXT_CSD_HEX, samsung, ARRAY_SIZE(samsung) },
	{ "sandisk-da4064", EXT_CSD_HEX, sandisk, ARRAY_SIZE(sandisk) },
	{ "oznotes-extcsd1", EXT_CSD_HEX, oznotes1, ARRAY_SIZE(oznotes1) },
	{ "oznotes-extcsd1-reversed", EXT_CSD_HEX_REVERSED, oznotes1,
	  ARRAY_SIZE(oznotes1) },
	{ "oznotes-extcsd1-raw", EXT_CSD_BINARY, oznotes1,
	  ARRAY_SIZE(oznotes1) },
	{ "oznotes-extcsd", EXT_CSD_HEX, oznotes, ARRAY_SIZE(oznotes) },
	{ "oznotes-extcsd-on", EXT_CSD_HEX, oznotes, ARRAY_SIZE(oznotes) },
};

/* Each dump decodes to its source's values, found in its own form. */
START_TEST(test_dump_goldens)
{
	const struct dump *d = &dumps[_i];
	struct ext_csd_raw raw;
	struct ext_csd_info e;

	decode_dump(d->name, &raw, &e);
	ck_assert_int_eq(raw.form, d->form);
	ck_assert_int_eq(e.form, d->form);
	check_fields(d->name, &e, d->w, d->n);
	ck_assert_msg(e.nr_notes == 0, "%s: %s", d->name, e.note[0]);
}
END_TEST

/* hex of b, byte 511 first when backwards, into s (1025 bytes). */
static void to_hex(const uint8_t *b, int backwards, char *s)
{
	size_t i;

	for (i = 0; i < EXT_CSD_BYTES; i++)
		snprintf(s + 2 * i, 3, "%02x",
			 b[backwards ? EXT_CSD_BYTES - 1 - i : i]);
}

/*
 * Each dump printed the other way round (as a kernel before 2013 did, or
 * as today's from the reversed one) is found to be so and decodes the
 * same; so do its raw bytes.
 */
START_TEST(test_dump_both_orders)
{
	const struct dump *d = &dumps[_i];
	struct ext_csd_raw raw, again;
	struct ext_csd_info e;
	char hex[2 * EXT_CSD_BYTES + 2], why[256] = "";

	decode_dump(d->name, &raw, &e);
	to_hex(raw.b, 1, hex);
	ck_assert_msg(!ext_csd_parse(hex, strlen(hex), &again, why,
				     sizeof(why)), "%s", why);
	ck_assert_int_eq(again.form, EXT_CSD_HEX_REVERSED);
	ck_assert_mem_eq(again.b, raw.b, EXT_CSD_BYTES);
	to_hex(raw.b, 0, hex);
	strcat(hex, "\n");
	ck_assert_int_eq(ext_csd_parse(hex, strlen(hex), &again, why,
				       sizeof(why)), 0);
	ck_assert_int_eq(again.form, EXT_CSD_HEX);
	ck_assert_mem_eq(again.b, raw.b, EXT_CSD_BYTES);
	ck_assert_int_eq(ext_csd_parse(raw.b, EXT_CSD_BYTES, &again, why,
				       sizeof(why)), 0);
	ck_assert_int_eq(again.form, EXT_CSD_BINARY);
	ck_assert_mem_eq(again.b, raw.b, EXT_CSD_BYTES);
	ext_csd_decode(&again, &e);
	check_fields(d->name, &e, d->w, d->n);
}
END_TEST

/*
 * What the sources state beyond the decoded fields, read from the bytes:
 * the oznotes 4.41 part's CSD structure 2 (version 1.2), PARTITION_CONFIG
 * 0x48, BOOT_INFO 0x07, USER_WP 0; the Samsung's power-on PARTITION_CONFIG,
 * BUS_WIDTH and HS_TIMING; the two oznotes 5.0 dumps differ in USER_WP
 * and HS_TIMING only; the SanDisk's firmware version.
 */
START_TEST(test_dump_bytes)
{
	struct ext_csd_raw a, b;
	struct ext_csd_info e;
	size_t i, diff = 0;

	decode_dump("oznotes-extcsd1", &a, &e);
	ck_assert_uint_eq(a.b[194], 2);
	ck_assert_uint_eq(a.b[179], 0x48);
	ck_assert_uint_eq(a.b[228], 0x07);
	ck_assert_uint_eq(a.b[171], 0);
	ck_assert_str_eq(ext_csd_version(e.rev), "4.41");
	ck_assert_str_eq(e.firmware, "");
	decode_dump("samsung-bjnb4r", &a, &e);
	ck_assert_uint_eq(a.b[179] | a.b[183] | a.b[185], 0);
	ck_assert_str_eq(ext_csd_version(e.rev), "5.1");
	decode_dump("oznotes-extcsd", &a, &e);
	decode_dump("oznotes-extcsd-on", &b, &e);
	for (i = 0; i < EXT_CSD_BYTES; i++)
		diff += a.b[i] != b.b[i];
	ck_assert_uint_eq(diff, 2);
	ck_assert_uint_eq(a.b[171], 0x50);
	ck_assert_uint_eq(b.b[171], 0);
	ck_assert_uint_eq(a.b[185], 1);
	ck_assert_uint_eq(b.b[185], 0);
	ck_assert_str_eq(ext_csd_version(e.rev), "5.0");
	decode_dump("sandisk-da4064", &a, &e);
	ck_assert_str_eq(e.firmware, "3536323330613137");
	ck_assert_mem_eq(a.b + 254, "56230a17", 8);
}
END_TEST

/* The wear in words, the pre-EOL state, the revisions. */
START_TEST(test_words)
{
	char buf[32];

	ck_assert_str_eq(ext_csd_life_text(buf, sizeof(buf), 1), "0-10 %");
	ck_assert_str_eq(ext_csd_life_text(buf, sizeof(buf), 6), "50-60 %");
	ck_assert_str_eq(ext_csd_life_text(buf, sizeof(buf), 10), "90-100 %");
	ck_assert_str_eq(ext_csd_life_text(buf, sizeof(buf), 11), "exceeded");
	ck_assert_str_eq(ext_csd_life_text(buf, sizeof(buf), 12), "reserved");
	ck_assert_str_eq(ext_csd_pre_eol_text(1), "normal");
	ck_assert_str_eq(ext_csd_pre_eol_text(2), "warning");
	ck_assert_str_eq(ext_csd_pre_eol_text(3), "urgent");
	ck_assert_str_eq(ext_csd_pre_eol_text(4), "reserved");
	ck_assert_str_eq(ext_csd_version(7), "5.0");
	ck_assert_ptr_null(ext_csd_version(9));
}
END_TEST

/* A register of zeros but the fields that make it an EXT_CSD. */
static void blank(struct ext_csd_raw *raw, unsigned int rev)
{
	memset(raw, 0, sizeof(*raw));
	raw->form = EXT_CSD_BINARY;
	raw->b[504] = 1;
	raw->b[192] = (uint8_t)rev;
}

/*
 * The units at their edges: the super-page and the trim unit are powers
 * of two from 1 (0 undefined, past 8 and 21 reserved), the optimal write
 * size a multiple of 4 KiB, the large unit n+1 MiB from 0, the cache in
 * kibibits, the enhanced area in write-protect groups; a field before its
 * revision is null however it reads.
 */
START_TEST(test_units)
{
	struct ext_csd_raw raw;
	struct ext_csd_info e;

	blank(&raw, 8);
	raw.b[225] = 0xf1;		/* reserved high bits */
	raw.b[264] = 21;
	raw.b[265] = 255;
	raw.b[495] = 0;
	raw.b[249] = 1;
	raw.b[224] = 2;
	raw.b[221] = 3;
	raw.b[157] = 5;
	raw.b[307] = 0xff;		/* depth bits [4:0] */
	raw.b[308] = 1;
	ext_csd_decode(&raw, &e);
	ck_assert_uint_eq(ext_csd_bytes(&e, ECF_ACC_SIZE), 512);
	ck_assert_uint_eq(ext_csd_bytes(&e, ECF_OPTIMAL_TRIM_UNIT_SIZE),
			  4ULL << 30);
	ck_assert_uint_eq(ext_csd_bytes(&e, ECF_OPTIMAL_WRITE_SIZE),
			  255 * 4096);
	ck_assert_uint_eq(ext_csd_bytes(&e, ECF_LARGE_UNIT_SIZE_M1), MIB(1));
	ck_assert_uint_eq(ext_csd_bytes(&e, ECF_CACHE_SIZE), 128);
	ck_assert_uint_eq(ext_csd_bytes(&e, ECF_HC_WP_GRP_SIZE), MIB(3));
	ck_assert_uint_eq(ext_csd_bytes(&e, ECF_MAX_ENH_SIZE_MULT), MIB(15));
	ck_assert_uint_eq(e.value[ECF_CMDQ_DEPTH], 32);
	ck_assert_uint_eq(e.nr_notes, 0);
	/* reserved codes: stated, no size, a note each */
	raw.b[225] = 9;
	raw.b[264] = 22;
	raw.b[268] = 12;
	raw.b[267] = 4;
	ext_csd_decode(&raw, &e);
	ck_assert_uint_eq(e.defined[ECF_ACC_SIZE], 1);
	ck_assert_uint_eq(ext_csd_bytes(&e, ECF_ACC_SIZE), 0);
	ck_assert_uint_eq(ext_csd_bytes(&e, ECF_OPTIMAL_TRIM_UNIT_SIZE), 0);
	ck_assert_uint_eq(e.nr_notes, 4);
	ck_assert_str_eq(e.note[0],
			 "ext_csd: acc_size 0x9 is a reserved code or needs a size the device does not state");
	/* no erase group: no write-protect group nor enhanced area size */
	raw.b[224] = 0;
	raw.b[225] = 0;
	raw.b[264] = raw.b[267] = raw.b[268] = 0;
	ext_csd_decode(&raw, &e);
	ck_assert_uint_eq(e.defined[ECF_HC_ERASE_GRP_SIZE], 0);
	ck_assert_uint_eq(e.defined[ECF_ACC_SIZE], 0);
	ck_assert_uint_eq(ext_csd_bytes(&e, ECF_HC_WP_GRP_SIZE), 0);
	ck_assert_uint_eq(ext_csd_bytes(&e, ECF_MAX_ENH_SIZE_MULT), 0);
	ck_assert_uint_eq(e.nr_notes, 2);
	/* no command queue: no depth */
	raw.b[308] = 0;
	ext_csd_decode(&raw, &e);
	ck_assert_uint_eq(e.defined[ECF_CMDQ_DEPTH], 0);
	/* eMMC 4.5: the same bytes, no 5.0 or 5.1 field */
	blank(&raw, 6);
	raw.b[264] = raw.b[265] = raw.b[266] = raw.b[267] = 1;
	raw.b[268] = raw.b[269] = raw.b[307] = raw.b[308] = 1;
	raw.b[249] = 1;
	ext_csd_decode(&raw, &e);
	ck_assert_uint_eq(e.defined[ECF_CACHE_SIZE], 1);
	ck_assert_uint_eq(e.defined[ECF_OPTIMAL_WRITE_SIZE], 0);
	ck_assert_uint_eq(e.defined[ECF_PRE_EOL_INFO], 0);
	ck_assert_uint_eq(e.defined[ECF_CMDQ_DEPTH], 0);
	ck_assert_uint_eq(e.defined[ECF_CMDQ_SUPPORT], 0);
	/* the enhanced area's start: sectors past 2 GiB, bytes below */
	blank(&raw, 5);
	raw.b[136] = 2;
	raw.b[214] = 0x40;		/* 4194304 sectors: exactly 2 GiB */
	ext_csd_decode(&raw, &e);
	ck_assert_uint_eq(ext_csd_bytes(&e, ECF_ENH_START_ADDR), 2);
	raw.b[212] = 1;
	ext_csd_decode(&raw, &e);
	ck_assert_uint_eq(ext_csd_bytes(&e, ECF_ENH_START_ADDR), 1024);
	/* a revision past 5.1 is decoded as 5.1, and said */
	blank(&raw, 9);
	ext_csd_decode(&raw, &e);
	ck_assert_uint_eq(e.nr_notes, 1);
	ck_assert_ptr_nonnull(strstr(e.note[0], "newer than eMMC 5.1"));
}
END_TEST

/* Bad input: each refused with its reason, in one line. */
START_TEST(test_parse_bad)
{
	static const char *const why_want[] = {
		"1022 hex digits, not 1024 (512 bytes) nor 512 raw bytes",
		"byte 7 ('g') is not a hex digit",
		"not an EXT_CSD in either byte order (S_CMD_SET, byte 504, lacks bit 0: 0x00 first to last, 0x00 last to first)",
		"300 bytes, neither 1024 hex digits nor 512 raw bytes",
		"512 bytes that are not an EXT_CSD (S_CMD_SET, byte 504, is 0x00: bit 0 is set on every eMMC)",
		"0 hex digits, not 1024 (512 bytes) nor 512 raw bytes",
		"512 hex digits, not 1024 (512 bytes) nor 512 raw bytes",
	};
	struct ext_csd_raw raw;
	char buf[2 * EXT_CSD_BYTES + 8], why[256];
	uint8_t bin[EXT_CSD_BYTES];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(why_want); i++) {
		const void *in = buf;
		size_t len;

		memset(buf, '0', 2 * EXT_CSD_BYTES);
		len = 2 * EXT_CSD_BYTES;
		memset(bin, 0, sizeof(bin));
		switch (i) {
		case 0:
			len -= 2;
			break;
		case 1:
			buf[6] = 'g';
			break;
		case 3:
			bin[10] = 0xff;
			in = bin;
			len = 300;
			break;
		case 4:
			bin[10] = 0xff;
			in = bin;
			len = EXT_CSD_BYTES;
			break;
		case 5:
			len = 0;
			break;
		case 6:
			len = EXT_CSD_BYTES;
			break;
		}
		why[0] = '\0';
		ck_assert_int_eq(ext_csd_parse(in, len, &raw, why,
					       sizeof(why)), -EINVAL);
		ck_assert_str_eq(why, why_want[i]);
		ck_assert_int_eq(raw.form, EXT_CSD_NONE);
	}
}
END_TEST

Suite *extcsd_suite(void)
{
	Suite *s = suite_create("extcsd");
	TCase *tc = tcase_create("decode");

	tcase_add_loop_test(tc, test_dump_goldens, 0, ARRAY_SIZE(dumps));
	tcase_add_loop_test(tc, test_dump_both_orders, 0, ARRAY_SIZE(dumps));
	tcase_add_test(tc, test_dump_bytes);
	tcase_add_test(tc, test_words);
	tcase_add_test(tc, test_units);
	tcase_add_test(tc, test_parse_bad);
	suite_add_tcase(s, tc);
	return s;
}
