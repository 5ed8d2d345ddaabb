/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The front end's own vocabulary, shared by its files: what the command
 * line said (struct cli) and the state of its run (struct run_state), and
 * the functions one file of the front end calls in another (the exit
 * statuses: status.h).  flashbench.c parses (by options.c), checks and
 * runs; checks.c checks before any I/O, opendev.c opens the device,
 * outputs.c opens -o and --plot, tests.c is the table of tests and
 * runtests.c runs its rows, jsonout.c writes --json's head and tail,
 * safety.c announces the writes and keeps --preserve's journal,
 * offline.c --analyze (shown by analyzeout.c) and
 * --registers, survey.c --survey (no device).
 */
#ifndef FLASHBENCH_CLI_H
#define FLASHBENCH_CLI_H

#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <time.h>

#include "analyze.h"
#include "bench.h"
#include "card.h"
#include "dev.h"
#include "json.h"
#include "status.h"
#include "test.h"
#include "timeops.h"

/* The options that take a value; they index cli.arg[]. */
enum cli_value {
	V_BLOCKSIZE,
	V_ERASESIZE,
	V_COUNT,
	V_SCATTER_ORDER,
	V_SCATTER_SPAN,
	V_INTERVAL_ORDER,
	V_OPEN_AU_NR,
	V_OFFSET,
	V_FAT_NR,
	V_FLUSH,
	V_CACHE_CAP,
	V_NR,
};

/*
 * What a run holds while it goes, set up from the device's opening on
 * (never by the parse): the files it opened, the card it read, the JSON
 * document, --preserve's journal, what it counted, what it found.
 */
struct run_state {
	uint64_t dev_byte;		/* the device's size as told (a
					 * file's own) */
	int out_created;		/* -o FILE did not exist before */
	struct card_raw card_raw;	/* the card's registers */
	struct card_info card;		/* decoded (the tests' o.card) */
	struct plot_out *plot;		/* the open --plot file, or NULL */
	struct progress *prog;		/* the progress line (NULL: none) */
	char journal_buf[PATH_MAX];	/* the journal actually used */
	struct preserve *saved;		/* what --preserve saved */
	struct preserve *loaded;	/* the journal --restore checked */
	int restore_failed;		/* writing it back failed */
	int restore_unfinished;		/* --restore: only JOURNAL.tmp */
	struct timeops tops;		/* what --time-ops counted */
	struct json jdoc;		/* --json's document, with --time-ops
					 * ended after the write-back */
	int jdoc_open;			/* it waits for its end */
	int jdoc_short;			/* its short_of_claims */
	int short_found;		/* a check found the card short: the
					 * exit status (EXIT_SHORT, _LIMBO,
					 * _WRAP), else 0 */
	char label[512];		/* the device as the user named it:
					 * its path, or --simulate[=SPEC] */
	time_t started;			/* when the run started (the record
					 * says so; 0: when it is written) */
};

/*
 * What the command line said (options.c parses it into the fields
 * above err; check_args() checks them), where messages go, and the
 * state of the run it asks for.
 */
struct cli {
	struct bench_opts o;		/* what the tests get */
	unsigned int tests;		/* BENCH_* bits */
	const char *arg[V_NR];		/* value options as typed, or NULL */
	const char *text[V_NR];		/* as typed, or the default in num */
	char num[V_NR][24];		/* defaults as decimal text */
	const char *device;		/* DEVICE, or NULL */
	int simulate;			/* --simulate given */
	const char *sim_spec;		/* its SPEC, or NULL */
	const char *out_path;		/* -o FILE, or NULL for out */
	int destructive;		/* --destructive */
	int json;			/* --json */
	const char *analyze_path;	/* --analyze FILE ("-": stdin) */
	const char *registers_dir;	/* --registers DIR */
	int survey;			/* --survey */
	int csv;			/* --csv (with --survey) */
	int markdown;			/* --markdown (with --survey) */
	char **files;			/* --survey's FILE..., in argv */
	size_t files_nr;
	const char *plot_path;		/* --plot FILE.svg, or NULL */
	int quiet;			/* -q: no progress line */
	int preserve;			/* --preserve (or --journal) */
	const char *journal;		/* --journal FILE, or NULL */
	const char *restore;		/* --restore JOURNAL, or NULL */
	int force;			/* --force: restore unchecked */
	int time_ops;			/* --time-ops */
	int hide_serial;		/* --hide-serial: a record without the
					 * card's serial number */
	FILE *err;			/* where messages go */
	struct run_state run;		/* the run's state, not the line's */
};

