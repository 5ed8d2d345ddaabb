// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulated card's sparse sector map (see simstore.h): an open
 * addressing hash table with linear probing, grown at half full.
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
			free(e->data);
			continue;
		}
		*simstore_slot(s, e->key) = *e;
		s->nr++;
	}
	free(old.tab);
	return 0;
}

/* Is every byte of the sector the same? */
static int simstore_uniform(const unsigned char *d)
{
	size_t i;

	for (i = 1; i < SIMSTORE_SECTOR; i++)
		if (d[i] != d[0])
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
		free(e->data);
		e->data = NULL;
		e->fill = d[0];
		return 0;
	}
	if (!e->data) {
		e->data = malloc(SIMSTORE_SECTOR);
		if (!e->data) {
			e->fill = 0;
			return -ENOMEM;
		}
	}
	memcpy(e->data, d, SIMSTORE_SECTOR);
	return 0;
}

int simstore_get(const struct simstore *s, uint64_t sector, void *out,
		 uint64_t *seq)
{
	const struct simstore_ent *e;

	if (!s->nr)
		return 0;
	e = simstore_slot(s, sector + 1);
	if (!e->key)
		return 0;
	if (e->data)
		memcpy(out, e->data, SIMSTORE_SECTOR);
	else
		memset(out, e->fill, SIMSTORE_SECTOR);
	if (seq)
		*seq = e->seq;
	return 1;
}

int simstore_prune(struct simstore *s, uint64_t min_seq)
{
	return s->cap ? simstore_rehash(s, s->cap, min_seq) : 0;
}

void simstore_free(struct simstore *s)
{
	size_t i;

	for (i = 0; i < s->cap; i++)
		free(s->tab[i].data);
	free(s->tab);
	memset(s, 0, sizeof(*s));
}
