// SPDX-License-Identifier: GPL-2.0-only
/*
 * --preserve (safety/preserve.c): save, scribble, restore to the bit on
 * regular files, the simulated card and loop devices; journals of other
 * devices and damaged journals refused without a single write; a
 * failing device keeps the journal; --restore checks what it restores
 * over.
 */
#include <ftw.h>
#include <signal.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "autorun.h"
#include "blockdev.h"
#include "cli.h"
#include "fault.h"
#include "modes.h"
#include "preserve.h"
#include "recdev.h"
#include "sim.h"
#include "tfiles.h"
#include "util.h"

/* ---- preserve on regular files ---- */

START_TEST(test_preserve_roundtrip)
{
	char path[256], journal[256], tmp[300];
	struct device *dev;
	unsigned char *before;
	struct preserve *p;
	char why[256] = "x";

	t_make_file(t_path(path, sizeof(path), "card"), T_SIZE, 1);
	t_path(journal, sizeof(journal), "card.journal");
	dev = t_open(path);
	before = t_snapshot(dev);
	p = t_save(dev, journal);
	ck_assert_uint_eq(preserve_bytes(p), 8 * KiB + 3 * MiB + 4 * KiB);
	ck_assert_str_eq(preserve_journal(p), journal);
	ck_assert(t_exists(journal));
	snprintf(tmp, sizeof(tmp), "%s.tmp", journal);
	ck_assert(!t_exists(tmp));
	/* the backup is a read: the device is unchanged */
	ck_assert(t_same(dev, before));
	t_scribble(dev);
	ck_assert(!t_same(dev, before));
	ck_assert(t_exists(journal));
	ck_assert_int_eq(preserve_restore(p, why, sizeof(why)), 0);
	ck_assert_str_eq(why, "");
	ck_assert(t_same(dev, before));
	ck_assert(!t_exists(journal));
	preserve_free(p);
	dev_close(dev);
	free(before);
}
END_TEST

/* The journal is a complete, self-describing file of the right size. */
START_TEST(test_preserve_journal_layout)
{
	char path[256], journal[256];
	struct device *dev;
	unsigned char *j;
	struct preserve *p;
	size_t len;

	t_make_file(t_path(path, sizeof(path), "card"), T_SIZE, 2);
	t_path(journal, sizeof(journal), "card.journal");
	dev = t_open(path);
	p = t_save(dev, journal);
	j = t_read_file(journal, &len);
	ck_assert_uint_eq(len, 192 + T_NRANGES * 24 + preserve_bytes(p) + 24 +
				       T_STATE_BYTE(preserve_bytes(p)));
	ck_assert(!memcmp(j, "FBJOURNL", 8));
	ck_assert_uint_eq(j[8], 2);	/* saved at once; 3 saved sparse */
	ck_assert_uint_eq(j[12] | j[13] << 8, 512);
	ck_assert_uint_eq(j[16 + 2], (T_SIZE >> 16) & 0xff);
	ck_assert_str_eq((char *)j + 56, path);
	ck_assert(!memcmp(j + len - T_STATE_BYTE(preserve_bytes(p)) - 24,
			  "FBJ-END\n", 8));
	ck_assert(!memcmp(j + len - T_STATE_BYTE(preserve_bytes(p)),
			  "FBJSTATE", 8));
	/* the first record holds the first bytes of the device */
	ck_assert_uint_eq(j[192 + 8 + 1], (8 * KiB) >> 8);
	{
		unsigned char *dev_data = t_snapshot(dev);

		ck_assert(!memcmp(j + 192 + 24, dev_data, 8 * KiB));
		free(dev_data);
	}
	free(j);
	preserve_free(p);	/* no restore: the journal stays */
	ck_assert(t_exists(journal));
	dev_close(dev);
}
END_TEST

START_TEST(test_preserve_refuses_existing_journal)
{
	char path[256], journal[256], why[256];
	struct device *dev;
	struct preserve *p = (struct preserve *)1;
	unsigned char *j;
	size_t len;

	t_make_file(t_path(path, sizeof(path), "card"), T_SIZE, 3);
	t_path(journal, sizeof(journal), "card.journal");
	t_write_file(journal, "precious", 8);
	dev = t_open(path);
	ck_assert_int_eq(preserve_save(&p, dev, t_ranges, T_NRANGES, journal,
				       why, sizeof(why)), -EEXIST);
	ck_assert_ptr_null(p);
	/* not a journal: nothing to restore from it */
	ck_assert_msg(strstr(why, "not a flashbench journal") &&
		      !strstr(why, "--restore"), "why: %s", why);
	j = t_read_file(journal, &len);
	ck_assert_uint_eq(len, 8);
	ck_assert(!memcmp(j, "precious", 8));
	free(j);
	dev_close(dev);
}
END_TEST

/* Ranges preserve_save() must refuse before doing anything. */
static const struct bench_range t_bad_ranges[][1] = {
	{ { 100, 4096 } },		/* not block-aligned start */
	{ { 0, 4000 } },		/* not block-aligned end */
	{ { T_SIZE - 4096, T_SIZE + 4096 } },	/* past the end */
	{ { 4096, 4096 } },		/* empty */
	{ { 8192, 4096 } },		/* backwards */
};

START_TEST(test_preserve_bad_ranges)
{
	char path[256], journal[256], tmp[300], why[256] = "";
	struct device *dev;
	struct preserve *p = NULL;

	t_make_file(t_path(path, sizeof(path), "card"), T_SIZE, 4);
	t_path(journal, sizeof(journal), "card.journal");
	snprintf(tmp, sizeof(tmp), "%s.tmp", journal);
	dev = t_open(path);
	ck_assert_int_eq(preserve_save(&p, dev, t_bad_ranges[_i], 1, journal,
				       why, sizeof(why)), -EINVAL);
	ck_assert_ptr_null(p);
	ck_assert_msg(why[0], "no reason given");
	ck_assert(!t_exists(journal));
	ck_assert(!t_exists(tmp));
	ck_assert_int_eq(preserve_save(&p, dev, t_ranges, 0, journal, NULL, 0),
			 -EINVAL);
	dev_close(dev);
}
END_TEST

START_TEST(test_preserve_save_read_error)
{
	char path[256], journal[256], tmp[300], why[256] = "";
	struct device *dev;
	struct preserve *p = NULL;
	struct fault_plan plan;

	t_make_file(t_path(path, sizeof(path), "card"), T_SIZE, 5);
	t_path(journal, sizeof(journal), "card.journal");
	snprintf(tmp, sizeof(tmp), "%s.tmp", journal);
	fault_plan_init(&plan);
	plan.eio_byte = 2 * MiB;
	dev = t_wrap(t_open(path), &plan);
	/* saved sparse (-C), a range is saved when first written: that
	 * write fails and goes nowhere */
	{
		struct device *g = t_guard(dev);
		unsigned char *before, *b;
		struct fault_stats st;

		fault_plan_init(&plan);
		ck_assert_int_eq(fault_set_plan(dev, &plan), 0);
		before = t_snapshot(g);
		plan.eio_byte = 2 * MiB;
		ck_assert_int_eq(fault_set_plan(dev, &plan), 0);

		ck_assert_int_eq(preserve_save_sparse(&p, g, t_ranges,
						      T_NRANGES, journal, why,
						      sizeof(why)), 0);
		b = dev_alloc_buf(4 * KiB);
		ck_assert_ptr_nonnull(b);
		dev_fill(b, 4 * KiB, DEV_PAT_5A, 0);
		ck_assert_int_eq(dev_write(g, b, 4 * KiB, 2 * MiB, NULL),
				 -EIO);
		ck_assert_int_eq(fault_get_stats(dev, &st), 0);
		ck_assert_uint_eq(st.writes, 0);
		dev_free_buf(b);
		fault_plan_init(&plan);
		ck_assert_int_eq(fault_set_plan(dev, &plan), 0);
		ck_assert(t_same(g, before));
		ck_assert_int_eq(preserve_restore(p, why, sizeof(why)), 0);
		preserve_free(p);
		p = NULL;
		free(before);
		g->inner = NULL;	/* dev stays open */
		dev_close(g);
	}
	ck_assert(!t_exists(journal));
	ck_assert(!t_exists(tmp));
	/* any other way, everything at once: the read fails the save */
	plan.eio_byte = 2 * MiB;
	{
		struct device *raw = t_wrap(t_open_raw(path), &plan);

		ck_assert_int_eq(preserve_save(&p, raw, t_ranges, T_NRANGES,
					       journal, why, sizeof(why)),
				 -EIO);
		dev_close(raw);
	}
	ck_assert_ptr_null(p);
	ck_assert_msg(strstr(why, "saving bytes"), "why: %s", why);
	ck_assert(!t_exists(journal));
	ck_assert(!t_exists(tmp));
	/* a journal that cannot be created */
	fault_plan_init(&plan);
	ck_assert_int_eq(fault_set_plan(dev, &plan), 0);
	t_path(journal, sizeof(journal), "no/such/dir.journal");
	ck_assert_int_eq(preserve_save(&p, dev, t_ranges, T_NRANGES, journal,
				       why, sizeof(why)), -ENOENT);
	ck_assert_ptr_null(p);
	ck_assert_msg(strstr(why, "cannot create"), "why: %s", why);
	dev_close(dev);
}
END_TEST

