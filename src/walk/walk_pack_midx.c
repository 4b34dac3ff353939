/*
 * walk_pack_midx.c - step 2 from a multi-pack-index's reachability bitmap
 * (git multi-pack-index write --bitmap, git repack -adb --write-midx, what
 * hosting sites keep): the types of every object of the packs it covers,
 * without reading those packs.
 *
 * A multi-pack-index (Documentation/technical/multi-pack-index.txt and
 * gitformat-pack in git) lists the objects of several packs once each, in
 * ID order: a 12-byte header ("MIDX", version 1 or 2, the hash, the number
 * of chunks, 0, the number of packs), a table of chunks (a 4-byte name and
 * an 8-byte offset each, then a row that ends the last), the chunks, and
 * the file's checksum.  The chunks used here: PNAM (the packs' index
 * names, each NUL-terminated), OIDF (fan-out), OIDL (the IDs), OOFF (for
 * each ID the pack it is taken from and its offset there; an offset with
 * the high bit set indexes LOFF, the 64-bit offsets, when there is one),
 * and RIDX (the reverse index, which git 2.31-2.34 wrote beside the index
 * as multi-pack-index-<checksum>.rev instead).
 *
 * Its bitmap, multi-pack-index-<checksum>.bitmap, is a pack bitmap whose
 * "pack" is the pseudo-pack: every object of the index in the order of
 * the objects of the preferred pack, then the others by pack and offset.
 * The reverse index gives that order (rank -> index position), the four
 * type bitmaps (walk_bitmap.c) a type by rank, so by index position.
 *
 * Nothing is trusted that a wrong count could come from.  The bitmap and
 * the reverse index must name the index's checksum; the reverse index
 * must be the pseudo-pack order the offsets give (every rank's object
 * after the one before); each index ID must be, at that offset, in the
 * pack the index says (its .idx names it there), and every ID of every
 * covered pack in the index.  Whatever fails, the packs are scanned as if
 * there were no multi-pack-index, and a note says why: an unknown
 * version, a stale or damaged file, a covered pack that is not there.
 */
#include <config.h>

#include "walk_pack_int.h"
#include "walk_bitmap.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MIDX_HEADER 12
#define CHUNK_ROW 12
#define LARGE_OFFSET 0x80000000u

typedef struct {
	const unsigned char *p;
	size_t size;
} chunk;

/* The multi-pack-index as read, its chunks checked against its size. */
typedef struct {
	uint32_t npacks, n;
	chunk pnam, oidf, oidl, ooff, loff, ridx;
	const unsigned char *sum;  /* its trailing checksum */
	pack_file **packs;         /* by pack number */
	uint32_t *pos;             /* index position by rank (pseudo-pack order) */
	unsigned char *types;      /* type by index position */
	const unsigned char *rev;  /* a multi-pack-index-<sum>.rev, mapped */
	size_t rev_size;
	char *rev_path;
	char why[160];             /* why it cannot be used */
} midx;

