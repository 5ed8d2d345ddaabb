// SPDX-License-Identifier: GPL-2.0-only
/*
 * --survey's table (see survey.h): the rows output/surveyrow.c read and
 * joined, as text packed into 80 columns, CSV, Markdown or JSON; the
 * same columns in every format.
 */
#include <inttypes.h>
#include <stddef.h>
#include <string.h>

#include "extcsd.h"
#include "format.h"
#include "json.h"
#include "survey.h"
#include "wrap.h"

/* ---- the table ---- */

/* The columns, in order, for every format. */
enum survey_col {
	COL_CARD, COL_MFR, COL_OEM, COL_DATE, COL_SERIAL, COL_SIZE,
	COL_USABLE, COL_AU_STATED, COL_AU, COL_PAGE, COL_UNIT, COL_OPEN,
	COL_OPEN_RANDOM, COL_FAT, COL_MAPPING, COL_CACHE, COL_LONGEST,
	COL_LIFE, COL_STATED, COL_MEASURED, COL_RUNS, COL_RECORD, COL_NR,
};

#define CELL_LEN 288	/* the longest cell: a record's path */

static const char *conf_mark(enum survey_conf c)
{
	return c == SV_LOW ? "?" : c == SV_MEDIUM ? "~" : "";
}

static void cell_size(char *buf, const struct survey_num *n)
{
	snprintf(buf, CELL_LEN, "-");
	if (n->set) {
		char s[FMT_LEN];

		snprintf(buf, CELL_LEN, "%s%s", fmt_size(s, n->v),
			 conf_mark(n->conf));
	}
}

static void cell_count(char *buf, const struct survey_num *n)
{
	if (!n->set)
		snprintf(buf, CELL_LEN, "-");
	else
		snprintf(buf, CELL_LEN, "%" PRIu64 "%s", n->v,
			 conf_mark(n->conf));
}

/* "0-4MiB" (start to end), "none", "-". */
static void cell_fat(char *buf, const struct survey_row *r)
{
	char a[FMT_LEN], b[FMT_LEN];

	if (!r->fat_size.set)
		snprintf(buf, CELL_LEN, "-");
	else if (!r->fat_size.v)
		snprintf(buf, CELL_LEN, "none%s", conf_mark(r->fat_size.conf));
	else
		snprintf(buf, CELL_LEN, "%s-%s%s",
			 r->fat_start.v ? fmt_size(a, r->fat_start.v) : "0",
			 fmt_size(b, r->fat_start.v + r->fat_size.v),
			 conf_mark(r->fat_size.conf));
}

/* "512MiB wrap" for a fake; the size alone for a genuine card. */
static void cell_usable(char *buf, const struct survey_row *r)
{
	char s[FMT_LEN];

	if (!r->usable.set)
		snprintf(buf, CELL_LEN, "-");
	else if (!strcmp(r->capacity_kind, "genuine") || !r->capacity_kind[0])
		snprintf(buf, CELL_LEN, "%s", fmt_size(s, r->usable.v));
	else
		snprintf(buf, CELL_LEN, "%s %s", fmt_size(s, r->usable.v),
			 r->capacity_kind);
}

/* "pages 16KiB~" (its unit, its mark), "aus", "-". */
static void cell_mapping(char *buf, const struct survey_row *r)
{
	size_t n;

	if (!r->mapping[0]) {
		snprintf(buf, CELL_LEN, "-");
		return;
	}
	n = (size_t)snprintf(buf, CELL_LEN, "%s%s", r->mapping,
			     conf_mark(r->mapping_conf));
	if (r->map_unit.set) {
		buf[n++] = ' ';
		cell_size(buf + n, &r->map_unit);
	}
}

