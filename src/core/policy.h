/*
 * policy.h - the numbers a policy on abbreviation length needs, per length:
 * what collides now, what the birthday model expects, the chance of a
 * collision now and after 5, 10 and 20 more years of growth, and the year
 * each length passes a 1% and a 50% chance.
 *
 * The sets (commits, commit-ish, all objects) grow together: every set is
 * its count today times one growth factor f(t), the same for all (the
 * history's projection keeps the objects-per-commit ratio the same way).
 * The factor comes from history's fit of the commit count (projection.h)
 * or from --growth:
 *  - exponential: f(t) = e^(r (t - t0) / year), r the continuous rate
 *    ("8%/year" is r = ln 1.08: 8% more every year);
 *  - linear: f(t) = 1 + s (t - t0) / year, s the fraction of today's
 *    count added each year ("80,000 commits/year" among 1.3M commits is
 *    s = 0.0615).
 * A set of n IDs passes P(collision) = p at L chars when it holds one ID
 * more than model_capacity(L, p): at the time f reaches (capacity + 1) / n.
 * A date past the horizon is not given: it is "beyond" the horizon's year,
 * which is what honesty allows for growth extrapolated that far.  A count
 * already passed is dated from the commit times when there are some (the
 * moment the commit count was the set's count scaled by commits / n).
 *
 * Pure math, no I/O, no libgit2.  Ownership: everything lives in the
 * caller's struct; the inputs are borrowed during policy_compute() only
 * (set names for as long as the results).
 */
#ifndef ABBREV_POLICY_H
#define ABBREV_POLICY_H

#include <stddef.h>
#include <stdint.h>

#include "growth.h"
#include "hexid.h"
#include "projection.h"

#define POLICY_FROM 10                /* the default lengths: 10..16 */
#define POLICY_TO 16
#define POLICY_MAX_LENGTHS 32         /* at most this many lengths */
#define POLICY_NYEARS 3               /* P projected this many years on: */
#define POLICY_YEARS { 5.0, 10.0, 20.0 }
#define POLICY_DEFAULT_HORIZON 50.0   /* years: later dates are "beyond" */
#define POLICY_MAX_SETS 3

enum policy_when_state {
	POLICY_WHEN_UNKNOWN = 0, /* not passed, and no growth to date it */
	POLICY_WHEN_PASSED,      /* the set is past it already */
	POLICY_WHEN_FUTURE,      /* passed at `time`, within the horizon */
	POLICY_WHEN_BEYOND       /* not before the horizon (or never) */
};

/* When a set passes P(collision) = p at one length. */
typedef struct {
	int state;           /* enum policy_when_state */
	double capacity;     /* the most IDs with P <= p (model_capacity; exact below 2^64) */
	double time;         /* PASSED: when (NAN: unknown); FUTURE: when; else NAN */
	/*
	 * PASSED with a time: the commit whose date it is (its index among
	 * the ascending times) and its committer's zone (0 until
	 * policy_set_zones()): its year is the year in that zone, as `git log
	 * --date=format:%Y` prints it.  A future year is UTC's.
	 */
	size_t at;
	int tz;
} policy_when;

typedef struct {
	unsigned length;
	int measured;            /* 1: prefixes was counted in a repository */
	uint64_t prefixes;       /* colliding prefixes now */
	double expected_pairs;   /* the model's colliding pairs now */
	double expected_prefixes;/* and colliding prefixes (what `prefixes` compares with) */
	double p_now;            /* P(at least one collision) now */
	double p_at[POLICY_NYEARS]; /* ... after years[i] more years; NAN without growth */
	double pairs_at[POLICY_NYEARS]; /* the expected pairs then; NAN without growth */
	policy_when p01, p50;    /* P = 1% and 50% */
} policy_row;

typedef struct {
	const char *name;        /* "commit", "commit-ish", "all" (borrowed) */
	uint64_t n;
	double n_at[POLICY_NYEARS]; /* the projected counts; NAN without growth */
	policy_row rows[POLICY_MAX_LENGTHS]; /* one per length, in the order asked */
} policy_set;

/* One set to compute: its name, its count, and what was measured. */
typedef struct {
	const char *name;
	uint64_t n;
	/* colliding prefixes by length, ABBREV_MAX_HEXSZ + 1 entries; NULL: none measured */
	const size_t *prefixes;
} policy_input;

typedef struct {
	size_t nlengths;
	unsigned lengths[POLICY_MAX_LENGTHS];
	size_t nsets;
	policy_set sets[POLICY_MAX_SETS];
	policy_growth growth;
	int growth_source;       /* enum policy_growth_source */
	double now;              /* unix seconds: the moment the years count from */
	double years[POLICY_NYEARS];
	double horizon_years, horizon_time; /* now + horizon_years */
} policy_results;

/*
 * Fill r for the sets in[0..nin) (at most POLICY_MAX_SETS) and the
 * lengths[0..nlengths) (each from ABBREV_MIN_LEN to ABBREV_MAX_HEXSZ, at
 * most POLICY_MAX_LENGTHS) under growth g (NULL or kind NONE: none) seen
 * from `now`, with a horizon of horizon_years.  times[0..ntimes), the
 * commit times ascending (NULL: none), date what was passed already;
 * `commits` is the commit count they belong to.  Returns 0, or -1 for
 * arguments out of range.
 */
int policy_compute(policy_results *r, const policy_input *in, size_t nin,
		   const unsigned *lengths, size_t nlengths, const policy_growth *g,
		   int growth_source, double now, double horizon_years,
		   const int64_t *times, size_t ntimes, uint64_t commits);

/*
 * The zones of the commits whose year a passed level shows (projection.h's
 * projection_zone_fn, over the times given to policy_compute()).  0, or
 * the first error zone() returned.
 */
int policy_set_zones(policy_results *r, projection_zone_fn zone, void *arg);

/* The set called `name` ("commit"), or NULL. */
const policy_set *policy_find_set(const policy_results *r, const char *name);

/* Expected colliding pairs among n (real, >= 0) random IDs at L chars (HUGE_VAL: n infinite). */
double policy_expected_pairs(double n, unsigned L);

/* P(at least one collision) among n (real, >= 0) random IDs at L chars. */
double policy_p_collision(double n, unsigned L);

#endif
