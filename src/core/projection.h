/*
 * projection.h - when will a length stop being safe, at the growth so far?
 *
 * From the commit times of a repository: fit the growth of the commit
 * count N(t) over a recent window, then project the dates at which the
 * commits, and all objects (N times the measured objects-per-commit
 * ratio), pass the birthday model's 1% and 50% capacity of each length
 * (model_capacity()).
 *
 * The fits (both are always computed, one is chosen):
 *  - exponential: least squares of ln N(t) against t, N = e^(a + r t);
 *    r is the continuous growth rate per year;
 *  - linear: least squares of N(t) against t, N = a + b t.
 * Each is fitted to N sampled at PROJECTION_SAMPLES evenly spaced times
 * of the window [end - window_years, end] (cut at the first commit), so
 * a burst of commits does not outweigh quiet years.  Its error is the
 * RMS relative error (fit - N) / N over those samples.  "auto" chooses
 * the fit with the smaller error.  Projections keep the fitted growth
 * (r, or b) but start from the actual count at the end of the window,
 * so today's number is never contradicted by the fit's intercept.
 *
 * Dates are unix seconds as doubles (they may lie far beyond 2038 or
 * year 9999), HUGE_VAL when never (a growth that is not positive).  A
 * count already passed is dated from the history itself: the time of the
 * commit that passed it (for all objects, of the commit at which the
 * ratio says the objects passed it), flagged `reached`.
 *
 * Pure math, no I/O.  Ownership: everything lives in the caller's struct.
 */
#ifndef ABBREV_PROJECTION_H
#define ABBREV_PROJECTION_H

#include <stddef.h>
#include <stdint.h>

#include "growth.h"

#define PROJECTION_YEAR 31556952.0  /* seconds in a mean Gregorian year */
#define PROJECTION_SAMPLES 256
#define PROJECTION_FROM 10          /* the lengths projected */
#define PROJECTION_TO 16
#define PROJECTION_QUOTE_LEN 12     /* the length of the quotable line (the kernel's) */

#define PROJECTION_DEFAULT_WINDOW 5.0   /* years */
#define PROJECTION_DEFAULT_TARGET_P 0.01
#define PROJECTION_DEFAULT_HORIZON 10.0 /* years */

enum projection_fit_kind {
	PROJECTION_FIT_AUTO = 0,  /* options only: the smaller error */
	PROJECTION_FIT_EXP,
	PROJECTION_FIT_LINEAR
};

/*
 * The shortest history a growth is projected from.  Ten years ahead from
 * days or weeks of commits is a guess, not a projection: one burst of
 * work (an import, a sprint, the first week of a project) reads as a
 * growth rate of thousands of percent a year, and a year holds the
 * slow and busy seasons a project goes through.
 */
#define PROJECTION_MIN_SPAN_YEARS 1.0

enum projection_status {
	PROJECTION_OK = 0,
	PROJECTION_TOO_FEW,  /* fewer than 2 commits, or all at one moment */
	PROJECTION_TOO_SHORT /* the commits span less than PROJECTION_MIN_SPAN_YEARS */
};

typedef struct {
	double window_years;  /* fit the last this many years (> 0) */
	int fit;              /* enum projection_fit_kind */
	double target_p;      /* "safe": P(collision) <= target_p ... */
	double horizon_years; /* ... until this many years after the window's end */
	int64_t now;          /* the clock; later commit dates are cut to it (0: no cut) */
} projection_opts;

/* Fill o with the defaults above (now = 0). */
void projection_opts_init(projection_opts *o);

typedef struct {
	int kind;         /* PROJECTION_FIT_EXP or PROJECTION_FIT_LINEAR */
	double a;         /* intercept at the window's end: ln N, or N */
	double growth;    /* per year: the rate r, or the slope b in commits */
	double rms_rel;   /* RMS relative error over the samples */
} projection_fit;

