// SPDX-License-Identifier: GPL-2.0-only
/*
 * A record's head and tail (rechead.h): their tables, and the checks
 * --analyze and --survey share, so that a bad file reads the same in
 * both.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "autoraw.h"
#include "c.h"
#include "rechead.h"

#define DV(member) offsetof(struct record_device, member)
#define OP(member) offsetof(struct record_options, member)
#define HD(member) offsetof(struct record_head, member)
#define TL(member) offsetof(struct record_tail, member)

/* Said of a device opened, left out of --registers' directory. */
#define OPENED .has_off = RT_HAS(struct record_device, opened), \
	.flags = RT_HAS_OMIT | RT_OPTIONAL

/* The kernel's attributes, numbers where numeric. */
static void sysfs_put(struct json *j, const struct rt_field *f,
		      const void *rec)
{
	const struct record_device *d = rec;
	size_t i;

	json_object_begin(j, f->name);
	for (i = 0; d->sysfs && i < d->sysfs->n; i++) {
		const struct sysfs_entry *e = &d->sysfs->e[i];

		if (e->numeric)
			json_u64(j, e->key, strtoull(e->value, NULL, 10));
		else
			json_string(j, e->key, e->value);
	}
	json_object_end(j);
}

static const struct rt_field device_rows[] = {
	{ .name = "path", .kind = RT_STRING, .off = DV(path) },
	{ .name = "size", .kind = RT_U64, .off = DV(size_byte),
	  .unit = "bytes", OPENED },
	{ .name = "logical_block_size", .kind = RT_U64, .off = DV(block_byte),
	  .unit = "bytes", OPENED },
	{ .name = "simulated", .kind = RT_BOOL, .off = DV(simulated) },
	{ .name = "sysfs", .kind = RT_OBJECT, .off = DV(sysfs),
	  .put = sysfs_put,
	  .has_off = RT_HAS(struct record_device, opened),
	  .flags = RT_HAS_OMIT | RT_OPTIONAL | RT_DERIVED },
	{ .name = "card", .kind = RT_OBJECT, .off = DV(card),
	  .sub = &card_table, .flags = RT_DERIVED },
};

const struct rt_table record_device_table =
	RT_TABLE("device", device_rows);

#define OPT(jname, kind_, member, unit_) \
	{ .name = jname, .kind = kind_, .off = OP(o.member), .unit = unit_ }

static const struct rt_field options_rows[] = {
	OPT("blocksize", RT_U64, blocksize_byte, "bytes"),
	OPT("erasesize", RT_U64, erasesize_byte, "bytes"),
	OPT("count", RT_UINT, count, "count"),
	OPT("scatter_order", RT_UINT, scatter_order, NULL),
	OPT("scatter_span", RT_UINT, scatter_span, "count"),
	OPT("interval_order", RT_UINT, interval_order, NULL),
	OPT("open_au_nr", RT_UINT, open_au_nr, "count"),
	OPT("offset", RT_U64, offset_byte, "bytes"),
	OPT("fat_nr", RT_UINT, fat_nr, "count"),
	OPT("flush", RT_U64, flush_byte, "bytes"),
	/* since the record's shape 7: older records lack them */
	{ .name = "cache_cap", .kind = RT_U64, .off = OP(o.cache_cap_byte),
	  .unit = "bytes", .flags = RT_OPTIONAL },
	{ .name = "sustained", .kind = RT_BOOL, .off = OP(o.sustained),
	  .flags = RT_OPTIONAL },
	{ .name = "random", .kind = RT_BOOL, .off = OP(o.random) },
	{ .name = "destructive", .kind = RT_BOOL, .off = OP(destructive) },
	{ .name = "simulate", .kind = RT_STRING, .off = OP(spec),
	  .has_off = RT_HAS(struct record_options, simulated) },
};

const struct rt_table record_options_table =
	RT_TABLE("options", options_rows);

/*
 * The device: null when none was opened; the options: left out when the
 * run had none (--registers).  Both left out where the caller copies a
 * record's after the head (--analyze).
 */
static enum rt_how device_when(const void *rec)
{
	const struct record_head *h = rec;

	if (h->copied)
		return RT_OMIT;
	return h->has_device ? RT_WRITE : RT_NULL;
}

static enum rt_how options_when(const void *rec)
{
	const struct record_head *h = rec;

	return h->copied || !h->has_options ? RT_OMIT : RT_WRITE;
}

static const struct rt_field head_rows[] = {
	{ .name = "version", .kind = RT_STRING, .off = HD(version) },
	{ .name = "test", .kind = RT_STRING, .off = HD(test) },
	{ .name = "record_version", .kind = RT_UINT, .off = HD(shape),
	  .flags = RT_OPTIONAL },
	{ .name = "started", .kind = RT_STRING, .off = HD(started),
	  .flags = RT_OPTIONAL | RT_NULLABLE },
	{ .name = "kernel", .kind = RT_STRING, .off = HD(kernel),
	  .flags = RT_OPTIONAL | RT_NULLABLE },
	{ .name = "device", .kind = RT_OBJECT, .off = HD(dev),
	  .sub = &record_device_table, .when = device_when,
	  .flags = RT_NULLABLE },
	{ .name = "options", .kind = RT_OBJECT, .off = HD(opts),
	  .sub = &record_options_table, .when = options_when,
	  .flags = RT_OPTIONAL },
};

