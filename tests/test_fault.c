// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fault injector (device/fault.c): every fault at the planned
 * operation or byte, errors recorded, ENODEV sticky, a stop or a signal
 * where planned, faults inside a batch, and a transparent pass-through
 * otherwise; wrappers stacked on it forward every operation.
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

#include "blockdev.h"
#include "fault.h"
#include "preserve.h"
#include "sim.h"
#include "util.h"
#include "tfiles.h"

/* ---- fault: pass-through ---- */

/* The name dev_error gives an operation kind. */
static const char *t_op_name(unsigned int kind)
{
	if (kind == FAULT_READ)
		return "read";
	return kind == FAULT_WRITE ? "write" : "discard";
}

START_TEST(test_fault_passthrough)
{
	struct device *plain = sim_card("size=1G,noise=3,seed=7");
	struct device *inner = sim_card("size=1G,noise=3,seed=7");
	struct device *f = t_wrap(inner, NULL);
	unsigned char *buf = dev_alloc_buf(4 * MiB);
	struct fault_stats st;
	uint64_t ta, tb;
	size_t i;

	ck_assert_ptr_nonnull(buf);
	dev_fill(buf, 4 * MiB, DEV_PAT_ZERO, 0);
	ck_assert_uint_eq(f->size_byte, plain->size_byte);
	ck_assert_uint_eq(f->logical_block_size, plain->logical_block_size);
	ck_assert_str_eq(f->path, inner->path);
	for (i = 0; i < T_NWORK; i++) {
		ck_assert_int_eq(t_do(plain, &t_workload[i], buf, &ta), 0);
		ck_assert_int_eq(t_do(f, &t_workload[i], buf, &tb), 0);
		ck_assert_msg(ta == tb, "op %zu: %llu ns plain, %llu wrapped",
			      i, (unsigned long long)ta,
			      (unsigned long long)tb);
		ck_assert_uint_eq(dev_now_ns(f), dev_now_ns(inner));
		ck_assert_uint_eq(dev_now_ns(f), dev_now_ns(plain));
	}
	ck_assert_int_eq(fault_get_stats(f, &st), 0);
	ck_assert_uint_eq(st.reads, 3);
	ck_assert_uint_eq(st.writes, 5);
	ck_assert_uint_eq(st.discards, 1);
	ck_assert_uint_eq(st.injected, 0);
	ck_assert_uint_eq(st.written_byte,
			  64 * KiB + 16 * KiB + 512 + 4 * MiB + 3 * KiB);
	ck_assert_uint_eq(f->io_count, T_NWORK);
	ck_assert_uint_eq(inner->io_count, T_NWORK);
	ck_assert_int_eq(fault_get_stats(plain, &st), -EINVAL);
	dev_free_buf(buf);
	dev_close(plain);
	dev_close(f);		/* closes inner too (else ASan: leak) */
}
END_TEST

START_TEST(test_fault_bad_plan)
{
	struct device *inner = sim_card("size=1G");
	struct device *f = (struct device *)1;
	struct fault_plan plan;

	fault_plan_init(&plan);
	plan.eio_kinds = 0x10;
	ck_assert_int_eq(fault_wrap(&f, inner, &plan), -EINVAL);
	ck_assert_ptr_null(f);
	fault_plan_init(&plan);
	plan.eio_op = 0;	/* operations count from 1 */
	ck_assert_int_eq(fault_wrap(&f, inner, &plan), -EINVAL);
	ck_assert_int_eq(fault_wrap(&f, NULL, NULL), -EINVAL);
	dev_close(inner);	/* still ours after a failed wrap */
}
END_TEST

/* ---- fault: each kind at the planned operation or byte ---- */

/* Check the last error of dev. */
static void t_err(struct device *dev, const char *op, uint64_t off,
		  uint64_t len, int err)
{
	ck_assert_str_eq(dev->last_error.op, op);
	ck_assert_uint_eq(dev->last_error.off_byte, off);
	ck_assert_uint_eq(dev->last_error.len_byte, len);
	ck_assert_int_eq(dev->last_error.err, err);
}

