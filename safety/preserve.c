// SPDX-License-Identifier: GPL-2.0-only
/*
 * Saving and restoring the ranges a writing test overwrites.  The format
 * of the journal and the fingerprint are described in preserve.h.
 *
 * The order of events is what makes it safe: the journal is written to a
 * temporary name, fsync'd, renamed into place and its directory fsync'd
 * before preserve_save() returns, so the device is never written while
 * the only copy of its data is in memory.  The journal goes only after
 * the data has been written back, flushed to the device and read back
 * equal.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "modes.h"
#include "preserve.h"

/* Largest single read or write, a size any device takes in one go. */
#define PRESERVE_CHUNK		(1024 * 1024)

/* Fingerprint windows: first and last MiB, and samples in between. */
#define FP_EDGE_BYTE		(1024 * 1024)
#define FP_SAMPLES		30
#define FP_SAMPLE_BYTE		(64 * 1024)

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
	uint64_t hash;			/* block_hash(0, contents) */
	uint64_t off_byte;		/* where it was saved from */
	const unsigned char *data;	/* the saved contents */
};

/* One saved range. */
struct preserve_range {
	uint64_t off_byte;		/* where it starts on the device */
	uint64_t len_byte;		/* its length */
	unsigned char *data;		/* the saved bytes, I/O-aligned */
	uint64_t hash;			/* range_hash() of the data */
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
	 * What each block of the ranges should hold: the block_hash() of
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
	 * saved_tag() of what was saved, 0 while nothing is; wix indexes
	 * the blocks the run wrote by their contents (block_hash(0, ...)),
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

/* ---- hashing ---- */

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

#define PH_P1	0x9e3779b185ebca87ULL
#define PH_P2	0xc2b2ae3d27d4eb4fULL
#define PH_P3	0x165667b19e3779f9ULL

static uint64_t get_le64(const unsigned char *b)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | b[i];
	return v;
}

static uint32_t get_le32(const unsigned char *b)
{
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
	       (uint32_t)b[3] << 24;
}

static void put_le64(unsigned char *b, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++, v >>= 8)
		b[i] = (unsigned char)v;
}

static void put_le32(unsigned char *b, uint32_t v)
{
	int i;

	for (i = 0; i < 4; i++, v >>= 8)
		b[i] = (unsigned char)v;
}

static uint64_t rotl64(uint64_t x, unsigned int r)
{
	return x << r | x >> (64 - r);
}

static void ph_init(struct phash *h, uint64_t seed)
{
	h->acc = seed + PH_P3;
	h->len_byte = 0;
	h->ntail = 0;
}

static void ph_word(struct phash *h, uint64_t w)
{
	h->acc = rotl64(h->acc + w * PH_P2, 31) * PH_P1;
}

static void ph_update(struct phash *h, const void *p, size_t len)
{
	const unsigned char *b = p;

	h->len_byte += len;
	while (len && h->ntail) {
		h->tail[h->ntail++] = *b++;
		len--;
		if (h->ntail == 8) {
			ph_word(h, get_le64(h->tail));
			h->ntail = 0;
		}
	}
	for (; len >= 8; b += 8, len -= 8)
		ph_word(h, get_le64(b));
	memcpy(h->tail, b, len);
	h->ntail = (unsigned int)len;
}

static void ph_u64(struct phash *h, uint64_t v)
{
	unsigned char b[8];

	put_le64(b, v);
	ph_update(h, b, sizeof(b));
}

static uint64_t ph_final(const struct phash *h)
{
	uint64_t x = h->acc ^ h->len_byte * PH_P1;
	unsigned int i;

	for (i = 0; i < h->ntail; i++)
		x = rotl64(x ^ h->tail[i] * PH_P3, 11) * PH_P1;
	x ^= x >> 33;
	x *= PH_P2;
	x ^= x >> 29;
	x *= PH_P3;
	x ^= x >> 32;
	return x;
}

/* The hash a record carries: of its offset, length and data. */
static uint64_t range_hash(const struct preserve_range *r)
{
	struct phash h;

	ph_init(&h, 0);
	ph_u64(&h, r->off_byte);
	ph_u64(&h, r->len_byte);
	ph_update(&h, r->data, r->len_byte);
	return ph_final(&h);
}

/* The hash of one block of a range's contents at byte off. */
static uint64_t block_hash(uint64_t off, const unsigned char *data,
			   unsigned int lbs)
{
	struct phash h;

	ph_init(&h, off);
	ph_update(&h, data, lbs);
	return ph_final(&h);
}

/* A version 3 record's hash: of its offset and length (the plan). */
static uint64_t plan_hash(const struct preserve_range *r)
{
	struct phash h;

	ph_init(&h, 0);
	ph_u64(&h, r->off_byte);
	ph_u64(&h, r->len_byte);
	return ph_final(&h);
}

/* A saved block's tag in a version 3 state: its hash, never 0 (unsaved). */
static uint64_t saved_tag(uint64_t off, const unsigned char *data,
			  unsigned int lbs)
{
	uint64_t h = block_hash(off, data, lbs);

	return h ? h : 1;
}

/* ---- small helpers ---- */

/* Put a formatted reason into why (may be NULL); returns ret. */
static int say(char *why, size_t why_len, int ret, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int say(char *why, size_t why_len, int ret, const char *fmt, ...)
{
	va_list ap;

	if (!why || !why_len)
		return ret;
	va_start(ap, fmt);
	vsnprintf(why, why_len, fmt, ap);
	va_end(ap);
	return ret;
}

/* The larger of a and b. */
static uint64_t max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* fsync the directory holding path; returns 0 or -errno. */
static int sync_dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir;
	int fd, ret = 0;

	if (!slash)
		dir = strdup(".");
	else if (slash == path)
		dir = strdup("/");
	else
		dir = strndup(path, (size_t)(slash - path));
	if (!dir)
		return -ENOMEM;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || fsync(fd))
		ret = -errno;
	if (fd >= 0)
		close(fd);
	free(dir);
	return ret;
}

/* Is every range non-empty, block-aligned and inside dev? */
static int check_ranges(const struct device *dev,
			const struct preserve_range *r, size_t n, char *why,
			size_t why_len)
{
	uint64_t lbs = dev->logical_block_size;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!r[i].len_byte || r[i].off_byte % lbs ||
		    r[i].len_byte % lbs || r[i].off_byte > dev->size_byte ||
		    r[i].len_byte > dev->size_byte - r[i].off_byte)
			return say(why, why_len, -EINVAL,
				   "bytes %" PRIu64 "-%" PRIu64
				   " are not whole %" PRIu64
				   "-byte blocks inside %s (%" PRIu64
				   " bytes)",
				   r[i].off_byte,
				   r[i].off_byte + r[i].len_byte, lbs,
				   dev->path, dev->size_byte);
	}
	return 0;
}

/* An empty preserve for n ranges on a device of lbs-byte blocks. */
static struct preserve *preserve_alloc(size_t n, uint64_t lbs)
{
	struct preserve *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->chunk_byte = (size_t)max_u64(PRESERVE_CHUNK, lbs);
	p->lbs = (unsigned int)lbs;
	p->jfd = -1;
	p->r = calloc(n ? n : 1, sizeof(*p->r));
	p->buf = dev_alloc_buf(p->chunk_byte);
	if (!p->r || !p->buf) {
		preserve_free(p);
		return NULL;
	}
	return p;
}

static void guard_detach(struct preserve *p);

/*
 * The pieces one announced range was cut into (preserve_save()), from
 * r[i], as one range: its length, data and blocks span them all; saved
 * when every piece is.  *end, when not NULL, gets the index past them.
 */
static struct preserve_range piece_group_end(const struct preserve *p,
					     size_t i, size_t *end)
{
	struct preserve_range g = p->r[i];
	size_t j;

	for (j = i + 1; j < p->n && p->r[j].cont; j++) {
		g.len_byte += p->r[j].len_byte;
		g.saved = g.saved && p->r[j].saved;
	}
	if (end)
		*end = j;
	return g;
}

static struct preserve_range piece_group(const struct preserve *p, size_t i)
{
	return piece_group_end(p, i, NULL);
}

void preserve_free(struct preserve *p)
{
	size_t i;

	if (!p)
		return;
	guard_detach(p);
	if (p->jfd >= 0)
		close(p->jfd);
	free(p->state);
	free(p->mark);
	free(p->loss);
	free(p->ix);
	free(p->saved_h);
	free(p->wix);
	for (i = 0; p->r && i < p->n; i++)
		if (!p->r[i].cont)
			dev_free_buf(p->r[i].data);
	free(p->r);
	dev_free_buf(p->buf);
	free(p->journal);
	free(p);
}

uint64_t preserve_bytes(const struct preserve *p)
{
	return p->total_byte;
}

const char *preserve_journal(const struct preserve *p)
{
	return p->journal;
}

int preserve_journal_name(char *buf, size_t len, const char *dev_path)
{
	const char *base = strrchr(dev_path, '/');
	size_t i, at;
	int n;

	base = base ? base + 1 : dev_path;
	if (!*base)
		base = "device";
	n = snprintf(buf, len, "./flashbench-%s.journal", base);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	at = strlen("./flashbench-");
	for (i = 0; base[i]; i++) {
		char c = base[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '.' || c == '-' ||
		      c == '_'))
			buf[at + i] = '_';
	}
	return 0;
}

/* Order ranges by start for qsort(). */
static int range_cmp(const void *a, const void *b)
{
	const struct bench_range *x = a, *y = b;

	if (x->start_byte != y->start_byte)
		return x->start_byte < y->start_byte ? -1 : 1;
	return 0;
}

