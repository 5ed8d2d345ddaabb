// SPDX-License-Identifier: GPL-2.0-only
/*
 * The JSON reader (base/jsonread.c): values and their exact integers,
 * escapes, limits, lookups, and where each malformed text is refused.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonread.h"
#include "util.h"

/* Parse s (NUL-terminated), which must be valid. */
static struct jr_value *parse_ok(const char *s)
{
	struct jr_value *v;
	char err[JR_ERR_LEN];
	int ret = jr_parse(s, strlen(s), NULL, &v, err, sizeof(err));

	ck_assert_msg(ret == 0, "%s: %d %s", s, ret, err);
	return v;
}

START_TEST(test_values)
{
	struct jr_value *v = parse_ok(
		" {\"a\": [1, -2, 3.5, true, false, null, \"x\"],\n"
		"  \"b\": {\"c\": {}}, \"e\": []}\n");
	const struct jr_value *a = jr_get(v, "a");

	ck_assert_int_eq(v->type, JR_OBJECT);
	ck_assert_uint_eq(jr_len(v), 3);
	ck_assert_uint_eq(jr_len(a), 7);
	ck_assert_uint_eq(jr_u64(jr_at(a, 0), 9), 1);
	ck_assert_int_eq(jr_i64(jr_at(a, 1), 9), -2);
	ck_assert_uint_eq(jr_u64(jr_at(a, 1), 9), 9);	/* negative */
	ck_assert_uint_eq(jr_u64(jr_at(a, 2), 9), 9);	/* not integral */
	ck_assert(jr_double(jr_at(a, 2), 0) == 3.5);
	ck_assert_int_eq(jr_bool(jr_at(a, 3), 0), 1);
	ck_assert_int_eq(jr_bool(jr_at(a, 4), 1), 0);
	ck_assert(jr_is(jr_at(a, 5), JR_NULL));
	ck_assert_uint_eq(jr_u64(jr_at(a, 5), 7), 7);	/* null: default */
	ck_assert_str_eq(jr_str(jr_at(a, 6), ""), "x");
	ck_assert_ptr_null(jr_at(a, 7));
	ck_assert(jr_is(jr_path(v, "b.c"), JR_OBJECT));
	ck_assert_uint_eq(jr_len(jr_get(v, "e")), 0);
	ck_assert_str_eq(jr_str(jr_path(v, "a.6"), ""), "x");
	ck_assert_ptr_null(jr_path(v, "a.-1"));
	ck_assert_ptr_null(jr_path(v, "a.x"));
	ck_assert_ptr_null(jr_get(a, "a"));	/* an array has no members */
	ck_assert_ptr_null(jr_get(NULL, "a"));
	/* where each value starts */
	ck_assert_uint_eq(a->line, 1);
	ck_assert_uint_eq(a->col, 8);
	ck_assert_uint_eq(jr_get(v, "b")->line, 2);
	ck_assert_uint_eq(jr_get(v, "b")->col, 8);
	jr_free(v);
}
END_TEST

/* 64-bit integers exactly, where a double would round them. */
START_TEST(test_integers)
{
	struct jr_value *v = parse_ok(
		"[18446744073709551615, 9223372036854775807,"
		" -9223372036854775808, 18446744073709551616, 1e3, 2.0,"
		" -0, 9007199254740993]");

	ck_assert_uint_eq(jr_u64(jr_at(v, 0), 0), UINT64_MAX);
	ck_assert_int_eq(jr_i64(jr_at(v, 0), 5), 5);	/* over int64 */
	ck_assert_int_eq(jr_i64(jr_at(v, 1), 0), INT64_MAX);
	ck_assert_int_eq(jr_i64(jr_at(v, 2), 0), INT64_MIN);
	ck_assert_uint_eq(jr_u64(jr_at(v, 3), 1), 1);	/* over 64 bits */
	ck_assert(jr_double(jr_at(v, 3), 0) == 18446744073709551616.0);
	ck_assert_uint_eq(jr_u64(jr_at(v, 4), 0), 1000);
	ck_assert_uint_eq(jr_u64(jr_at(v, 5), 0), 2);
	ck_assert_uint_eq(jr_u64(jr_at(v, 6), 1), 0);
	ck_assert_uint_eq(jr_u64(jr_at(v, 7), 0), 9007199254740993ULL);
	jr_free(v);
}
END_TEST

