/*
 * pack_obj.h - one pack entry as bytes: its header and, for a delta, the
 * instructions that rebuild it from its base.  Pure functions over a
 * caller's buffers (a mapped .pack), shared by the pack walker's tag
 * reader and objread.c, so the format is parsed in one place.
 *
 * Format: Documentation/gitformat-pack.txt in git.  An entry starts with
 * its type (bits 4-6) and inflated size (little-endian base-128, 4 bits
 * then 7 a byte); an OFS_DELTA then gives its base as a distance back
 * (big-endian base-128 with git's +1 per continuation byte), a REF_DELTA
 * as the base's raw ID; the zlib stream follows.  A delta holds the base's
 * and the result's sizes (little-endian base-128), then instructions: bit
 * 7 set copies from the base (bits 0-3 say which offset bytes follow, bits
 * 4-6 which size bytes; a size of 0 means 0x10000), bit 7 clear inserts
 * the next 1..127 bytes.
 *
 * Ownership: pack_delta_apply() returns a malloc'ed buffer the caller
 * frees; nothing else allocates.
 */
#ifndef ABBREV_PACK_OBJ_H
#define ABBREV_PACK_OBJ_H

#include <stddef.h>
#include <stdint.h>

enum { PACK_OFS_DELTA = 6, PACK_REF_DELTA = 7 };

typedef struct {
	int type;                     /* 1..4 (ABBREV_TYPE_*), or a delta */
	size_t size;                  /* inflated size (the delta's, for a delta) */
	uint64_t base_off;            /* PACK_OFS_DELTA: the base's offset */
	const unsigned char *base_id; /* PACK_REF_DELTA: the base's raw ID */
	const unsigned char *data;    /* the zlib stream */
} pack_entry;

/*
 * The entry at pack[off]; the entries end at pack[end] (the trailer's
 * start).  0, or -1 when the header is malformed or runs past the end.
 */
int pack_entry_parse(const unsigned char *pack, uint64_t end, uint64_t off, size_t rawsz,
		     pack_entry *e);

/*
 * Apply the delta d[0..dn) to base[0..bn): a new buffer in *out (*outn
 * bytes; one more byte is allocated and set to NUL).  0, -1 for a delta
 * that does not fit its base or makes more than `max` bytes, -2 when out
 * of memory.
 */
int pack_delta_apply(const unsigned char *base, size_t bn, const unsigned char *d, size_t dn,
		     size_t max, unsigned char **out, size_t *outn);

#endif
