/*
 * check_hexid.c - unit tests of hexid: hex spelling and parsing of raw
 * IDs, shared-prefix length, type and hash names.
 *
 * The fixture makes one SHA-1 and one SHA-256 ID from the fixed LCG; the
 * lcp tests derive IDs from them by rewriting single hex chars, so every
 * expected length is known by construction.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "hexid.h"
#include "tagobj.h"

static unsigned char base20[20];
static unsigned char base32[32];

static void setup(void)
{
	uint64_t st = 42;

	test_rand_id(base20, sizeof(base20), &st);
	test_rand_id(base32, sizeof(base32), &st);
}

static void teardown(void)
{
	memset(base20, 0, sizeof(base20));
	memset(base32, 0, sizeof(base32));
}

/*
 * A copy of `raw` that shares exactly `k` leading hex chars with it: hex
 * char k is changed (xor 8, so it always differs) and so is every later
 * one (xor 5), so no accidental longer match can hide a bug.
 */
static void diverge_at(unsigned char *out, const unsigned char *raw, size_t rawsz, size_t k)
{
	memcpy(out, raw, rawsz);
	if (k >= 2 * rawsz)
		return;
	test_set_nibble(out, k, test_nibble(raw, k) ^ 8u);
	for (size_t i = k + 1; i < 2 * rawsz; i++)
		test_set_nibble(out, i, test_nibble(raw, i) ^ 5u);
}

/* ---- core ---- */

START_TEST(test_fmt_known)
{
	static const unsigned char raw[20] = {
		0x00, 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, 0x10,
		0x32, 0x54, 0x76, 0x98, 0xba, 0xdc, 0xfe, 0xff, 0x80, 0x7f
	};
	char buf[ABBREV_MAX_HEXSZ + 8];

	/* 40 lower-case chars, then exactly one NUL: the byte after stays 'X'. */
	memset(buf, 'X', sizeof(buf));
	hexid_fmt(buf, raw, sizeof(raw));
	ck_assert_str_eq(buf, "000123456789abcdef1032547698badcfeff807f");
	ck_assert_int_eq(buf[40], '\0');
	ck_assert_int_eq(buf[41], 'X');
}
END_TEST

START_TEST(test_fmt_known_sha256)
{
	unsigned char raw[32];
	char buf[ABBREV_MAX_HEXSZ + 8];

	/* byte i = 0x11 * (i % 16): "00112233...ff" twice = 64 chars */
	for (size_t i = 0; i < 32; i++)
		raw[i] = (unsigned char)(0x11 * (i % 16));
	memset(buf, 'X', sizeof(buf));
	hexid_fmt(buf, raw, sizeof(raw));
	ck_assert_str_eq(buf, "00112233445566778899aabbccddeeff"
			      "00112233445566778899aabbccddeeff");
	ck_assert_int_eq(buf[65], 'X');
}
END_TEST

static void round_trip(size_t rawsz, uint64_t seed)
{
	uint64_t st = seed;

	for (int n = 0; n < 200; n++) {
		unsigned char raw[ABBREV_MAX_RAWSZ], back[ABBREV_MAX_RAWSZ];
		char hex[ABBREV_MAX_HEXSZ + 1], ours[ABBREV_MAX_HEXSZ + 1];

		test_rand_id(raw, rawsz, &st);
		hexid_fmt(hex, raw, rawsz);
		test_hex(ours, raw, rawsz);
		ck_assert_str_eq(hex, ours);
		ck_assert_uint_eq(strlen(hex), 2 * rawsz);
		memset(back, 0xee, sizeof(back));
		ck_assert_int_eq(hexid_parse_prefix(back, rawsz, hex, 2 * rawsz), 0);
		ck_assert_mem_eq(back, raw, rawsz);
	}
}

START_TEST(test_round_trip_sha1)
{
	round_trip(20, 1);
}
END_TEST

START_TEST(test_round_trip_sha256)
{
	round_trip(32, 2);
}
END_TEST

