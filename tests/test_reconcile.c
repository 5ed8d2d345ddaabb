// SPDX-License-Identifier: GPL-2.0-only
/*
 * The measured erase size beside what the card states and what the
 * kernel guesses (verdict/reconcile.c): each wording, and --auto's
 * lines and JSON on a simulated card stating its AU; an eMMC's EXT_CSD
 * (the dumps of tests/data/extcsd/) against the erase size and the page,
 * live and from a record.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "card.h"
#include "reconcile.h"
#include "util.h"

/* The measured erase size beside the stated AU: each wording. */
START_TEST(test_reconcile_fit)
{
	ck_assert_int_eq(reconcile_fit(4 << 20, 4 << 20), FIT_AGREES);
	ck_assert_int_eq(reconcile_fit(4 << 20, 16 << 20), FIT_SUBUNIT);
	ck_assert_int_eq(reconcile_fit(4 << 20, 12 << 20), FIT_SUBUNIT);
	ck_assert_int_eq(reconcile_fit(8 << 20, 16 << 20), FIT_MULTIPLE);
	ck_assert_int_eq(reconcile_fit(4 << 20, 2 << 20), FIT_MULTIPLE);
	ck_assert_int_eq(reconcile_fit(6 << 20, 4 << 20), FIT_DISAGREES);
	ck_assert_int_eq(reconcile_fit(0, 4 << 20), FIT_UNKNOWN);
	ck_assert_int_eq(reconcile_fit(4 << 20, 0), FIT_UNKNOWN);
}
END_TEST

START_TEST(test_reconcile_kernel)
{
	struct card_claims c = { 10, 0, 0, 0 };
	struct card_raw raw;
	struct card_info ci;
	struct reconcile rc;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	/* the SSR states 16M: the kernel took it, timing shows 4M */
	card_build(&raw, 32ULL << 30, 16 << 20, &c, 1);
	card_decode(&raw, &ci);
	reconcile(&rc, 4 << 20, &raw, &ci);
	ck_assert_int_eq(rc.kernel_from, KERNEL_FROM_SSR);
	ck_assert_int_eq(rc.stated_fit, FIT_SUBUNIT);
	f = open_memstream(&text, &len);
	reconcile_print(f, &rc);
	fclose(f);
	ck_assert_str_eq(text,
		"erase size measured 4MiB; what the card and the kernel say:\n"
		"  AU the card states (SSR): 16MiB (4MiB sub-units: consistent)\n"
		"  kernel preferred_erase_size: 16MiB, from the SSR (4MiB sub-units: consistent)\n"
		"  an AU above 4MiB is written in 4MiB sub-units by the speed-class\n"
		"  rules: timing shows the sub-unit\n"
		"  the advice uses the measured 4MiB, not the 16MiB the card states\n");
	free(text);
	/* no AU stated: the kernel's value is a capacity guess */
	card_build(&raw, 32ULL << 30, 0, &c, 1);
	card_decode(&raw, &ci);
	reconcile(&rc, 6 << 20, &raw, &ci);
	ck_assert_int_eq(rc.kernel_from, KERNEL_GUESS);
	ck_assert_int_eq(rc.kernel_fit, FIT_DISAGREES);
	ck_assert_uint_eq(rc.kernel_byte, 4 << 20);
	text = NULL;
	f = open_memstream(&text, &len);
	reconcile_print(f, &rc);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(text, "AU the card states (SSR): none\n"));
	ck_assert_ptr_nonnull(strstr(text, "4MiB, a capacity guess (disagrees)"));
	ck_assert_ptr_nonnull(strstr(text, "the kernel guesses 512KiB to 4MiB"));
	ck_assert_ptr_null(strstr(text, "the advice uses"));
	free(text);
	/* an old kernel without ssr: the guess is told by the capacity */
	raw.have[CF_SSR] = 0;
	card_decode(&raw, &ci);
	reconcile(&rc, 4 << 20, &raw, &ci);
	ck_assert_int_eq(rc.kernel_from, KERNEL_GUESS);
	ck_assert_int_eq(rc.kernel_fit, FIT_AGREES);
}
END_TEST

