/*
 * projection.c - fit the growth of the commit count and project the
 * dates at which each length passes its birthday-model capacity.
 *
 * Two least-squares lines over the same samples: ln N against t
 * (exponential growth) and N against t (linear).  Neither is the truth:
 * young projects grow fast and then settle, so the window (the last few
 * years) matters more than the law, and both errors are reported.  The
 * exponential is the cautious one: it dates every capacity earlier.
 */
#include <config.h>

#include "projection.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model.h"

#define COUNT_CAP 1e300 /* projected counts stop here, so they stay finite */

void projection_opts_init(projection_opts *o)
{
	o->window_years = PROJECTION_DEFAULT_WINDOW;
	o->fit = PROJECTION_FIT_AUTO;
	o->target_p = PROJECTION_DEFAULT_TARGET_P;
	o->horizon_years = PROJECTION_DEFAULT_HORIZON;
	o->now = 0;
}

const char *projection_fit_name(int kind)
{
	return kind == PROJECTION_FIT_LINEAR ? "linear" : "exponential";
}

static int cmp_time(const void *pa, const void *pb)
{
	int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;

	return (a > b) - (a < b);
}

void projection_sort_times(int64_t *times, size_t n)
{
	if (n > 1)
		qsort(times, n, sizeof(*times), cmp_time);
}

