// SPDX-License-Identifier: GPL-2.0-only
/*
 * The card's registers: the bit order of sysfs's hex strings, each field
 * of CID, CSD, SCR and SSR at the position the SD specification gives it,
 * reserved codes, bad strings, reading a directory, what is missing and
 * why, claims, --registers, and the registers the simulated card states.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "card.h"
#include "util.h"

/* A register of zeros, bits long. */
static void zeros(char *h, unsigned int bits)
{
	memset(h, '0', bits / 4);
	h[bits / 4] = '\0';
}

/*
 * Bit 511 of an SSR is the top bit of its first hex digit, bit 508 the
 * lowest of that digit, 507 the top of the next: as the issue states
 * (digit k holds bits 511-4k ... 508-4k).  Likewise for 128 and 64 bits.
 */
START_TEST(test_bit_order)
{
	static const unsigned int lens[] = { 64, 128, 512 };
	char h[130];
	size_t i;
	unsigned int b;

	zeros(h, 512);
	card_set_bits(h, 512, 511, 511, 1);
	ck_assert_str_eq(h, "8" "000000000000000000000000000000"
			 "0000000000000000000000000000000000000000000000000"
			 "000000000000000000000000000000000000000000000000");
	zeros(h, 512);
	card_set_bits(h, 512, 508, 508, 1);
	ck_assert_int_eq(h[0], '1');
	zeros(h, 512);
	card_set_bits(h, 512, 507, 507, 1);
	ck_assert_int_eq(h[0], '0');
	ck_assert_int_eq(h[1], '8');
	zeros(h, 128);
	card_set_bits(h, 128, 0, 0, 1);
	ck_assert_int_eq(h[31], '1');
	for (i = 0; i < 3; i++) {
		for (b = 0; b < lens[i]; b++) {
			unsigned int k = (lens[i] - 1 - b) / 4;

			zeros(h, lens[i]);
			card_set_bits(h, lens[i], b, b, 1);
			ck_assert_int_eq(h[k], "1248"[b % 4]);
			ck_assert_uint_eq(card_bits(h, lens[i], b, b), 1);
			if (b)
				ck_assert_uint_eq(card_bits(h, lens[i],
							    b - 1, 0), 0);
			if (b + 1 < lens[i])
				ck_assert_uint_eq(card_bits(h, lens[i],
							    lens[i] - 1,
							    b + 1), 0);
		}
	}
	/* upper case digits read the same */
	ck_assert_uint_eq(card_bits("00000000000000AB", 64, 7, 0), 0xab);
}
END_TEST

/* A real-looking SD CID written out by hand. */
START_TEST(test_cid)
{
	struct card_raw raw = { .source = CARD_DIR };
	struct card_info ci;

	/* MID 03, OID "SD", PNM "SL16G", PRV 8.0, PSN 12345678, 2017-02 */
	strcpy(raw.val[CF_CID], "035344534c3136478012345678011201");
	raw.have[CF_CID] = 1;
	card_decode(&raw, &ci);
	ck_assert_int_eq(ci.have_cid, 1);
	ck_assert_uint_eq(ci.cid.mid, 0x03);
	ck_assert_uint_eq(ci.cid.oid, 0x5344);
	ck_assert_str_eq(ci.cid.pnm, "SL16G");
	ck_assert_uint_eq(ci.cid.prv, 0x80);
	ck_assert_uint_eq(ci.cid.psn, 0x12345678);
	ck_assert_uint_eq(ci.cid.year, 2017);
	ck_assert_uint_eq(ci.cid.month, 2);
	ck_assert_int_eq(ci.manfid, 3);
	ck_assert_int_eq(ci.oemid, 0x5344);
	ck_assert_int_eq(ci.serial, 0x12345678);
	ck_assert_str_eq(ci.name, "SL16G");
	ck_assert_str_eq(ci.revision, "8.0");
	ck_assert_str_eq(ci.date, "2017-02");
	ck_assert_uint_eq(ci.nr_notes, 0);
}
END_TEST

