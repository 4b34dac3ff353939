/*
 * check_model.c - unit tests of the birthday model, its option parser
 * and its emitters.
 *
 * The model is checked against closed forms computed here a second way
 * (pow() instead of ldexp, 1 - exp instead of expm1 where that is
 * exact enough), at n = 0, 1, 2, huge n and the seeds' 13,021,585; the
 * capacity by plugging it back in; and the expected colliding objects /
 * prefixes against an exhaustive count over every assignment of n IDs to
 * the 16^L prefixes of a small L.
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "cli.h"
#include "emit.h"
#include "emit_parts.h"
#include "model.h"

#define SEED_OBJECTS 13021585ULL

static void assert_rel(double got, double want, double tol, const char *what)
{
	double d = fabs(got - want), scale = fabs(want);

	ck_assert_msg(d <= tol * scale || (want == 0 && got == 0),
		      "%s: got %.17g, want %.17g (rel. error %.3g > %.3g)", what, got, want,
		      scale ? d / scale : d, tol);
}

/* ---- core: E and P against closed forms ---- */

/* One-sided Poisson tails against sums done in 50-digit decimals. */
START_TEST(test_poisson_tail)
{
	static const struct {
		uint64_t k;
		double mu;
		int upper;
		double want;
	} cases[] = {
		{ 93, 77.1, 1, 0.042873438460409404 },   /* the kernel's 10 chars */
		{ 6, 4.82, 1, 0.35248992254930137 },     /* and 11 */
		{ 0, 3, 1, 1 },
		{ 3, 10, 0, 0.010336050675925718 },
		{ 200, 120, 1, 1.637784144906891899e-11 }, /* far out: exact, not 0 */
		{ 1, 1e-5, 1, 9.9999500001666662e-06 },
		{ 0, 0, 1, 1 },
		{ 1, 0, 1, 0 },
		{ 5, 0, 0, 1 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		double got = model_poisson_tail(cases[i].k, cases[i].mu, cases[i].upper);

		ck_assert_msg(fabs(got - cases[i].want) <= 1e-12 * cases[i].want + 1e-300,
			      "P(X %s %llu | %g) = %.17g, want %.17g", cases[i].upper ? ">=" : "<=",
			      (unsigned long long)cases[i].k, cases[i].mu, got, cases[i].want);
	}
	/* the two sides of the same count add up to 1 + P(X = k) */
	for (uint64_t k = 0; k < 300; k += 7) {
		double up = model_poisson_tail(k, 150, 1), down = model_poisson_tail(k, 150, 0);
		double pk = exp(-150 + (double)k * log(150) - lgamma((double)k + 1));

		ck_assert_msg(fabs(up + down - 1 - pk) < 1e-12, "k %llu", (unsigned long long)k);
	}
}
END_TEST

/*
 * The central 99% of Poisson(mu): a few worked by hand (the pmf summed
 * from 0 in Python), and for many mu the definition checked with the
 * tails, which come from the regularised gamma function, not a sum.
 */
START_TEST(test_poisson_interval)
{
	static const struct {
		double mu;
		uint64_t lo, hi;
	} cases[] = {
		{ 0.3, 0, 2 }, { 2.77, 0, 8 }, { 77.1, 55, 101 }, { 1234, 1144, 1325 }, { 0, 0, 0 },
	};
	uint64_t lo, hi;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		model_poisson_interval(cases[i].mu, 0.005, &lo, &hi);
		ck_assert_msg(lo == cases[i].lo && hi == cases[i].hi, "mu %g: %llu..%llu, want %llu..%llu",
			      cases[i].mu, (unsigned long long)lo, (unsigned long long)hi,
			      (unsigned long long)cases[i].lo, (unsigned long long)cases[i].hi);
	}
	for (double mu = 0.01; mu < 2e6; mu *= 1.37) {
		model_poisson_interval(mu, 0.005, &lo, &hi);
		/* lo: the least k with P(X <= k) > q; hi: the least with P(X <= k) >= 1 - q */
		ck_assert_msg(model_poisson_tail(lo, mu, 0) > 0.005 &&
			      (lo == 0 || model_poisson_tail(lo - 1, mu, 0) <= 0.005), "mu %g lo %llu",
			      mu, (unsigned long long)lo);
		ck_assert_msg(model_poisson_tail(hi, mu, 0) >= 0.995 - 1e-12 &&
			      (hi == 0 || model_poisson_tail(hi - 1, mu, 0) < 0.995 + 1e-12),
			      "mu %g hi %llu", mu, (unsigned long long)hi);
	}
}
END_TEST

