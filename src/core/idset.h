/*
 * idset.h - the object IDs of a repository as ordered sets on Judy.
 *
 * One Judy1 array per type plus one array for all objects, keyed by the
 * first 8 bytes (16 hex chars) of an ID, big-endian, so Judy's key order
 * is the IDs' byte order.  Every ID has one entry in an arena (a pointer
 * to its bytes, its type); IDs that share all 8 key bytes stay apart
 * there, so every comparison stays exact at any length (idset.c says how
 * an entry is found from a key).
 *
 * Ownership: idsets_new() returns a collection the caller frees with
 * idsets_free(); idsets_add() copies the ID, idsets_bulk_add_ref() keeps
 * a pointer to the caller's bytes, which must then live as long as the
 * collection (idsets_keep() hands their memory over); pointers handed
 * out by an iterator stay valid until the collection is freed.
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
	/*
	 * What git disambiguates among in a commit context (`git log <prefix>`,
	 * `<prefix>^{commit}`): the commits and the annotated tags that peel,
	 * through any chain of tags, to a commit.  Filled by idsets_peel().
	 */
	ABBREV_SET_COMMITISH,
	ABBREV_SET_COUNT
};

/* "all", "commit", "tree", "blob", "tag", "commit-ish". */
const char *idset_name(int set);
/* The set named `name` (as idset_name() spells it), or -1. */
int idset_from_name(const char *name);

typedef struct idsets idsets;

/*
 * The identity of an input: an order-independent fingerprint of the IDs
 * handed to a collection (or read from an ID list), one per first byte,
 * so any shard's part of it and the whole are sums of entries.  Every
 * shard of one run walks the same input and sees every ID (it drops the
 * other shards' afterwards), so all shards compute the same spread; the
 * IDs kept by each shard add up to the whole only when the shards are of
 * one input and cover it once.  An ID handed in twice counts twice (the
 * same input walked the same way gives the same spread).  This tells
 * inputs apart; it is no defence against a crafted input.
 */
typedef struct {
	uint64_t n;     /* IDs folded in */
	uint64_t a, b;  /* sums of two 64-bit hashes of each ID, mod 2^64 */
} idset_print;

typedef struct {
	idset_print byte[256]; /* by the ID's first byte */
} idset_spread;

/* Fold one ID of rawsz bytes into the spread. */
void idset_spread_add(idset_spread *sp, const unsigned char *id, size_t rawsz);
/* The fingerprint of the IDs whose first byte is in [lo, hi). */
idset_print idset_spread_range(const idset_spread *sp, unsigned lo, unsigned hi);
/* p += q (the fingerprint of a union of disjoint parts). */
void idset_print_sum(idset_print *p, const idset_print *q);
/* Whether two fingerprints are equal. */
int idset_print_eq(const idset_print *p, const idset_print *q);

/*
 * The spread of every ID handed to idsets_add() and idsets_bulk_add*()
 * with a valid type, including those dropped by idsets_keep_range()
 * (idsets_copy_range() gives the copy the spread of its source).
 */
const idset_spread *idsets_spread(const idsets *s);

/* A new, empty collection for IDs of rawsz bytes (1..ABBREV_MAX_RAWSZ), or NULL. */
idsets *idsets_new(size_t rawsz);
void idsets_free(idsets *s);
/*
 * Make the collection call release(ctx) when it is freed (after
 * everything else): for memory that IDs added by reference live in.
 * 0, or -2 when out of memory (release is then not called).
 */
int idsets_keep(idsets *s, void (*release)(void *ctx), void *ctx);

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
/*
 * As idsets_bulk_add(), but the collection keeps a pointer to `id`
 * instead of a copy: the bytes must stay where they are until
 * idsets_free() (memory mapped files: see idsets_keep()).  A set that
 * holds each packed ID once, in the page cache, not also in the heap.
 */
int idsets_bulk_add_ref(idsets_bulk *b, const unsigned char *id, int type);
int idsets_bulk_finish(idsets_bulk *b);

/*
 * Keep only IDs whose first byte is in [lo, hi) (one shard: shard.h),
 * and every annotated tag: adding any other ID does nothing and returns
 * 0, as for an ID already there.  The tags stay because the commit-ish
 * set follows chains of tags across shards (idsets_peel()); after the
 * peel, idsets_copy_range() leaves the shard alone.  For walkers that add
 * every object of a database; a walk that follows links (--reachable)
 * must see every object, so it is only filtered by the copy.  Call
 * before the first add.
 */
void idsets_keep_range(idsets *s, unsigned lo, unsigned hi);

/*
 * Store only the IDs of the types in `mask` (bit 1 << ABBREV_TYPE_COMMIT
 * and so on): an ID of another type is counted, in the set of all
 * objects and in its type's set, and not stored, so idsets_count() stays
 * exact while iterations and lookups see only the stored types.  What
 * the history needs from 10M objects is their count and the commits.
 * Only for a walk that adds every object once (the pack walker's merge
 * drops repeated IDs itself): an ID that is not stored cannot be
 * recognised when it comes again.  Call before the first add.
 */
