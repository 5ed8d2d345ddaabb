// SPDX-License-Identifier: GPL-2.0-only
/*
 * Writing past a write cache (record/cacherec.h), for --auto's write-cache
 * step (probes/cachefill.c) and for -L (modes/class.c): chunks written in
 * sequence from 128 MiB on, or 8 AUs on where that is further (past a
 * FAT area and where the class check writes) until the speed drops
 * (verdict/writecache.c decides) or the cap is reached and a margin past
 * it; the refill after idle; and the top-up before a later
 * measurement, chunks written again until one is as slow as the native
 * speed, so that a cache the card folded meanwhile (a real card folds
 * while the host saves what --preserve keeps) is full again.
 */
#include <errno.h>
#include <stdlib.h>

#include "bench.h"
#include "wcache.h"
#include "writecache.h"

#define CACHE_START_BYTE (128ULL << 20)
#define CACHE_PAST_AUS	8	/* a FAT area lies in the first AUs */
#define CACHE_LEAST_AUS	256	/* AUs a card has at least */
#define CACHE_MAX_AU	(64ULL << 20)	/* the largest AU (SDXC) */

/*
 * The AU to keep clear of where none is known: the largest a card of
 * dev_byte bytes has (the SD specification ties the AU to the capacity:
 * no card has only a few dozen AUs), so that the chunks start past a
 * FAT area of AUs of that size too (the older sweep's cards without a
 * read signature: a FAT area of 64 MiB AUs from 128 MiB was named a
 * cache of 192 MiB at 23.9 MB/s).
 */
static uint64_t largest_au(uint64_t dev_byte)
{
	uint64_t au = dev_byte / CACHE_LEAST_AUS;

	return au > CACHE_MAX_AU ? CACHE_MAX_AU : au;
}

int wcache_place(uint64_t cap, uint64_t dev_byte, uint64_t au_byte,
		 struct auto_cache *c)
{
	uint64_t chunk = CACHE_CHUNK_BYTE;
	uint64_t start = CACHE_START_BYTE;

	if (!cap)	/* caches grow with the card's size */
		cap = dev_byte / 64 / chunk * chunk > CACHE_CAP_BYTE ?
		      dev_byte / 64 / chunk * chunk : CACHE_CAP_BYTE;
	while (cap / chunk > CACHE_CAP_CHUNKS)
		chunk *= 2;
	/* past a FAT area, faster in its own right: on a card of large AUs
	 * it reaches past 128 MiB (8 AUs of 32 MiB and more) */
	if (!au_byte)
		au_byte = largest_au(dev_byte);
	if (au_byte <= dev_byte / 8 && au_byte * CACHE_PAST_AUS > start)
		start = au_byte * CACHE_PAST_AUS;
	c->start_byte = start;
	c->chunk_byte = chunk;
	c->dev_half_byte = dev_byte / 2;
	/* the cap and its margin within the first half */
	start += CACHE_MARGIN_CHUNKS * chunk;
	if (dev_byte / 2 < start + cap)
		cap = dev_byte / 2 > start ? dev_byte / 2 - start : 0;
	c->cap_byte = cap / chunk * chunk;
	return c->cap_byte / chunk >= CACHE_FAST_CHUNKS + CACHE_NATIVE_CHUNKS;
}

/* Write chunk k of the range (k counted from its start); its time. */
static int cache_chunk(struct device *dev, const struct auto_cache *c,
		       const void *buf, size_t k, double *ns)
{
	uint64_t t;
	int ret = dev_write(dev, buf, c->chunk_byte,
			    (off_t)(c->start_byte + k * c->chunk_byte), &t);

	*ns = (double)t;
	return ret;
}

/* A chunk's buffer of the 0x5a pattern, or NULL. */
static void *chunk_buf(const struct auto_cache *c)
{
	void *buf = bench_alloc_io_buf(c->chunk_byte);

	if (buf)
		dev_fill(buf, c->chunk_byte, DEV_PAT_5A, 0);
	return buf;
}

int wcache_fill(struct device *dev, const volatile sig_atomic_t *stop,
		struct auto_cache *c)
{
	size_t most = cache_fill_byte(c) / c->chunk_byte;
	void *buf = chunk_buf(c);
	int ret = 0;

	if (!buf)
		return -ENOMEM;
	c->measured = 1;

	while (c->nchunks < most) {
		size_t d;

		ret = cache_chunk(dev, c, buf, c->nchunks,
				  &c->chunk_ns[c->nchunks]);
		if (ret)
			break;
		c->nchunks++;
		d = cache_drop_at(c->chunk_ns, c->nchunks, CACHE_FAST_CHUNKS);
		if (d < c->nchunks && c->nchunks - d >= CACHE_NATIVE_CHUNKS)
			break;
		if (stop && *stop)
			break;
	}
	free(buf);
	auto_cache_decide(c);
	return ret;
}

