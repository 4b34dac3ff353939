/*
 * check_resolve.c - the commit parser (commit.h) on hand-written commit
 * objects, and the resolver's decisions (cite_resolve.h) over a
 * hand-made history: a table of commits with subjects, times and
 * parents behind a cite_source, so every verdict and every suggested
 * commit is checked without a repository.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "commit.h"
#include "idset.h"
#include "cite_parse.h"
#include "cite_resolve.h"

/* ---- the commit parser ------------------------------------------------------------ */

#define HDR "tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n" \
	"author A U Thor <a@example.com> 1112911993 +0200\n"

START_TEST(test_commit_time)
{
	static const struct {
		const char *obj;
		int64_t time;
	} c[] = {
		{ HDR "committer C O Mitter <c@example.com> 1112912053 -0700\n\nx\n", 1112912053 },
		/* the number after the last '>', a '>' inside the name is no end */
		{ HDR "committer C <x> O <c@example.com>  42 +0000\n\nx\n", 42 },
		{ HDR "\ncommitter C <c@example.com> 7 +0000\n", 0 }, /* in the message */
		{ HDR "\nx\n", 0 },                                      /* none */
		{ HDR "committer C no mail 12 +0000\n\nx\n", 0 },
		{ HDR "committer C <c> 9223372036854775807 +0000\n\n", INT64_MAX },
		{ HDR "committer C <c> 9223372036854775808 +0000\n\n", 0 }, /* overflow */
		{ HDR "committer C <c> 99999999999999999999999 +0000\n\n", 0 },
		{ "committer C <c> 5", 5 }, /* no newline at all */
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		ck_assert_msg(commit_time(c[i].obj, strlen(c[i].obj)) == c[i].time,
			      "case %zu: %lld", i, (long long)commit_time(c[i].obj, strlen(c[i].obj)));
}
END_TEST

START_TEST(test_commit_subject)
{
	static const struct {
		const char *obj, *subject;
	} c[] = {
		{ HDR "committer C <c> 1 +0000\n\nfix: a thing\n\nbody\n", "fix: a thing" },
		{ HDR "committer C <c> 1 +0000\n\n\n  \nafter blanks\n", "after blanks" },
		/* a wrapped first paragraph, trailing blanks and CR trimmed */
		{ HDR "committer C <c> 1 +0000\n\nline one \t\r\nline two\r\n\nbody", "line one line two" },
		{ HDR "committer C <c> 1 +0000\n\n", "" },
		{ HDR "committer C <c> 1 +0000\n", "" }, /* no message */
		{ HDR "committer C <c> 1 +0000\n\nno newline", "no newline" },
		{ HDR "encoding ISO-8859-1\ncommitter C <c> 1 +0000\n\ncaf\xe9\n", "caf\xe9" },
	};
	commit_buf b = { 0 };

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		ck_assert_int_eq(commit_subject(c[i].obj, strlen(c[i].obj), &b), 0);
		ck_assert_str_eq(b.s, c[i].subject);
		ck_assert_uint_eq(b.len, strlen(c[i].subject));
	}
	commit_buf_free(&b);
}
END_TEST

#define P1 "parent 1111111111111111111111111111111111111111\n"
#define P2 "parent 2222222222222222222222222222222222222222\n"

START_TEST(test_commit_parents)
{
	static const struct {
		const char *obj;
		int n;
	} c[] = {
		{ HDR "committer C <c> 1 +0000\n\nroot\n", 0 },
		{ "tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n" P1 P2 "author A <a> 1 +0000\n", 2 },
		/* only right after the tree, as git reads them */
		{ HDR P1 "committer C <c> 1 +0000\n", 0 },
		{ "tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\nparent 1111\n", -1 },
		{ "tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\nparent "
		  "111111111111111111111111111111111111111x\n", -1 },
		{ "author A <a> 1 +0000\n", -1 }, /* no tree line */
	};
	unsigned char out[2 * 20];

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		ck_assert_msg(commit_parents(c[i].obj, strlen(c[i].obj), 20, out, 2) == c[i].n,
			      "case %zu", i);
	ck_assert_int_eq(out[0], 0x11);
	ck_assert_int_eq(out[20], 0x22);
	/* more parents than room: counted, not written */
	ck_assert_int_eq(commit_parents(c[1].obj, strlen(c[1].obj), 20, out, 0), 2);
}
END_TEST

