/*
 * objread.c - objects by ID from the mapped packs (objread.h).
 *
 * The packs are found and mapped by the object database reader
 * (odb.h: odb_dirs.c, odb_pack.c), entries parsed and deltas applied
 * by pack_obj.c.  An object is rebuilt by following its delta chain down
 * to a whole object or to an object still in the base cache, then
 * applying the deltas back up; each object made on the way goes into the
 * cache.  The cache is direct-mapped on (pack, offset), BASE_SLOTS
 * entries of at most BASE_MAX_OBJ bytes, BASE_MAX_BYTES in all: commits
 * and their delta bases, a few hundred bytes each, fit by the thousand.
 */
#include <config.h>

#include "objread.h"

#include <errno.h>
#include <libdeflate.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include "pack_obj.h"
#include "subject_cache.h"
#include "test_hooks.h"
#include "odb.h"

#define BASE_SLOTS 4096
#define BASE_MAX_OBJ (256u << 10)
#define BASE_MAX_BYTES ((size_t)64 << 20)
#define OBJ_MAX ((size_t)1 << 30) /* larger objects are not read here */

typedef struct {
	unsigned char *buf;   /* NULL: empty */
	size_t len;
	uint64_t off;
	uint32_t pack;
	int type;
} slot;

struct objread {
	odb db;             /* a fork's: a copy of its parent's, not its own to free */
	int forked;
	char err[512];
	z_stream zs;          /* an object's first bytes (objread_read_head) */
	int zs_ready;
	struct libdeflate_decompressor *ld; /* whole objects */
	slot *slots;
	size_t cached;        /* bytes held by the slots */
	unsigned char *hold;  /* the last object made that the cache did not take */
	uint64_t *chain;      /* offsets of the deltas being rebuilt */
	size_t chain_cap;
	int paused;           /* the test build's pause is behind (test_hooks.h) */
};

int objread_new(objread **out, const char *objdir, size_t rawsz, char *err, size_t errsz)
{
	objread *r = calloc(1, sizeof(*r));
	int rc;

	*out = NULL;
	if (!r)
		return -1;
	r->db.rawsz = rawsz;
	r->db.err = r->err;
	r->db.errsz = sizeof(r->err);
	r->slots = calloc(BASE_SLOTS, sizeof(*r->slots));
	rc = r->slots ? odb_find_objdirs(&r->db, objdir) : ODB_NOMEM;
	for (size_t i = 0; i < r->db.ndirs && !rc; i++)
		rc = odb_add_packs(&r->db, r->db.dirs[i]);
	if (!rc && inflateInit(&r->zs) != Z_OK)
		rc = ODB_NOMEM;
	r->zs_ready = !rc;
	if (!rc && !(r->ld = libdeflate_alloc_decompressor()))
		rc = ODB_NOMEM;
	if (rc) {
		snprintf(err, errsz, "%s", r->err);
		objread_free(r);
		return rc == ODB_NOMEM ? -1 : -2;
	}
	*out = r;
	test_hook_read_pause(&r->paused);
	return 0;
}

int objread_fork(const objread *r, objread **out)
{
	objread *f = calloc(1, sizeof(*f));

	*out = NULL;
	if (!f)
		return -1;
	f->db = r->db;
	f->db.err = f->err;
	f->db.errsz = sizeof(f->err);
	f->forked = 1;
	f->paused = 1;
	f->slots = calloc(BASE_SLOTS, sizeof(*f->slots));
	f->zs_ready = f->slots && inflateInit(&f->zs) == Z_OK;
	if (!f->zs_ready || !(f->ld = libdeflate_alloc_decompressor())) {
		objread_free(f);
		return -1;
	}
	*out = f;
	return 0;
}

void objread_free(objread *r)
{
	if (!r)
		return;
	if (r->zs_ready)
		inflateEnd(&r->zs);
	if (r->ld)
		libdeflate_free_decompressor(r->ld);
	for (size_t i = 0; r->slots && i < BASE_SLOTS; i++)
		free(r->slots[i].buf);
	free(r->slots);
	free(r->hold);
	free(r->chain);
	if (!r->forked)
		odb_free(&r->db);
	free(r);
}

int objread_locate_pos(const objread *r, const unsigned char *id, uint32_t *pack, uint32_t *pos,
		       uint64_t *off)
{
	for (size_t p = 0; p < r->db.npacks; p++) {
		const pack_file *pk = &r->db.packs[p];
		uint32_t i = odb_index_find(pk, id, r->db.rawsz);

		/* a bad offset is the caller's "cannot be read" (-2 from the read) */
		if (i == NOT_FOUND)
			continue;
		*pack = (uint32_t)p;
		*pos = i;
		if (odb_entry_offset(pk, i, off, NULL, 0))
			*off = 0;
		return 1;
	}
	return 0;
}