START_TEST(test_fault_eio_op)
{
	struct device *inner = sim_card("size=1G,noise=0"), *f;
	unsigned char *buf = dev_alloc_buf(64 * KiB);
	struct fault_plan plan;
	struct fault_stats st;
	uint64_t before;

	fault_plan_init(&plan);
	plan.eio_op = 3;
	f = t_wrap(inner, &plan);
	dev_fill(buf, 64 * KiB, DEV_PAT_ZERO, 0);
	ck_assert_int_eq(dev_read(f, buf, 4 * KiB, 0, NULL), 0);
	ck_assert_int_eq(dev_write(f, buf, 4 * KiB, 0, NULL), 0);
	before = dev_now_ns(f);
	ck_assert_int_eq(dev_write(f, buf, 8 * KiB, 12 * MiB, NULL), -EIO);
	t_err(f, "write", 12 * MiB, 8 * KiB, EIO);
	/* the failed operation never reached the card */
	ck_assert_uint_eq(dev_now_ns(f), before);
	ck_assert_uint_eq(inner->io_count, 2);
	/* one failure, not a dead device */
	ck_assert_int_eq(dev_read(f, buf, 64 * KiB, 0, NULL), 0);
	ck_assert_int_eq(dev_discard(f, 0, 4 * MiB, NULL), 0);
	ck_assert_int_eq(fault_get_stats(f, &st), 0);
	ck_assert_uint_eq(st.injected, 1);
	ck_assert_uint_eq(inner->io_count, 4);
	dev_free_buf(buf);
	dev_close(f);
}
END_TEST

/* eio_byte and eio_kinds: which operations touching the byte fail. */
static const struct t_eio_case {
	unsigned int kinds;	/* plan.eio_kinds */
	unsigned int kind;	/* operation tried */
	uint64_t off_byte;
	uint64_t len_byte;
	int want;		/* its result */
} t_eio_byte[] = {
	{ FAULT_ALL, FAULT_READ, 1 * MiB, 8 * KiB, -EIO },
	{ FAULT_ALL, FAULT_READ, 1 * MiB + 8 * KiB, 8 * KiB, 0 },
	{ FAULT_ALL, FAULT_READ, 1 * MiB + 4 * KiB, 512, -EIO },
	{ FAULT_ALL, FAULT_READ, 1 * MiB + 4 * KiB + 512, 512, 0 },
	{ FAULT_ALL, FAULT_READ, 1 * MiB - 8 * KiB, 8 * KiB, 0 },
	{ FAULT_ALL, FAULT_WRITE, 0, 4 * MiB, -EIO },
	{ FAULT_ALL, FAULT_DISCARD, 0, 4 * MiB, -EIO },
	{ FAULT_WRITE, FAULT_READ, 1 * MiB, 8 * KiB, 0 },
	{ FAULT_WRITE, FAULT_WRITE, 1 * MiB, 8 * KiB, -EIO },
	{ FAULT_WRITE, FAULT_DISCARD, 0, 4 * MiB, 0 },
	{ FAULT_READ | FAULT_DISCARD, FAULT_DISCARD, 1 * MiB, 4 * MiB, -EIO },
	{ FAULT_READ | FAULT_DISCARD, FAULT_WRITE, 1 * MiB, 4 * MiB, 0 },
};

START_TEST(test_fault_eio_byte)
{
	const uint64_t bad = 1 * MiB + 4 * KiB + 100;
	struct device *f, *inner = sim_card("size=1G,noise=0");
	unsigned char *buf = dev_alloc_buf(4 * MiB);
	struct fault_plan plan;
	struct t_op op;

	fault_plan_init(&plan);
	plan.eio_byte = bad;
	plan.eio_kinds = t_eio_byte[_i].kinds;
	f = t_wrap(inner, &plan);
	dev_fill(buf, 4 * MiB, DEV_PAT_ONES, 0);
	op.kind = t_eio_byte[_i].kind;
	op.off_byte = t_eio_byte[_i].off_byte;
	op.len_byte = t_eio_byte[_i].len_byte;
	ck_assert_int_eq(t_do(f, &op, buf, NULL), t_eio_byte[_i].want);
	if (t_eio_byte[_i].want)
		t_err(f, t_op_name(op.kind), op.off_byte, op.len_byte, EIO);
	else
		ck_assert_ptr_null(f->last_error.op);
	/* the same byte fails again: a bad sector stays bad */
	ck_assert_int_eq(t_do(f, &op, buf, NULL), t_eio_byte[_i].want);
	dev_free_buf(buf);
	dev_close(f);
}
END_TEST

