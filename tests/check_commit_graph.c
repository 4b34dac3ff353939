/*
 * check_commit_graph.c - unit tests of reading git's commit-graph file
 * (commit_graph.h): committer times, parents, ancestry and marks from the
 * file git writes, the same ancestry from a graph built from parents, and
 * a file cut short or damaged anywhere in its head never read out of
 * bounds (the suite runs under ASan in CI).
 *
 * The repository is made here by git (fast-import: a main line with
 * merges of a side branch, a second root merged in, and commits with
 * equal times), and git is the oracle: `git log --all --format='%H %ct
 * %P'` for times and parents, `git rev-list <commit>` for what is an
 * ancestor of what.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "commit_graph.h"

#define RAW 20
#define NMAIN 300
#define NSIDE 60
#define NROOT 20
#define ALL (NMAIN + NSIDE + NROOT)

static char tmpdir[64];
static char objdir[128];

static void sh(const char *script)
{
	char cmd[4096];

	snprintf(cmd, sizeof(cmd), "cd '%s' && %s", tmpdir, script);
	ck_assert_msg(system(cmd) == 0, "failed: %s", cmd);
}

/*
 * main: NMAIN commits, every 15th a merge of the side branch's newest
 * commit so far; side: NSIDE commits from main's 10th; a second root
 * (NROOT commits) merged into main's last.  Every 4th main commit has
 * its predecessor's time (equal times); the side's clock runs behind.
 */
static void setup(void)
{
	strcpy(tmpdir, "/tmp/check-cgraph.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
	snprintf(objdir, sizeof(objdir), "%s/r/.git/objects", tmpdir);
	sh("git init -q r && cd r && \"${PYTHON3:-python3}\" -c '"
	   "import sys\n"
	   "out = sys.stdout.write\n"
	   "def c(ref, mark, t, frm, merge, msg):\n"
	   "  out(\"commit %s\\nmark :%d\\ncommitter T <t@t> %d +0000\\ndata %d\\n%s\" % (ref, mark, t, len(msg), msg))\n"
	   "  if frm: out(\"from :%d\\n\" % frm)\n"
	   "  if merge: out(\"merge :%d\\n\" % merge)\n"
	   "  out(\"\\n\")\n"
	   "t = 1112911993\n"
	   "side = 0\n"
	   "for i in range(1, 301):\n"
	   "  if i == 11:\n"
	   "    for k in range(60):\n"
	   "      c(\"refs/heads/side\", 1000 + k, 1000000000 + k, 10 if k == 0 else 999 + k, 0, \"side %d\\n\" % k)\n"
	   "  t += 0 if i % 4 == 0 else 60\n"
	   "  merge = 1000 + min(59, (i - 11) // 3) if i > 11 and i % 15 == 0 else 0\n"
	   "  last = i == 300\n"
	   "  if last:\n"
	   "    for k in range(20):\n"
	   "      c(\"refs/heads/other\", 2000 + k, 1100000000 + 7 * k, 0 if k == 0 else 1999 + k, 0, \"other %d\\n\" % k)\n"
	   "  c(\"refs/heads/main\", i, t, i - 1, merge, \"main %d\\n\" % i)\n"
	   "c(\"refs/heads/main\", 3000, t + 60, 300, 2019, \"merge other\\n\")\n"
	   "' | " GIT_FAST_IMPORT " --quiet && git commit-graph write --reachable 2>/dev/null && "
	   "test -f .git/objects/info/commit-graph");
}

static void teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	ck_assert_int_eq(system(cmd), 0);
}

static int hexval(int c)
{
	return c <= '9' ? c - '0' : c - 'a' + 10;
}

/* 40 hex chars to raw bytes, independently of hexid.c. */
static void raw_of(unsigned char *out, const char *hex)
{
	for (int i = 0; i < RAW; i++)
		out[i] = (unsigned char)(hexval(hex[2 * i]) << 4 | hexval(hex[2 * i + 1]));
}