START_TEST(test_pairs_closed_form)
{
	static const uint64_t ns[] = { 2, 3, 10, 1000, 65536, SEED_OBJECTS, 1000000000ULL,
				       1000000000000ULL };
	static const unsigned Ls[] = { 4, 7, 10, 12, 16, 20, 40, 64 };
	char what[96];

	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		for (size_t j = 0; j < sizeof(Ls) / sizeof(Ls[0]); j++) {
			double n = (double)ns[i];
			double want = n * (n - 1) / 2 / pow(16.0, Ls[j]);

			snprintf(what, sizeof(what), "E(n=%llu, L=%u)",
				 (unsigned long long)ns[i], Ls[j]);
			assert_rel(model_expected_pairs(ns[i], Ls[j]), want, 1e-13, what);
			/* where 1 - exp(-E) still has digits, it must agree */
			if (want > 1e-3) {
				snprintf(what, sizeof(what), "P(n=%llu, L=%u)",
					 (unsigned long long)ns[i], Ls[j]);
				assert_rel(model_p_collision(ns[i], Ls[j]), 1 - exp(-want), 1e-12,
					   what);
			}
		}
	}
}
END_TEST

START_TEST(test_n_below_two)
{
	for (unsigned L = 1; L <= MODEL_MAX_LEN; L++) {
		for (uint64_t n = 0; n < 2; n++) {
			ck_assert(model_expected_pairs(n, L) == 0.0);
			ck_assert(model_p_collision(n, L) == 0.0);
			ck_assert(model_expected_objects(n, L) == 0.0);
			ck_assert(model_expected_prefixes(n, L) == 0.0);
		}
	}
}
END_TEST

START_TEST(test_n_two)
{
	/* one pair: E = 1/16^L exactly, and P = E to double precision */
	for (unsigned L = 1; L <= MODEL_MAX_LEN; L++) {
		double q = ldexp(1.0, -4 * (int)L);

		ck_assert_msg(model_expected_pairs(2, L) == q, "E(2, %u)", L);
		assert_rel(model_p_collision(2, L), -expm1(-q), 1e-14, "P(2, L) = 1 - exp(-16^-L)");
		if (L >= 13) /* P = q - q^2/2 + ...: from here q^2 is below double's digits */
			assert_rel(model_p_collision(2, L), q, 1e-14, "P(2, L) = 16^-L");
		/* two IDs: one shared prefix and two colliding IDs with probability q */
		assert_rel(model_expected_prefixes(2, L), q, 1e-14, "prefixes(2, L)");
		assert_rel(model_expected_objects(2, L), 2 * q, 1e-14, "objects(2, L)");
	}
	/* tiny P stays exact: 1 - exp(-E) would give 0 here */
	ck_assert(model_p_collision(2, 40) > 0);
	assert_rel(model_p_collision(2, 40), ldexp(1.0, -160), 1e-14, "P(2, 40)");
	assert_rel(model_p_collision(3, 64), 3 * ldexp(1.0, -256), 1e-14, "P(3, 64)");
}
END_TEST

