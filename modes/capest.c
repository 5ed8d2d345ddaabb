// SPDX-License-Identifier: GPL-2.0-only
/*
 * --capacity's estimate of its own duration.
 *
 * The device is timed first: two parts of the flush region (what its
 * flush writes, one call at a time; the second gives its pace, past
 * what opening an AU costs), then the 4 KiB blocks of round 1's first
 * four probes, and its further ones until one write pays for a
 * collection (a probe costs what a write into an AU not open costs),
 * each read and written back as read (no data changes), all in
 * ranges the check overwrites and announces; it comes after --preserve's
 * save, which journals it (on a wraparound fake with a cache even a
 * block written back as read can read back changed elsewhere).  The
 * device's clock times it (the check's own device time starts after).
 *
 * Then the plan (capacity.c): round 1 writes 7 probes and the top chunk,
 * the flush region's first part (32 MiB at most) watching the last
 * probe, reads the probes, scans a block every part above the flush
 * region and every chunk below it, and reads the flush region's first
 * part back.  A fake is found there (a wraparound) or bounded (a limbo
 * fake, which skips the flush when its top block was lost at once, then
 * takes a dozen later rounds of a probe and a read each: the figure for
 * a fake counts half of them, and half the flush); a genuine card
 * flushes the rest of the region and reads the probes and the scan
 * again: the most it takes.  --preserve reads, as the check first writes
 * into it, each range it writes, a long one by the MiB (the save; the
 * fingerprint's windows before) and, after, reads what was written,
 * writes it back where it changed (on a limbo fake, only the couple of
 * probes that came back) and reads the ranges saved again.
 */
#include <errno.h>
#include <string.h>

#include "c.h"
#include "capacity.h"
#include "capest.h"
#include "format.h"
#include "wrap.h"
#include "sim.h"

#define EST_BLOCK	4096ULL
#define EST_FIRST	(32ULL << 20)	/* round 1's flush, at most */
#define EST_PARTS	32ULL		/* ... in parts */
#define EST_CHUNK	(1ULL << 20)	/* the top chunk, at most */
#define EST_ROUND1	8ULL		/* probes of round 1 */
#define EST_WATCH	6ULL		/* reads of the watched probe */
#define EST_ROUNDS	6ULL		/* later rounds of a fake: none on a
					 * wraparound, a dozen on limbo */
#define EST_TIMED	4U		/* blocks timed, at least */
#define EST_SLOW	4U		/* a write slower than the fastest by
					 * this paid for a collection */
#define EST_PRINT	32ULL		/* --preserve's fingerprint: reads */
#define EST_PRINT_BYTE	(2ULL * (1 << 20) + 30 * (64 << 10))	/* bytes */
#define EST_KEPT	2ULL		/* a limbo fake's probes that came
					 * back and go back: a couple */
#define EST_PIECE	(1ULL << 20)	/* --preserve saves in pieces of it */

/* The clock that counts untimed I/O too. */
static uint64_t est_clock(struct device *dev)
{
	struct device *b = dev;
	uint64_t ns;

	while (b->inner)
		b = b->inner;
	return sim_total_ns(b, &ns) ? ns : dev_now_ns(dev);
}

/* Read len bytes at off and write them back; the two times.  0/-errno. */
static int est_time(struct device *dev, void *buf, uint64_t len,
		    uint64_t off, uint64_t *read_ns, uint64_t *write_ns)
{
	uint64_t t0 = est_clock(dev), t1;
	int ret = dev_read(dev, buf, len, (off_t)off, NULL);

	t1 = est_clock(dev);
	if (!ret)
		ret = dev_write(dev, buf, len, (off_t)off, NULL);
	*read_ns = t1 - t0;
	*write_ns = est_clock(dev) - t1;
	return ret;
}

/*
 * Time the blocks of round 1's probes, in its order (the check writes
 * them next, into the AUs this leaves open, so the card's state, and the
 * check's own timings, hardly move): the slowest write is what a probe
 * costs once the card's open AUs are taken (a collection), the reads'
 * mean what a read far out costs.  The first four, and on up to the top
 * block while none was EST_SLOW times slower than the fastest: a card
 * that keeps more AUs open than that took every one without a
 * collection, and pays one for each probe of the check when it keeps
 * fewer than round 1 writes (a small card, whose flush region lies in
 * its FAT area, leaves the four timed alone in its open AUs).  0 or
 * -errno.
 */
static int est_blocks(struct device *dev, void *buf, uint64_t w,
		      struct capacity_estimate *e)
{
	uint64_t grid = dev->size_byte / 256 / EST_BLOCK * EST_BLOCK;
	uint64_t lo0 = (2 * w + EST_BLOCK - 1) / grid, r, wr, rsum = 0;
	uint64_t fast = UINT64_MAX;
	unsigned int j;
	int ret = 0;

