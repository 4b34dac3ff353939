/*
 * walk_pack_merge.c - step 3 of walk_pack.c: a k-way merge of the sorted
 * name lists of all packs and the sorted loose IDs into the ID sets, in
 * key order, each ID once.
 */
#include <config.h>

#include "walk_pack_int.h"

#include <stdlib.h>
#include <string.h>


/*
 * One sorted source of IDs: a pack's index or the loose objects.  `key`
 * holds the current ID's first 8 bytes as a number, so most comparisons
 * of the merge are one integer compare instead of a memcmp call.
 */
typedef struct {
	uint64_t key;
	const unsigned char *id, *type; /* current entry */
	size_t id_stride, type_stride;
	size_t i, n;
	pack_file *pk;                  /* NULL for the loose objects */
} source;

/* The first 8 bytes of an ID, big-endian (zero-padded below 8 bytes). */
static uint64_t id_key(const unsigned char *id, size_t rawsz)
{
	uint64_t k = 0;

	if (rawsz >= 8)
		return odb_be64(id);
	for (size_t i = 0; i < 8; i++)
		k = k << 8 | (i < rawsz ? id[i] : 0);
	return k;
}

/* Heap order: smaller ID first, ties by source number (a fixed order). */
static int src_less(const source *a, const source *b, size_t rawsz)
{
	int c;

	if (a->key != b->key)
		return a->key < b->key;
	c = memcmp(a->id, b->id, rawsz);
	return c < 0 || (!c && a < b);
}

static void sift_down(source **h, size_t n, size_t i, size_t rawsz)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;

		if (l < n && src_less(h[l], h[m], rawsz))
			m = l;
		if (l + 1 < n && src_less(h[l + 1], h[m], rawsz))
			m = l + 1;
		if (m == i)
			return;
		source *t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

/* Does index entry i (named `id`) sit where the fan-out table says? */
static int fanout_ok(const pack_file *pk, size_t i, const unsigned char *id)
{
	return i >= odb_fanout(pk, id[0] - 1) && i < odb_fanout(pk, id[0]);
}

/* Move a source to its next ID, checking the index is sorted; 1 at its end. */
static int src_next(walker *w, source *s)
{
	const unsigned char *prev = s->id;
	uint64_t prev_key = s->key;

	if (++s->i == s->n)
		return 1;
	s->id += s->id_stride;
	s->type += s->type_stride;
	s->key = id_key(s->id, w->db.rawsz);
	if (s->pk) {
		if (s->key < prev_key ||
		    (s->key == prev_key && memcmp(prev, s->id, w->db.rawsz) >= 0))
			return odb_fail(&w->db, "%s: index is not sorted at entry %zu", s->pk->idx_path, s->i);
		if (!fanout_ok(s->pk, s->i, s->id))
			return odb_fail(&w->db, "%s: fan-out table does not match entry %zu",
				    s->pk->idx_path, s->i);
	}
	return 0;
}

/* A mapped index the sets now own: the IDs added by reference live in it. */
typedef struct {
	const unsigned char *map;
	size_t size;
} kept_map;

static void release_map(void *ctx)
{
	kept_map *k = ctx;

	odb_unmap(k->map, k->size);
	free(k);
}

/*
 * Hand each pack's mapped index to the sets, which then hold its IDs by
 * reference, not copied (the walker no longer unmaps it).  0 or WALK_NOMEM.
 */
static int give_indexes(walker *w, idsets *set)
{
	for (size_t i = 0; i < w->db.npacks; i++) {
		pack_file *pk = &w->db.packs[i];
		kept_map *k;

		if (!pk->idx)
			continue;
		if (!(k = malloc(sizeof(*k))))
			return WALK_NOMEM;
		*k = (kept_map){ pk->idx, pk->idx_size };
		if (idsets_keep(set, release_map, k)) {
			free(k);
			return WALK_NOMEM;
		}
		pk->idx = NULL; /* the names, fan-out and offsets still point into it */
	}
	return 0;
}

