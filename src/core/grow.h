/*
 * grow.h - room for one more element of an array that grows by doubling,
 * the one way every growing array of git-abbrev gets its memory (as git's
 * ALLOC_GROW).
 *
 * Ownership: the caller keeps the pointer and its capacity; on failure
 * both stay as they were (the elements kept), so the caller frees what
 * it had as usual.
 */
#ifndef ABBREV_GROW_H
#define ABBREV_GROW_H

#include <stddef.h>

/*
 * The capacity that holds `need` elements of `size` bytes: `cap` doubled
 * (from `first` when 0) until it does; `cap` itself when it does already;
 * 0 when that many bytes would overflow.
 */
size_t grow_cap(size_t cap, size_t need, size_t first, size_t size);

/*
 * Make the array at *(T **)pp hold n elements of `size` bytes (realloc):
 * 0, or -1 when out of memory (the array as it was).
 */
int grow_to(void *pp, size_t n, size_t size);

/*
 * Room for `need` elements in the array at *(T **)pp whose room is *cap
 * elements, doubled from `first`: 0 (*pp and *cap updated), or -1 when
 * out of memory (both as they were).
 */
int grow(void *pp, size_t *cap, size_t need, size_t first, size_t size);

/* grow() for an array `p` of its own element type: GROW(v, cap, n + 1, 16). */
#define GROW(p, cap, need, first) grow(&(p), &(cap), (need), (first), sizeof(*(p)))

#endif
