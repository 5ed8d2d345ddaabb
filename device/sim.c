// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulated card: a model of managed flash with a virtual clock.
 *
 * The model knows the card, not the tests that drive it.  It keeps a small
 * state per allocation unit (AU) and a table of open AUs, and charges each
 * operation a cost in ns by advancing its clock; dev_read() and friends
 * read that clock around the operation.  The card also stores what is
 * written, sector by sector and only what is written (simstore.h), so a
 * 64 GiB card costs memory only for its data: a sector never written
 * reads as zeros.  Storage is apart from timing: what a read returns never
 * changes what it costs.
 *
 * Fake cards.  A card may store less than it announces: real_size=R
 * (below size) is what really stores data, and fake= says what happens
 * at addresses from R on:
 *   limbo-zero     writes there are lost; reads return zeros
 *   limbo-garbage  writes there are lost; reads return garbage (bytes
 *                  fixed per address and seed, never what was written)
 *   wrap           the card drops the high address bits: address a is
 *                  a mod R, so a write at a overwrites a mod R (R need
 *                  not be a power of two)
 * cache=C puts a write cache of C bytes in front: a read of a sector that
 * is among the last C / 512 sectors written returns what was written
 * there, whatever the flash behind it kept (a fake that passes a naive
 * write-then-read check).  cache_kind=back makes it a write-back cache:
 * it holds the newest cache / 512 sectors written and pushes the oldest
 * to the flash as a new one comes in; a sector written again supersedes
 * its cached copy, which never reaches the flash.  Fake and cache change
 * data only, never time.
 *
 * Cost of one operation (all rates in 10^6 bytes/s, so 1000/rate is ns per
 * byte), before noise:
 *
 *   read    = access + len / read_rate
 *             + (pages touched - ceil(len / page)) * page_cost
 *             + (AUs touched - 1) * au_cost
 *   write   = access + sum over AUs touched of programmed / rate(AU)
 *             + GC costs
 *   discard = access + discard_cost
 *
 * A read that straddles a page boundary thus costs one page_cost more than
 * one inside a page, and one that straddles an AU boundary costs au_cost on
 * top: the align test sees a step at the page size and a larger one at the
 * erase size.  An aligned read costs exactly access + len / read_rate.
 *
 * What real cards show beyond that, each off by default (real-tables/ and
 * seeds/ hold published tables):
 *
 *   plane=N    multi-plane access: the card reads N pages at once, so a
 *              read crossing an N * page boundary costs plane_us more,
 *              counted like pages: a second, smaller step (PQI: 4K page,
 *              16K unit; SanDisk: 4K, 8K)
 *   group=G    allocation group: a read crossing a multiple of G costs
 *              group_us more: a third step far above the AU (PQI: 2G)
 *   au_spread=N  a gradual AU signature: a boundary at erase / 2^k that
 *              is not one at erase / 2^(k-1) (k < N) costs au_cost *
 *              (N - k) / N, so the diff ramps up over N rows
 *   readsig=0  no read signature (eMMC, USB bridges): reads cost access
 *              + len / read_rate wherever they are
 *   readahead=R  after each read the card holds the rest of the page it
 *              ended in and R bytes beyond; a read inside that costs
 *              access / 2 + len / read_rate (USB sticks: a faster `post`)
 *   pause_pct=P, pause_us=U  a request pauses with chance P percent for
 *              U / u^(2/3) µs, u uniform in (0, 1]: a Pareto tail of index
 *              1.5 (median 1.6 U; one in 30 over 10 U), from its own
 *              splitmix64 sequence seeded by `seed`, added after noise
 *   random_mbps, open_random=0, collapse=gradual, fat_kind: see Writes
 *   queue=N    a command queue (SD 6.0 CQ, eMMC CMDQ) of N tasks: see
 *              Queued requests
 *   ooo, random_us, close, fullclose, evict, used, fat_gain: see How
 *              cards differ inside
 *   busy_pct, busy_us, busy_burst, host: see A busy host
 *
 * Writes.  "programmed" is the write rounded out to whole program units
 * (the page, or fat_page in the FAT area): a write smaller than a page costs
 * a whole page (read-modify-write).  The card keeps at most `open` AUs open,
 * least recently used first out.  Writing an AU that is not open opens it,
 * which may close the least recently used one by garbage collection (GC).
 * An open AU has a write pointer (the end of its highest write).  A write
 * starting at or beyond the pointer is in linear order; one starting below
 * it turns the AU to random mode, and at most `open_random` AUs may be in
 * random mode: one more closes the least recently used random-mode AU.  Order
 * is inferred from the offsets alone.  A write neither at or beyond the
 * pointer nor right after the AU's last write programs at random_mbps
 * (default write_mbps): random order is slower even inside an open AU.
 * Closing by GC costs
 *
 *   linear mode: (old data in the AU not rewritten since it was opened)
 *                / write_rate + erase (when the AU held old data)
 *   random mode: erase_size / write_rate + erase   (the whole AU is copied)
 *
 * An AU rewritten completely in linear order closes at once at no cost, and
 * a single write covering a whole AU needs no open slot and no copy.  Every
 * AU starts out full of old data (a used card); a discard marks the AUs it
 * covers as erased, and a discard reaching the end of an AU erases that AU's
 * tail, so a later close has less or nothing to copy.  Discards that cover
 * neither a whole AU nor an AU's tail change nothing (the card maps whole
 * AUs).
 *
 * With collapse=gradual the card keeps one AU more than `open` through a
 * log: while more than `open` AUs are open, a write to the least recently
 * used of them programs twice (log, then merge).  One AU over the limit
 * thus costs a little; two over evict and copy as on a sharp card.
 *
 * A card that keeps no AU open in random order (open_random=0) merges an
 * AU at once on a write below its pointer: it closes the AU by GC (linear
 * mode) and opens it afresh, so every out-of-order write costs a copy.
 *
 * FAT-optimised AUs (`fat` of them from index `fat_start`) are written at
 * fat_mbps with a program unit of fat_page and never take an open slot nor
 * need GC, as if backed by faster flash with finer mapping.  fat_kind says
 * for which writes: `both` (any order), `linear` (writes in order only) or
 * `random` (out-of-order writes only); the other writes go to a FAT AU as
 * to any AU.  In a FAT AU a write is in order when it starts at the AU's
 * start or where the last write to that AU ended.
 *
 * How cards differ inside.  The model above is one card's mechanics; cards
 * differ in each of its choices, as the -O and -f tables of different
 * cards show.  Each key below picks another mechanic; all are off by
 * default:
 *
 *   ooo=F      what a write below an open AU's pointer costs.  random
 *              (the default): the AU turns to random mode, as above;
 *              merge: the AU is closed by GC at once and opened afresh
 *              (open_random=0 does this under random); copy-whole: the
 *              whole AU is copied and the AU opened afresh (cards that map
 *              whole AUs only); copy-written: what the AU was written in
 *              order since it was opened is copied and the AU opened
 *              afresh (a log block folded into a new one: cheap early in
 *              an AU, dear late).  A copy costs len / write_rate + erase,
 *              nothing when len is 0
 *   random_us=U  each out-of-order write to an AU in random mode costs U
 *              µs more (the bookkeeping of a page-mapped log): some cards
 *              take such writes for free, others at a cost per write
 *   close=C    what closing an AU written in order copies.  old (the
 *              default): the old data not rewritten since it was opened,
 *              plus erase when it held old data (a card that tracks what
 *              is valid); rest: all of the AU not written since it was
 *              opened, whether or not it held data (a card that does
 *              not: -O costs the same on a new card as on a used one);
 *              all: the whole AU.  rest and all cost a copy as above
 *   fullclose=1  an AU written in order up to its end closes at once, at
 *              no cost, and frees its slot (cards that close a block when
 *              its last page is programmed); 0 (the default): only an AU
 *              rewritten completely in order does
 *   evict=E    which open AU the card closes to open one more (and which
 *              random-mode AU to take one more): lru (the default), the
 *              least recently written; oldest, the first opened (FIFO)
 *   used=0     a new card from the factory: every AU erased, where the
 *              default (1) is a used card full of old data.  Under
 *              close=old closing an AU then copies and erases nothing
 *   fat_gain=G  what the FAT AUs gain: both (the default): fat_mbps and
 *              fat_page and no open slot nor GC; speed: fat_mbps and
 *              fat_page, through the open-AU table as any AU; slot: no
 *              slot nor GC, at the rates and page of any AU (order as
 *              for fat_kind: random_mbps and random_us out of order).
 *              Such an area shows only where other AUs pay a copy:
 *              -f --random at twice the speed, -f not at all
 *
 * A busy host.  A measurement on a host with other work sees some
 * requests delayed by a scheduler's slice of a few ms (another program
 * on the CPU, a USB bus shared with a busy device), alone or in runs.
 * busy_pct=P is the chance that a request not in a spell starts one;
 * busy_burst=M (1..1000, 1 by default) its mean length in requests
 * (each further request stays in it with chance 1 - 1/M); each request
 * in a spell waits busy_us=U (4000 by default) times a factor uniform
 * in [0.5, 1.5).  The draws come from their own splitmix64 sequence
 * seeded by `seed`, and are added after noise and pauses, which stay
 * as they were.  host=quiet|light|heavy sets the busy_ keys not given:
 * quiet none, light 0.5 % of 4 ms alone, heavy 3 % of 6 ms in runs of 3.
 *
 * Queued requests.  A card without a command queue (queue=0, as most
 * are, and as any card is behind a host that does not enable the queue)
 * serves the requests of a batch one at a time, each costing what it
 * costs alone.  With queue=N (2..32) up to N requests of a batch are in
 * the card at once: each request's access (access_us: the command and
 * the flash array's read latency) starts as soon as it enters the queue,
 * while the rest of its cost (transfer, page and AU steps, programming,
 * GC) is served one request at a time, in order.  Request i of a batch
 * thus completes at
 *
 *   done(i) = max(enter(i) + access, done(i-1)) + (cost(i) - access)
 *   enter(i) = 0 for i < N, else done(i - N)
 *
 * and the batch costs done(last), with noise drawn once.  Four queued
 * 4 KiB reads cost about access + 4 transfers instead of 4 accesses and
 * 4 transfers: A2 cards overlap the access latency of queued random
 * reads this way.  Writes overlap their access alike but still program
 * one by one, through the open-AU table.  With queue_cache=1 the card
 * also caches the writes of a batch of two or more, as A2 cards do when
 * the host enables their cache: each costs access + len / write_rate
 * into the cache, whatever its position, the batch's cached bytes are
 * programmed together in whole pages (a last partial page costs a whole
 * page), and the AU state is left as it was (the card folds its cache
 * into the AUs when idle, which the model does not charge).  A single
 * request costs what it costs without a queue.
 *
 * The card's size need not be a multiple of the erase size: the last AU
 * is then shorter (as on real cards), and is mapped, opened, copied and
 * discarded like the others, at its own length.
 *
 * Noise: each cost is multiplied by 1 + noise/100 * u with u uniform in
 * [0, 2) from a splitmix64 sequence seeded by `seed`.  With noise=0 the
 * costs are exactly the formulas above, rounded to the nearest ns.
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

