// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the ranges of --preserve hold: the state (per block, the hashes
 * of the last two contents written there), kept in memory and in the
 * journal as the run writes; the marks a restore goes by; the blocks the
 * run wrote, indexed by their contents (lazy save); and, before --restore
 * writes, the check that the device still holds what the run wrote.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "presint.h"

/* ---- what the ranges hold: the state ---- */

/*
 * Number the blocks of p's ranges, in record order; returns 0, -ENOMEM
 * (too many to count in memory) or -EINVAL (ranges that are not whole
 * blocks).
 */
int pv_number_blocks(struct preserve *p)
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
int pv_state_alloc(struct preserve *p)
{
	int ret = pv_number_blocks(p);

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
	return pv_block_hash(r->off_byte + k * p->lbs, r->data + k * p->lbs,
			     p->lbs);
}

/*
 * Mark for writing back every block the run wrote: whose state is not
 * the saved contents twice (pv_state_init()'s).  A write of what a block
 * held leaves it so, and needs no restoring.  Every block when the
 * state cannot be trusted (--force) or is missing (version 1).
 * Returns 0 or -ENOMEM.
 */
int pv_mark_written(struct preserve *p)
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
void pv_join_runs(struct preserve *p)
{
	uint64_t gap = p->chunk_byte / p->lbs, k, last;
	size_t i, e;

	for (i = 0; i < p->n; i = e) {
		const struct preserve_range g = pv_piece_group_end(p, i, &e);
		unsigned char *m = p->mark + g.first_block;
		size_t j = i;
		uint64_t piece_end = p->r[i].len_byte / p->lbs;
		uint64_t nb = g.len_byte / p->lbs;

		/* across the pieces of a range, but not an unsaved one */
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
void pv_state_init(struct preserve *p)
{
	uint64_t k;
	size_t i;

	for (i = 0; i < p->n; i++) {
		const struct preserve_range *r = &p->r[i];
		uint64_t *e = p->state + 2 * r->first_block;
		uint64_t nb = r->len_byte / p->lbs;

		for (k = 0; k < nb; k++, e += 2)
			e[0] = e[1] = pv_block_hash(r->off_byte + k * p->lbs,
						    r->data + k * p->lbs,
						    p->lbs);
	}
}

/* Bytes per block in the journal's state: 24 when saved lazily. */
unsigned int pv_entry_byte(const struct preserve *p)
{
	return p->lazy ? J_LAZY_ENTRY_BYTE : J_ENTRY_BYTE;
}

/* Put block k's state entry into b (pv_entry_byte() bytes). */
void pv_put_entry(const struct preserve *p, uint64_t k, unsigned char *b)
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
int pv_state_put(const struct preserve *p, uint64_t first, uint64_t nb)
{
	unsigned char buf[256 * J_LAZY_ENTRY_BYTE], *b;
	unsigned int eb = pv_entry_byte(p);
	uint64_t k, n;

	if (p->jfd < 0)
		return 0;
	for (; nb; first += n, nb -= n) {
		n = min(nb, (uint64_t)(sizeof(buf) / J_LAZY_ENTRY_BYTE));
		for (k = 0, b = buf; k < n; k++, b += eb)
			pv_put_entry(p, first + k, b);
		if (pwrite(p->jfd, buf, (size_t)(n * eb),
			   (off_t)(p->state_off + first * eb)) !=
		    (ssize_t)(n * eb))
			return -EIO;
	}
	return 0;
}

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
	uint64_t h = pv_block_hash(0, data, p->lbs);
	size_t i;

	if (pv_uniform(data, p->lbs))
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
int pv_state_record(struct preserve *p, const unsigned char *buf,
		    uint64_t len, uint64_t off)
{
	uint64_t k, *e;
	size_t i;
	int ret = 0;

	if (!p->state || off % p->lbs || len % p->lbs)
		return 0;
	for (i = 0; i < p->n; i++) {
		const struct preserve_range *r = &p->r[i];
		uint64_t lo = max(off, r->off_byte);
		uint64_t hi = min(off + len, r->off_byte + r->len_byte);
		uint64_t first;

		if (lo >= hi)
			continue;
		first = r->first_block + (lo - r->off_byte) / p->lbs;
		e = p->state + 2 * first;
		for (k = lo; k < hi; k += p->lbs, e += 2) {
			uint64_t h = pv_block_hash(k, buf + (k - off), p->lbs);

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
			ret = pv_state_put(p, first, (hi - lo) / p->lbs);
	}
	return ret;
}

/* Is every byte of len bytes of data the same? */
int pv_uniform(const unsigned char *data, size_t len)
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
int pv_holds_block_of(const struct preserve *p, uint64_t y,
		      const unsigned char *data)
{
	const uint64_t *e = state_of(p, y);
	uint64_t h;

	if (!e)
		return 0;
	h = pv_block_hash(y, data, p->lbs);
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
			h = pv_block_hash(k, data, p->lbs);
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

	if (pv_uniform(data, p->lbs))
		return 0;

	for (i = 0; i < p->nshift; i++) {
		uint64_t d = p->shift[i];

		if ((x >= d && pv_holds_block_of(p, x - d, data)) ||
		    pv_holds_block_of(p, x + d, data))
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
int pv_state_check(struct preserve *p, char *why, size_t why_len)
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
			step = min((uint64_t)p->chunk_byte, r->len_byte - done);
			ret = pv_io(p, 0, p->buf, r->off_byte + done, step,
				    "reading", why, why_len);
			if (ret)
				return ret;
			for (k = 0; k < step; k += p->lbs, e += 2) {
				uint64_t x = r->off_byte + done + k;
				uint64_t b = (done + k) / p->lbs;
				uint64_t h = pv_block_hash(x, p->buf + k,
							   p->lbs);

				if (m[b] == BLK_CLEAN &&
				    h != saved_hash(p, r, b))
					m[b] = BLK_DIRTY;
				if (h == e[1] && e[0] != e[1] &&
				    !pv_uniform(p->buf + k, p->lbs)) {
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
