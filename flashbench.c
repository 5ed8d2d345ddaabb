// SPDX-License-Identifier: GPL-2.0-only
/*
 * flashbench - identify characteristics of flash media.
 *
 * The front end: parse the command line (by the table of options,
 * front/options.c), check every value before any I/O (a typo must never
 * cost a card a write cycle, let alone its data), open the device, check
 * what depends on its size, then run the tests in the classic order.
 * Only the front end (this file and front/) prints errors and chooses
 * exit codes.
 */
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "capacity.h"
#include "class.h"
#include "dev.h"
#include "flashbench.h"
#include "cli.h"
#include "modes.h"
#include "options.h"
#include "preserve.h"
#include "progplan.h"
#include "progress.h"
#include "quiet.h"

unsigned int flashbench_dev_opens;
uint64_t flashbench_io_calls;
struct device *(*flashbench_open_hook)(struct device *dev);
uint64_t (*flashbench_progress_clock)(void);

volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig)
{
	stop_signal = sig;
}

int usage_error(FILE *err, const char *fmt, ...)
{
	va_list ap;

	fputs("flashbench: ", err);
	va_start(ap, fmt);
	vfprintf(err, fmt, ap);
	va_end(ap);
	fputc('\n', err);
	return EXIT_USAGE;
}

/* Report a failed test; returns EXIT_DEVICE. */
int test_failed(struct cli *c, const struct device *dev,
		const char *option, int ret)
{
	const struct dev_error *e = &dev->last_error;

	if (e->op && e->err)
		fprintf(c->err,
			"flashbench: %s of %" PRIu64 " bytes at offset %lld on %s failed: %s\n",
			e->op, e->len_byte, (long long)e->off_byte, dev->path,
			strerror(e->err));
	else
		fprintf(c->err, "flashbench: %s failed: %s\n", option,
			strerror(-ret));
	return EXIT_DEVICE;
}

/* ---- options a test does not use ---- */

/* "flashbench: OPTION ignored: only --x and --y use it" (under -v). */
static void note_ignored(const struct cli *c, const char *option,
			 unsigned int users)
{
	size_t i, k = 0, n = 0;

	for (i = 0; i < modes_nr; i++)
		n += !!(users & modes[i].test);
	fprintf(c->err, "flashbench: %s ignored: only ", option);
	for (i = 0; i < modes_nr; i++) {
		if (!(users & modes[i].test))
			continue;
		k++;
		fprintf(c->err, "%s%s", modes[i].option,
			k == n ? "" : k + 1 == n ? " and " : ", ");
	}
	fprintf(c->err, " use%s it\n", n == 1 ? "s" : "");
}

/* Under -v, name each option given that no test asked for uses. */
static void note_unused(const struct cli *c)
{
	char option[64];
	enum cli_value v;
	size_t i;

	if (!c->o.verbose)
		return;
	for (v = 0; v < V_NR; v++) {
		const struct opt_row *r = opt_value_row(v);

		if (!c->arg[v] || !r->users || (c->tests & r->users))
			continue;
		/* --auto --destructive runs the capacity check */
		if (v == V_FLUSH && c->autorun && c->destructive)
			continue;
		snprintf(option, sizeof(option), "--%s=%.40s", r->name,
			 c->arg[v]);
		note_ignored(c, option, r->users);
	}
	/* then the flags: -r */
	for (i = 0; i < opt_rows_nr; i++) {
		const struct opt_row *r = &opt_rows[i];

		if (r->kind == OPT_FLAG && r->users &&
		    !(c->tests & r->users) &&
		    *(const int *)((const char *)c + r->field)) {
			snprintf(option, sizeof(option), "--%s", r->name);
			note_ignored(c, option, r->users);
		}
	}
}

/* Run the tests asked for; returns 0 or an exit status. */
static int run_tests(struct cli *c, struct device *dev, FILE *out)
{
	size_t i;
	int ret;

	for (i = 0; i < modes_nr; i++) {
		const struct mode *m = &modes[i];
		enum bench_test t = m->test;

		if (!(c->tests & t))
			continue;
		if (c->o.verbose)
			fprintf(c->err, "flashbench: running %s on %s\n",
				m->option, dev->path);
		if (c->plot)
			snprintf(c->plot->title, sizeof(c->plot->title),
				 "flashbench %s %s", m->option, dev->path);
		progplan_start(c->prog, m, &c->o, dev);
		if (c->json)
			ret = run_json(c, dev, t, m->option, out);
		else if (c->plot && m->prog)
			ret = run_vm_mode(c, dev, m, out, NULL);
		else
			ret = m->run(dev, &c->o, out);
		progress_done(c->prog);
		if (short_status(ret)) {
			c->short_found = short_worst(c->short_found,
						     short_status(ret));
			continue;
		}
		if (ret) {
			fflush(out);
			if (stop_signal)
				return 128 + stop_signal;
			return test_failed(c, dev, m->option, ret);
		}
	}
	return c->short_found;
}

int short_status(int bench)
{
	switch (bench) {
	case BENCH_SHORT:
		return EXIT_SHORT;
	case BENCH_LIMBO:
		return EXIT_LIMBO;
	case BENCH_WRAP:
		return EXIT_WRAP;
	default:
		return 0;
	}
}

int short_worst(int a, int b)
{
	return a > b ? a : b;
}

/*
 * --preserve's save, -C's estimate, then the tests; returns 0 or an exit
 * status.
 */