static int refuse(midx *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int refuse(midx *m, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(m->why, sizeof(m->why), fmt, ap);
	va_end(ap);
	return 1;
}

/* "<dir>/pack/multi-pack-index-<hex of sum><ext>", malloc'ed. */
static char *sibling_path(const char *dir, const unsigned char *sum, size_t rawsz, const char *ext)
{
	size_t dl = strlen(dir), el = strlen(ext);
	char *s = malloc(dl + sizeof("/pack/multi-pack-index-") + 2 * rawsz + el);

	if (s) {
		char *o = s + sprintf(s, "%s/pack/multi-pack-index-", dir);

		for (size_t i = 0; i < rawsz; i++)
			o += sprintf(o, "%02x", sum[i]);
		memcpy(o, ext, el + 1);
	}
	return s;
}

int wp_midx_find(walker *w, const char *dir)
{
	midx_file mx = { .dir = dir };
	int rc;

	if (!(mx.path = odb_join(dir, "pack/multi-pack-index")))
		return WALK_NOMEM;
	/* no multi-pack-index, or one that cannot be read: the packs are scanned */
	rc = odb_map_file(&w->db, mx.path, 1, &mx.map, &mx.size, NULL);
	if (rc || mx.size < MIDX_HEADER + w->db.rawsz)
		goto none;
	mx.bitmap_path = sibling_path(dir, mx.map + mx.size - w->db.rawsz, w->db.rawsz, ".bitmap");
	if (!mx.bitmap_path) {
		rc = WALK_NOMEM;
		goto none;
	}
	/* a multi-pack-index without a bitmap is common and worth no note */
	rc = odb_map_file(&w->db, mx.bitmap_path, 1, &mx.bitmap, &mx.bitmap_size, NULL);
	if (rc || !mx.bitmap)
		goto none;
	if (odb_grow(&w->midx, &w->midx_cap, w->nmidx + 1, sizeof(*w->midx))) {
		rc = WALK_NOMEM;
		goto none;
	}
	w->midx[w->nmidx++] = mx;
	return 0;
none:
	odb_unmap(mx.map, mx.size);
	odb_unmap(mx.bitmap, mx.bitmap_size);
	free(mx.path);
	free(mx.bitmap_path);
	return rc == WALK_NOMEM ? rc : 0;
}

/* The header and the table of chunks; 0 or 1 (m->why says why not). */
static int read_chunks(walker *w, const midx_file *mx, midx *m)
{
	const unsigned char *f = mx->map;
	size_t end = mx->size - w->db.rawsz, nchunks;

	if (memcmp(f, "MIDX", 4))
		return refuse(m, "not a multi-pack-index");
	if (f[4] != 1 && f[4] != 2)
		return refuse(m, "unsupported version %d", f[4]);
	if (f[5] != (w->db.rawsz == 32 ? 2 : 1))
		return refuse(m, "made for another hash");
	if (f[7])
		return refuse(m, "one of a chain (unsupported)");
	nchunks = f[6];
	m->npacks = odb_be32(f + 8);
	m->sum = f + end;
	if ((nchunks + 1) * CHUNK_ROW > end - MIDX_HEADER)
		return refuse(m, "truncated");
	for (size_t i = 0; i < nchunks; i++) {
		const unsigned char *row = f + MIDX_HEADER + i * CHUNK_ROW;
		uint64_t at = odb_be64(row + 4), next = odb_be64(row + 4 + CHUNK_ROW);
		chunk *c = NULL;

		if (at > next || next > end)
			return refuse(m, "a chunk lies outside the file");
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
			*c = (chunk){ f + at, (size_t)(next - at) };
	}
	if (!m->pnam.p || !m->oidf.p || !m->oidl.p || !m->ooff.p)
		return refuse(m, "a required chunk is missing");
	if (m->oidf.size != 1024)
		return refuse(m, "bad fan-out chunk");
	for (int b = 0; b < 256; b++) {
		uint32_t x = odb_be32(m->oidf.p + 4 * b);

		if (x < m->n)
			return refuse(m, "fan-out table is not monotone");
		m->n = x;
	}
	if (m->oidl.size / w->db.rawsz != m->n || m->oidl.size % w->db.rawsz ||
	    m->ooff.size / 8 != m->n || m->ooff.size % 8 || m->loff.size % 8 ||
	    (m->ridx.p && (m->ridx.size / 4 != m->n || m->ridx.size % 4)))
		return refuse(m, "chunk sizes do not match its %u objects", m->n);
	return 0;
}

/* The pack of each PNAM name, among the packs listed in its directory. */
static int find_packs(walker *w, const midx_file *mx, midx *m)
{
	const char *name = (const char *)m->pnam.p, *end = name + m->pnam.size;

	if (!m->npacks || m->npacks > m->pnam.size)
		return refuse(m, "bad pack names chunk");
	if (!(m->packs = calloc(m->npacks, sizeof(*m->packs))))
		return WALK_NOMEM;
	for (uint32_t i = 0; i < m->npacks; i++) {
		const char *nul = memchr(name, '\0', (size_t)(end - name));

		if (!nul)
			return refuse(m, "bad pack names chunk");
		for (size_t k = 0; k < w->db.npacks && !m->packs[i]; k++) {
			pack_file *pk = &w->db.packs[k];
			const char *base = strrchr(pk->idx_path, '/');

			if (pk->dir == mx->dir && !strcmp(base ? base + 1 : pk->idx_path, name))
				m->packs[i] = pk;
		}
		if (!m->packs[i])
			return refuse(m, "names %s, which is not there", name);
		for (uint32_t j = 0; j < i; j++)
			if (m->packs[j] == m->packs[i])
				return refuse(m, "names %s twice", name);
		name = nul + 1;
	}
	return 0;
}

/* Index position i's pack number and offset; 0 or 1. */
static int object_at(midx *m, uint32_t i, uint32_t *pack, uint64_t *off)
{
	const unsigned char *e = m->ooff.p + (size_t)i * 8;
	uint32_t o = odb_be32(e + 4);

	*pack = odb_be32(e);
	*off = o;
	if (*pack >= m->npacks)
		return refuse(m, "object %u in pack %u of %u", i, *pack, m->npacks);
	/* as git: the high bit indexes the 64-bit offsets only when there are some */
	if (m->loff.p && (o & LARGE_OFFSET)) {
		o &= ~LARGE_OFFSET;
		if (o >= m->loff.size / 8)
			return refuse(m, "large offset %u out of range", o);
		*off = odb_be64(m->loff.p + (size_t)o * 8);
	}
	return 0;
}

/*
 * The reverse index, from the RIDX chunk or the .rev file (its header and
 * the index's checksum in its trailer checked), into m->pos; then checked
 * to be the pseudo-pack order: the preferred pack's objects (that of rank
 * 0) first, then the others by pack number, each pack's by offset, every
 * rank after the one before, which also makes it a permutation.
 */
static int read_order(walker *w, const midx_file *mx, midx *m)
{
	const unsigned char *r = m->ridx.p;
	uint32_t pref = 0;
	uint64_t prev_key = 0, prev_off = 0;
	int rc;

	if (!r) {
		if (!(m->rev_path = sibling_path(mx->dir, m->sum, w->db.rawsz, ".rev")))
			return WALK_NOMEM;
		rc = odb_map_file(&w->db, m->rev_path, 1, &m->rev, &m->rev_size, NULL);
		if (rc == WALK_NOMEM)
			return rc;
		if (rc)
			return refuse(m, "no reverse index (neither a RIDX chunk nor %s)", m->rev_path);
		if (m->rev_size != 12 + (size_t)m->n * 4 + 2 * w->db.rawsz ||
		    memcmp(m->rev, "RIDX", 4) || odb_be32(m->rev + 4) != 1 ||
		    odb_be32(m->rev + 8) != (w->db.rawsz == 32 ? 2u : 1u))
			return refuse(m, "%s: bad header or size", m->rev_path);
		if (memcmp(m->rev + m->rev_size - 2 * w->db.rawsz, m->sum, w->db.rawsz))
			return refuse(m, "%s: made for another multi-pack-index (stale)", m->rev_path);
		r = m->rev + 12;
	}
	if (!(m->pos = malloc((size_t)(m->n ? m->n : 1) * sizeof(*m->pos))))
		return WALK_NOMEM;
	for (uint32_t k = 0; k < m->n; k++) {
		uint32_t i = odb_be32(r + (size_t)k * 4), pack;
		uint64_t off, key;

		if (i >= m->n)
			return refuse(m, "reverse index entry %u out of range", k);
		if (object_at(m, i, &pack, &off))
			return 1;
		if (!k)
			pref = pack;
		/* the preferred pack sorts first, then the pack numbers */
		key = pack == pref ? 0 : (uint64_t)pack + 1;
		if (k && (key < prev_key || (key == prev_key && off <= prev_off)))
			return refuse(m, "reverse index not in pack order at %u", k);
		prev_key = key;
		prev_off = off;
		m->pos[k] = i;
	}
	return 0;
}

/*
 * Give each covered pack's entries their types.  The entries the index
 * takes from a pack come in ID order, so in that pack's index order: one
 * cursor a pack pairs each with the pack's next entry at the same offset
 * (one object, whatever the index's ID list says: the bitmap's type is
 * that of the object at this pack and offset).  The entries passed over
 * are objects the index takes from another pack: each is looked up by ID
 * in the index, and must be, at the entry the index takes it from, that
 * pack's entry of the same name.  0, 1, or an error.
 */
static int spread_types(walker *w, midx *m)
{
	uint32_t *cursor = calloc(m->npacks, sizeof(*cursor)), *entry = NULL;
	uint64_t total = 0, skipped = 0;
	int rc = 0;

	for (uint32_t p = 0; p < m->npacks; p++)
		total += m->packs[p]->n;
	/* with no object in two packs, no entry is passed over, none looked up */
	if (!cursor || (total > m->n && !(entry = malloc((size_t)m->n * sizeof(*entry))))) {
		rc = WALK_NOMEM;
		goto done;
	}
	for (uint32_t p = 0; p < m->npacks; p++)
		if (!(m->packs[p]->types = calloc(m->packs[p]->n ? m->packs[p]->n : 1, 1))) {
			rc = WALK_NOMEM;
			goto done;
		}
	for (uint32_t i = 0; i < m->n && !rc; i++) {
		uint32_t p;
		uint64_t off, at = 0;
		pack_file *pk;

		if ((rc = object_at(m, i, &p, &off)))
			break;
		pk = m->packs[p];
		while (cursor[p] < pk->n && !(rc = odb_entry_offset(pk, cursor[p], &at, w->db.err, w->db.errsz)) && at != off) {
			cursor[p]++;
			skipped++;
		}
		if (!rc && cursor[p] >= pk->n)
			rc = refuse(m, "object %u is not at offset %llu of %s", i,
				    (unsigned long long)off, pk->idx_path);
		if (!rc) {
			if (entry)
				entry[i] = cursor[p];
			pk->types[cursor[p]++] = m->types[i];
		}
	}
	for (uint32_t p = 0; p < m->npacks && !rc; p++)
		skipped += m->packs[p]->n - cursor[p];
	if (!rc && skipped && !entry)
		rc = refuse(m, "lists %u objects, its packs hold %llu", m->n, (unsigned long long)total);
	/* the objects in two packs, from the copy the index lists */
	for (uint32_t p = 0; p < m->npacks && skipped && !rc; p++) {
		pack_file *pk = m->packs[p];

		for (uint32_t k = 0; k < pk->n && !rc; k++) {
			const unsigned char *id = odb_pack_name(pk, k);
			uint32_t i, q;
			uint64_t off;

			if (pk->types[k])
				continue;
			i = odb_fanout_find(m->oidf.p, m->oidl.p, w->db.rawsz, id, w->db.rawsz);
			if (i == NOT_FOUND)
				rc = refuse(m, "does not list entry %u of %s", k, pk->idx_path);
			else if (!(rc = object_at(m, i, &q, &off)) &&
				 memcmp(odb_pack_name(m->packs[q], entry[i]), id, w->db.rawsz))
				rc = refuse(m, "lists object %u at an entry of another name", i);
			if (!rc)
				pk->types[k] = m->types[i];
			skipped--;
		}
	}
done:
	if (rc)
		for (uint32_t p = 0; p < m->npacks; p++) {
			free(m->packs[p]->types);
			m->packs[p]->types = NULL;
		}
	free(cursor);
	free(entry);
	return rc;
}

int wp_midx_types(walker *w, midx_file *mx)
{
	midx m = { 0 };
	int rc, usable = 0;

	rc = read_chunks(w, mx, &m);
	if (!rc)
		rc = find_packs(w, mx, &m);
	if (!rc)
		rc = read_order(w, mx, &m);
	if (!rc && !(m.types = malloc(m.n ? m.n : 1)))
		rc = WALK_NOMEM;
	/* its name says which index it is for; its header had better agree */
	if (!rc && mx->bitmap_size >= 12 + w->db.rawsz && !memcmp(mx->bitmap, "BITM", 4) &&
	    memcmp(mx->bitmap + 12, m.sum, w->db.rawsz))
		rc = refuse(&m, "made for another multi-pack-index (stale)");
	if (!rc && bitmap_pack_types(mx->bitmap, mx->bitmap_size, w->db.rawsz, m.sum, m.n, m.pos,
				     m.types, m.why, sizeof(m.why)) != BITMAP_OK)
		rc = 1;
	if (!rc)
		usable = !(rc = spread_types(w, &m));
	/* a bad offset in an index (odb_entry_offset) is the scan's to report */
	if (rc == WALK_ERR)
		rc = refuse(&m, "%s", w->db.err);
	if (rc == 1)
		rc = odb_note(&w->db, "%s: its bitmap is not used (%s); its packs are read instead",
			     mx->path, m.why);
	for (uint32_t p = 0; usable && p < m.npacks && !rc; p++)
		rc = wp_pack_typed(w, m.packs[p]);
	odb_unmap(m.rev, m.rev_size);
	free(m.rev_path);
	free(m.packs);
	free(m.pos);
	free(m.types);
	/* the merge reads the packs' own indexes: the multi-pack-index is done with */
	odb_unmap(mx->map, mx->size);
	odb_unmap(mx->bitmap, mx->bitmap_size);
	mx->map = mx->bitmap = NULL;
	return rc;
}
