// SPDX-License-Identifier: GPL-2.0-only
/* --class: the classes the card states, measured (see class.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "autorecord.h"
#include "c.h"
#include "class.h"
#include "wcache.h"
#include "writecache.h"
#include "format.h"
#include "recbody.h"

#define SUBUNIT_BYTE	(4ULL << 20)
#define SD_RU_BYTE	CLASS_SD_RU_BYTE
#define UHS_RU_BYTE	CLASS_UHS_RU_BYTE

/*
 * A class of a sequential rate alone (MB/s); a speed or video class's
 * rate is its level (C10, V30), a UHS class's ten times it.
 */
#define SEQ_CLASS(name, kind, level, mbps) \
	{ name, kind, level, 0, 0, 0, 0, mbps, 0, 0, 0 }
#define SPEED_CLASS(name, level) SEQ_CLASS(name, CLASS_SPEED, level, level)
#define UHS_CLASS(name, level) SEQ_CLASS(name, CLASS_UHS, level, 10 * (level))
#define VIDEO_CLASS(name, level) SEQ_CLASS(name, CLASS_VIDEO, level, level)

/* Every class, its family and level, its rate and IOPS. */
static const struct class_check classes[CLASS_NR] = {
	SPEED_CLASS("C2", 2), SPEED_CLASS("C4", 4), SPEED_CLASS("C6", 6),
	SPEED_CLASS("C10", 10),
	UHS_CLASS("U1", 1), UHS_CLASS("U3", 3),
	VIDEO_CLASS("V6", 6), VIDEO_CLASS("V10", 10), VIDEO_CLASS("V30", 30),
	VIDEO_CLASS("V60", 60), VIDEO_CLASS("V90", 90),
	/* and queue depth, random reads and writes per second */
	{ "A1", CLASS_APP, 1, 0, 0, 0, 1, 10, 1500, 500, 0 },
	{ "A2", CLASS_APP, 2, 0, 0, 0, CLASS_QD, 10, 4000, 2000, 0 },
};

void class_plan(struct class_plan *p, const struct bench_opts *o,
		uint64_t au_byte)
{
	uint64_t au = au_byte ? au_byte : o->erasesize_byte;

	/* whole recording units of 512 KiB, at most a 4 MiB sub-unit */
	p->unit_byte = au > SUBUNIT_BYTE ? SUBUNIT_BYTE : au;
	p->unit_byte = p->unit_byte / UHS_RU_BYTE * UHS_RU_BYTE;
	if (!p->unit_byte)
		p->unit_byte = UHS_RU_BYTE;
	p->offset_byte = (o->offset_byte + p->unit_byte - 1) / p->unit_byte *
			 p->unit_byte;
	p->units = CLASS_UNITS;
	p->span_byte = CLASS_SPAN_BYTE;
	p->ops = CLASS_RANDOM_OPS;
	p->past_cache = 1;
	p->cache_cap_byte = o->cache_cap_byte;
	p->sustained = o->sustained;
}

/* Where -L writes past a write cache on a device of dev_size (0: not). */
static int cache_place(const struct class_plan *p, uint64_t dev_size,
		       struct auto_cache *c)
{
	return p->past_cache &&
	       wcache_place(p->sustained ? dev_size : p->cache_cap_byte,
			    dev_size, 0, c);
}

/* The AU the card states (0: none told), as o carries the card. */
static uint64_t stated_au(const struct bench_opts *o)
{
	return o && o->card ? o->card->au_byte : 0;
}