static int save_and_run(struct cli *c, struct device *dev, FILE *res)
{
	int ret;

	timeops_phase(&c->tops, TIMEOPS_SAVE);
	ret = save_tests(c, dev);
	if (ret)
		return ret;
	/* after the save: its timing writes are journalled as the test's */
	timeops_phase(&c->tops, TIMEOPS_TIMING);
	announce_estimate(c, dev);
	timeops_phase(&c->tops, TIMEOPS_TEST);
	return run_tests(c, dev, res);
}

/* --time-ops: the table, or the JSON document's last members. */
static void report_time_ops(struct cli *c, FILE *res)
{
	if (!c->time_ops)
		return;
	if (c->json)
		json_finish(c);
	else
		timeops_print(res, &c->tops);
}

/* Check everything against the device, then run; returns the status. */
static int run(struct cli *c, FILE *out)
{
	struct write_plan plan[MODES_MAX] = { { NULL, 0 } };
	struct device *dev = NULL;
	FILE *res = out;
	size_t i;
	int ret;

	ret = open_device(c, &dev);
	if (ret)
		return ret;
	if (c->time_ops)
		dev = timeops_attach(&c->tops, dev);
	device_card(c, dev, &c->card_raw, &c->card);
	class_set_card(&c->card);
	capacity_set_flush(c->o.flush_byte);
	if (c->o.verbose)
		fprintf(c->err,
			"flashbench: %s: %" PRIu64 " bytes, logical block %u bytes\n",
			dev->path, dev->size_byte, dev->logical_block_size);
	ret = check_size(c, dev);
	if (!ret)
		ret = check_blocksize(c, dev);
	if (!ret)
		ret = check_read_tests(c, dev);
	if (!ret)
		ret = plan_writes(c, dev, plan);
	if (!ret)
		ret = check_journal(c, dev);
	if (!ret)
		ret = load_restore(c, dev);
	if (!ret)
		ret = open_outputs(c, out, &res);
	if (ret)
		goto out_close_dev;
	if (!c->simulate)
		quiet_system(c->o.verbose ? c->err : NULL);
	announce_writes(c, dev, plan);
	c->prog = progress_new(c->err, c->quiet);
	if (flashbench_progress_clock)
		progress_set_clock(c->prog, flashbench_progress_clock);
	dev = progress_attach(c->prog, dev);
	res = progress_wrap(c->prog, res);
	/* every message, from here on, takes the progress line off first */
	c->err = progress_wrap(c->prog, c->err);
	c->o.log = c->err;
	if (c->restore)
		ret = run_restore(c, dev, res);
	else if (c->autorun)
		ret = run_auto(c, dev, res);
	else
		ret = save_and_run(c, dev, res);
	/* whatever happened, put back what was saved */
	timeops_phase(&c->tops, TIMEOPS_BACK);
	if (restore_saved(c, dev))
		ret = EXIT_DEVICE;
	report_time_ops(c, res);
	res = progress_unwrap(c->prog, res);
	c->err = progress_unwrap(c->prog, c->err);
	c->o.log = c->err;
	dev = progress_detach(c->prog, dev);
	progress_free(c->prog);
	c->prog = NULL;
	if (plot_close(c) && !ret)
		ret = EXIT_DEVICE;
	if (finish_output(c, res, res != out) && !ret)
		ret = EXIT_DEVICE;
out_close_dev:
	class_set_card(NULL);
	capacity_set_flush(0);
	preserve_free(c->loaded);
	c->loaded = NULL;
	close_device(dev);
	for (i = 0; i < modes_nr; i++)
		free(plan[i].ranges);
	return ret;
}

/*
 * run() with SIGINT, SIGTERM and SIGHUP turned into a stop within one
 * I/O: what was measured is printed, what --preserve saved is put back,
 * and the exit status is 128 + the signal (1 if the restore failed).
 */
static int run_stoppable(struct cli *c, FILE *out)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa, old[3];
	size_t i;
	int ret;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	stop_signal = 0;
	for (i = 0; i < 3; i++)
		sigaction(sigs[i], &sa, &old[i]);
	dev_set_stop_flag(&stop_signal);
	ret = run(c, out);
	dev_set_stop_flag(NULL);
	for (i = 0; i < 3; i++)
		sigaction(sigs[i], &old[i], NULL);
	if (stop_signal) {
		fprintf(c->err, "flashbench: stopped by %s\n",
			strsignal(stop_signal));
		if (!c->restore_failed)
			ret = 128 + stop_signal;
	}
	return ret;
}

int flashbench_main(int argc, char **argv, FILE *out, FILE *err)
{
	struct cli c;
	int ret;

	memset(&c, 0, sizeof(c));
	bench_opts_default(&c.o);
	c.o.log = err;
	c.err = err;
	ret = opt_parse(&c, argc, argv, out);
	if (ret == 0)	/* --help or --version */
		return finish_output(&c, out, 0);
	if (ret > 0)
		return ret;
	ret = check_args(&c);
	if (ret)
		return ret;
	note_unused(&c);
	if (c.survey)
		return run_survey(&c, out);
	if (c.analyze_path)
		return run_analyze(&c, out);
	if (c.registers_dir)
		return run_registers(&c, out);
	return run_stoppable(&c, out);
}

#ifndef FLASHBENCH_NO_MAIN
int main(int argc, char **argv)
{
	return flashbench_main(argc, argv, stdout, stderr);
}
#endif
