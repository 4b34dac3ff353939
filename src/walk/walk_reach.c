/*
 * walk_reach.c - the objects a clone receives: those reachable from refs.
 *
 * The refs: HEAD, the branches and the tags by default, what `git clone`
 * fetches; or those matching the caller's patterns (--refs).  A
 * pattern without a wildcard matches a ref named so or any ref below it
 * (as `git for-each-ref` does: "refs/tags" is every tag); one with a
 * wildcard is an fnmatch(3) glob whose '*' also matches '/' (as `git
 * rev-list --glob` does: "refs/" and a star is every ref).  "HEAD" names
 * HEAD.
 *
 * The walk reads each commit, tag and tree once, raw, through libgit2's
 * object database (git_odb_read) and parses the few lines it needs here:
 * a commit's tree and parents, a tag's target, a tree's entries.  That
 * skips libgit2's parsed objects and their cache, and the hash check is
 * off for the walk (the IDs come from this database's own refs and
 * trees; nothing is written).  Blobs are not read, only looked up.  The
 * visited set is a hash table (objset.h): a tree entry seen before costs
 * one probe; the IDs go to the Judy sets once, in order, at the end.
 *
 * An object a ref reaches that the database lacks (a partial clone's
 * promised objects, a broken ref) is counted as missing, once, and never
 * as present.  A shallow clone's cut-off parents are neither: git's own
 * walk ends at the shallow boundary.
 */
#include <config.h>

#include "grow.h"
#include "walk.h"
#include "repo_int.h"

#include <fnmatch.h>
#include <git2.h>
#include <stdlib.h>
#include <string.h>

#include "objset.h"

const char *const walk_clone_refs[] = { "HEAD", "refs/heads/*", "refs/tags/*" };
const size_t walk_clone_nrefs = sizeof(walk_clone_refs) / sizeof(walk_clone_refs[0]);

typedef struct {
	const unsigned char *id;  /* into the tree's data */
	unsigned mode;
} tree_entry;

typedef struct {
	repo_handle *r;
	git_odb *odb;
	objset *seen;        /* every object met; missing ones as ABBREV_TYPE_NONE */
	git_oid *commits;    /* commits still to visit */
	size_t ncommits, capcommits;
	git_oid *trees;      /* trees still to read */
	size_t ntrees, captrees;
	tree_entry *ents;    /* the entries of the tree being read */
	size_t nents, capents;
	walk_reach_result *res;
	int absent_seen;     /* an object read was not there */
	progress *p;
	size_t shown;
	char *err;
	size_t errsz;
} reach_ctx;

static int push(git_oid **v, size_t *n, size_t *cap, const git_oid *oid)
{
	if (GROW(*v, *cap, *n + 1, 1024))
		return WALK_NOMEM;
	(*v)[(*n)++] = *oid;
	return WALK_OK;
}

/*
 * Mark an object seen with its type, or as missing (ABBREV_TYPE_NONE).
 * 1 if it is new, 0 if seen before, WALK_NOMEM.
 */
static int mark(reach_ctx *c, const git_oid *oid, int type)
{
	int rc = objset_add(c->seen, oid->id, type);

	if (rc < 0)
		return WALK_NOMEM;
	if (rc && type == ABBREV_TYPE_NONE)
		c->res->missing++;
	if (rc && !(++c->shown & 1023))
		progress_update(c->p, c->shown);
	return rc;
}

static int fail(reach_ctx *c, const char *what, const git_oid *oid, const char *why)
{
	char hex[GIT_OID_HEXSZ + 1];

	git_oid_tostr(hex, sizeof(hex), oid);
	set_err(c->err, c->errsz, "%s: cannot read %s %s: %s", c->r->path, what, hex,
		why ? why : git2_msg());
	return WALK_ERR;
}

/* Whether the database has the object, without rescanning its packs. */
static int has(reach_ctx *c, const git_oid *oid)
{
	return git_odb_exists_ext(c->odb, oid, GIT_ODB_LOOKUP_NO_REFRESH);
}

/*
 * Read an object of type `want` (GIT_OBJECT_ANY: any): WALK_OK with *obj
 * set, 1 when the database lacks it (*obj NULL), WALK_ERR when it is there
 * and cannot be read or is of another type.
 */
