// SPDX-License-Identifier: GPL-2.0-only
/*
 * Output formats: every expected string below was printed by the classic
 * tool on a real card (../shared/seeds), except the negative times, whose
 * classic form was a defect.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "format.h"
#include "json.h"
#include "util.h"

static const struct {
	int64_t ns;
	const char *text;
} times[] = {
	{ 5850, "5.85\u00b5s" },	/* seed 000: diff 5.85µs */
	{ 4650, "4.65\u00b5s" },	/* seed 000: diff 4.65µs */
	{ 1080000, "1.08ms" },		/* seed 000: on 1.08ms */
	{ 1084321, "1.08ms" },
	{ 741000, "741\u00b5s" },	/* seed 000: pre 741µs */
	{ 53300, "53.3\u00b5s" },	/* seed 000: diff 53.3µs */
	{ 70000, "70\u00b5s" },		/* seed 001: diff 70µs */
	{ 1100000, "1.1ms" },		/* seed 004: pre 1.1ms */
	{ 62200, "62.2\u00b5s" },	/* seed 004: 62.2us access time */
	{ 55002223, "55ms" },		/* seed 004: min 55ms */
	{ 999, "999ns" },
	{ 0, "0ns" },
	{ 999600, "1ms" },		/* rounds to 1000µs: next unit */
	{ 999999, "1ms" },
	{ 999500000, "0.9995s" },	/* rounds to 1000ms: seconds */
	{ 999950000, "1s" },		/* %.3g ms would be 1e+03ms */
	{ 1234567890, "1.235s" },
	{ 12345678901LL, "12.35s" },
	{ -5790, "-5.79\u00b5s" },	/* classic printed -5790 cut short */
	{ -412331, "-412\u00b5s" },	/* classic: -412331 */
	{ -49389, "-49.4\u00b5s" },	/* classic: -49389n */
	{ -2926, "-2.93\u00b5s" },	/* classic: -2926ns */
	{ -999, "-999ns" },
	{ -1922680, "-1.92ms" },
};

START_TEST(test_time)
{
	char buf[FMT_LEN];

	ck_assert_str_eq(fmt_time(buf, times[_i].ns), times[_i].text);
}
END_TEST

static const struct {
	uint64_t bytes;
	const char *text;
} sizes[] = {
	{ 4 << 20, "4MiB" },		/* seed 000 open-au table */
	{ 512 << 10, "512KiB" },
	{ 512, "512B" },
	{ 8 << 20, "8MiB" },
	{ 16 << 10, "16KiB" },
	{ 12 << 20, "12MiB" },
	{ 3 << 19, "1.5MiB" },
	{ 1023, "1023B" },
	{ 1024, "1KiB" },
	{ 1023 * 1024 + 1000, "1MiB" },	/* 1023.98KiB rounds up a unit */
	{ 1ULL << 30, "1GiB" },
	{ 3ULL << 29, "1.5GiB" },
	{ 1234ULL << 30, "1234GiB" },
};

START_TEST(test_size)
{
	char buf[FMT_LEN];

	ck_assert_str_eq(fmt_size(buf, sizes[_i].bytes), sizes[_i].text);
}
END_TEST

static const struct {
	double bps;
	const char *text;
} rates[] = {
	{ 8.79e6, "8.79M/s" },		/* seed 000 */
	{ 912e3, "912K/s" },		/* seed 000 */
	{ 20.04e6, "20M/s" },		/* seed 001 */
	{ 42.5e3, "42.5K/s" },		/* seed 004 */
	{ 16.7e6, "16.7M/s" },
	{ 999.7e3, "1M/s" },		/* rounds up a unit */
	{ 999, "999B/s" },
	{ 12.5, "12B/s" },
	{ 1.5e9, "1.5G/s" },
};

START_TEST(test_rate)
{
	char buf[FMT_LEN];

	ck_assert_str_eq(fmt_rate(buf, rates[_i].bps), rates[_i].text);
}
END_TEST

