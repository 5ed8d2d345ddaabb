// SPDX-License-Identifier: GPL-2.0-only
/*
 * The cards of the hard sweep (see hardcard.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hardcard.h"

const char *const behaviour_names[B_NR] = {
	"plain", "multi-plane", "alloc group", "gradual AU step", "pauses",
	"read-ahead", "no read sig", "random slower", "no random open",
	"FAT random only", "FAT both", "gradual collapse",
};

const char *const mechanic_names[M_NR] = {
	"today's", "ooo=merge", "ooo=copy-whole", "ooo=copy-written",
	"random_us", "close=rest", "close=all", "fullclose=1", "evict=oldest",
	"used=0", "fat_gain=slot", "fat_gain=speed",
};

const char *const today_names[T_NR] = {
	"2011 card", "pSLC cache", "page-mapped", "page-mapped full",
	"idle maint", "write stalls", "4 KiB sectors",
};

/* SWEEP_SEED: results vary by a few cards from one draw to the next. */
static unsigned int noise_shift(void)
{
	const char *v = getenv("SWEEP_SEED");

	return v ? (unsigned int)strtoul(v, NULL, 10) : 0;
}

static uint64_t hard_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* n in [0, 100) below pct. */
static int chance(uint64_t *s, unsigned int pct)
{
	return hard_rand(s) % 100 < pct;
}

