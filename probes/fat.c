// SPDX-License-Identifier: GPL-2.0-only
/*
 * --auto's FAT area probe: small writes in order (as -f) and out of order
 * (as -f --random) at the start of each AU from the first, against the
 * same in AUs far from the start, until the speed has settled.  The times
 * of each AU go to the record; verdict/fat.c finds the area in them.
 */
#include <string.h>

#include "probe.h"
#include "stats.h"

#define FAT_AGAIN 3		/* small writes out of order after the fill */
#define FAT_LATE 1.2		/* a write this much slower than its kind:
				   late (a busy host), not a copy */
#define FAT_TRIES 4		/* visits of an AU again, at most, for one
				   with no write late */

/*
 * What an AU's visit writes in order before it goes back a second time:
 * enough that a card which merges or copies what the AU holds pays for it
 * whatever its form (on a new card a merge copies only what the AU held
 * when it was opened: the first write out of order reopens it full of
 * this).  A quarter of the AU, at most 512 KiB (a copy of it costs
 * several of the slowest small writes).
 */
static uint64_t fat_fill(uint64_t erase)
{
	uint64_t w = erase / 4;

	return w < AUTO_FAT_SPAN ? w : AUTO_FAT_SPAN;
}

/*
 * Was one of the n writes t late: FAT_LATE times its kind's time base or
 * more, yet under a copy's time (AUTO_FAT_GC times the small write typ)?
 */
static int fat_late(const double *t, size_t n, double base, double typ)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (t[i] > FAT_LATE * base && t[i] < AUTO_FAT_GC * typ)
			return 1;
	return 0;
}

/*
 * One AU's visit, as -f and -f --random write an AU: AUTO_FAT_WRITES small
 * writes in order from the AU's start, then as many again out of order
 * among them; then the AU written in order up to fat_fill(), and three
 * small writes out of order once more.  The first write of each kind may
 * open the AU or turn it to random mode and pay for closing another (a
 * garbage collection): it is not kept in lin and rnd, which get the
 * others' times; *nrnd how many random ones were kept (a card that
 * merges on every out-of-order write is clearly ordinary after two of
 * them).  *copy gets what the small writes cost beyond what each costs
 * in the AU anyway, *typ the median small write in order, and *gc the
 * least any write paid beyond it, of those that took AUTO_FAT_GC times as long
 * (a copy; 0 none did).  *late (may be NULL) is set where a write took
 * longer than its kind does, yet not a copy's time: a host late with it
 * (see auto_probe_fat_again()).
 */
static int fat_au(struct device *dev, uint64_t off, uint64_t c, uint64_t fill,
		  double *lin, double *rnd, size_t *nrnd, double *copy,
		  double *typ, double *gc, int *late)
{
	/* each below the last end and not at the AU's start: out of order */
	static const unsigned int order[AUTO_FAT_WRITES] = { 3, 1, 4, 2, 5, 3 };
	/* after the fill: each merges on a card that merges (4 reopens) */
	static const unsigned int again[FAT_AGAIN] = { 4, 2, 1 };
	double t, first = 0, ooo[AUTO_FAT_WRITES + FAT_AGAIN], floor;
	unsigned int i, n = 0;
	int ret;

	for (i = 0; i < AUTO_FAT_WRITES; i++) {
		ret = auto_write_one(dev, off + i * c, c, &t);
		if (ret)
			return ret;
		if (i)
			lin[i - 1] = t;
		else
			first = t;
	}
	*typ = stats_median(lin, AUTO_FAT_WRITES - 1);
	*nrnd = 0;
	for (i = 0; i < AUTO_FAT_WRITES; i++) {
		ret = auto_write_one(dev, off + order[i] * c, c, &t);
		if (ret)
			return ret;
		ooo[n++] = t;
		if (!i)
			continue;
		rnd[(*nrnd)++] = t;
		if (*nrnd == 2 && rnd[0] > 8 * *typ && rnd[1] > 8 * *typ)
			break;
	}
	if (fill > AUTO_FAT_WRITES * c) {
		ret = auto_write_one(dev, off + AUTO_FAT_WRITES * c,
				     fill - AUTO_FAT_WRITES * c, &t);
		if (ret)
			return ret;
	}
	for (i = 0; i < FAT_AGAIN; i++) {
		ret = auto_write_one(dev, off + again[i] * c, c, &ooo[n++]);
		if (ret)
			return ret;
	}
	/*
	 * Beyond what each write costs in the AU anyway: the writes in order
	 * their median, those out of order their least (the AU's own rate
	 * and cost per write out of order, whatever they are)
	 */
	floor = ooo[0];
	for (i = 1; i < n; i++)
		floor = ooo[i] < floor ? ooo[i] : floor;
	*copy = first > *typ ? first - *typ : 0;
	*gc = first > AUTO_FAT_GC * *typ ? first - *typ : 0;
	for (i = 0; i < AUTO_FAT_WRITES - 1; i++)
		*copy += lin[i] > *typ ? lin[i] - *typ : 0;
	for (i = 0; i < n; i++) {
		*copy += ooo[i] - floor;
		if (ooo[i] > AUTO_FAT_GC * *typ &&
		    (!*gc || ooo[i] - *typ < *gc))
			*gc = ooo[i] - *typ;
	}
	if (late)
		*late = fat_late(lin, AUTO_FAT_WRITES - 1, *typ, *typ) ||
			fat_late(ooo, n, floor, *typ);
	return 0;
}

