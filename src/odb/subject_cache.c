/*
 * subject_cache.c - sorted subject tables, their cache files, and the
 * index that searches them together (subject_cache.h).
 *
 * The file (all numbers little-endian):
 *
 *   0   "GABSUBJ\n"            magic
 *   8   u32 version            FORMAT_VERSION
 *   12  u32 rawsz              20 (SHA-1) or 32 (SHA-256)
 *   16  u8[32] pack checksum   rawsz bytes, zero after
 *   48  u32 objects            in the pack (its .idx says)
 *   52  u32 n                  commits
 *   56  u64 text length
 *   64  the pack file it was built from: u64 device, u64 inode, u64 size,
 *       i64 mtime seconds, u32 nanoseconds, u32 zero
 *   104 its .idx file, the same 40 bytes
 *   144 u32 path length p, u32 zero
 *   152 the pack file's path (p bytes, no NUL): shown by `git abbrev
 *       cache`, and a table whose pack is gone is removed (subject_cache_tidy)
 *   ..  u32 m, u32 e           the parents' count (0xffffffff: no parents
 *                              kept, e zero) and how many are not the pack's
 *   ..  n entries of 24 bytes  u32 key, u32 subject (offsets in the text),
 *                              u32 .idx position, u32 zero, i64 time;
 *                              sorted by key, then position
 *   ..  n u32                  the entries in .idx position order (their
 *                              indexes): a commit looked up by its ID
 *   with parents:
 *   ..  n + 1 u32              where each commit's parents start in the
 *                              list, in .idx position order (0 first, m last)
 *   ..  m u32                  the parents: a position in the pack's .idx
 *                              (below its object count), or the count plus j
 *   ..  e IDs (rawsz bytes)    the j-th parent the pack does not hold
 *   ..  text                   NUL-ended strings: each folded key, then the
 *                              subject when it is not the key
 *   ..  u32 CRC-32 of everything before it
 *
 * A types table (pack-<hex>.types) has the same header but for its
 * magic "GABTYPE\n" (version TYPES_VERSION), a zero at 52 and its body's
 * length at 56: then the path, then two bits an object of the pack, in
 * .idx position order (position i: bits 2 * (i % 4) of byte i / 4, the
 * type less one; the last byte's unused bits zero), then u32 t and t
 * annotated tags of the pack, each u32 .idx position (ascending, a tag's),
 * u32 the type of what it points at (1..4) and that object's ID (rawsz
 * bytes), then the CRC-32.
 *
 * The text is a build's only large part: about 60 bytes a commit, 90 MB
 * for 1.3M commits, and the CRC of that costs 40 ms, so a cached search
 * stays far below the cost of reading the commits again (seconds).
 * A build sorts by the folded subject's first 16 bytes first (the rest
 * compared only when those are equal: git.git's merges share 14), a large
 * table's halves on two threads, and the position list by radix sort.
 */
#include <config.h>

#include "subject_cache.h"
#include "bigvec.h"
#include "grow.h"
#include "test_hooks.h"
#include "bytes.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <libdeflate.h>

#define MAGIC "GABSUBJ\n"
#define FORMAT_VERSION 5u
#define BIND 64u    /* where the files it was built from are named */
#define PATHLEN 144u /* where the path's length is */
#define HEADER 152u
#define ENTRY 24u
#define ROW (ENTRY + 4u)  /* an entry and its place in position order */
#define PREAMBLE 8u      /* the parents' counts, before the entries */
#define NO_PARENTS UINT32_MAX
#define TRAILER 4u
#define TYPES_MAGIC "GABTYPE\n"
#define TYPES_VERSION 2u

struct subject_table {
	size_t rawsz;
	unsigned char sum[ABBREV_MAX_RAWSZ];
	uint32_t nobjects;
	uint32_t plen;             /* the pack path's length (at HEADER) */
	const unsigned char *img;  /* the file's bytes */
	size_t len;
	unsigned char *own;        /* built here or read from a file (img), or NULL */
	size_t owncap;             /* 0: own is malloc's; else bigvec's room (read from a file) */
	int built;                 /* built here: may be bound */
	uint32_t n;
	const unsigned char *ent;
	const unsigned char *bypos;
	uint32_t npar, next;       /* the parents' counts (npar NO_PARENTS: none kept) */
	const unsigned char *pstart, *plist, *ext; /* NULL without parents */
	const char *text;
	uint64_t tlen;
};

/* The parts of t's body (its n and rawsz set) from where they begin. */
static void layout(subject_table *t, const unsigned char *body);

/*
 * CRC-32 of n bytes: zlib's polynomial and initial value, by libdeflate,
 * whose carry-less multiply does in 0.05 G instructions what zlib's
 * crc32() did in 0.66 G for the three tables of a 1.3M-commit history
 */
static uint32_t crc_all(const unsigned char *p, size_t n)
{
	return libdeflate_crc32(0, p, n);
}

