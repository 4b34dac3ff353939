/*
 * emit_json.c - the report as JSON, with the keys docs/json.md promises.
 *
 * Built with jansson, which keeps keys in insertion order, so the output
 * is stable for golden tests.  Keys beyond the contract ("longest") come
 * after the contract's own.  Every table by length runs from 4 through
 * 16 and at least one length past the set's last collision, so a policy
 * script can read lengths 12 and 16 of any set.
 */
#include <config.h>

#include "emit.h"

#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "emit_parts.h"
#include "emit_verify.h"
#include "fmt.h"
#include "idline.h"
#include "utf8.h"

/*
 * Write the document root (NULL: it could not be built) and a newline;
 * take root.  Into memory first: jansson's dump allocates as it goes, and
 * out of memory halfway it would leave half a document on the stream.
 */
/*
 * A document with "schema_version" as its first key, then root's keys in
 * their order (jansson writes keys in insertion order); takes root.
 */
static json_t *versioned(json_t *root)
{
	json_t *doc = root ? json_pack("{s:i}", "schema_version", JSON_SCHEMA_VERSION) : NULL;

	if (doc && json_object_update(doc, root)) {
		json_decref(doc);
		doc = NULL;
	}
	json_decref(root);
	return doc;
}

static int dump(FILE *out, json_t *root, size_t flags)
{
	char *text;
	int rc;

	if (!root)
		return -1;
	text = json_dumps(root, flags);
	json_decref(root);
	if (!text)
		return -1;
	rc = fputs(text, out) == EOF || fputc('\n', out) == EOF;
	free(text);
	return rc || ferror(out) ? -1 : 0;
}

#define JSON_LENGTHS_TO 16 /* every table reaches this length at least */

/* The last length of a table whose first all-zero length is `last_len`. */
static unsigned table_end(unsigned last_len, unsigned hexsz)
{
	unsigned end = last_len > JSON_LENGTHS_TO ? last_len : JSON_LENGTHS_TO;

	return end < hexsz ? end : hexsz;
}

/* {"4": {"objects": n, "prefixes": m}, ...} */
static json_t *lengths_json(const stats_set *st)
{
	json_t *o = json_object();
	char key[8];

	for (unsigned L = ABBREV_MIN_LEN; L <= table_end(st->last_len, st->hexsz); L++) {
		snprintf(key, sizeof(key), "%u", L);
		json_object_set_new(o, key, json_pack("{s:I,s:I}",
			"objects", (json_int_t)st->objects[L],
			"prefixes", (json_int_t)st->prefixes[L]));
	}
	return o;
}

/* What as many random IDs would give at each length of the table. */
static json_t *expect_json(const stats_set *st)
{
	json_t *o = json_object();
	char key[8];

	for (unsigned L = ABBREV_MIN_LEN; L <= table_end(st->last_len, st->hexsz); L++) {
		snprintf(key, sizeof(key), "%u", L);
		double e = st->model[L].expected_prefixes;

		json_object_set_new(o, key, json_pack("{s:f,s:f,s:f,s:f,s:f}",
			"expected_objects", st->model[L].expected_objects,
			"expected_prefixes", e,
			"expected_pairs", st->model[L].expected_pairs,
			"p_collision", st->model[L].p_collision,
			/* how likely random IDs give at least the measured prefixes */
			"p_prefixes_or_more", st->p_prefixes[L]));
	}
	return o;
}

static json_t *members_json(const stats_set *st, size_t g, size_t rawsz)
{
	json_t *members = json_array();
	char hex[ABBREV_MAX_HEXSZ + 1];

	for (size_t i = 0; i < st->groups[g].n; i++) {
		size_t m = st->groups[g].first + i;
		json_t *o;

		hexid_fmt(hex, st->member_ids + m * rawsz, rawsz);
		o = json_pack("{s:s,s:s}", "id", hex, "type", hexid_type_name(st->member_types[m]));
		if (st->member_desc && st->member_desc[m])
			json_object_set_new(o, "description", utf8_json(st->member_desc[m]));
		json_array_append_new(members, o);
	}
	return members;
}

static json_t *groups_json(const stats_set *st, size_t rawsz)
{
	json_t *groups = json_array();

	for (size_t g = 0; g < st->ngroups; g++)
		json_array_append_new(groups, members_json(st, g, rawsz));
	return groups;
}

