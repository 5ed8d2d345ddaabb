// SPDX-License-Identifier: GPL-2.0-only
/*
 * --auto's mapping as text: what kind of card it is (pages or AUs), with
 * its evidence, or why the run could not tell (verdict/mapping.c).  Reads
 * the record only; lines within 80 columns.
 */
#include <string.h>

#include "analyze.h"
#include "auto.h"
#include "autoout.h"
#include "format.h"

static const char *conf(enum analyze_confidence c)
{
	return analyze_confidence_name(c);
}

#define MAP_COLUMNS 78	/* lines end before this column */

/* lead and text, words wrapped within MAP_COLUMNS, indented by two. */
static void print_wrapped(FILE *out, const char *lead, const char *text)
{
	size_t col = strlen(lead);
	int first = 1;

	fputs(lead, out);
	while (*text) {
		size_t n = strcspn(text, " ");

		if (!first && col + 1 + n > MAP_COLUMNS) {
			fputs("\n  ", out);
			col = 2;
			first = 1;
		}
		if (!first) {
			fputc(' ', out);
			col++;
		}
		fwrite(text, 1, n, out);
		col += n;
		first = 0;
		text += n;
		text += strspn(text, " ");
	}
	fputc('\n', out);
}

/*
 * Large sectors: a unit of the sector shows no cost off its alignment
 * either, and what settles it (verdict/mapping.c's unit_in_sector()).
 */
static void print_unit_sector(FILE *out, const struct auto_result *r)
{
	const struct auto_mapping *m = &r->mapping;
	char u[FMT_LEN], c[FMT_LEN];

	fmt_size(u, r->sector_byte);
	if (m->unit_sector) {
		fprintf(out, "  unit: %s, the sector, at most (confidence %s): no write off\n",
			u, conf(m->unit_confidence));
		fprintf(out, "  its alignment costs more (x%.3g at most), and no write cache\n",
			m->unit_penalty);
		fputs("  took the writes: none in half the card\n", out);
		return;
	}
	if (r->sector_byte <= 512)
		return;
	fprintf(out, "  on %s sectors a unit of %s shows none either; a write cache\n",
		u, u);
	fprintf(out, "  larger than the %s the cache step wrote would look the same:\n",
		fmt_size(c, r->cache.nchunks * r->cache.chunk_byte));
	fputs("  --cache-cap=SIZE up to half the card settles it\n", out);
}

/* The mapping unit, what a small and an unaligned write cost. */
static void print_unit(FILE *out, const struct auto_result *r)
{
	const struct auto_mapping *m = &r->mapping;
	const struct auto_map_size *z = m->sizes;
	char u[FMT_LEN], o[FMT_LEN], s[FMT_LEN];
	size_t i;

	if (!m->measured)
		return;
	if (m->unit_sector) {
		print_unit_sector(out, r);
		return;
	}
	if (!m->unit_byte) {
		fprintf(out, "  unit: none seen: no unaligned write cost much more than an aligned\n");
		fprintf(out, "  one (x%.3g at most), as a write cache in front would show\n",
			m->unit_penalty);
		if (r->cache.measured && !r->cache.dropped && !r->cache.late)
			print_unit_sector(out, r);
		return;
	}
	for (i = 0; i < m->nsizes && z[i].size_byte != m->unit_byte; i++)
		;
	fprintf(out, "  unit: %s (confidence %s): a write of %s, %s off its alignment,\n",
		fmt_size(u, m->unit_byte), conf(m->unit_confidence), u,
		fmt_size(o, z[i].offset_byte));
	fprintf(out, "  costs x%.3g an aligned one (a read-modify-write of two units),\n",
		m->unit_penalty);
	fprintf(out, "  other sizes x%.3g at most; a write of %s costs x%.3g one of %s\n",
		m->other_penalty, fmt_size(s, z[0].size_byte), m->small_ratio,
		u);
}

/*
 * The erase size raised from the reads alone (no write shows it on a
 * card that maps pages): where their gradual step ends.
 */
