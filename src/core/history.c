/*
 * history.c - replay commits in time order and note when each length
 * first collided.
 *
 * The replay is computed offline, from the commits sorted by ID, instead
 * of inserting each commit into an ordered set in time order (a random
 * insertion and two neighbour look-ups per commit, about 1.5 us each at
 * a million commits).  In ID order, the IDs that share their first L
 * hex chars form runs of neighbours whose LCP is >= L, so L first
 * collided when the second commit (in replay order) of some run was
 * replayed: F(L) = the least, over the runs at L, of the second
 * smallest replay rank in the run.  A run at L+1 lies inside one at L,
 * so F never falls as L grows, and each pass over the pairs with LCP >= L
 * looks only at the pairs of the pass before that still qualify.
 *
 * The commit replayed at F(L) is the one whose arrival made L collide;
 * the pair and the shared length are then what an ordered set would have
 * given at that moment: its nearest earlier-replayed neighbours on either
 * side in ID order (the earliest one under the same 16 hex chars, as an
 * ordered set keyed by 16 hex chars holds them), or, when earlier commits
 * share its first 16 hex chars, the first of them that shares the most.
 * Only the few commits that raised the longest shared length are looked
 * at this way, one per distinct F(L).
 */
#include <config.h>

#include "history.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bigvec.h"
#include "model.h"

/* The inputs in ID order, each ID once, at its earliest time. */
typedef struct {
	size_t rawsz, m;
	const unsigned char **id; /* by position in ID order */
	int64_t *time;            /* by position */
	size_t *rank;             /* replay rank by position */
	size_t *pos;              /* position by replay rank */
	unsigned char *lcp;       /* lcp[p]: hex chars shared by p and p + 1 */
} replay;

typedef struct {
	const unsigned char *id;
	int64_t time;
	size_t rawsz;
} in_entry;

/* ID order, ties (the same ID twice) by time: the earliest copy first. */
static int cmp_in(const void *pa, const void *pb)
{
	const in_entry *a = pa, *b = pb;
	int c = memcmp(a->id, b->id, a->rawsz);

	if (c)
		return c;
	return a->time < b->time ? -1 : a->time > b->time;
}

/* Fill r->id and r->time with the distinct IDs in order; 0 or -1 (memory). */
static int order_by_id(replay *r, const unsigned char *ids, const int64_t *times, size_t n)
{
	size_t rawsz = r->rawsz, m = 0;
	int sorted = 1;
	in_entry *e;

	for (size_t i = 1; i < n && sorted; i++)
		sorted = memcmp(ids + (i - 1) * rawsz, ids + i * rawsz, rawsz) < 0;
	if (sorted) {
		/* the usual input: the commit set's iteration, strictly ascending */
		for (size_t i = 0; i < n; i++) {
			r->id[i] = ids + i * rawsz;
			r->time[i] = times[i];
		}
		r->m = n;
		return 0;
	}
	if (!(e = malloc(n * sizeof(*e))))
		return -1;
	for (size_t i = 0; i < n; i++)
		e[i] = (in_entry){ ids + i * rawsz, times[i], rawsz };
	qsort(e, n, sizeof(*e), cmp_in);
	for (size_t i = 0; i < n; i++) {
		if (m && !memcmp(r->id[m - 1], e[i].id, rawsz))
			continue; /* an ID given twice is replayed once, at its earlier time */
		r->id[m] = e[i].id;
		r->time[m++] = e[i].time;
	}
	free(e);
	r->m = m;
	return 0;
}

#define DIGIT_BITS 11
#define DIGITS (1u << DIGIT_BITS)

