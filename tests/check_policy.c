/*
 * check_policy.c - unit tests of the policy view's numbers (policy.c),
 * its --growth and --lengths parsing, and its quotable lines.
 *
 * Every number is checked against a second computation made here the
 * plain way: P = 1 - exp(-n(n-1)/2 / 16^L) with pow(), the capacity as
 * the root of n(n-1)/2 = -ln(1-p) 16^L, growth as 1.08^years or
 * 1 + s years, and dates of counts passed already from hand-made commit
 * times.
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check_suites.h"
#include "cli.h"
#include "emit_parts.h"
#include "policy.h"
#include "projection.h"

#define YEAR 31556952.0
#define NOW 1764720000.0 /* 2025-12-03 */

static void assert_rel(double got, double want, double tol, const char *what)
{
	double d = fabs(got - want), scale = fabs(want);

	ck_assert_msg(d <= tol * scale || (want == 0 && got == 0),
		      "%s: got %.17g, want %.17g (rel. error %.3g > %.3g)", what, got, want,
		      scale ? d / scale : d, tol);
}

/* The plain birthday formula, in double with pow(). */
static double plain_p(double n, unsigned L)
{
	double e = n * (n - 1) / 2 / pow(16.0, L);

	/* 1 - exp(-e) loses digits to cancellation for a small e: its series there */
	return e < 1e-4 ? e - e * e / 2 + e * e * e / 6 : 1 - exp(-e);
}

/* The largest n with n(n-1)/2 <= -ln(1-p) 16^L, from the quadratic's root. */
static double plain_capacity(unsigned L, double p)
{
	double t = -log(1 - p) * pow(16.0, L);

	return floor((1 + sqrt(1 + 8 * t)) / 2);
}

static const unsigned ten_to_16[] = { 10, 11, 12, 13, 14, 15, 16 };

/* The kernel's figures, 8%/year: every column against the plain formulas. */
START_TEST(test_exponential)
{
	policy_input in[] = { { "commit", 1300000, NULL }, { "all", 13021585, NULL } };
	policy_growth g = { POLICY_GROWTH_EXP, log(1.08), NOW };
	policy_results r;
	static const double years[] = { 5, 10, 20 };

	ck_assert_int_eq(policy_compute(&r, in, 2, ten_to_16, 7, &g, POLICY_SOURCE_GIVEN, NOW,
					50, NULL, 0, 0), 0);
	ck_assert_uint_eq(r.nsets, 2);
	ck_assert_uint_eq(r.nlengths, 7);
	for (size_t k = 0; k < 2; k++) {
		const policy_set *s = &r.sets[k];
		double n = (double)in[k].n;

		ck_assert_str_eq(s->name, in[k].name);
		for (int y = 0; y < 3; y++)
			/* rounded once, to the whole count printed */
			assert_rel(s->n_at[y], round(n * pow(1.08, years[y])), 1e-12, "n in years");
		for (size_t i = 0; i < 7; i++) {
			const policy_row *row = &s->rows[i];
			unsigned L = ten_to_16[i];

			ck_assert_uint_eq(row->length, L);
			ck_assert_int_eq(row->measured, 0);
			assert_rel(row->expected_pairs, n * (n - 1) / 2 / pow(16.0, L), 1e-12, "E");
			assert_rel(row->p_now, plain_p(n, L), 1e-9, "P now");
			for (int y = 0; y < 3; y++)
				assert_rel(row->p_at[y], plain_p(round(n * pow(1.08, years[y])), L), 1e-9,
					   "P in years");
			for (int lv = 0; lv < 2; lv++) {
				const policy_when *w = lv ? &row->p50 : &row->p01;
				double p = lv ? 0.5 : 0.01, cap = plain_capacity(L, p);

				ck_assert_msg(fabs(w->capacity - cap) <= 1, "capacity %u: %.17g vs %.17g",
					      L, w->capacity, cap);
				/* the capacity really is the last count at or below p */
				ck_assert(plain_p(w->capacity, L) <= p * (1 + 1e-12));
				ck_assert(plain_p(w->capacity + 1, L) > p * (1 - 1e-12));
				if (cap + 1 <= n) {
					ck_assert_int_eq(w->state, POLICY_WHEN_PASSED);
					ck_assert(isnan(w->time)); /* no history to date it */
					continue;
				}
				double t = NOW + YEAR * log((w->capacity + 1) / n) / log(1.08);

				if (t > NOW + 50 * YEAR) {
					ck_assert_int_eq(w->state, POLICY_WHEN_BEYOND);
				} else {
					ck_assert_int_eq(w->state, POLICY_WHEN_FUTURE);
					ck_assert_msg(fabs(w->time - t) < 1, "time %u: %.17g vs %.17g", L,
						      w->time, t);
				}
			}
		}
	}
	/* all objects: past 1% at 10 chars (E = 77); 12 chars: a 50% chance near 2047 */
	ck_assert_int_eq(r.sets[1].rows[0].p01.state, POLICY_WHEN_PASSED);
	ck_assert_int_eq(r.sets[1].rows[2].p50.state, POLICY_WHEN_FUTURE);
	ck_assert_int_eq(r.sets[0].rows[6].p01.state, POLICY_WHEN_BEYOND);
	ck_assert_ptr_eq(policy_find_set(&r, "all"), &r.sets[1]);
	ck_assert_ptr_null(policy_find_set(&r, "tree"));
}
END_TEST