/* What a path names: the file when it exists, else where it would be. */
struct path_id {
	int exists;			/* stat() found it */
	struct stat st;			/* then: what it is */
	char canon[2 * PATH_MAX];	/* else: real directory + name */
};

struct phase_ctx;

/* Room for every row of the table of tests (tests.c). */
#define TESTS_MAX 10

/* The ranges a writing test covers, from its plan. */
struct write_plan {
	struct bench_range *ranges;	/* malloc'd */
	size_t n;			/* ranges stored */
};

/* ---- --plot ---- */

/*
 * The --plot chart and what went wrong writing it.  The chart is drawn
 * into memory and written out whole at the end, so that a failed write
 * is seen with its errno (ENOSPC, not just "an error happened").
 */
struct plot_out {
	FILE *f;		/* the chart being drawn (a memstream) */
	char *buf;		/* what f holds, after fclose */
	size_t len;
	FILE *dst;		/* the --plot file, or standard output */
	int dst_ours;		/* dst is the --plot file: close it */
	int dst_created;	/* the --plot file did not exist before */
	char title[320];	/* "flashbench --align /dev/sdb" */
	int ret;		/* first error of a plot_* function */
};


/* tests: the table of tests, in the classic run order (runtests.c runs it) */
extern const struct test *const *const test_table;
extern const size_t test_table_nr;

/* The row of one BENCH_* bit (NULL: none, or more than one bit). */
const struct test *test_of(unsigned int bit);

/* Does one of the tests of bits write (test.h)? */
int tests_writing(unsigned int bits);

/* Is bits one test that writes only data of its own (test.h)? */
int tests_own_data(unsigned int bits);

/* Does one of the tests of bits write under --destructive (test.h)? */
int tests_destructive(unsigned int bits);

/*
 * The tests whose options the tests of bits use: bits, and under
 * destructive what they take too (test.h's takes_options).
 */
unsigned int tests_using(unsigned int bits, int destructive);

/* The test --time-ops can time (test.h's times_ops), or NULL. */
const struct test *tests_timing(void);

/*
 * The run context of c's run on dev (test.h); with ph, its announce hook
 * (ph filled: it lives as long as x).
 */
void test_context(struct cli *c, struct device *dev, struct phase_ctx *ph,
		  struct test_ctx *x);

/* The bits of the tests of bits that run only on their own (test.h). */
unsigned int tests_alone(unsigned int bits);

/*
 * The tests asked for, in the table's order, after --preserve's save and
 * what they foresee; returns 0 or an exit status.
 */
int run_tests(struct cli *c, struct device *dev, FILE *res);

/* checks */
void path_identify(const char *path, struct path_id *id);
int same_file(const struct path_id *a, const struct path_id *b);
int check_args(struct cli *c);
int check_size(struct cli *c, const struct device *dev);
int check_blocksize(struct cli *c, const struct device *dev);
int check_tests_device(struct cli *c, const struct device *dev);
int plan_writes(struct cli *c, const struct device *dev,
		struct write_plan plan[TESTS_MAX]);

/* Under -v, name each option given that no test asked for uses. */
void note_unused(const struct cli *c);

/* opendev */

