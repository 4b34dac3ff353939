/*
 * check_range.c - the range walk (range_walk.h) over hand-made histories:
 * a table of commits (number, committer time, parents) behind a
 * range_source.  The orders expected are libgit2 1.5's revwalk with
 * GIT_SORT_TOPOLOGICAL | GIT_SORT_TIME, worked out by hand and seen in
 * libgit2 itself (an octopus of three commits of one time comes out
 * first, third, second: its binary heap, not arrival order).
 */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "check_suites.h"
#include "range_walk.h"

#define RAWSZ 20
#define MAXP 4

typedef struct {
	int64_t time;
	int np;
	unsigned char parents[MAXP];
} hand_commit;

/* Commit k (1..) has the ID k, 0, 0, ...; table[k] says what it is; time 0: none. */
typedef struct {
	const hand_commit *table;
	size_t n;
	unsigned char pbuf[MAXP * RAWSZ];
	int reads;
} hand_history;

static void id_of(unsigned char *id, unsigned k)
{
	memset(id, 0, RAWSZ);
	id[0] = (unsigned char)k;
}

static int hand_commit_read(void *ctx, const unsigned char *id, int64_t *time,
			    const unsigned char **parents, size_t *np, uint64_t *note, char *err,
			    size_t errsz)
{
	hand_history *h = ctx;
	unsigned k = id[0];

	h->reads++;
	if (k >= h->n || !h->table[k].time) {
		snprintf(err, errsz, "no commit %u", k);
		return -2;
	}
	for (int i = 0; i < h->table[k].np; i++)
		id_of(h->pbuf + (size_t)i * RAWSZ, h->table[k].parents[i]);
	*time = h->table[k].time;
	*parents = h->pbuf;
	*np = (size_t)h->table[k].np;
	*note = 100 + k;
	return 0;
}

/* Walk from tips (k, or -k for ^k), compare with want (0-ended); the walk's rc. */
static int walk_is(const hand_commit *table, size_t n, const int *tips, size_t ntips,
		   const unsigned *want)
{
	hand_history h = { table, n, { 0 }, 0 };
	range_source src = { &h, hand_commit_read };
	unsigned char ids[8][RAWSZ];
	range_tip t[8];
	range_list l;
	char err[64] = "";
	size_t i = 0;
	int rc;

	for (size_t k = 0; k < ntips; k++) {
		id_of(ids[k], (unsigned)(tips[k] < 0 ? -tips[k] : tips[k]));
		t[k] = (range_tip){ ids[k], tips[k] < 0 };
	}
	rc = range_walk(&l, &src, RAWSZ, t, ntips, err, sizeof(err));
	if (rc)
		return rc;
	for (; want[i]; i++) {
		ck_assert_msg(i < l.n, "only %zu commits, want more", l.n);
		ck_assert_msg(l.ids[i * RAWSZ] == want[i], "commit %zu is %u, want %u", i,
			      l.ids[i * RAWSZ], want[i]);
		ck_assert_msg(l.notes[i] == 100 + want[i], "the source's note of %u lost", want[i]);
	}
	ck_assert_msg(l.n == i, "%zu commits, want %zu", l.n, i);
	range_list_free(&l);
	return 0;
}

/*
 * 1 root (10); 2 (20) on it; 3 (30) and 4 (25) on 2; 5 (40) merges 3 and 4;
 * 6, 7, 8 (all 45) on 5; 9 (50) an octopus of 6, 7, 8; 10 (5) on 9,
 * older than its parent; 11 (60) a second root; 12 (70) merges 10 and 11.
 */
static const hand_commit history[] = {
	[1] = { 10, 0, { 0 } },
	[2] = { 20, 1, { 1 } },
	[3] = { 30, 1, { 2 } },
	[4] = { 25, 1, { 2 } },
	[5] = { 40, 2, { 3, 4 } },
	[6] = { 45, 1, { 5 } },
	[7] = { 45, 1, { 5 } },
	[8] = { 45, 1, { 5 } },
	[9] = { 50, 3, { 6, 7, 8 } },
	[10] = { 5, 1, { 9 } },
	[11] = { 60, 0, { 0 } },
	[12] = { 70, 2, { 10, 11 } },
};
#define NHIST (sizeof(history) / sizeof(history[0]))