int objread_locate(const objread *r, const unsigned char *id, uint32_t *pack, uint64_t *off)
{
	uint32_t pos;

	return objread_locate_pos(r, id, pack, &pos, off);
}

static slot *slot_of(objread *r, uint32_t pack, uint64_t off)
{
	uint64_t h = (off ^ ((uint64_t)pack << 40)) * UINT64_C(0x9e3779b97f4a7c15);

	return &r->slots[h >> 52]; /* the top 12 bits: BASE_SLOTS = 4096 */
}

/*
 * Keep an object just made (buf, owned from here on): in the cache when
 * it fits, else as r->hold.  The object it was made from is no longer
 * needed, so whatever this evicts may be freed.
 */
static void keep(objread *r, uint32_t pack, uint64_t off, int type, unsigned char *buf, size_t len)
{
	slot *s = slot_of(r, pack, off);

	if (len <= BASE_MAX_OBJ && r->cached - (s->buf ? s->len : 0) + len <= BASE_MAX_BYTES) {
		if (s->buf)
			r->cached -= s->len;
		free(s->buf);
		*s = (slot){ buf, len, off, pack, type };
		r->cached += len;
		return;
	}
	free(r->hold);
	r->hold = buf;
}

/*
 * Room libdeflate may write past the end of an object: with it, its fast
 * loop runs to the last byte (it wants 299 bytes of room after what it
 * writes), not only to 299 bytes before the end, which for a commit of
 * a few hundred bytes is all of it.  git.git's 203,352 commits inflated
 * in 0.54 s instead of 0.61 (one thread, docs/benchmark.md).
 */
#define INFLATE_ROOM 320

/*
 * Inflate exactly `size` bytes from the zlib stream at src (at most avail
 * bytes) into out, which has size + INFLATE_ROOM bytes: 0, or -1 when it
 * is damaged or inflates to another size.  libdeflate, not zlib: a whole
 * small stream in half the time (the Huffman tables of each are built
 * faster), which is most of reading every commit of a repository.
 */
static int inflate_whole(objread *r, const unsigned char *src, size_t avail, unsigned char *out,
			 size_t size)
{
	size_t in, got;

	return libdeflate_zlib_decompress_ex(r->ld, src, avail, out, size + INFLATE_ROOM, &in,
					     &got) == LIBDEFLATE_SUCCESS &&
			       got == size
		       ? 0
		       : -1;
}

/* The entry's zlib stream inflated into a new buffer (size + 1 bytes, NUL-ended). */
static int inflate_entry(objread *r, const pack_file *pk, const pack_entry *e, unsigned char **out)
{
	const unsigned char *end = pk->pack + pk->pack_size - r->db.rawsz;
	unsigned char *b;

	if (e->size > OBJ_MAX)
		return -2;
	b = malloc(e->size + INFLATE_ROOM);
	if (!b)
		return -1;
	if (inflate_whole(r, e->data, (size_t)(end - e->data), b, e->size)) {
		free(b);
		return -2;
	}
	b[e->size] = '\0';
	*out = b;
	return 0;
}

#define HEAD_STEP 512 /* the first step of objread_read_head(), doubled after */
#define HEAD_WHOLE 4096 /* objread_read_head(): smaller objects are inflated whole */

