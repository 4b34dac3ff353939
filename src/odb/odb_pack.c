/*
 * odb_pack.c - the packs of an object directory: list dir/pack, map each pack-*.idx
 * with its .pack and .rev, check the index layout against the pack, and
 * put a pack's entries in offset order (from the .rev file, or by sorting
 * the offsets).  Also the second listing that tells whether the packs
 * changed while they were read.
 */
#include <config.h>

#include "odb.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Check the index layout (version 2: magic, version, fan-out, names, CRCs,
 * 32-bit offsets, 64-bit offsets, two checksums; version 1: fan-out, then
 * (offset, name) pairs, two checksums) and the pack header against it.
 */
static int pack_check(odb *db, pack_file *pk)
{
	const unsigned char *idx = pk->idx;
	size_t rawsz = db->rawsz;
	uint64_t min;
	uint32_t prev = 0;

	if (pk->idx_size >= 8 && !memcmp(idx, "\377tOc", 4)) {
		pk->version = (int)odb_be32(idx + 4);
		if (pk->version != 2)
			return odb_fail(db, "%s: unsupported index version %u", pk->idx_path,
				    odb_be32(idx + 4));
		pk->fanout = idx + 8;
	} else {
		pk->version = 1;
		pk->fanout = idx;
	}
	if (pk->idx_size < (size_t)(pk->fanout - idx) + 1024 + 2 * rawsz)
		return odb_fail(db, "%s: index file too small", pk->idx_path);
	for (int b = 0; b < 256; b++) {
		uint32_t f = odb_fanout(pk, b);

		if (f < prev)
			return odb_fail(db, "%s: index fan-out table is not monotone", pk->idx_path);
		prev = f;
	}
	pk->n = prev;
	pk->rawsz = rawsz;
	if (pk->version == 2) {
		min = 8 + 1024 + (uint64_t)pk->n * (rawsz + 8) + 2 * rawsz;
		if (pk->idx_size < min || (pk->idx_size - min) % 8 ||
		    (pk->idx_size - min) / 8 > pk->n)
			return odb_fail(db, "%s: index size does not match its %u objects",
				    pk->idx_path, pk->n);
		pk->n64 = (uint32_t)((pk->idx_size - min) / 8);
		pk->names = idx + 8 + 1024;
		pk->name_stride = rawsz;
		pk->off32 = pk->names + (size_t)pk->n * (rawsz + 4);
		pk->off_stride = 4;
		pk->off64 = pk->off32 + (size_t)pk->n * 4;
	} else {
		min = 1024 + (uint64_t)pk->n * (rawsz + 4) + 2 * rawsz;
		if (pk->idx_size != min)
			return odb_fail(db, "%s: index size does not match its %u objects",
				    pk->idx_path, pk->n);
		pk->off32 = idx + 1024;
		pk->off_stride = rawsz + 4;
		pk->names = pk->off32 + 4;
		pk->name_stride = rawsz + 4;
	}

	if (pk->pack_size < 12 + rawsz || memcmp(pk->pack, "PACK", 4))
		return odb_fail(db, "%s: not a pack file", pk->pack_path);
	if (odb_be32(pk->pack + 4) != 2 && odb_be32(pk->pack + 4) != 3)
		return odb_fail(db, "%s: unsupported pack version %u", pk->pack_path,
			    odb_be32(pk->pack + 4));
	if (odb_be32(pk->pack + 8) != pk->n)
		return odb_fail(db, "%s: holds %u objects, its index %u", pk->pack_path,
			    odb_be32(pk->pack + 8), pk->n);
	/*
	 * The index ends with the pack's checksum: a truncated or other pack
	 * fails.  So does a pack rewritten under the same name between the
	 * two opens (git repack -f), so this is worth another attempt first.
	 */
	if (memcmp(pk->pack + pk->pack_size - rawsz, idx + pk->idx_size - 2 * rawsz, rawsz)) {
		if (!odb_same_file(pk->idx_path, &pk->idx_id) || !odb_same_file(pk->pack_path, &pk->pack_id))
			db->vanished = 1; /* rewritten meanwhile: look again */
		return odb_fail(db, "%s: checksum does not match its index (truncated?)", pk->pack_path);
	}
	return 0;
}

