/*
 * check_commits.c - unit tests of reading every commit of the packs and
 * the loose ones (commits.h): subjects, times and parents, on two threads,
 * found from the entry headers or picked from a list, and the graph their
 * parents make; the tables made of them with commits read already, those
 * freed before the tables are built.
 *
 * The repository is made here by git (fast-import writes a pack of its
 * own each run; commit-tree writes loose commits), which is the oracle:
 * `git log --all` gives each commit's time, parents and subject, and
 * `git merge-base --is-ancestor` the ancestry.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "commit_tables.h"
#include "commits.h"
#include "hexid.h"
#include "subject_cache.h"

#define RAW 20
#define MAIN 4200 /* over the two-thread split (4096) */
#define SIDE 120
#define LOOSE 3
#define ALL (MAIN + SIDE + LOOSE)

static char tmpdir[64];

static void sh(const char *script)
{
	char cmd[2048];

	snprintf(cmd, sizeof(cmd), "cd '%s' && %s", tmpdir, script);
	ck_assert_msg(system(cmd) == 0, "failed: %s", cmd);
}

/*
 * Two packs: MAIN commits on main (every 40th a merge of a commit 25
 * back, every 7th a subject of two lines, git's %s joins them), SIDE on
 * a branch from main's 100th; then LOOSE loose commits on top of it.
 */
static void setup(void)
{
	strcpy(tmpdir, "/tmp/check-commits.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
	sh("git init -q r && cd r && \"${PYTHON3:-python3}\" -c '"
	   "import sys\n"
	   "def c(ref, i, t, frm, merge):\n"
	   "  m = (\"two  lines %d\\nof subject\\n\\nbody\\n\" % i) if i % 7 == 0 else (\"subject %d\\n\" % i)\n"
	   "  sys.stdout.write(\"commit %s\\nmark :%d\\ncommitter T <t@t> %d +0000\\ndata %d\\n%s\" % (ref, i, t, len(m), m))\n"
	   "  if frm: sys.stdout.write(\"from :%d\\n\" % frm)\n"
	   "  if merge: sys.stdout.write(\"merge :%d\\n\" % merge)\n"
	   "  sys.stdout.write(\"\\n\")\n"
	   "for i in range(1, " "4201" "):\n"
	   "  c(\"refs/heads/main\", i, 1112911993 + i, i - 1 if i > 1 else 0, i - 25 if i % 40 == 0 else 0)\n"
	   "sys.stdout.write(\"checkpoint\\n\")\n"
	   "' | " GIT_FAST_IMPORT " --quiet --export-marks=../marks && \"${PYTHON3:-python3}\" -c '"
	   "import sys\n"
	   "marks = dict(l.split() for l in open(\"../marks\"))\n"
	   "for k in range(120):\n"
	   "  i = 5000 + k\n"
	   "  m = \"side %d\\n\" % i\n"
	   "  frm = (\"from %s\\n\" % marks[\":100\"]) if k == 0 else (\"from :%d\\n\" % (i - 1))\n"
	   "  sys.stdout.write(\"commit refs/heads/side\\nmark :%d\\ncommitter T <t@t> %d -0700\\ndata %d\\n%s%s\\n\" % (i, 1212911993 + k, len(m), m, frm))\n"
	   "' | " GIT_FAST_IMPORT " --quiet && "
	   "p=$(git rev-parse side) && for i in 1 2 3; do "
	   "p=$(echo \"loose $i\" | GIT_COMMITTER_DATE=\"$((1312911993 + i)) +0000\" "
	   "GIT_COMMITTER_NAME=T GIT_COMMITTER_EMAIL=t@t GIT_AUTHOR_NAME=T GIT_AUTHOR_EMAIL=t@t "
	   "git commit-tree -p $p $(git rev-parse side^{tree})); done && git update-ref refs/heads/loose $p && "
	   "test $(ls .git/objects/pack/*.pack | wc -l) = 2");
}

static void teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	ck_assert_int_eq(system(cmd), 0);
}

