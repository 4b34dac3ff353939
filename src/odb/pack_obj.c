/*
 * pack_obj.c - a pack entry's header and the delta format (pack_obj.h).
 * Every number is checked against the bytes that are there before it is
 * used: a damaged pack gives -1, never a read past the map.
 */
#include <config.h>

#include "pack_obj.h"

#include <stdlib.h>
#include <string.h>

int pack_entry_parse(const unsigned char *pack, uint64_t end, uint64_t off, size_t rawsz,
		     pack_entry *e)
{
	const unsigned char *p, *pe = pack + end;
	unsigned shift = 4, c;
	size_t size;

	memset(e, 0, sizeof(*e));
	if (off < 12 || off >= end)
		return -1;
	p = pack + off;
	c = *p++;
	e->type = (c >> 4) & 7;
	size = c & 15;
	while (c & 0x80) {
		if (p >= pe || shift > 60)
			return -1;
		c = *p++;
		size |= (size_t)(c & 127) << shift;
		shift += 7;
	}
	e->size = size;
	if (e->type == PACK_OFS_DELTA) {
		uint64_t rel;

		if (p >= pe)
			return -1;
		c = *p++;
		rel = c & 127;
		while (c & 128) {
			if (p >= pe || (rel >> 56))
				return -1;
			c = *p++;
			rel = ((rel + 1) << 7) | (c & 127);
		}
		if (!rel || rel > off)
			return -1;
		e->base_off = off - rel;
	} else if (e->type == PACK_REF_DELTA) {
		if ((size_t)(pe - p) < rawsz)
			return -1;
		e->base_id = p;
		p += rawsz;
	} else if (e->type < 1 || e->type > 4) {
		return -1;
	}
	e->data = p;
	return 0;
}

/* A delta's size numbers: little-endian base-128.  0, or -1. */
static int delta_size(const unsigned char **p, const unsigned char *e, size_t *out)
{
	size_t v = 0;
	unsigned shift = 0;
	unsigned c;

	do {
		if (*p >= e || shift > 28)
			return -1;
		c = *(*p)++;
		v |= (size_t)(c & 127) << shift;
		shift += 7;
	} while (c & 128);
	*out = v;
	return 0;
}

int pack_delta_apply(const unsigned char *base, size_t bn, const unsigned char *d, size_t dn,
		     size_t max, unsigned char **out, size_t *outn)
{
	const unsigned char *p = d, *e = d + dn;
	size_t want_base, size, o = 0;
	unsigned char *res;

	if (delta_size(&p, e, &want_base) || want_base != bn || delta_size(&p, e, &size) ||
	    size > max)
		return -1;
	res = malloc(size + 1);
	if (!res)
		return -2;
	while (p < e) {
		unsigned op = *p++;

		if (op & 0x80) {
			size_t off = 0, len = 0;

			for (int i = 0; i < 4; i++)
				if (op & (1u << i)) {
					if (p >= e)
						goto bad;
					off |= (size_t)*p++ << (8 * i);
				}
			for (int i = 0; i < 3; i++)
				if (op & (0x10u << i)) {
					if (p >= e)
						goto bad;
					len |= (size_t)*p++ << (8 * i);
				}
			if (!len)
				len = 0x10000;
			if (off > bn || len > bn - off || len > size - o)
				goto bad;
			memcpy(res + o, base + off, len);
			o += len;
		} else if (op) {
			if (op > (size_t)(e - p) || op > size - o)
				goto bad;
			memcpy(res + o, p, op);
			p += op;
			o += op;
		} else {
			goto bad; /* reserved */
		}
	}
	if (o != size)
		goto bad;
	res[size] = '\0';
	*out = res;
	*outn = size;
	return 0;
bad:
	free(res);
	return -1;
}
