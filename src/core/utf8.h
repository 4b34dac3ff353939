/*
 * utf8.h - the one rule for bytes that must become UTF-8 text.
 *
 * Repository paths, commit subjects and tag names are bytes: usually
 * UTF-8, sometimes Latin-1 (old commits, old file systems).  JSON and SVG
 * need UTF-8, so every emitter of those formats reads strings the same
 * way: a valid UTF-8 sequence is kept as it is, and any other byte is the
 * Latin-1 character of that value (0xe9 is "é").  Nothing is dropped and
 * nothing is replaced by U+FFFD.  Text, CSV and Markdown print the bytes
 * as they are, as git log does.
 *
 * Ownership: utf8_text() returns a string the caller frees; utf8_json*()
 * return a new jansson reference (NULL when out of memory).
 */
#ifndef ABBREV_UTF8_H
#define ABBREV_UTF8_H

#include <jansson.h>
#include <stddef.h>

/* Length of the valid UTF-8 sequence at s (n > 0 bytes left), or 0. */
size_t utf8_seq_len(const unsigned char *s, size_t n);

/*
 * s[0..n) under the rule above, NUL-terminated, its length in *len (which
 * may be NULL); NULL when out of memory.
 */
char *utf8_text(const char *s, size_t n, size_t *len);

/* A JSON string of s[0..n) under the rule above; JSON null for s NULL. */
json_t *utf8_jsonn(const char *s, size_t n);
/* The same for a NUL-terminated string. */
json_t *utf8_json(const char *s);

#endif
