/*
 * objidx.c - object IDs by prefix from the .idx files and the loose
 * fan-out directories (objidx.h), as git's object-name.c does it
 * (find_short_packed_object, find_short_object_filename,
 * find_abbrev_len_packed).
 *
 * The object directories and packs are found and mapped by the object
 * database reader (odb.h: odb_dirs.c, odb_pack.c); a prefix is a
 * lower-bound search in each index's fan-out bucket.  A packed object's
 * type is its entry header's, or for a delta its base's, found by
 * following the chain of headers down (no inflation).  The loose objects
 * are listed once, at the start, with each one's type (odb_loose.c),
 * as the walker lists them: the packs mapped and the loose objects listed
 * are then one state of the object directory, so a repack or gc that
 * moves objects from one to the other while verify runs cannot hide an
 * object from it (git's own lazy listing can).  Tags are read one at a
 * time, when a prefix names one, by the tag reader
 * (odb_tags.c).
 */
#include <config.h>

#include "objidx.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "pack_obj.h"
#include "test_hooks.h"
#include "odb.h"

#define MAX_ATTEMPTS 3    /* a pack renamed away between listing and opening */
#define MAX_PEEL 1000     /* tags of tags followed before giving up */

typedef struct {
	unsigned char id[ABBREV_MAX_RAWSZ];
	int type;
} cand;

struct objidx {
	odb db;
	char err[512];         /* the walker's messages */
	struct sigaction old_bus;
	int bus_caught;
	size_t lo[257];        /* fan-out byte b's loose objects: w.loose[lo[b]..lo[b + 1]) */
	cand *c;               /* the objects of the prefix asked about */
	size_t nc, capc;
	const char *reading;   /* the mapped file being read, for a SIGBUS's message */
	size_t asked;          /* questions so far, until the packs' fan16 pays */
	int fan16_tried;
	uint32_t **fan16;      /* per pack, hexid_fan16() of its names, or NULL */
};

int objidx_new(objidx **out, const char *objdir, size_t rawsz, char *err, size_t errsz)
{
	objidx *x = NULL;
	int rc = ODB_ERR;

	*out = NULL;
	for (int attempt = 0; attempt < MAX_ATTEMPTS && rc == ODB_ERR; attempt++) {
		objidx_free(x);
		if (!(x = calloc(1, sizeof(*x))))
			return -1;
		x->db.rawsz = rawsz;
		x->db.err = x->err;
		x->db.errsz = sizeof(x->err);
		rc = odb_find_objdirs(&x->db, objdir);
		for (size_t i = 0; i < x->db.ndirs && !rc; i++)
			if (!(rc = odb_add_packs(&x->db, x->db.dirs[i])))
				rc = odb_add_loose(&x->db, x->db.dirs[i]);
		if (!rc && x->db.vanished)
			rc = odb_fail(&x->db, "%s: the object directory kept changing while it was "
				     "read (a repack or gc?); try again", objdir);
		else if (rc == ODB_ERR && !x->db.vanished)
			break; /* damage, not a repack: trying again will not help */
	}
	if (rc) {
		snprintf(err, errsz, "%s", x->err);
		objidx_free(x);
		return rc == ODB_NOMEM ? -1 : -2;
	}
	if (x->db.nloose > 1)
		qsort(x->db.loose, x->db.nloose, sizeof(*x->db.loose), odb_loose_cmp);
	for (int b = 0, i = 0; b <= 256; b++) {
		while ((size_t)i < x->db.nloose && x->db.loose[i].id[0] < b)
			i++;
		x->lo[b] = (size_t)i;
	}
	/* a pack cut short under the maps faults: odb_bus_guard() turns that into an error */
	odb_bus_catch(&x->old_bus);
	x->bus_caught = 1;
	x->db.vanished = 0;
	/* the suite's build waits here: tests/t-truncate.sh cuts a pack meanwhile */
	test_hook_pause(&x->db.paused);
	*out = x;
	return 0;
}

