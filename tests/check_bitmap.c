/*
 * check_bitmap.c - unit tests of walk_bitmap: types from hand-made
 * .bitmap files.
 *
 * The fixture writes bitmap files the way git lays them out (header, four
 * EWAH type bitmaps, a commit bitmap count of 0, a trailer), with its own
 * EWAH encoder: literal words, optionally runs of ones or zeros for whole
 * words.  The reader must give back every object's type through the
 * rank-to-position permutation, and refuse (never crash on) stale,
 * truncated, overlapping or incomplete bitmaps.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "walk_bitmap.h"

#define MAXN 1000
#define RAWSZ 20

static unsigned char buf[64 * 1024];
static size_t len;
static unsigned char sum[RAWSZ];
static unsigned char type_by_rank[MAXN];
static uint32_t perm[MAXN];
static unsigned char out[MAXN];
static char why[128];

static void put32(uint32_t v)
{
	for (int i = 3; i >= 0; i--)
		buf[len++] = (unsigned char)(v >> (8 * i));
}

static void put64(uint64_t v)
{
	put32((uint32_t)(v >> 32));
	put32((uint32_t)v);
}

/*
 * One EWAH bitmap of the ranks r < n with type_by_rank[r] == t.  With
 * `runs`, a word that is all ones or all zeros becomes a run-length word
 * of its own (git's encoder merges runs; one word per run is still
 * valid EWAH), else every word is a literal after one run-length word.
 */
static void put_ewah(uint32_t n, unsigned char t, int runs)
{
	size_t nwords = (n + 63) / 64, start, count_at;
	uint64_t w[MAXN / 64 + 1] = { 0 };
	uint32_t stored = 0, last_rlw = 0;

	for (uint32_t r = 0; r < n; r++)
		if (type_by_rank[r] == t)
			w[r / 64] |= (uint64_t)1 << (r % 64);
	put32(n);
	count_at = len;
	put32(0); /* words, filled in below */
	start = len;
	if (!runs) {
		last_rlw = 0;
		put64((uint64_t)nwords << 33);
		for (size_t i = 0; i < nwords; i++)
			put64(w[i]);
	} else {
		for (size_t i = 0; i < nwords; i++) {
			last_rlw = (uint32_t)((len - start) / 8);
			if (w[i] == UINT64_MAX || (w[i] == 0 && i + 1 < nwords))
				put64((w[i] ? 1 : 0) | (uint64_t)1 << 1);
			else {
				put64((uint64_t)1 << 33);
				put64(w[i]);
			}
		}
	}
	stored = (uint32_t)((len - start) / 8);
	len = count_at;
	put32(stored);
	len = start + 8 * (size_t)stored;
	put32(last_rlw);
}

/* A whole .bitmap for n objects whose ranks have type_by_rank[]. */
static void make_bitmap(uint32_t n, int runs)
{
	len = 0;
	memcpy(buf, "BITM", 4);
	len = 4;
	buf[len++] = 0;
	buf[len++] = 1; /* version */
	buf[len++] = 0;
	buf[len++] = 1; /* BITMAP_OPT_FULL_DAG */
	put32(0);       /* no commit bitmaps */
	memcpy(buf + len, sum, RAWSZ);
	len += RAWSZ;
	for (unsigned char t = 1; t <= 4; t++)
		put_ewah(n, t, runs);
	memset(buf + len, 0xee, RAWSZ); /* trailer: not checked */
	len += RAWSZ;
}

/* Types and a permutation from the fixed LCG; runs of one type in front. */
static void make_objects(uint32_t n, uint64_t seed)
{
	uint64_t st = seed;

	for (uint32_t r = 0; r < n; r++)
		type_by_rank[r] = (unsigned char)(r < 130 ? 2 : 1 + test_rand(&st) % 4);
	for (uint32_t i = 0; i < n; i++)
		perm[i] = i;
	for (uint32_t i = n; i > 1; i--) {
		uint32_t j = test_rand(&st) % i, t = perm[i - 1];

		perm[i - 1] = perm[j];
		perm[j] = t;
	}
}

