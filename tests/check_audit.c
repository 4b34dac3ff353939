/*
 * check_audit.c - cite_audit.c: verify's findings as one class each, the
 * committer's year, and the tally (years, most cited, prefixes, wrong
 * references) over hand-made results.
 */
#include <config.h>

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "cite_audit.h"

/* A result with the problems p[0..n). */
static cite_result with(const int *p, size_t n)
{
	cite_result x;

	memset(&x, 0, sizeof(x));
	x.f = calloc(n ? n : 1, sizeof(*x.f));
	ck_assert_ptr_nonnull(x.f);
	for (size_t i = 0; i < n; i++)
		x.f[i].problem = p[i];
	x.nf = n;
	return x;
}

START_TEST(test_classify)
{
	static const struct {
		int p[3];
		size_t n;
		int target, want;
	} cases[] = {
		{ { 0 }, 0, 0, CITE_C_OK },
		{ { CITE_P_LAYOUT, CITE_P_UPPER }, 2, 0, CITE_C_OK },
		{ { CITE_P_SHORTENED, CITE_P_STYLE }, 2, 0, CITE_C_OK },
		{ { CITE_P_SHORT }, 1, 0, CITE_C_SHORT },
		{ { CITE_P_SHORT, CITE_P_AMBIGUOUS_LATER }, 2, 0, CITE_C_AMBIGUOUS_TODAY },
		{ { CITE_P_AMBIGUOUS, CITE_P_SHORT }, 2, 0, CITE_C_AMBIGUOUS },
		{ { CITE_P_UNKNOWN }, 1, 1, CITE_C_WRONG_FOUND },
		{ { CITE_P_UNKNOWN, CITE_P_STYLE }, 2, 0, CITE_C_WRONG },
		{ { CITE_P_NOT_COMMIT }, 1, 0, CITE_C_NOT_COMMIT },
		{ { CITE_P_SUBJECT, CITE_P_SHORT }, 2, 1, CITE_C_SUBJECT },
		{ { CITE_P_NOT_ANCESTOR, CITE_P_SHORT }, 2, 1, CITE_C_NOT_ANCESTOR },
		{ { CITE_P_SUBJECT, CITE_P_NOT_ANCESTOR }, 2, 1, CITE_C_SUBJECT },
		{ { CITE_P_NOT_HERE }, 1, 0, CITE_C_FOREIGN },
		{ { CITE_P_UNKNOWN, CITE_P_NOT_HERE }, 2, 1, CITE_C_FOREIGN },
	};

	ck_assert_int_eq(cite_classify(NULL), CITE_C_OK);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cite_result x = with(cases[i].p, cases[i].n);

		if (cases[i].target)
			x.target.id[3] = 0x5a;
		ck_assert_msg(cite_classify(&x) == cases[i].want, "case %zu: %s, want %s", i,
			      cite_class_name(cite_classify(&x)), cite_class_name(cases[i].want));
		free(x.f);
	}
	/* the names, headings (5 chars at most) and the wrong ones */
	for (int c = 0; c < CITE_C_COUNT; c++) {
		ck_assert_uint_le(strlen(cite_class_heading(c)), 5);
		ck_assert_int_eq(cite_class_wrong(c), c == CITE_C_WRONG || c == CITE_C_WRONG_FOUND ||
				 c == CITE_C_NOT_COMMIT);
		for (int d = 0; d < c; d++)
			ck_assert_str_ne(cite_class_name(c), cite_class_name(d));
	}
}
END_TEST

START_TEST(test_year_of)
{
	/* 2020-12-31 23:30:00 UTC: 2021 at +0100, 2020 at UTC */
	ck_assert_int_eq(cite_audit_year_of(1609457400, 60), 2021);
	ck_assert_int_eq(cite_audit_year_of(1609457400, 0), 2020);
	/* 2021-01-01 03:00:00 UTC: 2020 at -0500 */
	ck_assert_int_eq(cite_audit_year_of(1609470000, -300), 2020);
	ck_assert_int_eq(cite_audit_year_of(1609470000, 0), 2021);
}
END_TEST

/* A reference of the list `l` written as `hex`. */
static void add_ref(cite_list *l, citation *v, size_t i, const char *hex)
{
	memset(&v[i], 0, sizeof(v[i]));
	strcpy(v[i].id, hex);
	v[i].id_len = strlen(hex);
	l->n = i + 1;
}

