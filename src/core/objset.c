/*
 * objset.c - a hash set of object IDs with their types.
 *
 * Open addressing with linear probes, the table kept at most half full
 * (about 1.5 slots per lookup).  Each slot holds the whole ID and its type
 * (plus one: 0 marks an empty slot), so a lookup costs one cache miss: the
 * walk asks tens of millions of times, and an index into a separate array
 * of IDs cost a second miss per hit.  The hash is the ID's first 8 bytes:
 * git's IDs are hash outputs already.
 */
#include <config.h>

#include "objset.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

struct objset {
	size_t rawsz;           /* ID bytes */
	size_t ssz;             /* slot bytes: the ID, the type + 1, padding to 8 */
	unsigned char *slot;
	size_t mask;            /* slots - 1 (a power of two) */
	size_t n;               /* IDs in the set */
};

#define TYPE(o, s) ((s)[(o)->rawsz])

/*
 * A zeroed table of n slots.  A large one asks for huge pages: random
 * probes into tens of megabytes otherwise miss the TLB nearly every time.
 */
static unsigned char *table_new(size_t n, size_t ssz)
{
	const size_t huge = (size_t)2 << 20;
	size_t bytes = n * ssz;
	void *p;

	if (bytes < 2 * huge)
		return calloc(n, ssz);
	if (posix_memalign(&p, huge, bytes))
		return NULL;
	madvise(p, bytes, MADV_HUGEPAGE);
	memset(p, 0, bytes);
	return p;
}

objset *objset_new(size_t rawsz)
{
	objset *o;

	if (rawsz < 8 || rawsz > ABBREV_MAX_RAWSZ)
		return NULL;
	o = calloc(1, sizeof(*o));
	if (!o)
		return NULL;
	o->rawsz = rawsz;
	o->ssz = (rawsz + 1 + 7) & ~(size_t)7;
	o->mask = 1024 - 1;
	o->slot = table_new(o->mask + 1, o->ssz);
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
	free(o->slot);
	free(o);
}

/* The slot of `id`, or the empty slot where it would go. */
static unsigned char *probe(const objset *o, const unsigned char *id)
{
	uint64_t h;
	size_t i;

	memcpy(&h, id, sizeof(h));
	for (i = (size_t)h & o->mask;; i = (i + 1) & o->mask) {
		unsigned char *s = o->slot + i * o->ssz;

		if (!TYPE(o, s) || !memcmp(s, id, o->rawsz))
			return s;
	}
}

void objset_prefetch(const objset *o, const unsigned char *id)
{
	uint64_t h;

	memcpy(&h, id, sizeof(h));
	__builtin_prefetch(o->slot + ((size_t)h & o->mask) * o->ssz);
}

static int grow(objset *o)
{
	objset bigger = *o;

	bigger.mask = 2 * o->mask + 1;
	bigger.slot = table_new(bigger.mask + 1, o->ssz);
	if (!bigger.slot)
		return -2;
	for (size_t i = 0; i <= o->mask; i++) {
		const unsigned char *s = o->slot + i * o->ssz;

		if (TYPE(o, s))
			memcpy(probe(&bigger, s), s, o->ssz);
	}
	free(o->slot);
	*o = bigger;
	return 0;
}

int objset_add(objset *o, const unsigned char *id, int type)
{
	unsigned char *s = probe(o, id);

	if (TYPE(o, s))
		return 0;
	if (2 * (o->n + 1) > o->mask + 1) {
		if (grow(o))
			return -2;
		s = probe(o, id);
	}
	memcpy(s, id, o->rawsz);
	TYPE(o, s) = (unsigned char)(type + 1);
	o->n++;
	return 1;
}

int objset_find(const objset *o, const unsigned char *id)
{
	const unsigned char *s = probe(o, id);

	return TYPE(o, s) ? TYPE(o, s) - 1 : -1;
}

void objset_set_type(objset *o, const unsigned char *id, int type)
{
	unsigned char *s = probe(o, id);

	if (TYPE(o, s))
		TYPE(o, s) = (unsigned char)(type + 1);
}

size_t objset_count(const objset *o)
{
	return o->n;
}

static int cmp_slot(const void *a, const void *b, void *rawsz)
{
	return memcmp(a, b, *(const size_t *)rawsz);
}

int objset_drain(objset *o, idsets *s)
{
	idsets_bulk *b;
	size_t n = 0;
	int rc = 0;

	/* the present IDs to the front of the table, then in order */
	for (size_t i = 0; i <= o->mask; i++) {
		const unsigned char *sl = o->slot + i * o->ssz;

		if (TYPE(o, sl) > ABBREV_TYPE_NONE + 1) {
			if (n != i)
				memcpy(o->slot + n * o->ssz, sl, o->ssz);
			n++;
		}
	}
	o->n = 0;
	o->mask = 0; /* the table is no more */
	if (n)
		qsort_r(o->slot, n, o->ssz, cmp_slot, &o->rawsz);
	b = idsets_bulk_start(s, n);
	if (!b)
		return -2;
	for (size_t i = 0; i < n && rc >= 0; i++) {
		const unsigned char *sl = o->slot + i * o->ssz;

		rc = idsets_bulk_add(b, sl, TYPE(o, sl) - 1);
	}
	if (idsets_bulk_finish(b) || rc == -2)
		return -2;
	return rc < 0 ? -1 : 0;
}
