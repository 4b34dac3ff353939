/*
 * cli.c - one option table per command: it parses the command line (no
 * printing, no exiting), writes -h, and gives bash completion its words.
 *
 * In the spirit of git's parse-options and libgit2's src/cli/opt.c: a
 * row per option; long options may be shortened to a unique prefix
 * (--form=json), values come as --name=v or --name v, "--" ends the
 * options.  Checks across options live in each command's finish().
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

/* ---- value parsers of PARSE rows ------------------------------------------ */

#define FIELD(opts, opt, type) ((type *)(void *)((char *)(opts) + (opt)->offset))

/* A decimal number for `opt` between lo and hi, each included when its _in is set. */
static int parse_real(double *x, const cli_option *opt, const char *v, double lo, int lo_in,
		      double hi, int hi_in, char *err, size_t errsz)
{
	char *end;

	errno = 0;
	*x = strtod(v, &end);
	if (errno || end == v || *end || !(lo_in ? *x >= lo : *x > lo) ||
	    !(hi_in ? *x <= hi : *x < hi)) {
		snprintf(err, errsz, "'--%s' takes a number %s %g and %s %g, not '%s'", opt->name,
			 lo_in ? "from" : "above", lo, hi_in ? "up to" : "below", hi, v);
		return -1;
	}
	return 0;
}

#define CLI_MAX_YEARS 1000.0

static int parse_probability(void *o, const cli_option *opt, const char *v, char *err, size_t n)
{
	return parse_real(FIELD(o, opt, double), opt, v, 0, 1, 1, 1, err, n);
}

static int parse_target_p(void *o, const cli_option *opt, const char *v, char *err, size_t n)
{
	return parse_real(FIELD(o, opt, double), opt, v, 0, 0, 1, 0, err, n);
}

static int parse_window(void *o, const cli_option *opt, const char *v, char *err, size_t n)
{
	return parse_real(FIELD(o, opt, double), opt, v, 0, 0, CLI_MAX_YEARS, 0, err, n);
}

static int parse_horizon(void *o, const cli_option *opt, const char *v, char *err, size_t n)
{
	return parse_real(FIELD(o, opt, double), opt, v, 0, 1, CLI_MAX_YEARS, 0, err, n);
}

static int parse_count(uint64_t *n, const cli_option *opt, const char *v, char *err,
		       size_t errsz)
{
	unsigned long long x;
	char *end;

	errno = 0;
	x = strtoull(v, &end, 10);
	if (*v < '0' || *v > '9' || *end) {
		snprintf(err, errsz, "option '--%s' takes a whole number, not '%s'", opt->name, v);
		return -1;
	}
	if (errno == ERANGE) {
		snprintf(err, errsz, "option '--%s': %s is too large", opt->name, v);
		return -1;
	}
	*n = (uint64_t)x;
	return 0;
}

static int parse_objects(void *opts, const cli_option *opt, const char *v, char *err, size_t n)
{
	cli_model_opts *o = opts;

	o->have_objects = 1;
	return parse_count(&o->objects, opt, v, err, n);
}

static int parse_commits(void *opts, const cli_option *opt, const char *v, char *err, size_t n)
{
	cli_model_opts *o = opts;

	o->have_commits = 1;
	return parse_count(&o->commits, opt, v, err, n);
}

static int parse_policy_objects(void *opts, const cli_option *opt, const char *v, char *err,
				size_t n)
{
	cli_policy_opts *o = opts;

	o->have_objects = 1;
	return parse_count(&o->objects, opt, v, err, n);
}

