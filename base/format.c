// SPDX-License-Identifier: GPL-2.0-only
/*
 * Output formats of the classic tool, kept exact because survey scripts
 * parse them, with the negative-number defect fixed; and the reading of
 * what the user types: sizes and the options getopt refused.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c.h"
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
		{ 't', 1ULL << 40 },
	};
	uint64_t mult = 0;
	size_t i;

	if (*s == '\0' || !strcmp(s, "B"))
		return 1;
	for (i = 0; i < ARRAY_SIZE(units); i++)
		if (tolower((unsigned char)*s) == units[i].c)
			mult = units[i].mult;
	if (!mult)
		return 0;
	s++;
	/* a lowercase b is bits (4Mb, 4Mib): refused, not taken as bytes */
	if (!strcmp(s, "") || !strcmp(s, "B") || !strcmp(s, "iB"))
		return mult;
	return 0;
}

size_t size_bits_suffix(const char *s)
{
	const char *digits = s, *end;
	size_t keep;

	if (*s == '0' && (s[1] == 'x' || s[1] == 'X'))
		digits = s + 2;
	end = digits + strspn(digits, digits == s ? "0123456789" :
					"0123456789abcdefABCDEF");
	if (end == digits)
		return 0;
	keep = (size_t)(end - s);
	if (*end && strchr("kKmMgGtT", *end)) {
		keep++;
		end += end[1] == 'i' ? 2 : 1;
	}
	return strcmp(end, "b") ? 0 : keep;
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

/* The long option whose name starts the text after "--" in a, or NULL. */
static const struct option *long_typed(const char *a,
				       const struct option *opts)
{
	size_t n = strcspn(a + 2, "=");
	const struct option *o, *found = NULL;

	for (o = opts; o->name; o++) {
		if (strncmp(o->name, a + 2, n))
			continue;
		if (strlen(o->name) == n)
			return o;
		found = found ? found : o;
	}
	return found;
}

/* "option '--ver' is ambiguous; possibilities: '--verbose' '--version'" */
static char *ambiguous(char *buf, size_t len, const char *a,
		       const struct option *opts)
{
	size_t n = strcspn(a + 2, "="), used;
	const struct option *o;

	used = (size_t)snprintf(buf, len,
				"option '%.*s' is ambiguous; possibilities:",
				(int)n + 2, a);
	for (o = opts; o->name && used < len; o++)
		if (!strncmp(o->name, a + 2, n))
			used += (size_t)snprintf(buf + used, len - used,
						 " '--%s'", o->name);
	return buf;
}

char *getopt_problem(char *buf, size_t len, int ret, int argc,
		     char *const argv[], const struct option *opts)
{
	const char *a = optind >= 1 && optind <= argc ? argv[optind - 1] : "";
	const struct option *o = NULL;
	int n = (int)strcspn(a, "=");

	/*
	 * getopt leaves optind on a cluster ("-Za") until its last letter,
	 * so argv[optind - 1] may be an earlier long option: it is the one
	 * at fault only if optopt is 0 (unknown or ambiguous long option)
	 * or that long option's own value.
	 */
	if (!strncmp(a, "--", 2) && a[2])
		o = long_typed(a, opts);
	if (!strncmp(a, "--", 2) && a[2] && !optopt && o)
		return ambiguous(buf, len, a, opts);
	if (!strncmp(a, "--", 2) && a[2] && !optopt)
		snprintf(buf, len, "unrecognized option '%.*s'", n, a);
	else if (o && o->val == optopt && ret == ':')
		snprintf(buf, len, "option '%.*s' requires an argument", n, a);
	else if (o && o->val == optopt)
		snprintf(buf, len, "option '%.*s' doesn't allow an argument",
			 n, a);
	else if (ret == ':')
		snprintf(buf, len, "option '-%c' requires an argument", optopt);
	else
		snprintf(buf, len, "unrecognized option '-%c'", optopt);
	return buf;
}

/*
 * Names come from the command line and the file system, which hold bytes,
 * not text; JSON and XML must be UTF-8, so the writers check each
 * character.  Overlong forms, surrogates and code points past U+10FFFF
 * are not UTF-8 either (RFC 3629).
 */
size_t utf8_char_len(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned int cp, min, i, len;

	if (p[0] < 0x80)
		return 1;
	if ((p[0] & 0xe0) == 0xc0) {
		len = 2, cp = p[0] & 0x1f, min = 0x80;
	} else if ((p[0] & 0xf0) == 0xe0) {
		len = 3, cp = p[0] & 0x0f, min = 0x800;
	} else if ((p[0] & 0xf8) == 0xf0) {
		len = 4, cp = p[0] & 0x07, min = 0x10000;
	} else {
		return 0;
	}
	for (i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;	/* also stops at the NUL */
		cp = (cp << 6) | (p[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}
