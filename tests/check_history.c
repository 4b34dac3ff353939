/*
 * check_history.c - unit tests of the history replay, the growth
 * projection and their emitters.
 *
 * History: hand-made IDs and times with planted first collisions (ties,
 * an ID given twice, pairs past the 16 hex chars of a Judy key, short
 * IDs), then a brute-force replay written here (every new ID against
 * every earlier one) on generated IDs whose prefixes are shared at every
 * length.  Projection: synthetic commit dates that follow a known law
 * (exponential, then linear); the fitted growth must come back, and the
 * projected dates must match the closed forms.
 */
#include <check.h>
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "cli.h"
#include "emit.h"
#include "emit_parts.h"
#include "fmt.h"
#include "history.h"
#include "model.h"
#include "projection.h"

#define RAW 20
#define T0 1112911993 /* git's own test epoch */
#define YEAR PROJECTION_YEAR

static void assert_rel(double got, double want, double tol, const char *what)
{
	double d = fabs(got - want), scale = fabs(want);

	ck_assert_msg(d <= tol * scale || (want == 0 && got == 0),
		      "%s: got %.17g, want %.17g (rel. error %.3g > %.3g)", what, got, want,
		      scale ? d / scale : d, tol);
}

/* n hex IDs (zero-padded) into raw bytes of width rawsz */
static unsigned char *make_ids(const char *const *hex, size_t n, size_t rawsz)
{
	unsigned char *ids = malloc(n * rawsz);

	ck_assert_ptr_nonnull(ids);
	for (size_t i = 0; i < n; i++)
		test_id(ids + i * rawsz, rawsz, hex[i]);
	return ids;
}

static void assert_pair(const history_results *h, unsigned L, const char *older,
			const char *newer)
{
	char a[ABBREV_MAX_HEXSZ + 1], b[ABBREV_MAX_HEXSZ + 1];

	test_hex(a, h->first[L].pair[0], h->rawsz);
	test_hex(b, h->first[L].pair[1], h->rawsz);
	ck_assert_msg(!strncmp(a, older, strlen(older)) && !strncmp(b, newer, strlen(newer)),
		      "L=%u: pair %s %s, want %s %s", L, a, b, older, newer);
}

/* ---- history: planted collisions ---- */

START_TEST(test_history_planted)
{
	static const char *const hex[] = {
		"aaab1",     /* t+300: 3 with aaaa0 */
		"aaaa0",     /* t+100 */
		"bbbb1",     /* t+200 */
		"aaaa1",     /* t+400: 4 with aaaa0 */
		"bbbb17",    /* t+500: 5 with bbbb1 */
		"c1",        /* t+600 */
		"aaaa0f",    /* t+700: 5 with aaaa0(0): nothing new */
		"bbbb171",   /* t+800: 6 with bbbb17(0) */
	};
	static const int64_t t[] = { T0 + 300, T0 + 100, T0 + 200, T0 + 400, T0 + 500, T0 + 600,
				     T0 + 700, T0 + 800 };
	unsigned char *ids = make_ids(hex, 8, RAW);
	history_results h;

	ck_assert_int_eq(history_compute(&h, ids, t, 8, RAW), 0);
	ck_assert_uint_eq(h.commits, 8);
	ck_assert_uint_eq(h.longest, 6);
	for (unsigned L = 1; L <= 3; L++) {
		ck_assert_int_eq(h.first[L].time, T0 + 300);
		ck_assert_uint_eq(h.first[L].commits_then, 3);
		ck_assert_uint_eq(h.first[L].shared, 3);
		assert_pair(&h, L, "aaaa0", "aaab1");
		ck_assert_int_eq(h.first[L].pair_time[0], T0 + 100);
		ck_assert_int_eq(h.first[L].pair_time[1], T0 + 300);
	}
	ck_assert_int_eq(h.first[4].time, T0 + 400);
	ck_assert_uint_eq(h.first[4].commits_then, 4);
	assert_pair(&h, 4, "aaaa0", "aaaa1");
	ck_assert_int_eq(h.first[5].time, T0 + 500);
	ck_assert_uint_eq(h.first[5].commits_then, 5);
	assert_pair(&h, 5, "bbbb1", "bbbb17");
	ck_assert_int_eq(h.first[6].time, T0 + 800);
	ck_assert_uint_eq(h.first[6].commits_then, 8);
	assert_pair(&h, 6, "bbbb17", "bbbb171");
	/* times come back sorted */
	for (size_t i = 1; i < h.commits; i++)
		ck_assert(h.times[i - 1] <= h.times[i]);
	/* the model beside each length */
	for (unsigned L = 1; L <= 2 * RAW; L++) {
		assert_rel(h.model[L].expected_commits,
			   sqrt(M_PI / 2 * pow(16.0, L)) + 2.0 / 3.0, 1e-12, "expected");
		ck_assert(h.model[L].p == model_p_collision(
				L <= 6 ? h.first[L].commits_then : 8, L));
	}
	/* sqrt(pi/2 * 16) + 2/3 = 5.68: the 6th commit */
	ck_assert(h.model[1].expected_reached);
	ck_assert_int_eq(h.model[1].expected_time, T0 + 600);
	ck_assert(!h.model[2].expected_reached); /* 20.7 > 8 */
	history_results_clear(&h);
	free(ids);
}
END_TEST

/* A zone by commit: minutes east of UTC from the ID's first byte (hand-made, not a real zone table). */
static int zone_by_byte(void *arg, const unsigned char *id, int *tz)
{
	int *calls = arg;

	(*calls)++;
	*tz = ((int)id[0] - 128) * 5;
	return 0;
}

static int zone_fails(void *arg, const unsigned char *id, int *tz)
{
	(void)arg;
	(void)id;
	(void)tz;
	return -1;
}

