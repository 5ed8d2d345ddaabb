/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A record kind described once: one table of its fields (fio's option
 * rows), each row a JSON member's name, its kind, its unit and where it
 * is in the struct.  One writer (rt_write), one reader (rt_read), the
 * comparison of a live verdict with a record's (rt_value) and the
 * schema test (tests/test_rectab.c) all walk the same rows, so that a
 * member is named in one place.
 *
 * What a writer decides per record is said in the row, not by name: a
 * member written null or left out (has, when), a value computed rather
 * than stored (get), a nested record (sub), a constant (RT_CONST).
 */
#ifndef FLASHBENCH_RECTAB_H
#define FLASHBENCH_RECTAB_H

#include <stddef.h>
#include <stdint.h>

#include "c.h"
#include "json.h"
#include "jsonread.h"

/* What a member holds, and the C type at its offset. */
enum rt_kind {
	RT_U64,	/* uint64_t: an integer >= 0 */
	RT_UINT,	/* unsigned int: an integer >= 0 below 2^32 */
	RT_I64,	/* int64_t */
	RT_DOUBLE,	/* double (inf and nan are written null) */
	RT_BOOL,	/* int: true or false */
	RT_STRING,	/* const char * (NULL is written null) */
	RT_ENUM,	/* int-sized enum: a string of names[value] */
	RT_CONST,	/* no storage: always the string names[0] */
	RT_OBJECT,	/* a record of table sub at the offset */
	RT_ARRAY,	/* n records of table sub, n at count_off */
	RT_CONF,	/* no storage: an object of the confidence (an int
			 * at conf_off, names[] its words) of each row of the
			 * same table that has one, by the row's name */
	RT_LIST,	/* n scalars of kind elem, one every elem_size
			 * bytes from off; n at count_off, max at most */
	RT_INDEX,	/* no storage: the index of the record in the
			 * array it is an entry of (written, never read) */
	RT_INT,		/* int */
	RT_CHARS,	/* char[elem_size]: a string kept in the struct */
};

/* What a row's when() says about the member in this record. */
enum rt_how {
	RT_WRITE,	/* its value */
	RT_NULL,	/* null */
	RT_OMIT,	/* not at all */
};

/* Row flags. */
#define RT_ZERO_NULL	0x01	/* 0 is written null, and null read as 0 */
#define RT_NULLABLE	0x02	/* null may be read (0, NULL or nan) */
#define RT_OPTIONAL	0x04	/* may be missing from a record (0) */
#define RT_DERIVED	0x08	/* written, not read: decided again */
#define RT_KEY		0x10	/* a loose reading needs it all the same */
#define RT_HAS_OMIT	0x20	/* has == 0 leaves it out, not null */
#define RT_SETS_HAS	0x40	/* reading it sets has (all such: and) */
#define RT_OPEN		0x80	/* an enum whose names may grow: a loose
				 * reading keeps a name it does not know
				 * as nnames (written "?") */
#define RT_ALLOC	0x100	/* RT_ARRAY: off holds a pointer to the
				 * entries, which the reader callocs; a
				 * row before it at the same off has the
				 * same entries (a parallel array: the
				 * same count) */
#define RT_COUNT_UINT	0x200	/* RT_ARRAY, RT_LIST: the count at
				 * count_off is an unsigned int, not a
				 * size_t; a list after another of the
				 * same count must have as many */
#define RT_FIXED	0x400	/* RT_LIST: max entries, no count kept */
#define RT_SAME		0x800	/* read, not stored: must equal what the
				 * record holds (the key of an entry of a
				 * parallel array) */
#define RT_NEG_NULL	0x1000	/* RT_INT, RT_I64: < 0 is written null,
				 * and null read as -1 */
#define RT_SPREAD	0x2000	/* put writes members another table names
				 * (none of its own): no schema property */

/* A row whose value has no offset gives it through get(). */
union rt_scalar {
	uint64_t u;
	int64_t i;
	double d;
	int b;
	const char *s;
};

struct rt_table;

/* One member of a record. */
struct rt_field {
	const char *name;		/* the JSON member */
	enum rt_kind kind;
	size_t off;			/* offsetof() in the struct */
	const char *unit;		/* "bytes", "ns", ...; NULL: none */
	unsigned int flags;		/* RT_* above */
	const char *const *names;	/* RT_ENUM, RT_CONST: the strings */
	size_t nnames;
	const struct rt_table *sub;	/* RT_OBJECT, RT_ARRAY */
	size_t count_off;		/* RT_ARRAY, RT_LIST: size_t of its
					 * length (RT_COUNT_UINT: unsigned) */
	size_t elem_size;		/* RT_ARRAY, RT_LIST: bytes from one
					 * entry to the next */
	size_t max;			/* RT_ARRAY, RT_LIST: entries at
					 * most */
	enum rt_kind elem;		/* RT_LIST: its entries' kind (RT_U64,
					 * RT_I64) */
	size_t has_off;			/* an int: 0 writes it null (or omits
					 * it); 0 here: no such flag */
	size_t conf_off;		/* its confidence, an int (as has_off;
					 * see RT_CONF) */
	enum rt_how (*when)(const void *rec);	/* NULL: RT_WRITE */
	void (*get)(const void *rec, union rt_scalar *v); /* computed */
	void (*put)(struct json *j, const struct rt_field *f,
		    const void *rec);	/* writes the member itself (a
					 * computed list); never read */
	const char *label;		/* words where a verdict is compared */
	unsigned int said;		/* 1..: order of the comparison */
	unsigned int late;		/* a member records of an older shape
					 * lack: the bit a strict reading of
					 * one sets in rt_rd.lacked when it
					 * is missing (0: it must be there) */
};

