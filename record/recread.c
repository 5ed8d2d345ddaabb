// SPDX-License-Identifier: GPL-2.0-only
/*
 * The one reader of records (rectab.h): a table's rows read from a
 * parsed object into the struct, strictly (a missing member or one of
 * another type is an error that names it and where it stands) or
 * loosely (what is there is taken; only the key members must be).
 * Nothing is guessed: a member the decisions need and the record lacks
 * is an error.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rectab.h"

int rt_fail(struct rt_rd *c, int ret, const struct jr_value *at,
	     const char *fmt, ...)
{
	size_t n;

	if (c->ret)
		return c->ret;
	n = (size_t)snprintf(c->err, c->err_len, "%u:%u: ",
			     at ? at->line : 1, at ? at->col : 1);
	if (n < c->err_len) {
		va_list ap;

		va_start(ap, fmt);
		vsnprintf(c->err + n, c->err_len - n, fmt, ap);
		va_end(ap);
	}
	c->ret = ret;
	return ret;
}

static const char *a_an(enum jr_type t)
{
	return t == JR_ARRAY || t == JR_OBJECT ? "an" : "a";
}

const struct jr_value *rt_rd_member(struct rt_rd *c,
				     const struct jr_value *o,
				     const char *where, const char *key,
				     enum jr_type t)
{
	const struct jr_value *v = jr_get(o, key);

	if (!v) {
		rt_fail(c, -ENOENT, o, "%s has no \"%s\": the record lacks raw data today's rules need",
			 where, key);
		return NULL;
	}
	if (v->type != t) {
		rt_fail(c, -EINVAL, v, "%s.%s is %s %s, not %s %s", where,
			 key, a_an(v->type), jr_type_name(v->type), a_an(t),
			 jr_type_name(t));
		return NULL;
	}
	return v;
}

uint64_t rt_rd_u64(struct rt_rd *c, const struct jr_value *o,
		    const char *where, const char *key, int nullable)
{
	const struct jr_value *v = jr_get(o, key);

	if (nullable && v && v->type == JR_NULL)
		return 0;
	v = rt_rd_member(c, o, where, key, JR_NUMBER);
	if (v && !(v->flags & JR_UINT64))
		rt_fail(c, -EINVAL, v, "%s.%s is not a whole number of 0 or more",
			 where, key);
	return v ? v->u : 0;
}

unsigned int rt_rd_uint(struct rt_rd *c, const struct jr_value *o,
			 const char *where, const char *key)
{
	uint64_t u = rt_rd_u64(c, o, where, key, 0);

	if (u > UINT32_MAX) {
		rt_fail(c, -EINVAL, jr_get(o, key), "%s.%s is out of range",
			 where, key);
		return 0;
	}
	return (unsigned int)u;
}

/* A number member; null (what --json writes for inf and nan) gives nan. */
double rt_rd_f64(struct rt_rd *c, const struct jr_value *o,
		  const char *where, const char *key)
{
	const struct jr_value *v = jr_get(o, key);

	if (v && v->type == JR_NULL)
		return NAN;
	v = rt_rd_member(c, o, where, key, JR_NUMBER);
	return v ? v->d : 0;
}

int rt_rd_bool(struct rt_rd *c, const struct jr_value *o, const char *where,
		const char *key)
{
	const struct jr_value *v = rt_rd_member(c, o, where, key, JR_BOOL);

	return v ? v->b : 0;
}

/* A string member or null (NULL); it points into the document. */
const char *rt_rd_str_null(struct rt_rd *c, const struct jr_value *o,
			    const char *where, const char *key)
{
	const struct jr_value *v = jr_get(o, key);

	if (v && v->type == JR_NULL)
		return NULL;
	v = rt_rd_member(c, o, where, key, JR_STRING);
	return v ? v->s : NULL;
}

