// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulated card: its spec parser, its exact costs with noise=0, its
 * noise, and the signatures the tests rely on (page and AU steps on reads,
 * open-AU collapse in linear and random order, FAT area, discard).
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "simstore.h"
#include "util.h"

#define KiB (1024ULL)
#define MiB (1024ULL * KiB)
#define GiB (1024ULL * MiB)

/* Parameters the exact-cost tests plant, written out once for reading. */
#define T_ACCESS_NS	700000ULL	/* access_us=700 */
#define T_READ_NS_B	40		/* read_mbps=25: 40 ns per byte */
#define T_PAGE_NS	160000ULL	/* page_us=160 */
#define T_AU_NS		150000ULL	/* au_us=150 */
#define T_ERASE_NS	2000000ULL	/* erase_us=2000 */
#define T_DISCARD_NS	100000ULL	/* discard_us=100 */
#define T_SPEC "access_us=700," T_SPEC_NO_ACCESS
#define T_SPEC_NO_ACCESS "noise=0,read_mbps=25,page_us=160,au_us=150," \
	"write_mbps=16,erase_us=2000,discard_us=100,fat_mbps=32,fat_page=512"

/* ns to write len bytes at write_mbps=16 (62.5 ns per byte). */
static uint64_t t_wr_ns(uint64_t len)
{
	return len * 125 / 2;
}

/* ns to write len bytes at fat_mbps=32 (31.25 ns per byte). */
static uint64_t t_fat_ns(uint64_t len)
{
	return len * 125 / 4;
}

/* Read len bytes at off; the read must succeed.  Returns its time. */
static uint64_t rd(struct device *dev, uint64_t off, size_t len)
{
	unsigned char *buf = dev_alloc_buf(len);
	uint64_t t = 0;
	size_t i;

	ck_assert_ptr_nonnull(buf);
	memset(buf, 0xa5, len);
	ck_assert_int_eq(dev_read(dev, buf, len, (off_t)off, &t), 0);
	for (i = 0; i < len; i += 4096)
		ck_assert_uint_eq(buf[i], 0);
	ck_assert_uint_eq(buf[len - 1], 0);
	dev_free_buf(buf);
	return t;
}

/* Write len bytes at off; the write must succeed.  Returns its time. */
static uint64_t wr(struct device *dev, uint64_t off, size_t len)
{
	static unsigned char *buf;
	static size_t buf_len;
	uint64_t t = 0;

	if (len > buf_len) {
		dev_free_buf(buf);
		buf = dev_alloc_buf(len);
		ck_assert_ptr_nonnull(buf);
		memset(buf, 0x5a, len);
		buf_len = len;
	}
	ck_assert_int_eq(dev_write(dev, buf, len, (off_t)off, &t), 0);
	return t;
}

/* Discard len bytes at off; must succeed.  Returns its time. */
static uint64_t dc(struct device *dev, uint64_t off, uint64_t len)
{
	uint64_t t = 0;

	ck_assert_int_eq(dev_discard(dev, (off_t)off, len, &t), 0);
	return t;
}

/* ---- spec parser ---- */

START_TEST(test_defaults)
{
	struct sim_params p, q;
	char err[256];

	sim_params_default(&p);
	ck_assert_uint_eq(p.size_byte, 8 * GiB);
	ck_assert_uint_eq(p.erase_byte, 4 * MiB);
	ck_assert_uint_eq(p.page_byte, 16 * KiB);
	ck_assert_uint_eq(p.open_au, 4);
	ck_assert_uint_eq(p.open_random, 2);
	ck_assert_uint_eq(p.fat_nr, 1);
	ck_assert_uint_eq(p.fat_start, 0);
	ck_assert_double_eq(p.noise_pct, 1);
	ck_assert_uint_eq(p.seed, 1);
	/* the behaviours of issue 11 are off: today's card */
	ck_assert_uint_eq(p.fat_kind, SIM_FAT_BOTH);
	ck_assert_uint_eq(p.readsig, 1);
	ck_assert_uint_eq(p.plane, 1);
	ck_assert_uint_eq(p.group_byte, 0);
	ck_assert_uint_eq(p.au_spread, 1);
	ck_assert_double_eq(p.pause_pct, 0);
	ck_assert_uint_eq(p.readahead_byte, 0);
	ck_assert_double_eq(p.random_mbps, 0);
	ck_assert_uint_eq(p.collapse, SIM_COLLAPSE_SHARP);
	/* the mechanics of issue 17 are today's, the host quiet */
	ck_assert_uint_eq(p.ooo, SIM_OOO_RANDOM);
	ck_assert_double_eq(p.random_us, 0);
	ck_assert_uint_eq(p.close, SIM_CLOSE_OLD);
	ck_assert_uint_eq(p.fullclose, 0);
	ck_assert_uint_eq(p.evict, SIM_EVICT_LRU);
	ck_assert_uint_eq(p.used, 1);
	ck_assert_uint_eq(p.fat_gain, SIM_FAT_GAIN_BOTH);
	ck_assert_uint_eq(p.host, SIM_HOST_QUIET);
	ck_assert_double_eq(p.busy_pct, 0);
	/* rates and access time like the classic README's card */
	ck_assert(p.access_us >= 400 && p.access_us <= 700);
	ck_assert(p.read_mbps >= 20 && p.read_mbps <= 40);
	ck_assert(p.write_mbps >= 10 && p.write_mbps <= 20);

	/* an empty spec is the typical card */
	q = p;
	ck_assert_int_eq(sim_parse_spec(&q, "", err, sizeof(err)), 0);
	ck_assert_mem_eq(&p, &q, sizeof(p));
	ck_assert_int_eq(sim_parse_spec(&q, NULL, err, sizeof(err)), 0);
	ck_assert_mem_eq(&p, &q, sizeof(p));
}
END_TEST

enum t_kind { T_U64, T_UINT, T_DBL };

static const struct {
	const char *spec;
	size_t off;		/* field in struct sim_params */
	enum t_kind kind;
	double want;
} parse_ok[] = {
#define F(f) offsetof(struct sim_params, f)
	{ "size=16G", F(size_byte), T_U64, 16.0 * GiB },
	{ "size=64GiB,erase=64M", F(size_byte), T_U64, 64.0 * GiB },
	{ "size=64G,erase=64M", F(erase_byte), T_U64, 64.0 * MiB },
	{ "erase=12M,size=12G", F(erase_byte), T_U64, 12.0 * MiB },
	{ "erase=24MiB,size=48G", F(erase_byte), T_U64, 24.0 * MiB },
	{ "erase=0x400000", F(erase_byte), T_U64, 4.0 * MiB },
	{ "erase=128K,page=8K", F(erase_byte), T_U64, 128.0 * KiB },
	{ "erase=128K,page=8K", F(page_byte), T_U64, 8.0 * KiB },
	{ "page=32k", F(page_byte), T_U64, 32.0 * KiB },
	{ "page=4096", F(page_byte), T_U64, 4096 },
	{ "open=7", F(open_au), T_UINT, 7 },
	{ "open_random=1", F(open_random), T_UINT, 1 },
	{ "fat=3", F(fat_nr), T_UINT, 3 },
	{ "fat=0", F(fat_nr), T_UINT, 0 },
	{ "fat_start=5", F(fat_start), T_UINT, 5 },
	{ "noise=2.5", F(noise_pct), T_DBL, 2.5 },
	{ "noise=0", F(noise_pct), T_DBL, 0 },
	{ "seed=0x2a", F(seed), T_U64, 42 },
	{ "seed=0", F(seed), T_U64, 0 },
	{ "read_mbps=30", F(read_mbps), T_DBL, 30 },
	{ "write_mbps=15.5", F(write_mbps), T_DBL, 15.5 },
	{ "access_us=450", F(access_us), T_DBL, 450 },
	{ "access_us=0", F(access_us), T_DBL, 0 },
	{ "page_us=80", F(page_us), T_DBL, 80 },
	{ "au_us=200", F(au_us), T_DBL, 200 },
	{ "erase_us=1500", F(erase_us), T_DBL, 1500 },
	{ "discard_us=50", F(discard_us), T_DBL, 50 },
	{ "fat_mbps=40", F(fat_mbps), T_DBL, 40 },
	{ "fat_page=4K", F(fat_page_byte), T_U64, 4096 },
	{ "open=6,noise=0.5,seed=9", F(seed), T_U64, 9 },
	/* a size that ends in a part of an AU, as real cards do */
	{ "size=8G,erase=3M", F(size_byte), T_U64, 8.0 * GiB },
	{ "size=100M,erase=12M", F(size_byte), T_U64, 100.0 * MiB },
	{ "size=16777728", F(size_byte), T_U64, 16.0 * MiB + 512 },
	/* without a size, the default 8 GiB shrinks to whole AUs */
	{ "erase=12M", F(size_byte), T_U64, 682.0 * 12 * MiB },
	{ "erase=24M", F(size_byte), T_U64, 341.0 * 24 * MiB },
	{ "erase=3M", F(size_byte), T_U64, 2730.0 * 3 * MiB },
	{ "erase=64M", F(size_byte), T_U64, 8.0 * GiB },
	{ "open_random=0", F(open_random), T_UINT, 0 },
	{ "open=3,open_random=0", F(open_random), T_UINT, 0 },
	{ "fat_kind=linear", F(fat_kind), T_UINT, SIM_FAT_LINEAR },
	{ "fat_kind=random", F(fat_kind), T_UINT, SIM_FAT_RANDOM },
	{ "fat_kind=both", F(fat_kind), T_UINT, SIM_FAT_BOTH },
	{ "readsig=0", F(readsig), T_UINT, 0 },
	{ "readsig=1", F(readsig), T_UINT, 1 },
	{ "plane=4", F(plane), T_UINT, 4 },
	{ "plane_us=40", F(plane_us), T_DBL, 40 },
	{ "group=2G", F(group_byte), T_U64, 2.0 * GiB },
	{ "erase=12M,group=1G", F(group_byte), T_U64, 1.0 * GiB },
	{ "group_us=500", F(group_us), T_DBL, 500 },
	{ "au_spread=4", F(au_spread), T_UINT, 4 },
	{ "pause_pct=0.5", F(pause_pct), T_DBL, 0.5 },
	{ "pause_us=8000", F(pause_us), T_DBL, 8000 },
	{ "readahead=128K", F(readahead_byte), T_U64, 128.0 * KiB },
	{ "random_mbps=3.5", F(random_mbps), T_DBL, 3.5 },
	{ "collapse=gradual", F(collapse), T_UINT, SIM_COLLAPSE_GRADUAL },
	{ "collapse=sharp", F(collapse), T_UINT, SIM_COLLAPSE_SHARP },
	{ "ooo=merge", F(ooo), T_UINT, SIM_OOO_MERGE },
	{ "ooo=copy-whole", F(ooo), T_UINT, SIM_OOO_COPY_WHOLE },
	{ "ooo=copy-written", F(ooo), T_UINT, SIM_OOO_COPY_WRITTEN },
	{ "ooo=random", F(ooo), T_UINT, SIM_OOO_RANDOM },
	{ "random_us=250", F(random_us), T_DBL, 250 },
	{ "close=rest", F(close), T_UINT, SIM_CLOSE_REST },
	{ "close=all", F(close), T_UINT, SIM_CLOSE_ALL },
	{ "fullclose=1", F(fullclose), T_UINT, 1 },
	{ "evict=oldest", F(evict), T_UINT, SIM_EVICT_OLDEST },
	{ "used=0", F(used), T_UINT, 0 },
	{ "fat_gain=slot", F(fat_gain), T_UINT, SIM_FAT_GAIN_SLOT },
	{ "fat_gain=speed", F(fat_gain), T_UINT, SIM_FAT_GAIN_SPEED },
	{ "busy_pct=2.5", F(busy_pct), T_DBL, 2.5 },
	{ "busy_us=3000", F(busy_us), T_DBL, 3000 },
	{ "busy_burst=4", F(busy_burst), T_DBL, 4 },
	/* host= fills the busy_ keys not given */
	{ "host=heavy", F(busy_pct), T_DBL, 3 },
	{ "host=heavy", F(busy_us), T_DBL, 6000 },
	{ "host=heavy", F(busy_burst), T_DBL, 3 },
	{ "host=light", F(busy_pct), T_DBL, 0.5 },
	{ "host=heavy,busy_pct=1", F(busy_pct), T_DBL, 1 },
	{ "busy_us=9000,host=light", F(busy_us), T_DBL, 9000 },
	{ "host=quiet", F(busy_pct), T_DBL, 0 },
#undef F
};

START_TEST(test_parse_ok)
{
	struct sim_params p;
	const void *field;
	char err[256] = "";
	double got = -1;

	sim_params_default(&p);
	ck_assert_msg(!sim_parse_spec(&p, parse_ok[_i].spec, err, sizeof(err)),
		      "'%s' rejected: %s", parse_ok[_i].spec, err);
	field = (const char *)&p + parse_ok[_i].off;
	switch (parse_ok[_i].kind) {
	case T_U64:
		got = (double)*(const uint64_t *)field;
		break;
	case T_UINT:
		got = *(const unsigned int *)field;
		break;
	case T_DBL:
		got = *(const double *)field;
		break;
	}
	ck_assert_msg(got == parse_ok[_i].want, "'%s': got %g, want %g",
		      parse_ok[_i].spec, got, parse_ok[_i].want);
}
END_TEST

