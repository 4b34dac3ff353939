/*
 * exitcodes.h - the exit statuses of git-abbrev, in one place.
 *
 * Only the command-line layer (main.c, cmd_*.c) chooses an exit status;
 * the man page and README list the same numbers.
 */
#ifndef ABBREV_EXITCODES_H
#define ABBREV_EXITCODES_H

enum abbrev_exit {
	ABBREV_EXIT_OK = 0,      /* success, no collision, references fine */
	ABBREV_EXIT_FOUND = 1,   /* the answer is "yes": collisions / problems */
	ABBREV_EXIT_USAGE = 2,   /* bad command line */
	ABBREV_EXIT_RUNTIME = 3, /* not a repository, corrupt database, I/O */
	ABBREV_EXIT_NOMEM = 4,   /* out of memory */
	ABBREV_EXIT_HELP = 129   /* -h: the usage was asked for, as git's commands exit */
};

#endif
