/*
 * stats.c - collision tables from ordered passes over the ID sets.
 *
 * See stats.h for the neighbour-LCP argument.  Each pass keeps a few
 * counters per length and the groups at the longest length seen so far;
 * nothing proportional to the set's size is allocated.
 */
#include "stats.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "bytes.h"

/*
 * hexid_lcp() for the passes' one LCP a neighbour pair: sorted
 * neighbours mostly differ within their first 8 bytes, found by one
 * big-endian compare (on git.git's 849k objects hexid_lcp()'s byte loop
 * and call were a tenth of a warm report's CPU).
 */
static inline unsigned pair_lcp(const unsigned char *a, const unsigned char *b, size_t rawsz)
{
	uint64_t d;

	if (rawsz < 8 || !(d = be64(a) ^ be64(b)))
		return hexid_lcp(a, b, rawsz);
	return (unsigned)__builtin_clzll(d) / 4;
}

typedef struct {
	stats_set *st;
	size_t rawsz;
	size_t cap_groups, cap_members;
} group_acc;

static int add_member(group_acc *g, const unsigned char *id, int type)
{
	stats_set *st = g->st;

	if (st->nmembers == g->cap_members) {
		size_t n = grow_cap(g->cap_members, st->nmembers + 1, 16, g->rawsz);

		if (!n || grow_to(&st->member_ids, n, g->rawsz) || grow_to(&st->member_types, n, 1))
			return -1;
		g->cap_members = n;
	}
	memcpy(st->member_ids + st->nmembers * g->rawsz, id, g->rawsz);
	st->member_types[st->nmembers] = (unsigned char)type;
	st->nmembers++;
	stats_group *gr = &st->groups[st->ngroups - 1];
	if (gr->n) {
		/* a group's shared length is the least LCP of its neighbours */
		unsigned c = hexid_lcp(st->member_ids + (st->nmembers - 2) * g->rawsz, id, g->rawsz);
		if (c < gr->len)
			gr->len = c;
	}
	gr->n++;
	return 0;
}

static int start_group(group_acc *g, const unsigned char *a, int ta,
		       const unsigned char *b, int tb)
{
	stats_set *st = g->st;

	if (GROW(st->groups, g->cap_groups, st->ngroups + 1, 8))
		return -1;
	st->groups[st->ngroups].first = st->nmembers;
	st->groups[st->ngroups].n = 0;
	st->groups[st->ngroups].len = hexid_lcp(a, b, g->rawsz);
	st->ngroups++;
	return add_member(g, a, ta) || add_member(g, b, tb) ? -1 : 0;
}

/* cumulate a histogram h[v] (v = 0..hexsz) into out[L] = #values >= L */
static void cumulate(size_t *out, const size_t *h, unsigned hexsz)
{
	size_t acc = 0;

	for (unsigned L = hexsz + 1; L-- > 0;) {
		acc += h[L];
		out[L] = acc;
	}
}

void stats_set_model(stats_set *st)
{
	for (unsigned L = 1; L <= st->hexsz && L <= ABBREV_MAX_HEXSZ; L++) {
		model_expect_at(&st->model[L], (uint64_t)st->count, L);
		st->p_prefixes[L] = model_poisson_tail(st->prefixes[L],
						       st->model[L].expected_prefixes, 1);
	}
	st->p_longest = st->ngroups ? model_p_collision((uint64_t)st->count, st->longest) : 1.0;
	for (size_t g = 0; g < st->ngroups; g++)
		st->groups[g].p_random = model_p_collision((uint64_t)st->count, st->groups[g].len);
}

/*
 * One set's pass, fed its IDs in order: stats_set_compute() feeds it
 * from the set's own iteration, stats_report_compute() feeds the typed
 * sets from one iteration of all objects.
 */
typedef struct {
	stats_set *st;
	size_t rawsz;
	unsigned hexsz;
	size_t hist[ABBREV_MAX_HEXSZ + 2];
	long runs[ABBREV_MAX_HEXSZ + 2];
	group_acc g;
	const unsigned char *prev;
	int prev_type;
	unsigned prev_lcp, maxm;
} set_pass;

