/*
 * walk_pack.c - every (id, type) of an object directory, read from the
 * pack and loose files themselves.
 *
 * Why not libgit2: asking it for each object's header costs a lookup, a
 * window and a zlib stream per delta; here a pack costs one pass over its
 * entry headers.  The steps:
 *
 *  1. Collect the object directories (the given one, then info/alternates,
 *     recursively: odb_dirs.c), map every pack-*.idx with its .pack
 *     (odb_pack.c), and read the loose objects' headers (only the
 *     first bytes of each zlib stream: odb_loose.c); the walker contains
 *     an odb (odb.h) that holds all of it.
 *  2. For each pack, order the entries by offset (the .rev file if there is
 *     one, else a radix sort of the offsets) and read each entry header in
 *     that order, on two threads, each over one half of the pack: a pass
 *     notes each entry's type, or for a delta its base's rank.  A delta has
 *     no type of its own: an OFS_DELTA's base lies earlier in the pack, a
 *     REF_DELTA's is looked up in the same pack's index (git requires it
 *     there), so a second pass in offset order gives each delta its base's
 *     type.  Types land in one byte per index position.  The order is
 *     built in odb_pack.c, the scan is odb_scan.c (walk_pack_scan.c keeps
 *     the types).  A pack
 *     with a reachability bitmap made for it (its .bitmap) is not read at
 *     all: the bitmap's four type bitmaps give the types by rank
 *     (walk_bitmap.c); nor are the packs a multi-pack-index with a bitmap
 *     covers (walk_pack_midx.c).  A stale or damaged bitmap leaves the
 *     packs to the scan, and a note says why.  With a cache directory,
 *     a scan keeps the pack's types there (two bits an object, a file
 *     bound to the very .pack and .idx: subject_cache.h) with what each
 *     of its annotated tags points at, and the next walk of the
 *     unchanged pack reads that file instead of the pack.
 *  3. Merge the sorted name lists of all packs and the sorted loose IDs
 *     (a k-way merge on a small heap), so the ID sets are filled in key
 *     order, each ID once, by idsets' bulk adding (the Judy arrays filled on
 *     two more threads).  Judy inserts in key order are some 25x cheaper
 *     than in random order, and they are the bulk of the work
 *     (walk_pack_merge.c).
 *
 * This file holds the entry point, which runs the steps and starts again
 * when a repack or gc changed the directory under it.
 *
 * File formats: Documentation/gitformat-pack.txt in git.  Every number read
 * is checked before it is used; hash widths come from idsets_rawsz().
 */
#include <config.h>

#include "walk_pack_int.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "mapguard.h"
#include "test_hooks.h"

/* the steps pass the odb's statuses on as the walk's */
_Static_assert((int)WALK_OK == (int)ODB_OK && (int)WALK_ERR == (int)ODB_ERR &&
	       (int)WALK_NOMEM == (int)ODB_NOMEM,
	       "walk.h and odb.h statuses differ");

void wp_walker_free(walker *w)
{
	for (size_t i = 0; i < w->nmidx; i++) {
		odb_unmap(w->midx[i].map, w->midx[i].size);
		odb_unmap(w->midx[i].bitmap, w->midx[i].bitmap_size);
		free(w->midx[i].path);
		free(w->midx[i].bitmap_path);
	}
	free(w->midx);
	odb_free(&w->db);
}

int wp_add_objdirs(walker *w, const char *objdir)
{
	int rc = odb_find_objdirs(&w->db, objdir);

	for (size_t i = 0; i < w->db.ndirs && !rc; i++) {
		if ((rc = odb_add_packs(&w->db, w->db.dirs[i])) || (rc = wp_midx_find(w, w->db.dirs[i])))
			break;
		/*
		 * A test hook: wait here, between listing the packs and reading
		 * the loose objects, so that tests/t-concurrent.sh can repack in
		 * between every time instead of by chance (test_hooks.h).
		 */
		test_hook_pause(&w->db.paused);
		rc = odb_add_loose(&w->db, w->db.dirs[i]);
	}
	return rc;
}

/* How often a walk starts again when a repack or gc changes the packs under it. */
#define MAX_ATTEMPTS 16
/*
 * The wait before attempt k: 20 ms doubling up to 1 s, some 10 s in all,
 * longer than git's prune-packed takes over half a million loose objects.
 */
#define RETRY_WAIT_US(k) ((k) < 7 ? 10000u << (k) : 1000000u)

/* Whether the pack's object directory has a multi-pack-index with a bitmap. */
static int in_midx_dir(const walker *w, const pack_file *pk)
{
	for (size_t i = 0; i < w->nmidx; i++)
		if (w->midx[i].dir == pk->dir)
			return 1;
	return 0;
}

/*
 * One attempt: list and map everything, read the types, and, if nothing
 * was repacked meanwhile, merge into the sets.  1 means "changed: try
 * again" (nothing was added to the sets then).
 */
