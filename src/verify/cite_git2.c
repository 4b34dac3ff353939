/*
 * cite_git2.c - the commits verify reads, through libgit2.
 *
 * A commit's subject and time come from the packs themselves (objread.h:
 * mapped once, a delta base cache), or from git_odb_read() for a loose
 * commit or when the packs cannot be read that way, and the pure parser
 * of commit.h.  The subject index reads the commits of each pack that
 * has no cached table, found from the pack's entry headers (objread.h:
 * no walk of every object), in pack order, so each delta's base is still
 * in the cache: on two threads, each with a reader of its own and half of
 * the commits (git.git's 200k commits take 0.9 s of inflating), by
 * commits.h, which asks raw_commit() here only for what the packs cannot
 * give.  The
 * IDs asked about come from the object database's own index (the walker
 * listed them), so hashing each object
 * again on reading (libgit2's strict verification) is turned off while a
 * source exists, as the report's history does.  Ancestry comes from git's
 * commit-graph file when the repository has one that holds both commits
 * (commit_graph.h), else from a graph built of the parents the subject
 * index's tables hold (cached with them, so a warm run reads no commit
 * for them; built on the first question: most runs ask none) or by the
 * --range walk, else from git_graph_descendant_of(), which libgit2 1.5
 * answers by parsing commit after commit.  "Public"
 * (reachable from HEAD, a branch or a tag) is one walk from those tips on
 * the first question (the subject search asks only when several commits
 * share a subject): over the graph of the commits when there is one (the
 * file, the subject index's, or the --range walk's, which reads the tips'
 * history too), marking what they reach, else through libgit2, kept as a
 * sorted array of IDs: asking git_graph_reachable_from_any() each time
 * walked most of git.git's history per question, 150 ms each.
 *
 * --range: the walk is range_walk.c's, its commits' parents and times
 * from the commit-graph file or the packs; libgit2 parses the revisions.
 */
#include <config.h>

#include "cite_git2.h"

#include <errno.h>
#include <git2.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bigvec.h"
#include "cite_digest.h"
#include "commit.h"
#include "commit_graph.h"
#include "commit_notes.h"
#include "commit_tables.h"
#include "commits.h"
#include "grow.h"
#include "hexid.h"
#include "idbatch.h"
#include "objread.h"
#include "range_walk.h"
#include "tagobj.h"
#include "test_hooks.h"

/* sorted as records of their bytes (idbatch_sort_records()) */
_Static_assert(sizeof(git_oid) == GIT_OID_RAWSZ, "a git_oid is its raw bytes");

/* The commits beyond_graph() met: in order (its queue), and a hash set of them. */
typedef struct {
	unsigned char *ids;   /* n, the next to read at `next` */
	size_t n, next, cap;
	uint32_t *slot;       /* 1 + index in ids, 0: free; room for 2 * cap */
} beyond_seen;

/*
 * The commits out of rcg that beyond_graph() read, with their parents,
 * for all its calls: the lines of many pull requests run through the same
 * commits, read once.
 */
typedef struct {
	beyond_seen seen;     /* the commits (seen.next unused) */
	uint32_t *pstart;     /* commit i's parents: par[pstart[i] .. pstart[i + 1]) */
	unsigned char *par;   /* parent IDs */
	size_t npar, parcap, pcap;
	int full;             /* out of memory or BEYOND_CACHE_MAX: no more kept */
} beyond_cache;

struct cite_git2 {
	cite_source src;
	git_repository *repo;
	git_odb *odb;
	objread *rd;          /* NULL: every read through libgit2 */
	commit_graph *cg;     /* the commit-graph file's, or one built from the commits */
	commit_graph *rcg;    /* the whole history behind a --range, built from its walk */
	git_oid *rids;        /* the --range's commits, ascending (in_range) */
	size_t nrids;
	commit_buf subject;
	git_oid *tips;        /* HEAD, branches, tags, peeled to commits */
	size_t ntips, captips;
	int tips_read;        /* 1 read, -1 could not be */
	int tips_marked;      /* 1 marked in pubg (all they reach), -1 pubg cannot tell */
	commit_graph *pubg;   /* the graph marked: cg, else rcg */
	git_oid *pub;         /* without cg: the commits they reach, sorted */
	size_t npub, cappub;
	int pub_read;         /* 1 read, -1 could not be */
	char *cache_dir;      /* where the packs' subject tables are kept, or NULL */
	unsigned char *loose; /* the loose commits no pack holds, for the subject index */
	size_t nloose;
	int scan_packs;       /* a pack's commits from its entry headers, not from the walk's list */
	commits *pend;        /* the parents the subject index read: cg on first need */
	/*
	 * The commits the --range walk read whole from the packs, for the
	 * subject index (commit_tables_get()), which then does not inflate
	 * them again; none kept once it is made (known_done)
	 */
	commits_known *known;
	int known_done;
	parent_set tpar;      /* or those its tables hold (tpar.ids: some): cg on first need */
	double walk_cpu;      /* CPU seconds libgit2's ancestry walks took so far */
	size_t nwalks;        /* how many there were */
	size_t ncommits;      /* the subject index's commits, once it is made (0: not yet) */
	int parents_read;     /* every commit's parents read for cg (read_all_parents()) */
	beyond_cache bc;      /* beyond_graph()'s commits */
	int head_read;        /* 1 HEAD's commit in head, -1 none (unborn, unreadable) */
	git_oid head;
	/*
	 * Every pack's table from the cache, with its parents, when --range
	 * found all there (range_tables()): the walk reads the commits'
	 * parents and times from them, and the subject index takes them over
	 */
	subject_table **rtabs;
	/* for the walk: each table's commits' .idx positions (ascending) and times */
	uint32_t **rpos;
	int64_t **rtime;
	uint32_t **rrow;      /* and each table's row by .idx position (UINT32_MAX: none) */
};

typedef struct {
	uint32_t pack;
	uint32_t i;
	uint64_t off;
} located;

static int enough(const char *d, size_t n)
{
	return commit_head_complete(d, n);
}

/*
 * The raw commit `id` (at `at` in a pack, or NULL: look for it): 1 with
 * its bytes in *d, *len (with `at` and not `whole`, maybe only its first
 * bytes, as many as commit_head_complete() needs), 0 when no commit with
 * this ID can be read, -1 when out of memory.  *o is a libgit2 object to
 * free once the bytes are used (NULL when they came from the packs).
 */
static int raw_commit_at(cite_git2 *g, const unsigned char *id, const located *at, int whole,
			 const char **d, size_t *len, git_odb_object **o)
{
	const unsigned char *b;
	git_oid oid;
	int type, rc = 0;

	*o = NULL;
	/* one of all commits, in pack order: the headers and the subject are enough */
	if (g->rd)
		rc = !at ? objread_read(g->rd, id, &type, &b, len)
			: whole ? objread_read_at(g->rd, at->pack, at->off, &type, &b, len)
				: objread_read_head(g->rd, at->pack, at->off, enough, &type, &b, len);
	if (rc == 1) {
		*d = (const char *)b;
		return type == GIT_OBJECT_COMMIT;
	}
	if (rc == -1)
		return -1;
	/* loose, or an entry objread cannot rebuild: libgit2 has the last word */
	memcpy(oid.id, id, GIT_OID_RAWSZ);
	if (git_odb_read(o, g->odb, &oid) < 0) {
		*o = NULL;
		return 0;
	}
	if (git_odb_object_type(*o) != GIT_OBJECT_COMMIT) {
		git_odb_object_free(*o);
		*o = NULL;
		return 0;
	}
	*d = git_odb_object_data(*o);
	*len = git_odb_object_size(*o);
	return 1;
}

static int raw_commit(cite_git2 *g, const unsigned char *id, const located *at, const char **d,
		      size_t *len, git_odb_object **o)
{
	return raw_commit_at(g, id, at, 0, d, len, o);
}

/* Subject and time of the raw commit d[0..len) into g->subject: 1, or -1 (memory). */
static int parse_commit(cite_git2 *g, const char *d, size_t len, const char **subject,
			int64_t *time)
{
	*time = commit_time(d, len);
	if (commit_subject(d, len, &g->subject))
		return -1;
	*subject = g->subject.s;
	return 1;
}

/* The first line of the commit's subject: its bytes up to the first line break of its paragraph. */
static int git2_title_len(void *ctx, const unsigned char *id, size_t *out)
{
	cite_git2 *g = ctx;
	git_odb_object *o;
	const char *d;
	size_t len, i;
	int rc = raw_commit(g, id, NULL, &d, &len, &o);

	if (rc == 1) {
		for (i = commit_message_offset(d, len); i < len;) { /* blank lines before it */
			const char *nl = memchr(d + i, '\n', len - i);
			size_t e = nl ? (size_t)(nl - d) : len, t = e;

			while (t > i && (d[t - 1] == ' ' || d[t - 1] == '\t' || d[t - 1] == '\r' ||
					 d[t - 1] == '\f' || d[t - 1] == '\v'))
				t--;
			if (t > i) {
				*out = t - i;
				break;
			}
			*out = 0;
			i = e + 1;
		}
		if (i >= len)
			*out = 0;
	}
	git_odb_object_free(o);
	return rc;
}

static int git2_commit(void *ctx, const unsigned char *id, const char **subject, int64_t *time)
{
	cite_git2 *g = ctx;
	git_odb_object *o;
	const char *d;
	size_t len;
	int rc = raw_commit(g, id, NULL, &d, &len, &o);

	if (rc == 1)
		rc = parse_commit(g, d, len, subject, time);
	git_odb_object_free(o);
	return rc;
}

/*
 * The parents of every commit, while each_commit() reads them all, for a
 * repository without a commit-graph file: parent IDs in arrival order,
 * then positions in ID order for commit_graph_build().
 */
typedef struct {
	int ok;               /* every commit read and parsed so far */
	uint32_t *count;      /* parents of commit i, by ID position */
	uint32_t *first;      /* where commit i's parent IDs start in ids */
	unsigned char *ids;
	size_t nids, cap;
} parents_batch;

static int note_parents(parents_batch *pb, uint32_t i, const char *d, size_t len)
{
	int np;

	if (!pb->ok)
		return 0;
	for (;;) {
		size_t room = (pb->cap - pb->nids);

		np = commit_parents(d, len, GIT_OID_RAWSZ, pb->ids + pb->nids * GIT_OID_RAWSZ, room);
		if (np < 0) {
			pb->ok = 0; /* git could not walk it either: libgit2 answers */
			return 0;
		}
		if ((size_t)np <= room)
			break;
		size_t cap = 2 * pb->cap + (size_t)np;
		unsigned char *b = realloc(pb->ids, cap * GIT_OID_RAWSZ);

		if (!b)
			return -1;
		pb->ids = b;
		pb->cap = cap;
	}
	pb->first[i] = (uint32_t)pb->nids;
	pb->count[i] = (uint32_t)np;
	pb->nids += (size_t)np;
	return 0;
}

/*
 * The graph of all n commits ids[] from their parents: the ancestry
 * questions after the subject index are answered there.  A parent that
 * is not among the commits (a shallow or damaged repository) leaves them
 * to libgit2.  0 or -1 (memory).
 */
