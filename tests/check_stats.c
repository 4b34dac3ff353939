/*
 * check_stats.c - unit tests of stats: collision tables, commit-vs-other
 * counts, git's auto abbreviation and the report.
 *
 * Hand-made IDs with the expected numbers worked out in comments, plus a
 * brute-force counter that is independent of the neighbour-LCP method of
 * stats.c: it sorts the hex strings with qsort and, for every L, groups
 * them into runs equal to their first member in the first L chars
 * (strncmp), counting runs of two or more.  Generated sets (fixed LCG) are
 * compared with it length by length.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "hexid.h"
#include "idset.h"
#include "stats.h"

static idsets *s;     /* a SHA-1 collection, fresh for every test */
static stats_set st;  /* filled by compute() */
static int st_filled;

static void setup(void)
{
	s = idsets_new(20);
	ck_assert_ptr_nonnull(s);
	memset(&st, 0, sizeof(st));
	st_filled = 0;
}

static void teardown(void)
{
	if (st_filled)
		stats_set_clear(&st);
	st_filled = 0;
	idsets_free(s);
	s = NULL;
}

static void add(idsets *set, const char *hex, int type)
{
	unsigned char raw[ABBREV_MAX_RAWSZ];

	test_id(raw, idsets_rawsz(set), hex);
	ck_assert_int_eq(idsets_add(set, raw, type), 1);
}

/* stats of one set of `s` into the fixture's `st` */
static void compute(int set)
{
	if (st_filled)
		stats_set_clear(&st);
	memset(&st, 0, sizeof(st));
	ck_assert_int_eq(stats_set_compute(&st, s, set), 0);
	st_filled = 1;
}

/* objects[L] and prefixes[L] for L = from .. to */
static void expect_range(const stats_set *t, unsigned from, unsigned to,
			 size_t objects, size_t prefixes)
{
	for (unsigned L = from; L <= to; L++) {
		ck_assert_msg(t->objects[L] == objects, "objects[%u] = %zu, want %zu",
			      L, t->objects[L], objects);
		ck_assert_msg(t->prefixes[L] == prefixes, "prefixes[%u] = %zu, want %zu",
			      L, t->prefixes[L], prefixes);
	}
}

/* ---- brute force ---- */

typedef struct {
	char hex[ABBREV_MAX_HEXSZ + 1];
	int type;
} bf_id;

static int bf_cmp(const void *a, const void *b)
{
	return strcmp(((const bf_id *)a)->hex, ((const bf_id *)b)->hex);
}

/* Sort, and drop exact duplicates (one object, one type). */
static size_t bf_sort_unique(bf_id *ids, size_t n)
{
	size_t m = 0;

	qsort(ids, n, sizeof(*ids), bf_cmp);
	for (size_t i = 0; i < n; i++) {
		if (m && !strcmp(ids[m - 1].hex, ids[i].hex)) {
			ck_assert_int_eq(ids[m - 1].type, ids[i].type);
			continue;
		}
		ids[m++] = ids[i];
	}
	return m;
}

/* End of the run that starts at i: IDs equal to ids[i] in the first L chars. */
static size_t bf_run_end(const bf_id *ids, size_t n, size_t i, unsigned L)
{
	size_t j = i + 1;

	while (j < n && !strncmp(ids[i].hex, ids[j].hex, L))
		j++;
	return j;
}

/* objects[L], prefixes[L] for L = 0 .. hexsz of sorted distinct ids[] */
static void bf_tables(const bf_id *ids, size_t n, unsigned hexsz,
		      size_t *objects, size_t *prefixes)
{
	for (unsigned L = 0; L <= hexsz; L++) {
		objects[L] = prefixes[L] = 0;
		for (size_t i = 0, j; i < n; i = j) {
			j = bf_run_end(ids, n, i, L);
			if (j - i >= 2) {
				objects[L] += j - i;
				prefixes[L]++;
			}
		}
	}
}

/* commits in runs (at each L) that also hold a non-commit */
static void bf_cvo(const bf_id *ids, size_t n, unsigned hexsz, size_t *cvo)
{
	for (unsigned L = 0; L <= hexsz; L++) {
		cvo[L] = 0;
		for (size_t i = 0, j; i < n; i = j) {
			size_t commits = 0;

			j = bf_run_end(ids, n, i, L);
			for (size_t k = i; k < j; k++)
				commits += ids[k].type == ABBREV_TYPE_COMMIT;
			if (commits && commits < j - i)
				cvo[L] += commits;
		}
	}
}

/* The members of `set` from sorted distinct all[] into out[]; how many. */
static size_t bf_filter(bf_id *out, const bf_id *all, size_t n, int set)
{
	size_t m = 0;

	/* no tag is peeled in these tests: the commit-ish set is the commits */
	if (set == ABBREV_SET_COMMITISH)
		set = ABBREV_SET_COMMIT;
	for (size_t i = 0; i < n; i++)
		if (set == ABBREV_SET_ALL || all[i].type == set)
			out[m++] = all[i];
	return m;
}

/*
 * Check every field of a computed stats_set against brute force over
 * the sorted distinct IDs ids[0..n) of that set.
 */
static void bf_check_set(const stats_set *t, const bf_id *ids, size_t n, size_t rawsz)
{
	unsigned hexsz = (unsigned)(2 * rawsz);
	size_t objects[ABBREV_MAX_HEXSZ + 1], prefixes[ABBREV_MAX_HEXSZ + 1];
	unsigned last = ABBREV_MIN_LEN;

	bf_tables(ids, n, hexsz, objects, prefixes);
	while (last < hexsz && objects[last])
		last++;
	ck_assert_uint_eq(objects[last], 0); /* distinct IDs: none collide at full length */

	ck_assert_uint_eq(t->count, n);
	ck_assert_uint_eq(t->hexsz, hexsz);
	ck_assert_uint_eq(t->last_len, last);
	ck_assert_uint_eq(t->min_unique, n ? last : 0);
	ck_assert_uint_eq(t->longest, last > ABBREV_MIN_LEN ? last - 1 : 0);
	for (unsigned L = ABBREV_MIN_LEN; L <= hexsz; L++) {
		size_t wo = L <= last ? objects[L] : 0, wp = L <= last ? prefixes[L] : 0;

		ck_assert_msg(t->objects[L] == wo, "objects[%u] = %zu, brute force %zu",
			      L, t->objects[L], wo);
		ck_assert_msg(t->prefixes[L] == wp, "prefixes[%u] = %zu, brute force %zu",
			      L, t->prefixes[L], wp);
	}

	/* the groups at `longest`: runs of 2+ in ID order, all members */
	if (!t->longest) {
		ck_assert_uint_eq(t->ngroups, 0);
		ck_assert_uint_eq(t->nmembers, 0);
		return;
	}
	ck_assert_uint_eq(t->ngroups, prefixes[t->longest]);
	ck_assert_uint_eq(t->nmembers, objects[t->longest]);
	{
		size_t g = 0, m = 0;

		for (size_t i = 0, j; i < n; i = j) {
			j = bf_run_end(ids, n, i, t->longest);
			if (j - i < 2)
				continue;
			ck_assert_uint_eq(t->groups[g].first, m);
			ck_assert_uint_eq(t->groups[g].n, j - i);
			ck_assert_uint_eq(t->groups[g].len, t->longest);
			for (size_t k = i; k < j; k++, m++) {
				char hex[ABBREV_MAX_HEXSZ + 1];

				test_hex(hex, t->member_ids + m * rawsz, rawsz);
				ck_assert_str_eq(hex, ids[k].hex);
				ck_assert_int_eq(t->member_types[m], ids[k].type);
			}
			g++;
		}
		ck_assert_uint_eq(g, t->ngroups);
	}
}

