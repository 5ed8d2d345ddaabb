// SPDX-License-Identifier: GPL-2.0-only
/*
 * --capacity: is all of the card there?
 *
 * Every block it writes carries, in each 512-byte sector, a magic number
 * mixed with a per-run random key, the sector's own offset, and words
 * derived from both: a sector read back is "ours" only if all of it
 * matches, so stale data from an earlier run, zeros and garbage never
 * count, and a sector of ours found at another offset names the address
 * it was written to (a wraparound).
 *
 * Where it may write, fixed before the first write so that --preserve
 * saves all of it (capacity_write_ranges()), on a device of S bytes:
 *   the flush region [W, 2W), W = min(256 MiB, S / 128): what is written
 *           between writing the probes and reading them back, so that a
 *           write cache of up to W holds none of them any more;
 *   probes  the 4 KiB block ending at k * S / 256 (the last at S), for
 *           every k whose block lies above the flush region (the coarse
 *           grid, at most 256 blocks), the block ending at every fine
 *           step between two of them (1/128 of where the step starts, at
 *           most 1/16 of the grid, at least 1 MiB: at most 15 between
 *           two), and every MiB below the coarse grid.
 * The search writes only a few of these probes, so it never writes the
 * card in full.
 *
 * The cost.  On a card that keeps a few AUs open, each probe written
 * into an AU that is not open costs a collection (the AU it evicts is
 * copied: 0.35 s for 4 MiB at 12 MB/s), far more than a read; a flush
 * costs what it writes.  So the search writes the top chunk first and
 * reads its last block back at once: lost there, no cache holds even
 * the newest write (a fake without one, the common kind), and the
 * search needs no flush at all: it halves the interval with one probe
 * a round, each read back right after it is written (12 probes on a
 * 16 GiB card).  Only a top block that came back (genuine, a
 * wraparound, or a cache) takes the flushes below.
 *
 * The search: round 1 writes the top chunk and reads its last block
 * (above), then 8 coarse probes spread up to the last block, the last
 * block again, the first 32 MiB of the flush region (all of it if
 * smaller), reads the probes back; the highest probe that came back,
 * with every probe below it, and the lowest that did not bound the real
 * size; later rounds split that interval until neighbouring coarse
 * probes bound it, then the fine steps between them the same way: the
 * usable size is the end of the highest probe that came back, a lower
 * bound within F.  A round takes 8 probes, or, when a cache over 32 MiB
 * was seen (each round then costs a flush that size), all of the
 * interval's.  A
 * probe below one that came back that did not come back means a damaged
 * card.
 *
 * The cache: in round 1 the last probe written (the highest) is read
 * before the flush and again after 1, 2, 4 ... parts of it; on a fake it
 * comes back while a cache holds it: the flush written when it stops
 * coming back estimates the cache (from above, within a factor of 2).
 * When every probe came back and the last still does after 32 MiB (the
 * flash holds it: genuine, or a larger cache), and no wraparound is
 * seen, the flush goes on, watched the same way, up to W; if the probe
 * then stops coming back the probes are read again.  Later rounds flush
 * as much as the cache estimate (nothing when no cache was seen).
 *
 * The wraparound: after round 1, one 4 KiB block is read every 32 MiB
 * (or W) above the flush region.  On a card that aliases addresses
 * modulo M, the first such read past M lands in the image of the part
 * of the flush region written and finds sectors of ours naming the
 * offset a - M: M is read off directly, a power of two or not, then
 * checked by one more read at W + M.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "capacity.h"
#include "capfix.h"
#include "capint.h"


/* What a block read back holds. */
enum cap_state {
	CAP_GOOD,		/* ours, naming its own offset */
	CAP_ZERO,		/* zeros */
	CAP_OTHER,		/* anything else: garbage, old data */
	CAP_ALIAS,		/* ours, naming another offset */
};

