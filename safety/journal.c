// SPDX-License-Identifier: GPL-2.0-only
/*
 * The journal on disk (its format is described in preserve.h): written
 * durably under a temporary name, then given its own name without
 * replacing anything; read back and checked (header, records, trailer
 * and state) for --restore.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "presint.h"

/* ---- the journal ---- */

/* fsync the directory holding path; returns 0 or -errno. */
int pv_sync_dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir;
	int fd, ret = 0;

	if (!slash)
		dir = strdup(".");
	else if (slash == path)
		dir = strdup("/");
	else
		dir = strndup(path, (size_t)(slash - path));
	if (!dir)
		return -ENOMEM;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || fsync(fd))
		ret = -errno;
	if (fd >= 0)
		close(fd);
	free(dir);
	return ret;
}

/* Build the header for p into hdr[J_HDR_BYTE]. */
static void journal_header(const struct preserve *p, unsigned char *hdr)
{
	struct phash h;

	memset(hdr, 0, J_HDR_BYTE);
	memcpy(hdr, J_MAGIC, J_MAGIC_BYTE);
	put_le32(hdr + 8, p->lazy ? J_LAZY_VERSION : 2);
	put_le32(hdr + 12, p->dev->logical_block_size);
	put_le64(hdr + 16, p->dev->size_byte);
	put_le64(hdr + 24, p->fingerprint);
	put_le64(hdr + 32, p->n);
	put_le64(hdr + 40, p->total_byte);
	put_le64(hdr + 48, (uint64_t)time(NULL));
	if (p->dev->path)
		strncpy((char *)hdr + 56, p->dev->path, J_PATH_BYTE - 1);
	pv_ph_init(&h, 0);
	pv_ph_update(&h, hdr, J_HDR_HASHED);
	put_le64(hdr + J_HDR_HASHED, pv_ph_final(&h));
}

/* Where the state's entries start in a journal of p's ranges. */
static uint64_t state_offset(const struct preserve *p)
{
	return J_HDR_BYTE + p->n * J_REC_BYTE + p->total_byte +
	       J_TRAILER_BYTE + J_STATE_HEAD_BYTE;
}

/* Note where each range's data lies in the journal. */
void pv_file_offsets(struct preserve *p)
{
	uint64_t at = J_HDR_BYTE;
	size_t i;

	for (i = 0; i < p->n; i++) {
		p->r[i].file_off = at + J_REC_BYTE;
		at += J_REC_BYTE + p->r[i].len_byte;
	}
}

/* Write the state section to f; returns 0 or -errno. */
static int state_put_all(const struct preserve *p, FILE *f)
{
	unsigned char b[J_LAZY_ENTRY_BYTE];
	uint64_t k;

	memcpy(b, J_STATE_MAGIC, J_MAGIC_BYTE);
	put_le64(b + 8, p->nblocks);
	if (fwrite(b, J_STATE_HEAD_BYTE, 1, f) != 1)
		return -errno;
	for (k = 0; k < p->nblocks; k++) {
		pv_put_entry(p, k, b);
		if (fwrite(b, pv_entry_byte(p), 1, f) != 1)
			return -errno;
	}
	return 0;
}

/* Write header, records, trailer and state to f; 0 or -errno. */
static int journal_put(const struct preserve *p, FILE *f)
{
	unsigned char hdr[J_HDR_BYTE], rec[J_REC_BYTE];
	struct phash chain;
	size_t i;

	journal_header(p, hdr);
	pv_ph_init(&chain, 0);
	pv_ph_update(&chain, hdr + J_HDR_HASHED, 8);
	if (fwrite(hdr, sizeof(hdr), 1, f) != 1)
		return -errno;
	for (i = 0; i < p->n; i++) {
		put_le64(rec, p->r[i].off_byte);
		put_le64(rec + 8, p->r[i].len_byte);
		put_le64(rec + 16, p->r[i].hash);
		pv_ph_u64(&chain, p->r[i].hash);
		if (fwrite(rec, sizeof(rec), 1, f) != 1)
			return -errno;
		/* unsaved: a hole, filled when saved (save_range()) */
		if (!p->r[i].saved &&
		    fseeko(f, (off_t)p->r[i].len_byte, SEEK_CUR))
			return -errno;
		if (p->r[i].saved &&
		    fwrite(p->r[i].data, p->r[i].len_byte, 1, f) != 1)
			return -errno;
	}
	memcpy(rec, J_END_MAGIC, J_MAGIC_BYTE);
	put_le64(rec + 8, p->n);
	put_le64(rec + 16, pv_ph_final(&chain));
	if (fwrite(rec, sizeof(rec), 1, f) != 1)
		return -errno;
	return state_put_all(p, f);
}

