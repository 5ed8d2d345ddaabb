// SPDX-License-Identifier: GPL-2.0-only
/*
 * --auto's FAT area judged: from the small writes' times at the start of
 * each AU against those far from the start (probes/fat.c), the first run
 * of AUs that is faster or pays no copy, and how sure that is.  Pure.
 */
#include <string.h>

#include "auto.h"

#define FAT_FAINT 1.1		/* a run of AUs this much faster than
				   the far ones, under AUTO_FAT_FAST: an
				   area only partly shown, or none */
#define FAT_CLEAR 0.1		/* a faint run's least gain above the
				   other AUs' most */
#define FAT_HIDDEN 5.0		/* writes out of order this much dearer
				   than in order: sparing a write's own cost
				   on each would not reach AUTO_FAT_FAST */

/*
 * AU i against the far AUs: > 1 faster.  The copy's ratio takes what AU
 * i paid as a small write at least.
 */
void auto_fat_ratios(struct auto_fat *f, unsigned int i)
{
	double c = f->copy_ns[i] > f->typ_ns[i] ? f->copy_ns[i] : f->typ_ns[i];

	f->lin_ratio[i] = f->ref_lin_ns / f->lin_ns[i];
	f->rnd_ratio[i] = f->ref_rnd_ns / f->rnd_ns[i];
	f->copy_ratio[i] = f->ref_copy_ns / c;
}

/*
 * An AU paid no copy: a small part of what a far one paid, and less than
 * half the least copy a far one paid in one write (an AU that paid a
 * smaller copy than the far ones did, closing an AU that held less, still
 * paid one; a pause of the host is shorter than a copy).
 */
static int fat_no_copy(const struct auto_fat *f, unsigned int i)
{
	return f->copy_ratio[i] > AUTO_FAT_NOCOPY &&
	       f->copy_ns[i] < f->ref_gc_ns / 2;
}

int auto_fat_is_fast(const struct auto_fat *f, unsigned int i)
{
	return f->lin_ratio[i] > AUTO_FAT_FAST ||
	       f->rnd_ratio[i] > AUTO_FAT_FAST || fat_no_copy(f, i);
}

/* The first run of AUs faster than those far from the start. */
static void fat_area(struct auto_fat *f)
{
	unsigned int i;

	f->found = 0;
	f->count = 0;
	f->linear = f->random = f->nocopy = 0;
	for (i = 0; i < f->naus && !f->found; i++)
		if (auto_fat_is_fast(f, i)) {
			f->found = 1;
			f->start = i;
		}
	while (f->found && f->start + f->count < f->naus &&
	       auto_fat_is_fast(f, f->start + f->count))
		f->count++;
	if (!f->found)
		return;
	f->linear = f->random = f->nocopy = 1;
	for (i = f->start; i < f->start + f->count; i++) {
		f->linear &= f->lin_ratio[i] > AUTO_FAT_FAST;
		f->random &= f->rnd_ratio[i] > AUTO_FAT_FAST;
		f->nocopy &= fat_no_copy(f, i);
	}
}

/*
 * Confidence from the small writes' speed: the gap between the slowest AU
 * of the area and the fastest of the others.
 */
static enum analyze_confidence fat_speed_conf(const struct auto_fat *f)
{
	double in_min = 1e9, out_max = 0;
	unsigned int i;

	for (i = 0; i < f->naus; i++) {
		int in = f->found && i >= f->start && i < f->start + f->count;
		double l = f->lin_ratio[i], r = f->rnd_ratio[i];

		if (in && (f->linear ? l : r) < in_min)
			in_min = f->linear ? l : r;
		if (in && f->linear && f->random && r < in_min)
			in_min = r;
		if (!in && (l > out_max || r > out_max))
			out_max = l > r ? l : r;
	}
	if (f->found && (f->linear || f->random))
		return in_min > 1.3 && in_min - out_max > 0.2 ?
			ANALYZE_CONF_HIGH : in_min - out_max > 0.1 ?
			ANALYZE_CONF_MEDIUM : ANALYZE_CONF_LOW;
	if (f->found)
		return ANALYZE_CONF_NONE;
	return out_max < 1.15 ? ANALYZE_CONF_HIGH :
	       out_max < 1.2 ? ANALYZE_CONF_MEDIUM : ANALYZE_CONF_LOW;
}

/*
 * How far AU i's copies lie from paying none, in units of the bound
 * fat_no_copy() sets (half the least copy a far AU paid in one write):
 * an area's AU lies well below 1, an ordinary one's at 2 or more.
 */
static double fat_copy_margin(const struct auto_fat *f, unsigned int i)
{
	return f->ref_gc_ns > 0 ? f->copy_ns[i] / (f->ref_gc_ns / 2) : 0;
}

/*
 * Confidence from the visits: an ordinary AU's pays a copy as the far
 * AUs' do, an area's pays none.
 */
static enum analyze_confidence fat_copy_conf(const struct auto_fat *f)
{
	double in_max = 0, out_min = 1e9;
	unsigned int i;

