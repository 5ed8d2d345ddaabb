// SPDX-License-Identifier: GPL-2.0-only
/*
 * The one writer of records (rectab.h): a table's rows in order, each
 * member written, written null or left out as its row says; and the
 * value a row gives, as a reader would see it, for comparing a verdict
 * decided today with a record's without writing and parsing it again.
 */
#include <math.h>
#include <string.h>

#include "rectab.h"

static const void *at(const void *rec, size_t off)
{
	return (const char *)rec + off;
}

/* Is the row's member written, written null, or left out? */
static enum rt_how how_of(const struct rt_field *f, const void *rec)
{
	if (f->has_off && !*(const int *)at(rec, f->has_off - 1))
		return f->flags & RT_HAS_OMIT ? RT_OMIT : RT_NULL;
	return f->when ? f->when(rec) : RT_WRITE;
}

/* The row's scalar, stored or computed. */
static void scalar_of(const struct rt_field *f, const void *rec,
		      union rt_scalar *v)
{
	const void *p = at(rec, f->off);

	memset(v, 0, sizeof(*v));
	if (f->get) {
		f->get(rec, v);
		return;
	}
	switch (f->kind) {
	case RT_U64:
		v->u = *(const uint64_t *)p;
		break;
	case RT_UINT:
		v->u = *(const unsigned int *)p;
		break;
	case RT_I64:
		v->i = *(const int64_t *)p;
		break;
	case RT_DOUBLE:
		v->d = *(const double *)p;
		break;
	case RT_BOOL:
		v->b = *(const int *)p;
		break;
	case RT_STRING:
		v->s = *(const char *const *)p;
		break;
	case RT_ENUM:
	case RT_INT:
		v->i = *(const int *)p;
		break;
	case RT_CHARS:
		v->s = p;
		break;
	default:
		break;
	}
}

/* An enum's name ("?" for a value without one). */
static const char *enum_name(const struct rt_field *f, int64_t i)
{
	if (f->kind == RT_CONST)
		return f->names[0];
	return i >= 0 && (size_t)i < f->nnames ? f->names[i] : "?";
}

/* Is the scalar the 0 that RT_ZERO_NULL writes null? */
static int is_zero(const struct rt_field *f, const union rt_scalar *v)
{
	switch (f->kind) {
	case RT_U64:
	case RT_UINT:
		return !v->u;
	case RT_I64:
	case RT_ENUM:
		return !v->i;
	case RT_DOUBLE:
		return v->d == 0;
	case RT_BOOL:
		return !v->b;
	case RT_STRING:
		return !v->s;
	case RT_CHARS:
		return !v->s[0];
	case RT_INT:
		return !v->i;
	default:
		return 0;
	}
}

/* Is the scalar one the row writes null? */
static int is_null(const struct rt_field *f, const union rt_scalar *v)
{
	if ((f->flags & RT_NEG_NULL) && v->i < 0)
		return 1;
	return (f->flags & RT_ZERO_NULL) && is_zero(f, v);
}

static void write_scalar(struct json *j, const struct rt_field *f,
			 const union rt_scalar *v)
{
	switch (f->kind) {
	case RT_U64:
	case RT_UINT:
		json_u64(j, f->name, v->u);
		break;
	case RT_I64:
	case RT_INT:
		if (f->flags & RT_NEG_NULL)	/* as the u64 it is */
			json_u64(j, f->name, (uint64_t)v->i);
		else
			json_i64(j, f->name, v->i);
		break;
	case RT_DOUBLE:
		json_double(j, f->name, v->d);
		break;
	case RT_BOOL:
		json_bool(j, f->name, v->b);
		break;
	case RT_STRING:
	case RT_CHARS:
		json_string(j, f->name, v->s);
		break;
	default:
		json_string(j, f->name, enum_name(f, v->i));
		break;
	}
}

static void write_object(struct json *j, const char *key,
			 const struct rt_table *t, const void *rec, size_t idx);

/* The entries of an array or a list: how many, and where the first is. */
static size_t count_of(const struct rt_field *f, const void *rec)
{
	size_t n;

	if (f->flags & RT_FIXED)
		return f->max;
	if (f->flags & RT_COUNT_UINT)
		n = *(const unsigned int *)at(rec, f->count_off);
	else
		n = *(const size_t *)at(rec, f->count_off);
	return f->kind == RT_LIST && n > f->max ? f->max : n;
}