struct cap_run {
	struct device *dev;
	struct cap_geo geo;
	uint64_t key;
	unsigned char *buf;	/* one flush part (>= a block) */
	uint64_t part;		/* bytes per flush part */
	uint64_t *pos;		/* every probe's end, ascending */
	size_t npos;
	uint64_t alias;		/* gcd of a - q over the sectors of ours
				 * naming q read at a; 0: none */
	uint64_t wit_a[CAP_WITNESSES], wit_q[CAP_WITNESSES];
	unsigned int nwit;	/* the last such (a, q), a ring */
	uint64_t lo;		/* data stored up to here */
	uint64_t hi;		/* a write from here on was lost */
	int garbage;		/* what was read at hi was not zeros */
	int damaged;		/* one lost below one that came back */
	struct capacity_result *r;
};


/* Greatest common divisor. */
static uint64_t cap_gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/*
 * Note that the sector at a is ours and names q: the card aliases a and
 * q, so its modulus divides a - q; the gcd of all such distances is the
 * modulus once two of them are coprime multiples of it (else
 * cap_modulus() finds it).
 */
static void cap_note_alias(struct cap_run *c, uint64_t a, uint64_t q)
{
	c->alias = cap_gcd(c->alias, a > q ? a - q : q - a);
	c->wit_a[c->nwit % CAP_WITNESSES] = a;
	c->wit_q[c->nwit % CAP_WITNESSES] = q;
	c->nwit++;
}
/* What len bytes of buf, read at off, hold. */
static enum cap_state cap_state_of(struct cap_run *c,
				   const unsigned char *buf, uint64_t len,
				   uint64_t off)
{
	enum cap_state st = CAP_GOOD;
	uint64_t s, q;
	int zero = 1;

	for (s = 0; s < len; s += CAP_SECTOR) {
		if (cap_ours(buf + s, c->key, &q)) {
			if (q == off + s)
				continue;
			cap_note_alias(c, off + s, q);
			st = CAP_ALIAS;
			continue;
		}
		if (st == CAP_GOOD)
			st = CAP_OTHER;
	}
	if (st != CAP_OTHER)
		return st;
	for (s = 0; s < len && zero; s++)
		zero = !buf[s];
	return zero ? CAP_ZERO : CAP_OTHER;
}

/* Write len signed bytes at off.  0 or -errno. */
static int cap_write(struct cap_run *c, uint64_t len, uint64_t off)
{
	cap_sign(c->buf, len, off, c->key);
	c->r->written_byte += len;
	return dev_write(c->dev, c->buf, len, (off_t)off, NULL);
}

/* Read len bytes at off and say what they hold.  0 or -errno. */
static int cap_read(struct cap_run *c, uint64_t len, uint64_t off,
		    enum cap_state *st)
{
	int ret = dev_read(c->dev, c->buf, len, (off_t)off, NULL);

	if (!ret)
		*st = cap_state_of(c, c->buf, len, off);
	return ret;
}

/*
 * Write the flush region from byte from on, at least up to least.  With
 * watch, the probe ending at top (the last written) is read after 1, 2,
 * 4 ... parts, and the cache estimated from when it stops coming back;
 * while it still comes back the flush goes on, up to most (a larger
 * cache, or none: the flash holds it).  A sector of ours from elsewhere
 * in its place is a wraparound, not a cache.  0 or -errno.
 */
static int cap_flush(struct cap_run *c, uint64_t from, uint64_t least,
		     uint64_t most, int watch, uint64_t top)
{
	enum cap_state st;
	uint64_t done, next = c->part;
	int ret = 0;

	while (next <= from)
		next *= 2;
	for (done = from; !ret && done < most &&
	     (done < least || watch); done += c->part) {
		ret = cap_write(c, c->part, c->geo.flush + done);
		if (ret || !watch || done + c->part != next)
			continue;
		next *= 2;
		ret = cap_read(c, CAP_BLOCK, top - CAP_BLOCK, &st);
		if (!ret && st == CAP_ALIAS)
			watch = 0;
		else if (!ret && st != CAP_GOOD) {
			c->r->cache_byte = done + c->part;
			watch = 0;
		}
	}
	if (done > c->r->flush_byte)
		c->r->flush_byte = done;
	return ret;
}

