/*
 * objread.h - objects by ID, read straight from the packs of an object
 * directory (and its alternates), with no libgit2.
 *
 * verify reads hundreds of thousands of commits (every subject, once, for
 * the subject index; each referenced commit): through git_odb_read() each
 * costs a pack lookup, a window, a zlib stream and, for a commit stored as
 * a delta, its whole chain again.  Here the packs are mapped once, a zlib
 * stream is reused, and the objects rebuilt lately are kept (a base cache
 * keyed by pack offset, as git's delta_base_cache), so the deltas of a
 * chain read in pack order cost one inflation each.  Reading in pack
 * order is what objread_locate() is for.
 *
 * A loose object, or one no pack holds, is not read here (0): the caller
 * reads it another way.  No hash is checked: the IDs asked about come
 * from the packs' own indexes.
 *
 * Ownership: objread_new() returns a reader freed with objread_free();
 * the bytes a read returns belong to the reader and stay valid until its
 * next read.  One reader is for one thread at a time (objread_fork()
 * makes another).
 */
#ifndef ABBREV_OBJREAD_H
#define ABBREV_OBJREAD_H

#include <stddef.h>
#include <stdint.h>

typedef struct objread objread;

/*
 * Map the packs of `objdir` and of its alternates (as git finds them).
 * 0, -1 when out of memory, -2 with a one-line message in err.
 */
int objread_new(objread **out, const char *objdir, size_t rawsz, char *err, size_t errsz);
void objread_free(objread *r);

/*
 * A second reader of r's packs, with a state (zlib stream, delta base
 * cache) of its own, for another thread: r's packs are only read, so the
 * two may read at once.  Freed with objread_free(), before r.  0 or -1.
 */
int objread_fork(const objread *r, objread **out);

/* Where a pack holds `id`: 1 with *pack and *off set, 0 when none does. */
int objread_locate(const objread *r, const unsigned char *id, uint32_t *pack, uint64_t *off);
/*
 * The same, with its .idx position in *pos: the first pack that holds
 * it, as objread_find_in() asked of each pack in turn finds it.
 */
int objread_locate_pos(const objread *r, const unsigned char *id, uint32_t *pack, uint32_t *pos,
		       uint64_t *off);

/*
 * The object at offset `off` of pack `pack`: 1 with its type (1..4, as
 * ABBREV_TYPE_*) and *len bytes at *data (NUL-terminated), -1 when out of
 * memory, -2 when the entry cannot be read (damaged, a chain too deep).
 */
int objread_read_at(objread *r, uint32_t pack, uint64_t off, int *type,
		    const unsigned char **data, size_t *len);

/*
 * As objread_read_at(), but a large object stored whole (over 4 KiB) is
 * inflated only as far as enough(bytes, n) says is enough (non-zero), in
 * growing steps: *len is then less than the object's size.  For what is
 * read first of many objects, as a commit's headers and subject.
 */
int objread_read_head(objread *r, uint32_t pack, uint64_t off,
		      int (*enough)(const char *d, size_t n), int *type,
		      const unsigned char **data, size_t *len);

/*
 * Give back the pages of pack `pack`'s map that lie wholly in [from, to)
 * (a caller reading the pack in offset order, behind it): they leave the
 * process's RSS, and are read again from the page cache if touched.
 */
void objread_release(const objread *r, uint32_t pack, uint64_t from, uint64_t to);

/* How many packs the reader maps (numbered 0 .. n - 1). */
uint32_t objread_npacks(const objread *r);

/*
 * Let go of the pages of the packs and their .idx files read so far (the
 * maps stay; a page read again is mapped again from the page cache): a
 * reader of scattered objects, one at a time over a long run, keeps its
 * resident size to what it reads lately, as git's packedGitLimit does.
 */
void objread_trim(objread *r);
/*
 * The same, the .idx files' pages kept unless `idx`: a reader that looks
 * up IDs all over them (every commit of a --range) would map them again
 * at once.
 */
void objread_trim_packs(objread *r, int idx);

/*
 * Pack `pack`: its checksum (rawsz bytes, as its .idx and .pack end), its
 * object count, and its .idx's sorted IDs (ID i at *ids + i * *stride).
 */
void objread_pack(const objread *r, uint32_t pack, const unsigned char **sum, uint32_t *n,
		  const unsigned char **ids, size_t *stride);

/* Which file: its device, inode, size and modification time, as mapped. */
typedef struct {
	uint64_t dev, ino, size;
	int64_t mtime_sec;
	uint32_t mtime_nsec;
} objread_file;

/* The files of pack `pack` as the reader mapped them: the .pack's, the .idx's. */
void objread_pack_files(const objread *r, uint32_t pack, objread_file *packf, objread_file *idxf);

/* The path of pack `pack`'s .pack file (the reader's). */
const char *objread_pack_path(const objread *r, uint32_t pack);

/* The offset of the object at .idx position `pos` of pack `pack`: 0, or -2 (a bad offset). */
int objread_offset(const objread *r, uint32_t pack, uint32_t pos, uint64_t *off);

/*
 * The commits of pack `pack` in pack order, from its entry headers (a
 * delta's type is its base's, down the chain; nothing is inflated): their
 * .idx positions and offsets, *n of each (malloc'ed, the caller frees
 * them).  0, -1 when out of memory, -2 with a one-line message in err
 * when a header cannot be read.
 */
int objread_pack_commits(objread *r, uint32_t pack, uint32_t **pos, uint64_t **off, size_t *n,
			 char *err, size_t errsz);

/* The .idx position of `id` in pack `pack`, or UINT32_MAX when it has none. */
uint32_t objread_find_in(const objread *r, uint32_t pack, const unsigned char *id);

/*
 * The loose commits of the object directories (and alternates) that no
 * pack holds: *n raw IDs, ascending, each once, into *ids (malloc'ed, the
 * caller frees it).  0, -1 when out of memory, -2 when a directory cannot
 * be read.
 */
int objread_loose_commits(objread *r, unsigned char **ids, size_t *n);

/* objread_locate(), then objread_read_at(); 0 when no pack holds `id`. */
int objread_read(objread *r, const unsigned char *id, int *type, const unsigned char **data,
		 size_t *len);

/*
 * The loose object `id` (dir/xx/yyyy... of the object directories, the
 * alternates' too), whole: 1 with its type and bytes as objread_read_at()
 * gives them, 0 when there is no such file, -1 when out of memory, -2 when
 * the file is damaged (zlib, its header, a size that disagrees, bytes after
 * the stream: what git refuses) or larger than objects read here.  For
 * what libgit2 cannot read (SHA-256).
 */
int objread_read_loose(objread *r, const unsigned char *id, int *type,
		       const unsigned char **data, size_t *len);

#endif
