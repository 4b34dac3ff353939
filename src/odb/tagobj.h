/*
 * tagobj.h - what an annotated tag points at, from its first bytes.
 *
 * A tag object starts "object <hex ID>\ntype <type>\n" (git's
 * parse_tag_buffer() reads just these two lines to know the target), so
 * the first 2*rawsz + 20 or so bytes of a tag are enough: the walkers
 * inflate only those.  Pure: no allocation, no I/O, fuzzable.
 *
 * Ownership: the caller owns every buffer.
 */
#ifndef ABBREV_TAGOBJ_H
#define ABBREV_TAGOBJ_H

#include <stddef.h>

/* Bytes of a tag's start that always hold both lines when they are well formed. */
#define TAGOBJ_HEAD_MAX (7 + 2 * 32 + 1 + 5 + 6 + 1)

/*
 * Parse the start of a tag object, buf[0..len) (len may be less than the
 * whole object).  On 0, target (rawsz bytes) and *type (enum abbrev_type)
 * are set.  Returns 1 when buf ends before the two lines do and more
 * bytes could still make them whole, -1 when the header is malformed
 * (git would refuse to peel the tag).
 */
int tagobj_parse(const unsigned char *buf, size_t len, size_t rawsz, unsigned char *target,
		 int *type);

#endif