static int blank(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

size_t subject_fold(char *out, const char *s, size_t n)
{
	size_t k = 0;
	int gap = 0;

	for (size_t i = 0; i < n && s[i]; i++) {
		if (blank((unsigned char)s[i])) {
			gap = k > 0;
			continue;
		}
		if (gap)
			out[k++] = ' ';
		gap = 0;
		out[k++] = s[i];
	}
	out[k] = '\0';
	return k;
}

/* ---- one table -------------------------------------------------------------- */

size_t subject_text_add(subject_text *t, const char *subject)
{
	size_t n = strlen(subject) + 1, at = t->len;

	if (GROW(t->s, t->cap, t->len + n, 1 << 20))
		return SIZE_MAX;
	memcpy(t->s + at, subject, n);
	t->len += n;
	return at;
}

/* Entry i: 0, or -2 when its offsets or position lie outside the table. */
static int entry(const subject_table *t, size_t i, const char **key, const char **subject,
		 uint32_t *pos, int64_t *time)
{
	const unsigned char *e;
	uint32_t k, s;

	if (i >= t->n)
		return -2;
	e = t->ent + i * ENTRY;
	k = le32(e);
	s = le32(e + 4);
	if (k >= t->tlen || s >= t->tlen || le32(e + 8) >= t->nobjects)
		return -2;
	*key = t->text + k;
	if (subject)
		*subject = t->text + s;
	*pos = le32(e + 8);
	*time = (int64_t)le64(e + 16);
	return 0;
}

/*
 * The fixed part of a cache file's header (a subject table's or a types
 * table's): the kind's magic and version, the hash size, the pack's
 * checksum (zero after) and its object count.
 */
static int head_ok(const unsigned char *buf, size_t len, const char *magic, uint32_t version,
		   size_t rawsz, const unsigned char *sum, uint32_t nobjects)
{
	if (len < HEADER + TRAILER || memcmp(buf, magic, 8) || le32(buf + 8) != version ||
	    le32(buf + 12) != rawsz || rawsz > ABBREV_MAX_RAWSZ || memcmp(buf + 16, sum, rawsz) ||
	    le32(buf + 48) != nobjects)
		return 0;
	for (size_t i = rawsz; i < ABBREV_MAX_RAWSZ; i++)
		if (buf[16 + i])
			return 0;
	return 1;
}

static void layout(subject_table *t, const unsigned char *body)
{
	const unsigned char *p;

	t->npar = le32(body);
	t->next = le32(body + 4);
	t->ent = body + PREAMBLE;
	t->bypos = t->ent + (size_t)t->n * ENTRY;
	p = t->bypos + (size_t)t->n * 4;
	t->pstart = t->plist = t->ext = NULL;
	if (t->npar != NO_PARENTS) {
		t->pstart = p;
		t->plist = p + ((size_t)t->n + 1) * 4;
		t->ext = t->plist + (size_t)t->npar * 4;
		p = t->ext + (size_t)t->next * t->rawsz;
	}
	t->text = (const char *)p;
}

/*
 * Whether every row names text inside the table and a position of the
 * pack, and every row of the position order is a row: what entry()
 * checks of one, for all in one pass without a branch (entry() a row at
 * a time took 0.15 G instructions for 1.3M commits).
 */
static int rows_ok(const subject_table *t)
{
	uint32_t bad = 0;

	for (size_t i = 0; i < t->n; i++) {
		const unsigned char *e = t->ent + i * ENTRY;

		bad |= (uint32_t)(le32(e) >= t->tlen) | (uint32_t)(le32(e + 4) >= t->tlen) |
		       (uint32_t)(le32(e + 8) >= t->nobjects) |
		       (uint32_t)(le32(t->bypos + 4 * i) >= t->n);
	}
	return !bad;
}

/* The parents' list starts ascending from 0 to their count, each one a position or an ID kept. */
static int parents_ok(const subject_table *t)
{
	uint32_t at = 0;

	if (le32(t->pstart) != 0 || le32(t->pstart + 4 * (size_t)t->n) != t->npar)
		return 0;
	for (size_t i = 0; i < t->n; i++) {
		uint32_t b = le32(t->pstart + 4 * (i + 1));

		if (b < at)
			return 0;
		at = b;
	}
	for (size_t j = 0; j < t->npar; j++)
		if ((uint64_t)le32(t->plist + 4 * j) >= (uint64_t)t->nobjects + t->next)
			return 0;
	return 1;
}

int subject_table_parse(subject_table **out, const unsigned char *buf, size_t len, size_t rawsz,
			const unsigned char *sum, uint32_t nobjects)
{
	subject_table *t;
	const unsigned char *body;
	uint64_t n, tlen, plen, blen, npar, next, pbytes;

	*out = NULL;
	if (!head_ok(buf, len, MAGIC, FORMAT_VERSION, rawsz, sum, nobjects))
		return -2;
	n = le32(buf + 52);
	tlen = le64(buf + 56);
	plen = le32(buf + PATHLEN);
	if (le32(buf + PATHLEN + 4) || plen > len - HEADER - TRAILER)
		return -2;
	body = buf + HEADER + plen;
	blen = len - HEADER - plen - TRAILER;
	if (blen < PREAMBLE)
		return -2;
	npar = le32(body);
	next = le32(body + 4);
	if (npar == NO_PARENTS ? next != 0 : n >= UINT32_MAX)
		return -2;
	/* every count below 2^32: no product overflows */
	pbytes = npar == NO_PARENTS ? 0 : (n + 1) * 4 + npar * 4 + next * rawsz;
	blen -= PREAMBLE;
	if (n > blen / ROW || pbytes > blen - n * ROW || tlen != blen - n * ROW - pbytes ||
	    (tlen ? body[PREAMBLE + n * ROW + pbytes + tlen - 1] != '\0' : n != 0) ||
	    crc_all(buf, len - TRAILER) != le32(buf + len - TRAILER))
		return -2;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -1;
	t->rawsz = rawsz;
	memcpy(t->sum, sum, rawsz);
	t->nobjects = nobjects;
	t->img = buf;
	t->len = len;
	t->plen = (uint32_t)plen;
	t->n = (uint32_t)n;
	layout(t, body);
	t->tlen = tlen;
	if (!rows_ok(t) || (t->pstart && !parents_ok(t))) {
		free(t);
		return -2;
	}
	*out = t;
	return 0;
}

typedef struct {
	uint64_t head, next;  /* the key's first 16 bytes, big-endian: most comparisons */
	const char *key;
	uint32_t row;
	uint32_t pos;
} sort_item;

static int cmp_item(const void *pa, const void *pb)
{
	const sort_item *a = pa, *b = pb;
	int c;

	if (a->head != b->head)
		return a->head < b->head ? -1 : 1;
	if (a->next != b->next)
		return a->next < b->next ? -1 : 1;
	/* the same first 16 bytes: both end within them (equal), or the rest decides */
	c = (a->next & 0xff) ? strcmp(a->key + 16, b->key + 16) : 0;
	if (c)
		return c;
	return a->pos < b->pos ? -1 : a->pos > b->pos;
}

static uint64_t head8(const char *s)
{
	uint64_t h = 0;
	int ended = 0;

	for (size_t i = 0; i < 8; i++) {
		ended = ended || !s[i];
		h = h << 8 | (ended ? 0 : (unsigned char)s[i]);
	}
	return h;
}

/* Below this many rows a table is sorted on one thread. */
#define SORT_SPLIT_MIN 16384

static void *sort_half(void *arg)
{
	sort_item *const *h = arg;

	qsort(h[0], (size_t)(h[1] - h[0]), sizeof(*h[0]), cmp_item);
	return NULL;
}

/*
 * Sort v[0..n) by cmp_item: for many rows, the two halves on two threads
 * (qsort keeps the order of equal items, and the merge takes the first
 * half's first: the same order as one qsort), merged into tmp, then
 * copied back.  0 or -1 (memory).
 */
static int sort_items(sort_item *v, size_t n)
{
	sort_item *tmp, *h[2];
	size_t a, b, k = 0, m = n / 2;
	pthread_t thread;

	if (n < SORT_SPLIT_MIN || !(tmp = malloc(n * sizeof(*tmp)))) {
		qsort(v, n, sizeof(*v), cmp_item); /* out of memory: one thread does */
		return 0;
	}
	h[0] = v + m;
	h[1] = v + n;
	if (pthread_create(&thread, NULL, sort_half, h)) {
		free(tmp);
		qsort(v, n, sizeof(*v), cmp_item);
		return 0;
	}
	qsort(v, m, sizeof(*v), cmp_item);
	pthread_join(thread, NULL);
	for (a = 0, b = m; a < m && b < n;)
		tmp[k++] = cmp_item(&v[b], &v[a]) < 0 ? v[b++] : v[a++];
	memcpy(tmp + k, a < m ? v + a : v + b, (a < m ? m - a : n - b) * sizeof(*v));
	memcpy(v, tmp, n * sizeof(*v));
	free(tmp);
	return 0;
}

/*
 * The indexes of the items v[0..n) in order of their .idx positions
 * (stable: equal positions by index), into out[0..n): a radix sort of
 * the positions, 11 bits a pass.  0 or -1 (memory).
 */
static int by_position(const sort_item *v, size_t n, uint32_t *out)
{
	uint32_t *tmp = malloc((n ? n : 1) * sizeof(*tmp)), *src = out, *dst = tmp;
	size_t count[2048];

	if (!tmp)
		return -1;
	for (size_t i = 0; i < n; i++)
		out[i] = (uint32_t)i;
	for (unsigned shift = 0; shift < 32; shift += 11) {
		size_t sum = 0;

		memset(count, 0, sizeof(count));
		for (size_t i = 0; i < n; i++)
			count[(v[src[i]].pos >> shift) & 2047]++;
		for (size_t d = 0; d < 2048; d++) {
			size_t c = count[d];

			count[d] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			dst[count[(v[src[i]].pos >> shift) & 2047]++] = src[i];
		src = dst;
		dst = dst == tmp ? out : tmp;
	}
	if (src != out) /* three passes: the last one wrote tmp */
		memcpy(out, src, n * sizeof(*out));
	free(tmp);
	return 0;
}

int subject_table_build(subject_table **out, size_t rawsz, const unsigned char *sum,
			uint32_t nobjects, const subject_row *rows, size_t n)
{
	return subject_table_build_with(out, rawsz, sum, nobjects, rows, n, NULL);
}

int subject_table_build_with(subject_table **out, size_t rawsz, const unsigned char *sum,
			     uint32_t nobjects, const subject_row *rows, size_t n,
			     const subject_parents *par)
{
	sort_item *v = NULL;
	char *keys = NULL;
	uint32_t *slen = NULL, *klen_of = NULL, *order = NULL;
	unsigned char *apart = NULL;
	size_t klen = 0, tlen = 0, len, npar = 0, pbytes = 0;
	subject_table *t = NULL;
	unsigned char *img = NULL, *p;
	int rc = -1;

	*out = NULL;
	if (rawsz > ABBREV_MAX_RAWSZ || n >= UINT32_MAX)
		return -1;
	if (par) {
		for (size_t i = 0; i < n; i++) {
			if (rows[i].pfirst > par->n || rows[i].np > par->n - rows[i].pfirst)
				return -1;
			npar += rows[i].np;
		}
		for (size_t j = 0; j < par->n; j++)
			if ((uint64_t)par->list[j] >= (uint64_t)nobjects + par->next)
				return -1;
		if (npar >= UINT32_MAX || par->next >= UINT32_MAX)
			return -1;
		pbytes = (n + 1) * 4 + npar * 4 + (size_t)par->next * rawsz;
	}
	slen = malloc((n ? n : 1) * sizeof(*slen));
	klen_of = malloc((n ? n : 1) * sizeof(*klen_of));
	apart = malloc(n ? n : 1);
	if (!slen || !klen_of || !apart)
		goto done;
	for (size_t i = 0; i < n; i++) {
		size_t sl = strlen(rows[i].subject);

		if (sl >= UINT32_MAX)
			goto done;
		slen[i] = (uint32_t)sl;
		klen += sl + 1;
	}
	v = malloc((n ? n : 1) * sizeof(*v));
	keys = malloc(klen ? klen : 1);
	if (!v || !keys)
		goto done;
	klen = 0;
	for (size_t i = 0; i < n; i++) {
		size_t sl = slen[i], kl = subject_fold(keys + klen, rows[i].subject, sl);

		v[i] = (sort_item){ head8(keys + klen), kl >= 8 ? head8(keys + klen + 8) : 0, keys + klen,
				    (uint32_t)i, rows[i].pos };
		/* the subject is kept apart only when folding changed it */
		apart[i] = kl != sl || memcmp(keys + klen, rows[i].subject, sl);
		klen_of[i] = (uint32_t)kl;
		tlen += kl + 1 + (apart[i] ? sl + 1 : 0);
		klen += kl + 1;
	}
	if (tlen > UINT32_MAX || sort_items(v, n))
		goto done;
	len = HEADER + PREAMBLE + n * ROW + pbytes + tlen + TRAILER;
	img = calloc(1, len);
	t = calloc(1, sizeof(*t));
	order = malloc((n ? n : 1) * sizeof(*order));
	if (!img || !t || !order)
		goto done;
	memcpy(img, MAGIC, 8);
	put_le32(img + 8, FORMAT_VERSION);
	put_le32(img + 12, (uint32_t)rawsz);
	memcpy(img + 16, sum, rawsz);
	put_le32(img + 48, nobjects);
	put_le32(img + 52, (uint32_t)n);
	put_le64(img + 56, tlen);
	put_le32(img + HEADER, par ? (uint32_t)npar : NO_PARENTS);
	put_le32(img + HEADER + 4, par ? par->next : 0);
	t->rawsz = rawsz;
	t->n = (uint32_t)n;
	layout(t, img + HEADER);
	p = (unsigned char *)t->text;
	tlen = 0;
	for (size_t i = 0; i < n; i++) {
		const subject_row *r = &rows[v[i].row];
		unsigned char *e = img + HEADER + PREAMBLE + i * ENTRY;
		size_t kl = klen_of[v[i].row], sl = slen[v[i].row];

		put_le32(e, (uint32_t)tlen);
		memcpy(p + tlen, v[i].key, kl + 1);
		tlen += kl + 1;
		if (!apart[v[i].row]) {
			put_le32(e + 4, le32(e));
		} else {
			put_le32(e + 4, (uint32_t)tlen);
			memcpy(p + tlen, r->subject, sl + 1);
			tlen += sl + 1;
		}
		put_le32(e + 8, r->pos);
		put_le64(e + 16, (uint64_t)r->time);
	}
	if (by_position(v, n, order))
		goto done;
	for (size_t i = 0; i < n; i++)
		put_le32((unsigned char *)t->bypos + 4 * i, order[i]);
	if (par) { /* in position order, as the entries' list above */
		unsigned char *ps = (unsigned char *)t->pstart, *pl = (unsigned char *)t->plist;
		size_t at = 0;

		for (size_t i = 0; i < n; i++) {
			const subject_row *r = &rows[v[order[i]].row];

			put_le32(ps + 4 * i, (uint32_t)at);
			for (uint32_t k = 0; k < r->np; k++)
				put_le32(pl + 4 * at++, par->list[r->pfirst + k]);
		}
		put_le32(ps + 4 * n, (uint32_t)at);
		if (par->next)
			memcpy((unsigned char *)t->ext, par->ext, (size_t)par->next * rawsz);
	}
	put_le32(img + len - TRAILER, crc_all(img, len - TRAILER));
	memcpy(t->sum, sum, rawsz);
	t->nobjects = nobjects;
	t->img = t->own = img;
	t->built = 1;
	t->len = len;
	t->tlen = tlen;
	*out = t;
	img = NULL;
	t = NULL;
	rc = 0;
done:
	free(v);
	free(keys);
	free(slen);
	free(klen_of);
	free(apart);
	free(order);
	free(img);
	free(t);
	return rc;
}

size_t subject_table_count(const subject_table *t)
{
	return t->n;
}

int subject_table_at(const subject_table *t, size_t i, uint32_t *pos, int64_t *time)
{
	const char *key;

	if (i >= t->n)
		return -2;
	return entry(t, le32(t->bypos + i * 4), &key, NULL, pos, time);
}

int subject_table_has_parents(const subject_table *t)
{
	return t->pstart != NULL;
}

int subject_table_bound(const subject_table *t)
{
	/* a built table's header names no files (zeros) until bound: an inode is never 0 */
	return !t->built || le64(t->img + BIND + 8) != 0;
}

int subject_table_parents(const subject_table *t, size_t i, const unsigned char *ids,
			  size_t stride, uint32_t nids, const unsigned char **out, size_t max)
{
	uint32_t a, b;

	if (!t->pstart || i >= t->n)
		return -2;
	a = le32(t->pstart + 4 * i);
	b = le32(t->pstart + 4 * (i + 1));
	for (uint32_t j = a; j < b && j - a < max; j++) {
		uint32_t v = le32(t->plist + 4 * (size_t)j);

		if (v < t->nobjects && v >= nids)
			return -2;
		out[j - a] = v < t->nobjects ? ids + (size_t)v * stride :
			     t->ext + (size_t)(v - t->nobjects) * t->rawsz;
	}
	return (int)(b - a > INT32_MAX ? -2 : (int)(b - a));
}

uint32_t subject_table_parent_pos(const subject_table *t, size_t i, size_t j)
{
	uint32_t a, v;

	if (!t->pstart || i >= t->n)
		return UINT32_MAX;
	a = le32(t->pstart + 4 * i);
	if (j >= (size_t)(le32(t->pstart + 4 * (i + 1)) - a))
		return UINT32_MAX;
	v = le32(t->plist + 4 * ((size_t)a + j));
	return v < t->nobjects ? v : UINT32_MAX;
}

const unsigned char *subject_table_bytes(const subject_table *t, size_t *len)
{
	*len = t->len;
	return t->img;
}

void subject_table_free(subject_table *t)
{
	if (!t)
		return;
	if (t->owncap)
		bigvec_free(t->own, t->owncap);
	else
		free(t->own);
	free(t);
}

objread_file subject_file_of(const file_id *f)
{
	return (objread_file){ (uint64_t)f->dev, (uint64_t)f->ino, (uint64_t)f->size,
			       (int64_t)f->mtime.tv_sec, (uint32_t)f->mtime.tv_nsec };
}

/* The 40 bytes naming file f. */
static void put_file(unsigned char *p, const objread_file *f)
{
	put_le64(p, f->dev);
	put_le64(p + 8, f->ino);
	put_le64(p + 16, f->size);
	put_le64(p + 24, (uint64_t)f->mtime_sec);
	put_le32(p + 32, f->mtime_nsec);
	put_le32(p + 36, 0);
}

static void put_bind(unsigned char *p, const subject_bind *b)
{
	put_file(p, &b->pack);
	put_file(p + 40, &b->idx);
}

void subject_bind_put(unsigned char *p, const subject_bind *b)
{
	put_bind(p, b);
}

int subject_table_bind(subject_table *t, const subject_bind *b)
{
	size_t plen = b->pack_path ? strlen(b->pack_path) : 0, blen, len;
	unsigned char *img;

	if (!t->built || plen > UINT32_MAX)
		return -1;
	/* the path goes after the header: the body moves */
	blen = t->len - HEADER - t->plen - TRAILER;
	len = HEADER + plen + blen + TRAILER;
	if (!(img = malloc(len)))
		return -1;
	memcpy(img, t->own, HEADER);
	if (plen)
		memcpy(img + HEADER, b->pack_path, plen);
	memcpy(img + HEADER + plen, t->own + HEADER + t->plen, blen);
	put_bind(img + BIND, b);
	put_le32(img + PATHLEN, (uint32_t)plen);
	put_le32(img + len - TRAILER, crc_all(img, len - TRAILER));
	free(t->own);
	t->img = t->own = img;
	t->len = len;
	t->plen = (uint32_t)plen;
	layout(t, img + HEADER + plen);
	return 0;
}

/* ---- the files -------------------------------------------------------------- */

static char *pinned; /* a relative $GIT_ABBREV_CACHE_DIR, made absolute before -C */

static char *absolute(const char *d)
{
	char cwd[4096], *out = NULL;

	if (*d == '/' || !getcwd(cwd, sizeof(cwd)))
		return strdup(d);
	return asprintf(&out, "%s/%s", cwd, d) < 0 ? NULL : out;
}

void subject_cache_pin(void)
{
	const char *d = getenv("GIT_ABBREV_CACHE_DIR");

	if (!pinned && d && *d && *d != '/')
		pinned = absolute(d); /* kept for the process's life */
}

/* Not the user's own, or writable by others: not to be trusted. */
static int foreign(const struct stat *st)
{
	return st->st_uid != geteuid() || (st->st_mode & (S_IWGRP | S_IWOTH));
}

char *subject_cache_dir(void)
{
	const char *d = getenv("GIT_ABBREV_CACHE_DIR"), *x = getenv("XDG_CACHE_HOME"),
		   *h = getenv("HOME");
	static int noted;
	struct stat st;
	char *out = NULL;

	if (d && *d)
		out = pinned && *d != '/' ? strdup(pinned) : absolute(d);
	else if (x && *x == '/') /* the XDG rule: a relative path is to be ignored */
		out = asprintf(&out, "%s/git-abbrev", x) < 0 ? NULL : out;
	else if (h && *h)
		out = asprintf(&out, "%s/.cache/git-abbrev", h) < 0 ? NULL : out;
	if (!out && !noted++ && !(d && *d) && !(x && *x == '/') && !(h && *h))
		fprintf(stderr, "git-abbrev: note: no cache directory (HOME is not set): "
			"nothing is kept between runs\n");
	/* missing: made 0700 when a table is written */
	if (out && !stat(out, &st) && (!S_ISDIR(st.st_mode) || foreign(&st))) {
		if (!noted++)
			fprintf(stderr, "git-abbrev: not using the cache '%s': %s\n", out,
				!S_ISDIR(st.st_mode) ? "not a directory" :
				st.st_uid != geteuid() ? "owned by another user" :
				"writable by others");
		free(out);
		return NULL;
	}
	return out;
}

/* dir/pack-<hex><ext>, malloc'ed */
static char *file_name(const char *dir, const unsigned char *sum, size_t rawsz, const char *ext)
{
	char hex[ABBREV_MAX_HEXSZ + 1];
	char *out;

	hexid_fmt(hex, sum, rawsz);
	return asprintf(&out, "%s/pack-%s%s", dir, hex, ext) < 0 ? NULL : out;
}

/*
 * Read the file of kind k of the pack `sum` from `dir`, whole, and check
 * it with check(arg, ...) (0 good, -2 not such a file, -1 memory) and
 * that it was bound to the files b: 0 with *buf (malloc'ed), 1 when
 * there is no usable file, -1 (memory).  A good file is marked used.
 */
static int read_table_file(const char *dir, const char *ext, size_t rawsz,
			   const unsigned char *sum, const subject_bind *b,
			   int (*check)(void *arg, const unsigned char *buf, size_t len), void *arg,
			   unsigned char **out, size_t *outlen, size_t *outcap)
{
	char *path = file_name(dir, sum, rawsz, ext);
	static int paused; /* the test hook waits once */
	unsigned char bind[80], *buf = NULL;
	struct stat st;
	size_t len, got = 0, cap = 0;
	int fd, rc;

	*out = NULL;
	if (!path)
		return -1;
	/* a FIFO is no table and must not block; a symlink is not followed */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
	free(path);
	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode) || foreign(&st) ||
	    st.st_size < (off_t)(HEADER + TRAILER) || (uint64_t)st.st_size > SIZE_MAX) {
		if (fd >= 0)
			close(fd);
		return 1;
	}
	len = (size_t)st.st_size;
	/*
	 * read, not mapped: a file cut short meanwhile is a short read,
	 * rebuilt.  Into huge pages where the kernel gives them (bigvec.h):
	 * a 17 MB table is 9 faults instead of 4,250, and the checks that
	 * run over it miss the TLB 500 times less.
	 */
	if (bigvec_reserve((void **)&buf, &cap, len)) {
		close(fd);
		return -1;
	}
	test_hook_cache_pause(&paused);
	while (got < len) {
		ssize_t r = read(fd, buf + got, len - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	put_bind(bind, b);
	rc = got == len ? check(arg, buf, len) : -2;
	/* a table of other files (maybe claiming this checksum) */
	if (!rc && memcmp(buf + BIND, bind, sizeof(bind)))
		rc = -2;
	/* used now: its times say so, and subject_cache_tidy() evicts the longest unused first */
	if (!rc)
		(void)futimens(fd, NULL);
	close(fd);
	if (rc) {
		bigvec_free(buf, cap);
		return rc == -1 ? -1 : 1;
	}
	*out = buf;
	*outlen = len;
	*outcap = cap;
	return 0;
}

typedef struct {
	subject_table **out;
	size_t rawsz;
	const unsigned char *sum;
	uint32_t nobjects;
} parse_args;

static int parse_check(void *arg, const unsigned char *buf, size_t len)
{
	parse_args *a = arg;

	return subject_table_parse(a->out, buf, len, a->rawsz, a->sum, a->nobjects);
}

int subject_table_load(subject_table **out, const char *dir, size_t rawsz,
		       const unsigned char *sum, uint32_t nobjects, const subject_bind *b)
{
	parse_args a = { out, rawsz, sum, nobjects };
	unsigned char *buf;
	size_t len, cap;
	int rc;

	*out = NULL;
	rc = read_table_file(dir, ".subjects", rawsz, sum, b, parse_check, &a, &buf, &len, &cap);
	if (rc) {
		subject_table_free(*out); /* parsed, but bound to other files */
		*out = NULL;
		return rc;
	}
	(*out)->own = buf;
	(*out)->owncap = cap;
	return 0;
}

/* mkdir, and its parent first when that is missing: 0, or -1 (errno) */
static int make_dir(const char *dir)
{
	char *parent, *slash;
	int rc;

	if (!mkdir(dir, 0700) || errno == EEXIST)
		return 0;
	if (errno != ENOENT || !(parent = strdup(dir)))
		return -1;
	slash = strrchr(parent, '/');
	rc = -1;
	if (slash && slash != parent) {
		*slash = '\0';
		rc = mkdir(parent, 0700) && errno != EEXIST ? -1 : 0;
	}
	free(parent);
	return rc || (mkdir(dir, 0700) && errno != EEXIST) ? -1 : 0;
}

/* A temporary file left this long is a killed run's even if its process ID is in use again. */
#define TMP_STALE_SECONDS (24 * 3600)

/* The kinds of file the cache holds, by their names' ending (tmp: a temporary file's). */
static const struct {
	const char *ext, *tmp, *magic;
	uint32_t version;
} kinds[] = {
	{ ".subjects", ".subjects.tmp", MAGIC, FORMAT_VERSION },
	{ ".types", ".types.tmp", TYPES_MAGIC, TYPES_VERSION },
	{ ".notes", ".notes.tmp", SUBJECT_NOTES_MAGIC, SUBJECT_NOTES_VERSION },
	{ ".times", ".times.tmp", SUBJECT_TIMES_MAGIC, SUBJECT_TIMES_VERSION },
	{ ".union", ".union.tmp", SUBJECT_UNION_MAGIC, SUBJECT_UNION_VERSION },
};
#define NKINDS (sizeof(kinds) / sizeof(kinds[0]))

/*
 * Remove the temporary files (pack-*.subjects.tmp<pid>, pack-*.types.tmp<pid>)
 * of runs that are gone: their process no longer exists, or they are a
 * day old.
 */
static void remove_stale(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		const char *t = NULL;
		char *end, *path;
		struct stat st;
		long pid;

		for (size_t k = 0; k < NKINDS && !t; k++)
			if ((t = strstr(e->d_name, kinds[k].tmp)))
				t += strlen(kinds[k].tmp);
		if (strncmp(e->d_name, "pack-", 5) || !t)
			continue;
		pid = strtol(t, &end, 10);
		if (*end || pid <= 0 || pid == (long)getpid() ||
		    asprintf(&path, "%s/%s", dir, e->d_name) < 0)
			continue;
		if (!lstat(path, &st) &&
		    ((kill((pid_t)pid, 0) && errno == ESRCH) || time(NULL) - st.st_mtime > TMP_STALE_SECONDS))
			unlink(path);
		free(path);
	}
	closedir(d);
}

/* Write img[0..len) as the file of kind ext of the pack sum (subject_table_save()). */
static int write_table_file(const char *dir, const char *ext, size_t rawsz,
			    const unsigned char *sum, const unsigned char *img, size_t len)
{
	char *path = file_name(dir, sum, rawsz, ext), *tmp = NULL;
	size_t done = 0;
	int fd = -1, rc = -1, e;

	if (!path || make_dir(dir) || asprintf(&tmp, "%s.tmp%ld", path, (long)getpid()) < 0) {
		tmp = NULL;
		goto out;
	}
	remove_stale(dir);
	/*
	 * Exclusively, never through a symlink: what is at the name already
	 * (this process ID's leftover, or something planted) is removed, not
	 * written through.  A crash before the rename leaves a temporary
	 * file, never a partial table.
	 */
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 && errno == EEXIST && !unlink(tmp))
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		done = SIZE_MAX; /* nothing made: nothing to remove */
		goto out;
	}
	while (done < len) {
		ssize_t w = write(fd, img + done, len - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			goto out;
		done += (size_t)w;
	}
	if (close(fd)) {
		fd = -1;
		goto out;
	}
	fd = -1;
	/* another writer of the same pack wrote the same bytes: either file is it */
	rc = rename(tmp, path);
out:
	e = errno;
	if (fd >= 0)
		close(fd);
	if (rc && tmp && done != SIZE_MAX)
		unlink(tmp);
	free(tmp);
	free(path);
	errno = e;
	return rc ? -1 : 0;
}

