// SPDX-License-Identifier: GPL-2.0-only
/*
 * --auto --destructive's last step: the class check (-L's measuring and
 * judging, modes/class.c) in AUs of the size the card states, else the
 * one found, past the FAT area found.  Its one range is announced like every write step's,
 * through the hooks.
 */
#include <errno.h>
#include <stdlib.h>

#include "probe.h"

/*
 * Past the FAT area the run found, from offset in units of unit bytes: a
 * card writes it faster than the rest (it serves the file system's
 * small writes), and a class is the speed where a recording's data go
 * (today's sweep: C10 met at 15.6 MB/s in the FAT area of a card that
 * writes 8 natively, past its cache).
 */
static uint64_t past_fat(const struct auto_result *r, uint64_t offset,
			 uint64_t unit)
{
	uint64_t end;

	if (!r->fat.found || !r->align.erase.size_byte)
		return offset;
	end = (uint64_t)(r->fat.start + r->fat.count) *
	      r->align.erase.size_byte;
	return end <= offset ? offset : (end + unit - 1) / unit * unit;
}

void auto_class_place(const struct bench_opts *o, const struct card_info *ci,
		      struct auto_result *r, struct class_plan *p)
{
	class_plan(p, o, ci && ci->au_byte ? ci->au_byte :
			 r->align.erase.size_byte);
	p->offset_byte = past_fat(r, p->offset_byte, p->unit_byte);
	p->past_cache = 0;	/* the run's own step, and its top-up */
	r->class_start_byte = p->offset_byte;
	r->class_end_byte = p->offset_byte + p->units * p->unit_byte +
			    p->span_byte;
}

int auto_probe_class(struct device *dev, const struct bench_opts *o,
		     const struct card_info *ci, const struct auto_hooks *h,
		     struct auto_result *r)
{
	struct bench_range rg;
	struct class_plan p;
	uint64_t t0;
	int ret;

	auto_class_place(o, ci, r, &p);
	if (r->class_end_byte > dev->size_byte) {
		r->class_skipped = 1;
		return 0;
	}
	r->class = calloc(1, sizeof(*r->class));
	if (!r->class)
		return -ENOMEM;
	if (ci)
		r->class_claims = ci->claims;
	rg.start_byte = r->class_start_byte;
	rg.end_byte = r->class_end_byte;
	ret = auto_announce_past(h, r, &rg, 1, 1);
	t0 = dev_now_ns(dev);
	/*
	 * a cache larger than the cap that the capacity check's writes
	 * filled: found here, and the class measured past it
	 */
	if (!ret)
		ret = auto_cache_recheck(dev, h, r, CACHE_AT_CLASS);
	if (ret >= 0)	/* measured past a cache the run found */
		ret = auto_cache_topup(dev, r);
	/* the write cache's share of the run's device time */
	r->device_ns += dev_now_ns(dev) - t0;
	if (!ret) {
		/* the progress line and -v name the step that runs now */
		auto_say(h, "auto: %s\n", "class check (writes)");
		ret = class_measure(dev, &p, r->class);
	}
	r->class->cache = r->cache;	/* where it measured */
	class_judge(r->class, ci ? &r->class_claims : NULL);
	r->step_ns[AUTO_STEP_CLASS] = r->class->device_ns;
	if (!r->class->n) {	/* no class judged: nothing to show */
		free(r->class);
		r->class = NULL;
	}
	return ret;
}