START_TEST(test_history_zones)
{
	static const char *const hex[] = { "aaab1", "aaaa0", "bbbb1", "aaaa1", "bbbb17", "c1",
					    "aaaa0f", "bbbb171" };
	static const int64_t t[] = { T0 + 300, T0 + 100, T0 + 200, T0 + 400, T0 + 500, T0 + 600,
				     T0 + 700, T0 + 800 };
	unsigned char *ids = make_ids(hex, 8, RAW);
	history_results h;
	int calls = 0;

	ck_assert_int_eq(history_compute(&h, ids, t, 8, RAW), 0);
	/* no zone until asked: UTC */
	ck_assert_int_eq(h.first[4].pair_tz[1], 0);
	ck_assert_int_eq(history_set_zones(&h, zone_by_byte, &calls), 0);
	/* the oldest (aaaa0), the newest (bbbb171), 2 a pair of 6 lengths, 1 expected moment */
	ck_assert_int_eq(calls, 2 + 2 * 6 + 1);
	ck_assert_int_eq(h.first_tz, (0xaa - 128) * 5);
	ck_assert_int_eq(h.last_tz, (0xbb - 128) * 5);
	ck_assert_int_eq(h.first[5].pair_tz[0], (0xbb - 128) * 5); /* bbbb1 */
	ck_assert_int_eq(h.first[3].pair_tz[1], (0xaa - 128) * 5); /* aaab1 */
	/* the 6th commit in time order: c1 */
	ck_assert_int_eq(h.model[1].expected_time, T0 + 600);
	ck_assert_int_eq(h.model[1].expected_tz, (0xc1 - 128) * 5);
	ck_assert_int_eq(history_set_zones(&h, zone_fails, NULL), -1);
	history_results_clear(&h);
	free(ids);
}
END_TEST

START_TEST(test_history_ties_and_twice)
{
	/* same time: ID order decides which one is "later" */
	static const char *const hex[] = { "1234f", "12340", "1234f", "99" };
	static const int64_t t[] = { T0, T0, T0 - 50, T0 + 9 };
	unsigned char *ids = make_ids(hex, 4, RAW);
	history_results h;

	ck_assert_int_eq(history_compute(&h, ids, t, 4, RAW), 0);
	/* "1234f" twice: replayed once, at its earlier time, T0 - 50 */
	ck_assert_uint_eq(h.commits, 3);
	ck_assert_int_eq(h.first_time, T0 - 50);
	ck_assert_uint_eq(h.longest, 4);
	ck_assert_int_eq(h.first[4].time, T0);
	ck_assert_uint_eq(h.first[4].commits_then, 2);
	assert_pair(&h, 4, "1234f", "12340");
	history_results_clear(&h);

	/* the same IDs in another input order give the same answer */
	static const char *const hex2[] = { "99", "12340", "1234f", "1234f" };
	static const int64_t t2[] = { T0 + 9, T0, T0 - 50, T0 };
	free(ids);
	ids = make_ids(hex2, 4, RAW);
	ck_assert_int_eq(history_compute(&h, ids, t2, 4, RAW), 0);
	ck_assert_uint_eq(h.commits, 3);
	ck_assert_uint_eq(h.first[4].commits_then, 2);
	assert_pair(&h, 4, "1234f", "12340");
	history_results_clear(&h);

	/* ties in time and in a shared prefix: ID order breaks them */
	static const char *const hex3[] = { "ab2", "ab1", "ab3" };
	static const int64_t t3[] = { T0, T0, T0 };
	free(ids);
	ids = make_ids(hex3, 3, RAW);
	ck_assert_int_eq(history_compute(&h, ids, t3, 3, RAW), 0);
	ck_assert_uint_eq(h.first[2].commits_then, 2);
	assert_pair(&h, 2, "ab1", "ab2");
	history_results_clear(&h);
	free(ids);
}
END_TEST

START_TEST(test_history_past_judy_key)
{
	/* 16+ shared hex chars put IDs under one Judy key: still exact */
	static const char *const hex[] = {
		"0123456789abcdef00",    /* t0 */
		"0123456789abcdef1",     /* t1: 16 with the first */
		"0123456789abcdef0001",  /* t2: 19 with the first */
		"0123456789abcdef11",    /* t3: 17 with the second */
		"0123456789abcdef0001f", /* t4: 20 with the third */
		"0123456789abcdef0001f", /* t5: the same ID again: not a collision */
	};
	static const int64_t t[] = { 10, 20, 30, 40, 50, 60 };
	unsigned char *ids = make_ids(hex, 6, RAW);
	history_results h;

	ck_assert_int_eq(history_compute(&h, ids, t, 6, RAW), 0);
	ck_assert_uint_eq(h.commits, 5);
	ck_assert_uint_eq(h.longest, 20);
	ck_assert_int_eq(h.first[16].time, 20);
	ck_assert_int_eq(h.first[17].time, 30);
	ck_assert_int_eq(h.first[19].time, 30);
	assert_pair(&h, 19, "0123456789abcdef00", "0123456789abcdef0001");
	ck_assert_int_eq(h.first[20].time, 50);
	ck_assert_uint_eq(h.first[20].commits_then, 5);
	assert_pair(&h, 20, "0123456789abcdef0001", "0123456789abcdef0001f");
	history_results_clear(&h);
	free(ids);
}
END_TEST

START_TEST(test_history_short_ids)
{
	/* 2-byte IDs: the whole ID fits in a Judy key */
	static const char *const hex[] = { "a000", "a001", "a000", "b000" };
	static const int64_t t[] = { 1, 2, 3, 4 };
	unsigned char *ids = make_ids(hex, 4, 2);
	history_results h;

	ck_assert_int_eq(history_compute(&h, ids, t, 4, 2), 0);
	ck_assert_uint_eq(h.commits, 3);
	ck_assert_uint_eq(h.longest, 3);
	ck_assert_uint_eq(h.first[3].commits_then, 2);
	history_results_clear(&h);
	free(ids);
}
END_TEST

