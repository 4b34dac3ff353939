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

#define CLI_FIELD(opts, opt, type) ((type *)(void *)((char *)(opts) + (opt)->offset))

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

int cli_opt_probability(void *o, const cli_option *opt, const char *v, char *err, size_t n)
{
	return parse_real(CLI_FIELD(o, opt, double), opt, v, 0, 1, 1, 1, err, n);
}

int cli_opt_target_p(void *o, const cli_option *opt, const char *v, char *err, size_t n)
{
	return parse_real(CLI_FIELD(o, opt, double), opt, v, 0, 0, 1, 0, err, n);
}

int cli_opt_window(void *o, const cli_option *opt, const char *v, char *err, size_t n)
{
	return parse_real(CLI_FIELD(o, opt, double), opt, v, 0, 0, CLI_MAX_YEARS, 0, err, n);
}

int cli_opt_horizon(void *o, const cli_option *opt, const char *v, char *err, size_t n)
{
	return parse_real(CLI_FIELD(o, opt, double), opt, v, 0, 1, CLI_MAX_YEARS, 0, err, n);
}

static int cmp_unsigned(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return (x > y) - (x < y);
}

/* --lengths=a..b or a,b,c: lengths from ABBREV_MIN_LEN to ABBREV_MAX_HEXSZ, sorted, once each. */
int cli_opt_lengths(void *opts, const cli_option *opt, const char *v, char *err, size_t errsz)
{
	cli_lengths *o = CLI_FIELD(opts, opt, cli_lengths);
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
			o->v[n++] = (unsigned)L;
	} else {
		for (;;) {
			if (errno || a < ABBREV_MIN_LEN || a > ABBREV_MAX_HEXSZ ||
			    n == POLICY_MAX_LENGTHS)
				goto bad;
			o->v[n++] = (unsigned)a;
			if (!*end)
				break;
			if (*end != ',' || end[1] < '0' || end[1] > '9')
				goto bad;
			a = strtoul(end + 1, &end, 10);
		}
		qsort(o->v, n, sizeof(*o->v), cmp_unsigned);
		for (size_t i = 1, k = 1; i <= n; i++) {
			if (i == n) {
				n = k;
				break;
			}
			if (o->v[i] != o->v[k - 1])
				o->v[k++] = o->v[i];
		}
	}
	o->n = n;
	return 0;
bad:
	snprintf(err, errsz, "'--%s' takes lengths from %d to %d as a..b or a,b,c (at most %d), "
		 "not '%s'", opt->name, ABBREV_MIN_LEN, ABBREV_MAX_HEXSZ, POLICY_MAX_LENGTHS, v);
	return -1;
}

int cli_opt_count(uint64_t *n, const cli_option *opt, const char *v, char *err,
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

int cli_opt_shard(void *o, const cli_option *opt, const char *v, char *err,
			   size_t errsz)
{
	return shard_parse(CLI_FIELD(o, opt, shard), v, err, errsz);
}

/* A length of hex chars, ABBREV_MIN_LEN to ABBREV_MAX_HEXSZ, into an unsigned field. */
int cli_opt_length(void *o, const cli_option *opt, const char *v, char *err, size_t errsz)
{
	uint64_t n;

	if (cli_opt_count(&n, opt, v, err, errsz))
		return -1;
	if (n < ABBREV_MIN_LEN || n > ABBREV_MAX_HEXSZ) {
		snprintf(err, errsz, "option '--%s' takes a length from %d to %d, not '%s'",
			 opt->name, ABBREV_MIN_LEN, ABBREV_MAX_HEXSZ, v);
		return -1;
	}
	*CLI_FIELD(o, opt, unsigned) = (unsigned)n;
	return 0;
}

/* A size in bytes into a uint64_t field: a whole number with k, m or g (1024-based). */
int cli_opt_size(void *o, const cli_option *opt, const char *v, char *err, size_t errsz)
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
	*CLI_FIELD(o, opt, uint64_t) = (uint64_t)x << shift;
	return 0;
}

