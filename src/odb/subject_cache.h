/*
 * subject_cache.h - the subject index of verify: every commit's subject,
 * sorted, so that "which commits have this subject" (or a subject cut
 * short with "...": which begin with it) is a binary search.
 *
 * A subject table holds the commits of one pack (or of the loose objects):
 * for each, its subject folded (runs of blanks one space, none at either
 * end: what line wrapping changes), the subject as git's %s prints it, its
 * position in the pack's .idx, its committer time and (when all were read)
 * its parents, sorted by the folded subject.  A pack never changes, so its table is kept in a file named by
 * the pack's checksum in a cache directory outside the repository
 * (subject_cache_dir()) and never goes stale; reading it is a map, not a
 * read of every commit.  The file is checked before it is used (magic,
 * version, hash size, the pack's checksum and object count, a CRC-32 of the
 * whole file, every offset and position): a damaged, cut or foreign file
 * is never trusted, only rebuilt.  It is written to a temporary file then
 * renamed, so a reader sees a whole file or none, and two writers of the
 * same pack write the same bytes.
 *
 * A subject index is a set of tables, each with the IDs its positions
 * name (the pack's .idx, or an array), searched together: the answer does
 * not depend on which tables came from files.
 *
 * Pure: no libgit2, no pack reading (cite_git2.c finds the commits).
 *
 * Ownership: subject_table_build(), _parse() and _load() return a table
 * freed with subject_table_free(); subject_index_add() takes the table
 * over.  A parsed table borrows its bytes; the IDs given to
 * subject_index_add() are borrowed and must outlive the index.
 */
#ifndef ABBREV_SUBJECT_CACHE_H
#define ABBREV_SUBJECT_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "hexid.h"
#include "objread.h"
#include "odb.h"

typedef struct subject_table subject_table;

/* What the table of a pack is built from: one commit. */
typedef struct {
	const char *subject;  /* git's %s (to its first NUL) */
	uint32_t pos;         /* its position in the pack's .idx (or the ID array) */
	int64_t time;         /* committer time */
	uint32_t pfirst, np;  /* its parents: subject_parents.list[pfirst .. pfirst + np) */
} subject_row;

/*
 * The parents of a table's commits: each a position in the pack's .idx
 * (below its object count), or the object count plus j for ext's j-th ID
 * (a parent the pack does not hold, rawsz bytes each).
 */
typedef struct {
	const uint32_t *list;
	size_t n;
	const unsigned char *ext;
	uint32_t next;
} subject_parents;

/*
 * Fold s[0..n) into out (room for n + 1 bytes): each run of blanks one
 * space, none at either end, NUL-ended.  Returns the folded length.
 */
size_t subject_fold(char *out, const char *s, size_t n);

/* Subjects gathered before a table is built: NUL-ended, one after another. */
typedef struct {
	char *s;
	size_t len, cap;
} subject_text;

/* Append `subject` with its NUL: its offset in t->s, or SIZE_MAX (memory). */
size_t subject_text_add(subject_text *t, const char *subject);

/*
 * The table of the n rows (copied) of the pack whose checksum is `sum`
 * (rawsz bytes) and which has `nobjects` objects.  0 or -1 (memory).
 */
int subject_table_build(subject_table **out, size_t rawsz, const unsigned char *sum,
			uint32_t nobjects, const subject_row *rows, size_t n);
/* The same with every commit's parents (par; NULL: none kept, as subject_table_build()). */
int subject_table_build_with(subject_table **out, size_t rawsz, const unsigned char *sum,
			     uint32_t nobjects, const subject_row *rows, size_t n,
			     const subject_parents *par);

/*
 * A table from the bytes of a cache file (borrowed, len bytes), checked
 * for the pack `sum` with `nobjects` objects: 0, -2 when the bytes are not
 * such a table (damaged, cut, another pack's or another program's), -1
 * (memory).
 */