/*
 * The first byte of b[0, len) that is not val inside [lo, hi) and zero
 * outside, or len.  (Tests assert once on the result: every assertion
 * is a message to the parent process.)
 */
static size_t t_bad_byte(const unsigned char *b, size_t len, size_t lo,
			 size_t hi, unsigned char val)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (b[i] != (i >= lo && i < hi ? val : 0))
			break;
	return i;
}

/* A 1 MiB file of zeros in the test directory, opened as a device. */
static struct device *t_zero_file(const char *name, char *path, size_t len)
{
	unsigned char *zero = calloc(1, 1 * MiB);

	ck_assert_ptr_nonnull(zero);
	t_path(path, len, name);
	t_write_file(path, zero, 1 * MiB);
	free(zero);
	return t_open(path);
}

START_TEST(test_fault_short)
{
	char path[256];
	struct device *f, *inner = t_zero_file("short", path, sizeof(path));
	unsigned char *buf = dev_alloc_buf(8 * KiB), *file;
	struct fault_plan plan;
	struct fault_stats st;
	size_t len, i;

	fault_plan_init(&plan);
	plan.short_op = 1;
	plan.short_byte = 1536 + 100;	/* rounded down to 3 blocks */
	f = t_wrap(inner, &plan);
	dev_fill(buf, 8 * KiB, DEV_PAT_5A, 0);
	ck_assert_int_eq(dev_write(f, buf, 8 * KiB, 64 * KiB, NULL), -EIO);
	t_err(f, "write", 64 * KiB, 8 * KiB, EIO);
	ck_assert_int_eq(fault_get_stats(f, &st), 0);
	ck_assert_uint_eq(st.written_byte, 1536);
	ck_assert_uint_eq(st.injected, 1);
	/* exactly the first 1536 bytes reached the file */
	file = t_read_file(path, &len);
	ck_assert_uint_eq(len, 1 * MiB);
	i = t_bad_byte(file, len, 64 * KiB, 64 * KiB + 1536, 0x5a);
	ck_assert_msg(i == len, "byte %zu is %#x", i, file[i]);
	free(file);

	/* a short read: the head is data, the rest poison */
	plan.short_op = 2;
	plan.short_byte = 1024;
	ck_assert_int_eq(fault_set_plan(f, &plan), 0);
	memset(buf, 0x11, 8 * KiB);
	ck_assert_int_eq(dev_read(f, buf, 4 * KiB, 64 * KiB, NULL), -EIO);
	t_err(f, "read", 64 * KiB, 4 * KiB, EIO);
	for (i = 0; i < 4 * KiB; i++)
		ck_assert_uint_eq(buf[i], i < 1024 ? 0x5a : 0xa5);
	ck_assert_uint_eq(buf[4 * KiB], 0x11);	/* nothing past len */
	/* the next read is whole again */
	ck_assert_int_eq(dev_read(f, buf, 4 * KiB, 64 * KiB, NULL), 0);
	ck_assert_uint_eq(buf[2 * KiB], 0);
	dev_free_buf(buf);
	dev_close(f);
}
END_TEST

START_TEST(test_fault_enospc)
{
	char path[256];
	struct device *f, *inner = t_zero_file("nospc", path, sizeof(path));
	unsigned char *buf = dev_alloc_buf(16 * KiB), *file;
	struct fault_plan plan;
	struct fault_stats st;
	size_t len, i;

	fault_plan_init(&plan);
	plan.enospc_byte = 512 * KiB;
	f = t_wrap(inner, &plan);
	dev_fill(buf, 16 * KiB, DEV_PAT_ONES, 0);
	ck_assert_int_eq(dev_write(f, buf, 8 * KiB, 0, NULL), 0);
	ck_assert_int_eq(dev_write(f, buf, 16 * KiB, 512 * KiB - 4 * KiB,
				   NULL), -ENOSPC);
	t_err(f, "write", 512 * KiB - 4 * KiB, 16 * KiB, ENOSPC);
	ck_assert_int_eq(dev_write(f, buf, 4 * KiB, 600 * KiB, NULL),
			 -ENOSPC);
	t_err(f, "write", 600 * KiB, 4 * KiB, ENOSPC);
	/* reads are not writes */
	ck_assert_int_eq(dev_read(f, buf, 16 * KiB, 600 * KiB, NULL), 0);
	ck_assert_int_eq(fault_get_stats(f, &st), 0);
	ck_assert_uint_eq(st.written_byte, 8 * KiB + 4 * KiB);
	ck_assert_uint_eq(st.injected, 2);
	file = t_read_file(path, &len);
	ck_assert_uint_eq(t_bad_byte(file, 8 * KiB, 0, 8 * KiB, 0xff),
			  8 * KiB);
	i = 8 * KiB + t_bad_byte(file + 8 * KiB, len - 8 * KiB, 500 * KiB,
				 504 * KiB, 0xff);
	ck_assert_msg(i == len, "byte %zu is %#x", i, file[i]);
	free(file);
	dev_free_buf(buf);
	dev_close(f);
}
END_TEST