/* --refs=<pattern>: one more pattern (the field is cli_repo_opts.refs), and --reachable */
int cli_opt_refs(void *o, const cli_option *opt, const char *v, char *err, size_t errsz)
{
	cli_repo_opts *r = (cli_repo_opts *)(void *)((char *)CLI_FIELD(o, opt, const char *) -
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

/* ---- what the commands' tables share ---------------------------------------- */

const cli_choice cli_types[] = {
	{ "commit", ABBREV_SET_COMMIT }, { "commit-ish", ABBREV_SET_COMMITISH },
	{ "tree", ABBREV_SET_TREE }, { "blob", ABBREV_SET_BLOB },
	{ "tag", ABBREV_SET_TAG }, { "all", ABBREV_SET_ALL }, { NULL, 0 }
};
const cli_choice cli_walkers[] = {
	{ "pack", CLI_WALKER_PACK }, { "libgit2", CLI_WALKER_LIBGIT2 }, { NULL, 0 }
};
const cli_choice cli_fits[] = {
	{ "auto", PROJECTION_FIT_AUTO }, { "exponential", PROJECTION_FIT_EXP },
	{ "linear", PROJECTION_FIT_LINEAR }, { NULL, 0 }
};

int cli_one_range(const char *cmd, const char **range, const char *arg, char *err,
		  size_t errsz)
{
	if (*range) {
		snprintf(err, errsz, "%s takes one range ('%s' and '%s'); write \"A B\" for both",
			 cmd, *range, arg);
		return -1;
	}
	*range = arg;
	return 0;
}

void cli_repo_init(cli_repo_opts *o, char **argv)
{
	memset(o, 0, sizeof(*o));
	o->format = ABBREV_FORMAT_TEXT;
	o->progress = -1;
	o->walker = CLI_WALKER_PACK;
	o->improbable = CLI_DEFAULT_IMPROBABLE;
	o->repos = argv;
	o->shard = SHARD_ALL;
}

int cli_repo_positional(void *opts, char *arg, char *err, size_t errsz)
{
	cli_repo_opts *r = opts;

	(void)err;
	(void)errsz;
	r->repos[r->nrepos++] = arg;
	return 0;
}

void cli_report_init(void *opts, char **argv)
{
	cli_report_opts *o = opts;

	cli_repo_init(o, argv);
	o->set = -1;
}

int cli_verdict_lengths(const cli_lengths *l, char *err, size_t errsz)
{
	/* the verdict holds git's length, 12 and 16 beside them (verdict.h) */
	if (l->n <= POLICY_MAX_LENGTHS - 3)
		return 0;
	snprintf(err, errsz, "'--lengths' adds at most %d lengths to the verdict, not %zu",
		 POLICY_MAX_LENGTHS - 3, l->n);
	return -1;
}

int cli_report_finish(void *opts, char *err, size_t errsz)
{
	cli_report_opts *o = opts;
	int typed = o->set >= 0;

	if (cli_verdict_lengths(&o->lengths, err, errsz))
		return -1;
	if (!typed)
		o->set = ABBREV_SET_ALL;
	if (typed && o->format != ABBREV_FORMAT_CLASSIC) {
		snprintf(err, errsz, "'--type' goes with --format=classic (the other formats "
			 "show every type)");
		return -1;
	}
	return 0;
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
		*CLI_FIELD(opts, opt, int) = opt->value;
		return 0;
	case CLI_OPT_CHOICE:
		c = find_choice(opt->choices, v);
		if (c) {
			*CLI_FIELD(opts, opt, int) = c->value;
			return 0;
		}
		values_of(words, sizeof(words), opt, ", ", " or ");
		snprintf(err, errsz, "'--%s' takes %s, not '%s'", opt->name, words, v);
		return -1;
	case CLI_OPT_FORMAT:
		i = emit_format_from_name(v);
		if (emit_format_supported(opt->value, i)) {
			*CLI_FIELD(opts, opt, int) = i;
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
		*CLI_FIELD(opts, opt, const char *) = v;
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
	r->kind = -1;
	for (const cli_option *opt = cmd->options; !is_end(opt); opt++)
		if (opt->kind == CLI_OPT_FORMAT)
			r->kind = opt->value;
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

void cli_wrap(FILE *out, int col, int indent, const char *text, size_t len)
{
	const char *end = text + len;

	while (text < end) {
		const char *cut = end, *next;

		/* the last space that keeps the line within CLI_COLUMNS */
		if (col + (end - text) > CLI_COLUMNS) {
			cut = NULL;
			for (const char *c = text; c < end && (c - text) + col <= CLI_COLUMNS; c++)
				if (*c == ' ')
					cut = c;
			if (!cut || cut == text) /* one word too long for the line: whole */
				for (cut = text + 1; cut < end && *cut != ' '; cut++)
					;
		}
		fprintf(out, "%.*s\n", (int)(cut - text), text);
		for (next = cut; next < end && *next == ' '; next++)
			;
		if (next < end)
			fprintf(out, "%*s", indent, "");
		text = next;
		col = indent;
	}
	if (!len)
		fputc('\n', out);
}

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
		if (w + 2 > USAGE_WIDTH) {
			fprintf(out, "\n%*s", USAGE_WIDTH, "");
			w = USAGE_WIDTH;
		} else {
			fprintf(out, "%*s", USAGE_WIDTH - w, "");
			w = USAGE_WIDTH;
		}
		cli_wrap(out, w, USAGE_WIDTH, opt->help, strlen(opt->help));
	}
	if (cmd->notes) {
		fputc('\n', out);
		/* each line of the notes, a long one wrapped under its own indent */
		for (const char *l = cmd->notes; *l;) {
			const char *nl = strchr(l, '\n');
			size_t len = nl ? (size_t)(nl - l) : strlen(l);

			fprintf(out, "%.*s", (int)strspn(l, " "), l);
			cli_wrap(out, (int)strspn(l, " "), (int)strspn(l, " "), l + strspn(l, " "),
				 len - strspn(l, " "));
			l += len + (nl != NULL);
		}
	}
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
