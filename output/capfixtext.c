// SPDX-License-Identifier: GPL-2.0-only
/*
 * --capacity's advice on a fake: keep the partitions within the usable
 * size with one command, planned from the check's verdict and the
 * partition table modes/capfix.c read, and shown as the report's "to
 * do:" lines or as JSON (its fields: record/caprec.c).  Why sfdisk, and
 * why a GPT is replaced rather than edited: see modes/capfix.c.
 */
#include <inttypes.h>
#include <string.h>

#include "capfixtext.h"
#include "format.h"
#include "json.h"
#include "rectab.h"
#include "wrap.h"

#define CAPFIX_MIB		(1ULL << 20)
#define CAPFIX_NO_DATA_BYTE	(2ULL << 20)
/* The report's second column: where its wrapped lines go on. */
#define CAPFIX_LEAD		"                "

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
	if (r->kind == CAPACITY_DAMAGED ||
	    r->usable_byte <= CAPFIX_NO_DATA_BYTE)
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
	capfix_command(cmd, len, start, limit - start,
		       t->label == CAPFIX_GPT, capfix_path(path));
	return CAPFIX_REPLACE;
}

void capfix_command(char *cmd, size_t len, uint64_t start, uint64_t size,
		    int gpt, const char *path)
{
	char sz[48] = "";

	if (size)
		snprintf(sz, sizeof(sz), ", size=%" PRIu64, size);
	if (gpt)
		snprintf(cmd, len, "printf 'label: dos\\nstart=%" PRIu64 "%s, type=c\\n' | sudo sfdisk %s",
			 start, sz, path);
	else
		snprintf(cmd, len, "echo 'start=%" PRIu64 "%s, type=c' | sudo sfdisk %s",
			 start, sz, path);
}

/* The lines of a new table of one partition. */
static void capfix_print_replace(FILE *out, const struct capacity_result *r,
				 const struct capfix_table *t, const char *cmd)
{
	uint64_t lbs = r->logical_block_size ? r->logical_block_size : 512;
	uint64_t start = CAPFIX_MIB / lbs;

	wrap_printf(out, CAPFIX_LEAD, "to do:          use no more than the usable size: one partition of at most %" PRIu64 " sectors of %" PRIu64 " bytes from sector %" PRIu64 ", e.g. (this replaces the %s; format the partition afterwards):\n",
		    r->usable_byte / lbs - start, lbs, start,
		    t && t->label == CAPFIX_GPT ?
		    "GPT, whose backup copy lies in the card's last sectors where a fake keeps nothing, by an MBR" :
		    "whole partition table");
	fprintf(out, CAPFIX_LEAD "%s\n", cmd);
}

void capfix_print(FILE *out, const struct capacity_result *r,
		  struct capfix_table *t, const char *path)
{
	char cmd[512], b[FMT_LEN];

	switch (capfix_plan(r, t, path, cmd, sizeof(cmd))) {
	case CAPFIX_NOTHING:
		wrap_printf(out, CAPFIX_LEAD, "to do:          nothing, unless a cache over %s hides a fake: -C --flush=SIZE defeats one up to half of SIZE, f3write (it fills the card) any\n",
			    fmt_size(b, r->defeat_byte));
		break;
	case CAPFIX_NO_DATA:
		fprintf(out, "to do:          do not keep data on this card\n");
		break;
	case CAPFIX_KEEP:
		wrap_printf(out, CAPFIX_LEAD, "to do:          keep within the usable size: every partition ends below it (the last, %u, at sector %" PRIu64 ")\n",
			    t->last, t->last_end);
		break;
	case CAPFIX_SHRINK:
		wrap_printf(out, CAPFIX_LEAD, "to do:          use no more than the usable size: partition %u ends past it; this shrinks it to end at a MiB boundary within it and keeps the rest of the partition table (then make its file system anew: one made for the larger size writes where nothing stays):\n",
			    t->last);
		fprintf(out, CAPFIX_LEAD "%s\n", cmd);
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
