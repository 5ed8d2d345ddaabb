// SPDX-License-Identifier: GPL-2.0-only
/*
 * --analyze on text: align tables as -a prints them (or as they were
 * pasted into a mail or a wiki) read back into rows, and each table's
 * verdict (verdict/analyze.c) printed, with its evidence under -v.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "c.h"
#include "analyze.h"
#include "format.h"
#include "wrap.h"

const char *analyze_confidence_name(enum analyze_confidence c)
{
	switch (c) {
	case ANALYZE_CONF_LOW:
		return "low";
	case ANALYZE_CONF_MEDIUM:
		return "medium";
	case ANALYZE_CONF_HIGH:
		return "high";
	default:
		return "none";
	}
}

/* "erase size 4MiB (confidence high)", or "erase size none", in buf. */
static void size_text(char *buf, size_t len, const char *what,
		      const struct analyze_step *s)
{
	char sz[FMT_LEN];

	if (!s->size_byte) {
		snprintf(buf, len, "%s none", what);
		return;
	}
	snprintf(buf, len, "%s %s (confidence %s)", what,
		 fmt_size(sz, s->size_byte),
		 analyze_confidence_name(s->confidence));
}

void analyze_print_verdict(FILE *out, size_t table_no,
			   const struct align_verdict *v)
{
	const struct {
		const char *what;
		const struct analyze_step *s;
		int shown;
	} sizes[] = {
		{ "erase size", &v->erase, 1 },
		{ "page size", &v->page, 1 },
		{ "program unit", &v->plane, v->plane.size_byte != 0 },
		{ "allocation group", &v->group, v->group.size_byte != 0 },
	};
	char item[128];
	size_t i, col;
	int n;

	n = fprintf(out, "table %zu: ", table_no);
	col = n > 0 ? (size_t)n : 0;
	/* a size and its confidence are not broken apart at 80 columns */
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		if (!sizes[i].shown)
			continue;
		size_text(item, sizeof(item), sizes[i].what, sizes[i].s);
		if (i && col + 2 + strlen(item) > WRAP_COLS) {
			fputs(",\n    ", out);
			col = 4;
		} else if (i) {
			fputs(", ", out);
			col += 2;
		}
		fputs(item, out);
		col += strlen(item);
	}
	fputc('\n', out);
}

/* One step's evidence on a line that begins with lead. */
static void print_step(FILE *out, const char *lead, const char *what,
		       const struct analyze_step *s)
{
	char sz[FMT_LEN], up[FMT_LEN], lo[FMT_LEN], sg[FMT_LEN], cont[64];
	struct wrap w;

	if (!s->candidate_byte) {
		fprintf(out, "%s%s: no step to test\n", lead, what);
		return;
	}
	snprintf(cont, sizeof(cont), "%s  ", lead);
	out = wrap_begin(&w, out, cont);
	fprintf(out, "%s%s: %s %s: diff %s on %zu rows vs %s on %zu rows, ",
		lead, what, s->size_byte ? "step at" : "rejected",
		fmt_size(sz, s->candidate_byte),
		fmt_time(up, (int64_t)llround(s->upper_ns)), s->n_upper,
		fmt_time(lo, (int64_t)llround(s->lower_ns)), s->n_lower);
	fprintf(out, "noise %s, ratio %.3g, t %.3g, step %.3g%% of a read, ",
		fmt_time(sg, (int64_t)llround(s->sigma_ns)), s->ratio, s->t,
		100 * s->rel);
	fprintf(out, "%zu misfits, %zu far below, spike chance %.2g\n",
		s->n_misfit, s->n_drop, s->spike_p);
	wrap_end(&w);
}

void analyze_print_evidence_lead(FILE *out, const struct align_verdict *v,
				 const char *lead)
{
	print_step(out, lead, "erase", &v->erase);
	print_step(out, lead, "page", &v->page);
	if (v->plane.candidate_byte)
		print_step(out, lead, "program unit", &v->plane);
	if (v->group.candidate_byte)
		print_step(out, lead, "allocation group", &v->group);
}

void analyze_print_evidence(FILE *out, const struct align_verdict *v)
{
	analyze_print_evidence_lead(out, v, "  ");
}

/* ---- the --analyze parser ---- */

/* A run of non-space bytes in the text. */
struct tok {
	const char *s;
	size_t len;
};

/*
 * Length of the white space at p: ASCII, U+00A0 (also as an HTML entity)
 * and the Unicode spaces.
 */
static size_t space_len(const unsigned char *p, size_t left)
{
	if (strchr(" \t\n\r\v\f", p[0]) && p[0])
		return 1;
	if (left >= 2 && p[0] == 0xc2 && p[1] == 0xa0)
		return 2;
	/* a no-break space in HTML source */
	if (left >= 6 && (!strncasecmp((const char *)p, "&nbsp;", 6) ||
			  !strncmp((const char *)p, "&#160;", 6)))
		return 6;
	if (left < 3)
		return 0;
	/* U+2000..U+200B, U+202F, U+205F, U+3000 */
	if (p[0] == 0xe2 && p[1] == 0x80 &&
	    ((p[2] >= 0x80 && p[2] <= 0x8b) || p[2] == 0xaf))
		return 3;
	if (p[0] == 0xe2 && p[1] == 0x81 && p[2] == 0x9f)
		return 3;
	if (p[0] == 0xe3 && p[1] == 0x80 && p[2] == 0x80)
		return 3;
	return 0;
}

