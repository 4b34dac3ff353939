/*
 * commit_times.h - a pack's commits in the order of their committer
 * times, kept in the cache beside the pack's commit table
 * (pack-<hex>.times), so that a run that wants every commit's time in
 * that order (the report's verdict) reads 12 bytes a commit, already
 * sorted, instead of the whole table (84 bytes a commit on git.git, with
 * its subjects) and a sort.
 *
 * The file is made from a commit table that answers for the pack (one
 * read from the cache for these very files, or built from the pack and
 * bound to them), and like every table of the cache it answers only for
 * the very .pack and .idx files it names; a damaged, cut, foreign or
 * planted one is not used (and made again).  No libgit2.
 *
 * Ownership: commit_times_load() fills *out (commit_times_free()).
 */
#ifndef ABBREV_COMMIT_TIMES_H
#define ABBREV_COMMIT_TIMES_H

#include <stddef.h>
#include <stdint.h>

#include "subject_cache.h"

/* The commits of one pack by (committer time, .idx position): the file's bytes. */
typedef struct {
	uint32_t n;
	const unsigned char *time; /* n i64, little-endian, ascending */
	const unsigned char *pos;  /* n u32, little-endian: .idx positions, ascending within a time */
	unsigned char *buf;        /* the file (bigvec_free(buf, cap)) */
	size_t cap;
} commit_times;

/*
 * The commits of the pack `sum` (nobjects objects, its files b) in time
 * order from `dir`: 0 with *out, 1 when there is no usable file, -1
 * (memory).
 */
int commit_times_load(const char *dir, size_t rawsz, const unsigned char *sum, uint32_t nobjects,
		      const subject_bind *b, commit_times *out);

/* Commit i of the order: its .idx position and committer time. */
uint32_t commit_times_pos(const commit_times *ct, size_t i);
int64_t commit_times_time(const commit_times *ct, size_t i);

/*
 * Write the file of the pack `sum` (nobjects objects, its files b,
 * b->pack_path kept in it) to `dir` from its commit table t, which must
 * answer for those files: 0, 1 when t cannot be read whole (nothing
 * written), -1 (errno set; memory, or the file not written).
 */
int commit_times_save(const char *dir, size_t rawsz, const unsigned char *sum, uint32_t nobjects,
		      const subject_bind *b, const subject_table *t);

void commit_times_free(commit_times *ct);

#endif