START_TEST(test_parse_zero_fills)
{
	unsigned char raw[20];
	unsigned char want[20];

	/* "abc": byte 0 = 0xab, byte 1 = 0xc0 (odd length: the low nibble is 0), rest 0 */
	memset(raw, 0xee, sizeof(raw));
	memset(want, 0, sizeof(want));
	want[0] = 0xab;
	want[1] = 0xc0;
	ck_assert_int_eq(hexid_parse_prefix(raw, 20, "abc", 3), 0);
	ck_assert_mem_eq(raw, want, 20);

	/* "f": 0xf0 then zeros */
	memset(raw, 0xee, sizeof(raw));
	memset(want, 0, sizeof(want));
	want[0] = 0xf0;
	ck_assert_int_eq(hexid_parse_prefix(raw, 20, "f", 1), 0);
	ck_assert_mem_eq(raw, want, 20);

	/* the empty prefix: all zeros */
	memset(raw, 0xee, sizeof(raw));
	memset(want, 0, sizeof(want));
	ck_assert_int_eq(hexid_parse_prefix(raw, 20, "", 0), 0);
	ck_assert_mem_eq(raw, want, 20);

	/* only hex[0..len) is read: "12345678zz" with len 8 is 12 34 56 78 0... */
	memset(raw, 0xee, sizeof(raw));
	memset(want, 0, sizeof(want));
	want[0] = 0x12;
	want[1] = 0x34;
	want[2] = 0x56;
	want[3] = 0x78;
	ck_assert_int_eq(hexid_parse_prefix(raw, 20, "12345678zz", 8), 0);
	ck_assert_mem_eq(raw, want, 20);

	/* 39 of 40 chars: the last byte is 0x?0 */
	memset(raw, 0xee, sizeof(raw));
	ck_assert_int_eq(hexid_parse_prefix(raw, 20, "fffffffffffffffffffffffffffffffffffffff", 39), 0);
	for (int i = 0; i < 19; i++)
		ck_assert_uint_eq(raw[i], 0xff);
	ck_assert_uint_eq(raw[19], 0xf0);

	/* SHA-256, 17 chars: 8 full bytes, then 0x10 (from "1"), then zeros */
	{
		unsigned char r32[32], w32[32];

		memset(r32, 0xee, sizeof(r32));
		memset(w32, 0, sizeof(w32));
		memset(w32, 0x99, 8);
		w32[8] = 0x10;
		ck_assert_int_eq(hexid_parse_prefix(r32, 32, "99999999999999991", 17), 0);
		ck_assert_mem_eq(r32, w32, 32);
	}
}
END_TEST

START_TEST(test_parse_upper_case)
{
	unsigned char lower[20], upper[20], mixed[20];
	unsigned char want[20] = { 0xab, 0xcd, 0xef, 0x01, 0x23 };

	ck_assert_int_eq(hexid_parse_prefix(lower, 20, "abcdef0123", 10), 0);
	ck_assert_int_eq(hexid_parse_prefix(upper, 20, "ABCDEF0123", 10), 0);
	ck_assert_int_eq(hexid_parse_prefix(mixed, 20, "aBcDeF0123", 10), 0);
	ck_assert_mem_eq(lower, want, 20);
	ck_assert_mem_eq(upper, want, 20);
	ck_assert_mem_eq(mixed, want, 20);

	/* a full upper-case ID formats back in lower case */
	{
		char hex[41];

		ck_assert_int_eq(hexid_parse_prefix(upper, 20,
			"0123456789ABCDEF0123456789ABCDEF01234567", 40), 0);
		hexid_fmt(hex, upper, 20);
		ck_assert_str_eq(hex, "0123456789abcdef0123456789abcdef01234567");
	}
}
END_TEST

/* The char-by-char parser hexid_parse_prefix() replaced: the oracle of its table. */
static int parse_slow(unsigned char *raw, size_t rawsz, const char *hex, size_t len)
{
	if (len > 2 * rawsz)
		return -1;
	memset(raw, 0, rawsz);
	for (size_t i = 0; i < len; i++) {
		int v = hex[i] >= '0' && hex[i] <= '9' ? hex[i] - '0' :
			hex[i] >= 'a' && hex[i] <= 'f' ? hex[i] - 'a' + 10 :
			hex[i] >= 'A' && hex[i] <= 'F' ? hex[i] - 'A' + 10 : -1;

		if (v < 0)
			return -1;
		raw[i / 2] |= (unsigned char)(i % 2 ? v : v << 4);
	}
	return 0;
}

/*
 * Every byte value at every place of IDs of every length, odd and even:
 * the same answer and the same bytes (an invalid digit too: the digits
 * before it in) as the char-by-char parser.
 */
