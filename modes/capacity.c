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
 *           grid, at most 256 blocks), and the block ending at every
 *           fine step F = max(1 MiB, S / 4096) between two of them (at
 *           most 15 between two, 15 MiB in all).
 * The search writes only a few of these probes, so it never writes the
 * card in full.
 *
 * The search: round 1 writes 8 coarse probes spread up to the last
 * block, then the first 32 MiB of the flush region (all of it if
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
#include "format.h"
#include "json.h"

#define CAP_BLOCK	4096ULL		/* a probe */
#define CAP_SECTOR	512ULL		/* a signed unit */
#define CAP_GRID	256ULL		/* probe positions */
#define CAP_SPLIT_FIRST	8U		/* probes in round 1 */
#define CAP_SPLIT	32U		/* probes in a later round, at most */
#define CAP_FINE	16ULL		/* fine steps per coarse step */
#define CAP_FINE_MIN	(1ULL << 20)	/* finest step */
#define CAP_FLUSH_FIRST	(32ULL << 20)	/* flushed in round 1 at least */
#define CAP_FLUSH_MAX	(256ULL << 20)	/* largest cache defeated */
#define CAP_FLUSH_PARTS	32ULL		/* the first flush in parts */
#define CAP_MIN_SIZE	(16ULL << 20)	/* smallest device checked */
#define CAP_WORDS	(CAP_SECTOR / 8)
#define CAP_MAGIC	0x4643415041434954ULL	/* "FCAPACIT" */

/* Where the check may write on a device of size bytes. */
struct cap_geo {
	uint64_t size;		/* announced size S */
	uint64_t flush;		/* W: the flush region is [W, 2W) */
	uint64_t grid;		/* S / 256, in whole blocks */
	uint64_t fine;		/* grid / 16, at least 1 MiB, whole blocks */
	unsigned int lo0;	/* probes 1..lo0 lie in or below the flush */
};

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
	uint64_t first;		/* bytes flushed in round 1 at least */
	uint64_t alias;		/* smallest a - q of a sector of ours
				 * naming q found at a; 0: none */
	struct capacity_result *r;
};

const char *capacity_kind_name(enum capacity_kind kind)
{
	static const char *const name[] = { "genuine", "limbo", "wraparound",
					    "damaged" };

	return kind <= CAPACITY_DAMAGED ? name[kind] : "?";
}

/* The geometry of a device of size bytes; 0 or -EINVAL (too small). */
static int cap_geo_init(struct cap_geo *g, uint64_t size)
{
	uint64_t w;

	if (size < CAP_MIN_SIZE)
		return -EINVAL;
	w = size / 128 < CAP_FLUSH_MAX ? size / 128 : CAP_FLUSH_MAX;
	g->size = size;
	g->flush = w / CAP_BLOCK * CAP_BLOCK;
	g->grid = size / CAP_GRID / CAP_BLOCK * CAP_BLOCK;
	g->fine = g->grid / CAP_FINE / CAP_BLOCK * CAP_BLOCK;
	if (g->fine < CAP_FINE_MIN)
		g->fine = CAP_FINE_MIN;
	g->lo0 = (unsigned int)((2 * g->flush + CAP_BLOCK - 1) / g->grid);
	return 0;
}

/* The end of probe k (1..256): what it proves stores data. */
static uint64_t cap_end(const struct cap_geo *g, unsigned int k)
{
	return k >= CAP_GRID ? g->size : k * g->grid;
}

/* Note the block ending at end as range n (when there is room). */
static void cap_range(struct bench_range *ranges, size_t max, size_t n,
		      uint64_t end)
{
	if (!ranges || n >= max)
		return;
	ranges[n].start_byte = end - CAP_BLOCK;
	ranges[n].end_byte = end;
}

int capacity_write_ranges(enum bench_test test, const struct bench_opts *o,
			  uint64_t dev_size, struct bench_range *ranges,
			  size_t max)
{
	struct cap_geo g;
	unsigned int k;
	uint64_t e;
	size_t n = 1;

	(void)test;
	(void)o;
	if (cap_geo_init(&g, dev_size))
		return -EINVAL;
	if (ranges && max) {
		ranges[0].start_byte = g.flush;
		ranges[0].end_byte = 2 * g.flush;
	}
	for (k = g.lo0 + 1; k <= CAP_GRID; k++) {
		for (e = cap_end(&g, k - 1) + g.fine; e < cap_end(&g, k);
		     e += g.fine)
			cap_range(ranges, max, n++, e);
		cap_range(ranges, max, n++, cap_end(&g, k));
	}
	if (ranges && max < n)
		return -ENOSPC;
	return n > INT_MAX ? -E2BIG : (int)n;
}

