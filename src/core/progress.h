/*
 * progress.h - a progress line on stderr for long walks.
 *
 * The command-line layer decides whether progress is shown (a terminal,
 * or --progress) and passes a progress object down; a NULL or disabled
 * object makes every call a no-op.  Ownership: progress_new() returns an
 * object freed with progress_free().
 */
#ifndef ABBREV_PROGRESS_H
#define ABBREV_PROGRESS_H

#include <stddef.h>
#include <stdio.h>

typedef struct progress progress;

progress *progress_new(FILE *out, int enabled);
void progress_free(progress *p);

/*
 * Begin a phase; total 0 when unknown.  Its line appears once the phase
 * has run GIT_PROGRESS_DELAY seconds (default 2, read by progress_new).
 */
void progress_start(progress *p, const char *title, size_t total);
/* Report `done` items; redraws at most a few times a second. */
void progress_update(progress *p, size_t done);
/* End the phase: a final line if it was shown or is due, none if it counted nothing. */
void progress_stop(progress *p);

#endif