int subject_table_save(const subject_table *t, const char *dir)
{
	return write_table_file(dir, ".subjects", t->rawsz, t->sum, t->img, t->len);
}

/* ---- the types of a pack's objects -------------------------------------------- */

/* A tag's row in a types table: u32 position, u32 type, the target's ID. */
#define TAG_ROW(rawsz) (8u + (rawsz))

/* Whether the tags are a pack's annotated tags by types[], as a table keeps them. */
static int tags_ok(const unsigned char *types, uint32_t n, const subject_tag *tags, size_t ntags)
{
	for (size_t k = 0; k < ntags; k++)
		if (tags[k].pos >= n || (k && tags[k].pos <= tags[k - 1].pos) ||
		    types[tags[k].pos] != ABBREV_TYPE_TAG || tags[k].type < ABBREV_TYPE_COMMIT ||
		    tags[k].type > ABBREV_TYPE_TAG)
			return 0;
	return 1;
}

int subject_types_save(const char *dir, size_t rawsz, const unsigned char *sum, uint32_t n,
		       const subject_bind *b, const unsigned char *types, const subject_tag *tags,
		       size_t ntags)
{
	size_t plen = b->pack_path ? strlen(b->pack_path) : 0, blen = ((size_t)n + 3) / 4, len;
	unsigned char *img, *body, *t;
	int rc;

	if (rawsz > ABBREV_MAX_RAWSZ || plen > UINT32_MAX || ntags > n)
		return 0;
	len = HEADER + plen + blen + 4 + ntags * TAG_ROW(rawsz) + TRAILER;
	if (!(img = calloc(1, len)))
		return -1;
	memcpy(img, TYPES_MAGIC, 8);
	put_le32(img + 8, TYPES_VERSION);
	put_le32(img + 12, (uint32_t)rawsz);
	memcpy(img + 16, sum, rawsz);
	put_le32(img + 48, n);
	put_le64(img + 56, len - HEADER - plen - TRAILER);
	put_bind(img + BIND, b);
	put_le32(img + PATHLEN, (uint32_t)plen);
	if (plen)
		memcpy(img + HEADER, b->pack_path, plen);
	body = img + HEADER + plen;
	for (uint32_t i = 0; i < n; i++) {
		if (types[i] < ABBREV_TYPE_COMMIT || types[i] > ABBREV_TYPE_TAG) {
			free(img); /* no type to keep: nothing written */
			return 0;
		}
		body[i / 4] |= (unsigned char)((types[i] - ABBREV_TYPE_COMMIT) << (2 * (i % 4)));
	}
	if (!tags_ok(types, n, tags, ntags)) {
		free(img);
		return 0;
	}
	t = body + blen;
	put_le32(t, (uint32_t)ntags);
	t += 4;
	for (size_t k = 0; k < ntags; k++, t += TAG_ROW(rawsz)) {
		put_le32(t, tags[k].pos);
		put_le32(t + 4, tags[k].type);
		memcpy(t + 8, tags[k].target, rawsz);
	}
	put_le32(img + len - TRAILER, crc_all(img, len - TRAILER));
	rc = write_table_file(dir, ".types", rawsz, sum, img, len);
	free(img);
	return rc;
}

