/*
 * walk_pack_scan.c - step 2 of walk_pack.c: the type of every entry of a
 * pack, from its entry headers read in offset order on two threads, delta
 * chains followed through the headers only.
 */
#include <config.h>

#include "walk_pack_int.h"
#include "walk_bitmap.h"

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
			return wp_fail(w, "%s: bad object header at offset %llu", pk->pack_path,
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
		*base = wp_rank_before(o, off - rel, r);
		if (*base == NOT_FOUND)
			goto bad_delta;
	} else if (t == OBJ_REF_DELTA) {
		uint64_t boff;
		uint32_t i;
		int rc;

		if ((size_t)(e - p) < w->rawsz)
			goto bad_delta;
		/* git wants a REF_DELTA's base in the same pack */
		i = wp_index_find(pk, p, w->rawsz);
		if (i == NOT_FOUND) {
			char hex[ABBREV_MAX_HEXSZ + 1];

			hexid_fmt(hex, p, w->rawsz);
			return wp_fail(w, "%s: delta base %s of the object at offset %llu is not in the pack",
				    pk->pack_path, hex, (unsigned long long)off);
		}
		if ((rc = wp_entry_offset(w, pk, i, &boff)))
			return rc;
		*base = wp_rank_of(o, boff);
		if (*base == NOT_FOUND || *base == r)
			goto bad_delta;
	} else if (t < ABBREV_TYPE_COMMIT || t > ABBREV_TYPE_TAG) {
		return wp_fail(w, "%s: unknown object type %d at offset %llu", pk->pack_path, t,
			    (unsigned long long)off);
	}
	return 0;
bad_delta:
	return wp_fail(w, "%s: bad delta base of the object at offset %llu", pk->pack_path,
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
		wp_bus_guard(NULL);
		sp->rc = wp_fail(&sp->w, "%s: the pack was cut short while it was read "
				 "(truncated by another process?)", pk->pack_path);
		return;
	}
	wp_bus_guard(&cut);
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
			wp_bus_guard(NULL);
			sp->rc = rc;
			return;
		}
		o->base[r] = base;
		if (base == NOT_FOUND)
			o->type[r] = (unsigned char)t;
		if (sp->show_progress)
			progress_update(sp->w.p, sp->done0 + (r - sp->lo) + 1);
		if (o->off[r] - released >= SCAN_RELEASE)
			release_pages(pk, &released, o->off[r]);
	}
	if (sp->lo < sp->hi)
		release_pages(pk, &released, sp->hi < pk->n ? o->off[sp->hi] : o->end);
	wp_bus_guard(NULL);
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
			return wp_fail(w, "%s: delta chain too deep or looping at offset %llu",
				    pk->pack_path, (unsigned long long)o->off[r]);
		w->chain[depth++] = cur;
		cur = o->base[cur];
	}
	while (depth > 0)
		o->type[w->chain[--depth]] = o->type[cur];
	return 0;
}

int wp_pack_types(walker *w, const pack_file *pk, pack_order *o)
{
	scan_part part[2];
	pthread_attr_t attr;
	pthread_t thread;
	int rc, threaded = 0;

	memset(part, 0, sizeof(part));
	if ((rc = wp_order_build(w, pk, o)))
		return rc;
	for (int i = 0; i < 2; i++) {
		scan_part *sp = &part[i];

		sp->w = *w;
		sp->w.err = sp->err;
		sp->w.errsz = sizeof(sp->err);
		sp->pk = pk;
		sp->o = o;
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
	for (uint32_t r = 0; r < pk->n && !rc; r++)
		if (!o->type[r])
			rc = resolve(w, pk, o, r);
	return rc;
}

/* Type every entry of a pack into pk->types, reading headers in pack order. */
int wp_pack_scan(walker *w, pack_file *pk)
{
	pack_order o = { 0 };
	int rc;

	pk->types = malloc(pk->n ? pk->n : 1);
	if (!pk->types)
		return WALK_NOMEM;
	if ((rc = wp_pack_types(w, pk, &o)))
		goto done;
	for (uint32_t r = 0; r < pk->n; r++)
		pk->types[o.pos[r]] = o.type[r];
	w->done += pk->n;
	progress_update(w->p, w->done);
	rc = wp_pack_tags(w, pk);
done:
	wp_order_free(&o);
	/* the merge needs only the names: give the pack's pages back now */
	wp_unmap(pk->pack, pk->pack_size);
	wp_unmap(pk->rev, pk->rev_size);
	pk->pack = pk->rev = NULL;
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
	rc = wp_order_positions(w, pk, &pos);
	/* the index ends with the pack's checksum (pack_check compared them) */
	if (!rc && bitmap_pack_types(pk->bitmap, pk->bitmap_size, w->rawsz,
				     pk->idx + pk->idx_size - 2 * w->rawsz, pk->n, pos,
				     pk->types, why, sizeof(why)) != BITMAP_OK) {
		rc = wp_note(w, "%s: not used (%s); the pack is read instead", pk->bitmap_path, why);
		if (!rc)
			rc = 1;
	}
	free(pos);
	wp_unmap(pk->bitmap, pk->bitmap_size);
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
	int rc;

	w->done += pk->n;
	progress_update(w->p, w->done);
	if ((rc = wp_pack_tags(w, pk)))
		return rc;
	/* as after a scan: the merge needs only the names */
	wp_unmap(pk->pack, pk->pack_size);
	wp_unmap(pk->rev, pk->rev_size);
	pk->pack = pk->rev = NULL;
	return 0;
}
