/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * --auto: the survey flow of the classic tool's users, automated.  Align
 * tables at one or more block sizes give the erase and page size; with
 * --destructive, short write probes find the number of open AUs (linear and
 * random order, growing by half, then one at a time) and the FAT-optimised
 * area; when the tables are unsure, the erase size from writes first.
 *
 * Measuring apart from judging.  Each step is a procedure (probes/: I/O,
 * fills its part of struct auto_result with raw measurements) and a
 * decision (verdict/: a pure function of that part, no device, no clock,
 * no output; `make check` fails if a verdict/ object calls the device
 * layer).  A procedure may call decision helpers while it runs, to choose
 * its next probe, but auto_decide() recomputes every verdict field from
 * the raw fields alone, and auto_run() ends with it.
 *
 * This header holds the decisions.  The record they read is
 * record/autorecord.h; the run and its hooks are probes/autorun.h; the
 * text and JSON are output/autoout.h.
 *
 * Step: procedure (probes/) -> decision (verdict/); raw fields -> verdict
 * fields of struct auto_result.
 *
 * - Align tables: probes/align.c auto_probe_align() -> verdict/tables.c
 *   auto_table_decide(), auto_align_choose(); tables[].{blocksize_byte,
 *   spacing_byte, around_byte, rows, count} -> tables[].verdict, chosen,
 *   align.{erase, page, plane, group}.
 * - Allocation group: the same procedure (group_probe) ->
 *   auto_group_decide(); group_probe.{spacing_byte, rows} -> align.group.
 * - Timing noise: counted by the align procedure (auto_count_delays) ->
 *   verdict/noise.c auto_noise_level(), auto_noise_confidence();
 *   noise.{cells, delayed, once_cells, once_delayed, delay_ns} ->
 *   noise.level, and every confidence capped.
 * - Erase size from writes: probes/erasesearch.c auto_probe_erase() ->
 *   verdict/erasewrites.c auto_erase_decide(), auto_erase_combine(),
 *   auto_erase_premise(); erase_writes.{nanchors, anchor_byte,
 *   boundary_byte} -> erase_writes.{erase_byte, confidence}, erase_reads,
 *   erase_from, align.erase, erase_fallback.
 * - FAT area: probes/fat.c auto_probe_fat() -> verdict/fat.c
 *   auto_fat_decide(); fat.{naus, lin_ns, rnd_ns, copy_ns, typ_ns,
 *   ref_lin_ns, ref_rnd_ns, ref_copy_ns, ref_gc_ns, refs_paid} ->
 *   fat.{lin_ratio, rnd_ratio, copy_ratio, found, start, count, linear,
 *   random, nocopy, slot_unseen, speed_hidden, faint_start,
 *   faint_count, faint_ratio, confidence}.
 * - Open AUs, in order and out of order: probes/opensearch.c
 *   auto_probe_open() -> verdict/openau.c auto_probe_judge(),
 *   auto_open_next(), auto_open_decide(); open_*.{max_nr, whole_ns,
 *   merge_ns, probes[].{nr, mean_ns, positions, dear_aus}} -> open_*.{
 *   ref_ns, probes[].{ratio, collapsed, log_aus}, nr, at_least,
 *   from_linear, confidence}.
 * - Mapping (pages or AUs): the open-AU searches (placed in AUs of
 *   mapping.standin_byte when the card paid no collection), then on pages
 *   probes/mapping.c auto_probe_mapping() -> verdict/mapping.c
 *   auto_mapping_decide(); open_*.{nr, at_least, ref_ns, probes[0]},
 *   noise.level, erase_fallback, mapping.{size_byte, aligned_ns,
 *   unaligned_ns}, tables[].rows -> mapping.{kind, confidence, nr,
 *   order_ratio, why, unit_byte, unit_confidence, unit_penalty,
 *   other_penalty, small_ratio, erase_top, erase_*_ns}, align.erase's
 *   confidence.
 * - Capacity: probes/run.c hands off to capacity_measure()
 *   (modes/capacity.c), whose result carries its own verdict.
 * - Class check, last (--auto as the front end runs it, auto_run_all()):
 *   probes/classcheck.c auto_probe_class() hands off to class_measure()
 *   and class_judge() (modes/class.c, -L's); class_*, class -> class->c[].
 *   Without --destructive the run notes what it and the capacity check
 *   would overwrite instead (class_*_byte, capacity_plan_*).
 * - The run: probes/run.c auto_run() -> verdict/auto.c auto_decide(),
 *   every decision above in the run's order.
 * - Advice: verdict/advice.c auto_advise_for(); align, capacity.
 * - Text and JSON: output/autotext.c, output/autojson.c; they read the
 *   record only.
 *
 * Raw fields that --json does not write yet: the per-table noise counts
 * (their sums are in "timing_noise", all the decision reads).
 */
#ifndef FLASHBENCH_AUTO_H
#define FLASHBENCH_AUTO_H

#include <stddef.h>
#include <stdint.h>

#include "autorecord.h"

/* ---- decisions (verdict/): pure functions of the record ---- */

/* Every verdict field of r recomputed from its raw fields. */
void auto_decide(struct auto_result *r);

/* Table t's verdict from its rows: 0, or analyze_align()'s error. */
int auto_table_decide(struct auto_table *t);
/* Is table t sure enough to skip the rest of its reads? */
int auto_table_sure(const struct auto_table *t, int writes);
/* Erase size from the surest table, page from those that agree. */
void auto_align_choose(struct auto_result *r);
/* The allocation group from the group probe's rows, when it read any. */
void auto_group_decide(struct auto_result *r);

/* Count the delayed reads of rows[] into *cells, *delayed, *max_ns. */
void auto_count_delays(const struct align_row *rows, size_t n,
		       unsigned int *cells, unsigned int *delayed,
		       double *max_ns);
/* Are delays this common (in runs the least of reads does not remove)? */
int auto_noise_high(unsigned int cells, unsigned int delayed);
/* r->noise's counts: the sums of every table's (level left alone). */
void auto_noise_sum(struct auto_result *r);
/* The level of noise n's counts show. */
void auto_noise_level(struct auto_noise *n);
/* Every confidence of r capped for the noise and a low erase premise. */
void auto_noise_confidence(struct auto_result *r);
/*
 * The mapping unit's too, once decided: on a noisy host in front of a
 * write cache, low (each delay lets the cache fold and take the writes).
 */
void auto_noise_mapping(struct auto_result *r);

/* The erase size the search's anchors agree on (s->erase_byte). */
void auto_erase_decide(struct auto_erase_search *s);
/* The reads' erase size confirmed or replaced by the writes'. */
void auto_erase_combine(struct auto_result *r);
/*
 * Can the write steps be placed?  1: yes (erase_fallback when only with
 * low confidence); 0: no, skip_reason and skip_settle say why.
 */
int auto_erase_premise(struct auto_result *r);

/* AU i's ratios against the far AUs, from its times. */
void auto_fat_ratios(struct auto_fat *f, unsigned int i);
/* Is AU i faster (or copy-free) against the far AUs? */
int auto_fat_is_fast(const struct auto_fat *f, unsigned int i);
/* The FAT area and its confidence, from f's times. */
void auto_fat_decide(struct auto_fat *f);

/* A write slower than this (ns) did not hold: see verdict/openau.c. */
double auto_hold_limit(double ref_ns, double lin_ref_ns);
/* Probe p's ratio, collapsed and log_aus against ref_ns. */
void auto_probe_judge(struct auto_probe *p, double ref_ns,
		      double lin_ref_ns);
/*
 * Random order (lin: the linear search): is a merge test wanted, and
 * does the record answer "no AU open" (0)?
 */
int auto_open_merge_wanted(const struct auto_open *o,
			   const struct auto_open *lin);
int auto_open_none(const struct auto_open *o, const struct auto_open *lin);
/* The nr of the search's next probe, 0 when it is over. */
unsigned int auto_open_next(const struct auto_open *o,
			    const struct auto_open *lin);
/* nr, at_least, from_linear and confidence of a search that ran. */
void auto_open_decide(struct auto_open *o, const struct auto_open *lin);

/*
 * r->mapping from the open-AU searches (pages or AUs, or why neither);
 * on pages the open AUs, the FAT area and an erase size from writes are
 * capped to low.  After every other decision and the noise's caps.
 */
void auto_mapping_decide(struct auto_result *r);
/*
 * No erase size, from reads nor writes, and the erase search's writes
 * paid no garbage collection at all: a card that may map pages.  1: the
 * open-AU searches are placed in AUs of mapping.standin_byte, and the
 * FAT probe is skipped (skip_reason says why); 0: the write steps are
 * skipped, as auto_erase_premise() said.
 */
int auto_mapping_standin(struct auto_result *r);
/* Do the open-AU searches read as pages (the unit probe is wanted)? */
int auto_mapping_unit_wanted(const struct auto_result *r);
/*
 * Did the unit probe's raw fields in m show a mapping unit (one size's
 * unaligned write clearly dearer)?  None is also what a write cache
 * that takes the writes shows.
 */
int auto_mapping_unit_shown(const struct auto_mapping *m);

static inline uint64_t auto_round_up(uint64_t x, uint64_t m)
{
	return (x + m - 1) / m * m;
}

/* Partitioning and filesystem advice for an erase and page size. */
struct auto_advice {
	uint64_t start_sector;		/* in sectors of sector_byte */
	unsigned int sector_byte;	/* the device's logical block size */
	unsigned int ext4_stride;	/* in 4 KiB blocks */
	unsigned int ext4_stripe_width;	/* in 4 KiB blocks */
	unsigned int f2fs_segs;		/* 2 MiB segments per section */
	uint64_t max_sectors;		/* a partition's size at most, from
					   the capacity check; 0: no limit */
	int no_data;			/* the capacity check: keep no data */
};

/*
 * Compute the advice for a device of sector_byte logical blocks (what
 * fdisk and sfdisk count in; 0 means 512); page_byte 0 means unknown.
 */
void auto_advise(uint64_t erase_byte, uint64_t page_byte,
		 unsigned int sector_byte, struct auto_advice *a);

/*
 * The advice for r: auto_advise(), and after a capacity check that found
 * the card short, a partition that ends below the usable size, or no
 * data at all when not even that fits.
 */
void auto_advise_for(const struct auto_result *r, struct auto_advice *a);

/*
 * What would settle an erase size the write steps ran on at low
 * confidence (erase_fallback), with DEVICE where the device's path goes.
 */
const char *auto_erase_settle(const struct auto_result *r);

/* Which small writes showed a FAT area. */
enum auto_fat_by {
	AUTO_FAT_BY_NONE,		/* none was found */
	AUTO_FAT_BY_BOTH,		/* in order and out of order */
	AUTO_FAT_BY_LINEAR,		/* in order */
	AUTO_FAT_BY_RANDOM,		/* out of order */
};

/* Which small writes showed the FAT area f. */
enum auto_fat_by auto_fat_shown_by(const struct auto_fat *f);

#endif /* FLASHBENCH_AUTO_H */
