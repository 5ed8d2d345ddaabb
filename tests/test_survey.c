// SPDX-License-Identifier: GPL-2.0-only
/*
 * --survey (front/survey.c, output/surveyrow.c, output/survey.c): the
 * records of 26 simulated cards, written here by --auto --destructive
 * --json (and one by -C, one by -L), and an eMMC's --registers, surveyed in all four formats against tests/golden/survey.*
 * (GOLDEN_UPDATE=1, as `make golden` sets it, writes them anew); the
 * rows' values, a card measured twice, a card without registers, and
 * files that are not records.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jsonread.h"
#include "util.h"

/* The cards: --simulate SPEC of each, and how it is measured. */
static const struct {
	const char *args;	/* before --json -q --simulate= */
	const char *spec;
} cards[] = {
	{ "--auto --destructive", "seed=1,size=1G,erase=4M,page=16K,open=4,claims=C10+U1" },
	{ "--auto --destructive", "seed=2,size=2G,erase=4M,page=8K,open=2,open_random=1,claims=C4" },
	{ "--auto --destructive", "seed=3,size=512M,erase=2M,page=4K,open=6,fat=2,claims=C10" },
	{ "--auto --destructive", "seed=4,size=4G,erase=8M,page=32K,open=3,claims=C10+U3+V30+A1" },
	{ "--auto --destructive", "seed=5,size=1G,erase=1M,page=4K,open=1,claims=C2" },
	{ "--auto --destructive", "seed=6,size=2G,erase=6M,page=16K,open=5,au=4M" },
	{ "--auto --destructive", "seed=7,size=1G,erase=4M,page=16K,open=8,open_random=4,claims=C6,au=4M" },
	{ "--auto --destructive", "seed=8,size=8G,real_size=1G,fake=wrap,erase=4M,claims=C10" },
	{ "--auto --destructive", "seed=9,size=4G,real_size=512M,fake=limbo-zero,erase=4M,claims=C10+U1" },
	{ "--auto --destructive", "seed=10,size=2G,real_size=1G,fake=limbo-garbage,erase=4M,claims=C10,cache=1M" },
	{ "--auto --destructive", "seed=11,size=1G,erase=4M,page=16K,open=4,host=heavy,claims=C10" },
	{ "--auto --destructive", "seed=12,size=1G,erase=4M,page=16K,open=4,write_mbps=3,claims=C10+U1" },
	{ "--auto --destructive", "seed=13,size=2G,erase=12M,page=16K,open=2,au=12M" },
	{ "--auto --destructive", "seed=14,size=1G,erase=16M,page=64K,open=2,claims=A2" },
	{ "--auto --destructive", "seed=15,size=512M,erase=4M,page=16K,open=4,fat=1,fat_start=2,claims=C10" },
	{ "--auto --destructive", "seed=16,size=1G,erase=4M,page=16K,open=4,readsig=0,claims=C10" },
	{ "--auto --destructive", "seed=17,size=1G,erase=4M,page=16K,open=4,plane=2,claims=V10" },
	{ "--auto --destructive", "seed=18,size=2G,erase=4M,page=16K,open=16,open_random=8,claims=C10+U1+V10+A1" },
	{ "--auto --destructive", "seed=19,size=1G,erase=3M,page=16K,open=3,au=2M" },
	{ "--auto --destructive", "seed=20,size=1G,erase=4M,page=16K,open=4,used=0,claims=C10" },
	{ "--auto --destructive", "seed=21,size=256M,erase=512K,page=4K,open=2,claims=C4" },
	{ "--auto --destructive", "seed=22,size=1G,erase=4M,page=16K,open=4,host=light,claims=C10" },
	/* no registers: no claims=, no au= (a USB bridge, a loop device) */
	{ "--auto --destructive", "seed=23,size=1G,erase=4M,page=16K,open=4" },
	/* read-only --auto: no open AUs, FAT area or capacity */
	{ "--auto", "seed=24,size=2G,erase=8M,page=16K,claims=C10" },
	/* one card by -C, then by -L: one row of both */
	{ "-C", "seed=25,size=4G,real_size=2G,fake=wrap,claims=C10" },
	{ "-L", "seed=25,size=4G,real_size=2G,fake=wrap,claims=C10" },
	/* card 1 measured again, later: its row is this record's */
	{ "--auto --destructive", "seed=1,size=1G,erase=4M,page=8K,open=2,claims=C10+U1" },
	/* a page-mapped A1 card in 16 KiB units, no read signature */
	{ "--auto --destructive", "seed=26,size=1G,readsig=0,ftl=page,map=16K,claims=C10+A1" },
	/* an eMMC's registers: its EXT_CSD (wear, size), no CID */
	{ "--registers tests/data/extcsd/samsung-bjnb4r", NULL },
	/* a card behind a 128 MiB pSLC write cache */
	{ "--auto --destructive", "seed=27,size=1G,erase=4M,slc=128M,claims=C10+U3+V30" },
};

