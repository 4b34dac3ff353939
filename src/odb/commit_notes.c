/*
 * commit_notes.c - notes on a pack's commits in the cache (commit_notes.h).
 *
 * The file: the header of the cache's tables (subject_file_head(): magic
 * "GABNOTE\n", n the count of notes, then the files it names), then
 *
 *   u32 stamp length s, the stamp (s bytes), zeros to a multiple of 4
 *   n pairs of u32      .idx position (strictly ascending), note
 *   u32 m, m rows of 3 u32  .idx position (strictly ascending) of a note
 *                       with bytes, where they begin in the bytes below,
 *                       how many (1 or more)
 *   u64 d, d bytes      the notes' bytes, zeros to a multiple of 4
 *   u64 HMAC-SHA256 (cut to 64 bits) of everything before it, under the directory's key
 *   u32 CRC-32 of everything before it
 *
 * Version 2 added the bytes.  A file loaded is kept as read and searched
 * in place (a warm run adds nothing: no copy of its rows), until a note
 * is added.
 */
#include <config.h>

#include "commit_notes.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bigvec.h"
#include "grow.h"
#include "bytes.h"
#include <nettle/hmac.h>

#define EXT ".notes"
#define MAC 8u
#define NOTES_KEYSZ 16u /* the cache directory's secret key */
#define CRC 4u
#define PAIR 8u   /* position, note */
#define BROW 12u  /* position, offset, length */

/*
 * The seal of a notes file: HMAC-SHA256 (nettle) of its bytes under the
 * directory's key, cut to 64 bits: nobody without the key can make one
 * for contents of their choice.
 */
static uint64_t seal(const unsigned char key[NOTES_KEYSZ], const unsigned char *m, size_t n)
{
	struct hmac_sha256_ctx ctx;
	unsigned char d[SHA256_DIGEST_SIZE];

	hmac_sha256_set_key(&ctx, NOTES_KEYSZ, key);
	hmac_sha256_update(&ctx, n, m);
	hmac_sha256_digest(&ctx, sizeof(d), d);
	return le64(d);
}

/* The key of `dir` (its file `key`): 0, or -1 when there is none usable (nor made, with create). */
static int dir_key(const char *dir, unsigned char key[NOTES_KEYSZ], int create)
{
	char *path = NULL, *tmp = NULL;
	struct stat st;
	int fd, rc = -1;

	if (asprintf(&path, "%s/key", dir) < 0)
		return -1;
	for (int round = 0; round < 2 && rc; round++) {
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
		if (fd >= 0) {
			/* the user's own, a regular file nobody else can read or write */
			if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
			    !(st.st_mode & 077) && st.st_size == NOTES_KEYSZ &&
			    pread(fd, key, NOTES_KEYSZ, 0) == NOTES_KEYSZ)
				rc = 0;
			close(fd);
			break;
		}
		if (errno != ENOENT || !create || round)
			break;
		/* made whole under another name, then linked: never a key half written */
		if (asprintf(&tmp, "%s/key.tmp%ld", dir, (long)getpid()) < 0) {
			tmp = NULL;
			break;
		}
		(void)mkdir(dir, 0700);
		unlink(tmp);
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0)
			break;
		if (getrandom(key, NOTES_KEYSZ, 0) != NOTES_KEYSZ ||
		    write(fd, key, NOTES_KEYSZ) != NOTES_KEYSZ) {
			close(fd);
			unlink(tmp);
			break;
		}
		close(fd);
		(void)link(tmp, path); /* another run's, made meanwhile, stays: read next round */
		unlink(tmp);
	}
	free(tmp);
	free(path);
	return rc;
}

typedef struct {
	size_t rawsz;
	const unsigned char *sum;
	uint32_t nobjects;
	const unsigned char *stamp;
	size_t stamplen;
	const unsigned char *key;
	size_t rows, brows, data; /* where each part begins, once checked */
	uint32_t n, m;
	uint64_t dlen;
} check_args;

static size_t pad4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

/* Whether the n positions of the rows at p (stride bytes apart) ascend strictly, each below max. */
static int ascending(const unsigned char *p, uint32_t n, size_t stride, uint32_t max)
{
	for (uint32_t i = 0; i < n; i++, p += stride)
		if (le32(p) >= max || (i && le32(p) <= le32(p - stride)))
			return 0;
	return 1;
}