typedef struct {
	size_t rawsz;
	const unsigned char *sum;
	uint32_t n;
} types_args;

/* A types table of the pack a names, whole: 0, or -2. */
static int types_check(void *arg, const unsigned char *buf, size_t len)
{
	const types_args *a = arg;
	uint64_t plen, blen = ((uint64_t)a->n + 3) / 4, body, ntags;

	if (!head_ok(buf, len, TYPES_MAGIC, TYPES_VERSION, a->rawsz, a->sum, a->n) ||
	    le32(buf + 52) || le32(buf + PATHLEN + 4))
		return -2;
	plen = le32(buf + PATHLEN);
	body = le64(buf + 56);
	/* the types, the tags' count and rows (a count past the objects' is no table) */
	if (body < blen + 4 || (uint64_t)len < HEADER + TRAILER + plen ||
	    body != (uint64_t)len - HEADER - TRAILER - plen)
		return -2;
	ntags = le32(buf + HEADER + plen + blen);
	if (ntags > a->n || body != blen + 4 + ntags * TAG_ROW(a->rawsz) ||
	    crc_all(buf, len - TRAILER) != le32(buf + len - TRAILER))
		return -2;
	/* the last byte's bits past the last object are zero */
	if (a->n % 4 && buf[HEADER + plen + blen - 1] >> (2 * (a->n % 4)))
		return -2;
	return 0;
}

