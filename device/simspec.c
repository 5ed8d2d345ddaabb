// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulated card's SPEC (--simulate): the defaults, the key table,
 * parsing and validation (see sim.c for the card model).
 *
 * SPEC keys (comma-separated key=value, each at most once; sizes take
 * K/M/G/T suffixes and 0x):
 *   size=8G        capacity, a multiple of 512 of at least 4 AUs; when
 *                  it is not a multiple of erase, the last AU is partial.
 *                  Not given: 8G less what makes a partial AU (erase=12M
 *                  gives 682 AUs)
 *   erase=4M       AU size: a power of two or 3*2^n, a multiple of page
 *   page=16K       flash page, a power of two >= 512
 *   open=4         AUs kept open in linear order (1..1024)
 *   open_random=2  AUs kept open in random order (0..open; default: open
 *                  when open is given).  0: a card that keeps none, as
 *                  some do: every out-of-order write costs a copy
 *   fat=1          FAT-optimised AUs (0 = none)
 *   fat_start=0    index of the first FAT-optimised AU
 *   noise=1        timing noise, percent (0..100, may be fractional)
 *   seed=1         noise seed
 *   read_mbps=25   read rate, 10^6 bytes/s
 *   write_mbps=12  write rate, 10^6 bytes/s
 *   access_us=700  access time per command, µs
 *   page_us=160    page_cost: extra cost of each further page read, µs
 *   au_us=150      au_cost: extra cost of a read crossing an AU, µs
 *   erase_us=2000  erase time added when GC closes an AU with old data, µs
 *   discard_us=100 discard_cost, µs
 *   fat_mbps=24    write rate in FAT AUs (default: twice write_mbps)
 *   fat_page=512   program unit in FAT AUs, a power of two <= page
 *   fat_kind=both  which writes the FAT area speeds up: linear (what -f
 *                  shows), random (only random-order small writes, what
 *                  -f --random shows on many real cards) or both
 *   readsig=1      0: reads cost the same wherever they are (no page or
 *                  AU step), as on eMMC and behind USB bridges; the AU
 *                  is then found only by writing
 *   plane=1        pages read at once (multi-plane), a power of two <= 64
 *   plane_us=80    extra cost of a read crossing plane * page, µs
 *   group=0        allocation group size, 0 = none, else >= erase
 *   group_us=300   extra cost of a read crossing a group boundary, µs
 *   au_spread=1    alignments the AU step spreads over (1..16)
 *   pause_pct=0    chance of a pause per request, percent
 *   pause_us=2000  scale of the pauses, µs
 *   readahead=0    read-ahead window past the last read, 0 = none
 *   random_mbps=12 write rate of writes out of sequence (default:
 *                  write_mbps)
 *   collapse=sharp sharp, or gradual (one AU over `open` costs a little)
 *   real_size=0    what really stores data, a multiple of 512 up to size;
 *                  0 = size (a genuine card).  See Fake cards
 *   fake=limbo-zero  what lies past real_size: limbo-zero, limbo-garbage
 *                  or wrap (needs real_size)
 *   cache=0        write cache in front of the flash, bytes, a multiple
 *                  of 512; 0 = none
 *   cache_kind=through  through, or back (a write-back cache)
 *   claims=none    the classes the card states in its SSR, joined by +:
 *                  C2 C4 C6 C10 (speed), U1 U3 (UHS), V6 V10 V30 V60
 *                  V90 (video), A1 A2 (application), e.g. C10+U1+A1.
 *                  Only what it states: its rates decide what it meets
 *   queue=0        command queue depth (2..32; 0 = none): queued requests
 *                  overlap their access time, as on A2 cards whose host
 *                  enables the queue (see Queued requests)
 *   queue_cache=0  1: writes queued together go to the card's cache,
 *                  programmed together in whole pages (needs queue)
 *   ooo=random     random, merge, copy-whole or copy-written: what a
 *                  write below an open AU's pointer costs
 *   random_us=0    extra cost of an out-of-order write in random mode, µs
 *   close=old      old, rest or all: what closing an AU copies
 *   fullclose=0    1: an AU written in order to its end closes, free
 *   evict=lru      lru or oldest: which open AU closes first
 *   used=1         0: a new card, every AU erased
 *   fat_gain=both  both, speed or slot: what the FAT area gains
 *   busy_pct=0     chance a request starts a busy spell of the host, %
 *   busy_us=4000   a delayed request's wait, µs (jittered by half)
 *   busy_burst=1   mean requests a busy spell delays (1..1000)
 *   host=quiet     quiet, light or heavy: presets of the busy_ keys
 *   au=0           the AU the card states in its SSR (16K 32K 64K 128K
 *                  256K 512K 1M 2M 4M 8M 12M 16M 24M 32M 64M); with
 *                  claims= and no au= the erase size when one of these.
 *                  With claims= or au= the card shows registers (cid,
 *                  csd, scr, ssr) as a card in an SD slot does
 * Today's cards (see sim.c; each off by default):
 *   sector=512     logical block size, 512 or 4K (a 4Kn device)
 *   ftl=block      block (AUs, the keys above) or page (simpage.c)
 *   map=4K         page-mapped: the mapping unit, a power of two >= 512
 *                  dividing erase
 *   spare=7        page-mapped: flash beyond size, percent (0..100)
 *   slc=0          pSLC write cache, bytes, at most size (simcache.c)
 *   slc_mbps=48    its write rate (default: 4 * write_mbps)
 *   fold_mbps=12   its fold rate while idle (default: write_mbps)
 *   maint_ms=0     background work after idle, ms (simstall.c)
 *   maint_idle_ms=500  idle before it starts, ms
 *   stall_ms=300   a long write stall, ms
 *   stall_bytes=0  one every this many bytes written, 0 = none
 *   stall_writes=0 the same in pages (N: every N pages written), 0 =
 *                  none; stall_bytes wins
 * The defaults look like the cards in the classic README: ~740µs for a 1 KiB
 * read, diff ~160µs at page and ~310µs at AU boundaries.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c.h"