START_TEST(test_parse_open_random)
{
	static const struct {
		const char *spec;
		unsigned int open, open_random;
	} t[] = {
		{ "open=6", 6, 6 },
		{ "open=1", 1, 1 },
		{ "open=6,open_random=3", 6, 3 },
		{ "open_random=3,open=6", 6, 3 },
		{ "open_random=1", 4, 1 },
		{ "seed=3", 4, 2 },
	};
	struct sim_params p;
	char err[256];
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		sim_params_default(&p);
		ck_assert_msg(!sim_parse_spec(&p, t[i].spec, err, sizeof(err)),
			      "'%s': %s", t[i].spec, err);
		ck_assert_uint_eq(p.open_au, t[i].open);
		ck_assert_uint_eq(p.open_random, t[i].open_random);
	}
}
END_TEST

static const struct {
	const char *spec;
	const char *key;	/* the message must name it */
	const char *val;	/* ... and this value */
} parse_bad[] = {
	{ "foo=1", "foo", "1" },
	{ "size", "size", NULL },
	{ "size=", "size", NULL },
	{ "size=abc", "size", "abc" },
	{ "size=0", "size", "0" },
	{ "size=99999999999G", "size", "99999999999G" },
	{ "size=8M", "size", "8M" },
	{ "size=12M,erase=4M", "size", "12M" },
	{ "size=15M,erase=4M", "size", "15M" },
	{ "size=8000000100", "size", "8000000100" },
	{ "erase=0", "erase", "0" },
	{ "erase=5M", "erase", "5M" },
	{ "erase=20M", "erase", "20M" },
	{ "erase=4M,page=8M", "erase", "4M" },
	{ "erase=96K,page=64K", "erase", "96K" },
	{ "page=0", "page", "0" },
	{ "page=1000", "page", "1000" },
	{ "page=256", "page", "256" },
	{ "page=16Q", "page", "16Q" },
	{ "open=0", "open", "0" },
	{ "open=x", "open", "x" },
	{ "open=-1", "open", "-1" },
	{ "open=99999999999", "open", "99999999999" },
	{ "open_random=5", "open_random", "5" },
	{ "open=2,open_random=3", "open_random", "3" },
	{ "fat=3000", "fat", "3000" },
	{ "fat_start=2048", "fat_start", "2048" },
	{ "noise=-1", "noise", "-1" },
	{ "noise=101", "noise", "101" },
	{ "noise=1%", "noise", "1%" },
	{ "noise=nan", "noise", "nan" },
	{ "seed=-1", "seed", "-1" },
	{ "seed=1.5", "seed", "1.5" },
	{ "read_mbps=0", "read_mbps", "0" },
	{ "write_mbps=-3", "write_mbps", "-3" },
	{ "access_us=inf", "access_us", "inf" },
	{ "page_us=-5", "page_us", "-5" },
	{ "fat_mbps=0", "fat_mbps", "0" },
	{ "fat_page=32K", "fat_page", "32K" },
	{ "fat_page=768", "fat_page", "768" },
	{ "fat_kind=fast", "fat_kind", "fast" },
	{ "fat_kind=", "fat_kind", NULL },
	{ "readsig=2", "readsig", "2" },
	{ "plane=3", "plane", "3" },
	{ "plane=0", "plane", "0" },
	{ "plane=128", "plane", "128" },
	{ "erase=64K,page=32K,plane=4", "plane", "4" },
	{ "plane_us=-1", "plane_us", "-1" },
	{ "group=1M", "group", "1M" },
	{ "group=1000000100", "group", "1000000100" },
	{ "group_us=x", "group_us", "x" },
	{ "au_spread=0", "au_spread", "0" },
	{ "au_spread=17", "au_spread", "17" },
	{ "erase=16K,page=4K,au_spread=8", "au_spread", "8" },
	{ "pause_pct=101", "pause_pct", "101" },
	{ "pause_us=1e9", "pause_us", "1e9" },
	{ "readahead=1G5", "readahead", "1G5" },
	{ "random_mbps=0", "random_mbps", "0" },
	{ "collapse=soft", "collapse", "soft" },
	{ "ooo=lazy", "ooo", "lazy" },
	{ "random_us=-1", "random_us", "-1" },
	{ "close=some", "close", "some" },
	{ "fullclose=2", "fullclose", "2" },
	{ "evict=mru", "evict", "mru" },
	{ "used=2", "used", "2" },
	{ "fat_gain=all", "fat_gain", "all" },
	{ "host=busy", "host", "busy" },
	{ "busy_pct=200", "busy_pct", "200" },
	{ "busy_us=1e8", "busy_us", "1e8" },
	{ "busy_burst=0.5", "busy_burst", "0.5" },
	{ "queue=1", "queue", "1" },
	{ "queue=33", "queue", "33" },
	{ "queue_cache=2,queue=4", "queue_cache", "2" },
	{ "queue_cache=1", "queue_cache", "1" },
	{ "cache_kind=aside", "cache_kind", "aside" },
	{ "open=4,,seed=1", "empty", NULL },
	{ "open=4,", "empty", NULL },
	/* a key given twice is a typo, not "the last one wins" (item 18) */
	{ "erase=4M,erase=8M", "erase given twice", "8M" },
	{ "seed=1,open=2,seed=1", "seed given twice", NULL },
};

START_TEST(test_parse_bad)
{
	struct sim_params p, before;
	char err[256];
	int ret;

	sim_params_default(&p);
	before = p;
	memset(err, 0, sizeof(err));
	ret = sim_parse_spec(&p, parse_bad[_i].spec, err, sizeof(err));
	ck_assert_msg(ret == -EINVAL, "'%s' accepted", parse_bad[_i].spec);
	ck_assert_msg(strstr(err, parse_bad[_i].key),
		      "'%s': message '%s' does not name '%s'",
		      parse_bad[_i].spec, err, parse_bad[_i].key);
	if (parse_bad[_i].val)
		ck_assert_msg(strstr(err, parse_bad[_i].val),
			      "'%s': message '%s' does not name value '%s'",
			      parse_bad[_i].spec, err, parse_bad[_i].val);
	ck_assert_ptr_null(strchr(err, '\n'));
	/* a rejected spec changes nothing */
	ck_assert_mem_eq(&p, &before, sizeof(p));
}
END_TEST

START_TEST(test_open_rejects_bad_params)
{
	struct sim_params p;
	struct device *dev = (struct device *)&p;

	sim_params_default(&p);
	p.erase_byte = 5 * MiB;
	ck_assert_int_eq(sim_open(&dev, &p), -EINVAL);
	ck_assert_ptr_null(dev);
	sim_params_default(&p);
	p.open_random = 5;
	ck_assert_int_eq(sim_open(&dev, &p), -EINVAL);
	sim_params_default(&p);
	p.fat_kind = 7;
	ck_assert_int_eq(sim_open(&dev, &p), -EINVAL);
	sim_params_default(&p);
	p.size_byte = 8 * GiB + 100;
	ck_assert_int_eq(sim_open(&dev, &p), -EINVAL);
}
END_TEST

/* ---- exact read costs ---- */

static const struct {
	const char *geometry;	/* added to T_SPEC */
	uint64_t off, len;
	unsigned int extra_pages;	/* pages beyond ceil(len / page) */
	unsigned int au_crossings;	/* AUs touched - 1 */
} read_cost[] = {
	/* page 16K, erase 4M */
	{ "", 16 * MiB, 16 * KiB, 0, 0 },		/* aligned */
	{ "", 16 * MiB + KiB, KiB, 0, 0 },		/* inside a page */
	{ "", 17 * MiB - 512, KiB, 1, 0 },		/* straddles a page */
	{ "", 16 * KiB - 512, KiB, 1, 0 },
	{ "", 9 * MiB - 8 * KiB, 16 * KiB, 1, 0 },	/* 16K unaligned */
	{ "", 32 * MiB + 16 * KiB, 32 * KiB, 0, 0 },	/* 2 whole pages */
	{ "", 4 * MiB - 512, KiB, 1, 1 },		/* straddles an AU */
	{ "", 12 * MiB - 16 * KiB, 32 * KiB, 0, 1 },	/* AU, whole pages */
	{ "", 2 * MiB, 12 * MiB, 0, 3 },		/* multi-AU */
	{ "", 0, 4 * MiB, 0, 0 },			/* one whole AU */
	{ "", 8 * GiB - 512, 512, 0, 0 },		/* last sector */
	/* SDXC-style 12M AUs with 8K pages: steps at 12M, not at 8M */
	{ ",erase=12M,page=8K,size=96M", 8 * MiB - 512, KiB, 1, 0 },
	{ ",erase=12M,page=8K,size=96M", 12 * MiB - 512, KiB, 1, 1 },
	{ ",erase=12M,page=8K,size=96M", 24 * MiB - 4 * KiB, 8 * KiB, 1, 1 },
	/* small AUs on a large card */
	{ ",size=64G,erase=128K,page=8K", 64 * GiB - 128 * KiB - 512, KiB,
	  1, 1 },
	{ ",size=64G,erase=128K,page=8K", 0, 1 * MiB, 0, 7 },
};

START_TEST(test_read_cost)
{
	char spec[256];
	struct device *dev;
	uint64_t want, got;

	snprintf(spec, sizeof(spec), "%s%s", T_SPEC, read_cost[_i].geometry);
	dev = sim_card(spec);
	want = T_ACCESS_NS + read_cost[_i].len * T_READ_NS_B +
	       read_cost[_i].extra_pages * T_PAGE_NS +
	       read_cost[_i].au_crossings * T_AU_NS;
	got = rd(dev, read_cost[_i].off, read_cost[_i].len);
	ck_assert_msg(got == want, "read %llu@%llu on '%s': %llu ns, want %llu",
		      (unsigned long long)read_cost[_i].len,
		      (unsigned long long)read_cost[_i].off, spec,
		      (unsigned long long)got, (unsigned long long)want);
	/* reads change no state: the same read costs the same again */
	ck_assert_uint_eq(rd(dev, read_cost[_i].off, read_cost[_i].len), want);
	dev_close(dev);
}
END_TEST

/* A fractional rate is rounded to the nearest ns, not truncated. */
START_TEST(test_read_cost_rounding)
{
	struct device *dev = sim_card("noise=0,access_us=0.0004,read_mbps=3");

	/* 0.4 ns + 512 * 1000 / 3 = 170667.07 ns */
	ck_assert_uint_eq(rd(dev, 0, 512), 170667);
	dev_close(dev);
}
END_TEST

/* ---- noise ---- */

/* Run a fixed mix of operations and record each op's time. */
static void mixed_ops(struct device *dev, uint64_t *t, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t au = 8 + (i * 7) % 5;
		uint64_t off = au * 4 * MiB + (i * 5 % 64) * 64 * KiB;

		switch (i % 4) {
		case 0:
			t[i] = rd(dev, off - 512, KiB);
			break;
		case 1:
		case 2:
			t[i] = wr(dev, off, 64 * KiB);
			break;
		case 3:
			t[i] = i % 8 == 3 ? dc(dev, off, 64 * KiB) :
			       rd(dev, off, 128 * KiB);
			break;
		}
	}
}

START_TEST(test_noise_seed)
{
	enum { N = 400 };
	static uint64_t a[N], b[N], c[N], z[N];
	struct device *dev;
	size_t i, differ = 0;

	dev = sim_card("noise=5,seed=7");
	mixed_ops(dev, a, N);
	dev_close(dev);
	dev = sim_card("noise=5,seed=7");
	mixed_ops(dev, b, N);
	dev_close(dev);
	dev = sim_card("noise=5,seed=8");
	mixed_ops(dev, c, N);
	dev_close(dev);
	dev = sim_card("noise=0");
	mixed_ops(dev, z, N);
	dev_close(dev);

	for (i = 0; i < N; i++) {
		ck_assert_uint_eq(a[i], b[i]);
		differ += a[i] != c[i];
		/* noise only adds, at most 2 * 5 %, around the exact cost */
		ck_assert_uint_ge(a[i], z[i]);
		ck_assert_uint_le(a[i], z[i] + z[i] / 10 + 1);
	}
	ck_assert_uint_ge(differ, N * 9 / 10);
}
END_TEST

/* Noise spreads over [1, 1 + 2 * noise) of the cost, mean 1 + noise. */
START_TEST(test_noise_spread)
{
	enum { N = 4000 };
	struct device *dev = sim_card("noise=10,seed=3,access_us=700,"
				      "read_mbps=25");
	const double base = T_ACCESS_NS + 16 * KiB * T_READ_NS_B;
	double sum = 0, min = 1e30, max = 0;
	size_t i;

	for (i = 0; i < N; i++) {
		double t = (double)rd(dev, i * 16 * KiB, 16 * KiB);

		sum += t;
		min = t < min ? t : min;
		max = t > max ? t : max;
	}
	ck_assert_double_ge(min, base);
	ck_assert_double_le(min, base * 1.005);
	ck_assert_double_le(max, base * 1.2);
	ck_assert_double_ge(max, base * 1.195);
	ck_assert_double_ge(sum / N, base * 1.095);
	ck_assert_double_le(sum / N, base * 1.105);
	dev_close(dev);
}
END_TEST

/* ---- writes ---- */

/* The classic open-AU test's AUs: every 12th from 16 MiB (AU 4). */
static uint64_t t_au(unsigned int i)
{
	return (4 + 12 * (uint64_t)i) * 4 * MiB;
}

/*
 * Write every chunk position of n AUs, each position into all n AUs in
 * turn, positions in order pos(k) = k * stride mod chunks (stride 1 is
 * linear).  Returns the total time; *exact counts writes that cost exactly
 * access + len / write_rate.
 */
