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
 * seeded by `seed`, so noise and pauses stay as they were.  The delay
 * comes before the command: the host times it, and the card is idle
 * meanwhile (its pSLC cache folds, its maintenance may start), as a
 * real card is while its host is late.
 * host=quiet|light|heavy sets the busy_ keys not given:
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
 * Today's cards, each off by default: a pSLC write cache in front of
 * the map (slc=, simcache.c); a page-mapped card instead of AUs (ftl=page,
 * simpage.c); maintenance after idle and long write stalls (maint_ms=,
 * stall_ms=, simstall.c); 4 KiB logical sectors (sector=4K: I/O not in
 * whole 4 KiB blocks fails with EINVAL, as on a 4Kn block device).  Idle
 * is time on the card's clock between the end of one command and the
 * start of the next (dev_idle(): the host leaves the card alone); the
 * card's waits and stalls are added after the noise, as pauses are.
 *
 * The files of the card: the model and the device operations here,
 * the open-AU table (writes, GC, discards) in simau.c, what the card
 * stores (data, caches, fakes) in simdata.c, the SPEC parser and its
 * keys in simspec.c, the pSLC cache in simcache.c, the page map in
 * simpage.c, what the card does on its own in simstall.c; simint.h is
 * what they share, with the arithmetic they all use (an AU's length, a
 * transfer's time, the splitmix64 step), so that sim.c calls the others
 * and none of them calls back.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "card.h"
#include "sim.h"
#include "simint.h"
#include "simstore.h"

#define SIM_PARETO_A	1.5		/* tail index of the pauses */
#define SIM_PAUSE_SEED	0x7061757365ULL	/* "pause": its own sequence */
#define SIM_BUSY_SEED	0x62757379ULL	/* "busy": its own sequence */

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

/*
 * A command arrives: what the card did since the last one ended, idle
 * (fold its pSLC cache, start its maintenance: simcache.c, simstall.c),
 * and how long the command waits for it (into extra_ns).  A busy host's
 * delay comes first: the host is late with the command, and the card
 * sits idle meanwhile, as any idle, while the host's clock runs on.
 */
static void sim_arrive(struct sim_card *c)
{
	uint64_t idle;

	if (c->dev.untimed)
		return;
	if (c->p.busy_pct > 0)
		c->now_ns += (uint64_t)llround(sim_busy_ns(c));
	idle = c->now_ns - c->last_end_ns;
	if (!idle)
		return;
	if (c->p.slc_byte)
		sim_slc_fold(c, idle);
	c->extra_ns += sim_maint_wait_ns(c, idle);
}

/*
 * The cost of a write request of len bytes at pos without the access
 * time, in ns; its long stalls go into extra_ns.
 */
static double sim_write_req_ns(struct sim_card *c, uint64_t pos,
			       uint64_t len)
{
	double t = sim_store_ns(c, pos, len);

	sim_stall_write(c, len);
	return t;
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
	/* waits for the card's own work and stalls: after the noise too */
	c->now_ns += (uint64_t)llround(cost_ns) + c->extra_ns;
	c->extra_ns = 0;
	c->last_end_ns = c->now_ns;
}

/* Returns -EINVAL (recorded) unless [off, off+len) is a valid I/O. */
static int sim_check_io(struct sim_card *c, const char *op, off_t off,
			uint64_t len)
{
	uint64_t size = c->dev.size_byte, sector = c->p.sector_byte;

	/* a 4Kn device refuses what is not whole 4 KiB blocks, as 512 */
	if (off < 0 || !len || (uint64_t)off % sector || len % sector ||
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
	sim_arrive(c);
	sim_charge(c, sim_read_ns(c, (uint64_t)off, len, &acc));
	return 0;
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
	sim_arrive(c);
	sim_charge(c, c->p.access_us * 1000.0 +
		      sim_write_req_ns(c, (uint64_t)off, len));
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
		*svc = sim_write_req_ns(c, pos, q->len);
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
	if (!ret)
		sim_arrive(c);
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

static int sim_discard(struct device *dev, off_t off, uint64_t len)
{
	struct sim_card *c = (struct sim_card *)dev;
	uint64_t pos = (uint64_t)off, end, e = c->p.erase_byte;
	int ret;

	ret = sim_check_io(c, "discard", off, len);
	if (ret)
		return ret;
	c->ra_lo = c->ra_hi = 0;
	sim_arrive(c);
	end = pos + len;
	if (c->page) {
		sim_page_discard(c, pos, len);
		pos = end;
	}
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

/* The host leaves the card idle: its clock moves on, nothing charged. */
static int sim_idle(struct device *dev, uint64_t ns)
{
	struct sim_card *c = (struct sim_card *)dev;

	if (!dev->untimed)
		c->now_ns += ns;
	return 0;
}

static void sim_destroy(struct device *dev)
{
	struct sim_card *c = (struct sim_card *)dev;

	sim_page_free(c);
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
	.idle = sim_idle,
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
	if (!c->p.slc_mbps)
		c->p.slc_mbps = 4 * c->p.write_mbps;
	if (!c->p.fold_mbps)
		c->p.fold_mbps = c->p.write_mbps;
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
	if (p->ftl == SIM_FTL_PAGE && sim_page_init(c))
		goto out_free_page;
	sim_stall_init(c);
	c->dev.ops = &sim_ops;
	c->dev.path = "simulated card";
	c->dev.size_byte = p->size_byte;
	c->dev.logical_block_size = (unsigned int)p->sector_byte;
	*devp = &c->dev;
	return 0;

out_free_page:
	sim_page_free(c);
out_free_data:
	free(c->slot);
	free(c->fat_end);
	free(c->data_end);
out_free_card:
	free(c);
	return -ENOMEM;
}