START_TEST(test_preserve_crash_then_journal)
{
	char path[256], journal[256], why[256] = "x";
	unsigned char *before;
	struct device *dev;
	struct preserve *p;

	t_make_file(t_path(path, sizeof(path), "card"), T_SIZE, 6);
	t_path(journal, sizeof(journal), "card.journal");
	dev = t_open(path);
	before = t_snapshot(dev);
	p = t_save(dev, journal);
	t_scribble(dev);
	/* the crash: the memory copy and the device handle are gone */
	preserve_free(p);
	dev_close(dev);
	ck_assert(t_exists(journal));

	dev = t_open(path);
	ck_assert(!t_same(dev, before));
	ck_assert_int_eq(preserve_restore_journal(journal, dev, why,
						  sizeof(why)), 0);
	ck_assert_str_eq(why, "");
	ck_assert(t_same(dev, before));
	ck_assert(!t_exists(journal));
	/* and a second --restore finds nothing to do */
	ck_assert_int_eq(preserve_restore_journal(journal, dev, why,
						  sizeof(why)), -ENOENT);
	ck_assert_msg(strstr(why, "cannot open journal"), "why: %s", why);
	dev_close(dev);
	free(before);
}
END_TEST

/*
 * Other devices.  A journal is made on card A (seed 10), A scribbled;
 * then restore is tried on B, which differs as the row says.  Changes
 * inside the saved ranges that the run did not write (the scribble goes
 * through the guard, the poke does not) are refused too: not as another
 * device, but as data written since.
 */
static const struct {
	uint64_t size_byte;	/* B's size */
	int other_seed;		/* B has other random content */
	uint64_t poke_byte;	/* B = A with this byte changed, or -1 */
	int want;		/* restore_journal result on B */
	int inside;		/* the change is inside a saved range */
} t_foreign[] = {
	{ T_SIZE + 1 * MiB, 0, UINT64_MAX, -ESTALE, 0 },	/* bigger */
	{ T_SIZE - 512, 0, UINT64_MAX, -ESTALE, 0 },	/* a block less */
	{ T_SIZE, 1, UINT64_MAX, -ESTALE, 0 },		/* other card */
	{ T_SIZE, 0, 512 * KiB, -ESTALE, 0 },		/* first MiB */
	{ T_SIZE, 0, T_SIZE - 600 * KiB, -ESTALE, 0 },	/* last MiB */
	{ T_SIZE, 0, T_SIZE / 31 * 17 + 100, -ESTALE, 0 },	/* a sample */
	{ T_SIZE, 0, UINT64_MAX, 0, 0 },	/* A as the run left it */
	/* inside a saved range, not by the run: A, written since */
	{ T_SIZE, 0, 4 * KiB, -ESTALE, 1 },
	{ T_SIZE, 0, 2 * MiB, -ESTALE, 1 },
};

START_TEST(test_preserve_foreign)
{
	char a[256], b[256], journal[256], why[256] = "";
	unsigned char *a_data, *a_file, *b_data, *b_before;
	struct device *dev;
	struct preserve *p;
	size_t len;
	int ret;

	t_make_file(t_path(a, sizeof(a), "a"), T_SIZE, 10);
	t_path(b, sizeof(b), "b");
	t_path(journal, sizeof(journal), "a.journal");
	dev = t_open(a);
	a_data = t_snapshot(dev);
	p = t_save(dev, journal);
	t_scribble(dev);
	preserve_free(p);
	dev_close(dev);

	/* B: a copy of A (scribbled too), then made different */
	a_file = t_read_file(a, &len);
	b_data = calloc(1, t_foreign[_i].size_byte);
	ck_assert_ptr_nonnull(b_data);
	memcpy(b_data, a_file, len < t_foreign[_i].size_byte ?
				       len : t_foreign[_i].size_byte);
	free(a_file);
	if (t_foreign[_i].size_byte > len)
		dev_fill(b_data + len, t_foreign[_i].size_byte - len,
			 DEV_PAT_RANDOM, 11);
	if (t_foreign[_i].other_seed)
		dev_fill(b_data, t_foreign[_i].size_byte, DEV_PAT_RANDOM, 12);
	if (t_foreign[_i].poke_byte != UINT64_MAX)
		b_data[t_foreign[_i].poke_byte] ^= 0x01;
	t_write_file(b, b_data, t_foreign[_i].size_byte);
	free(b_data);

	dev = t_open(b);
	b_before = t_snapshot(dev);
	ret = preserve_restore_journal(journal, dev, why, sizeof(why));
	ck_assert_msg(ret == t_foreign[_i].want, "got %d (%s)", ret, why);
	if (ret) {
		ck_assert_msg(strstr(why, t_foreign[_i].want == -ESTALE &&
					       t_foreign[_i].inside ?
					       "no longer hold" :
					       "belongs to another device"),
			      "why: %s", why);
		ck_assert(t_same(dev, b_before));	/* nothing written */
		ck_assert(t_exists(journal));
	} else {
		/* B was A all along: the saved ranges are back */
		size_t i;

		b_data = t_snapshot(dev);
		for (i = 0; i < T_NRANGES; i++)
			ck_assert(!memcmp(b_data + t_ranges[i].start_byte,
					  a_data + t_ranges[i].start_byte,
					  t_ranges[i].end_byte -
						  t_ranges[i].start_byte));
		free(b_data);
		ck_assert(!t_exists(journal));
	}
	free(b_before);
	free(a_data);
	dev_close(dev);
}
END_TEST

/*
 * Damage done to a good journal of len bytes, the last tail of them its
 * state; returns the new length.
 */
static size_t t_damage(unsigned char *j, size_t len, size_t tail, int how)
{
	switch (how) {
	case 0:
		return 0;			/* empty */
	case 1:
		return 100;			/* half a header */
	case 2:
		return len / 2;			/* cut in the data */
	case 3:
		return len - 1;			/* trailer cut short */
	case 4:
		return len - 24;		/* no trailer */
	case 5:
		j[len] = 0;			/* a byte too many */
		return len + 1;
	case 6:
		j[0] = 'X';			/* not a journal */
		return len;
	case 7:
		j[17] ^= 0x40;			/* header: device size */
		return len;
	case 8:
		j[192] ^= 0x02;			/* record: offset */
		return len;
	case 9:
		j[192 + 24 + 4000] ^= 0x80;	/* data */
		return len;
	case 10:
		j[len - tail - 10] ^= 0x01;	/* trailer hash */
		return len;
	case 11:
		j[8] = PRESERVE_VERSION + 1;	/* unknown version */
		return len;
	case 12:
		j[len - tail + 3] ^= 0x01;	/* state magic */
		return len;
	default:
		j[len - tail - 100] ^= 0x10;	/* last range's data */
		return len;
	}
}
#define T_NDAMAGE 14

