/*
 * cmd.c - what the commands share: the opening (parse, -h, usage errors,
 * -C), error lines, the progress decision, the ID sets of the
 * repositories a command reads, the notes on them, the report's
 * printing, the cache's cap, and how every output ends.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <git2.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cmd.h"
#include "emit.h"
#include "emit_parts.h"
#include "exitcodes.h"
#include "idline.h"
#include "subject_cache.h"
#include "shard.h"
#include "walk.h"
#include "walk_pack.h"

void cmd_error(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("git-abbrev: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void cmd_warn_once(const char *prefix, const char *line, int len)
{
	/* the lines said; kept to the exit (reachable, so no leak) */
	static char *said[64];
	static size_t nsaid;
	char *msg = malloc(strlen(prefix) + (size_t)len + 1);

	if (!msg) {
		cmd_error("%s%.*s", prefix, len, line);
		return;
	}
	sprintf(msg, "%s%.*s", prefix, len, line);
	for (size_t i = 0; i < nsaid; i++)
		if (!strcmp(said[i], msg)) {
			free(msg);
			return;
		}
	cmd_error("%s", msg);
	if (nsaid < sizeof(said) / sizeof(said[0]))
		said[nsaid++] = msg;
	else
		free(msg);
}

int cmd_want_progress(int option)
{
	return option >= 0 ? option : isatty(STDERR_FILENO);
}

progress *cmd_progress_new(int option)
{
	progress *p = progress_new(stderr, cmd_want_progress(option));

	if (!p)
		cmd_error("out of memory");
	return p;
}

static int walk_status_exit(int rc, const char *err)
{
	if (rc == WALK_NOMEM) {
		cmd_error("out of memory");
		return ABBREV_EXIT_NOMEM;
	}
	cmd_error("%s", err);
	return ABBREV_EXIT_RUNTIME;
}

/* What the note on missing objects says, gathered over the repositories. */
typedef struct {
	char first_bad[256];  /* the first broken ref's name (cut short if long) */
	size_t promised;      /* missing in a partial clone with a promisor remote */
	size_t orphaned;      /* missing in a partial clone without one */
	size_t absent;        /* missing elsewhere: the database is damaged */
	char remote[256];     /* the first repository's promisor remote */
	int remotes;          /* repositories with one (one: it is named) */
	const char *repo;     /* of several, the first with missing objects (NULL: one) */
	size_t repos;         /* how many of them have missing objects */
} missing_note;

/* "bad object refs/heads/ghost", as git says it, but going on */
static void warn_bad_ref(void *ctx, const char *name)
{
	missing_note *m = ctx;

	if (!m->first_bad[0])
		snprintf(m->first_bad, sizeof(m->first_bad), "%s", name);
	cmd_error("warning: bad object %s", name);
}

/*
 * The objects the refs reach that are missing, on stderr, saying what
 * they are: the own objects of broken refs (the first one named), the
 * objects a partial clone's promisor remote promises (named, when one is
 * configured), or objects the database has lost.
 */
static void note_missing(const walk_reach_result *res, const missing_note *m)
{
	char part[4][700], who[300], where[300] = "";
	size_t k = 0, count[4];

	/* of several repositories, the ones the objects are missing from */
	if (m->repo && m->repos == 1)
		snprintf(where, sizeof(where), " (in %s)", m->repo);
	else if (m->repo)
		snprintf(where, sizeof(where), " (in %s and %zu more)", m->repo, m->repos - 1);

	if (res->bad_missing) {
		count[k] = res->bad_missing;
		if (res->nbad == 1)
			snprintf(part[k++], sizeof(part[0]), "the own object of broken ref %s",
				 m->first_bad);
		else
			snprintf(part[k++], sizeof(part[0]),
				 "the own objects of %zu broken refs (the first: %s)", res->nbad,
				 m->first_bad);
	}
	if (m->promised) {
		if (m->remotes == 1)
			snprintf(who, sizeof(who), "remote '%s'", m->remote);
		else
			snprintf(who, sizeof(who), "the promisor remotes");
		count[k] = m->promised;
		snprintf(part[k++], sizeof(part[0]), "promised by %s (a partial clone)", who);
	}
	if (m->orphaned) {
		count[k] = m->orphaned;
		snprintf(part[k++], sizeof(part[0]),
			 "lacked by a partial clone with no promisor remote configured");
	}
	if (m->absent) {
		count[k] = m->absent;
		snprintf(part[k++], sizeof(part[0]), "absent from the object database");
	}
	if (k == 1) {
		cmd_error("note: %zu object%s the refs reach %s missing, not counted: %s%s",
			  res->missing, res->missing == 1 ? "" : "s",
			  res->missing == 1 ? "is" : "are", part[0], where);
		return;
	}
	char line[4 * 720] = "";
	size_t at = 0;

	for (size_t i = 0; i < k && at < sizeof(line); i++)
		at += (size_t)snprintf(line + at, sizeof(line) - at, "%s%zu %s", i ? "; " : "",
				       count[i], part[i]);
	cmd_error("note: %zu objects the refs reach are missing, not counted: %s%s", res->missing,
		  line, where);
}