#define NR_CARDS (sizeof(cards) / sizeof(cards[0]))
#define NR_ROWS (NR_CARDS - 2)	/* card 1 and card 25 twice */

static char dir[64];

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

/* A file's text, NUL-terminated, or NULL. */
static char *slurp_text(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t cap = 0;
	FILE *mem;
	int c;

	*len = 0;
	if (!f)
		return NULL;
	mem = open_memstream(&text, &cap);
	ck_assert_ptr_nonnull(mem);
	while ((c = getc(f)) != EOF)
		putc(c, mem);
	fclose(f);
	fclose(mem);
	*len = cap;
	return text;
}

/*
 * Write the records, NN.json, each a second after the one before: its
 * run's start (the record's "started") and its file's time.
 */
static void records_make(void)
{
	char args[256], path[128];
	struct timespec t[2];
	struct fb_run r;
	size_t i;

	snprintf(dir, sizeof(dir), "/tmp/fb-survey.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	for (i = 0; i < NR_CARDS; i++) {
		char epoch[24];

		/* each run a second after the one before, as its file */
		snprintf(epoch, sizeof(epoch), "%lld", 1700000000LL + (long long)i);
		setenv("SOURCE_DATE_EPOCH", epoch, 1);
		if (cards[i].spec)
			snprintf(args, sizeof(args), "%s --json -q --simulate=%s",
				 cards[i].args, cards[i].spec);
		else
			snprintf(args, sizeof(args), "%s --json -q",
				 cards[i].args);
		fb_run(args, &r);
		unsetenv("SOURCE_DATE_EPOCH");
		ck_assert_msg(r.status == 0 || (r.status >= 3 && r.status <= 5),
			      "%s: %d %s",
			      args, r.status, r.err);
		snprintf(path, sizeof(path), "%s/%02zu.json", dir, i + 1);
		write_text(path, r.out);
		t[0].tv_sec = t[1].tv_sec = 1700000000 + (time_t)i;
		t[0].tv_nsec = t[1].tv_nsec = 0;
		ck_assert_int_eq(utimensat(AT_FDCWD, path, t, 0), 0);
		fb_free(&r);
	}
}

