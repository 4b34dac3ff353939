/*
 * odb.h - the object database as git keeps it on disk, read directly: the
 * object directories (the repository's and its alternates), every pack's
 * .idx/.pack/.rev/.bitmap mapped and checked, the loose objects listed with
 * their types, tag headers, a pack's entries typed from their headers,
 * one-line errors and warnings, and the guard that turns a file cut short
 * under a map (SIGBUS) into an error.  The pack walker (walk/walk_pack*.c)
 * contains an odb and adds its steps (types from bitmaps, the merge into
 * ID sets); the ID lookups (objidx.c) and the object reader (objread.c)
 * use one of their own.
 *
 * File formats: Documentation/gitformat-pack.txt in git.  Every number
 * read is checked before it is used.
 *
 * Ownership: everything an odb points to is freed by odb_free(); a
 * pack_order belongs to whoever built it (odb_order_free()).
 */
#ifndef ABBREV_ODB_H
#define ABBREV_ODB_H

#include <stddef.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>
#include <zlib.h>

#include "hexid.h"
#include "progress.h"

#define MAX_DELTA_DEPTH 10000 /* git's pack-objects caps depth at 4095 */
#define MAX_ALT_DEPTH 5       /* as git: alternates of alternates, 5 deep */
#define NOT_FOUND UINT32_MAX

/* Which file a path names now, to tell a rewritten file from a broken one. */
typedef struct {
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime;
} file_id;

typedef struct {
	const char *dir;          /* its object directory (one of odb.dirs) */
	char *idx_path, *pack_path, *rev_path, *bitmap_path;
	file_id idx_id, pack_id;  /* the files as mapped */
	const unsigned char *idx, *pack, *rev, *bitmap; /* read-only maps */
	size_t idx_size, pack_size, rev_size, bitmap_size;
	int version;              /* index version, 1 or 2 */
	uint32_t n, n64;          /* objects; entries of the 64-bit offset table */
	const unsigned char *fanout, *names, *off32, *off64;
	size_t name_stride, off_stride;
	size_t rawsz;             /* the hash's size (the odb's) */
	unsigned char *types;     /* type by index position: the pack walker's */
} pack_file;

/* What a noted directory's listing gave, to list it again before the merge. */
enum {
	DIR_OTHER,   /* a pack directory: odb_packs_changed() lists it again */
	DIR_OBJECTS, /* an object directory: which fan-out directories it has */
	DIR_FANOUT   /* a fan-out directory: the loose objects read from it */
};

/* A directory as it was just before it was read, to see whether it changed since. */
typedef struct {
	char *path;
	int exists;
	dev_t dev;
	ino_t ino;
	struct timespec mtime, ctime;
	struct timespec read_at; /* the clock when it was read */
	int kind;                /* DIR_* */
	unsigned char fanouts[32]; /* DIR_OBJECTS: bit b for the directory "%02x" */
	int fanout;              /* DIR_FANOUT: its byte */
	size_t lo, hi;           /* DIR_FANOUT: its objects, db->loose[lo..hi), sorted */
} dir_state;

typedef struct {
	unsigned char id[ABBREV_MAX_RAWSZ]; /* zero-padded past rawsz */
	unsigned char type;
} loose_obj;

/* What a tag's header says, until the merge has filled the sets. */
typedef struct {
	unsigned char id[ABBREV_MAX_RAWSZ];
	unsigned char target[ABBREV_MAX_RAWSZ];
	unsigned char type;
} odb_tag;

/* Status of every odb function that can fail (walk.h's WALK_* are the same). */
enum odb_status {
	ODB_OK = 0,
	ODB_ERR = -1,   /* corrupt, unreadable or vanished data: message in err */
	ODB_NOMEM = -2
};

/*
 * One reading of the object directories: what was listed and mapped, and
 * where messages go.  Set rawsz, err and errsz (and p for a scan's
 * progress) in a zeroed odb, read with the functions below, odb_free().
 */
typedef struct odb {
	size_t rawsz;
	char *err;       /* one line: the error, or the warnings (odb_give_warnings) */
	size_t errsz;
	progress *p;     /* a scan's progress (odb_pack_types), or NULL */
	size_t done;     /* objects counted by the progress so far */
	pack_file *packs;
	size_t npacks, packs_cap;
	loose_obj *loose;
	size_t nloose, loose_cap;
	char **dirs; /* real paths of the object directories seen */
	size_t ndirs, dirs_cap;
	dir_state *states; /* the pack and fan-out directories as read */
	size_t nstates, states_cap;
	char *warn;  /* warnings, one a line */
	size_t warn_len, warn_cap;
	uint32_t *chain; /* delta chain being resolved (MAX_DELTA_DEPTH) */
	odb_tag *tags;   /* the tags read (odb_tags.c) */
	size_t ntags, tags_cap;
	z_stream zs;
	int zs_ready;
	/*
	 * A concurrent repack or gc: a file listed but gone when opened, and
	 * the names of the packs as listed, to list again before the merge.
	 */
	int vanished;
	int paused;      /* the test hooks waited already */
	int paused_loose;
	char *packs_seen;
	size_t packs_seen_len, packs_seen_cap;
} odb;

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

