/*
 * emit_json.c - the report as JSON, with the keys SPEC.md promises.
 *
 * Built with jansson, which keeps keys in insertion order, so the output
 * is stable for golden tests.  Keys beyond the contract ("longest") come
 * after the contract's own.
 */
#include "emit.h"

#include <jansson.h>

/* {"4": {"objects": n, "prefixes": m}, ...} up to last_len */
static json_t *lengths_json(const stats_set *st)
{
	json_t *o = json_object();
	char key[8];

	for (unsigned L = ABBREV_MIN_LEN; L <= st->last_len; L++) {
		snprintf(key, sizeof(key), "%u", L);
		json_object_set_new(o, key, json_pack("{s:I,s:I}",
			"objects", (json_int_t)st->objects[L],
			"prefixes", (json_int_t)st->prefixes[L]));
	}
	return o;
}

static json_t *groups_json(const stats_set *st, size_t rawsz)
{
	json_t *groups = json_array();
	char hex[ABBREV_MAX_HEXSZ + 1];

	for (size_t g = 0; g < st->ngroups; g++) {
		json_t *members = json_array();

		for (size_t i = 0; i < st->groups[g].n; i++) {
			size_t m = st->groups[g].first + i;

			hexid_fmt(hex, st->member_ids + m * rawsz, rawsz);
			json_array_append_new(members, json_pack("{s:s,s:s}", "id", hex,
				"type", hexid_type_name(st->member_types[m])));
		}
		json_array_append_new(groups, members);
	}
	return groups;
}

static json_t *set_json(const stats_set *st, size_t rawsz)
{
	json_t *o = json_pack("{s:I,s:I}", "count", (json_int_t)st->count,
			      "min_unique_length", (json_int_t)st->min_unique);

	json_object_set_new(o, "lengths", lengths_json(st));
	json_object_set_new(o, "longest", json_pack("{s:I,s:o}",
		"length", (json_int_t)st->longest, "groups", groups_json(st, rawsz)));
	return o;
}

int emit_report_json(FILE *out, const stats_report *r)
{
	json_t *root, *repos, *types, *cvo;
	char key[8];
	int rc;

	root = json_object();
	json_object_set_new(root, "objects",
			    json_integer((json_int_t)r->sets[ABBREV_SET_ALL].count));
	json_object_set_new(root, "hash", json_string(r->hash ? r->hash : "unknown"));
	repos = json_array();
	for (size_t i = 0; i < r->nrepos; i++)
		json_array_append_new(repos, json_string(r->repos[i]));
	json_object_set_new(root, "repositories", repos);

	types = json_object();
	for (int set = ABBREV_SET_COMMIT; set < ABBREV_SET_COUNT; set++)
		json_object_set_new(types, idset_name(set), set_json(&r->sets[set], r->rawsz));
	json_object_set_new(types, "all", set_json(&r->sets[ABBREV_SET_ALL], r->rawsz));
	json_object_set_new(root, "types", types);

	cvo = json_object();
	for (unsigned L = ABBREV_MIN_LEN; L <= r->cvo_last_len; L++) {
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