/* Every set of `set_of` and commit-vs-other against brute force over all[] */
static void bf_check_all(const idsets *set_of, bf_id *all, size_t n)
{
	size_t rawsz = idsets_rawsz(set_of);
	unsigned hexsz = (unsigned)(2 * rawsz);
	bf_id *sub = malloc((n ? n : 1) * sizeof(*sub));
	size_t cvo[ABBREV_MAX_HEXSZ + 1], want[ABBREV_MAX_HEXSZ + 1];
	unsigned last = 0, wlast = ABBREV_MIN_LEN;

	ck_assert_ptr_nonnull(sub);
	for (int set = 0; set < ABBREV_SET_COUNT; set++) {
		stats_set t;
		size_t m = bf_filter(sub, all, n, set);

		memset(&t, 0, sizeof(t));
		ck_assert_int_eq(stats_set_compute(&t, set_of, set), 0);
		bf_check_set(&t, sub, m, rawsz);
		stats_set_clear(&t);
	}

	bf_cvo(all, n, hexsz, want);
	while (wlast < hexsz && want[wlast])
		wlast++;
	memset(cvo, 0xff, sizeof(cvo));
	ck_assert_int_eq(stats_commit_vs_other(cvo, &last, set_of), 0);
	ck_assert_uint_eq(last, wlast);
	for (unsigned L = ABBREV_MIN_LEN; L <= wlast; L++)
		ck_assert_msg(cvo[L] == want[L], "cvo[%u] = %zu, brute force %zu", L, cvo[L], want[L]);
	free(sub);
}

/* hex chars two hex strings share */
static unsigned bf_lcp(const char *a, const char *b)
{
	unsigned n = 0;

	while (a[n] && a[n] == b[n])
		n++;
	return n;
}

/*
 * stats_groups_at(set, L, against_all) against brute force: the runs at L
 * of the set (against_all 0) or of all objects that hold an ID of type
 * `set` (against_all 1), each with its members in order and the chars
 * they all share (first vs last member of the sorted run).
 */
static void bf_check_groups_at(const idsets *set_of, const bf_id *all, size_t n,
			       int set, unsigned L, int against_all)
{
	size_t rawsz = idsets_rawsz(set_of);
	bf_id *cmp = malloc((n ? n : 1) * sizeof(*cmp));
	size_t m = bf_filter(cmp, all, n, against_all ? ABBREV_SET_ALL : set);
	size_t g = 0, k = 0, objects = 0;
	stats_set t;

	ck_assert_ptr_nonnull(cmp);
	memset(&t, 0, sizeof(t));
	ck_assert_int_eq(stats_groups_at(&t, set_of, set, L, against_all), 0);
	ck_assert_uint_eq(t.count, m);
	ck_assert_uint_eq(t.longest, L);
	for (size_t i = 0, j; i < m; i = j) {
		int has = !against_all;

		j = bf_run_end(cmp, m, i, L);
		for (size_t x = i; x < j; x++)
			has |= set == ABBREV_SET_ALL ||
			       cmp[x].type == (set == ABBREV_SET_COMMITISH ? ABBREV_TYPE_COMMIT : set);
		if (j - i < 2 || !has)
			continue;
		ck_assert_msg(g < t.ngroups, "set %d L %u all %d: group %zu missing",
			      set, L, against_all, g);
		ck_assert_uint_eq(t.groups[g].first, k);
		ck_assert_uint_eq(t.groups[g].n, j - i);
		ck_assert_uint_eq(t.groups[g].len, bf_lcp(cmp[i].hex, cmp[j - 1].hex));
		for (size_t x = i; x < j; x++, k++) {
			char hex[ABBREV_MAX_HEXSZ + 1];

			test_hex(hex, t.member_ids + k * rawsz, rawsz);
			ck_assert_str_eq(hex, cmp[x].hex);
			ck_assert_int_eq(t.member_types[k], cmp[x].type);
		}
		objects += j - i;
		g++;
	}
	ck_assert_uint_eq(t.ngroups, g);
	ck_assert_uint_eq(t.nmembers, k);
	ck_assert_uint_eq(t.objects[L], objects);
	ck_assert_uint_eq(t.prefixes[L], g);
	stats_set_clear(&t);
	free(cmp);
}

/* brute-force entries of the IDs of a collection made by hand */
static size_t bf_from_hex(bf_id *out, const char *const *hex, const int *types, size_t n, size_t rawsz)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char raw[ABBREV_MAX_RAWSZ];

		test_id(raw, rawsz, hex[i]);
		test_hex(out[i].hex, raw, rawsz);
		out[i].type = types[i];
	}
	return bf_sort_unique(out, n);
}

/* ---- core ---- */

START_TEST(test_one_id)
{
	/* one ID collides with nothing: min_unique 4, the table stops at 4 */
	add(s, "0123456789abcdef0123456789abcdef01234567", ABBREV_TYPE_COMMIT);
	compute(ABBREV_SET_ALL);
	ck_assert_uint_eq(st.count, 1);
	ck_assert_uint_eq(st.hexsz, 40);
	ck_assert_uint_eq(st.min_unique, 4);
	ck_assert_uint_eq(st.last_len, 4);
	ck_assert_uint_eq(st.objects[4], 0);
	ck_assert_uint_eq(st.prefixes[4], 0);
	ck_assert_uint_eq(st.longest, 0);
	ck_assert_uint_eq(st.ngroups, 0);
	ck_assert_uint_eq(st.nmembers, 0);
	compute(ABBREV_SET_COMMIT);
	ck_assert_uint_eq(st.count, 1);
	ck_assert_uint_eq(st.min_unique, 4);
	compute(ABBREV_SET_TREE);
	ck_assert_uint_eq(st.count, 0);
	ck_assert_uint_eq(st.min_unique, 0);
	ck_assert_uint_eq(st.last_len, 4);
}
END_TEST

