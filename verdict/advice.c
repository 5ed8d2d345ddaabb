// SPDX-License-Identifier: GPL-2.0-only
/*
 * --auto's advice: where to start a partition, ext4's stride and stripe
 * width and f2fs's section, from the erase and page size; a partition's
 * size at most after a capacity check that found the card short; what
 * would settle an erase size read with low confidence.  Pure.
 */
#include "capverdict.h"
#include "auto.h"

void auto_advise(uint64_t erase_byte, uint64_t page_byte,
		 unsigned int sector_byte, struct auto_advice *a)
{
	uint64_t start = auto_round_up(1 << 20,
				       erase_byte ? erase_byte : 1 << 20);
	uint64_t stride = page_byte / 4096, segs = erase_byte / (2 << 20);

	a->sector_byte = sector_byte ? sector_byte : 512;
	a->start_sector = start / a->sector_byte;
	a->ext4_stride = stride ? (unsigned int)stride : 1;
	a->ext4_stripe_width = (unsigned int)(erase_byte / 4096);
	a->f2fs_segs = segs ? (unsigned int)segs : 1;
	a->max_sectors = 0;
	a->no_data = 0;
}

/*
 * The advice for r: auto_advise(), and after a capacity check that found
 * the card short, a partition that ends below the usable size (at an
 * erase block boundary when known), or no data at all when not even
 * that fits.
 */
void auto_advise_for(const struct auto_result *r, struct auto_advice *a)
{
	const struct capacity_result *c = &r->capacity;
	uint64_t erase = r->align.erase.size_byte, end, start;

	auto_advise(erase, r->align.page.size_byte, r->sector_byte, a);
	if (!r->capacity_done || !capacity_short(c))
		return;
	start = a->start_sector * a->sector_byte;
	end = erase ? c->usable_byte / erase * erase :
	      c->usable_byte / a->sector_byte * a->sector_byte;
	if (c->kind == CAPACITY_DAMAGED || end < start + (1ULL << 20)) {
		a->no_data = 1;
		return;
	}
	a->max_sectors = (end - start) / a->sector_byte;
}

/*
 * The classic align table, then the open-AU test with the erase size it
 * shows; but a card that maps pages keeps no AUs open, so -O finds no
 * collapse at any count and no write shows its erase size (the open-AU
 * searches wrote as -O would): there only the card's own word (an SD
 * card's AU in its status register, an eMMC's erase group in EXT_CSD)
 * or the reads again, on a quiet host, can settle it.
 */
const char *auto_erase_settle(const struct auto_result *r)
{
	if (r->mapping.kind == AUTO_MAP_PAGES)
		return "the card's own word (flashbench --registers DEVICE: an SD card's AU size, an eMMC's erase group; not behind a USB bridge), or the classic align table on a quiet host (flashbench -a DEVICE); no write shows it on a card that maps pages (-O finds no AUs kept open to count)";
	return "flashbench -a DEVICE, then the classic tests with the erase size it shows (flashbench -O --erasesize=SIZE DEVICE)";
}
