/*
 * commit_graph.h - committer times from git's commit-graph file.
 *
 * git writes objects/info/commit-graph (`git commit-graph write`, gc,
 * fetch with fetch.writeCommitGraph; kernel clones usually have one): the
 * sorted IDs of its commits (chunk OIDL) and per commit a fixed record
 * (chunk CDAT) whose last 34 bits are the committer time.  Reading those
 * is a merge of two sorted lists, against about 13 us per commit through
 * libgit2, which inflates and parses every commit.
 *
 * Only the single file is read, not a split chain (commit-graphs/); a
 * commit the file lacks is left to the caller (found[i] stays 0).
 * Ownership: nothing is kept; the arrays are the caller's.
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

#endif
