/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the files of safety/ share, private to them (not installed; their
 * interface is preserve.h): struct preserve and its ranges, the journal's
 * layout, the hash, small helpers, and the functions one file calls in
 * another, named pv_*.  From the bottom up (a file calls only those
 * before it): hash.c hashes; core.c allocates and frees, groups the
 * pieces of a range and does the I/O; state.c keeps what the ranges
 * hold; guard.c saves lazily and records the run's writes; journal.c
 * writes the journal and reads it back; preserve.c finds the ranges,
 * takes the fingerprint, saves and loads; restore.c writes back,
 * verifies and notes what did not come back.
 */
#ifndef FLASHBENCH_PRESINT_H
#define FLASHBENCH_PRESINT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "c.h"
#include "preserve.h"

/* Largest single read or write, a size any device takes in one go. */
#define PRESERVE_CHUNK		(1024 * 1024)

/* Journal layout, see preserve.h. */
#define J_MAGIC			"FBJOURNL"
#define J_END_MAGIC		"FBJ-END\n"
#define J_MAGIC_BYTE		8
#define J_PATH_BYTE		128
#define J_HDR_BYTE		192
#define J_HDR_HASHED		(J_HDR_BYTE - 8)
#define J_REC_BYTE		24
#define J_TRAILER_BYTE		24
#define J_STATE_MAGIC		"FBJSTATE"
#define J_STATE_HEAD_BYTE	16
#define J_ENTRY_BYTE		16
#define J_LAZY_ENTRY_BYTE	24
#define J_LAZY_VERSION		3

/* Alias distances remembered, and full searches allowed, per check. */
#define ALIAS_SHIFTS		64
#define ALIAS_SEARCHES		8

/* What a restore does with a block (struct preserve's mark). */
enum {
	BLK_CLEAN,		/* holds what was saved: left alone */
	BLK_DIRTY,		/* to be written back */
	BLK_BACK,		/* written back */
};

/* A saved block by the hash of its contents alone. */
struct block_ix {
	uint64_t hash;			/* pv_block_hash(0, contents) */
	uint64_t off_byte;		/* where it was saved from */
	const unsigned char *data;	/* the saved contents */
};

/* One saved range. */
struct preserve_range {
	uint64_t off_byte;		/* where it starts on the device */
	uint64_t len_byte;		/* its length */
	unsigned char *data;		/* the saved bytes, I/O-aligned */
	uint64_t hash;			/* pv_range_hash() of the data */
	uint64_t first_block;		/* its first block in the state */
	uint64_t file_off;		/* where its data is in the journal */
	int saved;			/* data holds what it held */
	int cont;			/* a piece that goes on from the one
					   before, on the device and in data */
};

struct guard;

struct preserve {
	struct device *dev;		/* the device saved from */
	char *journal;			/* journal path, malloc'd */
	struct preserve_range *r;	/* n ranges */
	size_t n;			/* number of ranges */
	uint64_t total_byte;		/* sum of range lengths */
	uint64_t fingerprint;		/* of dev, see preserve.h */
	unsigned char *buf;		/* chunk_byte I/O buffer */
	size_t chunk_byte;		/* largest single transfer */
	/*
	 * What each block of the ranges should hold: the pv_block_hash() of
	 * the last two contents written to it (two, because a write cut
	 * short by a crash leaves either), 2 per block; NULL when a
	 * version 1 journal did not say.
	 */
	uint64_t *state;
	uint64_t nblocks;		/* blocks of the ranges */
	unsigned int lbs;		/* bytes per block */
	int jfd;			/* journal open to update the state */
	uint64_t state_off;		/* where the state's entries start */
	struct guard *guard;		/* the wrapper recording writes */
	/*
	 * What a restore writes back, one BLK_* per block of the ranges:
	 * the blocks the run wrote, not all it might have; NULL until a
	 * restore or a check of the contents begins.
	 */
	unsigned char *mark;
	int every;			/* write back every block (--force) */
	struct preserve_loss *loss;	/* what did not come back */
	size_t nloss, loss_cap;
	uint64_t nstray;		/* blocks found changed, not written */
	struct block_ix *ix;		/* the saved blocks by content */
	size_t nix;
	uint64_t shift[ALIAS_SHIFTS];	/* alias distances seen */
	unsigned int nshift;
	unsigned int searches;		/* full alias searches made */
	uint64_t aliased;		/* blocks holding another's data */
	uint64_t run_held;		/* blocks holding the run's write */
	/*
	 * Saved lazily (version 3): a range is read and journalled just
	 * before the run first writes into it.  saved_h holds, per block,
	 * pv_saved_tag() of what was saved, 0 while nothing is; wix indexes
	 * the blocks the run wrote by their contents (pv_block_hash(0, ...)),
	 * to see a range that aliases one written.
	 */
	int lazy;
	uint64_t *saved_h;
	uint64_t *wix;			/* wix_cap pairs (hash, offset + 1) */
	size_t wix_cap, wix_n;
	uint64_t lazy_calls, lazy_bytes;	/* reads saving lazily */
	int fp_count;			/* fp_window() counts fp_aliased */
	uint64_t fp_aliased;		/* window blocks holding the run's */
};

