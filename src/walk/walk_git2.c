/*
 * walk_git2.c - the object walker on libgit2.
 *
 * git_odb_foreach() lists every object of every backend (loose objects,
 * each pack, and the alternates), then git_odb_read_header() gives each
 * object's type.  IDs are sorted first so that duplicates (an object both
 * loose and packed, or in two packs) are read once and so that the Judy
 * arrays are filled in key order, which is far cheaper than random order.
 */
#include <config.h>

#include "grow.h"
#include "walk.h"
#include "walk_pack.h"
#include "repo_int.h"

#include <errno.h>
#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "commit.h"

typedef struct {
	unsigned char *ids;
	size_t n, cap;
	progress *p;
	int nomem;
} id_list;

static int collect(const git_oid *oid, void *payload)
{
	id_list *l = payload;

	if (grow(&l->ids, &l->cap, l->n + 1, 65536, GIT_OID_RAWSZ)) {
		l->nomem = 1;
		return -1;
	}
	memcpy(l->ids + l->n * GIT_OID_RAWSZ, oid->id, GIT_OID_RAWSZ);
	l->n++;
	progress_update(l->p, l->n);
	return 0;
}

static int cmp_id(const void *a, const void *b)
{
	return memcmp(a, b, GIT_OID_RAWSZ);
}

static int type_of(git_object_t t)
{
	switch (t) {
	case GIT_OBJECT_COMMIT: return ABBREV_TYPE_COMMIT;
	case GIT_OBJECT_TREE: return ABBREV_TYPE_TREE;
	case GIT_OBJECT_BLOB: return ABBREV_TYPE_BLOB;
	case GIT_OBJECT_TAG: return ABBREV_TYPE_TAG;
	default: return ABBREV_TYPE_NONE;
	}
}

int repo_objects(repo_handle *r, idsets *s, progress *p, char *err, size_t errsz)
{
	id_list l = { NULL, 0, 0, p, 0 };
	git_odb *odb = NULL;
	int ret = WALK_ERR;
	size_t i, done = 0;

	if (!r->repo)
		return no_libgit2(r, "--walker=libgit2", err, errsz);
	if (idsets_rawsz(s) != GIT_OID_RAWSZ) {
		set_err(err, errsz, "%s: hash width differs from the other repositories", r->path);
		return WALK_ERR;
	}
	git_error_clear();
	if (git_repository_odb(&odb, r->repo) < 0) {
		set_err(err, errsz, "%s: cannot open object database: %s", r->path, git2_msg());
		return WALK_ERR;
	}
	progress_start(p, "listing objects", 0);
	if (git_odb_foreach(odb, collect, &l) < 0) {
		if (l.nomem)
			ret = WALK_NOMEM;
		else
			set_err(err, errsz, "%s: cannot list objects: %s", r->path, git2_msg());
		goto done;
	}
	progress_stop(p);
	if (l.n)
		qsort(l.ids, l.n, GIT_OID_RAWSZ, cmp_id);

	progress_start(p, "reading types", l.n);
	for (i = 0; i < l.n; i++) {
		const unsigned char *id = l.ids + i * GIT_OID_RAWSZ;
		git_oid oid;
		git_object_t t;
		size_t len;
		int type, rc;

		/* an ID listed twice (packed and loose) is read once, counted as listed */
		if (i && !memcmp(id, id - GIT_OID_RAWSZ, GIT_OID_RAWSZ)) {
			progress_update(p, ++done);
			continue;
		}
		memcpy(oid.id, id, GIT_OID_RAWSZ);
		errno = 0;
		rc = git_odb_read_header(&len, &t, odb, &oid);
		if (rc < 0 || (type = type_of(t)) == ABBREV_TYPE_NONE) {
			char hex[GIT_OID_HEXSZ + 1];
			int e = errno;

			git_oid_tostr(hex, sizeof(hex), &oid);
			/* a resource error is not a missing object, whatever libgit2 says */
			if (e == EMFILE || e == ENFILE || e == ENOMEM)
				set_err(err, errsz, "%s: cannot read object %s: %s", r->path, hex,
					strerror(e));
			else if (rc == GIT_ENOTFOUND)
				set_err(err, errsz, "%s: object %s was listed, then not found "
					"(a repack or gc meanwhile?): %s", r->path, hex, git2_msg());
			else
				set_err(err, errsz, "%s: cannot read object %s: %s", r->path, hex,
					git2_msg());
			goto done;
		}
		rc = idsets_add(s, id, type);
		if (rc == -2) {
			ret = WALK_NOMEM;
			goto done;
		}
		progress_update(p, ++done);
	}
	progress_stop(p);
	ret = WALK_OK;
	/* the warnings git gives (alternates missing or nested too deep) */
	{
		char **dirs;
		size_t n;

		ret = walk_pack_objdirs(r->objdir, &dirs, &n, err, errsz);
		for (i = 0; i < n; i++)
			free(dirs[i]);
		free(dirs);
	}
done:
	free(l.ids);
	git_odb_free(odb);
	return ret;
}