/* What git says of one commit. */
typedef struct {
	unsigned char id[RAW];
	long long time;
	int np;
	unsigned char parents[2][RAW];
	char subject[64];
	int seen;
} truth;

static truth want[ALL];

static int cmp_truth(const void *a, const void *b)
{
	return memcmp(((const truth *)a)->id, ((const truth *)b)->id, RAW);
}

/* git log --all: every commit, sorted by ID. */
static void read_truth(void)
{
	char cmd[256], line[512];
	FILE *f;
	size_t n = 0;

	snprintf(cmd, sizeof(cmd), "cd '%s/r' && git log --all --format='%%H %%ct %%P|%%s'", tmpdir);
	ck_assert_ptr_nonnull(f = popen(cmd, "r"));
	while (fgets(line, sizeof(line), f)) {
		char *bar = strchr(line, '|'), *p = line + 2 * RAW;
		truth *t = &want[n++];

		ck_assert_ptr_nonnull(bar);
		ck_assert_uint_le(n, ALL);
		*bar = '\0';
		bar[strcspn(bar + 1, "\n") + 1] = '\0';
		snprintf(t->subject, sizeof(t->subject), "%s", bar + 1);
		ck_assert_int_eq(hexid_parse_prefix(t->id, RAW, line, 2 * RAW), 0);
		t->time = strtoll(p, &p, 10);
		t->np = 0;
		t->seen = 0;
		while (*p == ' ' && p[1]) {
			ck_assert_int_lt(t->np, 2);
			ck_assert_int_eq(hexid_parse_prefix(t->parents[t->np++], RAW, p + 1, 2 * RAW), 0);
			p += 1 + 2 * RAW;
		}
	}
	ck_assert_int_eq(pclose(f), 0);
	ck_assert_uint_eq(n, ALL);
	qsort(want, n, sizeof(*want), cmp_truth);
}

/* The other reader: git cat-file, into a buffer freed by release(). */
static int other_calls;

static int other_read(void *ctx, const commits_job *j, int packed, const char **d, size_t *len,
		      void **hold)
{
	char hex[2 * RAW + 1], cmd[256];
	char *buf = malloc(1 << 16);
	FILE *f;

	(void)ctx;
	(void)packed;
	other_calls++;
	ck_assert_ptr_nonnull(buf);
	hexid_fmt(hex, j->id, RAW);
	snprintf(cmd, sizeof(cmd), "cd '%s/r' && git cat-file commit %s", tmpdir, hex);
	ck_assert_ptr_nonnull(f = popen(cmd, "r"));
	*len = fread(buf, 1, (1 << 16) - 1, f);
	buf[*len] = '\0';
	ck_assert_int_eq(pclose(f), 0);
	*d = buf;
	*hold = buf;
	return 1;
}

static void other_release(void *ctx, void *hold)
{
	(void)ctx;
	free(hold);
}

static objread *open_reader(void)
{
	char dir[128], err[512];
	objread *r;

	snprintf(dir, sizeof(dir), "%s/r/.git/objects", tmpdir);
	ck_assert_int_eq(objread_new(&r, dir, RAW, err, sizeof(err)), 0);
	return r;
}

/* Every job read as git says, each commit once: returns how many jobs. */
static size_t check_read(commits *c)
{
	size_t n = commits_count(c);

	for (size_t i = 0; i < ALL; i++)
		want[i].seen = 0;
	for (size_t j = 0; j < n; j++) {
		const commits_job *jb;
		const char *subject;
		int64_t time;
		truth key, *t;

		ck_assert_int_eq(commits_get(c, j, &jb, &subject, &time), 1);
		memcpy(key.id, jb->id, RAW);
		t = bsearch(&key, want, ALL, sizeof(*want), cmp_truth);
		ck_assert_ptr_nonnull(t);
		ck_assert_int_eq(t->seen, 0);
		t->seen = 1;
		ck_assert_str_eq(subject, t->subject);
		ck_assert_int_eq(time, t->time);
	}
	for (size_t i = 0; i < ALL; i++)
		ck_assert_int_eq(want[i].seen, 1);
	return n;
}