START_TEST(test_history_empty)
{
	unsigned char id[RAW] = { 0 };
	int64_t t = T0;
	history_results h;

	ck_assert_int_eq(history_compute(&h, id, &t, 0, RAW), 0);
	ck_assert_uint_eq(h.commits, 0);
	ck_assert_uint_eq(h.longest, 0);
	ck_assert(!h.model[4].expected_reached);
	ck_assert(h.model[4].p == 0);
	history_results_clear(&h);

	test_id(id, RAW, "abc");
	ck_assert_int_eq(history_compute(&h, id, &t, 1, RAW), 0);
	ck_assert_uint_eq(h.commits, 1);
	ck_assert_uint_eq(h.longest, 0);
	ck_assert_int_eq(h.first_time, T0);
	history_results_clear(&h);

	ck_assert_int_eq(history_compute(&h, id, &t, 1, 0), -1);
	ck_assert_int_eq(history_compute(&h, id, &t, 1, ABBREV_MAX_RAWSZ + 1), -1);
}
END_TEST

/* ---- history against a brute-force replay ---- */

typedef struct {
	int64_t t;
	size_t i;
	const unsigned char *id;
	size_t rawsz;
} ref_entry;

static int cmp_ref(const void *pa, const void *pb)
{
	const ref_entry *a = pa, *b = pb;

	if (a->t != b->t)
		return a->t < b->t ? -1 : 1;
	return memcmp(a->id, b->id, a->rawsz);
}

/* our own LCP in hex chars, nibble by nibble */
static unsigned ref_lcp(const unsigned char *a, const unsigned char *b, size_t rawsz)
{
	unsigned n = 0;

	while (n < 2 * rawsz && test_nibble(a, n) == test_nibble(b, n))
		n++;
	return n;
}

static void brute_force(size_t n, size_t rawsz, uint64_t seed)
{
	unsigned char *ids = malloc(n * rawsz), *is_new = malloc(n);
	int *types = malloc(n * sizeof(int));
	int64_t *t = malloc(n * sizeof(int64_t));
	ref_entry *e = malloc(n * sizeof(*e));
	uint64_t st = seed;
	history_results h;
	unsigned longest = 0;
	uint64_t k = 0;
	/* per L: time, count, pair */
	int64_t ft[ABBREV_MAX_HEXSZ + 1];
	uint64_t fk[ABBREV_MAX_HEXSZ + 1];
	unsigned fs[ABBREV_MAX_HEXSZ + 1];
	const unsigned char *fb[ABBREV_MAX_HEXSZ + 1];

	ck_assert(ids && is_new && types && t && e);
	test_gen_ids(ids, types, is_new, n, rawsz, seed);
	for (size_t i = 0; i < n; i++)
		t[i] = T0 + (int64_t)(test_rand(&st) % (n / 4 + 1)); /* many ties */
	for (size_t i = 0; i < n; i++)
		e[i] = (ref_entry){ t[i], i, ids + i * rawsz, rawsz };
	qsort(e, n, sizeof(*e), cmp_ref);
	for (size_t i = 0; i < n; i++) {
		unsigned best = 0;
		int dup = 0;

		for (size_t j = 0; j < i; j++) {
			unsigned l = ref_lcp(e[j].id, e[i].id, rawsz);

			if (l == 2 * rawsz)
				dup = 1;
			if (l > best)
				best = l;
		}
		if (dup)
			continue;
		k++;
		for (unsigned L = longest + 1; L <= best; L++) {
			ft[L] = e[i].t;
			fk[L] = k;
			fs[L] = best;
			fb[L] = e[i].id;
		}
		if (best > longest)
			longest = best;
	}

	ck_assert_int_eq(history_compute(&h, ids, t, n, rawsz), 0);
	ck_assert_uint_eq(h.commits, k);
	ck_assert_uint_eq(h.longest, longest);
	for (unsigned L = 1; L <= longest; L++) {
		ck_assert_msg(h.first[L].time == ft[L], "seed %llu L=%u: time %lld, want %lld",
			      (unsigned long long)seed, L, (long long)h.first[L].time,
			      (long long)ft[L]);
		ck_assert_uint_eq(h.first[L].commits_then, fk[L]);
		ck_assert(!memcmp(h.first[L].pair[1], fb[L], rawsz));
		/* the partner may be any earlier ID that shares as much */
		ck_assert_uint_eq(h.first[L].shared, fs[L]);
		ck_assert_uint_eq(ref_lcp(h.first[L].pair[0], fb[L], rawsz), fs[L]);
		ck_assert(h.first[L].pair_time[0] <= h.first[L].pair_time[1]);
	}
	history_results_clear(&h);
	free(ids);
	free(is_new);
	free(types);
	free(t);
	free(e);
}

START_TEST(test_history_brute_force)
{
	static const size_t widths[] = { 20, 32, 9, 3 };

	for (uint64_t seed = 1; seed <= 6; seed++)
		for (size_t w = 0; w < sizeof(widths) / sizeof(widths[0]); w++)
			brute_force(1500, widths[w], seed * 7919 + w);
}
END_TEST

/* ---- projection on synthetic dates ---- */

/* n commit times of a law: count(t) = f(t); times[i] = the time count reaches i+1 */
static int64_t *exp_times(size_t n, double rate, double n0)
{
	int64_t *t = malloc(n * sizeof(*t));

	ck_assert_ptr_nonnull(t);
	/* count(t) = n0 e^(rate (t - T0) / YEAR) */
	for (size_t i = 0; i < n; i++)
		t[i] = T0 + (int64_t)floor(YEAR * log((double)(i + 1) / n0) / rate);
	return t;
}

static int64_t *linear_times(size_t n, double per_year)
{
	int64_t *t = malloc(n * sizeof(*t));

	ck_assert_ptr_nonnull(t);
	for (size_t i = 0; i < n; i++)
		t[i] = T0 + (int64_t)floor(YEAR * (double)i / per_year);
	return t;
}

/* a zone for the k-th commit: -05:00 or +11:00, each another year's end than UTC's */
static int zone_of(size_t k)
{
	return k % 2 ? 660 : -300;
}

