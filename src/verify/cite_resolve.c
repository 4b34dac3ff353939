/*
 * cite_resolve.c - decide what is wrong with each commit reference, and
 * which commit was meant.
 *
 * IDs: a prefix question to a cite_ids (the packs' .idx files and the
 * loose objects, objidx.h, or ID sets already loaded) lists the commits
 * and the other objects that start with it, in key order, without a git
 * process; the sets of every commit are asked for only by what needs
 * them all (the subject index, when the source has to read commits).  Commits are read through a cite_source (a repository in
 * cite_git2.c, a table in the unit tests): their subjects (git's %s) and
 * times are kept in a JudyL cache keyed by the ID's first 8 bytes, and
 * ancestry is the source's question.  No libgit2 here.  Searching by subject
 * needs every commit's subject: a subject index (subject_cache.h, tables
 * sorted by subject) made once, on first need, by the source from its
 * cache files (cite_git2.c) or here by reading every commit; a subject
 * shortened with "..." is a range of the sorted keys from its prefix on.
 *
 * When several commits carry the subject searched for (cherry-picks,
 * rebased copies, "typos"), the search narrows them in tiers, each kept
 * only when some commit passes it: reachable from HEAD, a branch or a
 * tag (not only from a pull request's ref: a never-merged version of a
 * series); then an ancestor of the commit being checked (--range); then
 * the one commit sharing at least TYPO_HEX leading hex chars with the ID
 * as written (a typo keeps most of it).  One commit left is the one
 * meant.  Several left are listed as candidates, nearest first (in
 * committer time to the commit being checked, or newest first for a
 * file), and none is suggested: --fix never picks among them.  All of
 * this is deterministic.
 */
#include <config.h>

#include "cite_resolve.h"

#include "arena.h"
#include "grow.h"
#include "model.h"
#include "subject_cache.h"

#include <Judy.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* References in one text from which the subject index is built first (see cite_resolve()). */
#define EAGER_INDEX_MIN 10000

/* Commits listed for an ambiguous ID, or considered for a subject. */
#define MAX_CANDS 64
/* Commits listed for a subject several commits have. */
#define MAX_LISTED 8
/* Leading hex chars an ID as written shares with a commit to be its typo (git's default abbrev). */
#define TYPO_HEX 7

typedef struct centry {
	struct centry *next;
	const char *subject;  /* NULL: not a readable commit; the index's, or in r->mem */
	int64_t time;         /* committer time */
	unsigned ulen;        /* the ID's unique length, once asked (0: not yet) */
	unsigned char id[ABBREV_MAX_RAWSZ];
} centry;

/* The objects an ID prefix names. */
typedef struct {
	size_t rawsz;
	size_t ncommits, nothers;
	size_t ntags_commitish;  /* of the others: annotated tags that peel to a commit */
	int other_type;
	unsigned char commits[MAX_CANDS][ABBREV_MAX_RAWSZ];
} prefix_hits;

/* Prefixes remembered (a power of two): the recent ones, which pasted logs repeat. */
#define MEMO_SLOTS 1024

/* Commits one hex char off a prefix of nothing, kept in its memo slot (more are asked again). */
#define MEMO_NEAR 2

/* A prefix asked lately and what it names: no commit or one (more are asked again). */
typedef struct {
	unsigned char n;      /* its length (0: an empty slot) */
	char hex[ABBREV_MAX_HEXSZ];
	unsigned char ncommits;
	int other_type;
	size_t nothers, ntags_commitish;
	unsigned char commit[ABBREV_MAX_RAWSZ];
	centry *c;            /* the commit's record, once made */
	signed char nnear;    /* typo_of(): -1 not asked (or more than MEMO_NEAR), else */
	unsigned char near[MEMO_NEAR][ABBREV_MAX_RAWSZ]; /* the commits one char off */
} memo_slot;

struct cite_resolver {
	const cite_ids *objs; /* where IDs are looked up */
	const idsets *s;      /* the sets (every commit), asked for when the subject index is built */
	const cite_source *src;
	size_t rawsz;
	unsigned min_length;
	double improbable;    /* below this P, a shared prefix is "possibly crafted" */
	int keep_all;         /* cite_resolver_keep_all(): results without findings too */
	Pvoid_t cache;        /* JudyL: first 8 ID bytes -> centry list */
	centry *last;         /* the centry asked for last (a reference asks twice running) */
	memo_slot *memo;      /* MEMO_SLOTS, by a hash of the prefix; NULL until needed */
	memo_slot *slot;      /* the slot of the prefix asked last, or NULL */
	prefix_hits *hits;    /* room for a reference's three prefix_hits (here, elsewhere, a typo's) */
	arena mem;            /* the centries and the subjects they copy */
	int indexed;
	subject_index *ix;    /* every commit's subject (subject_cache.h) */
	unsigned char *ids;   /* the commits' IDs, ascending, once asked for */
	size_t nids;
	const char *sbuf;     /* the subject read last (the source's) */
	progress *p;
	int failed;           /* an ID question failed: -1 (memory), -2 (message in err) */
	char err[512];
	struct other_repo {   /* --repo: consulted when no commit here has an ID */
		const cite_ids *ids;
		const cite_source *src;
		char *name;
		cite_resolver *sub; /* its own, for its subject index only */
	} *others;
	size_t nothers;
	/*
	 * --range: the subjects of commits that a message listed as brought
	 * in from another project (cite_list.imports), JudySL: subject ->
	 * the listing commit's ID (in mem), the first (newest) listing kept.
	 */
	Pvoid_t imported;
};

/* ---- names ------------------------------------------------------------------ */

static const struct {
	const char *name;
	int severity;
} problems[CITE_P_COUNT] = {
	[CITE_P_UNKNOWN] = { "unknown-id", CITE_ERROR },
	[CITE_P_NOT_COMMIT] = { "not-a-commit", CITE_ERROR },
	[CITE_P_AMBIGUOUS] = { "ambiguous", CITE_ERROR },
	[CITE_P_AMBIGUOUS_OBJECT] = { "ambiguous-object", CITE_WARNING },
	[CITE_P_SUBJECT] = { "subject-mismatch", CITE_ERROR },
	[CITE_P_SHORTENED] = { "subject-shortened", CITE_WARNING },
	[CITE_P_SHORT] = { "short-id", CITE_WARNING },
	[CITE_P_LONG] = { "long-id", CITE_ERROR },
	[CITE_P_UPPER] = { "upper-case-id", CITE_WARNING },
	[CITE_P_STYLE] = { "style", CITE_WARNING },
	[CITE_P_NOT_ANCESTOR] = { "not-ancestor", CITE_ERROR },
	[CITE_P_NOT_ANCESTOR_MERGED] = { "not-ancestor-merged", CITE_WARNING },
	[CITE_P_NOT_HERE] = { "not-here", CITE_WARNING },
	[CITE_P_LAYOUT] = { "layout", CITE_WARNING },
	[CITE_P_SUBJECT_UNSURE] = { "subject-unsure", CITE_WARNING },
	[CITE_P_AMBIGUOUS_LATER] = { "ambiguous-later", CITE_NOTE },
	[CITE_P_IN_SERIES] = { "in-series", CITE_NOTE },
};

const char *cite_problem_name(int problem)
{
	return problem > 0 && problem < CITE_P_COUNT ? problems[problem].name : "unknown";
}

int cite_problem_severity(int problem)
{
	return problem > 0 && problem < CITE_P_COUNT ? problems[problem].severity : CITE_ERROR;
}

const char *cite_severity_name(int severity)
{
	return severity == CITE_ERROR ? "error" : severity == CITE_NOTE ? "note" : "warning";
}

/* ---- reading commits ---------------------------------------------------------- */

static int is_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

/* Read a commit: 1 (subject in r->sbuf), 0 (not a commit here), -1 (memory). */
static int read_commit(cite_resolver *r, const unsigned char *id, int64_t *time)
{
	const char *subject;
	int rc = r->src->commit(r->src->ctx, id, &subject, time);

	if (rc <= 0)
		return rc;
	r->sbuf = subject;
	return 1;
}

static Word_t key8(const unsigned char *id)
{
	Word_t k = 0;

	for (size_t i = 0; i < sizeof(Word_t); i++)
		k = (k << 8) | id[i];
	return k;
}

/*
 * A commit the subject index holds (built already): 1 with its subject
 * in r->sbuf and its time, read once for the index; 0 when not there, -1
 * (memory).
 */
static int indexed_commit(cite_resolver *r, const unsigned char *id, int64_t *time)
{
	if (!r->ix)
		return 0;
	return subject_index_lookup(r->ix, id, &r->sbuf, time);
}

/* The cached subject and time of a commit (subject NULL if unreadable); NULL: memory. */
static centry *commit_info(cite_resolver *r, const unsigned char *id)
{
	Word_t k = key8(id);
	PWord_t pv;
	JError_t je;
	centry *c;
	int rc;

	if (r->last && !memcmp(r->last->id, id, r->rawsz))
		return r->last;
	pv = (PWord_t)JudyLGet(r->cache, k, PJE0);
	for (c = pv ? (centry *)*pv : NULL; c; c = c->next)
		if (!memcmp(c->id, id, r->rawsz))
			return r->last = c;
	c = arena_alloc(&r->mem, sizeof(*c));
	if (!c)
		return NULL;
	memset(c, 0, sizeof(*c));
	memcpy(c->id, id, r->rawsz);
	/* the index's subject lives as long as the resolver; the source's until its next read */
	rc = indexed_commit(r, id, &c->time);
	if (rc > 0)
		c->subject = r->sbuf;
	if (!rc && (rc = read_commit(r, id, &c->time)) > 0 &&
	    !(c->subject = arena_strdup(&r->mem, r->sbuf)))
		rc = -1;
	pv = rc < 0 ? PJERR : (PWord_t)JudyLIns(&r->cache, k, &je);
	if (pv == PJERR)
		return NULL; /* c stays in the arena, unused */
	c->next = (centry *)*pv;
	*pv = (Word_t)c;
	return r->last = c;
}

/* ---- the subject index ---------------------------------------------------------- */

/* An ID question's status: a failure is kept for cite_resolve() (r->failed). */
static int id_status(cite_resolver *r, int rc)
{
	if (rc < 0 && !r->failed)
		r->failed = rc;
	return rc;
}

/*
 * The sets, at least of every commit, walked on first need (cite_ids.sets):
 * 0, -1 (memory), -2 (r->failed).
 */
static int need_sets(cite_resolver *r)
{
	if (r->s)
		return 0;
	return id_status(r, r->objs->sets(r->objs->ctx, &r->s, r->err, sizeof(r->err)));
}

/*
 * The IDs of every commit, ascending (the source asks when it needs them:
 * only then are the sets walked).  0, or -1 (memory, or r->failed).
 */
static int all_commits(void *arg, const unsigned char **ids, size_t *n)
{
	cite_resolver *r = arg;
	size_t max;
	const unsigned char *id;
	idset_iter it;
	int type;

	if (need_sets(r))
		return -1;
	max = idsets_count(r->s, ABBREV_SET_COMMIT);
	if (!r->ids) {
		if (!(r->ids = malloc((max ? max : 1) * r->rawsz)))
			return -1;
		idset_iter_init(&it, r->s, ABBREV_SET_COMMIT);
		while (r->nids < max && r->nids < UINT32_MAX && idset_iter_next(&it, &id, &type))
			memcpy(r->ids + r->nids++ * r->rawsz, id, r->rawsz);
	}
	*ids = r->ids;
	*n = r->nids;
	return 0;
}

