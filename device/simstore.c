// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulated card's sparse sector map (see simstore.h): an open
 * addressing hash table with linear probing, grown at half full, beside
 * it the runs of sectors of one byte value, sorted, and the pool of slabs
 * that holds the other sectors' bytes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "simstore.h"

/* Mix a sector number into a slot index. */
static size_t simstore_hash(uint64_t key, size_t cap)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdULL;
	key ^= key >> 33;
	return (size_t)key & (cap - 1);
}

/* The slot of key, or the empty slot where it would go. */
static struct simstore_ent *simstore_slot(const struct simstore *s,
					  uint64_t key)
{
	size_t i = simstore_hash(key, s->cap);

	while (s->tab[i].key && s->tab[i].key != key)
		i = (i + 1) & (s->cap - 1);
	return &s->tab[i];
}

/* The bytes of the pool's place id (1, 2, ...). */
static unsigned char *simstore_bytes(const struct simstore *s, uint32_t id)
{
	size_t k = id - 1;

	return s->slabs[k / SIMSTORE_SLAB] +
	       k % SIMSTORE_SLAB * SIMSTORE_SECTOR;
}

/* A place for one sector's bytes: a freed one, or the next.  0: none. */
static uint32_t simstore_take(struct simstore *s)
{
	uint32_t id = s->free_head;
	unsigned char **slabs;

	if (id) {
		memcpy(&s->free_head, simstore_bytes(s, id),
		       sizeof(s->free_head));
		return id;
	}
	if (s->used == UINT32_MAX)
		return 0;
	if (s->used == s->nslabs * SIMSTORE_SLAB) {
		slabs = realloc(s->slabs, (s->nslabs + 1) * sizeof(*slabs));
		if (!slabs)
			return 0;
		s->slabs = slabs;
		slabs[s->nslabs] = malloc(SIMSTORE_SLAB * SIMSTORE_SECTOR);
		if (!slabs[s->nslabs])
			return 0;
		s->nslabs++;
	}
	return ++s->used;
}

/* Give place id back to the pool (0: nothing). */
static void simstore_give(struct simstore *s, uint32_t id)
{
	if (!id)
		return;
	memcpy(simstore_bytes(s, id), &s->free_head, sizeof(s->free_head));
	s->free_head = id;
}

/* Move every entry with seq >= min_seq into a table of cap slots. */
static int simstore_rehash(struct simstore *s, size_t cap, uint64_t min_seq)
{
	struct simstore old = *s;
	size_t i;

	s->tab = calloc(cap, sizeof(*s->tab));
	if (!s->tab) {
		*s = old;
		return -ENOMEM;
	}
	s->cap = cap;
	s->nr = 0;
	for (i = 0; i < old.cap; i++) {
		struct simstore_ent *e = &old.tab[i];

		if (!e->key)
			continue;
		if (e->seq < min_seq) {
			simstore_give(s, e->data);
			continue;
		}
		*simstore_slot(s, e->key) = *e;
		s->nr++;
	}
	free(old.tab);
	return 0;
}

/* A word read from any address (under ASan, a load checked inline). */
typedef uint64_t __attribute__((may_alias, aligned(1))) simstore_word;

/*
 * Is every byte of the sector the same?  A word at a time, and out at
 * the first that differs (random data: the first): every sector of
 * every write passes here, and qemu and the sanitizers pay per step (a
 * memcpy() per word would be a call under ASan).
 */
static int simstore_uniform(const unsigned char *d)
{
	const simstore_word *p = (const simstore_word *)d;
	uint64_t w;
	size_t i;

	memset(&w, d[0], sizeof(w));
	for (i = 0; i < SIMSTORE_SECTOR / sizeof(w); i++)
		if (p[i] != w)
			return 0;
	return 1;
}

int simstore_put(struct simstore *s, uint64_t sector, const void *data,
		 uint64_t seq)
{
	const unsigned char *d = data;
	struct simstore_ent *e;

	if (2 * (s->nr + 1) > s->cap &&
	    simstore_rehash(s, s->cap ? 2 * s->cap : 1024, 0))
		return -ENOMEM;
	e = simstore_slot(s, sector + 1);
	if (!e->key) {
		e->key = sector + 1;
		s->nr++;
	}
	e->seq = seq;
	if (simstore_uniform(d)) {
		simstore_give(s, e->data);
		e->data = 0;
		e->fill = d[0];
		return 0;
	}
	if (!e->data) {
		e->data = simstore_take(s);
		if (!e->data) {
			e->fill = 0;
			return -ENOMEM;
		}
	}
	memcpy(simstore_bytes(s, e->data), d, SIMSTORE_SECTOR);
	return 0;
}