void objidx_free(objidx *x)
{
	if (!x)
		return;
	if (x->bus_caught)
		odb_bus_restore(&x->old_bus);
	for (size_t p = 0; x->fan16 && p < x->db.npacks; p++)
		free(x->fan16[p]);
	free(x->fan16);
	odb_free(&x->db);
	free(x->c);
	free(x);
}

size_t objidx_count(const objidx *x)
{
	size_t n = x->db.nloose;

	for (size_t p = 0; p < x->db.npacks; p++)
		n += x->db.packs[p].n;
	return n;
}

const char *objidx_warnings(const objidx *x)
{
	return x->db.warn ? x->db.warn : "";
}

/* ---- packs ------------------------------------------------------------------ */

/*
 * Questions after which each pack gets a two-byte fan-out: one pass over
 * its names (a few ms a million objects) against two or three cache
 * misses saved a question.  A patch or two never makes one.
 */
#define FAN16_AFTER(objects) ((objects) / 64 + 1024)

/* Count a question; make the packs' fan16 once they pay (under the SIGBUS guard). */
static void count_question(objidx *x)
{
	odb *w = &x->db;

	if (x->fan16_tried || ++x->asked <= FAN16_AFTER(objidx_count(x)))
		return;
	x->fan16_tried = 1;
	if (!(x->fan16 = calloc(w->npacks ? w->npacks : 1, sizeof(*x->fan16))))
		return;
	for (size_t p = 0; p < w->npacks; p++) {
		const pack_file *pk = &w->packs[p];

		if (!(x->fan16[p] = malloc((HEXID_FAN16 + 1) * sizeof(**x->fan16))))
			continue; /* that pack searches its one-byte buckets */
		x->reading = pk->idx_path;
		hexid_fan16(pk->names, pk->name_stride, pk->n, x->fan16[p]);
	}
}

/*
 * The positions [*lo, *hi) of pack p whose names can start with the n
 * hex chars of `from` (zero after them), and how many leading bytes they
 * all share with it.
 */
static size_t bucket(const objidx *x, size_t p, const unsigned char *from, size_t n, uint32_t *lo,
		     uint32_t *hi)
{
	const pack_file *pk = &x->db.packs[p];
	int b0 = from[0], b1 = n >= 2 ? b0 : n == 1 ? b0 | 0x0f : 0xff;

	if (n >= 3 && x->fan16 && x->fan16[p]) {
		size_t k = (size_t)from[0] << 8 | from[1];

		*lo = x->fan16[p][k];
		*hi = x->fan16[p][(n >= 4 ? k : k | 0x0f) + 1];
		return n >= 4 ? 2 : 1;
	}
	*lo = odb_fanout(pk, b0 - 1);
	*hi = odb_fanout(pk, b1);
	return b0 == b1;
}

/*
 * The first index position in [lo, hi) whose name is >= id; `shared`
 * leading bytes are id's throughout (1: a fan-out bucket).
 */
static uint32_t lower_bound(const pack_file *pk, const unsigned char *id, size_t rawsz,
			    uint32_t lo, uint32_t hi, size_t shared)
{
	if (lo >= hi)
		return lo;
	return lo + (uint32_t)hexid_lower_bound(odb_pack_name(pk, lo), pk->name_stride, 0, hi - lo,
						rawsz, shared, id);
}

/*
 * The type of index entry i: its header's, or down a delta chain its
 * base's.  0, or ODB_ERR with a message.
 */
static int packed_type(objidx *x, const pack_file *pk, uint32_t i, int *type)
{
	odb *w = &x->db;
	uint64_t end = pk->pack_size - w->rawsz, off;
	pack_entry e;
	int rc = odb_entry_offset(pk, i, &off, w->err, w->errsz);

	x->reading = pk->pack_path;
	for (int depth = 0; !rc && depth < MAX_DELTA_DEPTH; depth++) {
		if (pack_entry_parse(pk->pack, end, off, w->rawsz, &e))
			break;
		if (e.type >= ABBREV_TYPE_COMMIT && e.type <= ABBREV_TYPE_TAG) {
			*type = e.type;
			return 0;
		}
		if (e.type == PACK_OFS_DELTA && e.base_off < off) {
			off = e.base_off;
		} else if (e.type == PACK_REF_DELTA) {
			/* git requires a REF_DELTA's base in the same pack */
			uint32_t b = odb_index_find(pk, e.base_id, w->rawsz);

			if (b == NOT_FOUND)
				break;
			rc = odb_entry_offset(pk, b, &off, w->err, w->errsz);
		} else {
			break;
		}
	}
	return rc ? rc : odb_fail(w, "%s: cannot read the type of object %u", pk->pack_path, i);
}