static const struct {
	const char *text;
	int ret;
	uint64_t val;
} parses[] = {
	{ "1024", 0, 1024 },
	{ "04194304", 0, 4194304 },	/* leading zero is still decimal */
	{ "0x400000", 0, 4194304 },
	{ "0X10", 0, 16 },
	{ "4M", 0, 4 << 20 },
	{ "4m", 0, 4 << 20 },
	{ "4MiB", 0, 4 << 20 },
	/* a lowercase b is bits: 4Mb is 512 KiB, never taken as 4 MiB */
	{ "4mib", -EINVAL, 0 },
	{ "4Mb", -EINVAL, 0 },
	{ "4Mib", -EINVAL, 0 },
	{ "16kb", -EINVAL, 0 },
	{ "512b", -EINVAL, 0 },
	{ "0x4Mb", -EINVAL, 0 },
	{ "4KB", 0, 4 << 10 },
	{ "0x4b", 0, 0x4b },
	{ "4MB", 0, 4 << 20 },
	{ "16k", 0, 16 << 10 },
	{ "16KiB", 0, 16 << 10 },
	{ "2G", 0, 2ULL << 30 },
	/* 1 TB cards exist (issue 9 item 18) */
	{ "1T", 0, 1ULL << 40 },
	{ "2TiB", 0, 2ULL << 40 },
	{ "16777215TiB", 0, 16777215ULL << 40 },
	{ "16777216T", -ERANGE, 0 },
	{ "512B", 0, 512 },
	{ "0", 0, 0 },
	{ "", -EINVAL, 0 },
	{ "abc", -EINVAL, 0 },
	{ "-5", -EINVAL, 0 },
	{ "4X", -EINVAL, 0 },
	{ "4MiBs", -EINVAL, 0 },
	{ "1.5M", -EINVAL, 0 },
	{ " 12", -EINVAL, 0 },
	{ "0x", -EINVAL, 0 },
	{ "99999999999999999999", -ERANGE, 0 },
	{ "17179869184G", -ERANGE, 0 },
	{ "0xffffffffffffffffff", -ERANGE, 0 },
};

START_TEST(test_parse)
{
	uint64_t v = 0;

	ck_assert_int_eq(parse_size(parses[_i].text, &v), parses[_i].ret);
	if (!parses[_i].ret)
		ck_assert_uint_eq(v, parses[_i].val);
}
END_TEST

/* A size in bits is told apart, and what to write instead. */
static const struct {
	const char *text;
	const char *keep;	/* what is left without the bits ("": none) */
} bits[] = {
	{ "4Mb", "4M" }, { "4mib", "4m" }, { "16Kib", "16K" },
	{ "512b", "512" }, { "0x4Mb", "0x4M" }, { "1tb", "1t" },
	{ "4M", "" }, { "4MB", "" }, { "4MiB", "" }, { "0x4b", "" },
	{ "b", "" }, { "Mb", "" }, { "0xb", "" }, { "4Mbb", "" },
	{ "4Xb", "" },
};

START_TEST(test_bits)
{
	size_t n = size_bits_suffix(bits[_i].text);

	ck_assert_msg(n == strlen(bits[_i].keep) &&
		      !strncmp(bits[_i].text, bits[_i].keep, n),
		      "'%s': %zu", bits[_i].text, n);
}
END_TEST

