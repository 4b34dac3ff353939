/*
 * walk_bitmap.c - the four type bitmaps of a pack's .bitmap file.
 *
 * Layout (git's Documentation/technical/bitmap-format): "BITM", version 1
 * (16 bits), flags (16 bits), the number of commit bitmaps (32 bits), the
 * checksum of the pack it was made for (one hash), then the type bitmaps
 * of commits, trees, blobs and tags, each an EWAH bitmap: its size in
 * bits (32), its number of 64-bit words (32), the words, and the position
 * of its last run-length word (32), all big-endian.  The commit bitmaps,
 * optional tables and a trailing checksum follow; they are not needed.
 *
 * An EWAH stream is a sequence of chunks: a run-length word (bit 0: the
 * repeated bit, bits 1-32: how many 64-bit words of it, bits 33-63: how
 * many literal words follow), then that many literal words, whose bit b
 * is the stream's bit 64 * word + b.
 *
 * Nothing here trusts the file: a bitmap is only used when its checksum
 * is the pack's (a bitmap left from another pack is stale) and every
 * object gets exactly one type from it; whatever else is wrong, the
 * caller reads the pack instead, as git ignores a bitmap it cannot use.
 */
#include <config.h>

#include "walk_bitmap.h"
#include "bytes.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define TYPE_BITMAPS 4 /* commits, trees, blobs, tags: types 1..4 */

static int unusable(char *why, size_t whysz, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int unusable(char *why, size_t whysz, const char *fmt, ...)
{
	va_list ap;

	if (whysz) {
		va_start(ap, fmt);
		vsnprintf(why, whysz, fmt, ap);
		va_end(ap);
	}
	return BITMAP_UNUSABLE;
}

typedef struct {
	uint32_t n;
	const uint32_t *pos_by_rank;
	unsigned char *types;
	unsigned char type;
	char *why;
	size_t whysz;
} type_fill;

/* Give the object at rank r the bitmap's type; 0, or unusable. */
static int set_rank(type_fill *f, uint64_t r)
{
	uint32_t i;

	if (r >= f->n)
		return unusable(f->why, f->whysz, "type bit %llu past the pack's %u objects",
				(unsigned long long)r, f->n);
	i = f->pos_by_rank ? f->pos_by_rank[r] : (uint32_t)r;
	if (i >= f->n || f->types[i])
		return unusable(f->why, f->whysz, "the object at pack position %llu has two types",
				(unsigned long long)r);
	f->types[i] = f->type;
	return 0;
}

/* Walk one EWAH stream of `words` words at p, setting its bits' types. */
static int fill_ewah(type_fill *f, const unsigned char *p, uint64_t words)
{
	uint64_t w = 0, pos = 0;
	int rc;

	while (w < words) {
		uint64_t h = be64(p + 8 * w++);
		uint64_t run = (h >> 1) & 0xffffffffu, lit = h >> 33;

		if ((h & 1) && run) {
			if (pos > f->n || run * 64 > f->n - pos)
				return unusable(f->why, f->whysz,
						"a run of type bits past the pack's %u objects", f->n);
			for (uint64_t r = pos; r < pos + run * 64; r++)
				if ((rc = set_rank(f, r)))
					return rc;
		}
		/* past the objects only zero bits may follow: stop counting there */
		pos += run * 64;
		if (pos > f->n)
			pos = (uint64_t)f->n + 1;
		if (lit > words - w)
			return unusable(f->why, f->whysz, "a type bitmap's literal words run past its end");
		for (uint64_t k = 0; k < lit; k++) {
			uint64_t x = be64(p + 8 * w++);

			while (x) {
				if ((rc = set_rank(f, pos + (uint64_t)__builtin_ctzll(x))))
					return rc;
				x &= x - 1;
			}
			pos += 64;
			if (pos > f->n)
				pos = (uint64_t)f->n + 1;
		}
	}
	return 0;
}

int bitmap_pack_types(const unsigned char *bm, size_t size, size_t rawsz,
		      const unsigned char *pack_sum, uint32_t n, const uint32_t *pos_by_rank,
		      unsigned char *types, char *why, size_t whysz)
{
	size_t hdr = 12 + rawsz;
	const unsigned char *p, *end;
	type_fill f = { n, pos_by_rank, types, 0, why, whysz };
	int rc;

	if (size < hdr + rawsz)
		return unusable(why, whysz, "too small");
	if (memcmp(bm, "BITM", 4))
		return unusable(why, whysz, "not a bitmap file");
	if ((bm[4] << 8 | bm[5]) != 1)
		return unusable(why, whysz, "unsupported bitmap version %d", bm[4] << 8 | bm[5]);
	if (memcmp(bm + 12, pack_sum, rawsz))
		return unusable(why, whysz, "made for another pack (stale)");
	memset(types, 0, n);
	p = bm + hdr;
	end = bm + size - rawsz; /* the trailing checksum */
	for (int t = 1; t <= TYPE_BITMAPS; t++) {
		uint64_t words;

		if (end - p < 8)
			return unusable(why, whysz, "truncated type bitmap");
		words = be32(p + 4);
		p += 8;
		if ((uint64_t)(end - p) < words * 8 + 4)
			return unusable(why, whysz, "truncated type bitmap");
		if (words && be32(p + words * 8) >= words)
			return unusable(why, whysz, "a type bitmap's last run-length word lies past its end");
		f.type = (unsigned char)t;
		if ((rc = fill_ewah(&f, p, words)))
			return rc;
		p += words * 8 + 4;
	}
	for (uint32_t i = 0; i < n; i++)
		if (!types[i])
			return unusable(why, whysz, "an object at index position %u has no type", i);
	return BITMAP_OK;
}
