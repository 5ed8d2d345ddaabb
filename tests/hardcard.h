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

/* A card of the hard sweep and what was planted in it. */
struct hard_card {
	uint64_t size, erase, page, group;
	unsigned int plane, open, open_random, fat, fat_start;
	unsigned int behaviours;	/* 1 << enum behaviour */
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

#endif /* FLASHBENCH_TESTS_HARDCARD_H */
