/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * --survey: one row per card from the records --json wrote, as the
 * classic "Flash Card Survey" table had them (card, size, erase size,
 * page, open AUs, FAT area), plus what the registers state and the
 * classes measured.  A row is built from a parsed record alone (no file,
 * no device); the front end reads the files (front/survey.c).
 */
#ifndef FLASHBENCH_SURVEY_H
#define FLASHBENCH_SURVEY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "jsonread.h"

/* How sure the record is of a value (its "confidence" member). */
enum survey_conf {
	SV_LOW = 1,	/* printed with a trailing '?' */
	SV_MEDIUM,	/* '~' */
	SV_HIGH,	/* no mark; also what a record states without one */
};

/* What a record says of a write cache. */
enum survey_cache {
	SV_CACHE_UNKNOWN,	/* not measured (not in the record) */
	SV_CACHE_NONE,		/* measured: no drop in speed */
	SV_CACHE_SEEN,		/* the speed dropped past it */
};

/* One measured or stated value. */
struct survey_num {
	int set;		/* the record has it */
	uint64_t v;		/* bytes, or a count of AUs */
	enum survey_conf conf;
};

/*
 * The classes a row keeps: the 13 a card can state (C2 C4 C6 C10 U1 U3
 * V6 V10 V30 V60 V90 A1 A2) and room for more a later version measures.
 */
#define SURVEY_CLASSES	24

/* One class measured: "C10" and whether the card met it. */
struct survey_class {
	char name[8];
	int pass;
	int within;	/* not pass: met only within a write cache */
};

/* One card's row. */
struct survey_row {
	char record[256];	/* the file it came from */
	char device[128];	/* device.path, "" without a device */
	char test[16];		/* the record's kind: "auto", "class" */
	char version[16];	/* the flashbench that wrote it */
	char cid[40];		/* the CID in hex, "" without one */
	int64_t manfid, oemid;	/* -1: unknown */
	char name[16];		/* product name, "" unknown */
	char date[16];		/* "YYYY-MM", "" unknown */
	char serial_hash[12];	/* 8 hex digits, "" without a serial */
	struct survey_num size;		/* announced, bytes */
	struct survey_num usable;	/* found usable by -C, bytes */
	char capacity_kind[24];		/* "genuine", "wrap" ..., "" */
	struct survey_num au_stated;	/* the SSR's AU, bytes */
	struct survey_num au;		/* erase size measured, bytes */
	struct survey_num page;		/* page size, bytes */
	struct survey_num unit;		/* program unit, bytes */
	struct survey_num open_linear;	/* AUs open in order */
	struct survey_num open_random;	/* AUs open out of order */
	struct survey_num fat_start;	/* FAT area's start, bytes */
	struct survey_num fat_size;	/* its size, bytes (0: none) */
	char mapping[8];		/* "pages", "aus", "" unknown */
	enum survey_conf mapping_conf;
	struct survey_num map_unit;	/* a page-mapped card's unit */
	struct survey_num life_a;	/* EXT_CSD's life time used, */
	struct survey_num life_b;	/* types A and B (1-11) */
	struct survey_num pre_eol;	/* EXT_CSD's PRE_EOL_INFO */
	enum survey_cache cache;	/* a write cache: seen, none, ? */
	uint64_t cache_byte;		/* seen: written at the fast speed */
	int cache_at_least;		/* and more than that */
	double cache_fast_mbps, cache_native_mbps;
	struct survey_num write_max_ns;	/* the longest write timed */
	struct survey_num write_p99_ns;	/* 99 % of them took no longer */
	char stated[32];		/* "C10 U1 V30 A1", "none", "" */
	size_t nr_classes;
	struct survey_class classes[SURVEY_CLASSES];
	int64_t mtime_ns;	/* the file's time (the caller's) */
	int64_t started_ns;	/* when its run started, as the record
				 * says (0: it does not): the newest
				 * record wins, by this, else mtime_ns */
	unsigned int records;	/* records of this card */
};

enum survey_format {
	SURVEY_TEXT,
	SURVEY_CSV,
	SURVEY_MARKDOWN,
	SURVEY_JSON,
};

/*
 * Fill row from the record doc (row->record and row->mtime_ns are the
 * caller's).  Returns 0, or -EINVAL with why, as record_head_check()
 * words it (not a flashbench record, a version or kind unknown).
 */
int survey_row_from(const struct jr_value *doc, struct survey_row *row,
		    char *why, size_t why_len);

/*
 * Join the rows of one card into one (see survey_grouped_by()): the
 * newest record's, with what it lacks from older ones; then sort by manufacturer, name,
 * serial hash and record.  Returns the rows left.
 */
size_t survey_merge(struct survey_row *rows, size_t n);

/*
 * What joined r's records: "card" (its CID, or its serial), "device"
 * (no registers: the same device path and size, no value that differs)
 * or "record" (one record that names neither).
 */
const char *survey_grouped_by(const struct survey_row *r);

/* The table in format fmt. */
void survey_print(FILE *out, const struct survey_row *rows, size_t n,
		  enum survey_format fmt);

#endif /* FLASHBENCH_SURVEY_H */