/* Split text into tokens; returns the count or -ENOMEM. */
static long tokenize(const char *text, size_t len, struct tok **toks)
{
	const unsigned char *p = (const unsigned char *)text;
	struct tok *t = NULL, *nt;
	size_t i = 0, start, n = 0, room = 0;

	while (i < len) {
		size_t sp = space_len(p + i, len - i);

		if (sp) {
			i += sp;
			continue;
		}
		start = i;
		while (i < len && !space_len(p + i, len - i))
			i++;
		if (n == room) {
			room = room ? 2 * room : 256;
			nt = realloc(t, room * sizeof(*t));
			if (!nt) {
				free(t);
				return -ENOMEM;
			}
			t = nt;
		}
		t[n].s = text + start;
		t[n].len = i - start;
		n++;
	}
	*toks = t;
	return (long)n;
}

static int tok_is(const struct tok *t, const char *word)
{
	return t->len == strlen(word) && !memcmp(t->s, word, t->len);
}

/*
 * Length of the micro sign at the start of s, in any form a mail archive
 * or a web page turns U+00B5 into, or 0: the sign itself, the Greek mu
 * that some fonts and editors substitute, UTF-8 shown as Latin-1 and
 * encoded again ("\xc3\x82\xc2\xb5", list archives), the bare Latin-1
 * byte, HTML entities, and the ASCII "u".
 */
static size_t micro_len(const char *s, size_t len)
{
	static const char *const forms[] = {
		"\xc2\xb5",		/* U+00B5 MICRO SIGN */
		"\xce\xbc",		/* U+03BC GREEK SMALL LETTER MU */
		"\xc3\x82\xc2\xb5",	/* U+00B5 shown as Latin-1 */
		"\xc3\x8e\xc2\xbc",	/* U+03BC shown as Latin-1 */
		"\xb5",		/* Latin-1 */
		"&micro;", "&mu;", "&#181;", "&#xb5;", "&#956;", "&#x3bc;",
		"u",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(forms); i++) {
		size_t n = strlen(forms[i]);

		if (n <= len && !strncasecmp(s, forms[i], n))
			return n;
	}
	return 0;
}

/*
 * Nanoseconds per unit, or 0 if s is not a time unit; an empty unit
 * (raw ns) only counts when glued to its number.
 */
static double unit_ns(const char *s, size_t len, int glued)
{
	static const struct {
		const char *name;
		double ns;
	} units[] = {
		{ "", 1 },		/* classic: raw ns cut to 7 chars */
		{ "n", 1 },		/* ditto, "ns" cut after the n */
		{ "ns", 1 },
		{ "ms", 1e6 },
		{ "s", 1e9 },
	};
	size_t i, mu;

	/* punctuation a web page may glue on */
	while (len && strchr(",;)]", s[len - 1]))
		len--;
	if (!len && !glued)
		return 0;
	mu = micro_len(s, len);
	if (mu && len == mu + 1 && s[mu] == 's')
		return 1e3;
	for (i = 0; i < ARRAY_SIZE(units); i++)
		if (strlen(units[i].name) == len &&
		    !memcmp(units[i].name, s, len))
			return units[i].ns;
	return 0;
}

/*
 * Parse a decimal number at the start of s; returns the bytes used (0 if
 * none) and the value in *val.
 */
static size_t parse_number(const char *s, size_t len, double *val)
{
	size_t i = 0, digits = 0;
	double v = 0;
	int neg = 0;

	if (i < len && (s[i] == '-' || s[i] == '+'))
		neg = s[i++] == '-';
	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++, digits++)
		v = v * 10 + (s[i] - '0');
	if (i < len && s[i] == '.') {
		double scale = 1;

		for (i++; i < len && s[i] >= '0' && s[i] <= '9';
		     i++, digits++) {
			scale /= 10;
			v += scale * (s[i] - '0');
		}
	}
	if (!digits)
		return 0;
	*val = neg ? -v : v;
	return i;
}

/* A time value: "741µs", "741 µs", "-49389n", "-412331". */
struct tval {
	double ns;
	int cut;		/* may be the classic's truncated raw ns */
};

/* Parse a time starting at token *i; advances *i past it. */
static int parse_time(const struct tok *t, size_t nt, size_t *i,
		      struct tval *tv)
{
	const struct tok *k = &t[*i];
	double v, mult;
	size_t used;

	if (*i >= nt)
		return -EINVAL;
	used = parse_number(k->s, k->len, &v);
	if (!used)
		return -EINVAL;
	mult = unit_ns(k->s + used, k->len - used, 1);
	if (!mult)
		return -EINVAL;
	tv->cut = v < 0 && k->len == 7 && used == 7;
	(*i)++;
	/* a unit in its own token after a bare number */
	if (used == k->len && *i < nt && unit_ns(t[*i].s, t[*i].len, 0)) {
		mult = unit_ns(t[*i].s, t[*i].len, 0);
		tv->cut = 0;
		(*i)++;
	}
	v *= mult;
	if (!(fabs(v) < 9e18))
		return -EINVAL;
	tv->ns = v;
	return 0;
}

