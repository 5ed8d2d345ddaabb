// SPDX-License-Identifier: GPL-2.0-only
/* A small streaming JSON writer. */
#include <inttypes.h>
#include <math.h>

#include "format.h"
#include "json.h"

void json_init(struct json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->count[0] = 0;
}

/* One ASCII character of a string literal, escaped where JSON needs it. */
static void json_put_ascii(FILE *f, unsigned char c)
{
	switch (c) {
	case '"':
		fputs("\\\"", f);
		break;
	case '\\':
		fputs("\\\\", f);
		break;
	case '\n':
		fputs("\\n", f);
		break;
	case '\r':
		fputs("\\r", f);
		break;
	case '\t':
		fputs("\\t", f);
		break;
	default:
		if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
}

/*
 * UTF-8 passes through; a byte that is not part of a UTF-8 character (a
 * file name in another encoding) becomes U+FFFD, because a JSON text must
 * be UTF-8 and has no escape for a raw byte.
 */
void json_write_escaped(FILE *f, const char *s)
{
	size_t len;

	fputc('"', f);
	for (; *s; s += len) {
		len = utf8_char_len(s);
		if (!len) {
			fputs("\\ufffd", f);
			len = 1;
		} else if (len > 1) {
			fwrite(s, 1, len, f);
		} else {
			json_put_ascii(f, (unsigned char)*s);
		}
	}
	fputc('"', f);
}

/* Separator, indentation and member name before a value. */
static void json_member(struct json *j, const char *key)
{
	if (j->depth > 0) {
		int i;

		fputs(j->count[j->depth] ? ",\n" : "\n", j->f);
		for (i = 0; i < j->depth; i++)
			fputs("  ", j->f);
	}
	j->count[j->depth]++;
	if (key) {
		json_write_escaped(j->f, key);
		fputs(": ", j->f);
	}
}

static void json_open(struct json *j, const char *key, char c)
{
	json_member(j, key);
	fputc(c, j->f);
	if (j->depth < JSON_MAX_DEPTH - 1)
		j->depth++;
	j->count[j->depth] = 0;
}

static void json_close(struct json *j, char c)
{
	int had = j->count[j->depth];

	if (j->depth > 0)
		j->depth--;
	if (had) {
		int i;

		fputc('\n', j->f);
		for (i = 0; i < j->depth; i++)
			fputs("  ", j->f);
	}
	fputc(c, j->f);
	if (j->depth == 0)
		fputc('\n', j->f);
}

void json_object_begin(struct json *j, const char *key)
{
	json_open(j, key, '{');
}

void json_object_end(struct json *j)
{
	json_close(j, '}');
}

void json_array_begin(struct json *j, const char *key)
{
	json_open(j, key, '[');
}

void json_array_end(struct json *j)
{
	json_close(j, ']');
}

void json_string(struct json *j, const char *key, const char *val)
{
	if (!val) {
		json_null(j, key);
		return;
	}
	json_member(j, key);
	json_write_escaped(j->f, val);
}

void json_u64(struct json *j, const char *key, uint64_t val)
{
	json_member(j, key);
	fprintf(j->f, "%" PRIu64, val);
}

void json_i64(struct json *j, const char *key, int64_t val)
{
	json_member(j, key);
	fprintf(j->f, "%" PRId64, val);
}

void json_double(struct json *j, const char *key, double val)
{
	json_member(j, key);
	if (isfinite(val))
		fprintf(j->f, "%.17g", val);
	else
		fputs("null", j->f);	/* JSON has no inf or nan */
}

void json_bool(struct json *j, const char *key, int val)
{
	json_member(j, key);
	fputs(val ? "true" : "false", j->f);
}

void json_null(struct json *j, const char *key)
{
	json_member(j, key);
	fputs("null", j->f);
}
