// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulated card's mechanics of today's cards (device/simcache.c,
 * simpage.c, simstall.c): the keys that plant them, and the time the
 * card charges for each, to the nanosecond with noise=0: the pSLC
 * cache's fast then native rate and its refill while idle, the page
 * map's read-modify-write, its indifference to order and its garbage
 * collection as it fills, maintenance after idle, write stalls, and 4Kn
 * sectors.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "util.h"

#define KiB (1024ULL)
#define MiB (1024ULL * KiB)
#define GiB (1024ULL * MiB)
#define MS (1000000ULL)		/* ns */

/*
 * The card the exact-cost tests plant: 700 µs access, 25 MB/s reads
 * (40 ns a byte), 16 MB/s writes (62.5 ns a byte), no FAT area.
 */
#define T_BASE "noise=0,access_us=700,read_mbps=25,write_mbps=16," \
	"erase_us=2000"
#define T_SPEC T_BASE ",fat=0"
#define T_ACCESS_NS	700000ULL

/* ns to move len bytes at rate_mbps, as the card counts them. */
static uint64_t xfer(uint64_t len, unsigned int rate_mbps)
{
	return len * 1000 / rate_mbps;
}

/* Write len bytes at off; must succeed.  Returns its time. */
static uint64_t wr(struct device *dev, uint64_t off, size_t len)
{
	unsigned char *buf = dev_alloc_buf(len);
	uint64_t t = 0;

	ck_assert_ptr_nonnull(buf);
	memset(buf, 0x5a, len);
	ck_assert_int_eq(dev_write(dev, buf, len, (off_t)off, &t), 0);
	dev_free_buf(buf);
	return t;
}

/* Read len bytes at off; must succeed.  Returns its time. */
static uint64_t rd(struct device *dev, uint64_t off, size_t len)
{
	unsigned char *buf = dev_alloc_buf(len);
	uint64_t t = 0;

	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(dev_read(dev, buf, len, (off_t)off, &t), 0);
	dev_free_buf(buf);
	return t;
}

/* ---- the keys ---- */

START_TEST(test_today_defaults)
{
	struct sim_params p;

	sim_params_default(&p);
	ck_assert_uint_eq(p.sector_byte, 512);
	ck_assert_uint_eq(p.ftl, SIM_FTL_BLOCK);
	ck_assert_uint_eq(p.map_byte, 4 * KiB);
	ck_assert_double_eq(p.spare_pct, 7);
	ck_assert_uint_eq(p.slc_byte, 0);
	ck_assert_double_eq(p.slc_mbps, 0);
	ck_assert_double_eq(p.fold_mbps, 0);
	ck_assert_double_eq(p.maint_ms, 0);
	ck_assert_uint_eq(p.stall_writes, 0);
	ck_assert_uint_eq(p.stall_bytes, 0);
}
END_TEST

START_TEST(test_today_keys)
{
	struct sim_params p;
	char err[256];

	sim_params_default(&p);
	ck_assert_int_eq(sim_parse_spec(&p, "sector=4K,ftl=page,map=16K,spare=28,slc=256M,slc_mbps=90,fold_mbps=20,maint_ms=150,maint_idle_ms=1000,stall_ms=429,stall_writes=1000,stall_bytes=64M",
					 err, sizeof(err)), 0);
	ck_assert_uint_eq(p.sector_byte, 4096);
	ck_assert_uint_eq(p.ftl, SIM_FTL_PAGE);
	ck_assert_uint_eq(p.map_byte, 16 * KiB);
	ck_assert_double_eq(p.spare_pct, 28);
	ck_assert_uint_eq(p.slc_byte, 256 * MiB);
	ck_assert_double_eq(p.slc_mbps, 90);
	ck_assert_double_eq(p.fold_mbps, 20);
	ck_assert_double_eq(p.maint_ms, 150);
	ck_assert_double_eq(p.maint_idle_ms, 1000);
	ck_assert_double_eq(p.stall_ms, 429);
	ck_assert_uint_eq(p.stall_writes, 1000);
	ck_assert_uint_eq(p.stall_bytes, 64 * MiB);
}
END_TEST