static int zone_of_index(void *arg, size_t k, int *tz)
{
	++*(size_t *)arg;
	*tz = zone_of(k);
	return 0;
}

START_TEST(test_projection_exponential)
{
	const size_t n = 200000;
	const double rate = 0.25; /* e^0.25 - 1 = +28%/year */
	int64_t *t = exp_times(n, rate, 100);
	projection_results p;
	projection_opts o;

	projection_opts_init(&o);
	ck_assert_int_eq(projection_compute(&p, t, n, 4 * n, &o), 0);
	ck_assert_int_eq(p.status, PROJECTION_OK);
	ck_assert_int_eq(p.fits[0].kind, PROJECTION_FIT_EXP);
	ck_assert_int_eq(p.fits[1].kind, PROJECTION_FIT_LINEAR);
	assert_rel(p.fits[0].growth, rate, 0.01, "fitted rate");
	ck_assert_msg(p.fits[0].rms_rel < 0.01, "exp error %g", p.fits[0].rms_rel);
	ck_assert_msg(p.fits[1].rms_rel > p.fits[0].rms_rel, "linear fits an exponential better");
	ck_assert_int_eq(p.chosen, 0);
	ck_assert_int_eq(p.window_end, t[n - 1]);
	assert_rel((double)(p.window_end - p.window_start), 5 * YEAR, 1e-9, "window");
	ck_assert_uint_eq(p.nsamples, PROJECTION_SAMPLES);
	assert_rel(p.objects_per_commit, 4, 1e-12, "ratio");

	for (unsigned L = PROJECTION_FROM; L <= PROJECTION_TO; L++) {
		const projection_when *w[2] = { &p.p01[L], &p.p50[L] };
		const double prob[2] = { MODEL_P_LOW, MODEL_P_HIGH };

		for (int k = 0; k < 2; k++) {
			uint64_t cap;
			double target;

			model_capacity(&cap, L, prob[k]);
			ck_assert(w[k]->capacity == cap);
			target = (double)cap + 1;
			if (target <= (double)n) {
				ck_assert(w[k]->commits_reached);
				ck_assert(w[k]->commits_time == (double)t[cap]);
			} else {
				ck_assert(!w[k]->commits_reached);
				/* the closed form, from the actual count at the window's end */
				assert_rel(w[k]->commits_time - (double)p.window_end,
					   YEAR * log(target / (double)n) / p.fits[0].growth, 1e-9,
					   "commits date");
			}
			if (target <= 4.0 * (double)n) {
				ck_assert(w[k]->objects_reached);
				ck_assert(w[k]->objects_time ==
					  (double)t[(size_t)ceil(target / 4) - 1]);
			} else {
				assert_rel(w[k]->objects_time - (double)p.window_end,
					   YEAR * log(target / 4 / (double)n) / p.fits[0].growth,
					   1e-9, "objects date");
			}
		}
	}
	/* the quote under the other fit (linear): from the actual count, at its slope */
	{
		uint64_t cap;

		model_capacity(&cap, PROJECTION_QUOTE_LEN, MODEL_P_HIGH);
		ck_assert(p.other_quote.capacity == cap);
		ck_assert(!p.other_quote.commits_reached);
		assert_rel(p.other_quote.commits_time - (double)p.window_end,
			   YEAR * ((double)cap + 1 - (double)n) / p.fits[1].growth, 1e-9,
			   "other fit");
		ck_assert(p.other_quote.commits_time > p.p50[PROJECTION_QUOTE_LEN].commits_time);
	}
	/* 10 chars at 1%: 148,000-odd commits, passed already */
	ck_assert(p.p01[10].commits_reached);
	ck_assert(!p.p50[12].commits_reached);
	/*
	 * a count reached is dated by a commit: its zone is asked for by its
	 * index among the times, for nothing else (a future date stays UTC)
	 */
	{
		size_t asked = 0;
		uint64_t cap;

		ck_assert_int_eq(projection_set_zones(&p, zone_of_index, &asked), 0);
		model_capacity(&cap, 10, MODEL_P_LOW);
		ck_assert_uint_eq(p.p01[10].commits_at, cap);
		ck_assert_int_eq(p.p01[10].commits_tz, zone_of(cap));
		ck_assert_uint_eq(p.p01[10].objects_at, (size_t)ceil(((double)cap + 1) / 4) - 1);
		ck_assert_int_eq(p.p01[10].objects_tz, zone_of(p.p01[10].objects_at));
		ck_assert_int_eq(p.p50[12].commits_tz, 0);
		ck_assert_uint_gt(asked, 0);
		for (unsigned L = PROJECTION_FROM; L <= PROJECTION_TO; L++)
			asked -= (size_t)(p.p01[L].commits_reached + p.p01[L].objects_reached +
					  p.p50[L].commits_reached + p.p50[L].objects_reached);
		ck_assert_uint_eq(asked, 0);
	}
	/* safe until the horizon */
	/* grown counts are rounded once, to the whole number printed */
	assert_rel(p.commits_at_horizon, round(n * exp(10 * p.fits[0].growth)), 1e-9,
		   "horizon count");
	ck_assert(p.commits_at_horizon == round(p.commits_at_horizon));
	ck_assert(p.objects_at_horizon == round(p.objects_at_horizon));
	ck_assert(fabs(p.objects_at_horizon - 4 * p.commits_at_horizon) <= 2);
	ck_assert_uint_eq(p.safe_commit_len, model_min_length((uint64_t)p.commits_at_horizon,
							      0.01));
	ck_assert_uint_eq(p.safe_all_len, model_min_length((uint64_t)p.objects_at_horizon,
							   0.01));
	ck_assert_uint_ge(p.safe_all_len, p.safe_commit_len);

	/* a shorter window sees the same law */
	o.window_years = 1;
	ck_assert_int_eq(projection_compute(&p, t, n, 4 * n, &o), 0);
	assert_rel(p.fits[0].growth, rate, 0.02, "fitted rate over 1 year");
	/* forced linear */
	o.fit = PROJECTION_FIT_LINEAR;
	ck_assert_int_eq(projection_compute(&p, t, n, 4 * n, &o), 0);
	ck_assert_int_eq(p.chosen, 1);
	free(t);
}
END_TEST