/* When a count is passed, for commits and for all objects. */
typedef struct {
	uint64_t capacity;          /* model_capacity(L, p): passed at capacity + 1 */
	double commits_time, objects_time;
	int commits_reached, objects_reached;
	/*
	 * Reached: the commit whose date it is (its index among the ascending
	 * times) and its committer's zone (minutes east of UTC, 0 until
	 * projection_set_zones()): its year is the year in that zone, as
	 * `git log --date=format:%Y` prints it.  A future year is UTC's.
	 */
	size_t commits_at, objects_at;
	int commits_tz, objects_tz;
} projection_when;

typedef struct {
	int status;                 /* enum projection_status; nothing else is set unless OK */
	/* TOO_SHORT sets these too: the first commit's time and the newest's */
	int64_t window_start, window_end;
	/*
	 * The zone (minutes east of UTC) the window's days are shown in: the
	 * newest commit's committer's, as git shows that commit's day; 0
	 * (UTC) until the caller, who can read commits, sets it.
	 */
	int zone;
	double window_years;        /* as asked; the span may be shorter (a young repository) */
	size_t nsamples;
	projection_fit fits[2];     /* [0] exponential, [1] linear */
	int chosen;                 /* index into fits */
	uint64_t commits, objects;  /* counted now */
	double objects_per_commit;
	projection_when p01[PROJECTION_TO + 1], p50[PROJECTION_TO + 1]; /* FROM..TO */
	/*
	 * p50[PROJECTION_QUOTE_LEN] under the fit that was not chosen: how
	 * much the choice of growth law moves the quoted years.
	 */
	projection_when other_quote;
	/* "which length is safe until <year>" */
	double target_p, horizon_years, horizon_time;
	double commits_at_horizon, objects_at_horizon;
	/* each fit's commit count at horizon_time, as fits[] (the chosen one is commits_at_horizon) */
	double fit_at_horizon[2];
	unsigned safe_commit_len, safe_all_len; /* model_min_length() of those counts */
} projection_results;

/*
 * Project from the ascending commit times times[0..n) and the count of
 * all objects.  Always returns 0 (the status says whether there was
 * enough to fit); -1 only for nonsensical options.
 */
int projection_compute(projection_results *p, const int64_t *times, size_t n,
		       uint64_t objects, const projection_opts *o);

/* The chosen fit's count at time t (from the actual count at the window's end). */
double projection_count_at(const projection_results *p, double t);
/* The same for fit number `fit` (index into fits[]), chosen or not. */
double projection_fit_count_at(const projection_results *p, int fit, double t);

/*
 * The chosen fit as policy's growth law (growth.h), from the window's end
 * (t0); kind NONE when there is no fit.  history, policy and the verdict
 * project with it, so they give the same years and counts.
 */
void projection_growth(policy_growth *g, const projection_results *p);

/* The time at which the chosen fit reaches `count` (HUGE_VAL: never). */
double projection_time_of(const projection_results *p, double count);

/*
 * The time of commit number c (1-based, rounded up; real, as a count
 * scaled from another set) among n ascending times, clamped to them.
 */
double projection_time_of_commit(const int64_t *times, size_t n, double c);
/* Its index among the n times. */
size_t projection_commit_at(size_t n, double c);

/*
 * The committer's zone of the k-th commit of the ascending times the
 * projection (or policy) was computed from, into *tz (minutes east of
 * UTC); 0, or non-zero when it cannot be read (*tz then stays 0: UTC).
 */
typedef int (*projection_zone_fn)(void *arg, size_t k, int *tz);

/*
 * The zones of the commits whose year a reached count shows (p01, p50 and
 * other_quote): a few dozen look-ups.  0, or the first error zone() gave.
 */
int projection_set_zones(projection_results *p, projection_zone_fn zone, void *arg);

/* A date (unix seconds) as a decimal year, e.g. 2031.5; works past 9999. */
double projection_year(double t);

/* Sort times ascending. */
void projection_sort_times(int64_t *times, size_t n);

/* How many of the ascending times[0..n) are <= t. */
size_t projection_count_upto(const int64_t *times, size_t n, double t);

/* "exponential", "linear". */
const char *projection_fit_name(int kind);

#endif
