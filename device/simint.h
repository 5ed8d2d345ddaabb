/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The simulated card's private header: the card's state, the arithmetic
 * its files share (inline here, so that none of them calls back into
 * sim.c) and the functions sim.c calls in the others (sim.c: the model
 * and the device operations; simau.c: the open-AU table; simdata.c:
 * what the card stores; simspec.c: the SPEC parser; simcache.c: the
 * pSLC write cache in front of either map; simpage.c: the page-mapped
 * card; simstall.c: what the card does on its own, when idle and in
 * long write stalls).  Not for use outside device/sim*.c.
 */
#ifndef FLASHBENCH_SIMINT_H
#define FLASHBENCH_SIMINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim.h"
#include "simstore.h"

#define SIM_SECTOR	512		/* every I/O aligns to this */
#define SIM_MAX_US	1e7		/* ten seconds per operation */

/* A write the write-back cache took: its sector and sequence. */
struct sim_wq {
	uint64_t sector, seq;
};

/* One open AU. */
struct sim_slot {
	uint64_t au;		/* index of the AU */
	uint64_t wp_byte;	/* write pointer: end of the highest write */
	uint64_t last_byte;	/* end of the last write */
	uint64_t old_byte;	/* old data in the AU when opened: [0, old) */
	uint64_t kept_byte;	/* old data since rewritten in order */
	uint64_t written_byte;	/* bytes written in linear order since */
	uint64_t stamp;		/* last use, for least-recently-used */
	uint64_t opened;	/* when opened, for evict=oldest */
	bool used;		/* the slot holds an open AU */
	bool random;		/* written out of order since opened */
};

struct sim_card {
	struct device dev;	/* must be first */
	struct sim_params p;	/* fat_mbps resolved */
	uint64_t now_ns;	/* virtual clock */
	uint64_t untimed_ns;	/* what untimed I/O cost, noise-free */
	uint64_t rng;		/* splitmix64 state */
	uint64_t rng_pause;	/* splitmix64 state of the pauses */
	uint64_t rng_busy;	/* splitmix64 state of the busy host */
	bool busy;		/* in a busy spell of the host */
	uint64_t ra_lo, ra_hi;	/* read-ahead buffer: [ra_lo, ra_hi) */
	unsigned int nr_slots;	/* open, one more for a gradual collapse */
	uint64_t nr_au;		/* AUs on the card */
	uint32_t *data_end;	/* per AU: old data lies in [0, data_end) */
	uint32_t *fat_end;	/* per FAT AU: end of its last write */
	struct sim_slot *slot;	/* p.open_au slots */
	unsigned int nr_open;	/* slots in use */
	unsigned int nr_random;	/* slots in random mode */
	uint64_t stamp;		/* LRU clock, counts writes */
	uint64_t opens;		/* AUs opened so far */
	struct simstore flash;	/* what the flash holds, by real sector */
	struct simstore cache;	/* the write cache, by address */
	uint64_t wseq;		/* sectors written so far */
	uint64_t real_byte;	/* real_size resolved: size when 0 */
	struct sim_wq *wq;	/* write-back: cached writes, oldest first */
	size_t wq_head, wq_len, wq_cap;	/* wq[wq_head..wq_len) in use */
	uint64_t cache_lo;	/* write-back: older sequences were pushed */
	uint64_t cache_nr;	/* write-back: sectors held */
	struct sim_page *page;	/* ftl=page: the map (simpage.c), or NULL */
	uint64_t last_end_ns;	/* clock when the last command ended */
	uint64_t extra_ns;	/* waits and stalls, charged without noise */
	uint64_t slc_fill;	/* bytes in the pSLC cache, not yet folded */
	bool dirty;		/* written since the last maintenance */
	uint64_t nr_written;	/* bytes timed writes wrote so far */
	uint64_t stall_every;	/* bytes from one stall to the next (0:
				   none): stall_bytes or stall_writes's */
	uint64_t stall_phase;	/* where in them the seed starts */
};

/* ---- the arithmetic every file of the card uses; it calls nothing ---- */

/* Bytes in AU au: the erase size, less for a last AU cut short. */
static inline uint64_t sim_au_len(const struct sim_card *c, uint64_t au)
{
	uint64_t start = au * c->p.erase_byte;

	return c->p.size_byte - start < c->p.erase_byte ?
	       c->p.size_byte - start : c->p.erase_byte;
}

/* The next number of the splitmix64 sequence of state *state. */
static inline uint64_t sim_rand_of(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* ns to move len bytes at rate_mbps (10^6 bytes/s). */
static inline double sim_xfer_ns(uint64_t len, double rate_mbps)
{
	return (double)len * 1000.0 / rate_mbps;
}

/* ---- the functions sim.c calls in the other files ---- */

/* simau.c: the open-AU table */
double sim_write_ns(struct sim_card *c, uint64_t pos, uint64_t len,
		    double t);
void sim_discard_au(struct sim_card *c, uint64_t au, uint64_t a,
		    uint64_t b);

/* simdata.c: what the card stores */
void sim_data_read(const struct sim_card *c, void *buf, size_t len,
		   uint64_t first);
int sim_data_write(struct sim_card *c, const void *buf, size_t len,
		   uint64_t first);

/* simcache.c: the pSLC write cache, in front of either map */
double sim_store_ns(struct sim_card *c, uint64_t pos, uint64_t len);
void sim_slc_fold(struct sim_card *c, uint64_t idle_ns);

/* simpage.c: the page-mapped card */
uint64_t sim_page_blocks(const struct sim_params *p);
int sim_page_init(struct sim_card *c);
void sim_page_free(struct sim_card *c);
double sim_page_write_ns(struct sim_card *c, uint64_t pos, uint64_t len);
void sim_page_discard(struct sim_card *c, uint64_t pos, uint64_t len);

/* simstall.c: the card on its own: idle, maintenance, stalls */
void sim_stall_init(struct sim_card *c);
uint64_t sim_maint_wait_ns(struct sim_card *c, uint64_t idle_ns);
void sim_stall_write(struct sim_card *c, uint64_t len);

/* simspec.c: the SPEC parser */
int sim_check(const struct sim_params *p, const char *const *raw,
	      char *err, size_t err_len);

#endif /* FLASHBENCH_SIMINT_H */
