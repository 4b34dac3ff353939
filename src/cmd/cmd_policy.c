/*
 * cmd_policy.c - `git abbrev policy`: the numbers behind a rule such as
 * "at least 12 hex chars in Fixes: tags", per length, for commits,
 * commit-ish and all objects: what collides now, what the model expects,
 * the chance of a collision now and in 5, 10 and 20 years, and the year
 * each length passes 1% and 50%.
 *
 * From a repository: the sets are walked as for the report (measured
 * colliding prefixes), and the growth is history's fit of the commit
 * count (projection.c) unless --growth says otherwise.  From counts
 * (--objects, --commits), as for `model`: the model alone, grown by
 * --growth when it is given.  policy.c computes, one emitter prints.
 */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "cmd.h"
#include "emit.h"
#include "exitcodes.h"
#include "policy.h"
#include "projection.h"
#include "stats.h"

/* The growth --growth gives, for sets of these counts (0: not given). */
static void given_growth(policy_growth *g, const cli_policy_opts *o, uint64_t objects,
			 uint64_t commits)
{
	switch (o->growth_unit) {
	case CLI_GROWTH_PERCENT:
		g->kind = POLICY_GROWTH_EXP;
		g->rate = log1p(o->growth / 100);
		break;
	case CLI_GROWTH_OBJECTS:
		g->kind = POLICY_GROWTH_LINEAR;
		g->rate = objects ? o->growth / (double)objects : 0;
		break;
	case CLI_GROWTH_COMMITS:
		g->kind = POLICY_GROWTH_LINEAR;
		g->rate = commits ? o->growth / (double)commits : 0;
		break;
	}
}

/* What a repository gives: the sets, measured; history's fit; the commit times. */
typedef struct {
	cmd_sets cs;
	stats_set sets[3];
	int computed[3];
	cmd_growth gr;
} repo_input;

static const int repo_sets[3] = { ABBREV_SET_COMMIT, ABBREV_SET_COMMITISH, ABBREV_SET_ALL };

static int read_repos(repo_input *ri, cli_policy_opts *o, policy_input *in, double now,
		      progress *p)
{
	int ret;

	ret = cmd_sets_load(&ri->cs, &o->r, p);
	if (ret)
		return ret;
	/* Markdown, JSON and SVG carry the notes themselves */
	if (o->r.format == ABBREV_FORMAT_TEXT || o->r.format == ABBREV_FORMAT_CSV)
		cmd_sets_notes(&ri->cs);
	for (int k = 0; k < 3; k++) {
		if (stats_set_compute(&ri->sets[k], ri->cs.s, repo_sets[k])) {
			cmd_error("out of memory");
			return ABBREV_EXIT_NOMEM;
		}
		ri->computed[k] = 1;
		in[k] = (policy_input){ idset_name(repo_sets[k]), ri->sets[k].count,
					ri->sets[k].prefixes };
	}
	return cmd_growth_read(&ri->gr, &ri->cs, o->window_years, o->fit, (int64_t)now, p, 0);
}

int cmd_policy(int argc, char **argv)
{
	cli_policy_opts o;
	repo_input ri;
	policy_input in[3];
	policy_results *res = NULL;
	policy_growth g = { POLICY_GROWTH_NONE, 0, 0 };
	policy_report rep;
	progress *p = NULL;
	size_t nin = 0;
	int source = POLICY_SOURCE_NONE, counts, ret = cmd_begin(&cli_cmd_policy, &o, argc, argv);
	double now = (double)time(NULL);
	uint64_t objects = 0, commits = 0;

	if (ret >= 0)
		return ret;
	ret = ABBREV_EXIT_OK;
	memset(&ri, 0, sizeof(ri));
	counts = o.have_objects || o.have_commits;
	if (!counts) {
		p = progress_new(stderr, cmd_want_progress(o.r.progress));
		if (!p) {
			cmd_error("out of memory");
			return ABBREV_EXIT_NOMEM;
		}
		ret = read_repos(&ri, &o, in, now, p);
		if (ret)
			goto done;
		nin = 3;
		commits = in[0].n;
		objects = in[2].n;
	} else {
		if (o.have_commits)
			in[nin++] = (policy_input){ "commit", o.commits, NULL };
		if (o.have_objects)
			in[nin++] = (policy_input){ "all", o.objects, NULL };
		commits = o.commits;
		objects = o.objects;
	}
	/* --growth first; else history's fit; counts alone: no growth */
	if (o.growth_unit != CLI_GROWTH_NONE) {
		given_growth(&g, &o, objects, commits);
		source = POLICY_SOURCE_GIVEN;
	} else if (ri.gr.have_fit) {
		cmd_growth_policy(&g, &ri.gr);
		source = POLICY_SOURCE_HISTORY;
	}
	/* one "now" for every projection: a repository's newest commit, else today */
	if (!counts)
		now = ri.gr.now;
	g.t0 = now;
	res = malloc(sizeof(*res));
	if (!res) {
		cmd_error("out of memory");
		ret = ABBREV_EXIT_NOMEM;
		goto done;
	}
	if (policy_compute(res, in, nin, o.lengths, o.nlengths, &g, source, now, o.horizon_years,
			   ri.gr.times, ri.gr.ntimes, commits)) {
		cmd_error("bad policy options");
		ret = ABBREV_EXIT_USAGE;
		goto done;
	}
	rep = (policy_report){
		.repos = (const char *const *)ri.cs.paths,
		.nrepos = counts ? 0 : ri.cs.n,
		.lacks = ri.cs.lacks,
		.hash = counts ? NULL : hexid_hash_name(idsets_rawsz(ri.cs.s)),
		.r = res,
		.fit = source == POLICY_SOURCE_HISTORY ? &ri.gr.pr : NULL,
		.unfit = ri.gr.times && ri.gr.pr.status != PROJECTION_OK ? &ri.gr.pr : NULL,
		.now_newest = !counts && ri.gr.now_newest,
		.title = o.r.title,
	};
	if (emit_policy(stdout, &rep, o.r.format) || fflush(stdout)) {
		cmd_error("cannot write the policy: %s", cmd_write_reason());
		ret = ABBREV_EXIT_RUNTIME;
	}
done:
	for (int k = 0; k < 3; k++)
		if (ri.computed[k])
			stats_set_clear(&ri.sets[k]);
	cmd_growth_free(&ri.gr);
	free(res);
	if (!counts)
		cmd_sets_free(&ri.cs);
	progress_free(p);
	return ret;
}
