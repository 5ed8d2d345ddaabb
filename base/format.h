/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The classic output formats that scripts parse: times, sizes and
 * throughputs.  Each writes into buf (at least FMT_LEN bytes) and returns
 * buf.
 */
#ifndef FLASHBENCH_FORMAT_H
#define FLASHBENCH_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#define FMT_LEN 32

/* "412ns", "5.85µs", "1.08ms", "1.234s"; negatives as "-5.79µs". */
char *fmt_time(char *buf, int64_t ns);

/* "512B", "512KiB", "4MiB", "1.5GiB". */
char *fmt_size(char *buf, uint64_t bytes);

/* "912B/s", "912K/s", "8.79M/s", "1.2G/s" (decimal units). */
char *fmt_rate(char *buf, double bytes_per_s);

/*
 * Parse a size: decimal (leading zeros still decimal), 0x hex, optional
 * K/M/G/T suffix in either case, optionally followed by "iB" or "B" (a
 * lowercase "b" is bits, refused).  Returns 0, -EINVAL (not a number, junk, negative) or -ERANGE (overflow).
 */
int parse_size(const char *s, uint64_t *val);

/*
 * Nonzero when s is a size in bits ("4Mb", "4Mib", "512b"), which
 * parse_size() refuses: the length of s without its "b" or "ib" (2 for
 * "4Mib"), so that a message can suggest "4M"; else 0.
 */
size_t size_bits_suffix(const char *s);

struct option;

/*
 * Say in one phrase what getopt_long() refused, for "PROG: <phrase>":
 * "unrecognized option '-Z'", "option '--ver' is ambiguous; possibilities:
 * '--verbose' '--version'", "option '--align' doesn't allow an argument"
 * or "option '-b' requires an argument".  ret is what getopt_long()
 * returned ('?' or ':', with opterr 0), and optind and optopt must be as
 * it left them.  Names the option actually at fault even inside a
 * cluster of short options after a long one.  Returns buf.
 */
char *getopt_problem(char *buf, size_t len, int ret, int argc,
		     char *const argv[], const struct option *opts);

/*
 * The length in bytes (1-4) of the well-formed UTF-8 character s starts
 * with, or 0 if s does not start with one.
 */
size_t utf8_char_len(const char *s);

#endif /* FLASHBENCH_FORMAT_H */