START_TEST(test_commit_head_complete)
{
	const char *whole = HDR "committer C <c> 1 +0000\n\n\nthe subject\nwrapped\n \t\nbody\n";
	size_t n = strlen(whole), enough = strstr(whole, " \t\n") - whole + 3;
	commit_buf a = { 0 }, b = { 0 };

	/* complete from the blank line after the first paragraph on, not before */
	for (size_t k = 0; k <= n; k++)
		ck_assert_msg(commit_head_complete(whole, k) == (k >= enough), "%zu bytes", k);
	/* and what it calls complete gives the whole object's subject and time */
	ck_assert_int_eq(commit_subject(whole, enough, &a), 0);
	ck_assert_int_eq(commit_subject(whole, n, &b), 0);
	ck_assert_str_eq(a.s, b.s);
	ck_assert(commit_time(whole, enough) == commit_time(whole, n));
	/* a subject with nothing after it is never known to be complete */
	whole = HDR "committer C <c> 1 +0000\n\nonly\n";
	ck_assert_int_eq(commit_head_complete(whole, strlen(whole)), 0);
	commit_buf_free(&a);
	commit_buf_free(&b);
}
END_TEST

/* ---- a hand-made history behind a cite_source ------------------------------------- */

typedef struct {
	const char *hex;     /* zero-filled to 20 bytes */
	int type;
	const char *subject; /* commits */
	int64_t time;
	int parent;          /* index of the first parent, -1: a root */
	int parent2;         /* a merge's second parent, or -1 */
} fake_obj;

/*
 *   0 root  <- 1 <- 2 <- 3 (HEAD)         a line of history
 *   1 <- 4 "the fix"   (a side branch, never merged: a rebased copy of 2)
 *   5, 6: two commits sharing "abcdef12"; 7 a blob sharing "cafe0"; 8 a
 *   tag sharing "beef1" with commit 9; 10 and 11 share the subject "typos".
 *   0 <- 14 "typos" (old), merged by 15 with 3.
 * Branches and tags point at 3, 5, 6, 9..13 and 15; 4 only at a pull
 * request's ref (not public).
 */
static const fake_obj hist[] = {
	/* 0 */ { "1000000000aa", ABBREV_TYPE_COMMIT, "root", 100, -1, -1 },
	/* 1 */ { "2000000000bb", ABBREV_TYPE_COMMIT, "add the feature", 200, 0, -1 },
	/* 2 */ { "3000000000cc", ABBREV_TYPE_COMMIT, "the fix", 300, 1, -1 },
	/* 3 */ { "4000000000dd", ABBREV_TYPE_COMMIT, "later work", 400, 2, -1 },
	/* 4 */ { "5000000000ee", ABBREV_TYPE_COMMIT, "the fix", 250, 1, -1 },
	/* 5 */ { "abcdef1234aa", ABBREV_TYPE_COMMIT, "first of a pair", 500, 3, -1 },
	/* 6 */ { "abcdef1299bb", ABBREV_TYPE_COMMIT, "second of a pair", 600, 3, -1 },
	/* 7 */ { "cafe0000000011", ABBREV_TYPE_BLOB, NULL, 0, -1, -1 },
	/* 8 */ { "beef100000aa", ABBREV_TYPE_TAG, NULL, 0, -1, -1 },
	/* 9 */ { "beef100000bb", ABBREV_TYPE_COMMIT, "tagged", 700, 3, -1 },
	/* 10 */ { "7777000000aa", ABBREV_TYPE_COMMIT, "typos", 800, 3, -1 },
	/* 11 */ { "7777111111bb", ABBREV_TYPE_COMMIT, "typos", 900, 3, -1 },
	/* 12 */ { "cafe0000000022", ABBREV_TYPE_COMMIT, "beside a blob", 1000, 3, -1 },
	/* 13 */ { "8888000000aa", ABBREV_TYPE_COMMIT, "area: say \"hi\" to `all`", 1100, 3, -1 },
	/* 14 */ { "7777222222cc", ABBREV_TYPE_COMMIT, "typos", 150, 0, -1 },
	/* 15 */ { "9000000000ff", ABBREV_TYPE_COMMIT, "Merge branch 'typo-fixes'", 1200, 3, 14 },
};
static const int tips[] = { 3, 5, 6, 9, 10, 11, 12, 13, 15 };
#define NHIST (sizeof(hist) / sizeof(hist[0]))

typedef struct {
	unsigned char raw[NHIST][20];
	size_t reads;        /* commit() calls, to see what is read lazily */
	size_t ancestry;     /* is_ancestor() calls */
	size_t public;       /* is_public() calls */
	size_t batch;        /* commits given by each_commit() */
} fake_repo;

static int find(const fake_repo *f, const unsigned char *id)
{
	for (size_t i = 0; i < NHIST; i++)
		if (!memcmp(f->raw[i], id, 20))
			return (int)i;
	return -1;
}

static int fake_commit(void *ctx, const unsigned char *id, const char **subject, int64_t *time)
{
	fake_repo *f = ctx;
	int i = find(f, id);

	f->reads++;
	if (i < 0 || hist[i].type != ABBREV_TYPE_COMMIT)
		return 0;
	*subject = hist[i].subject;
	*time = hist[i].time;
	return 1;
}

static int reaches(int from, int to)
{
	if (from < 0)
		return 0;
	if (from == to)
		return 1;
	return reaches(hist[from].parent, to) || reaches(hist[from].parent2, to);
}

