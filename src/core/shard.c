/*
 * shard.c - shards of the ID space by leading byte (see shard.h).
 */
#include "shard.h"

#include <stdio.h>
#include <string.h>

/* A plain decimal (digits only, no sign or space) up to `max`, or -1. */
static long parse_small(const char *s, size_t len, long max)
{
	long v = 0;

	if (!len)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
		if (v > max)
			return -1;
	}
	return v;
}

int shard_parse(shard *out, const char *s, char *err, size_t errsz)
{
	const char *slash = s ? strchr(s, '/') : NULL;
	long k, n;

	if (!slash) {
		snprintf(err, errsz, "'--shard' takes K/N (shard K of N, from 0), not '%s'",
			 s ? s : "");
		return -1;
	}
	k = parse_small(s, (size_t)(slash - s), 100000);
	n = parse_small(slash + 1, strlen(slash + 1), 100000);
	if (k < 0 || n < 0) {
		snprintf(err, errsz, "'--shard' takes K/N in plain decimals, not '%s'", s);
		return -1;
	}
	if (n < 1 || n > SHARD_MAX || SHARD_MAX % n) {
		snprintf(err, errsz, "'--shard=%s': N must divide 256 (1, 2, 4, ..., 256)", s);
		return -1;
	}
	if (k >= n) {
		snprintf(err, errsz, "'--shard=%s': shards of %ld are numbered 0 to %ld", s, n,
			 n - 1);
		return -1;
	}
	out->k = (unsigned)k;
	out->n = (unsigned)n;
	return 0;
}

unsigned shard_lo(shard sh)
{
	return sh.k * (SHARD_MAX / sh.n);
}

unsigned shard_hi(shard sh)
{
	return (sh.k + 1) * (SHARD_MAX / sh.n);
}

int shard_has_byte(shard sh, unsigned byte)
{
	return byte >= shard_lo(sh) && byte < shard_hi(sh);
}

int shard_is_all(shard sh)
{
	return sh.n == 1;
}

const char *shard_describe(char *buf, size_t n, shard sh)
{
	unsigned lo = shard_lo(sh), hi = shard_hi(sh) - 1;

	if (shard_is_all(sh))
		snprintf(buf, n, "0/1 (all IDs)");
	else if (lo == hi)
		snprintf(buf, n, "%u/%u (IDs %02x...)", sh.k, sh.n, lo);
	else if (lo % 16 == 0 && hi % 16 == 15)
		/* whole hex digits: 3/16 is "3", 0/8 is "0 to 1" */
		if (lo / 16 == hi / 16)
			snprintf(buf, n, "%u/%u (IDs %x...)", sh.k, sh.n, lo / 16);
		else
			snprintf(buf, n, "%u/%u (IDs %x... to %x...)", sh.k, sh.n, lo / 16, hi / 16);
	else
		snprintf(buf, n, "%u/%u (IDs %02x... to %02x...)", sh.k, sh.n, lo, hi);
	return buf;
}

int shard_cover(const shard *shards, size_t m, size_t *overlap_a, size_t *overlap_b,
		char *missing, size_t missingsz)
{
	int owner[SHARD_MAX];
	unsigned finest = 1;
	size_t o = 0;
	int gaps = 0;

	for (unsigned b = 0; b < SHARD_MAX; b++)
		owner[b] = -1;
	for (size_t i = 0; i < m; i++) {
		if (shards[i].n > finest)
			finest = shards[i].n;
		for (unsigned b = shard_lo(shards[i]); b < shard_hi(shards[i]); b++) {
			if (owner[b] >= 0) {
				*overlap_a = (size_t)owner[b];
				*overlap_b = i;
				return 1;
			}
			owner[b] = (int)i;
		}
	}
	if (missingsz)
		missing[0] = '\0';
	/* a missing range is a union of shards of the finest N (all N divide 256) */
	for (unsigned k = 0; k < finest; k++) {
		shard f = { k, finest };

		if (owner[shard_lo(f)] >= 0)
			continue;
		gaps = 1;
		if (o < missingsz)
			o += (size_t)snprintf(missing + o, missingsz - o, "%s%u/%u", o ? ", " : "",
					      k, finest);
	}
	return gaps ? 2 : 0;
}
