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

int cmd_merge(int argc, char **argv)
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
	if (o.format != ABBREV_FORMAT_PARTIAL)
		cmd_input_notes(&merged.rep);
	ret = cmd_print_report(&merged.rep, o.format);
	partial_clear(&merged);
done:
	for (size_t i = 0; i < nread; i++)
		partial_clear(&parts[i]);
	free(parts);
	return ret;
}