int history_order_by_time(const int64_t *time, size_t n, size_t *pos)
{
	uint64_t *key, *key2, span = 0;
	size_t *pos2, (*count)[DIGITS];
	unsigned passes = 0;
	int64_t tmin;

	if (!n)
		return 0;
	key = bigvec_malloc(n * sizeof(*key));
	key2 = bigvec_malloc(n * sizeof(*key2));
	pos2 = bigvec_malloc(n * sizeof(*pos2));
	count = calloc((64 + DIGIT_BITS - 1) / DIGIT_BITS, sizeof(*count));
	if (!key || !key2 || !pos2 || !count) {
		free(key);
		free(key2);
		free(pos2);
		free(count);
		return -1;
	}
	tmin = time[0];
	for (size_t p = 0; p < n; p++)
		if (time[p] < tmin)
			tmin = time[p];
	for (size_t p = 0; p < n; p++) {
		key[p] = (uint64_t)time[p] - (uint64_t)tmin;
		span |= key[p];
		pos[p] = p;
	}
	while (passes * DIGIT_BITS < 64 && span >> (passes * DIGIT_BITS))
		passes++;
	/*
	 * The keys travel with the positions, read in order, not through
	 * time[pos[k]] (a cache miss a commit at a million); 11 bits a
	 * pass, only over the bits in which the times differ (a few years:
	 * three passes), every pass's counts from one read.
	 */
	for (size_t k = 0; k < n; k++)
		for (unsigned d = 0; d < passes; d++)
			count[d][key[k] >> (d * DIGIT_BITS) & (DIGITS - 1)]++;
	for (unsigned d = 0; d < passes; d++) {
		unsigned shift = d * DIGIT_BITS;
		size_t at = 0;
		uint64_t *t;
		size_t *q;

		for (size_t b = 0; b < DIGITS; b++) {
			size_t c = count[d][b];

			count[d][b] = at;
			at += c;
		}
		for (size_t k = 0; k < n; k++) {
			size_t to = count[d][key[k] >> shift & (DIGITS - 1)]++;

			key2[to] = key[k];
			pos2[to] = pos[k];
		}
		t = key, key = key2, key2 = t;
		q = pos, pos = pos2, pos2 = q;
	}
	/* an odd number of passes left the order in the other buffer */
	if (passes & 1)
		memcpy(pos2, pos, n * sizeof(*pos));
	free(key);
	free(key2);
	free(passes & 1 ? pos : pos2);
	free(count);
	return 0;
}

/*
 * The replay order: positions sorted by time, ties by position (= by
 * ID): history_order_by_time().  Fills r->pos and r->rank.
 */
static int order_by_time(replay *r)
{
	if (history_order_by_time(r->time, r->m, r->pos))
		return -1;
	for (size_t k = 0; k < r->m; k++)
		r->rank[r->pos[k]] = k;
	return 0;
}

/*
 * F(L) for L = 1 .. longest into first_rank[L]; returns longest, the
 * longest LCP of two IDs.  `pairs` has room for m - 1 pair indices.
 */
static unsigned first_ranks(const replay *r, size_t *pairs, size_t *first_rank)
{
	size_t np = 0, m = r->m;
	unsigned L;

	for (size_t p = 0; p + 1 < m; p++)
		if (r->lcp[p] >= 1)
			pairs[np++] = p;
	for (L = 1; np; L++) {
		size_t best = SIZE_MAX, keep = 0;

		/* runs of consecutive pairs: positions pairs[a] .. pairs[b] + 1 */
		for (size_t a = 0; a < np;) {
			size_t b = a, lo1 = SIZE_MAX, lo2 = SIZE_MAX;

			while (b + 1 < np && pairs[b + 1] == pairs[b] + 1)
				b++;
			for (size_t p = pairs[a]; p <= pairs[b] + 1; p++) {
				size_t k = r->rank[p];

				if (k < lo1) {
					lo2 = lo1;
					lo1 = k;
				} else if (k < lo2) {
					lo2 = k;
				}
			}
			if (lo2 < best)
				best = lo2;
			a = b + 1;
		}
		first_rank[L] = best;
		/* the pairs that still share L + 1 chars */
		for (size_t a = 0; a < np; a++)
			if (r->lcp[pairs[a]] > L)
				pairs[keep++] = pairs[a];
		np = keep;
	}
	return L - 1;
}