static int fake_is_ancestor(void *ctx, const unsigned char *anc, const unsigned char *of)
{
	fake_repo *f = ctx;
	int a = find(f, anc), o = find(f, of);

	f->ancestry++;
	return a >= 0 && o >= 0 && a != o && reaches(o, a);
}

static int fake_is_public(void *ctx, const unsigned char *id)
{
	fake_repo *f = ctx;
	int i = find(f, id);

	f->public++;
	for (size_t t = 0; i >= 0 && t < sizeof(tips) / sizeof(tips[0]); t++)
		if (reaches(tips[t], i))
			return 1;
	return 0;
}

/* The source's own order (a pack's): here the reverse of the IDs'. */
static int fake_each_commit(void *ctx, const unsigned char *ids, size_t n,
			    int (*fn)(void *arg, size_t i, const char *subject, int64_t time),
			    void *arg)
{
	fake_repo *f = ctx;

	for (size_t k = n; k-- > 0;) {
		int i = find(f, ids + k * 20), rc;

		if (i < 0 || hist[i].type != ABBREV_TYPE_COMMIT)
			continue;
		f->batch++;
		if ((rc = fn(arg, k, hist[i].subject, hist[i].time)))
			return rc;
	}
	return 0;
}

static fake_repo F;
static cite_source SRC = { &F, fake_commit, fake_is_ancestor, fake_is_public, NULL, NULL, NULL, NULL, NULL };
static idsets *S;
static cite_ids IDS;
static cite_resolver *R;
static cite_list RL;
static cite_results RES;

static void setup(void)
{
	SRC.each_commit = NULL;
	memset(&F, 0, sizeof(F));
	memset(&RL, 0, sizeof(RL));
	memset(&RES, 0, sizeof(RES));
	S = idsets_new(20);
	ck_assert_ptr_nonnull(S);
	for (size_t i = 0; i < NHIST; i++) {
		test_id(F.raw[i], 20, hist[i].hex);
		ck_assert_int_eq(idsets_add(S, F.raw[i], hist[i].type), 1);
	}
	cite_ids_over_sets(&IDS, S);
	ck_assert_int_eq(cite_resolver_new(&R, &IDS, &SRC, 12), 0);
}

/* The same tests with the subject index read through each_commit(). */
static void setup_batch(void)
{
	setup();
	SRC.each_commit = fake_each_commit;
}

static void teardown(void)
{
	cite_results_clear(&RES);
	cite_list_free(&RL);
	cite_resolver_free(R);
	idsets_free(S);
}

/* Check the one reference of `text`, as the message of commit `ctx` (-1: a file). */
static const cite_result *check1(const char *text, int ctx)
{
	cite_results_clear(&RES);
	cite_list_free(&RL);
	ck_assert_int_eq(cite_parse(&RL, text, strlen(text), ctx >= 0 ? CITE_PARSE_MESSAGE : 0), 0);
	ck_assert_uint_eq(RL.n, 1);
	ck_assert_int_eq(cite_resolve(R, &RES, text, &RL, ctx >= 0 ? F.raw[ctx] : NULL, NULL, 0), 0);
	ck_assert_uint_eq(RES.nrefs, 1);
	return RES.n ? &RES.v[0] : NULL;
}

static int has(const cite_result *x, int problem)
{
	for (size_t i = 0; x && i < x->nf; i++)
		if (x->f[i].problem == problem)
			return 1;
	return 0;
}

/* The suggested commit is hist[i], and --fix would write `fixed`. */
static void expect_target(const cite_result *x, int i, const char *fixed)
{
	ck_assert_ptr_nonnull(x);
	ck_assert_int_eq(x->suggest, 1);
	ck_assert_int_eq(memcmp(x->target.id, F.raw[i], 20), 0);
	ck_assert_ptr_nonnull(x->replacement);
	ck_assert_str_eq(x->replacement, fixed);
}

START_TEST(test_resolve_right)
{
	ck_assert_ptr_null(check1("Fixes: 3000000000cc (\"the fix\")\n", -1));
	ck_assert_ptr_null(check1("See commit 2000000000bb (\"add the feature\").\n", -1));
	/* a right reference reads its own commit, never every commit */
	ck_assert_int_eq(cite_resolver_indexed(R), 0);
	ck_assert_uint_le(F.reads, 2);
	/* --range: an ancestor is fine, and the ancestry was asked */
	ck_assert_ptr_null(check1("x\n\nFixes: 2000000000bb (\"add the feature\")\n", 3));
	ck_assert_uint_ge(F.ancestry, 1);
}
END_TEST

/* cite_ids over IDS that count the questions asked */
static size_t n_prefix, n_unique;

static int counting_prefix(void *ctx, const char *hex, size_t n, cite_id_fn fn, void *arg,
			   char *err, size_t errsz)
{
	n_prefix++;
	return IDS.prefix(ctx, hex, n, fn, arg, err, errsz);
}

