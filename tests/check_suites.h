/*
 * check_suites.h - the Check suites of the core modules, and the few
 * helpers they share.
 *
 * One make_<module>_suite() per module; check_main.c runs them all.  The
 * helpers below make hand-made raw IDs and reproducible "random" ones
 * (a fixed LCG, so every run and every machine sees the same IDs).  They
 * touch raw bytes nibble by nibble and do not use hexid.c, so the
 * brute-force cross-checks stay independent of the code under test.
 */
#ifndef CHECK_SUITES_H
#define CHECK_SUITES_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "hexid.h"

/*
 * git fast-import for the suites' repositories.  Under glibc's default
 * trim threshold its allocations move the top of the heap up and down
 * with every commit it stores: 16,813 brk() and 76,000 page faults for
 * the 4,200 commits of check_commits.c (2.3 s of sys), against 420 faults
 * when the heap is not trimmed (glibc's documented tunable; it changes
 * only when memory goes back to the system).
 */
#define GIT_FAST_IMPORT "GLIBC_TUNABLES=glibc.malloc.trim_threshold=268435456 git fast-import"

/*
 * Check 0.15 makes a passing assertion call _mark_point(), which writes a
 * location message for the runner: one write() per passing ck_assert*.
 * The random and bulk tests pass millions (1.7 million writes in the
 * idset suite alone, most of check_unit's CPU, half of it sys).  Here a
 * passing assertion is only its comparison; a failing one reports and
 * ends the test as before (all ck_assert_* forms expand to this one).
 * The cost: a test killed by a signal names its last mark_point() or its
 * start, not its last passed assertion; the sanitizer build gives the
 * stack of a crash anyway.
 */
#undef ck_assert_msg
#define ck_assert_msg(expr, ...) \
	((expr) ? (void)0 : \
	 _ck_assert_failed(__FILE__, __LINE__, "Assertion '"#expr"' failed", ## __VA_ARGS__))

Suite *make_hexid_suite(void);
Suite *make_idset_suite(void);
Suite *make_stats_suite(void);
Suite *make_model_suite(void);
Suite *make_cli_suite(void);
Suite *make_progress_suite(void);
Suite *make_oom_suite(void);
Suite *make_cite_suite(void);
Suite *make_formats_suite(void);
Suite *make_history_suite(void);
Suite *make_ids_suite(void);
Suite *make_resolve_suite(void);
Suite *make_bitmap_suite(void);
Suite *make_reach_suite(void);
Suite *make_policy_suite(void);
Suite *make_subject_cache_suite(void);
Suite *make_arena_suite(void);
Suite *make_range_suite(void);
Suite *make_objread_suite(void);
Suite *make_commits_suite(void);
Suite *make_audit_suite(void);
Suite *make_commit_graph_suite(void);
Suite *make_mbox_suite(void);

/* Next value of a 64-bit LCG (Knuth's MMIX constants); the high bits. */
static inline uint32_t test_rand(uint64_t *state)
{
	*state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)(*state >> 33);
}

/* Hex char i (0 = first) of a raw ID, as a number 0..15. */
static inline unsigned test_nibble(const unsigned char *raw, size_t i)
{
	return i % 2 ? raw[i / 2] & 0xfu : raw[i / 2] >> 4;
}

static inline void test_set_nibble(unsigned char *raw, size_t i, unsigned v)
{
	if (i % 2)
		raw[i / 2] = (unsigned char)((raw[i / 2] & 0xf0u) | (v & 0xfu));
	else
		raw[i / 2] = (unsigned char)((raw[i / 2] & 0x0fu) | ((v & 0xfu) << 4));
}

static inline void test_rand_id(unsigned char *raw, size_t rawsz, uint64_t *state)
{
	for (size_t i = 0; i < rawsz; i++)
		raw[i] = (unsigned char)(test_rand(state) >> 8);
}

/* Lower-case hex of a raw ID plus a NUL; our own, not hexid_fmt(). */
static inline void test_hex(char *out, const unsigned char *raw, size_t rawsz)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < 2 * rawsz; i++)
		out[i] = digits[test_nibble(raw, i)];
	out[2 * rawsz] = '\0';
}

/*
 * raw <- the hex prefix `hex` (lower case), zero-filled to rawsz bytes.
 * Our own parser, so idset/stats tests do not lean on hexid_parse_prefix().
 */
static inline void test_id(unsigned char *raw, size_t rawsz, const char *hex)
{
	size_t len = strlen(hex);

	ck_assert_msg(len <= 2 * rawsz, "test ID %s is too long", hex);
	memset(raw, 0, rawsz);
	for (size_t i = 0; i < len; i++) {
		const char *d = strchr("0123456789abcdef", hex[i]);

		ck_assert_msg(d != NULL, "test ID %s is not lower-case hex", hex);
		test_set_nibble(raw, i, (unsigned)(d - "0123456789abcdef"));
	}
}

/*
 * n IDs of rawsz bytes into ids[] (n * rawsz bytes) and types[], in
 * generation (= insertion) order.  Half are fresh random IDs; the rest
 * copy an earlier ID and rewrite it from a random hex position p on
 * (p = 2*rawsz leaves an exact duplicate), so shared prefixes of every
 * length, also past the 16 hex chars of a Judy key, are common.  An ID
 * made twice keeps its first type (one object, one type); is_new[i]
 * (if not NULL) says whether ID i is its first occurrence.
 */
static inline void test_gen_ids(unsigned char *ids, int *types, unsigned char *is_new,
				size_t n, size_t rawsz, uint64_t seed)
{
	uint64_t st = seed;
	size_t hexsz = 2 * rawsz;

	for (size_t i = 0; i < n; i++) {
		unsigned char *id = ids + i * rawsz;

		types[i] = 1 + (int)(test_rand(&st) % 4);
		if (i == 0 || test_rand(&st) % 2 == 0) {
			test_rand_id(id, rawsz, &st);
		} else {
			size_t j = test_rand(&st) % i;
			size_t p = test_rand(&st) % (hexsz + 1);

			memcpy(id, ids + j * rawsz, rawsz);
			if (p < hexsz) {
				test_set_nibble(id, p, test_nibble(id, p) + 1 + test_rand(&st) % 15);
				for (size_t k = p + 1; k < hexsz; k++)
					test_set_nibble(id, k, test_rand(&st));
			}
		}
		if (is_new)
			is_new[i] = 1;
		for (size_t j = 0; j < i; j++) {
			if (!memcmp(id, ids + j * rawsz, rawsz)) {
				types[i] = types[j];
				if (is_new)
					is_new[i] = 0;
				break;
			}
		}
	}
}

#endif