static int parse_policy_commits(void *opts, const cli_option *opt, const char *v, char *err,
				size_t n)
{
	cli_policy_opts *o = opts;

	o->have_commits = 1;
	return parse_count(&o->commits, opt, v, err, n);
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

static int cmp_unsigned(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return (x > y) - (x < y);
}

/* --lengths=a..b or a,b,c: lengths from ABBREV_MIN_LEN to ABBREV_MAX_HEXSZ, sorted, once each. */
static int parse_lengths(void *opts, const cli_option *opt, const char *v, char *err,
			 size_t errsz)
{
	cli_policy_opts *o = opts;
	unsigned long a, b;
	const char *s = v;
	char *end;
	size_t n = 0;

	errno = 0;
	if (*s < '0' || *s > '9')
		goto bad;
	a = strtoul(s, &end, 10);
	if (!strncmp(end, "..", 2)) {
		s = end + 2;
		if (*s < '0' || *s > '9')
			goto bad;
		b = strtoul(s, &end, 10);
		if (*end || errno || a < ABBREV_MIN_LEN || b > ABBREV_MAX_HEXSZ || a > b ||
		    b - a >= POLICY_MAX_LENGTHS)
			goto bad;
		for (unsigned long L = a; L <= b; L++)
			o->lengths[n++] = (unsigned)L;
	} else {
		for (;;) {
			if (errno || a < ABBREV_MIN_LEN || a > ABBREV_MAX_HEXSZ ||
			    n == POLICY_MAX_LENGTHS)
				goto bad;
			o->lengths[n++] = (unsigned)a;
			if (!*end)
				break;
			if (*end != ',' || end[1] < '0' || end[1] > '9')
				goto bad;
			a = strtoul(end + 1, &end, 10);
		}
		qsort(o->lengths, n, sizeof(*o->lengths), cmp_unsigned);
		for (size_t i = 1, k = 1; i <= n; i++) {
			if (i == n) {
				n = k;
				break;
			}
			if (o->lengths[i] != o->lengths[k - 1])
				o->lengths[k++] = o->lengths[i];
		}
	}
	o->nlengths = n;
	return 0;
bad:
	snprintf(err, errsz, "'--%s' takes lengths from %d to %d as a..b or a,b,c (at most %d), "
		 "not '%s'", opt->name, ABBREV_MIN_LEN, ABBREV_MAX_HEXSZ, POLICY_MAX_LENGTHS, v);
	return -1;
}

static int parse_shard_opt(void *o, const cli_option *opt, const char *v, char *err,
			   size_t errsz)
{
	return shard_parse(FIELD(o, opt, shard), v, err, errsz);
}

/* A length of hex chars, ABBREV_MIN_LEN to ABBREV_MAX_HEXSZ, into an unsigned field. */
static int parse_length(void *o, const cli_option *opt, const char *v, char *err, size_t errsz)
{
	uint64_t n;

	if (parse_count(&n, opt, v, err, errsz))
		return -1;
	if (n < ABBREV_MIN_LEN || n > ABBREV_MAX_HEXSZ) {
		snprintf(err, errsz, "option '--%s' takes a length from %d to %d, not '%s'",
			 opt->name, ABBREV_MIN_LEN, ABBREV_MAX_HEXSZ, v);
		return -1;
	}
	*FIELD(o, opt, unsigned) = (unsigned)n;
	return 0;
}

/* A size in bytes into a uint64_t field: a whole number with k, m or g (1024-based). */
static int parse_size(void *o, const cli_option *opt, const char *v, char *err, size_t errsz)
{
	static const char units[] = "kmg";
	unsigned long long x;
	const char *u;
	char *end;
	int shift = 0;

	errno = 0;
	x = strtoull(v, &end, 10);
	if (*end && end[1] == '\0' && (u = strchr(units, end[0] | 0x20)) != NULL)
		shift = 10 * (int)(u - units + 1), end++;
	if (*v < '0' || *v > '9' || *end || x == 0) {
		snprintf(err, errsz, "option '--%s' takes a size such as 512k, 64m or 2g, not '%s'",
			 opt->name, v);
		return -1;
	}
	if (errno == ERANGE || x > (UINT64_MAX >> shift)) {
		snprintf(err, errsz, "option '--%s': %s is too large", opt->name, v);
		return -1;
	}
	*FIELD(o, opt, uint64_t) = (uint64_t)x << shift;
	return 0;
}

/* --refs=<pattern>: one more pattern (the field is cli_repo_opts.refs), and --reachable */
static int parse_refs(void *o, const cli_option *opt, const char *v, char *err, size_t errsz)
{
	cli_repo_opts *r = (cli_repo_opts *)(void *)((char *)FIELD(o, opt, const char *) -
						       offsetof(cli_repo_opts, refs));

	if (!*v) {
		snprintf(err, errsz, "option '--%s' needs a pattern", opt->name);
		return -1;
	}
	if (r->nrefs == CLI_MAX_REFS) {
		snprintf(err, errsz, "at most %d '--%s' patterns", CLI_MAX_REFS, opt->name);
		return -1;
	}
	r->refs[r->nrefs++] = v;
	r->reachable = 1;
	return 0;
}

/* verify --repo=<path>: one more repository (the field is cli_verify_opts.other) */
static int parse_other_repo(void *o, const cli_option *opt, const char *v, char *err,
			    size_t errsz)
{
	cli_verify_opts *vo = o;

	if (vo->nother == CLI_MAX_OTHER_REPOS) {
		snprintf(err, errsz, "at most %d '--%s' options", CLI_MAX_OTHER_REPOS, opt->name);
		return -1;
	}
	vo->other[vo->nother++] = v;
	return 0;
}

/* ---- the tables ------------------------------------------------------------ */

static const cli_choice types[] = {
	{ "commit", ABBREV_SET_COMMIT }, { "commit-ish", ABBREV_SET_COMMITISH },
	{ "tree", ABBREV_SET_TREE }, { "blob", ABBREV_SET_BLOB },
	{ "tag", ABBREV_SET_TAG }, { "all", ABBREV_SET_ALL }, { NULL, 0 }
};
static const cli_choice fail_ons[] = {
	{ "warning", CLI_FAIL_ON_WARNING }, { "error", CLI_FAIL_ON_ERROR }, { NULL, 0 }
};
static const cli_choice againsts[] = { { "same", 0 }, { "all", 1 }, { NULL, 0 } };
static const cli_choice walkers[] = {
	{ "pack", CLI_WALKER_PACK }, { "libgit2", CLI_WALKER_LIBGIT2 }, { NULL, 0 }
};
static const cli_choice fits[] = {
	{ "auto", PROJECTION_FIT_AUTO }, { "exponential", PROJECTION_FIT_EXP },
	{ "linear", PROJECTION_FIT_LINEAR }, { NULL, 0 }
};

#define FLAG(name, sh, off, val, help) { CLI_OPT_FLAG, name, sh, off, val, NULL, NULL, NULL, help }
#define CHOICE(name, off, ch, help) { CLI_OPT_CHOICE, name, 0, off, 0, ch, NULL, NULL, help }
#define FORMAT(off, kind) \
	{ CLI_OPT_FORMAT, "format", 0, off, kind, NULL, NULL, NULL, "the output format (default text)" }
#define VALUE(name, off, fn, arg, help) { CLI_OPT_PARSE, name, 0, off, 0, NULL, fn, arg, help }
#define STRING(name, off, arg, help) { CLI_OPT_STRING, name, 0, off, 0, NULL, NULL, arg, help }
#define END { 0, NULL, 0, 0, 0, NULL, NULL, NULL, NULL }

/* Options of every command that reads repositories; R is the path to its cli_repo_opts. */
#define IMPROBABLE(T, R) \
	VALUE("improbable", offsetof(T, R improbable), parse_probability, "<P>", \
	      "flag groups less likely than P for random IDs (default 1e-4)")
#define SHARD(T, R) \
	VALUE("shard", offsetof(T, R shard), parse_shard_opt, "<K>/<N>", \
	      "count only shard K of N (N divides 256): IDs whose first byte is K*256/N to (K+1)*256/N-1")
#define TITLE(T, R) \
	STRING("title", offsetof(T, R title), "<text>", \
	       "the title of a chart or Markdown heading (default: repository names)")
#define PROGRESS_ROWS(T, R) \
	FLAG("progress", 0, offsetof(T, R progress), 1, "show progress on stderr"), \
	FLAG("no-progress", 0, offsetof(T, R progress), 0, \
	     "no progress (default: progress when stderr is a terminal)")
#define CHDIR_HELP_ROWS(T, R) \
	{ CLI_OPT_CHDIR, NULL, 'C', offsetof(T, R chdir), 0, NULL, NULL, "<path>", \
	  "run as if started in <path>, as git -C does" }, \
	{ CLI_OPT_HELP, "help", 'h', 0, 0, NULL, NULL, NULL, "show this help" }
#define REPO_ROWS(T, R) \
	FLAG("reachable", 0, offsetof(T, R reachable), 1, \
	     "only objects reachable from HEAD, branches and tags (a clone's view)"), \
	VALUE("refs", offsetof(T, R refs), parse_refs, "<pattern>", \
	      "walk these refs, not a clone's (repeatable; 'refs/*': all)"), \
	CHOICE("walker", offsetof(T, R walker), walkers, \
	       "read the pack files directly (default) or through libgit2"), \
	PROGRESS_ROWS(T, R), \
	CHDIR_HELP_ROWS(T, R)

static void repo_init(cli_repo_opts *o, char **argv)
{
	memset(o, 0, sizeof(*o));
	o->format = ABBREV_FORMAT_TEXT;
	o->progress = -1;
	o->walker = CLI_WALKER_PACK;
	o->improbable = CLI_DEFAULT_IMPROBABLE;
	o->repos = argv;
	o->shard = SHARD_ALL;
}

static int repo_positional(void *opts, char *arg, char *err, size_t errsz)
{
	cli_repo_opts *r = opts;

	(void)err;
	(void)errsz;
	r->repos[r->nrepos++] = arg;
	return 0;
}

/* report */

static const cli_option report_options[] = {
	FORMAT(offsetof(cli_report_opts, format), EMIT_REPORT),
	CHOICE("type", offsetof(cli_report_opts, set), types,
	       "with --format=classic: the one set it lists (default all)"),
	IMPROBABLE(cli_report_opts, ),
	SHARD(cli_report_opts, ),
	TITLE(cli_report_opts, ),
	REPO_ROWS(cli_report_opts, ),
	END
};

static void report_init(void *opts, char **argv)
{
	cli_report_opts *o = opts;

	repo_init(o, argv);
	o->set = -1;
}

static int report_finish(void *opts, char *err, size_t errsz)
{
	cli_report_opts *o = opts;
	int typed = o->set >= 0;

	if (!typed)
		o->set = ABBREV_SET_ALL;
	if (typed && o->format != ABBREV_FORMAT_CLASSIC) {
		snprintf(err, errsz, "'--type' goes with --format=classic (the other formats "
			 "show every type)");
		return -1;
	}
	return 0;
}

const cli_command cli_cmd_report = {
	"report", "[<repo>...]",
	"the full comparison: colliding IDs per length, per type and for all objects",
	NULL, report_options, report_init, repo_positional, report_finish, 0
};

/* check */

static const cli_option check_options[] = {
	CHOICE("type", offsetof(cli_check_opts, set), types,
	       "the set whose IDs are compared (default commit)"),
	CHOICE("against", offsetof(cli_check_opts, against_all), againsts,
	       "compare with IDs of the same set (default) or of all objects"),
	FLAG("quiet", 'q', offsetof(cli_check_opts, quiet), 1, "print nothing: the exit status says"),
	FORMAT(offsetof(cli_check_opts, r.format), EMIT_CHECK),
	IMPROBABLE(cli_check_opts, r.),
	REPO_ROWS(cli_check_opts, r.),
	END
};

static void check_init(void *opts, char **argv)
{
	cli_check_opts *o = opts;

	memset(o, 0, sizeof(*o));
	repo_init(&o->r, argv);
	o->set = ABBREV_SET_COMMIT;
}

/* The first positional argument is the length, the rest are repositories. */
static int check_positional(void *opts, char *arg, char *err, size_t errsz)
{
	cli_check_opts *o = opts;
	unsigned long n;
	char *end;

	if (o->length)
		return repo_positional(&o->r, arg, err, errsz);
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
	return 0;
}

const cli_command cli_cmd_check = {
	"check", "<N> [<repo>...]",
	"do IDs of a type (default commit) collide at N chars? exit 1 if they do",
	"exit status: 0 no two IDs share N chars, 1 some do, 2 usage, 3+ error\n",
	check_options, check_init, check_positional, check_finish, offsetof(cli_check_opts, r)
};

/* model */

static const cli_option model_options[] = {
	VALUE("objects", offsetof(cli_model_opts, objects), parse_objects, "<N>",
	      "model N IDs of all objects"),
	VALUE("commits", offsetof(cli_model_opts, commits), parse_commits, "<M>",
	      "and M IDs of commits"),
	FORMAT(offsetof(cli_model_opts, format), EMIT_MODEL),
	VALUE("from", offsetof(cli_model_opts, from), parse_length, "<L>", "the first length shown"),
	VALUE("to", offsetof(cli_model_opts, to), parse_length, "<L>", "the last length shown"),
	TITLE(cli_model_opts, r.),
	REPO_ROWS(cli_model_opts, r.),
	END
};

static void model_init(void *opts, char **argv)
{
	cli_model_opts *o = opts;

	memset(o, 0, sizeof(*o));
	repo_init(&o->r, argv);
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
	model_options, model_init, model_positional, model_finish, offsetof(cli_model_opts, r)
};

/* verify */

static const cli_option verify_options[] = {
	VALUE("min-length", offsetof(cli_verify_opts, min_length), parse_length, "<N>",
	      "the shortest ID a reference may use (default: abbrev.minLength, else 12)"),
	STRING("range", offsetof(cli_verify_opts, range), "<rev-range>",
	       "check the messages of these commits instead of files"),
	FLAG("fix", 0, offsetof(cli_verify_opts, fix), 1,
	     "print the input with its references rewritten"),
	VALUE("max-input", offsetof(cli_verify_opts, max_input), parse_size, "<size>",
	      "read at most this much of each input (default 256m)"),
	CHOICE("fail-on", offsetof(cli_verify_opts, fail_on), fail_ons,
	       "exit 1 on any finding (warning, default) or only on errors (error)"),
	VALUE("repo", offsetof(cli_verify_opts, other), parse_other_repo, "<path>",
	      "also look IDs up in this repository before calling them unknown (repeatable)"),
	FLAG("no-cache", 0, offsetof(cli_verify_opts, no_cache), 1,
	     "neither read nor write the subject cache (read every commit)"),
	FORMAT(offsetof(cli_verify_opts, r.format), EMIT_VERIFY),
	REPO_ROWS(cli_verify_opts, r.),
	END
};

static void verify_init(void *opts, char **argv)
{
	cli_verify_opts *o = opts;

	memset(o, 0, sizeof(*o));
	repo_init(&o->r, argv);
	o->files = argv;
	o->min_length = 0; /* not given: git config abbrev.minLength, else the default (cmd_verify.c) */
	o->max_input = CLI_DEFAULT_MAX_INPUT;
}

static int verify_positional(void *opts, char *arg, char *err, size_t errsz)
{
	cli_verify_opts *o = opts;

	(void)err;
	(void)errsz;
	o->files[o->nfiles++] = arg;
	return 0;
}

static int verify_finish(void *opts, char *err, size_t errsz)
{
	cli_verify_opts *o = opts;
	const char *why = NULL;

	if (o->range && o->nfiles)
		why = "--range checks the messages of commits, not files";
	else if (o->fix && o->range)
		why = "--fix rewrites a file, not history";
	else if (o->fix && o->nfiles > 1)
		why = "--fix takes one input (it prints it rewritten)";
	else if (o->fix && o->r.format != ABBREV_FORMAT_TEXT)
		why = "--fix prints the text; its findings go to stderr as text";
	if (why)
		snprintf(err, errsz, "%s", why);
	return why ? -1 : 0;
}

const cli_command cli_cmd_verify = {
	"verify", "[<file>...]",
	"check Fixes: tags and commit references by ID and subject; exit 1 if any is wrong",
	"checks Fixes: tags, `commit <id> (\"subject\")` and `This reverts commit <id>.`\n"
	"in the files (none or '-': stdin), or with --range in the commits' messages\n"
	"exit status: 0 nothing flagged, 1 something flagged, 2 usage, 3+ error\n",
	verify_options, verify_init, verify_positional, verify_finish,
	offsetof(cli_verify_opts, r)
};

/* history */

static const cli_option history_options[] = {
	FORMAT(offsetof(cli_history_opts, r.format), EMIT_HISTORY),
	VALUE("window-years", offsetof(cli_history_opts, window_years), parse_window, "<Y>",
	      "fit the growth of the last Y years"),
	CHOICE("fit", offsetof(cli_history_opts, fit), fits,
	       "the growth curve (default auto: the better fit)"),
	VALUE("target-p", offsetof(cli_history_opts, target_p), parse_target_p, "<P>",
	      "a length is safe while P(collision) stays below P"),
	VALUE("horizon-years", offsetof(cli_history_opts, horizon_years), parse_horizon, "<Y>",
	      "... for Y more years"),
	FLAG("no-projection", 0, offsetof(cli_history_opts, projection), 0,
	     "the past only, no projection"),
	TITLE(cli_history_opts, r.),
	REPO_ROWS(cli_history_opts, r.),
	END
};

static void history_init(void *opts, char **argv)
{
	cli_history_opts *o = opts;

	memset(o, 0, sizeof(*o));
	repo_init(&o->r, argv);
	o->window_years = PROJECTION_DEFAULT_WINDOW;
	o->fit = PROJECTION_FIT_AUTO;
	o->target_p = PROJECTION_DEFAULT_TARGET_P;
	o->horizon_years = PROJECTION_DEFAULT_HORIZON;
	o->projection = 1;
}

static int history_positional(void *opts, char *arg, char *err, size_t errsz)
{
	return repo_positional(&((cli_history_opts *)opts)->r, arg, err, errsz);
}

const cli_command cli_cmd_history = {
	"history", "[<repo>...]",
	"when each length first collided among commits, and when the next ones will",
	NULL, history_options, history_init, history_positional, NULL,
	offsetof(cli_history_opts, r)
};

/* ids */

static const cli_option ids_options[] = {
	FORMAT(offsetof(cli_ids_opts, r.format), EMIT_REPORT),
	CHOICE("type", offsetof(cli_ids_opts, r.set), types,
	       "with --format=classic: the one set it lists (default all)"),
	FLAG("skip-bad", 0, offsetof(cli_ids_opts, skip_bad), 1,
	     "skip and count lines that are no ID line (default: stop at the first)"),
	SHARD(cli_ids_opts, r.),
	IMPROBABLE(cli_ids_opts, r.),
	TITLE(cli_ids_opts, r.),
	PROGRESS_ROWS(cli_ids_opts, r.),
	CHDIR_HELP_ROWS(cli_ids_opts, r.),
	END
};

static void ids_init(void *opts, char **argv)
{
	cli_ids_opts *o = opts;

	memset(o, 0, sizeof(*o));
	report_init(&o->r, argv);
}

static int ids_finish(void *opts, char *err, size_t errsz)
{
	return report_finish(&((cli_ids_opts *)opts)->r, err, errsz);
}

static int ids_positional(void *opts, char *arg, char *err, size_t errsz)
{
	return repo_positional(&((cli_ids_opts *)opts)->r, arg, err, errsz);
}

const cli_command cli_cmd_ids = {
	"ids", "[<file>...]",
	"the report of object IDs listed in files: git cat-file --batch-check lines, SWHIDs",
	"reads `<id> <type>` lines (git cat-file --batch-check) or SWHIDs (swh:1:rev:<id> ...),\n"
	"plain, gzip or zstd, from the files (none or '-': stdin); an ID listed twice counts once\n"
	"--format=partial writes what `git abbrev merge` adds up (see --shard)\n",
	ids_options, ids_init, ids_positional, ids_finish, offsetof(cli_ids_opts, r)
};

/* merge */

static const cli_option merge_options[] = {
	FORMAT(offsetof(cli_merge_opts, format), EMIT_REPORT),
	CHOICE("type", offsetof(cli_merge_opts, set), types,
	       "with --format=classic: the one set it lists (default all)"),
	IMPROBABLE(cli_merge_opts, ),
	TITLE(cli_merge_opts, ),
	CHDIR_HELP_ROWS(cli_merge_opts, ),
	END
};

static int merge_finish(void *opts, char *err, size_t errsz)
{
	cli_merge_opts *o = opts;

	if (!o->nrepos) {
		snprintf(err, errsz, "no partial results to merge");
		return -1;
	}
	return report_finish(o, err, errsz);
}

const cli_command cli_cmd_merge = {
	"merge", "<part>...",
	"the report of the whole set from the --format=partial results of its shards",
	"<part>: what `git abbrev ids` or `report` wrote with --shard=K/N --format=partial;\n"
	"together the parts must cover every shard exactly once\n",
	merge_options, report_init, repo_positional, merge_finish, 0
};

/* policy */

static const cli_option policy_options[] = {
	FORMAT(offsetof(cli_policy_opts, r.format), EMIT_POLICY),
	VALUE("lengths", offsetof(cli_policy_opts, lengths), parse_lengths, "<a..b|a,b,c>",
	      "the lengths to show (default 10..16)"),
	VALUE("growth", offsetof(cli_policy_opts, growth), parse_growth, "<rate>",
	      "8%/year, 80000/year (objects) or '8000 commits/year' (default: the history's fit)"),
	VALUE("objects", offsetof(cli_policy_opts, objects), parse_policy_objects, "<N>",
	      "no repository: N IDs of all objects"),
	VALUE("commits", offsetof(cli_policy_opts, commits), parse_policy_commits, "<M>",
	      "and M IDs of commits"),
	VALUE("horizon-years", offsetof(cli_policy_opts, horizon_years), parse_horizon, "<Y>",
	      "years later than Y from now are 'beyond' (default 50)"),
	VALUE("window-years", offsetof(cli_policy_opts, window_years), parse_window, "<Y>",
	      "fit the growth of the last Y years of commits (default 5)"),
	CHOICE("fit", offsetof(cli_policy_opts, fit), fits,
	       "the growth curve fitted (default auto: the better fit)"),
	TITLE(cli_policy_opts, r.),
	REPO_ROWS(cli_policy_opts, r.),
	END
};

static void policy_init(void *opts, char **argv)
{
	cli_policy_opts *o = opts;

	memset(o, 0, sizeof(*o));
	repo_init(&o->r, argv);
	for (unsigned L = POLICY_FROM; L <= POLICY_TO; L++)
		o->lengths[o->nlengths++] = L;
	o->horizon_years = POLICY_DEFAULT_HORIZON;
	o->window_years = PROJECTION_DEFAULT_WINDOW;
	o->fit = PROJECTION_FIT_AUTO;
}

static int policy_positional(void *opts, char *arg, char *err, size_t errsz)
{
	return repo_positional(&((cli_policy_opts *)opts)->r, arg, err, errsz);
}

static int policy_finish(void *opts, char *err, size_t errsz)
{
	cli_policy_opts *o = opts;
	int counts = o->have_objects || o->have_commits;

	if (counts && o->r.nrepos)
		snprintf(err, errsz, "policy takes counts (--objects, --commits) or repositories, "
			 "not both");
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
	"policy reads the repositories (default: the current one) and projects their growth,\n"
	"or models --objects=N (and --commits=M) grown by --growth\n",
	policy_options, policy_init, policy_positional, policy_finish,
	offsetof(cli_policy_opts, r)
};

/* cache */

static const cli_choice cache_formats[] = {
	{ "text", ABBREV_FORMAT_TEXT }, { "json", ABBREV_FORMAT_JSON }, { NULL, 0 }
};

static const cli_option cache_options[] = {
	FLAG("clear", 0, offsetof(cli_cache_opts, clear), 1, "remove every table of the cache"),
	CHOICE("format", offsetof(cli_cache_opts, r.format), cache_formats,
	       "the output format (default text)"),
	CHDIR_HELP_ROWS(cli_cache_opts, r.),
	END
};

static void cache_init(void *opts, char **argv)
{
	cli_cache_opts *o = opts;

	memset(o, 0, sizeof(*o));
	repo_init(&o->r, argv);
}

static int cache_positional(void *opts, char *arg, char *err, size_t errsz)
{
	(void)opts;
	snprintf(err, errsz, "cache takes no arguments ('%s')", arg);
	return -1;
}

const cli_command cli_cmd_cache = {
	"cache", "",
	"where verify's per-pack tables are kept, their size and packs; --clear empties it",
	"the cache is kept under git config abbrev.cacheSize (default 1g), the longest\n"
	"unused tables removed first, and those of repacked packs\n",
	cache_options, cache_init, cache_positional, NULL, offsetof(cli_cache_opts, r)
};

const cli_command *const cli_commands[] = {
	&cli_cmd_report, &cli_cmd_check, &cli_cmd_model, &cli_cmd_verify, &cli_cmd_history,
	&cli_cmd_policy, &cli_cmd_ids, &cli_cmd_merge, &cli_cmd_cache
};
const size_t cli_ncommands = sizeof(cli_commands) / sizeof(cli_commands[0]);

const cli_command *cli_command_find(const char *name)
{
	for (size_t i = 0; i < cli_ncommands; i++)
		if (!strcmp(name, cli_commands[i]->name))
			return cli_commands[i];
	return NULL;
}

/* ---- parsing --------------------------------------------------------------- */

static int takes_value(const cli_option *opt)
{
	return opt->kind != CLI_OPT_FLAG && opt->kind != CLI_OPT_HELP;
}

static int is_end(const cli_option *opt)
{
	return !opt->name && !opt->short_name;
}

/*
 * The words an option takes, joined: sep between them, last before the
 * last one ("a, b or c"; "a|b|c"; "a b c").  Empty for free values.
 */
static void values_of(char *buf, size_t n, const cli_option *opt, const char *sep,
		      const char *last)
{
	const char *w[16];
	size_t k = 0, o = 0;

	buf[0] = '\0';
	if (opt->kind == CLI_OPT_CHOICE) {
		for (const cli_choice *c = opt->choices; c->name && k < 16; c++)
			w[k++] = c->name;
	} else if (opt->kind == CLI_OPT_FORMAT) {
		for (int f = 0; emit_format_name(f) && k < 16; f++)
			if (emit_format_supported(opt->value, f))
				w[k++] = emit_format_name(f);
	}
	for (size_t i = 0; i < k && o < n; i++)
		o += (size_t)snprintf(buf + o, n - o, "%s%s",
				      i == 0 ? "" : i + 1 == k ? last : sep, w[i]);
}

/* The choice `v` names exactly or as a unique prefix, or NULL. */
static const cli_choice *find_choice(const cli_choice *c, const char *v)
{
	const cli_choice *found = NULL;
	size_t len = strlen(v);
	int n = 0;

	for (; c->name && len; c++) {
		if (strncmp(c->name, v, len))
			continue;
		if (!c->name[len])
			return c;
		found = c;
		n++;
	}
	return n == 1 ? found : NULL;
}

/* Store a value or a flag of `opt`; 0, or -1 with a message. */
static int set_option(const cli_command *cmd, void *opts, const cli_option *opt, const char *v,
		      char *err, size_t errsz)
{
	cli_repo_opts *r = cli_repo_of(cmd, opts);
	const cli_choice *c;
	char words[128];
	int i;

	switch (opt->kind) {
	case CLI_OPT_FLAG:
		*FIELD(opts, opt, int) = opt->value;
		return 0;
	case CLI_OPT_CHOICE:
		c = find_choice(opt->choices, v);
		if (c) {
			*FIELD(opts, opt, int) = c->value;
			return 0;
		}
		values_of(words, sizeof(words), opt, ", ", " or ");
		snprintf(err, errsz, "'--%s' takes %s, not '%s'", opt->name, words, v);
		return -1;
	case CLI_OPT_FORMAT:
		i = emit_format_from_name(v);
		if (emit_format_supported(opt->value, i)) {
			*FIELD(opts, opt, int) = i;
			return 0;
		}
		values_of(words, sizeof(words), opt, ", ", " or ");
		snprintf(err, errsz, "%s format '%s' (%s prints %s)", i < 0 ? "unknown" : "no", v,
			 cmd->name, words);
		return -1;
	case CLI_OPT_STRING:
		if (!*v) {
			snprintf(err, errsz, "option '--%s' needs %s", opt->name, opt->arg);
			return -1;
		}
		*FIELD(opts, opt, const char *) = v;
		return 0;
	case CLI_OPT_PARSE:
		if (!*v) {
			snprintf(err, errsz, "option '--%s' needs %s", opt->name, opt->arg);
			return -1;
		}
		return opt->parse(opts, opt, v, err, errsz);
	case CLI_OPT_CHDIR:
		if (!*v)
			return 0; /* git -C "": stay where we are */
		if (r->nchdir == CLI_MAX_CHDIR) {
			snprintf(err, errsz, "more than %d -C options", CLI_MAX_CHDIR);
			return -1;
		}
		r->chdir[r->nchdir++] = v;
		return 0;
	}
	return 0;
}

/*
 * The option `a` names, a long one exactly or by a unique prefix (git's
 * rule); its attached value ("--name=v", "-Cpath") in *v, else NULL.
 */
static const cli_option *find_option(const cli_command *cmd, const char *a, const char **v,
				     char *err, size_t errsz)
{
	const cli_option *opt, *found = NULL;
	size_t len, o;
	int n = 0;

	if (a[1] != '-') {
		for (opt = cmd->options; !is_end(opt); opt++)
			if (opt->short_name == a[1]) {
				*v = a[2] ? a + 2 : NULL;
				return opt;
			}
		snprintf(err, errsz, "unknown option '%s'", a);
		return NULL;
	}
	len = strcspn(a + 2, "=");
	*v = a[2 + len] == '=' ? a + 3 + len : NULL;
	for (opt = cmd->options; !is_end(opt) && len; opt++) {
		if (!opt->name || strncmp(opt->name, a + 2, len))
			continue;
		if (!opt->name[len])
			return opt;
		found = opt;
		n++;
	}
	if (n == 1)
		return found;
	if (!n) {
		snprintf(err, errsz, "unknown option '%.*s'", (int)len + 2, a);
		return NULL;
	}
	o = (size_t)snprintf(err, errsz, "ambiguous option '%.*s' (could be", (int)len + 2, a);
	for (opt = cmd->options, n = 0; !is_end(opt) && o < errsz; opt++)
		if (opt->name && !strncmp(opt->name, a + 2, len))
			o += (size_t)snprintf(err + o, errsz - o, "%s --%s", n++ ? " or" : "",
					      opt->name);
	if (o < errsz)
		snprintf(err + o, errsz - o, ")");
	return NULL;
}

#define COMPLETION_HELPER "--git-completion-helper"

int cli_parse(const cli_command *cmd, void *opts, int argc, char **argv, char *err,
	      size_t errsz)
{
	cli_repo_opts *r = cli_repo_of(cmd, opts);
	size_t hl = strlen(COMPLETION_HELPER);
	int only_args = 0;

	err[0] = '\0';
	cmd->init(opts, argv);
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *v;
		const cli_option *opt;

		if (only_args || a[0] != '-' || !a[1]) {
			if (cmd->positional(opts, argv[i], err, errsz))
				return CLI_USAGE;
			continue;
		}
		if (!strcmp(a, "--")) {
			only_args = 1;
			continue;
		}
		if (!strncmp(a, COMPLETION_HELPER, hl) && (!a[hl] || a[hl] == '=')) {
			r->complete = a[hl] ? a + hl + 1 : "";
			return CLI_COMPLETE;
		}
		opt = find_option(cmd, a, &v, err, errsz);
		if (!opt)
			return CLI_USAGE;
		if (opt->kind == CLI_OPT_HELP)
			return CLI_HELP;
		if (!takes_value(opt) && v) {
			snprintf(err, errsz, "option '--%s' takes no value", opt->name);
			return CLI_USAGE;
		}
		if (takes_value(opt) && !v) {
			if (i + 1 >= argc) {
				if (opt->name)
					snprintf(err, errsz, "option '--%s' needs a value", opt->name);
				else
					snprintf(err, errsz, "option '-%c' needs a value", opt->short_name);
				return CLI_USAGE;
			}
			v = argv[++i];
		}
		if (set_option(cmd, opts, opt, v, err, errsz))
			return CLI_USAGE;
	}
	if (cmd->finish && cmd->finish(opts, err, errsz))
		return CLI_USAGE;
	return CLI_OK;
}

