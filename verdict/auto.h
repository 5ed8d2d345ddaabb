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
 * - Erase size from writes: probes/erase.c auto_probe_erase() ->
 *   verdict/erase.c auto_erase_decide(), auto_erase_combine(),
 *   auto_erase_premise(); erase_writes.{nanchors, anchor_byte,
 *   boundary_byte} -> erase_writes.{erase_byte, confidence}, erase_reads,
 *   erase_from, align.erase, erase_fallback.
 * - FAT area: probes/fat.c auto_probe_fat() -> verdict/fat.c
 *   auto_fat_decide(); fat.{naus, lin_ns, rnd_ns, copy_ns, typ_ns,
 *   ref_lin_ns, ref_rnd_ns, ref_copy_ns, ref_gc_ns, refs_paid} ->
 *   fat.{lin_ratio, rnd_ratio, copy_ratio, found, start, count, linear,
 *   random, nocopy, slot_unseen, speed_hidden, confidence}.
 * - Open AUs, in order and out of order: probes/openau.c
 *   auto_probe_open() -> verdict/openau.c auto_probe_judge(),
 *   auto_open_next(), auto_open_decide(); open_*.{max_nr, whole_ns,
 *   merge_ns, probes[].{nr, mean_ns, positions, dear_aus}} -> open_*.{
 *   ref_ns, probes[].{ratio, collapsed, log_aus}, nr, at_least,
 *   from_linear, confidence}.
 * - Capacity: probes/survey.c hands off to capacity_measure()
 *   (modes/capacity.c), whose result carries its own verdict.
 * - The run: probes/survey.c auto_run() -> verdict/auto.c auto_decide(),
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
#include <stdio.h>

#include "analyze.h"
#include "bench.h"
#include "capacity.h"
#include "json.h"
#include "sysfs.h"

#define AUTO_MAX_PROBES 24
#define AUTO_MAX_NR 32		/* the open-AU search stops here */
#define AUTO_FAT_MAX 64		/* AUs the FAT probe looks at, at most */
#define AUTO_FAT_REFS 2		/* AUs far from the start it compares with */
#define AUTO_FAT_WRITES 6	/* small writes per AU and order */
#define AUTO_FAT_SPAN (512 << 10) /* bytes they may cover at an AU's start */
#define AUTO_FAT_FAST 1.25	/* faster than the far AUs by this: FAT */
#define AUTO_FAT_NOCOPY 3.0	/* an AU's visit paid this much less
				   beyond its small writes' time than one
				   far away: it paid no copy (FAT) */
#define AUTO_MAX_TABLES 3	/* align block sizes tried */

/* Thresholds the open-AU probes and their decision share. */
#define AUTO_HELD_PASSES 4	/* fast passes that show a probe held */
#define AUTO_COLLAPSE 4.0	/* slower than this: collapsed */
#define AUTO_HOLD 1.5		/* faster than this: held */
#define AUTO_GC_SURE 40.0	/* slower than this: a garbage collection
				   beyond doubt (a pause of a few ms is not) */
#define AUTO_MERGE_PART 0.6	/* a write out of order on an AU written
				   whole costs this part of writing it
				   whole, at least: a merge (a copy is no
				   cheaper; slow programming of a 64 KiB
				   page at 2 MB/s is 0.4 of a 1 MiB AU) */
#define AUTO_FAT_GC 8.0		/* a write this much slower than a small
				   write paid a copy (a garbage collection) */

/* One open-AU probe: nr AUs written in turn. */
struct auto_probe {
	unsigned int nr;		/* AUs written in turn */
	double ratio;			/* mean write time / reference */
	int collapsed;			/* 1 collapsed, 0 held */
	unsigned int positions;		/* chunk positions measured */
	unsigned int log_aus;		/* collapsed as a log: so many AUs
					   slower in every pass, the others
					   not (0: none) */
	/* raw: */
	double mean_ns;			/* typical write (one AU: the median
					   pass, else the mean without the
					   dearest pass) */
	unsigned int dear_aus;		/* AUs slower than the hold limit in
					   every measured pass */
};

