// SPDX-License-Identifier: GPL-2.0-only
/*
 * --auto's erase size from writes, when the align tables are unsure.
 * Once the card's open AUs are all taken (the warm-up walk saw two alike
 * writes pay for a garbage collection), a write into an AU not open costs
 * a collection and one into the AU just written does not.  From an anchor
 * that is a boundary for every candidate size, single small writes at
 * anchor + size - 2 * chunk and anchor + size, size ascending, meet the
 * first AU boundary at anchor + erase size.  The boundary of each anchor
 * goes to the record; verdict/erase.c judges them.
 */
#include <errno.h>
#include <string.h>

#include "c.h"
#include "probe.h"

#define SEARCH_SLOW 4.0		/* slower than a write into an open AU by
				   this: the write paid for a collection */
#define SEARCH_GC_PART 0.3	/* and at least this part of the first
				   collection seen */
#define SEARCH_FILL 8.0		/* the warm-up's collections: slower than
				   this many open-AU writes */
#define SEARCH_ALIKE 1.5	/* and within this factor of each other */
#define SEARCH_DATA_GC 16.0	/* the data's copy: this many open-AU
				   writes */
#define SEARCH_CONFIRM (1ULL << 20)	/* a boundary below this is
					   confirmed by the writes up to
					   it (and twice the boundary) */

/* One write of the search; *slow when it paid for a collection. */
static int search_write(struct device *dev, struct auto_erase_search *s,
			uint64_t off, int *slow)
{
	double t;
	int ret = auto_write_one(dev, off, s->chunk_byte, &t);

	if (ret)
		return ret;
	s->writes++;
	s->last_ns = t;
	/* a pause of a few ms is not a collection of a whole AU */
	*slow = s->fast_ns > 0 && t > SEARCH_SLOW * s->fast_ns &&
		t > SEARCH_GC_PART * s->gc_ns;
	if (*slow && t > s->slow_ns)
		s->slow_ns = t;
	if (!*slow && (s->fast_ns <= 0 || t < s->fast_ns))
		s->fast_ns = t;
	return 0;
}

/*
 * Small writes further and further apart until one pays for a garbage
 * collection: from then on the card's open AUs are all taken, and every
 * write into an AU not open closes one.
 */
static int search_warmup(struct device *dev, const struct search_layout *l,
			 struct auto_erase_search *s, double *first)
{
	int slow;

	/*
	 * Two writes each slower than SEARCH_FILL open-AU writes and alike
	 * (within SEARCH_ALIKE): collections of whole AUs cost much the
	 * same; pauses of a few ms are neither as long nor alike.  It goes
	 * on where it stopped when an anchor shows the AUs were not full.
	 */
	while (s->warmup < AUTO_ERASE_WARMUP && !s->filled) {
		int ret = search_write(dev, s, s->warm_pos, &slow);
		double t;

		if (ret)
			return ret;
		s->warm_pos += auto_warm_step(l, s->warmup++);
		t = s->last_ns;
		if (!slow || t < SEARCH_FILL * s->fast_ns)
			continue;
		if (*first && t < SEARCH_ALIKE * *first &&
		    *first < SEARCH_ALIKE * t)
			s->filled = 1;
		else
			*first = t;
	}
	s->gc_ns = *first;
	return 0;
}

/*
 * The boundary b just seen from anchor a, below SEARCH_CONFIRM,
 * confirmed: the writes of the sizes above it up to SEARCH_CONFIRM (at
 * least 2 b), each slow exactly when it is the first into an AU of b
 * (a + 2 b opens one more).  A host's delays (another program's I/O, a
 * loop device's page cache) make single writes slow at random: one at
 * a + b alone is no boundary.  A small b has few fast writes below it
 * to tell it from a delay, so it needs more AUs to show it; from
 * SEARCH_CONFIRM up the fast writes below it are enough (a dozen fast
 * writes and a slow one in a row: about 1 in 500 per anchor at 30 %
 * of writes delayed, and two anchors must agree), and a card pays no
 * more collections for them.  *ok 0 when a write went against it.
 */
static int search_confirm(struct device *dev, const struct search_layout *l,
			  uint64_t a, uint64_t b, size_t i,
			  struct auto_erase_search *s, int *ok)
{
	uint64_t end = max(2 * b, (uint64_t)SEARCH_CONFIRM);
	uint64_t au = 2;	/* AUs of b written from a: [0, au) */
	int ret, slow;

	*ok = 1;
	for (i++; i < l->ncand && l->cand[i] <= end; i++) {
		const uint64_t off[2] = { l->cand[i] - 2 * l->chunk,
					  l->cand[i] };
		unsigned int k;

		for (k = 0; k < 2; k++) {
			int first = off[k] / b >= au;

			ret = search_write(dev, s, a + off[k], &slow);
			if (ret)
				return ret;
			if (slow != first) {
				/* a new AU that cost nothing: not full */
				if (first)
					s->filled = 0;
				*ok = 0;
				return 0;
			}
			if (first)
				au = off[k] / b + 1;
		}
	}
	return 0;
}

