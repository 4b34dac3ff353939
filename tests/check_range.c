/*
 * check_range.c - the range walk (range_walk.h) over hand-made histories:
 * a table of commits (number, committer time, parents) behind a
 * range_source.  The orders expected are libgit2 1.5's revwalk with
 * GIT_SORT_TOPOLOGICAL | GIT_SORT_TIME, worked out by hand and seen in
 * libgit2 itself (an octopus of three commits of one time comes out
 * first, third, second: its binary heap, not arrival order); and the
 * graph of the history the walk read, which verify's ancestry and
 * "public" questions are answered from when there is no commit-graph file.
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
	int give_hints;       /* say where each parent is: 1000 + its number */
	uint64_t hbuf[MAXP];
	int hinted, misled;   /* reads with the right hint; with a wrong one */
} hand_history;

static void id_of(unsigned char *id, unsigned k)
{
	memset(id, 0, RAWSZ);
	id[0] = (unsigned char)k;
}

static int hand_commit_read(void *ctx, const unsigned char *id, uint64_t hint, int64_t *time,
			    const unsigned char **parents, const uint64_t **hints, size_t *np,
			    uint64_t *note, char *err, size_t errsz)
{
	hand_history *h = ctx;
	unsigned k = id[0];

	h->reads++;
	if (hint && hint == 1000 + (uint64_t)k)
		h->hinted++;
	else if (hint)
		h->misled++;
	if (k >= h->n || !h->table[k].time) {
		snprintf(err, errsz, "no commit %u", k);
		return -2;
	}
	for (int i = 0; i < h->table[k].np; i++) {
		id_of(h->pbuf + (size_t)i * RAWSZ, h->table[k].parents[i]);
		h->hbuf[i] = 1000 + (uint64_t)h->table[k].parents[i];
	}
	if (h->give_hints)
		*hints = h->hbuf;
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
	hand_history h = { table, n, { 0 }, 0, 0, { 0 }, 0, 0 };
	range_source src = { &h, hand_commit_read };
	unsigned char ids[8][RAWSZ];
	range_tip t[8];
	range_list l;
	char err[64] = "";
	size_t i = 0;
	int rc;

	for (size_t k = 0; k < ntips; k++) {
		id_of(ids[k], (unsigned)(tips[k] < 0 ? -tips[k] : tips[k]));
		t[k] = (range_tip){ ids[k], tips[k] < 0 ? RANGE_HIDE : RANGE_PUSH };
	}
	rc = range_walk(&l, NULL, &src, RAWSZ, t, ntips, err, sizeof(err));
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
	hand_history h = { broken, NHIST, { 0 }, 0, 0, { 0 }, 0, 0 };
	range_source src = { &h, hand_commit_read };
	unsigned char id[RAWSZ];
	range_tip t = { id, RANGE_PUSH };
	range_list l = { 0 };
	char err[64] = "";

	memcpy(broken, history, sizeof(broken));
	broken[1].time = 0;
	id_of(id, 5);
	ck_assert_int_eq(range_walk(&l, NULL, &src, RAWSZ, &t, 1, err, sizeof(err)), -2);
	ck_assert_str_eq(err, "no commit 1");
	ck_assert_ptr_null(l.ids);
	ck_assert_uint_eq(l.n, 0);
	/* a hidden tip alone: nothing to list, and nothing is read */
	id_of(id, 1);
	t.kind = RANGE_HIDE;
	ck_assert_int_eq(range_walk(&l, NULL, &src, RAWSZ, &t, 1, err, sizeof(err)), 0);
	ck_assert_uint_eq(l.n, 0);
}
END_TEST

START_TEST(test_range_reads_once)
{
	/*
	 * each commit read once, however many children reach it; a source
	 * that gives no hints gets none back
	 */
	hand_history h = { history, NHIST, { 0 }, 0, 0, { 0 }, 0, 0 };
	range_source src = { &h, hand_commit_read };
	unsigned char id[RAWSZ];
	range_tip t = { id, RANGE_PUSH };
	range_list l;
	char err[64];

	id_of(id, 12);
	ck_assert_int_eq(range_walk(&l, NULL, &src, RAWSZ, &t, 1, err, sizeof(err)), 0);
	ck_assert_uint_eq(l.n, 12);
	ck_assert_int_eq(h.reads, 12);
	ck_assert_int_eq(h.hinted + h.misled, 0);
	range_list_free(&l);
}
END_TEST