static json_t *set_json(const stats_set *st, size_t rawsz)
{
	/* an empty set has no min unique length */
	json_t *o = json_pack("{s:I,s:o}", "count", (json_int_t)st->count, "min_unique_length",
			      st->count ? json_integer((json_int_t)st->min_unique) : json_null());

	json_object_set_new(o, "lengths", lengths_json(st));
	json_object_set_new(o, "model", expect_json(st));
	json_object_set_new(o, "longest", json_pack("{s:I,s:f,s:b,s:o}",
		"length", (json_int_t)st->longest, "p_random", st->p_longest,
		"improbable", st->improbable, "groups", groups_json(st, rawsz)));
	return o;
}

/* {"refs": [patterns], "refs_walked": n, "missing": m, "bad_refs": k}, or null */
static json_t *reach_json(const abbrev_reach *reach)
{
	json_t *refs;

	if (!reach)
		return json_null();
	refs = json_array();
	for (size_t i = 0; i < reach->npatterns; i++)
		json_array_append_new(refs, utf8_json(reach->patterns[i]));
	return json_pack("{s:o,s:I,s:I,s:I}", "refs", refs,
			 "refs_walked", (json_int_t)reach->refs,
			 "missing", (json_int_t)reach->missing,
			 "bad_refs", (json_int_t)reach->bad_refs);
}

/* What ID streams held besides objects (`git abbrev ids`). */
static json_t *input_json(const stats_input *in)
{
	json_t *skipped = json_object();

	for (int k = 0; k < STATS_NOTHER; k++)
		json_object_set_new(skipped, idline_other_name(k), json_integer((json_int_t)in->other[k]));
	/* an ID list does not say which tags peel to a commit: commit-ish is the commits */
	return json_pack("{s:I,s:I,s:I,s:o,s:b}", "lines", (json_int_t)in->lines,
			 "bad_lines", (json_int_t)in->bad, "duplicates", (json_int_t)in->duplicates,
			 "skipped", skipped, "tags_peeled", 0);
}

static json_t *verdict_json(const verdict *v);

static int report_json(FILE *out, const stats_report *r)
{
	json_t *root, *repos, *types, *cvo;
	char key[8];

	root = json_object();
	json_object_set_new(root, "schema_version", json_integer(JSON_SCHEMA_VERSION));
	json_object_set_new(root, "objects",
			    json_integer((json_int_t)r->sets[ABBREV_SET_ALL].count));
	json_object_set_new(root, "hash", json_string(r->hash ? r->hash : "unknown"));
	repos = json_array();
	for (size_t i = 0; i < r->nrepos; i++)
		json_array_append_new(repos, utf8_json(r->repos[i]));
	json_object_set_new(root, "repositories", repos);
	json_object_set_new(root, "shallow", json_boolean(r->lacks & ABBREV_LACKS_SHALLOW));
	json_object_set_new(root, "partial", json_boolean(r->lacks & ABBREV_LACKS_PARTIAL));
	json_object_set_new(root, "reachable", reach_json(r->reach));
	if (!shard_is_all(r->shard)) {
		char sh[16];

		snprintf(sh, sizeof(sh), "%u/%u", r->shard.k, r->shard.n);
		json_object_set_new(root, "shard", json_string(sh));
	}
	if (r->input)
		json_object_set_new(root, "input", input_json(r->input));

	types = json_object();
	for (int set = ABBREV_SET_COMMIT; set <= ABBREV_SET_TAG; set++)
		json_object_set_new(types, idset_name(set), set_json(&r->sets[set], r->rawsz));
	json_object_set_new(types, idset_name(ABBREV_SET_COMMITISH),
			    set_json(&r->sets[ABBREV_SET_COMMITISH], r->rawsz));
	json_object_set_new(types, "all", set_json(&r->sets[ABBREV_SET_ALL], r->rawsz));
	json_object_set_new(root, "types", types);

	cvo = json_object();
	for (unsigned L = ABBREV_MIN_LEN; L <= table_end(r->cvo_last_len, (unsigned)(2 * r->rawsz));
	     L++) {
		snprintf(key, sizeof(key), "%u", L);
		json_object_set_new(cvo, key, json_integer((json_int_t)r->cvo[L]));
	}
	json_object_set_new(root, "commit_vs_other", cvo);
	json_object_set_new(root, "git_auto_abbrev", json_integer(r->git_auto_abbrev));
	if (r->verdict)
		json_object_set_new(root, "verdict", verdict_json(r->verdict));

	return dump(out, root, JSON_INDENT(2));
}

