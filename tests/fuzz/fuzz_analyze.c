// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness for --analyze: analyze_parse() and analyze_align() on
 * the raw input as text (first byte even), or analyze_align() on rows
 * decoded from the input bytes (first byte odd), with every value within
 * what the text parser can produce (|t| < 9e18 ns, align > 0).
 *
 * Checked: the parser keeps inside the len bytes it is given, fills rows
 * with a positive alignment and tables that are never empty; a verdict
 * has confidence none exactly when its size is 0, a known confidence, and
 * a page size below the erase size.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "fuzz_util.h"

/* Rows decoded in binary mode, at most. */
#define ANALYZE_MAX_ROWS 64
/* What parse_time() accepts is below this many ns. */
#define ANALYZE_MAX_NS 9000000000000000000ULL

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_step(const struct analyze_step *s, const char *what)
{
	if (s->confidence > ANALYZE_CONF_HIGH)
		fuzz_fail("%s: confidence %d", what, (int)s->confidence);
	if (!s->size_byte != (s->confidence == ANALYZE_CONF_NONE))
		fuzz_fail("%s: size %llu with confidence %s", what,
			  (unsigned long long)s->size_byte,
			  analyze_confidence_name(s->confidence));
}

/* Analyse rows, check the verdict, print it (and its evidence). */
static void verdict(const struct align_row *rows, size_t n)
{
	struct align_verdict v;
	int ret;

	memset(&v, 0xa5, sizeof(v));
	ret = analyze_align(rows, n, &v);
	if (ret == -ENOMEM)
		return;
	if (ret == -EINVAL && !n)
		return;
	if (ret)
		fuzz_fail("analyze_align on %zu rows: %d", n, ret);
	check_step(&v.erase, "erase");
	check_step(&v.page, "page");
	if (v.page.size_byte && v.erase.size_byte &&
	    v.page.size_byte >= v.erase.size_byte)
		fuzz_fail("page size %llu not below erase size %llu",
			  (unsigned long long)v.page.size_byte,
			  (unsigned long long)v.erase.size_byte);
	analyze_print_verdict(fuzz_null(), 1, &v);
	analyze_print_evidence(fuzz_null(), &v);
}

static void text_mode(const uint8_t *data, size_t size)
{
	struct align_table *t = NULL;
	size_t n = 0, i, j;
	char *copy;
	int ret;

	/* exactly size bytes, no terminator: ASan sees any over-read */
	copy = malloc(size ? size : 1);
	if (!copy)
		return;
	memcpy(copy, data, size);
	ret = analyze_parse(copy, size, &t, &n);
	if (ret == -ENOMEM)
		goto out_free_copy;
	if (ret)
		fuzz_fail("analyze_parse: %d", ret);
	if (n && !t)
		fuzz_fail("%zu tables but none returned", n);
	for (i = 0; i < n; i++) {
		if (!t[i].nrows || !t[i].rows)
			fuzz_fail("table %zu is empty", i + 1);
		for (j = 0; j < t[i].nrows; j++)
			if (!t[i].rows[j].align_byte)
				fuzz_fail("table %zu row %zu: align 0", i + 1,
					  j + 1);
		verdict(t[i].rows, t[i].nrows);
	}
	analyze_free_tables(t, n);
	ret = analyze_text(fuzz_null(), copy, size, 2);
	if (ret != -ENOMEM && ret != (int)n)
		fuzz_fail("analyze_text disagrees with analyze_parse");
out_free_copy:
	free(copy);
}

/* A time from 8 bytes, inside what the parser accepts. */
static int64_t get_ns(const uint8_t *p)
{
	uint64_t u;
	int64_t v;

	memcpy(&u, p, sizeof(u));
	switch (p[0] & 3) {
	case 0:		/* microseconds to milliseconds, the usual */
		v = (int64_t)(u >> 40);
		break;
	case 1:		/* small, often negative */
		v = (int64_t)(int16_t)(u >> 16);
		break;
	default:	/* anything the text can say: |v| < 9e18 */
		u %= 2 * ANALYZE_MAX_NS - 1;
		v = u < ANALYZE_MAX_NS ? (int64_t)u :
		    -(int64_t)(u - ANALYZE_MAX_NS) - 1;
		break;
	}
	return v;
}

static void binary_mode(const uint8_t *data, size_t size)
{
	/* align, pre, on, post, diff: 1 + 4 * 8 bytes */
	enum { ROW_BYTES = 33 };
	struct align_row rows[ANALYZE_MAX_ROWS];
	size_t n = 0, i;

	while (size >= ROW_BYTES && n < ANALYZE_MAX_ROWS) {
		struct align_row *r = &rows[n++];
		unsigned int sh = data[0] & 63;

		memset(r, 0, sizeof(*r));
		/* powers of two mostly; 3 * 2^n and odd values too */
		r->align_byte = 1ULL << sh;
		if (data[0] & 64 && sh < 62)
			r->align_byte *= 3;
		if ((data[0] & 0xc0) == 0xc0)
			r->align_byte = (uint64_t)data[1] << 8 | data[2] | 1;
		r->pre_ns = get_ns(data + 1);
		r->on_ns = get_ns(data + 9);
		r->post_ns = get_ns(data + 17);
		r->diff_ns = get_ns(data + 25);
		if (data[1] & 0x80) {	/* consistent, as measured */
			double d = (double)r->on_ns -
				   ((double)r->pre_ns + (double)r->post_ns) / 2;

			if (fabs(d) < 9e18)
				r->diff_ns = llround(d);
		}
		data += ROW_BYTES;
		size -= ROW_BYTES;
	}
	verdict(rows, n);
	/* any order */
	for (i = 0; i < n / 2; i++) {
		struct align_row tmp = rows[i];

		rows[i] = rows[n - 1 - i];
		rows[n - 1 - i] = tmp;
	}
	verdict(rows, n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size && data[0] & 1)
		binary_mode(data + 1, size - 1);
	else
		text_mode(size ? data + 1 : data, size ? size - 1 : 0);
	return 0;
}
