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

#include <errno.h>
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

static int cmd_policy(int argc, char **argv);

static int parse_policy_objects(void *opts, const cli_option *opt, const char *v, char *err,
				size_t n)
{
	cli_policy_opts *o = opts;

	o->have_objects = 1;
	return cli_opt_count(&o->objects, opt, v, err, n);
}

static int parse_policy_commits(void *opts, const cli_option *opt, const char *v, char *err,
				size_t n)
{
	cli_policy_opts *o = opts;

	o->have_commits = 1;
	return cli_opt_count(&o->commits, opt, v, err, n);
}

/* "/year" or nothing after a growth's number and unit. */
static int per_year(const char *s)
{
	return !*s || !strcmp(s, "/year") || !strcmp(s, "/yr") || !strcmp(s, "/y");
}

/*
 * --growth=: "8%" or "8%/year" (8% more each year, compounded),
 * "80000/year" or "80000 objects/year" (all objects added a year), "8000
 * commits/year" (commits added a year).  A bare number has no unit: 8%,
 * 8 objects or 8 commits a year would all be guesses, so it is refused.
 */
static int parse_growth(void *opts, const cli_option *opt, const char *v, char *err,
			size_t errsz)
{
	cli_policy_opts *o = opts;
	const char *s;
	char *end;
	double x;

	errno = 0;
	x = strtod(v, &end);
	s = end;
	while (*s == ' ')
		s++;
	if (errno || end == v || !(x >= 0) || !isfinite(x) || *v == '+')
		goto bad;
	if (*s == '%' && per_year(s + 1) && x <= 1e6) {
		o->growth_unit = CLI_GROWTH_PERCENT;
	} else if (!strncmp(s, "commits", 7) && per_year(s + 7)) {
		o->growth_unit = CLI_GROWTH_COMMITS;
	} else if (!strncmp(s, "objects", 7) && per_year(s + 7)) {
		o->growth_unit = CLI_GROWTH_OBJECTS;
	} else if (*s && per_year(s)) {
		o->growth_unit = CLI_GROWTH_OBJECTS;
	} else if (!*s) {
		snprintf(err, errsz, "'--%s=%s' has no unit: say %s%%/year, %s/year (objects) or "
			 "'%s commits/year'", opt->name, v, v, v, v);
		return -1;
	} else {
		goto bad;
	}
	o->growth = x;
	return 0;
bad:
	snprintf(err, errsz, "'--%s' takes a yearly growth such as 8%%/year, 80000/year "
		 "(objects) or '8000 commits/year', not '%s'", opt->name, v);
	return -1;
}

/* The options of `git abbrev policy`: parsing, -h and completion come from this table. */

static const cli_option policy_options[] = {
	CLI_FORMAT(offsetof(cli_policy_opts, r.format), EMIT_POLICY),
	CLI_VALUE("lengths", offsetof(cli_policy_opts, lengths), cli_opt_lengths, "<a..b|a,b,c>",
	          "the lengths to show (default 10..16)"),
	CLI_VALUE("growth", offsetof(cli_policy_opts, growth), parse_growth, "<rate>",
	          "8%/year, 80000/year (objects) or '8000 commits/year' (default: the history's fit)"),
	CLI_VALUE("objects", offsetof(cli_policy_opts, objects), parse_policy_objects, "<N>",
	          "no repository: N IDs of all objects"),
	CLI_VALUE("commits", offsetof(cli_policy_opts, commits), parse_policy_commits, "<M>",
	          "and M IDs of commits"),
	CLI_VALUE("horizon-years", offsetof(cli_policy_opts, horizon_years), cli_opt_horizon, "<Y>",
	          "years later than Y from now are 'beyond' (default 50)"),
	CLI_VALUE("window-years", offsetof(cli_policy_opts, window_years), cli_opt_window, "<Y>",
	          "fit the last Y years of commits' growth (default 5)"),
	CLI_CHOICE("fit", offsetof(cli_policy_opts, fit), cli_fits,
	           "the growth curve fitted (default auto: the better fit)"),
	CLI_FLAG("backtest", 0, offsetof(cli_policy_opts, backtest), 1,
	         "the fit's track record: what fits made in the past predicted"),
	CLI_TITLE(cli_policy_opts, r.),
	CLI_NO_CACHE(cli_policy_opts, r.),
	CLI_REPO_ROWS(cli_policy_opts, r.),
	CLI_END
};

static void policy_init(void *opts, char **argv)
{
	cli_policy_opts *o = opts;

	memset(o, 0, sizeof(*o));
	cli_repo_init(&o->r, argv);
	for (unsigned L = POLICY_FROM; L <= POLICY_TO; L++)
		o->lengths.v[o->lengths.n++] = L;
	o->horizon_years = POLICY_DEFAULT_HORIZON;
	o->window_years = PROJECTION_DEFAULT_WINDOW;
	o->fit = PROJECTION_FIT_AUTO;
}