START_TEST(test_share_three)
{
	/*
	 * abc0... and abc1... share 3 chars: they collide at 3 but git's
	 * minimum is 4, where they differ: nothing collides, min_unique 4.
	 */
	add(s, "abc0", ABBREV_TYPE_COMMIT);
	add(s, "abc1", ABBREV_TYPE_COMMIT);
	add(s, "0", ABBREV_TYPE_BLOB); /* far away */
	compute(ABBREV_SET_ALL);
	ck_assert_uint_eq(st.count, 3);
	ck_assert_uint_eq(st.min_unique, 4);
	ck_assert_uint_eq(st.last_len, 4);
	ck_assert_uint_eq(st.objects[4], 0);
	ck_assert_uint_eq(st.prefixes[4], 0);
	ck_assert_uint_eq(st.longest, 0);
	ck_assert_uint_eq(st.ngroups, 0);
	for (unsigned L = 5; L <= ABBREV_MAX_HEXSZ; L++)
		ck_assert_uint_eq(st.objects[L], 0);
}
END_TEST

/*
 * A commit A and a tree B sharing exactly `shared` chars (B = A with
 * char `shared` raised by one, so A < B):
 *   objects[L] = 2, prefixes[L] = 1 for 4 <= L <= shared,
 *   objects[shared+1] = 0, last_len = min_unique = shared+1,
 *   longest = shared, one group {A commit, B tree}.
 */
static void check_pair(size_t rawsz, unsigned shared)
{
	idsets *set = idsets_new(rawsz);
	unsigned hexsz = (unsigned)(2 * rawsz);
	unsigned char a[ABBREV_MAX_RAWSZ], b[ABBREV_MAX_RAWSZ];
	uint64_t seed = shared;
	stats_set t;

	ck_assert_ptr_nonnull(set);
	test_rand_id(a, rawsz, &seed);
	test_set_nibble(a, shared, 0x7); /* room to raise it */
	memcpy(b, a, rawsz);
	test_set_nibble(b, shared, 0x8);
	ck_assert_uint_eq(hexid_lcp(a, b, rawsz), shared);
	ck_assert_int_eq(idsets_add(set, b, ABBREV_TYPE_TREE), 1);
	ck_assert_int_eq(idsets_add(set, a, ABBREV_TYPE_COMMIT), 1);

	memset(&t, 0, sizeof(t));
	ck_assert_int_eq(stats_set_compute(&t, set, ABBREV_SET_ALL), 0);
	ck_assert_uint_eq(t.count, 2);
	ck_assert_uint_eq(t.hexsz, hexsz);
	expect_range(&t, ABBREV_MIN_LEN, shared, 2, 1);
	expect_range(&t, shared + 1, hexsz, 0, 0);
	ck_assert_uint_eq(t.min_unique, shared + 1);
	ck_assert_uint_eq(t.last_len, shared + 1);
	ck_assert_uint_eq(t.longest, shared);
	ck_assert_uint_eq(t.ngroups, 1);
	ck_assert_uint_eq(t.groups[0].first, 0);
	ck_assert_uint_eq(t.groups[0].n, 2);
	ck_assert_uint_eq(t.groups[0].len, shared);
	ck_assert_uint_eq(t.nmembers, 2);
	ck_assert_mem_eq(t.member_ids, a, rawsz);
	ck_assert_mem_eq(t.member_ids + rawsz, b, rawsz);
	ck_assert_uint_eq(t.member_types[0], ABBREV_TYPE_COMMIT);
	ck_assert_uint_eq(t.member_types[1], ABBREV_TYPE_TREE);
	stats_set_clear(&t);

	/* each typed set holds one of them: no collision */
	memset(&t, 0, sizeof(t));
	ck_assert_int_eq(stats_set_compute(&t, set, ABBREV_SET_COMMIT), 0);
	ck_assert_uint_eq(t.count, 1);
	ck_assert_uint_eq(t.min_unique, 4);
	ck_assert_uint_eq(t.last_len, 4);
	ck_assert_uint_eq(t.objects[4], 0);
	stats_set_clear(&t);
	idsets_free(set);
}

START_TEST(test_pair_15)
{
	check_pair(20, 15);
}
END_TEST

START_TEST(test_pair_16)
{
	check_pair(20, 16);
}
END_TEST

START_TEST(test_pair_17)
{
	check_pair(20, 17);
}
END_TEST

START_TEST(test_pair_39)
{
	/* last_len = 40 = hexsz: the full length is the first without collision */
	check_pair(20, 39);
}
END_TEST

START_TEST(test_pair_sha256_63)
{
	/* 64-hex IDs sharing 63: min_unique 64, objects[63] = 2, objects[64] = 0 */
	check_pair(32, 63);
}
END_TEST

START_TEST(test_pair_sha256_40)
{
	/* one past the SHA-1 length */
	check_pair(32, 40);
}
END_TEST

/*
 * Three IDs with the same 10-char prefix and two that share 6:
 *   0123456789a...  0123456789b...  0123456789c...   (share 10)
 *   fedcba0...      fedcba1...                       (share 6)
 *   L = 4..6:  objects 5, prefixes 2
 *   L = 7..10: objects 3, prefixes 1
 *   L = 11:    objects 0, prefixes 0  -> last_len = min_unique = 11
 *   longest 10: one group of three.
 */
static const char *const five_hex[] = {
	"0123456789b", "fedcba1", "0123456789a", "fedcba0", "0123456789c"
};
static const int five_types[] = {
	ABBREV_TYPE_TREE, ABBREV_TYPE_BLOB, ABBREV_TYPE_COMMIT, ABBREV_TYPE_BLOB, ABBREV_TYPE_TAG
};

static void add_five(void)
{
	for (size_t i = 0; i < 5; i++)
		add(s, five_hex[i], five_types[i]);
}