/*
 * Open DEVICE or the simulated card (with --time-ops, counted), and read
 * what its card registers say into c->card (the tests' o.card); 0 or an
 * exit status.
 */
int open_device(struct cli *c, struct device **devp);
void close_device(struct device *dev);

/* jsonout */
struct card_doc;
struct record_head;

void device_card(const struct cli *c, const struct device *dev,
		 struct card_raw *raw, struct card_info *ci);
void json_head(const struct cli *c, struct json *j, const char *test,
	       const struct device *dev);

/*
 * Now, for a record's "started": SOURCE_DATE_EPOCH when it is set (the
 * reproducible-builds convention: the tests' records do not change from
 * one run to the next), else the clock.
 */
time_t run_start_time(void);

/*
 * --hide-serial: the card's serial number taken out of what a record
 * shows (the CID's serial bits written as 0, the kernel's serial
 * attribute left out), its hash in hash (as --survey computes it from
 * the whole CID).
 */
void card_hide_serial(struct card_raw *raw, struct card_info *ci,
		      char hash[12]);

/*
 * The card's word as a record keeps it (--hide-serial: its serial
 * hidden, the hash in its place), from raw and ci (which it may change).
 */
void head_card(const struct cli *c, struct card_doc *d,
	       struct card_raw *raw, struct card_info *ci);

/* Where a record's head keeps the text of its start and kernel. */
struct run_host {
	char started[32];
	char kernel[256];
};

/*
 * A record's head without a device: version, test, its shape, when the
 * run started, the host's kernel (their text in host) and the options.
 */
void json_head_init(const struct cli *c, struct record_head *h,
		    const char *test, struct run_host *host);
void json_tail(struct json *j, int short_found, int interrupted);

/* With --time-ops: the document's time_ops and end, after the write-back. */
void json_finish(struct cli *c);


/*
 * The document's end (json_tail()): now, or with --time-ops after the
 * write-back (json_finish()), so that its time goes in.
 */
void json_end(struct cli *c, struct json *j, int short_found);

/* offline */
int run_analyze(struct cli *c, FILE *out);
int run_registers(struct cli *c, FILE *out);

/* survey */
int run_survey(struct cli *c, FILE *out);

/* outputs */
void plot_note(struct plot_out *p, int ret);
int open_outputs(struct cli *c, FILE *out, FILE **res);
int plot_close(struct cli *c);

/*
 * The progress line over the device, the results and the messages from
 * here on (*dev and *res wrapped, c->err too); progress_end() takes it
 * off again.
 */
void progress_begin(struct cli *c, struct device **dev, FILE **res);
void progress_end(struct cli *c, struct device **dev, FILE **res);
const struct align_verdict *plot_verdict(const struct align_row *rows,
					 size_t n,
					 struct align_verdict *v);
int finish_output(struct cli *c, FILE *f, int ours);

/* safety */
void announce(const struct cli *c, const struct device *dev,
	      struct bench_range *r, size_t n);

/* What announce_phase() needs: the run, and the device it writes. */
struct phase_ctx {
	struct cli *c;
	struct device *dev;
};

/* The run context's announce hook (test.h); ctx: a struct phase_ctx. */
int announce_phase(void *ctx, const struct bench_range *r, size_t n);
void announce_writes(const struct cli *c, const struct device *dev,
		     const struct write_plan plan[TESTS_MAX]);

int check_journal(struct cli *c, const struct device *dev);
int save_ranges(struct cli *c, struct device *dev,
		const struct bench_range *r, size_t n, int sparse);
int tests_write_ranges(unsigned int tests, const struct bench_opts *o,
		       uint64_t dev_size, struct bench_range **ranges,
		       size_t *n);
int save_tests(struct cli *c, struct device *dev);
int restore_saved(struct cli *c, const struct device *dev);
int load_restore(struct cli *c, struct device *dev);
int run_restore(struct cli *c, struct device *dev, FILE *res);

#endif /* FLASHBENCH_CLI_H */
