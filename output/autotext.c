// SPDX-License-Identifier: GPL-2.0-only
/*
 * --auto's record as text: the verdict, the evidence behind each value,
 * and the advice (see auto.h).  Reads the record only.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "auto.h"
#include "autoout.h"
#include "cachetext.h"
#include "capfixtext.h"
#include "format.h"
#include "wrap.h"
#include "writecache.h"

/* Where a wrapped line of the report goes on: under its words. */
#define LEAD "    "

static const char *const noise_names[] = {
	[AUTO_NOISE_LOW] = "low",
	[AUTO_NOISE_SOME] = "some",
	[AUTO_NOISE_HIGH] = "high",
};

const char *auto_noise_name(enum auto_noise_level level)
{
	return noise_names[level];
}

static const char *conf(enum analyze_confidence c)
{
	return analyze_confidence_name(c);
}

/* What the kernel says beside a size we found. */
static void print_sysfs_size(FILE *out, const struct sysfs_info *sysfs,
			     const char *key, uint64_t found)
{
	const char *v = sysfs ? sysfs_get(sysfs, key) : NULL;
	unsigned long long k;

	if (!v)
		return;
	k = strtoull(v, NULL, 10);
	fprintf(out, "  sysfs %s: %s", key, v);
	if (found && k)
		fprintf(out, " (%s)", k == found ? "agrees" :
			(k > found && k % found == 0) || (found % k == 0) ?
			"a multiple or divisor of it" : "disagrees");
	fputc('\n', out);
}

/* The merge test of the random search, when it ran. */
static void print_merge(FILE *out, const struct auto_open *o,
			const char *than)
{
	char w[FMT_LEN], m[FMT_LEN];

	if (o->whole_ns <= 0)
		return;
	wrap_printf(out, LEAD, "  evidence: on an AU written whole (%s), a write out of order took %s, %s the AU: %s\n",
		fmt_time(w, (int64_t)o->whole_ns),
		fmt_time(m, (int64_t)o->merge_ns), than,
		o->nr ? "no copy of it per write, random order only slower" :
			"a copy of it per write");
}

static void print_open(FILE *out, const char *what, const struct auto_open *o,
		       const char *why)
{
	char c[FMT_LEN], t[FMT_LEN];
	struct wrap w;
	FILE *f;
	size_t i;

	if (!o->measured) {
		fprintf(out, "open AUs %s: skipped%s%s\n", what,
			why ? ": " : "", why ? why : "");
		return;
	}
	fprintf(out, "open AUs %s: %s%u (confidence %s)\n", what,
		o->at_least ? ">= " : "", o->nr, conf(o->confidence));
	if (!o->nr) {
		wrap_printf(out, LEAD, "  evidence: %s writes out of order into one AU took %s each, x%.3g one in linear order: every one merges the AU\n",
			fmt_size(c, o->chunk_byte),
			fmt_time(t, (int64_t)o->ref_ns), o->probes[0].ratio);
		print_merge(out, o, "as much as");
		return;
	}
	print_merge(out, o, "far less than");
	f = wrap_begin(&w, out, LEAD);
	fprintf(f, "  evidence: %s writes, time per write against one AU (%s):",
		fmt_size(c, o->chunk_byte), fmt_time(t, (int64_t)o->ref_ns));
	for (i = 1; i < o->nprobes; i++)
		fprintf(f, " %u AUs x%.3g %s%s", o->probes[i].nr,
			o->probes[i].ratio,
			o->probes[i].collapsed ? "collapsed" : "held",
			i + 1 < o->nprobes || o->from_linear ? "," : "");
	if (o->from_linear)
		fprintf(f, " %u AUs collapsed in linear order (no card keeps more open out of order)",
			o->from_linear);
	wrap_end(&w);
}

