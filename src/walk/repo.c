/*
 * repo.c - the repository handle both walkers use: find the
 * repository as git does, its object directory, its hash width and what
 * it lacks by design (shallow, partial); open it with libgit2 where
 * libgit2 can, and without it (SHA-256) for the pack walker.
 */
#include <config.h>

#include "odb.h"
#include "walk_pack.h"
#include "repo_int.h"

#include <dirent.h>
#include <errno.h>
#include <git2.h>
#include <strings.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

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

/*
 * No repository at `path` (NULL: the current directory): git's words, with
 * the directory spelled out ("the current directory" tells nothing after
 * -C), or the path's own error when it cannot be read at all.
 */
static void not_a_repository(char *err, size_t errsz, const char *path)
{
	char cwd[4096];
	struct stat st;

	if (path && stat(path, &st) < 0) {
		set_err(err, errsz, "%s: %s", path, strerror(errno));
		return;
	}
	if (!path)
		path = getcwd(cwd, sizeof(cwd)) ? cwd : ".";
	set_err(err, errsz, "not a git repository (or any of the parent directories): %s", path);
}

/* "/x/repo/" -> "/x/repo" */
static void strip_slash(char *p)
{
	size_t n = strlen(p);

	while (n > 1 && p[n - 1] == '/')
		p[--n] = '\0';
}

static int file_exists(const char *dir, const char *name)
{
	char *p;
	int ok;

	if (asprintf(&p, "%s/%s", dir, name) < 0)
		return 0;
	ok = access(p, F_OK) == 0;
	free(p);
	return ok;
}

/*
 * Whether libgit2 refused the repository for its owner: GIT_EOWNER, or (as
 * libgit2 1.5 does without a global safe.directory) GIT_ENOTFOUND with
 * the safe.directory setting named in its message.
 */
static int refused_owner(int rc)
{
	const git_error *e = git_error_last();

	return rc == GIT_EOWNER ||
	       (rc == GIT_ENOTFOUND && e && e->message && strstr(e->message, "safe.directory"));
}

/*
 * A repository another user owns: git's words ("detected dubious
 * ownership"), naming the directory as git names it, the work tree's top
 * (the directory holding .git) or a bare repository itself, and the
 * safe.directory setting that allows it.
 */
static void dubious_ownership(char *err, size_t errsz, const char *path)
{
	char cwd[4096], *top = realpath(path ? path : ".", NULL);
	const char *shown = top ? top : path ? path : getcwd(cwd, sizeof(cwd)) ? cwd : ".";

	if (top) {
		char *dir = strdup(top);

		/* up to the directory that holds .git, or a bare repository's own */
		while (dir) {
			char *slash;

			if (file_exists(dir, ".git") ||
			    (file_exists(dir, "HEAD") && file_exists(dir, "objects"))) {
				free(top);
				top = dir;
				shown = top;
				break;
			}
			slash = strrchr(dir, '/');
			if (!slash || slash == dir) {
				free(dir);
				break;
			}
			*slash = '\0';
		}
	}
	set_err(err, errsz, "detected dubious ownership in repository at '%s' (another user "
		"owns it: git config --global --add safe.directory %s allows it)", shown, shown);
	free(top);
}

/* Whether objdir/pack holds a promisor pack (a "*.promisor" file). */
static int has_promisor_pack(const char *objdir)
{
	char *dir;
	DIR *d;
	struct dirent *e;
	int found = 0;

	if (asprintf(&dir, "%s/pack", objdir) < 0)
		return 0;
	d = opendir(dir);
	free(dir);
	if (!d)
		return 0;
	while (!found && (e = readdir(d))) {
		size_t n = strlen(e->d_name);

		found = n > 9 && !strcmp(e->d_name + n - 9, ".promisor");
	}
	closedir(d);
	return found;
}

/*
 * A partial clone: extensions.partialclone, or a promisor pack in one of
 * the object directories git reads (the pack walker's list: this one,
 * info/alternates followed as git follows them, and
 * GIT_ALTERNATE_OBJECT_DIRECTORIES): its objects then promise others that
 * only the remote has.
 */
static int is_partial(const char *objdir, git_config *cfg)
{
	const char *v;
	char **dirs, msg[16];
	size_t n;
	int found = 0;

	if (cfg && git_config_get_string(&v, cfg, "extensions.partialclone") == 0 && *v)
		return 1;
	if (walk_pack_objdirs(objdir, &dirs, &n, msg, sizeof(msg)))
		return has_promisor_pack(objdir); /* the walkers report why */
	for (size_t i = 0; i < n; i++) {
		found = found || has_promisor_pack(dirs[i]);
		free(dirs[i]);
	}
	free(dirs);
	return found;
}