/* Walk the refs of every repository; the missing objects are a note on stderr. */
static int load_reachable(cmd_sets *cs, const cli_repo_opts *o, progress *p)
{
	unsigned char matched[CLI_MAX_REFS] = { 0 };
	missing_note note = { .first_bad = "" };
	walk_reach_result res = { .bad_ref = warn_bad_ref, .ctx = &note, .matched = matched };
	char err[1024] = "";

	cs->reach.patterns = o->nrefs ? o->refs : walk_clone_refs;
	cs->reach.npatterns = o->nrefs ? o->nrefs : walk_clone_nrefs;
	for (size_t i = 0; i < cs->n; i++) {
		size_t before = res.missing, missing = res.missing - res.bad_missing;
		int rc = repo_reachable(cs->repos[i], cs->s, cs->reach.patterns,
					     cs->reach.npatterns, &res, p, err, sizeof(err));
		char remote[256];

		if (rc)
			return walk_status_exit(rc, err);
		if (cs->n > 1 && res.missing > before && !note.repos++)
			note.repo = cs->paths[i];
		/* this repository's missing objects that no broken ref names */
		missing = res.missing - res.bad_missing - missing;
		if (!missing)
			continue;
		if (!(repo_lacks(cs->repos[i]) & ABBREV_LACKS_PARTIAL)) {
			note.absent += missing;
		} else if (repo_promisor(cs->repos[i], remote, sizeof(remote))) {
			note.promised += missing;
			if (!note.remotes++)
				snprintf(note.remote, sizeof(note.remote), "%s", remote);
		} else {
			note.orphaned += missing;
		}
	}
	/*
	 * A pattern of the user's that names no ref (a typo, a branch not
	 * fetched) would leave a count over fewer objects than asked for,
	 * over none at all for the only one: an error, as git's for a
	 * revision it cannot find.  The default refs may be absent (an
	 * empty repository has no HEAD commit, no branch, no tag).
	 */
	for (size_t i = 0; i < o->nrefs; i++)
		if (!matched[i]) {
			cmd_error("no ref matches '%s'", o->refs[i]);
			return ABBREV_EXIT_RUNTIME;
		}
	cs->reach.refs = res.refs;
	cs->reach.missing = res.missing;
	cs->reach.bad_refs = res.nbad;
	if (res.missing && !emit_carries(o->kind, o->format, EMIT_NOTE_REACH))
		note_missing(&res, &note);
	return ABBREV_EXIT_OK;
}

int cmd_sets_open(cmd_sets *cs, const cli_repo_opts *o)
{
	size_t n = o->nrepos, nopen = n ? n : 1;
	char *const *repos = o->repos;
	char err[1024] = "";
	int rc;

	memset(cs, 0, sizeof(*cs));
	cs->no_cache = o->no_cache;
	cs->repos = calloc(nopen, sizeof(*cs->repos));
	cs->paths = calloc(nopen, sizeof(*cs->paths));
	if (!cs->repos || !cs->paths)
		goto nomem;
	/* open them all first: a bad path fails before any long walk */
	for (; cs->n < nopen; cs->n++) {
		rc = repo_open(&cs->repos[cs->n], n ? repos[cs->n] : NULL, err, sizeof(err));
		if (rc)
			return walk_status_exit(rc, err);
		cs->lacks |= repo_lacks(cs->repos[cs->n]);
		cs->paths[cs->n] = strdup(repo_path(cs->repos[cs->n]));
		if (!cs->paths[cs->n]) {
			cs->n++;
			goto nomem;
		}
	}
	return ABBREV_EXIT_OK;
nomem:
	cmd_error("out of memory");
	return ABBREV_EXIT_NOMEM;
}

