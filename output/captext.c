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
#include "wrap.h"

/* The report's second column: where its wrapped lines go on. */
#define CAP_LEAD "                "

/* What the kind means, in a line. */
static void cap_print_kind(FILE *out, const struct capacity_result *r)
{
	char a[FMT_LEN], b[FMT_LEN];

	fmt_size(a, r->usable_byte);
	fmt_size(b, r->defeat_byte);
	switch (r->kind) {
	case CAPACITY_GENUINE:
		wrap_printf(out, CAP_LEAD, "kind:           genuine as far as this check sees: every block written came back; it could not rule out a fake with a cache over %s\n",
			    b);
		break;
	case CAPACITY_LIMBO:
		wrap_printf(out, CAP_LEAD, "kind:           limbo: a write at %s (%" PRIu64 ") was lost, as are those above it; reads there return %s\n",
			    fmt_size(b, r->lost_byte), r->lost_byte,
			    r->limbo_garbage ? "garbage" : "zeros");
		break;
	case CAPACITY_WRAP:
		wrap_printf(out, CAP_LEAD, "kind:           wraparound: addresses repeat every %s (%" PRIu64 " bytes), a write past it overwrites data below it\n",
			    a, r->modulus_byte);
		break;
	case CAPACITY_DAMAGED:
		wrap_printf(out, CAP_LEAD, "kind:           damaged: blocks below %s did not come back\n",
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
		wrap_printf(out, CAP_LEAD, "write cache:    at most %s (it held a block the flash lost)\n",
			    fmt_size(a, r->cache_byte));
	else if (!r->flush_byte && r->kind != CAPACITY_GENUINE)
		wrap_printf(out, CAP_LEAD, "write cache:    none (the last block written was lost at once)\n");
	else
		wrap_printf(out, CAP_LEAD, "write cache:    none seen (caches up to %s are defeated)\n",
			    fmt_size(a, r->defeat_byte));
	wrap_printf(out, CAP_LEAD, "written:        %s in all, of which %u signed blocks of 4KiB, in %s of device time\n",
		    fmt_size(b, r->written_byte), r->probes,
		    fmt_time(t, (int64_t)r->device_ns));
}

void capacity_print_stopped(FILE *out, const struct capacity_result *r)
{
	char a[FMT_LEN], b[FMT_LEN], t[FMT_LEN];

	fprintf(out, "announced size: %s (%" PRIu64 " bytes)\n",
		fmt_size(a, r->announced_byte), r->announced_byte);
	if (r->ev.stored_byte)
		wrap_printf(out, CAP_LEAD, "stored so far:  data came back up to %s (%" PRIu64 " bytes)\n",
			    fmt_size(a, r->ev.stored_byte), r->ev.stored_byte);
	wrap_printf(out, CAP_LEAD, "written:        %s in all, of which %u signed blocks of 4KiB, in %s of device time\n",
		    fmt_size(b, r->written_byte), r->probes,
		    fmt_time(t, (int64_t)r->device_ns));
	wrap_printf(out, CAP_LEAD, "interrupted:    no verdict: the search had not ended\n");
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