static int counting_unique(void *ctx, const unsigned char *id, unsigned *len, char *err,
			   size_t errsz)
{
	n_unique++;
	return IDS.unique_length(ctx, id, len, err, errsz);
}

/*
 * The same references again and again (a pasted log, a mailbox): a
 * prefix naming one commit or none is looked up once and each commit's
 * unique length asked once, and every copy gets the findings of the first.
 */
START_TEST(test_resolve_repeated)
{
	static const char one[] =
		"Fixes: 3000000000cc (\"the fix\")\n"             /* right */
		"Fixes: 3000000000cc (\"not the fix\")\n"         /* wrong subject */
		"Fixes: abcdef12 (\"second of a pair\")\n"        /* ambiguous */
		"Fixes: 3000000000ff (\"the fix\")\n"             /* unknown */
		"See commit 2000000000BB (\"add the feature\").\n"; /* upper case */
	char text[8 * sizeof(one)] = "";
	cite_ids counted = IDS;
	cite_resolver *r2;

	for (int k = 0; k < 6; k++)
		strcat(text, one);
	counted.prefix = counting_prefix;
	counted.unique_length = counting_unique;
	n_prefix = n_unique = 0;
	ck_assert_int_eq(cite_resolver_new(&r2, &counted, &SRC, 12), 0);
	ck_assert_int_eq(cite_parse(&RL, text, strlen(text), 0), 0);
	ck_assert_uint_eq(RL.n, 30);
	ck_assert_int_eq(cite_resolve(r2, &RES, text, &RL, NULL, NULL, 0), 0);
	ck_assert_uint_eq(RES.nrefs, 30);
	ck_assert_uint_eq(RES.n, 24); /* all but the right ones */
	for (size_t i = 4; i < RES.n; i++) {
		const cite_result *a = &RES.v[i - 4], *b = &RES.v[i];

		ck_assert_uint_eq(b->ref, a->ref + 5);
		ck_assert_uint_eq(a->nf, b->nf);
		for (size_t f = 0; f < a->nf; f++) {
			ck_assert_int_eq(a->f[f].problem, b->f[f].problem);
			ck_assert_str_eq(a->f[f].message, b->f[f].message);
		}
		ck_assert_int_eq(a->suggest, b->suggest);
		if (a->suggest)
			ck_assert_str_eq(a->suggestion, b->suggestion);
	}
	ck_assert(has(&RES.v[0], CITE_P_SUBJECT));
	ck_assert(has(&RES.v[1], CITE_P_AMBIGUOUS));
	ck_assert(has(&RES.v[2], CITE_P_UNKNOWN));
	ck_assert(has(&RES.v[3], CITE_P_UPPER));
	/*
	 * the 3 prefixes that name one commit or none (2000000000bb
	 * lower-cased) asked once each; the ambiguous one each time; the
	 * unknown one asked again, then its neighbours one char off once (15
	 * a char, and a swap of each two neighbours that differ) at the
	 * positions up to the 10 chars it shares with 3000000000cc (the 11th
	 * and 12th changed can name nothing), its unique length asked once
	 * for that
	 */
	size_t swaps = 0;
	const char *u = "3000000000ff";

	for (size_t i = 0; i <= 10; i++)
		swaps += u[i] != u[i + 1];
	ck_assert_uint_eq(n_prefix, 3 + 6 + 1 + 15 * 11 + swaps);
	ck_assert_uint_le(n_unique, 4);
	cite_results_clear(&RES);
	cite_resolver_free(r2);
}
END_TEST

START_TEST(test_resolve_unknown)
{
	const cite_result *x = check1("Fixes: 3000000000ff (\"the fix\")\n", -1);

	ck_assert_ptr_nonnull(x);
	ck_assert(has(x, CITE_P_UNKNOWN));
	ck_assert_int_eq(x->severity, CITE_ERROR);
	/* two commits have the subject: the one on HEAD (the other only a pull request has) */
	expect_target(x, 2, "Fixes: 3000000000cc (\"the fix\")");
	ck_assert_int_eq(cite_resolver_indexed(R), 1);

	x = check1("Fixes: 3000000000ff (\"no such subject\")\n", -1);
	ck_assert(has(x, CITE_P_UNKNOWN));
	ck_assert_int_eq(x->suggest, 0);
	ck_assert_ptr_null(x->replacement);
}
END_TEST

START_TEST(test_resolve_batch)
{
	const cite_result *x = check1("Fixes: 3000000000ff (\"the fix\")\n", -1);

	/* every commit came through each_commit, the target's subject from the index */
	ck_assert_int_eq(cite_resolver_indexed(R), 1);
	ck_assert_uint_eq(F.batch, NHIST - 2);
	ck_assert_uint_eq(F.reads, 0);
	expect_target(x, 2, "Fixes: 3000000000cc (\"the fix\")");
}
END_TEST