int preserve_ranges(unsigned int tests, const struct bench_opts *o,
		    uint64_t dev_size, struct bench_range **ranges,
		    size_t *n)
{
	struct bench_range *r = NULL, *grown;
	size_t i, nr = 0, m;
	int cnt;

	*ranges = NULL;
	*n = 0;
	for (i = 0; i < modes_nr; i++) {
		const struct mode *md = &modes[i];

		if (!md->writes || !(tests & md->test))
			continue;
		cnt = md->write_ranges(md->test, o, dev_size, NULL, 0);
		if (cnt < 0)
			goto out_fail;
		grown = realloc(r, (nr + (size_t)cnt + 1) * sizeof(*r));
		if (!grown) {
			cnt = -ENOMEM;
			goto out_fail;
		}
		r = grown;
		cnt = md->write_ranges(md->test, o, dev_size, r + nr,
				       (size_t)cnt);
		if (cnt < 0)
			goto out_fail;
		nr += (size_t)cnt;
	}
	if (!nr) {
		free(r);
		return 0;
	}
	qsort(r, nr, sizeof(*r), range_cmp);
	for (i = 1, m = 0; i < nr; i++) {
		if (r[i].start_byte <= r[m].end_byte) {
			if (r[i].end_byte > r[m].end_byte)
				r[m].end_byte = r[i].end_byte;
		} else {
			r[++m] = r[i];
		}
	}
	*ranges = r;
	*n = m + 1;
	return 0;

out_fail:
	free(r);
	return cnt;
}

/* ---- fingerprint ---- */

/* Zero the bytes of buf (holding [off, off + len)) that lie in ranges. */
static void mask_ranges(unsigned char *buf, uint64_t off, uint64_t len,
			const struct preserve_range *r, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t a = max_u64(off, r[i].off_byte);
		uint64_t b = min_u64(off + len, r[i].off_byte + r[i].len_byte);

		if (a < b)
			memset(buf + (a - off), 0, b - a);
	}
}

static int wix_foreign(const struct preserve *p, uint64_t x,
		       const unsigned char *data);

/*
 * Hash one window of dev into h, ranges masked; returns 0 or -errno.
 * With fp_count, count in fp_aliased its blocks that hold what the run
 * wrote at a block of the ranges (wix_foreign()).
 */
static int fp_window(struct phash *h, struct preserve *p, uint64_t off,
		     uint64_t len, char *why, size_t why_len)
{
	uint64_t done, step;

	ph_u64(h, off);
	ph_u64(h, len);
	for (done = 0; done < len; done += step) {
		int ret;

		step = min_u64(p->chunk_byte, len - done);
		ret = dev_read(p->dev, p->buf, step, (off_t)(off + done), NULL);
		if (ret)
			return say(why, why_len, ret,
				   "reading bytes %" PRIu64 "-%" PRIu64
				   " of %s: %s", off + done, off + done + step,
				   p->dev->path, strerror(-ret));
		mask_ranges(p->buf, off + done, step, p->r, p->n);
		ph_update(h, p->buf, step);
		if (p->fp_count) {
			uint64_t k;

			for (k = 0; k + p->lbs <= step; k += p->lbs)
				if (wix_foreign(p, off + done + k, p->buf + k))
					p->fp_aliased++;
		}
	}
	return 0;
}

/* The fingerprint of p->dev with p's ranges masked (see preserve.h). */
static int fingerprint(struct preserve *p, uint64_t *fp, char *why,
		       size_t why_len)
{
	uint64_t size = p->dev->size_byte, lbs = p->dev->logical_block_size;
	uint64_t edge = min_u64(max_u64(FP_EDGE_BYTE, lbs), size);
	uint64_t sample = max_u64(FP_SAMPLE_BYTE, lbs);
	struct phash h;
	int ret, k;

	ph_init(&h, 0x666c617368ULL);
	ph_u64(&h, size);
	ph_u64(&h, lbs);
	ret = fp_window(&h, p, 0, edge, why, why_len);
	for (k = 1; !ret && k <= FP_SAMPLES; k++) {
		uint64_t off = size / (FP_SAMPLES + 1) * (uint64_t)k;

		off -= off % lbs;
		ret = fp_window(&h, p, off, min_u64(sample, size - off), why,
				why_len);
	}
	if (!ret)
		ret = fp_window(&h, p, size - edge, edge, why, why_len);
	*fp = ph_final(&h);
	return ret;
}

/* ---- what the ranges hold: the state ---- */

/*
 * Number the blocks of p's ranges, in record order; returns 0, -ENOMEM
 * (too many to count in memory) or -EINVAL (ranges that are not whole
 * blocks).
 */
static int number_blocks(struct preserve *p)
{
	uint64_t nb = 0;
	size_t i;

	for (i = 0; i < p->n; i++) {
		if (p->r[i].len_byte % p->lbs)
			return -EINVAL;
		p->r[i].first_block = nb;
		nb += p->r[i].len_byte / p->lbs;
	}
	if (nb > SIZE_MAX / (2 * sizeof(*p->state)))
		return -ENOMEM;
	p->nblocks = nb;
	return 0;
}

/* Number the blocks and make room for the state; 0 or -errno. */
static int state_alloc(struct preserve *p)
{
	int ret = number_blocks(p);

	if (ret)
		return ret;
	p->state = calloc(p->nblocks ? (size_t)p->nblocks * 2 : 1,
			  sizeof(*p->state));
	if (p->lazy)
		p->saved_h = calloc(p->nblocks ? (size_t)p->nblocks : 1,
				    sizeof(*p->saved_h));
	return p->state && (!p->lazy || p->saved_h) ? 0 : -ENOMEM;
}

/* Make room for the marks, all BLK_CLEAN; 0 or -ENOMEM. */
static int mark_alloc(struct preserve *p)
{
	if (p->mark)
		return 0;
	p->mark = calloc(p->nblocks ? (size_t)p->nblocks : 1, 1);
	return p->mark ? 0 : -ENOMEM;
}

/* The hash of what was saved from block k (from 0) of range r. */
static uint64_t saved_hash(const struct preserve *p,
			   const struct preserve_range *r, uint64_t k)
{
	return block_hash(r->off_byte + k * p->lbs, r->data + k * p->lbs,
			  p->lbs);
}

/*
 * Mark for writing back every block the run wrote: whose state is not
 * the saved contents twice (state_init()'s).  A write of what a block
 * held leaves it so, and needs no restoring.  Every block when the
 * state cannot be trusted (--force) or is missing (version 1).
 * Returns 0 or -ENOMEM.
 */
static int mark_written(struct preserve *p)
{
	uint64_t k;
	size_t i;

	if (mark_alloc(p))
		return -ENOMEM;
	for (i = 0; i < p->n; i++) {
		const struct preserve_range *r = &p->r[i];
		unsigned char *m = p->mark + r->first_block;
		const uint64_t *e = p->state ?
				    p->state + 2 * r->first_block : NULL;
		const uint64_t nb = r->len_byte / p->lbs;

		if (!r->saved)	/* never written */
			continue;
		for (k = 0; k < nb; k++) {
			if (m[k] != BLK_CLEAN)
				continue;
			if (p->every || !e || e[2 * k] != e[2 * k + 1] ||
			    e[2 * k] != saved_hash(p, r, k))
				m[k] = BLK_DIRTY;
		}
	}
	return 0;
}

/*
 * Join the dirty runs of a range that lie less than chunk_byte apart:
 * one write over the blocks between (they still hold what was saved, so
 * writing it again changes nothing) costs a card less than a second
 * write into the same erase block (the class check's scattered 4 KiB
 * writes).  Ranges stay apart: what lies between them was never saved.
 */
static void join_runs(struct preserve *p)
{
	uint64_t gap = p->chunk_byte / p->lbs, k, last, nb;
	size_t i, e;

	for (i = 0; i < p->n; i = e) {
		const struct preserve_range g = piece_group_end(p, i, &e);
		unsigned char *m = p->mark + g.first_block;
		size_t j = i;
		uint64_t piece_end = p->r[i].len_byte / p->lbs;

		/* across the pieces of a range, but not an unsaved one */
		nb = g.len_byte / p->lbs;
		for (k = 0, last = nb; k < nb; k++) {
			if (k == piece_end) {
				piece_end += p->r[++j].len_byte / p->lbs;
				if (!p->r[j].saved || !p->r[j - 1].saved)
					last = nb;
			}
			if (m[k] != BLK_DIRTY)
				continue;
			if (last < nb && k - last - 1 < gap)
				memset(m + last + 1, BLK_DIRTY,
				       (size_t)(k - last - 1));
			last = k;
		}
	}
}

/* The state as saved: every block holds its saved contents. */
static void state_init(struct preserve *p)
{
	uint64_t k;
	size_t i;

	for (i = 0; i < p->n; i++) {
		const struct preserve_range *r = &p->r[i];
		uint64_t *e = p->state + 2 * r->first_block;
		uint64_t nb = r->len_byte / p->lbs;

		for (k = 0; k < nb; k++, e += 2)
			e[0] = e[1] = block_hash(r->off_byte + k * p->lbs,
						 r->data + k * p->lbs, p->lbs);
	}
}

/* Bytes per block in the journal's state: 24 when saved lazily. */
static unsigned int entry_byte(const struct preserve *p)
{
	return p->lazy ? J_LAZY_ENTRY_BYTE : J_ENTRY_BYTE;
}

/* Put block k's state entry into b (entry_byte() bytes). */
static void put_entry(const struct preserve *p, uint64_t k, unsigned char *b)
{
	if (p->lazy) {
		put_le64(b, p->saved_h[k]);
		b += 8;
	}
	put_le64(b, p->state[2 * k]);
	put_le64(b + 8, p->state[2 * k + 1]);
}

/*
 * Write nb entries of the state from block first into the journal.  The
 * page cache keeps them through a crash of the process; a power loss may
 * lose the latest, and --restore then asks for --force.  Returns 0 or
 * -errno.
 */
static int state_put(const struct preserve *p, uint64_t first, uint64_t nb)
{
	unsigned char buf[256 * J_LAZY_ENTRY_BYTE], *b;
	unsigned int eb = entry_byte(p);
	uint64_t k, n;

	if (p->jfd < 0)
		return 0;
	for (; nb; first += n, nb -= n) {
		n = min_u64(nb, sizeof(buf) / J_LAZY_ENTRY_BYTE);
		for (k = 0, b = buf; k < n; k++, b += eb)
			put_entry(p, first + k, b);
		if (pwrite(p->jfd, buf, (size_t)(n * eb),
			   (off_t)(p->state_off + first * eb)) !=
		    (ssize_t)(n * eb))
			return -EIO;
	}
	return 0;
}