static void check_five(void)
{
	bf_id bf[5];
	size_t n;

	compute(ABBREV_SET_ALL);
	ck_assert_uint_eq(st.count, 5);
	expect_range(&st, 4, 6, 5, 2);
	expect_range(&st, 7, 10, 3, 1);
	expect_range(&st, 11, 40, 0, 0);
	ck_assert_uint_eq(st.last_len, 11);
	ck_assert_uint_eq(st.min_unique, 11);
	ck_assert_uint_eq(st.longest, 10);
	ck_assert_uint_eq(st.ngroups, 1);
	ck_assert_uint_eq(st.groups[0].first, 0);
	ck_assert_uint_eq(st.groups[0].n, 3);
	ck_assert_uint_eq(st.nmembers, 3);
	/* members in ID order: ...a commit, ...b tree, ...c tag */
	ck_assert_uint_eq(st.member_types[0], ABBREV_TYPE_COMMIT);
	ck_assert_uint_eq(st.member_types[1], ABBREV_TYPE_TREE);
	ck_assert_uint_eq(st.member_types[2], ABBREV_TYPE_TAG);
	ck_assert_uint_eq(st.member_ids[5], 0xa0);
	ck_assert_uint_eq(st.member_ids[20 + 5], 0xb0);
	ck_assert_uint_eq(st.member_ids[40 + 5], 0xc0);

	/* the blob set is the pair sharing 6: 4..6 -> 2/1, min_unique 7 */
	compute(ABBREV_SET_BLOB);
	ck_assert_uint_eq(st.count, 2);
	expect_range(&st, 4, 6, 2, 1);
	ck_assert_uint_eq(st.objects[7], 0);
	ck_assert_uint_eq(st.min_unique, 7);
	ck_assert_uint_eq(st.longest, 6);

	/* and the brute force agrees on every set and on commit-vs-other */
	n = bf_from_hex(bf, five_hex, five_types, 5, 20);
	ck_assert_uint_eq(n, 5);
	bf_check_all(s, bf, n);
}

START_TEST(test_three_and_two)
{
	add_five();
	check_five();
}
END_TEST

START_TEST(test_duplicates)
{
	/* the same five IDs twice: the second round adds nothing */
	add_five();
	for (size_t i = 0; i < 5; i++) {
		unsigned char raw[20];

		test_id(raw, 20, five_hex[i]);
		ck_assert_int_eq(idsets_add(s, raw, five_types[i]), 0);
	}
	check_five();
}
END_TEST

/*
 * Two groups at the longest length, reported in ID order:
 *   aaaa11110  aaaa11111  (share 8)   bbbb22220  bbbb22221  (share 8)
 *   cccc (alone)
 *   L = 4..8: objects 4, prefixes 2; L = 9: 0.  Groups {0, 2}, {2, 2}.
 */
START_TEST(test_two_groups)
{
	add(s, "bbbb22221", ABBREV_TYPE_BLOB);
	add(s, "cccc", ABBREV_TYPE_BLOB);
	add(s, "aaaa11111", ABBREV_TYPE_COMMIT);
	add(s, "bbbb22220", ABBREV_TYPE_TREE);
	add(s, "aaaa11110", ABBREV_TYPE_TAG);
	compute(ABBREV_SET_ALL);
	expect_range(&st, 4, 8, 4, 2);
	expect_range(&st, 9, 40, 0, 0);
	ck_assert_uint_eq(st.min_unique, 9);
	ck_assert_uint_eq(st.longest, 8);
	ck_assert_uint_eq(st.ngroups, 2);
	ck_assert_uint_eq(st.groups[0].first, 0);
	ck_assert_uint_eq(st.groups[0].n, 2);
	ck_assert_uint_eq(st.groups[1].first, 2);
	ck_assert_uint_eq(st.groups[1].n, 2);
	ck_assert_uint_eq(st.nmembers, 4);
	ck_assert_uint_eq(st.member_ids[0], 0xaa);
	ck_assert_uint_eq(st.member_ids[4], 0x00); /* aaaa1111 0 */
	ck_assert_uint_eq(st.member_ids[20 + 4], 0x10); /* aaaa1111 1 */
	ck_assert_uint_eq(st.member_ids[40], 0xbb);
	ck_assert_uint_eq(st.member_ids[60 + 4], 0x10);
	ck_assert_uint_eq(st.member_types[0], ABBREV_TYPE_TAG);
	ck_assert_uint_eq(st.member_types[1], ABBREV_TYPE_COMMIT);
	ck_assert_uint_eq(st.member_types[2], ABBREV_TYPE_TREE);
	ck_assert_uint_eq(st.member_types[3], ABBREV_TYPE_BLOB);
}
END_TEST

/*
 * Nested groups: where a pair inside a wider group shares more.
 *   12340  12341  123420  123421
 *   L = 4: all four, one prefix;  L = 5: 12342x pair only -> 2 / 1
 *   (12340 and 12341 differ at char 5); L = 6: 0.
 */
START_TEST(test_nested)
{
	add(s, "12340", ABBREV_TYPE_COMMIT);
	add(s, "12341", ABBREV_TYPE_COMMIT);
	add(s, "123420", ABBREV_TYPE_COMMIT);
	add(s, "123421", ABBREV_TYPE_COMMIT);
	compute(ABBREV_SET_COMMIT);
	ck_assert_uint_eq(st.objects[4], 4);
	ck_assert_uint_eq(st.prefixes[4], 1);
	ck_assert_uint_eq(st.objects[5], 2);
	ck_assert_uint_eq(st.prefixes[5], 1);
	ck_assert_uint_eq(st.objects[6], 0);
	ck_assert_uint_eq(st.last_len, 6);
	ck_assert_uint_eq(st.longest, 5);
	ck_assert_uint_eq(st.ngroups, 1);
	ck_assert_uint_eq(st.groups[0].n, 2);
	ck_assert_uint_eq(st.member_ids[2], 0x20);
}
END_TEST

/*
 * stats_groups_at on the five IDs of add_five():
 *   0123456789a commit, 0123456789b tree, 0123456789c tag  (share 10)
 *   fedcba0 blob, fedcba1 blob                              (share 6)
 */
