/*
 * walk_pack.c - every (id, type) of an object directory, read from the
 * pack and loose files themselves.
 *
 * Why not libgit2: asking it for each object's header costs a lookup, a
 * window and a zlib stream per delta; here a pack costs one pass over its
 * entry headers.  The steps:
 *
 *  1. Collect the object directories (the given one, then info/alternates,
 *     recursively: walk_pack_dirs.c), map every pack-*.idx with its .pack
 *     (walk_pack_idx.c), and read the loose objects' headers (only the
 *     first bytes of each zlib stream: walk_pack_loose.c).
 *  2. For each pack, order the entries by offset (the .rev file if there is
 *     one, else a radix sort of the offsets) and read each entry header in
 *     that order, on two threads, each over one half of the pack: a pass
 *     notes each entry's type, or for a delta its base's rank.  A delta has
 *     no type of its own: an OFS_DELTA's base lies earlier in the pack, a
 *     REF_DELTA's is looked up in the same pack's index (git requires it
 *     there), so a second pass in offset order gives each delta its base's
 *     type.  Types land in one byte per index position.  The order is
 *     built in walk_pack_idx.c, the scan is walk_pack_scan.c.  A pack
 *     with a reachability bitmap made for it (its .bitmap) is not read at
 *     all: the bitmap's four type bitmaps give the types by rank
 *     (walk_bitmap.c); nor are the packs a multi-pack-index with a bitmap
 *     covers (walk_pack_midx.c).  A stale or damaged bitmap leaves the
 *     packs to the scan, and a note says why.
 *  3. Merge the sorted name lists of all packs and the sorted loose IDs
 *     (a k-way merge on a small heap), so the ID sets are filled in key
 *     order, each ID once, by idsets' bulk adding (the Judy arrays filled on
 *     two more threads).  Judy inserts in key order are some 25x cheaper
 *     than in random order, and they are the bulk of the work
 *     (walk_pack_merge.c).
 *
 * This file holds what the steps share (errors, file maps) and the entry
 * point, which runs the steps and starts again when a repack or gc
 * changed the directory under it.
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

int wp_fail(walker *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w->err, w->errsz, fmt, ap);
	va_end(ap);
	return WALK_ERR;
}

/* Append a line, `prefix` then the message, to w->warn; 0 or WALK_NOMEM. */
static int add_line(walker *w, const char *prefix, const char *fmt, va_list ap)
{
	char line[1024];
	size_t len = strlen(prefix);

	memcpy(line, prefix, len);
	vsnprintf(line + len, sizeof(line) - len, fmt, ap);
	len = strlen(line);
	if (wp_grow(&w->warn, &w->warn_cap, w->warn_len + len + 2, 1))
		return WALK_NOMEM;
	memcpy(w->warn + w->warn_len, line, len);
	w->warn_len += len;
	w->warn[w->warn_len++] = '\n';
	w->warn[w->warn_len] = '\0';
	return 0;
}

int wp_warn(walker *w, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = add_line(w, "", fmt, ap);
	va_end(ap);
	return rc;
}

int wp_note(walker *w, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = add_line(w, "note: ", fmt, ap);
	va_end(ap);
	return rc;
}

/* Hand the warnings to the caller's buffer (whole lines that fit, no last newline). */
static void give_warnings(const walker *w, char *err, size_t errsz)
{
	size_t n = 0;

	if (!errsz)
		return;
	while (n < w->warn_len) {
		const char *nl = memchr(w->warn + n, '\n', w->warn_len - n);
		size_t end = (size_t)(nl - w->warn);

		if (end >= errsz)
			break;
		n = end + 1;
	}
	if (n)
		memcpy(err, w->warn, n - 1);
	err[n ? n - 1 : 0] = '\0';
}

static void dir_state_of(dir_state *d, const char *path)
{
	struct stat st;

	d->exists = stat(path, &st) == 0;
	if (d->exists) {
		d->dev = st.st_dev;
		d->ino = st.st_ino;
		d->mtime = st.st_mtim;
		d->ctime = st.st_ctim;
	}
}

int wp_note_dir(walker *w, const char *path)
{
	dir_state *d;

	if (wp_grow(&w->states, &w->states_cap, w->nstates + 1, sizeof(*w->states)))
		return WALK_NOMEM;
	d = &w->states[w->nstates];
	memset(d, 0, sizeof(*d));
	if (!(d->path = strdup(path)))
		return WALK_NOMEM;
	clock_gettime(CLOCK_REALTIME, &d->read_at);
	dir_state_of(d, path);
	w->nstates++;
	return 0;
}

static int same_time(struct timespec a, struct timespec b)
{
	return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec;
}

/* Nanoseconds from a to b (negative when b is earlier). */
static int64_t ns_between(struct timespec a, struct timespec b)
{
	return ((int64_t)b.tv_sec - a.tv_sec) * 1000000000 + (b.tv_nsec - a.tv_nsec);
}