static uint64_t walk(struct device *dev, unsigned int n, uint64_t chunk,
		     uint64_t stride, unsigned int *exact)
{
	uint64_t chunks = 4 * MiB / chunk, k, total = 0;
	unsigned int i;

	*exact = 0;
	for (k = 0; k < chunks; k++) {
		uint64_t pos = k * stride % chunks * chunk;

		for (i = 0; i < n; i++) {
			uint64_t t = wr(dev, t_au(i) + pos, chunk);

			total += t;
			*exact += t == T_ACCESS_NS + t_wr_ns(chunk);
		}
	}
	return total;
}

static const uint64_t open_chunk[] = { 16 * KiB, 64 * KiB, 512 * KiB };

START_TEST(test_write_open_linear)
{
	const uint64_t chunk = open_chunk[_i];
	const unsigned int nwrites = 4 * (4 * MiB / chunk);
	unsigned int exact;
	uint64_t fit, over;
	struct device *dev;

	dev = sim_card(T_SPEC ",open=4,open_random=2");
	fit = walk(dev, 4, chunk, 1, &exact);
	/* within the limit: not one write pays for GC */
	ck_assert_uint_eq(exact, nwrites);
	ck_assert_uint_eq(fit, nwrites * (T_ACCESS_NS + t_wr_ns(chunk)));
	/* a second round, over the data just written, likewise */
	fit = walk(dev, 4, chunk, 1, &exact);
	ck_assert_uint_eq(exact, nwrites);
	dev_close(dev);

	/* one AU more: every write evicts; per byte >= 4x slower */
	dev = sim_card(T_SPEC ",open=4,open_random=2");
	over = walk(dev, 5, chunk, 1, &exact);
	ck_assert_uint_ge(over / 5, 4 * (fit / 4));
	dev_close(dev);
}
END_TEST

START_TEST(test_write_open_random)
{
	unsigned int exact;
	uint64_t fit, over, lin;
	struct device *dev;

	/* 16K chunks in the order 0, 157, 58, ... (k * 157 mod 256) */
	dev = sim_card(T_SPEC ",open=4,open_random=2");
	fit = walk(dev, 2, 16 * KiB, 157, &exact);
	ck_assert_uint_eq(exact, 2 * 256);
	dev_close(dev);

	dev = sim_card(T_SPEC ",open=4,open_random=2");
	over = walk(dev, 3, 16 * KiB, 157, &exact);
	ck_assert_uint_ge(over / 3, 4 * (fit / 2));
	dev_close(dev);

	/* the same three AUs in linear order stay within open=4 */
	dev = sim_card(T_SPEC ",open=4,open_random=2");
	lin = walk(dev, 3, 16 * KiB, 1, &exact);
	ck_assert_uint_eq(exact, 3 * 256);
	ck_assert_uint_ge(over, 4 * lin);
	dev_close(dev);

	/* open_random=4: random order as good as linear for 3 AUs */
	dev = sim_card(T_SPEC ",open=4,open_random=4");
	walk(dev, 3, 16 * KiB, 157, &exact);
	ck_assert_uint_eq(exact, 3 * 256);
	dev_close(dev);
}
END_TEST

/* Eviction costs what the model says: the old data left, plus erase. */
START_TEST(test_write_gc_cost)
{
	struct device *dev = sim_card(T_SPEC ",open=4,open_random=2");
	const uint64_t one = T_ACCESS_NS + t_wr_ns(64 * KiB);
	unsigned int i;

	for (i = 0; i < 4; i++)
		ck_assert_uint_eq(wr(dev, t_au(i), 64 * KiB), one);
	/* AU 0 is least recently used: copy its other 4M - 64K */
	ck_assert_uint_eq(wr(dev, t_au(4), 64 * KiB),
			  one + t_wr_ns(4 * MiB - 64 * KiB) + T_ERASE_NS);
	/* a write below the pointer of AU 1 turns it random: no cost yet */
	ck_assert_uint_eq(wr(dev, t_au(1) + 1 * MiB, 64 * KiB), one);
	ck_assert_uint_eq(wr(dev, t_au(1) + 512 * KiB, 64 * KiB), one);
	ck_assert_uint_eq(wr(dev, t_au(2) + 1 * MiB, 64 * KiB), one);
	ck_assert_uint_eq(wr(dev, t_au(2) + 512 * KiB, 64 * KiB), one);
	/* a third random AU closes random AU 1: a whole-AU copy */
	ck_assert_uint_eq(wr(dev, t_au(3) + 1 * MiB, 64 * KiB), one);
	ck_assert_uint_eq(wr(dev, t_au(3) + 512 * KiB, 64 * KiB),
			  one + t_wr_ns(4 * MiB) + T_ERASE_NS);
	/* a whole-AU write takes no slot and copies nothing */
	ck_assert_uint_eq(wr(dev, t_au(9), 4 * MiB),
			  T_ACCESS_NS + t_wr_ns(4 * MiB));
	/* two whole AUs in one write: one access, no slot */
	ck_assert_uint_eq(wr(dev, t_au(10), 8 * MiB),
			  T_ACCESS_NS + t_wr_ns(8 * MiB));
	/*
	 * Half of AU 12 and half of AU 13: AU 12 takes the free slot, AU 13
	 * closes AU 4, least recently used, which holds 64K of new data.
	 */
	ck_assert_uint_eq(wr(dev, t_au(12) - 2 * MiB, 4 * MiB),
			  T_ACCESS_NS + t_wr_ns(4 * MiB) +
			  t_wr_ns(4 * MiB - 64 * KiB) + T_ERASE_NS);
	dev_close(dev);
}
END_TEST

/* Writes smaller than a page cost a whole page; gently, per byte. */
START_TEST(test_write_small)
{
	struct device *dev = sim_card("noise=0");
	uint64_t t16, t4, tbig, total = 0, k;

	t16 = wr(dev, t_au(0), 16 * KiB);
	t4 = wr(dev, t_au(0) + 16 * KiB, 4 * KiB);
	ck_assert_uint_eq(t4, t16);
	ck_assert_uint_lt(wr(dev, t_au(0) + 32 * KiB, 32 * KiB), 2 * t16);
	dev_close(dev);

	dev = sim_card("noise=0");
	tbig = wr(dev, t_au(1), 4 * MiB);
	for (k = 0; k < 4 * MiB; k += 16 * KiB)
		total += wr(dev, t_au(2) + k, 16 * KiB);
	/* 16K writes reach more than half the speed of 4M ones */
	ck_assert_uint_lt(total, 2 * tbig);
	ck_assert_uint_gt(total, tbig);
	dev_close(dev);
}
END_TEST

/* Time to write AU au completely in chunks of len, linearly. */
static uint64_t fill_au(struct device *dev, uint64_t au, uint64_t len)
{
	uint64_t k, total = 0;

	for (k = 0; k < 4 * MiB; k += len)
		total += wr(dev, au * 4 * MiB + k, len);
	return total;
}

START_TEST(test_write_fat)
{
	static const uint64_t sizes[] = { 4 * MiB, 256 * KiB, 16 * KiB,
					  4 * KiB, 512 };
	struct device *dev = sim_card(T_SPEC ",fat=2,fat_start=3");
	unsigned int i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint64_t n = 4 * MiB / sizes[i], prog = sizes[i];
		uint64_t fat, plain, before, after;

		before = fill_au(dev, 2, sizes[i]);
		fat = fill_au(dev, 3, sizes[i]);
		ck_assert_uint_eq(fill_au(dev, 4, sizes[i]), fat);
		after = fill_au(dev, 5, sizes[i]);
		ck_assert_uint_eq(before, after);
		plain = before;
		ck_assert_uint_eq(fat, n * (T_ACCESS_NS + t_fat_ns(sizes[i])));
		if (prog < 16 * KiB)
			prog = 16 * KiB;
		ck_assert_uint_eq(plain, n * (T_ACCESS_NS + t_wr_ns(prog)));
		/* stands out: ~2x at 4M, clearly at the page size */
		ck_assert_uint_lt(fat * 10, plain * 8);
	}

	/* FAT AUs take no open slot: 4 plain + 2 FAT AUs without GC */
	for (i = 0; i < 64; i++) {
		uint64_t k = i * 64 * KiB;

		ck_assert_uint_eq(wr(dev, 3 * 4 * MiB + k, 64 * KiB),
				  T_ACCESS_NS + t_fat_ns(64 * KiB));
		ck_assert_uint_eq(wr(dev, 4 * 4 * MiB + k, 64 * KiB),
				  T_ACCESS_NS + t_fat_ns(64 * KiB));
		ck_assert_uint_eq(wr(dev, t_au(1) + k, 64 * KiB),
				  T_ACCESS_NS + t_wr_ns(64 * KiB));
		ck_assert_uint_eq(wr(dev, t_au(2) + k, 64 * KiB),
				  T_ACCESS_NS + t_wr_ns(64 * KiB));
		ck_assert_uint_eq(wr(dev, t_au(3) + k, 64 * KiB),
				  T_ACCESS_NS + t_wr_ns(64 * KiB));
		ck_assert_uint_eq(wr(dev, t_au(4) + k, 64 * KiB),
				  T_ACCESS_NS + t_wr_ns(64 * KiB));
	}
	dev_close(dev);
}
END_TEST

START_TEST(test_discard)
{
	struct device *dev = sim_card(T_SPEC ",open=1,open_random=1");
	const uint64_t one = T_ACCESS_NS + t_wr_ns(64 * KiB);
	const uint64_t half = T_ACCESS_NS + t_wr_ns(2 * MiB);

	/* a discard costs a small fixed time, whatever its length */
	ck_assert_uint_eq(dc(dev, t_au(0), 4 * MiB),
			  T_ACCESS_NS + T_DISCARD_NS);
	ck_assert_uint_eq(dc(dev, 0, 8 * GiB), T_ACCESS_NS + T_DISCARD_NS);

	/* every AU erased: switching AUs with open=1 copies nothing */
	ck_assert_uint_eq(wr(dev, t_au(0), 64 * KiB), one);
	ck_assert_uint_eq(wr(dev, t_au(1), 64 * KiB), one);
	ck_assert_uint_eq(wr(dev, t_au(2), 64 * KiB), one);
	/* AU 0 now holds 64K: reopening and closing it copies just that */
	ck_assert_uint_eq(wr(dev, t_au(0) + 1 * MiB, 64 * KiB), one);
	ck_assert_uint_eq(wr(dev, t_au(3), 64 * KiB),
			  one + t_wr_ns(64 * KiB) + T_ERASE_NS);
	dev_close(dev);

	/* a used AU: half written, then closed: the other half is copied */
	dev = sim_card(T_SPEC ",open=1,open_random=1");
	ck_assert_uint_eq(wr(dev, t_au(0), 2 * MiB), half);
	ck_assert_uint_eq(wr(dev, t_au(1), 64 * KiB),
			  one + t_wr_ns(2 * MiB) + T_ERASE_NS);
	/* the same after discarding AU 2 first: nothing to copy */
	dc(dev, t_au(2), 4 * MiB);
	ck_assert_uint_eq(wr(dev, t_au(2), 2 * MiB),
			  half + t_wr_ns(4 * MiB - 64 * KiB) + T_ERASE_NS);
	ck_assert_uint_eq(wr(dev, t_au(1) + 2 * MiB, 64 * KiB), one);
	/* discarding the tail of AU 3 leaves only [1M, 3M) to copy */
	dc(dev, t_au(3) + 3 * MiB, 1 * MiB);
	ck_assert_uint_eq(wr(dev, t_au(3), 1 * MiB),
			  T_ACCESS_NS + t_wr_ns(1 * MiB) +
			  t_wr_ns(4 * MiB - 64 * KiB) + T_ERASE_NS);
	ck_assert_uint_eq(wr(dev, t_au(4), 64 * KiB),
			  one + t_wr_ns(2 * MiB) + T_ERASE_NS);
	/* a discard inside an AU (not its tail) erases nothing */
	dc(dev, t_au(5) + 1 * MiB, 1 * MiB);
	ck_assert_uint_eq(wr(dev, t_au(5), 64 * KiB),
			  one + t_wr_ns(4 * MiB - 64 * KiB) + T_ERASE_NS);
	/* discard then write the whole AU: access + transfer, no copy */
	dc(dev, t_au(6), 4 * MiB);
	ck_assert_uint_eq(wr(dev, t_au(6), 4 * MiB),
			  T_ACCESS_NS + t_wr_ns(4 * MiB));
	/* closing AU 5 copies all but its 64K: the discard dropped nothing */
	ck_assert_uint_eq(wr(dev, t_au(7), 64 * KiB),
			  one + t_wr_ns(4 * MiB - 64 * KiB) + T_ERASE_NS);
	dev_close(dev);
}
END_TEST

/* ---- bad operations ---- */

static const struct {
	const char *op;
	int64_t off;
	uint64_t len;
} bad_ops[] = {
	{ "read", 100, 512 },
	{ "read", 0, 1000 },
	{ "read", 8 * GiB - 512, 1024 },
	{ "read", 8 * GiB, 512 },
	{ "read", -512, 512 },
	{ "read", 0, 0 },
	{ "write", 4 * MiB + 1, 4096 },
	{ "write", 4 * MiB, 4095 },
	{ "write", 8 * GiB - 4096, 8192 },
	{ "write", 16 * GiB, 512 },
	{ "discard", 511, 512 },
	{ "discard", 0, 8 * GiB + 512 },
	{ "discard", 4096, UINT64_MAX - 511 },
};

