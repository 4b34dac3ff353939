/*
 * cmd_report.c - `git abbrev [report]`: the full comparison of the sets.
 *
 * Walks the repositories into the Judy sets, computes every table in
 * one ordered pass per set, and hands the results to one emitter.
 */
#include <config.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cmd.h"
#include "emit.h"
#include "exitcodes.h"
#include "stats.h"
#include "walk.h"

static const char report_usage[] =
	"usage: git abbrev [report] [--format=text|json] [--progress|--no-progress] [<repo>...]\n";

void cmd_error(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("git-abbrev: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int cmd_want_progress(int option)
{
	return option >= 0 ? option : isatty(STDERR_FILENO);
}

void cmd_free_paths(char **paths, size_t n)
{
	if (!paths)
		return;
	for (size_t i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
}

static int walk_status_exit(int rc, const char *err)
{
	if (rc == WALK_NOMEM) {
		cmd_error("out of memory");
		return ABBREV_EXIT_NOMEM;
	}
	cmd_error("%s", err);
	return ABBREV_EXIT_RUNTIME;
}

int cmd_load_sets(idsets **out, char ***paths_out, size_t *npaths,
		  char *const *repos, size_t n, progress *p)
{
	size_t nopen = n ? n : 1;
	walk_repo **r = calloc(nopen, sizeof(*r));
	char **paths = calloc(nopen, sizeof(*paths));
	idsets *s = NULL;
	char err[1024] = "";
	int ret = ABBREV_EXIT_NOMEM, rc;

	*out = NULL;
	*paths_out = NULL;
	*npaths = 0;
	if (!r || !paths) {
		cmd_error("out of memory");
		goto done;
	}
	/* open them all first: a bad path fails before any long walk */
	for (size_t i = 0; i < nopen; i++) {
		rc = walk_repo_open(&r[i], n ? repos[i] : NULL, err, sizeof(err));
		if (rc) {
			ret = walk_status_exit(rc, err);
			goto done;
		}
		paths[i] = strdup(walk_repo_path(r[i]));
		if (!paths[i]) {
			cmd_error("out of memory");
			goto done;
		}
	}
	s = idsets_new(walk_repo_rawsz(r[0]));
	if (!s) {
		cmd_error("out of memory");
		goto done;
	}
	for (size_t i = 0; i < nopen; i++) {
		rc = walk_repo_objects(r[i], s, p, err, sizeof(err));
		if (rc) {
			ret = walk_status_exit(rc, err);
			goto done;
		}
	}
	*out = s;
	s = NULL;
	*paths_out = paths;
	paths = NULL;
	*npaths = nopen;
	ret = ABBREV_EXIT_OK;
done:
	for (size_t i = 0; r && i < nopen; i++)
		walk_repo_free(r[i]);
	free(r);
	cmd_free_paths(paths, nopen);
	idsets_free(s);
	return ret;
}

int cmd_report(int argc, char **argv)
{
	cli_report_opts o;
	stats_report rep;
	idsets *s = NULL;
	progress *p = NULL;
	char **paths = NULL;
	size_t npaths = 0;
	char err[256];
	int ret;

	switch (cli_parse_report(&o, argc, argv, err, sizeof(err))) {
	case CLI_HELP:
		fputs(report_usage, stdout);
		return ABBREV_EXIT_OK;
	case CLI_USAGE:
		cmd_error("%s", err);
		fputs(report_usage, stderr);
		return ABBREV_EXIT_USAGE;
	}
	p = progress_new(stderr, cmd_want_progress(o.progress));
	if (!p) {
		cmd_error("out of memory");
		return ABBREV_EXIT_NOMEM;
	}
	ret = cmd_load_sets(&s, &paths, &npaths, o.repos, o.nrepos, p);
	if (ret)
		goto done;
	if (stats_report_compute(&rep, s)) {
		cmd_error("out of memory");
		ret = ABBREV_EXIT_NOMEM;
		goto done;
	}
	rep.repos = (const char *const *)paths;
	rep.nrepos = npaths;
	if (emit_report(stdout, &rep, o.format) || fflush(stdout)) {
		cmd_error("cannot write the report");
		ret = ABBREV_EXIT_RUNTIME;
	}
	stats_report_clear(&rep);
done:
	cmd_free_paths(paths, npaths);
	idsets_free(s);
	progress_free(p);
	return ret;
}
