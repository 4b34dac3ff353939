/*
 * cite_digest.h - what cite_parse() found in one commit message, kept as
 * bytes (verify's notes on a pack's commits, commit_notes.h), so that a
 * later run on the same commit need neither inflate nor parse its
 * message again: a commit's message cannot change under its ID, nor,
 * for one build (the notes' stamp), what its parse yields.
 *
 * Kept: the list (every field of each citation, the title, the imports)
 * and of the message only the lines that hold a reference, its ID, its
 * subject or its date, at their own offsets; the rest of the message
 * comes back as line breaks.  That is every byte the resolver and the
 * text, JSON and checkpatch emitters read (each reads around a
 * reference, never past its lines).  --fix, which writes the whole text,
 * takes no --range.
 *
 * Pure: no files, no repository.  Ownership: cite_digest_pack() gives
 * malloc'd bytes; cite_digest_unpack() fills a cite_list (cite_list_free())
 * and a malloc'd message.
 */
#ifndef ABBREV_CITE_DIGEST_H
#define ABBREV_CITE_DIGEST_H

#include <stddef.h>

#include "cite_parse.h"

/*
 * The digest of list l parsed from buf[0..len): 0 with *out (*outlen
 * bytes), 1 when it cannot be kept (a message of 4 GiB or more), -1
 * (memory).
 */
int cite_digest_pack(const cite_list *l, const char *buf, size_t len, unsigned char **out,
		     size_t *outlen);

/*
 * The list and the message back from a digest (l zeroes): 0 with *l and
 * *buf (*len bytes, NUL-ended), 1 when the bytes are no digest (nothing
 * kept), -1 (memory).
 */
int cite_digest_unpack(const unsigned char *d, size_t n, cite_list *l, char **buf, size_t *len);

#endif
