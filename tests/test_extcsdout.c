// SPDX-License-Identifier: GPL-2.0-only
/*
 * An eMMC's EXT_CSD shown (output/extcsdout.c) by --registers: each dump
 * of tests/data/extcsd/ as text within 80 columns, with the order it was
 * found in and its health, and as JSON's device.card.registers.ext_csd;
 * a bad ext_csd is bad input, in one line.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "c.h"
#include "extcsd.h"
#include "util.h"

/* The dumps, with the revision and the form each is found in. */
static const struct shown {
	const char *name;
	unsigned int rev;
	enum ext_csd_form form;
} shown[] = {
	{ "samsung-bjnb4r", 8, EXT_CSD_HEX },
	{ "sandisk-da4064", 8, EXT_CSD_HEX },
	{ "oznotes-extcsd1", 5, EXT_CSD_HEX },
	{ "oznotes-extcsd1-reversed", 5, EXT_CSD_HEX_REVERSED },
	{ "oznotes-extcsd1-raw", 5, EXT_CSD_BINARY },
	{ "oznotes-extcsd", 7, EXT_CSD_HEX },
	{ "oznotes-extcsd-on", 7, EXT_CSD_HEX },
};

/*
 * --registers on each dump: its lines, within 80 columns, the revision
 * and the order it was found in, the figures its source states, the
 * health line.
 */
START_TEST(test_registers_dumps)
{
	const struct shown *d = &shown[_i];
	char args[160], want[160];
	struct fb_run r;

	snprintf(args, sizeof(args), "--registers=tests/data/extcsd/%s",
		 d->name);
	fb_run(args, &r);
	ck_assert_msg(r.status == 0, "%s: %s", d->name, r.err);
	ck_assert_str_eq(unwrap_err(r.err), "");
	check_width(d->name, r.out);
	snprintf(want, sizeof(want), "  EXT_CSD: revision %u (eMMC %s), %s\n",
		 d->rev, ext_csd_version(d->rev),
		 ext_csd_form_text(d->form));
	ck_assert_msg(strstr(r.out, want), "%s", r.out);
	ck_assert_ptr_nonnull(strstr(r.out, "\n  health: "));
	ck_assert_ptr_null(strstr(r.out, "note:"));
	ck_assert_ptr_nonnull(strstr(r.out, "missing: not in the directory: cid, csd\n"));
	fb_free(&r);
}
END_TEST

/* The lines of the Samsung's dump, and its health where a source stated none. */
START_TEST(test_registers_text)
{
	static const char *const samsung_lines =
		"  EXT_CSD: capacity 31268536320 bytes (29.12GiB), boot 2 x 4MiB, RPMB 4MiB\n"
		"  EXT_CSD: erase group 512KiB, write-protect group 8MiB; ERASE_GROUP_DEF 0\n"
		"  EXT_CSD: super-page 32KiB; optimal write 64KiB, read not stated, trim 4KiB\n"
		"  EXT_CSD: large unit 8MiB, cache 8MiB (off), command queue 16 deep\n"
		"  EXT_CSD: enhanced (pSLC) area up to 14.55GiB, none configured\n"
		"  EXT_CSD: bus HS400 HS200 DDR52 HS52 HS26, firmware 0x0f00000000000000\n"
		"  health: life time used 50-60 % (type A), 50-60 % (type B), pre-EOL normal\n";
	struct fb_run r;

	fb_run("--registers=tests/data/extcsd/samsung-bjnb4r", &r);
	ck_assert_msg(strstr(r.out, samsung_lines), "%s", r.out);
	fb_free(&r);
	fb_run("--registers=tests/data/extcsd/sandisk-da4064", &r);
	ck_assert_ptr_nonnull(strstr(r.out, "cache 512KiB (on), command queue 32 deep\n"));
	ck_assert_ptr_nonnull(strstr(r.out, ", firmware \"56230a17\"\n"));
	ck_assert_ptr_nonnull(strstr(r.out, "optimal write 32KiB, read 32KiB, trim 512KiB\n"));
	fb_free(&r);
	fb_run("--registers=tests/data/extcsd/oznotes-extcsd1", &r);
	ck_assert_ptr_nonnull(strstr(r.out,
		"  EXT_CSD: super-page 32KiB; optimal sizes not stated (eMMC 5.0 on)\n"
		"  EXT_CSD: large unit and cache not stated (eMMC 4.5 on)\n"));
	ck_assert_ptr_nonnull(strstr(r.out,
		"  health: not stated (eMMC 5.0 and later state it)\n"));
	ck_assert_ptr_nonnull(strstr(r.out, "boot 2 x 2MiB, RPMB 2MiB\n"));
	fb_free(&r);
}
END_TEST

/* The file's hex digits, without its newline, into buf. */
static void dump_hex(const char *name, char *buf, size_t len)
{
	size_t n = extcsd_dump(name, buf, len - 1);

	while (n && (buf[n - 1] == '\n'))
		n--;
	buf[n] = '\0';
}