static const void *first_of(const struct rt_field *f, const void *rec)
{
	if (f->flags & RT_ALLOC)
		return *(const void *const *)at(rec, f->off);
	return at(rec, f->off);
}

static void write_array(struct json *j, const struct rt_field *f,
			const void *rec)
{
	const char *base = first_of(f, rec);
	size_t i, n = count_of(f, rec);

	json_array_begin(j, f->name);
	for (i = 0; i < n; i++)
		write_object(j, NULL, f->sub, base + i * f->elem_size, i);
	json_array_end(j);
}

/* A list of scalars: kind f->elem, one every f->elem_size bytes. */
static void write_list(struct json *j, const struct rt_field *f,
		       const void *rec)
{
	const char *base = first_of(f, rec);
	size_t i, n = count_of(f, rec);

	json_array_begin(j, f->name);
	for (i = 0; i < n; i++) {
		const void *p = base + i * f->elem_size;

		if (f->elem == RT_I64)
			json_i64(j, NULL, *(const int64_t *)p);
		else
			json_u64(j, NULL, *(const uint64_t *)p);
	}
	json_array_end(j);
}

/* A confidence's word ("?" for a value without one). */
static const char *conf_name(const struct rt_field *c, const struct rt_field *f,
			     const void *rec)
{
	int i = *(const int *)at(rec, f->conf_off - 1);

	return i >= 0 && (size_t)i < c->nnames ? c->names[i] : "?";
}

/* The confidence of each row of t that has one, in an object. */
static void write_conf(struct json *j, const struct rt_table *t,
		       const struct rt_field *c, const void *rec)
{
	size_t i;

	json_object_begin(j, c->name);
	for (i = 0; i < t->n; i++)
		if (t->f[i].conf_off)
			json_string(j, t->f[i].name,
				    conf_name(c, &t->f[i], rec));
	json_object_end(j);
}

static void write_field(struct json *j, const struct rt_table *t,
			const struct rt_field *f, const void *rec, size_t idx)
{
	union rt_scalar v;

	switch (how_of(f, rec)) {
	case RT_OMIT:
		return;
	case RT_NULL:
		json_null(j, f->name);
		return;
	case RT_WRITE:
		break;
	}
	if (f->put) {
		f->put(j, f, rec);
		return;
	}
	if (f->kind == RT_OBJECT) {
		rt_write_object(j, f->name, f->sub, at(rec, f->off));
		return;
	}
	if (f->kind == RT_CONF) {
		write_conf(j, t, f, rec);
		return;
	}
	if (f->kind == RT_ARRAY) {
		write_array(j, f, rec);
		return;
	}
	if (f->kind == RT_LIST) {
		write_list(j, f, rec);
		return;
	}
	if (f->kind == RT_INDEX) {
		json_u64(j, f->name, idx);
		return;
	}
	scalar_of(f, rec, &v);
	if (is_null(f, &v))
		json_null(j, f->name);
	else
		write_scalar(j, f, &v);
}

/* The rows of t; idx: the record's index in its array (RT_INDEX). */
static void write_rows(struct json *j, const struct rt_table *t,
		       const void *rec, size_t idx)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		write_field(j, t, &t->f[i], rec, idx);
}

static void write_object(struct json *j, const char *key,
			 const struct rt_table *t, const void *rec, size_t idx)
{
	json_object_begin(j, key);
	write_rows(j, t, rec, idx);
	json_object_end(j);
}

void rt_write(struct json *j, const struct rt_table *t, const void *rec)
{
	write_rows(j, t, rec, 0);
}

void rt_write_object(struct json *j, const char *key,
		      const struct rt_table *t, const void *rec)
{
	write_object(j, key, t, rec, 0);
}

/* A number's flags as jr_parse() sets them for what json_*() wrote. */
static void number_u64(struct jr_value *v, uint64_t u)
{
	v->type = JR_NUMBER;
	v->u = u;
	v->d = (double)u;
	v->flags = JR_UINT64;
	if (u <= INT64_MAX) {
		v->i = (int64_t)u;
		v->flags |= JR_INT64;
	}
}