START_TEST(test_preserve_damaged_journal)
{
	char path[256], journal[256], bad[256], why[256] = "";
	unsigned char *scribbled, *good, *j;
	struct device *dev, *inner;
	struct fault_stats st;
	struct preserve *p;
	size_t len, blen;
	int ret;

	t_make_file(t_path(path, sizeof(path), "card"), T_SIZE, 20);
	t_path(journal, sizeof(journal), "card.journal");
	t_path(bad, sizeof(bad), "bad.journal");
	inner = t_open(path);
	p = t_save(inner, journal);
	t_scribble(inner);
	scribbled = t_snapshot(inner);

	good = t_read_file(journal, &len);
	j = calloc(1, len + 1);	/* room for a byte too many */
	ck_assert_ptr_nonnull(j);
	memcpy(j, good, len);
	free(good);
	blen = t_damage(j, len, T_STATE_BYTE(preserve_bytes(p)), _i);
	t_write_file(bad, j, blen);
	free(j);
	preserve_free(p);

	dev = t_wrap(inner, NULL);	/* counts the writes */
	ret = preserve_restore_journal(bad, dev, why, sizeof(why));
	ck_assert_msg(ret == -EINVAL, "damage %d: got %d (%s)", _i, ret, why);
	ck_assert_msg(why[0], "no reason given");
	ck_assert_msg(strstr(why, bad), "why does not name the file: %s", why);
	ck_assert_int_eq(fault_get_stats(dev, &st), 0);
	ck_assert_uint_eq(st.writes, 0);
	ck_assert(t_same(dev, scribbled));
	ck_assert(t_exists(bad));
	/* the good journal still does its job */
	ck_assert_int_eq(preserve_restore_journal(journal, dev, why,
						  sizeof(why)), 0);
	ck_assert(!t_same(dev, scribbled));
	ck_assert(!t_exists(journal));
	free(scribbled);
	dev_close(dev);
}
END_TEST

/* Faults during a restore: each must fail it and keep the journal. */
static const struct {
	const char *what;
	int want;		/* preserve_restore() result */
} t_restore_fault[] = {
	{ "EIO on a write in the middle range", -EIO },
	{ "short write", -EIO },
	{ "device full", -ENOSPC },
	{ "device gone", -ENODEV },
	{ "writes lost (counterfeit card)", -EIO },
	{ "read-back fails", -EIO },
};

/* Arm fault _i of t_restore_fault on f. */
static void t_arm_restore_fault(struct device *f, int i)
{
	struct fault_plan plan;
	struct fault_stats st;

	fault_plan_init(&plan);
	ck_assert_int_eq(fault_get_stats(f, &st), 0);
	switch (i) {
	case 0:
		plan.eio_byte = 2 * MiB + 512;
		plan.eio_kinds = FAULT_WRITE;
		break;
	case 1:
		plan.short_op = st.reads + st.writes + st.discards + 2;
		plan.short_byte = 4096;
		break;
	case 2:
		plan.enospc_byte = 3 * MiB;
		break;
	case 3:
		plan.enodev_op = st.reads + st.writes + st.discards + 3;
		break;
	case 4:
		plan.lost_byte = T_SIZE - 2 * KiB;
		break;
	default:
		plan.eio_byte = T_SIZE - 512;
		plan.eio_kinds = FAULT_READ;
		break;
	}
	ck_assert_int_eq(fault_set_plan(f, &plan), 0);
}

START_TEST(test_preserve_restore_fails)
{
	char path[256], journal[256], why[256] = "";
	unsigned char *before;
	struct device *f, *g, *dev;
	struct preserve *p;
	int ret;

	t_make_file(t_path(path, sizeof(path), "card"), T_SIZE, 30);
	t_path(journal, sizeof(journal), "card.journal");
	f = t_wrap(t_open_raw(path), NULL);
	g = t_guard(f);
	before = t_snapshot(g);
	p = t_save(g, journal);
	t_scribble(g);
	t_arm_restore_fault(f, _i);
	ret = preserve_restore(p, why, sizeof(why));
	ck_assert_msg(ret == t_restore_fault[_i].want, "%s: got %d (%s)",
		      t_restore_fault[_i].what, ret, why);
	ck_assert_msg(why[0], "no reason given");
	ck_assert_msg(strstr(why, path), "why does not name %s: %s", path,
		      why);
	ck_assert(t_exists(journal));
	preserve_free(p);
	dev_close(g);

	/* --restore later, on a healthy handle, finishes the job: what
	 * the restore cut short wrote counts as written by the run */
	dev = t_open(path);
	ck_assert_int_eq(preserve_restore_journal(journal, dev, why,
						  sizeof(why)), 0);
	ck_assert(t_same(dev, before));
	ck_assert(!t_exists(journal));
	dev_close(dev);
	free(before);
}
END_TEST

START_TEST(test_preserve_restore_journal_eio)
{
	char path[256], journal[256], why[256] = "";
	unsigned char *before;
	struct device *dev;
	struct fault_plan plan;
	struct preserve *p;

	t_make_file(t_path(path, sizeof(path), "card"), T_SIZE, 31);
	t_path(journal, sizeof(journal), "card.journal");
	dev = t_open(path);
	before = t_snapshot(dev);
	p = t_save(dev, journal);
	t_scribble(dev);
	preserve_free(p);

	fault_plan_init(&plan);
	plan.eio_byte = 2 * MiB;
	plan.eio_kinds = FAULT_WRITE;
	dev = t_wrap(dev, &plan);
	ck_assert_int_eq(preserve_restore_journal(journal, dev, why,
						  sizeof(why)), -EIO);
	ck_assert_msg(strstr(why, "restoring bytes"), "why: %s", why);
	ck_assert(t_exists(journal));
	/* what could be written was: the other ranges are back */
	{
		unsigned char *now = t_snapshot(dev);
		size_t i;

		for (i = 0; i < T_NRANGES; i += 2)
			ck_assert(!memcmp(now + t_ranges[i].start_byte,
					  before + t_ranges[i].start_byte,
					  t_ranges[i].end_byte -
						  t_ranges[i].start_byte));
		ck_assert(memcmp(now, before, T_SIZE));
		free(now);
	}
	/* the bad sector gets remapped; a second --restore succeeds */
	fault_plan_init(&plan);
	ck_assert_int_eq(fault_set_plan(dev, &plan), 0);
	ck_assert_int_eq(preserve_restore_journal(journal, dev, why,
						  sizeof(why)), 0);
	ck_assert(t_same(dev, before));
	ck_assert(!t_exists(journal));
	dev_close(dev);
	free(before);
}
END_TEST

START_TEST(test_preserve_journal_name)
{
	static const struct {
		const char *dev;
		const char *want;
	} t[] = {
		{ "/dev/mmcblk0", "./flashbench-mmcblk0.journal" },
		{ "/dev/disk/by-id/usb-SD:0", "./flashbench-usb-SD_0.journal" },
		{ "simulated card", "./flashbench-simulated_card.journal" },
		{ "sdb", "./flashbench-sdb.journal" },
		{ "/dev/", "./flashbench-device.journal" },
	};
	char buf[64];
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		ck_assert_int_eq(preserve_journal_name(buf, sizeof(buf),
						       t[i].dev), 0);
		ck_assert_str_eq(buf, t[i].want);
	}
	ck_assert_int_eq(preserve_journal_name(buf, 20, "/dev/mmcblk0"),
			 -ENAMETOOLONG);
}
END_TEST

/*
 * Signals during a restore.  A device that raises SIGINT from inside
 * its first write, as a user pressing ^C at the worst moment: the
 * handler must not run until the restore is complete.
 */
static volatile sig_atomic_t t_sigint_seen;
static int t_sigint_early = -1;		/* seen inside the write? */

static void t_on_sigint(int sig)
{
	(void)sig;
	t_sigint_seen++;
}

/* A device passing everything to inner, with a ^C in its first write. */
struct t_sigdev {
	struct device dev;
	struct device *inner;
};