/* Data is stored up to end: below a lost write, the card is damaged. */
static void cap_good(struct cap_run *c, uint64_t end)
{
	if (end <= c->lo)
		return;
	if (end > c->hi)
		c->damaged = 1;
	else
		c->lo = end;
}

/* A write at start was lost (st: what came back). */
static void cap_bad(struct cap_run *c, uint64_t start, enum cap_state st)
{
	if (start < c->lo)
		c->damaged = 1;
	if (start >= c->hi)
		return;
	c->hi = start;
	c->garbage = st != CAP_ZERO;
}

/*
 * Read the part of the flush region written at least a cache's worth
 * before its end back, up to round 1's part, sector by sector.  0 or
 * -errno.
 */
static int cap_flush_back(struct cap_run *c)
{
	const struct capacity_result *r = c->r;
	uint64_t rel, done, s, q, a;

	rel = r->flush_byte > r->cache_byte ? r->flush_byte - r->cache_byte :
	      0;
	if (rel > c->geo.first)
		rel = c->geo.first;
	for (done = 0; done + c->part <= rel; done += c->part) {
		int ret = dev_read(c->dev, c->buf, c->part,
				   (off_t)(c->geo.flush + done), NULL);

		if (ret)
			return ret;
		for (s = 0; s < c->part; s += CAP_SECTOR) {
			a = c->geo.flush + done + s;
			if (!cap_ours(c->buf + s, c->key, &q))
				cap_bad(c, a, cap_state_of(c, c->buf + s,
							   CAP_SECTOR, a));
			else if (q != a)
				cap_note_alias(c, a, q);
			else
				cap_good(c, a + CAP_SECTOR);
		}
	}
	return 0;
}

/*
 * Look for a wraparound: a block every `first` bytes above the flush
 * region (where the images of the flush region fall; every W / 2 once
 * all of it was written: a write-back cache of up to W / 2 has pushed
 * that much of it to the flash), and every chunk
 * bytes from 0 past the flush region's first part (where the images of
 * the top chunk fall on a card that wraps near its end).  A sector of
 * ours read where it was not written is noted.
 */
static int cap_scan(struct cap_run *c)
{
	const struct cap_geo *g = &c->geo;
	uint64_t a, step = g->first;
	enum cap_state st;
	int ret;

	if (c->r->flush_byte >= g->flush)
		step = g->flush / 2 / CAP_BLOCK * CAP_BLOCK;
	if (step < CAP_BLOCK)
		step = CAP_BLOCK;
	for (a = 2 * g->flush; a + CAP_BLOCK <= g->size; a += step) {
		ret = cap_read(c, CAP_BLOCK, a, &st);
		if (ret)
			return ret;
	}
	for (a = 0; a < g->flush + g->first + 2 * g->chunk &&
	     a + CAP_BLOCK <= g->size; a += g->chunk) {
		ret = cap_read(c, CAP_BLOCK, a, &st);
		if (ret)
			return ret;
	}
	return 0;
}

/* Write the n probes ending at end[], signed. */
static int cap_write_probes(struct cap_run *c, const uint64_t *end,
			    unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		int ret = cap_write(c, CAP_BLOCK, end[i] - CAP_BLOCK);

		if (ret)
			return ret;
		c->r->probes++;
	}
	return 0;
}

/* Read the n probes ending at end[] back and note what they hold. */
static int cap_read_probes(struct cap_run *c, const uint64_t *end,
			   unsigned int n)
{
	enum cap_state st;
	unsigned int i;

	for (i = 0; i < n; i++) {
		int ret = cap_read(c, CAP_BLOCK, end[i] - CAP_BLOCK, &st);

		if (ret)
			return ret;
		if (st == CAP_GOOD)
			cap_good(c, end[i]);
		else
			cap_bad(c, end[i] - CAP_BLOCK, st);
	}
	return 0;
}

