// SPDX-License-Identifier: GPL-2.0-only
/*
 * --analyze on a record: the JSON an --auto run writes, read back
 * (output/autoread.c) and decided again, gives the run's own verdict,
 * field for field (record_check(), also called on every card of the hard
 * sweep); the records made before --analyze read them (tests/data/
 * records/) give today's verdict; every raw field taken out of a record
 * of today's shape makes it refused, naming that field; one of an older
 * shape is judged from what it holds, saying what it lacks.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "autoout.h"
#include "autoread.h"
#include "autorun.h"
#include "decide.h"
#include "hardcard.h"
#include "json.h"
#include "sim.h"
#include "util.h"

#define RECORDS "tests/data/records/"

/* The record of r as --auto --json writes it, but for device.card. */
static char *record_of(const struct auto_result *r, uint64_t size,
		       size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	struct json j;

	ck_assert_ptr_nonnull(f);
	json_init(&j, f);
	json_object_begin(&j, NULL);
	json_string(&j, "version", FLASHBENCH_VERSION);
	json_string(&j, "test", "auto");
	json_object_begin(&j, "device");
	json_u64(&j, "size", size);
	json_u64(&j, "logical_block_size", r->sector_byte);
	json_bool(&j, "simulated", 1);
	json_object_end(&j);
	json_object_begin(&j, "options");
	json_bool(&j, "destructive", r->destructive);
	json_object_end(&j);
	auto_json_results(&j, r);
	auto_json_verdict(&j, r);
	json_object_end(&j);
	fclose(f);
	return buf;
}

/* r's verdict as JSON text (malloc'd). */
static char *verdict_text(const struct auto_result *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json j;

	ck_assert_ptr_nonnull(f);
	json_init(&j, f);
	json_object_begin(&j, NULL);
	auto_json_verdict(&j, r);
	auto_json_advice(&j, r);
	json_object_end(&j);
	fclose(f);
	return buf;
}