START_TEST(test_tally)
{
	cite_audit a = { 0 };
	citation v[4];
	cite_list l = { .v = v, .cap = 4 };
	cite_result x[4];
	cite_results res = { x, 0, 4, 0, 0, 0, 0 };
	cite_audit_cited top[3];
	unsigned char c1[ABBREV_MAX_RAWSZ] = { 0x11 }, c2[ABBREV_MAX_RAWSZ] = { 0x22 },
		      c3[ABBREV_MAX_RAWSZ] = { 0x33 }, citing[ABBREV_MAX_RAWSZ] = { 0xcc };
	static const int unknown[] = { CITE_P_UNKNOWN }, later[] = { CITE_P_AMBIGUOUS_LATER },
			 amb[] = { CITE_P_AMBIGUOUS };
	size_t n;

	a.rawsz = 20;
	/* 2019: c1 twice (ok), c2 once (ambiguous today, by "2200") */
	add_ref(&l, v, 0, "110000000000");
	add_ref(&l, v, 1, "2200");
	add_ref(&l, v, 2, "1100000");
	x[0] = with(NULL, 0), x[0].ref = 0, x[0].named = 1, memcpy(x[0].commit.id, c1, 20);
	x[1] = with(later, 1), x[1].ref = 1, x[1].named = 1, memcpy(x[1].commit.id, c2, 20);
	x[1].nlater = 1;
	x[2] = with(NULL, 0), x[2].ref = 2, x[2].named = 1, memcpy(x[2].commit.id, c1, 20);
	res.n = 3;
	ck_assert_int_eq(cite_audit_add(&a, &l, &res, citing, 2019), 0);
	for (size_t i = 0; i < 3; i++)
		free(x[i].f);
	/* 2017: a wrong ID whose subject finds c3, another wrong one, "2200" ambiguous */
	add_ref(&l, v, 0, "deadbeef0000");
	add_ref(&l, v, 1, "feedface0000");
	add_ref(&l, v, 2, "2200");
	x[0] = with(unknown, 1), x[0].ref = 0, memcpy(x[0].target.id, c3, 20);
	x[1] = with(unknown, 1), x[1].ref = 1;
	x[2] = with(amb, 1), x[2].ref = 2, x[2].ncands = 3;
	res.n = 3;
	ck_assert_int_eq(cite_audit_add(&a, &l, &res, citing, 2017), 0);
	for (size_t i = 0; i < 3; i++)
		free(x[i].f);
	/* a commit without references: counted, no year */
	res.n = 0;
	l.n = 0;
	ck_assert_int_eq(cite_audit_add(&a, &l, &res, citing, 2030), 0);
	ck_assert_int_eq(cite_audit_finish(&a), 0);

	ck_assert_uint_eq(a.commits, 3);
	ck_assert_uint_eq(a.refs, 6);
	ck_assert_uint_eq(a.nyears, 2);
	ck_assert_int_eq(a.years[0].year, 2017);
	ck_assert_int_eq(a.years[1].year, 2019);
	ck_assert_uint_eq(a.years[0].n[CITE_C_WRONG_FOUND], 1);
	ck_assert_uint_eq(a.years[0].n[CITE_C_WRONG], 1);
	ck_assert_uint_eq(a.years[0].n[CITE_C_AMBIGUOUS], 1);
	ck_assert_uint_eq(a.years[1].n[CITE_C_OK], 2);
	ck_assert_uint_eq(a.years[1].n[CITE_C_AMBIGUOUS_TODAY], 1);
	ck_assert_uint_eq(a.total[CITE_C_OK], 2);
	ck_assert(cite_audit_share(a.total[CITE_C_OK], a.refs) > 33.33 &&
		  cite_audit_share(a.total[CITE_C_OK], a.refs) < 33.34);
	/* most cited: c1 twice, then c2 and c3 once, by ID */
	n = cite_audit_top(&a, top, 3);
	ck_assert_uint_eq(n, 3);
	ck_assert_mem_eq(top[0].id, c1, 20);
	ck_assert_uint_eq(top[0].cites, 2);
	ck_assert_mem_eq(top[1].id, c2, 20);
	ck_assert_mem_eq(top[2].id, c3, 20);
	ck_assert_uint_eq(cite_audit_top(&a, top, 1), 1);
	ck_assert_mem_eq(top[0].id, c1, 20);
	/* "2200" once: cited twice, ambiguous when written once */
	ck_assert_uint_eq(a.namb, 1);
	ck_assert_str_eq(a.amb[0].written, "2200");
	ck_assert_uint_eq(a.amb[0].cites, 2);
	ck_assert_uint_eq(a.amb[0].commits, 3);
	ck_assert_int_eq(a.amb[0].when_written, 1);
	/* the wrong ones, in order, the right commit when found */
	ck_assert_uint_eq(a.nwrong, 2);
	ck_assert_str_eq(a.wrong[0].written, "deadbeef0000");
	ck_assert_int_eq(a.wrong[0].found, 1);
	ck_assert_mem_eq(a.wrong[0].right, c3, 20);
	ck_assert_str_eq(a.wrong[1].written, "feedface0000");
	ck_assert_int_eq(a.wrong[1].found, 0);
	cite_audit_clear(&a);
}
END_TEST

Suite *make_audit_suite(void)
{
	Suite *s = suite_create("audit");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_classify);
	tcase_add_test(tc, test_year_of);
	tcase_add_test(tc, test_tally);
	suite_add_tcase(s, tc);
	return s;
}
