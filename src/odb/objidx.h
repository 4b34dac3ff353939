/*
 * objidx.h - object IDs by prefix, answered as git answers `git rev-parse
 * <prefix>`: a binary search in each pack's .idx and a listing of the one
 * loose fan-out directory the prefix falls in, over the object directory
 * and its alternates.  Nothing is loaded per object up front, so a
 * question about one reference costs microseconds on a repository of
 * ten million objects, where loading every ID into the Judy sets (what
 * report needs) costs seconds.
 *
 * The answers are those of the sets of every object (idset.h) that the
 * pack walker would fill: each object once however often it is stored,
 * its type (a delta's is its base's), and for an annotated tag whether it
 * peels, through any chain of tags, to a commit (idsets_peel()'s rule).
 * A tag whose header cannot be read here counts as not commit-ish.
 *
 * The packs are mapped and the loose objects listed (with their types)
 * once, by objidx_new(): one state of the object directory, whatever a
 * repack does meanwhile.  A pack cut short while it is mapped (SIGBUS)
 * or an entry that cannot be parsed is an error with a message, never a
 * partial answer.
 * No libgit2 here.
 *
 * Ownership: objidx_new() returns a lookup freed with objidx_free(); IDs
 * handed to a callback are valid during the call only.
 */
#ifndef ABBREV_OBJIDX_H
#define ABBREV_OBJIDX_H

#include <stddef.h>

typedef struct objidx objidx;

/*
 * Map the .idx and .pack files of `objdir` and of its alternates (as git
 * finds them).  0, -1 when out of memory, -2 with a one-line message in err.
 */
int objidx_new(objidx **out, const char *objdir, size_t rawsz, char *err, size_t errsz);
void objidx_free(objidx *x);

/* The objects the .idx files and the loose listing hold, each copy counted. */
size_t objidx_count(const objidx *x);

/* What git warned about and goes on without (a missing alternate), one a line, or "". */
const char *objidx_warnings(const objidx *x);

/* One object of a prefix: its raw ID, type (ABBREV_TYPE_*), and for a tag whether it peels to a commit. */
typedef int (*objidx_fn)(void *arg, const unsigned char *id, int type, int commitish);

/*
 * Whether any object's ID starts with the first n hex chars of the raw
 * `from` (the rest of it zeros): 1 or 0, with no object's type read (the
 * question of a typo search, asked a hundred times a reference, mostly
 * for nothing).  -2 with a message in err.
 */
int objidx_has_prefix(objidx *x, const unsigned char *from, size_t n, char *err, size_t errsz);

/*
 * objidx_has_prefix() for the 16 prefixes that change hex char i (< n)
 * of `from`: bit d of *mask set when some object's ID starts with the n
 * hex chars with char i made d.  Past the fan-out's four chars the 16
 * lie in one bucket, scanned once.  0, or -2 with a message in err.
 */
int objidx_prefix_nibbles(objidx *x, const unsigned char *from, size_t n, size_t i,
			  unsigned *mask, char *err, size_t errsz);

/*
 * The objects whose IDs start with the hex chars hex[0..n) (either case,
 * n <= 2 * rawsz), each once, in ID order: fn for each until it returns
 * non-zero.  0 (or fn's non-zero return), -1 when out of memory, -2 with
 * a message in err.
 */
int objidx_prefix(objidx *x, const char *hex, size_t n, objidx_fn fn, void *arg, char *err,
		  size_t errsz);

/*
 * The smallest length >= 4 at which `id` shares its prefix with no other
 * object (git's rule: the neighbours of id in every .idx, and the loose
 * objects of its fan-out directory).  0 with *len set, -1, or -2 with a
 * message in err.
 */
int objidx_unique_length(objidx *x, const unsigned char *id, unsigned *len, char *err,
			 size_t errsz);

#endif
