// SPDX-License-Identifier: GPL-2.0-only
/*
 * --time-ops: count each I/O call and its device time, by kind.
 *
 * In the test the device's own clock times each call: on the simulated
 * card its virtual clock, so the check's reads, writes and flushes add
 * up to the device time it reports.  --preserve's save and write-back
 * are untimed there (they must not disturb the measurements); the
 * simulated card still tells what they would have cost, and that is what
 * is counted for them.  On a real device every clock is the wall clock.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "capacity.h"
#include "format.h"
#include "json.h"
#include "preserve.h"
#include "recbody.h"
#include "rectab.h"
#include "sim.h"
#include "timeops.h"

struct timeops_dev {
	struct device dev;	/* must be first */
	struct timeops *t;
};

/* The clock of the phase: what untimed I/O costs too, where known. */
static uint64_t timeops_clock(const struct timeops_dev *w)
{
	uint64_t ns;

	if (w->t->phase != TIMEOPS_TEST && sim_total_ns(w->t->backend, &ns))
		return ns;
	return dev_now_ns(w->dev.inner);
}

/* What untimed I/O has cost the simulated card so far (else 0). */
static uint64_t timeops_untimed(const struct timeops *t)
{
	uint64_t ns;

	if (!sim_total_ns(t->backend, &ns))
		return 0;
	return ns - dev_now_ns(t->backend);
}

/* What an I/O of the phase is. */
static enum timeops_kind timeops_kind_of(const struct timeops *t, int write,
					 uint64_t off)
{
	if (t->phase == TIMEOPS_SAVE)
		return TIMEOPS_SAVE_READ;
	if (t->phase == TIMEOPS_TIMING)
		return TIMEOPS_TIMING_IO;
	if (t->phase == TIMEOPS_BACK)
		return write ? TIMEOPS_WRITE_BACK : TIMEOPS_VERIFY;
	if (!write)
		return TIMEOPS_READ;
	return off >= t->flush_lo && off < t->flush_hi ? TIMEOPS_FLUSH :
							   TIMEOPS_WRITE;
}

/* Forward one call and count it. */
static int timeops_io(struct device *d, int write, void *buf, size_t len,
		      off_t off)
{
	struct timeops_dev *w = (struct timeops_dev *)d;
	uint64_t t0 = timeops_clock(w), c0, b0, p0, c1, b1, p1, u0;
	int lazy = write && preserve_lazy_io(d->inner, &c0, &b0, &p0);
	enum timeops_kind k;
	int ret;

	u0 = lazy ? timeops_untimed(w->t) : 0;
	if (write)
		ret = dev_write(d->inner, buf, len, off, NULL);
	else
		ret = dev_read(d->inner, buf, len, off, NULL);
	k = timeops_kind_of(w->t, write, (uint64_t)off);
	w->t->n[k]++;
	w->t->byte[k] += len;
	w->t->ns[k] += timeops_clock(w) - t0;
	/*
	 * --preserve saving lazily: a write first into a range saves it
	 * first, below, untimed; counted as the save, with what the
	 * simulated card says it cost (else the guard's time off the
	 * clock), and not as the write's where the phase's clock has it
	 */
	if (lazy) {
		preserve_lazy_io(d->inner, &c1, &b1, &p1);
		if (c1 != c0) {
			uint64_t save = timeops_untimed(w->t) - u0;

			if (!save)
				save = p1 - p0;
			w->t->n[TIMEOPS_SAVE_READ] += c1 - c0;
			w->t->byte[TIMEOPS_SAVE_READ] += b1 - b0;
			w->t->ns[TIMEOPS_SAVE_READ] += save;
			if (w->t->phase != TIMEOPS_TEST &&
			    w->t->ns[k] >= save)
				w->t->ns[k] -= save;
		}
	}
	return ret;
}

static int timeops_read(struct device *d, void *buf, size_t len, off_t off)
{
	return timeops_io(d, 0, buf, len, off);
}

static int timeops_write(struct device *d, const void *buf, size_t len,
			 off_t off)
{
	return timeops_io(d, 1, (void *)buf, len, off);
}

static int timeops_discard(struct device *d, off_t off, uint64_t len)
{
	return dev_discard(d->inner, off, len, NULL);
}

static const struct dev_ops timeops_ops = {
	.read = timeops_read,
	.write = timeops_write,
	.discard = timeops_discard,
	.now_ns = dev_fwd_now_ns,
	.destroy = dev_fwd_destroy,
};

struct device *timeops_attach(struct timeops *t, struct device *dev)
{
	struct timeops_dev *w = dev_wrap_new(sizeof(*w), &timeops_ops, dev);
	struct device *b = dev;

	memset(t, 0, sizeof(*t));
	if (!w)
		return dev;
	while (b->inner)
		b = b->inner;
	t->backend = b;
	/* the check's own flush region (--flush not applied, as before) */
	if (capacity_flush_region(dev->size_byte, 0, &t->flush_lo,
				  &t->flush_hi))
		t->flush_lo = t->flush_hi = 0;
	w->t = t;
	return &w->dev;
}

void timeops_phase(struct timeops *t, enum timeops_phase phase)
{
	t->phase = phase;
}

void timeops_print(FILE *out, const struct timeops *t)
{
	static const char *const label[TIMEOPS_NR] = {
		"reads", "writes", "flushes", "save", "write-back", "verify",
		"timing",
	};
	char a[FMT_LEN], b[FMT_LEN], c[FMT_LEN];
	uint64_t n = 0, ns = 0;
	int k;

	fprintf(out, "time per operation (device time):\n");
	for (k = 0; k < TIMEOPS_NR; k++) {
		n += t->n[k];
		ns += t->ns[k];
		fprintf(out, "  %-11s %7" PRIu64 " of %9s in %9s", label[k],
			t->n[k], fmt_size(b, t->byte[k]),
			fmt_time(a, (int64_t)t->ns[k]));
		if (t->n[k])
			fprintf(out, ", %s each",
				fmt_time(c, (int64_t)(t->ns[k] / t->n[k])));
		fputc('\n', out);
	}
	fprintf(out, "  %-11s %7" PRIu64 " in %s\n", "in all", n,
		fmt_time(a, (int64_t)ns));
}

void timeops_json(struct json *j, const struct timeops *t)
{
	struct timeops_rec r;
	int k;

	for (k = 0; k < TIMEOPS_NR; k++) {
		r.k[k].n = t->n[k];
		r.k[k].byte = t->byte[k];
		r.k[k].ns = t->ns[k];
	}
	rt_write_object(j, BODY_KEY(RM_TIME_OPS), &timeops_table, &r);
}
