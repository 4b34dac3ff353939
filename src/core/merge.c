/*
 * merge.c - add up the shards' partial results (see merge.h).
 */
#include "merge.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Check that the parts are of one input: one hash, one shard count, one
 * spread (the fingerprint of the input's IDs in each shard), and inputs of
 * one name that agree on what they held.
 */
static int check_input(const partial *parts, const char *const *paths, size_t n, char *err,
		       size_t errsz)
{
	const partial *a = &parts[0];

	for (size_t i = 1; i < n; i++) {
		const partial *b = &parts[i];

		if (b->rep.rawsz != a->rep.rawsz) {
			snprintf(err, errsz, "%s holds %s IDs, %s %s IDs: not parts of one run",
				 paths[0], a->rep.hash, paths[i], b->rep.hash);
			return -1;
		}
		if (b->rep.shard.n != a->rep.shard.n) {
			snprintf(err, errsz, "parts of different shard counts: %s is a part of %u, "
				 "%s of %u", paths[0], a->rep.shard.n, paths[i], b->rep.shard.n);
			return -1;
		}
		for (unsigned k = 0; k < a->rep.shard.n; k++)
			if (!idset_print_eq(&a->rep.spread[k], &b->rep.spread[k])) {
				snprintf(err, errsz, "%s:%" PRIu64 ": a part of another input than "
					 "%s (its IDs in shard %u/%u differ: %" PRIu64 " against %"
					 PRIu64 ", or other IDs)", paths[i], b->spread_line[k],
					 paths[0], k, a->rep.shard.n, b->rep.spread[k].n,
					 a->rep.spread[k].n);
				return -1;
			}
		for (size_t x = 0; x < b->src.n; x++)
			for (size_t y = 0; y < a->src.n; y++) {
				const source *u = &b->src.v[x], *v = &a->src.v[y];

				if (u->stream != v->stream || strcmp(u->name, v->name) ||
				    u->bytes != v->bytes || u->crc != v->crc)
					continue;
				if (u->lines != v->lines || u->bad != v->bad ||
				    memcmp(u->other, v->other, sizeof(u->other))) {
					snprintf(err, errsz, "%s and %s read \"%s\" (the same bytes) "
						 "and disagree on its lines", paths[i], paths[0],
						 u->name);
					return -1;
				}
			}
	}
	return 0;
}

/* Check that the parts cover every first byte exactly once, with one hash. */
static int check_parts(const partial *parts, const char *const *paths, size_t n, char *err,
		       size_t errsz)
{
	shard *sh = malloc(n * sizeof(*sh));
	char missing[512], da[64], db[64];
	size_t a = 0, b = 0;
	int rc;

	if (!sh)
		return -2;
	for (size_t i = 0; i < n; i++)
		sh[i] = parts[i].rep.shard;
	rc = shard_cover(sh, n, &a, &b, missing, sizeof(missing));
	if (rc == 1) {
		if (sh[a].k == sh[b].k && sh[a].n == sh[b].n)
			snprintf(err, errsz, "shard %s is given twice: %s and %s",
				 shard_describe(da, sizeof(da), sh[a]), paths[a], paths[b]);
		else
			snprintf(err, errsz, "shards overlap: %s (%s) and %s (%s)",
				 shard_describe(da, sizeof(da), sh[a]), paths[a],
				 shard_describe(db, sizeof(db), sh[b]), paths[b]);
	} else if (rc == 2) {
		snprintf(err, errsz, "shards missing: %s", missing);
	}
	free(sh);
	return rc ? -1 : 0;
}

/* The parts in order of their shards (= ID order). */
static const partial **by_shard(const partial *parts, size_t n)
{
	const partial **o = malloc(n * sizeof(*o));

	if (!o)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		size_t j = i;

		while (j > 0 && shard_lo(o[j - 1]->rep.shard) > shard_lo(parts[i].rep.shard)) {
			o[j] = o[j - 1];
			j--;
		}
		o[j] = &parts[i];
	}
	return o;
}

/* Copy the groups of `from` after those already in `to`. */
static int append_groups(stats_set *to, const stats_set *from, size_t rawsz)
{
	size_t ng = to->ngroups + from->ngroups, nm = to->nmembers + from->nmembers;
	stats_group *g;
	unsigned char *ids, *types;
	char **desc;

	if (!from->ngroups)
		return 0;
	if (!(g = realloc(to->groups, ng * sizeof(*g))))
		return -2;
	to->groups = g;
	if (!(ids = realloc(to->member_ids, nm * rawsz)))
		return -2;
	to->member_ids = ids;
	if (!(types = realloc(to->member_types, nm)))
		return -2;
	to->member_types = types;
	if (!(desc = realloc(to->member_desc, nm * sizeof(*desc))))
		return -2;
	to->member_desc = desc;
	for (size_t i = 0; i < from->ngroups; i++) {
		to->groups[to->ngroups + i] = from->groups[i];
		to->groups[to->ngroups + i].first += to->nmembers;
	}
	memcpy(ids + to->nmembers * rawsz, from->member_ids, from->nmembers * rawsz);
	memcpy(types + to->nmembers, from->member_types, from->nmembers);
	for (size_t i = 0; i < from->nmembers; i++) {
		const char *d = from->member_desc ? from->member_desc[i] : NULL;

		desc[to->nmembers] = NULL;
		if (d && !(desc[to->nmembers] = strdup(d)))
			return -2;
		/* counted one by one, so a failure leaves only copies to free */
		to->nmembers++;
	}
	to->ngroups = ng;
	return 0;
}