/* "256MiB 47.1->11.8MB/s", ">=512MiB 40.2MB/s", "none", "-". */
static void cell_cache(char *buf, const struct survey_row *r)
{
	char s[FMT_LEN];

	if (r->cache == SV_CACHE_UNKNOWN)
		snprintf(buf, CELL_LEN, "-");
	else if (r->cache == SV_CACHE_NONE)
		snprintf(buf, CELL_LEN, "none");
	else if (r->cache_at_least)
		snprintf(buf, CELL_LEN, ">=%s %.1fMB/s", fmt_size(s, r->cache_byte),
			 r->cache_fast_mbps);
	else
		snprintf(buf, CELL_LEN, "%s %.1f->%.1fMB/s",
			 fmt_size(s, r->cache_byte), r->cache_fast_mbps,
			 r->cache_native_mbps);
}

/* "397ms p99 360ms", "-". */
static void cell_longest(char *buf, const struct survey_row *r)
{
	char a[FMT_LEN], b[FMT_LEN];

	if (!r->write_max_ns.set) {
		snprintf(buf, CELL_LEN, "-");
		return;
	}
	snprintf(buf, CELL_LEN, "%s p99 %s",
		 fmt_time(a, (int64_t)r->write_max_ns.v),
		 fmt_time(b, (int64_t)r->write_p99_ns.v));
}

/*
 * An eMMC's wear: the life time used of the type worn most, and the
 * pre-EOL state where it is not normal ("50-60 %", "90-100 % urgent").
 */
static void cell_life(char *buf, const struct survey_row *r)
{
	const struct survey_num *w = &r->life_b;
	char life[32];
	size_t n;

	if (!w->set || (r->life_a.set && r->life_a.v > w->v &&
			r->life_a.v <= 11))
		w = &r->life_a;
	if (!w->set && !r->pre_eol.set) {
		snprintf(buf, CELL_LEN, "-");
		return;
	}
	n = (size_t)snprintf(buf, CELL_LEN, "%s", w->set ?
			     ext_csd_life_text(life, sizeof(life), w->v) :
			     "");
	if (r->pre_eol.set && r->pre_eol.v != 1)
		snprintf(buf + n, CELL_LEN - n, "%spre-EOL %s", n ? " " : "",
			 ext_csd_pre_eol_text(r->pre_eol.v));
}

/* "C10:pass U3:FAIL V30:unsure". */
static void cell_measured(char *buf, const struct survey_row *r)
{
	size_t i, n = 0;

	snprintf(buf, CELL_LEN, "-");
	for (i = 0; i < r->nr_classes && n < CELL_LEN; i++)
		n += (size_t)snprintf(buf + n, CELL_LEN - n, "%s%s:%s",
				      i ? " " : "", r->classes[i].name,
				      r->classes[i].within ? "unsure" :
				      r->classes[i].pass ? "pass" : "FAIL");
}

/* The OEM ID as its two ASCII letters where it is that ("SM"), else hex. */
static void cell_oem(char *buf, const struct survey_row *r)
{
	int64_t oem = r->oemid;
	int hi = (int)(oem >> 8) & 0xff, lo = (int)oem & 0xff;

	if (oem < 0)
		snprintf(buf, CELL_LEN, "-");
	else if (oem <= 0xffff && hi > 0x20 && hi < 0x7f && lo > 0x20 &&
		 lo < 0x7f)
		snprintf(buf, CELL_LEN, "%c%c", hi, lo);
	else
		snprintf(buf, CELL_LEN, "0x%04" PRIx64, (uint64_t)oem);
}

/* A text the record holds, "-" where it holds none. */
static void cell_text(char *buf, const char *s)
{
	snprintf(buf, CELL_LEN, "%s", s[0] ? s : "-");
}

/* The card's name, else the device's path. */
static void cell_card(char *buf, const struct survey_row *r)
{
	cell_text(buf, r->name[0] ? r->name : r->device);
}

static void cell_mfr(char *buf, const struct survey_row *r)
{
	if (r->manfid < 0)
		snprintf(buf, CELL_LEN, "-");
	else
		snprintf(buf, CELL_LEN, "0x%02" PRIx64, (uint64_t)r->manfid);
}

static void cell_date(char *buf, const struct survey_row *r)
{
	cell_text(buf, r->date);
}

