// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the simulated card stores (see sim.c, Fake cards): the data its
 * reads return and its writes leave, through the write cache (through
 * or back) and the fakes past real_size, over the sparse sector maps of
 * simstore.c.  Data only: nothing here costs time.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "simint.h"
#include "simstore.h"

#define SIM_RUN_MIN_BYTE (256U << 10)	/* a write kept as a run, at least */

/* Garbage a limbo address reads as: fixed per sector and seed. */
static void sim_garbage(const struct sim_card *c, unsigned char *out,
			uint64_t sector)
{
	uint64_t st = c->p.seed ^ (sector * 0x9e3779b97f4a7c15ULL) ^
		      0x6761726261676500ULL, w;
	size_t i;

	for (i = 0; i < SIM_SECTOR; i += sizeof(w)) {
		w = sim_rand_of(&st);
		memcpy(out + i, &w, sizeof(w));
	}
}

/* Is a write cache entry of sequence seq still held? */
static bool sim_cached(const struct sim_card *c, uint64_t seq)
{
	if (c->p.cache_kind == SIM_CACHE_BACK)
		return seq >= c->cache_lo;
	return c->wseq - seq < c->p.cache_byte / SIM_SECTOR;
}

/* Fill one sector of a read at byte address a into out. */
static void sim_data_sector(const struct sim_card *c, unsigned char *out,
			    uint64_t a)
{
	uint64_t seq;

	if (c->p.cache_byte &&
	    simstore_get(&c->cache, a / SIM_SECTOR, out, &seq) &&
	    sim_cached(c, seq))
		return;
	if (a >= c->real_byte) {
		if (c->p.fake == SIM_FAKE_WRAP) {
			a %= c->real_byte;
		} else {
			if (c->p.fake == SIM_FAKE_LIMBO_GARBAGE)
				sim_garbage(c, out, a / SIM_SECTOR);
			else
				memset(out, 0, SIM_SECTOR);
			return;
		}
	}
	if (!simstore_get(&c->flash, a / SIM_SECTOR, out, NULL))
		memset(out, 0, SIM_SECTOR);
}

/* What a read of len bytes at first returns, into buf. */
void sim_data_read(const struct sim_card *c, void *buf, size_t len,
		   uint64_t first)
{
	unsigned char *out = buf;
	size_t i;

	if (simstore_empty(&c->flash) && simstore_empty(&c->cache) &&
	    c->real_byte == c->p.size_byte) {
		memset(buf, 0, len);	/* nothing written yet */
		return;
	}
	for (i = 0; i < len; i += SIM_SECTOR)
		sim_data_sector(c, out + i, first + i);
}

/* Keep the cache's memory to about twice what it holds. */
static int sim_cache_trim(struct sim_card *c)
{
	uint64_t held = c->p.cache_byte / SIM_SECTOR;

	if (c->cache.nr < 2 * held + 1024)
		return 0;
	if (c->p.cache_kind == SIM_CACHE_BACK)
		return simstore_prune(&c->cache, c->cache_lo);
	return simstore_prune(&c->cache, c->wseq - held);
}

/* Put sector data, written at byte address a, on the flash. */
static int sim_flash_put(struct sim_card *c, uint64_t a, const void *data,
			 uint64_t seq)
{
	if (a >= c->real_byte) {
		if (c->p.fake != SIM_FAKE_WRAP)
			return 0;	/* lost in limbo */
		a %= c->real_byte;
	}
	return simstore_put(&c->flash, a / SIM_SECTOR, data, seq);
}

/* Is queue entry e the cached copy of its sector? */
static bool sim_wq_live(const struct sim_card *c, const struct sim_wq *e)
{
	unsigned char tmp[SIM_SECTOR];
	uint64_t seq;

	return e->seq >= c->cache_lo &&
	       simstore_get(&c->cache, e->sector, tmp, &seq) && seq == e->seq;
}