static void setup(void)
{
	for (int i = 0; i < RAWSZ; i++)
		sum[i] = (unsigned char)(0x40 + i);
	len = 0;
	why[0] = '\0';
}

static void check_types(uint32_t n, const uint32_t *p)
{
	for (uint32_t r = 0; r < n; r++)
		ck_assert_uint_eq(out[p ? p[r] : r], type_by_rank[r]);
}

START_TEST(types_through_permutation)
{
	for (int runs = 0; runs < 2; runs++) {
		for (uint32_t n = 1; n <= 700; n += 233) {
			make_objects(n, 7 + n);
			make_bitmap(n, runs);
			ck_assert_int_eq(bitmap_pack_types(buf, len, RAWSZ, sum, n, perm, out,
							   why, sizeof(why)), BITMAP_OK);
			check_types(n, perm);
			/* no permutation: rank is the position */
			ck_assert_int_eq(bitmap_pack_types(buf, len, RAWSZ, sum, n, NULL, out,
							   why, sizeof(why)), BITMAP_OK);
			check_types(n, NULL);
		}
	}
}
END_TEST

START_TEST(stale_and_foreign)
{
	make_objects(100, 1);
	make_bitmap(100, 0);
	sum[0] ^= 1; /* the bitmap of another pack */
	ck_assert_int_eq(bitmap_pack_types(buf, len, RAWSZ, sum, 100, perm, out, why, sizeof(why)),
			 BITMAP_UNUSABLE);
	ck_assert_ptr_nonnull(strstr(why, "stale"));
	sum[0] ^= 1;
	/* a pack with more objects than the bitmap knows: the last one has no type */
	ck_assert_int_eq(bitmap_pack_types(buf, len, RAWSZ, sum, 101, NULL, out, why, sizeof(why)),
			 BITMAP_UNUSABLE);
	/* fewer: type bits past the pack's end */
	ck_assert_int_eq(bitmap_pack_types(buf, len, RAWSZ, sum, 99, NULL, out, why, sizeof(why)),
			 BITMAP_UNUSABLE);
	buf[5] = 2; /* version 2 */
	ck_assert_int_eq(bitmap_pack_types(buf, len, RAWSZ, sum, 100, perm, out, why, sizeof(why)),
			 BITMAP_UNUSABLE);
	buf[5] = 1;
	buf[0] = 'X';
	ck_assert_int_eq(bitmap_pack_types(buf, len, RAWSZ, sum, 100, perm, out, why, sizeof(why)),
			 BITMAP_UNUSABLE);
}
END_TEST

START_TEST(overlap_and_gap)
{
	/* rank 5 is a tree and a blob too: its tree bit flipped on */
	make_objects(100, 2);
	type_by_rank[5] = 3;
	make_bitmap(100, 0);
	/* the tree bitmap is the second: find its first literal word and set bit 5 */
	{
		size_t p = 12 + RAWSZ;
		uint32_t words = (uint32_t)buf[p + 4] << 24 | (uint32_t)buf[p + 5] << 16 |
				 (uint32_t)buf[p + 6] << 8 | buf[p + 7];

		p += 8 + 8 * (size_t)words + 4; /* past the commits' bitmap */
		p += 8 + 8;                     /* the trees': its header, its RLW */
		buf[p + 7] |= 1 << 5;           /* big-endian word: bit 5 in the last byte */
	}
	ck_assert_int_eq(bitmap_pack_types(buf, len, RAWSZ, sum, 100, perm, out, why, sizeof(why)),
			 BITMAP_UNUSABLE);
	ck_assert_ptr_nonnull(strstr(why, "two types"));
	/* an object no type bitmap names */
	make_objects(100, 3);
	type_by_rank[42] = 9;
	make_bitmap(100, 0);
	ck_assert_int_eq(bitmap_pack_types(buf, len, RAWSZ, sum, 100, perm, out, why, sizeof(why)),
			 BITMAP_UNUSABLE);
	ck_assert_ptr_nonnull(strstr(why, "no type"));
}
END_TEST

