/*
 * cmd_verdict.c - what the report, check and policy share about growth:
 * history's fit of the commit count read from the sets' commit times, as
 * policy's growth; and the verdict at the end of the report and of check
 * (verdict.h), from the sets measured and that growth.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bigvec.h"
#include "cmd.h"
#include "commit_graph.h"
#include "commit_times.h"
#include "exitcodes.h"
#include "objread.h"
#include "subject_cache.h"

/* The packs' commits kept in time order, and the .idx files that name them. */
typedef struct {
	objread *rd;
	uint32_t np;
	commit_times *ct;         /* np of them */
	const unsigned char **ids; /* each pack's .idx names, stride[p] bytes apart */
	size_t *stride;
	uint32_t *pack, *pos;     /* several packs: the merged order's pack and position */
} kept_order;

static void kept_free(kept_order *k)
{
	if (!k)
		return;
	for (uint32_t p = 0; k->ct && p < k->np; p++)
		commit_times_free(&k->ct[p]);
	free(k->ct);
	free(k->ids);
	free(k->stride);
	free(k->pack);
	free(k->pos);
	objread_free(k->rd);
	free(k);
}

/* The ID of pack p's commit at .idx position pos. */
static const unsigned char *kept_name(const kept_order *o, uint32_t p, uint32_t pos)
{
	return o->ids[p] + (size_t)pos * o->stride[p];
}

/* cmd_zone_at's id_at(): the k-th commit's ID, in its pack's .idx */
static const unsigned char *kept_id(const void *kept, size_t k)
{
	const kept_order *o = kept;

	if (!o->pack)
		return kept_name(o, 0, commit_times_pos(&o->ct[0], k));
	return kept_name(o, o->pack[k], o->pos[k]);
}

/*
 * The packs' orders merged into one by (time, ID) into times[] and
 * k->pack[], k->pos[]: 0, 2 when a commit is in two packs (their orders
 * then name fewer commits than they hold), -1 (memory).
 */
static int kept_merge(kept_order *k, size_t count, size_t rawsz, int64_t *times)
{
	size_t *at = calloc(k->np, sizeof(*at));
	uint32_t prev = UINT32_MAX, prevpos = 0;

	k->pack = bigvec_malloc(count * sizeof(*k->pack));
	k->pos = bigvec_malloc(count * sizeof(*k->pos));
	if (!at || !k->pack || !k->pos) {
		free(at);
		return -1;
	}
	for (size_t i = 0; i < count; i++) {
		uint32_t best = UINT32_MAX;
		int64_t bt = 0;

		for (uint32_t p = 0; p < k->np; p++) {
			int64_t t;

			if (at[p] >= k->ct[p].n)
				continue;
			t = commit_times_time(&k->ct[p], at[p]);
			if (best == UINT32_MAX || t < bt ||
			    (t == bt && memcmp(kept_name(k, p, commit_times_pos(&k->ct[p], at[p])),
					       kept_name(k, best, commit_times_pos(&k->ct[best], at[best])),
					       rawsz) < 0)) {
				best = p;
				bt = t;
			}
		}
		times[i] = bt;
		k->pack[i] = best;
		k->pos[i] = commit_times_pos(&k->ct[best], at[best]++);
		/* one commit in two packs: the same time and ID, one after the other */
		if (i && times[i - 1] == bt && prev != best &&
		    !memcmp(kept_name(k, prev, prevpos), kept_name(k, best, k->pos[i]), rawsz)) {
			free(at);
			return 2;
		}
		prev = best;
		prevpos = k->pos[i];
	}
	free(at);
	return 0;
}

/*
 * The commit set's times in time order (ties by ID), as
 * cmd_commit_times() and cmd_commits_by_time() give them, from each
 * pack's commits kept in that order (commit_times.h), merged: 0 with
 * *times (bigvec_malloc()) and *out, which names their IDs (kept_id());
 * 1 when a pack's file is missing (the caller reads the tables and keeps
 * them); 2 when this is not the case for it (a commit-graph, several
 * repositories, loose commits, a commit in two packs, the cache off); -1
 * (memory).  The packs' commits are all in the sets (they hold every
 * object), so when the packs hold as many, none twice, they are the set.
 */
