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

#include "idset.h"
#include "progress.h"

typedef struct {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *usage;
	const char *summary;
} abbrev_cmd;

int cmd_report(int argc, char **argv);

/* Print "git-abbrev: <message>" to stderr. */
void cmd_error(const char *fmt, ...);

/*
 * Walk the repositories (or, with n == 0, the one git would use here)
 * into one new collection: the union of their objects.  On success *out
 * holds the sets and paths[] the display path of each repository (freed
 * with cmd_free_paths).  Returns an exit status; errors are printed.
 */
int cmd_load_sets(idsets **out, char ***paths, size_t *npaths,
		  char *const *repos, size_t n, progress *p);
void cmd_free_paths(char **paths, size_t n);

/* Whether to show progress for an option value of 1, 0 or -1 (auto). */
int cmd_want_progress(int option);

#endif