	for (i = 0; i < f->naus; i++) {
		int in = f->found && i >= f->start && i < f->start + f->count;
		double m = fat_copy_margin(f, i);

		if (in && m > in_max)
			in_max = m;
		if (!in && (!fat_no_copy(f, i) || f->found) && m < out_min)
			out_min = m;
	}
	if (f->found && f->nocopy)
		return in_max < 0.25 && out_min > 1.5 ? ANALYZE_CONF_HIGH :
		       in_max < 0.5 && out_min > 1 ? ANALYZE_CONF_MEDIUM :
		       ANALYZE_CONF_LOW;
	if (f->found)
		return ANALYZE_CONF_NONE;
	return out_min > 1.5 ? ANALYZE_CONF_HIGH : ANALYZE_CONF_MEDIUM;
}

/* What AU i gained against the far AUs, in order or out of order. */
static double fat_gain(const struct auto_fat *f, unsigned int i)
{
	return f->lin_ratio[i] > f->rnd_ratio[i] ? f->lin_ratio[i] :
	       f->rnd_ratio[i];
}

/*
 * With no area found: the first run of AUs faster than the far ones by
 * FAT_FAINT, under AUTO_FAT_FAST, that ends among the AUs probed and
 * stands clear of the others.  An area whose gain the probe's small
 * writes show only in part looks so (on a card of 4 KiB sectors, an
 * area faster at programming: the access time of one 4 KiB write hides
 * most of it), and so may none: the writes cannot tell which.
 */
static void fat_faint(struct auto_fat *f)
{
	unsigned int i, start = 0, n = 0;
	double in_min = 1e9, out_max = 0;

	while (start < f->naus && fat_gain(f, start) <= FAT_FAINT)
		start++;
	for (; start + n < f->naus && fat_gain(f, start + n) > FAT_FAINT; n++)
		if (fat_gain(f, start + n) < in_min)
			in_min = fat_gain(f, start + n);
	if (!n || start + n == f->naus)
		return;
	for (i = 0; i < f->naus; i++)
		if ((i < start || i >= start + n) && fat_gain(f, i) > out_max)
			out_max = fat_gain(f, i);
	if (in_min - out_max < FAT_CLEAR)
		return;
	f->faint_start = start;
	f->faint_count = n;
	f->faint_ratio = in_min;
}

/* Nothing found yet (and nothing, by a probe that did not run). */
static void fat_clear(struct auto_fat *f)
{
	f->found = f->start = f->count = 0;
	f->linear = f->random = f->nocopy = 0;
	f->slot_unseen = f->speed_hidden = 0;
	f->faint_start = f->faint_count = 0;
	f->faint_ratio = 0;
	f->confidence = ANALYZE_CONF_NONE;
	memset(f->lin_ratio, 0, sizeof(f->lin_ratio));
	memset(f->rnd_ratio, 0, sizeof(f->rnd_ratio));
	memset(f->copy_ratio, 0, sizeof(f->copy_ratio));
}

/*
 * The first run of AUs faster than those far from the start, and which
 * writes showed it.  An area that shows is as sure as the evidence that
 * showed it (the better of the two); none is as sure as the less sure,
 * and capped where the probe could not have seen an area: at low when
 * writes out of order paid no copy anywhere (an area that only spares
 * it, the one -f --random shows on a card that keeps fewer AUs in random
 * mode than it writes, looks like any other: the main form is not ruled
 * out), at medium when each paid one (only an area faster at programming
 * them and no more is lost in the copy's time: -f --random would not
 * show it either), and at low where a run of AUs was faster, if not
 * enough to be one (fat_faint()).
 */
void auto_fat_decide(struct auto_fat *f)
{
	enum analyze_confidence s, v;
	unsigned int i;

	fat_clear(f);
	if (!f->measured)
		return;
	for (i = 0; i < f->naus; i++)
		auto_fat_ratios(f, i);
	fat_area(f);
	f->slot_unseen = !f->refs_paid &&
			 f->ref_rnd_ns <= AUTO_FAT_FAST * f->ref_lin_ns;
	f->speed_hidden = f->ref_rnd_ns > FAT_HIDDEN * f->ref_lin_ns;
	s = fat_speed_conf(f);
	v = fat_copy_conf(f);
	if (f->found && f->start + f->count == f->naus)
		f->confidence = ANALYZE_CONF_LOW;	/* no end seen */
	else if (f->found)
		f->confidence = s > v ? s : v;
	else
		f->confidence = s < v ? s : v;
	if (!f->found && f->speed_hidden &&
	    f->confidence > ANALYZE_CONF_MEDIUM)
		f->confidence = ANALYZE_CONF_MEDIUM;
	if (!f->found && f->slot_unseen && f->confidence > ANALYZE_CONF_LOW)
		f->confidence = ANALYZE_CONF_LOW;
	if (!f->found)
		fat_faint(f);
	if (f->faint_count && f->confidence > ANALYZE_CONF_LOW)
		f->confidence = ANALYZE_CONF_LOW;
}

enum auto_fat_by auto_fat_shown_by(const struct auto_fat *f)
{
	if (!f->found)
		return AUTO_FAT_BY_NONE;
	/* an area that spares the copy shows in -f --random: out of order */
	return f->linear && (f->random || f->nocopy) ? AUTO_FAT_BY_BOTH :
	       f->linear ? AUTO_FAT_BY_LINEAR : AUTO_FAT_BY_RANDOM;
}