/* The index of the first run that ends after sector (nruns: none). */
static size_t simstore_run_after(const struct simstore *s, uint64_t sector)
{
	size_t lo = 0, hi = s->nruns;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->runs[mid].end <= sector)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Room for k more runs.  0 or -ENOMEM. */
static int simstore_runs_room(struct simstore *s, size_t k)
{
	struct simstore_run *r;
	size_t cap;

	if (s->nruns + k <= s->runs_cap)
		return 0;
	cap = s->runs_cap ? 2 * s->runs_cap : 16;
	while (cap < s->nruns + k)
		cap *= 2;
	r = realloc(s->runs, cap * sizeof(*r));
	if (!r)
		return -ENOMEM;
	s->runs = r;
	s->runs_cap = cap;
	return 0;
}

/* Does run a go on where run b begins (b written right after a)? */
static int simstore_runs_join(const struct simstore_run *a,
			      const struct simstore_run *b)
{
	return a->end == b->first && a->fill == b->fill &&
	       a->seq + (a->end - a->first) == b->seq;
}

int simstore_put_run(struct simstore *s, uint64_t first, uint64_t n,
		     unsigned char fill, uint64_t seq)
{
	struct simstore_run nw = { first, first + n, seq, fill };
	struct simstore_run piece[3];
	size_t lo, hi, k = 0;

	if (!n)
		return 0;
	if (simstore_runs_room(s, 2))
		return -ENOMEM;
	/* the runs [lo, hi) overlap the new one: cut to what is outside */
	lo = simstore_run_after(s, first);
	for (hi = lo; hi < s->nruns && s->runs[hi].first < nw.end; hi++)
		;
	if (lo < hi && s->runs[lo].first < first) {
		piece[k] = s->runs[lo];
		piece[k++].end = first;
	}
	if (lo && simstore_runs_join(&s->runs[lo - 1], &nw)) {
		lo--;		/* the write goes on from the run before */
		nw.first = s->runs[lo].first;
		nw.seq = s->runs[lo].seq;
	}
	piece[k++] = nw;
	if (lo < hi && s->runs[hi - 1].end > nw.end) {
		piece[k] = s->runs[hi - 1];
		piece[k].seq += nw.end - piece[k].first;
		piece[k++].first = nw.end;
	}
	memmove(s->runs + lo + k, s->runs + hi,
		(s->nruns - hi) * sizeof(*s->runs));
	memcpy(s->runs + lo, piece, k * sizeof(*piece));
	s->nruns = s->nruns - (hi - lo) + k;
	return 0;
}

/* The run holding sector, or NULL. */
static const struct simstore_run *simstore_run_of(const struct simstore *s,
						  uint64_t sector)
{
	size_t i = simstore_run_after(s, sector);

	return i < s->nruns && s->runs[i].first <= sector ? &s->runs[i] :
	       NULL;
}

int simstore_get(const struct simstore *s, uint64_t sector, void *out,
		 uint64_t *seq)
{
	const struct simstore_run *r = simstore_run_of(s, sector);
	const struct simstore_ent *e = NULL;

	if (s->nr) {
		e = simstore_slot(s, sector + 1);
		if (!e->key)
			e = NULL;
	}
	if (r && (!e || r->seq + (sector - r->first) > e->seq)) {
		memset(out, r->fill, SIMSTORE_SECTOR);
		if (seq)
			*seq = r->seq + (sector - r->first);
		return 1;
	}
	if (!e)
		return 0;
	if (e->data)
		memcpy(out, simstore_bytes(s, e->data), SIMSTORE_SECTOR);
	else
		memset(out, e->fill, SIMSTORE_SECTOR);
	if (seq)
		*seq = e->seq;
	return 1;
}

/* Drop the sectors of the runs written before min_seq. */
static void simstore_prune_runs(struct simstore *s, uint64_t min_seq)
{
	size_t i, n = 0;

	for (i = 0; i < s->nruns; i++) {
		struct simstore_run r = s->runs[i];

		if (r.seq + (r.end - r.first) <= min_seq)
			continue;
		if (r.seq < min_seq) {
			r.first += min_seq - r.seq;
			r.seq = min_seq;
		}
		s->runs[n++] = r;
	}
	s->nruns = n;
}

int simstore_prune(struct simstore *s, uint64_t min_seq)
{
	simstore_prune_runs(s, min_seq);
	return s->cap ? simstore_rehash(s, s->cap, min_seq) : 0;
}

void simstore_free(struct simstore *s)
{
	size_t i;

	for (i = 0; i < s->nslabs; i++)
		free(s->slabs[i]);
	free(s->slabs);
	free(s->tab);
	free(s->runs);
	memset(s, 0, sizeof(*s));
}
