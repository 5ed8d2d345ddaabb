// SPDX-License-Identifier: GPL-2.0-only
/*
 * flashbench - identify characteristics of flash media.
 *
 * main: parse the command line (by the table of options,
 * front/options.c), check every value before any I/O (a typo must never
 * cost a card a write cycle, let alone its data), open the device, check
 * what depends on its size, run the rows of the table of tests
 * (front/tests.c) asked for, and return the exit status
 * (front/status.h).  Only the front end (this file and front/) prints
 * errors and chooses exit codes; nothing calls into this file.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "flashbench.h"
#include "options.h"
#include "preserve.h"
#include "quiet.h"
#include "status.h"

/* --time-ops: the table, or the JSON document's last members. */
static void report_time_ops(struct cli *c, FILE *res)
{
	if (!c->time_ops)
		return;
	if (c->json)
		json_finish(c);
	else
		timeops_print(res, &c->run.tops);
}

/*
 * Run the tests (--auto among them) or --restore on the open device, the
 * outputs open and the progress line over them; the saved data written
 * back whatever happened.  Returns 0 or an exit status.
 */
static int run_open(struct cli *c, struct device **dev, FILE *out,
		    FILE *res, const struct write_plan *plan)
{
	int ret;

	if (!c->simulate)
		quiet_system(c->o.verbose ? c->err : NULL);
	announce_writes(c, *dev, plan);
	progress_begin(c, dev, &res);
	if (c->restore)
		ret = run_restore(c, *dev, res);
	else
		ret = run_tests(c, *dev, res);
	/* whatever happened, put back what was saved */
	timeops_phase(&c->run.tops, TIMEOPS_BACK);
	if (restore_saved(c, *dev))
		ret = EXIT_DEVICE;
	report_time_ops(c, res);
	progress_end(c, dev, &res);
	if (plot_close(c) && !ret)
		ret = EXIT_DEVICE;
	if (finish_output(c, res, res != out) && !ret)
		ret = EXIT_DEVICE;
	return ret;
}

/*
 * Everything checked against the open device, before any write: its
 * size, the block size, what each test needs of it, the writing tests' plan (into
 * plan[], indexed like the table of tests), the journal; --restore's
 * journal loaded.  0 or an exit status.
 */
static int check_device(struct cli *c, struct device *dev,
			struct write_plan plan[TESTS_MAX])
{
	int ret = check_size(c, dev);

	if (!ret)
		ret = check_blocksize(c, dev);
	if (!ret)
		ret = check_tests_device(c, dev);
	if (!ret)
		ret = plan_writes(c, dev, plan);
	if (!ret)
		ret = check_journal(c, dev);
	if (!ret)
		ret = load_restore(c, dev);
	return ret;
}

/* Open the device, check everything against it, then run. */
static int run(struct cli *c, FILE *out)
{
	struct write_plan plan[TESTS_MAX] = { { NULL, 0 } };
	struct device *dev = NULL;
	FILE *res = out;
	size_t i;
	int ret;

	c->run.started = run_start_time();	/* the record says when */
	ret = open_device(c, &dev);
	if (ret)
		return ret;
	ret = check_device(c, dev, plan);
	if (!ret)
		ret = open_outputs(c, out, &res);
	if (!ret)
		ret = run_open(c, &dev, out, res, plan);
	c->o.card = NULL;
	preserve_free(c->run.loaded);
	c->run.loaded = NULL;
	close_device(dev);
	for (i = 0; i < test_table_nr; i++)
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
	struct stop_old old;
	int ret;

	stop_catch(&old);
	ret = run(c, out);
	stop_release(&old);
	if (stop_signal) {
		fprintf(c->err, "flashbench: stopped by %s\n",
			strsignal(stop_signal));
		if (!c->run.restore_failed)
			ret = EXIT_SIGNAL + stop_signal;
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