/*
 * Whether git takes the repository for a bare one.  libgit2 takes a git
 * dir without core.bare (a bare repository whose config file is gone) for
 * a work tree's and shows its parent directory; git takes a git dir that
 * it finds as itself, not as "<work tree>/.git", for a bare repository.
 */
static int is_bare(git_repository *repo)
{
	const char *gitdir = git_repository_path(repo), *wd = git_repository_workdir(repo);
	git_config *cfg = NULL;
	int b, set = 0;
	size_t n;

	if (git_repository_is_bare(repo) || !wd)
		return 1;
	if (git_repository_is_worktree(repo))
		return 0;
	if (git_repository_config_snapshot(&cfg, repo) == 0) {
		const char *v;

		set = git_config_get_bool(&b, cfg, "core.bare") == 0 ||
		      git_config_get_string(&v, cfg, "core.worktree") == 0;
		git_config_free(cfg);
	}
	git_error_clear();
	n = strlen(wd);
	return !set && !(!strncmp(gitdir, wd, n) && !strcmp(gitdir + n, ".git/"));
}

/*
 * libgit2 1.5 refuses repositories with extensions.objectformat, that is
 * SHA-256 ones.  Find the git dir ourselves (git_repository_discover does
 * not look at extensions, GIT_DIR as git does), read the hash from its
 * config, and keep the repository for the pack walker only.
 */
static int open_without_libgit2(repo_handle *r, const char *path, char *err, size_t errsz)
{
	git_buf gitdir = GIT_BUF_INIT;
	git_config *cfg = NULL;
	const char *env = path ? NULL : getenv("GIT_DIR"), *fmt = NULL, *what;
	char cwd[4096];
	char *cfgpath = NULL, *common = NULL;
	FILE *f;
	int rc = WALK_ERR;

	what = path ? path : getcwd(cwd, sizeof(cwd)) ? cwd : ".";
	git_error_clear();
	if (env && *env) {
		if (git_buf_set(&gitdir, env, strlen(env)) < 0)
			return WALK_NOMEM;
	} else if (git_repository_discover(&gitdir, path ? path : ".", 0,
					   getenv("GIT_CEILING_DIRECTORIES")) < 0) {
		if (refused_owner(GIT_ENOTFOUND))
			dubious_ownership(err, errsz, path);
		else
			not_a_repository(err, errsz, path);
		return WALK_ERR;
	}
	strip_slash(gitdir.ptr);
	/* a worktree's objects live in the common dir */
	if (asprintf(&cfgpath, "%s/commondir", gitdir.ptr) < 0) {
		cfgpath = NULL;
		rc = WALK_NOMEM;
		goto done;
	}
	if ((f = fopen(cfgpath, "r"))) {
		char line[4096];

		if (fgets(line, sizeof(line), f)) {
			line[strcspn(line, "\n")] = '\0';
			if (asprintf(&common, line[0] == '/' ? "%s%s" : "%s/%s",
				     line[0] == '/' ? "" : gitdir.ptr, line) < 0)
				common = NULL;
		}
		fclose(f);
	} else {
		common = strdup(gitdir.ptr);
	}
	free(cfgpath);
	if (!common || asprintf(&cfgpath, "%s/config", common) < 0) {
		cfgpath = NULL;
		rc = WALK_NOMEM;
		goto done;
	}
	git_config *disk = NULL;
	rc = git_config_open_ondisk(&disk, cfgpath);
	if (rc == 0)
		rc = git_config_snapshot(&cfg, disk);
	git_config_free(disk);
	rc = WALK_ERR;
	if (!cfg ||
	    git_config_get_string(&fmt, cfg, "extensions.objectformat") < 0) {
		set_err(err, errsz, "cannot open repository %s: %s", what, git2_msg());
		goto done;
	}
	if (!strcasecmp(fmt, "sha256")) {
		r->rawsz = 32;
	} else if (!strcasecmp(fmt, "sha1")) {
		r->rawsz = 20;
	} else {
		set_err(err, errsz, "%s: unknown object format '%s'", what, fmt);
		goto done;
	}
	env = path ? NULL : getenv("GIT_OBJECT_DIRECTORY");
	if (env && *env)
		r->objdir = strdup(env);
	else if (asprintf(&r->objdir, "%s/objects", common) < 0)
		r->objdir = NULL;
	/* show the work tree for "<dir>/.git", else the git dir itself, as an
	   absolute path, as libgit2 names the others (GIT_DIR=.git names nothing) */
	const char *g = gitdir.ptr;
	char here[4096];

	while (g[0] == '.' && g[1] == '/')
		g += 2;
	if (g[0] != '/' && getcwd(here, sizeof(here))) {
		if (asprintf(&r->path, strcmp(g, ".") ? "%s/%s" : "%s", here, g) < 0)
			r->path = NULL;
	} else {
		r->path = strdup(g);
	}
	size_t n = r->path ? strlen(r->path) : 0;
	if (n > 5 && !strcmp(r->path + n - 5, "/.git"))
		r->path[n - 5] = '\0';
	if (!r->objdir || !r->path) {
		rc = WALK_NOMEM;
		goto done;
	}
	strip_slash(r->objdir);
	if (file_exists(common, "shallow"))
		r->lacks |= ABBREV_LACKS_SHALLOW;
	if (is_partial(r->objdir, cfg))
		r->lacks |= ABBREV_LACKS_PARTIAL;
	rc = WALK_OK;
done:
	free(cfgpath);
	free(common);
	git_config_free(cfg);
	git_buf_dispose(&gitdir);
	return rc;
}

