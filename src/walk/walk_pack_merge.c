/*
 * walk_pack_merge.c - step 3 of walk_pack.c: a k-way merge of the sorted
 * name lists of all packs and the sorted loose IDs into the ID sets, in
 * key order, each ID once.
 *
 * A walk that stores only the commits (history: idsets_store_only())
 * needs of the other objects their counts alone, but the merge reads
 * every ID of every .idx to drop the ones two packs share (13M IDs, most
 * of a warm history on a 13M-object repository).  So a merge of one
 * object directory's packs (no loose object, no alternate) keeps in the
 * cache how many distinct objects of each type they hold together
 * (pack-<hex>.union, named after the pack with the lowest checksum;
 * SUBJECT_UNION_MAGIC), and names every pack of the set in it by
 * checksum, object count and the very .pack and .idx files (device,
 * inode, size, time, as every table of the cache: subject_cache.h).  The
 * next such walk of the same files merges only each pack's commits (from
 * their types) and counts the rest from the file: the sets are the same,
 * the commits stored and the counts exact.  A file that names other
 * files, or other counts than the commits merged again, is not used.
 *
 * The file's body (after subject_file_head(); n at 52 is the packs'
 * count m): m records of 32 bytes of checksum (rawsz used, zeros after),
 * u32 objects, u32 zero and the 80 bytes of subject_bind_put(), by
 * ascending checksum; then u64 counts: all objects, commits, trees,
 * blobs, tags; then the CRC-32.
 */
#include <config.h>

#include "walk_pack_int.h"

#include <stdlib.h>
#include <string.h>

#include "bigvec.h"
#include "bytes.h"
#include "subject_cache.h"


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

/* ---- the packs' union counted, kept in the cache ---------------------------------- */

#define UNION_EXT ".union"
#define UNION_PACK (ABBREV_MAX_RAWSZ + 8u + SUBJECT_BIND_SIZE)
#define UNION_TYPES 5u /* all, then commits .. tags */
#define UNION_COUNTS (8u * UNION_TYPES)

/* The packs of a walk as the union file must name them, and its counts. */
typedef struct {
	size_t m;
	size_t first;         /* the pack with the lowest checksum: the file's name */
	unsigned char *packs; /* m records of UNION_PACK bytes, by checksum (its first) */
	uint64_t count[UNION_TYPES];
} union_set;

static const unsigned char *union_sum(const walker *w, const pack_file *pk)
{
	return pk->idx + pk->idx_size - 2 * w->db.rawsz;
}

static subject_bind union_bind(const pack_file *pk)
{
	return (subject_bind){ subject_file_of(&pk->pack_id), subject_file_of(&pk->idx_id),
			       pk->pack_path };
}

static void union_free(union_set *u)
{
	free(u->packs);
	*u = (union_set){ 0 };
}

/*
 * The set of the walk's packs: 0, 1 when the walk is not one whose
 * union is kept (no cache, loose objects, alternates, no pack, a pack
 * whose .idx is not mapped), -1 (memory).  Before the indexes go to the sets.
 */
