// SPDX-License-Identifier: GPL-2.0-only
/*
 * Saving and restoring the ranges a writing test overwrites.  The format
 * of the journal and the fingerprint are described in preserve.h.
 *
 * The order of events is what makes it safe: the journal is written to a
 * temporary name, fsync'd, renamed into place and its directory fsync'd
 * before preserve_save() returns, so the device is never written while
 * the only copy of its data is in memory.  The journal goes only after
 * the data has been written back, flushed to the device and read back
 * equal.
 *
 * This file takes the fingerprint, saves, and loads a journal for
 * --restore; struct preserve itself (made, freed, its I/O)
 * is in core.c, the hashing in hash.c, what the ranges hold in state.c,
 * the lazy save and the guard in guard.c, the journal's format in
 * journal.c, writing back and verifying in restore.c (what they share:
 * presint.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "presint.h"

/* Fingerprint windows: first and last MiB, and samples in between. */
#define FP_EDGE_BYTE		(1024 * 1024)
#define FP_SAMPLES		30
#define FP_SAMPLE_BYTE		(64 * 1024)

/* ---- small helpers ---- */

/* Is every range non-empty, block-aligned and inside dev? */
static int check_ranges(const struct device *dev,
			const struct preserve_range *r, size_t n, char *why,
			size_t why_len)
{
	uint64_t lbs = dev->logical_block_size;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!r[i].len_byte || r[i].off_byte % lbs ||
		    r[i].len_byte % lbs || r[i].off_byte > dev->size_byte ||
		    r[i].len_byte > dev->size_byte - r[i].off_byte)
			return say(why, why_len, -EINVAL,
				   "bytes %" PRIu64 "-%" PRIu64
				   " are not whole %" PRIu64
				   "-byte blocks inside %s (%" PRIu64
				   " bytes)",
				   r[i].off_byte,
				   r[i].off_byte + r[i].len_byte, lbs,
				   dev->path, dev->size_byte);
	}
	return 0;
}

int preserve_journal_name(char *buf, size_t len, const char *dev_path)
{
	const char *base = strrchr(dev_path, '/');
	size_t i, at;
	int n;

	base = base ? base + 1 : dev_path;
	if (!*base)
		base = "device";
	n = snprintf(buf, len, "./flashbench-%s.journal", base);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	at = strlen("./flashbench-");
	for (i = 0; base[i]; i++) {
		char c = base[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '.' || c == '-' ||
		      c == '_'))
			buf[at + i] = '_';
	}
	return 0;
}

/* ---- fingerprint ---- */

/* Zero the bytes of buf (holding [off, off + len)) that lie in ranges. */
static void mask_ranges(unsigned char *buf, uint64_t off, uint64_t len,
			const struct preserve_range *r, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t a = max(off, r[i].off_byte);
		uint64_t b = min(off + len, r[i].off_byte + r[i].len_byte);

		if (a < b)
			memset(buf + (a - off), 0, b - a);
	}
}

/*
 * Hash one window of dev into h, ranges masked; returns 0 or -errno.
 * With fp_count, count in fp_aliased its blocks that hold what the run
 * wrote at a block of the ranges (pv_wix_foreign()).
 */
static int fp_window(struct phash *h, struct preserve *p, uint64_t off,
		     uint64_t len, char *why, size_t why_len)
{
	uint64_t done, step;

	pv_ph_u64(h, off);
	pv_ph_u64(h, len);
	for (done = 0; done < len; done += step) {
		int ret;

		step = min((uint64_t)p->chunk_byte, len - done);
		ret = pv_io(p, 0, p->buf, off + done, step, "reading", why,
			    why_len);
		if (ret)
			return ret;
		mask_ranges(p->buf, off + done, step, p->r, p->n);
		pv_ph_update(h, p->buf, step);
		if (p->fp_count) {
			uint64_t k;

			for (k = 0; k + p->lbs <= step; k += p->lbs)
				if (pv_wix_foreign(p, off + done + k,
						   p->buf + k))
					p->fp_aliased++;
		}
	}
	return 0;
}

