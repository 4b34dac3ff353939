/*
 * emit_json.c - the report as JSON, with the keys docs/json.md promises.
 *
 * Built with jansson, which keeps keys in insertion order, so the output
 * is stable for golden tests.  Keys beyond the contract ("longest") come
 * after the contract's own.  Every table by length runs from 4 through
 * 16 and at least one length past the set's last collision, so a policy
 * script can read lengths 12 and 16 of any set.
 */
#include "emit.h"

#include <jansson.h>

#include "model.h"
#include "utf8.h"

/*
 * The version of the keys and their meaning (docs/json.md): 2 added the
 * commit-ish set, null for an empty set's min unique length and the
 * tables' fixed range.
 */
#define JSON_SCHEMA_VERSION 2
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
static json_t *model_json(const stats_set *st)
{
	json_t *o = json_object();
	char key[8];

	for (unsigned L = ABBREV_MIN_LEN; L <= table_end(st->last_len, st->hexsz); L++) {
		snprintf(key, sizeof(key), "%u", L);
		double e = model_expected_prefixes(st->count, L);

		json_object_set_new(o, key, json_pack("{s:f,s:f,s:f,s:f,s:f}",
			"expected_objects", model_expected_objects(st->count, L),
			"expected_prefixes", e,
			"expected_pairs", model_expected_pairs(st->count, L),
			"p_collision", model_p_collision(st->count, L),
			/* how likely random IDs give at least the measured prefixes */
			"p_prefixes_or_more", model_poisson_tail(st->prefixes[L], e, 1)));
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

static json_t *set_json(const stats_set *st, size_t rawsz, double threshold)
{
	double p = emit_p_random(st->count, st->longest);

	/* an empty set has no min unique length */
	json_t *o = json_pack("{s:I,s:o}", "count", (json_int_t)st->count, "min_unique_length",
			      st->count ? json_integer((json_int_t)st->min_unique) : json_null());

	json_object_set_new(o, "lengths", lengths_json(st));
	json_object_set_new(o, "model", model_json(st));
	json_object_set_new(o, "longest", json_pack("{s:I,s:f,s:b,s:o}",
		"length", (json_int_t)st->longest, "p_random", st->ngroups ? p : 1.0,
		"improbable", st->ngroups && p < threshold, "groups", groups_json(st, rawsz)));
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

int emit_report_json(FILE *out, const stats_report *r)
{
	json_t *root, *repos, *types, *cvo;
	char key[8];
	int rc;

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

	types = json_object();
	for (int set = ABBREV_SET_COMMIT; set <= ABBREV_SET_TAG; set++)
		json_object_set_new(types, idset_name(set), set_json(&r->sets[set], r->rawsz, r->improbable));
	json_object_set_new(types, idset_name(ABBREV_SET_COMMITISH),
			    set_json(&r->sets[ABBREV_SET_COMMITISH], r->rawsz, r->improbable));
	json_object_set_new(types, "all", set_json(&r->sets[ABBREV_SET_ALL], r->rawsz, r->improbable));
	json_object_set_new(root, "types", types);

	cvo = json_object();
	for (unsigned L = ABBREV_MIN_LEN; L <= table_end(r->cvo_last_len, (unsigned)(2 * r->rawsz));
	     L++) {
		snprintf(key, sizeof(key), "%u", L);
		json_object_set_new(cvo, key, json_integer((json_int_t)r->cvo[L]));
	}
	json_object_set_new(root, "commit_vs_other", cvo);
	json_object_set_new(root, "git_auto_abbrev", json_integer(r->git_auto_abbrev));

	rc = json_dumpf(root, out, JSON_INDENT(2));
	json_decref(root);
	if (rc || fputc('\n', out) == EOF)
		return -1;
	return 0;
}

int emit_check_json(FILE *out, const stats_check *c)
{
	const stats_set *f = &c->found;
	json_t *root, *groups, *repos;
	char hex[ABBREV_MAX_HEXSZ + 1];
	int rc;

	repos = json_array();
	for (size_t i = 0; i < c->nrepos; i++)
		json_array_append_new(repos, utf8_json(c->repos[i]));
	groups = json_array();
	for (size_t g = 0; g < f->ngroups; g++) {
		const stats_group *gr = &f->groups[g];
		double p = emit_p_random(f->count, gr->len);

		hexid_fmt(hex, f->member_ids + gr->first * c->rawsz, c->rawsz);
		hex[c->length] = '\0';
		json_array_append_new(groups, json_pack("{s:s,s:I,s:f,s:b,s:o}",
			"prefix", hex, "shared", (json_int_t)gr->len, "p_random", p,
			"improbable", p < c->improbable, "members", members_json(f, g, c->rawsz)));
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
	rc = json_dumpf(root, out, JSON_INDENT(2));
	json_decref(root);
	if (rc || fputc('\n', out) == EOF)
		return -1;
	return 0;
}