int class_write_ranges(enum bench_test test, const struct bench_opts *o,
		       uint64_t dev_size, struct bench_range *ranges,
		       size_t max)
{
	struct class_plan p;
	struct auto_cache c;
	uint64_t end;

	(void)test;
	class_plan(&p, o, stated_au(o));
	end = p.offset_byte + p.units * p.unit_byte + p.span_byte;
	if (end > dev_size)
		return -EINVAL;
	if (ranges && max >= 1) {
		ranges[0].start_byte = p.offset_byte;
		ranges[0].end_byte = end;
	}
	if (!cache_place(&p, dev_size, &c))
		return 1;
	if (ranges && max >= 2) {
		ranges[1].start_byte = c.start_byte;
		ranges[1].end_byte = c.start_byte + cache_fill_byte(&c);
	}
	return 2;
}

/* Write every unit in recording units of ru; fill s.  0 or -errno. */
static int measure_seq(struct device *dev, const struct class_plan *p,
		       uint64_t ru, const void *buf, struct class_seq *s,
		       uint64_t *device_ns)
{
	unsigned int u;
	uint64_t k;

	s->ru_byte = ru;
	s->min_mbps = 0;
	s->max_write_ns = 0;
	for (u = 0; u < p->units; u++) {
		uint64_t off = p->offset_byte + u * p->unit_byte, sum = 0;
		double mbps;

		for (k = 0; k < p->unit_byte; k += ru) {
			uint64_t t;
			int ret = dev_write(dev, buf, ru, (off_t)(off + k), &t);

			if (ret)
				return ret;
			sum += t;
			if (t > s->max_write_ns)
				s->max_write_ns = t;
		}
		*device_ns += sum;
		mbps = sum ? (double)p->unit_byte * 1e3 / (double)sum : 0;
		if (!u || mbps < s->min_mbps)
			s->min_mbps = mbps;
	}
	return 0;
}

static uint64_t mix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Where random I/O goes: 4 KiB slots of the random region. */
struct class_slots {
	uint64_t base_byte;	/* first slot */
	uint64_t n;		/* slots */
	uint64_t seed;		/* of the order */
};

/* Offsets of depth requests, distinct (a queue may reorder them). */
static void draw(struct class_slots *s, off_t *off, unsigned int depth)
{
	unsigned int k, j;

	for (k = 0; k < depth; k++) {
		do {
			off[k] = (off_t)(s->base_byte +
					 mix(&s->seed) % s->n * CLASS_IO_BYTE);
			for (j = 0; j < k && off[j] != off[k]; j++)
				;
		} while (j < k);
	}
}

/* One request, or depth issued together: 0 or -errno, time in *t. */
static int random_io(struct device *dev, void *buf, int write,
		     const off_t *off, unsigned int depth, uint64_t *t)
{
	struct dev_req q[CLASS_QD];
	unsigned int k;

	if (depth == 1)
		return write ? dev_write(dev, buf, CLASS_IO_BYTE, off[0], t) :
		       dev_read(dev, buf, CLASS_IO_BYTE, off[0], t);
	for (k = 0; k < depth; k++) {
		q[k].write = write;
		q[k].buf = (char *)buf + k * CLASS_IO_BYTE;
		q[k].len = CLASS_IO_BYTE;
		q[k].off = off[k];
	}
	return dev_batch(dev, q, depth, t);
}

/*
 * Random 4 KiB I/O over the region, depth requests at a time (1 or
 * CLASS_QD, each with its own 4 KiB of buf): per second.
 */
static int measure_random(struct device *dev, const struct class_plan *p,
			  void *buf, int write, unsigned int depth,
			  double *iops, unsigned int *done,
			  uint64_t *device_ns)
{
	struct class_slots s = {
		.base_byte = p->offset_byte + p->units * p->unit_byte,
		.n = p->span_byte / CLASS_IO_BYTE,
		.seed = 0x636c617373 + (depth > 1),
	};
	off_t off[CLASS_QD];
	uint64_t sum = 0;
	unsigned int i;

	/* a card this slow is judged on what fits in the time budget */
	for (i = 0; i < p->ops && (i < CLASS_MIN_OPS ||
				   sum < CLASS_BUDGET_NS); i += depth) {
		uint64_t t;
		int ret;

		draw(&s, off, depth);
		ret = random_io(dev, buf, write, off, depth, &t);
		if (ret)
			return ret;
		sum += t;
	}
	*device_ns += sum;
	*done = i;
	*iops = sum ? i * 1e9 / (double)sum : 0;
	return 0;
}