int subject_types_load(const char *dir, size_t rawsz, const unsigned char *sum, uint32_t n,
		       const subject_bind *b, unsigned char *types, subject_tag **tags,
		       size_t *ntags)
{
	types_args a = { rawsz, sum, n };
	const unsigned char *body, *t;
	unsigned char *buf;
	size_t len, cap, blen = ((size_t)n + 3) / 4, m;
	subject_tag *out = NULL;
	int rc = read_table_file(dir, ".types", rawsz, sum, b, types_check, &a, &buf, &len, &cap);

	*tags = NULL;
	*ntags = 0;
	if (rc)
		return rc;
	body = buf + HEADER + le32(buf + PATHLEN);
	for (uint32_t i = 0; i < n; i++)
		types[i] = (unsigned char)(ABBREV_TYPE_COMMIT + ((body[i / 4] >> (2 * (i % 4))) & 3));
	m = le32(body + blen);
	t = body + blen + 4;
	if (m && !(out = malloc(m * sizeof(*out)))) {
		bigvec_free(buf, cap);
		return -1;
	}
	for (size_t k = 0; k < m; k++, t += TAG_ROW(rawsz)) {
		memset(&out[k], 0, sizeof(out[k]));
		out[k].pos = le32(t);
		out[k].type = le32(t + 4) > ABBREV_TYPE_TAG ? ABBREV_TYPE_NONE
							    : (unsigned char)le32(t + 4);
		memcpy(out[k].target, t + 8, rawsz);
	}
	bigvec_free(buf, cap);
	/* each a tag of the pack, once, in order, pointing at an object of a type */
	if (!tags_ok(types, n, out, m)) {
		free(out);
		return 1;
	}
	*tags = out;
	*ntags = m;
	return 0;
}

