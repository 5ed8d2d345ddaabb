// SPDX-License-Identifier: GPL-2.0-only
/*
 * Output formats of the classic tool, kept exact because survey scripts
 * parse them, with the negative-number defect fixed.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"

/*
 * Print v with prec significant digits followed by unit; returns 1 if the
 * value rounded up to 1000 and belongs to the next unit instead.
 */
static int fmt_sig(char *buf, const char *sign, double v, int prec,
		   const char *unit)
{
	char num[FMT_LEN];

	snprintf(num, sizeof(num), "%.*g", prec, v);
	if (strtod(num, NULL) >= 1000.0)
		return 1;
	snprintf(buf, FMT_LEN, "%.1s%.20s%.4s", sign, num, unit);
	return 0;
}

char *fmt_time(char *buf, int64_t ns)
{
	const char *sign = ns < 0 ? "-" : "";
	/* magnitude as unsigned: INT64_MIN has no positive counterpart */
	uint64_t mag = ns < 0 ? 0 - (uint64_t)ns : (uint64_t)ns;
	double v = (double)mag;

	if (mag < 1000) {
		snprintf(buf, FMT_LEN, "%s%" PRIu64 "ns", sign, mag);
		return buf;
	}
	if (v < 1e6 && !fmt_sig(buf, sign, v / 1e3, 3, "\u00b5s"))
		return buf;
	if (v < 1e9 && !fmt_sig(buf, sign, v / 1e6, 3, "ms"))
		return buf;
	snprintf(buf, FMT_LEN, "%s%.4gs", sign, v / 1e9);
	return buf;
}

char *fmt_size(char *buf, uint64_t bytes)
{
	double v = (double)bytes;

	if (bytes < 1024) {
		snprintf(buf, FMT_LEN, "%" PRIu64 "B", bytes);
		return buf;
	}
	if (v < 1024.0 * 1024 && !fmt_sig(buf, "", v / 1024, 3, "KiB"))
		return buf;
	if (v < 1024.0 * 1024 * 1024 &&
	    !fmt_sig(buf, "", v / (1024.0 * 1024), 3, "MiB"))
		return buf;
	snprintf(buf, FMT_LEN, "%.4gGiB", v / (1024.0 * 1024 * 1024));
	return buf;
}

char *fmt_rate(char *buf, double bytes_per_s)
{
	double v = bytes_per_s;

	if (!(v >= 0) || isinf(v)) {
		snprintf(buf, FMT_LEN, "inf");
		return buf;
	}
	if (v < 1000) {
		snprintf(buf, FMT_LEN, "%lldB/s", (long long)v);
		return buf;
	}
	if (v < 1e6 && !fmt_sig(buf, "", v / 1e3, 3, "K/s"))
		return buf;
	if (v < 1e9 && !fmt_sig(buf, "", v / 1e6, 3, "M/s"))
		return buf;
	snprintf(buf, FMT_LEN, "%.3gG/s", v / 1e9);
	return buf;
}

/* The multiplier a size suffix stands for, or 0 if it is not one. */
static uint64_t suffix_mult(const char *s)
{
	static const struct {
		char c;
		uint64_t mult;
	} units[] = {
		{ 'k', 1ULL << 10 }, { 'm', 1ULL << 20 }, { 'g', 1ULL << 30 },
	};
	uint64_t mult = 0;
	size_t i;

	if (*s == '\0' || !strcmp(s, "B"))
		return 1;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (tolower((unsigned char)*s) == units[i].c)
			mult = units[i].mult;
	if (!mult)
		return 0;
	s++;
	if (!strcmp(s, "") || !strcmp(s, "B") || !strcmp(s, "iB") ||
	    !strcmp(s, "ib") || !strcmp(s, "b"))
		return mult;
	return 0;
}

int parse_size(const char *s, uint64_t *val)
{
	uint64_t v = 0, mult;
	int base = 10;
	const char *p = s;

	if (*p == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	}
	if (!isxdigit((unsigned char)*p))
		return -EINVAL;
	for (; *p; p++) {
		unsigned int d;

		if (isdigit((unsigned char)*p))
			d = *p - '0';
		else if (base == 16 && isxdigit((unsigned char)*p))
			d = tolower((unsigned char)*p) - 'a' + 10;
		else
			break;
		if (v > (UINT64_MAX - d) / base)
			return -ERANGE;
		v = v * base + d;
	}
	mult = suffix_mult(p);
	if (!mult)
		return -EINVAL;
	if (v > UINT64_MAX / mult)
		return -ERANGE;
	*val = v * mult;
	return 0;
}