START_TEST(test_fault_lost)
{
	char path[256];
	struct device *f, *inner = t_zero_file("lost", path, sizeof(path));
	unsigned char *buf = dev_alloc_buf(16 * KiB), *file;
	struct fault_plan plan;
	struct fault_stats st;
	size_t len, i;

	fault_plan_init(&plan);
	plan.lost_byte = 256 * KiB;
	f = t_wrap(inner, &plan);
	dev_fill(buf, 16 * KiB, DEV_PAT_5A, 0);
	/* a counterfeit card says yes and keeps only what it has */
	ck_assert_int_eq(dev_write(f, buf, 16 * KiB, 248 * KiB, NULL), 0);
	ck_assert_ptr_null(f->last_error.op);
	ck_assert_int_eq(fault_get_stats(f, &st), 0);
	ck_assert_uint_eq(st.written_byte, 8 * KiB);
	ck_assert_uint_eq(st.lost_byte, 8 * KiB);
	file = t_read_file(path, &len);
	i = t_bad_byte(file, len, 248 * KiB, 256 * KiB, 0x5a);
	ck_assert_msg(i == len, "byte %zu is %#x", i, file[i]);
	free(file);
	dev_free_buf(buf);
	dev_close(f);
}
END_TEST

START_TEST(test_fault_enodev)
{
	struct device *inner = sim_card("size=1G,noise=0"), *f;
	unsigned char *buf = dev_alloc_buf(4 * KiB);
	struct fault_plan plan;
	struct fault_stats st;
	uint64_t t;
	int i;

	fault_plan_init(&plan);
	plan.enodev_op = 2;
	f = t_wrap(inner, &plan);
	dev_fill(buf, 4 * KiB, DEV_PAT_ZERO, 0);
	ck_assert_int_eq(dev_read(f, buf, 4 * KiB, 0, NULL), 0);
	ck_assert_int_eq(dev_write(f, buf, 4 * KiB, 8 * KiB, NULL), -ENODEV);
	t_err(f, "write", 8 * KiB, 4 * KiB, ENODEV);
	/* gone for good, even when the plan no longer says so */
	fault_plan_init(&plan);
	ck_assert_int_eq(fault_set_plan(f, &plan), 0);
	for (i = 0; i < 5; i++) {
		ck_assert_int_eq(dev_read(f, buf, 4 * KiB, 0, NULL), -ENODEV);
		t_err(f, "read", 0, 4 * KiB, ENODEV);
		ck_assert_int_eq(dev_discard(f, 0, 4 * MiB, NULL), -ENODEV);
		t_err(f, "discard", 0, 4 * MiB, ENODEV);
	}
	/* the clock still works and a failed call took no device time */
	ck_assert_int_eq(dev_read(f, buf, 4 * KiB, 0, &t), -ENODEV);
	ck_assert_uint_eq(t, 0);
	ck_assert_uint_eq(inner->io_count, 1);
	ck_assert_int_eq(fault_get_stats(f, &st), 0);
	ck_assert_uint_eq(st.injected, 12);
	dev_free_buf(buf);
	dev_close(f);
}
END_TEST

static volatile sig_atomic_t t_batch_stop;

static void t_batch_on_usr1(int sig)
{
	(void)sig;
	t_batch_stop = 1;
}

