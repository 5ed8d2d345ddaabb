// SPDX-License-Identifier: GPL-2.0-only
/*
 * The core every other file of safety/ stands on: struct preserve made
 * and freed, the pieces of one announced range taken as one, and the
 * device I/O that says which bytes failed.  It calls nothing in
 * safety/ but what it defines, so the files above it (state, guard,
 * journal, preserve, restore) never call each other round a circle.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "presint.h"

/* An empty preserve for n ranges on a device of lbs-byte blocks. */
struct preserve *pv_preserve_alloc(size_t n, uint64_t lbs)
{
	struct preserve *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->chunk_byte = (size_t)max((uint64_t)PRESERVE_CHUNK, lbs);
	p->lbs = (unsigned int)lbs;
	p->jfd = -1;
	p->r = calloc(n ? n : 1, sizeof(*p->r));
	p->buf = dev_alloc_buf(p->chunk_byte);
	if (!p->r || !p->buf) {
		preserve_free(p);
		return NULL;
	}
	return p;
}

/*
 * The pieces one announced range was cut into (preserve_save()), from
 * r[i], as one range: its length, data and blocks span them all; saved
 * when every piece is.  *end, when not NULL, gets the index past them.
 */
struct preserve_range pv_piece_group_end(const struct preserve *p,
					 size_t i, size_t *end)
{
	struct preserve_range g = p->r[i];
	size_t j;

	for (j = i + 1; j < p->n && p->r[j].cont; j++) {
		g.len_byte += p->r[j].len_byte;
		g.saved = g.saved && p->r[j].saved;
	}
	if (end)
		*end = j;
	return g;
}

struct preserve_range pv_piece_group(const struct preserve *p, size_t i)
{
	return pv_piece_group_end(p, i, NULL);
}

/* Stop recording writes for p. */
void pv_guard_detach(struct preserve *p)
{
	if (!p->guard)
		return;
	p->guard->p = NULL;
	p->guard = NULL;
}

void preserve_free(struct preserve *p)
{
	size_t i;

	if (!p)
		return;
	pv_guard_detach(p);
	if (p->jfd >= 0)
		close(p->jfd);
	free(p->state);
	free(p->mark);
	free(p->loss);
	free(p->ix);
	free(p->saved_h);
	free(p->wix);
	for (i = 0; p->r && i < p->n; i++)
		if (!p->r[i].cont)
			dev_free_buf(p->r[i].data);
	free(p->r);
	dev_free_buf(p->buf);
	free(p->journal);
	free(p);
}

uint64_t preserve_bytes(const struct preserve *p)
{
	return p->total_byte;
}

const char *preserve_journal(const struct preserve *p)
{
	return p->journal;
}

/*
 * Read (or write) len bytes at byte off of p's device from (or into)
 * buf; 0, or -errno with why saying "WHAT bytes A-B of DEVICE: error".
 */
int pv_io(struct preserve *p, int write, void *buf, uint64_t off,
	  uint64_t len, const char *what, char *why, size_t why_len)
{
	int ret = write ? dev_write(p->dev, buf, len, (off_t)off, NULL) :
			  dev_read(p->dev, buf, len, (off_t)off, NULL);

	if (ret)
		say(why, why_len, ret, "%s bytes %" PRIu64 "-%" PRIu64
		    " of %s: %s", what, off, off + len, p->dev->path,
		    strerror(-ret));
	return ret;
}