/* Each wrong value is refused with a reason naming the key. */
static const struct {
	const char *spec, *key;
} bad_today[] = {
	{ "sector=1K", "sector=1K" },
	{ "sector=4K,size=1000001K", "size=1000001K" },
	{ "sector=4K,real_size=1025K", "real_size=1025K" },
	{ "ftl=hybrid", "ftl=hybrid" },
	{ "map=3K", "map=3K" },
	{ "map=8M", "map=8M" },
	{ "map=256", "map=256" },
	{ "spare=101", "spare=101" },
	{ "ftl=page,map=64K,size=1000032K", "size=1000032K" },
	{ "ftl=page,map=512,size=2T,erase=16M", "map=512" },
	{ "slc=16G", "slc=16G" },
	{ "slc_mbps=0", "slc_mbps=0" },
	{ "fold_mbps=-1", "fold_mbps=-1" },
	{ "maint_ms=20000", "maint_ms=20000" },
	{ "maint_idle_ms=-5", "maint_idle_ms=-5" },
	{ "stall_ms=1e5", "stall_ms=1e5" },
	{ "stall_writes=x", "stall_writes=x" },
	{ "stall_bytes=1Q", "stall_bytes=1Q" },
};

START_TEST(test_today_bad)
{
	struct sim_params p, q;
	char err[256];

	sim_params_default(&p);
	q = p;
	ck_assert_int_eq(sim_parse_spec(&q, bad_today[_i].spec, err,
					 sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, bad_today[_i].key) != NULL,
		      "%s: reason '%s' does not name %s", bad_today[_i].spec,
		      err, bad_today[_i].key);
	ck_assert_mem_eq(&p, &q, sizeof(p));
}
END_TEST

/* ---- the pSLC cache ---- */

/*
 * 8 MiB of cache at 64 MB/s on a block-mapped card: eight 1 MiB writes
 * in order at the cache's rate, then the native rate of the AUs.
 */
START_TEST(test_slc_fast_then_native)
{
	struct device *dev = sim_card(T_SPEC ",slc=8M,slc_mbps=64");
	uint64_t fast = T_ACCESS_NS + xfer(MiB, 64);
	uint64_t native = T_ACCESS_NS + MiB * 125 / 2;
	unsigned int i;

	for (i = 0; i < 8; i++)
		ck_assert_uint_eq(wr(dev, 16 * MiB + i * MiB, MiB), fast);
	for (i = 8; i < 16; i++)
		ck_assert_uint_eq(wr(dev, 16 * MiB + i * MiB, MiB), native);
	dev_close(dev);
}
END_TEST

/* A write that fills the cache: what fits fast, its share natively. */
START_TEST(test_slc_straddle)
{
	struct device *dev = sim_card(T_SPEC ",slc=1536K,slc_mbps=64");

	ck_assert_uint_eq(wr(dev, 16 * MiB, MiB), T_ACCESS_NS + xfer(MiB, 64));
	ck_assert_uint_eq(wr(dev, 17 * MiB, MiB),
			  T_ACCESS_NS + xfer(MiB / 2, 64) + MiB / 2 * 125 / 2);
	ck_assert_uint_eq(wr(dev, 18 * MiB, MiB), T_ACCESS_NS + MiB * 125 / 2);
	dev_close(dev);
}
END_TEST

/*
 * Idle time folds the cache at fold_mbps: 1 s at 4 MB/s makes room for
 * 4,000,000 bytes, three 1 MiB writes and 854,272 bytes of a fourth.
 */
