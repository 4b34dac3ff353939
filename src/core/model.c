/*
 * model.c - the birthday model of abbreviated IDs.
 *
 * n random IDs, L hex chars, 16^L possible prefixes.  Each of the
 * n(n-1)/2 pairs shares its prefix with probability q = 16^-L, so
 * E = n(n-1)/2 * q pairs are expected to collide, and since the pairs
 * are nearly independent the number of colliding pairs is close to
 * Poisson(E): P(any) = 1 - exp(-E).  That is the rule git itself uses
 * for core.abbrev=auto (a collision becomes likely near sqrt(16^L) IDs).
 *
 * Where the math can lose digits it says so below; everything runs in
 * long double and is rounded to double only at the end.
 */
#include <config.h>

#include "model.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

/* n(n-1)/2 in long double: exact up to n = 2^32, 64-bit mantissa beyond. */
static long double pairs_ld(uint64_t n)
{
	if (n < 2)
		return 0.0L;
	return (long double)n * (long double)(n - 1) / 2.0L;
}

static long double expected_pairs_ld(uint64_t n, unsigned L)
{
	/* dividing by 16^L = 2^(4L) only moves the exponent: exact */
	return ldexpl(pairs_ld(n), -4 * (int)L);
}

double model_expected_pairs(uint64_t n, unsigned L)
{
	return (double)expected_pairs_ld(n, L);
}

double model_p_collision(uint64_t n, unsigned L)
{
	/* 1 - exp(-E) would round to 0 for E < 1e-17; -expm1(-E) keeps E */
	return (double)-expm1l(-expected_pairs_ld(n, L));
}

double model_expected_objects(uint64_t n, unsigned L)
{
	long double q = ldexpl(1.0L, -4 * (int)L);

	if (n < 2)
		return 0.0;
	/* (1-q)^(n-1) = exp((n-1) log1p(-q)); expm1 keeps the tiny case */
	return (double)((long double)n * -expm1l((long double)(n - 1) * log1pl(-q)));
}

/*
 * ln((1-q)^m (1 + m q)), which is <= 0 and about -m(m+1)q^2/2 when m q
 * is small.  Its two natural terms, m ln(1-q) and ln(1+mq), are each
 * about +-mq and cancel down to (mq)^2/2: at m q = 1e-10 that would
 * leave nothing.  So below m q = 1/100 use the series of the sum,
 *   sum over k >= 2 of ((-1)^(k+1) (mq)^k - m q^k) / k
 * (the k = 1 terms cancel exactly), and above it the direct form, which
 * then loses at most about two of long double's 19 digits.
 */
static long double log_no_pair(long double m, long double q)
{
	long double mq = m * q, s = 0.0L, mqk = mq, qk = q;

	if (mq >= 0.01L)
		return m * log1pl(-q) + log1pl(mq);
	for (int k = 2; k < 64; k++) {
		long double term;

		mqk *= mq;
		qk *= q;
		term = ((k % 2 ? mqk : -mqk) - m * qk) / k;
		s += term;
		/*
		 * Every later term is at most 2 (mq)^j / j, so the tail is
		 * below 2 (mq)^(k+1) / (1 - mq) < mqk / 40: stop when that is
		 * lost in s.  (Not on a small term: for m = 1 the odd ones are 0.)
		 */
		if (mqk <= fabsl(s) * LDBL_EPSILON)
			break;
	}
	return s;
}

double model_expected_prefixes(uint64_t n, unsigned L)
{
	long double q = ldexpl(1.0L, -4 * (int)L);
	long double m;

	if (n < 2)
		return 0.0;
	m = (long double)(n - 1);
	/*
	 * A given prefix is held by none or one of the n IDs with
	 * probability (1-q)^n + n q (1-q)^(n-1) = (1-q)^(n-1) (1 + (n-1) q),
	 * so it is shared with probability 1 minus that, -expm1(log(...)).
	 */
	return (double)ldexpl(-expm1l(log_no_pair(m, q)), 4 * (int)L);
}

/* hi:lo = a * b, exactly, with 32-bit halves (no __int128 needed). */
static void mul64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
	uint64_t a0 = a & 0xffffffffu, a1 = a >> 32;
	uint64_t b0 = b & 0xffffffffu, b1 = b >> 32;
	uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
	uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);

	*lo = (mid << 32) | (p00 & 0xffffffffu);
	*hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

/* n(n-1)/2 <= thi:tlo, exactly. */
static int pairs_le(uint64_t n, uint64_t thi, uint64_t tlo)
{
	uint64_t hi, lo;

	if (n < 2)
		return 1;
	mul64(n, n - 1, &hi, &lo);
	lo = (lo >> 1) | (hi << 63); /* n(n-1) is even: the halving is exact */
	hi >>= 1;
	return hi < thi || (hi == thi && lo <= tlo);
}

