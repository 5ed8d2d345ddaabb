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
#include "format.h"

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
	fprintf(out, "  evidence: on an AU written whole (%s), a write out of order took %s, %s the AU: %s\n",
		fmt_time(w, (int64_t)o->whole_ns),
		fmt_time(m, (int64_t)o->merge_ns), than,
		o->nr ? "no copy of it per write, random order only slower" :
			"a copy of it per write");
}

static void print_open(FILE *out, const char *what, const struct auto_open *o,
		       const char *why)
{
	char c[FMT_LEN], t[FMT_LEN];
	size_t i;

	if (!o->measured) {
		fprintf(out, "open AUs %s: skipped%s%s\n", what,
			why ? ": " : "", why ? why : "");
		return;
	}
	fprintf(out, "open AUs %s: %s%u (confidence %s)\n", what,
		o->at_least ? ">= " : "", o->nr, conf(o->confidence));
	if (!o->nr) {
		fprintf(out, "  evidence: %s writes out of order into one AU took %s each, x%.3g one in linear order: every one merges the AU\n",
			fmt_size(c, o->chunk_byte),
			fmt_time(t, (int64_t)o->ref_ns), o->probes[0].ratio);
		print_merge(out, o, "as much as");
		return;
	}
	print_merge(out, o, "far less than");
	fprintf(out, "  evidence: %s writes, time per write against one AU (%s):",
		fmt_size(c, o->chunk_byte), fmt_time(t, (int64_t)o->ref_ns));
	for (i = 1; i < o->nprobes; i++)
		fprintf(out, " %u AUs x%.3g %s%s", o->probes[i].nr,
			o->probes[i].ratio,
			o->probes[i].collapsed ? "collapsed" : "held",
			i + 1 < o->nprobes || o->from_linear ? "," : "");
	if (o->from_linear)
		fprintf(out, " %u AUs collapsed in linear order (no card keeps more open out of order)",
			o->from_linear);
	fputc('\n', out);
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
			f->slot_unseen || f->speed_hidden ? " seen" : "",
			conf(f->confidence));
		return;
	}
	fprintf(out, "FAT area: %u AU%s from AU %u (bytes %llu-%llu) (confidence %s), ",
		f->count, f->count == 1 ? "" : "s", f->start,
		(unsigned long long)(f->start * erase),
		(unsigned long long)((f->start + f->count) * erase),
		conf(f->confidence));
	if (f->linear || f->random)
		fprintf(out, "faster in small writes %s%s\n",
			shown[by],
			f->nocopy ? ", and pays no copy for writes out of order where other AUs do" : "");
	else
		fprintf(out, "pays no copy for writes out of order where other AUs do (as -f --random shows)\n");
}

/* The evidence of a record without the copy visits: the speeds alone. */
static void print_fat_speeds(FILE *out, const struct auto_fat *f,
			     uint64_t erase)
{
	char cs[FMT_LEN], sz[FMT_LEN], l[FMT_LEN], r[FMT_LEN];
	unsigned int i;

	fprintf(out, "  evidence: %s writes at the start of the first %u AUs (%s each), speed in order/out of order against AUs far from the start (%s/%s); the record holds no copy visits:",
		fmt_size(cs, f->chunk_byte), f->naus, fmt_size(sz, erase),
		fmt_time(l, (int64_t)f->ref_lin_ns),
		fmt_time(r, (int64_t)f->ref_rnd_ns));
	for (i = 0; i < f->naus; i++)
		fprintf(out, " x%.2f/x%.2f", f->lin_ratio[i],
			f->rnd_ratio[i]);
	fputc('\n', out);
}

static void print_fat(FILE *out, const struct auto_fat *f, uint64_t erase,
		      const char *why)
{
	char cs[FMT_LEN], sz[FMT_LEN], l[FMT_LEN], r[FMT_LEN], v[FMT_LEN];
	unsigned int i;

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
	fprintf(out, "  evidence: %s writes at the start of the first %u AUs (%s each), speed in order/out of order and copies paid in each AU's visit against AUs far from the start (%s/%s/%s), with %u probe AUs put in random mode first%s:",
		fmt_size(cs, f->chunk_byte), f->naus, fmt_size(sz, erase),
		fmt_time(l, (int64_t)f->ref_lin_ns),
		fmt_time(r, (int64_t)f->ref_rnd_ns),
		fmt_time(v, (int64_t)f->ref_copy_ns), f->primed,
		f->refs_paid ? ", a copy paid in each far visit" : "");
	for (i = 0; i < f->naus; i++)
		fprintf(out, " x%.2f/x%.2f/x%.2f", f->lin_ratio[i],
			f->rnd_ratio[i], f->copy_ratio[i]);
	fputc('\n', out);
	if (!f->found && f->slot_unseen)
		fprintf(out, "  not seen: writes out of order paid no copy here, even with %u AUs put in random mode: an area that needs no open AU (only sparing that copy) could not show; -f --random with more AUs than the card keeps in random mode would settle it\n",
			f->primed);
	else if (!f->found && f->speed_hidden)
		fprintf(out, "  not seen: each write out of order paid a copy here (x%.1f a write in order): an area only faster at programming them could not show beside it (nor in -f --random)\n",
			f->ref_lin_ns > 0 ? f->ref_rnd_ns / f->ref_lin_ns : 0);
}

