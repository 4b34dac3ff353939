/*
 * check_cli.c - the option tables: parsing of report and check (defaults,
 * every option, the usage errors), git's conveniences (unique prefixes,
 * -C), and what the tables write (-h, completion words, did-you-mean),
 * without running anything.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "cli.h"
#include "emit.h"
#include "idset.h"

static char err[256];

/* Parse a NULL-terminated list of words (copied: the parser may reorder). */
#define MAXARGS 16
static char *words[MAXARGS];
static int nwords;

static char **argv_of(const char *const *args)
{
	static char buf[MAXARGS][64];

	for (nwords = 0; args[nwords]; nwords++) {
		strcpy(buf[nwords], args[nwords]);
		words[nwords] = buf[nwords];
	}
	return words;
}

static int report(cli_report_opts *o, const char *const *args)
{
	char **argv = argv_of(args);

	err[0] = '\0';
	return cli_parse_report(o, nwords, argv, err, sizeof(err));
}

static int check(cli_check_opts *o, const char *const *args)
{
	char **argv = argv_of(args);

	err[0] = '\0';
	return cli_parse_check(o, nwords, argv, err, sizeof(err));
}

START_TEST(test_report_defaults)
{
	cli_report_opts o;
	const char *const args[] = { NULL };

	ck_assert_int_eq(report(&o, args), CLI_OK);
	ck_assert_int_eq(o.format, ABBREV_FORMAT_TEXT);
	ck_assert_int_eq(o.progress, -1);
	ck_assert_int_eq(o.reachable, 0);
	ck_assert_int_eq(o.walker, CLI_WALKER_PACK);
	ck_assert(o.improbable == CLI_DEFAULT_IMPROBABLE);
	ck_assert_uint_eq(o.nrepos, 0);
}
END_TEST

START_TEST(test_report_options)
{
	cli_report_opts o;
	const char *const args[] = { "a", "--format=json", "--no-progress", "--reachable",
		"--walker", "libgit2", "--improbable=0.5", "b", "--", "--c", NULL };

	ck_assert_int_eq(report(&o, args), CLI_OK);
	ck_assert_int_eq(o.format, ABBREV_FORMAT_JSON);
	ck_assert_int_eq(o.progress, 0);
	ck_assert_int_eq(o.reachable, 1);
	ck_assert_int_eq(o.walker, CLI_WALKER_LIBGIT2);
	ck_assert(o.improbable == 0.5);
	ck_assert_uint_eq(o.nrepos, 3);
	ck_assert_str_eq(o.repos[0], "a");
	ck_assert_str_eq(o.repos[1], "b");
	ck_assert_str_eq(o.repos[2], "--c");
}
END_TEST

START_TEST(test_report_progress_and_help)
{
	cli_report_opts o;
	const char *const on[] = { "--progress", NULL };
	const char *const help[] = { "x", "-h", NULL };

	ck_assert_int_eq(report(&o, on), CLI_OK);
	ck_assert_int_eq(o.progress, 1);
	ck_assert_int_eq(report(&o, help), CLI_HELP);
}
END_TEST

START_TEST(test_check_options)
{
	cli_check_opts o;
	const char *const args[] = { "12", "--type=blob", "--against", "all", "-q", "r1",
		"--format=json", "r2", NULL };

	ck_assert_int_eq(check(&o, args), CLI_OK);
	ck_assert_uint_eq(o.length, 12);
	ck_assert_int_eq(o.set, ABBREV_SET_BLOB);
	ck_assert_int_eq(o.against_all, 1);
	ck_assert_int_eq(o.quiet, 1);
	ck_assert_int_eq(o.r.format, ABBREV_FORMAT_JSON);
	ck_assert_uint_eq(o.r.nrepos, 2);
	ck_assert_str_eq(o.r.repos[0], "r1");
	ck_assert_str_eq(o.r.repos[1], "r2");
}
END_TEST

START_TEST(test_check_defaults)
{
	cli_check_opts o;
	const char *const args[] = { "64", NULL };
	const char *const all[] = { "--type=all", "--against=all", "7", NULL };

	ck_assert_int_eq(check(&o, args), CLI_OK);
	ck_assert_uint_eq(o.length, 64);
	ck_assert_int_eq(o.set, ABBREV_SET_COMMIT);
	ck_assert_int_eq(o.against_all, 0);
	ck_assert_int_eq(o.quiet, 0);
	/* all objects against all objects is just the set of all objects */
	ck_assert_int_eq(check(&o, all), CLI_OK);
	ck_assert_int_eq(o.set, ABBREV_SET_ALL);
	ck_assert_int_eq(o.against_all, 0);
}
END_TEST

