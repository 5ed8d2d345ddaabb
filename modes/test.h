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
 * implements --auto's.
 */
#ifndef FLASHBENCH_TEST_H
#define FLASHBENCH_TEST_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bench.h"
#include "dev.h"

struct json;
struct progs_mode;

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
};

/* Where one run of a test is shown. */
struct test_show {
	FILE *out;		/* the text (NULL: the JSON document) */
	struct json *json;	/* --json's document, its head written */
	FILE *plot;		/* --plot's chart being drawn, or NULL */
	const char *title;	/* its title */
	int plot_ret;		/* the plot's first error (0 or -errno) */
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
	const struct progs_mode *prog;	/* a classic mode's VM program
					 * (progs.h), for its operations */
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
	 * Judge a record measured whole: 0, or BENCH_SHORT, BENCH_LIMBO or
	 * BENCH_WRAP (the card is short of its claims).  No I/O.
	 */
	int (*judge)(const struct test_ctx *x, void *rec);
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
 * measure, judge, then the text or the JSON members (results, verdict,
 * "error" when it failed, what it foresaw) and the plot.  Returns 0, what
 * judge returned, or -errno.
 */
int test_run(const struct test *t, const struct test_ctx *x,
	     struct device *dev, void *rec, struct test_show *s);

/*
 * test_run() with a record of its own, shown as text on out: the
 * classic entry point of a mode (dev, options, out).
 */
int test_run_text(const struct test *t, struct device *dev,
		  const struct bench_opts *o, FILE *out);

/* The rows modes/ implements (modes.c, captest.c, class.c). */
extern const struct test scatter_test, find_fat_test, align_test;
extern const struct test open_au_test, interval_test, program_test;
extern const struct test capacity_test, class_test;

#endif /* FLASHBENCH_TEST_H */
