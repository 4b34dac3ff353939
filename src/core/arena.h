/*
 * arena.h - a bump allocator: many small blocks that live as long as
 * their owner and are freed all at once.
 *
 * verify keeps a record per commit it has read (its subject, time, unique
 * length) and per ID prefix it has looked up, about 130,000 of each for
 * 400,000 references: one malloc and one free each cost more than the
 * lookups they serve, and freeing them one by one at exit made glibc
 * consolidate its bins for a tenth of the run.  Here they come from a few
 * large chunks, and arena_free() returns the chunks.
 *
 * Pure, no libgit2.
 *
 * Ownership: the arena owns every block it hands out; arena_free()
 * frees them all (and leaves an empty arena, usable again).
 */
#ifndef ABBREV_ARENA_H
#define ABBREV_ARENA_H

#include <stddef.h>

typedef struct arena_chunk arena_chunk;

/* Initialise to zeroes: an empty arena. */
typedef struct {
	arena_chunk *head;    /* the chunk blocks come from now; older ones behind it */
	size_t bytes;         /* held in chunks, for statistics */
} arena;

/* n bytes aligned for any type (uninitialised), or NULL when out of memory. */
void *arena_alloc(arena *a, size_t n);

/* A copy of s in the arena, or NULL when out of memory. */
char *arena_strdup(arena *a, const char *s);

/* Free every block. */
void arena_free(arena *a);

#endif