/* ---- other files of the same shape (commit_notes.c) ---------------------------- */

size_t subject_file_head(unsigned char *img, const char *magic, uint32_t version, size_t rawsz,
			 const unsigned char *sum, uint32_t nobjects, uint32_t n, uint64_t blen,
			 const subject_bind *b)
{
	size_t plen = b->pack_path ? strlen(b->pack_path) : 0;

	memcpy(img, magic, 8);
	put_le32(img + 8, version);
	put_le32(img + 12, (uint32_t)rawsz);
	memset(img + 16, 0, ABBREV_MAX_RAWSZ);
	memcpy(img + 16, sum, rawsz);
	put_le32(img + 48, nobjects);
	put_le32(img + 52, n);
	put_le64(img + 56, blen);
	put_bind(img + BIND, b);
	put_le32(img + PATHLEN, (uint32_t)plen);
	put_le32(img + PATHLEN + 4, 0);
	if (plen)
		memcpy(img + HEADER, b->pack_path, plen);
	return HEADER + plen;
}

size_t subject_file_head_size(const subject_bind *b)
{
	return HEADER + (b->pack_path ? strlen(b->pack_path) : 0);
}

size_t subject_file_head_ok(const unsigned char *buf, size_t len, const char *magic,
			    uint32_t version, size_t rawsz, const unsigned char *sum,
			    uint32_t nobjects)
{
	uint32_t plen;

	if (!head_ok(buf, len, magic, version, rawsz, sum, nobjects) || le32(buf + PATHLEN + 4))
		return 0;
	plen = le32(buf + PATHLEN);
	if ((uint64_t)len < (uint64_t)HEADER + plen + TRAILER ||
	    crc_all(buf, len - TRAILER) != le32(buf + len - TRAILER))
		return 0;
	return HEADER + plen;
}

uint32_t subject_file_crc(const unsigned char *p, size_t n)
{
	return crc_all(p, n);
}

int subject_file_read(const char *dir, const char *ext, size_t rawsz, const unsigned char *sum,
		      const subject_bind *b,
		      int (*check)(void *arg, const unsigned char *buf, size_t len), void *arg,
		      unsigned char **out, size_t *outlen, size_t *outcap)
{
	return read_table_file(dir, ext, rawsz, sum, b, check, arg, out, outlen, outcap);
}

int subject_file_write(const char *dir, const char *ext, size_t rawsz, const unsigned char *sum,
		       const unsigned char *img, size_t len)
{
	return write_table_file(dir, ext, rawsz, sum, img, len);
}

/* ---- the index ---------------------------------------------------------------- */

