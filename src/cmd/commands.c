/*
 * commands.c - the table of git-abbrev's commands.
 *
 * Each command is defined with its option table in its cmd_<name>.c;
 * this list is the only place that names them all: main() dispatches
 * from it, `git abbrev -h` lists it, did-you-mean and bash completion
 * (--git-completion-helper=commands) take its names.  The first is the
 * default, run when no command is named.  A new command is one row here.
 */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "cli.h"

const cli_command *const cli_commands[] = {
	&cli_cmd_report, &cli_cmd_check, &cli_cmd_model, &cli_cmd_verify, &cli_cmd_history,
	&cli_cmd_policy, &cli_cmd_ids, &cli_cmd_merge, &cli_cmd_cache, &cli_cmd_audit,
	&cli_cmd_watch
};
const size_t cli_ncommands = sizeof(cli_commands) / sizeof(cli_commands[0]);

const cli_command *cli_command_find(const char *name)
{
	for (size_t i = 0; i < cli_ncommands; i++)
		if (!strcmp(name, cli_commands[i]->name))
			return cli_commands[i];
	return NULL;
}

void cli_commands_usage(FILE *out)
{
	fprintf(out, "usage: git abbrev [<command>] [<options>] [<repo>...]\n"
		     "       git abbrev help [--usage] <command>\n\ncommands:\n");
	for (size_t i = 0; i < cli_ncommands; i++) {
		int w = fprintf(out, "  %-8s ", cli_commands[i]->name);

		cli_wrap(out, w, 11, cli_commands[i]->summary, strlen(cli_commands[i]->summary));
	}
	fprintf(out, "\nwith no command, or an option or a repository first: %s\n"
		     "\nexit status: 0 success, 1 collisions found (check) or problems (verify),\n"
		     "2 usage error, 3 runtime error (not a repository, corrupt data), 4 out of memory\n",
		cli_commands[0]->name);
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
