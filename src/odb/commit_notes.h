/*
 * commit_notes.h - a caller's note (a 32-bit value) on some commits of a
 * pack, kept in the cache beside the pack's subject table
 * (pack-<hex>.notes), so that the next run on the unchanged pack need not
 * read those commits again.  verify keeps what reading each message of a
 * --range found (no citation in it, and how many lines it has; or, beside
 * the note, some bytes: what parsing a message that cites something
 * found, cite_digest.h).
 *
 * What a note means is the caller's, and so is when it goes stale: each
 * file holds the caller's stamp (verify's names its own build), and one
 * with another stamp is not used.  Like every table of the cache the file
 * answers only for the very .pack and .idx files it was built from; and
 * since nothing in the pack can prove a note without reading the commit
 * again, the file is sealed with HMAC-SHA256 (nettle) under a key of the cache
 * directory (`key`, 16 random bytes, the user's own and readable by
 * nobody else): a note edited, copied from another cache or planted
 * (its CRC made right) is not used.  No libgit2.
 *
 * Ownership: commit_notes_load() fills *out (commit_notes_free()).
 */
#ifndef ABBREV_COMMIT_NOTES_H
#define ABBREV_COMMIT_NOTES_H

#include <stddef.h>
#include <stdint.h>

#include "subject_cache.h"

/*
 * Notes by .idx position: pos[] strictly ascending, val[i] pos[i]'s note,
 * and its bytes data[off[i] .. off[i] + len[i]) (len[i] 0: none).  As
 * loaded they stay in the file read (file, filecap bytes of room): its
 * rows (frows: fn pairs position, note; fbrows: fm rows position, offset,
 * length of the notes with bytes) are searched in place and data points
 * into it, dcap 0, so that a run that adds nothing copies nothing; the
 * first note added (or a sort) turns them into the arrays, and the first
 * bytes added copy data.
 */
typedef struct {
	uint32_t *pos, *val, *off, *len;
	size_t n, cap;
	unsigned char *data;
	size_t dlen, dcap;
	unsigned char *file;
	size_t filecap;
	const unsigned char *frows, *fbrows;
	size_t fn, fm;
} commit_notes;

/*
 * The notes of the pack `sum` (nobjects objects, its files b) kept in
 * `dir` under `stamp` (stamplen bytes): 0 with *out, 1 when there is no
 * usable file (none, damaged, another pack's or stamp, not sealed with
 * this cache's key), -1 (memory).
 */
int commit_notes_load(const char *dir, size_t rawsz, const unsigned char *sum, uint32_t nobjects,
		      const subject_bind *b, const unsigned char *stamp, size_t stamplen,
		      commit_notes *out);

/* Keep them (sorted, each position below nobjects): 0, or -1 (errno). */
int commit_notes_save(const char *dir, size_t rawsz, const unsigned char *sum, uint32_t nobjects,
		      const subject_bind *b, const unsigned char *stamp, size_t stamplen,
		      commit_notes *nt);

/* The note on position pos: 1 with *val, 0 none. */
int commit_notes_find(const commit_notes *nt, uint32_t pos, uint32_t *val);
/* The same, with its bytes (*len 0: none; valid until the notes change). */
int commit_notes_find_bytes(const commit_notes *nt, uint32_t pos, uint32_t *val,
			    const unsigned char **bytes, size_t *len);

/* Add (pos, val) at the end, in any order: 0 or -1 (memory). */
int commit_notes_add(commit_notes *nt, uint32_t pos, uint32_t val);
/* The same with bytes (a copy kept; len 0: none, below 4 GiB): 0 or -1 (memory, too long). */
int commit_notes_add_bytes(commit_notes *nt, uint32_t pos, uint32_t val,
			   const unsigned char *bytes, size_t len);

/* Sort by position; of two notes on one position the later added stays.  0 or -1 (memory). */
int commit_notes_sort(commit_notes *nt);

void commit_notes_free(commit_notes *nt);

#endif