START_TEST(test_slc_refill_after_idle)
{
	struct device *dev = sim_card(T_SPEC ",slc=8M,slc_mbps=64,fold_mbps=4");
	uint64_t fast = T_ACCESS_NS + xfer(MiB, 64);
	uint64_t native = T_ACCESS_NS + MiB * 125 / 2;
	uint64_t fit = 4000000 - 3 * MiB, pos = 16 * MiB;
	unsigned int i;

	for (i = 0; i < 9; i++, pos += MiB)
		wr(dev, pos, MiB);
	ck_assert_uint_eq(wr(dev, pos, MiB), native);
	pos += MiB;
	ck_assert_int_eq(dev_idle(dev, 1000 * MS), 0);
	for (i = 0; i < 3; i++, pos += MiB)
		ck_assert_uint_eq(wr(dev, pos, MiB), fast);
	ck_assert_uint_eq(wr(dev, pos, MiB),
			  T_ACCESS_NS + xfer(fit, 64) +
			  (MiB - fit) * 125 / 2);
	pos += MiB;
	ck_assert_uint_eq(wr(dev, pos, MiB), native);
	/* a long pause empties it all, and no more */
	ck_assert_int_eq(dev_idle(dev, 60000 * MS), 0);
	for (i = 0; i < 8; i++, pos += MiB)
		ck_assert_uint_eq(wr(dev, pos, MiB), fast);
	ck_assert_uint_eq(wr(dev, pos, MiB), native);
	dev_close(dev);
}
END_TEST

/*
 * The cache hides the open-AU collapse: 16 KiB writes over five AUs
 * (four open) cost the cache's rate until it is full, then each one
 * closes an AU, as the card does natively.
 */
START_TEST(test_slc_hides_collapse)
{
	struct device *dev = sim_card(T_SPEC ",slc=1M,slc_mbps=64,open=4");
	uint64_t fast = T_ACCESS_NS + xfer(16 * KiB, 64);
	uint64_t native = T_ACCESS_NS + 16 * KiB * 125 / 2;
	unsigned int i;

	/* 64 writes of 16 KiB fill 1 MiB */
	for (i = 0; i < 64; i++)
		ck_assert_uint_eq(wr(dev, (4 + i % 5) * 4 * MiB +
					  i / 5 * 16 * KiB, 16 * KiB), fast);
	for (; i < 74; i++)
		ck_assert_uint_gt(wr(dev, (4 + i % 5) * 4 * MiB +
					 i / 5 * 16 * KiB, 16 * KiB),
				  10 * native);
	dev_close(dev);
}
END_TEST

/* --preserve's untimed I/O neither fills the cache nor folds it. */
START_TEST(test_slc_untimed)
{
	struct device *dev = sim_card(T_SPEC ",slc=2M,slc_mbps=64");

	dev_untimed(dev, 1);
	wr(dev, 16 * MiB, 2 * MiB);
	dev_untimed(dev, 0);
	ck_assert_uint_eq(wr(dev, 20 * MiB, MiB), T_ACCESS_NS + xfer(MiB, 64));
	dev_close(dev);
}
END_TEST

/* ---- the page-mapped card ---- */

#define T_PAGE T_SPEC ",ftl=page,map=16K"

/* A 4 KiB write on a 16 KiB unit: the unit read, then programmed whole. */
START_TEST(test_page_rmw)
{
	struct device *dev = sim_card(T_PAGE);
	uint64_t unit_rd = 16 * KiB * 40, unit_wr = 16 * KiB * 125 / 2;

	ck_assert_uint_eq(wr(dev, 0, 4 * KiB), T_ACCESS_NS + unit_rd + unit_wr);
	ck_assert_uint_eq(wr(dev, 64 * KiB, 16 * KiB), T_ACCESS_NS + unit_wr);
	/* 16 KiB across two units: both read and programmed */
	ck_assert_uint_eq(wr(dev, 8 * KiB, 16 * KiB),
			  T_ACCESS_NS + 2 * unit_rd + 2 * unit_wr);
	/* 20 KiB from a unit's start: the second unit only in part */
	ck_assert_uint_eq(wr(dev, 128 * KiB, 20 * KiB),
			  T_ACCESS_NS + unit_rd + 2 * unit_wr);
	dev_close(dev);

	/* a new card: no data to read in a unit never written */
	dev = sim_card(T_PAGE ",used=0");
	ck_assert_uint_eq(wr(dev, 0, 4 * KiB), T_ACCESS_NS + unit_wr);
	ck_assert_uint_eq(wr(dev, 4 * KiB, 4 * KiB),
			  T_ACCESS_NS + unit_rd + unit_wr);
	dev_close(dev);
}
END_TEST

