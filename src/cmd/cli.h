/*
 * cli.h - command-line options parsed into per-command structs.
 *
 * Parsing never prints and never exits: it returns a status and, on a
 * usage error, a one-line message in a caller-owned buffer, so it can be
 * unit-tested.  Ownership: the structs point into argv; nothing to free.
 */
#ifndef ABBREV_CLI_H
#define ABBREV_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "policy.h"
#include "shard.h"

/* Groups less likely than this for random IDs are flagged as possibly crafted. */
#define CLI_DEFAULT_IMPROBABLE 1e-4

enum cli_status {
	CLI_OK = 0,
	CLI_HELP = 1,    /* -h / --help was given */
	CLI_USAGE = -1,  /* bad command line; message in err */
	CLI_COMPLETE = 2 /* --git-completion-helper[=<option>]: words for bash completion */
};

#define CLI_MAX_CHDIR 8

/* Which walker fills the ID sets. */
enum cli_walker {
	CLI_WALKER_PACK = 0,   /* read .idx/.pack/loose files directly (default) */
	CLI_WALKER_LIBGIT2     /* libgit2's object database: reference, fallback */
};

/* The most --refs patterns one command line may give. */
#define CLI_MAX_REFS 64
/* The most --repo options of verify. */
#define CLI_MAX_OTHER_REPOS 64

/* --lengths=a..b or a,b,c: ascending, each once (cli_opt_lengths). */
typedef struct {
	unsigned v[POLICY_MAX_LENGTHS];
	size_t n;
} cli_lengths;

/* The options of every command that reads repositories. */
typedef struct {
	int format;          /* enum abbrev_format */
	int kind;            /* enum emit_kind of the command's --format row (-1: none) */
	int progress;        /* 1 --progress, 0 --no-progress, -1 if stderr is a tty */
	int reachable;       /* --reachable: only objects reachable from the refs */
	const char *refs[CLI_MAX_REFS]; /* --refs=P (implies --reachable): which refs */
	size_t nrefs;        /* 0: the refs a clone fetches */
	int walker;          /* --walker=pack|libgit2 */
	double improbable;   /* --improbable=P: flag groups less likely than P */
	int set;             /* report --type=T: the set --format=classic lists (all) */
	char **repos;        /* positional arguments */
	size_t nrepos;
	/* -C <path>, in order: change to each directory first, as git does */
	const char *chdir[CLI_MAX_CHDIR];
	size_t nchdir;
	const char *complete; /* --git-completion-helper[=<option>]: "" or the option */
	shard shard;         /* --shard=K/N: count shard K of N only (default all) */
	const char *title;   /* --title=<text>: the chart's title (report, model, history) */
	cli_lengths lengths; /* report --lengths: added to the verdict's */
	int no_cache;        /* --no-cache: no cache files (types, commit tables), read or written */
} cli_repo_opts;

typedef cli_repo_opts cli_report_opts;

/* ids: --format, --type, --improbable, --shard, --progress in r; files in r.repos. */
typedef struct {
	cli_repo_opts r;
	int skip_bad;        /* --skip-bad: skip and count bad lines instead of stopping */
	uint64_t max_input;  /* --max-input=<size>: the most bytes read from one input */
} cli_ids_opts;

/* merge: --format, --type, --improbable in it; the parts in repos. */
typedef cli_repo_opts cli_merge_opts;

typedef struct {
	cli_repo_opts r;
	unsigned length;     /* N: do IDs collide at N hex chars? */
	int set;             /* enum abbrev_set; default commit */
	int against_all;     /* --against=all: compare with objects of any type */
	int quiet;           /* --quiet: exit status only */
} cli_check_opts;

/* Parse the arguments after "check". */
int cli_parse_check(cli_check_opts *o, int argc, char **argv, char *err, size_t errsz);

typedef struct {
	cli_repo_opts r;
	double window_years;  /* --window-years=Y: fit the growth of the last Y years */
	int fit;              /* --fit=auto|exponential|linear: enum projection_fit_kind */
	double target_p;      /* --target-p=P: "safe" means P(collision) <= P ... */
	double horizon_years; /* --horizon-years=Y: ... for Y more years */
	int projection;       /* 0 with --no-projection */
	int backtest;         /* --backtest: how past fits would have predicted since */
} cli_history_opts;