START_TEST(test_parse_every_byte)
{
	char hex[41];
	unsigned char a[20], b[20];

	for (size_t len = 0; len <= 40; len++) {
		for (size_t at = 0; at < (len ? len : 1); at++) {
			for (int c = 0; c < 256; c++) {
				for (size_t i = 0; i < len; i++)
					hex[i] = "0123456789abcdefABCDEF"[(i * 7 + len) % 22];
				if (len)
					hex[at] = (char)c;
				hex[len] = '\0';
				memset(a, 0x5a, sizeof(a));
				memset(b, 0x5a, sizeof(b));
				ck_assert_int_eq(hexid_parse_prefix(a, 20, hex, len),
						 parse_slow(b, 20, hex, len));
				ck_assert_mem_eq(a, b, 20);
			}
		}
	}
	ck_assert_int_eq(hexid_parse_prefix(a, 20, hex, 41), -1);
}
END_TEST

START_TEST(test_lcp_hand_made)
{
	/* only the first byte differs; the shared length is decided inside it */
	unsigned char a[20] = { 0x12 }, b[20] = { 0x12 };

	b[0] = 0x13; /* "12" vs "13": share "1" */
	ck_assert_uint_eq(hexid_lcp(a, b, 20), 1);
	b[0] = 0x22; /* "12" vs "22": share nothing */
	ck_assert_uint_eq(hexid_lcp(a, b, 20), 0);
	a[0] = 0x10;
	b[0] = 0x1f; /* "10" vs "1f": xor 0x0f, share "1" */
	ck_assert_uint_eq(hexid_lcp(a, b, 20), 1);
	a[0] = 0xf0;
	b[0] = 0x00; /* "f0" vs "00": share nothing */
	ck_assert_uint_eq(hexid_lcp(a, b, 20), 0);
	a[0] = 0x00;
	b[0] = 0x00;
	b[19] = 0x01; /* 39 zeros then "0" vs "1": share 39 */
	ck_assert_uint_eq(hexid_lcp(a, b, 20), 39);
	b[19] = 0x10; /* 38 zeros then "0" vs "1": share 38 */
	ck_assert_uint_eq(hexid_lcp(a, b, 20), 38);
	b[19] = 0x00; /* identical: 40 */
	ck_assert_uint_eq(hexid_lcp(a, b, 20), 40);
}
END_TEST

START_TEST(test_lcp_sha1_lengths)
{
	static const size_t ks[] = { 0, 1, 2, 3, 15, 16, 17, 38, 39 };

	for (size_t i = 0; i < sizeof(ks) / sizeof(ks[0]); i++) {
		unsigned char other[20];

		diverge_at(other, base20, 20, ks[i]);
		ck_assert_uint_eq(hexid_lcp(base20, other, 20), ks[i]);
		ck_assert_uint_eq(hexid_lcp(other, base20, 20), ks[i]);
	}
	/* identical = 2 * rawsz */
	ck_assert_uint_eq(hexid_lcp(base20, base20, 20), 40);
}
END_TEST

START_TEST(test_lcp_every_length)
{
	/* every k for both widths, both argument orders */
	for (size_t k = 0; k <= 40; k++) {
		unsigned char other[20];

		diverge_at(other, base20, 20, k);
		ck_assert_uint_eq(hexid_lcp(base20, other, 20), k);
		ck_assert_uint_eq(hexid_lcp(other, base20, 20), k);
	}
	for (size_t k = 0; k <= 64; k++) {
		unsigned char other[32];

		diverge_at(other, base32, 32, k);
		ck_assert_uint_eq(hexid_lcp(base32, other, 32), k);
		ck_assert_uint_eq(hexid_lcp(other, base32, 32), k);
	}
}
END_TEST

