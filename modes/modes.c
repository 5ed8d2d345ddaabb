// SPDX-License-Identifier: GPL-2.0-only
/*
 * The rows of the tests modes/ measures (test.h): the six classic modes,
 * each a VM program of its own file (align.c, scatter.c, interval.c read;
 * open_au.c, find_fat.c, program.c write) run by progs.c, and
 * --capacity (capacity.c and the files beside it) and --class (class.c),
 * measured in C.  Their checks are testcheck.c's; the table that lists
 * the rows is the front end's (front/tests.c).
 */
#include <errno.h>

#include "c.h"
#include "capacity.h"
#include "capest.h"
#include "capfix.h"
#include "class.h"
#include "json.h"
#include "modes.h"
#include "progplan.h"
#include "progs.h"
#include "recbody.h"
#include "rectab.h"
#include "testcheck.h"

/* ---- the classic modes: a VM program's cells ---- */

/* A classic mode's record: the cells of its run. */
struct vm_rec {
	struct vm_table tab;
};

static int vm_measure(const struct test *t, const struct test_ctx *x,
		      struct device *dev, FILE *live, void *rec)
{
	struct vm_rec *r = rec;
	char err[256] = "";
	int ret;

	ret = progs_run(dev, t->prog, x->o, live, &r->tab, err, sizeof(err));
	/* I/O errors are the front end's to report, from dev->last_error */
	if (ret == -EINVAL && err[0] && live && x->log)
		fprintf(x->log, "flashbench: %s\n", err);
	return ret;
}

/* The table (rows cut short by a failure left out). */
static void vm_print(const struct test *t, const struct test_ctx *x,
		     void *rec, int ret, const struct device *dev,
		     FILE *out)
{
	const struct vm_rec *r = rec;

	(void)ret;
	(void)dev;
	if (t->prog->print)
		t->prog->print(out, x->o, &r->tab);
}

static void vm_json(const struct test *t, const struct test_ctx *x,
		    void *rec, int ret, const struct device *dev,
		    struct json *j)
{
	const struct vm_rec *r = rec;

	(void)ret;
	(void)dev;
	/* the results (and -i's regression beside them) */
	t->prog->json(j, x->o, &r->tab);
	json_null(j, BODY_KEY(RM_VERDICT));
}

static int vm_plot(const struct test *t, const struct test_ctx *x,
		   const void *rec, FILE *f, const char *title)
{
	const struct vm_rec *r = rec;

	return t->prog->plot(f, title, (enum bench_test)t->test, x->o,
			     &r->tab);
}

static void vm_release(void *rec)
{
	struct vm_rec *r = rec;

	vm_table_free(&r->tab);
}

#define VM_ROW(bit, nm, sh, pm, chk)					\
	.test = bit, .name = nm, .option = "--" nm, .short_option = sh,	\
	.prog = &pm, .check = chk, .rec_size = sizeof(struct vm_rec),	\
	.steps = progplan_vm, .measure = vm_measure, .print = vm_print,	\
	.json = vm_json, .plot = vm_plot, .release = vm_release
#define VM_WRITES(fn)	.writes = 1, .plan = fn

const struct test scatter_test = {
	VM_ROW(BENCH_SCATTER, "scatter", 's', scatter_prog, scatter_check),
};
const struct test find_fat_test = {
	VM_ROW(BENCH_FIND_FAT, "find-fat", 'f', find_fat_prog,
	       find_fat_check),
	VM_WRITES(find_fat_write_ranges),
};
const struct test align_test = {
	VM_ROW(BENCH_ALIGN, "align", 'a', align_prog, align_check),
};
const struct test open_au_test = {
	VM_ROW(BENCH_OPEN_AU, "open-au", 'O', open_au_prog, open_au_check),
	VM_WRITES(open_au_write_ranges),
};
const struct test interval_test = {
	VM_ROW(BENCH_INTERVAL, "interval", 'i', interval_prog,
	       interval_check),
};
const struct test program_test = {
	VM_ROW(BENCH_PROGRAM, "program", 'p', program_prog, program_check),
	VM_WRITES(program_write_ranges),
};

/* ---- --capacity ---- */

/* -C's record: what it foresaw, what it measured, the fix's table. */
struct cap_rec {
	struct capacity_estimate est;	/* how long it would take */
	int est_done;			/* est is filled */
	struct capfix_table fix;	/* the partition table, before */
	struct capacity_result r;
};

/* How long it will take, timed on dev, said before its first write. */
static int cap_foresee(const struct test_ctx *x, struct device *dev,
		       void *rec)
{
	struct cap_rec *c = rec;
	int ret = capacity_estimate(dev, x->o->flush_byte, &c->est);

	if (ret)
		return ret;
	capacity_estimate_print(x->log, &c->est, x->saving);
	c->est_done = 1;
	return 0;
}

