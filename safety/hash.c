// SPDX-License-Identifier: GPL-2.0-only
/*
 * The hashing of --preserve: a 64-bit streaming hash (struct phash, in
 * presint.h), and what is hashed with it: a journal record (its range and
 * data, or in version 3 its range alone), one block, a saved block's tag.
 */
#include <string.h>

#include "presint.h"

/* ---- hashing ---- */

#define PH_P1	0x9e3779b185ebca87ULL
#define PH_P2	0xc2b2ae3d27d4eb4fULL
#define PH_P3	0x165667b19e3779f9ULL

static uint64_t rotl64(uint64_t x, unsigned int r)
{
	return x << r | x >> (64 - r);
}

void pv_ph_init(struct phash *h, uint64_t seed)
{
	h->acc = seed + PH_P3;
	h->len_byte = 0;
	h->ntail = 0;
}

static void ph_word(struct phash *h, uint64_t w)
{
	h->acc = rotl64(h->acc + w * PH_P2, 31) * PH_P1;
}

void pv_ph_update(struct phash *h, const void *p, size_t len)
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

void pv_ph_u64(struct phash *h, uint64_t v)
{
	unsigned char b[8];

	put_le64(b, v);
	pv_ph_update(h, b, sizeof(b));
}

uint64_t pv_ph_final(const struct phash *h)
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
uint64_t pv_range_hash(const struct preserve_range *r)
{
	struct phash h;

	pv_ph_init(&h, 0);
	pv_ph_u64(&h, r->off_byte);
	pv_ph_u64(&h, r->len_byte);
	pv_ph_update(&h, r->data, r->len_byte);
	return pv_ph_final(&h);
}

/* The hash of one block of a range's contents at byte off. */
uint64_t pv_block_hash(uint64_t off, const unsigned char *data,
		       unsigned int lbs)
{
	struct phash h;

	pv_ph_init(&h, off);
	pv_ph_update(&h, data, lbs);
	return pv_ph_final(&h);
}

/* A version 3 record's hash: of its offset and length (the plan). */
uint64_t pv_plan_hash(const struct preserve_range *r)
{
	struct phash h;

	pv_ph_init(&h, 0);
	pv_ph_u64(&h, r->off_byte);
	pv_ph_u64(&h, r->len_byte);
	return pv_ph_final(&h);
}

/* A saved block's tag in a version 3 state: its hash, never 0 (unsaved). */
uint64_t pv_saved_tag(uint64_t off, const unsigned char *data,
		      unsigned int lbs)
{
	uint64_t h = pv_block_hash(off, data, lbs);

	return h ? h : 1;
}