START_TEST(test_projection_linear)
{
	const size_t n = 60000;
	const double b = 5000; /* commits a year, for 12 years */
	int64_t *t = linear_times(n, b);
	projection_results p;
	projection_opts o;

	projection_opts_init(&o);
	ck_assert_int_eq(projection_compute(&p, t, n, 3 * n, &o), 0);
	ck_assert_int_eq(p.status, PROJECTION_OK);
	assert_rel(p.fits[1].growth, b, 0.01, "fitted slope");
	ck_assert_msg(p.fits[1].rms_rel < 0.005, "linear error %g", p.fits[1].rms_rel);
	ck_assert_int_eq(p.chosen, 1);
	/* 12 chars at 50%: 19,753,662 commits; (19753663 - n) / b years on */
	assert_rel(p.p50[12].commits_time - (double)p.window_end,
		   YEAR * (19753663.0 - (double)n) / p.fits[1].growth, 1e-9, "12 @ 50%");
	assert_rel(p.p50[12].objects_time - (double)p.window_end,
		   YEAR * (19753663.0 / 3 - (double)n) / p.fits[1].growth, 1e-9, "12 @ 50% all");
	/* the exponential of a linear law fits worse and grows about 1/6 a year here */
	ck_assert(p.fits[0].rms_rel > p.fits[1].rms_rel);
	free(t);
}
END_TEST

START_TEST(test_projection_edges)
{
	int64_t t[4] = { T0, T0, T0, T0 };
	projection_results p;
	projection_opts o;

	projection_opts_init(&o);
	ck_assert_int_eq(projection_compute(&p, t, 0, 0, &o), 0);
	ck_assert_int_eq(p.status, PROJECTION_TOO_FEW);
	ck_assert_int_eq(projection_compute(&p, t, 1, 3, &o), 0);
	ck_assert_int_eq(p.status, PROJECTION_TOO_FEW);
	/* all at one moment: no time to fit over */
	ck_assert_int_eq(projection_compute(&p, t, 4, 12, &o), 0);
	ck_assert_int_eq(p.status, PROJECTION_TOO_FEW);
	ck_assert_uint_eq(p.commits, 4);

	/*
	 * A cumulative count never falls; it is flat only when the window
	 * sees no commit: here the last two are dated after the clock.
	 */
	o.window_years = 1e-6; /* 31.5 s */
	o.now = T0;
	t[0] = T0 - 2 * (int64_t)YEAR; /* a history long enough to project */
	t[1] = T0 - 900;
	t[2] = T0 + 100;
	t[3] = T0 + 200;
	ck_assert_int_eq(projection_compute(&p, t, 4, 12, &o), 0);
	ck_assert_int_eq(p.status, PROJECTION_OK);
	ck_assert(p.fits[0].growth == 0 && p.fits[1].growth == 0);
	ck_assert(!isfinite(p.p50[12].commits_time));
	ck_assert(!isfinite(p.p50[12].objects_time));
	ck_assert_uint_eq(p.safe_commit_len, model_min_length(4, 0.01));

	/*
	 * Less than a year of history: no fit, the span kept for the reason
	 * (the clock cuts it: the future commit does not lengthen it)
	 */
	t[0] = T0 - 5 * 86400;
	t[1] = T0 - 4 * 86400;
	ck_assert_int_eq(projection_compute(&p, t, 4, 12, &o), 0);
	ck_assert_int_eq(p.status, PROJECTION_TOO_SHORT);
	ck_assert_int_eq(p.window_start, T0 - 5 * 86400);
	ck_assert_int_eq(p.window_end, T0);
	o.now = 0;
	t[3] = T0 + (int64_t)YEAR - 5 * 86400 - 1; /* a second short of a year */
	ck_assert_int_eq(projection_compute(&p, t, 4, 12, &o), 0);
	ck_assert_int_eq(p.status, PROJECTION_TOO_SHORT);
	t[3]++;
	ck_assert_int_eq(projection_compute(&p, t, 4, 12, &o), 0);
	ck_assert_int_eq(p.status, PROJECTION_OK);
	o.now = T0;

	/* commits dated in the future are cut to the clock */
	t[3] = T0 + 10 * (int64_t)YEAR;
	o.window_years = 5;
	o.now = T0;
	ck_assert_int_eq(projection_compute(&p, t, 4, 12, &o), 0);
	ck_assert_int_eq(p.window_end, T0);

	/* nonsense options */
	projection_opts_init(&o);
	o.window_years = 0;
	ck_assert_int_eq(projection_compute(&p, t, 4, 12, &o), -1);
	projection_opts_init(&o);
	o.target_p = 1;
	ck_assert_int_eq(projection_compute(&p, t, 4, 12, &o), -1);
	projection_opts_init(&o);
	o.horizon_years = -1;
	ck_assert_int_eq(projection_compute(&p, t, 4, 12, &o), -1);

	/* a steep law over a long horizon stays finite */
	int64_t *e = exp_times(1000, 5.0, 1);
	projection_opts_init(&o);
	o.horizon_years = 1000;
	ck_assert_int_eq(projection_compute(&p, e, 1000, 4000, &o), 0);
	ck_assert(isfinite(p.commits_at_horizon) && isfinite(p.objects_at_horizon));
	ck_assert_uint_eq(p.safe_all_len, MODEL_MAX_LEN + 1);
	free(e);
}
END_TEST

START_TEST(test_projection_year)
{
	/* 2000-01-01T00:00:00Z, 2000-07-02T00:00:00Z (day 183 of 366), 2024-12-31T12:00Z */
	assert_rel(projection_year(946684800.0), 2000.0, 1e-12, "2000");
	assert_rel(projection_year(946684800.0 + 182 * 86400.0), 2000.0 + 182.0 / 366, 1e-12,
		   "mid 2000");
	assert_rel(projection_year(0), 1970.0, 1e-12, "epoch");
	ck_assert(floor(projection_year(1735646400.0)) == 2024);
	/* past 9999: mean years */
	assert_rel(projection_year(1e13), 1970 + 1e13 / YEAR, 1e-12, "far");
	ck_assert(projection_year(253402300799.0) < 10000);
}
END_TEST