static void number_double(struct jr_value *v, double d)
{
	if (!isfinite(d)) {
		v->type = JR_NULL;	/* json_double() writes null */
		return;
	}
	v->type = JR_NUMBER;
	v->d = d;
	if (d != floor(d) || fabs(d) > 9007199254740992.0)
		return;
	v->i = (int64_t)d;
	v->flags |= JR_INT64;
	if (d >= 0) {
		v->u = (uint64_t)d;
		v->flags |= JR_UINT64;
	}
}

static void scalar_value(const struct rt_field *f,
			 const union rt_scalar *s, struct jr_value *v)
{
	switch (f->kind) {
	case RT_U64:
	case RT_UINT:
		number_u64(v, s->u);
		break;
	case RT_I64:
	case RT_INT:
		if (s->i >= 0) {
			number_u64(v, (uint64_t)s->i);
		} else {
			v->type = JR_NUMBER;
			v->i = s->i;
			v->d = (double)s->i;
			v->flags = JR_INT64;
		}
		break;
	case RT_DOUBLE:
		number_double(v, s->d);
		break;
	case RT_BOOL:
		v->type = JR_BOOL;
		v->b = s->b != 0;
		break;
	case RT_STRING:
	case RT_CHARS:
		v->type = s->s ? JR_STRING : JR_NULL;
		v->s = (char *)s->s;
		break;
	default:
		v->type = JR_STRING;
		v->s = (char *)enum_name(f, s->i);
		break;
	}
	if (v->type == JR_STRING)
		v->len = strlen(v->s);
}

int rt_value(const struct rt_field *f, const void *rec, struct jr_value *v)
{
	union rt_scalar s;

	memset(v, 0, sizeof(*v));
	switch (how_of(f, rec)) {
	case RT_OMIT:
		return 0;
	case RT_NULL:
		v->type = JR_NULL;
		return 1;
	case RT_WRITE:
		break;
	}
	if (f->kind == RT_OBJECT || f->kind == RT_ARRAY ||
	    f->kind == RT_CONF || f->kind == RT_LIST ||
	    f->kind == RT_INDEX || f->put)
		return 0;	/* scalars only */
	scalar_of(f, rec, &s);
	if (is_null(f, &s))
		v->type = JR_NULL;
	else
		scalar_value(f, &s, v);
	return 1;
}

int rt_same(const struct jr_value *a, const struct jr_value *b)
{
	if (a->type != b->type)
		return 0;
	switch (a->type) {
	case JR_BOOL:
		return a->b == b->b;
	case JR_NUMBER:
		return a->d == b->d && (a->flags & JR_UINT64) ==
		       (b->flags & JR_UINT64) &&
		       (!(a->flags & JR_UINT64) || a->u == b->u);
	case JR_STRING:
		return !strcmp(a->s, b->s);
	case JR_NULL:
		return 1;
	default:
		return 0;	/* not in a verdict's fields */
	}
}

const struct rt_field *rt_find(const struct rt_table *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (!strcmp(t->f[i].name, name))
			return &t->f[i];
	return NULL;
}

const struct rt_field *rt_said(const struct rt_table *t, unsigned int k)
{
	size_t i;

	for (i = 0; k && i < t->n; i++)
		if (t->f[i].said == k)
			return &t->f[i];
	return NULL;
}

int rt_bytes(const struct rt_field *f)
{
	return f->unit && !strcmp(f->unit, "bytes");
}

const struct rt_field *rt_conf_row(const struct rt_table *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (t->f[i].kind == RT_CONF)
			return &t->f[i];
	return NULL;
}

int rt_conf_value(const struct rt_table *t, const struct rt_field *f,
		  const void *rec, struct jr_value *v)
{
	const struct rt_field *c = rt_conf_row(t);

	memset(v, 0, sizeof(*v));
	if (!c || !f->conf_off)
		return 0;
	v->type = JR_STRING;
	v->s = (char *)conf_name(c, f, rec);
	v->len = strlen(v->s);
	return 1;
}

const struct rt_field *rt_row_at(const struct rt_table *t, size_t off)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (t->f[i].off == off && t->f[i].kind != RT_CONF &&
		    t->f[i].kind != RT_CONST)
			return &t->f[i];
	return NULL;
}

const char *rt_key(const struct rt_table *t, size_t off)
{
	const struct rt_field *f = rt_row_at(t, off);

	return f ? f->name : NULL;
}

size_t rt_index(const struct rt_table *t, const struct rt_field *f)
{
	return (size_t)(f - t->f);
}