START_TEST(test_bad_ops)
{
	struct device *dev = sim_card(NULL);
	void *buf = dev_alloc_buf(16 * KiB);
	uint64_t t = 12345, now = dev_now_ns(dev);
	size_t len = (size_t)bad_ops[_i].len;
	off_t off = (off_t)bad_ops[_i].off;
	int ret;

	if (!strcmp(bad_ops[_i].op, "read"))
		ret = dev_read(dev, buf, len, off, &t);
	else if (!strcmp(bad_ops[_i].op, "write"))
		ret = dev_write(dev, buf, len, off, &t);
	else
		ret = dev_discard(dev, off, bad_ops[_i].len, &t);
	ck_assert_int_eq(ret, -EINVAL);
	ck_assert_str_eq(dev->last_error.op, bad_ops[_i].op);
	ck_assert_int_eq(dev->last_error.off_byte, off);
	ck_assert_uint_eq(dev->last_error.len_byte, bad_ops[_i].len);
	ck_assert_int_eq(dev->last_error.err, EINVAL);
	/* a refused operation takes no time */
	ck_assert_uint_eq(t, 0);
	ck_assert_uint_eq(dev_now_ns(dev), now);
	dev_free_buf(buf);
	dev_close(dev);
}
END_TEST

/* Large cards and extreme AU sizes open, work and stay cheap to model. */
START_TEST(test_large_cards)
{
	static const char *const specs[] = {
		"size=64G,erase=128K,page=8K,noise=0",
		"size=64G,erase=64M,page=64K,noise=0",
		"size=48G,erase=24M,page=16K,noise=0",
		"size=256G,erase=16M,page=32K,open=30,open_random=20,noise=0",
	};
	size_t i;

	for (i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		struct device *dev = sim_card(specs[i]);
		uint64_t size = dev->size_byte, k;

		ck_assert_uint_eq(dev->logical_block_size, 512);
		ck_assert_uint_gt(rd(dev, size - 512, 512), 0);
		for (k = 0; k < 2000; k++)
			wr(dev, (k * 7919 % 1000) * (size / 1000) / 512 * 512,
			   4096);
		ck_assert_uint_gt(wr(dev, size - 4096, 4096), 0);
		ck_assert_uint_gt(dc(dev, 0, size), 0);
		dev_close(dev);
	}
}
END_TEST

/* ---- what real cards do (issue 11) ---- */

/*
 * The align test's signature at a boundary: a read of bs bytes across it
 * against the mean of the reads just before and just after it.
 */
static int64_t step_at(struct device *dev, uint64_t boundary, uint64_t bs)
{
	int64_t pre = (int64_t)rd(dev, boundary - bs, bs);
	int64_t on = (int64_t)rd(dev, boundary - bs / 2, bs);
	int64_t post = (int64_t)rd(dev, boundary, bs);

	return on - (pre + post) / 2;
}

/* readsig=0 (eMMC, USB bridges): every position costs the same. */
START_TEST(test_readsig_off)
{
	struct device *sig = sim_card(T_SPEC);
	struct device *dev = sim_card(T_SPEC ",readsig=0");
	const uint64_t flat = T_ACCESS_NS + KiB * T_READ_NS_B;
	uint64_t align;

	for (align = 2 * KiB; align <= 2 * GiB; align <<= 1) {
		/* an odd multiple: aligned to align and to nothing larger */
		uint64_t b = 3 * align;

		ck_assert_int_eq(step_at(dev, b, KiB), 0);
		ck_assert_uint_eq(rd(dev, b - 512, KiB), flat);
		/* the same card with its signature shows the steps */
		if (align >= 16 * KiB)
			ck_assert_int_ge(step_at(sig, b, KiB),
					 (int64_t)T_PAGE_NS);
	}
	ck_assert_int_eq(step_at(sig, 12 * MiB, KiB),
			 (int64_t)(T_PAGE_NS + T_AU_NS));
	/* a read across an AU costs no more than one inside an AU */
	ck_assert_uint_eq(rd(dev, 4 * MiB - 16 * KiB, 32 * KiB),
			  T_ACCESS_NS + 32 * KiB * T_READ_NS_B);
	dev_close(sig);
	dev_close(dev);
}
END_TEST

/* Fill AU au (4 MiB) in 4 KiB writes, linearly or in a scrambled order. */
static uint64_t fill_4k(struct device *dev, uint64_t au, bool random)
{
	uint64_t k, total = 0;

	for (k = 1; k <= 1024; k++) {
		uint64_t pos = random ? k * 389 % 1024 : k - 1;

		total += wr(dev, au * 4 * MiB + pos * 4 * KiB, 4 * KiB);
	}
	return total;
}

/* Time to fill AU au of a fresh card of spec in 4K writes. */
static uint64_t fresh_fill_4k(const char *kind, uint64_t au, bool random)
{
	char spec[256];
	struct device *dev;
	uint64_t t;

	snprintf(spec, sizeof(spec), "%s,access_us=0,fat=2,fat_start=3%s",
		 T_SPEC_NO_ACCESS, kind);
	dev = sim_card(spec);
	t = fill_4k(dev, au, random);
	dev_close(dev);
	return t;
}

/*
 * fat_kind: the FAT area is faster in linear writes (-f), in random-order
 * small writes (-f --random), or both.  Outside its kind a FAT AU is
 * written like any other.  4K writes cost a 16K page in plain AUs and
 * 4K at twice the rate in FAT AUs (fat_page=512).
 */
START_TEST(test_fat_kind)
{
	const uint64_t plain = 1024 * t_wr_ns(16 * KiB);
	const uint64_t fast = 1024 * t_fat_ns(4 * KiB);
	/* the write at the AU's start counts as in order */
	const uint64_t one_plain = t_wr_ns(16 * KiB), one_fast = t_fat_ns(4 * KiB);

	ck_assert_uint_eq(fresh_fill_4k("", 2, false), plain);
	ck_assert_uint_eq(fresh_fill_4k("", 2, true), plain);
	ck_assert_uint_eq(fresh_fill_4k("", 3, false), fast);
	ck_assert_uint_eq(fresh_fill_4k("", 3, true), fast);
	ck_assert_uint_eq(fresh_fill_4k(",fat_kind=both", 4, true), fast);

	ck_assert_uint_eq(fresh_fill_4k(",fat_kind=linear", 3, false), fast);
	ck_assert_uint_eq(fresh_fill_4k(",fat_kind=linear", 4, true),
			  plain - one_plain + one_fast);
	ck_assert_uint_eq(fresh_fill_4k(",fat_kind=linear", 5, true), plain);

	ck_assert_uint_eq(fresh_fill_4k(",fat_kind=random", 3, false), plain);
	ck_assert_uint_eq(fresh_fill_4k(",fat_kind=random", 4, true),
			  fast - one_fast + one_plain);
	ck_assert_uint_eq(fresh_fill_4k(",fat_kind=random", 2, true), plain);
}
END_TEST

/*
 * fat_kind=random on the card's history: random-order FAT writes take no
 * open slot, while those of fat_kind=linear do and so evict and copy.
 */
START_TEST(test_fat_kind_slots)
{
	struct device *dev;
	uint64_t t_lin, t_rnd;

	/* open_random=1: a FAT AU in random mode and a plain one collide */
	dev = sim_card(T_SPEC ",open=4,open_random=1,fat=1,fat_start=3,"
		       "fat_kind=random");
	fill_4k(dev, 2, true);
	t_rnd = fill_4k(dev, 3, true) + fill_4k(dev, 5, true);
	dev_close(dev);
	dev = sim_card(T_SPEC ",open=4,open_random=1,fat=1,fat_start=3,"
		       "fat_kind=linear");
	fill_4k(dev, 2, true);
	t_lin = fill_4k(dev, 3, true) + fill_4k(dev, 5, true);
	dev_close(dev);
	/* the linear kind pays at least two whole-AU copies more */
	ck_assert_uint_ge(t_lin, t_rnd + 2 * (t_wr_ns(4 * MiB) + T_ERASE_NS));
}
END_TEST

/* The FAT area may start anywhere and span many AUs. */
START_TEST(test_fat_start)
{
	static const unsigned int area[][2] = {
		{ 0, 1 }, { 0, 8 }, { 1, 2 }, { 2, 6 }, { 5, 4 }, { 8, 1 },
		{ 8, 8 }, { 12, 9 },
	};
	const uint64_t plain = 64 * (T_ACCESS_NS + t_wr_ns(64 * KiB));
	const uint64_t fat = 64 * (T_ACCESS_NS + t_fat_ns(64 * KiB));
	unsigned int start = area[_i][0], nr = area[_i][1];
	struct device *dev;
	char spec[256];
	uint64_t au;

	snprintf(spec, sizeof(spec), "%s,fat=%u,fat_start=%u", T_SPEC, nr,
		 start);
	dev = sim_card(spec);
	for (au = 0; au < start + nr + 3; au++)
		ck_assert_msg(fill_au(dev, au, 64 * KiB) ==
			      (au >= start && au < start + nr ? fat : plain),
			      "%s: AU %llu", spec, (unsigned long long)au);
	dev_close(dev);
}
END_TEST

/* open_random=0: every out-of-order write merges the AU (a copy). */
START_TEST(test_open_random_zero)
{
	const uint64_t one = T_ACCESS_NS + t_wr_ns(64 * KiB);
	unsigned int exact;
	uint64_t fit, over;
	struct device *dev;

	dev = sim_card(T_SPEC ",open=4,open_random=0");
	/* forward, even with a gap, is in order */
	ck_assert_uint_eq(wr(dev, t_au(0), 64 * KiB), one);
	ck_assert_uint_eq(wr(dev, t_au(0) + 1 * MiB, 64 * KiB), one);
	/* back: the AU is merged (all but the 128K rewritten) and reopened */
	ck_assert_uint_eq(wr(dev, t_au(0) + 512 * KiB, 64 * KiB),
			  one + t_wr_ns(4 * MiB - 128 * KiB) + T_ERASE_NS);
	ck_assert_uint_eq(wr(dev, t_au(0) + 256 * KiB, 64 * KiB),
			  one + t_wr_ns(4 * MiB - 64 * KiB) + T_ERASE_NS);
	dev_close(dev);
	/* linear order is as good as ever */
	dev = sim_card(T_SPEC ",open=4,open_random=0");
	walk(dev, 4, 16 * KiB, 1, &exact);
	ck_assert_uint_eq(exact, 4 * 256);
	dev_close(dev);

	/* one AU in random order is already too many */
	dev = sim_card(T_SPEC ",open=4,open_random=1");
	fit = walk(dev, 1, 16 * KiB, 157, &exact);
	ck_assert_uint_eq(exact, 256);
	dev_close(dev);
	dev = sim_card(T_SPEC ",open=4,open_random=0");
	over = walk(dev, 1, 16 * KiB, 157, &exact);
	ck_assert_uint_le(exact, 256 / 2);
	ck_assert_uint_ge(over, 20 * fit);
	dev_close(dev);
}
END_TEST

/* A card that ends with part of an AU: 8 AUs of 12M and one of 4M. */
START_TEST(test_partial_au)
{
	struct device *dev;
	uint64_t k;

	/* AU 0 is the FAT area: the test writes from AU 1 on */
	dev = sim_card(T_SPEC ",size=100M,erase=12M,open=1");
	ck_assert_uint_eq(dev->size_byte, 100 * MiB);
	ck_assert_uint_eq(rd(dev, 100 * MiB - 512, 512),
			  T_ACCESS_NS + 512 * T_READ_NS_B);
	/* the last AU starts at 96M like any other */
	ck_assert_uint_eq(rd(dev, 96 * MiB - 512, KiB),
			  T_ACCESS_NS + KiB * T_READ_NS_B + T_PAGE_NS + T_AU_NS);
	/* written whole in one go: no slot, no copy */
	ck_assert_uint_eq(wr(dev, 96 * MiB, 4 * MiB),
			  T_ACCESS_NS + t_wr_ns(4 * MiB));
	/* a part of it, then another AU: the other 3M of it are copied */
	ck_assert_uint_eq(wr(dev, 96 * MiB, 1 * MiB),
			  T_ACCESS_NS + t_wr_ns(1 * MiB));
	ck_assert_uint_eq(wr(dev, 12 * MiB, 64 * KiB),
			  T_ACCESS_NS + t_wr_ns(64 * KiB) +
			  t_wr_ns(3 * MiB) + T_ERASE_NS);
	/* in random order it is copied whole: its 4M */
	ck_assert_uint_eq(wr(dev, 97 * MiB, 64 * KiB),
			  T_ACCESS_NS + t_wr_ns(64 * KiB) +
			  t_wr_ns(12 * MiB - 64 * KiB) + T_ERASE_NS);
	wr(dev, 96 * MiB, 64 * KiB);
	ck_assert_uint_eq(wr(dev, 24 * MiB, 64 * KiB),
			  T_ACCESS_NS + t_wr_ns(64 * KiB) +
			  t_wr_ns(4 * MiB) + T_ERASE_NS);
	/* filled in order piece by piece: closes at no cost */
	for (k = 0; k < 4 * MiB; k += 64 * KiB)
		wr(dev, 96 * MiB + k, 64 * KiB);
	ck_assert_uint_eq(wr(dev, 36 * MiB, 12 * MiB),
			  T_ACCESS_NS + t_wr_ns(12 * MiB));
	ck_assert_uint_eq(wr(dev, 36 * MiB, 64 * KiB),
			  T_ACCESS_NS + t_wr_ns(64 * KiB));
	/* its tail discarded: closing it copies only [1M, 2M) */
	dc(dev, 98 * MiB, 2 * MiB);
	ck_assert_uint_eq(wr(dev, 96 * MiB, 1 * MiB),
			  T_ACCESS_NS + t_wr_ns(1 * MiB) +
			  t_wr_ns(12 * MiB - 64 * KiB) + T_ERASE_NS);
	ck_assert_uint_eq(wr(dev, 48 * MiB, 64 * KiB),
			  T_ACCESS_NS + t_wr_ns(64 * KiB) +
			  t_wr_ns(1 * MiB) + T_ERASE_NS);
	dev_close(dev);

	/* the default size follows the erase size; AUs of 3 * 2^n work */
	dev = sim_card("erase=12M");
	ck_assert_uint_eq(dev->size_byte, 682 * 12 * MiB);
	ck_assert_uint_gt(rd(dev, dev->size_byte - 512, 512), 0);
	dev_close(dev);
	dev = sim_card("erase=24M,page=32K");
	ck_assert_uint_eq(dev->size_byte, 341 * 24 * MiB);
	dev_close(dev);
}
END_TEST