/* The fingerprint of p->dev with p's ranges masked (see preserve.h). */
static int fingerprint(struct preserve *p, uint64_t *fp, char *why,
		       size_t why_len)
{
	uint64_t size = p->dev->size_byte, lbs = p->dev->logical_block_size;
	uint64_t edge = min(max((uint64_t)FP_EDGE_BYTE, lbs), size);
	uint64_t sample = max((uint64_t)FP_SAMPLE_BYTE, lbs);
	struct phash h;
	int ret, k;

	pv_ph_init(&h, 0x666c617368ULL);
	pv_ph_u64(&h, size);
	pv_ph_u64(&h, lbs);
	ret = fp_window(&h, p, 0, edge, why, why_len);
	for (k = 1; !ret && k <= FP_SAMPLES; k++) {
		uint64_t off = size / (FP_SAMPLES + 1) * (uint64_t)k;

		off -= off % lbs;
		ret = fp_window(&h, p, off, min(sample, size - off), why,
				why_len);
	}
	if (!ret)
		ret = fp_window(&h, p, size - edge, edge, why, why_len);
	*fp = pv_ph_final(&h);
	return ret;
}

/* ---- save ---- */

/* Read every range of p from its device; returns 0 or -errno. */
static int read_ranges(struct preserve *p, char *why, size_t why_len)
{
	uint64_t done, step;
	size_t i;
	int ret;

	for (i = 0; i < p->n; i++) {
		struct preserve_range *r = &p->r[i];

		for (done = 0; done < r->len_byte; done += step) {
			step = min((uint64_t)p->chunk_byte, r->len_byte - done);
			ret = pv_io(p, 0, r->data + done, r->off_byte + done,
				    step, "saving", why, why_len);
			if (ret)
				return ret;
		}
		r->hash = pv_range_hash(r);
		r->saved = 1;
	}
	return 0;
}

/* Save nothing yet, with the hash of each range's place. */
static int plan_ranges(struct preserve *p)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		p->r[i].hash = pv_plan_hash(&p->r[i]);
	return 0;
}

/* What kind of file path (which exists) is, for a message. */
static const char *file_kind(const struct stat *st)
{
	if (S_ISBLK(st->st_mode))
		return "a block device";
	if (S_ISCHR(st->st_mode))
		return "a character device";
	if (S_ISDIR(st->st_mode))
		return "a directory";
	return "not a regular file";
}

/* Does the regular file at path begin like a journal? */
static int looks_like_journal(const char *path)
{
	char magic[J_MAGIC_BYTE];
	FILE *f = fopen(path, "rbe");
	int yes;

	if (!f)
		return 0;
	yes = fread(magic, 1, sizeof(magic), f) == sizeof(magic) &&
	      !memcmp(magic, J_MAGIC, J_MAGIC_BYTE);
	fclose(f);
	return yes;
}

/*
 * An existing path is never replaced, but only a journal is worth
 * restoring: say which it is.
 */
int preserve_check_journal(const char *path, char *why, size_t why_len)
{
	struct stat st;
	int dangling;

	if (lstat(path, &st)) {
		if (errno == ENOENT)
			return 0;
		return say(why, why_len, -errno, "cannot use journal %s: %s",
			   path, strerror(errno));
	}
	dangling = stat(path, &st) != 0;
	if (dangling || !S_ISREG(st.st_mode))
		return say(why, why_len, -EEXIST,
			   "journal %s is %s: a journal is a new regular file (on another disk than the card)",
			   path, dangling ? "a link to nothing" :
			   file_kind(&st));
	if (!looks_like_journal(path))
		return say(why, why_len, -EEXIST,
			   "journal %s exists and is not a flashbench journal: give --journal a new file (this one is left alone)",
			   path);
	return say(why, why_len, -EEXIST,
		   "journal %s already exists and holds the data of an earlier run: put it back with --restore=%s first (or give another --journal)",
		   path, path);
}

