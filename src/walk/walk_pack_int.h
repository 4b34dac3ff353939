/*
 * walk_pack_int.h - what the files of the pack walker share (not for the
 * rest of the program, which uses walk_pack.h): the walker's state, an
 * odb (odb.h) and the multi-pack-indexes with bitmaps, and each step's
 * entry point.  The steps are described in walk_pack.c.
 *
 * Ownership: everything a walker points to is freed by wp_walker_free()
 * when the attempt ends.
 */
#ifndef ABBREV_WALK_PACK_INT_H
#define ABBREV_WALK_PACK_INT_H

#include <stddef.h>
#include <stdint.h>

#include "idset.h"
#include "odb.h"
#include "progress.h"
#include "walk.h"
#include "walk_pack.h"

/*
 * An object directory's multi-pack-index with a reachability bitmap
 * (pack/multi-pack-index and pack/multi-pack-index-<its checksum>.bitmap),
 * mapped with the packs, read by walk_pack_midx.c.
 */
typedef struct {
	const char *dir;          /* one of odb.dirs */
	char *path, *bitmap_path;
	const unsigned char *map, *bitmap;
	size_t size, bitmap_size;
} midx_file;

typedef struct {
	odb db;          /* the object directories, packs and loose objects */
	midx_file *midx; /* the multi-pack-indexes that have a bitmap */
	size_t nmidx, midx_cap;
	const char *cache_dir; /* the packs' types tables (subject_cache.h), or NULL: none */
} walker;

/* ---- walk_pack.c ---- */

/* Unmap and free everything the walker holds (not the walker itself). */
void wp_walker_free(walker *w);
/* odb_find_objdirs(), then map the packs and read the loose objects of each. */
int wp_add_objdirs(walker *w, const char *objdir);

/* ---- walk_pack_scan.c: step 2 ---- */

/*
 * Type every entry of a pack into pk->types, reading headers in pack
 * order, and keep them in the cache (w->cache_dir) for the next walk.
 */
int wp_pack_scan(walker *w, pack_file *pk);
/*
 * Type every entry of a pack into pk->types from its types table in the
 * cache, as after a scan: 0, 1 when there is no usable table (pk->types
 * is then left NULL for the scan), or WALK_NOMEM.
 */
int wp_pack_cached(walker *w, pack_file *pk);
/*
 * Type every entry of a pack into pk->types from its .bitmap instead:
 * 0, 1 when the bitmap cannot be used (stale or damaged: pk->types is
 * then left NULL for the scan), or an error (a bad index or .rev).
 */
int wp_pack_bitmap(walker *w, pack_file *pk);
/*
 * A pack whose pk->types a bitmap gave: count it done, read its tags and
 * give the pack's pages back, as after a scan.  0 or an error.
 */
int wp_pack_typed(walker *w, pack_file *pk);

/* ---- walk_pack_midx.c: step 2 from a multi-pack-index's bitmap ---- */

/*
 * Map dir/pack/multi-pack-index and the bitmap named after its checksum,
 * when there are both, into w->midx (an unreadable one is no bitmap).
 * 0 or WALK_NOMEM.
 */
int wp_midx_find(walker *w, const char *dir);

/*
 * Type every pack a multi-pack-index covers from its bitmap (pk->types of
 * each), when the index, its reverse index and its bitmap agree with each
 * other and with the packs.  0 whether or not it could (when not, a note
 * says why and the packs are left to the scan), or WALK_NOMEM.
 */
int wp_midx_types(walker *w, midx_file *mx);

/* ---- walk_pack_merge.c: step 3 ---- */

/* Merge every pack's names and the loose IDs into the sets, in key order. */
int wp_merge(walker *w, idsets *set);
/*
 * The merge of a walk whose sets store only the commits: each pack's
 * commits, the other objects counted from the union file kept by an
 * earlier wp_merge() of the very same packs (walk_pack_merge.c).  0,
 * WALK_NOMEM, or 1 when it does not apply (nothing added: wp_merge()).
 */
int wp_merge_commits(walker *w, idsets *set);
/* Hand the tags read to the sets (idsets_tag_target), after the merge. */
int wp_tags_to_sets(walker *w, idsets *s);

#endif