START_TEST(test_huge_n)
{
	double n = (double)UINT64_MAX;

	/* certainly colliding at short lengths */
	ck_assert(model_p_collision(UINT64_MAX, 4) == 1.0);
	ck_assert(model_p_collision(UINT64_MAX, 16) == 1.0);
	ck_assert(isfinite(model_expected_pairs(UINT64_MAX, 4)));
	assert_rel(model_expected_pairs(UINT64_MAX, 4), n * n / 2 / 65536, 1e-13, "E(max, 4)");
	/* and still exact far out: (2^64)^2 / 2 / 2^256 = 2^-129 */
	assert_rel(model_expected_pairs(UINT64_MAX, 64), ldexp(1.0, -129), 1e-13, "E(max, 64)");
	assert_rel(model_p_collision(UINT64_MAX, 64), ldexp(1.0, -129), 1e-13, "P(max, 64)");
	/* a trillion IDs at 20 chars: E = 1e24 / 2 / 2^80 */
	assert_rel(model_expected_pairs(1000000000000ULL, 20),
		   (1e12 * (1e12 - 1)) / 2 / ldexp(1.0, 80), 1e-13, "E(1e12, 20)");
	/* every prefix taken, every ID colliding */
	assert_rel(model_expected_prefixes(UINT64_MAX, 4), 65536, 1e-14, "prefixes(max, 4)");
	assert_rel(model_expected_objects(UINT64_MAX, 4), n, 1e-14, "objects(max, 4)");
	assert_rel(model_expected_prefixes(SEED_OBJECTS, 4), 65536, 1e-12, "prefixes(seed, 4)");
	assert_rel(model_expected_objects(SEED_OBJECTS, 4), (double)SEED_OBJECTS, 1e-12,
		   "objects(seed, 4)");
}
END_TEST

START_TEST(test_seed_numbers)
{
	/* the kernel's 13,021,585 objects: about 77 pairs at 10, 4.8 at 11 */
	assert_rel(model_expected_pairs(SEED_OBJECTS, 10), 77, 0.02, "seed E(10)");
	assert_rel(model_expected_pairs(SEED_OBJECTS, 11), 4.8, 0.02, "seed E(11)");
	/* rare collisions: prefixes ~ pairs, objects ~ twice that */
	assert_rel(model_expected_prefixes(SEED_OBJECTS, 11), 4.8, 0.02, "seed prefixes(11)");
	assert_rel(model_expected_objects(SEED_OBJECTS, 11), 9.6, 0.02, "seed objects(11)");
	assert_rel(model_expected_prefixes(SEED_OBJECTS, 10), 77, 0.02, "seed prefixes(10)");
	/* 1/8 of them, the commits: no collision expected at 11, likely at 10 */
	ck_assert(model_p_collision(SEED_OBJECTS / 10, 11) < 0.05);
	ck_assert(model_p_collision(SEED_OBJECTS / 10, 10) > 0.5);
	ck_assert_uint_eq(model_min_length(SEED_OBJECTS, MODEL_P_HIGH), 12);
	ck_assert_uint_eq(model_min_length(SEED_OBJECTS, MODEL_P_LOW), 14);
}
END_TEST

START_TEST(test_monotone)
{
	static const uint64_t ns[] = { 2, 100, 65536, SEED_OBJECTS, 1000000000000ULL, UINT64_MAX };

	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		for (unsigned L = 1; L < MODEL_MAX_LEN; L++) {
			double p = model_p_collision(ns[i], L);

			ck_assert(p >= 0.0 && p <= 1.0);
			ck_assert(model_p_collision(ns[i], L + 1) <= p);
			ck_assert(model_expected_pairs(ns[i], L + 1) < model_expected_pairs(ns[i], L));
			/* each colliding prefix holds a pair; each pair two IDs at most */
			ck_assert(model_expected_prefixes(ns[i], L) <=
				  model_expected_pairs(ns[i], L) * (1 + 1e-12));
			ck_assert(model_expected_objects(ns[i], L) <=
				  2 * model_expected_pairs(ns[i], L) * (1 + 1e-12));
			if (i > 0)
				ck_assert(model_p_collision(ns[i - 1], L) <= p);
		}
	}
}
END_TEST

/* ---- capacity ---- */