#include "card.h"
#include "format.h"
#include "sim.h"
#include "simstore.h"

#define SIM_SECTOR	512		/* every I/O aligns to this */
#define SIM_MIN_AUS	4		/* "a few AUs" at least */
#define SIM_MAX_AUS	(1ULL << 24)	/* bounds the per-AU state */
#define SIM_MAX_ERASE	(1ULL << 30)	/* per-AU state is 32-bit */
#define SIM_MAX_OPEN	1024		/* real cards have 1..30 */
#define SIM_MIN_MBPS	0.01		/* keeps the clock from overflow */
#define SIM_MAX_MBPS	1e6
#define SIM_MAX_US	1e7		/* ten seconds per operation */
#define SIM_MAX_PLANE	64		/* real cards read 2 or 4 pages */
#define SIM_MAX_SPREAD	16		/* rows an AU step may spread over */
#define SIM_PARETO_A	1.5		/* tail index of the pauses */
#define SIM_PAUSE_SEED	0x7061757365ULL	/* "pause": its own sequence */
#define SIM_BUSY_SEED	0x62757379ULL	/* "busy": its own sequence */

/* A write the write-back cache took: its sector and sequence. */
struct sim_wq {
	uint64_t sector, seq;
};

/* One open AU. */
struct sim_slot {
	uint64_t au;		/* index of the AU */
	uint64_t wp_byte;	/* write pointer: end of the highest write */
	uint64_t last_byte;	/* end of the last write */
	uint64_t old_byte;	/* old data in the AU when opened: [0, old) */
	uint64_t kept_byte;	/* old data since rewritten in order */
	uint64_t written_byte;	/* bytes written in linear order since */
	uint64_t stamp;		/* last use, for least-recently-used */
	uint64_t opened;	/* when opened, for evict=oldest */
	bool used;		/* the slot holds an open AU */
	bool random;		/* written out of order since opened */
};

