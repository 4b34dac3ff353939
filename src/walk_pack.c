/*
 * walk_pack.c - every (id, type) of an object directory, read from the
 * pack and loose files themselves.
 *
 * Why not libgit2: asking it for each object's header costs a lookup, a
 * window and a zlib stream per delta; here a pack costs one pass over its
 * entry headers.  The steps:
 *
 *  1. Collect the object directories (the given one, then info/alternates,
 *     recursively), map every pack-*.idx with its .pack, and read the loose
 *     objects' headers (only the first bytes of each zlib stream).
 *  2. For each pack, order the entries by offset (the .rev file if there is
 *     one, else a radix sort of the offsets) and read each entry header in
 *     that order, on two threads, each over one half of the pack: a pass
 *     notes each entry's type, or for a delta its base's rank.  A delta has
 *     no type of its own: an OFS_DELTA's base lies earlier in the pack, a
 *     REF_DELTA's is looked up in the same pack's index (git requires it
 *     there), so a second pass in offset order gives each delta its base's
 *     type.  Types land in one byte per index position.
 *  3. Merge the sorted name lists of all packs and the sorted loose IDs
 *     (a k-way merge on a small heap), so the ID sets are filled in key
 *     order, each ID once, by idsets' bulk adding (the Judy arrays filled on
 *     two more threads).  Judy inserts in key order are some 25x cheaper
 *     than in random order, and they are the bulk of the work.
 *
 * File formats: Documentation/gitformat-pack.txt in git.  Every number read
 * is checked before it is used; hash widths come from idsets_rawsz().
 */
#include <config.h>

#include "walk_pack.h"
#include "walk.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#define MAX_DELTA_DEPTH 10000 /* git's pack-objects caps depth at 4095 */
#define MAX_ALT_DEPTH 5       /* as git: alternates of alternates, 5 deep */
#define NOT_FOUND UINT32_MAX
#define SCAN_AHEAD 16         /* entry headers prefetched ahead of the scan */
#define SCAN_STACK (256 * 1024) /* stack of the scan's second thread */

/* Pack entry types (git's enum object_type). */
enum { OBJ_OFS_DELTA = 6, OBJ_REF_DELTA = 7 };

/* Which file a path names now, to tell a rewritten file from a broken one. */
typedef struct {
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime;
} file_id;

typedef struct {
	char *idx_path, *pack_path, *rev_path;
	file_id idx_id, pack_id;  /* the files as mapped */
	const unsigned char *idx, *pack, *rev; /* read-only maps */
	size_t idx_size, pack_size, rev_size;
	int version;              /* index version, 1 or 2 */
	uint32_t n, n64;          /* objects; entries of the 64-bit offset table */
	const unsigned char *fanout, *names, *off32, *off64;
	size_t name_stride, off_stride;
	unsigned char *types;     /* type by index position, from the scan */
} pack_file;

typedef struct {
	unsigned char id[ABBREV_MAX_RAWSZ]; /* zero-padded past rawsz */
	unsigned char type;
} loose_obj;

typedef struct {
	size_t rawsz;
	progress *p;
	char *err;
	size_t errsz;
	pack_file *packs;
	size_t npacks, packs_cap;
	loose_obj *loose;
	size_t nloose, loose_cap;
	char **dirs; /* real paths of the object directories seen */
	size_t ndirs, dirs_cap;
	uint32_t *chain; /* delta chain being resolved */
	z_stream zs;
	int zs_ready;
	size_t done;
	/*
	 * A concurrent repack or gc: a file listed but gone when opened, and
	 * the names of the packs as listed, to list again before the merge.
	 */
	int vanished;
	int paused;      /* the test hook waited already */
	char *packs_seen;
	size_t packs_seen_len, packs_seen_cap;
} walker;

/* A pack in offset ("rank") order, while its headers are read. */
typedef struct {
	uint64_t *off;         /* offset by rank, strictly increasing */
	uint32_t *pos;         /* index position by rank */
	unsigned char *type;   /* type by rank, 0 while unknown */
	uint32_t *base;        /* a delta's base rank by rank, NOT_FOUND for others */
	uint32_t *bucket;      /* first rank at offset >= b << shift, nb + 1 */
	uint64_t nb, end;      /* buckets; end of the entries (the trailer) */
	unsigned shift;
} pack_order;

static int fail(walker *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(walker *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w->err, w->errsz, fmt, ap);
	va_end(ap);
	return WALK_ERR;
}

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint64_t be64(const unsigned char *p)
{
	return (uint64_t)be32(p) << 32 | be32(p + 4);
}

/* Make room for `need` elements of `size` bytes in *arr; 0 or WALK_NOMEM. */
static int grow(void *arr, size_t *cap, size_t need, size_t size)
{
	void **a = arr;
	size_t n;
	void *p;

	if (need <= *cap)
		return 0;
	n = *cap ? *cap : 16;
	while (n < need)
		n *= 2;
	if (n > SIZE_MAX / size)
		return WALK_NOMEM;
	p = realloc(*a, n * size);
	if (!p)
		return WALK_NOMEM;
	*a = p;
	*cap = n;
	return 0;
}

static char *join(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	char *s = malloc(la + lb + 2);

	if (s) {
		memcpy(s, a, la);
		s[la] = '/';
		memcpy(s + la + 1, b, lb + 1);
	}
	return s;
}

/*
 * Map a whole file read-only.  Returns 0, 1 if it does not exist and
 * `optional`, or an error.  An empty file maps to NULL, size 0.
 */
