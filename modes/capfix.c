// SPDX-License-Identifier: GPL-2.0-only
/*
 * --capacity's advice on a fake, the card's side: the partition table in
 * its first sector, read before the check writes (the advice itself,
 * planned from it and shown, is output/capfixtext.c).
 *
 * A fake card usually comes with one partition (FAT32 or exFAT) over the
 * whole announced size.  Where the first sector holds an MBR and one
 * partition alone reaches past the usable size (the last one), the
 * advice is `echo ',SIZE' | sfdisk -N N DEVICE`: sfdisk then changes that
 * partition's size only, keeps its start, its type and every other entry,
 * and writes the first sector alone.  The new end lies on a MiB boundary
 * at or below the usable size.  A GPT is not edited: its backup copy sits
 * in the card's last sectors, which a limbo fake loses and a wraparound
 * fake stores over its own low blocks; the advice is then a new MBR of
 * one partition, as it is without a table, with a table it cannot read,
 * or with more than one partition past the usable size.
 */
#include <string.h>

#include "capfix.h"

#define CAPFIX_ENTRY		446U	/* the first of four 16-byte entries */
#define CAPFIX_TYPE_GPT		0xeeU

/* A little-endian 32-bit word. */
static uint64_t capfix_le32(const unsigned char *p)
{
	return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 |
	       (uint64_t)p[3] << 24;
}

/* Is the partition type an extended partition (logical ones inside)? */
static int capfix_extended(unsigned int type)
{
	return type == 0x05 || type == 0x0f || type == 0x85;
}

/* Parse the MBR in sec (512 bytes at least) into t. */
static void capfix_parse(const unsigned char *sec, struct capfix_table *t)
{
	unsigned int i, used = 0;

	memset(t, 0, sizeof(*t));
	if (sec[510] != 0x55 || sec[511] != 0xaa)
		return;
	for (i = 0; i < CAPFIX_ENTRIES; i++) {
		const unsigned char *e = sec + CAPFIX_ENTRY + 16 * i;

		/* a boot sector without a table has code here */
		if (e[0] != 0x00 && e[0] != 0x80)
			return;
	}
	for (i = 0; i < CAPFIX_ENTRIES; i++) {
		const unsigned char *e = sec + CAPFIX_ENTRY + 16 * i;
		uint64_t start = capfix_le32(e + 8), size = capfix_le32(e + 12);

		if (!e[4] || !size)
			continue;
		if (e[4] == CAPFIX_TYPE_GPT) {
			t->label = CAPFIX_GPT;
			return;
		}
		used++;
		t->start[i] = start;
		t->end[i] = start + size;
		if (t->end[i] > t->last_end) {
			t->last = i + 1;
			t->last_start = start;
			t->last_end = t->end[i];
			t->last_extended = capfix_extended(e[4]);
		}
	}
	if (used)
		t->label = CAPFIX_MBR;
}

void capfix_read(struct device *dev, struct capfix_table *t)
{
	size_t len = dev->logical_block_size > 512 ?
		     dev->logical_block_size : 512;
	unsigned char *sec = dev_alloc_buf(len);
	int ret;

	memset(t, 0, sizeof(*t));
	if (!sec)
		return;
	dev_untimed(dev, 1);
	ret = dev_read(dev, sec, len, 0, NULL);
	dev_untimed(dev, 0);
	if (!ret)
		capfix_parse(sec, t);
	dev_free_buf(sec);
}