/* ---- emitters ---- */

static char *buf;
static size_t bufsz;
static FILE *mem;

static void emit_setup(void)
{
	mem = open_memstream(&buf, &bufsz);
	ck_assert_ptr_nonnull(mem);
}

static void emit_teardown(void)
{
	fclose(mem);
	free(buf);
	buf = NULL;
}

START_TEST(test_emit_json)
{
	static const char *const hex[] = { "aaaa0", "bbbb1", "aaab1", "aaaa1", "aaaa01" };
	/* the last a year and more later: a history long enough to project */
	static const int64_t t[] = { T0, T0 + 86400, T0 + 2 * 86400, T0 + 3 * 86400,
				     T0 + 400 * 86400 };
	static const char *const repos[] = { "/x/repo" };
	unsigned char *ids = make_ids(hex, 5, RAW);
	history_results h;
	projection_results p;
	projection_opts o;
	history_report r;
	json_t *root, *l;
	json_error_t je;

	ck_assert_int_eq(history_compute(&h, ids, t, 5, RAW), 0);
	projection_opts_init(&o);
	ck_assert_int_eq(projection_compute(&p, h.times, 5, 17, &o), 0);
	r = (history_report){ repos, 1, 0, 17, &h, &p, NULL, NULL };
	ck_assert_int_eq(emit_history(mem, &r, ABBREV_FORMAT_JSON), 0);
	fflush(mem);
	root = json_loads(buf, JSON_REJECT_DUPLICATES, &je);
	ck_assert_msg(root != NULL, "%s: %s", je.text, buf);
	ck_assert_int_eq(json_integer_value(json_object_get(root, "commits")), 5);
	ck_assert_int_eq(json_integer_value(json_object_get(root, "objects")), 17);
	ck_assert_str_eq(json_string_value(json_object_get(root, "hash")), "sha1");
	ck_assert_int_eq(json_integer_value(json_object_get(root, "unique_from")), 6);
	l = json_object_get(json_object_get(root, "lengths"), "4");
	ck_assert_ptr_nonnull(l);
	ck_assert_int_eq(json_integer_value(json_object_get(l, "first_collision")), T0 + 3 * 86400);
	ck_assert_int_eq(json_integer_value(json_object_get(l, "commits_then")), 4);
	ck_assert_str_eq(json_string_value(json_array_get(json_object_get(l, "pair"), 0)),
			 "aaaa000000000000000000000000000000000000");
	ck_assert_str_eq(json_string_value(json_array_get(json_object_get(l, "pair"), 1)),
			 "aaaa100000000000000000000000000000000000");
	ck_assert_str_eq(json_string_value(json_object_get(l, "date")), "2005-04-10T22:13:13Z");
	l = json_object_get(json_object_get(root, "lengths"), "5");
	ck_assert_int_eq(json_integer_value(json_object_get(l, "commits_then")), 5);
	ck_assert_ptr_null(json_object_get(json_object_get(root, "lengths"), "3"));
	ck_assert_ptr_null(json_object_get(json_object_get(root, "lengths"), "6"));
	l = json_object_get(json_object_get(root, "not_yet"), "6");
	ck_assert_ptr_nonnull(l);
	assert_rel(json_real_value(json_object_get(l, "p_now")), model_p_collision(5, 6), 1e-14,
		   "p_now");
	ck_assert_ptr_nonnull(json_object_get(json_object_get(root, "not_yet"), "16"));
	l = json_object_get(root, "projection");
	ck_assert(json_is_object(l));
	ck_assert_ptr_nonnull(json_object_get(json_object_get(l, "lengths"), "12"));
	ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(l, "quote")),
				     "12-char commit IDs"));
	json_decref(root);

	/* no projection: null */
	emit_teardown();
	emit_setup();
	r.p = NULL;
	ck_assert_int_eq(emit_history(mem, &r, ABBREV_FORMAT_JSON), 0);
	fflush(mem);
	root = json_loads(buf, 0, &je);
	ck_assert(json_is_null(json_object_get(root, "projection")));
	ck_assert(json_is_null(json_object_get(root, "no_projection")));
	json_decref(root);

	/* three days of history: no projection, and the reason */
	emit_teardown();
	emit_setup();
	ck_assert_int_eq(projection_compute(&p, h.times, 4, 17, &o), 0);
	ck_assert_int_eq(p.status, PROJECTION_TOO_SHORT);
	r.p = &p;
	ck_assert_int_eq(emit_history(mem, &r, ABBREV_FORMAT_JSON), 0);
	fflush(mem);
	root = json_loads(buf, 0, &je);
	ck_assert(json_is_null(json_object_get(root, "projection")));
	ck_assert_str_eq(json_string_value(json_object_get(root, "no_projection")),
			 "the history spans 3 days (2005-04-07 .. 2005-04-10), less than the "
			 "year a growth is projected from");
	json_decref(root);
	emit_teardown();
	emit_setup();
	ck_assert_int_eq(emit_history(mem, &r, ABBREV_FORMAT_TEXT), 0);
	fflush(mem);
	ck_assert_msg(strstr(buf, "\nno projection: the history spans 3 days (2005-04-07 .. "
			      "2005-04-10), less than\n  the year") != NULL, "%s", buf);
	ck_assert_msg(strstr(buf, "growth of the commit count") == NULL, "%s", buf);
	r.p = NULL;
	ck_assert_int_eq(emit_history(mem, &r, 99), -1);
	ck_assert(emit_format_supported(EMIT_HISTORY, ABBREV_FORMAT_TEXT));
	ck_assert(!emit_format_supported(EMIT_HISTORY, 99));
	history_results_clear(&h);
	free(ids);
}
END_TEST