#define SAME(part) \
	ck_assert_msg(!memcmp(&d->part, &r->part, sizeof(r->part)), \
		      "%s: %s read back is not what the run said", what, \
		      #part)

static unsigned int records_checked;

void record_check(const struct auto_result *r, uint64_t size,
		  const char *what)
{
	struct auto_result *d = malloc(sizeof(*d));
	struct jr_value *doc = NULL;
	char err[256], *text, *a, *b;
	size_t len = 0, i;

	ck_assert_ptr_nonnull(d);
	text = record_of(r, size, &len);
	ck_assert_int_eq(jr_parse(text, len, NULL, &doc, err, sizeof(err)),
			 0);
	ck_assert_msg(!auto_record_read(doc, d, err, sizeof(err)), "%s: %s",
		      what, err);
	auto_decide(d);
	for (i = 0; i < r->ntables; i++)
		SAME(tables[i].verdict);
	SAME(chosen);
	SAME(align);
	SAME(erase_from);
	SAME(erase_reads);
	SAME(erase_fallback);
	SAME(noise.level);
	SAME(erase_writes.erase_byte);
	SAME(erase_writes.confidence);
	SAME(fat.found);
	SAME(fat.start);
	SAME(fat.count);
	SAME(fat.confidence);
	SAME(open_linear.nr);
	SAME(open_linear.confidence);
	SAME(open_random.nr);
	SAME(open_random.confidence);
	a = verdict_text(r);
	b = verdict_text(d);
	ck_assert_msg(!strcmp(a, b), "%s: the verdict read back differs",
		      what);
	records_checked++;
	free(a);
	free(b);
	free(text);
	jr_free(doc);
	auto_free(d);
	free(d);
}

/* Every 16th card of the hard sweep (the sweep itself checks them all). */
START_TEST(test_record_hard_cards)
{
	const unsigned int stride = 16 * test_stride();
	unsigned int i, before = records_checked;
	struct bench_opts o;

	bench_opts_default(&o);
	for (i = 0; i < HARD_CARDS; i += stride) {
		struct hard_card c;
		struct auto_result r;
		struct device *dev;

		hard_card(i, &c);
		dev = sim_card(c.spec);
		ck_assert_int_eq(auto_run(dev, &o, 1, NULL, &r), 0);
		record_check(&r, dev->size_byte, c.spec);
		auto_free(&r);
		dev_close(dev);
	}
	ck_assert_uint_eq(records_checked - before,
			  (HARD_CARDS + stride - 1) / stride);
}
END_TEST

/*
 * The record name of tests/data/records parsed; as one of today's shape
 * (today: "record_version" put in after "test"), which must hold every
 * member, or as it is.
 */
static struct jr_value *load_as(const char *name, char **text, int today)
{
	static const char test[] = "\"test\": \"auto\",";
	struct jr_value *doc = NULL;
	char err[256], path[128];
	size_t len = 0;
	FILE *f, *m;
	int ch;

	snprintf(path, sizeof(path), RECORDS "%s", name);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	m = open_memstream(text, &len);
	while ((ch = getc(f)) != EOF) {
		putc(ch, m);
		fflush(m);
		if (today && len >= sizeof(test) - 1 &&
		    !memcmp(*text + len - (sizeof(test) - 1), test,
			    sizeof(test) - 1))
			fputs(" \"record_version\": 3,", m);
	}
	fclose(f);
	fclose(m);
	ck_assert_int_eq(jr_parse(*text, len, NULL, &doc, err, sizeof(err)),
			 0);
	return doc;
}

static struct jr_value *load(const char *name, char **text)
{
	return load_as(name, text, 0);
}

/* Equal trees (numbers by value, members in order). */
static int tree_eq(const struct jr_value *a, const struct jr_value *b)
{
	size_t i;

	if (a->type != b->type || a->n != b->n)
		return 0;
	if (a->type == JR_NUMBER)
		return a->d == b->d;
	if (a->type == JR_STRING)
		return !strcmp(a->s, b->s);
	if (a->type == JR_BOOL)
		return a->b == b->b;
	for (i = 0; i < a->n; i++)
		if ((a->type == JR_OBJECT && strcmp(a->keys[i], b->keys[i])) ||
		    !tree_eq(&a->v[i], &b->v[i]))
			return 0;
	return 1;
}

/*
 * Does b say all that a says (an object's members by name, b may hold
 * more: what today's verdict adds, such as the mapping)?
 */
static int tree_within(const struct jr_value *a, const struct jr_value *b)
{
	size_t i;

	if (!a || !b || a->type != b->type)
		return 0;
	if (a->type != JR_OBJECT)
		return tree_eq(a, b);
	for (i = 0; i < a->n; i++)
		if (!tree_within(&a->v[i], jr_get(b, a->keys[i])))
			return 0;
	return 1;
}

/*
 * The records made before --analyze read them give today's verdict: all
 * they said, and what today's verdict adds besides.
 */
START_TEST(test_record_before)
{
	static const char *const names[] = {
		"destructive-b.json", "destructive-c.json",
		"readonly-group.json",
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct jr_value *rec, *now = NULL;
		char args[128], err[256], *text;
		struct fb_run run;

		rec = load(names[i], &text);
		snprintf(args, sizeof(args), "--analyze=" RECORDS "%s --json",
			 names[i]);
		fb_run(args, &run);
		ck_assert_int_eq(run.status, 0);
		ck_assert_int_eq(jr_parse(run.out, strlen(run.out), NULL, &now,
					  err, sizeof(err)), 0);
		ck_assert_msg(tree_within(jr_get(rec, "verdict"),
					  jr_get(now, "verdict")),
			      "%s: not the record's verdict", names[i]);
		ck_assert(tree_eq(jr_get(rec, "advice"), jr_get(now, "advice")));
		ck_assert_ptr_null(jr_get(now, "record_said"));
		jr_free(now);
		jr_free(rec);
		free(text);
		fb_free(&run);
	}
}
END_TEST

/* The members of a record the reader must refuse to do without. */
static const char *const raw_keys[] = {
	"blocksize", "spacing", "around", "reads_per_position", "rows",
	"positions", "align", "pre_ns", "on_ns", "post_ns", "diff_ns",
	"anchors", "offset", "first_boundary", "chunk_size", "aus",
	"linear_ns", "random_ns", "copy_ns", "typical_ns",
	"reference_linear_ns", "reference_random_ns", "reference_copy_ns",
	"reference_least_copy_ns", "reference_paid_copy", "linear",
	"random", "measured", "max_nr", "probes", "nr", "mean_ns",
	"slow_every_pass_aus", "whole_au_write_ns", "merge_write_ns",
	"timing_noise", "single_reads", "single_reads_delayed",
	"positions_delayed", "largest_delay_ns", "destructive",
	"device_time_ns", "step",
};

static int is_raw(const char *key)
{
	size_t i;

	for (i = 0; i < sizeof(raw_keys) / sizeof(raw_keys[0]); i++)
		if (!strcmp(key, raw_keys[i]))
			return 1;
	return 0;
}

/*
 * Take each raw member of v out in turn (renamed), read doc: refused
 * (-ENOENT), the message naming it (only: that member alone).  Returns
 * how many were taken out.
 */
static unsigned int take_out(struct jr_value *doc, struct jr_value *v,
			     const char *only)
{
	unsigned int n = 0;
	size_t i;

	for (i = 0; i < v->n; i++) {
		if (v->type == JR_OBJECT && (only ? !strcmp(v->keys[i], only) :
					     is_raw(v->keys[i]))) {
			struct auto_result r;
			char err[256], name[48], *key = v->keys[i];

			snprintf(name, sizeof(name), "\"%s\"", key);
			v->keys[i] = (char *)"taken out";
			ck_assert_msg(auto_record_read(doc, &r, err,
						       sizeof(err)) == -ENOENT,
				      "%s taken out: read all the same", name);
			auto_free(&r);
			ck_assert_msg(strstr(err, name), "%s: %s", name, err);
			v->keys[i] = key;
			n++;
		}
		if (v->v[i].type == JR_ARRAY || v->v[i].type == JR_OBJECT)
			n += take_out(doc, &v->v[i], only);
	}
	return n;
}

START_TEST(test_record_missing)
{
	char *text;
	struct jr_value *doc = load_as("destructive-b.json", &text, 1);
	struct jr_value *res = (struct jr_value *)jr_get(doc, "results");
	struct auto_result r;
	char err[256];

	ck_assert_int_eq(auto_record_read(doc, &r, err, sizeof(err)), 0);
	auto_free(&r);
	/* every member of every row, position, AU and probe (388) */
	ck_assert_uint_gt(take_out(doc, res, NULL), 300);
	ck_assert_uint_eq(take_out(doc, (struct jr_value *)jr_get(doc,
						"options"), "destructive"), 1);
	jr_free(doc);
	free(text);
}
END_TEST

/* Write text to a fresh file named in path (a template). */
static void put_file(char *path, const char *text)
{
	int fd = mkstemp(path);
	FILE *f;

	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

/* text with from replaced by to, the first or every one (a new string). */
static char *replaced(const char *text, const char *from, const char *to,
		      int every)
{
	size_t n = strlen(text) + 1 + count_str(text, from) * strlen(to);
	char *s = malloc(n), *o = s;
	const char *at;

	ck_assert_ptr_nonnull(s);
	ck_assert_ptr_nonnull(strstr(text, from));
	while ((at = strstr(text, from))) {
		memcpy(o, text, (size_t)(at - text));
		o += at - text;
		o += sprintf(o, "%s", to);
		text = at + strlen(from);
		if (!every)
			break;
	}
	strcpy(o, text);
	return s;
}

/* The text of a record judged again past its lines of whose it is. */
static const char *past_says_first(const char *text)
{
	ck_assert_msg(!strncmp(text, "record of ", 10), "%s", text);
	text = strchr(text, '\n');
	ck_assert_ptr_nonnull(text);
	/* (the line wrapped at 80 columns goes on indented) */
	while (!strncmp(text + 1, "    ", 4))
		text = strchr(text + 1, '\n');
	ck_assert_msg(!strncmp(text + 1, "by flashbench ", 14) &&
		      strstr(text + 1, ", judged again with the rules of ") <
		      strchr(text + 1, '\n'), "%s", text);
	return strchr(text + 1, '\n') + 1;
}

/* Run --analyze on text (a record) with more arguments. */
static void record_analyze(const char *text, const char *more,
			 struct fb_run *run)
{
	char path[] = "/tmp/fb-record.XXXXXX", args[160];

	put_file(path, text);
	snprintf(args, sizeof(args), "--analyze=%s%s", path, more);
	fb_run(args, run);
	unlink(path);
}

/*
 * Run args (a test with --json) into *l, analyze its record and check
 * that today's judgement is the run's own: results, verdict,
 * short_of_claims and the exit status equal, nothing the record said
 * otherwise.
 */
static void judged_again(const char *args, struct fb_run *l)
{
	struct jr_value *live, *now;
	struct fb_run a;
	char err[256];

	fb_run(args, l);
	ck_assert_msg(l->status == 0 || (l->status >= 3 && l->status <= 5),
		      "%s: %d %s", args, l->status, l->err);
	record_analyze(l->out, " --json", &a);
	ck_assert_int_eq(a.status, l->status);	/* the live run's status */
	ck_assert_int_eq(jr_parse(l->out, strlen(l->out), NULL, &live, err,
				  sizeof(err)), 0);
	ck_assert_int_eq(jr_parse(a.out, strlen(a.out), NULL, &now, err,
				  sizeof(err)), 0);
	ck_assert_uint_gt(jr_len(jr_get(now, "results")), 0);
	ck_assert_msg(tree_eq(jr_get(live, "results"), jr_get(now, "results")),
		      "%s: the results judged again differ", args);
	ck_assert_msg(tree_eq(jr_get(live, "verdict"), jr_get(now, "verdict")),
		      "%s: the verdict judged again differs", args);
	ck_assert(tree_eq(jr_get(live, "short_of_claims"),
			  jr_get(now, "short_of_claims")));
	ck_assert_ptr_null(jr_get(now, "record_said"));
	jr_free(now);
	jr_free(live);
	fb_free(&a);
}

/*
 * -L's record judged again: the live run's classes, pass for pass (text
 * lines and JSON), on a card stating classes and on one stating none
 * (with --sustained: past any cache, so that classes pass, not unsure);
 * a figure lowered below a class's threshold fails it today, named as
 * what the record said otherwise; a class without its figures, or one
 * unknown, is refused in one line.
 */
START_TEST(test_record_class)
{
	static const char *const spec[] = {
		"claims=C10+U1+A1", "claims=none,seed=3",
		"size=16G,erase=8M,claims=C6+V10+A2",
	};
	struct fb_run l, a, lt, at;
	char args[128], *bad;
	const char *lines, *said, *heading;
	size_t passed;

	snprintf(args, sizeof(args), "-L --sustained --json -q --simulate=%s", spec[_i]);
	judged_again(args, &l);

	/* the text: the live run's class lines, from the heading on */
	snprintf(args, sizeof(args), "-L --sustained -q --simulate=%s", spec[_i]);
	fb_run(args, &lt);
	record_analyze(l.out, "", &at);
	ck_assert_int_eq(at.status, lt.status);
	heading = _i == 1 ? "the card states no class" :
			    "the classes the card states:";
	lines = strstr(lt.out, heading);
	ck_assert_ptr_nonnull(lines);
	ck_assert_ptr_nonnull(strstr(lines, "device time"));
	ck_assert_ptr_nonnull(strstr(at.out, heading));
	ck_assert_msg(!strncmp(strstr(at.out, heading), lines,
			       (size_t)(strstr(lines, "device time") - lines)),
		      "%s: text differs:\n%s\n---\n%s", spec[_i], at.out,
		      lt.out);
	fb_free(&at);
	fb_free(&lt);

	/* every rate lowered below every threshold: each class that passed
	 * is named, as passed in the record */
	passed = count_str(l.out, "\"pass\": true");
	ck_assert_uint_gt(passed, 0);
	bad = replaced(l.out, "\"write_mbps\": ",
		       "\"write_mbps\": 1.5, \"was\": ", 1);
	record_analyze(bad, " --json", &a);
	ck_assert_int_eq(a.status, _i == 1 ? 0 : 3);	/* short of claims */
	ck_assert_uint_eq(count_str(a.out, "\"pass\": true"), passed);
	ck_assert_str_eq(fb_json(&a, "results.0.pass"), "false");
	ck_assert_str_eq(fb_json(&a, "short_of_claims"),
			 _i == 1 ? "false" : "true");
	said = fb_json(&a, "record_said.classes.0.pass");
	ck_assert_str_eq(said, "true");
	fb_free(&a);
	record_analyze(bad, "", &a);
	ck_assert_ptr_nonnull(strstr(a.out, "said otherwise:"));
	ck_assert_ptr_nonnull(strstr(a.out, "FAIL (the record said"));
	fb_free(&a);
	free(bad);

	/* a figure taken out, a class unknown: refused */
	bad = replaced(l.out, "\"longest_write_ns\"", "\"taken_out\"", 0);
	record_analyze(bad, "", &a);
	ck_assert_int_eq(a.status, 2);
	ck_assert_ptr_nonnull(strstr(a.err, "lacks raw data"));
	ck_assert_uint_eq(count_str(a.err, "\n"), 1);
	fb_free(&a);
	free(bad);
	bad = replaced(l.out, "\"class\": \"", "\"class\": \"X", 0);
	record_analyze(bad, "", &a);
	ck_assert_int_eq(a.status, 2);
	ck_assert_ptr_nonnull(strstr(a.err, "unknown"));
	fb_free(&a);
	free(bad);
	fb_free(&l);
}
END_TEST

/* text without its lines that start with prefix (a new string). */
static char *without_lines(const char *text, const char *prefix)
{
	char *s = strdup(text), *o = s;

	ck_assert_ptr_nonnull(s);
	while (*text) {
		size_t n = strcspn(text, "\n") + (text[strcspn(text, "\n")] != 0);

		if (strncmp(text, prefix, strlen(prefix))) {
			memcpy(o, text, n);
			o += n;
		}
		text += n;
	}
	*o = '\0';
	return s;
}

/*
 * -C's record judged again from what its search saw: the run's own
 * verdict, member for member (the fix included), and its text but for
 * the device time of another run; an alias period taken out of a
 * wraparound's evidence makes today's verdict another kind, the
 * record's named; a record without the evidence (made before it was
 * kept) or missing one member of it is refused in one line.
 */
START_TEST(test_record_capacity)
{
	static const char *const spec[] = {
		"size=4G", "size=16G,real_size=2G",
		"size=8G,real_size=2G,fake=wrap",
		"size=32G,real_size=4G,fake=limbo-garbage",
		"size=4G,real_size=2G,cache=64M",
	};
	struct fb_run l, a, lt;
	char args[128], *bad, *x, *y;

	snprintf(args, sizeof(args), "-C --json -q --simulate=%s", spec[_i]);
	judged_again(args, &l);
	ck_assert_str_eq(fb_json(&l, "results.0.step"), "\"capacity\"");

	snprintf(args, sizeof(args), "-C -q --simulate=%s", spec[_i]);
	fb_run(args, &lt);
	record_analyze(l.out, "", &a);
	ck_assert_int_eq(a.status, lt.status);
	x = without_lines(lt.out, "written:");
	y = without_lines(past_says_first(a.out), "written:");
	ck_assert_str_eq(y, x);
	free(x);
	free(y);
	fb_free(&a);
	fb_free(&lt);

	if (_i == 2) {
		bad = replaced(l.out, "\"alias_period\": ",
			       "\"alias_period\": 0, \"was\": ", 0);
		record_analyze(bad, " --json", &a);
		/* today's verdict's status: short, no longer a wraparound */
		ck_assert_int_eq(a.status, 3);
		ck_assert_str_ne(fb_json(&a, "verdict.kind"), "\"wraparound\"");
		ck_assert_str_eq(fb_json(&a, "record_said.kind"),
				 "\"wraparound\"");
		fb_free(&a);
		record_analyze(bad, "", &a);
		ck_assert_ptr_nonnull(strstr(a.out,
					     "(the record said wraparound)"));
		fb_free(&a);
		free(bad);
	}
	bad = replaced(l.out, "\"flush_bytes\"", "\"taken_out\"", 0);
	record_analyze(bad, "", &a);
	ck_assert_int_eq(a.status, 2);
	ck_assert_ptr_nonnull(strstr(a.err, "\"flush_bytes\""));
	ck_assert_uint_eq(count_str(a.err, "\n"), 1);
	fb_free(&a);
	free(bad);
	fb_free(&l);

	fb_run("--analyze=" RECORDS "capacity.json", &a);
	ck_assert_int_eq(a.status, 2);
	ck_assert_ptr_nonnull(strstr(a.err, "verdict only"));
	fb_free(&a);
}
END_TEST

/*
 * A record judged again exits with the status of the live run that made
 * it (front/status.h): 5 for a wraparound fake, 4 for a limbo one, 3
 * for a card short of the classes it states; the JSON says so too.
 */
static const struct {
	const char *spec;
	int status;
} live_status[] = {
	{ "size=2G,real_size=512M,fake=wrap,erase=4M,seed=3", 5 },
	{ "size=1G,real_size=256M,fake=limbo-zero,erase=4M,seed=3", 4 },
	{ "size=1G,erase=8M,page=32K,open=2,open_random=1,fat=2,noise=2,seed=7,claims=C10+U1+A1,au=8M", 3 },
	{ "size=1G,erase=8M,page=32K,open=2,open_random=1,fat=2,noise=2,seed=7", 0 },
};

START_TEST(test_record_status)
{
	char path[] = "/tmp/fb-record-statusXXXXXX", args[512], buf[16];
	struct fb_run live, again;
	FILE *f;
	int fd;

	snprintf(args, sizeof(args), "--auto --destructive --json -q --simulate=%s",
		 live_status[_i].spec);
	fb_run(args, &live);
	ck_assert_int_eq(live.status, live_status[_i].status);
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	ck_assert_ptr_nonnull(f);
	fputs(live.out, f);
	ck_assert_int_eq(fclose(f), 0);
	snprintf(args, sizeof(args), "--analyze=%s", path);
	fb_run(args, &again);
	ck_assert_msg(again.status == live.status, "%s: --analyze exits %d, the run %d",
		      live_status[_i].spec, again.status, live.status);
	fb_free(&again);
	snprintf(args, sizeof(args), "--analyze=%s --json", path);
	fb_run(args, &again);
	ck_assert_int_eq(again.status, live.status);
	ck_assert_str_eq(json_at(again.out, "short_of_claims", buf,
				 sizeof(buf)),
			 live.status ? "true" : "false");
	fb_free(&again);
	fb_free(&live);
	unlink(path);
}
END_TEST

/*
 * The records of the mains of 2026-11-26 and of today (tests/data/
 * records/README) are judged, not refused, with the live run's status:
 * the morning's (shape 1: align rows alone, no copy visits, no means, no
 * noise) from what they hold, saying what they lack and capping what
 * that costs, and still giving the sizes the simulated card was made
 * with (erase=8M, page=32K, open=2, open_random=1, fat=2; the fake's
 * erase=4M).
 */
static const struct {
	const char *name;
	int status;
	int shape1;		/* of the first shape: lacks all four */
	uint64_t erase_byte;	/* the card's, or 0: not asserted */
	int whole;		/* the card's page, open AUs and FAT too */
} shapes[] = {
	{ "2026-11-26-ea1bb01-genuine.json", 0, 1, 8 << 20, 1 },
	{ "2026-11-26-ea1bb01-claims.json", 3, 1, 8 << 20, 1 },
	{ "2026-11-26-ea1bb01-wrap.json", 5, 1, 4 << 20, 0 },
	{ "2026-11-26-f495ed4-claims.json", 3, 0, 8 << 20, 1 },
	{ "2026-11-26-f495ed4-wrap.json", 5, 0, 4 << 20, 0 },
	{ "2026-11-28-897e4cf-claims.json", 3, 0, 8 << 20, 1 },
	{ "2026-11-28-897e4cf-wrap.json", 5, 0, 4 << 20, 0 },
	/* shape 5 (the mapping, before open_au_*_at_least: shape 6) */
	{ "2026-11-28-bcf0889-claims.json", 3, 0, 8 << 20, 1 },
	{ "2026-11-28-bcf0889-wrap.json", 5, 0, 4 << 20, 0 },
};

START_TEST(test_record_shapes)
{
	char args[160], *text;
	struct jr_value *doc;
	struct auto_result r;
	struct fb_run a;
	char err[256];

	doc = load(shapes[_i].name, &text);
	ck_assert_msg(auto_record_read(doc, &r, err, sizeof(err)) == 0,
		      "%s: %s", shapes[_i].name, err);
	ck_assert_uint_eq(r.lacks, shapes[_i].shape1 ?
			  AUTO_LACK_POSITIONS | AUTO_LACK_NOISE |
			  AUTO_LACK_FAT_COPIES | AUTO_LACK_OPEN_PASSES : 0);
	auto_free(&r);
	jr_free(doc);
	free(text);

	snprintf(args, sizeof(args), "--analyze=" RECORDS "%s",
		 shapes[_i].name);
	fb_run(args, &a);
	ck_assert_msg(a.status == shapes[_i].status, "%s: exit %d: %s",
		      shapes[_i].name, a.status, a.err);
	ck_assert_int_eq(!!strstr(a.out, "the record, of an older shape (1), lacks what today's rules read"),
			 shapes[_i].shape1);
	fb_free(&a);

	snprintf(args, sizeof(args), "--analyze=" RECORDS "%s --json",
		 shapes[_i].name);
	fb_run(args, &a);
	ck_assert_int_eq(a.status, shapes[_i].status);
	if (shapes[_i].shape1) {
		ck_assert_str_eq(fb_json(&a, "record_lacks.0"), "\"positions\"");
		ck_assert_str_eq(fb_json(&a, "record_lacks.3"),
				 "\"open_au_passes\"");
		/* what the lacks cost: the write steps medium at most */
		ck_assert_str_eq(fb_json(&a, "verdict.confidence.open_au_linear"),
				 "\"medium\"");
		ck_assert_str_eq(fb_json(&a, "verdict.confidence.fat_start"),
				 "\"medium\"");
		ck_assert_str_eq(fb_json(&a, "results.3.timing_noise"), "null");
	} else {
		ck_assert_ptr_null(strstr(a.out, "\"record_lacks\""));
	}
	snprintf(args, sizeof(args), "%llu",
		 (unsigned long long)shapes[_i].erase_byte);
	ck_assert_str_eq(fb_json(&a, "verdict.erase_size"), args);
	if (shapes[_i].whole) {
		ck_assert_str_eq(fb_json(&a, "verdict.page_size"), "32768");
		ck_assert_str_eq(fb_json(&a, "verdict.open_au_linear"), "2");
		ck_assert_str_eq(fb_json(&a, "verdict.open_au_random"), "1");
		ck_assert_str_eq(fb_json(&a, "verdict.fat_start"), "0");
		ck_assert_str_eq(fb_json(&a, "verdict.fat_erase_blocks"), "2");
	}
	fb_free(&a);
}
END_TEST

/* The line of text that starts with lead (malloc'd), or NULL. */
static char *line_of(const char *text, const char *lead)
{
	const char *p = strstr(text, lead), *e;

	if (!p)
		return NULL;
	e = strchr(p, '\n');
	return strndup(p, e ? (size_t)(e - p) : strlen(p));
}

#define CARD_B "size=1G,erase=8M,page=32K,open=2,open_random=1,fat=2," \
	       "noise=2,seed=7"

/*
 * The cards whose device time --analyze of their record says again: one
 * on AUs, and one that maps pages, whose unit probe and write cache take
 * their shares (the share the line must hold).
 */
static const char *const time_card[][2] = {
	{ CARD_B, ", class check " },
	{ "size=1G,erase=4M,page=16K,ftl=page,map=16K,noise=0",
	  ", mapping unit " },
};

/*
 * --analyze of an --auto --destructive record says the live run's device
 * time, class check and all, with each step's share, and the step of
 * the longest write; one of an older shape says what its figure leaves
 * out.
 */
START_TEST(test_record_device_time)
{
	struct fb_run live, rec, a;
	char *want, *got, cmd[256];

	snprintf(cmd, sizeof(cmd), "--auto --destructive -q --simulate=%s",
		 time_card[_i][0]);
	fb_run(cmd, &live);
	snprintf(cmd, sizeof(cmd),
		 "--auto --destructive --json -q --simulate=%s",
		 time_card[_i][0]);
	fb_run(cmd, &rec);
	ck_assert_int_eq(rec.status, live.status);
	record_analyze(rec.out, "", &a);
	unwrap_text(live.out);
	unwrap_text(a.out);
	want = line_of(live.out, "device time: ");
	got = line_of(a.out, "device time: ");
	ck_assert_ptr_nonnull(want);
	ck_assert_ptr_nonnull(strstr(want, time_card[_i][1]));
	ck_assert_ptr_nonnull(got);
	ck_assert_str_eq(got, want);
	free(want);
	free(got);
	/* and the step its longest write was made in */
	want = line_of(live.out, "  the longest was in ");
	got = line_of(a.out, "  the longest was in ");
	ck_assert_ptr_nonnull(want);
	ck_assert_ptr_nonnull(got);
	ck_assert_str_eq(got, want);
	free(want);
	free(got);
	fb_free(&a);
	fb_free(&rec);
	fb_free(&live);
	if (_i)
		return;
	/* a record of shape 2 does not hold the class check's time */
	fb_run("--analyze=" RECORDS "destructive-b.json", &a);
	got = line_of(a.out, "device time: ");
	ck_assert_str_eq(got, "device time: 16.29s, and the class check's, which the record does not hold");
	free(got);
	fb_free(&a);
}
END_TEST

/*
 * --analyze of a record says first whose record it is, when and by what
 * it was made, and that this version judged it again; its commands name
 * DEVICE, not the path a record of a real device names (which may now
 * be another disk).
 */
#define NO_DATE "record of a simulated card made on a date it does not say\n"
START_TEST(test_record_says_first)
{
	struct fb_run rec, a;
	char *real, *first;
	const char *p;

	setenv("SOURCE_DATE_EPOCH", "1795833094", 1);	/* 02:31:34 */
	fb_run("--auto --destructive --json -q --simulate=" CARD_B, &rec);
	unsetenv("SOURCE_DATE_EPOCH");
	record_analyze(rec.out, "", &a);
	check_width("--analyze", a.out);
	unwrap_text(a.out);
	first = line_of(a.out, "");
	ck_assert_str_eq(first, "record of a simulated card made on 2026-11-28 at 02:31:34 UTC");
	free(first);
	ck_assert_ptr_nonnull(strstr(a.out, "\nby flashbench " FLASHBENCH_VERSION ", judged again with the rules of flashbench " FLASHBENCH_VERSION "\n"));
	fb_free(&a);
	/* the same record as one of /dev/sdz */
	real = replaced(rec.out, "\"path\": \"simulated card\"",
			"\"path\": \"/dev/sdz\"", 0);
	first = real;
	real = replaced(first, "\"simulated\": true", "\"simulated\": false",
			0);
	free(first);
	record_analyze(real, "", &a);
	ck_assert_int_eq(a.status, rec.status);
	ck_assert_ptr_nonnull(strstr(a.out, "record of /dev/sdz made on 2026-11-28 at 02:31:34 UTC"));
	ck_assert_ptr_nonnull(strstr(a.out, "sudo sfdisk DEVICE\n"));
	/* the path only where the record's device is named */
	p = strstr(a.out, "/dev/sdz");
	ck_assert_ptr_nonnull(p);
	p = strstr(p + 1, "/dev/sdz");
	ck_assert_ptr_nonnull(p);
	ck_assert_ptr_nonnull(strstr(a.out, "its commands say DEVICE: the card's device now, which may not be /dev/sdz\n"));
	ck_assert_ptr_null(strstr(p + 1, "/dev/sdz"));
	fb_free(&a);
	free(real);
	fb_free(&rec);
	/* an -a record, and one of -L, of a version that kept no date */
	fb_run("--analyze=" RECORDS "align-a.json", &a);
	ck_assert(!strncmp(a.out, NO_DATE, strlen(NO_DATE)));
	fb_free(&a);
	fb_run("--analyze=" RECORDS "class.json", &a);
	ck_assert(!strncmp(a.out, NO_DATE, strlen(NO_DATE)));
	fb_free(&a);
}
END_TEST

/*
 * --analyze --json --hide-serial shares an older record as a run with
 * --hide-serial would have written it: the serial number out of the
 * card, the CID and the kernel's attribute, the same hash in its place.
 */
START_TEST(test_record_hide_serial)
{
	static const char spec[] = "claims=C10+U1,seed=3";
	struct fb_run plain, hidden, a;
	char args[160], want[48], got[48];

	snprintf(args, sizeof(args), "-L --json -q --simulate=%s", spec);
	fb_run(args, &plain);
	snprintf(args, sizeof(args), "-L --json -q --hide-serial --simulate=%s",
		 spec);
	fb_run(args, &hidden);
	ck_assert_int_eq(hidden.status, plain.status);
	record_analyze(plain.out, " --json --hide-serial", &a);
	ck_assert_int_eq(a.status, plain.status);
	snprintf(want, sizeof(want), "%s",
		 fb_json(&hidden, "device.card.serial_hash"));
	snprintf(got, sizeof(got), "%s", fb_json(&a, "device.card.serial_hash"));
	ck_assert_str_eq(got, want);
	ck_assert_str_eq(fb_json(&a, "device.card.serial"), "null");
	snprintf(want, sizeof(want), "%s",
		 fb_json(&hidden, "device.card.registers.cid"));
	ck_assert_str_eq(fb_json(&a, "device.card.registers.cid"), want);
	ck_assert_ptr_null(strstr(a.out, "\"serial\": \"0x"));
	fb_free(&a);
	fb_free(&hidden);
	fb_free(&plain);
}
END_TEST

Suite *record_suite(void)
{
	Suite *s = suite_create("record");
	TCase *tc = tcase_create("record");

	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test_record_hard_cards);
	tcase_add_test(tc, test_record_before);
	tcase_add_test(tc, test_record_missing);
	tcase_add_loop_test(tc, test_record_class, 0, 3);
	tcase_add_loop_test(tc, test_record_capacity, 0, 5);
	tcase_add_loop_test(tc, test_record_status, 0,
			    sizeof(live_status) / sizeof(live_status[0]));
	tcase_add_loop_test(tc, test_record_shapes, 0,
			    sizeof(shapes) / sizeof(shapes[0]));
	tcase_add_loop_test(tc, test_record_device_time, 0,
			    ARRAY_SIZE(time_card));
	tcase_add_test(tc, test_record_says_first);
	tcase_add_test(tc, test_record_hide_serial);
	suite_add_tcase(s, tc);
	return s;
}