void idsets_store_only(idsets *s, unsigned mask);

/*
 * For a walker that knows, from a count kept for the very files it
 * reads, how many objects of a type not stored there are: whether the
 * collection takes such counts (every ID kept, no spread, `type` only
 * counted), and n more objects of `type` counted, as if each had been
 * added (0, or -1 when idsets_counts_only() says no).
 */
int idsets_counts_only(const idsets *s, int type);
int idsets_add_counted(idsets *s, int type, size_t n);

/*
 * Keep no spread (idsets_spread() then stays all zero): for a run whose
 * output holds no fingerprints, every report but --format=partial.  Two
 * 64-bit hashes of every ID were 6% of a warm report's CPU time.  Call
 * before the first add.
 */
void idsets_skip_spread(idsets *s);

/*
 * A new collection with the IDs of `s` whose first byte is in [lo, hi),
 * added in key order, the commit-ish set's tags still in it; NULL when
 * out of memory.
 */
idsets *idsets_copy_range(const idsets *s, unsigned lo, unsigned hi);

/* Number of IDs in one set. */
size_t idsets_count(const idsets *s, int set);

/* The type of a stored ID, or ABBREV_TYPE_NONE if it is not there. */
int idsets_lookup(const idsets *s, const unsigned char *id);
/* Whether a stored ID is in `set` (0 when it is not stored at all). */
int idsets_in_set(const idsets *s, const unsigned char *id, int set);

/*
 * The commit-ish set.  A walker that reads an annotated tag records what
 * its header says: the ID on its "object" line and the type on its
 * "type" line (idsets_tag_target(); recording a tag twice is harmless).
 * After every walk, idsets_peel() follows each tag of the collection
 * through its records the way git's deref_tag() does: a target the
 * collection holds must have the type the tag names (else git refuses
 * to peel it); a commit ends the chain in the commit-ish set, a tree or
 * a blob outside it, a tag goes on.  A target the collection lacks (a
 * partial or shallow clone) is judged by the tag's type line: "commit"
 * is commit-ish, and a missing tag in the chain cannot be followed (not
 * commit-ish).  A tag without a record (its header was never read) is
 * not peeled: idsets_peel() says how many there were.
 *
 * Storage: a flag beside each tag's type in the arena and a plain array
 * of records; the set has no Judy array of its own and is iterated as
 * the set of all objects, filtered.
 */
/* 0, -1 if `type` is not a type, -2 when out of memory. */
int idsets_tag_target(idsets *s, const unsigned char *tag, const unsigned char *target,
		      int type);
/* Whether a record exists for `tag` (what idsets_tag_target() was given). */
int idsets_tag_has_target(idsets *s, const unsigned char *tag);
/*
 * Fill the commit-ish set from the records (again from scratch when
 * called again).  Returns the number of tags left without a record
 * (>= 0), or -2 when out of memory.
 */
long idsets_peel(idsets *s);

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
	size_t last;   /* arena index of the ID returned last */
} idset_iter;

void idset_iter_init(idset_iter *it, const idsets *s, int set);
void idset_iter_seek(idset_iter *it, const unsigned char *from);
int idset_iter_next(idset_iter *it, const unsigned char **id, int *type);
/* Whether the ID idset_iter_next() returned last is in `set`. */
int idset_iter_in_set(const idset_iter *it, int set);

/*
 * Every object in byte order as runs of the arena, for passes over all
 * objects that call nothing per ID (stats.c): while the collection is a
 * sorted arena, the entries from index `at` to the end of its chunk,
 * their IDs (*ids)[0 .. n) and type bytes (*types)[0 .. n)
 * (idset_byte_type(), idset_byte_commitish()): n, 0 at the end; and 0 at
 * once when the collection is not a sorted arena (then idset_iter_next()).
 */
size_t idsets_run(const idsets *s, size_t at, const unsigned char *const **ids,
		  const unsigned char **types);
#define IDSET_TYPE_MASK 0x7f
#define IDSET_COMMITISH_FLAG 0x80 /* in a tag's type byte: it peels to a commit */
/* The type (ABBREV_TYPE_COMMIT ..) in an idsets_run() type byte. */
static inline int idset_byte_type(unsigned char t)
{
	return t & IDSET_TYPE_MASK;
}
/* Whether that entry is in the commit-ish set (a commit, or a tag peeling to one). */
static inline int idset_byte_commitish(unsigned char t)
{
	return t == ABBREV_TYPE_COMMIT || (t & IDSET_COMMITISH_FLAG);
}

/* Bytes of memory held by the collection (Judy arrays, arena, lists). */
size_t idsets_memory(const idsets *s);

#endif
