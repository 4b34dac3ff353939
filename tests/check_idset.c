/*
 * check_idset.c - unit tests of idset: the Judy-backed ordered ID sets.
 *
 * What matters is exactness past the 16 hex chars (8 bytes) of a Judy
 * key: IDs that share a whole key go to an overflow list and must still
 * be deduplicated, found and iterated in byte order.  Hand-made IDs cover
 * each path with the expected order written out; a few thousand generated
 * IDs (fixed LCG) are checked against qsort + memcmp.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "hexid.h"
#include "idset.h"

static idsets *s; /* a SHA-1 collection, fresh for every test */

static void setup(void)
{
	s = idsets_new(20);
	ck_assert_ptr_nonnull(s);
}

static void teardown(void)
{
	idsets_free(s);
	s = NULL;
}

/* Add the zero-filled hex prefix `hex` as an ID of `type`. */
static int add_hex(idsets *set, const char *hex, int type)
{
	unsigned char raw[ABBREV_MAX_RAWSZ];

	test_id(raw, idsets_rawsz(set), hex);
	return idsets_add(set, raw, type);
}

static int lookup_hex(const idsets *set, const char *hex)
{
	unsigned char raw[ABBREV_MAX_RAWSZ];

	test_id(raw, idsets_rawsz(set), hex);
	return idsets_lookup(set, raw);
}

/* Expected IDs of an iteration, as hex (zero-padded to full length) and types. */
typedef struct {
	const char *hex;
	int type;
} want_id;

/*
 * Iterate `which` (after a seek to the zero-filled prefix `from` unless
 * NULL) and compare with want[0..n): same IDs, same types, same order,
 * nothing more.
 */
static void expect_iter(const idsets *set, int which, const char *from,
			const want_id *want, size_t n)
{
	size_t rawsz = idsets_rawsz(set);
	unsigned char seek[ABBREV_MAX_RAWSZ];
	idset_iter it;
	const unsigned char *id;
	int type;
	size_t i = 0;

	idset_iter_init(&it, set, which);
	if (from) {
		test_id(seek, rawsz, from);
		idset_iter_seek(&it, seek);
	}
	while (idset_iter_next(&it, &id, &type)) {
		unsigned char w[ABBREV_MAX_RAWSZ];
		char got[ABBREV_MAX_HEXSZ + 1];

		test_hex(got, id, rawsz);
		ck_assert_msg(i < n, "set %d from %s: extra ID %s after %zu",
			      which, from ? from : "start", got, n);
		test_id(w, rawsz, want[i].hex);
		ck_assert_msg(!memcmp(w, id, rawsz), "set %d from %s: ID %zu is %s, want %s",
			      which, from ? from : "start", i, got, want[i].hex);
		ck_assert_int_eq(type, want[i].type);
		i++;
	}
	ck_assert_msg(i == n, "set %d from %s: %zu IDs, want %zu",
		      which, from ? from : "start", i, n);
	/* the end is sticky */
	ck_assert_int_eq(idset_iter_next(&it, &id, &type), 0);
}

/* ---- core ---- */

START_TEST(test_set_names)
{
	ck_assert_str_eq(idset_name(ABBREV_SET_ALL), "all");
	ck_assert_str_eq(idset_name(ABBREV_SET_COMMIT), "commit");
	ck_assert_str_eq(idset_name(ABBREV_SET_TREE), "tree");
	ck_assert_str_eq(idset_name(ABBREV_SET_BLOB), "blob");
	ck_assert_str_eq(idset_name(ABBREV_SET_TAG), "tag");
	ck_assert_str_eq(idset_name(ABBREV_SET_COMMITISH), "commit-ish");
	ck_assert_int_eq(ABBREV_SET_COUNT, 6);
	for (int set = 0; set < ABBREV_SET_COUNT; set++)
		ck_assert_int_eq(idset_from_name(idset_name(set)), set);
	ck_assert_int_eq(idset_from_name("commitish"), -1);
	ck_assert_int_eq(idset_from_name("commits"), -1);
	ck_assert_int_eq(idset_from_name(""), -1);
}
END_TEST

START_TEST(test_empty)
{
	ck_assert_uint_eq(idsets_rawsz(s), 20);
	for (int set = 0; set < ABBREV_SET_COUNT; set++) {
		ck_assert_uint_eq(idsets_count(s, set), 0);
		expect_iter(s, set, NULL, NULL, 0);
		expect_iter(s, set, "", NULL, 0);
		expect_iter(s, set, "8", NULL, 0);
	}
	ck_assert_int_eq(lookup_hex(s, ""), ABBREV_TYPE_NONE);
	ck_assert_int_eq(lookup_hex(s, "0123456789abcdef0123456789abcdef01234567"),
			 ABBREV_TYPE_NONE);
}
END_TEST

START_TEST(test_one)
{
	static const want_id one[] = {
		{ "0123456789abcdef0123456789abcdef01234567", ABBREV_TYPE_COMMIT }
	};

	ck_assert_int_eq(add_hex(s, one[0].hex, ABBREV_TYPE_COMMIT), 1);
	ck_assert_uint_eq(idsets_count(s, ABBREV_SET_ALL), 1);
	ck_assert_uint_eq(idsets_count(s, ABBREV_SET_COMMIT), 1);
	ck_assert_uint_eq(idsets_count(s, ABBREV_SET_TREE), 0);
	ck_assert_uint_eq(idsets_count(s, ABBREV_SET_BLOB), 0);
	ck_assert_uint_eq(idsets_count(s, ABBREV_SET_TAG), 0);
	expect_iter(s, ABBREV_SET_ALL, NULL, one, 1);
	expect_iter(s, ABBREV_SET_COMMIT, NULL, one, 1);
	expect_iter(s, ABBREV_SET_TREE, NULL, NULL, 0);
	expect_iter(s, ABBREV_SET_BLOB, NULL, NULL, 0);
	expect_iter(s, ABBREV_SET_TAG, NULL, NULL, 0);
	ck_assert_int_eq(lookup_hex(s, one[0].hex), ABBREV_TYPE_COMMIT);
	/* same first 39 chars, last one differs */
	ck_assert_int_eq(lookup_hex(s, "0123456789abcdef0123456789abcdef01234566"),
			 ABBREV_TYPE_NONE);
	ck_assert_uint_gt(idsets_memory(s), 0);
}
END_TEST

START_TEST(test_duplicate)
{
	const char *x = "fedcba9876543210fedcba9876543210fedcba98";
	const char *y = "00000000000000000000000000000000000000ff";

	ck_assert_int_eq(add_hex(s, x, ABBREV_TYPE_BLOB), 1);
	ck_assert_int_eq(add_hex(s, x, ABBREV_TYPE_BLOB), 0);
	ck_assert_uint_eq(idsets_count(s, ABBREV_SET_ALL), 1);
	ck_assert_uint_eq(idsets_count(s, ABBREV_SET_BLOB), 1);
	ck_assert_int_eq(add_hex(s, y, ABBREV_TYPE_TREE), 1);
	ck_assert_int_eq(add_hex(s, x, ABBREV_TYPE_BLOB), 0);
	ck_assert_int_eq(add_hex(s, y, ABBREV_TYPE_TREE), 0);
	ck_assert_uint_eq(idsets_count(s, ABBREV_SET_ALL), 2);
	ck_assert_uint_eq(idsets_count(s, ABBREV_SET_BLOB), 1);
	ck_assert_uint_eq(idsets_count(s, ABBREV_SET_TREE), 1);
	{
		const want_id all[] = { { y, ABBREV_TYPE_TREE }, { x, ABBREV_TYPE_BLOB } };

		expect_iter(s, ABBREV_SET_ALL, NULL, all, 2);
		expect_iter(s, ABBREV_SET_TREE, NULL, all, 1);
		expect_iter(s, ABBREV_SET_BLOB, NULL, all + 1, 1);
	}
}
END_TEST

