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

/* Groups less likely than this for random IDs are flagged as possibly crafted. */
#define CLI_DEFAULT_IMPROBABLE 1e-4

enum cli_status {
	CLI_OK = 0,
	CLI_HELP = 1,    /* -h / --help was given */
	CLI_USAGE = -1   /* bad command line; message in err */
};

/* Which walker fills the ID sets. */
enum cli_walker {
	CLI_WALKER_PACK = 0,   /* read .idx/.pack/loose files directly (default) */
	CLI_WALKER_LIBGIT2     /* libgit2's object database: reference, fallback */
};

/* The options of every command that reads repositories. */
typedef struct {
	int format;          /* enum abbrev_format */
	int progress;        /* 1 --progress, 0 --no-progress, -1 if stderr is a tty */
	int reachable;       /* --reachable: only objects reachable from the refs */
	int walker;          /* --walker=pack|libgit2 */
	double improbable;   /* --improbable=P: flag groups less likely than P */
	int set;             /* report --type=T: the set --format=classic lists (all) */
	char **repos;        /* positional arguments */
	size_t nrepos;
} cli_repo_opts;

typedef cli_repo_opts cli_report_opts;

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

/* The kernel's rule: at least 12 hex chars in a commit reference. */
#define CLI_DEFAULT_MIN_LENGTH 12

typedef struct {
	cli_repo_opts r;     /* --format (text or json), --reachable, --walker, --progress */
	char *repo;          /* -C <repo>; NULL: the repository git finds here */
	unsigned min_length; /* --min-length=N: the shortest ID a reference may use */
	const char *range;   /* --range=<rev-range>: check these commits' messages */
	int fix;             /* --fix: print the input with its references rewritten */
	char **files;        /* positional arguments: files, "-" for stdin */
	size_t nfiles;
} cli_verify_opts;

/*
 * Parse the arguments after "verify".  --range takes no files; --fix
 * takes at most one input, prints text findings (to stderr) and no range.
 */
int cli_parse_verify(cli_verify_opts *o, int argc, char **argv, char *err, size_t errsz);

/* The value of "--name=value" / "--name value" style options, shared by commands. */
int cli_match_value(const char *arg, const char *name, int argc, char **argv, int *i,
		    const char **value);

#endif