/* ---- loose objects ------------------------------------------------------------- */

/* The type of `id`: 1 with *type, 0 when no object has it, or an error. */
static int type_of(objidx *x, const unsigned char *id, int *type)
{
	odb *w = &x->db;
	loose_obj key;
	const loose_obj *l;
	int rc;

	for (size_t p = 0; p < w->npacks; p++) {
		uint32_t i = (x->reading = w->packs[p].idx_path, odb_index_find(&w->packs[p], id, w->rawsz));

		if (i != NOT_FOUND)
			return (rc = packed_type(x, &w->packs[p], i, type)) ? rc : 1;
	}
	if (x->lo[id[0] + 1] == x->lo[id[0]])
		return 0; /* no loose object in its fan-out (w->loose may be NULL) */
	memset(&key, 0, sizeof(key));
	memcpy(key.id, id, w->rawsz);
	l = bsearch(&key, w->loose + x->lo[id[0]], x->lo[id[0] + 1] - x->lo[id[0]], sizeof(key),
		    odb_loose_cmp);
	if (!l)
		return 0;
	*type = l->type;
	return 1;
}

/* ---- tags -------------------------------------------------------------------------- */

/* What the tag `id` says, read now if need be: 1 with *out, 0 (unreadable), or an error. */
static int tag_record(objidx *x, const unsigned char *id, odb_tag *out)
{
	odb *w = &x->db;
	int rc;

	for (int pass = 0; pass < 2; pass++) {
		for (size_t k = w->ntags; k-- > 0;)
			if (!memcmp(w->tags[k].id, id, w->rawsz)) {
				*out = w->tags[k];
				return 1;
			}
		if (pass)
			break;
		/* a loose tag was read with the listing; a packed one is read now */
		for (size_t p = 0; p < w->npacks; p++) {
			uint32_t i = (x->reading = w->packs[p].idx_path,
				      odb_index_find(&w->packs[p], id, w->rawsz));

			if (i != NOT_FOUND && (x->reading = w->packs[p].pack_path,
					       rc = odb_pack_tag(w, &w->packs[p], i)))
				return rc;
		}
	}
	return 0;
}

/*
 * Whether the tag `id` peels to a commit, as idsets_peel() decides it: a
 * target that is there must have the type the tag names; one that is not
 * (a partial clone) is taken at the tag's word when that is "commit".
 */
static int peels_to_commit(objidx *x, const unsigned char *id, int *commitish)
{
	unsigned char cur[ABBREV_MAX_RAWSZ];
	odb_tag t;
	int rc, type;

	*commitish = 0;
	memcpy(cur, id, x->db.rawsz);
	for (int depth = 0; depth < MAX_PEEL; depth++) {
		if ((rc = tag_record(x, cur, &t)) <= 0)
			return rc;
		if ((rc = type_of(x, t.target, &type)) < 0)
			return rc;
		if (!rc) {
			*commitish = t.type == ABBREV_TYPE_COMMIT;
			return 0;
		}
		if (type != t.type || type != ABBREV_TYPE_TAG) {
			*commitish = type == t.type && type == ABBREV_TYPE_COMMIT;
			return 0;
		}
		memcpy(cur, t.target, x->db.rawsz);
	}
	return 0;
}

/* ---- questions ---------------------------------------------------------------------- */

static int cand_add(objidx *x, const unsigned char *id, int type)
{
	if (odb_grow(&x->c, &x->capc, x->nc + 1, sizeof(*x->c)))
		return ODB_NOMEM;
	memset(&x->c[x->nc], 0, sizeof(*x->c));
	memcpy(x->c[x->nc].id, id, x->db.rawsz);
	x->c[x->nc++].type = type;
	return 0;
}