static void pass_init(set_pass *ps, stats_set *st, const idsets *s, int set)
{
	memset(ps, 0, sizeof(*ps));
	ps->st = st;
	ps->rawsz = idsets_rawsz(s);
	ps->hexsz = (unsigned)(2 * ps->rawsz);
	ps->g = (group_acc){ st, ps->rawsz, 0, 0 };
	memset(st, 0, sizeof(*st));
	st->hexsz = ps->hexsz;
	st->count = idsets_count(s, set);
}

/*
 * The next ID of the set, whose LCP with the one before is c (anything
 * for the first): 0, or -1 when out of memory.
 */
static inline int pass_feed_lcp(set_pass *ps, const unsigned char *cur, int type, unsigned c)
{
	stats_set *st = ps->st;

	if (ps->prev) {
		unsigned m = c > ps->prev_lcp ? c : ps->prev_lcp;

		/* prev is settled: its left and right neighbours are known */
		ps->hist[m]++;
		if (m > ps->maxm)
			ps->maxm = m;
		/* a new run of pairs with LCP >= L starts here for L in (prev_lcp, c] */
		if (c > ps->prev_lcp) {
			ps->runs[ps->prev_lcp + 1]++;
			ps->runs[c + 1]--;
		}
		if (c >= ABBREV_MIN_LEN && c >= st->longest) {
			if (c > st->longest) {
				st->longest = c;
				st->ngroups = st->nmembers = 0;
			}
			if (ps->prev_lcp == c) {
				if (add_member(&ps->g, cur, type))
					return -1;
			} else if (start_group(&ps->g, ps->prev, ps->prev_type, cur, type)) {
				return -1;
			}
		}
		ps->prev_lcp = c;
	}
	ps->prev = cur;
	ps->prev_type = type;
	return 0;
}

/* The next ID of the set: 0, or -1 when out of memory. */
static int pass_feed(set_pass *ps, const unsigned char *cur, int type)
{
	return pass_feed_lcp(ps, cur, type, ps->prev ? pair_lcp(ps->prev, cur, ps->rawsz) : 0);
}

static void pass_finish(set_pass *ps)
{
	stats_set *st = ps->st;
	unsigned hexsz = ps->hexsz;
	long acc = 0;

	if (ps->prev)
		ps->hist[ps->prev_lcp]++;
	cumulate(st->objects, ps->hist, hexsz);
	for (unsigned L = 0; L <= hexsz; L++) {
		acc += ps->runs[L];
		st->prefixes[L] = (size_t)acc;
	}
	/* lengths below git's minimum are not reported */
	for (unsigned L = 0; L < ABBREV_MIN_LEN; L++)
		st->objects[L] = st->prefixes[L] = 0;
	st->last_len = ps->maxm + 1 > ABBREV_MIN_LEN ? ps->maxm + 1 : ABBREV_MIN_LEN;
	st->min_unique = st->count ? st->last_len : 0;
	stats_set_model(st);
}

int stats_set_compute(stats_set *st, const idsets *s, int set)
{
	const unsigned char *cur;
	set_pass ps;
	idset_iter it;
	int type;

	pass_init(&ps, st, s, set);
	idset_iter_init(&it, s, set);
	while (idset_iter_next(&it, &cur, &type))
		if (pass_feed(&ps, cur, type)) {
			stats_set_clear(st);
			return -1;
		}
	pass_finish(&ps);
	return 0;
}

