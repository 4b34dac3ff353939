/*
 * commit_graph.h - committer times and ancestry from git's commit-graph file.
 *
 * git writes objects/info/commit-graph (`git commit-graph write`, gc,
 * fetch with fetch.writeCommitGraph; kernel clones usually have one): the
 * sorted IDs of its commits (chunk OIDL) and per commit a fixed record
 * (chunk CDAT): its parents' positions, its generation and, in the last
 * 34 bits, the committer time.  Reading times is a merge of two sorted
 * lists, against about 13 us per commit through libgit2, which inflates
 * and parses every commit; ancestry is a walk over the records that the
 * generations bound, where libgit2 1.5 parses commit after commit.
 *
 * Only the single file is read, not a split chain (commit-graphs/); a
 * commit the file lacks is left to the caller.
 * Ownership: commit_graph_open() and commit_graph_build() return a graph
 * freed with commit_graph_close(); commit_graph_times() keeps nothing, the arrays
 * are the caller's.
 */
#ifndef ABBREV_COMMIT_GRAPH_H
#define ABBREV_COMMIT_GRAPH_H

#include <stddef.h>
#include <stdint.h>

/*
 * For each ids[i] (n IDs of rawsz bytes, ascending byte order) that the
 * commit-graph of the object directory `objdir` holds and found[i] is 0:
 * times[i] = its committer time, found[i] = 1.  Returns how many were
 * found; 0 without a usable file (missing, another hash, malformed).
 */
size_t commit_graph_times(const char *objdir, size_t rawsz, const unsigned char *ids, size_t n,
			  int64_t *times, unsigned char *found);

typedef struct commit_graph commit_graph;

/*
 * The commit-graph of `objdir` mapped: 0 with *out, which is NULL when
 * there is no usable file (missing, another hash, a split chain,
 * malformed), or -1 when out of memory.
 */
int commit_graph_open(commit_graph **out, const char *objdir, size_t rawsz);
void commit_graph_close(commit_graph *g);

/*
 * The same from parents read elsewhere, for a repository without the
 * file: the n commits ids[] (ascending, rawsz bytes each), the parents
 * of commit i the positions plist[pstart[i] .. pstart[i + 1]) in ids.
 * Generations are computed here.  0 with *out (NULL when the parents
 * make a cycle or a position is out of range), or -1 when out of memory.
 */
int commit_graph_build(commit_graph **out, size_t rawsz, const unsigned char *ids, uint32_t n,
		       const uint32_t *pstart, const uint32_t *plist);

/*
 * 1 when `anc` is an ancestor of `of` (not `of` itself), 0 when not, -1
 * when the graph cannot tell (either is missing from it, it has no
 * generations, it is damaged, or memory ran out): ask someone else.
 */
int commit_graph_is_ancestor(commit_graph *g, const unsigned char *anc, const unsigned char *of);

/*
 * The committer time and the parents of commit `id`, from the file (a
 * graph built from parents has no times): how many parents it has, their
 * raw IDs into out (at most max of them), or -1 when the graph is built,
 * lacks `id` or is damaged there (read the commit instead).
 */
int commit_graph_parents(const commit_graph *g, const unsigned char *id, int64_t *time,
			 unsigned char *out, size_t max);

/*
 * Mark every commit reachable from the commit `tip` (itself too), for
 * commit_graph_marked().  0, 1 when the graph lacks `tip` or is damaged
 * (the marks are then incomplete: ask someone else), -1 out of memory.
 */
int commit_graph_mark(commit_graph *g, const unsigned char *tip);
/* 1 when `id` is marked, 0 when it is in the graph unmarked, -1 when it is not in the graph. */
int commit_graph_marked(const commit_graph *g, const unsigned char *id);

#endif