/* Each of these is a usage error with a message. */
static const char *const bad_check[][4] = {
	{ NULL },
	{ "0", NULL },
	{ "65", NULL },
	{ "-1", NULL },
	{ "+5", NULL },
	{ "12x", NULL },
	{ "12", "--type=bogus", NULL },
	{ "12", "--type", NULL },
	{ "12", "--against=some", NULL },
	{ "12", "--improbable=2", NULL },
	{ "12", "--improbable=nan", NULL },
	{ "12", "--format=xml", NULL },
	{ "12", "--walker=fast", NULL },
	{ "12", "--bogus", NULL },
};

START_TEST(test_check_errors)
{
	cli_check_opts o;

	ck_assert_int_eq(check(&o, bad_check[_i]), CLI_USAGE);
	ck_assert_msg(err[0] != '\0', "no message for case %d", _i);
	ck_assert_msg(!strchr(err, '\n'), "message is not one line: %s", err);
}
END_TEST

static const char *const bad_report[][3] = {
	{ "--format", NULL },
	{ "--format=", NULL },
	{ "--walker", NULL },
	{ "--improbable=-0.1", NULL },
	{ "--quiet", NULL },
	{ "-x", NULL },
};

START_TEST(test_report_errors)
{
	cli_report_opts o;

	ck_assert_int_eq(report(&o, bad_report[_i]), CLI_USAGE);
	ck_assert_msg(err[0] != '\0', "no message for case %d", _i);
}
END_TEST

START_TEST(test_prefixes)
{
	cli_report_opts o;
	cli_history_opts h;
	const char *const form[] = { "--form=json", "--reach", "--walk", "libgit2", "--no-prog", NULL };
	const char *const exact[] = { "--progress", NULL };
	const char *const ambiguous[] = { "--no-p", NULL };
	const char *const value_prefix[] = { "--format=classic", "--type=bl", NULL };
	char **argv;

	ck_assert_int_eq(report(&o, form), CLI_OK);
	ck_assert_int_eq(o.format, ABBREV_FORMAT_JSON);
	ck_assert_int_eq(o.reachable, 1);
	ck_assert_int_eq(o.walker, CLI_WALKER_LIBGIT2);
	ck_assert_int_eq(o.progress, 0);
	ck_assert_int_eq(report(&o, exact), CLI_OK);
	ck_assert_int_eq(o.progress, 1);
	/* a value word may be shortened too, when only one word starts so */
	ck_assert_int_eq(report(&o, value_prefix), CLI_OK);
	ck_assert_int_eq(o.set, ABBREV_SET_BLOB);
	/* history has --no-progress and --no-projection: name both */
	argv = argv_of(ambiguous);
	ck_assert_int_eq(cli_parse_history(&h, nwords, argv, err, sizeof(err)), CLI_USAGE);
	ck_assert_str_eq(err, "ambiguous option '--no-p' (could be --no-projection or --no-progress)");
}
END_TEST

START_TEST(test_chdir)
{
	cli_check_opts o;
	const char *const args[] = { "-C", "a", "12", "-Cb", "-C", "", "r", NULL };

	ck_assert_int_eq(check(&o, args), CLI_OK);
	ck_assert_uint_eq(o.r.nchdir, 2);
	ck_assert_str_eq(o.r.chdir[0], "a");
	ck_assert_str_eq(o.r.chdir[1], "b");
	ck_assert_uint_eq(o.length, 12);
	ck_assert_uint_eq(o.r.nrepos, 1);
}
END_TEST

/* Usage errors and the message each one gives. */
static const char *const bad_words[][3] = {
	{ "--quiet=1", "option '--quiet' takes no value" },
	{ "--format", "option '--format' needs a value" },
	{ "-C", "option '-C' needs a value" },
	{ "--type=t", "'--type' takes commit, commit-ish, tree, blob, tag or all, not 't'" },
	{ "--xyz", "unknown option '--xyz'" },
	{ "--=x", "unknown option '--'" },
	{ "--format=svg", "no format 'svg' (check prints text, json or csv)" },
};

START_TEST(test_messages)
{
	cli_check_opts o;
	const char *args[] = { "12", bad_words[_i][0], NULL };

	ck_assert_int_eq(check(&o, args), CLI_USAGE);
	ck_assert_str_eq(err, bad_words[_i][1]);
}
END_TEST

/* What one of the table's writers prints, in memory. */
static char *written(void (*fn)(FILE *, const cli_command *, const char *), const cli_command *cmd,
		     const char *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	fn(f, cmd, arg);
	fclose(f);
	return buf;
}

