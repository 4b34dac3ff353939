/*
 * cite_git2.h - verify's side of libgit2: the commits the resolver asks
 * about (a cite_source over a repository) and the commits of a --range.
 *
 * With cite_resolve.c free of libgit2, this file and the walker are the
 * only ones that include git2.h; the header keeps it out of its users.
 *
 * Ownership: cite_git2_new() returns a source freed with cite_git2_free();
 * it borrows the repository, which must outlive it.  cite_range_new()
 * returns a walk freed with cite_range_free(), which borrows the source g.
 */
#ifndef ABBREV_CITE_GIT2_H
#define ABBREV_CITE_GIT2_H

#include <stddef.h>
#include <stdint.h>

#include "cite_resolve.h"

struct git_repository;

typedef struct cite_git2 cite_git2;

/*
 * A source over the commits of `repo`, whose object directory is
 * `objdir` (its packs are read directly).  0, -1 (memory) or -2 (no
 * object database).
 */
int cite_git2_new(cite_git2 **out, struct git_repository *repo, const char *objdir);
void cite_git2_free(cite_git2 *g);
/* The cite_source to give cite_resolver_new() (owned by g). */
const cite_source *cite_git2_source(cite_git2 *g);
/*
 * Keep the subject tables of the packs in `dir` (copied; NULL: none, every
 * run reads every commit), outside the repository: subject_cache.h.
 * 0 or -1 (memory).
 */
int cite_git2_cache(cite_git2 *g, const char *dir);
/*
 * The commits of a pack whose subject table is to be made are all its
 * commits, found from its entry headers (not among the commit IDs that the
 * resolver lists, which may be fewer: --reachable).
 */
void cite_git2_scan_packs(cite_git2 *g);

/* ---- --range: the commits whose messages to check ------------------------ */

typedef struct cite_range cite_range;

/*
 * The commits of a revision range as `git rev-list` takes one: "B" (it
 * and its ancestors), "A..B", "A..", "A...B" (either side but not both),
 * or several of "B" and "^A" separated by blanks; walked here, in the
 * order verify always checked them (range_walk.h).  0, -1 (memory), -2
 * with a message in err (unknown revision, bad range: a usage error) or
 * -3 with a message in err (a commit of the history cannot be read).
 */
int cite_range_new(cite_range **out, cite_git2 *g, const char *range, char *err, size_t errsz);
/*
 * The next commit: its raw ID and its message (valid until the next
 * call).  1, 0 at the end, -1 when out of memory, -2 when it cannot be
 * read (a message in err).
 */
int cite_range_next(cite_range *rg, unsigned char *id, const char **msg, size_t *len,
		    char *err, size_t errsz);
/*
 * The same, with the notes kept on the messages of the packs' commits
 * (commit_notes.h, under this build's ID): 2 with the note on the next
 * commit when one is kept (its message not read; *msg, *len untouched),
 * else as cite_range_next().  A note is the caller's: what the message
 * it read yielded, given with cite_range_learn() right after; a note of
 * CITE_NOTE_READ says "read it".
 */
#define CITE_NOTE_READ UINT32_MAX
int cite_range_next_noted(cite_range *rg, unsigned char *id, const char **msg, size_t *len,
			  uint32_t *note, char *err, size_t errsz);
/*
 * With a digest (cite_digest.h) kept beside a note, cite_range_next_noted()
 * gives 3: *note (the message's lines), the message's parse in
 * cite_range_parsed() and in *msg, *len the message as the digest keeps
 * it (the lines of its references; valid until the next call), the
 * message itself not read.  A note of CITE_NOTE_READ with no digest says
 * "read it".
 */
/* The note on the message cite_range_next_noted() gave last (1): 0, or -1 (memory). */
int cite_range_learn(cite_range *rg, uint32_t note);
/* The same with the digest of what it found (len bytes, copied; len 0: none). */
int cite_range_learn_digest(cite_range *rg, uint32_t note, const unsigned char *digest,
			    size_t len);
/* The list of the digest cite_range_next_noted() gave last (3): the range's, valid until the next call. */
cite_list *cite_range_parsed(cite_range *rg);
/* Keep the notes learned in the cache (when it cannot be written: not kept). */
void cite_range_keep_notes(cite_range *rg);
/*
 * The committer time and zone (minutes east of UTC) of the commit
 * cite_range_next() gave last: its date as `git log --date=short` shows
 * the committer's.
 */
void cite_range_when(const cite_range *rg, int64_t *time, int *tz);
void cite_range_free(cite_range *rg);

#endif