/* Append to a SPEC. */
static void add(char *spec, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void add(char *spec, size_t len, const char *fmt, ...)
{
	size_t n = strlen(spec);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(spec + n, len - n, fmt, ap);
	va_end(ap);
}

/* Card number i: the same i always gives the same card. */
void hard_card(unsigned int i, struct hard_card *c)
{
	static const unsigned int erase_kib[] = {
		1024, 2048, 4096, 8192, 16384, 32768, 65536, 3072, 6144,
		12288, 24576, 4096, 4096, 8192,
	};
	static const unsigned int page_kib[] = { 4, 8, 16, 32, 64 };
	static const unsigned int size_gib[] = { 1, 2, 4, 8, 16, 32, 64, 128 };
	uint64_t s = 7000 + i, min_size;
	char *sp = c->spec;
	size_t len = sizeof(c->spec);

	memset(c, 0, sizeof(*c));
	c->mechanics = 1u << M_TODAY;
	c->today = 1u << T_2011;
	c->native_mbps = 12;	/* the model's write_mbps */
	c->erase = (uint64_t)erase_kib[hard_rand(&s) % 14] << 10;
	c->page = (uint64_t)page_kib[hard_rand(&s) % 5] << 10;
	c->size = (uint64_t)size_gib[hard_rand(&s) % 8] << 30;
	/*
	 * The SD specification ties the largest AU to the capacity (4 MiB
	 * up to 32 GB, 64 MiB for SDXC): no card has only a few dozen AUs.
	 */
	min_size = c->erase * 256;
	if (c->size < min_size)
		c->size = min_size;
	c->open = 1 + hard_rand(&s) % 16;
	c->open_random = c->open > 1 ? 1 + hard_rand(&s) % (c->open - 1) : 1;
	c->fat = hard_rand(&s) % 5;
	c->fat_start = c->fat ? hard_rand(&s) % 5 : 0;
	c->noise = (double)(hard_rand(&s) % 7) / 2;	/* 0 .. 3 % */
	snprintf(sp, len, "size=%llu,erase=%llu,page=%llu",
		 (unsigned long long)c->size, (unsigned long long)c->erase,
		 (unsigned long long)c->page);
	if (c->page <= 16384 && chance(&s, 25)) {
		c->plane = 2 << (hard_rand(&s) % 2);	/* 2 or 4 pages */
		c->behaviours |= 1u << B_PLANE;
		add(sp, len, ",plane=%u", c->plane);
	}
	if (c->size >= (4ULL << 30) && chance(&s, 15)) {
		c->behaviours |= 1u << B_GROUP;
		c->group = (1 + hard_rand(&s) % 2) << 30;
		add(sp, len, ",group=%llu", (unsigned long long)c->group);
	}
	if (chance(&s, 12)) {
		c->behaviours |= 1u << B_NOREADSIG;
		add(sp, len, ",readsig=0");
	} else if (chance(&s, 15)) {
		c->behaviours |= 1u << B_SPREAD;
		add(sp, len, ",au_spread=%u",
		    2 + (unsigned int)(hard_rand(&s) % 2));
	}
	if (chance(&s, 15)) {
		c->behaviours |= 1u << B_PAUSES;
		add(sp, len, ",pause_pct=%u,pause_us=%u",
		    1 + (unsigned int)(hard_rand(&s) % 2),
		    1000 + (unsigned int)(hard_rand(&s) % 4000));
	}
	if (chance(&s, 12)) {
		c->behaviours |= 1u << B_READAHEAD;
		add(sp, len, ",readahead=128K");
	}
	if (chance(&s, 15)) {
		c->behaviours |= 1u << B_RANDSLOW;
		add(sp, len, ",random_mbps=%u",
		    2 + (unsigned int)(hard_rand(&s) % 4));
	}
	if (chance(&s, 10)) {
		c->behaviours |= 1u << B_NORANDOM;
		c->open_random = 0;
	}
	if (c->fat && chance(&s, 30)) {
		int both = chance(&s, 40);

		c->behaviours |= 1u << (both ? B_FATBOTH : B_FATRANDOM);
		add(sp, len, ",fat_kind=%s", both ? "both" : "random");
	}
	if (chance(&s, 15)) {
		c->behaviours |= 1u << B_GRADUAL;
		add(sp, len, ",collapse=gradual");
	}
	if (!c->behaviours)
		c->behaviours = 1u << B_PLAIN;
	add(sp, len, ",open=%u,open_random=%u,fat=%u,fat_start=%u",
	    c->open, c->open_random, c->fat, c->fat_start);
	add(sp, len, ",noise=%g,seed=%u", c->noise, i + 1 + noise_shift());
}


int hard_env_drawn(void)
{
	const char *mech = getenv("SWEEP_MECH"), *host = getenv("SWEEP_HOST");
	const char *today = getenv("SWEEP_TODAY");

	return (mech && strcmp(mech, "0")) || (host && *host) ||
	       (today && strcmp(today, "0"));
}

/* Plant open random n: in c and as ",open_random=n," in its spec. */
static void plant_random(struct hard_card *c, unsigned int n)
{
	char *p = strstr(c->spec, ",open_random="), *end, num[16];
	size_t len;

	c->open_random = n;
	if (!p)
		return;
	p += strlen(",open_random=");
	end = strchr(p, ',');
	len = (size_t)snprintf(num, sizeof(num), "%u", n);
	if (!end || strlen(c->spec) + len >= sizeof(c->spec))
		return;
	memmove(p + len, end, strlen(end) + 1);
	memcpy(p, num, len);
}

/*
 * What open random is on a card of ooo form name: none on one that
 * copies at every write out of order (merge, copy-whole: -O --random
 * collapses with one AU); on copy-written, whose small writes out of
 * order copy only the few written since the last (-O --random -b 16K
 * a third of the linear rate, no collapse up to open AUs), open.
 */
static void plant_ooo(struct hard_card *c, const char *name)
{
	plant_random(c, strstr(name, "copy-written") ? c->open : 0);
}

/*
 * The mechanics of card i, from their own sequence: the cards stay what
 * hard_card() draws, and only gain keys.  Each form is about as likely
 * as the model's own, so that every one meets every behaviour.
 */
static void draw_mechanics(unsigned int i, struct hard_card *c)
{
	static const unsigned int ooo_bit[] = {
		M_OOO_MERGE, M_OOO_WHOLE, M_OOO_WRITTEN,
	};
	static const char *const ooo[] = {
		"merge", "copy-whole", "copy-written",
	};
	uint64_t s = 0x6d656368ULL + i;	/* "mech" */
	size_t len = sizeof(c->spec);
	unsigned int r;

	r = hard_rand(&s) % 10;
	if (r >= 4) {
		r = (r - 4) / 2;
		c->mechanics |= 1u << ooo_bit[r];
		add(c->spec, len, ",ooo=%s", ooo[r]);
		plant_ooo(c, ooo[r]);
	} else if (c->open_random && chance(&s, 25)) {
		c->mechanics |= 1u << M_RANDOM_US;
		add(c->spec, len, ",random_us=%u",
		    50 + (unsigned int)(hard_rand(&s) % 750));
	}
	r = hard_rand(&s) % 10;
	if (r >= 4) {
		c->mechanics |= 1u << (r >= 8 ? M_CLOSE_ALL : M_CLOSE_REST);
		add(c->spec, len, ",close=%s", r >= 8 ? "all" : "rest");
	}
	if (chance(&s, 40)) {
		c->mechanics |= 1u << M_FULLCLOSE;
		add(c->spec, len, ",fullclose=1");
	}
	if (chance(&s, 40)) {
		c->mechanics |= 1u << M_EVICT_OLDEST;
		add(c->spec, len, ",evict=oldest");
	}
	if (chance(&s, 50)) {
		c->mechanics |= 1u << M_NEW;
		add(c->spec, len, ",used=0");
	}
	r = hard_rand(&s) % 10;
	if (c->fat && r >= 4) {
		c->mechanics |= 1u << (r >= 8 ? M_FAT_SPEED : M_FAT_SLOT);
		add(c->spec, len, ",fat_gain=%s", r >= 8 ? "speed" : "slot");
	}
	if (!c->mechanics)
		c->mechanics = 1u << M_TODAY;
}

/*
 * The mechanics keys given (SWEEP_MECH=ooo=merge,used=0), the same on
 * every card: one mechanic at a time, to tell which breaks what.
 */
static void give_mechanics(struct hard_card *c, const char *keys)
{
	unsigned int m;

	add(c->spec, sizeof(c->spec), ",%s", keys);
	c->mechanics = 0;
	for (m = M_TODAY + 1; m < M_NR; m++) {
		const char *name = mechanic_names[m];

		if (!strstr(keys, name) ||
		    (!strncmp(name, "fat_gain", 8) && !c->fat))
			continue;
		c->mechanics |= 1u << m;
		if (!strncmp(name, "ooo=", 4))
			plant_ooo(c, name);
	}
	if (!c->mechanics)
		c->mechanics = 1u << M_TODAY;
}

/*
 * Today's mechanics of card i, from their own sequence, each as real
 * cards show it (sim.c's Today's cards):
 *   - a pSLC cache of 128 MiB to 1 GiB (at most an eighth of the card),
 *     its native rate past it 8, 18 or 45 MB/s (under a class's 10 or
 *     30, well above it), the cache's 4 times that;
 *   - a page map of 4, 8 or 16 KiB units (A1/A2 cards, eMMC), a fifth
 *     of them nearly full (2 % spare, every unit holding data);
 *   - idle maintenance of 50-300 ms (eMMC's BKOPS);
 *   - a stall of 100-500 ms every 100-1000 writes (inline reclaims);
 *   - 4 KiB logical sectors (USB sticks, 4Kn media).
 * A card may have several, as real cards do; the cards stay what
 * hard_card() draws and only gain keys.
 */
static void draw_today(unsigned int i, struct hard_card *c)
{
	static const double native[] = { 8, 18, 45 };
	static const unsigned int map_kib[] = { 4, 8, 16 };
	uint64_t s = 0x746f646179ULL + i;	/* "today" */
	size_t len = sizeof(c->spec);

	c->today = 0;
	if (chance(&s, 35)) {
		uint64_t slc = (128ULL << 20) << (hard_rand(&s) % 4);

		while (slc > c->size / 8)
			slc /= 2;
		c->slc = slc;
		c->native_mbps = native[hard_rand(&s) % 3];
		c->today |= 1u << T_SLC;
		add(c->spec, len, ",slc=%llu,write_mbps=%g",
		    (unsigned long long)slc, c->native_mbps);
	}
	if (chance(&s, 35)) {
		int full = chance(&s, 20);

		c->today |= 1u << (full ? T_FULL : T_PAGE);
		c->map = (uint64_t)map_kib[hard_rand(&s) % 3] << 10;
		add(c->spec, len, ",ftl=page,map=%lluK%s",
		    (unsigned long long)(c->map >> 10), full ? ",spare=2" : "");
	}
	if (chance(&s, 15)) {
		c->today |= 1u << T_MAINT;
		add(c->spec, len, ",maint_ms=%u",
		    50 + (unsigned int)(hard_rand(&s) % 251));
	}
	if (chance(&s, 15)) {
		/* 100-500 ms every 32-256 MiB written: stalls follow bytes */
		c->today |= 1u << T_STALL;
		add(c->spec, len, ",stall_ms=%u,stall_bytes=%uM",
		    100 + (unsigned int)(hard_rand(&s) % 401),
		    32 + (unsigned int)(hard_rand(&s) % 225));
	}
	if (chance(&s, 12)) {
		c->today |= 1u << T_SECTOR;
		add(c->spec, len, ",sector=4K");
	}
	if (!c->today)
		c->today = 1u << T_2011;
}

/* The today's keys given (SWEEP_TODAY=slc=256M), the same on every card. */
static void give_today(struct hard_card *c, const char *keys)
{
	static const struct {
		const char *key;
		enum today t;
	} keyed[] = {
		{ "slc=", T_SLC }, { "spare=", T_FULL }, { "ftl=page", T_PAGE },
		{ "maint_ms=", T_MAINT }, { "stall_", T_STALL },
		{ "sector=4", T_SECTOR },
	};
	const char *w = strstr(keys, "write_mbps=");
	size_t k;

	add(c->spec, sizeof(c->spec), ",%s", keys);
	c->today = 0;
	for (k = 0; k < sizeof(keyed) / sizeof(keyed[0]); k++)
		if (strstr(keys, keyed[k].key) &&
		    !(keyed[k].t == T_PAGE && (c->today & (1u << T_FULL))))
			c->today |= 1u << keyed[k].t;
	if (c->today & (1u << T_SLC)) {
		char *end;

		c->slc = strtoull(strstr(keys, "slc=") + 4, &end, 10);
		c->slc <<= *end == 'K' ? 10 : *end == 'M' ? 20 :
			   *end == 'G' ? 30 : 0;
	}
	if (w)
		c->native_mbps = strtod(w + strlen("write_mbps="), NULL);
	if (c->today & ((1u << T_PAGE) | (1u << T_FULL)))
		c->map = 4096;	/* the model's default */
	if ((w = strstr(keys, "map=")) && c->map) {
		char *end;

		c->map = strtoull(w + 4, &end, 10);
		c->map <<= *end == 'K' ? 10 : *end == 'M' ? 20 : 0;
	}
	if (!c->today)
		c->today = 1u << T_2011;
}

void hard_card_today(unsigned int i, struct hard_card *c)
{
	hard_card(i, c);
	draw_today(i, c);
}

void hard_card_env(unsigned int i, struct hard_card *c)
{
	const char *mech = getenv("SWEEP_MECH"), *host = getenv("SWEEP_HOST");
	const char *today = getenv("SWEEP_TODAY");

	hard_card(i, c);
	c->mechanics = 1u << M_TODAY;
	if (mech && strchr(mech, '=')) {
		give_mechanics(c, mech);
	} else if (mech && strcmp(mech, "0")) {
		c->mechanics = 0;
		draw_mechanics(i, c);
	}
	if (today && strchr(today, '='))
		give_today(c, today);
	else if (today && strcmp(today, "0"))
		draw_today(i, c);
	if (host && *host)
		add(c->spec, sizeof(c->spec), ",host=%s", host);
}