/* What the source's each_commit() gives: rows of the table, their subjects in one buffer. */
typedef struct {
	cite_resolver *r;
	subject_row *rows;
	size_t *soff;          /* offset of each row's subject in text */
	size_t n;
	subject_text text;
} index_batch;

static int batch_add(void *arg, size_t i, const char *subject, int64_t time)
{
	index_batch *b = arg;

	if ((b->soff[b->n] = subject_text_add(&b->text, subject)) == SIZE_MAX)
		return -1;
	b->rows[b->n++] = (subject_row){ NULL, (uint32_t)i, time, 0, 0 };
	progress_update(b->r->p, b->n);
	return 0;
}

/*
 * The index the resolver makes itself, when the source has none: every
 * commit read (each_commit() in the order that reads them fastest, else
 * one by one) into one table whose positions are those of r->ids.
 */
static int build_table(cite_resolver *r)
{
	static const unsigned char no_pack[ABBREV_MAX_RAWSZ];
	index_batch b = { r, NULL, NULL, 0, { NULL, 0, 0 } };
	const unsigned char *ids;
	subject_table *t;
	size_t n;
	int rc = -1;

	if (all_commits(r, &ids, &n))
		return -1;
	progress_start(r->p, "indexing commit subjects", n);
	b.rows = malloc((n ? n : 1) * sizeof(*b.rows));
	b.soff = malloc((n ? n : 1) * sizeof(*b.soff));
	if (!b.rows || !b.soff)
		goto done;
	if (r->src->each_commit) {
		if (r->src->each_commit(r->src->ctx, ids, n, batch_add, &b))
			goto done;
	} else {
		for (size_t i = 0; i < n; i++) {
			int64_t time;
			int c = read_commit(r, ids + i * r->rawsz, &time);

			if (c < 0 || (c && batch_add(&b, i, r->sbuf, time)))
				goto done;
		}
	}
	for (size_t i = 0; i < b.n; i++)
		b.rows[i].subject = b.text.s + b.soff[i];
	if (subject_table_build(&t, r->rawsz, no_pack, (uint32_t)n, b.rows, b.n) ||
	    subject_index_add(r->ix, t, ids, r->rawsz, (uint32_t)n))
		goto done;
	rc = 0;
done:
	progress_stop(r->p);
	free(b.rows);
	free(b.soff);
	free(b.text.s);
	return rc;
}

static int build_index(cite_resolver *r)
{
	int rc = 1;

	r->indexed = 1;
	if (r->src->subject_index)
		rc = r->src->subject_index(r->src->ctx, all_commits, r, r->p, &r->ix);
	if (rc > 0)
		rc = subject_index_new(&r->ix, r->rawsz) || build_table(r) ? -1 : 0;
	return rc;
}

void cite_resolver_improbable(cite_resolver *r, double threshold)
{
	r->improbable = threshold;
}

void cite_resolver_keep_all(cite_resolver *r, int on)
{
	r->keep_all = on;
}

void cite_resolver_progress(cite_resolver *r, progress *p)
{
	r->p = p;
	for (size_t i = 0; i < r->nothers; i++)
		r->others[i].sub->p = p;
}

int cite_resolver_indexed(const cite_resolver *r)
{
	return r->indexed;
}

typedef struct {
	size_t n;             /* how many matched (may exceed MAX_CANDS) */
	subject_hit h[MAX_CANDS];
} subject_hits;

/*
 * The commits whose subject is s[0..n), or with `prefix` begins with it
 * (runs of blanks folded on both sides).  0 or -1 (memory).
 */
static int search_subject(cite_resolver *r, const char *s, size_t n, int prefix, subject_hits *h)
{
	h->n = 0;
	if (memchr(s, '\0', n) || (prefix && !n))
		return 0;
	if (!r->indexed && build_index(r))
		return -1;
	if (!r->ix)
		return -1;
	return subject_index_search(r->ix, s, n, prefix, h->h, MAX_CANDS, &h->n);
}

/* ---- IDs ------------------------------------------------------------------------ */

static int hit_add(void *arg, const unsigned char *id, int type, int commitish)
{
	prefix_hits *h = arg;

	if (type == ABBREV_TYPE_COMMIT) {
		if (h->ncommits < MAX_CANDS)
			memcpy(h->commits[h->ncommits], id, h->rawsz);
		h->ncommits++;
		return 0;
	}
	if (!h->nothers)
		h->other_type = type;
	h->nothers++;
	if (type == ABBREV_TYPE_TAG && commitish)
		h->ntags_commitish++;
	return 0;
}

/* The objects of `ids` whose IDs start with hex[0..n) (n <= 2 * rawsz): 0, -1, -2. */
static int lookup_prefix_in(cite_resolver *r, const cite_ids *ids, const char *hex, size_t n,
			    prefix_hits *h)
{
	memset(h, 0, sizeof(*h));
	h->rawsz = r->rawsz;
	return id_status(r, ids->prefix(ids->ctx, hex, n, hit_add, h, r->err, sizeof(r->err)));
}

/* The memo slot of the prefix hex[0..n) (FNV-1a). */
static memo_slot *memo_slot_of(cite_resolver *r, const char *hex, size_t n)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)hex[i]) * 16777619u;
	return &r->memo[h & (MEMO_SLOTS - 1)];
}

/*
 * The objects of this repository starting with hex[0..n): a prefix asked
 * lately is answered from its memo slot (pasted logs and mailboxes cite
 * the same IDs again and again, close together; the objects do not change
 * while verify runs), with the record of its commit when one was made.
 */
static int lookup_prefix(cite_resolver *r, const char *hex, size_t n, prefix_hits *h)
{
	memo_slot *m;
	int rc;

	r->slot = NULL;
	if (!n || n > ABBREV_MAX_HEXSZ ||
	    (!r->memo && !(r->memo = calloc(MEMO_SLOTS, sizeof(*r->memo)))))
		return lookup_prefix_in(r, r->objs, hex, n, h);
	m = memo_slot_of(r, hex, n);
	if (m->n == n && !memcmp(m->hex, hex, n)) {
		h->rawsz = r->rawsz;
		h->ncommits = m->ncommits;
		h->nothers = m->nothers;
		h->ntags_commitish = m->ntags_commitish;
		h->other_type = m->other_type;
		memcpy(h->commits[0], m->commit, r->rawsz);
		if (m->c)
			r->last = m->c; /* commit_info() finds it at once */
		r->slot = m;
		return 0;
	}
	if ((rc = lookup_prefix_in(r, r->objs, hex, n, h)))
		return rc;
	if (h->ncommits <= 1) {
		m->n = (unsigned char)n;
		memcpy(m->hex, hex, n);
		m->ncommits = (unsigned char)h->ncommits;
		m->nothers = h->nothers;
		m->ntags_commitish = h->ntags_commitish;
		m->other_type = h->other_type;
		memcpy(m->commit, h->commits[0], r->rawsz);
		m->c = NULL;
		m->nnear = -1;
		r->slot = m;
	}
	return 0;
}

/* The record e of the commit the prefix asked last names: kept in its memo slot. */
static void memo_keep(cite_resolver *r, centry *e)
{
	if (r->slot && r->slot->ncommits == 1 && e && !memcmp(r->slot->commit, e->id, r->rawsz))
		r->slot->c = e;
}

/* The first --repo in which commits have the ID: its index (h filled), or -1 (none, or r->failed). */
static int lookup_elsewhere(cite_resolver *r, const char *hex, size_t n, prefix_hits *h)
{
	for (size_t i = 0; i < r->nothers; i++) {
		if (lookup_prefix_in(r, r->others[i].ids, hex, n, h))
			return -1;
		if (h->ncommits)
			return (int)i;
	}
	return -1;
}

/* Whether an ID of `set` other than `id` shares its first L hex chars. */
static int other_shares(const idsets *s, int set, const unsigned char *id, unsigned L)
{
	size_t rawsz = idsets_rawsz(s);
	unsigned char from[ABBREV_MAX_RAWSZ] = { 0 };
	const unsigned char *x;
	idset_iter it;
	int type;

	memcpy(from, id, L / 2);
	if (L % 2)
		from[L / 2] = id[L / 2] & 0xf0;
	idset_iter_init(&it, s, set);
	idset_iter_seek(&it, from);
	while (idset_iter_next(&it, &x, &type) && hexid_lcp(x, from, rawsz) >= L)
		if (memcmp(x, id, rawsz))
			return 1;
	return 0;
}

unsigned cite_unique_length(const idsets *s, int set, const unsigned char *id)
{
	size_t rawsz = idsets_rawsz(s);
	unsigned hexsz = (unsigned)(2 * rawsz), L = 0;
	const unsigned char *x;
	idset_iter it;
	int type;

	/*
	 * The length is one more than the most hex chars id shares with
	 * another ID, and that other is its neighbour in key order.  The
	 * next one is a seek away; then a longer length is tried as long as
	 * some ID still shares it (one before id, then): about one more seek.
	 */
	idset_iter_init(&it, s, set);
	idset_iter_seek(&it, id);
	while (idset_iter_next(&it, &x, &type))
		if (memcmp(x, id, rawsz)) {
			L = hexid_lcp(x, id, rawsz);
			break;
		}
	while (L < hexsz && other_shares(s, set, id, L + 1))
		L++;
	if (L == hexsz)
		return hexsz; /* not unique at all: the ID is stored twice? */
	return L + 1 < ABBREV_MIN_LEN ? ABBREV_MIN_LEN : L + 1;
}

/* ---- cite_ids over ID sets -------------------------------------------------------- */

static int sets_prefix(void *ctx, const char *hex, size_t n, cite_id_fn fn, void *arg,
		       char *err, size_t errsz)
{
	const idsets *s = ctx;
	size_t rawsz = idsets_rawsz(s);
	unsigned char from[ABBREV_MAX_RAWSZ];
	const unsigned char *id;
	idset_iter it;
	int type, rc = 0;

	(void)err;
	(void)errsz;
	if (hexid_parse_prefix(from, rawsz, hex, n))
		return 0;
	idset_iter_init(&it, s, ABBREV_SET_ALL);
	idset_iter_seek(&it, from);
	while (!rc && idset_iter_next(&it, &id, &type) && hexid_lcp(id, from, rawsz) >= n)
		rc = fn(arg, id, type, type == ABBREV_TYPE_TAG &&
			idsets_in_set(s, id, ABBREV_SET_COMMITISH));
	return rc;
}

static int sets_unique_length(void *ctx, const unsigned char *id, unsigned *len, char *err,
			      size_t errsz)
{
	(void)err;
	(void)errsz;
	*len = cite_unique_length(ctx, ABBREV_SET_ALL, id);
	return 0;
}

static int sets_sets(void *ctx, const idsets **out, char *err, size_t errsz)
{
	(void)err;
	(void)errsz;
	*out = ctx;
	return 0;
}

static size_t sets_objects(void *ctx)
{
	return idsets_count(ctx, ABBREV_SET_ALL);
}

void cite_ids_over_sets(cite_ids *out, const idsets *s)
{
	out->ctx = (void *)s;
	out->rawsz = idsets_rawsz(s);
	out->prefix = sets_prefix;
	out->unique_length = sets_unique_length;
	out->sets = sets_sets;
	out->objects_max = sets_objects;
	out->has_prefix = NULL; /* prefix() answers it */
	out->prefix_nibbles = NULL;
}

/* ---- resolver ----------------------------------------------------------------------- */