/* A finalizer of splitmix64: spreads x over 64 bits. */
static uint64_t cap_mix(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* Word i of the sector at off. */
static uint64_t cap_word(uint64_t key, uint64_t off, unsigned int i)
{
	if (i == 0)
		return CAP_MAGIC ^ key;
	if (i == 1)
		return off;
	return cap_mix(key ^ cap_mix(off + i));
}

/* Sign len bytes of buf as written at off. */
static void cap_sign(unsigned char *buf, uint64_t len, uint64_t off,
		     uint64_t key)
{
	uint64_t s, w;
	unsigned int i;

	for (s = 0; s < len; s += CAP_SECTOR)
		for (i = 0; i < CAP_WORDS; i++) {
			w = cap_word(key, off + s, i);
			memcpy(buf + s + 8 * i, &w, sizeof(w));
		}
}

/* Is the sector ours?  Then *named gets the offset it names. */
static int cap_ours(const unsigned char *sec, uint64_t key, uint64_t *named)
{
	uint64_t w, off;
	unsigned int i;

	memcpy(&w, sec, sizeof(w));
	if (w != (CAP_MAGIC ^ key))
		return 0;
	memcpy(&off, sec + 8, sizeof(off));
	for (i = 2; i < CAP_WORDS; i++) {
		memcpy(&w, sec + 8 * i, sizeof(w));
		if (w != cap_word(key, off, i))
			return 0;
	}
	*named = off;
	return 1;
}

/* Note that the sector at a is ours and names q. */
static void cap_note_alias(struct cap_run *c, uint64_t a, uint64_t q)
{
	if (a > q && (!c->alias || a - q < c->alias))
		c->alias = a - q;
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
 * cache, or none: the flash holds it).  0 or -errno.
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
		if (!ret && st != CAP_GOOD) {
			c->r->cache_byte = done + c->part;
			watch = 0;
		}
	}
	if (done > c->r->flush_byte)
		c->r->flush_byte = done;
	return ret;
}

/* Read what was written of the flush region back: 1 when all came back. */
static int cap_flush_ok(struct cap_run *c, int *ok)
{
	enum cap_state st;
	uint64_t done;

	*ok = 1;
	for (done = 0; done < c->first; done += c->part) {
		int ret = cap_read(c, c->part, c->geo.flush + done, &st);

		if (ret)
			return ret;
		if (st != CAP_GOOD)
			*ok = 0;
	}
	return 0;
}

/*
 * Look for a wraparound: a block every F bytes above the flush region (F
 * what was written of it), then the modulus found checked at W + M.
 * *mod gets it, or 0.
 */
static int cap_scan_wrap(struct cap_run *c, uint64_t *mod)
{
	const struct cap_geo *g = &c->geo;
	enum cap_state st;
	uint64_t a, m, q;
	int ret;

	*mod = 0;
	for (a = 2 * g->flush; a + CAP_BLOCK <= g->size; a += c->first) {
		ret = cap_read(c, CAP_BLOCK, a, &st);
		if (ret)
			return ret;
	}
	m = c->alias;
	if (!m || m % CAP_SECTOR || g->flush + m + CAP_BLOCK > g->size)
		return 0;
	ret = dev_read(c->dev, c->buf, CAP_BLOCK, (off_t)(g->flush + m), NULL);
	if (ret)
		return ret;
	/* the image of the flush region's first block, named as written */
	for (a = 0; a < CAP_BLOCK; a += CAP_SECTOR)
		if (!cap_ours(c->buf + a, c->key, &q) || q != g->flush + a)
			return 0;
	*mod = c->alias;
	return 0;
}

/*
 * Up to split probes of the coarse grid above lo and below hi, evenly
 * spread, ascending; with no failed probe yet (hi past the grid), up to
 * and with the last block.
 */
static unsigned int cap_round(unsigned int lo, unsigned int hi,
			      unsigned int split, unsigned int *idx)
{
	unsigned int j, n = 0, top = hi > CAP_GRID ? CAP_GRID : hi;

	for (j = 1; j <= split; j++) {
		unsigned int k = lo + (unsigned int)(((uint64_t)(top - lo) * j +
					 split - 1) / split);
		if (k > lo && k < hi && (!n || k > idx[n - 1]))
			idx[n++] = k;
	}
	return n;
}