/* A device in front of another that keeps p's state up to date. */
struct guard {
	struct device dev;		/* must be first */
	struct preserve *p;		/* attached by preserve_save() */
	uint64_t paused_ns;		/* noting time, off the clock */
};

/*
 * A 64-bit streaming hash: one multiply-rotate lane over little-endian
 * words and a final avalanche.  Fast enough for tens of MiB, good at
 * catching accidental changes; not cryptographic.
 */
struct phash {
	uint64_t acc;			/* running state */
	uint64_t len_byte;		/* bytes hashed so far */
	unsigned char tail[8];		/* bytes short of a word */
	unsigned int ntail;		/* how many wait */
};

/* What a journal header says. */
struct journal_info {
	uint64_t size_byte;		/* device size */
	uint32_t lbs;			/* logical block size, bytes */
	uint64_t fingerprint;		/* of the device, see preserve.h */
	uint64_t nr;			/* number of ranges */
	uint64_t total_byte;		/* sum of their lengths */
	uint64_t hdr_hash;		/* hash of the header */
	uint32_t version;		/* 1: no state section */
};

/* Integers in the journal's byte order (little-endian), and back. */
static inline uint64_t get_le64(const unsigned char *b)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | b[i];
	return v;
}

static inline uint32_t get_le32(const unsigned char *b)
{
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
	       (uint32_t)b[3] << 24;
}

static inline void put_le64(unsigned char *b, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++, v >>= 8)
		b[i] = (unsigned char)v;
}

static inline void put_le32(unsigned char *b, uint32_t v)
{
	int i;

	for (i = 0; i < 4; i++, v >>= 8)
		b[i] = (unsigned char)v;
}

/* Put a formatted reason into why (may be NULL); returns ret. */
static inline int say(char *why, size_t why_len, int ret, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static inline int say(char *why, size_t why_len, int ret, const char *fmt, ...)
{
	va_list ap;

	if (!why || !why_len)
		return ret;
	va_start(ap, fmt);
	vsnprintf(why, why_len, fmt, ap);
	va_end(ap);
	return ret;
}

/* hash.c */
void pv_ph_init(struct phash *h, uint64_t seed);
void pv_ph_update(struct phash *h, const void *p, size_t len);
void pv_ph_u64(struct phash *h, uint64_t v);
uint64_t pv_ph_final(const struct phash *h);
uint64_t pv_range_hash(const struct preserve_range *r);
uint64_t pv_block_hash(uint64_t off, const unsigned char *data,
		       unsigned int lbs);
uint64_t pv_plan_hash(const struct preserve_range *r);
uint64_t pv_saved_tag(uint64_t off, const unsigned char *data,
		      unsigned int lbs);

/* core.c */
struct preserve *pv_preserve_alloc(size_t n, uint64_t lbs);
struct preserve_range pv_piece_group_end(const struct preserve *p,
					 size_t i, size_t *end);
struct preserve_range pv_piece_group(const struct preserve *p, size_t i);
void pv_guard_detach(struct preserve *p);
int pv_io(struct preserve *p, int write, void *buf, uint64_t off,
	  uint64_t len, const char *what, char *why, size_t why_len);

/* state.c */
int pv_number_blocks(struct preserve *p);
int pv_state_alloc(struct preserve *p);
int pv_mark_written(struct preserve *p);
void pv_join_runs(struct preserve *p);
void pv_state_init(struct preserve *p);
unsigned int pv_entry_byte(const struct preserve *p);
void pv_put_entry(const struct preserve *p, uint64_t k, unsigned char *b);
int pv_state_put(const struct preserve *p, uint64_t first, uint64_t nb);
int pv_state_record(struct preserve *p, const unsigned char *buf,
		    uint64_t len, uint64_t off);
int pv_uniform(const unsigned char *data, size_t len);
int pv_holds_block_of(const struct preserve *p, uint64_t y,
		      const unsigned char *data);
int pv_state_check(struct preserve *p, char *why, size_t why_len);

/* guard.c */
int pv_wix_foreign(const struct preserve *p, uint64_t x,
		   const unsigned char *data);
struct guard *pv_find_guard(struct device *dev);
void pv_guard_attach(struct preserve *p, struct device *dev);

/* journal.c */
int pv_sync_dir_of(const char *path);
void pv_file_offsets(struct preserve *p);
int pv_journal_write(struct preserve *p, char *why, size_t why_len);
int pv_journal_load(const char *journal, struct preserve **pp,
		    struct journal_info *ji, char *why, size_t why_len);

#endif /* FLASHBENCH_PRESINT_H */
