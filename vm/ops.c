// SPDX-License-Identifier: GPL-2.0-only
/*
 * What every file of the timing VM uses: the operations' names, a
 * reason put into the caller's buffer, and the lengths of a power-of-two
 * series (checked, measured for the extent and run alike).  It calls
 * nothing else of the VM.
 */
#include <stdarg.h>
#include <stdio.h>

#include "vmint.h"

static const char *const vm_names[VM_OP_NR] = {
	[VM_READ] = "read",
	[VM_WRITE_ZERO] = "write_zero",
	[VM_WRITE_ONES] = "write_ones",
	[VM_WRITE_5A] = "write_5a",
	[VM_WRITE_RAND] = "write_rand",
	[VM_ERASE] = "erase",
	[VM_LENGTH] = "length",
	[VM_NEWLINE] = "newline",
	[VM_OFF_FIXED] = "off_fixed",
	[VM_OFF_LIN] = "off_lin",
	[VM_OFF_RAND] = "off_rand",
	[VM_LEN_FIXED] = "len_fixed",
	[VM_LEN_POW2_UP] = "len_pow2_up",
	[VM_LEN_POW2_DOWN] = "len_pow2_down",
	[VM_REPEAT] = "repeat",
	[VM_SEQ] = "seq",
	[VM_REDUCE_MIN] = "reduce_min",
	[VM_REDUCE_MAX] = "reduce_max",
	[VM_REDUCE_AVG] = "reduce_avg",
	[VM_REDUCE_TOTAL] = "reduce_total",
	[VM_BPS] = "bps",
	[VM_FORMAT] = "format",
	[VM_PRINT] = "print",
	[VM_DROP] = "drop",
	[VM_NUMBER] = "number",
	[VM_DIFF] = "diff",
	[VM_MIN_POS] = "min_pos",
};

const char *vm_op_name(enum vm_op op)
{
	if ((unsigned int)op >= VM_OP_NR)
		return "?";
	return vm_names[op];
}

/* Store a reason in err (if there is one) and return ret. */
int vm_err(char *err, size_t err_len, int ret, const char *fmt, ...)
{
	if (err && err_len) {
		va_list ap;

		va_start(ap, fmt);
		vsnprintf(err, err_len, fmt, ap);
		va_end(ap);
	}
	return ret;
}

/*
 * Fill lens with the lengths of a VM_LEN_POW2_* node in order; returns
 * how many (0 if the node's bounds are invalid).
 */
size_t vm_pow2_lengths(const struct vm_node *n, uint64_t *lens)
{
	uint64_t min = n->len_byte, max = n->len_max_byte, len;
	size_t k = 0;

	if (!min || max < min)
		return 0;
	if (n->op == VM_LEN_POW2_UP) {
		for (len = min; k < VM_MAX_POW2; len *= 2) {
			lens[k++] = len;
			if (len > max / 2)
				break;
		}
		return k;
	}
	if (max % min)
		return 0;
	for (len = max; k < VM_MAX_POW2; len /= 2) {
		lens[k++] = len;
		if (len % 2 || len / 2 < min || (len / 2) % min)
			break;
	}
	return k;
}