/*
 * Out of order and over many AUs, a page-mapped card charges the same
 * for every write: no open-AU limit, no random mode, no FAT area.
 */
START_TEST(test_page_no_order_cost)
{
	struct device *dev = sim_card(T_BASE ",ftl=page,map=16K,used=0,fat=2,open=2");
	uint64_t one = T_ACCESS_NS + 16 * KiB * 125 / 2;
	unsigned int i, au;

	/* backwards inside an AU, and in the FAT area */
	for (i = 0; i < 64; i++)
		ck_assert_uint_eq(wr(dev, 4 * MiB - (i + 1) * 16 * KiB,
				     16 * KiB), one);
	/* round robin over 32 AUs, far more than open */
	for (i = 0; i < 8; i++)
		for (au = 0; au < 32; au++)
			ck_assert_uint_eq(wr(dev, (8 + au) * 4 * MiB +
					     i * 16 * KiB, 16 * KiB), one);
	dev_close(dev);
}
END_TEST

/*
 * Mean cost of n writes of 16 KiB at random units of the first span
 * bytes of a page-mapped card, in ns.
 */
static double page_random_ns(struct device *dev, uint64_t span,
			     unsigned int n, uint64_t *rng)
{
	uint64_t total = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		*rng = *rng * 6364136223846793005ULL + 1442695040888963407ULL;
		total += wr(dev, (*rng >> 33) % (span / (16 * KiB)) * 16 * KiB,
			    16 * KiB);
	}
	return (double)total / n;
}

/*
 * Garbage collection shows only as the card fills: writing a new card
 * whole costs nothing but the writes; random writes then cost more the
 * fuller the card, and less with more spare area.
 */
START_TEST(test_page_gc_as_it_fills)
{
	const char *spec = T_PAGE ",size=64M,erase=1M,used=0";
	uint64_t one = T_ACCESS_NS + 16 * KiB * 125 / 2, pos, rng = 1;
	double half, full, roomy;
	struct device *dev;

	/* a new card written whole, in order: never a reclaim */
	dev = sim_card(spec);
	for (pos = 0; pos < 64 * MiB; pos += 16 * KiB)
		ck_assert_uint_eq(wr(dev, pos, 16 * KiB), one);
	/* full, 7 % spare: random rewrites reclaim half-valid blocks */
	full = page_random_ns(dev, 64 * MiB, 8192, &rng);
	dev_close(dev);

	/* half full: the same writes over half the card */
	dev = sim_card(spec);
	for (pos = 0; pos < 32 * MiB; pos += 16 * KiB)
		wr(dev, pos, 16 * KiB);
	half = page_random_ns(dev, 32 * MiB, 8192, &rng);
	dev_close(dev);

	/* full, with 28 % spare */
	dev = sim_card(T_PAGE ",size=64M,erase=1M,used=0,spare=28");
	for (pos = 0; pos < 64 * MiB; pos += 16 * KiB)
		wr(dev, pos, 16 * KiB);
	roomy = page_random_ns(dev, 64 * MiB, 8192, &rng);
	dev_close(dev);

	ck_assert_msg(half < 1.5 * one && full > 3 * one && roomy < full / 2,
		      "random 16 KiB writes: %.0f ns half full, %.0f full, %.0f full with 28%% spare (%llu alone)",
		      half, full, roomy, (unsigned long long)one);
}
END_TEST

/* A card rewritten in order leaves whole blocks invalid: erases only. */
START_TEST(test_page_rewrite_in_order)
{
	struct device *dev = sim_card(T_PAGE ",size=64M,erase=1M");
	uint64_t one = T_ACCESS_NS + 16 * KiB * 125 / 2, pos, t = 0, n = 0;
	uint64_t erase = 2000 * 1000;

	/* used: every unit holds data; two passes in order, 4096 writes each */
	for (pos = 0; pos < 2 * 64 * MiB; pos += 16 * KiB, n++)
		t += wr(dev, pos % (64 * MiB), 16 * KiB);
	ck_assert_uint_eq((t - n * one) % erase, 0);
	ck_assert_uint_le((t - n * one) / erase, 2 * 64);
	dev_close(dev);
}
END_TEST

