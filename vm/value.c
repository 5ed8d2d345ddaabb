// SPDX-License-Identifier: GPL-2.0-only
/*
 * The values a node of the timing VM yields when it runs (a sample, a
 * number, a cell, a list of them) and the table of cells a run records
 * for the writers that want raw numbers (struct vm_table).  It calls
 * nothing else of the VM.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "vmint.h"

/* ---- values ---- */

void vm_value_free(struct vm_value *v)
{
	if (v->type == VV_LIST) {
		size_t i;

		for (i = 0; i < v->n; i++)
			vm_value_free(&v->items[i]);
		free(v->items);
	}
	v->type = VV_NONE;
	v->items = NULL;
	v->n = 0;
}

/*
 * Append item (moved) to the list being built in list, which has room
 * for cap values once allocated.  Nothing is not a value: it is skipped.
 */
int vm_list_push(struct vm_value *list, uint64_t cap,
		     struct vm_value *item)
{
	if (item->type == VV_NONE)
		return 0;
	if (!list->items) {
		if (cap > SIZE_MAX / sizeof(*list->items))
			goto out_nomem;
		list->items = calloc(cap, sizeof(*list->items));
		if (!list->items)
			goto out_nomem;
		list->type = VV_LIST;
	}
	if (list->n >= cap) {	/* a series is never longer than announced */
		vm_value_free(item);
		return -EINVAL;
	}
	list->items[list->n++] = *item;
	item->type = VV_NONE;
	return 0;

out_nomem:
	vm_value_free(item);
	return -ENOMEM;
}

/* ---- tables ---- */

void vm_table_free(struct vm_table *tab)
{
	size_t i;

	if (!tab)
		return;
	for (i = 0; i < tab->nrows; i++)
		free(tab->rows[i].cells);
	free(tab->rows);
	tab->rows = NULL;
	tab->nrows = tab->cap = tab->ncells = 0;
	tab->row_open = 0;
}

/* Start a new row. */
int vm_table_new_row(struct vm_table *tab)
{
	if (tab->nrows == tab->cap) {
		size_t cap = tab->cap ? tab->cap * 2 : 16;
		struct vm_row *rows = realloc(tab->rows, cap * sizeof(*rows));

		if (!rows)
			return -ENOMEM;
		tab->rows = rows;
		tab->cap = cap;
	}
	memset(&tab->rows[tab->nrows++], 0, sizeof(*tab->rows));
	tab->row_open = 1;
	return 0;
}

int vm_table_add(struct vm_table *tab, const struct vm_value *cell)
{
	struct vm_row *row;

	if (tab->max_cells && tab->ncells >= tab->max_cells)
		return -ENOSPC;
	if (!tab->row_open) {
		int ret = vm_table_new_row(tab);

		if (ret)
			return ret;
	}
	row = &tab->rows[tab->nrows - 1];
	if (row->ncells == row->cap) {
		size_t cap = row->cap ? row->cap * 2 : 8;
		struct vm_cell *cells = realloc(row->cells,
						cap * sizeof(*cells));

		if (!cells)
			return -ENOMEM;
		row->cells = cells;
		row->cap = cap;
	}
	memcpy(row->cells[row->ncells].text, cell->text, FMT_LEN);
	row->cells[row->ncells].value = cell->num;
	row->cells[row->ncells].unit = cell->unit;
	row->ncells++;
	tab->ncells++;
	return 0;
}
