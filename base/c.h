/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The ground floor's base header: the few macros every layer uses,
 * defined once.  It includes nothing of the project, and nothing in base/
 * includes a header from a folder above it.
 */
#ifndef FLASHBENCH_C_H
#define FLASHBENCH_C_H

#include <stddef.h>

/* Elements of an array (an array, not a pointer to one). */
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* The lesser and the greater of two values of one type, each read once. */
#define min(a, b) __extension__ ({ \
	__typeof__(a) min_a_ = (a); __typeof__(b) min_b_ = (b); \
	(void)(&min_a_ == &min_b_); \
	min_a_ < min_b_ ? min_a_ : min_b_; })
#define max(a, b) __extension__ ({ \
	__typeof__(a) max_a_ = (a); __typeof__(b) max_b_ = (b); \
	(void)(&max_a_ == &max_b_); \
	max_a_ > max_b_ ? max_a_ : max_b_; })

#endif /* FLASHBENCH_C_H */