cli_repo_opts *cli_repo_of(const cli_command *cmd, void *opts)
{
	return (cli_repo_opts *)(void *)((char *)opts + cmd->repo_offset);
}

int cli_parse_report(cli_report_opts *o, int argc, char **argv, char *err, size_t errsz)
{
	return cli_parse(&cli_cmd_report, o, argc, argv, err, errsz);
}

int cli_parse_check(cli_check_opts *o, int argc, char **argv, char *err, size_t errsz)
{
	return cli_parse(&cli_cmd_check, o, argc, argv, err, errsz);
}

int cli_parse_model(cli_model_opts *o, int argc, char **argv, char *err, size_t errsz)
{
	return cli_parse(&cli_cmd_model, o, argc, argv, err, errsz);
}

int cli_parse_verify(cli_verify_opts *o, int argc, char **argv, char *err, size_t errsz)
{
	return cli_parse(&cli_cmd_verify, o, argc, argv, err, errsz);
}

int cli_parse_history(cli_history_opts *o, int argc, char **argv, char *err, size_t errsz)
{
	return cli_parse(&cli_cmd_history, o, argc, argv, err, errsz);
}

/* ---- what the table writes: -h, completion words, did-you-mean --------------- */

/* The left column of an option in -h: "-q, --quiet", "--type=commit|tree", "-C <path>". */
static void option_synopsis(char *buf, size_t n, const cli_option *opt)
{
	char words[128];
	size_t o = 0;

	if (opt->short_name)
		o += (size_t)snprintf(buf, n, "-%c%s", opt->short_name, opt->name ? ", " : "");
	if (opt->name && o < n)
		o += (size_t)snprintf(buf + o, n - o, "--%s", opt->name);
	values_of(words, sizeof(words), opt, "|", "|");
	if (o < n && takes_value(opt))
		snprintf(buf + o, n - o, "%s%s", opt->name ? "=" : " ", words[0] ? words : opt->arg);
}