START_TEST(test_csd)
{
	struct card_raw raw = { .source = CARD_DIR };
	struct card_info ci;

	/* v2 of a 16 GB SDHC card: C_SIZE 0x734f */
	strcpy(raw.val[CF_CSD], "400e00325b590000734f7f800a400000");
	raw.have[CF_CSD] = 1;
	card_decode(&raw, &ci);
	ck_assert_int_eq(ci.have_csd, 1);
	ck_assert_uint_eq(ci.csd.structure, 1);
	ck_assert_uint_eq(ci.csd.capacity_byte, (0x734fULL + 1) << 19);
	/* v1: READ_BL_LEN 10, C_SIZE 3871, C_SIZE_MULT 7 */
	strcpy(raw.val[CF_CSD], "00000000000a03c7c003800000000001");
	card_decode(&raw, &ci);
	ck_assert_uint_eq(ci.csd.structure, 0);
	ck_assert_uint_eq(ci.csd.capacity_byte, 3872ULL << 19);
	/* v3 (SDUC) is not decoded, and says so */
	strcpy(raw.val[CF_CSD], "800e00325b590000734f7f800a400000");
	card_decode(&raw, &ci);
	ck_assert_uint_eq(ci.csd.capacity_byte, 0);
	ck_assert_uint_eq(ci.nr_notes, 1);
	ck_assert_ptr_nonnull(strstr(ci.note[0], "structure 2"));
}
END_TEST

START_TEST(test_scr)
{
	struct card_raw raw = { .source = CARD_DIR };
	struct card_info ci;

	strcpy(raw.val[CF_SCR], "0235800300000000");	/* SD 3.0 card */
	raw.have[CF_SCR] = 1;
	card_decode(&raw, &ci);
	ck_assert_int_eq(ci.have_scr, 1);
	ck_assert_uint_eq(ci.scr.sd_spec, 2);
	ck_assert_uint_eq(ci.scr.data_after_erase, 0);
	ck_assert_uint_eq(ci.scr.spec3, 1);
	ck_assert_uint_eq(ci.scr.spec4, 0);
	ck_assert_uint_eq(ci.scr.specx, 0);
	strcpy(raw.val[CF_SCR], "0285848000000000");
	card_decode(&raw, &ci);
	ck_assert_uint_eq(ci.scr.data_after_erase, 1);
	ck_assert_uint_eq(ci.scr.spec4, 1);
	ck_assert_uint_eq(ci.scr.specx, 2);
}
END_TEST

START_TEST(test_ssr)
{
	struct card_raw raw = { .source = CARD_DIR };
	struct card_info ci;

	strcpy(raw.val[CF_SSR],
	       "8000000000000000041290012316391e0000000000020000"
	       "0200000000000000000000000000000000000000000000000000"
	       "0000000000000000000000000000");
	raw.have[CF_SSR] = 1;
	card_decode(&raw, &ci);
	ck_assert_int_eq(ci.have_ssr, 1);
	ck_assert_uint_eq(ci.ssr.speed_class, 4);
	ck_assert_uint_eq(ci.ssr.perf_move, 0x12);
	ck_assert_uint_eq(ci.ssr.au_code, 9);
	ck_assert_uint_eq(ci.ssr.erase_size, 0x123);
	ck_assert_uint_eq(ci.ssr.erase_timeout, 5);
	ck_assert_uint_eq(ci.ssr.erase_offset, 2);
	ck_assert_uint_eq(ci.ssr.uhs_grade, 3);
	ck_assert_uint_eq(ci.ssr.uhs_au_code, 9);
	ck_assert_uint_eq(ci.ssr.video_class, 30);
	ck_assert_uint_eq(ci.ssr.app_class, 2);
	ck_assert_uint_eq(ci.ssr.discard, 1);
	ck_assert_int_eq(ci.claims.speed_class, 10);
	ck_assert_int_eq(ci.claims.uhs_grade, 3);
	ck_assert_int_eq(ci.claims.video_class, 30);
	ck_assert_int_eq(ci.claims.app_class, 2);
	ck_assert_uint_eq(ci.au_byte, 4 << 20);
	ck_assert_uint_eq(ci.uhs_au_byte, 4 << 20);
	ck_assert_uint_eq(ci.nr_notes, 0);
}
END_TEST

/* Each SSR field alone, all ones: it reads all ones, the others zero. */
START_TEST(test_ssr_fields_alone)
{
	static const unsigned int f[][2] = {
		{ 447, 440 }, { 439, 432 }, { 431, 428 }, { 423, 408 },
		{ 407, 402 }, { 401, 400 }, { 399, 396 }, { 395, 392 },
		{ 391, 384 }, { 339, 336 }, { 313, 313 },
	};
	struct card_raw raw = { .source = CARD_DIR };
	struct card_info ci;
	size_t i, k;

	raw.have[CF_SSR] = 1;
	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		unsigned int got[11];

		zeros(raw.val[CF_SSR], 512);
		card_set_bits(raw.val[CF_SSR], 512, f[i][0], f[i][1],
			      (1u << (f[i][0] - f[i][1] + 1)) - 1);
		/* the neighbours of the field stay clear */
		card_decode(&raw, &ci);
		got[0] = ci.ssr.speed_class;
		got[1] = ci.ssr.perf_move;
		got[2] = ci.ssr.au_code;
		got[3] = ci.ssr.erase_size;
		got[4] = ci.ssr.erase_timeout;
		got[5] = ci.ssr.erase_offset;
		got[6] = ci.ssr.uhs_grade;
		got[7] = ci.ssr.uhs_au_code;
		got[8] = ci.ssr.video_class;
		got[9] = ci.ssr.app_class;
		got[10] = ci.ssr.discard;
		for (k = 0; k < 11; k++)
			ck_assert_uint_eq(got[k], k == i ?
					  (1u << (f[k][0] - f[k][1] + 1)) - 1 :
					  0);
	}
}
END_TEST