START_TEST(test_resolve_ambiguous)
{
	const cite_result *x = check1("Fixes: abcdef12 (\"second of a pair\")\n", -1);

	ck_assert(has(x, CITE_P_AMBIGUOUS));
	ck_assert_uint_eq(x->ncands, 2);
	ck_assert_int_eq(memcmp(x->cands[0].id, F.raw[5], 20), 0);
	ck_assert_str_eq(x->cands[1].subject, "second of a pair");
	expect_target(x, 6, "Fixes: abcdef1299bb (\"second of a pair\")");

	x = check1("Fixes: abcdef12\n", -1); /* nothing tells which */
	ck_assert(has(x, CITE_P_AMBIGUOUS));
	ck_assert_int_eq(x->suggest, 0);
}
END_TEST

START_TEST(test_resolve_subject)
{
	/* 1 names "add the feature"; "later work" is 3's subject */
	const cite_result *x = check1("Fixes: 2000000000bb (\"later work\")\n", -1);

	ck_assert(has(x, CITE_P_SUBJECT));
	ck_assert_int_eq(x->named, 1);
	ck_assert_int_eq(memcmp(x->commit.id, F.raw[1], 20), 0);
	expect_target(x, 3, "Fixes: 4000000000dd (\"later work\")");

	/* a "..." prefix is a warning, not a mismatch */
	x = check1("Fixes: 2000000000bb (\"add the...\")\n", -1);
	ck_assert(has(x, CITE_P_SHORTENED));
	ck_assert(!has(x, CITE_P_SUBJECT));
	ck_assert_int_eq(x->severity, CITE_WARNING);

	/* a "..." (or U+2026) for a middle part, at a line wrap or not */
	static const char *const inner[] = {
		"Fixes: 2000000000bb (\"add ... feature\")\n",
		"Fixes: 2000000000bb (\"add the ...\n   feature\")\n",
		"Fixes: 2000000000bb (\"add\xe2\x80\xa6" "feature\")\n",
		"Fixes: 2000000000bb (\"add ...the feature\")\n",
	};
	for (size_t i = 0; i < sizeof(inner) / sizeof(inner[0]); i++) {
		x = check1(inner[i], -1);
		ck_assert_msg(has(x, CITE_P_SHORTENED) && !has(x, CITE_P_SUBJECT) &&
			      x->severity == CITE_WARNING, "inner %zu", i);
	}
	/* words on either side that are not the subject's, or nothing left out */
	static const char *const wrong[] = {
		"Fixes: 2000000000bb (\"add ... features\")\n",
		"Fixes: 2000000000bb (\"remove ... feature\")\n",
		"Fixes: 2000000000bb (\"add the ... the feature\")\n",
		"Fixes: 2000000000bb (\"... the feature\")\n",
	};
	for (size_t i = 0; i < sizeof(wrong) / sizeof(wrong[0]); i++) {
		x = check1(wrong[i], -1);
		ck_assert_msg(has(x, CITE_P_SUBJECT) && x->severity == CITE_ERROR, "wrong %zu", i);
	}
}
END_TEST

START_TEST(test_resolve_types)
{
	const cite_result *x = check1("Fixes: cafe00000000 (\"beside a blob\")\n", -1);

	/* a blob shares the prefix: git show fails, git log works */
	ck_assert(has(x, CITE_P_AMBIGUOUS_OBJECT));
	ck_assert_int_eq(x->severity, CITE_WARNING);

	x = check1("Fixes: beef100000aa (\"tagged\")\n", -1);
	ck_assert(has(x, CITE_P_NOT_COMMIT));
	expect_target(x, 9, "Fixes: beef100000bb (\"tagged\")");

	x = check1("Fixes: 2000000000b (\"add the feature\")\n", -1);
	ck_assert(has(x, CITE_P_SHORT));
	expect_target(x, 1, "Fixes: 2000000000bb (\"add the feature\")");
}
END_TEST

START_TEST(test_resolve_ancestry)
{
	/* 3 (HEAD) fixes 4, which is on a branch never merged; 2 has its subject */
	const cite_result *x = check1("later work\n\nFixes: 5000000000ee (\"the fix\")\n", 3);

	ck_assert(has(x, CITE_P_NOT_ANCESTOR));
	expect_target(x, 2, "Fixes: 3000000000cc (\"the fix\")");

	/* without the context commit nobody asks */
	ck_assert_ptr_null(check1("Fixes: 5000000000ee (\"the fix\")\n", -1));

	/* an unknown ID whose subject two commits share: the ancestor wins over the typo */
	x = check1("later work\n\nFixes: 5000000000ef (\"the fix\")\n", 3);
	ck_assert(has(x, CITE_P_UNKNOWN));
	expect_target(x, 2, "Fixes: 3000000000cc (\"the fix\")");
}
END_TEST

