// SPDX-License-Identifier: GPL-2.0-only
/*
 * --auto's record: what it holds besides its fields (record/autorecord.h),
 * the rows its tables and the group probe read into.
 */
#include <stdlib.h>

#include "autorecord.h"

void auto_free(struct auto_result *r)
{
	size_t i;

	for (i = 0; i < r->ntables; i++)
		free(r->tables[i].rows);
	r->ntables = 0;
	free(r->group_probe.rows);
	r->group_probe.rows = NULL;
	r->group_probe.nrows = 0;
	free(r->class);
	r->class = NULL;
}