START_TEST(test_type_counts)
{
	/* 3 commits, 2 trees, 4 blobs, 1 tag; listed in byte order */
	static const want_id ids[] = {
		{ "1", ABBREV_TYPE_BLOB },
		{ "2", ABBREV_TYPE_COMMIT },
		{ "3", ABBREV_TYPE_TREE },
		{ "4", ABBREV_TYPE_BLOB },
		{ "5", ABBREV_TYPE_TAG },
		{ "6", ABBREV_TYPE_COMMIT },
		{ "7", ABBREV_TYPE_BLOB },
		{ "8", ABBREV_TYPE_TREE },
		{ "9", ABBREV_TYPE_BLOB },
		{ "a", ABBREV_TYPE_COMMIT },
	};
	static const want_id commits[] = {
		{ "2", ABBREV_TYPE_COMMIT }, { "6", ABBREV_TYPE_COMMIT }, { "a", ABBREV_TYPE_COMMIT }
	};
	static const want_id trees[] = { { "3", ABBREV_TYPE_TREE }, { "8", ABBREV_TYPE_TREE } };
	static const want_id blobs[] = {
		{ "1", ABBREV_TYPE_BLOB }, { "4", ABBREV_TYPE_BLOB },
		{ "7", ABBREV_TYPE_BLOB }, { "9", ABBREV_TYPE_BLOB }
	};
	static const want_id tags[] = { { "5", ABBREV_TYPE_TAG } };
	/* insertion order: a permutation (i * 7 mod 10) */
	for (size_t i = 0; i < 10; i++) {
		const want_id *w = &ids[i * 7 % 10];

		ck_assert_int_eq(add_hex(s, w->hex, w->type), 1);
	}
	ck_assert_uint_eq(idsets_count(s, ABBREV_SET_ALL), 10);
	ck_assert_uint_eq(idsets_count(s, ABBREV_SET_COMMIT), 3);
	ck_assert_uint_eq(idsets_count(s, ABBREV_SET_TREE), 2);
	ck_assert_uint_eq(idsets_count(s, ABBREV_SET_BLOB), 4);
	ck_assert_uint_eq(idsets_count(s, ABBREV_SET_TAG), 1);
	expect_iter(s, ABBREV_SET_ALL, NULL, ids, 10);
	expect_iter(s, ABBREV_SET_COMMIT, NULL, commits, 3);
	expect_iter(s, ABBREV_SET_TREE, NULL, trees, 2);
	expect_iter(s, ABBREV_SET_BLOB, NULL, blobs, 4);
	expect_iter(s, ABBREV_SET_TAG, NULL, tags, 1);
	for (size_t i = 0; i < 10; i++)
		ck_assert_int_eq(lookup_hex(s, ids[i].hex), ids[i].type);
}
END_TEST

/*
 * Overflow: five IDs share the whole key 0123456789abcdef (first 8 bytes)
 * and differ only after it; one ID sits on the key just below, one on
 * the key just above.  Byte order, with the tails after the key:
 *   p  0123456789abcdee ffffffffffffffffffffffff   key - 1
 *   e  0123456789abcdef 000000000000000000000000
 *   a  0123456789abcdef 000000000000000000000001
 *   b  0123456789abcdef 000000000000000000000002
 *   c  0123456789abcdef 800000000000000000000000
 *   d  0123456789abcdef ffffffffffffffffffffffff
 *   n  0123456789abcdf0 000000000000000000000000   key + 1
 * Inserted out of order (c a d p e n b), then a, d, e again.
 */
#define OVF_P "0123456789abcdeeffffffffffffffffffffffff"
#define OVF_E "0123456789abcdef000000000000000000000000"
#define OVF_A "0123456789abcdef000000000000000000000001"
#define OVF_B "0123456789abcdef000000000000000000000002"
#define OVF_C "0123456789abcdef800000000000000000000000"
#define OVF_D "0123456789abcdefffffffffffffffffffffffff"
#define OVF_N "0123456789abcdf0000000000000000000000000"

static void add_overflow_set(void)
{
	ck_assert_int_eq(add_hex(s, OVF_C, ABBREV_TYPE_COMMIT), 1);
	ck_assert_int_eq(add_hex(s, OVF_A, ABBREV_TYPE_COMMIT), 1);
	ck_assert_int_eq(add_hex(s, OVF_D, ABBREV_TYPE_BLOB), 1);
	ck_assert_int_eq(add_hex(s, OVF_P, ABBREV_TYPE_TAG), 1);
	ck_assert_int_eq(add_hex(s, OVF_E, ABBREV_TYPE_BLOB), 1);
	ck_assert_int_eq(add_hex(s, OVF_N, ABBREV_TYPE_TAG), 1);
	ck_assert_int_eq(add_hex(s, OVF_B, ABBREV_TYPE_TREE), 1);
	ck_assert_int_eq(add_hex(s, OVF_A, ABBREV_TYPE_COMMIT), 0);
	ck_assert_int_eq(add_hex(s, OVF_D, ABBREV_TYPE_BLOB), 0);
	ck_assert_int_eq(add_hex(s, OVF_E, ABBREV_TYPE_BLOB), 0);
}

START_TEST(test_overflow)
{
	static const want_id all[] = {
		{ OVF_P, ABBREV_TYPE_TAG }, { OVF_E, ABBREV_TYPE_BLOB },
		{ OVF_A, ABBREV_TYPE_COMMIT }, { OVF_B, ABBREV_TYPE_TREE },
		{ OVF_C, ABBREV_TYPE_COMMIT }, { OVF_D, ABBREV_TYPE_BLOB },
		{ OVF_N, ABBREV_TYPE_TAG },
	};
	static const want_id commits[] = {
		{ OVF_A, ABBREV_TYPE_COMMIT }, { OVF_C, ABBREV_TYPE_COMMIT }
	};
	static const want_id blobs[] = { { OVF_E, ABBREV_TYPE_BLOB }, { OVF_D, ABBREV_TYPE_BLOB } };
	static const want_id tags[] = { { OVF_P, ABBREV_TYPE_TAG }, { OVF_N, ABBREV_TYPE_TAG } };

	add_overflow_set();
	ck_assert_uint_eq(idsets_count(s, ABBREV_SET_ALL), 7);
	ck_assert_uint_eq(idsets_count(s, ABBREV_SET_COMMIT), 2);
	ck_assert_uint_eq(idsets_count(s, ABBREV_SET_TREE), 1);
	ck_assert_uint_eq(idsets_count(s, ABBREV_SET_BLOB), 2);
	ck_assert_uint_eq(idsets_count(s, ABBREV_SET_TAG), 2);
	expect_iter(s, ABBREV_SET_ALL, NULL, all, 7);
	expect_iter(s, ABBREV_SET_COMMIT, NULL, commits, 2);
	expect_iter(s, ABBREV_SET_TREE, NULL, all + 3, 1);
	expect_iter(s, ABBREV_SET_BLOB, NULL, blobs, 2);
	expect_iter(s, ABBREV_SET_TAG, NULL, tags, 2);
}
END_TEST

START_TEST(test_lookup)
{
	add_overflow_set();
	ck_assert_int_eq(lookup_hex(s, OVF_P), ABBREV_TYPE_TAG);
	ck_assert_int_eq(lookup_hex(s, OVF_E), ABBREV_TYPE_BLOB);
	ck_assert_int_eq(lookup_hex(s, OVF_A), ABBREV_TYPE_COMMIT);
	ck_assert_int_eq(lookup_hex(s, OVF_B), ABBREV_TYPE_TREE);
	ck_assert_int_eq(lookup_hex(s, OVF_C), ABBREV_TYPE_COMMIT);
	ck_assert_int_eq(lookup_hex(s, OVF_D), ABBREV_TYPE_BLOB);
	ck_assert_int_eq(lookup_hex(s, OVF_N), ABBREV_TYPE_TAG);
	/* misses on the overflow key: between a and b's tails, after d, between b and c */
	ck_assert_int_eq(lookup_hex(s, "0123456789abcdef000000000000000000000003"), ABBREV_TYPE_NONE);
	ck_assert_int_eq(lookup_hex(s, "0123456789abcdef7fffffffffffffffffffffff"), ABBREV_TYPE_NONE);
	ck_assert_int_eq(lookup_hex(s, "0123456789abcdeffffffffffffffffffffffffe"), ABBREV_TYPE_NONE);
	/* misses on a single-entry key (p, n) with another tail */
	ck_assert_int_eq(lookup_hex(s, "0123456789abcdeefffffffffffffffffffffffe"), ABBREV_TYPE_NONE);
	ck_assert_int_eq(lookup_hex(s, "0123456789abcdf0000000000000000000000001"), ABBREV_TYPE_NONE);
	/* misses on keys not there at all */
	ck_assert_int_eq(lookup_hex(s, "0123456789abcde0"), ABBREV_TYPE_NONE);
	ck_assert_int_eq(lookup_hex(s, ""), ABBREV_TYPE_NONE);
	ck_assert_int_eq(lookup_hex(s, "ffffffffffffffffffffffffffffffffffffffff"), ABBREV_TYPE_NONE);
}
END_TEST

