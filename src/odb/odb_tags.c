/*
 * odb_tags.c - what each annotated tag points at,
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
 * The entry and delta formats are parsed by pack_obj.c.
 */
#include <config.h>

#include "odb.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "pack_obj.h"
#include "tagobj.h"

#define MAX_TAG_BYTES (1u << 20) /* a tag, or a delta base of one, read whole */
#define MAX_TAG_DEPTH 64         /* deltas of tags; git's default depth is 50 */
#define LOOSE_TAG_READ 4096      /* bytes of a loose tag's file read */

/* Remember what a tag says; 0 or ODB_NOMEM. */
static int record(odb *db, const unsigned char *id, const unsigned char *obj, size_t len)
{
	unsigned char target[ABBREV_MAX_RAWSZ];
	odb_tag *t;
	int type;

	/* a malformed header gets no record: git cannot peel the tag either */
	if (tagobj_parse(obj, len, db->rawsz, target, &type))
		return 0;
	if (odb_grow(&db->tags, &db->tags_cap, db->ntags + 1, sizeof(*db->tags)))
		return ODB_NOMEM;
	t = &db->tags[db->ntags++];
	memset(t, 0, sizeof(*t));
	memcpy(t->id, id, db->rawsz);
	memcpy(t->target, target, db->rawsz);
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

/*
 * The object at pack offset `off`: whole (want 0) or at least its first
 * `want` bytes (a whole object is stored at most; a delta is always
 * rebuilt whole), in a new buffer.  0, -1 when it cannot be read here,
 * or ODB_NOMEM.
 */
static int obj_read(odb *db, const pack_file *pk, uint64_t off, size_t want, int depth,
		    unsigned char **out, size_t *outn)
{
	const unsigned char *e = pk->pack + pk->pack_size - db->rawsz;
	unsigned char *base = NULL, *delta = NULL;
	size_t bn, got;
	uint64_t boff = 0;
	pack_entry pe;
	int rc;

	if (depth > MAX_TAG_DEPTH ||
	    pack_entry_parse(pk->pack, (uint64_t)(e - pk->pack), off, db->rawsz, &pe))
		return -1;
	if (pe.type == PACK_OFS_DELTA) {
		boff = pe.base_off;
	} else if (pe.type == PACK_REF_DELTA) {
		uint32_t i = odb_index_find(pk, pe.base_id, db->rawsz);

		if (i == NOT_FOUND || odb_entry_offset(pk, i, &boff, NULL, 0))
			return -1;
	} else {
		size_t n = want && want < pe.size ? want : pe.size;

		if (pe.size > MAX_TAG_BYTES && !(want && want < pe.size))
			return -1;
		*out = malloc(n ? n : 1);
		if (!*out)
			return ODB_NOMEM;
		if (n && (inflate_prefix(pe.data, (size_t)(e - pe.data), *out, n, &got) || got != n)) {
			free(*out);
			*out = NULL;
			return -1;
		}
		*outn = n;
		return 0;
	}
	/* a delta: its base whole, then the delta applied */
	if (pe.size > MAX_TAG_BYTES)
		return -1;
	rc = obj_read(db, pk, boff, 0, depth + 1, &base, &bn);
	if (rc)
		return rc;
	delta = malloc(pe.size ? pe.size : 1);
	rc = !delta ? ODB_NOMEM
		    : pe.size && (inflate_prefix(pe.data, (size_t)(e - pe.data), delta, pe.size, &got) ||
				  got != pe.size)
		    ? -1 : pack_delta_apply(base, bn, delta, pe.size, MAX_TAG_BYTES, out, outn);
	if (rc == -2)
		rc = ODB_NOMEM;
	free(base);
	free(delta);
	return rc;
}

int odb_pack_tag(odb *db, const pack_file *pk, uint32_t i)
{
	unsigned char *obj = NULL;
	size_t n = 0;
	uint64_t off;
	int rc;

	if (odb_entry_offset(pk, i, &off, NULL, 0))
		return 0;
	rc = obj_read(db, pk, off, TAGOBJ_HEAD_MAX, 0, &obj, &n);
	if (rc == ODB_NOMEM)
		return rc;
	if (rc)
		return 0;
	rc = record(db, odb_pack_name(pk, i), obj, n);
	free(obj);
	return rc;
}

int odb_pack_tags(odb *db, const pack_file *pk)
{
	for (uint32_t i = 0; i < pk->n; i++) {
		int rc;

		if (pk->types[i] == ABBREV_TYPE_TAG && (rc = odb_pack_tag(db, pk, i)))
			return rc;
	}
	return 0;
}

int odb_loose_tag(odb *db, const char *path, const unsigned char *id)
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
	return record(db, id, nul + 1, got - (size_t)(nul + 1 - out));
}