/*
 * How long a directory must have been left alone before it is read for
 * its listing to count (half a second).  Its timestamps come from a
 * coarse clock (a few milliseconds a tick), so a change right after the
 * read could share the timestamp of one right before; and a prune or gc
 * that is still busy, only descheduled for a moment on a loaded machine,
 * has changed some directory this recently: wait for it to finish rather
 * than count a state between its before and after.
 */
#define QUIET_NS 500000000

/* Within QUIET_NS either side of `at` (a clock far off, as on NFS, is not). */
static int recent(struct timespec t, struct timespec at)
{
	int64_t d = ns_between(t, at);

	return d > -QUIET_NS && d < QUIET_NS;
}

int wp_dirs_changed(const walker *w)
{
	for (size_t i = 0; i < w->nstates; i++) {
		const dir_state *was = &w->states[i];
		dir_state now;

		dir_state_of(&now, was->path);
		if (now.exists != was->exists)
			return 1;
		if (!now.exists)
			continue;
		if (now.dev != was->dev || now.ino != was->ino || !same_time(now.mtime, was->mtime) ||
		    !same_time(now.ctime, was->ctime) ||
		    recent(now.mtime, was->read_at))
			return 1;
	}
	return 0;
}

/* Make room for `need` elements of `size` bytes in *arr; 0 or WALK_NOMEM. */
int wp_grow(void *arr, size_t *cap, size_t need, size_t size)
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

char *wp_join(const char *a, const char *b)
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

static void file_id_of(file_id *f, const struct stat *st)
{
	f->dev = st->st_dev;
	f->ino = st->st_ino;
	f->size = st->st_size;
	f->mtime = st->st_mtim;
}

/* Whether `path` still names the file `f` was taken from. */
int wp_same_file(const char *path, const file_id *f)
{
	struct stat st;
	file_id now;

	if (stat(path, &st) < 0)
		return 0;
	file_id_of(&now, &st);
	return now.dev == f->dev && now.ino == f->ino && now.size == f->size &&
	       now.mtime.tv_sec == f->mtime.tv_sec && now.mtime.tv_nsec == f->mtime.tv_nsec;
}

/*
 * Map a whole file read-only.  Returns 0, 1 if it does not exist and
 * `optional`, or an error.  An empty file maps to NULL, size 0.
 */
int wp_map_file(walker *w, const char *path, int optional,
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
		return wp_fail(w, "%s: cannot open: %s", path, strerror(errno));
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return wp_fail(w, "%s: not a regular file", path);
	}
	if (id)
		file_id_of(id, &st);
	if ((uint64_t)st.st_size > SIZE_MAX) {
		close(fd);
		return wp_fail(w, "%s: too large to map", path);
	}
	if (st.st_size == 0) {
		close(fd);
		return 0;
	}
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return errno == ENOMEM ? WALK_NOMEM
				       : wp_fail(w, "%s: cannot map: %s", path, strerror(errno));
	/* cut short later by another process: a message, not SIGBUS (mapguard.h) */
	if (mapguard_name(m, (size_t)st.st_size, path)) {
		munmap(m, (size_t)st.st_size);
		return WALK_NOMEM;
	}
	*out = m;
	*size = (size_t)st.st_size;
	return 0;
}

void wp_unmap(const unsigned char *m, size_t size)
{
	if (m) {
		mapguard_forget(m);
		munmap((void *)m, size);
	}
}