/*
 * From anchor a (a boundary for every size), the first boundary: the
 * smallest size whose write at a + size pays for a collection while the
 * one just below it does not, and the sizes above it up to twice it
 * pay where it says they must.  0 when none shows, or one shows where
 * no size looked for has a boundary.
 */
static int search_anchor(struct device *dev, const struct search_layout *l,
			 uint64_t a, struct auto_erase_search *s,
			 uint64_t *boundary)
{
	int ret, slow;
	size_t i;

	*boundary = 0;
	ret = search_write(dev, s, a, &slow);
	if (ret || !slow) {
		s->filled = 0;	/* a new AU that cost nothing: not full */
		return ret;
	}
	/*
	 * Below each size, the chunk before its last: the last would close
	 * the AU on a card that closes an AU written to its end.
	 */
	for (i = 0; i < l->ncand; i++) {
		ret = search_write(dev, s, a + l->cand[i] - 2 * l->chunk,
				   &slow);
		if (ret || slow)
			return ret;
		ret = search_write(dev, s, a + l->cand[i], &slow);
		if (ret)
			return ret;
		if (slow) {
			int ok = 1;

			if (l->cand[i] < SEARCH_CONFIRM)
				ret = search_confirm(dev, l, a, l->cand[i], i,
						     s, &ok);
			if (!ret && ok)
				*boundary = l->cand[i];
			return ret;
		}
	}
	return 0;
}

/*
 * A card whose AUs hold no data (new, or discarded) may copy nothing when
 * it closes one: no write of the warm-up walk pays for a collection,
 * however many AUs it opens.  The classic -O sees the collapse on such a
 * card because it writes its AUs whole first.  So, once: data after each
 * warm-up position (from the 1 MiB boundary above it, enough that
 * copying it costs SEARCH_DATA_GC open-AU writes, as the first data write
 * shows), and the walk again, each write at the end of that data: it
 * opens the AU again, now holding data, and closing it copies the data.
 */
static int search_data(struct device *dev, const struct search_layout *l,
		       struct auto_erase_search *s)
{
	uint64_t pos = l->warm_start + 2 * l->chunk, d = SEARCH_DATA_MAX;
	double t;
	unsigned int i;
	int ret = 0;

	for (i = 0; i < AUTO_ERASE_WARMUP && !ret; i++) {
		ret = auto_write_one(dev, pos, d, &t);
		s->data_writes++;
		pos += auto_warm_step(l, i);
		if (i || s->fast_ns <= 0 || t <= SEARCH_DATA_GC * s->fast_ns)
			continue;
		/* the first: a copy of d costs about as much */
		d = (uint64_t)(d * SEARCH_DATA_GC * s->fast_ns / t);
		d = auto_round_up(d < SEARCH_MIN ? SEARCH_MIN : d, l->chunk);
	}
	s->data_byte = d;
	s->warmup = 0;
	s->warm_pos = l->warm_start + d;
	return ret;
}

static int erase_search(struct device *dev, struct auto_erase_search *s)
{
	struct search_layout l;
	double first;
	unsigned int j;
	int ret;

	memset(s, 0, sizeof(*s));
	ret = auto_search_layout(dev->size_byte, dev->logical_block_size, &l);
	if (ret)
		return ret;
	s->chunk_byte = l.chunk;
	s->top_byte = l.top;
	s->measured = 1;
	s->warm_pos = l.warm_start;
	for (j = 0; j < AUTO_ERASE_ANCHORS; j++) {
		/* a third anchor only when the first two disagree */
		if (j == 2 && s->boundary_byte[0] &&
		    s->boundary_byte[0] == s->boundary_byte[1])
			break;
		if (!s->filled) {
			first = 0;
			ret = search_warmup(dev, &l, s, &first);
			if (!ret && !s->filled && !s->data_byte) {
				ret = search_data(dev, &l, s);
				first = 0;
				ret = ret ? ret : search_warmup(dev, &l, s,
								&first);
			}
			if (ret || !s->filled)
				return ret;
		}
		s->anchor_byte[j] = l.anchor[j];
		ret = search_anchor(dev, &l, l.anchor[j], s,
				    &s->boundary_byte[j]);
		if (ret)
			return ret;
		s->nanchors = j + 1;
	}
	auto_erase_decide(s);
	return 0;
}

/* The erase search from writes, when the reads were not sure. */
int auto_probe_erase(struct device *dev, const struct auto_hooks *h,
		     struct auto_result *r)
{
	struct bench_range ranges[AUTO_MAX_RANGES];
	uint64_t t1 = dev_now_ns(dev);
	int n, ret;

	n = auto_search_ranges(dev->size_byte, dev->logical_block_size,
			       ranges, AUTO_MAX_RANGES);
	if (n < 0)
		return 0;	/* too small a device: the reads decide */
	ret = auto_announce_past(h, r, ranges, n, 1);
	if (ret)
		return ret;
	auto_say(h, "auto: %s\n", "erase size from writes");
	ret = erase_search(dev, &r->erase_writes);
	r->step_ns[AUTO_STEP_ERASE_WRITES] += dev_now_ns(dev) - t1;
	if (!ret)
		auto_erase_combine(r);
	return ret;
}
