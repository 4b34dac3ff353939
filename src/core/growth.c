/*
 * growth.c - the growth factor, its inverse, and the grown count, shared
 * by history's projection, policy and the verdict (growth.h).
 */
#include <config.h>

#include "growth.h"

#include <math.h>

#include "projection.h" /* PROJECTION_YEAR */

double policy_growth_factor(const policy_growth *g, double t)
{
	double x = (t - g->t0) / PROJECTION_YEAR, f;

	switch (g->kind) {
	case POLICY_GROWTH_EXP:
		f = exp(g->rate * x);
		return isfinite(f) ? f : HUGE_VAL;
	case POLICY_GROWTH_LINEAR:
		f = 1 + g->rate * x;
		return f > 0 ? f : 0;
	}
	return 1;
}

double policy_growth_time_of(const policy_growth *g, double factor)
{
	if (factor <= 1)
		return g->t0;
	if (!(g->rate > 0) || !isfinite(factor))
		return HUGE_VAL;
	switch (g->kind) {
	case POLICY_GROWTH_EXP:
		return g->t0 + PROJECTION_YEAR * log(factor) / g->rate;
	case POLICY_GROWTH_LINEAR:
		return g->t0 + PROJECTION_YEAR * (factor - 1) / g->rate;
	}
	return HUGE_VAL;
}

double policy_grown_count(const policy_growth *g, double n, double t)
{
	double c = n * policy_growth_factor(g, t);

	if (!(c >= n))
		c = n;
	return isfinite(c) ? round(c) : HUGE_VAL;
}
