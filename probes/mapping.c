// SPDX-License-Identifier: GPL-2.0-only
/*
 * The unit probe of a page-mapped card (issue 26): what a small or an
 * unaligned write costs.  A page-mapped card maps units of a few KiB; a
 * write that covers a unit only in part costs a read-modify-write of it,
 * so a write of the unit's size half a unit off its alignment touches two
 * units in part and costs far more than the aligned one, while a smaller
 * or larger write costs the same either way.  Each write goes to a fresh
 * slot of the probe AUs (written whole by the open-AU search, so that they
 * hold data, as a used card's units do), in ascending order, aligned and
 * unaligned in turn so that a drift of the card's speed touches both
 * alike.  verdict/mapping.c reads the unit from the medians.
 */
#include "probe.h"
#include "stats.h"

/* Where slot j is: in probe AU j / (slots per AU), in ascending order. */
static uint64_t slot_pos(uint64_t dev_byte, uint64_t erase, unsigned int j)
{
	uint64_t per = erase / AUTO_MAP_SLOT;
	uint64_t k = j / per;

	return auto_probe_base(erase) +
	       k * auto_probe_spacing(dev_byte, erase) * erase +
	       (j % per) * AUTO_MAP_SLOT;
}

/* The sizes from the sector (512 B at least) to 64 KiB; 0 when none. */
static size_t map_sizes(struct auto_mapping *m, unsigned int sector)
{
	uint64_t s = sector < 512 ? 512 : sector;

	m->nsizes = 0;
	for (; s <= AUTO_MAP_SLOT / 2 && m->nsizes < AUTO_MAP_SIZES; s <<= 1) {
		struct auto_map_size *z = &m->sizes[m->nsizes++];

		z->size_byte = s;
		z->offset_byte = s / 2 < sector ? sector : s / 2;
	}
	return m->nsizes;
}

/* Does the probe fit in the probe AUs the searches could use? */
static int map_fits(uint64_t dev_byte, uint64_t erase, size_t nsizes)
{
	uint64_t slots = 2 * AUTO_MAP_REPS * nsizes;
	uint64_t per = erase / AUTO_MAP_SLOT;

	return per && (slots + per - 1) / per <=
		      auto_probe_max_nr(dev_byte, erase);
}

int auto_probe_mapping(struct device *dev, uint64_t erase,
		       struct auto_mapping *m)
{
	double a[AUTO_MAP_SIZES][AUTO_MAP_REPS];
	double u[AUTO_MAP_SIZES][AUTO_MAP_REPS];
	unsigned int j = 0, k;
	size_t i;
	int ret;

	if (!map_sizes(m, dev->logical_block_size) ||
	    !map_fits(dev->size_byte, erase, m->nsizes))
		return 0;
	for (k = 0; k < AUTO_MAP_REPS; k++)
		for (i = 0; i < m->nsizes; i++) {
			const struct auto_map_size *z = &m->sizes[i];
			uint64_t pa = slot_pos(dev->size_byte, erase, j++);
			uint64_t pu = slot_pos(dev->size_byte, erase, j++);

			ret = auto_write_one(dev, pa, z->size_byte, &a[i][k]);
			if (!ret)
				ret = auto_write_one(dev, pu + z->offset_byte,
						     z->size_byte, &u[i][k]);
			if (ret)
				return ret;
		}
	for (i = 0; i < m->nsizes; i++) {
		m->sizes[i].aligned_ns = stats_median(a[i], AUTO_MAP_REPS);
		m->sizes[i].unaligned_ns = stats_median(u[i], AUTO_MAP_REPS);
	}
	m->measured = 1;
	return 0;
}