START_TEST(test_find)
{
	unsigned char ids[5][20], x[20];

	for (int i = 0; i < 5; i++) {
		memset(ids[i], 0, 20);
		ids[i][0] = (unsigned char)(16 * i); /* 00.., 10.., 20.., 30.., 40.. */
		ids[i][19] = 7;
	}
	for (size_t i = 0; i < 5; i++)
		ck_assert_uint_eq(hexid_find(ids[0], 0, 5, 20, ids[i]), i);
	memcpy(x, ids[2], 20);
	x[19] = 8; /* between two, past the last, before the first: not there */
	ck_assert_uint_eq(hexid_find(ids[0], 0, 5, 20, x), SIZE_MAX);
	x[0] = 0xff;
	ck_assert_uint_eq(hexid_find(ids[0], 0, 5, 20, x), SIZE_MAX);
	memset(x, 0, 20);
	ck_assert_uint_eq(hexid_find(ids[0], 0, 5, 20, x), SIZE_MAX);
	/* only within [lo, hi) */
	ck_assert_uint_eq(hexid_find(ids[0], 3, 5, 20, ids[1]), SIZE_MAX);
	ck_assert_uint_eq(hexid_find(ids[0], 3, 5, 20, ids[4]), 4);
	ck_assert_uint_eq(hexid_find(ids[0], 0, 0, 20, ids[0]), SIZE_MAX);
}
END_TEST

/* The lower bound by walking: what hexid_lower_bound() must answer. */
static size_t walk_lower_bound(const unsigned char *ids, size_t stride, size_t lo, size_t hi,
			       size_t rawsz, const unsigned char *id)
{
	while (lo < hi && memcmp(ids + lo * stride, id, rawsz) < 0)
		lo++;
	return lo;
}

static int cmp_id24(const void *a, const void *b)
{
	return memcmp(a, b, 20);
}

/* Pseudo-random bytes (xorshift), the same every run. */
static unsigned char rand_byte(uint64_t *st)
{
	*st ^= *st << 13;
	*st ^= *st >> 7;
	*st ^= *st << 17;
	return (unsigned char)(*st >> 24);
}

START_TEST(test_lower_bound)
{
	/* 24-byte records that start with a 20-byte ID: even, clustered, and repeated IDs */
	enum { N = 3000, STRIDE = 24 };
	static unsigned char ids[N][STRIDE];
	unsigned char q[20];
	uint64_t st = 0x9e3779b97f4a7c15u;
	size_t fan[257];

	for (int shape = 0; shape < 3; shape++) {
		for (size_t i = 0; i < N; i++) {
			for (size_t b = 0; b < STRIDE; b++)
				ids[i][b] = rand_byte(&st);
			if (shape == 1) /* all within one corner: interpolation guesses badly */
				memset(ids[i], i % 7 ? 0x00 : 0xff, 9);
			if (shape == 2 && i % 3) /* runs of the same ID */
				memcpy(ids[i], ids[i - i % 3], 20);
		}
		qsort(ids, N, STRIDE, cmp_id24);
		for (size_t b = 0, i = 0; b <= 256; b++) {
			while (i < N && ids[i][0] < b)
				i++;
			fan[b] = i;
		}
		for (int k = 0; k < 4000; k++) {
			size_t lo, hi;

			if (k % 2) { /* one of them, or next to one */
				memcpy(q, ids[rand_byte(&st) * N / 256], 20);
				q[19] = (unsigned char)(q[19] + (k % 3) - 1);
			} else {
				for (size_t b = 0; b < 20; b++)
					q[b] = rand_byte(&st);
				if (shape == 1)
					memset(q, k % 4 ? 0x00 : 0xff, 8);
			}
			ck_assert_uint_eq(hexid_lower_bound(ids[0], STRIDE, 0, N, 20, 0, q),
					  walk_lower_bound(ids[0], STRIDE, 0, N, 20, q));
			lo = fan[q[0]];
			hi = fan[q[0] + 1];
			ck_assert_uint_eq(hexid_lower_bound(ids[0], STRIDE, lo, hi, 20, 1, q),
					  walk_lower_bound(ids[0], STRIDE, lo, hi, 20, q));
			/* any sub-range, and the bound past it */
			lo = (size_t)rand_byte(&st) * N / 512;
			hi = lo + (size_t)rand_byte(&st) * N / 512;
			ck_assert_uint_eq(hexid_lower_bound(ids[0], STRIDE, lo, hi, 20, 0, q),
					  walk_lower_bound(ids[0], STRIDE, lo, hi, 20, q));
		}
	}
	/* empty ranges, and IDs narrower than the 8 bytes it guesses from */
	ck_assert_uint_eq(hexid_lower_bound(ids[0], STRIDE, 5, 5, 20, 0, q), 5);
	ck_assert_uint_eq(hexid_lower_bound(ids[0], STRIDE, 0, N, 4, 0, ids[17]),
			  walk_lower_bound(ids[0], STRIDE, 0, N, 4, ids[17]));
}
END_TEST

