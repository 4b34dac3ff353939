/*
 * history.h - when each abbreviation length stopped being unique.
 *
 * Commits are replayed in committer-time order (ties broken by ID, so the
 * answer never depends on the input order) and inserted one by one into
 * an ordered set.  A new ID shares its longest prefix with an earlier ID
 * only with one of its two sorted neighbours, so each insertion costs two
 * neighbour look-ups; the first time that prefix reaches L chars is the
 * moment L stopped being unique in the commit space.
 *
 * Pure: raw ID bytes and times in, numbers out; no libgit2, no I/O, so
 * unit tests feed it hand-made IDs and dates.  Beside each measured
 * moment it puts the birthday model's expectation (model.h).
 *
 * Ownership: history_compute() allocates inside a caller-owned struct;
 * history_results_clear() frees it.  The input arrays stay the caller's.
 */
#ifndef ABBREV_HISTORY_H
#define ABBREV_HISTORY_H

#include <stddef.h>
#include <stdint.h>

#include "hexid.h"

/* The first moment two commits shared L hex chars. */
typedef struct {
	int64_t time;         /* committer time (unix seconds) of the later commit */
	uint64_t commits_then; /* commits inserted by then, the later one included */
	unsigned char pair[2][ABBREV_MAX_RAWSZ]; /* [0] the earlier commit, [1] the later */
	int64_t pair_time[2];
	/*
	 * The committer's zone of each of the pair (minutes east of UTC, 0
	 * until history_set_zones()): its day is the day in that zone, as
	 * `git log --date=short` prints it; `time` is pair_time[1], its zone
	 * pair_tz[1].
	 */
	int pair_tz[2];
	unsigned shared;      /* hex chars the pair shares (>= L) */
} history_first;

/* The birthday model beside one length. */
typedef struct {
	/*
	 * Expected number of random IDs drawn until the first two share L
	 * chars: sqrt(pi/2 * 16^L) + 2/3 (Ramanujan's Q function; the 2/3
	 * matters only for tiny L).
	 */
	double expected_commits;
	/*
	 * When the repository reached that many commits (the time of its
	 * ceil(expected_commits)-th commit), if it has; else reached = 0.
	 */
	int expected_reached;
	int64_t expected_time;
	unsigned char expected_id[ABBREV_MAX_RAWSZ]; /* that commit */
	int expected_tz;      /* its zone (history_set_zones()) */
	/*
	 * P(random IDs collide at L among commits_then): the quantile of the
	 * measured moment (about 0.5 is typical, a tiny value means earlier
	 * than chance, e.g. a crafted pair).  For a length that has not
	 * collided: P among all commits now.
	 */
	double p;
} history_model;

typedef struct {
	size_t rawsz;
	uint64_t commits;     /* distinct IDs replayed (a repeated ID counts once) */
	int64_t first_time, last_time; /* oldest and newest committer time (0 if none) */
	unsigned char first_id[ABBREV_MAX_RAWSZ], last_id[ABBREV_MAX_RAWSZ]; /* those commits */
	int first_tz, last_tz; /* their zones (history_set_zones()) */
	/*
	 * The longest prefix any two commits share: lengths 1..longest have a
	 * first collision in first[L]; longest+1 on are still unique.
	 */
	unsigned longest;
	history_first first[ABBREV_MAX_HEXSZ + 1];
	history_model model[ABBREV_MAX_HEXSZ + 1]; /* every L from 1 to 2*rawsz */
	int64_t *times;       /* the commits' times, ascending (commits entries) */
} history_results;

/*
 * Replay n commits (ids: n * rawsz raw bytes; times: their committer
 * times) and fill h.  An ID given twice is replayed once, at its earlier
 * time.  Returns 0, or -1 when out of memory (h is then empty).
 */
int history_compute(history_results *h, const unsigned char *ids, const int64_t *times,
		    size_t n, size_t rawsz);
void history_results_clear(history_results *h);

/*
 * The committer's zone of commit `id` (minutes east of UTC) into *tz: 0,
 * or -1 when it cannot be read (*tz then stays 0: the day in UTC).
 */
typedef int (*history_zone_fn)(void *arg, const unsigned char *id, int *tz);

/*
 * The zones of the commits whose day the history shows (each pair, each
 * length's expected moment, the oldest and the newest): a few dozen
 * look-ups, where the times came from a source without zones (git's
 * commit-graph keeps none).  0, or the first error zone() returned.
 */
int history_set_zones(history_results *h, history_zone_fn zone, void *arg);

/*
 * The positions 0 .. n-1 ordered by time[] ascending, ties by position
 * (a stable sort), into pos[0 .. n): an LSD radix sort, 11 bits a pass,
 * only over the bits in which the times differ.  With the commits in
 * ID order, that is history's replay order.  0, or -1 (memory).
 */
int history_order_by_time(const int64_t *time, size_t n, size_t *pos);

/* sqrt(pi/2 * 16^L) + 2/3: expected draws until the first collision at L. */
double history_expected_first(unsigned L);

#endif