int odb_entry_offset(const pack_file *pk, uint32_t i, uint64_t *out, char *err, size_t errsz)
{
	uint32_t o = odb_be32(pk->off32 + (size_t)i * pk->off_stride);
	uint64_t off = o;

	if (pk->version == 2 && (o & 0x80000000u)) {
		o &= 0x7fffffffu;
		if (o >= pk->n64) {
			if (errsz)
				snprintf(err, errsz, "%s: large offset entry %u out of range",
					 pk->idx_path, o);
			return ODB_ERR;
		}
		off = odb_be64(pk->off64 + (size_t)o * 8);
	}
	if (off < 12 || off >= pk->pack_size - pk->rawsz) {
		if (errsz)
			snprintf(err, errsz, "%s: offset %llu of object %u lies outside %s",
				 pk->idx_path, (unsigned long long)off, i, pk->pack_path);
		return ODB_ERR;
	}
	*out = off;
	return 0;
}

uint32_t odb_fanout_find(const unsigned char *fanout, const unsigned char *names, size_t stride,
			const unsigned char *id, size_t rawsz)
{
	uint32_t lo = id[0] ? odb_be32(fanout + 4 * (id[0] - 1)) : 0, hi = odb_be32(fanout + 4 * id[0]);
	size_t i = hexid_find_stride(names, stride, lo, hi, rawsz, id);

	return i == SIZE_MAX ? NOT_FOUND : (uint32_t)i;
}

/* Index position of `id` in the pack, or NOT_FOUND. */
uint32_t odb_index_find(const pack_file *pk, const unsigned char *id, size_t rawsz)
{
	return odb_fanout_find(pk->fanout, pk->names, pk->name_stride, id, rawsz);
}

/* ---- offset order ---------------------------------------------------------- */

void odb_order_free(pack_order *o)
{
	free(o->off);
	free(o->pos);
	free(o->type);
	free(o->base);
	free(o->bucket);
	memset(o, 0, sizeof(*o));
}

/* With the offsets sorted: bucket[b] = the first rank at offset >= b << shift. */
static void fill_buckets(pack_order *o, uint32_t n)
{
	uint64_t b = 0;

	for (uint32_t r = 0; r < n; r++)
		for (; b <= o->off[r] >> o->shift; b++)
			o->bucket[b] = r;
	for (; b <= o->nb; b++)
		o->bucket[b] = n;
}

/* The .rev file's header and size: "RIDX", version 1, this hash, n entries. */
static int rev_check_header(odb *db, const pack_file *pk)
{
	if (pk->rev_size != 12 + (size_t)pk->n * 4 + 2 * db->rawsz ||
	    memcmp(pk->rev, "RIDX", 4) || odb_be32(pk->rev + 4) != 1)
		return odb_fail(db, "%s: bad reverse index header or size", pk->rev_path);
	if (odb_be32(pk->rev + 8) != (db->rawsz == 32 ? 2u : 1u))
		return odb_fail(db, "%s: reverse index is for another hash", pk->rev_path);
	return 0;
}

#define REV_AHEAD 16 /* index offsets prefetched ahead of the .rev reading */

/* Read the .rev file: index positions in pack order, checked as it goes. */
static int order_from_rev(odb *db, const pack_file *pk, pack_order *o)
{
	uint32_t n = pk->n;
	int rc;

	if ((rc = rev_check_header(db, pk)))
		return rc;
	for (uint32_t r = 0; r < n; r++) {
		uint32_t i = odb_be32(pk->rev + 12 + (size_t)r * 4);

#ifdef __GNUC__
		/*
		 * The offsets are read in pack order, so all over the index:
		 * a cache miss each at millions of objects unless asked for
		 * ahead (the .rev entries themselves are read in order).
		 */
		if (r + REV_AHEAD < n) {
			uint32_t ahead = odb_be32(pk->rev + 12 + (size_t)(r + REV_AHEAD) * 4);

			if (ahead < n)
				__builtin_prefetch(pk->off32 + (size_t)ahead * pk->off_stride);
		}
#endif
		if (i >= n)
			return odb_fail(db, "%s: index position %u out of range", pk->rev_path, i);
		if ((rc = odb_entry_offset(pk, i, &o->off[r], db->err, db->errsz)))
			return rc;
		/* strictly increasing offsets also prove it is a permutation */
		if (r && o->off[r] <= o->off[r - 1])
			return odb_fail(db, "%s: not in pack order at position %u", pk->rev_path, r);
		o->pos[r] = i;
	}
	return 0;
}