static int check_json(FILE *out, const stats_check *c)
{
	const stats_set *f = &c->found;
	json_t *root, *groups, *repos;
	char hex[ABBREV_MAX_HEXSZ + 1];

	repos = json_array();
	for (size_t i = 0; i < c->nrepos; i++)
		json_array_append_new(repos, utf8_json(c->repos[i]));
	groups = json_array();
	for (size_t g = 0; g < f->ngroups; g++) {
		const stats_group *gr = &f->groups[g];

		hexid_fmt(hex, f->member_ids + gr->first * c->rawsz, c->rawsz);
		hex[c->length] = '\0';
		json_array_append_new(groups, json_pack("{s:s,s:I,s:f,s:b,s:o}",
			"prefix", hex, "shared", (json_int_t)gr->len, "p_random", gr->p_random,
			"improbable", gr->improbable, "members", members_json(f, g, c->rawsz)));
	}
	root = json_pack("{s:i,s:I,s:s,s:s,s:o,s:b,s:b,s:I,s:b,s:I,s:I,s:o}",
		"schema_version", JSON_SCHEMA_VERSION,
		"length", (json_int_t)c->length,
		"type", c->set == ABBREV_SET_ALL ? "all" : idset_name(c->set),
		"against", c->against_all ? "all" : "same",
		"repositories", repos,
		"shallow", (c->lacks & ABBREV_LACKS_SHALLOW) != 0,
		"partial", (c->lacks & ABBREV_LACKS_PARTIAL) != 0,
		"count", (json_int_t)f->count,
		"collide", f->ngroups > 0,
		"colliding_objects", (json_int_t)f->objects[c->length],
		"colliding_prefixes", (json_int_t)f->prefixes[c->length],
		"groups", groups);
	json_object_set_new(root, "reachable", reach_json(c->reach));
	if (c->verdict)
		json_object_set_new(root, "verdict", verdict_json(c->verdict));
	return dump(out, root, JSON_INDENT(2));
}

/* ---- model ------------------------------------------------------------- */

#if JSON_INTEGER_IS_LONG_LONG
#define JSON_INT_MAX LLONG_MAX
#else
#define JSON_INT_MAX LONG_MAX
#endif

/* An exact count as a JSON integer, or as a real when it is past json_int_t. */
static json_t *count_json(uint64_t v)
{
	if (v > (uint64_t)JSON_INT_MAX)
		return json_real((double)v);
	return json_integer((json_int_t)v);
}

static json_t *capacity_json(uint64_t exact, int saturated, double real)
{
	return saturated ? json_real(real) : count_json(exact);
}

static json_t *model_set_json(const model_set *s, unsigned from, unsigned to)
{
	json_t *o = json_object(), *lengths = json_object(), *cap = json_object();
	char key[8];

	json_object_set_new(o, "objects", count_json(s->n));
	for (unsigned L = from; L <= to; L++) {
		const model_row *row = &s->rows[L];

		snprintf(key, sizeof(key), "%u", L);
		json_object_set_new(lengths, key, json_pack("{s:f,s:f,s:f,s:f}",
			"expected_pairs", row->expected_pairs,
			"p_collision", row->p_collision,
			"expected_objects", row->expected_objects,
			"expected_prefixes", row->expected_prefixes));
		json_object_set_new(cap, key, json_pack("{s:o,s:o}",
			"p01", capacity_json(row->cap_low, row->cap_low_sat, row->cap_low_real),
			"p50", capacity_json(row->cap_high, row->cap_high_sat, row->cap_high_real)));
	}
	json_object_set_new(o, "lengths", lengths);
	json_object_set_new(o, "capacity", cap);
	return o;
}

static int model_json(FILE *out, const model_results *r)
{
	json_t *root;

	if (r->nsets == 1 && !strcmp(r->sets[0].name, "all")) {
		root = model_set_json(&r->sets[0], r->from, r->to);
	} else {
		json_t *sets = json_object();

		for (size_t i = 0; i < r->nsets; i++)
			json_object_set_new(sets, r->sets[i].name,
					    model_set_json(&r->sets[i], r->from, r->to));
		root = json_pack("{s:o}", "sets", sets);
	}
	return dump(out, versioned(root), JSON_INDENT(2) | JSON_REAL_PRECISION(15));
}

/* ---- history ----------------------------------------------------------- */

