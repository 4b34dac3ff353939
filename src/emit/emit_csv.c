/*
 * emit_csv.c - the report and the model as CSV for spreadsheets and
 * scripts: a header row, then one row per length, one column per set and
 * measure.  Report:
 *
 *	length,all_objects,all_prefixes,all_expected_prefixes,commit_objects,
 *	...,commit-ish_objects,...,tag_expected_prefixes,commit_vs_other,repository,
 *	reachable_from,refs_walked,missing_objects
 *
 * from length 4 to the first length where every set (and commit vs
 * other) is 0; "expected" is the birthday model's value for as many
 * random IDs.  The repository column repeats on every row, so that runs
 * of several repositories can be concatenated into one table; so do the
 * last three, what --reachable walked (reachable_from: the ref patterns
 * joined by spaces, refs_walked, missing_objects), empty without it.
 * Model: length,<set>_expected_pairs,<set>_p_collision,... per set.
 * History: one row per length from 4 to the projected ones: whether and
 * when two commits first shared it (unix time, ISO date, commits then,
 * the pair), the model's expectation and P (by then if collided, among
 * all commits now if not), and the projected years for 1% and 50%.
 * Fields are quoted only where RFC 4180 needs it (csv.h).
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "emit.h"
#include "emit_parts.h"
#include "fmt.h"

/* Column order of the sets: all objects first, then the types. */
static const int column_sets[ABBREV_SET_COUNT] = {
	ABBREV_SET_ALL, ABBREV_SET_COMMIT, ABBREV_SET_COMMITISH, ABBREV_SET_TREE, ABBREV_SET_BLOB,
	ABBREV_SET_TAG
};

/* A real in the shortest form that keeps 10 significant digits. */
static void real_field(FILE *out, double v)
{
	char buf[40];

	snprintf(buf, sizeof(buf), "%.10g", v);
	csv_field(out, buf, 0);
}

static void count_field(FILE *out, unsigned long long v, int first)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%llu", v);
	csv_field(out, buf, first);
}

/* The repositories, "a + b", or "" (caller frees). */
static char *repos_joined(const char *const *repos, size_t n)
{
	size_t len = 1;
	char *s;

	for (size_t i = 0; i < n; i++)
		len += strlen(repos[i]) + 3;
	s = malloc(len);
	if (!s)
		return NULL;
	s[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		if (i)
			strcat(s, " + ");
		strcat(s, repos[i]);
	}
	return s;
}

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* Header fields: names[0..n), the first of the record when `first`. */
static void names_fields(FILE *out, const char *const *names, size_t n, int first)
{
	for (size_t i = 0; i < n; i++)
		csv_field(out, names[i], first && !i);
}

/* Header fields of one set's columns: "<set>_<measure>" for each measure. */
static void set_fields(FILE *out, const char *set, const char *const *measures, size_t n)
{
	char name[64];

	for (size_t m = 0; m < n; m++) {
		snprintf(name, sizeof(name), "%s_%s", set, measures[m]);
		csv_field(out, name, 0);
	}
}

/*
 * A date as a decimal year in the zone tz (a commit's committer's for a
 * count reached at that commit, 0 for a projected one); "never"; "" when
 * there is none.
 */
static void year_field(FILE *out, double t, int tz, int valid)
{
	char buf[40];

	if (!valid)
		buf[0] = '\0';
	else if (!isfinite(t))
		snprintf(buf, sizeof(buf), "never");
	else
		snprintf(buf, sizeof(buf), "%.2f", projection_year(t + 60.0 * tz));
	csv_field(out, buf, 0);
}

static const char *const when_states[] = {
	[POLICY_WHEN_UNKNOWN] = "unknown", [POLICY_WHEN_PASSED] = "passed",
	[POLICY_WHEN_FUTURE] = "future", [POLICY_WHEN_BEYOND] = "beyond"
};

/* A real, or "" for NAN (nothing to say). */
static void real_or_empty(FILE *out, double v)
{
	if (isnan(v))
		csv_field(out, "", 0);
	else
		real_field(out, v);
}

