/*
 * cli.c - option parsing for the commands (no printing, no exiting).
 */
#include <config.h>

#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "hexid.h"
#include "idset.h"
#include "projection.h"

int cli_match_value(const char *arg, const char *name, int argc, char **argv, int *i,
		    const char **value)
{
	size_t n = strlen(name);

	if (strncmp(arg, name, n))
		return 0;
	if (arg[n] == '=') {
		*value = arg + n + 1;
		return 1;
	}
	if (arg[n] == '\0') {
		if (*i + 1 >= argc) {
			*value = NULL;
			return 1;
		}
		*value = argv[++*i];
		return 1;
	}
	return 0;
}

/*
 * --format=v for the results of `kind` (enum emit_kind): a usage error
 * naming the formats the command has when it has no emitter for v.
 */
static int parse_format(int *format, int kind, const char *v, char *err, size_t errsz)
{
	static const char *const commands[] = {
		[EMIT_REPORT] = "report", [EMIT_CHECK] = "check", [EMIT_MODEL] = "model",
		[EMIT_HISTORY] = "history"
	};
	char names[128];

	if (!v) {
		snprintf(err, errsz, "option '--format' needs a value");
		return -1;
	}
	*format = emit_format_from_name(v);
	if (!emit_format_supported(kind, *format)) {
		emit_format_names(names, sizeof(names), kind);
		snprintf(err, errsz, "%s format '%s' (%s prints %s)",
			 *format < 0 ? "unknown" : "no", v, commands[kind], names);
		return -1;
	}
	return 0;
}

static int parse_probability(double *p, const char *v, char *err, size_t errsz)
{
	char *end;

	if (!v) {
		snprintf(err, errsz, "option '--improbable' needs a probability");
		return -1;
	}
	errno = 0;
	*p = strtod(v, &end);
	if (errno || end == v || *end || !(*p >= 0 && *p <= 1)) {
		snprintf(err, errsz, "'--improbable' takes a probability between 0 and 1, not '%s'", v);
		return -1;
	}
	return 0;
}

#define OPT_TAKEN 2 /* an option parser consumed argv[*i] */

static void repo_opts_init(cli_repo_opts *o, char **argv)
{
	memset(o, 0, sizeof(*o));
	o->format = ABBREV_FORMAT_TEXT;
	o->progress = -1;
	o->walker = CLI_WALKER_PACK;
	o->improbable = CLI_DEFAULT_IMPROBABLE;
	o->repos = argv;
}

/*
 * One option shared by the commands that read repositories, at argv[*i].
 * Returns OPT_TAKEN if it was one, 0 if not, CLI_HELP, or CLI_USAGE.
 */
static int parse_repo_option(cli_repo_opts *o, int kind, int argc, char **argv, int *i,
			     char *err, size_t errsz)
{
	const char *a = argv[*i], *v;

	if (!strcmp(a, "-h") || !strcmp(a, "--help"))
		return CLI_HELP;
	if (!strcmp(a, "--progress") || !strcmp(a, "--no-progress")) {
		o->progress = a[2] == 'p';
	} else if (!strcmp(a, "--reachable")) {
		o->reachable = 1;
	} else if (cli_match_value(a, "--improbable", argc, argv, i, &v)) {
		if (parse_probability(&o->improbable, v, err, errsz))
			return CLI_USAGE;
	} else if (cli_match_value(a, "--format", argc, argv, i, &v)) {
		if (parse_format(&o->format, kind, v, err, errsz))
			return CLI_USAGE;
	} else if (cli_match_value(a, "--walker", argc, argv, i, &v)) {
		if (v && !strcmp(v, "pack")) {
			o->walker = CLI_WALKER_PACK;
		} else if (v && !strcmp(v, "libgit2")) {
			o->walker = CLI_WALKER_LIBGIT2;
		} else {
			snprintf(err, errsz, "'--walker' takes pack or libgit2, not '%s'", v ? v : "");
			return CLI_USAGE;
		}
	} else {
		return 0;
	}
	return OPT_TAKEN;
}

/*
 * The loop both commands share: options of `extra` first (when given),
 * then the repository options; non-options go to `positional`.  `kind`
 * (enum emit_kind) says which formats the command prints.
 */
typedef int (*extra_option)(void *o, int argc, char **argv, int *i, char *err, size_t errsz);
typedef int (*positional_arg)(void *o, char *arg, char *err, size_t errsz);

