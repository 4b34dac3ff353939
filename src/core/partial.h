/*
 * partial.h - one shard's results in a form a merge reads back exactly,
 * sealed with a digest and naming the input they are a part of.
 *
 * `--format=partial` writes, as plain text, everything the report of the
 * whole set needs from one shard: the hash, the shard, the identity of
 * the input (its spread: an order-independent fingerprint of its IDs in
 * each shard, idset.h) and of the IDs this run kept, the inputs
 * (sources.h), and for every set its count, colliding objects and
 * prefixes per length, and the groups at its longest colliding length
 * (members with their types and descriptions); commit-vs-other per
 * length; duplicates.  Collisions at L >= 2 never cross shards, so these
 * add up (merge.h).  The layout, one record a line:
 *
 *	git-abbrev partial 2
 *	hash sha1
 *	shard 3/16
 *	spread 0 ids=4021 print=<32 hex>    (one per shard of N, 0 .. N - 1)
 *	...
 *	kept ids=3911 print=<32 hex>        (this run's IDs: spread 3's)
 *	lacks 0
 *	duplicates 2
 *	source stream "ids.zst" bytes=4100 crc32=1c291ca3 lines=100 bad=0 snp=0 ori=0 emd=0 raw=0
 *	source repository "/srv/linux"
 *	set all count=61 longest=5 last=6
 *	length all 4 10 5                   (L, colliding objects, prefixes; L = 4 .. last)
 *	group all 5 2                       (the longest length, members)
 *	member all 3a1f...  commit "(\"subject\") 2024-12-05"
 *	reachable refs=3 missing=0 bad_refs=0   (with --reachable; one
 *	refpattern "refs/tags"                  line per ref pattern)
 *	cvo last=5
 *	cvo 4 1
 *	end
 *	sha256 <64 hex>                     (of every byte before this line)
 *
 * Strings are in double quotes with \\, \", \n, \t and \xHH escapes.  A
 * file whose digest does not match, or without its "end" and digest
 * lines, is refused; so is one whose records disagree (partial.c lists
 * what is recomputed).  The format's version is the header's number: a
 * part of another version is refused.
 *
 * Ownership: partial_read() fills a caller-owned struct that
 * partial_clear() frees; rep.repos and rep.input point into it.
 */
#ifndef ABBREV_PARTIAL_H
#define ABBREV_PARTIAL_H

#include <stdint.h>
#include <stdio.h>

#include "shard.h"
#include "sources.h"
#include "stats.h"

#define PARTIAL_HEADER "git-abbrev partial 2"

typedef struct {
	stats_report rep;   /* the shard's tables; rep.shard is its shard */
	abbrev_reach reach; /* --reachable: what was walked (rep.reach points here) */
	char **patterns;    /* reach.patterns, owned */
	sources src;        /* its inputs (rep.sources points here) */
	stats_input input;  /* src's totals and the shard's duplicates */
	uint64_t spread_line[SHARD_MAX]; /* the line of each spread record, for messages */
} partial;

/*
 * Write the partial result of report r: r->shard, r->spread and r->kept,
 * r->input->duplicates when r->input is set, the inputs r->sources
 * (NULL: r->repos, as repositories), then the digest.  0, -1 on a write
 * error, -2 when out of memory.
 */
int partial_write(FILE *out, const stats_report *r);

/*
 * Read a partial result from `in`; `path` names it in messages.  0; -1
 * with "<path>:<line>: <reason>" in err when it is not a partial result
 * or is damaged; -2 when out of memory.
 */
int partial_read(partial *p, FILE *in, const char *path, char *err, size_t errsz);
/*
 * partial_read() without asking for the digest (an unsealed part is read
 * as if it had a matching one): for the fuzz target, whose inputs would
 * otherwise never get past it.
 */
int partial_read_unsealed(partial *p, FILE *in, const char *path, char *err, size_t errsz);
void partial_clear(partial *p);

#endif