static void file_id_of(file_id *f, const struct stat *st)
{
	f->dev = st->st_dev;
	f->ino = st->st_ino;
	f->size = st->st_size;
	f->mtime = st->st_mtim;
}

/* Whether `path` still names the file `f` was taken from. */
static int same_file(const char *path, const file_id *f)
{
	struct stat st;
	file_id now;

	if (stat(path, &st) < 0)
		return 0;
	file_id_of(&now, &st);
	return now.dev == f->dev && now.ino == f->ino && now.size == f->size &&
	       now.mtime.tv_sec == f->mtime.tv_sec && now.mtime.tv_nsec == f->mtime.tv_nsec;
}

static int map_file(walker *w, const char *path, int optional,
		    const unsigned char **out, size_t *size, file_id *id)
{
	struct stat st;
	void *m;
	int fd;

	*out = NULL;
	*size = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (optional && errno == ENOENT)
			return 1;
		/* listed, then gone: a repack or gc removed it meanwhile */
		if (errno == ENOENT)
			w->vanished = 1;
		return fail(w, "%s: cannot open: %s", path, strerror(errno));
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return fail(w, "%s: not a regular file", path);
	}
	if (id)
		file_id_of(id, &st);
	if ((uint64_t)st.st_size > SIZE_MAX) {
		close(fd);
		return fail(w, "%s: too large to map", path);
	}
	if (st.st_size == 0) {
		close(fd);
		return 0;
	}
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return errno == ENOMEM ? WALK_NOMEM
				       : fail(w, "%s: cannot map: %s", path, strerror(errno));
	*out = m;
	*size = (size_t)st.st_size;
	return 0;
}

static void unmap(const unsigned char *m, size_t size)
{
	if (m)
		munmap((void *)m, size);
}

/* ---- pack index ---------------------------------------------------------- */

static const unsigned char *pack_name(const pack_file *pk, uint32_t i)
{
	return pk->names + (size_t)i * pk->name_stride;
}

static uint32_t fanout(const pack_file *pk, int b)
{
	return b < 0 ? 0 : be32(pk->fanout + 4 * b);
}

/*
 * Check the index layout (version 2: magic, version, fan-out, names, CRCs,
 * 32-bit offsets, 64-bit offsets, two checksums; version 1: fan-out, then
 * (offset, name) pairs, two checksums) and the pack header against it.
 */
static int pack_check(walker *w, pack_file *pk)
{
	const unsigned char *idx = pk->idx;
	size_t rawsz = w->rawsz;
	uint64_t min;
	uint32_t prev = 0;

	if (pk->idx_size >= 8 && !memcmp(idx, "\377tOc", 4)) {
		pk->version = (int)be32(idx + 4);
		if (pk->version != 2)
			return fail(w, "%s: unsupported index version %u", pk->idx_path,
				    be32(idx + 4));
		pk->fanout = idx + 8;
	} else {
		pk->version = 1;
		pk->fanout = idx;
	}
	if (pk->idx_size < (size_t)(pk->fanout - idx) + 1024 + 2 * rawsz)
		return fail(w, "%s: index file too small", pk->idx_path);
	for (int b = 0; b < 256; b++) {
		uint32_t f = fanout(pk, b);

		if (f < prev)
			return fail(w, "%s: index fan-out table is not monotone", pk->idx_path);
		prev = f;
	}
	pk->n = prev;
	if (pk->version == 2) {
		min = 8 + 1024 + (uint64_t)pk->n * (rawsz + 8) + 2 * rawsz;
		if (pk->idx_size < min || (pk->idx_size - min) % 8 ||
		    (pk->idx_size - min) / 8 > pk->n)
			return fail(w, "%s: index size does not match its %u objects",
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
			return fail(w, "%s: index size does not match its %u objects",
				    pk->idx_path, pk->n);
		pk->off32 = idx + 1024;
		pk->off_stride = rawsz + 4;
		pk->names = pk->off32 + 4;
		pk->name_stride = rawsz + 4;
	}

	if (pk->pack_size < 12 + rawsz || memcmp(pk->pack, "PACK", 4))
		return fail(w, "%s: not a pack file", pk->pack_path);
	if (be32(pk->pack + 4) != 2 && be32(pk->pack + 4) != 3)
		return fail(w, "%s: unsupported pack version %u", pk->pack_path,
			    be32(pk->pack + 4));
	if (be32(pk->pack + 8) != pk->n)
		return fail(w, "%s: holds %u objects, its index %u", pk->pack_path,
			    be32(pk->pack + 8), pk->n);
	/*
	 * The index ends with the pack's checksum: a truncated or other pack
	 * fails.  So does a pack rewritten under the same name between the
	 * two opens (git repack -f), so this is worth another attempt first.
	 */
	if (memcmp(pk->pack + pk->pack_size - rawsz, idx + pk->idx_size - 2 * rawsz, rawsz)) {
		if (!same_file(pk->idx_path, &pk->idx_id) || !same_file(pk->pack_path, &pk->pack_id))
			w->vanished = 1; /* rewritten meanwhile: look again */
		return fail(w, "%s: checksum does not match its index (truncated?)", pk->pack_path);
	}
	return 0;
}

/* The pack offset of index entry i, checked to lie inside the pack. */
static int entry_offset(walker *w, const pack_file *pk, uint32_t i, uint64_t *out)
{
	uint32_t o = be32(pk->off32 + (size_t)i * pk->off_stride);
	uint64_t off = o;

	if (pk->version == 2 && (o & 0x80000000u)) {
		o &= 0x7fffffffu;
		if (o >= pk->n64)
			return fail(w, "%s: large offset entry %u out of range", pk->idx_path, o);
		off = be64(pk->off64 + (size_t)o * 8);
	}
	if (off < 12 || off >= pk->pack_size - w->rawsz)
		return fail(w, "%s: offset %llu of object %u lies outside %s", pk->idx_path,
			    (unsigned long long)off, i, pk->pack_path);
	*out = off;
	return 0;
}

/* Index position of `id` in the pack, or NOT_FOUND. */
static uint32_t index_find(const pack_file *pk, const unsigned char *id, size_t rawsz)
{
	uint32_t lo = fanout(pk, id[0] - 1), hi = fanout(pk, id[0]);

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		int c = memcmp(pack_name(pk, mid), id, rawsz);

		if (!c)
			return mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NOT_FOUND;
}

/* ---- offset order ---------------------------------------------------------- */

static void order_free(pack_order *o)
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

/* Read the .rev file: index positions in pack order, checked as it goes. */
static int order_from_rev(walker *w, const pack_file *pk, pack_order *o)
{
	uint32_t n = pk->n;
	int rc;

	if (pk->rev_size != 12 + (size_t)n * 4 + 2 * w->rawsz ||
	    memcmp(pk->rev, "RIDX", 4) || be32(pk->rev + 4) != 1)
		return fail(w, "%s: bad reverse index header or size", pk->rev_path);
	if (be32(pk->rev + 8) != (w->rawsz == 32 ? 2u : 1u))
		return fail(w, "%s: reverse index is for another hash", pk->rev_path);
	for (uint32_t r = 0; r < n; r++) {
		uint32_t i = be32(pk->rev + 12 + (size_t)r * 4);

		if (i >= n)
			return fail(w, "%s: index position %u out of range", pk->rev_path, i);
		if ((rc = entry_offset(w, pk, i, &o->off[r])))
			return rc;
		/* strictly increasing offsets also prove it is a permutation */
		if (r && o->off[r] <= o->off[r - 1])
			return fail(w, "%s: not in pack order at position %u", pk->rev_path, r);
		o->pos[r] = i;
	}
	fill_buckets(o, n);
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
static int order_by_sorting(walker *w, const pack_file *pk, pack_order *o)
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
		rc = WALK_NOMEM;
		goto done;
	}
	for (uint32_t i = 0; i < n; i++) {
		uint64_t off;

		if ((rc = entry_offset(w, pk, i, &off)))
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
			rc = fail(w, "%s: two objects at offset %llu", pk->idx_path,
				  (unsigned long long)o->off[r]);
			goto done;
		}
	fill_buckets(o, n);
done:
	free(off2);
	free(pos2);
	free(count);
	return rc;
}