/*
 * plane=4 (multi-plane access): two steps, at the page and at 4 pages, as
 * the tables of real cards in real-tables/ show (4K page, 16K unit).
 */
START_TEST(test_plane)
{
	struct device *dev = sim_card(T_SPEC ",page=4K,plane=4,plane_us=80");
	struct device *one = sim_card(T_SPEC ",page=4K");
	const int64_t page = T_PAGE_NS, plane = 80000;

	/* a 2K read across 16K costs more than one across 4K only */
	ck_assert_int_eq(step_at(dev, 48 * KiB, 2 * KiB), page + plane);
	ck_assert_int_eq(step_at(dev, 24 * KiB, 2 * KiB), page);
	ck_assert_int_eq(step_at(dev, 12 * KiB, 2 * KiB), page);
	ck_assert_int_eq(step_at(dev, 6 * KiB, 2 * KiB), 0);
	ck_assert_int_eq(step_at(dev, 12 * MiB, 2 * KiB),
			 page + plane + (int64_t)T_AU_NS);
	/* whole pages across a plane unit pay the plane step alone */
	ck_assert_uint_eq(rd(dev, 12 * KiB, 8 * KiB),
			  T_ACCESS_NS + 8 * KiB * T_READ_NS_B + plane);
	ck_assert_uint_eq(rd(dev, 16 * KiB, 16 * KiB),
			  T_ACCESS_NS + 16 * KiB * T_READ_NS_B);
	/* plane=1 (the default): one step only */
	ck_assert_int_eq(step_at(one, 48 * KiB, 2 * KiB), page);
	dev_close(one);
	dev_close(dev);
}
END_TEST

/* group=2G: a third step far above the AU (the Gentoo PQI table). */
START_TEST(test_group)
{
	struct device *dev = sim_card(T_SPEC ",size=16G,group=2G,group_us=300");
	const int64_t au = T_PAGE_NS + T_AU_NS;

	ck_assert_int_eq(step_at(dev, 6 * GiB, KiB), au + 300000);
	ck_assert_int_eq(step_at(dev, 2 * GiB, KiB), au + 300000);
	ck_assert_int_eq(step_at(dev, 3 * GiB, KiB), au);
	ck_assert_int_eq(step_at(dev, 12 * MiB, KiB), au);
	dev_close(dev);
	/* without a group, 2G is an AU boundary like any other */
	dev = sim_card(T_SPEC ",size=16G");
	ck_assert_int_eq(step_at(dev, 6 * GiB, KiB), au);
	dev_close(dev);
}
END_TEST

/* au_spread=4: the AU step ramps up over 4 rows instead of one. */
START_TEST(test_au_spread)
{
	struct device *dev = sim_card(T_SPEC ",au_spread=4");
	const int64_t page = T_PAGE_NS, au = T_AU_NS;

	ck_assert_int_eq(step_at(dev, 3 * 8 * MiB, KiB), page + au);
	ck_assert_int_eq(step_at(dev, 3 * 4 * MiB, KiB), page + au);
	ck_assert_int_eq(step_at(dev, 3 * 2 * MiB, KiB), page + au * 3 / 4);
	ck_assert_int_eq(step_at(dev, 3 * 1 * MiB, KiB), page + au / 2);
	ck_assert_int_eq(step_at(dev, 3 * 512 * KiB, KiB), page + au / 4);
	ck_assert_int_eq(step_at(dev, 3 * 256 * KiB, KiB), page);
	dev_close(dev);
	/* au_spread=1 (the default): one sharp step */
	dev = sim_card(T_SPEC ",au_spread=1");
	ck_assert_int_eq(step_at(dev, 3 * 4 * MiB, KiB), page + au);
	ck_assert_int_eq(step_at(dev, 3 * 2 * MiB, KiB), page);
	dev_close(dev);
}
END_TEST

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * pause_pct=10,pause_us=2000: one request in ten takes 2 ms or more
 * longer, a few many times more (Pareto); the rest are exact.
 */
START_TEST(test_pauses)
{
	enum { N = 4000 };
	static uint64_t a[N], b[N], extra[N];
	const uint64_t base = T_ACCESS_NS + 16 * KiB * T_READ_NS_B;
	struct device *dev;
	size_t i, n = 0;

	dev = sim_card(T_SPEC ",pause_pct=10,pause_us=2000,seed=5");
	for (i = 0; i < N; i++) {
		a[i] = rd(dev, i * 16 * KiB, 16 * KiB);
		ck_assert_uint_ge(a[i], base);
		if (a[i] > base)
			extra[n++] = a[i] - base;
	}
	dev_close(dev);
	ck_assert_uint_ge(n, N * 8 / 100);
	ck_assert_uint_le(n, N * 12 / 100);
	qsort(extra, n, sizeof(extra[0]), cmp_u64);
	/* never less than the scale; median 2^(2/3) of it; a long tail */
	ck_assert_uint_ge(extra[0], 2000000);
	ck_assert_uint_ge(extra[n / 2], 2800000);
	ck_assert_uint_le(extra[n / 2], 3600000);
	ck_assert_uint_ge(extra[n - 1], 10 * 2000000);

	/* the same seed pauses the same requests; another seed others */
	dev = sim_card(T_SPEC ",pause_pct=10,pause_us=2000,seed=5");
	for (i = 0; i < N; i++)
		ck_assert_uint_eq(rd(dev, i * 16 * KiB, 16 * KiB), a[i]);
	dev_close(dev);
	dev = sim_card(T_SPEC ",pause_pct=10,pause_us=2000,seed=6");
	for (i = n = 0; i < N; i++)
		n += rd(dev, i * 16 * KiB, 16 * KiB) != a[i];
	ck_assert_uint_ge(n, N / 10);
	dev_close(dev);

	/* pauses leave the noise as it was: pause_pct=0 changes nothing */
	dev = sim_card("noise=5,seed=7");
	mixed_ops(dev, a, N / 10);
	dev_close(dev);
	dev = sim_card("noise=5,seed=7,pause_pct=0,pause_us=9000");
	mixed_ops(dev, b, N / 10);
	dev_close(dev);
	ck_assert_mem_eq(a, b, N / 10 * sizeof(a[0]));
}
END_TEST

/*
 * readahead=64K (USB sticks): a read just after the previous one comes
 * from the buffer: half the access time, no flash read.  In the align
 * test that is `post`, never `pre` or `on`.
 */
START_TEST(test_readahead)
{
	struct device *dev = sim_card(T_SPEC ",readahead=64K");
	const uint64_t miss = T_ACCESS_NS + 4 * KiB * T_READ_NS_B;
	const uint64_t hit = T_ACCESS_NS / 2 + 4 * KiB * T_READ_NS_B;
	const uint64_t k1 = T_ACCESS_NS + KiB * T_READ_NS_B;
	const uint64_t b = 12 * MiB;

	ck_assert_uint_eq(rd(dev, 1 * MiB, 4 * KiB), miss);
	ck_assert_uint_eq(rd(dev, 1 * MiB + 4 * KiB, 4 * KiB), hit);
	/* up to 64K past the end of the last read */
	ck_assert_uint_eq(rd(dev, 1 * MiB + 68 * KiB, 4 * KiB), hit);
	ck_assert_uint_eq(rd(dev, 1 * MiB + 200 * KiB, 4 * KiB), miss);
	/* going back misses, and a read again of the same block too */
	ck_assert_uint_eq(rd(dev, 1 * MiB, 4 * KiB), miss);
	ck_assert_uint_eq(rd(dev, 48 * KiB - 4 * KiB, 4 * KiB), miss);
	ck_assert_uint_eq(rd(dev, 48 * KiB - 4 * KiB, 4 * KiB), miss);
	/* the align test: pre and on from the flash, post from the buffer */
	ck_assert_uint_eq(rd(dev, b - KiB, KiB), k1);
	ck_assert_uint_eq(rd(dev, b - KiB, KiB), k1);
	ck_assert_uint_eq(rd(dev, b - 512, KiB),
			  k1 + T_PAGE_NS + T_AU_NS);
	ck_assert_uint_eq(rd(dev, b - 512, KiB),
			  k1 + T_PAGE_NS + T_AU_NS);
	ck_assert_uint_eq(rd(dev, b, KiB), k1 - T_ACCESS_NS / 2);
	ck_assert_uint_eq(rd(dev, b, KiB), k1 - T_ACCESS_NS / 2);
	/* a write empties the buffer */
	rd(dev, 2 * MiB, 4 * KiB);
	wr(dev, 40 * MiB, 4 * KiB);
	ck_assert_uint_eq(rd(dev, 2 * MiB + 4 * KiB, 4 * KiB), miss);
	dev_close(dev);
}
END_TEST

/*
 * random_mbps=4: inside an open AU, a write out of sequence programs at
 * 4 MB/s, one beyond the pointer or right after the last write at the
 * linear rate (seed 004's -p random columns).
 */
START_TEST(test_random_mbps)
{
	struct device *dev = sim_card(T_SPEC ",random_mbps=4");
	const uint64_t lin = T_ACCESS_NS + t_wr_ns(64 * KiB);
	const uint64_t rnd = T_ACCESS_NS + 64 * KiB * 250;
	unsigned int exact;
	uint64_t k, t;

	ck_assert_uint_eq(wr(dev, t_au(0), 64 * KiB), lin);
	ck_assert_uint_eq(wr(dev, t_au(0) + 1 * MiB, 64 * KiB), lin);
	ck_assert_uint_eq(wr(dev, t_au(0) + 512 * KiB, 64 * KiB), rnd);
	ck_assert_uint_eq(wr(dev, t_au(0) + 576 * KiB, 64 * KiB), lin);
	ck_assert_uint_eq(wr(dev, t_au(0) + 256 * KiB, 64 * KiB), rnd);
	ck_assert_uint_eq(wr(dev, t_au(0) + 2 * MiB, 64 * KiB), lin);
	/* a linear pass over the AU now in random mode: linear again */
	ck_assert_uint_eq(wr(dev, t_au(0), 64 * KiB), rnd);
	for (k = 64 * KiB; k < 4 * MiB; k += 64 * KiB)
		ck_assert_uint_eq(wr(dev, t_au(0) + k, 64 * KiB), lin);
	dev_close(dev);

	/* a scrambled order of one AU: nearly all at the random rate */
	dev = sim_card(T_SPEC ",random_mbps=4");
	t = walk(dev, 1, 64 * KiB, 37, &exact);
	ck_assert_uint_le(exact, 64 / 4);
	ck_assert_uint_ge(t, 3 * 64 * lin);
	dev_close(dev);
}
END_TEST

/*
 * collapse=gradual: one AU over the limit goes through a log and costs
 * twice the programming; two over evict and copy, as a sharp card does.
 */
START_TEST(test_collapse_gradual)
{
	const char *spec = T_SPEC ",open=4,open_random=4,collapse=gradual";
	const uint64_t one = T_ACCESS_NS + t_wr_ns(16 * KiB);
	const uint64_t n5 = 5 * 256;
	unsigned int exact;
	uint64_t fit, over1, over2, sharp1;
	struct device *dev;

	dev = sim_card(spec);
	fit = walk(dev, 4, 16 * KiB, 1, &exact);
	ck_assert_uint_eq(exact, 4 * 256);
	dev_close(dev);
	/* the first 4 writes and the last 4 (AUs closing) need no log */
	dev = sim_card(spec);
	over1 = walk(dev, 5, 16 * KiB, 1, &exact);
	ck_assert_uint_eq(over1, n5 * one + (n5 - 8) * t_wr_ns(16 * KiB));
	dev_close(dev);
	dev = sim_card(spec);
	over2 = walk(dev, 6, 16 * KiB, 1, &exact);
	dev_close(dev);
	dev = sim_card(T_SPEC ",open=4,open_random=4");
	sharp1 = walk(dev, 5, 16 * KiB, 1, &exact);
	dev_close(dev);
	/* per AU: one over costs under twice; two over, like sharp: > 4x */
	ck_assert_uint_lt(over1 / 5, 2 * (fit / 4));
	ck_assert_uint_ge(over2 / 6, 4 * (fit / 4));
	ck_assert_uint_ge(sharp1 / 5, 4 * (fit / 4));
}
END_TEST


/* ---- how cards differ inside (issue 17) ---- */

/*
 * A write 64K below the pointer after writes at 0 and 1M of AU t_au(0)
 * (128K written in order), on a card of the given ooo= and used= (4
 * AUs open, 2 in random order unless mech says otherwise).
 */