static int uniform(const unsigned char *data, size_t len);

/* ---- the written blocks by contents (lazy save) ---- */

/* The slot for (h, off) in wix: where it is or the empty one. */
static size_t wix_slot(const uint64_t *t, size_t cap, uint64_t h,
		       uint64_t off)
{
	size_t i = (size_t)(h ^ (h >> 29)) & (cap - 1);

	while (t[2 * i + 1] && (t[2 * i] != h || t[2 * i + 1] != off + 1))
		i = (i + 1) & (cap - 1);
	return i;
}

/* Twice the room; 0 or -ENOMEM. */
static int wix_grow(struct preserve *p)
{
	size_t cap = p->wix_cap ? 2 * p->wix_cap : 1024, i, j;
	uint64_t *t = calloc(2 * cap, sizeof(*t));

	if (!t)
		return -ENOMEM;
	for (i = 0; i < p->wix_cap; i++) {
		if (!p->wix[2 * i + 1])
			continue;
		j = wix_slot(t, cap, p->wix[2 * i], p->wix[2 * i + 1] - 1);
		t[2 * j] = p->wix[2 * i];
		t[2 * j + 1] = p->wix[2 * i + 1];
	}
	free(p->wix);
	p->wix = t;
	p->wix_cap = cap;
	return 0;
}

/*
 * Note that the run writes data (one block) at off.  Without memory the
 * note is lost, and a range aliasing it saved later keeps what it reads.
 */
static void wix_add(struct preserve *p, const unsigned char *data,
		    uint64_t off)
{
	uint64_t h = block_hash(0, data, p->lbs);
	size_t i;

	if (uniform(data, p->lbs))
		return;
	if (2 * (p->wix_n + 1) > p->wix_cap && wix_grow(p))
		return;
	i = wix_slot(p->wix, p->wix_cap, h, off);
	if (p->wix[2 * i + 1])
		return;
	p->wix[2 * i] = h;
	p->wix[2 * i + 1] = off + 1;
	p->wix_n++;
}

/*
 * Note, before it reaches the device, that buf (len bytes at off) is
 * about to be written: each block of the ranges it covers may from now on
 * hold either what it held or buf's contents.  Returns 0 or -errno (of
 * the journal; the write itself may still go ahead).
 */
static int state_record(struct preserve *p, const unsigned char *buf,
			uint64_t len, uint64_t off)
{
	uint64_t k, *e;
	size_t i;
	int ret = 0;

	if (!p->state || off % p->lbs || len % p->lbs)
		return 0;
	for (i = 0; i < p->n; i++) {
		const struct preserve_range *r = &p->r[i];
		uint64_t lo = max_u64(off, r->off_byte);
		uint64_t hi = min_u64(off + len, r->off_byte + r->len_byte);
		uint64_t first;

		if (lo >= hi)
			continue;
		first = r->first_block + (lo - r->off_byte) / p->lbs;
		e = p->state + 2 * first;
		for (k = lo; k < hi; k += p->lbs, e += 2) {
			uint64_t h = block_hash(k, buf + (k - off), p->lbs);

			if (p->lazy)
				wix_add(p, buf + (k - off), k);
			/* again what it was last written: it holds e[0] or
			 * e[1] still (a restore noted twice, cut short) */
			if (h == e[1])
				continue;
			e[0] = e[1];
			e[1] = h;
		}
		if (!ret)
			ret = state_put(p, first, (hi - lo) / p->lbs);
	}
	return ret;
}

/* Is every byte of len bytes of data the same? */
static int uniform(const unsigned char *data, size_t len)
{
	return !len || (data[0] == data[len - 1] &&
			!memcmp(data, data + 1, len - 1));
}

/* The state entries of the block at off, or NULL: in no range. */
static const uint64_t *state_of(const struct preserve *p, uint64_t off)
{
	size_t i;

	if (off % p->lbs)
		return NULL;
	for (i = 0; i < p->n; i++) {
		const struct preserve_range *r = &p->r[i];

		if (off >= r->off_byte && off - r->off_byte < r->len_byte)
			return p->state + 2 * (r->first_block +
					       (off - r->off_byte) / p->lbs);
	}
	return NULL;
}

/* Does data hold what the run wrote at block y, or what it held? */
static int holds_block_of(const struct preserve *p, uint64_t y,
			  const unsigned char *data)
{
	const uint64_t *e = state_of(p, y);
	uint64_t h;

	if (!e)
		return 0;
	h = block_hash(y, data, p->lbs);
	return h == e[0] || h == e[1];
}

/* Note an alias distance, to be tried first next time. */
static void alias_note(struct preserve *p, uint64_t d)
{
	unsigned int i;

	for (i = 0; i < p->nshift; i++)
		if (p->shift[i] == d)
			return;
	if (p->nshift < ALIAS_SHIFTS)
		p->shift[p->nshift++] = d;
}

/* Search every block of the ranges but x for one data holds. */
static int alias_search(struct preserve *p, uint64_t x,
			const unsigned char *data)
{
	uint64_t k;
	size_t i;

	for (i = 0; i < p->n; i++) {
		const struct preserve_range *r = &p->r[i];
		const uint64_t *e = p->state + 2 * r->first_block;

		for (k = r->saved ? r->off_byte : r->off_byte + r->len_byte;
		     k < r->off_byte + r->len_byte; k += p->lbs, e += 2) {
			uint64_t h;

			if (k == x)
				continue;
			h = block_hash(k, data, p->lbs);
			if (h != e[0] && h != e[1])
				continue;
			alias_note(p, k > x ? k - x : x - k);
			return 1;
		}
	}
	return 0;
}

/*
 * Does the block at x, holding data, hold what the run wrote (or what
 * was saved) at another block of the ranges?  On a fake card that maps
 * two addresses to one place (a wraparound), the run's write there shows
 * here; that is no sign of anything written since.  Blocks of one byte
 * throughout (zeros) prove nothing: many blocks held them.  Distances
 * found before are tried first; at most ALIAS_SEARCHES full searches.
 */
static int alias_of(struct preserve *p, uint64_t x, const unsigned char *data)
{
	unsigned int i;

	if (uniform(data, p->lbs))
		return 0;

	for (i = 0; i < p->nshift; i++) {
		uint64_t d = p->shift[i];

		if ((x >= d && holds_block_of(p, x - d, data)) ||
		    holds_block_of(p, x + d, data))
			return 1;
	}
	if (p->searches >= ALIAS_SEARCHES)
		return 0;
	p->searches++;
	return alias_search(p, x, data);
}

/*
 * Does dev still hold, in every block of p's ranges, one of the two last
 * contents written there (or, on a card that aliases, one written to
 * another block of the ranges)?  Every block that does not hold what was
 * saved is marked for writing back, whatever its state says.  Returns 0,
 * -ESTALE (why says where not) or the -errno of a read.
 */
static int state_check(struct preserve *p, char *why, size_t why_len)
{
	uint64_t done, step, k;
	size_t i;
	int ret;

	p->aliased = 0;
	p->run_held = 0;
	if (mark_alloc(p))
		return -ENOMEM;
	for (i = 0; i < p->n; i++) {
		const struct preserve_range *r = &p->r[i];
		const uint64_t *e = p->state + 2 * r->first_block;
		unsigned char *m = p->mark + r->first_block;

		/* not saved: the run never wrote there */
		for (done = r->saved ? 0 : r->len_byte; done < r->len_byte;
		     done += step) {
			step = min_u64(p->chunk_byte, r->len_byte - done);
			ret = dev_read(p->dev, p->buf, step,
				       (off_t)(r->off_byte + done), NULL);
			if (ret)
				return say(why, why_len, ret,
					   "reading bytes %" PRIu64 "-%" PRIu64
					   " of %s: %s", r->off_byte + done,
					   r->off_byte + done + step,
					   p->dev->path, strerror(-ret));
			for (k = 0; k < step; k += p->lbs, e += 2) {
				uint64_t x = r->off_byte + done + k;
				uint64_t b = (done + k) / p->lbs;
				uint64_t h = block_hash(x, p->buf + k, p->lbs);

				if (m[b] == BLK_CLEAN &&
				    h != saved_hash(p, r, b))
					m[b] = BLK_DIRTY;
				if (h == e[1] && e[0] != e[1] &&
				    !uniform(p->buf + k, p->lbs)) {
					p->run_held++;
					/* after a crash: rebuilt here */
					if (p->lazy)
						wix_add(p, p->buf + k, x);
				}
				if (h == e[0] || h == e[1])
					continue;
				if (alias_of(p, x, p->buf + k)) {
					p->aliased++;
					continue;
				}
				return say(why, why_len, -ESTALE,
						   "bytes %" PRIu64 "-%" PRIu64
						   " of %s no longer hold what the interrupted run wrote there (written since, by a new file system?): restoring would destroy that; --force restores anyway",
						   x, x + p->lbs, p->dev->path);
			}
		}
	}
	return 0;
}

/* ---- saving lazily: a range just before the run first writes it ---- */

/*
 * The saved contents of the block the run wrote at another place whose
 * write data holds (x maps to where the run wrote it: a wraparound), or
 * NULL.  What x held before the run is then what was saved there.
 */
static const unsigned char *wix_alias(const struct preserve *p, uint64_t x,
				      const unsigned char *data)
{
	uint64_t h = block_hash(0, data, p->lbs);
	size_t i;

	if (!p->wix_cap || uniform(data, p->lbs))
		return NULL;
	i = (size_t)(h ^ (h >> 29)) & (p->wix_cap - 1);
	for (; p->wix[2 * i + 1]; i = (i + 1) & (p->wix_cap - 1)) {
		uint64_t y = p->wix[2 * i + 1] - 1;
		size_t k;

		if (p->wix[2 * i] != h || y == x || !holds_block_of(p, y, data))
			continue;
		for (k = 0; k < p->n; k++) {
			const struct preserve_range *r = &p->r[k];

			if (r->saved && y >= r->off_byte &&
			    y - r->off_byte < r->len_byte)
				return r->data + (y - r->off_byte);
		}
	}
	return NULL;
}