/*
 * Parse the arguments after "history".  Defaults from projection.h;
 * window and horizon are years from 0 (window: above 0) to 1000, the
 * target a probability above 0 and below 1.
 */
int cli_parse_history(cli_history_opts *o, int argc, char **argv, char *err, size_t errsz);

/*
 * Parse the arguments after the command name ("report").  --type=T goes
 * with --format=classic only (the other formats show every set).
 */
int cli_parse_report(cli_report_opts *o, int argc, char **argv, char *err, size_t errsz);

typedef struct {
	uint64_t objects;    /* --objects=N: the number of IDs of all objects */
	uint64_t commits;    /* --commits=M: and of commits alone */
	int have_objects, have_commits;
	unsigned from, to;   /* --from / --to; 0 = the format's default range */
	int format;          /* enum abbrev_format: one the model has (emit.c) */
	char **repos;        /* positional arguments (repositories) */
	size_t nrepos;
	cli_repo_opts r;     /* how to count them: --reachable, --walker, --progress */
} cli_model_opts;

/*
 * Parse the arguments after "model".  Counts must be plain decimal
 * (no sign, no spaces) and fit in 64 bits; --commits may not exceed
 * --objects; lengths run from 4 to 64 with from <= to.
 */
int cli_parse_model(cli_model_opts *o, int argc, char **argv, char *err, size_t errsz);

/* --growth=: what its number counts. */
enum cli_growth_unit {
	CLI_GROWTH_NONE = 0,  /* not given */
	CLI_GROWTH_PERCENT,   /* "8%", "8%/year": compounded yearly */
	CLI_GROWTH_OBJECTS,   /* "80000", "80000/year", "80000 objects/year": linear */
	CLI_GROWTH_COMMITS    /* "8000 commits/year": linear */
};

typedef struct {
	cli_repo_opts r;     /* --format, --title, repositories, how to read them */
	uint64_t objects;    /* --objects=N */
	uint64_t commits;    /* --commits=M */
	int have_objects, have_commits;
	cli_lengths lengths; /* --lengths=a..b or a,b,c */
	double growth;       /* --growth=: the number ... */
	int growth_unit;     /* ... and what it counts (enum cli_growth_unit) */
	double horizon_years; /* --horizon-years=Y: later dates are "beyond" */
	double window_years; /* --window-years, --fit: history's fit of a repository */
	int backtest;        /* --backtest: that fit's track record (history --backtest) */
	int fit;
} cli_policy_opts;

/*
 * The most verify reads from one file or standard input unless told
 * otherwise (--max-input): far above any patch series or a year of a busy
 * list's archive, far below what `verify /dev/zero` would take.
 */
#define CLI_DEFAULT_MAX_INPUT (256ull << 20)
/*
 * The same for ids, whose input is a whole repository's object list:
 * about 50 bytes an object, so 4g holds some 85 million objects (Linux
 * has 13 million), and an endless pipe still stops within minutes.
 */
#define CLI_IDS_MAX_INPUT (4ull << 30)

/* What makes verify exit 1: any finding, or only errors (warnings printed, exit 0). */
enum cli_fail_on { CLI_FAIL_ON_WARNING = 0, CLI_FAIL_ON_ERROR = 1 };

/* The kernel's rule: at least 12 hex chars in a commit reference. */
#define CLI_DEFAULT_MIN_LENGTH 12

typedef struct {
	cli_repo_opts r;     /* --format (text or json), --reachable, --walker, --progress */
	unsigned min_length; /* --min-length=N: the shortest ID a reference may use */
	const char *range;   /* --range=<rev-range>: check these commits' messages */
	int fix;             /* --fix: print the input with its references rewritten */
	uint64_t max_input;  /* --max-input=<size>: the most bytes read from one input */
	int fail_on;         /* --fail-on=warning|error: enum cli_fail_on */
	/* --repo=<path> (repeatable): more repositories to look IDs up in */
	const char *other[CLI_MAX_OTHER_REPOS];
	size_t nother;
	char **files;        /* positional arguments: files, "-" for stdin */
	size_t nfiles;
} cli_verify_opts;