static int read_obj(reach_ctx *c, git_odb_object **obj, const git_oid *oid, git_object_t want,
		    const char *what)
{
	int rc;

	*obj = NULL;
	/*
	 * libgit2 rescans the pack directory before it says "not found": once
	 * an object was absent (a tree-less clone lacks thousands), ask first
	 * without that rescan
	 */
	if (c->absent_seen && !has(c, oid))
		return 1;
	rc = git_odb_read(obj, c->odb, oid);
	if (rc == GIT_ENOTFOUND) {
		c->absent_seen = 1;
		return 1;
	}
	if (rc < 0)
		return fail(c, what, oid, NULL);
	if (want != GIT_OBJECT_ANY && git_odb_object_type(*obj) != want) {
		git_odb_object_free(*obj);
		*obj = NULL;
		return fail(c, what, oid, "an object of another type");
	}
	return WALK_OK;
}

/* "<key> <hex>\n" at *p (before end): the ID, and *p past the line. */
static int header_id(const char **p, const char *end, const char *key, git_oid *oid)
{
	size_t k = strlen(key);
	const char *q = *p;

	if ((size_t)(end - q) < k + 1 + GIT_OID_HEXSZ + 1 || memcmp(q, key, k) || q[k] != ' ' ||
	    q[k + 1 + GIT_OID_HEXSZ] != '\n' || git_oid_fromstrn(oid, q + k + 1, GIT_OID_HEXSZ) < 0)
		return -1;
	*p = q + k + 1 + GIT_OID_HEXSZ + 1;
	return 0;
}

/*
 * A tree's entries "<octal mode> <name>\0<raw id>", parsed into c->ents
 * (pointers to the raw IDs in d, and their modes).  0, or -1 if malformed.
 */
static int parse_tree(reach_ctx *c, const char *d, const char *end)
{
	c->nents = 0;
	while (d < end) {
		unsigned mode = 0;
		const char *nul;

		for (; d < end && *d >= '0' && *d <= '7'; d++)
			mode = mode << 3 | (unsigned)(*d - '0');
		nul = d < end && *d == ' ' ? memchr(d, '\0', (size_t)(end - d)) : NULL;
		if (!nul || (size_t)(end - nul - 1) < GIT_OID_RAWSZ || mode > 0777777)
			return -1;
		if (GROW(c->ents, c->capents, c->nents + 1, 256))
			return WALK_NOMEM;
		c->ents[c->nents].id = (const unsigned char *)nul + 1;
		c->ents[c->nents].mode = mode;
		/* the lookups below then wait for many cache misses at once */
		objset_prefetch(c->seen, c->ents[c->nents].id);
		c->nents++;
		d = nul + 1 + GIT_OID_RAWSZ;
	}
	return 0;
}

/* Read the queued trees: each entry a tree to queue or a blob to mark. */
static int walk_trees(reach_ctx *c)
{
	while (c->ntrees) {
		git_oid oid = c->trees[--c->ntrees];
		git_odb_object *obj;
		int rc = read_obj(c, &obj, &oid, GIT_OBJECT_TREE, "tree");

		if (rc < 0)
			return rc;
		if (rc) {
			/* queued as a tree; it turned out missing */
			objset_set_type(c->seen, oid.id, ABBREV_TYPE_NONE);
			c->res->missing++;
			continue;
		}
		rc = parse_tree(c, git_odb_object_data(obj),
				(const char *)git_odb_object_data(obj) + git_odb_object_size(obj));
		if (rc == -1)
			rc = fail(c, "tree", &oid, "malformed entry");
		for (size_t i = 0; i < c->nents && rc >= 0; i++) {
			git_oid id;

			if (objset_find(c->seen, c->ents[i].id) >= 0)
				continue;
			git_oid_fromraw(&id, c->ents[i].id);
			switch (c->ents[i].mode & 0170000) {
			case 0040000:
				rc = mark(c, &id, ABBREV_TYPE_TREE);
				if (rc > 0)
					rc = push(&c->trees, &c->ntrees, &c->captrees, &id);
				break;
			case 0160000: /* a submodule's commit lives in another repository */
				break;
			default:
				rc = mark(c, &id, has(c, &id) ? ABBREV_TYPE_BLOB : ABBREV_TYPE_NONE);
			}
		}
		git_odb_object_free(obj);
		if (rc < 0)
			return rc;
	}
	return WALK_OK;
}