/*
 * Does data, read at x, hold what the run wrote at another block (one it
 * still holds, as state_check() found: the index is rebuilt there after
 * a crash)?  Only a card that maps two addresses to one place shows
 * that.
 */
static int wix_foreign(const struct preserve *p, uint64_t x,
		       const unsigned char *data)
{
	uint64_t h;
	size_t i;

	if (!p->wix_cap || uniform(data, p->lbs))
		return 0;
	h = block_hash(0, data, p->lbs);
	i = (size_t)(h ^ (h >> 29)) & (p->wix_cap - 1);
	for (; p->wix[2 * i + 1]; i = (i + 1) & (p->wix_cap - 1)) {
		uint64_t y = p->wix[2 * i + 1] - 1;

		if (p->wix[2 * i] == h && y != x && holds_block_of(p, y, data))
			return 1;
	}
	return 0;
}

/* Read range r from dev (untimed) into its data; 0 or -errno. */
static int read_range(struct preserve *p, struct device *dev,
		      struct preserve_range *r)
{
	uint64_t done, step;
	int ret = 0;

	dev_untimed(dev, 1);
	for (done = 0; !ret && done < r->len_byte; done += step) {
		step = min_u64(p->chunk_byte, r->len_byte - done);
		ret = dev_read(dev, r->data + done, step,
			       (off_t)(r->off_byte + done), NULL);
		p->lazy_calls++;
		p->lazy_bytes += step;
	}
	dev_untimed(dev, 0);
	return ret;
}

/*
 * Save range r: read it through dev, put it into the journal and sync,
 * then note it saved in the state and sync again.  A crash between the
 * two leaves the range unsaved (its tags 0), which it still is: nothing
 * was written there.  Returns 0 or -errno.
 */
static int save_range(struct preserve *p, struct device *dev,
		      struct preserve_range *r)
{
	uint64_t k, nb = r->len_byte / p->lbs, first = r->first_block;
	int ret = read_range(p, dev, r);

	if (ret)
		return ret;
	for (k = 0; k < nb; k++) {
		unsigned char *d = r->data + k * p->lbs;
		const unsigned char *was = wix_alias(p, r->off_byte +
						     k * p->lbs, d);

		if (was)
			memcpy(d, was, p->lbs);
		p->saved_h[first + k] = saved_tag(r->off_byte + k * p->lbs, d,
						  p->lbs);
		p->state[2 * (first + k)] = block_hash(r->off_byte +
						       k * p->lbs, d, p->lbs);
		p->state[2 * (first + k) + 1] = p->state[2 * (first + k)];
	}
	if (pwrite(p->jfd, r->data, (size_t)r->len_byte,
		   (off_t)r->file_off) != (ssize_t)r->len_byte ||
	    fdatasync(p->jfd))
		return -EIO;
	ret = state_put(p, first, nb);
	if (!ret && fdatasync(p->jfd))
		ret = -EIO;
	if (!ret)
		r->saved = 1;
	return ret;
}

/*
 * Save every range that [off, off + len) touches and that is not saved
 * yet, before that write goes down.  Returns 0 or -errno: the write must
 * then not go down.
 */
static int save_touched(struct preserve *p, struct device *dev,
			uint64_t off, uint64_t len)
{
	size_t i;
	int ret;

	if (!p->lazy)
		return 0;
	if (p->jfd < 0)
		return -EIO;
	for (i = 0; i < p->n; i++) {
		struct preserve_range *r = &p->r[i];

		if (r->saved || off >= r->off_byte + r->len_byte ||
		    r->off_byte >= off + len)
			continue;
		ret = save_range(p, dev, r);
		if (ret)
			return ret;
	}
	return 0;
}

/* ---- the guard: a device that records writes into the ranges ---- */

/* A device in front of another that keeps p's state up to date. */
struct guard {
	struct device dev;		/* must be first */
	struct preserve *p;		/* attached by preserve_save() */
	uint64_t paused_ns;		/* noting time, off the clock */
};

static const struct dev_ops guard_ops;

/* Stop recording writes for p. */
static void guard_detach(struct preserve *p)
{
	if (!p->guard)
		return;
	p->guard->p = NULL;
	p->guard = NULL;
}

/* Pass inner's result on, with its error recorded on the guard. */
static int guard_result(struct guard *g, int ret)
{
	if (ret)
		g->dev.last_error = g->dev.inner->last_error;
	return ret;
}

static int guard_read(struct device *dev, void *buf, size_t len, off_t off)
{
	struct guard *g = (struct guard *)dev;
	struct device *in = g->dev.inner;

	in->io_count++;
	return guard_result(g, in->ops->read(in, buf, len, off));
}

/*
 * Record the write in the journal, then pass it on.  The recording
 * happens inside the caller's timed interval, so its duration is taken
 * off the guard's clock: the measurement sees the write alone.
 */
static int guard_write(struct device *dev, const void *buf, size_t len,
		       off_t off)
{
	struct guard *g = (struct guard *)dev;
	struct device *in = g->dev.inner;

	if (g->p) {
		uint64_t t0 = in->ops->now_ns(in);
		int ret = save_touched(g->p, in, (uint64_t)off, len);

		if (!ret)
			state_record(g->p, buf, len, (uint64_t)off);
		g->paused_ns += in->ops->now_ns(in) - t0;
		if (ret)
			return dev_fail(&g->dev, "save", off, len, -ret);
	}
	in->io_count++;
	return guard_result(g, in->ops->write(in, buf, len, off));
}

/* A discard leaves blocks that read as zeros on the cards that matter. */
static int guard_discard(struct device *dev, off_t off, uint64_t len)
{
	struct guard *g = (struct guard *)dev;
	struct device *in = g->dev.inner;
	unsigned char *zero;

	if (g->p && (zero = calloc(1, g->p->chunk_byte))) {
		uint64_t t0 = in->ops->now_ns(in);
		uint64_t done, step;
		int ret = save_touched(g->p, in, (uint64_t)off, len);

		if (ret) {
			free(zero);
			g->paused_ns += in->ops->now_ns(in) - t0;
			return dev_fail(&g->dev, "save", off, len, -ret);
		}
		for (done = 0; done < len; done += step) {
			step = min_u64(g->p->chunk_byte, len - done);
			state_record(g->p, zero, step, (uint64_t)off + done);
		}
		free(zero);
		g->paused_ns += in->ops->now_ns(in) - t0;
	}
	in->io_count++;
	return guard_result(g, in->ops->discard(in, off, len));
}

/* Do requests a and b touch a byte in common? */
static int req_overlap(const struct dev_req *a, const struct dev_req *b)
{
	return a->off < b->off + (off_t)b->len &&
	       b->off < a->off + (off_t)a->len;
}

/*
 * The requests at the head of req that may go down together: up to the
 * first that overlaps an earlier one where either writes.  Inside one
 * batch the device may complete them in any order, so each block holds
 * either what it held or the one write of the batch that covers it,
 * which is what the journal records.
 */
static unsigned int guard_run(const struct dev_req *req, unsigned int n)
{
	unsigned int i, k;

	for (i = 1; i < n; i++)
		for (k = 0; k < i; k++)
			if ((req[i].write || req[k].write) &&
			    req_overlap(&req[i], &req[k]))
				return i;
	return n;
}

/*
 * Record every write of a batch in the journal before any of them
 * reaches the device, then pass the batch on, in runs that overlap
 * nothing inside; the recording is off the clock, as for one write.
 */
static int guard_batch(struct device *dev, const struct dev_req *req,
		       unsigned int n)
{
	struct guard *g = (struct guard *)dev;
	struct device *in = g->dev.inner;
	unsigned int i, run;

	for (; n; req += run, n -= run) {
		int ret;

		run = guard_run(req, n);
		if (g->p) {
			uint64_t t0 = in->ops->now_ns(in);

			for (i = 0, ret = 0; !ret && i < run; i++)
				if (req[i].write)
					ret = save_touched(g->p, in,
							   (uint64_t)req[i].off,
							   req[i].len);
			for (i = 0; !ret && i < run; i++)
				if (req[i].write)
					state_record(g->p, req[i].buf,
						     req[i].len,
						     (uint64_t)req[i].off);
			g->paused_ns += in->ops->now_ns(in) - t0;
			if (ret)
				return dev_fail(&g->dev, "save", req->off,
						req->len, -ret);
		}
		in->io_count += run;
		ret = guard_result(g, dev_batch_ops(in, req, run));
		if (ret)
			return ret;
	}
	return 0;
}

static uint64_t guard_now_ns(struct device *dev)
{
	struct guard *g = (struct guard *)dev;

	return g->dev.inner->ops->now_ns(g->dev.inner) - g->paused_ns;
}

static void guard_destroy(struct device *dev)
{
	struct guard *g = (struct guard *)dev;

	if (g->p)
		guard_detach(g->p);
	dev_close(g->dev.inner);
	free(g);
}

static const struct dev_ops guard_ops = {
	.read = guard_read,
	.write = guard_write,
	.discard = guard_discard,
	.batch = guard_batch,
	.now_ns = guard_now_ns,
	.destroy = guard_destroy,
};