/* A discard frees whole units: writing there reads nothing. */
START_TEST(test_page_discard)
{
	struct device *dev = sim_card(T_PAGE);
	uint64_t unit_rd = 16 * KiB * 40, unit_wr = 16 * KiB * 125 / 2, t;

	ck_assert_int_eq(dev_discard(dev, 8 * KiB, 40 * KiB, &t), 0);
	/* [8K, 48K): units 16K and 32K freed, 0K and 48K kept */
	ck_assert_uint_eq(wr(dev, 16 * KiB, 4 * KiB), T_ACCESS_NS + unit_wr);
	ck_assert_uint_eq(wr(dev, 32 * KiB, 4 * KiB), T_ACCESS_NS + unit_wr);
	ck_assert_uint_eq(wr(dev, 0, 4 * KiB), T_ACCESS_NS + unit_rd + unit_wr);
	ck_assert_uint_eq(wr(dev, 48 * KiB, 4 * KiB),
			  T_ACCESS_NS + unit_rd + unit_wr);
	dev_close(dev);
}
END_TEST

/* The cache in front of a page-mapped card: fast, then the map's costs. */
START_TEST(test_page_with_slc)
{
	struct device *dev = sim_card(T_PAGE ",slc=64K,slc_mbps=64");
	uint64_t unit_rd = 16 * KiB * 40, unit_wr = 16 * KiB * 125 / 2;
	unsigned int i;

	for (i = 0; i < 16; i++)
		ck_assert_uint_eq(wr(dev, i * 64 * KiB, 4 * KiB),
				  T_ACCESS_NS + xfer(4 * KiB, 64));
	ck_assert_uint_eq(wr(dev, 2 * MiB, 4 * KiB),
			  T_ACCESS_NS + unit_rd + unit_wr);
	dev_close(dev);
}
END_TEST

/* ---- the card on its own ---- */

/*
 * Maintenance of 100 ms after 50 ms idle: a read 60 ms into the idle
 * time waits 90 ms; once per idle spell, and only after writes.
 */
START_TEST(test_maint_after_idle)
{
	struct device *dev = sim_card(T_SPEC ",maint_ms=100,maint_idle_ms=50");
	uint64_t read = rd(dev, 0, 4 * KiB);

	/* never written: nothing to do */
	ck_assert_int_eq(dev_idle(dev, 60 * MS), 0);
	ck_assert_uint_eq(rd(dev, 0, 4 * KiB), read);
	wr(dev, 16 * MiB, 4 * KiB);
	/* idle, but not for long enough */
	ck_assert_int_eq(dev_idle(dev, 40 * MS), 0);
	ck_assert_uint_eq(rd(dev, 0, 4 * KiB), read);
	ck_assert_int_eq(dev_idle(dev, 60 * MS), 0);
	ck_assert_uint_eq(rd(dev, 0, 4 * KiB), read + 90 * MS);
	/* done: the next idle spell finds nothing new written */
	ck_assert_int_eq(dev_idle(dev, 60 * MS), 0);
	ck_assert_uint_eq(rd(dev, 0, 4 * KiB), read);
	/* written again, then idle past the end of the work: no wait */
	wr(dev, 16 * MiB, 4 * KiB);
	ck_assert_int_eq(dev_idle(dev, 150 * MS), 0);
	ck_assert_uint_eq(rd(dev, 0, 4 * KiB), read);
	/* in a run of commands the card is never idle */
	wr(dev, 16 * MiB, 4 * KiB);
	ck_assert_uint_eq(rd(dev, 0, 4 * KiB), read);
	dev_close(dev);
}
END_TEST

/* dev_idle moves the clock on and changes no cost where nothing waits. */
START_TEST(test_idle_plain_card)
{
	struct device *dev = sim_card(T_SPEC);
	uint64_t r = rd(dev, 0, 4 * KiB), w = wr(dev, 16 * MiB, 16 * KiB), t0;

	t0 = dev_now_ns(dev);
	ck_assert_int_eq(dev_idle(dev, 5000 * MS), 0);
	ck_assert_uint_eq(dev_now_ns(dev) - t0, 5000 * MS);
	ck_assert_uint_eq(rd(dev, 0, 4 * KiB), r);
	ck_assert_uint_eq(wr(dev, 16 * MiB + 16 * KiB, 16 * KiB), w);
	dev_close(dev);
}
END_TEST