/* Visit the queued commits: each commit, its tree and its parents. */
static int walk_commits(reach_ctx *c)
{
	while (c->ncommits) {
		git_oid oid = c->commits[--c->ncommits], id;
		git_odb_object *obj;
		const char *d, *end;
		int rc;

		if (objset_find(c->seen, oid.id) >= 0)
			continue;
		rc = read_obj(c, &obj, &oid, GIT_OBJECT_COMMIT, "commit");
		if (rc < 0)
			return rc;
		if (rc) {
			rc = mark(c, &oid, ABBREV_TYPE_NONE);
			if (rc < 0)
				return rc;
			continue;
		}
		d = git_odb_object_data(obj);
		end = d + git_odb_object_size(obj);
		rc = mark(c, &oid, ABBREV_TYPE_COMMIT);
		if (rc >= 0 && header_id(&d, end, "tree", &id) < 0)
			rc = fail(c, "commit", &oid, "no tree line");
		if (rc >= 0 && objset_find(c->seen, id.id) < 0) {
			rc = mark(c, &id, ABBREV_TYPE_TREE);
			if (rc > 0)
				rc = push(&c->trees, &c->ntrees, &c->captrees, &id);
		}
		while (rc >= 0 && header_id(&d, end, "parent", &id) == 0) {
			if (objset_find(c->seen, id.id) >= 0)
				continue;
			/* a shallow clone ends where its parents are not there */
			if ((c->r->lacks & ABBREV_LACKS_SHALLOW) && !has(c, &id))
				continue;
			rc = push(&c->commits, &c->ncommits, &c->capcommits, &id);
		}
		git_odb_object_free(obj);
		if (rc >= 0)
			rc = walk_trees(c);
		if (rc < 0)
			return rc;
	}
	return WALK_OK;
}

/* A ref's target: peel tags, then walk the commit, tree or blob. */
static int walk_target(reach_ctx *c, const char *name, const git_oid *start)
{
	git_oid oid = *start;

	for (int depth = 0; depth < 64; depth++) {
		git_odb_object *obj;
		const char *d, *end;
		int rc;

		if (objset_find(c->seen, oid.id) >= 0)
			return WALK_OK;
		rc = read_obj(c, &obj, &oid, GIT_OBJECT_ANY, "object");
		if (rc < 0)
			return rc;
		if (rc) {
			if (!depth) {
				/* as git says it: "fatal: bad object refs/heads/ghost" */
				c->res->nbad++;
				if (c->res->bad_ref)
					c->res->bad_ref(c->res->ctx, name);
			}
			rc = mark(c, &oid, ABBREV_TYPE_NONE);
			if (rc > 0 && !depth)
				c->res->bad_missing++;
			return rc < 0 ? rc : WALK_OK;
		}
		switch (git_odb_object_type(obj)) {
		case GIT_OBJECT_TAG:
			d = git_odb_object_data(obj);
			end = d + git_odb_object_size(obj);
			rc = mark(c, &oid, ABBREV_TYPE_TAG);
			if (rc >= 0 && header_id(&d, end, "object", &oid) < 0)
				rc = fail(c, "tag", &oid, "no object line");
			git_odb_object_free(obj);
			if (rc < 0)
				return rc;
			continue;
		case GIT_OBJECT_COMMIT:
			git_odb_object_free(obj);
			rc = push(&c->commits, &c->ncommits, &c->capcommits, &oid);
			return rc < 0 ? rc : walk_commits(c);
		case GIT_OBJECT_TREE:
			git_odb_object_free(obj);
			rc = mark(c, &oid, ABBREV_TYPE_TREE);
			if (rc > 0)
				rc = push(&c->trees, &c->ntrees, &c->captrees, &oid);
			return rc < 0 ? rc : walk_trees(c);
		case GIT_OBJECT_BLOB:
			git_odb_object_free(obj);
			rc = mark(c, &oid, ABBREV_TYPE_BLOB);
			return rc < 0 ? rc : WALK_OK;
		default:
			git_odb_object_free(obj);
			return fail(c, "object", &oid, "unknown type");
		}
	}
	set_err(c->err, c->errsz, "%s: %s: tag chain too deep", c->r->path, name);
	return WALK_ERR;
}