/* registers.ext_csd: values, sizes, nulls, how it was found, the bytes. */
START_TEST(test_registers_json)
{
	char hex[EXTCSD_DUMP_MAX], want[EXTCSD_DUMP_MAX + 4], got[EXTCSD_DUMP_MAX];
	struct fb_run r;

	fb_run("--registers=tests/data/extcsd/samsung-bjnb4r --json", &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_str_eq(fb_json(&r, "test"), "\"registers\"");
	ck_assert_str_eq(fb_json(&r, "device.card.registers.ext_csd.form"),
			 "\"hex\"");
	ck_assert_str_eq(fb_json(&r, "device.card.registers.ext_csd.ext_csd_rev"), "8");
	ck_assert_str_eq(fb_json(&r, "device.card.registers.ext_csd.cache_size"), "65536");
	ck_assert_str_eq(fb_json(&r, "device.card.registers.ext_csd.cache_size_bytes"), "8388608");
	ck_assert_str_eq(fb_json(&r, "device.card.registers.ext_csd.hc_erase_grp_size_bytes"), "524288");
	ck_assert_str_eq(fb_json(&r, "device.card.registers.ext_csd.acc_size"), "7");
	ck_assert_str_eq(fb_json(&r, "device.card.registers.ext_csd.super_page_bytes"), "32768");
	ck_assert_str_eq(fb_json(&r, "device.card.registers.ext_csd.large_unit_size_bytes"), "8388608");
	ck_assert_str_eq(fb_json(&r, "device.card.registers.ext_csd.optimal_write_size_bytes"), "65536");
	ck_assert_str_eq(fb_json(&r, "device.card.registers.ext_csd.optimal_read_size"), "null");
	ck_assert_str_eq(fb_json(&r, "device.card.registers.ext_csd.optimal_read_size_bytes"), "null");
	ck_assert_str_eq(fb_json(&r, "device.card.registers.ext_csd.max_enh_size_bytes"), "15627976704");
	ck_assert_str_eq(fb_json(&r, "device.card.registers.ext_csd.device_life_time_est_typ_b"), "6");
	ck_assert_str_eq(fb_json(&r, "device.card.registers.ext_csd.pre_eol_info"), "1");
	ck_assert_str_eq(fb_json(&r, "device.card.registers.ext_csd.cmdq_depth"), "16");
	ck_assert_str_eq(fb_json(&r, "device.card.registers.ext_csd.sec_count_bytes"), "31268536320");
	dump_hex("samsung-bjnb4r", hex, sizeof(hex));
	snprintf(want, sizeof(want), "\"%s\"", hex);
	ck_assert_str_eq(json_at(r.out, "device.card.registers.ext_csd.hex",
				 got, sizeof(got)), want);
	ck_assert_str_eq(fb_json(&r, "device.card.missing"),
			 "\"not in the directory: cid, csd\"");
	fb_free(&r);
	/* byte 511 first: found, said, and written byte 0 first */
	fb_run("--registers=tests/data/extcsd/oznotes-extcsd1-reversed --json",
	       &r);
	ck_assert_str_eq(fb_json(&r, "device.card.registers.ext_csd.form"),
			 "\"hex_reversed\"");
	dump_hex("oznotes-extcsd1", hex, sizeof(hex));
	snprintf(want, sizeof(want), "\"%s\"", hex);
	ck_assert_str_eq(json_at(r.out, "device.card.registers.ext_csd.hex",
				 got, sizeof(got)), want);
	ck_assert_str_eq(fb_json(&r, "device.card.registers.ext_csd.cache_size"), "null");
	ck_assert_str_eq(fb_json(&r, "device.card.registers.ext_csd.pre_eol_info"), "null");
	ck_assert_str_eq(fb_json(&r, "device.card.registers.ext_csd.firmware_version"), "null");
	ck_assert_str_eq(fb_json(&r, "device.card.registers.ext_csd.sec_count_bytes"), "3875536896");
	fb_free(&r);
	fb_run("--registers=tests/data/extcsd/oznotes-extcsd1-raw --json", &r);
	ck_assert_str_eq(fb_json(&r, "device.card.registers.ext_csd.form"),
			 "\"binary\"");
	fb_free(&r);
	fb_run("--registers=tests/data/extcsd/sandisk-da4064 --json", &r);
	ck_assert_str_eq(fb_json(&r, "device.card.registers.ext_csd.firmware_version"),
			 "\"3536323330613137\"");
	ck_assert_str_eq(fb_json(&r, "device.card.registers.ext_csd.cmdq_depth"), "32");
	ck_assert_str_eq(fb_json(&r, "device.card.registers.ext_csd.optimal_trim_unit_size_bytes"), "524288");
	fb_free(&r);
}
END_TEST

/* Write text (len bytes) as dir/name. */
static void put_file(const char *dir, const char *name, const void *text,
		     size_t len)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(text, 1, len, f), len);
	fclose(f);
}

