// SPDX-License-Identifier: GPL-2.0-only
/*
 * --auto's open-AU searches, linear then random order.  A probe with nr
 * AUs writes the same chunk position into each AU in turn, position after
 * position.  While the card keeps nr AUs open a write costs what it costs
 * with one AU; one AU more and every turn forces garbage collection, many
 * times slower.  Which nr to probe next is the decision's walk
 * (auto_open_next() in verdict/openau.c); a probe stops as soon as it has
 * clearly held or clearly collapsed (its warm-up counts for the AUs the
 * probe before held open), so the search costs a small part of the
 * classic procedure's device time.  Each probe's typical write goes to
 * the record.
 */
#include <errno.h>

#include "probe.h"
#include "stats.h"

#define AUTO_WARMUP 1		/* chunk positions not measured */
#define AUTO_POSITIONS 12	/* chunk positions measured at most */
#define AUTO_CHUNK 16384	/* probe write size, at least a page */
#define AUTO_MERGE_WRITES 2	/* writes out of order on an AU written
				   whole, to tell a merge per write (the
				   least kept: pauses only add) */

struct probe_ctx {
	struct device *dev;
	uint64_t erase;
	uint64_t chunk;
	uint64_t base;
	uint64_t spacing;		/* AUs between probe AUs */
	int random;
	uint64_t used;		/* chunk positions used since preconditioned */
	struct probe_area *area;
	unsigned int held;	/* AUs [0, held) the last probe held open */
	double lin_ref_ns;	/* a write in linear order (0: unknown) */
	int prev_collapsed;	/* the last probe collapsed */
	int newest;		/* take the AUs written last (see
				   probe_newest()) */
};

/* The start of probe AU i, in bytes. */
static uint64_t probe_au(const struct probe_ctx *c, unsigned int i)
{
	return c->base + (uint64_t)i * c->spacing * c->erase;
}

/*
 * Take as AUs of a probe with nr AUs the nr written last, in the order
 * they were written.  A probe with more AUs than the card keeps open
 * leaves AUs open that the next, smaller one does not write.  A card that
 * closes the least recently written AU closes those first; one that
 * closes the AU it opened first (FIFO) would close the probe's own AUs
 * first, open them again, close more of them, and take passes to settle:
 * a probe that would hold would seem to collapse.  The AUs written last
 * are also the ones opened last, in either order; written as they were,
 * the card keeps them and closes the others, in either order, and a
 * probe with more takes the others from the oldest on.  The last probe
 * had last_nr AUs; order[] stays a permutation of the AUs.
 */
static void probe_newest(struct probe_area *a, unsigned int nr)
{
	const unsigned int n = a->last_nr;
	unsigned int seq[AUTO_MAX_NR], i;

	if (n < 2 || nr >= n)
		return;
	/* seq: the last probe's AUs, the oldest written first */
	for (i = 0; i < n; i++)
		seq[i] = a->order[(a->last_k + 1 + i) % n];
	for (i = 0; i < n; i++)
		a->order[i] = seq[(n - nr + i) % n];
}

/*
 * Write probe AUs [from, to) once, whole: they start from a known state,
 * full of data, with nothing half-written that a garbage collection would
 * have to copy in the middle of a measurement.
 */
static int precondition(const struct probe_ctx *c, unsigned int from,
			unsigned int to)
{
	double t;

	c->area->written += (uint64_t)(to - from) * c->erase;
	return auto_run_cell(c->dev, auto_total_time(vm_off_series(VM_OFF_LIN,
				probe_au(c, from),
				c->spacing * c->erase, to - from,
				vm_len_fixed(c->erase, vm_leaf(VM_WRITE_5A)))),
			&t);
}

/*
 * The chunk position of the next pass.  Linear order walks up the AU;
 * random order walks down it with pseudo-random gaps, so that every write
 * lands below the previous one in its AU and the card sees out-of-order
 * writes at every step.  Positions are never reused until the AUs are
 * preconditioned again: a later probe never writes below where an earlier
 * one stopped, which would look like random order to the card.  The last
 * chunk of an AU is never written: a card that closes an AU written to
 * its end (fullclose) would close it at no cost, and the probe would see
 * the card keep any number open.
 */
static uint64_t next_position(struct probe_ctx *c)
{
	const uint64_t npos = c->erase / c->chunk - 1;
	uint64_t slot = c->used++;

	if (!c->random)
		return slot;
	return npos - 1 - 2 * slot - vm_shuffle(slot, 2, npos);
}