/* Linear growth: 1 + s years; the dates invert it. */
START_TEST(test_linear)
{
	policy_input in[] = { { "commit", 203352, NULL } };
	double s = 12872.0 / 203352.0;
	policy_growth g = { POLICY_GROWTH_LINEAR, s, NOW };
	unsigned lens[] = { 12, 9 };
	policy_results r;

	ck_assert_int_eq(policy_compute(&r, in, 1, lens, 2, &g, POLICY_SOURCE_HISTORY, NOW, 1000,
					NULL, 0, 0), 0);
	assert_rel(r.sets[0].n_at[2], 203352.0 + 20 * 12872.0, 1e-12, "n in 20 years");
	ck_assert_uint_eq(r.sets[0].rows[0].length, 12);
	ck_assert_uint_eq(r.sets[0].rows[1].length, 9);
	{
		const policy_when *w = &r.sets[0].rows[0].p01;
		double t = NOW + YEAR * ((w->capacity + 1) / 203352.0 - 1) / s;

		ck_assert_int_eq(w->state, POLICY_WHEN_FUTURE);
		ck_assert_msg(fabs(w->time - t) < 1, "%.17g vs %.17g", w->time, t);
		assert_rel(w->capacity, plain_capacity(12, 0.01), 1e-9, "capacity");
	}
	ck_assert_int_eq(r.sets[0].rows[1].p50.state, POLICY_WHEN_FUTURE);
	assert_rel(policy_growth_factor(&g, NOW + 2 * YEAR), 1 + 2 * s, 1e-12, "factor");
	assert_rel(policy_growth_time_of(&g, 1 + 3 * s), NOW + 3 * YEAR, 1e-12, "time of");
}
END_TEST

/*
 * Counts passed already are dated from the commit times: 400 objects over
 * 4 commits at t = 100 .. 400.  At 4 chars the objects pass 1% at 37 IDs
 * (36*35/2 = 630 <= 0.01005 * 65536 = 658.6 < 37*36/2): commit 0.37, the
 * first; 50% at 302 (301*300/2 = 45150 <= ln 2 * 65536 = 45426 < 45451):
 * commit 3.02, the fourth.
 */
START_TEST(test_passed_dates)
{
	static const int64_t times[] = { 100, 200, 300, 400 };
	size_t prefixes[ABBREV_MAX_HEXSZ + 1] = { 0 };
	policy_input in[] = { { "commit", 4, NULL }, { "all", 400, prefixes } };
	unsigned lens[] = { 4 };
	policy_results r;

	prefixes[4] = 7;
	ck_assert_int_eq(policy_compute(&r, in, 2, lens, 1, NULL, POLICY_SOURCE_NONE, NOW, 50,
					times, 4, 4), 0);
	ck_assert_int_eq(r.sets[1].rows[0].p01.state, POLICY_WHEN_PASSED);
	ck_assert(r.sets[1].rows[0].p01.capacity == 36);
	ck_assert(r.sets[1].rows[0].p01.time == 100);
	ck_assert(r.sets[1].rows[0].p50.capacity == 301);
	ck_assert(r.sets[1].rows[0].p50.time == 400);
	ck_assert_int_eq(r.sets[1].rows[0].measured, 1);
	ck_assert_uint_eq(r.sets[1].rows[0].prefixes, 7);
	/* measured collisions are quoted as such, not as the model's year */
	{
		char buf[256];

		emit_policy_quote(buf, sizeof(buf), &r, 0);
		ck_assert_str_eq(buf, "4 chars: commits are at P = 9.2e-05 now (no growth to date 1%); "
				      "all objects collide already (7 colliding prefixes now)");
	}
	/* no growth: the commits' 1% is not passed and has no date */
	ck_assert_int_eq(r.sets[0].rows[0].p01.state, POLICY_WHEN_UNKNOWN);
	ck_assert(isnan(r.sets[0].rows[0].p01.time));
	ck_assert(isnan(r.sets[0].rows[0].p_at[0]));
	ck_assert(isnan(r.sets[0].n_at[2]));
	assert_rel(r.sets[0].rows[0].p_now, plain_p(4, 4), 1e-12, "P of 4 at 4");
}
END_TEST