static int order_build(walker *w, const pack_file *pk, pack_order *o)
{
	size_t n = pk->n ? pk->n : 1;

	o->end = pk->pack_size - w->rawsz;
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
		return WALK_NOMEM;
	return pk->rev ? order_from_rev(w, pk, o) : order_by_sorting(w, pk, o);
}

/* Rank of the entry starting at offset `off`, or NOT_FOUND. */
static uint32_t rank_of(const pack_order *o, uint64_t off)
{
	uint64_t b = off >> o->shift;
	uint32_t lo, hi, end;

	if (b >= o->nb)
		return NOT_FOUND;
	lo = o->bucket[b];
	hi = end = o->bucket[b + 1];
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (o->off[mid] < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < end && o->off[lo] == off ? lo : NOT_FOUND;
}

/* ---- entry headers --------------------------------------------------------- */

/*
 * Read the header of the entry at rank r: its type, and for a delta the
 * rank of its base.  Header: type in bits 4-6 of the first byte, the size
 * as a little-endian base-128 varint (not needed here); an OFS_DELTA then
 * has its base's distance back (big-endian base-128, with +1 per
 * continuation byte), a REF_DELTA its base's ID.
 */
static int entry_header(walker *w, const pack_file *pk, const pack_order *o, uint32_t r,
			int *type, uint32_t *base)
{
	uint64_t off = o->off[r];
	const unsigned char *p = pk->pack + off;
	const unsigned char *e = pk->pack + (r + 1 < pk->n ? o->off[r + 1] : o->end);
	unsigned c = *p++;
	int t = (c >> 4) & 7, more = 0;

	*base = NOT_FOUND;
	while (c & 0x80) {
		if (p >= e || ++more > 9)
			return fail(w, "%s: bad object header at offset %llu", pk->pack_path,
				    (unsigned long long)off);
		c = *p++;
	}
	*type = t;
	if (t == OBJ_OFS_DELTA) {
		uint64_t rel;

		if (p >= e)
			goto bad_delta;
		c = *p++;
		rel = c & 127;
		while (c & 128) {
			if (p >= e || (rel >> 56))
				goto bad_delta;
			c = *p++;
			rel = ((rel + 1) << 7) | (c & 127);
		}
		if (!rel || rel > off)
			goto bad_delta;
		*base = rank_of(o, off - rel);
		if (*base == NOT_FOUND)
			goto bad_delta;
	} else if (t == OBJ_REF_DELTA) {
		uint64_t boff;
		uint32_t i;
		int rc;

		if ((size_t)(e - p) < w->rawsz)
			goto bad_delta;
		/* git wants a REF_DELTA's base in the same pack */
		i = index_find(pk, p, w->rawsz);
		if (i == NOT_FOUND) {
			char hex[ABBREV_MAX_HEXSZ + 1];

			hexid_fmt(hex, p, w->rawsz);
			return fail(w, "%s: delta base %s of the object at offset %llu is not in the pack",
				    pk->pack_path, hex, (unsigned long long)off);
		}
		if ((rc = entry_offset(w, pk, i, &boff)))
			return rc;
		*base = rank_of(o, boff);
		if (*base == NOT_FOUND || *base == r)
			goto bad_delta;
	} else if (t < ABBREV_TYPE_COMMIT || t > ABBREV_TYPE_TAG) {
		return fail(w, "%s: unknown object type %d at offset %llu", pk->pack_path, t,
			    (unsigned long long)off);
	}
	return 0;
bad_delta:
	return fail(w, "%s: bad delta base of the object at offset %llu", pk->pack_path,
		    (unsigned long long)off);
}

/*
 * The header scan of a pack runs in two passes.  The first reads every
 * entry header and notes either the entry's type or its delta base's
 * rank; it is split in pack order into two parts, ranks [0, n/2) on the
 * calling thread and [n/2, n) on another, which write disjoint ranks and
 * read only the shared, finished order.  The second pass, on the calling
 * thread, gives each delta its base's type in rank order: an OFS_DELTA's
 * base lies earlier in the pack, so its type is known by then, and only
 * a REF_DELTA on a later base follows links.  Nothing depends on the
 * threads' timing; errors come in rank order of the parts (the first
 * part's, then the second's, then the chains'), as one thread finds them.
 */
typedef struct {
	walker w;             /* a private copy, with its own error buffer */
	const pack_file *pk;
	pack_order *o;
	uint32_t lo, hi;
	size_t done0;         /* progress count before this part (the first part's only) */
	int show_progress;
	int rc;
	char err[1024];       /* as large as the callers' buffers */
} scan_part;

static void scan_part_run(scan_part *sp)
{
	const pack_file *pk = sp->pk;
	pack_order *o = sp->o;

	for (uint32_t r = sp->lo; r < sp->hi; r++) {
		uint32_t base;
		int t = 0, rc;

#ifdef __GNUC__
		/* the headers are read in address order, but too far apart for the
		   hardware to fetch them ahead by itself */
		if (r + SCAN_AHEAD < sp->hi)
			__builtin_prefetch(pk->pack + o->off[r + SCAN_AHEAD]);
#endif
		if ((rc = entry_header(&sp->w, pk, o, r, &t, &base))) {
			sp->rc = rc;
			return;
		}
		o->base[r] = base;
		if (base == NOT_FOUND)
			o->type[r] = (unsigned char)t;
		if (sp->show_progress)
			progress_update(sp->w.p, sp->done0 + (r - sp->lo) + 1);
	}
}

static void *scan_part_thread(void *arg)
{
	scan_part_run(arg);
	return NULL;
}

/* The type of the delta at rank r: its chain's end, through known types. */
static int resolve(walker *w, const pack_file *pk, pack_order *o, uint32_t r)
{
	uint32_t cur = r;
	int depth = 0;

	while (!o->type[cur]) {
		if (depth >= MAX_DELTA_DEPTH)
			return fail(w, "%s: delta chain too deep or looping at offset %llu",
				    pk->pack_path, (unsigned long long)o->off[r]);
		w->chain[depth++] = cur;
		cur = o->base[cur];
	}
	while (depth > 0)
		o->type[w->chain[--depth]] = o->type[cur];
	return 0;
}

/* Type every entry of a pack into pk->types, reading headers in pack order. */
static int pack_scan(walker *w, pack_file *pk)
{
	pack_order o = { 0 };
	scan_part part[2];
	pthread_attr_t attr;
	pthread_t thread;
	int rc, threaded = 0;

	memset(part, 0, sizeof(part));
	pk->types = malloc(pk->n ? pk->n : 1);
	if (!pk->types)
		return WALK_NOMEM;
	if ((rc = order_build(w, pk, &o)))
		goto done;
	for (int i = 0; i < 2; i++) {
		scan_part *sp = &part[i];

		sp->w = *w;
		sp->w.err = sp->err;
		sp->w.errsz = sizeof(sp->err);
		sp->pk = pk;
		sp->o = &o;
		sp->lo = i ? pk->n / 2 : 0;
		sp->hi = i ? pk->n : pk->n / 2;
		sp->done0 = w->done;
		sp->show_progress = !i;
	}
	/* a small stack will do; without a thread, the second part runs here */
	if (!pthread_attr_init(&attr)) {
		threaded = !pthread_attr_setstacksize(&attr, SCAN_STACK) &&
			   !pthread_create(&thread, &attr, scan_part_thread, &part[1]);
		pthread_attr_destroy(&attr);
	}
	scan_part_run(&part[0]);
	if (threaded)
		pthread_join(thread, NULL);
	else if (!part[0].rc)
		scan_part_run(&part[1]);
	for (int i = 0; i < 2 && !rc; i++)
		if (part[i].rc) {
			snprintf(w->err, w->errsz, "%s", part[i].err);
			rc = part[i].rc;
		}
	for (uint32_t r = 0; r < pk->n && !rc; r++) {
		if (!o.type[r])
			rc = resolve(w, pk, &o, r);
		pk->types[o.pos[r]] = o.type[r];
	}
	w->done += pk->n;
	progress_update(w->p, w->done);
done:
	order_free(&o);
	/* the merge needs only the names: give the pack's pages back now */
	unmap(pk->pack, pk->pack_size);
	unmap(pk->rev, pk->rev_size);
	pk->pack = pk->rev = NULL;
	return rc;
}

/* ---- object directories ---------------------------------------------------- */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Map every pack-*.idx of dir/pack that has its .pack (git skips the others). */
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
static int list_packs(walker *w, const char *pdir, char ***out, size_t *nout,
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
		return errno == ENOENT ? 0 : fail(w, "%s: cannot read: %s", pdir, strerror(errno));
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (len <= 9 || strncmp(de->d_name, "pack-", 5) ||
		    strcmp(de->d_name + len - 4, ".idx"))
			continue;
		if ((rc = grow(&names, &cap, n + 1, sizeof(*names))))
			break;
		if (!(names[n] = strndup(de->d_name, len - 4))) {
			rc = WALK_NOMEM;
			break;
		}
		n++;
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp_str);
	for (size_t i = 0; !rc && i < n; i++) {
		size_t need = strlen(pdir) + strlen(names[i]) + 3;

		if ((rc = grow(seen, seen_cap, *seen_len + need, 1)))
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

static int add_packs(walker *w, const char *dir)
{
	char *pdir = join(dir, "pack");
	char **names = NULL;
	size_t n = 0, i;
	int rc = 0;

	if (!pdir)
		return WALK_NOMEM;
	rc = list_packs(w, pdir, &names, &n, &w->packs_seen, &w->packs_seen_len,
			&w->packs_seen_cap);
	if (rc) {
		free(pdir);
		return rc;
	}
	for (i = 0; i < n; i++) {
		pack_file *pk;
		char *base = join(pdir, names[i]);
		size_t bl;

		if (!base || (rc = grow(&w->packs, &w->packs_cap, w->npacks + 1, sizeof(*pk)))) {
			free(base);
			rc = WALK_NOMEM;
			goto done;
		}
		pk = &w->packs[w->npacks];
		memset(pk, 0, sizeof(*pk));
		bl = strlen(base);
		pk->idx_path = malloc(bl + 6);
		pk->pack_path = malloc(bl + 6);
		pk->rev_path = malloc(bl + 6);
		if (!pk->idx_path || !pk->pack_path || !pk->rev_path) {
			free(pk->idx_path);
			free(pk->pack_path);
			free(pk->rev_path);
			free(base);
			rc = WALK_NOMEM;
			goto done;
		}
		sprintf(pk->idx_path, "%s.idx", base);
		sprintf(pk->pack_path, "%s.pack", base);
		sprintf(pk->rev_path, "%s.rev", base);
		free(base);
		w->npacks++; /* from here on, freed with the walker */
		rc = map_file(w, pk->pack_path, 1, &pk->pack, &pk->pack_size, &pk->pack_id);
		if (rc == 1) { /* an index without its pack: not a pack to git either */
			w->npacks--;
			free(pk->idx_path);
			free(pk->pack_path);
			free(pk->rev_path);
			rc = 0;
			continue;
		}
		if (rc || (rc = map_file(w, pk->idx_path, 0, &pk->idx, &pk->idx_size, &pk->idx_id)) ||
		    (rc = pack_check(w, pk)))
			goto done;
		rc = map_file(w, pk->rev_path, 1, &pk->rev, &pk->rev_size, NULL);
		if (rc < 0)
			goto done;
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
static int packs_changed(walker *w)
{
	char *now = NULL, *pdir;
	size_t len = 0, cap = 0;
	int rc = 0;

	for (size_t i = 0; !rc && i < w->ndirs; i++) {
		char **names;
		size_t n;

		if (!(pdir = join(w->dirs[i], "pack")))
			rc = WALK_NOMEM;
		else if (!(rc = list_packs(w, pdir, &names, &n, &now, &len, &cap)))
			free_names(names, n);
		free(pdir);
	}
	if (!rc)
		rc = len != w->packs_seen_len || (len && memcmp(now, w->packs_seen, len));
	free(now);
	return rc;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1; /* git writes lower case only */
}

/*
 * The type of a loose object: inflate just enough of the file to see its
 * header "<type> <size>\0".  0, 1 if the file vanished (packed meanwhile),
 * or an error.
 */
static int loose_type(walker *w, const char *path, int *type)
{
	unsigned char in[256];
	char hdr[64];
	size_t len;
	char *nul, *sp;
	int fd, zr = Z_OK;

	if (!w->zs_ready) {
		memset(&w->zs, 0, sizeof(w->zs));
		if (inflateInit(&w->zs) != Z_OK)
			return WALK_NOMEM;
		w->zs_ready = 1;
	} else if (inflateReset(&w->zs) != Z_OK) {
		return fail(w, "%s: zlib reset failed", path);
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT) {
			/* listed, then gone: pruned, or moved into a pack */
			w->vanished = 1;
			return 1;
		}
		return fail(w, "%s: cannot open: %s", path, strerror(errno));
	}
	w->zs.next_out = (unsigned char *)hdr;
	w->zs.avail_out = sizeof(hdr) - 1;
	for (;;) {
		ssize_t got = read(fd, in, sizeof(in));

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int e = errno;

			close(fd);
			return fail(w, "%s: cannot read: %s", path, strerror(e));
		}
		if (got == 0)
			break;
		w->zs.next_in = in;
		w->zs.avail_in = (unsigned)got;
		zr = inflate(&w->zs, Z_SYNC_FLUSH);
		len = sizeof(hdr) - 1 - w->zs.avail_out;
		if ((zr != Z_OK && zr != Z_BUF_ERROR) || !w->zs.avail_out || memchr(hdr, 0, len))
			break;
	}
	close(fd);
	len = sizeof(hdr) - 1 - w->zs.avail_out;
	if (zr != Z_OK && zr != Z_STREAM_END && zr != Z_BUF_ERROR)
		return fail(w, "%s: corrupt loose object (zlib: %s)", path,
			    w->zs.msg ? w->zs.msg : "bad data");
	hdr[len] = '\0';
	nul = memchr(hdr, 0, len + 1);
	sp = memchr(hdr, ' ', (size_t)(nul - hdr));
	if (nul == hdr + len || !sp || sp + 1 == nul)
		goto bad;
	for (const char *d = sp + 1; d < nul; d++)
		if (*d < '0' || *d > '9')
			goto bad;
	*sp = '\0';
	*type = hexid_type_from_name(hdr);
	if (*type == ABBREV_TYPE_NONE) {
		/* the name is the file's bytes: keep the message one printable line */
		for (char *c = hdr; *c; c++)
			if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f)
				*c = '?';
		return fail(w, "%s: unknown object type \"%s\"", path, hdr);
	}
	return 0;
bad:
	return fail(w, "%s: bad loose object header", path);
}

/* Read the loose objects dir/xx/yyyy...; their order is sorted later. */
static int add_loose(walker *w, const char *dir)
{
	size_t dl = strlen(dir), hexsz = 2 * w->rawsz;
	char *path = malloc(dl + hexsz + 3);
	int rc = 0;

	if (!path)
		return WALK_NOMEM;
	for (int b = 0; b < 256 && !rc; b++) {
		struct dirent *de;
		DIR *d;

		snprintf(path, dl + 5, "%s/%02x/", dir, b);
		d = opendir(path);
		if (!d) {
			if (errno != ENOENT && errno != ENOTDIR)
				rc = fail(w, "%s: cannot read: %s", path, strerror(errno));
			continue;
		}
		while (!rc && (de = readdir(d))) {
			loose_obj *lo;
			int t, ok = strlen(de->d_name) == hexsz - 2;

			for (size_t i = 0; ok && i < hexsz - 2; i++)
				ok = hexval(de->d_name[i]) >= 0;
			if (!ok) /* tmp_obj_*, and anything else git ignores */
				continue;
			memcpy(path + dl + 4, de->d_name, hexsz - 1);
			rc = loose_type(w, path, &t);
			if (rc == 1) {
				rc = 0;
				continue;
			}
			if (rc || (rc = grow(&w->loose, &w->loose_cap, w->nloose + 1, sizeof(*lo))))
				break;
			lo = &w->loose[w->nloose++];
			memset(lo, 0, sizeof(*lo));
			lo->id[0] = (unsigned char)b;
			for (size_t i = 1; i < w->rawsz; i++)
				lo->id[i] = (unsigned char)(hexval(de->d_name[2 * i - 2]) << 4 |
							    hexval(de->d_name[2 * i - 1]));
			lo->type = (unsigned char)t;
			progress_update(w->p, w->nloose);
		}
		closedir(d);
	}
	free(path);
	return rc;
}

/*
 * Normalise a path as git does for alternates: drop "." and empty
 * components, let ".." drop the component before it (kept where there is
 * none), no trailing slash.  In place; 0 or WALK_NOMEM.
 */
static int normalize_path(char *path)
{
	char *buf = malloc(strlen(path) + 2), *out, *start;
	const char *p = path;
	int root = *p == '/';

	if (!buf)
		return WALK_NOMEM;
	out = buf;
	if (root)
		*out++ = '/';
	start = out;
	while (*p) {
		size_t len = strcspn(p, "/");

		if (!len || (len == 1 && p[0] == '.')) {
			/* nothing */
		} else if (len == 2 && p[0] == '.' && p[1] == '.') {
			char *last = out; /* the last component written */

			if (out > start)
				for (last = out - 1; last > start && last[-1] != '/'; last--)
					;
			if (out > start && !(out - last == 3 && !memcmp(last, "../", 3))) {
				out = last;
			} else if (!root) {
				memcpy(out, "../", 3);
				out += 3;
			}
		} else {
			memcpy(out, p, len);
			out += len;
			*out++ = '/';
		}
		p += len;
		while (*p == '/')
			p++;
	}
	if (out > start)
		out--;
	else if (!root)
		*out++ = '.';
	*out = '\0';
	strcpy(path, buf);
	free(buf);
	return 0;
}

/* Undo git's C-style quoting of an alternates line, in place; 0 or -1. */
static int unquote(char *s)
{
	char *o = s, *p = s + 1;

	while (*p && *p != '"') {
		if (*p != '\\') {
			*o++ = *p++;
			continue;
		}
		p++;
		switch (*p) {
		case 'a': *o++ = '\a'; p++; break;
		case 'b': *o++ = '\b'; p++; break;
		case 'f': *o++ = '\f'; p++; break;
		case 'n': *o++ = '\n'; p++; break;
		case 'r': *o++ = '\r'; p++; break;
		case 't': *o++ = '\t'; p++; break;
		case 'v': *o++ = '\v'; p++; break;
		case '\\': case '"': *o++ = *p++; break;
		default:
			if (p[0] >= '0' && p[0] <= '3' && p[1] >= '0' && p[1] <= '7' &&
			    p[2] >= '0' && p[2] <= '7') {
				*o++ = (char)((p[0] - '0') << 6 | (p[1] - '0') << 3 | (p[2] - '0'));
				p += 3;
				break;
			}
			return -1;
		}
	}
	if (*p != '"' || p[1])
		return -1;
	*o = '\0';
	return 0;
}

static int add_objdir(walker *w, const char *dir, int depth, const char *from);

/* Follow dir/info/alternates: one object directory a line. */
static int add_alternates(walker *w, const char *dir, int depth)
{
	char *path = join(dir, "info/alternates"), *text = NULL, *line, *next;
	const unsigned char *m;
	size_t size;
	int rc;

	if (!path)
		return WALK_NOMEM;
	rc = map_file(w, path, 1, &m, &size, NULL);
	if (rc) {
		free(path);
		return rc == 1 ? 0 : rc;
	}
	if (size && depth > MAX_ALT_DEPTH) {
		rc = fail(w, "%s: alternates nested more than %d deep", path, MAX_ALT_DEPTH);
		goto done;
	}
	text = malloc(size + 1);
	if (!text) {
		rc = WALK_NOMEM;
		goto done;
	}
	memcpy(text, m, size);
	text[size] = '\0';
	for (line = text; line && !rc; line = next) {
		char *alt;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (!*line || *line == '#')
			continue;
		if (*line == '"' && unquote(line) < 0) {
			rc = fail(w, "%s: bad quoting", path);
			break;
		}
		alt = *line == '/' ? strdup(line) : join(dir, line);
		if (!alt) {
			rc = WALK_NOMEM;
			break;
		}
		rc = normalize_path(alt);
		if (!rc)
			rc = add_objdir(w, alt, depth + 1, path);
		free(alt);
	}
done:
	free(text);
	unmap(m, size);
	free(path);
	return rc;
}

/* Add one object directory (once, however often it is named) and its alternates. */
static int add_objdir(walker *w, const char *dir, int depth, const char *from)
{
	char *real = realpath(dir, NULL);
	struct stat st;
	int rc;

	if (!real || stat(real, &st) < 0 || !S_ISDIR(st.st_mode)) {
		int e = real ? ENOTDIR : errno;

		free(real);
		if (e == ENOMEM)
			return WALK_NOMEM;
		if (from)
			return fail(w, "%s: alternate object directory %s: %s", from, dir,
				    strerror(e));
		return fail(w, "%s: cannot open object directory: %s", dir, strerror(e));
	}
	for (size_t i = 0; i < w->ndirs; i++)
		if (!strcmp(w->dirs[i], real)) {
			free(real);
			return 0;
		}
	if (grow(&w->dirs, &w->dirs_cap, w->ndirs + 1, sizeof(*w->dirs))) {
		free(real);
		return WALK_NOMEM;
	}
	w->dirs[w->ndirs++] = real;
	if ((rc = add_packs(w, dir)))
		return rc;
	/*
	 * A test hook: wait here, between listing the packs and reading the
	 * loose objects, so that tests/t-concurrent.sh can repack in between
	 * every time instead of by chance.
	 */
	const char *pause = getenv("GIT_ABBREV_TEST_PAUSE_MS");
	if (pause && !w->paused) {
		w->paused = 1;
		usleep(1000u * (unsigned)atoi(pause));
	}
	if ((rc = add_loose(w, dir)))
		return rc;
	return add_alternates(w, dir, depth);
}

/* ---- the merge ------------------------------------------------------------- */

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
	const pack_file *pk;            /* NULL for the loose objects */
} source;