void wp_walker_free(walker *w)
{
	for (size_t i = 0; i < w->npacks; i++) {
		pack_file *pk = &w->packs[i];

		wp_unmap(pk->idx, pk->idx_size);
		wp_unmap(pk->pack, pk->pack_size);
		wp_unmap(pk->rev, pk->rev_size);
		wp_unmap(pk->bitmap, pk->bitmap_size);
		free(pk->idx_path);
		free(pk->pack_path);
		free(pk->rev_path);
		free(pk->bitmap_path);
		free(pk->types);
	}
	free(w->packs);
	for (size_t i = 0; i < w->nmidx; i++) {
		wp_unmap(w->midx[i].map, w->midx[i].size);
		wp_unmap(w->midx[i].bitmap, w->midx[i].bitmap_size);
		free(w->midx[i].path);
		free(w->midx[i].bitmap_path);
	}
	free(w->midx);
	free(w->loose);
	for (size_t i = 0; i < w->ndirs; i++)
		free(w->dirs[i]);
	free(w->dirs);
	free(w->chain);
	free(w->tags);
	free(w->packs_seen);
	free(w->warn);
	for (size_t i = 0; i < w->nstates; i++)
		free(w->states[i].path);
	free(w->states);
	if (w->zs_ready)
		inflateEnd(&w->zs);
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

	progress_start(w->p, "reading loose objects", 0);
	rc = wp_add_objdirs(w, objdir);
	progress_stop(w->p);
	for (size_t i = 0; !rc && i < w->npacks; i++)
		if (w->packs[i].bitmap || in_midx_dir(w, &w->packs[i]))
			total += w->packs[i].n;
	/*
	 * The packs with a usable bitmap first, their types cost no pack
	 * reading: a multi-pack-index's bitmap for the packs it covers, then
	 * each remaining pack's own.
	 */
	if (!rc && total) {
		progress_start(w->p, "reading pack bitmaps", total);
		for (size_t i = 0; i < w->nmidx && !rc; i++)
			rc = wp_midx_types(w, &w->midx[i]);
		for (size_t i = 0; i < w->npacks && !rc; i++)
			if (!w->packs[i].types && (rc = wp_pack_bitmap(w, &w->packs[i])) == 1)
				rc = 0;
		progress_stop(w->p);
	}
	total = 0;
	w->done = 0;
	for (size_t i = 0; !rc && i < w->npacks; i++)
		if (!w->packs[i].types)
			total += w->packs[i].n;
	if (!rc && total)
		progress_start(w->p, "reading pack headers", total);
	for (size_t i = 0; i < w->npacks && !rc; i++)
		if (!w->packs[i].types)
			rc = wp_pack_scan(w, &w->packs[i]);
	progress_stop(w->p);
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
	if (w->vanished && rc && last)
		return rc; /* still failing: not a race but a broken repository */
	if (w->vanished)
		return 1;
	if (!rc)
		rc = wp_packs_changed(w);
	if (!rc)
		rc = wp_dirs_changed(w);
	/* timestamps can miss a change within one tick: the listings cannot */
	if (!rc)
		rc = wp_loose_changed(w);
	if (rc == 1)
		return 1;
	if (!rc)
		rc = wp_merge(w, s);
	if (!rc)
		rc = wp_tags_to_sets(w, s);
	return rc;
}

static __thread sigjmp_buf *bus_jump;

void wp_bus_guard(sigjmp_buf *to)
{
	bus_jump = to;
}

/* What handled SIGBUS before walk_pack_objects() (the program's mapguard.h). */
static struct sigaction bus_before;

static void on_sigbus(int sig, siginfo_t *si, void *uc)
{
	if (bus_jump)
		siglongjmp(*bus_jump, 1);
	/*
	 * Not a guarded read (an .idx cut short, read by the merge): what
	 * handled it before the walk, which names the file and exits
	 * (mapguard.h); else the default action, when the access runs again.
	 */
	if ((bus_before.sa_flags & SA_SIGINFO) && bus_before.sa_sigaction != on_sigbus)
		bus_before.sa_sigaction(sig, si, uc);
	signal(sig, SIG_DFL);
}

void wp_bus_catch(struct sigaction *old)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigbus;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, old);
	if (!(old->sa_flags & SA_SIGINFO) || old->sa_sigaction != on_sigbus)
		bus_before = *old;
}

void wp_bus_restore(const struct sigaction *old)
{
	sigaction(SIGBUS, old, NULL);
}

int walk_pack_objects(const char *objdir, idsets *s, progress *p, char *err, size_t errsz)
{
	struct sigaction old;
	int rc = 1;

	if (errsz)
		err[0] = '\0';
	/*
	 * A pack truncated by another process while it is mapped faults
	 * (SIGBUS) when read past its new end: the scan catches that and
	 * fails with a message (wp_bus_guard) instead of dying.
	 */
	wp_bus_catch(&old);
	for (int attempt = 0; rc == 1 && attempt < MAX_ATTEMPTS; attempt++) {
		walker w = { 0 };

		if (attempt)
			usleep(RETRY_WAIT_US(attempt)); /* let the repack or gc finish */
		w.rawsz = idsets_rawsz(s);
		w.p = p;
		w.err = err;
		w.errsz = errsz;
		w.chain = malloc(MAX_DELTA_DEPTH * sizeof(*w.chain));
		rc = w.chain ? walk_once(&w, objdir, s, attempt == MAX_ATTEMPTS - 1) : WALK_NOMEM;
		if (rc == WALK_OK)
			give_warnings(&w, err, errsz);
		wp_walker_free(&w);
	}
	if (rc == 1) {
		snprintf(err, errsz, "%s: the object directory kept changing during the walk "
			 "(a repack or gc?); try again", objdir);
		rc = WALK_ERR;
	}
	wp_bus_restore(&old);
	return rc;
}

int walk_pack_objdirs(const char *objdir, char ***dirs, size_t *n, char *err, size_t errsz)
{
	walker w = { 0 };
	int rc;

	*dirs = NULL;
	*n = 0;
	if (errsz)
		err[0] = '\0';
	w.err = err;
	w.errsz = errsz;
	rc = wp_find_objdirs(&w, objdir);
	if (rc == WALK_OK) {
		give_warnings(&w, err, errsz);
		*dirs = w.dirs;
		*n = w.ndirs;
		w.dirs = NULL;
		w.ndirs = 0;
	}
	wp_walker_free(&w);
	return rc;
}