/* The random I/O at queue depth 1, then at CLASS_QD.  0 or -errno. */
static int measure_randoms(struct device *dev, const struct class_plan *p,
			   void *buf, struct class_result *r)
{
	int ret;

	ret = measure_random(dev, p, buf, 0, 1, &r->read_iops, &r->reads,
			     &r->device_ns);
	if (!ret)
		ret = measure_random(dev, p, buf, 1, 1, &r->write_iops,
				     &r->writes, &r->device_ns);
	if (!ret)
		ret = measure_random(dev, p, buf, 0, CLASS_QD,
				     &r->read_iops_qd4, &r->reads_qd4,
				     &r->device_ns);
	if (!ret)
		ret = measure_random(dev, p, buf, 1, CLASS_QD,
				     &r->write_iops_qd4, &r->writes_qd4,
				     &r->device_ns);
	return ret;
}

int class_measure(struct device *dev, const struct class_plan *p,
		  struct class_result *r)
{
	void *buf = bench_alloc_io_buf(UHS_RU_BYTE);
	uint64_t t0 = dev_now_ns(dev);
	int ret;

	memset(r, 0, sizeof(*r));
	r->plan = *p;
	if (!buf)
		return -ENOMEM;
	dev_fill(buf, UHS_RU_BYTE, DEV_PAT_RANDOM, 1);
	/* where the card sustains the class: past a write cache */
	ret = cache_place(p, dev->size_byte, &r->cache) ?
	      wcache_fill(dev, NULL, &r->cache) : 0;
	r->cache_ns = dev_now_ns(dev) - t0;
	r->device_ns += r->cache_ns;
	if (!ret)
		ret = measure_seq(dev, p, SD_RU_BYTE, buf, &r->sd,
				  &r->device_ns);
	if (!ret)
		ret = measure_seq(dev, p, UHS_RU_BYTE, buf, &r->uhs,
				  &r->device_ns);
	if (!ret)
		ret = measure_randoms(dev, p, buf, r);
	free(buf);
	return ret;
}

/* Does the card state class k? */
static int states(const struct card_claims *c, const struct class_check *k)
{
	switch (k->kind) {
	case CLASS_SPEED:
		return c->speed_class == k->level;
	case CLASS_UHS:
		return c->uhs_grade == k->level;
	case CLASS_VIDEO:
		return c->video_class == k->level;
	case CLASS_APP:
		return c->app_class == k->level;
	}
	return 0;
}

static int states_any(const struct card_claims *c)
{
	return c && (c->speed_class > 0 || c->uhs_grade > 0 ||
		     c->video_class > 0 || c->app_class > 0);
}

/* The random reads and writes per second at queue depth qd. */
static double reads_at(const struct class_result *r, unsigned int qd)
{
	return qd > 1 ? r->read_iops_qd4 : r->read_iops;
}

static double writes_at(const struct class_result *r, unsigned int qd)
{
	return qd > 1 ? r->write_iops_qd4 : r->write_iops;
}

static void judge_one(const struct class_result *r, struct class_check *k)
{
	const struct class_seq *s = k->kind == CLASS_SPEED ? &r->sd : &r->uhs;
	int seq_ok = s->min_mbps >= k->need_mbps &&
		     s->max_write_ns <= CLASS_MAX_BUSY_NS;
	int reads_ok = reads_at(r, k->qd) >= k->need_read_iops;

	k->pass = seq_ok;
	if (k->kind == CLASS_APP) {
		k->pass = seq_ok && reads_ok &&
			  writes_at(r, k->qd) >= k->need_write_iops;
		k->writes_only = !k->pass && seq_ok && reads_ok;
	}
	/*
	 * met where a cache larger than the writes may have taken them, or
	 * faster than the card writes past the cache it showed
	 */
	k->within = k->pass && (cache_unsettled(&r->cache) ||
				cache_retaken(&r->cache, s->min_mbps));
	if (k->within)
		k->pass = 0;
}