static void print_advice(FILE *out, const struct auto_result *r,
			 const char *path)
{
	uint64_t erase = r->align.erase.size_byte;
	struct auto_advice a;
	char sz[FMT_LEN];

	fprintf(out, "advice:\n");
	auto_advise_for(r, &a);
	if (a.no_data) {
		fprintf(out, "  keep no data on this card: the capacity check found %s of it storing data\n",
			fmt_size(sz, r->capacity.usable_byte));
		return;
	}
	if (a.max_sectors) {
		fprintf(out, "  the card stores data only up to %s (the capacity check): one partition of at most %llu sectors from sector %llu, e.g. (this replaces the whole partition table: every partition on the card and its data are lost): echo 'start=%llu, size=%llu' | sudo sfdisk %s\n",
			fmt_size(sz, r->capacity.usable_byte),
			(unsigned long long)a.max_sectors,
			(unsigned long long)a.start_sector,
			(unsigned long long)a.start_sector,
			(unsigned long long)a.max_sectors,
			strncmp(path, "--", 2) ? path : "DEVICE");
	}
	if (!erase) {
		fprintf(out, "  no erase size found: keep the usual 1MiB alignment (partitions at multiples of sector %llu, in %u-byte sectors)\n",
			(unsigned long long)a.start_sector, a.sector_byte);
		return;
	}
	fprintf(out, "  partition start: sector %llu in %u-byte sectors (%s, the first multiple of the erase size from 1MiB)\n",
		(unsigned long long)a.start_sector, a.sector_byte,
		fmt_size(sz, a.start_sector * a.sector_byte));
	/* the one-line form makes a new table: say so before the command */
	if (!a.max_sectors)
		fprintf(out, "  to make the card one partition from there (this replaces the whole partition table: every partition on the card and its data are lost): echo 'start=%llu' | sudo sfdisk %s\n",
		(unsigned long long)a.start_sector,
		strncmp(path, "--", 2) ? path : "DEVICE");
	fprintf(out, "  ext4: mkfs.ext4 -b 4096 -E stride=%u,stripe_width=%u PARTITION\n",
		a.ext4_stride, a.ext4_stripe_width);
	fprintf(out, "  f2fs: mkfs.f2fs -s %u PARTITION\n", a.f2fs_segs);
}

/* What the erase search from writes saw. */
static void print_search(FILE *out, const struct auto_result *r)
{
	const struct auto_erase_search *s = &r->erase_writes;
	char a[FMT_LEN], b[FMT_LEN], c[FMT_LEN];
	unsigned int j;

	fprintf(out, "  from reads alone: %s (confidence %s)\n",
		r->erase_reads.size_byte ?
			fmt_size(a, r->erase_reads.size_byte) : "none",
		conf(r->erase_reads.confidence));
	fprintf(out, "  from writes: %s (confidence %s): %u writes of %s in %s",
		s->erase_byte ? fmt_size(a, s->erase_byte) : "none",
		conf(s->confidence), s->writes, fmt_size(b, s->chunk_byte),
		fmt_time(c, (int64_t)r->step_ns[AUTO_STEP_ERASE_WRITES]));
	if (s->data_byte)
		fprintf(out, "; no collection in %u writes further and further apart, so %s of data after each of them (%u writes) and the walk again",
			(unsigned int)AUTO_ERASE_WARMUP, fmt_size(a, s->data_byte),
			s->data_writes);
	if (!s->filled) {
		fprintf(out, "; no write paid for a garbage collection in %u writes further and further apart: the card keeps that many AUs open, has no erase blocks, or copies nothing when it closes one; -O with a guessed erase size, its AUs written whole first, would settle it\n",
			s->warmup);
		return;
	}
	fprintf(out, "; after %u writes further and further apart the card's open AUs were full: a write into a new AU took up to %s, into an open one %s; first AU boundary after",
		s->warmup, fmt_time(a, (int64_t)s->slow_ns),
		fmt_time(b, (int64_t)s->fast_ns));
	for (j = 0; j < s->nanchors; j++)
		fprintf(out, "%s %s: %s", j ? "," : "",
			fmt_size(a, s->anchor_byte[j]),
			s->boundary_byte[j] ?
				fmt_size(b, s->boundary_byte[j]) : "none");
	fprintf(out, " (sizes up to %s)\n", fmt_size(a, s->top_byte));
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

	if (!s->size_byte)
		return;
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

		fprintf(out, "capacity: genuine as far as the check sees, all %s store data; it could not rule out a fake with a cache over %s\n",
			a, fmt_size(d, c->defeat_byte));
	} else {
		fprintf(out, "capacity: FAKE or failing (%s): usable %s%s of %s announced; the advice above keeps to it\n",
			capacity_kind_name(c->kind),
			c->kind == CAPACITY_LIMBO && !c->exact ? "at least " :
			"", u, a);
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

	if (!n->cells)
		return;
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
}