START_TEST(test_capacity_known)
{
	uint64_t c;

	/* L = 4, p = 50%: T = ln 2 * 65536 = 45426.09; 301*300/2 = 45150 <= T < 302*301/2 */
	ck_assert_int_eq(model_capacity(&c, 4, 0.5), 0);
	ck_assert_uint_eq(c, 301);
	/* p = 1%: T = 658.65; 36*35/2 = 630 <= T < 37*36/2 = 666 */
	ck_assert_int_eq(model_capacity(&c, 4, 0.01), 0);
	ck_assert_uint_eq(c, 36);
	/* p = 0: only n <= 1 has P = 0 */
	ck_assert_int_eq(model_capacity(&c, 12, 0.0), 0);
	ck_assert_uint_eq(c, 1);
	/* near sqrt(2 ln 2 * 16^10) */
	ck_assert_int_eq(model_capacity(&c, 10, 0.5), 0);
	ck_assert(fabs((double)c - sqrt(2 * log(2.0) * pow(16, 10))) < 2);
}
END_TEST

START_TEST(test_capacity_plug_back)
{
	static const double ps[] = { MODEL_P_LOW, MODEL_P_HIGH, 1e-6, 0.9 };

	for (unsigned L = 4; L <= 20; L++) {
		for (size_t i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
			uint64_t c;

			ck_assert_int_eq(model_capacity(&c, L, ps[i]), 0);
			ck_assert_msg(model_p_collision(c, L) <= ps[i],
				      "P(cap=%llu, L=%u) = %.17g > %g", (unsigned long long)c, L,
				      model_p_collision(c, L), ps[i]);
			ck_assert_msg(model_p_collision(c + 1, L) > ps[i],
				      "P(cap+1=%llu, L=%u) = %.17g <= %g", (unsigned long long)c + 1,
				      L, model_p_collision(c + 1, L), ps[i]);
			/* the real root is within a step of the integer answer */
			ck_assert(fabs(model_capacity_real(L, ps[i]) - (double)c) < 1.0 + 1e-9 * c);
		}
	}
}
END_TEST

#ifdef __SIZEOF_INT128__
/* An independent exact check up to the 64-bit limit: c(c-1)/2 <= T < (c+1)c/2. */
START_TEST(test_capacity_exact_128)
{
	static const double ps[] = { MODEL_P_LOW, MODEL_P_HIGH };

	for (unsigned L = 4; L <= 31; L++) {
		for (size_t i = 0; i < 2; i++) {
			long double T = -log1pl(-(long double)ps[i]) * powl(16.0L, L);
			unsigned __int128 Tf = (unsigned __int128)floorl(T), lo, hi;
			uint64_t c;

			ck_assert_int_eq(model_capacity(&c, L, ps[i]), 0);
			lo = (unsigned __int128)c * (c - 1) / 2;
			hi = (unsigned __int128)c * (c + 1) / 2; /* (c+1)c/2 */
			ck_assert_msg(lo <= Tf && hi > Tf, "capacity(L=%u, p=%g) = %llu", L, ps[i],
				      (unsigned long long)c);
		}
	}
}
END_TEST
#endif

START_TEST(test_capacity_saturates)
{
	uint64_t c = 0;

	/* sqrt(2 ln 2) * 2^64 does not fit; sqrt(2 * 0.01005) * 2^64 does */
	ck_assert_int_eq(model_capacity(&c, 32, MODEL_P_HIGH), 1);
	ck_assert(c == UINT64_MAX);
	ck_assert_int_eq(model_capacity(&c, 32, MODEL_P_LOW), 0);
	ck_assert(c > UINT64_MAX / 8 && c < UINT64_MAX / 4);
	ck_assert_int_eq(model_capacity(&c, 64, MODEL_P_LOW), 1);
	ck_assert(c == UINT64_MAX);
	ck_assert_int_eq(model_capacity(&c, 10, 1.0), 1);
	assert_rel(model_capacity_real(32, MODEL_P_HIGH), sqrt(2 * log(2.0)) * ldexp(1.0, 64),
		   1e-12, "real capacity at 32");
	assert_rel(model_capacity_real(64, MODEL_P_HIGH), sqrt(2 * log(2.0)) * ldexp(1.0, 128),
		   1e-12, "real capacity at 64");
	/* monotone in L, saturated or not */
	for (unsigned L = 4; L < MODEL_MAX_LEN; L++)
		ck_assert(model_capacity_real(L + 1, 0.5) > model_capacity_real(L, 0.5));
}
END_TEST