/* n writes of 4 KiB from buf, 1 MiB apart from base. */
static void t_writes(struct dev_req *q, unsigned int n, void *buf,
		     uint64_t base)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		q[i].write = 1;
		q[i].buf = buf;
		q[i].len = 4 * KiB;
		q[i].off = (off_t)(base + i * MiB);
	}
}

/*
 * Faults inside a batch: each request is numbered as if alone; the ones
 * before a fault go down together (on a queued card, as one batch: one
 * access), the faulty one fails and ends the batch.  A signal raised
 * inside a batch does not cut it (it is in the card), the next one is
 * refused.  A lost write inside a batch is lost silently.
 */
START_TEST(test_fault_batch)
{
	struct device *inner = sim_card("size=1G,noise=0,queue=4,"
					"write_mbps=16");
	unsigned char *buf = dev_alloc_buf(4 * KiB);
	struct sigaction sa, old;
	struct fault_plan plan;
	struct fault_stats st;
	struct dev_req q[5];
	struct device *f;

	dev_fill(buf, 4 * KiB, DEV_PAT_5A, 0);
	fault_plan_init(&plan);
	plan.eio_op = 3;
	f = t_wrap(inner, &plan);
	t_writes(q, 5, buf, 8 * MiB);
	ck_assert_int_eq(dev_batch(f, q, 5, NULL), -EIO);
	t_err(f, "write", 10 * MiB, 4 * KiB, EIO);
	ck_assert_uint_eq(inner->io_count, 2);
	/* the two went down together: one access (700 µs), two pages */
	ck_assert_uint_eq(dev_now_ns(inner), 700000 + 2 * 1024000);
	ck_assert_int_eq(fault_get_stats(f, &st), 0);
	ck_assert_uint_eq(st.writes, 3);
	ck_assert_uint_eq(st.injected, 1);
	ck_assert_uint_eq(st.written_byte, 8 * KiB);

	/* a signal at the second request of the next batch */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = t_batch_on_usr1;
	ck_assert_int_eq(sigaction(SIGUSR1, &sa, &old), 0);
	dev_set_stop_flag(&t_batch_stop);
	fault_plan_init(&plan);
	plan.signal_op = 5;
	plan.signal = SIGUSR1;
	ck_assert_int_eq(fault_set_plan(f, &plan), 0);
	ck_assert_int_eq(dev_batch(f, q, 4, NULL), 0);
	ck_assert_int_eq(t_batch_stop, 1);
	ck_assert_uint_eq(inner->io_count, 6);
	ck_assert_int_eq(dev_batch(f, q, 4, NULL), -EINTR);
	t_err(f, "write", 8 * MiB, 4 * KiB, EINTR);
	ck_assert_uint_eq(inner->io_count, 6);
	dev_set_stop_flag(NULL);
	sigaction(SIGUSR1, &old, NULL);

	/* the second write of a batch lost past 64 MiB + 1 MiB + 2 KiB */
	fault_plan_init(&plan);
	plan.lost_byte = 65 * MiB + 2 * KiB;
	ck_assert_int_eq(fault_set_plan(f, &plan), 0);
	t_writes(q, 2, buf, 64 * MiB);
	ck_assert_int_eq(dev_batch(f, q, 2, NULL), 0);
	ck_assert_int_eq(fault_get_stats(f, &st), 0);
	ck_assert_uint_eq(st.lost_byte, 2 * KiB);
	ck_assert_int_eq(dev_read(inner, buf, 4 * KiB, 65 * MiB, NULL), 0);
	ck_assert_uint_eq(buf[0], 0x5a);
	ck_assert_uint_eq(buf[2 * KiB], 0);
	dev_free_buf(buf);
	dev_close(f);
}
END_TEST

/*
 * Every wrapper passes a batch on as a batch: four queued reads through
 * the guard and the fault injector cost one access and four transfers
 * on a card with a queue, not four accesses.
 */
