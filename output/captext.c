// SPDX-License-Identifier: GPL-2.0-only
/* --capacity's report: text and JSON (the check is modes/capacity.c). */
#include <inttypes.h>
#include <stdio.h>

#include "captext.h"
#include "capverdict.h"
#include "capfixtext.h"
#include "format.h"
#include "json.h"
#include "rectab.h"

/* What the kind means, in a line. */
static void cap_print_kind(FILE *out, const struct capacity_result *r)
{
	char a[FMT_LEN], b[FMT_LEN];

	fmt_size(a, r->usable_byte);
	fmt_size(b, r->defeat_byte);
	switch (r->kind) {
	case CAPACITY_GENUINE:
		fprintf(out, "kind:           genuine as far as this check sees: every block written came\n"
			"                back; it could not rule out a fake with a cache over %s\n",
			b);
		break;
	case CAPACITY_LIMBO:
		fprintf(out, "kind:           limbo: a write at %s (%" PRIu64 ") was lost, as are\n"
			"                those above it; reads there return %s\n",
			fmt_size(b, r->lost_byte), r->lost_byte,
			r->limbo_garbage ? "garbage" : "zeros");
		break;
	case CAPACITY_WRAP:
		fprintf(out, "kind:           wraparound: addresses repeat every %s (%" PRIu64 " bytes),\n"
			"                a write past it overwrites data below it\n",
			a, r->modulus_byte);
		break;
	case CAPACITY_DAMAGED:
		fprintf(out, "kind:           damaged: blocks below %s did not come back\n",
			a);
		break;
	}
}

void capacity_print_findings(FILE *out, const struct capacity_result *r)
{
	char a[FMT_LEN], b[FMT_LEN], t[FMT_LEN];

	fprintf(out, "announced size: %s (%" PRIu64 " bytes)\n",
		fmt_size(a, r->announced_byte), r->announced_byte);
	fprintf(out, "usable size:    %s%s (%" PRIu64 " bytes)\n",
		r->kind == CAPACITY_LIMBO && !r->exact ? "at least " : "",
		fmt_size(a, r->usable_byte), r->usable_byte);
	cap_print_kind(out, r);
	if (r->cache_byte)
		fprintf(out, "write cache:    at most %s (it held a block the flash lost)\n",
			fmt_size(a, r->cache_byte));
	else if (!r->flush_byte && r->kind != CAPACITY_GENUINE)
		fprintf(out, "write cache:    none (the last block written was lost at once)\n");
	else
		fprintf(out, "write cache:    none seen (caches up to %s are defeated)\n",
			fmt_size(a, r->defeat_byte));
	fprintf(out, "written:        %u blocks of 4KiB and %s in all, in %s of device time\n",
		r->probes, fmt_size(b, r->written_byte),
		fmt_time(t, (int64_t)r->device_ns));
}

void capacity_print(FILE *out, const struct capacity_result *r,
		    const char *path)
{
	capacity_print_findings(out, r);
	capfix_print(out, r, NULL, path);
}

void capacity_json_evidence(struct json *j, const struct capacity_result *r)
{
	rt_write_object(j, NULL, &capacity_evidence_table, &r->ev);
}

void capacity_json(struct json *j, const struct capacity_result *r)
{
	rt_write(j, &capacity_verdict_table, r);
}