/* A class's word: pass, FAIL, or unsure (met only within a cache). */
static const char *outcome_of(const struct class_check *k)
{
	return k->within ? "unsure" : k->pass ? "pass" : "FAIL";
}

/* Were the card's classes read at all (an SSR decoded)? */
static int claims_known(const struct card_claims *c)
{
	return c && c->speed_class >= 0 && c->uhs_grade >= 0 &&
	       c->video_class >= 0 && c->app_class >= 0;
}

void class_judge(struct class_result *r, const struct card_claims *c)
{
	size_t i;

	r->all = !states_any(c);
	r->unknown = !claims_known(c);
	r->n = 0;
	for (i = 0; i < CLASS_NR; i++) {
		struct class_check k = classes[i];

		k.claimed = !r->all && states(c, &k);
		if (!r->all && !k.claimed)
			continue;
		judge_one(r, &k);
		r->c[r->n++] = k;
	}
}

/* The class's sequential run. */
static const struct class_seq *seq_of(const struct class_result *r,
				      const struct class_check *k)
{
	return k->kind == CLASS_SPEED ? &r->sd : &r->uhs;
}

static void print_check(FILE *out, const struct class_result *r,
			const struct class_check *k)
{
	const struct class_seq *s = seq_of(r, k);
	char t[FMT_LEN];

	fprintf(out, "  %-4s %s  %.1f MB/s (needs %.0f), longest write %s",
		k->name, outcome_of(k), s->min_mbps, k->need_mbps,
		fmt_time(t, (int64_t)s->max_write_ns));
	/* the other reason a class fails: say it where it is the reason */
	if (s->max_write_ns > CLASS_MAX_BUSY_NS)
		fprintf(out, ", over the %s allowed",
			fmt_time(t, (int64_t)CLASS_MAX_BUSY_NS));
	if (k->kind == CLASS_APP)
		fprintf(out, ",\n       queue depth %u: %.0f reads/s (needs %.0f), %.0f writes/s (needs %.0f)",
			k->qd, reads_at(r, k->qd), k->need_read_iops,
			writes_at(r, k->qd), k->need_write_iops);
	fputc('\n', out);
	if (k->writes_only && k->level == 2)
		fputs("       A2 relies on the card's command queue and cache, which the\n"
		      "       host may not enable: only the writes fell short\n", out);
}

/*
 * Where the classes were measured: past a write cache, or within what
 * the cap let the writes before them reach.
 */
static void print_past_cache(FILE *out, const struct auto_cache *c)
{
	char a[FMT_LEN], b[FMT_LEN], t[FMT_LEN];
	double mbps = cache_mbps(c, cache_seen(c) ? c->native_ns : c->fast_ns);
	uint64_t left = c->start_byte + (uint64_t)c->nchunks * c->chunk_byte;

	if (!c->measured)
		return;
	if (c->late) {
		fprintf(out, "  past a write cache of more than %s (%.3g MB/s, then %.3g MB/s)\n",
			fmt_size(a, c->size_byte), cache_mbps(c, c->fast_ns),
			mbps);
		return;
	}
	if (c->dropped) {
		fprintf(out, "  past a write cache of about %s (%.3g MB/s, then %.3g MB/s)\n",
			fmt_size(a, c->size_byte), cache_mbps(c, c->fast_ns),
			mbps);
		return;
	}
	if (!cache_cap_reached(c))
		return;
	fprintf(out, "  within the first %s written at %.3g MB/s: a write cache larger than\n",
		fmt_size(a, (uint64_t)c->nchunks * c->chunk_byte), mbps);
	if (!cache_unsettled(c)) {
		fputs("  that would take these writes (they reach half the card already)\n",
		      out);
		return;
	}
	left = c->dev_half_byte > left ? c->dev_half_byte - left : 0;
	fprintf(out, "  that would take these writes; --sustained settles it (it writes up\n"
		"  to half the card first: %s more, about %s at that speed)\n",
		fmt_size(b, left),
		fmt_time(t, (int64_t)(mbps > 0 ? (double)left * 1e3 / mbps : 0)));
}