int objread_read_head(objread *r, uint32_t pack, uint64_t off,
		      int (*enough)(const char *d, size_t n), int *type,
		      const unsigned char **data, size_t *len)
{
	const pack_file *pk;
	const unsigned char *end;
	slot *s = slot_of(r, pack, off);
	unsigned char *b;
	size_t cap, got = 0;
	pack_entry e;
	int zr;

	if (pack >= r->db.npacks)
		return -2;
	pk = &r->db.packs[pack];
	end = pk->pack + pk->pack_size - r->db.rawsz;
	if ((s->buf && s->pack == pack && s->off == off) ||
	    pack_entry_parse(pk->pack, (uint64_t)(end - pk->pack), off, r->db.rawsz, &e) ||
	    e.type == PACK_OFS_DELTA || e.type == PACK_REF_DELTA || e.size <= HEAD_WHOLE)
		return objread_read_at(r, pack, off, type, data, len);
	if (inflateReset(&r->zs) != Z_OK)
		return -2;
	r->zs.next_in = (unsigned char *)e.data;
	r->zs.avail_in = (size_t)(end - e.data) > UINT32_MAX ? UINT32_MAX : (unsigned)(end - e.data);
	cap = HEAD_STEP;
	if (!(b = malloc(cap + 1)))
		return -1;
	for (;;) {
		/* at the full size, room for one byte more: a stream too long is damage */
		r->zs.next_out = b + got;
		r->zs.avail_out = (unsigned)((cap == e.size ? cap + 1 : cap) - got);
		zr = inflate(&r->zs, Z_SYNC_FLUSH);
		got = (cap == e.size ? cap + 1 : cap) - r->zs.avail_out;
		if (zr == Z_STREAM_END && got == e.size)
			break; /* the whole object */
		if (zr != Z_OK || got > e.size)
			goto bad; /* damaged, cut short (Z_BUF_ERROR: no input left) */
		b[got] = '\0';
		if (enough((const char *)b, got))
			break;
		if (got == cap && cap < e.size) {
			unsigned char *nb;

			cap = 2 * cap < e.size ? 2 * cap : e.size;
			if (!(nb = realloc(b, cap + 1))) {
				free(b);
				return -1;
			}
			b = nb;
		}
	}
	b[got] = '\0';
	free(r->hold);
	r->hold = b; /* maybe a part: not for the cache */
	*type = e.type;
	*data = b;
	*len = got;
	return 1;
bad:
	free(b);
	return -2;
}

int objread_read_at(objread *r, uint32_t pack, uint64_t off, int *type,
		    const unsigned char **data, size_t *len)
{
	const pack_file *pk;
	uint64_t end, cur = off;
	size_t depth = 0, blen = 0;
	const unsigned char *base = NULL;
	int btype = 0, rc;
	pack_entry e;

	if (pack >= r->db.npacks)
		return -2;
	pk = &r->db.packs[pack];
	end = pk->pack_size - r->db.rawsz;
	/* down the chain to a whole object, or one the cache has */
	for (;;) {
		slot *s = slot_of(r, pack, cur);

		if (s->buf && s->pack == pack && s->off == cur) {
			base = s->buf, blen = s->len, btype = s->type;
			break;
		}
		if (pack_entry_parse(pk->pack, end, cur, r->db.rawsz, &e))
			return -2;
		if (e.type != PACK_OFS_DELTA && e.type != PACK_REF_DELTA) {
			unsigned char *b;

			if ((rc = inflate_entry(r, pk, &e, &b)))
				return rc;
			keep(r, pack, cur, e.type, b, e.size);
			base = b, blen = e.size, btype = e.type;
			break;
		}
		if (depth >= MAX_DELTA_DEPTH)
			return -2;
		if (odb_grow(&r->chain, &r->chain_cap, depth + 1, sizeof(*r->chain)))
			return -1;
		r->chain[depth++] = cur;
		if (e.type == PACK_OFS_DELTA) {
			cur = e.base_off;
		} else {
			uint32_t i = odb_index_find(pk, e.base_id, r->db.rawsz);

			if (i == NOT_FOUND || odb_entry_offset(pk, i, &cur, NULL, 0))
				return -2; /* git requires a REF_DELTA's base in the same pack */
		}
	}
	/* and back up, each delta applied to the object below it */
	while (depth) {
		unsigned char *delta, *res;
		size_t rlen;

		cur = r->chain[--depth];
		if (pack_entry_parse(pk->pack, end, cur, r->db.rawsz, &e))
			return -2;
		if ((rc = inflate_entry(r, pk, &e, &delta)))
			return rc;
		rc = pack_delta_apply(base, blen, delta, e.size, OBJ_MAX, &res, &rlen);
		free(delta);
		if (rc)
			return rc == -2 ? -1 : -2;
		keep(r, pack, cur, btype, res, rlen);
		base = res, blen = rlen;
	}
	if (btype < 1 || btype > 4)
		return -2;
	*type = btype;
	*data = base;
	*len = blen;
	return 1;
}

int objread_read(objread *r, const unsigned char *id, int *type, const unsigned char **data,
		 size_t *len)
{
	uint32_t pack;
	uint64_t off;

	if (!objread_locate(r, id, &pack, &off))
		return 0;
	return objread_read_at(r, pack, off, type, data, len);
}