	for (j = 1; j <= EST_ROUND1 && !ret; j++) {
		uint64_t k = lo0 + ((256 - lo0) * j + EST_ROUND1 - 1) /
				   EST_ROUND1, end;

		if (j > EST_TIMED && e->write_block_ns > EST_SLOW * fast)
			break;
		end = k >= 256 ? dev->size_byte : k * grid;
		ret = est_time(dev, buf, EST_BLOCK, end - EST_BLOCK, &r, &wr);
		rsum += r;
		fast = min(fast, wr);
		e->write_block_ns = max(e->write_block_ns, wr);
	}
	e->read_block_ns = rsum / (j - 1);
	return ret;
}

/* Reads of the wraparound scan with step bytes above the flush region. */
static uint64_t est_scan(uint64_t size, uint64_t w, uint64_t first,
			 uint64_t chunk, uint64_t step)
{
	return (size - 2 * w) / step + (w + first + 2 * chunk) / chunk;
}

/* The plan's costs from the timings in e, with --flush=flush_byte. */
static void est_plan(struct capacity_estimate *e, uint64_t size, uint64_t w,
		     uint64_t flush_byte)
{
	const struct bench_opts fo = { .flush_byte = flush_byte };
	uint64_t first = w < EST_FIRST ? w : EST_FIRST, p = e->part_byte;
	uint64_t grid = size / 256 / EST_BLOCK * EST_BLOCK;
	uint64_t chunk = grid < EST_CHUNK ? grid : EST_CHUNK;
	uint64_t rb = e->read_block_ns, wb = e->write_block_ns;
	uint64_t rp = e->read_part_ns, wp = e->write_part_ns, half, piece;
	uint64_t print, pieces, pieces_fake;
	int n = capacity_write_ranges(BENCH_CAPACITY, &fo, size, NULL, 0);
	uint64_t blocks;

	/* a wraparound writes and reads the first flush, limbo not: half */
	e->fake_ns = (EST_ROUND1 - 1) * wb + chunk / p * wp +
		     first / p * wp / 2 +
		     (EST_WATCH + EST_ROUND1 +
		      est_scan(size, w, first, chunk, first)) * rb +
		     first / p * rp / 2;
	half = w / 2 > EST_BLOCK ? w / 2 : EST_BLOCK;
	e->genuine_ns = e->fake_ns + first / p * (wp + rp) / 2 +
			(w - first) / p * wp +
			(EST_WATCH + EST_ROUND1 +
			 est_scan(size, w, first, chunk, half)) * rb;
	/* half a limbo fake's later rounds, on top of round 1 */
	e->fake_ns += EST_ROUNDS * (wb + rb);
	if (e->fake_ns > e->genuine_ns)
		e->fake_ns = e->genuine_ns;
	/*
	 * every range but the flush region and the top chunk is a block;
	 * saved lazily, only the pieces the run writes into are read, with
	 * the fingerprint's windows: the probes, each a read far out, the
	 * top chunk and the flush region (the timing's piece on a limbo
	 * fake, all of it on a genuine card)
	 */
	blocks = n > 2 ? (uint64_t)n - 2 : 0;
	if (blocks > EST_ROUND1 + EST_ROUNDS)
		blocks = EST_ROUND1 + EST_ROUNDS;
	piece = w < EST_PIECE ? w : EST_PIECE;
	print = size < EST_PRINT_BYTE ? size : EST_PRINT_BYTE;
	print = EST_PRINT * rb + print / p * rp;
	pieces = blocks * rb + (w + chunk) / p * rp;
	pieces_fake = blocks * rb + (piece + chunk) / p * rp;
	e->save_ns = print + pieces;
	e->save_fake_ns = print + pieces_fake;
	/*
	 * what was written is read, and written back where it changed (on
	 * a limbo fake, the probes that came back: a couple), then read
	 * again
	 */
	e->back_fake_ns = EST_KEPT * wb + 2 * pieces_fake;
	e->back_ns = EST_ROUND1 * wb + (w + chunk) / p * wp + 2 * pieces;
	if (e->save_fake_ns > e->save_ns)
		e->save_fake_ns = e->save_ns;
	if (e->back_fake_ns > e->back_ns)
		e->back_fake_ns = e->back_ns;
}

/* Note step n of st; the next n. */
static size_t est_step(struct capacity_step *st, size_t n, uint64_t n_io,
		       uint64_t io_byte, const char *label)
{
	st[n].n_io = n_io;
	st[n].io_byte = io_byte;
	st[n].label = label;
	return n + 1;
}

size_t capacity_plan_steps(uint64_t size, uint64_t flush_byte,
			   struct capacity_step st[CAPACITY_STEPS])
{
	uint64_t w, w_end, first, p, grid, chunk, half;
	size_t n = 0;

