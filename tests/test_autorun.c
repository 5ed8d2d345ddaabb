// SPDX-License-Identifier: GPL-2.0-only
/*
 * --auto through the front end (its row, probes/autotest.c, run as every
 * row is by front/runtests.c): on simulated cards the verdict is what was
 * planted; without --destructive it only reads and says how to go on.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flashbench.h"
#include "util.h"

/* --auto --destructive on simulated cards: the verdict is what was planted. */
static const struct {
	const char *spec;
	const char *erase, *page, *open_lin, *open_rand, *fat_start, *fat_nr;
} auto_cards[] = {
	{ "", "4194304", "16384", "4", "2", "0", "1" },
	{ "erase=8M,page=32K,open=6,open_random=3,fat=2,fat_start=1,noise=2",
	  "8388608", "32768", "6", "3", "1", "2" },
	{ "size=12G,erase=12M,page=16K,open=3,open_random=1,fat=0,noise=1",
	  "12582912", "16384", "3", "1", "null", "0" },
	{ "erase=2M,page=8K,open=9,open_random=5,fat=4,fat_start=2,noise=3,seed=7",
	  "2097152", "8192", "9", "5", "2", "4" },
};

START_TEST(test_auto_json_verdict)
{
	char args[256], buf[64];
	struct fb_run r;

	snprintf(args, sizeof(args), "--auto --destructive --json --simulate%s%s",
		 auto_cards[_i].spec[0] ? "=" : "", auto_cards[_i].spec);
	fb_run(args, &r);
	ck_assert_msg(r.status == 0, "%s: %d %s", args, r.status, r.err);
	ck_assert_int_eq(json_get(r.out, NULL, NULL, 0), 0);
	ck_assert_str_eq(json_at(r.out, "test", buf, sizeof(buf)), "\"auto\"");
	ck_assert_str_eq(json_at(r.out, "verdict.erase_size", buf, sizeof(buf)),
			 auto_cards[_i].erase);
	ck_assert_str_eq(json_at(r.out, "verdict.page_size", buf, sizeof(buf)),
			 auto_cards[_i].page);
	ck_assert_str_eq(json_at(r.out, "verdict.open_au_linear", buf,
			      sizeof(buf)), auto_cards[_i].open_lin);
	ck_assert_str_eq(json_at(r.out, "verdict.open_au_random", buf,
			      sizeof(buf)), auto_cards[_i].open_rand);
	ck_assert_str_eq(json_at(r.out, "verdict.fat_start", buf, sizeof(buf)),
			 auto_cards[_i].fat_start);
	ck_assert_str_eq(json_at(r.out, "verdict.fat_erase_blocks", buf,
			      sizeof(buf)), auto_cards[_i].fat_nr);
	ck_assert_str_eq(json_at(r.out, "verdict.confidence.erase_size", buf,
			      sizeof(buf)), "\"high\"");
	/* fat_start counts AUs; fat_start_byte is bytes (item 21) */
	json_at(r.out, "verdict.fat_start_byte", buf, sizeof(buf));
	if (strcmp(auto_cards[_i].fat_start, "null"))
		ck_assert_uint_eq(strtoull(buf, NULL, 10),
				  strtoull(auto_cards[_i].fat_start, NULL, 10) *
				  strtoull(auto_cards[_i].erase, NULL, 10));
	else
		ck_assert_str_eq(buf, "null");
	/* the advice, as the text gives it (item 21) */
	ck_assert_str_eq(json_at(r.out, "advice.erase_size_known", buf,
			      sizeof(buf)), "true");
	json_at(r.out, "advice.partition_start", buf, sizeof(buf));
	ck_assert_uint_eq(strtoull(buf, NULL, 10) %
			  strtoull(auto_cards[_i].erase, NULL, 10), 0);
	ck_assert_uint_ge(strtoull(buf, NULL, 10), 1 << 20);
	ck_assert_uint_lt(strtoull(buf, NULL, 10),
			  (1 << 20) + strtoull(auto_cards[_i].erase, NULL, 10));
	json_at(r.out, "advice.ext4_stripe_width", buf, sizeof(buf));
	ck_assert_uint_eq(strtoull(buf, NULL, 10) * 4096,
			  strtoull(auto_cards[_i].erase, NULL, 10));
	json_at(r.out, "advice.ext4_stride", buf, sizeof(buf));
	ck_assert_uint_eq(strtoull(buf, NULL, 10) * 4096,
			  strtoull(auto_cards[_i].page, NULL, 10));
	/* the writes were announced before they happened */
	ck_assert_ptr_nonnull(strstr(r.err, " in all, within bytes 0-"));
	fb_free(&r);
}
END_TEST

