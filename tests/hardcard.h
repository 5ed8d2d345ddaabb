/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The cards of the hard sweep: simulated cards that mix what real cards
 * do, each with what was planted in it.  The sweep suite scores --auto on
 * them; make bench measures its device time on them.
 */
#ifndef FLASHBENCH_TESTS_HARDCARD_H
#define FLASHBENCH_TESTS_HARDCARD_H

#include <stdint.h>

#define HARD_CARDS 320u

/* The behaviours a card may have, each a bit. */
enum behaviour {
	B_PLAIN,	/* none of the below */
	B_PLANE,	/* multi-plane: a second read step at plane x page */
	B_GROUP,	/* an allocation group step far above the AU */
	B_SPREAD,	/* the AU step spread over several alignments */
	B_PAUSES,	/* heavy-tailed pauses */
	B_READAHEAD,	/* a read-ahead cache */
	B_NOREADSIG,	/* no read signature at all */
	B_RANDSLOW,	/* random-order writes slower inside an open AU */
	B_NORANDOM,	/* no AU kept open in random order */
	B_FATRANDOM,	/* FAT area only in random-order small writes */
	B_FATBOTH,	/* FAT area in linear and random-order writes */
	B_GRADUAL,	/* gradual collapse above the open limit */
	B_NR
};

/* Their names, for the tallies. */
extern const char *const behaviour_names[B_NR];

/*
 * How a card works inside, beyond the model's own mechanics (sim.c's
 * How cards differ inside), each a bit; drawn only with SWEEP_MECH=1.
 */
enum mechanic {
	M_TODAY,	/* none of the below */
	M_OOO_MERGE,	/* ooo=merge: no random mode, a merge instead */
	M_OOO_WHOLE,	/* ooo=copy-whole */
	M_OOO_WRITTEN,	/* ooo=copy-written */
	M_RANDOM_US,	/* random_us: a cost per out-of-order write */
	M_CLOSE_REST,	/* close=rest */
	M_CLOSE_ALL,	/* close=all */
	M_FULLCLOSE,	/* fullclose=1 */
	M_EVICT_OLDEST,	/* evict=oldest */
	M_NEW,		/* used=0: a new card */
	M_FAT_SLOT,	/* fat_gain=slot */
	M_FAT_SPEED,	/* fat_gain=speed */
	M_NR
};

/* Their names, for the tallies. */
extern const char *const mechanic_names[M_NR];

/*
 * Today's mechanics (issue 26: sim.c's Today's cards), each a bit;
 * drawn only with SWEEP_TODAY=1 (or SWEEP_TODAY=KEY=VALUE[,...] on
 * every card, one at a time).
 */
enum today {
	T_2011,		/* none below: the block-mapped card of 2011 */
	T_SLC,		/* slc=: a pSLC write cache */
	T_PAGE,		/* ftl=page: page-mapped, no open-AU limit */
	T_FULL,		/* page-mapped, nearly full (little spare) */
	T_MAINT,	/* maint_ms=: idle maintenance */
	T_STALL,	/* stall_ms=, stall_bytes=: long write stalls */
	T_SECTOR,	/* sector=4K: 4 KiB logical blocks */
	T_NR
};

/* Their names, for the tallies. */
extern const char *const today_names[T_NR];

/* A card of the hard sweep and what was planted in it. */
struct hard_card {
	uint64_t size, erase, page, group;
	unsigned int plane, open, open_random, fat, fat_start;
	unsigned int behaviours;	/* 1 << enum behaviour */
	unsigned int mechanics;		/* 1 << enum mechanic */
	unsigned int today;		/* 1 << enum today */
	uint64_t slc;			/* pSLC cache, bytes (0: none) */
	uint64_t map;			/* page map's unit, bytes (0: AUs) */
	double native_mbps;		/* write rate past it (write_mbps) */
	double noise;
	char spec[400];
};

/*
 * Card number i (the same i always gives the same card).  SWEEP_SEED=N
 * in the environment shifts every card's noise seed by N and leaves the
 * cards as they are: a change to the verdict is judged on several draws
 * of the noise, not only the one the test keeps.
 */
void hard_card(unsigned int i, struct hard_card *c);

/*
 * Card number i as hard_card() gives it, plus what the environment asks
 * for: SWEEP_MECH=1 draws its mechanics too (ooo, random_us, close,
 * fullclose, evict, used, fat_gain; open random is then planted as 0 on
 * a card that copies at every write out of order, as open on one that
 * copies what it wrote since the last); SWEEP_MECH=KEY=VALUE[,...]
 * gives every card those keys (one mechanic at a time); SWEEP_TODAY=1
 * draws today's mechanics (enum today: a pSLC cache, a page map, idle
 * maintenance, write stalls, 4 KiB sectors), SWEEP_TODAY=KEY=VALUE[,...]
 * gives every card those keys; SWEEP_HOST=light|heavy puts it behind a
 * busy host.  None set: hard_card() exactly.
 */
void hard_card_env(unsigned int i, struct hard_card *c);

/*
 * Card number i with today's mechanics drawn, as SWEEP_TODAY=1 makes it
 * (and only that: the environment is not read but for SWEEP_SEED).
 */
void hard_card_today(unsigned int i, struct hard_card *c);

/* Does the environment ask hard_card_env() for more than hard_card()? */
int hard_env_drawn(void);

#endif /* FLASHBENCH_TESTS_HARDCARD_H */
