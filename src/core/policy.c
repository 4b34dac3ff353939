/*
 * policy.c - the policy view's numbers: the birthday model per length,
 * now and grown, and the dates at which each length passes 1% and 50%.
 *
 * Everything is the model of model.c applied to counts that grow by one
 * factor for all sets (policy.h says why); the dates invert the factor.
 */
#include <config.h>

#include "policy.h"

#include <math.h>
#include <string.h>

#include "model.h"
#include "projection.h"

double policy_expected_pairs(double n, unsigned L)
{
	if (!(n >= 2))
		return 0;
	if (!isfinite(n))
		return HUGE_VAL;
	/* as model_expected_pairs(): 16^L by ldexp, exact */
	return (double)ldexpl((long double)n * ((long double)n - 1) / 2, -4 * (int)L);
}

double policy_p_collision(double n, unsigned L)
{
	/* as model_p_collision(): -expm1 keeps a tiny P */
	return -expm1(-policy_expected_pairs(n, L));
}

/* The capacity at p as a double: exact where it fits 64 bits. */
static double capacity(unsigned L, double p)
{
	uint64_t c;

	if (model_capacity(&c, L, p))
		return model_capacity_real(L, p);
	return (double)c;
}

static void when(policy_when *w, const policy_results *r, uint64_t n, unsigned L, double p,
		 const int64_t *times, size_t ntimes, uint64_t commits)
{
	double target, t;

	w->capacity = capacity(L, p);
	w->time = NAN;
	w->at = 0;
	w->tz = 0;
	target = w->capacity + 1;
	if (target <= (double)n) {
		w->state = POLICY_WHEN_PASSED;
		/* the set had `target` IDs when the commits were target * commits / n */
		if (times && ntimes && commits) {
			w->at = projection_commit_at(ntimes, target * (double)commits / (double)n);
			w->time = (double)times[w->at];
		}
		return;
	}
	if (r->growth.kind == POLICY_GROWTH_NONE || !n) {
		/* nothing grows from nothing: no date */
		w->state = n ? POLICY_WHEN_UNKNOWN : POLICY_WHEN_BEYOND;
		return;
	}
	t = policy_growth_time_of(&r->growth, target / (double)n);
	if (!(t <= r->horizon_time)) {
		w->state = POLICY_WHEN_BEYOND;
		return;
	}
	w->state = POLICY_WHEN_FUTURE;
	w->time = t;
}

int policy_compute(policy_results *r, const policy_input *in, size_t nin,
		   const unsigned *lengths, size_t nlengths, const policy_growth *g,
		   int growth_source, double now, double horizon_years,
		   const int64_t *times, size_t ntimes, uint64_t commits)
{
	static const double years[POLICY_NYEARS] = POLICY_YEARS;

	memset(r, 0, sizeof(*r));
	if (nin > POLICY_MAX_SETS || !nlengths || nlengths > POLICY_MAX_LENGTHS ||
	    !(horizon_years >= 0))
		return -1;
	for (size_t i = 0; i < nlengths; i++)
		if (lengths[i] < ABBREV_MIN_LEN || lengths[i] > ABBREV_MAX_HEXSZ)
			return -1;
	r->nlengths = nlengths;
	memcpy(r->lengths, lengths, nlengths * sizeof(*lengths));
	r->nsets = nin;
	if (g && g->kind != POLICY_GROWTH_NONE) {
		r->growth = *g;
		r->growth_source = growth_source;
	}
	r->now = now;
	r->horizon_years = horizon_years;
	r->horizon_time = now + horizon_years * PROJECTION_YEAR;
	memcpy(r->years, years, sizeof(years));

	for (size_t k = 0; k < nin; k++) {
		policy_set *s = &r->sets[k];

		s->name = in[k].name;
		s->n = in[k].n;
		for (int y = 0; y < POLICY_NYEARS; y++)
			s->n_at[y] = r->growth.kind == POLICY_GROWTH_NONE ? NAN :
				policy_grown_count(&r->growth, (double)s->n,
						   now + years[y] * PROJECTION_YEAR);
		for (size_t i = 0; i < nlengths; i++) {
			policy_row *row = &s->rows[i];
			unsigned L = lengths[i];

			row->length = L;
			row->measured = in[k].prefixes != NULL;
			row->prefixes = in[k].prefixes ? in[k].prefixes[L] : 0;
			row->expected_pairs = model_expected_pairs(s->n, L);
			row->expected_prefixes = model_expected_prefixes(s->n, L);
			row->p_now = model_p_collision(s->n, L);
			for (int y = 0; y < POLICY_NYEARS; y++) {
				row->p_at[y] = isnan(s->n_at[y]) ? NAN :
					policy_p_collision(s->n_at[y], L);
				row->pairs_at[y] = isnan(s->n_at[y]) ? NAN :
					policy_expected_pairs(s->n_at[y], L);
			}
			when(&row->p01, r, s->n, L, MODEL_P_LOW, times, ntimes, commits);
			when(&row->p50, r, s->n, L, MODEL_P_HIGH, times, ntimes, commits);
		}
	}
	return 0;
}

int policy_set_zones(policy_results *r, projection_zone_fn zone, void *arg)
{
	int rc = 0;

	for (size_t k = 0; k < r->nsets; k++)
		for (size_t i = 0; i < r->nlengths; i++) {
			policy_when *w[2] = { &r->sets[k].rows[i].p01, &r->sets[k].rows[i].p50 };

			for (int j = 0; j < 2; j++)
				if (w[j]->state == POLICY_WHEN_PASSED && !isnan(w[j]->time) && !rc)
					rc = zone(arg, w[j]->at, &w[j]->tz);
		}
	return rc;
}

const policy_set *policy_find_set(const policy_results *r, const char *name)
{
	for (size_t k = 0; k < r->nsets; k++)
		if (!strcmp(r->sets[k].name, name))
			return &r->sets[k];
	return NULL;
}