static int t_sig_read(struct device *dev, void *buf, size_t len, off_t off)
{
	struct device *in = ((struct t_sigdev *)dev)->inner;

	return in->ops->read(in, buf, len, off);
}

static int t_sig_write(struct device *dev, const void *buf, size_t len,
		       off_t off)
{
	struct device *in = ((struct t_sigdev *)dev)->inner;

	if (t_sigint_early < 0) {
		raise(SIGINT);
		/* raise() returns: the test has a SIGINT handler installed */
		/* cppcheck-suppress unreachableCode */
		t_sigint_early = t_sigint_seen;
	}
	return in->ops->write(in, buf, len, off);
}

static int t_sig_discard(struct device *dev, off_t off, uint64_t len)
{
	struct device *in = ((struct t_sigdev *)dev)->inner;

	return in->ops->discard(in, off, len);
}

static uint64_t t_sig_now(struct device *dev)
{
	struct device *in = ((struct t_sigdev *)dev)->inner;

	return in->ops->now_ns(in);
}

static void t_sig_destroy(struct device *dev)
{
	dev_close(((struct t_sigdev *)dev)->inner);
	free(dev);
}

static const struct dev_ops t_sig_ops = {
	.read = t_sig_read,
	.write = t_sig_write,
	.discard = t_sig_discard,
	.now_ns = t_sig_now,
	.destroy = t_sig_destroy,
};

START_TEST(test_preserve_restore_holds_signals)
{
	char path[256], journal[256], why[256] = "";
	struct t_sigdev *sd = calloc(1, sizeof(*sd));
	struct sigaction sa, old;
	unsigned char *before;
	struct preserve *p;

	ck_assert_ptr_nonnull(sd);
	t_make_file(t_path(path, sizeof(path), "card"), T_SIZE, 60);
	t_path(journal, sizeof(journal), "card.journal");
	sd->inner = t_open(path);
	sd->dev = *sd->inner;
	sd->dev.ops = &t_sig_ops;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = t_on_sigint;
	sigemptyset(&sa.sa_mask);
	ck_assert_int_eq(sigaction(SIGINT, &sa, &old), 0);

	before = t_snapshot(&sd->dev);
	p = t_save(&sd->dev, journal);
	t_scribble(sd->inner);
	ck_assert_int_eq(preserve_restore(p, why, sizeof(why)), 0);
	ck_assert_int_eq(t_sigint_early, 0);	/* held off ... */
	ck_assert_int_eq(t_sigint_seen, 1);	/* ... then delivered */
	ck_assert(t_same(&sd->dev, before));
	ck_assert(!t_exists(journal));
	sigaction(SIGINT, &old, NULL);
	preserve_free(p);
	dev_close(&sd->dev);
	free(before);
}
END_TEST

/* Options for small writing tests: 64 KiB AUs, 16 KiB blocks. */
static void t_small_opts(struct bench_opts *o)
{
	bench_opts_default(o);
	o->erasesize_byte = 64 * KiB;
	o->blocksize_byte = 16 * KiB;
	o->open_au_nr = 3;
	o->fat_nr = 4;
	o->log = NULL;
}