/*
 * IDs sharing 15, 16, 17 and 39 hex chars with one base:
 *   base 89abcdef0123456789abcdef0123456789abcdef
 *   s15  89abcdef012345668... (char 15: 7 -> 6, other key, below)
 *   s16  89abcdef01234567 9... (char 16: 8 -> 9, same key, above base)
 *   s17  89abcdef01234567 80.. (char 17: 9 -> 0, same key, below base)
 *   s39  89abcdef...abcde     (char 39: f -> e, same key, below base)
 * Byte order: s15 < s17 < s39 < base < s16.
 */
#define SH_BASE "89abcdef0123456789abcdef0123456789abcdef"
#define SH_15   "89abcdef0123456689abcdef0123456789abcdef"
#define SH_16   "89abcdef0123456799abcdef0123456789abcdef"
#define SH_17   "89abcdef0123456780abcdef0123456789abcdef"
#define SH_39   "89abcdef0123456789abcdef0123456789abcdee"

START_TEST(test_shared_lengths)
{
	static const want_id want[] = {
		{ SH_15, ABBREV_TYPE_TREE }, { SH_17, ABBREV_TYPE_BLOB },
		{ SH_39, ABBREV_TYPE_TAG }, { SH_BASE, ABBREV_TYPE_COMMIT },
		{ SH_16, ABBREV_TYPE_COMMIT },
	};
	unsigned char base[20], other[20];

	/* the names say how much they share: cross-check with hexid_lcp */
	test_id(base, 20, SH_BASE);
	test_id(other, 20, SH_15);
	ck_assert_uint_eq(hexid_lcp(base, other, 20), 15);
	test_id(other, 20, SH_16);
	ck_assert_uint_eq(hexid_lcp(base, other, 20), 16);
	test_id(other, 20, SH_17);
	ck_assert_uint_eq(hexid_lcp(base, other, 20), 17);
	test_id(other, 20, SH_39);
	ck_assert_uint_eq(hexid_lcp(base, other, 20), 39);

	/* base first, so every other one lands beside an existing entry */
	ck_assert_int_eq(add_hex(s, SH_BASE, ABBREV_TYPE_COMMIT), 1);
	ck_assert_int_eq(add_hex(s, SH_16, ABBREV_TYPE_COMMIT), 1);
	ck_assert_int_eq(add_hex(s, SH_39, ABBREV_TYPE_TAG), 1);
	ck_assert_int_eq(add_hex(s, SH_17, ABBREV_TYPE_BLOB), 1);
	ck_assert_int_eq(add_hex(s, SH_15, ABBREV_TYPE_TREE), 1);
	for (size_t i = 0; i < 5; i++)
		ck_assert_int_eq(add_hex(s, want[i].hex, want[i].type), 0);
	ck_assert_uint_eq(idsets_count(s, ABBREV_SET_ALL), 5);
	ck_assert_uint_eq(idsets_count(s, ABBREV_SET_COMMIT), 2);
	expect_iter(s, ABBREV_SET_ALL, NULL, want, 5);
	expect_iter(s, ABBREV_SET_COMMIT, NULL, want + 3, 2);
	for (size_t i = 0; i < 5; i++)
		ck_assert_int_eq(lookup_hex(s, want[i].hex), want[i].type);
	/* s39's twin with char 39 = d is not there */
	ck_assert_int_eq(lookup_hex(s, "89abcdef0123456789abcdef0123456789abcded"), ABBREV_TYPE_NONE);
}
END_TEST

/*
 * SHA-256 (rawsz 32): overflow past the 8-byte key and a pair sharing
 * 63 of 64 chars.  Byte order: x < y < z < w (w alone on the next key);
 * x shares 16 chars with y and z, y and z share 63.
 */
#define W_X "aaaaaaaaaaaaaaaa00000000000000000000000000000000000000000000ffff"
#define W_Y "aaaaaaaaaaaaaaaa111111111111111111111111111111111111111111111110"
#define W_Z "aaaaaaaaaaaaaaaa111111111111111111111111111111111111111111111111"
#define W_W "aaaaaaaaaaaaaaab"

START_TEST(test_sha256)
{
	static const want_id want[] = {
		{ W_X, ABBREV_TYPE_TREE }, { W_Y, ABBREV_TYPE_COMMIT },
		{ W_Z, ABBREV_TYPE_BLOB }, { W_W, ABBREV_TYPE_TAG },
	};
	idsets *s32 = idsets_new(32);
	unsigned char y[32], z[32];

	ck_assert_ptr_nonnull(s32);
	ck_assert_uint_eq(idsets_rawsz(s32), 32);
	test_id(y, 32, W_Y);
	test_id(z, 32, W_Z);
	ck_assert_uint_eq(hexid_lcp(y, z, 32), 63);
	ck_assert_int_eq(add_hex(s32, W_Z, ABBREV_TYPE_BLOB), 1);
	ck_assert_int_eq(add_hex(s32, W_W, ABBREV_TYPE_TAG), 1);
	ck_assert_int_eq(add_hex(s32, W_Y, ABBREV_TYPE_COMMIT), 1);
	ck_assert_int_eq(add_hex(s32, W_X, ABBREV_TYPE_TREE), 1);
	ck_assert_int_eq(add_hex(s32, W_Y, ABBREV_TYPE_COMMIT), 0);
	ck_assert_int_eq(add_hex(s32, W_Z, ABBREV_TYPE_BLOB), 0);
	ck_assert_uint_eq(idsets_count(s32, ABBREV_SET_ALL), 4);
	ck_assert_uint_eq(idsets_count(s32, ABBREV_SET_COMMIT), 1);
	expect_iter(s32, ABBREV_SET_ALL, NULL, want, 4);
	expect_iter(s32, ABBREV_SET_BLOB, NULL, want + 2, 1);
	for (size_t i = 0; i < 4; i++)
		ck_assert_int_eq(lookup_hex(s32, want[i].hex), want[i].type);
	ck_assert_int_eq(lookup_hex(s32, "aaaaaaaaaaaaaaaa11111111111111111111111111111111111111111111111f"),
			 ABBREV_TYPE_NONE);
	/* seek inside the overflow list: the first ID >= aaaaaaaaaaaaaaaa1000... is y */
	expect_iter(s32, ABBREV_SET_ALL, "aaaaaaaaaaaaaaaa1", want + 1, 3);
	expect_iter(s32, ABBREV_SET_ALL, W_Z, want + 2, 2);
	idsets_free(s32);
}
END_TEST

/* Entries of the random tests: an ID and its type, sorted by memcmp. */
typedef struct {
	unsigned char id[ABBREV_MAX_RAWSZ];
	int type;
} entry;

static size_t entry_rawsz;

static int entry_cmp(const void *a, const void *b)
{
	return memcmp(((const entry *)a)->id, ((const entry *)b)->id, entry_rawsz);
}

/*
 * n generated IDs, inserted in generation order (random, with
 * duplicates and long shared prefixes), must iterate exactly as
 * qsort + memcmp + dedupe orders them, per set, and every seek to a
 * present ID or to a prefix of one must land where bsearch says.
 * With `ascending`, the same IDs go in sorted, each twice, as the pack
 * walker adds them: the collection then iterates its arena in place.
 * With `ascending` 2, 3 and 4 they go through the bulk adder (a second
 * thread fills the typed sets): all in order (2), past the adder's
 * `max` halfway (3), or the second half first, so that the first half
 * comes below the last ID (4): both fall back to idsets_add().  With
 * `ascending` 5 the bulk adder keeps pointers to the caller's IDs
 * (idsets_bulk_add_ref), whose buffer the collection frees (idsets_keep):
 * the iterated IDs must be those very bytes.  With `ascending` 6 a bulk
 * add of all but every seventh ID ends (leaving the Judy arrays owed),
 * then the seventh ones come by idsets_add(), the first below the last
 * (a second repository of a union): the arrays built then must hold
 * every ID of the bulk.  Seeks go to every set.
 */