/*
 * Give the finished journal tmp its name without ever replacing a
 * journal that appeared meanwhile: link() refuses an existing name
 * atomically; where the file system has no hard links (vfat), check
 * and rename.  Returns 0 or -errno (-EEXIST).
 */
static int journal_place(const char *tmp, const char *journal)
{
	if (!link(tmp, journal)) {
		unlink(tmp);
		return 0;
	}
	if (errno == EEXIST || !access(journal, F_OK))
		return -EEXIST;
	return rename(tmp, journal) ? -errno : 0;
}

/* "JOURNAL.tmp", malloc'd; NULL when out of memory. */
static char *tmp_name(const char *journal)
{
	char *tmp;

	return asprintf(&tmp, "%s.tmp", journal) < 0 ? NULL : tmp;
}

/*
 * Write p's journal durably: to "JOURNAL.tmp", fsync, give it its name
 * without replacing anything, fsync the directory.  Returns 0 or -errno.
 */
int pv_journal_write(struct preserve *p, char *why, size_t why_len)
{
	char *tmp;
	FILE *f;
	int fd, ret;

	tmp = tmp_name(p->journal);
	if (!tmp)
		return -ENOMEM;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		ret = say(why, why_len, -errno, "cannot create %s: %s", tmp,
			  strerror(errno));
		goto out_free_tmp;
	}
	f = fdopen(fd, "w");
	if (!f) {
		ret = -errno;
		close(fd);
		goto out_unlink;
	}
	ret = journal_put(p, f);
	if (!ret && (fflush(f) || fsync(fileno(f))))
		ret = -errno;
	/* kept open: the state is updated as the test writes */
	p->jfd = ret ? -1 : fcntl(fileno(f), F_DUPFD_CLOEXEC, 0);
	p->state_off = state_offset(p);
	if (fclose(f) && !ret)
		ret = -errno;
	if (ret) {
		say(why, why_len, ret, "writing journal %s: %s", tmp,
		    strerror(-ret));
		goto out_unlink;
	}
	ret = journal_place(tmp, p->journal);
	if (ret) {
		say(why, why_len, ret, "cannot rename %s to %s: %s", tmp,
		    p->journal, strerror(-ret));
		goto out_unlink;
	}
	ret = pv_sync_dir_of(p->journal);
	if (ret) {
		say(why, why_len, ret, "syncing the directory of %s: %s",
		    p->journal, strerror(-ret));
		unlink(p->journal);
	}
	goto out_free_tmp;

out_unlink:
	unlink(tmp);
out_free_tmp:
	free(tmp);
	return ret;
}

/* ---- reading it back ---- */

/* Read exactly len bytes from f; returns 0 or -EINVAL when short. */
static int get_bytes(FILE *f, void *buf, size_t len)
{
	return fread(buf, 1, len, f) == len ? 0 : -EINVAL;
}