/* What a FAT area showed in, or why none could have shown. */
static void print_fat_verdict(FILE *out, const struct auto_fat *f,
			      uint64_t erase)
{
	static const char *const shown[] = {
		[AUTO_FAT_BY_BOTH] = "in order and out of order",
		[AUTO_FAT_BY_LINEAR] = "in order",
		[AUTO_FAT_BY_RANDOM] = "out of order",
	};
	enum auto_fat_by by = auto_fat_shown_by(f);

	if (!f->found) {
		fprintf(out, "FAT area: none%s (confidence %s)\n",
			f->slot_unseen || f->speed_hidden || f->faint_count ?
			" seen" : "",
			conf(f->confidence));
		return;
	}
	fprintf(out, "FAT area: %u AU%s from AU %u (bytes %llu-%llu) (confidence %s)\n",
		f->count, f->count == 1 ? "" : "s", f->start,
		(unsigned long long)(f->start * erase),
		(unsigned long long)((f->start + f->count) * erase),
		conf(f->confidence));
	if (f->linear || f->random)
		wrap_printf(out, LEAD, "  faster in small writes %s%s\n",
			    shown[by],
			    f->nocopy ? ", and pays no copy for writes out of order where other AUs do" : "");
	else
		wrap_printf(out, LEAD, "  pays no copy for writes out of order where other AUs do (as -f --random shows)\n");
}

/* The evidence of a record without the copy visits: the speeds alone. */
static void print_fat_speeds(FILE *out, const struct auto_fat *f,
			     uint64_t erase)
{
	char cs[FMT_LEN], sz[FMT_LEN], l[FMT_LEN], r[FMT_LEN];
	struct wrap w;
	unsigned int i;

	out = wrap_begin(&w, out, LEAD);
	fprintf(out, "  evidence: %s writes at the start of the first %u AUs (%s each), speed in order/out of order against AUs far from the start (%s/%s); the record holds no copy visits:",
		fmt_size(cs, f->chunk_byte), f->naus, fmt_size(sz, erase),
		fmt_time(l, (int64_t)f->ref_lin_ns),
		fmt_time(r, (int64_t)f->ref_rnd_ns));
	for (i = 0; i < f->naus; i++)
		fprintf(out, " x%.2f/x%.2f", f->lin_ratio[i],
			f->rnd_ratio[i]);
	fputc('\n', out);
	wrap_end(&w);
}

/*
 * No area, but a run of AUs a little faster (verdict/fat.c fat_faint()):
 * which, by how much, and what would settle it.
 */
static void print_fat_faint(FILE *out, const struct auto_fat *f,
			    const char *chunk, const char *erase)
{
	char aus[32];

	if (f->faint_count == 1)
		snprintf(aus, sizeof(aus), "AU %u", f->faint_start);
	else
		snprintf(aus, sizeof(aus), "AUs %u-%u", f->faint_start,
			 f->faint_start + f->faint_count - 1);
	wrap_printf(out, LEAD, "  not seen: %s took small writes x%.2f faster than those far from the start, under the x%.2f an area needs: an area whose gain writes of %s show only in part (one write's access time hides a faster programming), or none; the classic FAT test, whose larger writes show such a gain (-f --erasesize=%s), would settle it\n",
		    aus, f->faint_ratio, AUTO_FAT_FAST, chunk, erase);
}

static void print_fat(FILE *out, const struct auto_fat *f, uint64_t erase,
		      const char *why)
{
	char cs[FMT_LEN], sz[FMT_LEN], l[FMT_LEN], r[FMT_LEN], v[FMT_LEN];

	if (!f->measured) {
		fprintf(out, "FAT area: skipped%s%s\n", why ? ": " : "",
			why ? why : "");
		return;
	}
	print_fat_verdict(out, f, erase);
	if (f->copies_lacked) {
		print_fat_speeds(out, f, erase);
		return;
	}
	/* each AU's ratios are -v detail: print_fat_ratios() */
	wrap_printf(out, LEAD, "  evidence: %s writes at the start of the first %u AUs (%s each) against AUs far from the start (%s in order, %s out of order, %s a copy), %u probe AU%s put in random mode first%s\n",
		    fmt_size(cs, f->chunk_byte), f->naus, fmt_size(sz, erase),
		    fmt_time(l, (int64_t)f->ref_lin_ns),
		    fmt_time(r, (int64_t)f->ref_rnd_ns),
		    fmt_time(v, (int64_t)f->ref_copy_ns), f->primed,
		    f->primed == 1 ? "" : "s",
		    f->refs_paid ? ", a copy paid in each far visit" : "");
	if (!f->found && f->slot_unseen)
		wrap_printf(out, LEAD, "  not seen: writes out of order paid no copy here, even with %u AUs put in random mode: an area that needs no open AU (only sparing that copy) could not show; -f --random with more AUs than the card keeps in random mode would settle it\n",
			    f->primed);
	else if (!f->found && f->faint_count)
		print_fat_faint(out, f, cs, sz);
	else if (!f->found && f->speed_hidden)
		wrap_printf(out, LEAD, "  not seen: each write out of order paid a copy here (x%.1f a write in order): an area only faster at programming them could not show beside it (nor in -f --random)\n",
			    f->ref_lin_ns > 0 ? f->ref_rnd_ns / f->ref_lin_ns : 0);
}