static int notes_check(void *arg, const unsigned char *buf, size_t len)
{
	check_args *a = arg;
	size_t at = subject_file_head_ok(buf, len, SUBJECT_NOTES_MAGIC, SUBJECT_NOTES_VERSION,
					 a->rawsz, a->sum, a->nobjects);
	uint64_t n, m, s, d, rows, brows, left;

	if (!at || len - at < 4 + 4 + 8 + MAC + CRC)
		return -2;
	n = le32(buf + 52);
	s = le32(buf + at);
	left = len - at - 4 - 4 - 8 - MAC - CRC;
	if (s != a->stamplen || le64(buf + 56) != len - at - MAC - CRC ||
	    left < pad4((size_t)s) + PAIR * n || memcmp(buf + at + 4, a->stamp, a->stamplen))
		return -2;
	rows = at + 4 + pad4((size_t)s);
	m = le32(buf + rows + PAIR * n);
	left -= pad4((size_t)s) + PAIR * n;
	if (left < BROW * m)
		return -2;
	brows = rows + PAIR * n + 4;
	d = le64(buf + brows + BROW * m);
	if (d > left || left - BROW * m != pad4((size_t)d))
		return -2;
	/* sealed with this directory's key */
	if (seal(a->key, buf, len - MAC - CRC) != le64(buf + len - MAC - CRC))
		return -2;
	if (!ascending(buf + rows, (uint32_t)n, PAIR, a->nobjects) ||
	    !ascending(buf + brows, (uint32_t)m, BROW, a->nobjects))
		return -2;
	for (uint32_t i = 0; i < m; i++) {
		const unsigned char *r = buf + brows + BROW * (size_t)i;

		if (!le32(r + 8) || (uint64_t)le32(r + 4) + le32(r + 8) > d)
			return -2;
	}
	a->rows = (size_t)rows;
	a->brows = (size_t)brows;
	a->data = (size_t)(brows + BROW * m + 8);
	a->n = (uint32_t)n;
	a->m = (uint32_t)m;
	a->dlen = d;
	return 0;
}

int commit_notes_load(const char *dir, size_t rawsz, const unsigned char *sum, uint32_t nobjects,
		      const subject_bind *b, const unsigned char *stamp, size_t stamplen,
		      commit_notes *out)
{
	unsigned char key[NOTES_KEYSZ], *buf;
	check_args a = { rawsz, sum, nobjects, stamp, stamplen, key, 0, 0, 0, 0, 0, 0 };
	size_t len, cap;
	int rc;

	*out = (commit_notes){ 0 };
	if (dir_key(dir, key, 0))
		return 1;
	rc = subject_file_read(dir, EXT, rawsz, sum, b, notes_check, &a, &buf, &len, &cap);
	if (rc)
		return rc;
	out->file = buf;
	out->filecap = cap;
	out->frows = buf + a.rows;
	out->fn = a.n;
	out->fbrows = buf + a.brows;
	out->fm = a.m;
	out->n = a.n;
	out->data = buf + a.data;
	out->dlen = (size_t)a.dlen;
	return 0;
}

/* Where position pos is among the n rows at p (stride bytes apart): 1 with *at, 0 not there. */
static int search(const unsigned char *p, size_t n, size_t stride, uint32_t pos, size_t *at)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (le32(p + stride * mid) < pos)
			lo = mid + 1;
		else
			hi = mid;
	}
	*at = lo;
	return lo < n && le32(p + stride * lo) == pos;
}