/* Whether git says a is an ancestor of b. */
static int git_is_ancestor(const unsigned char *a, const unsigned char *b)
{
	char ha[2 * RAW + 1], hb[2 * RAW + 1], cmd[256];

	hexid_fmt(ha, a, RAW);
	hexid_fmt(hb, b, RAW);
	snprintf(cmd, sizeof(cmd), "cd '%s/r' && git merge-base --is-ancestor %s %s", tmpdir, ha, hb);
	return system(cmd) == 0;
}

/*
 * The graph of the commits read (their subjects dropped), in which each
 * parent git lists is an ancestor (a graph built from parents keeps no list).
 */
static commit_graph *graph_of(commits *c)
{
	commit_graph *g = NULL;

	commits_drop_text(c);
	ck_assert_int_eq(commits_graph(c, &g), 0);
	ck_assert_ptr_nonnull(g);
	for (size_t i = 0; i < ALL; i++)
		for (int k = 0; k < want[i].np; k++)
			ck_assert_int_eq(commit_graph_is_ancestor(g, want[i].parents[k], want[i].id), 1);
	return g;
}

START_TEST(test_scan_read_graph)
{
	objread *rd = open_reader();
	commits_other other = { other_read, other_release, NULL };
	unsigned char *loose = NULL;
	size_t nloose = 0;
	commit_graph *g = NULL;
	commits *c;

	read_truth();
	ck_assert_uint_eq(objread_npacks(rd), 2);
	ck_assert_int_eq(commits_new(&c, rd, RAW), 0);
	for (uint32_t k = 0; k < objread_npacks(rd); k++)
		ck_assert_int_eq(commits_scan(c, k), 0);
	ck_assert_uint_eq(commits_count(c), MAIN + SIDE);
	ck_assert_int_eq(objread_loose_commits(rd, &loose, &nloose), 0);
	ck_assert_uint_eq(nloose, LOOSE);
	ck_assert_int_eq(commits_add_loose(c, loose, nloose), 0);
	other_calls = 0;
	ck_assert_int_eq(commits_read(c, 1, &other, NULL), 0);
	ck_assert_int_eq(other_calls, LOOSE); /* the packs give the rest */
	ck_assert_uint_eq(check_read(c), ALL);
	ck_assert_int_eq(commits_whole(c), 1);
	g = graph_of(c);
	for (size_t i = 0; i < 24; i++) {
		const unsigned char *a = want[(i * 977) % ALL].id, *b = want[(i * 3571 + 5) % ALL].id;

		ck_assert_int_eq(commit_graph_is_ancestor(g, a, b), git_is_ancestor(a, b));
	}
	commit_graph_close(g);
	commits_free(c);
	free(loose);
	objread_free(rd);
}
END_TEST

/*
 * The jobs from the types the walker keeps (by .idx position): the ones
 * the scan of the entry headers adds, in the same (pack) order.
 */