/* Reserved codes leave the class unknown and say so. */
START_TEST(test_reserved_codes)
{
	struct card_raw raw = { .source = CARD_DIR };
	struct card_info ci;
	char *s = raw.val[CF_SSR];

	raw.have[CF_SSR] = 1;
	zeros(s, 512);
	card_set_bits(s, 512, 447, 440, 5);
	card_set_bits(s, 512, 399, 396, 2);
	card_set_bits(s, 512, 391, 384, 20);
	card_set_bits(s, 512, 339, 336, 3);
	card_set_bits(s, 512, 395, 392, 3);
	card_decode(&raw, &ci);
	ck_assert_int_eq(ci.claims.speed_class, -1);
	ck_assert_int_eq(ci.claims.uhs_grade, -1);
	ck_assert_int_eq(ci.claims.video_class, -1);
	ck_assert_int_eq(ci.claims.app_class, -1);
	ck_assert_uint_eq(ci.uhs_au_byte, 0);
	ck_assert_uint_eq(ci.nr_notes, 5);
	/* AU codes above 9 need SD_SPEC3 */
	zeros(s, 512);
	card_set_bits(s, 512, 431, 428, 11);
	strcpy(raw.val[CF_SCR], "0235000000000000");
	raw.have[CF_SCR] = 1;
	card_decode(&raw, &ci);
	ck_assert_uint_eq(ci.au_byte, 0);
	ck_assert_ptr_nonnull(strstr(ci.note[0], "SD_SPEC3"));
	strcpy(raw.val[CF_SCR], "0235800000000000");
	card_decode(&raw, &ci);
	ck_assert_uint_eq(ci.au_byte, 12 << 20);
	ck_assert_uint_eq(ci.nr_notes, 0);
	/* every code maps to the table */
	ck_assert_uint_eq(card_au_byte(0), 0);
	ck_assert_uint_eq(card_au_byte(1), 16 << 10);
	ck_assert_uint_eq(card_au_byte(6), 512 << 10);
	ck_assert_uint_eq(card_au_byte(9), 4 << 20);
	ck_assert_uint_eq(card_au_byte(13), 24 << 20);
	ck_assert_uint_eq(card_au_byte(15), 64 << 20);
	ck_assert_uint_eq(card_au_code(12 << 20), 11);
	ck_assert_uint_eq(card_au_code(3 << 20), 0);
}
END_TEST

/* Short, long and non-hex strings are not decoded, with a reason. */
START_TEST(test_bad_strings)
{
	static const char *const bad[] = {
		"035344534c313647801234567801120",	/* 31 digits */
		"035344534c31364780123456780112011",	/* 33 */
		"035344534c3136478012345678011z01",
		"",
		"0x5344534c3136478012345678011201",
	};
	struct card_raw raw = { .source = CARD_DIR };
	struct card_info ci;
	size_t i;

	raw.have[CF_CID] = 1;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		strcpy(raw.val[CF_CID], bad[i]);
		card_decode(&raw, &ci);
		ck_assert_int_eq(ci.have_cid, 0);
		ck_assert_int_eq(ci.manfid, -1);
		ck_assert_uint_eq(ci.nr_notes, 1);
		ck_assert_ptr_nonnull(strstr(ci.note[0], "cid: "));
	}
	ck_assert_ptr_nonnull(strstr(ci.note[0], "'x' at 2"));
}
END_TEST

/* A directory of sysfs-style files, any subset; the kernel's identity. */
START_TEST(test_read_dir)
{
	char dir[] = "/tmp/fb_cardXXXXXX", path[64], why[160];
	static const char *const files[][2] = {
		{ "cid", "035344534c3136478012345678011201\n" },
		{ "csd", "400e00325b590000734f7f800a400000\n" },
		{ "type", "SD\n" },
		{ "preferred_erase_size", "4194304\n" },
	};
	struct card_raw raw;
	struct card_info ci;
	size_t i;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	for (i = 0; i < 4; i++) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s", dir, files[i][0]);
		f = fopen(path, "w");
		ck_assert_ptr_nonnull(f);
		fputs(files[i][1], f);
		fclose(f);
	}
	ck_assert_uint_eq(card_read_dir(dir, CARD_DIR, &raw), 4);
	ck_assert_str_eq(raw.val[CF_PREFERRED_ERASE_SIZE], "4194304");
	card_decode(&raw, &ci);
	ck_assert_str_eq(ci.name, "SL16G");
	ck_assert_uint_eq(ci.csd.capacity_byte, 0x7350ULL << 19);
	ck_assert_int_eq(ci.claims.speed_class, -1);
	card_missing(&raw, why, sizeof(why));
	ck_assert_str_eq(why, "not in the directory: scr, ssr");
	for (i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i][0]);
		unlink(path);
	}
	rmdir(dir);
	ck_assert_uint_eq(card_read_dir(dir, CARD_DIR, &raw), 0);
}
END_TEST

