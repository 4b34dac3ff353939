/*
 * revwalk_dump.c - the oracle of t-verify-range.sh: the commits of a
 * range as libgit2's revwalk lists them with GIT_SORT_TOPOLOGICAL |
 * GIT_SORT_TIME, one full ID a line, pushed as `verify --range` pushed
 * them while it walked with libgit2 ("A..B": git_revwalk_push_range;
 * else the revision peeled to its commit).  verify now walks itself
 * (src/verify/range_walk.c) and must list the same commits in the same order.
 *
 *	revwalk_dump <repo> <range>
 *
 * Exit status: 0, 2 usage, 3 libgit2 error (its message on stderr).
 */
#include <config.h>

#include <git2.h>
#include <stdio.h>
#include <string.h>

static int push(git_repository *repo, git_revwalk *walk, const char *range)
{
	git_object *obj = NULL, *c = NULL;
	int rc;

	if (strstr(range, ".."))
		return git_revwalk_push_range(walk, range);
	rc = git_revparse_single(&obj, repo, range);
	if (!rc)
		rc = git_object_peel(&c, obj, GIT_OBJECT_COMMIT);
	if (!rc)
		rc = git_revwalk_push(walk, git_object_id(c));
	git_object_free(c);
	git_object_free(obj);
	return rc;
}

int main(int argc, char **argv)
{
	git_repository *repo = NULL;
	git_revwalk *walk = NULL;
	char hex[GIT_OID_HEXSZ + 1];
	git_oid id;
	int rc;

	if (argc != 3) {
		fputs("usage: revwalk_dump <repo> <range>\n", stderr);
		return 2;
	}
	git_libgit2_init();
	rc = git_repository_open(&repo, argv[1]);
	if (!rc)
		rc = git_revwalk_new(&walk, repo);
	if (!rc)
		rc = git_revwalk_sorting(walk, GIT_SORT_TOPOLOGICAL | GIT_SORT_TIME);
	if (!rc)
		rc = push(repo, walk, argv[2]);
	while (!rc && !(rc = git_revwalk_next(&id, walk)))
		puts(git_oid_tostr(hex, sizeof(hex), &id));
	if (rc == GIT_ITEROVER)
		rc = 0;
	if (rc) {
		const git_error *e = git_error_last();

		fprintf(stderr, "revwalk_dump: %s\n", e && e->message ? e->message : "libgit2 error");
	}
	git_revwalk_free(walk);
	git_repository_free(repo);
	git_libgit2_shutdown();
	return rc ? 3 : 0;
}
