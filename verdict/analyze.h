/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Reading align tables: decide the erase-block (AU) size and the page size
 * from the diff column, and find align tables in saved text (--analyze).
 *
 * Crossing an erase-block boundary makes a read slower, crossing a page
 * boundary a little slower.  The align test reads across boundaries of
 * every alignment A; a boundary of A is also one of the erase block when
 * A is a multiple of the erase size.  So the rows fall into up to three
 * levels: alignments that are multiples of the erase size (high diff),
 * other multiples of the page size (middle), the rest (low).  The analysis
 * fits that model for every candidate pair of sizes and keeps a step only
 * if a robust t statistic, the ratio of the levels and the size of the
 * step next to a whole read all say it is real.
 */
#ifndef FLASHBENCH_ANALYZE_H
#define FLASHBENCH_ANALYZE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "alignrec.h"
#include "rows.h"

/* One align table found in text: rows in the order they appeared. */
struct align_table {
	struct align_row *rows;		/* malloc'd */
	size_t nrows;
};

/*
 * Decide erase size and page size from the rows of one align table (any
 * order).  Returns 0 (v filled; sizes 0 with confidence none when the
 * table shows no step), -EINVAL (no rows, NULL) or -ENOMEM.
 */
int analyze_align(const struct align_row *rows, size_t n,
		  struct align_verdict *v);

/*
 * The allocation group from reads across the boundaries i * spacing +
 * align (i < npos) of rows measured at one spacing, on a card of AUs of
 * erase bytes.  Returns 0 (grp filled), -ENOENT (no group shows) or
 * -ENOMEM.
 */
int analyze_group_rows(const struct align_row *rows, size_t n,
		       uint64_t spacing, uint64_t erase,
		       struct analyze_step *grp);

/*
 * Find every align record "align N pre T on T post T diff T" in text
 * (any white space, several per line, other text ignored); a new table
 * starts where N stops decreasing.  Returns 0 with *tables (malloc'd,
 * free with analyze_free_tables) and *ntables (0 when none), or -ENOMEM.
 */
int analyze_parse(const char *text, size_t len, struct align_table **tables,
		  size_t *ntables);

/* Free what analyze_parse returned. */
void analyze_free_tables(struct align_table *tables, size_t ntables);

/* "none", "low", "medium" or "high". */
const char *analyze_confidence_name(enum analyze_confidence c);

/*
 * Print "table N: erase size 4MiB (confidence high), page size 16KiB
 * (confidence medium)", wrapped at 80 columns between sizes (the lines
 * after the first indented by four spaces); "none" for an undetermined
 * size.
 */
void analyze_print_verdict(FILE *out, size_t table_no,
			   const struct align_verdict *v);

/* Print each step's evidence, indented, wrapped at 80 columns. */
void analyze_print_evidence(FILE *out, const struct align_verdict *v);
/* The same, each line beginning with lead instead. */
void analyze_print_evidence_lead(FILE *out, const struct align_verdict *v,
				 const char *lead);

/*
 * The whole of --analyze: parse text, analyse every table and print a
 * verdict line per table (and the evidence when verbose).  Returns the
 * number of tables found (0: none) or -ENOMEM.
 */
int analyze_text(FILE *out, const char *text, size_t len, int verbose);

#endif /* FLASHBENCH_ANALYZE_H */
