/*
 * gen_ids.c - uniformly random object IDs for one shard at a time.
 *
 *	gen_ids --total=N --shard=K/M [--seed=S] [--format=swhid|batch-check]
 *	        [--hash=sha1|sha256]
 *
 * Prints, in random order, the IDs that shard K of M (the first bytes
 * K*256/M .. (K+1)*256/M - 1, as `git abbrev ids --shard` counts them)
 * holds of a set of N uniformly random IDs, one a line with a type:
 * "swh:1:rev:<hex>" (SWHIDs, the default) or "<hex> commit" (git cat-file
 * --batch-check).  The set as a whole is never stored: shard K gets
 * N/M IDs (the first N mod M shards one more), with first bytes uniform
 * in its range and the other bytes uniform, so the union of all shards is
 * N uniform IDs save that the shards' sizes are fixed instead of
 * multinomial, which changes the birthday model's expected pairs by a
 * factor (N - M) / (N - 1): nothing at N = 1e9.
 *
 * Types: about 1/8 commits and the rest nearly half trees and half blobs,
 * one tag in 1000 (the shape of bench/gen_synth.py, after the Linux
 * kernel's object store).  Random bytes come from xoshiro256** seeded by
 * splitmix64 from (S, K, M), so a shard is the same on every run and
 * machine, and shards of one seed are independent streams.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng[4];

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/* xoshiro256** (Blackman and Vigna) */
static uint64_t next(void)
{
	uint64_t r = rotl(rng[1] * 5, 7) * 9, t = rng[1] << 17;

	rng[2] ^= rng[0];
	rng[3] ^= rng[1];
	rng[1] ^= rng[2];
	rng[0] ^= rng[3];
	rng[2] ^= t;
	rng[3] = rotl(rng[3], 45);
	return r;
}

static int usage(void)
{
	fputs("usage: gen_ids --total=N --shard=K/M [--seed=S] [--format=swhid|batch-check] "
	      "[--hash=sha1|sha256]\n", stderr);
	return 2;
}

static int number(const char *s, unsigned long long *v)
{
	char *end;
	double d;

	errno = 0;
	*v = strtoull(s, &end, 10);
	if (!errno && end != s && !*end)
		return 0;
	/* 1e9 */
	d = strtod(s, &end);
	if (end == s || *end || !(d >= 0 && d < 1.8e19) || d != (double)(unsigned long long)d)
		return -1;
	*v = (unsigned long long)d;
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long long total = 0, k = 0, m = 0, seed = 1;
	int swhid = 1, have_total = 0, have_shard = 0;
	size_t rawsz = 20;
	static char buf[1 << 16];
	size_t o = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strncmp(a, "--total=", 8)) {
			if (number(a + 8, &total))
				return usage();
			have_total = 1;
		} else if (!strncmp(a, "--shard=", 8)) {
			char *end;

			k = strtoull(a + 8, &end, 10);
			if (*end != '/' || number(end + 1, &m) || !m || m > 256 || 256 % m || k >= m)
				return usage();
			have_shard = 1;
		} else if (!strncmp(a, "--seed=", 7)) {
			if (number(a + 7, &seed))
				return usage();
		} else if (!strcmp(a, "--format=swhid")) {
			swhid = 1;
		} else if (!strcmp(a, "--format=batch-check")) {
			swhid = 0;
		} else if (!strcmp(a, "--hash=sha1")) {
			rawsz = 20;
		} else if (!strcmp(a, "--hash=sha256")) {
			rawsz = 32;
		} else {
			return usage();
		}
	}
	if (!have_total || !have_shard || (swhid && rawsz != 20))
		return usage();

	uint64_t x = seed * 0x100000001b3ULL ^ (k << 16) ^ m;
	for (int i = 0; i < 4; i++)
		rng[i] = splitmix64(&x);
	unsigned long long n = total / m + (k < total % m);
	unsigned width = (unsigned)(256 / m), lo = (unsigned)k * width;
	static const char hex[] = "0123456789abcdef";
	static const char *const swh[] = { "swh:1:rev:", "swh:1:dir:", "swh:1:cnt:", "swh:1:rel:" };
	static const char *const git[] = { " commit\n", " tree\n", " blob\n", " tag\n" };

	for (unsigned long long i = 0; i < n; i++) {
		unsigned char id[32];
		uint64_t r = next();
		/* type: 125 commits, 437 trees, 437 blobs, 1 tag per 1000 */
		unsigned t = (unsigned)(r % 1000);
		int type = t < 125 ? 0 : t < 562 ? 1 : t < 999 ? 2 : 3;

		for (size_t b = 0; b < rawsz; b += 8) {
			uint64_t v = next();

			for (size_t j = 0; j < 8 && b + j < rawsz; j++)
				id[b + j] = (unsigned char)(v >> (8 * j));
		}
		/* the first byte uniform in the shard's range */
		id[0] = (unsigned char)(lo + (unsigned)((r >> 32) % width));
		if (o + 128 > sizeof(buf)) {
			if (fwrite(buf, 1, o, stdout) != o)
				return 1;
			o = 0;
		}
		if (swhid) {
			memcpy(buf + o, swh[type], 10);
			o += 10;
		}
		for (size_t b = 0; b < rawsz; b++) {
			buf[o++] = hex[id[b] >> 4];
			buf[o++] = hex[id[b] & 15];
		}
		if (swhid) {
			buf[o++] = '\n';
		} else {
			size_t l = strlen(git[type]);

			memcpy(buf + o, git[type], l);
			o += l;
		}
	}
	if (fwrite(buf, 1, o, stdout) != o || fflush(stdout))
		return 1;
	return 0;
}