/* The alignment after "align": a size, as the options take it. */
static int parse_align(const struct tok *k, uint64_t *val)
{
	char buf[32];

	if (!k->len || k->len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, k->s, k->len);
	buf[k->len] = '\0';
	if (parse_size(buf, val) || !*val)
		return -EINVAL;
	return 0;
}

/*
 * The classic printed a negative diff as raw ns cut to 7 characters, so
 * "-412331" may be -412331 ns or -4123312 ns and more.  The diff is also
 * on - (pre + post) / 2 of the printed columns: take the scale nearest to
 * that.
 */
static double uncut_diff(double diff, double recomputed)
{
	double best = diff, v = diff;
	int k;

	for (k = 1; k <= 3; k++) {
		v *= 10;
		if (fabs(v - recomputed) < fabs(best - recomputed))
			best = v;
	}
	return best;
}

/* Parse the record starting at token i ("align"); *next past it. */
static int parse_record(const struct tok *t, size_t nt, size_t i,
			struct align_row *row, size_t *next)
{
	static const char *const names[] = { "pre", "on", "post", "diff" };
	struct tval tv[4];
	size_t f;
	double re;

	memset(row, 0, sizeof(*row));
	if (i + 9 >= nt || !tok_is(&t[i], "align") ||
	    parse_align(&t[i + 1], &row->align_byte))
		return -EINVAL;
	i += 2;
	for (f = 0; f < 4; f++) {
		if (i >= nt || !tok_is(&t[i], names[f]))
			return -EINVAL;
		i++;
		if (parse_time(t, nt, &i, &tv[f]))
			return -EINVAL;
	}
	re = tv[1].ns - (tv[0].ns + tv[2].ns) / 2;
	if (tv[3].cut)
		tv[3].ns = uncut_diff(tv[3].ns, re);
	row->pre_ns = llround(tv[0].ns);
	row->on_ns = llround(tv[1].ns);
	row->post_ns = llround(tv[2].ns);
	row->diff_ns = llround(tv[3].ns);
	*next = i;
	return 0;
}

/* Append row to the last table, or to a new one. */
static int add_row(struct align_table **tables, size_t *ntables,
		   size_t *cap, size_t *rowcap, const struct align_row *row)
{
	struct align_table *tab, *nt;
	struct align_row *nr;

	tab = *ntables ? &(*tables)[*ntables - 1] : NULL;
	if (!tab || row->align_byte >= tab->rows[tab->nrows - 1].align_byte) {
		if (*ntables == *cap) {
			*cap = *cap ? 2 * *cap : 4;
			nt = realloc(*tables, *cap * sizeof(*nt));
			if (!nt)
				return -ENOMEM;
			*tables = nt;
		}
		tab = &(*tables)[(*ntables)++];
		tab->rows = NULL;
		tab->nrows = 0;
		*rowcap = 0;
	}
	if (tab->nrows == *rowcap) {
		*rowcap = *rowcap ? 2 * *rowcap : 32;
		nr = realloc(tab->rows, *rowcap * sizeof(*nr));
		if (!nr)
			return -ENOMEM;
		tab->rows = nr;
	}
	tab->rows[tab->nrows++] = *row;
	return 0;
}

int analyze_parse(const char *text, size_t len, struct align_table **tables,
		  size_t *ntables)
{
	struct align_row row;
	struct tok *toks;
	size_t i, next, room = 0, rowcap = 0;
	long nt;
	int ret = 0;

	*tables = NULL;
	*ntables = 0;
	nt = tokenize(text, len, &toks);
	if (nt < 0)
		return (int)nt;
	for (i = 0; i < (size_t)nt; i++) {
		if (parse_record(toks, (size_t)nt, i, &row, &next))
			continue;
		ret = add_row(tables, ntables, &room, &rowcap, &row);
		if (ret)
			break;
		i = next - 1;
	}
	free(toks);
	if (ret) {
		analyze_free_tables(*tables, *ntables);
		*tables = NULL;
		*ntables = 0;
	}
	return ret;
}

void analyze_free_tables(struct align_table *tables, size_t ntables)
{
	size_t i;

	for (i = 0; i < ntables; i++)
		free(tables[i].rows);
	free(tables);
}

int analyze_text(FILE *out, const char *text, size_t len, int verbose)
{
	struct align_table *tables;
	struct align_verdict v;
	size_t i, n;
	int ret;

	ret = analyze_parse(text, len, &tables, &n);
	if (ret)
		return ret;
	for (i = 0; i < n; i++) {
		ret = analyze_align(tables[i].rows, tables[i].nrows, &v);
		if (ret)
			break;
		analyze_print_verdict(out, i + 1, &v);
		if (verbose)
			analyze_print_evidence(out, &v);
	}
	analyze_free_tables(tables, n);
	return ret ? ret : (int)n;
}