typedef struct {
	unsigned char id[RAW];
	long long time;
	int np;
	unsigned char parents[2][RAW];
} truth;

static truth want[ALL + 1];
static size_t nwant;

static int cmp_truth(const void *a, const void *b)
{
	return memcmp(((const truth *)a)->id, ((const truth *)b)->id, RAW);
}

static size_t find(const unsigned char *id)
{
	for (size_t i = 0; i < nwant; i++)
		if (!memcmp(want[i].id, id, RAW))
			return i;
	return SIZE_MAX;
}

/* git log --all: every commit, sorted by ID. */
static void read_truth(void)
{
	char cmd[256], line[256];
	FILE *f;

	nwant = 0;
	snprintf(cmd, sizeof(cmd), "cd '%s/r' && git log --all --format='%%H %%ct %%P'", tmpdir);
	ck_assert_ptr_nonnull(f = popen(cmd, "r"));
	while (fgets(line, sizeof(line), f)) {
		truth *t = &want[nwant++];
		char *p = line + 2 * RAW;

		ck_assert_uint_le(nwant, ALL + 1);
		raw_of(t->id, line);
		t->time = strtoll(p, &p, 10);
		t->np = 0;
		while (*p == ' ' && p[1] != '\n' && p[1]) {
			ck_assert_int_lt(t->np, 2);
			raw_of(t->parents[t->np++], p + 1);
			p += 1 + 2 * RAW;
		}
	}
	ck_assert_int_eq(pclose(f), 0);
	ck_assert_uint_eq(nwant, ALL + 1);
	qsort(want, nwant, sizeof(*want), cmp_truth);
}

/* in[i] = 1 when want[i] is listed by `git rev-list <want[of]>`. */
static void rev_list(size_t of, unsigned char *in)
{
	char cmd[256], line[128];
	FILE *f;

	memset(in, 0, nwant);
	snprintf(cmd, sizeof(cmd), "cd '%s/r' && git rev-list ", tmpdir);
	for (int i = 0; i < RAW; i++)
		snprintf(cmd + strlen(cmd), 3, "%02x", want[of].id[i]);
	ck_assert_ptr_nonnull(f = popen(cmd, "r"));
	while (fgets(line, sizeof(line), f)) {
		unsigned char id[RAW];
		size_t k;

		raw_of(id, line);
		ck_assert_uint_ne(k = find(id), SIZE_MAX);
		in[k] = 1;
	}
	ck_assert_int_eq(pclose(f), 0);
}

START_TEST(test_times_and_parents)
{
	commit_graph *g = NULL;
	unsigned char ids[(ALL + 1) * RAW], found[ALL + 1] = { 0 };
	int64_t times[ALL + 1];

	read_truth();
	ck_assert_int_eq(commit_graph_open(&g, objdir, RAW), 0);
	ck_assert_ptr_nonnull(g);
	for (size_t i = 0; i < nwant; i++) {
		unsigned char par[4 * RAW];
		int64_t t = -1;
		int n = commit_graph_parents(g, want[i].id, &t, par, 4);

		ck_assert_int_eq(n, want[i].np);
		ck_assert_int_eq(t, want[i].time);
		for (int k = 0; k < n; k++)
			ck_assert_mem_eq(par + k * RAW, want[i].parents[k], RAW);
		memcpy(ids + i * RAW, want[i].id, RAW);
	}
	/* an ID the file lacks */
	{
		unsigned char none[RAW], par[RAW];
		int64_t t;

		memset(none, 0xee, RAW);
		ck_assert_int_eq(commit_graph_parents(g, none, &t, par, 1), -1);
		ck_assert_int_eq(commit_graph_marked(g, none), -1);
		ck_assert_int_eq(commit_graph_is_ancestor(g, none, want[0].id), -1);
	}
	commit_graph_close(g);
	ck_assert_uint_eq(commit_graph_times(objdir, RAW, ids, nwant, times, found), nwant);
	for (size_t i = 0; i < nwant; i++) {
		ck_assert_int_eq(found[i], 1);
		ck_assert_int_eq(times[i], want[i].time);
	}
	/* another hash size: no usable file, nothing found */
	memset(found, 0, sizeof(found));
	ck_assert_uint_eq(commit_graph_times(objdir, 32, ids, nwant / 2, times, found), 0);
}
END_TEST

