/*
 * walk_pack_midx.c - step 2 from a multi-pack-index's reachability bitmap
 * (git multi-pack-index write --bitmap, git repack -adb --write-midx, what
 * hosting sites keep): the types of every object of the packs it covers,
 * without reading those packs.
 *
 * A multi-pack-index (its format: odb_midx.c, which parses it) lists the
 * objects of several packs once each, in ID order, each with the pack it
 * is taken from and its offset there; RIDX (the reverse index, which git
 * 2.31-2.34 wrote beside the index as multi-pack-index-<checksum>.rev
 * instead) gives the pseudo-pack order.
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

/* The multi-pack-index as read, its chunks checked against its size. */
typedef struct {
	odb_midx x;                /* its chunks (odb_midx.c) */
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
	return odb_midx_parse(&m->x, mx->map, mx->size, w->db.rawsz, m->why, sizeof(m->why));
}

/* The pack of each PNAM name, among the packs listed in its directory. */
static int find_packs(walker *w, const midx_file *mx, midx *m)
{
	const char *name = (const char *)m->x.pnam.p, *end = name + m->x.pnam.size;

	if (!m->x.npacks || m->x.npacks > m->x.pnam.size)
		return refuse(m, "bad pack names chunk");
	if (!(m->packs = calloc(m->x.npacks, sizeof(*m->packs))))
		return WALK_NOMEM;
	for (uint32_t i = 0; i < m->x.npacks; i++) {
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
	return odb_midx_object(&m->x, i, pack, off, m->why, sizeof(m->why));
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
	const unsigned char *r = m->x.ridx.p;
	uint32_t pref = 0;
	uint64_t prev_key = 0, prev_off = 0;
	int rc;

	if (!r) {
		if (!(m->rev_path = sibling_path(mx->dir, m->x.sum, w->db.rawsz, ".rev")))
			return WALK_NOMEM;
		rc = odb_map_file(&w->db, m->rev_path, 1, &m->rev, &m->rev_size, NULL);
		if (rc == WALK_NOMEM)
			return rc;
		if (rc)
			return refuse(m, "no reverse index (neither a RIDX chunk nor %s)", m->rev_path);
		if (m->rev_size != 12 + (size_t)m->x.n * 4 + 2 * w->db.rawsz ||
		    memcmp(m->rev, "RIDX", 4) || odb_be32(m->rev + 4) != 1 ||
		    odb_be32(m->rev + 8) != (w->db.rawsz == 32 ? 2u : 1u))
			return refuse(m, "%s: bad header or size", m->rev_path);
		if (memcmp(m->rev + m->rev_size - 2 * w->db.rawsz, m->x.sum, w->db.rawsz))
			return refuse(m, "%s: made for another multi-pack-index (stale)", m->rev_path);
		r = m->rev + 12;
	}
	if (!(m->pos = malloc((size_t)(m->x.n ? m->x.n : 1) * sizeof(*m->pos))))
		return WALK_NOMEM;
	for (uint32_t k = 0; k < m->x.n; k++) {
		uint32_t i = odb_be32(r + (size_t)k * 4), pack;
		uint64_t off, key;

		if (i >= m->x.n)
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
	uint32_t *cursor = calloc(m->x.npacks, sizeof(*cursor)), *entry = NULL;
	uint64_t total = 0, skipped = 0;
	int rc = 0;

	for (uint32_t p = 0; p < m->x.npacks; p++)
		total += m->packs[p]->n;
	/* with no object in two packs, no entry is passed over, none looked up */
	if (!cursor || (total > m->x.n && !(entry = malloc((size_t)m->x.n * sizeof(*entry))))) {
		rc = WALK_NOMEM;
		goto done;
	}
	for (uint32_t p = 0; p < m->x.npacks; p++)
		if (!(m->packs[p]->types = calloc(m->packs[p]->n ? m->packs[p]->n : 1, 1))) {
			rc = WALK_NOMEM;
			goto done;
		}
	for (uint32_t i = 0; i < m->x.n && !rc; i++) {
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
	for (uint32_t p = 0; p < m->x.npacks && !rc; p++)
		skipped += m->packs[p]->n - cursor[p];
	if (!rc && skipped && !entry)
		rc = refuse(m, "lists %u objects, its packs hold %llu", m->x.n, (unsigned long long)total);
	/* the objects in two packs, from the copy the index lists */
	for (uint32_t p = 0; p < m->x.npacks && skipped && !rc; p++) {
		pack_file *pk = m->packs[p];

		for (uint32_t k = 0; k < pk->n && !rc; k++) {
			const unsigned char *id = odb_pack_name(pk, k);
			uint32_t i, q;
			uint64_t off;

			if (pk->types[k])
				continue;
			i = odb_fanout_find(m->x.oidf.p, m->x.oidl.p, w->db.rawsz, id, w->db.rawsz);
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
		for (uint32_t p = 0; p < m->x.npacks; p++) {
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
	if (!rc && !(m.types = malloc(m.x.n ? m.x.n : 1)))
		rc = WALK_NOMEM;
	/* its name says which index it is for; its header had better agree */
	if (!rc && mx->bitmap_size >= 12 + w->db.rawsz && !memcmp(mx->bitmap, "BITM", 4) &&
	    memcmp(mx->bitmap + 12, m.x.sum, w->db.rawsz))
		rc = refuse(&m, "made for another multi-pack-index (stale)");
	if (!rc && bitmap_pack_types(mx->bitmap, mx->bitmap_size, w->db.rawsz, m.x.sum, m.x.n, m.pos,
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
	for (uint32_t p = 0; usable && p < m.x.npacks && !rc; p++)
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