/* Read and check the header into *ji.  Returns 0 or -EINVAL. */
static int journal_get_header(FILE *f, uint64_t file_byte,
			      const char *journal, struct journal_info *ji,
			      char *why, size_t why_len)
{
	unsigned char hdr[J_HDR_BYTE];
	struct phash h;

	if (get_bytes(f, hdr, sizeof(hdr)))
		return say(why, why_len, -EINVAL,
			   "%s is too short for a flashbench journal",
			   journal);
	if (memcmp(hdr, J_MAGIC, J_MAGIC_BYTE))
		return say(why, why_len, -EINVAL,
			   "%s is not a flashbench journal", journal);
	ji->version = get_le32(hdr + 8);
	if (ji->version < 1 || ji->version > PRESERVE_VERSION)
		return say(why, why_len, -EINVAL,
			   "%s is a version %" PRIu32
			   " journal; this flashbench reads versions 1 to %d",
			   journal, ji->version, PRESERVE_VERSION);
	pv_ph_init(&h, 0);
	pv_ph_update(&h, hdr, J_HDR_HASHED);
	ji->hdr_hash = get_le64(hdr + J_HDR_HASHED);
	if (pv_ph_final(&h) != ji->hdr_hash)
		return say(why, why_len, -EINVAL,
			   "the header of journal %s is corrupt", journal);
	ji->lbs = get_le32(hdr + 12);
	ji->size_byte = get_le64(hdr + 16);
	ji->fingerprint = get_le64(hdr + 24);
	ji->nr = get_le64(hdr + 32);
	ji->total_byte = get_le64(hdr + 40);
	if (ji->lbs < 512 || ji->lbs > (1U << 26) ||
	    (ji->lbs & (ji->lbs - 1)))
		return say(why, why_len, -EINVAL,
			   "journal %s is damaged: block size %" PRIu32,
			   journal, ji->lbs);
	/* the size must be exactly header + records + data + trailer,
	 * and from version 2 on the state: 16 bytes for every block */
	if (!ji->nr || ji->nr > file_byte / J_REC_BYTE ||
	    ji->total_byte > file_byte ||
	    (ji->version > 1 && ji->total_byte % ji->lbs) ||
	    J_HDR_BYTE + ji->nr * J_REC_BYTE + ji->total_byte +
			    J_TRAILER_BYTE +
			    (ji->version > 1 ? J_STATE_HEAD_BYTE +
			     ji->total_byte / ji->lbs *
			     (ji->version == J_LAZY_VERSION ?
			      J_LAZY_ENTRY_BYTE : J_ENTRY_BYTE) : 0) !=
		    file_byte)
		return say(why, why_len, -EINVAL,
			   "journal %s is truncated or damaged (%" PRIu64
			   " bytes where the header promises %" PRIu64
			   " ranges of %" PRIu64 " bytes)",
			   journal, file_byte, ji->nr, ji->total_byte);
	return 0;
}

/* Read and check records and trailer into p; returns 0 or -errno. */
static int journal_get_records(FILE *f, struct preserve *p, uint64_t nr,
			       uint64_t hdr_hash, char *why, size_t why_len)
{
	unsigned char rec[J_REC_BYTE];
	uint64_t left = p->total_byte;
	struct phash chain;
	size_t i;

	pv_ph_init(&chain, 0);
	pv_ph_u64(&chain, hdr_hash);
	for (i = 0; i < nr; i++) {
		struct preserve_range *r = &p->r[i];

		if (get_bytes(f, rec, sizeof(rec)))
			goto out_damaged;
		r->off_byte = get_le64(rec);
		r->len_byte = get_le64(rec + 8);
		if (!r->len_byte || r->len_byte > left ||
		    r->len_byte > SIZE_MAX)
			goto out_damaged;
		left -= r->len_byte;
		r->data = dev_alloc_buf((size_t)r->len_byte);
		if (!r->data)
			return -ENOMEM;
		p->n = i + 1;
		r->saved = !p->lazy;	/* version 3: saved_ranges() */
		if (get_bytes(f, r->data, (size_t)r->len_byte))
			goto out_damaged;
		r->hash = get_le64(rec + 16);
		/* version 3: each saved block's tag checks it (state) */
		if ((p->lazy ? pv_plan_hash(r) : pv_range_hash(r)) != r->hash)
			return say(why, why_len, -EINVAL,
				   "journal %s is corrupt: the data of bytes %"
				   PRIu64 "-%" PRIu64 " fail their checksum",
				   p->journal, r->off_byte,
				   r->off_byte + r->len_byte);
		pv_ph_u64(&chain, r->hash);
	}
	if (get_bytes(f, rec, sizeof(rec)) ||
	    memcmp(rec, J_END_MAGIC, J_MAGIC_BYTE) ||
	    get_le64(rec + 8) != nr ||
	    get_le64(rec + 16) != pv_ph_final(&chain))
		goto out_damaged;
	return 0;

out_damaged:
	return say(why, why_len, -EINVAL,
		   "journal %s is truncated or damaged", p->journal);
}

/*
 * Which ranges of a version 3 journal were saved: those whose every
 * block has a tag, and the tag must match the data.  A range with a tag
 * missing was cut short while being saved, before the run wrote there.
 * Returns 0 or -EINVAL (data that fails its tag).
 */
