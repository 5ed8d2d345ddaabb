// SPDX-License-Identifier: GPL-2.0-only
/*
 * --capacity's advice on a fake: keep the partitions within the usable
 * size with one command.
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
#include <inttypes.h>
#include <string.h>

#include "capfix.h"
#include "format.h"
#include "json.h"
#include "rectab.h"

#define CAPFIX_MIB		(1ULL << 20)
#define CAPFIX_ENTRY		446U	/* the first of four 16-byte entries */
#define CAPFIX_ENTRIES		4U
#define CAPFIX_TYPE_GPT		0xeeU
#define CAPFIX_NO_DATA_BYTE	(2ULL << 20)

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

/* The path to give sfdisk: the simulated card has none. */
static const char *capfix_path(const char *path)
{
	return strcmp(path, "simulated card") ? path : "DEVICE";
}

/*
 * Shrink the last partition when it alone reaches past limit (sectors)
 * and keeps at least a MiB below the MiB boundary at or under it.
 */
static int capfix_shrink(const struct capfix_table *t, uint64_t usable,
			 uint64_t lbs, const char *path, char *cmd, size_t len)
{
	uint64_t end = usable / CAPFIX_MIB * CAPFIX_MIB / lbs;

	if (t->label != CAPFIX_MBR || t->n_over != 1 || t->last_extended ||
	    t->last_start + CAPFIX_MIB / lbs > end)
		return 0;
	snprintf(cmd, len, "echo ',%" PRIu64 "' | sudo sfdisk -N %u %s",
		 end - t->last_start, t->last, capfix_path(path));
	return 1;
}

enum capfix_how capfix_plan(const struct capacity_result *r,
			    struct capfix_table *t, const char *path,
			    char *cmd, size_t len)
{
	uint64_t lbs = r->logical_block_size ? r->logical_block_size : 512;
	uint64_t start = CAPFIX_MIB / lbs, limit = r->usable_byte / lbs;
	struct capfix_table none = { .label = CAPFIX_NO_TABLE };
	unsigned int i;

	if (len)
		cmd[0] = '\0';
	if (r->kind == CAPACITY_GENUINE)
		return CAPFIX_NOTHING;
	if (r->kind == CAPACITY_DAMAGED || r->usable_byte <= CAPFIX_NO_DATA_BYTE)
		return CAPFIX_NO_DATA;
	if (!t)
		t = &none;
	t->n_over = 0;
	for (i = 0; i < CAPFIX_ENTRIES; i++)
		t->n_over += t->end[i] > limit;
	if (t->label == CAPFIX_MBR && !t->n_over)
		return CAPFIX_KEEP;
	if (capfix_shrink(t, r->usable_byte, lbs, path, cmd, len))
		return CAPFIX_SHRINK;
	if (t->label == CAPFIX_GPT)
		snprintf(cmd, len, "printf 'label: dos\\nstart=%" PRIu64 ", size=%" PRIu64 ", type=c\\n' | sudo sfdisk %s",
			 start, limit - start, capfix_path(path));
	else
		snprintf(cmd, len, "echo 'start=%" PRIu64 ", size=%" PRIu64 ", type=c' | sudo sfdisk %s",
			 start, limit - start, capfix_path(path));
	return CAPFIX_REPLACE;
}

/* The lines of a new table of one partition. */
static void capfix_print_replace(FILE *out, const struct capacity_result *r,
				 const struct capfix_table *t, const char *cmd)
{
	uint64_t lbs = r->logical_block_size ? r->logical_block_size : 512;
	uint64_t start = CAPFIX_MIB / lbs;

	fprintf(out, "to do:          use no more than the usable size: one partition of at most\n"
		"                %" PRIu64 " sectors of %" PRIu64 " bytes from sector %" PRIu64 ", e.g. (this replaces the\n",
		r->usable_byte / lbs - start, lbs, start);
	if (t && t->label == CAPFIX_GPT)
		fprintf(out, "                GPT, whose backup copy lies in the card's last sectors where a\n"
			"                fake keeps nothing, by an MBR; format the partition afterwards):\n");
	else
		fprintf(out, "                whole partition table; format the partition afterwards):\n");
	fprintf(out, "                %s\n", cmd);
}

void capfix_print(FILE *out, const struct capacity_result *r,
		  struct capfix_table *t, const char *path)
{
	char cmd[512], b[FMT_LEN];

	switch (capfix_plan(r, t, path, cmd, sizeof(cmd))) {
	case CAPFIX_NOTHING:
		fprintf(out, "to do:          nothing, unless a cache over %s hides a fake: -C\n"
			"                --flush=SIZE defeats one up to half of SIZE, f3write (it\n"
			"                fills the card) any\n",
			fmt_size(b, r->defeat_byte));
		break;
	case CAPFIX_NO_DATA:
		fprintf(out, "to do:          do not keep data on this card\n");
		break;
	case CAPFIX_KEEP:
		fprintf(out, "to do:          keep within the usable size: every partition ends below it\n"
			"                (the last, %u, at sector %" PRIu64 ")\n",
			t->last, t->last_end);
		break;
	case CAPFIX_SHRINK:
		fprintf(out, "to do:          use no more than the usable size: partition %u ends past it;\n"
			"                this shrinks it to end at a MiB boundary within it and keeps\n"
			"                the rest of the partition table (then make its file system\n"
			"                anew: one made for the larger size writes where nothing stays):\n"
			"                %s\n", t->last, cmd);
		break;
	case CAPFIX_REPLACE:
		capfix_print_replace(out, r, t, cmd);
		break;
	}
}

void capfix_json(struct json *j, const struct capacity_result *r,
		 struct capfix_table *t, const char *path)
{
	char cmd[512];
	struct capfix_advice a;

	a.how = capfix_plan(r, t, path, cmd, sizeof(cmd));
	a.command = cmd[0] ? cmd : NULL;
	rt_write(j, &capfix_table, &a);
}
