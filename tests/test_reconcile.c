// SPDX-License-Identifier: GPL-2.0-only
/*
 * The measured erase size beside what the card states and what the
 * kernel guesses (verdict/reconcile.c): each wording, and --auto's
 * lines and JSON on a simulated card stating its AU.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

Suite *reconcile_suite(void)
{
	Suite *s = suite_create("reconcile");
	TCase *tc = tcase_create("reconcile");

	tcase_add_test(tc, test_reconcile_fit);
	tcase_add_test(tc, test_reconcile_kernel);
	tcase_add_test(tc, test_reconcile_auto);
	tcase_set_timeout(tc, 120);
	suite_add_tcase(s, tc);
	return s;
}