struct sim_card {
	struct device dev;	/* must be first */
	struct sim_params p;	/* fat_mbps resolved */
	uint64_t now_ns;	/* virtual clock */
	uint64_t untimed_ns;	/* what untimed I/O cost, noise-free */
	uint64_t rng;		/* splitmix64 state */
	uint64_t rng_pause;	/* splitmix64 state of the pauses */
	uint64_t rng_busy;	/* splitmix64 state of the busy host */
	bool busy;		/* in a busy spell of the host */
	uint64_t ra_lo, ra_hi;	/* read-ahead buffer: [ra_lo, ra_hi) */
	unsigned int nr_slots;	/* open, one more for a gradual collapse */
	uint64_t nr_au;		/* AUs on the card */
	uint32_t *data_end;	/* per AU: old data lies in [0, data_end) */
	uint32_t *fat_end;	/* per FAT AU: end of its last write */
	struct sim_slot *slot;	/* p.open_au slots */
	unsigned int nr_open;	/* slots in use */
	unsigned int nr_random;	/* slots in random mode */
	uint64_t stamp;		/* LRU clock, counts writes */
	uint64_t opens;		/* AUs opened so far */
	struct simstore flash;	/* what the flash holds, by real sector */
	struct simstore cache;	/* the write cache, by address */
	uint64_t wseq;		/* sectors written so far */
	uint64_t real_byte;	/* real_size resolved: size when 0 */
	struct sim_wq *wq;	/* write-back: cached writes, oldest first */
	size_t wq_head, wq_len, wq_cap;	/* wq[wq_head..wq_len) in use */
	uint64_t cache_lo;	/* write-back: older sequences were pushed */
	uint64_t cache_nr;	/* write-back: sectors held */
};

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
}

/* ---- spec parser ---- */

