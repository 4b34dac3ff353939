/*
 * walk_pack_tags.c - step 2's tags: what each annotated tag points at,
 * read from the pack or loose file itself, for the commit-ish set.
 *
 * A tag's "object <hex>\ntype <type>\n" lines are its first bytes
 * (tagobj.h), so a tag stored whole costs the inflation of about a
 * hundred bytes.  pack-objects may store a tag as a delta of another tag:
 * then the chain is rebuilt in memory (base inflated whole, each delta
 * applied), which tags, a few hundred bytes each, afford; an object past
 * MAX_TAG_BYTES is left unread.  A tag that cannot be read here (damaged
 * data, a chain too deep, too large) gets no record, and the command
 * layer reads it through libgit2 (walk_tags.c), which reports real
 * damage; nothing here fails the walk.
 *
 * Delta format: Documentation/gitformat-pack.txt in git ("Deltified
 * representation"): the base's and the result's sizes as little-endian
 * base-128 numbers, then instructions: bit 7 set copies from the base
 * (bits 0-3 say which offset bytes follow, bits 4-6 which size bytes; a
 * size of 0 means 0x10000), bit 7 clear inserts the next 1..127 bytes.
 */
#include <config.h>

#include "walk_pack_int.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "tagobj.h"

#define MAX_TAG_BYTES (1u << 20) /* a tag, or a delta base of one, read whole */
#define MAX_TAG_DEPTH 64         /* deltas of tags; git's default depth is 50 */
#define LOOSE_TAG_READ 4096      /* bytes of a loose tag's file read */

enum { OBJ_OFS_DELTA = 6, OBJ_REF_DELTA = 7 };

/*
 * The offset of index entry i, or -1: a bad offset is the scan's to
 * report, so wp_entry_offset() writes its message into a buffer of its
 * own here, and the walker's (which may hold a warning) is left alone.
 */
static int entry_off(const walker *w, const pack_file *pk, uint32_t i, uint64_t *off)
{
	walker quiet = *w;
	char err[256];

	quiet.err = err;
	quiet.errsz = sizeof(err);
	return wp_entry_offset(&quiet, pk, i, off) ? -1 : 0;
}

/* Remember what a tag says; 0 or WALK_NOMEM. */
static int record(walker *w, const unsigned char *id, const unsigned char *obj, size_t len)
{
	unsigned char target[ABBREV_MAX_RAWSZ];
	wp_tag *t;
	int type;

	/* a malformed header gets no record: git cannot peel the tag either */
	if (tagobj_parse(obj, len, w->rawsz, target, &type))
		return 0;
	if (wp_grow(&w->tags, &w->tags_cap, w->ntags + 1, sizeof(*w->tags)))
		return WALK_NOMEM;
	t = &w->tags[w->ntags++];
	memset(t, 0, sizeof(*t));
	memcpy(t->id, id, w->rawsz);
	memcpy(t->target, target, w->rawsz);
	t->type = (unsigned char)type;
	return 0;
}

/*
 * Inflate up to `want` bytes of the zlib stream at src[0..n) into out;
 * *got the bytes produced.  0, or -1 for a damaged stream.
 */
