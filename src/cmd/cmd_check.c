/*
 * cmd_check.c - `git abbrev check <N>`: do IDs of a type collide at N chars?
 *
 * One question, one ordered pass over one set, an exit status scripts can
 * use (0 no, 1 yes), and the colliding groups with commit subjects so the
 * answer can be pasted into a reply.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#include "cli.h"
#include "cmd.h"
#include "emit.h"
#include "exitcodes.h"
#include "stats.h"

static int cmd_check(int argc, char **argv);

/* The options of `git abbrev check`: parsing, -h and completion come from this table. */

static const cli_choice againsts[] = { { "same", 0 }, { "all", 1 }, { NULL, 0 } };

static const cli_option check_options[] = {
	CLI_CHOICE("type", offsetof(cli_check_opts, set), cli_types,
	           "the set whose IDs are compared (default commit)"),
	CLI_CHOICE("against", offsetof(cli_check_opts, against_all), againsts,
	           "compare with IDs of the same set (default) or of all objects"),
	CLI_FLAG("quiet", 'q', offsetof(cli_check_opts, quiet), 1, "print nothing: the exit status says"),
	CLI_FORMAT(offsetof(cli_check_opts, r.format), EMIT_CHECK),
	CLI_IMPROBABLE(cli_check_opts, r.),
	CLI_VALUE("lengths", offsetof(cli_check_opts, r.lengths), cli_opt_lengths, "<a..b|a,b,c>",
	          "more lengths for the verdict (git's, 12 and 16 are in it)"),
	CLI_NO_CACHE(cli_check_opts, r.),
	CLI_REPO_ROWS(cli_check_opts, r.),
	CLI_END
};

static void check_init(void *opts, char **argv)
{
	cli_check_opts *o = opts;

	memset(o, 0, sizeof(*o));
	cli_repo_init(&o->r, argv);
	o->set = ABBREV_SET_COMMIT;
}

/* The first positional argument is the length, the rest are repositories. */
static int check_positional(void *opts, char *arg, char *err, size_t errsz)
{
	cli_check_opts *o = opts;
	unsigned long n;
	char *end;

	if (o->length)
		return cli_repo_positional(&o->r, arg, err, errsz);
	errno = 0;
	n = strtoul(arg, &end, 10);
	/* git's shortest abbreviation is 4; the upper end (40 or 64) is the hash's */
	if (errno || end == arg || *end || arg[0] == '+' || n < ABBREV_MIN_LEN ||
	    n > ABBREV_MAX_HEXSZ) {
		snprintf(err, errsz, "the length must be a number of hex chars from %d to 40 "
			 "(SHA-1) or %d (SHA-256), not '%s'", ABBREV_MIN_LEN, ABBREV_MAX_HEXSZ, arg);
		return -1;
	}
	o->length = (unsigned)n;
	return 0;
}

static int check_finish(void *opts, char *err, size_t errsz)
{
	cli_check_opts *o = opts;

	if (!o->length) {
		snprintf(err, errsz, "check needs a length: git abbrev check <N>");
		return -1;
	}
	if (o->set == ABBREV_SET_ALL)
		o->against_all = 0; /* all objects against all objects: the set of all */
	return cli_verdict_lengths(&o->r.lengths, err, errsz);
}

const cli_command cli_cmd_check = {
	"check", "<N> [<repo>...]",
	"do IDs of a type (default commit) collide at N chars? exit 1 if they do",
	"exit status: 0 no two IDs share N chars, 1 some do, 2 usage, 3+ error\n",
	check_options, check_init, check_positional, check_finish, offsetof(cli_check_opts, r),
	cmd_check
};

static int cmd_check(int argc, char **argv)
{
	cli_check_opts o;
	stats_check c = { 0 };
	cmd_sets cs = { 0 };
	stats_set sets[3];
	int nsets = 0;
	verdict *v = NULL;
	progress *p = NULL;
	int ret = cmd_begin(&cli_cmd_check, &o, argc, argv);

	if (ret >= 0)
		return ret;
	p = cmd_progress_new(o.quiet ? 0 : o.r.progress);
	if (!p)
		return ABBREV_EXIT_NOMEM;
	ret = cmd_sets_load(&cs, &o.r, p);
	if (ret)
		goto done;
	if (o.length > 2 * idsets_rawsz(cs.s)) {
		cmd_error("the length must be from %d to %zu for %s IDs, not %u", ABBREV_MIN_LEN,
			  2 * idsets_rawsz(cs.s), hexid_hash_name(idsets_rawsz(cs.s)), o.length);
		cli_usage(stderr, &cli_cmd_check);
		ret = ABBREV_EXIT_USAGE;
		goto done;
	}
	if (!o.quiet && !emit_carries(EMIT_CHECK, o.r.format, EMIT_NOTE_LACKS))
		cmd_sets_notes(&cs);
	c.length = o.length;
	c.set = o.set;
	c.against_all = o.against_all;
	c.improbable = o.r.improbable;
	c.rawsz = idsets_rawsz(cs.s);
	c.repos = (const char *const *)cs.paths;
	c.nrepos = cs.n;
	c.lacks = cs.lacks;
	c.reach = o.r.reachable ? &cs.reach : NULL;
	if (stats_groups_at(&c.found, cs.s, o.set, o.length, o.against_all) ||
	    (!o.quiet && cmd_sets_describe(&cs, &c.found))) {
		cmd_error("out of memory");
		ret = ABBREV_EXIT_NOMEM;
		goto done;
	}
	stats_mark_improbable(&c.found, c.improbable);
	if (!o.quiet) {
		/* the verdict: the same question at the lengths that matter */
		static const int kinds[3] = { ABBREV_SET_COMMIT, ABBREV_SET_COMMITISH,
					      ABBREV_SET_ALL };
		const stats_set *in[3] = { &sets[0], &sets[1], &sets[2] };

		for (; nsets < 3; nsets++)
			if (stats_set_compute(&sets[nsets], cs.s, kinds[nsets])) {
				cmd_error("out of memory");
				ret = ABBREV_EXIT_NOMEM;
				goto done;
			}
		v = malloc(sizeof(*v));
		if (!v) {
			cmd_error("out of memory");
			ret = ABBREV_EXIT_NOMEM;
			goto done;
		}
		ret = cmd_verdict(v, &cs, in, &o.r.lengths, p);
		if (ret)
			goto done;
		c.verdict = v;
	}
	ret = c.found.ngroups ? ABBREV_EXIT_FOUND : ABBREV_EXIT_OK;
	if (!o.quiet) {
		int wr = cmd_written(emit_check(stdout, &c, o.r.format), "the answer");

		if (wr)
			ret = wr;
	}
done:
	for (int k = 0; k < nsets; k++)
		stats_set_clear(&sets[k]);
	free(v);
	stats_set_clear(&c.found);
	cmd_sets_free(&cs);
	progress_free(p);
	return ret;
}