/*
 * Parse the arguments after "verify".  --range takes no files; --fix
 * takes at most one input, prints text findings (to stderr) and no range.
 */
int cli_parse_verify(cli_verify_opts *o, int argc, char **argv, char *err, size_t errsz);

typedef struct {
	cli_repo_opts r;     /* --format (text or json), -C */
	int clear;           /* --clear: remove every table */
} cli_cache_opts;

typedef struct {
	cli_repo_opts r;     /* --format (text, json, csv, markdown, svg, map), --title, -C */
	unsigned min_length; /* --min-length=N; 0: abbrev.minLength, else 12 */
	const char *range;   /* the positional <range>; NULL: HEAD */
} cli_audit_opts;

typedef struct {
	cli_repo_opts r;     /* --format (text or json), --improbable, -C */
	unsigned length;     /* --length=N; 0: abbrev.minLength, else 12 */
	const char *range;   /* the positional <range>; NULL: HEAD on no remote-tracking branch */
} cli_watch_opts;



/*
 * One option of a command: a row of the command's table.  The table
 * parses the command line, writes -h, and gives bash completion its
 * words (--git-completion-helper), so adding an option is adding a row.
 */
typedef struct {
	const char *name;   /* a value word: --type=<name> */
	int value;          /* stored in the int field */
} cli_choice;

enum cli_opt_kind {
	CLI_OPT_FLAG,       /* --name: the int field takes `value` */
	CLI_OPT_CHOICE,     /* --name=<word>: the int field takes the word's value */
	CLI_OPT_FORMAT,     /* --format=<f>: a format the emitters of kind `value` have */
	CLI_OPT_STRING,     /* --name=<arg>: the const char * field, never empty */
	CLI_OPT_PARSE,      /* --name=<arg>: parse() reads it */
	CLI_OPT_CHDIR,      /* -C <path>: one more directory of cli_repo_opts.chdir */
	CLI_OPT_HELP        /* -h, --help */
};

typedef struct cli_option {
	int kind;                  /* enum cli_opt_kind */
	const char *name;          /* long name without "--"; NULL: short only */
	char short_name;           /* -q; 0: long only */
	size_t offset;             /* of the field in the command's options struct */
	int value;                 /* FLAG: stored; FORMAT: enum emit_kind */
	const cli_choice *choices; /* CHOICE: ends with a NULL name */
	/* PARSE: read v into the field (opts + offset; other fields may follow
	 * suit); 0, or -1 with a message in err */
	int (*parse)(void *opts, const struct cli_option *opt, const char *v, char *err,
		     size_t errsz);
	const char *arg;           /* the value in usage: "<N>"; NULL for choices */
	const char *help;          /* one line for -h */
} cli_option;

typedef struct cli_command {
	const char *name;          /* "check" */
	const char *args;          /* positional arguments in usage: "<N> [<repo>...]" */
	const char *summary;       /* one line for `git abbrev -h` */
	const char *notes;         /* lines after the options in -h, or NULL */
	const cli_option *options; /* ends with a NULL name and short_name 0 */
	void (*init)(void *opts, char **argv);
	/* a positional argument; 0, or -1 with a message in err */
	int (*positional)(void *opts, char *arg, char *err, size_t errsz);
	/* checks across options once all are read; 0, or -1 with a message */
	int (*finish)(void *opts, char *err, size_t errsz);
	size_t repo_offset;        /* of the cli_repo_opts in the options struct */
	/* the command: the arguments after its name; the exit status (exitcodes.h) */
	int (*run)(int argc, char **argv);
} cli_command;

/*
 * The commands, each defined with its option table in its cmd_<name>.c;
 * commands.c lists them in cli_commands[], from which main() dispatches
 * and `git abbrev -h`, did-you-mean and completion take the names.
 */
extern const cli_command cli_cmd_report, cli_cmd_check, cli_cmd_model, cli_cmd_verify,
	cli_cmd_history, cli_cmd_ids, cli_cmd_merge, cli_cmd_policy, cli_cmd_cache, cli_cmd_audit,
	cli_cmd_watch;