/*
 * Every (anc, of) pair against git rev-list, for a sample of `of`; and
 * the marks, which add up over the tips marked (a union).
 */
static void check_ancestry(commit_graph *g, int marks)
{
	unsigned char *in = malloc(nwant), *marked = calloc(nwant, 1);

	ck_assert_ptr_nonnull(in);
	ck_assert_ptr_nonnull(marked);
	for (size_t of = 0; of < nwant; of += 13) {
		rev_list(of, in);
		for (size_t a = 0; a < nwant; a++)
			ck_assert_msg(commit_graph_is_ancestor(g, want[a].id, want[of].id) ==
					      (in[a] && a != of),
				      "is_ancestor(%zu, %zu)", a, of);
		if (!marks)
			continue;
		ck_assert_int_eq(commit_graph_mark(g, want[of].id), 0);
		for (size_t a = 0; a < nwant; a++) {
			marked[a] |= in[a];
			ck_assert_int_eq(commit_graph_marked(g, want[a].id), marked[a]);
		}
	}
	free(in);
	free(marked);
}

START_TEST(test_ancestry_from_file)
{
	commit_graph *g = NULL;

	read_truth();
	ck_assert_int_eq(commit_graph_open(&g, objdir, RAW), 0);
	ck_assert_ptr_nonnull(g);
	check_ancestry(g, 1);
	commit_graph_close(g);
}
END_TEST

/* The parents as positions in ID order, for commit_graph_build(). */
static void positions(uint32_t *pstart, uint32_t *plist)
{
	uint32_t np = 0;

	for (size_t i = 0; i < nwant; i++) {
		pstart[i] = np;
		for (int k = 0; k < want[i].np; k++) {
			size_t p = find(want[i].parents[k]);

			ck_assert_uint_ne(p, SIZE_MAX);
			plist[np++] = (uint32_t)p;
		}
	}
	pstart[nwant] = np;
}