const struct jr_value *rt_rd_array(struct rt_rd *c,
				    const struct jr_value *o,
				    const char *where, const char *key,
				    size_t max)
{
	const struct jr_value *v = rt_rd_member(c, o, where, key, JR_ARRAY);

	if (v && v->n > max) {
		rt_fail(c, -EINVAL, v, "%s.%s has %zu entries, more than %zu",
			 where, key, v->n, max);
		return NULL;
	}
	return v;
}

int64_t rt_rd_i64(struct rt_rd *c, const struct jr_value *v,
		   const char *where)
{
	if (!jr_is(v, JR_NUMBER) || !(v->flags & JR_INT64)) {
		rt_fail(c, -EINVAL, v, "%s is not a whole number", where);
		return 0;
	}
	return v->i;
}

/* ---- by the table ---- */

static void *at(void *rec, size_t off)
{
	return (char *)rec + off;
}

/* The JSON type a row's member has when it holds a value. */
static enum jr_type type_of(const struct rt_field *f)
{
	switch (f->kind) {
	case RT_U64:
	case RT_UINT:
	case RT_I64:
	case RT_INT:
	case RT_DOUBLE:
		return JR_NUMBER;
	case RT_BOOL:
		return JR_BOOL;
	case RT_OBJECT:
		return JR_OBJECT;
	case RT_ARRAY:
	case RT_LIST:
		return JR_ARRAY;
	default:
		return JR_STRING;
	}
}

/* May the row's member be null? */
static int nullable(const struct rt_field *f)
{
	return (f->flags & (RT_NULLABLE | RT_ZERO_NULL | RT_NEG_NULL)) ||
	       (f->has_off && !(f->flags & RT_HAS_OMIT));
}

/* The index of s among the row's names, or -1. */
static int enum_index(const struct rt_field *f, const char *s)
{
	size_t i;

	for (i = 0; s && i < f->nnames; i++)
		if (f->names[i] && !strcmp(s, f->names[i]))
			return (int)i;
	return -1;
}

/* Store a member of the row's type (v holds a value of that type). */
static void store(const struct rt_field *f, const struct jr_value *v,
		  void *p)
{
	int i;

	switch (f->kind) {
	case RT_U64:
		*(uint64_t *)p = jr_u64(v, 0);
		break;
	case RT_UINT:
		*(unsigned int *)p = (unsigned int)jr_u64(v, 0);
		break;
	case RT_I64:
		*(int64_t *)p = jr_i64(v, 0);
		break;
	case RT_DOUBLE:
		*(double *)p = jr_double(v, 0);
		break;
	case RT_BOOL:
		*(int *)p = jr_bool(v, 0);
		break;
	case RT_STRING:
		*(const char **)p = jr_str(v, NULL);
		break;
	case RT_INT:
		*(int *)p = (int)jr_i64(v, 0);
		break;
	case RT_CHARS:
		snprintf(p, f->elem_size, "%s", jr_str(v, ""));
		break;
	case RT_ENUM:
		i = enum_index(f, jr_str(v, NULL));
		if (i < 0)
			i = f->flags & RT_OPEN ? (int)f->nnames : 0;
		*(int *)p = i;
		break;
	default:
		break;
	}
}

/* A null member: 0, NULL, or nan for a number that was inf or nan. */
static void store_null(const struct rt_field *f, void *p, int strict)
{
	if (f->kind == RT_DOUBLE)
		*(double *)p = strict ? NAN : 0;
	else if (f->kind == RT_STRING)
		*(const char **)p = NULL;
	else if (f->kind == RT_CHARS)
		*(char *)p = '\0';
	else if (f->kind == RT_INT && (f->flags & RT_NEG_NULL))
		*(int *)p = -1;
	else if (f->kind == RT_I64 && (f->flags & RT_NEG_NULL))
		*(int64_t *)p = -1;
}

