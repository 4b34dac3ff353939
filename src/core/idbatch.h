/*
 * idbatch.h - IDs gathered from a stream, sorted, then added to the sets
 * in key order.
 *
 * Judy inserts in key order cost a small fraction of inserts in random
 * order (about 0.08 us against 1.9 us per key at 13M keys: in order, the
 * path to the next key is still in cache), and idsets keep an arena
 * filled in order as a plain sorted array.  So an ID stream is first
 * gathered here as records of rawsz ID bytes and one type byte, sorted
 * in place (an MSD radix sort: no second buffer), and only then added.
 *
 * Memory: (rawsz + 1) bytes per gathered line, in chunks, until
 * idbatch_free(); the sets take about as much again plus Judy's nodes.
 *
 * Ownership: idbatch_new() returns a batch freed with idbatch_free().
 */
#ifndef ABBREV_IDBATCH_H
#define ABBREV_IDBATCH_H

#include <stddef.h>
#include <stdint.h>

#include "idset.h"

typedef struct idbatch idbatch;

idbatch *idbatch_new(size_t rawsz);
void idbatch_free(idbatch *b);

/* Gather one ID and its type.  0, or -2 when out of memory. */
int idbatch_push(idbatch *b, const unsigned char *id, int type);

/* IDs gathered so far (duplicates included). */
size_t idbatch_count(const idbatch *b);

/*
 * Sort the records (ID bytes, then type) in place: exposed for the unit
 * tests; idbatch_fill() calls it.
 */
void idbatch_sort_records(unsigned char *recs, size_t n, size_t recsz);

/*
 * Sort and add every ID to `s` (empty, of the batch's rawsz) in key
 * order, each once; *duplicates gets the number of records that repeated
 * an ID.  An ID gathered with two types is no git object (the type is
 * part of the hash): returns -1 and its hex and the two types in err.
 * Returns 0, -1, or -2 when out of memory (the sets are then broken, as
 * after idsets_add()).  The batch's memory is released as it goes.
 */
int idbatch_fill(idbatch *b, idsets *s, uint64_t *duplicates, char *err, size_t errsz);

#endif