#include "card.h"
#include "format.h"
#include "sim.h"
#include "simint.h"

#define SIM_MIN_AUS	4		/* "a few AUs" at least */
#define SIM_MAX_AUS	(1ULL << 24)	/* bounds the per-AU state */
#define SIM_MAX_ERASE	(1ULL << 30)	/* per-AU state is 32-bit */
#define SIM_MAX_OPEN	1024		/* real cards have 1..30 */
#define SIM_MIN_MBPS	0.01		/* keeps the clock from overflow */
#define SIM_MAX_MBPS	1e6
#define SIM_MAX_PLANE	64		/* real cards read 2 or 4 pages */
#define SIM_MAX_SPREAD	16		/* rows an AU step may spread over */

void sim_params_default(struct sim_params *p)
{
	memset(p, 0, sizeof(*p));
	p->size_byte = 8ULL << 30;
	p->erase_byte = 4 << 20;
	p->page_byte = 16 << 10;
	p->open_au = 4;
	p->open_random = 2;
	p->fat_nr = 1;
	p->fat_start = 0;
	p->noise_pct = 1;
	p->seed = 1;
	p->read_mbps = 25;
	p->write_mbps = 12;
	p->access_us = 700;
	p->page_us = 160;
	p->au_us = 150;
	p->erase_us = 2000;
	p->discard_us = 100;
	p->fat_mbps = 0;
	p->fat_page_byte = 512;
	p->fat_kind = SIM_FAT_BOTH;
	p->readsig = 1;
	p->plane = 1;
	p->plane_us = 80;
	p->group_us = 300;
	p->au_spread = 1;
	p->pause_us = 2000;
	p->collapse = SIM_COLLAPSE_SHARP;
	p->used = 1;
	p->busy_us = 4000;
	p->busy_burst = 1;
	p->sector_byte = SIM_SECTOR;
	p->map_byte = 4 << 10;
	p->spare_pct = 7;
	p->maint_idle_ms = 500;
	p->stall_ms = 300;
}

enum sim_key_id {
	SK_SIZE, SK_ERASE, SK_PAGE, SK_OPEN, SK_OPEN_RANDOM, SK_FAT,
	SK_FAT_START, SK_NOISE, SK_SEED, SK_READ_MBPS, SK_WRITE_MBPS,
	SK_ACCESS_US, SK_PAGE_US, SK_AU_US, SK_ERASE_US, SK_DISCARD_US,
	SK_FAT_MBPS, SK_FAT_PAGE, SK_FAT_KIND, SK_READSIG, SK_PLANE,
	SK_PLANE_US, SK_GROUP, SK_GROUP_US, SK_AU_SPREAD, SK_PAUSE_PCT,
	SK_PAUSE_US, SK_READAHEAD, SK_RANDOM_MBPS, SK_COLLAPSE, SK_REAL_SIZE,
	SK_FAKE, SK_CACHE, SK_CLAIMS, SK_AU, SK_QUEUE, SK_QUEUE_CACHE, SK_OOO,
	SK_RANDOM_US, SK_CLOSE, SK_FULLCLOSE, SK_EVICT, SK_USED, SK_FAT_GAIN,
	SK_HOST, SK_BUSY_PCT, SK_BUSY_US, SK_BUSY_BURST, SK_CACHE_KIND,
	SK_SECTOR, SK_FTL, SK_MAP, SK_SPARE, SK_SLC, SK_SLC_MBPS, SK_FOLD_MBPS,
	SK_MAINT_MS, SK_MAINT_IDLE_MS, SK_STALL_MS, SK_STALL_WRITES,
	SK_STALL_BYTES, SK_NR
};

enum sim_kind {
	SIM_SIZE,	/* uint64_t, K/M/G/T suffixes */
	SIM_COUNT,	/* unsigned int */
	SIM_U64,	/* uint64_t, plain number */
	SIM_REAL,	/* double */
	SIM_CHOICE,	/* unsigned int: index of a name in choices */
	SIM_TEXT,	/* char[32], checked by sim_check() */
};