int subject_table_parse(subject_table **out, const unsigned char *buf, size_t len, size_t rawsz,
			const unsigned char *sum, uint32_t nobjects);

/*
 * The files a table is for: the pack's and its .idx's identity (device,
 * inode, size, modification time to the nanosecond) when it was read.  A
 * pack's checksum is only what its .idx claims, which a crafted repository
 * can copy from another pack of the same object count; a table answers
 * only for the very files it was built from.
 */
typedef struct {
	objread_file pack, idx;
	const char *pack_path; /* kept in the table (or NULL): `git abbrev cache` shows it */
} subject_bind;

/* A file as an odb noted it when mapped (odb.h), as a table names it. */
objread_file subject_file_of(const file_id *f);

/* Bind a built table to the files b (written into its bytes): 0, or -1 for a loaded table. */
int subject_table_bind(subject_table *t, const subject_bind *b);

/* How many commits the table holds. */
size_t subject_table_count(const subject_table *t);
/*
 * The table's i-th commit in .idx position order (i < the count): 0 with
 * its position and committer time, -2 when the table is damaged there.
 */
int subject_table_at(const subject_table *t, size_t i, uint32_t *pos, int64_t *time);
/* Whether the table holds its commits' parents. */
int subject_table_has_parents(const subject_table *t);
/*
 * Whether t answers for the files it names: read from the cache for
 * them, or built and bound to them (subject_table_bind()).
 */
int subject_table_bound(const subject_table *t);
/*
 * The parents of the table's i-th commit in .idx position order (as
 * subject_table_at()): how many (at most max of them go to out[]: each
 * the ID, ids + position * stride for one the pack holds, of nids), or
 * -2 when the table holds no parents or is damaged there.
 */
int subject_table_parents(const subject_table *t, size_t i, const unsigned char *ids,
			  size_t stride, uint32_t nids, const unsigned char **out, size_t max);
/*
 * The .idx position in this pack of the j-th parent of the table's i-th
 * commit (as subject_table_parents()), or UINT32_MAX when the pack does
 * not hold it, it has fewer parents or the table holds none.
 */
uint32_t subject_table_parent_pos(const subject_table *t, size_t i, size_t j);
/* The table as its file holds it: *len bytes (the table's). */
const unsigned char *subject_table_bytes(const subject_table *t, size_t *len);

/*
 * The path of the cache directory, malloc'ed: $GIT_ABBREV_CACHE_DIR (a
 * relative one from where the command started: subject_cache_pin()),
 * else $XDG_CACHE_HOME/git-abbrev, else $HOME/.cache/git-abbrev; NULL
 * when none can be named (or out of memory), or when the directory is
 * not the user's own (another owner, or writable by group or others: a
 * table there could be anyone's), with one note on stderr then.
 */
char *subject_cache_dir(void);

/* Before the first chdir (-C): a relative $GIT_ABBREV_CACHE_DIR is taken from here. */
void subject_cache_pin(void);

/*
 * The table of the pack `sum` from its file in `dir`, built from the files
 * b: 0 with *out, 1 when there is no usable file (none, not a regular
 * file, not the user's own or writable by others, unreadable, cut short,
 * or not a whole table of these very files), -1 (memory).  Never blocks
 * (a FIFO at its path is no table) and never follows a symlink.
 */
int subject_table_load(subject_table **out, const char *dir, size_t rawsz,
		       const unsigned char *sum, uint32_t nobjects, const subject_bind *b);

/*
 * Write the table to its file in `dir` (created 0700 if missing, with its
 * parent), atomically: a temporary file of this process, created 0600 and
 * exclusively (never through a symlink), renamed.  Temporary files of
 * runs that were killed are removed.  0, or -1 when it cannot be written
 * (errno set); nothing is left behind then.
 */
int subject_table_save(const subject_table *t, const char *dir);

void subject_table_free(subject_table *t);