/* Positions one probe may use at most, in units of next_position(). */
static uint64_t positions_left(const struct probe_ctx *c)
{
	const uint64_t npos = c->erase / c->chunk - 1;
	const uint64_t per = c->random ? 2 : 1;

	return npos / per > c->used ? npos / per - c->used : 0;
}

/*
 * In random order the AUs written last are not those opened last: an AU
 * stays open pass after pass, and only one closed and opened again is
 * new to the card.  A card that closes the random-mode AU it opened first
 * may then close the probe's own AUs one per pass, for as many passes as
 * it has AUs, as a collapse does.  So after a collapse in random order
 * the AUs of the last probe that the next does not write, probe AUs
 * [nr, n), are written whole: an AU written whole in one write needs no
 * slot, and the card closes it at once, whichever mechanics it has.
 */
static int probe_flush(struct probe_ctx *c, unsigned int nr, unsigned int n)
{
	unsigned int k;
	int ret = 0;
	double t;

	for (k = nr; k < n && !ret; k++) {
		c->area->written += c->erase;
		ret = auto_write_one(c->dev, probe_au(c, c->area->order[k]),
				     c->erase, &t);
	}
	return ret;
}

/*
 * Ready the AUs of a probe with nr AUs and warm passes of warm-up: a set
 * the card has not seen lately after a larger probe collapsed, the AUs
 * written whole first when the search asks for it, and all of them again
 * when their positions run out.
 */
static int probe_ready(struct probe_ctx *c, unsigned int nr,
		       unsigned int warm)
{
	unsigned int *ready = &c->area->ready, *touched = &c->area->touched;
	int ret;

	if (nr > 1 && (c->prev_collapsed || c->newest)) {
		const unsigned int n = c->area->last_nr;

		probe_newest(c->area, nr);
		c->newest = 0;
		ret = c->random && c->prev_collapsed && nr < n ?
		      probe_flush(c, nr, n) : 0;
		if (ret)
			return ret;
	}
	if (c->area->whole && nr > *ready) {
		ret = precondition(c, *ready, nr);
		if (ret)
			return ret;
		*ready = nr;
	}
	if (nr > *touched)
		*touched = nr;
	/*
	 * Room for the warm-up and four passes, what a probe that holds
	 * takes (one that must look longer uses what is left): writing the
	 * AUs whole again costs as much as several probes.
	 */
	if (positions_left(c) >= warm + AUTO_HELD_PASSES)
		return 0;
	/* every AU written to: a later probe may reach any of them */
	ret = precondition(c, 0, *touched);
	if (ret)
		return ret;
	*ready = *touched;
	c->used = 0;
	c->held = 0;	/* closed: each opens again */
	return 0;
}

/*
 * A pass slow only through one write of several, the others fast: a long
 * write stall (a card's inline reclaim, its maintenance) or a pause of
 * the host, not a collection, which costs at every turn of the AUs over
 * the limit.  The pass counts at its other writes' mean (*lone set),
 * unless such passes are most of the probe's (see probe()).
 */
static double pass_mean(double sum, double slowest, unsigned int nr,
			double ref_ns, double hold_ns, int *lone)
{
	*lone = nr >= 3 && ref_ns > 0 && slowest > AUTO_COLLAPSE * ref_ns &&
		(sum - slowest) / (nr - 1) < hold_ns;
	return *lone ? (sum - slowest) / (nr - 1) : sum / nr;
}

/*
 * Are the passes slow through one write alone stalls (slow_run: the most
 * passes with a slow write, alone or not, of four in a row)?  A stall
 * falls on a write now and then, one in a hundred or fewer, so never on
 * three passes of four.  A card in random mode with one AU more than it
 * keeps pays a collection at one write of every pass, or more where the
 * host delays one too (the probe stops after three such passes of four:
 * its run; of four, since on a card with a write cache a host late with
 * a write lets the cache fold and take the next few, collection and
 * all, so one pass of the run may show none);
 * one that closes the AU it opened first (evict=oldest) at the same AU's
 * write in every pass, and so does one keeping an AU through a log
 * (auto_probe_judge()'s dear AUs).  Those are no stalls, nor are those
 * before writes that stopped the probe as a clear collapse.
 */
static int lones_stalls(const unsigned int *dear, unsigned int nr,
			unsigned int slow_run, unsigned int m)
{
	unsigned int k;

	if (slow_run >= 3)
		return 0;
	for (k = 0; k < nr; k++)
		if (m >= 2 && dear[k] >= m)
			return 0;
	return 1;
}