int stats_groups_at(stats_set *st, const idsets *s, int set, unsigned L, int against_all)
{
	size_t rawsz = idsets_rawsz(s);
	group_acc g = { st, rawsz, 0, 0 };
	const unsigned char *prev = NULL, *cur;
	int prev_type = 0, type, has_type = 0, in_run = 0, prev_in = 0, in = 0;
	idset_iter it;

	memset(st, 0, sizeof(*st));
	st->hexsz = (unsigned)(2 * rawsz);
	st->longest = L;
	st->count = idsets_count(s, against_all ? ABBREV_SET_ALL : set);
	idset_iter_init(&it, s, against_all ? ABBREV_SET_ALL : set);
	for (int more = 1; more;) {
		more = idset_iter_next(&it, &cur, &type);
		if (more)
			in = idset_iter_in_set(&it, set);
		int joins = more && prev && hexid_lcp(prev, cur, rawsz) >= L;

		if (in_run && !joins) {
			/* the run ended: keep it only if it has an ID of the type asked */
			if (against_all && !has_type) {
				st->nmembers = st->groups[--st->ngroups].first;
			} else {
				st->objects[L] += st->groups[st->ngroups - 1].n;
				st->prefixes[L]++;
			}
			in_run = 0;
		}
		if (joins) {
			if (!in_run) {
				if (start_group(&g, prev, prev_type, cur, type))
					goto oom;
				in_run = 1;
				has_type = prev_in;
			} else if (add_member(&g, cur, type)) {
				goto oom;
			}
			has_type |= in;
		}
		prev = cur;
		prev_type = type;
		prev_in = in;
	}
	st->last_len = L;
	stats_set_model(st);
	return 0;
oom:
	stats_set_clear(st);
	return -1;
}

void stats_set_clear(stats_set *st)
{
	if (st->member_desc)
		for (size_t i = 0; i < st->nmembers; i++)
			free(st->member_desc[i]);
	free(st->member_desc);
	st->member_desc = NULL;
	free(st->groups);
	free(st->member_ids);
	free(st->member_types);
	st->groups = NULL;
	st->member_ids = st->member_types = NULL;
	st->ngroups = st->nmembers = 0;
}

/*
 * Commit-vs-other over all objects in order, fed each ID's type and its
 * LCP with the ID before.  Commits since the last non-commit wait in
 * left/plcp until the next non-commit gives their right-hand value: for
 * each, the longest prefix shared with an earlier non-commit and the LCP
 * with the element before it.
 */
typedef struct {
	unsigned hexsz;
	size_t hist[ABBREV_MAX_HEXSZ + 1];
	unsigned char *left, *plcp;
	size_t npend, cap;
	unsigned run, maxv; /* min LCP over the pairs since the last non-commit */
} cvo_pass;

static void cvo_init(cvo_pass *cp, size_t rawsz)
{
	memset(cp, 0, sizeof(*cp));
	cp->hexsz = (unsigned)(2 * rawsz);
}

/* The next object, of this type, LCP c with the one before (0 for the first). */
static int cvo_feed(cvo_pass *cp, int type, unsigned c)
{
	if (c < cp->run)
		cp->run = c;
	if (type == ABBREV_TYPE_COMMIT) {
		if (cp->npend == cp->cap) {
			size_t n = grow_cap(cp->cap, cp->npend + 1, 64, 1);

			if (!n || grow_to(&cp->left, n, 1) || grow_to(&cp->plcp, n, 1))
				return -1;
			cp->cap = n;
		}
		cp->left[cp->npend] = (unsigned char)cp->run;
		cp->plcp[cp->npend] = (unsigned char)c;
		cp->npend++;
	} else {
		unsigned m = c;

		/* the nearest non-commit on the right decides for every pending commit */
		while (cp->npend > 0) {
			cp->npend--;
			unsigned v = cp->left[cp->npend] > m ? cp->left[cp->npend] : m;
			cp->hist[v]++;
			if (v > cp->maxv)
				cp->maxv = v;
			if (cp->plcp[cp->npend] < m)
				m = cp->plcp[cp->npend];
		}
		cp->run = cp->hexsz;
	}
	return 0;
}

static void cvo_free(cvo_pass *cp)
{
	free(cp->left);
	free(cp->plcp);
	cp->left = cp->plcp = NULL;
}