struct sim_key {
	const char *name;	/* as written in SPEC */
	enum sim_kind kind;	/* how to parse it */
	size_t off;		/* where it goes in struct sim_params */
	const char *const *choices; /* SIM_CHOICE: names, NULL-terminated */
};

#define SIM_KEY(id, n, k, f) \
	[id] = { .name = n, .kind = k, .off = offsetof(struct sim_params, f) }
#define SIM_CHOOSE(id, n, f, c) \
	[id] = { .name = n, .kind = SIM_CHOICE, \
		 .off = offsetof(struct sim_params, f), .choices = c }

/* Names of enum sim_fat_kind and enum sim_collapse, in order. */
static const char *const sim_fat_kinds[] = { "both", "linear", "random",
					     NULL };
static const char *const sim_collapses[] = { "sharp", "gradual", NULL };
static const char *const sim_fakes[] = { "limbo-zero", "limbo-garbage",
					 "wrap", NULL };
/* Names of enum sim_ooo, sim_close, sim_evict, sim_fat_gain, sim_host. */
static const char *const sim_ooos[] = { "random", "merge", "copy-whole",
					"copy-written", NULL };
static const char *const sim_closes[] = { "old", "rest", "all", NULL };
static const char *const sim_evicts[] = { "lru", "oldest", NULL };
static const char *const sim_fat_gains[] = { "both", "speed", "slot",
					     NULL };
static const char *const sim_hosts[] = { "quiet", "light", "heavy", NULL };
static const char *const sim_cache_kinds[] = { "through", "back", NULL };
static const char *const sim_ftls[] = { "block", "page", NULL };

static const struct sim_key sim_keys[SK_NR] = {
	SIM_KEY(SK_SIZE, "size", SIM_SIZE, size_byte),
	SIM_KEY(SK_ERASE, "erase", SIM_SIZE, erase_byte),
	SIM_KEY(SK_PAGE, "page", SIM_SIZE, page_byte),
	SIM_KEY(SK_OPEN, "open", SIM_COUNT, open_au),
	SIM_KEY(SK_OPEN_RANDOM, "open_random", SIM_COUNT, open_random),
	SIM_KEY(SK_FAT, "fat", SIM_COUNT, fat_nr),
	SIM_KEY(SK_FAT_START, "fat_start", SIM_COUNT, fat_start),
	SIM_KEY(SK_NOISE, "noise", SIM_REAL, noise_pct),
	SIM_KEY(SK_SEED, "seed", SIM_U64, seed),
	SIM_KEY(SK_READ_MBPS, "read_mbps", SIM_REAL, read_mbps),
	SIM_KEY(SK_WRITE_MBPS, "write_mbps", SIM_REAL, write_mbps),
	SIM_KEY(SK_ACCESS_US, "access_us", SIM_REAL, access_us),
	SIM_KEY(SK_PAGE_US, "page_us", SIM_REAL, page_us),
	SIM_KEY(SK_AU_US, "au_us", SIM_REAL, au_us),
	SIM_KEY(SK_ERASE_US, "erase_us", SIM_REAL, erase_us),
	SIM_KEY(SK_DISCARD_US, "discard_us", SIM_REAL, discard_us),
	SIM_KEY(SK_FAT_MBPS, "fat_mbps", SIM_REAL, fat_mbps),
	SIM_KEY(SK_FAT_PAGE, "fat_page", SIM_SIZE, fat_page_byte),
	SIM_CHOOSE(SK_FAT_KIND, "fat_kind", fat_kind, sim_fat_kinds),
	SIM_KEY(SK_READSIG, "readsig", SIM_COUNT, readsig),
	SIM_KEY(SK_PLANE, "plane", SIM_COUNT, plane),
	SIM_KEY(SK_PLANE_US, "plane_us", SIM_REAL, plane_us),
	SIM_KEY(SK_GROUP, "group", SIM_SIZE, group_byte),
	SIM_KEY(SK_GROUP_US, "group_us", SIM_REAL, group_us),
	SIM_KEY(SK_AU_SPREAD, "au_spread", SIM_COUNT, au_spread),
	SIM_KEY(SK_PAUSE_PCT, "pause_pct", SIM_REAL, pause_pct),
	SIM_KEY(SK_PAUSE_US, "pause_us", SIM_REAL, pause_us),
	SIM_KEY(SK_READAHEAD, "readahead", SIM_SIZE, readahead_byte),
	SIM_KEY(SK_RANDOM_MBPS, "random_mbps", SIM_REAL, random_mbps),
	SIM_CHOOSE(SK_COLLAPSE, "collapse", collapse, sim_collapses),
	SIM_KEY(SK_REAL_SIZE, "real_size", SIM_SIZE, real_size_byte),
	SIM_CHOOSE(SK_FAKE, "fake", fake, sim_fakes),
	SIM_KEY(SK_CACHE, "cache", SIM_SIZE, cache_byte),
	SIM_KEY(SK_CLAIMS, "claims", SIM_TEXT, claims),
	SIM_KEY(SK_AU, "au", SIM_SIZE, au_byte),
	SIM_KEY(SK_QUEUE, "queue", SIM_COUNT, queue),
	SIM_KEY(SK_QUEUE_CACHE, "queue_cache", SIM_COUNT, queue_cache),
	SIM_CHOOSE(SK_OOO, "ooo", ooo, sim_ooos),
	SIM_KEY(SK_RANDOM_US, "random_us", SIM_REAL, random_us),
	SIM_CHOOSE(SK_CLOSE, "close", close, sim_closes),
	SIM_KEY(SK_FULLCLOSE, "fullclose", SIM_COUNT, fullclose),
	SIM_CHOOSE(SK_EVICT, "evict", evict, sim_evicts),
	SIM_KEY(SK_USED, "used", SIM_COUNT, used),
	SIM_CHOOSE(SK_FAT_GAIN, "fat_gain", fat_gain, sim_fat_gains),
	SIM_CHOOSE(SK_HOST, "host", host, sim_hosts),
	SIM_KEY(SK_BUSY_PCT, "busy_pct", SIM_REAL, busy_pct),
	SIM_KEY(SK_BUSY_US, "busy_us", SIM_REAL, busy_us),
	SIM_KEY(SK_BUSY_BURST, "busy_burst", SIM_REAL, busy_burst),
	SIM_CHOOSE(SK_CACHE_KIND, "cache_kind", cache_kind, sim_cache_kinds),
	SIM_KEY(SK_SECTOR, "sector", SIM_SIZE, sector_byte),
	SIM_CHOOSE(SK_FTL, "ftl", ftl, sim_ftls),
	SIM_KEY(SK_MAP, "map", SIM_SIZE, map_byte),
	SIM_KEY(SK_SPARE, "spare", SIM_REAL, spare_pct),
	SIM_KEY(SK_SLC, "slc", SIM_SIZE, slc_byte),
	SIM_KEY(SK_SLC_MBPS, "slc_mbps", SIM_REAL, slc_mbps),
	SIM_KEY(SK_FOLD_MBPS, "fold_mbps", SIM_REAL, fold_mbps),
	SIM_KEY(SK_MAINT_MS, "maint_ms", SIM_REAL, maint_ms),
	SIM_KEY(SK_MAINT_IDLE_MS, "maint_idle_ms", SIM_REAL, maint_idle_ms),
	SIM_KEY(SK_STALL_MS, "stall_ms", SIM_REAL, stall_ms),
	SIM_KEY(SK_STALL_WRITES, "stall_writes", SIM_U64, stall_writes),
	SIM_KEY(SK_STALL_BYTES, "stall_bytes", SIM_SIZE, stall_bytes),
};

