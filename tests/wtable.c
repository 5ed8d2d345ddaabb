// SPDX-License-Identifier: GPL-2.0-only
/*
 * Running a writing test on the simulated card and reading back the
 * classic table it printed (see wtable.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "modes.h"
#include "progs.h"
#include "util.h"
#include "wtable.h"

struct unit {
	const char *suffix;
	double mult;
};

/* A number followed by one of n units; 0 or -EINVAL. */
static int parse_unit(const char *s, const struct unit *units, size_t n,
		      double *v)
{
	char *end;
	size_t i;
	double x = strtod(s, &end);

	if (end == s)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (!strcmp(end, units[i].suffix)) {
			*v = x * units[i].mult;
			return 0;
		}
	return -EINVAL;
}

/* Undo fmt_rate(): "8.79M/s" -> 8.79e6.  Returns 0 or -EINVAL. */
static int parse_rate(const char *s, double *v)
{
	static const struct unit units[] = {
		{ "B/s", 1 }, { "K/s", 1e3 }, { "M/s", 1e6 }, { "G/s", 1e9 },
	};

	return parse_unit(s, units, sizeof(units) / sizeof(units[0]), v);
}

int parse_size_cell(const char *s, double *v)
{
	static const struct unit units[] = {
		{ "B", 1 }, { "KiB", 1024.0 }, { "MiB", 1048576.0 },
		{ "GiB", 1073741824.0 },
	};

	return parse_unit(s, units, sizeof(units) / sizeof(units[0]), v);
}

/*
 * Split classic write-table output into cells, failing the test unless
 * every cell is "%-7s " (so every line ends in a space) and every line
 * ends in a newline.
 */
void split_table(const char *out, struct table *t)
{
	const char *p = out;

	memset(t, 0, sizeof(*t));
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t c = 0;

		ck_assert_msg(nl, "unterminated line: '%s'", p);
		ck_assert_uint_lt(t->nrows, MAX_ROWS);
		while (p < nl) {
			size_t len = strcspn(p, " \n"), pad;

			ck_assert_msg(len > 0 && len < FMT_LEN,
				      "bad cell in '%.*s'", (int)(nl - p), p);
			ck_assert_uint_lt(c, MAX_COLS);
			memcpy(t->cell[t->nrows][c], p, len);
			t->cell[t->nrows][c][len] = '\0';
			p += len;
			/* bytes, not characters: "µs" cells are not used here */
			pad = len < 7 ? 7 - len + 1 : 1;
			ck_assert_msg(strspn(p, " ") == pad,
				      "cell '%s' padded wrongly in row %zu",
				      t->cell[t->nrows][c], t->nrows);
			p += pad;
			c++;
		}
		t->ncols[t->nrows++] = c;
		p = nl + 1;
	}
}

/* The rate in a cell, failing the test if it is not one. */
double rate_of(const struct table *t, size_t row, size_t col)
{
	double v;

	ck_assert_uint_lt(col, t->ncols[row]);
	ck_assert_msg(parse_rate(t->cell[row][col], &v) == 0,
		      "row %zu col %zu: '%s' is not a rate", row, col,
		      t->cell[row][col]);
	return v;
}

static int debug(void)
{
	return getenv("WRITES_DEBUG") != NULL;
}

/* Run a writing test on the simulated card described by spec. */
void run_on(struct wrun *w, const char *spec, unsigned int test,
	    const struct bench_opts *o)
{
	struct device *dev = sim_card(spec);
	FILE *f;

	memset(w, 0, sizeof(*w));
	f = open_memstream(&w->out, &w->out_len);
	ck_assert_ptr_nonnull(f);
	w->ret = progs_run(dev, test_of(test)->prog, o, f, &w->tab, w->err,
			   sizeof(w->err));
	fclose(f);
	dev_close(dev);
	if (debug())
		fprintf(stderr, "--- %s (nr %u%s):\n%s", spec, o->open_au_nr,
			o->random ? ", random" : "", w->out);
	ck_assert_msg(w->ret == 0, "%s: %s", spec, w->err);
	split_table(w->out, &w->t);
	/* the printed table and the raw one agree */
	ck_assert_uint_eq(w->tab.nrows, w->t.nrows);
}

void wrun_done(struct wrun *w)
{
	free(w->out);
	vm_table_free(&w->tab);
}

/*
 * The throughput of row r (column c) from the printed cell, checked
 * against the raw number behind it (three significant digits).
 */
double rate_at(const struct wrun *w, size_t r, size_t c)
{
	double printed = rate_of(&w->t, r, c);
	const struct vm_cell *cell;

	ck_assert_uint_lt(c, w->tab.rows[r].ncells);
	cell = &w->tab.rows[r].cells[c];
	ck_assert_int_eq(cell->unit, VM_UNIT_BPS);
	ck_assert_double_eq_tol(printed, cell->value, cell->value * 0.006);
	return printed;
}