START_TEST(test_groups_at)
{
	stats_set t;

	add_five();

	/* all objects at 6: both groups, 5 members; the first shares 10, the second 6 */
	memset(&t, 0, sizeof(t));
	ck_assert_int_eq(stats_groups_at(&t, s, ABBREV_SET_ALL, 6, 0), 0);
	ck_assert_uint_eq(t.count, 5);
	ck_assert_uint_eq(t.longest, 6);
	ck_assert_uint_eq(t.ngroups, 2);
	ck_assert_uint_eq(t.nmembers, 5);
	ck_assert_uint_eq(t.objects[6], 5);
	ck_assert_uint_eq(t.prefixes[6], 2);
	ck_assert_uint_eq(t.groups[0].first, 0);
	ck_assert_uint_eq(t.groups[0].n, 3);
	ck_assert_uint_eq(t.groups[0].len, 10);
	ck_assert_uint_eq(t.groups[1].first, 3);
	ck_assert_uint_eq(t.groups[1].n, 2);
	ck_assert_uint_eq(t.groups[1].len, 6);
	ck_assert_uint_eq(t.member_types[3], ABBREV_TYPE_BLOB);
	stats_set_clear(&t);

	/* commits alone: one commit, no group */
	memset(&t, 0, sizeof(t));
	ck_assert_int_eq(stats_groups_at(&t, s, ABBREV_SET_COMMIT, 6, 0), 0);
	ck_assert_uint_eq(t.count, 1);
	ck_assert_uint_eq(t.ngroups, 0);
	ck_assert_uint_eq(t.objects[6], 0);
	stats_set_clear(&t);

	/* commits against all at 6: the group of three holds the commit */
	memset(&t, 0, sizeof(t));
	ck_assert_int_eq(stats_groups_at(&t, s, ABBREV_SET_COMMIT, 6, 1), 0);
	ck_assert_uint_eq(t.count, 5);
	ck_assert_uint_eq(t.ngroups, 1);
	ck_assert_uint_eq(t.groups[0].n, 3);
	ck_assert_uint_eq(t.nmembers, 3);
	ck_assert_uint_eq(t.member_types[0], ABBREV_TYPE_COMMIT);
	ck_assert_uint_eq(t.objects[6], 3);
	ck_assert_uint_eq(t.prefixes[6], 1);
	stats_set_clear(&t);

	/* blobs against all at 10: the only group at 10 has no blob */
	memset(&t, 0, sizeof(t));
	ck_assert_int_eq(stats_groups_at(&t, s, ABBREV_SET_BLOB, 10, 1), 0);
	ck_assert_uint_eq(t.ngroups, 0);
	ck_assert_uint_eq(t.nmembers, 0);
	ck_assert_uint_eq(t.objects[10], 0);
	stats_set_clear(&t);

	/* blobs alone at 6: the pair; at 7: nothing */
	memset(&t, 0, sizeof(t));
	ck_assert_int_eq(stats_groups_at(&t, s, ABBREV_SET_BLOB, 6, 0), 0);
	ck_assert_uint_eq(t.count, 2);
	ck_assert_uint_eq(t.ngroups, 1);
	ck_assert_uint_eq(t.groups[0].len, 6);
	stats_set_clear(&t);
	memset(&t, 0, sizeof(t));
	ck_assert_int_eq(stats_groups_at(&t, s, ABBREV_SET_BLOB, 7, 0), 0);
	ck_assert_uint_eq(t.ngroups, 0);
	stats_set_clear(&t);
}
END_TEST

static void check_random(size_t rawsz, size_t n, uint64_t seed)
{
	idsets *set = idsets_new(rawsz);
	unsigned char *ids = malloc(n * rawsz);
	int *types = malloc(n * sizeof(*types));
	bf_id *bf = malloc(n * sizeof(*bf));
	size_t m;

	ck_assert_ptr_nonnull(set);
	ck_assert(ids && types && bf);
	test_gen_ids(ids, types, NULL, n, rawsz, seed);
	for (size_t i = 0; i < n; i++) {
		ck_assert_int_ge(idsets_add(set, ids + i * rawsz, types[i]), 0);
		test_hex(bf[i].hex, ids + i * rawsz, rawsz);
		bf[i].type = types[i];
	}
	m = bf_sort_unique(bf, n);
	ck_assert_uint_eq(idsets_count(set, ABBREV_SET_ALL), m);
	bf_check_all(set, bf, m);
	for (int which = 0; which < ABBREV_SET_COUNT; which++) {
		static const unsigned lens[] = { 4, 5, 7, 12, 16, 17, 30 };

		for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
			bf_check_groups_at(set, bf, m, which, lens[i], 0);
			bf_check_groups_at(set, bf, m, which, lens[i], 1);
		}
	}
	idsets_free(set);
	free(ids);
	free(types);
	free(bf);
}

START_TEST(test_random_sha1)
{
	check_random(20, 5000, 3);
}
END_TEST

START_TEST(test_random_sha1_uniform)
{
	/* 5000 plain random IDs: collisions only at short lengths */
	idsets *set = idsets_new(20);
	bf_id *bf = malloc(5000 * sizeof(*bf));
	uint64_t r = 99;

	ck_assert_ptr_nonnull(set);
	ck_assert_ptr_nonnull(bf);
	for (size_t i = 0; i < 5000; i++) {
		unsigned char id[20];

		test_rand_id(id, 20, &r);
		bf[i].type = 1 + (int)(test_rand(&r) % 4);
		test_hex(bf[i].hex, id, 20);
		ck_assert_int_eq(idsets_add(set, id, bf[i].type), 1);
	}
	ck_assert_uint_eq(bf_sort_unique(bf, 5000), 5000);
	bf_check_all(set, bf, 5000);
	idsets_free(set);
	free(bf);
}
END_TEST

START_TEST(test_random_sha256)
{
	check_random(32, 3000, 5);
}
END_TEST

START_TEST(test_random_small)
{
	/* many small sets: edge positions of groups and of cvo runs */
	for (uint64_t seed = 100; seed < 400; seed++)
		check_random(20, 2 + seed % 23, seed);
}
END_TEST

/* ---- commit vs other ---- */

static void cvo(size_t out[ABBREV_MAX_HEXSZ + 1], unsigned *last)
{
	memset(out, 0xff, (ABBREV_MAX_HEXSZ + 1) * sizeof(out[0]));
	*last = 0;
	ck_assert_int_eq(stats_commit_vs_other(out, last, s), 0);
}

static void expect_cvo(const size_t *c, unsigned from, unsigned to, size_t n)
{
	for (unsigned L = from; L <= to; L++)
		ck_assert_msg(c[L] == n, "cvo[%u] = %zu, want %zu", L, c[L], n);
}

START_TEST(test_cvo_commit_blob)
{
	/* commit 123456789a and blob 123456789b share 9: the commit counts at 4..9 */
	size_t c[ABBREV_MAX_HEXSZ + 1];
	unsigned last;

	add(s, "123456789a", ABBREV_TYPE_COMMIT);
	add(s, "123456789b", ABBREV_TYPE_BLOB);
	cvo(c, &last);
	expect_cvo(c, 4, 9, 1);
	ck_assert_uint_eq(c[10], 0);
	ck_assert_uint_eq(last, 10);
}
END_TEST

