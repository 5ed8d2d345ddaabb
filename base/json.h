/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A small streaming JSON writer for --json: raw numbers in bytes and
 * nanoseconds, strings escaped, indented two spaces per level.
 */
#ifndef FLASHBENCH_JSON_H
#define FLASHBENCH_JSON_H

#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 16

struct json {
	FILE *f;			/* where the document goes */
	int depth;			/* open objects and arrays */
	int count[JSON_MAX_DEPTH];	/* members written at each level */
};

/* Start a document on f. */
void json_init(struct json *j, FILE *f);

/*
 * Each takes the member name inside an object, or NULL inside an array or
 * at the top level.
 */
void json_object_begin(struct json *j, const char *key);
void json_object_end(struct json *j);
void json_array_begin(struct json *j, const char *key);
void json_array_end(struct json *j);
void json_string(struct json *j, const char *key, const char *val);
void json_u64(struct json *j, const char *key, uint64_t val);
void json_i64(struct json *j, const char *key, int64_t val);
void json_double(struct json *j, const char *key, double val);
void json_bool(struct json *j, const char *key, int val);
void json_null(struct json *j, const char *key);

/* Write s as a JSON string literal, quotes included. */
void json_write_escaped(FILE *f, const char *s);

#endif /* FLASHBENCH_JSON_H */
