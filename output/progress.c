// SPDX-License-Identifier: GPL-2.0-only
/*
 * The progress line on a terminal.  See progress.h.
 *
 * Why a wrapper device whose clock does the work, rather than calls in
 * the tests' loops: dev_read() and friends count the call (io_count) and
 * then read the clock twice around the transfer.  The first reading of a
 * call is the only one that sees a new io_count, so the wrapper does its
 * work there, before the clock is read, and the second reading passes
 * straight through: nothing but the I/O itself stays inside the timed
 * region, and the tests need no code for progress at all.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "format.h"
#include "progress.h"

/*
 * What an I/O call costs besides its bytes, in bytes: cards take a few
 * hundred microseconds per command, as long as moving some 32 KiB.  Only
 * the time estimate depends on it.
 */
#define PROGRESS_CALL_BYTE	32768.0

/* The clock is read at most every this many calls... */
#define PROGRESS_MAX_STRIDE	65536
/* ...and the stride doubles while checks come faster than this. */
#define PROGRESS_CHECK_NS	5000000ULL

struct progress {
	FILE *tty;			/* where the line goes */
	int enabled;			/* a terminal and not quiet */
	unsigned int cols;		/* terminal width, characters */
	uint64_t (*now_ns)(void);	/* wall clock, ns */
	uint64_t created_ns;		/* when the run began */
	/* the current test */
	int started;			/* progress_start() ran */
	char name[32];			/* "--align" */
	char label[64];			/* the step shown */
	struct progress_seg *segs;	/* its segments, malloc'd */
	size_t nseg;
	double total_cost;		/* all segments, cost units */
	size_t cur;			/* segment of the last step */
	uint64_t cur_first_io;		/* first call of segment cur */
	double cost_before;		/* cost of the segments before cur */
	uint64_t start_ns;		/* when the test began */
	/* drawing */
	int shown;			/* a line is on the terminal */
	uint64_t drawn_ns;		/* when it was drawn */
	uint64_t next_check_io;		/* read the clock from this call */
	uint64_t stride;		/* calls between clock readings */
	uint64_t checked_ns;		/* last clock reading */
	/* the device followed: the wrapper below */
	struct device *dev;
	uint64_t base_io;		/* io_count when the test began */
	uint64_t last_io;		/* io_count the wrapper saw last */
};

/*
 * The progress wrapper: forwards everything to the device below and
 * counts the calls on its way to the clock.
 */
struct progress_dev {
	struct device dev;		/* must be first */
	struct progress *p;		/* the line it feeds */
};

struct progress *progress_new(FILE *tty, int quiet)
{
	struct progress *p = calloc(1, sizeof(*p));
	struct winsize ws;

	if (!p)
		return NULL;
	p->tty = tty;
	p->now_ns = dev_monotonic_ns;
	p->enabled = !quiet && tty && isatty(fileno(tty));
	p->cols = 80;
	if (p->enabled && ioctl(fileno(tty), TIOCGWINSZ, &ws) == 0 &&
	    ws.ws_col >= 20)
		p->cols = ws.ws_col;
	p->created_ns = p->now_ns();
	p->stride = 1;
	return p;
}

void progress_free(struct progress *p)
{
	if (!p)
		return;
	progress_done(p);
	if (p->dev)	/* still wrapped: the wrapper outlives the line */
		((struct progress_dev *)p->dev)->p = NULL;
	free(p);
}

int progress_enabled(const struct progress *p)
{
	return p && p->enabled;
}

void progress_set_clock(struct progress *p, uint64_t (*now_ns)(void))
{
	if (!p)
		return;
	p->now_ns = now_ns ? now_ns : dev_monotonic_ns;
	p->created_ns = p->now_ns();
}

/* The cost of one call of segment s, in cost units (bytes). */
static double seg_cost(const struct progress_seg *s)
{
	return (double)s->io_byte + PROGRESS_CALL_BYTE;
}

int progress_start(struct progress *p, const char *name,
		   const struct progress_seg *segs, size_t nseg)
{
	size_t i;

	if (!p)
		return 0;
	progress_done(p);
	if (nseg) {
		p->segs = malloc(nseg * sizeof(*segs));
		if (!p->segs)
			return -ENOMEM;
		memcpy(p->segs, segs, nseg * sizeof(*segs));
	}
	p->nseg = nseg;
	p->total_cost = 0;
	for (i = 0; i < nseg; i++)
		p->total_cost += (double)segs[i].n_io * seg_cost(&segs[i]);
	snprintf(p->name, sizeof(p->name), "%s", name);
	snprintf(p->label, sizeof(p->label), "%s",
		 nseg ? segs[0].label : "");
	p->cur = 0;
	p->cur_first_io = 0;
	p->cost_before = 0;
	p->next_check_io = 0;
	p->stride = 1;
	p->start_ns = p->now_ns();
	p->checked_ns = p->start_ns;
	p->base_io = p->dev ? p->dev->io_count : 0;
	p->started = 1;
	return 0;
}