START_TEST(test_cvo_commits_only)
{
	/* two commits sharing 12 collide, but with no other type: cvo[4] = 0 */
	size_t c[ABBREV_MAX_HEXSZ + 1];
	unsigned last;

	add(s, "abcdefabcdef0", ABBREV_TYPE_COMMIT);
	add(s, "abcdefabcdef1", ABBREV_TYPE_COMMIT);
	cvo(c, &last);
	ck_assert_uint_eq(c[4], 0);
	ck_assert_uint_eq(last, 4);
	/* a tree elsewhere changes nothing */
	add(s, "abce", ABBREV_TYPE_TREE);
	cvo(c, &last);
	ck_assert_uint_eq(c[4], 0);
	ck_assert_uint_eq(last, 4);
	/* a tree sharing 5 with both: both commits count at 4..5 */
	add(s, "abcde", ABBREV_TYPE_TREE);
	cvo(c, &last);
	expect_cvo(c, 4, 5, 2);
	ck_assert_uint_eq(c[6], 0);
	ck_assert_uint_eq(last, 6);
}
END_TEST

START_TEST(test_cvo_between)
{
	/*
	 * tree abcde0 < commit abcdef10 < blob abcdef18: the commit shares
	 * 5 with its left neighbour and 7 with its right one; it counts once,
	 * up to 7.  cvo[4..7] = 1, cvo[8] = 0.
	 */
	size_t c[ABBREV_MAX_HEXSZ + 1];
	unsigned last;

	add(s, "abcde0", ABBREV_TYPE_TREE);
	add(s, "abcdef10", ABBREV_TYPE_COMMIT);
	add(s, "abcdef18", ABBREV_TYPE_BLOB);
	cvo(c, &last);
	expect_cvo(c, 4, 7, 1);
	ck_assert_uint_eq(c[8], 0);
	ck_assert_uint_eq(last, 8);
}
END_TEST

START_TEST(test_cvo_between_mirrored)
{
	/* tree abcde710 < commit abcde718 < blob abcde9: left 7, right 5 */
	size_t c[ABBREV_MAX_HEXSZ + 1];
	unsigned last;

	add(s, "abcde710", ABBREV_TYPE_TREE);
	add(s, "abcde718", ABBREV_TYPE_COMMIT);
	add(s, "abcde9", ABBREV_TYPE_BLOB);
	cvo(c, &last);
	expect_cvo(c, 4, 7, 1);
	ck_assert_uint_eq(c[8], 0);
	ck_assert_uint_eq(last, 8);
}
END_TEST

/*
 * A run of commits between two non-commits.  In byte order:
 *   A  tree   555500
 *   C1 commit 5555a0000f      lcp(A, C1)  = 4
 *   C2 commit 5555a0000f1     lcp(C1, C2) = 10
 *   C3 commit 5555a01         lcp(C2, C3) = 6
 *   B  blob   5555a0101       lcp(C3, B)  = 8
 * A commit's best match with another type is the nearest non-commit on
 * each side, over the minimum of the neighbour LCPs in between:
 *   C1: left 4, right min(10, 6, 8) = 6  -> 6
 *   C2: left min(4, 10) = 4, right min(6, 8) = 6 -> 6
 *   C3: left min(4, 10, 6) = 4, right 8  -> 8
 * cvo[4..6] = 3, cvo[7..8] = 1, cvo[9] = 0.  (Taking C3's 8 for all
 * three, i.e. no running minimum, would give cvo[7] = 3.)
 * The mirror image (every hex char c -> 15 - c) reverses the order and
 * keeps every LCP, so the running minimum must work from the left too.
 */
static const char *const run_hex[] = {
	"555500", "5555a0000f", "5555a0000f1", "5555a01", "5555a0101"
};
static const int run_types[] = {
	ABBREV_TYPE_TREE, ABBREV_TYPE_COMMIT, ABBREV_TYPE_COMMIT, ABBREV_TYPE_COMMIT, ABBREV_TYPE_BLOB
};

static void check_run(int mirror)
{
	size_t c[ABBREV_MAX_HEXSZ + 1];
	unsigned last;
	bf_id bf[5];

	for (size_t i = 0; i < 5; i++) {
		unsigned char raw[20];

		test_id(raw, 20, run_hex[i]);
		if (mirror)
			for (size_t k = 0; k < 20; k++)
				raw[k] = (unsigned char)~raw[k];
		ck_assert_int_eq(idsets_add(s, raw, run_types[i]), 1);
		test_hex(bf[i].hex, raw, 20);
		bf[i].type = run_types[i];
	}
	cvo(c, &last);
	expect_cvo(c, 4, 6, 3);
	expect_cvo(c, 7, 8, 1);
	ck_assert_uint_eq(c[9], 0);
	ck_assert_uint_eq(last, 9);
	ck_assert_uint_eq(bf_sort_unique(bf, 5), 5);
	bf_check_all(s, bf, 5);
}

START_TEST(test_cvo_run)
{
	check_run(0);
}
END_TEST

START_TEST(test_cvo_run_mirrored)
{
	check_run(1);
}
END_TEST

START_TEST(test_cvo_sha256)
{
	/* a commit and a tag sharing 63 of 64 chars: cvo[4..63] = 1, last 64 */
	idsets *s32 = idsets_new(32);
	size_t c[ABBREV_MAX_HEXSZ + 1];
	unsigned last = 0;
	unsigned char a[32], b[32];
	uint64_t r = 8;

	ck_assert_ptr_nonnull(s32);
	test_rand_id(a, 32, &r);
	memcpy(b, a, 32);
	b[31] ^= 0x01;
	ck_assert_int_eq(idsets_add(s32, a, ABBREV_TYPE_COMMIT), 1);
	ck_assert_int_eq(idsets_add(s32, b, ABBREV_TYPE_TAG), 1);
	ck_assert_int_eq(stats_commit_vs_other(c, &last, s32), 0);
	expect_cvo(c, 4, 63, 1);
	ck_assert_uint_eq(c[64], 0);
	ck_assert_uint_eq(last, 64);
	idsets_free(s32);
}
END_TEST

/* ---- git's auto abbreviation ---- */

/* git's formula, written out: msb(count) + 1 bits, halved, rounded up, >= 7 */
static unsigned git_formula(uint64_t count)
{
	unsigned msb = 0, len;

	for (; count > 1; count >>= 1) /* never shifts by the full width */
		msb++;
	len = (msb + 1 + 1) / 2;
	return len < 7 ? 7 : len;
}

