/*
 * arena.c - a bump allocator (arena.h): blocks cut from chunks that grow
 * to CHUNK_MAX bytes; a block too large for a chunk gets one of its own,
 * behind the current one, so the current chunk's room is not lost.
 */
#include <config.h>

#include "arena.h"

#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK_MIN ((size_t)4096)
#define CHUNK_MAX ((size_t)1 << 20)

struct arena_chunk {
	arena_chunk *prev;
	size_t cap, used;     /* bytes of data[] */
	max_align_t data[];
};

static arena_chunk *chunk_new(size_t cap)
{
	arena_chunk *c;

	if (cap > SIZE_MAX - sizeof(*c))
		return NULL;
	c = malloc(sizeof(*c) + cap);
	if (!c)
		return NULL;
	c->prev = NULL;
	c->cap = cap;
	c->used = 0;
	return c;
}

void *arena_alloc(arena *a, size_t n)
{
	const size_t align = alignof(max_align_t);
	arena_chunk *c = a->head;
	size_t at;

	if (n > SIZE_MAX - align)
		return NULL;
	n = n ? (n + align - 1) & ~(align - 1) : align;
	if (!c || c->cap - c->used < n) {
		/* each chunk twice the last, to CHUNK_MAX; a larger block alone */
		size_t cap = c ? (c->cap < CHUNK_MAX / 2 ? 2 * c->cap : CHUNK_MAX) : CHUNK_MIN;

		if (n > cap / 4) {
			arena_chunk *big = chunk_new(n);

			if (!big)
				return NULL;
			big->used = n;
			a->bytes += n;
			if (c) { /* behind the current chunk, which keeps its room */
				big->prev = c->prev;
				c->prev = big;
			} else {
				a->head = big;
			}
			return big->data;
		}
		if (!(c = chunk_new(cap)))
			return NULL;
		c->prev = a->head;
		a->head = c;
		a->bytes += cap;
	}
	at = c->used;
	c->used += n;
	return (char *)c->data + at;
}

char *arena_strdup(arena *a, const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = arena_alloc(a, n);

	if (d)
		memcpy(d, s, n);
	return d;
}

void arena_free(arena *a)
{
	arena_chunk *c = a->head;

	while (c) {
		arena_chunk *prev = c->prev;

		free(c);
		c = prev;
	}
	a->head = NULL;
	a->bytes = 0;
}