static void when_fields(FILE *out, const policy_when *w)
{
	real_field(out, w->capacity);
	csv_field(out, when_states[w->state], 0);
	year_field(out, w->time, w->tz, !isnan(w->time));
}

/*
 * The report's verdict columns, beside its counts: per set of the verdict
 * "<set>_p_now", the 1% columns as policy's ("<set>_capacity_p01",
 * "<set>_p01_state", "<set>_p01_year") and "<set>_concern" (empty on a
 * length the verdict does not answer), then git_length (1 on git's own
 * length) and the suggested core.abbrev and abbrev.minLength.
 */
static const char *const verdict_measures[] = {
	"p_now", "capacity_p01", "p01_state", "p01_year", "concern"
};
static const char *const verdict_tail[] = {
	"git_length", "suggest_core_abbrev", "suggest_min_length"
};

static void verdict_header(FILE *out, const verdict *v)
{
	for (size_t k = 0; k < v->pol.nsets; k++)
		set_fields(out, v->pol.sets[k].name, verdict_measures, NELEM(verdict_measures));
	names_fields(out, verdict_tail, NELEM(verdict_tail), 0);
}

static void verdict_fields(FILE *out, const verdict *v, unsigned L)
{
	size_t i = 0;

	while (i < v->pol.nlengths && v->pol.lengths[i] != L)
		i++;
	for (size_t k = 0; k < v->pol.nsets; k++) {
		const policy_row *row;

		if (i == v->pol.nlengths) {
			for (size_t m = 0; m < NELEM(verdict_measures); m++)
				csv_field(out, "", 0);
			continue;
		}
		row = &v->pol.sets[k].rows[i];
		real_field(out, row->p_now);
		when_fields(out, &row->p01);
		csv_field(out, verdict_concern_name(v->concern[k][i]), 0);
	}
	count_field(out, L == v->git_auto, 0);
	count_field(out, v->suggest_abbrev, 0);
	count_field(out, v->suggest_commit, 0);
}

static int report_csv(FILE *out, const stats_report *r)
{
	static const char *const measures[] = { "objects", "prefixes", "expected_prefixes" };
	static const char *const tail[] = {
		"commit_vs_other", "repository", "reachable_from", "refs_walked", "missing_objects"
	};
	unsigned last = r->cvo_last_len;
	char patterns[4096], *repos = repos_joined(r->repos, r->nrepos);

	if (!repos)
		return -1;
	for (int c = 0; c < ABBREV_SET_COUNT; c++)
		if (r->sets[column_sets[c]].last_len > last)
			last = r->sets[column_sets[c]].last_len;
	/* with a verdict, the rows reach its longest length (12, 16...) */
	if (r->verdict)
		for (size_t i = 0; i < r->verdict->pol.nlengths; i++)
			if (r->verdict->pol.lengths[i] > last)
				last = r->verdict->pol.lengths[i];

	csv_field(out, "length", 1);
	for (int c = 0; c < ABBREV_SET_COUNT; c++)
		set_fields(out, idset_name(column_sets[c]), measures, NELEM(measures));
	names_fields(out, tail, NELEM(tail), 0);
	if (r->verdict)
		verdict_header(out, r->verdict);
	csv_end_record(out);

	emit_reach_patterns(patterns, sizeof(patterns), r->reach, " ");
	for (unsigned L = ABBREV_MIN_LEN; L <= last; L++) {
		count_field(out, L, 1);
		for (int c = 0; c < ABBREV_SET_COUNT; c++) {
			const stats_set *st = &r->sets[column_sets[c]];

			count_field(out, st->objects[L], 0);
			count_field(out, st->prefixes[L], 0);
			real_field(out, st->model[L].expected_prefixes);
		}
		count_field(out, L <= r->cvo_last_len ? r->cvo[L] : 0, 0);
		csv_field(out, repos, 0);
		/* --reachable: the ref patterns and counts; empty fields without */
		csv_field(out, patterns, 0);
		if (r->reach) {
			count_field(out, r->reach->refs, 0);
			count_field(out, r->reach->missing, 0);
		} else {
			csv_field(out, "", 0);
			csv_field(out, "", 0);
		}
		if (r->verdict)
			verdict_fields(out, r->verdict, L);
		csv_end_record(out);
	}
	free(repos);
	return ferror(out) ? -1 : 0;
}