int cite_resolver_new(cite_resolver **out, const cite_ids *ids, const cite_source *src,
		      unsigned min_length)
{
	cite_resolver *r = calloc(1, sizeof(*r));

	*out = NULL;
	if (!r)
		return -1;
	r->objs = ids;
	r->src = src;
	r->rawsz = ids->rawsz;
	r->min_length = min_length;
	r->improbable = 1e-4;
	*out = r;
	return 0;
}

int cite_resolver_add_repo(cite_resolver *r, const cite_ids *ids, const cite_source *src,
			   const char *name)
{
	struct other_repo *v;

	if (ids->rawsz != r->rawsz)
		return -2;
	v = realloc(r->others, (r->nothers + 1) * sizeof(*v));
	if (!v)
		return -1;
	r->others = v;
	v[r->nothers].ids = ids;
	v[r->nothers].src = src;
	v[r->nothers].sub = NULL;
	v[r->nothers].name = strdup(name);
	if (!v[r->nothers].name)
		return -1;
	if (cite_resolver_new(&v[r->nothers].sub, ids, src, r->min_length)) {
		free(v[r->nothers].name);
		return -1;
	}
	v[r->nothers].sub->p = r->p;
	r->nothers++;
	return 0;
}

void cite_resolver_free(cite_resolver *r)
{
	if (!r)
		return;
	JudyLFreeArray(&r->cache, PJE0);
	JudySLFreeArray(&r->imported, PJE0);
	free(r->memo);
	free(r->hits);
	arena_free(&r->mem);
	subject_index_free(r->ix);
	free(r->ids);
	for (size_t i = 0; i < r->nothers; i++) {
		free(r->others[i].name);
		cite_resolver_free(r->others[i].sub);
	}
	free(r->others);
	free(r);
}

/* ---- one reference ---------------------------------------------------------------- */

/* The resolver's room for a reference's three prefix_hits (r->hits), made on first use; NULL: memory. */
static prefix_hits *hits_room(cite_resolver *r)
{
	if (!r->hits)
		r->hits = malloc(3 * sizeof(*r->hits));
	return r->hits;
}

typedef struct {
	cite_resolver *r;
	const char *buf;
	const citation *ref;
	const unsigned char *ctx;  /* the commit whose message this is, or NULL */
	cite_result *x;
	int several;          /* a subject several commits have: suggest none */
	int unsure;           /* the ID and the subject disagree, neither known wrong: suggest none */
	int dropped;          /* not a reference after all (CITE_F_MAYBE) */
	int nomem;
	int title;            /* the subject written is the commit's title line (title_matches()) */
	int msg;              /* the whole message is another project's: enum msg_foreign */
	const unsigned char *lister; /* MSG_IMPORTED: the commit that lists it */
} job;

/* Why a message is another project's, known only with the other commits (cite_resolve()). */
enum msg_foreign {
	MSG_IMPORTED = 1,     /* a descendant lists it as brought in from another project */
	MSG_PICKED            /* it says it was cherry-picked from a commit no object here is */
};

static void add(job *j, int problem, const char *fmt, ...)
{
	cite_result *x = j->x;
	cite_finding *f;
	va_list ap;
	char *msg;
	int rc;

	va_start(ap, fmt);
	rc = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (rc < 0) {
		j->nomem = 1;
		return;
	}
	f = realloc(x->f, (x->nf + 1) * sizeof(*f));
	if (!f) {
		free(msg);
		j->nomem = 1;
		return;
	}
	x->f = f;
	f[x->nf].problem = problem;
	f[x->nf].message = msg;
	x->nf++;
	if (cite_problem_severity(problem) > x->severity)
		x->severity = cite_problem_severity(problem);
}

static int set_commit(job *j, cite_commit *c, const unsigned char *id)
{
	centry *e = commit_info(j->r, id);

	memcpy(c->id, id, j->r->rawsz);
	c->subject = NULL;
	if (!e) {
		j->nomem = 1;
		return -1;
	}
	c->subject = e->subject;
	return 0;
}

static int is_quote(unsigned char c)
{
	return c == '"' || c == '\'' || c == '`';
}

/* Skip blanks (and with `loose`, quote marks) at s[*i]; 1 if a blank was among them. */
static int skip_blank(const char *s, size_t *i, size_t n, int loose)
{
	int blank = 0;

	for (;;) {
		if (*i < n && is_space((unsigned char)s[*i]))
			blank = 1, ++*i;
		else if (loose && *i < n && is_quote((unsigned char)s[*i]))
			++*i;
		else if (loose && *i + 1 < n && s[*i] == '\\' && is_quote((unsigned char)s[*i + 1]))
			*i += 2;
		else
			return blank;
	}
}

/*
 * a[0..an) and b[0..bn) are equal once each run of blanks is one space
 * (line wrapping adds them), leading and trailing blanks and a final full
 * stop (often dropped when citing) left out.  With `loose`, quote marks
 * (" ' `, and a backslash before one) do not count either: a subject
 * re-quoted to sit inside ("..."), or with its backticks dropped.
 */
static int same_text(const char *a, size_t an, const char *b, size_t bn, int loose)
{
	size_t i = 0, k = 0;

	while (an && (is_space((unsigned char)a[an - 1]) || strchr(".,;:", a[an - 1])))
		an--;
	while (bn && (is_space((unsigned char)b[bn - 1]) || strchr(".,;:", b[bn - 1])))
		bn--;
	while (i < an && is_space((unsigned char)a[i]))
		i++;
	while (k < bn && is_space((unsigned char)b[k]))
		k++;
	for (;;) {
		int sa = skip_blank(a, &i, an, loose), sb = skip_blank(b, &k, bn, loose);

		if (i == an || k == bn)
			return i == an && k == bn;
		/* loose: a line wrapped after "merge-" or "builtin/" */
		if (sa != sb && !(loose && sa && i >= 2 && (a[i - 2] == '-' || a[i - 2] == '/')))
			return 0;
		if (a[i++] != b[k++])
			return 0;
	}
}

static int same_but_blanks(const char *a, size_t an, const char *b, size_t bn)
{
	return same_text(a, an, b, bn, 0);
}

/*
 * a[0..an) and b[0..bn) have the same bytes once every blank and quote
 * mark is left out: words that lost their layout (a subject wrapped
 * without its closing quote, a space added after a comma).
 */
static int same_words(const char *a, size_t an, const char *b, size_t bn)
{
	size_t i = 0, k = 0;

	while (an && (is_space((unsigned char)a[an - 1]) || strchr(".,;:", a[an - 1])))
		an--;
	while (bn && (is_space((unsigned char)b[bn - 1]) || strchr(".,;:", b[bn - 1])))
		bn--;
	for (;;) {
		while (i < an && (is_space((unsigned char)a[i]) || is_quote((unsigned char)a[i])))
			i++;
		while (k < bn && (is_space((unsigned char)b[k]) || is_quote((unsigned char)b[k])))
			k++;
		if (i == an || k == bn)
			return i == an && k == bn;
		if (a[i++] != b[k++])
			return 0;
	}
}

/*
 * Whether the reference's subject is the real one laid out otherwise:
 * quoted differently, or followed by ", <author>" (or more commas) as in
 * (subject, A U Thor, 2010-06-24).  The part before a comma must match
 * exactly, so a subject with a comma of its own still cannot pass wrong.
 */
static int subject_layout(const citation *ref, const char *real)
{
	size_t rl = strlen(real), n = ref->subject_len;

	const char *colon = strstr(real, ": ");

	if (same_text(ref->subject, n, real, rl, 1))
		return 1;
	/*
	 * A subject that lost its closing quote at a line wrap, or a revert's
	 * title: its words are what counts, not the blanks between them
	 */
	if (((ref->style & CITE_STYLE_UNCLOSED) || (ref->flags & CITE_F_TITLE)) &&
	    same_words(ref->subject, n, real, rl))
		return 1;
	/*
	 * "gitk: ", "git-svn: ", "config: ": the area prefix left out, of
	 * one word or of a few ("net: phy: micrel: ", as the kernel's are)
	 */
	for (const char *from = real; colon && colon - from < 40 && colon - real < 120 &&
	     !memchr(from, ' ', (size_t)(colon - from)); colon = strstr(from, ": ")) {
		from = colon + 2;
		if (same_text(ref->subject, n, from, strlen(from), 1))
			return 1;
	}
	for (int tries = 0; tries < 3 && n; tries++) {
		while (n && ref->subject[n - 1] != ',')
			n--;
		if (!n)
			break;
		n--;
		if (same_text(ref->subject, n, real, rl, 1))
			return 1;
	}
	return 0;
}

/* the length of s[0..n) with each run of blanks as one space */
static size_t folded_len(const char *s, size_t n)
{
	size_t l = 0;

	for (size_t i = 0; i < n; i++)
		if (!is_space((unsigned char)s[i]) || !i || !is_space((unsigned char)s[i - 1]))
			l++;
	return l;
}

/* whether s[0..n), each run of blanks as one space, is the bytes at r */
static int folded_eq(const char *s, size_t n, const char *r)
{
	for (size_t i = 0, k = 0; i < n; k++) {
		if (is_space((unsigned char)s[i])) {
			if (r[k] != ' ')
				return 0;
			while (i < n && is_space((unsigned char)s[i]))
				i++;
		} else if (s[i++] != r[k]) {
			return 0;
		}
	}
	return 1;
}

/*
 * ("area: words ... more words"): a "..." (or U+2026) inside the subject
 * leaves out a middle part, often where the writer wrapped the line.
 * Whether the words before it start the commit's subject and the words
 * after it end it, with something left out between.
 */
static int inner_ellipsis(const char *s, size_t n, const char *real, size_t rl)
{
	for (size_t i = 1; i + 3 < n; i++) {
		size_t h = i, t = i + 3, hl, tl;

		if (memcmp(s + i, "...", 3) && memcmp(s + i, "\xe2\x80\xa6", 3))
			continue;
		while (h && is_space((unsigned char)s[h - 1]))
			h--;
		while (t < n && (is_space((unsigned char)s[t]) || s[t] == '.'))
			t++;
		if (!h || t == n)
			return 0;
		hl = folded_len(s, h);
		tl = folded_len(s + t, n - t);
		return hl + tl < rl && folded_eq(s, h, real) && folded_eq(s + t, n - t, real + rl - tl);
	}
	return 0;
}

/*
 * 1 the same (but for blanks, a final full stop, or an old "[PATCH] "
 * the citation left out), 2 a "..." prefix of it or a "..." in it for a
 * part left out, 0 no.
 */
static int subject_matches(const citation *ref, const char *real)
{
	size_t rl;

	if (!ref->subject || !real)
		return 0;
	rl = strlen(real);
	/* the same bytes (most citations): what same_but_blanks() would say, at once */
	if ((rl == ref->subject_len && !memcmp(ref->subject, real, rl)) ||
	    same_but_blanks(ref->subject, ref->subject_len, real, rl))
		return 1;
	if (real[0] == '[') {
		const char *close = strchr(real, ']');

		if (close && close[1] == ' ' &&
		    same_but_blanks(ref->subject, ref->subject_len, close + 2, strlen(close + 2)))
			return 1;
	}
	if ((ref->flags & CITE_F_ELLIPSIS) && ref->match_len) {
		/* (" area: words...") as ("area: words..."): a blank after the quote is layout */
		size_t m = ref->match_len, b = 0;

		while (b < m && ref->subject[b] == ' ')
			b++;
		if (m - b && m - b <= rl && !memcmp(ref->subject + b, real, m - b))
			return 2;
	}
	if (!(ref->flags & CITE_F_ELLIPSIS) && inner_ellipsis(ref->subject, ref->subject_len, real, rl))
		return 2;
	return 0;
}