/* -v: each AU's speed in order, out of order and copy, against far AUs. */
static void print_fat_ratios(FILE *out, const struct auto_fat *f,
			     const char *lead)
{
	char cont[64];
	struct wrap w;
	unsigned int i;
	FILE *o;

	if (!f->measured || !f->naus)
		return;
	snprintf(cont, sizeof(cont), "%s  ", lead);
	o = wrap_begin(&w, out, cont);
	fprintf(o, "%sFAT area: each AU against the far AUs, in order/out of order/copy:",
		lead);
	for (i = 0; i < f->naus; i++)
		fprintf(o, " x%.2f/x%.2f/x%.2f", f->lin_ratio[i],
			f->rnd_ratio[i], f->copy_ratio[i]);
	fputc('\n', o);
	wrap_end(&w);
}

static void print_advice(FILE *out, const struct auto_result *r,
			 const char *path)
{
	uint64_t erase = r->align.erase.size_byte;
	const char *dev = strncmp(path, "--", 2) ? path : "DEVICE";
	struct auto_advice a;
	char sz[FMT_LEN], cmd[512];

	fprintf(out, "advice:\n");
	auto_advise_for(r, &a);
	if (a.no_data) {
		wrap_printf(out, LEAD, "  keep no data on this card: the capacity check found %s of it storing data\n",
			    fmt_size(sz, r->capacity.usable_byte));
		return;
	}
	capfix_command(cmd, sizeof(cmd), a.start_sector, a.max_sectors, 0,
		       dev);
	/* the one-line form makes a new table: say so before the command */
	if (a.max_sectors) {
		wrap_printf(out, LEAD, "  the card stores data only up to %s (the capacity check): one partition of at most %llu sectors from sector %llu, e.g. (this replaces the whole partition table: every partition on the card and its data are lost):\n",
			    fmt_size(sz, r->capacity.usable_byte),
			    (unsigned long long)a.max_sectors,
			    (unsigned long long)a.start_sector);
		fprintf(out, LEAD "%s\n", cmd);
	}
	if (!erase) {
		wrap_printf(out, LEAD, "  no erase size found: keep the usual 1MiB alignment (partitions at multiples of sector %llu, in %u-byte sectors)\n",
			    (unsigned long long)a.start_sector, a.sector_byte);
		return;
	}
	wrap_printf(out, LEAD, "  partition start: sector %llu of %u bytes (%s, the first multiple of the erase size from 1MiB)%s\n",
		    (unsigned long long)a.start_sector, a.sector_byte,
		    fmt_size(sz, a.start_sector * a.sector_byte),
		    a.max_sectors ? "" : "; one partition from there (this replaces the whole partition table: every partition on the card and its data are lost):");
	if (!a.max_sectors)
		fprintf(out, LEAD "%s\n", cmd);
	fprintf(out, "  ext4: mkfs.ext4 -b 4096 -E stride=%u,stripe_width=%u PARTITION\n",
		a.ext4_stride, a.ext4_stripe_width);
	fprintf(out, "  f2fs: mkfs.f2fs -s %u PARTITION\n", a.f2fs_segs);
}

/*
 * A size found and its confidence: "4MiB (confidence high)", or "none"
 * alone when nothing was found with no confidence either.
 */
static const char *size_conf(char *buf, size_t len, uint64_t size_byte,
			     enum analyze_confidence c)
{
	char a[FMT_LEN] = "none";

	if (!size_byte && c == ANALYZE_CONF_NONE) {
		snprintf(buf, len, "none");
		return buf;
	}
	if (size_byte)
		fmt_size(a, size_byte);
	snprintf(buf, len, "%s (confidence %s)", a, conf(c));
	return buf;
}