/* The typical time of one write with nr AUs written in turn. */
static int probe(struct probe_ctx *c, unsigned int nr, double ref_ns,
		 struct auto_probe *p)
{
	/* random order: one pass opens the AUs, the next turns them random */
	const unsigned int warm = AUTO_WARMUP + (c->random ? 1 : 0);
	const unsigned int passes = warm + AUTO_POSITIONS;
	double per[AUTO_POSITIONS], raw[AUTO_POSITIONS];
	unsigned int i, m = 0, fast = 0, slow = 0, huge = 0, lones = 0;
	unsigned int fast_raw = 0, f, run_max = 0;
	unsigned int streak = 0, hstreak = 0;	/* slow, huge writes in a row */
	unsigned int run = 0;	/* of the last 4 passes, those with a slow
				   write */
	unsigned int last4 = 0;	/* those passes, a bit each, newest low */
	unsigned int dear[AUTO_MAX_NR] = { 0 };	/* passes each AU's write
						   was not fast in */
	const double hold_ns = auto_hold_limit(ref_ns, c->lin_ref_ns);
	int ret, stop = 0;

	ret = probe_ready(c, nr, warm);
	if (ret)
		return ret;
	for (i = 0; i < passes && positions_left(c) && !stop; i++) {
		uint64_t pos = next_position(c);
		const unsigned int pass_slow = slow;
		double sum = 0, slowest = 0, t;
		unsigned int k;
		int lone;

		/* one write at a time, so that a collapse stops the probe at
		 * once: each collapsed write costs a whole garbage collection */
		for (k = 0; k < nr && !stop; k++) {
			/*
			 * One AU: the one written last, surely still open.
			 * More: in the same order in every probe, so that a
			 * card that closes the AU it opened first (not the
			 * least recently written) settles in one pass after
			 * a probe with more AUs left others open.
			 */
			unsigned int au = nr == 1 ? c->area->last :
						    c->area->order[k];
			uint64_t at = probe_au(c, au);

			ret = auto_run_cell(c->dev, auto_total_time(vm_len_fixed(c->chunk,
					vm_off_series(VM_OFF_LIN,
						at + pos * c->chunk,
						0, 1, vm_leaf(VM_WRITE_5A)))), &t);
			if (ret)
				return ret;
			c->area->last = au;
			if (nr > 1)
				c->area->last_k = k;
			sum += t;
			if (t > slowest)
				slowest = t;
			/*
			 * The warm-up's writes open the new AUs, which may
			 * close others; an AU the last probe held open pays
			 * for a collection only when this one is too many.
			 */
			if ((i < warm && k >= c->held) || ref_ns <= 0)
				continue;
			dear[k] += i >= warm && t > hold_ns;
			slow += t > AUTO_COLLAPSE * ref_ns;
			huge += t > AUTO_GC_SURE * ref_ns;
			streak = t > AUTO_COLLAPSE * ref_ns ? streak + 1 : 0;
			hstreak = t > AUTO_GC_SURE * ref_ns ? hstreak + 1 : 0;
			/* clearly collapsed: several writes as slow as a
			 * garbage collection, half of the AUs' (a card in
			 * random mode may collapse at only some of them) or
			 * three in a row (pauses come one at a time); two
			 * will do when each took what only a collection of
			 * a large AU takes: each costs seconds on such a
			 * card */
			if (((slow >= 3 || huge >= 2) &&
			     slow >= (nr + 1) / 2) ||
			    streak >= 3 || hstreak >= 2) {
				raw[m] = sum / (k + 1);
				per[m] = raw[m];
				m++;
				stop = 1;
			}
		}
		if (i < warm || stop)
			continue;
		raw[m] = sum / nr;
		per[m++] = pass_mean(sum, slowest, nr, ref_ns, hold_ns, &lone);
		lones += lone;
		if (ref_ns > 0) {
			/*
			 * Collapsed at only some writes (random mode): a
			 * collection in three passes of four in a row, where
			 * pauses put one in a pass now and then at most.
			 */
			last4 = (last4 << 1 | (slow > pass_slow)) & 0xf;
			run = (unsigned int)__builtin_popcount(last4);
			if (run > run_max)
				run_max = run;
			fast += per[m - 1] < hold_ns;
			fast_raw += raw[m - 1] < hold_ns;
			/* clearly held: four fast passes; clearly not:
			 * none fast in four (one AU over, through a log);
			 * counted at the whole passes unless the passes
			 * slow through one write are stalls */
			f = lones_stalls(dear, nr, run_max, m) ? fast : fast_raw;
			if (m >= AUTO_HELD_PASSES && (f == m || !f))
				break;
			if (run >= 3)
				break;
		}
	}
	/*
	 * The reference is the typical write: pauses must not move it.  The
	 * others keep the mean: a card in random mode may collapse at only
	 * some of the writes.  Passes slow through one write alone count
	 * at their other writes (stalls, pauses: lones_stalls()).
	 */
	if (lones && (stop || !lones_stalls(dear, nr, run_max, m)))
		for (i = 0; i < m; i++)
			per[i] = raw[i];
	p->mean_ns = nr == 1 ? stats_median(per, m) : stats_trimmed_mean(per, m);
	p->nr = nr;
	p->positions = m;
	p->dear_aus = 0;
	for (i = 0; i < nr; i++)
		p->dear_aus += dear[i] == m;
	auto_probe_judge(p, ref_ns, c->lin_ref_ns);
	c->held = p->collapsed ? 0 : nr;
	c->prev_collapsed = nr > 1 && p->collapsed;
	if (nr > 1)
		c->area->last_nr = nr;
	return 0;
}