static int graph_from_parents(cite_git2 *g, parents_batch *pb, const unsigned char *ids,
			      size_t n)
{
	if (!pb->ok)
		return 0;
	return commits_graph_of(&g->cg, GIT_OID_RAWSZ, ids, n, pb->count, pb->first, pb->ids,
				pb->nids);
}

static int cmp_located(const void *pa, const void *pb)
{
	const located *a = pa, *b = pb;

	if (a->pack != b->pack)
		return a->pack < b->pack ? -1 : 1;
	if (a->off != b->off)
		return a->off < b->off ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

/* Read commit i (at `at`, or NULL) and hand it to fn; 0, or -1 / fn's return. */
static int each_one(cite_git2 *g, const unsigned char *ids, uint32_t i, const located *at,
		    parents_batch *pb,
		    int (*fn)(void *arg, size_t i, const char *subject, int64_t time), void *arg)
{
	git_odb_object *o;
	const char *d, *subject;
	size_t len;
	int64_t time;
	int rc = raw_commit(g, ids + (size_t)i * GIT_OID_RAWSZ, at, &d, &len, &o);

	if (rc == 1 && !(rc = note_parents(pb, i, d, len)) &&
	    (rc = parse_commit(g, d, len, &subject, &time)) == 1)
		rc = fn(arg, i, subject, time);
	else if (rc == 0)
		pb->ok = 0;
	git_odb_object_free(o);
	return rc;
}

/*
 * Every commit asked for, the packed ones in pack order, the others one
 * by one; without a commit-graph file, their parents make one.
 */
static int git2_each_commit(void *ctx, const unsigned char *ids, size_t n,
			    int (*fn)(void *arg, size_t i, const char *subject, int64_t time),
			    void *arg)
{
	cite_git2 *g = ctx;
	located *v = malloc((n ? n : 1) * sizeof(*v));
	parents_batch pb = { !g->cg && n < UINT32_MAX, NULL, NULL, NULL, 0, 0 };
	size_t nv = 0;
	int rc = -1;

	if (pb.ok) {
		pb.count = malloc((n ? n : 1) * sizeof(*pb.count));
		pb.first = malloc((n ? n : 1) * sizeof(*pb.first));
		if (!pb.count || !pb.first)
			goto done;
	}
	if (!v)
		goto done;
	for (size_t i = 0; i < n && i < UINT32_MAX; i++) {
		located *l = &v[nv];

		if (g->rd && objread_locate(g->rd, ids + i * GIT_OID_RAWSZ, &l->pack, &l->off)) {
			l->i = (uint32_t)i;
			nv++;
		} else if ((rc = each_one(g, ids, (uint32_t)i, NULL, &pb, fn, arg))) {
			goto done;
		}
	}
	qsort(v, nv, sizeof(*v), cmp_located);
	for (size_t k = 0; k < nv; k++)
		if ((rc = each_one(g, ids, v[k].i, &v[k], &pb, fn, arg)))
			goto done;
	rc = graph_from_parents(g, &pb, ids, n);
done:
	free(v);
	free(pb.count);
	free(pb.first);
	free(pb.ids);
	return rc;
}

/* ---- the subject index ------------------------------------------------------------ */

/*
 * commits_read()'s other reader: a loose commit, or an entry of a pack
 * objread could not rebuild, through raw_commit() (libgit2 has the last word).
 */
static int other_read(void *ctx, const commits_job *j, int packed, const char **d, size_t *len,
		      void **hold)
{
	located at = { j->pack, 0, j->off };
	git_odb_object *o;
	int rc = raw_commit(ctx, j->id, packed ? &at : NULL, d, len, &o);

	*hold = o;
	return rc;
}

static void other_release(void *ctx, void *hold)
{
	(void)ctx;
	git_odb_object_free(hold);
}

/*
 * Without a commit-graph file, the parents read for the subject index
 * (every commit's, when no pack had a table) make the graph of the
 * ancestry questions, on the first one: most runs ask none.  Keep the
 * set (taken over: *c is NULL after) when every commit and its parents
 * were read.
 */
static void pending_keep(cite_git2 *g, commits **c)
{
	if (g->cg || !commits_whole(*c))
		return;
	commits_drop_text(*c);
	commits_free(g->pend);
	g->pend = *c;
	*c = NULL;
}

/* The graph of the parents kept by pending_keep(), when there are some (none if out of memory). */
static void need_graph(cite_git2 *g)
{
	commits *pd = g->pend;

	if (g->tpar.ids) { /* the tables' parents: no commit read again */
		if (!g->cg)
			(void)commit_parents_graph(&g->tpar, &g->cg); /* out of memory: libgit2 answers */
		commit_parents_free(&g->tpar);
	}
	if (!pd)
		return;
	g->pend = NULL;
	if (!g->cg)
		(void)commits_graph(pd, &g->cg); /* out of memory: libgit2 answers */
	commits_free(pd);
}

static void range_tables_free(cite_git2 *g);

/*
 * Every pack's table from its cache file when there is one; the commits
 * of the others read (found by their entry headers, or when that is not
 * to be, among the commit IDs the walk asked for lists), their tables
 * made and written to the cache; the loose commits read, into a table of
 * their own that is not kept (loose objects come and go): commit_tables.h.
 */
static int git2_subject_index(void *ctx,
			      int (*commits_of)(void *arg, const unsigned char **ids, size_t *n),
			      void *arg, progress *p, subject_index **out)
{
	cite_git2 *g = ctx;
	uint32_t np = g->rd ? objread_npacks(g->rd) : 0;
	subject_table **tabs = NULL, *t;
	commits *c = NULL;
	commits_other other = { other_read, other_release, g };
	commit_tables_opts o;
	parent_set tpar = { 0 };
	int rc;

	*out = NULL;
	if (!g->rd)
		return 1;
	/* listed again (read_all_parents() may have listed them): what is there now */
	free(g->loose);
	g->loose = NULL;
	g->nloose = 0;
	rc = objread_loose_commits(g->rd, &g->loose, &g->nloose);
	if (rc)
		return rc == -1 ? -1 : 1; /* a directory the walk reads with libgit2 then */
	rc = -1;
	/*
	 * A pack's table holds all its commits: with --reachable or
	 * --walker=libgit2 (no scan) the commits are the walk's, so a table
	 * is neither read nor kept then
	 */
	o = (commit_tables_opts){ .cache_dir = g->cache_dir, .scan = g->scan_packs,
				  .commits_of = commits_of, .arg = arg,
				  .other = &other, .known = g->known, .drop_known = 1,
				  .loose = g->loose, .nloose = g->nloose, .p = p,
				  .title = "indexing commit subjects" };
	tabs = calloc(np + 1, sizeof(*tabs));
	/* the tables the --range walk read: not read again (a later walk reads them anew) */
	for (uint32_t k = 0; tabs && g->rtabs && g->scan_packs && k < np; k++) {
		tabs[k] = g->rtabs[k];
		g->rtabs[k] = NULL;
	}
	if (tabs)
		range_tables_free(g);
	if (!tabs || subject_index_new(out, GIT_OID_RAWSZ))
		goto done;
	rc = commit_tables_get(g->rd, GIT_OID_RAWSZ, &o, tabs, &c);
	g->known = o.known; /* freed there once read (NULL), before the tables were built */
	if (rc) {
		rc = -1;
		goto done;
	}
	rc = -1;
	commits_known_free(g->known); /* read: no more kept */
	g->known = NULL;
	g->known_done = 1;
	/* without a commit-graph file, the tables' parents answer ancestry (on first need) */
	if (!g->cg && !g->tpar.ids &&
	    commit_tables_parents(g->rd, GIT_OID_RAWSZ, tabs, g->loose, g->nloose, &tpar) < 0)
		goto done;
	for (uint32_t k = 0; k <= np; k++) {
		const unsigned char *sum = NULL, *ids = g->loose;
		uint32_t n = (uint32_t)g->nloose;
		size_t stride = GIT_OID_RAWSZ;

		if (k < np)
			objread_pack(g->rd, k, &sum, &n, &ids, &stride);
		t = tabs[k];
		tabs[k] = NULL;
		g->ncommits += subject_table_count(t);
		if (subject_index_add(*out, t, ids, stride, n))
			goto done;
	}
	if (tpar.ids) {
		commit_parents_free(&g->tpar);
		g->tpar = tpar;
		tpar = (parent_set){ 0 };
	} else {
		pending_keep(g, &c);
	}
	rc = 0;
done:
	for (uint32_t k = 0; tabs && k <= np; k++)
		subject_table_free(tabs[k]);
	free(tabs);
	commits_free(c);
	commit_parents_free(&tpar);
	if (rc) {
		subject_index_free(*out);
		*out = NULL;
	}
	return rc;
}

/* commit_tables_get()'s list when a pack's headers cannot be scanned: none (no graph then). */
static int no_list(void *arg, const unsigned char **ids, size_t *n)
{
	(void)arg;
	*ids = NULL;
	*n = 0;
	return 0;
}

/*
 * Every commit's parents for the graph (cg), when there is no
 * commit-graph file and no subject index gave them: from each pack's
 * table in the cache, the packs without one read in pack order on two
 * threads (their tables kept for the next run).  0, or -1 (memory);
 * without a graph (a pack whose headers cannot be scanned, a commit that
 * cannot be read) libgit2 goes on answering.
 */
static int read_all_parents(cite_git2 *g)
{
	uint32_t np = g->rd ? objread_npacks(g->rd) : 0;
	commits_other other = { other_read, other_release, g };
	subject_table **tabs = NULL;
	commit_tables_opts o;
	commits *c = NULL;
	int rc = 0;

	g->parents_read = 1;
	if (!g->rd || !g->scan_packs)
		return 0;
	if (!g->loose && (rc = objread_loose_commits(g->rd, &g->loose, &g->nloose)))
		return rc == -1 ? -1 : 0;
	o = (commit_tables_opts){ .cache_dir = g->cache_dir, .scan = 1, .commits_of = no_list,
				  .other = &other, .known = g->known, .loose = g->loose,
				  .nloose = g->nloose };
	rc = -1;
	if (!(tabs = calloc(np + 1, sizeof(*tabs))))
		goto done;
	/* the tables the --range walk read: not loaded again (given back below) */
	for (uint32_t k = 0; g->rtabs && k < np; k++) {
		tabs[k] = g->rtabs[k];
		g->rtabs[k] = NULL;
	}
	if (commit_tables_get(g->rd, GIT_OID_RAWSZ, &o, tabs, &c))
		goto done;
	rc = 0;
	if (!o.scan) /* a header the scan cannot read: libgit2 then */
		goto done;
	if (!g->tpar.ids &&
	    (rc = commit_tables_parents(g->rd, GIT_OID_RAWSZ, tabs, g->loose, g->nloose, &g->tpar)) < 0)
		goto done;
	if (rc)
		pending_keep(g, &c);
	rc = 0;
	/* no pack's commit read: every pack's table came from the cache with its parents */
	test_hook_trace(g->tpar.ids && c && commits_count(c) == g->nloose ?
			"every pack's parents from its cached table" : NULL);
	need_graph(g);
	test_hook_trace(g->cg ? "every commit's parents read: the graph answers ancestry" : NULL);
done:
	/* the --range walk's tables kept for the subject index, which takes them over */
	for (uint32_t k = 0; tabs && g->rtabs && k < np; k++) {
		g->rtabs[k] = tabs[k];
		tabs[k] = NULL;
	}
	for (uint32_t k = 0; tabs && k <= np; k++)
		subject_table_free(tabs[k]);
	free(tabs);
	commits_free(c);
	return rc < 0 ? -1 : 0;
}

/* The walk's arrays of the tables' rows (range_tables()), once it is done. */
static void range_rows_free(cite_git2 *g)
{
	uint32_t np = g->rd ? objread_npacks(g->rd) : 0;

	for (uint32_t k = 0; g->rpos && k < np; k++) {
		free(g->rpos[k]);
		free(g->rtime[k]);
		free(g->rrow[k]);
	}
	free(g->rpos);
	free(g->rtime);
	free(g->rrow);
	g->rpos = NULL;
	g->rtime = NULL;
	g->rrow = NULL;
}

static void range_tables_free(cite_git2 *g)
{
	uint32_t np = g->rd ? objread_npacks(g->rd) : 0;

	for (uint32_t k = 0; g->rtabs && k < np; k++)
		subject_table_free(g->rtabs[k]);
	free(g->rtabs);
	g->rtabs = NULL;
	range_rows_free(g);
}

/*
 * --range without a commit-graph file: when every pack's table is in the
 * cache with its parents, keep them (g->rtabs) for the walk, which then
 * reads parents and times from them, not from the commits.  When one is
 * missing nothing is built here (a short range must not read every commit
 * of the packs): the walk reads the commits, as it always did.  0, or -1
 * (memory).
 */
static int range_tables(cite_git2 *g)
{
	uint32_t np = g->rd ? objread_npacks(g->rd) : 0;
	subject_table **tabs;
	int rc = 0;

	if (!g->rd || !g->scan_packs || !g->cache_dir || g->cg || g->rtabs || !np)
		return 0;
	if (!(tabs = calloc(np + 1, sizeof(*tabs))))
		return -1;
	for (uint32_t k = 0; k < np && !rc; k++) {
		const unsigned char *sum, *ids;
		uint32_t n;
		size_t stride;
		subject_bind b;

		objread_pack(g->rd, k, &sum, &n, &ids, &stride);
		objread_pack_files(g->rd, k, &b.pack, &b.idx);
		b.pack_path = NULL;
		rc = subject_table_load(&tabs[k], g->cache_dir, GIT_OID_RAWSZ, sum, n, &b);
		if (!rc && !subject_table_has_parents(tabs[k]))
			rc = 1;
	}
	g->rtabs = tabs;
	/*
	 * each row's position and time in two arrays, and the row of each
	 * .idx position: the walk looks them up there, not in the table
	 */
	if (!rc && (!(g->rpos = calloc(np, sizeof(*g->rpos))) ||
		    !(g->rtime = calloc(np, sizeof(*g->rtime))) ||
		    !(g->rrow = calloc(np, sizeof(*g->rrow)))))
		rc = -1;
	for (uint32_t k = 0; k < np && !rc; k++) {
		size_t n = subject_table_count(tabs[k]);
		const unsigned char *sum, *ids;
		uint32_t nids;
		size_t stride;

		objread_pack(g->rd, k, &sum, &nids, &ids, &stride);
		if (!(g->rpos[k] = malloc((n ? n : 1) * sizeof(**g->rpos))) ||
		    !(g->rtime[k] = malloc((n ? n : 1) * sizeof(**g->rtime))) ||
		    !(g->rrow[k] = bigvec_malloc((nids ? nids : 1) * sizeof(**g->rrow))))
			rc = -1;
		if (!rc)
			memset(g->rrow[k], 0xff, (size_t)nids * sizeof(**g->rrow));
		for (size_t i = 0; i < n && !rc; i++)
			if (subject_table_at(tabs[k], i, &g->rpos[k][i], &g->rtime[k][i]) ||
			    (i && g->rpos[k][i] <= g->rpos[k][i - 1]))
				rc = 1; /* damaged: the walk reads the commits */
			else if (g->rpos[k][i] < nids) /* else no ID of the .idx finds it */
				g->rrow[k][g->rpos[k][i]] = (uint32_t)i;
	}
	if (rc)
		range_tables_free(g);
	test_hook_trace(g->rtabs ? "the range's parents and times from the cached tables" : NULL);
	return rc < 0 ? -1 : 0;
}

/* CPU seconds of this process so far (0 when the clock cannot say). */
static double cpu_seconds(void)
{
	struct timespec ts;

	return clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) ? 0 : (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * How long libgit2's walks may take, all told, before every commit's
 * parents are read instead (a ski rental: at most about twice the better
 * of the two).  Each walk goes back parent by parent from the commit
 * checked: 1.8 s of CPU on a 1.3M-commit history for an old Fixes:
 * target, 0.03 s on git.git's.  Reading every commit costs about 8 us of
 * CPU each (git.git 1.6 s, 1.3M commits 9 s); the commits are the
 * subject index's, or a quarter of the packs' objects before it is made.
 * Half of that: the walks cost more than the read where they are many.
 */
static double walk_budget(cite_git2 *g)
{
	double count = (double)g->ncommits;
	size_t ms = test_hook_walk_budget_ms(SIZE_MAX);

	if (ms != SIZE_MAX)
		return ms / 1000.0;

	for (uint32_t k = 0; !count && g->rd && k < objread_npacks(g->rd); k++) {
		const unsigned char *sum, *ids;
		uint32_t n;
		size_t stride;

		objread_pack(g->rd, k, &sum, &n, &ids, &stride);
		count += n / 4.0;
	}
	return 4e-6 * count;
}

/* The most commits beyond_graph() meets before it leaves the question to libgit2. */
#define BEYOND_MAX ((size_t)1 << 20)
/* The most commits its cache keeps, all calls together. */
#define BEYOND_CACHE_MAX ((size_t)1 << 22)

/* The index of id in b, or SIZE_MAX. */
static size_t beyond_find(const beyond_seen *b, const unsigned char *id)
{
	size_t mask = 2 * b->cap - 1, h;

	if (!b->cap)
		return SIZE_MAX;
	memcpy(&h, id, sizeof(h));
	for (h &= mask; b->slot[h]; h = (h + 1) & mask)
		if (!memcmp(b->ids + (b->slot[h] - 1) * (size_t)GIT_OID_RAWSZ, id, GIT_OID_RAWSZ))
			return b->slot[h] - 1;
	return SIZE_MAX;
}

/* Add id unless met already: 1 added, 0 met, -1 out of memory or more than max. */
static int beyond_add_max(beyond_seen *b, const unsigned char *id, size_t max)
{
	size_t mask, h;

	if (b->n == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 1024;
		unsigned char *ids;
		uint32_t *slot;

		if (cap > max || !(ids = realloc(b->ids, cap * GIT_OID_RAWSZ)))
			return -1;
		b->ids = ids;
		if (!(slot = calloc(2 * cap, sizeof(*slot))))
			return -1;
		free(b->slot);
		b->slot = slot;
		b->cap = cap;
		for (size_t i = 0; i < b->n; i++) {
			memcpy(&h, b->ids + i * GIT_OID_RAWSZ, sizeof(h));
			for (h &= 2 * cap - 1; slot[h]; h = (h + 1) & (2 * cap - 1))
				;
			slot[h] = (uint32_t)(i + 1);
		}
	}
	mask = 2 * b->cap - 1;
	memcpy(&h, id, sizeof(h));
	for (h &= mask; b->slot[h]; h = (h + 1) & mask)
		if (!memcmp(b->ids + (b->slot[h] - 1) * (size_t)GIT_OID_RAWSZ, id, GIT_OID_RAWSZ))
			return 0;
	memcpy(b->ids + b->n * GIT_OID_RAWSZ, id, GIT_OID_RAWSZ);
	b->slot[h] = (uint32_t)++b->n;
	return 1;
}

static int beyond_add(beyond_seen *b, const unsigned char *id)
{
	return beyond_add_max(b, id, BEYOND_MAX);
}

/* Keep commit id's np parents par[] in the cache (unless it is full). */
static void beyond_keep(beyond_cache *c, const unsigned char *id, const unsigned char *par, size_t np)
{
	size_t n = c->seen.n;

	if (c->full)
		return;
	if (n + 2 > c->pcap) {
		size_t cap = c->pcap ? 2 * c->pcap : 1024;
		uint32_t *ps = realloc(c->pstart, cap * sizeof(*ps));

		if (!ps) {
			c->full = 1;
			return;
		}
		c->pstart = ps;
		c->pcap = cap;
	}
	if ((c->npar + np) * GIT_OID_RAWSZ > c->parcap) {
		size_t cap = c->parcap ? 2 * c->parcap : 4096 * GIT_OID_RAWSZ;
		unsigned char *p;

		while (cap < (c->npar + np) * GIT_OID_RAWSZ)
			cap *= 2;
		if (!(p = realloc(c->par, cap))) {
			c->full = 1;
			return;
		}
		c->par = p;
		c->parcap = cap;
	}
	if (beyond_add_max(&c->seen, id, BEYOND_CACHE_MAX) != 1) {
		c->full = 1;
		return;
	}
	if (!n)
		c->pstart[0] = 0;
	memcpy(c->par + c->npar * GIT_OID_RAWSZ, par, np * GIT_OID_RAWSZ);
	c->npar += np;
	c->pstart[n + 1] = (uint32_t)c->npar;
}

static void beyond_cache_free(beyond_cache *c)
{
	free(c->seen.ids);
	free(c->seen.slot);
	free(c->pstart);
	free(c->par);
	memset(c, 0, sizeof(*c));
}

/*
 * `of` is not in the graph of the history behind a --range (a commit of
 * no branch or tag, found by its subject: a pull request's): walk its
 * parents, read from the packs, until each line of them enters that
 * graph, and ask the graph from there.  What the graph lacks is no
 * ancestor of what it has, so an `anc` met on none of the lines is none.
 * 1, 0, or -1 when that takes more than BEYOND_MAX commits, one cannot be
 * read, or memory runs out (libgit2 is asked then).  Each commit is read
 * once for all calls (g->bc): the calls of a history's audit go through
 * the same commits of pull requests again and again.
 */
static int beyond_graph(cite_git2 *g, const unsigned char *anc, const unsigned char *of)
{
	beyond_seen b = { 0 };
	unsigned char par[16 * GIT_OID_RAWSZ];
	int rc = beyond_add(&b, of) < 0 ? -1 : 0;

	while (rc == 0 && b.next < b.n) {
		unsigned char id[GIT_OID_RAWSZ];
		const unsigned char *pp = par;
		git_odb_object *o = NULL;
		located at;
		const char *d;
		size_t len, ci;
		int np, k;

		memcpy(id, b.ids + b.next * GIT_OID_RAWSZ, GIT_OID_RAWSZ);
		if (b.next++ && !memcmp(id, anc, GIT_OID_RAWSZ)) {
			rc = 1;
			break;
		}
		if (b.next > 1 && commit_graph_marked(g->rcg, id) >= 0) {
			/* in the graph: anc is an ancestor there, or not in it at all */
			k = commit_graph_is_ancestor(g->rcg, anc, id);
			if (k == 1 || (k < 0 && commit_graph_marked(g->rcg, anc) >= 0))
				rc = k;
			continue;
		}
		if ((ci = beyond_find(&g->bc.seen, id)) != SIZE_MAX) {
			pp = g->bc.par + (size_t)g->bc.pstart[ci] * GIT_OID_RAWSZ;
			np = (int)(g->bc.pstart[ci + 1] - g->bc.pstart[ci]);
		} else {
			/* the headers are enough: only the first bytes of a packed commit */
			if (raw_commit(g, id, g->rd && objread_locate(g->rd, id, &at.pack, &at.off) ?
				       &at : NULL, &d, &len, &o) != 1) {
				rc = -1;
				break;
			}
			np = commit_parents(d, len, GIT_OID_RAWSZ, par, 16);
			git_odb_object_free(o);
			if (np < 0 || np > 16)
				rc = -1;
			else
				beyond_keep(&g->bc, id, par, (size_t)np);
		}
		for (k = 0; rc == 0 && k < np; k++)
			if (beyond_add(&b, pp + (size_t)k * GIT_OID_RAWSZ) < 0)
				rc = -1;
	}
	free(b.ids);
	free(b.slot);
	return rc;
}

static int git2_is_ancestor(void *ctx, const unsigned char *anc, const unsigned char *of)
{
	cite_git2 *g = ctx;
	git_oid a, o;
	double t0;
	int rc;

	need_graph(g);
	if (!g->cg && !g->parents_read && g->nwalks && g->walk_cpu >= walk_budget(g) &&
	    read_all_parents(g) < 0)
		g->parents_read = 1; /* out of memory: libgit2 goes on */
	rc = g->cg ? commit_graph_is_ancestor(g->cg, anc, of) : -1;

	/* the history behind --range, whole: what it lacks is no ancestor of what it has */
	if (rc < 0 && g->rcg && (rc = commit_graph_is_ancestor(g->rcg, anc, of)) < 0 &&
	    commit_graph_marked(g->rcg, of) >= 0 && commit_graph_marked(g->rcg, anc) < 0)
		rc = 0;
	/* a commit of no branch or tag (a subject search finds all): its lines into the graph */
	if (rc < 0 && g->rcg && commit_graph_marked(g->rcg, of) < 0)
		rc = beyond_graph(g, anc, of);
	/*
	 * With every pack's table in the cache (the --range walk found them
	 * all), the whole graph costs a load of the tables, less than one of
	 * libgit2's walks: a target far below a partial range walks most of
	 * the history (9 s on a 1.3M-commit one).  Else libgit2 walks until
	 * their budget is spent.
	 */
	if (rc < 0 && !g->cg && !g->parents_read && g->rtabs) {
		test_hook_trace("the tables cached: their graph, before any walk of libgit2's");
		if (read_all_parents(g) < 0)
			g->parents_read = 1; /* out of memory: libgit2 goes on */
		else if (g->cg)
			rc = commit_graph_is_ancestor(g->cg, anc, of);
	}
	if (rc >= 0)
		return rc;
	memcpy(a.id, anc, GIT_OID_RAWSZ);
	memcpy(o.id, of, GIT_OID_RAWSZ);
	t0 = cpu_seconds();
	rc = git_graph_descendant_of(g->repo, &o, &a) == 1;
	g->walk_cpu += cpu_seconds() - t0;
	g->nwalks++;
	return rc;
}

/* Append id to the growing array *v of *n (room for *cap); 0 or -1. */
static int oid_push(git_oid **v, size_t *n, size_t *cap, const git_oid *id)
{
	if (*n == *cap) {
		size_t c = *cap ? 2 * *cap : 64;
		git_oid *nv = realloc(*v, c * sizeof(**v));

		if (!nv)
			return -1;
		*v = nv;
		*cap = c;
	}
	git_oid_cpy(&(*v)[(*n)++], id);
	return 0;
}

static int add_tip(cite_git2 *g, const git_oid *id)
{
	return oid_push(&g->tips, &g->ntips, &g->captips, id);
}

/*
 * The commit a direct ref's `id` peels to, read from the packs: 1 with it
 * in out, or 0 for anything but a commit or well-formed tags down to one
 * (a tree, a blob, a tag libgit2 may judge otherwise, what the packs lack):
 * libgit2 has the word then.  Tags are most refs; reading them here
 * touches the maps verify reads anyway, not libgit2's own of the same
 * files (each peel a search of the .idx and a read of the pack).
 */
static int peel_packed(cite_git2 *g, const unsigned char *id, unsigned char *out)
{
	unsigned char cur[GIT_OID_RAWSZ];
	int want = 0; /* the type the tag that led here names (0: a ref) */

	if (!g->rd)
		return 0;
	memcpy(cur, id, GIT_OID_RAWSZ);
	for (int depth = 0; depth < 16; depth++) {
		const unsigned char *d, *nl;
		size_t len;
		int type, named;

		if (objread_read(g->rd, cur, &type, &d, &len) != 1 || (want && type != want))
			return 0;
		if (type == GIT_OBJECT_COMMIT) {
			memcpy(out, cur, GIT_OID_RAWSZ);
			return 1;
		}
		/* "object", "type", then "tag <name>" as libgit2 requires */
		if (type != GIT_OBJECT_TAG || tagobj_parse(d, len, GIT_OID_RAWSZ, cur, &named) ||
		    !(nl = memchr(d + 7 + 2 * GIT_OID_RAWSZ + 1, '\n',
				  len - (7 + 2 * GIT_OID_RAWSZ + 1))) ||
		    (size_t)(d + len - (nl + 1)) < 4 || memcmp(nl + 1, "tag ", 4))
			return 0;
		want = named;
	}
	return 0;
}

/* A tip, peeled to its commit (a tag of a tree or blob is none). */
static int add_ref_tip(git_reference *ref, cite_git2 *g)
{
	git_object *c = NULL;
	const git_oid *target = git_reference_target(ref);
	git_oid peeled;
	int rc = 0;

	if (target && peel_packed(g, target->id, peeled.id))
		return add_tip(g, &peeled);
	if (git_reference_peel(&c, ref, GIT_OBJECT_COMMIT) == 0)
		rc = add_tip(g, git_object_id(c));
	git_object_free(c);
	return rc;
}

static int oid_cmp(const void *a, const void *b)
{
	return git_oid_cmp(a, b);
}

/* Whether `id` is one of the commits of the --range walked last: 1, 0, or -1 (none walked). */
static int git2_in_range(void *ctx, const unsigned char *id)
{
	cite_git2 *g = ctx;
	git_oid oid;

	if (!g->rids)
		return -1;
	memcpy(oid.id, id, GIT_OID_RAWSZ);
	return bsearch(&oid, g->rids, g->nrids, sizeof(*g->rids), oid_cmp) != NULL;
}

/* The commits reachable from the tips, sorted; 0, -1 (memory or a walk error). */
static int walk_public(cite_git2 *g)
{
	git_revwalk *walk = NULL;
	git_oid id;
	int rc = git_revwalk_new(&walk, g->repo) < 0 ? -1 : 0;

	for (size_t i = 0; !rc && i < g->ntips; i++)
		rc = git_revwalk_push(walk, &g->tips[i]) < 0 ? -1 : 0;
	while (!rc && (rc = git_revwalk_next(&id, walk)) == 0)
		rc = oid_push(&g->pub, &g->npub, &g->cappub, &id);
	git_revwalk_free(walk);
	if (rc != GIT_ITEROVER && rc != 0)
		return -1;
	qsort(g->pub, g->npub, sizeof(*g->pub), oid_cmp);
	return 0;
}

/* HEAD, the branches and the tags, peeled to commits, into g->tips; 0 or -1. */
static int read_tips(cite_git2 *g)
{
	static const char *const globs[] = { "refs/heads/*", "refs/tags/*" };
	git_reference *head = NULL;
	int rc = 0;

	if (git_repository_head(&head, g->repo) == 0) /* detached or not; unborn: none */
		rc = add_ref_tip(head, g);
	git_reference_free(head);
	for (size_t i = 0; i < 2 && !rc; i++) {
		git_reference_iterator *it;
		git_reference *ref;

		if (git_reference_iterator_glob_new(&it, g->repo, globs[i]) < 0)
			continue;
		while (!rc && git_reference_next(&ref, it) == 0) {
			rc = add_ref_tip(ref, g);
			git_reference_free(ref);
		}
		git_reference_iterator_free(it);
	}
	return rc;
}

static int git2_is_public(void *ctx, const unsigned char *id)
{
	cite_git2 *g = ctx;
	git_oid oid;
	int m;

	need_graph(g);
	if (!g->tips_read)
		g->tips_read = read_tips(g) ? -1 : 1;
	if (g->tips_read < 0)
		return 0;
	/*
	 * With a graph of the commits (the file, built by each_commit, or
	 * from the --range walk with the tips' history): one marking walk.
	 * The walk's graph holds all the tips reach: what it lacks is not public.
	 */
	if (!g->tips_marked && (g->pubg = g->cg ? g->cg : g->rcg)) {
		int rc = 0;

		for (size_t i = 0; i < g->ntips && !rc; i++)
			rc = commit_graph_mark(g->pubg, g->tips[i].id);
		if (rc < 0)
			return 0;
		g->tips_marked = rc ? -1 : 1;
	}
	if (g->pubg && g->tips_marked > 0 && (m = commit_graph_marked(g->pubg, id)) >= 0)
		return m;
	if (g->pubg && g->pubg == g->rcg && g->tips_marked > 0)
		return 0;
	/* else one walk through libgit2, kept as a sorted array */
	if (!g->pub_read)
		g->pub_read = walk_public(g) ? -1 : 1;
	if (g->pub_read < 0)
		return 0;
	memcpy(oid.id, id, GIT_OID_RAWSZ);
	return bsearch(&oid, g->pub, g->npub, sizeof(*g->pub), oid_cmp) != NULL;
}

static int git2_on_head(void *ctx, const unsigned char *id)
{
	cite_git2 *g = ctx;

	if (!g->head_read) {
		git_object *o = NULL, *c = NULL;

		g->head_read = -1;
		if (git_revparse_single(&o, g->repo, "HEAD") == 0 &&
		    git_object_peel(&c, o, GIT_OBJECT_COMMIT) == 0) {
			git_oid_cpy(&g->head, git_object_id(c));
			g->head_read = 1;
		}
		git_object_free(c);
		git_object_free(o);
	}
	if (g->head_read < 0)
		return 0;
	return !memcmp(id, g->head.id, GIT_OID_RAWSZ) || git2_is_ancestor(g, id, g->head.id) == 1;
}

int cite_git2_new(cite_git2 **out, struct git_repository *repo, const char *objdir)
{
	cite_git2 *g = calloc(1, sizeof(*g));
	char err[512];

	*out = NULL;
	if (!g)
		return -1;
	g->repo = repo;
	if (git_repository_odb(&g->odb, repo) < 0) {
		free(g);
		return -2;
	}
	/* packs objread cannot map are left to libgit2, which says what is wrong */
	if (objread_new(&g->rd, objdir, GIT_OID_RAWSZ, err, sizeof(err)) == -1 ||
	    commit_graph_open(&g->cg, objdir, GIT_OID_RAWSZ)) {
		objread_free(g->rd);
		git_odb_free(g->odb);
		free(g);
		return -1;
	}
	g->src.ctx = g;
	g->src.commit = git2_commit;
	g->src.is_ancestor = git2_is_ancestor;
	g->src.is_public = git2_is_public;
	g->src.on_head = git2_on_head;
	g->src.each_commit = git2_each_commit;
	g->src.subject_index = git2_subject_index;
	g->src.title_len = git2_title_len;
	g->src.in_range = git2_in_range;
	git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
	*out = g;
	return 0;
}

void cite_git2_free(cite_git2 *g)
{
	if (!g)
		return;
	git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 1);
	git_odb_free(g->odb);
	range_tables_free(g); /* asks g->rd how many packs: before objread_free() */
	objread_free(g->rd);
	commit_graph_close(g->cg);
	commit_graph_close(g->rcg);
	beyond_cache_free(&g->bc);
	commits_free(g->pend);
	commits_known_free(g->known);
	commit_parents_free(&g->tpar);
	commit_buf_free(&g->subject);
	free(g->cache_dir);
	free(g->loose);
	free(g->tips);
	free(g->pub);
	free(g->rids);
	free(g);
}

void cite_git2_scan_packs(cite_git2 *g)
{
	g->scan_packs = 1;
}

const cite_source *cite_git2_source(cite_git2 *g)
{
	return &g->src;
}

int cite_git2_cache(cite_git2 *g, const char *dir)
{
	free(g->cache_dir);
	g->cache_dir = NULL;
	return dir && !(g->cache_dir = strdup(dir)) ? -1 : 0;
}

/* ---- --range -------------------------------------------------------------------------- */

/* Message bytes the walk keeps for later (the rest are read again): git.git's take 42 MB. */
#define RANGE_KEEP_MAX ((size_t)256 << 20)
#define NOTE_NONE UINT64_MAX
/* A walked commit found in pack p's table at .idx position i: NOTE_TAB | p << 32 | i. */
#define NOTE_TAB (UINT64_C(1) << 63)

struct cite_range {
	cite_git2 *g;
	range_list list;      /* the commits, in the order they are checked */
	size_t next;
	unsigned char *parents; /* the source's answer: the last commit's parents */
	size_t pcap;
	char *kept;           /* messages read by the walk, each NUL-ended; notes point here */
	size_t klen, kcap;
	char *msg;            /* a message read again, a copy: reads for the resolver follow */
	size_t msgcap;
	int64_t when;         /* the last commit given: its committer time */
	int when_tz;          /* and zone (minutes east of UTC) */
	const unsigned char **pptr; /* the tables' parents (table_commit()) */
	size_t pptrcap;
	uint64_t *hints;      /* and where each is, for the walk (RANGE_HINT()), pptrcap of them */
	/* the notes on the messages (cite_range_next_noted()), per pack */
	commit_notes *notes;
	unsigned char *notes_state; /* 0 not looked for, 1 read (or none), 2 some added */
	unsigned char stamp[64];    /* what they are kept under: this build's */
	size_t stamplen;            /* 0: no notes */
	uint64_t last;              /* the last commit given: its NOTE_TAB, or NOTE_NONE */
	/*
	 * the last message given: kept, with where the walk found its commit
	 * (kept_pack UINT32_MAX: in no pack), or not (kept_read 0: read again)
	 */
	int kept_read;
	uint32_t kept_pack, kept_pos;
	size_t reads;               /* messages read or digests given: every TRIM_READS, the maps let go */
	size_t walk_reads;          /* commits the walk read from the packs: the same */
	cite_list dlist;            /* the last digest given (3): its list */
	char *dmsg;                 /* and its message, the lines it keeps */
};

/*
 * Messages read between two objread_trim(): the pages of the packs read
 * for them and for what they cite are let go, so that the resident size
 * stays that of the last few thousand (git.git: ~15k messages and cited
 * commits read all over 500 MB of pack and 24 MB of .idx).  After a
 * message the walk kept, and every as many commits the walk reads, the
 * packs' pages only: every commit's ID is looked up all over the .idx
 * again at once (cold, git.git: 10k more page faults a run when the .idx
 * was let go too, u-boot 20k), and the walk's pages of pack no longer
 * stay until the end (u-boot: 75 MB of the peak RSS, now 37).
 */
#define TRIM_READS 2048

/*
 * Before each kept message: its commit's committer time and zone, and
 * where the walk found it (pack UINT32_MAX: in none), so that its note's
 * place is not looked up in the .idx a second time.
 */
typedef struct {
	int64_t time;
	int32_t tz;
	uint32_t pack, pos;
} kept_when;

/* git_commit_message(): after the headers, less leading newlines, up to a NUL. */
static const char *commit_msg(const char *d, size_t n, size_t *len)
{
	const char *end = d + n, *m = d + commit_message_offset(d, n);

	while (m < end && *m == '\n')
		m++;
	*len = strnlen(m, (size_t)(end - m));
	return m;
}

/*
 * Keep the message m[0..n) of a commit of committer time `time` in zone
 * `tz`, at .idx position in->i of pack in->pack (NULL: no pack holds it),
 * for later: its note, or NOTE_NONE when out of memory.
 */
static uint64_t keep_msg(cite_range *rg, const char *m, size_t n, int64_t time, int tz,
			 const located *in)
{
	kept_when w = { time, tz, in ? in->pack : UINT32_MAX, in ? in->i : 0 };
	uint64_t at;

	n += sizeof(w);
	if (GROW(rg->kept, rg->kcap, rg->klen + n + 1, (size_t)1 << 20))
		return NOTE_NONE;
	memcpy(rg->kept + rg->klen, &w, sizeof(w));
	at = rg->klen + sizeof(w);
	memcpy(rg->kept + at, m, n - sizeof(w));
	rg->kept[rg->klen + n] = '\0';
	rg->klen += n + 1;
	return at;
}

static const char *git2_msg(void)
{
	const git_error *e = git_error_last();

	return e && e->message ? e->message : "unknown libgit2 error";
}

/*
 * libgit2's last error is about reading the objects (a corrupt or
 * truncated object, a file that cannot be read), not about what was asked
 * (GIT_ERROR_OBJECT is a revision that peels to no commit: a usage error).
 */
static int unreadable(void)
{
	const git_error *e = git_error_last();

	return e && (e->klass == GIT_ERROR_ZLIB || e->klass == GIT_ERROR_ODB ||
		     e->klass == GIT_ERROR_OS || e->klass == GIT_ERROR_NOMEMORY);
}

/* Room for n parents in rg->parents; 0 or -1. */
static int parents_room(cite_range *rg, size_t n)
{
	unsigned char *p;

	if (n <= rg->pcap)
		return 0;
	if (!(p = realloc(rg->parents, n * GIT_OID_RAWSZ)))
		return -1;
	rg->parents = p;
	rg->pcap = n;
	return 0;
}

/*
 * The walk's hint for a commit at .idx position pos of pack k: never 0,
 * so that 0 stays "none".
 */
#define RANGE_HINT(k, pos) ((uint64_t)((k) + 1) << 32 | (pos))

/*
 * Commit `id` from the cached tables (g->rtabs): its committer time, its
 * parents into rg->parents and where each is into rg->hints, *note its
 * NOTE_TAB; how many parents, -1 when no table holds it (read the commit),
 * -2 (memory).  `hint` (RANGE_HINT(), from a child's table, or 0) names
 * where it may be: taken when the ID there is id, after the packs before
 * it were asked as always (the first pack holding id answers), so that a
 * pack's binary search is skipped, never an answer changed.
 */
static int table_commit(cite_range *rg, const unsigned char *id, uint64_t hint, int64_t *time,
			uint64_t *note)
{
	cite_git2 *g = rg->g;
	uint32_t np = objread_npacks(g->rd);
	uint32_t hk = hint ? (uint32_t)(hint >> 32) - 1 : UINT32_MAX, hpos = (uint32_t)hint;

	for (uint32_t k = 0; k < np; k++) {
		const subject_table *t = g->rtabs[k];
		const unsigned char *sum, *ids;
		uint32_t pos, nids, row;
		size_t stride;
		int64_t tm;
		int n;

		objread_pack(g->rd, k, &sum, &nids, &ids, &stride);
		if (k == hk && hpos < nids && !memcmp(ids + (size_t)hpos * stride, id, GIT_OID_RAWSZ))
			pos = hpos;
		else if ((pos = objread_find_in(g->rd, k, id)) == UINT32_MAX)
			continue;
		/* its row: the table's commits in .idx position order */
		if (pos >= nids || (row = g->rrow[k][pos]) == UINT32_MAX)
			return -1; /* not a commit the table knows: read it */
		tm = g->rtime[k][row];
		n = subject_table_parents(t, row, ids, stride, nids, rg->pptr, rg->pptrcap);
		if (n >= 0 && (size_t)n > rg->pptrcap) {
			const unsigned char **v = realloc(rg->pptr, (size_t)n * sizeof(*v));
			uint64_t *h;

			if (!v)
				return -2;
			rg->pptr = v;
			if (!(h = realloc(rg->hints, (size_t)n * sizeof(*h))))
				return -2;
			rg->hints = h;
			rg->pptrcap = (size_t)n;
			n = subject_table_parents(t, row, ids, stride, nids, rg->pptr, rg->pptrcap);
		}
		if (n < 0)
			return -1;
		if (parents_room(rg, (size_t)n))
			return -2;
		for (int j = 0; j < n; j++) {
			uint32_t ppos = subject_table_parent_pos(t, row, (size_t)j);

			memcpy(rg->parents + (size_t)j * GIT_OID_RAWSZ, rg->pptr[j], GIT_OID_RAWSZ);
			rg->hints[j] = ppos == UINT32_MAX ? 0 : RANGE_HINT(k, ppos);
		}
		*time = tm;
		*note = NOTE_TAB | (uint64_t)k << 32 | pos;
		return n;
	}
	return -1;
}

/*
 * The walk's source: parents and committer time from the commit-graph
 * file, else from the commit read from the mapped packs (or libgit2, for
 * a loose one): then whole, its message kept for cite_range_next() (the
 * walk reads the commits newest first, as the packs hold them, and each
 * is inflated once) with the .idx position found for the read, its note's
 * place, or its first bytes only once RANGE_KEEP_MAX is kept.
 */
static int range_commit(void *ctx, const unsigned char *id, uint64_t hint, int64_t *time,
			const unsigned char **parents, const uint64_t **hints, size_t *np,
			uint64_t *note, char *err, size_t errsz)
{
	cite_range *rg = ctx;
	cite_git2 *g = rg->g;
	char hex[GIT_OID_HEXSZ + 1];
	git_odb_object *o = NULL;
	located at, *pat = NULL;
	const char *d, *m;
	size_t len, mlen;
	int n, rc = 1, keep = rg->klen < test_hook_range_keep(RANGE_KEEP_MAX);

	*note = NOTE_NONE;
	n = g->cg ? commit_graph_parents(g->cg, id, time, rg->parents, rg->pcap) : -1;
	if (n >= 0 && (size_t)n > rg->pcap) {
		if (parents_room(rg, (size_t)n))
			return -1;
		n = commit_graph_parents(g->cg, id, time, rg->parents, rg->pcap);
	}
	if (n < 0 && g->rpos && (n = table_commit(rg, id, hint, time, note)) >= 0)
		*hints = rg->hints;
	if (n < 0 && n != -2) {
		/* kept: read whole, its place kept with it for its note */
		if (g->rd && objread_locate_pos(g->rd, id, &at.pack, &at.i, &at.off))
			pat = &at;
		rc = raw_commit_at(g, id, pat, keep, &d, &len, &o);
		if (rc < 0)
			return -1;
		if (pat && ++rg->walk_reads % TRIM_READS == 0)
			objread_trim_packs(g->rd, 0);
		n = rc ? commit_parents(d, len, GIT_OID_RAWSZ, rg->parents, rg->pcap) : -1;
		if (n > 0 && (size_t)n > rg->pcap) {
			if (parents_room(rg, (size_t)n)) {
				git_odb_object_free(o);
				return -1;
			}
			n = commit_parents(d, len, GIT_OID_RAWSZ, rg->parents, rg->pcap);
		}
		/* for the subject index: not inflated again (the packs' only: as it reads them) */
		if (n >= 0 && !o && !g->known_done &&
		    ((!g->known && commits_known_new(&g->known, GIT_OID_RAWSZ)) ||
		     commits_known_add(g->known, id, d, len)))
			n = -2;
		if (n >= 0) {
			int tz;

			*time = commit_when(d, len, &tz);
			if (keep) {
				m = commit_msg(d, len, &mlen);
				if ((*note = keep_msg(rg, m, mlen, *time, tz, pat)) == NOTE_NONE)
					n = -2;
			}
		}
		git_odb_object_free(o);
	}
	if (n == -2)
		return -1;
	if (n < 0) {
		hexid_fmt(hex, id, GIT_OID_RAWSZ);
		snprintf(err, errsz, "cannot walk history: %s: %s", hex,
			 rc ? "not a well-formed commit" : "no such commit in the repository");
		return -2;
	}
	*parents = rg->parents;
	*np = (size_t)n;
	return 0;
}

/* The walk's tips: where it starts, and what it leaves out (^). */
typedef struct {
	git_oid *ids;
	int *hide;
	size_t n, cap;
} tips;

static int tip_add(tips *t, const git_oid *id, int hide)
{
	if (t->n == t->cap) {
		size_t cap = grow_cap(t->cap, t->n + 1, 8, sizeof(*t->ids));

		if (!cap || grow_to(&t->ids, cap, sizeof(*t->ids)) ||
		    grow_to(&t->hide, cap, sizeof(*t->hide)))
			return -1;
		t->cap = cap;
	}
	git_oid_cpy(&t->ids[t->n], id);
	t->hide[t->n++] = hide;
	return 0;
}

/* obj peeled to its commit as a tip; 0, -1 (memory) or -2 (no commit: libgit2's message). */
static int tip_add_peeled(tips *t, git_object *obj, int hide)
{
	git_object *c = NULL;
	int rc = git_object_peel(&c, obj, GIT_OBJECT_COMMIT) < 0 ? -2 : tip_add(t, git_object_id(c), hide);

	git_object_free(c);
	return rc;
}

/* Room for n more bytes at the end of a growing string; 0 or -1. */
static int str_room(char **s, size_t *len, size_t *cap, size_t n)
{
	char *b;

	if (*len + n + 1 <= *cap)
		return 0;
	*cap = 2 * (*len + n + 1);
	if (!(b = realloc(*s, *cap)))
		return -1;
	*s = b;
	return 0;
}

static int str_add(char **s, size_t *len, size_t *cap, const char *p, size_t n)
{
	if (str_room(s, len, cap, n))
		return -1;
	memcpy(*s + *len, p, n);
	*len += n;
	(*s)[*len] = '\0';
	return 0;
}

/*
 * <name>@{<n>} and <name>@{<date>} as git reads them, from that very
 * ref's own reflog (libgit2 1.5 reads HEAD@{...} from the branch HEAD
 * points at).  at == 0: the n-th prior value; else the value at the time
 * `at` (seconds since 1970): the newest entry made at or before it, and
 * before the log's first entry that entry's old value (its new one when
 * it has none), as git does.  Its ID in hex, 0; 1 when name is no ref
 * with a reflog (left to libgit2); -2 (a message set) past the log's end.
 */
static int reflog_at(git_repository *repo, const char *name, size_t n, int64_t at, char *hex)
{
	git_reference *ref = NULL;
	git_reflog *log = NULL;
	const git_reflog_entry *e = NULL;
	size_t count, i;
	int rc = 1;

	/* HEAD is itself: a lookup by the exact name first (dwim would resolve it) */
	if ((git_reference_lookup(&ref, repo, name) < 0 &&
	     git_reference_dwim(&ref, repo, name) < 0) ||
	    git_reflog_read(&log, repo, git_reference_name(ref)) < 0)
		goto done;
	count = git_reflog_entrycount(log);
	if (at) {
		for (i = 0; i < count && (e = git_reflog_entry_byindex(log, i)); i++)
			if (git_reflog_entry_committer(e)->when.time <= at)
				break;
		if (i < count && e) {
			git_oid_tostr(hex, GIT_OID_HEXSZ + 1, git_reflog_entry_id_new(e));
			rc = 0;
		} else if (count && (e = git_reflog_entry_byindex(log, count - 1))) {
			git_oid_tostr(hex, GIT_OID_HEXSZ + 1, git_oid_is_zero(git_reflog_entry_id_old(e)) ?
				      git_reflog_entry_id_new(e) : git_reflog_entry_id_old(e));
			rc = 0;
		}
	} else if (n < count && (e = git_reflog_entry_byindex(log, n))) {
		git_oid_tostr(hex, GIT_OID_HEXSZ + 1, git_reflog_entry_id_new(e));
		rc = 0;
	} else if (n && n == count && (e = git_reflog_entry_byindex(log, n - 1)) &&
		   !git_oid_is_zero(git_reflog_entry_id_old(e))) {
		git_oid_tostr(hex, GIT_OID_HEXSZ + 1, git_reflog_entry_id_old(e));
		rc = 0;
	} else if (count) {
		git_error_set(GIT_ERROR_REFERENCE, "log for '%s' only has %zu entries", name, count);
		rc = -2;
	}
done:
	git_reflog_free(log);
	git_reference_free(ref);
	return rc;
}

/* 1 when name is a symbolic ref (HEAD): libgit2 would read its target's reflog. */
static int symbolic_ref(git_repository *repo, const char *name)
{
	git_reference *ref = NULL;
	int sym = git_reference_lookup(&ref, repo, name) == 0 &&
		  git_reference_type(ref) == GIT_REFERENCE_SYMBOLIC;

	git_reference_free(ref);
	return sym;
}

/*
 * The date of <name>@{<date>} (d, NUL-terminated) in the forms written
 * most; git's approxidate reads more, and libgit2 reads them as git does
 * for a ref that is not symbolic.  Read here: seconds since 1970
 * (100000000 or more, git's rule against an entry number);
 * YYYY-MM-DD[( |T)HH:MM[:SS]][ ][Z|UTC|+hhmm|-hhmm], local time when no
 * zone is given, and a day without a time at this time of day, as git; "now", "yesterday"; "N <unit>[s] ago" with blanks
 * or dots, the unit second, minute, hour, day or week.  0 with *out, -1
 * when it is none of these.
 */
static int reflog_date(const char *d, time_t now, int64_t *out)
{
	static const struct { const char *name; int64_t secs; } units[] = {
		{ "second", 1 }, { "minute", 60 }, { "hour", 3600 }, { "day", 86400 },
		{ "week", 7 * 86400 },
	};
	struct tm tm = { 0 };
	char unit[16], sep1, sep2, zone[8] = "";
	long long v;
	int k = 0, used = -1, zh, zm;

	if (strspn(d, "0123456789") == strlen(d) && *d) {
		errno = 0;
		v = strtoll(d, NULL, 10);
		if (errno || v < 100000000)
			return -1;
		*out = v;
		return 0;
	}
	if (!strcmp(d, "now") || !strcmp(d, "yesterday")) {
		*out = (int64_t)now - (d[0] == 'y' ? 86400 : 0);
		return 0;
	}
	if (sscanf(d, "%lld%c%15[a-z]%c%n", &v, &sep1, unit, &sep2, &k) == 4 && v >= 0 &&
	    (sep1 == ' ' || sep1 == '.') && sep1 == sep2 && !strcmp(d + k, "ago")) {
		size_t ul = strlen(unit);

		if (ul > 1 && unit[ul - 1] == 's')
			unit[--ul] = '\0';
		for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
			if (!strcmp(unit, units[i].name) && v <= INT64_MAX / units[i].secs) {
				*out = (int64_t)now - v * units[i].secs;
				return 0;
			}
		return -1;
	}
	if (sscanf(d, "%4d-%2d-%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &used) != 3 ||
	    used != 10)
		return -1;
	d += used;
	if (!((*d == ' ' || *d == 'T') && d[1] >= '0' && d[1] <= '9')) {
		/* a day alone is that day at this time of day (local), as git's approxidate */
		time_t t = now;
		struct tm lt;

		if (!localtime_r(&t, &lt))
			return -1;
		tm.tm_hour = lt.tm_hour;
		tm.tm_min = lt.tm_min;
		tm.tm_sec = lt.tm_sec;
	} else {
		used = -1;
		if (sscanf(d + 1, "%2d:%2d%n", &tm.tm_hour, &tm.tm_min, &used) != 2 || used != 5)
			return -1;
		d += 1 + used;
		if (*d == ':') {
			used = -1;
			if (sscanf(d + 1, "%2d%n", &tm.tm_sec, &used) != 1 || used != 2)
				return -1;
			d += 1 + used;
		}
	}
	if (*d == ' ')
		d++;
	if (strlen(d) >= sizeof(zone))
		return -1;
	strcpy(zone, d);
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	if (tm.tm_mon < 0 || tm.tm_mon > 11 || tm.tm_mday < 1 || tm.tm_mday > 31 ||
	    tm.tm_hour > 23 || tm.tm_min > 59 || tm.tm_sec > 60)
		return -1;
	if (!*zone) {
		tm.tm_isdst = -1;
		*out = (int64_t)mktime(&tm);
		return 0;
	}
	*out = (int64_t)timegm(&tm);
	if (!strcmp(zone, "Z") || !strcmp(zone, "UTC"))
		return 0;
	used = -1;
	if ((zone[0] != '+' && zone[0] != '-') || strlen(zone) != 5 ||
	    strspn(zone + 1, "0123456789") != 4 || sscanf(zone + 1, "%2d%2d%n", &zh, &zm, &used) != 2 ||
	    used != 4 || zm > 59)
		return -1;
	*out -= (zone[0] == '+' ? 1 : -1) * (int64_t)(zh * 3600 + zm * 60);
	return 0;
}

/*
 * The revision words of spec as libgit2 reads them: "@" alone (a side of
 * a range, or after "^") is HEAD, as in git, and <name>@{<n>} or
 * <name>@{<date>} is the ID reflog_at() finds.  0 with *out the caller's to free, -1 or -2.
 */
static int spec_expand(git_repository *repo, const char *spec, char **out)
{
	size_t len = 0, cap = 0, seg = spec[0] == '^', i = 0;
	char *s = NULL, hex[GIT_OID_HEXSZ + 1];
	int rc = str_add(&s, &len, &cap, spec, seg);

	while (!rc && spec[i]) {
		if (i < seg) {
			i++;
			continue;
		}
		if (spec[i] == '.' && spec[i + 1] == '.') {
			size_t dots = spec[i + 2] == '.' ? 3 : 2;

			rc = str_add(&s, &len, &cap, spec + i, dots);
			i += dots;
			seg = i;
		} else if (spec[i] == '@' && i == seg && spec[i + 1] != '{') {
			rc = str_add(&s, &len, &cap, "HEAD", 4);
			i++;
		} else if (spec[i] == '@' && i > seg && spec[i + 1] == '{' &&
			   strchr(spec + i + 2, '}') && spec[i + 2] != '-' && spec[i + 2] != '}') {
			/* <name>@{<n>} or <name>@{<date>}; @{-N}, @{u}, @{push}: libgit2's */
			size_t end = (size_t)(strchr(spec + i + 2, '}') - spec) + 1;
			char *name = strndup(spec + seg, i - seg);
			char *what = strndup(spec + i + 2, end - i - 3);
			int64_t at = 0;
			unsigned long n = 0;

			if (!name || !what) {
				free(name);
				free(what);
				rc = -1;
				break;
			}
			if (strspn(what, "0123456789") == strlen(what))
				n = strtoul(what, NULL, 10);
			rc = strpbrk(name, "~^:{") ? 1 : 0;
			if (!rc && (strspn(what, "0123456789") != strlen(what) || n >= 100000000) &&
			    strcmp(what, "u") && strcmp(what, "upstream") && strcmp(what, "push") &&
			    reflog_date(what, time(NULL), &at)) {
				rc = 1; /* another date form: libgit2 reads it as git does ... */
				if (symbolic_ref(repo, name)) { /* ... from the wrong reflog */
					git_error_set(GIT_ERROR_INVALID, "%s@{%s}: a date read here as "
						      "YYYY-MM-DD[ HH:MM[:SS]][ +hhmm], seconds since "
						      "1970, or N <unit>s ago", name, what);
					rc = -2;
				}
			} else if (!rc && (at || strspn(what, "0123456789") == strlen(what))) {
				rc = reflog_at(repo, name, n, at, hex);
			} else {
				rc = 1;
			}
			free(name);
			free(what);
			if (!rc) {
				len -= i - seg; /* the name, written already */
				rc = str_add(&s, &len, &cap, hex, strlen(hex));
				i = end;
			} else if (rc == 1) {
				rc = str_add(&s, &len, &cap, spec + i, end - i);
				i = end;
			}
		} else {
			rc = str_add(&s, &len, &cap, spec + i, 1);
			i++;
		}
	}
	if (rc) {
		free(s);
		return rc;
	}
	*out = s;
	return 0;
}

/*
 * git's shorthands for a commit and its parents (gitrevisions(7)), which
 * libgit2's revparse does not read: "C^@" its parents (C left out), "C^!"
 * C without any parent's history, "C^-N" (N defaults to 1) the commits of
 * "C^N..C".  1 when spec is one of them (its tips added), 0 when it is
 * not, -1 (memory) or -2 (libgit2's message, or one set here).
 */
static int tips_parents_form(tips *t, git_repository *repo, const char *spec)
{
	size_t len = strlen(spec), base = len, nth = 1;
	git_object *obj = NULL;
	git_commit *c = NULL;
	char *rev;
	int form, rc;

	if (len > 2 && spec[len - 2] == '^' && (spec[len - 1] == '@' || spec[len - 1] == '!')) {
		form = spec[len - 1];
		base = len - 2;
	} else {
		while (base && spec[base - 1] >= '0' && spec[base - 1] <= '9')
			base--;
		if (base < 3 || spec[base - 1] != '-' || spec[base - 2] != '^')
			return 0;
		if (base < len) {
			char *end;

			errno = 0;
			nth = strtoul(spec + base, &end, 10);
			if (errno || nth == 0 || nth > UINT_MAX) {
				git_error_set_str(GIT_ERROR_INVALID, "no such parent");
				return -2;
			}
		}
		form = '-';
		base -= 2;
	}
	if (!(rev = strndup(spec, base)))
		return -1;
	rc = git_revparse_single(&obj, repo, rev) < 0 ||
	     git_object_peel((git_object **)&c, obj, GIT_OBJECT_COMMIT) < 0 ? -2 : 0;
	free(rev);
	if (!rc && form == '-' && nth > git_commit_parentcount(c)) {
		git_error_set_str(GIT_ERROR_INVALID, "no such parent");
		rc = -2;
	}
	if (!rc && form != '@')
		rc = tip_add(t, git_commit_id(c), 0);
	for (unsigned i = 0; !rc && i < git_commit_parentcount(c); i++)
		if (form != '-' || i + 1 == nth)
			rc = tip_add(t, git_commit_parent_id(c, i), form != '@');
	git_commit_free(c);
	git_object_free(obj);
	return rc ? rc : 1;
}

/*
 * One revision ("B", "^A") or range ("A..B", "A...B": both sides, less
 * their merge bases, as git rev-list reads it; "C^@", "C^!", "C^-N"), as
 * libgit2 parses them; a side left out is HEAD.  0, -1 or -2 (libgit2's
 * message).
 */
static int tips_parse_expanded(tips *t, git_repository *repo, const char *spec)
{
	git_revspec rs = { 0 };
	git_oidarray bases = { 0 };
	git_object *from = NULL;
	int rc;

	if (spec[0] != '^' && (rc = tips_parents_form(t, repo, spec)))
		return rc < 0 ? rc : 0;
	if (spec[0] == '^') {
		if (git_revparse_single(&from, repo, spec + 1) < 0)
			return -2;
		rc = tip_add_peeled(t, from, 1);
		git_object_free(from);
		return rc;
	}
	if (git_revparse(&rs, repo, spec) < 0)
		return -2;
	if (rs.flags & GIT_REVSPEC_SINGLE) {
		rc = tip_add_peeled(t, rs.from, 0);
	} else if (rs.flags & GIT_REVSPEC_MERGE_BASE) {
		rc = tip_add_peeled(t, rs.from, 0);
		if (!rc)
			rc = tip_add_peeled(t, rs.to, 0);
		/* no merge base (GIT_ENOTFOUND): both sides whole */
		if (!rc && (rc = git_merge_bases(&bases, repo, &t->ids[t->n - 2], &t->ids[t->n - 1])))
			rc = rc == GIT_ENOTFOUND ? 0 : -2;
		for (size_t i = 0; !rc && i < bases.count; i++)
			rc = tip_add(t, &bases.ids[i], 1);
		git_oidarray_dispose(&bases);
	} else {
		/* git_revwalk_push_range(): the left side hidden first */
		rc = tip_add_peeled(t, rs.from, 1);
		if (!rc)
			rc = tip_add_peeled(t, rs.to, 0);
	}
	git_object_free(rs.from);
	git_object_free(rs.to);
	return rc;
}

/* spec read after spec_expand(); 0, -1 or -2. */
static int tips_parse(tips *t, git_repository *repo, const char *spec)
{
	char *x = NULL;
	int rc = spec_expand(repo, spec, &x);

	if (!rc)
		rc = tips_parse_expanded(t, repo, x);
	free(x);
	return rc;
}

/*
 * The range as one revision or range, as it always was read; failing
 * that, words separated by blanks, each one of those (git rev-list's
 * "^A B" given in one argument).  0, -1 or -2 (libgit2's message).
 */
static int tips_read(tips *t, git_repository *repo, const char *range)
{
	char *copy, *word, *save = NULL;
	int rc = tips_parse(t, repo, range);

	if (rc != -2 || !strpbrk(range, " \t\n"))
		return rc;
	t->n = 0;
	if (!(copy = strdup(range)))
		return -1;
	rc = 0;
	for (word = strtok_r(copy, " \t\n", &save); word && !rc; word = strtok_r(NULL, " \t\n", &save))
		rc = tips_parse(t, repo, word);
	free(copy);
	return rc;
}

int cite_range_new(cite_range **out, cite_git2 *g, const char *range, char *err, size_t errsz)
{
	cite_range *rg = calloc(1, sizeof(*rg));
	range_source src = { rg, range_commit };
	range_graph graph = { 0 };
	range_tip *rt = NULL;
	tips t = { 0 };
	size_t nread;
	int rc = -1, want_graph;

	*out = NULL;
	if (!rg)
		return -1;
	rg->g = g;
	git_error_clear();
	rc = tips_read(&t, g->repo, range);
	if (rc == -2 && unreadable()) {
		/* the revision names a commit that cannot be read: no usage error */
		snprintf(err, errsz, "cannot read the commits of '%s': %s", range, git2_msg());
		rc = -3;
		goto done;
	}
	if (rc == -2) {
		snprintf(err, errsz, "bad revision range '%s': %s", range, git2_msg());
		goto done;
	}
	if (rc)
		goto done;
	/*
	 * No commit-graph file: the parents the walk reads make the graph of
	 * ancestry questions (libgit2 walks commit by commit for each), and
	 * with the history of HEAD, the branches and the tags read on top,
	 * of "public" for the subject search.  A graph made later for the
	 * subject index, of every commit, comes first.
	 */
	need_graph(g);
	if ((rc = range_tables(g)))
		goto done;
	want_graph = !g->cg && !g->rcg;
	if (want_graph && !g->tips_read)
		g->tips_read = read_tips(g) ? -1 : 1;
	nread = want_graph && g->tips_read > 0 ? g->ntips : 0;
	rc = -1;
	if (!(rt = malloc((t.n + nread + 1) * sizeof(*rt))))
		goto done;
	for (size_t i = 0; i < t.n; i++)
		rt[i] = (range_tip){ t.ids[i].id, t.hide[i] ? RANGE_HIDE : RANGE_PUSH };
	for (size_t i = 0; i < nread; i++)
		rt[t.n + i] = (range_tip){ g->tips[i].id, RANGE_READ };
	rc = range_walk(&rg->list, want_graph ? &graph : NULL, &src, GIT_OID_RAWSZ, rt,
			t.n + nread, err, errsz);
	range_rows_free(g); /* the walk's only */
	if (rc == -2)
		rc = -3;
	if (!rc && graph.n)
		rc = commit_graph_build(&g->rcg, GIT_OID_RAWSZ, graph.ids, graph.n, graph.pstart,
					graph.plist);
	if (!rc && rg->list.n) { /* what in_range() answers from */
		free(g->rids);
		g->nrids = 0;
		if (!(g->rids = calloc(rg->list.n, sizeof(*g->rids)))) {
			rc = -1;
		} else {
			for (size_t i = 0; i < rg->list.n; i++)
				memcpy(g->rids[i].id, rg->list.ids + i * GIT_OID_RAWSZ, GIT_OID_RAWSZ);
			/* git_oid is its bytes: sorted by them, as oid_cmp() orders them */
			idbatch_sort_records((unsigned char *)g->rids, rg->list.n, sizeof(*g->rids));
			g->nrids = rg->list.n;
		}
	}
	range_graph_free(&graph);
done:
	free(rt);
	free(t.ids);
	free(t.hide);
	if (rc) {
		cite_range_free(rg);
		return rc;
	}
	*out = rg;
	return 0;
}

int cite_range_next(cite_range *rg, unsigned char *id, const char **msg, size_t *len,
		    char *err, size_t errsz)
{
	char hex[GIT_OID_HEXSZ + 1];
	const unsigned char *cid;
	git_odb_object *o;
	const char *d, *m;
	size_t n;
	uint64_t note;
	int rc;

	if (rg->next >= rg->list.n)
		return 0;
	note = rg->list.notes[rg->next];
	cid = rg->list.ids + rg->next++ * GIT_OID_RAWSZ;
	memcpy(id, cid, GIT_OID_RAWSZ);
	rg->last = note != NOTE_NONE && (note & NOTE_TAB) ? note : NOTE_NONE;
	rg->kept_read = 0;
	if (note != NOTE_NONE && !(note & NOTE_TAB)) {
		kept_when w;

		memcpy(&w, rg->kept + note - sizeof(w), sizeof(w));
		rg->when = w.time;
		rg->when_tz = w.tz;
		rg->kept_read = 1;
		rg->kept_pack = w.pack;
		rg->kept_pos = w.pos;
		*msg = rg->kept + note;
		*len = strlen(*msg);
		return 1;
	}
	rc = raw_commit(rg->g, cid, NULL, &d, &n, &o);
	if (rc < 0)
		return -1;
	if (!rc) {
		hexid_fmt(hex, cid, GIT_OID_RAWSZ);
		snprintf(err, errsz, "cannot read commit %s", hex);
		return -2;
	}
	rg->when = commit_when(d, n, &rg->when_tz);
	m = commit_msg(d, n, &n);
	if (n + 1 > rg->msgcap) {
		char *b = realloc(rg->msg, n + 1);

		if (!b) {
			git_odb_object_free(o);
			return -1;
		}
		rg->msg = b;
		rg->msgcap = n + 1;
	}
	memcpy(rg->msg, m, n);
	rg->msg[n] = '\0';
	git_odb_object_free(o);
	*msg = rg->msg;
	*len = n;
	return 1;
}

/* ---- the notes on the messages ------------------------------------------------ */

typedef struct {
	unsigned char *out;
	size_t max, len;
} build_id_arg;

/* The main program's GNU build ID (a hash of its code and data, made by the linker). */
static int build_id_of(struct dl_phdr_info *info, size_t size, void *arg)
{
	build_id_arg *a = arg;

	(void)size;
	if (info->dlpi_name && *info->dlpi_name)
		return 0; /* a shared library */
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		const unsigned char *p = (const unsigned char *)(info->dlpi_addr + ph->p_vaddr);
		size_t left = ph->p_filesz;

		if (ph->p_type != PT_NOTE)
			continue;
		while (left >= sizeof(ElfW(Nhdr))) {
			const ElfW(Nhdr) *nh = (const ElfW(Nhdr) *)p;
			size_t name = (nh->n_namesz + 3) & ~(size_t)3, desc = (nh->n_descsz + 3) & ~(size_t)3;
			size_t whole = sizeof(*nh) + name + desc;

			if (whole > left)
				break;
			if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 &&
			    !memcmp(p + sizeof(*nh), "GNU", 4) && nh->n_descsz > 0 &&
			    nh->n_descsz <= a->max) {
				memcpy(a->out, p + sizeof(*nh) + name, nh->n_descsz);
				a->len = nh->n_descsz;
				return 1;
			}
			p += whole;
			left -= whole;
		}
	}
	return 1;
}