/* The search's bounds: probes up to lo came back, hi did not. */
struct cap_bounds {
	unsigned int lo, hi;	/* coarse probes; hi = 257: none failed */
	uint64_t lo_end;	/* data stored up to here */
	uint64_t hi_end;	/* a write ending here was lost */
	unsigned int flo, fhi;	/* fine probes between lo and hi: the
				 * same; fhi = 0: not yet there */
	int damaged;		/* one failed below one that came back */
	int garbage;		/* the first that failed read non-zero */
};

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

/*
 * Read the n probes ending at end[] back; *good gets the end of the
 * highest that came back with all below it (0: not the first), *bad the
 * end of the lowest that did not (0: none).  0 or -errno.
 */
static int cap_read_probes(struct cap_run *c, const uint64_t *end,
			   unsigned int n, struct cap_bounds *b,
			   uint64_t *good, uint64_t *bad)
{
	enum cap_state st;
	unsigned int i;

	*good = 0;
	*bad = 0;
	for (i = 0; i < n; i++) {
		int ret = cap_read(c, CAP_BLOCK, end[i] - CAP_BLOCK, &st);

		if (ret)
			return ret;
		if (st == CAP_GOOD && !*bad)
			*good = end[i];
		else if (st == CAP_GOOD)
			b->damaged = 1;
		else if (!*bad) {
			*bad = end[i];
			b->garbage = st != CAP_ZERO;
		}
	}
	return 0;
}

/* Narrow the coarse bounds by what probes idx[] (ending at end[]) did. */
static void cap_narrow(struct cap_bounds *b, const unsigned int *idx,
		       const uint64_t *end, unsigned int n, uint64_t good,
		       uint64_t bad)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (good && end[i] == good)
			b->lo = idx[i];
		if (bad && end[i] == bad)
			b->hi = idx[i];
	}
}

/*
 * Round 1: eight probes spread up to the last block, the first part of
 * the flush region watching the cache, the probes read back.  Then, when
 * every probe came back and the last one still does (the flash holds it,
 * or a cache larger than that part), a wraparound is looked for and, if
 * none, the flush goes on up to the whole region, still watching: if
 * the probe then stops coming back, the probes are read again.
 */
static int cap_first_round(struct cap_run *c, struct cap_bounds *b,
			   int *flush_ok, uint64_t *mod)
{
	unsigned int idx[CAP_SPLIT_FIRST] = { 0 }, n, i;
	uint64_t end[CAP_SPLIT_FIRST] = { 0 }, good = 0, bad = 0;
	enum cap_state st0 = CAP_OTHER;
	int ret;

	n = cap_round(b->lo, b->hi, CAP_SPLIT_FIRST, idx);
	for (i = 0; i < n; i++)
		end[i] = cap_end(&c->geo, idx[i]);
	ret = cap_write_probes(c, end, n);
	if (!ret)
		ret = cap_read(c, CAP_BLOCK, end[n - 1] - CAP_BLOCK, &st0);
	if (!ret)
		ret = cap_flush(c, 0, c->first, c->first, st0 == CAP_GOOD,
				end[n - 1]);
	if (!ret)
		ret = cap_read_probes(c, end, n, b, &good, &bad);
	if (!ret)
		ret = cap_flush_ok(c, flush_ok);
	if (!ret)
		ret = cap_scan_wrap(c, mod);
	if (ret || *mod || bad || st0 != CAP_GOOD || c->r->cache_byte)
		goto out;
	ret = cap_flush(c, c->first, c->first, c->geo.flush, 1, end[n - 1]);
	if (!ret && c->r->cache_byte)
		ret = cap_read_probes(c, end, n, b, &good, &bad);
out:
	if (!ret)
		cap_narrow(b, idx, end, n, good, bad);
	return ret;
}

/* The end of fine probe j between coarse probes b->lo and b->hi. */
static uint64_t cap_fine_end(const struct cap_geo *g,
			     const struct cap_bounds *b, unsigned int j)
{
	uint64_t e = cap_end(g, b->lo) + j * g->fine;

	return e < cap_end(g, b->hi) ? e : cap_end(g, b->hi);
}

/*
 * The probes of a later round: of the coarse grid between the bounds,
 * or once they are neighbours, of the fine steps between them.  With a
 * cache over 32 MiB each round costs a flush that size, so a round takes
 * all of them; else a round of 8 costs less.
 */
static unsigned int cap_pick(const struct cap_run *c, struct cap_bounds *b,
			     unsigned int *idx, uint64_t *end)
{
	const struct cap_geo *g = &c->geo;
	unsigned int split = c->r->cache_byte > CAP_FLUSH_FIRST ? CAP_SPLIT :
			     CAP_SPLIT_FIRST;
	unsigned int n, i;

	if (b->hi - b->lo > 1) {
		n = cap_round(b->lo, b->hi, split, idx);
		for (i = 0; i < n; i++)
			end[i] = cap_end(g, idx[i]);
		return n;
	}
	if (!b->fhi)
		while (cap_fine_end(g, b, ++b->fhi) < cap_end(g, b->hi))
			;
	n = cap_round(b->flo, b->fhi, split, idx);
	for (i = 0; i < n; i++)
		end[i] = cap_fine_end(g, b, idx[i]);
	return n;
}

