// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the modes run as VM programs share (all but --capacity and
 * --class): their options checked, the byte ranges the writing ones
 * overwrite, their programs built, checked against the device and run,
 * their results as JSON and their steps on the progress line.
 *
 * Access sizes run from the erase size down to the block size, halving.
 * An erase size of 3 * 2^n (12 MiB, 24 MiB on SDXC cards) halves to
 * 6M, 3M, 1.5M ...; the series stops at the smallest size that is still
 * a multiple of the block size (12M with 16K blocks ends at 48K), so that
 * every access stays aligned to the block size.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "json.h"
#include "progs.h"
#include "recbody.h"
#include "vm.h"

/* The sizes -O and -f halve through, checked.  Returns 0 or -EINVAL. */
int progs_check_sizes(const struct bench_opts *o)
{
	uint64_t bs = o->blocksize_byte, es = o->erasesize_byte;

	if (bs < 512 || (bs & (bs - 1)) || es < 2 * bs || es % bs)
		return -EINVAL;
	return 0;
}

/* Check the options of pm's mode.  Returns 0 or -EINVAL. */
static int progs_check_opts(const struct progs_mode *pm,
			    const struct bench_opts *o)
{
	return pm ? pm->check(o) : -EINVAL;
}

/*
 * All ranges of a writing test, sorted and merged, into a malloc'd array.
 * Returns how many, or -EINVAL (bad options, overflow, a read test) /
 * -ENOMEM.
 */
static int progs_ranges(const struct progs_mode *pm,
			const struct bench_opts *o, struct bench_range **out)
{
	int ret = progs_check_opts(pm, o);

	*out = NULL;
	if (!ret && !pm->ranges)
		ret = -EINVAL;
	return ret ? ret : pm->ranges(o, out);
}

int progs_write_ranges(const struct progs_mode *pm,
		       const struct bench_opts *o, uint64_t dev_size,
		       struct bench_range *ranges, size_t max)
{
	struct bench_range *r;
	int n = progs_ranges(pm, o, &r);

	if (n < 0)
		return n;
	if (r[n - 1].end_byte > dev_size) {
		n = -EINVAL;
		goto out_free;
	}
	if (ranges) {
		if ((size_t)n > max) {
			n = -ENOSPC;
			goto out_free;
		}
		memcpy(ranges, r, n * sizeof(*r));
	}
out_free:
	free(r);
	return n;
}

struct vm_node *progs_built(struct vm_node *prog)
{
	/* a NULL deep inside means an allocation failed */
	if (prog && vm_check(prog, NULL, 0)) {
		vm_free(prog);
		return NULL;
	}
	return prog;
}

struct vm_node *progs_cell(struct vm_node *n)
{
	return vm_unary(VM_PRINT, vm_unary(VM_FORMAT, n));
}

struct vm_node *progs_rate_cell(struct vm_node *samples)
{
	return progs_cell(vm_unary(VM_BPS, vm_unary(VM_REDUCE_TOTAL, samples)));
}

/* progs_build() for a device of dev_byte bytes, lbs-byte blocks. */
static int progs_build_for(const struct progs_mode *pm,
			   const struct bench_opts *o, uint64_t dev_byte,
			   unsigned int lbs, struct vm_node **prog)
{
	int ret = progs_check_opts(pm, o);

	*prog = NULL;
	if (ret)
		return ret;
	ret = pm->build(o, dev_byte, lbs, prog);
	if (ret)
		return ret;
	*prog = progs_built(*prog);
	return *prog ? 0 : -ENOMEM;
}

int progs_build(const struct progs_mode *pm, const struct bench_opts *o,
		struct vm_node **prog)
{
	return progs_build_for(pm, o, UINT64_MAX, 512, prog);
}

uint64_t progs_extent(const struct progs_mode *pm,
		      const struct bench_opts *o, const struct device *dev)
{
	struct vm_node *prog;
	uint64_t end;

	if (progs_build_for(pm, o, dev->size_byte, dev->logical_block_size,
			    &prog))
		return UINT64_MAX;
	end = vm_extent(prog);
	vm_free(prog);
	return end;
}

/*
 * Under -vv, the program a writing test runs, to o->log, each line
 * prefixed as all -v detail is ("flashbench: vm: ").
 */