START_TEST(test_escapes)
{
	struct jr_value *v = parse_ok(
		"[\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\", \"\\u00e9\\u20ac\","
		" \"\\ud83d\\ude00\", \"x\\u0000y\", \"\xc3\xa9\"]");

	ck_assert_str_eq(jr_str(jr_at(v, 0), ""), "a\"b\\c/d\b\f\n\r\t");
	ck_assert_str_eq(jr_str(jr_at(v, 1), ""), "\xc3\xa9\xe2\x82\xac");
	ck_assert_str_eq(jr_str(jr_at(v, 2), ""), "\xf0\x9f\x98\x80");
	ck_assert_uint_eq(jr_at(v, 3)->len, 3);
	ck_assert_int_eq(memcmp(jr_at(v, 3)->s, "x\0y", 3), 0);
	ck_assert_str_eq(jr_str(jr_at(v, 4), ""), "\xc3\xa9");
	jr_free(v);
}
END_TEST

/* Each bad text, its error number and where the message puts it. */
static const struct {
	const char *text;
	int ret;
	const char *err;	/* the message starts with this */
	size_t len;		/* of text, where it holds a NUL; 0: strlen */
} bad[] = {
	{ "", -EINVAL, "1:1: a value expected, found the end", 0 },
	{ "   \n  ", -EINVAL, "2:3: a value expected", 0 },
	{ "{\"a\": 1", -EINVAL, "1:8: ',' or '}' after a member expected, found the end of the text (truncated?)", 0 },
	{ "{\"a\": 1,\n \"b\" 2}", -EINVAL, "2:6: ':' after the member name expected, found '2'", 0 },
	{ "[1 2]", -EINVAL, "1:4: ',' or ']' after an array element", 0 },
	{ "[1,]", -EINVAL, "1:4: a value expected, found ']'", 0 },
	{ "{,}", -EINVAL, "1:2: a member name", 0 },
	{ "{\"a\":1,}", -EINVAL, "1:8: a member name", 0 },
	{ "{1:2}", -EINVAL, "1:2: a member name", 0 },
	{ "[01]", -EINVAL, "1:3: '.', 'e' or the number's end", 0 },
	{ "[1.]", -EINVAL, "1:4: a digit after '.'", 0 },
	{ "[1e]", -EINVAL, "1:4: a digit of the exponent", 0 },
	{ "[-]", -EINVAL, "1:3: a digit expected", 0 },
	{ "[+1]", -EINVAL, "1:2: a value expected, found '+'", 0 },
	{ "[tru]", -EINVAL, "1:2: a value expected", 0 },
	{ "[nul", -EINVAL, "1:2: a value expected", 0 },
	{ "\"abc", -EINVAL, "1:5: '\"' closing the string expected", 0 },
	{ "\"a\nb\"", -EINVAL, "1:3: control character 0a", 0 },
	{ "\"\\x\"", -EINVAL, "1:3: unknown escape '\\x'", 0 },
	{ "\"\\u12\"", -EINVAL, "1:4: \\u needs four hex digits", 0 },
	{ "\"\\ud800\"", -EINVAL, "1:8: \\ud800: a high surrogate alone", 0 },
	{ "\"\\udc00\"", -EINVAL, "1:8: \\udc00: a low surrogate alone", 0 },
	{ "\"\\ud800\\u0041\"", -EINVAL, "1:14: \\ud800 must be followed", 0 },
	{ "\"\xff\"", -EINVAL, "1:2: not UTF-8 (byte ff)", 0 },
	{ "\"\xc3\"", -EINVAL, "1:2: not UTF-8 (byte c3)", 0 },
	{ "{} {}", -EINVAL, "1:4: the end after the document expected, found '{'", 0 },
	{ "[1]]", -EINVAL, "1:4: the end after the document", 0 },
	{ "NaN", -EINVAL, "1:1: a value expected, found 'N'", 0 },
	{ "\xef\xbb\xbf{}", -EINVAL, "1:1: a value expected, found byte ef", 0 },
	{ "[\"a\"\0]", -EINVAL, "1:5: ',' or ']' after an array element expected, found byte 00", 6 },
};