static int parse_repo_command(cli_repo_opts *r, int kind, void *o, extra_option extra,
			      positional_arg positional, int argc, char **argv,
			      char *err, size_t errsz)
{
	int only_args = 0, rc;

	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (only_args || a[0] != '-' || !a[1]) {
			if (positional(o, argv[i], err, errsz))
				return CLI_USAGE;
			continue;
		}
		if (!strcmp(a, "--")) {
			only_args = 1;
			continue;
		}
		rc = extra ? extra(o, argc, argv, &i, err, errsz) : 0;
		if (!rc)
			rc = parse_repo_option(r, kind, argc, argv, &i, err, errsz);
		if (rc != 0 && rc != OPT_TAKEN)
			return rc;
		if (!rc) {
			snprintf(err, errsz, "unknown option '%s'", a);
			return CLI_USAGE;
		}
	}
	return CLI_OK;
}

static int report_positional(void *o, char *arg, char *err, size_t errsz)
{
	cli_repo_opts *r = o;

	(void)err;
	(void)errsz;
	r->repos[r->nrepos++] = arg;
	return 0;
}

/* --type=T of report: the set --format=classic lists. */
static int report_option(void *opts, int argc, char **argv, int *i, char *err, size_t errsz)
{
	cli_report_opts *o = opts;
	const char *v;

	if (!cli_match_value(argv[*i], "--type", argc, argv, i, &v))
		return 0;
	if (v && !strcmp(v, "all")) {
		o->set = ABBREV_SET_ALL;
	} else if (!v || !(o->set = hexid_type_from_name(v))) {
		snprintf(err, errsz, "unknown type '%s' (use commit, tree, blob, tag or all)",
			 v ? v : "");
		return CLI_USAGE;
	}
	return OPT_TAKEN;
}

int cli_parse_report(cli_report_opts *o, int argc, char **argv, char *err, size_t errsz)
{
	int rc, typed;

	repo_opts_init(o, argv);
	o->set = -1;
	rc = parse_repo_command(o, EMIT_REPORT, o, report_option, report_positional, argc, argv,
				err, errsz);
	typed = o->set >= 0;
	if (!typed)
		o->set = ABBREV_SET_ALL;
	if (rc == CLI_OK && typed && o->format != ABBREV_FORMAT_CLASSIC) {
		snprintf(err, errsz, "'--type' goes with --format=classic (the other formats "
			 "show every type)");
		return CLI_USAGE;
	}
	return rc;
}

/* The first non-option is the length, the rest are repositories. */
static int check_positional(void *opts, char *arg, char *err, size_t errsz)
{
	cli_check_opts *o = opts;
	unsigned long n;
	char *end;

	if (o->length)
		return report_positional(&o->r, arg, err, errsz);
	errno = 0;
	n = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || arg[0] == '-' || arg[0] == '+' || n < 1 ||
	    n > ABBREV_MAX_HEXSZ) {
		snprintf(err, errsz, "the length must be a number of hex chars from 1 to %d, not '%s'",
			 ABBREV_MAX_HEXSZ, arg);
		return -1;
	}
	o->length = (unsigned)n;
	return 0;
}

static int check_option(void *opts, int argc, char **argv, int *i, char *err, size_t errsz)
{
	cli_check_opts *o = opts;
	const char *a = argv[*i], *v;

	if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
		o->quiet = 1;
	} else if (cli_match_value(a, "--type", argc, argv, i, &v)) {
		if (v && !strcmp(v, "all")) {
			o->set = ABBREV_SET_ALL;
		} else if (!v || !(o->set = hexid_type_from_name(v))) {
			snprintf(err, errsz, "unknown type '%s' (use commit, tree, blob, tag or all)",
				 v ? v : "");
			return CLI_USAGE;
		}
	} else if (cli_match_value(a, "--against", argc, argv, i, &v)) {
		if (v && (!strcmp(v, "same") || !strcmp(v, "all"))) {
			o->against_all = v[0] == 'a';
		} else {
			snprintf(err, errsz, "'--against' takes same or all, not '%s'", v ? v : "");
			return CLI_USAGE;
		}
	} else {
		return 0;
	}
	return OPT_TAKEN;
}

int cli_parse_check(cli_check_opts *o, int argc, char **argv, char *err, size_t errsz)
{
	int rc;

	memset(o, 0, sizeof(*o));
	repo_opts_init(&o->r, argv);
	o->set = ABBREV_SET_COMMIT;
	rc = parse_repo_command(&o->r, EMIT_CHECK, o, check_option, check_positional, argc, argv,
				err, errsz);
	if (rc)
		return rc;
	if (!o->length) {
		snprintf(err, errsz, "check needs a length: git abbrev check <N>");
		return CLI_USAGE;
	}
	if (o->set == ABBREV_SET_ALL)
		o->against_all = 0;
	return CLI_OK;
}

