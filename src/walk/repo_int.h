/*
 * repo_int.h - the repository handle's fields, for the files that
 * make and read it (repo.c, walk_git2.c); everyone else sees the
 * opaque repo_handle of repo.h.
 *
 * Ownership: the handle owns repo, path and objdir (repo_free()).
 */
#ifndef ABBREV_REPO_INT_H
#define ABBREV_REPO_INT_H

#include <git2.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include "objread.h"
#include "walk.h"
#include "repo.h"

struct repo_handle {
	git_repository *repo;   /* NULL for a repository libgit2 cannot open */
	objread *own;           /* without repo: the own reader of its commits, once needed */
	char *path;
	char *objdir;
	size_t rawsz;
	unsigned lacks;
};

/* A one-line message into a caller's buffer. */
static inline void set_err(char *err, size_t errsz, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static inline void set_err(char *err, size_t errsz, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errsz, fmt, ap);
	va_end(ap);
}

/* libgit2's last error message, or a placeholder when it gave none. */
static inline const char *git2_msg(void)
{
	const git_error *e = git_error_last();

	return e && e->message ? e->message : "unknown libgit2 error";
}

/* The error for what needs libgit2 on a repository it cannot open. */
static inline int no_libgit2(const repo_handle *r, const char *what, char *err, size_t errsz)
{
	set_err(err, errsz, "%s: %s needs libgit2, which cannot read this repository's "
		"%zu-byte object IDs (SHA-256)", r->path, what, r->rawsz);
	return WALK_ERR;
}

#endif
