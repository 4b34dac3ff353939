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
#include <git2/worktree.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct walk_repo {
	git_repository *repo;
	char *path;
	char *objdir;
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

/*
 * The object directory, as libgit2 finds it: opened from the environment,
 * GIT_OBJECT_DIRECTORY wins (git_repository_item_path() does not know it);
 * else the common dir's "objects".  No trailing slash.
 */
static int find_objdir(char **out, git_repository *repo, int from_env)
{
	const char *env = from_env ? getenv("GIT_OBJECT_DIRECTORY") : NULL;
	git_buf buf = GIT_BUF_INIT;
	size_t n;

	if (env && *env) {
		*out = strdup(env);
	} else {
		git_error_clear();
		if (git_repository_item_path(&buf, repo, GIT_REPOSITORY_ITEM_OBJECTS) < 0)
			return WALK_ERR;
		*out = strdup(buf.ptr);
		git_buf_dispose(&buf);
	}
	if (!*out)
		return WALK_NOMEM;
	n = strlen(*out);
	while (n > 1 && (*out)[n - 1] == '/')
		(*out)[--n] = '\0';
	return WALK_OK;
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
	rc = find_objdir(&r->objdir, r->repo, !path);
	if (rc) {
		if (rc == WALK_ERR)
			set_err(err, errsz, "%s: cannot find the object directory: %s", r->path,
				git2_msg());
		walk_repo_free(r);
		return rc;
	}
	*out = r;
	return WALK_OK;
}

void walk_repo_free(walk_repo *r)
{
	if (!r)
		return;
	git_repository_free(r->repo);
	free(r->path);
	free(r->objdir);
	free(r);
}

const char *walk_repo_path(const walk_repo *r)
{
	return r->path;
}