/* What the erase search from writes saw. */
static void print_search(FILE *out, const struct auto_result *r)
{
	const struct auto_erase_search *s = &r->erase_writes;
	char a[FMT_LEN], b[FMT_LEN], c[FMT_LEN], v[64];
	struct wrap w;
	unsigned int j;
	FILE *f;

	fprintf(out, "  from reads alone: %s\n",
		size_conf(v, sizeof(v), r->erase_reads.size_byte,
			  r->erase_reads.confidence));
	f = wrap_begin(&w, out, LEAD);
	fprintf(f, "  from writes: %s: %u writes of %s in %s",
		size_conf(v, sizeof(v), s->erase_byte, s->confidence),
		s->writes, fmt_size(b, s->chunk_byte),
		fmt_time(c, (int64_t)r->step_ns[AUTO_STEP_ERASE_WRITES]));
	if (!s->filled) {
		fprintf(f, "; no write paid for a garbage collection in %u writes further and further apart: the card keeps that many AUs open, has no erase blocks, or copies nothing when it closes one; %s\n",
			s->warmup, r->mapping.kind == AUTO_MAP_PAGES ?
			"the open-AU searches, which write as -O does, found no AUs kept open: the card maps pages (mapping, below)" :
			"-O with a guessed erase size, its AUs written whole first, would settle it");
		wrap_end(&w);
		return;
	}
	fprintf(f, "; the open AUs were full after %u writes further and further apart",
		s->warmup);
	if (s->data_byte)
		fprintf(f, " (%s of data written after each of the %u writes, as %u without it showed no collection)",
			fmt_size(a, s->data_byte), s->data_writes,
			(unsigned int)AUTO_ERASE_WARMUP);
	fprintf(f, ": a write into a new AU took up to %s, into an open one %s; the first AU boundary",
		fmt_time(a, (int64_t)s->slow_ns),
		fmt_time(b, (int64_t)s->fast_ns));
	for (j = 0; j < s->nanchors; j++)
		fprintf(f, "%s %s past %s", j ? "," : "",
			s->boundary_byte[j] ?
				fmt_size(b, s->boundary_byte[j]) : "none",
			fmt_size(a, s->anchor_byte[j]));
	fprintf(f, " (sizes up to %s)\n", fmt_size(a, s->top_byte));
	wrap_end(&w);
}

/*
 * Why a step was believed, in words: what a read across a boundary of
 * that size costs against one across a smaller boundary, how far above
 * the noise, and how many alignments agree.  The statistics behind it
 * (t, misfits, spike chance) are -v detail: analyze_print_evidence().
 */
static void print_why(FILE *out, const char *what,
		      const struct analyze_step *s)
{
	char sz[FMT_LEN], up[FMT_LEN];
	size_t rows = s->n_upper + s->n_lower + s->n_skipped;
	double step = s->upper_ns - s->lower_ns;
	struct wrap w;

	if (!s->size_byte)
		return;
	out = wrap_begin(&w, out, LEAD);
	fprintf(out, "  %s: reads across a %s boundary cost %s extra, ", what,
		fmt_size(sz, s->size_byte),
		fmt_time(up, (int64_t)llround(s->upper_ns)));
	if (s->lower_ns < 3 * s->sigma_ns)
		fputs("across smaller ones no more than the noise", out);
	else {
		char lo[FMT_LEN];

		fprintf(out, "across smaller ones %s",
			fmt_time(lo, (int64_t)llround(s->lower_ns)));
	}
	if (s->sigma_ns > 0 && step < 1000 * s->sigma_ns)
		fprintf(out, ": a step %.3g times the noise", step / s->sigma_ns);
	else
		fputs(": a step over 1000 times the noise", out);
	if (s->n_misfit)
		fprintf(out, ", %zu of %zu alignments agree\n",
			rows - s->n_misfit, rows);
	else
		fprintf(out, ", all %zu alignments agree\n", rows);
	wrap_end(&w);
}

/* The capacity check's line, when it ran. */
static void print_capacity(FILE *out, const struct auto_result *r)
{
	const struct capacity_result *c = &r->capacity;
	char u[FMT_LEN], a[FMT_LEN];

	if (!r->capacity_done)
		return;
	fmt_size(u, c->usable_byte);
	fmt_size(a, c->announced_byte);
	if (c->kind == CAPACITY_GENUINE) {
		char d[FMT_LEN];

		wrap_printf(out, LEAD, "capacity: genuine as far as the check sees, all %s store data; it could not rule out a fake with a cache over %s\n",
			    a, fmt_size(d, c->defeat_byte));
	} else {
		wrap_printf(out, LEAD, "capacity: FAKE or failing (%s): usable %s%s of %s announced; the advice above keeps to it\n",
			    capacity_kind_name(c->kind),
			    c->kind == CAPACITY_LIMBO && !c->exact ?
			    "at least " : "", u, a);
	}
}