/*
 * A date in ISO 8601 with a T and its zone (a commit's committer's, as
 * git's %cI; "Z" for UTC), or null outside years 0..9999.
 */
static json_t *date_json(int64_t t, int tz)
{
	char buf[32];

	fmt_iso_date(buf, sizeof(buf), t, tz);
	return buf[0] ? json_string(buf) : json_null();
}

/*
 * A date as a decimal year in the zone tz (a commit's committer's, for a
 * count reached at that commit; 0 for a projected date), or null for never.
 */
static json_t *year_json(double t, int tz)
{
	return isfinite(t) ? json_real(projection_year(t + 60.0 * tz)) : json_null();
}

static json_t *when_json(const projection_when *w)
{
	return json_pack("{s:I,s:o,s:b,s:o,s:b}", "capacity", (json_int_t)w->capacity,
			 "commits_year", year_json(w->commits_time, w->commits_tz),
			 "commits_reached", w->commits_reached,
			 "objects_year", year_json(w->objects_time, w->objects_tz),
			 "objects_reached", w->objects_reached);
}

static json_t *projection_json(const history_report *r)
{
	const projection_results *p = r->p;
	json_t *o, *lengths = json_object();
	char key[8], quote[512];

	if (!p || p->status != PROJECTION_OK) {
		json_decref(lengths);
		return json_null();
	}
	for (unsigned L = PROJECTION_FROM; L <= PROJECTION_TO; L++) {
		snprintf(key, sizeof(key), "%u", L);
		json_object_set_new(lengths, key, json_pack("{s:o,s:o}", "p01", when_json(&p->p01[L]),
							     "p50", when_json(&p->p50[L])));
	}
	emit_history_quote(quote, sizeof(quote), r);
	o = json_pack("{s:s,s:{s:f,s:f,s:I,s:I,s:I}}",
		      "fit", projection_fit_name(p->fits[p->chosen].kind),
		      "window", "years", p->window_years, "span_years", emit_window_span(p),
		      "from", (json_int_t)p->window_start, "to", (json_int_t)p->window_end,
		      "samples", (json_int_t)p->nsamples);
	/* every year and count below counts from the window's end, as policy's */
	json_object_set_new(o, "projected_from", json_integer((json_int_t)p->window_end));
	json_object_set_new(o, "fits", json_pack("{s:{s:f,s:f,s:f},s:{s:f,s:f}}",
		"exponential", "rate_per_year", p->fits[0].growth,
		"annual_growth", expm1(p->fits[0].growth),
		"rms_relative_error", p->fits[0].rms_rel,
		"linear", "commits_per_year", p->fits[1].growth,
		"rms_relative_error", p->fits[1].rms_rel));
	json_object_set_new(o, "other_fit", json_pack("{s:s,s:o,s:o}",
		"fit", projection_fit_name(p->fits[!p->chosen].kind),
		"commits_year", year_json(p->other_quote.commits_time, p->other_quote.commits_tz),
		"objects_year", year_json(p->other_quote.objects_time, p->other_quote.objects_tz)));
	json_object_set_new(o, "objects_per_commit", json_real(p->objects_per_commit));
	json_object_set_new(o, "lengths", lengths);
	json_object_set_new(o, "target_p", json_real(p->target_p));
	json_object_set_new(o, "horizon_years", json_real(p->horizon_years));
	json_object_set_new(o, "horizon_year", year_json(p->horizon_time, 0));
	json_object_set_new(o, "commits_at_horizon", json_real(p->commits_at_horizon));
	json_object_set_new(o, "objects_at_horizon", json_real(p->objects_at_horizon));
	json_object_set_new(o, "safe_length", json_pack("{s:I,s:I}",
		"commit", (json_int_t)p->safe_commit_len, "all", (json_int_t)p->safe_all_len));
	json_object_set_new(o, "quote", json_string(quote));
	return o;
}