static uint64_t back_write(const char *mech)
{
	char spec[256];
	struct device *dev;
	uint64_t t;

	snprintf(spec, sizeof(spec), "%s,%s", T_SPEC, mech);
	dev = sim_card(spec);
	wr(dev, t_au(0), 64 * KiB);
	wr(dev, t_au(0) + 1 * MiB, 64 * KiB);
	t = wr(dev, t_au(0) + 512 * KiB, 64 * KiB);
	dev_close(dev);
	return t;
}

/* ooo=: what a write below an open AU's pointer costs. */
START_TEST(test_ooo)
{
	const uint64_t one = T_ACCESS_NS + t_wr_ns(64 * KiB);
	struct device *dev;

	/* random mode: free while open_random AUs suffice */
	ck_assert_uint_eq(back_write("ooo=random"), one);
	/* merge: closed by GC (old data not rewritten) and reopened */
	ck_assert_uint_eq(back_write("ooo=merge"),
			  one + t_wr_ns(4 * MiB - 128 * KiB) + T_ERASE_NS);
	ck_assert_uint_eq(back_write("ooo=merge,used=0"), one);
	/* the whole AU, whatever it held */
	ck_assert_uint_eq(back_write("ooo=copy-whole"),
			  one + t_wr_ns(4 * MiB) + T_ERASE_NS);
	ck_assert_uint_eq(back_write("ooo=copy-whole,used=0"),
			  one + t_wr_ns(4 * MiB) + T_ERASE_NS);
	/* what was written since it was opened: 128K */
	ck_assert_uint_eq(back_write("ooo=copy-written"),
			  one + t_wr_ns(128 * KiB) + T_ERASE_NS);
	ck_assert_uint_eq(back_write("ooo=copy-written,used=0"),
			  one + t_wr_ns(128 * KiB) + T_ERASE_NS);

	/* reopened: in order after the write, a copy again below it */
	dev = sim_card(T_SPEC ",ooo=copy-written");
	wr(dev, t_au(0), 64 * KiB);
	wr(dev, t_au(0) + 1 * MiB, 64 * KiB);
	wr(dev, t_au(0) + 512 * KiB, 64 * KiB);
	ck_assert_uint_eq(wr(dev, t_au(0) + 576 * KiB, 64 * KiB), one);
	ck_assert_uint_eq(wr(dev, t_au(0) + 640 * KiB, 64 * KiB), one);
	ck_assert_uint_eq(wr(dev, t_au(0) + 256 * KiB, 64 * KiB),
			  one + t_wr_ns(192 * KiB) + T_ERASE_NS);
	dev_close(dev);
	dev = sim_card(T_SPEC ",ooo=copy-whole");
	wr(dev, t_au(1), 64 * KiB);
	wr(dev, t_au(1) + 1 * MiB, 64 * KiB);
	wr(dev, t_au(1) + 512 * KiB, 64 * KiB);
	ck_assert_uint_eq(wr(dev, t_au(1) + 576 * KiB, 64 * KiB), one);
	ck_assert_uint_eq(wr(dev, t_au(1) + 256 * KiB, 64 * KiB),
			  one + t_wr_ns(4 * MiB) + T_ERASE_NS);
	dev_close(dev);
}
END_TEST

/* random_us: a cost per out-of-order write in random mode only. */
START_TEST(test_random_us)
{
	const uint64_t one = T_ACCESS_NS + t_wr_ns(64 * KiB);
	const uint64_t extra = 300000;
	struct device *dev;

	dev = sim_card(T_SPEC ",random_us=300");
	ck_assert_uint_eq(wr(dev, t_au(0), 64 * KiB), one);
	ck_assert_uint_eq(wr(dev, t_au(0) + 1 * MiB, 64 * KiB), one);
	/* the write that turns the AU to random mode pays, too */
	ck_assert_uint_eq(wr(dev, t_au(0) + 512 * KiB, 64 * KiB),
			  one + extra);
	/* right after the last write: in sequence, free */
	ck_assert_uint_eq(wr(dev, t_au(0) + 576 * KiB, 64 * KiB), one);
	ck_assert_uint_eq(wr(dev, t_au(0) + 256 * KiB, 64 * KiB),
			  one + extra);
	/* in order in another AU: free */
	ck_assert_uint_eq(wr(dev, t_au(1), 64 * KiB), one);
	dev_close(dev);
	/* a card that merges instead has no random mode to pay in */
	ck_assert_uint_eq(back_write("random_us=300,ooo=merge,used=0"), one);
	ck_assert_uint_eq(back_write("random_us=300,open_random=0,used=0"),
			  one);
}
END_TEST

/*
 * The fifth AU opened on an open=4 card whose first AU was written 64K
 * at its start after a discard of all of it but its first 1M: the
 * close of that AU under close= and used=.
 */
static uint64_t fifth_open(const char *mech)
{
	char spec[256];
	struct device *dev;
	unsigned int i;
	uint64_t t;

	snprintf(spec, sizeof(spec), "%s,open=4,open_random=2,%s", T_SPEC,
		 mech);
	dev = sim_card(spec);
	dc(dev, t_au(0) + 1 * MiB, 3 * MiB);
	for (i = 0; i < 4; i++)
		wr(dev, t_au(i), 64 * KiB);
	t = wr(dev, t_au(4), 64 * KiB);
	dev_close(dev);
	return t;
}

/* close=: what closing an AU written in order copies. */
START_TEST(test_close)
{
	const uint64_t one = T_ACCESS_NS + t_wr_ns(64 * KiB);
	const uint64_t one_m = T_ACCESS_NS + t_wr_ns(1 * MiB);
	struct device *dev;
	unsigned int i;

	/* old: the 1M of old data the discard left, less the 64K */
	ck_assert_uint_eq(fifth_open("close=old"),
			  one + t_wr_ns(1 * MiB - 64 * KiB) + T_ERASE_NS);
	ck_assert_uint_eq(fifth_open("close=old,used=0"), one);
	/* rest: all the AU not written, whatever it held */
	ck_assert_uint_eq(fifth_open("close=rest"),
			  one + t_wr_ns(4 * MiB - 64 * KiB) + T_ERASE_NS);
	ck_assert_uint_eq(fifth_open("close=rest,used=0"),
			  one + t_wr_ns(4 * MiB - 64 * KiB) + T_ERASE_NS);
	/* all: the whole AU */
	ck_assert_uint_eq(fifth_open("close=all,used=0"),
			  one + t_wr_ns(4 * MiB) + T_ERASE_NS);

	/* a new card, 6 open, close=rest: the 7th AU copies the rest */
	dev = sim_card(T_SPEC ",open=6,close=rest,used=0");
	for (i = 0; i < 6; i++)
		ck_assert_uint_eq(wr(dev, t_au(i), 1 * MiB), one_m);
	ck_assert_uint_eq(wr(dev, t_au(6), 1 * MiB),
			  one_m + t_wr_ns(3 * MiB) + T_ERASE_NS);
	dev_close(dev);
	/* an AU rewritten whole in order still closes at no cost */
	dev = sim_card(T_SPEC ",open=1,close=all");
	for (i = 0; i < 4; i++)
		ck_assert_uint_eq(wr(dev, t_au(0) + i * MiB, 1 * MiB), one_m);
	ck_assert_uint_eq(wr(dev, t_au(1), 1 * MiB), one_m);
	dev_close(dev);
}
END_TEST

/* Open AU A, write it in order from 1M to its end, open two more. */
static uint64_t fill_from_1m(const char *mech)
{
	const uint64_t one_m = T_ACCESS_NS + t_wr_ns(1 * MiB);
	char spec[256];
	struct device *dev;
	uint64_t t;
	unsigned int i;

	snprintf(spec, sizeof(spec), "%s,open=2,%s", T_SPEC, mech);
	dev = sim_card(spec);
	for (i = 1; i < 4; i++)
		ck_assert_uint_eq(wr(dev, t_au(0) + i * MiB, 1 * MiB), one_m);
	ck_assert_uint_eq(wr(dev, t_au(1), 1 * MiB), one_m);
	t = wr(dev, t_au(2), 1 * MiB);
	dev_close(dev);
	return t;
}

/* fullclose=1: an AU written in order to its end frees its slot. */
START_TEST(test_fullclose)
{
	const uint64_t one_m = T_ACCESS_NS + t_wr_ns(1 * MiB);

	/* without: AU 0 stays open; the third AU closes it (1M old) */
	ck_assert_uint_eq(fill_from_1m("fullclose=0"),
			  one_m + t_wr_ns(1 * MiB) + T_ERASE_NS);
	ck_assert_uint_eq(fill_from_1m("fullclose=1"), one_m);
	ck_assert_uint_eq(fill_from_1m("fullclose=1,close=rest"), one_m);
}
END_TEST

/*
 * evict=oldest closes the AU opened first, not the one written least
 * recently: AUs 0, 1, 2 opened in turn, AU 0 written again.
 */
START_TEST(test_evict)
{
	const uint64_t one = T_ACCESS_NS + t_wr_ns(64 * KiB);
	struct device *dev;
	unsigned int i;

	dev = sim_card(T_SPEC ",open=3,evict=lru");
	for (i = 0; i < 3; i++)
		wr(dev, t_au(i), 64 * KiB);
	wr(dev, t_au(0) + 64 * KiB, 64 * KiB);
	/* LRU: AU 1, 64K written */
	ck_assert_uint_eq(wr(dev, t_au(3), 64 * KiB),
			  one + t_wr_ns(4 * MiB - 64 * KiB) + T_ERASE_NS);
	ck_assert_uint_eq(wr(dev, t_au(0) + 128 * KiB, 64 * KiB), one);
	dev_close(dev);

	dev = sim_card(T_SPEC ",open=3,evict=oldest");
	for (i = 0; i < 3; i++)
		wr(dev, t_au(i), 64 * KiB);
	wr(dev, t_au(0) + 64 * KiB, 64 * KiB);
	/* oldest: AU 0, 128K written */
	ck_assert_uint_eq(wr(dev, t_au(3), 64 * KiB),
			  one + t_wr_ns(4 * MiB - 128 * KiB) + T_ERASE_NS);
	/* AU 1 is still open; AU 0 opens again and closes AU 1 */
	ck_assert_uint_eq(wr(dev, t_au(1) + 64 * KiB, 64 * KiB), one);
	ck_assert_uint_eq(wr(dev, t_au(0) + 128 * KiB, 64 * KiB),
			  one + t_wr_ns(4 * MiB - 128 * KiB) + T_ERASE_NS);
	dev_close(dev);
}
END_TEST

/*
 * used=0: a new card.  Opening and closing AUs written in order copies
 * nothing, random mode still copies the whole AU.
 */
START_TEST(test_used)
{
	const uint64_t one = T_ACCESS_NS + t_wr_ns(64 * KiB);
	struct device *dev = sim_card(T_SPEC ",open=4,open_random=2,used=0");
	unsigned int i;

	for (i = 0; i < 8; i++)
		ck_assert_uint_eq(wr(dev, t_au(i), 64 * KiB), one);
	ck_assert_uint_eq(wr(dev, t_au(0) + 64 * KiB, 64 * KiB), one);
	dev_close(dev);
	/* a third AU in random mode: the first is copied whole */
	dev = sim_card(T_SPEC ",open=4,open_random=2,used=0");
	for (i = 4; i < 6; i++) {
		wr(dev, t_au(i) + 1 * MiB, 64 * KiB);
		wr(dev, t_au(i) + 512 * KiB, 64 * KiB);
	}
	wr(dev, t_au(6) + 1 * MiB, 64 * KiB);
	ck_assert_uint_eq(wr(dev, t_au(6) + 512 * KiB, 64 * KiB),
			  one + t_wr_ns(4 * MiB) + T_ERASE_NS);
	dev_close(dev);
}
END_TEST

/*
 * fat_gain=slot: FAT AUs at the rate and page of any AU, never in need
 * of a slot nor a copy; ordinary AUs pay a copy only when more than
 * open_random are in random mode.
 */
START_TEST(test_fat_gain_slot)
{
	const uint64_t page4k = T_ACCESS_NS + t_wr_ns(16 * KiB);
	const uint64_t au_copy = t_wr_ns(4 * MiB) + T_ERASE_NS;
	struct device *dev;

	dev = sim_card(T_SPEC ",open=4,open_random=1,fat=1,fat_start=3,"
		       "fat_gain=slot");
	/* in order: the plain rate, by pages */
	ck_assert_uint_eq(fill_au(dev, 3, 64 * KiB),
			  64 * (T_ACCESS_NS + t_wr_ns(64 * KiB)));
	ck_assert_uint_eq(fill_4k(dev, 2, true), 1024 * page4k);
	/* a FAT AU out of order: as AU 2, and closes nothing */
	ck_assert_uint_eq(fill_4k(dev, 3, true), 1024 * page4k);
	ck_assert_uint_eq(wr(dev, 2 * 4 * MiB + 8 * KiB, 4 * KiB), page4k);
	/* a second ordinary AU in random mode: AU 2 is copied whole */
	ck_assert_uint_eq(fill_4k(dev, 5, true), 1024 * page4k + au_copy);
	ck_assert_uint_eq(fill_4k(dev, 3, true), 1024 * page4k);
	ck_assert_uint_eq(wr(dev, 5 * 4 * MiB + 8 * KiB, 4 * KiB), page4k);
	dev_close(dev);

	/* random_mbps and random_us apply out of order, as in any AU */
	dev = sim_card(T_SPEC ",fat=1,fat_start=3,fat_gain=slot,"
		       "random_mbps=4,random_us=100");
	ck_assert_uint_eq(wr(dev, 3 * 4 * MiB + 1 * MiB, 16 * KiB),
			  T_ACCESS_NS + 16 * KiB * 250 + 100000);
	ck_assert_uint_eq(wr(dev, 3 * 4 * MiB + 1 * MiB + 16 * KiB,
			     16 * KiB), T_ACCESS_NS + t_wr_ns(16 * KiB));
	dev_close(dev);
}
END_TEST