static int same_key(const replay *r, const unsigned char *a, const unsigned char *b)
{
	return !memcmp(a, b, r->rawsz < 8 ? r->rawsz : 8);
}

/*
 * The earliest-replayed ID under the 16-hex-char key of position q (the
 * one an ordered set keyed that way holds first): its position.
 */
static size_t key_head(const replay *r, size_t q)
{
	size_t best = q;

	for (size_t a = q; a-- > 0 && same_key(r, r->id[a], r->id[q]);)
		if (r->rank[a] < r->rank[best])
			best = a;
	for (size_t a = q + 1; a < r->m && same_key(r, r->id[a], r->id[q]); a++)
		if (r->rank[a] < r->rank[best])
			best = a;
	return best;
}

/*
 * The commit at position p has just been replayed: the earlier commit
 * it shares the most with, as an ordered set keyed by 16 hex chars finds
 * it (see the top of the file); *shared gets the length.
 */
static size_t partner(const replay *r, size_t p, unsigned *shared)
{
	size_t k = r->rank[p], with = SIZE_MAX, q;
	const unsigned char *x = r->id[p];
	unsigned best = 0, l;

	/* earlier commits under the same key: the first (in replay order) that shares most */
	{
		size_t lo = p, hi = p, bestk = SIZE_MAX;

		while (lo > 0 && same_key(r, r->id[lo - 1], x))
			lo--;
		while (hi + 1 < r->m && same_key(r, r->id[hi + 1], x))
			hi++;
		for (q = lo; q <= hi; q++) {
			if (r->rank[q] >= k)
				continue;
			l = hexid_lcp(r->id[q], x, r->rawsz);
			if (l > best || (l == best && r->rank[q] < bestk)) {
				best = l;
				bestk = r->rank[q];
				with = q;
			}
		}
		if (with != SIZE_MAX) {
			*shared = best;
			return with;
		}
	}
	/* else the nearest earlier commits on either side, under their keys' first */
	for (q = p; q-- > 0;)
		if (r->rank[q] < k) {
			with = key_head(r, q);
			best = hexid_lcp(r->id[with], x, r->rawsz);
			break;
		}
	for (q = p + 1; q < r->m; q++)
		if (r->rank[q] < k) {
			size_t h = key_head(r, q);

			l = hexid_lcp(r->id[h], x, r->rawsz);
			if (with == SIZE_MAX || l > best) {
				best = l;
				with = h;
			}
			break;
		}
	*shared = best;
	return with;
}

double history_expected_first(unsigned L)
{
	/*
	 * Drawing uniformly from N = 16^L values, the number of draws up to
	 * and including the first repeat has mean 1 + Q(N), and Ramanujan's
	 * Q(N) = sqrt(pi N / 2) - 1/3 + O(N^-1/2).
	 */
	return sqrt(M_PI / 2.0 * ldexp(1.0, 4 * (int)L)) + 2.0 / 3.0;
}

static void record(history_results *h, const replay *r, unsigned upto, size_t older,
		   size_t newer)
{
	for (unsigned L = h->longest + 1; L <= upto; L++) {
		history_first *f = &h->first[L];

		f->time = r->time[newer];
		f->commits_then = r->rank[newer] + 1;
		memcpy(f->pair[0], r->id[older], h->rawsz);
		memcpy(f->pair[1], r->id[newer], h->rawsz);
		f->pair_time[0] = r->time[older];
		f->pair_time[1] = r->time[newer];
		f->shared = upto;
	}
	h->longest = upto;
}