/*
 * Round 1: the top chunk, its last block read back at once (lost: no
 * cache, and the later rounds need no flush); then eight coarse probes
 * spread up to the top chunk, the last block again (the newest write),
 * the first part of the flush region
 * watching the last block, the probes read back and the wraparound
 * scan.  When all came back and the last block still does (the flash
 * holds it, or a cache larger than that part), the flush goes on up to
 * the whole region, still watching, and the probes and the scan are
 * read again: a write-back cache has then pushed what it held out.
 */
static int cap_first_round(struct cap_run *c)
{
	const struct cap_geo *g = &c->geo;
	uint64_t end[CAP_SPLIT_FIRST] = { 0 };
	enum cap_state st0 = CAP_OTHER;
	unsigned int n = 0, j;
	uint64_t a, len;
	int ret;

	for (a = g->size - g->chunk; a < g->size; a += len) {
		len = g->size - a < c->part ? g->size - a : c->part;
		ret = cap_write(c, len, a);
		if (ret)
			return ret;
	}
	c->r->probes++;
	ret = cap_read(c, CAP_BLOCK, g->size - CAP_BLOCK, &st0);
	if (ret || st0 == CAP_ZERO || st0 == CAP_OTHER) {
		/* lost at once: no cache holds even the newest write */
		if (!ret)
			cap_bad(c, g->size - CAP_BLOCK, st0);
		return ret;
	}
	for (j = 1; j <= CAP_SPLIT_FIRST; j++) {
		uint64_t span = (CAP_GRID - g->lo0) * j + CAP_SPLIT_FIRST - 1;
		unsigned int k = g->lo0 + (unsigned int)(span / CAP_SPLIT_FIRST);

		if (k > g->lo0 && (!n || cap_end(g, k) > end[n - 1]))
			end[n++] = cap_end(g, k);
	}
	ret = cap_write_probes(c, end, n - 1);
	if (!ret)	/* the top block the newest write again */
		ret = cap_write(c, CAP_BLOCK, g->size - CAP_BLOCK);
	if (!ret)
		ret = cap_read(c, CAP_BLOCK, g->size - CAP_BLOCK, &st0);
	if (!ret)
		ret = cap_flush(c, 0, g->first, g->first, st0 == CAP_GOOD,
				g->size);
	if (!ret)
		ret = cap_read_probes(c, end, n);
	if (!ret)
		ret = cap_scan(c);
	if (ret || c->alias || c->hi != CAP_NONE || st0 != CAP_GOOD ||
	    c->r->cache_byte || g->first >= g->flush)
		return ret;
	ret = cap_flush(c, g->first, g->first, g->flush, 1, g->size);
	if (!ret && c->r->cache_byte) {
		c->lo = 0;	/* what came back may have come from it */
		c->damaged = 0;
	}
	if (!ret)
		ret = cap_read_probes(c, end, n);
	if (!ret)
		ret = cap_scan(c);
	return ret;
}

/*
 * The probes of a later round: up to split of the positions whose block
 * lies between the bounds and outside what a round's flush rewrites,
 * evenly spread.  The count.
 */
static unsigned int cap_pick(struct cap_run *c, unsigned int split,
			     uint64_t *end, size_t *tmp)
{
	const struct cap_geo *g = &c->geo;
	uint64_t clob = g->flush + c->r->cache_byte;
	size_t i, m = 0;
	unsigned int n = 0, j;

	for (i = 0; i < c->npos; i++) {
		uint64_t e = c->pos[i];

		if (e - CAP_BLOCK < c->lo || e > c->hi)
			continue;
		if (e > g->flush && e - CAP_BLOCK < clob)
			continue;
		tmp[m++] = i;
	}
	if (m <= split) {
		for (i = 0; i < m; i++)
			end[n++] = c->pos[tmp[i]];
		return n;
	}
	for (j = 1; j <= split; j++)
		end[n++] = c->pos[tmp[m * j / (split + 1)]];
	return n;
}