/* How many pieces of at most piece bytes range r is cut into (1 if empty). */
static size_t pieces(const struct bench_range *r, uint64_t piece)
{
	uint64_t len = r->end_byte > r->start_byte ?
		       r->end_byte - r->start_byte : 0;

	return len > piece ? (size_t)((len - 1) / piece + 1) : 1;
}

static int save_in(struct preserve **pp, struct device *dev,
		   const struct bench_range *ranges, size_t n,
		   const char *journal_path, int sparse, char *why,
		   size_t why_len)
{
	struct preserve *p;
	uint64_t piece;
	size_t i, m;
	int ret, lazy;

	*pp = NULL;
	if (why && why_len)
		why[0] = '\0';
	if (!dev || !ranges || !n || !journal_path || !*journal_path)
		return say(why, why_len, -EINVAL, "nothing to preserve");
	ret = preserve_check_journal(journal_path, why, why_len);
	if (ret)
		return ret;
	/*
	 * For a sparse test behind a guard, each range is saved when first
	 * written, in pieces of a chunk: a run that writes one block of a
	 * long range (the estimate's timing in -C's flush region) reads
	 * that piece alone.  Any other test's ranges are all read now.
	 */
	lazy = sparse && pv_find_guard(dev) && !pv_find_guard(dev)->p;
	piece = lazy ? max((uint64_t)PRESERVE_CHUNK,
			  (uint64_t)dev->logical_block_size) :
		       UINT64_MAX;
	for (m = 0, i = 0; i < n; i++)
		m += pieces(&ranges[i], piece);
	p = pv_preserve_alloc(m, dev->logical_block_size);
	if (!p)
		return -ENOMEM;
	p->dev = dev;
	for (m = 0, i = 0; i < n; i++) {
		uint64_t off = ranges[i].start_byte, end = ranges[i].end_byte;

		do {
			p->r[m].off_byte = off;
			p->r[m].cont = off > ranges[i].start_byte;
			if (end > off)
				p->r[m].len_byte = min(piece, end - off);
			off += p->r[m++].len_byte;
		} while (off < end);
	}
	p->n = m;
	ret = check_ranges(dev, p->r, m, why, why_len);
	if (ret)
		goto out_free;
	ret = -ENOMEM;
	p->journal = strdup(journal_path);
	if (!p->journal)
		goto out_free;
	for (i = 0; i < m; i++) {
		struct preserve_range all;

		if (p->r[i].cont) {
			p->r[i].data = p->r[i - 1].data + p->r[i - 1].len_byte;
			continue;
		}
		all = pv_piece_group(p, i);
		if (all.len_byte > SIZE_MAX)
			goto out_free;
		p->r[i].data = dev_alloc_buf((size_t)all.len_byte);
		if (!p->r[i].data) {
			say(why, why_len, ret,
			    "no memory to save %" PRIu64 " bytes",
			    all.len_byte);
			goto out_free;
		}
		p->total_byte += all.len_byte;
	}
	p->lazy = lazy;
	pv_file_offsets(p);
	dev_untimed(dev, 1);
	ret = p->lazy ? plan_ranges(p) : read_ranges(p, why, why_len);
	if (!ret)
		ret = fingerprint(p, &p->fingerprint, why, why_len);
	if (!ret)
		ret = pv_state_alloc(p);
	if (!ret && !p->lazy)
		pv_state_init(p);
	dev_untimed(dev, 0);
	if (!ret)
		ret = pv_journal_write(p, why, why_len);
	if (ret)
		goto out_free;
	pv_guard_attach(p, dev);
	*pp = p;
	return 0;

out_free:
	preserve_free(p);
	return ret;
}

int preserve_save(struct preserve **pp, struct device *dev,
		  const struct bench_range *ranges, size_t n,
		  const char *journal_path, char *why, size_t why_len)
{
	return save_in(pp, dev, ranges, n, journal_path, 0, why, why_len);
}

