/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The test interface: what every test flashbench runs (the six classic
 * modes, --capacity, --class and --auto) offers the front end, one row of
 * operations each, and the run context handed to them.  A test plans its
 * writes, measures into its record, judges the record and shows it (the
 * text, the JSON document's members, the plot); the front end's table of
 * tests (front/tests.c) lists the rows and runs any of them the same way
 * (test_run() below), so that it knows no test by name.
 *
 * modes/ implements the rows of the classic modes, -C and -L; probes/
 * implements --auto's (probes/autorun.h).
 */
#ifndef FLASHBENCH_TEST_H
#define FLASHBENCH_TEST_H

#include <inttypes.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bench.h"
#include "dev.h"

struct card_raw;
struct json;
struct progress;
struct progress_seg;
struct progs_mode;

/*
 * --auto's bit in the table of tests, beside the classic tests' BENCH_*
 * bits of record/opts.h.
 */
#define TEST_AUTO (1u << 8)

/*
 * What a run knows, passed down to every operation of a test (never kept
 * in a static for a lower layer to read).
 */
struct test_ctx {
	const struct bench_opts *o;	/* the options, with the card's word
					 * (o->card) and --flush */
	FILE *log;			/* messages a test prints (-v, a
					 * program refused), or NULL */
	volatile sig_atomic_t *stop;	/* nonzero: a signal asked to stop;
					 * NULL: none can */
	int saving;			/* --preserve saves what it writes */
	int destructive;		/* --destructive: --auto may write */
	int simulated;			/* the device is --simulate's card */
	const char *label;		/* the device as the user named it:
					 * its path, or --simulate[=SPEC] */
	const struct card_raw *card_raw; /* the card's registers as read
					  * (o->card: decoded), or NULL */
	struct progress *prog;		/* the progress line, or NULL */
	uint64_t offset_default_byte;	/* --offset's default (--auto runs
					 * from there, whatever was given) */
	/*
	 * Announce the ranges a test is about to overwrite in a later phase
	 * of its run (--auto's write steps), and under --preserve save them
	 * (first putting back what an earlier phase overwrote): 0, or
	 * -ECANCELED when --preserve could not (it said why).  NULL: the
	 * test may not write beyond its plan.
	 */
	int (*announce)(void *ctx, const struct bench_range *r, size_t n);
	void *announce_ctx;
};

/* When a test's check (struct test below) is asked. */
enum test_check_at {
	TEST_CHECK_LINE,	/* the command line alone, before any I/O */
	TEST_CHECK_DEVICE,	/* against the open device, before any
				 * test's writes are planned */
	TEST_CHECK_PAST_END,	/* its plan reaches past the end: why */
};

/* What a test's check sees, and where it says what is wrong. */
struct test_check {
	const struct bench_opts *o;	/* the options (o->card: the card's
					 * word, once the device is open) */
	const struct device *dev;	/* the open device (NULL: LINE) */
	uint64_t dev_byte;		/* its size as told (a file's own,
					 * not whole blocks), for messages */
	/* value option name ("offset") as typed, or NULL: not given */
	const char *(*given)(const void *ctx, const char *name);
	/* as messages quote it: as typed, or its value in decimal */
	const char *(*text)(const void *ctx, const char *name);
	const void *ctx;		/* the front end's, for both */
	char *why;			/* what is wrong: one line, no
					 * "flashbench: " */
	size_t why_len;
};

/* "DEVICE (N bytes)": a device named in messages, with dev_byte. */
#define TEST_DEV_FMT "%s (%" PRIu64 " bytes)"

/* Where one run of a test is shown. */
struct test_show {
	FILE *out;		/* the text (NULL: the JSON document) */
	struct json *json;	/* --json's document, its head written */
	FILE *plot;		/* --plot's chart being drawn, or NULL */
	const char *title;	/* its title */
	int plot_ret;		/* the plot's first error (0 or -errno) */
	int judged;		/* what judge said (0, BENCH_SHORT, ...),
				 * of a record cut short too */
};

/* One test: its name, and its operations (NULL where it has none). */
struct test {
	unsigned int test;	/* its bit (BENCH_*): what the options ask */
	const char *name;	/* "capacity": the JSON document's "test" */
	const char *option;	/* "--capacity": how the user asks for it */
	char short_option;	/* 'C', or 0 */
	int writes;		/* overwrites data on the device */
	int own_data;		/* writes only data of its own, never a
				 * copy of what it read: --preserve may
				 * save its ranges lazily, by the MiB it
				 * writes, when it runs alone */
	int alone;		/* runs only on its own and names its steps
				 * itself (--auto): -v says no "running" */
	int writes_destructive;	/* writes only under --destructive, each
				 * phase announced as it comes through the
				 * run context's hook (--auto) */
	unsigned int takes_options; /* under --destructive, the tests whose
				     * options it uses too (--auto: -C's
				     * --flush) */
	int times_ops;		/* --time-ops can time it, run alone */
	const char *no_plot;	/* why --plot refuses it (no plot op):
				 * "--plot " and this */
	const struct progs_mode *prog;	/* a classic mode's VM program
					 * (progs.h), for its operations */
	/*
	 * What it needs of the command line and the device, checked at
	 * stage at before any write: 0, or -EINVAL with k->why filled
	 * (test_why()).  NULL: nothing of its own to check.
	 */
	int (*check)(const struct test *t, const struct test_check *k,
		     enum test_check_at at);
	/*
	 * The byte ranges it may overwrite on a device of dev_size bytes
	 * (the announcement, --preserve's save), as bench_write_ranges():
	 * how many (ranges NULL: only count), -EINVAL when it reaches past
	 * the end, or -errno.  NULL for a test that reads only.
	 */
	int (*plan)(enum bench_test test, const struct bench_opts *o,
		    uint64_t dev_size, struct bench_range *ranges, size_t max);
	size_t rec_size;	/* its record, zeroed before foresee */
	/*
	 * Before any test runs (after --preserve's save): what it
	 * foresees, said on x->log and kept in rec (-C: how long it will
	 * take, timed on dev).  0 or -errno (then nothing was foreseen).
	 */
	int (*foresee)(const struct test_ctx *x, struct device *dev,
		       void *rec);
	/*
	 * Measure dev into rec; a table shown as it runs (the writing
	 * classic modes) goes to live (NULL: none).  0 or -errno; rec holds
	 * what was measured either way.
	 */
	int (*measure)(const struct test *t, const struct test_ctx *x,
		       struct device *dev, FILE *live, void *rec);
	/*
	 * The progress line's plan of the calls measure will make on dev
	 * (progplan.h): 0 or -errno.  NULL: the line shows only its name.
	 */
	int (*steps)(const struct test *t, const struct bench_opts *o,
		     const struct device *dev, struct progress_seg **segs,
		     size_t *nseg);
	/*
	 * Judge the record; ret is what measure returned (a record cut
	 * short may still hold what a check found): 0, or BENCH_SHORT,
	 * BENCH_LIMBO or BENCH_WRAP (the card is short of its claims).
	 * No I/O.
	 */
	int (*judge)(const struct test_ctx *x, void *rec, int ret);
	/*
	 * The text of the record; ret is what measure returned.  It and
	 * json may work out what the showing needs into rec (-C's fix).
	 */
	void (*print)(const struct test *t, const struct test_ctx *x,
		      void *rec, int ret, const struct device *dev,
		      FILE *out);
	/* The JSON document's "results" and "verdict" members. */
	void (*json)(const struct test *t, const struct test_ctx *x,
		     void *rec, int ret, const struct device *dev,
		     struct json *j);
	/* The document's member of what foresee said (it may not have). */
	void (*json_foreseen)(struct json *j, const void *rec);
	/* The chart of the record into f: 0 or -errno. */
	int (*plot)(const struct test *t, const struct test_ctx *x,
		    const void *rec, FILE *f, const char *title);
	/* Free what measure allocated in rec (not rec itself). */
	void (*release)(void *rec);
};

/*
 * Run test t on dev into rec (foreseen, or zeroed) and show it as s asks:
 * measure, judge (into s->judged), then the text or the JSON members
 * (results, verdict, "error" when it failed, what it foresaw) and the
 * plot.  Returns -errno when measure failed, else what judge returned.
 */
int test_run(const struct test *t, const struct test_ctx *x,
	     struct device *dev, void *rec, struct test_show *s);

/*
 * test_run() with a record of its own, shown as text on out: the
 * classic entry point of a mode (dev, options, out).
 */
int test_run_text(const struct test *t, struct device *dev,
		  const struct bench_opts *o, FILE *out);

/* Fill k->why as printf() and return -EINVAL: a check's refusal. */
int test_why(const struct test_check *k, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* x rounded up to a multiple of m (m > 0), saturating at UINT64_MAX. */
uint64_t test_round_up(uint64_t x, uint64_t m);

/* v as --offset takes it ("12M", "4G", or plain bytes), into buf. */
char *test_offset_text(char *buf, size_t len, uint64_t v);

/* The rows modes/ implements (modes.c, captest.c, class.c). */
extern const struct test scatter_test, find_fat_test, align_test;
extern const struct test open_au_test, interval_test, program_test;
extern const struct test capacity_test, class_test;

#endif /* FLASHBENCH_TEST_H */