static void check_random(size_t rawsz, size_t n, uint64_t seed, int ascending)
{
	idsets *set = idsets_new(rawsz);
	unsigned char *ids = malloc(n * rawsz);
	int *types = malloc(n * sizeof(*types));
	unsigned char *is_new = malloc(n);
	entry *sorted = malloc(n * sizeof(*sorted));
	size_t nsorted = 0, nnew = 0;
	size_t per_type[ABBREV_SET_COUNT] = { 0 };
	uint64_t st = seed ^ 0x5eed;
	unsigned char *refbuf = NULL;

	ck_assert_ptr_nonnull(set);
	ck_assert(ids && types && is_new && sorted);
	test_gen_ids(ids, types, is_new, n, rawsz, seed);
	for (size_t i = 0; i < n; i++) {
		ck_assert_int_eq(idsets_add(set, ids + i * rawsz, types[i]), is_new[i] ? 1 : 0);
		if (is_new[i]) {
			memcpy(sorted[nsorted].id, ids + i * rawsz, rawsz);
			sorted[nsorted++].type = types[i];
			per_type[types[i]]++;
			nnew++;
		}
	}
	entry_rawsz = rawsz;
	qsort(sorted, nsorted, sizeof(*sorted), entry_cmp);
	for (size_t i = 1; i < nsorted; i++)
		ck_assert_int_lt(memcmp(sorted[i - 1].id, sorted[i].id, rawsz), 0);
	if (ascending == 1) {
		idsets_free(set);
		set = idsets_new(rawsz);
		ck_assert_ptr_nonnull(set);
		for (size_t i = 0; i < nsorted; i++) {
			ck_assert_int_eq(idsets_add(set, sorted[i].id, sorted[i].type), 1);
			ck_assert_int_eq(idsets_add(set, sorted[i].id, sorted[i].type), 0);
		}
	} else if (ascending == 5) {
		idsets_bulk *b;

		idsets_free(set);
		set = idsets_new(rawsz);
		refbuf = malloc(nsorted * rawsz);
		ck_assert(set && refbuf);
		ck_assert_int_eq(idsets_keep(set, free, refbuf), 0);
		for (size_t i = 0; i < nsorted; i++)
			memcpy(refbuf + i * rawsz, sorted[i].id, rawsz);
		b = idsets_bulk_start(set, nsorted);
		ck_assert_ptr_nonnull(b);
		for (size_t i = 0; i < nsorted; i++) {
			ck_assert_int_eq(idsets_bulk_add_ref(b, refbuf + i * rawsz, sorted[i].type), 1);
			ck_assert_int_eq(idsets_bulk_add_ref(b, sorted[i].id, sorted[i].type), 0);
		}
		ck_assert_int_eq(idsets_bulk_finish(b), 0);
	} else if (ascending == 6) {
		idsets_bulk *b;

		idsets_free(set);
		set = idsets_new(rawsz);
		ck_assert_ptr_nonnull(set);
		b = idsets_bulk_start(set, nsorted);
		ck_assert_ptr_nonnull(b);
		for (size_t i = 0; i < nsorted; i++)
			if (i % 7 != 3)
				ck_assert_int_eq(idsets_bulk_add(b, sorted[i].id, sorted[i].type), 1);
		ck_assert_int_eq(idsets_bulk_finish(b), 0);
		for (size_t i = 3; i < nsorted; i += 7) {
			ck_assert_int_eq(idsets_add(set, sorted[i].id, sorted[i].type), 1);
			ck_assert_int_eq(idsets_add(set, sorted[i].id, sorted[i].type), 0);
		}
		/* one of the bulk again: known, though it came after the bulk */
		ck_assert_int_eq(idsets_add(set, sorted[0].id, sorted[0].type), 0);
	} else if (ascending) {
		size_t half = nsorted / 2;
		idsets_bulk *b;

		idsets_free(set);
		set = idsets_new(rawsz);
		ck_assert_ptr_nonnull(set);
		b = idsets_bulk_start(set, ascending == 3 ? half : nsorted);
		ck_assert_ptr_nonnull(b);
		ck_assert_int_eq(idsets_bulk_add(b, sorted[0].id, ABBREV_TYPE_NONE), -1);
		for (size_t k = 0; k < nsorted; k++) {
			size_t i = ascending == 4 ? (k + half) % nsorted : k;

			ck_assert_int_eq(idsets_bulk_add(b, sorted[i].id, sorted[i].type), 1);
			ck_assert_int_eq(idsets_bulk_add(b, sorted[i].id, sorted[i].type), 0);
		}
		ck_assert_int_eq(idsets_bulk_finish(b), 0);
	}

	ck_assert_uint_eq(idsets_count(set, ABBREV_SET_ALL), nnew);
	for (int t = ABBREV_TYPE_COMMIT; t <= ABBREV_TYPE_TAG; t++)
		ck_assert_uint_eq(idsets_count(set, t), per_type[t]);
	/* copied IDs are in the collection's memory; referenced ones are not */
	if (ascending != 5)
		ck_assert_uint_ge(idsets_memory(set), nnew * rawsz);

	for (int which = 0; which < ABBREV_SET_COUNT; which++) {
		idset_iter it;
		const unsigned char *id;
		int type;
		size_t i = 0, seen = 0;

		idset_iter_init(&it, set, which);
		/* no tag is peeled here: the commit-ish set is the commits */
		int want = which == ABBREV_SET_COMMITISH ? ABBREV_TYPE_COMMIT : which;

		while (idset_iter_next(&it, &id, &type)) {
			while (i < nsorted && want && sorted[i].type != want)
				i++;
			ck_assert_msg(i < nsorted, "set %d: extra ID after %zu", which, seen);
			ck_assert_msg(!memcmp(id, sorted[i].id, rawsz), "set %d: ID %zu out of order", which, seen);
			if (refbuf)
				ck_assert_ptr_eq(id, refbuf + i * rawsz);
			ck_assert_int_eq(type, sorted[i].type);
			i++;
			seen++;
		}
		ck_assert_uint_eq(seen, which ? per_type[want] : nsorted);
	}

	/* every stored ID is found with its type */
	for (size_t i = 0; i < nsorted; i++)
		ck_assert_int_eq(idsets_lookup(set, sorted[i].id), sorted[i].type);

	/* seeks: to a stored ID, to its prefix of a random length, to random bytes */
	for (int round = 0; round < 300; round++) {
		unsigned char from[ABBREV_MAX_RAWSZ];
		size_t k = test_rand(&st) % nsorted;
		int kind = round % 3;
		size_t lo = 0, hi = nsorted; /* first sorted entry >= from */
		idset_iter it;
		const unsigned char *id;
		int type;

		if (kind == 0) {
			memcpy(from, sorted[k].id, rawsz);
		} else if (kind == 1) {
			size_t len = test_rand(&st) % (2 * rawsz + 1);

			memcpy(from, sorted[k].id, rawsz);
			for (size_t c = len; c < 2 * rawsz; c++)
				test_set_nibble(from, c, 0);
		} else {
			test_rand_id(from, rawsz, &st);
		}
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (memcmp(sorted[mid].id, from, rawsz) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		/* lookup agrees: found with its type exactly when stored */
		if (lo < nsorted && !memcmp(sorted[lo].id, from, rawsz))
			ck_assert_int_eq(idsets_lookup(set, from), sorted[lo].type);
		else
			ck_assert_int_eq(idsets_lookup(set, from), ABBREV_TYPE_NONE);
		/* a typed set: its first ID >= from, as a scan of the sorted list finds it */
		{
			int t = 1 + round % 4;
			size_t j = lo;

			while (j < nsorted && sorted[j].type != t)
				j++;
			idset_iter_init(&it, set, t);
			idset_iter_seek(&it, from);
			if (j == nsorted) {
				ck_assert(!idset_iter_next(&it, &id, &type));
			} else {
				ck_assert(idset_iter_next(&it, &id, &type));
				ck_assert_msg(!memcmp(id, sorted[j].id, rawsz),
					      "seek round %d: wrong ID in set %d", round, t);
				ck_assert_int_eq(type, t);
			}
		}
		idset_iter_init(&it, set, ABBREV_SET_ALL);
		idset_iter_seek(&it, from);
		for (size_t j = lo; j < lo + 3 && j <= nsorted; j++) {
			int more = idset_iter_next(&it, &id, &type);

			if (j == nsorted) {
				ck_assert_msg(!more, "seek round %d: an ID past the end", round);
				break;
			}
			ck_assert_msg(more, "seek round %d: ended early", round);
			ck_assert_msg(!memcmp(id, sorted[j].id, rawsz),
				      "seek round %d (kind %d): wrong ID at %zu", round, kind, j - lo);
			ck_assert_int_eq(type, sorted[j].type);
		}
	}
	idsets_free(set);
	free(ids);
	free(types);
	free(is_new);
	free(sorted);
}

START_TEST(test_random_sha1)
{
	check_random(20, 4000, 7, 0);
}
END_TEST

START_TEST(test_random_sha256)
{
	check_random(32, 2500, 11, 0);
}
END_TEST

START_TEST(test_ascending_sha1)
{
	check_random(20, 4000, 13, 1);
}
END_TEST

START_TEST(test_ascending_sha256)
{
	check_random(32, 2500, 17, 1);
}
END_TEST

/* the bulk adder publishes to its worker every 8192 IDs: more than that */
START_TEST(test_bulk_sha1)
{
	check_random(20, 30000, 19, 2);
}
END_TEST

START_TEST(test_bulk_sha256)
{
	check_random(32, 2500, 23, 2);
}
END_TEST

START_TEST(test_bulk_past_max)
{
	check_random(20, 20000, 29, 3);
}
END_TEST

START_TEST(test_bulk_out_of_order)
{
	check_random(20, 20000, 31, 4);
}
END_TEST

START_TEST(test_bulk_by_reference)
{
	check_random(20, 20000, 37, 5);
	check_random(32, 2500, 41, 5);
}
END_TEST

START_TEST(test_bulk_then_add)
{
	check_random(20, 20000, 43, 6);
	check_random(32, 2500, 53, 6);
}
END_TEST

static int cmp_raw20(const void *a, const void *b)
{
	return memcmp(a, b, 20);
}

/*
 * Bulk adds of 1 to 80 IDs, then one plain add: the sets are built with
 * Judy1SetArray() then, whose leaf of exactly 31 keys libJudy 1.0.5
 * writes past its allocation (the sanitizer run of the suite sees that);
 * every ID must be found in its sets.
 */
START_TEST(test_bulk_small)
{
	unsigned char ids[80 * 20], top[20];
	uint64_t st = 47;

	memset(top, 0xff, sizeof(top)); /* above every ID: a plain add in order */
	for (size_t i = 0; i < 80; i++)
		test_rand_id(ids + i * 20, 20, &st);
	qsort(ids, 80, 20, cmp_raw20);
	for (size_t n = 1; n <= 80; n++) {
		idsets *c = idsets_new(20);
		idsets_bulk *b;

		ck_assert_ptr_nonnull(c);
		b = idsets_bulk_start(c, n);
		for (size_t i = 0; i < n; i++)
			ck_assert_int_eq(idsets_bulk_add(b, ids + i * 20, ABBREV_TYPE_BLOB), 1);
		ck_assert_int_eq(idsets_bulk_finish(b), 0);
		ck_assert_int_eq(idsets_add(c, top, ABBREV_TYPE_TREE), 1);
		ck_assert_uint_eq(idsets_count(c, ABBREV_SET_BLOB), n);
		for (size_t i = 0; i < n; i++)
			ck_assert(idsets_in_set(c, ids + i * 20, ABBREV_SET_BLOB));
		ck_assert(idsets_in_set(c, top, ABBREV_SET_TREE));
		idsets_free(c);
	}
}
END_TEST

/*
 * No spread kept (idsets_skip_spread): the same counts and IDs as a
 * collection that keeps it, by bulk adding and by plain adds, and a
 * spread all zero; the one kept counts every ID.
 */
START_TEST(test_skip_spread)
{
	size_t n = 3000;
	unsigned char *ids = malloc(n * 20);
	uint64_t st = 59;

	ck_assert_ptr_nonnull(ids);
	for (size_t i = 0; i < n; i++)
		test_rand_id(ids + i * 20, 20, &st);
	qsort(ids, n, 20, cmp_raw20);
	for (int bulk = 0; bulk < 2; bulk++) {
		idsets *a = idsets_new(20), *b = idsets_new(20);
		idsets_bulk *ba, *bb;
		idset_print pa, pb;

		ck_assert(a && b);
		idsets_skip_spread(a);
		ba = bulk ? idsets_bulk_start(a, n) : NULL;
		bb = bulk ? idsets_bulk_start(b, n) : NULL;
		for (size_t i = 0; i < n; i++) {
			int t = 1 + (int)(i % 4);

			ck_assert_int_eq(bulk ? idsets_bulk_add(ba, ids + i * 20, t) : idsets_add(a, ids + i * 20, t), 1);
			ck_assert_int_eq(bulk ? idsets_bulk_add(bb, ids + i * 20, t) : idsets_add(b, ids + i * 20, t), 1);
		}
		ck_assert_int_eq(idsets_bulk_finish(ba), 0);
		ck_assert_int_eq(idsets_bulk_finish(bb), 0);
		for (int set = 0; set < ABBREV_SET_COUNT; set++)
			ck_assert_uint_eq(idsets_count(a, set), idsets_count(b, set));
		for (size_t i = 0; i < n; i++)
			ck_assert_int_eq(idsets_lookup(a, ids + i * 20), 1 + (int)(i % 4));
		pa = idset_spread_range(idsets_spread(a), 0, 256);
		pb = idset_spread_range(idsets_spread(b), 0, 256);
		ck_assert(pa.n == 0 && pa.a == 0 && pa.b == 0);
		ck_assert_uint_eq(pb.n, n);
		idsets_free(a);
		idsets_free(b);
	}
	free(ids);
}
END_TEST

/*
 * Commits stored, the rest counted: the counts of every set stay exact
 * (bulk adding with its workers past a publishing batch, and plain adds),
 * while iterations and lookups see the commits alone.
 */
START_TEST(test_store_only)
{
	const size_t n = 20000;
	unsigned char *ids = malloc(n * 20);
	size_t want[ABBREV_SET_COUNT] = { 0 };
	uint64_t st = 43;

	ck_assert_ptr_nonnull(ids);
	for (size_t i = 0; i < n; i++)
		test_rand_id(ids + i * 20, 20, &st);
	qsort(ids, n, 20, cmp_raw20);
	for (int bulk = 0; bulk < 2; bulk++) {
		idsets *c = idsets_new(20);
		idsets_bulk *b;
		idset_iter it;
		const unsigned char *id;
		size_t seen = 0;
		int type;

		ck_assert_ptr_nonnull(c);
		idsets_store_only(c, 1u << ABBREV_TYPE_COMMIT);
		b = bulk ? idsets_bulk_start(c, n) : NULL;
		memset(want, 0, sizeof(want));
		for (size_t i = 0; i < n; i++) {
			type = ABBREV_TYPE_COMMIT + (int)(i % 4);
			ck_assert_int_eq(bulk ? idsets_bulk_add_ref(b, ids + i * 20, type)
					      : idsets_add(c, ids + i * 20, type), 1);
			want[ABBREV_SET_ALL]++;
			want[type]++;
		}
		ck_assert_int_eq(idsets_bulk_finish(b), 0);
		for (int set = ABBREV_SET_ALL; set <= ABBREV_SET_TAG; set++)
			ck_assert_uint_eq(idsets_count(c, set), want[set]);
		idset_iter_init(&it, c, ABBREV_SET_COMMIT);
		while (idset_iter_next(&it, &id, &type)) {
			ck_assert_int_eq(type, ABBREV_TYPE_COMMIT);
			ck_assert(!memcmp(id, ids + 4 * seen * 20, 20));
			seen++;
		}
		ck_assert_uint_eq(seen, want[ABBREV_SET_COMMIT]);
		ck_assert_int_eq(idsets_lookup(c, ids), ABBREV_TYPE_COMMIT);
		ck_assert_int_eq(idsets_lookup(c, ids + 20), ABBREV_TYPE_NONE);
		idsets_free(c);
	}
	free(ids);
}
END_TEST

/* A non-empty collection: the bulk adder is idsets_add(), duplicates included. */
START_TEST(test_bulk_not_empty)
{
	static const want_id all[] = {
		{ "1", ABBREV_TYPE_COMMIT }, { "2", ABBREV_TYPE_BLOB }, { "3", ABBREV_TYPE_TREE },
	};
	unsigned char raw[ABBREV_MAX_RAWSZ];
	idsets_bulk *b;

	ck_assert_int_eq(add_hex(s, "2", ABBREV_TYPE_BLOB), 1);
	b = idsets_bulk_start(s, 10);
	ck_assert_ptr_nonnull(b);
	test_id(raw, 20, "1");
	ck_assert_int_eq(idsets_bulk_add(b, raw, ABBREV_TYPE_COMMIT), 1);
	test_id(raw, 20, "2");
	ck_assert_int_eq(idsets_bulk_add(b, raw, ABBREV_TYPE_BLOB), 0);
	test_id(raw, 20, "3");
	ck_assert_int_eq(idsets_bulk_add(b, raw, ABBREV_TYPE_TREE), 1);
	ck_assert_int_eq(idsets_bulk_finish(b), 0);
	ck_assert_int_eq(idsets_bulk_finish(NULL), 0);
	expect_iter(s, ABBREV_SET_ALL, NULL, all, 3);
	expect_iter(s, ABBREV_SET_TREE, NULL, all + 2, 1);
	ck_assert_uint_eq(idsets_count(s, ABBREV_SET_COMMIT), 1);
}
END_TEST

/* In order at first (the arena is scanned), then one ID below: Judy takes over. */
START_TEST(test_order_lost)
{
	static const want_id all[] = {
		{ "0f", ABBREV_TYPE_TAG }, { "1", ABBREV_TYPE_COMMIT },
		{ "2", ABBREV_TYPE_BLOB }, { "3", ABBREV_TYPE_COMMIT },
	};

	ck_assert_int_eq(add_hex(s, "1", ABBREV_TYPE_COMMIT), 1);
	ck_assert_int_eq(add_hex(s, "2", ABBREV_TYPE_BLOB), 1);
	ck_assert_int_eq(add_hex(s, "3", ABBREV_TYPE_COMMIT), 1);
	expect_iter(s, ABBREV_SET_ALL, NULL, all + 1, 3);
	expect_iter(s, ABBREV_SET_COMMIT, "2", all + 3, 1);
	ck_assert_int_eq(add_hex(s, "0f", ABBREV_TYPE_TAG), 1);
	ck_assert_int_eq(add_hex(s, "2", ABBREV_TYPE_BLOB), 0);
	expect_iter(s, ABBREV_SET_ALL, NULL, all, 4);
	expect_iter(s, ABBREV_SET_ALL, "1", all + 1, 3);
	expect_iter(s, ABBREV_SET_TAG, NULL, all, 1);
	ck_assert_int_eq(lookup_hex(s, "0f"), ABBREV_TYPE_TAG);
}
END_TEST

/*
 * Seek targets, zero-padded prefixes.  The set, in byte order:
 *   A  1000000000000000 000000000000000000000000  (single, key 1000..)
 *   K1 2222222222222222 100000000000000000000000  (overflow key 2222..)
 *   K5 2222222222222222 500000000000000000000000
 *   K9 2222222222222222 900000000000000000000000
 *   B  3000000000000000 000000000000000000000000
 *   F  ffffffffffffffff 800000000000000000000000  (the largest key)
 */
#define SK_A  "1"
#define SK_K1 "22222222222222221"
#define SK_K5 "22222222222222225"
#define SK_K9 "22222222222222229"
#define SK_B  "3"
#define SK_F  "ffffffffffffffff8"

START_TEST(test_seek)
{
	static const want_id all[] = {
		{ SK_A, ABBREV_TYPE_COMMIT }, { SK_K1, ABBREV_TYPE_TREE },
		{ SK_K5, ABBREV_TYPE_COMMIT }, { SK_K9, ABBREV_TYPE_BLOB },
		{ SK_B, ABBREV_TYPE_COMMIT }, { SK_F, ABBREV_TYPE_TAG },
	};
	static const want_id commits[] = {
		{ SK_A, ABBREV_TYPE_COMMIT }, { SK_K5, ABBREV_TYPE_COMMIT }, { SK_B, ABBREV_TYPE_COMMIT }
	};

	ck_assert_int_eq(add_hex(s, SK_K9, ABBREV_TYPE_BLOB), 1);
	ck_assert_int_eq(add_hex(s, SK_F, ABBREV_TYPE_TAG), 1);
	ck_assert_int_eq(add_hex(s, SK_K1, ABBREV_TYPE_TREE), 1);
	ck_assert_int_eq(add_hex(s, SK_B, ABBREV_TYPE_COMMIT), 1);
	ck_assert_int_eq(add_hex(s, SK_K5, ABBREV_TYPE_COMMIT), 1);
	ck_assert_int_eq(add_hex(s, SK_A, ABBREV_TYPE_COMMIT), 1);

	expect_iter(s, ABBREV_SET_ALL, NULL, all, 6);
	expect_iter(s, ABBREV_SET_ALL, "", all, 6);          /* all zeros: everything */
	expect_iter(s, ABBREV_SET_ALL, "0", all, 6);
	expect_iter(s, ABBREV_SET_ALL, "1", all, 6);         /* == A exactly */
	expect_iter(s, ABBREV_SET_ALL, "10000000000000000001", all + 1, 5); /* A's key, past A */
	expect_iter(s, ABBREV_SET_ALL, "11", all + 1, 5);    /* between keys */
	expect_iter(s, ABBREV_SET_ALL, "2222222222222222", all + 1, 5); /* overflow key, before K1 */
	expect_iter(s, ABBREV_SET_ALL, SK_K1, all + 1, 5);
	expect_iter(s, ABBREV_SET_ALL, "2222222222222222100000000000000000000001", all + 2, 4);
	expect_iter(s, ABBREV_SET_ALL, "22222222222222223", all + 2, 4); /* inside the list */
	expect_iter(s, ABBREV_SET_ALL, SK_K5, all + 2, 4);
	expect_iter(s, ABBREV_SET_ALL, "22222222222222226", all + 3, 3);
	expect_iter(s, ABBREV_SET_ALL, SK_K9, all + 3, 3);
	expect_iter(s, ABBREV_SET_ALL, "2222222222222222a", all + 4, 2); /* past the list */
	expect_iter(s, ABBREV_SET_ALL, "2222222222222223", all + 4, 2);
	expect_iter(s, ABBREV_SET_ALL, "3", all + 4, 2);
	expect_iter(s, ABBREV_SET_ALL, "31", all + 5, 1);
	expect_iter(s, ABBREV_SET_ALL, "ffffffffffffffff", all + 5, 1);
	expect_iter(s, ABBREV_SET_ALL, SK_F, all + 5, 1);
	/* on the largest key, past its only ID: nothing (no wrap to key 0) */
	expect_iter(s, ABBREV_SET_ALL, "ffffffffffffffff9", NULL, 0);
	expect_iter(s, ABBREV_SET_ALL, "ffffffffffffffffffffffffffffffffffffffff", NULL, 0);

	/* the commit set skips the others */
	expect_iter(s, ABBREV_SET_COMMIT, "11", commits + 1, 2);
	expect_iter(s, ABBREV_SET_COMMIT, "22222222222222226", commits + 2, 1);
	expect_iter(s, ABBREV_SET_COMMIT, "4", NULL, 0);
	expect_iter(s, ABBREV_SET_TAG, "4", all + 5, 1);
	expect_iter(s, ABBREV_SET_TREE, "22222222222222222", NULL, 0);
}
END_TEST

START_TEST(test_seek_restart)
{
	idset_iter it;
	const unsigned char *id;
	int type;
	unsigned char from[20], want[20];

	ck_assert_int_eq(add_hex(s, SK_A, ABBREV_TYPE_COMMIT), 1);
	ck_assert_int_eq(add_hex(s, SK_K1, ABBREV_TYPE_TREE), 1);
	ck_assert_int_eq(add_hex(s, SK_K5, ABBREV_TYPE_COMMIT), 1);
	ck_assert_int_eq(add_hex(s, SK_B, ABBREV_TYPE_COMMIT), 1);

	idset_iter_init(&it, s, ABBREV_SET_ALL);
	while (idset_iter_next(&it, &id, &type))
		;
	/* after the end, a seek restarts: to "2222222222222222 3" -> K5 */
	test_id(from, 20, "22222222222222223");
	idset_iter_seek(&it, from);
	ck_assert(idset_iter_next(&it, &id, &type));
	test_id(want, 20, SK_K5);
	ck_assert_mem_eq(id, want, 20);
	/* in the middle, a seek backwards restarts too: "0" -> A */
	test_id(from, 20, "0");
	idset_iter_seek(&it, from);
	ck_assert(idset_iter_next(&it, &id, &type));
	test_id(want, 20, SK_A);
	ck_assert_mem_eq(id, want, 20);
	ck_assert_int_eq(type, ABBREV_TYPE_COMMIT);
	ck_assert(idset_iter_next(&it, &id, &type));
	test_id(want, 20, SK_K1);
	ck_assert_mem_eq(id, want, 20);
}
END_TEST

/* Widths below the 8-byte key are allowed (1..ABBREV_MAX_RAWSZ). */
START_TEST(test_small_widths)
{
	idsets *s1 = idsets_new(1);
	idsets *s5 = idsets_new(5);
	idset_iter it;
	const unsigned char *id;
	int type;
	unsigned n = 0;

	ck_assert_ptr_nonnull(s1);
	ck_assert_ptr_nonnull(s5);
	ck_assert_uint_eq(idsets_rawsz(s1), 1);
	/* all 256 one-byte IDs, in the order i * 167 mod 256 (a permutation) */
	for (unsigned i = 0; i < 256; i++) {
		unsigned char b = (unsigned char)(i * 167u);

		ck_assert_int_eq(idsets_add(s1, &b, 1 + (int)(b % 4)), 1);
	}
	ck_assert_uint_eq(idsets_count(s1, ABBREV_SET_ALL), 256);
	ck_assert_uint_eq(idsets_count(s1, ABBREV_SET_COMMIT), 64);
	idset_iter_init(&it, s1, ABBREV_SET_ALL);
	while (idset_iter_next(&it, &id, &type)) {
		ck_assert_uint_eq(id[0], n);
		ck_assert_int_eq(type, 1 + (int)(n % 4));
		n++;
	}
	ck_assert_uint_eq(n, 256);
	{
		unsigned char b = 0x80;

		ck_assert_int_eq(idsets_add(s1, &b, 1), 0);
		ck_assert_int_eq(idsets_lookup(s1, &b), 1);
		idset_iter_init(&it, s1, ABBREV_SET_ALL);
		idset_iter_seek(&it, &b);
		ck_assert(idset_iter_next(&it, &id, &type));
		ck_assert_uint_eq(id[0], 0x80);
	}

	ck_assert_int_eq(add_hex(s5, "ffffffff01", ABBREV_TYPE_TREE), 1);
	ck_assert_int_eq(add_hex(s5, "0000000002", ABBREV_TYPE_BLOB), 1);
	ck_assert_int_eq(add_hex(s5, "ffffffff00", ABBREV_TYPE_TAG), 1);
	ck_assert_int_eq(add_hex(s5, "0000000002", ABBREV_TYPE_BLOB), 0);
	{
		static const want_id want[] = {
			{ "0000000002", ABBREV_TYPE_BLOB }, { "ffffffff00", ABBREV_TYPE_TAG },
			{ "ffffffff01", ABBREV_TYPE_TREE },
		};

		expect_iter(s5, ABBREV_SET_ALL, NULL, want, 3);
		expect_iter(s5, ABBREV_SET_ALL, "ffffffff01", want + 2, 1);
		ck_assert_int_eq(lookup_hex(s5, "ffffffff00"), ABBREV_TYPE_TAG);
		ck_assert_int_eq(lookup_hex(s5, "ffffffff02"), ABBREV_TYPE_NONE);
	}
	idsets_free(s1);
	idsets_free(s5);
}
END_TEST

/* Keys 0 and all-ones are ordinary keys, also as overflow lists. */
START_TEST(test_extreme_keys)
{
	static const want_id want[] = {
		{ "", ABBREV_TYPE_BLOB },                           /* the all-zero ID */
		{ "0000000000000000000000000000000000000001", ABBREV_TYPE_BLOB },
		{ "0000000000000000f", ABBREV_TYPE_TREE },
		{ "ffffffffffffffff", ABBREV_TYPE_COMMIT },
		{ "ffffffffffffffff7", ABBREV_TYPE_COMMIT },
		{ "ffffffffffffffffffffffffffffffffffffffff", ABBREV_TYPE_TAG },
	};

	for (size_t i = 6; i-- > 0;)
		ck_assert_int_eq(add_hex(s, want[i].hex, want[i].type), 1);
	for (size_t i = 0; i < 6; i++)
		ck_assert_int_eq(add_hex(s, want[i].hex, want[i].type), 0);
	ck_assert_uint_eq(idsets_count(s, ABBREV_SET_ALL), 6);
	expect_iter(s, ABBREV_SET_ALL, NULL, want, 6);
	expect_iter(s, ABBREV_SET_ALL, "00000000000000001", want + 2, 4);
	expect_iter(s, ABBREV_SET_ALL, "ffffffffffffffff1", want + 4, 2);
	expect_iter(s, ABBREV_SET_COMMIT, NULL, want + 3, 2);
	for (size_t i = 0; i < 6; i++)
		ck_assert_int_eq(lookup_hex(s, want[i].hex), want[i].type);
}
END_TEST

/* ---- errors ---- */

/* ---- the commit-ish set ---- */

/* Record that tag `tag` names `target` of type `type` (zero-filled hex prefixes). */
static int target_hex(idsets *set, const char *tag, const char *target, int type)
{
	unsigned char t[ABBREV_MAX_RAWSZ], o[ABBREV_MAX_RAWSZ];

	test_id(t, idsets_rawsz(set), tag);
	test_id(o, idsets_rawsz(set), target);
	return idsets_tag_target(set, t, o, type);
}

static int in_set_hex(const idsets *set, const char *hex, int which)
{
	unsigned char raw[ABBREV_MAX_RAWSZ];

	test_id(raw, idsets_rawsz(set), hex);
	return idsets_in_set(set, raw, which);
}

/*
 * Tags of every kind git's deref_tag() meets: a chain, a tree, a missing
 * target (judged by the type line), a type line the target contradicts,
 * a tag of a missing tag, a tag never read.  `order` adds the IDs
 * ascending (a sorted arena, scanned) or descending (Judy iteration).
 */
static void check_peel(int descending)
{
	static const struct {
		const char *hex;
		int type;
		const char *target; /* NULL: no record */
		int ttype;
		int ish;
	} objs[] = {
		{ "10", ABBREV_TYPE_COMMIT, NULL, 0, 1 },
		{ "20", ABBREV_TYPE_TREE, NULL, 0, 0 },
		{ "30", ABBREV_TYPE_BLOB, NULL, 0, 0 },
		{ "41", ABBREV_TYPE_TAG, "10", ABBREV_TYPE_COMMIT, 1 },  /* of a commit */
		{ "42", ABBREV_TYPE_TAG, "20", ABBREV_TYPE_TREE, 0 },    /* of a tree */
		{ "43", ABBREV_TYPE_TAG, "41", ABBREV_TYPE_TAG, 1 },     /* of a tag of a commit */
		{ "44", ABBREV_TYPE_TAG, "43", ABBREV_TYPE_TAG, 1 },     /* three deep */
		{ "45", ABBREV_TYPE_TAG, "42", ABBREV_TYPE_TAG, 0 },     /* of a tag of a tree */
		{ "46", ABBREV_TYPE_TAG, "dd", ABBREV_TYPE_COMMIT, 1 },  /* missing commit */
		{ "47", ABBREV_TYPE_TAG, "de", ABBREV_TYPE_TAG, 0 },     /* missing tag */
		{ "48", ABBREV_TYPE_TAG, "20", ABBREV_TYPE_COMMIT, 0 },  /* "commit" is a tree */
		{ "49", ABBREV_TYPE_TAG, "30", ABBREV_TYPE_BLOB, 0 },    /* of a blob */
		{ "4a", ABBREV_TYPE_TAG, NULL, 0, 0 },                   /* never read */
		{ "50", ABBREV_TYPE_COMMIT, NULL, 0, 1 },
	};
	size_t n = sizeof(objs) / sizeof(objs[0]), nish = 0;
	want_id want[16];

	for (size_t k = 0; k < n; k++) {
		size_t i = descending ? n - 1 - k : k;

		ck_assert_int_eq(add_hex(s, objs[i].hex, objs[i].type), 1);
	}
	for (size_t i = 0; i < n; i++)
		if (objs[i].target) {
			ck_assert_int_eq(target_hex(s, objs[i].hex, objs[i].target, objs[i].ttype), 0);
			/* a tag read twice (two packs) is recorded twice: harmless */
			if (i % 2)
				ck_assert_int_eq(target_hex(s, objs[i].hex, objs[i].target,
							    objs[i].ttype), 0);
		}
	/* before the peel the set is the commits */
	ck_assert_uint_eq(idsets_count(s, ABBREV_SET_COMMITISH), 2);
	for (int round = 0; round < 2; round++) {
		ck_assert_int_eq(idsets_peel(s), 1); /* "4a" was never read */
		nish = 0;
		for (size_t i = 0; i < n; i++) {
			ck_assert_msg(in_set_hex(s, objs[i].hex, ABBREV_SET_COMMITISH) == objs[i].ish,
				      "%s: commit-ish %d, want %d", objs[i].hex,
				      in_set_hex(s, objs[i].hex, ABBREV_SET_COMMITISH), objs[i].ish);
			ck_assert_int_eq(lookup_hex(s, objs[i].hex), objs[i].type);
			ck_assert_int_eq(in_set_hex(s, objs[i].hex, objs[i].type), 1);
			ck_assert_int_eq(in_set_hex(s, objs[i].hex, ABBREV_SET_ALL), 1);
			if (objs[i].ish) {
				want[nish].hex = objs[i].hex;
				want[nish++].type = objs[i].type;
			}
		}
		ck_assert_uint_eq(idsets_count(s, ABBREV_SET_COMMITISH), nish);
		ck_assert_uint_eq(idsets_count(s, ABBREV_SET_TAG), 10);
		ck_assert_uint_eq(idsets_count(s, ABBREV_SET_COMMIT), 2);
		expect_iter(s, ABBREV_SET_COMMITISH, NULL, want, nish);
		expect_iter(s, ABBREV_SET_COMMITISH, "42", want + 2, nish - 2);
	}
	ck_assert_uint_eq(nish, 6);
	ck_assert_int_eq(in_set_hex(s, "dd", ABBREV_SET_COMMITISH), 0); /* not stored */
	ck_assert_int_eq(in_set_hex(s, "10", ABBREV_SET_COUNT), 0);
	{
		unsigned char raw[ABBREV_MAX_RAWSZ];

		test_id(raw, 20, "43");
		ck_assert_int_eq(idsets_tag_has_target(s, raw), 1);
		test_id(raw, 20, "4a");
		ck_assert_int_eq(idsets_tag_has_target(s, raw), 0);
	}
	/* the iterator says which sets the ID it returned belongs to */
	{
		idset_iter it;
		const unsigned char *id;
		int type;
		size_t k = 0;

		idset_iter_init(&it, s, ABBREV_SET_ALL);
		while (idset_iter_next(&it, &id, &type)) {
			ck_assert_int_eq(idset_iter_in_set(&it, ABBREV_SET_COMMITISH), objs[k].ish);
			ck_assert_int_eq(idset_iter_in_set(&it, type), 1);
			ck_assert_int_eq(idset_iter_in_set(&it, ABBREV_SET_ALL), 1);
			k++;
		}
		ck_assert_uint_eq(k, n);
	}
}

START_TEST(test_peel_sorted)
{
	check_peel(0);
}
END_TEST

START_TEST(test_peel_unsorted)
{
	check_peel(1);
}
END_TEST

START_TEST(test_tag_target_bad_type)
{
	ck_assert_int_eq(target_hex(s, "41", "10", ABBREV_TYPE_NONE), -1);
	ck_assert_int_eq(target_hex(s, "41", "10", 5), -1);
	ck_assert_int_eq(idsets_peel(s), 0);
}
END_TEST

START_TEST(test_new_bad_width)
{
	ck_assert_ptr_null(idsets_new(0));
	ck_assert_ptr_null(idsets_new(ABBREV_MAX_RAWSZ + 1));
	ck_assert_ptr_null(idsets_new(64));
	ck_assert_ptr_null(idsets_new((size_t)-1));
}
END_TEST

START_TEST(test_add_bad_type)
{
	const char *x = "0123456789abcdef0123456789abcdef01234567";

	ck_assert_int_eq(add_hex(s, x, ABBREV_TYPE_NONE), -1);
	ck_assert_int_eq(add_hex(s, x, 5), -1);
	ck_assert_int_eq(add_hex(s, x, -1), -1);
	ck_assert_int_eq(add_hex(s, x, 1000), -1);
	for (int set = 0; set < ABBREV_SET_COUNT; set++) {
		ck_assert_uint_eq(idsets_count(s, set), 0);
		expect_iter(s, set, NULL, NULL, 0);
	}
	ck_assert_int_eq(lookup_hex(s, x), ABBREV_TYPE_NONE);
	/* the failed adds left nothing behind: the first real add is new */
	ck_assert_int_eq(add_hex(s, x, ABBREV_TYPE_TAG), 1);
	ck_assert_int_eq(add_hex(s, "1", 0), -1);
	ck_assert_uint_eq(idsets_count(s, ABBREV_SET_ALL), 1);
	ck_assert_uint_eq(idsets_count(s, ABBREV_SET_TAG), 1);
	ck_assert_int_eq(lookup_hex(s, "1"), ABBREV_TYPE_NONE);
}
END_TEST

Suite *make_idset_suite(void)
{
	Suite *suite = suite_create("idset");
	TCase *core = tcase_create("core");
	TCase *errors = tcase_create("errors");

	tcase_add_checked_fixture(core, setup, teardown);
	tcase_set_timeout(core, 60);
	tcase_add_test(core, test_set_names);
	tcase_add_test(core, test_empty);
	tcase_add_test(core, test_one);
	tcase_add_test(core, test_duplicate);
	tcase_add_test(core, test_type_counts);
	tcase_add_test(core, test_overflow);
	tcase_add_test(core, test_lookup);
	tcase_add_test(core, test_shared_lengths);
	tcase_add_test(core, test_sha256);
	tcase_add_test(core, test_random_sha1);
	tcase_add_test(core, test_random_sha256);
	tcase_add_test(core, test_ascending_sha1);
	tcase_add_test(core, test_ascending_sha256);
	tcase_add_test(core, test_bulk_sha1);
	tcase_add_test(core, test_bulk_sha256);
	tcase_add_test(core, test_bulk_past_max);
	tcase_add_test(core, test_bulk_out_of_order);
	tcase_add_test(core, test_bulk_by_reference);
	tcase_add_test(core, test_bulk_then_add);
	tcase_add_test(core, test_skip_spread);
	tcase_add_test(core, test_bulk_not_empty);
	tcase_add_test(core, test_store_only);
	tcase_add_test(core, test_bulk_small);
	tcase_add_test(core, test_order_lost);
	tcase_add_test(core, test_seek);
	tcase_add_test(core, test_seek_restart);
	tcase_add_test(core, test_small_widths);
	tcase_add_test(core, test_extreme_keys);
	tcase_add_test(core, test_peel_sorted);
	tcase_add_test(core, test_peel_unsorted);
	suite_add_tcase(suite, core);

	tcase_add_checked_fixture(errors, setup, teardown);
	tcase_add_test(errors, test_new_bad_width);
	tcase_add_test(errors, test_add_bad_type);
	tcase_add_test(errors, test_tag_target_bad_type);
	suite_add_tcase(suite, errors);
	return suite;
}