/* The open-AU search in one order. */
struct auto_open {
	int measured;			/* 0: skipped */
	unsigned int nr;		/* AUs the card keeps open; 0 none */
	int at_least;			/* nr is only a lower bound */
	enum analyze_confidence confidence;
	uint64_t chunk_byte;		/* write size of the probes */
	double ref_ns;			/* median write time with one AU */
	unsigned int from_linear;	/* random order: this nr was not
					   probed, it collapsed in linear
					   order (0: every nr was probed) */
	size_t nprobes;
	struct auto_probe probes[AUTO_MAX_PROBES];
	double whole_ns;		/* random order slow with one AU: the
					   AU written whole took this (0: not
					   measured) */
	double merge_ns;		/* and a write out of order into it
					   after that, the least */
	unsigned int max_nr;		/* the largest nr the device has
					   room for */
};

/*
 * The FAT-area probe: small writes in order (as -f) and out of order (as
 * -f --random) at the start of each AU, against AUs far from the start.
 * First it puts probe AUs in random mode until one pays a copy, so that
 * the card keeps no more out of order (as -f --random's whole AUs do):
 * each ordinary AU it visits then pays a copy, an AU of a FAT area that
 * needs no open slot does not.
 */
struct auto_fat {
	int measured;			/* 0: skipped */
	int found;			/* an optimised area stands out */
	unsigned int start;		/* first optimised AU */
	unsigned int count;		/* optimised AUs from start */
	int linear;			/* the area is faster in order */
	int random;			/* the area is faster out of order */
	enum analyze_confidence confidence;
	unsigned int naus;		/* AUs probed from the first */
	uint64_t chunk_byte;		/* size of the small writes */
	uint64_t ref_au[AUTO_FAT_REFS];	/* the AUs far from the start */
	double ref_lin_ns;		/* median write there, in order */
	double ref_rnd_ns;		/* and out of order */
	double lin_ns[AUTO_FAT_MAX];	/* median write per AU, in order */
	double rnd_ns[AUTO_FAT_MAX];	/* and out of order */
	double lin_ratio[AUTO_FAT_MAX];	/* ref_lin_ns / lin_ns: > 1 faster */
	double rnd_ratio[AUTO_FAT_MAX];	/* ref_rnd_ns / rnd_ns */
	unsigned int primed;		/* probe AUs put in random mode */
	int prime_paid;			/* and one of them paid a copy */
	int refs_paid;			/* each far AU's visit paid one */
	double ref_copy_ns;		/* the far AUs' copy_ns, the lesser */
	double copy_ns[AUTO_FAT_MAX];	/* what each AU's small writes cost
					   beyond their typical time */
	double typ_ns[AUTO_FAT_MAX];	/* that typical time: the median
					   small write in order */
	double copy_ratio[AUTO_FAT_MAX]; /* ref_copy_ns / copy_ns, copy_ns
					   taken as a small write at least */
	int nocopy;			/* the area's visits paid no copy */
	int slot_unseen;		/* no visit paid for writing out of
					   order: an area that only spares
					   that cost could not show */
	double ref_gc_ns;		/* the least copy a far AU's visit
					   paid in one write */
	int speed_hidden;		/* each write out of order paid a
					   copy: an area faster only in
					   programming them could not show */
};

#define AUTO_ERASE_ANCHORS 3	/* boundaries the erase search looks for */
#define AUTO_ERASE_WARMUP 64	/* writes to fill the card's open AUs */

/*
 * The erase size from writes.  Once the card's open AUs are all taken
 * (the warm-up walk saw two alike writes pay for a garbage collection), a
 * write
 * into an AU not open costs a garbage collection and one into the AU just
 * written does not.  From an anchor that is a boundary for every candidate
 * size, single small writes at anchor + size - 2 * chunk and anchor + size,
 * size ascending, meet the first AU boundary at anchor + erase size.
 */
