/*
 * hexid.h - raw object IDs and their hex spelling.
 *
 * IDs are raw bytes of a width given by the hash (20 for SHA-1, 32 for
 * SHA-256); nothing here assumes 40 hex chars.  Pure functions, no
 * allocation: callers own every buffer.
 */
#ifndef ABBREV_HEXID_H
#define ABBREV_HEXID_H

#include <stddef.h>
#include <stdint.h>

#define ABBREV_MAX_RAWSZ 32
#define ABBREV_MAX_HEXSZ (2 * ABBREV_MAX_RAWSZ)
#define ABBREV_MIN_LEN 4 /* git's own minimum abbreviation */

/* Object types; the numbers are git's own (OBJ_COMMIT = 1 ... OBJ_TAG = 4). */
enum abbrev_type {
	ABBREV_TYPE_NONE = 0,
	ABBREV_TYPE_COMMIT = 1,
	ABBREV_TYPE_TREE = 2,
	ABBREV_TYPE_BLOB = 3,
	ABBREV_TYPE_TAG = 4
};

/* "commit", "tree", "blob", "tag"; "unknown" for anything else. */
const char *hexid_type_name(int type);
/* The type named by `name` ("commit", ...), or ABBREV_TYPE_NONE. */
int hexid_type_from_name(const char *name);

/* The hash named by its raw width: "sha1" (20), "sha256" (32), or NULL. */
const char *hexid_hash_name(size_t rawsz);

/* Write 2*rawsz lower-case hex chars and a NUL to out. */
void hexid_fmt(char *out, const unsigned char *raw, size_t rawsz);

/*
 * Parse up to 2*rawsz hex chars (either case) from hex[0..len) into raw,
 * zero-filling the rest.  Returns 0, or -1 if a char is not hex or len is
 * larger than 2*rawsz.
 */
int hexid_parse_prefix(unsigned char *raw, size_t rawsz, const char *hex, size_t len);

/*
 * The position of `id` in ids[lo..hi), raw IDs of rawsz bytes in
 * ascending order, or SIZE_MAX when it is not there.
 */
size_t hexid_find(const unsigned char *ids, size_t lo, size_t hi, size_t rawsz,
		  const unsigned char *id);

/*
 * The same over IDs `stride` bytes apart (a pack index's names, a table
 * of larger records that start with an ID).
 */
size_t hexid_find_stride(const unsigned char *ids, size_t stride, size_t lo, size_t hi,
			 size_t rawsz, const unsigned char *id);

/*
 * The first position in ids[lo..hi) (raw IDs `stride` bytes apart,
 * ascending) whose ID is >= id, or hi.  `shared`: how many leading bytes
 * every ID of the range has in common with id, as far as the caller
 * knows (1 in a pack index's fan-out bucket, else 0); it sharpens the
 * first guess.  Hash IDs are spread evenly, so the search interpolates
 * (a few probes, each a cache miss in a large index, where halving takes
 * about 20); any ascending input is still answered in O(log n).
 */
size_t hexid_lower_bound(const unsigned char *ids, size_t stride, size_t lo, size_t hi,
			 size_t rawsz, size_t shared, const unsigned char *id);

/* Buckets of hexid_fan16(): one per value of an ID's first two bytes. */
#define HEXID_FAN16 65536

/*
 * fan[k] (k <= HEXID_FAN16): the first position in ids[0..n) (ascending,
 * `stride` bytes apart) whose first two bytes are >= k, as a pack index's
 * fan-out does it for one byte; made in one pass over the IDs.  With it,
 * a search starts in a bucket of n / 65536 IDs (a few cache lines) where
 * the one-byte fan-out leaves n / 256.
 */
void hexid_fan16(const unsigned char *ids, size_t stride, size_t n, uint32_t *fan);

/* Number of leading hex chars a and b share (0 .. 2*rawsz). */
unsigned hexid_lcp(const unsigned char *a, const unsigned char *b, size_t rawsz);

#endif