static void cell_serial(char *buf, const struct survey_row *r)
{
	cell_text(buf, r->serial_hash);
}

static void cell_stated(char *buf, const struct survey_row *r)
{
	cell_text(buf, r->stated);
}

static void cell_runs(char *buf, const struct survey_row *r)
{
	snprintf(buf, CELL_LEN, "%u", r->records);
}

/* The last part of the record's path. */
static void cell_record(char *buf, const struct survey_row *r)
{
	const char *s = strrchr(r->record, '/');

	snprintf(buf, CELL_LEN, "%s", s ? s + 1 : r->record);
}

/*
 * A column: its head, and its cell from one number of the row (num, the
 * survey_num at off) or from the whole row (row).
 */
struct survey_column {
	const char *head;
	void (*num)(char *buf, const struct survey_num *n);
	size_t off;
	void (*row)(char *buf, const struct survey_row *r);
};

#define NUM_COL(h, fn, member) \
	{ h, fn, offsetof(struct survey_row, member), NULL }
#define ROW_COL(h, fn) { h, NULL, 0, fn }

static const struct survey_column columns[COL_NR] = {
	[COL_CARD] = ROW_COL("card", cell_card),
	[COL_MFR] = ROW_COL("mfr", cell_mfr),
	[COL_OEM] = ROW_COL("oem", cell_oem),
	[COL_DATE] = ROW_COL("date", cell_date),
	[COL_SERIAL] = ROW_COL("serial#", cell_serial),
	[COL_SIZE] = NUM_COL("size", cell_size, size),
	[COL_USABLE] = ROW_COL("usable", cell_usable),
	[COL_AU_STATED] = NUM_COL("AU stated", cell_size, au_stated),
	[COL_AU] = NUM_COL("AU", cell_size, au),
	[COL_PAGE] = NUM_COL("page", cell_size, page),
	[COL_UNIT] = NUM_COL("unit", cell_size, unit),
	[COL_OPEN] = NUM_COL("open", cell_count, open_linear),
	[COL_OPEN_RANDOM] = NUM_COL("open rnd", cell_count, open_random),
	[COL_FAT] = ROW_COL("FAT", cell_fat),
	[COL_MAPPING] = ROW_COL("map", cell_mapping),
	[COL_CACHE] = ROW_COL("cache", cell_cache),
	[COL_LONGEST] = ROW_COL("longest write", cell_longest),
	[COL_LIFE] = ROW_COL("life", cell_life),
	[COL_STATED] = ROW_COL("classes", cell_stated),
	[COL_MEASURED] = ROW_COL("measured", cell_measured),
	[COL_RUNS] = ROW_COL("runs", cell_runs),
	[COL_RECORD] = ROW_COL("record", cell_record),
};

static void cell(char *buf, const struct survey_row *r, enum survey_col c)
{
	const struct survey_column *k = &columns[c];

	if (k->num)
		k->num(buf, (const struct survey_num *)
			    ((const char *)r + k->off));
	else
		k->row(buf, r);
}

static const char legend[] =
	"? low confidence, ~ medium, - not in the record; serial# is a hash;\n"
	" a card without registers is a row per device path, size and verdict";

/*
 * One "head value" pair of a card's lines at column *col (0: at the
 * start of a line after the first, its lead not printed yet): on this
 * line when it fits, else on the next; a pair wider than a line is
 * wrapped at its spaces.
 */
static void text_pair(FILE *out, const char *head, const char *value,
		      size_t *col)
{
	static const char lead[] = "  ";
	char pair[CELL_LEN + 32];
	size_t len;

	snprintf(pair, sizeof(pair), "%s %s", head, value);
	len = wrap_cols(pair, strlen(pair));
	if (*col && *col + 2 + len <= WRAP_COLS) {
		fprintf(out, "  %s", pair);
		*col += 2 + len;
		return;
	}
	if (*col)
		fputc('\n', out);
	if (strlen(lead) + len <= WRAP_COLS) {
		fprintf(out, "%s%s", lead, pair);
		*col = strlen(lead) + len;
		return;
	}
	/* the lead in the text: its first line is counted from column 0 */
	snprintf(pair, sizeof(pair), "%s%s %s", lead, head, value);
	wrap_puts(out, lead, pair);
	*col = 0;
}

