// SPDX-License-Identifier: GPL-2.0-only
/*
 * --auto's erase size from writes judged: the boundary the anchors agree
 * on, combined with the reads' erase size; and whether the write steps
 * can be placed at all.  Pure.
 */
#include "auto.h"

/*
 * The size two anchors agree on with none against it (high), or two
 * against one (medium).  An anchor that saw no boundary (its own write
 * into a new AU cost nothing: the open AUs were not full yet) is not
 * against it.
 */
void auto_erase_decide(struct auto_erase_search *s)
{
	unsigned int i, j, agree, against;

	s->erase_byte = 0;
	s->confidence = ANALYZE_CONF_NONE;
	for (i = 0; i < s->nanchors; i++) {
		uint64_t b = s->boundary_byte[i];

		if (!b)
			continue;
		for (j = 0, agree = 0, against = 0; j < s->nanchors; j++) {
			agree += s->boundary_byte[j] == b;
			against += s->boundary_byte[j] &&
				   s->boundary_byte[j] != b;
		}
		if (agree >= 2) {
			s->erase_byte = b;
			s->confidence = against ? ANALYZE_CONF_MEDIUM :
				ANALYZE_CONF_HIGH;
			return;
		}
	}
}

/*
 * Take the erase size from writes when the reads were not sure of it:
 * confirmed when both agree, replaced when the writes are surer.
 */
void auto_erase_combine(struct auto_result *r)
{
	const struct auto_erase_search *s = &r->erase_writes;
	struct analyze_step *e = &r->align.erase;

	r->erase_reads = *e;
	if (!s->erase_byte)
		return;
	if (s->erase_byte == e->size_byte) {
		r->erase_from = AUTO_ERASE_CONFIRMED;
		if (s->confidence > e->confidence)
			e->confidence = s->confidence;
		return;
	}
	if (s->confidence <= e->confidence)
		return;
	r->erase_from = AUTO_ERASE_FROM_WRITES;
	e->size_byte = s->erase_byte;
	e->confidence = s->confidence;
}

/*
 * Why the write steps cannot run, and what would settle it, when the
 * erase size is not known well enough to place their writes.  With one
 * read at low confidence, they run on it (erase_fallback): their answers
 * are low, but said.
 */
int auto_erase_premise(struct auto_result *r)
{
	const struct analyze_step *e = &r->align.erase;

	if (e->size_byte && e->confidence >= ANALYZE_CONF_MEDIUM)
		return 1;
	if (e->size_byte && e->confidence == ANALYZE_CONF_LOW) {
		r->erase_fallback = 1;
		return 1;
	}
	r->skip_reason = r->erase_writes.measured ?
		"no erase size to place their writes, from reads nor from writes" :
		"no erase size to place their writes, and the device is too small to find it by writing";
	r->skip_settle = r->noise.level == AUTO_NOISE_HIGH ?
		"the timings were noisy: run again on a quiet host (close other programs)" :
		"read the erase size in the classic align table (flashbench -a DEVICE), then measure with it (flashbench -O --erasesize=SIZE DEVICE, flashbench -f --erasesize=SIZE DEVICE)";
	return 0;
}