static void print_erase_top(FILE *out, const struct auto_result *r)
{
	const struct auto_mapping *m = &r->mapping;
	uint64_t e = r->align.erase.size_byte;
	char a[FMT_LEN], b[FMT_LEN], c[FMT_LEN], t[3][FMT_LEN];

	if (!m->erase_top)
		return;
	fprintf(out, "  erase size %s (confidence %s): no write shows it here, and the\n",
		fmt_size(a, e), conf(r->align.erase.confidence));
	fprintf(out, "  reads' gradual step ends there: across %s boundaries %s,\n",
		fmt_size(b, e / 2),
		fmt_time(t[0], (int64_t)(m->erase_half_ns + 0.5)));
	fprintf(out, "  %s %s, %s and up %s\n", a,
		fmt_time(t[1], (int64_t)(m->erase_top_ns + 0.5)),
		fmt_size(c, 2 * e),
		fmt_time(t[2], (int64_t)(m->erase_above_ns + 0.5)));
}

/* Page-mapped: how far no collapse reached, and order against order. */
static void print_pages(FILE *out, const struct auto_result *r)
{
	const struct auto_mapping *m = &r->mapping;
	const struct auto_open *l = &r->open_linear, *n = &r->open_random;
	char c[FMT_LEN];

	fprintf(out, "mapping: pages (confidence %s): no open-AU limit up to %u AUs,\n",
		conf(m->confidence), m->nr);
	fputs("  writes out of order cost nothing\n", out);
	fprintf(out, "  evidence: %s writes into %u AUs in turn, each at the speed of one AU\n",
		fmt_size(c, l->chunk_byte), m->nr);
	if (m->order_ratio > 0)
		fprintf(out, "  in order%s; out of order into one AU x%.3g in order\n",
			n->at_least ? " and out of order" : "",
			m->order_ratio);
	if (m->standin_byte)
		fprintf(out, "  in AUs of %s assumed: no write paid for a garbage collection\n",
			fmt_size(c, m->standin_byte));
	print_unit(out, r);
	print_erase_top(out, r);
}

void auto_print_page_writes(FILE *out, const struct auto_result *r)
{
	const struct auto_mapping *m = &r->mapping;
	const struct auto_map_size *z = m->sizes;
	char a[FMT_LEN], b[FMT_LEN], c[FMT_LEN];
	size_t i;

	if (m->page_hidden) {
		fmt_size(a, r->sector_byte);
		fprintf(out, "  not measurable through %s sectors: reads of whole sectors show\n",
			a);
		fputs("  a page of up to four of them and pages of one read at once\n", out);
		fputs("  across planes alike, and a card that maps pages shows its mapping\n", out);
		fputs("  unit in writes, not its page (eMMC states it: EXT_CSD's ACC_SIZE\n", out);
		fputs("  and OPTIMAL_WRITE_SIZE, --registers)\n", out);
		return;
	}
	if (m->page_sector) {
		fprintf(out, "  from writes: one of %s costs x%.3g one of %s, none off its\n",
			fmt_size(a, z[0].size_byte),
			z[1].aligned_ns > 0 ? z[0].aligned_ns / z[1].aligned_ns : 0,
			fmt_size(b, z[1].size_byte));
		fprintf(out, "  alignment more than aligned: each %s sector is programmed alone,\n",
			a);
		fputs("  a page no larger (no read or write shows one)\n", out);
		return;
	}
	if (!m->page_byte)
		return;
	for (i = 0; i < m->nsizes && z[i].size_byte != m->page_byte; i++)
		;
	if (i == m->nsizes)
		return;
	fprintf(out, "  from writes: one of %s, %s off its alignment, costs x%.3g an\n",
		fmt_size(a, m->page_byte), fmt_size(b, z[i].offset_byte),
		z[i].aligned_ns > 0 ? z[i].unaligned_ns / z[i].aligned_ns : 0);
	fprintf(out, "  aligned one (two pages programmed), one of %s x%.3g one of %s\n",
		fmt_size(c, z[0].size_byte),
		z[i].aligned_ns > 0 ? z[0].aligned_ns / z[i].aligned_ns : 0, a);
}

void auto_print_mapping(FILE *out, const struct auto_result *r)
{
	const struct auto_mapping *m = &r->mapping;

	if (!r->destructive)
		return;
	switch (m->kind) {
	case AUTO_MAP_PAGES:
		print_pages(out, r);
		break;
	case AUTO_MAP_AUS:
		fprintf(out, "mapping: AUs: %u open (confidence %s): more in turn collapse\n",
			m->nr, conf(m->confidence));
		break;
	default:
		print_wrapped(out, "mapping: unknown: ",
			      m->why ? m->why : "the evidence cannot tell");
	}
}
