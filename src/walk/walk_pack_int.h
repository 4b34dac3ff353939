/*
 * walk_pack_int.h - what the files of the pack walker share (not for the
 * rest of the program, which uses walk_pack.h): the walker's state, a
 * pack's maps, and each step's entry point.  The steps are described in
 * walk_pack.c.
 *
 * Ownership: everything a walker points to is freed by walk_pack.c when
 * the attempt ends; a pack_order belongs to the scan that built it.
 */
#ifndef ABBREV_WALK_PACK_INT_H
#define ABBREV_WALK_PACK_INT_H

#include <stddef.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>
#include <zlib.h>

#include "hexid.h"
#include "idset.h"
#include "progress.h"
#include "walk.h"
#include "walk_pack.h"

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
	const char *dir;          /* its object directory (one of walker.dirs) */
	char *idx_path, *pack_path, *rev_path, *bitmap_path;
	file_id idx_id, pack_id;  /* the files as mapped */
	const unsigned char *idx, *pack, *rev, *bitmap; /* read-only maps */
	size_t idx_size, pack_size, rev_size, bitmap_size;
	int version;              /* index version, 1 or 2 */
	uint32_t n, n64;          /* objects; entries of the 64-bit offset table */
	const unsigned char *fanout, *names, *off32, *off64;
	size_t name_stride, off_stride;
	unsigned char *types;     /* type by index position, from the scan */
} pack_file;

/*
 * An object directory's multi-pack-index with a reachability bitmap
 * (pack/multi-pack-index and pack/multi-pack-index-<its checksum>.bitmap),
 * mapped with the packs, read by walk_pack_midx.c.
 */
typedef struct {
	const char *dir;          /* one of walker.dirs */
	char *path, *bitmap_path;
	const unsigned char *map, *bitmap;
	size_t size, bitmap_size;
} midx_file;

/* What a noted directory's listing gave, to list it again before the merge. */
enum {
	DIR_OTHER,   /* a pack directory: wp_packs_changed() lists it again */
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
	size_t lo, hi;           /* DIR_FANOUT: its objects, w->loose[lo..hi), sorted */
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
} wp_tag;

