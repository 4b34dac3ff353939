/*
 * cmd.h - the commands of git-abbrev, one file each, and what they share.
 *
 * A command takes the arguments after its name and returns the process's
 * exit status (exitcodes.h); it prints its own errors, one line each, as
 * "git-abbrev: <message>".
 */
#ifndef ABBREV_CMD_H
#define ABBREV_CMD_H

#include <stddef.h>

#include "backtest.h"
#include "cli.h"
#include "idset.h"
#include "policy.h"
#include "progress.h"
#include "projection.h"
#include "stats.h"
#include "verdict.h"
#include "walk.h"

struct git_repository;
/* The cache's cap: git config abbrev.cacheSize of repo (NULL: the user's), else 1 GiB. */
uint64_t cmd_cache_cap(struct git_repository *repo);

/* Notes on stderr about a shard and what ID streams held besides objects. */
void cmd_input_notes(const stats_report *r);
/* Print the report in `format`; returns an exit status (errors printed). */
int cmd_print_report(const stats_report *r, int format);

/* Print "git-abbrev: <message>" to stderr. */
void cmd_error(const char *fmt, ...);

/*
 * Print "git-abbrev: <prefix><the first len bytes of line>" to stderr,
 * once per process: a repository given twice, or its object directories
 * listed again by another step, repeats the walkers' warnings and notes
 * (a missing alternate) word for word.
 */
void cmd_warn_once(const char *prefix, const char *line, int len);
/*
 * An input ("-": standard input) longer than --max-input's `cap` (verify,
 * ids): the one-line error naming it and the cap; returns
 * ABBREV_EXIT_RUNTIME.
 */
int cmd_input_too_large(const char *path, uint64_t cap);
/*
 * How a command's output ends, for every command: `failed` is the
 * emitter's result (0 if none), `what` the output ("the report").  Flushes
 * stdout; 0 when all of it was written.  Else prints the error and returns
 * its exit status: "cannot write <what>: <reason>" (ABBREV_EXIT_RUNTIME)
 * when the stream failed, "out of memory" (ABBREV_EXIT_NOMEM) when the
 * emitter failed without it (the JSON emitters build a document first)
 * or the stream failed for memory (ENOMEM).
 */
int cmd_written(int failed, const char *what);

/*
 * The opening of every command: parse argv into opts with the command's
 * table; -h prints the usage, --git-completion-helper the words bash
 * completion asks for, a usage error its message and the usage (stderr);
 * then change to the -C directories.  Returns -1 to go on, or the exit
 * status to end with.
 */
int cmd_begin(const cli_command *cmd, void *opts, int argc, char **argv);

/* -C <path>: change to dir ("" stays); 0, or the exit status after the error. */
int cmd_chdir(const char *dir);
/*
 * The directory the command was started in, before any -C, as a
 * descriptor for openat(): AT_FDCWD when no -C changed it.
 */
int cmd_start_dir(void);

/* A usage error found after parsing: the message, the usage; ABBREV_EXIT_USAGE. */
int cmd_usage_error(const cli_command *cmd, const char *msg);

/* The repositories of a command, open, and the union of their objects. */
typedef struct {
	idsets *s;
	repo_handle **repos;
	char **paths;      /* display path of each repository */
	size_t n;
	unsigned lacks;    /* enum abbrev_lack of any of them */
	abbrev_reach reach; /* with --reachable: the refs walked, objects missing */
	int no_cache;      /* --no-cache: no per-pack tables read or written */
} cmd_sets;

/*
 * Open the repositories of o->repos (none: the one git would use here) and
 * walk them into one new collection: all objects of their object
 * databases with the walker o->walker, or with o->reachable only those
 * reachable from their refs (o->refs, or those a clone fetches): a ref
 * naming a missing object is a warning on stderr, and objects the refs
 * reach that are missing are a note there (but for JSON, which has them
 * as a key).
 * Returns an exit status; errors are printed.  Free with cmd_sets_free()
 * whatever the result.
 */
int cmd_sets_load(cmd_sets *cs, const cli_repo_opts *o, progress *p);
/*
 * cmd_sets_load() in two steps, for a command that may never need the
 * sets (verify asks the packs' indexes first): open the repositories
 * (cs->s stays NULL), then, if need be, walk them into the sets (with
 * commits_only, as cmd_sets_load_commits()).  Each returns an exit
 * status; errors are printed.
 */
int cmd_sets_open(cmd_sets *cs, const cli_repo_opts *o);
int cmd_sets_walk(cmd_sets *cs, const cli_repo_opts *o, progress *p, int commits_only);
/*
 * As cmd_sets_load(), for a command that needs only the commits and the
 * number of objects (history): one repository read by the pack walker
 * keeps only its commits in the sets and counts the rest
 * (idsets_store_only()), which spares building the sets of 10M objects.
 */
int cmd_sets_load_commits(cmd_sets *cs, const cli_repo_opts *o, progress *p);
void cmd_sets_free(cmd_sets *cs);