int preserve_wrap(struct device **out, struct device *inner)
{
	struct guard *g;

	*out = NULL;
	if (!inner)
		return -EINVAL;
	g = calloc(1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	g->dev.inner = inner;
	g->dev.ops = &guard_ops;
	g->dev.path = inner->path;
	g->dev.size_byte = inner->size_byte;
	g->dev.logical_block_size = inner->logical_block_size;
	*out = &g->dev;
	return 0;
}

/*
 * The guard dev is, or stacks on (a progress line), or NULL.  Let it
 * record p's writes from now on (guard_attach()).
 */
static struct guard *find_guard(struct device *dev)
{
	while (dev && dev->ops != &guard_ops)
		dev = dev->inner;
	return (struct guard *)dev;
}

int preserve_lazy_io(struct device *dev, uint64_t *calls, uint64_t *bytes,
		     uint64_t *paused_ns)
{
	const struct guard *g = find_guard(dev);

	*calls = g && g->p ? g->p->lazy_calls : 0;
	*bytes = g && g->p ? g->p->lazy_bytes : 0;
	*paused_ns = g ? g->paused_ns : 0;
	return g && g->p && g->p->lazy;
}

static void guard_attach(struct preserve *p, struct device *dev)
{
	struct guard *g = find_guard(dev);

	if (!g || g->p)
		return;
	g->p = p;
	p->guard = g;
}

/* ---- the journal ---- */

/* Build the header for p into hdr[J_HDR_BYTE]. */
static void journal_header(const struct preserve *p, unsigned char *hdr)
{
	struct phash h;

	memset(hdr, 0, J_HDR_BYTE);
	memcpy(hdr, J_MAGIC, J_MAGIC_BYTE);
	put_le32(hdr + 8, p->lazy ? J_LAZY_VERSION : 2);
	put_le32(hdr + 12, p->dev->logical_block_size);
	put_le64(hdr + 16, p->dev->size_byte);
	put_le64(hdr + 24, p->fingerprint);
	put_le64(hdr + 32, p->n);
	put_le64(hdr + 40, p->total_byte);
	put_le64(hdr + 48, (uint64_t)time(NULL));
	if (p->dev->path)
		strncpy((char *)hdr + 56, p->dev->path, J_PATH_BYTE - 1);
	ph_init(&h, 0);
	ph_update(&h, hdr, J_HDR_HASHED);
	put_le64(hdr + J_HDR_HASHED, ph_final(&h));
}

/* Where the state's entries start in a journal of p's ranges. */
static uint64_t state_offset(const struct preserve *p)
{
	return J_HDR_BYTE + p->n * J_REC_BYTE + p->total_byte +
	       J_TRAILER_BYTE + J_STATE_HEAD_BYTE;
}

/* Note where each range's data lies in the journal. */
static void file_offsets(struct preserve *p)
{
	uint64_t at = J_HDR_BYTE;
	size_t i;

	for (i = 0; i < p->n; i++) {
		p->r[i].file_off = at + J_REC_BYTE;
		at += J_REC_BYTE + p->r[i].len_byte;
	}
}

/* Write the state section to f; returns 0 or -errno. */
static int state_put_all(const struct preserve *p, FILE *f)
{
	unsigned char b[J_LAZY_ENTRY_BYTE];
	uint64_t k;

	memcpy(b, J_STATE_MAGIC, J_MAGIC_BYTE);
	put_le64(b + 8, p->nblocks);
	if (fwrite(b, J_STATE_HEAD_BYTE, 1, f) != 1)
		return -errno;
	for (k = 0; k < p->nblocks; k++) {
		put_entry(p, k, b);
		if (fwrite(b, entry_byte(p), 1, f) != 1)
			return -errno;
	}
	return 0;
}

/* Write header, records, trailer and state to f; 0 or -errno. */
static int journal_put(const struct preserve *p, FILE *f)
{
	unsigned char hdr[J_HDR_BYTE], rec[J_REC_BYTE];
	struct phash chain;
	size_t i;

	journal_header(p, hdr);
	ph_init(&chain, 0);
	ph_update(&chain, hdr + J_HDR_HASHED, 8);
	if (fwrite(hdr, sizeof(hdr), 1, f) != 1)
		return -errno;
	for (i = 0; i < p->n; i++) {
		put_le64(rec, p->r[i].off_byte);
		put_le64(rec + 8, p->r[i].len_byte);
		put_le64(rec + 16, p->r[i].hash);
		ph_u64(&chain, p->r[i].hash);
		if (fwrite(rec, sizeof(rec), 1, f) != 1)
			return -errno;
		/* unsaved: a hole, filled when saved (save_range()) */
		if (!p->r[i].saved &&
		    fseeko(f, (off_t)p->r[i].len_byte, SEEK_CUR))
			return -errno;
		if (p->r[i].saved &&
		    fwrite(p->r[i].data, p->r[i].len_byte, 1, f) != 1)
			return -errno;
	}
	memcpy(rec, J_END_MAGIC, J_MAGIC_BYTE);
	put_le64(rec + 8, p->n);
	put_le64(rec + 16, ph_final(&chain));
	if (fwrite(rec, sizeof(rec), 1, f) != 1)
		return -errno;
	return state_put_all(p, f);
}

/*
 * Give the finished journal tmp its name without ever replacing a
 * journal that appeared meanwhile: link() refuses an existing name
 * atomically; where the file system has no hard links (vfat), check
 * and rename.  Returns 0 or -errno (-EEXIST).
 */
static int journal_place(const char *tmp, const char *journal)
{
	if (!link(tmp, journal)) {
		unlink(tmp);
		return 0;
	}
	if (errno == EEXIST || !access(journal, F_OK))
		return -EEXIST;
	return rename(tmp, journal) ? -errno : 0;
}

/* "JOURNAL.tmp", malloc'd; NULL when out of memory. */
static char *tmp_name(const char *journal)
{
	char *tmp;

	return asprintf(&tmp, "%s.tmp", journal) < 0 ? NULL : tmp;
}

/*
 * Write p's journal durably: to "JOURNAL.tmp", fsync, give it its name
 * without replacing anything, fsync the directory.  Returns 0 or -errno.
 */
static int journal_write(struct preserve *p, char *why, size_t why_len)
{
	char *tmp;
	FILE *f;
	int fd, ret;

	tmp = tmp_name(p->journal);
	if (!tmp)
		return -ENOMEM;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		ret = say(why, why_len, -errno, "cannot create %s: %s", tmp,
			  strerror(errno));
		goto out_free_tmp;
	}
	f = fdopen(fd, "w");
	if (!f) {
		ret = -errno;
		close(fd);
		goto out_unlink;
	}
	ret = journal_put(p, f);
	if (!ret && (fflush(f) || fsync(fileno(f))))
		ret = -errno;
	/* kept open: the state is updated as the test writes */
	p->jfd = ret ? -1 : fcntl(fileno(f), F_DUPFD_CLOEXEC, 0);
	p->state_off = state_offset(p);
	if (fclose(f) && !ret)
		ret = -errno;
	if (ret) {
		say(why, why_len, ret, "writing journal %s: %s", tmp,
		    strerror(-ret));
		goto out_unlink;
	}
	ret = journal_place(tmp, p->journal);
	if (ret) {
		say(why, why_len, ret, "cannot rename %s to %s: %s", tmp,
		    p->journal, strerror(-ret));
		goto out_unlink;
	}
	ret = sync_dir_of(p->journal);
	if (ret) {
		say(why, why_len, ret, "syncing the directory of %s: %s",
		    p->journal, strerror(-ret));
		unlink(p->journal);
	}
	goto out_free_tmp;

out_unlink:
	unlink(tmp);
out_free_tmp:
	free(tmp);
	return ret;
}

/* ---- save ---- */

/* Read every range of p from its device; returns 0 or -errno. */
static int read_ranges(struct preserve *p, char *why, size_t why_len)
{
	uint64_t done, step;
	size_t i;
	int ret;

	for (i = 0; i < p->n; i++) {
		struct preserve_range *r = &p->r[i];

		for (done = 0; done < r->len_byte; done += step) {
			step = min_u64(p->chunk_byte, r->len_byte - done);
			ret = dev_read(p->dev, r->data + done, step,
				       (off_t)(r->off_byte + done), NULL);
			if (ret)
				return say(why, why_len, ret,
					   "saving bytes %" PRIu64 "-%" PRIu64
					   " of %s: %s", r->off_byte + done,
					   r->off_byte + done + step,
					   p->dev->path, strerror(-ret));
		}
		r->hash = range_hash(r);
		r->saved = 1;
	}
	return 0;
}

/* Save nothing yet, with the hash of each range's place. */
static int plan_ranges(struct preserve *p)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		p->r[i].hash = plan_hash(&p->r[i]);
	return 0;
}

/* What kind of file path (which exists) is, for a message. */
static const char *file_kind(const struct stat *st)
{
	if (S_ISBLK(st->st_mode))
		return "a block device";
	if (S_ISCHR(st->st_mode))
		return "a character device";
	if (S_ISDIR(st->st_mode))
		return "a directory";
	return "not a regular file";
}

/* Does the regular file at path begin like a journal? */
static int looks_like_journal(const char *path)
{
	char magic[J_MAGIC_BYTE];
	FILE *f = fopen(path, "rbe");
	int yes;

	if (!f)
		return 0;
	yes = fread(magic, 1, sizeof(magic), f) == sizeof(magic) &&
	      !memcmp(magic, J_MAGIC, J_MAGIC_BYTE);
	fclose(f);
	return yes;
}

/*
 * An existing path is never replaced, but only a journal is worth
 * restoring: say which it is.
 */
int preserve_check_journal(const char *path, char *why, size_t why_len)
{
	struct stat st;
	int dangling;

	if (lstat(path, &st)) {
		if (errno == ENOENT)
			return 0;
		return say(why, why_len, -errno, "cannot use journal %s: %s",
			   path, strerror(errno));
	}
	dangling = stat(path, &st) != 0;
	if (dangling || !S_ISREG(st.st_mode))
		return say(why, why_len, -EEXIST,
			   "journal %s is %s: a journal is a new regular file (on another disk than the card)",
			   path, dangling ? "a link to nothing" :
			   file_kind(&st));
	if (!looks_like_journal(path))
		return say(why, why_len, -EEXIST,
			   "journal %s exists and is not a flashbench journal: give --journal a new file (this one is left alone)",
			   path);
	return say(why, why_len, -EEXIST,
		   "journal %s already exists and holds the data of an earlier run: put it back with --restore=%s first (or give another --journal)",
		   path, path);
}