/* The bytes of the file at `path` (malloc'd): 0, 1 when there is none, -1, -2. */
static int read_file(const char *path, unsigned char **buf, size_t *n)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 4096, got;

	*buf = NULL;
	*n = 0;
	if (!f)
		return errno == ENOENT || errno == ENOTDIR ? 1 : -2;
	for (;;) {
		unsigned char *b = *n + 1 >= cap || !*buf ? realloc(*buf, cap *= 2) : *buf;

		if (!b) {
			fclose(f);
			return -1;
		}
		*buf = b;
		got = fread(*buf + *n, 1, cap - *n, f);
		*n += got;
		if (got == 0 || *n > OBJ_MAX)
			break;
	}
	if (ferror(f) || *n > OBJ_MAX) {
		fclose(f);
		return -2;
	}
	fclose(f);
	return 0;
}

int objread_read_loose(objread *r, const unsigned char *id, int *type,
		       const unsigned char **data, size_t *len)
{
	char hex[ABBREV_MAX_HEXSZ + 1], *path;
	unsigned char *file = NULL, head[64], *obj;
	size_t n = 0, hl, size = 0;
	const unsigned char *nul, *sp;
	int rc = 1;

	hexid_fmt(hex, id, r->db.rawsz);
	for (size_t i = 0; i < r->db.ndirs && rc == 1; i++) {
		if (asprintf(&path, "%s/%.2s/%s", r->db.dirs[i], hex, hex + 2) < 0)
			return -1;
		rc = read_file(path, &file, &n);
		free(path);
	}
	if (rc)
		return rc == 1 ? 0 : rc;
	/* "<type> <size>\0" first: the header, then the whole object */
	if (inflateReset(&r->zs) != Z_OK)
		goto bad;
	r->zs.next_in = file;
	r->zs.avail_in = (unsigned)n;
	r->zs.next_out = head;
	r->zs.avail_out = sizeof(head);
	rc = inflate(&r->zs, Z_SYNC_FLUSH);
	hl = sizeof(head) - r->zs.avail_out;
	nul = memchr(head, 0, hl);
	sp = nul ? memchr(head, ' ', (size_t)(nul - head)) : NULL;
	if ((rc != Z_OK && rc != Z_STREAM_END) || !sp || sp + 1 == nul)
		goto bad;
	for (const unsigned char *d = sp + 1; d < nul; d++) {
		if (*d < '0' || *d > '9' || size > OBJ_MAX)
			goto bad;
		size = size * 10 + (size_t)(*d - '0');
	}
	if (size > OBJ_MAX)
		goto bad;
	head[sp - head] = '\0';
	*type = hexid_type_from_name((const char *)head);
	if (*type == ABBREV_TYPE_NONE)
		goto bad;
	obj = malloc(size + 1);
	if (!obj) {
		free(file);
		return -1;
	}
	hl -= (size_t)(nul + 1 - head);
	if (hl > size) {
		free(obj);
		goto bad;
	}
	memcpy(obj, nul + 1, hl);
	r->zs.next_out = obj + hl;
	r->zs.avail_out = (unsigned)(size - hl);
	while (rc == Z_OK && r->zs.avail_out)
		rc = inflate(&r->zs, Z_FINISH);
	if (!r->zs.avail_out && (rc == Z_OK || rc == Z_BUF_ERROR)) {
		/* the size the header says is filled: the stream must end there */
		unsigned char more;

		r->zs.next_out = &more;
		r->zs.avail_out = 1;
		rc = inflate(&r->zs, Z_FINISH);
		if (!r->zs.avail_out)
			rc = Z_DATA_ERROR; /* longer than its header says */
		r->zs.avail_out = 0;
	}
	/* as git: "corrupt loose object", or "garbage at end of loose object" */
	if (r->zs.avail_out || rc != Z_STREAM_END || r->zs.avail_in) {
		free(obj);
		goto bad;
	}
	obj[size] = '\0';
	free(file);
	free(r->hold);
	r->hold = obj;
	*data = obj;
	*len = size;
	return 1;
bad:
	free(file);
	return -2;
}

void objread_release(const objread *r, uint32_t pack, uint64_t from, uint64_t to)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE), a = (from + page - 1) / page * page,
		 b = to / page * page;
	const pack_file *pk;

	if (pack >= r->db.npacks)
		return;
	pk = &r->db.packs[pack];
	if (b > pk->pack_size)
		b = pk->pack_size / page * page;
	if (b > a)
		(void)madvise((void *)(pk->pack + a), (size_t)(b - a), MADV_DONTNEED);
}

uint32_t objread_npacks(const objread *r)
{
	return (uint32_t)r->db.npacks;
}