/* Why the write steps did not run, and what would settle it. */
static void print_skipped(FILE *out, const struct auto_result *r,
			  const char *path)
{
	fprintf(out, "skipped: %s: %s", r->open_linear.measured ? "FAT area" :
		"open AUs and FAT area", r->skip_reason);
	if (r->skip_settle) {
		fputs("; to settle it: ", out);
		print_with_path(out, r->skip_settle, path);
	}
	fputc('\n', out);
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
		fprintf(out, "--destructive also runs the capacity check (it may overwrite %s in %d places across the device)%s%s\n",
			fmt_size(a, r->capacity_plan_byte),
			r->capacity_plan_ranges, cls[0] ? " and " : "", cls);
	else if (cls[0])
		fprintf(out, "--destructive also runs %s\n", cls);
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
		fprintf(out, "skipped: the erase size from writes, open AUs and FAT area (they write to the device); run them with: flashbench --auto --destructive %s\n",
			path);
	else if (r->align.erase.confidence < ANALYZE_CONF_MEDIUM)
		fprintf(out, "skipped: open AUs and FAT area: no clear erase size to measure with, and the device is too small to find it by writing\n");
	else
		fprintf(out, "skipped: open AUs and FAT area (they write to the device); run them with: flashbench --auto --destructive %s\n",
			path);
	print_destructive_adds(out, r);
}

/* auto_print() but its device time. */
static void print_verdict(FILE *out, const struct auto_result *r,
			  const char *path, const struct sysfs_info *sysfs)
{
	const struct auto_table *t = &r->tables[r->chosen];
	char a[FMT_LEN];

	struct align_verdict reads = r->align;
	/* without --destructive the closing line says why, once */
	const char *why = r->destructive ? r->skip_reason : NULL;

	fprintf(out, "erase size: %s (confidence %s)%s\n",
		r->align.erase.size_byte ?
			fmt_size(a, r->align.erase.size_byte) : "none",
		conf(r->align.erase.confidence),
		r->erase_from == AUTO_ERASE_FROM_WRITES ? ", from writes" :
		r->erase_from == AUTO_ERASE_CONFIRMED ?
			", confirmed by writes" : "");
	if (r->ntables) {
		char b[FMT_LEN], c[FMT_LEN];

		fprintf(out, "  evidence: align at %s blocks, alignments 2^n and 3*2^n sampled %s apart, the least of %u reads each",
			fmt_size(b, t->blocksize_byte),
			fmt_size(c, t->spacing_byte), t->count);
		if (t->around_byte)
			print_around(out, t);
		fputc('\n', out);
	}
	if (r->erase_writes.measured)
		reads.erase = r->erase_reads;
	print_why(out, "erase", &reads.erase);
	print_why(out, "page", &reads.page);
	if (r->erase_writes.measured)
		print_search(out, r);
	print_sysfs_size(out, sysfs, "preferred_erase_size",
			 r->align.erase.size_byte);
	print_sysfs_size(out, sysfs, "erase_size", 0);
	print_sysfs_size(out, sysfs, "discard_granularity", 0);
	print_sysfs_size(out, sysfs, "optimal_io_size", 0);
	fprintf(out, "page size: %s (confidence %s)\n",
		r->align.page.size_byte ?
			fmt_size(a, r->align.page.size_byte) : "none",
		conf(r->align.page.confidence));
	if (r->align.plane.size_byte)
		fprintf(out, "program unit: %s, pages read at once across planes (confidence %s)\n",
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
	if (r->precondition_again)
		fprintf(out, "preconditioned: no collapse on the probed AUs as found (AUs that hold no data cost nothing to close), so each was written whole and the search made again (%s in all)\n",
			fmt_size(a, r->precondition_byte));
	else if (r->precondition_byte)
		fprintf(out, "preconditioned: probed AUs written whole to use them again (%s in all)\n",
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
	if (r->erase_fallback) {
		fputs("erase size for the write steps: read with low confidence, so their answers are low too; to settle it: ", out);
		print_with_path(out, "flashbench -a DEVICE, then the classic tests with the erase size it shows (flashbench -O --erasesize=SIZE DEVICE)", path);
		fputc('\n', out);
	}
	print_noise(out, r);
	print_capacity(out, r);
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

	fprintf(out, "device time: %s in all: align %s",
		fmt_time(t, (int64_t)(r->device_ns + class_ns)),
		fmt_time(a, (int64_t)r->step_ns[AUTO_STEP_ALIGN]));
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
}

void auto_print_evidence(FILE *out, const struct auto_result *r,
			 const char *lead)
{
	struct align_verdict reads = r->align;

	/* the reads' verdict, as auto_print() words it */
	if (r->erase_writes.measured)
		reads.erase = r->erase_reads;
	analyze_print_evidence_lead(out, &reads, lead);
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
		fprintf(out, "class check: skipped: it writes up to byte %" PRIu64 ", past the end of the device (%" PRIu64 " bytes)\n",
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