/* How many pieces of at most piece bytes range r is cut into (1 if empty). */
static size_t pieces(const struct bench_range *r, uint64_t piece)
{
	uint64_t len = r->end_byte > r->start_byte ?
		       r->end_byte - r->start_byte : 0;

	return len > piece ? (size_t)((len - 1) / piece + 1) : 1;
}

static int save_in(struct preserve **pp, struct device *dev,
		   const struct bench_range *ranges, size_t n,
		   const char *journal_path, int sparse, char *why,
		   size_t why_len)
{
	struct preserve *p;
	uint64_t piece;
	size_t i, m;
	int ret, lazy;

	*pp = NULL;
	if (why && why_len)
		why[0] = '\0';
	if (!dev || !ranges || !n || !journal_path || !*journal_path)
		return say(why, why_len, -EINVAL, "nothing to preserve");
	ret = preserve_check_journal(journal_path, why, why_len);
	if (ret)
		return ret;
	/*
	 * For a sparse test behind a guard, each range is saved when first
	 * written, in pieces of a chunk: a run that writes one block of a
	 * long range (the estimate's timing in -C's flush region) reads
	 * that piece alone.  Any other test's ranges are all read now.
	 */
	lazy = sparse && find_guard(dev) && !find_guard(dev)->p;
	piece = lazy ? max_u64(PRESERVE_CHUNK, dev->logical_block_size) :
		       UINT64_MAX;
	for (m = 0, i = 0; i < n; i++)
		m += pieces(&ranges[i], piece);
	p = preserve_alloc(m, dev->logical_block_size);
	if (!p)
		return -ENOMEM;
	p->dev = dev;
	for (m = 0, i = 0; i < n; i++) {
		uint64_t off = ranges[i].start_byte, end = ranges[i].end_byte;

		do {
			p->r[m].off_byte = off;
			p->r[m].cont = off > ranges[i].start_byte;
			if (end > off)
				p->r[m].len_byte = min_u64(piece, end - off);
			off += p->r[m++].len_byte;
		} while (off < end);
	}
	p->n = m;
	ret = check_ranges(dev, p->r, m, why, why_len);
	if (ret)
		goto out_free;
	ret = -ENOMEM;
	p->journal = strdup(journal_path);
	if (!p->journal)
		goto out_free;
	for (i = 0; i < m; i++) {
		struct preserve_range all;

		if (p->r[i].cont) {
			p->r[i].data = p->r[i - 1].data + p->r[i - 1].len_byte;
			continue;
		}
		all = piece_group(p, i);
		if (all.len_byte > SIZE_MAX)
			goto out_free;
		p->r[i].data = dev_alloc_buf((size_t)all.len_byte);
		if (!p->r[i].data) {
			say(why, why_len, ret,
			    "no memory to save %" PRIu64 " bytes",
			    all.len_byte);
			goto out_free;
		}
		p->total_byte += all.len_byte;
	}
	p->lazy = lazy;
	file_offsets(p);
	dev_untimed(dev, 1);
	ret = p->lazy ? plan_ranges(p) : read_ranges(p, why, why_len);
	if (!ret)
		ret = fingerprint(p, &p->fingerprint, why, why_len);
	if (!ret)
		ret = state_alloc(p);
	if (!ret && !p->lazy)
		state_init(p);
	dev_untimed(dev, 0);
	if (!ret)
		ret = journal_write(p, why, why_len);
	if (ret)
		goto out_free;
	guard_attach(p, dev);
	*pp = p;
	return 0;

out_free:
	preserve_free(p);
	return ret;
}

int preserve_save(struct preserve **pp, struct device *dev,
		  const struct bench_range *ranges, size_t n,
		  const char *journal_path, char *why, size_t why_len)
{
	return save_in(pp, dev, ranges, n, journal_path, 0, why, why_len);
}

int preserve_save_sparse(struct preserve **pp, struct device *dev,
			 const struct bench_range *ranges, size_t n,
			 const char *journal_path, char *why, size_t why_len)
{
	return save_in(pp, dev, ranges, n, journal_path, 1, why, why_len);
}

/* ---- restore ---- */

/*
 * The highest run of blocks marked m in r below its block top (blocks
 * counted from r's first): [*lo, *hi).  Returns 0 when there is none.
 */
static int run_below(const struct preserve *p, const struct preserve_range *r,
		     uint64_t top, unsigned char m, uint64_t *lo, uint64_t *hi)
{
	const unsigned char *mk = p->mark + r->first_block;

	while (top && mk[top - 1] != m)
		top--;
	if (!top)
		return 0;
	*hi = top;
	while (top && mk[top - 1] == m)
		top--;
	*lo = top;
	return 1;
}

/*
 * Note in the journal, durably, that every block marked BLK_DIRTY is
 * about to get its saved contents back: a restore cut short leaves the
 * run's data or the saved data, and --restore must accept either.
 */
static void record_dirty(struct preserve *p)
{
	uint64_t lo, hi, top;
	int any = 0;
	size_t i, e;

	for (i = 0; i < p->n; i = e) {
		const struct preserve_range g = piece_group_end(p, i, &e);
		const struct preserve_range *r = &g;

		for (top = r->len_byte / p->lbs;
		     run_below(p, r, top, BLK_DIRTY, &lo, &hi); top = lo) {
			state_record(p, r->data + lo * p->lbs,
				     (hi - lo) * p->lbs,
				     r->off_byte + lo * p->lbs);
			any = 1;
		}
	}
	if (any && p->jfd >= 0)
		fdatasync(p->jfd);
}

/*
 * Write blocks [lo, hi) of r back and mark them BLK_BACK; returns 0 or
 * -errno.  A chunk that already reads what was saved (a fake lost the
 * run's write there) is left alone: a write costs a card far more than
 * a read, and verify_ranges() reads it all again anyway.
 */
static int write_run(struct preserve *p, const struct preserve_range *r,
		     uint64_t lo, uint64_t hi, char *why, size_t why_len)
{
	uint64_t off, step, end = hi * p->lbs;

	for (off = lo * p->lbs; off < end; off += step) {
		int ret;

		step = min_u64(p->chunk_byte, end - off);
		if (!dev_read(p->dev, p->buf, step, (off_t)(r->off_byte + off),
			      NULL) &&
		    !memcmp(p->buf, r->data + off, step)) {
			continue;
		}
		ret = dev_write(p->dev, r->data + off, step,
				(off_t)(r->off_byte + off), NULL);
		if (ret)
			return say(why, why_len, ret,
				   "restoring bytes %" PRIu64 "-%" PRIu64
				   " of %s: %s", r->off_byte + off,
				   r->off_byte + off + step, p->dev->path,
				   strerror(-ret));
	}
	memset(p->mark + r->first_block + lo, BLK_BACK, (size_t)(hi - lo));
	return 0;
}

/*
 * Write back the blocks marked BLK_DIRTY, run by run (dirty blocks in a
 * row in one range), the highest first (see preserve_restore()); the
 * rest of the ranges was never written and still holds what was saved.
 * Returns 0 or the first -errno, after going on with the other runs:
 * restore all we can.
 */
static int write_dirty(struct preserve *p, char *why, size_t why_len)
{
	uint64_t lo, hi, top;
	int ret, first = 0;
	size_t i, g;

	/* a piece never saved was never written: nothing goes back there */
	for (i = 0; i < p->n; i++)
		if (!p->r[i].saved)
			memset(p->mark + p->r[i].first_block, BLK_CLEAN,
			       (size_t)(p->r[i].len_byte / p->lbs));
	record_dirty(p);
	for (i = p->n; i > 0; i = g) {
		struct preserve_range grp;
		const struct preserve_range *r = &grp;

		for (g = i - 1; g && p->r[g].cont; g--)
			;
		grp = piece_group(p, g);
		for (top = r->len_byte / p->lbs;
		     run_below(p, r, top, BLK_DIRTY, &lo, &hi); top = lo) {
			ret = write_run(p, r, lo, hi, first ? NULL : why,
					why_len);
			if (ret && !first)
				first = ret;
		}
	}
	return first;
}

/* ---- what did not come back ---- */

static int ix_cmp(const void *a, const void *b)
{
	const struct block_ix *x = a, *y = b;

	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	return x->off_byte < y->off_byte ? -1 : x->off_byte > y->off_byte;
}

/* Index every saved block by its contents; 0 or -ENOMEM. */
static int ix_build(struct preserve *p)
{
	uint64_t k, nb = p->total_byte / p->lbs;
	size_t i, n = 0;

	if (p->ix)
		return 0;
	if (nb > SIZE_MAX / sizeof(*p->ix))
		return -ENOMEM;
	p->ix = calloc(nb ? (size_t)nb : 1, sizeof(*p->ix));
	if (!p->ix)
		return -ENOMEM;
	for (i = 0; i < p->n; i++) {
		const struct preserve_range *r = &p->r[i];

		if (!r->saved)
			continue;
		for (k = 0; k + p->lbs <= r->len_byte && n < nb; k += p->lbs) {
			p->ix[n].hash = block_hash(0, r->data + k, p->lbs);
			p->ix[n].off_byte = r->off_byte + k;
			p->ix[n++].data = r->data + k;
		}
	}
	p->nix = n;
	qsort(p->ix, n, sizeof(*p->ix), ix_cmp);
	return 0;
}

/* Another saved block than x whose saved contents are data; or -1. */
static int64_t ix_find(const struct preserve *p, uint64_t x,
		       const unsigned char *data)
{
	uint64_t h = block_hash(0, data, p->lbs);
	size_t lo = 0, hi = p->nix;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->ix[mid].hash < h)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < p->nix && p->ix[lo].hash == h; lo++)
		if (p->ix[lo].off_byte != x &&
		    !memcmp(p->ix[lo].data, data, p->lbs))
			return (int64_t)p->ix[lo].off_byte;
	return -1;
}