START_TEST(test_fan16)
{
	/* IDs with runs sharing two bytes, gaps of empty buckets, 0000.. and ffff.. */
	enum { N = 5000, STRIDE = 21 };
	static unsigned char ids[N][STRIDE];
	static uint32_t fan[HEXID_FAN16 + 1];
	uint64_t st = 99;

	for (size_t i = 0; i < N; i++)
		for (size_t b = 0; b < STRIDE; b++)
			ids[i][b] = rand_byte(&st);
	for (size_t i = 0; i < N; i += 7)
		ids[i][1] = ids[i][0] = 0x42; /* a crowded bucket */
	memset(ids[1], 0, 2);
	memset(ids[2], 0xff, 2);
	qsort(ids, N, STRIDE, cmp_id24);
	hexid_fan16(ids[0], STRIDE, N, fan);
	/* the first ID at or past k: the one before it is below k, it is not */
	for (size_t k = 0; k <= HEXID_FAN16; k++) {
		size_t f = fan[k];

		ck_assert_uint_le(f, N);
		ck_assert(f == 0 || ((size_t)ids[f - 1][0] << 8 | ids[f - 1][1]) < k);
		ck_assert(f == N || ((size_t)ids[f][0] << 8 | ids[f][1]) >= k);
	}
	hexid_fan16(ids[0], STRIDE, 0, fan); /* none */
	ck_assert_uint_eq(fan[0], 0);
	ck_assert_uint_eq(fan[HEXID_FAN16], 0);
}
END_TEST

START_TEST(test_lcp_sha256)
{
	unsigned char other[32];

	/* differ in the very last hex char (low nibble of byte 31): 63 */
	memcpy(other, base32, 32);
	other[31] ^= 0x01;
	ck_assert_uint_eq(hexid_lcp(base32, other, 32), 63);
	/* high nibble of byte 31: 62 */
	memcpy(other, base32, 32);
	other[31] ^= 0x10;
	ck_assert_uint_eq(hexid_lcp(base32, other, 32), 62);
	/* hex char 40 (first char past a SHA-1 length): 40 */
	diverge_at(other, base32, 32, 40);
	ck_assert_uint_eq(hexid_lcp(base32, other, 32), 40);
	ck_assert_uint_eq(hexid_lcp(base32, base32, 32), 64);
}
END_TEST

START_TEST(test_type_names)
{
	ck_assert_str_eq(hexid_type_name(ABBREV_TYPE_COMMIT), "commit");
	ck_assert_str_eq(hexid_type_name(ABBREV_TYPE_TREE), "tree");
	ck_assert_str_eq(hexid_type_name(ABBREV_TYPE_BLOB), "blob");
	ck_assert_str_eq(hexid_type_name(ABBREV_TYPE_TAG), "tag");
	/* git's own numbers */
	ck_assert_int_eq(ABBREV_TYPE_COMMIT, 1);
	ck_assert_int_eq(ABBREV_TYPE_TAG, 4);
	for (int t = ABBREV_TYPE_COMMIT; t <= ABBREV_TYPE_TAG; t++)
		ck_assert_int_eq(hexid_type_from_name(hexid_type_name(t)), t);
	ck_assert_int_eq(hexid_type_from_name("commit"), ABBREV_TYPE_COMMIT);
	ck_assert_int_eq(hexid_type_from_name("tree"), ABBREV_TYPE_TREE);
	ck_assert_int_eq(hexid_type_from_name("blob"), ABBREV_TYPE_BLOB);
	ck_assert_int_eq(hexid_type_from_name("tag"), ABBREV_TYPE_TAG);
}
END_TEST

START_TEST(test_hash_names)
{
	ck_assert_str_eq(hexid_hash_name(20), "sha1");
	ck_assert_str_eq(hexid_hash_name(32), "sha256");
}
END_TEST

/* ---- errors ---- */