static void log_prog(const struct bench_opts *o, const struct vm_node *prog)
{
	char *text = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *f;

	if (o->verbose < 2 || !o->log)
		return;
	f = open_memstream(&text, &len);
	if (!f)
		return;
	vm_print_prog(f, prog);
	fclose(f);
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		fprintf(o->log, "flashbench: vm: %s\n", line);
	free(text);
}

/* The reason a test does not fit dev, into err. */
static void past_end(const struct device *dev, char *err, size_t err_len)
{
	if (err && err_len)
		snprintf(err, err_len,
			 "the test reaches past the end of the device (%llu bytes)",
			 (unsigned long long)dev->size_byte);
}

/* A writing test's ranges fit dev: 0 or -EINVAL (reason in err). */
static int progs_fit_writes(struct device *dev, const struct progs_mode *pm,
			    const struct bench_opts *o, char *err,
			    size_t err_len)
{
	int ret = progs_write_ranges(pm, o, dev->size_byte, NULL, 0);

	if (ret >= 0)
		return 0;
	if (progs_check_opts(pm, o) && err && err_len)
		snprintf(err, err_len, "invalid options for the test");
	else
		past_end(dev, err, err_len);
	return ret;
}

int progs_run(struct device *dev, const struct progs_mode *pm,
	      const struct bench_opts *o, FILE *out, struct vm_table *tab,
	      char *err, size_t err_len)
{
	struct vm_node *prog;
	int ret;

	if (err && err_len)
		err[0] = '\0';
	if (!pm)
		return -EINVAL;
	if (pm->ranges) {
		ret = progs_fit_writes(dev, pm, o, err, err_len);
		if (ret)
			return ret;
	}
	ret = progs_build_for(pm, o, dev->size_byte, dev->logical_block_size,
			      &prog);
	if (ret == -EINVAL && err && err_len)
		snprintf(err, err_len, "invalid options for the test");
	if (ret)
		return ret;
	/* a read program is long (hundreds of lines for -a): not shown */
	if (pm->ranges)
		log_prog(o, prog);
	if (vm_extent(prog) > dev->size_byte) {
		past_end(dev, err, err_len);
		ret = -EINVAL;
	} else {
		ret = vm_run(dev, prog, pm->print ? NULL : out, tab, err,
			     err_len);
	}
	vm_free(prog);
	return ret;
}

int progs_bench(struct device *dev, const struct progs_mode *pm,
		const struct bench_opts *o, FILE *out)
{
	struct vm_table tab = { 0 };
	char err[256];
	int ret = progs_run(dev, pm, o, out, pm && pm->print ? &tab : NULL,
			    err, sizeof(err));

	/* I/O errors are the front end's to report, from dev->last_error */
	if (ret == -EINVAL && err[0] && o->log)
		fprintf(o->log, "flashbench: %s\n", err);
	if (pm && pm->print)
		pm->print(out, o, &tab);
	vm_table_free(&tab);
	return ret;
}

void progs_step(char *buf, size_t len, const struct progs_mode *pm,
		const struct bench_opts *o, const struct vm_table *tab,
		uint64_t io, uint64_t io_byte)
{
	const char *row = NULL;

	if (tab && tab->row_open && tab->nrows &&
	    tab->rows[tab->nrows - 1].ncells)
		row = tab->rows[tab->nrows - 1].cells[0].text;
	if (pm && pm->step) {
		pm->step(buf, len, o, row, io);
	} else {
		char size[FMT_LEN];

		snprintf(buf, len, "%s", fmt_size(size, io_byte));
	}
}

void progs_json_rates(struct json *j, const struct bench_opts *o,
		      const struct vm_table *tab)
{
	size_t r, k;

	(void)o;
	json_array_begin(j, BODY_KEY(RM_RESULTS));
	for (r = 0; r < tab->nrows; r++) {
		const struct vm_row *row = &tab->rows[r];

		if (!row->ncells)
			continue;
		json_object_begin(j, NULL);
		json_u64(j, "size", (uint64_t)row->cells[0].value);
		json_array_begin(j, "bytes_per_s");
		for (k = 1; k < row->ncells; k++)
			json_double(j, NULL, row->cells[k].value);
		json_array_end(j);
		json_object_end(j);
	}
	json_array_end(j);
}