static int kept_in_time_order(cmd_sets *cs, kept_order **out, int64_t **times, size_t *n)
{
	size_t rawsz = idsets_rawsz(cs->s), count = idsets_count(cs->s, ABBREV_SET_COMMIT), sum = 0;
	const char *objdir;
	commit_graph *g = NULL;
	kept_order *k;
	char *dir = NULL, err[512];
	int rc = 2;

	*out = NULL;
	if (cs->n != 1 || cs->no_cache || !count)
		return 2;
	objdir = repo_objdir(cs->repos[0]);
	/* git's commit-graph is cmd_commit_times()'s first source: its dates stand */
	if (commit_graph_open(&g, objdir, rawsz) || g) {
		commit_graph_close(g);
		return 2;
	}
	if (!(dir = subject_cache_dir()))
		return 2;
	if (!(k = calloc(1, sizeof(*k)))) {
		free(dir);
		return -1;
	}
	rc = objread_new(&k->rd, objdir, rawsz, err, sizeof(err));
	if (rc == 0 && (k->np = objread_npacks(k->rd)) > 0) {
		k->ct = calloc(k->np, sizeof(*k->ct));
		k->ids = calloc(k->np, sizeof(*k->ids));
		k->stride = calloc(k->np, sizeof(*k->stride));
		if (!k->ct || !k->ids || !k->stride)
			rc = -1;
		for (uint32_t p = 0; rc == 0 && p < k->np; p++) {
			const unsigned char *sum_p;
			uint32_t nobj;
			subject_bind b;

			objread_pack(k->rd, p, &sum_p, &nobj, &k->ids[p], &k->stride[p]);
			objread_pack_files(k->rd, p, &b.pack, &b.idx);
			b.pack_path = NULL;
			rc = commit_times_load(dir, rawsz, sum_p, nobj, &b, &k->ct[p]);
			sum += k->ct[p].n;
		}
		if (rc == 0 && sum != count)
			rc = 2; /* loose commits besides, a commit in two packs, or a pack not walked */
		if (rc == 0 && !(*times = bigvec_malloc(count * sizeof(**times))))
			rc = -1;
		if (rc == 0 && k->np > 1 && (rc = kept_merge(k, count, rawsz, *times)) != 0) {
			free(*times);
			*times = NULL;
		}
		for (size_t i = 0; rc == 0 && k->np == 1 && i < count; i++)
			(*times)[i] = commit_times_time(&k->ct[0], i);
	} else {
		rc = rc == -1 ? -1 : 2;
	}
	free(dir);
	if (rc) {
		kept_free(k);
		return rc;
	}
	*n = count;
	*out = k;
	return 0;
}

int cmd_growth_read(cmd_growth *gr, cmd_sets *cs, double window_years, int fit, int64_t now,
		    progress *p, const char *note)
{
	unsigned char *ids = NULL;
	projection_opts po;
	kept_order *ko = NULL;
	int ret, zone = 0, kept;

	gr->now = (double)now;
	gr->now_newest = 0;
	/* kept in time order by an earlier run: no commit table read, no sort */
	kept = gr->every_object && !gr->bt ? kept_in_time_order(cs, &ko, &gr->times, &gr->ntimes) : 2;
	gr->kept = ko;
	if (kept < 0) {
		cmd_error("out of memory");
		return ABBREV_EXIT_NOMEM;
	}
	ret = kept ? cmd_commit_times(&ids, &gr->times, &gr->ntimes, cs, p, note, kept == 1) : 0;
	/* ascending, the IDs beside: what was passed is dated by a commit, in its zone */
	if (!ret && kept && cmd_commits_by_time(ids, gr->times, gr->ntimes, idsets_rawsz(cs->s))) {
		free(ids);
		cmd_error("out of memory");
		return ABBREV_EXIT_NOMEM;
	}
	if (!ret && gr->ntimes)
		/*
		 * the fit's window and the backtest's grid end at the newest
		 * commit (ties: the greatest ID, as history's replay orders
		 * them): their days are shown in its committer's zone
		 */
		(void)cmd_commit_zone(cs, ids ? ids + (gr->ntimes - 1) * idsets_rawsz(cs->s) :
				      kept_id(gr->kept, gr->ntimes - 1), &zone);
	projection_opts_init(&po);
	po.window_years = window_years;
	po.fit = fit;
	po.now = now;
	/* the times still beside their IDs: the backtest counts prefixes by date */
	if (!ret && gr->bt && backtest_compute(gr->bt, ids, gr->times, gr->ntimes,
					       idsets_rawsz(cs->s), &po, BACKTEST_STEP_YEARS)) {
		free(ids);
		cmd_error("out of memory");
		return ABBREV_EXIT_NOMEM;
	}
	if (!ret && gr->bt)
		gr->bt->zone = zone;
	if (ret)
		free(ids);
	else
		gr->ids = ids;
	if (ret == ABBREV_EXIT_RUNTIME && note) {
		/* the measured numbers stand alone (the note said so) */
		free(gr->times);
		gr->times = NULL;
		gr->ntimes = 0;
		return ABBREV_EXIT_OK;
	}
	if (ret)
		return ret;
	/* as projection_compute() takes the window's end */
	if (gr->ntimes) {
		gr->now_newest = 1;
		gr->now = (double)(gr->times[gr->ntimes - 1] < now ? gr->times[gr->ntimes - 1] : now);
	}
	if (projection_compute(&gr->pr, gr->times, gr->ntimes,
			       (uint64_t)idsets_count(cs->s, ABBREV_SET_ALL), &po)) {
		cmd_error("bad projection options");
		return ABBREV_EXIT_USAGE;
	}
	gr->pr.zone = zone;
	gr->zat = (cmd_zone_at){ cs, gr->ids, idsets_rawsz(cs->s), kept_id, gr->kept };
	(void)projection_set_zones(&gr->pr, cmd_commit_zone_at, &gr->zat);
	gr->have_fit = gr->pr.status == PROJECTION_OK;
	return ABBREV_EXIT_OK;
}