START_TEST(test_scan_types)
{
	objread *rd = open_reader();
	commits *a, *b;

	ck_assert_int_eq(commits_new(&a, rd, RAW), 0);
	ck_assert_int_eq(commits_new(&b, rd, RAW), 0);
	for (uint32_t p = 0; p < objread_npacks(rd); p++) {
		const unsigned char *sum, *ids;
		unsigned char *types;
		uint32_t n, *pos;
		uint64_t *off;
		size_t k, stride;
		char err[512];

		objread_pack(rd, p, &sum, &n, &ids, &stride);
		ck_assert_int_eq(objread_pack_commits(rd, p, &pos, &off, &k, err, sizeof(err)), 0);
		ck_assert_ptr_nonnull(types = malloc(n));
		memset(types, 2, n); /* trees, but the commits */
		for (size_t i = 0; i < k; i++)
			types[pos[i]] = 1;
		ck_assert_int_eq(commits_scan(a, p), 0);
		ck_assert_int_eq(commits_scan_types(b, p, types), 0);
		free(types);
		free(pos);
		free(off);
	}
	ck_assert_uint_eq(commits_count(a), MAIN + SIDE);
	ck_assert_uint_eq(commits_count(b), MAIN + SIDE);
	for (size_t j = 0; j < commits_count(a); j++) {
		const commits_job *ja, *jb;
		const char *s;
		int64_t t;

		(void)commits_get(a, j, &ja, &s, &t);
		(void)commits_get(b, j, &jb, &s, &t);
		ck_assert_ptr_eq(ja->id, jb->id);
		ck_assert_uint_eq(ja->off, jb->off);
		ck_assert_uint_eq(ja->pack, jb->pack);
		ck_assert_uint_eq(ja->pos, jb->pos);
	}
	commits_free(a);
	commits_free(b);
	objread_free(rd);
}
END_TEST

/* Picked from the list of every commit: the same jobs as the scan, in pack order. */
START_TEST(test_pick)
{
	objread *rd = open_reader();
	commits_other other = { other_read, other_release, NULL };
	unsigned char *all = malloc(ALL * RAW);
	commits *c;
	uint64_t last = 0;

	read_truth();
	ck_assert_ptr_nonnull(all);
	for (size_t i = 0; i < ALL; i++)
		memcpy(all + i * RAW, want[i].id, RAW);
	ck_assert_int_eq(commits_new(&c, rd, RAW), 0);
	ck_assert_int_eq(commits_scan(c, 0), 0);
	commits_restart(c);
	ck_assert_uint_eq(commits_count(c), 0);
	for (uint32_t k = 0; k < objread_npacks(rd); k++)
		ck_assert_int_eq(commits_pick(c, k, all, ALL), 0);
	ck_assert_uint_eq(commits_count(c), MAIN + SIDE);
	for (size_t j = 1; j < commits_count(c); j++) {
		const commits_job *a, *b;
		const char *s;
		int64_t t;

		commits_get(c, j - 1, &a, &s, &t);
		commits_get(c, j, &b, &s, &t);
		ck_assert(a->pack < b->pack || (a->pack == b->pack && a->off < b->off));
		last = b->off;
	}
	ck_assert_uint_gt(last, 0);
	/* the loose ones (no pack holds them) read by the other reader */
	{
		unsigned char *loose = NULL;
		size_t nloose = 0;

		ck_assert_int_eq(objread_loose_commits(rd, &loose, &nloose), 0);
		ck_assert_int_eq(commits_add_loose(c, loose, nloose), 0);
		/* without parents: no graph */
		ck_assert_int_eq(commits_read(c, 0, &other, NULL), 0);
		ck_assert_uint_eq(check_read(c), ALL);
		ck_assert_int_eq(commits_whole(c), 0);
		commits_free(c);
		free(loose);
	}
	free(all);
	objread_free(rd);
}
END_TEST

/*
 * Commits known already (verify's --range walk read them): taken, not read
 * again.  Every other packed job is known from its own bytes, the first
 * one with its subject changed (so that it shows it was taken from there);
 * the tables and the graph come out as git says all the same.
 */