const char *walk_repo_objdir(const walk_repo *r)
{
	return r->objdir;
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
	if (l.n)
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

/* ---- objects reachable from the refs ----------------------------------- */

typedef struct {
	walk_repo *r;
	idsets *s;
	progress *p;
	git_revwalk *walk;
	size_t n;
	char *err;
	size_t errsz;
	int nomem;
} reach_ctx;

/* 1 if the object is new to the sets, 0 if seen, -1 on error */
static int reach_add(reach_ctx *c, const git_oid *oid, int type)
{
	int rc = idsets_add(c->s, oid->id, type);

	if (rc == -2) {
		c->nomem = 1;
		return -1;
	}
	if (rc == 1)
		progress_update(c->p, ++c->n);
	return rc;
}

static int reach_fail(reach_ctx *c, const char *what, const git_oid *oid)
{
	char hex[GIT_OID_HEXSZ + 1];

	git_oid_tostr(hex, sizeof(hex), oid);
	set_err(c->err, c->errsz, "%s: cannot read %s %s: %s", c->r->path, what, hex, git2_msg());
	return -1;
}

static int reach_tree(reach_ctx *c, const git_oid *oid)
{
	git_tree *tree;
	int rc = reach_add(c, oid, ABBREV_TYPE_TREE);

	if (rc <= 0)
		return rc;
	if (git_tree_lookup(&tree, c->r->repo, oid) < 0)
		return reach_fail(c, "tree", oid);
	for (size_t i = 0, n = git_tree_entrycount(tree); i < n && rc >= 0; i++) {
		const git_tree_entry *e = git_tree_entry_byindex(tree, i);

		switch (git_tree_entry_type(e)) {
		case GIT_OBJECT_TREE:
			rc = reach_tree(c, git_tree_entry_id(e));
			break;
		case GIT_OBJECT_BLOB:
			rc = reach_add(c, git_tree_entry_id(e), ABBREV_TYPE_BLOB);
			break;
		default: /* a submodule's commit lives in another repository */
			break;
		}
	}
	git_tree_free(tree);
	return rc < 0 ? -1 : 0;
}

/* A ref's target: peel tags, queue commits, walk trees, add blobs. */
static int reach_target(reach_ctx *c, const git_oid *start)
{
	git_oid oid = *start;

	for (int depth = 0; depth < 64; depth++) {
		git_object *obj;
		git_object_t t;
		int rc = 0;

		if (git_object_lookup(&obj, c->r->repo, &oid, GIT_OBJECT_ANY) < 0)
			return reach_fail(c, "object", &oid);
		t = git_object_type(obj);
		if (t == GIT_OBJECT_TAG) {
			rc = reach_add(c, &oid, ABBREV_TYPE_TAG);
			if (rc > 0)
				oid = *git_tag_target_id((git_tag *)obj);
		} else if (t == GIT_OBJECT_COMMIT) {
			if (git_revwalk_push(c->walk, &oid) < 0)
				rc = reach_fail(c, "commit", &oid);
		} else if (t == GIT_OBJECT_TREE) {
			rc = reach_tree(c, &oid);
		} else if (t == GIT_OBJECT_BLOB) {
			rc = reach_add(c, &oid, ABBREV_TYPE_BLOB);
		}
		git_object_free(obj);
		if (rc < 0)
			return -1;
		if (t != GIT_OBJECT_TAG || rc == 0)
			return 0;
	}
	set_err(c->err, c->errsz, "%s: tag chain too deep", c->r->path);
	return -1;
}

int walk_repo_reachable(walk_repo *r, idsets *s, progress *p, char *err, size_t errsz)
{
	reach_ctx c = { r, s, p, NULL, 0, err, errsz, 0 };
	git_reference_iterator *iter = NULL;
	git_reference *ref;
	git_oid oid;
	int ret = WALK_ERR, rc;

	git_error_clear();
	if (git_revwalk_new(&c.walk, r->repo) < 0) {
		set_err(err, errsz, "%s: cannot walk history: %s", r->path, git2_msg());
		return WALK_ERR;
	}
	progress_start(p, "walking reachable objects", 0);
	if (git_reference_iterator_new(&iter, r->repo) < 0) {
		set_err(err, errsz, "%s: cannot list refs: %s", r->path, git2_msg());
		goto done;
	}
	while ((rc = git_reference_next(&ref, iter)) == 0) {
		git_reference *direct = NULL;

		if (git_reference_resolve(&direct, ref) < 0) {
			/* a dangling symbolic ref points at nothing to walk */
			git_reference_free(ref);
			continue;
		}
		rc = reach_target(&c, git_reference_target(direct));
		git_reference_free(direct);
		git_reference_free(ref);
		if (rc < 0)
			goto done;
	}
	if (rc != GIT_ITEROVER) {
		set_err(err, errsz, "%s: cannot list refs: %s", r->path, git2_msg());
		goto done;
	}
	/* a detached HEAD is reachable too; an unborn one is nothing */
	if (git_reference_name_to_id(&oid, r->repo, "HEAD") == 0 && reach_target(&c, &oid) < 0)
		goto done;
	/* and so are the HEADs of the other worktrees, as for git gc and rev-list --all */
	git_strarray wts = { 0 };
	if (git_worktree_list(&wts, r->repo) == 0) {
		for (size_t i = 0; i < wts.count; i++) {
			git_reference *head;

			if (git_repository_head_for_worktree(&head, r->repo, wts.strings[i]) < 0)
				continue;
			rc = git_reference_target(head) ? reach_target(&c, git_reference_target(head)) : 0;
			git_reference_free(head);
			if (rc < 0) {
				git_strarray_dispose(&wts);
				goto done;
			}
		}
		git_strarray_dispose(&wts);
	}

	while ((rc = git_revwalk_next(&oid, c.walk)) == 0) {
		git_commit *commit;

		rc = reach_add(&c, &oid, ABBREV_TYPE_COMMIT);
		if (rc < 0)
			goto done;
		if (git_commit_lookup(&commit, r->repo, &oid) < 0) {
			reach_fail(&c, "commit", &oid);
			goto done;
		}
		rc = reach_tree(&c, git_commit_tree_id(commit));
		git_commit_free(commit);
		if (rc < 0)
			goto done;
	}
	if (rc != GIT_ITEROVER) {
		set_err(err, errsz, "%s: cannot walk history: %s", r->path, git2_msg());
		goto done;
	}
	progress_stop(p);
	ret = WALK_OK;
done:
	if (c.nomem)
		ret = WALK_NOMEM;
	git_reference_iterator_free(iter);
	git_revwalk_free(c.walk);
	return ret;
}

/* ---- words about an object, for listings -------------------------------- */

char *walk_repo_describe(walk_repo *r, const unsigned char *id, int type)
{
	git_oid oid;
	char *out = NULL;

	memcpy(oid.id, id, GIT_OID_RAWSZ);
	if (type == ABBREV_TYPE_COMMIT) {
		git_commit *c;
		const git_signature *who;
		const char *subject;
		char date[32] = "";

		if (git_commit_lookup(&c, r->repo, &oid) < 0)
			return NULL;
		subject = git_commit_summary(c);
		who = git_commit_committer(c);
		if (who) {
			/* the committer's own calendar day, as git log --date=short */
			time_t t = (time_t)(who->when.time + (git_time_t)who->when.offset * 60);
			struct tm tm;

			if (gmtime_r(&t, &tm))
				strftime(date, sizeof(date), " %Y-%m-%d", &tm);
		}
		if (asprintf(&out, "(\"%s\")%s", subject ? subject : "", date) < 0)
			out = NULL;
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
