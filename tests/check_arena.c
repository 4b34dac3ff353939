/*
 * check_arena.c - unit tests of the bump allocator (arena.h): blocks are
 * aligned, do not overlap, keep what was written to them while the arena
 * grows (small blocks, blocks larger than a chunk, empty ones), and
 * arena_free() leaves an empty arena that can be used again; and the
 * mapped vectors of bigvec.h keep their bytes as they grow (moved by
 * mremap) past several huge pages.
 */
#include <check.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "bigvec.h"
#include "check_suites.h"

START_TEST(test_blocks)
{
	enum { N = 20000 };
	static unsigned char *p[N];
	static size_t len[N];
	arena a = { 0 };
	uint64_t st = 12345;

	for (size_t i = 0; i < N; i++) {
		/* mostly small; now and then larger than a chunk; some empty */
		len[i] = i % 997 == 0 ? 300000 + i : i % 13 == 0 ? 0 : test_rand(&st) % 200;
		p[i] = arena_alloc(&a, len[i]);
		ck_assert_ptr_nonnull(p[i]);
		ck_assert_uint_eq((uintptr_t)p[i] % alignof(max_align_t), 0);
		memset(p[i], (int)(i & 0xff), len[i]);
	}
	/* every block still holds its own bytes: none overlaps another */
	for (size_t i = 0; i < N; i++) {
		size_t k = 0;

		while (k < len[i] && p[i][k] == (i & 0xff))
			k++;
		ck_assert_uint_eq(k, len[i]);
	}
	ck_assert_uint_ge(a.bytes, (size_t)N * 50);
	arena_free(&a);
	ck_assert_ptr_null(a.head);
	ck_assert_uint_eq(a.bytes, 0);
	/* usable again */
	ck_assert_ptr_nonnull(arena_alloc(&a, 10));
	arena_free(&a);
	arena_free(&a); /* an empty arena: nothing to do */
}
END_TEST

START_TEST(test_strdup)
{
	arena a = { 0 };
	char big[5000];
	const char *s1, *s2, *s3;

	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	s1 = arena_strdup(&a, "fix the parser");
	s2 = arena_strdup(&a, "");
	s3 = arena_strdup(&a, big);
	ck_assert_str_eq(s1, "fix the parser");
	ck_assert_str_eq(s2, "");
	ck_assert_str_eq(s3, big);
	ck_assert_ptr_ne(s3, big);
	arena_free(&a);
}
END_TEST

START_TEST(test_too_large)
{
	arena a = { 0 };

	ck_assert_ptr_null(arena_alloc(&a, SIZE_MAX - 3));
	ck_assert_ptr_nonnull(arena_alloc(&a, 1));
	arena_free(&a);
}
END_TEST

START_TEST(test_bigvec)
{
	void *p = NULL;
	size_t cap = 0, filled = 0;

	/* 1 byte, then past 64 KB, 2 MB and 9 MB: each fill kept across the moves */
	static const size_t need[] = { 1, 70000, (size_t)2 << 20, (size_t)9 << 20 };

	for (size_t k = 0; k < sizeof(need) / sizeof(need[0]); k++) {
		size_t bad = 0;

		ck_assert_int_eq(bigvec_reserve(&p, &cap, need[k]), 0);
		ck_assert_ptr_nonnull(p);
		ck_assert_uint_ge(cap, need[k]);
		for (size_t i = 0; i < filled; i++)
			bad += ((unsigned char *)p)[i] != (unsigned char)(i * 7 + 3);
		ck_assert_uint_eq(bad, 0);
		for (size_t i = filled; i < need[k]; i++)
			((unsigned char *)p)[i] = (unsigned char)(i * 7 + 3);
		filled = need[k];
	}
	/* room enough: nothing moves */
	{
		void *q = p;
		size_t c = cap;

		ck_assert_int_eq(bigvec_reserve(&p, &cap, 10), 0);
		ck_assert_ptr_eq(p, q);
		ck_assert_uint_eq(cap, c);
	}
	/* more than can be: refused, the vector as it was */
	{
		void *q = p;
		size_t c = cap;

		ck_assert_int_eq(bigvec_reserve(&p, &cap, SIZE_MAX - 3), -1);
		ck_assert_ptr_eq(p, q);
		ck_assert_uint_eq(cap, c);
	}
	bigvec_free(p, cap);
	bigvec_free(NULL, 0);
}
END_TEST

/*
 * Arrays in huge pages (bigvec_malloc, _calloc): below 1 MB and above,
 * each writable over its whole length, a calloc'ed one zero even where
 * a freed dirty block of the same size was (malloc reuses it), a
 * product that overflows refused.
 */
START_TEST(test_bigvec_arrays)
{
	static const size_t sizes[] = { 1, 4096, ((size_t)1 << 20) - 1, (size_t)1 << 20,
					((size_t)3 << 20) + 5, (size_t)9 << 20 };

	/* twice over: once malloc's threshold has grown, big blocks come from its heap */
	for (size_t k = 0; k < 2 * sizeof(sizes) / sizeof(sizes[0]); k++) {
		size_t n = sizes[k % (sizeof(sizes) / sizeof(sizes[0]))], bad = 0;
		unsigned char *d = malloc(n), *p;

		ck_assert_ptr_nonnull(d);
		memset(d, 0xa5, n);
		free(d);
		p = bigvec_malloc(n);
		ck_assert_ptr_nonnull(p);
		memset(p, 0xa5, n);
		free(p);
		p = bigvec_calloc(n, 1);
		ck_assert_ptr_nonnull(p);
		for (size_t i = 0; i < n; i++)
			bad += p[i] != 0;
		ck_assert_uint_eq(bad, 0);
		memset(p, 0x5a, n);
		free(p);
		p = bigvec_malloc(n);
		ck_assert_ptr_nonnull(p);
		memset(p, 0x3c, n);
		ck_assert_uint_eq(p[0] + p[n - 1], 2 * 0x3c);
		free(p);
		/* the same bytes as n items of 8 */
		int64_t *q = bigvec_calloc(n / 8 + 1, sizeof(*q));

		ck_assert_ptr_nonnull(q);
		for (size_t i = 0; i <= n / 8; i++)
			bad += q[i] != 0;
		ck_assert_uint_eq(bad, 0);
		free(q);
	}
	ck_assert_ptr_null(bigvec_calloc(SIZE_MAX / 4, 8));
}
END_TEST

Suite *make_arena_suite(void)
{
	Suite *s = suite_create("arena");
	TCase *core = tcase_create("core");
	TCase *errors = tcase_create("errors");

	tcase_add_test(core, test_blocks);
	tcase_add_test(core, test_strdup);
	tcase_add_test(core, test_bigvec);
	tcase_add_test(core, test_bigvec_arrays);
	suite_add_tcase(s, core);
	tcase_add_test(errors, test_too_large);
	suite_add_tcase(s, errors);
	return s;
}
