/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * --auto's record and verdict shown: the text (output/autotext.c) and the
 * JSON members (output/autojson.c).  They read the record only.
 */
#ifndef FLASHBENCH_AUTOOUT_H
#define FLASHBENCH_AUTOOUT_H

#include <stdio.h>

#include "autorecord.h"
#include "autotab.h"
#include "json.h"
#include "reconcile.h"
#include "sysfs.h"

/* "low", "some" or "high". */
const char *auto_noise_name(enum auto_noise_level level);

/*
 * The advice of r as the JSON member "advice": the partition start in
 * sectors and bytes, the sector size, ext4's stride and stripe width (in
 * 4 KiB blocks) and f2fs's segments per section; with no erase size
 * found, the usual 1 MiB start and null for the rest.  After a capacity
 * check that found the card short, the partition's size at most
 * (partition_max_sectors, partition_max_size; else null) and
 * keep_no_data.
 */
void auto_json_advice(struct json *j, const struct auto_result *r);

/*
 * The verdict, evidence and advice as text; sysfs (may be NULL) is the
 * kernel's view, shown beside the verdict.  After the steps skipped for
 * want of --destructive, what it would add besides them (the plan
 * auto_run_all() notes; none in a record read back).
 */
void auto_print(FILE *out, const struct auto_result *res, const char *path,
		const struct sysfs_info *sysfs);

/*
 * A run's report (auto_run_all()) up to the class check's own lines
 * (-L's, class_print_body()): auto_print()'s, but its device time when
 * the class check ran (auto_print_run_end() gives one total then), and
 * the erase size beside the card's and the kernel's (rc).
 */
void auto_print_run(FILE *out, const struct auto_result *res,
		    const char *path, const struct sysfs_info *sysfs,
		    const struct reconcile *rc);

/*
 * The report's end, after the class check's lines: when it ran, the
 * device time of every step in one total with each one's share (class_ns
 * its own); when the device was too small for it, why it was skipped.
 */
void auto_print_run_end(FILE *out, const struct auto_result *res,
			uint64_t class_ns);

/*
 * auto_print() in two: the verdict, evidence and advice; the device time
 * (with the class check's, class_ns, in one total with each step's
 * share when it ran).  --analyze prints the class check between them.
 */
void auto_print_verdict(FILE *out, const struct auto_result *res,
			const char *path, const struct sysfs_info *sysfs);
void auto_print_time(FILE *out, const struct auto_result *res,
		     uint64_t class_ns);

/*
 * The mapping of a run with --destructive (output/automap.c): pages, AUs
 * or why neither could be told, with the evidence; nothing without.
 */
void auto_print_mapping(FILE *out, const struct auto_result *res);
/*
 * A block-mapped card of large sectors: what the writes showed of its
 * page (nothing when they were not asked).
 */
void auto_print_page_writes(FILE *out, const struct auto_result *res);

/*
 * The statistics behind the align verdict (t, misfits, spike chance),
 * one line per step, each beginning with lead (the -v detail).
 */
void auto_print_evidence(FILE *out, const struct auto_result *res,
			 const char *lead);

/* The "verdict" member of the JSON document (also used by --analyze). */
void auto_json_verdict(struct json *j, const struct auto_result *res);

/* The "results" member: every table and probe, raw bytes and ns. */
void auto_json_results(struct json *j, const struct auto_result *res);

/*
 * The verdict v of r (r's other steps beside it) as the record keeps it:
 * what "verdict" holds, and what --analyze compares a record's with.
 */
void auto_verdict_of(const struct align_verdict *v,
		     const struct auto_result *r, struct auto_verdict_rec *o);

/* An align verdict as the JSON "verdict" member, writes not measured. */
void auto_json_align_verdict(struct json *j, const struct align_verdict *v);

#endif /* FLASHBENCH_AUTOOUT_H */