/*
 * What the notes are kept under: "verify" and this build's ID, since what
 * a message yields depends on the parser of this very build (no build ID:
 * no notes).
 */
static size_t notes_stamp(unsigned char *out, size_t max)
{
	static const char kind[] = "verify-cite-2:";
	build_id_arg a = { out + sizeof(kind) - 1, max - (sizeof(kind) - 1), 0 };

	memcpy(out, kind, sizeof(kind) - 1);
	dl_iterate_phdr(build_id_of, &a);
	return a.len ? sizeof(kind) - 1 + a.len : 0;
}

/* Pack k's notes read from the cache, once: 0, or -1 (memory). */
static int notes_read(cite_range *rg, uint32_t k)
{
	cite_git2 *g = rg->g;
	const unsigned char *sum, *ids;
	uint32_t n;
	size_t stride;
	subject_bind b;

	if (rg->notes_state[k])
		return 0;
	rg->notes_state[k] = 1;
	objread_pack(g->rd, k, &sum, &n, &ids, &stride);
	objread_pack_files(g->rd, k, &b.pack, &b.idx);
	b.pack_path = NULL;
	return commit_notes_load(g->cache_dir, GIT_OID_RAWSZ, sum, n, &b, rg->stamp, rg->stamplen,
				 &rg->notes[k]) < 0 ? -1 : 0;
}