START_TEST(test_range_hints)
{
	/*
	 * each parent's hint from its first child comes back when it is
	 * read (a tip has none); test_range_reads_once: none without hints
	 */
	static const unsigned all[] = { 12, 11, 10, 9, 6, 8, 7, 5, 3, 4, 2, 1 };
	hand_history h = { history, NHIST, { 0 }, 0, 1, { 0 }, 0, 0 };
	range_source src = { &h, hand_commit_read };
	unsigned char id[RAWSZ];
	range_tip t = { id, RANGE_PUSH };
	range_list l;
	char err[64];

	id_of(id, 12);
	ck_assert_int_eq(range_walk(&l, NULL, &src, RAWSZ, &t, 1, err, sizeof(err)), 0);
	ck_assert_uint_eq(l.n, 12);
	for (size_t i = 0; i < 12; i++)
		ck_assert_uint_eq(l.ids[i * RAWSZ], all[i]);
	ck_assert_int_eq(h.reads, 12);
	ck_assert_int_eq(h.hinted, 11);
	ck_assert_int_eq(h.misled, 0);
	range_list_free(&l);
}
END_TEST

/* Position of commit k among the graph's IDs, or -1. */
static int graph_pos(const range_graph *g, unsigned k)
{
	for (uint32_t i = 0; i < g->n; i++)
		if (g->ids[(size_t)i * RAWSZ] == k)
			return (int)i;
	return -1;
}

START_TEST(test_range_graph)
{
	hand_history h = { history, NHIST, { 0 }, 0, 0, { 0 }, 0, 0 };
	range_source src = { &h, hand_commit_read };
	unsigned char id9[RAWSZ], id12[RAWSZ], id5[RAWSZ], id13[RAWSZ];
	range_tip t[2] = { { id9, RANGE_PUSH }, { id12, RANGE_READ } };
	range_graph g;
	range_list l;
	char err[64];
	int p12;

	id_of(id9, 9);
	id_of(id12, 12);
	id_of(id5, 5);
	id_of(id13, 13);
	/* from 9, and 12's history read on top: all twelve commits, 12 not listed */
	ck_assert_int_eq(range_walk(&l, &g, &src, RAWSZ, t, 2, err, sizeof(err)), 0);
	ck_assert_uint_eq(l.n, 9);
	ck_assert_uint_eq(g.n, 12);
	for (uint32_t i = 0; i < g.n; i++) {
		ck_assert_uint_eq(g.ids[(size_t)i * RAWSZ], i + 1); /* ascending */
		ck_assert_uint_eq(g.pstart[i + 1] - g.pstart[i], (unsigned)history[i + 1].np);
	}
	p12 = graph_pos(&g, 12);
	ck_assert_int_eq((int)g.plist[g.pstart[p12]], graph_pos(&g, 10));
	ck_assert_int_eq((int)g.plist[g.pstart[p12] + 1], graph_pos(&g, 11));
	range_list_free(&l);
	range_graph_free(&g);
	/* 5..9: the hidden side read down to the root here, so the graph is whole */
	t[0] = (range_tip){ id5, RANGE_HIDE };
	t[1] = (range_tip){ id9, RANGE_PUSH };
	ck_assert_int_eq(range_walk(&l, &g, &src, RAWSZ, t, 2, err, sizeof(err)), 0);
	ck_assert_uint_eq(l.n, 4);
	ck_assert_uint_eq(g.n, 9);
	range_list_free(&l);
	range_graph_free(&g);
	/* a tip to read that cannot be: the list stands, no graph */
	t[0] = (range_tip){ id9, RANGE_PUSH };
	t[1] = (range_tip){ id13, RANGE_READ };
	ck_assert_int_eq(range_walk(&l, &g, &src, RAWSZ, t, 2, err, sizeof(err)), 0);
	ck_assert_uint_eq(l.n, 9);
	ck_assert_uint_eq(g.n, 0);
	range_list_free(&l);
}
END_TEST

START_TEST(test_range_graph_short)
{
	/* a line of 30 commits: 20..30 stops SLOP commits below 20, no graph */
	hand_commit line[31];
	hand_history h = { line, 31, { 0 }, 0, 0, { 0 }, 0, 0 };
	range_source src = { &h, hand_commit_read };
	unsigned char id20[RAWSZ], id30[RAWSZ];
	range_tip t[2] = { { id20, RANGE_HIDE }, { id30, RANGE_PUSH } };
	range_graph g;
	range_list l;
	char err[64];

	memset(line, 0, sizeof(line));
	for (unsigned k = 1; k <= 30; k++)
		line[k] = (hand_commit){ 10 * k, k > 1, { (unsigned char)(k - 1) } };
	id_of(id20, 20);
	id_of(id30, 30);
	ck_assert_int_eq(range_walk(&l, &g, &src, RAWSZ, t, 2, err, sizeof(err)), 0);
	ck_assert_uint_eq(l.n, 10);
	ck_assert_uint_eq(g.n, 0);
	ck_assert_ptr_null(g.ids);
	ck_assert_int_lt(h.reads, 30); /* and the walk did not read down to the root */
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
	tcase_add_test(tc, test_range_hints);
	tcase_add_test(tc, test_range_graph);
	tcase_add_test(tc, test_range_graph_short);
	suite_add_tcase(s, tc);
	tc = tcase_create("errors");
	tcase_add_test(tc, test_range_unreadable);
	suite_add_tcase(s, tc);
	return s;
}