static int saved_ranges(struct preserve *p, char *why, size_t why_len)
{
	uint64_t k;
	size_t i;

	for (i = 0; i < p->n; i++) {
		struct preserve_range *r = &p->r[i];
		const uint64_t *t = p->saved_h + r->first_block;
		uint64_t nb = r->len_byte / p->lbs;

		for (k = 0; k < nb && t[k]; k++)
			;
		r->saved = k == nb;
		for (k = 0; r->saved && k < nb; k++)
			if (pv_saved_tag(r->off_byte + k * p->lbs,
					 r->data + k * p->lbs, p->lbs) != t[k])
				return say(why, why_len, -EINVAL,
					   "journal %s is corrupt: the data of bytes %"
					   PRIu64 "-%" PRIu64
					   " fail their checksum",
					   p->journal, r->off_byte,
					   r->off_byte + r->len_byte);
	}
	return 0;
}

/* Read the state section after the trailer; returns 0 or -errno. */
static int journal_get_state(FILE *f, struct preserve *p, char *why,
			     size_t why_len)
{
	/* the head, then each entry: 16 bytes, 24 saved lazily */
	unsigned char b[J_STATE_HEAD_BYTE > J_LAZY_ENTRY_BYTE ?
			J_STATE_HEAD_BYTE : J_LAZY_ENTRY_BYTE];
	uint64_t k;
	int ret = pv_state_alloc(p);

	if (ret)
		return ret;
	if (get_bytes(f, b, J_STATE_HEAD_BYTE) ||
	    memcmp(b, J_STATE_MAGIC, J_MAGIC_BYTE) ||
	    get_le64(b + 8) != p->nblocks)
		return say(why, why_len, -EINVAL,
			   "journal %s is truncated or damaged", p->journal);
	for (k = 0; k < p->nblocks; k++) {
		const unsigned char *e = b + (p->lazy ? 8 : 0);

		if (get_bytes(f, b, pv_entry_byte(p)))
			return say(why, why_len, -EINVAL,
				   "journal %s is truncated or damaged",
				   p->journal);
		if (p->lazy)
			p->saved_h[k] = get_le64(b);
		p->state[2 * k] = get_le64(e);
		p->state[2 * k + 1] = get_le64(e + 8);
	}
	p->state_off = state_offset(p);
	return p->lazy ? saved_ranges(p, why, why_len) : 0;
}

/* Load and check a whole journal; returns 0 or -errno. */
int pv_journal_load(const char *journal, struct preserve **pp,
		    struct journal_info *ji, char *why, size_t why_len)
{
	struct preserve *p = NULL;
	struct stat st;
	FILE *f;
	int ret;

	*pp = NULL;
	f = fopen(journal, "rbe");
	if (!f)
		return say(why, why_len, -errno, "cannot open journal %s: %s",
			   journal, strerror(errno));
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
		ret = say(why, why_len, -EINVAL, "%s is not a regular file",
			  journal);
		goto out_close;
	}
	ret = journal_get_header(f, (uint64_t)st.st_size, journal, ji, why,
				 why_len);
	if (ret)
		goto out_close;
	ret = -ENOMEM;
	p = pv_preserve_alloc((size_t)ji->nr, ji->lbs);
	if (!p)
		goto out_close;
	p->journal = strdup(journal);
	if (!p->journal)
		goto out_free;
	p->fingerprint = ji->fingerprint;
	p->total_byte = ji->total_byte;
	p->lazy = ji->version == J_LAZY_VERSION;
	ret = journal_get_records(f, p, ji->nr, ji->hdr_hash, why, why_len);
	if (!ret && ji->version > 1)
		ret = journal_get_state(f, p, why, why_len);
	else if (!ret)
		ret = pv_number_blocks(p);	/* version 1: all is restored */
	if (ret)
		goto out_free;
	*pp = p;
	goto out_close;

out_free:
	preserve_free(p);
out_close:
	fclose(f);
	return ret;
}

int preserve_journal_unfinished(const char *journal)
{
	char *tmp = tmp_name(journal);
	struct stat st;
	int ret;

	if (!tmp)
		return 0;
	ret = stat(journal, &st) && errno == ENOENT && !stat(tmp, &st) &&
	      S_ISREG(st.st_mode);
	free(tmp);
	return ret;
}

int preserve_drop_unfinished(const char *journal)
{
	char *tmp = tmp_name(journal);
	int ret = 0;

	if (!tmp)
		return -ENOMEM;
	if (unlink(tmp))
		ret = -errno;
	free(tmp);
	return ret;
}
