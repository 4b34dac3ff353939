/*
 * objset.h - the objects a reachability walk has seen, by ID.
 *
 * A walk asks "seen before?" once per tree entry: tens of millions of
 * questions in random ID order on a large repository, where a lookup in
 * the ordered Judy sets costs a cache miss per level.  An open-addressing
 * hash table that holds the IDs themselves answers with about one miss
 * (IDs are uniformly random, so their first 8 bytes are the hash), at
 * 48 to 96 bytes per SHA-1 object.  When the walk is over, the IDs go to
 * the Judy sets once, sorted, by the bulk path.
 *
 * Ownership: objset_new() returns a set freed by objset_free(); the set
 * copies the IDs it is given.
 */
#ifndef ABBREV_OBJSET_H
#define ABBREV_OBJSET_H

#include <stddef.h>

#include "idset.h"

typedef struct objset objset;

/* A new, empty set for IDs of rawsz bytes (8..ABBREV_MAX_RAWSZ), or NULL. */
objset *objset_new(size_t rawsz);
void objset_free(objset *o);

/*
 * Add an ID with its type (enum abbrev_type; ABBREV_TYPE_NONE for an
 * object known to be missing).  1 if it is new, 0 if it was there (the
 * type given first stays), -2 when out of memory (the set is unchanged).
 */
int objset_add(objset *o, const unsigned char *id, int type);

/* The type of an ID in the set (ABBREV_TYPE_NONE: missing), or -1 if absent. */
int objset_find(const objset *o, const unsigned char *id);

/* Start loading the memory a lookup of `id` will read (a hint, no effect). */
void objset_prefetch(const objset *o, const unsigned char *id);

/* Change the type of an ID in the set (nothing if it is absent). */
void objset_set_type(objset *o, const unsigned char *id, int type);

size_t objset_count(const objset *o);

/*
 * Add every ID of the set but the missing ones to `s` in ID order
 * (sorting the set's storage: only objset_free() may follow).  0, or -2
 * when out of memory.
 */
int objset_drain(objset *o, idsets *s);

#endif