/*
 * A bad ext_csd is bad input: one line naming it and why, exit 2,
 * nothing on standard output, no device opened.
 */
START_TEST(test_registers_bad)
{
	static const char *const why[] = {
		"1022 hex digits, not 1024 (512 bytes) nor 512 raw bytes",
		"byte 1 ('x') is not a hex digit",
		"512 bytes that are not an EXT_CSD (S_CMD_SET, byte 504, is 0x00: bit 0 is set on every eMMC)",
		"not an EXT_CSD in either byte order (S_CMD_SET, byte 504, lacks bit 0: 0x00 first to last, 0x00 last to first)",
		"a directory, not a register file",
		"100 bytes, neither 1024 hex digits nor 512 raw bytes",
	};
	char dir[] = "/tmp/fb_extcsdXXXXXX", args[64], want[400], path[64];
	char hex[2 * EXT_CSD_BYTES + 1];
	uint8_t bin[EXT_CSD_BYTES] = { 0xff };
	struct fb_run r;
	size_t i;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/ext_csd", dir);
	snprintf(args, sizeof(args), "--registers=%s", dir);
	for (i = 0; i < ARRAY_SIZE(why); i++) {
		memset(hex, '0', sizeof(hex) - 1);
		hex[sizeof(hex) - 1] = '\0';
		switch (i) {
		case 0:
			put_file(dir, "ext_csd", hex, sizeof(hex) - 3);
			break;
		case 1:
			hex[0] = 'x';
			put_file(dir, "ext_csd", hex, sizeof(hex) - 1);
			break;
		case 2:
			put_file(dir, "ext_csd", bin, sizeof(bin));
			break;
		case 3:
			put_file(dir, "ext_csd", hex, sizeof(hex) - 1);
			break;
		case 4:
			ck_assert_int_eq(mkdir(path, 0700), 0);
			break;
		case 5:
			put_file(dir, "ext_csd", bin, 100);
			break;
		}
		fb_run(args, &r);
		snprintf(want, sizeof(want),
			 "flashbench: invalid --registers '%s': ext_csd: %s\n",
			 dir, why[i]);
		ck_assert_int_eq(r.status, 2);
		ck_assert_str_eq(unwrap_err(r.err), want);
		ck_assert_str_eq(r.out, "");
		ck_assert_uint_eq(r.opens, 0);
		fb_free(&r);
		if (i == 4)
			ck_assert_int_eq(rmdir(path), 0);
		else
			ck_assert_int_eq(unlink(path), 0);
	}
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/*
 * An eMMC's sysfs directory copied with the debugfs ext_csd beside it:
 * the identity from the kernel's attributes, nothing missing.
 */
START_TEST(test_registers_sysfs_copy)
{
	static const char *const attrs[][2] = {
		{ "type", "MMC\n" }, { "name", "BJNB4R\n" },
		{ "manfid", "0x000015\n" }, { "oemid", "0x0100\n" },
		{ "cid", "150100424a4e4234520fdac7c0381400\n" },
		{ "csd", "d0270132075a5f7ee9e740bd86404000\n" },
	};
	char dir[] = "/tmp/fb_extcsdXXXXXX", args[64], path[64], hex[EXTCSD_DUMP_MAX];
	struct fb_run r;
	size_t i;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	for (i = 0; i < ARRAY_SIZE(attrs); i++)
		put_file(dir, attrs[i][0], attrs[i][1], strlen(attrs[i][1]));
	i = extcsd_dump("samsung-bjnb4r", hex, sizeof(hex));
	put_file(dir, "ext_csd", hex, i);
	snprintf(args, sizeof(args), "--registers=%s", dir);
	fb_run(args, &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_ptr_nonnull(strstr(r.out, "  type: MMC\n"));
	ck_assert_ptr_nonnull(strstr(r.out, "product \"BJNB4R\""));
	ck_assert_ptr_nonnull(strstr(r.out, "  EXT_CSD: revision 8 (eMMC 5.1)"));
	ck_assert_ptr_null(strstr(r.out, "missing:"));
	fb_free(&r);
	for (i = 0; i < ARRAY_SIZE(attrs); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, attrs[i][0]);
		ck_assert_int_eq(unlink(path), 0);
	}
	snprintf(path, sizeof(path), "%s/ext_csd", dir);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

Suite *extcsdout_suite(void)
{
	Suite *s = suite_create("extcsdout");
	TCase *tc = tcase_create("registers");

	tcase_add_loop_test(tc, test_registers_dumps, 0, ARRAY_SIZE(shown));
	tcase_add_test(tc, test_registers_text);
	tcase_add_test(tc, test_registers_json);
	tcase_add_test(tc, test_registers_bad);
	tcase_add_test(tc, test_registers_sysfs_copy);
	suite_add_tcase(s, tc);
	return s;
}