/* An array's or a list's count, as its row keeps it. */
static size_t get_count(const struct rt_field *f, void *rec)
{
	if (f->flags & RT_COUNT_UINT)
		return *(unsigned int *)at(rec, f->count_off);
	return *(size_t *)at(rec, f->count_off);
}

static void set_count(const struct rt_field *f, void *rec, size_t n)
{
	if (f->flags & RT_COUNT_UINT)
		*(unsigned int *)at(rec, f->count_off) = (unsigned int)n;
	else
		*(size_t *)at(rec, f->count_off) = n;
}

/*
 * The row before f in its table that read the same count (a parallel
 * array, a list beside another), or NULL: f reads it first.
 */
static const struct rt_field *twin_of(const struct rt_table *t,
				      const struct rt_field *f)
{
	const struct rt_field *g;

	if (f->flags & RT_FIXED)
		return NULL;
	for (g = t->f; g < f; g++)
		if (g->kind == f->kind && g->count_off == f->count_off &&
		    !(g->flags & RT_FIXED) &&
		    (f->kind == RT_LIST || g->off == f->off))
			return g;
	return NULL;
}

/*
 * The entries of array f: its own (inline, or calloc'd for RT_ALLOC), or
 * those of its twin, of which it must have as many.  NULL on an error.
 */
static char *entries(struct rt_rd *c, const struct rt_field *f,
		     const struct rt_field *twin, const struct jr_value *a,
		     const char *where, void *rec)
{
	void **p = at(rec, f->off);

	if (twin && get_count(twin, rec) != a->n) {
		rt_fail(c, -EINVAL, a, "%s has %zu %s but %zu %s", where,
			get_count(twin, rec), twin->name, a->n, f->name);
		return NULL;
	}
	if (!(f->flags & RT_ALLOC))
		return (char *)p;
	if (!twin) {
		*p = calloc(a->n ? a->n : 1, f->elem_size);
		if (!*p) {
			rt_fail(c, -ENOMEM, a, "out of memory");
			return NULL;
		}
	}
	return *p;
}

static int read_array(struct rt_rd *c, const struct rt_table *t,
		      const struct rt_field *f, const struct jr_value *a,
		      const char *where, void *rec)
{
	const struct rt_field *twin = twin_of(t, f);
	const char *outer = c->twin;
	char w[128], tw[128];
	char *base;
	size_t i;

	if (a->n > f->max)
		return rt_fail(c, -EINVAL, a, "%s.%s has %zu entries, more than %zu",
				where, f->name, a->n, f->max);
	base = entries(c, f, twin, a, where, rec);
	if (!base)
		return c->ret;
	set_count(f, rec, a->n);
	for (i = 0; i < a->n && !c->ret; i++) {
		snprintf(w, sizeof(w), "%s.%s[%zu]", where, f->name, i);
		snprintf(tw, sizeof(tw), "%s.%s[%zu]", where,
			 twin ? twin->name : f->name, i);
		c->twin = twin ? tw : NULL;
		if (!c->loose && a->v[i].type != JR_OBJECT)
			rt_fail(c, -EINVAL, &a->v[i], "%s is not an object",
				 w);
		else
			rt_read(c, f->sub, &a->v[i], w,
				 base + i * f->elem_size);
	}
	c->twin = outer;
	return c->ret;
}

