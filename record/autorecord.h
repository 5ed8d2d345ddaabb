/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * --auto's record: struct auto_result and everything it holds, the raw
 * measurements its procedures (probes/) fill and the verdict fields its
 * decisions (verdict/auto.h) compute from them.  Types and the limits of
 * their arrays only; which procedure fills which field and which decision
 * reads it is the table at the head of verdict/auto.h.
 */
#ifndef FLASHBENCH_AUTORECORD_H
#define FLASHBENCH_AUTORECORD_H

#include <stddef.h>
#include <stdint.h>

#include "alignrec.h"
#include "rows.h"
#include "cacherec.h"
#include "caprec.h"
#include "latrec.h"
#include "card.h"

struct class_result;			/* -L's (classrec.h) */

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
	int copies_lacked;		/* a record of an older shape: no
					 * copy visits (the copies read 0) */
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
	unsigned int faint_start;	/* none found: a run of AUs a little
					   faster, clear of the rest (its
					   first AU, */
	unsigned int faint_count;	/* how many: 0 none, */
	double faint_ratio;		/* its least gain) */
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

/* How the card maps what is written: what kind of card it is. */
enum auto_mapping_kind {
	AUTO_MAP_UNKNOWN,		/* the evidence cannot tell (why) */
	AUTO_MAP_PAGES,			/* page-mapped: no open-AU limit,
					   nothing for writes out of order */
	AUTO_MAP_AUS,			/* block-mapped: so many AUs open */
};

#define AUTO_MAP_SIZES 8	/* write sizes of the unit probe */
#define AUTO_MAP_REPS 4		/* writes per size and alignment */
#define AUTO_MAP_SLOT (128 << 10) /* a fresh place for each of them */
#define AUTO_MAP_STANDIN (4 << 20) /* AUs the open-AU searches assume on
				   a card that paid no collection */

/*
 * The mapping, decided from the open-AU searches (verdict/mapping.c): a
 * collapse when one AU more is written in turn than the card keeps open
 * shows AUs; none up to many AUs, in order and out of order, on AUs that
 * hold data, shows pages.  On pages, the unit probe: writes of each size
 * from the sector to 64 KiB, each at the start of a fresh slot
 * (aligned) and half its size (a sector at least) into one (unaligned):
 * the mapping unit is the size an unaligned write costs most more at, as
 * it touches two units in part (a read-modify-write of each) where the
 * aligned one writes one whole.
 */
/* One write size of the unit probe. */
struct auto_map_size {
	uint64_t size_byte;
	uint64_t offset_byte;		/* the unaligned writes' offset into
					   their slot */
	double aligned_ns;		/* median write, aligned */
	double unaligned_ns;		/* and unaligned */
};

struct auto_mapping {
	/* raw: */
	uint64_t standin_byte;		/* no erase size, no collection: the
					   open-AU searches were placed in AUs
					   of this size (0: the erase size) */
	int measured;			/* the unit probe ran */
	size_t nsizes;
	struct auto_map_size sizes[AUTO_MAP_SIZES];	/* ascending */
	/* decided: */
	enum auto_mapping_kind kind;
	enum analyze_confidence confidence;
	unsigned int nr;		/* aus: AUs open; pages: no limit up
					   to so many AUs written in turn */
	double order_ratio;		/* pages: a write out of order into
					   one AU against one in order */
	const char *why;		/* unknown: why the evidence cannot
					   tell */
	uint64_t unit_byte;		/* the mapping unit (0: not seen) */
	enum analyze_confidence unit_confidence;
	double unit_penalty;		/* its unaligned write against its
					   aligned one */
	double other_penalty;		/* the largest of the other sizes' */
	double small_ratio;		/* the smallest write against one of
					   the unit */
	int erase_top;			/* the erase size raised to medium:
					   the top of the reads' gradual AU
					   step stood clear */
	double erase_half_ns;		/* its reads' median diff across odd
					   multiples of half the erase size, */
	double erase_top_ns;		/* of the erase size, */
	double erase_above_ns;		/* and across multiples of twice it */
	int unit_sector;		/* unit_byte is the sector: none
					   larger showed, and no write cache
					   in half the card */
	/* a block-mapped card of large sectors: its page from writes */
	uint64_t page_byte;		/* the page writes showed (0: none) */
	int page_sector;		/* none above the sector: each sector
					   is programmed alone */
	int page_hidden;		/* pages, large sectors: the page is
					   not measurable (page_reads holds
					   the reads' step) */
	struct analyze_step page_reads;	/* what the reads said of the page
					   and the evidence, before */
};