/*
 * The commit's subject is a paragraph (no blank line after its title):
 * whether the reference's subject is its first line, as anyone quotes
 * it (git's %s joins the paragraph).  1 yes, 0 no, -1 out of memory.
 */
static int title_matches(const cite_resolver *r, const citation *ref, const unsigned char *id,
			 const char *real)
{
	size_t n = 0, rl = strlen(real);
	char *t;
	int rc;

	if (!r->src->title_len || !ref->subject)
		return 0;
	rc = r->src->title_len(r->src->ctx, id, &n);
	if (rc <= 0 || !n || n >= rl || real[n] != ' ')
		return rc < 0 ? -1 : 0;
	if (!(t = malloc(n + 1)))
		return -1;
	memcpy(t, real, n);
	t[n] = '\0';
	rc = subject_matches(ref, t) == 1;
	free(t);
	return rc;
}

/*
 * A subject never closed (the parser ends it at its line's end): whether
 * its words, less a closing quote, are the start of the commit's subject
 * up to a blank or its end (the rest on the next line, or the ")" lost).
 */
static int unclosed_prefix(const citation *ref, const char *real)
{
	size_t n = ref->subject_len, rl = strlen(real);

	if (!(ref->style & CITE_STYLE_UNCLOSED) || !ref->subject)
		return 0;
	while (n && (ref->subject[n - 1] == ' ' || is_quote((unsigned char)ref->subject[n - 1])))
		n--;
	return n && n <= rl && !memcmp(ref->subject, real, n) && (n == rl || real[n] == ' ');
}

/* 1 `anc` is an ancestor of `of`, 0 no or unknown. */
static int is_ancestor(const cite_resolver *r, const unsigned char *anc, const unsigned char *of)
{
	return r->src->is_ancestor(r->src->ctx, anc, of) == 1;
}

/* hex chars of `id` equal to the ID as written */
static unsigned lcp_given(const job *j, const unsigned char *id)
{
	unsigned char given[ABBREV_MAX_RAWSZ];
	size_t n = j->ref->id_len < 2 * j->r->rawsz ? j->ref->id_len : 2 * j->r->rawsz;
	unsigned l;

	if (hexid_parse_prefix(given, j->r->rawsz, j->ref->id, n))
		return 0;
	l = hexid_lcp(id, given, j->r->rawsz);
	return l < n ? l : (unsigned)n;
}

/* The commits a subject search left: one, or several listed as candidates. */
typedef struct {
	size_t total;         /* commits with the subject (but the one skipped) */
	size_t n;             /* of them, in the first tier: the first MAX_LISTED in ids */
	size_t later;         /* --range: left out as the commit checked or made after it: */
	int self;             /* the commit checked among them */
	unsigned char after[ABBREV_MAX_RAWSZ]; /* the first of the others */
	unsigned char ids[MAX_LISTED][ABBREV_MAX_RAWSZ];
} subject_pick;

/* Keep the commits of v[0..*n) for which keep[] is set, if any is. */
static void narrow(uint32_t *v, size_t *n, const signed char *keep)
{
	size_t k = 0;

	for (size_t i = 0; i < *n; i++)
		k += keep[i] > 0;
	if (!k)
		return;
	k = 0;
	for (size_t i = 0; i < *n; i++)
		if (keep[i] > 0)
			v[k++] = v[i];
	*n = k;
}

typedef struct {
	const cite_resolver *r;
	int64_t around;       /* the checked commit's time, or INT64_MAX: newest first */
} near_ctx;

static int64_t distance(const near_ctx *c, int64_t t)
{
	if (c->around == INT64_MAX)
		return t > 0 ? INT64_MAX - t : INT64_MAX;
	return t > c->around ? t - c->around : c->around - t;
}

/* Nearest first, then the lower ID: a deterministic order of the hits v[] of h. */
static void sort_nearest(const near_ctx *c, const subject_hit *h, uint32_t *v, size_t n)
{
	const cite_resolver *r = c->r;

	for (size_t i = 1; i < n; i++) {
		uint32_t x = v[i];
		size_t k = i;

		for (; k > 0; k--) {
			uint32_t y = v[k - 1];
			int64_t dx = distance(c, h[x].time), dy = distance(c, h[y].time);

			if (dy < dx || (dy == dx && memcmp(h[y].id, h[x].id, r->rawsz) < 0))
				break;
			v[k] = y;
		}
		v[k] = x;
	}
}

/*
 * The commits whose subject is s[0..len) (with `prefix`: begins with
 * it), skipping `not` (raw ID or NULL), narrowed as the top of the file
 * says.  1 one commit (pk->ids[0]), 2 several (pk), 0 none, -1 memory.
 */
static int find_by_subject(job *j, const char *subject, size_t len, int prefix,
			   const unsigned char *not, subject_pick *pk)
{
	cite_resolver *r = j->r;
	const cite_source *src = r->src;
	subject_hits h;
	uint32_t v[MAX_CANDS];
	signed char keep[MAX_CANDS], anc[MAX_CANDS] = { 0 };
	size_t n = 0;
	near_ctx nc = { r, INT64_MAX };

	pk->total = pk->n = pk->later = 0;
	pk->self = 0;
	if (search_subject(r, subject, len, prefix, &h))
		return -1;
	for (size_t i = 0; i < h.n && i < MAX_CANDS; i++)
		if (!not || memcmp(h.h[i].id, not, r->rawsz))
			v[n++] = (uint32_t)i;
	pk->total = h.n - ((h.n < MAX_CANDS ? h.n : MAX_CANDS) - n);
	if (j->ctx && n) {
		/*
		 * As of the commit checked: not itself, nor a commit made after
		 * it (a descendant, or committed later on another line), which
		 * its author could not have meant
		 */
		centry *e = commit_info(r, j->ctx);
		size_t k = 0;

		if (!e)
			return -1;
		for (size_t i = 0; i < n; i++) {
			const subject_hit *c = &h.h[v[i]];
			int a = is_ancestor(r, c->id, j->ctx);

			if (!memcmp(c->id, j->ctx, r->rawsz)) {
				pk->self = 1;
				pk->later++;
				continue;
			}
			if (!a && (c->time > e->time || is_ancestor(r, j->ctx, c->id))) {
				if (pk->later++ == (size_t)pk->self)
					memcpy(pk->after, c->id, r->rawsz);
				continue;
			}
			anc[v[i]] = (signed char)a; /* by hit: the tiers narrow v */
			v[k++] = v[i];
		}
		n = k;
		pk->total -= pk->later;
	}
	if (!n)
		return 0;
	/* more than MAX_CANDS ("Merge branch 'maint'"): nothing tells them apart */
	if (h.n <= MAX_CANDS && n > 1) {
		if (src->is_public) {
			for (size_t i = 0; i < n; i++)
				keep[i] = (signed char)(src->is_public(src->ctx, h.h[v[i]].id) == 1);
			narrow(v, &n, keep);
		}
		if (j->ctx && n > 1) {
			for (size_t i = 0; i < n; i++)
				keep[i] = anc[v[i]];
			narrow(v, &n, keep);
		}
		if (n > 1) {
			for (size_t i = 0; i < n; i++)
				keep[i] = lcp_given(j, h.h[v[i]].id) >= TYPO_HEX;
			narrow(v, &n, keep);
		}
	}
	if (j->ctx && n > 1) {
		centry *e = commit_info(r, j->ctx);

		if (!e)
			return -1;
		nc.around = e->time;
	}
	sort_nearest(&nc, h.h, v, n);
	pk->n = n;
	for (size_t i = 0; i < n && i < MAX_LISTED; i++)
		memcpy(pk->ids[i], h.h[v[i]].id, r->rawsz);
	return n == 1 ? 1 : 2;
}

/*
 * The commits of the prefix hex[0..n) added to v[0..*nv) (at most
 * MAX_CANDS); 0, or -1 (r->failed).  `raw`, when not NULL, is hex[0..n)
 * parsed: the objects are then asked first whether any has it at all,
 * which they can tell without reading a type.
 */
static int neighbour_commits(cite_resolver *r, const char *hex, size_t n, const unsigned char *raw,
			     prefix_hits *h, unsigned char (*v)[ABBREV_MAX_RAWSZ], size_t *nv)
{
	if (raw && r->objs->has_prefix) {
		int rc = r->objs->has_prefix(r->objs->ctx, raw, n, r->err, sizeof(r->err));

		if (rc < 0)
			return id_status(r, rc);
		if (!rc)
			return 0;
	}
	if (lookup_prefix_in(r, r->objs, hex, n, h))
		return -1;
	for (size_t i = 0; i < h->ncommits && i < MAX_CANDS && *nv < MAX_CANDS; i++)
		memcpy(v[(*nv)++], h->commits[i], r->rawsz);
	return 0;
}

/* Hex char i of the raw ID `id` set to d. */
static void set_nibble(unsigned char *id, size_t i, unsigned d)
{
	if (i % 2)
		id[i / 2] = (unsigned char)((id[i / 2] & 0xf0) | d);
	else
		id[i / 2] = (unsigned char)((id[i / 2] & 0x0f) | d << 4);
}

/*
 * The most leading hex chars of hex[0..L) some object's ID has (3 when
 * it may be fewer; L when an object has them all): a one-char change or
 * a swap at position i keeps hex[0..i) as it is, so past that position
 * no change can name an object.  One prefix lookup and one unique length
 * (the .idx names only, no object's type read).  The length, or -1
 * (r->failed).
 */
static long shared_prefix(cite_resolver *r, const char *hex, size_t L, prefix_hits *h)
{
	unsigned char id[ABBREV_MAX_RAWSZ];
	unsigned len;

	if (lookup_prefix_in(r, r->objs, hex, L, h))
		return -1;
	/* no object has all L: none is the ID padded with zeros, "another" to unique_length() */
	if (h->ncommits || h->nothers || hexid_parse_prefix(id, r->rawsz, hex, L))
		return (long)L;
	if (id_status(r, r->objs->unique_length(r->objs->ctx, id, &len, r->err, sizeof(r->err))))
		return -1;
	return len - 1 < L ? (long)len - 1 : (long)L;
}

/* Keep the commits of v[0..*n) for which keep() says 1, if any does; how many it kept. */
static size_t tier(job *j, unsigned char (*v)[ABBREV_MAX_RAWSZ], size_t *n,
		   int (*keep)(job *j, const unsigned char *id))
{
	size_t k = 0;
	signed char ok[MAX_CANDS];

	for (size_t i = 0; i < *n; i++)
		k += (ok[i] = (signed char)(keep(j, v[i]) == 1));
	if (!k)
		return 0;
	k = 0;
	for (size_t i = 0; i < *n; i++)
		if (ok[i])
			memmove(v[k++], v[i], j->r->rawsz);
	return *n = k;
}

static int tier_ancestor(job *j, const unsigned char *id)
{
	return is_ancestor(j->r, id, j->ctx);
}

static int tier_head(job *j, const unsigned char *id)
{
	const cite_source *src = j->r->src;

	return src->on_head ? src->on_head(src->ctx, id) :
	       src->is_public ? src->is_public(src->ctx, id) : 1;
}

static int tier_public(job *j, const unsigned char *id)
{
	const cite_source *src = j->r->src;

	return src->is_public ? src->is_public(src->ctx, id) : 1;
}