START_TEST(test_ancestry_built)
{
	unsigned char ids[(ALL + 1) * RAW];
	uint32_t pstart[ALL + 2], plist[2 * (ALL + 1)];
	commit_graph *g = NULL;

	read_truth();
	for (size_t i = 0; i < nwant; i++)
		memcpy(ids + i * RAW, want[i].id, RAW);
	positions(pstart, plist);
	ck_assert_int_eq(commit_graph_build(&g, RAW, ids, (uint32_t)nwant, pstart, plist), 0);
	ck_assert_ptr_nonnull(g);
	check_ancestry(g, 1);
	/* a built graph has no times: parents are the caller's to read */
	{
		unsigned char par[2 * RAW];
		int64_t t;

		ck_assert_int_eq(commit_graph_parents(g, want[0].id, &t, par, 2), -1);
	}
	commit_graph_close(g);

	/* a position out of range, and a cycle: no graph, not a crash */
	{
		uint32_t saved = plist[0];

		plist[0] = (uint32_t)nwant;
		ck_assert_int_eq(commit_graph_build(&g, RAW, ids, (uint32_t)nwant, pstart, plist), 0);
		ck_assert_ptr_null(g);
		plist[0] = saved;
	}
	for (size_t i = 0; i < nwant; i++) {
		if (pstart[i + 1] == pstart[i])
			continue;
		/* i's first parent p gets i as its parent: i -> p -> i */
		size_t p = plist[pstart[i]];
		uint32_t ps2[ALL + 2], pl2[2 * (ALL + 1) + 1], n = 0;

		for (size_t k = 0; k < nwant; k++) {
			ps2[k] = n;
			for (uint32_t j = pstart[k]; j < pstart[k + 1]; j++)
				pl2[n++] = plist[j];
			if (k == p)
				pl2[n++] = (uint32_t)i;
		}
		ps2[nwant] = n;
		ck_assert_int_eq(commit_graph_build(&g, RAW, ids, (uint32_t)nwant, ps2, pl2), 0);
		ck_assert_ptr_null(g);
		break;
	}
}
END_TEST

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf;
	long n;

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	rewind(f);
	ck_assert_ptr_nonnull(buf = malloc((size_t)n));
	ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static void spit(const char *path, const unsigned char *buf, size_t len)
{
	FILE *f = fopen(path, "wb");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(buf, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
}

/* Whatever the file says, every answer is one of the documented values. */
static void use_damaged(void)
{
	commit_graph *g = NULL;
	unsigned char ids[4 * RAW], found[4] = { 0 }, par[4 * RAW];
	int64_t times[4], t;

	ck_assert_int_eq(commit_graph_open(&g, objdir, RAW), 0);
	if (g) {
		for (size_t i = 0; i < nwant; i += 37) {
			int r = commit_graph_is_ancestor(g, want[i].id, want[nwant - 1 - i].id);

			ck_assert(r >= -1 && r <= 1);
			r = commit_graph_parents(g, want[i].id, &t, par, 4);
			ck_assert(r >= -1 && r <= 4);
		}
		ck_assert(commit_graph_mark(g, want[nwant / 2].id) >= -1);
		commit_graph_close(g);
	}
	for (int i = 0; i < 4; i++)
		memcpy(ids + i * RAW, want[i * (nwant / 4)].id, RAW);
	ck_assert_uint_le(commit_graph_times(objdir, RAW, ids, 4, times, found), 4);
}

START_TEST(test_damaged_file)
{
	char path[192];
	unsigned char *good, *bad;
	size_t len, head;

	read_truth();
	snprintf(path, sizeof(path), "%s/info/commit-graph", objdir);
	good = slurp(path, &len);
	ck_assert_uint_gt(len, 8 + 12 * 4);
	ck_assert_ptr_nonnull(bad = malloc(len));
	head = 8 + 12 * ((size_t)good[6] + 1);
	ck_assert_uint_lt(head, len);
	/*
	 * cut short: each length of the head, each within 2 of a chunk's
	 * start or end (the table's offsets: where what the reader can see
	 * changes), and every 61st length between
	 */
	for (size_t cut = 0; cut < len; cut++) {
		int near = cut < 128 || cut % 61 == 0;

		for (size_t c = 0; !near && c <= good[6]; c++) {
			uint64_t off = 0;

			for (int k = 0; k < 8; k++)
				off = off << 8 | good[8 + 12 * c + 4 + k];
			near = cut + 2 >= off && cut <= off + 2;
		}
		if (!near)
			continue;
		spit(path, good, cut);
		use_damaged();
	}
	/* each byte of the header and the chunk table set to 0xff, then to 0 */
	for (size_t i = 0; i < head; i++)
		for (int v = 0; v < 2; v++) {
			memcpy(bad, good, len);
			bad[i] = v ? 0 : 0xff;
			spit(path, bad, len);
			use_damaged();
		}
	/* parent positions past the end in the commit data */
	memcpy(bad, good, len);
	for (size_t i = head; i + 4 <= len; i += 36)
		bad[i] = 0x7f;
	spit(path, bad, len);
	use_damaged();
	spit(path, good, len);
	free(good);
	free(bad);
}
END_TEST

Suite *make_commit_graph_suite(void)
{
	Suite *s = suite_create("commit_graph");
	TCase *tc = tcase_create("core");
	TCase *te = tcase_create("errors");

	/* made once for the three tests (in the runner): none writes to it */
	tcase_add_unchecked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_times_and_parents);
	tcase_add_test(tc, test_ancestry_from_file);
	tcase_add_test(tc, test_ancestry_built);
	suite_add_tcase(s, tc);
	tcase_add_checked_fixture(te, setup, teardown);
	tcase_set_timeout(te, 120);
	tcase_add_test(te, test_damaged_file);
	suite_add_tcase(s, te);
	return s;
}