static int sets_fill(cmd_sets *cs, const cli_repo_opts *o, progress *p, int commits_only)
{
	char err[1024] = "", *dir = NULL;
	int rc;

	cs->s = idsets_new(repo_rawsz(cs->repos[0]));
	if (!cs->s)
		goto nomem;
	/*
	 * --shard: walkers of every stored object drop the other IDs as they
	 * come, but for annotated tags (tag chains cross shards); a
	 * --reachable walk must see them all (its visited set).  The shard is
	 * copied out after the walk and the peel.
	 */
	if (!o->reachable)
		idsets_keep_range(cs->s, shard_lo(o->shard), shard_hi(o->shard));
	/*
	 * The pack walker adds each object of one repository once, so the
	 * other types can be counted without being stored (a union of
	 * several, or libgit2's walk, may add an object twice).
	 */
	if (commits_only && !o->reachable && o->walker != CLI_WALKER_LIBGIT2 && cs->n == 1)
		idsets_store_only(cs->s, 1u << ABBREV_TYPE_COMMIT);
	/* the fingerprints of the input are written by --format=partial only */
	if (o->format != ABBREV_FORMAT_PARTIAL)
		idsets_skip_spread(cs->s);
	if (o->reachable && (rc = load_reachable(cs, o, p)))
		return rc;
	/* each pack's types, kept by the scan of an earlier walk */
	if (!o->reachable && o->walker != CLI_WALKER_LIBGIT2 && !cs->no_cache)
		dir = subject_cache_dir();
	for (size_t i = 0; i < cs->n && !o->reachable; i++) {
		if (o->walker == CLI_WALKER_LIBGIT2)
			rc = repo_objects(cs->repos[i], cs->s, p, err, sizeof(err));
		else
			rc = walk_pack_objects_cached(repo_objdir(cs->repos[i]), dir, cs->s, p, err,
						      sizeof(err));
		if (rc) {
			free(dir);
			return walk_status_exit(rc, err);
		}
		/*
		 * What git too warns about and goes on without (a missing
		 * alternate), and notes ("note: ...": a bitmap passed over)
		 */
		for (char *line = err, *next; *line; line = next) {
			next = line + strcspn(line, "\n");
			if (*next)
				*next++ = '\0';
			if (!strncmp(line, "note: ", 6))
				cmd_warn_once("", line, (int)strlen(line));
			else
				cmd_warn_once("warning: ", line, (int)strlen(line));
		}
		err[0] = '\0';
	}
	/* under its cap, the longest unused tables and those of repacked packs removed */
	if (dir)
		(void)subject_cache_tidy(dir, cmd_cache_cap(repo_git2(cs->repos[0])));
	free(dir);
	/*
	 * The commit-ish set: the tags whose headers no walker read are read
	 * through libgit2, then every tag is peeled over the whole union.
	 */
	for (size_t i = 0; i < cs->n; i++) {
		rc = repo_tag_targets(cs->repos[i], cs->s, err, sizeof(err));
		if (rc)
			return walk_status_exit(rc, err);
	}
	long unread = idsets_peel(cs->s);
	if (unread < 0)
		goto nomem;
	if (unread > 0)
		cmd_error("note: %ld annotated tag%s could not be read: the commit-ish set "
			  "leaves %s out", unread, unread == 1 ? "" : "s", unread == 1 ? "it" : "them");
	/* after the peel (which needs every tag): the copy keeps the commit-ish flags */
	if (!shard_is_all(o->shard)) {
		idsets *whole = cs->s;

		cs->s = idsets_copy_range(whole, shard_lo(o->shard), shard_hi(o->shard));
		idsets_free(whole);
		if (!cs->s)
			goto nomem;
	}
	return ABBREV_EXIT_OK;
nomem:
	cmd_error("out of memory");
	return ABBREV_EXIT_NOMEM;
}

int cmd_sets_walk(cmd_sets *cs, const cli_repo_opts *o, progress *p, int commits_only)
{
	return sets_fill(cs, o, p, commits_only);
}