static int tier_subject(job *j, const unsigned char *id)
{
	centry *e = commit_info(j->r, id);

	if (!e) {
		j->nomem = 1;
		return 0;
	}
	return subject_matches(j->ref, e->subject) != 0;
}

/*
 * The commit an ID that names nothing was meant to name, one hex char
 * off: the commits whose IDs start with the ID as written with one char
 * changed (15 per char) or two neighbours swapped, 15 * L + (L - 1)
 * prefixes of its length L, each one lookup, but only at the positions
 * up to the longest prefix of it some object has (shared_prefix()):
 * about 6 of 12 among a million objects.  Of them, with a subject
 * written, those that have it; as of the commit checked (--range) its
 * ancestors only, else those on HEAD first, then (a subject written)
 * those on a branch or tag.  With no subject, the nearness alone must
 * tell: so near a miss must be improbable for a random ID of L chars
 * among the repository's objects (below cite_resolver_improbable()).
 * 1 with the one left in *out, 0 none or several, -1 (j->nomem or
 * r->failed).
 */
static int typo_of(job *j, unsigned char *out)
{
	static const char digits[] = "0123456789abcdef";
	cite_resolver *r = j->r;
	const citation *ref = j->ref;
	size_t L = ref->id_len, n = 0;
	unsigned char (*v)[ABBREV_MAX_RAWSZ];
	char hex[ABBREV_MAX_HEXSZ];
	unsigned char bin[ABBREV_MAX_RAWSZ];
	const unsigned char *raw = NULL;
	prefix_hits *h = r->hits + 2;
	memo_slot *m = r->slot; /* the prefix's, when lookup_prefix() kept it */
	long K;
	int rc = -1;

	if (L < 4 || L > 2 * r->rawsz)
		return 0;
	if (m && (m->n != L || memcmp(m->hex, ref->id, L)))
		m = NULL;
	if (!ref->subject) {
		double k = 16.0 * (double)L - 1, objects = (double)r->objs->objects_max(r->objs->ctx);

		if (-expm1(objects * log1p(-k / pow(16.0, (double)L))) >= r->improbable)
			return 0;
	}
	if (!(v = malloc(MAX_CANDS * sizeof(*v)))) {
		j->nomem = 1;
		return -1;
	}
	if (m && m->nnear >= 0) {
		n = (size_t)m->nnear;
		memcpy(v, m->near, n * sizeof(*v));
		goto found;
	}
	memcpy(hex, ref->id, L);
	if ((K = shared_prefix(r, hex, L, h)) < 0)
		goto done;
	/* the changed IDs raw as well, a nibble set at a time (raw NULL: not hex) */
	if (!hexid_parse_prefix(bin, r->rawsz, hex, L))
		raw = bin;
	for (size_t i = 0; i < L && i <= (size_t)K; i++) {
		char was = hex[i];
		unsigned shift = i % 2 ? 0 : 4, nib = (unsigned)(bin[i / 2] >> shift) & 0xf;
		unsigned some = 0xffff; /* the changes of char i that some object starts with */

		if (raw && r->objs->prefix_nibbles) {
			if (id_status(r, r->objs->prefix_nibbles(r->objs->ctx, raw, L, i, &some, r->err,
								  sizeof(r->err))) < 0)
				goto done;
		}
		for (size_t d = 0; d < 16; d++) {
			if (digits[d] == was || !(some >> d & 1))
				continue;
			hex[i] = digits[d];
			set_nibble(bin, i, (unsigned)d);
			if (neighbour_commits(r, hex, L, raw && !r->objs->prefix_nibbles ? raw : NULL, h,
					      v, &n))
				goto done;
		}
		hex[i] = was;
		set_nibble(bin, i, nib);
		if (i + 1 < L && hex[i] != hex[i + 1]) {
			unsigned next = (unsigned)(bin[(i + 1) / 2] >> (shift ^ 4)) & 0xf;

			hex[i] = hex[i + 1];
			hex[i + 1] = was;
			set_nibble(bin, i, next);
			set_nibble(bin, i + 1, nib);
			if (neighbour_commits(r, hex, L, raw, h, v, &n))
				goto done;
			hex[i + 1] = hex[i];
			hex[i] = was;
			set_nibble(bin, i, nib);
			set_nibble(bin, i + 1, next);
		}
	}
	if (m && n <= MEMO_NEAR) {
		m->nnear = (signed char)n;
		memcpy(m->near, v, n * sizeof(*v));
	}
found:
	/* the subject search follows anyway: its index tells the subjects */
	if (ref->subject && n && !r->indexed && build_index(r)) {
		j->nomem = !r->failed;
		goto done;
	}
	rc = 0;
	if (ref->subject && n && !tier(j, v, &n, tier_subject))
		n = 0;
	if (j->ctx && n && !tier(j, v, &n, tier_ancestor))
		n = 0;
	if (!j->ctx && n && !tier(j, v, &n, tier_head) && (!ref->subject || !tier(j, v, &n, tier_public)))
		n = 0;
	if (n == 1) {
		memcpy(out, v[0], r->rawsz);
		rc = 1;
	}
done:
	free(v);
	return j->nomem ? -1 : rc;
}

/* Search for the reference's own subject: as find_by_subject(). */
static int find_ref_subject(job *j, const unsigned char *not, subject_pick *pk)
{
	const citation *ref = j->ref;
	int rc;

	pk->total = pk->n = pk->later = 0;
	pk->self = 0;
	if (!ref->subject)
		return 0;
	rc = find_by_subject(j, ref->subject, ref->subject_len, 0, not, pk);
	if (rc == 0 && (ref->flags & CITE_F_ELLIPSIS))
		rc = find_by_subject(j, ref->subject, ref->match_len, 1, not, pk);
	return rc;
}

/*
 * Several commits have the subject: list them as the candidates (unless
 * the ID's own are listed) and suggest none.  0 or -1 (memory).
 */
static int list_candidates(job *j, const subject_pick *pk)
{
	cite_result *x = j->x;
	size_t n = pk->n < MAX_LISTED ? pk->n : MAX_LISTED;

	j->several = 1;
	if (x->ncands)
		return 0;
	x->cands = calloc(n, sizeof(*x->cands));
	if (!x->cands)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (set_commit(j, &x->cands[i], pk->ids[i]))
			return -1;
		x->ncands++;
	}
	return 0;
}

/*
 * No commit here has the reference's ID or subject: the first --repo
 * where commits have the subject (the ID is wrong for one of its
 * commits), its index with the hits in h, or -1: none has it, or a
 * failure (r->failed, or -1 in *nomem).
 */
static int subject_elsewhere(job *j, subject_hits *h, int *nomem)
{
	cite_resolver *r = j->r;
	const citation *ref = j->ref;

	h->n = 0;
	for (size_t i = 0; ref->subject && i < r->nothers; i++) {
		cite_resolver *o = r->others[i].sub;
		int rc = search_subject(o, ref->subject, ref->subject_len, 0, h);

		if (!rc && !h->n && (ref->flags & CITE_F_ELLIPSIS))
			rc = search_subject(o, ref->subject, ref->match_len, 1, h);
		if (rc || o->failed) {
			if (o->failed == -2 && !r->failed) {
				r->failed = -2;
				snprintf(r->err, sizeof(r->err), "%s", o->err);
			}
			*nomem = !r->failed;
			return -1;
		}
		if (h->n)
			return (int)i;
	}
	return -1;
}

/* "; in <repo>, 0123456789ab has this subject" and the like: where subject_elsewhere() found it. */
static const char *elsewhere_tail(char *buf, size_t n, const cite_resolver *r, int i,
				  const subject_hits *h)
{
	char hex[ABBREV_MAX_HEXSZ + 1];

	if (h->n == 1) {
		const cite_ids *ids = r->others[i].ids;
		char err[8];
		unsigned len = 12;

		/* as many hex chars as the ID needs there, at least 12 */
		if (ids->unique_length(ids->ctx, h->h[0].id, &len, err, sizeof(err)) || len < 12)
			len = 12;
		hexid_fmt(hex, h->h[0].id, r->rawsz);
		snprintf(buf, n, "; in %s, %.*s has this subject", r->others[i].name, (int)len, hex);
	} else {
		snprintf(buf, n, "; in %s, %zu commits have this subject", r->others[i].name, h->n);
	}
	return buf;
}

/* ", N commits have this subject" and the like, for a subject search's answer. */
static const char *subject_tail(char *buf, size_t n, int rc, const subject_pick *pk,
				const char *one, const char *none)
{
	if (rc == 1)
		return one;
	if (rc == 2) {
		if (pk->n > MAX_LISTED)
			snprintf(buf, n, "; %zu commits have this subject, none told apart as the one "
				 "meant (the %d nearest listed)", pk->total, MAX_LISTED);
		else
			snprintf(buf, n, "; %zu commits have this subject, none told apart as the one "
				 "meant", pk->total);
		return buf;
	}
	return none;
}

static const char *type_name_a(int type)
{
	switch (type) {
	case ABBREV_TYPE_TREE: return "a tree";
	case ABBREV_TYPE_BLOB: return "a blob";
	case ABBREV_TYPE_TAG: return "a tag";
	default: return "an object";
	}
}

/*
 * The unique length of `id` among all objects (4 on failure: r->failed
 * tells), kept with the commit's record once asked.
 */
static unsigned unique_len(cite_resolver *r, const unsigned char *id)
{
	unsigned L = ABBREV_MIN_LEN;
	centry *e = r->last && !memcmp(r->last->id, id, r->rawsz) ? r->last : NULL;

	if (e && e->ulen)
		return e->ulen;
	if (!id_status(r, r->objs->unique_length(r->objs->ctx, id, &L, r->err, sizeof(r->err))) && e)
		e->ulen = L;
	return L;
}

static void short_hex(const job *j, char *out, const unsigned char *id)
{
	unsigned L = unique_len(j->r, id);
	size_t hexsz = 2 * j->r->rawsz;

	if (L < j->r->min_length)
		L = j->r->min_length;
	if (L > hexsz)
		L = (unsigned)hexsz;
	hexid_fmt(out, id, j->r->rawsz);
	out[L] = '\0';
}

static void style_finding(job *j)
{
	static const struct {
		unsigned bit;
		const char *what;
	} parts[] = {
		{ CITE_STYLE_TAG, "the tag is not spelt \"Fixes:\"" },
		{ CITE_STYLE_SPACING, "not one space after \"Fixes:\" and before the subject" },
		{ CITE_STYLE_COMMIT_WORD, "no word \"commit\" belongs after \"Fixes:\"" },
		{ CITE_STYLE_NO_SUBJECT, "no (\"subject\") after the ID" },
		{ CITE_STYLE_NO_QUOTES, "the subject lacks its double quotes" },
		{ CITE_STYLE_NO_PARENS, "the subject lacks its parentheses" },
		{ CITE_STYLE_UNCLOSED, "the subject is not closed with \")" },
		{ CITE_STYLE_SPLIT, "the tag is split over lines" },
	};
	char msg[512];
	size_t n = 0;

	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		if (!(j->ref->style & parts[i].bit))
			continue;
		n += (size_t)snprintf(msg + n, sizeof(msg) - n, "%s%s", n ? "; " : "", parts[i].what);
		if (n >= sizeof(msg))
			n = sizeof(msg) - 1;
	}
	if ((j->ref->flags & CITE_F_BARE) && (j->ref->style & CITE_STYLE_NO_SUBJECT))
		add(j, CITE_P_STYLE, "a bare commit ID in prose; write commit <id> (\"subject\")");
	else
		add(j, CITE_P_STYLE, "%s style: %s", j->ref->kind == CITE_FIXES ? "Fixes: tag" :
		    "commit reference", msg);
}