static inline uint32_t odb_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline uint64_t odb_be64(const unsigned char *p)
{
	return (uint64_t)odb_be32(p) << 32 | odb_be32(p + 4);
}

/* The name of index entry i. */
static inline const unsigned char *odb_pack_name(const pack_file *pk, uint32_t i)
{
	return pk->names + (size_t)i * pk->name_stride;
}

/* Fan-out entry b: the number of names whose first byte is <= b. */
static inline uint32_t odb_fanout(const pack_file *pk, int b)
{
	return b < 0 ? 0 : odb_be32(pk->fanout + 4 * b);
}

/* ---- odb.c: what every part shares ---- */

/* Unmap and free everything the odb holds (not the odb itself). */
void odb_free(odb *db);
/* A one-line message into db->err; returns ODB_ERR. */
int odb_fail(odb *db, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/*
 * A line for db->warn, `prefix` then the message; 0 or ODB_NOMEM.
 * odb_warn(): a warning, the reading going on (git warns and goes on).
 * odb_note(): a line starting "note: ": something done otherwise than it
 * could have been (a bitmap that could not be used), the answer unchanged.
 */
int odb_say(odb *db, const char *prefix, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
#define odb_warn(db, ...) odb_say(db, "", __VA_ARGS__)
#define odb_note(db, ...) odb_say(db, "note: ", __VA_ARGS__)
/* Hand the warnings to err (whole lines that fit, no last newline). */
void odb_give_warnings(const odb *db, char *err, size_t errsz);
/* Make room for `need` elements of `size` bytes in *arr; 0 or ODB_NOMEM. */
int odb_grow(void *arr, size_t *cap, size_t need, size_t size);
/* "a/b", malloc'ed; NULL when out of memory. */
char *odb_join(const char *a, const char *b);
/* Whether `path` still names the file `f` was taken from. */
int odb_same_file(const char *path, const file_id *f);
/*
 * Map a whole file read-only.  Returns 0, 1 if it does not exist and
 * `optional`, or an error.  An empty file maps to NULL, size 0.
 */
int odb_map_file(odb *db, const char *path, int optional, const unsigned char **out,
		 size_t *size, file_id *id);
void odb_unmap(const unsigned char *m, size_t size);

/*
 * Note a directory's state just before reading it (one that does not
 * exist too); 0 or ODB_NOMEM.
 */
int odb_note_dir(odb *db, const char *path);
/*
 * Whether any noted directory changed since it was read, or changed so
 * shortly before that a change right after could share its timestamp:
 * 1 (start again), 0 (the listings are the directories' state now).
 */
int odb_dirs_changed(const odb *db);

/*
 * Where a SIGBUS on this thread jumps to (NULL: nowhere, the default
 * action): a mapped file truncated by another process faults on access
 * instead of reading short.
 */
void odb_bus_guard(sigjmp_buf *to);
/*
 * Catch SIGBUS for odb_bus_guard() (the previous action saved in *old)
 * until odb_bus_restore(old): the pack walker does it for a walk,
 * objidx.c for the life of a lookup.
 */
void odb_bus_catch(struct sigaction *old);
void odb_bus_restore(const struct sigaction *old);

/* ---- odb_dirs.c: the object directories ---- */

/*
 * Note the object directory and its alternates (info/alternates and
 * GIT_ALTERNATE_OBJECT_DIRECTORIES, recursively) in db->dirs, real paths,
 * each once.
 */
int odb_find_objdirs(odb *db, const char *objdir);

/* ---- odb_pack.c: the packs, their indexes and offset order ---- */

/*
 * Map every pack-*.idx of dir/pack that has its .pack (git skips the
 * others); `dir` is one of db->dirs, which the packs point to.
 */
int odb_add_packs(odb *db, const char *dir);
/* Whether the packs listed at the start changed: 1, 0, or an error. */
int odb_packs_changed(odb *db);
/*
 * Whether every offset of every pack index and multi-pack-index of objdir
 * and its alternates lies inside its pack: 0, or ODB_ERR naming the index and the pack, or
 * ODB_NOMEM (message in err).  For what libgit2 is to read.
 */
int odb_check_packs(const char *objdir, size_t rawsz, char *err, size_t errsz);
/* ---- odb_midx.c: a multi-pack-index ---- */

/* A chunk of a multi-pack-index: where it starts and its size. */
typedef struct {
	const unsigned char *p;
	size_t size;
} odb_chunk;

/* A multi-pack-index as parsed: its chunks, checked against its size. */
typedef struct {
	uint32_t npacks, n;        /* packs (PNAM names), objects */
	odb_chunk pnam, oidf, oidl, ooff, loff, ridx; /* p NULL: no such chunk */
	const unsigned char *sum;  /* its trailing checksum */
} odb_midx;

/*
 * The header and the table of chunks of a multi-pack-index mapped at
 * f[0..size): 0, or 1 with the reason in why (not one this reader knows:
 * another version, a chain, a damaged table).
 */
int odb_midx_parse(odb_midx *m, const unsigned char *f, size_t size, size_t rawsz, char *why,
		   size_t whysz);
/* Object i's pack number and offset: 0, or 1 with the reason in why. */
int odb_midx_object(const odb_midx *m, uint32_t i, uint32_t *pack, uint64_t *off, char *why,
		    size_t whysz);
/*
 * Every offset of dir/pack/multi-pack-index (dir one of db->dirs, its
 * packs added) inside its pack: 0 (also when there is none), or ODB_ERR
 * naming the multi-pack-index and the pack, or ODB_NOMEM.
 */
int odb_check_midx(odb *db, const char *dir);

/*
 * The pack offset of index entry i, checked to lie inside the pack: 0, or
 * ODB_ERR with a message in err (when errsz is not 0).  No odb needed.
 */
int odb_entry_offset(const pack_file *pk, uint32_t i, uint64_t *out, char *err, size_t errsz);
/* Index position of `id` in the pack, or NOT_FOUND. */
uint32_t odb_index_find(const pack_file *pk, const unsigned char *id, size_t rawsz);
/*
 * The same in any sorted list of IDs `stride` bytes apart with a git
 * fan-out table (256 big-endian counts) whose entries are within it.
 */
uint32_t odb_fanout_find(const unsigned char *fanout, const unsigned char *names, size_t stride,
			 const unsigned char *id, size_t rawsz);
/* The pack's entries in offset order (the .rev file, or sorted offsets). */
int odb_order_build(odb *db, const pack_file *pk, pack_order *o);
void odb_order_free(pack_order *o);
/*
 * Only the index positions in offset order (*out, n entries, the
 * caller frees it), for the bitmap: the .rev file as it is (each entry
 * an index position), else the sorted offsets.
 */
int odb_order_positions(odb *db, const pack_file *pk, uint32_t **out);
/* Rank of the entry starting at offset `off`, or NOT_FOUND. */
uint32_t odb_rank_of(const pack_order *o, uint64_t off);
/* The same for an offset below that of rank r (an OFS_DELTA's base), near r first. */
uint32_t odb_rank_before(const pack_order *o, uint64_t off, uint32_t r);

/* ---- odb_loose.c: loose objects ---- */

/*
 * Read the loose objects dir/xx/yyyy..., each fan-out directory's sorted
 * (the whole list is sorted by the merge).
 */
int odb_add_loose(odb *db, const char *dir);
/*
 * Read the loose objects of the one fan-out directory dir/<b> (with the
 * tags' records), appended to db->loose and sorted there: for a lookup of
 * one prefix (objidx.c), where odb_add_loose() reads them all.
 */
int odb_read_fanout(odb *db, const char *dir, int b);
/* Loose objects in ID order (for qsort and bsearch). */
int odb_loose_cmp(const void *a, const void *b);
/*
 * List the object and fan-out directories read by odb_add_loose() again:
 * 1 if any listing differs from what was read (start again), 0, or an
 * error.  Timestamps miss a change within their tick (a second, or two,
 * on some file systems); names do not.
 */
int odb_loose_changed(odb *db);

/* ---- odb_scan.c: a pack's entries typed from their headers ---- */

/*
 * Build o (odb_order_free() it): the pack's entries in offset order, each
 * one's index position and type (a delta's is its base's), from the entry
 * headers read on two threads, db->p counting them from db->done.  The
 * pack stays mapped.  0 or an error.
 */
int odb_pack_types(odb *db, const pack_file *pk, pack_order *o);

/* ---- odb_tags.c: what tags point at, for the commit-ish set ---- */

/* Read what each tag of a pack (types known, pack mapped) points at. */
int odb_pack_tags(odb *db, const pack_file *pk);
/* The same for the one tag at index position i (no record if unreadable). */
int odb_pack_tag(odb *db, const pack_file *pk, uint32_t i);
/* The same for the loose tag at `path`. */
int odb_loose_tag(odb *db, const char *path, const unsigned char *id);

#endif