/*
 * A card that keeps no AU open in random order merges an AU on every
 * out-of-order write: with one AU, random order already costs many
 * writes.  So does a card that only programs slower out of order (seed
 * 004's -p random columns), or copies what it wrote since the last write
 * out of order: a few times slower, and such a card keeps AUs open.  What
 * a merge costs depends on the mechanics (what the AU held, what closing
 * copies), so no ratio tells them apart; what does: a merge of an AU full
 * of data costs about what writing the AU whole does.  So the AU is
 * written whole (its time: whole_ns), and written out of order again (the
 * least of AUTO_MERGE_WRITES writes, each below the last: merge_ns).
 */
static int merge_test(struct probe_ctx *c, struct auto_open *res)
{
	const uint64_t top = c->erase / c->chunk - 2;
	uint64_t at = probe_au(c, c->area->last);
	double t[AUTO_MERGE_WRITES];
	unsigned int j;
	int ret;

	c->area->written += c->erase;
	ret = auto_write_one(c->dev, at, c->erase, &res->whole_ns);
	/* the first opens the AU, in order; each later one is below it */
	for (j = 0; j <= AUTO_MERGE_WRITES && !ret; j++)
		ret = auto_write_one(c->dev, at + top *
				     (AUTO_MERGE_WRITES - j) /
				     AUTO_MERGE_WRITES * c->chunk, c->chunk,
				     &t[j ? j - 1 : 0]);
	if (ret)
		return ret;
	res->merge_ns = t[0];
	for (j = 1; j < AUTO_MERGE_WRITES; j++)
		if (t[j] < res->merge_ns)
			res->merge_ns = t[j];
	return 0;
}

/*
 * The open-AU search in one order: linear when lin is NULL, else random,
 * lin being what the search in linear order found.  The first probe, of
 * one AU, is the reference; in random order, one much slower than in
 * linear order may be a merge per write (merge_test(), and the search is
 * over), else the search goes on against it.
 */
int auto_probe_open(struct device *dev, uint64_t erase,
		    const struct auto_open *lin, struct probe_area *area,
		    struct auto_open *res)
{
	struct probe_ctx c = {
		.dev = dev, .erase = erase, .random = lin != NULL,
		.base = auto_probe_base(erase), .area = area,
		.spacing = auto_probe_spacing(dev->size_byte, erase),
		.lin_ref_ns = lin ? lin->ref_ns : 0,
	};
	unsigned int nr;
	int ret;

	c.chunk = AUTO_CHUNK;
	while (c.chunk * 4 > erase && c.chunk > 512)
		c.chunk /= 2;
	res->chunk_byte = c.chunk;
	res->max_nr = auto_probe_max_nr(dev->size_byte, erase);
	if (res->max_nr < 2)
		return -EINVAL;
	ret = probe(&c, 1, c.lin_ref_ns, &res->probes[res->nprobes++]);
	if (ret)
		return ret;
	res->ref_ns = res->probes[0].mean_ns;
	if (lin && auto_open_merge_wanted(res, lin))
		ret = merge_test(&c, res);
	if (ret || (lin && auto_open_none(res, lin)))
		goto out;
	c.newest = c.random;	/* the linear search's AUs are open */
	while ((nr = auto_open_next(res, lin)) &&
	       res->nprobes < AUTO_MAX_PROBES) {
		ret = probe(&c, nr, res->ref_ns, &res->probes[res->nprobes++]);
		if (ret)
			return ret;
	}
out:
	if (ret)
		return ret;
	res->measured = 1;
	auto_open_decide(res, lin);
	return 0;
}