int wcache_refill(struct device *dev, struct auto_cache *c)
{
	size_t most = c->size_byte / c->chunk_byte + CACHE_RUN + 1;
	size_t slow = 0;
	void *buf;
	int ret;

	if (most > c->nchunks)
		most = c->nchunks;
	if (most > CACHE_REFILL_CHUNKS)
		most = CACHE_REFILL_CHUNKS;
	if (!c->dropped)
		return 0;
	buf = chunk_buf(c);
	if (!buf)
		return -ENOMEM;
	ret = dev_idle(dev, CACHE_IDLE_NS);
	if (ret)
		goto out_free;
	c->idle_ns = CACHE_IDLE_NS;
	while (c->nrefill < most && slow < CACHE_RUN) {
		ret = cache_chunk(dev, c, buf, c->nrefill,
				  &c->refill_ns[c->nrefill]);
		if (ret)
			goto out_free;
		slow = c->refill_ns[c->nrefill] > cache_full_ns(c) ?
		       slow + 1 : 0;
		c->nrefill++;
	}
	auto_cache_decide(c);
out_free:
	free(buf);
	return ret;
}

/*
 * Does chunk k of the fill end inside an AU of erase bytes (0: not
 * known)?  The top-up goes on to its end: an AU left written in part
 * would cost the next step a copy when the card closes it.
 */
static int mid_au(const struct auto_cache *c, size_t k, uint64_t erase)
{
	return erase && (c->start_byte + (k + 1) * c->chunk_byte) % erase;
}

int wcache_topup(struct device *dev, struct auto_cache *c, uint64_t erase)
{
	size_t most, k;
	int full = 0, ret = 0;
	double ns;
	void *buf;

	if (!cache_seen(c))
		return 0;
	buf = chunk_buf(c);
	if (!buf)
		return -ENOMEM;
	most = c->size_byte / c->chunk_byte + CACHE_RUN +
	       erase / c->chunk_byte;
	k = 0;		/* from an AU's start: none written in part */
	if (erase && !((erase - c->start_byte % erase) % c->chunk_byte))
		k = (erase - c->start_byte % erase) % erase / c->chunk_byte;
	for (most += k; k < most && (!full || mid_au(c, k - 1, erase)); k++) {
		ret = cache_chunk(dev, c, buf, k % c->nchunks, &ns);
		if (ret)
			break;
		c->topup_byte += c->chunk_byte;
		full |= ns > cache_full_ns(c);
	}
	c->topups++;
	free(buf);
	return ret;
}

int wcache_recheck(struct device *dev, struct auto_cache *c,
		   unsigned int run)
{
	size_t fast = 0, slow = 0;
	void *buf;
	int ret = 0;

	if (!cache_recheck_wanted(c))
		return 0;
	buf = chunk_buf(c);
	if (!buf)
		return -ENOMEM;
	c->rechecks++;
	c->nlate = 0;
	c->late_run = run < CACHE_RUN ? CACHE_RUN :
		      run > CACHE_LATE_CHUNKS - CACHE_LATE_FAST ?
		      CACHE_LATE_CHUNKS - CACHE_LATE_FAST : run;
	while (c->nlate < CACHE_LATE_CHUNKS && slow < c->late_run &&
	       fast < CACHE_LATE_FAST) {
		ret = cache_chunk(dev, c, buf, c->nlate,
				  &c->late_ns[c->nlate]);
		if (ret)
			break;
		if (c->late_ns[c->nlate++] > CACHE_DROP * c->fast_ns) {
			slow++;
		} else {
			fast++;
			slow = 0;
		}
	}
	free(buf);
	auto_cache_decide(c);
	return ret;
}

int wcache_push(struct device *dev, struct auto_cache *c, size_t most)
{
	size_t span, k, slow = 0;
	int ret = 0;
	void *buf;
	double ns;

	/* wanted only where the fill reached its cap: nchunks > 0 */
	if (!cache_recheck_wanted(c))
		return 0;
	span = c->nchunks < CACHE_LATE_CHUNKS ? c->nchunks : CACHE_LATE_CHUNKS;
	buf = chunk_buf(c);
	if (!buf)
		return -ENOMEM;
	/* within the recheck's chunks: announced with the later steps */
	for (k = 0; k < most && slow < CACHE_RUN; k++) {
		ret = cache_chunk(dev, c, buf, k % span, &ns);
		if (ret)
			break;
		c->topup_byte += c->chunk_byte;
		slow = ns > CACHE_DROP * c->fast_ns ? slow + 1 : 0;
	}
	free(buf);
	return ret;
}

int wcache_later_range(const struct auto_cache *c, int recheck,
		       struct bench_range *rg)
{
	size_t n = c->nchunks;

	if (!cache_seen(c) && !(recheck && cache_recheck_wanted(c)))
		return 0;
	if (!cache_seen(c) && n > CACHE_LATE_CHUNKS)
		n = CACHE_LATE_CHUNKS;	/* a recheck's at most */
	rg->start_byte = c->start_byte;
	rg->end_byte = c->start_byte + n * c->chunk_byte;
	return 1;
}
