// SPDX-License-Identifier: GPL-2.0-only
/*
 * The checks of the tests modes/ implements (test.h's check op): what each
 * needs of the command line and of the device, found before a single
 * write, said in terms of the options the user gave.  The front end runs
 * them row by row and prints what they say.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>

#include "class.h"
#include "format.h"
#include "progs.h"
#include "testcheck.h"

/* The first size -i reads. */
#define MIN_IO_BYTE		512ULL

int test_why(const struct test_check *k, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(k->why, k->why_len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

uint64_t test_round_up(uint64_t x, uint64_t m)
{
	uint64_t r = x % m;

	if (!r)
		return x;
	return x > UINT64_MAX - (m - r) ? UINT64_MAX : x + (m - r);
}

char *test_offset_text(char *buf, size_t len, uint64_t v)
{
	static const char units[] = "GMK";
	unsigned int i;

	for (i = 0; i < 3; i++) {
		unsigned int shift = 30 - 10 * i;

		if (v && !(v & ((1ULL << shift) - 1))) {
			snprintf(buf, len, "%" PRIu64 "%c", v >> shift,
				 units[i]);
			return buf;
		}
	}
	snprintf(buf, len, "%" PRIu64, v);
	return buf;
}

/* Option name as messages quote it. */
static const char *text(const struct test_check *k, const char *name)
{
	return k->text(k->ctx, name);
}

/* ---- the read tests: how far they reach ---- */

int align_check(const struct test *t, const struct test_check *k,
		enum test_check_at at)
{
	const struct bench_opts *o = k->o;
	const struct device *dev = k->dev;
	const char *bs = text(k, "blocksize");
	char size[FMT_LEN];

	(void)t;
	if (at != TEST_CHECK_DEVICE)
		return 0;
	if ((o->blocksize_byte / 2) % dev->logical_block_size)
		return test_why(k,
				"invalid --blocksize '%s': --align needs at least %u, twice the logical block size of %s (it reads at half-block offsets)",
				bs, 2 * dev->logical_block_size, dev->path);
	/* the smallest maxalign is two blocks: 7 * 2 + 1 blocks */
	if (align_max(dev->size_byte, o->blocksize_byte) >=
	    2 * o->blocksize_byte)
		return 0;
	if (k->given(k->ctx, "blocksize"))
		return test_why(k,
				"invalid --blocksize '%s': --align needs 15 blocks, more than " TEST_DEV_FMT,
				bs, dev->path, k->dev_byte);
	return test_why(k,
			"--align needs 15 blocks of the default --blocksize (%s), more than " TEST_DEV_FMT "; give a smaller -b",
			fmt_size(size, o->blocksize_byte), dev->path,
			k->dev_byte);
}

int scatter_check(const struct test *t, const struct test_check *k,
		  enum test_check_at at)
{
	if (at != TEST_CHECK_DEVICE ||
	    progs_extent(t->prog, k->o, k->dev) <= k->dev->size_byte)
		return 0;
	return test_why(k,
			"--scatter-order=%s --scatter-span=%s --blocksize=%s reach past the end of " TEST_DEV_FMT,
			text(k, "scatter-order"), text(k, "scatter-span"),
			text(k, "blocksize"), k->dev->path, k->dev_byte);
}

int interval_check(const struct test *t, const struct test_check *k,
		   enum test_check_at at)
{
	const struct device *dev = k->dev;

	if (at != TEST_CHECK_DEVICE)
		return 0;
	if (interval_first_len(dev->logical_block_size) >
	    MIN_IO_BYTE << (k->o->interval_order - 1))
		return test_why(k,
				"invalid --interval-order '%s': its largest read is smaller than the %u-byte logical blocks of %s",
				text(k, "interval-order"),
				dev->logical_block_size, dev->path);
	if (progs_extent(t->prog, k->o, dev) > dev->size_byte)
		return test_why(k,
				"--interval-order=%s --count=%s reach past the end of " TEST_DEV_FMT,
				text(k, "interval-order"), text(k, "count"),
				dev->path, k->dev_byte);
	return 0;
}

/* ---- the writing tests: where they start, how far they reach ---- */

/*
 * Where test t would write on a device of any size, for messages: how
 * many erase sizes apart its AUs start (0: one range) and the end of the
 * last range.  Returns 0, or -EINVAL when that overflows 64 bits.
 */
static int write_footprint(const struct test *t, const struct bench_opts *o,
			   uint64_t *spacing_au, uint64_t *end_byte)
{
	enum bench_test bit = (enum bench_test)t->test;
	struct bench_range *r;
	int n;

	n = t->plan(bit, o, UINT64_MAX, NULL, 0);
	if (n <= 0)
		return -EINVAL;
	r = calloc((size_t)n, sizeof(*r));
	if (!r || t->plan(bit, o, UINT64_MAX, r, (size_t)n) != n) {
		free(r);
		return -EINVAL;
	}
	*spacing_au = n < 2 ? 0 : (r[1].start_byte - r[0].start_byte) /
				  o->erasesize_byte;
	*end_byte = r[n - 1].end_byte;
	free(r);
	return 0;
}

/*
 * How a VM program's writes reach past the end, into buf: -O spaces its
 * AUs apart, so its footprint is far larger than --open-au-nr erase
 * blocks.
 */
static const char *reach(const struct test *t, const struct test_check *k,
			 char *buf, size_t len)
{
	uint64_t spacing = 0, end = 0;

	snprintf(buf, len, "reaches past the end");
	if (!write_footprint(t, k->o, &spacing, &end) && spacing)
		snprintf(buf, len,
			 "writes %s AUs spaced %" PRIu64 " AUs apart, up to byte %" PRIu64 ", past the end",
			 text(k, "open-au-nr"), spacing, end);
	else if (end)
		snprintf(buf, len,
			 "writes up to byte %" PRIu64 ", past the end", end);
	return buf;
}

/*
 * -O writes whole AUs from --offset: an offset off the AU grid makes every
 * write straddle two AUs, which measures something else.  Refused rather
 * than rounded, so the offset the user reads back is the one used.
 */
static int open_au_offset(const struct test_check *k)
{
	const uint64_t es = k->o->erasesize_byte, off = k->o->offset_byte;
	char size[FMT_LEN], down[FMT_LEN], up[FMT_LEN];

	if (!(off % es))
		return 0;
	test_offset_text(down, sizeof(down), off - off % es);
	if (test_round_up(off, es) == UINT64_MAX)
		return test_why(k,
				"invalid --offset '%s': not a multiple of the erase size (%s), so each write would straddle two AUs; nearest valid offset: %s",
				text(k, "offset"), fmt_size(size, es), down);
	return test_why(k,
			"invalid --offset '%s': not a multiple of the erase size (%s), so each write would straddle two AUs; nearest valid offsets: %s and %s",
			text(k, "offset"), fmt_size(size, es), down,
			test_offset_text(up, sizeof(up),
					 test_round_up(off, es)));
}

int open_au_check(const struct test *t, const struct test_check *k,
		  enum test_check_at at)
{
	char buf[160];

	if (at == TEST_CHECK_LINE)
		return open_au_offset(k);
	if (at == TEST_CHECK_DEVICE) {
		if (!(k->o->offset_byte % k->dev->logical_block_size))
			return 0;
		return test_why(k,
				"invalid --offset '%s': not a multiple of the logical block size (%u) of %s",
				text(k, "offset"),
				k->dev->logical_block_size, k->dev->path);
	}
	return test_why(k,
			"--open-au with --offset=%s --open-au-nr=%s --erasesize=%s %s of " TEST_DEV_FMT,
			text(k, "offset"), text(k, "open-au-nr"),
			text(k, "erasesize"), reach(t, k, buf, sizeof(buf)),
			k->dev->path, k->dev_byte);
}

int find_fat_check(const struct test *t, const struct test_check *k,
		   enum test_check_at at)
{
	char buf[160];

	if (at != TEST_CHECK_PAST_END)
		return 0;
	return test_why(k,
			"--find-fat with --fat-nr=%s --erasesize=%s %s of " TEST_DEV_FMT,
			text(k, "fat-nr"), text(k, "erasesize"),
			reach(t, k, buf, sizeof(buf)), k->dev->path,
			k->dev_byte);
}

int program_check(const struct test *t, const struct test_check *k,
		  enum test_check_at at)
{
	(void)t;
	if (at != TEST_CHECK_PAST_END)
		return 0;
	return test_why(k,
			"--program needs the first 20MiB, more than " TEST_DEV_FMT,
			k->dev->path, k->dev_byte);
}

int capacity_check(const struct test *t, const struct test_check *k,
		   enum test_check_at at)
{
	(void)t;
	if (at != TEST_CHECK_PAST_END)
		return 0;
	return test_why(k,
			"--capacity needs at least 16MiB, more than " TEST_DEV_FMT,
			k->dev->path, k->dev_byte);
}

/* ---- --class ---- */

/* The AU the card states (0: none told). */
static uint64_t card_au(const struct bench_opts *o)
{
	return o->card ? o->card->au_byte : 0;
}

/*
 * -L writes units of the AU the card states (else --erasesize), at most
 * 4 MiB, from --offset: an offset off that grid is refused as -O refuses
 * one off the AU grid, rather than rounded up unsaid.  Under -v, says
 * when the card's AU overrides --erasesize.
 */
static int class_offset(const struct test_check *k)
{
	char unit[FMT_LEN], down[FMT_LEN], up[FMT_LEN];
	const struct bench_opts *o = k->o;
	uint64_t off = o->offset_byte;
	struct class_plan p;

	class_plan(&p, o, card_au(o));
	if (o->verbose && o->log && card_au(o) &&
	    k->given(k->ctx, "erasesize"))
		fprintf(o->log,
			"flashbench: --class writes units of the AU the card states (%s), not of --erasesize=%s\n",
			fmt_size(unit, card_au(o)), text(k, "erasesize"));
	if (!k->given(k->ctx, "offset") || !(off % p.unit_byte))
		return 0;
	test_offset_text(down, sizeof(down), off - off % p.unit_byte);
	test_offset_text(up, sizeof(up), test_round_up(off, p.unit_byte));
	return test_why(k,
			"invalid --offset '%s': --class writes units of %s, and it is not a multiple of them; nearest valid offsets: %s and %s",
			text(k, "offset"), fmt_size(unit, p.unit_byte), down,
			up);
}

/* -L reaching past the end: its units, its random I/O and its end. */
static int class_past_end(const struct test_check *k)
{
	char unit[FMT_LEN], span[FMT_LEN];
	struct class_plan p;

	class_plan(&p, k->o, card_au(k->o));
	return test_why(k,
			"--class with --offset=%s writes %u units of %s and %s of random I/O, up to byte %" PRIu64 ", past the end of " TEST_DEV_FMT,
			text(k, "offset"), p.units,
			fmt_size(unit, p.unit_byte),
			fmt_size(span, p.span_byte),
			p.offset_byte + p.units * p.unit_byte + p.span_byte,
			k->dev->path, k->dev_byte);
}

int class_check(const struct test *t, const struct test_check *k,
		enum test_check_at at)
{
	(void)t;
	if (at == TEST_CHECK_DEVICE)
		return class_offset(k);
	if (at == TEST_CHECK_PAST_END)
		return class_past_end(k);
	return 0;
}