/* A table that read only around an erase size: which rows. */
static void print_around(FILE *out, const struct auto_table *t)
{
	char a[FMT_LEN], b[FMT_LEN], c[FMT_LEN];
	uint64_t lo = UINT64_MAX, hi = 0;
	size_t i;

	for (i = 0; i < t->nrows; i++) {
		if (t->rows[i].align_byte < lo)
			lo = t->rows[i].align_byte;
		if (t->rows[i].align_byte > hi)
			hi = t->rows[i].align_byte;
	}
	fprintf(out, ", only those from %s to %s (around the %s the first table read)",
		fmt_size(a, lo), fmt_size(b, hi), fmt_size(c, t->around_byte));
}

/* s with every "DEVICE" in it written as path. */
static void print_with_path(FILE *out, const char *s, const char *path)
{
	const char *d;

	if (!strncmp(path, "--", 2))
		path = "DEVICE";
	while ((d = strstr(s, "DEVICE"))) {
		fprintf(out, "%.*s%s", (int)(d - s), s, path);
		s = d + strlen("DEVICE");
	}
	fputs(s, out);
}

/* How repeatable the timings were, and what that means. */
static void print_noise(FILE *out, const struct auto_result *r)
{
	const struct auto_noise *n = &r->noise;
	struct wrap w;

	if (!n->cells)
		return;
	out = wrap_begin(&w, out, LEAD);
	fprintf(out, "timing noise: %s: %u of %u positions delayed in the least of a few reads",
		auto_noise_name(n->level), n->delayed, n->cells);
	if (n->once_cells)
		fprintf(out, ", %u of %u single reads", n->once_delayed,
			n->once_cells);
	if (n->delayed || n->once_delayed) {
		char t[FMT_LEN];

		fprintf(out, ", by up to %s",
			fmt_time(t, (int64_t)llround(n->delay_ns)));
	}
	if (n->rounds)
		fprintf(out, "; %u further align pass%s", n->rounds,
			n->rounds == 1 ? "" : "es");
	if (n->level == AUTO_NOISE_HIGH)
		fputs("; the host or the card is noisy: close other programs, or run again (values the noise could have made are given low confidence)", out);
	fputc('\n', out);
	wrap_end(&w);
}

/* Why the write steps did not run, and what would settle it. */
static void print_skipped(FILE *out, const struct auto_result *r,
			  const char *path)
{
	struct wrap w;

	out = wrap_begin(&w, out, LEAD);
	fprintf(out, "skipped: %s: %s", r->open_linear.measured ? "FAT area" :
		"open AUs and FAT area", r->skip_reason);
	if (r->skip_settle) {
		fputs("; to settle it: ", out);
		print_with_path(out, r->skip_settle, path);
	}
	fputc('\n', out);
	wrap_end(&w);
}

/*
 * Without --destructive, what it would add besides the steps the skipped
 * line names (the plan auto_run_all() noted): the capacity check and the
 * class check, each with what it would overwrite.
 */
static void print_destructive_adds(FILE *out, const struct auto_result *r)
{
	char a[FMT_LEN], cls[96] = "";

	if (r->class_end_byte && r->class_end_byte <= r->device_byte) {
		char b[FMT_LEN];

		snprintf(cls, sizeof(cls), "the class check (it overwrites %s from %s on)",
			 fmt_size(a, r->class_end_byte - r->class_start_byte),
			 fmt_size(b, r->class_start_byte));
	}
	if (r->capacity_plan_byte)
		wrap_printf(out, LEAD, "--destructive also runs the capacity check (it may overwrite %s in %d places across the device)%s%s\n",
			    fmt_size(a, r->capacity_plan_byte),
			    r->capacity_plan_ranges, cls[0] ? " and " : "",
			    cls);
	else if (cls[0])
		wrap_printf(out, LEAD, "--destructive also runs %s\n", cls);
	if (r->cache.cap_byte && !r->cache.measured)
		wrap_printf(out, LEAD, "--destructive first writes past a write cache (up to %s from %s on)\n",
			    fmt_size(a, cache_fill_byte(&r->cache)),
			    fmt_size(cls, r->cache.start_byte));
}