/*
 * The later rounds, while a write was lost and no wraparound seen: the
 * probes cap_pick() chose, a flush the size of the cache seen (none
 * without one), read back.  A probe costs about a collection of an AU
 * (a few MiB written) and a round its flush: a round takes one probe
 * (halving) plus one per 4 MiB of cache, up to 32.
 */
static int cap_rounds(struct cap_run *c)
{
	uint64_t per = c->r->cache_byte / CAP_PROBE_COST + 1;
	unsigned int split = per < CAP_SPLIT ? (unsigned int)per : CAP_SPLIT;
	uint64_t end[CAP_SPLIT];
	size_t *tmp = malloc(c->npos * sizeof(*tmp));
	int ret = 0;

	if (!tmp)
		return -ENOMEM;
	while (!ret && !c->alias && c->hi != CAP_NONE) {
		unsigned int n = cap_pick(c, split, end, tmp);

		if (!n)
			break;
		ret = cap_write_probes(c, end, n);
		if (!ret)
			ret = cap_flush(c, 0, c->r->cache_byte,
					c->r->cache_byte, 0, 0);
		if (!ret)
			ret = cap_read_probes(c, end, n);
	}
	free(tmp);
	return ret;
}

/*
 * What the sector at a holds: 1 ours naming *q, 0 anything else.  0 or
 * -errno in *ret.
 */
static int cap_sector_at(struct cap_run *c, uint64_t a, uint64_t *q,
			 int *ret)
{
	uint64_t blk = a / CAP_BLOCK * CAP_BLOCK;

	if (blk + CAP_BLOCK > c->geo.size)
		blk = c->geo.size - CAP_BLOCK;	/* a size not of whole blocks */
	*ret = dev_read(c->dev, c->buf, CAP_BLOCK, (off_t)blk, NULL);
	return !*ret && cap_ours(c->buf + (a - blk), c->key, q);
}

/*
 * Is m a multiple of the modulus?  A witness a, reading what was written
 * at q (as it still does), is read at a + m, a - m, q + m and q - m: the
 * flash's one place for a and q gives q's sector back only if m is.  A
 * sector reading what was written there tells nothing (it may come from
 * a cache); with no read that tells: taken as yes, the smaller modulus
 * (a lower usable size).  1, 0 or -errno.
 */
static int cap_period(struct cap_run *c, const uint64_t *wa,
		      const uint64_t *wq, unsigned int nw, uint64_t m)
{
	uint64_t b, x, got;
	unsigned int i, j;
	int ret;

	for (i = 0; i < nw; i++)
		for (j = 0; j < 4; j++) {
			x = j < 2 ? wa[i] : wq[i];
			if (j % 2 ? m > x : x + m + CAP_SECTOR > c->geo.size)
				continue;
			b = j % 2 ? x - m : x + m;
			if (!cap_sector_at(c, b, &got, &ret))
				return ret ? ret : 0;
			if (got == wq[i])
				return 1;
			if (got != b)
				return 0;
		}
	return 1;
}

