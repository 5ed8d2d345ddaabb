// SPDX-License-Identifier: GPL-2.0-only
/*
 * The JSON reader (see jsonread.h): recursive descent over a buffer that
 * need not end in NUL, every value malloc'd into a tree.  The depth limit
 * keeps the recursion off the end of the stack; the value limit keeps a
 * small text of "[[[[" or "[0,0,0," from costing gigabytes of tree.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c.h"
#include "format.h"
#include "jsonread.h"

#define JR_DEF_BYTES	(16u << 20)
#define JR_DEF_DEPTH	64u
#define JR_DEF_VALUES	(1u << 20)

/* Where the parse is and what it may still take. */
struct jr_parser {
	const char *p, *end;	/* the next byte, the end of the text */
	const char *line_start;	/* first byte of the current line */
	unsigned int line;	/* from 1 */
	struct jr_limits lim;	/* with the defaults filled in */
	size_t values;		/* values made so far */
	char *err;
	size_t err_len;
};

static int jr_value_parse(struct jr_parser *ps, struct jr_value *v,
			  unsigned int depth);
static void value_clear(struct jr_value *v);

/* Put "LINE:COL: what" at the current byte into err; returns ret. */
static int fail(struct jr_parser *ps, int ret, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct jr_parser *ps, int ret, const char *fmt, ...)
{
	int n = snprintf(ps->err, ps->err_len, "%u:%zu: ", ps->line,
			 (size_t)(ps->p - ps->line_start) + 1);

	if (n >= 0 && (size_t)n < ps->err_len) {
		va_list ap;

		va_start(ap, fmt);
		vsnprintf(ps->err + n, ps->err_len - n, fmt, ap);
		va_end(ap);
	}
	return ret;
}

/* What stands at the current byte, for a message: "'x'" or "the end". */
static const char *here(const struct jr_parser *ps, char buf[8])
{
	unsigned char c;

	if (ps->p >= ps->end)
		return "the end of the text (truncated?)";
	c = (unsigned char)*ps->p;
	if (c >= 0x20 && c < 0x7f)
		snprintf(buf, 8, "'%c'", c);
	else
		snprintf(buf, 8, "byte %02x", c);
	return buf;
}

static int unexpected(struct jr_parser *ps, const char *wanted)
{
	char buf[8];

	return fail(ps, -EINVAL, "%s expected, found %s", wanted,
		    here(ps, buf));
}

static void skip_ws(struct jr_parser *ps)
{
	for (; ps->p < ps->end; ps->p++) {
		if (*ps->p == '\n') {
			ps->line++;
			ps->line_start = ps->p + 1;
		} else if (*ps->p != ' ' && *ps->p != '\t' && *ps->p != '\r') {
			break;
		}
	}
}

/* Consume c after white space; 0, or -EINVAL when something else stands. */
static int expect(struct jr_parser *ps, char c, const char *wanted)
{
	skip_ws(ps);
	if (ps->p < ps->end && *ps->p == c) {
		ps->p++;
		return 0;
	}
	return unexpected(ps, wanted);
}

/* ---- strings ---- */

/* A growing buffer of decoded bytes. */
struct jr_buf {
	char *s;
	size_t len, cap;
};

static int buf_put(struct jr_buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 16;
		char *t;

		while (cap < b->len + n + 1)
			cap *= 2;
		t = realloc(b->s, cap);
		if (!t)
			return -ENOMEM;
		b->s = t;
		b->cap = cap;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
	return 0;
}

