// SPDX-License-Identifier: GPL-2.0-only
/*
 * The progress line's plan of a test: the I/O calls it will make, as
 * segments of calls of one length, each named by the mode's step (see
 * progplan.h).  Only a mode knows its calls, so the plan is worked out
 * here and handed down to the line (output/progress.c) as data.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "capest.h"
#include "class.h"
#include "progplan.h"
#include "progs.h"
#include "vm.h"
#include "wcache.h"
#include "writecache.h"

/* A growing list of segments. */
struct seg_list {
	struct progress_seg *s;
	size_t n, cap;
	int err;		/* -ENOMEM once an append failed */
};

/* Add n_io calls of len bytes, merged into the last segment if alike. */
static void seg_add(struct seg_list *l, uint64_t n_io, uint64_t len,
		    const char *label)
{
	struct progress_seg *s;

	if (l->n && l->s[l->n - 1].io_byte == len &&
	    !strcmp(l->s[l->n - 1].label, label)) {
		l->s[l->n - 1].n_io += n_io;
		return;
	}
	if (l->n == l->cap) {
		size_t cap = l->cap * 2 + 16;

		s = realloc(l->s, cap * sizeof(*s));
		if (!s) {
			l->err = -ENOMEM;
			return;
		}
		l->s = s;
		l->cap = cap;
	}
	s = &l->s[l->n++];
	s->n_io = n_io;
	s->io_byte = len;
	snprintf(s->label, sizeof(s->label), "%s", label);
}

/*
 * A device that does nothing but note every call, in the step the mode
 * names it (the cells of the dry run so far tell which row it is in).
 */
struct rec_dev {
	struct device dev;	/* first: the device layer casts to it */
	struct seg_list *list;
	const struct progs_mode *pm;	/* the mode run */
	const struct bench_opts *o;
	const struct vm_table *tab;	/* its cells so far */
	uint64_t n_io;		/* calls so far */
};

static void rec_note(struct device *dev, uint64_t len)
{
	struct rec_dev *r = (struct rec_dev *)dev;
	char label[sizeof(((struct progress_seg *)0)->label)];

	progs_step(label, sizeof(label), r->pm, r->o, r->tab, r->n_io++, len);
	seg_add(r->list, 1, len, label);
}

static int rec_read(struct device *dev, void *buf, size_t len, off_t off)
{
	(void)buf;
	(void)off;
	rec_note(dev, len);
	return 0;
}

static int rec_write(struct device *dev, const void *buf, size_t len,
		     off_t off)
{
	(void)buf;
	(void)off;
	rec_note(dev, len);
	return 0;
}

static int rec_discard(struct device *dev, off_t off, uint64_t len)
{
	(void)off;
	rec_note(dev, len);
	return 0;
}

static uint64_t rec_now_ns(struct device *dev)
{
	(void)dev;
	return 0;
}

static void rec_destroy(struct device *dev)
{
	(void)dev;	/* lives on the stack */
}

static const struct dev_ops rec_ops = {
	.read = rec_read,
	.write = rec_write,
	.discard = rec_discard,
	.now_ns = rec_now_ns,
	.destroy = rec_destroy,
};

/*
 * The calls of a test: its program run on a recording device, which is
 * all a test's I/O plan is.
 */
static int plan_calls(struct seg_list *l, const struct progs_mode *pm,
		      const struct bench_opts *o, const struct device *dev)
{
	struct bench_opts quiet = *o;
	struct vm_table tab = { 0 };
	struct rec_dev rec = { .list = l, .pm = pm, .o = &quiet,
			       .tab = &tab };
	int ret;

	rec.dev.ops = &rec_ops;
	rec.dev.path = "dry run";
	rec.dev.size_byte = dev->size_byte;
	rec.dev.logical_block_size = dev->logical_block_size;
	quiet.verbose = 0;
	quiet.log = NULL;
	ret = progs_run(&rec.dev, pm, &quiet, NULL, &tab, NULL, 0);
	vm_table_free(&tab);
	return ret ? ret : l->err;
}

/*
 * --capacity's steps on a genuine card (the most it does): a fake ends
 * sooner, or, for a limbo fake's later rounds, past them at 100%.
 */