enum sim_key_id {
	SK_SIZE, SK_ERASE, SK_PAGE, SK_OPEN, SK_OPEN_RANDOM, SK_FAT,
	SK_FAT_START, SK_NOISE, SK_SEED, SK_READ_MBPS, SK_WRITE_MBPS,
	SK_ACCESS_US, SK_PAGE_US, SK_AU_US, SK_ERASE_US, SK_DISCARD_US,
	SK_FAT_MBPS, SK_FAT_PAGE, SK_FAT_KIND, SK_READSIG, SK_PLANE,
	SK_PLANE_US, SK_GROUP, SK_GROUP_US, SK_AU_SPREAD, SK_PAUSE_PCT,
	SK_PAUSE_US, SK_READAHEAD, SK_RANDOM_MBPS, SK_COLLAPSE, SK_REAL_SIZE,
	SK_FAKE, SK_CACHE, SK_CLAIMS, SK_AU, SK_QUEUE, SK_QUEUE_CACHE, SK_OOO,
	SK_RANDOM_US, SK_CLOSE, SK_FULLCLOSE, SK_EVICT, SK_USED, SK_FAT_GAIN,
	SK_HOST, SK_BUSY_PCT, SK_BUSY_US, SK_BUSY_BURST, SK_CACHE_KIND, SK_NR
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

/*
 * Check a whole parameter set.  Returns 0 or -EINVAL with a one-line reason
 * naming the key and value in err; raw (may be NULL) holds values as given.
 */
static int sim_check(const struct sim_params *p, const char *const *raw,
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
	for (i = 0; i < sizeof(time_id) / sizeof(time_id[0]); i++)
		if (!sim_in(time_us[i], 0, SIM_MAX_US))
			SIM_BAD(time_id[i], "not a time from 0 to 1e7 µs");
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

/* ---- the model ---- */

/* Bytes in AU au: the erase size, less for a last AU cut short. */
static uint64_t sim_au_len(const struct sim_card *c, uint64_t au)
{
	uint64_t start = au * c->p.erase_byte;

	return c->p.size_byte - start < c->p.erase_byte ?
	       c->p.size_byte - start : c->p.erase_byte;
}

/* The next number of the splitmix64 sequence of state *state. */
static uint64_t sim_rand_of(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* The next number of the card's noise sequence. */
static uint64_t sim_rand(struct sim_card *c)
{
	return sim_rand_of(&c->rng);
}

/*
 * A pause, in ns, or 0: with chance pause_pct, a Pareto-distributed time
 * of scale pause_us (most pauses near it, a few many times longer), as
 * garbage collection and USB scheduling show on real cards.  The pauses
 * have their own sequence, so they leave the noise unchanged.
 */
static double sim_pause_ns(struct sim_card *c)
{
	double u, x;

	u = (double)(sim_rand_of(&c->rng_pause) >> 11) * 0x1p-53;
	if (u * 100.0 >= c->p.pause_pct)
		return 0;
	/* (0, 1]: never 0, so the power below stays finite */
	u = (double)((sim_rand_of(&c->rng_pause) >> 11) + 1) * 0x1p-53;
	x = c->p.pause_us * pow(u, -1.0 / SIM_PARETO_A);
	return 1000.0 * (x < SIM_MAX_US ? x : SIM_MAX_US);
}

/* A number in [0, 1) from the sequence of state *state. */
static double sim_unit_of(uint64_t *state)
{
	return (double)(sim_rand_of(state) >> 11) * 0x1p-53;
}

/*
 * The host's delay of one request, in ns, or 0: a busy spell starts with
 * chance busy_pct and goes on to the next request with chance 1 - 1 /
 * busy_burst; each request in it waits busy_us, jittered by half either
 * way (a scheduler's slice given to another program; a USB frame taken
 * by another device).  Its own sequence leaves noise and pauses alone.
 */
static double sim_busy_ns(struct sim_card *c)
{
	if (c->busy)
		c->busy = sim_unit_of(&c->rng_busy) <
			  1.0 - 1.0 / c->p.busy_burst;
	if (!c->busy)
		c->busy = sim_unit_of(&c->rng_busy) * 100.0 < c->p.busy_pct;
	if (!c->busy)
		return 0;
	return c->p.busy_us * 1000.0 * (0.5 + sim_unit_of(&c->rng_busy));
}

/* Advance the clock by cost_ns, with noise. */
static void sim_charge(struct sim_card *c, double cost_ns)
{
	double u;

	/* backup and restore I/O is not part of any measurement */
	if (c->dev.untimed) {
		c->untimed_ns += (uint64_t)llround(cost_ns);
		return;
	}
	/* 53 random bits scaled to [0, 2) */
	u = (double)(sim_rand(c) >> 11) * 0x1p-52;

	cost_ns *= 1.0 + c->p.noise_pct / 100.0 * u;
	if (c->p.pause_pct > 0)
		cost_ns += sim_pause_ns(c);
	if (c->p.busy_pct > 0)
		cost_ns += sim_busy_ns(c);
	c->now_ns += (uint64_t)llround(cost_ns);
}

/* ns to move len bytes at rate_mbps (10^6 bytes/s). */
static double sim_xfer_ns(uint64_t len, double rate_mbps)
{
	return (double)len * 1000.0 / rate_mbps;
}

/* Returns -EINVAL (recorded) unless [off, off+len) is a valid I/O. */
static int sim_check_io(struct sim_card *c, const char *op, off_t off,
			uint64_t len)
{
	uint64_t size = c->dev.size_byte;

	if (off < 0 || !len || off % SIM_SECTOR || len % SIM_SECTOR ||
	    (uint64_t)off > size || len > size - (uint64_t)off)
		return dev_fail(&c->dev, op, off, len, EINVAL);
	return 0;
}

/* Boundaries at multiples of unit inside [first, last]. */
static uint64_t sim_cross(uint64_t first, uint64_t last, uint64_t unit)
{
	return last / unit - first / unit;
}

/*
 * The read signature beyond the page and the AU, in ns: a multi-plane
 * unit, an AU step spread over the alignments below the erase size, and
 * the allocation group; none of them costs anything when off.
 */
static double sim_more_steps_ns(const struct sim_params *p, uint64_t first,
				uint64_t last, uint64_t len)
{
	uint64_t unit = p->plane * p->page_byte, e = p->erase_byte;
	double t = 0;
	unsigned int k;

	if (p->plane > 1)
		t += (double)(sim_cross(first, last, unit) + 1 -
			      (len + unit - 1) / unit) * p->plane_us;
	/* a boundary at e / 2^k, not at e / 2^(k-1), costs (N - k) / N */
	for (k = 1; k < p->au_spread; k++)
		t += (double)(sim_cross(first, last, e >> k) -
			      sim_cross(first, last, e >> (k - 1))) *
		     p->au_us * (p->au_spread - k) / p->au_spread;
	if (p->group_byte)
		t += (double)sim_cross(first, last, p->group_byte) *
		     p->group_us;
	return t * 1000.0;
}

/*
 * Is [first, first + len) in the read-ahead buffer?  After each read the
 * card holds the rest of the page the read ended in and readahead bytes
 * beyond its end: a read just after the previous one (the align test's
 * `post`) comes from there.
 */
static bool sim_ra_hit(struct sim_card *c, uint64_t first, uint64_t len)
{
	bool hit = first >= c->ra_lo && first + len <= c->ra_hi;

	c->ra_lo = (first + len) / c->p.page_byte * c->p.page_byte;
	c->ra_hi = first + len + c->p.readahead_byte;
	return hit;
}

/* ---- what the card stores ---- */

/* Garbage a limbo address reads as: fixed per sector and seed. */
static void sim_garbage(const struct sim_card *c, unsigned char *out,
			uint64_t sector)
{
	uint64_t st = c->p.seed ^ (sector * 0x9e3779b97f4a7c15ULL) ^
		      0x6761726261676500ULL, w;
	size_t i;

	for (i = 0; i < SIM_SECTOR; i += sizeof(w)) {
		w = sim_rand_of(&st);
		memcpy(out + i, &w, sizeof(w));
	}
}

/* Is a write cache entry of sequence seq still held? */
static bool sim_cached(const struct sim_card *c, uint64_t seq)
{
	if (c->p.cache_kind == SIM_CACHE_BACK)
		return seq >= c->cache_lo;
	return c->wseq - seq < c->p.cache_byte / SIM_SECTOR;
}

/* Fill one sector of a read at byte address a into out. */
static void sim_data_sector(const struct sim_card *c, unsigned char *out,
			    uint64_t a)
{
	uint64_t seq;

	if (c->p.cache_byte &&
	    simstore_get(&c->cache, a / SIM_SECTOR, out, &seq) &&
	    sim_cached(c, seq))
		return;
	if (a >= c->real_byte) {
		if (c->p.fake == SIM_FAKE_WRAP) {
			a %= c->real_byte;
		} else {
			if (c->p.fake == SIM_FAKE_LIMBO_GARBAGE)
				sim_garbage(c, out, a / SIM_SECTOR);
			else
				memset(out, 0, SIM_SECTOR);
			return;
		}
	}
	if (!simstore_get(&c->flash, a / SIM_SECTOR, out, NULL))
		memset(out, 0, SIM_SECTOR);
}

/* What a read of len bytes at first returns, into buf. */
static void sim_data_read(const struct sim_card *c, void *buf, size_t len,
			  uint64_t first)
{
	unsigned char *out = buf;
	size_t i;

	if (!c->flash.nr && !c->cache.nr && c->real_byte == c->p.size_byte) {
		memset(buf, 0, len);	/* nothing written yet */
		return;
	}
	for (i = 0; i < len; i += SIM_SECTOR)
		sim_data_sector(c, out + i, first + i);
}

/* Keep the cache's memory to about twice what it holds. */
static int sim_cache_trim(struct sim_card *c)
{
	uint64_t held = c->p.cache_byte / SIM_SECTOR;

	if (c->cache.nr < 2 * held + 1024)
		return 0;
	if (c->p.cache_kind == SIM_CACHE_BACK)
		return simstore_prune(&c->cache, c->cache_lo);
	return simstore_prune(&c->cache, c->wseq - held);
}

/* Put sector data, written at byte address a, on the flash. */
static int sim_flash_put(struct sim_card *c, uint64_t a, const void *data,
			 uint64_t seq)
{
	if (a >= c->real_byte) {
		if (c->p.fake != SIM_FAKE_WRAP)
			return 0;	/* lost in limbo */
		a %= c->real_byte;
	}
	return simstore_put(&c->flash, a / SIM_SECTOR, data, seq);
}

/* Is queue entry e the cached copy of its sector? */
static bool sim_wq_live(const struct sim_card *c, const struct sim_wq *e)
{
	unsigned char tmp[SIM_SECTOR];
	uint64_t seq;

	return e->seq >= c->cache_lo &&
	       simstore_get(&c->cache, e->sector, tmp, &seq) && seq == e->seq;
}

/* Note a write-back write in the queue, dropping superseded entries. */
static int sim_wq_push(struct sim_card *c, uint64_t sector, uint64_t seq)
{
	if (c->wq_len == c->wq_cap) {
		size_t i, n = 0;

		for (i = c->wq_head; i < c->wq_len; i++)
			if (sim_wq_live(c, &c->wq[i]))
				c->wq[n++] = c->wq[i];
		c->wq_head = 0;
		c->wq_len = n;
	}
	/* grow when compacting freed less than half */
	if (!c->wq_cap || c->wq_len > c->wq_cap / 2) {
		size_t cap = c->wq_cap ? 2 * c->wq_cap : 1024;
		struct sim_wq *q = realloc(c->wq, cap * sizeof(*q));

		if (!q)
			return -ENOMEM;
		c->wq = q;
		c->wq_cap = cap;
	}
	c->wq[c->wq_len].sector = sector;
	c->wq[c->wq_len++].seq = seq;
	return 0;
}

/* Push the oldest sector the write-back cache holds to the flash. */
static int sim_wq_evict(struct sim_card *c)
{
	unsigned char data[SIM_SECTOR];

	while (c->wq_head < c->wq_len) {
		struct sim_wq e = c->wq[c->wq_head++];

		if (!sim_wq_live(c, &e))
			continue;	/* superseded */
		simstore_get(&c->cache, e.sector, data, NULL);
		c->cache_lo = e.seq + 1;
		c->cache_nr--;
		return sim_flash_put(c, e.sector * SIM_SECTOR, data, e.seq);
	}
	return 0;
}

/* A write-back write of one sector at byte address a.  0 or -ENOMEM. */
static int sim_write_back(struct sim_card *c, const unsigned char *in,
			  uint64_t a)
{
	unsigned char tmp[SIM_SECTOR];
	uint64_t seq, sector = a / SIM_SECTOR;

	if (!(simstore_get(&c->cache, sector, tmp, &seq) &&
	      seq >= c->cache_lo)) {
		if (c->cache_nr >= c->p.cache_byte / SIM_SECTOR &&
		    sim_wq_evict(c))
			return -ENOMEM;
		c->cache_nr++;
	}
	if (simstore_put(&c->cache, sector, in, c->wseq) ||
	    sim_wq_push(c, sector, c->wseq))
		return -ENOMEM;
	return sim_cache_trim(c);
}

/* Store a write of len bytes at first.  Returns 0 or -ENOMEM. */
static int sim_data_write(struct sim_card *c, const void *buf, size_t len,
			  uint64_t first)
{
	const unsigned char *in = buf;
	size_t i;

	for (i = 0; i < len; i += SIM_SECTOR) {
		uint64_t a = first + i;

		c->wseq++;
		if (c->p.cache_byte && c->p.cache_kind == SIM_CACHE_BACK) {
			if (sim_write_back(c, in + i, a))
				return -ENOMEM;
			continue;
		}
		if (c->p.cache_byte &&
		    (simstore_put(&c->cache, a / SIM_SECTOR, in + i,
				  c->wseq) || sim_cache_trim(c)))
			return -ENOMEM;
		if (sim_flash_put(c, a, in + i, c->wseq))
			return -ENOMEM;
	}
	return 0;
}

/*
 * The cost of a read of len bytes at first, in ns, of which *acc_ns is
 * the access (the command and the flash array's latency).
 */
static double sim_read_ns(struct sim_card *c, uint64_t first, uint64_t len,
			  double *acc_ns)
{
	const struct sim_params *p = &c->p;
	uint64_t last, pages, aus;
	double t;

	if (p->readahead_byte && sim_ra_hit(c, first, len)) {
		/* from the buffer: the command, no flash access */
		*acc_ns = p->access_us * 500.0;
		return *acc_ns + sim_xfer_ns(len, p->read_mbps);
	}
	last = first + len - 1;
	pages = last / p->page_byte - first / p->page_byte + 1;
	aus = last / p->erase_byte - first / p->erase_byte + 1;
	*acc_ns = p->access_us * 1000.0;
	t = *acc_ns + sim_xfer_ns(len, p->read_mbps);
	if (!p->readsig)
		return t;	/* a bridge that hides the flash */
	/* a page read costs nothing extra until the read needs more pages */
	t += (double)(pages - (len + p->page_byte - 1) / p->page_byte) *
	     p->page_us * 1000.0;
	t += (double)(aus - 1) * p->au_us * 1000.0;
	t += sim_more_steps_ns(p, first, last, len);
	return t;
}

static int sim_read(struct device *dev, void *buf, size_t len, off_t off)
{
	struct sim_card *c = (struct sim_card *)dev;
	double acc;
	int ret;

	ret = sim_check_io(c, "read", off, len);
	if (ret)
		return ret;
	if (!buf)
		return dev_fail(dev, "read", off, len, EFAULT);
	sim_data_read(c, buf, len, (uint64_t)off);
	sim_charge(c, sim_read_ns(c, (uint64_t)off, len, &acc));
	return 0;
}

/* The open slot of AU au, or NULL. */
static struct sim_slot *sim_find(struct sim_card *c, uint64_t au)
{
	unsigned int i;

	for (i = 0; i < c->nr_slots; i++)
		if (c->slot[i].used && c->slot[i].au == au)
			return &c->slot[i];
	return NULL;
}

/* Forget an open AU without cost. */
static void sim_release(struct sim_card *c, struct sim_slot *s)
{
	if (s->random)
		c->nr_random--;
	c->nr_open--;
	memset(s, 0, sizeof(*s));
}

/*
 * The cost in ns of copying copy bytes of an AU to a fresh block, erase
 * included; nothing when nothing is copied.
 */
static double sim_copy_ns(const struct sim_card *c, uint64_t copy)
{
	return copy ? sim_xfer_ns(copy, c->p.write_mbps) +
		      c->p.erase_us * 1000.0 : 0;
}

/* Close an open AU by garbage collection.  Returns the cost in ns. */
static double sim_gc(struct sim_card *c, struct sim_slot *s)
{
	const struct sim_params *p = &c->p;
	uint64_t len = sim_au_len(c, s->au), copy;
	double t;

	if (s->random) {
		/* pages written out of order: the whole AU is rewritten */
		t = sim_copy_ns(c, len);
	} else if (p->close == SIM_CLOSE_REST) {
		/* no record of what is valid: all not written is copied */
		t = sim_copy_ns(c, len - s->written_byte);
	} else if (p->close == SIM_CLOSE_ALL) {
		t = sim_copy_ns(c, len);
	} else {
		copy = s->old_byte > s->kept_byte ?
		       s->old_byte - s->kept_byte : 0;
		t = sim_xfer_ns(copy, p->write_mbps) +
		    (s->old_byte ? p->erase_us * 1000.0 : 0);
	}
	sim_release(c, s);
	return t;
}

/*
 * The open slot the card closes next (random-mode ones only when
 * random_only), other than skip: the least recently used, or with
 * evict=oldest the first opened; NULL if none.
 */
static struct sim_slot *sim_victim(struct sim_card *c, bool random_only,
				   const struct sim_slot *skip)
{
	bool oldest = c->p.evict == SIM_EVICT_OLDEST;
	struct sim_slot *best = NULL;
	unsigned int i;

	for (i = 0; i < c->nr_slots; i++) {
		struct sim_slot *s = &c->slot[i];

		if (s == skip || !s->used || (random_only && !s->random))
			continue;
		if (!best || (oldest ? s->opened < best->opened :
				       s->stamp < best->stamp))
			best = s;
	}
	return best;
}

/* Open AU au, closing the LRU AU if all slots are taken.  Cost in *t. */
static struct sim_slot *sim_open_au(struct sim_card *c, uint64_t au,
				    double *t)
{
	struct sim_slot *s;

	if (c->nr_open == c->nr_slots) {
		s = sim_victim(c, false, NULL);
		*t += sim_gc(c, s);
	} else {
		unsigned int i;

		for (i = 0; i < c->nr_slots; i++)
			if (!c->slot[i].used)
				break;
		s = &c->slot[i];
	}
	s->used = true;
	s->au = au;
	s->old_byte = c->data_end[au];
	s->opened = ++c->opens;
	c->nr_open++;
	return s;
}

/* Is AU au in the FAT-optimised area? */
static bool sim_is_fat(const struct sim_card *c, uint64_t au)
{
	return au >= c->p.fat_start && au < (uint64_t)c->p.fat_start +
					    c->p.fat_nr;
}

/*
 * Is a write of [a, b) to FAT AU au in order: at the AU's start or right
 * where the last write there ended?  Records b as that end.
 */
static bool sim_fat_in_order(struct sim_card *c, uint64_t au, uint64_t a,
			     uint64_t b)
{
	uint32_t *end = &c->fat_end[au - c->p.fat_start];
	bool in_order = a == 0 || a == *end;

	*end = (uint32_t)b;
	return in_order;
}

/* Time to program [a, b) in program units of unit at rate_mbps. */
static double sim_program_ns(uint64_t a, uint64_t b, uint64_t unit,
			     double rate_mbps)
{
	/* partial program units are read, merged and programmed whole */
	return sim_xfer_ns((b + unit - 1) / unit * unit - a / unit * unit,
			   rate_mbps);
}

/*
 * An open AU s is written out of order.  With ooo=random turn it to
 * random mode, closing the random-mode AU evict picks when that makes
 * one too many; a card that keeps none open in random order, or one of
 * the other ooo forms, copies (merge: closes s by GC; copy-whole: the
 * whole AU; copy-written: what s was written since opened) and opens s
 * afresh.  Returns the slot to go on with; the cost is added to *t.
 */
static struct sim_slot *sim_go_random(struct sim_card *c,
				      struct sim_slot *s, double *t)
{
	uint64_t au = s->au;

	if (c->p.ooo == SIM_OOO_RANDOM && c->p.open_random) {
		if (c->nr_random == c->p.open_random)
			*t += sim_gc(c, sim_victim(c, true, s));
		s->random = true;
		c->nr_random++;
		return s;
	}
	if (c->p.ooo == SIM_OOO_COPY_WHOLE) {
		*t += sim_copy_ns(c, sim_au_len(c, au));
		sim_release(c, s);
	} else if (c->p.ooo == SIM_OOO_COPY_WRITTEN) {
		*t += sim_copy_ns(c, s->written_byte);
		sim_release(c, s);
	} else {
		*t += sim_gc(c, s);
	}
	s = sim_open_au(c, au, t);
	s->stamp = ++c->stamp;
	return s;
}

/*
 * Does writing open AU s go through the log of a gradual collapse: more
 * AUs open than `open`, and s the least recently used of them?
 */
static bool sim_in_log(struct sim_card *c, const struct sim_slot *s)
{
	return c->p.collapse == SIM_COLLAPSE_GRADUAL &&
	       c->nr_open > c->p.open_au && s == sim_victim(c, false, NULL);
}

/*
 * Write [a, b) of AU au through the open-AU table; out_of_order forces
 * random mode, fat_speed programs at fat_mbps in fat_page units.
 * Returns the cost in ns (without the access time).
 */
static double sim_write_slot(struct sim_card *c, uint64_t au, uint64_t a,
			     uint64_t b, bool out_of_order, bool fat_speed)
{
	const struct sim_params *p = &c->p;
	uint64_t len = sim_au_len(c, au);
	uint64_t unit = fat_speed ? p->fat_page_byte : p->page_byte;
	double rate = fat_speed ? p->fat_mbps : p->write_mbps;
	double rate_random = fat_speed ? p->fat_mbps : p->random_mbps;
	struct sim_slot *s = sim_find(c, au);
	double t = 0, prog;
	bool random, seq;

	if (a == 0 && b == len) {
		/* a fresh block written whole replaces the AU: no copy */
		if (s)
			sim_release(c, s);
		return sim_program_ns(a, b, unit, rate);
	}
	if (!s)
		s = sim_open_au(c, au, &t);
	random = s->random || out_of_order || a < s->wp_byte;
	/* in sequence: beyond the pointer or right after the last write */
	seq = !out_of_order && (a >= s->wp_byte || a == s->last_byte);
	prog = sim_program_ns(a, b, unit, seq ? rate : rate_random);
	/* one AU over the limit: written to a log, then merged: twice */
	if (sim_in_log(c, s))
		t += prog;
	t += prog;
	s->stamp = ++c->stamp;
	if (!s->random && random)
		s = sim_go_random(c, s, &t);
	if (s->random && !seq)
		t += p->random_us * 1000.0;
	if (b > s->wp_byte)
		s->wp_byte = b;
	s->last_byte = b;
	if (!s->random) {
		uint64_t kept = b < s->old_byte ? b : s->old_byte;

		s->kept_byte += kept > a ? kept - a : 0;
		s->written_byte += b - a;
		/*
		 * rewritten completely in order, or (fullclose) written
		 * to its end: nothing left to copy
		 */
		if (s->written_byte == len || (p->fullclose && b == len))
			sim_release(c, s);
	}
	return t;
}

/*
 * Write [a, b) of FAT AU au.  The area's advantage applies to the orders
 * fat_kind names; what it is, fat_gain says: fat_mbps and fat_page with
 * no open slot nor GC (both), fat_mbps and fat_page through the open-AU
 * table (speed), or no slot nor GC at the rates of any AU (slot).  Other
 * writes cost what they cost in any AU: in order, write_mbps by pages
 * (and still no slot: in order, any AU written on its own needs no GC);
 * out of order, through the open-AU table like any AU.  Returns the cost
 * in ns (without the access time).
 */
static double sim_write_fat(struct sim_card *c, uint64_t au, uint64_t a,
			    uint64_t b)
{
	const struct sim_params *p = &c->p;
	bool order = sim_fat_in_order(c, au, a, b);
	bool in_order = p->fat_kind == SIM_FAT_BOTH || order, fast;

	fast = p->fat_kind == SIM_FAT_BOTH ||
	       (p->fat_kind == SIM_FAT_LINEAR) == in_order;
	if (fast && p->fat_gain == SIM_FAT_GAIN_BOTH)
		return sim_program_ns(a, b, p->fat_page_byte, p->fat_mbps);
	if (fast && p->fat_gain == SIM_FAT_GAIN_SPEED)
		return sim_write_slot(c, au, a, b, !in_order, true);
	if (fast)
		return sim_program_ns(a, b, p->page_byte, order ?
				      p->write_mbps : p->random_mbps) +
		       (order ? 0 : p->random_us * 1000.0);
	/* still no slot in order: as fast as any AU written on its own */
	if (in_order)
		return sim_program_ns(a, b, p->page_byte, p->write_mbps);
	return sim_write_slot(c, au, a, b, true, false);
}

/*
 * Write [a, b) relative to the start of AU au.  Returns the cost in ns
 * (without the access time).
 */
static double sim_write_au(struct sim_card *c, uint64_t au, uint64_t a,
			   uint64_t b)
{
	double t;

	if (sim_is_fat(c, au))
		t = sim_write_fat(c, au, a, b);
	else
		t = sim_write_slot(c, au, a, b, false, false);
	if (b > c->data_end[au])
		c->data_end[au] = (uint32_t)b;
	return t;
}

/*
 * Program a write of len bytes at pos through the AUs it touches: t plus
 * their cost in ns.
 */
static double sim_write_ns(struct sim_card *c, uint64_t pos, uint64_t len,
			   double t)
{
	uint64_t end = pos + len, e = c->p.erase_byte;

	while (pos < end) {
		uint64_t au = pos / e, au_end = (au + 1) * e;
		uint64_t seg_end = end < au_end ? end : au_end;

		t += sim_write_au(c, au, pos - au * e, seg_end - au * e);
		pos = seg_end;
	}
	return t;
}

static int sim_write(struct device *dev, const void *buf, size_t len,
		     off_t off)
{
	struct sim_card *c = (struct sim_card *)dev;
	int ret;

	ret = sim_check_io(c, "write", off, len);
	if (ret)
		return ret;
	if (!buf)
		return dev_fail(dev, "write", off, len, EFAULT);
	if (sim_data_write(c, buf, len, (uint64_t)off))
		return dev_fail(dev, "write", off, len, ENOMEM);
	c->ra_lo = c->ra_hi = 0;	/* the read-ahead buffer is stale */
	sim_charge(c, sim_write_ns(c, (uint64_t)off, len,
				   c->p.access_us * 1000.0));
	return 0;
}

/*
 * The cost of n queued requests, request i taking acc[i] ns of access
 * and svc[i] ns more: up to depth of them in the card at once, each
 * starting its access when it enters, the rest served one at a time in
 * order (see Queued requests).
 */
static double sim_queue_ns(const double *acc, const double *svc,
			   unsigned int n, unsigned int depth)
{
	double done[DEV_BATCH_MAX] = { 0 };
	unsigned int i;

	for (i = 0; i < n; i++) {
		double enter = i < depth ? 0 : done[i - depth];
		double begin = enter + acc[i];

		if (i && done[i - 1] > begin)
			begin = done[i - 1];
		done[i] = begin + svc[i];
	}
	return n ? done[n - 1] : 0;
}

/* Is request q a valid I/O?  0 or -errno (recorded). */
static int sim_check_req(struct sim_card *c, const struct dev_req *q)
{
	const char *op = q->write ? "write" : "read";
	int ret = sim_check_io(c, op, q->off, q->len);

	if (!ret && !q->buf)
		ret = dev_fail(&c->dev, op, q->off, q->len, EFAULT);
	return ret;
}

/*
 * Store or fetch the data of queued request q and put its cost into
 * *acc and *svc (see sim_queue_ns); a write into the cache adds its
 * bytes to *cached.  0 or -errno.
 */
static int sim_queued(struct sim_card *c, const struct dev_req *q,
		      bool cache, double *acc, double *svc, uint64_t *cached)
{
	uint64_t pos = (uint64_t)q->off;

	if (!q->write) {
		sim_data_read(c, q->buf, q->len, pos);
		*svc = sim_read_ns(c, pos, q->len, acc) - *acc;
		return 0;
	}
	if (sim_data_write(c, q->buf, q->len, pos))
		return dev_fail(&c->dev, "write", q->off, q->len, ENOMEM);
	c->ra_lo = c->ra_hi = 0;
	*acc = c->p.access_us * 1000.0;
	if (cache) {
		*svc = sim_xfer_ns(q->len, c->p.write_mbps);
		*cached += q->len;
	} else {
		*svc = sim_write_ns(c, pos, q->len, 0.0);
	}
	return 0;
}

/*
 * A batch: without a queue one request at a time, as dev_batch_ops()
 * would; with one, all checked before any is served, then charged as
 * the queue model says.
 */
static int sim_batch(struct device *dev, const struct dev_req *req,
		     unsigned int n)
{
	struct sim_card *c = (struct sim_card *)dev;
	double acc[DEV_BATCH_MAX], svc[DEV_BATCH_MAX], t;
	uint64_t cached = 0, page = c->p.page_byte;
	unsigned int i;
	int ret = 0;

	if (!c->p.queue) {
		for (i = 0; i < n && !ret; i++)
			ret = req[i].write ? sim_write(dev, req[i].buf,
						       req[i].len, req[i].off) :
			      sim_read(dev, req[i].buf, req[i].len,
				       req[i].off);
		return ret;
	}
	for (i = 0; i < n && !ret; i++)
		ret = sim_check_req(c, &req[i]);
	for (i = 0; i < n && !ret; i++)
		ret = sim_queued(c, &req[i], c->p.queue_cache && n > 1,
				 &acc[i], &svc[i], &cached);
	if (ret)
		return ret;
	t = sim_queue_ns(acc, svc, n, c->p.queue);
	/* the cache programs whole pages */
	t += sim_xfer_ns((cached + page - 1) / page * page - cached,
			 c->p.write_mbps);
	sim_charge(c, t);
	return 0;
}

/* Erase [a, erase_byte) of AU au when it reaches the AU's end. */
static void sim_discard_au(struct sim_card *c, uint64_t au, uint64_t a,
			   uint64_t b)
{
	struct sim_slot *s;

	if (b != sim_au_len(c, au))
		return;	/* the card maps whole AUs: nothing to drop */
	if (a < c->data_end[au])
		c->data_end[au] = (uint32_t)a;
	s = sim_find(c, au);
	if (!s)
		return;
	if (a == 0)
		sim_release(c, s);
	else if (a < s->old_byte)
		s->old_byte = a;
}

static int sim_discard(struct device *dev, off_t off, uint64_t len)
{
	struct sim_card *c = (struct sim_card *)dev;
	uint64_t pos = (uint64_t)off, end, e = c->p.erase_byte;
	int ret;

	ret = sim_check_io(c, "discard", off, len);
	if (ret)
		return ret;
	c->ra_lo = c->ra_hi = 0;
	end = pos + len;
	while (pos < end) {
		uint64_t au = pos / e, au_end = (au + 1) * e;
		uint64_t seg_end = end < au_end ? end : au_end;

		sim_discard_au(c, au, pos - au * e, seg_end - au * e);
		pos = seg_end;
	}
	sim_charge(c, (c->p.access_us + c->p.discard_us) * 1000.0);
	return 0;
}

static uint64_t sim_now(struct device *dev)
{
	return ((struct sim_card *)dev)->now_ns;
}

static void sim_destroy(struct device *dev)
{
	struct sim_card *c = (struct sim_card *)dev;

	simstore_free(&c->flash);
	simstore_free(&c->cache);
	free(c->wq);
	free(c->slot);
	free(c->fat_end);
	free(c->data_end);
	free(c);
}

static const struct dev_ops sim_ops = {
	.read = sim_read,
	.write = sim_write,
	.discard = sim_discard,
	.batch = sim_batch,
	.now_ns = sim_now,
	.destroy = sim_destroy,
};

int sim_total_ns(const struct device *dev, uint64_t *ns)
{
	const struct sim_card *c = (const struct sim_card *)dev;

	if (dev->ops != &sim_ops)
		return 0;
	*ns = c->now_ns + c->untimed_ns;
	return 1;
}

void sim_card_registers(const struct sim_params *p, struct card_raw *raw)
{
	struct card_claims c = { 0, 0, 0, 0 };
	uint64_t au = p->au_byte;

	if (!p->claims[0] && !au) {
		memset(raw, 0, sizeof(*raw));
		raw->source = CARD_SIM;
		return;
	}
	if (p->claims[0]) {
		char why[96];

		card_parse_claims(p->claims, &c, why, sizeof(why));
	}
	if (!au && card_au_code(p->erase_byte))
		au = p->erase_byte;
	card_build(raw, p->size_byte, au, &c, p->seed);
}

int sim_open(struct device **devp, const struct sim_params *p)
{
	struct sim_card *c;
	char why[160];
	uint64_t i;

	*devp = NULL;
	if (sim_check(p, NULL, why, sizeof(why)))
		return -EINVAL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->p = *p;
	if (!c->p.fat_mbps)
		c->p.fat_mbps = 2 * c->p.write_mbps;
	if (!c->p.random_mbps)
		c->p.random_mbps = c->p.write_mbps;
	c->nr_au = (p->size_byte - 1) / p->erase_byte + 1;
	c->real_byte = p->real_size_byte ? p->real_size_byte : p->size_byte;
	c->rng = p->seed;
	c->data_end = malloc(c->nr_au * sizeof(*c->data_end));
	if (!c->data_end)
		goto out_free_card;
	/* a used card: every AU holds old data; a new one: none */
	for (i = 0; i < c->nr_au; i++)
		c->data_end[i] = p->used ? (uint32_t)sim_au_len(c, i) : 0;
	c->fat_end = calloc(p->fat_nr ? p->fat_nr : 1, sizeof(*c->fat_end));
	c->rng_pause = p->seed ^ SIM_PAUSE_SEED;
	c->rng_busy = p->seed ^ SIM_BUSY_SEED;
	c->nr_slots = p->open_au + (p->collapse == SIM_COLLAPSE_GRADUAL);
	c->slot = calloc(c->nr_slots, sizeof(*c->slot));
	if (!c->slot || !c->fat_end)
		goto out_free_data;
	c->dev.ops = &sim_ops;
	c->dev.path = "simulated card";
	c->dev.size_byte = p->size_byte;
	c->dev.logical_block_size = SIM_SECTOR;
	*devp = &c->dev;
	return 0;

out_free_data:
	free(c->slot);
	free(c->fat_end);
	free(c->data_end);
out_free_card:
	free(c);
	return -ENOMEM;
}