struct auto_erase_search {
	int measured;			/* 0: not run */
	uint64_t erase_byte;		/* found; 0 none */
	enum analyze_confidence confidence;
	uint64_t chunk_byte;		/* size of each write */
	uint64_t top_byte;		/* largest size looked for */
	unsigned int warmup;		/* writes until a collection showed */
	int filled;			/* one showed: the open AUs were full */
	double fast_ns;			/* a write into an open AU */
	double slow_ns;			/* the slowest write into a new AU */
	double gc_ns;			/* a collection in the warm-up */
	double last_ns;			/* the last write */
	uint64_t warm_pos;		/* the next warm-up write */
	unsigned int nanchors;		/* anchors walked */
	uint64_t anchor_byte[AUTO_ERASE_ANCHORS];
	uint64_t boundary_byte[AUTO_ERASE_ANCHORS]; /* first one after each
						       anchor; 0 none */
	unsigned int writes;		/* writes in all */
	uint64_t data_byte;		/* no collection in the warm-up: data
					   written after each of its writes
					   (0: none) */
	unsigned int data_writes;	/* so many writes */
};

/* Where the erase size of the verdict came from. */
enum auto_erase_from {
	AUTO_ERASE_FROM_READS,		/* the align tables alone */
	AUTO_ERASE_FROM_WRITES,		/* the writes (reads had none or
					   another) */
	AUTO_ERASE_CONFIRMED,		/* reads, confirmed by the writes */
};

/* An align table measured by --auto. */
struct auto_table {
	uint64_t blocksize_byte;
	uint64_t spacing_byte;
	uint64_t around_byte;		/* 0: every alignment; else only
					   those around this erase size */
	struct align_row *rows;		/* malloc'd */
	size_t nrows;
	unsigned int count;		/* reads per position, least kept
					   (the fewest any row had) */
	struct align_verdict verdict;
	unsigned int cells;		/* reads before and after a boundary
					   looked at for delays, per pass */
	unsigned int least_delayed;	/* of them, the least of the first
					   pass's reads far above its row's
					   (delays in runs) */
	unsigned int once_cells;	/* the same, of a pass of one read */
	unsigned int once_delayed;	/* (0 cells: no such pass) */
	double delay_ns;		/* the largest excess of a delayed
					   read over its row's */
};

/*
 * The group probe: rows a multiple of 256 MiB apart, read when the tables'
 * spacing is too coarse to show an allocation group.
 */
struct auto_group {
	uint64_t blocksize_byte;
	uint64_t spacing_byte;
	struct align_row *rows;		/* malloc'd; NULL: not read */
	size_t nrows;
};

/* How repeatable the timings were: the host's and the card's noise. */
enum auto_noise_level {
	AUTO_NOISE_LOW,		/* no read delayed that matters */
	AUTO_NOISE_SOME,	/* now and then a read delayed, alone */
	AUTO_NOISE_HIGH,	/* delays often, or in runs that the least
				   of a few reads does not remove */
};

struct auto_noise {
	unsigned int cells;		/* least of a few reads, looked at */
	unsigned int delayed;		/* of them, far above their row's */
	unsigned int once_cells;	/* single reads looked at */
	unsigned int once_delayed;	/* of them, far above their row's */
	double delay_ns;		/* the largest delay seen */
	enum auto_noise_level level;
	unsigned int rounds;		/* further reads made for it */
};