START_TEST(test_git_auto_abbrev)
{
	ck_assert_uint_eq(stats_git_auto_abbrev(0), 7);
	ck_assert_uint_eq(stats_git_auto_abbrev(1), 7);
	ck_assert_uint_eq(stats_git_auto_abbrev(2), 7);
	ck_assert_uint_eq(stats_git_auto_abbrev(4096), 7);   /* msb 12 -> 13 bits -> 7 */
	ck_assert_uint_eq(stats_git_auto_abbrev(16383), 7);  /* msb 13 -> 14 -> 7 */
	ck_assert_uint_eq(stats_git_auto_abbrev(16384), 8);  /* msb 14 -> 15 -> 8 */
	ck_assert_uint_eq(stats_git_auto_abbrev(65535), 8);  /* msb 15 -> 16 -> 8 */
	ck_assert_uint_eq(stats_git_auto_abbrev(65536), 9);  /* msb 16 -> 17 -> 9 */
	ck_assert_uint_eq(stats_git_auto_abbrev(849014), 10);   /* msb 19 -> 20 -> 10 */
	ck_assert_uint_eq(stats_git_auto_abbrev(1048575), 10);  /* msb 19 -> 20 -> 10 */
	ck_assert_uint_eq(stats_git_auto_abbrev(1048576), 11);  /* msb 20 -> 21 -> 11 */
	ck_assert_uint_eq(stats_git_auto_abbrev(1302158), 11);  /* msb 20 -> 21 -> 11 */
	ck_assert_uint_eq(stats_git_auto_abbrev(13021585), 12); /* the kernel: msb 23 -> 24 -> 12 */
	ck_assert_uint_eq(stats_git_auto_abbrev(16777215), 12); /* msb 23 -> 24 -> 12 */
	ck_assert_uint_eq(stats_git_auto_abbrev(16777216), 13); /* msb 24 -> 25 -> 13 */
	ck_assert_uint_eq(git_formula(13021585), 12);
	ck_assert_uint_eq(git_formula(16777216), 13);
	/* every power of two and its neighbours, below the top bit */
	for (unsigned b = 1; b < 8 * sizeof(size_t) - 1; b++) {
		size_t p = (size_t)1 << b;

		ck_assert_uint_eq(stats_git_auto_abbrev(p - 1), git_formula(p - 1));
		ck_assert_uint_eq(stats_git_auto_abbrev(p), git_formula(p));
		ck_assert_uint_eq(stats_git_auto_abbrev(p + 1), git_formula(p + 1));
	}
}
END_TEST

/* ---- the report ---- */

/*
 * Every set with a different answer, so a mix-up of set numbers shows:
 *   commits 111110 111111 (share 5) -> min 6;  trees 2222220/1 (6) -> 7
 *   blobs 33333330/1 (7) -> 8;                 tags 444444440/1 (8) -> 9
 *   commit 55555555550 and blob 55555555551 share 10 -> all: min 11
 * counts: commit 3, tree 2, blob 3, tag 2, all 10.
 * commit-vs-other: only 5555555555x, at 4..10; cvo[11] = 0.
 */
static const char *const rep_hex[] = {
	"111110", "111111", "2222220", "2222221", "33333330", "33333331",
	"444444440", "444444441", "55555555550", "55555555551"
};
static const int rep_types[] = {
	ABBREV_TYPE_COMMIT, ABBREV_TYPE_COMMIT, ABBREV_TYPE_TREE, ABBREV_TYPE_TREE,
	ABBREV_TYPE_BLOB, ABBREV_TYPE_BLOB, ABBREV_TYPE_TAG, ABBREV_TYPE_TAG,
	ABBREV_TYPE_COMMIT, ABBREV_TYPE_BLOB
};

static void check_report(idsets *set, const char *hash)
{
	/* commit-ish: the commits, as no tag is peeled */
	static const unsigned min_unique[ABBREV_SET_COUNT] = { 11, 6, 7, 8, 9, 6 };
	static const size_t count[ABBREV_SET_COUNT] = { 10, 3, 2, 3, 2, 3 };
	stats_report r;

	for (size_t i = 0; i < 10; i++)
		add(set, rep_hex[i], rep_types[i]);
	memset(&r, 0, sizeof(r));
	ck_assert_int_eq(stats_report_compute(&r, set), 0);
	ck_assert_uint_eq(r.rawsz, idsets_rawsz(set));
	ck_assert_ptr_nonnull(r.hash);
	ck_assert_str_eq(r.hash, hash);
	for (int i = 0; i < ABBREV_SET_COUNT; i++) {
		stats_set t;

		ck_assert_uint_eq(r.sets[i].count, count[i]);
		ck_assert_uint_eq(r.sets[i].min_unique, min_unique[i]);
		ck_assert_uint_eq(r.sets[i].last_len, min_unique[i]);
		ck_assert_uint_eq(r.sets[i].hexsz, 2 * idsets_rawsz(set));
		/* the same as computing the set alone */
		memset(&t, 0, sizeof(t));
		ck_assert_int_eq(stats_set_compute(&t, set, i), 0);
		ck_assert_uint_eq(r.sets[i].longest, t.longest);
		ck_assert_uint_eq(r.sets[i].ngroups, t.ngroups);
		ck_assert_uint_eq(r.sets[i].nmembers, t.nmembers);
		ck_assert_mem_eq(r.sets[i].objects, t.objects, sizeof(t.objects));
		ck_assert_mem_eq(r.sets[i].prefixes, t.prefixes, sizeof(t.prefixes));
		ck_assert_mem_eq(r.sets[i].member_ids, t.member_ids, t.nmembers * idsets_rawsz(set));
		stats_set_clear(&t);
	}
	/* all: 4..10 -> 10/5 at 4 (five pairs), 2/1 at 9..10 */
	ck_assert_uint_eq(r.sets[ABBREV_SET_ALL].objects[4], 10);
	ck_assert_uint_eq(r.sets[ABBREV_SET_ALL].prefixes[4], 5);
	ck_assert_uint_eq(r.sets[ABBREV_SET_ALL].objects[9], 2);
	ck_assert_uint_eq(r.sets[ABBREV_SET_ALL].objects[11], 0);
	expect_cvo(r.cvo, 4, 10, 1);
	ck_assert_uint_eq(r.cvo[11], 0);
	ck_assert_uint_eq(r.cvo_last_len, 11);
	ck_assert_uint_eq(r.git_auto_abbrev, 7);
	stats_report_clear(&r);
}