/* The steps whose device time the record keeps (step_ns[]). */
enum auto_step {
	AUTO_STEP_ALIGN,		/* the align tables */
	AUTO_STEP_FAT,			/* the FAT area */
	AUTO_STEP_OPEN_LINEAR,		/* the open AUs, in order */
	AUTO_STEP_OPEN_RANDOM,		/* and out of order */
	AUTO_STEP_ERASE_WRITES,		/* the erase size from writes */
	AUTO_STEP_CLASS,		/* the class check, last */
	AUTO_STEP_MAPPING,		/* a page-mapped card's unit probe */
	AUTO_STEP_CACHE,		/* the write cache, its top-ups */
	AUTO_STEPS
};

/*
 * What a record of an older shape lacks (auto_result.lacks), each with
 * what it costs (--analyze says so): the reads at each position of the
 * align rows (the rows are judged as a pasted table), the timing noise
 * (not measured: the write steps' answers are medium at most), the FAT
 * probe's copy visits (an area by its speed alone; none is low at
 * most), the open-AU probes' means, slow AUs in each pass and bounds (a
 * card that keeps one AU more in a log is not told apart: medium at
 * most; the means come from the record's ratios).
 */
enum auto_lack {
	AUTO_LACK_POSITIONS	= 1 << 0,
	AUTO_LACK_NOISE		= 1 << 1,
	AUTO_LACK_FAT_COPIES	= 1 << 2,
	AUTO_LACK_OPEN_PASSES	= 1 << 3,
	AUTO_LACKS		= 4	/* how many */
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
	uint64_t step_ns[AUTO_STEPS];	/* of it, each step's */
	unsigned int sector_byte;	/* the device's logical block size:
					   the unit of partition tables */
	int capacity_done;		/* the capacity check ran */
	struct capacity_result capacity; /* is all of the card there? */
	struct auto_noise noise;	/* how repeatable the timings were */
	const char *skip_settle;	/* what would let skipped steps run */
	int erase_fallback;		/* the write steps used an erase size
					   read with low confidence */
	struct auto_group group_probe;	/* raw rows of the group probe */
	unsigned int lacks;		/* a record read back of an older
					 * shape: what it lacks (AUTO_LACK_*);
					 * 0 for a run */
	struct auto_mapping mapping;	/* pages or AUs (decided) */
	struct auto_cache cache;	/* the write cache, first write step */
	/* after the steps above, set by auto_run_all() alone: */
	uint64_t device_byte;		/* the device's size */
	uint64_t class_start_byte;	/* the class check writes from here */
	uint64_t class_end_byte;	/* to here (0: not placed) */
	int class_skipped;		/* --destructive: it would have written
					   past the device's end */
	struct card_claims class_claims; /* the classes the card states */
	struct class_result *class;	/* the class check, malloc'd (NULL:
					   not run, or no class judged) */
	uint64_t capacity_plan_byte;	/* without --destructive: what the
					   capacity check would overwrite */
	struct auto_latency latency;	/* every step's single writes */
	int capacity_plan_ranges;	/* in so many ranges */
};

/*
 * Free what r holds: its tables' and the group probe's rows, the class
 * check's result.
 */
void auto_free(struct auto_result *res);

#endif /* FLASHBENCH_AUTORECORD_H */