START_TEST(test_preserve_ranges)
{
	struct bench_range *r = (struct bench_range *)1;
	struct bench_opts o;
	size_t n = 99;

	t_small_opts(&o);
	/* -f: the first 4 AUs; -O: 3 AUs 12 AUs apart from 16 MiB; -p:
	 * 4 MiB at 16 MiB, which swallows -O's */
	ck_assert_int_eq(tests_write_ranges(BENCH_FIND_FAT | BENCH_OPEN_AU |
					    BENCH_PROGRAM | BENCH_ALIGN,
					    &o, 24 * MiB, &r, &n), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_uint_eq(r[0].start_byte, 0);
	ck_assert_uint_eq(r[0].end_byte, 256 * KiB);
	ck_assert_uint_eq(r[1].start_byte, 16 * MiB);
	ck_assert_uint_eq(r[1].end_byte, 20 * MiB);
	free(r);

	ck_assert_int_eq(tests_write_ranges(BENCH_OPEN_AU | BENCH_FIND_FAT, &o,
					    24 * MiB, &r, &n), 0);
	ck_assert_uint_eq(n, 4);
	ck_assert_uint_eq(r[0].end_byte, 256 * KiB);
	ck_assert_uint_eq(r[1].start_byte, 16 * MiB);
	ck_assert_uint_eq(r[2].start_byte, 16 * MiB + 768 * KiB);
	ck_assert_uint_eq(r[3].start_byte, 16 * MiB + 1536 * KiB);
	ck_assert_uint_eq(r[3].end_byte, 16 * MiB + 1600 * KiB);
	free(r);

	ck_assert_int_eq(tests_write_ranges(BENCH_ALIGN | BENCH_SCATTER, &o,
					    24 * MiB, &r, &n), 0);
	ck_assert_ptr_null(r);
	ck_assert_uint_eq(n, 0);
	/* -p needs 20 MiB */
	ck_assert_int_eq(tests_write_ranges(BENCH_PROGRAM, &o, 18 * MiB, &r,
					    &n), -EINVAL);
	ck_assert_ptr_null(r);
}
END_TEST

/*
 * The whole flow on a file: save the union of what -f, -O and -p
 * announce, run them (they write for real), restore: every byte is back,
 * and nothing the tests changed lay outside what was saved.
 */
START_TEST(test_preserve_writing_tests)
{
	char path[256], journal[256], why[256] = "";
	unsigned char *before, *after;
	struct bench_range *r;
	struct bench_opts o;
	struct preserve *p = NULL;
	struct device *dev;
	uint64_t i, changed = 0, outside = UINT64_MAX;
	size_t n, k;
	FILE *out;

	t_small_opts(&o);
	o.count = 1;
	t_make_file(t_path(path, sizeof(path), "card"), 24 * MiB, 50);
	t_path(journal, sizeof(journal), "card.journal");
	dev = t_open(path);
	before = t_snapshot(dev);
	/* the tests run below: --class needs more than this file */
	ck_assert_int_eq(tests_write_ranges(BENCH_WRITING & ~BENCH_CLASS, &o,
					    dev->size_byte, &r, &n), 0);
	ck_assert_int_eq(preserve_save(&p, dev, r, n, journal, why,
				       sizeof(why)), 0);
	out = fopen("/dev/null", "we");
	ck_assert_ptr_nonnull(out);
	ck_assert_int_eq(find_fat_run(dev, &o, out), 0);
	ck_assert_int_eq(open_au_run(dev, &o, out), 0);
	ck_assert_int_eq(program_run(dev, &o, out), 0);
	fclose(out);
	after = t_snapshot(dev);
	/* (one assertion at the end: each one is a message to the parent) */
	for (i = 0; i < dev->size_byte && outside == UINT64_MAX; i++) {
		if (before[i] == after[i])
			continue;
		changed++;
		for (k = 0; k < n; k++)
			if (i >= r[k].start_byte && i < r[k].end_byte)
				break;
		if (k == n)
			outside = i;
	}
	ck_assert_msg(outside == UINT64_MAX,
		      "byte %llu changed outside the ranges",
		      (unsigned long long)outside);
	ck_assert_uint_gt(changed, 4 * MiB);
	ck_assert_int_eq(preserve_restore(p, why, sizeof(why)), 0);
	ck_assert(t_same(dev, before));
	ck_assert(!t_exists(journal));
	preserve_free(p);
	free(r);
	free(after);
	free(before);
	dev_close(dev);
}
END_TEST

/* ---- preserve on the simulated card ---- */

/*
 * A writing test's view of the card: the time of every operation of
 * the workload.  With noise=0 the card's state alone decides the times,
 * so a backup taken before and written back after must leave them as
 * they are without one.
 */
static void t_sim_times(struct device *dev, uint64_t *t)
{
	unsigned char *buf = dev_alloc_buf(4 * MiB);
	size_t i;

	ck_assert_ptr_nonnull(buf);
	dev_fill(buf, 4 * MiB, DEV_PAT_ZERO, 0);
	for (i = 0; i < T_NWORK; i++)
		ck_assert_int_eq(t_do(dev, &t_workload[i], buf, &t[i]), 0);
	dev_free_buf(buf);
}

START_TEST(test_preserve_sim_times)
{
	static const struct bench_range r[] = {
		{ 16 * MiB, 16 * MiB + 80 * KiB },
		{ 48 * MiB, 48 * MiB + 512 },
		{ 64 * MiB, 68 * MiB },
		{ 80 * MiB, 80 * MiB + 4 * KiB },
	};
	const char *spec = "size=1G,noise=0,open=2";
	/* b behind the guard: its noting of writes takes no card time */
	struct device *a = sim_card(spec), *b = t_guard(sim_card(spec));
	uint64_t ta[T_NWORK], tb[T_NWORK];
	char journal[256], why[256] = "";
	struct preserve *p = NULL;
	size_t i;

	t_path(journal, sizeof(journal), "sim.journal");
	t_sim_times(a, ta);
	ck_assert_int_eq(preserve_save(&p, b, r, 4, journal, why, sizeof(why)),
			 0);
	ck_assert(t_exists(journal));
	t_sim_times(b, tb);
	ck_assert_int_eq(preserve_restore(p, why, sizeof(why)), 0);
	ck_assert(!t_exists(journal));
	for (i = 0; i < T_NWORK; i++)
		ck_assert_msg(ta[i] == tb[i],
			      "op %zu: %llu ns, %llu with backup", i,
			      (unsigned long long)ta[i],
			      (unsigned long long)tb[i]);
	preserve_free(p);
	dev_close(a);
	dev_close(b);
}
END_TEST

/* ---- only what was written goes back ---- */

/* Fill n ranges of dev with pseudo-random data, then read them back. */
static unsigned char **t_fill_ranges(struct device *dev,
				     const struct bench_range *r, size_t n)
{
	unsigned char **data = calloc(n, sizeof(*data));
	size_t i;

	ck_assert_ptr_nonnull(data);
	for (i = 0; i < n; i++) {
		size_t len = (size_t)(r[i].end_byte - r[i].start_byte);

		data[i] = dev_alloc_buf(len);
		ck_assert_ptr_nonnull(data[i]);
		dev_fill(data[i], len, DEV_PAT_RANDOM, 77 + i);
		ck_assert_int_eq(dev_write(dev, data[i], len,
					   (off_t)r[i].start_byte, NULL), 0);
	}
	/* what it holds: on a card that wraps, not what was written */
	for (i = 0; i < n; i++)
		ck_assert_int_eq(dev_read(dev, data[i],
					  r[i].end_byte - r[i].start_byte,
					  (off_t)r[i].start_byte, NULL), 0);
	return data;
}

/* Does dev hold data[] in its n ranges again?  Frees data. */
static int t_ranges_back(struct device *dev, const struct bench_range *r,
			 size_t n, unsigned char **data)
{
	size_t i;
	int same = 1;

	for (i = 0; i < n; i++) {
		size_t len = (size_t)(r[i].end_byte - r[i].start_byte);
		unsigned char *buf = dev_alloc_buf(len);

		ck_assert_ptr_nonnull(buf);
		ck_assert_int_eq(dev_read(dev, buf, len,
					  (off_t)r[i].start_byte, NULL), 0);
		same &= !memcmp(buf, data[i], len);
		dev_free_buf(buf);
		dev_free_buf(data[i]);
	}
	free(data);
	return same;
}

/* Writing modes on the simulated card: spec, mode, the options' AU. */
static const struct {
	const char *spec;
	enum bench_test test;
	uint64_t erase;
} t_written[] = {
	{ "size=4G,noise=0", BENCH_CAPACITY, 0 },
	{ "size=4G,real_size=1G,fake=wrap,noise=0", BENCH_CAPACITY, 0 },
};

/*
 * --preserve writes back what the test wrote, not all it announced
 * (issue 18): on the simulated card, --capacity (on a genuine card and
 * on one that wraps at 1 GiB) writes a few of its thousands of probes
 * and the flush region; every range, filled with data first, reads as
 * before after the restore, and the restore wrote exactly the spans the
 * test wrote.
 */
START_TEST(test_preserve_sim_written)
{
	struct device *sim = sim_card(t_written[_i].spec), *g;
	char journal[256], why[256] = "";
	const struct test *md = test_of(t_written[_i].test);
	struct preserve *p = NULL;
	struct bench_range *r;
	unsigned char **data;
	struct bench_opts o;
	struct rec_dev *tap;
	size_t n, i;
	FILE *out;

	ck_assert_ptr_nonnull(md);
	bench_opts_default(&o);
	o.log = NULL;
	if (t_written[_i].erase)
		o.erasesize_byte = t_written[_i].erase;
	ck_assert_int_eq(tests_write_ranges(t_written[_i].test, &o,
					    sim->size_byte, &r, &n), 0);
	data = t_fill_ranges(sim, r, n);
	tap = rec_tap(sim);
	g = t_guard(&tap->dev);
	t_path(journal, sizeof(journal), "sim.journal");
	ck_assert_int_eq(preserve_save(&p, g, r, n, journal, why,
				       sizeof(why)), 0);
	out = fopen("/dev/null", "we");
	ck_assert_ptr_nonnull(out);
	/* 0, or BENCH_SHORT where a check finds a fake: it ran through */
	ck_assert_int_ge(test_run_text(md, g, &o, out), 0);
	fclose(out);
	ck_assert_int_eq(preserve_restore(p, why, sizeof(why)), 0);
	preserve_free(p);
	ck_assert(!t_exists(journal));
	ck_assert_uint_lt(rec_wrote_back_written(tap, 0, tap->n, r, n, &i), n);
	ck_assert(t_ranges_back(g, r, n, data));
	free(r);
	dev_close(g);
}
END_TEST

/*
 * Saved lazily (issue 18): on a limbo fake without a cache, --capacity
 * writes a dozen probes and no flush; --preserve reads back (saving and
 * verifying) those, not the 145 MiB it announced, and the card holds
 * what it held afterwards.
 */
START_TEST(test_preserve_sim_lazy_reads)
{
	struct device *sim = sim_card("size=16G,real_size=1G,noise=0"), *g;
	char journal[256], why[256] = "";
	uint64_t announced = 0, read = 0;
	struct preserve *p = NULL;
	struct bench_range *r;
	unsigned char **data;
	struct bench_opts o;
	struct rec_dev *tap;
	size_t n, i, from;
	FILE *out;

	bench_opts_default(&o);
	o.log = NULL;
	ck_assert_int_eq(tests_write_ranges(BENCH_CAPACITY, &o, sim->size_byte,
					    &r, &n), 0);
	for (i = 0; i < n; i++)
		announced += r[i].end_byte - r[i].start_byte;
	data = t_fill_ranges(sim, r, n);
	tap = rec_tap(sim);
	g = t_guard(&tap->dev);
	t_path(journal, sizeof(journal), "lazy.journal");
	from = tap->n;
	/* as the front end saves for -C alone */
	ck_assert_int_eq(preserve_save_sparse(&p, g, r, n, journal, why,
					      sizeof(why)), 0);
	out = fopen("/dev/null", "we");
	ck_assert_ptr_nonnull(out);
	ck_assert_int_ge(test_run_text(&capacity_test, g, &o, out), 0);
	fclose(out);
	ck_assert_int_eq(preserve_restore(p, why, sizeof(why)), 0);
	preserve_free(p);
	for (i = from; i < tap->n; i++)
		if (tap->log[i].op == REC_READ && tap->log[i].untimed)
			read += tap->log[i].len;
	/* the fingerprint's 4 MiB, and a few MiB of probes at most */
	ck_assert_msg(read < announced / 8, "%llu bytes read of %llu",
		      (unsigned long long)read,
		      (unsigned long long)announced);
	ck_assert(t_ranges_back(g, r, n, data));
	free(r);
	dev_close(g);
}
END_TEST

/* Untimed reads (or writes) in the tap's log from I/O from on: bytes. */
static uint64_t t_untimed(const struct rec_dev *tap, size_t from,
			  enum rec_op op, size_t *calls)
{
	uint64_t bytes = 0;
	size_t i;

	*calls = 0;
	for (i = from; i < tap->n; i++)
		if (tap->log[i].op == op && tap->log[i].untimed) {
			bytes += tap->log[i].len;
			++*calls;
		}
	return bytes;
}

/*
 * Saved sparse (-C): a long range is read by the MiB the run first
 * writes in, not whole; and the restore reads what was written first,
 * leaving alone the block whose write a limbo fake lost (it still reads
 * as saved: writing it again would cost a write into an AU not open and
 * change nothing) while the block that came back goes back.
 */
START_TEST(test_preserve_sparse)
{
	struct device *sim = sim_card("size=4G,real_size=1G,noise=0"), *g;
	static const struct bench_range r[] = {
		{ 512 * MiB, 640 * MiB },	  /* 128 pieces */
		{ 2048 * MiB, 2048 * MiB + 4 * KiB }, /* past the real size */
	};
	char journal[256], why[256] = "";
	unsigned char *buf = dev_alloc_buf(4 * KiB), **data;
	struct preserve *p = NULL;
	struct rec_dev *tap;
	size_t from, calls;

	ck_assert_ptr_nonnull(buf);
	data = t_fill_ranges(sim, r, 2);
	tap = rec_tap(sim);
	g = t_guard(&tap->dev);
	t_path(journal, sizeof(journal), "sparse.journal");
	ck_assert_int_eq(preserve_save_sparse(&p, g, r, 2, journal, why,
					      sizeof(why)), 0);
	from = tap->n;		/* past the fingerprint's reads */
	dev_fill(buf, 4 * KiB, DEV_PAT_RANDOM, 5);
	ck_assert_int_eq(dev_write(g, buf, 4 * KiB,
				   (off_t)(515 * MiB + 8 * KiB), NULL), 0);
	ck_assert_int_eq(dev_write(g, buf, 4 * KiB, (off_t)(2048 * MiB),
				   NULL), 0);
	/* saved: the MiB written in and the block in limbo, nothing else */
	ck_assert_uint_eq(t_untimed(tap, from, REC_READ, &calls),
			  MiB + 4 * KiB);
	ck_assert_uint_eq(calls, 2);
	from = tap->n;
	ck_assert_int_eq(preserve_restore(p, why, sizeof(why)), 0);
	preserve_free(p);
	/* one block goes back; the lost one is read, and left alone */
	ck_assert_uint_eq(t_untimed(tap, from, REC_WRITE, &calls), 4 * KiB);
	ck_assert_uint_eq(calls, 1);
	ck_assert(!t_exists(journal));
	ck_assert(t_ranges_back(g, r, 2, data));
	dev_free_buf(buf);
	dev_close(g);
}
END_TEST

/* --auto --destructive's phases under --preserve, as the front end runs them. */
struct t_auto {
	struct device *sim, *g;		/* the card; the guard over the tap */
	struct rec_dev *tap;
	struct preserve *p;		/* the phase's saved ranges */
	struct bench_range *r;		/* which */
	size_t n;
	size_t from;			/* the tap's I/O at the save */
	unsigned char **data;		/* what the ranges held */
	unsigned int phases;
	size_t spans, back;		/* spans written, writes back */
	uint64_t announced, written;	/* bytes in the ranges, written */
};

/* Put the phase's ranges back and check what went back. */
static void t_auto_restore(struct t_auto *a)
{
	char why[256] = "";
	size_t back;

	ck_assert_int_eq(preserve_restore(a->p, why, sizeof(why)), 0);
	preserve_free(a->p);
	a->p = NULL;
	dev_untimed(a->g, 1);
	a->spans += rec_wrote_back_written(a->tap, a->from, a->tap->n, a->r,
					 a->n, &back);
	ck_assert(t_ranges_back(a->g, a->r, a->n, a->data));
	dev_untimed(a->g, 0);
	a->back += back;
	free(a->r);
	a->r = NULL;
}

/* auto_run()'s before_write: restore the last phase, save the next. */
static int t_auto_before(void *ctx, const struct bench_range *r, size_t n)
{
	struct t_auto *a = ctx;
	char journal[256], why[256] = "";
	size_t i;

	if (a->p)
		t_auto_restore(a);
	a->r = malloc(n * sizeof(*r));
	ck_assert_ptr_nonnull(a->r);
	memcpy(a->r, r, n * sizeof(*r));
	a->n = n;
	for (i = 0; i < n; i++)
		a->announced += r[i].end_byte - r[i].start_byte;
	dev_untimed(a->sim, 1);
	a->data = t_fill_ranges(a->sim, r, n);
	dev_untimed(a->sim, 0);
	a->from = a->tap->n;
	t_path(journal, sizeof(journal), "auto.journal");
	ck_assert_int_eq(preserve_save(&a->p, a->g, r, n, journal, why,
				       sizeof(why)), 0);
	a->phases++;
	return 0;
}

/*
 * The same for --auto --destructive on the simulated card: its erase
 * search and the steps after it write a part of the AUs they announce;
 * each phase gets back what it wrote, and every range reads as before.
 */
START_TEST(test_preserve_auto_written)
{
	struct t_auto a = { .sim = sim_card("noise=0") };
	struct auto_hooks h = { .before_write = t_auto_before, .ctx = &a };
	struct auto_result res;
	struct bench_opts o;

	bench_opts_default(&o);
	o.log = NULL;
	a.tap = rec_tap(a.sim);
	a.g = t_guard(&a.tap->dev);
	ck_assert_int_eq(auto_run(a.g, &o, 1, &h, &res), 0);
	ck_assert_ptr_nonnull(a.p);
	t_auto_restore(&a);
	ck_assert_uint_ge(a.phases, 1);
	ck_assert_uint_gt(a.spans, 0);
	auto_free(&res);
	dev_close(a.g);
}
END_TEST

/* ---- preserve on a loop device ---- */

/*
 * Attach file to a loop device with direct I/O and open it read-write
 * and exclusively; the loop device goes away when it is closed.  Returns
 * NULL (and says why) when this machine cannot, which fails the test
 * under CI=true.
 */
static struct device *t_loop_open_plan(const char *file, char *name,
				       size_t name_len,
				       const struct fault_plan *plan)
{
	char *attach[] = { (char *)t_losetup(), "--direct-io=on", "-f",
			   "--show", (char *)file, NULL };
	const char *ci = getenv("CI");
	struct cmd_result res = { 0 };
	struct device *dev = NULL;
	char why[512] = "need root and losetup";

	if (attach[0] && geteuid() == 0 && !run_cmd(attach, &res)) {
		if (res.status == 0 && !strncmp(res.out, "/dev/", 5)) {
			char *detach[] = { attach[0], "-d", name, NULL };
			char holder[256] = "";
			int ret;

			res.out[strcspn(res.out, "\n")] = '\0';
			snprintf(name, name_len, "%s", res.out);
			ret = dev_open(&dev, name, DEV_WRITE | DEV_EXCL,
				       holder, sizeof(holder));
			snprintf(why, sizeof(why), "open %s: %s %s", name,
				 strerror(-ret), holder);
			/* while it is open, -d only marks it to go at close */
			cmd_result_free(&res);
			if (!run_cmd(detach, &res))
				cmd_result_free(&res);
		} else {
			snprintf(why, sizeof(why), "losetup: %s", res.err);
			cmd_result_free(&res);
		}
	}
	if (dev)
		return t_guard(plan ? t_wrap(dev, plan) : dev);
	if (ci && !strcmp(ci, "true"))
		ck_abort_msg("CI=true but no loop device for %s: %s", file,
			     why);
	fprintf(stderr, "test_preserve: skipped: no loop device: %s\n", why);
	return NULL;
}

/* A loop device over file behind the guard, or NULL (skipped). */
static struct device *t_loop_open(const char *file, char *name,
				  size_t name_len)
{
	return t_loop_open_plan(file, name, name_len, NULL);
}

/*
 * Batch b (0..3) of 8 requests of 4 KiB in the long saved range: writes
 * of pattern 0x10 + b, a read among them, and in batch 1 two writes of
 * the same block.
 */
static void t_batch(struct dev_req *q, unsigned char *bufs, unsigned int b)
{
	unsigned int i;

	for (i = 0; i < 8; i++) {
		q[i].write = i != 6;
		q[i].buf = bufs + i * 4 * KiB;
		q[i].len = 4 * KiB;
		q[i].off = (off_t)(1 * MiB + 512 +
				   ((b * 8 + i) * 97 % 700) * 4 * KiB);
		memset(q[i].buf, 0x10 + (int)b, 4 * KiB);
	}
	if (b == 1) {
		q[5].off = q[1].off;
		memset(q[5].buf, 0x20, 4 * KiB);
	}
}

/*
 * The guard records every write of a batch: batches of writes (one of
 * them writing a block twice) on a loop device under --preserve, the
 * fourth failing with EIO in its third request, then a crash.  The
 * journal restores the device bit-identically; a write the guard had
 * not noted would leave a block the journal does not know (-ESTALE).
 */
START_TEST(test_preserve_loop_batch)
{
	char file[256], name[64], journal[256], why[256] = "";
	unsigned char *before, *bufs = dev_alloc_buf(8 * 4 * KiB);
	struct fault_plan plan;
	struct dev_req q[8];
	struct device *dev;
	struct preserve *p;
	unsigned int b;

	ck_assert_ptr_nonnull(bufs);
	t_make_file(t_path(file, sizeof(file), "batch.img"), T_SIZE, 42);
	t_path(journal, sizeof(journal), "batch.journal");
	t_batch(q, bufs, 3);
	fault_plan_init(&plan);
	plan.eio_byte = (uint64_t)q[2].off + 512;
	plan.eio_kinds = FAULT_WRITE;
	dev = t_loop_open_plan(file, name, sizeof(name), &plan);
	if (!dev) {
		dev_free_buf(bufs);
		return;
	}
	before = t_snapshot(dev);
	p = t_save(dev, journal);
	for (b = 0; b < 3; b++) {
		t_batch(q, bufs, b);
		ck_assert_int_eq(dev_batch(dev, q, 8, NULL), 0);
	}
	ck_assert_uint_eq(bufs[6 * 4 * KiB], before[q[6].off]);
	t_batch(q, bufs, 3);
	ck_assert_int_eq(dev_batch(dev, q, 8, NULL), -EIO);
	ck_assert_int_eq(dev->last_error.off_byte, q[2].off);
	/* the crash: all but the journal is lost */
	preserve_free(p);
	dev_close(dev);
	dev = t_loop_open(file, name, sizeof(name));
	ck_assert_ptr_nonnull(dev);
	ck_assert(!t_same(dev, before));
	ck_assert_int_eq(preserve_restore_journal(journal, dev, why,
						  sizeof(why)), 0);
	ck_assert_str_eq(why, "");
	ck_assert(t_same(dev, before));
	ck_assert(!t_exists(journal));
	dev_close(dev);
	dev_free_buf(bufs);
	free(before);
}
END_TEST

START_TEST(test_preserve_loop)
{
	char file[256], name[64], journal[256], why[256] = "";
	unsigned char *before;
	struct device *dev;
	struct preserve *p;

	t_make_file(t_path(file, sizeof(file), "loop.img"), T_SIZE, 40);
	t_path(journal, sizeof(journal), "loop.journal");
	dev = t_loop_open(file, name, sizeof(name));
	if (!dev)
		return;
	ck_assert_uint_eq(dev->size_byte, T_SIZE);
	before = t_snapshot(dev);
	p = t_save(dev, journal);
	t_scribble(dev);
	ck_assert(!t_same(dev, before));
	ck_assert_int_eq(preserve_restore(p, why, sizeof(why)), 0);
	ck_assert(t_same(dev, before));
	ck_assert(!t_exists(journal));
	preserve_free(p);

	/* crash: save and scribble, then lose everything but the journal */
	p = t_save(dev, journal);
	t_scribble(dev);
	preserve_free(p);
	dev_close(dev);
	/* the card comes back, maybe under another name */
	dev = t_loop_open(file, name, sizeof(name));
	ck_assert_ptr_nonnull(dev);
	ck_assert(!t_same(dev, before));
	ck_assert_int_eq(preserve_restore_journal(journal, dev, why,
						  sizeof(why)), 0);
	ck_assert(t_same(dev, before));
	ck_assert(!t_exists(journal));
	dev_close(dev);
	free(before);
}
END_TEST

START_TEST(test_preserve_loop_foreign)
{
	char a[256], b[256], name[64], journal[256], why[256] = "";
	unsigned char *b_before;
	struct device *dev;
	struct preserve *p;

	t_make_file(t_path(a, sizeof(a), "a.img"), T_SIZE, 41);
	t_make_file(t_path(b, sizeof(b), "b.img"), T_SIZE, 42);
	t_path(journal, sizeof(journal), "a.journal");
	dev = t_loop_open(a, name, sizeof(name));
	if (!dev)
		return;
	p = t_save(dev, journal);
	t_scribble(dev);
	preserve_free(p);
	dev_close(dev);

	dev = t_loop_open(b, name, sizeof(name));
	ck_assert_ptr_nonnull(dev);
	b_before = t_snapshot(dev);
	ck_assert_int_eq(preserve_restore_journal(journal, dev, why,
						  sizeof(why)), -ESTALE);
	ck_assert_msg(strstr(why, "belongs to another device"), "why: %s",
		      why);
	ck_assert(t_same(dev, b_before));
	ck_assert(t_exists(journal));
	dev_close(dev);
	free(b_before);

	/* A is still restorable */
	dev = t_loop_open(a, name, sizeof(name));
	ck_assert_ptr_nonnull(dev);
	ck_assert_int_eq(preserve_restore_journal(journal, dev, why,
						  sizeof(why)), 0);
	dev_close(dev);
}
END_TEST

/*
 * The card was written after the run was cut off (a new file system):
 * --restore refuses, one line naming the bytes and --force, without a
 * write, and keeps the journal; forced, it restores.
 */
START_TEST(test_restore_after_rewrite)
{
	char path[256], journal[256], why[512] = "";
	unsigned char *before, *rewritten, *buf;
	struct device *dev;
	struct preserve *p;

	t_make_file(t_path(path, sizeof(path), "card"), T_SIZE, 65);
	t_path(journal, sizeof(journal), "card.journal");
	dev = t_open(path);
	before = t_snapshot(dev);
	p = t_save(dev, journal);
	t_scribble(dev);		/* the run, through the guard */
	preserve_free(p);		/* cut off */
	dev_close(dev);

	/* mkfs: 4 KiB of something else inside the second range */
	dev = t_open_raw(path);
	buf = dev_alloc_buf(4 * KiB);
	ck_assert_ptr_nonnull(buf);
	dev_fill(buf, 4 * KiB, DEV_PAT_RANDOM, 66);
	ck_assert_int_eq(dev_write(dev, buf, 4 * KiB, 3 * MiB, NULL), 0);
	dev_free_buf(buf);
	rewritten = t_snapshot(dev);
	ck_assert_int_eq(preserve_restore_journal(journal, dev, why,
						  sizeof(why)), -ESTALE);
	ck_assert_msg(strstr(why, "bytes 3145728-3146240 of ") &&
		      strstr(why, "no longer hold") && strstr(why, "--force") &&
		      !strchr(why, '\n'), "why: %s", why);
	ck_assert(t_same(dev, rewritten));
	ck_assert(t_exists(journal));

	/* forced: everything saved goes back over it */
	ck_assert_int_eq(preserve_load_journal(&p, journal, dev, 1, why,
					       sizeof(why)), 0);
	ck_assert_int_eq(preserve_restore(p, why, sizeof(why)), 0);
	preserve_free(p);
	ck_assert(t_same(dev, before));
	ck_assert(!t_exists(journal));
	dev_close(dev);
	free(before);
	free(rewritten);
}
END_TEST

/*
 * A write cut short by the crash: its blocks hold the old data or the
 * new, either is what the run wrote; a restore cut short likewise.
 */
START_TEST(test_restore_after_short_write)
{
	char path[256], journal[256], why[512] = "";
	unsigned char *before, *buf;
	struct device *f, *g;
	struct fault_plan plan;
	struct fault_stats st;
	struct preserve *p;

	t_make_file(t_path(path, sizeof(path), "card"), T_SIZE, 67);
	t_path(journal, sizeof(journal), "card.journal");
	f = t_wrap(t_open_raw(path), NULL);
	g = t_guard(f);
	before = t_snapshot(g);
	p = t_save(g, journal);
	/* the range is saved when first written: write what it holds */
	buf = dev_alloc_buf(64 * KiB);
	ck_assert_ptr_nonnull(buf);
	memcpy(buf, before + 2 * MiB, 64 * KiB);
	ck_assert_int_eq(dev_write(g, buf, 64 * KiB, 2 * MiB, NULL), 0);
	dev_free_buf(buf);
	/* the next write moves 8 KiB of its 64 KiB, then the crash */
	ck_assert_int_eq(fault_get_stats(f, &st), 0);
	fault_plan_init(&plan);
	plan.short_op = st.reads + st.writes + st.discards + 1;
	plan.short_byte = 8 * KiB;
	ck_assert_int_eq(fault_set_plan(f, &plan), 0);
	buf = dev_alloc_buf(64 * KiB);
	ck_assert_ptr_nonnull(buf);
	dev_fill(buf, 64 * KiB, DEV_PAT_5A, 0);
	ck_assert_int_eq(dev_write(g, buf, 64 * KiB, 2 * MiB, NULL), -EIO);
	dev_free_buf(buf);
	preserve_free(p);
	dev_close(g);

	g = t_open(path);
	ck_assert(!t_same(g, before));
	ck_assert_int_eq(preserve_restore_journal(journal, g, why,
						  sizeof(why)), 0);
	ck_assert(t_same(g, before));
	dev_close(g);
	free(before);
}
END_TEST

/* --force only means something to --restore. */
START_TEST(test_force_needs_restore)
{
	struct fb_run r;

	fb_run("--force -a --simulate", &r);
	ck_assert_int_eq(r.status, 2);
	ck_assert_ptr_nonnull(strstr(r.err, "--force goes with --restore"));
	ck_assert_uint_eq(r.opens, 0);
	fb_free(&r);
}
END_TEST

/*
 * --restore after a crash at every step of making the journal: it is
 * written to JOURNAL.tmp, fsync'd, then given its name, then the .tmp
 * removed, and only then does the test write.  A crash before the name
 * (no JOURNAL, a .tmp cut anywhere, even whole) left the device as it
 * was: nothing to restore, the stale .tmp removed, exit 0.  A crash
 * between the name and the removal restores from JOURNAL and removes
 * the .tmp too.
 */
START_TEST(test_restore_unfinished_journal)
{
	char path[256], journal[256], tmp[300], args[700];
	unsigned char *j, *before;
	struct device *dev;
	struct preserve *p;
	struct fb_run r;
	size_t len, k, cuts[12];

	t_make_file(t_path(path, sizeof(path), "card"), T_SIZE, 3);
	t_path(journal, sizeof(journal), "card.journal");
	snprintf(tmp, sizeof(tmp), "%s.tmp", journal);
	dev = t_open(path);
	before = t_snapshot(dev);
	p = t_save(dev, journal);
	j = t_read_file(journal, &len);
	preserve_free(p);
	dev_close(dev);
	ck_assert_int_eq(unlink(journal), 0);
	/* cut after 0, 1 byte, the magic, the header, a record, half ... */
	cuts[0] = 0;
	cuts[1] = 1;
	cuts[2] = 8;
	cuts[3] = 191;
	cuts[4] = 192;
	cuts[5] = 192 + 24;
	cuts[6] = len / 2;
	cuts[7] = len - 25;
	cuts[8] = len - 1;
	cuts[9] = len;		/* whole, fsync'd, not yet named */
	snprintf(args, sizeof(args), "--restore=%s %s", journal, path);
	for (k = 0; k < 10; k++) {
		t_write_file(tmp, j, cuts[k]);
		fb_run(args, &r);
		ck_assert_msg(r.status == 0, "cut at %zu: status %d: %s",
			      cuts[k], r.status, r.err);
		ck_assert_ptr_nonnull(strstr(r.out, "nothing to restore"));
		ck_assert_str_eq(r.err, "");
		ck_assert_uint_eq(r.io_calls, 0);
		ck_assert_msg(!t_exists(tmp), "cut at %zu: .tmp left", cuts[k]);
		fb_free(&r);
	}
	/* named, .tmp not yet removed, the test wrote: a real restore */
	dev = t_open(path);
	p = t_save(dev, journal);
	t_scribble(dev);
	preserve_free(p);
	dev_close(dev);
	t_write_file(tmp, j, len);
	fb_run(args, &r);
	ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
	ck_assert_ptr_nonnull(strstr(r.out, "restored"));
	ck_assert(!t_exists(journal));
	ck_assert(!t_exists(tmp));
	fb_free(&r);
	dev = t_open_raw(path);
	ck_assert(t_same(dev, before));
	dev_close(dev);
	/* no journal and no .tmp: still an error */
	fb_run(args, &r);
	ck_assert_int_eq(r.status, 1);
	fb_free(&r);
	free(j);
	free(before);
}
END_TEST

Suite *preserve_suite(void)
{
	Suite *s = suite_create("preserve");
	TCase *tc;

	tc = tcase_create("preserve");
	tcase_add_unchecked_fixture(tc, t_base_setup, t_base_teardown);
	tcase_add_checked_fixture(tc, t_dir_setup, NULL);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_preserve_roundtrip);
	tcase_add_test(tc, test_restore_unfinished_journal);
	tcase_add_test(tc, test_preserve_journal_layout);
	tcase_add_test(tc, test_preserve_refuses_existing_journal);
	tcase_add_loop_test(tc, test_preserve_bad_ranges, 0,
			    sizeof(t_bad_ranges) / sizeof(t_bad_ranges[0]));
	tcase_add_test(tc, test_preserve_save_read_error);
	tcase_add_test(tc, test_preserve_crash_then_journal);
	tcase_add_loop_test(tc, test_preserve_foreign, 0,
			    sizeof(t_foreign) / sizeof(t_foreign[0]));
	tcase_add_loop_test(tc, test_preserve_damaged_journal, 0, T_NDAMAGE);
	tcase_add_loop_test(tc, test_preserve_restore_fails, 0,
			    sizeof(t_restore_fault) /
				    sizeof(t_restore_fault[0]));
	tcase_add_test(tc, test_preserve_restore_journal_eio);
	tcase_add_test(tc, test_preserve_journal_name);
	tcase_add_test(tc, test_preserve_restore_holds_signals);
	tcase_add_test(tc, test_preserve_sim_times);
	tcase_add_test(tc, test_preserve_sim_lazy_reads);
	tcase_add_test(tc, test_preserve_sparse);
	tcase_add_loop_test(tc, test_preserve_sim_written, 0,
			    sizeof(t_written) / sizeof(t_written[0]));
	tcase_add_test(tc, test_preserve_auto_written);
	tcase_add_test(tc, test_preserve_ranges);
	tcase_add_test(tc, test_preserve_writing_tests);
	tcase_add_test(tc, test_restore_after_rewrite);
	tcase_add_test(tc, test_restore_after_short_write);
	tcase_add_test(tc, test_force_needs_restore);
	suite_add_tcase(s, tc);

	tc = tcase_create("preserve_loop");
	tcase_add_unchecked_fixture(tc, t_base_setup, t_base_teardown);
	tcase_add_checked_fixture(tc, t_dir_setup, NULL);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_preserve_loop);
	tcase_add_test(tc, test_preserve_loop_batch);
	tcase_add_test(tc, test_preserve_loop_foreign);
	suite_add_tcase(s, tc);
	return s;
}