static int union_describe(const walker *w, union_set *u)
{
	size_t m = w->db.npacks, rawsz = w->db.rawsz, *order;

	*u = (union_set){ 0 };
	if (!w->cache_dir || w->db.ndirs != 1 || w->db.nloose || !m || m > UINT32_MAX / UNION_PACK)
		return 1;
	for (size_t i = 0; i < m; i++)
		if (!w->db.packs[i].idx)
			return 1;
	order = malloc(m * sizeof(*order));
	u->packs = calloc(m, UNION_PACK);
	if (!order || !u->packs) {
		free(order);
		union_free(u);
		return -1;
	}
	/* by checksum (an insertion sort: a directory holds few packs, and they come sorted by name) */
	for (size_t i = 0; i < m; i++) {
		size_t j = i;

		for (; j && memcmp(union_sum(w, &w->db.packs[order[j - 1]]),
				   union_sum(w, &w->db.packs[i]), rawsz) > 0; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
	for (size_t k = 0; k < m; k++) {
		const pack_file *pk = &w->db.packs[order[k]];
		unsigned char *p = u->packs + k * UNION_PACK;
		subject_bind b = union_bind(pk);

		memcpy(p, union_sum(w, pk), rawsz);
		put_le32(p + ABBREV_MAX_RAWSZ, pk->n);
		subject_bind_put(p + ABBREV_MAX_RAWSZ + 8, &b);
	}
	u->m = m;
	u->first = order[0];
	free(order);
	return 0;
}

typedef struct {
	const walker *w;
	union_set *u;
} union_args;

static int union_check(void *arg, const unsigned char *buf, size_t len)
{
	const union_args *a = arg;
	union_set *u = a->u;
	const pack_file *pk = &a->w->db.packs[u->first];
	uint64_t blen = (uint64_t)u->m * UNION_PACK + UNION_COUNTS, sum = 0;
	size_t at = subject_file_head_ok(buf, len, SUBJECT_UNION_MAGIC, SUBJECT_UNION_VERSION,
					 a->w->db.rawsz, u->packs, pk->n);

	if (!at || le32(buf + 52) != u->m || le64(buf + 56) != blen ||
	    (uint64_t)len != at + blen + 4 || memcmp(buf + at, u->packs, u->m * UNION_PACK))
		return -2;
	for (size_t t = 0; t < UNION_TYPES; t++)
		u->count[t] = le64(buf + at + u->m * UNION_PACK + 8 * t);
	for (size_t t = 1; t < UNION_TYPES; t++)
		sum += u->count[t];
	return sum == u->count[0] ? 0 : -2;
}

/* The counts of the set u from the cache: 0, 1 when there is no usable file, -1 (memory). */
static int union_load(const walker *w, union_set *u)
{
	const pack_file *pk = &w->db.packs[u->first];
	subject_bind b = union_bind(pk);
	union_args a = { w, u };
	unsigned char *buf;
	size_t len, cap;
	int rc = subject_file_read(w->cache_dir, UNION_EXT, w->db.rawsz, u->packs, &b,
				   union_check, &a, &buf, &len, &cap);

	if (!rc)
		bigvec_free(buf, cap);
	return rc;
}

/* Keep u's counts (a cache that cannot be written: the next walk merges every ID again). */
static void union_save(const walker *w, const union_set *u)
{
	const pack_file *pk = &w->db.packs[u->first];
	subject_bind b = union_bind(pk);
	size_t head = subject_file_head_size(&b), blen = u->m * UNION_PACK + UNION_COUNTS;
	size_t len = head + blen + 4;
	unsigned char *img = malloc(len);

	if (!img)
		return;
	subject_file_head(img, SUBJECT_UNION_MAGIC, SUBJECT_UNION_VERSION, w->db.rawsz,
			  u->packs, pk->n, (uint32_t)u->m, blen, &b);
	memcpy(img + head, u->packs, u->m * UNION_PACK);
	for (size_t t = 0; t < UNION_TYPES; t++)
		put_le64(img + head + u->m * UNION_PACK + 8 * t, u->count[t]);
	put_le32(img + len - 4, subject_file_crc(img, len - 4));
	(void)subject_file_write(w->cache_dir, UNION_EXT, w->db.rawsz, u->packs, img, len);
	free(img);
}

/*
 * One pack's commits in .idx order, for the commits' merge: a source
 * (its first member, so that the merge's heap and sift_down() order it
 * as any other) walking the positions pos[0 .. s.n) of its commits.
 */
typedef struct {
	source s;
	const uint32_t *pos;
} commit_source;

static void csrc_at(commit_source *c, size_t rawsz)
{
	c->s.id = odb_pack_name(c->s.pk, c->pos[c->s.i]);
	c->s.key = id_key(c->s.id, rawsz);
}

/*
 * How many of types[0..n) are commits: 8 at a time, a byte that is
 * ABBREV_TYPE_COMMIT made zero and the zero bytes counted exactly (the
 * types are below 0x80), not a compare a byte.
 */
static size_t count_commits(const unsigned char *types, size_t n)
{
	const uint64_t ones = UINT64_C(0x0101010101010101), low7 = UINT64_C(0x7f7f7f7f7f7f7f7f);
	size_t count = 0, i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t x, y;

		memcpy(&x, types + i, 8);
		x ^= ones * ABBREV_TYPE_COMMIT;
		y = ~(((x & low7) + low7) | x | low7);
		count += (size_t)(((y >> 7) * ones) >> 56); /* the 0x80s summed in the top byte */
	}
	for (; i < n; i++)
		count += types[i] == ABBREV_TYPE_COMMIT;
	return count;
}

int wp_merge_commits(walker *w, idsets *set)
{
	size_t rawsz = w->db.rawsz, total = 0, nh = 0, ndistinct = 0;
	uint64_t last_key = 0;
	union_set u;
	commit_source *src = NULL;
	source **heap = NULL;
	uint32_t *pos = NULL;
	const unsigned char **ids = NULL;
	idsets_bulk *bulk = NULL;
	int rc;

	if (idsets_counts_only(set, ABBREV_TYPE_COMMIT))
		return 1;
	for (int t = ABBREV_TYPE_TREE; t <= ABBREV_TYPE_TAG; t++)
		if (!idsets_counts_only(set, t))
			return 1;
	for (size_t k = 0; k < w->db.npacks; k++)
		if (!w->db.packs[k].types)
			return 1;
	if ((rc = union_describe(w, &u)))
		return rc < 0 ? WALK_NOMEM : 1;
	if ((rc = union_load(w, &u))) {
		union_free(&u);
		return rc < 0 ? WALK_NOMEM : 1;
	}
	rc = WALK_NOMEM;
	for (size_t k = 0; k < w->db.npacks; k++)
		total += count_commits(w->db.packs[k].types, w->db.packs[k].n);
	src = calloc(w->db.npacks, sizeof(*src));
	heap = calloc(w->db.npacks, sizeof(*heap));
	/* one more: each type's position is stored, kept only for a commit */
	pos = malloc((total + 1) * sizeof(*pos));
	ids = malloc((total ? total : 1) * sizeof(*ids));
	if (!src || !heap || !pos || !ids)
		goto done;
	/* each pack's commits by position, which is ID order */
	total = 0;
	for (size_t k = 0; k < w->db.npacks; k++) {
		pack_file *pk = &w->db.packs[k];
		commit_source *c = &src[k];

		*c = (commit_source){ .s = { .pk = pk }, .pos = pos + total };
		for (uint32_t i = 0; i < pk->n; i++) {
			pos[total + c->s.n] = i;
			c->s.n += pk->types[i] == ABBREV_TYPE_COMMIT;
		}
		total += c->s.n;
		if (c->s.n) {
			csrc_at(c, rawsz);
			heap[nh++] = &c->s;
		}
	}
	for (size_t i = nh / 2; i-- > 0;)
		sift_down(heap, nh, i, rawsz);
	/* an ID in two packs counts once */
	while (nh) {
		commit_source *c = (commit_source *)heap[0];

		if (!ndistinct || c->s.key != last_key || memcmp(ids[ndistinct - 1], c->s.id, rawsz))
			ids[ndistinct++] = c->s.id;
		last_key = c->s.key;
		if (++c->s.i < c->s.n)
			csrc_at(c, rawsz);
		else
			heap[0] = heap[--nh];
		if (nh > 1)
			sift_down(heap, nh, 0, rawsz);
	}
	/* the commits the kept counts were made with, or the whole merge */
	if (ndistinct != u.count[ABBREV_TYPE_COMMIT]) {
		rc = 1;
		goto done;
	}
	if ((rc = give_indexes(w, set)))
		goto done;
	rc = WALK_NOMEM;
	if (!(bulk = idsets_bulk_start(set, ndistinct ? ndistinct : 1)))
		goto done;
	for (size_t i = 0; i < ndistinct; i++)
		if (idsets_bulk_add_ref(bulk, ids[i], ABBREV_TYPE_COMMIT) < 0)
			goto done;
	rc = idsets_bulk_finish(bulk) ? WALK_NOMEM : 0;
	bulk = NULL;
	for (int t = ABBREV_TYPE_TREE; t <= ABBREV_TYPE_TAG && !rc; t++)
		if (idsets_add_counted(set, t, u.count[t]))
			rc = WALK_NOMEM;
done:
	if (bulk)
		(void)idsets_bulk_finish(bulk);
	union_free(&u);
	free(src);
	free(heap);
	free(pos);
	free(ids);
	return rc;
}

int wp_merge(walker *w, idsets *set)
{
	size_t nsrc = 0, nh = 0, total = w->db.nloose, added = 0;
	source *src = calloc(w->db.npacks + 1, sizeof(*src));
	source **heap = calloc(w->db.npacks + 1, sizeof(*heap));
	const unsigned char *last = NULL;
	uint64_t last_key = 0;
	idsets_bulk *bulk = NULL;
	union_set u = { 0 };
	int rc = 0, keep = 0;

	if (!src || !heap) {
		rc = WALK_NOMEM;
		goto done;
	}
	/* the packs' union counted for the cache while the indexes are still the walker's */
	if ((keep = union_describe(w, &u)) < 0) {
		rc = WALK_NOMEM;
		goto done;
	}
	keep = !keep;
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
			if (*s->type >= ABBREV_TYPE_COMMIT && *s->type <= ABBREV_TYPE_TAG) {
				u.count[0]++;
				u.count[*s->type]++;
			}
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
	/* kept when not there already: a warm report's walk reads 200 bytes, writes none */
	if (!rc && keep) {
		union_set had = u;

		if (union_load(w, &had) || memcmp(had.count, u.count, sizeof(u.count)))
			union_save(w, &u);
	}
	union_free(&u);
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