/*
 * Give libgit2 the object directories git reads that it would not find
 * itself: GIT_ALTERNATE_OBJECT_DIRECTORIES when the repository is named by
 * a path, C-quoted alternates, relative alternates behind a symlinked
 * object directory.  The pack walker's list is git's; libgit2 skips a
 * directory it has already (by inode).  Missing ones are left out here
 * and warned about by the walkers.
 */
static int add_alternates(repo_handle *r)
{
	char **dirs, msg[16];
	size_t n;
	git_odb *godb = NULL;
	int rc = walk_pack_objdirs(r->objdir, &dirs, &n, msg, sizeof(msg));

	if (rc)
		return rc == WALK_NOMEM ? rc : WALK_OK; /* libgit2 opened it: its error will do */
	git_error_clear();
	/*
	 * Only when there is an alternate to add: loading libgit2's object
	 * database here otherwise costs a scan of the pack directory at
	 * every open, and when that directory is unreadable libgit2 1.5
	 * leaks what it had built and preempts the pack walker's own message.
	 */
	if (n > 1 && git_repository_odb(&godb, r->repo) < 0)
		rc = WALK_ERR;
	for (size_t i = 1; i < n && !rc; i++)
		if (git_odb_add_disk_alternate(godb, dirs[i]) < 0)
			rc = WALK_ERR;
	for (size_t i = 0; i < n; i++)
		free(dirs[i]);
	free(dirs);
	git_odb_free(godb);
	return rc;
}

/*
 * What libgit2 1.5 must be told before it opens repositories as git does:
 *
 * - Extensions it refuses by name although git knows them and they change
 *   nothing in how objects are read: worktreeConfig (a sparse checkout
 *   writes it; its config.worktree holds checkout settings), partialClone
 *   (objects may be missing: the walkers note a partial clone), and
 *   preciousObjects (no deleting objects: nothing here deletes) and
 *   noop-v1.  An extension git does not know is still refused.
 * - How many pack files it may keep open: by default all of them, so
 *   with many packs under a low descriptor limit (ulimit -n) it runs out
 *   of descriptors.  Half the limit leaves room for everything else.
 */
static void set_libgit2_options(void)
{
	static const char *ext[] = { "worktreeconfig", "partialclone", "preciousobjects",
				     "noop-v1" };
	struct rlimit rl;

	git_libgit2_opts(GIT_OPT_SET_EXTENSIONS, ext, sizeof(ext) / sizeof(*ext));
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		git_libgit2_opts(GIT_OPT_SET_MWINDOW_FILE_LIMIT,
				 (size_t)(rl.rlim_cur > 8 ? rl.rlim_cur / 2 : 4));
}

