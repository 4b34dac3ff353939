/*
 * idbatch.c - gather, sort in place and add IDs in key order (see idbatch.h).
 *
 * The records live in one block grown by half at a time (a realloc that
 * moves holds the old and the new block at once: 2.5x the records at
 * worst, against 3x when doubling), sorted in place by an MSD radix sort.
 */
#include "idbatch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct idbatch {
	size_t rawsz, recsz;
	unsigned char *recs;
	size_t n, cap;
};

idbatch *idbatch_new(size_t rawsz)
{
	idbatch *b;

	if (rawsz < 1 || rawsz > ABBREV_MAX_RAWSZ)
		return NULL;
	b = calloc(1, sizeof(*b));
	if (b) {
		b->rawsz = rawsz;
		b->recsz = rawsz + 1;
	}
	return b;
}

void idbatch_free(idbatch *b)
{
	if (!b)
		return;
	free(b->recs);
	free(b);
}

size_t idbatch_count(const idbatch *b)
{
	return b->n;
}

int idbatch_push(idbatch *b, const unsigned char *id, int type)
{
	if (b->n == b->cap) {
		/* grow by half: a realloc that moves needs old + new at once */
		size_t cap = b->cap ? b->cap + b->cap / 2 : 4096;
		unsigned char *r;

		if (cap > SIZE_MAX / b->recsz)
			return -2;
		r = realloc(b->recs, cap * b->recsz);
		if (!r)
			return -2;
		b->recs = r;
		b->cap = cap;
	}
	memcpy(b->recs + b->n * b->recsz, id, b->rawsz);
	b->recs[b->n * b->recsz + b->rawsz] = (unsigned char)type;
	b->n++;
	return 0;
}

static void swap_recs(unsigned char *a, unsigned char *b, size_t recsz)
{
	unsigned char t[ABBREV_MAX_RAWSZ + 1];

	memcpy(t, a, recsz);
	memcpy(a, b, recsz);
	memcpy(b, t, recsz);
}

/* Insertion sort of a few records, comparing bytes from `d` on. */
static void insertion_sort(unsigned char *recs, size_t n, size_t recsz, size_t d)
{
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0; j--) {
			unsigned char *a = recs + (j - 1) * recsz, *b = a + recsz;

			if (memcmp(a + d, b + d, recsz - d) <= 0)
				break;
			swap_recs(a, b, recsz);
		}
}

/*
 * American flag sort (MSD radix, in place) on byte d: count the records
 * per byte value, swap each into its bucket's next free slot, then sort
 * each bucket on byte d + 1.  Records share bytes 0..d-1 here.  Small
 * buckets go to insertion sort; recursion depth is at most recsz.
 */
static void radix_sort(unsigned char *recs, size_t n, size_t recsz, size_t d)
{
	size_t count[256] = { 0 }, start[256], next[256];

	while (n > 32 && d < recsz) {
		for (size_t i = 0; i < n; i++)
			count[recs[i * recsz + d]]++;
		/* all in one bucket (a shard's first byte): go on with the next byte */
		if (count[recs[d]] == n) {
			count[recs[d]] = 0;
			d++;
			continue;
		}
		break;
	}
	if (d >= recsz)
		return;
	if (n <= 32) {
		insertion_sort(recs, n, recsz, d);
		return;
	}
	size_t pos = 0;

	for (int v = 0; v < 256; v++) {
		start[v] = next[v] = pos;
		pos += count[v];
	}
	for (int v = 0; v < 256; v++) {
		size_t end = start[v] + count[v];

		while (next[v] < end) {
			unsigned char *r = recs + next[v] * recsz;
			unsigned w = r[d];

			if (w == (unsigned)v)
				next[v]++;
			else
				swap_recs(r, recs + next[w]++ * recsz, recsz);
		}
	}
	for (int v = 0; v < 256; v++)
		if (count[v] > 1)
			radix_sort(recs + start[v] * recsz, count[v], recsz, d + 1);
}

void idbatch_sort_records(unsigned char *recs, size_t n, size_t recsz)
{
	radix_sort(recs, n, recsz, 0);
}

int idbatch_fill(idbatch *b, idsets *s, uint64_t *duplicates, char *err, size_t errsz)
{
	size_t rawsz = b->rawsz, recsz = b->recsz;
	idsets_bulk *bulk;
	int rc = 0;

	*duplicates = 0;
	idbatch_sort_records(b->recs, b->n, recsz);
	bulk = idsets_bulk_start(s, b->n);
	if (!bulk)
		return -2;
	for (size_t i = 0; i < b->n; i++) {
		const unsigned char *r = b->recs + i * recsz;

		if (i && !memcmp(r - recsz, r, rawsz)) {
			if (r[-1] != r[rawsz]) {
				char hex[ABBREV_MAX_HEXSZ + 1];

				hexid_fmt(hex, r, rawsz);
				snprintf(err, errsz, "%s is listed as a %s and as a %s", hex,
					 hexid_type_name(r[-1]), hexid_type_name(r[rawsz]));
				rc = -1;
				break;
			}
			(*duplicates)++;
			continue;
		}
		rc = idsets_bulk_add(bulk, r, r[rawsz]);
		if (rc < 0)
			break;
		rc = 0;
	}
	if (idsets_bulk_finish(bulk) && !rc)
		rc = -2;
	free(b->recs);
	b->recs = NULL;
	b->n = b->cap = 0;
	return rc;
}
