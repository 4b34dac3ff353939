/*
 * bigvec.h - the memory of a vector that may grow large (the references
 * of a 400,000-line input take 74 MB): from 2 MB on, mapped pages that
 * grow by mremap(2) (moved, never copied) and are offered to the kernel
 * as transparent huge pages, so filling them costs a fault per 2 MB
 * instead of per 4 KB (below that, malloc's memory).  On
 * a virtual machine a fault costs microseconds: a quarter of a warm
 * 400k-line verify went to them with malloc's 4 KB pages.
 *
 * Ownership: the caller keeps the pointer and its capacity in bytes and
 * gives both back to bigvec_free().
 */
#ifndef ABBREV_BIGVEC_H
#define ABBREV_BIGVEC_H

#include <stddef.h>

/*
 * Room for at least `need` bytes at *p (NULL: none yet), whose room is
 * *cap bytes: 0 (*p and *cap updated, the bytes kept), or -1 when out of
 * memory (*p and *cap as they were).
 */
int bigvec_reserve(void **p, size_t *cap, size_t need);

/* Give back what bigvec_reserve() mapped (p NULL: nothing). */
void bigvec_free(void *p, size_t cap);

/*
 * malloc() and calloc() for an array filled soon after, freed with
 * free(): from 1 MB on, the array gets 2 MB pages of its own (rounded
 * up: at most one page more than asked), offered as transparent huge
 * pages, so that filling 10 MB costs 5 faults instead of 2,560 (on this
 * project's 2-core VM, 1 ms instead of 32).
 */
void *bigvec_malloc(size_t n);
void *bigvec_calloc(size_t n, size_t size);
/* n bytes (a multiple of 2 MB) on a 2 MB boundary, all offered as huge pages; free(). */
void *bigvec_huge_block(size_t n);

#endif