/* r NULL: no commit (n = 0) */
static void fill_model(history_results *h, const replay *r)
{
	unsigned maxL = (unsigned)(2 * h->rawsz);

	for (unsigned L = 1; L <= maxL; L++) {
		history_model *m = &h->model[L];
		double e = history_expected_first(L);

		m->expected_commits = e;
		m->expected_reached = e <= (double)h->commits;
		if (m->expected_reached && r) {
			size_t p = r->pos[(size_t)ceil(e) - 1];

			m->expected_time = r->time[p];
			memcpy(m->expected_id, r->id[p], h->rawsz);
		}
		m->p = model_p_collision(L <= h->longest ? h->first[L].commits_then : h->commits, L);
	}
}

int history_compute(history_results *h, const unsigned char *ids, const int64_t *times,
		    size_t n, size_t rawsz)
{
	replay r = { .rawsz = rawsz };
	size_t *pairs = NULL, first_rank[ABBREV_MAX_HEXSZ + 2];
	unsigned longest;
	int ret = -1;

	memset(h, 0, sizeof(*h));
	h->rawsz = rawsz;
	if (rawsz < 1 || rawsz > ABBREV_MAX_RAWSZ)
		return -1;
	if (!n) {
		fill_model(h, NULL);
		return 0;
	}
	/* each filled at once: huge pages (bigvec.h) */
	r.id = bigvec_malloc(n * sizeof(*r.id));
	r.time = bigvec_malloc(n * sizeof(*r.time));
	r.rank = bigvec_malloc(n * sizeof(*r.rank));
	r.pos = bigvec_malloc(n * sizeof(*r.pos));
	r.lcp = bigvec_malloc(n);
	pairs = bigvec_malloc(n * sizeof(*pairs));
	h->times = bigvec_malloc(n * sizeof(*h->times));
	if (!r.id || !r.time || !r.rank || !r.pos || !r.lcp || !pairs || !h->times)
		goto done;
	if (order_by_id(&r, ids, times, n) || order_by_time(&r))
		goto done;
	for (size_t p = 0; p + 1 < r.m; p++)
		r.lcp[p] = (unsigned char)hexid_lcp(r.id[p], r.id[p + 1], rawsz);
	longest = first_ranks(&r, pairs, first_rank);
	/* each distinct F(L) is one commit that raised the longest shared length */
	for (unsigned L = 1; L <= longest; L++) {
		size_t p = r.pos[first_rank[L]], with;
		unsigned shared;

		if (L <= h->longest)
			continue;
		with = partner(&r, p, &shared);
		record(h, &r, shared, with, p);
	}
	h->commits = r.m;
	for (size_t k = 0; k < r.m; k++)
		h->times[k] = r.time[r.pos[k]];
	h->first_time = h->times[0];
	h->last_time = h->times[h->commits - 1];
	memcpy(h->first_id, r.id[r.pos[0]], rawsz);
	memcpy(h->last_id, r.id[r.pos[r.m - 1]], rawsz);
	fill_model(h, &r);
	ret = 0;
done:
	free(r.id);
	free(r.time);
	free(r.rank);
	free(r.pos);
	free(r.lcp);
	free(pairs);
	if (ret)
		history_results_clear(h);
	return ret;
}

void history_results_clear(history_results *h)
{
	free(h->times);
	memset(h, 0, sizeof(*h));
}

int history_set_zones(history_results *h, history_zone_fn zone, void *arg)
{
	int rc = 0;

#define ZONE(id, tz) \
	do { \
		if (!rc) \
			rc = zone(arg, (id), &(tz)); \
	} while (0)
	if (!h->commits)
		return 0;
	ZONE(h->first_id, h->first_tz);
	ZONE(h->last_id, h->last_tz);
	for (unsigned L = 1; L <= h->longest; L++)
		for (int k = 0; k < 2; k++)
			ZONE(h->first[L].pair[k], h->first[L].pair_tz[k]);
	for (unsigned L = 1; L <= 2 * h->rawsz; L++)
		if (h->model[L].expected_reached)
			ZONE(h->model[L].expected_id, h->model[L].expected_tz);
#undef ZONE
	return rc;
}
