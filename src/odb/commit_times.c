/*
 * commit_times.c - each pack's commits in time order, in the cache
 * (commit_times.h).
 *
 * The file: the header of the cache's tables (subject_file_head(): magic
 * "GABTIME\n", n the count of commits, the body's length, then the files
 * it names), then
 *
 *   n i64    committer times, ascending
 *   n u32    the commits' .idx positions (below the object count), in
 *            the same order: ties of time by ascending position, which
 *            is ID order
 *   u32 CRC-32 of everything before it
 */
#include <config.h>

#include "commit_times.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bigvec.h"
#include "bytes.h"
#include "history.h"

#define EXT ".times"
#define CRC 4u

typedef struct {
	size_t rawsz;
	const unsigned char *sum;
	uint32_t nobjects;
	size_t body; /* where the times begin, once checked */
	uint32_t n;
} check_args;

static int times_check(void *arg, const unsigned char *buf, size_t len)
{
	check_args *a = arg;
	size_t at = subject_file_head_ok(buf, len, SUBJECT_TIMES_MAGIC, SUBJECT_TIMES_VERSION,
					 a->rawsz, a->sum, a->nobjects);
	const unsigned char *t, *p;
	uint64_t n;

	if (!at)
		return -2;
	n = le32(buf + 52);
	if (n > a->nobjects || le64(buf + 56) != 12 * n || (uint64_t)len != at + 12 * n + CRC)
		return -2;
	t = buf + at;
	p = t + 8 * n;
	/* in order, each a position of the pack, none twice within a time */
	for (size_t i = 0; i < n; i++) {
		uint32_t q = le32(p + 4 * i);

		if (q >= a->nobjects)
			return -2;
		if (i) {
			int64_t t0 = (int64_t)le64(t + 8 * (i - 1)), t1 = (int64_t)le64(t + 8 * i);

			if (t1 < t0 || (t1 == t0 && q <= le32(p + 4 * (i - 1))))
				return -2;
		}
	}
	a->body = at;
	a->n = (uint32_t)n;
	return 0;
}

int commit_times_load(const char *dir, size_t rawsz, const unsigned char *sum, uint32_t nobjects,
		      const subject_bind *b, commit_times *out)
{
	check_args a = { rawsz, sum, nobjects, 0, 0 };
	unsigned char *buf;
	size_t len, cap;
	int rc;

	*out = (commit_times){ 0 };
	rc = subject_file_read(dir, EXT, rawsz, sum, b, times_check, &a, &buf, &len, &cap);
	if (rc)
		return rc;
	out->n = a.n;
	out->time = buf + a.body;
	out->pos = buf + a.body + 8 * (size_t)a.n;
	out->buf = buf;
	out->cap = cap;
	return 0;
}

uint32_t commit_times_pos(const commit_times *ct, size_t i)
{
	return le32(ct->pos + 4 * i);
}

int64_t commit_times_time(const commit_times *ct, size_t i)
{
	return (int64_t)le64(ct->time + 8 * i);
}

int commit_times_save(const char *dir, size_t rawsz, const unsigned char *sum, uint32_t nobjects,
		      const subject_bind *b, const subject_table *t)
{
	size_t n = subject_table_count(t), head = subject_file_head_size(b), len;
	uint32_t *pos = malloc((n ? n : 1) * sizeof(*pos));
	int64_t *time = malloc((n ? n : 1) * sizeof(*time));
	size_t *order = malloc((n ? n : 1) * sizeof(*order));
	unsigned char *img = NULL;
	int rc = -1;

	if (!pos || !time || !order || n >= UINT32_MAX / 12)
		goto done;
	/* in position order (ID order): a stable sort by time keeps it within a time */
	for (size_t i = 0; i < n; i++) {
		if (subject_table_at(t, i, &pos[i], &time[i]) || pos[i] >= nobjects ||
		    (i && pos[i] <= pos[i - 1])) {
			rc = 1;
			goto done;
		}
	}
	if (history_order_by_time(time, n, order))
		goto done;
	len = head + 12 * n + CRC;
	if (!(img = malloc(len)))
		goto done;
	subject_file_head(img, SUBJECT_TIMES_MAGIC, SUBJECT_TIMES_VERSION, rawsz, sum, nobjects,
			  (uint32_t)n, 12 * (uint64_t)n, b);
	for (size_t i = 0; i < n; i++) {
		put_le64(img + head + 8 * i, (uint64_t)time[order[i]]);
		put_le32(img + head + 8 * n + 4 * i, pos[order[i]]);
	}
	put_le32(img + len - CRC, subject_file_crc(img, len - CRC));
	rc = subject_file_write(dir, EXT, rawsz, sum, img, len) ? -1 : 0;
done:
	if (rc < 0 && !errno)
		errno = ENOMEM;
	free(pos);
	free(time);
	free(order);
	free(img);
	return rc;
}

void commit_times_free(commit_times *ct)
{
	bigvec_free(ct->buf, ct->cap);
	*ct = (commit_times){ 0 };
}