typedef struct {
	subject_table *t;
	const unsigned char *ids;
	size_t stride;
	uint32_t nids;
	size_t lookups;       /* subject_index_lookup() questions so far (for fan16, rowof) */
	uint32_t *fan;        /* fan[b]: the first position whose ID's first byte is >= b (257) */
	uint32_t *fan16;      /* hexid_fan16() of the IDs, once the questions pay for it */
	uint32_t *rowof;      /* position -> entry + 1 (0: none), once the questions pay for it */
} view;

struct subject_index {
	size_t rawsz;
	view *v;
	size_t n;
};

int subject_index_new(subject_index **out, size_t rawsz)
{
	*out = calloc(1, sizeof(**out));
	if (!*out)
		return -1;
	(*out)->rawsz = rawsz;
	return 0;
}

void subject_index_free(subject_index *x)
{
	if (!x)
		return;
	for (size_t i = 0; i < x->n; i++) {
		subject_table_free(x->v[i].t);
		free(x->v[i].rowof);
		free(x->v[i].fan);
		free(x->v[i].fan16);
	}
	free(x->v);
	free(x);
}

int subject_index_add(subject_index *x, subject_table *t, const unsigned char *ids,
		      size_t stride, uint32_t nids)
{
	view *v = realloc(x->v, (x->n + 1) * sizeof(*v));

	if (!v) {
		subject_table_free(t);
		return -1;
	}
	x->v = v;
	v[x->n++] = (view){ t, ids, stride, nids, 0, NULL, NULL, NULL };
	return 0;
}

/* Compare entry i's key with k (prefix: its first kn bytes); -2 in *bad when unreadable. */
static int cmp_at(const subject_table *t, size_t i, const char *k, size_t kn, int prefix, int *bad)
{
	const char *key;
	uint32_t pos;
	int64_t time;

	if (entry(t, i, &key, NULL, &pos, &time)) {
		*bad = 1;
		return 0;
	}
	return prefix ? strncmp(key, k, kn) : strcmp(key, k);
}

/* The entries [*lo, *hi) of t whose key is k (or begins with it). */
static void table_range(const subject_table *t, const char *k, size_t kn, int prefix, size_t *lo,
			size_t *hi)
{
	size_t a = 0, b = t->n;
	int bad = 0;

	while (a < b) { /* first >= k */
		size_t m = a + (b - a) / 2;

		if (cmp_at(t, m, k, kn, prefix, &bad) < 0)
			a = m + 1;
		else
			b = m;
	}
	*lo = a;
	b = t->n;
	while (a < b) { /* first > k */
		size_t m = a + (b - a) / 2;

		if (cmp_at(t, m, k, kn, prefix, &bad) <= 0)
			a = m + 1;
		else
			b = m;
	}
	*hi = bad ? *lo : a;
}

typedef struct {
	const char *key;
	const unsigned char *id;
	int64_t time;
} cand;

static size_t cmp_rawsz; /* for qsort, set just before it (one search at a time) */

static int cmp_cand(const void *pa, const void *pb)
{
	const cand *a = pa, *b = pb;
	int c = strcmp(a->key, b->key);

	return c ? c : -memcmp(a->id, b->id, cmp_rawsz); /* highest ID first */
}

int subject_index_search(subject_index *x, const char *s, size_t n, int prefix,
			 subject_hit *hits, size_t max, size_t *total)
{
	char *k = malloc(n + 1);
	cand *c = NULL;
	size_t nc = 0, cap = 0, kn, count = 0;
	int rc = -1;

	*total = 0;
	if (!k)
		return -1;
	kn = subject_fold(k, s, n);
	if (prefix && !kn) {
		rc = 0;
		goto done;
	}
	for (size_t v = 0; v < x->n; v++) {
		const view *w = &x->v[v];
		size_t lo, hi;

		table_range(w->t, k, kn, prefix, &lo, &hi);
		for (size_t i = lo; i < hi; i++) {
			const char *key;
			uint32_t pos;
			int64_t time;

			if (entry(w->t, i, &key, NULL, &pos, &time) || pos >= w->nids)
				continue;
			if (GROW(c, cap, nc + 1, 64))
				goto done;
			c[nc++] = (cand){ key, w->ids + (size_t)pos * w->stride, time };
		}
	}
	cmp_rawsz = x->rawsz;
	if (nc > 1)
		qsort(c, nc, sizeof(*c), cmp_cand);
	for (size_t i = 0; i < nc; i++) {
		/* a new subject once `max` are counted: the prefix search has enough */
		if (prefix && count >= max && (!i || strcmp(c[i].key, c[i - 1].key)))
			break;
		if (i && !strcmp(c[i].key, c[i - 1].key) && !memcmp(c[i].id, c[i - 1].id, x->rawsz))
			continue; /* in two packs */
		if (count < max) {
			memcpy(hits[count].id, c[i].id, x->rawsz);
			hits[count].time = c[i].time;
		}
		count++;
	}
	*total = count;
	rc = 0;
done:
	free(k);
	free(c);
	return rc;
}

/* Questions after which a view gets its two-byte fan-out (as objidx's packs do). */
#define FAN16_AFTER(nids) ((nids) / 64 + 1024)

/*
 * Index position of id in w's IDs, or UINT32_MAX.  Within the fan-out
 * bucket of its first byte (made on the first question, as a pack's .idx
 * has one), or of its first two once many are asked: the same probes
 * objidx made a moment before in the same .idx bytes, then in the cache.
 */
static uint32_t find_id(view *w, const unsigned char *id, size_t rawsz)
{
	size_t lo = 0, hi = w->nids, i;

	if (w->fan16) {
		size_t k = (size_t)id[0] << 8 | id[1];

		i = hexid_lower_bound(w->ids, w->stride, w->fan16[k], w->fan16[k + 1], rawsz, 2, id);
		return i < w->fan16[k + 1] && !memcmp(w->ids + i * w->stride, id, rawsz) ?
			(uint32_t)i : UINT32_MAX;
	}
	if (!w->fan && (w->fan = malloc(257 * sizeof(*w->fan)))) {
		unsigned char b[ABBREV_MAX_RAWSZ] = { 0 };

		for (unsigned k = 0; k < 256; k++) {
			b[0] = (unsigned char)k;
			w->fan[k] = (uint32_t)hexid_lower_bound(w->ids, w->stride, k ? w->fan[k - 1] : 0,
								w->nids, rawsz, 0, b);
		}
		w->fan[256] = w->nids;
	}
	if (w->fan) {
		lo = w->fan[id[0]];
		hi = w->fan[id[0] + 1];
	}
	i = hexid_lower_bound(w->ids, w->stride, lo, hi, rawsz, w->fan != NULL, id);

	return i < w->nids && !memcmp(w->ids + i * w->stride, id, rawsz) ? (uint32_t)i : UINT32_MAX;
}

/*
 * Questions to a table before its position map is made: a binary search
 * of the position order costs about log2(n) cache misses a question, the
 * map one read of every entry and 4 bytes an object of the pack; it pays
 * once a sixteenth or so of the commits are asked about (a history, a
 * mailbox), never for a patch or two.
 */
#define ROW_MAP_AFTER(n) ((n) / 16 + 64)

/* The map position -> entry + 1 of t (positions < nids), or NULL (memory). */
static uint32_t *row_map(const subject_table *t, uint32_t nids)
{
	uint32_t *m = calloc(nids ? nids : 1, sizeof(*m));

	if (!m)
		return NULL;
	for (uint32_t k = 0; k < t->n; k++) {
		uint32_t i = le32(t->bypos + 4 * (size_t)k), p;
		const char *key;
		int64_t time;

		if (!entry(t, i, &key, NULL, &p, &time) && p < nids && !m[p])
			m[p] = i + 1;
	}
	return m;
}