static void ancestry(job *j, const unsigned char *t)
{
	cite_resolver *r = j->r;
	cite_result *x = j->x;
	char th[ABBREV_MAX_HEXSZ + 1], oh[ABBREV_MAX_HEXSZ + 1];
	centry *e;
	subject_hits h;
	subject_pick pk = { 0 };
	const unsigned char *after = NULL;

	if (is_ancestor(r, t, j->ctx))
		return;
	short_hex(j, th, t);
	e = commit_info(r, t);
	if (!e) {
		j->nomem = 1;
		return;
	}
	/* a commit with the same subject may be the one meant (a rebase) */
	if (e->subject && search_subject(r, e->subject, strlen(e->subject), 0, &h) == 0) {
		for (size_t i = 0; i < h.n && i < MAX_CANDS; i++) {
			const unsigned char *o = h.h[i].id;

			if (!memcmp(o, t, r->rawsz))
				continue;
			if (is_ancestor(r, o, j->ctx)) {
				if (pk.n < MAX_LISTED)
					memcpy(pk.ids[pk.n], o, r->rawsz);
				pk.n++;
			} else if (!after && is_ancestor(r, j->ctx, o)) {
				after = o;
			}
		}
	}
	pk.total = pk.n;
	if (pk.n == 1) {
		short_hex(j, oh, pk.ids[0]);
		add(j, CITE_P_NOT_ANCESTOR, "%s is not an ancestor of this commit; "
		    "%s with the same subject is", th, oh);
		x->suggest = 1;
		set_commit(j, &x->target, pk.ids[0]);
	} else if (pk.n > 1) {
		add(j, CITE_P_NOT_ANCESTOR, "%s is not an ancestor of this commit; %zu commits "
		    "with the same subject are, none told apart as the one meant", th, pk.n);
		if (list_candidates(j, &pk))
			j->nomem = 1;
	} else if (after) {
		short_hex(j, oh, after);
		add(j, CITE_P_NOT_ANCESTOR, "%s is not an ancestor of this commit; "
		    "%s with the same subject comes after it", th, oh);
	} else if (r->src->in_range && r->src->in_range(r->src->ctx, t) == 1) {
		/* fix and culprit on parallel branches, both merged since */
		add(j, CITE_P_NOT_ANCESTOR_MERGED, "%s is not an ancestor of this commit, but of "
		    "the range checked: made on a parallel branch, both merged since", th);
	} else {
		add(j, CITE_P_NOT_ANCESTOR, "%s is not an ancestor of this commit", th);
	}
}

/*
 * What --fix writes over the reference's span: the span itself with only
 * its ID replaced by `hex` and, when the subject is not the target's (in
 * any layout), the subject's own bytes replaced by the target's subject.
 * Every other byte (the words, quotes, date, line breaks of a split
 * reference) stays.  NULL when out of memory.
 */
static char *fixed_span(const job *j, const char *hex, const char *subject)
{
	const citation *ref = j->ref;
	const char *b = j->buf;
	size_t id_end = ref->id_start + ref->id_len, mid_end = ref->end;
	int new_subject = 0;
	char *out;

	if (ref->subject && !(ref->flags & CITE_F_TITLE) && subject && !j->title &&
	    ref->subj_start >= id_end && ref->subj_end <= ref->end &&
	    ref->subj_start <= ref->subj_end && !subject_matches(ref, subject) &&
	    !subject_layout(ref, subject)) {
		new_subject = 1;
		mid_end = ref->subj_start;
	}
	if (asprintf(&out, "%.*s%s%.*s%s%.*s", (int)(ref->id_start - ref->start), b + ref->start, hex,
		     (int)(mid_end - id_end), b + id_end, new_subject ? subject : "",
		     new_subject ? (int)(ref->end - ref->subj_end) : 0,
		     new_subject ? b + ref->subj_end : "") < 0)
		return NULL;
	return out;
}

/*
 * Whether the reference's line starts with blanks: a Fixes: tag or a
 * revert line quoted as an example (git writes them at the margin).
 */
static int indented(const job *j)
{
	size_t ls = j->ref->start;

	while (ls && j->buf[ls - 1] != '\n')
		ls--;
	return j->buf[ls] == ' ' || j->buf[ls] == '\t';
}

/*
 * Whether the one commit the subject search found is the commit being
 * checked (--range): a port citing the original it ports.  A later
 * commit is not taken as such: on git.git's history that is a series
 * reordered after its messages were written (e05b027627 in b65abcafc7ab,
 * 2d216a7ef6 in f08fb8dfea40), an ID that is really wrong.
 */
static int only_this_commit(job *j, const subject_pick *pk, int rc)
{
	if (!j->ctx || !pk->self || pk->later != 1)
		return 0;
	if (!pk->total)
		return 1;
	/*
	 * The one other is off HEAD's history (a pull request's ref): this
	 * commit is still the only one on it, as when it squashes that one
	 * ("merge with <id> (...)")
	 */
	return rc == 1 && pk->total == 1 && !is_ancestor(j->r, pk->ids[0], j->ctx) &&
	       !tier_head(j, pk->ids[0]);
}

/* How an ID no object has is said: with --repo, none of them has it either. */
static const char *no_object(const cite_resolver *r)
{
	return r->nothers ? "is in none of the given repositories (this one and each --repo)" :
		"names no object in this repository";
}

/*
 * The ID names no commit here but commits in the --repo `o` (oh): judge
 * it there, as resolve_one() does here, every message saying where.
 * Nothing is suggested (--fix does not rewrite what this repository
 * cannot show) and there is no ancestry to check.  0 or -1 (memory).
 */
static int judge_elsewhere(job *j, const struct other_repo *o, const prefix_hits *oh)
{
	const citation *ref = j->ref;
	cite_result *x = j->x;
	int given_len = ref->id_len > 80 ? 80 : (int)ref->id_len;
	const char *given = j->buf + ref->id_start, *subject = NULL;
	int64_t time;
	int rc;

	if (oh->ncommits >= 2) {
		x->repo = o->name;
		add(j, CITE_P_AMBIGUOUS, "%.*s is not in this repository, and ambiguous in %s: "
		    "%zu commits there start with it", given_len, given, o->name, oh->ncommits);
		return 0;
	}
	rc = o->src->commit(o->src->ctx, oh->commits[0], &subject, &time);
	if (rc < 0)
		return -1;
	x->named = 1;
	x->repo = o->name;
	memcpy(x->commit.id, oh->commits[0], j->r->rawsz);
	if (rc > 0 && !(x->commit.subject = arena_strdup(&j->r->mem, subject)))
		return -1;
	if (ref->subject && x->commit.subject) {
		const char *real = x->commit.subject;

		rc = subject_matches(ref, real);
		if (rc == 2)
			add(j, CITE_P_SHORTENED, "subject shortened with \"...\"; %.*s, not in this "
			    "repository but in %s, is (\"%s\")", given_len, given, o->name, real);
		else if (!rc && subject_layout(ref, real))
			add(j, CITE_P_LAYOUT, "the subject of %.*s (not in this repository; in %s) laid "
			    "out otherwise; git writes (\"%s\")", given_len, given, o->name, real);
		else if (!rc)
			add(j, CITE_P_SUBJECT, "subject does not match %.*s, not in this repository: in "
			    "%s it is (\"%s\")", given_len, given, o->name, real);
	}
	if (ref->id_len < j->r->min_length)
		add(j, CITE_P_SHORT, "%.*s has %zu hex chars, fewer than %u", given_len, given,
		    ref->id_len, j->r->min_length);
	return 0;
}

/*
 * --range: an ID several commits have now, judged as of the commit
 * checked.  When exactly one of them is its ancestor, that one is the
 * commit named (moved to ph->commits[0], ph->ncommits 1), and a note
 * names the others, which came later or elsewhere, with how improbable
 * their shared prefix is for random IDs.  0 (nothing changed when none
 * or several are ancestors: that ambiguity existed then) or -1 (memory).
 */
static int as_of(job *j, prefix_hits *ph)
{
	cite_resolver *r = j->r;
	cite_result *x = j->x;
	size_t nc = ph->ncommits, a = SIZE_MAX, k = 0, listed = 0;
	int given_len = j->ref->id_len > 80 ? 80 : (int)j->ref->id_len;
	char names[4 * (ABBREV_MAX_HEXSZ + 2) + 32], hex[ABBREV_MAX_HEXSZ + 1], chance[96];
	size_t o = 0;

	for (size_t i = 0; i < nc; i++) {
		if (!is_ancestor(r, ph->commits[i], j->ctx))
			continue;
		if (a != SIZE_MAX)
			return 0;
		a = i;
	}
	if (a == SIZE_MAX)
		return 0;
	if (!(x->later = calloc(nc - 1, sizeof(*x->later))))
		return -1;
	for (size_t i = 0; i < nc; i++) {
		unsigned l;

		if (i == a)
			continue;
		if (set_commit(j, &x->later[k], ph->commits[i]))
			return -1;
		x->nlater = ++k;
		l = hexid_lcp(ph->commits[i], ph->commits[a], r->rawsz);
		if (l > x->later_shared)
			x->later_shared = l;
	}
	x->later_p = model_p_collision(r->objs->objects_max(r->objs->ctx), x->later_shared);
	x->later_improbable = x->later_p < r->improbable;
	for (size_t i = 0; i < x->nlater && listed < 4; i++, listed++) {
		short_hex(j, hex, x->later[i].id);
		o += (size_t)snprintf(names + o, sizeof(names) - o, "%s%s", i ? ", " : "", hex);
	}
	if (x->nlater > listed)
		snprintf(names + o, sizeof(names) - o, " and %zu more", x->nlater - listed);
	if (x->later_improbable)
		snprintf(chance, sizeof(chance), ": improbable for random IDs (p = %.2g): possibly "
			 "crafted", x->later_p);
	else
		snprintf(chance, sizeof(chance), ", as random IDs do (p = %.2g)", x->later_p);
	short_hex(j, hex, ph->commits[a]);
	add(j, CITE_P_AMBIGUOUS_LATER, "%.*s was unique when written (%s, the one ancestor of this "
	    "commit that starts with it); now %s too, not %s, %s %u hex chars with it%s",
	    given_len, j->buf + j->ref->id_start, hex, names, x->nlater == 1 ? "an ancestor" :
	    "ancestors", x->nlater == 1 ? "shares" : "share", x->later_shared, chance);
	if (a)
		memcpy(ph->commits[0], ph->commits[a], r->rawsz);
	ph->ncommits = 1;
	return j->nomem ? -1 : 0;
}

