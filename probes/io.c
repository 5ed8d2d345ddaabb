// SPDX-License-Identifier: GPL-2.0-only
/* The writes of --auto's steps, and what they tell the front end. */
#include <errno.h>
#include <stdio.h>

#include "probe.h"

/* Run prog and return the raw value of the only cell it prints. */
int auto_run_cell(struct device *dev, struct vm_node *prog, double *val)
{
	struct vm_table tab = { 0 };
	int ret;

	if (!prog)
		return -ENOMEM;
	ret = vm_run(dev, prog, NULL, &tab, NULL, 0);
	vm_free(prog);
	if (!ret && (tab.nrows != 1 || tab.rows[0].ncells != 1))
		ret = -EINVAL;
	if (!ret)
		*val = tab.rows[0].cells[0].value;
	vm_table_free(&tab);
	return ret;
}

/* print(format(reduce_total(kid))): the time of all writes in kid. */
struct vm_node *auto_total_time(struct vm_node *kid)
{
	return vm_unary(VM_PRINT, vm_unary(VM_FORMAT,
					   vm_unary(VM_REDUCE_TOTAL, kid)));
}

/* One write of len bytes at off; its time in *ns. */
int auto_write_one(struct device *dev, uint64_t off, uint64_t len,
		   double *ns)
{
	return auto_run_cell(dev, auto_total_time(vm_len_fixed(len,
			vm_off_series(VM_OFF_LIN, off, 0, 1,
				      vm_leaf(VM_WRITE_5A)))), ns);
}

void auto_say(const struct auto_hooks *h, const char *fmt, const char *a)
{
	if (h && h->progress) {
		fprintf(h->progress, fmt, a);
		fflush(h->progress);
	}
}

/* Announce ranges (first call or a later phase); 0 or the hook's error. */
int auto_announce(const struct auto_hooks *h, struct bench_range *ranges,
		  int n)
{
	if (!h || !h->before_write)
		return 0;
	return h->before_write(h->ctx, ranges, (size_t)n);
}
