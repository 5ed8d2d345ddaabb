// SPDX-License-Identifier: GPL-2.0-only
/*
 * --json: one document per run, with the device, its card registers and
 * the options in its head, the results of one test and how it ended.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "cardout.h"
#include "cli.h"
#include "json.h"
#include "rechead.h"
#include "sim.h"
#include "sysfs.h"

/* ---- --json ---- */

/*
 * What the card's registers say: sysfs for a device, the registers a
 * simulated card states, nothing for a regular file.
 */
void device_card(const struct cli *c, const struct device *dev,
		 struct card_raw *raw, struct card_info *ci)
{
	struct sim_params p;

	if (c->simulate) {
		sim_params_default(&p);
		if (c->sim_spec) {
			char why[256];

			sim_parse_spec(&p, c->sim_spec, why, sizeof(why));
		}
		sim_card_registers(&p, raw);
	} else {
		card_read_device(dev->path, raw);
	}
	card_decode(raw, ci);
}

void card_hide_serial(struct card_raw *raw, struct card_info *ci,
		      char hash[12])
{
	int mmc = raw->have[CF_TYPE] && !strcmp(raw->val[CF_TYPE], "MMC");
	char *cid = raw->have[CF_CID] ? raw->val[CF_CID] : NULL;

	record_serial_hash(hash, cid, ci->manfid, ci->oemid, ci->name,
			   ci->serial);
	/* the product serial number: an SD CID's [55:24], an eMMC's [47:16] */
	if (cid && strlen(cid) == CARD_CID_BITS / 4)
		card_set_bits(cid, CARD_CID_BITS, mmc ? 47 : 55, mmc ? 16 : 24,
			      0);
	raw->have[CF_SERIAL] = 0;	/* the kernel's attribute */
	ci->serial = -1;
}

static void json_device_card(const struct cli *c, struct json *j,
			     const struct device *dev)
{
	struct card_raw raw;
	struct card_info ci;
	char hash[12];

	device_card(c, dev, &raw, &ci);
	if (c->hide_serial)
		card_hide_serial(&raw, &ci, hash);
	card_json(j, &raw, &ci, c->hide_serial ? hash : NULL);
}

time_t run_start_time(void)
{
	const char *e = getenv("SOURCE_DATE_EPOCH");
	char *end;

	if (e && *e) {
		long long t;

		errno = 0;
		t = strtoll(e, &end, 10);
		if (!*end && !errno && t >= 0)
			return (time_t)t;
	}
	return time(NULL);
}

void json_run_head(const struct cli *c, struct json *j)
{
	struct record_head h = { .shape = RECORD_SHAPE };
	char started[32], kernel[3 * sizeof(((struct utsname *)0)->release)];
	time_t t = c->run.started ? c->run.started : run_start_time();
	struct utsname u;
	struct tm tm;

	if (gmtime_r(&t, &tm) &&
	    strftime(started, sizeof(started), "%Y-%m-%dT%H:%M:%SZ", &tm))
		h.started = started;
	if (!uname(&u)) {
		snprintf(kernel, sizeof(kernel), "%s %s %s", u.sysname,
			 u.release, u.machine);
		h.kernel = kernel;
	}
	rt_write(j, &record_head_table, &h);
}

/*
 * version, test, the record's shape, start and kernel, device and
 * options: the head of every JSON document.
 */
void json_head(const struct cli *c, struct json *j, const char *test,
	       const struct device *dev)
{
	const struct bench_opts *o = &c->o;
	struct sysfs_info sysfs;

	json_object_begin(j, NULL);
	json_string(j, "version", FLASHBENCH_VERSION);
	json_string(j, "test", test);
	json_run_head(c, j);
	if (dev) {
		json_object_begin(j, "device");
		json_string(j, "path", dev->path);
		json_u64(j, "size", dev->size_byte);
		json_u64(j, "logical_block_size", dev->logical_block_size);
		json_bool(j, "simulated", c->simulate);
		json_object_begin(j, "sysfs");
		if (!c->simulate && sysfs_read(dev->path, &sysfs)) {
			size_t i;

			for (i = 0; i < sysfs.n; i++) {
				if (sysfs.e[i].numeric)
					json_u64(j, sysfs.e[i].key,
						 strtoull(sysfs.e[i].value,
							  NULL, 10));
				else
					json_string(j, sysfs.e[i].key,
						    sysfs.e[i].value);
			}
		}
		json_object_end(j);
		json_device_card(c, j, dev);
		json_object_end(j);
	} else {
		json_null(j, "device");
	}
	json_object_begin(j, "options");
	json_u64(j, "blocksize", o->blocksize_byte);
	json_u64(j, "erasesize", o->erasesize_byte);
	json_u64(j, "count", o->count);
	json_u64(j, "scatter_order", o->scatter_order);
	json_u64(j, "scatter_span", o->scatter_span);
	json_u64(j, "interval_order", o->interval_order);
	json_u64(j, "open_au_nr", o->open_au_nr);
	json_u64(j, "offset", o->offset_byte);
	json_u64(j, "fat_nr", o->fat_nr);
	json_u64(j, "flush", o->flush_byte);
	json_bool(j, "random", o->random);
	json_bool(j, "destructive", c->destructive);
	if (c->simulate)
		json_string(j, "simulate", c->sim_spec ? c->sim_spec : "");
	else
		json_null(j, "simulate");
	json_object_end(j);
}

/*
 * The end of every document: whether a check found the card short of
 * what it claims (the exit status is then EXIT_SHORT) and whether a
 * signal stopped the run.
 */
void json_tail(struct json *j, int short_found, int interrupted)
{
	json_bool(j, "short_of_claims", short_found);
	json_bool(j, "interrupted", interrupted);
	json_object_end(j);
}

/*
 * The document's end: now, or with --time-ops after the write-back
 * (json_finish()), so that its time goes in.
 */
void json_end(struct cli *c, struct json *j, int short_found)
{
	if (c->time_ops) {
		c->run.jdoc_open = 1;
		c->run.jdoc_short = short_found;
		return;
	}
	json_tail(j, short_found, stop_signal != 0);
}

void json_finish(struct cli *c)
{
	if (!c->run.jdoc_open)
		return;
	timeops_json(&c->run.jdoc, &c->run.tops);
	json_tail(&c->run.jdoc, c->run.jdoc_short, stop_signal != 0);
	c->run.jdoc_open = 0;
}