START_TEST(test_resolve_layout)
{
	static const char *const layout[] = {
		"commit 8888000000aa (\"area: say 'hi' to all\")\n",          /* re-quoted */
		"commit 8888000000aa (\"area: say \\\"hi\\\" to all\", 2020-01-02)\n", /* escaped */
		"commit 8888000000aa (say \"hi\" to `all`, 2020-01-02)\n",     /* area dropped */
		"commit 8888000000aa (area: say \"hi\" to `all`, A U Thor, 2020-01-02)\n",
		"commit 8888000000aa (area: say \"hi\" to `all` - 2020-01-02)\n", /* a dash */
	};
	static const char *const wrong[] = {
		"commit 8888000000aa (\"area:say 'hi' to all\")\n",  /* a blank less */
		"commit 8888000000aa (\"area: say 'hi' to\")\n",      /* a word less */
		"commit 8888000000aa (\"xarea: say 'hi' to all\")\n",
	};
	const cite_result *x;

	for (size_t i = 0; i < sizeof(layout) / sizeof(layout[0]); i++) {
		x = check1(layout[i], -1);
		ck_assert_msg(x && has(x, CITE_P_LAYOUT) && !has(x, CITE_P_SUBJECT) &&
			      x->severity == CITE_WARNING, "layout %zu", i);
	}
	for (size_t i = 0; i < sizeof(wrong) / sizeof(wrong[0]); i++) {
		x = check1(wrong[i], -1);
		ck_assert_msg(x && has(x, CITE_P_SUBJECT) && x->severity == CITE_ERROR, "wrong %zu", i);
	}
	/* the whitespace of line wrapping counts as one space, no more */
	ck_assert_ptr_null(check1("commit 8888000000aa (\"area: say \"hi\"\n to `all`\")\n", -1));
	/* words in parentheses that may not be a subject at all */
	x = check1("see commit 2000000000bb (referenced above)\n", -1);
	ck_assert(has(x, CITE_P_SUBJECT_UNSURE));
	ck_assert_int_eq(x->severity, CITE_WARNING);
}
END_TEST

START_TEST(test_resolve_not_here)
{
	/* prose naming what nothing here has: another project's commit */
	const cite_result *x = check1("curl's commit 9999999999ab (\"http2: trace\") broke it\n", -1);

	ck_assert(has(x, CITE_P_NOT_HERE));
	ck_assert_int_eq(x->severity, CITE_WARNING);
	x = check1("see commit 9999999999ab for more\n", -1);
	ck_assert(has(x, CITE_P_NOT_HERE));
	/* a Fixes: tag can only mean this repository */
	x = check1("Fixes: 9999999999ab (\"http2: trace\")\n", -1);
	ck_assert(has(x, CITE_P_UNKNOWN));
	ck_assert_int_eq(x->severity, CITE_ERROR);
	/* a revert or a Fixes: tag quoted as an example (indented) is prose again */
	x = check1("This reverts commit 9999999999ab.\n", -1);
	ck_assert(has(x, CITE_P_UNKNOWN));
	x = check1("git revert writes:\n\n    This reverts commit 9999999999ab.\n", -1);
	ck_assert(has(x, CITE_P_NOT_HERE));
	x = check1("\tFixes: 9999999999ab (\"http2: trace\")\n", -1);
	ck_assert(has(x, CITE_P_NOT_HERE));
	/* and prose whose subject a commit here has is a wrong ID */
	x = check1("commit 9999999999ab (\"later work\") broke it\n", -1);
	ck_assert(has(x, CITE_P_UNKNOWN));
	expect_target(x, 3, "commit 4000000000dd (\"later work\")");
}
END_TEST

/* The candidates listed are hist[want[0]], hist[want[1]], ... in this order. */
static void expect_cands(const cite_result *x, const int *want, size_t n)
{
	ck_assert_ptr_nonnull(x);
	ck_assert_int_eq(x->suggest, 0);
	ck_assert_ptr_null(x->replacement);
	ck_assert_uint_eq(x->ncands, n);
	for (size_t i = 0; i < n; i++)
		ck_assert_msg(!memcmp(x->cands[i].id, F.raw[want[i]], 20), "candidate %zu", i);
}

