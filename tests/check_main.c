/*
 * check_main.c - the one runner of the unit suites.
 *
 * Runs every suite in one SRunner with CK_NORMAL output; fork mode is
 * Check's default (CK_FORK=no in the environment turns it off, e.g. for
 * a debugger).  Exits with EXIT_FAILURE when any test fails.
 */
#include <check.h>
#include <stdlib.h>

#include "check_suites.h"

int main(void)
{
	SRunner *sr = srunner_create(make_hexid_suite());
	int failed;

	srunner_add_suite(sr, make_idset_suite());
	srunner_add_suite(sr, make_stats_suite());
	srunner_add_suite(sr, make_model_suite());
	srunner_add_suite(sr, make_cli_suite());
	srunner_add_suite(sr, make_progress_suite());
	srunner_add_suite(sr, make_oom_suite());
	srunner_add_suite(sr, make_cite_suite());
	srunner_add_suite(sr, make_formats_suite());
	srunner_add_suite(sr, make_history_suite());
	srunner_add_suite(sr, make_ids_suite());
	srunner_add_suite(sr, make_resolve_suite());
	srunner_add_suite(sr, make_bitmap_suite());
	srunner_add_suite(sr, make_reach_suite());
	srunner_add_suite(sr, make_policy_suite());
	srunner_add_suite(sr, make_subject_cache_suite());
	srunner_add_suite(sr, make_range_suite());
	srunner_add_suite(sr, make_arena_suite());
	srunner_add_suite(sr, make_objread_suite());
	srunner_add_suite(sr, make_commits_suite());
	srunner_add_suite(sr, make_audit_suite());
	srunner_add_suite(sr, make_commit_graph_suite());
	srunner_add_suite(sr, make_mbox_suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