static uint64_t fat_chunk(const struct device *dev)
{
	return dev->logical_block_size > 512 ? dev->logical_block_size : 512;
}

/*
 * Put probe AUs (those of the open-AU searches, from the last down) in
 * random mode until one pays a copy: then the card keeps no more AUs out
 * of order, as on -f --random's whole AUs, and from then on each ordinary
 * AU that takes writes out of order pays a copy when it goes to random
 * mode or when it is opened (the open AUs all random ones).  Each probe
 * AU gets two small writes in order at its start, then one below them;
 * the second write, right after the first, is the small write to compare
 * with.  A card whose random-mode AUs cost nothing as many as these
 * (auto_probe_max_nr()) never pays: the caller says so.
 */
static int fat_prime(struct device *dev, uint64_t erase, struct auto_fat *f)
{
	const unsigned int nr = auto_probe_max_nr(dev->size_byte, erase);
	const uint64_t base = auto_probe_base(erase), c = f->chunk_byte;
	const uint64_t spacing = auto_probe_spacing(dev->size_byte, erase);
	double t[3], small = 0;
	unsigned int k;

	for (k = 0; k < nr && !f->prime_paid; k++) {
		uint64_t off = base + (uint64_t)(nr - 1 - k) * spacing * erase;
		static const unsigned int pos[3] = { 1, 2, 0 };
		unsigned int i;

		for (i = 0; i < 3; i++) {
			int ret = auto_write_one(dev, off + pos[i] * c, c,
						 &t[i]);

			if (ret)
				return ret;
		}
		if (!small || t[1] < small)
			small = t[1];
		f->primed = k + 1;
		f->prime_paid = t[0] > AUTO_FAT_GC * small ||
				t[2] > AUTO_FAT_GC * small;
	}
	return 0;
}

/* Measure the AUs far from the start: what an ordinary AU does. */
static int fat_refs(struct device *dev, uint64_t erase, struct auto_fat *f)
{
	double lin[AUTO_FAT_WRITES * AUTO_FAT_REFS];
	double rnd[AUTO_FAT_WRITES * AUTO_FAT_REFS];
	size_t nl = 0, nr = 0, k;
	unsigned int j;
	double copy, typ, gc;

	f->refs_paid = 1;
	for (j = 0; j < AUTO_FAT_REFS; j++) {
		int ret;

		f->ref_au[j] = auto_fat_ref_au(dev->size_byte, erase, j);
		ret = fat_au(dev, f->ref_au[j] * erase, f->chunk_byte,
			     fat_fill(erase), lin + nl, rnd + nr, &k, &copy,
			     &typ, &gc, NULL);
		if (ret)
			return ret;
		nl += AUTO_FAT_WRITES - 1;
		nr += k;
		f->refs_paid &= gc > 0;
		if (!j || gc < f->ref_gc_ns)
			f->ref_gc_ns = gc;
		if (!j || copy < f->ref_copy_ns)
			f->ref_copy_ns = copy;
	}
	f->ref_lin_ns = stats_median(lin, nl);
	f->ref_rnd_ns = stats_median(rnd, nr);
	return 0;
}

