/*
 * growth.h - one growth law for every projection: history's years, policy's
 * counts and years, and the verdict all grow today's counts by the factor
 * f(t) below and invert it the same way, from the same moment t0, so the
 * same event gets the same year and the same projected count everywhere.
 *
 * Pure math, no I/O.
 */
#ifndef ABBREV_GROWTH_H
#define ABBREV_GROWTH_H

enum policy_growth_kind {
	POLICY_GROWTH_NONE = 0,  /* no growth known: nothing is projected */
	POLICY_GROWTH_EXP,
	POLICY_GROWTH_LINEAR
};

/* Where the growth came from. */
enum policy_growth_source {
	POLICY_SOURCE_NONE = 0,
	POLICY_SOURCE_GIVEN,     /* --growth */
	POLICY_SOURCE_HISTORY    /* history's fit of the commit count */
};

typedef struct {
	int kind;     /* enum policy_growth_kind */
	double rate;  /* EXP: r per year (continuous); LINEAR: s, today's count added per year */
	double t0;    /* unix seconds at which the factor is 1 (the counts were measured) */
} policy_growth;

/* f(t) (HUGE_VAL past what a double holds); 1 for POLICY_GROWTH_NONE. */
double policy_growth_factor(const policy_growth *g, double t);

/* The time at which f reaches `factor` (>= 1); HUGE_VAL: never (no growth). */
double policy_growth_time_of(const policy_growth *g, double factor);

/*
 * A count n grown by g to time t, rounded once to a whole count (the one
 * figure every output prints), never below n (IDs are not lost);
 * HUGE_VAL past what a double holds.
 */
double policy_grown_count(const policy_growth *g, double n, double t);

#endif