static void cvo_finish(cvo_pass *cp, size_t cvo[ABBREV_MAX_HEXSZ + 1], unsigned *last_len)
{
	while (cp->npend > 0) {
		cp->npend--;
		cp->hist[cp->left[cp->npend]]++;
		if (cp->left[cp->npend] > cp->maxv)
			cp->maxv = cp->left[cp->npend];
	}
	cvo_free(cp);
	cumulate(cvo, cp->hist, cp->hexsz);
	for (unsigned L = 0; L < ABBREV_MIN_LEN; L++)
		cvo[L] = 0;
	*last_len = cp->maxv + 1 > ABBREV_MIN_LEN ? cp->maxv + 1 : ABBREV_MIN_LEN;
}

int stats_commit_vs_other(size_t cvo[ABBREV_MAX_HEXSZ + 1], unsigned *last_len,
			  const idsets *s)
{
	size_t rawsz = idsets_rawsz(s);
	const unsigned char *prev = NULL, *cur;
	cvo_pass cp;
	idset_iter it;
	int type;

	cvo_init(&cp, rawsz);
	idset_iter_init(&it, s, ABBREV_SET_ALL);
	while (idset_iter_next(&it, &cur, &type)) {
		if (cvo_feed(&cp, type, prev ? pair_lcp(prev, cur, rawsz) : 0)) {
			cvo_free(&cp);
			return -1;
		}
		prev = cur;
	}
	cvo_finish(&cp, cvo, last_len);
	return 0;
}

unsigned stats_git_auto_abbrev(size_t count)
{
	return model_git_auto_abbrev((uint64_t)count);
}

void stats_mark_improbable(stats_set *st, double threshold)
{
	st->improbable = st->ngroups && st->p_longest < threshold;
	for (size_t g = 0; g < st->ngroups; g++)
		st->groups[g].improbable = st->groups[g].p_random < threshold;
}

/* The passes over the typed sets, run on a second thread by stats_report_compute(). */
typedef struct {
	stats_report *r;
	const idsets *s;
	int rc;
} typed_passes_job;

/* One ID of all objects into the typed passes and the commit-ish set's. */
static inline int typed_feed(set_pass *ps, const unsigned char *cur, int type, int commitish)
{
	if (type >= ABBREV_SET_COMMIT && type < ABBREV_SET_COMMITISH &&
	    pass_feed(&ps[type], cur, type))
		return -1;
	if (commitish && pass_feed(&ps[ABBREV_SET_COMMITISH], cur, type))
		return -1;
	return 0;
}

static void *typed_passes(void *arg)
{
	typed_passes_job *job = arg;
	set_pass ps[ABBREV_SET_COUNT];
	const unsigned char *cur, *const *ids, *types;
	size_t at = 0, n;
	idset_iter it;
	int type;

	/*
	 * One iteration of all objects feeds every typed set and the
	 * commit-ish set, instead of one filtering iteration each: a scan of
	 * the arena's runs when it is sorted
	 */
	for (int set = ABBREV_SET_COMMIT; set < ABBREV_SET_COUNT; set++)
		pass_init(&ps[set], &job->r->sets[set], job->s, set);
	if (idsets_run(job->s, 0, &ids, &types)) {
		while (!job->rc && (n = idsets_run(job->s, at, &ids, &types))) {
			for (size_t i = 0; i < n && !job->rc; i++)
				if (typed_feed(ps, ids[i], idset_byte_type(types[i]),
					       idset_byte_commitish(types[i])))
					job->rc = -1;
			at += n;
		}
	} else {
		idset_iter_init(&it, job->s, ABBREV_SET_ALL);
		while (!job->rc && idset_iter_next(&it, &cur, &type))
			if (typed_feed(ps, cur, type,
				       type == ABBREV_TYPE_COMMIT ||
				       (type == ABBREV_TYPE_TAG &&
					idset_iter_in_set(&it, ABBREV_SET_COMMITISH))))
				job->rc = -1;
	}
	for (int set = ABBREV_SET_COMMIT; set < ABBREV_SET_COUNT && !job->rc; set++)
		pass_finish(&ps[set]);
	return NULL;
}