void class_print_cache(FILE *out, const struct class_result *r)
{
	print_past_cache(out, &r->cache);
}

int class_json_cache(struct json *j, const struct class_result *r)
{
	struct auto_result *a;

	if (!r->cache.measured)
		return 0;
	a = calloc(1, sizeof(*a));	/* the step's table reads a run's */
	if (!a)
		return -ENOMEM;
	a->cache = r->cache;
	a->step_ns[AUTO_STEP_CACHE] = r->cache_ns;
	rt_write_object(j, BODY_KEY(RM_CACHE_FILL), &auto_cache_step_table,
			a);
	free(a);
	return 0;
}

void class_print_body(FILE *out, const struct class_result *r)
{
	char a[FMT_LEN], b[FMT_LEN], t[FMT_LEN], u[FMT_LEN];

	fprintf(out, "class check: measured from the host, on the card as it is now\n"
		"  (not the SD Association's certification procedure)\n");
	print_past_cache(out, &r->cache);
	fprintf(out, "sequential: %u units of %s from %s, recording units %s and %s\n",
		r->plan.units, fmt_size(a, r->plan.unit_byte),
		fmt_size(b, r->plan.offset_byte), fmt_size(t, r->sd.ru_byte),
		fmt_size(u, r->uhs.ru_byte));
	fprintf(out, "random 4KiB in %-8s    reads/s  writes/s   reads  writes\n",
		fmt_size(b, r->plan.span_byte));
	fprintf(out, "  queue depth 1          %9.0f %9.0f %7u %7u\n",
		r->read_iops, r->write_iops, r->reads, r->writes);
	fprintf(out, "  queue depth %u          %9.0f %9.0f %7u %7u\n",
		CLASS_QD, r->read_iops_qd4, r->write_iops_qd4, r->reads_qd4,
		r->writes_qd4);
	class_print_checks(out, r);
}

void class_print_checks(FILE *out, const struct class_result *r)
{
	size_t i;

	if (r->all && r->unknown)
		fputs("no SD registers could be read, so every class is checked:\n",
		      out);
	else if (r->all)
		fputs("the card states no class, so every class is checked:\n",
		      out);
	else
		fputs("the classes the card states:\n", out);
	for (i = 0; i < r->n; i++)
		print_check(out, r, &r->c[i]);
	for (i = 0; i < r->n && !r->c[i].within; i++)
		;
	if (i < r->n && cache_seen(&r->cache))
		fputs("unsure: met faster than the card writes past its cache: the cache took\n"
		      "  them again (it folds back while the host pauses): not a pass; run\n"
		      "  it again on a quiet host\n", out);
	else if (i < r->n)
		fputs("unsure: met, but only within writes that a write cache larger than\n"
		      "  them may have taken (no drop seen): not a pass; --sustained settles it\n",
		      out);
}