START_TEST(test_known)
{
	objread *rd = open_reader();
	commits_other other = { other_read, other_release, NULL };
	unsigned char *loose = NULL;
	size_t nloose = 0, n, nknown = 0;
	commits_known *k;
	const commits_job *jb;
	const char *subject;
	int64_t time;
	commits *c;

	read_truth();
	ck_assert_int_eq(commits_new(&c, rd, RAW), 0);
	for (uint32_t p = 0; p < objread_npacks(rd); p++)
		ck_assert_int_eq(commits_scan(c, p), 0);
	n = commits_count(c);
	ck_assert_uint_eq(n, MAIN + SIDE);
	ck_assert_int_eq(commits_known_new(&k, RAW), 0);
	for (size_t j = 0; j < n; j += 2) {
		const unsigned char *b;
		size_t len;
		int type;

		(void)commits_get(c, j, &jb, &subject, &time);
		ck_assert_int_eq(objread_read_at(rd, jb->pack, jb->off, &type, &b, &len), 1);
		if (j == 0) { /* its headers, then another subject */
			char fake[1024];
			const char *eoh = strstr((const char *)b, "\n\n");
			int m;

			ck_assert_ptr_nonnull(eoh);
			m = snprintf(fake, sizeof(fake), "%.*s\n\nknown  already\n", (int)(eoh - (const char *)b),
				     (const char *)b);
			ck_assert_int_eq(commits_known_add(k, jb->id, fake, (size_t)m), 0);
		} else {
			ck_assert_int_eq(commits_known_add(k, jb->id, (const char *)b, len), 0);
		}
		nknown++;
	}
	ck_assert_uint_eq(commits_known_count(k), nknown);
	/* known already: not added twice */
	(void)commits_get(c, 2, &jb, &subject, &time);
	ck_assert_int_eq(commits_known_add(k, jb->id, "tree x\n", 7), 0);
	ck_assert_uint_eq(commits_known_count(k), nknown);
	ck_assert_int_eq(objread_loose_commits(rd, &loose, &nloose), 0);
	ck_assert_int_eq(commits_add_loose(c, loose, nloose), 0);
	commits_use_known(c, k);
	other_calls = 0;
	ck_assert_int_eq(commits_read(c, 1, &other, NULL), 0);
	ck_assert_int_eq(other_calls, LOOSE);
	ck_assert_int_eq(commits_get(c, 0, &jb, &subject, &time), 1);
	ck_assert_str_eq(subject, "known  already");
	{ /* the rest as git says */
		truth key, *t;

		memcpy(key.id, jb->id, RAW);
		ck_assert_ptr_nonnull(t = bsearch(&key, want, ALL, sizeof(*want), cmp_truth));
		ck_assert_int_eq(time, t->time);
		snprintf(t->subject, sizeof(t->subject), "known  already");
	}
	ck_assert_uint_eq(check_read(c), ALL);
	ck_assert_int_eq(commits_whole(c), 1);
	commits_known_free(k); /* borrowed until commits_read() only */
	commit_graph_close(graph_of(c));
	commits_free(c);
	free(loose);
	objread_free(rd);
}
END_TEST

static int no_list(void *arg, const unsigned char **ids, size_t *n)
{
	(void)arg;
	*ids = NULL;
	*n = 0;
	return 0;
}

/*
 * commit_tables_get() given every other commit as verify's --range walk
 * read it, and told to drop them once read (drop_known): the set freed
 * there (o.known NULL after), every table the same bytes as the one made
 * with none known.
 */
