/*
 * sources.h - what a report's IDs were read from: ID streams (with what
 * they held besides objects) and repositories.
 *
 * Every shard of a sharded run reads the same inputs, so the inputs of a
 * merge come many times over: an input is one (kind, name, bytes, CRC-32)
 * and counts once however often it comes; inputs that differ (a plain and
 * a gzip copy of one list) are listed each.  A single run goes through
 * the same list, so its report and a merge's agree.
 *
 * Ownership: a sources list is a caller-owned struct, zeroed to start;
 * sources_add() copies the name; sources_clear() frees everything.
 */
#ifndef ABBREV_SOURCES_H
#define ABBREV_SOURCES_H

#include <stddef.h>
#include <stdint.h>

#include "stats.h"

typedef struct {
	const char *name;      /* as given: a path, "-" for stdin */
	int stream;            /* 1: an ID stream; 0: a repository */
	uint64_t bytes;        /* ID stream: decompressed bytes ... */
	uint32_t crc;          /* ... and their CRC-32 */
	uint64_t lines, bad;   /* lines read, bad lines skipped */
	uint64_t other[STATS_NOTHER]; /* SWHIDs of other kinds, by enum idline_other */
} source;

typedef struct sources {
	source *v;
	size_t n, cap;
	char **names;          /* distinct names, in order of first appearance */
	size_t nnames;
	int any_stream;
} sources;

/* Add an input unless the list has it already.  0, or -2 when out of memory. */
int sources_add(sources *l, const source *src);

/* The stream counters summed over the distinct inputs (duplicates left alone). */
void sources_totals(const sources *l, stats_input *t);

void sources_clear(sources *l);

#endif