/* Whether notes can be kept at all: 1, 0 (no cache, no packs, no build ID), -1 (memory). */
static int notes_ready(cite_range *rg)
{
	cite_git2 *g = rg->g;
	uint32_t np;

	if (rg->notes)
		return 1;
	if (!g->rd || !g->cache_dir || !(np = objread_npacks(g->rd)) ||
	    !(rg->stamplen = notes_stamp(rg->stamp, sizeof(rg->stamp))))
		return 0;
	if (!(rg->notes = calloc(np, sizeof(*rg->notes))) ||
	    !(rg->notes_state = calloc(np, 1))) {
		free(rg->notes);
		rg->notes = NULL;
		return -1;
	}
	return 1;
}

int cite_range_next_noted(cite_range *rg, unsigned char *id, const char **msg, size_t *len,
			  uint32_t *note, char *err, size_t errsz)
{
	uint64_t at;
	uint32_t k, v;
	const unsigned char *bytes;
	size_t blen;
	int rc;

	if (rg->next < rg->list.n && (at = rg->list.notes[rg->next]) != NOTE_NONE &&
	    (at & NOTE_TAB) && (rc = notes_ready(rg))) {
		k = (uint32_t)((at & ~NOTE_TAB) >> 32);
		if (rc < 0 || notes_read(rg, k))
			return -1;
		cite_list_free(&rg->dlist);
		free(rg->dmsg);
		rg->dmsg = NULL;
		if (commit_notes_find_bytes(&rg->notes[k], (uint32_t)at, &v, &bytes, &blen) &&
		    ((!blen && v != CITE_NOTE_READ) ||
		     (blen && (rc = cite_digest_unpack(bytes, blen, &rg->dlist, &rg->dmsg, len)) <= 0))) {
			if (blen && rc < 0)
				return -1;
			memcpy(id, rg->list.ids + rg->next++ * GIT_OID_RAWSZ, GIT_OID_RAWSZ);
			rg->last = NOTE_NONE;
			*note = v;
			if (!blen)
				return 2;
			*msg = rg->dmsg;
			test_hook_trace("a message's parse from its digest, not read");
			/* what it cites is read by the resolver: those pages let go as after a read */
			if (++rg->reads % TRIM_READS == 0)
				objread_trim(rg->g->rd);
			return 3;
		}
		/* no note, or a digest that is none (never written so): the message is read */
	}
	rc = cite_range_next(rg, id, msg, len, err, errsz);
	test_hook_trace(rc == 1 ? "a message read" : NULL);
	if (rc == 1 && rg->g->rd && ++rg->reads % TRIM_READS == 0)
		objread_trim_packs(rg->g->rd, !rg->kept_read);
	/*
	 * a commit the walk read: where a pack holds it, for its note (the
	 * walk's answer when it kept the message: the same search)
	 */
	if (rc == 1 && rg->last == NOTE_NONE && rg->kept_read && rg->g->rd) {
		if (rg->kept_pack != UINT32_MAX)
			rg->last = NOTE_TAB | (uint64_t)rg->kept_pack << 32 | rg->kept_pos;
		return rc;
	}
	for (k = 0; rc == 1 && rg->last == NOTE_NONE && rg->g->rd && k < objread_npacks(rg->g->rd);
	     k++) {
		uint32_t pos = objread_find_in(rg->g->rd, k, id);

		if (pos != UINT32_MAX)
			rg->last = NOTE_TAB | (uint64_t)k << 32 | pos;
	}
	return rc;
}

