/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The simulated card: a model of managed flash with a virtual clock.  It
 * charges time for each read, write and discard from its position, size
 * and the card's history, and knows nothing of the tests that drive it.
 */
#ifndef FLASHBENCH_SIM_H
#define FLASHBENCH_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "dev.h"

/* The planted characteristics of a simulated card. */
struct sim_params {
	uint64_t size_byte;	/* capacity */
	uint64_t erase_byte;	/* allocation unit: 2^n or 3*2^n */
	uint64_t page_byte;	/* flash page */
	unsigned int open_au;	/* AUs kept open in linear order */
	unsigned int open_random; /* AUs kept open in random order */
	unsigned int fat_nr;	/* FAT-optimised AUs */
	unsigned int fat_start;	/* index of the first FAT-optimised AU */
	double noise_pct;	/* timing noise, percent */
	uint64_t seed;		/* noise seed */
	double read_mbps;	/* read transfer rate, 10^6 bytes/s */
	double write_mbps;	/* write transfer rate, 10^6 bytes/s */
	double access_us;	/* access time per command, microseconds */
	double page_us;		/* extra cost of reading one more page */
	double au_us;		/* extra cost of a read crossing an AU */
	double erase_us;	/* erase time added when GC closes an AU */
	double discard_us;	/* cost of a discard on top of access_us */
	double fat_mbps;	/* write rate in FAT AUs, 10^6 bytes/s;
				 * 0 = twice write_mbps */
	uint64_t fat_page_byte;	/* program unit in FAT AUs */
	unsigned int fat_kind;	/* enum sim_fat_kind: where FAT AUs differ */
	unsigned int readsig;	/* 0: reads cost the same anywhere */
	unsigned int plane;	/* pages read at once (multi-plane), 1 = off */
	double plane_us;	/* extra cost of a read crossing plane * page */
	uint64_t group_byte;	/* allocation group, 0 = none */
	double group_us;	/* extra cost of a read crossing a group */
	unsigned int au_spread;	/* alignments the AU step spreads over */
	double pause_pct;	/* chance of a pause per request, percent */
	double pause_us;	/* scale of the pauses (Pareto), microseconds */
	uint64_t readahead_byte; /* read-ahead window, 0 = none */
	double random_mbps;	/* write rate in random order; 0 = write_mbps */
	unsigned int collapse;	/* enum sim_collapse */
	uint64_t real_size_byte; /* what really stores data; 0 = size */
	unsigned int fake;	/* enum sim_fake: what lies past real_size */
	uint64_t cache_byte;	/* write cache in front, 0 = none */
	char claims[32];	/* classes the card states ("C10+U1+A1") */
	uint64_t au_byte;	/* AU the card states in its SSR, 0 = none */
	unsigned int queue;	/* command queue depth, 0 = none */
	unsigned int queue_cache; /* 1: queued writes go to a cache */
	unsigned int ooo;	/* enum sim_ooo: a write below the pointer */
	double random_us;	/* extra cost of an out-of-order write in
				 * random mode, microseconds */
	unsigned int close;	/* enum sim_close: what closing copies */
	unsigned int fullclose;	/* 1: an AU written to its end closes */
	unsigned int evict;	/* enum sim_evict: which open AU closes */
	unsigned int used;	/* 1: every AU starts full of old data */
	unsigned int fat_gain;	/* enum sim_fat_gain: what FAT AUs gain */
	unsigned int host;	/* enum sim_host: preset of the busy_ keys */
	double busy_pct;	/* chance a busy spell starts, percent */
	double busy_us;		/* a delayed request's delay, microseconds
				 * (jittered by half either way) */
	double busy_burst;	/* mean requests a busy spell delays */
	unsigned int cache_kind; /* enum sim_cache_kind */
	/* today's cards (simcache.c, simpage.c, simstall.c) */
	uint64_t sector_byte;	/* logical block size: 512 or 4096 */
	unsigned int ftl;	/* enum sim_ftl: how the card maps */
	uint64_t map_byte;	/* page-mapped: the mapping unit */
	double spare_pct;	/* page-mapped: spare area, % of size */
	uint64_t slc_byte;	/* pSLC write cache, 0 = none */
	double slc_mbps;	/* write rate into it; 0 = 4 * write_mbps */
	double fold_mbps;	/* rate it empties at while idle;
				 * 0 = write_mbps */
	double maint_ms;	/* background work after idle, 0 = none */
	double maint_idle_ms;	/* idle time before it starts */
	double stall_ms;	/* a long write stall, 0 = none */
	uint64_t stall_writes;	/* the same, in 4 KiB writes, 0 = none */
	uint64_t stall_bytes;	/* one every this many bytes written, 0 =
				   none (over stall_writes) */
};

