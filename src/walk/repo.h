/*
 * repo.h - a repository as both walkers and the reference resolver
 * see it: found the way git finds one, with its object directory, hash
 * width, and what it lacks by design.  Opened with libgit2 where libgit2
 * can open it, else (SHA-256) for the pack walker only.
 *
 * Ownership: repo_open() returns a handle freed by repo_free();
 * the strings it returns are owned by the handle.  Error messages go to a
 * caller-owned buffer, one line, no full stop.
 */
#ifndef ABBREV_REPO_H
#define ABBREV_REPO_H

#include <stddef.h>

#include "lacks.h"

struct git_repository;

typedef struct repo_handle repo_handle;

/*
 * Open the repository at or above `path`, or, with path NULL, the one
 * git would use here (GIT_DIR and friends honoured).  WALK_OK, WALK_ERR
 * or WALK_NOMEM (walk.h).
 */
int repo_open(repo_handle **out, const char *path, char *err, size_t errsz);
void repo_free(repo_handle *r);

/* The path to show for the repository: its work tree, or its git dir if bare. */
const char *repo_path(const repo_handle *r);
/* Raw ID width of the repository's hash (20 for SHA-1, 32 for SHA-256). */
size_t repo_rawsz(const repo_handle *r);

/* What a repository lacks by design: flags of enum abbrev_lack. */
unsigned repo_lacks(const repo_handle *r);

/*
 * The name of a promisor remote of a partial clone that exists (its
 * remote.<name>.url is set), as git picks one: extensions.partialClone,
 * else the first remote with remote.<name>.promisor true.  Into buf; 1
 * when there is one, 0 when there is none (or libgit2 cannot read the
 * repository's configuration).
 */
int repo_promisor(repo_handle *r, char *buf, size_t n);

/*
 * Whether libgit2 could open the repository.  It cannot open SHA-256
 * repositories (libgit2 1.5); those are still found, and the pack walker
 * reads them, but the libgit2 walker, --reachable and commit subjects
 * are not available for them.
 */
int repo_has_libgit2(const repo_handle *r);
/*
 * The libgit2 handle of the repository (owned by r), or NULL when
 * repo_has_libgit2() is 0: for the reference resolver (verify).
 */
struct git_repository *repo_git2(repo_handle *r);
/*
 * Why what (a command or an option) cannot run on r when
 * repo_git2() is NULL, in err: one line, the same for every caller.
 */
void repo_no_libgit2(const repo_handle *r, const char *what, char *err, size_t errsz);
/*
 * The repository's object directory (the common dir's "objects", or
 * GIT_OBJECT_DIRECTORY when the repository was found from the
 * environment), for walk_pack_objects(); owned by the handle.
 */
const char *repo_objdir(const repo_handle *r);

#endif