/* An ID that is nowhere, of a reference the text names as another project's. */
static void judge_foreign(job *j)
{
	const citation *ref = j->ref;
	int given_len = ref->id_len > 80 ? 80 : (int)ref->id_len;
	const char *given = j->buf + ref->id_start;

	/* the text names it as another project's: nothing to search or suggest here */
	if (!(ref->flags & CITE_F_FOREIGN) && j->msg == MSG_IMPORTED) {
		char lh[ABBREV_MAX_HEXSZ + 1];

		short_hex(j, lh, j->lister);
		add(j, CITE_P_NOT_HERE, "%.*s is not in this repository; the message is another "
		    "project's (%s lists this commit as brought in from it)", given_len, given, lh);
	} else if (!(ref->flags & CITE_F_FOREIGN) && j->msg == MSG_PICKED)
		add(j, CITE_P_NOT_HERE, "%.*s is not in this repository; the message is another "
		    "history's (cherry-picked from a commit not in this repository)", given_len,
		    given);
	else if (ref->foreign == CITE_FOREIGN_NAMED && ref->project && ref->project[0])
		add(j, CITE_P_NOT_HERE, "%.*s is not in this repository; the text names it as "
		    "%s's", given_len, given, ref->project);
	else if (ref->foreign == CITE_FOREIGN_NAMED)
		add(j, CITE_P_NOT_HERE, "%.*s is not in this repository; the text names it as "
		    "another project's (ported from)", given_len, given);
	else if (ref->foreign == CITE_FOREIGN_QUOTED)
		add(j, CITE_P_NOT_HERE, "%.*s is not in this repository; it stands in a quoted "
		    "message or example (indented), of the history quoted", given_len, given);
	else
		add(j, CITE_P_NOT_HERE, "%.*s is not in this repository; the message is another "
		    "project's (it names its upstream commit)", given_len, given);
}

/* An ID that names nothing, one hex char off the commit `id` (typo_of()): that commit.  0 or -1. */
static int judge_typo(job *j, const unsigned char *id)
{
	const citation *ref = j->ref;
	int given_len = ref->id_len > 80 ? 80 : (int)ref->id_len;
	char th[ABBREV_MAX_HEXSZ + 1];

	short_hex(j, th, id);
	j->x->suggest = 1;
	if (set_commit(j, &j->x->target, id))
		return -1;
	add(j, CITE_P_UNKNOWN, "%.*s %s; %s, one hex char away, %s (a typo?)", given_len,
	    j->buf + ref->id_start, no_object(j->r), th, ref->subject ? "has this subject" :
	    j->ctx ? "is the only such ancestor of this commit" : "is the only such commit on HEAD");
	return 0;
}

/*
 * An ID that names no commit here: what the subject says instead (a
 * commit to suggest, several, one made later, another repository's), or
 * that nothing has it.  0, -1 when out of memory, 1 when the lookup
 * failed (cite_resolve() says why).
 */
static int judge_unknown(job *j, const prefix_hits *ph)
{
	cite_resolver *r = j->r;
	const citation *ref = j->ref;
	cite_result *x = j->x;
	int given_len = ref->id_len > 80 ? 80 : (int)ref->id_len;
	const char *given = j->buf + ref->id_start;
	subject_pick pk;
	char tail[256];
	int rc;

	const char *none = ref->subject ? "; no commit has this subject" : "";
	subject_hits sh;
	int nomem = 0, there = -1;

	rc = find_ref_subject(j, NULL, &pk);
	if (rc < 0 || (rc == 2 && list_candidates(j, &pk)))
		return -1;
	if (rc == 1)
		x->suggest = 1, set_commit(j, &x->target, pk.ids[0]);
	if (!rc && pk.later) {
		/* a series reordered after it was written, maybe; not suggested */
		if (pk.later - (size_t)pk.self == 1) {
			char ah[ABBREV_MAX_HEXSZ + 1];

			short_hex(j, ah, pk.after);
			snprintf(tail, sizeof(tail), "; only %s%s, made after this commit, has "
				 "this subject", pk.self ? "this commit and " : "", ah);
		} else {
			snprintf(tail, sizeof(tail), "; only %s%zu commits made after this one "
				 "have this subject", pk.self ? "this commit and " : "",
				 pk.later - (size_t)pk.self);
		}
		none = tail;
	}
	if (!rc && !pk.later && r->nothers) {
		/* "no commit has this subject" is said of every repository given */
		there = subject_elsewhere(j, &sh, &nomem);
		if (nomem)
			return -1;
		if (r->failed)
			return 1;
		if (there >= 0)
			none = elsewhere_tail(tail, sizeof(tail), r, there, &sh);
	}
	if (!ph->nothers && !rc && !pk.later && !r->nothers && j->ctx && (ref->flags & CITE_F_STABLE))
		/*
		 * Cc'd to Linux's stable list: outside Linux, one of Linux's
		 * messages brought in with its tags.  Only when no commit
		 * has the subject (one that has it is what a rebased ID
		 * meant, in Linux's own history too), and no --repo is given
		 * (a clone of Linux judges it there).
		 */
		add(j, CITE_P_NOT_HERE, "%.*s %s%s; the message is Linux's (Cc: "
		    "stable@vger.kernel.org), its ID Linux's?", given_len, given, no_object(r),
		    ref->subject ? " and no commit here has this subject" : "");
	else if (!ph->nothers && !rc && !pk.later && there < 0 &&
		 (ref->kind == CITE_COMMIT || indented(j)))
		/*
		 * Nothing here has the ID or the subject: in prose that is
		 * mostly another project's commit (curl's, the kernel's),
		 * an example, or pasted output; a Fixes: tag or a revert
		 * can only mean this repository.
		 */
		add(j, CITE_P_NOT_HERE, "%.*s %s%s; another repository's commit?", given_len,
		    given, no_object(r), !ref->subject ? "" : r->nothers ?
		    " and none has a commit with this subject" : " and no commit here has this subject");
	else
		add(j, ph->nothers ? CITE_P_NOT_COMMIT : CITE_P_UNKNOWN, "%.*s %s%s%s",
		    given_len, given, ph->nothers ? "is not a commit but " : no_object(r),
		    ph->nothers ? type_name_a(ph->other_type) : "",
		    subject_tail(tail, sizeof(tail), rc, &pk, "; a commit has this subject", none));
	return 0;
}

/* An ID several commits start with: which of them the subject tells, if any.  0 or -1. */
static int judge_ambiguous(job *j, const prefix_hits *ph)
{
	const citation *ref = j->ref;
	cite_result *x = j->x;
	int given_len = ref->id_len > 80 ? 80 : (int)ref->id_len;
	const char *given = j->buf + ref->id_start;
	subject_pick pk;
	char tail[256];
	int rc;

	size_t nc = ph->ncommits < MAX_CANDS ? ph->ncommits : MAX_CANDS, nsub = 0;
	int pick = -1;

	rc = 0;

	x->cands = calloc(nc, sizeof(*x->cands));
	if (!x->cands)
		return -1;
	for (size_t i = 0; i < nc; i++) {
		if (set_commit(j, &x->cands[i], ph->commits[i]))
			return -1;
		x->ncands++;
		if (subject_matches(ref, x->cands[i].subject)) {
			nsub++;
			pick = (int)i;
		}
	}
	if (nsub == 1) {
		x->suggest = 1;
		set_commit(j, &x->target, ph->commits[pick]);
	} else if (!nsub && ref->subject) {
		rc = find_ref_subject(j, NULL, &pk);
		if (rc < 0)
			return -1;
		if (rc == 1)
			x->suggest = 1, set_commit(j, &x->target, pk.ids[0]);
		if (rc == 2)
			snprintf(tail, sizeof(tail), "; none has this subject, %zu other commits "
				 "have", pk.total);
	}
	add(j, CITE_P_AMBIGUOUS, "%.*s is ambiguous: %zu commits start with it%s", given_len, given,
	    ph->ncommits, x->suggest && nsub == 1 ? "; the subject tells which" :
	    x->suggest ? "; none has this subject, another commit has" :
	    rc == 2 ? tail : nsub > 1 ? "; the subject does not tell which" :
	    ref->subject ? "; no commit has this subject" : "; no subject to tell which");
	return 0;
}

/*
 * An ID that names one commit: what else it names, whether the subject
 * written is that commit's (or another's), whether it is long enough.
 * 0 or -1 when out of memory.
 */
static int judge_named(job *j, const prefix_hits *ph)
{
	cite_resolver *r = j->r;
	const citation *ref = j->ref;
	cite_result *x = j->x;
	int given_len = ref->id_len > 80 ? 80 : (int)ref->id_len;
	const char *given = j->buf + ref->id_start;
	subject_pick pk;
	int rc;

	const char *real;

	x->named = 1;
	if (set_commit(j, &x->commit, ph->commits[0]))
		return -1;
	memo_keep(r, r->last);
	x->suggest = 1;
	if (set_commit(j, &x->target, ph->commits[0]))
		return -1;
	real = x->commit.subject;
	/*
	 * git resolves a prefix in a commit context (git log, cherry-pick,
	 * <prefix>^{commit}) among commits and the tags that peel to one:
	 * trees and blobs do not get in the way there, such tags do.
	 */
	if (ph->ntags_commitish)
		add(j, CITE_P_AMBIGUOUS, "%.*s also names a tag that peels to a commit: "
		    "`git log %.*s` and `git show %.*s` both fail as ambiguous", given_len,
		    given, given_len, given, given_len, given);
	else if (ph->nothers)
		add(j, CITE_P_AMBIGUOUS_OBJECT, "%.*s also names %s: `git show %.*s` fails, "
		    "`git log %.*s` works", given_len, given, type_name_a(ph->other_type),
		    given_len, given, given_len, given);
	if (ref->subject && real) {
		char hex[ABBREV_MAX_HEXSZ + 1];

		rc = subject_matches(ref, real);
		if (!rc && (rc = title_matches(r, ref, ph->commits[0], real)) < 0)
			return -1;
		j->title = rc == 1 && !subject_matches(ref, real);
		if (rc != 1) /* the messages name it: its unique length */
			short_hex(j, hex, ph->commits[0]);
		if (rc == 2) {
			add(j, CITE_P_SHORTENED, "subject shortened with \"...\"; %s is (\"%s\")", hex, real);
		} else if (!rc && subject_layout(ref, real)) {
			add(j, CITE_P_LAYOUT, "the subject of %s laid out otherwise (quotes, its area "
			    "prefix left out, or more after a comma); git writes %s (\"%s\")", hex, hex,
			    real);
		} else if (!rc && unclosed_prefix(ref, real)) {
			add(j, CITE_P_LAYOUT, "the subject of %s is never closed, and its words start "
			    "the commit's; git writes %s (\"%s\")", hex, hex, real);
			j->unsure = 1; /* where it ends is not known: --fix leaves it */
		} else if (!rc) {
			rc = find_ref_subject(j, ph->commits[0], &pk);
			if (rc < 0 || (rc == 2 && list_candidates(j, &pk)))
				return -1;
			if (rc == 1) {
				char fh[ABBREV_MAX_HEXSZ + 1];

				short_hex(j, fh, pk.ids[0]);
				set_commit(j, &x->target, pk.ids[0]);
				add(j, CITE_P_SUBJECT, "subject does not match %s (\"%s\"); it is the "
				    "subject of %s", hex, real, fh);
			} else if (rc == 2) {
				add(j, CITE_P_SUBJECT, "subject does not match %s (\"%s\"); %zu other "
				    "commits have it, none told apart as the one meant", hex, real,
				    pk.total);
			} else if ((ref->style & (CITE_STYLE_NO_QUOTES | CITE_STYLE_NO_PARENS)) &&
				   !(ref->flags & CITE_F_DATED)) {
				/* (referenced above), "reverted": maybe no subject at all */
				add(j, CITE_P_SUBJECT_UNSURE, "\"%s\" is not the subject of %s (\"%s\"); "
				    "if it stands for it, write it whole", ref->subject, hex, real);
				j->unsure = 1;
			} else {
				/*
				 * The ID or the subject is wrong, and nothing tells
				 * which: --fix rewrites neither; the ID's commit is
				 * listed, and the subject names none
				 */
				add(j, CITE_P_SUBJECT, "subject does not match %s (\"%s\"), and no commit "
				    "has the subject written: the ID or the subject is wrong, "
				    "nothing tells which", hex, real);
				j->unsure = 1;
			}
			if (j->unsure && !x->ncands) {
				if (!(x->cands = calloc(1, sizeof(*x->cands))))
					return -1;
				x->cands[0] = x->commit;
				x->ncands = 1;
			}
		}
	}
	if (ref->id_len < r->min_length)
		add(j, CITE_P_SHORT, "%.*s has %zu hex chars, fewer than %u", given_len, given,
		    ref->id_len, r->min_length);
	return 0;
}