/* eMMC: the kernel's attributes give the identity. */
START_TEST(test_kernel_identity)
{
	struct card_raw raw = { .source = CARD_SYSFS };
	struct card_info ci;
	char why[160];

	strcpy(raw.val[CF_TYPE], "MMC");
	strcpy(raw.val[CF_CID], "150100334a544134520219a1e8b6c300");
	strcpy(raw.val[CF_NAME], "3JTA4R");
	strcpy(raw.val[CF_MANFID], "0x000015");
	strcpy(raw.val[CF_OEMID], "0x0100");
	strcpy(raw.val[CF_DATE], "12/2019");
	strcpy(raw.val[CF_SERIAL], "0xa1e8b6c3");
	raw.have[CF_TYPE] = raw.have[CF_CID] = raw.have[CF_NAME] = 1;
	raw.have[CF_MANFID] = raw.have[CF_OEMID] = raw.have[CF_DATE] = 1;
	raw.have[CF_SERIAL] = 1;
	card_decode(&raw, &ci);
	ck_assert_int_eq(ci.have_cid, 0);
	ck_assert_int_eq(ci.manfid, 0x15);
	ck_assert_int_eq(ci.oemid, 0x100);
	ck_assert_int_eq(ci.serial, 0xa1e8b6c3);
	ck_assert_str_eq(ci.name, "3JTA4R");
	ck_assert_str_eq(ci.date, "2019-12");
	card_missing(&raw, why, sizeof(why));
	ck_assert_ptr_nonnull(strstr(why, "eMMC keeps no SCR or SSR"));
}
END_TEST

/* What is missing is never the card's fault. */
START_TEST(test_missing)
{
	struct card_raw raw = { .source = CARD_SYSFS };
	char why[200];

	strcpy(raw.val[CF_VENDOR], "Generic");
	strcpy(raw.val[CF_MODEL], "STORAGE DEVICE");
	raw.have[CF_VENDOR] = raw.have[CF_MODEL] = 1;
	card_missing(&raw, why, sizeof(why));
	ck_assert_str_eq(why,
			 "behind a USB bridge the card's registers cannot be read (the reader says \"Generic STORAGE DEVICE\")");
	memset(&raw, 0, sizeof(raw));
	raw.source = CARD_SYSFS;
	strcpy(raw.val[CF_TYPE], "SD");
	raw.have[CF_TYPE] = raw.have[CF_CID] = raw.have[CF_CSD] = 1;
	raw.have[CF_SCR] = 1;
	card_missing(&raw, why, sizeof(why));
	ck_assert_str_eq(why,
			 "this kernel has no ssr (Linux 4.9 and later show it)");
	raw.have[CF_SSR] = 1;
	card_missing(&raw, why, sizeof(why));
	ck_assert_str_eq(why, "");
	raw.source = CARD_NONE;
	card_missing(&raw, why, sizeof(why));
	ck_assert_str_eq(why, "a regular file has no card registers");
	memset(&raw, 0, sizeof(raw));
	raw.source = CARD_SIM;
	card_missing(&raw, why, sizeof(why));
	ck_assert_ptr_nonnull(strstr(why, "claims="));
}
END_TEST

START_TEST(test_claims)
{
	struct card_claims c;
	char why[160];

	ck_assert_int_eq(card_parse_claims("C10+U1+A1", &c, why,
					   sizeof(why)), 0);
	ck_assert_int_eq(c.speed_class, 10);
	ck_assert_int_eq(c.uhs_grade, 1);
	ck_assert_int_eq(c.video_class, 0);
	ck_assert_int_eq(c.app_class, 1);
	ck_assert_int_eq(card_parse_claims("v30+a2+u3+c4", &c, why,
					   sizeof(why)), 0);
	ck_assert_int_eq(c.speed_class, 4);
	ck_assert_int_eq(c.video_class, 30);
	ck_assert_int_eq(c.app_class, 2);
	ck_assert_int_eq(card_parse_claims("none", &c, why, sizeof(why)), 0);
	ck_assert_int_eq(c.speed_class, 0);
	ck_assert_int_eq(card_parse_claims("C4+C10", &c, why, sizeof(why)),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(why, "'C10'"));
	ck_assert_int_eq(card_parse_claims("C10+X5", &c, why, sizeof(why)),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(why, "'X5' is not a class"));
	ck_assert_int_eq(card_parse_claims("C10+", &c, why, sizeof(why)),
			 -EINVAL);
	ck_assert_int_eq(card_parse_claims("U2", &c, why, sizeof(why)),
			 -EINVAL);
}
END_TEST