static int inflate_prefix(const unsigned char *src, size_t n, unsigned char *out, size_t want,
			  size_t *got)
{
	z_stream zs;
	int zr;

	memset(&zs, 0, sizeof(zs));
	if (inflateInit(&zs) != Z_OK)
		return -1;
	zs.next_in = (unsigned char *)src;
	zs.avail_in = n > UINT32_MAX ? UINT32_MAX : (unsigned)n;
	zs.next_out = out;
	zs.avail_out = (unsigned)want;
	zr = inflate(&zs, Z_SYNC_FLUSH);
	*got = want - zs.avail_out;
	inflateEnd(&zs);
	return zr == Z_OK || zr == Z_STREAM_END || (zr == Z_BUF_ERROR && *got) ? 0 : -1;
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

/* Apply delta d[0..dn) to base[0..bn): a new buffer in *out (*outn bytes), or -1. */
static int apply_delta(const unsigned char *base, size_t bn, const unsigned char *d, size_t dn,
		       unsigned char **out, size_t *outn)
{
	const unsigned char *p = d, *e = d + dn;
	size_t want_base, size, o = 0;
	unsigned char *res;

	if (delta_size(&p, e, &want_base) || want_base != bn || delta_size(&p, e, &size) ||
	    size > MAX_TAG_BYTES)
		return -1;
	res = malloc(size ? size : 1);
	if (!res)
		return WALK_NOMEM;
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
	*out = res;
	*outn = size;
	return 0;
bad:
	free(res);
	return -1;
}

/*
 * The object at pack offset `off`: whole (want 0) or at least its first
 * `want` bytes (a whole object is stored at most; a delta is always
 * rebuilt whole), in a new buffer.  0, -1 when it cannot be read here,
 * or WALK_NOMEM.
 */
static int obj_read(walker *w, const pack_file *pk, uint64_t off, size_t want, int depth,
		    unsigned char **out, size_t *outn)
{
	const unsigned char *p, *e = pk->pack + pk->pack_size - w->rawsz;
	unsigned char *base = NULL, *delta = NULL;
	size_t size = 0, bn, got;
	unsigned shift = 4, c;
	uint64_t boff = 0;
	int t, rc;

	if (depth > MAX_TAG_DEPTH || off < 12 || off >= (uint64_t)(e - pk->pack))
		return -1;
	p = pk->pack + off;
	c = *p++;
	t = (c >> 4) & 7;
	size = c & 15;
	while (c & 0x80) {
		if (p >= e || shift > 60)
			return -1;
		c = *p++;
		size |= (size_t)(c & 127) << shift;
		shift += 7;
	}
	if (t == OBJ_OFS_DELTA) {
		uint64_t rel;

		if (p >= e)
			return -1;
		c = *p++;
		rel = c & 127;
		while (c & 128) {
			if (p >= e || (rel >> 56))
				return -1;
			c = *p++;
			rel = ((rel + 1) << 7) | (c & 127);
		}
		if (!rel || rel > off)
			return -1;
		boff = off - rel;
	} else if (t == OBJ_REF_DELTA) {
		uint32_t i;

		if ((size_t)(e - p) < w->rawsz)
			return -1;
		i = wp_index_find(pk, p, w->rawsz);
		p += w->rawsz;
		if (i == NOT_FOUND || entry_off(w, pk, i, &boff))
			return -1;
	} else if (t < ABBREV_TYPE_COMMIT || t > ABBREV_TYPE_TAG) {
		return -1;
	}
	if (t != OBJ_OFS_DELTA && t != OBJ_REF_DELTA) {
		size_t n = want && want < size ? want : size;

		if (size > MAX_TAG_BYTES && !(want && want < size))
			return -1;
		*out = malloc(n ? n : 1);
		if (!*out)
			return WALK_NOMEM;
		if (n && (inflate_prefix(p, (size_t)(e - p), *out, n, &got) || got != n)) {
			free(*out);
			*out = NULL;
			return -1;
		}
		*outn = n;
		return 0;
	}
	/* a delta: its base whole, then the delta applied */
	if (size > MAX_TAG_BYTES)
		return -1;
	rc = obj_read(w, pk, boff, 0, depth + 1, &base, &bn);
	if (rc)
		return rc;
	delta = malloc(size ? size : 1);
	rc = !delta ? WALK_NOMEM
		    : size && (inflate_prefix(p, (size_t)(e - p), delta, size, &got) || got != size)
		    ? -1 : apply_delta(base, bn, delta, size, out, outn);
	free(base);
	free(delta);
	return rc;
}

int wp_pack_tags(walker *w, const pack_file *pk)
{
	for (uint32_t i = 0; i < pk->n; i++) {
		unsigned char *obj = NULL;
		size_t n = 0;
		uint64_t off;
		int rc;

		if (pk->types[i] != ABBREV_TYPE_TAG || entry_off(w, pk, i, &off))
			continue;
		rc = obj_read(w, pk, off, TAGOBJ_HEAD_MAX, 0, &obj, &n);
		if (rc == WALK_NOMEM)
			return rc;
		if (!rc) {
			rc = record(w, wp_pack_name(pk, i), obj, n);
			free(obj);
			if (rc)
				return rc;
		}
	}
	return 0;
}

int wp_loose_tag(walker *w, const char *path, const unsigned char *id)
{
	unsigned char in[LOOSE_TAG_READ], out[64 + TAGOBJ_HEAD_MAX];
	const unsigned char *nul;
	size_t got = 0;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0; /* gone since its header was read: no record */
	n = read(fd, in, sizeof(in));
	close(fd);
	if (n <= 0 || inflate_prefix(in, (size_t)n, out, sizeof(out), &got))
		return 0;
	/* "tag <size>\0" comes first */
	nul = memchr(out, 0, got);
	if (!nul)
		return 0;
	return record(w, id, nul + 1, got - (size_t)(nul + 1 - out));
}

int wp_tags_to_sets(walker *w, idsets *s)
{
	for (size_t i = 0; i < w->ntags; i++)
		if (idsets_tag_target(s, w->tags[i].id, w->tags[i].target, w->tags[i].type) == -2)
			return WALK_NOMEM;
	return 0;
}