static int cmp_loose(const void *a, const void *b)
{
	return memcmp(((const loose_obj *)a)->id, ((const loose_obj *)b)->id, ABBREV_MAX_RAWSZ);
}

/* The first 8 bytes of an ID, big-endian (zero-padded below 8 bytes). */
static uint64_t id_key(const unsigned char *id, size_t rawsz)
{
	uint64_t k = 0;

	if (rawsz >= 8)
		return be64(id);
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
	return i >= fanout(pk, id[0] - 1) && i < fanout(pk, id[0]);
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
	s->key = id_key(s->id, w->rawsz);
	if (s->pk) {
		if (s->key < prev_key ||
		    (s->key == prev_key && memcmp(prev, s->id, w->rawsz) >= 0))
			return fail(w, "%s: index is not sorted at entry %zu", s->pk->idx_path, s->i);
		if (!fanout_ok(s->pk, s->i, s->id))
			return fail(w, "%s: fan-out table does not match entry %zu",
				    s->pk->idx_path, s->i);
	}
	return 0;
}

static int merge(walker *w, idsets *set)
{
	size_t nsrc = 0, nh = 0, total = w->nloose, added = 0;
	source *src = calloc(w->npacks + 1, sizeof(*src));
	source **heap = calloc(w->npacks + 1, sizeof(*heap));
	const unsigned char *last = NULL;
	uint64_t last_key = 0;
	idsets_bulk *bulk = NULL;
	int rc = 0;

	if (!src || !heap) {
		rc = WALK_NOMEM;
		goto done;
	}
	for (size_t i = 0; i < w->npacks; i++) {
		const pack_file *pk = &w->packs[i];

		total += pk->n;
		if (!pk->n)
			continue;
		src[nsrc] = (source){ id_key(pack_name(pk, 0), w->rawsz), pack_name(pk, 0), pk->types,
				      pk->name_stride, 1, 0, pk->n, pk };
		if (!fanout_ok(pk, 0, pack_name(pk, 0))) {
			rc = fail(w, "%s: fan-out table does not match entry 0", pk->idx_path);
			goto done;
		}
		nsrc++;
	}
	if (w->nloose) {
		qsort(w->loose, w->nloose, sizeof(*w->loose), cmp_loose);
		src[nsrc++] = (source){ id_key(w->loose[0].id, w->rawsz), w->loose[0].id,
					&w->loose[0].type, sizeof(*w->loose), sizeof(*w->loose), 0,
					w->nloose, NULL };
	}
	for (size_t i = 0; i < nsrc; i++)
		heap[nh++] = &src[i];
	for (size_t i = nh / 2; i-- > 0;)
		sift_down(heap, nh, i, w->rawsz);
	/* the merge yields the IDs in ascending order: the sets' bulk adding */
	if (!(bulk = idsets_bulk_start(set, total))) {
		rc = WALK_NOMEM;
		goto done;
	}

	progress_start(w->p, "adding objects", total);
	while (nh) {
		source *s = heap[0];

		/* an object in two packs, or loose and packed, counts once */
		if (!last || s->key != last_key || memcmp(last, s->id, w->rawsz)) {
			int r = idsets_bulk_add(bulk, s->id, *s->type);

			if (r == -2) {
				rc = WALK_NOMEM;
				goto done;
			}
			if (r < 0) {
				rc = fail(w, "%s: bad object type", s->pk ? s->pk->pack_path : "loose object");
				goto done;
			}
		}
		last = s->id;
		last_key = s->key;
		progress_update(w->p, ++added);
		rc = src_next(w, s);
		if (rc < 0)
			goto done;
		if (rc == 1) {
			rc = 0;
			heap[0] = heap[--nh];
		}
		sift_down(heap, nh, 0, w->rawsz);
	}
	progress_stop(w->p);
done:
	if (idsets_bulk_finish(bulk) && !rc)
		rc = WALK_NOMEM;
	free(src);
	free(heap);
	return rc;
}

