/*
 * backtest.h - how would the projection have done in the past?
 *
 * Cut-off dates are laid every `step` years back from the newest commit
 * (the end).  At each cut-off the growth of the commit count is fitted
 * (projection_compute(), the fit history prints, on the commits dated up
 * to the cut-off only), and for each later date of the same grid (the end
 * included) the fit predicts the commit count N and the birthday model
 * the colliding prefixes among N random IDs at each length
 * (model_expected_prefixes()).  Beside the prediction: what the history
 * really held then, the colliding prefixes among the commits dated up to
 * that date, and whether it lies inside the prediction's central 99%
 * Poisson interval (model_poisson_interval()): a hit.
 *
 * The lengths are the (at most BACKTEST_MAX_LENS) longest, from
 * ABBREV_MIN_LEN on, at which the commits at the end either expect at
 * least BACKTEST_MIN_EXPECTED colliding prefixes or hold one, and where
 * the model's expectation is below a tenth of the 16^L prefixes (far
 * from every prefix being taken, where a count is Poisson-like).
 *
 * Pure: raw IDs and times in, numbers out; no libgit2, no I/O.
 * Ownership: backtest_compute() allocates inside a caller-owned struct;
 * backtest_results_clear() frees it.  The inputs stay the caller's.
 */
#ifndef ABBREV_BACKTEST_H
#define ABBREV_BACKTEST_H

#include <stddef.h>
#include <stdint.h>

#include "projection.h"

#define BACKTEST_STEP_YEARS 2.0   /* cut-offs every two years back from the end */
#define BACKTEST_MAX_DATES 16     /* the end and at most 15 cut-offs before it */
#define BACKTEST_MAX_LENS 3
#define BACKTEST_MIN_EXPECTED 0.5
#define BACKTEST_Q 0.005          /* each tail of the central 99% */

/* One prediction: at cut-off dates[cut], for dates[at] (at > cut), one length. */
typedef struct {
	double expected;      /* colliding prefixes the model predicts */
	uint64_t lo, hi;      /* its central 99% Poisson interval */
	uint64_t measured;    /* colliding prefixes among the commits dated up to then */
	int hit;              /* lo <= measured <= hi */
} backtest_cell;

/* One (cut-off, later date) pair. */
typedef struct {
	size_t cut, at;       /* indices into dates[] */
	double commits_fit;   /* the fit's commit count at dates[at] */
	uint64_t commits;     /* the commits dated up to dates[at] */
	backtest_cell len[BACKTEST_MAX_LENS];
} backtest_row;

/* The fit at one cut-off. */
typedef struct {
	int ok;               /* 0: no fit (the commits before it span less than a year) */
	uint64_t commits;     /* the commits dated up to the cut-off */
	int kind;             /* PROJECTION_FIT_EXP or _LINEAR */
	double growth;        /* its growth per year (projection_fit.growth) */
} backtest_cut;

typedef struct {
	double step_years;
	double window_years;  /* the fit's options (projection_opts) */
	int fit;              /* enum projection_fit_kind, as asked (auto: each cut-off's better) */
	size_t ndates;
	int64_t dates[BACKTEST_MAX_DATES]; /* ascending; dates[ndates - 1] is the end */
	int zone;             /* the days of dates[] in this zone: the newest commit's (projection.h) */
	backtest_cut cuts[BACKTEST_MAX_DATES];
	size_t nlens;
	unsigned lens[BACKTEST_MAX_LENS];  /* ascending */
	size_t nrows;
	backtest_row *rows;   /* by cut-off, then by later date */
	size_t hits, cells;   /* over all rows and lengths */
	size_t len_hits[BACKTEST_MAX_LENS], len_cells[BACKTEST_MAX_LENS];
} backtest_results;

/*
 * Backtest the n commits (ids: n * rawsz raw bytes, each ID once; times:
 * their committer times, in the same order) with the fit options po (its
 * window and fit; its clock cuts the end) and cut-offs step years apart.
 * Returns 0 (no rows when the history is too short for any cut-off), or
 * -1 when out of memory or for a step not above 0.
 */
int backtest_compute(backtest_results *b, const unsigned char *ids, const int64_t *times,
		     size_t n, size_t rawsz, const projection_opts *po, double step_years);
void backtest_results_clear(backtest_results *b);

#endif
