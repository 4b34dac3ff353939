/*
 * main.c - git-abbrev: how long must abbreviated object IDs be?
 *
 * A table of commands, one file each; the first argument picks one, and
 * anything else (an option or a repository path) means "report".  Only
 * this layer and the commands print to the user and choose exit codes.
 */
#include <config.h>

#include <git2.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "exitcodes.h"

static const abbrev_cmd commands[] = {
	{ "report", cmd_report, "[report] [--format=text|json|csv|markdown|svg|classic] [--type=T] [<repo>...]",
	  "the full comparison: colliding IDs per length, per type and for all objects" },
	{ "check", cmd_check, "check <N> [--type=T] [--against=same|all] [<repo>...]",
	  "do IDs of a type (default commit) collide at N chars? exit 1 if they do" },
	{ "model", cmd_model, "model --objects=N [--commits=M] [--format=text|json|csv|markdown|svg] [--from=L] [--to=L]",
	  "birthday-model numbers: expected collisions and capacity per length" },
	{ "verify", cmd_verify, "verify [-C <repo>] [--min-length=N] [--range=<revs>] [--fix] [<file>...]",
	  "check Fixes: tags and commit references by ID and subject; exit 1 if any is wrong" },
	{ "history", cmd_history, "history [--format=text|json] [--target-p=P] [--horizon-years=Y] [<repo>...]",
	  "when each length first collided among commits, and when the next ones will" },
};

static void usage(FILE *out)
{
	fprintf(out, "usage: git abbrev <command> [<options>] [<repo>...]\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\n  git abbrev %s\n", commands[0].usage);
	fprintf(out, "\nexit status: 0 success, 1 collisions found (check) or problems (verify),\n"
		     "2 usage error, 3 runtime error (not a repository, corrupt data), 4 out of memory\n");
}

int main(int argc, char **argv)
{
	const abbrev_cmd *cmd = &commands[0];
	int first = 1, ret;

	if (argc > 1) {
		if (!strcmp(argv[1], "--version")) {
			printf("git-abbrev %s\n", PACKAGE_VERSION);
			return ABBREV_EXIT_OK;
		}
		if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
			usage(stdout);
			return ABBREV_EXIT_OK;
		}
		for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
			if (!strcmp(argv[1], commands[i].name)) {
				cmd = &commands[i];
				first = 2;
				break;
			}
		}
	}
	if (git_libgit2_init() < 0) {
		cmd_error("cannot initialise libgit2");
		return ABBREV_EXIT_RUNTIME;
	}
	/*
	 * libgit2 1.5 allocates its per-thread error state on the first
	 * error; if that first error is an allocation failure, recording it
	 * recurses until the stack overflows.  Have the state made now,
	 * while memory is there.
	 */
	git_error_set_str(GIT_ERROR_NONE, "-");
	git_error_clear();
	ret = cmd->run(argc - first, argv + first);
	git_libgit2_shutdown();
	return ret;
}
