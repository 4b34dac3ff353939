/*
 * walk_pack_scan.c - step 2 of walk_pack.c: the type of every entry of a
 * pack into pk->types, from its entry headers (odb_scan.c), from its
 * reachability bitmap (walk_bitmap.c), or from the types table a scan
 * kept in the cache (subject_cache.h).
 */
#include <config.h>

#include "walk_pack_int.h"
#include "subject_cache.h"
#include "walk_bitmap.h"

#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* The files a types table of pk is for (subject_cache.h). */
static subject_bind pack_bind(const pack_file *pk)
{
	return (subject_bind){ subject_file_of(&pk->pack_id), subject_file_of(&pk->idx_id),
			       pk->pack_path };
}

/* The pack's checksum: its .idx ends with it, then its own (checked when mapped). */
static const unsigned char *pack_sum(const walker *w, const pack_file *pk)
{
	return pk->idx + pk->idx_size - 2 * w->db.rawsz;
}

/*
 * Keep the types of a scanned pack for the next walk, with its tags
 * (w->db.tags[k0 ..), which odb_pack_tags() recorded in position order,
 * an unreadable tag left out).  No cache (a read-only directory, a full
 * disk) is no error: one note, the same answer.
 */
static int keep_types(walker *w, const pack_file *pk, size_t k0)
{
	subject_bind b = pack_bind(pk);
	subject_tag *tags = NULL;
	size_t nt = w->db.ntags - k0, k = k0;
	int rc = 0;

	if (nt && !(tags = calloc(nt, sizeof(*tags))))
		return WALK_NOMEM;
	for (uint32_t i = 0, j = 0; i < pk->n && k < w->db.ntags; i++) {
		if (pk->types[i] != ABBREV_TYPE_TAG ||
		    memcmp(w->db.tags[k].id, odb_pack_name(pk, i), w->db.rawsz))
			continue;
		tags[j].pos = i;
		tags[j].type = w->db.tags[k].type;
		memcpy(tags[j++].target, w->db.tags[k++].target, w->db.rawsz);
	}
	/* each record is one of the pack's tags: all matched, else none kept */
	if (k == w->db.ntags &&
	    subject_types_save(w->cache_dir, w->db.rawsz, pack_sum(w, pk), pk->n, &b, pk->types,
			       tags, nt))
		rc = odb_note(&w->db, "cannot write the cache '%s': %s (later runs read every "
			      "pack again)", w->cache_dir, strerror(errno));
	free(tags);
	return rc;
}

/* The pack's maps, but for its .idx: the merge needs only the names. */
static void pack_done(walker *w, pack_file *pk)
{
	w->db.done += pk->n;
	progress_update(w->db.p, w->db.done);
	odb_unmap(pk->pack, pk->pack_size);
	odb_unmap(pk->rev, pk->rev_size);
	pk->pack = pk->rev = NULL;
}

int wp_pack_cached(walker *w, pack_file *pk)
{
	subject_bind b = pack_bind(pk);
	subject_tag *tags = NULL;
	size_t nt = 0;
	int rc;

	pk->types = malloc(pk->n ? pk->n : 1);
	if (!pk->types)
		return WALK_NOMEM;
	rc = subject_types_load(w->cache_dir, w->db.rawsz, pack_sum(w, pk), pk->n, &b, pk->types,
				&tags, &nt);
	if (!rc && odb_grow(&w->db.tags, &w->db.tags_cap, w->db.ntags + nt, sizeof(*w->db.tags)))
		rc = -1;
	if (rc) {
		free(tags);
		free(pk->types);
		pk->types = NULL;
		return rc < 0 ? WALK_NOMEM : 1;
	}
	/* what the scan's odb_pack_tags() recorded, read from the table: the pack is not read */
	for (size_t k = 0; k < nt; k++) {
		odb_tag *t = &w->db.tags[w->db.ntags++];

		memset(t, 0, sizeof(*t));
		memcpy(t->id, odb_pack_name(pk, tags[k].pos), w->db.rawsz);
		memcpy(t->target, tags[k].target, w->db.rawsz);
		t->type = tags[k].type;
	}
	free(tags);
	pack_done(w, pk);
	return 0;
}

/* Type every entry of a pack into pk->types, reading headers in pack order. */
int wp_pack_scan(walker *w, pack_file *pk)
{
	pack_order o = { 0 };
	size_t k0;
	int rc;

	pk->types = malloc(pk->n ? pk->n : 1);
	if (!pk->types)
		return WALK_NOMEM;
	if ((rc = odb_pack_types(&w->db, pk, &o)))
		goto done;
	for (uint32_t r = 0; r < pk->n; r++)
		pk->types[o.pos[r]] = o.type[r];
	k0 = w->db.ntags;
	rc = odb_pack_tags(&w->db, pk);
	if (!rc && w->cache_dir)
		rc = keep_types(w, pk, k0);
done:
	odb_order_free(&o);
	/* the merge needs only the names: give the pack's pages back now */
	pack_done(w, pk);
	return rc;
}

/*
 * A pack with a reachability bitmap: the bitmap's four type bitmaps say
 * which pack positions (ranks) are commits, trees, blobs and tags, so
 * only the offset order is needed (from the .rev file or the index) and
 * the pack itself is not read.  A bitmap made for another pack, or one
 * that does not give every object exactly one type, is passed over, as
 * git passes over a bitmap it cannot use: the scan reads the pack then.
 */
int wp_pack_bitmap(walker *w, pack_file *pk)
{
	uint32_t *pos = NULL;
	char why[128];
	int rc;

	if (!pk->bitmap)
		return 1;
	pk->types = malloc(pk->n ? pk->n : 1);
	if (!pk->types)
		return WALK_NOMEM;
	rc = odb_order_positions(&w->db, pk, &pos);
	/* the index ends with the pack's checksum (pack_check compared them) */
	if (!rc && bitmap_pack_types(pk->bitmap, pk->bitmap_size, w->db.rawsz,
				     pk->idx + pk->idx_size - 2 * w->db.rawsz, pk->n, pos,
				     pk->types, why, sizeof(why)) != BITMAP_OK) {
		rc = odb_note(&w->db, "%s: not used (%s); the pack is read instead", pk->bitmap_path, why);
		if (!rc)
			rc = 1;
	}
	free(pos);
	odb_unmap(pk->bitmap, pk->bitmap_size);
	pk->bitmap = NULL;
	if (rc) {
		free(pk->types);
		pk->types = NULL;
		return rc;
	}
	return wp_pack_typed(w, pk);
}

int wp_pack_typed(walker *w, pack_file *pk)
{
	int rc = odb_pack_tags(&w->db, pk);

	/* as after a scan: the merge needs only the names */
	pack_done(w, pk);
	return rc;
}
