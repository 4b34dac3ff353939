/*
 * commit_notes.c - notes on a pack's commits in the cache (commit_notes.h).
 *
 * The file: the header of the cache's tables (subject_file_head(): magic
 * "GABNOTE\n", n the count of notes, then the files it names), then
 *
 *   u32 stamp length s, the stamp (s bytes), zeros to a multiple of 4
 *   n pairs of u32      .idx position (strictly ascending), note
 *   u64 HMAC-SHA256 (cut to 64 bits) of everything before it, under the directory's key
 *   u32 CRC-32 of everything before it
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
	size_t body;  /* where the pairs begin, once checked */
	uint32_t n;
} check_args;

static size_t pad4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

static int notes_check(void *arg, const unsigned char *buf, size_t len)
{
	check_args *a = arg;
	size_t at = subject_file_head_ok(buf, len, SUBJECT_NOTES_MAGIC, SUBJECT_NOTES_VERSION,
					 a->rawsz, a->sum, a->nobjects);
	uint64_t n, s;

	if (!at || len - at < 4 + MAC + CRC)
		return -2;
	n = le32(buf + 52);
	s = le32(buf + at);
	if (s != a->stamplen || le64(buf + 56) != len - at - MAC - CRC ||
	    (uint64_t)len != at + 4 + pad4((size_t)s) + 8 * n + MAC + CRC ||
	    memcmp(buf + at + 4, a->stamp, a->stamplen))
		return -2;
	/* sealed with this directory's key */
	if (seal(a->key, buf, len - MAC - CRC) != le64(buf + len - MAC - CRC))
		return -2;
	a->body = at + 4 + pad4((size_t)s);
	a->n = (uint32_t)n;
	for (uint32_t i = 0; i < a->n; i++) {
		uint32_t p = le32(buf + a->body + 8 * (size_t)i);

		if (p >= a->nobjects || (i && p <= le32(buf + a->body + 8 * (size_t)(i - 1))))
			return -2;
	}
	return 0;
}

int commit_notes_load(const char *dir, size_t rawsz, const unsigned char *sum, uint32_t nobjects,
		      const subject_bind *b, const unsigned char *stamp, size_t stamplen,
		      commit_notes *out)
{
	unsigned char key[NOTES_KEYSZ], *buf;
	check_args a = { rawsz, sum, nobjects, stamp, stamplen, key, 0, 0 };
	size_t len, cap;
	int rc;

	*out = (commit_notes){ 0 };
	if (dir_key(dir, key, 0))
		return 1;
	rc = subject_file_read(dir, EXT, rawsz, sum, b, notes_check, &a, &buf, &len, &cap);
	if (rc)
		return rc;
	rc = -1;
	out->cap = a.n ? a.n : 1;
	if ((out->pos = malloc(out->cap * sizeof(*out->pos))) &&
	    (out->val = malloc(out->cap * sizeof(*out->val)))) {
		for (uint32_t i = 0; i < a.n; i++) {
			out->pos[i] = le32(buf + a.body + 8 * (size_t)i);
			out->val[i] = le32(buf + a.body + 8 * (size_t)i + 4);
		}
		out->n = a.n;
		rc = 0;
	}
	bigvec_free(buf, cap);
	if (rc)
		commit_notes_free(out);
	return rc;
}

int commit_notes_save(const char *dir, size_t rawsz, const unsigned char *sum, uint32_t nobjects,
		      const subject_bind *b, const unsigned char *stamp, size_t stamplen,
		      const commit_notes *nt)
{
	unsigned char key[NOTES_KEYSZ], *img;
	size_t head = subject_file_head_size(b), body, len;
	int rc;

	if (nt->n > UINT32_MAX || stamplen > UINT32_MAX || rawsz > ABBREV_MAX_RAWSZ) {
		errno = EOVERFLOW;
		return -1;
	}
	if (dir_key(dir, key, 1)) {
		if (!errno)
			errno = EACCES;
		return -1;
	}
	body = 4 + pad4(stamplen) + 8 * nt->n;
	len = head + body + MAC + CRC;
	if (!(img = calloc(1, len)))
		return -1;
	subject_file_head(img, SUBJECT_NOTES_MAGIC, SUBJECT_NOTES_VERSION, rawsz, sum, nobjects,
			  (uint32_t)nt->n, body, b);
	put_le32(img + head, (uint32_t)stamplen);
	memcpy(img + head + 4, stamp, stamplen);
	for (size_t i = 0; i < nt->n; i++) {
		put_le32(img + head + 4 + pad4(stamplen) + 8 * i, nt->pos[i]);
		put_le32(img + head + 4 + pad4(stamplen) + 8 * i + 4, nt->val[i]);
	}
	put_le64(img + len - MAC - CRC, seal(key, img, len - MAC - CRC));
	put_le32(img + len - CRC, subject_file_crc(img, len - CRC));
	rc = subject_file_write(dir, EXT, rawsz, sum, img, len);
	free(img);
	return rc;
}

int commit_notes_find(const commit_notes *nt, uint32_t pos, uint32_t *val)
{
	size_t lo = 0, hi = nt->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (nt->pos[mid] < pos)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < nt->n && nt->pos[lo] == pos) {
		*val = nt->val[lo];
		return 1;
	}
	return 0;
}

int commit_notes_add(commit_notes *nt, uint32_t pos, uint32_t val)
{
	if (nt->n == nt->cap) {
		size_t cap = grow_cap(nt->cap, nt->n + 1, 1024, sizeof(uint64_t));

		if (!cap || grow_to(&nt->pos, cap, sizeof(*nt->pos)) ||
		    grow_to(&nt->val, cap, sizeof(*nt->val)))
			return -1;
		nt->cap = cap;
	}
	nt->pos[nt->n] = pos;
	nt->val[nt->n++] = val;
	return 0;
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
	uint32_t *val;
	size_t k = 0;

	if (nt->n < 2)
		return 0;
	v = malloc(nt->n * sizeof(*v));
	val = malloc(nt->n * sizeof(*val));
	if (!v || !val) {
		free(v);
		free(val);
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
		val[k++] = nt->val[j];
	}
	memcpy(nt->val, val, k * sizeof(*val));
	nt->n = k;
	free(val);
	free(v);
	return 0;
}

void commit_notes_free(commit_notes *nt)
{
	free(nt->pos);
	free(nt->val);
	*nt = (commit_notes){ 0 };
}