START_TEST(test_range_order)
{
	/* the merge: the newer side first; the octopus: 6, 8, 7 (the heap's ties) */
	static const unsigned all[] = { 12, 11, 10, 9, 6, 8, 7, 5, 3, 4, 2, 1, 0 };
	static const unsigned from9[] = { 9, 6, 8, 7, 5, 3, 4, 2, 1, 0 };
	static const int t12[] = { 12 }, t9[] = { 9 };

	ck_assert_int_eq(walk_is(history, NHIST, t12, 1, all), 0);
	ck_assert_int_eq(walk_is(history, NHIST, t9, 1, from9), 0);
}
END_TEST

START_TEST(test_range_hidden)
{
	static const unsigned five_to_nine[] = { 9, 6, 8, 7, 0 };
	static const unsigned side[] = { 4, 0 };
	static const unsigned none[] = { 0 };
	static const int r59[] = { -5, 9 }, r34[] = { -3, 4 }, hide_first[] = { -9, 9 };
	static const int hide_after[] = { 9, -9 }, only_hidden[] = { -9 };
	/* both sides of the octopus and a second root: 5..12 */
	static const unsigned r512[] = { 12, 11, 10, 9, 6, 8, 7, 0 };
	static const int t512[] = { -5, 12 };

	ck_assert_int_eq(walk_is(history, NHIST, r59, 2, five_to_nine), 0);
	ck_assert_int_eq(walk_is(history, NHIST, r34, 2, side), 0);
	ck_assert_int_eq(walk_is(history, NHIST, t512, 2, r512), 0);
	/* ^9 9 and 9 ^9 list nothing, as git rev-list; so does ^9 alone */
	ck_assert_int_eq(walk_is(history, NHIST, hide_first, 2, none), 0);
	ck_assert_int_eq(walk_is(history, NHIST, hide_after, 2, none), 0);
	ck_assert_int_eq(walk_is(history, NHIST, only_hidden, 1, none), 0);
}
END_TEST

START_TEST(test_range_two_tips)
{
	/* 4 and 3 from one list: 3 is newer */
	static const unsigned both[] = { 3, 4, 2, 1, 0 };
	static const int t[] = { 4, 3 };

	ck_assert_int_eq(walk_is(history, NHIST, t, 2, both), 0);
}
END_TEST

START_TEST(test_range_unreadable)
{
	/* 2's parent 1 is missing: the walk stops with the source's message */
	hand_commit broken[NHIST];
	hand_history h = { broken, NHIST, { 0 }, 0 };
	range_source src = { &h, hand_commit_read };
	unsigned char id[RAWSZ];
	range_tip t = { id, 0 };
	range_list l = { 0 };
	char err[64] = "";

	memcpy(broken, history, sizeof(broken));
	broken[1].time = 0;
	id_of(id, 5);
	ck_assert_int_eq(range_walk(&l, &src, RAWSZ, &t, 1, err, sizeof(err)), -2);
	ck_assert_str_eq(err, "no commit 1");
	ck_assert_ptr_null(l.ids);
	ck_assert_uint_eq(l.n, 0);
	/* a hidden tip alone: nothing to list, and nothing is read */
	id_of(id, 1);
	t.hide = 1;
	ck_assert_int_eq(range_walk(&l, &src, RAWSZ, &t, 1, err, sizeof(err)), 0);
	ck_assert_uint_eq(l.n, 0);
}
END_TEST

START_TEST(test_range_reads_once)
{
	/* each commit read once, however many children reach it */
	hand_history h = { history, NHIST, { 0 }, 0 };
	range_source src = { &h, hand_commit_read };
	unsigned char id[RAWSZ];
	range_tip t = { id, 0 };
	range_list l;
	char err[64];

	id_of(id, 12);
	ck_assert_int_eq(range_walk(&l, &src, RAWSZ, &t, 1, err, sizeof(err)), 0);
	ck_assert_uint_eq(l.n, 12);
	ck_assert_int_eq(h.reads, 12);
	range_list_free(&l);
}
END_TEST

Suite *make_range_suite(void)
{
	Suite *s = suite_create("range");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_range_order);
	tcase_add_test(tc, test_range_hidden);
	tcase_add_test(tc, test_range_two_tips);
	tcase_add_test(tc, test_range_reads_once);
	suite_add_tcase(s, tc);
	tc = tcase_create("errors");
	tcase_add_test(tc, test_range_unreadable);
	suite_add_tcase(s, tc);
	return s;
}