/* -ln(1-p) * 16^L: the pair count whose Poisson tail is exactly p. */
static long double threshold(unsigned L, double p)
{
	return ldexpl(-log1pl(-(long double)p), 4 * (int)L);
}

double model_capacity_real(unsigned L, double p)
{
	if (p >= 1.0)
		return HUGE_VAL;
	if (p <= 0.0)
		return 1.0;
	return (double)((1.0L + sqrtl(1.0L + 8.0L * threshold(L, p))) / 2.0L);
}

int model_capacity(uint64_t *out, unsigned L, double p)
{
	const long double two64 = ldexpl(1.0L, 64);
	long double t, est;
	uint64_t thi, tlo, n;

	if (!(p >= 0.0)) { /* also NaN: no n has P <= p < 0 */
		*out = 0;
		return 0;
	}
	*out = UINT64_MAX;
	if (p >= 1.0)
		return 1;
	/*
	 * n(n-1)/2 <= T for an integer left side means <= floor(T); split
	 * floor(T) into two 64-bit halves (exact: the low half holds only
	 * bits the long double already has).  T >= 2^127 means n >= 2^64.
	 */
	t = floorl(threshold(L, p));
	if (t >= ldexpl(1.0L, 127))
		return 1;
	thi = (uint64_t)floorl(ldexpl(t, -64));
	tlo = (uint64_t)(t - ldexpl((long double)thi, 64));

	/* the root of n(n-1)/2 = T, within a step or two of the answer */
	est = floorl((1.0L + sqrtl(1.0L + 8.0L * t)) / 2.0L);
	n = est >= two64 ? UINT64_MAX : (uint64_t)est;
	while (n < UINT64_MAX && pairs_le(n + 1, thi, tlo))
		n++;
	if (n == UINT64_MAX && pairs_le(n, thi, tlo))
		return 1;
	while (!pairs_le(n, thi, tlo)) /* stops at n = 1 at the latest */
		n--;
	*out = n;
	return 0;
}

unsigned model_min_length(uint64_t n, double p)
{
	for (unsigned L = ABBREV_MIN_LEN; L <= MODEL_MAX_LEN; L++)
		if (model_p_collision(n, L) <= p)
			return L;
	return MODEL_MAX_LEN + 1;
}

void model_expect_at(model_expect *e, uint64_t n, unsigned L)
{
	e->expected_pairs = model_expected_pairs(n, L);
	e->p_collision = model_p_collision(n, L);
	e->expected_objects = model_expected_objects(n, L);
	e->expected_prefixes = model_expected_prefixes(n, L);
}

unsigned model_git_auto_abbrev(uint64_t count)
{
	/*
	 * git (object-name.c): with about 2^b objects a collision is expected
	 * near 2^(b/2) of them, so it takes b = msb(count) + 1 bits, halves
	 * them and rounds up to whole hex chars (4 bits each, hence
	 * DIV_ROUND_UP(b, 2) chars), never going below its default of 7.
	 */
	unsigned bits = 0, len;

	while (bits < 8 * sizeof(count) && count >> bits)
		bits++;
	/* bits == msb(count) + 1 for count > 0 */
	len = (bits + 1) / 2;
	return len < 7 ? 7 : len;
}

uint64_t model_git_auto_next(uint64_t count)
{
	/* (bits + 1) / 2 stays L while bits <= 2L: bits is 2L + 1 from 2^(2L) */
	unsigned L = model_git_auto_abbrev(count);

	return 2 * L < 64 ? (uint64_t)1 << (2 * L) : 0;
}

static void fill_row(model_row *row, uint64_t n, unsigned L)
{
	row->expected_pairs = model_expected_pairs(n, L);
	row->p_collision = model_p_collision(n, L);
	row->expected_objects = model_expected_objects(n, L);
	row->expected_prefixes = model_expected_prefixes(n, L);
	row->cap_low_sat = model_capacity(&row->cap_low, L, MODEL_P_LOW);
	row->cap_high_sat = model_capacity(&row->cap_high, L, MODEL_P_HIGH);
	row->cap_low_real = model_capacity_real(L, MODEL_P_LOW);
	row->cap_high_real = model_capacity_real(L, MODEL_P_HIGH);
}

int model_results_compute(model_results *r, const model_input *in, size_t nin,
			  unsigned from, unsigned to)
{
	r->nsets = 0;
	r->sets = NULL;
	r->title = NULL;
	if (from < ABBREV_MIN_LEN)
		from = ABBREV_MIN_LEN;
	if (to > MODEL_MAX_LEN)
		to = MODEL_MAX_LEN;
	if (to < from)
		to = from;
	r->from = from;
	r->to = to;
	if (!nin)
		return 0;
	r->sets = calloc(nin, sizeof(*r->sets));
	if (!r->sets)
		return -1;
	r->nsets = nin;
	for (size_t i = 0; i < nin; i++) {
		r->sets[i].name = in[i].name;
		r->sets[i].n = in[i].n;
		for (unsigned L = ABBREV_MIN_LEN; L <= MODEL_MAX_LEN; L++)
			fill_row(&r->sets[i].rows[L], in[i].n, L);
		r->sets[i].min_len_low = model_min_length(in[i].n, MODEL_P_LOW);
		r->sets[i].min_len_high = model_min_length(in[i].n, MODEL_P_HIGH);
		r->sets[i].git_auto_abbrev = model_git_auto_abbrev(in[i].n);
	}
	return 0;
}