/* ---- words about an object, for listings -------------------------------- */

char *repo_describe(repo_handle *r, const unsigned char *id, int type)
{
	git_oid oid;
	char *out = NULL;

	if (!r->repo)
		return NULL;
	memcpy(oid.id, id, GIT_OID_RAWSZ);
	if (type == ABBREV_TYPE_COMMIT) {
		git_commit *c;
		const git_signature *who;
		git_odb *odb = NULL;
		git_odb_object *obj;
		commit_buf subject = { 0 };
		char date[32] = "";

		if (git_commit_lookup(&c, r->repo, &oid) < 0)
			return NULL;
		/*
		 * The subject as git's %s (commit_subject), not libgit2's
		 * summary, which drops the first line's indentation and
		 * squeezes the whitespace inside
		 */
		if (git_repository_odb(&odb, r->repo) == 0 && git_odb_read(&obj, odb, &oid) == 0) {
			if (commit_subject(git_odb_object_data(obj), git_odb_object_size(obj),
					   &subject))
				commit_buf_free(&subject);
			git_odb_object_free(obj);
		}
		git_odb_free(odb);
		who = git_commit_committer(c);
		if (who) {
			/* the committer's own calendar day, as git log --date=short */
			time_t t = (time_t)(who->when.time + (git_time_t)who->when.offset * 60);
			struct tm tm;

			if (gmtime_r(&t, &tm))
				strftime(date, sizeof(date), " %Y-%m-%d", &tm);
		}
		if (!subject.s || asprintf(&out, "(\"%s\")%s", subject.s, date) < 0)
			out = NULL;
		commit_buf_free(&subject);
		git_commit_free(c);
	} else if (type == ABBREV_TYPE_TAG) {
		git_tag *t;

		if (git_tag_lookup(&t, r->repo, &oid) < 0)
			return NULL;
		if (asprintf(&out, "(tag %s)", git_tag_name(t)) < 0)
			out = NULL;
		git_tag_free(t);
	}
	return out;
}

/* ---- commit dates, for the history ------------------------------------- */

/*
 * A commit of a repository libgit2 cannot read (SHA-256), by the own
 * reader (objread.h): from its packs, else its loose objects.  WALK_OK
 * with its bytes, 1 when the repository holds no such object, WALK_NOMEM,
 * or WALK_ERR with a message in err (damaged, or not a commit).
 */
