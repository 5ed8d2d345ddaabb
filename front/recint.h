/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the files of --analyze on a record share (front/record.c reads
 * the record and hands it to its kind: recauto.c, recclass.c).
 */
#ifndef FLASHBENCH_RECINT_H
#define FLASHBENCH_RECINT_H

#include <stddef.h>
#include <stdio.h>

#include "class.h"
#include "json.h"
#include "jsonread.h"

struct cli;

/* A parsed record and where it came from. */
struct record {
	const char *path;		/* for messages */
	struct jr_value *doc;
	int hide_serial;		/* --hide-serial: its JSON without the
					 * card's serial number */
};

/* A value of the record written again as it is, under key. */
void record_emit(struct json *j, const char *key, const struct jr_value *v);

/* Member key of the record as it is, or null. */
void record_emit_member(struct json *j, const struct jr_value *doc,
			const char *key);

/*
 * Open the JSON document of a record of test judged again: this version,
 * the test, this shape, when the record's run started and on what
 * kernel, and the record's device (its card's serial number hidden with
 * --hide-serial, as a run hides it) and options as they were.
 */
void record_json_head(struct json *j, FILE *res, const struct record *rec,
		      const char *test);

/*
 * What the text of a record judged again says first: whose record it
 * is, made when and by what version, judged by this one; and, for a
 * real device, that its commands say DEVICE.
 */
void record_says_first(FILE *out, const struct jr_value *doc);

/*
 * The path a record's commands name: the simulated card's, or DEVICE
 * (a template: the path the record names may now be another disk).
 */
const char *record_device_path(const struct jr_value *doc);

/*
 * The class entries cl of the record doc judged today into r, past the
 * write cache cache (NULL: the record lacks the writes before them, and
 * a class it said was met only within a cache stays so): 0, or a
 * one-line error in err (an entry without its figures).
 */
int record_class(const struct jr_value *doc, const struct jr_value *cl,
		 const struct auto_cache *cache, struct class_result *r,
		 char *err, size_t len);

/* How many classes the record judged otherwise than today (r: NULL). */
size_t class_said_n(const struct class_result *r, const struct jr_value *cl);

/* Text: one line per class the record judged otherwise (the heading
 * unless before lines came); how many. */
size_t class_said_print(FILE *out, const struct class_result *r,
			const struct jr_value *cl, size_t before,
			const char *version);

/* JSON: record_said's "classes", each class judged otherwise. */
void class_said_json(struct json *j, const struct class_result *r,
		     const struct jr_value *cl);

/* The records of a kind judged again and printed; the exit status. */
int class_record(struct cli *c, FILE *out, const struct record *rec);
int auto_record(struct cli *c, FILE *out, const struct record *rec);

#endif /* FLASHBENCH_RECINT_H */