/* The file's rows as arrays, before a note is added: 0, or -1 (memory). */
static int unfold(commit_notes *nt)
{
	size_t cap = nt->fn ? nt->fn : 1, j = 0;

	if (!nt->frows)
		return 0;
	if (!(nt->pos = malloc(cap * sizeof(*nt->pos))) ||
	    !(nt->val = malloc(cap * sizeof(*nt->val))) ||
	    !(nt->off = malloc(cap * sizeof(*nt->off))) ||
	    !(nt->len = malloc(cap * sizeof(*nt->len)))) {
		free(nt->pos);
		free(nt->val);
		free(nt->off);
		nt->pos = nt->val = nt->off = NULL;
		return -1;
	}
	for (size_t i = 0; i < nt->fn; i++) {
		const unsigned char *r = nt->frows + PAIR * i;

		nt->pos[i] = le32(r);
		nt->val[i] = le32(r + 4);
		nt->off[i] = nt->len[i] = 0;
		/* both ascend: the bytes' rows merged in */
		while (j < nt->fm && le32(nt->fbrows + BROW * j) < nt->pos[i])
			j++;
		if (j < nt->fm && le32(nt->fbrows + BROW * j) == nt->pos[i]) {
			nt->off[i] = le32(nt->fbrows + BROW * j + 4);
			nt->len[i] = le32(nt->fbrows + BROW * j + 8);
		}
	}
	nt->n = nt->fn;
	nt->cap = cap;
	nt->frows = nt->fbrows = NULL;
	nt->fn = nt->fm = 0;
	return 0;
}

int commit_notes_save(const char *dir, size_t rawsz, const unsigned char *sum, uint32_t nobjects,
		      const subject_bind *b, const unsigned char *stamp, size_t stamplen,
		      commit_notes *nt)
{
	unsigned char key[NOTES_KEYSZ], *img, *row, *brow, *data;
	size_t head = subject_file_head_size(b), body, len, d = 0, m = 0;
	int rc;

	if (unfold(nt))
		return -1;
	/* the bytes as the rows name them, each once (an entry replaced by sorting is gone) */
	for (size_t i = 0; i < nt->n; i++) {
		d += nt->len[i];
		m += nt->len[i] != 0;
	}
	if (nt->n > UINT32_MAX || stamplen > UINT32_MAX || rawsz > ABBREV_MAX_RAWSZ ||
	    d > UINT32_MAX) {
		errno = EOVERFLOW;
		return -1;
	}
	if (dir_key(dir, key, 1)) {
		if (!errno)
			errno = EACCES;
		return -1;
	}
	body = 4 + pad4(stamplen) + PAIR * nt->n + 4 + BROW * m + 8 + pad4(d);
	len = head + body + MAC + CRC;
	if (!(img = calloc(1, len)))
		return -1;
	subject_file_head(img, SUBJECT_NOTES_MAGIC, SUBJECT_NOTES_VERSION, rawsz, sum, nobjects,
			  (uint32_t)nt->n, body, b);
	put_le32(img + head, (uint32_t)stamplen);
	memcpy(img + head + 4, stamp, stamplen);
	row = img + head + 4 + pad4(stamplen);
	put_le32(row + PAIR * nt->n, (uint32_t)m);
	brow = row + PAIR * nt->n + 4;
	put_le64(brow + BROW * m, d);
	data = brow + BROW * m + 8;
	d = 0;
	for (size_t i = 0; i < nt->n; i++, row += PAIR) {
		put_le32(row, nt->pos[i]);
		put_le32(row + 4, nt->val[i]);
		if (!nt->len[i])
			continue;
		put_le32(brow, nt->pos[i]);
		put_le32(brow + 4, (uint32_t)d);
		put_le32(brow + 8, nt->len[i]);
		brow += BROW;
		memcpy(data + d, nt->data + nt->off[i], nt->len[i]);
		d += nt->len[i];
	}
	put_le64(img + len - MAC - CRC, seal(key, img, len - MAC - CRC));
	put_le32(img + len - CRC, subject_file_crc(img, len - CRC));
	rc = subject_file_write(dir, EXT, rawsz, sum, img, len);
	free(img);
	return rc;
}

int commit_notes_find_bytes(const commit_notes *nt, uint32_t pos, uint32_t *val,
			    const unsigned char **bytes, size_t *len)
{
	size_t lo = 0, hi = nt->n, i;

	if (nt->frows) {
		if (!search(nt->frows, nt->fn, PAIR, pos, &i))
			return 0;
		*val = le32(nt->frows + PAIR * i + 4);
		*bytes = nt->data;
		*len = 0;
		if (search(nt->fbrows, nt->fm, BROW, pos, &i)) {
			*bytes = nt->data + le32(nt->fbrows + BROW * i + 4);
			*len = le32(nt->fbrows + BROW * i + 8);
		}
		return 1;
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (nt->pos[mid] < pos)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo >= nt->n || nt->pos[lo] != pos)
		return 0;
	*val = nt->val[lo];
	*bytes = nt->data + nt->off[lo];
	*len = nt->len[lo];
	return 1;
}