/* The fields of one record kind. */
struct rt_table {
	const char *name;		/* what it is, for the schema test */
	const struct rt_field *f;
	size_t n;
	void (*read_done)(void *rec);	/* after a reading: what the rows
					 * say together (NULL: nothing) */
};

#define RT_TABLE(tname, rows) { tname, rows, ARRAY_SIZE(rows), NULL }

/* has_off of a row: offsetof() + 1, so that 0 means none. */
#define RT_HAS(type, member) (offsetof(type, member) + 1)

/*
 * Write rec's members (the table's rows in order) into the object j has
 * open; rt_write_object() opens the object key first (NULL: in an
 * array).
 */
void rt_write(struct json *j, const struct rt_table *t, const void *rec);
void rt_write_object(struct json *j, const char *key,
		      const struct rt_table *t, const void *rec);

/*
 * The value row f of rec is written with, as jr_parse() would read it
 * back (a number's flags included) into *v: 1, or 0 where the member is
 * left out.  Scalars only.
 */
int rt_value(const struct rt_field *f, const void *rec,
	      struct jr_value *v);

/* Does v (a member read from a record) equal what rt_value() gives? */
int rt_same(const struct jr_value *a, const struct jr_value *b);

/*
 * The table's RT_CONF row (NULL: none); the confidence of row f in *v as
 * rt_value() gives values: 1, or 0 when f has none.
 */
const struct rt_field *rt_conf_row(const struct rt_table *t);
int rt_conf_value(const struct rt_table *t, const struct rt_field *f,
		  const void *rec, struct jr_value *v);

/* The JSON name of the row at offset off of the struct (NULL: none). */
const char *rt_key(const struct rt_table *t, size_t off);

/* The row at offset off of the struct (NULL: none), and its index. */
const struct rt_field *rt_row_at(const struct rt_table *t, size_t off);
size_t rt_index(const struct rt_table *t, const struct rt_field *f);

/* The row named name (NULL: none); for tests and the said lists. */
const struct rt_field *rt_find(const struct rt_table *t, const char *name);

/* The row compared k-th (its said == k; from 1), or NULL past the last. */
const struct rt_field *rt_said(const struct rt_table *t, unsigned int k);

/* Does the row hold bytes (a size, shown as one)? */
int rt_bytes(const struct rt_field *f);

/* ---- reading ---- */

/* The reader's state: its first error, and how strict it is. */
struct rt_rd {
	char *err;			/* "LINE:COL: what" */
	size_t err_len;
	int ret;			/* the first error; 0 none */
	int loose;			/* a member of another type counts as
					 * missing, and only RT_KEY rows must
					 * be there */
	const struct rt_field *missing; /* loose: the row that failed */
	const struct jr_value *at;	/* ... in this object */
	const char *twin;		/* reading an entry of a parallel
					 * array: where the entry it pairs
					 * with stands (RT_SAME's message) */
	uint64_t *present;		/* loose, if set: bit i for row i of
					 * the table read (not of those it
					 * nests) that held a value */
	int older;			/* a record of an older shape: a late
					 * member may be missing */
	unsigned int lacked;		/* the late bits of those missing */
};

int rt_fail(struct rt_rd *c, int ret, const struct jr_value *at,
	     const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/*
 * Read object o (named where in messages) into rec by table t: every
 * row but the derived ones.  A strict reading refuses a missing member
 * (-ENOENT) and one of another type (-EINVAL), naming it; a loose one
 * takes what is there (a member of the row's type; a number the row can
 * hold) and fails (-ENOENT, c->missing) only on a RT_KEY row, reading
 * the other rows all the same.  Returns c->ret.
 */
int rt_read(struct rt_rd *c, const struct rt_table *t,
	     const struct jr_value *o, const char *where, void *rec);

/*
 * Does a record of an older shape lack member key of o?  Then 1, and bit
 * set in c->lacked; 0 when it has it, or the record is of today's shape
 * (which must have it).
 */
int rt_rd_lacks(struct rt_rd *c, const struct jr_value *o, const char *key,
		unsigned int bit);

/* The reader's pieces, for records a table does not describe yet. */
const struct jr_value *rt_rd_member(struct rt_rd *c,
				     const struct jr_value *o,
				     const char *where, const char *key,
				     enum jr_type t);
uint64_t rt_rd_u64(struct rt_rd *c, const struct jr_value *o,
		    const char *where, const char *key, int nullable);
unsigned int rt_rd_uint(struct rt_rd *c, const struct jr_value *o,
			 const char *where, const char *key);
double rt_rd_f64(struct rt_rd *c, const struct jr_value *o,
		  const char *where, const char *key);
int rt_rd_bool(struct rt_rd *c, const struct jr_value *o, const char *where,
		const char *key);
const char *rt_rd_str_null(struct rt_rd *c, const struct jr_value *o,
			    const char *where, const char *key);
const struct jr_value *rt_rd_array(struct rt_rd *c,
				    const struct jr_value *o,
				    const char *where, const char *key,
				    size_t max);
int64_t rt_rd_i64(struct rt_rd *c, const struct jr_value *v,
		   const char *where);

#endif /* FLASHBENCH_RECTAB_H */
