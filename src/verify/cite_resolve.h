/*
 * cite_resolve.h - commit references -> findings, against one repository.
 *
 * A reference's ID is looked up as a prefix among all objects (cite_ids:
 * the packs' .idx files, or ID sets; never a git process per reference).  Subjects are read from
 * a cite_source (cite_git2.h: a repository) when a reference needs one, and the index of every
 * commit's subject (subject_cache.h: the source's cache files, or read
 * here) is made once, lazily, the first time a subject has to be
 * searched for (an unknown or ambiguous ID, a subject that names another
 * commit).  With a commit to check against (--range), references are
 * judged as of that commit (cite_resolve()).
 *
 * Suggested IDs are max(min_length, the length at which the commit's ID
 * is unique among all objects): what `git show` needs, never shorter than
 * the project's rule.
 *
 * No libgit2 here: the decisions are unit-tested over hand-made commits.
 *
 * Ownership: cite_resolver_new() returns a resolver freed with
 * cite_resolver_free(); it borrows the cite_ids and the sources (its own
 * and those of cite_resolver_add_repo()), which must outlive it.
 * cite_resolve() fills a cite_results the caller clears
 * with cite_results_clear(); results refer to references by index, and
 * their commits' subjects are the resolver's: clear them before freeing it.
 */
#ifndef ABBREV_CITE_RESOLVE_H
#define ABBREV_CITE_RESOLVE_H

#include <stddef.h>
#include <stdint.h>

#include "hexid.h"
#include "idset.h"
#include "progress.h"
#include "cite_parse.h"
#include "subject_cache.h"

/* What can be wrong with a reference; each has a fixed severity. */
enum cite_problem {
	CITE_P_UNKNOWN = 1,      /* error: no object has this ID */
	CITE_P_NOT_COMMIT,       /* error: only trees, blobs or tags have it */
	CITE_P_AMBIGUOUS,        /* error: two or more commits have it */
	CITE_P_AMBIGUOUS_OBJECT, /* warning: one commit, and objects of other types */
	CITE_P_SUBJECT,          /* error: the subject is not the named commit's */
	CITE_P_SHORTENED,        /* warning: the subject is a "..." prefix of the commit's */
	CITE_P_SHORT,            /* warning: fewer hex chars than the minimum */
	CITE_P_LONG,             /* error: more hex chars than the hash has */
	CITE_P_UPPER,            /* warning: upper-case hex */
	CITE_P_STYLE,            /* warning: the Fixes: / commit style */
	CITE_P_NOT_ANCESTOR,     /* error: --range: the target is not an ancestor */
	CITE_P_NOT_HERE,         /* warning: no object has this ID, and no commit its subject */
	CITE_P_LAYOUT,           /* warning: right, but not laid out as git or the kernel do */
	CITE_P_SUBJECT_UNSURE,   /* warning: (words) that are not the commit's subject, undated, unquoted */
	CITE_P_AMBIGUOUS_LATER,  /* note: --range: unique among the ancestors, shared by later commits */
	CITE_P_IN_SERIES,        /* note: mail: an earlier patch of the same mbox (mbox.h) */
	CITE_P_NOT_ANCESTOR_MERGED, /* warning: --range: no ancestor, but in the range (a parallel branch) */
	CITE_P_COUNT
};

enum cite_severity {
	CITE_NOTE = 1,       /* said, but no problem: never fails a run */
	CITE_WARNING = 2,
	CITE_ERROR = 3
};

/* "unknown-id", "not-a-commit", "ambiguous", ... (for JSON and tests). */
const char *cite_problem_name(int problem);
int cite_problem_severity(int problem);
/* "note", "warning", "error". */
const char *cite_severity_name(int severity);

typedef struct {
	int problem;         /* enum cite_problem */
	char *message;       /* one line, lower case, no full stop */
} cite_finding;

typedef struct {
	unsigned char id[ABBREV_MAX_RAWSZ];
	const char *subject; /* NULL if it could not be read; the resolver's (lives as long as it) */
} cite_commit;