/* fat_gain=speed: the fast rate, but an open slot and GC as any AU. */
START_TEST(test_fat_gain_speed)
{
	const uint64_t one = T_ACCESS_NS + t_wr_ns(64 * KiB);
	const uint64_t fast = T_ACCESS_NS + t_fat_ns(64 * KiB);
	struct device *dev;

	dev = sim_card(T_SPEC ",open=1,fat=1,fat_start=3,fat_gain=speed");
	ck_assert_uint_eq(wr(dev, 3 * 4 * MiB, 64 * KiB), fast);
	ck_assert_uint_eq(wr(dev, t_au(1), 64 * KiB),
			  one + t_wr_ns(4 * MiB - 64 * KiB) + T_ERASE_NS);
	ck_assert_uint_eq(wr(dev, 3 * 4 * MiB + 64 * KiB, 4 * KiB),
			  T_ACCESS_NS + t_fat_ns(4 * KiB) +
			  t_wr_ns(4 * MiB - 64 * KiB) + T_ERASE_NS);
	dev_close(dev);
	/* the default: no slot */
	dev = sim_card(T_SPEC ",open=1,fat=1,fat_start=3");
	ck_assert_uint_eq(wr(dev, 3 * 4 * MiB, 64 * KiB), fast);
	ck_assert_uint_eq(wr(dev, t_au(1), 64 * KiB), one);
	ck_assert_uint_eq(wr(dev, 3 * 4 * MiB + 64 * KiB, 4 * KiB),
			  T_ACCESS_NS + t_fat_ns(4 * KiB));
	dev_close(dev);
}
END_TEST

/*
 * A busy host: busy_pct=10, busy_us=2000: about one request in ten
 * waits 1-3 ms more; the same seed delays the same requests.
 */
START_TEST(test_busy)
{
	enum { N = 4000 };
	static uint64_t a[N], b[N];
	const uint64_t base = T_ACCESS_NS + 16 * KiB * T_READ_NS_B;
	struct device *dev;
	size_t i, n = 0, runs = 0;

	dev = sim_card(T_SPEC ",busy_pct=10,busy_us=2000,seed=5");
	for (i = 0; i < N; i++) {
		a[i] = rd(dev, i * 16 * KiB, 16 * KiB);
		if (a[i] == base)
			continue;
		ck_assert_uint_ge(a[i] - base, 1000000);
		ck_assert_uint_le(a[i] - base, 3000000);
		n++;
	}
	dev_close(dev);
	ck_assert_uint_ge(n, N * 8 / 100);
	ck_assert_uint_le(n, N * 12 / 100);
	dev = sim_card(T_SPEC ",busy_pct=10,busy_us=2000,seed=5");
	for (i = 0; i < N; i++)
		ck_assert_uint_eq(rd(dev, i * 16 * KiB, 16 * KiB), a[i]);
	dev_close(dev);
	dev = sim_card(T_SPEC ",busy_pct=10,busy_us=2000,seed=6");
	for (i = n = 0; i < N; i++)
		n += rd(dev, i * 16 * KiB, 16 * KiB) != a[i];
	ck_assert_uint_ge(n, N / 10);
	dev_close(dev);

	/* in runs: busy_burst=4 delays about 4 requests in a row */
	dev = sim_card(T_SPEC ",busy_pct=2,busy_burst=4,seed=5");
	for (i = n = 0; i < N; i++) {
		a[i] = rd(dev, i * 16 * KiB, 16 * KiB) > base;
		n += a[i];
		runs += a[i] && (!i || !a[i - 1]);
	}
	dev_close(dev);
	ck_assert_uint_gt(runs, 0);
	ck_assert_uint_ge(n, 3 * runs);
	ck_assert_uint_le(n, 5 * runs);

	/* noise and pauses stay as they were; busy_pct=0 is no delay */
	dev = sim_card("noise=5,seed=7,pause_pct=3");
	mixed_ops(dev, a, N / 10);
	dev_close(dev);
	dev = sim_card("noise=5,seed=7,pause_pct=3,busy_pct=0,busy_us=9000");
	mixed_ops(dev, b, N / 10);
	dev_close(dev);
	ck_assert_mem_eq(a, b, N / 10 * sizeof(a[0]));
	dev = sim_card("noise=5,seed=7,pause_pct=3,host=heavy");
	mixed_ops(dev, b, N / 10);
	dev_close(dev);
	for (i = n = 0; i < N / 10; i++) {
		ck_assert_uint_ge(b[i], a[i]);
		if (b[i] > a[i]) {
			ck_assert_uint_ge(b[i] - a[i], 3000000);
			n++;
		}
	}
	ck_assert_uint_gt(n, 0);
}
END_TEST

/* ---- what the card stores, and fake cards ---- */

/* Write a 512-byte sector at off whose bytes name off and tag. */
static void put_sector(struct device *dev, uint64_t off, unsigned int tag)
{
	unsigned char *buf = dev_alloc_buf(512);
	size_t i;

	ck_assert_ptr_nonnull(buf);
	for (i = 0; i < 512; i++)
		buf[i] = (unsigned char)(off / 512 * 31 + i * 7 + tag);
	ck_assert_int_eq(dev_write(dev, buf, 512, (off_t)off, NULL), 0);
	dev_free_buf(buf);
}

/* 1 when the sector at at holds what put_sector(off, tag) wrote. */
static int holds(struct device *dev, uint64_t at, uint64_t off,
		 unsigned int tag)
{
	unsigned char *buf = dev_alloc_buf(512);
	size_t i;
	int same = 1;

	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(dev_read(dev, buf, 512, (off_t)at, NULL), 0);
	for (i = 0; i < 512; i++)
		if (buf[i] != (unsigned char)(off / 512 * 31 + i * 7 + tag))
			same = 0;
	dev_free_buf(buf);
	return same;
}

/* 1 when the 512 bytes at at are all zero; *sum gets their sum. */
static int zeros_at(struct device *dev, uint64_t at, uint64_t *sum)
{
	unsigned char *buf = dev_alloc_buf(512);
	size_t i;

	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(dev_read(dev, buf, 512, (off_t)at, NULL), 0);
	*sum = 0;
	for (i = 0; i < 512; i++)
		*sum += buf[i];
	dev_free_buf(buf);
	return *sum == 0;
}

/* A genuine 64 GiB card stores what is written, anywhere, sparsely. */
START_TEST(test_store_genuine)
{
	struct device *dev = sim_card("size=64G,noise=0");
	uint64_t sum, at[] = { 0, 4096, 17 * GiB + 512, 64 * GiB - 512 };
	size_t i;

	for (i = 0; i < 4; i++)
		put_sector(dev, at[i], 1);
	for (i = 0; i < 4; i++)
		ck_assert(holds(dev, at[i], at[i], 1));
	ck_assert(zeros_at(dev, 512, &sum));
	put_sector(dev, at[2], 2);	/* overwritten */
	ck_assert(holds(dev, at[2], at[2], 2));
	ck_assert(!holds(dev, at[2], at[2], 1));
	/* a multi-sector read returns each sector */
	{
		unsigned char *buf = dev_alloc_buf(8192);

		ck_assert_ptr_nonnull(buf);
		ck_assert_int_eq(dev_read(dev, buf, 8192, 0, NULL), 0);
		ck_assert_uint_eq(buf[0], 1);
		ck_assert_uint_eq(buf[512], 0);
		ck_assert_uint_eq(buf[4096 + 1], (4096 / 512 * 31 + 7 + 1) & 255);
		dev_free_buf(buf);
	}
	dev_close(dev);
}
END_TEST

/*
 * What the store holds, runs of one byte value beside single sectors,
 * against a plain array: random single sectors (one value or mixed),
 * runs over them and each other, and the pruning of what is older than
 * a sequence number; every sector reads as the one written last.
 */
START_TEST(test_store_runs)
{
	enum { N = 4096 };
	static unsigned char val[N];	/* a sector's first byte, 0: none */
	static uint64_t when[N];
	static unsigned char mixed[N];	/* its byte 7 differs */
	unsigned char buf[SIMSTORE_SECTOR], got[SIMSTORE_SECTOR];
	struct simstore s = { 0 };
	uint64_t st = 12345, seq = 0, q, k, a, n, lo = 0;
	int round;

	memset(val, 0, sizeof(val));
	memset(mixed, 0, sizeof(mixed));
	for (round = 0; round < 20000; round++) {
		uint64_t r;

		st ^= st << 13;		/* xorshift64 */
		st ^= st >> 7;
		st ^= st << 17;
		r = st;

		a = r % N;
		if (r >> 40 & 1) {	/* a run */
			n = 1 + (r >> 20) % 300;
			if (a + n > N)
				n = N - a;
			ck_assert_int_eq(simstore_put_run(&s, a, n,
				(unsigned char)(1 + (r >> 50) % 3), seq + 1), 0);
			for (k = 0; k < n; k++) {
				val[a + k] = (unsigned char)(1 + (r >> 50) % 3);
				when[a + k] = seq + 1 + k;
				mixed[a + k] = 0;
			}
			seq += n;
		} else {		/* one sector, mixed or one value */
			memset(buf, (int)(4 + (r >> 50) % 3), sizeof(buf));
			if (r >> 41 & 1)
				buf[7] ^= 0x55;
			ck_assert_int_eq(simstore_put(&s, a, buf, ++seq), 0);
			val[a] = buf[0];
			when[a] = seq;
			mixed[a] = buf[7] != buf[0];
		}
		if (round % 5000 == 4999) {	/* the cache's pruning */
			lo = seq - 2000;
			ck_assert_int_eq(simstore_prune(&s, lo), 0);
		}
	}
	for (a = 0; a < N; a++) {
		int held = val[a] && when[a] >= lo;

		ck_assert_int_eq(simstore_get(&s, a, got, &q), held);
		if (!held)
			continue;
		ck_assert_uint_eq(got[0], val[a]);
		ck_assert_uint_eq(got[100], val[a]);
		ck_assert_uint_eq(got[7], mixed[a] ? val[a] ^ 0x55 : val[a]);
		ck_assert_uint_eq(q, when[a]);
	}
	ck_assert_uint_lt(s.nruns, 2 * N / 10);
	/* the pool gives back what one value or the pruning let go */
	ck_assert_uint_le(s.used, N);
	simstore_free(&s);
}
END_TEST

/* limbo: below real_size data stays; above it, writes are lost. */
START_TEST(test_fake_limbo)
{
	struct device *z = sim_card("size=8G,real_size=1G,noise=0");
	struct device *g = sim_card("size=8G,real_size=1G,fake=limbo-garbage");
	uint64_t s1, s2;

	put_sector(z, GiB - 512, 3);
	put_sector(z, GiB, 3);
	put_sector(z, 5 * GiB, 3);
	ck_assert(holds(z, GiB - 512, GiB - 512, 3));
	ck_assert(zeros_at(z, GiB, &s1));
	ck_assert(zeros_at(z, 5 * GiB, &s1));

	put_sector(g, GiB - 512, 3);
	put_sector(g, 5 * GiB, 3);
	ck_assert(holds(g, GiB - 512, GiB - 512, 3));
	ck_assert(!holds(g, 5 * GiB, 5 * GiB, 3));
	ck_assert(!zeros_at(g, 5 * GiB, &s1));
	ck_assert(!zeros_at(g, 5 * GiB, &s2));
	ck_assert_uint_eq(s1, s2);	/* the same garbage each time */
	ck_assert(zeros_at(g, 512, &s1)); /* real, never written */
	dev_close(z);
	dev_close(g);
}
END_TEST

/* wrap: a mod real_size, also when real_size is not a power of two. */
START_TEST(test_fake_wrap)
{
	static const char *const spec[] = {
		"size=16G,real_size=2G,fake=wrap,noise=0",
		"size=16G,real_size=3000M,fake=wrap,noise=0",
	};
	size_t i;

	for (i = 0; i < 2; i++) {
		struct device *dev = sim_card(spec[i]);
		uint64_t r = i ? 3000 * MiB : 2 * GiB, x = 5 * MiB + 1024;

		put_sector(dev, x, 4);
		ck_assert(holds(dev, x, x, 4));
		ck_assert(holds(dev, r + x, x, 4));
		ck_assert(holds(dev, 4 * r + x, x, 4));
		ck_assert(!holds(dev, r + x + 512, x, 4));
		put_sector(dev, 3 * r + x, 5);	/* overwrites x */
		ck_assert(holds(dev, x, 3 * r + x, 5));
		ck_assert(!holds(dev, x, x, 4));
		dev_close(dev);
	}
}
END_TEST

/* cache: the last cache / 512 sectors written read back, then not. */
START_TEST(test_fake_cache)
{
	struct device *dev =
		sim_card("size=8G,real_size=1G,cache=64K,noise=0");
	struct device *w =
		sim_card("size=8G,real_size=1G,fake=wrap,cache=64K,noise=0");
	uint64_t sum, i;

	put_sector(dev, 6 * GiB, 6);
	ck_assert(holds(dev, 6 * GiB, 6 * GiB, 6));	/* from the cache */
	for (i = 0; i < 127; i++)
		put_sector(dev, 512 * (i + 1), 0);
	ck_assert(holds(dev, 6 * GiB, 6 * GiB, 6));	/* 128 held */
	put_sector(dev, 0, 0);
	ck_assert(zeros_at(dev, 6 * GiB, &sum));	/* evicted: limbo */
	ck_assert(holds(dev, 512, 512, 0));		/* real data stays */

	put_sector(w, 512, 7);
	put_sector(w, GiB + 512, 8);	/* overwrites 512 in the flash */
	ck_assert(holds(w, 512, 512, 7));		/* cache hides it */
	for (i = 0; i < 128; i++)
		put_sector(w, 4 * MiB + 512 * i, 0);
	ck_assert(holds(w, 512, GiB + 512, 8));	/* the flash shows it */
	dev_close(dev);
	dev_close(w);
}
END_TEST

