/*
 * cmd_verdict.c - what the report, check and policy share about growth:
 * history's fit of the commit count read from the sets' commit times, as
 * policy's growth; and the verdict at the end of the report and of check
 * (verdict.h), from the sets measured and that growth.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cmd.h"
#include "exitcodes.h"

int cmd_growth_read(cmd_growth *gr, cmd_sets *cs, double window_years, int fit, int64_t now,
		    progress *p, const char *note)
{
	unsigned char *ids = NULL;
	projection_opts po;
	int ret, zone = 0;

	gr->now = (double)now;
	gr->now_newest = 0;
	ret = cmd_commit_times(&ids, &gr->times, &gr->ntimes, cs, p, note);
	/* ascending, the IDs beside: what was passed is dated by a commit, in its zone */
	if (!ret && cmd_commits_by_time(ids, gr->times, gr->ntimes, idsets_rawsz(cs->s))) {
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
		(void)cmd_commit_zone(cs, ids + (gr->ntimes - 1) * idsets_rawsz(cs->s), &zone);
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
	gr->zat = (cmd_zone_at){ cs, gr->ids, idsets_rawsz(cs->s) };
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