int commit_notes_find(const commit_notes *nt, uint32_t pos, uint32_t *val)
{
	const unsigned char *b;
	size_t n;

	return commit_notes_find_bytes(nt, pos, val, &b, &n);
}

int commit_notes_add_bytes(commit_notes *nt, uint32_t pos, uint32_t val,
			   const unsigned char *bytes, size_t len)
{
	if (len > UINT32_MAX || nt->dlen + len > UINT32_MAX) {
		errno = EOVERFLOW;
		return -1;
	}
	if (unfold(nt))
		return -1;
	if (nt->n == nt->cap) {
		size_t cap = grow_cap(nt->cap, nt->n + 1, 1024, 4 * sizeof(uint32_t));

		if (!cap || grow_to(&nt->pos, cap, sizeof(*nt->pos)) ||
		    grow_to(&nt->val, cap, sizeof(*nt->val)) ||
		    grow_to(&nt->off, cap, sizeof(*nt->off)) ||
		    grow_to(&nt->len, cap, sizeof(*nt->len)))
			return -1;
		nt->cap = cap;
	}
	if (nt->dlen + len > nt->dcap) {
		size_t cap = grow_cap(nt->dcap, nt->dlen + len, 4096, 1);
		unsigned char *d;

		if (!cap)
			return -1;
		if (nt->dcap) {
			if (grow_to(&nt->data, cap, 1))
				return -1;
		} else { /* the file's, or none yet: a copy of our own */
			if (!(d = malloc(cap)))
				return -1;
			if (nt->dlen)
				memcpy(d, nt->data, nt->dlen);
			nt->data = d;
		}
		nt->dcap = cap;
	}
	if (len)
		memcpy(nt->data + nt->dlen, bytes, len);
	nt->pos[nt->n] = pos;
	nt->val[nt->n] = val;
	nt->off[nt->n] = len ? (uint32_t)nt->dlen : 0;
	nt->len[nt->n++] = (uint32_t)len;
	nt->dlen += len;
	return 0;
}

int commit_notes_add(commit_notes *nt, uint32_t pos, uint32_t val)
{
	return commit_notes_add_bytes(nt, pos, val, NULL, 0);
}

/* (position, order added) */
static int cmp_pair(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;

	return a < b ? -1 : a > b;
}

int commit_notes_sort(commit_notes *nt)
{
	uint64_t *v;
	uint32_t *tmp;
	size_t k = 0;

	if (unfold(nt))
		return -1;
	if (nt->n < 2)
		return 0;
	v = malloc(nt->n * sizeof(*v));
	tmp = malloc(3 * nt->n * sizeof(*tmp));
	if (!v || !tmp) {
		free(v);
		free(tmp);
		return -1;
	}
	for (size_t i = 0; i < nt->n; i++)
		v[i] = (uint64_t)nt->pos[i] << 32 | (uint32_t)i;
	qsort(v, nt->n, sizeof(*v), cmp_pair);
	for (size_t i = 0; i < nt->n; i++) {
		uint32_t p = (uint32_t)(v[i] >> 32), j = (uint32_t)v[i];

		if (k && nt->pos[k - 1] == p) /* the later added wins */
			k--;
		nt->pos[k] = p;
		tmp[3 * k] = nt->val[j];
		tmp[3 * k + 1] = nt->off[j];
		tmp[3 * k + 2] = nt->len[j];
		k++;
	}
	for (size_t i = 0; i < k; i++) {
		nt->val[i] = tmp[3 * i];
		nt->off[i] = tmp[3 * i + 1];
		nt->len[i] = tmp[3 * i + 2];
	}
	nt->n = k;
	free(tmp);
	free(v);
	return 0;
}

void commit_notes_free(commit_notes *nt)
{
	free(nt->pos);
	free(nt->val);
	free(nt->off);
	free(nt->len);
	if (nt->dcap)
		free(nt->data);
	if (nt->file)
		bigvec_free(nt->file, nt->filecap);
	*nt = (commit_notes){ 0 };
}