int subject_index_lookup(subject_index *x, const unsigned char *id, const char **subject,
			 int64_t *time)
{
	for (size_t v = 0; v < x->n; v++) {
		view *w = &x->v[v];
		const subject_table *t = w->t;
		uint32_t pos;
		size_t lo = 0, hi = t->n;

		/* both made once the questions pay for them (NULL when out of memory: as before) */
		if (!w->fan16 && ++w->lookups > FAN16_AFTER(w->nids) &&
		    (w->fan16 = malloc((HEXID_FAN16 + 1) * sizeof(*w->fan16))))
			hexid_fan16(w->ids, w->stride, w->nids, w->fan16);
		else if (w->fan16)
			w->lookups++;
		pos = find_id(w, id, x->rawsz);
		if (pos == UINT32_MAX)
			continue;
		if (!w->rowof && w->lookups > ROW_MAP_AFTER(t->n))
			w->rowof = row_map(t, w->nids);
		if (w->rowof) {
			const char *key;
			uint32_t p, i = w->rowof[pos];

			if (i && !entry(t, i - 1, &key, subject, &p, time) && p == pos)
				return 1;
			continue;
		}
		/* the entries in position order: a binary search for pos */
		while (lo < hi) {
			size_t m = lo + (hi - lo) / 2;
			const char *key;
			uint32_t p;

			if (entry(t, le32(t->bypos + 4 * m), &key, subject, &p, time))
				break;
			if (p == pos)
				return 1;
			if (p < pos)
				lo = m + 1;
			else
				hi = m;
		}
	}
	return 0;
}

/* ---- the directory: what it holds, kept under its cap ------------------------- */

/* A table's file name: pack-<hex>.subjects or .types (not a temporary file). */
static int table_name(const char *name)
{
	size_t n = strlen(name);

	if (strncmp(name, "pack-", 5))
		return 0;
	for (size_t k = 0; k < NKINDS; k++) {
		size_t e = strlen(kinds[k].ext);

		if (n > 5 + e && !strcmp(name + n - e, kinds[k].ext))
			return 1;
	}
	return 0;
}

/* The pack path a table's file names (its header and path only), into e->pack. */
static void read_pack_path(const char *path, subject_cache_entry *e)
{
	unsigned char head[HEADER];
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
	uint32_t plen;
	struct stat st;
	int known = 0;

	e->exists = -1;
	if (fd < 0)
		return;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && pread(fd, head, HEADER, 0) == (ssize_t)HEADER)
		for (size_t k = 0; k < NKINDS; k++)
			known |= !memcmp(head, kinds[k].magic, 8) && le32(head + 8) == kinds[k].version;
	if (!known ||
	    (plen = le32(head + PATHLEN)) == 0 || plen > 65536 ||
	    (uint64_t)st.st_size < (uint64_t)HEADER + plen + TRAILER || !(e->pack = malloc(plen + 1))) {
		close(fd);
		return;
	}
	if (pread(fd, e->pack, plen, HEADER) != (ssize_t)plen || memchr(e->pack, '\0', plen)) {
		free(e->pack);
		e->pack = NULL;
	} else {
		struct stat ps;

		e->pack[plen] = '\0';
		/* the very file it was built from: the same device, inode and size */
		e->exists = !stat(e->pack, &ps) && (uint64_t)ps.st_dev == le64(head + BIND) &&
			    (uint64_t)ps.st_ino == le64(head + BIND + 8) &&
			    (uint64_t)ps.st_size == le64(head + BIND + 16);
		/* gone from a directory that is still there: repacked, not unmounted */
		if (!e->exists) {
			char *slash = strrchr(e->pack, '/');

			if (slash && slash != e->pack) {
				*slash = '\0';
				e->gone = !stat(e->pack, &ps) && S_ISDIR(ps.st_mode);
				*slash = '/';
			}
		}
	}
	close(fd);
}

static int by_use(const void *pa, const void *pb)
{
	const subject_cache_entry *a = pa, *b = pb;

	if (a->used != b->used)
		return a->used < b->used ? -1 : 1;
	return strcmp(a->name, b->name);
}

void subject_cache_list_free(subject_cache_entry *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++) {
		free(v[i].name);
		free(v[i].pack);
	}
	free(v);
}

int subject_cache_list(const char *dir, subject_cache_entry **out, size_t *nout)
{
	DIR *d = opendir(dir);
	subject_cache_entry *v = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	int rc = -1;

	*out = NULL;
	*nout = 0;
	if (!d)
		return errno == ENOENT ? 1 : -2;
	while ((de = readdir(d))) {
		subject_cache_entry *e;
		struct stat st;
		char *path;

		if (!table_name(de->d_name))
			continue;
		if (asprintf(&path, "%s/%s", dir, de->d_name) < 0)
			goto done;
		if (lstat(path, &st) || !S_ISREG(st.st_mode)) {
			free(path);
			continue;
		}
		if (GROW(v, cap, n + 1, 16)) {
			free(path);
			goto done;
		}
		e = &v[n];
		memset(e, 0, sizeof(*e));
		e->size = (uint64_t)st.st_size;
		e->used = (int64_t)st.st_mtime;
		if (!(e->name = strdup(de->d_name))) {
			free(path);
			goto done;
		}
		n++;
		read_pack_path(path, e);
		free(path);
	}
	if (n > 1)
		qsort(v, n, sizeof(*v), by_use);
	*out = v;
	*nout = n;
	v = NULL;
	rc = 0;
done:
	closedir(d);
	subject_cache_list_free(v, n);
	return rc;
}

/* Remove dir/name: 0, or -1 (errno). */
static int remove_in(const char *dir, const char *name)
{
	char *path;
	int rc;

	if (asprintf(&path, "%s/%s", dir, name) < 0)
		return -1;
	rc = unlink(path) && errno != ENOENT ? -1 : 0;
	free(path);
	return rc;
}

int subject_cache_clear(const char *dir, size_t *removed)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int rc = 0;

	*removed = 0;
	if (!d)
		return errno == ENOENT ? 0 : -1;
	while ((e = readdir(d))) {
		int ours = 0;

		/* its tables and temporary files; nothing else that may be there */
		for (size_t k = 0; k < NKINDS; k++)
			ours |= strstr(e->d_name, kinds[k].ext) != NULL;
		if (strncmp(e->d_name, "pack-", 5) || !ours)
			continue;
		if (remove_in(dir, e->d_name))
			rc = -1;
		else
			++*removed;
	}
	closedir(d);
	return rc;
}

int subject_cache_tidy(const char *dir, uint64_t cap)
{
	subject_cache_entry *v;
	uint64_t total = 0;
	size_t n;
	int rc = subject_cache_list(dir, &v, &n);

	if (rc)
		return rc == 1 ? 0 : rc;
	for (size_t i = 0; i < n; i++) {
		/* its pack repacked away: no repository it was used for has it */
		if (v[i].gone && !remove_in(dir, v[i].name))
			v[i].size = 0;
		total += v[i].size;
	}
	/* the longest unused first, until the rest fits */
	for (size_t i = 0; i < n && total > cap; i++) {
		if (!v[i].size || remove_in(dir, v[i].name))
			continue;
		total -= v[i].size;
	}
	subject_cache_list_free(v, n);
	return 0;
}