START_TEST(test_parse_invalid_char)
{
	unsigned char raw[ABBREV_MAX_RAWSZ];

	ck_assert_int_eq(hexid_parse_prefix(raw, 20, "12g4", 4), -1);
	ck_assert_int_eq(hexid_parse_prefix(raw, 20, "12 4", 4), -1);
	ck_assert_int_eq(hexid_parse_prefix(raw, 20, "xyz", 3), -1);
	ck_assert_int_eq(hexid_parse_prefix(raw, 20, "-1", 2), -1);
	ck_assert_int_eq(hexid_parse_prefix(raw, 20, "0x12", 4), -1);
	/* 'G' is just past 'F', '@' just before 'A', '`' before 'a', ':' after '9' */
	ck_assert_int_eq(hexid_parse_prefix(raw, 20, "G", 1), -1);
	ck_assert_int_eq(hexid_parse_prefix(raw, 20, "@", 1), -1);
	ck_assert_int_eq(hexid_parse_prefix(raw, 20, "`", 1), -1);
	ck_assert_int_eq(hexid_parse_prefix(raw, 20, ":", 1), -1);
	ck_assert_int_eq(hexid_parse_prefix(raw, 20, "/", 1), -1);
	/* a NUL inside [0, len) is not hex either */
	ck_assert_int_eq(hexid_parse_prefix(raw, 20, "12\0" "4", 4), -1);
	/* the bad char last, in a full-length ID */
	ck_assert_int_eq(hexid_parse_prefix(raw, 20,
		"012345678901234567890123456789012345678z", 40), -1);
	ck_assert_int_eq(hexid_parse_prefix(raw, 32,
		"0123456789012345678901234567890123456789012345678901234567890g", 64), -1);
}
END_TEST

START_TEST(test_parse_too_long)
{
	unsigned char raw[ABBREV_MAX_RAWSZ];
	static const char h65[] =
		"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0";

	/* 40 fits SHA-1, 41 does not */
	ck_assert_int_eq(hexid_parse_prefix(raw, 20, h65, 40), 0);
	ck_assert_int_eq(hexid_parse_prefix(raw, 20, h65, 41), -1);
	ck_assert_int_eq(hexid_parse_prefix(raw, 20, h65, 64), -1);
	/* 64 fits SHA-256, 65 does not */
	ck_assert_int_eq(hexid_parse_prefix(raw, 32, h65, 64), 0);
	ck_assert_int_eq(hexid_parse_prefix(raw, 32, h65, 65), -1);
}
END_TEST

START_TEST(test_unknown_names)
{
	ck_assert_str_eq(hexid_type_name(ABBREV_TYPE_NONE), "unknown");
	ck_assert_str_eq(hexid_type_name(5), "unknown");
	ck_assert_str_eq(hexid_type_name(-1), "unknown");
	ck_assert_str_eq(hexid_type_name(1000), "unknown");
	ck_assert_int_eq(hexid_type_from_name("unknown"), ABBREV_TYPE_NONE);
	ck_assert_int_eq(hexid_type_from_name(""), ABBREV_TYPE_NONE);
	ck_assert_int_eq(hexid_type_from_name("commits"), ABBREV_TYPE_NONE);
	ck_assert_int_eq(hexid_type_from_name("comm"), ABBREV_TYPE_NONE);
	ck_assert_int_eq(hexid_type_from_name("all"), ABBREV_TYPE_NONE);
	ck_assert_ptr_null(hexid_hash_name(0));
	ck_assert_ptr_null(hexid_hash_name(16));
	ck_assert_ptr_null(hexid_hash_name(19));
	ck_assert_ptr_null(hexid_hash_name(21));
	ck_assert_ptr_null(hexid_hash_name(31));
	ck_assert_ptr_null(hexid_hash_name(33));
	ck_assert_ptr_null(hexid_hash_name(40));
	ck_assert_ptr_null(hexid_hash_name(64));
}
END_TEST

/* ---- tagobj: the target lines of an annotated tag ---- */

static const char tag_c[] = "object 0123456789abcdef0123456789abcdef01234567\n"
			    "type commit\ntag v1.0\ntagger C O Mitter <c@example.com> 1 +0000\n\nmsg\n";

static int parse_str(const char *buf, size_t len, size_t rawsz, char *hex, int *type)
{
	unsigned char raw[ABBREV_MAX_RAWSZ];
	int rc = tagobj_parse((const unsigned char *)buf, len, rawsz, raw, type);

	if (!rc)
		test_hex(hex, raw, rawsz);
	return rc;
}