/* The registers the simulated card states decode to what it was told. */
START_TEST(test_build_round_trip)
{
	struct card_claims c = { 10, 3, 30, 2 };
	struct card_raw raw;
	struct card_info ci;
	char why[160];

	card_build(&raw, 16ULL << 30, 8 << 20, &c, 0xcafe);
	card_decode(&raw, &ci);
	ck_assert_uint_eq(ci.nr_notes, 0);
	ck_assert_int_eq(ci.have_cid && ci.have_csd && ci.have_scr &&
			 ci.have_ssr, 1);
	ck_assert_int_eq(ci.claims.speed_class, 10);
	ck_assert_int_eq(ci.claims.uhs_grade, 3);
	ck_assert_int_eq(ci.claims.video_class, 30);
	ck_assert_int_eq(ci.claims.app_class, 2);
	ck_assert_uint_eq(ci.au_byte, 8 << 20);
	ck_assert_uint_eq(ci.csd.capacity_byte, 16ULL << 30);
	ck_assert_int_eq(ci.serial, 0xcafe);
	ck_assert_str_eq(ci.name, "SIMSD");
	ck_assert_str_eq(raw.val[CF_PREFERRED_ERASE_SIZE], "8388608");
	card_missing(&raw, why, sizeof(why));
	ck_assert_str_eq(why, "");
	/* no AU stated: the kernel guesses from the capacity */
	card_build(&raw, 16ULL << 30, 0, &c, 1);
	card_decode(&raw, &ci);
	ck_assert_uint_eq(ci.au_byte, 0);
	ck_assert_str_eq(raw.val[CF_PREFERRED_ERASE_SIZE], "4194304");
	ck_assert_uint_eq(card_kernel_pref(64ULL << 20, 0), 512 << 10);
	ck_assert_uint_eq(card_kernel_pref(256ULL << 20, 0), 1 << 20);
	ck_assert_uint_eq(card_kernel_pref(768ULL << 20, 0), 2 << 20);
	ck_assert_uint_eq(card_kernel_pref(1ULL << 30, 0), 4 << 20);
}
END_TEST

static uint64_t mix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Random strings never crash the decoder; what it states is valid. */
START_TEST(test_fuzz)
{
	static const char alphabet[] = "0123456789abcdefABCDEFxz \n-";
	struct card_raw raw = { .source = CARD_DIR };
	struct card_info ci;
	uint64_t seed = 12;
	int n, f;

	for (n = 0; n < 20000; n++) {
		for (f = CF_CID; f <= CF_SSR; f++) {
			size_t len = mix(&seed) % 4 ? (f == CF_SSR ? 128 :
				     f == CF_SCR ? 16 : 32) :
				     mix(&seed) % (CARD_VAL_MAX - 1);
			size_t i, hex_only = mix(&seed) % 8 != 0;

			for (i = 0; i < len; i++)
				raw.val[f][i] = alphabet[mix(&seed) %
					(hex_only ? 22 : sizeof(alphabet) - 1)];
			raw.val[f][len] = '\0';
			raw.have[f] = (unsigned char)(mix(&seed) % 5 != 0);
		}
		card_decode(&raw, &ci);
		ck_assert_uint_le(ci.nr_notes, CARD_NOTES);
		ck_assert(ci.claims.app_class >= -1 &&
			  ci.claims.app_class <= 2);
		ck_assert(ci.claims.speed_class == -1 ||
			  ci.claims.speed_class % 2 == 0);
		ck_assert(!ci.au_byte || card_au_code(ci.au_byte));
		ck_assert_uint_lt(strlen(ci.name), sizeof(ci.name));
	}
}
END_TEST

