/*
 * odb.c - what every part of the object database reader shares: one-line
 * errors, warnings and notes, growing arrays, mapping files, noting the
 * directories read (to see a repack or gc under us), and the SIGBUS guard
 * for maps of files another process may cut short.
 */
#include <config.h>

#include "odb.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
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

#include "grow.h"
#include "mapguard.h"

int odb_fail(odb *db, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(db->err, db->errsz, fmt, ap);
	va_end(ap);
	return ODB_ERR;
}

int odb_say(odb *db, const char *prefix, const char *fmt, ...)
{
	char line[1024];
	size_t len = strlen(prefix);
	va_list ap;

	memcpy(line, prefix, len);
	va_start(ap, fmt);
	vsnprintf(line + len, sizeof(line) - len, fmt, ap);
	va_end(ap);
	len = strlen(line);
	if (odb_grow(&db->warn, &db->warn_cap, db->warn_len + len + 2, 1))
		return ODB_NOMEM;
	memcpy(db->warn + db->warn_len, line, len);
	db->warn_len += len;
	db->warn[db->warn_len++] = '\n';
	db->warn[db->warn_len] = '\0';
	return 0;
}

void odb_give_warnings(const odb *db, char *err, size_t errsz)
{
	size_t n = 0;

	if (!errsz)
		return;
	while (n < db->warn_len) {
		const char *nl = memchr(db->warn + n, '\n', db->warn_len - n);
		size_t end = (size_t)(nl - db->warn);

		if (end >= errsz)
			break;
		n = end + 1;
	}
	if (n)
		memcpy(err, db->warn, n - 1);
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

int odb_note_dir(odb *db, const char *path)
{
	dir_state *d;

	if (odb_grow(&db->states, &db->states_cap, db->nstates + 1, sizeof(*db->states)))
		return ODB_NOMEM;
	d = &db->states[db->nstates];
	memset(d, 0, sizeof(*d));
	if (!(d->path = strdup(path)))
		return ODB_NOMEM;
	clock_gettime(CLOCK_REALTIME, &d->read_at);
	dir_state_of(d, path);
	db->nstates++;
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

int odb_dirs_changed(const odb *db)
{
	for (size_t i = 0; i < db->nstates; i++) {
		const dir_state *was = &db->states[i];
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

/* Make room for `need` elements of `size` bytes in *arr; 0 or ODB_NOMEM. */
int odb_grow(void *arr, size_t *cap, size_t need, size_t size)
{
	return grow(arr, cap, need, 16, size) ? ODB_NOMEM : 0;
}

char *odb_join(const char *a, const char *b)
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
int odb_same_file(const char *path, const file_id *f)
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
 * The files mapped, each once in the process: verify's ID lookups, its
 * object reader and the pack walker each hold an odb over the same packs,
 * and a page read through two maps counts twice in the resident size (a
 * typo search and the messages read touch most of a large .idx).  A file
 * is the same when its path and its device, inode, size and time are.
 */
typedef struct {
	char *path;
	file_id id;
	void *map;
	size_t refs;
} shared_map;

static shared_map *shared;
static size_t nshared, capshared;
static pthread_mutex_t shared_lock = PTHREAD_MUTEX_INITIALIZER;

/* The map of path's file `id` already made, taken once more, or NULL. */
static void *shared_take(const char *path, const file_id *id)
{
	void *m = NULL;

	pthread_mutex_lock(&shared_lock);
	for (size_t i = 0; i < nshared && !m; i++) {
		shared_map *s = &shared[i];

		if (s->id.dev == id->dev && s->id.ino == id->ino && s->id.size == id->size &&
		    s->id.mtime.tv_sec == id->mtime.tv_sec &&
		    s->id.mtime.tv_nsec == id->mtime.tv_nsec && !strcmp(s->path, path)) {
			s->refs++;
			m = s->map;
		}
	}
	pthread_mutex_unlock(&shared_lock);
	return m;
}

/* Keep the new map m of path's file `id` for the next odb (out of memory: not kept, still fine). */
static void shared_keep(const char *path, const file_id *id, void *m)
{
	char *p = strdup(path);

	pthread_mutex_lock(&shared_lock);
	if (p && !odb_grow(&shared, &capshared, nshared + 1, sizeof(*shared))) {
		shared[nshared].path = p;
		shared[nshared].id = *id;
		shared[nshared].map = m;
		shared[nshared++].refs = 1;
		p = NULL;
	}
	pthread_mutex_unlock(&shared_lock);
	free(p);
}

/* One holder fewer of map m: 1 when it was the last (unmap it), 0 when others hold it still. */
static int shared_drop(const void *m)
{
	int last = 1;

	pthread_mutex_lock(&shared_lock);
	for (size_t i = 0; i < nshared; i++) {
		if (shared[i].map != m)
			continue;
		if (--shared[i].refs) {
			last = 0;
		} else {
			free(shared[i].path);
			shared[i] = shared[--nshared];
		}
		break;
	}
	if (!nshared) {
		free(shared);
		shared = NULL;
		capshared = 0;
	}
	pthread_mutex_unlock(&shared_lock);
	return last;
}

/*
 * Map a whole file read-only (a file mapped already is shared: see
 * shared_map).  Returns 0, 1 if it does not exist and `optional`, or an
 * error.  An empty file maps to NULL, size 0.
 */
int odb_map_file(odb *db, const char *path, int optional,
		    const unsigned char **out, size_t *size, file_id *id)
{
	struct stat st;
	file_id fid;
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
			db->vanished = 1;
		return odb_fail(db, "%s: cannot open: %s", path, strerror(errno));
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return odb_fail(db, "%s: not a regular file", path);
	}
	file_id_of(&fid, &st);
	if (id)
		*id = fid;
	if ((uint64_t)st.st_size > SIZE_MAX) {
		close(fd);
		return odb_fail(db, "%s: too large to map", path);
	}
	if (st.st_size == 0) {
		close(fd);
		return 0;
	}
	if ((m = shared_take(path, &fid))) {
		close(fd);
		*out = m;
		*size = (size_t)st.st_size;
		return 0;
	}
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return errno == ENOMEM ? ODB_NOMEM
				       : odb_fail(db, "%s: cannot map: %s", path, strerror(errno));
	/* cut short later by another process: a message, not SIGBUS (mapguard.h) */
	if (mapguard_name(m, (size_t)st.st_size, path)) {
		munmap(m, (size_t)st.st_size);
		return ODB_NOMEM;
	}
	shared_keep(path, &fid, m);
	*out = m;
	*size = (size_t)st.st_size;
	return 0;
}

void odb_unmap(const unsigned char *m, size_t size)
{
	if (m && shared_drop(m)) {
		mapguard_forget(m);
		munmap((void *)m, size);
	}
}

void odb_free(odb *db)
{
	for (size_t i = 0; i < db->npacks; i++) {
		pack_file *pk = &db->packs[i];

		odb_unmap(pk->idx, pk->idx_size);
		odb_unmap(pk->pack, pk->pack_size);
		odb_unmap(pk->rev, pk->rev_size);
		odb_unmap(pk->bitmap, pk->bitmap_size);
		free(pk->idx_path);
		free(pk->pack_path);
		free(pk->rev_path);
		free(pk->bitmap_path);
		free(pk->types);
	}
	free(db->packs);
	free(db->loose);
	for (size_t i = 0; i < db->ndirs; i++)
		free(db->dirs[i]);
	free(db->dirs);
	free(db->chain);
	free(db->tags);
	free(db->packs_seen);
	free(db->warn);
	for (size_t i = 0; i < db->nstates; i++)
		free(db->states[i].path);
	free(db->states);
	if (db->zs_ready)
		inflateEnd(&db->zs);
}


static __thread sigjmp_buf *bus_jump;

void odb_bus_guard(sigjmp_buf *to)
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

void odb_bus_catch(struct sigaction *old)
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

void odb_bus_restore(const struct sigaction *old)
{
	sigaction(SIGBUS, old, NULL);
}