static int own_commit(repo_handle *r, const unsigned char *id, const char **d, size_t *len,
		      char *err, size_t errsz)
{
	const unsigned char *data;
	char hex[ABBREV_MAX_HEXSZ + 1];
	int type = 0, rc;

	if (!r->own) {
		rc = objread_new(&r->own, r->objdir, r->rawsz, err, errsz);
		if (rc)
			return rc == -1 ? WALK_NOMEM : WALK_ERR;
	}
	rc = objread_read(r->own, id, &type, &data, len);
	if (rc == 0)
		rc = objread_read_loose(r->own, id, &type, &data, len);
	if (rc == 0)
		return 1;
	if (rc == -1)
		return WALK_NOMEM;
	hexid_fmt(hex, id, r->rawsz);
	if (rc < 0 || type != ABBREV_TYPE_COMMIT) {
		set_err(err, errsz, "%s: cannot read commit %s: %s", r->path, hex,
			rc < 0 ? "damaged object" : "not a commit");
		return WALK_ERR;
	}
	*d = (const char *)data;
	return WALK_OK;
}

int repo_commit_zone(repo_handle *r, const unsigned char *id, int *tz)
{
	git_odb *odb = NULL;
	git_odb_object *obj = NULL;
	git_oid oid;
	int ret = 1;

	if (!r->repo) {
		const char *d;
		size_t len;
		char err[256];

		if (own_commit(r, id, &d, &len, err, sizeof(err)) != WALK_OK)
			return 1;
		(void)commit_when(d, len, tz);
		return 0;
	}
	if (git_repository_odb(&odb, r->repo) < 0)
		return 1;
	memcpy(oid.id, id, GIT_OID_RAWSZ);
	if (git_odb_read(&obj, odb, &oid) == 0 && git_odb_object_type(obj) == GIT_OBJECT_COMMIT) {
		(void)commit_when(git_odb_object_data(obj), git_odb_object_size(obj), tz);
		ret = 0;
	}
	git_odb_object_free(obj);
	git_odb_free(odb);
	git_error_clear();
	return ret;
}

int repo_commit_times(repo_handle *r, const unsigned char *ids, size_t n, int64_t *times,
			   unsigned char *found, progress *p, size_t *done, char *err,
			   size_t errsz)
{
	git_odb *odb = NULL;
	int ret = WALK_ERR;

	if (!r->repo) {
		/* SHA-256: the own reader, for what the commit-graph and tables left */
		for (size_t i = 0; i < n; i++) {
			const char *d;
			size_t len;

			if (found[i])
				continue;
			ret = own_commit(r, ids + i * r->rawsz, &d, &len, err, errsz);
			if (ret == 1)
				continue;
			if (ret != WALK_OK)
				return ret;
			times[i] = commit_time(d, len);
			found[i] = 1;
			progress_update(p, ++*done);
		}
		return WALK_OK;
	}
	git_error_clear();
	if (git_repository_odb(&odb, r->repo) < 0) {
		set_err(err, errsz, "%s: cannot open object database: %s", r->path, git2_msg());
		return WALK_ERR;
	}
	/*
	 * The IDs come from the object database's own index, and hashing
	 * every commit again would cost a quarter of the time.
	 */
	git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
	for (size_t i = 0; i < n; i++) {
		git_odb_object *obj;
		git_oid oid;
		int rc;

		if (found[i])
			continue;
		memcpy(oid.id, ids + i * GIT_OID_RAWSZ, GIT_OID_RAWSZ);
		rc = git_odb_read(&obj, odb, &oid);
		if (rc == GIT_ENOTFOUND)
			continue;
		if (rc < 0 || git_odb_object_type(obj) != GIT_OBJECT_COMMIT) {
			char hex[GIT_OID_HEXSZ + 1];

			git_oid_tostr(hex, sizeof(hex), &oid);
			set_err(err, errsz, "%s: cannot read commit %s: %s", r->path, hex,
				rc < 0 ? git2_msg() : "not a commit");
			if (rc == 0)
				git_odb_object_free(obj);
			goto done;
		}
		times[i] = commit_time(git_odb_object_data(obj), git_odb_object_size(obj));
		found[i] = 1;
		git_odb_object_free(obj);
		progress_update(p, ++*done);
	}
	ret = WALK_OK;
done:
	git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 1);
	git_odb_free(odb);
	return ret;
}

