/*
 * odb_scan.c - the type of every entry of a pack (step 2 of the pack
 * walker, walk_pack.c, and objread.c's commits of a pack), from its entry headers read in offset order on two threads, delta
 * chains followed through the headers only.
 */
#include <config.h>

#include "odb.h"

#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define SCAN_AHEAD 16         /* entry headers prefetched ahead of the scan */
#define SCAN_RELEASE (16u << 20) /* pack bytes read between two releases of pages */
#define SCAN_STACK (256 * 1024) /* stack of the scan's second thread */

/* Pack entry types (git's enum object_type). */
enum { OBJ_OFS_DELTA = 6, OBJ_REF_DELTA = 7 };

/*
 * Read the header of the entry at rank r: its type, and for a delta the
 * rank of its base.  Header: type in bits 4-6 of the first byte, the size
 * as a little-endian base-128 varint (not needed here); an OFS_DELTA then
 * has its base's distance back (big-endian base-128, with +1 per
 * continuation byte), a REF_DELTA its base's ID.
 */
static int entry_header(odb *db, const pack_file *pk, const pack_order *o, uint32_t r,
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
			return odb_fail(db, "%s: bad object header at offset %llu", pk->pack_path,
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
		*base = odb_rank_before(o, off - rel, r);
		if (*base == NOT_FOUND)
			goto bad_delta;
	} else if (t == OBJ_REF_DELTA) {
		uint64_t boff;
		uint32_t i;
		int rc;

		if ((size_t)(e - p) < db->rawsz)
			goto bad_delta;
		/* git wants a REF_DELTA's base in the same pack */
		i = odb_index_find(pk, p, db->rawsz);
		if (i == NOT_FOUND) {
			char hex[ABBREV_MAX_HEXSZ + 1];

			hexid_fmt(hex, p, db->rawsz);
			return odb_fail(db, "%s: delta base %s of the object at offset %llu is not in the pack",
				    pk->pack_path, hex, (unsigned long long)off);
		}
		if ((rc = odb_entry_offset(pk, i, &boff, db->err, db->errsz)))
			return rc;
		*base = odb_rank_of(o, boff);
		if (*base == NOT_FOUND || *base == r)
			goto bad_delta;
	} else if (t < ABBREV_TYPE_COMMIT || t > ABBREV_TYPE_TAG) {
		return odb_fail(db, "%s: unknown object type %d at offset %llu", pk->pack_path, t,
			    (unsigned long long)off);
	}
	return 0;
bad_delta:
	return odb_fail(db, "%s: bad delta base of the object at offset %llu", pk->pack_path,
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
	odb db;             /* a private copy, with its own error buffer */
	const pack_file *pk;
	pack_order *o;
	uint32_t lo, hi;
	size_t done0;         /* progress count before this part (the first part's only) */
	int show_progress;
	int rc;
	char err[1024];       /* as large as the callers' buffers */
} scan_part;

/*
 * Give back the pages of the pack this part has read, below `to`: the
 * whole pack stays mapped for the tags read after the scan (a page given
 * back is read again from the page cache if touched), but a 500 MB pack
 * no longer stays resident, in the process's RSS, until the scan ends.
 * Only whole pages of the part's own range: the other part may still
 * read the page the two share.
 */
static void release_pages(const pack_file *pk, uint64_t *from, uint64_t to)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE), a, b;

	a = (*from + page - 1) / page * page;
	b = to / page * page;
	if (b > a)
		madvise((void *)(pk->pack + a), (size_t)(b - a), MADV_DONTNEED);
	if (b > *from)
		*from = b;
}

static void scan_part_run(scan_part *sp)
{
	const pack_file *pk = sp->pk;
	pack_order *o = sp->o;
	uint64_t released = sp->lo < sp->hi ? o->off[sp->lo] : 0;
	sigjmp_buf cut;

	/* a pack cut short under the map: SIGBUS comes back here (walk_pack.c) */
	if (sigsetjmp(cut, 0)) {
		odb_bus_guard(NULL);
		sp->rc = odb_fail(&sp->db, "%s: the pack was cut short while it was read "
				 "(truncated by another process?)", pk->pack_path);
		return;
	}
	odb_bus_guard(&cut);
	for (uint32_t r = sp->lo; r < sp->hi; r++) {
		uint32_t base;
		int t = 0, rc;

#ifdef __GNUC__
		/* the headers are read in address order, but too far apart for the
		   hardware to fetch them ahead by itself */
		if (r + SCAN_AHEAD < sp->hi)
			__builtin_prefetch(pk->pack + o->off[r + SCAN_AHEAD]);
#endif
		if ((rc = entry_header(&sp->db, pk, o, r, &t, &base))) {
			odb_bus_guard(NULL);
			sp->rc = rc;
			return;
		}
		o->base[r] = base;
		if (base == NOT_FOUND)
			o->type[r] = (unsigned char)t;
		if (sp->show_progress)
			progress_update(sp->db.p, sp->done0 + (r - sp->lo) + 1);
		if (o->off[r] - released >= SCAN_RELEASE)
			release_pages(pk, &released, o->off[r]);
	}
	if (sp->lo < sp->hi)
		release_pages(pk, &released, sp->hi < pk->n ? o->off[sp->hi] : o->end);
	odb_bus_guard(NULL);
}

static void *scan_part_thread(void *arg)
{
	scan_part_run(arg);
	return NULL;
}

/* The type of the delta at rank r: its chain's end, through known types. */
static int resolve(odb *db, const pack_file *pk, pack_order *o, uint32_t r)
{
	uint32_t cur = r;
	int depth = 0;

	while (!o->type[cur]) {
		if (depth >= MAX_DELTA_DEPTH)
			return odb_fail(db, "%s: delta chain too deep or looping at offset %llu",
				    pk->pack_path, (unsigned long long)o->off[r]);
		db->chain[depth++] = cur;
		cur = o->base[cur];
	}
	while (depth > 0)
		o->type[db->chain[--depth]] = o->type[cur];
	return 0;
}

int odb_pack_types(odb *db, const pack_file *pk, pack_order *o)
{
	scan_part part[2];
	pthread_attr_t attr;
	pthread_t thread;
	int rc, threaded = 0;

	memset(part, 0, sizeof(part));
	if ((rc = odb_order_build(db, pk, o)))
		return rc;
	for (int i = 0; i < 2; i++) {
		scan_part *sp = &part[i];

		sp->db = *db;
		sp->db.err = sp->err;
		sp->db.errsz = sizeof(sp->err);
		sp->pk = pk;
		sp->o = o;
		sp->lo = i ? pk->n / 2 : 0;
		sp->hi = i ? pk->n : pk->n / 2;
		sp->done0 = db->done;
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
			snprintf(db->err, db->errsz, "%s", part[i].err);
			rc = part[i].rc;
		}
	for (uint32_t r = 0; r < pk->n && !rc; r++)
		if (!o->type[r])
			rc = resolve(db, pk, o, r);
	return rc;
}