static void records_remove(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* --survey ARGS run in the records' directory (paths "./NN.json"). */
static void survey(const char *args, struct fb_run *r)
{
	char here[4096], line[256];

	ck_assert_ptr_nonnull(getcwd(here, sizeof(here)));
	ck_assert_int_eq(chdir(dir), 0);
	snprintf(line, sizeof(line), "--survey %s", args);
	fb_run(line, r);
	ck_assert_int_eq(chdir(here), 0);
}

/* The golden tables: the file name, the options. */
static const struct {
	const char *name, *args;
} formats[] = {
	{ "survey.txt", "." },
	{ "survey.csv", "--csv ." },
	{ "survey.md", "--markdown ." },
	{ "survey.json", "--json ." },
};

START_TEST(test_survey_golden)
{
	char path[256];
	struct fb_run r;

	survey(formats[_i].args, &r);
	ck_assert_msg(r.status == 0, "%d %s", r.status, r.err);
	ck_assert_str_eq(unwrap_err(r.err), "");
	snprintf(path, sizeof(path), "tests/golden/%s", formats[_i].name);
	if (getenv("GOLDEN_UPDATE")) {
		write_text(path, r.out);
	} else {
		size_t len;
		char *want = slurp_text(path, &len);

		ck_assert_msg(want && !strcmp(want, r.out),
			      "--survey %s differs from %s (make golden, then git diff)",
			      formats[_i].args, path);
		free(want);
	}
	fb_free(&r);
}
END_TEST

/* The row whose "record" is ./NN.json, from the --json table. */
static const struct jr_value *row_of(const struct jr_value *rows,
				     unsigned int nn)
{
	char name[16];
	size_t i;

	snprintf(name, sizeof(name), "./%02u.json", nn);
	for (i = 0; i < jr_len(rows); i++)
		if (!strcmp(jr_str(jr_get(jr_at(rows, i), "record"), ""),
			    name))
			return jr_at(rows, i);
	ck_abort_msg("no row of %s", name);
	return NULL;
}

static uint64_t value(const struct jr_value *row, const char *key)
{
	char path[64];

	snprintf(path, sizeof(path), "%s.value", key);
	return jr_u64(jr_path(row, path), UINT64_MAX);
}

/* The rows hold what the records measured, one per card. */
START_TEST(test_survey_rows)
{
	const struct jr_value *row;
	struct jr_value *rows;
	char err[JR_ERR_LEN];
	struct fb_run r;
	size_t i;

	survey("--json .", &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_int_eq(jr_parse(r.out, strlen(r.out), NULL, &rows, err,
				  sizeof(err)), 0);
	ck_assert_uint_eq(jr_len(rows), NR_ROWS);
	/* card 1, twice: the newer record (8K page, 2 open), 2 records */
	row = row_of(rows, 27);
	ck_assert_uint_eq(jr_u64(jr_get(row, "records"), 0), 2);
	ck_assert_uint_eq(value(row, "page_size"), 8 << 10);
	ck_assert_uint_eq(value(row, "open_au_linear"), 2);
	/* a fake: its usable size, not what it announces */
	row = row_of(rows, 8);
	ck_assert_uint_eq(value(row, "size"), 8ULL << 30);
	ck_assert_uint_eq(value(row, "usable_size"), 1ULL << 30);
	ck_assert_str_eq(jr_str(jr_get(row, "capacity_kind"), ""),
			 "wraparound");
	/* stated and measured AU differ: 2M stated, 3M measured */
	row = row_of(rows, 19);
	ck_assert_uint_eq(value(row, "au_stated"), 2 << 20);
	ck_assert_uint_eq(value(row, "erase_size"), 3 << 20);
	/* FAT area at the third AU */
	row = row_of(rows, 15);
	ck_assert_uint_eq(value(row, "fat_start"), 8 << 20);
	ck_assert_uint_eq(value(row, "fat_size"), 4 << 20);
	/* a busy host: open AUs with medium and low confidence */
	row = row_of(rows, 11);
	ck_assert_str_eq(jr_str(jr_path(row, "open_au_linear.confidence"),
				""), "medium");
	ck_assert_str_eq(jr_str(jr_path(row, "open_au_random.confidence"),
				""), "low");
	/* no registers: named by its device, no identity */
	row = row_of(rows, 23);
	ck_assert_str_eq(jr_str(jr_get(row, "device"), ""), "simulated card");
	ck_assert(jr_is(jr_get(row, "manfid"), JR_NULL));
	ck_assert(jr_is(jr_get(row, "serial_hash"), JR_NULL));
	/* -C, then -L of one card: the usable size of one, classes of the other */
	row = row_of(rows, 26);
	ck_assert_uint_eq(jr_u64(jr_get(row, "records"), 0), 2);
	ck_assert_uint_eq(value(row, "usable_size"), 2ULL << 30);
	ck_assert_str_eq(jr_str(jr_path(row, "classes_measured.0.class"), ""),
			 "C10");
	ck_assert(jr_is(jr_get(row, "erase_size"), JR_NULL));
	/* read-only --auto: geometry, no open AUs */
	row = row_of(rows, 24);
	ck_assert_uint_eq(value(row, "erase_size"), 8 << 20);
	ck_assert(jr_is(jr_get(row, "open_au_linear"), JR_NULL));
	/* a page-mapped card: pages, its unit */
	row = row_of(rows, 28);
	ck_assert_str_eq(jr_str(jr_path(row, "mapping.value"), ""), "pages");
	ck_assert_uint_eq(value(row, "mapping_unit"), 16 << 10);
	row = row_of(rows, 27);
	ck_assert_str_eq(jr_str(jr_path(row, "mapping.value"), ""), "aus");
	ck_assert(jr_is(jr_get(row, "mapping_unit"), JR_NULL));
	/* an eMMC: its size and wear from its EXT_CSD (type A and B: 6,
	 * 50-60 % used; pre-EOL 1, normal); no mapping measured */
	row = row_of(rows, 29);
	ck_assert_uint_eq(value(row, "size"), 31268536320ULL);
	ck_assert_uint_eq(jr_u64(jr_get(row, "life_time_est_typ_a"), 0), 6);
	ck_assert_uint_eq(jr_u64(jr_get(row, "life_time_est_typ_b"), 0), 6);
	ck_assert_uint_eq(jr_u64(jr_get(row, "pre_eol_info"), 0), 1);
	ck_assert(jr_is(jr_get(row, "mapping"), JR_NULL));
	ck_assert(jr_is(jr_get(row_of(rows, 28), "life_time_est_typ_a"),
			JR_NULL));
	/* a write cache: about its 128 MiB (within 2 %), fast, then slow;
	 * a card without one: none seen; read-only --auto: not measured */
	row = row_of(rows, 30);
	ck_assert(jr_bool(jr_path(row, "write_cache.seen"), 0));
	ck_assert_uint_ge(jr_u64(jr_path(row, "write_cache.size"), 0),
			  (128ULL << 20) * 98 / 100);
	ck_assert_uint_le(jr_u64(jr_path(row, "write_cache.size"), 0),
			  (128ULL << 20) * 102 / 100);
	ck_assert(jr_double(jr_path(row, "write_cache.fast_mbps"), 0) >
		  2 * jr_double(jr_path(row, "write_cache.native_mbps"), 0));
	ck_assert(!jr_bool(jr_path(row_of(rows, 22), "write_cache.seen"), 1));
	ck_assert(jr_is(jr_get(row_of(rows, 24), "write_cache"), JR_NULL));
	/* the longest write: a destructive run's, p99 no longer */
	ck_assert_uint_gt(jr_u64(jr_get(row, "write_max_ns"), 0), 0);
	ck_assert_uint_le(jr_u64(jr_get(row, "write_p99_ns"), 0),
			  jr_u64(jr_get(row, "write_max_ns"), 0));
	ck_assert(jr_is(jr_get(row_of(rows, 24), "write_max_ns"),
			JR_NULL));
	/* sorted by manufacturer: the cards without one last (the
	 * simulated card without registers, the eMMC without its CID) */
	ck_assert(jr_is(jr_get(jr_at(rows, NR_ROWS - 1), "manfid"),
			JR_NULL));
	ck_assert(jr_is(jr_get(jr_at(rows, NR_ROWS - 2), "manfid"),
			JR_NULL));
	for (i = 0; i + 1 < NR_ROWS - 2; i++)
		ck_assert_str_lt(jr_str(jr_get(jr_at(rows, i), "serial_hash"),
					""),
				 jr_str(jr_get(jr_at(rows, i + 1),
					       "serial_hash"), ""));
	jr_free(rows);
	fb_free(&r);
}
END_TEST

/*
 * The newest record of a card is the one whose run started last, as the
 * record says ("started"), whatever the files' times say (a copy or a
 * download changes them): card 1's first record, its file touched
 * later than the second's, still gives way to it.
 */
START_TEST(test_survey_newest_started)
{
	const struct jr_value *row;
	struct jr_value *rows;
	char err[JR_ERR_LEN], path[128];
	struct timespec t[2];
	struct fb_run r;

	snprintf(path, sizeof(path), "%s/01.json", dir);
	t[0].tv_sec = t[1].tv_sec = 1800000000;
	t[0].tv_nsec = t[1].tv_nsec = 0;
	ck_assert_int_eq(utimensat(AT_FDCWD, path, t, 0), 0);
	survey("--json .", &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_int_eq(jr_parse(r.out, strlen(r.out), NULL, &rows, err,
				  sizeof(err)), 0);
	row = row_of(rows, 27);
	ck_assert_ptr_nonnull(row);
	ck_assert_uint_eq(jr_u64(jr_get(row, "records"), 0), 2);
	ck_assert_uint_eq(value(row, "page_size"), 8 << 10);
	jr_free(rows);
	fb_free(&r);
	t[0].tv_sec = t[1].tv_sec = 1700000000;
	ck_assert_int_eq(utimensat(AT_FDCWD, path, t, 0), 0);
}
END_TEST

/*
 * A record written with --hide-serial is the same card's as the others:
 * its serial_hash is the hash of their whole CID, and --survey joins it
 * to them (card 24's record and one of its align table, hidden).
 */
START_TEST(test_survey_hidden_serial)
{
	char args[256], path[128];
	struct fb_run r;

	snprintf(args, sizeof(args), "-a -c 1 --json -q --hide-serial --simulate=%s",
		 cards[23].spec);
	fb_run(args, &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_ptr_nonnull(strstr(r.out, "\"serial_hash\""));
	snprintf(path, sizeof(path), "%s/hidden.json", dir);
	write_text(path, r.out);
	fb_free(&r);
	survey("--csv 24.json hidden.json", &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_uint_eq(count_str(r.out, "\n"), 2);	/* head, one row */
	ck_assert_ptr_nonnull(strstr(r.out, ",2,"));	/* of 2 records */
	fb_free(&r);
	unlink(path);
}
END_TEST

/* No format shows a serial number or the CID that holds it. */
START_TEST(test_survey_no_serial)
{
	char path[128], cid[64], needle[80];
	struct jr_value *rec;
	char err[JR_ERR_LEN], *text;
	struct fb_run r;
	size_t i, len;

	snprintf(path, sizeof(path), "%s/01.json", dir);
	text = slurp_text(path, &len);
	ck_assert_int_eq(jr_parse(text, len, NULL, &rec, err, sizeof(err)), 0);
	snprintf(cid, sizeof(cid), "%s",
		 jr_str(jr_path(rec, "device.card.registers.cid"), ""));
	ck_assert_uint_eq(strlen(cid), 32);
	jr_free(rec);
	free(text);
	for (i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		survey(formats[i].args, &r);
		ck_assert_ptr_null(strstr(r.out, cid));
		/* the serial, 0x00000001, as 8 hex digits */
		snprintf(needle, sizeof(needle), "%.8s", cid + 18);
		ck_assert_ptr_null(strstr(r.out, needle));
		ck_assert_ptr_null(strstr(r.out, "\"serial\""));
		fb_free(&r);
	}
}
END_TEST

/* What is not a record is named with why; the others still make a table. */
START_TEST(test_survey_bad_files)
{
	static const struct {
		const char *name, *text, *err;
	} bad[] = {
		{ "trunc.json", "{\"version\": \"2.0.0\", \"test\": \"auto\",",
		  "trunc.json:1:37: a member name in '\"' expected, found the end of the text (truncated?) (not a whole JSON document)" },
		{ "text.json", "erase size 4MiB\n",
		  "text.json:1:1: text, not JSON: not a flashbench record" },
		{ "empty.json", " \n",
		  "empty.json:1:1: empty: not a flashbench record" },
		{ "kind.json", "{\"version\": \"2.0.0\", \"test\": \"nope\"}",
		  "kind.json:1:30: a record of test \"nope\", unknown to flashbench " FLASHBENCH_VERSION },
		{ "array.json", "[1, 2]",
		  "array.json:1:1: no \"version\" and \"test\": not a flashbench record" },
		{ "future.json", "{\"version\": \"3.0.0\", \"test\": \"auto\"}",
		  "future.json:1:13: a record of version \"3.0.0\", unknown to flashbench " FLASHBENCH_VERSION " (it reads version 2.x)" },
	};
	char path[128], args[512], line[512];
	struct fb_run r;
	size_t i, n;

	n = (size_t)snprintf(args, sizeof(args), "01.json");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, bad[i].name);
		write_text(path, bad[i].text);
		n += (size_t)snprintf(args + n, sizeof(args) - n, " %s",
				      bad[i].name);
	}
	snprintf(args + n, sizeof(args) - n, " missing.json");
	survey(args, &r);
	ck_assert_int_eq(r.status, 2);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct fb_run a;

		snprintf(line, sizeof(line), "flashbench: %s\n", bad[i].err);
		ck_assert_msg(strstr(r.err, line), "want %s in %s", line,
			      r.err);
		/* --analyze words the same file the same way */
		snprintf(path, sizeof(path), "%s/%s", dir, bad[i].name);
		snprintf(line, sizeof(line), "--analyze=%s", path);
		fb_run(line, &a);
		ck_assert_int_eq(a.status, 2);
		snprintf(line, sizeof(line), "flashbench: --analyze: %s/%s\n",
			 dir, bad[i].err);
		ck_assert_msg(!strcmp(a.err, line), "want %s, not %s", line,
			      a.err);
		fb_free(&a);
		unlink(path);
	}
	ck_assert(strstr(r.err, "flashbench: missing.json: No such file or directory\n"));
	ck_assert(strstr(r.err, "flashbench: --survey: 7 files left out\n"));
	ck_assert_uint_eq(count_str(r.err, "\n"), 8);
	/* the good record's card, alone (one line not indented: its first) */
	ck_assert_uint_eq(count_str(r.out, "01.json"), 1);
	/* its first line, and the legend's two */
	ck_assert_uint_eq(count_str(r.out, "\n") - count_str(r.out, "\n  "),
			  3);
	fb_free(&r);
}
END_TEST

/* The --json table of --survey ARGS (in the records' directory), parsed. */
static struct jr_value *survey_rows(const char *args)
{
	char line[512], err[JR_ERR_LEN];
	struct jr_value *rows;
	struct fb_run r;

	snprintf(line, sizeof(line), "--json %s", args);
	survey(line, &r);
	ck_assert_msg(r.status == 0, "%s: %d %s", args, r.status, r.err);
	ck_assert_int_eq(jr_parse(r.out, strlen(r.out), NULL, &rows, err,
				  sizeof(err)), 0);
	fb_free(&r);
	return rows;
}

/* Write what flashbench ARGS prints into the records' directory as name. */
static void record_made(const char *args, const char *name)
{
	char path[128];
	struct fb_run r;

	fb_run(args, &r);
	ck_assert_msg(r.status == 0, "%s: %d %s", args, r.status, r.err);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	write_text(path, r.out);
	fb_free(&r);
}

/* Every class measured is kept: a card stating none was measured on 13. */
START_TEST(test_survey_all_classes)
{
	struct jr_value *rows = survey_rows("23.json");
	const struct jr_value *m =
		jr_get(jr_at(rows, 0), "classes_measured");

	ck_assert_uint_eq(jr_len(m), 13);
	ck_assert_str_eq(jr_str(jr_get(jr_at(m, 8), "class"), ""), "V30");
	ck_assert_str_eq(jr_str(jr_get(jr_at(m, 12), "class"), ""), "A2");
	jr_free(rows);
}
END_TEST

/* A file named twice, or met again in its directory, is one record. */
START_TEST(test_survey_twice)
{
	struct jr_value *rows = survey_rows("01.json 01.json ./01.json");

	ck_assert_uint_eq(jr_len(rows), 1);
	ck_assert_uint_eq(jr_u64(jr_get(jr_at(rows, 0), "records"), 0), 1);
	ck_assert_str_eq(jr_str(jr_get(jr_at(rows, 0), "grouped_by"), ""),
			 "card");
	jr_free(rows);
	rows = survey_rows(". 03.json");
	ck_assert_uint_eq(jr_len(rows), NR_ROWS);
	jr_free(rows);
}
END_TEST

/*
 * Records without registers: one row per device path, size and verdict.
 * Card 23 (4M AUs) again read-only, and another card (8M AUs) on the
 * same path: two rows, the first of two records.
 */
START_TEST(test_survey_no_registers)
{
	const struct jr_value *a, *b;
	struct jr_value *rows;
	char path[128];

	record_made("--auto --json -q --simulate=seed=40,size=1G,erase=4M,page=16K",
		    "x40.json");
	record_made("--auto --json -q --simulate=seed=41,size=1G,erase=8M,page=16K",
		    "x41.json");
	rows = survey_rows("23.json x40.json x41.json");
	ck_assert_uint_eq(jr_len(rows), 2);
	a = jr_at(rows, 0);
	b = jr_at(rows, 1);
	if (value(a, "erase_size") != 4 << 20) {
		const struct jr_value *t = a;

		a = b;
		b = t;
	}
	ck_assert_uint_eq(value(a, "erase_size"), 4 << 20);
	ck_assert_uint_eq(jr_u64(jr_get(a, "records"), 0), 2);
	ck_assert_str_eq(jr_str(jr_get(a, "grouped_by"), ""), "device");
	ck_assert_uint_eq(value(b, "erase_size"), 8 << 20);
	ck_assert_uint_eq(jr_u64(jr_get(b, "records"), 0), 1);
	jr_free(rows);
	snprintf(path, sizeof(path), "%s/x40.json", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/x41.json", dir);
	unlink(path);
}
END_TEST

/* An -a record's rows are judged; a --registers record's CSD gives a size. */
START_TEST(test_survey_align_registers)
{
	char here[4096], args[4200], path[128];
	const struct jr_value *row;
	struct jr_value *rows;

	ck_assert_ptr_nonnull(getcwd(here, sizeof(here)));
	snprintf(args, sizeof(args), "--registers %s/tests/data/registers-sl16g --json",
		 here);
	record_made(args, "x50.json");
	snprintf(args, sizeof(args), "%s/tests/data/records/align-a.json x50.json",
		 here);
	rows = survey_rows(args);
	ck_assert_uint_eq(jr_len(rows), 2);
	row = jr_at(rows, 0);	/* sorted: the card with a manufacturer */
	ck_assert_str_eq(jr_str(jr_get(row, "name"), ""), "SL16G");
	ck_assert_uint_eq(value(row, "size"), 15476981760ULL);
	row = jr_at(rows, 1);
	ck_assert_str_eq(jr_str(jr_get(row, "record_test"), ""), "align");
	ck_assert_uint_eq(value(row, "erase_size"), 4 << 20);
	ck_assert_str_eq(jr_str(jr_path(row, "erase_size.confidence"), ""),
			 "high");
	jr_free(rows);
	snprintf(path, sizeof(path), "%s/x50.json", dir);
	unlink(path);
}
END_TEST

/* "-" reads a record from standard input; -o writes the table to a file. */
START_TEST(test_survey_stdin_out)
{
	char cmd[512], path[128];
	struct cmd_result res;
	char *argv[] = { "/bin/sh", "-c", cmd, NULL };

	snprintf(cmd, sizeof(cmd), "cd %s && %s%s --survey --csv - < 05.json",
		 dir, flashbench_bin()[0] == '/' ? "" : "\"$OLDPWD\"/",
		 flashbench_bin());
	ck_assert_int_eq(run_cmd(argv, &res), 0);
	ck_assert_msg(res.status == 0, "%s", res.err);
	ck_assert_uint_eq(count_str(res.out, "\n"), 2);
	ck_assert(strstr(res.out, ",C2:pass,1,standard input\n"));
	cmd_result_free(&res);
	snprintf(path, sizeof(path), "%s/table.txt", dir);
	snprintf(cmd, sizeof(cmd), "--survey -o %s %s/05.json", path, dir);
	{
		struct fb_run r;
		char *text;
		size_t len;

		fb_run(cmd, &r);
		ck_assert_int_eq(r.status, 0);
		ck_assert_str_eq(r.out, "");
		fb_free(&r);
		text = slurp_text(path, &len);
		ck_assert_ptr_nonnull(text);
		ck_assert(strstr(text, "05.json\n"));
		free(text);
		unlink(path);
		/* never over a record it reads */
		snprintf(cmd, sizeof(cmd), "--survey -o %s/05.json %s",
			 dir, dir);
		fb_run(cmd, &r);
		ck_assert_int_eq(r.status, 2);
		ck_assert(strstr(r.err, "a record --survey reads"));
		fb_free(&r);
		snprintf(path, sizeof(path), "%s/05.json", dir);
		text = slurp_text(path, &len);
		ck_assert(len > 1000);
		free(text);
	}
}
END_TEST

/* Bad command lines, refused before any file is read. */
static const struct {
	const char *args, *err;
} bad_args[] = {
	{ "--survey", "flashbench: --survey needs FILE... (records written by --json, or directories of them)\n" },
	{ "--csv x.json", "flashbench: --csv formats --survey's table: it needs --survey\n" },
	{ "--markdown --simulate", "flashbench: --markdown formats --survey's table: it needs --survey\n" },
	{ "--survey --csv --json x.json", "flashbench: --csv, --markdown and --json exclude each other\n" },
	{ "--survey -a x.json", "flashbench: --survey reads records on its own, without tests, --auto, --analyze, --simulate, --plot or --preserve\n" },
	{ "--survey --simulate x.json", "flashbench: --survey reads records on its own, without tests, --auto, --analyze, --simulate, --plot or --preserve\n" },
	{ "--survey --plot p.svg x.json", "flashbench: --survey reads records on its own, without tests, --auto, --analyze, --simulate, --plot or --preserve\n" },
};

START_TEST(test_survey_bad_args)
{
	struct fb_run r;

	fb_run(bad_args[_i].args, &r);
	ck_assert_int_eq(r.status, 2);
	ck_assert_str_eq(unwrap_err(r.err), bad_args[_i].err);
	ck_assert_str_eq(r.out, "");
	ck_assert_uint_eq(r.opens, 0);
	fb_free(&r);
}
END_TEST

Suite *survey_suite(void)
{
	Suite *s = suite_create("survey");
	TCase *tc = tcase_create("records");
	TCase *args = tcase_create("args");

	tcase_add_unchecked_fixture(tc, records_make, records_remove);
	tcase_add_loop_test(tc, test_survey_golden, 0,
			    sizeof(formats) / sizeof(formats[0]));
	tcase_add_test(tc, test_survey_rows);
	tcase_add_test(tc, test_survey_newest_started);
	tcase_add_test(tc, test_survey_hidden_serial);
	tcase_add_test(tc, test_survey_no_serial);
	tcase_add_test(tc, test_survey_bad_files);
	tcase_add_test(tc, test_survey_all_classes);
	tcase_add_test(tc, test_survey_twice);
	tcase_add_test(tc, test_survey_no_registers);
	tcase_add_test(tc, test_survey_align_registers);
	tcase_add_test(tc, test_survey_stdin_out);
	suite_add_tcase(s, tc);
	tcase_add_loop_test(args, test_survey_bad_args, 0,
			    sizeof(bad_args) / sizeof(bad_args[0]));
	suite_add_tcase(s, args);
	return s;
}
