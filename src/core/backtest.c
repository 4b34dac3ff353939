/*
 * backtest.c - fit the growth at past cut-offs, predict the colliding
 * prefixes of later dates, and count what the history held then.
 *
 * What the history held: in ID order, the commits that share their first
 * L hex chars form runs of neighbours; a run's prefix collides from the
 * moment its second commit (in time) exists.  So the colliding prefixes
 * at L among the commits dated up to t are the runs whose second smallest
 * time is <= t: one sorted array of those times per length, and a binary
 * search per date.
 */
#include <config.h>

#include "backtest.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hexid.h"
#include "model.h"

typedef struct {
	const unsigned char *id;
	int64_t time;
	size_t rawsz;
} bt_entry;

static int cmp_entry(const void *pa, const void *pb)
{
	const bt_entry *a = pa, *b = pb;

	return memcmp(a->id, b->id, a->rawsz);
}

/*
 * For length L: the second smallest time of each run of IDs sharing L
 * chars, ascending, into out (room for m / 2 entries); returns how many.
 */
static size_t second_times(const bt_entry *e, const unsigned char *lcp, size_t m, unsigned L,
			   int64_t *out)
{
	size_t k = 0;

	for (size_t p = 0; p + 1 < m;) {
		int64_t lo1, lo2;
		size_t q;

		if (lcp[p] < L) {
			p++;
			continue;
		}
		lo1 = e[p].time < e[p + 1].time ? e[p].time : e[p + 1].time;
		lo2 = e[p].time < e[p + 1].time ? e[p + 1].time : e[p].time;
		for (q = p + 1; q + 1 < m && lcp[q] >= L; q++) {
			int64_t t = e[q + 1].time;

			if (t < lo1) {
				lo2 = lo1;
				lo1 = t;
			} else if (t < lo2) {
				lo2 = t;
			}
		}
		out[k++] = lo2;
		p = q + 1;
	}
	projection_sort_times(out, k);
	return k;
}

/* Expected colliding prefixes among a real (projected) count of random IDs. */
static double predicted(double n, unsigned L)
{
	if (!(n >= 0))
		n = 0;
	if (n > 1e18)
		n = 1e18; /* every prefix of any length that matters is taken long before */
	return model_expected_prefixes((uint64_t)llround(n), L);
}

