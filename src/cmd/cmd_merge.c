/*
 * cmd_merge.c - `git abbrev merge <part>...`: the report of the whole ID
 * space from the partial results of its shards (--format=partial of
 * `ids` and `report`), in any format, the same bytes a single run prints.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd.h"
#include "emit.h"
#include "exitcodes.h"
#include "merge.h"
#include "partial.h"

static int cmd_merge(int argc, char **argv);

/* The options of `git abbrev merge`: parsing, -h and completion come from this table. */

static const cli_option merge_options[] = {
	CLI_FORMAT(offsetof(cli_merge_opts, format), EMIT_REPORT),
	CLI_CHOICE("type", offsetof(cli_merge_opts, set), cli_types,
	           "with --format=classic: the one set it lists (default all)"),
	CLI_IMPROBABLE(cli_merge_opts, ),
	CLI_TITLE(cli_merge_opts, ),
	CLI_CHDIR_HELP_ROWS(cli_merge_opts, ),
	CLI_END
};

static int merge_finish(void *opts, char *err, size_t errsz)
{
	cli_merge_opts *o = opts;

	if (!o->nrepos) {
		snprintf(err, errsz, "no partial results to merge");
		return -1;
	}
	return cli_report_finish(o, err, errsz);
}

const cli_command cli_cmd_merge = {
	"merge", "<part>...",
	"the report of the whole set from the --format=partial results of its shards",
	"<part>: what `git abbrev ids` or `report` wrote with --shard=K/N\n"
	"--format=partial; together the parts must cover every shard exactly once\n",
	merge_options, cli_report_init, cli_repo_positional, merge_finish, 0,
	cmd_merge
};

static int cmd_merge(int argc, char **argv)
{
	cli_merge_opts o;
	partial *parts = NULL, merged;
	size_t nread = 0;
	char err[1024];
	int rc, ret = cmd_begin(&cli_cmd_merge, &o, argc, argv);

	if (ret >= 0)
		return ret;
	ret = ABBREV_EXIT_OK;
	if (!(parts = calloc(o.nrepos, sizeof(*parts)))) {
		cmd_error("out of memory");
		return ABBREV_EXIT_NOMEM;
	}
	for (; nread < o.nrepos; nread++) {
		const char *path = o.repos[nread];
		int stdin_part = !strcmp(path, "-");
		FILE *f = stdin_part ? stdin : fopen(path, "r");

		if (!f) {
			cmd_error("%s: %s", path, strerror(errno));
			ret = ABBREV_EXIT_RUNTIME;
			goto done;
		}
		rc = partial_read(&parts[nread], f, stdin_part ? "<stdin>" : path, err, sizeof(err));
		if (!stdin_part)
			fclose(f);
		if (rc) {
			cmd_error("%s", err);
			ret = rc == -2 ? ABBREV_EXIT_NOMEM : ABBREV_EXIT_RUNTIME;
			goto done;
		}
	}
	rc = merge_partials(&merged, parts, (const char *const *)o.repos, o.nrepos, err,
			    sizeof(err));
	if (rc) {
		cmd_error("%s", err);
		ret = rc == -2 ? ABBREV_EXIT_NOMEM : ABBREV_EXIT_RUNTIME;
		goto done;
	}
	merged.rep.improbable = o.improbable;
	for (int set = 0; set < ABBREV_SET_COUNT; set++)
		stats_mark_improbable(&merged.rep.sets[set], o.improbable);
	merged.rep.set = o.set;
	merged.rep.title = o.title;
	if (!emit_carries(EMIT_REPORT, o.format, EMIT_NOTE_INPUT))
		cmd_input_notes(&merged.rep);
	ret = cmd_print_report(&merged.rep, o.format);
	partial_clear(&merged);
done:
	for (size_t i = 0; i < nread; i++)
		partial_clear(&parts[i]);
	free(parts);
	return ret;
}