typedef struct {
	size_t rawsz;
	progress *p;
	char *err;
	size_t errsz;
	pack_file *packs;
	size_t npacks, packs_cap;
	midx_file *midx; /* the multi-pack-indexes that have a bitmap */
	size_t nmidx, midx_cap;
	loose_obj *loose;
	size_t nloose, loose_cap;
	char **dirs; /* real paths of the object directories seen */
	size_t ndirs, dirs_cap;
	dir_state *states; /* the pack and fan-out directories as read */
	size_t nstates, states_cap;
	char *warn;  /* warnings, one a line */
	size_t warn_len, warn_cap;
	uint32_t *chain; /* delta chain being resolved */
	wp_tag *tags;    /* the tags read (walk_pack_tags.c) */
	size_t ntags, tags_cap;
	z_stream zs;
	int zs_ready;
	size_t done;
	/*
	 * A concurrent repack or gc: a file listed but gone when opened, and
	 * the names of the packs as listed, to list again before the merge.
	 */
	int vanished;
	int paused;      /* the test hooks waited already */
	int paused_loose;
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

static inline uint32_t wp_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline uint64_t wp_be64(const unsigned char *p)
{
	return (uint64_t)wp_be32(p) << 32 | wp_be32(p + 4);
}

/* The name of index entry i. */
static inline const unsigned char *wp_pack_name(const pack_file *pk, uint32_t i)
{
	return pk->names + (size_t)i * pk->name_stride;
}

/* Fan-out entry b: the number of names whose first byte is <= b. */
static inline uint32_t wp_fanout(const pack_file *pk, int b)
{
	return b < 0 ? 0 : wp_be32(pk->fanout + 4 * b);
}

/* ---- walk_pack.c: shared helpers ---- */

/* Unmap and free everything the walker holds (not the walker itself). */
void wp_walker_free(walker *w);
/* A one-line message into w->err; returns WALK_ERR. */
int wp_fail(walker *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A line for w->warn, the walk going on (git warns and goes on); 0 or WALK_NOMEM. */
int wp_warn(walker *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/*
 * The same for a note, a line starting "note: ": something the walk did
 * otherwise than it could have (a bitmap it could not use), the answer
 * unchanged.  0 or WALK_NOMEM.
 */
int wp_note(walker *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Make room for `need` elements of `size` bytes in *arr; 0 or WALK_NOMEM. */
int wp_grow(void *arr, size_t *cap, size_t need, size_t size);
/* "a/b", malloc'ed; NULL when out of memory. */
char *wp_join(const char *a, const char *b);
/* Whether `path` still names the file `f` was taken from. */
int wp_same_file(const char *path, const file_id *f);
/*
 * Map a whole file read-only.  Returns 0, 1 if it does not exist and
 * `optional`, or an error.  An empty file maps to NULL, size 0.
 */
int wp_map_file(walker *w, const char *path, int optional, const unsigned char **out,
		size_t *size, file_id *id);
void wp_unmap(const unsigned char *m, size_t size);

/*
 * Note a directory's state just before reading it (one that does not
 * exist too); 0 or WALK_NOMEM.
 */
int wp_note_dir(walker *w, const char *path);
/*
 * Whether any noted directory changed since it was read, or changed so
 * shortly before that a change right after could share its timestamp:
 * 1 (start again), 0 (the listings are the directories' state now).
 */
int wp_dirs_changed(const walker *w);

/*
 * Where a SIGBUS on this thread jumps to (NULL: nowhere, the default
 * action): a mapped file truncated by another process faults on access
 * instead of reading short.  walk_pack_objects() catches SIGBUS while it
 * runs.
 */
void wp_bus_guard(sigjmp_buf *to);
/*
 * Catch SIGBUS for wp_bus_guard() (the previous action saved in *old)
 * until wp_bus_restore(old): walk_pack_objects() does it for a walk,
 * objidx.c for the life of a lookup.
 */
void wp_bus_catch(struct sigaction *old);
void wp_bus_restore(const struct sigaction *old);

/* ---- walk_pack_dirs.c: step 1, the object directories ---- */

/*
 * Note the object directory and its alternates (info/alternates and
 * GIT_ALTERNATE_OBJECT_DIRECTORIES, recursively) in w->dirs, real paths,
 * each once.
 */
int wp_find_objdirs(walker *w, const char *objdir);
/* wp_find_objdirs(), then map the packs and read the loose objects of each. */
int wp_add_objdirs(walker *w, const char *objdir);

/* ---- walk_pack_idx.c: the packs, their indexes and offset order ---- */

/*
 * Map every pack-*.idx of dir/pack that has its .pack (git skips the
 * others); `dir` is one of w->dirs, which the packs point to.
 */
int wp_add_packs(walker *w, const char *dir);
/* Whether the packs listed at the start changed: 1, 0, or an error. */
int wp_packs_changed(walker *w);
/* The pack offset of index entry i, checked to lie inside the pack. */
int wp_entry_offset(walker *w, const pack_file *pk, uint32_t i, uint64_t *out);
/* Index position of `id` in the pack, or NOT_FOUND. */
uint32_t wp_index_find(const pack_file *pk, const unsigned char *id, size_t rawsz);
/*
 * The same in any sorted list of IDs `stride` bytes apart with a git
 * fan-out table (256 big-endian counts) whose entries are within it.
 */
uint32_t wp_fanout_find(const unsigned char *fanout, const unsigned char *names, size_t stride,
			const unsigned char *id, size_t rawsz);
/* The pack's entries in offset order (the .rev file, or sorted offsets). */
int wp_order_build(walker *w, const pack_file *pk, pack_order *o);
void wp_order_free(pack_order *o);
/*
 * Only the index positions in offset order (*out, n entries, the
 * caller frees it), for the bitmap: the .rev file as it is (each entry
 * an index position), else the sorted offsets.
 */
int wp_order_positions(walker *w, const pack_file *pk, uint32_t **out);
/* Rank of the entry starting at offset `off`, or NOT_FOUND. */
uint32_t wp_rank_of(const pack_order *o, uint64_t off);
/* The same for an offset below that of rank r (an OFS_DELTA's base), near r first. */
uint32_t wp_rank_before(const pack_order *o, uint64_t off, uint32_t r);

/* ---- walk_pack_loose.c ---- */

/*
 * Read the loose objects dir/xx/yyyy..., each fan-out directory's sorted
 * (the whole list is sorted by the merge).
 */
int wp_add_loose(walker *w, const char *dir);
/*
 * Read the loose objects of the one fan-out directory dir/<b> (with the
 * tags' records), appended to w->loose and sorted there: for a lookup of
 * one prefix (objidx.c), where wp_add_loose() reads them all.
 */
int wp_read_fanout(walker *w, const char *dir, int b);
/* Loose objects in ID order (for qsort and bsearch). */
int wp_loose_cmp(const void *a, const void *b);
/*
 * List the object and fan-out directories read by wp_add_loose() again:
 * 1 if any listing differs from what was read (start again), 0, or an
 * error.  Timestamps miss a change within their tick (a second, or two,
 * on some file systems); names do not.
 */
int wp_loose_changed(walker *w);

/* ---- walk_pack_scan.c: step 2 ---- */

/* Type every entry of a pack into pk->types, reading headers in pack order. */
int wp_pack_scan(walker *w, pack_file *pk);
/*
 * The same into o (built here, wp_order_free() it), by rank: the pack's
 * entries in offset order, each one's index position and type (a delta's
 * is its base's).  The pack stays mapped.  0 or an error.
 */
int wp_pack_types(walker *w, const pack_file *pk, pack_order *o);
/*
 * Type every entry of a pack into pk->types from its .bitmap instead:
 * 0, 1 when the bitmap cannot be used (stale or damaged: pk->types is
 * then left NULL for the scan), or an error (a bad index or .rev).
 */
int wp_pack_bitmap(walker *w, pack_file *pk);
/*
 * A pack whose pk->types a bitmap gave: count it done, read its tags and
 * give the pack's pages back, as after a scan.  0 or an error.
 */
int wp_pack_typed(walker *w, pack_file *pk);

/* ---- walk_pack_midx.c: step 2 from a multi-pack-index's bitmap ---- */

/*
 * Map dir/pack/multi-pack-index and the bitmap named after its checksum,
 * when there are both, into w->midx (an unreadable one is no bitmap).
 * 0 or WALK_NOMEM.
 */
int wp_midx_find(walker *w, const char *dir);

/*
 * Type every pack a multi-pack-index covers from its bitmap (pk->types of
 * each), when the index, its reverse index and its bitmap agree with each
 * other and with the packs.  0 whether or not it could (when not, a note
 * says why and the packs are left to the scan), or WALK_NOMEM.
 */
int wp_midx_types(walker *w, midx_file *mx);

/* ---- walk_pack_tags.c: step 2's tags, for the commit-ish set ---- */

/* Read what each tag of a pack (types known, pack mapped) points at. */
int wp_pack_tags(walker *w, const pack_file *pk);
/* The same for the one tag at index position i (no record if unreadable). */
int wp_pack_tag(walker *w, const pack_file *pk, uint32_t i);
/* The same for the loose tag at `path`. */
int wp_loose_tag(walker *w, const char *path, const unsigned char *id);
/* Hand the tags read to the sets (idsets_tag_target), after the merge. */
int wp_tags_to_sets(walker *w, idsets *s);

/* ---- walk_pack_merge.c: step 3 ---- */

/* Merge every pack's names and the loose IDs into the sets, in key order. */
int wp_merge(walker *w, idsets *set);

#endif