/* Parse a plain unsigned number, decimal or 0x hex.  Returns 0 or -errno. */
static int sim_parse_u64(const char *s, uint64_t *val)
{
	unsigned long long v;
	char *end;
	int base = 10;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		base = 16;
	/* strtoull() would take leading blanks and a minus sign */
	if (!(s[0] >= '0' && s[0] <= '9'))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, base);
	if (errno == ERANGE)
		return -ERANGE;
	if (errno || *end || end == s + (base == 16 ? 2 : 0))
		return -EINVAL;
	*val = v;
	return 0;
}

/* Parse a finite real number.  Returns 0 or -EINVAL. */
static int sim_parse_real(const char *s, double *val)
{
	char *end;
	double v;

	if (!((s[0] >= '0' && s[0] <= '9') || s[0] == '.' || s[0] == '-' ||
	      s[0] == '+'))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || end == s || !isfinite(v))
		return -EINVAL;
	*val = v;
	return 0;
}

/* Say that val is none of k's names.  Returns -EINVAL. */
static int sim_bad_choice(const struct sim_key *k, const char *val,
			  char *err, size_t err_len)
{
	size_t n, i;

	n = (size_t)snprintf(err, err_len, "%s=%s: not one of", k->name, val);
	for (i = 0; k->choices[i] && n < err_len; i++)
		n += (size_t)snprintf(err + n, err_len - n, "%s %s",
				      i ? "," : "", k->choices[i]);
	return -EINVAL;
}

