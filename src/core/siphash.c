/*
 * siphash.c - SipHash-2-4 (siphash.h), as the paper's reference code
 * computes it: little-endian words, two compression rounds per word,
 * four finalization rounds.
 */
#include <config.h>

#include "siphash.h"

#define ROTL(x, b) (uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))

static uint64_t le64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

#define SIPROUND                                                                    \
	do {                                                                        \
		v0 += v1; v1 = ROTL(v1, 13); v1 ^= v0; v0 = ROTL(v0, 32);           \
		v2 += v3; v3 = ROTL(v3, 16); v3 ^= v2;                              \
		v0 += v3; v3 = ROTL(v3, 21); v3 ^= v0;                              \
		v2 += v1; v1 = ROTL(v1, 17); v1 ^= v2; v2 = ROTL(v2, 32);           \
	} while (0)

uint64_t siphash24(const unsigned char key[SIPHASH_KEYSZ], const unsigned char *m, size_t n)
{
	uint64_t k0 = le64(key), k1 = le64(key + 8);
	uint64_t v0 = k0 ^ UINT64_C(0x736f6d6570736575), v1 = k1 ^ UINT64_C(0x646f72616e646f6d);
	uint64_t v2 = k0 ^ UINT64_C(0x6c7967656e657261), v3 = k1 ^ UINT64_C(0x7465646279746573);
	uint64_t b = (uint64_t)n << 56, w;
	size_t i, left = n & 7;

	for (i = 0; i + 8 <= n; i += 8) {
		w = le64(m + i);
		v3 ^= w;
		SIPROUND;
		SIPROUND;
		v0 ^= w;
	}
	for (size_t j = 0; j < left; j++)
		b |= (uint64_t)m[i + j] << (8 * j);
	v3 ^= b;
	SIPROUND;
	SIPROUND;
	v0 ^= b;
	v2 ^= 0xff;
	SIPROUND;
	SIPROUND;
	SIPROUND;
	SIPROUND;
	return v0 ^ v1 ^ v2 ^ v3;
}