START_TEST(test_malformed)
{
	const char *t = bad[_i].text;
	size_t len = bad[_i].len ? bad[_i].len : strlen(t);
	struct jr_value *v = (void *)1;
	char err[JR_ERR_LEN];
	int ret = jr_parse(t, len, NULL, &v, err, sizeof(err));

	ck_assert_int_eq(ret, bad[_i].ret);
	ck_assert_ptr_null(v);
	ck_assert_msg(!strncmp(err, bad[_i].err, strlen(bad[_i].err)),
		      "'%s': got \"%s\", want \"%s\"", t, err, bad[_i].err);
	ck_assert_ptr_null(strchr(err, '\n'));
}
END_TEST

/* A record cut anywhere is refused, never half read. */
START_TEST(test_truncated_record)
{
	struct jr_value *v;
	char err[JR_ERR_LEN];
	struct fb_run r;
	size_t len, cut, refused = 0;

	fb_run("--auto --json -q --simulate=size=256M,claims=C10", &r);
	ck_assert_int_eq(r.status, 0);
	len = strlen(r.out);
	ck_assert_int_eq(jr_parse(r.out, len, NULL, &v, err, sizeof(err)), 0);
	ck_assert_str_eq(jr_str(jr_get(v, "test"), ""), "auto");
	ck_assert_uint_eq(jr_u64(jr_path(v, "device.size"), 0), 256 << 20);
	ck_assert_uint_eq(jr_u64(jr_path(v, "verdict.erase_size"), 0),
			  4 << 20);
	jr_free(v);
	/* the text ends in "}\n": every shorter prefix but that is bad */
	for (cut = 0; cut + 1 < len; cut += 7) {
		int ret = jr_parse(r.out, cut, NULL, &v, err, sizeof(err));

		ck_assert_msg(ret == -EINVAL, "cut at %zu: %d", cut, ret);
		ck_assert_ptr_null(v);
		refused++;
	}
	ck_assert_uint_gt(refused, 100);
	fb_free(&r);
}
END_TEST

START_TEST(test_limits)
{
	struct jr_limits lim = { .max_depth = 3 };
	struct jr_value *v;
	char err[JR_ERR_LEN];
	char *deep;
	size_t i;

	ck_assert_int_eq(jr_parse("[[[1]]]", 7, &lim, &v, err, sizeof(err)),
			 0);
	jr_free(v);
	ck_assert_int_eq(jr_parse("[[[[1]]]]", 9, &lim, &v, err, sizeof(err)),
			 -E2BIG);
	ck_assert_str_eq(err, "1:4: nested deeper than 3");
	lim = (struct jr_limits){ .max_values = 4 };
	ck_assert_int_eq(jr_parse("[1,2,3]", 7, &lim, &v, err, sizeof(err)),
			 0);
	jr_free(v);
	ck_assert_int_eq(jr_parse("[1,2,3,4]", 9, &lim, &v, err,
				  sizeof(err)), -E2BIG);
	ck_assert_str_eq(err, "1:8: more than 4 values");
	lim = (struct jr_limits){ .max_bytes = 8 };
	ck_assert_int_eq(jr_parse("[1,2,3,4]", 9, &lim, &v, err,
				  sizeof(err)), -E2BIG);
	ck_assert_str_eq(err, "1:1: longer than 8 bytes");
	/* the default depth keeps a long run of '[' off the stack */
	deep = malloc(100001);
	ck_assert_ptr_nonnull(deep);
	for (i = 0; i < 100000; i++)
		deep[i] = '[';
	ck_assert_int_eq(jr_parse(deep, 100000, NULL, &v, err, sizeof(err)),
			 -E2BIG);
	ck_assert_str_eq(err, "1:65: nested deeper than 64");
	free(deep);
}
END_TEST

/* A short error buffer is cut, never overrun. */
START_TEST(test_short_err)
{
	struct jr_value *v;
	char err[8];

	memset(err, 'x', sizeof(err));
	ck_assert_int_eq(jr_parse("[1 2]", 5, NULL, &v, err, 6), -EINVAL);
	ck_assert_str_eq(err, "1:4: ");
	ck_assert_int_eq(err[6], 'x');
}
END_TEST

Suite *jsonread_suite(void)
{
	Suite *s = suite_create("jsonread");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_values);
	tcase_add_test(tc, test_integers);
	tcase_add_test(tc, test_escapes);
	tcase_add_loop_test(tc, test_malformed, 0,
			    sizeof(bad) / sizeof(bad[0]));
	tcase_add_test(tc, test_truncated_record);
	tcase_add_test(tc, test_limits);
	tcase_add_test(tc, test_short_err);
	suite_add_tcase(s, tc);
	return s;
}