/* A list of scalars (see RT_LIST), after a list of the same count. */
static int read_list(struct rt_rd *c, const struct rt_table *t,
		     const struct rt_field *f, const struct jr_value *a,
		     const char *where, void *rec)
{
	const struct rt_field *twin = twin_of(t, f);
	char *base = at(rec, f->off);
	char w[128];
	size_t i;

	if (a->n > f->max)
		return rt_fail(c, -EINVAL, a, "%s.%s has %zu entries, more than %zu",
				where, f->name, a->n, f->max);
	if (twin && a->n != get_count(twin, rec))
		return rt_fail(c, -EINVAL, a, "%s.%s has %zu entries, %s %zu",
				where, f->name, a->n, twin->name,
				get_count(twin, rec));
	if (!(f->flags & RT_FIXED))
		set_count(f, rec, a->n);
	for (i = 0; i < a->n && !c->ret; i++) {
		const struct jr_value *v = &a->v[i];
		void *p = base + i * f->elem_size;

		snprintf(w, sizeof(w), "%s.%s[%zu]", where, f->name, i);
		if (f->elem == RT_I64) {
			*(int64_t *)p = rt_rd_i64(c, v, w);
		} else if (!jr_is(v, JR_NUMBER) || !(v->flags & JR_UINT64)) {
			rt_fail(c, -EINVAL, v, "%s is not a whole number of 0 or more",
				w);
		} else {
			*(uint64_t *)p = v->u;
		}
	}
	return c->ret;
}

int rt_rd_lacks(struct rt_rd *c, const struct jr_value *o, const char *key,
		unsigned int bit)
{
	if (!c->older || !o || jr_get(o, key))
		return 0;
	c->lacked |= bit;
	return 1;
}

/* An RT_SAME row: the member must be what the record holds already. */
static void read_same(struct rt_rd *c, const struct rt_field *f,
		      const struct jr_value *o, const char *where, void *rec)
{
	uint64_t held = *(uint64_t *)at(rec, f->off);

	if (rt_rd_u64(c, o, where, f->name, 0) != held && !c->ret)
		rt_fail(c, -EINVAL, o, "%s.%s is not %s.%s", where, f->name,
			c->twin ? c->twin : "the record", f->name);
}

/* A strict row: there, of its type, or an error naming it. */
static void read_strict(struct rt_rd *c, const struct rt_table *t,
			const struct rt_field *f, const struct jr_value *o,
			const char *where, void *rec)
{
	const struct jr_value *v = jr_get(o, f->name);
	void *p = at(rec, f->off);
	char w[128];

	if (!v && (f->flags & RT_OPTIONAL))
		return;
	if (f->late && rt_rd_lacks(c, o, f->name, f->late))
		return;
	if (f->flags & RT_SAME) {
		read_same(c, f, o, where, rec);
		return;
	}
	if (v && v->type == JR_NULL &&
	    (nullable(f) || f->kind == RT_DOUBLE || f->kind == RT_STRING)) {
		store_null(f, p, 1);
		return;
	}
	if (f->kind == RT_ENUM && v && v->type == JR_NULL) {
		rt_fail(c, -EINVAL, v, "%s.%s \"\" is not one this version knows",
			 where, f->name);
		return;
	}
	v = rt_rd_member(c, o, where, f->name, type_of(f));
	if (!v)
		return;
	switch (f->kind) {
	case RT_U64:
		*(uint64_t *)p = rt_rd_u64(c, o, where, f->name, 0);
		break;
	case RT_UINT:
		*(unsigned int *)p = rt_rd_uint(c, o, where, f->name);
		break;
	case RT_I64:
		snprintf(w, sizeof(w), "%s.%s", where, f->name);
		*(int64_t *)p = rt_rd_i64(c, v, w);
		break;
	case RT_ENUM:
		if (enum_index(f, v->s) < 0)
			rt_fail(c, -EINVAL, v, "%s.%s \"%s\" is not one this version knows",
				 where, f->name, v->s);
		store(f, v, p);
		break;
	case RT_OBJECT:
		snprintf(w, sizeof(w), "%s.%s", where, f->name);
		rt_read(c, f->sub, v, w, p);
		break;
	case RT_ARRAY:
		read_array(c, t, f, v, where, rec);
		break;
	case RT_LIST:
		read_list(c, t, f, v, where, rec);
		break;
	default:
		store(f, v, p);
		break;
	}
}