/*
 * A later round: the probes cap_pick() chose, a flush the size of the
 * cache seen (none without one), read back and narrow.  0, 1 when there
 * is nothing left to probe, or -errno.
 */
static int cap_next_round(struct cap_run *c, struct cap_bounds *b)
{
	const struct cap_geo *g = &c->geo;
	unsigned int idx[CAP_SPLIT] = { 0 }, n, i;
	uint64_t end[CAP_SPLIT] = { 0 }, good, bad;
	int fine = b->hi - b->lo == 1;
	int ret;

	n = cap_pick(c, b, idx, end);
	if (!n)
		return 1;
	ret = cap_write_probes(c, end, n);
	if (!ret)
		ret = cap_flush(c, 0, c->r->cache_byte, c->r->cache_byte, 0, 0);
	if (!ret)
		ret = cap_read_probes(c, end, n, b, &good, &bad);
	if (ret)
		return ret;
	if (!fine) {
		cap_narrow(b, idx, end, n, good, bad);
		b->lo_end = b->lo > g->lo0 ? cap_end(g, b->lo) : 2 * g->flush;
		b->hi_end = cap_end(g, b->hi);
		return 0;
	}
	for (i = 0; i < n; i++) {
		if (good && end[i] == good)
			b->flo = idx[i];
		if (bad && end[i] == bad)
			b->fhi = idx[i];
	}
	if (b->flo)
		b->lo_end = cap_fine_end(g, b, b->flo);
	b->hi_end = cap_fine_end(g, b, b->fhi);
	return 0;
}

