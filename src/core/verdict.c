/*
 * verdict.c - the answer at a glance: policy's numbers at a few lengths,
 * with a level of concern in words and a core.abbrev to suggest.
 */
#include <config.h>

#include "verdict.h"

#include <math.h>
#include <string.h>

#include "hexid.h"
#include "model.h"

const char *verdict_concern_name(int concern)
{
	switch (concern) {
	case VERDICT_ACT:
		return "act";
	case VERDICT_WATCH:
		return "watch";
	}
	return "none";
}

int verdict_concern_of(const policy_row *row, int have_growth, int years_index)
{
	if ((row->measured && row->prefixes > 0) || row->p_now >= VERDICT_P ||
	    row->p01.state == POLICY_WHEN_PASSED)
		return VERDICT_ACT;
	if (have_growth && years_index >= 0) {
		if (row->p_at[years_index] >= VERDICT_P)
			return VERDICT_WATCH;
	} else if (row->p_now >= VERDICT_WATCH_NOW) {
		return VERDICT_WATCH;
	}
	return VERDICT_NONE;
}

/* Insert L into the ascending list lens[0..*n) unless it is there. */
static void add_length(unsigned *lens, size_t *n, unsigned L)
{
	size_t i = 0;

	while (i < *n && lens[i] < L)
		i++;
	if (i < *n && lens[i] == L)
		return;
	memmove(lens + i + 1, lens + i, (*n - i) * sizeof(*lens));
	lens[i] = L;
	(*n)++;
}

/*
 * The shortest length from ABBREV_MIN_LEN whose chance among n IDs stays
 * below VERDICT_P and where nothing was measured colliding.
 */
static unsigned shortest_safe(double n, const size_t *prefixes, unsigned hexsz)
{
	for (unsigned L = ABBREV_MIN_LEN; L <= hexsz; L++)
		if (policy_p_collision(n, L) < VERDICT_P && !(prefixes && prefixes[L]))
			return L;
	return hexsz;
}

int verdict_compute(verdict *v, const policy_input *in, size_t nin, const unsigned *extra,
		    size_t nextra, unsigned hexsz, const policy_growth *g, int growth_source,
		    double now, const int64_t *times, size_t ntimes, uint64_t commits)
{
	static const unsigned quote[] = VERDICT_QUOTE_LENS;
	unsigned lens[POLICY_MAX_LENGTHS];
	size_t nlens = 0;
	int grown;

	memset(v, 0, sizeof(*v));
	if (hexsz > ABBREV_MAX_HEXSZ || hexsz < ABBREV_MIN_LEN ||
	    nextra + 1 + sizeof(quote) / sizeof(*quote) > POLICY_MAX_LENGTHS)
		return -1;
	for (size_t k = 0; k < nin; k++)
		if (!strcmp(in[k].name, "all"))
			v->git_objects = in[k].n;
	v->git_auto = model_git_auto_abbrev(v->git_objects);
	v->git_next = model_git_auto_next(v->git_objects);
	if (v->git_auto <= hexsz)
		add_length(lens, &nlens, v->git_auto);
	for (size_t i = 0; i < sizeof(quote) / sizeof(*quote); i++)
		if (quote[i] <= hexsz)
			add_length(lens, &nlens, quote[i]);
	for (size_t i = 0; i < nextra; i++) {
		if (extra[i] < ABBREV_MIN_LEN || extra[i] > hexsz)
			return -1;
		add_length(lens, &nlens, extra[i]);
	}
	if (policy_compute(&v->pol, in, nin, lens, nlens, g, growth_source, now,
			   POLICY_DEFAULT_HORIZON, times, ntimes, commits))
		return -1;
	v->years_index = -1;
	for (int y = 0; y < POLICY_NYEARS; y++)
		if (v->pol.years[y] == VERDICT_YEARS)
			v->years_index = y;
	grown = v->pol.growth.kind != POLICY_GROWTH_NONE && v->years_index >= 0;
	for (size_t k = 0; k < v->pol.nsets; k++)
		for (size_t i = 0; i < v->pol.nlengths; i++)
			v->concern[k][i] = verdict_concern_of(&v->pol.sets[k].rows[i], grown,
							      v->years_index);
	v->suggest_grown = grown;
	for (size_t k = 0; k < nin; k++) {
		const policy_set *s = &v->pol.sets[k];
		double n = grown ? s->n_at[v->years_index] : (double)s->n;
		unsigned L = shortest_safe(n, in[k].prefixes, hexsz);

		/* never fewer chars than git picks itself: a core.abbrev below
		   it would shorten what git prints today */
		if (L < v->git_auto)
			L = v->git_auto;
		if (!strcmp(in[k].name, "all"))
			v->suggest_abbrev = L;
		else if (!strcmp(in[k].name, "commit"))
			v->suggest_commit = L;
	}
	return 0;
}
