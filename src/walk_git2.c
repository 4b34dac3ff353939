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

#include "walk.h"

#include <git2.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct walk_repo {
	git_repository *repo;
	char *path;
};

static void set_err(char *err, size_t errsz, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errsz, fmt, ap);
	va_end(ap);
}

static const char *git2_msg(void)
{
	const git_error *e = git_error_last();

	return e && e->message ? e->message : "unknown libgit2 error";
}

int walk_repo_open(walk_repo **out, const char *path, char *err, size_t errsz)
{
	walk_repo *r;
	const char *shown;
	int rc;

	*out = NULL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return WALK_NOMEM;
	git_error_clear();
	if (path)
		rc = git_repository_open_ext(&r->repo, path, 0, NULL);
	else
		rc = git_repository_open_ext(&r->repo, NULL, GIT_REPOSITORY_OPEN_FROM_ENV, NULL);
	if (rc < 0) {
		const char *what = path ? path : "the current directory";
		const git_error *e = git_error_last();

		if (rc == GIT_ENOTFOUND)
			set_err(err, errsz, "not a git repository (or any parent): %s", what);
		else if (e && e->message && strstr(e->message, "objectformat"))
			set_err(err, errsz, "%s: SHA-256 repositories are not supported by this libgit2", what);
		else
			set_err(err, errsz, "cannot open repository %s: %s", what, git2_msg());
		free(r);
		return WALK_ERR;
	}
	shown = git_repository_is_bare(r->repo) ? git_repository_path(r->repo)
						 : git_repository_workdir(r->repo);
	r->path = strdup(shown);
	if (!r->path) {
		walk_repo_free(r);
		return WALK_NOMEM;
	}
	/* show "/x/repo", not "/x/repo/" */
	size_t n = strlen(r->path);
	if (n > 1 && r->path[n - 1] == '/')
		r->path[n - 1] = '\0';
	*out = r;
	return WALK_OK;
}

void walk_repo_free(walk_repo *r)
{
	if (!r)
		return;
	git_repository_free(r->repo);
	free(r->path);
	free(r);
}

const char *walk_repo_path(const walk_repo *r)
{
	return r->path;
}

size_t walk_repo_rawsz(const walk_repo *r)
{
	(void)r;
	return GIT_OID_RAWSZ;
}

typedef struct {
	unsigned char *ids;
	size_t n, cap;
	progress *p;
	int nomem;
} id_list;

static int collect(const git_oid *oid, void *payload)
{
	id_list *l = payload;

	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 65536;
		unsigned char *ids = realloc(l->ids, cap * GIT_OID_RAWSZ);

		if (!ids) {
			l->nomem = 1;
			return -1;
		}
		l->ids = ids;
		l->cap = cap;
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

int walk_repo_objects(walk_repo *r, idsets *s, progress *p, char *err, size_t errsz)
{
	id_list l = { NULL, 0, 0, p, 0 };
	git_odb *odb = NULL;
	int ret = WALK_ERR;
	size_t i, done = 0;

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
	qsort(l.ids, l.n, GIT_OID_RAWSZ, cmp_id);

	progress_start(p, "reading types", l.n);
	for (i = 0; i < l.n; i++) {
		const unsigned char *id = l.ids + i * GIT_OID_RAWSZ;
		git_oid oid;
		git_object_t t;
		size_t len;
		int type, rc;

		if (i && !memcmp(id, id - GIT_OID_RAWSZ, GIT_OID_RAWSZ))
			continue;
		memcpy(oid.id, id, GIT_OID_RAWSZ);
		if (git_odb_read_header(&len, &t, odb, &oid) < 0 ||
		    (type = type_of(t)) == ABBREV_TYPE_NONE) {
			char hex[GIT_OID_HEXSZ + 1];

			git_oid_tostr(hex, sizeof(hex), &oid);
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
done:
	free(l.ids);
	git_odb_free(odb);
	return ret;
}