/* "1:05", "1:02:03". */
static void fmt_clock(char *buf, size_t len, uint64_t ns)
{
	uint64_t s = ns / 1000000000ULL;

	if (s >= 3600)
		snprintf(buf, len, "%" PRIu64 ":%02u:%02u", s / 3600,
			 (unsigned int)(s / 60 % 60), (unsigned int)(s % 60));
	else
		snprintf(buf, len, "%u:%02u", (unsigned int)(s / 60),
			 (unsigned int)(s % 60));
}

/* The fraction of the test's cost that io_done calls account for. */
static double done_fraction(struct progress *p, uint64_t io_done)
{
	double cost;

	while (p->cur < p->nseg &&
	       io_done >= p->cur_first_io + p->segs[p->cur].n_io) {
		p->cost_before += (double)p->segs[p->cur].n_io *
				  seg_cost(&p->segs[p->cur]);
		p->cur_first_io += p->segs[p->cur].n_io;
		p->cur++;
	}
	cost = p->cost_before;
	if (p->cur < p->nseg) {
		cost += (double)(io_done - p->cur_first_io) *
			seg_cost(&p->segs[p->cur]);
		snprintf(p->label, sizeof(p->label), "%s",
			 p->segs[p->cur].label);
	}
	if (p->total_cost <= 0)
		return 0;
	return cost < p->total_cost ? cost / p->total_cost : 1;
}

/*
 * Fit "head, tail" into room bytes: the numbers in tail matter most, so
 * the head loses its "flashbench: " first, then its end (at a character
 * boundary), and tail is cut only when it alone is too wide.
 */
static void fit_line(char *line, size_t len, const char *head,
		     const char *tail, size_t room)
{
	size_t hn = strlen(head), tn = strlen(tail) + 2;

	if (hn + tn > room && !strncmp(head, "flashbench: ", 12)) {
		head += 12;
		hn -= 12;
	}
	if (tn >= room) {
		snprintf(line, len, "%.*s", (int)room, tail);
		return;
	}
	if (hn + tn > room) {
		hn = room - tn;
		while (hn && ((unsigned char)head[hn] & 0xc0) == 0x80)
			hn--;
	}
	snprintf(line, len, "%.*s, %s", (int)hn, head, tail);
}

/* Put the line on the terminal, cut to its width (see fit_line()). */
static void draw(struct progress *p, double frac, uint64_t now)
{
	uint64_t elapsed = now - p->start_ns;
	char line[256], head[160], tail[48], t[32];

	snprintf(head, sizeof(head), "flashbench: %s: %s", p->name,
		 p->label[0] || p->nseg ? p->label : "running");
	if (!p->nseg) {
		fmt_clock(t, sizeof(t), elapsed);
		snprintf(tail, sizeof(tail), "%s elapsed", t);
	} else if (frac >= 0.005 && frac < 1) {
		/* round up: "0:00 left" would be a promise */
		fmt_clock(t, sizeof(t),
			  (uint64_t)((double)elapsed * (1 - frac) / frac) +
				  999999999ULL);
		snprintf(tail, sizeof(tail), "%2d%%, %s left",
			 (int)(frac * 100), t);
	} else {
		snprintf(tail, sizeof(tail), "%2d%%", (int)(frac * 100));
	}
	fit_line(line, sizeof(line), head, tail, p->cols - 1);
	fprintf(p->tty, "\r%s\033[K", line);
	fflush(p->tty);
	p->shown = 1;
	p->drawn_ns = now;
}

void progress_step(struct progress *p, uint64_t io_done)
{
	uint64_t now;
	double frac;

	if (!p || !p->enabled || !p->started || io_done < p->next_check_io)
		return;
	now = p->now_ns();
	/* read the clock about every 5 ms, however fast the calls come */
	if (now - p->checked_ns < PROGRESS_CHECK_NS) {
		if (p->stride < PROGRESS_MAX_STRIDE)
			p->stride *= 2;
	} else if (p->stride > 1) {
		p->stride /= 2;
	}
	p->checked_ns = now;
	p->next_check_io = io_done + p->stride;
	if (now - p->created_ns < PROGRESS_DELAY_NS)
		return;
	if (p->shown && now - p->drawn_ns < PROGRESS_REDRAW_NS)
		return;
	frac = done_fraction(p, io_done);
	draw(p, frac, now);
}

void progress_label(struct progress *p, const char *text)
{
	if (!p)
		return;
	snprintf(p->label, sizeof(p->label), "%.*s",
		 (int)sizeof(p->label) - 1, text);
	if (p->shown)
		p->drawn_ns = 0;	/* show the new step at the next call */
}

/* Take the line off the terminal. */
static void clear_line(struct progress *p)
{
	if (!p->shown)
		return;
	fputs("\r\033[K", p->tty);
	fflush(p->tty);
	p->shown = 0;
}

void progress_clear(struct progress *p)
{
	if (p)
		clear_line(p);
}

void progress_done(struct progress *p)
{
	if (!p)
		return;
	clear_line(p);
	free(p->segs);
	p->segs = NULL;
	p->nseg = 0;
	p->started = 0;
	p->label[0] = '\0';
}

/* ---- following a device ---- */

/*
 * The clock of the device below, with the progress step of each new call
 * in front of its first reading: never between the two readings of a
 * timed transfer.
 */
