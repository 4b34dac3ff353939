/*
 * cmd_audit.c - `git abbrev audit [<range>]`: every commit reference in
 * the messages of a range (default HEAD), judged as verify --range judges
 * it (as of the commit that wrote it), sorted into one class each
 * (cite_audit.h) and counted by the year of the citing commit (its
 * committer date in the committer's zone, as `git log --date=short`).
 *
 * The repository is opened as verify opens it (cmd_verify.h), the commits
 * walked and their messages read as verify --range reads them, and the
 * resolver keeps every reference's result, the clean ones too, so that
 * each is counted and the commits cited are known.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd.h"
#include "cmd_verify.h"
#include "emit.h"
#include "emit_audit.h"
#include "exitcodes.h"
#include "cite_audit.h"
#include "cite_git2.h"
#include "cite_parse.h"
#include "cite_resolve.h"
#include "subject_cache.h"
#include "repo.h"

static int cmd_audit(int argc, char **argv);

/* The options of `git abbrev audit`: parsing, -h and completion come from this table. */

static const cli_choice audit_formats[] = {
	{ "text", ABBREV_FORMAT_TEXT }, { "json", ABBREV_FORMAT_JSON },
	{ "csv", ABBREV_FORMAT_CSV }, { "markdown", ABBREV_FORMAT_MARKDOWN },
	{ "svg", ABBREV_FORMAT_SVG }, { "map", AUDIT_FORMAT_MAP }, { NULL, 0 }
};

static const cli_option audit_options[] = {
	CLI_VALUE("min-length", offsetof(cli_audit_opts, min_length), cli_opt_length, "<N>",
	          "a shorter ID is short (default: abbrev.minLength, else 12)"),
	CLI_FLAG("no-cache", 0, offsetof(cli_audit_opts, r.no_cache), 1,
	         "neither read nor write the subject cache (read every commit)"),
	CLI_CHOICE("format", offsetof(cli_audit_opts, r.format), audit_formats,
	           "the output format (default text; map: one line per wrong reference)"),
	CLI_TITLE(cli_audit_opts, r.),
	CLI_PROGRESS_ROWS(cli_audit_opts, r.),
	CLI_CHDIR_HELP_ROWS(cli_audit_opts, r.),
	CLI_END
};

static void audit_init(void *opts, char **argv)
{
	cli_audit_opts *o = opts;

	memset(o, 0, sizeof(*o));
	cli_repo_init(&o->r, argv);
}

static int audit_positional(void *opts, char *arg, char *err, size_t errsz)
{
	return cli_one_range("audit", &((cli_audit_opts *)opts)->range, arg, err, errsz);
}

const cli_command cli_cmd_audit = {
	"audit", "[<range>]",
	"every commit reference in a range's messages, classified, by year",
	"counts the references of the commits' messages (default: HEAD) as verify judges\n"
	"them, each as of its commit; exit status: 0, 2 usage, 3+ error\n",
	audit_options, audit_init, audit_positional, NULL, offsetof(cli_audit_opts, r),
	cmd_audit
};

/* Read, judge and count the messages of the range; an exit status. */
static int audit_range(cite_audit *a, cite_resolver *res, cite_git2 *g, const char *range,
		       progress *p)
{
	cite_range *rg;
	unsigned char id[ABBREV_MAX_RAWSZ];
	char err[512] = "";
	const char *msg;
	size_t len;
	int rc, ret = ABBREV_EXIT_OK;

	if ((rc = vr_range(&rg, g, range, 1)))
		return rc;
	progress_start(p, "reading references", 0);
	while ((rc = cite_range_next(rg, id, &msg, &len, err, sizeof(err))) == 1) {
		cite_list l = { 0 };
		cite_results out = { 0 };
		int64_t t;
		int tz;

		cite_range_when(rg, &t, &tz);
		if (cite_parse(&l, msg, len, CITE_PARSE_MESSAGE)) {
			cite_list_free(&l);
			rc = -1;
			break;
		}
		rc = cite_resolve(res, &out, msg, &l, id, err, sizeof(err));
		if (!rc && cite_audit_add(a, &l, &out, id, cite_audit_year_of(t, tz)))
			rc = -1;
		cite_results_clear(&out);
		cite_list_free(&l);
		if (rc == -2 && !*err)
			rc = -3; /* the walk of the sets said why */
		if (rc)
			break;
		progress_update(p, a->commits);
	}
	progress_stop(p);
	if (rc == -1) {
		cmd_error("out of memory");
		ret = ABBREV_EXIT_NOMEM;
	} else if (rc == -2) {
		cmd_error("%s", err);
		ret = ABBREV_EXIT_RUNTIME;
	} else if (rc < 0) {
		ret = ABBREV_EXIT_RUNTIME;
	}
	cite_range_free(rg);
	return ret;
}

static int cmd_audit(int argc, char **argv)
{
	cli_audit_opts o;
	verify_repo here = { 0 };
	cite_resolver *res = NULL;
	cite_audit a = { 0 };
	cite_audit_cited top[AUDIT_TOP];
	progress *p = NULL;
	int ret = cmd_begin(&cli_cmd_audit, &o, argc, argv);

	if (ret >= 0)
		return ret;
	if (!(p = cmd_progress_new(o.r.progress)))
		return ABBREV_EXIT_NOMEM;
	if ((ret = vr_open_here(&here, &o.r, p)))
		goto done;
	if (!o.min_length && (ret = min_length_config(&o.min_length,
						      repo_git2(here.cs.repos[0]),
						      here.ids.rawsz)))
		goto done;
	if (cite_resolver_new(&res, &here.ids, cite_git2_source(here.g), o.min_length)) {
		cmd_error("out of memory");
		ret = ABBREV_EXIT_NOMEM;
		goto done;
	}
	cite_resolver_improbable(res, o.r.improbable);
	cite_resolver_keep_all(res, 1);
	cite_resolver_progress(res, p);
	a.rawsz = here.ids.rawsz;
	if ((ret = audit_range(&a, res, here.g, o.range ? o.range : "HEAD", p)))
		goto done;
	if (cite_audit_finish(&a)) {
		cmd_error("out of memory");
		ret = ABBREV_EXIT_NOMEM;
		goto done;
	}
	{
		audit_report r = { &a, o.range ? o.range : "HEAD", o.min_length, top, 0, o.r.title };

		r.ntop = cite_audit_top(&a, top, AUDIT_TOP);
		if ((ret = cmd_written(emit_audit(stdout, o.r.format, &r), "the audit")))
			goto done;
	}
	vr_tidy_cache(&here);
done:
	cite_audit_clear(&a);
	cite_resolver_free(res);
	vr_close(&here);
	progress_free(p);
	return ret;
}
