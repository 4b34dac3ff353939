/*
 * walk.h - every (id, type) of a repository's object database, once.
 *
 * The walker is the only part besides the reference resolver that talks
 * to libgit2.  It opens a repository the way git finds one and adds every
 * object it stores (loose, packed, alternates) to an idsets collection,
 * which drops objects stored twice.
 *
 * The repository handle (repo_open() and friends) is in repo.h.
 *
 * Ownership: the caller owns the handle, the sets and the progress; error
 * messages go to a caller-owned buffer, one line, no full stop.
 */
#ifndef ABBREV_WALK_H
#define ABBREV_WALK_H

#include <stddef.h>
#include <stdint.h>

#include "idset.h"
#include "lacks.h"
#include "progress.h"
#include "repo.h"

/* Return codes of the walker. */
enum walk_status {
	WALK_OK = 0,
	WALK_ERR = -1,    /* not a repository, corrupt or unreadable data */
	WALK_NOMEM = -2
};

/* Add every object of the repository to `s`. */
int repo_objects(repo_handle *r, idsets *s, progress *p, char *err, size_t errsz);

/* The refs a clone fetches: HEAD, the branches and the tags. */
extern const char *const walk_clone_refs[];
extern const size_t walk_clone_nrefs;

/*
 * Whether a ref name matches one of the patterns: a pattern without a
 * wildcard names a ref or everything below it (as for git for-each-ref),
 * one with '*', '?' or '[' is a glob whose '*' matches '/' too (as for git
 * rev-list --glob), so "refs/" and a star is every ref.  "HEAD" matches
 * HEAD.
 */
int walk_ref_matches(const char *name, const char *const *patterns, size_t n);

/* What the reachability walks found; each walk adds to it. */
typedef struct {
	size_t refs;        /* refs walked (HEAD counts as one) */
	size_t missing;     /* objects the refs reach that the repository lacks */
	size_t nbad;        /* refs whose own object is missing */
	size_t bad_missing; /* of missing: objects that are such a ref's own object */
	/* one flag per pattern, set when the pattern named a ref walked; may be NULL */
	unsigned char *matched;
	/* told the name of each such ref, for a warning; may be NULL */
	void (*bad_ref)(void *ctx, const char *name);
	void *ctx;
} walk_reach_result;

/*
 * Add the objects reachable from the refs matching the patterns (NULL:
 * walk_clone_refs, what a clone receives) to `s`.  Objects the refs reach
 * that the repository lacks (a partial clone's promised objects, a broken
 * ref) are counted in res->missing, once each, and not added.  Needs
 * libgit2 (not SHA-256 repositories).  WALK_OK, WALK_ERR or WALK_NOMEM.
 */
int repo_reachable(repo_handle *r, idsets *s, const char *const *patterns, size_t npatterns,
			walk_reach_result *res, progress *p, char *err, size_t errsz);

/*
 * Record the targets of the tags of `s` that have no record yet and that
 * this repository holds (walk_tags.c), reading each through libgit2: for
 * the walkers that do not read tag headers themselves.  Nothing to do for
 * a repository libgit2 cannot open.  WALK_OK, WALK_ERR or WALK_NOMEM.
 */
int repo_tag_targets(repo_handle *r, idsets *s, char *err, size_t errsz);

/*
 * Words about an object for listings: `("subject") 2024-12-05` for a
 * commit (committer date), `(tag v1.0)` for an annotated tag; NULL when
 * the object is not in this repository or there is nothing to say.  The
 * caller frees the string.
 */
char *repo_describe(repo_handle *r, const unsigned char *id, int type);

/*
 * Committer times, for the history: for each of the n commit IDs
 * (n * rawsz bytes) whose found[i] is 0, read the commit from this
 * repository and, if it is there, set times[i] (unix seconds; 0 for a
 * date git cannot read either) and found[i] = 1.  An ID this repository
 * does not hold is left alone (it may be in another of the union).
 * Each commit found adds 1 to *done, shown on p: the caller starts and
 * stops the phase, one over all the repositories of a union.
 * Through libgit2; a SHA-256 repository, which libgit2 cannot read,
 * through the own reader (objread.h: packs and loose objects).  WALK_OK,
 * WALK_ERR (a commit that is there cannot be read) or WALK_NOMEM.
 */
int repo_commit_times(repo_handle *r, const unsigned char *ids, size_t n, int64_t *times,
			   unsigned char *found, progress *p, size_t *done, char *err,
			   size_t errsz);

/*
 * The committer's zone of commit `id` (minutes east of UTC, as its
 * committer line says: "-0500" is -300) into *tz, read from this
 * repository: 0, or 1 when it does not hold the commit or cannot read it.
 * One object read (about 13 us; a SHA-256 repository's by the own reader,
 * whose packs are mapped at the first).
 */
int repo_commit_zone(repo_handle *r, const unsigned char *id, int *tz);

#endif