/* ---- expected colliding objects / prefixes ---- */

/*
 * Average over all K^n assignments of n IDs to K prefixes of the number
 * of prefixes held by >= 2 IDs and of IDs in such prefixes.
 */
static void exhaustive(double *prefixes, double *objects, unsigned K, unsigned n)
{
	unsigned cur[8] = { 0 }, count[256] = { 0 };
	uint64_t total = 0, sum_p = 0, sum_o = 0;

	ck_assert(n <= 8 && K <= 256);
	for (;;) {
		for (unsigned i = 0; i < n; i++)
			count[cur[i]]++;
		for (unsigned i = 0; i < n; i++)
			if (count[cur[i]] >= 2)
				sum_o++;
		/* each shared prefix once: clear its count at its first ID */
		for (unsigned i = 0; i < n; i++) {
			if (count[cur[i]] >= 2)
				sum_p++;
			count[cur[i]] = 0;
		}
		total++;
		/* next assignment, counting in base K */
		unsigned i = 0;

		while (i < n && ++cur[i] == K)
			cur[i++] = 0;
		if (i == n)
			break;
	}
	*prefixes = (double)sum_p / (double)total;
	*objects = (double)sum_o / (double)total;
}

START_TEST(test_prefixes_exhaustive)
{
	static const struct { unsigned L, n; } cases[] = {
		{ 1, 0 }, { 1, 1 }, { 1, 2 }, { 1, 3 }, { 1, 4 }, { 1, 5 }, { 2, 2 }, { 2, 3 },
	};
	char what[64];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		double p, o;

		exhaustive(&p, &o, 1u << (4 * cases[i].L), cases[i].n);
		snprintf(what, sizeof(what), "prefixes(n=%u, L=%u)", cases[i].n, cases[i].L);
		assert_rel(model_expected_prefixes(cases[i].n, cases[i].L), p, 1e-13, what);
		snprintf(what, sizeof(what), "objects(n=%u, L=%u)", cases[i].n, cases[i].L);
		assert_rel(model_expected_objects(cases[i].n, cases[i].L), o, 1e-13, what);
	}
}
END_TEST

START_TEST(test_prefixes_closed_form)
{
	/*
	 * Where the direct formula has digits to spare (n q between 1e-3
	 * and 1e3), long double evaluates it well enough; on both sides of
	 * the switch to the series at n q = 1/100 the two must agree.
	 */
	static const unsigned Ls[] = { 4, 6, 8, 10 };

	for (size_t j = 0; j < sizeof(Ls) / sizeof(Ls[0]); j++) {
		long double K = powl(16.0L, Ls[j]), q = 1 / K;

		for (long double nq = 1e-3L; nq <= 1e3L; nq *= 1.37L) {
			uint64_t n = (uint64_t)(nq * K);
			long double a, want;

			if (n < 2)
				continue;
			a = powl(1 - q, (long double)(n - 1));
			want = K * (1 - a * (1 - q) - (long double)n * q * a);
			assert_rel(model_expected_prefixes(n, Ls[j]), (double)want, 1e-9,
				   "prefixes vs direct form");
			assert_rel(model_expected_objects(n, Ls[j]), (double)((long double)n * (1 - a)),
				   1e-9, "objects vs direct form");
		}
	}
}
END_TEST

START_TEST(test_prefixes_small)
{
	/* n q tiny: prefixes = E (1 - O(n q)), exact to double once n q < 1e-16 */
	for (unsigned L = 12; L <= MODEL_MAX_LEN; L += 4) {
		double E = model_expected_pairs(SEED_OBJECTS, L);
		double nq = (double)SEED_OBJECTS * ldexp(1.0, -4 * (int)L);

		ck_assert(model_expected_prefixes(SEED_OBJECTS, L) > 0);
		assert_rel(model_expected_prefixes(SEED_OBJECTS, L), E, 2 * nq + 1e-14,
			   "prefixes ~ E");
		assert_rel(model_expected_objects(SEED_OBJECTS, L), 2 * E, 2 * nq + 1e-14,
			   "objects ~ 2E");
	}
}
END_TEST