/* One reference with at least one finding. */
typedef struct {
	size_t ref;          /* index in the cite_list */
	cite_finding *f;
	size_t nf;
	int severity;        /* the worst of its findings */
	int named;           /* the ID names exactly one commit: */
	cite_commit commit;  /* that one */
	const char *repo;    /* NULL: here; else the --repo it is in (the resolver's name) */
	int suggest;         /* the commit meant is known: */
	cite_commit target;  /* that one, */
	char target_hex[ABBREV_MAX_HEXSZ + 1]; /* its ID at the suggested length, */
	char *suggestion;    /* and the reference written to name it, */
	char *replacement;   /* which replaces its span [start, end) (--fix) */
	/*
	 * An ambiguous ID: the commits it names, in ID order; or a subject
	 * several commits have (none of them told apart as the one meant):
	 * those of the first tier of the subject search, nearest first.
	 * --fix rewrites neither (suggest is 0).
	 */
	cite_commit *cands;
	size_t ncands;
	/*
	 * --range, an ID several commits have now but only one ancestor of
	 * the commit checked (the one named): the others, in ID order, the
	 * most hex chars one of them shares with it, and P(random IDs, as
	 * many as the repository's objects, collide at that length) with
	 * whether it is below the threshold (cite_resolver_improbable()).
	 */
	cite_commit *later;
	size_t nlater;
	unsigned later_shared;
	double later_p;
	int later_improbable;
} cite_result;

typedef struct {
	cite_result *v;      /* the references with findings, in input order */
	size_t n, cap;
	size_t nrefs;        /* references checked */
	size_t errors, warnings, notes; /* findings of each severity */
} cite_results;

void cite_results_clear(cite_results *res);

/* Where the resolver reads commits: what it needs to know of one. */
typedef struct {
	void *ctx;
	/*
	 * The commit `id`: 1 with its subject (git's %s, NUL-terminated,
	 * valid until the next call) and committer time; 0 when no commit
	 * with this ID can be read; -1 when out of memory.
	 */
	int (*commit)(void *ctx, const unsigned char *id, const char **subject, int64_t *time);
	/* 1 when `anc` is an ancestor of `of` (not `of` itself), 0 no or unknown. */
	int (*is_ancestor)(void *ctx, const unsigned char *anc, const unsigned char *of);
	/*
	 * 1 when the commit `id` is reachable from HEAD, a branch or a tag
	 * (what a clone has, not a pull request's or a stash's), 0 no or
	 * unknown.  NULL: the source cannot tell (every commit counts as such).
	 */
	int (*is_public)(void *ctx, const unsigned char *id);
	/*
	 * Optional (NULL: commit() is asked for each): what commit() says of
	 * each of the n commits ids[] (rawsz bytes each, ascending), in the
	 * order that reads them fastest.  Calls fn(arg, i, subject, time) for each
	 * readable ids[i], and stops at the first non-zero return of fn.  0,
	 * -1 when out of memory, or fn's non-zero return.
	 */
	int (*each_commit)(void *ctx, const unsigned char *ids, size_t n,
			   int (*fn)(void *arg, size_t i, const char *subject, int64_t time),
			   void *arg);
	/*
	 * Optional (NULL, or 1 returned: the resolver reads every commit
	 * itself, with each_commit() or commit()): the subject index of every
	 * commit, made by the source (from the cache files of its packs,
	 * subject_cache.h), into *out (the caller's to free).  It calls
	 * commits(arg, &ids, &n) for the IDs of all commits (ascending, valid
	 * as long as the resolver) only when it has to read commits of its
	 * packs; progress on p.  0, 1, or -1 (memory).
	 */
	int (*subject_index)(void *ctx,
			     int (*commits)(void *arg, const unsigned char **ids, size_t *n),
			     void *arg, progress *p, subject_index **out);
	/*
	 * Optional (NULL: is_public answers): 1 when the commit `id` is HEAD
	 * or an ancestor of it, 0 no or unknown.
	 */
	int (*on_head)(void *ctx, const unsigned char *id);
	/*
	 * Optional (NULL: not asked): how many bytes of the commit `id`'s
	 * subject (commit()'s, git's %s: its first paragraph, lines joined
	 * by a space) are its first line, in *len.  1, 0 when no commit
	 * with this ID can be read, -1 when out of memory.
	 */
	int (*title_len)(void *ctx, const unsigned char *id, size_t *len);
	/*
	 * Optional (NULL: not asked): 1 when the commit `id` is one of the
	 * --range's commits (reachable from its tips, not hidden), 0 no,
	 * -1 unknown (no range walked).
	 */
	int (*in_range)(void *ctx, const unsigned char *id);
} cite_source;

/* One object of a prefix (cite_ids.prefix): its raw ID, type, and for a tag whether it peels to a commit. */
typedef int (*cite_id_fn)(void *arg, const unsigned char *id, int type, int commitish);

/*
 * Where the resolver looks IDs up: every object of a repository.  Over
 * the mapped .idx files of the repository (objidx.h, wired in
 * cmd_verify.c), which answers a reference in microseconds without
 * loading anything per object, or over ID sets already loaded
 * (cite_ids_over_sets(): --reachable, the unit tests).  Each question
 * returns 0, -1 when out of memory or -2 with a one-line message in err
 * (the repository cannot be read: a pack cut short meanwhile).
 */
