/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * --auto's procedures: what each step writes and reads, and the raw
 * measurements it keeps in struct auto_result (see the table in auto.h).
 * Their verdicts are the decisions of verdict/; this header is for
 * probes/ alone.
 */
#ifndef FLASHBENCH_PROBE_H
#define FLASHBENCH_PROBE_H

#include <stddef.h>
#include <stdint.h>

#include "auto.h"
#include "autorun.h"
#include "class.h"
#include "layout.h"
#include "vm.h"

/* ---- I/O (io.c) ---- */

/* Run prog and return the raw value of the only cell it prints. */
int auto_run_cell(struct device *dev, struct vm_node *prog, double *val);
/* print(format(reduce_total(kid))): the time of all writes in kid. */
struct vm_node *auto_total_time(struct vm_node *kid);
/* One write of len bytes at off; its time in *ns. */
int auto_write_one(struct device *dev, uint64_t off, uint64_t len,
		   double *ns);
/* One progress line (fmt with one %s). */
void auto_say(const struct auto_hooks *h, const char *fmt, const char *a);
/* Announce ranges (first call or a later phase); 0 or the hook's error. */
int auto_announce(const struct auto_hooks *h, struct bench_range *ranges,
		  int n);

/* ---- the steps: 0 or -errno ---- */

/* The align tables, and the group probe (align.c). */
int auto_probe_align(struct device *dev, const struct bench_opts *o,
		     const struct auto_hooks *h, struct auto_result *r);
/*
 * Where the erase search from writes found none, the tables the align
 * step left to it (it stopped once the page was clear), read now until
 * the erase size is sure or none is left, and the group probe if it did
 * not run; the erase size chosen and combined again.  0 or -errno.
 */
int auto_probe_align_more(struct device *dev, const struct bench_opts *o,
			  const struct auto_hooks *h, struct auto_result *r);
/* The erase size from writes, when the reads were not sure (erasesearch.c). */
int auto_probe_erase(struct device *dev, const struct auto_hooks *h,
		     struct auto_result *r);
/*
 * A page-mapped card's unit probe (mapping.c): small and unaligned
 * writes in the probe AUs of AUs of erase bytes, into m's raw fields.
 */
int auto_probe_mapping(struct device *dev, uint64_t erase,
		       struct auto_mapping *m);
/*
 * The write cache (cachefill.c), the first write step: announced,
 * measured into r->cache and decided.
 */
int auto_probe_cache(struct device *dev, const struct bench_opts *o,
		     const struct auto_hooks *h, struct auto_result *r);
/*
 * Before a later step times writes: the cache r found filled again
 * (nothing where it found none).
 */
int auto_cache_topup(struct device *dev, struct auto_result *r);
/*
 * A later phase's ranges (n of them) announced, and with them those the
 * write cache's top-ups (and its recheck, where recheck: one may follow
 * the phase's writes) may write in it (--preserve puts an earlier
 * phase's back before the next saves its own).
 */
int auto_announce_past(const struct auto_hooks *h,
		       const struct auto_result *r,
		       const struct bench_range *ranges, int n, int recheck);
/*
 * After a later step's writes (at says which), where the write-cache
 * step reached its cap with no drop: did a cache larger than the cap
 * fill meanwhile?  1 (the step's answers were the cache's: make it
 * again), 0, or -errno.
 */
int auto_cache_recheck(struct device *dev, const struct auto_hooks *h,
		       struct auto_result *r, enum cache_at at);
/*
 * After the write steps, where they read no collapse and no mapping
 * unit (what a cache takes the writes as) and the write-cache step
 * reached its default cap with no drop: the cache's first chunks
 * written again, as much as the cap at most, until they are slow (a
 * cache larger than the cap, full now; the recheck after tells).  0 or
 * -errno.
 */
int auto_cache_push(struct device *dev, const struct bench_opts *o,
		    const struct auto_hooks *h, struct auto_result *r);
/*
 * The write latency (latency.c): a wrapper over dev that times each
 * single write (NULL when out of memory: the run goes on without it),
 * and, at the end, the sums of what it timed into *res, the wrapper
 * freed (dev left open).
 */
struct device *auto_latency_wrap(struct device *dev);
void auto_latency_done(struct device *w, struct auto_latency *res);
/*
 * The step the run's writes on dev now belong to, for the latency
 * wrapper below dev (none: nothing); returns the step before.
 */
enum lat_step auto_latency_step(struct device *dev, enum lat_step s);
/* The FAT area probe (fat.c). */
int auto_probe_fat(struct device *dev, uint64_t erase, struct auto_fat *f);

/*
 * The FAT area f found (none: nothing done), visited again, each AU the
 * slower of its two visits, then judged again: on a card with a write
 * cache, filled first by the caller.  Returns 0 or -errno.
 */
int auto_probe_fat_again(struct device *dev, uint64_t erase,
			 struct auto_fat *f);

/*
 * The probe AUs, shared by the searches in both orders.  A used card's
 * AUs hold old data: one written in part and closed costs a garbage
 * collection, which is what shows a collapse.  An AU discarded (or never
 * written since the card was made) holds none, and closing it costs
 * nothing: on such AUs the card seems to keep any number open.  So the
 * searches write the AUs as they find them, and write them whole first
 * (precondition) only when that is needed: when the positions of an AU
 * are used up, and, for every AU, when the search in linear order saw no
 * collapse at all.
 */
struct probe_area {
	int whole;		/* precondition each AU before its first use */
	unsigned int touched;	/* AUs [0, touched) written to */
	unsigned int ready;	/* AUs [0, ready) preconditioned */
	unsigned int last;	/* the AU written last */
	unsigned int order[AUTO_MAX_NR]; /* probe AU k is AU order[k] */
	unsigned int last_k;	/* the last write: AU order[last_k] */
	unsigned int last_nr;	/* of a probe with so many AUs */
	uint64_t written;	/* bytes written to precondition */
};

/*
 * Where the class check writes (classcheck.c): *p, and its range in
 * r->class_start_byte, class_end_byte; in AUs of the size ci states
 * (may be NULL), else the erase size r found.
 */
void auto_class_place(const struct bench_opts *o, const struct card_info *ci,
		      struct auto_result *r, struct class_plan *p);
/*
 * The class check, last: announced, measured and judged against the
 * classes ci states into r->class, or r->class_skipped where the device
 * is too small for it.  o's --offset is where it writes.
 */
int auto_probe_class(struct device *dev, const struct bench_opts *o,
		     const struct card_info *ci, const struct auto_hooks *h,
		     struct auto_result *r);

/*
 * The open-AU search in one order (opensearch.c): linear when lin is NULL,
 * else random, lin being what the search in linear order found.
 */
int auto_probe_open(struct device *dev, uint64_t erase,
		    const struct auto_open *lin, struct probe_area *area,
		    struct auto_open *res);

#endif /* FLASHBENCH_PROBE_H */