/* ---- results and band ---- */

START_TEST(test_results_and_band)
{
	model_input in[] = { { "all", SEED_OBJECTS }, { "commit", SEED_OBJECTS / 10 } };
	model_results r;
	unsigned from, to;

	ck_assert_int_eq(model_results_compute(&r, in, 1, 4, 40), 0);
	ck_assert_uint_eq(r.nsets, 1);
	ck_assert_uint_eq(r.from, 4);
	ck_assert_uint_eq(r.to, 40);
	ck_assert(r.sets[0].rows[10].expected_pairs == model_expected_pairs(SEED_OBJECTS, 10));
	ck_assert_uint_eq(r.sets[0].rows[12].cap_high, 19753662);
	model_useful_band(&from, &to, &r);
	/* 77 pairs at 10 (certain), 4.8 at 11; 1.1e-9 at 19, 7e-11 at 20 */
	ck_assert_uint_eq(from, 10);
	ck_assert_uint_eq(to, 20);
	model_results_clear(&r);

	ck_assert_int_eq(model_results_compute(&r, in, 2, 1, 99), 0);
	ck_assert_uint_eq(r.from, ABBREV_MIN_LEN);
	ck_assert_uint_eq(r.to, MODEL_MAX_LEN);
	model_useful_band(&from, &to, &r);
	ck_assert_uint_le(from, 10);
	ck_assert_uint_eq(to, 20);
	model_results_clear(&r);

	in[0].n = 1; /* nothing can collide: one row */
	ck_assert_int_eq(model_results_compute(&r, in, 1, 4, 40), 0);
	model_useful_band(&from, &to, &r);
	ck_assert_uint_eq(from, 4);
	ck_assert_uint_eq(to, 4);
	model_results_clear(&r);
}
END_TEST

/* ---- emitters, into memory ---- */

static char *buf;
static size_t bufsz;
static FILE *mem;

static void emit_setup(void)
{
	buf = NULL;
	bufsz = 0;
	mem = open_memstream(&buf, &bufsz);
	ck_assert(mem != NULL);
}

static void emit_teardown(void)
{
	if (mem)
		fclose(mem);
	free(buf);
	mem = NULL;
	buf = NULL;
}

/* Probabilities printed true at the precision shown. */
START_TEST(test_fmt_p)
{
	char pb[32];

	emit_fmt_p(pb, sizeof(pb), 0.9999955, 5);
	ck_assert_str_eq(pb, "> 0.99999");
	emit_fmt_p(pb, sizeof(pb), 0.9999955, 3);
	ck_assert_str_eq(pb, "> 0.999");
	emit_fmt_p(pb, sizeof(pb), 0.99994, 5);
	ck_assert_str_eq(pb, "0.99994");
	emit_fmt_p(pb, sizeof(pb), 1.0, 3);
	ck_assert_str_eq(pb, "1");
	emit_fmt_p(pb, sizeof(pb), 0.26, 3);
	ck_assert_str_eq(pb, "0.26");
	emit_fmt_p(pb, sizeof(pb), 4.6e-300, 2);
	ck_assert_str_eq(pb, "4.6e-300");
	/* a double that is 1 is "> 0.999" unless the collision is certain */
	emit_fmt_p_collision(pb, sizeof(pb), model_p_collision(13021585, 10), 13021585, 10, 3);
	ck_assert_str_eq(pb, "> 0.999");
	emit_fmt_p_collision(pb, sizeof(pb), 1.0, 65537, 4, 3);
	ck_assert_str_eq(pb, "1");
	emit_fmt_p_collision(pb, sizeof(pb), 1.0, 65536, 4, 3);
	ck_assert_str_eq(pb, "> 0.999");
	emit_fmt_p_collision(pb, sizeof(pb), model_p_collision(13021585, 12), 13021585, 12, 3);
	ck_assert_str_eq(pb, "0.26");
}
END_TEST