typedef struct {
	void *ctx;
	size_t rawsz;
	/*
	 * The objects whose IDs start with hex[0..n) (n <= 2 * rawsz), each
	 * once, in ID order: fn for each until it returns non-zero (then
	 * that is returned).
	 */
	int (*prefix)(void *ctx, const char *hex, size_t n, cite_id_fn fn, void *arg, char *err,
		      size_t errsz);
	/* The smallest length >= 4 at which `id` shares its prefix with no other object. */
	int (*unique_length)(void *ctx, const unsigned char *id, unsigned *len, char *err,
			     size_t errsz);
	/*
	 * The IDs as sets, at least every commit (loaded on the first call,
	 * which may take seconds on a large repository): for what needs
	 * every commit (the subject index).  *out stays owned by ctx.
	 */
	int (*sets)(void *ctx, const idsets **out, char *err, size_t errsz);
	/*
	 * At least as many as there are objects (a copy in two packs may
	 * count twice), without loading anything: a bound on the commits.
	 */
	size_t (*objects_max)(void *ctx);
	/*
	 * Optional (NULL: prefix() answers it): whether any object's ID
	 * starts with the first n hex chars of the raw `from` (zeros past
	 * them); 1, 0 or -2.  A typo search asks it some hundred times a
	 * reference and mostly hears no.
	 */
	int (*has_prefix)(void *ctx, const unsigned char *from, size_t n, char *err, size_t errsz);
	/*
	 * Optional (NULL: has_prefix() answers it): has_prefix() for the 16
	 * prefixes that change hex char i (< n) of `from`, as bit d of *mask
	 * for char i made d; 0 or -2.  A typo search's 15 changes of a char
	 * in one question.
	 */
	int (*prefix_nibbles)(void *ctx, const unsigned char *from, size_t n, size_t i,
			      unsigned *mask, char *err, size_t errsz);
} cite_ids;

/* The questions of cite_ids answered from `s` (borrowed: it must outlive *out). */
void cite_ids_over_sets(cite_ids *out, const idsets *s);

typedef struct cite_resolver cite_resolver;

/*
 * A resolver over the objects `ids` (every object, to tell "ambiguous only
 * with trees/blobs") and the commits of `src`.  min_length: the shortest
 * ID a reference may use.  0 or -1 (memory).
 */
int cite_resolver_new(cite_resolver **out, const cite_ids *ids, const cite_source *src,
		      unsigned min_length);
void cite_resolver_free(cite_resolver *r);

/*
 * Consult another repository (--repo: mainline beside stable, a project's
 * upstream) before an ID is called unknown: its objects `ids` (the same
 * hash as the resolver's) and its commits `src`, both borrowed; `name`
 * is copied, for messages.  A reference whose ID names no commit here but
 * one there is judged there (its subject, ambiguity, length) and named
 * "not in this repository"; one that names no commit in any is "in none
 * of the given repositories".  0, -1 (memory), -2 (another hash).
 */
int cite_resolver_add_repo(cite_resolver *r, const cite_ids *ids, const cite_source *src,
			   const char *name);

/*
 * Below which probability a prefix shared with later commits is called
 * improbable for random IDs, "possibly crafted" (default 1e-4, as check's).
 */
void cite_resolver_improbable(cite_resolver *r, double threshold);

/*
 * With `on`, cite_resolve() adds every reference to its results, those
 * without findings too (nf 0, the commit they name in `commit`): for
 * what counts them all (audit).  Off by default.
 */
void cite_resolver_keep_all(cite_resolver *r, int on);

/* Show the building of the subject index on `p` (borrowed; NULL: none). */
void cite_resolver_progress(cite_resolver *r, progress *p);

/*
 * Check the references `refs` found in buf (cite_parse()) and add the
 * ones with findings to `out`.  `commit` (raw ID) is the commit whose
 * message buf is, or NULL (a file: written now).  With a commit, each
 * reference is judged as of when it was written: an ID is resolved among
 * the commit's ancestors (one of them, and later commits sharing it, is a
 * note, not an ambiguity), a subject search never offers the commit
 * itself or one made after it, and a Fixes: tag or a revert must name an
 * ancestor.  Returns 0, -1 when
 * out of memory, -2 when the repository cannot be read (message in err).
 */
int cite_resolve(cite_resolver *r, cite_results *out, const char *buf, const cite_list *refs,
		 const unsigned char *commit, char *err, size_t errsz);

/* Whether the subject index has been built (the lazy part, for tests). */
int cite_resolver_indexed(const cite_resolver *r);

/*
 * The smallest length >= 4 at which `id` shares its prefix with no other
 * ID of `set`: what git needs to name it unambiguously.
 */
unsigned cite_unique_length(const idsets *s, int set, const unsigned char *id);

#endif