size_t projection_count_upto(const int64_t *times, size_t n, double t)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if ((double)times[mid] <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Least squares y = a + g x; a is the value at x = 0 (the window's end).
 * y is taken relative to y[0], so a flat stretch gives g = 0 exactly.
 */
static void least_squares(double *a, double *g, const double *x, const double *y, size_t k)
{
	double mx = 0, my = 0, sxx = 0, sxy = 0;

	for (size_t i = 0; i < k; i++) {
		mx += x[i];
		my += y[i] - y[0];
	}
	mx /= (double)k;
	my /= (double)k;
	for (size_t i = 0; i < k; i++) {
		sxx += (x[i] - mx) * (x[i] - mx);
		sxy += (x[i] - mx) * (y[i] - y[0] - my);
	}
	*g = sxx > 0 ? sxy / sxx : 0;
	*a = y[0] + my - *g * mx;
}

static double fit_value(const projection_fit *f, double x)
{
	return f->kind == PROJECTION_FIT_EXP ? exp(f->a + f->growth * x) : f->a + f->growth * x;
}

static void fit(projection_fit *f, int kind, const double *x, const double *n, size_t k)
{
	double y[PROJECTION_SAMPLES], sum = 0;

	for (size_t i = 0; i < k; i++)
		y[i] = kind == PROJECTION_FIT_EXP ? log(n[i]) : n[i];
	f->kind = kind;
	least_squares(&f->a, &f->growth, x, y, k);
	for (size_t i = 0; i < k; i++) {
		double rel = (fit_value(f, x[i]) - n[i]) / n[i];

		sum += rel * rel;
	}
	f->rms_rel = sqrt(sum / (double)k);
}

double projection_count_at(const projection_results *p, double t)
{
	return projection_fit_count_at(p, p->chosen, t);
}

/* Fit number `fit` as a growth from the window's end (growth.h): policy's law. */
static void fit_growth(policy_growth *g, const projection_results *p, int fit)
{
	const projection_fit *f = &p->fits[fit];

	g->t0 = (double)p->window_end;
	if (f->kind == PROJECTION_FIT_EXP) {
		g->kind = POLICY_GROWTH_EXP;
		g->rate = f->growth;
	} else {
		g->kind = POLICY_GROWTH_LINEAR;
		g->rate = p->commits ? f->growth / (double)p->commits : 0;
	}
}

void projection_growth(policy_growth *g, const projection_results *p)
{
	if (p->status != PROJECTION_OK) {
		g->kind = POLICY_GROWTH_NONE;
		g->rate = 0;
		g->t0 = (double)p->window_end;
		return;
	}
	fit_growth(g, p, p->chosen);
}

double projection_fit_count_at(const projection_results *p, int fit, double t)
{
	policy_growth g;

	fit_growth(&g, p, fit);
	return (double)p->commits * policy_growth_factor(&g, t);
}

/* The time at which fit number `fit` grows today's counts by `factor`. */
static double time_of_factor(const projection_results *p, int fit, double factor)
{
	policy_growth g;

	fit_growth(&g, p, fit);
	return policy_growth_time_of(&g, factor);
}

double projection_time_of(const projection_results *p, double count)
{
	return time_of_factor(p, p->chosen, count / (double)p->commits);
}

/* Past counts are dated from the history: the time of commit number c (1-based). */
size_t projection_commit_at(size_t n, double c)
{
	double idx = ceil(c) - 1;

	if (idx < 0)
		idx = 0;
	if (idx > (double)(n - 1))
		idx = (double)(n - 1);
	return (size_t)idx;
}

double projection_time_of_commit(const int64_t *times, size_t n, double c)
{
	return (double)times[projection_commit_at(n, c)];
}

int projection_set_zones(projection_results *p, projection_zone_fn zone, void *arg)
{
	int rc = 0;

	if (p->status != PROJECTION_OK)
		return 0;
	for (unsigned L = PROJECTION_FROM; L <= PROJECTION_TO + 1; L++) {
		projection_when *w[2] = { &p->p01[L], &p->p50[L] };

		if (L > PROJECTION_TO) /* the other fit's quote, last */
			w[0] = w[1] = &p->other_quote;
		for (int i = 0; i < 2; i++) {
			if (w[i]->commits_reached && !rc)
				rc = zone(arg, w[i]->commits_at, &w[i]->commits_tz);
			if (w[i]->objects_reached && !rc)
				rc = zone(arg, w[i]->objects_at, &w[i]->objects_tz);
		}
	}
	return rc;
}

/*
 * As policy.c's when(), expression for expression, so that both give a
 * length the same year: a set of n passes `target` at the time the growth
 * factor reaches target / n; passed already: when the commits were
 * target * commits / n.
 */
static void when(projection_when *w, const projection_results *p, int fit,
		 const int64_t *times, size_t n, unsigned L, double prob)
{
	double target, commits = (double)p->commits, objects = (double)p->objects;

	memset(w, 0, sizeof(*w));
	model_capacity(&w->capacity, L, prob);
	target = (double)w->capacity + 1;
	if (target <= commits) {
		w->commits_reached = 1;
		w->commits_at = projection_commit_at(n, target * commits / commits);
		w->commits_time = (double)times[w->commits_at];
	} else {
		w->commits_time = time_of_factor(p, fit, target / commits);
	}
	if (!(p->objects_per_commit > 0)) {
		w->objects_time = HUGE_VAL;
	} else if (target <= objects) {
		w->objects_reached = 1;
		w->objects_at = projection_commit_at(n, target * commits / objects);
		w->objects_time = (double)times[w->objects_at];
	} else {
		w->objects_time = time_of_factor(p, fit, target / objects);
	}
}

/* model_min_length() for a projected count, which may be past 64 bits. */
static unsigned safe_length(double n, double prob)
{
	if (!(n > 0))
		return model_min_length(0, prob);
	if (n < 9223372036854775808.0)
		return model_min_length((uint64_t)ceil(n), prob);
	for (unsigned L = ABBREV_MIN_LEN; L <= MODEL_MAX_LEN; L++) {
		/* E = n^2 / 2 / 16^L in logs (n^2 overflows); n - 1 = n here */
		double E = exp(2 * log(n) - log(2.0) - L * log(16.0));

		if (-expm1(-E) <= prob)
			return L;
	}
	return MODEL_MAX_LEN + 1;
}

int projection_compute(projection_results *p, const int64_t *times, size_t n,
		       uint64_t objects, const projection_opts *o)
{
	double x[PROJECTION_SAMPLES], cnt[PROJECTION_SAMPLES];
	double start, end, span;
	size_t k = PROJECTION_SAMPLES;
	policy_growth g;

	memset(p, 0, sizeof(*p));
	if (!(o->window_years > 0) || !(o->target_p >= 0 && o->target_p < 1) ||
	    !(o->horizon_years >= 0))
		return -1;
	p->window_years = o->window_years;
	p->target_p = o->target_p;
	p->horizon_years = o->horizon_years;
	p->commits = n;
	p->objects = objects;
	p->objects_per_commit = n ? (double)objects / (double)n : 0;
	p->status = PROJECTION_TOO_FEW;
	if (n < 2)
		return 0;
	end = (double)times[n - 1];
	if (o->now && (double)o->now < end)
		end = (double)o->now;
	if (end > (double)times[0] &&
	    end - (double)times[0] < PROJECTION_MIN_SPAN_YEARS * PROJECTION_YEAR) {
		p->status = PROJECTION_TOO_SHORT;
		p->window_start = times[0];
		p->window_end = (int64_t)floor(end);
		return 0;
	}
	start = end - o->window_years * PROJECTION_YEAR;
	if (start < (double)times[0])
		start = (double)times[0];
	span = end - start;
	if (!(span > 0))
		return 0;
	p->window_start = (int64_t)floor(start);
	p->window_end = (int64_t)floor(end);

	for (size_t i = 0; i < k; i++) {
		double t = start + span * (double)i / (double)(k - 1);

		x[i] = (t - end) / PROJECTION_YEAR;
		cnt[i] = (double)projection_count_upto(times, n, t);
	}
	p->nsamples = k;
	fit(&p->fits[0], PROJECTION_FIT_EXP, x, cnt, k);
	fit(&p->fits[1], PROJECTION_FIT_LINEAR, x, cnt, k);
	if (o->fit == PROJECTION_FIT_LINEAR)
		p->chosen = 1;
	else if (o->fit == PROJECTION_FIT_EXP)
		p->chosen = 0;
	else /* ties go to the exponential, the cautious one */
		p->chosen = p->fits[1].rms_rel < p->fits[0].rms_rel;
	p->status = PROJECTION_OK;

	for (unsigned L = PROJECTION_FROM; L <= PROJECTION_TO; L++) {
		when(&p->p01[L], p, p->chosen, times, n, L, MODEL_P_LOW);
		when(&p->p50[L], p, p->chosen, times, n, L, MODEL_P_HIGH);
	}
	when(&p->other_quote, p, !p->chosen, times, n, PROJECTION_QUOTE_LEN, MODEL_P_HIGH);
	p->horizon_time = (double)p->window_end + o->horizon_years * PROJECTION_YEAR;
	/* grown and rounded as policy's counts (growth.h); a steep growth over a
	 * long horizon overflows: far past any length anyway */
	projection_growth(&g, p);
	p->commits_at_horizon = fmin(policy_grown_count(&g, (double)n, p->horizon_time), COUNT_CAP);
	p->objects_at_horizon = fmin(policy_grown_count(&g, (double)objects, p->horizon_time),
				     COUNT_CAP);
	for (int i = 0; i < 2; i++) {
		fit_growth(&g, p, i);
		p->fit_at_horizon[i] = fmin(policy_grown_count(&g, (double)n, p->horizon_time),
					    COUNT_CAP);
	}
	p->safe_commit_len = safe_length(p->commits_at_horizon, o->target_p);
	p->safe_all_len = safe_length(p->objects_at_horizon, o->target_p);
	return 0;
}

double projection_year(double t)
{
	struct tm cur, jan1 = { 0 }, next = { 0 };
	time_t tt, y0, y1;

	/* within years 1..9999, the calendar; beyond, mean years are close enough */
	if (!isfinite(t) || t < -62135596800.0 || t >= 253402300800.0)
		return 1970.0 + t / PROJECTION_YEAR;
	tt = (time_t)floor(t);
	if (!gmtime_r(&tt, &cur))
		return 1970.0 + t / PROJECTION_YEAR;
	jan1.tm_year = cur.tm_year;
	jan1.tm_mday = 1;
	next.tm_year = cur.tm_year + 1;
	next.tm_mday = 1;
	y0 = timegm(&jan1);
	y1 = timegm(&next);
	return 1900.0 + cur.tm_year + (t - (double)y0) / (double)(y1 - y0);
}