int wp_merge(walker *w, idsets *set)
{
	size_t nsrc = 0, nh = 0, total = w->db.nloose, added = 0;
	source *src = calloc(w->db.npacks + 1, sizeof(*src));
	source **heap = calloc(w->db.npacks + 1, sizeof(*heap));
	const unsigned char *last = NULL;
	uint64_t last_key = 0;
	idsets_bulk *bulk = NULL;
	int rc = 0;

	if (!src || !heap) {
		rc = WALK_NOMEM;
		goto done;
	}
	for (size_t i = 0; i < w->db.npacks; i++) {
		pack_file *pk = &w->db.packs[i];

		total += pk->n;
		if (!pk->n)
			continue;
		src[nsrc] = (source){ id_key(odb_pack_name(pk, 0), w->db.rawsz), odb_pack_name(pk, 0), pk->types,
				      pk->name_stride, 1, 0, pk->n, pk };
		if (!fanout_ok(pk, 0, odb_pack_name(pk, 0))) {
			rc = odb_fail(&w->db, "%s: fan-out table does not match entry 0", pk->idx_path);
			goto done;
		}
		nsrc++;
	}
	if (w->db.nloose) {
		qsort(w->db.loose, w->db.nloose, sizeof(*w->db.loose), odb_loose_cmp);
		src[nsrc++] = (source){ id_key(w->db.loose[0].id, w->db.rawsz), w->db.loose[0].id,
					&w->db.loose[0].type, sizeof(*w->db.loose), sizeof(*w->db.loose), 0,
					w->db.nloose, NULL };
	}
	for (size_t i = 0; i < nsrc; i++)
		heap[nh++] = &src[i];
	for (size_t i = nh / 2; i-- > 0;)
		sift_down(heap, nh, i, w->db.rawsz);
	if ((rc = give_indexes(w, set)))
		goto done;
	/* the merge yields the IDs in ascending order: the sets' bulk adding */
	if (!(bulk = idsets_bulk_start(set, total))) {
		rc = WALK_NOMEM;
		goto done;
	}

	progress_start(w->db.p, "adding objects", total);
	while (nh) {
		source *s = heap[0];

		/* an object in two packs, or loose and packed, counts once */
		if (!last || s->key != last_key || memcmp(last, s->id, w->db.rawsz)) {
			/* a pack's names stay mapped for the sets; loose IDs are copied */
			int r = s->pk ? idsets_bulk_add_ref(bulk, s->id, *s->type)
				      : idsets_bulk_add(bulk, s->id, *s->type);

			if (r == -2) {
				rc = WALK_NOMEM;
				goto done;
			}
			if (r < 0) {
				rc = odb_fail(&w->db, "%s: bad object type", s->pk ? s->pk->pack_path : "loose object");
				goto done;
			}
		}
		last = s->id;
		last_key = s->key;
		progress_update(w->db.p, ++added);
		rc = src_next(w, s);
		if (rc < 0)
			goto done;
		if (rc == 1) {
			rc = 0;
			/* the sets' arrays are built at the end: make room for them */
			if (s->pk) {
				free(s->pk->types);
				s->pk->types = NULL;
			}
			heap[0] = heap[--nh];
		}
		if (nh > 1) /* one pack: no heap to keep */
			sift_down(heap, nh, 0, w->db.rawsz);
	}
	progress_stop(w->db.p);
done:
	if (idsets_bulk_finish(bulk) && !rc)
		rc = WALK_NOMEM;
	free(src);
	free(heap);
	return rc;
}

int wp_tags_to_sets(walker *w, idsets *s)
{
	for (size_t i = 0; i < w->db.ntags; i++)
		if (idsets_tag_target(s, w->db.tags[i].id, w->db.tags[i].target, w->db.tags[i].type) == -2)
			return WALK_NOMEM;
	return 0;
}