static void resolve_one(job *j)
{
	cite_resolver *r = j->r;
	const citation *ref = j->ref;
	cite_result *x = j->x;
	size_t hexsz = 2 * r->rawsz, look = ref->id_len;
	int given_len = ref->id_len > 80 ? 80 : (int)ref->id_len;
	const char *given = j->buf + ref->id_start;
	subject_pick pk;
	prefix_hits *ph, *oh;
	unsigned char typo_id[ABBREV_MAX_RAWSZ];
	int rc, elsewhere = -1, foreign = !!(ref->flags & CITE_F_FOREIGN) || j->msg, typo = 0;

	if (!(ph = hits_room(r))) {
		j->nomem = 1;
		return;
	}
	oh = ph + 1;
	if (look > hexsz)
		look = hexsz;
	if (!lookup_prefix(r, ref->id, look, ph) && !ph->ncommits)
		elsewhere = lookup_elsewhere(r, ref->id, look, oh);
	if (r->failed)
		return; /* cite_resolve() says why */
	/* an ID that names nothing anywhere: one hex char off a commit here? */
	if (!ph->ncommits && !ph->nothers && elsewhere < 0 && !foreign &&
	    (typo = typo_of(j, typo_id)) < 0) {
		if (j->nomem)
			goto nomem;
		return;
	}
	/* a hex word that names no commit (anywhere), nor is one off, is not a reference (cite_parse.h) */
	if ((ref->flags & CITE_F_MAYBE) &&
	    (ref->id_len > hexsz || (!ph->ncommits && elsewhere < 0 && typo != 1))) {
		j->dropped = 1;
		return;
	}
	if (ref->id_len > hexsz)
		add(j, CITE_P_LONG, "%.*s%s has %zu hex chars, more than a %s ID", given_len, given,
		    given_len < (int)ref->id_len ? "..." : "", ref->id_len,
		    hexid_hash_name(r->rawsz) ? hexid_hash_name(r->rawsz) : "full");
	if (ref->flags & CITE_F_UPPER)
		add(j, CITE_P_UPPER, "%.*s has upper-case hex; git writes IDs in lower case",
		    given_len, given);

	if (j->ctx && ph->ncommits >= 2 && ph->ncommits <= MAX_CANDS && as_of(j, ph))
		goto nomem;
	if (ph->ncommits == 0 && elsewhere < 0 && foreign && r->nothers) {
		/* a --repo with the subject is the project named: the ID is wrong there */
		subject_hits sh;
		int nomem = 0;

		if (subject_elsewhere(j, &sh, &nomem) >= 0)
			foreign = 0;
		if (nomem)
			goto nomem;
		if (r->failed)
			return;
	}
	if (elsewhere >= 0) {
		if (judge_elsewhere(j, &r->others[elsewhere], oh))
			goto nomem;
	} else if (ph->ncommits == 0 && foreign) {
		judge_foreign(j);
	} else if (typo == 1) {
		if (judge_typo(j, typo_id))
			goto nomem;
	} else if (ph->ncommits == 0 && (rc = find_ref_subject(j, NULL, &pk)) >= 0 &&
		   only_this_commit(j, &pk, rc)) {
		/* the port of another project's commit: the subject is this commit's own */
		add(j, CITE_P_NOT_HERE, "%.*s is not in this repository, and only this commit%s has "
		    "its subject: another project's commit, ported here?", given_len, given,
		    pk.total ? " on HEAD" : "");
	} else if (ph->ncommits == 0) {
		rc = judge_unknown(j, ph);
		if (rc < 0)
			goto nomem;
		if (rc > 0)
			return;
	} else if (ph->ncommits >= 2) {
		if (judge_ambiguous(j, ph))
			goto nomem;
	} else if (judge_named(j, ph)) {
		goto nomem;
	}
	if (ref->style & CITE_STYLE_LAYOUT)
		add(j, CITE_P_LAYOUT, "dated reference laid out otherwise than git's "
		    "<id> (subject, YYYY-MM-DD)");
	if (ref->style & ~(unsigned)CITE_STYLE_LAYOUT)
		style_finding(j);
	/* another project's reference names a commit of its history, not of this one's */
	if (j->ctx && (ref->kind == CITE_FIXES || ref->kind == CITE_REVERT) && x->suggest &&
	    x->named && !x->repo && !(ref->flags & (CITE_F_MAYBE | CITE_F_FOREIGN)) && !j->msg)
		ancestry(j, x->target.id);
	/* a note alone asks for no change */
	if (x->suggest && x->severity > CITE_NOTE && x->target.subject && !j->several &&
	    !j->unsure) {
		/* a full ID stays full ([ Upstream commit <id> ], git's own reverts) */
		if (ref->kind == CITE_REVERT || ref->id_len >= hexsz)
			hexid_fmt(x->target_hex, x->target.id, r->rawsz);
		else
			short_hex(j, x->target_hex, x->target.id);
		x->replacement = fixed_span(j, x->target_hex, x->target.subject);
		if (ref->kind == CITE_REVERT) {
			if (asprintf(&x->suggestion, "This reverts commit %s.", x->target_hex) < 0)
				x->suggestion = NULL;
		} else {
			x->suggestion = cite_format_fixed(j->buf, ref, x->target_hex, j->title ?
							   ref->subject : x->target.subject);
		}
		if (!x->suggestion || !x->replacement)
			goto nomem;
		/* nothing to suggest when the text would stay as it is (not an ancestor) */
		if (strlen(x->replacement) == ref->end - ref->start &&
		    !memcmp(x->replacement, j->buf + ref->start, ref->end - ref->start)) {
			free(x->suggestion);
			free(x->replacement);
			x->suggestion = x->replacement = NULL;
			x->suggest = 0;
		}
	} else {
		x->suggest = 0;
	}
	return;
nomem:
	j->nomem = 1;
}

static void result_clear(cite_result *x)
{
	for (size_t i = 0; i < x->nf; i++)
		free(x->f[i].message);
	free(x->f);
	free(x->cands);
	free(x->later);
	free(x->suggestion);
	free(x->replacement);
	memset(x, 0, sizeof(*x));
}

void cite_results_clear(cite_results *res)
{
	for (size_t i = 0; i < res->n; i++)
		result_clear(&res->v[i]);
	free(res->v);
	memset(res, 0, sizeof(*res));
}

/*
 * --range: keep the subjects the message lists as brought in from another
 * project (the walk comes to those commits after it: children first),
 * and say whether the message itself is another project's: listed so by
 * a descendant (*lister), or cherry-picked from a commit no object here
 * (nor in a --repo) is.  0, or -1 (memory; r->failed when an ID question failed).
 */
static int message_foreign(cite_resolver *r, const cite_list *refs, const unsigned char *commit,
			   int *msg, const unsigned char **lister)
{
	const char *s = refs->imports;
	unsigned char *id = NULL;
	PPvoid_t v;

	*msg = 0;
	*lister = NULL;
	for (size_t i = 0; i < refs->nimports; i++, s += strlen(s) + 1) {
		if (!*s || JudySLGet(r->imported, (const uint8_t *)s, PJE0))
			continue;
		if (!id && !(id = arena_alloc(&r->mem, r->rawsz)))
			return -1;
		memcpy(id, commit, r->rawsz);
		v = JudySLIns(&r->imported, (const uint8_t *)s, PJE0);
		if (v == PPJERR)
			return -1;
		*v = id;
	}
	if (refs->title && *refs->title &&
	    (v = JudySLGet(r->imported, (const uint8_t *)refs->title, PJE0)) &&
	    is_ancestor(r, commit, *v)) {
		*msg = MSG_IMPORTED;
		*lister = *v;
		return 0;
	}
	for (size_t i = 0; i < refs->n; i++) {
		const citation *ref = &refs->v[i];
		prefix_hits *h;
		size_t look = ref->id_len;

		if (!(ref->flags & CITE_F_PICKED))
			continue;
		if (!(h = hits_room(r)))
			return -1;
		if (look > 2 * r->rawsz)
			look = 2 * r->rawsz;
		if (lookup_prefix(r, ref->id, look, h) || r->failed)
			return -1;
		if (h->ncommits || h->nothers)
			continue;
		if (lookup_elsewhere(r, ref->id, look, h + 1) >= 0)
			continue;
		if (r->failed)
			return -1;
		*msg = MSG_PICKED;
		return 0;
	}
	return 0;
}

int cite_resolve(cite_resolver *r, cite_results *out, const char *buf, const cite_list *refs,
		 const unsigned char *commit, char *err, size_t errsz)
{
	const unsigned char *lister = NULL;
	int msg = 0;

	/*
	 * Many references at once (a mailbox, a whole history's worth): the
	 * commits they name, read one by one, come in random pack order;
	 * indexing every commit first reads them in pack order, only their
	 * first bytes, for about the same work, and then answers every
	 * reference and any subject search from the index.
	 */
	if (!r->indexed && (r->src->each_commit || r->src->subject_index) &&
	    refs->n >= EAGER_INDEX_MIN) {
		/*
		 * A quarter of the commits or more; the objects bound them, and
		 * only when that bound does not decide are the sets walked to
		 * count them (the index itself may need no walk: subject_cache.h)
		 */
		int many = refs->n >= r->objs->objects_max(r->objs->ctx) / 4;

		if (!many && need_sets(r))
			goto failed;
		if ((many || refs->n >= idsets_count(r->s, ABBREV_SET_COMMIT) / 4) && build_index(r))
			goto failed;
	}
	if (commit && message_foreign(r, refs, commit, &msg, &lister))
		goto failed;
	for (size_t i = 0; i < refs->n; i++) {
		job j = { r, buf, &refs->v[i], commit, NULL, 0, 0, 0, 0, 0, msg, lister };
		cite_result x = { 0 };

		j.x = &x;
		x.ref = i;
		resolve_one(&j);
		if (!j.dropped)
			out->nrefs++;
		if (j.nomem || r->failed) {
			result_clear(&x);
			goto failed;
		}
		if (!x.nf && (j.dropped || !r->keep_all)) {
			result_clear(&x);
			continue;
		}
		if (GROW(out->v, out->cap, out->n + 1, 16)) {
			result_clear(&x);
			return -1;
		}
		for (size_t k = 0; k < x.nf; k++) {
			int sev = cite_problem_severity(x.f[k].problem);

			if (sev == CITE_ERROR)
				out->errors++;
			else if (sev == CITE_WARNING)
				out->warnings++;
			else
				out->notes++;
		}
		out->v[out->n++] = x;
	}
	return 0;
failed:
	/* an ID question that failed leaves no verdict standing: the whole text fails */
	if (r->failed == -2) {
		snprintf(err, errsz, "%s", r->err);
		return -2;
	}
	return -1;
}