START_TEST(test_emit_text)
{
	model_input in[] = { { "all", SEED_OBJECTS } };
	model_results r;

	ck_assert_int_eq(model_results_compute(&r, in, 1, 4, 40), 0);
	model_useful_band(&r.from, &r.to, &r);
	ck_assert_int_eq(emit_model(mem, &r, ABBREV_FORMAT_TEXT), 0);
	fflush(mem);
	ck_assert_msg(strstr(buf, "all objects: 13,021,585\n") != NULL, "%s", buf);
	ck_assert_msg(strstr(buf, "\n 10            77.1       > 0.999") != NULL, "%s", buf);
	ck_assert_msg(strstr(buf, "\n 20 ") != NULL, "%s", buf);
	ck_assert_msg(strstr(buf, "\n  9 ") == NULL && strstr(buf, "\n 21 ") == NULL, "%s", buf);
	ck_assert_msg(strstr(buf, "1,234,604") != NULL, "%s", buf); /* capacity 50% at 10 */
	ck_assert_msg(strstr(buf, "P(collision) <= 50% from 12 chars, <= 1% from 14 chars") != NULL,
		      "%s", buf);
	model_results_clear(&r);
}
END_TEST

START_TEST(test_emit_json_shape)
{
	model_input in[] = { { "all", SEED_OBJECTS }, { "commit", 1302158 } };
	model_results r;

	ck_assert_int_eq(model_results_compute(&r, in, 1, 12, 12), 0);
	ck_assert_int_eq(emit_model(mem, &r, ABBREV_FORMAT_JSON), 0);
	fflush(mem);
	ck_assert_msg(!strncmp(buf, "{\n  \"schema_version\": 2,\n  \"objects\": 13021585,\n"
				    "  \"lengths\": {\n    \"12\": {\n      \"expected_pairs\": 0.30", 103),
		      "%s", buf);
	ck_assert_msg(strstr(buf, "\"capacity\": {\n    \"12\": {\n      \"p01\": 2378621,\n"
				  "      \"p50\": 19753662\n") != NULL, "%s", buf);
	model_results_clear(&r);

	/* two sets: {"schema_version": 2, "sets": {"all": ..., "commit": ...}} */
	emit_teardown();
	emit_setup();
	ck_assert_int_eq(model_results_compute(&r, in, 2, 12, 12), 0);
	ck_assert_int_eq(emit_model(mem, &r, ABBREV_FORMAT_JSON), 0);
	fflush(mem);
	ck_assert_msg(!strncmp(buf, "{\n  \"schema_version\": 2,\n  \"sets\": {\n    \"all\": {\n"
				    "      \"objects\": 13021585,", 76),
		      "%s", buf);
	ck_assert_msg(strstr(buf, "\"commit\": {\n      \"objects\": 1302158,") != NULL, "%s", buf);
	/* a format model has no emitter for */
	ck_assert_int_eq(emit_model(mem, &r, 99), -1);
	model_results_clear(&r);
}
END_TEST

/* ---- errors: the option parser ---- */

/* Split a copy of `line` at spaces into argv; the strings live in `store`. */
static int split(char **argv, char *store, size_t storesz, const char *line)
{
	int argc = 0;

	snprintf(store, storesz, "%s", line);
	for (char *tok = strtok(store, " "); tok; tok = strtok(NULL, " "))
		argv[argc++] = tok;
	argv[argc] = NULL;
	return argc;
}

static int parse(cli_model_opts *o, char *err, const char *line)
{
	static char store[512];
	static char *argv[32];
	int argc = split(argv, store, sizeof(store), line);

	err[0] = '\0';
	return cli_parse_model(o, argc, argv, err, 256);
}