/* Everything --auto found. */
struct auto_result {
	struct auto_table tables[AUTO_MAX_TABLES];
	size_t ntables;
	size_t chosen;			/* the table the verdict comes from */
	struct align_verdict align;	/* erase and page size */
	int destructive;		/* the write steps were allowed */
	uint64_t precondition_byte;	/* bytes written to precondition */
	int precondition_again;		/* the linear search made again on
					   AUs written whole: none collapsed */
	struct auto_open open_linear;
	struct auto_open open_random;
	struct auto_fat fat;
	struct auto_erase_search erase_writes;
	enum auto_erase_from erase_from;
	struct analyze_step erase_reads; /* the reads' erase verdict alone */
	int search_fits;		/* the device has room for the search */
	const char *skip_reason;	/* why write steps did not run */
	uint64_t device_ns;		/* device time the whole run took */
	uint64_t step_ns[5];		/* of it: align, FAT, open linear,
					   open random, erase from writes */
	unsigned int sector_byte;	/* the device's logical block size:
					   the unit of partition tables */
	int capacity_done;		/* the capacity check ran */
	struct capacity_result capacity; /* is all of the card there? */
	struct auto_noise noise;	/* how repeatable the timings were */
	const char *skip_settle;	/* what would let skipped steps run */
	int erase_fallback;		/* the write steps used an erase size
					   read with low confidence */
	struct auto_group group_probe;	/* raw rows of the group probe */
};

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

/* The median and the mean without the largest of v[n] (0 when empty). */
#define AUTO_MEDIAN_MAX 16	/* values auto_median() takes at most */
double auto_median(const double *v, size_t n);
double auto_trimmed_mean(const double *v, size_t n);

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
 * Which small writes showed the FAT area f: "both", "linear" or
 * "random"; NULL when none was found.
 */
const char *auto_fat_shown_by(const struct auto_fat *f);

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

/* How auto_run talks to the front end. */
struct auto_hooks {
	FILE *progress;		/* one line per step (may be NULL) */
	/*
	 * Called after the read-only steps and before the first write, with
	 * every range the write steps may overwrite; a non-zero return
	 * cancels the write steps with that error.  May be NULL.  When the
	 * erase size comes from writes it is called twice: first with the
	 * ranges of that search, then, once the search is over, with those
	 * of the steps that use its result (the front end may put back what
	 * the search overwrote before it saves the next ranges).
	 */
	int (*before_write)(void *ctx, const struct bench_range *ranges,
			    size_t n);
	void *ctx;
};

/*
 * The smallest device, in bytes, --auto can survey: its first align
 * table must fit (on a device with logical blocks of lbs bytes).
 */
uint64_t auto_min_size(unsigned int lbs);

/*
 * Run the survey on dev.  With destructive, also the write steps.
 * Returns 0 or -errno (dev->last_error names a failed I/O); on error res
 * holds what was found so far.  Free with auto_free().
 */
int auto_run(struct device *dev, const struct bench_opts *o, int destructive,
	     const struct auto_hooks *hooks, struct auto_result *res);
void auto_free(struct auto_result *res);

/*
 * The ranges the write steps overwrite on a device of dev_size bytes with
 * AUs of erase_byte, merged and sorted.  Returns how many (at most max),
 * or -ENOSPC.
 */
int auto_write_ranges(uint64_t dev_size, uint64_t erase_byte,
		      struct bench_range *ranges, size_t max);

/*
 * The small ranges the erase search from writes may overwrite on a device
 * of dev_size bytes and logical blocks of lbs, merged and sorted.  Returns
 * how many (at most max), -ENOSPC, or -EINVAL when the device is too small
 * for the search.
 */
int auto_search_ranges(uint64_t dev_size, unsigned int lbs,
		       struct bench_range *ranges, size_t max);

/*
 * The verdict, evidence and advice as text; sysfs (may be NULL) is the
 * kernel's view, shown beside the verdict.
 */
void auto_print(FILE *out, const struct auto_result *res, const char *path,
		const struct sysfs_info *sysfs);

/* The "verdict" member of the JSON document (also used by --analyze). */
void auto_json_verdict(struct json *j, const struct auto_result *res);

/* The "results" member: every table and probe, raw bytes and ns. */
void auto_json_results(struct json *j, const struct auto_result *res);

/* An align verdict as the JSON "verdict" member, writes not measured. */
void auto_json_align_verdict(struct json *j, const struct align_verdict *v);

#endif /* FLASHBENCH_AUTO_H */