/* Stall positions among n writes of len bytes, into at[]: their count. */
static unsigned int stalls(const char *spec, unsigned int n, size_t len,
			   uint64_t plain, uint64_t stall, unsigned int *at)
{
	struct device *dev = sim_card(spec);
	unsigned int i, k = 0;

	for (i = 0; i < n; i++) {
		uint64_t t = wr(dev, 16 * MiB + i * len, len);

		ck_assert_msg(t == plain || t == plain + stall,
			      "%s: write %u took %llu ns", spec, i,
			      (unsigned long long)t);
		if (t != plain)
			at[k++] = i;
	}
	dev_close(dev);
	return k;
}

/*
 * stall_writes=10: a stall of 250 ms every 10 pages of data written (16
 * KiB here): among a hundred writes of a page ten, exactly ten apart,
 * where the seed puts the first (where the count of requests put them
 * when a stall followed requests, not bytes); the same seed the same.
 * Writes of 4 KiB meet one every 40 (each still programs a page), writes
 * of 64 KiB one in two or three.
 */
START_TEST(test_stall_every_n_writes)
{
	uint64_t plain = T_ACCESS_NS + 16 * KiB * 125 / 2;
	uint64_t plain64 = T_ACCESS_NS + 64 * KiB * 125 / 2;
	unsigned int at[400], again[400], k, i;

	k = stalls(T_SPEC ",stall_ms=250,stall_writes=10,seed=3", 100,
		   16 * KiB, plain, 250 * MS, at);
	ck_assert_uint_eq(k, 10);
	ck_assert_uint_lt(at[0], 10);
	for (i = 1; i < k; i++)
		ck_assert_uint_eq(at[i] - at[i - 1], 10);
	ck_assert_uint_eq(stalls(T_SPEC ",stall_ms=250,stall_writes=10,seed=3",
				 100, 16 * KiB, plain, 250 * MS, again), 10);
	ck_assert_mem_eq(at, again, sizeof(at[0]) * k);
	k = stalls(T_SPEC ",stall_ms=250,stall_writes=10,seed=3", 400,
		   4 * KiB, plain, 250 * MS, at);
	ck_assert_uint_eq(k, 10);
	for (i = 1; i < k; i++)
		ck_assert_uint_eq(at[i] - at[i - 1], 40);
	k = stalls(T_SPEC ",stall_ms=250,stall_writes=10,seed=3", 100,
		   64 * KiB, plain64, 250 * MS, at);
	ck_assert_uint_eq(k, 40);
	for (i = 1; i < k; i++)
		ck_assert(at[i] - at[i - 1] == 2 || at[i] - at[i - 1] == 3);
}
END_TEST

/*
 * The stalls follow the bytes written, not the requests: 4 MiB sent as
 * one write or as eight of 512 KiB (as a kernel may split it) meets the
 * same four stalls of a card that stalls every 1 MiB (stall_bytes=1M, or
 * stall_writes=64 of its 16 KiB pages), the one write paying all four.
 */
START_TEST(test_stall_split)
{
	static const char *const spec[] = {
		T_SPEC ",stall_ms=40,stall_bytes=1M",
		T_SPEC ",stall_ms=40,stall_writes=64",
	};
	uint64_t whole = T_ACCESS_NS + 4 * MiB * 125 / 2;
	uint64_t part = T_ACCESS_NS + 512 * KiB * 125 / 2, t = 0;
	struct device *dev;
	unsigned int i;

	dev = sim_card(spec[_i]);
	ck_assert_uint_eq(wr(dev, 16 * MiB, 4 * MiB), whole + 4 * 40 * MS);
	dev_close(dev);
	dev = sim_card(spec[_i]);
	for (i = 0; i < 8; i++)
		t += wr(dev, 16 * MiB + i * 512 * KiB, 512 * KiB) - part;
	ck_assert_uint_eq(t, 4 * 40 * MS);
	dev_close(dev);
}
END_TEST