START_TEST(test_cli_ok)
{
	cli_model_opts o;
	char err[256];

	ck_assert_int_eq(parse(&o, err, "--objects=13021585"), CLI_OK);
	ck_assert(o.have_objects && !o.have_commits);
	ck_assert(o.objects == 13021585);
	ck_assert_uint_eq(o.from, 0);
	ck_assert_int_eq(o.format, ABBREV_FORMAT_TEXT);

	ck_assert_int_eq(parse(&o, err, "--objects 100 --commits 12 --format json --from=10 --to 16"),
			 CLI_OK);
	ck_assert(o.objects == 100 && o.commits == 12 && o.have_commits);
	ck_assert_int_eq(o.format, ABBREV_FORMAT_JSON);
	ck_assert_uint_eq(o.from, 10);
	ck_assert_uint_eq(o.to, 16);

	ck_assert_int_eq(parse(&o, err, "--objects=0"), CLI_OK);
	ck_assert(o.objects == 0 && o.have_objects);
	ck_assert_int_eq(parse(&o, err, "--objects=18446744073709551615"), CLI_OK);
	ck_assert(o.objects == UINT64_MAX);
	ck_assert_int_eq(parse(&o, err, "--commits=5"), CLI_OK);
	ck_assert(!o.have_objects && o.have_commits);
	ck_assert_int_eq(parse(&o, err, "--objects=5 --help"), CLI_HELP);
	ck_assert_int_eq(parse(&o, err, "--objects=5 repo"), CLI_OK);
	ck_assert_uint_eq(o.nrepos, 1);
	ck_assert_str_eq(o.repos[0], "repo");
}
END_TEST

START_TEST(test_cli_usage)
{
	static const char *const bad[] = {
		"--objects=abc", "--objects=-5", "--objects=", "--objects", "--objects=+5",
		"--objects=1e6", "--objects=12x", "--objects=0x10",
		"--objects=18446744073709551616", "--objects=99999999999999999999999",
		"--commits=-1", "--objects=10 --commits=11",
		"--objects=10 --from=3", "--objects=10 --to=65", "--objects=10 --from=20 --to=10",
		"--objects=10 --from=x", "--objects=10 --format=xml", "--objects=10 --format",
		"--objects=10 --bogus",
	};
	cli_model_opts o;
	char err[256];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_msg(parse(&o, err, bad[i]) == CLI_USAGE, "'%s' was accepted", bad[i]);
		ck_assert_msg(err[0] != '\0', "'%s': no message", bad[i]);
		ck_assert_msg(!strchr(err, '\n'), "'%s': message is not one line", bad[i]);
	}
}
END_TEST

Suite *make_model_suite(void)
{
	Suite *s = suite_create("model");
	TCase *tc;

	tc = tcase_create("core");
	tcase_add_test(tc, test_poisson_tail);
	tcase_add_test(tc, test_poisson_interval);
	tcase_add_test(tc, test_fmt_p);
	tcase_add_test(tc, test_pairs_closed_form);
	tcase_add_test(tc, test_n_below_two);
	tcase_add_test(tc, test_n_two);
	tcase_add_test(tc, test_huge_n);
	tcase_add_test(tc, test_seed_numbers);
	tcase_add_test(tc, test_monotone);
	suite_add_tcase(s, tc);

	tc = tcase_create("capacity");
	tcase_add_test(tc, test_capacity_known);
	tcase_add_test(tc, test_capacity_plug_back);
#ifdef __SIZEOF_INT128__
	tcase_add_test(tc, test_capacity_exact_128);
#endif
	tcase_add_test(tc, test_capacity_saturates);
	suite_add_tcase(s, tc);

	tc = tcase_create("prefixes");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_prefixes_exhaustive);
	tcase_add_test(tc, test_prefixes_closed_form);
	tcase_add_test(tc, test_prefixes_small);
	suite_add_tcase(s, tc);

	tc = tcase_create("emit");
	tcase_add_checked_fixture(tc, emit_setup, emit_teardown);
	tcase_add_test(tc, test_results_and_band);
	tcase_add_test(tc, test_emit_text);
	tcase_add_test(tc, test_emit_json_shape);
	suite_add_tcase(s, tc);

	tc = tcase_create("errors");
	tcase_add_test(tc, test_cli_ok);
	tcase_add_test(tc, test_cli_usage);
	suite_add_tcase(s, tc);
	return s;
}
