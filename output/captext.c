// SPDX-License-Identifier: GPL-2.0-only
/* --capacity's report: text and JSON (the check is modes/capacity.c). */
#include <inttypes.h>
#include <stdio.h>

#include "capacity.h"
#include "capfix.h"
#include "format.h"
#include "json.h"

const char *capacity_kind_name(enum capacity_kind kind)
{
	static const char *const name[] = { "genuine", "limbo", "wraparound",
					    "damaged" };

	return kind <= CAPACITY_DAMAGED ? name[kind] : "?";
}

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
	const struct capacity_evidence *e = &r->ev;

	json_object_begin(j, NULL);
	json_string(j, "step", "capacity");
	json_u64(j, "stored_up_to", e->stored_byte);
	if (e->lost) {
		json_u64(j, "lost_from", e->lost_byte);
		json_string(j, "lost_reads", e->lost_garbage ? "garbage" :
							       "zeros");
	} else {
		json_null(j, "lost_from");
		json_null(j, "lost_reads");
	}
	json_bool(j, "lost_below_stored", e->lost_below_stored);
	json_u64(j, "alias_period", e->alias_byte);
	json_u64(j, "flush_bytes", e->flush_byte);
	json_u64(j, "cache_held_up_to", e->cache_byte);
	json_object_end(j);
}

void capacity_json(struct json *j, const struct capacity_result *r)
{
	json_u64(j, "usable_size", r->usable_byte);
	json_u64(j, "announced_size", r->announced_byte);
	json_string(j, "kind", capacity_kind_name(r->kind));
	json_u64(j, "cache_size", r->cache_byte);
	if (r->kind == CAPACITY_WRAP)
		json_u64(j, "modulus", r->modulus_byte);
	else
		json_null(j, "modulus");
	if (r->kind == CAPACITY_LIMBO)
		json_string(j, "limbo_reads",
			    r->limbo_garbage ? "garbage" : "zeros");
	json_u64(j, "cache_defeated_up_to", r->defeat_byte);
	json_bool(j, "usable_exact", r->kind != CAPACITY_GENUINE &&
				     r->kind != CAPACITY_DAMAGED && r->exact);
	json_u64(j, "probes", r->probes);
	json_u64(j, "bytes_written", r->written_byte);
	json_u64(j, "device_ns", r->device_ns);
}