/* The commands, the default (report) first, and their number. */
extern const cli_command *const cli_commands[];
extern const size_t cli_ncommands;

/* The command called `name`, or NULL. */
const cli_command *cli_command_find(const char *name);

/* `git abbrev -h`: the synopsis, every command with its summary, the exit statuses. */
void cli_commands_usage(FILE *out);

/* ---- what the commands' option tables are made of ---------------------------- */

/* The field of `opt` in a command's options struct. */
#define CLI_FIELD(opts, opt, type) ((type *)(void *)((char *)(opts) + (opt)->offset))

/* Rows: an option table is a list of these, ended by CLI_END. */
#define CLI_FLAG(name, sh, off, val, help) \
	{ CLI_OPT_FLAG, name, sh, off, val, NULL, NULL, NULL, help }
#define CLI_CHOICE(name, off, ch, help) { CLI_OPT_CHOICE, name, 0, off, 0, ch, NULL, NULL, help }
#define CLI_FORMAT(off, kind) \
	{ CLI_OPT_FORMAT, "format", 0, off, kind, NULL, NULL, NULL, "the output format (default text)" }
#define CLI_VALUE(name, off, fn, arg, help) { CLI_OPT_PARSE, name, 0, off, 0, NULL, fn, arg, help }
#define CLI_STRING(name, off, arg, help) \
	{ CLI_OPT_STRING, name, 0, off, 0, NULL, NULL, arg, help }
#define CLI_END { 0, NULL, 0, 0, 0, NULL, NULL, NULL, NULL }

/* Options of every command that reads repositories; R is the path to its cli_repo_opts. */
#define CLI_IMPROBABLE(T, R) \
	CLI_VALUE("improbable", offsetof(T, R improbable), cli_opt_probability, "<P>", \
		  "flag groups less likely than P for random IDs (default 1e-4)")
/* --max-input=<size> (verify, ids): F the uint64_t field, D the default's text */
#define CLI_MAX_INPUT(T, F, D) \
	CLI_VALUE("max-input", offsetof(T, F), cli_opt_size, "<size>", \
		  "read at most this much of each input (default " D ")")
#define CLI_SHARD(T, R) \
	CLI_VALUE("shard", offsetof(T, R shard), cli_opt_shard, "<K>/<N>", \
		  "count only shard K of N (N divides 256): IDs whose first byte is K*256/N to (K+1)*256/N-1")
#define CLI_TITLE(T, R) \
	CLI_STRING("title", offsetof(T, R title), "<text>", \
		   "the title of a chart or Markdown heading (default: repository names)")
/* report, check, policy: the walk's types tables and the commit tables */
#define CLI_NO_CACHE(T, R) \
	CLI_FLAG("no-cache", 0, offsetof(T, R no_cache), 1, \
		 "neither read nor write the cache of per-pack tables (read every pack)")
#define CLI_PROGRESS_ROWS(T, R) \
	CLI_FLAG("progress", 0, offsetof(T, R progress), 1, "show progress on stderr"), \
	CLI_FLAG("no-progress", 0, offsetof(T, R progress), 0, \
		 "no progress (default: shown when stderr is a terminal)")
#define CLI_CHDIR_HELP_ROWS(T, R) \
	{ CLI_OPT_CHDIR, NULL, 'C', offsetof(T, R chdir), 0, NULL, NULL, "<path>", \
	  "run as if started in <path>, as git -C does" }, \
	{ CLI_OPT_HELP, "help", 'h', 0, 0, NULL, NULL, NULL, "show this help" }
#define CLI_REPO_ROWS(T, R) \
	CLI_FLAG("reachable", 0, offsetof(T, R reachable), 1, \
		 "only objects reachable from HEAD, branches and tags (a clone's view)"), \
	CLI_VALUE("refs", offsetof(T, R refs), cli_opt_refs, "<pattern>", \
		  "walk these refs, not a clone's (repeatable; 'refs/*': all)"), \
	CLI_CHOICE("walker", offsetof(T, R walker), cli_walkers, \
		   "read the packs directly (default) or through libgit2"), \
	CLI_PROGRESS_ROWS(T, R), \
	CLI_CHDIR_HELP_ROWS(T, R)

