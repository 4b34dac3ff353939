/*
 * shard.h - the ID space split by leading byte into 1..256 shards.
 *
 * Two IDs can share L >= 2 hex chars only if they share their first byte,
 * so the 256 first bytes split every set into parts whose collision
 * counts at L >= ABBREV_MIN_LEN add up exactly.  Shard K of N (0 <= K < N,
 * N a divisor of 256, i.e. a power of two) holds the IDs whose first byte
 * is in [K*256/N, (K+1)*256/N): shard K/16 is the IDs that start with hex
 * digit K, shard K/256 the ones that start with the two hex chars of K.
 * Contiguous ranges keep a shard's IDs, and the shards in order, in ID
 * order, and a shard of N is a union of shards of any finer N'.
 *
 * Pure functions on caller-owned structs; nothing to free.
 */
#ifndef ABBREV_SHARD_H
#define ABBREV_SHARD_H

#include <stddef.h>

#define SHARD_MAX 256

typedef struct {
	unsigned k, n;  /* shard k of n; 0/1 is the whole ID space */
} shard;

/* The whole ID space: shard 0 of 1. */
#define SHARD_ALL ((shard){ 0, 1 })

/*
 * Parse "K/N": plain decimals, N a divisor of 256 (1, 2, 4, ... 256) and
 * K < N.  Returns 0, or -1 with a one-line reason in err.
 */
int shard_parse(shard *out, const char *s, char *err, size_t errsz);

/* First byte of the shard's range and one past its last. */
unsigned shard_lo(shard sh);
unsigned shard_hi(shard sh);

/* Whether an ID whose first byte is `byte` belongs to the shard. */
int shard_has_byte(shard sh, unsigned byte);

/* Whether the shard is the whole ID space. */
int shard_is_all(shard sh);

/*
 * "3/16 (IDs 3...)" style description: "K/N" plus, for people, the hex
 * prefixes it holds ("30 to 3f", "3", "all IDs").  Returns buf.
 */
const char *shard_describe(char *buf, size_t n, shard sh);

/*
 * Whether shards cover the ID space exactly once.  Given m shards, fills
 * *overlap_a / *overlap_b with the indices of the first two that overlap
 * (returns 1), or, when none overlap but some first bytes are covered by
 * none, writes the missing ones as a list of shards of `finest` N (the
 * largest N among them) into missing ("1/16, 5/16") and returns 2;
 * 0 when they cover it exactly once.
 */
int shard_cover(const shard *shards, size_t m, size_t *overlap_a, size_t *overlap_b,
		char *missing, size_t missingsz);

#endif
