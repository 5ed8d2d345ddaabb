/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The members of a record between its head and its tail (rechead.h):
 * the results, the verdict and what else a test writes, each named
 * once, in record_members[] (record/rechead.c).
 */
#ifndef FLASHBENCH_RECBODY_H
#define FLASHBENCH_RECBODY_H

/*
 * BODY_KEY(RM_VERDICT) is "verdict".  With the head's and the tail's
 * rows they are every member of a record (the rectab suite holds them
 * to the schema's).
 */
enum record_member {
	RM_RESULTS,	/* the raw measurements */
	RM_REGRESSION,	/* -i: the line of time over size */
	RM_VERDICT,	/* what is decided from them */
	RM_ADVICE,	/* --auto: what to do with the card */
	RM_RECONCILE,	/* --auto: its sizes against the card's word */
	RM_CLASS,	/* --auto --destructive: the classes checked */
	RM_ERROR,	/* why a test failed */
	RM_LACKS,	/* --analyze: what an older record lacks */
	RM_SAID,	/* --analyze: what the record said otherwise */
	RM_ESTIMATE,	/* -C: how long the check would take */
	RM_TIME_OPS,	/* --time-ops: the device time of each operation */
	RM_CACHE_FILL,	/* -L: its writes past a write cache first */
	RM_NR
};

extern const char *const record_members[RM_NR];

#define BODY_KEY(m) (record_members[m])

#endif /* FLASHBENCH_RECBODY_H */
