// SPDX-License-Identifier: GPL-2.0-only
/*
 * The level model of the align-table analysis, shared by its files
 * (analyze.c fits it, steptest.c judges a step of it, group.c reads the
 * allocation group against it): which level an alignment falls in under
 * a fit's step sizes, and a row's group.  A leaf: it calls none of them.
 */
#include "analyzeint.h"

/* The level of align: the highest j whose size[j - 1] divides it, or 0. */
int an_level_of(uint64_t align, const uint64_t *size, size_t ns)
{
	size_t j;

	for (j = ns; j > 0; j--)
		if (align % size[j - 1] == 0)
			return (int)j;
	return 0;
}

/* Group of row i under the model's sizes; -1 if set aside. */
int an_row_group(const struct actx *c, size_t i, const struct fit *f)
{
	if (c->skip[i])
		return -1;
	return an_level_of(c->align[i], f->size, f->ns);
}