int backtest_compute(backtest_results *b, const unsigned char *ids, const int64_t *times,
		     size_t n, size_t rawsz, const projection_opts *po, double step_years)
{
	int64_t *sorted = NULL, *second[BACKTEST_MAX_LENS] = { NULL };
	size_t nsecond[BACKTEST_MAX_LENS] = { 0 }, m = n, nend;
	unsigned char *lcp = NULL;
	bt_entry *e = NULL;
	int64_t *scratch = NULL;
	double end;
	int ret = -1;

	memset(b, 0, sizeof(*b));
	b->step_years = step_years;
	b->window_years = po->window_years;
	b->fit = po->fit;
	if (!(step_years > 0) || rawsz < 1 || rawsz > ABBREV_MAX_RAWSZ)
		return -1;
	if (n < 2)
		return 0;
	sorted = malloc(n * sizeof(*sorted));
	e = malloc(n * sizeof(*e));
	lcp = malloc(n);
	scratch = malloc((n / 2 + 1) * sizeof(*scratch));
	if (!sorted || !e || !lcp || !scratch)
		goto done;
	memcpy(sorted, times, n * sizeof(*sorted));
	projection_sort_times(sorted, n);
	end = (double)sorted[n - 1];
	if (po->now && (double)po->now < end)
		end = (double)po->now;

	/* the grid: the end, and a cut-off every step years back while a year precedes it */
	{
		int64_t d[BACKTEST_MAX_DATES];
		size_t k = 0;

		for (; k < BACKTEST_MAX_DATES; k++) {
			double t = end - (double)k * step_years * PROJECTION_YEAR;

			if (k && t - (double)sorted[0] < PROJECTION_MIN_SPAN_YEARS * PROJECTION_YEAR)
				break;
			d[k] = (int64_t)floor(t);
		}
		b->ndates = k;
		for (size_t i = 0; i < k; i++)
			b->dates[i] = d[k - 1 - i];
	}
	nend = projection_count_upto(sorted, n, end);

	/* the commits in ID order, and the hex chars each shares with the next */
	for (size_t i = 0; i < n; i++)
		e[i] = (bt_entry){ ids + i * rawsz, times[i], rawsz };
	for (size_t i = 1; i < n; i++) {
		if (memcmp(e[i - 1].id, e[i].id, rawsz) >= 0) {
			qsort(e, n, sizeof(*e), cmp_entry);
			break;
		}
	}
	for (size_t p = 0; p + 1 < m; p++)
		lcp[p] = (unsigned char)hexid_lcp(e[p].id, e[p + 1].id, rawsz);

	/* the lengths: the longest with something to predict at the end */
	{
		unsigned longest = 0, cand[BACKTEST_MAX_LENS], nc = 0;

		for (size_t p = 0; p + 1 < m; p++)
			if (lcp[p] > longest)
				longest = lcp[p];
		for (unsigned L = ABBREV_MIN_LEN; L <= 2 * rawsz; L++) {
			double E = model_expected_prefixes(nend, L);
			size_t k = 0;

			if (L > longest && E < BACKTEST_MIN_EXPECTED)
				break;
			if (!(E < ldexp(1.0, 4 * (int)L) / 10))
				continue;
			if (L <= longest)
				k = projection_count_upto(scratch, second_times(e, lcp, m, L, scratch), end);
			if (E < BACKTEST_MIN_EXPECTED && !k)
				continue;
			if (nc == BACKTEST_MAX_LENS) {
				memmove(cand, cand + 1, (nc - 1) * sizeof(*cand));
				nc--;
			}
			cand[nc++] = L;
		}
		b->nlens = nc;
		memcpy(b->lens, cand, nc * sizeof(*cand));
	}
	for (size_t j = 0; j < b->nlens; j++) {
		if (!(second[j] = malloc((n / 2 + 1) * sizeof(**second))))
			goto done;
		nsecond[j] = second_times(e, lcp, m, b->lens[j], second[j]);
	}

	if (b->ndates >= 2 && b->nlens) {
		b->rows = calloc(b->ndates * (b->ndates - 1) / 2, sizeof(*b->rows));
		if (!b->rows)
			goto done;
	}
	for (size_t c = 0; b->nlens && c + 1 < b->ndates; c++) {
		backtest_cut *cut = &b->cuts[c];
		projection_results pr;
		projection_opts o = *po;
		size_t k = projection_count_upto(sorted, n, (double)b->dates[c]);

		o.now = b->dates[c];
		cut->commits = k;
		if (projection_compute(&pr, sorted, k, k, &o))
			goto done;
		if (pr.status != PROJECTION_OK)
			continue;
		cut->ok = 1;
		cut->kind = pr.fits[pr.chosen].kind;
		cut->growth = pr.fits[pr.chosen].growth;
		for (size_t a = c + 1; a < b->ndates; a++) {
			backtest_row *r = &b->rows[b->nrows++];
			double t = (double)b->dates[a];

			r->cut = c;
			r->at = a;
			r->commits_fit = projection_count_at(&pr, t);
			r->commits = projection_count_upto(sorted, n, t);
			for (size_t j = 0; j < b->nlens; j++) {
				backtest_cell *x = &r->len[j];

				x->expected = predicted(r->commits_fit, b->lens[j]);
				model_poisson_interval(x->expected, BACKTEST_Q, &x->lo, &x->hi);
				x->measured = projection_count_upto(second[j], nsecond[j], t);
				x->hit = x->lo <= x->measured && x->measured <= x->hi;
				b->cells++;
				b->len_cells[j]++;
				b->hits += (size_t)x->hit;
				b->len_hits[j] += (size_t)x->hit;
			}
		}
	}
	ret = 0;
done:
	for (size_t j = 0; j < BACKTEST_MAX_LENS; j++)
		free(second[j]);
	free(sorted);
	free(e);
	free(lcp);
	free(scratch);
	if (ret)
		backtest_results_clear(b);
	return ret;
}

void backtest_results_clear(backtest_results *b)
{
	free(b->rows);
	memset(b, 0, sizeof(*b));
}
