/*
 * cli.c - option parsing for the commands (no printing, no exiting).
 */
#include <config.h>

#include "cli.h"

#include <stdio.h>
#include <string.h>

#include "emit.h"

int cli_match_value(const char *arg, const char *name, int argc, char **argv, int *i,
		    const char **value)
{
	size_t n = strlen(name);

	if (strncmp(arg, name, n))
		return 0;
	if (arg[n] == '=') {
		*value = arg + n + 1;
		return 1;
	}
	if (arg[n] == '\0') {
		if (*i + 1 >= argc) {
			*value = NULL;
			return 1;
		}
		*value = argv[++*i];
		return 1;
	}
	return 0;
}

int cli_parse_report(cli_report_opts *o, int argc, char **argv, char *err, size_t errsz)
{
	int only_args = 0;
	const char *v;

	o->format = 0;
	o->progress = -1;
	o->repos = argv;
	o->nrepos = 0;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (only_args || a[0] != '-' || !a[1]) {
			o->repos[o->nrepos++] = argv[i];
		} else if (!strcmp(a, "--")) {
			only_args = 1;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			return CLI_HELP;
		} else if (!strcmp(a, "--progress")) {
			o->progress = 1;
		} else if (!strcmp(a, "--no-progress")) {
			o->progress = 0;
		} else if (cli_match_value(a, "--format", argc, argv, &i, &v)) {
			if (!v) {
				snprintf(err, errsz, "option '--format' needs a value");
				return CLI_USAGE;
			}
			o->format = emit_format_from_name(v);
			if (o->format < 0) {
				snprintf(err, errsz, "unknown format '%s' (use text or json)", v);
				return CLI_USAGE;
			}
		} else {
			snprintf(err, errsz, "unknown option '%s'", a);
			return CLI_USAGE;
		}
	}
	return CLI_OK;
}
