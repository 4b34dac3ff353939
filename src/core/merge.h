/*
 * merge.h - the report of the whole ID space from its shards' partial
 * results.
 *
 * Two IDs that share L >= 2 hex chars share their first byte, so they are
 * in the same shard: per set and length, colliding objects and prefixes
 * of the shards add up to those of the whole set, and so do the counts
 * and commit-vs-other; the longest colliding length is the shards'
 * largest, its groups those of the shards that reach it, in shard (= ID)
 * order.  The result is the stats_report a single run computes, so every
 * emitter prints the same bytes.
 *
 * Ownership: merge_partials() fills a caller-owned partial (shard 0/1)
 * that partial_clear() frees; it copies what it takes from the parts.
 */
#ifndef ABBREV_MERGE_H
#define ABBREV_MERGE_H

#include <stddef.h>

#include "partial.h"

/*
 * Merge parts[0..n) (read from paths[0..n), for messages).  Returns 0;
 * -1 with a one-line message in err when they do not make one whole
 * (their inputs' spreads, shard counts or hashes differ, a shard is
 * repeated or missing, two disagree on an input's lines); -2 when out of
 * memory.  What each part says of itself was checked by partial_read().
 */
int merge_partials(partial *out, const partial *parts, const char *const *paths, size_t n,
		   char *err, size_t errsz);

#endif