/*
 * The FAT probe: with the card's random-mode AUs all taken (fat_prime),
 * small writes in order and out of order at the start of each AU from the
 * first, against the same in AUs far from the start, until the speed has
 * settled: at least auto_fat_min_scan() AUs, and two ordinary ones after the
 * last fast one.
 */
int auto_probe_fat(struct device *dev, uint64_t erase, struct auto_fat *f)
{
	unsigned int i, min = auto_fat_min_scan(dev->size_byte, erase);
	unsigned int max = auto_fat_max_scan(dev->size_byte, erase), last = 0;
	int ret, seen = 0;
	double typ, gc;

	f->chunk_byte = fat_chunk(dev);
	ret = fat_prime(dev, erase, f);
	if (!ret)
		ret = fat_refs(dev, erase, f);
	if (ret)
		return ret;
	for (i = 0; i < max && (i < min || (seen && i < last + 3)); i++) {
		double lin[AUTO_FAT_WRITES], rnd[AUTO_FAT_WRITES];
		size_t nr;

		ret = fat_au(dev, i * erase, f->chunk_byte, fat_fill(erase),
			     lin, rnd, &nr, &f->copy_ns[i], &typ, &gc, NULL);
		if (ret)
			return ret;
		f->lin_ns[i] = stats_median(lin, AUTO_FAT_WRITES - 1);
		f->rnd_ns[i] = stats_median(rnd, nr);
		f->typ_ns[i] = typ;
		auto_fat_ratios(f, i);
		f->naus = i + 1;
		if (auto_fat_is_fast(f, i)) {
			seen = 1;
			last = i;
		}
	}
	f->measured = 1;
	auto_fat_decide(f);
	return 0;
}

/*
 * The FAT area found, visited again: each AU of the area and the one
 * after it, each time after the probe AUs were put in random mode once
 * more (so that the AU visited before is closed again), until a visit
 * with no write late (at most FAT_TRIES); each AU keeps the slowest of
 * its visits.  On a card with a write cache, any idle before a write (a
 * host late with it) lets the cache fold a little and take the next
 * small writes, copy and all, so that an ordinary AU's visit looks like
 * a FAT AU's; the late write shows it.  The caller fills the cache first.
 */
int auto_probe_fat_again(struct device *dev, uint64_t erase,
			 struct auto_fat *f)
{
	unsigned int i, k, end = f->start + f->count + 1;
	int ret = 0, late;

	if (!f->measured || !f->found)
		return 0;
	for (i = 0; !ret && i < end && i < f->naus; i++) {
		for (k = 0, late = 1; !ret && late && k < FAT_TRIES; k++) {
			double lin[AUTO_FAT_WRITES], rnd[AUTO_FAT_WRITES];
			double copy, typ, gc, l, r;
			size_t nr;

			f->prime_paid = 0;
			ret = fat_prime(dev, erase, f);
			if (!ret)
				ret = fat_au(dev, i * erase, f->chunk_byte,
					     fat_fill(erase), lin, rnd, &nr,
					     &copy, &typ, &gc, &late);
			if (ret)
				break;
			l = stats_median(lin, AUTO_FAT_WRITES - 1);
			r = stats_median(rnd, nr);
			f->lin_ns[i] = l > f->lin_ns[i] ? l : f->lin_ns[i];
			f->rnd_ns[i] = r > f->rnd_ns[i] ? r : f->rnd_ns[i];
			f->copy_ns[i] = copy > f->copy_ns[i] ? copy :
							    f->copy_ns[i];
			f->typ_ns[i] = typ > f->typ_ns[i] ? typ : f->typ_ns[i];
		}
	}
	if (!ret)
		auto_fat_decide(f);
	return ret;
}