#define USAGE_INDENT 4
#define USAGE_WIDTH 26 /* where the help column starts, as in git's -h */

void cli_usage(FILE *out, const cli_command *cmd)
{
	int deflt = cmd == cli_commands[0];
	char left[160];

	fprintf(out, "usage: git abbrev %s%s%s [<options>]%s%s\n\n", deflt ? "[" : "", cmd->name,
		deflt ? "]" : "", *cmd->args ? " " : "", cmd->args);
	for (const cli_option *opt = cmd->options; !is_end(opt); opt++) {
		int w;

		option_synopsis(left, sizeof(left), opt);
		w = fprintf(out, "%*s%s", USAGE_INDENT, "", left);
		if (w + 2 > USAGE_WIDTH)
			fprintf(out, "\n%*s%s\n", USAGE_WIDTH, "", opt->help);
		else
			fprintf(out, "%*s%s\n", USAGE_WIDTH - w, "", opt->help);
	}
	if (cmd->notes)
		fprintf(out, "\n%s", cmd->notes);
}

void cli_complete(FILE *out, const cli_command *cmd, const char *option)
{
	char words[128];
	int k = 0;

	if (!strcmp(option, "commands")) {
		for (size_t i = 0; i < cli_ncommands; i++)
			fprintf(out, "%s%s", i ? " " : "", cli_commands[i]->name);
	} else if (!strcmp(option, "paths")) {
		/* the options whose value is a directory: completed as `cd` does */
		for (const cli_option *opt = cmd->options; !is_end(opt); opt++)
			if (takes_value(opt) && opt->arg && !strcmp(opt->arg, "<path>")) {
				if (opt->name)
					fprintf(out, "%s--%s", k++ ? " " : "", opt->name);
				else
					fprintf(out, "%s-%c", k++ ? " " : "", opt->short_name);
			}
	} else if (!*option) {
		for (const cli_option *opt = cmd->options; !is_end(opt); opt++) {
			if (opt->kind == CLI_OPT_HELP)
				continue;
			if (opt->name)
				fprintf(out, "%s--%s%s", k++ ? " " : "", opt->name,
					takes_value(opt) ? "=" : "");
			else
				fprintf(out, "%s-%c", k++ ? " " : "", opt->short_name);
		}
	} else {
		for (const cli_option *opt = cmd->options; !is_end(opt); opt++) {
			if (opt->name && !strcmp(opt->name, option + strspn(option, "-"))) {
				values_of(words, sizeof(words), opt, " ", " ");
				fputs(words, out);
				break;
			}
		}
	}
	fputc('\n', out);
}