/* Store one value into p.  Returns 0 or -EINVAL with a reason in err. */
static int sim_set_key(struct sim_params *p, const struct sim_key *k,
		       const char *val, char *err, size_t err_len)
{
	void *field = (char *)p + k->off;
	uint64_t u;
	double d;
	int ret;

	switch (k->kind) {
	case SIM_SIZE:
		ret = parse_size(val, &u);
		if (ret) {
			snprintf(err, err_len, "%s=%s: %s", k->name, val,
				 ret == -ERANGE ? "too large" : "not a size");
			return -EINVAL;
		}
		*(uint64_t *)field = u;
		return 0;
	case SIM_COUNT:
	case SIM_U64:
		ret = sim_parse_u64(val, &u);
		if (!ret && k->kind == SIM_COUNT && u > UINT32_MAX)
			ret = -ERANGE;
		if (ret) {
			snprintf(err, err_len, "%s=%s: %s", k->name, val,
				 ret == -ERANGE ? "too large" :
				 "not a whole number");
			return -EINVAL;
		}
		if (k->kind == SIM_COUNT)
			*(unsigned int *)field = (unsigned int)u;
		else
			*(uint64_t *)field = u;
		return 0;
	case SIM_REAL:
		if (sim_parse_real(val, &d)) {
			snprintf(err, err_len, "%s=%s: not a number", k->name,
				 val);
			return -EINVAL;
		}
		*(double *)field = d;
		return 0;
	case SIM_CHOICE:
		for (u = 0; k->choices[u]; u++)
			if (!strcmp(val, k->choices[u])) {
				*(unsigned int *)field = (unsigned int)u;
				return 0;
			}
		return sim_bad_choice(k, val, err, err_len);
	case SIM_TEXT:
		if (strlen(val) >= sizeof(p->claims)) {
			snprintf(err, err_len, "%s=%.40s...: too long (at most %zu characters)",
				 k->name, val, sizeof(p->claims) - 1);
			return -EINVAL;
		}
		snprintf((char *)field, sizeof(p->claims), "%s", val);
		return 0;
	}
	return -EINVAL;
}

/* Is v a power of two? */
static bool sim_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

/*
 * Write "key=value" for key id into buf: the value as given in SPEC when
 * raw has it, else the number in p.  Returns buf.
 */
static const char *sim_kv(char *buf, size_t len, const struct sim_params *p,
			  const char *const *raw, enum sim_key_id id)
{
	const struct sim_key *k = &sim_keys[id];
	const void *field = (const char *)p + k->off;
	unsigned int i;
	uint64_t v;

	if (raw && raw[id]) {
		snprintf(buf, len, "%s=%s", k->name, raw[id]);
		return buf;
	}
	switch (k->kind) {
	case SIM_SIZE:
		v = *(const uint64_t *)field;
		for (i = 0; i < 3 && v && !(v % 1024); i++)
			v /= 1024;
		snprintf(buf, len, "%s=%" PRIu64 "%s", k->name, v,
			 (const char *const[]){ "", "K", "M", "G" }[i]);
		break;
	case SIM_U64:
		snprintf(buf, len, "%s=%" PRIu64, k->name,
			 *(const uint64_t *)field);
		break;
	case SIM_COUNT:
		snprintf(buf, len, "%s=%u", k->name,
			 *(const unsigned int *)field);
		break;
	case SIM_REAL:
		snprintf(buf, len, "%s=%g", k->name, *(const double *)field);
		break;
	case SIM_CHOICE:
		v = *(const unsigned int *)field;
		for (i = 0; i < v && k->choices[i]; i++)
			;
		if (k->choices[i])
			snprintf(buf, len, "%s=%s", k->name, k->choices[i]);
		else
			snprintf(buf, len, "%s=%" PRIu64, k->name, v);
		break;
	case SIM_TEXT:
		snprintf(buf, len, "%s=%s", k->name, (const char *)field);
		break;
	}
	return buf;
}

/* Is a real parameter within [lo, hi]? */
static bool sim_in(double v, double lo, double hi)
{
	return isfinite(v) && v >= lo && v <= hi;
}

/* Is v 0 (the default, when not written in SPEC) or a rate? */
static bool sim_rate_or_default(double v, const char *const *raw,
				enum sim_key_id id)
{
	if (!v && !(raw && raw[id]))
		return true;
	return sim_in(v, SIM_MIN_MBPS, SIM_MAX_MBPS);
}

/*
 * Check the keys of today's cards.  Returns NULL, or why the key *id is
 * wrong (against *other when that is another key than SK_NR).
 */
