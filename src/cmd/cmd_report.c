/*
 * cmd_report.c - `git abbrev [report]`: the full comparison of the sets.
 *
 * Walks the repositories into the Judy sets, computes every table in
 * one ordered pass per set, and hands the results to one emitter.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd.h"
#include "emit.h"
#include "exitcodes.h"
#include "stats.h"
#include "walk.h"

static int cmd_report(int argc, char **argv);

/* The options of `git abbrev report`: parsing, -h and completion come from this table. */

static const cli_option report_options[] = {
	CLI_FORMAT(offsetof(cli_report_opts, format), EMIT_REPORT),
	CLI_CHOICE("type", offsetof(cli_report_opts, set), cli_types,
	           "with --format=classic: the one set it lists (default all)"),
	CLI_IMPROBABLE(cli_report_opts, ),
	CLI_SHARD(cli_report_opts, ),
	CLI_VALUE("lengths", offsetof(cli_report_opts, lengths), cli_opt_lengths, "<a..b|a,b,c>",
	          "more lengths for the verdict (git's, 12 and 16 are in it)"),
	CLI_TITLE(cli_report_opts, ),
	CLI_NO_CACHE(cli_report_opts, ),
	CLI_REPO_ROWS(cli_report_opts, ),
	CLI_END
};

const cli_command cli_cmd_report = {
	"report", "[<repo>...]",
	"the full comparison: colliding IDs per length, per type and for all objects",
	NULL, report_options, cli_report_init, cli_repo_positional, cli_report_finish, 0,
	cmd_report
};

static int cmd_report(int argc, char **argv)
{
	cli_report_opts o;
	stats_report rep;
	cmd_sets cs = { 0 };
	verdict *v = NULL;
	progress *p = NULL;
	int ret = cmd_begin(&cli_cmd_report, &o, argc, argv);

	if (ret >= 0)
		return ret;
	p = cmd_progress_new(o.progress);
	if (!p)
		return ABBREV_EXIT_NOMEM;
	ret = cmd_sets_load(&cs, &o, p);
	if (ret)
		goto done;
	if (!emit_carries(EMIT_REPORT, o.format, EMIT_NOTE_LACKS))
		cmd_sets_notes(&cs);
	if (stats_report_compute(&rep, cs.s)) {
		cmd_error("out of memory");
		ret = ABBREV_EXIT_NOMEM;
		goto done;
	}
	for (int set = 0; set < ABBREV_SET_COUNT; set++)
		if (cmd_sets_describe(&cs, &rep.sets[set]))
			ret = ABBREV_EXIT_NOMEM;
	rep.repos = (const char *const *)cs.paths;
	rep.improbable = o.improbable;
	for (int set = 0; set < ABBREV_SET_COUNT; set++)
		stats_mark_improbable(&rep.sets[set], o.improbable);
	rep.set = o.set;
	rep.lacks = cs.lacks;
	rep.reach = o.reachable ? &cs.reach : NULL;
	rep.nrepos = cs.n;
	rep.shard = o.shard;
	stats_report_prints(&rep, idsets_spread(cs.s));
	rep.title = o.title;
	/* the verdict: of whole repositories, in the formats a person reads */
	if (!ret && shard_is_all(o.shard) && o.format != ABBREV_FORMAT_PARTIAL &&
	    o.format != ABBREV_FORMAT_CLASSIC && o.format != ABBREV_FORMAT_SVG) {
		const stats_set *sets[3] = { &rep.sets[ABBREV_SET_COMMIT],
					     &rep.sets[ABBREV_SET_COMMITISH],
					     &rep.sets[ABBREV_SET_ALL] };

		v = malloc(sizeof(*v));
		if (!v) {
			ret = ABBREV_EXIT_NOMEM;
		} else {
			ret = cmd_verdict(v, &cs, sets, &o.lengths, p);
			if (ret) {
				stats_report_clear(&rep);
				goto done;
			}
			rep.verdict = v;
		}
	}
	if (ret) {
		cmd_error("out of memory");
	} else {
		if (!emit_carries(EMIT_REPORT, o.format, EMIT_NOTE_INPUT))
			cmd_input_notes(&rep);
		ret = cmd_print_report(&rep, o.format);
	}
	stats_report_clear(&rep);
done:
	free(v);
	cmd_sets_free(&cs);
	progress_free(p);
	return ret;
}