#define RADIX_BITS 11
#define RADIX_SIZE (1u << RADIX_BITS)

/*
 * No .rev: an LSD radix sort of the (offset, index position) pairs on the
 * offset's significant bits, 11 at a time (3 passes up to 8 GiB).  Each
 * pass writes to 2048 sequential streams; a counting sort straight into
 * one bucket per object would scatter every write over the whole array,
 * a cache miss each with millions of objects.
 */
static int order_by_sorting(odb *db, const pack_file *pk, pack_order *o)
{
	uint32_t n = pk->n, *pos2 = malloc((size_t)n * sizeof(*pos2) + 1);
	uint64_t *off2 = malloc((size_t)n * sizeof(*off2) + 1);
	uint32_t (*count)[RADIX_SIZE] = NULL;
	unsigned bits = 0, passes;
	int rc = 0;

	while (bits < 64 && (o->end >> bits))
		bits++;
	passes = (bits + RADIX_BITS - 1) / RADIX_BITS;
	count = calloc(passes ? passes : 1, sizeof(*count));
	if (!pos2 || !off2 || !count) {
		rc = ODB_NOMEM;
		goto done;
	}
	for (uint32_t i = 0; i < n; i++) {
		uint64_t off;

		if ((rc = odb_entry_offset(pk, i, &off, db->err, db->errsz)))
			goto done;
		o->off[i] = off;
		o->pos[i] = i;
		for (unsigned p = 0; p < passes; p++)
			count[p][(off >> (p * RADIX_BITS)) & (RADIX_SIZE - 1)]++;
	}
	for (unsigned p = 0; p < passes; p++) {
		unsigned shift = p * RADIX_BITS;
		uint32_t sum = 0, *tp;
		uint64_t *to;

		for (unsigned d = 0; d < RADIX_SIZE; d++) {
			uint32_t c = count[p][d];

			count[p][d] = sum;
			sum += c;
		}
		for (uint32_t i = 0; i < n; i++) {
			uint32_t r = count[p][(o->off[i] >> shift) & (RADIX_SIZE - 1)]++;

			off2[r] = o->off[i];
			pos2[r] = o->pos[i];
		}
		to = o->off;
		o->off = off2;
		off2 = to;
		tp = o->pos;
		o->pos = pos2;
		pos2 = tp;
	}
	for (uint32_t r = 1; r < n; r++)
		if (o->off[r] == o->off[r - 1]) {
			rc = odb_fail(db, "%s: two objects at offset %llu", pk->idx_path,
				  (unsigned long long)o->off[r]);
			goto done;
		}
done:
	free(off2);
	free(pos2);
	free(count);
	return rc;
}

int odb_order_build(odb *db, const pack_file *pk, pack_order *o)
{
	size_t n = pk->n ? pk->n : 1;
	int rc;

	o->end = pk->pack_size - db->rawsz;
	/* about one bucket per object, so a lookup looks at one or two */
	o->shift = 0;
	while ((o->end >> o->shift) > pk->n)
		o->shift++;
	o->nb = (o->end >> o->shift) + 1;
	o->off = malloc(n * sizeof(*o->off));
	o->pos = malloc(n * sizeof(*o->pos));
	o->type = calloc(n, 1);
	o->base = malloc(n * sizeof(*o->base));
	o->bucket = malloc((size_t)(o->nb + 1) * sizeof(*o->bucket));
	if (!o->off || !o->pos || !o->type || !o->base || !o->bucket)
		return ODB_NOMEM;
	rc = pk->rev ? order_from_rev(db, pk, o) : order_by_sorting(db, pk, o);
	if (!rc)
		fill_buckets(o, pk->n);
	return rc;
}

/*
 * The .rev file read without checking it against the offsets: each entry
 * only checked to be an index position.  For the bitmap, which finds a
 * .rev that is not a permutation itself (an object with two types or
 * none), and which reads neither offsets nor the pack.
 */