/* Note a write-back write in the queue, dropping superseded entries. */
static int sim_wq_push(struct sim_card *c, uint64_t sector, uint64_t seq)
{
	if (c->wq_len == c->wq_cap) {
		size_t i, n = 0;

		for (i = c->wq_head; i < c->wq_len; i++)
			if (sim_wq_live(c, &c->wq[i]))
				c->wq[n++] = c->wq[i];
		c->wq_head = 0;
		c->wq_len = n;
	}
	/* grow when compacting freed less than half */
	if (!c->wq_cap || c->wq_len > c->wq_cap / 2) {
		size_t cap = c->wq_cap ? 2 * c->wq_cap : 1024;
		struct sim_wq *q = realloc(c->wq, cap * sizeof(*q));

		if (!q)
			return -ENOMEM;
		c->wq = q;
		c->wq_cap = cap;
	}
	c->wq[c->wq_len].sector = sector;
	c->wq[c->wq_len++].seq = seq;
	return 0;
}

/* Push the oldest sector the write-back cache holds to the flash. */
static int sim_wq_evict(struct sim_card *c)
{
	unsigned char data[SIM_SECTOR];

	while (c->wq_head < c->wq_len) {
		struct sim_wq e = c->wq[c->wq_head++];

		if (!sim_wq_live(c, &e))
			continue;	/* superseded */
		simstore_get(&c->cache, e.sector, data, NULL);
		c->cache_lo = e.seq + 1;
		c->cache_nr--;
		return sim_flash_put(c, e.sector * SIM_SECTOR, data, e.seq);
	}
	return 0;
}

/* A write-back write of one sector at byte address a.  0 or -ENOMEM. */
static int sim_write_back(struct sim_card *c, const unsigned char *in,
			  uint64_t a)
{
	unsigned char tmp[SIM_SECTOR];
	uint64_t seq, sector = a / SIM_SECTOR;

	if (!(simstore_get(&c->cache, sector, tmp, &seq) &&
	      seq >= c->cache_lo)) {
		if (c->cache_nr >= c->p.cache_byte / SIM_SECTOR &&
		    sim_wq_evict(c))
			return -ENOMEM;
		c->cache_nr++;
	}
	if (simstore_put(&c->cache, sector, in, c->wseq) ||
	    sim_wq_push(c, sector, c->wseq))
		return -ENOMEM;
	return sim_cache_trim(c);
}

/*
 * A long write of one byte value throughout onto the flash alone (no
 * cache= in front, all of it stored): one run, not a sector each, which
 * costs a write-cache step's hundreds of MiB no memory and little time.
 * Returns 1 when stored so, 0 when not such a write, or -ENOMEM.
 */
static int sim_data_run(struct sim_card *c, const unsigned char *in,
			size_t len, uint64_t first)
{
	uint64_t n = len / SIM_SECTOR;

	if (len < SIM_RUN_MIN_BYTE || c->p.cache_byte ||
	    first + len > c->real_byte || memcmp(in, in + 1, len - 1))
		return 0;
	c->wseq += n;
	if (simstore_put_run(&c->flash, first / SIM_SECTOR, n, in[0],
			     c->wseq - n + 1))
		return -ENOMEM;
	return 1;
}

/* Store a write of len bytes at first.  Returns 0 or -ENOMEM. */
int sim_data_write(struct sim_card *c, const void *buf, size_t len,
		   uint64_t first)
{
	const unsigned char *in = buf;
	size_t i;
	int ret = sim_data_run(c, in, len, first);

	if (ret)
		return ret < 0 ? ret : 0;

	for (i = 0; i < len; i += SIM_SECTOR) {
		uint64_t a = first + i;

		c->wseq++;
		if (c->p.cache_byte && c->p.cache_kind == SIM_CACHE_BACK) {
			if (sim_write_back(c, in + i, a))
				return -ENOMEM;
			continue;
		}
		if (c->p.cache_byte &&
		    (simstore_put(&c->cache, a / SIM_SECTOR, in + i,
				  c->wseq) || sim_cache_trim(c)))
			return -ENOMEM;
		if (sim_flash_put(c, a, in + i, c->wseq))
			return -ENOMEM;
	}
	return 0;
}
