/*
 * commit.h - the two things git-abbrev reads from a raw commit object:
 * its subject (git's %s) and its committer time.
 *
 * Pure: it reads a caller's buffer (the object's bytes, as git_odb_read
 * or a pack gives them, of any content) and nothing else, so the report's
 * history and verify read commits the same way, and tests feed it
 * hand-written objects.
 *
 * Ownership: commit_subject() writes into a commit_buf the caller owns
 * and frees with commit_buf_free(); the other functions allocate nothing.
 */
#ifndef ABBREV_COMMIT_H
#define ABBREV_COMMIT_H

#include <stddef.h>
#include <stdint.h>

/*
 * The committer time: the decimal number after the last '>' of the
 * first "committer " header, as git reads it.  0 when there is none, or
 * when it does not fit in 63 bits (git shows such a commit at the epoch
 * too): one rule for every caller.
 */
int64_t commit_time(const char *d, size_t len);
/*
 * The committer time as commit_time() reads it, and its zone in *tz:
 * minutes east of UTC ("+0530": 330), 0 when it is not a sign and four
 * digits.
 */
int64_t commit_when(const char *d, size_t len, int *tz);

/* The offset of the message: the byte after the blank line ending the headers. */
size_t commit_message_offset(const char *d, size_t len);

/*
 * The parents of a raw commit, as git reads them: the "parent <hex>"
 * lines right after the "tree" line.  Their raw IDs (rawsz bytes each)
 * go to out, at most `max` of them; returns how many there are (maybe
 * more than max), or -1 when the commit does not start with a tree line
 * or a parent line is not one full hex ID.
 */
int commit_parents(const char *d, size_t len, size_t rawsz, unsigned char *out, size_t max);

/*
 * Whether the first len bytes of a commit hold all that commit_time(),
 * commit_subject() and commit_parents() read: the headers and the first
 * paragraph of the message, ended by a blank line.  (A commit read in
 * part, from its first bytes, is enough once this says 1.)
 */
int commit_head_complete(const char *d, size_t len);

/* A growing buffer for subjects. */
typedef struct {
	char *s;             /* NUL-terminated after commit_subject() */
	size_t len, cap;
} commit_buf;

/*
 * The subject as git's %s prints it: the first paragraph of the message
 * (after any blank lines), each line right-trimmed of whitespace, lines
 * joined by one space.  Into b->s (b->len bytes, NUL-terminated; a NUL
 * inside the subject is kept, so compare with b->len).  0, or -1 when out
 * of memory.
 */
int commit_subject(const char *d, size_t len, commit_buf *b);
void commit_buf_free(commit_buf *b);

#endif