static int positions_from_rev(odb *db, const pack_file *pk, uint32_t *pos)
{
	uint32_t n = pk->n;
	int rc;

	if ((rc = rev_check_header(db, pk)))
		return rc;
	for (uint32_t r = 0; r < n; r++) {
		pos[r] = odb_be32(pk->rev + 12 + (size_t)r * 4);
		if (pos[r] >= n)
			return odb_fail(db, "%s: index position %u out of range", pk->rev_path, pos[r]);
	}
	return 0;
}

int odb_order_positions(odb *db, const pack_file *pk, uint32_t **out)
{
	size_t n = pk->n ? pk->n : 1;
	pack_order o = { 0 };
	int rc;

	*out = NULL;
	o.pos = malloc(n * sizeof(*o.pos));
	if (!o.pos)
		return ODB_NOMEM;
	if (pk->rev) {
		rc = positions_from_rev(db, pk, o.pos);
	} else {
		o.end = pk->pack_size - db->rawsz;
		o.off = malloc(n * sizeof(*o.off));
		rc = o.off ? order_by_sorting(db, pk, &o) : ODB_NOMEM;
	}
	if (!rc) {
		*out = o.pos;
		o.pos = NULL;
	}
	odb_order_free(&o);
	return rc;
}

/*
 * How far back the rank of an OFS_DELTA's base is looked for before the
 * buckets: in git.git's pack more than half the bases lie within 64
 * entries, whose offsets the scan has just read (in cache); the bucket
 * and the offset it leads to are a cache miss each.
 */
#define NEAR_RANKS 64