static void usage_of(FILE *f, const cli_command *cmd, const char *unused)
{
	(void)unused;
	cli_usage(f, cmd);
}

START_TEST(test_written)
{
	char *u = written(usage_of, &cli_cmd_check, NULL);
	char *opts = written(cli_complete, &cli_cmd_check, "");
	char *types = written(cli_complete, &cli_cmd_check, "--type");
	char *formats = written(cli_complete, &cli_cmd_model, "format");
	char *commands = written(cli_complete, &cli_cmd_check, "commands");

	ck_assert_ptr_nonnull(strstr(u, "usage: git abbrev check [<options>] <N> [<repo>...]\n"));
	ck_assert_ptr_nonnull(strstr(u, "\n    --type=commit|commit-ish|tree|blob|tag|all\n"));
	ck_assert_ptr_nonnull(strstr(u, "\n    -q, --quiet           print nothing"));
	ck_assert_ptr_nonnull(strstr(u, "\n    --format=text|json|csv\n"));
	ck_assert_ptr_nonnull(strstr(u, "\n    -C <path>             "));
	ck_assert_ptr_nonnull(strstr(u, "exit status: 0 no two IDs"));
	ck_assert_str_eq(opts, "--type= --against= --quiet --format= --improbable= --lengths= --no-cache "
			 "--reachable --refs= --walker= --progress --no-progress -C\n");
	ck_assert_str_eq(types, "commit commit-ish tree blob tag all\n");
	ck_assert_str_eq(formats, "text json csv markdown svg\n");
	ck_assert_str_eq(commands, "report check model verify history policy ids merge cache audit watch\n");
	/* the default command's name is optional */
	free(u);
	u = written(usage_of, &cli_cmd_report, NULL);
	ck_assert_ptr_nonnull(strstr(u, "usage: git abbrev [report] [<options>] [<repo>...]\n"));
	free(u);
	free(opts);
	free(types);
	free(formats);
	free(commands);
}
END_TEST

START_TEST(test_completion_helper)
{
	cli_check_opts o;
	const char *const plain[] = { "--git-completion-helper", NULL };
	const char *const valued[] = { "12", "--git-completion-helper=--type", NULL };

	ck_assert_int_eq(check(&o, plain), CLI_COMPLETE);
	ck_assert_str_eq(o.r.complete, "");
	ck_assert_int_eq(check(&o, valued), CLI_COMPLETE);
	ck_assert_str_eq(o.r.complete, "--type");
}
END_TEST

START_TEST(test_similar)
{
	const cli_command *near[4];

	ck_assert_uint_eq(cli_similar_commands("chek", near, 4), 1);
	ck_assert_str_eq(near[0]->name, "check");
	ck_assert_uint_eq(cli_similar_commands("histroy", near, 4), 1);
	ck_assert_str_eq(near[0]->name, "history");
	ck_assert_uint_eq(cli_similar_commands("rep", near, 4), 1); /* a prefix */
	ck_assert_str_eq(near[0]->name, "report");
	ck_assert_uint_eq(cli_similar_commands("version", near, 4), 0);
	ck_assert_uint_eq(cli_similar_commands("xyzzyx", near, 4), 0);
	ck_assert_ptr_eq(cli_command_find("model"), &cli_cmd_model);
	ck_assert_ptr_null(cli_command_find("mode"));
}
END_TEST

Suite *make_cli_suite(void)
{
	Suite *s = suite_create("cli");
	TCase *core = tcase_create("core");
	TCase *errors = tcase_create("errors");

	tcase_add_test(core, test_report_defaults);
	tcase_add_test(core, test_report_options);
	tcase_add_test(core, test_report_progress_and_help);
	tcase_add_test(core, test_check_options);
	tcase_add_test(core, test_check_defaults);
	tcase_add_test(core, test_prefixes);
	tcase_add_test(core, test_chdir);
	tcase_add_test(core, test_written);
	tcase_add_test(core, test_completion_helper);
	tcase_add_test(core, test_similar);
	tcase_add_loop_test(errors, test_messages, 0,
			    (int)(sizeof(bad_words) / sizeof(bad_words[0])));
	tcase_add_loop_test(errors, test_check_errors, 0,
			    (int)(sizeof(bad_check) / sizeof(bad_check[0])));
	tcase_add_loop_test(errors, test_report_errors, 0,
			    (int)(sizeof(bad_report) / sizeof(bad_report[0])));
	suite_add_tcase(s, core);
	suite_add_tcase(s, errors);
	return s;
}
