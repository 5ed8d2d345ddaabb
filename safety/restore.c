// SPDX-License-Identifier: GPL-2.0-only
/*
 * Putting back what --preserve saved: write back the blocks the run
 * wrote, flush, read every range back and compare, note what did not
 * come back, remove the journal; after the run (preserve_restore()) or
 * from a journal (preserve_restore_journal()).
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "presint.h"

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
		const struct preserve_range g = pv_piece_group_end(p, i, &e);
		const struct preserve_range *r = &g;

		for (top = r->len_byte / p->lbs;
		     run_below(p, r, top, BLK_DIRTY, &lo, &hi); top = lo) {
			pv_state_record(p, r->data + lo * p->lbs,
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

		step = min((uint64_t)p->chunk_byte, end - off);
		if (!pv_io(p, 0, p->buf, r->off_byte + off, step, "reading",
			   NULL, 0) &&
		    !memcmp(p->buf, r->data + off, step))
			continue;
		ret = pv_io(p, 1, r->data + off, r->off_byte + off, step,
			    "restoring", why, why_len);
		if (ret)
			return ret;
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
		grp = pv_piece_group(p, g);
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
			p->ix[n].hash = pv_block_hash(0, r->data + k, p->lbs);
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
	uint64_t h = pv_block_hash(0, data, p->lbs);
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

	if (pv_uniform(data, p->lbs) && !data[0]) {
		l.kind = PRESERVE_VANISHED_ZEROS;
		return loss_add(p, &l);
	}
	ret = ix_build(p);
	if (ret)
		return ret;
	y = pv_uniform(data, p->lbs) ? -1 : ix_find(p, x, data);
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
			step = min((uint64_t)p->chunk_byte, r->len_byte - done);
			ret = pv_io(p, 0, p->buf, r->off_byte + done, step,
				    "reading back", why, why_len);
			if (ret)
				return ret;
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
	pv_guard_detach(p);	/* write_dirty() records the restore */
	dev_untimed(p->dev, 1);
	ret = pv_mark_written(p);
	if (!ret) {
		pv_join_runs(p);
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
		pv_sync_dir_of(p->journal);
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