static int plan_capacity(struct seg_list *l, const struct bench_opts *o,
			 const struct device *dev)
{
	struct capacity_step st[CAPACITY_STEPS];
	size_t i, n = capacity_plan_steps(dev->size_byte, o->flush_byte, st);

	for (i = 0; i < n; i++)
		seg_add(l, st[i].n_io, st[i].io_byte, st[i].label);
	return n ? 0 : -EINVAL;
}

/*
 * The calls of --class, no VM program: its writes past a write cache
 * (the cap: a drop ends them early), its units in both recording
 * units, then 1000 random reads and writes at each queue depth (a slow
 * card stops a phase early, at its time budget: the line then jumps).
 */
static int plan_class(struct seg_list *l, const struct bench_opts *o,
		      const struct device *dev)
{
	struct bench_range r[2];
	uint64_t seq;
	int n = class_write_ranges(BENCH_CLASS, o, dev->size_byte, r, 2);

	if (n < 1)
		return -EINVAL;
	if (n == 2) {	/* first past a write cache: its cap at most */
		struct auto_cache c;

		wcache_place(wcache_cap(o, dev->size_byte), dev->size_byte, 0,
			     &c);
		seg_add(l, cache_fill_byte(&c) / c.chunk_byte, c.chunk_byte,
			"past a write cache");
	}
	seq = r[0].end_byte - r[0].start_byte - CLASS_SPAN_BYTE;
	seg_add(l, seq / CLASS_SD_RU_BYTE, CLASS_SD_RU_BYTE, "64KiB units");
	seg_add(l, seq / CLASS_UHS_RU_BYTE, CLASS_UHS_RU_BYTE,
		"512KiB units");
	seg_add(l, CLASS_RANDOM_OPS, CLASS_IO_BYTE, "random reads");
	seg_add(l, CLASS_RANDOM_OPS, CLASS_IO_BYTE, "random writes");
	seg_add(l, CLASS_RANDOM_OPS, CLASS_IO_BYTE, "random reads, QD4");
	seg_add(l, CLASS_RANDOM_OPS, CLASS_IO_BYTE, "random writes, QD4");
	return l->err;
}

/* The list l made by ret (0 or -errno) into *segs and *nseg. */
static int plan_out(struct seg_list *l, int ret, struct progress_seg **segs,
		    size_t *nseg)
{
	if (ret) {
		free(l->s);
		l->s = NULL;
		l->n = 0;
	}
	*segs = l->s;
	*nseg = l->n;
	return ret;
}

int progplan_vm(const struct test *t, const struct bench_opts *o,
		const struct device *dev, struct progress_seg **segs,
		size_t *nseg)
{
	struct seg_list l = { NULL, 0, 0, 0 };

	return plan_out(&l, plan_calls(&l, t->prog, o, dev), segs, nseg);
}

int progplan_capacity(const struct test *t, const struct bench_opts *o,
		      const struct device *dev, struct progress_seg **segs,
		      size_t *nseg)
{
	struct seg_list l = { NULL, 0, 0, 0 };

	(void)t;
	return plan_out(&l, plan_capacity(&l, o, dev), segs, nseg);
}

int progplan_class(const struct test *t, const struct bench_opts *o,
		   const struct device *dev, struct progress_seg **segs,
		   size_t *nseg)
{
	struct seg_list l = { NULL, 0, 0, 0 };

	(void)t;
	return plan_out(&l, plan_class(&l, o, dev), segs, nseg);
}

int progplan_steps(const struct test *t, const struct bench_opts *o,
		   const struct device *dev, struct progress_seg **segs,
		   size_t *nseg)
{
	if (t->steps)
		return t->steps(t, o, dev, segs, nseg);
	*segs = NULL;
	*nseg = 0;
	return -EINVAL;
}

int progplan_start(struct progress *p, const struct test *t,
		   const struct bench_opts *o, const struct device *dev)
{
	struct progress_seg *segs;
	size_t n;
	int ret;

	if (!progress_enabled(p))
		return 0;
	/* a test that cannot be planned still shows that it runs */
	progplan_steps(t, o, dev, &segs, &n);
	ret = progress_start(p, t->option, segs, n);
	free(segs);
	return ret;
}
