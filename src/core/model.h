/*
 * model.h - the birthday model: what n random IDs would do at L hex chars.
 *
 * Pure math on counts: no libgit2, no I/O.  A real repository can be put
 * beside these numbers to see whether its IDs behave like random ones
 * (they should: they are hashes).  All functions take n as an exact count
 * and L as a number of hex chars: any L from 1 to MODEL_MAX_LEN works
 * (the unit tests check small L exhaustively); the tables run from
 * ABBREV_MIN_LEN.
 *
 * Precision: internally long double (64-bit mantissa on x86-64), and
 * 16^L = 2^(4L) is applied with ldexp, which is exact, so E and P carry
 * about 19 significant digits before they are rounded to double; tiny
 * probabilities stay exact because P is -expm1(-E), not 1 - exp(-E).
 *
 * Ownership: model_results_compute() allocates inside a caller-owned
 * struct; model_results_clear() frees it.  Set names are borrowed.
 */
#ifndef ABBREV_MODEL_H
#define ABBREV_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "hexid.h"

#define MODEL_MAX_LEN ABBREV_MAX_HEXSZ /* 64: a SHA-256 ID */

/* Expected colliding pairs among n random IDs at L chars: n(n-1)/2 / 16^L. */
double model_expected_pairs(uint64_t n, unsigned L);

/*
 * P(at least one collision) = 1 - exp(-E), the Poisson form of the
 * birthday bound, computed as -expm1(-E).  0 for n < 2.
 */
double model_p_collision(uint64_t n, unsigned L);

/*
 * Expected number of L-char prefixes shared by two or more of n random
 * IDs (the "prefixes" half of "L: objects / prefixes"):
 * 16^L * (1 - (1-q)^n - n q (1-q)^(n-1)), q = 16^-L.  About E when
 * collisions are rare, 16^L when every prefix is taken.
 */
double model_expected_prefixes(uint64_t n, unsigned L);

/*
 * One-sided Poisson tail for a measured count k beside an expectation
 * mu > 0: P(X >= k) when `upper`, else P(X <= k), X ~ Poisson(mu).  How
 * surprising a measured number of colliding prefixes is for random IDs
 * (93 measured against 77.1 expected: P(X >= 93) = 0.043).  With mu 0,
 * X is 0: P(X >= k) is 1 for k = 0 and 0 above, P(X <= k) is 1.
 */
double model_poisson_tail(uint64_t k, double mu, int upper);

/*
 * The central interval of X ~ Poisson(mu) that leaves at most q in each
 * tail: *lo the least k with P(X <= k) > q, *hi the least k with
 * P(X <= k) >= 1 - q (q = 0.005: the central 99%).  mu <= 0: [0, 0].
 */
void model_poisson_interval(double mu, double q, uint64_t *lo, uint64_t *hi);

/*
 * Expected number of IDs that share their L-char prefix with another
 * (the "objects" half): n (1 - (1-q)^(n-1)).  About 2E when rare.
 */
double model_expected_objects(uint64_t n, unsigned L);

/*
 * The capacity of L at probability p (0 <= p < 1): the largest n with
 * P(n, L) <= p, i.e. with n(n-1)/2 <= -ln(1-p) * 16^L.  The threshold is
 * computed once in long double; the comparison with n(n-1)/2 is done in
 * exact 128-bit integer arithmetic, so *out is exactly the largest such
 * n for that threshold.  Returns 0, or 1 when the answer does not fit in
 * 64 bits (from about L = 32 on): then *out is UINT64_MAX and
 * model_capacity_real() gives the value.  p >= 1 saturates too.
 */
int model_capacity(uint64_t *out, unsigned L, double p);

/* The real root of n(n-1)/2 = -ln(1-p) * 16^L, for any L (HUGE_VAL for p >= 1). */
double model_capacity_real(unsigned L, double p);

/* The model's four numbers for n random IDs at one length. */
typedef struct {
	double expected_pairs;     /* model_expected_pairs() */
	double p_collision;        /* model_p_collision() */
	double expected_objects;   /* model_expected_objects() */
	double expected_prefixes;  /* model_expected_prefixes() */
} model_expect;

void model_expect_at(model_expect *e, uint64_t n, unsigned L);

/*
 * The abbreviation git picks with core.abbrev=auto for `count` objects:
 * log2(count) rounded up to bits, halved (a collision is expected near
 * sqrt(count)), in hex chars rounded up, and at least 7.
 */
unsigned model_git_auto_abbrev(uint64_t count);

/*
 * The object count from which git's automatic abbreviation is one char
 * longer than for `count` objects (2^(2 L) for L = model_git_auto_abbrev(
 * count)); 0 when no 64-bit count reaches it.
 */
uint64_t model_git_auto_next(uint64_t count);

/* The two probabilities the capacity is given for. */
#define MODEL_P_LOW 0.01
#define MODEL_P_HIGH 0.5

/* Everything the model command prints for one length of one set. */
typedef struct {
	double expected_pairs;
	double p_collision;
	double expected_objects;
	double expected_prefixes;
	uint64_t cap_low, cap_high;  /* capacity at MODEL_P_LOW / MODEL_P_HIGH */
	int cap_low_sat, cap_high_sat; /* 1: did not fit, see the _real values */
	double cap_low_real, cap_high_real;
} model_row;

typedef struct {
	const char *name;  /* "all", "commit", ...; borrowed */
	uint64_t n;
	model_row rows[MODEL_MAX_LEN + 1]; /* indexed by L, ABBREV_MIN_LEN .. MODEL_MAX_LEN */
	/* model_min_length(n, MODEL_P_LOW / MODEL_P_HIGH): MODEL_MAX_LEN + 1 for none */
	unsigned min_len_low, min_len_high;
	unsigned git_auto_abbrev;          /* model_git_auto_abbrev(n) */
} model_set;

/* One set to model: its name and its number of IDs. */
typedef struct {
	const char *name;
	uint64_t n;
} model_input;

typedef struct {
	unsigned from, to;  /* the lengths the emitters print */
	size_t nsets;
	model_set *sets;
	const char *title;  /* --title: the chart's title and Markdown heading (borrowed); NULL: its own */
} model_results;

/*
 * Fill r for each (name, n) of in[0..nin), every L from ABBREV_MIN_LEN to
 * MODEL_MAX_LEN; the emitters print from..to (clamped to that range).
 * Returns 0, or -1 when out of memory.
 */
int model_results_compute(model_results *r, const model_input *in, size_t nin,
			  unsigned from, unsigned to);
void model_results_clear(model_results *r);

/*
 * The band of lengths worth showing to a person: from the last length
 * where a collision is all but certain (E >= 20, P > 1 - 2e-9) to the
 * first where P < 1e-9, over all sets of r (at least one length).
 */
void model_useful_band(unsigned *from, unsigned *to, const model_results *r);

/* The shortest L with P(n, L) <= p (MODEL_MAX_LEN + 1 if none). */
unsigned model_min_length(uint64_t n, double p);

#endif