int cmd_sets_load(cmd_sets *cs, const cli_repo_opts *o, progress *p)
{
	int rc = cmd_sets_open(cs, o);

	return rc ? rc : sets_fill(cs, o, p, 0);
}

int cmd_sets_load_commits(cmd_sets *cs, const cli_repo_opts *o, progress *p)
{
	int rc = cmd_sets_open(cs, o);

	return rc ? rc : sets_fill(cs, o, p, 1);
}

void cmd_sets_free(cmd_sets *cs)
{
	for (size_t i = 0; i < cs->n; i++) {
		repo_free(cs->repos[i]);
		free(cs->paths[i]);
	}
	free(cs->repos);
	free(cs->paths);
	/*
	 * The sets are left to the process exit, as git leaves its object
	 * tables (UNLEAK): freeing the Judy arrays node by node took 20% of a
	 * 13M-object report (glibc coalescing millions of chunks), and the
	 * commands end right after this.  The static pointer keeps them
	 * reachable, so leak checkers do not count them; a second call frees
	 * the sets the first one kept.
	 */
	static idsets *kept_until_exit;
	idsets_free(kept_until_exit);
	kept_until_exit = cs->s;
	memset(cs, 0, sizeof(*cs));
}

void cmd_sets_notes(const cmd_sets *cs)
{
	/* on stderr, so that the first line on stdout is the answer; of several, each named */
	if (cs->n <= 1) {
		for (int i = 0; emit_lacks_note(cs->lacks, i); i++)
			cmd_error("note: %s", emit_lacks_note(cs->lacks, i));
		return;
	}
	for (size_t r = 0; r < cs->n; r++) {
		unsigned lacks = repo_lacks(cs->repos[r]);

		for (int i = 0; emit_lacks_note(lacks, i); i++)
			cmd_error("note: %s: %s", cs->paths[r], emit_lacks_note(lacks, i));
	}
}

int cmd_sets_describe(cmd_sets *cs, stats_set *st)
{
	size_t rawsz = idsets_rawsz(cs->s);

	if (!st->nmembers)
		return 0;
	st->member_desc = calloc(st->nmembers, sizeof(*st->member_desc));
	if (!st->member_desc)
		return -1;
	for (size_t m = 0; m < st->nmembers; m++)
		for (size_t i = 0; i < cs->n && !st->member_desc[m]; i++)
			st->member_desc[m] = repo_describe(cs->repos[i],
				st->member_ids + m * rawsz, st->member_types[m]);
	return 0;
}

int cmd_usage_error(const cli_command *cmd, const char *msg)
{
	cmd_error("%s", msg);
	cli_usage(stderr, cmd);
	return ABBREV_EXIT_USAGE;
}

int cmd_begin(const cli_command *cmd, void *opts, int argc, char **argv)
{
	const cli_repo_opts *r = cli_repo_of(cmd, opts);
	char err[256];
	int ret;

	switch (cli_parse(cmd, opts, argc, argv, err, sizeof(err))) {
	case CLI_HELP: /* git's commands print their usage on stdout and exit 129 */
		cli_usage(stdout, cmd);
		ret = cmd_written(0, "the help");
		return ret ? ret : ABBREV_EXIT_HELP;
	case CLI_COMPLETE:
		cli_complete(stdout, cmd, r->complete);
		return cmd_written(0, "the completion words");
	case CLI_USAGE:
		return cmd_usage_error(cmd, err);
	}
	for (size_t i = 0; i < r->nchdir; i++) {
		ret = cmd_chdir(r->chdir[i]);
		if (ret)
			return ret;
	}
	return -1;
}

/* The directory the command was started in, held open from the first -C on. */
static int start_fd = AT_FDCWD;

int cmd_start_dir(void)
{
	return start_fd;
}

int cmd_chdir(const char *dir)
{
	subject_cache_pin(); /* a relative cache directory is where the command started */
	if (*dir && start_fd == AT_FDCWD) {
#ifdef O_PATH
		start_fd = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
#else
		start_fd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
#endif
		if (start_fd < 0) {
			cmd_error("cannot keep the directory the command started in: %s",
				  strerror(errno));
			start_fd = AT_FDCWD;
			return ABBREV_EXIT_RUNTIME;
		}
	}
	if (*dir && chdir(dir)) {
		cmd_error("cannot change to '%s': %s", dir, strerror(errno));
		return ABBREV_EXIT_RUNTIME;
	}
	return ABBREV_EXIT_OK;
}

