// SPDX-License-Identifier: GPL-2.0-only
/*
 * A quieter system for steadier timing: the front end's business (it
 * prints what it did), not the device layer's.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <linux/ioprio.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "quiet.h"
#include "wrap.h"

/* One line of quiet_system()'s report. */
static void quiet_log(FILE *log, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void quiet_log(FILE *log, const char *fmt, ...)
{
	struct wrap w;
	va_list ap;

	if (!log)
		return;
	/* 80 columns, as every message (issue 27 item 14) */
	log = wrap_begin(&w, log, "flashbench:   ");
	fputs("flashbench: ", log);
	va_start(ap, fmt);
	vfprintf(log, fmt, ap);
	va_end(ap);
	fputc('\n', log);
	wrap_end(&w);
}

/*
 * Lock memory so no page fault lands inside a timed operation.  Future
 * mappings are locked too, which fails allocations beyond
 * RLIMIT_MEMLOCK, so only when the limit cannot bite (root, or none).
 */
static void quiet_memory(FILE *log)
{
	struct rlimit rl;

	if (geteuid() != 0 && !getrlimit(RLIMIT_MEMLOCK, &rl) &&
	    rl.rlim_cur != RLIM_INFINITY) {
		quiet_log(log, "memory not locked: RLIMIT_MEMLOCK is %llu bytes and locking future buffers could make them fail",
			  (unsigned long long)rl.rlim_cur);
		return;
	}
	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		quiet_log(log, "memory not locked (mlockall): %s",
			  strerror(errno));
	else
		quiet_log(log, "memory locked (mlockall): no page faults while timing");
}

/*
 * Raise CPU and I/O priority.  No SCHED_FIFO: the block layer completes
 * our own requests in kernel threads and soft interrupts of normal
 * priority, which a real-time task spinning on the same CPU would delay
 * (making the timing worse) or starve (hanging the machine).  Likewise
 * the highest best-effort I/O class rather than the real-time one, which
 * could starve the system's own I/O when the card is its root.
 */
static void quiet_priority(FILE *log)
{
	if (setpriority(PRIO_PROCESS, 0, -20))
		quiet_log(log, "CPU priority not raised (nice -20): %s",
			  strerror(errno));
	else
		quiet_log(log, "CPU priority raised to nice -20");
	if (syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, 0,
		    IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 0)))
		quiet_log(log, "I/O priority not raised (best-effort 0): %s",
			  strerror(errno));
	else
		quiet_log(log, "I/O priority raised to best-effort 0");
	quiet_log(log, "scheduler left at SCHED_OTHER: a real-time task would delay the kernel threads completing its own I/O");
}

void quiet_system(FILE *log)
{
	quiet_memory(log);
	quiet_priority(log);
}