static int cap_measure(const struct test *t, const struct test_ctx *x,
		       struct device *dev, FILE *live, void *rec)
{
	struct cap_rec *c = rec;

	(void)t;
	(void)live;
	capfix_read(dev, &c->fix);	/* before the check may write over it */
	return capacity_measure(dev, x->o, &c->r);
}

static int cap_judge(const struct test_ctx *x, void *rec, int ret)
{
	const struct cap_rec *c = rec;

	(void)x;
	return ret ? 0 : capacity_short(&c->r);
}

/* The findings and what to do; nothing when the check failed. */
static void cap_print(const struct test *t, const struct test_ctx *x,
		      void *rec, int ret, const struct device *dev,
		      FILE *out)
{
	struct cap_rec *c = rec;

	(void)t;
	(void)x;
	if (ret == -EINTR)	/* stopped by a signal: what it had done */
		capacity_print_stopped(out, &c->r);
	if (ret)
		return;
	capacity_print_findings(out, &c->r);
	capfix_print(out, &c->r, &c->fix, dev->path);
}

/* No rows: the evidence as results[0] and the verdict. */
static void cap_json(const struct test *t, const struct test_ctx *x,
		     void *rec, int ret, const struct device *dev,
		     struct json *j)
{
	struct cap_rec *c = rec;

	(void)t;
	(void)x;
	json_array_begin(j, BODY_KEY(RM_RESULTS));
	if (!ret)
		capacity_json_evidence(j, &c->r);
	json_array_end(j);
	if (ret) {
		json_null(j, BODY_KEY(RM_VERDICT));
		return;
	}
	json_object_begin(j, BODY_KEY(RM_VERDICT));
	capacity_json(j, &c->r);
	capfix_json(j, &c->r, &c->fix, dev->path);
	json_object_end(j);
}

/* The estimate said before the check (null: none was). */
static void cap_json_foreseen(struct json *j, const void *rec)
{
	const struct cap_rec *c = rec;

	if (!c->est_done) {
		json_null(j, BODY_KEY(RM_ESTIMATE));
		return;
	}
	rt_write_object(j, BODY_KEY(RM_ESTIMATE), &capacity_estimate_table,
			&c->est);
}

const struct test capacity_test = {
	.test = BENCH_CAPACITY, .name = "capacity", .option = "--capacity",
	.short_option = 'C', .writes = 1, .own_data = 1, .times_ops = 1,
	.no_plot = "draws timings; --capacity has none to draw",
	.check = capacity_check, .plan = capacity_write_ranges,
	.rec_size = sizeof(struct cap_rec),
	.foresee = cap_foresee, .steps = progplan_capacity,
	.measure = cap_measure, .judge = cap_judge,
	.print = cap_print, .json = cap_json,
	.json_foreseen = cap_json_foreseen,
};

/* ---- --class ---- */

/* The AU the card states (0: none told). */
static uint64_t card_au(const struct bench_opts *o)
{
	return o->card ? o->card->au_byte : 0;
}

static int class_measure_op(const struct test *t, const struct test_ctx *x,
			    struct device *dev, FILE *live, void *rec)
{
	struct class_plan p;

	(void)t;
	(void)live;
	class_plan(&p, x->o, card_au(x->o));
	return class_measure(dev, &p, rec);
}

/* The classes the card states (all, when it states none or is unknown). */
static int class_judge_op(const struct test_ctx *x, void *rec, int ret)
{
	const struct card_info *card = x->o->card;

	if (ret)
		return 0;
	class_judge(rec, card ? &card->claims : NULL);
	return class_short(rec) ? BENCH_SHORT : 0;
}

static void class_print_op(const struct test *t, const struct test_ctx *x,
			   void *rec, int ret, const struct device *dev,
			   FILE *out)
{
	(void)t;
	(void)x;
	(void)dev;
	if (ret == -EINTR)	/* stopped by a signal: what it had measured */
		class_print_stopped(out, rec);
	if (!ret)
		class_print(out, rec);
}

/* Every class as a result; the verdict is in them. */
static void class_json_op(const struct test *t, const struct test_ctx *x,
			  void *rec, int ret, const struct device *dev,
			  struct json *j)
{
	(void)t;
	(void)x;
	(void)dev;
	json_array_begin(j, BODY_KEY(RM_RESULTS));
	if (!ret)
		class_json(j, rec);
	json_array_end(j);
	json_null(j, BODY_KEY(RM_VERDICT));
	if (!ret)
		class_json_cache(j, rec);
}

const struct test class_test = {
	.test = BENCH_CLASS, .name = "class", .option = "--class",
	.short_option = 'L', .writes = 1, .no_plot = "does not draw --class",
	.check = class_check, .plan = class_write_ranges,
	.rec_size = sizeof(struct class_result),
	.steps = progplan_class, .measure = class_measure_op,
	.judge = class_judge_op,
	.print = class_print_op, .json = class_json_op,
};