/* Classify from the bounds, the flush region and the modulus. */
static void cap_classify(struct cap_run *c, const struct cap_bounds *b,
			 int flush_ok, uint64_t mod)
{
	struct capacity_result *r = c->r;
	const struct cap_geo *g = &c->geo;

	r->usable_byte = b->lo_end;
	r->limbo_garbage = b->garbage;
	if (b->hi <= CAP_GRID)
		r->lost_byte = b->hi_end - CAP_BLOCK;
	if (mod) {
		r->kind = CAPACITY_WRAP;
		r->modulus_byte = mod;
		r->usable_byte = mod;
	} else if (!flush_ok || b->damaged) {
		r->kind = CAPACITY_DAMAGED;
		if (!flush_ok)
			r->usable_byte = 0;
	} else if (b->hi <= CAP_GRID) {
		r->kind = CAPACITY_LIMBO;
	} else {
		r->kind = CAPACITY_GENUINE;
		r->usable_byte = g->size;
	}
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

/* The rounds, the flush check and the wrap scan. */
static int cap_search(struct cap_run *c)
{
	struct cap_bounds b = { c->geo.lo0, CAP_GRID + 1, 0, 0, 0, 0, 0, 0 };
	uint64_t mod = 0;
	int ret, flush_ok = 1;

	ret = cap_first_round(c, &b, &flush_ok, &mod);
	b.lo_end = b.lo > c->geo.lo0 ? cap_end(&c->geo, b.lo) :
		   2 * c->geo.flush;
	if (b.hi <= CAP_GRID)
		b.hi_end = cap_end(&c->geo, b.hi);
	while (!ret && !mod && b.hi <= CAP_GRID)
		ret = cap_next_round(c, &b);
	if (ret > 0)
		ret = 0;
	if (!ret)
		cap_classify(c, &b, flush_ok, mod);
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
	if (cap_geo_init(&c.geo, dev->size_byte) ||
	    CAP_BLOCK % dev->logical_block_size)
		return -EINVAL;
	c.first = c.geo.flush < CAP_FLUSH_FIRST ? c.geo.flush :
		  CAP_FLUSH_FIRST;
	c.part = c.first / CAP_FLUSH_PARTS / CAP_BLOCK * CAP_BLOCK;
	if (c.part < CAP_BLOCK)
		c.part = CAP_BLOCK;
	c.key = cap_key();
	c.buf = bench_alloc_io_buf(c.part);
	if (!c.buf)
		return -ENOMEM;
	t0 = dev_now_ns(dev);
	ret = cap_search(&c);
	r->device_ns = dev_now_ns(dev) - t0;
	dev_free_buf(c.buf);
	return ret;
}

/* What the kind means, in a line. */
static void cap_print_kind(FILE *out, const struct capacity_result *r)
{
	char a[FMT_LEN], b[FMT_LEN];

	fmt_size(a, r->usable_byte);
	switch (r->kind) {
	case CAPACITY_GENUINE:
		fprintf(out, "kind:           genuine: every block written came back\n");
		break;
	case CAPACITY_LIMBO:
		fprintf(out, "kind:           limbo: writes are lost from at most %s (%" PRIu64 ") on,\n"
			"                reads there return %s\n",
			fmt_size(b, r->lost_byte), r->lost_byte,
			r->limbo_garbage ? "garbage" : "zeros");
		break;
	case CAPACITY_WRAP:
		fprintf(out, "kind:           wraparound: addresses repeat every %s (%" PRIu64 " bytes),\n"
			"                a write past it overwrites data below it\n",
			a, r->modulus_byte);
		break;
	case CAPACITY_DAMAGED:
		fprintf(out, "kind:           damaged: blocks below %s did not come back\n",
			a);
		break;
	}
}

/* What to do about it. */
static void cap_print_advice(FILE *out, const struct capacity_result *r,
			     const char *path)
{
	uint64_t lbs = r->logical_block_size ? r->logical_block_size : 512;
	uint64_t start = (1ULL << 20) / lbs;

	if (r->kind == CAPACITY_GENUINE) {
		fprintf(out, "to do:          nothing: all of the card stores data\n");
		return;
	}
	if (r->kind == CAPACITY_DAMAGED || r->usable_byte <= (2ULL << 20)) {
		fprintf(out, "to do:          do not keep data on this card\n");
		return;
	}
	fprintf(out, "to do:          use no more than the usable size: one partition of at most\n"
		"                %" PRIu64 " sectors of %" PRIu64 " bytes from sector %" PRIu64 ", e.g. (this replaces the\n"
		"                whole partition table; format the partition afterwards):\n"
		"                echo 'start=%" PRIu64 ", size=%" PRIu64 ", type=c' | sudo sfdisk %s\n",
		r->usable_byte / lbs - start, lbs, start, start,
		r->usable_byte / lbs - start,
		/* the simulated card has no path to give sfdisk */
		strcmp(path, "simulated card") ? path : "DEVICE");
}

void capacity_print(FILE *out, const struct capacity_result *r,
		    const char *path)
{
	char a[FMT_LEN], b[FMT_LEN], t[FMT_LEN];

	fprintf(out, "announced size: %s (%" PRIu64 " bytes)\n",
		fmt_size(a, r->announced_byte), r->announced_byte);
	fprintf(out, "usable size:    %s (%" PRIu64 " bytes)\n",
		fmt_size(a, r->usable_byte), r->usable_byte);
	cap_print_kind(out, r);
	if (r->cache_byte)
		fprintf(out, "write cache:    at most %s (it held a block the flash lost)\n",
			fmt_size(a, r->cache_byte));
	else
		fprintf(out, "write cache:    none seen (caches up to %s are defeated)\n",
			fmt_size(a, r->flush_byte));
	fprintf(out, "written:        %u blocks of 4KiB and %s in all, in %s of device time\n",
		r->probes, fmt_size(b, r->written_byte),
		fmt_time(t, (int64_t)r->device_ns));
	cap_print_advice(out, r, path);
}

void capacity_json(struct json *j, const struct capacity_result *r)
{
	json_u64(j, "usable_size", r->usable_byte);
	json_u64(j, "announced_size", r->announced_byte);
	json_string(j, "kind", capacity_kind_name(r->kind));
	json_u64(j, "cache_size", r->cache_byte);
	if (r->kind == CAPACITY_WRAP)
		json_u64(j, "modulus", r->modulus_byte);
	else
		json_null(j, "modulus");
	if (r->kind == CAPACITY_LIMBO)
		json_string(j, "limbo_reads",
			    r->limbo_garbage ? "garbage" : "zeros");
	json_u64(j, "cache_defeated_up_to", r->flush_byte);
	json_u64(j, "probes", r->probes);
	json_u64(j, "bytes_written", r->written_byte);
	json_u64(j, "device_ns", r->device_ns);
}

int capacity_run(struct device *dev, const struct bench_opts *o, FILE *out)
{
	struct capacity_result r;
	int ret = capacity_measure(dev, o, &r);

	if (ret)
		return ret;
	capacity_print(out, &r, dev->path);
	return capacity_short(&r) ? BENCH_SHORT : 0;
}

int capacity_short(const struct capacity_result *r)
{
	return r->kind != CAPACITY_GENUINE;
}