static int walk_once(walker *w, const char *objdir, idsets *s, int last)
{
	size_t total = 0;
	int rc;

	progress_start(w->db.p, "reading loose objects", 0);
	rc = wp_add_objdirs(w, objdir);
	progress_stop(w->db.p);
	for (size_t i = 0; !rc && i < w->db.npacks; i++)
		if (w->db.packs[i].bitmap || in_midx_dir(w, &w->db.packs[i]))
			total += w->db.packs[i].n;
	/*
	 * The packs with a usable bitmap first, their types cost no pack
	 * reading: a multi-pack-index's bitmap for the packs it covers, then
	 * each remaining pack's own.
	 */
	if (!rc && total) {
		progress_start(w->db.p, "reading pack bitmaps", total);
		for (size_t i = 0; i < w->nmidx && !rc; i++)
			rc = wp_midx_types(w, &w->midx[i]);
		for (size_t i = 0; i < w->db.npacks && !rc; i++)
			if (!w->db.packs[i].types && (rc = wp_pack_bitmap(w, &w->db.packs[i])) == 1)
				rc = 0;
		progress_stop(w->db.p);
	}
	/* then the packs a scan typed before: their types tables in the cache */
	for (size_t i = 0; !rc && w->cache_dir && i < w->db.npacks; i++)
		if (!w->db.packs[i].types && (rc = wp_pack_cached(w, &w->db.packs[i])) == 1)
			rc = 0;
	total = 0;
	w->db.done = 0;
	for (size_t i = 0; !rc && i < w->db.npacks; i++)
		if (!w->db.packs[i].types)
			total += w->db.packs[i].n;
	if (!rc && total)
		progress_start(w->db.p, "reading pack headers", total);
	for (size_t i = 0; i < w->db.npacks && !rc; i++)
		if (!w->db.packs[i].types)
			rc = wp_pack_scan(w, &w->db.packs[i]);
	progress_stop(w->db.p);
	/*
	 * The maps stay valid whatever happens to the files now, so the
	 * merge reads one consistent state, the state of now, if no file
	 * vanished in between, the packs listed at the start are still the
	 * packs now, and no pack, object or fan-out directory changed since
	 * it was read (a loose object pruned or packed before its directory
	 * was read, another after, would give a count of neither state):
	 * their timestamps are the same and not recent, and their listings
	 * give the same names again.  The listings alone would miss a name
	 * removed and written again; the timestamps alone miss a change in
	 * the tick of the last one (a second or two on some file systems).
	 */
	if (w->db.vanished && rc && last)
		return rc; /* still failing: not a race but a broken repository */
	if (w->db.vanished)
		return 1;
	if (!rc)
		rc = odb_packs_changed(&w->db);
	if (!rc)
		rc = odb_dirs_changed(&w->db);
	/* timestamps can miss a change within one tick: the listings cannot */
	if (!rc)
		rc = odb_loose_changed(&w->db);
	if (rc == 1)
		return 1;
	if (!rc && (rc = wp_merge_commits(w, s)) == 1)
		rc = wp_merge(w, s);
	if (!rc)
		rc = wp_tags_to_sets(w, s);
	return rc;
}

int walk_pack_objects(const char *objdir, idsets *s, progress *p, char *err, size_t errsz)
{
	return walk_pack_objects_cached(objdir, NULL, s, p, err, errsz);
}

int walk_pack_objects_cached(const char *objdir, const char *cache_dir, idsets *s, progress *p,
			     char *err, size_t errsz)
{
	struct sigaction old;
	int rc = 1;

	if (errsz)
		err[0] = '\0';
	/*
	 * A pack truncated by another process while it is mapped faults
	 * (SIGBUS) when read past its new end: the scan catches that and
	 * fails with a message (odb_bus_guard) instead of dying.
	 */
	odb_bus_catch(&old);
	for (int attempt = 0; rc == 1 && attempt < MAX_ATTEMPTS; attempt++) {
		walker w = { 0 };

		if (attempt)
			usleep(RETRY_WAIT_US(attempt)); /* let the repack or gc finish */
		w.db.rawsz = idsets_rawsz(s);
		w.cache_dir = cache_dir;
		w.db.p = p;
		w.db.err = err;
		w.db.errsz = errsz;
		w.db.chain = malloc(MAX_DELTA_DEPTH * sizeof(*w.db.chain));
		rc = w.db.chain ? walk_once(&w, objdir, s, attempt == MAX_ATTEMPTS - 1) : WALK_NOMEM;
		if (rc == WALK_OK)
			odb_give_warnings(&w.db, err, errsz);
		wp_walker_free(&w);
	}
	if (rc == 1) {
		snprintf(err, errsz, "%s: the object directory kept changing during the walk "
			 "(a repack or gc?); try again", objdir);
		rc = WALK_ERR;
	}
	odb_bus_restore(&old);
	return rc;
}

int walk_pack_objdirs(const char *objdir, char ***dirs, size_t *n, char *err, size_t errsz)
{
	odb db = { 0 };
	int rc;

	*dirs = NULL;
	*n = 0;
	if (errsz)
		err[0] = '\0';
	db.err = err;
	db.errsz = errsz;
	rc = odb_find_objdirs(&db, objdir);
	if (rc == WALK_OK) {
		odb_give_warnings(&db, err, errsz);
		*dirs = db.dirs;
		*n = db.ndirs;
		db.dirs = NULL;
		db.ndirs = 0;
	}
	odb_free(&db);
	return rc;
}
