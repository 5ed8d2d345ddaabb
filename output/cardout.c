// SPDX-License-Identifier: GPL-2.0-only
/* The card's own word, printed: as text, and made ready for JSON. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cardout.h"
#include "cardrec.h"
#include "extcsdout.h"
#include "format.h"
#include "wrap.h"

/* Where a wrapped line goes on. */
#define CARD_LEAD "    "

/* "SD 3.0x" from the SCR's version bits. */
static const char *sd_version(const struct card_scr *s)
{
	static const char *const x[] = { "5.xx", "6.xx", "7.xx", "8.xx",
					 "9.xx" };

	if (s->spec4 && s->specx >= 1 && s->specx <= 5)
		return x[s->specx - 1];
	if (s->spec4)
		return "4.xx";
	if (s->spec3)
		return "3.0x";
	return s->sd_spec == 0 ? "1.0" : s->sd_spec == 1 ? "1.1" :
	       s->sd_spec == 2 ? "2.0" : "unknown";
}

static void print_identity(FILE *out, const struct card_info *ci)
{
	struct wrap w;
	int any = 0;

	out = wrap_begin(&w, out, CARD_LEAD);
	fputs("  identity:", out);
	if (ci->manfid >= 0) {
		fprintf(out, " manufacturer 0x%02" PRIx64, (uint64_t)ci->manfid);
		any = 1;
	}
	if (ci->oemid >= 0) {
		fprintf(out, "%s OEM 0x%04" PRIx64, any ? "," : "",
			(uint64_t)ci->oemid);
		any = 1;
	}
	if (ci->name[0]) {
		fprintf(out, "%s product \"%s\"", any ? "," : "", ci->name);
		any = 1;
	}
	if (ci->revision[0])
		fprintf(out, ", revision %s", ci->revision);
	if (ci->serial >= 0)
		fprintf(out, ", serial 0x%08" PRIx64, (uint64_t)ci->serial);
	if (ci->date[0])
		fprintf(out, ", made %s", ci->date);
	fputs(any ? "\n" : " unknown\n", out);
	wrap_end(&w);
}

/* "class 10" or "unknown" for a claim. */
static const char *claim_text(char *buf, size_t len, const char *prefix,
			      int v)
{
	if (v < 0)
		snprintf(buf, len, "unknown");
	else if (!v)
		snprintf(buf, len, "none");
	else
		snprintf(buf, len, "%s%d", prefix, v);
	return buf;
}

static void print_ssr(FILE *out, const struct card_info *ci)
{
	const struct card_ssr *s = &ci->ssr;
	char a[16], b[16], c[16], d[16], au[FMT_LEN];

	fprintf(out, "  SSR: speed class %s, UHS %s, video %s, application %s\n",
		claim_text(a, sizeof(a), "C", ci->claims.speed_class),
		claim_text(b, sizeof(b), "U", ci->claims.uhs_grade),
		claim_text(c, sizeof(c), "V", ci->claims.video_class),
		claim_text(d, sizeof(d), "A", ci->claims.app_class));
	if (ci->au_byte)
		fprintf(out, "  SSR: AU %s", fmt_size(au, ci->au_byte));
	else
		fputs("  SSR: AU not stated", out);
	if (ci->uhs_au_byte)
		fprintf(out, " (UHS AU %s)", fmt_size(au, ci->uhs_au_byte));
	fprintf(out, ", move %u MB/s, discard %s\n", s->perf_move,
		s->discard ? "yes" : "no");
	/* ERASE_SIZE 0: the card states no erase timing (SD spec 4.10.2.5) */
	if (s->erase_size)
		fprintf(out, "  SSR: erase %u AU%s in %u s + %u s\n",
			s->erase_size, s->erase_size == 1 ? "" : "s",
			s->erase_timeout, s->erase_offset);
	else
		fputs("  SSR: erase timing not stated\n", out);
}

/* A file of sysfs: a size in bytes shown as one ("4194304 (4MiB)"). */
static void print_file(FILE *out, const struct card_raw *raw, size_t i)
{
	if (i == CF_PREFERRED_ERASE_SIZE || i == CF_ERASE_SIZE) {
		char *end;
		unsigned long long v = strtoull(raw->val[i], &end, 10);

		if (end != raw->val[i] && !*end && v) {
			char sz[FMT_LEN];

			fprintf(out, "  %s: %llu bytes (%s)\n",
				card_file_names[i], v, fmt_size(sz, v));
			return;
		}
	}
	wrap_printf(out, CARD_LEAD, "  %s: %s\n", card_file_names[i],
		    raw->val[i]);
}

void card_print(FILE *out, const struct card_raw *raw,
		const struct card_info *ci)
{
	char missing[256];
	size_t i;

	if (raw->have[CF_TYPE])
		fprintf(out, "  type: %s\n", raw->val[CF_TYPE]);
	print_identity(out, ci);
	if (ci->have_csd && ci->csd.capacity_byte) {
		char size[FMT_LEN];

		fprintf(out, "  CSD: version %u.0, capacity %" PRIu64
			" bytes (%s)\n", ci->csd.structure + 1,
			ci->csd.capacity_byte,
			fmt_size(size, ci->csd.capacity_byte));
	}
	if (ci->have_scr)
		fprintf(out, "  SCR: SD %s, data after erase %u\n",
			sd_version(&ci->scr), ci->scr.data_after_erase);
	if (ci->have_ssr)
		print_ssr(out, ci);
	ext_csd_print(out, &ci->ext);
	for (i = CF_PREFERRED_ERASE_SIZE; i < CF_NR; i++)
		if (raw->have[i])
			print_file(out, raw, i);
	card_missing(raw, missing, sizeof(missing));
	if (missing[0])
		wrap_printf(out, CARD_LEAD, "  missing: %s\n", missing);
	for (i = 0; i < ci->nr_notes; i++)
		wrap_printf(out, CARD_LEAD, "  note: %s\n", ci->note[i]);
	for (i = 0; i < ci->ext.nr_notes; i++)
		wrap_printf(out, CARD_LEAD, "  note: %s\n", ci->ext.note[i]);
}

void card_doc_fill(struct card_doc *d, const struct card_raw *raw,
		   const struct card_info *ci)
{
	memset(d, 0, sizeof(*d));
	d->ci = *ci;
	d->raw = raw;
	card_missing(raw, d->missing, sizeof(d->missing));
}
