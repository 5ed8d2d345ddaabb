// SPDX-License-Identifier: GPL-2.0-only
/*
 * Where --auto's steps read and write: functions of the device's size and
 * logical block size alone, so the front end can save what they overwrite
 * before the first write, and a record read back tells whether the erase
 * search had room.
 */
#include <errno.h>
#include <string.h>

#include "auto.h"
#include "layout.h"

/* The first AU of the open-AU probes: past the FAT probe and 64 MiB. */
uint64_t auto_probe_base(uint64_t erase)
{
	uint64_t base = auto_round_up(64 << 20, erase);

	if (base < 16 * erase)
		base = 16 * erase;
	return base;
}

/*
 * AUs between probe AUs: every 12th, as -O, or closer on a device too
 * small for AUTO_MAX_NR of them so (a 1 GiB card of 24 MiB AUs).
 */
uint64_t auto_probe_spacing(uint64_t dev_size, uint64_t erase)
{
	uint64_t base = auto_probe_base(erase), room;

	room = dev_size > base ? (dev_size - base) / erase : 0;
	room /= AUTO_MAX_NR;
	return room >= AUTO_AU_SPACING ? AUTO_AU_SPACING : room ? room : 1;
}

/* The largest nr the device has room for, at most AUTO_MAX_NR. */
unsigned int auto_probe_max_nr(uint64_t dev_size, uint64_t erase)
{
	uint64_t base = auto_probe_base(erase);
	uint64_t spacing = auto_probe_spacing(dev_size, erase);
	unsigned int nr = 0;

	while (nr < AUTO_MAX_NR &&
	       base + ((uint64_t)nr * spacing + 1) * erase <= dev_size)
		nr++;
	return nr;
}

/* The AUs far from the start that an ordinary AU is measured in. */
uint64_t auto_fat_ref_au(uint64_t dev_size, uint64_t erase, unsigned int j)
{
	return dev_size / erase * 3 / 8 + 7 + (uint64_t)j * AUTO_AU_SPACING;
}

/* How many AUs the FAT probe may look at: at most 64 MiB or 16 AUs. */
unsigned int auto_fat_max_scan(uint64_t dev_size, uint64_t erase)
{
	uint64_t n = (64ULL << 20) / erase;

	if (n < 16)
		n = 16;
	if (n > AUTO_FAT_MAX)
		n = AUTO_FAT_MAX;
	if (n > dev_size / erase / 4)
		n = dev_size / erase / 4;
	return (unsigned int)n;
}

/*
 * It looks at 8 MiB at least (a FAT area at 4-8 MiB on a card of 512 KiB
 * AUs starts at AU 8) and 5 AUs at least (an area a few AUs in), and 2
 * ordinary AUs after the last fast one (each AU looked at costs a garbage
 * collection: the one it closes, of a whole AU on a card of large AUs).
 */
unsigned int auto_fat_min_scan(uint64_t dev_size, uint64_t erase)
{
	uint64_t n = (8ULL << 20) / erase;
	uint64_t max = auto_fat_max_scan(dev_size, erase);

	if (n < 5)
		n = 5;
	return n < max ? (unsigned int)n : (unsigned int)max;
}

int auto_write_ranges(uint64_t dev_size, uint64_t erase_byte,
		      struct bench_range *ranges, size_t max)
{
	unsigned int nr = auto_probe_max_nr(dev_size, erase_byte), i;
	uint64_t base = auto_probe_base(erase_byte);
	size_t n = 0;

	/* the FAT probe's small writes: at the start of each AU */
	for (i = 0; i < auto_fat_max_scan(dev_size, erase_byte); i++) {
		if (n >= max)
			return -ENOSPC;
		ranges[n].start_byte = i * erase_byte;
		ranges[n++].end_byte = i * erase_byte + AUTO_FAT_SPAN;
	}
	for (i = 0; i < nr; i++) {
		uint64_t s = base + (uint64_t)i * erase_byte *
			     auto_probe_spacing(dev_size, erase_byte);

		if (n >= max)
			return -ENOSPC;
		ranges[n].start_byte = s;
		ranges[n++].end_byte = s + erase_byte;
	}
	for (i = 0; i < AUTO_FAT_REFS; i++) {
		uint64_t s = erase_byte *
			     auto_fat_ref_au(dev_size, erase_byte, i);

		if (n >= max)
			return -ENOSPC;
		ranges[n].start_byte = s;
		ranges[n++].end_byte = s + AUTO_FAT_SPAN;
	}
	return (int)ranges_merge(ranges, n);
}

/* The align tables' block sizes, smallest first. */
static const uint64_t block_sizes[AUTO_MAX_TABLES] = {
	1024, 4096, 16384,
};