/* The values of --type (enum abbrev_set), --walker and --fit. */
extern const cli_choice cli_types[], cli_walkers[], cli_fits[];

/*
 * Readers of PARSE rows shared by several tables, each into the field
 * of its row (0, or -1 with a message in err): a probability from 0 to
 * 1 (--improbable), one above 0 and below 1 (--target-p), years above 0
 * (--window-years) or from 0 (--horizon-years) to 1000, --shard=K/N, a
 * length of hex chars, a size (512k, 64m, 2g), one more --refs pattern.
 */
int cli_opt_probability(void *o, const cli_option *opt, const char *v, char *err, size_t n);
int cli_opt_target_p(void *o, const cli_option *opt, const char *v, char *err, size_t n);
int cli_opt_window(void *o, const cli_option *opt, const char *v, char *err, size_t n);
int cli_opt_horizon(void *o, const cli_option *opt, const char *v, char *err, size_t n);
int cli_opt_shard(void *o, const cli_option *opt, const char *v, char *err, size_t errsz);
int cli_opt_length(void *o, const cli_option *opt, const char *v, char *err, size_t errsz);
int cli_opt_size(void *o, const cli_option *opt, const char *v, char *err, size_t errsz);
/* 0, or -1 and a message when --lengths gives the verdict more lengths than it holds */
int cli_verdict_lengths(const cli_lengths *l, char *err, size_t errsz);
/* --lengths=a..b or a,b,c into a cli_lengths: from 4 to 64, at most POLICY_MAX_LENGTHS */
int cli_opt_lengths(void *o, const cli_option *opt, const char *v, char *err, size_t errsz);
int cli_opt_refs(void *o, const cli_option *opt, const char *v, char *err, size_t errsz);
/* A plain decimal count of `opt` (no sign, fits 64 bits) into *n; 0 or -1. */
int cli_opt_count(uint64_t *n, const cli_option *opt, const char *v, char *err, size_t errsz);

/* The defaults of cli_repo_opts; positional arguments are repositories (argv holds them). */
void cli_repo_init(cli_repo_opts *o, char **argv);
/*
 * The one positional <range> of `cmd` (audit, watch): arg into *range, or
 * -1 and err when one was given already.
 */
int cli_one_range(const char *cmd, const char **range, const char *arg, char *err,
		  size_t errsz);
int cli_repo_positional(void *opts, char *arg, char *err, size_t errsz);
/* report's init and finish (--type goes with --format=classic), shared with ids and merge. */
void cli_report_init(void *opts, char **argv);
int cli_report_finish(void *opts, char *err, size_t errsz);

/*
 * Parse the arguments after the command's name into `opts` (the
 * command's struct).  Long options may be shortened to any unique prefix
 * (--form=json), as git allows; values come as --name=v or --name v.
 */
int cli_parse(const cli_command *cmd, void *opts, int argc, char **argv, char *err,
	      size_t errsz);

/* The options of `opts` every command has (-C, --progress, --format ...). */
cli_repo_opts *cli_repo_of(const cli_command *cmd, void *opts);

#define CLI_COLUMNS 80 /* the width -h keeps within */

/*
 * Write text[0..len) (no newline in it) from column col on, cut at spaces
 * so that no line passes CLI_COLUMNS (a word longer than a line is left
 * whole), each further line indented by `indent`; ends the line.
 */
void cli_wrap(FILE *out, int col, int indent, const char *text, size_t len);

/* Write the command's usage, options and notes (what -h prints), within CLI_COLUMNS. */
void cli_usage(FILE *out, const cli_command *cmd);

/*
 * Words for bash completion, one line: with `option` "", every option
 * ("--format= --quiet -C"); with an option's name ("--format"), its
 * values; with "commands", the commands; with "paths", the options whose
 * value is a directory ("--repo -C").
 */
void cli_complete(FILE *out, const cli_command *cmd, const char *option);

/* Did-you-mean (commands.c): the commands close to `word`, at most `max`; how many. */
size_t cli_similar_commands(const char *word, const cli_command **out, size_t max);

#endif