START_TEST(test_emit_text)
{
	const size_t n = 2000;
	int64_t *t = linear_times(n, 400);
	unsigned char *ids = malloc(n * RAW);
	uint64_t st = 42;
	history_results h;
	projection_results p;
	projection_opts o;
	history_report r;
	char quote[512];

	for (size_t i = 0; i < n; i++)
		test_rand_id(ids + i * RAW, RAW, &st);
	ck_assert_int_eq(history_compute(&h, ids, t, n, RAW), 0);
	projection_opts_init(&o);
	ck_assert_int_eq(projection_compute(&p, h.times, n, 9 * n, &o), 0);
	r = (history_report){ NULL, 0, 0, 9 * n, &h, &p, NULL, NULL };
	ck_assert_int_eq(emit_history(mem, &r, ABBREV_FORMAT_TEXT), 0);
	fflush(mem);
	ck_assert_msg(!strncmp(buf, "2,000 commits (sha1), committed 2005-04-07 .. 2010-04-", 52),
		      "%s", buf);
	ck_assert_msg(strstr(buf, "\n  4  2005-") != NULL, "%s", buf);
	ck_assert_msg(strstr(buf, "not yet") != NULL, "%s", buf);
	ck_assert_msg(strstr(buf, "  <- used") != NULL, "%s", buf);
	emit_history_quote(quote, sizeof(quote), &r);
	ck_assert_msg(!strncmp(quote, "at the growth of the last 5 years (linear fit, +400 "
				      "commits/year), 12-char commit IDs reach a 50% chance of a "
				      "collision in ", 115), "%s", quote);
	/* the text wraps it at 80 columns: compare with the line breaks folded */
	{
		char *flat = malloc(strlen(buf) + 1);
		size_t k = 0;

		ck_assert_ptr_nonnull(flat);
		for (const char *c = buf; *c; c++) {
			if (*c == '\n' || *c == ' ') {
				if (k && flat[k - 1] != ' ')
					flat[k++] = ' ';
				continue;
			}
			flat[k++] = *c;
		}
		flat[k] = '\0';
		ck_assert_msg(strstr(flat, quote) != NULL, "no quote in %s", buf);
		free(flat);
	}
	ck_assert_msg(strstr(buf, "\nsafe until 2020 (P(collision) <= 1%") != NULL, "%s", buf);
	history_results_clear(&h);

	/* no commits */
	emit_teardown();
	emit_setup();
	ck_assert_int_eq(history_compute(&h, ids, t, 0, RAW), 0);
	r.p = NULL;
	ck_assert_int_eq(emit_history(mem, &r, ABBREV_FORMAT_TEXT), 0);
	fflush(mem);
	ck_assert_msg(strstr(buf, "fewer than two commits") != NULL, "%s", buf);
	history_results_clear(&h);
	free(ids);
	free(t);
}
END_TEST

/*
 * P(by then) follows the rule of every probability printed: true at the
 * precision shown.  1,000 commits with distinct 4-char prefixes, then one
 * that repeats one: P(collision at 4 among 1,001) = 0.99952, "1" at two
 * digits, so the cell says "> 0.99".
 */
START_TEST(test_emit_p_by_then)
{
	const size_t n = 1001;
	int64_t *t = linear_times(n, 400);
	unsigned char *ids = malloc(n * RAW);
	uint64_t st = 7;
	history_results h;
	emit_table tab;
	char want[32];

	for (size_t i = 0; i < n; i++) {
		test_rand_id(ids + i * RAW, RAW, &st);
		ids[i * RAW] = (unsigned char)((i % 1000) >> 8);
		ids[i * RAW + 1] = (unsigned char)(i % 1000);
	}
	ck_assert_int_eq(history_compute(&h, ids, t, n, RAW), 0);
	ck_assert_uint_eq(h.first[4].commits_then, n);
	ck_assert(h.model[4].p > 0.995 && h.model[4].p < 1);
	ck_assert_int_eq(emit_history_first_table(&tab, &h, 0), 0);
	ck_assert_str_eq(tab.cells[0][0], "4");
	ck_assert_str_eq(tab.cells[0][4], "> 0.99");
	for (size_t r = 1; r < tab.nrows; r++) {
		emit_fmt_p(want, sizeof(want), h.model[r + 4].p, 2);
		ck_assert_str_eq(tab.cells[r][4], want);
	}
	emit_table_clear(&tab);
	history_results_clear(&h);
	free(ids);
	free(t);
}
END_TEST

START_TEST(test_emit_dates)
{
	char b[32];

	fmt_date(b, sizeof(b), 0, 0);
	ck_assert_str_eq(b, "1970-01-01 00:00:00");
	fmt_date(b, sizeof(b), T0, 0);
	ck_assert_str_eq(b, "2005-04-07 22:13:13");
	fmt_date(b, sizeof(b), INT64_MAX, 0);
	ck_assert_str_eq(b, "-");
	/* in the committer's zone, as git log shows a commit */
	fmt_date(b, sizeof(b), T0, -7 * 60);
	ck_assert_str_eq(b, "2005-04-07 15:13:13");
	/* 2019-12-31 23:30 -0500 is 2020-01-01 04:30 UTC: git's day is the 31st */
	fmt_day(b, sizeof(b), 1577853000, -300);
	ck_assert_str_eq(b, "2019-12-31");
	fmt_day(b, sizeof(b), 1577853000, 0);
	ck_assert_str_eq(b, "2020-01-01");
	fmt_iso_date(b, sizeof(b), 1577853000, -300);
	ck_assert_str_eq(b, "2019-12-31T23:30:00-05:00");
	fmt_iso_date(b, sizeof(b), T0, 330);
	ck_assert_str_eq(b, "2005-04-08T03:43:13+05:30");
	fmt_iso_date(b, sizeof(b), T0, -210);
	ck_assert_str_eq(b, "2005-04-07T18:43:13-03:30");
}
END_TEST

