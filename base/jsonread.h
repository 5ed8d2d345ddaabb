/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A small JSON reader: a whole document (RFC 8259, UTF-8) into a tree,
 * with limits on size, depth and the number of values, and a one-line
 * error that says where ("3:17: expected ',' or '}' after a member").
 * --survey reads records with it; anything that re-reads what --json
 * wrote can.  No global state: every call works on what it is given.
 */
#ifndef FLASHBENCH_JSONREAD_H
#define FLASHBENCH_JSONREAD_H

#include <stddef.h>
#include <stdint.h>

enum jr_type {
	JR_NULL,
	JR_BOOL,
	JR_NUMBER,
	JR_STRING,
	JR_ARRAY,
	JR_OBJECT,
};

/* What a number is exactly, beside its double (jr_value.flags). */
#define JR_INT64	1	/* an integer that fits int64_t: .i */
#define JR_UINT64	2	/* an integer that fits uint64_t: .u */

/* One value of the tree. */
struct jr_value {
	enum jr_type type;
	unsigned int line, col;	/* where it starts, from 1; col in bytes */
	unsigned int flags;	/* JR_NUMBER: JR_INT64 | JR_UINT64 */
	int b;			/* JR_BOOL: 0 or 1 */
	double d;		/* JR_NUMBER: nearest double */
	int64_t i;		/* JR_NUMBER with JR_INT64 */
	uint64_t u;		/* JR_NUMBER with JR_UINT64 */
	char *s;		/* JR_STRING: decoded, NUL-terminated */
	size_t len;		/* JR_STRING: bytes (a \u0000 counts) */
	size_t n;		/* JR_ARRAY, JR_OBJECT: members */
	struct jr_value *v;	/* their values, in document order */
	char **keys;		/* JR_OBJECT: their names, decoded */
};

/* How much a document may hold; 0 in a field takes the default. */
struct jr_limits {
	size_t max_bytes;	/* text length (default 16 MiB) */
	unsigned int max_depth;	/* nested arrays and objects (64) */
	size_t max_values;	/* values in all (1 << 20) */
};

#define JR_ERR_LEN 160	/* room for jr_parse()'s message */

/*
 * Parse len bytes of text (no NUL needed) into *root, under lim (NULL:
 * the defaults).  Returns 0, -EINVAL for text that is not one JSON
 * document (truncated, malformed, not UTF-8), -E2BIG past a limit or
 * -ENOMEM; then *root is NULL and err holds "LINE:COL: what" (LINE and
 * COL from 1, COL in bytes), without a newline.
 */
int jr_parse(const char *text, size_t len, const struct jr_limits *lim,
	     struct jr_value **root, char *err, size_t err_len);

/* Free a tree from jr_parse() (NULL is fine). */
void jr_free(struct jr_value *root);

/* "null", "boolean", "number", "string", "array", "object". */
const char *jr_type_name(enum jr_type t);

/*
 * Lookups: each takes NULL or a value of the wrong type and returns NULL,
 * so that they chain: jr_get(jr_get(doc, "verdict"), "erase_size").
 * Where an object names a member twice, the first counts.
 */
const struct jr_value *jr_get(const struct jr_value *obj, const char *name);
const struct jr_value *jr_at(const struct jr_value *arr, size_t i);

/*
 * A dotted path of member names and array indexes: "verdict.erase_size",
 * "results.0.step" (a member name holding '.' cannot be reached).
 */
const struct jr_value *jr_path(const struct jr_value *v, const char *path);

/* Members of an array or object, 0 for anything else (and NULL). */
size_t jr_len(const struct jr_value *v);

/* Nonzero if v is there and of type t. */
int jr_is(const struct jr_value *v, enum jr_type t);

/*
 * Typed getters: v's value when v is of that type and, for the integer
 * ones, holds it exactly; otherwise def (a null, a missing member, 1.5
 * for an integer, -1 for a uint64_t all give def).
 */
uint64_t jr_u64(const struct jr_value *v, uint64_t def);
int64_t jr_i64(const struct jr_value *v, int64_t def);
double jr_double(const struct jr_value *v, double def);
int jr_bool(const struct jr_value *v, int def);
const char *jr_str(const struct jr_value *v, const char *def);

#endif /* FLASHBENCH_JSONREAD_H */