/* What the repositories lack (a shallow or partial clone), as notes on stderr. */
void cmd_sets_notes(const cmd_sets *cs);

/* Fill st->member_desc (subjects of commits, names of tags).  0 or -1 (memory). */
int cmd_sets_describe(cmd_sets *cs, stats_set *st);

/*
 * The commits of the sets with their committer times (cmd_history.c): IDs
 * in byte order into *ids (n * rawsz bytes, malloc'd), times beside them
 * (malloc'd).  Returns an exit status; errors are printed.  A commit
 * that cannot be read is ABBREV_EXIT_RUNTIME, printed as an error, or,
 * given a `note` (what the caller does without the dates), as
 * "note: <why>: <note>".  keep_times: each pack's commits are kept in
 * time order in the cache too (commit_times.h), for cmd_growth_read().
 */
int cmd_commit_times(unsigned char **ids, int64_t **times, size_t *n, cmd_sets *cs,
		     progress *p, const char *note, int keep_times);

/*
 * history_zone_fn over a cmd_sets (arg): the committer's zone of commit
 * `id` from the first repository that holds it; 0 (UTC) when none can
 * read it.  Always 0: a day in UTC is the fallback, not an error.
 */
int cmd_commit_zone(void *arg, const unsigned char *id, int *tz);

/*
 * Sort the commits ids[0..n) (rawsz bytes each) and their times together
 * by time, ties by ID: the order of history's replay, and of the
 * ascending times from which the projection and policy date what was
 * passed already.  0, or -1 when out of memory.
 */
int cmd_commits_by_time(unsigned char *ids, int64_t *times, size_t n, size_t rawsz);

/*
 * The commits sorted so, for cmd_commit_zone_at(): ids[], or with ids
 * NULL the k-th one's ID id_at(kept, k).
 */
typedef struct {
	cmd_sets *cs;
	const unsigned char *ids;
	size_t rawsz;
	const unsigned char *(*id_at)(const void *kept, size_t k);
	const void *kept;
} cmd_zone_at;

/* projection_zone_fn over a cmd_zone_at: cmd_commit_zone() of its k-th commit. */
int cmd_commit_zone_at(void *arg, size_t k, int *tz);

/* History's fit of the sets' commit count (cmd_verdict.c). */
typedef struct {
	int64_t *times;         /* the commit times, ascending (malloc'd; NULL: none read) */
	unsigned char *ids;     /* their commits, in that order (cmd_commits_by_time()), or NULL: */
	void *kept;             /* ... the pack's commits kept in that order (cmd_verdict.c) */
	size_t ntimes;
	cmd_zone_at zat;        /* the sets and those IDs, for cmd_commit_zone_at() */
	projection_results pr;  /* the fit (pr.status says whether there is one) */
	int have_fit;
	/*
	 * The moment every projection counts from: the newest commit's date
	 * (cut to today), the moment the counts are known to hold; today
	 * without commit dates.  History's fit starts there too.
	 */
	double now;
	int now_newest;         /* 1: now is the newest commit's date */
	/* the caller's, or NULL: backtest the same fit here (backtest.h); filled by the read */
	backtest_results *bt;
	/*
	 * The caller's: the sets hold every object of the repositories (no
	 * --reachable, no shard), so a pack's commits kept in time order
	 * (commit_times.h) may stand for the commit set when they are as many
	 */
	int every_object;
} cmd_growth;

/*
 * Read the commit times of cs and fit their growth over window_years
 * with `fit` (enum projection_fit_kind) seen from `now`.  A commit date
 * that cannot be read (a damaged object) is an error (policy, as history),
 * or, given a `note` (the verdict of report and check, which count IDs
 * without reading commits, as git's --batch-check), that note and no fit.
 * Returns an exit status; free with cmd_growth_free() whatever the result.
 */
int cmd_growth_read(cmd_growth *gr, cmd_sets *cs, double window_years, int fit, int64_t now,
		    progress *p, const char *note);
/* The fit as policy's growth (kind NONE without a fit), from gr->now. */
void cmd_growth_policy(policy_growth *g, const cmd_growth *gr);
void cmd_growth_free(cmd_growth *gr);

/*
 * The verdict (verdict.h) for the sets measured in sets[] (commits,
 * commit-ish, all objects, in that order), at history's growth (the
 * default window and fit, as policy's), with the lengths `extra` (--lengths;
 * one past the repository's IDs is a usage error).  Returns an exit status.
 */
int cmd_verdict(verdict *v, cmd_sets *cs, const stats_set *const sets[3],
		const cli_lengths *extra, progress *p);

/* Whether to show progress for an option value of 1, 0 or -1 (auto). */
int cmd_want_progress(int option);
/*
 * The progress meter of a command (progress.h) for --progress's value
 * (1, 0 or -1: auto); NULL, "out of memory" printed, when there is no
 * memory for it.
 */
progress *cmd_progress_new(int option);

#endif