/* history --backtest: every cut-off, prediction and count (docs/json.md) */
static json_t *backtest_json(const backtest_results *b)
{
	json_t *lens = json_array(), *cuts = json_array(), *preds = json_array();
	json_t *by_len = json_object();
	char key[8];

	for (size_t j = 0; j < b->nlens; j++) {
		json_array_append_new(lens, json_integer(b->lens[j]));
		snprintf(key, sizeof(key), "%u", b->lens[j]);
		json_object_set_new(by_len, key, json_pack("{s:I,s:I}", "hits",
			(json_int_t)b->len_hits[j], "predictions", (json_int_t)b->len_cells[j]));
	}
	for (size_t c = 0; c + 1 < b->ndates; c++) {
		const backtest_cut *k = &b->cuts[c];

		json_array_append_new(cuts, json_pack("{s:I,s:o,s:I,s:o,s:o}",
			"time", (json_int_t)b->dates[c], "date", date_json(b->dates[c], b->zone),
			"commits", (json_int_t)k->commits,
			"fit", k->ok ? json_string(projection_fit_name(k->kind)) : json_null(),
			"growth", k->ok ? json_real(k->growth) : json_null()));
	}
	for (size_t i = 0; i < b->nrows; i++) {
		const backtest_row *r = &b->rows[i];
		json_t *cells = json_object();

		for (size_t j = 0; j < b->nlens; j++) {
			const backtest_cell *x = &r->len[j];

			snprintf(key, sizeof(key), "%u", b->lens[j]);
			json_object_set_new(cells, key, json_pack("{s:f,s:I,s:I,s:I,s:b}",
				"expected_prefixes", x->expected, "low", (json_int_t)x->lo,
				"high", (json_int_t)x->hi, "colliding_prefixes", (json_int_t)x->measured,
				"hit", x->hit));
		}
		json_array_append_new(preds, json_pack("{s:I,s:I,s:o,s:f,s:I,s:o}",
			"cutoff", (json_int_t)b->dates[r->cut], "time", (json_int_t)b->dates[r->at],
			"date", date_json(b->dates[r->at], b->zone), "commits_fitted", r->commits_fit,
			"commits", (json_int_t)r->commits, "lengths", cells));
	}
	return json_pack("{s:f,s:f,s:s,s:f,s:I,s:o,s:o,s:o,s:I,s:I,s:o}",
		"step_years", b->step_years, "window_years", b->window_years,
		"fit", b->fit == PROJECTION_FIT_AUTO ? "auto" : projection_fit_name(b->fit),
		"interval", 1 - 2 * BACKTEST_Q, "end", (json_int_t)(b->ndates ? b->dates[b->ndates - 1] : 0),
		"lengths", lens, "cutoffs", cuts, "predictions", preds,
		"hits", (json_int_t)b->hits, "total", (json_int_t)b->cells, "by_length", by_len);
}

static int history_json(FILE *out, const history_report *r)
{
	const history_results *h = r->h;
	json_t *root, *repos = json_array(), *lengths = json_object(), *not_yet = json_object();
	char key[8], a[ABBREV_MAX_HEXSZ + 1], b[ABBREV_MAX_HEXSZ + 1], why[256] = "";
	unsigned maxL = (unsigned)(2 * h->rawsz), to;

	for (size_t i = 0; i < r->nrepos; i++)
		json_array_append_new(repos, utf8_json(r->repos[i]));
	for (unsigned L = ABBREV_MIN_LEN; L <= h->longest; L++) {
		const history_first *f = &h->first[L];
		const history_model *m = &h->model[L];

		snprintf(key, sizeof(key), "%u", L);
		hexid_fmt(a, f->pair[0], h->rawsz);
		hexid_fmt(b, f->pair[1], h->rawsz);
		json_object_set_new(lengths, key, json_pack("{s:I,s:o,s:I,s:[s,s],s:I,s:f,s:o,s:f}",
			"first_collision", (json_int_t)f->time, "date", date_json(f->time, f->pair_tz[1]),
			"commits_then", (json_int_t)f->commits_then, "pair", a, b,
			"shared", (json_int_t)f->shared,
			"expected_commits", m->expected_commits,
			"expected_date", m->expected_reached ? date_json(m->expected_time, m->expected_tz) : json_null(),
			"p_by_then", m->p));
	}
	to = HISTORY_SHOW_TO > h->longest + 1 ? HISTORY_SHOW_TO : h->longest + 1;
	for (unsigned L = h->longest + 1 < ABBREV_MIN_LEN ? ABBREV_MIN_LEN : h->longest + 1;
	     L <= to && L <= maxL; L++) {
		snprintf(key, sizeof(key), "%u", L);
		json_object_set_new(not_yet, key, json_pack("{s:f,s:f}",
			"expected_commits", h->model[L].expected_commits, "p_now", h->model[L].p));
	}
	if (r->p && r->p->status != PROJECTION_OK)
		emit_projection_none(why, sizeof(why), r->p);
	root = json_pack("{s:I,s:I,s:s,s:o,s:I,s:I,s:o,s:I,s:o,s:o,s:o}",
			 "commits", (json_int_t)h->commits, "objects", (json_int_t)r->objects,
			 "hash", hexid_hash_name(h->rawsz) ? hexid_hash_name(h->rawsz) : "unknown",
			 "repositories", repos,
			 "first_commit", (json_int_t)h->first_time,
			 "last_commit", (json_int_t)h->last_time,
			 "lengths", lengths,
			 "unique_from", (json_int_t)(h->longest + 1 < ABBREV_MIN_LEN ? ABBREV_MIN_LEN
									: h->longest + 1),
			 "not_yet", not_yet,
			 "projection", projection_json(r),
			 "no_projection", why[0] ? json_string(why) : json_null());
	if (root && r->bt)
		json_object_set_new(root, "backtest", backtest_json(r->bt));
	return dump(out, versioned(root), JSON_INDENT(2) | JSON_REAL_PRECISION(15));
}

