// SPDX-License-Identifier: GPL-2.0-only
/*
 * The align test's rows as text and JSON (see aligntext.h); the test
 * itself, which measures them, is modes/align.c.
 */
#include <inttypes.h>

#include "aligntext.h"
#include "format.h"

void print_align(FILE *out, const struct align_row *rows, size_t nrows)
{
	char pre[FMT_LEN], on[FMT_LEN], post[FMT_LEN], diff[FMT_LEN];
	size_t i;

	for (i = 0; i < nrows; i++)
		fprintf(out, "align %" PRIu64 "\tpre %s\ton %s\tpost %s\tdiff %s\n",
			rows[i].align_byte, fmt_time(pre, rows[i].pre_ns),
			fmt_time(on, rows[i].on_ns),
			fmt_time(post, rows[i].post_ns),
			fmt_time(diff, rows[i].diff_ns));
}

void json_align(struct json *j, const struct align_row *rows, size_t nrows)
{
	size_t i;

	for (i = 0; i < nrows; i++) {
		json_object_begin(j, NULL);
		json_u64(j, "align", rows[i].align_byte);
		json_i64(j, "pre_ns", rows[i].pre_ns);
		json_i64(j, "on_ns", rows[i].on_ns);
		json_i64(j, "post_ns", rows[i].post_ns);
		json_i64(j, "diff_ns", rows[i].diff_ns);
		json_object_end(j);
	}
}
