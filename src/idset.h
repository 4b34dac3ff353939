/*
 * idset.h - the object IDs of a repository as ordered sets on Judy.
 *
 * One JudyL array per type plus one for all objects, as the design asks.
 * A JudyL key holds the first 8 bytes (16 hex chars) of an ID, big-endian,
 * so Judy's key order is the IDs' byte order.  The value leads to the full
 * ID in a shared arena, and IDs that share all 8 key bytes go to a small
 * sorted overflow list, so every comparison stays exact at any length.
 *
 * Ownership: idsets_new() returns a collection the caller frees with
 * idsets_free(); idsets_add() copies the ID; pointers handed out by an
 * iterator stay valid until the collection is freed.
 */
#ifndef ABBREV_IDSET_H
#define ABBREV_IDSET_H

#include <stddef.h>
#include <stdint.h>

#include "hexid.h"

/* Set numbers: the typed sets share their numbers with enum abbrev_type. */
enum abbrev_set {
	ABBREV_SET_ALL = 0,
	ABBREV_SET_COMMIT = ABBREV_TYPE_COMMIT,
	ABBREV_SET_TREE = ABBREV_TYPE_TREE,
	ABBREV_SET_BLOB = ABBREV_TYPE_BLOB,
	ABBREV_SET_TAG = ABBREV_TYPE_TAG,
	ABBREV_SET_COUNT
};

/* "all", "commit", "tree", "blob", "tag". */
const char *idset_name(int set);

typedef struct idsets idsets;

/* A new, empty collection for IDs of rawsz bytes (1..ABBREV_MAX_RAWSZ), or NULL. */
idsets *idsets_new(size_t rawsz);
void idsets_free(idsets *s);

size_t idsets_rawsz(const idsets *s);

/*
 * Add an ID of the given type (ABBREV_TYPE_COMMIT ... ABBREV_TYPE_TAG) to
 * the set of all objects and to its type's set.  Returns 1 if it was new,
 * 0 if it was already there (an object stored twice counts once), -1 if
 * the type is invalid, -2 when out of memory: the ID may then be in some
 * sets and not others, every later add fails too, and the collection is
 * only fit for idsets_free() (an undo could itself need memory).
 */
int idsets_add(idsets *s, const unsigned char *id, int type);

/*
 * Adding many IDs, in ascending order as the pack walker's merge yields
 * them: idsets_bulk_start() (NULL when out of memory), idsets_bulk_add()
 * for each ID (returns as idsets_add()), then idsets_bulk_finish(), which
 * must be called whatever happened and frees the handle: 0, or -2 when
 * memory ran out (the collection is then broken, as after a -2 from
 * idsets_add()).  Into an empty collection the Judy arrays are filled
 * on two other threads meanwhile; `max` bounds the IDs to come (past it, or
 * out of order, adding goes on as idsets_add() does).  Between start and
 * finish the collection must not be used otherwise.
 */
typedef struct idsets_bulk idsets_bulk;
idsets_bulk *idsets_bulk_start(idsets *s, size_t max);
int idsets_bulk_add(idsets_bulk *b, const unsigned char *id, int type);
int idsets_bulk_finish(idsets_bulk *b);

/* Number of IDs in one set. */
size_t idsets_count(const idsets *s, int set);

/* The type of a stored ID, or ABBREV_TYPE_NONE if it is not there. */
int idsets_lookup(const idsets *s, const unsigned char *id);

/*
 * Ordered iteration over one set, in byte (= hex) order:
 *
 *	idset_iter it;
 *	idset_iter_init(&it, s, ABBREV_SET_COMMIT);
 *	while (idset_iter_next(&it, &id, &type)) ...
 *
 * idset_iter_seek() restarts the iteration at the first ID whose bytes are
 * >= `from` (rawsz bytes), which with a zero-padded prefix is the first ID
 * that starts with that prefix.  The set must not change while iterated.
 */
typedef struct {
	const idsets *s;
	int set;
	int state;     /* 0 before the first key, 1 inside, 2 at the end */
	uint64_t key;  /* current JudyL key */
	uintptr_t val; /* current JudyL value */
	size_t sub;    /* position within an overflow list */
	size_t pos;    /* next arena index, while the arena is sorted */
	const unsigned char *from; /* seek target inside the first key, or NULL */
} idset_iter;

void idset_iter_init(idset_iter *it, const idsets *s, int set);
void idset_iter_seek(idset_iter *it, const unsigned char *from);
int idset_iter_next(idset_iter *it, const unsigned char **id, int *type);

/* Bytes of memory held by the collection (Judy arrays, arena, lists). */
size_t idsets_memory(const idsets *s);

#endif
