/*
 * history.c - replay commits in time order and note when each length
 * first collided.
 *
 * The ordered set is a JudyL keyed by the first 8 bytes of an ID read
 * big-endian (Judy's key order is then the IDs' byte order), whose value
 * leads to the commit.  The prefix a new ID shares with the set is the
 * longer of its LCPs with the previous and the next key: any ID between
 * them in byte order would be nearer.  IDs that share all 8 key bytes (16
 * hex chars: crafted pairs exist) hang in a chain under their key and are
 * compared one by one, so lengths past 16 stay exact.
 *
 * Judy's error-returning calls are used (never the macros that print and
 * exit), so running out of memory is an ordinary error.
 */
#include <config.h>

#include "history.h"

#include <Judy.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

typedef struct {
	int64_t time;
	const unsigned char *id;
	size_t rawsz;
} entry;

/* Time order, ties by ID: the same replay for any input order. */
static int cmp_entry(const void *pa, const void *pb)
{
	const entry *a = pa, *b = pb;

	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	return memcmp(a->id, b->id, a->rawsz);
}

static Word_t key_of(const unsigned char *id, size_t rawsz)
{
	Word_t k = 0;

	for (size_t i = 0; i < 8; i++)
		k = (k << 8) | (i < rawsz ? id[i] : 0);
	return k;
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

static void record(history_results *h, unsigned upto, const entry *older, const entry *newer)
{
	for (unsigned L = h->longest + 1; L <= upto; L++) {
		history_first *f = &h->first[L];

		f->time = newer->time;
		f->commits_then = h->commits;
		memcpy(f->pair[0], older->id, h->rawsz);
		memcpy(f->pair[1], newer->id, h->rawsz);
		f->pair_time[0] = older->time;
		f->pair_time[1] = newer->time;
		f->shared = upto;
	}
	h->longest = upto;
}

static void fill_model(history_results *h)
{
	unsigned maxL = (unsigned)(2 * h->rawsz);

	for (unsigned L = 1; L <= maxL; L++) {
		history_model *m = &h->model[L];
		double e = history_expected_first(L);

		m->expected_commits = e;
		m->expected_reached = e <= (double)h->commits;
		if (m->expected_reached)
			m->expected_time = h->times[(size_t)ceil(e) - 1];
		m->p = model_p_collision(L <= h->longest ? h->first[L].commits_then : h->commits, L);
	}
}

int history_compute(history_results *h, const unsigned char *ids, const int64_t *times,
		    size_t n, size_t rawsz)
{
	entry *e = NULL;
	size_t *chain = NULL; /* per entry: the next entry (+1) under the same key */
	Pvoid_t judy = NULL;
	JError_t je;
	int ret = -1;

	memset(h, 0, sizeof(*h));
	h->rawsz = rawsz;
	if (rawsz < 1 || rawsz > ABBREV_MAX_RAWSZ)
		return -1;
	if (!n) {
		fill_model(h);
		return 0;
	}
	e = malloc(n * sizeof(*e));
	chain = calloc(n, sizeof(*chain));
	h->times = malloc(n * sizeof(*h->times));
	if (!e || !chain || !h->times)
		goto done;
	for (size_t i = 0; i < n; i++)
		e[i] = (entry){ times[i], ids + i * rawsz, rawsz };
	qsort(e, n, sizeof(*e), cmp_entry);

	for (size_t i = 0; i < n; i++) {
		Word_t key = key_of(e[i].id, rawsz), nb;
		PWord_t pv = (PWord_t)JudyLIns(&judy, key, &je);
		unsigned best = 0;
		size_t with = 0, dup = 0;

		if (pv == PJERR)
			goto done;
		if (*pv) {
			/* the same 16 hex chars: compare with each ID under the key */
			size_t last = 0;

			for (size_t j = *pv; j && !dup; j = chain[j - 1]) {
				unsigned l = hexid_lcp(e[j - 1].id, e[i].id, rawsz);

				if (l == 2 * rawsz)
					dup = 1;
				if (l > best) {
					best = l;
					with = j;
				}
				last = j;
			}
			if (dup)
				continue;
			chain[last - 1] = i + 1;
		} else {
			*pv = i + 1;
			/* the neighbours: every ID under their keys shares the same LCP */
			nb = key;
			pv = (PWord_t)JudyLPrev(judy, &nb, &je);
			if (pv == PJERR)
				goto done;
			if (pv) {
				best = hexid_lcp(e[*pv - 1].id, e[i].id, rawsz);
				with = *pv;
			}
			nb = key;
			pv = (PWord_t)JudyLNext(judy, &nb, &je);
			if (pv == PJERR)
				goto done;
			if (pv && hexid_lcp(e[*pv - 1].id, e[i].id, rawsz) > best) {
				best = hexid_lcp(e[*pv - 1].id, e[i].id, rawsz);
				with = *pv;
			}
		}
		h->times[h->commits++] = e[i].time;
		if (best > h->longest)
			record(h, best, &e[with - 1], &e[i]);
	}
	h->first_time = h->times[0];
	h->last_time = h->times[h->commits - 1];
	fill_model(h);
	ret = 0;
done:
	JudyLFreeArray(&judy, &je);
	free(chain);
	free(e);
	if (ret)
		history_results_clear(h);
	return ret;
}

void history_results_clear(history_results *h)
{
	free(h->times);
	memset(h, 0, sizeof(*h));
}