/*
 * One ID of all objects into the set's pass and commit-vs-other, its LCP
 * with the one before computed once for both.
 */
static inline int all_feed(set_pass *ps, cvo_pass *cp, const unsigned char **prev,
			   const unsigned char *cur, int type, size_t rawsz)
{
	unsigned c = *prev ? pair_lcp(*prev, cur, rawsz) : 0;

	*prev = cur;
	return pass_feed_lcp(ps, cur, type, c) || cvo_feed(cp, type, c) ? -1 : 0;
}

/*
 * The set of all objects and commit-vs-other from one iteration (a scan
 * of the arena's runs when it is sorted).  0, or -1 when out of memory.
 */
static int all_and_cvo(stats_report *r, const idsets *s)
{
	size_t rawsz = idsets_rawsz(s), at = 0, n;
	const unsigned char *prev = NULL, *cur, *const *ids, *types;
	set_pass ps;
	cvo_pass cp;
	idset_iter it;
	int type, rc = 0;

	pass_init(&ps, &r->sets[ABBREV_SET_ALL], s, ABBREV_SET_ALL);
	cvo_init(&cp, rawsz);
	if (idsets_run(s, 0, &ids, &types)) {
		while (!rc && (n = idsets_run(s, at, &ids, &types))) {
			for (size_t i = 0; i < n && !rc; i++)
				rc = all_feed(&ps, &cp, &prev, ids[i], idset_byte_type(types[i]), rawsz);
			at += n;
		}
	} else {
		idset_iter_init(&it, s, ABBREV_SET_ALL);
		while (!rc && idset_iter_next(&it, &cur, &type))
			rc = all_feed(&ps, &cp, &prev, cur, type, rawsz);
	}
	if (rc) {
		cvo_free(&cp);
		stats_set_clear(&r->sets[ABBREV_SET_ALL]);
		return -1;
	}
	pass_finish(&ps);
	cvo_finish(&cp, r->cvo, &r->cvo_last_len);
	return 0;
}

void stats_report_prints(stats_report *r, const idset_spread *sp)
{
	shard k = r->shard;

	memset(r->spread, 0, sizeof(r->spread));
	for (k.k = 0; k.k < k.n; k.k++)
		r->spread[k.k] = idset_spread_range(sp, shard_lo(k), shard_hi(k));
	r->kept = idset_spread_range(sp, shard_lo(r->shard), shard_hi(r->shard));
}

int stats_report_compute(stats_report *r, const idsets *s)
{
	typed_passes_job job = { r, s, 0 };
	pthread_attr_t attr;
	pthread_t thread;
	int threaded = 0, rc;

	memset(r->sets, 0, sizeof(r->sets));
	r->input = NULL;
	r->sources = NULL;
	r->shard = SHARD_ALL;
	r->title = NULL;
	r->verdict = NULL; /* the caller's to set: ids has none */
	stats_report_prints(r, idsets_spread(s));
	r->rawsz = idsets_rawsz(s);
	r->hash = hexid_hash_name(r->rawsz);
	/*
	 * The passes only read the sets and each fills its own table, so the
	 * typed sets go to a second thread while this one does the set of all
	 * objects and commit-vs-other (about half the work each).  Without a
	 * thread, all run here.
	 */
	if (!pthread_attr_init(&attr)) {
		threaded = !pthread_attr_setstacksize(&attr, 256 * 1024) &&
			   !pthread_create(&thread, &attr, typed_passes, &job);
		pthread_attr_destroy(&attr);
	}
	rc = all_and_cvo(r, s);
	if (threaded)
		pthread_join(thread, NULL);
	else
		typed_passes(&job);
	if (rc || job.rc)
		goto oom;
	r->git_auto_abbrev = stats_git_auto_abbrev(idsets_count(s, ABBREV_SET_ALL));
	return 0;
oom:
	stats_report_clear(r);
	return -1;
}

void stats_report_clear(stats_report *r)
{
	for (int set = 0; set < ABBREV_SET_COUNT; set++)
		stats_set_clear(&r->sets[set]);
}