/*
 * A terminal's survey: a card a few lines long, its columns as "head
 * value" pairs packed into 80 columns (the table itself is --csv's and
 * --markdown's, whose lines no one reads on a terminal).
 */
static void print_text(FILE *out, const struct survey_row *rows, size_t n)
{
	char buf[CELL_LEN];
	size_t i, c, col;

	for (i = 0; i < n; i++) {
		cell(buf, &rows[i], COL_CARD);
		fputs(buf, out);
		col = wrap_cols(buf, strlen(buf));
		for (c = COL_CARD + 1; c < COL_NR; c++) {
			cell(buf, &rows[i], c);
			text_pair(out, columns[c].head, buf, &col);
		}
		if (col)	/* (else a wrapped pair ended the line) */
			fputc('\n', out);
	}
	wrap_printf(out, "", "(%s)\n", legend);
}

/* A CSV field, quoted where it holds a comma, quote or line break. */
static void csv_field(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

static void print_csv(FILE *out, const struct survey_row *rows, size_t n)
{
	char buf[CELL_LEN];
	size_t i, c;

	for (c = 0; c < COL_NR; c++) {
		csv_field(out, columns[c].head);
		fputc(c + 1 < COL_NR ? ',' : '\n', out);
	}
	for (i = 0; i < n; i++)
		for (c = 0; c < COL_NR; c++) {
			cell(buf, &rows[i], c);
			csv_field(out, buf);
			fputc(c + 1 < COL_NR ? ',' : '\n', out);
		}
}

/* A Markdown cell: '|' escaped, line breaks as spaces. */
static void md_cell(FILE *out, const char *s)
{
	fputs(" ", out);
	for (; *s; s++) {
		if (*s == '|' || *s == '\\')
			fputc('\\', out);
		fputc(*s == '\n' || *s == '\r' ? ' ' : *s, out);
	}
	fputs(" |", out);
}

static void print_markdown(FILE *out, const struct survey_row *rows,
			   size_t n)
{
	char buf[CELL_LEN];
	size_t i, c;

	fputc('|', out);
	for (c = 0; c < COL_NR; c++)
		md_cell(out, columns[c].head);
	fputs("\n|", out);
	for (c = 0; c < COL_NR; c++)
		fputs("---|", out);
	fputc('\n', out);
	for (i = 0; i < n; i++) {
		fputc('|', out);
		for (c = 0; c < COL_NR; c++) {
			cell(buf, &rows[i], c);
			md_cell(out, buf);
		}
		fputc('\n', out);
	}
	fprintf(out, "\n%s\n", legend);
}

static const char *conf_name(const struct survey_num *n)
{
	static const char *const names[] = {
		[SV_LOW] = "low", [SV_MEDIUM] = "medium", [SV_HIGH] = "high",
	};

	return names[n->conf];
}

/* {"value": v, "confidence": "high"}, or null. */
static void json_num(struct json *j, const char *key,
		     const struct survey_num *n)
{
	if (!n->set) {
		json_null(j, key);
		return;
	}
	json_object_begin(j, key);
	json_u64(j, "value", n->v);
	json_string(j, "confidence", conf_name(n));
	json_object_end(j);
}

/* A register's raw value, or null. */
static void json_raw_or_null(struct json *j, const char *key,
			     const struct survey_num *n)
{
	if (n->set)
		json_u64(j, key, n->v);
	else
		json_null(j, key);
}

static void json_text_or_null(struct json *j, const char *key,
			      const char *s)
{
	if (s[0])
		json_string(j, key, s);
	else
		json_null(j, key);
}

/* {"seen": true, "size": ..., ...}, {"seen": false} or null. */
static void json_cache(struct json *j, const struct survey_row *r)
{
	if (r->cache == SV_CACHE_UNKNOWN) {
		json_null(j, "write_cache");
		return;
	}
	json_object_begin(j, "write_cache");
	json_bool(j, "seen", r->cache == SV_CACHE_SEEN);
	if (r->cache == SV_CACHE_SEEN) {
		json_u64(j, "size", r->cache_byte);
		json_bool(j, "size_at_least", r->cache_at_least);
		json_double(j, "fast_mbps", r->cache_fast_mbps);
		json_double(j, "native_mbps", r->cache_native_mbps);
	}
	json_object_end(j);
}

static void json_row(struct json *j, const struct survey_row *r)
{
	size_t i;

	json_object_begin(j, NULL);
	json_text_or_null(j, "name", r->name);
	if (r->manfid >= 0)
		json_u64(j, "manfid", (uint64_t)r->manfid);
	else
		json_null(j, "manfid");
	if (r->oemid >= 0)
		json_u64(j, "oemid", (uint64_t)r->oemid);
	else
		json_null(j, "oemid");
	json_text_or_null(j, "date", r->date);
	json_text_or_null(j, "serial_hash", r->serial_hash);
	json_text_or_null(j, "device", r->device);
	json_num(j, "size", &r->size);
	json_num(j, "usable_size", &r->usable);
	json_text_or_null(j, "capacity_kind", r->capacity_kind);
	json_num(j, "au_stated", &r->au_stated);
	json_num(j, "erase_size", &r->au);
	json_num(j, "page_size", &r->page);
	json_num(j, "program_unit", &r->unit);
	json_num(j, "open_au_linear", &r->open_linear);
	json_num(j, "open_au_random", &r->open_random);
	json_num(j, "fat_start", &r->fat_start);
	json_num(j, "fat_size", &r->fat_size);
	if (r->mapping[0]) {
		struct survey_num m = { .set = 1, .conf = r->mapping_conf };

		json_object_begin(j, "mapping");
		json_string(j, "value", r->mapping);
		json_string(j, "confidence", conf_name(&m));
		json_object_end(j);
	} else {
		json_null(j, "mapping");
	}
	json_num(j, "mapping_unit", &r->map_unit);
	json_cache(j, r);
	json_raw_or_null(j, "write_max_ns", &r->write_max_ns);
	json_raw_or_null(j, "write_p99_ns", &r->write_p99_ns);
	json_raw_or_null(j, "life_time_est_typ_a", &r->life_a);
	json_raw_or_null(j, "life_time_est_typ_b", &r->life_b);
	json_raw_or_null(j, "pre_eol_info", &r->pre_eol);
	json_text_or_null(j, "classes_stated", r->stated);
	json_array_begin(j, "classes_measured");
	for (i = 0; i < r->nr_classes; i++) {
		json_object_begin(j, NULL);
		json_string(j, "class", r->classes[i].name);
		json_bool(j, "pass", r->classes[i].pass);
		if (r->classes[i].within)
			json_bool(j, "within_cache", 1);
		json_object_end(j);
	}
	json_array_end(j);
	json_u64(j, "records", r->records);
	json_string(j, "grouped_by", survey_grouped_by(r));
	json_string(j, "record", r->record);
	json_string(j, "record_test", r->test);
	json_string(j, "record_version", r->version);
	json_object_end(j);
}

static void print_json(FILE *out, const struct survey_row *rows, size_t n)
{
	struct json j;
	size_t i;

	json_init(&j, out);
	json_array_begin(&j, NULL);
	for (i = 0; i < n; i++)
		json_row(&j, &rows[i]);
	json_array_end(&j);
}

void survey_print(FILE *out, const struct survey_row *rows, size_t n,
		  enum survey_format fmt)
{
	switch (fmt) {
	case SURVEY_CSV:
		print_csv(out, rows, n);
		break;
	case SURVEY_MARKDOWN:
		print_markdown(out, rows, n);
		break;
	case SURVEY_JSON:
		print_json(out, rows, n);
		break;
	default:
		print_text(out, rows, n);
		break;
	}
}
