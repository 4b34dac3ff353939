/*
 * commit_tables.h - every pack's commit table (subject_cache.h: each
 * commit's subject, .idx position, committer time and parents) from its file in
 * the cache, else read: the pack's commits found by their entry headers
 * and read on two threads (commits.h), the table built and written to
 * the cache for the next run.  One piece of code for verify's subject
 * index and for the commit times of history, policy and the verdict.
 *
 * No libgit2: what the packs cannot give is the caller's other reader's.
 *
 * Ownership: commit_tables_get() fills tabs[] with tables the caller
 * frees (subject_table_free()) and *read with the set it read (or NULL),
 * freed with commits_free().
 */
#ifndef ABBREV_COMMIT_TABLES_H
#define ABBREV_COMMIT_TABLES_H

#include <stddef.h>

#include "commits.h"
#include "objread.h"
#include "progress.h"
#include "subject_cache.h"

typedef struct {
	const char *cache_dir;  /* the cache (subject_cache_dir()), or NULL: none read or written */
	/*
	 * A pack's commits found by its entry headers.  0 (or a header that
	 * cannot be read): picked among commits_of()'s list, and a table is
	 * then neither read nor kept (the list need not hold every commit of
	 * the pack).  *scan says which it was after.
	 */
	int scan;
	/* every commit ID (ascending): 0, or -1 (memory) */
	int (*commits_of)(void *arg, const unsigned char **ids, size_t *n);
	void *arg;
	const commits_other *other; /* what the packs cannot give (NULL: nothing) */
	commits_known *known;   /* commits read already, not read again (NULL: none) */
	/*
	 * known freed here once the commits are read, before the tables are
	 * built (o->known NULL then): the peak of a cold verify --range
	 */
	int drop_known;
	const unsigned char *loose; /* the loose commits, a table of their own never kept */
	size_t nloose;
	progress *p;            /* may be NULL */
	const char *title;      /* the progress's */
} commit_tables_opts;

/*
 * tabs[0 .. np] (np = objread_npacks(rd)): pack k's table (one the caller
 * put there already, loaded from the cache for these very files, is kept), then the loose
 * commits' (built for an all-zero checksum), each with its commits'
 * parents when all were read.  A table of a pack whose
 * commits could not all be read is used, not kept (the next run tries
 * again); one that cannot be written to the cache (a full disk, a
 * read-only directory) gives one note on stderr.  *read: the commits read
 * here, for their parents.  0, or -1 (memory: tabs[] and *read then
 * hold what was made, for the caller to free).
 */
int commit_tables_get(objread *rd, size_t rawsz, commit_tables_opts *o, subject_table **tabs,
		      commits **read);

/*
 * Every commit of some tables with its parents, as commits_graph_of()
 * takes them: the n commit IDs ascending (one in two packs once), the
 * parents of commit i the count[i] IDs at pids + first[i] * rawsz.
 */
typedef struct {
	size_t rawsz;
	unsigned char *ids;
	size_t n;
	uint32_t *count, *first;
	unsigned char *pids;
	size_t npids;
} parent_set;

/*
 * The commits of tabs[0 .. np] (as commit_tables_get() fills them: the
 * packs' of rd, then the loose commits loose[0 .. nloose)) with their
 * parents, from the tables alone: 0 with *out (commit_parents_free()), 1
 * when a table holds no parents (nothing in *out), -1 (memory).
 */
int commit_tables_parents(objread *rd, size_t rawsz, subject_table *const *tabs,
			  const unsigned char *loose, size_t nloose, parent_set *out);
/* Their graph (commits_graph_of()): 0 with *out (NULL: a parent not among them), -1 (memory). */
int commit_parents_graph(const parent_set *p, commit_graph **out);
void commit_parents_free(parent_set *p);

#endif