static uint64_t pdev_now_ns(struct device *dev)
{
	struct progress *p = ((struct progress_dev *)dev)->p;

	if (p && dev->io_count != p->last_io) {
		p->last_io = dev->io_count;
		if (dev->io_count > p->base_io)
			progress_step(p, dev->io_count - p->base_io - 1);
	}
	return dev_fwd_now_ns(dev);
}

/* Closing the wrapper closes the device below, as for any wrapper. */
static void pdev_destroy(struct device *dev)
{
	struct progress_dev *w = (struct progress_dev *)dev;

	if (w->p)
		w->p->dev = NULL;
	dev_fwd_destroy(dev);
}

/* Every transfer forwarded as it is: the line follows the clock. */
static const struct dev_ops pdev_ops = {
	.read = dev_fwd_read,
	.write = dev_fwd_write,
	.discard = dev_fwd_discard,
	.batch = dev_fwd_batch,
	.now_ns = pdev_now_ns,
	.destroy = pdev_destroy,
};

struct device *progress_attach(struct progress *p, struct device *dev)
{
	struct progress_dev *w;

	if (!p || !p->enabled || p->dev || !dev)
		return dev;
	w = dev_wrap_new(sizeof(*w), &pdev_ops, dev);
	if (!w)
		return dev;	/* no line, the tests still run */
	w->p = p;
	p->dev = &w->dev;
	p->base_io = 0;
	p->last_io = 0;
	return &w->dev;
}

struct device *progress_detach(struct progress *p, struct device *dev)
{
	struct device *inner;

	if (!dev || dev->ops != &pdev_ops)
		return dev;
	inner = dev->inner;
	if (p && p->dev == dev)
		p->dev = NULL;
	free(dev);
	return inner;
}

/* ---- streams that share the terminal with the line ---- */

/* A stream in front of under (or of nothing, for a log). */
struct wrap {
	struct progress *p;
	FILE *under;		/* the wrapped stream, or NULL */
	int is_log;		/* lines are step names */
	char line[128];		/* a log line being collected */
	size_t len;
};

/* A complete log line: show it as the step, copy it to the log. */
static void log_line(struct wrap *w)
{
	const char *text = w->line;

	w->line[w->len] = '\0';
	w->len = 0;
	if (!strncmp(text, "auto: ", 6))
		text += 6;
	progress_label(w->p, text);
	if (w->under) {
		if (w->p)
			clear_line(w->p);
		fprintf(w->under, "flashbench: %s\n", w->line);
		fflush(w->under);
	}
}

static ssize_t wrap_write(void *cookie, const char *buf, size_t size)
{
	struct wrap *w = cookie;
	size_t i;

	if (!w->is_log) {
		clear_line(w->p);
		if (fwrite(buf, 1, size, w->under) != size ||
		    fflush(w->under) == EOF)
			return -1;
		return (ssize_t)size;
	}
	for (i = 0; i < size; i++) {
		if (buf[i] == '\n')
			log_line(w);
		else if (w->len < sizeof(w->line) - 1)
			w->line[w->len++] = buf[i];
	}
	return (ssize_t)size;
}

static int wrap_close(void *cookie)
{
	struct wrap *w = cookie;

	if (w->is_log && w->len)
		log_line(w);
	free(w);
	return 0;
}

/* The streams made here and what they wrap, to unwrap them again. */
#define PROGRESS_MAX_WRAPS 4
static struct {
	FILE *f;
	FILE *under;
} wraps[PROGRESS_MAX_WRAPS];

static FILE *wrap_open(struct progress *p, FILE *under, int is_log)
{
	cookie_io_functions_t io = {
		.write = wrap_write,
		.close = wrap_close,
	};
	struct wrap *w;
	size_t i;
	FILE *f;

	for (i = 0; i < PROGRESS_MAX_WRAPS && wraps[i].f; i++)
		;
	if (i == PROGRESS_MAX_WRAPS)
		return under;
	w = calloc(1, sizeof(*w));
	if (!w)
		return under;
	w->p = p;
	w->under = under;
	w->is_log = is_log;
	f = fopencookie(w, "w", io);
	if (!f) {
		free(w);
		return under;
	}
	setvbuf(f, NULL, _IOLBF, 0);
	wraps[i].f = f;
	wraps[i].under = under;
	return f;
}

FILE *progress_wrap(struct progress *p, FILE *out)
{
	if (!p || !p->enabled || !out || !isatty(fileno(out)))
		return out;
	return wrap_open(p, out, 0);
}

FILE *progress_log(struct progress *p, FILE *log)
{
	if ((!p || !p->enabled) && !log)
		return NULL;
	return wrap_open(p && p->enabled ? p : NULL, log, 1);
}

FILE *progress_unwrap(struct progress *p, FILE *f)
{
	FILE *under;
	size_t i;

	(void)p;
	for (i = 0; i < PROGRESS_MAX_WRAPS; i++) {
		if (!f || wraps[i].f != f)
			continue;
		under = wraps[i].under;
		wraps[i].f = NULL;
		fclose(f);
		return under;
	}
	return f;
}