/* Compare two uint64_t for qsort(). */
static int cap_cmp(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

/*
 * The gcd of the aliases seen is a multiple k R of the modulus R (k > 1
 * when a write-back cache let few images reach the flash): its divisors
 * are tried from the smallest, against a witness still read as before.
 */
static int cap_modulus(struct cap_run *c)
{
	uint64_t wa[CAP_WITNESSES], wq[CAP_WITNESSES];
	uint64_t n = c->alias / CAP_SECTOR, d, got, *div;
	unsigned int i, nd = 0, nw = 0;
	int ret = 0;

	for (i = 0; i < CAP_WITNESSES && i < c->nwit; i++) {
		unsigned int w = (c->nwit - 1 - i) % CAP_WITNESSES;

		if (cap_sector_at(c, c->wit_a[w], &got, &ret) &&
		    got == c->wit_q[w]) {
			wa[nw] = c->wit_a[w];
			wq[nw++] = c->wit_q[w];
		}
		if (ret)
			return ret;
	}
	if (!nw || c->alias % CAP_SECTOR)
		return 0;
	div = malloc(CAP_DIVISORS * sizeof(*div));
	if (!div)
		return -ENOMEM;
	for (d = 1; d * d <= n && nd + 2 <= CAP_DIVISORS; d++)
		if (!(n % d)) {
			div[nd++] = d;
			if (d * d != n)
				div[nd++] = n / d;
		}
	qsort(div, nd, sizeof(*div), cap_cmp);
	for (i = 0; i < nd && div[i] < n; i++) {
		ret = cap_period(c, wa, wq, nw, div[i] * CAP_SECTOR);
		if (ret < 0)
			break;
		if (ret) {
			c->alias = div[i] * CAP_SECTOR;
			break;
		}
	}
	free(div);
	return ret < 0 ? ret : 0;
}

/* Hand what the search saw to the verdict. */
static void cap_classify(struct cap_run *c)
{
	struct capacity_evidence *e = &c->r->ev;

	e->stored_byte = c->lo;
	e->lost = c->hi != CAP_NONE;
	e->lost_byte = e->lost ? c->hi : 0;
	e->lost_garbage = c->garbage;
	e->lost_below_stored = c->damaged;
	e->alias_byte = c->alias;
	e->flush_byte = c->r->flush_byte;
	e->cache_byte = c->r->cache_byte;
	capacity_decide(c->r);
}

/* A fresh key: random, or from the clock when there is no randomness. */
static uint64_t cap_key(void)
{
	struct timespec ts;
	uint64_t k;

	if (getrandom(&k, sizeof(k), GRND_NONBLOCK) == sizeof(k))
		return k;
	clock_gettime(CLOCK_REALTIME, &ts);
	return cap_mix((uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20) ^
		       (uint64_t)getpid());
}

/*
 * Round 1, the flush region read back (a limbo that starts in it, a
 * wraparound smaller than it, a damaged block), then the later rounds.
 */
static int cap_search(struct cap_run *c)
{
	int ret;

	c->lo = 0;
	c->hi = CAP_NONE;
	ret = cap_first_round(c);
	if (!ret && !c->alias)
		ret = cap_flush_back(c);
	if (!ret)
		ret = cap_rounds(c);
	if (!ret && c->alias)
		ret = cap_modulus(c);
	if (!ret)
		cap_classify(c);
	return ret;
}

int capacity_measure(struct device *dev, const struct bench_opts *o,
		     struct capacity_result *r)
{
	struct cap_run c = { .dev = dev, .r = r };
	uint64_t t0;
	int ret;

	(void)o;
	memset(r, 0, sizeof(*r));
	r->announced_byte = dev->size_byte;
	r->logical_block_size = dev->logical_block_size;
	if (cap_geo_init(&c.geo, dev->size_byte, o->flush_byte) ||
	    CAP_BLOCK % dev->logical_block_size)
		return -EINVAL;
	c.part = c.geo.first / CAP_FLUSH_PARTS / CAP_BLOCK * CAP_BLOCK;
	if (c.part < CAP_BLOCK)
		c.part = CAP_BLOCK;
	c.key = cap_key();
	c.npos = cap_positions(&c.geo, NULL, 0);
	c.pos = malloc(c.npos * sizeof(*c.pos));
	c.buf = bench_alloc_io_buf(c.part);
	if (!c.buf || !c.pos) {
		free(c.pos);
		if (c.buf)
			dev_free_buf(c.buf);
		return -ENOMEM;
	}
	cap_positions(&c.geo, c.pos, c.npos);
	t0 = dev_now_ns(dev);
	ret = cap_search(&c);
	r->device_ns = dev_now_ns(dev) - t0;
	dev_free_buf(c.buf);
	free(c.pos);
	return ret;
}