START_TEST(test_report_sha1)
{
	check_report(s, "sha1");
}
END_TEST

START_TEST(test_report_sha256)
{
	idsets *s32 = idsets_new(32);

	ck_assert_ptr_nonnull(s32);
	check_report(s32, "sha256");
	idsets_free(s32);
}
END_TEST

/* ---- errors and edges ---- */

START_TEST(test_empty)
{
	size_t c[ABBREV_MAX_HEXSZ + 1];
	unsigned last;
	stats_report r;

	for (int set = 0; set < ABBREV_SET_COUNT; set++) {
		compute(set);
		ck_assert_uint_eq(st.count, 0);
		ck_assert_uint_eq(st.hexsz, 40);
		ck_assert_uint_eq(st.min_unique, 0);
		ck_assert_uint_eq(st.last_len, 4);
		ck_assert_uint_eq(st.objects[4], 0);
		ck_assert_uint_eq(st.prefixes[4], 0);
		ck_assert_uint_eq(st.longest, 0);
		ck_assert_uint_eq(st.ngroups, 0);
		ck_assert_uint_eq(st.nmembers, 0);
	}
	cvo(c, &last);
	ck_assert_uint_eq(c[4], 0);
	ck_assert_uint_eq(last, 4);

	memset(&r, 0, sizeof(r));
	ck_assert_int_eq(stats_report_compute(&r, s), 0);
	ck_assert_str_eq(r.hash, "sha1");
	ck_assert_uint_eq(r.sets[ABBREV_SET_ALL].count, 0);
	ck_assert_uint_eq(r.sets[ABBREV_SET_ALL].min_unique, 0);
	ck_assert_uint_eq(r.cvo[4], 0);
	ck_assert_uint_eq(r.cvo_last_len, 4);
	ck_assert_uint_eq(r.git_auto_abbrev, 7);
	stats_report_clear(&r);
}
END_TEST

START_TEST(test_recompute)
{
	/* clear, then compute again into the same struct as the set grows */
	add(s, "abcd0", ABBREV_TYPE_COMMIT);
	compute(ABBREV_SET_ALL);
	ck_assert_uint_eq(st.min_unique, 4);
	add(s, "abcd1", ABBREV_TYPE_COMMIT);
	compute(ABBREV_SET_ALL); /* clears the previous result first */
	ck_assert_uint_eq(st.min_unique, 5);
	ck_assert_uint_eq(st.objects[4], 2);
	add(s, "abcd18", ABBREV_TYPE_TREE);
	compute(ABBREV_SET_ALL);
	/* abcd0, abcd1, abcd18: 3/1 at 4, 2/1 at 5, 0 at 6 */
	ck_assert_uint_eq(st.objects[4], 3);
	ck_assert_uint_eq(st.objects[5], 2);
	ck_assert_uint_eq(st.objects[6], 0);
	ck_assert_uint_eq(st.min_unique, 6);
	ck_assert_uint_eq(st.ngroups, 1);
	ck_assert_uint_eq(st.groups[0].n, 2);
}
END_TEST

START_TEST(test_git_auto_abbrev_top_bit)
{
	/*
	 * Counts with the top bit set: msb = 63 on 64-bit, 64 bits, 32 chars.
	 * Any size_t is a valid argument; this must not loop or shift by
	 * the full width of the type.
	 */
	size_t top = (size_t)1 << (8 * sizeof(size_t) - 1);

	ck_assert_uint_eq(stats_git_auto_abbrev(top), git_formula(top));
	ck_assert_uint_eq(stats_git_auto_abbrev((size_t)-1), git_formula((size_t)-1));
	if (sizeof(size_t) == 8)
		ck_assert_uint_eq(stats_git_auto_abbrev((size_t)-1), 32);
}
END_TEST

START_TEST(test_garbage_out)
{
	/* the out-struct need not be zeroed by the caller: compute fills it */
	stats_set t;

	add(s, "0123456789a", ABBREV_TYPE_COMMIT);
	add(s, "0123456789b", ABBREV_TYPE_COMMIT);
	memset(&t, 0x5a, sizeof(t));
	ck_assert_int_eq(stats_set_compute(&t, s, ABBREV_SET_ALL), 0);
	ck_assert_uint_eq(t.count, 2);
	expect_range(&t, 4, 10, 2, 1);
	expect_range(&t, 11, ABBREV_MAX_HEXSZ, 0, 0);
	ck_assert_uint_eq(t.min_unique, 11);
	ck_assert_uint_eq(t.ngroups, 1);
	stats_set_clear(&t);
}
END_TEST

Suite *make_stats_suite(void)
{
	Suite *suite = suite_create("stats");
	TCase *core = tcase_create("core");
	TCase *errors = tcase_create("errors");

	tcase_add_checked_fixture(core, setup, teardown);
	tcase_set_timeout(core, 120);
	tcase_add_test(core, test_one_id);
	tcase_add_test(core, test_share_three);
	tcase_add_test(core, test_pair_15);
	tcase_add_test(core, test_pair_16);
	tcase_add_test(core, test_pair_17);
	tcase_add_test(core, test_pair_39);
	tcase_add_test(core, test_pair_sha256_63);
	tcase_add_test(core, test_pair_sha256_40);
	tcase_add_test(core, test_three_and_two);
	tcase_add_test(core, test_duplicates);
	tcase_add_test(core, test_two_groups);
	tcase_add_test(core, test_nested);
	tcase_add_test(core, test_groups_at);
	tcase_add_test(core, test_random_sha1);
	tcase_add_test(core, test_random_sha1_uniform);
	tcase_add_test(core, test_random_sha256);
	tcase_add_test(core, test_random_small);
	tcase_add_test(core, test_cvo_commit_blob);
	tcase_add_test(core, test_cvo_commits_only);
	tcase_add_test(core, test_cvo_between);
	tcase_add_test(core, test_cvo_between_mirrored);
	tcase_add_test(core, test_cvo_run);
	tcase_add_test(core, test_cvo_run_mirrored);
	tcase_add_test(core, test_cvo_sha256);
	tcase_add_test(core, test_git_auto_abbrev);
	tcase_add_test(core, test_report_sha1);
	tcase_add_test(core, test_report_sha256);
	suite_add_tcase(suite, core);

	tcase_add_checked_fixture(errors, setup, teardown);
	tcase_add_test(errors, test_empty);
	tcase_add_test(errors, test_recompute);
	tcase_add_test(errors, test_garbage_out);
	tcase_add_test(errors, test_git_auto_abbrev_top_bit);
	suite_add_tcase(suite, errors);
	return suite;
}
