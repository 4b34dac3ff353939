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
#include "walk_pack.h"
#include "walk_repo_int.h"

#include <git2.h>
#include <git2/worktree.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "commit.h"

/* The error for what needs libgit2 on a repository it cannot open. */
static int no_libgit2(const walk_repo *r, const char *what, char *err, size_t errsz)
{
	set_err(err, errsz, "%s: %s needs libgit2, which cannot read this repository's "
		"%zu-byte object IDs (SHA-256)", r->path, what, r->rawsz);
	return WALK_ERR;
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

/* ---- objects reachable from the refs ----------------------------------- */

typedef struct {
	walk_repo *r;
	idsets *s;
	progress *p;
	git_odb *odb;
	git_oid *stack;      /* commits still to visit */
	size_t nstack, capstack;
	size_t n;
	size_t missing;      /* objects a shallow or partial clone lacks */
	char *err;
	size_t errsz;
	int nomem;
} reach_ctx;

static int reach_push(reach_ctx *c, const git_oid *oid)
{
	if (c->nstack == c->capstack) {
		size_t n = c->capstack ? 2 * c->capstack : 1024;
		git_oid *st = realloc(c->stack, n * sizeof(*st));

		if (!st) {
			c->nomem = 1;
			return -1;
		}
		c->stack = st;
		c->capstack = n;
	}
	c->stack[c->nstack++] = *oid;
	return 0;
}

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
	if (git_tree_lookup(&tree, c->r->repo, oid) < 0) {
		/* a partial clone may have been given the tree's name only */
		if ((c->r->lacks & ABBREV_LACKS_PARTIAL) && !git_odb_exists(c->odb, oid)) {
			c->missing++;
			return 0;
		}
		return reach_fail(c, "tree", oid);
	}
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
			rc = reach_push(c, &oid);
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

/* Visit the queued commits: each commit, its tree, and its parents. */
static int reach_commits(reach_ctx *c)
{
	while (c->nstack) {
		git_oid oid = c->stack[--c->nstack];
		git_commit *commit;
		int rc = reach_add(c, &oid, ABBREV_TYPE_COMMIT);

		if (rc < 0)
			return -1;
		if (!rc)
			continue;
		if (git_commit_lookup(&commit, c->r->repo, &oid) < 0)
			return reach_fail(c, "commit", &oid);
		for (unsigned i = 0, n = git_commit_parentcount(commit); i < n && rc >= 0; i++) {
			const git_oid *parent = git_commit_parent_id(commit, i);

			/* a shallow clone ends where its parents are not there */
			if ((c->r->lacks & ABBREV_LACKS_SHALLOW) && !git_odb_exists(c->odb, parent)) {
				c->missing++;
				continue;
			}
			rc = reach_push(c, parent);
		}
		if (rc >= 0)
			rc = reach_tree(c, git_commit_tree_id(commit));
		git_commit_free(commit);
		if (rc < 0)
			return -1;
	}
	return 0;
}

int walk_repo_reachable(walk_repo *r, idsets *s, progress *p, char *err, size_t errsz)
{
	reach_ctx c = { .r = r, .s = s, .p = p, .err = err, .errsz = errsz };
	git_reference_iterator *iter = NULL;
	git_reference *ref;
	git_oid oid;
	int ret = WALK_ERR, rc;

	if (!r->repo)
		return no_libgit2(r, "--reachable", err, errsz);
	git_error_clear();
	if (git_repository_odb(&c.odb, r->repo) < 0) {
		set_err(err, errsz, "%s: cannot open object database: %s", r->path, git2_msg());
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
		if (rc < 0 || reach_commits(&c) < 0)
			goto done;
	}
	if (rc != GIT_ITEROVER) {
		set_err(err, errsz, "%s: cannot list refs: %s", r->path, git2_msg());
		goto done;
	}
	/* a detached HEAD is reachable too; an unborn one is nothing */
	if (git_reference_name_to_id(&oid, r->repo, "HEAD") == 0 &&
	    (reach_target(&c, &oid) < 0 || reach_commits(&c) < 0))
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
			if (rc < 0 || reach_commits(&c) < 0) {
				git_strarray_dispose(&wts);
				goto done;
			}
		}
		git_strarray_dispose(&wts);
	}
	progress_stop(p);
	ret = WALK_OK;
done:
	if (c.nomem)
		ret = WALK_NOMEM;
	git_reference_iterator_free(iter);
	git_odb_free(c.odb);
	free(c.stack);
	return ret;
}

/* ---- words about an object, for listings -------------------------------- */

char *walk_repo_describe(walk_repo *r, const unsigned char *id, int type)
{
	git_oid oid;
	char *out = NULL;

	if (!r->repo)
		return NULL;
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

/* ---- commit dates, for the history ------------------------------------- */

int walk_repo_commit_times(walk_repo *r, const unsigned char *ids, size_t n, int64_t *times,
			   unsigned char *found, progress *p, char *err, size_t errsz)
{
	git_odb *odb = NULL;
	int ret = WALK_ERR;
	size_t done = 0;

	if (!r->repo)
		return no_libgit2(r, "reading commit dates", err, errsz);
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
	progress_start(p, "reading commit dates", n);
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
		progress_update(p, ++done);
	}
	progress_stop(p);
	ret = WALK_OK;
done:
	git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 1);
	git_odb_free(odb);
	return ret;
}