void objread_trim_packs(objread *r, int idx)
{
	for (size_t i = 0; i < r->db.npacks; i++) {
		const pack_file *pk = &r->db.packs[i];

		objread_release(r, (uint32_t)i, 0, pk->pack_size);
		/* a read-only private map of a file: nothing is lost, no error to care about */
		if (idx && pk->idx)
			(void)madvise((void *)pk->idx, pk->idx_size, MADV_DONTNEED);
	}
}

void objread_trim(objread *r)
{
	objread_trim_packs(r, 1);
}

const char *objread_pack_path(const objread *r, uint32_t pack)
{
	return r->db.packs[pack].pack_path;
}

void objread_pack_files(const objread *r, uint32_t pack, objread_file *packf, objread_file *idxf)
{
	*packf = subject_file_of(&r->db.packs[pack].pack_id);
	*idxf = subject_file_of(&r->db.packs[pack].idx_id);
}

void objread_pack(const objread *r, uint32_t pack, const unsigned char **sum, uint32_t *n,
		  const unsigned char **ids, size_t *stride)
{
	const pack_file *pk = &r->db.packs[pack];

	/* the .idx ends with the pack's checksum, then its own (checked when mapped) */
	*sum = pk->idx + pk->idx_size - 2 * r->db.rawsz;
	*n = pk->n;
	*ids = pk->names;
	*stride = pk->name_stride;
}

int objread_offset(const objread *r, uint32_t pack, uint32_t pos, uint64_t *off)
{

	return pack < r->db.npacks && pos < r->db.packs[pack].n &&
			       !odb_entry_offset(&r->db.packs[pack], pos, off, NULL, 0)
		       ? 0
		       : -2;
}

int objread_pack_commits(objread *r, uint32_t pack, uint32_t **pos, uint64_t **off, size_t *n,
			 char *err, size_t errsz)
{
	const pack_file *pk = &r->db.packs[pack];
	pack_order o = { 0 };
	size_t k = 0;
	int rc;

	*pos = NULL;
	*off = NULL;
	*n = 0;
	if (!r->db.chain && !(r->db.chain = malloc(MAX_DELTA_DEPTH * sizeof(*r->db.chain))))
		return -1;
	rc = odb_pack_types(&r->db, pk, &o);
	if (!rc) {
		for (uint32_t i = 0; i < pk->n; i++)
			k += o.type[i] == ABBREV_TYPE_COMMIT;
		*pos = malloc((k ? k : 1) * sizeof(**pos));
		*off = malloc((k ? k : 1) * sizeof(**off));
		rc = *pos && *off ? 0 : ODB_NOMEM;
	}
	for (uint32_t i = 0; !rc && i < pk->n; i++)
		if (o.type[i] == ABBREV_TYPE_COMMIT) {
			(*pos)[*n] = o.pos[i];
			(*off)[(*n)++] = o.off[i];
		}
	odb_order_free(&o);
	if (rc) {
		free(*pos);
		free(*off);
		*pos = NULL;
		*off = NULL;
		*n = 0;
		if (rc != ODB_NOMEM)
			snprintf(err, errsz, "%s", r->err);
	}
	return rc == ODB_NOMEM ? -1 : rc ? -2 : 0;
}

uint32_t objread_find_in(const objread *r, uint32_t pack, const unsigned char *id)
{
	uint32_t i = odb_index_find(&r->db.packs[pack], id, r->db.rawsz);

	return i == NOT_FOUND ? UINT32_MAX : i;
}

int objread_loose_commits(objread *r, unsigned char **ids, size_t *n)
{
	size_t rawsz = r->db.rawsz, k = 0;
	unsigned char *v;
	int rc = 0;

	*ids = NULL;
	*n = 0;
	r->db.nloose = 0;
	for (size_t i = 0; i < r->db.ndirs && !rc; i++)
		rc = odb_add_loose(&r->db, r->db.dirs[i]);
	if (rc)
		return rc == ODB_NOMEM ? -1 : -2;
	if (r->db.nloose) /* none: no array at all, and qsort() wants one */
		qsort(r->db.loose, r->db.nloose, sizeof(*r->db.loose), odb_loose_cmp);
	v = malloc(r->db.nloose ? r->db.nloose * rawsz : 1);
	if (!v)
		return -1;
	for (size_t i = 0; i < r->db.nloose; i++) {
		const loose_obj *o = &r->db.loose[i];
		uint32_t p;
		uint64_t off;

		if (o->type != ABBREV_TYPE_COMMIT || (k && !memcmp(v + (k - 1) * rawsz, o->id, rawsz)) ||
		    objread_locate(r, o->id, &p, &off))
			continue;
		memcpy(v + k++ * rawsz, o->id, rawsz);
	}
	*ids = v;
	*n = k;
	return 0;
}
