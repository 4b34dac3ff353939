/*
 * odb_midx.c - a multi-pack-index's header, chunks and offsets
 * (Documentation/technical/multi-pack-index.txt and gitformat-pack in
 * git): a 12-byte header ("MIDX", version 1 or 2, the hash, the number of
 * chunks, 0, the number of packs), a table of chunks (a 4-byte name and
 * an 8-byte offset each, then a row that ends the last), the chunks, and
 * the file's checksum.  The chunks read here: PNAM (the packs' index
 * names, each NUL-terminated), OIDF (fan-out), OIDL (the IDs), OOFF (for
 * each ID the pack it is taken from and its offset there; an offset with
 * the high bit set indexes LOFF, the 64-bit offsets, when there is one),
 * and RIDX (the reverse index).
 *
 * The pack walker reads one for its bitmap (walk_pack_midx.c); libgit2
 * reads one for its lookups and trusts its offsets as it trusts an
 * index's, so odb_check_packs() checks each against its pack here.
 */
#include <config.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "odb.h"

#define MIDX_HEADER 12
#define CHUNK_ROW 12
#define LARGE_OFFSET 0x80000000u

static int why_not(char *why, size_t whysz, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int why_not(char *why, size_t whysz, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, whysz, fmt, ap);
	va_end(ap);
	return 1;
}

int odb_midx_parse(odb_midx *m, const unsigned char *f, size_t size, size_t rawsz, char *why,
		   size_t whysz)
{
	size_t end, nchunks;

	memset(m, 0, sizeof(*m));
	if (size < MIDX_HEADER + rawsz)
		return why_not(why, whysz, "truncated");
	end = size - rawsz;
	if (memcmp(f, "MIDX", 4))
		return why_not(why, whysz, "not a multi-pack-index");
	if (f[4] != 1 && f[4] != 2)
		return why_not(why, whysz, "unsupported version %d", f[4]);
	if (f[5] != (rawsz == 32 ? 2 : 1))
		return why_not(why, whysz, "made for another hash");
	if (f[7])
		return why_not(why, whysz, "one of a chain (unsupported)");
	nchunks = f[6];
	m->npacks = odb_be32(f + 8);
	m->sum = f + end;
	if ((nchunks + 1) * CHUNK_ROW > end - MIDX_HEADER)
		return why_not(why, whysz, "truncated");
	for (size_t i = 0; i < nchunks; i++) {
		const unsigned char *row = f + MIDX_HEADER + i * CHUNK_ROW;
		uint64_t at = odb_be64(row + 4), next = odb_be64(row + 4 + CHUNK_ROW);
		odb_chunk *c = NULL;

		if (at > next || next > end)
			return why_not(why, whysz, "a chunk lies outside the file");
		if (!memcmp(row, "PNAM", 4))
			c = &m->pnam;
		else if (!memcmp(row, "OIDF", 4))
			c = &m->oidf;
		else if (!memcmp(row, "OIDL", 4))
			c = &m->oidl;
		else if (!memcmp(row, "OOFF", 4))
			c = &m->ooff;
		else if (!memcmp(row, "LOFF", 4))
			c = &m->loff;
		else if (!memcmp(row, "RIDX", 4))
			c = &m->ridx;
		if (c)
			*c = (odb_chunk){ f + at, (size_t)(next - at) };
	}
	if (!m->pnam.p || !m->oidf.p || !m->oidl.p || !m->ooff.p)
		return why_not(why, whysz, "a required chunk is missing");
	if (m->oidf.size != 1024)
		return why_not(why, whysz, "bad fan-out chunk");
	for (int b = 0; b < 256; b++) {
		uint32_t x = odb_be32(m->oidf.p + 4 * b);

		if (x < m->n)
			return why_not(why, whysz, "fan-out table is not monotone");
		m->n = x;
	}
	if (m->oidl.size / rawsz != m->n || m->oidl.size % rawsz ||
	    m->ooff.size / 8 != m->n || m->ooff.size % 8 || m->loff.size % 8 ||
	    (m->ridx.p && (m->ridx.size / 4 != m->n || m->ridx.size % 4)))
		return why_not(why, whysz, "chunk sizes do not match its %u objects", m->n);
	return 0;
}

int odb_midx_object(const odb_midx *m, uint32_t i, uint32_t *pack, uint64_t *off, char *why,
		    size_t whysz)
{
	const unsigned char *e = m->ooff.p + (size_t)i * 8;
	uint32_t o = odb_be32(e + 4);

	*pack = odb_be32(e);
	*off = o;
	if (*pack >= m->npacks)
		return why_not(why, whysz, "object %u in pack %u of %u", i, *pack, m->npacks);
	/* as git: the high bit indexes the 64-bit offsets only when there are some */
	if (m->loff.p && (o & LARGE_OFFSET)) {
		o &= ~LARGE_OFFSET;
		if (o >= m->loff.size / 8)
			return why_not(why, whysz, "large offset %u out of range", o);
		*off = odb_be64(m->loff.p + (size_t)o * 8);
	}
	return 0;
}

/*
 * Every offset of dir/pack/multi-pack-index inside the pack it names, of
 * those among db->packs (the packs libgit2 is to read).  A file that is
 * not a multi-pack-index this reader knows (a chain, a new version, a
 * damaged table of chunks) is left to libgit2, which checks its
 * structure; an offset is the one thing it trusts.  0 or an odb status.
 */
int odb_check_midx(odb *db, const char *dir)
{
	const unsigned char *map = NULL;
	size_t size = 0;
	char *path = odb_join(dir, "pack/multi-pack-index"), why[160];
	const pack_file **packs = NULL;
	odb_midx m;
	int rc;

	if (!path)
		return ODB_NOMEM;
	rc = odb_map_file(db, path, 1, &map, &size, NULL);
	if (rc == 1) { /* none */
		rc = 0;
		goto done;
	}
	if (rc || odb_midx_parse(&m, map, size, db->rawsz, why, sizeof(why)))
		goto done;
	if (m.npacks > m.pnam.size) {
		rc = 0; /* a bad names chunk: libgit2 refuses the file */
		goto done;
	}
	if (!(packs = calloc(m.npacks ? m.npacks : 1, sizeof(*packs)))) {
		rc = ODB_NOMEM;
		goto done;
	}
	/* each name's pack among those listed in the directory */
	const char *name = (const char *)m.pnam.p, *end = name + m.pnam.size;

	for (uint32_t i = 0; i < m.npacks; i++) {
		const char *nul = memchr(name, '\0', (size_t)(end - name));

		if (!nul)
			goto done;
		for (size_t k = 0; k < db->npacks && !packs[i]; k++) {
			const pack_file *pk = &db->packs[k];
			const char *base = strrchr(pk->idx_path, '/');

			if (pk->dir == dir && !strcmp(base ? base + 1 : pk->idx_path, name))
				packs[i] = pk;
		}
		name = nul + 1;
	}
	for (uint32_t i = 0; i < m.n && !rc; i++) {
		uint32_t p;
		uint64_t off;
		const pack_file *pk;

		if (odb_midx_object(&m, i, &p, &off, why, sizeof(why))) {
			rc = odb_fail(db, "%s: %s", path, why);
			break;
		}
		/* a pack that is not there: libgit2 cannot read from it either */
		if (!(pk = packs[p]))
			continue;
		if (off < 12 || off >= pk->pack_size - pk->rawsz)
			rc = odb_fail(db, "%s: offset %llu of object %u lies outside %s", path,
				      (unsigned long long)off, i, pk->pack_path);
	}
done:
	free(packs);
	odb_unmap(map, size);
	free(path);
	return rc;
}