int cite_range_learn_digest(cite_range *rg, uint32_t note, const unsigned char *digest,
			    size_t len)
{
	const unsigned char *had;
	size_t hadlen;
	uint32_t k, v;
	int rc;

	if (rg->last == NOTE_NONE || (rc = notes_ready(rg)) == 0)
		return 0;
	k = (uint32_t)((rg->last & ~NOTE_TAB) >> 32);
	if (rc < 0 || notes_read(rg, k))
		return -1;
	/* known already (a message that must be read, or read for --fix): nothing new to keep */
	if (rg->notes_state[k] == 1 &&
	    commit_notes_find_bytes(&rg->notes[k], (uint32_t)rg->last, &v, &had, &hadlen) &&
	    v == note && hadlen == len && (!len || !memcmp(had, digest, len))) {
		rg->last = NOTE_NONE;
		return 0;
	}
	if (commit_notes_add_bytes(&rg->notes[k], (uint32_t)rg->last, note, digest, len)) {
		if (errno != EOVERFLOW)
			return -1;
		/* the notes' bytes are full (4 GiB): this message is read again next time */
		if (commit_notes_add(&rg->notes[k], (uint32_t)rg->last, CITE_NOTE_READ))
			return -1;
	}
	rg->notes_state[k] = 2;
	rg->last = NOTE_NONE;
	return 0;
}

