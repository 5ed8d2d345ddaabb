/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What every record begins and ends with, and the one reading of it that
 * --analyze and --survey share.  The head: the version that wrote it,
 * the test, its shape, when and on what kernel it ran, the device
 * measured (its card's word among it, cardrec.h) and the options; the
 * tail: whether a check found the card short and whether a signal
 * stopped the run.  Their tables of fields (rectab.h): front/jsonout.c
 * writes them, the readers of records name their members through them.
 * Is a document a flashbench record, of a version and kind this
 * flashbench reads, and of which shape: a bad file is worded the same
 * wherever it is read.
 */
#ifndef FLASHBENCH_RECHEAD_H
#define FLASHBENCH_RECHEAD_H

#include <stddef.h>
#include <stdint.h>

#include "cardrec.h"
#include "jsonread.h"
#include "opts.h"
#include "recbody.h"
#include "rectab.h"
#include "sysfs.h"

/* The major version of the records this flashbench reads ("2.x.y"). */
#define RECORD_MAJOR 2

/*
 * The record's shape: the members it holds and what they mean.  It
 * changes whenever they do (tests/test_rectab.c holds it against a sum
 * of the schema), where "version" names the flashbench that wrote it.
 *   1  records before 2026-11-26 17:49: align rows only (no reads at
 *      each position), the FAT probe without its copy visits, the
 *      open-AU searches without their means; no "record_version"
 *   2  each align row's positions, the FAT probe's copies, the timing
 *      noise; no "record_version"
 *   3  "record_version", when the run started and the host's kernel,
 *      each step's device time (the class check's among them)
 *   4  a serial number hidden (--hide-serial: card.serial_hash);
 *      --analyze's record_lacks, and timing_noise null there
 *   5  the mapping: verdict.mapping, mapping_aus, mapping_reason,
 *      mapping_unit and their confidences; the "mapping" step (the AUs
 *      assumed, the unit probe's writes)
 *   6  verdict.open_au_linear_at_least and open_au_random_at_least
 *      (the count only a lower bound)
 *   7  the write cache and the write latency: verdict.write_cache and
 *      verdict.write_latency, the "write_cache" and "write_latency"
 *      steps, reconcile's pSLC area beside the cache, options.cache_cap
 *      and options.sustained
 *   8  the write-cache step's recheck_after (the recheck before the class
 *      check too)
 *   9  a class's within_cache (met only within writes a larger write
 *      cache may have taken: unsure, not a pass), in record_said too
 *  10  -L's cache_fill: its writes past a write cache before the classes
 *      (the write_cache step's members), which --analyze judges again
 *  11  the mapping step's device_time_ns (the unit probe's share of the
 *      device time, as the live run states it)
 *  12  the write latency's longest_step (the step its longest write was
 *      made in), in the step and the verdict
 */
#define RECORD_SHAPE 12

/*
 * The first shape that holds every member a reader tolerates missing
 * from an older record (rt_field.late, rt_rd.older): 1 and 2 may lack
 * them, a record of this shape on may not.
 */
#define RECORD_SHAPE_WHOLE 3

/* The schema's shape sum when RECORD_SHAPE was last raised (the test;
 * --survey's rows are no record's and not in it). */
#define RECORD_SHAPE_SUM 0x366facfa1518669dULL

/* The device measured ("device"). */
struct record_device {
	const char *path;
	int opened;			/* a device was opened: its size, its
					 * block and sysfs are written */
	uint64_t size_byte;
	uint64_t block_byte;		/* logical block size */
	int simulated;
	const struct sysfs_info *sysfs;	/* writing: what sysfs says */
	struct card_doc card;
};

/* The options of the run ("options"). */
struct record_options {
	struct bench_opts o;
	int destructive;
	int simulated;			/* --simulate: spec is written */
	const char *spec;		/* --simulate's SPEC, "" the default */
};

/* The head of a document. */
struct record_head {
	const char *version;		/* the flashbench that wrote it */
	const char *test;		/* a test's long name, "auto", ... */
	unsigned int shape;		/* RECORD_SHAPE when written */
	const char *started;		/* UTC, ISO 8601:
					 * 2026-11-28T04:31:34Z */
	const char *kernel;		/* the host's: "Linux 6.1.0
					 * x86_64" */
	int has_device;			/* 0: device is null */
	struct record_device dev;
	int has_options;		/* 0: no options (--registers) */
	struct record_options opts;
	int copied;			/* writing: device and options left
					 * out, a record's copied after them */
};

/* The tail of a document. */
struct record_tail {
	int short_found;		/* a check found the card short */
	int interrupted;		/* a signal stopped the run */
};

extern const struct rt_table record_head_table;
extern const struct rt_table record_device_table;
extern const struct rt_table record_options_table;
extern const struct rt_table record_tail_table;

#define HEAD_KEY(member) \
	rt_key(&record_head_table, offsetof(struct record_head, member))
#define DEVICE_KEY(member) \
	rt_key(&record_device_table, offsetof(struct record_device, member))
#define OPTIONS_KEY(member) \
	rt_key(&record_options_table, offsetof(struct record_options, member))
#define TAIL_KEY(member) \
	rt_key(&record_tail_table, offsetof(struct record_tail, member))

/* A member of a parsed record's device, of its options. */
#define REC_DEVICE(doc, member) \
	jr_get(jr_get(doc, HEAD_KEY(dev)), DEVICE_KEY(member))
#define REC_OPTION(doc, member) \
	jr_get(jr_get(doc, HEAD_KEY(opts)), OPTIONS_KEY(member))

/*
 * Parse text (len bytes) as a record into *doc and check its head
 * (record_head_check()); 0, or -EINVAL with "LINE:COL: what" in why and
 * *doc NULL.  An empty text, one that is no JSON and one that is no
 * record each get a sentence of their own.
 */
int record_parse(const char *text, size_t len, struct jr_value **doc,
		 char *why, size_t why_len);

/*
 * Is doc a record this flashbench reads: an object with "version" of
 * major RECORD_MAJOR and a "test" it knows?  0, or -EINVAL and why.
 */
int record_head_check(const struct jr_value *doc, char *why, size_t len);

/* The record's shape (1, 2, or its "record_version"). */
unsigned int record_shape(const struct jr_value *doc);

/* The head of doc read loosely into h (members it lacks: 0, NULL). */
void record_head_read(const struct jr_value *doc, struct record_head *h);

/*
 * A short hash of what identifies a card, 8 hex digits in out (""
 * without any): of its CID (which holds the serial number) when given,
 * else of manfid/oemid/name/serial.  The same card gives the same hash;
 * --survey shows it, and --hide-serial writes it where the serial was.
 */
void record_serial_hash(char out[12], const char *cid, int64_t manfid,
			int64_t oemid, const char *name, int64_t serial);

#endif /* FLASHBENCH_RECHEAD_H */