/* ---- entry point ----------------------------------------------------------- */

static void walker_free(walker *w)
{
	for (size_t i = 0; i < w->npacks; i++) {
		pack_file *pk = &w->packs[i];

		unmap(pk->idx, pk->idx_size);
		unmap(pk->pack, pk->pack_size);
		unmap(pk->rev, pk->rev_size);
		free(pk->idx_path);
		free(pk->pack_path);
		free(pk->rev_path);
		free(pk->types);
	}
	free(w->packs);
	free(w->loose);
	for (size_t i = 0; i < w->ndirs; i++)
		free(w->dirs[i]);
	free(w->dirs);
	free(w->chain);
	free(w->packs_seen);
	if (w->zs_ready)
		inflateEnd(&w->zs);
}

/* How often a walk starts again when a repack or gc changes the packs under it. */
#define MAX_ATTEMPTS 5

/*
 * One attempt: list and map everything, read the types, and, if nothing
 * was repacked meanwhile, merge into the sets.  1 means "changed: try
 * again" (nothing was added to the sets then).
 */
static int walk_once(walker *w, const char *objdir, idsets *s, int last)
{
	size_t total = 0;
	int rc;

	progress_start(w->p, "reading loose objects", 0);
	rc = add_objdir(w, objdir, 0, NULL);
	progress_stop(w->p);
	for (size_t i = 0; !rc && i < w->npacks; i++)
		total += w->packs[i].n;
	if (!rc)
		progress_start(w->p, "reading pack headers", total);
	for (size_t i = 0; i < w->npacks && !rc; i++)
		rc = pack_scan(w, &w->packs[i]);
	progress_stop(w->p);
	/*
	 * The maps stay valid whatever happens to the files now, so the
	 * merge reads one consistent state if the packs listed at the start
	 * are still the packs now and no file vanished in between.
	 */
	if (w->vanished && rc && last)
		return rc; /* still failing: not a race but a broken repository */
	if ((!rc || w->vanished) && (w->vanished || (rc = packs_changed(w)) == 1))
		return 1;
	if (!rc)
		rc = merge(w, s);
	return rc;
}

int walk_pack_objects(const char *objdir, idsets *s, progress *p, char *err, size_t errsz)
{
	int rc = 1;

	for (int attempt = 0; rc == 1 && attempt < MAX_ATTEMPTS; attempt++) {
		walker w = { 0 };

		if (attempt)
			usleep(10000u << attempt); /* let the repack finish */
		w.rawsz = idsets_rawsz(s);
		w.p = p;
		w.err = err;
		w.errsz = errsz;
		w.chain = malloc(MAX_DELTA_DEPTH * sizeof(*w.chain));
		rc = w.chain ? walk_once(&w, objdir, s, attempt == MAX_ATTEMPTS - 1) : WALK_NOMEM;
		walker_free(&w);
	}
	if (rc == 1) {
		snprintf(err, errsz, "%s: the object directory kept changing during the walk "
			 "(a repack or gc?); try again", objdir);
		rc = WALK_ERR;
	}
	return rc;
}