size_t class_refill(struct class_result *r, const struct class_entry *e,
		    size_t n)
{
	size_t i, k;

	memset(r, 0, sizeof(*r));
	r->read_iops = -1;	/* unknown until a figure says */
	for (i = 0; i < n; i++) {
		const struct class_measured *f;
		struct class_seq *s;

		for (k = 0; k < CLASS_NR; k++)
			if (!strcmp(classes[k].name, e[i].name))
				break;
		if (k == CLASS_NR)
			return i + 1;
		s = classes[k].kind == CLASS_SPEED ? &r->sd : &r->uhs;
		f = &e[i].measured;
		s->ru_byte = f->recording_unit ? f->recording_unit :
			     classes[k].kind == CLASS_SPEED ? SD_RU_BYTE :
							      UHS_RU_BYTE;
		s->min_mbps = f->write_mbps;
		s->max_write_ns = f->longest_write_ns;
		if (f->iops) {
			r->read_iops = f->read_iops;
			r->write_iops = f->write_iops;
			r->read_iops_qd4 = f->read_iops_qd4;
			r->write_iops_qd4 = f->write_iops_qd4;
		}
	}
	return 0;
}

const char *class_missing(const struct class_result *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (!seq_of(r, &r->c[i])->ru_byte ||
		    (r->c[i].kind == CLASS_APP && r->read_iops < 0))
			return r->c[i].name;
	return NULL;
}

void class_print_stopped(FILE *out, const struct class_result *r)
{
	const struct class_seq *s[] = { &r->sd, &r->uhs };
	char a[FMT_LEN], t[FMT_LEN];
	size_t i;

	fprintf(out, "class check: interrupted after %s of device time, no class judged\n",
		fmt_time(t, (int64_t)r->device_ns));
	for (i = 0; i < ARRAY_SIZE(s); i++)
		if (s[i]->ru_byte && s[i]->min_mbps > 0)
			fprintf(out, "sequential in units of %s: slowest %.1f MB/s, longest write %s\n",
				fmt_size(a, s[i]->ru_byte), s[i]->min_mbps,
				fmt_time(t, (int64_t)s[i]->max_write_ns));
	if (r->reads)
		fprintf(out, "random 4KiB, queue depth 1: %.0f reads/s\n",
			r->read_iops);
	if (r->writes)
		fprintf(out, "random 4KiB, queue depth 1: %.0f writes/s\n",
			r->write_iops);
}

void class_print(FILE *out, const struct class_result *r)
{
	char t[FMT_LEN];

	class_print_body(out, r);
	fprintf(out, "device time: %s", fmt_time(t, (int64_t)r->device_ns));
	if (r->cache_ns)
		fprintf(out, " (%s of it writing past a write cache)",
			fmt_time(t, (int64_t)r->cache_ns));
	fputc('\n', out);
}

/* Check i of r as the record keeps it. */
static void class_entry_of(const struct class_result *r, size_t i,
			   struct class_entry *e)
{
	const struct class_check *k = &r->c[i];
	const struct class_seq *s = seq_of(r, k);
	int app = k->kind == CLASS_APP;

	memset(e, 0, sizeof(*e));
	e->name = k->name;
	e->claimed = k->claimed;
	e->judged = 1;
	e->pass = k->pass;
	e->within = k->within;
	e->measured.write_mbps = s->min_mbps;
	e->measured.longest_write_ns = s->max_write_ns;
	e->measured.recording_unit = s->ru_byte;
	e->measured.iops = app;
	e->measured.read_iops = r->read_iops;
	e->measured.write_iops = r->write_iops;
	e->measured.read_iops_qd4 = r->read_iops_qd4;
	e->measured.write_iops_qd4 = r->write_iops_qd4;
	e->required.write_mbps = k->need_mbps;
	e->required.longest_write_ns = CLASS_MAX_BUSY_NS;
	e->required.iops = app;
	e->required.read_iops = k->need_read_iops;
	e->required.write_iops = k->need_write_iops;
	e->required.queue_depth = k->qd;
}

void class_json(struct json *j, const struct class_result *r)
{
	struct class_entry e;
	size_t i;

	for (i = 0; i < r->n; i++) {
		class_entry_of(r, i, &e);
		rt_write_object(j, NULL, &class_entry_table, &e);
	}
}

int class_short(const struct class_result *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (r->c[i].claimed && !r->c[i].pass && !r->c[i].within)
			return 1;
	return 0;
}
