/*
 * objset.c - a hash set of object IDs with their types.
 *
 * Entries (ID bytes, then a type byte) live in one growing array in the
 * order they came; the table holds entry numbers plus one (0 = empty) and
 * is kept at most half full, so a linear probe ends after about 1.5 slots
 * on average.  The hash is the ID's first 8 bytes: git's IDs are hash
 * outputs already.
 */
#include <config.h>

#include "objset.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct objset {
	size_t rawsz, esz;      /* ID bytes; entry bytes (ID + type) */
	unsigned char *ent;     /* n entries of esz bytes */
	size_t n, cap;
	uint32_t *slot;         /* entry number + 1, or 0 */
	size_t mask;            /* slots - 1 (a power of two) */
};

objset *objset_new(size_t rawsz)
{
	objset *o;

	if (rawsz < 8 || rawsz > ABBREV_MAX_RAWSZ)
		return NULL;
	o = calloc(1, sizeof(*o));
	if (!o)
		return NULL;
	o->rawsz = rawsz;
	o->esz = rawsz + 1;
	o->mask = 1024 - 1;
	o->slot = calloc(o->mask + 1, sizeof(*o->slot));
	if (!o->slot) {
		free(o);
		return NULL;
	}
	return o;
}

void objset_free(objset *o)
{
	if (!o)
		return;
	free(o->ent);
	free(o->slot);
	free(o);
}

static size_t hash_of(const unsigned char *id)
{
	uint64_t h;

	memcpy(&h, id, sizeof(h));
	return (size_t)h;
}

/* The slot of `id`, or of the empty slot where it would go. */
static size_t probe(const objset *o, const unsigned char *id)
{
	size_t i = hash_of(id) & o->mask;

	while (o->slot[i] && memcmp(o->ent + (o->slot[i] - 1) * o->esz, id, o->rawsz))
		i = (i + 1) & o->mask;
	return i;
}

static int grow_table(objset *o)
{
	size_t nslots = 2 * (o->mask + 1);
	uint32_t *old = o->slot;
	size_t oldn = o->mask + 1;

	o->slot = calloc(nslots, sizeof(*o->slot));
	if (!o->slot) {
		o->slot = old;
		return -2;
	}
	o->mask = nslots - 1;
	for (size_t i = 0; i < oldn; i++)
		if (old[i])
			o->slot[probe(o, o->ent + (old[i] - 1) * o->esz)] = old[i];
	free(old);
	return 0;
}

int objset_add(objset *o, const unsigned char *id, int type)
{
	size_t i = probe(o, id);

	if (o->slot[i])
		return 0;
	if (o->n == UINT32_MAX - 1)
		return -2;
	if (o->n == o->cap) {
		size_t cap = o->cap ? 2 * o->cap : 4096;
		unsigned char *e = realloc(o->ent, cap * o->esz);

		if (!e)
			return -2;
		o->ent = e;
		o->cap = cap;
	}
	if (2 * (o->n + 1) > o->mask + 1) {
		if (grow_table(o))
			return -2;
		i = probe(o, id);
	}
	memcpy(o->ent + o->n * o->esz, id, o->rawsz);
	o->ent[o->n * o->esz + o->rawsz] = (unsigned char)type;
	o->slot[i] = (uint32_t)++o->n;
	return 1;
}

int objset_find(const objset *o, const unsigned char *id)
{
	size_t i = probe(o, id);

	return o->slot[i] ? o->ent[(o->slot[i] - 1) * o->esz + o->rawsz] : -1;
}

void objset_set_type(objset *o, const unsigned char *id, int type)
{
	size_t i = probe(o, id);

	if (o->slot[i])
		o->ent[(o->slot[i] - 1) * o->esz + o->rawsz] = (unsigned char)type;
}

size_t objset_count(const objset *o)
{
	return o->n;
}

static int cmp_entry(const void *a, const void *b, void *rawsz)
{
	return memcmp(a, b, *(const size_t *)rawsz);
}

int objset_drain(objset *o, idsets *s)
{
	idsets_bulk *b;
	int rc = 0;

	/* the table would point at moved entries: it goes first */
	free(o->slot);
	o->slot = NULL;
	o->mask = 0;
	if (o->n)
		qsort_r(o->ent, o->n, o->esz, cmp_entry, &o->rawsz);
	b = idsets_bulk_start(s, o->n);
	if (!b)
		return -2;
	for (size_t i = 0; i < o->n && rc >= 0; i++) {
		const unsigned char *e = o->ent + i * o->esz;

		if (e[o->rawsz] != ABBREV_TYPE_NONE)
			rc = idsets_bulk_add(b, e, e[o->rawsz]);
	}
	if (idsets_bulk_finish(b) || rc == -2)
		return -2;
	return rc < 0 ? -1 : 0;
}
