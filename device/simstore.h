/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the simulated card stores: a sparse map of 512-byte sectors, so
 * that a card of 64 GiB costs memory only for what was written.  A
 * sector holding one byte value throughout (the zeros the timing tests
 * write) is kept as that byte alone.  Each sector carries a sequence
 * number (when it was written), which the card's write cache uses.
 * Other sectors' bytes sit in a pool of slabs.
 * A long write of one byte value throughout (the write-cache step's
 * hundreds of MiB) is kept as one run of sectors, not a slot each: the
 * runs are disjoint and sorted, and a sector held both by a run and by
 * a slot reads as the one written last (the greater sequence number).
 */
#ifndef FLASHBENCH_SIMSTORE_H
#define FLASHBENCH_SIMSTORE_H

#include <stddef.h>
#include <stdint.h>

#define SIMSTORE_SECTOR	512

/* Sectors of data per slab of the pool that holds them. */
#define SIMSTORE_SLAB	256

struct simstore_ent {
	uint64_t key;		/* sector number + 1; 0: an empty slot */
	uint64_t seq;		/* when it was written */
	uint32_t data;		/* its bytes' place in the pool + 1, or 0 */
	unsigned char fill;	/* every byte, when data is 0 */
};

/* Sectors [first, end) each holding fill; sector first + k at seq + k. */
struct simstore_run {
	uint64_t first, end;
	uint64_t seq;
	unsigned char fill;
};

struct simstore {
	struct simstore_ent *tab;	/* open addressing, linear probing */
	size_t cap;			/* slots, a power of two (or 0) */
	size_t nr;			/* slots in use */
	struct simstore_run *runs;	/* sorted by first, disjoint */
	size_t nruns, runs_cap;
	/*
	 * The sectors' bytes, in slabs of SIMSTORE_SLAB sectors: one
	 * allocation per slab, not per sector (a card written with random
	 * data holds millions).  Places 1..used were handed out; a freed
	 * one goes on a list threaded through its first bytes.
	 */
	unsigned char **slabs;
	size_t nslabs;
	uint32_t used, free_head;
};

/* Store one sector (copied) with its sequence number.  0 or -ENOMEM. */
int simstore_put(struct simstore *s, uint64_t sector, const void *data,
		 uint64_t seq);

/*
 * Store n sectors from first, each every byte fill, sector first + k
 * with sequence number seq + k.  0 or -ENOMEM.
 */
int simstore_put_run(struct simstore *s, uint64_t first, uint64_t n,
		     unsigned char fill, uint64_t seq);

/* Has anything been stored? */
static inline int simstore_empty(const struct simstore *s)
{
	return !s->nr && !s->nruns;
}

/*
 * Copy sector into out (SIMSTORE_SECTOR bytes) and its sequence number
 * into *seq (may be NULL).  Returns 1 when stored, 0 when never written.
 */
int simstore_get(const struct simstore *s, uint64_t sector, void *out,
		 uint64_t *seq);

/* Drop every sector written before min_seq.  0 or -ENOMEM. */
int simstore_prune(struct simstore *s, uint64_t min_seq);

/* Free everything; s is empty afterwards. */
void simstore_free(struct simstore *s);

#endif /* FLASHBENCH_SIMSTORE_H */
