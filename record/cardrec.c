// SPDX-License-Identifier: GPL-2.0-only
/* The card's own word as a record keeps it: its table (see cardrec.h). */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "c.h"
#include "cardrec.h"

#define CI(member) offsetof(struct card_doc, ci.member)

/* An eMMC's EXT_CSD among the registers. */
static const char ext_csd_key[] = "ext_csd";

/* A number the card may not state: < 0 unknown, written null. */
#define UNKNOWN_NULL .flags = RT_NEG_NULL

/* A string of the identity: "" unknown, written null. */
#define TEXT(member) .kind = RT_CHARS, .off = CI(member), \
	.elem_size = sizeof(((struct card_info *)0)->member), \
	.flags = RT_ZERO_NULL

/* ---- an eMMC's EXT_CSD ---- */

static const char *const form_names[] = {
	[EXT_CSD_NONE] = NULL, [EXT_CSD_HEX] = "hex",
	[EXT_CSD_HEX_REVERSED] = "hex_reversed", [EXT_CSD_BINARY] = "binary",
	[EXT_CSD_IOCTL] = "ioctl",
};

/* The register as read, 1,024 hex digits, byte 0 first. */
static void hex_put(struct json *j, const struct rt_field *f,
		    const void *rec)
{
	const struct card_doc *d = rec;
	char hex[2 * EXT_CSD_BYTES + 1];
	size_t i;

	for (i = 0; i < EXT_CSD_BYTES; i++)
		snprintf(hex + 2 * i, 3, "%02x", d->raw->ext.b[i]);
	json_string(j, f->name, hex);
}

/*
 * Each field by its JEDEC name (device/extcsd.c's table), its value and
 * its size in bytes, null where the device does not state it.
 */
static void fields_put(struct json *j, const struct rt_field *f,
		       const void *rec)
{
	const struct ext_csd_info *e = &((const struct card_doc *)rec)->ci.ext;
	enum ext_csd_field k;
	uint64_t v;

	(void)f;
	for (k = 0; k < ECF_NR; k++) {
		const struct ext_csd_desc *d = &ext_csd_fields[k];

		if (ext_csd_get(e, k, &v))
			json_u64(j, d->name, v);
		else
			json_null(j, d->name);
		if (!d->bytes_name)
			continue;
		if (e->defined[k] && e->has_bytes[k])
			json_u64(j, d->bytes_name, e->bytes[k]);
		else
			json_null(j, d->bytes_name);
	}
}

static const struct rt_field ext_csd_rows[] = {
	{ .name = "form", .kind = RT_ENUM, .off = CI(ext.form),
	  .names = form_names, .nnames = ARRAY_SIZE(form_names),
	  .flags = RT_DERIVED },
	{ .name = "hex", .kind = RT_STRING, .put = hex_put,
	  .flags = RT_DERIVED },
	{ .name = "fields", .kind = RT_OBJECT, .put = fields_put,
	  .flags = RT_SPREAD | RT_DERIVED },
	{ .name = "firmware_version", .kind = RT_CHARS, .off = CI(ext.firmware),
	  .elem_size = sizeof(((struct card_info *)0)->ext.firmware),
	  .flags = RT_ZERO_NULL | RT_DERIVED },
};

const struct rt_table ext_csd_table = RT_TABLE("ext_csd", ext_csd_rows);

/* ---- the card ---- */

/* The serial's hash, written only in place of a serial hidden. */
static enum rt_how hash_when(const void *rec)
{
	const struct card_doc *d = rec;

	return d->serial_hash[0] ? RT_WRITE : RT_OMIT;
}

/* The CSD's capacity, when it states one. */
static void capacity_get(const void *rec, union rt_scalar *v)
{
	const struct card_doc *d = rec;

	v->u = d->ci.have_csd ? d->ci.csd.capacity_byte : 0;
}

/*
 * The register files by sysfs's names: each one read, and null for the
 * SD registers that were not; an eMMC's EXT_CSD decoded, or null when
 * it was there and could not be read.
 */