/* A decimal number for option `name`, lo < x < hi (lo <= x with lo_ok). */
static int parse_real(double *x, const char *name, const char *v, double lo, int lo_ok,
		      double hi, char *err, size_t errsz)
{
	char *end;

	if (!v || !*v) {
		snprintf(err, errsz, "option '%s' needs a number", name);
		return -1;
	}
	errno = 0;
	*x = strtod(v, &end);
	if (errno || *end || !(lo_ok ? *x >= lo : *x > lo) || !(*x < hi)) {
		snprintf(err, errsz, "option '%s' takes a number %s %g and below %g, not '%s'",
			 name, lo_ok ? "from" : "above", lo, hi, v);
		return -1;
	}
	return 0;
}

#define CLI_MAX_YEARS 1000.0

static int history_option(void *opts, int argc, char **argv, int *i, char *err, size_t errsz)
{
	cli_history_opts *o = opts;
	const char *a = argv[*i], *v;

	if (!strcmp(a, "--no-projection")) {
		o->projection = 0;
	} else if (cli_match_value(a, "--window-years", argc, argv, i, &v)) {
		if (parse_real(&o->window_years, "--window-years", v, 0, 0, CLI_MAX_YEARS, err,
			       errsz))
			return CLI_USAGE;
	} else if (cli_match_value(a, "--horizon-years", argc, argv, i, &v)) {
		if (parse_real(&o->horizon_years, "--horizon-years", v, 0, 1, CLI_MAX_YEARS, err,
			       errsz))
			return CLI_USAGE;
	} else if (cli_match_value(a, "--target-p", argc, argv, i, &v)) {
		if (parse_real(&o->target_p, "--target-p", v, 0, 0, 1, err, errsz))
			return CLI_USAGE;
	} else if (cli_match_value(a, "--fit", argc, argv, i, &v)) {
		if (v && !strcmp(v, "auto")) {
			o->fit = PROJECTION_FIT_AUTO;
		} else if (v && (!strcmp(v, "exponential") || !strcmp(v, "exp"))) {
			o->fit = PROJECTION_FIT_EXP;
		} else if (v && !strcmp(v, "linear")) {
			o->fit = PROJECTION_FIT_LINEAR;
		} else {
			snprintf(err, errsz, "'--fit' takes auto, exponential or linear, not '%s'",
				 v ? v : "");
			return CLI_USAGE;
		}
	} else {
		return 0;
	}
	return OPT_TAKEN;
}

int cli_parse_history(cli_history_opts *o, int argc, char **argv, char *err, size_t errsz)
{
	memset(o, 0, sizeof(*o));
	repo_opts_init(&o->r, argv);
	o->window_years = PROJECTION_DEFAULT_WINDOW;
	o->fit = PROJECTION_FIT_AUTO;
	o->target_p = PROJECTION_DEFAULT_TARGET_P;
	o->horizon_years = PROJECTION_DEFAULT_HORIZON;
	o->projection = 1;
	return parse_repo_command(&o->r, EMIT_HISTORY, o, history_option, report_positional, argc,
				  argv, err, errsz);
}

static int parse_count(uint64_t *n, const char *name, const char *v, char *err, size_t errsz)
{
	unsigned long long x;
	char *end;

	if (!v || !*v) {
		snprintf(err, errsz, "option '%s' needs a number", name);
		return -1;
	}
	errno = 0;
	x = strtoull(v, &end, 10);
	if (*v < '0' || *v > '9' || *end) {
		snprintf(err, errsz, "option '%s' takes a whole number, not '%s'", name, v);
		return -1;
	}
	if (errno == ERANGE) {
		snprintf(err, errsz, "option '%s': %s is too large", name, v);
		return -1;
	}
	*n = (uint64_t)x;
	return 0;
}

static int parse_length(unsigned *L, const char *name, const char *v, char *err, size_t errsz)
{
	uint64_t n;

	if (parse_count(&n, name, v, err, errsz))
		return -1;
	if (n < ABBREV_MIN_LEN || n > ABBREV_MAX_HEXSZ) {
		snprintf(err, errsz, "option '%s' takes a length from %d to %d, not '%s'",
			 name, ABBREV_MIN_LEN, ABBREV_MAX_HEXSZ, v);
		return -1;
	}
	*L = (unsigned)n;
	return 0;
}

