/*
 * walk_bitmap.h - object types from a pack's reachability bitmap file.
 *
 * A pack-*.bitmap (git repack -b, what servers keep) starts with four
 * EWAH-compressed bitmaps, one per object type (commits, trees, blobs,
 * tags), whose bit r is set when the pack's r-th object in pack (offset)
 * order has that type.  With them the pack's entries need not be read at
 * all: the .idx gives the names, the pack order (.rev, or the index's
 * offsets sorted) maps bit r to an index position, and these four bitmaps
 * give the types.  Format: Documentation/technical/bitmap-format in git.
 *
 * The reader is pure (bytes in, types out; no files, no allocation), so
 * the unit tests and the fuzzer feed it hand-made bitmaps.
 *
 * Ownership: every buffer is the caller's; nothing is kept.
 */
#ifndef ABBREV_WALK_BITMAP_H
#define ABBREV_WALK_BITMAP_H

#include <stddef.h>
#include <stdint.h>

enum bitmap_status {
	BITMAP_OK = 0,
	BITMAP_UNUSABLE = 1 /* not for this pack, or damaged: read the pack instead */
};

/*
 * Read the type bitmaps of the .bitmap file `bm` (`size` bytes) of a pack
 * of `n` objects whose trailing checksum is `pack_sum` (rawsz bytes, also
 * the bitmap's hash width).  pos_by_rank[r] is the index position of the
 * object at rank r in pack order (a permutation of 0..n-1; NULL when rank
 * and position are the same).  On BITMAP_OK, types[pos] (n bytes, written
 * by this call) holds every object's type (1 commit, 2 tree, 3 blob,
 * 4 tag).  BITMAP_UNUSABLE, with a short reason in `why`, when the file is
 * not a version-1 bitmap, is truncated, belongs to another pack (a
 * checksum that is not this pack's: stale), or does not give each object
 * exactly one type; `types` is then garbage.
 */
int bitmap_pack_types(const unsigned char *bm, size_t size, size_t rawsz,
		      const unsigned char *pack_sum, uint32_t n, const uint32_t *pos_by_rank,
		      unsigned char *types, char *why, size_t whysz);

#endif