static int merge_set(stats_set *to, const partial *const *parts, size_t n, int set,
		     size_t rawsz)
{
	to->hexsz = (unsigned)(2 * rawsz);
	to->last_len = ABBREV_MIN_LEN;
	for (size_t i = 0; i < n; i++) {
		const stats_set *st = &parts[i]->rep.sets[set];

		to->count += st->count;
		for (unsigned L = ABBREV_MIN_LEN; L <= st->last_len; L++) {
			to->objects[L] += st->objects[L];
			to->prefixes[L] += st->prefixes[L];
		}
		if (st->last_len > to->last_len)
			to->last_len = st->last_len;
		if (st->longest > to->longest)
			to->longest = st->longest;
	}
	to->min_unique = to->count ? to->last_len : 0;
	for (size_t i = 0; i < n && to->longest; i++)
		if (parts[i]->rep.sets[set].longest == to->longest &&
		    append_groups(to, &parts[i]->rep.sets[set], rawsz))
			return -2;
	stats_set_model(to);
	return 0;
}

int merge_partials(partial *out, const partial *parts, const char *const *paths, size_t n,
		   char *err, size_t errsz)
{
	const partial **sorted;
	stats_report *r = &out->rep;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!n) {
		snprintf(err, errsz, "no partial results to merge");
		return -1;
	}
	if ((rc = check_input(parts, paths, n, err, errsz)) ||
	    (rc = check_parts(parts, paths, n, err, errsz)))
		goto done;
	if (!(sorted = by_shard(parts, n))) {
		rc = -2;
		goto done;
	}
	r->rawsz = parts[0].rep.rawsz;
	r->hash = parts[0].rep.hash;
	r->shard = SHARD_ALL;
	/* the whole input is one shard of 1; its IDs are all kept */
	for (unsigned k = 0; k < parts[0].rep.shard.n; k++)
		idset_print_sum(&r->spread[0], &parts[0].rep.spread[k]);
	r->kept = r->spread[0];
	r->cvo_last_len = ABBREV_MIN_LEN;
	for (size_t i = 0; i < n && !rc; i++) {
		const partial *p = sorted[i];

		r->lacks |= p->rep.lacks;
		out->input.duplicates += p->input.duplicates;
		for (unsigned L = ABBREV_MIN_LEN; L <= p->rep.cvo_last_len; L++)
			r->cvo[L] += p->rep.cvo[L];
		if (p->rep.cvo_last_len > r->cvo_last_len)
			r->cvo_last_len = p->rep.cvo_last_len;
		for (size_t k = 0; k < p->src.n && !rc; k++)
			rc = sources_add(&out->src, &p->src.v[k]);
	}
	for (int set = 0; set < ABBREV_SET_COUNT && !rc; set++)
		rc = merge_set(&r->sets[set], sorted, n, set, r->rawsz);
	/* --reachable: every shard walked the same refs whole; the first says it */
	for (size_t i = 0; i < n && !rc && !r->reach; i++) {
		const partial *p = sorted[i];

		if (!p->rep.reach)
			continue;
		out->reach = *p->rep.reach;
		out->reach.npatterns = 0;
		if (p->rep.reach->npatterns &&
		    !(out->patterns = calloc(p->rep.reach->npatterns, sizeof(char *))))
			rc = -2;
		for (size_t k = 0; !rc && k < p->rep.reach->npatterns; k++) {
			if (!(out->patterns[k] = strdup(p->rep.reach->patterns[k])))
				rc = -2;
			else
				out->reach.npatterns++;
		}
		out->reach.patterns = (const char *const *)out->patterns;
		r->reach = &out->reach;
	}
	free((void *)sorted);
	if (rc)
		goto done;
	r->git_auto_abbrev = stats_git_auto_abbrev(r->sets[ABBREV_SET_ALL].count);
	r->sources = &out->src;
	r->repos = (const char *const *)out->src.names;
	r->nrepos = out->src.nnames;
	sources_totals(&out->src, &out->input);
	r->input = out->src.any_stream ? &out->input : NULL;
done:
	if (rc == -2)
		snprintf(err, errsz, "out of memory");
	if (rc)
		partial_clear(out);
	return rc;
}
