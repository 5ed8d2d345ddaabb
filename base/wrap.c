// SPDX-License-Identifier: GPL-2.0-only
/*
 * Prose wrapped at WRAP_COLS columns (see wrap.h).  A line breaks at the
 * last space that lets it fit; the spaces at the break are dropped.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "wrap.h"

size_t wrap_cols(const char *s, size_t n)
{
	size_t cols = 0, i = 0;

	while (i < n) {
		size_t len = utf8_char_len(s + i);

		i += len ? len : 1;
		cols++;
	}
	return cols;
}

/*
 * Where the line s (len bytes, starting at column col) breaks: the end
 * of its last word that fits, or of its first word if none does; len if
 * it fits whole.
 */
static size_t wrap_break(const char *s, size_t len, size_t col)
{
	size_t i, fit = 0;

	if (col + wrap_cols(s, len) <= WRAP_COLS)
		return len;
	for (i = 1; i < len; i++) {
		if (s[i] != ' ' || s[i - 1] == ' ')
			continue;
		if (col + wrap_cols(s, i) > WRAP_COLS)
			return fit ? fit : i;
		fit = i;
	}
	return fit ? fit : len;
}

/* One line of text (no newline in it), wrapped. */
static void wrap_line(FILE *out, const char *lead, const char *s, size_t len)
{
	size_t col = 0, lead_cols = wrap_cols(lead, strlen(lead));

	for (;;) {
		size_t n = wrap_break(s, len, col);

		fwrite(s, 1, n, out);
		fputc('\n', out);
		while (n < len && s[n] == ' ')
			n++;
		s += n;
		len -= n;
		if (!len)
			return;
		fputs(lead, out);
		col = lead_cols;
	}
}

void wrap_puts(FILE *out, const char *lead, const char *text)
{
	while (*text) {
		size_t len = strcspn(text, "\n");

		wrap_line(out, lead, text, len);
		text += len + (text[len] == '\n');
	}
}

void wrap_printf(FILE *out, const char *lead, const char *fmt, ...)
{
	struct wrap w;
	va_list ap;
	FILE *f = wrap_begin(&w, out, lead);

	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	wrap_end(&w);
}

FILE *wrap_begin(struct wrap *w, FILE *out, const char *lead)
{
	w->out = out;
	w->lead = lead;
	w->buf = NULL;
	w->len = 0;
	w->f = open_memstream(&w->buf, &w->len);
	return w->f ? w->f : out;
}

void wrap_end(struct wrap *w)
{
	if (!w->f)
		return;
	if (fclose(w->f) == 0 && w->buf)
		wrap_puts(w->out, w->lead, w->buf);
	free(w->buf);
	w->f = NULL;
	w->buf = NULL;
}
