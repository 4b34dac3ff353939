/*
 * commits.h - every commit of some packs and of the loose objects read
 * once: its subject, its committer time and its parents, for the subject
 * tables and for a graph of ancestry where git's commit-graph file is
 * missing.
 *
 * The commits to read are jobs: a pack's, found from its entry headers
 * (commits_scan(), nothing inflated) or picked from a list of commit IDs
 * (commits_pick()), in pack order, then the loose ones.  commits_read()
 * reads the packed ones on two threads, each with a reader of its own
 * (objread_fork()) and half of the jobs in pack order, so each delta's
 * base is still in its reader's cache; what the packs cannot give (a loose
 * commit, an entry objread cannot rebuild) is asked of the caller's
 * reader (commits_other: libgit2, in verify) after, on one thread.
 *
 * No libgit2 here: the unit tests read packs git makes.
 *
 * Ownership: commits_new() returns a set freed with commits_free(); it
 * borrows the reader and the IDs given to commits_pick() and
 * commits_add_loose(), which must outlive it.  Subjects returned by
 * commits_get() live as long as the set (until commits_drop_text()).
 */
#ifndef ABBREV_COMMITS_H
#define ABBREV_COMMITS_H

#include <stddef.h>
#include <stdint.h>

#include "commit_graph.h"
#include "objread.h"
#include "progress.h"

/* One commit to read: in a pack (pack < objread_npacks()) at `off`, or loose. */
typedef struct {
	const unsigned char *id;
	uint64_t off;
	uint32_t pack;   /* objread's number; objread_npacks() for a loose one */
	uint32_t pos;    /* its .idx position (loose: its index in the loose list) */
} commits_job;

/*
 * The reader of what the packs cannot give: 1 with the commit's bytes in
 * *d, *len (and *hold, handed to release() once they are used), 0 when no
 * commit can be read for the job, -1 when out of memory.  `packed`: the
 * job is in a pack, whose entry could not be read here.
 */
typedef struct {
	int (*read)(void *ctx, const commits_job *j, int packed, const char **d, size_t *len,
		    void **hold);
	void (*release)(void *ctx, void *hold);
	void *ctx;
} commits_other;

typedef struct commits commits;

/* An empty set reading through rd (IDs of rawsz bytes).  0 or -1. */
int commits_new(commits **out, objread *rd, size_t rawsz);
void commits_free(commits *c);

/*
 * The commits of pack `pack` as jobs, from its entry headers: 0, 1 when a
 * header cannot be read (none added: the caller picks from a list then),
 * -1 (memory).
 */
int commits_scan(commits *c, uint32_t pack);

/*
 * The commits of pack `pack` as jobs, from its objects' types by .idx
 * position (types[0 .. the pack's count), as the walker keeps them in the
 * cache): the jobs commits_scan() adds, in pack order, no header read.
 * 0, 1 when an offset cannot be read (none added: commits_scan() then),
 * -1 (memory).
 */
int commits_scan_types(commits *c, uint32_t pack, const unsigned char *types);

/*
 * The commits of pack `pack` among all[0..nall) (commit IDs, ascending),
 * as jobs in pack order (an offset that cannot be read: 0, the other
 * reader's).  0 or -1.
 */
int commits_pick(commits *c, uint32_t pack, const unsigned char *all, size_t nall);

/* The jobs so far: how many (the next one's number). */
size_t commits_count(const commits *c);
/* Forget every job (to add them again another way). */
void commits_restart(commits *c);

/* The loose commits ids[0..n) as jobs, after every pack's.  0 or -1. */
int commits_add_loose(commits *c, const unsigned char *ids, size_t n);

/*
 * Commits another pass read already (verify's --range walk reads the
 * range's commits whole): what commits_read() takes of each (subject,
 * committer time, parents), by ID, so that it does not inflate them a
 * second time.  The same functions read them from the same bytes: the
 * tables made are the same.  Ownership: commits_known_new() returns a set
 * freed with commits_known_free(); it copies what it is given.
 */
typedef struct commits_known commits_known;

int commits_known_new(commits_known **out, size_t rawsz);
void commits_known_free(commits_known *k);
/*
 * The commit id read from the packs, its bytes d[0..len) (all of it, or
 * enough for commit_head_complete()): 0, or -1 (memory).  An ID known
 * already is not added again.
 */
int commits_known_add(commits_known *k, const unsigned char *id, const char *d, size_t len);
size_t commits_known_count(const commits_known *k);
/*
 * The jobs commits_read() takes from k (borrowed until then; NULL: none)
 * instead of reading them.
 */
void commits_use_known(commits *c, const commits_known *k);

/*
 * Read every job, noting parents when `parents`, with progress updates
 * on p (may be NULL; the caller starts and stops it).  0 or -1 (memory).
 */
int commits_read(commits *c, int parents, const commits_other *other, progress *p);

/*
 * Job j: its place in *job, and when it was read as a commit 1 with its
 * subject (git's %s) and committer time, else 0.
 */
int commits_get(const commits *c, size_t j, const commits_job **job, const char **subject,
		int64_t *time);

/*
 * Job j's parents, when it was read as a commit with them: 1 with *np raw
 * IDs at *pids (valid as long as the set), else 0.
 */
int commits_parents(const commits *c, size_t j, const unsigned char **pids, uint32_t *np);
/* Whether every commit read so far had its parents read (none was beyond parsing). */
int commits_parents_ok(const commits *c);

/* Whether every job was read as a commit with its parents (a graph can be made). */
int commits_whole(const commits *c);

/* Free the subjects, keeping the parents for commits_graph(). */
void commits_drop_text(commits *c);

/*
 * The graph of every commit read and its parents (commits_whole()): 0
 * with *out, NULL when there is none to make (not whole, a parent that is
 * not among the commits), or -1 when out of memory.
 */
int commits_graph(const commits *c, commit_graph **out);

/*
 * The graph of the n commits ids[] (ascending) from their parents: commit
 * i's are the count[i] IDs at pids + first[i] * rawsz (npids in all).  0
 * with *out (NULL when a parent is not among the commits, or too many),
 * -1 (memory).
 */
int commits_graph_of(commit_graph **out, size_t rawsz, const unsigned char *ids, size_t n,
		     const uint32_t *count, const uint32_t *first, const unsigned char *pids,
		     size_t npids);

#endif