/*
 * git's edit distance for "did you mean" (levenshtein.c): a swap of two
 * neighbours costs 0, a substitution 2, an insertion 1, a deletion 3, so
 * a word with letters left out ("chek") is near its command.
 */
static int distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	int rows[3][32], *r0 = rows[0], *r1 = rows[1], *r2 = rows[2];

	if (la >= 31 || lb >= 31)
		return 1000;
	for (size_t j = 0; j <= lb; j++)
		r1[j] = (int)j;
	for (size_t i = 0; i < la; i++) {
		int *t;

		r2[0] = (int)(i + 1) * 3;
		for (size_t j = 0; j < lb; j++) {
			int d = r1[j] + (a[i] != b[j]) * 2;

			if (i > 0 && j > 0 && a[i - 1] == b[j] && a[i] == b[j - 1] && d > r0[j - 1])
				d = r0[j - 1];
			if (d > r1[j + 1] + 3)
				d = r1[j + 1] + 3;
			if (d > r2[j] + 1)
				d = r2[j] + 1;
			r2[j + 1] = d;
		}
		t = r0;
		r0 = r1;
		r1 = r2;
		r2 = t;
	}
	return r1[lb];
}

#define SIMILARITY_FLOOR 7 /* git's: this far or farther is no suggestion */

size_t cli_similar_commands(const char *word, const cli_command **out, size_t max)
{
	int best = SIMILARITY_FLOOR, d[16];
	size_t n = 0, len = strlen(word);

	for (size_t i = 0; i < cli_ncommands && i < 16; i++) {
		/* as in git: a command the word begins is nearest, the rest one further */
		d[i] = strncmp(cli_commands[i]->name, word, len) ?
			distance(word, cli_commands[i]->name) + 1 : 0;
		if (d[i] < best)
			best = d[i];
	}
	for (size_t i = 0; i < cli_ncommands && i < 16 && n < max; i++)
		if (d[i] == best && best < SIMILARITY_FLOOR)
			out[n++] = cli_commands[i];
	return n;
}
