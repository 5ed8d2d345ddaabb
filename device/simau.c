// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulated card's open-AU table (see sim.c, Writes and How cards
 * differ inside): which AUs are open and in which mode, what a write
 * costs through them and the FAT area, garbage collection when one
 * closes, and what a discard drops.
 */
#include <stdbool.h>
#include <string.h>

#include "sim.h"
#include "simint.h"

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
double sim_write_ns(struct sim_card *c, uint64_t pos, uint64_t len,
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

/* Erase [a, erase_byte) of AU au when it reaches the AU's end. */
void sim_discard_au(struct sim_card *c, uint64_t au, uint64_t a,
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