int cli_parse_model(cli_model_opts *o, int argc, char **argv, char *err, size_t errsz)
{
	int only_args = 0;
	const char *v;

	memset(o, 0, sizeof(*o));
	repo_opts_init(&o->r, argv);
	o->repos = argv;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		int rc;

		if (only_args || a[0] != '-' || !a[1]) {
			o->repos[o->nrepos++] = argv[i];
		} else if (!strcmp(a, "--")) {
			only_args = 1;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			return CLI_HELP;
		} else if (cli_match_value(a, "--objects", argc, argv, &i, &v)) {
			if (parse_count(&o->objects, "--objects", v, err, errsz))
				return CLI_USAGE;
			o->have_objects = 1;
		} else if (cli_match_value(a, "--commits", argc, argv, &i, &v)) {
			if (parse_count(&o->commits, "--commits", v, err, errsz))
				return CLI_USAGE;
			o->have_commits = 1;
		} else if (cli_match_value(a, "--from", argc, argv, &i, &v)) {
			if (parse_length(&o->from, "--from", v, err, errsz))
				return CLI_USAGE;
		} else if (cli_match_value(a, "--to", argc, argv, &i, &v)) {
			if (parse_length(&o->to, "--to", v, err, errsz))
				return CLI_USAGE;
		} else if (cli_match_value(a, "--format", argc, argv, &i, &v)) {
			if (parse_format(&o->format, EMIT_MODEL, v, err, errsz))
				return CLI_USAGE;
		} else if ((rc = parse_repo_option(&o->r, EMIT_MODEL, argc, argv, &i, err, errsz))) {
			/* --reachable, --walker, --progress: for counting a repository */
			if (rc != OPT_TAKEN)
				return rc;
		} else {
			snprintf(err, errsz, "unknown option '%s'", a);
			return CLI_USAGE;
		}
	}
	if (o->have_objects && o->have_commits && o->commits > o->objects) {
		snprintf(err, errsz, "--commits (%llu) cannot exceed --objects (%llu): commits are objects",
			 (unsigned long long)o->commits, (unsigned long long)o->objects);
		return CLI_USAGE;
	}
	if (o->from && o->to && o->from > o->to) {
		snprintf(err, errsz, "--from (%u) is past --to (%u)", o->from, o->to);
		return CLI_USAGE;
	}
	return CLI_OK;
}

static int verify_positional(void *opts, char *arg, char *err, size_t errsz)
{
	cli_verify_opts *o = opts;

	(void)err;
	(void)errsz;
	o->files[o->nfiles++] = arg;
	return 0;
}

/* verify's own options; --format is taken here, verify printing text or json. */
static int verify_option(void *opts, int argc, char **argv, int *i, char *err, size_t errsz)
{
	cli_verify_opts *o = opts;
	const char *a = argv[*i], *v;

	if (!strcmp(a, "-C")) {
		if (*i + 1 >= argc || !argv[*i + 1][0]) {
			snprintf(err, errsz, "option '-C' needs a repository");
			return CLI_USAGE;
		}
		o->repo = argv[++*i];
	} else if (!strncmp(a, "-C", 2)) {
		o->repo = argv[*i] + 2; /* -C<repo> */
	} else if (cli_match_value(a, "--min-length", argc, argv, i, &v)) {
		if (parse_length(&o->min_length, "--min-length", v, err, errsz))
			return CLI_USAGE;
	} else if (cli_match_value(a, "--range", argc, argv, i, &v)) {
		if (!v || !*v) {
			snprintf(err, errsz, "option '--range' needs a revision range");
			return CLI_USAGE;
		}
		o->range = v;
	} else if (!strcmp(a, "--fix")) {
		o->fix = 1;
	} else if (cli_match_value(a, "--format", argc, argv, i, &v)) {
		int f = v ? emit_format_from_name(v) : -1;

		if (f != ABBREV_FORMAT_TEXT && f != ABBREV_FORMAT_JSON) {
			snprintf(err, errsz, "%s format '%s' (verify prints text or json)",
				 f < 0 ? "unknown" : "no", v ? v : "");
			return CLI_USAGE;
		}
		o->r.format = f;
	} else {
		return 0;
	}
	return OPT_TAKEN;
}

int cli_parse_verify(cli_verify_opts *o, int argc, char **argv, char *err, size_t errsz)
{
	int rc;

	memset(o, 0, sizeof(*o));
	repo_opts_init(&o->r, argv);
	o->files = argv;
	o->min_length = CLI_DEFAULT_MIN_LENGTH;
	/* --format never reaches the shared options: verify_option takes it */
	rc = parse_repo_command(&o->r, EMIT_CHECK, o, verify_option, verify_positional, argc, argv,
				err, errsz);
	if (rc)
		return rc;
	if (o->range && o->nfiles) {
		snprintf(err, errsz, "--range checks the messages of commits, not files");
		return CLI_USAGE;
	}
	if (o->fix && o->range) {
		snprintf(err, errsz, "--fix rewrites a file, not history");
		return CLI_USAGE;
	}
	if (o->fix && o->nfiles > 1) {
		snprintf(err, errsz, "--fix takes one input (it prints it rewritten)");
		return CLI_USAGE;
	}
	if (o->fix && o->r.format != ABBREV_FORMAT_TEXT) {
		snprintf(err, errsz, "--fix prints the text; its findings go to stderr as text");
		return CLI_USAGE;
	}
	return CLI_OK;
}