void model_results_clear(model_results *r)
{
	free(r->sets);
	r->sets = NULL;
	r->nsets = 0;
}

void model_useful_band(unsigned *from, unsigned *to, const model_results *r)
{
	unsigned lo = MODEL_MAX_LEN, hi = ABBREV_MIN_LEN;

	for (size_t i = 0; i < r->nsets; i++) {
		uint64_t n = r->sets[i].n;
		unsigned L = ABBREV_MIN_LEN;

		/* the last length where a collision is all but certain ... */
		while (L < MODEL_MAX_LEN && model_expected_pairs(n, L) >= 20.0)
			L++;
		if (L > ABBREV_MIN_LEN)
			L--;
		if (L < lo)
			lo = L;
		/* ... to the first where it is below one in a billion */
		while (L < MODEL_MAX_LEN && model_p_collision(n, L) >= 1e-9)
			L++;
		if (L > hi)
			hi = L;
	}
	if (!r->nsets)
		lo = hi = ABBREV_MIN_LEN;
	*from = lo;
	*to = hi < lo ? lo : hi;
}

/*
 * The regularized incomplete gamma functions P(a, x) (series, for x < a + 1)
 * and Q(a, x) = 1 - P (Lentz's continued fraction, for x >= a + 1), as in
 * Numerical Recipes: each is computed on the side where it converges fast
 * and keeps its small values exact.  For a count k, P(X >= k) = P(k, mu)
 * and P(X <= k) = Q(k + 1, mu).
 */
static long double gamma_p_series(long double a, long double x)
{
	long double sum = 1 / a, term = sum, ap = a;

	for (int n = 0; n < 100000; n++) {
		ap += 1;
		term *= x / ap;
		sum += term;
		if (fabsl(term) < fabsl(sum) * 1e-18L)
			break;
	}
	return sum * expl(-x + a * logl(x) - lgammal(a));
}

static long double gamma_q_fraction(long double a, long double x)
{
	const long double tiny = 1e-4000L;
	long double b = x + 1 - a, c = 1 / tiny, d = 1 / b, h = d;

	for (int i = 1; i < 100000; i++) {
		long double an = -i * (i - a), del;

		b += 2;
		d = an * d + b;
		if (fabsl(d) < tiny)
			d = tiny;
		c = b + an / c;
		if (fabsl(c) < tiny)
			c = tiny;
		d = 1 / d;
		del = d * c;
		h *= del;
		if (fabsl(del - 1) < 1e-18L)
			break;
	}
	return expl(-x + a * logl(x) - lgammal(a)) * h;
}

/* P(a, x) if lower, else Q(a, x); a > 0, x > 0. */
static long double gamma_reg(long double a, long double x, int lower)
{
	if (x < a + 1) {
		long double p = gamma_p_series(a, x);

		return lower ? p : 1 - p;
	}
	long double q = gamma_q_fraction(a, x);
	return lower ? 1 - q : q;
}

double model_poisson_tail(uint64_t k, double mu, int upper)
{
	long double p;

	if (!(mu > 0))
		return upper ? (k == 0 ? 1.0 : 0.0) : 1.0;
	if (upper)
		p = k == 0 ? 1 : gamma_reg((long double)k, mu, 1);
	else
		p = gamma_reg((long double)k + 1, mu, 0);
	if (p < 0)
		p = 0;
	if (p > 1)
		p = 1;
	return (double)p;
}

void model_poisson_interval(double mu, double q, uint64_t *lo, uint64_t *hi)
{
	long double c = 0, k0;
	uint64_t k;
	int have_lo = 0;

	*lo = *hi = 0;
	if (!(mu > 0) || !(q > 0 && q < 0.5))
		return;
	/* below mu - 12 sd (and up to 9 past it) the mass is under 1e-30: start there */
	k0 = floorl((long double)mu - 12 * sqrtl((long double)mu) - 10);
	if (k0 < 0)
		k0 = 0;
	if (!(k0 < 1.8e19L))
		return; /* past 64 bits: no count is that large */
	k = (uint64_t)k0;
	for (;; k++) {
		long double pmf = expl((long double)k * logl((long double)mu) - (long double)mu -
				       lgammal((long double)k + 1));

		c += pmf;
		if (!have_lo && c > (long double)q) {
			*lo = k;
			have_lo = 1;
		}
		if (c >= 1 - (long double)q) {
			*hi = k;
			return;
		}
	}
}