/* Block size of table i: at least two logical blocks (half-block reads). */
uint64_t auto_table_block(size_t i, unsigned int lbs)
{
	uint64_t bs = block_sizes[i];

	return bs < 2ULL * lbs ? 2ULL * lbs : bs;
}

/* The smallest spacing (3 * 2^n) of a table of bs-byte blocks. */
uint64_t auto_min_spacing(uint64_t bs)
{
	uint64_t spacing = 3;

	while (spacing < 4 * bs)
		spacing <<= 1;
	return spacing;
}

uint64_t auto_min_size(unsigned int lbs)
{
	uint64_t bs = auto_table_block(0, lbs);

	return 7 * auto_min_spacing(bs) + bs;
}

/* The step after warm-up write i: 1 MiB, doubling every 8 writes. */
uint64_t auto_warm_step(const struct search_layout *l, unsigned int i)
{
	uint64_t step = (1ULL << 20) << (i / 8);

	return step < l->warm_cap ? step : l->warm_cap;
}

static uint64_t warm_span(const struct search_layout *l)
{
	uint64_t span = 0;
	unsigned int i;

	for (i = 0; i < AUTO_ERASE_WARMUP; i++)
		span += auto_warm_step(l, i);
	return span;
}

/*
 * Sizes up to top, anchors at multiples of 3 * (the largest power of two
 * up to top), so each is a boundary for every size looked for, near the
 * end of the device, the warm-up walk below them and past the FAT probe.
 * The largest top of 256 MiB down to 4 MiB that fits.
 */
int auto_search_layout(uint64_t dev_size, unsigned int lbs,
		       struct search_layout *l)
{
	uint64_t top, k, p;
	unsigned int j;

	memset(l, 0, sizeof(*l));
	l->chunk = lbs > 4096 ? lbs : 4096;
	for (top = 256ULL << 20; top >= 4ULL << 20; top >>= 1) {
		uint64_t lcm = 3 * top;

		l->top = top;
		l->warm_cap = top / 4 < (64ULL << 20) ? top / 4 : 64ULL << 20;
		if (dev_size < top + 2 * l->chunk + 3 * lcm)
			continue;
		k = (dev_size - top - 2 * l->chunk) / lcm;
		for (j = 0; j < AUTO_ERASE_ANCHORS; j++)
			l->anchor[j] = (k - AUTO_ERASE_ANCHORS + 1 + j) * lcm;
		if (l->anchor[0] < warm_span(l) + 2 * l->chunk + (64ULL << 20))
			continue;
		/*
		 * Two chunks below 1 MiB boundaries: never the last chunk
		 * of an AU, which a card that closes an AU written to its
		 * end (fullclose) would close at once, keeping no slot.
		 */
		l->warm_start = l->anchor[0] - warm_span(l) - 2 * l->chunk;
		for (p = SEARCH_MIN; p <= top && l->ncand + 2 <= SEARCH_MAX_CANDS;
		     p <<= 1) {
			l->cand[l->ncand++] = p;
			if (3 * p / 2 <= top && p >= 2 * SEARCH_MIN)
				l->cand[l->ncand++] = 3 * p / 2;
		}
		/* 3 * 2^n and 2^n interleave: 128K 256K 384K 512K 768K ... */
		return 0;
	}
	return -EINVAL;
}

static void add_range(struct bench_range *r, size_t *n, uint64_t a,
		      uint64_t b)
{
	r[*n].start_byte = a;
	r[(*n)++].end_byte = b;
}

int auto_search_ranges(uint64_t dev_size, unsigned int lbs,
		       struct bench_range *ranges, size_t max)
{
	struct search_layout l;
	uint64_t pos;
	size_t n = 0, i;
	unsigned int j;

	if (auto_search_layout(dev_size, lbs, &l))
		return -EINVAL;
	if (max < AUTO_ERASE_WARMUP + AUTO_ERASE_ANCHORS * (1 + l.ncand))
		return -ENOSPC;
	pos = l.warm_start;
	for (j = 0; j < AUTO_ERASE_WARMUP; j++) {
		/* the chunk, and what search_data() may write after it */
		add_range(ranges, &n, pos, pos + 2 * l.chunk + SEARCH_DATA_MAX);
		pos += auto_warm_step(&l, j);
	}
	for (j = 0; j < AUTO_ERASE_ANCHORS; j++) {
		add_range(ranges, &n, l.anchor[j], l.anchor[j] + l.chunk);
		for (i = 0; i < l.ncand; i++)
			add_range(ranges, &n,
				  l.anchor[j] + l.cand[i] - 2 * l.chunk,
				  l.anchor[j] + l.cand[i] + l.chunk);
	}
	return (int)ranges_merge(ranges, n);
}