/* Without --destructive: read-only, and the text says how to go on. */
START_TEST(test_auto_read_only_text)
{
	struct fb_run r;

	fb_run("--auto --simulate=erase=8M,page=32K", &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_ptr_nonnull(strstr(r.out, "erase size: 8MiB (confidence high)\n"));
	ck_assert_ptr_nonnull(strstr(r.out, "page size: 32KiB (confidence "));
	ck_assert_ptr_nonnull(strstr(r.out, "open AUs linear: skipped\n"));
	ck_assert_ptr_nonnull(strstr(r.out,
		"flashbench --auto --destructive --simulate=erase=8M,page=32K"));
	ck_assert_ptr_nonnull(strstr(r.out, "mkfs.ext4 -b 4096 -E stride=8,stripe_width=2048"));
	ck_assert_ptr_nonnull(strstr(r.out, "mkfs.f2fs -s 4"));
	ck_assert_ptr_null(strstr(r.err, "will overwrite"));
	fb_free(&r);
}
END_TEST

/*
 * The hint after a read-only run names the capacity check and the class
 * check that --destructive adds, with what they overwrite: the figures
 * its announcements then give (issue 20 item 2).
 */
static const char *const hint_cards[] = { "", "size=1G,erase=8M" };

START_TEST(test_auto_hint_extras)
{
	char args[128], cap[64], cls[64], want[160];
	const char *h, *p;
	struct fb_run r;
	unsigned int n;

	snprintf(args, sizeof(args), "--auto --simulate%s%s",
		 hint_cards[_i][0] ? "=" : "", hint_cards[_i]);
	fb_run(args, &r);
	ck_assert_int_eq(r.status, 0);
	h = strstr(r.out, "\n--destructive also runs the capacity check (it may overwrite ");
	ck_assert_msg(h != NULL, "%s", r.out);
	ck_assert_int_eq(sscanf(h, "\n--destructive also runs the capacity check (it may overwrite %63s in %u places across the device) and the class check (it overwrites %63s from",
				cap, &n, cls), 3);
	/* right after the skipped line (and the lines it goes on in) */
	for (p = h; p > r.out && (p[-1] != '\n' || *p == ' '); p--)
		;
	ck_assert_msg(!strncmp(p, "skipped: ", 9), "%s", r.out);
	fb_free(&r);

	snprintf(args, sizeof(args), "--auto --destructive --simulate%s%s",
		 hint_cards[_i][0] ? "=" : "", hint_cards[_i]);
	fb_run(args, &r);
	snprintf(want, sizeof(want), "will overwrite %u ranges on simulated card, %s in all,",
		 n, cap);
	ck_assert_msg(strstr(r.err, want) != NULL, "%s\n%s", want, r.err);
	/*
	 * the class check's phase: its own range from 16 MiB, and with it
	 * what the write cache's recheck before it may write (the hint's
	 * "first writes past a write cache" line)
	 */
	ck_assert_ptr_nonnull(strstr(r.out, "  C10 "));
	snprintf(want, sizeof(want), "will overwrite 2 ranges on simulated card, ");
	ck_assert_msg(strstr(r.err, want) != NULL, "%s\n%s", want, r.err);
	ck_assert_msg(strstr(r.err, "within bytes 16777216-") != NULL, "%s",
		      r.err);
	ck_assert_ptr_null(strstr(r.out, "--destructive also runs"));
	fb_free(&r);
}
END_TEST

/*
 * --auto ignores --offset and says so under -v: its class check writes
 * where it would without it, not at the offset rounded up.
 */
START_TEST(test_auto_offset_ignored)
{
	struct fb_run r;

	fb_run("--auto --destructive -v --offset=6M --simulate=size=1G", &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_ptr_nonnull(strstr(r.err, "--offset=6M ignored"));
	ck_assert_ptr_nonnull(strstr(r.err, "will overwrite bytes 16777216-100663296 on simulated card\n"));
	ck_assert_ptr_nonnull(strstr(r.out, "sequential: 4 units of 4MiB from 16MiB,"));
	fb_free(&r);
}
END_TEST

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

Suite *autorun_suite(void)
{
	Suite *s = suite_create("autorun");
	TCase *tc = tcase_create("autorun");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_auto_json_verdict, 0, N(auto_cards));
	tcase_add_test(tc, test_auto_read_only_text);
	tcase_add_loop_test(tc, test_auto_hint_extras, 0, N(hint_cards));
	tcase_add_test(tc, test_auto_offset_ignored);
	suite_add_tcase(s, tc);
	return s;
}
