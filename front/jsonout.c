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

void head_card(const struct cli *c, struct card_doc *d,
	       struct card_raw *raw, struct card_info *ci)
{
	char hash[12];

	if (c->hide_serial)
		card_hide_serial(raw, ci, hash);
	card_doc_fill(d, raw, ci);
	if (c->hide_serial)
		snprintf(d->serial_hash, sizeof(d->serial_hash), "%s", hash);
}

/* The device measured, its sysfs attributes and its card's word. */
static void head_device(const struct cli *c, const struct device *dev,
			struct record_device *d, struct sysfs_info *sysfs,
			struct card_raw *raw)
{
	struct card_info ci;

	d->path = dev->path;
	d->opened = 1;
	d->size_byte = dev->size_byte;
	d->block_byte = dev->logical_block_size;
	d->simulated = c->simulate;
	if (!c->simulate && sysfs_read(dev->path, sysfs))
		d->sysfs = sysfs;
	device_card(c, dev, raw, &ci);
	head_card(c, &d->card, raw, &ci);
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

void json_head_init(const struct cli *c, struct record_head *h,
		    const char *test, struct run_host *host)
{
	time_t t = c->run.started ? c->run.started : run_start_time();
	struct utsname u;
	struct tm tm;

	memset(h, 0, sizeof(*h));
	h->version = FLASHBENCH_VERSION;
	h->test = test;
	h->shape = RECORD_SHAPE;
	if (gmtime_r(&t, &tm) &&
	    strftime(host->started, sizeof(host->started),
		     "%Y-%m-%dT%H:%M:%SZ", &tm))
		h->started = host->started;
	if (!uname(&u)) {
		snprintf(host->kernel, sizeof(host->kernel), "%s %s %s",
			 u.sysname, u.release, u.machine);
		h->kernel = host->kernel;
	}
	h->has_options = 1;
	h->opts.o = c->o;
	h->opts.destructive = c->destructive;
	h->opts.simulated = c->simulate;
	h->opts.spec = c->sim_spec ? c->sim_spec : "";
}

/*
 * version, test, the record's shape, start and kernel, device and
 * options: the head of every JSON document.
 */
void json_head(const struct cli *c, struct json *j, const char *test,
	       const struct device *dev)
{
	struct record_head h;
	struct run_host host;
	struct sysfs_info sysfs;
	struct card_raw raw;

	json_head_init(c, &h, test, &host);
	h.has_device = dev != NULL;
	if (dev)
		head_device(c, dev, &h.dev, &sysfs, &raw);
	json_object_begin(j, NULL);
	rt_write(j, &record_head_table, &h);
}

/*
 * The end of every document: whether a check found the card short of
 * what it claims (the exit status is then EXIT_SHORT) and whether a
 * signal stopped the run.
 */
void json_tail(struct json *j, int short_found, int interrupted)
{
	struct record_tail t = { short_found, interrupted };

	rt_write(j, &record_tail_table, &t);
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