void cmd_growth_policy(policy_growth *g, const cmd_growth *gr)
{
	if (gr->have_fit)
		projection_growth(g, &gr->pr);
	else
		g->kind = POLICY_GROWTH_NONE, g->rate = 0;
	g->t0 = gr->now;
}

void cmd_growth_free(cmd_growth *gr)
{
	free(gr->times);
	free(gr->ids);
	kept_free(gr->kept);
	gr->kept = NULL;
	gr->times = NULL;
	gr->ids = NULL;
	gr->ntimes = 0;
}

int cmd_verdict(verdict *v, cmd_sets *cs, const stats_set *const sets[3],
		const cli_lengths *extra, progress *p)
{
	static const int kinds[3] = { ABBREV_SET_COMMIT, ABBREV_SET_COMMITISH, ABBREV_SET_ALL };
	policy_input in[3];
	policy_growth g = { POLICY_GROWTH_NONE, 0, 0 };
	cmd_growth gr = { 0 };
	double now = (double)time(NULL);
	int ret;

	for (int k = 0; k < 3; k++)
		in[k] = (policy_input){ idset_name(kinds[k]), sets[k]->count, sets[k]->prefixes };
	for (size_t i = 0; i < extra->n; i++) {
		if (extra->v[i] > 2 * idsets_rawsz(cs->s)) {
			cmd_error("'--lengths': %u is longer than this repository's IDs (%zu hex chars)",
				  extra->v[i], 2 * idsets_rawsz(cs->s));
			return ABBREV_EXIT_USAGE;
		}
	}
	/* report and check: the sets hold every object unless --reachable (no shard here) */
	gr.every_object = !cs->reach.patterns;
	ret = cmd_growth_read(&gr, cs, PROJECTION_DEFAULT_WINDOW, PROJECTION_FIT_AUTO,
			      (int64_t)now, p, "the verdict looks ahead without growth");
	if (ret)
		goto done;
	cmd_growth_policy(&g, &gr);
	if (verdict_compute(v, in, 3, extra->v, extra->n, (unsigned)(2 * idsets_rawsz(cs->s)), &g,
			    gr.have_fit ? POLICY_SOURCE_HISTORY : POLICY_SOURCE_NONE, gr.now, gr.times,
			    gr.ntimes, sets[0]->count)) {
		cmd_error("bad verdict options");
		ret = ABBREV_EXIT_USAGE;
	} else {
		/* the years passed already (the CSV's p01 year): in their commits' zones */
		(void)policy_set_zones(&v->pol, cmd_commit_zone_at, &gr.zat);
	}
done:
	cmd_growth_free(&gr);
	return ret;
}