static void capacity_field(FILE *out, uint64_t exact, int saturated, double real)
{
	if (saturated)
		real_field(out, real);
	else
		count_field(out, exact, 0);
}

static int model_csv(FILE *out, const model_results *r)
{
	static const char *const measures[] = {
		"expected_pairs", "p_collision", "expected_objects", "expected_prefixes",
		"capacity_p01", "capacity_p50"
	};

	csv_field(out, "length", 1);
	for (size_t i = 0; i < r->nsets; i++)
		set_fields(out, r->sets[i].name, measures, NELEM(measures));
	csv_end_record(out);
	for (unsigned L = r->from; L <= r->to; L++) {
		count_field(out, L, 1);
		for (size_t i = 0; i < r->nsets; i++) {
			const model_row *row = &r->sets[i].rows[L];

			real_field(out, row->expected_pairs);
			real_field(out, row->p_collision);
			real_field(out, row->expected_objects);
			real_field(out, row->expected_prefixes);
			capacity_field(out, row->cap_low, row->cap_low_sat, row->cap_low_real);
			capacity_field(out, row->cap_high, row->cap_high_sat, row->cap_high_real);
		}
		csv_end_record(out);
	}
	return ferror(out) ? -1 : 0;
}

/* ---- history ------------------------------------------------------------ */


static int history_csv(FILE *out, const history_report *r)
{
	static const char *const header[] = {
		"length", "collided", "first_collision", "date", "commits_then", "pair_older",
		"pair_newer", "shared", "expected_commits", "expected_date", "p",
		"commits_p01_year", "commits_p50_year", "objects_p01_year", "objects_p50_year",
		"repository"
	};
	const history_results *h = r->h;
	const projection_results *p = r->p && r->p->status == PROJECTION_OK ? r->p : NULL;
	unsigned maxL = (unsigned)(2 * h->rawsz);
	unsigned to = h->longest + 1 > HISTORY_SHOW_TO ? h->longest + 1 : HISTORY_SHOW_TO;
	char buf[ABBREV_MAX_HEXSZ + 1], *repos = repos_joined(r->repos, r->nrepos);

	if (!repos)
		return -1;
	if (to > maxL)
		to = maxL;
	names_fields(out, header, NELEM(header), 1);
	csv_end_record(out);
	for (unsigned L = ABBREV_MIN_LEN; L <= to; L++) {
		const history_first *f = &h->first[L];
		const history_model *m = &h->model[L];
		int collided = L <= h->longest, projected = p && L >= PROJECTION_FROM &&
							    L <= PROJECTION_TO;

		count_field(out, L, 1);
		count_field(out, (unsigned long long)collided, 0);
		if (collided) {
			snprintf(buf, sizeof(buf), "%lld", (long long)f->time);
			csv_field(out, buf, 0);
			fmt_iso_date(buf, sizeof(buf), f->time, f->pair_tz[1]);
			csv_field(out, buf, 0);
			count_field(out, f->commits_then, 0);
			hexid_fmt(buf, f->pair[0], h->rawsz);
			csv_field(out, buf, 0);
			hexid_fmt(buf, f->pair[1], h->rawsz);
			csv_field(out, buf, 0);
			count_field(out, f->shared, 0);
		} else {
			for (int i = 0; i < 6; i++)
				csv_field(out, "", 0);
		}
		real_field(out, m->expected_commits);
		buf[0] = '\0';
		if (m->expected_reached)
			fmt_iso_date(buf, sizeof(buf), m->expected_time, m->expected_tz);
		csv_field(out, buf, 0);
		real_field(out, m->p);
		year_field(out, projected ? p->p01[L].commits_time : 0, projected ? p->p01[L].commits_tz : 0,
			   projected);
		year_field(out, projected ? p->p50[L].commits_time : 0, projected ? p->p50[L].commits_tz : 0,
			   projected);
		year_field(out, projected ? p->p01[L].objects_time : 0, projected ? p->p01[L].objects_tz : 0,
			   projected);
		year_field(out, projected ? p->p50[L].objects_time : 0, projected ? p->p50[L].objects_tz : 0,
			   projected);
		csv_field(out, repos, 0);
		csv_end_record(out);
	}
	free(repos);
	return ferror(out) ? -1 : 0;
}