/* How the card maps logical addresses to flash. */
enum sim_ftl {
	SIM_FTL_BLOCK,		/* by AUs, a few open (the classic card) */
	SIM_FTL_PAGE,		/* by mapping units, anywhere (A1/A2, eMMC) */
};

/* What a card does on a write below an open AU's write pointer. */
enum sim_ooo {
	SIM_OOO_RANDOM,		/* random mode, up to open_random AUs */
	SIM_OOO_MERGE,		/* merge the AU at once (close, reopen) */
	SIM_OOO_COPY_WHOLE,	/* copy the whole AU, reopen it */
	SIM_OOO_COPY_WRITTEN,	/* copy what it was written since opened */
};

/* What closing an AU written in order copies. */
enum sim_close {
	SIM_CLOSE_OLD,		/* old data not rewritten since opened */
	SIM_CLOSE_REST,		/* what was not written since opened */
	SIM_CLOSE_ALL,		/* the whole AU */
};

/* Which open AU a card closes to open another. */
enum sim_evict {
	SIM_EVICT_LRU,		/* the least recently written */
	SIM_EVICT_OLDEST,	/* the first opened */
};

/* What the FAT-optimised AUs gain over the others. */
enum sim_fat_gain {
	SIM_FAT_GAIN_BOTH,	/* fat_mbps, fat_page, no slot nor copy */
	SIM_FAT_GAIN_SPEED,	/* fat_mbps and fat_page only */
	SIM_FAT_GAIN_SLOT,	/* no slot nor copy only */
};

/* How busy the host is: presets of busy_pct, busy_us, busy_burst. */
enum sim_host {
	SIM_HOST_QUIET,		/* no delays (0, -, -) */
	SIM_HOST_LIGHT,		/* 0.5 %, 4 ms, alone */
	SIM_HOST_HEAVY,		/* 3 %, 6 ms, runs of 3 */
};

/* Which writes the FAT-optimised AUs speed up. */
enum sim_fat_kind {
	SIM_FAT_BOTH,		/* linear and random-order writes */
	SIM_FAT_LINEAR,		/* writes in linear order only */
	SIM_FAT_RANDOM,		/* random-order writes only */
};

/* How a card degrades when written in more AUs than it keeps open. */
enum sim_collapse {
	SIM_COLLAPSE_SHARP,	/* one AU too many: every write copies */
	SIM_COLLAPSE_GRADUAL,	/* one too many costs a little, two a lot */
};

/* What a fake card does at addresses from real_size on. */
enum sim_fake {
	SIM_FAKE_LIMBO_ZERO,	/* writes lost, reads return zeros */
	SIM_FAKE_LIMBO_GARBAGE,	/* writes lost, reads return garbage */
	SIM_FAKE_WRAP,		/* address a is a mod real_size */
};

/* How the write cache of cache= passes writes to the flash. */
enum sim_cache_kind {
	SIM_CACHE_THROUGH,	/* at once; reads of the newest from it */
	SIM_CACHE_BACK,		/* when pushed out by newer sectors */
};

/*
 * Fill p with the typical card: 8 GiB, 4 MiB AUs, 16 KiB pages (the
 * defaults doc/simulate.md lists).
 */
void sim_params_default(struct sim_params *p);

/*
 * Apply a comma-separated key=value SPEC on top of *p.  Returns 0, or
 * -EINVAL with a one-line reason (naming the key and value) in err.
 */
int sim_parse_spec(struct sim_params *p, const char *spec, char *err,
		   size_t err_len);

struct card_raw;

/*
 * The registers the card of p shows, as sysfs would (cid, csd, scr, ssr
 * and the kernel's attributes): stated when SPEC gives claims= or au=,
 * else none.
 */
void sim_card_registers(const struct sim_params *p, struct card_raw *raw);

/*
 * If dev is a simulated card: 1, and in *ns its clock plus what its
 * untimed I/O (--preserve's save and write-back) would have taken, had
 * it been timed (without noise).  Else 0.
 */
int sim_total_ns(const struct device *dev, uint64_t *ns);

/* Create a simulated card.  Returns 0 or -errno. */
int sim_open(struct device **devp, const struct sim_params *p);

#endif /* FLASHBENCH_SIM_H */