/* ---- the types of a pack's objects ------------------------------------------ */

/*
 * The type of every object of a pack (1 commit .. 4 tag: hexid.h), by its
 * .idx position, two bits each, kept beside the pack's subject table
 * (pack-<hex>.types) with the same checks and the same rules: a file
 * answers only for the very pack and .idx files b it was built from, and
 * a damaged, cut, foreign or planted one is only rebuilt, never trusted.
 * A second walk of an unchanged pack reads its .idx and this file, not
 * the pack.
 */

/*
 * An annotated tag of a pack, kept with its types: its .idx position and
 * what its header says it points at (odb_tags.c), so that a walk of the
 * unchanged pack reads no tag either.
 */
typedef struct {
	uint32_t pos;
	unsigned char type; /* the target's: 1 commit .. 4 tag */
	unsigned char target[ABBREV_MAX_RAWSZ];
} subject_tag;

/*
 * Write types[0 .. n) and the tags[0 .. ntags) of the pack `sum` (its
 * files b, b->pack_path kept in it) to `dir`, as subject_table_save()
 * writes: 0 (also when a type is not one of the four, or the tags are not
 * the pack's tags by types[] in ascending positions, each pointing at one
 * of the four: nothing is written then), or -1 (errno set).
 */
int subject_types_save(const char *dir, size_t rawsz, const unsigned char *sum, uint32_t n,
		       const subject_bind *b, const unsigned char *types, const subject_tag *tags,
		       size_t ntags);

/*
 * Fill types[0 .. n) of the pack `sum` from its file in `dir`, when it was
 * built from the files b, and its tags into *tags (malloc'ed, NULL when
 * none), *ntags of them: 0, 1 when there is no usable file (as
 * subject_table_load(): types[] may then hold anything, *tags NULL), -1
 * (memory).
 */
int subject_types_load(const char *dir, size_t rawsz, const unsigned char *sum, uint32_t n,
		       const subject_bind *b, unsigned char *types, subject_tag **tags,
		       size_t *ntags);

/* ---- other files of the same shape (commit_notes.h) ---------------------------- */

#define SUBJECT_NOTES_MAGIC "GABNOTE\n"
#define SUBJECT_NOTES_VERSION 2u
/* commit_times.h's: a pack's commits in time order */
#define SUBJECT_TIMES_MAGIC "GABTIME\n"
#define SUBJECT_TIMES_VERSION 1u
/* the pack walker's (walk_pack_merge.c): how many objects a set of packs holds together */
#define SUBJECT_UNION_MAGIC "GABUNIO\n"
#define SUBJECT_UNION_VERSION 1u

/* The files b as a header names them (SUBJECT_BIND_SIZE bytes at p): to name more than one. */
#define SUBJECT_BIND_SIZE 80u
void subject_bind_put(unsigned char *p, const subject_bind *b);

/*
 * The header of such a file (the subject table's: magic, version, hash
 * size, checksum, object count, n at 52, the body's length at 56, the
 * files b it was built from, b->pack_path) into img: its length
 * (subject_file_head_size(b)); the body follows, then a CRC-32 of all
 * before it (subject_file_crc()).
 */
size_t subject_file_head(unsigned char *img, const char *magic, uint32_t version, size_t rawsz,
			 const unsigned char *sum, uint32_t nobjects, uint32_t n, uint64_t blen,
			 const subject_bind *b);
size_t subject_file_head_size(const subject_bind *b);
/*
 * Whether buf[0..len) is such a file of the pack `sum` (and its CRC
 * right): where its body begins, or 0.
 */
size_t subject_file_head_ok(const unsigned char *buf, size_t len, const char *magic,
			    uint32_t version, size_t rawsz, const unsigned char *sum,
			    uint32_t nobjects);