START_TEST(test_resolve_subject_search)
{
	static const int newest[] = { 11, 10, 14 }, near12[] = { 11, 10, 14 };
	/* 1 is "add the feature"; "the fix" is 2's (on HEAD) and 4's (a pull request's, older) */
	const cite_result *x = check1("Fixes: 2000000000bb (\"the fix\")\n", -1);

	ck_assert(has(x, CITE_P_SUBJECT));
	expect_target(x, 2, "Fixes: 3000000000cc (\"the fix\")");
	ck_assert_uint_ge(F.public, 2);

	/* three public commits have "typos": listed newest first, none suggested or fixed */
	x = check1("Fixes: 9999aaaa0000 (\"typos\")\n", -1);
	ck_assert(has(x, CITE_P_UNKNOWN));
	ck_assert_ptr_nonnull(strstr(x->f[0].message, "3 commits have this subject"));
	expect_cands(x, newest, 3);
	x = check1("Fixes: 2000000000bb (\"typos\")\n", -1);
	ck_assert(has(x, CITE_P_SUBJECT));
	ck_assert_int_eq(x->named, 1);
	expect_cands(x, newest, 3);

	/* --range: nearest in time to the commit checked (12, at 1000) first */
	x = check1("beside a blob\n\nFixes: 9999aaaa0000 (\"typos\")\n", 12);
	expect_cands(x, near12, 3);
	/* never the commit checked's descendants (10, 11 of 3): 14 is the one left */
	x = check1("later work\n\nFixes: 9999aaaa0000 (\"typos\")\n", 3);
	ck_assert(has(x, CITE_P_UNKNOWN));
	expect_target(x, 14, "Fixes: 7777222222cc (\"typos\")");
	/* nor a commit made after it on another line (10, 11 at 800, 900 for 5 at 500) */
	x = check1("first of a pair\n\nFixes: 9999aaaa0000 (\"typos\")\n", 5);
	expect_target(x, 14, "Fixes: 7777222222cc (\"typos\")");
	/* nor the commit itself: only it has its subject (a port, then) */
	x = check1("later work\n\nFixes: 9999aaaa0000 (\"later work\")\n", 3);
	ck_assert(has(x, CITE_P_NOT_HERE));
	ck_assert_int_eq(x->suggest, 0);
	/* a commit made after it is named, not suggested (1 at 200 for 0 at 100) */
	x = check1("root\n\nFixes: 9999aaaa0000 (\"add the feature\")\n", 0);
	ck_assert(has(x, CITE_P_UNKNOWN));
	ck_assert_int_eq(x->suggest, 0);
	ck_assert_msg(strstr(x->f[0].message, "; only 2000000000bb, made after this commit, "
			     "has this subject"), "%s", x->f[0].message);
	/* several: counted (2 and 4, at 300 and 250) */
	x = check1("root\n\nFixes: 9999aaaa0000 (\"the fix\")\n", 0);
	ck_assert_int_eq(x->suggest, 0);
	ck_assert_msg(strstr(x->f[0].message, "; only 2 commits made after this one have this "
			     "subject"), "%s", x->f[0].message);
	/* ... and its one ancestor with the subject is the one meant */
	x = check1("merge\n\nFixes: 9999aaaa0000 (\"typos\")\n", 15);
	ck_assert(has(x, CITE_P_UNKNOWN));
	expect_target(x, 14, "Fixes: 7777222222cc (\"typos\")");

	/* an ID that keeps 10 of 12 hex chars of one of them is that one's typo */
	x = check1("Fixes: 777711111100 (\"typos\")\n", -1);
	expect_target(x, 11, "Fixes: 7777111111bb (\"typos\")");
}
END_TEST

/*
 * --repo: an ID nothing has, whose subject no commit here has but one of
 * the other repository has, names that commit (nothing suggested); a
 * subject none has is said of all of them.  Here: hist 0..3, the other:
 * hist 9 ("tagged").
 */
START_TEST(test_resolve_subject_elsewhere)
{
	idsets *here = idsets_new(20), *there = idsets_new(20);
	cite_ids ih, it;
	cite_resolver *r;
	cite_list l = { 0 };
	cite_results res = { 0 };
	static const char *text[] = {
		"Fixes: 9999999999ab (\"tagged\")\n",
		"Fixes: 9999999999ab (\"later work\")\n",
		"Fixes: 9999999999ab (\"no such subject\")\n",
		"curl's commit 9999999999ab (\"tagged\") broke it\n",
		"curl's commit 9999999999ab (\"http2: trace\") broke it\n",
	};
	static const int problem[] = { CITE_P_UNKNOWN, CITE_P_UNKNOWN, CITE_P_UNKNOWN,
				       CITE_P_UNKNOWN, CITE_P_NOT_HERE };
	static const char *tail[] = {
		"; in there.git, beef100000bb has this subject",
		"; a commit has this subject",
		"; no commit has this subject",
		"; in there.git, beef100000bb has this subject",
		/* the text names the project, and no --repo has the subject */
		" is not in this repository; the text names it as curl's",
	};

	ck_assert_ptr_nonnull(here);
	ck_assert_ptr_nonnull(there);
	for (int i = 0; i < 4; i++)
		ck_assert_int_eq(idsets_add(here, F.raw[i], hist[i].type), 1);
	ck_assert_int_eq(idsets_add(there, F.raw[9], hist[9].type), 1);
	cite_ids_over_sets(&ih, here);
	cite_ids_over_sets(&it, there);
	ck_assert_int_eq(cite_resolver_new(&r, &ih, &SRC, 12), 0);
	ck_assert_int_eq(cite_resolver_add_repo(r, &it, &SRC, "there.git"), 0);
	for (size_t k = 0; k < sizeof(text) / sizeof(text[0]); k++) {
		const char *m;

		cite_results_clear(&res);
		cite_list_free(&l);
		ck_assert_int_eq(cite_parse(&l, text[k], strlen(text[k]), 0), 0);
		ck_assert_int_eq(cite_resolve(r, &res, text[k], &l, NULL, NULL, 0), 0);
		ck_assert_uint_eq(res.n, 1);
		ck_assert_msg(has(&res.v[0], problem[k]), "%s", text[k]);
		m = res.v[0].f[res.v[0].nf - 1].message;
		ck_assert_msg(strlen(m) > strlen(tail[k]) &&
			      !strcmp(m + strlen(m) - strlen(tail[k]), tail[k]), "%s: %s", text[k], m);
		/* a commit of another repository is named, never written in by --fix */
		ck_assert_int_eq(res.v[0].suggest, k == 1);
	}
	cite_results_clear(&res);
	cite_list_free(&l);
	cite_resolver_free(r);
	idsets_free(here);
	idsets_free(there);
}
END_TEST