/* Add one lost block to p->loss, merged with the last when it goes on. */
static int loss_add(struct preserve *p, const struct preserve_loss *l)
{
	struct preserve_loss *last = p->nloss ? &p->loss[p->nloss - 1] : NULL;

	if (last && last->kind == l->kind &&
	    last->off_byte + last->len_byte == l->off_byte &&
	    (l->kind != PRESERVE_ALIASED ||
	     last->alias_byte + last->len_byte == l->alias_byte)) {
		last->len_byte += l->len_byte;
		return 0;
	}
	if (p->nloss == p->loss_cap) {
		size_t cap = p->loss_cap ? 2 * p->loss_cap : 16;
		struct preserve_loss *n = realloc(p->loss, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		p->loss = n;
		p->loss_cap = cap;
	}
	p->loss[p->nloss++] = *l;
	return 0;
}

/*
 * The block at x read back as data, not as saved: what does it hold?
 * What was restored at another block (the card maps both to one place),
 * zeros, or anything else (the write vanished).
 */
static int loss_note(struct preserve *p, uint64_t x, const unsigned char *data)
{
	struct preserve_loss l = { x, p->lbs, PRESERVE_VANISHED, 0 };
	int64_t y;
	int ret;

	if (uniform(data, p->lbs) && !data[0]) {
		l.kind = PRESERVE_VANISHED_ZEROS;
		return loss_add(p, &l);
	}
	ret = ix_build(p);
	if (ret)
		return ret;
	y = uniform(data, p->lbs) ? -1 : ix_find(p, x, data);
	if (y >= 0) {
		l.kind = PRESERVE_ALIASED;
		l.alias_byte = (uint64_t)y;
	}
	return loss_add(p, &l);
}

/*
 * Compare step bytes read back at r's done with what was saved.  Unless
 * last, a block that was not written back (BLK_CLEAN) and differs is a
 * stray, counted, not yet a loss: every block is then written back.
 */
static int verify_chunk(struct preserve *p, const struct preserve_range *r,
			uint64_t done, uint64_t step, int last)
{
	unsigned char *m = p->mark + r->first_block + done / p->lbs;
	uint64_t k;
	int ret;

	if (!memcmp(p->buf, r->data + done, step))
		return 0;
	for (k = 0; k < step; k += p->lbs, m++) {
		if (!memcmp(p->buf + k, r->data + done + k, p->lbs))
			continue;
		if (!last && *m == BLK_CLEAN) {
			p->nstray++;
			continue;
		}
		ret = loss_note(p, r->off_byte + done + k, p->buf + k);
		if (ret)
			return ret;
	}
	return 0;
}

/* Bytes in p's losses. */
static uint64_t loss_bytes(const struct preserve *p)
{
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < p->nloss; i++)
		sum += p->loss[i].len_byte;
	return sum;
}

size_t preserve_losses(const struct preserve *p,
		       const struct preserve_loss **loss)
{
	*loss = p ? p->loss : NULL;
	return p ? p->nloss : 0;
}

/*
 * Read every range back, written back or not, and compare, noting every
 * block that differs (p->loss); returns 0, -EIO (some differ) or -errno.
 * Unless last, -EAGAIN when blocks that were not written back differ.
 */
static int verify_ranges(struct preserve *p, int last, char *why,
			 size_t why_len)
{
	uint64_t done, step;
	size_t i;
	int ret;

	p->nloss = 0;
	p->nstray = 0;
	for (i = 0; i < p->n; i++) {
		struct preserve_range *r = &p->r[i];

		for (done = r->saved ? 0 : r->len_byte; done < r->len_byte;
		     done += step) {
			step = min_u64(p->chunk_byte, r->len_byte - done);
			ret = dev_read(p->dev, p->buf, step,
				       (off_t)(r->off_byte + done), NULL);
			if (ret)
				return say(why, why_len, ret,
					   "reading back bytes %" PRIu64
					   "-%" PRIu64 " of %s: %s",
					   r->off_byte + done,
					   r->off_byte + done + step,
					   p->dev->path, strerror(-ret));
			ret = verify_chunk(p, r, done, step, last);
			if (ret)
				return ret;
		}
	}
	if (p->nstray)
		return -EAGAIN;
	if (!p->nloss)
		return 0;
	return say(why, why_len, -EIO,
		   "%zu range%s of %s (%" PRIu64 " bytes, from byte %" PRIu64
		   ") read back differ from what was restored: the card does not keep what is written there",
		   p->nloss, p->nloss > 1 ? "s" : "", p->dev->path,
		   loss_bytes(p), p->loss[0].off_byte);
}

/* Write back the blocks marked BLK_DIRTY and flush; 0 or -errno. */
static int write_back(struct preserve *p, char *why, size_t why_len)
{
	int ret = write_dirty(p, why, why_len);

	if (ret)
		return ret;
	ret = dev_flush(p->dev);
	if (ret)
		say(why, why_len, ret, "flushing %s: %s", p->dev->path,
		    strerror(-ret));
	return ret;
}

/*
 * Write back what the run wrote, flush, verify every range, remove the
 * journal; signals held off.  When a block the run did not write no
 * longer holds what was saved (a fake card: two addresses at one place,
 * or what was saved only its write cache held), every block of the
 * ranges is written back, from the highest down, and verified: the low
 * ones, written last, push the high ones out of such a cache, so that
 * what the flash lost shows as lost.
 */
static int restore_all(struct preserve *p, char *why, size_t why_len)
{
	sigset_t block, old;
	int ret;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &old);
	guard_detach(p);	/* write_dirty() records the restore */
	dev_untimed(p->dev, 1);
	ret = mark_written(p);
	if (!ret) {
		join_runs(p);
		ret = write_back(p, why, why_len);
	}
	if (!ret)
		ret = verify_ranges(p, 0, why, why_len);
	if (ret == -EAGAIN) {
		memset(p->mark, BLK_DIRTY, (size_t)p->nblocks);
		ret = write_back(p, why, why_len);
		if (!ret)
			ret = verify_ranges(p, 1, why, why_len);
	}
	dev_untimed(p->dev, 0);
	if (!ret && unlink(p->journal) && errno != ENOENT)
		ret = say(why, why_len, -errno,
			  "restored and verified, but cannot remove journal %s: %s",
			  p->journal, strerror(errno));
	if (!ret)
		sync_dir_of(p->journal);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ret;
}

int preserve_restore(struct preserve *p, char *why, size_t why_len)
{
	if (why && why_len)
		why[0] = '\0';
	if (!p)
		return -EINVAL;
	return restore_all(p, why, why_len);
}

/* ---- restore from a journal ---- */

/* Read exactly len bytes from f; returns 0 or -EINVAL when short. */
static int get_bytes(FILE *f, void *buf, size_t len)
{
	return fread(buf, 1, len, f) == len ? 0 : -EINVAL;
}

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

/* Read and check the header into *ji.  Returns 0 or -EINVAL. */
static int journal_get_header(FILE *f, uint64_t file_byte,
			      const char *journal, struct journal_info *ji,
			      char *why, size_t why_len)
{
	unsigned char hdr[J_HDR_BYTE];
	struct phash h;

	if (get_bytes(f, hdr, sizeof(hdr)))
		return say(why, why_len, -EINVAL,
			   "%s is too short for a flashbench journal",
			   journal);
	if (memcmp(hdr, J_MAGIC, J_MAGIC_BYTE))
		return say(why, why_len, -EINVAL,
			   "%s is not a flashbench journal", journal);
	ji->version = get_le32(hdr + 8);
	if (ji->version < 1 || ji->version > PRESERVE_VERSION)
		return say(why, why_len, -EINVAL,
			   "%s is a version %" PRIu32
			   " journal; this flashbench reads versions 1 to %d",
			   journal, ji->version, PRESERVE_VERSION);
	ph_init(&h, 0);
	ph_update(&h, hdr, J_HDR_HASHED);
	ji->hdr_hash = get_le64(hdr + J_HDR_HASHED);
	if (ph_final(&h) != ji->hdr_hash)
		return say(why, why_len, -EINVAL,
			   "the header of journal %s is corrupt", journal);
	ji->lbs = get_le32(hdr + 12);
	ji->size_byte = get_le64(hdr + 16);
	ji->fingerprint = get_le64(hdr + 24);
	ji->nr = get_le64(hdr + 32);
	ji->total_byte = get_le64(hdr + 40);
	if (ji->lbs < 512 || ji->lbs > (1U << 26) ||
	    (ji->lbs & (ji->lbs - 1)))
		return say(why, why_len, -EINVAL,
			   "journal %s is damaged: block size %" PRIu32,
			   journal, ji->lbs);
	/* the size must be exactly header + records + data + trailer,
	 * and from version 2 on the state: 16 bytes for every block */
	if (!ji->nr || ji->nr > file_byte / J_REC_BYTE ||
	    ji->total_byte > file_byte ||
	    (ji->version > 1 && ji->total_byte % ji->lbs) ||
	    J_HDR_BYTE + ji->nr * J_REC_BYTE + ji->total_byte +
			    J_TRAILER_BYTE +
			    (ji->version > 1 ? J_STATE_HEAD_BYTE +
			     ji->total_byte / ji->lbs *
			     (ji->version == J_LAZY_VERSION ?
			      J_LAZY_ENTRY_BYTE : J_ENTRY_BYTE) : 0) !=
		    file_byte)
		return say(why, why_len, -EINVAL,
			   "journal %s is truncated or damaged (%" PRIu64
			   " bytes where the header promises %" PRIu64
			   " ranges of %" PRIu64 " bytes)",
			   journal, file_byte, ji->nr, ji->total_byte);
	return 0;
}