/* Code point cp as UTF-8 into b. */
static int buf_put_cp(struct jr_buf *b, unsigned long cp)
{
	char u[4];
	size_t n;

	if (cp < 0x80) {
		u[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		u[0] = (char)(0xc0 | (cp >> 6));
		u[1] = (char)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		u[0] = (char)(0xe0 | (cp >> 12));
		u[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		u[2] = (char)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		u[0] = (char)(0xf0 | (cp >> 18));
		u[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
		u[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
		u[3] = (char)(0x80 | (cp & 0x3f));
		n = 4;
	}
	return buf_put(b, u, n);
}

/* Four hex digits after "\u"; -1 if they are not there. */
static long hex4(struct jr_parser *ps)
{
	long v = 0;
	int i;

	if (ps->end - ps->p < 4)
		return -1;
	for (i = 0; i < 4; i++) {
		char c = ps->p[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v |= c - 'A' + 10;
		else
			return -1;
	}
	ps->p += 4;
	return v;
}

/* "\uXXXX", a surrogate pair taken whole; ps->p after the 'u'. */
static int unicode_escape(struct jr_parser *ps, struct jr_buf *b)
{
	long hi = hex4(ps), lo;

	if (hi < 0)
		return fail(ps, -EINVAL, "\\u needs four hex digits");
	if (hi >= 0xdc00 && hi <= 0xdfff)
		return fail(ps, -EINVAL, "\\u%04lx: a low surrogate alone", hi);
	if (hi < 0xd800 || hi > 0xdbff)
		return buf_put_cp(b, (unsigned long)hi);
	if (ps->end - ps->p < 2 || ps->p[0] != '\\' || ps->p[1] != 'u')
		return fail(ps, -EINVAL, "\\u%04lx: a high surrogate alone",
			    hi);
	ps->p += 2;
	lo = hex4(ps);
	if (lo < 0xdc00 || lo > 0xdfff)
		return fail(ps, -EINVAL,
			    "\\u%04lx must be followed by a low surrogate", hi);
	return buf_put_cp(b, 0x10000 + (((unsigned long)hi - 0xd800) << 10) +
				 ((unsigned long)lo - 0xdc00));
}

/* One escape; ps->p on the byte after the backslash. */
static int escape(struct jr_parser *ps, struct jr_buf *b)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *k;

	if (ps->p >= ps->end)
		return unexpected(ps, "an escape");
	if (*ps->p == 'u') {
		ps->p++;
		return unicode_escape(ps, b);
	}
	k = memchr(from, *ps->p, sizeof(from) - 1);
	if (!k)
		return fail(ps, -EINVAL, "unknown escape '\\%c'",
			    *ps->p >= 0x20 && *ps->p < 0x7f ? *ps->p : '?');
	ps->p++;
	return buf_put(b, &to[k - from], 1);
}

/* One raw character of a string, checked to be UTF-8 and not a control. */
static int raw_char(struct jr_parser *ps, struct jr_buf *b)
{
	unsigned char c = (unsigned char)*ps->p;
	char u[5] = { 0 };
	size_t n;

	if (c < 0x20)
		return fail(ps, -EINVAL,
			    "control character %02x in a string (truncated line?)",
			    c);
	n = (size_t)(ps->end - ps->p) < 4 ? (size_t)(ps->end - ps->p) : 4;
	memcpy(u, ps->p, n);
	n = utf8_char_len(u);
	if (!n)
		return fail(ps, -EINVAL, "not UTF-8 (byte %02x)", c);
	ps->p += n;
	return buf_put(b, u, n);
}

/* A string literal; on success *out is malloc'd (NUL-terminated). */
static int string_parse(struct jr_parser *ps, char **out, size_t *len)
{
	struct jr_buf b = { NULL, 0, 0 };
	int ret = 0;

	ps->p++;	/* the opening quote */
	if (buf_put(&b, "", 0))
		return fail(ps, -ENOMEM, "out of memory");
	while (!ret) {
		if (ps->p >= ps->end) {
			ret = unexpected(ps, "'\"' closing the string");
		} else if (*ps->p == '"') {
			ps->p++;
			break;
		} else if (*ps->p == '\\') {
			ps->p++;
			ret = escape(ps, &b);
		} else {
			ret = raw_char(ps, &b);
		}
		if (ret == -ENOMEM)
			fail(ps, ret, "out of memory");
	}
	if (ret) {
		free(b.s);
		return ret;
	}
	*out = b.s;
	*len = b.len;
	return 0;
}

/* ---- numbers ---- */

static size_t digits(const char *p, const char *end)
{
	const char *q = p;

	while (q < end && *q >= '0' && *q <= '9')
		q++;
	return (size_t)(q - p);
}

/* The exact integer of a literal without fraction or exponent. */
static void integer_exact(struct jr_value *v, const char *s, size_t n)
{
	int neg = s[0] == '-';
	uint64_t u = 0;
	size_t i;

	for (i = neg; i < n; i++) {
		unsigned int d = (unsigned int)(s[i] - '0');

		if (u > (UINT64_MAX - d) / 10)
			return;	/* beyond 64 bits: the double alone */
		u = u * 10 + d;
	}
	if (!neg) {
		v->u = u;
		v->flags |= JR_UINT64;
		if (u <= INT64_MAX) {
			v->i = (int64_t)u;
			v->flags |= JR_INT64;
		}
	} else if (u <= (uint64_t)INT64_MAX + 1) {
		v->i = u == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)u;
		v->flags |= JR_INT64;
		if (!u) {
			v->u = 0;
			v->flags |= JR_UINT64;
		}
	}
}

/* A fraction or exponent that still names an integer (2.0, 1e3). */
static void integral_double(struct jr_value *v)
{
	if (v->d != floor(v->d) || fabs(v->d) > 9007199254740992.0)
		return;	/* beyond 2^53 a double need not be exact */
	v->i = (int64_t)v->d;
	v->flags |= JR_INT64;
	if (v->d >= 0) {
		v->u = (uint64_t)v->d;
		v->flags |= JR_UINT64;
	}
}

/* -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? as RFC 8259 has it. */
static int number_parse(struct jr_parser *ps, struct jr_value *v)
{
	const char *s = ps->p, *q = ps->p;
	char tmp[64], *copy = tmp;
	int plain = 1;
	size_t n;

	if (q < ps->end && *q == '-')
		q++;
	n = digits(q, ps->end);
	if (!n || (q[0] == '0' && n > 1)) {
		ps->p = q + (n ? 1 : 0);
		return unexpected(ps, n ? "'.', 'e' or the number's end" :
				  "a digit");
	}
	q += n;
	if (q < ps->end && *q == '.') {
		plain = 0;
		n = digits(++q, ps->end);
		ps->p = q;
		if (!n)
			return unexpected(ps, "a digit after '.'");
		q += n;
	}
	if (q < ps->end && (*q == 'e' || *q == 'E')) {
		plain = 0;
		if (++q < ps->end && (*q == '+' || *q == '-'))
			q++;
		n = digits(q, ps->end);
		ps->p = q;
		if (!n)
			return unexpected(ps, "a digit of the exponent");
		q += n;
	}
	n = (size_t)(q - s);
	if (n >= sizeof(tmp)) {
		copy = malloc(n + 1);
		if (!copy)
			return fail(ps, -ENOMEM, "out of memory");
	}
	memcpy(copy, s, n);
	copy[n] = '\0';
	v->type = JR_NUMBER;
	v->d = strtod(copy, NULL);	/* ±HUGE_VAL past the double range */
	if (plain)
		integer_exact(v, copy, n);
	else
		integral_double(v);
	if (copy != tmp)
		free(copy);
	ps->p = q;
	return 0;
}

/* ---- arrays and objects ---- */

/* Room for one more member; 0 or -ENOMEM. */
static int grow(struct jr_value *v, size_t *cap)
{
	struct jr_value *nv;
	size_t c;

	if (v->n < *cap)
		return 0;
	c = *cap ? 2 * *cap : 4;
	nv = realloc(v->v, c * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	v->v = nv;
	if (v->type == JR_OBJECT) {
		char **nk = realloc(v->keys, c * sizeof(*nk));

		if (!nk)
			return -ENOMEM;
		v->keys = nk;
	}
	*cap = c;
	return 0;
}

/* The next member's value; the member counts once it is parsed. */
static int member(struct jr_parser *ps, struct jr_value *v, size_t *cap,
		  unsigned int depth)
{
	int ret;

	if (grow(v, cap))
		return fail(ps, -ENOMEM, "out of memory");
	ret = jr_value_parse(ps, &v->v[v->n], depth + 1);
	if (ret)
		value_clear(&v->v[v->n]);	/* what it held so far */
	else
		v->n++;
	return ret;
}

static int array_parse(struct jr_parser *ps, struct jr_value *v,
		       unsigned int depth)
{
	size_t cap = 0;

	v->type = JR_ARRAY;
	ps->p++;
	skip_ws(ps);
	if (ps->p < ps->end && *ps->p == ']') {
		ps->p++;
		return 0;
	}
	for (;;) {
		int ret = member(ps, v, &cap, depth);

		if (ret)
			return ret;
		skip_ws(ps);
		if (ps->p < ps->end && *ps->p == ']') {
			ps->p++;
			return 0;
		}
		ret = expect(ps, ',', "',' or ']' after an array element");
		if (ret)
			return ret;
	}
}

/* "name": into v->keys[v->n]; the value follows. */
static int key_parse(struct jr_parser *ps, struct jr_value *v, size_t *cap)
{
	size_t len;
	int ret;

	skip_ws(ps);
	if (ps->p >= ps->end || *ps->p != '"')
		return unexpected(ps, "a member name in '\"'");
	if (grow(v, cap))
		return fail(ps, -ENOMEM, "out of memory");
	ret = string_parse(ps, &v->keys[v->n], &len);
	if (ret)
		return ret;
	ret = expect(ps, ':', "':' after the member name");
	if (ret)
		free(v->keys[v->n]);
	return ret;
}

static int object_parse(struct jr_parser *ps, struct jr_value *v,
			unsigned int depth)
{
	size_t cap = 0;

	v->type = JR_OBJECT;
	ps->p++;
	skip_ws(ps);
	if (ps->p < ps->end && *ps->p == '}') {
		ps->p++;
		return 0;
	}
	for (;;) {
		int ret = key_parse(ps, v, &cap);

		if (ret)
			return ret;
		ret = member(ps, v, &cap, depth);
		if (ret) {
			free(v->keys[v->n]);
			return ret;
		}
		skip_ws(ps);
		if (ps->p < ps->end && *ps->p == '}') {
			ps->p++;
			return 0;
		}
		ret = expect(ps, ',', "',' or '}' after a member");
		if (ret)
			return ret;
	}
}

/* ---- values ---- */

/* "true", "false" or "null" at ps->p. */
static int literal(struct jr_parser *ps, struct jr_value *v)
{
	static const struct {
		const char *word;
		enum jr_type type;
		int b;
	} words[] = {
		{ "true", JR_BOOL, 1 },
		{ "false", JR_BOOL, 0 },
		{ "null", JR_NULL, 0 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(words); i++) {
		size_t n = strlen(words[i].word);

		if ((size_t)(ps->end - ps->p) >= n &&
		    !memcmp(ps->p, words[i].word, n)) {
			v->type = words[i].type;
			v->b = words[i].b;
			ps->p += n;
			return 0;
		}
	}
	return unexpected(ps, "a value");
}

static int jr_value_parse(struct jr_parser *ps, struct jr_value *v,
			  unsigned int depth)
{
	memset(v, 0, sizeof(*v));
	skip_ws(ps);
	v->line = ps->line;
	v->col = (unsigned int)(ps->p - ps->line_start) + 1;
	if (++ps->values > ps->lim.max_values)
		return fail(ps, -E2BIG, "more than %zu values",
			    ps->lim.max_values);
	if (ps->p >= ps->end)
		return unexpected(ps, "a value");
	switch (*ps->p) {
	case '{':
	case '[':
		if (depth >= ps->lim.max_depth)
			return fail(ps, -E2BIG, "nested deeper than %u",
				    ps->lim.max_depth);
		return *ps->p == '{' ? object_parse(ps, v, depth) :
				       array_parse(ps, v, depth);
	case '"':
		v->type = JR_STRING;
		return string_parse(ps, &v->s, &v->len);
	case '-':
	case '0' ... '9':
		return number_parse(ps, v);
	default:
		return literal(ps, v);
	}
}

/* Free what v holds (not v itself). */
static void value_clear(struct jr_value *v)
{
	size_t i;

	for (i = 0; i < v->n; i++) {
		value_clear(&v->v[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->v);
	free(v->keys);
	free(v->s);
}

void jr_free(struct jr_value *root)
{
	if (!root)
		return;
	value_clear(root);
	free(root);
}

int jr_parse(const char *text, size_t len, const struct jr_limits *lim,
	     struct jr_value **root, char *err, size_t err_len)
{
	struct jr_parser ps = {
		.p = text, .end = text + len, .line_start = text, .line = 1,
		.err = err, .err_len = err_len,
	};
	struct jr_value *v;
	int ret;

	*root = NULL;
	if (err_len)
		err[0] = '\0';
	if (lim)
		ps.lim = *lim;
	if (!ps.lim.max_bytes)
		ps.lim.max_bytes = JR_DEF_BYTES;
	if (!ps.lim.max_depth)
		ps.lim.max_depth = JR_DEF_DEPTH;
	if (!ps.lim.max_values)
		ps.lim.max_values = JR_DEF_VALUES;
	if (len > ps.lim.max_bytes)
		return fail(&ps, -E2BIG, "longer than %zu bytes",
			    ps.lim.max_bytes);
	v = calloc(1, sizeof(*v));
	if (!v)
		return fail(&ps, -ENOMEM, "out of memory");
	ret = jr_value_parse(&ps, v, 0);
	if (!ret) {
		skip_ws(&ps);
		if (ps.p < ps.end)
			ret = unexpected(&ps, "the end after the document");
	}
	if (ret) {
		jr_free(v);
		return ret;
	}
	*root = v;
	return 0;
}

/* ---- lookups ---- */

const char *jr_type_name(enum jr_type t)
{
	static const char *const names[] = {
		[JR_NULL] = "null", [JR_BOOL] = "boolean",
		[JR_NUMBER] = "number", [JR_STRING] = "string",
		[JR_ARRAY] = "array", [JR_OBJECT] = "object",
	};

	return (unsigned int)t < ARRAY_SIZE(names) ?
	       names[t] : "?";
}

const struct jr_value *jr_get(const struct jr_value *obj, const char *name)
{
	size_t i;

	if (!obj || obj->type != JR_OBJECT)
		return NULL;
	for (i = 0; i < obj->n; i++)
		if (!strcmp(obj->keys[i], name))
			return &obj->v[i];
	return NULL;
}

const struct jr_value *jr_at(const struct jr_value *arr, size_t i)
{
	if (!arr || arr->type != JR_ARRAY || i >= arr->n)
		return NULL;
	return &arr->v[i];
}

const struct jr_value *jr_path(const struct jr_value *v, const char *path)
{
	char part[128];

	while (v && *path) {
		const char *dot = strchr(path, '.');
		size_t n = dot ? (size_t)(dot - path) : strlen(path);

		if (n >= sizeof(part))
			return NULL;
		memcpy(part, path, n);
		part[n] = '\0';
		if (v->type == JR_ARRAY) {
			char *e;
			unsigned long i = strtoul(part, &e, 10);

			v = n && !*e && part[0] != '-' ? jr_at(v, i) : NULL;
		} else {
			v = jr_get(v, part);
		}
		path += n + (dot != NULL);
	}
	return v;
}

size_t jr_len(const struct jr_value *v)
{
	return v && (v->type == JR_ARRAY || v->type == JR_OBJECT) ? v->n : 0;
}

int jr_is(const struct jr_value *v, enum jr_type t)
{
	return v && v->type == t;
}

uint64_t jr_u64(const struct jr_value *v, uint64_t def)
{
	return jr_is(v, JR_NUMBER) && (v->flags & JR_UINT64) ? v->u : def;
}

int64_t jr_i64(const struct jr_value *v, int64_t def)
{
	return jr_is(v, JR_NUMBER) && (v->flags & JR_INT64) ? v->i : def;
}

double jr_double(const struct jr_value *v, double def)
{
	return jr_is(v, JR_NUMBER) ? v->d : def;
}

int jr_bool(const struct jr_value *v, int def)
{
	return jr_is(v, JR_BOOL) ? v->b : def;
}

const char *jr_str(const struct jr_value *v, const char *def)
{
	return jr_is(v, JR_STRING) ? v->s : def;
}