int cite_range_learn(cite_range *rg, uint32_t note)
{
	return cite_range_learn_digest(rg, note, NULL, 0);
}

cite_list *cite_range_parsed(cite_range *rg)
{
	return &rg->dlist;
}

void cite_range_keep_notes(cite_range *rg)
{
	cite_git2 *g = rg->g;

	for (uint32_t k = 0; rg->notes && k < objread_npacks(g->rd); k++) {
		const unsigned char *sum, *ids;
		uint32_t n;
		size_t stride;
		subject_bind b;

		if (rg->notes_state[k] != 2 || commit_notes_sort(&rg->notes[k]))
			continue; /* out of memory: not kept, the next run reads them again */
		rg->notes_state[k] = 1;
		objread_pack(g->rd, k, &sum, &n, &ids, &stride);
		objread_pack_files(g->rd, k, &b.pack, &b.idx);
		b.pack_path = objread_pack_path(g->rd, k);
		/* not written (a full disk, a read-only cache): the next run reads them again */
		(void)commit_notes_save(g->cache_dir, GIT_OID_RAWSZ, sum, n, &b, rg->stamp,
					rg->stamplen, &rg->notes[k]);
	}
}

void cite_range_when(const cite_range *rg, int64_t *time, int *tz)
{
	*time = rg->when;
	*tz = rg->when_tz;
}

void cite_range_free(cite_range *rg)
{
	if (!rg)
		return;
	range_list_free(&rg->list);
	for (uint32_t k = 0; rg->notes && k < objread_npacks(rg->g->rd); k++)
		commit_notes_free(&rg->notes[k]);
	free(rg->notes);
	free(rg->notes_state);
	cite_list_free(&rg->dlist);
	free(rg->dmsg);
	free(rg->pptr);
	free(rg->hints);
	free(rg->parents);
	free(rg->kept);
	free(rg->msg);
	free(rg);
}