int walk_ref_matches(const char *name, const char *const *patterns, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *p = patterns[i];
		size_t k = strlen(p);

		if (!strncmp(name, p, k) &&
		    (name[k] == '\0' || name[k] == '/' || (k && p[k - 1] == '/')))
			return 1;
		if (strpbrk(p, "*?[") && !fnmatch(p, name, 0))
			return 1;
	}
	return 0;
}

/* Flag each pattern that names `name`, for the caller (res->matched). */
static void note_match(reach_ctx *c, const char *name, const char *const *patterns, size_t n)
{
	for (size_t i = 0; c->res->matched && i < n; i++)
		if (walk_ref_matches(name, patterns + i, 1))
			c->res->matched[i] = 1;
}

/* The refs matching the patterns, walked one by one. */
static int walk_refs(reach_ctx *c, const char *const *patterns, size_t n)
{
	git_reference_iterator *iter = NULL;
	git_reference *ref;
	int rc = WALK_OK, it = 0;

	if (git_reference_iterator_new(&iter, c->r->repo) < 0) {
		set_err(c->err, c->errsz, "%s: cannot list refs: %s", c->r->path, git2_msg());
		return WALK_ERR;
	}
	while (rc == WALK_OK && (it = git_reference_next(&ref, iter)) == 0) {
		git_reference *direct = NULL;
		const char *name = git_reference_name(ref);

		/* a dangling symbolic ref points at nothing to walk, as for git */
		if (walk_ref_matches(name, patterns, n) &&
		    git_reference_resolve(&direct, ref) == 0) {
			note_match(c, name, patterns, n);
			c->res->refs++;
			rc = walk_target(c, name, git_reference_target(direct));
		}
		git_reference_free(direct);
		git_reference_free(ref);
	}
	git_reference_iterator_free(iter);
	if (rc == WALK_OK && it != GIT_ITEROVER) {
		set_err(c->err, c->errsz, "%s: cannot list refs: %s", c->r->path, git2_msg());
		return WALK_ERR;
	}
	return rc;
}

int repo_reachable(repo_handle *r, idsets *s, const char *const *patterns, size_t npatterns,
			walk_reach_result *res, progress *p, char *err, size_t errsz)
{
	reach_ctx c = { .r = r, .res = res, .p = p, .err = err, .errsz = errsz };
	git_oid head;
	int rc = WALK_ERR;

	if (!r->repo)
		return no_libgit2(r, "--reachable", err, errsz);
	if (!patterns) {
		patterns = walk_clone_refs;
		npatterns = walk_clone_nrefs;
	}
	git_error_clear();
	if (git_repository_odb(&c.odb, r->repo) < 0) {
		set_err(err, errsz, "%s: cannot open object database: %s", r->path, git2_msg());
		return WALK_ERR;
	}
	c.seen = objset_new(GIT_OID_RAWSZ);
	if (!c.seen) {
		git_odb_free(c.odb);
		return WALK_NOMEM;
	}
	git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
	progress_start(p, "walking reachable objects", 0);
	rc = WALK_OK;
	/* HEAD first (detached, or a branch the patterns may not name); unborn is nothing */
	for (size_t i = 0; i < npatterns; i++)
		if (!strcmp(patterns[i], "HEAD")) {
			if (git_reference_name_to_id(&head, r->repo, "HEAD") == 0) {
				if (res->matched)
					res->matched[i] = 1;
				res->refs++;
				rc = walk_target(&c, "HEAD", &head);
			}
			break;
		}
	if (rc == WALK_OK)
		rc = walk_refs(&c, patterns, npatterns);
	progress_stop(p);
	git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 1);
	if (rc == WALK_OK && objset_drain(c.seen, s) < 0)
		rc = WALK_NOMEM;
	objset_free(c.seen);
	git_odb_free(c.odb);
	free(c.commits);
	free(c.trees);
	free(c.ents);
	return rc;
}