/* A stall every 1 MiB written: every 16th write of 64 KiB. */
START_TEST(test_stall_every_n_bytes)
{
	uint64_t plain = T_ACCESS_NS + 64 * KiB * 125 / 2;
	unsigned int at[64], k, i;

	k = stalls(T_SPEC ",stall_ms=40,stall_bytes=1M", 64, 64 * KiB, plain,
		   40 * MS, at);
	ck_assert_uint_eq(k, 4);
	for (i = 1; i < k; i++)
		ck_assert_uint_eq(at[i] - at[i - 1], 16);
}
END_TEST

/* ---- 4 KiB logical sectors ---- */

START_TEST(test_4kn)
{
	struct device *dev = sim_card(T_SPEC ",sector=4K");
	unsigned char *buf = dev_alloc_buf(8 * KiB);
	uint64_t t;

	ck_assert_uint_eq(dev->logical_block_size, 4096);
	ck_assert_int_eq(dev_read(dev, buf, 512, 0, &t), -EINVAL);
	ck_assert_int_eq(dev->last_error.err, EINVAL);
	ck_assert_int_eq(dev_read(dev, buf, 4 * KiB, 512, &t), -EINVAL);
	ck_assert_int_eq(dev_write(dev, buf, 6 * KiB, 0, &t), -EINVAL);
	ck_assert_int_eq(dev_discard(dev, 0, 512, &t), -EINVAL);
	memset(buf, 0x5a, 8 * KiB);
	ck_assert_int_eq(dev_write(dev, buf, 8 * KiB, 4 * KiB, &t), 0);
	ck_assert_int_eq(dev_read(dev, buf, 4 * KiB, 8 * KiB, &t), 0);
	ck_assert_uint_eq(buf[0], 0x5a);
	ck_assert_int_eq(dev_discard(dev, 4 * KiB, 4 * KiB, &t), 0);
	dev_free_buf(buf);
	dev_close(dev);

	/* the default card takes 512-byte I/O */
	dev = sim_card(T_SPEC);
	ck_assert_uint_eq(dev->logical_block_size, 512);
	ck_assert_uint_eq(rd(dev, 512, 512), T_ACCESS_NS + 512 * 40);
	dev_close(dev);
}
END_TEST

Suite *simtoday_suite(void)
{
	Suite *s = suite_create("simtoday");
	TCase *tc = tcase_create("keys");

	tcase_add_test(tc, test_today_defaults);
	tcase_add_test(tc, test_today_keys);
	tcase_add_loop_test(tc, test_today_bad, 0,
			    (int)(sizeof(bad_today) / sizeof(bad_today[0])));
	suite_add_tcase(s, tc);

	tc = tcase_create("slc");
	tcase_add_test(tc, test_slc_fast_then_native);
	tcase_add_test(tc, test_slc_straddle);
	tcase_add_test(tc, test_slc_refill_after_idle);
	tcase_add_test(tc, test_slc_hides_collapse);
	tcase_add_test(tc, test_slc_untimed);
	suite_add_tcase(s, tc);

	tc = tcase_create("page");
	tcase_add_test(tc, test_page_rmw);
	tcase_add_test(tc, test_page_no_order_cost);
	tcase_add_test(tc, test_page_gc_as_it_fills);
	tcase_add_test(tc, test_page_rewrite_in_order);
	tcase_add_test(tc, test_page_discard);
	tcase_add_test(tc, test_page_with_slc);
	suite_add_tcase(s, tc);

	tc = tcase_create("own");
	tcase_add_test(tc, test_maint_after_idle);
	tcase_add_test(tc, test_idle_plain_card);
	tcase_add_test(tc, test_stall_every_n_writes);
	tcase_add_test(tc, test_stall_every_n_bytes);
	tcase_add_loop_test(tc, test_stall_split, 0, 2);
	tcase_add_test(tc, test_4kn);
	suite_add_tcase(s, tc);
	return s;
}
