/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The front end's own vocabulary, shared by its files: what the command
 * line said (struct cli), the exit codes, and the functions one file of
 * the front end calls in another.  flashbench.c parses (by options.c)
 * and dispatches; checks.c checks before any I/O, opendev.c opens the
 * device, outputs.c opens -o and --plot, jsonout.c writes --json, safety.c
 * announces the writes and keeps --preserve's journal, autorun.c runs
 * --auto, offline.c --analyze and --registers, survey.c --survey (no
 * device).
 */
#ifndef FLASHBENCH_CLI_H
#define FLASHBENCH_CLI_H

#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>

#include "analyze.h"
#include "bench.h"
#include "card.h"
#include "dev.h"
#include "json.h"
#include "capest.h"
#include "modes.h"
#include "timeops.h"

#define EXIT_USAGE	2	/* bad command line, found before any I/O */
#define EXIT_DEVICE	1	/* the device failed or refused */
#define EXIT_SHORT	3	/* a check found the card short of its claims:
				 * damaged, or a class it states not met */
#define EXIT_LIMBO	4	/* a fake whose writes past its real size
				 * are lost (-C, --auto --destructive) */
#define EXIT_WRAP	5	/* a fake whose addresses repeat */

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
	V_NR,
};

/* Everything the command line said. */
struct cli {
	struct bench_opts o;		/* what the tests get */
	unsigned int tests;		/* BENCH_* bits */
	const char *arg[V_NR];		/* value options as typed, or NULL */
	const char *text[V_NR];		/* as typed, or the default in num */
	char num[V_NR][24];		/* defaults as decimal text */
	const char *device;		/* DEVICE, or NULL */
	uint64_t dev_byte;		/* its size as told (a file's own) */
	int simulate;			/* --simulate given */
	const char *sim_spec;		/* its SPEC, or NULL */
	const char *out_path;		/* -o FILE, or NULL for out */
	int out_created;		/* -o FILE did not exist before */
	int autorun;			/* --auto */
	int destructive;		/* --destructive */
	int json;			/* --json */
	const char *analyze_path;	/* --analyze FILE ("-": stdin) */
	const char *registers_dir;	/* --registers DIR */
	int survey;			/* --survey */
	int csv;			/* --csv (with --survey) */
	int markdown;			/* --markdown (with --survey) */
	char **files;			/* --survey's FILE..., in argv */
	size_t files_nr;
	struct card_raw card_raw;	/* the card's registers */
	struct card_info card;		/* decoded */
	const char *plot_path;		/* --plot FILE.svg, or NULL */
	struct plot_out *plot;		/* the open --plot file, or NULL */
	int quiet;			/* -q: no progress line */
	struct progress *prog;		/* the progress line (NULL: none) */
	int preserve;			/* --preserve (or --journal) */
	const char *journal;		/* --journal FILE, or NULL */
	const char *restore;		/* --restore JOURNAL, or NULL */
	int force;			/* --force: restore unchecked */
	char journal_buf[PATH_MAX];	/* the journal actually used */
	struct preserve *saved;		/* what --preserve saved */
	struct preserve *loaded;	/* the journal --restore checked */
	int restore_failed;		/* writing it back failed */
	struct capacity_estimate est;	/* -C's, said before it ran */
	int est_done;			/* est is filled */
	int time_ops;			/* --time-ops */
	struct timeops tops;		/* what it counted */
	struct json jdoc;		/* --json's document, with --time-ops
					 * ended after the write-back */
	int jdoc_open;			/* it waits for its end */
	int jdoc_short;			/* its short_of_claims */
	int short_found;		/* a check found the card short: the
					 * exit status (EXIT_SHORT, _LIMBO,
					 * _WRAP), else 0 */
	int restore_unfinished;		/* --restore: only JOURNAL.tmp */
	FILE *err;			/* where messages go */
};

/* What a path names: the file when it exists, else where it would be. */
struct path_id {
	int exists;			/* stat() found it */
	struct stat st;			/* then: what it is */
	char canon[2 * PATH_MAX];	/* else: real directory + name */
};

/* The ranges a writing test covers, from its row's write_ranges. */
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


/* autorun */
int run_auto(struct cli *c, struct device *dev, FILE *res);

/* flashbench */

/* The signal that asked us to stop (SIGINT, SIGTERM, SIGHUP), or 0. */
extern volatile sig_atomic_t stop_signal;

/* One line naming what is wrong (nothing more); returns EXIT_USAGE. */
int usage_error(FILE *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int test_failed(struct cli *c, const struct device *dev,
		const char *option, int ret);

/* checks */
void path_identify(const char *path, struct path_id *id);
int same_file(const struct path_id *a, const struct path_id *b);
int check_args(struct cli *c);
int check_size(struct cli *c, const struct device *dev);
int check_blocksize(struct cli *c, const struct device *dev);
int check_read_tests(struct cli *c, const struct device *dev);
int plan_writes(struct cli *c, const struct device *dev,
		struct write_plan plan[MODES_MAX]);

/* opendev */
int open_device(struct cli *c, struct device **devp);
void close_device(struct device *dev);

/* jsonout */
void device_card(const struct cli *c, const struct device *dev,
		 struct card_raw *raw, struct card_info *ci);
void json_head(const struct cli *c, struct json *j, const char *test,
	       const struct device *dev);
void json_tail(struct json *j, int short_found, int interrupted);

/* With --time-ops: the document's time_ops and end, after the write-back. */
void json_finish(struct cli *c);

/*
 * The exit status of a check's result (BENCH_SHORT, _LIMBO, _WRAP; 0 for
 * anything else), and the more telling of two statuses (a fake's kind
 * over a plain "short").
 */
int short_status(int bench);
int short_worst(int a, int b);
int run_json(struct cli *c, struct device *dev, enum bench_test t,
	     const char *option, FILE *out);

/* offline */
int run_analyze(struct cli *c, FILE *out);
int run_registers(struct cli *c, FILE *out);

/* survey */
int run_survey(struct cli *c, FILE *out);

/* outputs */
void plot_note(struct plot_out *p, int ret);
int open_outputs(struct cli *c, FILE *out, FILE **res);
int plot_close(struct cli *c);
int run_vm_mode(struct cli *c, struct device *dev, const struct mode *m,
		FILE *out, struct json *j);
const struct align_verdict *plot_verdict(const struct align_row *rows,
					 size_t n,
					 struct align_verdict *v);
int finish_output(struct cli *c, FILE *f, int ours);

/* safety */
void announce(const struct cli *c, const struct device *dev,
	      struct bench_range *r, size_t n);
void announce_step(const struct cli *c, const struct device *dev,
		   struct bench_range *r, size_t n);
struct bench_range *ranges_dup(const struct bench_range *r, size_t n);
void announce_writes(const struct cli *c, const struct device *dev,
		     const struct write_plan plan[MODES_MAX]);

/* With -C: the estimate of its duration, timed on dev, on c->err. */
void announce_estimate(struct cli *c, struct device *dev);

/* The JSON object estimate: what announce_estimate() said (or null). */
void json_estimate(struct json *j, const struct cli *c);
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
