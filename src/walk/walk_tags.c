/*
 * walk_tags.c - what annotated tags point at, read through libgit2, for
 * the tags no walker has read the header of.
 *
 * The commit-ish set needs, for every tag, the "object" and "type" lines
 * of its header (tagobj.h).  The pack walker reads them from the pack
 * itself as it goes; the libgit2 walker and the reachable walk do not, so
 * this reads each tag still without a record once, from whichever
 * repository of the union holds it.
 */
#include <config.h>

#include "walk.h"

#include <git2.h>
#include <stdio.h>
#include <string.h>

#include "tagobj.h"

int repo_tag_targets(repo_handle *r, idsets *s, char *err, size_t errsz)
{
	git_repository *repo = repo_git2(r);
	size_t rawsz = idsets_rawsz(s);
	git_odb *odb = NULL;
	const unsigned char *id;
	idset_iter it;
	int ret = WALK_OK;

	if (!repo || rawsz != GIT_OID_RAWSZ || !idsets_count(s, ABBREV_SET_TAG))
		return WALK_OK;
	git_error_clear();
	if (git_repository_odb(&odb, repo) < 0) {
		const git_error *e = git_error_last();

		snprintf(err, errsz, "%s: cannot open object database: %s", repo_path(r),
			 e && e->message ? e->message : "unknown libgit2 error");
		return WALK_ERR;
	}
	idset_iter_init(&it, s, ABBREV_SET_TAG);
	while (ret == WALK_OK && idset_iter_next(&it, &id, NULL)) {
		unsigned char target[ABBREV_MAX_RAWSZ];
		git_odb_object *obj;
		git_oid oid;
		int type, rc;

		if (idsets_tag_has_target(s, id))
			continue;
		memcpy(oid.id, id, GIT_OID_RAWSZ);
		rc = git_odb_read(&obj, odb, &oid);
		if (rc == GIT_ENOTFOUND)
			continue; /* another repository of the union holds it */
		if (rc < 0) {
			char hex[GIT_OID_HEXSZ + 1];
			const git_error *e = git_error_last();

			git_oid_tostr(hex, sizeof(hex), &oid);
			snprintf(err, errsz, "%s: cannot read tag %s: %s", repo_path(r), hex,
				 e && e->message ? e->message : "unknown libgit2 error");
			ret = WALK_ERR;
			break;
		}
		/* a malformed tag gets no record: git cannot peel it either */
		if (git_odb_object_type(obj) == GIT_OBJECT_TAG &&
		    !tagobj_parse(git_odb_object_data(obj), git_odb_object_size(obj), rawsz, target,
				  &type) &&
		    idsets_tag_target(s, id, target, type) == -2)
			ret = WALK_NOMEM;
		git_odb_object_free(obj);
	}
	git_odb_free(odb);
	return ret;
}
