// SPDX-License-Identifier: GPL-2.0-only
/*
 * A value read from a record written again as it was (--analyze's JSON
 * repeats what a record said beside today's verdict), and what every
 * record judged again begins with: its head, and the line that says
 * whose record it is.  A leaf: the files
 * that judge each kind of record (record.c, recauto.c, recclass.c) use
 * it and it uses none of them.
 */
#include <string.h>

#include "json.h"
#include "jsonread.h"
#include "rechead.h"
#include "recint.h"
#include "wrap.h"

void record_emit(struct json *j, const char *key, const struct jr_value *v)
{
	size_t i;

	switch (v->type) {
	case JR_NULL:
		json_null(j, key);
		break;
	case JR_BOOL:
		json_bool(j, key, v->b);
		break;
	case JR_NUMBER:
		if (v->flags & JR_UINT64)
			json_u64(j, key, v->u);
		else if (v->flags & JR_INT64)
			json_i64(j, key, v->i);
		else
			json_double(j, key, v->d);
		break;
	case JR_STRING:
		json_string(j, key, v->s);
		break;
	case JR_ARRAY:
		json_array_begin(j, key);
		for (i = 0; i < v->n; i++)
			record_emit(j, NULL, &v->v[i]);
		json_array_end(j);
		break;
	case JR_OBJECT:
		json_object_begin(j, key);
		for (i = 0; i < v->n; i++)
			record_emit(j, v->keys[i], &v->v[i]);
		json_object_end(j);
		break;
	}
}

void record_emit_member(struct json *j, const struct jr_value *doc,
			const char *key)
{
	const struct jr_value *v = jr_get(doc, key);

	if (v)
		record_emit(j, key, v);
	else
		json_null(j, key);
}

/* A register of the record's card, its serial number's hex digits 0. */
static void emit_cid_hidden(struct json *j, const struct jr_value *cid,
			    int mmc)
{
	const char *key = card_file_names[CF_CID];
	char hex[40];
	size_t k, from = mmc ? 20 : 18;	/* bits 47:16 or 55:24 */

	if (cid->type != JR_STRING || strlen(cid->s) != 32) {
		record_emit(j, key, cid);
		return;
	}
	snprintf(hex, sizeof(hex), "%s", cid->s);
	for (k = from; k < from + 8; k++)
		hex[k] = '0';
	json_string(j, key, hex);
}

/* The card's registers, its serial number hidden. */
static void emit_registers_hidden(struct json *j, const char *key,
				  const struct jr_value *regs)
{
	const char *type = jr_str(jr_get(regs, card_file_names[CF_TYPE]), "");
	size_t k;

	json_object_begin(j, key);
	for (k = 0; k < regs->n; k++)
		if (!strcmp(regs->keys[k], card_file_names[CF_CID]))
			emit_cid_hidden(j, &regs->v[k], !strcmp(type, "MMC"));
		else if (strcmp(regs->keys[k], card_file_names[CF_SERIAL]))
			record_emit(j, regs->keys[k], &regs->v[k]);
	json_object_end(j);
}

/* The record's card as --hide-serial writes a run's (card_hide_serial()). */
static void emit_card_hidden(struct json *j, const char *key,
			     const struct jr_value *card)
{
	const struct jr_value *regs = card_doc_registers(card);
	const char *serial = CARD_KEY(ci.serial);
	const char *hash_key = CARD_KEY(serial_hash);
	char hash[12];
	size_t i;

	if (jr_get(card, hash_key)) {	/* hidden already */
		record_emit(j, key, card);
		return;
	}
	record_serial_hash(hash, jr_str(jr_get(regs, card_file_names[CF_CID]),
					NULL),
			   jr_i64(jr_get(card, CARD_KEY(ci.manfid)), -1),
			   jr_i64(jr_get(card, CARD_KEY(ci.oemid)), -1),
			   jr_str(jr_get(card, CARD_KEY(ci.name)), ""),
			   jr_i64(jr_get(card, serial), -1));
	json_object_begin(j, key);
	for (i = 0; i < card->n; i++) {
		const char *k = card->keys[i];

		if (!strcmp(k, serial)) {
			json_null(j, k);
			json_string(j, hash_key, hash);
		} else if (&card->v[i] == regs && regs->type == JR_OBJECT) {
			emit_registers_hidden(j, k, regs);
		} else {
			record_emit(j, k, &card->v[i]);
		}
	}
	json_object_end(j);
}

/* The record's device, its card's serial number hidden. */
static void emit_device_hidden(struct json *j, const char *key,
			       const struct jr_value *dev)
{
	const char *card = DEVICE_KEY(card);
	size_t i;

	if (!jr_is(dev, JR_OBJECT)) {
		record_emit(j, key, dev);
		return;
	}
	json_object_begin(j, key);
	for (i = 0; i < dev->n; i++)
		if (!strcmp(dev->keys[i], card) &&
		    dev->v[i].type == JR_OBJECT)
			emit_card_hidden(j, card, &dev->v[i]);
		else
			record_emit(j, dev->keys[i], &dev->v[i]);
	json_object_end(j);
}

void record_json_head(struct json *j, FILE *res, const struct record *rec,
		      const char *test)
{
	const struct jr_value *doc = rec->doc;
	struct record_head h;

	/* this document's shape; the run's start and kernel, the record's */
	record_head_read(doc, &h);
	h.version = FLASHBENCH_VERSION;
	h.test = test;
	h.shape = RECORD_SHAPE;
	h.copied = 1;
	json_init(j, res);
	json_object_begin(j, NULL);
	rt_write(j, &record_head_table, &h);
	if (rec->hide_serial && jr_get(doc, HEAD_KEY(dev)))
		emit_device_hidden(j, HEAD_KEY(dev),
				   jr_get(doc, HEAD_KEY(dev)));
	else
		record_emit_member(j, doc, HEAD_KEY(dev));
	record_emit_member(j, doc, HEAD_KEY(opts));
}

const char *record_device_path(const struct jr_value *doc)
{
	if (jr_bool(REC_DEVICE(doc, simulated), 0))
		return jr_str(REC_DEVICE(doc, path), "DEVICE");
	return "DEVICE";
}

void record_says_first(FILE *out, const struct jr_value *doc)
{
	const char *path = jr_str(REC_DEVICE(doc, path), NULL);
	const char *version = jr_str(jr_get(doc, HEAD_KEY(version)), "?");
	int simulated = jr_bool(REC_DEVICE(doc, simulated), 0);
	struct record_head h;
	char date[40];

	record_head_read(doc, &h);
	/* "2026-11-28T04:31:34Z" as "2026-11-28 at 04:31:34 UTC" */
	if (h.started && strlen(h.started) == 20 && h.started[10] == 'T')
		snprintf(date, sizeof(date), "on %.10s at %.8s UTC", h.started,
			 h.started + 11);
	else
		snprintf(date, sizeof(date), "on a date it does not say");
	wrap_printf(out, "    ", "record of %s made %s\n",
		    simulated ? "a simulated card" : path ? path :
		    "a device it does not name", date);
	wrap_printf(out, "    ", "by flashbench %s, judged again with the rules of flashbench %s\n",
		    version, FLASHBENCH_VERSION);
	if (path && !simulated)
		wrap_printf(out, "    ", "its commands say DEVICE: the card's device now, which may not be %s\n",
			    path);
}