START_TEST(test_tag_target)
{
	char hex[ABBREV_MAX_HEXSZ + 1];
	int type = 0;

	ck_assert_int_eq(parse_str(tag_c, strlen(tag_c), 20, hex, &type), 0);
	ck_assert_str_eq(hex, "0123456789abcdef0123456789abcdef01234567");
	ck_assert_int_eq(type, ABBREV_TYPE_COMMIT);
	/* the two lines are enough; the rest may be cut off */
	ck_assert_int_eq(parse_str(tag_c, 7 + 40 + 1 + 12, 20, hex, &type), 0);
	/* every shorter start needs more bytes */
	for (size_t len = 0; len < 7 + 40 + 1 + 12; len++)
		ck_assert_msg(parse_str(tag_c, len, 20, hex, &type) == 1, "len %zu", len);
	/* each target type, upper-case hex, SHA-256 */
	{
		static const char *const names[] = { "commit", "tree", "blob", "tag" };
		char buf[256];

		for (int t = 0; t < 4; t++) {
			snprintf(buf, sizeof(buf), "object %s\ntype %s\n",
				 "ABCDEF0123456789ABCDEF0123456789ABCDEF01", names[t]);
			ck_assert_int_eq(parse_str(buf, strlen(buf), 20, hex, &type), 0);
			ck_assert_int_eq(type, t + 1);
			ck_assert_str_eq(hex, "abcdef0123456789abcdef0123456789abcdef01");
		}
		snprintf(buf, sizeof(buf), "object %s%s\ntype tree\n",
			 "0123456789abcdef0123456789abcdef", "0123456789abcdef0123456789abcdef");
		ck_assert_int_eq(parse_str(buf, strlen(buf), 32, hex, &type), 0);
		ck_assert_int_eq(type, ABBREV_TYPE_TREE);
		ck_assert_str_eq(hex, "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef");
		/* a 64-hex object line is not a SHA-1 tag's */
		ck_assert_int_eq(parse_str(buf, strlen(buf), 20, hex, &type), -1);
	}
}
END_TEST

START_TEST(test_tag_target_malformed)
{
	static const char *const bad[] = {
		"tree 0123456789abcdef0123456789abcdef01234567\n",
		"object 0123456789abcdef0123456789abcdef0123456\ntype commit\n",
		"object 0123456789abcdef0123456789abcdef012345678\ntype commit\n",
		"object 0123456789abcdef0123456789abcdef0123456g\ntype commit\n",
		"object  123456789abcdef0123456789abcdef01234567\ntype commit\n",
		"object 0123456789abcdef0123456789abcdef01234567\ntag v1\n",
		"object 0123456789abcdef0123456789abcdef01234567\ntype commits\n",
		"object 0123456789abcdef0123456789abcdef01234567\ntype \n",
		"object 0123456789abcdef0123456789abcdef01234567\ntype verylongname\n",
		"object 0123456789abcdef0123456789abcdef01234567\ntype Commit\n",
		"Object 0",
	};
	char hex[ABBREV_MAX_HEXSZ + 1];
	int type;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(parse_str(bad[i], strlen(bad[i]), 20, hex, &type) == -1, "%s", bad[i]);
}
END_TEST

Suite *make_hexid_suite(void)
{
	Suite *s = suite_create("hexid");
	TCase *core = tcase_create("core");
	TCase *errors = tcase_create("errors");

	tcase_add_checked_fixture(core, setup, teardown);
	tcase_add_test(core, test_fmt_known);
	tcase_add_test(core, test_fmt_known_sha256);
	tcase_add_test(core, test_round_trip_sha1);
	tcase_add_test(core, test_round_trip_sha256);
	tcase_add_test(core, test_parse_zero_fills);
	tcase_add_test(core, test_parse_upper_case);
	tcase_add_test(core, test_parse_every_byte);
	tcase_add_test(core, test_lcp_hand_made);
	tcase_add_test(core, test_lcp_sha1_lengths);
	tcase_add_test(core, test_lcp_every_length);
	tcase_add_test(core, test_lcp_sha256);
	tcase_add_test(core, test_find);
	tcase_add_test(core, test_lower_bound);
	tcase_add_test(core, test_fan16);
	tcase_add_test(core, test_type_names);
	tcase_add_test(core, test_hash_names);
	tcase_add_test(core, test_tag_target);
	suite_add_tcase(s, core);

	tcase_add_checked_fixture(errors, setup, teardown);
	tcase_add_test(errors, test_parse_invalid_char);
	tcase_add_test(errors, test_parse_too_long);
	tcase_add_test(errors, test_unknown_names);
	tcase_add_test(errors, test_tag_target_malformed);
	suite_add_tcase(s, errors);
	return s;
}
