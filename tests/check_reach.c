/*
 * check_reach.c - the parts of --reachable that need no repository: the
 * visited set (objset.h) against the Judy sets, the ref patterns, and
 * --refs on the command line.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "cli.h"
#include "idset.h"
#include "objset.h"
#include "walk.h"

/* A deterministic ID from a number (SHA-1 width; byte 0 varies fastest). */
static void make_id(unsigned char *id, unsigned n, size_t rawsz)
{
	unsigned x = n * 2654435761u;

	for (size_t i = 0; i < rawsz; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		id[i] = (unsigned char)(x + n);
	}
}

START_TEST(test_objset_add_find_drain)
{
	enum { N = 50000 };
	objset *o = objset_new(20);
	idsets *s = idsets_new(20);
	unsigned char id[20];
	size_t want[ABBREV_SET_COUNT] = { 0 };

	ck_assert_ptr_nonnull(o);
	ck_assert_ptr_nonnull(s);
	for (unsigned n = 0; n < N; n++) {
		int type = 1 + n % 5; /* 5: missing, as ABBREV_TYPE_NONE */

		if (type == 5)
			type = ABBREV_TYPE_NONE;
		make_id(id, n, sizeof(id));
		ck_assert_int_eq(objset_find(o, id), -1);
		ck_assert_int_eq(objset_add(o, id, type), 1);
		ck_assert_int_eq(objset_add(o, id, ABBREV_TYPE_BLOB), 0);
		ck_assert_int_eq(objset_find(o, id), type);
		if (type != ABBREV_TYPE_NONE) {
			want[type]++;
			want[ABBREV_SET_ALL]++;
		}
	}
	ck_assert_uint_eq(objset_count(o), N);
	/* a tree found missing after it was queued */
	make_id(id, 1, sizeof(id));
	ck_assert_int_eq(objset_find(o, id), ABBREV_TYPE_TREE);
	objset_set_type(o, id, ABBREV_TYPE_NONE);
	ck_assert_int_eq(objset_find(o, id), ABBREV_TYPE_NONE);
	want[ABBREV_TYPE_TREE]--;
	want[ABBREV_SET_ALL]--;
	ck_assert_int_eq(objset_drain(o, s), 0);
	for (int set = ABBREV_SET_ALL; set <= ABBREV_SET_TAG; set++)
		ck_assert_uint_eq(idsets_count(s, set), want[set]);
	for (unsigned n = 0; n < N; n++) {
		int type = 1 + n % 5;

		make_id(id, n, sizeof(id));
		ck_assert_int_eq(idsets_lookup(s, id),
				 type == 5 || n == 1 ? ABBREV_TYPE_NONE : type);
	}
	objset_free(o);
	idsets_free(s);
}
END_TEST

START_TEST(test_objset_sha256_and_bad_width)
{
	objset *o = objset_new(32);
	unsigned char a[32] = { 0 }, b[32] = { 0 };

	ck_assert_ptr_null(objset_new(7));
	ck_assert_ptr_null(objset_new(ABBREV_MAX_RAWSZ + 1));
	/* equal in the first 8 bytes (the hash), different after */
	b[31] = 1;
	ck_assert_int_eq(objset_add(o, a, ABBREV_TYPE_COMMIT), 1);
	ck_assert_int_eq(objset_add(o, b, ABBREV_TYPE_TAG), 1);
	ck_assert_int_eq(objset_find(o, a), ABBREV_TYPE_COMMIT);
	ck_assert_int_eq(objset_find(o, b), ABBREV_TYPE_TAG);
	objset_free(o);
}
END_TEST

static const struct {
	const char *name, *pattern;
	int match;
} ref_cases[] = {
	{ "refs/heads/main", "refs/heads/*", 1 },
	{ "refs/heads/a/b", "refs/heads/*", 1 },      /* '*' matches '/' (rev-list --glob) */
	{ "refs/tags/v1.0", "refs/heads/*", 0 },
	{ "refs/pull/1/head", "refs/*", 1 },
	{ "refs/pull/1/head", "refs/pull", 1 },       /* no wildcard: a ref and all below */
	{ "refs/pull/1/head", "refs/pull/", 1 },
	{ "refs/pullx/1", "refs/pull", 0 },           /* ... up to a slash */
	{ "refs/heads/main", "refs/heads/main", 1 },
	{ "refs/heads/mainline", "refs/heads/main", 0 },
	{ "refs/remotes/origin/old", "refs/remotes/*/old", 1 },
	{ "refs/notes/commits", "refs/notes/commit?", 1 },
	{ "refs/heads/x", "refs/heads/[a-w]", 0 },
	{ "HEAD", "HEAD", 1 },
	{ "refs/heads/HEAD", "HEAD", 0 },
};

START_TEST(test_ref_patterns)
{
	const char *p = ref_cases[_i].pattern;

	ck_assert_msg(walk_ref_matches(ref_cases[_i].name, &p, 1) == ref_cases[_i].match,
		      "%s ~ %s", ref_cases[_i].name, p);
}
END_TEST

START_TEST(test_clone_refs)
{
	ck_assert_uint_eq(walk_clone_nrefs, 3);
	ck_assert(walk_ref_matches("HEAD", walk_clone_refs, walk_clone_nrefs));
	ck_assert(walk_ref_matches("refs/heads/topic", walk_clone_refs, walk_clone_nrefs));
	ck_assert(walk_ref_matches("refs/tags/v1.0", walk_clone_refs, walk_clone_nrefs));
	ck_assert(!walk_ref_matches("refs/pull/1/head", walk_clone_refs, walk_clone_nrefs));
	ck_assert(!walk_ref_matches("refs/remotes/origin/main", walk_clone_refs, walk_clone_nrefs));
	ck_assert(!walk_ref_matches("refs/notes/commits", walk_clone_refs, walk_clone_nrefs));
}
END_TEST

START_TEST(test_cli_refs)
{
	char a0[] = "--refs=refs/pull", a1[] = "--refs", a2[] = "HEAD", a3[] = "repo";
	char *argv[] = { a0, a1, a2, a3 };
	char b0[] = "--refs=";
	char *bad[] = { b0 };
	cli_report_opts o;
	char err[256] = "";

	ck_assert_int_eq(cli_parse_report(&o, 4, argv, err, sizeof(err)), CLI_OK);
	ck_assert_int_eq(o.reachable, 1);
	ck_assert_uint_eq(o.nrefs, 2);
	ck_assert_str_eq(o.refs[0], "refs/pull");
	ck_assert_str_eq(o.refs[1], "HEAD");
	ck_assert_uint_eq(o.nrepos, 1);
	ck_assert_int_eq(cli_parse_report(&o, 1, bad, err, sizeof(err)), CLI_USAGE);
	ck_assert(strstr(err, "--refs") != NULL);
	ck_assert_int_eq(cli_parse_report(&o, 1, argv + 1, err, sizeof(err)), CLI_USAGE);
}
END_TEST

Suite *make_reach_suite(void)
{
	Suite *s = suite_create("reach");
	TCase *core = tcase_create("core");

	tcase_add_test(core, test_objset_add_find_drain);
	tcase_add_test(core, test_objset_sha256_and_bad_width);
	tcase_add_loop_test(core, test_ref_patterns, 0,
			    (int)(sizeof(ref_cases) / sizeof(ref_cases[0])));
	tcase_add_test(core, test_clone_refs);
	tcase_add_test(core, test_cli_refs);
	suite_add_tcase(s, core);
	return s;
}
