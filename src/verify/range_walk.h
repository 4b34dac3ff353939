/*
 * range_walk.h - the commits of a revision range, in the order of
 * libgit2's revwalk with GIT_SORT_TOPOLOGICAL | GIT_SORT_TIME (every
 * commit after all of its children, the newest first among those ready).
 *
 * `verify --range` walked with git_revwalk, which reads every commit in
 * full through git_odb_read and keeps it in libgit2's object cache: on
 * git.git a quarter of the run.  Here a source says a commit's parents and
 * committer time (cite_git2.c: from the commit-graph file, or the first
 * bytes of the commit read from the mapped packs), and the walk is
 * libgit2 1.5's step for step, so the findings come in the order they
 * always did: the pushes in the order given, the list of commits to visit
 * kept by date (ties in arrival order), the visit stopped five
 * uninteresting commits after the last interesting one (git's and
 * libgit2's "slop"), then the topological sort over the same binary heap.
 * The commits listed are those of `git rev-list` with the same tips.
 *
 * Pure: no libgit2, no I/O; the unit tests give hand-made commits.
 * Ownership: range_walk() fills a range_list and a range_graph the caller
 * frees with range_list_free() and range_graph_free(); the source's parent
 * IDs are copied before its next call.
 */
#ifndef ABBREV_RANGE_WALK_H
#define ABBREV_RANGE_WALK_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
	void *ctx;
	/*
	 * Commit `id`: its committer time in *time and its parents, *np raw
	 * IDs at *parents (valid until the next call); *note is the
	 * source's own word on it (where it kept the message read on the
	 * way), handed back with the commit in the list.  *hints (NULL, or
	 * one per parent, valid until the next call) is the source's word
	 * on where each parent is: the walk keeps it from the parent's first
	 * sighting and gives it back as `hint` when it reads that parent (0
	 * for a tip), so the source can find it without a search; the
	 * source checks a hint, the walk never reads it.  0, -1 when out of
	 * memory, -2 when it cannot be read or is no commit (a one-line
	 * message in err).
	 */
	int (*commit)(void *ctx, const unsigned char *id, uint64_t hint, int64_t *time,
		      const unsigned char **parents, const uint64_t **hints, size_t *np,
		      uint64_t *note, char *err, size_t errsz);
} range_source;

/*
 * A commit to start from (RANGE_PUSH), one whose ancestors and itself
 * are left out (RANGE_HIDE: ^id), or one whose history the graph should
 * hold too, listing nothing (RANGE_READ: the tips of the branches and
 * tags, so the graph also tells what they reach).
 */
enum { RANGE_PUSH, RANGE_HIDE, RANGE_READ };
typedef struct {
	const unsigned char *id;
	int kind;
} range_tip;

typedef struct {
	unsigned char *ids;   /* n raw IDs, in walk order */
	uint64_t *notes;      /* the source's note of each */
	size_t n;
} range_list;

/*
 * Every commit the walk read with its parents, when that is the whole
 * history behind the range (no tip hidden, so each commit reachable was
 * read) and the RANGE_READ tips (theirs read on top): the arguments of
 * commit_graph_build(), IDs ascending, the parents of commit i at
 * plist[pstart[i] .. pstart[i + 1]).  n is 0 when the walk stopped short
 * of the roots or a RANGE_READ tip's history cannot be read.
 */
typedef struct {
	unsigned char *ids;
	uint32_t *pstart, *plist;
	uint32_t n;
} range_graph;

/*
 * The commits reachable from the tips not hidden and from none hidden,
 * in libgit2's order (see above); with `graph`, the history read too.
 * 0, -1 when out of memory, -2 when a commit cannot be read (the
 * source's message in err).
 */
int range_walk(range_list *out, range_graph *graph, const range_source *src, size_t rawsz,
	       const range_tip *tips, size_t ntips, char *err, size_t errsz);
void range_list_free(range_list *l);
void range_graph_free(range_graph *g);

#endif
