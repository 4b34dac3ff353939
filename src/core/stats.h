/*
 * stats.h - collision tables of ID sets, from one ordered pass per set.
 *
 * In a sorted list of distinct IDs, two IDs share their first L hex chars
 * only if every neighbour pair between them does, so the longest common
 * prefix of each neighbour pair (its "LCP") says everything: an ID
 * collides at L when the LCP with its left or right neighbour is >= L,
 * and each maximal run of neighbour pairs with LCP >= L is one colliding
 * prefix.  Histograms of those values give all lengths in O(n).
 *
 * Ownership: stats_* fill caller-owned structs; stats_set_clear() and
 * stats_report_clear() free what the computation allocated inside them.
 */
#ifndef ABBREV_STATS_H
#define ABBREV_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "hexid.h"
#include "idset.h"
#include "model.h"
#include "shard.h"
#include "lacks.h"
#include "verdict.h"

/* A group of IDs that share one prefix at the longest colliding length. */
typedef struct {
	size_t first; /* index into the member arrays of stats_set */
	size_t n;     /* members in this group (>= 2) */
	unsigned len; /* hex chars all members share (>= the length asked for) */
	double p_random; /* P(random IDs collide at len among the set's count) */
	int improbable;  /* p_random below the threshold (stats_mark_improbable) */
} stats_group;

typedef struct {
	size_t count;        /* IDs in the set */
	unsigned hexsz;      /* hex chars of a full ID */
	/*
	 * objects[L] and prefixes[L] for L = ABBREV_MIN_LEN .. last_len,
	 * where last_len is the first L with objects[L] == 0 (or 4 when the
	 * set has no collision at all).  Entries past last_len are 0.
	 */
	size_t objects[ABBREV_MAX_HEXSZ + 1];
	size_t prefixes[ABBREV_MAX_HEXSZ + 1];
	unsigned last_len;
	unsigned min_unique;  /* smallest L >= 4 without colliding objects; 0 if empty */
	unsigned longest;     /* longest colliding length, 0 if none */
	/* The birthday model for as many random IDs, every L from 1 to hexsz. */
	model_expect model[ABBREV_MAX_HEXSZ + 1];
	/*
	 * P(>=): the chance that as many random IDs give at least prefixes[L]
	 * colliding prefixes (a one-sided Poisson tail about
	 * model[L].expected_prefixes), every L from 1 to hexsz; 1 where
	 * prefixes[L] is 0.
	 */
	double p_prefixes[ABBREV_MAX_HEXSZ + 1];
	/* P(random IDs collide at `longest` among count); 1 without a group. */
	double p_longest;
	int improbable;       /* p_longest below the threshold (stats_mark_improbable) */
	/* The groups at `longest`, in ID order; members are full raw IDs. */
	size_t ngroups;
	stats_group *groups;
	size_t nmembers;
	unsigned char *member_ids;   /* nmembers * rawsz bytes */
	unsigned char *member_types; /* nmembers bytes */
	/*
	 * Optional words about each member ("subject" of a commit, name of a
	 * tag), filled by the command layer; NULL or NULL entries for none.
	 * Freed with the set.
	 */
	char **member_desc;
} stats_set;

/* Fill `out` for one set of `s`.  Returns 0, or -1 when out of memory. */
int stats_set_compute(stats_set *out, const idsets *s, int set);
void stats_set_clear(stats_set *st);

/*
 * The groups of IDs that share their first L hex chars, for `check`.
 * With against_all 0: groups within `set`.  With against_all 1: groups
 * of the set of all objects that contain at least one ID of type `set`
 * (what `git show <prefix>` sees).  Fills the group fields of `out`
 * (ngroups, groups, members; longest = L), plus out->count (IDs of the
 * compared set) and out->objects[L] / out->prefixes[L] (members and
 * groups found).  Returns 0, or -1 when out of memory.
 */
int stats_groups_at(stats_set *out, const idsets *s, int set, unsigned L, int against_all);

