/*
 * main.c - git-abbrev: how long must abbreviated object IDs be?
 *
 * The table of commands (commands.c), one file each; the first argument
 * picks one, and an option or a path means the first, "report".  A word that is neither a command
 * nor a path (and has no '/') is a mistyped command: git's "did you mean".  Only this
 * layer and the commands print to the user and choose exit codes.
 */
#include <config.h>


#include <git2.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cmd.h"
#include "exitcodes.h"
#include "mapguard.h"

#ifdef ABBREV_TEST_HOOKS
#include <errno.h>
#include <stdlib.h>

/* Every write fails as write(2) does when the kernel has no memory for it. */
static ssize_t write_enomem(void *cookie, const char *buf, size_t n)
{
	(void)cookie;
	(void)buf;
	(void)n;
	errno = ENOMEM;
	return -1;
}

/*
 * GIT_ABBREV_TEST_STDOUT_ENOMEM set: standard output is a stream whose
 * every write fails with ENOMEM (tests/t-oom.sh), in the test build only.
 */
static void test_hook_stdout(void)
{
	if (getenv("GIT_ABBREV_TEST_STDOUT_ENOMEM")) {
		FILE *f = fopencookie(NULL, "w", (cookie_io_functions_t){ .write = write_enomem });

		if (f)
			stdout = f;
	}
}
#else
#define test_hook_stdout() ((void)0)
#endif

/* `git abbrev chek`: neither a command nor a path.  Say so, as git does. */
static int unknown_command(const char *word)
{
	const cli_command *near[4];
	size_t n = cli_similar_commands(word, near, 4);

	cmd_error("'%s' is not a git-abbrev command, nor a repository. See 'git abbrev -h'.",
		  word);
	if (n)
		fprintf(stderr, "\nThe most similar command%s\n", n > 1 ? "s are" : " is");
	for (size_t i = 0; i < n; i++)
		fprintf(stderr, "\t%s\n", near[i]->name);
	if (!strcmp(word, "version"))
		fprintf(stderr, "\nThe most similar option is\n\t--version\n");
	return ABBREV_EXIT_USAGE;
}

int main(int argc, char **argv)
{
	const cli_command *cmd = cli_commands[0];
	const char *a;
	int first = 1, ret;

	test_hook_stdout();
	/* git abbrev -C <path> <command> ...: as git -C, before the command too */
	while (first < argc && !strncmp(argv[first], "-C", 2)) {
		const char *dir = argv[first][2] ? argv[first] + 2 : argv[first + 1];

		if (!dir)
			return cmd_usage_error(cli_commands[0], "option '-C' needs a value");
		ret = cmd_chdir(dir);
		if (ret)
			return ret;
		first += argv[first][2] ? 1 : 2;
	}
	a = first < argc ? argv[first] : "";
	if (!strcmp(a, "--version")) {
		printf("git-abbrev %s\n", PACKAGE_VERSION);
		return cmd_written(0, "the version");
	}
	if (!strcmp(a, "help")) {
		/* as git help <cmd>: the manual; --usage (or no terminal): the options */
		int opt_usage = first + 1 < argc && !strcmp(argv[first + 1], "--usage");
		const char *name = first + 1 + opt_usage < argc ? argv[first + 1 + opt_usage] : NULL;

		if (!name) {
			cli_commands_usage(stdout);
			return cmd_written(0, "the help");
		}
		cmd = cli_command_find(name);
		if (!cmd)
			return unknown_command(name);
		if (!opt_usage && isatty(STDOUT_FILENO)) {
			fflush(stdout);
			execlp("man", "man", "git-abbrev", (char *)NULL);
			/* no man: the option list below */
		}
		cli_usage(stdout, cmd);
		return cmd_written(0, "the help");
	}
	if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
		/* git's commands: the usage on stdout, exit 129 */
		cli_commands_usage(stdout);
		ret = cmd_written(0, "the help");
		return ret ? ret : ABBREV_EXIT_HELP;
	}
	if (!strcmp(a, "--git-completion-helper=commands")) {
		cli_complete(stdout, NULL, "commands");
		return cmd_written(0, "the completion words");
	}
	if (*a && *a != '-') {
		cmd = cli_command_find(a);
		if (cmd)
			first++;
		else if (!strchr(a, '/') && access(a, F_OK))
			return unknown_command(a);
		else
			cmd = cli_commands[0];
	}
	/* a file we mapped cut short under us: one line, exit 3 (mapguard.h) */
	mapguard_install("git-abbrev", ABBREV_EXIT_RUNTIME);
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