static int policy_positional(void *opts, char *arg, char *err, size_t errsz)
{
	return cli_repo_positional(&((cli_policy_opts *)opts)->r, arg, err, errsz);
}

static int policy_finish(void *opts, char *err, size_t errsz)
{
	cli_policy_opts *o = opts;
	int counts = o->have_objects || o->have_commits;

	if (counts && o->r.nrepos)
		snprintf(err, errsz, "policy takes counts (--objects, --commits) or repositories, "
			 "not both");
	else if (counts && o->backtest)
		snprintf(err, errsz, "--backtest needs a repository's commit history, not counts");
	else if (o->have_objects && o->have_commits && o->commits > o->objects)
		snprintf(err, errsz, "--commits (%llu) cannot exceed --objects (%llu): commits are "
			 "objects", (unsigned long long)o->commits, (unsigned long long)o->objects);
	else if (counts && o->growth_unit == CLI_GROWTH_COMMITS && !o->have_commits)
		snprintf(err, errsz, "--growth in commits a year needs --commits (or a repository)");
	else if (counts && o->growth_unit == CLI_GROWTH_OBJECTS && !o->have_objects)
		snprintf(err, errsz, "--growth in objects a year needs --objects (or a repository)");
	return err[0] ? -1 : 0;
}

const cli_command cli_cmd_policy = {
	"policy", "[<repo>...]",
	"per length: collisions now, in 5, 10, 20 years, and the year each passes 1% and 50%",
	"policy reads the repositories (default: the current one) and projects their\n"
	"growth, or models --objects=N (and --commits=M) grown by --growth\n",
	policy_options, policy_init, policy_positional, policy_finish,
	offsetof(cli_policy_opts, r),
	cmd_policy
};

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
	if (!emit_carries(EMIT_POLICY, o->r.format, EMIT_NOTE_LACKS))
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
	return cmd_growth_read(&ri->gr, &ri->cs, o->window_years, o->fit, (int64_t)now, p, NULL);
}

static int cmd_policy(int argc, char **argv)
{
	cli_policy_opts o;
	repo_input ri;
	policy_input in[3];
	policy_results *res = NULL;
	policy_growth g = { POLICY_GROWTH_NONE, 0, 0 };
	policy_report rep;
	backtest_results bt;
	progress *p = NULL;
	size_t nin = 0;
	int source = POLICY_SOURCE_NONE, counts, ret = cmd_begin(&cli_cmd_policy, &o, argc, argv);
	double now = (double)time(NULL);
	uint64_t objects = 0, commits = 0;

	if (ret >= 0)
		return ret;
	ret = ABBREV_EXIT_OK;
	memset(&ri, 0, sizeof(ri));
	memset(&bt, 0, sizeof(bt));
	if (o.backtest)
		ri.gr.bt = &bt;
	counts = o.have_objects || o.have_commits;
	if (!counts) {
		p = cmd_progress_new(o.r.progress);
		if (!p)
			return ABBREV_EXIT_NOMEM;
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
	if (policy_compute(res, in, nin, o.lengths.v, o.lengths.n, &g, source, now, o.horizon_years,
			   ri.gr.times, ri.gr.ntimes, commits)) {
		cmd_error("bad policy options");
		ret = ABBREV_EXIT_USAGE;
		goto done;
	}
	/* a level passed already is dated by a commit: the year in its committer's zone */
	if (ri.gr.times)
		(void)policy_set_zones(res, cmd_commit_zone_at, &ri.gr.zat);
	rep = (policy_report){
		.repos = (const char *const *)ri.cs.paths,
		.nrepos = counts ? 0 : ri.cs.n,
		.lacks = ri.cs.lacks,
		.hash = counts ? NULL : hexid_hash_name(idsets_rawsz(ri.cs.s)),
		.r = res,
		.fit = source == POLICY_SOURCE_HISTORY ? &ri.gr.pr : NULL,
		.unfit = ri.gr.times && ri.gr.pr.status != PROJECTION_OK ? &ri.gr.pr : NULL,
		.now_newest = !counts && ri.gr.now_newest,
		.now_zone = !counts && ri.gr.now_newest ? ri.gr.pr.zone : 0,
		.title = o.r.title,
		/* none when the dates could not be read */
		.bt = o.backtest && ri.gr.times ? &bt : NULL,
	};
	ret = cmd_written(emit_policy(stdout, &rep, o.r.format), "the policy");
done:
	for (int k = 0; k < 3; k++)
		if (ri.computed[k])
			stats_set_clear(&ri.sets[k]);
	cmd_growth_free(&ri.gr);
	backtest_results_clear(&bt);
	free(res);
	if (!counts)
		cmd_sets_free(&ri.cs);
	progress_free(p);
	return ret;
}