/* The rank in [lo, hi) of the entry starting at `off`, or NOT_FOUND. */
static uint32_t rank_in(const pack_order *o, uint64_t off, uint32_t lo, uint32_t hi)
{
	uint32_t end = hi;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (o->off[mid] < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < end && o->off[lo] == off ? lo : NOT_FOUND;
}

uint32_t odb_rank_before(const pack_order *o, uint64_t off, uint32_t r)
{
	uint32_t lo = r > NEAR_RANKS ? r - NEAR_RANKS : 0;

	if (lo >= r || o->off[lo] > off)
		return odb_rank_of(o, off);
	/* sorted offsets: if any entry starts at `off`, it is one of [lo, r) */
	return rank_in(o, off, lo, r);
}

/* Rank of the entry starting at offset `off`, or NOT_FOUND. */
uint32_t odb_rank_of(const pack_order *o, uint64_t off)
{
	uint64_t b = off >> o->shift;

	if (b >= o->nb)
		return NOT_FOUND;
	return rank_in(o, off, o->bucket[b], o->bucket[b + 1]);
}

/* ---- the packs of a directory ---------------------------------------------- */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void free_names(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/*
 * The packs of one pack directory: the names of its pack-*.idx files
 * without ".idx", sorted (a fixed order keeps error messages
 * reproducible), and appended to `seen` one per line.  A missing
 * directory has none.
 */
static int list_packs(odb *db, const char *pdir, char ***out, size_t *nout,
		      char **seen, size_t *seen_len, size_t *seen_cap)
{
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	DIR *d;
	int rc = 0;

	*out = NULL;
	*nout = 0;
	d = opendir(pdir);
	if (!d)
		return errno == ENOENT ? 0 : odb_fail(db, "%s: cannot read: %s", pdir, strerror(errno));
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (len <= 9 || strncmp(de->d_name, "pack-", 5) ||
		    strcmp(de->d_name + len - 4, ".idx"))
			continue;
		if ((rc = odb_grow(&names, &cap, n + 1, sizeof(*names))))
			break;
		if (!(names[n] = strndup(de->d_name, len - 4))) {
			rc = ODB_NOMEM;
			break;
		}
		n++;
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp_str);
	for (size_t i = 0; !rc && i < n; i++) {
		size_t need = strlen(pdir) + strlen(names[i]) + 3;

		if ((rc = odb_grow(seen, seen_cap, *seen_len + need, 1)))
			break;
		*seen_len += (size_t)sprintf(*seen + *seen_len, "%s/%s\n", pdir, names[i]);
	}
	if (rc) {
		free_names(names, n);
		return rc;
	}
	*out = names;
	*nout = n;
	return 0;
}

/*
 * Map every pack-*.idx of dir/pack that has its .pack (git skips the
 * others); `dir` is one of db->dirs, which the packs point to.
 */
int odb_add_packs(odb *db, const char *dir)
{
	char *pdir = odb_join(dir, "pack");
	char **names = NULL;
	size_t n = 0, i;
	int rc = 0;

	if (!pdir)
		return ODB_NOMEM;
	rc = odb_note_dir(db, pdir);
	if (!rc)
		rc = list_packs(db, pdir, &names, &n, &db->packs_seen, &db->packs_seen_len,
			&db->packs_seen_cap);
	if (rc) {
		free(pdir);
		return rc;
	}
	for (i = 0; i < n; i++) {
		pack_file *pk;
		char *base = odb_join(pdir, names[i]);
		size_t bl;

		if (!base || (rc = odb_grow(&db->packs, &db->packs_cap, db->npacks + 1, sizeof(*pk)))) {
			free(base);
			rc = ODB_NOMEM;
			goto done;
		}
		pk = &db->packs[db->npacks];
		memset(pk, 0, sizeof(*pk));
		pk->dir = dir;
		bl = strlen(base);
		pk->idx_path = malloc(bl + 6);
		pk->pack_path = malloc(bl + 6);
		pk->rev_path = malloc(bl + 6);
		pk->bitmap_path = malloc(bl + 8);
		if (!pk->idx_path || !pk->pack_path || !pk->rev_path || !pk->bitmap_path) {
			free(pk->idx_path);
			free(pk->pack_path);
			free(pk->rev_path);
			free(pk->bitmap_path);
			free(base);
			rc = ODB_NOMEM;
			goto done;
		}
		sprintf(pk->idx_path, "%s.idx", base);
		sprintf(pk->pack_path, "%s.pack", base);
		sprintf(pk->rev_path, "%s.rev", base);
		sprintf(pk->bitmap_path, "%s.bitmap", base);
		free(base);
		db->npacks++; /* from here on, freed with the odb */
		rc = odb_map_file(db, pk->pack_path, 1, &pk->pack, &pk->pack_size, &pk->pack_id);
		if (rc == 1) { /* an index without its pack: not a pack to git either */
			db->npacks--;
			free(pk->idx_path);
			free(pk->pack_path);
			free(pk->rev_path);
			free(pk->bitmap_path);
			rc = 0;
			continue;
		}
		if (rc || (rc = odb_map_file(db, pk->idx_path, 0, &pk->idx, &pk->idx_size, &pk->idx_id)) ||
		    (rc = pack_check(db, pk)))
			goto done;
		rc = odb_map_file(db, pk->rev_path, 1, &pk->rev, &pk->rev_size, NULL);
		if (rc < 0)
			goto done;
		/* an unreadable bitmap is no bitmap: the pack is read instead */
		if (odb_map_file(db, pk->bitmap_path, 1, &pk->bitmap, &pk->bitmap_size, NULL) == ODB_NOMEM) {
			rc = ODB_NOMEM;
			goto done;
		}
		rc = 0;
	}
done:
	free_names(names, n);
	free(pdir);
	return rc;
}

/*
 * Whether the packs are still the ones listed at the start: a repack
 * that finished meanwhile wrote a new pack (and may have removed loose
 * objects we had not read yet), so the walk must start again.
 * 1 if they changed, 0 if not, or an error.
 */
int odb_packs_changed(odb *db)
{
	char *now = NULL, *pdir;
	size_t len = 0, cap = 0;
	int rc = 0;

	for (size_t i = 0; !rc && i < db->ndirs; i++) {
		char **names;
		size_t n;

		if (!(pdir = odb_join(db->dirs[i], "pack")))
			rc = ODB_NOMEM;
		else if (!(rc = list_packs(db, pdir, &names, &n, &now, &len, &cap)))
			free_names(names, n);
		free(pdir);
	}
	if (!rc)
		rc = len != db->packs_seen_len || (len && memcmp(now, db->packs_seen, len));
	free(now);
	return rc;
}

/*
 * The least and greatest of n big-endian 4-byte offsets at t, and the OR
 * of all (a large offset's flag): one pass without a branch, 10
 * instructions an offset where the loop below takes 14.
 */
static void small_bounds(const unsigned char *t, uint32_t n, uint32_t *lo, uint32_t *hi,
			 uint32_t *any)
{
	uint32_t l = UINT32_MAX, h = 0, a = 0;

	for (uint32_t i = 0; i < n; i++) {
		uint32_t o;

		memcpy(&o, t + 4 * (size_t)i, 4);
		o = __builtin_bswap32(o);
		a |= o;
		l = o < l ? o : l;
		h = o > h ? o : h;
	}
	*lo = l;
	*hi = h;
	*any = a;
}

/*
 * Whether every offset of pk's index lies inside its pack, as
 * odb_entry_offset() would find each: a tight pass over the 4-byte table
 * (its least and greatest small offset), the few large ones one by one.
 * On git.git's 849k objects the pass costs a millisecond, against 5 for
 * a call per object.
 */
static int offsets_in_pack(const pack_file *pk)
{
	uint32_t lo = UINT32_MAX, hi = 0;
	int large = 0;

	/* a version 2 index without a large offset (a pack below 2 GiB): one pass */
	if (pk->version == 2 && pk->off_stride == 4) {
		uint32_t any;

		small_bounds(pk->off32, pk->n, &lo, &hi, &any);
		if (!(any & 0x80000000u))
			return !pk->n || !(lo < 12 || hi >= pk->pack_size - pk->rawsz);
		lo = UINT32_MAX;
		hi = 0;
	}
	for (uint32_t i = 0; i < pk->n; i++) {
		uint32_t o = odb_be32(pk->off32 + (size_t)i * pk->off_stride);

		if (pk->version == 2 && (o & 0x80000000u)) {
			large = 1;
			continue;
		}
		lo = o < lo ? o : lo;
		hi = o > hi ? o : hi;
	}
	if (pk->n && hi >= lo && (lo < 12 || hi >= pk->pack_size - pk->rawsz))
		return 0;
	for (uint32_t i = 0; large && i < pk->n; i++) {
		uint64_t off;

		if (odb_entry_offset(pk, i, &off, NULL, 0))
			return 0;
	}
	return 1;
}

/*
 * Every offset of every index and multi-pack-index of the object
 * directory and its alternates inside its pack.  libgit2 (1.5) trusts an index's offsets and reads
 * past the end of a pack (SIGSEGV) for one that is not: whatever a
 * command hands to libgit2 is read from packs checked here first.  One
 * pass over the offset tables (4 bytes an object).
 */
int odb_check_packs(const char *objdir, size_t rawsz, char *err, size_t errsz)
{
	odb db = { .rawsz = rawsz, .err = err, .errsz = errsz };
	struct sigaction old;
	sigjmp_buf cut;
	volatile int rc;

	rc = odb_find_objdirs(&db, objdir);
	for (size_t i = 0; i < db.ndirs && !rc; i++)
		rc = odb_add_packs(&db, db.dirs[i]);
	odb_bus_catch(&old);
	if (sigsetjmp(cut, 0)) {
		/* an index cut short while read: a repack meanwhile, not damage */
		rc = 0;
		goto done;
	}
	odb_bus_guard(&cut);
	for (size_t p = 0; p < db.npacks && !rc; p++) {
		const pack_file *pk = &db.packs[p];
		uint64_t off;

		if (offsets_in_pack(pk))
			continue;
		/* one is not: the first such, named as odb_entry_offset() names it */
		for (uint32_t i = 0; i < pk->n && !rc; i++)
			rc = odb_entry_offset(pk, i, &off, err, errsz);
	}
	/* libgit2 takes an object's offset from a multi-pack-index when there is one */
	for (size_t i = 0; i < db.ndirs && !rc; i++)
		rc = odb_check_midx(&db, db.dirs[i]);
done:
	odb_bus_guard(NULL);
	odb_bus_restore(&old);
	/* a pack gone or rewritten while listed (a repack): libgit2 sees the new one */
	if (rc == ODB_ERR && db.vanished)
		rc = 0;
	odb_free(&db);
	return rc;
}