/*
 * cache_kind=back: a write reaches the flash only when newer sectors
 * push it out of the cache, oldest written first; a sector written again
 * supersedes its copy and counts as newest.  (Through, it reaches the
 * flash at once: test_fake_cache.)
 */
START_TEST(test_fake_cache_back)
{
	struct device *w = sim_card("size=8G,real_size=1G,fake=wrap,"
				    "cache=4K,cache_kind=back,noise=0");
	struct device *t = sim_card("size=8G,real_size=1G,fake=wrap,"
				    "cache=4K,noise=0");
	uint64_t i, sum;

	put_sector(w, GiB + 512, 8);		/* its image is 512 */
	put_sector(t, GiB + 512, 8);
	ck_assert(zeros_at(w, 512, &sum));	/* not on the flash yet */
	ck_assert(holds(t, 512, GiB + 512, 8));	/* through: at once */
	ck_assert(holds(w, GiB + 512, GiB + 512, 8));	/* cached */
	put_sector(w, 512, 7);
	put_sector(w, GiB + 512, 9);	/* again: newest, 7 oldest */
	for (i = 0; i < 6; i++)		/* 6 more: 8 sectors held */
		put_sector(w, 4 * MiB + 512 * i, 0);
	ck_assert(holds(w, 512, 512, 7));
	put_sector(w, 8 * MiB, 0);		/* pushes 7 out */
	ck_assert(holds(w, GiB + 512, GiB + 512, 9));	/* still cached */
	put_sector(w, 8 * MiB + 512, 0);	/* pushes 9 out, onto 7 */
	ck_assert(holds(w, 512, GiB + 512, 9));
	ck_assert(holds(w, GiB + 512, GiB + 512, 9));
	dev_close(w);
	dev_close(t);
}
END_TEST

/* Fake keys change what reads return, never what anything costs. */
START_TEST(test_fake_same_time)
{
	struct device *a = sim_card("size=8G,noise=3,seed=5");
	struct device *b = sim_card("size=8G,noise=3,seed=5,real_size=1G,"
				    "fake=wrap,cache=1M");
	uint64_t i, ta, tb;

	for (i = 0; i < 40; i++) {
		uint64_t off = (i * 977 * MiB) % (8 * GiB);

		put_sector(a, off, 1);
		put_sector(b, off, 1);
		ck_assert_uint_eq(rd(a, 20 * MiB, 4096), rd(b, 20 * MiB, 4096));
	}
	ta = dev_now_ns(a);
	tb = dev_now_ns(b);
	ck_assert_uint_eq(ta, tb);
	dev_close(a);
	dev_close(b);
}
END_TEST

/* A batch of n 4 KiB requests at 4 KiB * (1 + 33 * i): distinct pages. */
static uint64_t t_batch(struct device *dev, int write, unsigned int n,
			uint64_t base)
{
	struct dev_req q[DEV_BATCH_MAX];
	uint64_t t = 0;
	unsigned int i;

	ck_assert_uint_le(n, DEV_BATCH_MAX);
	for (i = 0; i < n; i++) {
		q[i].write = write;
		q[i].buf = dev_alloc_buf(4096);
		ck_assert_ptr_nonnull(q[i].buf);
		memset(q[i].buf, 0x40 + (int)i, 4096);
		q[i].len = 4096;
		q[i].off = (off_t)(base + 4096 * (1 + 33 * (uint64_t)i));
	}
	ck_assert_int_eq(dev_batch(dev, q, n, &t), 0);
	for (i = 0; i < n; i++)
		dev_free_buf(q[i].buf);
	return t;
}

/* 4096 bytes at read_mbps=25: 40 ns a byte. */
#define T_XFER_4K	(4096 * T_READ_NS_B)

/*
 * The command queue: queued reads overlap their access time, exactly as
 * the model says; beyond the depth a request waits for one to complete.
 */
START_TEST(test_queue_reads)
{
	struct device *none = sim_card(T_SPEC);
	struct device *q4 = sim_card(T_SPEC ",queue=4");
	struct device *q2 = sim_card(T_SPEC ",queue=2");

	/* without a queue: one at a time */
	ck_assert_uint_eq(t_batch(none, 0, 4, 0),
			  4 * (T_ACCESS_NS + T_XFER_4K));
	/* four in the queue: one access, four transfers */
	ck_assert_uint_eq(t_batch(q4, 0, 4, 0), T_ACCESS_NS + 4 * T_XFER_4K);
	/*
	 * six with four places: the fifth enters when the first is done
	 * (at access + xfer) and is ready an access later; the sixth
	 * enters at access + 2 xfer, ready just as the fifth completes
	 */
	ck_assert_uint_eq(t_batch(q4, 0, 6, 0),
			  2 * T_ACCESS_NS + 3 * T_XFER_4K);
	/* two places: pairs, each access after the pair before it */
	ck_assert_uint_eq(t_batch(q2, 0, 4, 0),
			  2 * T_ACCESS_NS + 3 * T_XFER_4K);
	/* a single request costs what it costs alone */
	ck_assert_uint_eq(t_batch(q4, 0, 1, 0), T_ACCESS_NS + T_XFER_4K);
	dev_close(none);
	dev_close(q4);
	dev_close(q2);
}
END_TEST

/*
 * Queued writes overlap their access but program one by one through the
 * open-AU table; with queue_cache they go to the cache, programmed
 * together in whole pages, and read back.
 */
START_TEST(test_queue_writes)
{
	struct device *q4 = sim_card(T_SPEC ",queue=4,open=8");
	struct device *c4 = sim_card(T_SPEC ",queue=4,queue_cache=1");
	unsigned char *buf = dev_alloc_buf(4096);
	uint64_t page_ns = t_wr_ns(16 * KiB);
	unsigned int i;

	ck_assert_ptr_nonnull(buf);
	/* in the FAT area (AU 0): 4 KiB at fat_mbps each */
	ck_assert_uint_eq(t_batch(q4, 1, 4, 0),
			  T_ACCESS_NS + 4 * t_fat_ns(4096));
	/* elsewhere, 16 KiB pages: each 4 KiB write, in order, a page */
	ck_assert_uint_eq(t_batch(q4, 1, 4, 64 * MiB),
			  T_ACCESS_NS + 4 * page_ns);
	/* cached: access, then 4 KiB each into the cache: one page */
	ck_assert_uint_eq(t_batch(c4, 1, 4, 0),
			  T_ACCESS_NS + 4 * t_wr_ns(4096));
	/* three: the last page is programmed whole */
	ck_assert_uint_eq(t_batch(c4, 1, 3, 64 * MiB),
			  T_ACCESS_NS + 4 * t_wr_ns(4096));
	/* one write alone is not cached: it opens an AU, copying nothing */
	ck_assert_uint_eq(t_batch(c4, 1, 1, 128 * MiB),
			  T_ACCESS_NS + page_ns);
	/* the cached data is stored */
	for (i = 0; i < 3; i++) {
		ck_assert_int_eq(dev_read(c4, buf, 4096,
					  (off_t)(64 * MiB +
						  4096 * (1 + 33 * i)),
					  NULL), 0);
		ck_assert_uint_eq(buf[0], 0x40 + i);
		ck_assert_uint_eq(buf[4095], 0x40 + i);
	}
	dev_free_buf(buf);
	dev_close(q4);
	dev_close(c4);
}
END_TEST

/*
 * Without a queue a batch is its requests one by one: the same clock,
 * noise included, as a twin card served them alone.
 */
START_TEST(test_queue_off_same)
{
	struct device *a = sim_card("noise=3,seed=9");
	struct device *b = sim_card("noise=3,seed=9");
	uint64_t sum = 0, i;

	for (i = 0; i < 5; i++)
		sum += t_batch(a, (int)(i & 1), 4, i * 8 * MiB);
	for (i = 0; i < 5; i++) {
		unsigned int k;

		for (k = 0; k < 4; k++) {
			uint64_t off = i * 8 * MiB + 4096 * (1 + 33 * k);

			sum -= i & 1 ? wr(b, off, 4096) : rd(b, off, 4096);
		}
	}
	ck_assert_uint_eq(sum, 0);
	ck_assert_uint_eq(dev_now_ns(a), dev_now_ns(b));
	dev_close(a);
	dev_close(b);
}
END_TEST

/* A batch with one bad request does nothing and costs nothing. */
START_TEST(test_queue_bad)
{
	struct device *q4 = sim_card(T_SPEC ",queue=4");
	unsigned char *buf = dev_alloc_buf(4096);
	struct dev_req q[2] = {
		{ 1, NULL, 4096, 0 },
		{ 1, NULL, 4096, 1000 },
	};

	ck_assert_ptr_nonnull(buf);
	q[0].buf = q[1].buf = buf;
	memset(buf, 0x77, 4096);
	ck_assert_int_eq(dev_batch(q4, q, 2, NULL), -EINVAL);
	ck_assert_uint_eq(dev_now_ns(q4), 0);
	ck_assert_int_eq(dev_read(q4, buf, 4096, 0, NULL), 0);
	ck_assert_uint_eq(buf[0], 0);
	ck_assert_int_eq(dev_batch(q4, q, 0, NULL), -EINVAL);
	ck_assert_int_eq(dev_batch(q4, q, DEV_BATCH_MAX + 1, NULL), -EINVAL);
	dev_free_buf(buf);
	dev_close(q4);
}
END_TEST

Suite *sim_suite(void)
{
	Suite *s = suite_create("sim");
	TCase *tc;

	tc = tcase_create("spec");
	tcase_add_test(tc, test_defaults);
	tcase_add_loop_test(tc, test_parse_ok, 0,
			    sizeof(parse_ok) / sizeof(parse_ok[0]));
	tcase_add_test(tc, test_parse_open_random);
	tcase_add_loop_test(tc, test_parse_bad, 0,
			    sizeof(parse_bad) / sizeof(parse_bad[0]));
	tcase_add_test(tc, test_open_rejects_bad_params);
	suite_add_tcase(s, tc);

	tc = tcase_create("read");
	tcase_add_loop_test(tc, test_read_cost, 0,
			    sizeof(read_cost) / sizeof(read_cost[0]));
	tcase_add_test(tc, test_read_cost_rounding);
	tcase_add_test(tc, test_noise_seed);
	tcase_add_test(tc, test_noise_spread);
	suite_add_tcase(s, tc);

	tc = tcase_create("write");
	tcase_add_loop_test(tc, test_write_open_linear, 0,
			    sizeof(open_chunk) / sizeof(open_chunk[0]));
	tcase_add_test(tc, test_write_open_random);
	tcase_add_test(tc, test_write_gc_cost);
	tcase_add_test(tc, test_write_small);
	tcase_add_test(tc, test_write_fat);
	tcase_add_test(tc, test_discard);
	suite_add_tcase(s, tc);

	tc = tcase_create("ops");
	tcase_add_loop_test(tc, test_bad_ops, 0,
			    sizeof(bad_ops) / sizeof(bad_ops[0]));
	tcase_add_test(tc, test_large_cards);
	suite_add_tcase(s, tc);

	tc = tcase_create("real");
	tcase_add_test(tc, test_readsig_off);
	tcase_add_test(tc, test_fat_kind);
	tcase_add_test(tc, test_fat_kind_slots);
	tcase_add_loop_test(tc, test_fat_start, 0, 8);
	tcase_add_test(tc, test_open_random_zero);
	tcase_add_test(tc, test_partial_au);
	tcase_add_test(tc, test_plane);
	tcase_add_test(tc, test_group);
	tcase_add_test(tc, test_au_spread);
	tcase_add_test(tc, test_pauses);
	tcase_add_test(tc, test_readahead);
	tcase_add_test(tc, test_random_mbps);
	tcase_add_test(tc, test_collapse_gradual);
	suite_add_tcase(s, tc);

	tc = tcase_create("mech");
	tcase_add_test(tc, test_ooo);
	tcase_add_test(tc, test_random_us);
	tcase_add_test(tc, test_close);
	tcase_add_test(tc, test_fullclose);
	tcase_add_test(tc, test_evict);
	tcase_add_test(tc, test_used);
	tcase_add_test(tc, test_fat_gain_slot);
	tcase_add_test(tc, test_fat_gain_speed);
	tcase_add_test(tc, test_busy);
	suite_add_tcase(s, tc);

	tc = tcase_create("fake");
	tcase_add_test(tc, test_store_genuine);
	tcase_add_test(tc, test_store_runs);
	tcase_add_test(tc, test_fake_limbo);
	tcase_add_test(tc, test_fake_wrap);
	tcase_add_test(tc, test_fake_cache);
	tcase_add_test(tc, test_fake_cache_back);
	tcase_add_test(tc, test_fake_same_time);
	suite_add_tcase(s, tc);

	tc = tcase_create("queue");
	tcase_add_test(tc, test_queue_reads);
	tcase_add_test(tc, test_queue_writes);
	tcase_add_test(tc, test_queue_off_same);
	tcase_add_test(tc, test_queue_bad);
	suite_add_tcase(s, tc);
	return s;
}
