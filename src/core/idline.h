/*
 * idline.h - one line of an ID stream: an object ID and its type.
 *
 * Two spellings are read, the ones object lists come in:
 *   git cat-file --batch-check output   "<hex> <type>[ <more>]"
 *       type commit, tree, blob or tag; more fields (the default format's
 *       size, %(objectsize:disk), ...) are ignored
 *   SWHIDs                              "swh:1:<kind>:<hex>[;qualifiers][ <more>]"
 *       rev = commit, rel = tag (release), dir = tree, cnt = blob; the
 *       other kinds of Software Heritage's graph (snp snapshots, and the
 *       extended ori, emd and raw) have no git object: they are skipped
 *       and counted by kind
 * A trailing "\r" is dropped.  Anything else (a blank line, an ID of the
 * wrong length, an unknown type) is a bad line with a one-line reason.
 *
 * Pure: no allocation, no I/O; the caller owns every buffer.
 */
#ifndef ABBREV_IDLINE_H
#define ABBREV_IDLINE_H

#include <stddef.h>

#include "hexid.h"

enum idline_kind {
	IDLINE_OBJECT = 0,  /* an object: id, rawsz and type are set */
	IDLINE_OTHER,       /* a SWHID of a kind without git object: `other` is set */
	IDLINE_BAD          /* not an ID line: `reason` is set */
};

/* The SWHID kinds that are skipped and counted, in this order. */
enum idline_other {
	IDLINE_SNP = 0,
	IDLINE_ORI,
	IDLINE_EMD,
	IDLINE_RAW,
	IDLINE_NOTHER
};

/* "snp", "ori", "emd", "raw". */
const char *idline_other_name(int other);

typedef struct {
	int kind;                             /* enum idline_kind */
	unsigned char id[ABBREV_MAX_RAWSZ];   /* IDLINE_OBJECT, IDLINE_OTHER */
	size_t rawsz;                         /* 20 (SHA-1) or 32 (SHA-256) */
	int type;                             /* enum abbrev_type (IDLINE_OBJECT) */
	int other;                            /* enum idline_other (IDLINE_OTHER) */
	const char *reason;                   /* IDLINE_BAD: static text */
} idline;

/*
 * Parse line[0..len) (no newline).  `rawsz` is the ID width the stream
 * has shown so far, or 0 before its first ID (then 20 or 32 is taken from
 * this line's ID).  Returns out->kind.
 */
int idline_parse(idline *out, const char *line, size_t len, size_t rawsz);

#endif