START_TEST(test_stack_batch)
{
	struct device *inner = sim_card("size=1G,noise=0,queue=4"), *g;
	unsigned char *buf = dev_alloc_buf(16 * KiB);
	struct dev_req q[4];
	unsigned int i;
	uint64_t t;

	g = t_guard(t_wrap(inner, NULL));
	for (i = 0; i < 4; i++) {
		q[i].write = 0;
		q[i].buf = buf + i * 4 * KiB;
		q[i].len = 4 * KiB;
		q[i].off = (off_t)(i * MiB);
	}
	ck_assert_int_eq(dev_batch(g, q, 4, &t), 0);
	/* access 700 µs, 4 KiB at 25 MB/s: 163.84 µs each */
	ck_assert_uint_eq(t, 700000 + 4 * 163840);
	ck_assert_uint_eq(inner->io_count, 4);
	ck_assert_uint_eq(g->io_count, 4);
	dev_free_buf(buf);
	dev_close(g);
}
END_TEST

/* The one stop mechanism (dev_set_stop_flag) stops a stack at its top. */
START_TEST(test_fault_stop)
{
	static volatile sig_atomic_t stop;
	struct device *inner = sim_card("size=1G,noise=0"), *f;
	unsigned char *buf = dev_alloc_buf(4 * KiB);
	struct fault_plan plan;

	fault_plan_init(&plan);
	f = t_wrap(inner, &plan);
	dev_set_stop_flag(&stop);
	dev_fill(buf, 4 * KiB, DEV_PAT_ZERO, 0);
	ck_assert_int_eq(dev_write(f, buf, 4 * KiB, 0, NULL), 0);
	stop = 1;	/* what a signal handler would do */
	ck_assert_int_eq(dev_write(f, buf, 4 * KiB, 4 * KiB, NULL), -EINTR);
	t_err(f, "write", 4 * KiB, 4 * KiB, EINTR);
	ck_assert_int_eq(dev_read(f, buf, 4 * KiB, 0, NULL), -EINTR);
	ck_assert_uint_eq(inner->io_count, 1);
	stop = 0;
	ck_assert_int_eq(dev_read(f, buf, 4 * KiB, 0, NULL), 0);
	dev_set_stop_flag(NULL);
	dev_free_buf(buf);
	dev_close(f);
}
END_TEST

/*
 * A wrapper passes untimed I/O and flushes on without code of its own:
 * marked untimed through the fault injector, the simulated card's
 * virtual clock stands still; a flush through it reaches the card.
 */
START_TEST(test_stack_forwards)
{
	struct device *inner = sim_card("size=1G,noise=0"), *f;
	unsigned char *buf = dev_alloc_buf(4 * KiB);
	uint64_t t;

	f = t_wrap(inner, NULL);
	ck_assert_ptr_eq(f->inner, inner);
	ck_assert_int_eq(dev_read(f, buf, 4 * KiB, 0, &t), 0);
	ck_assert_uint_gt(t, 0);
	dev_untimed(f, 1);
	ck_assert_int_eq(inner->untimed, 1);
	ck_assert_int_eq(dev_read(f, buf, 4 * KiB, 0, &t), 0);
	ck_assert_uint_eq(t, 0);
	dev_untimed(f, 0);
	ck_assert_int_eq(inner->untimed, 0);
	ck_assert_int_eq(dev_read(f, buf, 4 * KiB, 0, &t), 0);
	ck_assert_uint_gt(t, 0);
	ck_assert_int_eq(dev_flush(f), 0);
	dev_free_buf(buf);
	dev_close(f);
}
END_TEST

Suite *fault_suite(void)
{
	Suite *s = suite_create("fault");
	TCase *tc;

	tc = tcase_create("fault");
	tcase_add_unchecked_fixture(tc, t_base_setup, t_base_teardown);
	tcase_add_checked_fixture(tc, t_dir_setup, NULL);
	tcase_add_test(tc, test_fault_passthrough);
	tcase_add_test(tc, test_fault_bad_plan);
	tcase_add_test(tc, test_fault_eio_op);
	tcase_add_loop_test(tc, test_fault_eio_byte, 0,
			    sizeof(t_eio_byte) / sizeof(t_eio_byte[0]));
	tcase_add_test(tc, test_fault_short);
	tcase_add_test(tc, test_fault_enospc);
	tcase_add_test(tc, test_fault_lost);
	tcase_add_test(tc, test_fault_enodev);
	tcase_add_test(tc, test_fault_stop);
	tcase_add_test(tc, test_fault_batch);
	tcase_add_test(tc, test_stack_batch);
	tcase_add_test(tc, test_stack_forwards);
	suite_add_tcase(s, tc);
	return s;
}