START_TEST(truncated_everywhere)
{
	size_t full;

	make_objects(300, 4);
	make_bitmap(300, 1);
	full = len;
	ck_assert_int_eq(bitmap_pack_types(buf, full, RAWSZ, sum, 300, perm, out, why, sizeof(why)),
			 BITMAP_OK);
	/* every shorter file is refused (the trailer is assumed, so a cut one cuts a type bitmap) */
	for (size_t l = 0; l < full; l++)
		ck_assert_int_eq(bitmap_pack_types(buf, l, RAWSZ, sum, 300, perm, out, why,
						   sizeof(why)), BITMAP_UNUSABLE);
}
END_TEST

/* Overwrite the big-endian word at p. */
static void set64(size_t p, uint64_t v)
{
	for (int i = 7; i >= 0; i--, v >>= 8)
		buf[p + (size_t)i] = (unsigned char)v;
}

START_TEST(huge_counts)
{
	size_t rlw = 12 + RAWSZ + 8; /* the commits' first run-length word */

	make_objects(64, 5);
	memset(type_by_rank, 1, 64); /* all commits: the commits' literal word is all ones */
	/* a run of 2^32 - 1 words of ones */
	make_bitmap(64, 0);
	set64(rlw, 1 | (uint64_t)0xffffffffu << 1);
	ck_assert_int_eq(bitmap_pack_types(buf, len, RAWSZ, sum, 64, NULL, out, why, sizeof(why)),
			 BITMAP_UNUSABLE);
	/* a run of 2^32 - 1 words of zeros, then a literal: its bits lie far past the end */
	make_bitmap(64, 0);
	set64(rlw, (uint64_t)0xffffffffu << 1 | (uint64_t)1 << 33);
	ck_assert_int_eq(bitmap_pack_types(buf, len, RAWSZ, sum, 64, NULL, out, why, sizeof(why)),
			 BITMAP_UNUSABLE);
	/* more literal words than the stream holds */
	make_bitmap(64, 0);
	set64(rlw, (uint64_t)1000 << 33);
	ck_assert_int_eq(bitmap_pack_types(buf, len, RAWSZ, sum, 64, NULL, out, why, sizeof(why)),
			 BITMAP_UNUSABLE);
	/* a word count past the file */
	make_bitmap(64, 0);
	buf[12 + RAWSZ + 4] = 0x40;
	ck_assert_int_eq(bitmap_pack_types(buf, len, RAWSZ, sum, 64, NULL, out, why, sizeof(why)),
			 BITMAP_UNUSABLE);
	/* a last run-length word past the stream */
	make_bitmap(64, 0);
	buf[12 + RAWSZ + 8 + 16 + 3] = 9;
	ck_assert_int_eq(bitmap_pack_types(buf, len, RAWSZ, sum, 64, NULL, out, why, sizeof(why)),
			 BITMAP_UNUSABLE);
}
END_TEST

Suite *make_bitmap_suite(void)
{
	Suite *s = suite_create("bitmap");
	TCase *core = tcase_create("core"), *errors = tcase_create("errors");

	tcase_add_checked_fixture(core, setup, NULL);
	tcase_add_test(core, types_through_permutation);
	tcase_add_checked_fixture(errors, setup, NULL);
	tcase_add_test(errors, stale_and_foreign);
	tcase_add_test(errors, overlap_and_gap);
	tcase_add_test(errors, truncated_everywhere);
	tcase_add_test(errors, huge_counts);
	suite_add_tcase(s, core);
	suite_add_tcase(s, errors);
	return s;
}