/* "256m", "1g", "100000" bytes: the cap as --max-input takes it. */
static void size_name(char *out, size_t n, uint64_t v)
{
	static const char units[] = "kmg";
	int u = 0;

	while (u < 3 && v && !(v & 1023))
		v >>= 10, u++;
	snprintf(out, n, "%llu%s", (unsigned long long)v, u ? (char[]){ units[u - 1], 0 } : "");
}

int cmd_input_too_large(const char *path, uint64_t cap)
{
	char c[32];

	size_name(c, sizeof(c), cap);
	cmd_error("%s is larger than the %s-byte input cap; raise it with --max-input=<size>",
		  strcmp(path, "-") ? path : "standard input", c);
	return ABBREV_EXIT_RUNTIME;
}

int cmd_written(int failed, const char *what)
{
	int flushed = !fflush(stdout), why = errno;

	if (flushed && !ferror(stdout) && !failed)
		return ABBREV_EXIT_OK;
	/* a write that failed for memory (ENOMEM from write(2)) is out of memory too */
	if (ferror(stdout) && why != ENOMEM) {
		/* the system's reason, as the failed write left it in errno */
		cmd_error("cannot write %s: %s", what, why ? strerror(why) : "write error");
		return ABBREV_EXIT_RUNTIME;
	}
	cmd_error("out of memory");
	return ABBREV_EXIT_NOMEM;
}

void cmd_input_notes(const stats_report *r)
{
	const stats_input *in = r->input;
	char buf[64], kinds[256];
	size_t o = 0;

	/* "git-abbrev: note: ...", as the notes on repositories (cmd.c) */
	if (!shard_is_all(r->shard))
		cmd_error("note: shard %s: the tables count these IDs only; "
			  "`git abbrev merge` adds up the shards' --format=partial results",
			  shard_describe(buf, sizeof(buf), r->shard));
	if (!in)
		return;
	if (r->sets[ABBREV_SET_TAG].count)
		cmd_error("note: commit-ish counts the commits only: an ID list does not "
			  "say which tags peel to a commit");
	uint64_t other = 0;

	kinds[0] = '\0';
	for (int k = 0; k < STATS_NOTHER; k++)
		if (in->other[k]) {
			other += in->other[k];
			if (o < sizeof(kinds))
				o += (size_t)snprintf(kinds + o, sizeof(kinds) - o, "%s %llu %s",
						      o ? "," : "", (unsigned long long)in->other[k],
						      idline_other_name(k));
		}
	if (other)
		cmd_error("note: %llu SWHIDs of kinds without a git object skipped:%s",
			  (unsigned long long)other, kinds);
	if (in->bad)
		cmd_error("note: %llu bad line%s skipped (--skip-bad)", (unsigned long long)in->bad,
			  in->bad == 1 ? "" : "s");
	if (in->duplicates)
		cmd_error("note: %llu line%s repeated an ID listed before: counted once",
			  (unsigned long long)in->duplicates, in->duplicates == 1 ? "" : "s");
}

int cmd_print_report(const stats_report *r, int format)
{
	return cmd_written(emit_report(stdout, r, format), "the report");
}

uint64_t cmd_cache_cap(struct git_repository *repo)
{
	git_config *cfg = NULL;
	uint64_t cap = SUBJECT_CACHE_DEFAULT_CAP;
	static int noted;
	int64_t v;
	int rc;

	/* the repository's config (its own, the user's, the system's), else the user's */
	rc = repo ? git_repository_config_snapshot(&cfg, repo) : git_config_open_default(&cfg);
	if (rc)
		return cap;
	/* git's sizes: 1g, 512m, 100k */
	rc = git_config_get_int64(&v, cfg, "abbrev.cacheSize");
	if (!rc && v >= 0)
		cap = (uint64_t)v;
	else if (rc != GIT_ENOTFOUND && !noted++)
		fprintf(stderr, "git-abbrev: note: abbrev.cacheSize is not a size; the cache is kept "
			"under 1g\n");
	git_config_free(cfg);
	return cap;
}