/* Read and check records and trailer into p; returns 0 or -errno. */
static int journal_get_records(FILE *f, struct preserve *p, uint64_t nr,
			       uint64_t hdr_hash, char *why, size_t why_len)
{
	unsigned char rec[J_REC_BYTE];
	uint64_t left = p->total_byte;
	struct phash chain;
	size_t i;

	ph_init(&chain, 0);
	ph_u64(&chain, hdr_hash);
	for (i = 0; i < nr; i++) {
		struct preserve_range *r = &p->r[i];

		if (get_bytes(f, rec, sizeof(rec)))
			goto out_damaged;
		r->off_byte = get_le64(rec);
		r->len_byte = get_le64(rec + 8);
		if (!r->len_byte || r->len_byte > left ||
		    r->len_byte > SIZE_MAX)
			goto out_damaged;
		left -= r->len_byte;
		r->data = dev_alloc_buf((size_t)r->len_byte);
		if (!r->data)
			return -ENOMEM;
		p->n = i + 1;
		r->saved = !p->lazy;	/* version 3: saved_ranges() */
		if (get_bytes(f, r->data, (size_t)r->len_byte))
			goto out_damaged;
		r->hash = get_le64(rec + 16);
		/* version 3: each saved block's tag checks it (state) */
		if ((p->lazy ? plan_hash(r) : range_hash(r)) != r->hash)
			return say(why, why_len, -EINVAL,
				   "journal %s is corrupt: the data of bytes %"
				   PRIu64 "-%" PRIu64 " fail their checksum",
				   p->journal, r->off_byte,
				   r->off_byte + r->len_byte);
		ph_u64(&chain, r->hash);
	}
	if (get_bytes(f, rec, sizeof(rec)) ||
	    memcmp(rec, J_END_MAGIC, J_MAGIC_BYTE) ||
	    get_le64(rec + 8) != nr || get_le64(rec + 16) != ph_final(&chain))
		goto out_damaged;
	return 0;

out_damaged:
	return say(why, why_len, -EINVAL,
		   "journal %s is truncated or damaged", p->journal);
}

/*
 * Which ranges of a version 3 journal were saved: those whose every
 * block has a tag, and the tag must match the data.  A range with a tag
 * missing was cut short while being saved, before the run wrote there.
 * Returns 0 or -EINVAL (data that fails its tag).
 */
static int saved_ranges(struct preserve *p, char *why, size_t why_len)
{
	uint64_t k, nb;
	size_t i;

	for (i = 0; i < p->n; i++) {
		struct preserve_range *r = &p->r[i];
		const uint64_t *t = p->saved_h + r->first_block;

		nb = r->len_byte / p->lbs;
		for (k = 0; k < nb && t[k]; k++)
			;
		r->saved = k == nb;
		for (k = 0; r->saved && k < nb; k++)
			if (saved_tag(r->off_byte + k * p->lbs,
				      r->data + k * p->lbs, p->lbs) != t[k])
				return say(why, why_len, -EINVAL,
					   "journal %s is corrupt: the data of bytes %"
					   PRIu64 "-%" PRIu64
					   " fail their checksum",
					   p->journal, r->off_byte,
					   r->off_byte + r->len_byte);
	}
	return 0;
}

/* Read the state section after the trailer; returns 0 or -errno. */
static int journal_get_state(FILE *f, struct preserve *p, char *why,
			     size_t why_len)
{
	/* the head, then each entry: 16 bytes, 24 saved lazily */
	unsigned char b[J_STATE_HEAD_BYTE > J_LAZY_ENTRY_BYTE ?
			J_STATE_HEAD_BYTE : J_LAZY_ENTRY_BYTE];
	uint64_t k;
	int ret = state_alloc(p);

	if (ret)
		return ret;
	if (get_bytes(f, b, J_STATE_HEAD_BYTE) ||
	    memcmp(b, J_STATE_MAGIC, J_MAGIC_BYTE) ||
	    get_le64(b + 8) != p->nblocks)
		return say(why, why_len, -EINVAL,
			   "journal %s is truncated or damaged", p->journal);
	for (k = 0; k < p->nblocks; k++) {
		const unsigned char *e = b + (p->lazy ? 8 : 0);

		if (get_bytes(f, b, entry_byte(p)))
			return say(why, why_len, -EINVAL,
				   "journal %s is truncated or damaged",
				   p->journal);
		if (p->lazy)
			p->saved_h[k] = get_le64(b);
		p->state[2 * k] = get_le64(e);
		p->state[2 * k + 1] = get_le64(e + 8);
	}
	p->state_off = state_offset(p);
	return p->lazy ? saved_ranges(p, why, why_len) : 0;
}

/* Load and check a whole journal; returns 0 or -errno. */
static int journal_load(const char *journal, struct preserve **pp,
			struct journal_info *ji, char *why, size_t why_len)
{
	struct preserve *p = NULL;
	struct stat st;
	FILE *f;
	int ret;

	*pp = NULL;
	f = fopen(journal, "rbe");
	if (!f)
		return say(why, why_len, -errno, "cannot open journal %s: %s",
			   journal, strerror(errno));
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
		ret = say(why, why_len, -EINVAL, "%s is not a regular file",
			  journal);
		goto out_close;
	}
	ret = journal_get_header(f, (uint64_t)st.st_size, journal, ji, why,
				 why_len);
	if (ret)
		goto out_close;
	ret = -ENOMEM;
	p = preserve_alloc((size_t)ji->nr, ji->lbs);
	if (!p)
		goto out_close;
	p->journal = strdup(journal);
	if (!p->journal)
		goto out_free;
	p->fingerprint = ji->fingerprint;
	p->total_byte = ji->total_byte;
	p->lazy = ji->version == J_LAZY_VERSION;
	ret = journal_get_records(f, p, ji->nr, ji->hdr_hash, why, why_len);
	if (!ret && ji->version > 1)
		ret = journal_get_state(f, p, why, why_len);
	else if (!ret)
		ret = number_blocks(p);	/* version 1: all is restored */
	if (ret)
		goto out_free;
	*pp = p;
	goto out_close;

out_free:
	preserve_free(p);
out_close:
	fclose(f);
	return ret;
}

int preserve_journal_unfinished(const char *journal)
{
	char *tmp = tmp_name(journal);
	struct stat st;
	int ret;

	if (!tmp)
		return 0;
	ret = stat(journal, &st) && errno == ENOENT && !stat(tmp, &st) &&
	      S_ISREG(st.st_mode);
	free(tmp);
	return ret;
}

int preserve_drop_unfinished(const char *journal)
{
	char *tmp = tmp_name(journal);
	int ret = 0;

	if (!tmp)
		return -ENOMEM;
	if (unlink(tmp))
		ret = -errno;
	free(tmp);
	return ret;
}

/*
 * Before --restore writes: does dev still hold what the interrupted run
 * wrote (unless force)?  Then open the journal to record the restore.
 * Returns 0 or -ESTALE.
 */
static int check_contents(struct preserve *p, int force, char *why,
			  size_t why_len)
{
	int ret = 0;

	/* the state may have lost its latest notes: restore every block */
	p->every = force;
	if (!p->state && !force)
		return say(why, why_len, -ESTALE,
			   "journal %s was written by an older flashbench (version 1), which did not note what the run wrote: whether %s was written since cannot be checked; --force restores anyway",
			   p->journal, p->dev->path);
	if (!p->state)
		return 0;
	if (!force) {
		dev_untimed(p->dev, 1);
		ret = state_check(p, why, why_len);
		dev_untimed(p->dev, 0);
	}
	if (!ret)
		p->jfd = open(p->journal, O_WRONLY | O_CLOEXEC);
	return ret;
}

/*
 * The fingerprint differs: is it a card that aliases, with the run's
 * writes still in the ranges?  Its writes then show at other addresses
 * too, some in the fingerprint's windows; another device cannot hold
 * what this run wrote.  Needs the state and no force.
 */
static int aliased_run(struct preserve *p, int force)
{
	char why[16];
	uint64_t fp;
	int ret;

	if (force || !p->state)
		return 0;
	dev_untimed(p->dev, 1);
	ret = state_check(p, why, sizeof(why));
	/*
	 * Saved lazily, the ranges the run never wrote were never read,
	 * and a wraparound may show the run's writes only outside those
	 * it wrote: in the fingerprint's windows, found by content.
	 */
	if (!ret && p->lazy && !p->aliased && p->run_held) {
		p->fp_count = 1;
		p->fp_aliased = 0;
		ret = fingerprint(p, &fp, why, sizeof(why));
		p->fp_count = 0;
	}
	dev_untimed(p->dev, 0);
	return !ret && (p->aliased || p->fp_aliased) && p->run_held;
}

int preserve_load_journal(struct preserve **pp, const char *journal,
			  struct device *dev, int force, char *why,
			  size_t why_len)
{
	struct journal_info ji = { 0 };
	struct preserve *p;
	uint64_t fp = 0;
	int ret;

	*pp = NULL;
	if (why && why_len)
		why[0] = '\0';
	if (!journal || !dev)
		return -EINVAL;
	ret = journal_load(journal, &p, &ji, why, why_len);
	if (ret)
		return ret;
	if (ji.size_byte != dev->size_byte ||
	    ji.lbs != dev->logical_block_size) {
		ret = say(why, why_len, -ESTALE,
			  "journal %s belongs to another device: it was made on %"
			  PRIu64 " bytes of %" PRIu32 "-byte blocks, %s has %"
			  PRIu64 " bytes of %u-byte blocks",
			  journal, ji.size_byte, ji.lbs, dev->path,
			  dev->size_byte,
			  dev->logical_block_size);
		goto out_free;
	}
	p->dev = dev;
	ret = check_ranges(dev, p->r, p->n, why, why_len);
	if (ret)
		goto out_free;
	dev_untimed(dev, 1);
	ret = fingerprint(p, &fp, why, why_len);
	dev_untimed(dev, 0);
	if (ret)
		goto out_free;
	if (fp != p->fingerprint && !aliased_run(p, force)) {
		ret = say(why, why_len, -ESTALE,
			  "journal %s belongs to another device: the contents of %s outside the saved ranges differ from the device it was made on",
			  journal, dev->path);
		goto out_free;
	}
	ret = check_contents(p, force, why, why_len);
	if (ret)
		goto out_free;
	*pp = p;
	return 0;

out_free:
	preserve_free(p);
	return ret;
}

int preserve_restore_journal(const char *journal, struct device *dev,
			     char *why, size_t why_len)
{
	struct preserve *p;
	int ret;

	ret = preserve_load_journal(&p, journal, dev, 0, why, why_len);
	if (ret)
		return ret;
	ret = restore_all(p, why, why_len);
	preserve_free(p);
	return ret;
}