uint32_t subject_file_crc(const unsigned char *p, size_t n);
/*
 * Read the file pack-<hex><ext> of `dir` (as subject_table_load() reads:
 * never blocking, no symlink, the user's own), check(arg, buf, len) it (0
 * good, -2 not such a file, -1 memory) and that it names the files b: 0
 * with *out (*outcap bytes of room, freed with bigvec_free()), 1 when
 * there is no usable file, -1 (memory).
 */
int subject_file_read(const char *dir, const char *ext, size_t rawsz, const unsigned char *sum,
		      const subject_bind *b,
		      int (*check)(void *arg, const unsigned char *buf, size_t len), void *arg,
		      unsigned char **out, size_t *outlen, size_t *outcap);
/* Write it, as subject_table_save() writes: 0, or -1 (errno). */
int subject_file_write(const char *dir, const char *ext, size_t rawsz, const unsigned char *sum,
		       const unsigned char *img, size_t len);

/* ---- the directory ------------------------------------------------------------- */

/* The size the cache is kept under when git config says none: 1 GiB. */
#define SUBJECT_CACHE_DEFAULT_CAP (UINT64_C(1) << 30)

/* One table of the cache directory. */
typedef struct {
	char *name;     /* its file name: pack-<hex>.subjects or pack-<hex>.types */
	char *pack;     /* the pack file it was built from, or NULL (not said) */
	uint64_t size;  /* bytes */
	int64_t used;   /* last built or read: its modification time (seconds) */
	int exists;     /* 1 the very pack file is there, 0 it is not, -1 not known */
	int gone;       /* its pack is gone from a directory that is still there (repacked) */
} subject_cache_entry;

/*
 * The tables in `dir`, the longest unused first: 0 with *out (n of them;
 * subject_cache_list_free()), 1 when there is no such directory, -1
 * (memory), -2 when it cannot be read (errno).
 */
int subject_cache_list(const char *dir, subject_cache_entry **out, size_t *n);
void subject_cache_list_free(subject_cache_entry *v, size_t n);

/*
 * Remove every table (of either kind) and temporary file of `dir` (nothing
 * else): 0, or -1
 * when one could not be removed (errno).  *removed: how many were.
 */
int subject_cache_clear(const char *dir, size_t *removed);

/*
 * Keep `dir` tidy: remove the tables whose pack was repacked away (gone
 * from its directory), then the longest unused until the rest weigh at
 * most `cap` bytes.  Loading a table marks it used (its times).  0, -1
 * (memory), -2 (the directory cannot be read).
 */
int subject_cache_tidy(const char *dir, uint64_t cap);

/* ---- the index: tables searched together ---------------------------------- */

typedef struct subject_index subject_index;

int subject_index_new(subject_index **out, size_t rawsz);
void subject_index_free(subject_index *x);

/*
 * Add the table t (taken over, freed even on failure): its position i
 * names the ID at ids + i * stride, for i < nids, ascending (a pack's
 * .idx, or an array).  0 or -1 (memory).
 */
int subject_index_add(subject_index *x, subject_table *t, const unsigned char *ids,
		      size_t stride, uint32_t nids);

typedef struct {
	unsigned char id[ABBREV_MAX_RAWSZ];
	int64_t time;
} subject_hit;

/*
 * The commits whose folded subject is the folded s[0..n), highest ID
 * first (an ID in several tables counts once); with `prefix`, those whose
 * folded subject begins with it, in subject order (then highest ID
 * first), whole subjects at a time until at least `max` are counted.
 * The first `max` go to hits[]; *total is how many were counted.
 * 0 or -1 (memory).
 */
int subject_index_search(subject_index *x, const char *s, size_t n, int prefix,
			 subject_hit *hits, size_t max, size_t *total);

/*
 * The commit `id` if a table holds it: 1 with its subject (%s, valid as
 * long as the index) and time, 0 when none does, -1 (memory).
 */
int subject_index_lookup(subject_index *x, const unsigned char *id, const char **subject,
			 int64_t *time);

#endif
