/*
 * cmd_verify.h - what verify, audit and watch share: a repository opened
 * for the resolver (its objects by their .idx files, its commits through
 * libgit2) and the minimum length from the git config.
 *
 * Ownership: vr_open() fills a zeroed verify_repo freed with vr_close()
 * (also after a failed vr_open()); it borrows the progress.
 */
#ifndef ABBREV_CMD_VERIFY_H
#define ABBREV_CMD_VERIFY_H

#include <stddef.h>

#include "cli.h"
#include "cmd.h"
#include "objidx.h"
#include "progress.h"
#include "cite_git2.h"
#include "cite_resolve.h"

struct git_repository;

/*
 * The objects of one repository (this one or a --repo) as the resolver
 * asks about them: from its .idx files, or from its sets once walked.
 */
typedef struct {
	cite_ids ids;
	cmd_sets cs;          /* open; cs.s walked on first need (or at once) */
	cli_repo_opts ro;
	objidx *x;            /* NULL: the sets answer (--reachable, --walker=libgit2) */
	progress *p;
	int walk_rc;          /* -1 not walked yet, else the walk's exit status */
	cite_git2 *g;
} verify_repo;

/*
 * Open the repository of ro (ro->repos: one, or none: the one here) and
 * its commits, and set vr->ids.  An exit status; errors are printed.
 */
int vr_open(verify_repo *vr, const cli_repo_opts *ro, progress *p);
void vr_close(verify_repo *vr);

/*
 * vr_open() the repository git finds here (after -C; r->repos are not
 * it), with the packs' subject tables of the cache unless --no-cache
 * (kept outside the repository, never written to).  An exit status.
 */
int vr_open_here(verify_repo *vr, const cli_repo_opts *r, progress *p);

/*
 * cite_range_new() as an exit status, its error printed: a range git
 * cannot read is a usage error when the user wrote it (`usage`), else 3.
 */
int vr_range(cite_range **rg, cite_git2 *g, const char *range, int usage);

/* Unless --no-cache: the cache under its cap (git config abbrev.cacheSize). */
void vr_tidy_cache(const verify_repo *vr);

/*
 * --min-length not given: the repository's git config abbrev.minLength
 * (a project that writes 10-char IDs sets it once), else 12.  An exit
 * status: a value that is no length from 4 to the hash's is a usage error.
 */
int min_length_config(unsigned *out, struct git_repository *repo, size_t rawsz);

#endif