static const char *sim_check_today(const struct sim_params *p,
				   const char *const *raw,
				   enum sim_key_id *id, enum sim_key_id *other)
{
	static const enum sim_key_id ms_id[] = {
		SK_MAINT_MS, SK_MAINT_IDLE_MS, SK_STALL_MS,
	};
	const double ms[] = { p->maint_ms, p->maint_idle_ms, p->stall_ms };
	size_t i;

#define SIM_WHY(key, reason) do { *id = (key); return (reason); } while (0)
#define SIM_WHY2(key, reason, key2) do { *other = (key2); \
	SIM_WHY(key, reason); } while (0)
	if (p->sector_byte != 512 && p->sector_byte != 4096)
		SIM_WHY(SK_SECTOR, "not 512 nor 4K");
	if (p->size_byte % p->sector_byte)
		SIM_WHY2(SK_SIZE, "not a multiple of", SK_SECTOR);
	if (p->real_size_byte % p->sector_byte)
		SIM_WHY2(SK_REAL_SIZE, "not a multiple of", SK_SECTOR);
	if (p->ftl > SIM_FTL_PAGE)
		SIM_WHY(SK_FTL, "not one of block, page");
	if (!sim_pow2(p->map_byte) || p->map_byte < SIM_SECTOR)
		SIM_WHY(SK_MAP, "not a power of two of at least 512");
	if (p->erase_byte % p->map_byte)
		SIM_WHY2(SK_MAP, "does not divide", SK_ERASE);
	if (!sim_in(p->spare_pct, 0, 100))
		SIM_WHY(SK_SPARE, "not a percentage from 0 to 100");
	if (p->ftl == SIM_FTL_PAGE && p->size_byte % p->map_byte)
		SIM_WHY2(SK_SIZE, "not a multiple of", SK_MAP);
	if (p->ftl == SIM_FTL_PAGE &&
	    sim_page_blocks(p) * (p->erase_byte / p->map_byte) >= UINT32_MAX)
		SIM_WHY2(SK_MAP, "too small: 2^32 mapping units or more with",
			 SK_SIZE);
	if (p->slc_byte > p->size_byte)
		SIM_WHY2(SK_SLC, "larger than", SK_SIZE);
	if (!sim_rate_or_default(p->slc_mbps, raw, SK_SLC_MBPS))
		SIM_WHY(SK_SLC_MBPS, "not a rate from 0.01 to 1e6");
	if (!sim_rate_or_default(p->fold_mbps, raw, SK_FOLD_MBPS))
		SIM_WHY(SK_FOLD_MBPS, "not a rate from 0.01 to 1e6");
	for (i = 0; i < ARRAY_SIZE(ms_id); i++)
		if (!sim_in(ms[i], 0, SIM_MAX_US / 1000))
			SIM_WHY(ms_id[i], "not a time from 0 to 10000 ms");
	return NULL;
#undef SIM_WHY2
#undef SIM_WHY
}

/*
 * Check a whole parameter set.  Returns 0 or -EINVAL with a one-line reason
 * naming the key and value in err; raw (may be NULL) holds values as given.
 */