int repo_open(repo_handle **out, const char *path, char *err, size_t errsz)
{
	repo_handle *r;
	const char *shown;
	int rc;

	*out = NULL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return WALK_NOMEM;
	set_libgit2_options();
	git_error_clear();
	if (path)
		rc = git_repository_open_ext(&r->repo, path, 0, NULL);
	else
		rc = git_repository_open_ext(&r->repo, NULL, GIT_REPOSITORY_OPEN_FROM_ENV, NULL);
	if (rc < 0) {
		char cwd[4096];
		const char *what = path ? path : getcwd(cwd, sizeof(cwd)) ? cwd : ".";
		const git_error *e = git_error_last();

		if (refused_owner(rc)) {
			dubious_ownership(err, errsz, path);
			rc = WALK_ERR;
		} else if (rc == GIT_ENOTFOUND) {
			not_a_repository(err, errsz, path);
			rc = WALK_ERR;
		} else if (e && e->message && strstr(e->message, "objectformat")) {
			r->repo = NULL;
			rc = open_without_libgit2(r, path, err, errsz);
			if (rc == WALK_OK) {
				*out = r;
				return WALK_OK;
			}
		} else {
			set_err(err, errsz, "cannot open repository %s: %s", what, git2_msg());
			rc = WALK_ERR;
		}
		repo_free(r);
		return rc;
	}
	r->rawsz = GIT_OID_RAWSZ;
	shown = is_bare(r->repo) ? git_repository_path(r->repo) : git_repository_workdir(r->repo);
	r->path = strdup(shown);
	if (!r->path) {
		repo_free(r);
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
		repo_free(r);
		return rc;
	}
	if ((rc = add_alternates(r)) < 0) {
		if (rc == WALK_ERR)
			set_err(err, errsz, "%s: cannot add alternate object directories: %s",
				r->path, git2_msg());
		repo_free(r);
		return rc;
	}
	/* libgit2 reads at any offset an index gives: none past a pack's end */
	if ((rc = odb_check_packs(r->objdir, r->rawsz, err, errsz))) {
		repo_free(r);
		return rc == ODB_NOMEM ? WALK_NOMEM : WALK_ERR;
	}
	if (git_repository_is_shallow(r->repo) == 1)
		r->lacks |= ABBREV_LACKS_SHALLOW;
	git_config *cfg = NULL;
	if (git_repository_config_snapshot(&cfg, r->repo) == 0) {
		if (is_partial(r->objdir, cfg))
			r->lacks |= ABBREV_LACKS_PARTIAL;
		git_config_free(cfg);
	}
	git_error_clear();
	*out = r;
	return WALK_OK;
}

void repo_free(repo_handle *r)
{
	if (!r)
		return;
	git_repository_free(r->repo);
	objread_free(r->own);
	free(r->path);
	free(r->objdir);
	free(r);
}

const char *repo_path(const repo_handle *r)
{
	return r->path;
}

const char *repo_objdir(const repo_handle *r)
{
	return r->objdir;
}

size_t repo_rawsz(const repo_handle *r)
{
	return r->rawsz;
}

unsigned repo_lacks(const repo_handle *r)
{
	return r->lacks;
}

/* Whether remote.<name>.url is set: the remote exists for git remote. */
static int remote_exists(git_config *cfg, const char *name)
{
	git_config_entry *e = NULL;
	char *key;
	int ok;

	if (asprintf(&key, "remote.%s.url", name) < 0)
		return 0;
	ok = git_config_get_entry(&e, cfg, key) == 0 && e->value && *e->value;
	git_config_entry_free(e);
	free(key);
	return ok;
}

typedef struct {
	git_config *cfg;
	char *buf;
	size_t n;
	int found;
} promisor_search;

static int promisor_entry(const git_config_entry *e, void *payload)
{
	promisor_search *ps = payload;
	size_t k = strlen(e->name);
	int b;

	/* remote.<name>.promisor, <name> of any bytes but the two dots around it */
	if (ps->found || k < 7 + 9 || strcmp(e->name + k - 9, ".promisor") ||
	    git_config_parse_bool(&b, e->value) < 0 || !b || k - 16 >= ps->n)
		return 0;
	memcpy(ps->buf, e->name + 7, k - 16);
	ps->buf[k - 16] = '\0';
	ps->found = remote_exists(ps->cfg, ps->buf);
	return 0;
}

int repo_promisor(repo_handle *r, char *buf, size_t n)
{
	git_config *cfg = NULL;
	git_config_entry *e = NULL;
	promisor_search ps = { .buf = buf, .n = n };

	if (!r->repo || !n || git_repository_config_snapshot(&cfg, r->repo) < 0) {
		git_error_clear();
		return 0;
	}
	ps.cfg = cfg;
	if (git_config_get_entry(&e, cfg, "extensions.partialclone") == 0 && e->value &&
	    *e->value && strlen(e->value) < n && remote_exists(cfg, e->value)) {
		snprintf(buf, n, "%s", e->value);
		ps.found = 1;
	}
	git_config_entry_free(e);
	if (!ps.found)
		git_config_foreach_match(cfg, "^remote\\..*\\.promisor$", promisor_entry, &ps);
	git_config_free(cfg);
	git_error_clear();
	return ps.found;
}

int repo_has_libgit2(const repo_handle *r)
{
	return r->repo != NULL;
}

struct git_repository *repo_git2(repo_handle *r)
{
	return r->repo;
}

void repo_no_libgit2(const repo_handle *r, const char *what, char *err, size_t errsz)
{
	(void)no_libgit2(r, what, err, errsz);
}