/* ---- policy ------------------------------------------------------------ */

/*
 * Policy's rows, one per set and length; with a verdict v (whose policy r
 * is), four more columns: git_length (1 on git's own length), concern,
 * and the suggested core.abbrev and abbrev.minLength on every row.
 */
static int policy_rows_csv(FILE *out, const policy_results *r, const char *repos,
			   const verdict *v)
{
	static const char *const head[] = {
		"set", "count", "length", "colliding_prefixes", "expected_prefixes", "expected_pairs",
		"p_now"
	};
	static const char *const tail[] = {
		"capacity_p01", "p01_state", "p01_year", "capacity_p50", "p50_state", "p50_year",
		"repository"
	};
	static const char *const check_tail[] = {
		"git_length", "concern", "suggest_core_abbrev", "suggest_min_length"
	};
	char name[32];

	names_fields(out, head, NELEM(head), 1);
	for (int y = 0; y < POLICY_NYEARS; y++) {
		snprintf(name, sizeof(name), "count_%gy", r->years[y]);
		csv_field(out, name, 0);
		snprintf(name, sizeof(name), "p_%gy", r->years[y]);
		csv_field(out, name, 0);
	}
	names_fields(out, tail, NELEM(tail), 0);
	if (v)
		names_fields(out, check_tail, NELEM(check_tail), 0);
	csv_end_record(out);
	for (size_t k = 0; k < r->nsets; k++) {
		const policy_set *s = &r->sets[k];

		for (size_t i = 0; i < r->nlengths; i++) {
			const policy_row *row = &s->rows[i];

			csv_field(out, s->name, 1);
			count_field(out, s->n, 0);
			count_field(out, row->length, 0);
			if (row->measured)
				count_field(out, row->prefixes, 0);
			else
				csv_field(out, "", 0);
			real_field(out, row->expected_prefixes);
			real_field(out, row->expected_pairs);
			real_field(out, row->p_now);
			for (int y = 0; y < POLICY_NYEARS; y++) {
				real_or_empty(out, s->n_at[y]);
				real_or_empty(out, row->p_at[y]);
			}
			when_fields(out, &row->p01);
			when_fields(out, &row->p50);
			csv_field(out, repos, 0);
			if (v) {
				count_field(out, row->length == v->git_auto, 0);
				csv_field(out, verdict_concern_name(v->concern[k][i]), 0);
				count_field(out, v->suggest_abbrev, 0);
				count_field(out, v->suggest_commit, 0);
			}
			csv_end_record(out);
		}
	}
	return ferror(out) ? -1 : 0;
}

static int policy_csv(FILE *out, const policy_report *p)
{
	char *repos = repos_joined(p->repos, p->nrepos);
	int rc;

	if (!repos)
		return -1;
	rc = policy_rows_csv(out, p->r, repos, NULL);
	free(repos);
	return rc;
}

/* check --format=csv: its verdict, policy's columns and the verdict's (the answer is the exit status) */
static int check_csv(FILE *out, const stats_check *c)
{
	char *repos;
	int rc;

	if (!c->verdict)
		return ferror(out) ? -1 : 0;
	if (!(repos = repos_joined(c->repos, c->nrepos)))
		return -1;
	rc = policy_rows_csv(out, &c->verdict->pol, repos, c->verdict);
	free(repos);
	return rc;
}

const emit_format emit_format_csv = {
	.name = "csv",
	.report = report_csv,
	.check = check_csv,
	.model = model_csv,
	.history = history_csv,
	.policy = policy_csv,
};