static int cand_cmp(const void *a, const void *b)
{
	return memcmp(((const cand *)a)->id, ((const cand *)b)->id, ABBREV_MAX_RAWSZ);
}

/* Every object starting with the n hex chars of `from` into x->c, sorted, each once. */
static int collect(objidx *x, const unsigned char *from, size_t n)
{
	odb *w = &x->db;
	/* the fan-out bytes the prefix spans: one, 16 (one hex char), or all */
	int b0 = from[0], b1 = n >= 2 ? b0 : n == 1 ? b0 | 0x0f : 0xff;
	size_t k = 0;
	int rc;

	x->nc = 0;
	for (size_t p = 0; p < w->npacks; p++) {
		const pack_file *pk = &w->packs[p];
		uint32_t lo, hi;
		size_t shared = (x->reading = pk->idx_path, bucket(x, p, from, n, &lo, &hi));

		for (uint32_t i = lower_bound(pk, from, w->rawsz, lo, hi, shared);
		     i < hi && hexid_lcp(odb_pack_name(pk, i), from, w->rawsz) >= n; i++) {
			int type;

			if ((rc = packed_type(x, pk, i, &type)) ||
			    (rc = cand_add(x, odb_pack_name(pk, i), type)))
				return rc;
		}
	}
	for (size_t i = x->lo[b0]; i < x->lo[b1 + 1]; i++)
		if (hexid_lcp(w->loose[i].id, from, w->rawsz) >= n &&
		    (rc = cand_add(x, w->loose[i].id, w->loose[i].type)))
			return rc;
	if (x->nc > 1)
		qsort(x->c, x->nc, sizeof(*x->c), cand_cmp);
	for (size_t i = 0; i < x->nc; i++)
		if (!k || memcmp(x->c[k - 1].id, x->c[i].id, w->rawsz))
			x->c[k++] = x->c[i];
	x->nc = k;
	return 0;
}

/* 0, -1 (memory) or -2 (message copied to err) from a walker status. */
static int status(objidx *x, int rc, char *err, size_t errsz)
{
	if (rc == ODB_NOMEM)
		return -1;
	if (rc) {
		snprintf(err, errsz, "%s", x->err);
		return -2;
	}
	return 0;
}

/* A pack cut short under the maps (SIGBUS): what the question says. */
static int cut_short(objidx *x, char *err, size_t errsz)
{
	odb_bus_guard(NULL);
	snprintf(err, errsz, "%s: cut short while it was read (a repack or gc?); try again",
		 x->reading ? x->reading : "a pack");
	return -2;
}

/* objidx_prefix() under the guard: a walker status, fn's return in *stop. */
static int prefix_guarded(objidx *x, const unsigned char *from, size_t n, objidx_fn fn,
			  void *arg, int *stop)
{
	int rc;

	count_question(x);
	rc = collect(x, from, n);

	for (size_t i = 0; i < x->nc && !rc && !*stop; i++) {
		int commitish = 0;

		if (x->c[i].type != ABBREV_TYPE_TAG || !(rc = peels_to_commit(x, x->c[i].id, &commitish)))
			*stop = fn(arg, x->c[i].id, x->c[i].type, commitish);
	}
	return rc;
}

int objidx_prefix(objidx *x, const char *hex, size_t n, objidx_fn fn, void *arg, char *err,
		  size_t errsz)
{
	unsigned char from[ABBREV_MAX_RAWSZ];
	sigjmp_buf cut;
	int rc, stop = 0;

	if (hexid_parse_prefix(from, x->db.rawsz, hex, n))
		return 0; /* not hex, or longer than an ID: no object has it */
	if (sigsetjmp(cut, 0))
		return cut_short(x, err, errsz);
	odb_bus_guard(&cut);
	rc = prefix_guarded(x, from, n, fn, arg, &stop);
	odb_bus_guard(NULL);
	return rc ? status(x, rc, err, errsz) : stop;
}

