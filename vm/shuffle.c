// SPDX-License-Identifier: GPL-2.0-only
/*
 * The pseudo-random order of the timing VM's VM_OFF_RAND series,
 * vm_shuffle(): a permutation known beforehand, which the tests that
 * plan their rounds (scatter, the open-AU probe) use outside the VM too.
 */
#include "vmprog.h"

/* One round of a bijection on bits-wide integers: add, multiply, xorshift. */
static uint64_t shuffle_round(uint64_t x, unsigned int bits, uint64_t mask,
			      uint64_t key)
{
	x = (x + key) & mask;
	x = (x * 0x9e3779b97f4a7c15ULL) & mask;	/* odd: invertible mod 2^bits */
	x ^= x >> (bits / 2 + 1);
	return x;
}

/* A permutation of [0, 2^bits), mixed enough to look random. */
static uint64_t shuffle_pow2(uint64_t x, unsigned int bits, uint64_t key)
{
	uint64_t mask = bits >= 64 ? ~0ULL : (1ULL << bits) - 1;
	uint64_t k = key * 0xbf58476d1ce4e5b9ULL + 0x94d049bb133111ebULL;
	int r;

	for (r = 0; r < 4; r++) {
		x = shuffle_round(x, bits, mask, k);
		k = (k ^ (k >> 31)) * 0xd6e8feb86659fd93ULL + 1;
	}
	return x;
}

uint64_t vm_shuffle(uint64_t i, uint64_t n, uint64_t key)
{
	unsigned int bits = 0;
	uint64_t x;

	if (n <= 1)
		return 0;
	i %= n;		/* the walk below only ends for i inside [0, n) */
	while (bits < 64 && (1ULL << bits) < n)
		bits++;
	/*
	 * Cycle walking: following the permutation of the enclosing power of
	 * two until it lands inside [0, n) is itself a permutation of [0, n).
	 */
	x = shuffle_pow2(i, bits, key);
	while (x >= n)
		x = shuffle_pow2(x, bits, key);
	return x;
}