int sim_check(const struct sim_params *p, const char *const *raw,
	      char *err, size_t err_len)
{
	static const enum sim_key_id time_id[] = {
		SK_ACCESS_US, SK_PAGE_US, SK_AU_US, SK_ERASE_US, SK_DISCARD_US,
		SK_PLANE_US, SK_GROUP_US, SK_PAUSE_US, SK_RANDOM_US, SK_BUSY_US,
	};
	const double time_us[] = {
		p->access_us, p->page_us, p->au_us, p->erase_us, p->discard_us,
		p->plane_us, p->group_us, p->pause_us, p->random_us, p->busy_us,
	};
	char a[96], b[96], bad[96];
	const char *why = NULL;
	struct card_claims claims;
	enum sim_key_id id, other = SK_NR;
	uint64_t e = p->erase_byte, nr_au = 0;
	size_t i;

#define SIM_BAD(key, reason) do { id = (key); why = (reason); goto out_bad; } \
	while (0)
#define SIM_BAD2(key, reason, key2) do { other = (key2); \
	SIM_BAD(key, reason); } while (0)

	if (!p->page_byte)
		SIM_BAD(SK_PAGE, "must not be zero");
	if (!sim_pow2(p->page_byte) || p->page_byte < SIM_SECTOR)
		SIM_BAD(SK_PAGE, "not a power of two of at least 512");
	if (!e)
		SIM_BAD(SK_ERASE, "must not be zero");
	if (!sim_pow2(e) && !(e % 3 == 0 && sim_pow2(e / 3)))
		SIM_BAD(SK_ERASE, "not a power of two nor 3*2^n");
	if (e > SIM_MAX_ERASE)
		SIM_BAD(SK_ERASE, "larger than 1GiB");
	if (e % p->page_byte)
		SIM_BAD2(SK_ERASE, "not a multiple of", SK_PAGE);
	if (!sim_pow2(p->fat_page_byte) || p->fat_page_byte < SIM_SECTOR)
		SIM_BAD(SK_FAT_PAGE, "not a power of two of at least 512");
	if (p->fat_page_byte > p->page_byte)
		SIM_BAD2(SK_FAT_PAGE, "larger than", SK_PAGE);
	if (!p->size_byte)
		SIM_BAD(SK_SIZE, "must not be zero");
	if (p->size_byte % SIM_SECTOR)
		SIM_BAD(SK_SIZE, "not a multiple of 512");
	/* a last AU cut short is allowed: real cards end with one */
	if (p->size_byte / e < SIM_MIN_AUS)
		SIM_BAD2(SK_SIZE, "smaller than 4 AUs of", SK_ERASE);
	nr_au = (p->size_byte - 1) / e + 1;
	if (nr_au > SIM_MAX_AUS)
		SIM_BAD2(SK_SIZE, "more than 2^24 AUs of", SK_ERASE);
	if (!p->open_au)
		SIM_BAD(SK_OPEN, "must be at least 1");
	if (p->open_au > SIM_MAX_OPEN)
		SIM_BAD(SK_OPEN, "more than 1024");
	if (p->open_random > p->open_au)
		SIM_BAD2(SK_OPEN_RANDOM, "more than", SK_OPEN);
	if ((uint64_t)p->fat_start + p->fat_nr > nr_au)
		SIM_BAD2(SK_FAT, "FAT area beyond the card with", SK_FAT_START);
	if (p->fat_kind > SIM_FAT_RANDOM)
		SIM_BAD(SK_FAT_KIND, "not one of both, linear, random");
	if (p->readsig > 1)
		SIM_BAD(SK_READSIG, "not 0 or 1");
	if (!sim_pow2(p->plane) || p->plane > SIM_MAX_PLANE)
		SIM_BAD(SK_PLANE, "not a power of two from 1 to 64");
	if (e % (p->plane * p->page_byte))
		SIM_BAD2(SK_PLANE, "pages do not divide", SK_ERASE);
	if (p->group_byte && (p->group_byte < e ||
			      p->group_byte % SIM_SECTOR))
		SIM_BAD2(SK_GROUP, "not a multiple of 512 of at least",
			 SK_ERASE);
	if (!p->au_spread || p->au_spread > SIM_MAX_SPREAD)
		SIM_BAD(SK_AU_SPREAD, "not from 1 to 16");
	if (e % ((uint64_t)SIM_SECTOR << (p->au_spread - 1)))
		SIM_BAD2(SK_AU_SPREAD, "halves below 512 bytes of", SK_ERASE);
	if (!sim_in(p->pause_pct, 0, 100))
		SIM_BAD(SK_PAUSE_PCT, "not a percentage from 0 to 100");
	if (p->collapse > SIM_COLLAPSE_GRADUAL)
		SIM_BAD(SK_COLLAPSE, "not one of sharp, gradual");
	if (p->real_size_byte % SIM_SECTOR)
		SIM_BAD(SK_REAL_SIZE, "not a multiple of 512");
	if (p->real_size_byte > p->size_byte)
		SIM_BAD2(SK_REAL_SIZE, "larger than", SK_SIZE);
	if (p->fake > SIM_FAKE_WRAP)
		SIM_BAD(SK_FAKE, "not one of limbo-zero, limbo-garbage, wrap");
	if (raw && raw[SK_FAKE] && !raw[SK_REAL_SIZE])
		SIM_BAD(SK_FAKE, "needs real_size");
	if (p->cache_byte % SIM_SECTOR)
		SIM_BAD(SK_CACHE, "not a multiple of 512");
	if (p->cache_kind > SIM_CACHE_BACK)
		SIM_BAD(SK_CACHE_KIND, "not one of through, back");
	if (p->claims[0] && card_parse_claims(p->claims, &claims, bad,
					      sizeof(bad)))
		SIM_BAD(SK_CLAIMS, bad);
	if (p->au_byte && !card_au_code(p->au_byte))
		SIM_BAD(SK_AU, "not an AU an SSR states (16K..4M, 8M, 12M, 16M, 24M, 32M, 64M)");
	if (p->queue == 1 || p->queue > DEV_BATCH_MAX)
		SIM_BAD(SK_QUEUE, "not 0 (none) nor from 2 to 32");
	if (p->queue_cache > 1)
		SIM_BAD(SK_QUEUE_CACHE, "not 0 or 1");
	if (p->queue_cache && !p->queue)
		SIM_BAD2(SK_QUEUE_CACHE, "needs a command queue:", SK_QUEUE);
	if (p->ooo > SIM_OOO_COPY_WRITTEN)
		SIM_BAD(SK_OOO, "not one of random, merge, copy-whole, copy-written");
	if (p->close > SIM_CLOSE_ALL)
		SIM_BAD(SK_CLOSE, "not one of old, rest, all");
	if (p->fullclose > 1)
		SIM_BAD(SK_FULLCLOSE, "not 0 or 1");
	if (p->evict > SIM_EVICT_OLDEST)
		SIM_BAD(SK_EVICT, "not one of lru, oldest");
	if (p->used > 1)
		SIM_BAD(SK_USED, "not 0 or 1");
	if (p->fat_gain > SIM_FAT_GAIN_SLOT)
		SIM_BAD(SK_FAT_GAIN, "not one of both, speed, slot");
	if (p->host > SIM_HOST_HEAVY)
		SIM_BAD(SK_HOST, "not one of quiet, light, heavy");
	if (!sim_in(p->busy_pct, 0, 100))
		SIM_BAD(SK_BUSY_PCT, "not a percentage from 0 to 100");
	if (!sim_in(p->busy_burst, 1, 1000))
		SIM_BAD(SK_BUSY_BURST, "not a mean run from 1 to 1000 requests");
	if (!sim_in(p->noise_pct, 0, 100))
		SIM_BAD(SK_NOISE, "not a percentage from 0 to 100");
	if (!sim_in(p->read_mbps, SIM_MIN_MBPS, SIM_MAX_MBPS))
		SIM_BAD(SK_READ_MBPS, "not a rate from 0.01 to 1e6");
	if (!sim_in(p->write_mbps, SIM_MIN_MBPS, SIM_MAX_MBPS))
		SIM_BAD(SK_WRITE_MBPS, "not a rate from 0.01 to 1e6");
	/* 0 stands for the default, but only when not written in SPEC */
	if ((p->fat_mbps || (raw && raw[SK_FAT_MBPS])) &&
	    !sim_in(p->fat_mbps, SIM_MIN_MBPS, SIM_MAX_MBPS))
		SIM_BAD(SK_FAT_MBPS, "not a rate from 0.01 to 1e6");
	if ((p->random_mbps || (raw && raw[SK_RANDOM_MBPS])) &&
	    !sim_in(p->random_mbps, SIM_MIN_MBPS, SIM_MAX_MBPS))
		SIM_BAD(SK_RANDOM_MBPS, "not a rate from 0.01 to 1e6");
	for (i = 0; i < ARRAY_SIZE(time_id); i++)
		if (!sim_in(time_us[i], 0, SIM_MAX_US))
			SIM_BAD(time_id[i], "not a time from 0 to 1e7 µs");
	why = sim_check_today(p, raw, &id, &other);
	if (why)
		goto out_bad;
	return 0;