/* Whether a name of pk's [lo, hi) has the top bits `mask` of its first 8 bytes equal to key. */
static int key_in(const pack_file *pk, uint32_t lo, uint32_t hi, uint64_t key, uint64_t mask)
{
	uint32_t end = hi;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (be64(odb_pack_name(pk, mid)) < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < end && (be64(odb_pack_name(pk, lo)) & mask) == key;
}

/*
 * Whether pack p has a name starting with the n (1..16) hex chars of
 * `from`: they are the top of its first 8 bytes read as one number, so
 * the search compares numbers (the first name not below `from`, zeros
 * past the prefix, has it if any has).
 */
static int has_short(objidx *x, size_t p, const unsigned char *from, size_t n)
{
	uint64_t mask = UINT64_MAX << (64 - 4 * n);
	uint32_t lo, hi;

	(void)bucket(x, p, from, n, &lo, &hi);
	return key_in(&x->db.packs[p], lo, hi, be64(from) & mask, mask);
}

/* objidx_has_prefix() under the guard. */
static int has_guarded(objidx *x, const unsigned char *from, size_t n)
{
	odb *w = &x->db;
	int b0 = from[0], b1 = n >= 2 ? b0 : n == 1 ? b0 | 0x0f : 0xff;

	count_question(x);
	for (size_t p = 0; p < w->npacks; p++) {
		const pack_file *pk = &w->packs[p];
		uint32_t lo, hi, i;
		size_t shared;

		x->reading = pk->idx_path;
		if (n >= 1 && n <= 16 && w->rawsz >= 8) {
			if (has_short(x, p, from, n))
				return 1;
			continue;
		}
		shared = bucket(x, p, from, n, &lo, &hi);
		i = lower_bound(pk, from, w->rawsz, lo, hi, shared);
		if (i < hi && hexid_lcp(odb_pack_name(pk, i), from, w->rawsz) >= n)
			return 1;
	}
	for (size_t i = x->lo[b0]; i < x->lo[b1 + 1]; i++)
		if (hexid_lcp(w->loose[i].id, from, w->rawsz) >= n)
			return 1;
	return 0;
}

/* Whether every pack has its fan16 (the bucket of 4 hex chars a question's range). */
static int all_fan16(const objidx *x)
{
	for (size_t p = 0; p < x->db.npacks; p++)
		if (!x->fan16 || !x->fan16[p])
			return 0;
	return 1;
}

/*
 * has_guarded() for 4 to 16 hex chars when every pack has its fan16:
 * each pack's bucket of the first 4, searched on the first 8 bytes as
 * one number, and the loose objects of the first byte.
 */
static int in_bucket(objidx *x, const unsigned char *from, size_t n)
{
	odb *w = &x->db;
	uint64_t mask = UINT64_MAX << (64 - 4 * n), key = be64(from) & mask;
	size_t k = (size_t)from[0] << 8 | from[1];

	for (size_t p = 0; p < w->npacks; p++) {
		x->reading = w->packs[p].idx_path;
		if (key_in(&w->packs[p], x->fan16[p][k], x->fan16[p][k + 1], key, mask))
			return 1;
	}
	for (size_t j = x->lo[from[0]]; j < x->lo[from[0] + 1]; j++)
		if ((be64(w->loose[j].id) & mask) == key)
			return 1;
	return 0;
}

/* objidx_prefix_nibbles() under the guard. */
static unsigned nibbles_guarded(objidx *x, const unsigned char *from, size_t n, size_t i)
{
	odb *w = &x->db;
	unsigned char v[ABBREV_MAX_RAWSZ];
	unsigned mask = 0;

	count_question(x);
	if (i >= 4 && i < n && n <= 16 && w->rawsz >= 8 && all_fan16(x)) {
		/* the first 4 chars stay: one fan16 bucket a pack, each name tested once */
		unsigned shift = (unsigned)(60 - 4 * i);
		uint64_t keep = UINT64_MAX << (64 - 4 * n) & ~((uint64_t)0xf << shift),
			 want = be64(from) & keep;
		size_t k = (size_t)from[0] << 8 | from[1];

		for (size_t p = 0; p < w->npacks; p++) {
			const pack_file *pk = &w->packs[p];

			x->reading = pk->idx_path;
			for (uint32_t j = x->fan16[p][k]; j < x->fan16[p][k + 1]; j++) {
				uint64_t h = be64(odb_pack_name(pk, j));

				if ((h & keep) == want)
					mask |= 1u << ((h >> shift) & 0xf);
			}
		}
		for (size_t j = x->lo[from[0]]; j < x->lo[from[0] + 1]; j++) {
			uint64_t h = be64(w->loose[j].id);

			if ((h & keep) == want)
				mask |= 1u << ((h >> shift) & 0xf);
		}
		return mask;
	}
	memcpy(v, from, w->rawsz);
	for (unsigned d = 0; d < 16; d++) {
		v[i / 2] = (unsigned char)(i % 2 ? (v[i / 2] & 0xf0) | d : (v[i / 2] & 0x0f) | d << 4);
		if (i < 4 && n >= 4 && n <= 16 && w->rawsz >= 8 && all_fan16(x) ?
		    in_bucket(x, v, n) : has_guarded(x, v, n))
			mask |= 1u << d;
	}
	return mask;
}

int objidx_prefix_nibbles(objidx *x, const unsigned char *from, size_t n, size_t i,
			  unsigned *mask, char *err, size_t errsz)
{
	sigjmp_buf cut;

	*mask = 0;
	if (n > 2 * x->db.rawsz || i >= n)
		return 0;
	if (sigsetjmp(cut, 0))
		return cut_short(x, err, errsz);
	odb_bus_guard(&cut);
	*mask = nibbles_guarded(x, from, n, i);
	odb_bus_guard(NULL);
	return 0;
}

int objidx_has_prefix(objidx *x, const unsigned char *from, size_t n, char *err, size_t errsz)
{
	sigjmp_buf cut;
	int rc;

	if (n > 2 * x->db.rawsz)
		return 0;
	if (sigsetjmp(cut, 0))
		return cut_short(x, err, errsz);
	odb_bus_guard(&cut);
	rc = has_guarded(x, from, n);
	odb_bus_guard(NULL);
	return rc;
}

/*
 * objidx_unique_length() under the guard: one more than the most hex
 * chars id shares with another object; in each sorted index that other
 * is a neighbour of id's place.  IDs in other fan-out buckets share at
 * most one hex char, below git's 4.
 */
static void unique_guarded(objidx *x, const unsigned char *id, unsigned *len)
{
	odb *w = &x->db;
	unsigned most = 0, l;

	count_question(x);
	for (size_t p = 0; p < w->npacks; p++) {
		const pack_file *pk = &w->packs[p];
		uint32_t lo, hi, i;
		/*
		 * IDs outside id's bucket share at most 3 hex chars with it (the
		 * two-byte one) or 1 (the one-byte one): below git's 4, they
		 * cannot make the length longer
		 */
		size_t shared = (x->reading = pk->idx_path, bucket(x, p, id, 2 * w->rawsz, &lo, &hi));

		i = lower_bound(pk, id, w->rawsz, lo, hi, shared);

		if (i > lo && (l = hexid_lcp(odb_pack_name(pk, i - 1), id, w->rawsz)) > most)
			most = l;
		if (i < hi && !memcmp(odb_pack_name(pk, i), id, w->rawsz))
			i++;
		if (i < hi && (l = hexid_lcp(odb_pack_name(pk, i), id, w->rawsz)) > most)
			most = l;
	}
	for (size_t i = x->lo[id[0]]; i < x->lo[id[0] + 1]; i++)
		if (memcmp(w->loose[i].id, id, w->rawsz) &&
		    (l = hexid_lcp(w->loose[i].id, id, w->rawsz)) > most)
			most = l;
	*len = most + 1 < ABBREV_MIN_LEN ? ABBREV_MIN_LEN : most + 1;
}

int objidx_unique_length(objidx *x, const unsigned char *id, unsigned *len, char *err,
			 size_t errsz)
{
	sigjmp_buf cut;

	if (sigsetjmp(cut, 0))
		return cut_short(x, err, errsz);
	odb_bus_guard(&cut);
	unique_guarded(x, id, len);
	odb_bus_guard(NULL);
	return 0;
}