/* The JSON writer escapes strings and nests; the checker reads it back. */
START_TEST(test_json_roundtrip)
{
	char *text, val[128];
	size_t len;
	FILE *f = open_memstream(&text, &len);
	struct json j;

	json_init(&j, f);
	json_object_begin(&j, NULL);
	json_string(&j, "path", "/dev/odd \"name\"\\\n\t\x01µ");
	json_u64(&j, "size", 8ULL << 30);
	json_i64(&j, "diff", -412331);
	json_double(&j, "rate", 8.79e6);
	json_double(&j, "inf", 1.0 / 0.0);
	json_array_begin(&j, "results");
	json_object_begin(&j, NULL);
	json_u64(&j, "align", 4194304);
	json_object_end(&j);
	json_array_begin(&j, NULL);
	json_array_end(&j);
	json_array_end(&j);
	json_object_begin(&j, "verdict");
	json_null(&j, "erase_size");
	json_bool(&j, "interrupted", 0);
	json_object_end(&j);
	json_object_end(&j);
	fclose(f);
	ck_assert_int_eq(json_get(text, NULL, NULL, 0), 0);
	ck_assert_int_eq(json_get(text, "size", val, sizeof(val)), 0);
	ck_assert_str_eq(val, "8589934592");
	ck_assert_int_eq(json_get(text, "diff", val, sizeof(val)), 0);
	ck_assert_str_eq(val, "-412331");
	ck_assert_int_eq(json_get(text, "results.0.align", val, sizeof(val)), 0);
	ck_assert_str_eq(val, "4194304");
	ck_assert_int_eq(json_get(text, "verdict.erase_size", val, sizeof(val)), 0);
	ck_assert_str_eq(val, "null");
	ck_assert_int_eq(json_get(text, "inf", val, sizeof(val)), 0);
	ck_assert_str_eq(val, "null");
	ck_assert_int_eq(json_get(text, "path", val, sizeof(val)), 0);
	ck_assert_str_eq(val, "\"/dev/odd \\\"name\\\"\\\\\\n\\t\\u0001µ\"");
	ck_assert_int_eq(json_get(text, "nope", val, sizeof(val)), -2);
	free(text);
	/* and the checker rejects what is not JSON */
	ck_assert_int_eq(json_get("{\"a\": 1,}", NULL, NULL, 0), -1);
	ck_assert_int_eq(json_get("{\"a\": 01}", NULL, NULL, 0), -1);
	ck_assert_int_eq(json_get("{\"a\": \"x\ty\"}", NULL, NULL, 0), -1);
	ck_assert_int_eq(json_get("[1, 2] 3", NULL, NULL, 0), -1);
	ck_assert_int_eq(json_get("{\"a\" 1}", NULL, NULL, 0), -1);
	ck_assert_int_eq(json_get("\"\xff\"", NULL, NULL, 0), -1);
}
END_TEST

/* Bytes that are not UTF-8: each becomes U+FFFD, UTF-8 is kept. */
static const struct {
	const char *in, *out;
} utf8s[] = {
	{ "a\xff" "b", "\"a\\ufffdb\"" },
	{ "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80",	/* e acute, euro, emoji */
	  "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"" },
	{ "\xe2\x82", "\"\\ufffd\\ufffd\"" },		/* cut short */
	{ "\xc0\xaf", "\"\\ufffd\\ufffd\"" },		/* overlong '/' */
	{ "\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"" },	/* surrogate */
	{ "\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"" },
	{ "\x80x", "\"\\ufffdx\"" },
};

START_TEST(test_json_utf8)
{
	char *text;
	size_t len;
	FILE *f = open_memstream(&text, &len);

	json_write_escaped(f, utf8s[_i].in);
	fclose(f);
	ck_assert_str_eq(text, utf8s[_i].out);
	ck_assert_int_eq(json_get(text, NULL, NULL, 0), 0);
	free(text);
}
END_TEST

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

Suite *format_suite(void)
{
	Suite *s = suite_create("format");
	TCase *tc = tcase_create("format");

	tcase_add_loop_test(tc, test_time, 0, N(times));
	tcase_add_loop_test(tc, test_size, 0, N(sizes));
	tcase_add_loop_test(tc, test_rate, 0, N(rates));
	tcase_add_loop_test(tc, test_parse, 0, N(parses));
	tcase_add_loop_test(tc, test_bits, 0, N(bits));
	tcase_add_test(tc, test_json_roundtrip);
	tcase_add_loop_test(tc, test_json_utf8, 0, N(utf8s));
	suite_add_tcase(s, tc);
	return s;
}