/* The steps skipped, and why; without --destructive, what it adds. */
static void print_skips(FILE *out, const struct auto_result *r,
			const char *path)
{
	if (!r->skip_reason)
		return;
	if (r->destructive) {
		print_skipped(out, r, path);
		return;
	}
	if (r->search_fits && r->align.erase.confidence < ANALYZE_CONF_HIGH)
		fprintf(out, "skipped: the erase size from writes, open AUs and FAT area (they write to\n"
			LEAD "the device); run them with:\n"
			LEAD "flashbench --auto --destructive %s\n", path);
	else if (r->align.erase.confidence < ANALYZE_CONF_MEDIUM)
		wrap_printf(out, LEAD, "skipped: open AUs and FAT area: no clear erase size to measure with, and the device is too small to find it by writing\n");
	else
		fprintf(out, "skipped: open AUs and FAT area (they write to the device); run them with:\n"
			LEAD "flashbench --auto --destructive %s\n", path);
	print_destructive_adds(out, r);
}

/* auto_print() but its device time. */
static void print_verdict(FILE *out, const struct auto_result *r,
			  const char *path, const struct sysfs_info *sysfs)
{
	const struct auto_table *t = &r->tables[r->chosen];
	char a[FMT_LEN], v[64];

	struct align_verdict reads = r->align;
	/* without --destructive the closing line says why, once */
	const char *why = r->destructive ? r->skip_reason : NULL;

	fprintf(out, "erase size: %s%s\n",
		size_conf(v, sizeof(v), r->align.erase.size_byte,
			  r->align.erase.confidence),
		r->erase_from == AUTO_ERASE_FROM_WRITES ? ", from writes" :
		r->erase_from == AUTO_ERASE_CONFIRMED ?
			", confirmed by writes" : "");
	if (r->ntables) {
		char b[FMT_LEN], c[FMT_LEN];
		struct wrap w;
		FILE *f = wrap_begin(&w, out, LEAD);

		fprintf(f, "  evidence: align at %s blocks, alignments 2^n and 3*2^n sampled %s apart, the least of %u reads each",
			fmt_size(b, t->blocksize_byte),
			fmt_size(c, t->spacing_byte), t->count);
		if (t->around_byte)
			print_around(f, t);
		fputc('\n', f);
		wrap_end(&w);
	}
	if (r->erase_writes.measured)
		reads.erase = r->erase_reads;
	if (r->mapping.page_byte || r->mapping.page_sector ||
	    r->mapping.page_hidden)
		reads.page = r->mapping.page_reads;
	print_why(out, "erase", &reads.erase);
	print_why(out, "page", &reads.page);
	if (r->erase_writes.measured)
		print_search(out, r);
	print_sysfs_size(out, sysfs, "preferred_erase_size",
			 r->align.erase.size_byte);
	print_sysfs_size(out, sysfs, "erase_size", 0);
	print_sysfs_size(out, sysfs, "discard_granularity", 0);
	print_sysfs_size(out, sysfs, "optimal_io_size", 0);
	fprintf(out, "page size: %s\n",
		size_conf(v, sizeof(v), r->align.page.size_byte,
			  r->align.page.confidence));
	auto_print_page_writes(out, r);
	if (r->align.plane.size_byte)
		wrap_printf(out, LEAD, "program unit: %s, pages read at once across planes (confidence %s)\n",
			fmt_size(a, r->align.plane.size_byte),
			conf(r->align.plane.confidence));
	if (r->align.group.size_byte)
		fprintf(out, "allocation group: %s (confidence %s)\n",
			fmt_size(a, r->align.group.size_byte),
			conf(r->align.group.confidence));
	auto_print_mapping(out, r);
	print_open(out, "linear", &r->open_linear, why);
	print_open(out, "random", &r->open_random, why);
	print_fat(out, &r->fat, r->align.erase.size_byte, why);
	cache_print(out, &r->cache);
	if (r->precondition_again)
		wrap_printf(out, LEAD, "preconditioned: no collapse on the probed AUs as found (AUs that hold no data cost nothing to close), so each was written whole and the search made again (%s in all)\n",
			    fmt_size(a, r->precondition_byte));
	else if (r->precondition_byte)
		wrap_printf(out, LEAD, "preconditioned: probed AUs written whole to use them again (%s in all)\n",
			    fmt_size(a, r->precondition_byte));
	if (sysfs) {
		size_t i;

		for (i = 0; i < sysfs->n; i++)
			if (!strcmp(sysfs->e[i].key, "name") ||
			    !strcmp(sysfs->e[i].key, "manfid") ||
			    !strcmp(sysfs->e[i].key, "oemid"))
				fprintf(out, "card %s: %s\n",
					sysfs->e[i].key, sysfs->e[i].value);
	}
	print_advice(out, r, path);
	print_skips(out, r, path);
	/* the mapping says why the reads' erase size stands (automap.c) */
	if (r->erase_fallback && !r->mapping.erase_top) {
		struct wrap w;
		FILE *f = wrap_begin(&w, out, LEAD);

		fputs("erase size for the write steps: read with low confidence, so their answers are low too; to settle it: ", f);
		print_with_path(f, auto_erase_settle(r), path);
		fputc('\n', f);
		wrap_end(&w);
	}
	print_noise(out, r);
	print_capacity(out, r);
	latency_print(out, &r->latency);
}

