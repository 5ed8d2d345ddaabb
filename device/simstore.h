/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the simulated card stores: a sparse map of 512-byte sectors, so
 * that a card of 64 GiB costs memory only for what was written.  A
 * sector holding one byte value throughout (the zeros the timing tests
 * write) is kept as that byte alone.  Each sector carries a sequence
 * number (when it was written), which the card's write cache uses.
 */
#ifndef FLASHBENCH_SIMSTORE_H
#define FLASHBENCH_SIMSTORE_H

#include <stddef.h>
#include <stdint.h>

#define SIMSTORE_SECTOR	512

struct simstore_ent {
	uint64_t key;		/* sector number + 1; 0: an empty slot */
	uint64_t seq;		/* when it was written */
	unsigned char *data;	/* SIMSTORE_SECTOR bytes, or NULL: fill */
	unsigned char fill;	/* every byte, when data is NULL */
};

struct simstore {
	struct simstore_ent *tab;	/* open addressing, linear probing */
	size_t cap;			/* slots, a power of two (or 0) */
	size_t nr;			/* slots in use */
};

/* Store one sector (copied) with its sequence number.  0 or -ENOMEM. */
int simstore_put(struct simstore *s, uint64_t sector, const void *data,
		 uint64_t seq);

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