out_bad:
	sim_kv(a, sizeof(a), p, raw, id);
	if (other != SK_NR)
		snprintf(err, err_len, "%s: %s %s", a, why,
			 sim_kv(b, sizeof(b), p, raw, other));
	else
		snprintf(err, err_len, "%s: %s", a, why);
	return -EINVAL;
#undef SIM_BAD2
#undef SIM_BAD
}

/*
 * host= sets the busy_ keys not given: a quiet host delays nothing, a
 * light one now and then a request by a scheduler's slice (4 ms, as a
 * desktop's other programs do), a heavy one more often and in runs (a
 * loaded CPU, a USB bus shared with a busy device).
 */
static void sim_host_preset(struct sim_params *q, const char *const *raw)
{
	static const double preset[][3] = {
		[SIM_HOST_QUIET] = { 0, 4000, 1 },
		[SIM_HOST_LIGHT] = { 0.5, 4000, 1 },
		[SIM_HOST_HEAVY] = { 3, 6000, 3 },
	};

	if (!raw[SK_HOST] || q->host > SIM_HOST_HEAVY)
		return;
	if (!raw[SK_BUSY_PCT])
		q->busy_pct = preset[q->host][0];
	if (!raw[SK_BUSY_US])
		q->busy_us = preset[q->host][1];
	if (!raw[SK_BUSY_BURST])
		q->busy_burst = preset[q->host][2];
}

int sim_parse_spec(struct sim_params *p, const char *spec, char *err,
		   size_t err_len)
{
	const char *raw[SK_NR] = { NULL };
	struct sim_params q = *p;
	char *copy, *item, *next;
	int ret = 0;
	size_t i;

	if (err_len)
		err[0] = '\0';
	copy = strdup(spec ? spec : "");
	if (!copy) {
		snprintf(err, err_len, "out of memory");
		return -ENOMEM;
	}
	for (item = copy; item; item = next) {
		char *eq;

		next = strchr(item, ',');
		if (next)
			*next++ = '\0';
		if (!*item) {
			/* an empty spec means the typical card */
			if (item == copy && !next)
				break;
			snprintf(err, err_len, "empty item in '%s'", spec);
			goto out_inval;
		}
		eq = strchr(item, '=');
		if (!eq) {
			snprintf(err, err_len, "%s: missing '=value'", item);
			goto out_inval;
		}
		*eq = '\0';
		for (i = 0; i < SK_NR; i++)
			if (!strcmp(item, sim_keys[i].name))
				break;
		if (i == SK_NR) {
			snprintf(err, err_len, "unknown key '%s' (value '%s')",
				 item, eq + 1);
			goto out_inval;
		}
		if (!eq[1]) {
			snprintf(err, err_len, "%s=: empty value", item);
			goto out_inval;
		}
		if (raw[i]) {
			snprintf(err, err_len, "%s given twice ('%s', then '%s')",
				 item, raw[i], eq + 1);
			goto out_inval;
		}
		ret = sim_set_key(&q, &sim_keys[i], eq + 1, err, err_len);
		if (ret)
			goto out_free_copy;
		raw[i] = eq + 1;
	}
	/* a card told how many AUs it keeps open keeps as many in random */
	if (raw[SK_OPEN] && !raw[SK_OPEN_RANDOM])
		q.open_random = q.open_au;
	sim_host_preset(&q, raw);
	/* the default size shrinks to whole AUs of the erase size given */
	if (!raw[SK_SIZE] && q.erase_byte && q.size_byte % q.erase_byte)
		q.size_byte -= q.size_byte % q.erase_byte;
	ret = sim_check(&q, raw, err, err_len);
	if (!ret)
		*p = q;
	goto out_free_copy;

out_inval:
	ret = -EINVAL;
out_free_copy:
	free(copy);
	return ret;
}