/* ---- policy ------------------------------------------------------------ */

static const char *const policy_states[] = {
	[POLICY_WHEN_UNKNOWN] = "unknown", [POLICY_WHEN_PASSED] = "passed",
	[POLICY_WHEN_FUTURE] = "future", [POLICY_WHEN_BEYOND] = "beyond"
};

/* A real, or null where there is none (NAN) or it is not finite. */
static json_t *real_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *policy_when_json(const policy_when *w)
{
	return json_pack("{s:o,s:s,s:o,s:o}", "capacity", real_or_null(w->capacity),
			 "state", policy_states[w->state], "time", real_or_null(w->time),
			 "year", isfinite(w->time) ? year_json(w->time, w->tz) : json_null());
}

/* {"5": v[0], "10": v[1], "20": v[2]}, or null when there is no growth */
static json_t *by_years(const policy_results *r, const double *v)
{
	json_t *o;
	char key[16];

	if (r->growth.kind == POLICY_GROWTH_NONE)
		return json_null();
	o = json_object();
	for (int y = 0; y < POLICY_NYEARS; y++) {
		snprintf(key, sizeof(key), "%g", r->years[y]);
		json_object_set_new(o, key, real_or_null(v[y]));
	}
	return o;
}

static json_t *policy_growth_json(const policy_report *p)
{
	const policy_results *r = p->r;
	json_t *o, *fit = json_null();
	int exp = r->growth.kind == POLICY_GROWTH_EXP;

	if (r->growth.kind == POLICY_GROWTH_NONE)
		return json_null();
	if (p->fit) {
		const projection_fit *f = &p->fit->fits[p->fit->chosen];

		fit = json_pack("{s:I,s:I,s:f,s:f}", "from", (json_int_t)p->fit->window_start,
				"to", (json_int_t)p->fit->window_end,
				"rms_relative_error", f->rms_rel, "growth", f->growth);
	}
	o = json_pack("{s:s,s:s,s:f,s:o}",
		      "source", r->growth_source == POLICY_SOURCE_HISTORY ? "history" : "given",
		      "law", exp ? "exponential" : "linear", "rate_per_year", r->growth.rate,
		      "fit", fit);
	return o;
}