START_TEST(test_tables_drop_known)
{
	objread *rd = open_reader();
	commits_other other = { other_read, other_release, NULL };
	uint32_t np = objread_npacks(rd);
	subject_table **a = calloc(np + 1, sizeof(*a)), **b = calloc(np + 1, sizeof(*b));
	unsigned char *loose = NULL;
	size_t nloose = 0, nknown = 0;
	commits *ca = NULL, *cb = NULL, *c;
	commits_known *k;
	commit_tables_opts o;

	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	ck_assert_int_eq(objread_loose_commits(rd, &loose, &nloose), 0);
	o = (commit_tables_opts){ .scan = 1, .commits_of = no_list, .other = &other,
				  .loose = loose, .nloose = nloose };
	ck_assert_int_eq(commit_tables_get(rd, RAW, &o, a, &ca), 0);
	ck_assert_int_eq(commits_new(&c, rd, RAW), 0);
	for (uint32_t p = 0; p < np; p++)
		ck_assert_int_eq(commits_scan(c, p), 0);
	ck_assert_int_eq(commits_known_new(&k, RAW), 0);
	for (size_t j = 0; j < commits_count(c); j += 2) {
		const commits_job *jb;
		const char *subject;
		const unsigned char *d;
		int64_t time;
		size_t len;
		int type;

		(void)commits_get(c, j, &jb, &subject, &time);
		ck_assert_int_eq(objread_read_at(rd, jb->pack, jb->off, &type, &d, &len), 1);
		ck_assert_int_eq(commits_known_add(k, jb->id, (const char *)d, len), 0);
		nknown++;
	}
	ck_assert_uint_gt(nknown, 1000);
	o.known = k;
	o.drop_known = 1;
	ck_assert_int_eq(commit_tables_get(rd, RAW, &o, b, &cb), 0);
	ck_assert_ptr_null(o.known); /* freed there: LeakSanitizer would tell otherwise */
	for (uint32_t t = 0; t <= np; t++) {
		const unsigned char *x, *y;
		size_t lx, ly;

		ck_assert_ptr_nonnull(a[t]);
		ck_assert_ptr_nonnull(b[t]);
		x = subject_table_bytes(a[t], &lx);
		y = subject_table_bytes(b[t], &ly);
		ck_assert_uint_eq(lx, ly);
		ck_assert(!memcmp(x, y, lx));
		subject_table_free(a[t]);
		subject_table_free(b[t]);
	}
	free(a);
	free(b);
	commits_free(c);
	commits_free(ca);
	commits_free(cb);
	free(loose);
	objread_free(rd);
}
END_TEST

/* Parents of hand-made IDs: a parent outside the set makes no graph. */
START_TEST(test_graph_of)
{
	unsigned char ids[3 * RAW] = { 0 }, pids[3 * RAW] = { 0 };
	uint32_t count[3] = { 0, 1, 2 }, first[3] = { 0, 0, 1 };
	commit_graph *g;

	ids[0] = 0x10;
	ids[RAW] = 0x20;
	ids[2 * RAW] = 0x30;
	pids[0] = 0x10;      /* 20's parent: 10 */
	pids[RAW] = 0x20;    /* 30's: 20 and 10 */
	pids[2 * RAW] = 0x10;
	ck_assert_int_eq(commits_graph_of(&g, RAW, ids, 3, count, first, pids, 3), 0);
	ck_assert_ptr_nonnull(g);
	ck_assert_int_eq(commit_graph_is_ancestor(g, ids, ids + 2 * RAW), 1);
	ck_assert_int_eq(commit_graph_is_ancestor(g, ids + 2 * RAW, ids), 0);
	commit_graph_close(g);
	pids[2 * RAW] = 0x40; /* not among them */
	ck_assert_int_eq(commits_graph_of(&g, RAW, ids, 3, count, first, pids, 3), 0);
	ck_assert_ptr_null(g);
	ck_assert_int_eq(commits_graph_of(&g, RAW, ids, 0, count, first, pids, 0), 0);
	ck_assert_ptr_null(g);
}
END_TEST

Suite *make_commits_suite(void)
{
	Suite *s = suite_create("commits");
	TCase *tc = tcase_create("packs");
	TCase *tg = tcase_create("graph");

	/* made once for both tests (in the runner): neither writes to it */
	tcase_add_unchecked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_scan_read_graph);
	tcase_add_test(tc, test_pick);
	tcase_add_test(tc, test_scan_types);
	tcase_add_test(tc, test_known);
	tcase_add_test(tc, test_tables_drop_known);
	suite_add_tcase(s, tc);
	tcase_add_test(tg, test_graph_of);
	suite_add_tcase(s, tg);
	return s;
}