/* Does v hold a value row f can take (a loose reading's test)? */
static int holds(const struct rt_field *f, const struct jr_value *v)
{
	if (!jr_is(v, type_of(f)))
		return 0;
	switch (f->kind) {
	case RT_U64:
		return (v->flags & JR_UINT64) != 0;
	case RT_UINT:
		return (v->flags & JR_UINT64) && v->u <= UINT32_MAX;
	case RT_I64:
		return (v->flags & JR_INT64) != 0;
	case RT_INT:
		return (v->flags & JR_INT64) && v->i >= INT32_MIN &&
		       v->i <= INT32_MAX;
	case RT_CONST:
		return !strcmp(v->s, f->names[0]);
	default:
		return 1;
	}
}

/* The confidences of the table's rows, from the row c's object. */
static void read_conf(const struct rt_table *t, const struct rt_field *c,
		      const struct jr_value *o, void *rec)
{
	const struct jr_value *v = jr_get(o, c->name);
	size_t i, k;

	for (i = 0; i < t->n; i++) {
		const char *s = jr_str(jr_get(v, t->f[i].name), NULL);

		if (!t->f[i].conf_off)
			continue;
		for (k = 0; s && k < c->nnames && strcmp(s, c->names[k]); k++)
			;
		*(int *)at(rec, t->f[i].conf_off - 1) =
			s && k < c->nnames ? (int)k : 0;
	}
}

/* A loose row: its value when it is there and of its type. */
static int read_loose(struct rt_rd *c, const struct rt_table *t,
		      const struct rt_field *f, const struct jr_value *o,
		      const char *where, void *rec)
{
	const struct jr_value *v = jr_get(o, f->name);
	void *p = at(rec, f->off);

	if (v && v->type == JR_NULL && nullable(f)) {
		store_null(f, p, 0);
		return 0;
	}
	if (f->kind == RT_OBJECT) {
		char w[128];

		snprintf(w, sizeof(w), "%s.%s", where, f->name);
		rt_read(c, f->sub, jr_is(v, JR_OBJECT) ? v : NULL, w, p);
		return jr_is(v, JR_OBJECT);
	}
	if (!holds(f, v)) {
		if ((f->flags & RT_KEY) && !c->ret) {
			c->missing = f;
			c->at = o;
			c->ret = -ENOENT;
		}
		return 0;
	}
	if (f->flags & RT_SAME)
		return 1;	/* checked only where strict */
	if (f->kind == RT_ARRAY)
		read_array(c, t, f, v, where, rec);
	else if (f->kind == RT_LIST)
		read_list(c, t, f, v, where, rec);
	else
		store(f, v, p);
	return 1;
}

int rt_read(struct rt_rd *c, const struct rt_table *t,
	     const struct jr_value *o, const char *where, void *rec)
{
	uint64_t *present = c->present;
	size_t i;

	c->present = NULL;	/* the rows of this table only */
	for (i = 0; i < t->n; i++)
		if (t->f[i].flags & RT_SETS_HAS)
			*(int *)at(rec, t->f[i].has_off - 1) = 1;
	for (i = 0; i < t->n && (c->loose || !c->ret); i++) {
		const struct rt_field *f = &t->f[i];
		const struct jr_value *v = jr_get(o, f->name);
		int held;

		if (f->kind == RT_CONF && c->loose)
			read_conf(t, f, o, rec);
		/* a constant names the record: a loose reading checks it */
		if ((f->flags & RT_DERIVED) || f->kind == RT_CONF ||
		    f->kind == RT_INDEX ||
		    (f->kind == RT_CONST && !c->loose))
			continue;
		if (c->loose) {
			held = read_loose(c, t, f, o, where, rec);
		} else {
			read_strict(c, t, f, o, where, rec);
			held = v && v->type == type_of(f);
		}
		if (held && present && i < 64)
			*present |= 1ULL << i;
		if ((f->flags & RT_SETS_HAS) && !held)
			*(int *)at(rec, f->has_off - 1) = 0;
	}
	if (t->read_done)
		t->read_done(rec);
	c->present = present;
	return c->ret;
}