static int policy_json(FILE *out, const policy_report *p)
{
	const policy_results *r = p->r;
	json_t *root, *repos = json_array(), *sets = json_object(), *quotes = json_object();
	char key[16], quote[512];

	for (size_t i = 0; i < p->nrepos; i++)
		json_array_append_new(repos, utf8_json(p->repos[i]));
	for (size_t k = 0; k < r->nsets; k++) {
		const policy_set *s = &r->sets[k];
		json_t *lengths = json_object();

		for (size_t i = 0; i < r->nlengths; i++) {
			const policy_row *row = &s->rows[i];

			snprintf(key, sizeof(key), "%u", row->length);
			json_object_set_new(lengths, key, json_pack("{s:o,s:f,s:f,s:f,s:o,s:o,s:o}",
				"colliding_prefixes", row->measured ?
					json_integer((json_int_t)row->prefixes) : json_null(),
				"expected_prefixes", row->expected_prefixes,
				"expected_pairs", row->expected_pairs,
				"p_now", row->p_now,
				"p_in_years", by_years(r, row->p_at),
				"p01", policy_when_json(&row->p01),
				"p50", policy_when_json(&row->p50)));
		}
		json_object_set_new(sets, s->name, json_pack("{s:I,s:o,s:o}",
			"count", (json_int_t)s->n, "count_in_years", by_years(r, s->n_at),
			"lengths", lengths));
	}
	for (size_t i = 0; i < r->nlengths; i++) {
		snprintf(key, sizeof(key), "%u", r->lengths[i]);
		emit_policy_quote(quote, sizeof(quote), r, i);
		json_object_set_new(quotes, key, json_string(quote));
	}
	root = json_pack("{s:I,s:o,s:o,s:b,s:b,s:I,s:o,s:s,s:[f,f,f],s:f,s:o,s:o,s:o,s:o}",
			 "schema_version", (json_int_t)JSON_SCHEMA_VERSION,
			 "repositories", repos,
			 "hash", p->hash ? json_string(p->hash) : json_null(),
			 "shallow", (p->lacks & ABBREV_LACKS_SHALLOW) != 0,
			 "partial", (p->lacks & ABBREV_LACKS_PARTIAL) != 0,
			 "now", (json_int_t)r->now, "now_date", date_json((int64_t)r->now, p->now_zone),
			 "now_from", p->now_newest ? "newest commit" : "today",
			 "years", r->years[0], r->years[1], r->years[2],
			 "horizon_years", r->horizon_years,
			 "horizon_year", year_json(r->horizon_time, 0),
			 "growth", policy_growth_json(p),
			 "sets", sets, "quotes", quotes);
	if (p->bt)
		json_object_set_new(root, "backtest", backtest_json(p->bt));
	return dump(out, root, JSON_INDENT(2) | JSON_REAL_PRECISION(15));
}

/* ---- verdict ------------------------------------------------------------ */

static json_t *verdict_json(const verdict *v)
{
	const policy_results *r = &v->pol;
	json_t *lengths = json_object(), *growth = json_null();
	char key[16];
	int y = v->years_index;

	for (size_t i = 0; i < r->nlengths; i++) {
		json_t *sets = json_object();

		for (size_t k = 0; k < r->nsets; k++) {
			const policy_row *row = &r->sets[k].rows[i];

			json_object_set_new(sets, r->sets[k].name, json_pack(
				"{s:o,s:f,s:o,s:o,s:s}",
				"colliding_prefixes", row->measured ?
					json_integer((json_int_t)row->prefixes) : json_null(),
				"p_now", row->p_now,
				"p_in_years", y >= 0 ? real_or_null(row->p_at[y]) : json_null(),
				"p01", policy_when_json(&row->p01),
				"concern", verdict_concern_name(v->concern[k][i])));
		}
		snprintf(key, sizeof(key), "%u", r->lengths[i]);
		json_object_set_new(lengths, key, json_pack("{s:b,s:o}", "git_auto",
			r->lengths[i] == v->git_auto, "sets", sets));
	}
	if (r->growth.kind != POLICY_GROWTH_NONE)
		growth = json_pack("{s:s,s:f}", "kind", r->growth.kind == POLICY_GROWTH_EXP ?
				   "exponential" : "linear", "rate", r->growth.rate);
	return json_pack("{s:f,s:f,s:o,s:I,s:I,s:o,s:{s:I,s:I,s:f},s:o}",
		"years", VERDICT_YEARS, "p", VERDICT_P, "growth", growth,
		"git_auto_abbrev", (json_int_t)v->git_auto,
		"git_objects", (json_int_t)v->git_objects,
		"git_next_at", v->git_next ? json_integer((json_int_t)v->git_next) : json_null(),
		"suggest", "core_abbrev", (json_int_t)v->suggest_abbrev,
		"commit_length", (json_int_t)v->suggest_commit,
		"over_years", v->suggest_grown ? VERDICT_YEARS : 0.0,
		"lengths", lengths);
}

const emit_format emit_format_json = {
	.name = "json",
	/* history's JSON has no keys for what the repositories lack */
	.carries = {
		[EMIT_NOTE_LACKS] = EMIT_KIND_BIT(EMIT_REPORT) | EMIT_KIND_BIT(EMIT_CHECK) |
				    EMIT_KIND_BIT(EMIT_POLICY),
		[EMIT_NOTE_REACH] = EMIT_KIND_ALL,
	},
	.report = report_json,
	.check = check_json,
	.model = model_json,
	.history = history_json,
	.verify = emit_verify_json_new,
	.policy = policy_json,
};
