/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A fault-injecting device: a wrapper around any device that forwards
 * every operation and makes chosen ones fail the way a dying card or a
 * full disk does.  Tests use it to drive the error paths.  It stacks on
 * any device (dev.inner): flushes and untimed I/O pass through it.
 */
#ifndef FLASHBENCH_FAULT_H
#define FLASHBENCH_FAULT_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "dev.h"

/* "No such fault" for the byte offsets and operation numbers below. */
#define FAULT_NEVER	UINT64_MAX

/* Operation kinds, for fault_plan.eio_kinds. */
#define FAULT_READ	0x1
#define FAULT_WRITE	0x2
#define FAULT_DISCARD	0x4
#define FAULT_ALL	(FAULT_READ | FAULT_WRITE | FAULT_DISCARD)

/*
 * What to break.  Operations (read, write, discard) are numbered from 1
 * in the order they reach the wrapper.  Start from fault_plan_init(),
 * which plans nothing, and set the faults wanted; several may be armed
 * at once and the first that applies (in the order below) wins.
 */
struct fault_plan {
	/* every operation from this number on fails with ENODEV: sticky */
	uint64_t enodev_op;
	/* operation number that fails once with EIO, nothing transferred */
	uint64_t eio_op;
	/* byte offset: an operation whose range covers it fails with EIO */
	uint64_t eio_byte;
	/* which operations eio_byte applies to (FAULT_READ ...) */
	unsigned int eio_kinds;
	/*
	 * Operation number of a read or write that transfers only its
	 * first short_byte bytes (rounded down to the logical block size)
	 * and then fails with EIO, as a device whose transfer ends early.
	 */
	uint64_t short_op;
	/* bytes the short transfer moves before failing */
	uint64_t short_byte;
	/*
	 * Device full: a write reaching past this byte offset writes the
	 * part below it and fails with ENOSPC.
	 */
	uint64_t enospc_byte;
	/*
	 * A fake card: a write reaching past this byte offset stores only
	 * the part below it yet reports success (what the missing capacity
	 * of a counterfeit card does to data).
	 */
	uint64_t lost_byte;
	/*
	 * A user pressing ^C mid-test: signal is raised in the process
	 * while operation number signal_op is under way (that operation
	 * itself completes; what stops is up to the handler installed).
	 */
	uint64_t signal_op;
	int signal;
	/*
	 * The same at a place: signal is raised (once) while the first
	 * write covering this byte offset is under way.
	 */
	uint64_t signal_write_byte;
};

/* What went through the wrapper. */
struct fault_stats {
	uint64_t reads;		/* read operations seen */
	uint64_t writes;	/* write operations seen */
	uint64_t discards;	/* discard operations seen */
	uint64_t injected;	/* operations the plan failed or cut */
	uint64_t written_byte;	/* bytes the inner device was given */
	uint64_t lost_byte;	/* bytes of writes silently dropped */
};

/* Fill plan with "no faults". */
void fault_plan_init(struct fault_plan *plan);

/*
 * Wrap inner in a fault-injecting device following plan (copied).  Its
 * clock is inner's clock, its size and block size inner's.  On success
 * the wrapper owns inner: dev_close(*out) closes both.  On failure inner
 * is left to the caller.  Returns 0, -EINVAL for a bad plan, -ENOMEM.
 */
int fault_wrap(struct device **out, struct device *inner,
	       const struct fault_plan *plan);

/* Copy dev's counters into *st; returns 0, or -EINVAL for no wrapper. */
int fault_get_stats(const struct device *dev, struct fault_stats *st);

/*
 * Replace the plan of a fault wrapper (operation numbers keep counting
 * from where they are).  Returns 0, or -EINVAL.
 */
int fault_set_plan(struct device *dev, const struct fault_plan *plan);

#endif /* FLASHBENCH_FAULT_H */