START_TEST(test_edges)
{
	policy_input in[] = { { "commit", 0, NULL }, { "all", 1, NULL } };
	policy_growth none = { POLICY_GROWTH_NONE, 0, NOW }, flat = { POLICY_GROWTH_EXP, 0, NOW };
	unsigned bad[] = { 3 }, big[] = { 65 }, ok[] = { 64 };
	policy_results r;

	ck_assert_int_eq(policy_compute(&r, in, 2, bad, 1, NULL, 0, NOW, 50, NULL, 0, 0), -1);
	ck_assert_int_eq(policy_compute(&r, in, 2, big, 1, NULL, 0, NOW, 50, NULL, 0, 0), -1);
	ck_assert_int_eq(policy_compute(&r, in, 2, ok, 0, NULL, 0, NOW, 50, NULL, 0, 0), -1);
	ck_assert_int_eq(policy_compute(&r, in, 2, ok, 1, NULL, 0, NOW, -1, NULL, 0, 0), -1);
	/* no IDs, one ID: P is 0, and nothing grows from nothing */
	ck_assert_int_eq(policy_compute(&r, in, 2, ok, 1, &flat, POLICY_SOURCE_GIVEN, NOW, 50,
					NULL, 0, 0), 0);
	ck_assert(r.sets[0].rows[0].p_now == 0);
	ck_assert(r.sets[1].rows[0].p_at[2] == 0);
	ck_assert_int_eq(r.sets[0].rows[0].p01.state, POLICY_WHEN_BEYOND);
	/* a growth of 0: never, so beyond any horizon */
	ck_assert_int_eq(r.sets[1].rows[0].p01.state, POLICY_WHEN_BEYOND);
	ck_assert(policy_growth_time_of(&flat, 2) == HUGE_VAL);
	ck_assert(policy_growth_factor(&none, NOW + YEAR) == 1);
	/* a growth so steep the factor overflows: P is 1, not NaN */
	{
		policy_growth steep = { POLICY_GROWTH_EXP, 100, NOW };
		policy_input one[] = { { "all", 1000, NULL } };

		ck_assert_int_eq(policy_compute(&r, one, 1, ok, 1, &steep, POLICY_SOURCE_GIVEN, NOW,
						1000, NULL, 0, 0), 0);
		ck_assert(r.sets[0].rows[0].p_at[2] == 1);
		ck_assert_int_eq(r.sets[0].rows[0].p01.state, POLICY_WHEN_FUTURE);
	}
	ck_assert(policy_p_collision(HUGE_VAL, 12) == 1);
	ck_assert(policy_p_collision(1.5, 4) == 0);
}
END_TEST

/* Parse args (copied: the parser keeps pointers into argv) with policy's table. */
static int parse(cli_policy_opts *o, char *err, int argc, const char *const *args)
{
	static char store[8][64];
	static char *argv[8];

	for (int i = 0; i < argc && i < 8; i++) {
		snprintf(store[i], sizeof(store[i]), "%s", args[i]);
		argv[i] = store[i];
	}
	err[0] = '\0';
	return cli_parse(&cli_cmd_policy, o, argc, argv, err, 256);
}

/* --growth's forms and --lengths' two forms, through the command's option table. */
START_TEST(test_cli)
{
	cli_policy_opts o;
	char err[256];
	const char *const a1[] = { "--objects=100", "--growth=8%/year", "--lengths=12,16" };
	const char *const a2[] = { "--objects=100", "--commits=10", "--growth=500 commits/year", "--lengths=9..11" };
	const char *const a3[] = { "--objects=100", "--growth=2500/year" };
	const char *const a4[] = { "--objects=100", "--growth=2500objects/year" };
	const char *const a5[] = { "--objects=100", "--growth=8%" };

	ck_assert_int_eq(parse(&o, err, 3, a1), CLI_OK);
	ck_assert_int_eq(o.growth_unit, CLI_GROWTH_PERCENT);
	assert_rel(o.growth, 8, 1e-15, "8%");
	ck_assert_uint_eq(o.lengths.n, 2);
	ck_assert_uint_eq(o.lengths.v[0], 12);
	ck_assert_uint_eq(o.lengths.v[1], 16);
	ck_assert_int_eq(parse(&o, err, 4, a2), CLI_OK);
	ck_assert_int_eq(o.growth_unit, CLI_GROWTH_COMMITS);
	assert_rel(o.growth, 500, 1e-15, "500 commits");
	ck_assert_uint_eq(o.lengths.n, 3);
	ck_assert_uint_eq(o.lengths.v[2], 11);
	ck_assert_int_eq(parse(&o, err, 2, a3), CLI_OK);
	ck_assert_int_eq(o.growth_unit, CLI_GROWTH_OBJECTS);
	ck_assert_uint_eq(o.lengths.n, 7); /* the default 10..16 */
	ck_assert_uint_eq(o.lengths.v[0], 10);
	ck_assert_int_eq(parse(&o, err, 2, a4), CLI_OK);
	ck_assert_int_eq(o.growth_unit, CLI_GROWTH_OBJECTS);
	ck_assert_int_eq(parse(&o, err, 2, a5), CLI_OK);
	ck_assert_int_eq(o.growth_unit, CLI_GROWTH_PERCENT);
}
END_TEST