void auto_print(FILE *out, const struct auto_result *r, const char *path,
		const struct sysfs_info *sysfs)
{
	char a[FMT_LEN];

	print_verdict(out, r, path, sysfs);
	fprintf(out, "device time: %s\n", fmt_time(a, (int64_t)r->device_ns));
}

/* One share of the device time: ", what 1.2s" when it took any. */
static void print_share(FILE *out, const char *what, uint64_t ns)
{
	if (ns) {
		char t[FMT_LEN];

		fprintf(out, ", %s %s", what, fmt_time(t, (int64_t)ns));
	}
}

/* The device time of a run with the class check: the total, each share. */
static void print_total(FILE *out, const struct auto_result *r,
			uint64_t class_ns)
{
	char t[FMT_LEN], a[FMT_LEN];
	struct wrap w;

	out = wrap_begin(&w, out, LEAD);
	fprintf(out, "device time: %s in all: align %s",
		fmt_time(t, (int64_t)(r->device_ns + class_ns)),
		fmt_time(a, (int64_t)r->step_ns[AUTO_STEP_ALIGN]));
	print_share(out, "write cache", r->step_ns[AUTO_STEP_CACHE]);
	print_share(out, "erase size from writes",
		    r->step_ns[AUTO_STEP_ERASE_WRITES]);
	print_share(out, "FAT area", r->step_ns[AUTO_STEP_FAT]);
	print_share(out, "open AUs linear",
		    r->step_ns[AUTO_STEP_OPEN_LINEAR]);
	print_share(out, "open AUs random",
		    r->step_ns[AUTO_STEP_OPEN_RANDOM]);
	print_share(out, "mapping unit", r->step_ns[AUTO_STEP_MAPPING]);
	if (r->capacity_done)
		print_share(out, "capacity check", r->capacity.device_ns);
	print_share(out, "class check", class_ns);
	fputc('\n', out);
	wrap_end(&w);
}

void auto_print_evidence(FILE *out, const struct auto_result *r,
			 const char *lead)
{
	struct align_verdict reads = r->align;

	/* the reads' verdict, as auto_print() words it */
	if (r->erase_writes.measured)
		reads.erase = r->erase_reads;
	analyze_print_evidence_lead(out, &reads, lead);
	print_fat_ratios(out, &r->fat, lead);
}

void auto_print_run(FILE *out, const struct auto_result *r, const char *path,
		    const struct sysfs_info *sysfs, const struct reconcile *rc)
{
	if (r->class)
		print_verdict(out, r, path, sysfs);
	else
		auto_print(out, r, path, sysfs);
	reconcile_print(out, rc);
}

void auto_print_run_end(FILE *out, const struct auto_result *r,
			uint64_t class_ns)
{
	if (r->class)
		print_total(out, r, class_ns);
	if (r->class_skipped)
		wrap_printf(out, LEAD, "class check: skipped: it writes up to byte %" PRIu64 ", past the end at %" PRIu64 "\n",
			    r->class_end_byte, r->device_byte);
}

void auto_print_verdict(FILE *out, const struct auto_result *r,
			const char *path, const struct sysfs_info *sysfs)
{
	print_verdict(out, r, path, sysfs);
}

void auto_print_time(FILE *out, const struct auto_result *r,
		     uint64_t class_ns)
{
	if (class_ns) {
		print_total(out, r, class_ns);
	} else {
		char a[FMT_LEN];

		fprintf(out, "device time: %s\n",
			fmt_time(a, (int64_t)r->device_ns));
	}
}