const struct rt_table record_head_table = RT_TABLE("record", head_rows);

static const struct rt_field tail_rows[] = {
	{ .name = "short_of_claims", .kind = RT_BOOL, .off = TL(short_found) },
	{ .name = "interrupted", .kind = RT_BOOL, .off = TL(interrupted) },
};

const struct rt_table record_tail_table = RT_TABLE("record", tail_rows);

const char *const record_members[RM_NR] = {
	[RM_RESULTS] = "results", [RM_REGRESSION] = "regression",
	[RM_VERDICT] = "verdict", [RM_ADVICE] = "advice",
	[RM_RECONCILE] = "reconcile", [RM_CLASS] = "class",
	[RM_ERROR] = "error", [RM_LACKS] = "record_lacks",
	[RM_SAID] = "record_said", [RM_ESTIMATE] = "estimate",
	[RM_TIME_OPS] = "time_ops", [RM_CACHE_FILL] = "cache_fill",
};

/* The kinds of record ("test") flashbench writes. */
static const char *const kinds[] = {
	"auto", "align", "scatter", "interval", "open-au", "find-fat",
	"program", "capacity", "class", "analyze", "registers",
};

int record_head_check(const struct jr_value *doc, char *why, size_t len)
{
	const struct jr_value *v = jr_get(doc, HEAD_KEY(version));
	const struct jr_value *t = jr_get(doc, HEAD_KEY(test));
	const char *s = jr_str(v, NULL), *test = jr_str(t, NULL);
	unsigned long major;
	char *end;
	size_t i;

	if (!jr_is(doc, JR_OBJECT) || !s || !test) {
		snprintf(why, len, "%u:%u: no \"version\" and \"test\": not a flashbench record",
			 doc->line, doc->col);
		return -EINVAL;
	}
	major = strtoul(s, &end, 10);
	if (end == s || *end != '.' || major != RECORD_MAJOR) {
		snprintf(why, len, "%u:%u: a record of version \"%.20s\", unknown to flashbench %s (it reads version %d.x)",
			 v->line, v->col, s, FLASHBENCH_VERSION, RECORD_MAJOR);
		return -EINVAL;
	}
	for (i = 0; i < ARRAY_SIZE(kinds); i++)
		if (!strcmp(test, kinds[i]))
			return 0;
	snprintf(why, len, "%u:%u: a record of test \"%.40s\", unknown to flashbench %s",
		 t->line, t->col, test, FLASHBENCH_VERSION);
	return -EINVAL;
}

int record_parse(const char *text, size_t len, struct jr_value **doc,
		 char *why, size_t why_len)
{
	unsigned int line = 1, col = 1;
	char err[JR_ERR_LEN];
	size_t i;
	int ret;

	*doc = NULL;
	for (i = 0; i < len && strchr(" \t\r\n", text[i]); i++, col++)
		if (text[i] == '\n')
			line++, col = 0;
	if (i == len) {
		snprintf(why, why_len, "1:1: empty: not a flashbench record");
		return -EINVAL;
	}
	if (text[i] != '{' && text[i] != '[') {
		snprintf(why, why_len, "%u:%u: text, not JSON: not a flashbench record",
			 line, col);
		return -EINVAL;
	}
	ret = jr_parse(text, len, NULL, doc, err, sizeof(err));
	if (ret) {
		snprintf(why, why_len, "%s (not a whole JSON document)", err);
		return ret;
	}
	if (record_head_check(*doc, why, why_len)) {
		jr_free(*doc);
		*doc = NULL;
		return -EINVAL;
	}
	return 0;
}

unsigned int record_shape(const struct jr_value *doc)
{
	const struct jr_value *v = jr_get(doc, HEAD_KEY(shape));

	if (v)
		return (unsigned int)jr_u64(v, 0);
	if (!strcmp(jr_str(jr_get(doc, HEAD_KEY(test)), ""), "auto") &&
	    !auto_raw_has_positions(jr_get(doc, BODY_KEY(RM_RESULTS))))
		return 1;
	return 2;
}

void record_head_read(const struct jr_value *doc, struct record_head *h)
{
	struct rt_rd rd = { .loose = 1 };

	memset(h, 0, sizeof(*h));
	rt_read(&rd, &record_head_table, doc, "the record", h);
	h->shape = record_shape(doc);
}

/* FNV-1a, 64 bits folded to 32. */
static void fnv32(char out[12], const char *what)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *what; what++) {
		h ^= (unsigned char)*what;
		h *= 0x100000001b3ULL;
	}
	snprintf(out, 12, "%08" PRIx32, (uint32_t)(h ^ (h >> 32)));
}

void record_serial_hash(char out[12], const char *cid, int64_t manfid,
			int64_t oemid, const char *name, int64_t serial)
{
	char what[96];

	out[0] = '\0';
	if (cid && *cid) {
		fnv32(out, cid);
	} else if (serial >= 0) {
		snprintf(what, sizeof(what), "%" PRId64 "/%" PRId64 "/%s/%"
			 PRId64, manfid, oemid, name ? name : "", serial);
		fnv32(out, what);
	}
}