START_TEST(test_cli_errors)
{
	static const struct {
		const char *arg, *msg;
	} bad[] = {
		{ "--growth=fast", "--growth" },
		{ "--growth=-3%", "--growth" },
		{ "--growth=8%/week", "--growth" },
		{ "--growth=5 trees/year", "--growth" },
		/* a bare number: 8%, 8 objects or 8 commits? */
		{ "--growth=8", "'--growth=8' has no unit: say 8%/year, 8/year (objects) or "
				"'8 commits/year'" },
		{ "--growth=80000", "has no unit" },
		{ "--lengths=16..12", "--lengths" },
		{ "--lengths=3..12", "--lengths" },
		{ "--lengths=12,,16", "--lengths" },
		{ "--lengths=12..", "--lengths" },
		{ "--lengths=4..64", "--lengths" }, /* more than POLICY_MAX_LENGTHS */
	};
	cli_policy_opts o;
	char err[256];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *const argv[] = { "--objects=9", bad[i].arg };

		ck_assert_int_eq(parse(&o, err, 2, argv), CLI_USAGE);
		ck_assert_msg(strstr(err, bad[i].msg) != NULL, "%s: %s", bad[i].arg, err);
	}
	{
		const char *const argv[] = { "--objects=9", "--growth=5 commits/year" };

		ck_assert_int_eq(parse(&o, err, 2, argv), CLI_USAGE);
		ck_assert_msg(strstr(err, "--commits") != NULL, "%s", err);
	}
}
END_TEST

/* The quotable line: the example of the issue, and the honest "beyond". */
START_TEST(test_quote)
{
	policy_input in[] = { { "commit", 1300000, NULL }, { "all", 13021585, NULL } };
	policy_growth g = { POLICY_GROWTH_EXP, log(1.08), NOW };
	policy_results r;
	char buf[512], want[256];
	double t;

	ck_assert_int_eq(policy_compute(&r, in, 2, ten_to_16, 7, &g, POLICY_SOURCE_GIVEN, NOW,
					50, NULL, 0, 0), 0);
	emit_policy_quote(buf, sizeof(buf), &r, 2);
	t = NOW + YEAR * log((plain_capacity(12, 0.01) + 1) / 1300000.0) / log(1.08);
	snprintf(want, sizeof(want), "12 chars: commits stay below 1%% until %.0f;",
		 floor(projection_year(t)));
	ck_assert_msg(!strncmp(buf, want, strlen(want)), "%s, want %s", buf, want);
	/* 13,021,585 objects at 12 chars: E = 0.3012, P = 0.26 */
	snprintf(want, sizeof(want), "; all objects passed 1%% already (P = %.2g now)",
		 plain_p(13021585.0, 12));
	ck_assert_msg(strstr(buf, want) != NULL, "%s, want %s", buf, want);
	/* 16 chars: 1% is 50 years away for all objects at 8%; past a 30-year horizon */
	ck_assert_int_eq(policy_compute(&r, in, 2, ten_to_16, 7, &g, POLICY_SOURCE_GIVEN, NOW,
					30, NULL, 0, 0), 0);
	emit_policy_quote(buf, sizeof(buf), &r, 6);
	snprintf(want, sizeof(want), "16 chars: commits and all objects stay below 1%% beyond %.0f",
		 floor(projection_year(NOW + 30 * YEAR)));
	ck_assert_str_eq(buf, want);
}
END_TEST

Suite *make_policy_suite(void)
{
	Suite *s = suite_create("policy");
	TCase *core = tcase_create("core");
	TCase *errors = tcase_create("errors");

	tcase_add_test(core, test_exponential);
	tcase_add_test(core, test_linear);
	tcase_add_test(core, test_passed_dates);
	tcase_add_test(core, test_quote);
	tcase_add_test(core, test_cli);
	tcase_add_test(errors, test_edges);
	tcase_add_test(errors, test_cli_errors);
	suite_add_tcase(s, core);
	suite_add_tcase(s, errors);
	return s;
}
