// SPDX-License-Identifier: GPL-2.0-only
/*
 * The write-cache step as text (record/cacherec.h): the cache's size,
 * its speed and the native one, what came back after idle, and where
 * the cap stopped the writes before any drop; and the run's write
 * latency (record/latrec.h), the step of its longest write named.  Reads
 * the record only.
 */
#include <inttypes.h>

#include "cachetext.h"
#include "format.h"
#include "writecache.h"

/* "fast again after idle": how much, and how fast the card folded. */
static void print_refill(FILE *out, const struct auto_cache *c)
{
	char t[FMT_LEN];

	if (!c->nrefill)
		return;
	fprintf(out, "  %.3g MB/s again after %s idle", cache_mbps(c, c->fast_ns),
		fmt_time(t, (int64_t)c->idle_ns));
	if (c->refill_whole)
		fputs(" (all of it)\n", out);
	else
		fprintf(out, " (%s of it: folded at %.3g MB/s)\n",
			fmt_size(t, c->refill_byte),
			(double)c->refill_byte * 1e3 / (double)c->idle_ns);
}

/*
 * A cache larger than the cap, which the later steps' writes filled:
 * its speeds, and that those steps were made again past it.
 */
static void print_late(FILE *out, const struct auto_cache *c)
{
	char a[FMT_LEN];

	fprintf(out, "write cache: more than %s written at %.3g MB/s (the cap), then %.3g MB/s\n",
		fmt_size(a, c->size_byte), cache_mbps(c, c->fast_ns),
		cache_mbps(c, c->native_ns));
	fprintf(out, "  evidence: %zu writes of %s in sequence, then the later steps' writes\n  filled it: %zu of the same writes again were x%.2f slower; %s\n",
		c->nchunks, fmt_size(a, c->chunk_byte), c->nlate,
		c->native_ns / c->fast_ns,
		c->recheck_at == CACHE_AT_CLASS ?
		"the class\n  check was measured past it (the write steps ran within it)" :
		"those\n  steps were made again past it");
}

void cache_print(FILE *out, const struct auto_cache *c)
{
	char a[FMT_LEN], b[FMT_LEN];

	if (!c->measured)
		return;
	if (c->late) {
		print_late(out, c);
		return;
	}
	if (!c->dropped) {
		fprintf(out, "write cache: none seen in %s written at %.3g MB/s",
			fmt_size(a, (uint64_t)c->nchunks * c->chunk_byte),
			cache_mbps(c, c->fast_ns));
		if (cache_cap_reached(c))
			fprintf(out, " (the cap,\n  %s, and a margin: a larger cache would hide the native speed from the\n  later steps; --cache-cap=SIZE looks further)",
				fmt_size(b, c->cap_byte));
		fputc('\n', out);
		return;
	}
	fprintf(out, "write cache: about %s written at %.3g MB/s, then %.3g MB/s\n",
		fmt_size(a, c->size_byte), cache_mbps(c, c->fast_ns),
		cache_mbps(c, c->native_ns));
	print_refill(out, c);
	fprintf(out, "  evidence: %zu writes of %s in sequence from %s, x%.2f slower\n  from write %u on",
		c->nchunks, fmt_size(a, c->chunk_byte),
		fmt_size(b, c->start_byte), c->native_ns / c->fast_ns,
		c->drop_at + 1);
	if (c->topups)
		fprintf(out, "; the later steps wrote %s first to fill it",
			fmt_size(a, c->topup_byte));
	fputc('\n', out);
}

/* How many writes were over a limit: "none", "1 write", "12 writes". */
static const char *count_of(char *buf, size_t len, uint64_t n)
{
	if (!n)
		return "none";
	snprintf(buf, len, "%" PRIu64 " write%s", n, n == 1 ? "" : "s");
	return buf;
}

/* Each step a write is made in, as the latency line names it. */
static const char *const lat_step_text[LAT_STEPS] = {
	[LAT_STEP_CACHE] = "the write-cache step",
	[LAT_STEP_ERASE] = "the erase search from writes",
	[LAT_STEP_OPEN_LINEAR] = "the open-AU search in order",
	[LAT_STEP_OPEN_RANDOM] = "the open-AU search out of order",
	[LAT_STEP_MAPPING] = "the mapping unit probe",
	[LAT_STEP_FAT] = "the FAT area probe",
	[LAT_STEP_CAPACITY] = "the capacity check",
	[LAT_STEP_CLASS] = "the class check",
};

void latency_print(FILE *out, const struct auto_latency *l)
{
	char a[FMT_LEN], b[FMT_LEN], c[FMT_LEN], n1[32], n2[32];

	if (!l->measured)
		return;
	fprintf(out, "write latency: longest %s (%s at byte %" PRIu64 "), 99%% within %s,\n",
		fmt_time(a, (int64_t)l->max_ns), fmt_size(b, l->max_len_byte),
		l->max_off_byte, fmt_time(c, (int64_t)l->p99_ns));
	fprintf(out, "  of %" PRIu64 " writes; SD allows 250ms for one write: %s over it,\n  750ms for a file-system update: %s over it\n",
		l->writes, count_of(n1, sizeof(n1), l->over_write),
		count_of(n2, sizeof(n2), l->over_update));
	/* an older record does not say */
	if (l->max_step > LAT_STEP_NONE && l->max_step < LAT_STEPS)
		fprintf(out, "  the longest was in %s%s\n",
			lat_step_text[l->max_step],
			lat_step_copies(l->max_step) ?
			" (it forces AU copies)" : "");
}