int preserve_save_sparse(struct preserve **pp, struct device *dev,
			 const struct bench_range *ranges, size_t n,
			 const char *journal_path, char *why, size_t why_len)
{
	return save_in(pp, dev, ranges, n, journal_path, 1, why, why_len);
}

/* ---- load a journal for --restore ---- */

/*
 * Before --restore writes: does dev still hold what the interrupted run
 * wrote (unless force)?  Then open the journal to record the restore.
 * Returns 0 or -ESTALE.
 */
static int check_contents(struct preserve *p, int force, char *why,
			  size_t why_len)
{
	int ret = 0;

	/* the state may have lost its latest notes: restore every block */
	p->every = force;
	if (!p->state && !force)
		return say(why, why_len, -ESTALE,
			   "journal %s was written by an older flashbench (version 1), which did not note what the run wrote: whether %s was written since cannot be checked; --force restores anyway",
			   p->journal, p->dev->path);
	if (!p->state)
		return 0;
	if (!force) {
		dev_untimed(p->dev, 1);
		ret = pv_state_check(p, why, why_len);
		dev_untimed(p->dev, 0);
	}
	if (!ret)
		p->jfd = open(p->journal, O_WRONLY | O_CLOEXEC);
	return ret;
}

/*
 * The fingerprint differs: is it a card that aliases, with the run's
 * writes still in the ranges?  Its writes then show at other addresses
 * too, some in the fingerprint's windows; another device cannot hold
 * what this run wrote.  Needs the state and no force.
 */
static int aliased_run(struct preserve *p, int force)
{
	char why[16];
	uint64_t fp;
	int ret;

	if (force || !p->state)
		return 0;
	dev_untimed(p->dev, 1);
	ret = pv_state_check(p, why, sizeof(why));
	/*
	 * Saved lazily, the ranges the run never wrote were never read,
	 * and a wraparound may show the run's writes only outside those
	 * it wrote: in the fingerprint's windows, found by content.
	 */
	if (!ret && p->lazy && !p->aliased && p->run_held) {
		p->fp_count = 1;
		p->fp_aliased = 0;
		ret = fingerprint(p, &fp, why, sizeof(why));
		p->fp_count = 0;
	}
	dev_untimed(p->dev, 0);
	return !ret && (p->aliased || p->fp_aliased) && p->run_held;
}

int preserve_load_journal(struct preserve **pp, const char *journal,
			  struct device *dev, int force, char *why,
			  size_t why_len)
{
	struct journal_info ji = { 0 };
	struct preserve *p;
	uint64_t fp = 0;
	int ret;

	*pp = NULL;
	if (why && why_len)
		why[0] = '\0';
	if (!journal || !dev)
		return -EINVAL;
	ret = pv_journal_load(journal, &p, &ji, why, why_len);
	if (ret)
		return ret;
	if (ji.size_byte != dev->size_byte ||
	    ji.lbs != dev->logical_block_size) {
		ret = say(why, why_len, -ESTALE,
			  "journal %s belongs to another device: it was made on %"
			  PRIu64 " bytes of %" PRIu32 "-byte blocks, %s has %"
			  PRIu64 " bytes of %u-byte blocks",
			  journal, ji.size_byte, ji.lbs, dev->path,
			  dev->size_byte,
			  dev->logical_block_size);
		goto out_free;
	}
	p->dev = dev;
	ret = check_ranges(dev, p->r, p->n, why, why_len);
	if (ret)
		goto out_free;
	dev_untimed(dev, 1);
	ret = fingerprint(p, &fp, why, why_len);
	dev_untimed(dev, 0);
	if (ret)
		goto out_free;
	if (fp != p->fingerprint && !aliased_run(p, force)) {
		ret = say(why, why_len, -ESTALE,
			  "journal %s belongs to another device: the contents of %s outside the saved ranges differ from the device it was made on",
			  journal, dev->path);
		goto out_free;
	}
	ret = check_contents(p, force, why, why_len);
	if (ret)
		goto out_free;
	*pp = p;
	return 0;

out_free:
	preserve_free(p);
	return ret;
}