/*
 * Commits whose first L chars equal those of an object of another type
 * (ambiguous to `git show <prefix>`, not to `git log <prefix>`):
 * cvo[L] for L = 4 .. *last_len, the first L where it is 0.
 * Returns 0, or -1 when out of memory.
 */
int stats_commit_vs_other(size_t cvo[ABBREV_MAX_HEXSZ + 1], unsigned *last_len,
			  const idsets *s);

/* model_git_auto_abbrev() of a set's count. */
unsigned stats_git_auto_abbrev(size_t count);

/*
 * Fill the model's numbers of a set from its count, longest and groups
 * (st->model, p_longest, each group's p_random): stats_set_compute() and
 * stats_groups_at() do it; a set assembled otherwise (merge.c, partial.c)
 * calls it once its counts are final.
 */
void stats_set_model(stats_set *st);

/*
 * Flag the set's longest collision and each of its groups improbable
 * when random IDs would collide that long with a probability below
 * `threshold` ("possibly crafted").
 */
void stats_mark_improbable(stats_set *st, double threshold);

/*
 * What ID streams held besides their objects (`git abbrev ids`), summed
 * over the distinct inputs (sources.h): lines read, bad lines skipped,
 * SWHIDs of kinds without a git object (snp, ori, emd, raw: see
 * idline.h) and object lines that repeated an ID.
 */
#define STATS_NOTHER 4
typedef struct {
	uint64_t lines;
	uint64_t bad;
	uint64_t other[STATS_NOTHER];
	uint64_t duplicates;
} stats_input;

struct sources;

/* Everything the report prints. */
typedef struct {
	size_t rawsz;
	const char *hash;        /* "sha1", "sha256" */
	size_t nrepos;
	const char *const *repos; /* borrowed; paths as given or resolved */
	stats_set sets[ABBREV_SET_COUNT];
	size_t cvo[ABBREV_MAX_HEXSZ + 1];
	unsigned cvo_last_len;
	unsigned git_auto_abbrev;
	double improbable;       /* threshold for "possibly crafted" */
	unsigned lacks;          /* 1: shallow clone, 2: partial clone (lacks.h) */
	const abbrev_reach *reach; /* --reachable: what was walked; NULL without */
	int set;                 /* report --type: the one set --format=classic lists */
	const stats_input *input; /* ID streams: what they held; NULL for repositories */
	/* what the IDs were read from, for --format=partial (sources.h); NULL: repos */
	const struct sources *sources;
	shard shard;             /* the IDs counted: one shard, or SHARD_ALL */
	/*
	 * Fingerprints (idset.h) of the whole input's IDs in each of the
	 * shard.n shards, and of the IDs this run kept (those of its shard):
	 * what --format=partial writes so that a merge can tell parts of one
	 * input from others and a part from another shard's (partial.h).
	 */
	idset_print spread[SHARD_MAX];
	idset_print kept;
	const char *title;       /* --title: the chart's title (borrowed); NULL: its own */
	const verdict *verdict;  /* the answer at a glance (borrowed); NULL: none */
} stats_report;

/* The answer of `check`: do IDs of a set collide at `length` chars? */
typedef struct {
	unsigned length;
	int set;                 /* enum abbrev_set */
	int against_all;
	double improbable;       /* threshold for "possibly crafted" */
	size_t rawsz;
	size_t nrepos;
	const char *const *repos;
	unsigned lacks;          /* what a shallow or partial clone lacks (lacks.h) */
	const abbrev_reach *reach; /* --reachable: what was walked; NULL without */
	stats_set found;         /* groups from stats_groups_at() */
	const verdict *verdict;  /* the answer at a glance (borrowed); NULL: none */
} stats_check;

/*
 * Fill r->spread and r->kept from the spread of every ID read, for
 * r->shard (set it first).
 */
void stats_report_prints(stats_report *r, const idset_spread *sp);

/* Compute every table of the report.  0, or -1 when out of memory. */
int stats_report_compute(stats_report *r, const idsets *s);
void stats_report_clear(stats_report *r);

#endif
