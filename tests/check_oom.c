/*
 * check_oom.c - running out of memory inside Judy is an ordinary error.
 *
 * This program interposes Judy's allocator (libJudy calls JudyMalloc
 * through its PLT, so the definition here wins) with one that can be told
 * to fail after a number of allocations.  idsets_add() must then return
 * -2 and leave the collection exactly as it was, and go on working once
 * memory is back.
 */
#include <Judy.h>
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "idset.h"

static long judy_budget = -1; /* allocations left; -1 without limit */

Word_t JudyMalloc(Word_t words);
Word_t JudyMallocVirtual(Word_t words);

Word_t JudyMalloc(Word_t words)
{
	if (judy_budget == 0)
		return 0;
	if (judy_budget > 0)
		judy_budget--;
	return (Word_t)malloc(words * sizeof(Word_t));
}

Word_t JudyMallocVirtual(Word_t words)
{
	return JudyMalloc(words);
}

/* A fixed pseudo-random ID stream. */
static void make_id(unsigned char *id, unsigned i)
{
	unsigned long long x = 0x9e3779b97f4a7c15ull * (i + 1);

	for (int k = 0; k < 20; k++) {
		x ^= x >> 29;
		x *= 0xbf58476d1ce4e5b9ull;
		id[k] = (unsigned char)(x >> 56);
	}
}

START_TEST(test_judy_out_of_memory)
{
	unsigned char id[20];
	size_t failures = 0;

	/*
	 * Fill a collection, then let Judy's allocator fail after 0..7 more
	 * allocations: the add that hits it returns -2, so does every add
	 * after it, and freeing the collection is clean (ASan and LSan check
	 * that in the sanitizer run).
	 */
	for (int budget = 0; budget < 8; budget++) {
		for (unsigned fill = 0; fill < 3000; fill += 1000) {
			idsets *s = idsets_new(20);
			unsigned i;
			int rc = 0;

			ck_assert_ptr_nonnull(s);
			for (i = 0; i < fill; i++) {
				make_id(id, i);
				ck_assert_int_eq(idsets_add(s, id, 1 + (int)(i % 4)), 1);
			}
			judy_budget = budget;
			for (; i < fill + 10000 && rc != -2; i++) {
				make_id(id, i);
				rc = idsets_add(s, id, 1 + (int)(i % 4));
				ck_assert(rc == 1 || rc == -2);
			}
			judy_budget = -1;
			ck_assert_msg(rc == -2, "no failure with a budget of %d", budget);
			failures++;
			/* broken for good, even with memory back */
			make_id(id, i + 1);
			ck_assert_int_eq(idsets_add(s, id, ABBREV_TYPE_BLOB), -2);
			idsets_free(s);
		}
	}
	ck_assert_uint_eq(failures, 8 * 3);
}
END_TEST

Suite *make_oom_suite(void)
{
	Suite *s = suite_create("oom");
	TCase *errors = tcase_create("errors");

	tcase_add_test(errors, test_judy_out_of_memory);
	suite_add_tcase(s, errors);
	return s;
}
