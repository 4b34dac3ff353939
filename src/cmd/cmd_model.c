/*
 * cmd_model.c - `git abbrev model`: what the birthday model expects.
 *
 * For counts given on the command line (--objects, --commits), or
 * counted in repositories (all objects and commits), it prints, per
 * length, the expected colliding pairs, the chance of any collision and
 * the capacity at 1% and 50%: the numbers a policy discussion needs next
 * to what a repository measures.  Text, Markdown and SVG show the
 * useful band of lengths, JSON and CSV every length from 4 to 40, unless
 * --from / --to say.
 */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cmd.h"
#include "emit.h"
#include "exitcodes.h"
#include "model.h"

static int cmd_model(int argc, char **argv);

static int parse_objects(void *opts, const cli_option *opt, const char *v, char *err, size_t n)
{
	cli_model_opts *o = opts;

	o->have_objects = 1;
	return cli_opt_count(&o->objects, opt, v, err, n);
}

static int parse_commits(void *opts, const cli_option *opt, const char *v, char *err, size_t n)
{
	cli_model_opts *o = opts;

	o->have_commits = 1;
	return cli_opt_count(&o->commits, opt, v, err, n);
}

/* The options of `git abbrev model`: parsing, -h and completion come from this table. */

static const cli_option model_options[] = {
	CLI_VALUE("objects", offsetof(cli_model_opts, objects), parse_objects, "<N>",
	          "model N IDs of all objects"),
	CLI_VALUE("commits", offsetof(cli_model_opts, commits), parse_commits, "<M>",
	          "and M IDs of commits"),
	CLI_FORMAT(offsetof(cli_model_opts, format), EMIT_MODEL),
	CLI_VALUE("from", offsetof(cli_model_opts, from), cli_opt_length, "<L>", "the first length shown"),
	CLI_VALUE("to", offsetof(cli_model_opts, to), cli_opt_length, "<L>", "the last length shown"),
	CLI_TITLE(cli_model_opts, r.),
	CLI_REPO_ROWS(cli_model_opts, r.),
	CLI_END
};

static void model_init(void *opts, char **argv)
{
	cli_model_opts *o = opts;

	memset(o, 0, sizeof(*o));
	cli_repo_init(&o->r, argv);
	o->repos = argv;
}

static int model_positional(void *opts, char *arg, char *err, size_t errsz)
{
	cli_model_opts *o = opts;

	(void)err;
	(void)errsz;
	o->repos[o->nrepos++] = arg;
	return 0;
}

static int model_finish(void *opts, char *err, size_t errsz)
{
	cli_model_opts *o = opts;

	if (o->have_objects && o->have_commits && o->commits > o->objects) {
		snprintf(err, errsz, "--commits (%llu) cannot exceed --objects (%llu): commits are objects",
			 (unsigned long long)o->commits, (unsigned long long)o->objects);
		return -1;
	}
	if (o->from && o->to && o->from > o->to) {
		snprintf(err, errsz, "--from (%u) is past --to (%u)", o->from, o->to);
		return -1;
	}
	return 0;
}

const cli_command cli_cmd_model = {
	"model", "[<repo>...]",
	"birthday-model numbers: expected collisions and capacity per length",
	"model counts --objects=N (and --commits=M) or the objects of the repositories\n(none given: the repository you stand in)\n",
	model_options, model_init, model_positional, model_finish, offsetof(cli_model_opts, r),
	cmd_model
};

#define JSON_DEFAULT_FROM 4
#define JSON_DEFAULT_TO 40

/* n of each set from the repositories: all objects and commits. */
static int count_repos(model_input *in, size_t *nin, cli_model_opts *o)
{
	cmd_sets cs = { 0 };
	progress *p;
	int ret;

	o->r.repos = o->repos;
	o->r.nrepos = o->nrepos;
	p = cmd_progress_new(o->r.progress);
	if (!p)
		return ABBREV_EXIT_NOMEM;
	ret = cmd_sets_load(&cs, &o->r, p);
	if (!ret) {
		in[0] = (model_input){ "all", idsets_count(cs.s, ABBREV_SET_ALL) };
		in[1] = (model_input){ "commit", idsets_count(cs.s, ABBREV_SET_COMMIT) };
		*nin = 2;
	}
	cmd_sets_free(&cs);
	progress_free(p);
	return ret;
}

static int cmd_model(int argc, char **argv)
{
	cli_model_opts o;
	model_results r;
	model_input in[2];
	size_t nin = 0;
	unsigned from, to;
	int ret = cmd_begin(&cli_cmd_model, &o, argc, argv);

	if (ret >= 0)
		return ret;
	ret = ABBREV_EXIT_OK;
	if (o.nrepos && (o.have_objects || o.have_commits))
		return cmd_usage_error(&cli_cmd_model, "model takes counts (--objects, --commits) "
				       "or repositories, not both");
	/* the sets to model: counted in the repositories (none: the one here), or given */
	if (!o.have_objects && !o.have_commits) {
		ret = count_repos(in, &nin, &o);
		if (ret)
			return ret;
	}
	if (o.have_objects)
		in[nin++] = (model_input){ "all", o.objects };
	if (o.have_commits)
		in[nin++] = (model_input){ "commit", o.commits };

	if (model_results_compute(&r, in, nin, ABBREV_MIN_LEN, MODEL_MAX_LEN)) {
		cmd_error("out of memory");
		return ABBREV_EXIT_NOMEM;
	}
	if (o.format == ABBREV_FORMAT_JSON || o.format == ABBREV_FORMAT_CSV) {
		from = JSON_DEFAULT_FROM;
		to = JSON_DEFAULT_TO;
	} else {
		model_useful_band(&from, &to, &r);
	}
	if (o.from) {
		from = o.from;
		if (!o.to && to < from)
			to = from;
	}
	if (o.to) {
		to = o.to;
		if (!o.from && from > to)
			from = to;
	}
	r.from = from;
	r.to = to;
	r.title = o.r.title;

	ret = cmd_written(emit_model(stdout, &r, o.format), "the model");
	model_results_clear(&r);
	return ret;
}