/*
 * An ID of nothing one hex char off a commit (a char changed, two
 * swapped): that commit, as an error; without a subject only a public
 * one (on_head unset: is_public answers); a full ID stays full.
 */
START_TEST(test_resolve_typo)
{
	const cite_result *x;

	/* changed, no subject: "the fix" on the line of HEAD; 4 (its copy) is far */
	x = check1("Fixes: 3000000000dc\n", -1);
	ck_assert(has(x, CITE_P_UNKNOWN));
	expect_target(x, 2, "Fixes: 3000000000cc");
	/* swapped, with the subject */
	x = check1("Fixes: 300000000c0c (\"the fix\")\n", -1);
	expect_target(x, 2, "Fixes: 3000000000cc (\"the fix\")");
	/* a full ID, its last char changed: full length kept */
	x = check1("Fixes: 3000000000cc0000000000000000000000000001 (\"the fix\")\n", -1);
	expect_target(x, 2, "Fixes: 3000000000cc0000000000000000000000000000 (\"the fix\")");
	/* off a commit only a pull request's ref reaches, no subject: not suggested */
	x = check1("Fixes: 5000000000ef\n", -1);
	ck_assert(has(x, CITE_P_UNKNOWN));
	ck_assert_int_eq(x->suggest, 0);
	/* two chars off (3000000000cc) and more from the rest: no typo */
	x = check1("Fixes: 3000000000ab\n", -1);
	ck_assert_int_eq(x->suggest, 0);
	/* a bare ID in prose one char off is a reference, with the commit meant */
	x = check1("Follow-up to 2000000000bb0000000000000000000000000010.\n", -1);
	ck_assert(has(x, CITE_P_UNKNOWN));
	ck_assert_int_eq(x->suggest, 1);
	ck_assert_int_eq(memcmp(x->target.id, F.raw[1], 20), 0);
}
END_TEST

Suite *make_resolve_suite(void)
{
	Suite *s = suite_create("resolve");
	TCase *parser = tcase_create("commit parser");
	TCase *core = tcase_create("core");
	TCase *batch = tcase_create("core, the index read in the source's order");

	tcase_add_test(parser, test_commit_time);
	tcase_add_test(parser, test_commit_subject);
	tcase_add_test(parser, test_commit_parents);
	tcase_add_test(parser, test_commit_head_complete);
	tcase_add_checked_fixture(core, setup, teardown);
	tcase_add_test(core, test_resolve_right);
	tcase_add_test(core, test_resolve_repeated);
	tcase_add_test(core, test_resolve_unknown);
	tcase_add_test(core, test_resolve_ambiguous);
	tcase_add_test(core, test_resolve_subject);
	tcase_add_test(core, test_resolve_subject_elsewhere);
	tcase_add_test(core, test_resolve_types);
	tcase_add_test(core, test_resolve_ancestry);
	tcase_add_test(core, test_resolve_layout);
	tcase_add_test(core, test_resolve_not_here);
	tcase_add_test(core, test_resolve_subject_search);
	tcase_add_test(core, test_resolve_typo);
	tcase_add_checked_fixture(batch, setup_batch, teardown);
	tcase_add_test(batch, test_resolve_batch);
	tcase_add_test(batch, test_resolve_right);
	tcase_add_test(batch, test_resolve_unknown);
	tcase_add_test(batch, test_resolve_ambiguous);
	tcase_add_test(batch, test_resolve_subject);
	tcase_add_test(batch, test_resolve_types);
	tcase_add_test(batch, test_resolve_ancestry);
	tcase_add_test(batch, test_resolve_layout);
	tcase_add_test(batch, test_resolve_not_here);
	suite_add_tcase(s, parser);
	suite_add_tcase(s, core);
	suite_add_tcase(s, batch);
	return s;
}