/* --auto on a simulated card stating its AU: the lines and the JSON. */
START_TEST(test_reconcile_auto)
{
	struct fb_run r;

	fb_run("--auto -q --simulate=claims=C10+U1,au=16M,noise=0", &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_ptr_nonnull(strstr(r.out,
		"erase size measured 4MiB; what the card and the kernel say:\n"
		"  AU the card states (SSR): 16MiB (4MiB sub-units: consistent)\n"));
	fb_free(&r);
	fb_run("--auto -q --json --simulate=au=2M,noise=0", &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_str_eq(fb_json(&r, "reconcile.measured_erase_size"), "4194304");
	ck_assert_str_eq(fb_json(&r, "reconcile.stated_au_size"), "2097152");
	ck_assert_str_eq(fb_json(&r, "reconcile.stated_fit"), "\"multiple\"");
	ck_assert_str_eq(fb_json(&r, "reconcile.kernel_from"), "\"ssr\"");
	ck_assert_str_eq(fb_json(&r, "device.card.au_size"), "2097152");
	fb_free(&r);
	/* a card stating nothing: --auto prints no such lines */
	fb_run("--auto -q --simulate=noise=0", &r);
	ck_assert_ptr_null(strstr(r.out, "what the card and the kernel say"));
	fb_free(&r);
}
END_TEST

/* The registers of a dump's directory, decoded. */
static void card_of_dump(const char *name, struct card_raw *raw,
			 struct card_info *ci)
{
	char dir[128];

	snprintf(dir, sizeof(dir), "tests/data/extcsd/%s", name);
	ck_assert_uint_ge(card_read_dir(dir, CARD_DIR, raw), 1);
	card_decode(raw, ci);
	ck_assert_int_eq(ci->ext.have, 1);
}

/*
 * The erase group and the large unit against the erase size, the
 * super-page and the optimal write size against the page, the cache
 * left for a write cache measured, the health in words.
 */
START_TEST(test_reconcile_sizes)
{
	struct card_raw raw;
	struct card_info ci;
	struct reconcile rc;

	card_of_dump("samsung-bjnb4r", &raw, &ci);
	reconcile(&rc, 4 << 20, &raw, &ci);
	reconcile_page(&rc, 16 << 10);
	ck_assert_int_eq(reconcile_any(&rc), 1);
	ck_assert_int_eq(rc.emmc.have, 1);
	ck_assert_uint_eq(rc.emmc.erase_group_byte, 512 << 10);
	ck_assert_int_eq(rc.emmc.erase_group_fit, FIT_MULTIPLE);
	ck_assert_uint_eq(rc.emmc.large_unit_byte, 8 << 20);
	ck_assert_int_eq(rc.emmc.large_unit_fit, FIT_MULTIPLE);
	ck_assert_uint_eq(rc.emmc.super_page_byte, 32 << 10);
	ck_assert_int_eq(rc.emmc.super_page_fit, FIT_MULTIPLE);
	ck_assert_uint_eq(rc.emmc.optimal_write_byte, 64 << 10);
	ck_assert_int_eq(rc.emmc.optimal_write_fit, FIT_MULTIPLE);
	ck_assert_uint_eq(rc.emmc.cache_byte, 8 << 20);
	ck_assert_int_eq(rc.emmc.cache_fit, FIT_UNKNOWN);
	ck_assert_str_eq(rc.emmc.health,
			 "life time used 50-60 % (type A), 50-60 % (type B), pre-EOL normal");
	/* the pSLC area it can make against a write cache measured */
	ck_assert_uint_eq(rc.emmc.pslc_max_byte, 15627976704ULL);
	ck_assert_int_eq(rc.emmc.write_cache_fit, 0);
	reconcile_cache(&rc, 256 << 20);
	ck_assert_uint_eq(rc.emmc.write_cache_byte, 256 << 20);
	ck_assert_int_eq(rc.emmc.write_cache_fit, 1);
	reconcile_cache(&rc, 16ULL << 30);
	ck_assert_int_eq(rc.emmc.write_cache_fit, 2);
	reconcile_cache(&rc, 0);
	ck_assert_int_eq(rc.emmc.write_cache_fit, 0);
	/* an erase size the large unit is no multiple of; a page that is
	 * the super-page; nothing measured */
	reconcile(&rc, 3 << 20, &raw, &ci);
	reconcile_page(&rc, 32 << 10);
	ck_assert_int_eq(rc.emmc.large_unit_fit, FIT_DISAGREES);
	ck_assert_int_eq(rc.emmc.erase_group_fit, FIT_MULTIPLE);
	ck_assert_int_eq(rc.emmc.super_page_fit, FIT_AGREES);
	reconcile(&rc, 0, &raw, &ci);
	ck_assert_int_eq(rc.emmc.erase_group_fit, FIT_UNKNOWN);
	ck_assert_int_eq(rc.emmc.super_page_fit, FIT_UNKNOWN);
	/* the SanDisk's large unit (1 MiB) under an erase size of 4 MiB */
	card_of_dump("sandisk-da4064", &raw, &ci);
	reconcile(&rc, 4 << 20, &raw, &ci);
	ck_assert_int_eq(rc.emmc.large_unit_fit, FIT_MULTIPLE);
	/* eMMC 4.41: no optimal size, cache or health stated */
	card_of_dump("oznotes-extcsd1", &raw, &ci);
	reconcile(&rc, 4 << 20, &raw, &ci);
	reconcile_page(&rc, 16 << 10);
	ck_assert_uint_eq(rc.emmc.optimal_write_byte, 0);
	ck_assert_int_eq(rc.emmc.optimal_write_fit, FIT_UNKNOWN);
	ck_assert_uint_eq(rc.emmc.large_unit_byte, 0);
	ck_assert_str_eq(rc.emmc.health, "");
}
END_TEST

/* --auto's lines for an eMMC, as reconcile_print() words them. */
START_TEST(test_reconcile_text)
{
	struct card_raw raw;
	struct card_info ci;
	struct reconcile rc;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	card_of_dump("samsung-bjnb4r", &raw, &ci);
	reconcile(&rc, 4 << 20, &raw, &ci);
	reconcile_page(&rc, 16 << 10);
	f = open_memstream(&text, &len);
	ck_assert_ptr_nonnull(f);
	reconcile_print(f, &rc);
	fclose(f);
	ck_assert_str_eq(text,
		"erase size measured 4MiB; what the card and the kernel say:\n"
		"  erase group the eMMC states (EXT_CSD): 512KiB (a multiple: consistent)\n"
		"  large unit (EXT_CSD): 8MiB (a multiple: consistent)\n"
		"page measured 16KiB; what the eMMC states (EXT_CSD):\n"
		"  super-page: 32KiB (a multiple: consistent)\n"
		"  optimal write size: 64KiB (a multiple: consistent)\n"
		"  volatile cache: 8MiB (RAM, not the write cache measured in flash)\n"
		"  pSLC area it can make: 14.55GiB\n"
		"  health: life time used 50-60 % (type A), 50-60 % (type B), pre-EOL normal\n");
	check_width("reconcile", text);
	free(text);
}
END_TEST

/*
 * An --auto record of an eMMC (a simulated card's, with the Samsung's
 * EXT_CSD put in its registers, as a live run on it writes them), judged
 * again: its eMMC lines and reconcile.emmc.
 */
START_TEST(test_reconcile_record)
{
	char path[] = "/tmp/fb_extcsd_recXXXXXX", args[96];
	const char *at, *end, *ssr = "\"ssr\": null\n";
	struct fb_run reg, rec, r;
	FILE *f;
	int fd;

	fb_run("--registers=tests/data/extcsd/samsung-bjnb4r --json", &reg);
	fb_run("--auto --json -q --simulate=size=1G,erase=4M,page=16K", &rec);
	ck_assert_int_eq(rec.status, 0);
	at = strstr(reg.out, "\"ext_csd\": {");
	ck_assert_ptr_nonnull(at);
	end = strstr(at, "\n        }\n");
	ck_assert_ptr_nonnull(end);
	ck_assert_ptr_nonnull(strstr(rec.out, ssr));
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "%.*s\"ssr\": null,\n%.*s%s",
		(int)(strstr(rec.out, ssr) - rec.out), rec.out,
		(int)(end + 10 - at), at, strstr(rec.out, ssr) + strlen(ssr));
	fclose(f);
	snprintf(args, sizeof(args), "--analyze=%s", path);
	fb_run(args, &r);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_msg(strstr(r.out,
		"  erase group the eMMC states (EXT_CSD): 512KiB (a multiple: consistent)\n"
		"  large unit (EXT_CSD): 8MiB (a multiple: consistent)\n"
		"page measured 16KiB; what the eMMC states (EXT_CSD):\n"),
		"%s", r.out);
	ck_assert_ptr_nonnull(strstr(r.out, "\n  health: life time used 50-60 % (type A)"));
	fb_free(&r);
	snprintf(args, sizeof(args), "--analyze=%s --json", path);
	fb_run(args, &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_str_eq(fb_json(&r, "reconcile.emmc.erase_group_size"), "524288");
	ck_assert_str_eq(fb_json(&r, "reconcile.emmc.erase_group_fit"), "\"multiple\"");
	ck_assert_str_eq(fb_json(&r, "reconcile.emmc.measured_page_size"), "16384");
	ck_assert_str_eq(fb_json(&r, "reconcile.emmc.super_page_size"), "32768");
	ck_assert_str_eq(fb_json(&r, "reconcile.emmc.optimal_write_fit"), "\"multiple\"");
	ck_assert_str_eq(fb_json(&r, "reconcile.emmc.cache_size"), "8388608");
	ck_assert_str_eq(fb_json(&r, "reconcile.emmc.cache_fit"), "null");
	ck_assert_str_eq(fb_json(&r, "reconcile.emmc.health"),
			 "\"life time used 50-60 % (type A), 50-60 % (type B), pre-EOL normal\"");
	ck_assert_str_eq(fb_json(&r, "device.card.registers.ext_csd.cmdq_depth"), "16");
	fb_free(&r);
	fb_free(&reg);
	fb_free(&rec);
	unlink(path);
}
END_TEST

Suite *reconcile_suite(void)
{
	Suite *s = suite_create("reconcile");
	TCase *tc = tcase_create("reconcile");
	TCase *te = tcase_create("emmc");

	tcase_add_test(tc, test_reconcile_fit);
	tcase_add_test(tc, test_reconcile_kernel);
	tcase_add_test(tc, test_reconcile_auto);
	tcase_set_timeout(tc, 120);
	suite_add_tcase(s, tc);
	tcase_add_test(te, test_reconcile_sizes);
	tcase_add_test(te, test_reconcile_text);
	tcase_add_test(te, test_reconcile_record);
	tcase_set_timeout(te, 120);
	suite_add_tcase(s, te);
	return s;
}