/* Write name=text into dir. */
static void put(const char *dir, const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static void remove_dir(const char *dir)
{
	char path[256];
	int f;

	for (f = 0; f < CF_NR; f++) {
		snprintf(path, sizeof(path), "%s/%s", dir,
			 card_file_names[f]);
		unlink(path);
	}
	ck_assert_int_eq(rmdir(dir), 0);
}

/* --registers decodes a constructed dump, as text and as JSON. */
START_TEST(test_registers_option)
{
	char dir[] = "/tmp/fb_regsXXXXXX", args[128];
	struct card_claims c = { 6, 0, 0, 0 };
	struct card_raw raw;
	struct fb_run r;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	/* an A1 card stating 8 MiB AUs, as card_build() lays it out */
	card_build(&raw, 32ULL << 30, 8 << 20, &c, 77);
	put(dir, "cid", "035344534c3136478012345678011201\n");
	put(dir, "csd", "400e00325b590000734f7f800a400000\n");
	put(dir, "scr", "0235800300000000\n");
	put(dir, "ssr", raw.val[CF_SSR]);
	put(dir, "type", "SD\n");
	put(dir, "preferred_erase_size", "8388608\n");
	snprintf(args, sizeof(args), "--registers=%s", dir);
	fb_run(args, &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_str_eq(unwrap_err(r.err), "");
	ck_assert_ptr_nonnull(strstr(r.out, "product \"SL16G\""));
	ck_assert_ptr_nonnull(strstr(r.out, "made 2017-02"));
	ck_assert_ptr_nonnull(strstr(r.out, "capacity 15476981760 bytes"));
	ck_assert_ptr_nonnull(strstr(r.out,
		"speed class C6, UHS none, video none, application none"));
	ck_assert_ptr_nonnull(strstr(r.out, "AU 8MiB"));
	fb_free(&r);
	snprintf(args, sizeof(args), "--registers %s --json", dir);
	fb_run(args, &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_str_eq(fb_json(&r, "device.card.manfid"), "3");
	ck_assert_str_eq(fb_json(&r, "device.card.oemid"), "21316");
	ck_assert_str_eq(fb_json(&r, "device.card.name"), "\"SL16G\"");
	ck_assert_str_eq(fb_json(&r, "device.card.date"), "\"2017-02\"");
	ck_assert_str_eq(fb_json(&r, "device.card.serial"), "305419896");
	ck_assert_str_eq(fb_json(&r, "device.card.au_size"), "8388608");
	ck_assert_str_eq(fb_json(&r, "device.card.speed_class"), "6");
	ck_assert_str_eq(fb_json(&r, "device.card.uhs_grade"), "0");
	ck_assert_str_eq(fb_json(&r, "device.card.app_class"), "0");
	ck_assert_str_eq(fb_json(&r, "device.card.registers.scr"),
			 "\"0235800300000000\"");
	ck_assert_str_eq(fb_json(&r, "device.card.missing"), "null");
	fb_free(&r);
	/* a subset: what is not there is named and null */
	snprintf(args, sizeof(args), "%s/ssr", dir);
	unlink(args);
	put(dir, "scr", "02358003000000\n");	/* short */
	snprintf(args, sizeof(args), "--json --registers=%s", dir);
	fb_run(args, &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_str_eq(fb_json(&r, "device.card.registers.ssr"), "null");
	ck_assert_str_eq(fb_json(&r, "device.card.speed_class"), "null");
	ck_assert_str_eq(fb_json(&r, "device.card.au_size"), "null");
	ck_assert_str_eq(fb_json(&r, "device.card.missing"),
			 "\"not in the directory: ssr\"");
	ck_assert_str_eq(fb_json(&r, "device.card.notes.0"),
			 "\"scr: 14 hex digits, not 16: not decoded\"");
	fb_free(&r);
	remove_dir(dir);
}
END_TEST

/* Bad --registers input: one line, exit 2, nothing on stdout. */
START_TEST(test_registers_bad)
{
	static const char *const bad[][2] = {
		{ "--registers=/nonexistent/dir",
		  "flashbench: invalid --registers '/nonexistent/dir': No such file or directory\n" },
		{ "--registers=/dev/null",
		  "flashbench: --registers /dev/null: not an MMC block device (a character device)\n" },
		{ "--registers=/ -a",
		  "flashbench: --registers decodes register files on its own, without tests, --simulate, --plot or --preserve\n" },
		{ "--registers=/ --simulate",
		  "flashbench: --registers decodes register files on its own, without tests, --simulate, --plot or --preserve\n" },
		{ "--registers=/ /dev/sda",
		  "flashbench: --registers decodes register files: DEVICE '/dev/sda' is not used\n" },
		{ "--registers=/ --auto",
		  "flashbench: --registers decodes register files on its own, without tests, --simulate, --plot or --preserve\n" },
		{ "--registers=/proc/self",
		  "flashbench: no register files (cid, csd, scr, ssr, ext_csd, ...) in /proc/self\n" },
	};
	struct fb_run r;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		fb_run(bad[i][0], &r);
		ck_assert_int_eq(r.status, 2);
		ck_assert_str_eq(r.out, "");
		ck_assert_str_eq(unwrap_err(r.err), bad[i][1]);
		ck_assert_uint_eq(r.opens, 0);
		fb_free(&r);
	}
}
END_TEST

/*
 * --registers on directories as they come (issue 20 item 2): a value
 * with a leading space is read like the kernel's; a cid that is a
 * directory is said to be one (it read "0 hex digits"); an SSR stating
 * one AU to erase says "1 AU"; a CID product name padded with NULs ends
 * there, as the kernel shows it (it read "SD???"); a virtio disk's device
 * directory, only vendor and device, is no card (it decoded "vendor:
 * 0x1af4" and exited 0).
 */
START_TEST(test_registers_as_found)
{
	char dir[] = "/tmp/fb_regsXXXXXX", args[128], path[160];
	struct card_claims c = { 10, 1, 0, 0 };
	struct card_raw raw;
	struct fb_run r;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	card_build(&raw, 32ULL << 30, 4 << 20, &c, 77);
	card_set_bits(raw.val[CF_SSR], CARD_SSR_BITS, 423, 408, 1);
	put(dir, "cid", " 03534453440000008012345678011201\n");
	put(dir, "csd", "\t400e00325b590000734f7f800a400000 \n");
	put(dir, "ssr", raw.val[CF_SSR]);
	snprintf(args, sizeof(args), "--registers=%s", dir);
	fb_run(args, &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_msg(strstr(r.out, "product \"SD\""), "%s", r.out);
	ck_assert_ptr_nonnull(strstr(r.out, "capacity 15476981760 bytes"));
	ck_assert_ptr_nonnull(strstr(r.out, "  SSR: erase 1 AU in "));
	ck_assert_ptr_null(strstr(r.out, "note:"));
	fb_free(&r);
	snprintf(args, sizeof(args), "--registers=%s --json", dir);
	fb_run(args, &r);
	ck_assert_str_eq(fb_json(&r, "device.card.name"), "\"SD\"");
	fb_free(&r);
	/* cid a directory */
	snprintf(path, sizeof(path), "%s/cid", dir);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(mkdir(path, 0700), 0);
	snprintf(args, sizeof(args), "--registers=%s", dir);
	fb_run(args, &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_ptr_null(strstr(r.out, "hex digits"));
	ck_assert_msg(strstr(r.out, "cid: a directory, not a register file: not decoded"),
		      "%s", r.out);
	ck_assert_ptr_null(strstr(r.out, "not in the directory: cid"));
	fb_free(&r);
	ck_assert_int_eq(rmdir(path), 0);
	/* a virtio disk's device directory */
	snprintf(path, sizeof(path), "%s/csd", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/ssr", dir);
	unlink(path);
	put(dir, "vendor", "0x1af4\n");
	put(dir, "device", "0x0002\n");
	fb_run(args, &r);
	ck_assert_int_eq(r.status, 2);
	ck_assert_str_eq(r.out, "");
	ck_assert_ptr_nonnull(strstr(unwrap_err(r.err),
				     "no SD/MMC register files"));
	ck_assert_uint_eq(count_str(r.err, "\n"), 1);
	fb_free(&r);
	snprintf(path, sizeof(path), "%s/device", dir);
	unlink(path);
	remove_dir(dir);
}
END_TEST

/*
 * An SSR that states no erase timing (ERASE_SIZE 0) says so, not "erase
 * 0 AUs in 5 s + 2 s" (issue 27 item 5); the kernel's erase sizes in
 * bytes are shown as sizes too (item 19: "preferred_erase_size:
 * 4194304").
 */
START_TEST(test_registers_words)
{
	char dir[] = "/tmp/fb_regwXXXXXX", args[128];
	struct card_claims c = { 10, 1, 0, 0 };
	struct card_raw raw;
	struct fb_run r;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	card_build(&raw, 32ULL << 30, 4 << 20, &c, 77);
	card_set_bits(raw.val[CF_SSR], CARD_SSR_BITS, 423, 408, 0);
	put(dir, "cid", " 03534453440000008012345678011201\n");
	put(dir, "csd", "400e00325b590000734f7f800a400000\n");
	put(dir, "ssr", raw.val[CF_SSR]);
	put(dir, "preferred_erase_size", "4194304\n");
	snprintf(args, sizeof(args), "--registers=%s", dir);
	fb_run(args, &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_msg(strstr(r.out, "  SSR: erase timing not stated\n"), "%s",
		      r.out);
	ck_assert_ptr_null(strstr(r.out, "erase 0 AU"));
	ck_assert_ptr_nonnull(strstr(r.out, "  preferred_erase_size: 4194304 bytes (4MiB)\n"));
	check_width("--registers", r.out);
	fb_free(&r);
	remove_dir(dir);
}
END_TEST

/* The simulated card states what claims= and au= say, in device.card. */
START_TEST(test_sim_claims)
{
	struct fb_run r;

	fb_run("--simulate=claims=C10+U1+A1,au=8M,size=16G --json -a -c 1 "
	       "--blocksize=1M", &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_str_eq(fb_json(&r, "device.card.speed_class"), "10");
	ck_assert_str_eq(fb_json(&r, "device.card.uhs_grade"), "1");
	ck_assert_str_eq(fb_json(&r, "device.card.video_class"), "0");
	ck_assert_str_eq(fb_json(&r, "device.card.app_class"), "1");
	ck_assert_str_eq(fb_json(&r, "device.card.au_size"), "8388608");
	ck_assert_str_eq(fb_json(&r, "device.card.capacity"), "17179869184");
	ck_assert_str_eq(fb_json(&r, "device.card.registers.preferred_erase_size"),
			 "\"8388608\"");
	fb_free(&r);
	/* claims alone: the AU stated is the erase size */
	fb_run("--simulate=claims=V30,erase=2M --json -a -c 1 --blocksize=1M",
	       &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_str_eq(fb_json(&r, "device.card.video_class"), "30");
	ck_assert_str_eq(fb_json(&r, "device.card.au_size"), "2097152");
	fb_free(&r);
	/* an erase size no code states: no AU */
	fb_run("--simulate=claims=C4,erase=6M --json -a -c 1 --blocksize=1M",
	       &r);
	ck_assert_str_eq(fb_json(&r, "device.card.au_size"), "null");
	ck_assert_str_eq(fb_json(&r, "device.card.registers.preferred_erase_size"),
			 "\"4194304\"");
	fb_free(&r);
	/* none: no registers, and why */
	fb_run("--simulate --json -a -c 1 --blocksize=1M", &r);
	ck_assert_str_eq(fb_json(&r, "device.card.registers.cid"), "null");
	ck_assert_str_eq(fb_json(&r, "device.card.manfid"), "null");
	ck_assert_ptr_nonnull(strstr(fb_json(&r, "device.card.missing"),
				     "claims="));
	fb_free(&r);
}
END_TEST

START_TEST(test_sim_claims_bad)
{
	static const char *const bad[][2] = {
		{ "--simulate=claims=C5 -a",
		  "flashbench: invalid --simulate 'claims=C5': claims=C5: 'C5' is not a class (C2 C4 C6 C10 U1 U3 V6 V10 V30 V60 V90 A1 A2)\n" },
		{ "--simulate=claims=A1+A2 -a",
		  "flashbench: invalid --simulate 'claims=A1+A2': claims=A1+A2: 'A2': a card states one class of each kind\n" },
		{ "--simulate=au=3M -a",
		  "flashbench: invalid --simulate 'au=3M': au=3M: not an AU an SSR states (16K..4M, 8M, 12M, 16M, 24M, 32M, 64M)\n" },
	};
	struct fb_run r;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		fb_run(bad[i][0], &r);
		ck_assert_int_eq(r.status, 2);
		ck_assert_str_eq(r.out, "");
		ck_assert_str_eq(unwrap_err(r.err), bad[i][1]);
		fb_free(&r);
	}
}
END_TEST

Suite *card_suite(void)
{
	Suite *s = suite_create("card");
	TCase *tc = tcase_create("registers");

	tcase_add_test(tc, test_bit_order);
	tcase_add_test(tc, test_cid);
	tcase_add_test(tc, test_csd);
	tcase_add_test(tc, test_scr);
	tcase_add_test(tc, test_ssr);
	tcase_add_test(tc, test_ssr_fields_alone);
	tcase_add_test(tc, test_reserved_codes);
	tcase_add_test(tc, test_bad_strings);
	tcase_add_test(tc, test_read_dir);
	tcase_add_test(tc, test_kernel_identity);
	tcase_add_test(tc, test_missing);
	tcase_add_test(tc, test_claims);
	tcase_add_test(tc, test_build_round_trip);
	tcase_add_test(tc, test_fuzz);
	tcase_set_timeout(tc, 120);
	suite_add_tcase(s, tc);

	tc = tcase_create("front");
	tcase_add_test(tc, test_registers_option);
	tcase_add_test(tc, test_registers_bad);
	tcase_add_test(tc, test_registers_as_found);
	tcase_add_test(tc, test_registers_words);
	tcase_add_test(tc, test_sim_claims);
	tcase_add_test(tc, test_sim_claims_bad);
	tcase_set_timeout(tc, 120);
	suite_add_tcase(s, tc);
	return s;
}