/* ---- errors: the option parsers of history and of model <repo> ---- */

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

static int parse(cli_history_opts *o, char *err, const char *line)
{
	static char store[512];
	static char *argv[32];
	int argc = split(argv, store, sizeof(store), line);

	err[0] = '\0';
	return cli_parse_history(o, argc, argv, err, 256);
}

START_TEST(test_cli_history_ok)
{
	cli_history_opts o;
	char err[256];

	ck_assert_int_eq(parse(&o, err, ""), CLI_OK);
	ck_assert(o.window_years == PROJECTION_DEFAULT_WINDOW);
	ck_assert_int_eq(o.fit, PROJECTION_FIT_AUTO);
	ck_assert(o.target_p == PROJECTION_DEFAULT_TARGET_P);
	ck_assert(o.horizon_years == PROJECTION_DEFAULT_HORIZON);
	ck_assert_int_eq(o.projection, 1);
	ck_assert_int_eq(o.r.format, ABBREV_FORMAT_TEXT);
	ck_assert_uint_eq(o.r.nrepos, 0);

	ck_assert_int_eq(parse(&o, err, "--format=json --window-years=2.5 --fit=linear "
				       "--target-p 1e-6 --horizon-years=30 --no-projection "
				       "--reachable a b"), CLI_OK);
	ck_assert_int_eq(o.r.format, ABBREV_FORMAT_JSON);
	ck_assert(o.window_years == 2.5);
	ck_assert_int_eq(o.fit, PROJECTION_FIT_LINEAR);
	ck_assert(o.target_p == 1e-6);
	ck_assert(o.horizon_years == 30);
	ck_assert_int_eq(o.projection, 0);
	ck_assert_int_eq(o.r.reachable, 1);
	ck_assert_uint_eq(o.r.nrepos, 2);
	ck_assert_str_eq(o.r.repos[1], "b");

	ck_assert_int_eq(parse(&o, err, "--fit exponential --horizon-years=0 --walker=libgit2"),
			 CLI_OK);
	ck_assert_int_eq(o.fit, PROJECTION_FIT_EXP);
	ck_assert(o.horizon_years == 0);
	ck_assert_int_eq(o.r.walker, CLI_WALKER_LIBGIT2);
	ck_assert_int_eq(parse(&o, err, "--fit=auto -- --no-projection"), CLI_OK);
	ck_assert_int_eq(o.projection, 1);
	ck_assert_str_eq(o.r.repos[0], "--no-projection");
	ck_assert_int_eq(parse(&o, err, "x --help"), CLI_HELP);
}
END_TEST

START_TEST(test_cli_history_usage)
{
	static const char *const bad[] = {
		"--target-p=0", "--target-p=1", "--target-p=-0.5", "--target-p=abc",
		"--target-p=", "--target-p", "--target-p=0.5x", "--horizon-years=-1",
		"--horizon-years=1000", "--horizon-years=nan", "--window-years=0",
		"--window-years=-3", "--window-years=inf", "--fit=cubic", "--fit",
		"--format=classic", "--format=xml", "--bogus",
	};
	cli_history_opts o;
	char err[256];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_msg(parse(&o, err, bad[i]) == CLI_USAGE, "'%s' was accepted", bad[i]);
		ck_assert_msg(err[0] != '\0', "'%s': no message", bad[i]);
		ck_assert_msg(!strchr(err, '\n'), "'%s': message is not one line", bad[i]);
	}
}
END_TEST

START_TEST(test_cli_model_repo)
{
	static char store[256];
	static char *argv[16];
	cli_model_opts o;
	char err[256];
	int argc = split(argv, store, sizeof(store),
			 "--reachable --walker=libgit2 --no-progress --format=json repo");

	ck_assert_int_eq(cli_parse_model(&o, argc, argv, err, sizeof(err)), CLI_OK);
	ck_assert_int_eq(o.r.reachable, 1);
	ck_assert_int_eq(o.r.walker, CLI_WALKER_LIBGIT2);
	ck_assert_int_eq(o.r.progress, 0);
	ck_assert_int_eq(o.format, ABBREV_FORMAT_JSON);
	ck_assert_uint_eq(o.nrepos, 1);
	ck_assert_str_eq(o.repos[0], "repo");
	argc = split(argv, store, sizeof(store), "--walker=git repo");
	ck_assert_int_eq(cli_parse_model(&o, argc, argv, err, sizeof(err)), CLI_USAGE);
	ck_assert(err[0] != '\0');
}
END_TEST

Suite *make_history_suite(void)
{
	Suite *s = suite_create("history");
	TCase *tc;

	tc = tcase_create("core");
	tcase_add_test(tc, test_history_planted);
	tcase_add_test(tc, test_history_zones);
	tcase_add_test(tc, test_history_ties_and_twice);
	tcase_add_test(tc, test_history_past_judy_key);
	tcase_add_test(tc, test_history_short_ids);
	tcase_add_test(tc, test_history_empty);
	suite_add_tcase(s, tc);

	tc = tcase_create("brute force");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_history_brute_force);
	suite_add_tcase(s, tc);

	tc = tcase_create("projection");
	tcase_add_test(tc, test_projection_exponential);
	tcase_add_test(tc, test_projection_linear);
	tcase_add_test(tc, test_projection_edges);
	tcase_add_test(tc, test_projection_year);
	suite_add_tcase(s, tc);

	tc = tcase_create("emit");
	tcase_add_checked_fixture(tc, emit_setup, emit_teardown);
	tcase_add_test(tc, test_emit_json);
	tcase_add_test(tc, test_emit_text);
	tcase_add_test(tc, test_emit_p_by_then);
	tcase_add_test(tc, test_emit_dates);
	suite_add_tcase(s, tc);

	tc = tcase_create("errors");
	tcase_add_test(tc, test_cli_history_ok);
	tcase_add_test(tc, test_cli_history_usage);
	tcase_add_test(tc, test_cli_model_repo);
	suite_add_tcase(s, tc);
	return s;
}