static void registers_put(struct json *j, const struct rt_field *f,
			  const void *rec)
{
	const struct card_doc *d = rec;
	int k;

	json_object_begin(j, f->name);
	for (k = 0; k < CF_NR; k++)
		if (d->raw->have[k])
			json_string(j, card_file_names[k], d->raw->val[k]);
		else if (k <= CF_SSR)
			json_null(j, card_file_names[k]);
	if (d->ci.ext.have)
		rt_write_object(j, ext_csd_key, &ext_csd_table, d);
	else if (d->raw->ext_err)
		json_null(j, ext_csd_key);
	json_object_end(j);
}

/* What is wrong with what was read: the card's notes, then EXT_CSD's. */
static void notes_put(struct json *j, const struct rt_field *f,
		      const void *rec)
{
	const struct card_doc *d = rec;
	size_t k;

	json_array_begin(j, f->name);
	for (k = 0; k < d->ci.nr_notes; k++)
		json_string(j, NULL, d->ci.note[k]);
	for (k = 0; k < d->ci.ext.nr_notes; k++)
		json_string(j, NULL, d->ci.ext.note[k]);
	json_array_end(j);
}

static const struct rt_field card_rows[] = {
	{ .name = "manfid", .kind = RT_I64, .off = CI(manfid), UNKNOWN_NULL },
	{ .name = "oemid", .kind = RT_I64, .off = CI(oemid), UNKNOWN_NULL },
	{ .name = "name", TEXT(name) },
	{ .name = "revision", TEXT(revision) },
	{ .name = "serial", .kind = RT_I64, .off = CI(serial), UNKNOWN_NULL },
	{ .name = "serial_hash", .kind = RT_CHARS,
	  .off = offsetof(struct card_doc, serial_hash),
	  .elem_size = sizeof(((struct card_doc *)0)->serial_hash),
	  .when = hash_when, .flags = RT_OPTIONAL },
	{ .name = "date", TEXT(date) },
	{ .name = "au_size", .kind = RT_U64, .off = CI(au_byte),
	  .unit = "bytes", .flags = RT_ZERO_NULL },
	{ .name = "speed_class", .kind = RT_INT,
	  .off = CI(claims.speed_class), UNKNOWN_NULL },
	{ .name = "uhs_grade", .kind = RT_INT, .off = CI(claims.uhs_grade),
	  UNKNOWN_NULL },
	{ .name = "video_class", .kind = RT_INT,
	  .off = CI(claims.video_class), UNKNOWN_NULL },
	{ .name = "app_class", .kind = RT_INT, .off = CI(claims.app_class),
	  UNKNOWN_NULL },
	{ .name = "capacity", .kind = RT_U64, .off = CI(csd.capacity_byte),
	  .get = capacity_get,
	  .unit = "bytes", .flags = RT_ZERO_NULL | RT_DERIVED },
	{ .name = "registers", .kind = RT_OBJECT, .put = registers_put,
	  .flags = RT_DERIVED },
	{ .name = "missing", .kind = RT_CHARS,
	  .off = offsetof(struct card_doc, missing),
	  .elem_size = sizeof(((struct card_doc *)0)->missing),
	  .flags = RT_ZERO_NULL | RT_DERIVED },
	{ .name = "notes", .kind = RT_ARRAY, .put = notes_put,
	  .flags = RT_DERIVED },
};

const struct rt_table card_table = RT_TABLE("card", card_rows);

void card_doc_init(struct card_doc *d)
{
	memset(d, 0, sizeof(*d));
	d->ci.manfid = d->ci.oemid = d->ci.serial = -1;
	d->ci.claims.speed_class = d->ci.claims.uhs_grade = -1;
	d->ci.claims.video_class = d->ci.claims.app_class = -1;
}

void card_doc_read(const struct jr_value *o, struct card_doc *d)
{
	char err[8];
	struct rt_rd rd = { .err = err, .err_len = sizeof(err), .loose = 1 };

	if (jr_is(o, JR_OBJECT))
		rt_read(&rd, &card_table, o, "card", d);
}

const struct jr_value *card_doc_registers(const struct jr_value *card)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(card_rows); i++)
		if (card_rows[i].put == registers_put)
			return jr_get(card, card_rows[i].name);
	return NULL;
}

const char *card_doc_ext_hex(const struct jr_value *card)
{
	const struct jr_value *e = jr_get(card_doc_registers(card),
					  ext_csd_key);

	return jr_str(jr_get(e, ext_csd_rows[1].name), NULL);
}
