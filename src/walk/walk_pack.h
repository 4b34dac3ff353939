/*
 * walk_pack.h - the pack-native walker: every (id, type) of an object
 * directory, read straight from its files, with no libgit2.
 *
 * Names come from each pack's .idx (already sorted), types from each pack
 * entry's header (delta chains followed through headers only, never
 * inflated) or from a reachability bitmap (the pack's own, or that of a
 * multi-pack-index covering it), loose objects from the first bytes of
 * their zlib stream, and
 * info/alternates is followed.  Everything read is validated: a bad file is
 * an error naming it, never a crash or a silent undercount.  The objects
 * go into the sets in ascending key order, each once.
 *
 * Ownership: the caller owns `s`, `p` and `err`; nothing is kept after the
 * call returns.  The repository is only read (files are mapped read-only).
 */
#ifndef ABBREV_WALK_PACK_H
#define ABBREV_WALK_PACK_H

#include <stddef.h>

#include "idset.h"
#include "progress.h"

/*
 * Add every object stored under the object directory `objdir` (loose,
 * packed, and in its alternates) to `s`, whose raw ID width decides the
 * hash.  Returns WALK_OK, WALK_ERR with a one-line message in err, or
 * WALK_NOMEM (walk.h).  With WALK_OK, err holds the warnings, one a line
 * ("" when none): alternates that are not there or nested too deep,
 * which git too warns about and leaves out, and notes, lines that start
 * "note: " (a bitmap that could not be used, and why).
 */
int walk_pack_objects(const char *objdir, idsets *s, progress *p, char *err, size_t errsz);

/*
 * walk_pack_objects(), with the types of each pack kept in `cache_dir`
 * (subject_cache.h) by a scan, and read from there by the next walk of
 * the same, unchanged pack files (NULL: no cache, as walk_pack_objects()).
 * The answer is the same either way; a cache that cannot be written is a
 * note in err.
 */
int walk_pack_objects_cached(const char *objdir, const char *cache_dir, idsets *s, progress *p,
			     char *err, size_t errsz);

/*
 * The object directories walk_pack_objects() reads, as git finds them:
 * `objdir`, then its alternates (info/alternates, recursively, and
 * GIT_ALTERNATE_OBJECT_DIRECTORIES), real paths, each once.  *dirs is an
 * array of *n strings the caller frees (each, then the array).  Returns
 * as walk_pack_objects(), warnings in err with WALK_OK.
 */
int walk_pack_objdirs(const char *objdir, char ***dirs, size_t *n, char *err, size_t errsz);

#endif