	if (capacity_flush_region(size, flush_byte, &w, &w_end))
		return 0;
	first = w < EST_FIRST ? w : EST_FIRST;
	p = first / EST_PARTS / EST_BLOCK * EST_BLOCK;
	p = p < EST_BLOCK ? EST_BLOCK : p;
	grid = size / 256 / EST_BLOCK * EST_BLOCK;
	chunk = grid < EST_CHUNK ? grid : EST_CHUNK;
	half = w / 2 > EST_BLOCK ? w / 2 : EST_BLOCK;
	n = est_step(st, n, EST_ROUND1 - 1, EST_BLOCK, "probes");
	n = est_step(st, n, (chunk + p - 1) / p, p, "top chunk");
	n = est_step(st, n, first / p, p, "flush");
	n = est_step(st, n, EST_WATCH + EST_ROUND1 +
			    est_scan(size, w, first, chunk, first),
		     EST_BLOCK, "read back");
	/* w is set by capacity_flush_region(), which cppcheck cannot see */
	// cppcheck-suppress knownConditionTrueFalse
	if (w > first) {
		n = est_step(st, n, (w - first) / p, p, "flush, all of it");
		n = est_step(st, n, EST_WATCH + EST_ROUND1 +
				    est_scan(size, w, first, chunk, half),
			     EST_BLOCK, "read back again");
	}
	n = est_step(st, n, first / p, p, "flush region read back");
	return n;
}

int capacity_estimate(struct device *dev, uint64_t flush_byte,
		      struct capacity_estimate *e)
{
	uint64_t w, w_end, first;
	void *buf;
	int ret;

	memset(e, 0, sizeof(*e));
	if (capacity_flush_region(dev->size_byte, flush_byte, &w, &w_end))
		return -EINVAL;
	first = w < EST_FIRST ? w : EST_FIRST;
	e->part_byte = first / EST_PARTS / EST_BLOCK * EST_BLOCK;
	if (e->part_byte < EST_BLOCK)
		e->part_byte = EST_BLOCK;
	buf = dev_alloc_buf(e->part_byte);
	if (!buf)
		return -ENOMEM;
	/* the second part: the flush's pace, past opening an AU */
	ret = est_time(dev, buf, e->part_byte, w, &e->read_part_ns,
		       &e->write_part_ns);
	if (!ret)
		ret = est_time(dev, buf, e->part_byte, w + e->part_byte,
			       &e->read_part_ns, &e->write_part_ns);
	if (!ret)
		ret = est_blocks(dev, buf, w, e);
	dev_free_buf(buf);
	if (!ret)
		est_plan(e, dev->size_byte, w, flush_byte);
	return ret;
}

/* "1.31ms to 6.44ms" in buf, or "1.31ms" when both print the same. */
static const char *time_span(char *buf, size_t len, uint64_t lo_ns,
			     uint64_t hi_ns)
{
	char lo[FMT_LEN], hi[FMT_LEN];

	fmt_time(lo, (int64_t)lo_ns);
	fmt_time(hi, (int64_t)hi_ns);
	if (strcmp(lo, hi))
		snprintf(buf, len, "%s to %s", lo, hi);
	else
		snprintf(buf, len, "%s", hi);
	return buf;
}

void capacity_estimate_print(FILE *err, const struct capacity_estimate *e,
			     int save)
{
	char a[FMT_LEN], b[FMT_LEN];
	struct wrap w;

	err = wrap_begin(&w, err, "flashbench:   ");

	if (e->fake_ns < e->genuine_ns)
		fprintf(err, "flashbench: --capacity should take about %s (a fake) to %s (a genuine card) of device time",
			fmt_time(a, (int64_t)e->fake_ns),
			fmt_time(b, (int64_t)e->genuine_ns));
	else
		fprintf(err, "flashbench: --capacity should take about %s of device time",
			fmt_time(b, (int64_t)e->genuine_ns));
	/* (from a limbo fake found at once to a genuine card: one figure
	 * where the two print alike) */
	if (save) {
		char s[2 * FMT_LEN + 8], k[2 * FMT_LEN + 8];

		fprintf(err, ", and --preserve about %s to save and %s to write back",
			time_span(s, sizeof(s), e->back_fake_ns < e->back_ns ?
				  e->save_fake_ns : e->save_ns, e->save_ns),
			time_span(k, sizeof(k), e->back_fake_ns < e->back_ns ?
				  e->back_fake_ns : e->back_ns, e->back_ns));
	}
	fprintf(err, " (a 4KiB write far out took up to %s here)\n",
		fmt_time(a, (int64_t)e->write_block_ns));
	wrap_end(&w);
}
