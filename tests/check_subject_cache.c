/*
 * check_subject_cache.c - unit tests of the subject tables and their
 * files (subject_cache.h): folding, the search over several tables, and
 * that a damaged, cut or foreign file is refused.
 *
 * The commits are hand-made rows over hand-made IDs; every expected
 * answer follows from the rows written here.
 */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "check_suites.h"
#include "commit_notes.h"
#include "subject_cache.h"

#define RAW 20

/* Two "packs": IDs 10.., 20.. (one byte each, the rest zero), A's ID 12 also in B. */
static unsigned char ids_a[4][RAW], ids_b[3][RAW];
static const unsigned char sum_a[RAW] = { 0xaa }, sum_b[RAW] = { 0xbb };

static void setup(void)
{
	memset(ids_a, 0, sizeof(ids_a));
	memset(ids_b, 0, sizeof(ids_b));
	for (int i = 0; i < 4; i++)
		ids_a[i][0] = (unsigned char)(0x10 + i);
	ids_b[0][0] = 0x12; /* the same commit in both packs */
	ids_b[1][0] = 0x20;
	ids_b[2][0] = 0x21;
}

static void teardown(void)
{
}

static subject_table *table_a(void)
{
	static const subject_row rows[] = {
		{ "fix  the\tparser", 0, 100, 0, 0 },
		{ "typos", 1, 200, 0, 0 },
		{ "typos", 2, 300, 0, 0 },
		{ "parser: speed up", 3, 400, 0, 0 },
	};
	subject_table *t;

	ck_assert_int_eq(subject_table_build(&t, RAW, sum_a, 4, rows, 4), 0);
	return t;
}

static subject_table *table_b(void)
{
	static const subject_row rows[] = {
		{ "typos", 0, 300, 0, 0 },
		{ "typos", 1, 500, 0, 0 },
		{ "parser: speed it up", 2, 600, 0, 0 },
	};
	subject_table *t;

	ck_assert_int_eq(subject_table_build(&t, RAW, sum_b, 3, rows, 3), 0);
	return t;
}

static subject_index *index_ab(void)
{
	subject_index *x;

	ck_assert_int_eq(subject_index_new(&x, RAW), 0);
	ck_assert_int_eq(subject_index_add(x, table_a(), ids_a[0], RAW, 4), 0);
	ck_assert_int_eq(subject_index_add(x, table_b(), ids_b[0], RAW, 3), 0);
	return x;
}

START_TEST(test_fold)
{
	char out[64];
	const char *s = "  a \t b\n\n c  ";

	ck_assert_uint_eq(subject_fold(out, s, strlen(s)), 5);
	ck_assert_str_eq(out, "a b c");
	ck_assert_uint_eq(subject_fold(out, " \t ", 3), 0);
	ck_assert_str_eq(out, "");
}
END_TEST

START_TEST(test_search_exact)
{
	subject_index *x = index_ab();
	subject_hit h[8];
	size_t total;

	/* typos: 11, 12 (in both packs: once), 20; highest ID first */
	ck_assert_int_eq(subject_index_search(x, "typos", 5, 0, h, 8, &total), 0);
	ck_assert_uint_eq(total, 3);
	ck_assert_uint_eq(h[0].id[0], 0x20);
	ck_assert_int_eq(h[0].time, 500);
	ck_assert_uint_eq(h[1].id[0], 0x12);
	ck_assert_uint_eq(h[2].id[0], 0x11);
	ck_assert_int_eq(h[2].time, 200);
	/* only the first max stored, all counted */
	ck_assert_int_eq(subject_index_search(x, "typos", 5, 0, h, 2, &total), 0);
	ck_assert_uint_eq(total, 3);
	ck_assert_uint_eq(h[1].id[0], 0x12);
	/* blanks folded on both sides */
	ck_assert_int_eq(subject_index_search(x, "fix the \n parser", 16, 0, h, 8, &total), 0);
	ck_assert_uint_eq(total, 1);
	ck_assert_uint_eq(h[0].id[0], 0x10);
	ck_assert_int_eq(subject_index_search(x, "fix the", 7, 0, h, 8, &total), 0);
	ck_assert_uint_eq(total, 0);
	subject_index_free(x);
}
END_TEST

START_TEST(test_search_prefix)
{
	subject_index *x = index_ab();
	subject_hit h[8];
	size_t total;

	/* subject order: "parser: speed it up" (21) before "parser: speed up" (13) */
	ck_assert_int_eq(subject_index_search(x, "parser: speed", 13, 1, h, 8, &total), 0);
	ck_assert_uint_eq(total, 2);
	ck_assert_uint_eq(h[0].id[0], 0x21);
	ck_assert_uint_eq(h[1].id[0], 0x13);
	/* whole subjects until max are counted: the first one only */
	ck_assert_int_eq(subject_index_search(x, "parser: speed", 13, 1, h, 1, &total), 0);
	ck_assert_uint_eq(total, 1);
	ck_assert_int_eq(subject_index_search(x, "typ", 3, 1, h, 1, &total), 0);
	ck_assert_uint_eq(total, 3);
	ck_assert_int_eq(subject_index_search(x, "", 0, 1, h, 8, &total), 0);
	ck_assert_uint_eq(total, 0);
	subject_index_free(x);
}
END_TEST

START_TEST(test_lookup)
{
	subject_index *x = index_ab();
	unsigned char id[RAW] = { 0x10 };
	const char *s;
	int64_t t;

	ck_assert_int_eq(subject_index_lookup(x, id, &s, &t), 1);
	ck_assert_str_eq(s, "fix  the\tparser"); /* as git prints it, not folded */
	ck_assert_int_eq(t, 100);
	id[0] = 0x21;
	ck_assert_int_eq(subject_index_lookup(x, id, &s, &t), 1);
	ck_assert_str_eq(s, "parser: speed it up");
	id[0] = 0x30;
	ck_assert_int_eq(subject_index_lookup(x, id, &s, &t), 0);
	subject_index_free(x);
}
END_TEST

/*
 * Many questions to one table: the first are answered by a search of the
 * position order, the rest from the position map made once they pay for
 * it; both must give every commit's own row and nothing for the other
 * objects of the pack.
 */
START_TEST(test_lookup_many)
{
	enum { N = 6000 };
	unsigned char (*ids)[RAW] = calloc(N, RAW);
	subject_row *rows = calloc(N, sizeof(*rows));
	char (*subj)[16] = calloc(N, 16);
	subject_table *t;
	subject_index *x;
	size_t n = 0;

	ck_assert_ptr_nonnull(ids);
	ck_assert_ptr_nonnull(rows);
	ck_assert_ptr_nonnull(subj);
	for (uint32_t i = 0; i < N; i++) { /* spread over the key space, ascending */
		uint32_t v = i * (UINT32_MAX / N);

		ids[i][0] = (unsigned char)(v >> 24);
		ids[i][1] = (unsigned char)(v >> 16);
		ids[i][2] = (unsigned char)(v >> 8);
		ids[i][3] = (unsigned char)v;
		ids[i][19] = 1;
		if (i % 3 == 1) { /* a commit; the others are trees and blobs */
			snprintf(subj[i], sizeof(subj[i]), "change %u", (unsigned)(N - i));
			rows[n++] = (subject_row){ subj[i], i, 1000 + i, 0, 0 };
		}
	}
	ck_assert_int_eq(subject_table_build(&t, RAW, sum_a, N, rows, n), 0);
	ck_assert_int_eq(subject_index_new(&x, RAW), 0);
	ck_assert_int_eq(subject_index_add(x, t, ids[0], RAW, N), 0);
	for (int round = 0; round < 3; round++) {
		for (uint32_t i = 0; i < N; i++) {
			const char *s = NULL;
			int64_t time = 0;
			unsigned char other[RAW];

			ck_assert_int_eq(subject_index_lookup(x, ids[i], &s, &time), i % 3 == 1);
			if (i % 3 == 1) {
				ck_assert_str_eq(s, subj[i]);
				ck_assert_int_eq(time, 1000 + i);
			}
			memcpy(other, ids[i], RAW);
			other[19] = 2; /* in no pack */
			ck_assert_int_eq(subject_index_lookup(x, other, &s, &time), 0);
		}
	}
	subject_index_free(x);
	free(ids);
	free(rows);
	free(subj);
}
END_TEST

/* ---- each commit's parents: positions in the pack, or IDs it does not hold ---- */

static void put_le32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/* b[0..len) with its CRC-32 made right again (a forger's file) */
static void recrc(unsigned char *b, size_t len)
{
	put_le32(b + len - 4, (uint32_t)crc32(0, b, (uInt)(len - 4)));
}

START_TEST(test_parents)
{
	/* pack A: commits at .idx positions 0, 1 and 3 (2 is a tree); 3 merges 1 and X */
	static const unsigned char x[RAW] = { 0x99, 7 };
	static const uint32_t list[] = { 1, 4, 0 }; /* 4: the object count + 0, X */
	const subject_parents par = { list, 3, x, 1 };
	const subject_row rows[] = {
		{ "merge", 3, 300, 0, 2 },
		{ "root", 0, 100, 3, 0 },
		{ "second", 1, 200, 2, 1 },
	};
	const unsigned char *got[4];
	subject_table *t, *p;
	const unsigned char *b;
	unsigned char *c;
	size_t len, at;

	ck_assert_int_eq(subject_table_build_with(&t, RAW, sum_a, 4, rows, 3, &par), 0);
	ck_assert_int_eq(subject_table_has_parents(t), 1);
	b = subject_table_bytes(t, &len);
	ck_assert_int_eq(subject_table_parse(&p, b, len, RAW, sum_a, 4), 0);
	for (int round = 0; round < 2; round++) {
		const subject_table *u = round ? p : t;

		/* in position order: 0 (root), 1 (second), 3 (merge) */
		ck_assert_int_eq(subject_table_parents(u, 0, ids_a[0], RAW, 4, got, 4), 0);
		ck_assert_int_eq(subject_table_parents(u, 1, ids_a[0], RAW, 4, got, 4), 1);
		ck_assert_ptr_eq(got[0], ids_a[0]);
		ck_assert_int_eq(subject_table_parents(u, 2, ids_a[0], RAW, 4, got, 4), 2);
		ck_assert_ptr_eq(got[0], ids_a[1]);
		ck_assert_mem_eq(got[1], x, RAW);
		ck_assert_int_eq(subject_table_parents(u, 3, ids_a[0], RAW, 4, got, 4), -2);
		/* a position beyond the IDs given is no parent */
		ck_assert_int_eq(subject_table_parents(u, 2, ids_a[0], RAW, 1, got, 4), -2);
		/* the parents' positions: X is not the pack's, and there is no third */
		ck_assert_uint_eq(subject_table_parent_pos(u, 1, 0), 0);
		ck_assert_uint_eq(subject_table_parent_pos(u, 2, 0), 1);
		ck_assert_uint_eq(subject_table_parent_pos(u, 2, 1), UINT32_MAX);
		ck_assert_uint_eq(subject_table_parent_pos(u, 2, 2), UINT32_MAX);
		ck_assert_uint_eq(subject_table_parent_pos(u, 0, 0), UINT32_MAX);
		ck_assert_uint_eq(subject_table_parent_pos(u, 3, 0), UINT32_MAX);
	}
	subject_table_free(p);
	/* a table without parents says so */
	{
		subject_table *a = table_a();

		ck_assert_int_eq(subject_table_has_parents(a), 0);
		ck_assert_int_eq(subject_table_parents(a, 0, ids_a[0], RAW, 4, got, 4), -2);
		ck_assert_uint_eq(subject_table_parent_pos(a, 0, 0), UINT32_MAX);
		subject_table_free(a);
	}
	/* a parent beyond the pack and the IDs kept is not built */
	{
		static const uint32_t bad[] = { 1, 5, 0 };
		const subject_parents bp = { bad, 3, x, 1 };

		ck_assert_int_eq(subject_table_build_with(&p, RAW, sum_a, 4, rows, 3, &bp), -1);
	}
	/* forged with a right CRC: a parent out of range, a list going back, an old version */
	c = malloc(len);
	ck_assert_ptr_nonnull(c);
	at = 152 + 8 + 3 * 28; /* the header, the counts, the entries and their order */
	memcpy(c, b, len);
	put_le32(c + at + 4 * 4 + 4, 5); /* the merge's second parent: past X */
	recrc(c, len);
	ck_assert_int_eq(subject_table_parse(&p, c, len, RAW, sum_a, 4), -2);
	memcpy(c, b, len);
	put_le32(c + at + 4, 2); /* the second commit's parents start after the merge's */
	recrc(c, len);
	ck_assert_int_eq(subject_table_parse(&p, c, len, RAW, sum_a, 4), -2);
	memcpy(c, b, len);
	put_le32(c + 8, 4); /* a table of the version before parents were kept: rebuilt */
	recrc(c, len);
	ck_assert_int_eq(subject_table_parse(&p, c, len, RAW, sum_a, 4), -2);
	memcpy(c, b, len);
	recrc(c, len);
	ck_assert_int_eq(subject_table_parse(&p, c, len, RAW, sum_a, 4), 0);
	subject_table_free(p);
	free(c);
	subject_table_free(t);
}
END_TEST

/* ---- errors: every damaged byte, every cut, another pack's file ---- */

START_TEST(test_parse_damage)
{
	subject_table *t = table_a(), *p;
	size_t len;
	const unsigned char *b = subject_table_bytes(t, &len);
	unsigned char *c = malloc(len);

	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(subject_table_parse(&p, b, len, RAW, sum_a, 4), 0);
	ck_assert_uint_eq(subject_table_count(p), 4);
	subject_table_free(p);
	for (size_t i = 0; i < len; i++) {
		memcpy(c, b, len);
		c[i] ^= 0x20;
		ck_assert_int_eq(subject_table_parse(&p, c, len, RAW, sum_a, 4), -2);
		ck_assert_ptr_null(p);
	}
	for (size_t n = 0; n < len; n++)
		ck_assert_int_eq(subject_table_parse(&p, b, n, RAW, sum_a, 4), -2);
	/* another pack's, another object count, another hash */
	ck_assert_int_eq(subject_table_parse(&p, b, len, RAW, sum_b, 4), -2);
	ck_assert_int_eq(subject_table_parse(&p, b, len, RAW, sum_a, 5), -2);
	ck_assert_int_eq(subject_table_parse(&p, b, len, 32, sum_a, 4), -2);
	free(c);
	subject_table_free(t);
}
END_TEST

START_TEST(test_files)
{
	char dir[] = "/tmp/check-subject-cache.XXXXXX", path[512], sub[300];
	subject_table *t = table_a(), *l;
	subject_bind bind = { { 1, 2, 3, 4, 5 }, { 1, 6, 7, 8, 9 }, NULL }, other = bind;
	size_t len;
	const unsigned char *b;
	FILE *f;

	ck_assert_int_eq(subject_table_bind(t, &bind), 0);
	b = subject_table_bytes(t, &len);
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(sub, sizeof(sub), "%s/new/git-abbrev", dir); /* made with its parent */
	ck_assert_int_eq(subject_table_load(&l, sub, RAW, sum_a, 4, &bind), 1);
	ck_assert_int_eq(subject_table_save(t, sub), 0);
	ck_assert_int_eq(subject_table_load(&l, sub, RAW, sum_a, 4, &bind), 0);
	ck_assert_uint_eq(subject_table_count(l), 4);
	subject_table_free(l);
	ck_assert_int_eq(subject_table_load(&l, sub, RAW, sum_b, 3, &bind), 1); /* no file of B */
	/* the same checksum, other files (a pack that claims it): refused */
	other.pack.mtime_nsec++;
	ck_assert_int_eq(subject_table_load(&l, sub, RAW, sum_a, 4, &other), 1);
	other = bind;
	other.idx.ino++;
	ck_assert_int_eq(subject_table_load(&l, sub, RAW, sum_a, 4, &other), 1);
	/* the file cut short: refused */
	snprintf(path, sizeof(path), "%s/pack-aa%038d.subjects", sub, 0);
	ck_assert_int_eq(truncate(path, (off_t)len - 1), 0);
	ck_assert_int_eq(subject_table_load(&l, sub, RAW, sum_a, 4, &bind), 1);
	/* a cache directory that cannot be made: no file, an error for the caller to ignore */
	snprintf(sub, sizeof(sub), "%s/new/git-abbrev/pack-aa%038d.subjects/x", dir, 0);
	ck_assert_int_eq(subject_table_save(t, sub), -1);
	/* the whole file rewritten, and nothing else left in the directory */
	snprintf(sub, sizeof(sub), "%s/new/git-abbrev", dir);
	ck_assert_int_eq(subject_table_save(t, sub), 0);
	f = fopen(path, "rb");
	ck_assert_ptr_nonnull(f);
	{
		unsigned char *c = malloc(len + 1);

		ck_assert_uint_eq(fread(c, 1, len + 1, f), len);
		ck_assert_int_eq(memcmp(c, b, len), 0);
		free(c);
	}
	fclose(f);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(rmdir(sub), 0); /* empty: no temporary file left */
	snprintf(sub, sizeof(sub), "%s/new", dir);
	ck_assert_int_eq(rmdir(sub), 0);
	ck_assert_int_eq(rmdir(dir), 0);
	subject_table_free(t);
}
END_TEST

/* Write the table of sum_a bound to dir/<name> (a file made here) into cache. */
static void save_bound(const char *cache, const char *pack, int64_t used)
{
	subject_table *t = table_a();
	subject_bind b = { { 0 }, { 0 }, pack };
	struct timespec ts[2] = { { (time_t)used, 0 }, { (time_t)used, 0 } };
	struct stat st;
	char path[600], hex[2 * RAW + 1];
	FILE *f = fopen(pack, "w");

	ck_assert_ptr_nonnull(f);
	fclose(f);
	ck_assert_int_eq(stat(pack, &st), 0);
	b.pack.dev = (uint64_t)st.st_dev;
	b.pack.ino = (uint64_t)st.st_ino;
	b.pack.size = (uint64_t)st.st_size;
	ck_assert_int_eq(subject_table_bind(t, &b), 0);
	ck_assert_int_eq(subject_table_save(t, cache), 0);
	for (size_t i = 0; i < RAW; i++)
		sprintf(hex + 2 * i, "%02x", sum_a[i]);
	snprintf(path, sizeof(path), "%s/pack-%s.subjects", cache, hex);
	ck_assert_int_eq(utimensat(AT_FDCWD, path, ts, 0), 0);
	subject_table_free(t);
}

/*
 * The directory: a table names its pack (present, then gone when the pack
 * is removed from a directory still there), tidy() keeps it under a cap,
 * the longest unused first, clear() removes tables and temporary files
 * only.  Tables of one checksum share a name, so each lives in a cache of
 * its own and the caches' files are moved into one.
 */
START_TEST(test_directory)
{
	char dir[] = "/tmp/check-subject-cache-dir.XXXXXX", cache[300], c2[300], pack[300],
	     a[700], b[700], keep[300];
	subject_cache_entry *v;
	size_t n, removed;
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(cache, sizeof(cache), "%s/cache", dir);
	snprintf(c2, sizeof(c2), "%s/c2", dir);
	ck_assert_int_eq(subject_cache_list(cache, &v, &n), 1); /* none yet */
	snprintf(pack, sizeof(pack), "%s/pack-old.pack", dir);
	save_bound(c2, pack, 1000000000);
	{
		/* move the one file of c2 under another name into cache */
		char cmd[1600];

		snprintf(cmd, sizeof(cmd), "mkdir -p %s && mv %s/pack-*.subjects %s/pack-%040d.subjects",
			 cache, c2, cache, 1);
		ck_assert_int_eq(system(cmd), 0);
	}
	snprintf(keep, sizeof(keep), "%s/pack-new.pack", dir);
	save_bound(cache, keep, 2000000000);
	snprintf(b, sizeof(b), "%s/other-file", cache); /* not a table: ignored */
	f = fopen(b, "w");
	ck_assert_ptr_nonnull(f);
	fclose(f);
	ck_assert_int_eq(subject_cache_list(cache, &v, &n), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(v[0].used, 1000000000); /* the longest unused first */
	ck_assert_str_eq(v[0].pack, pack);
	ck_assert_int_eq(v[0].exists, 1);
	ck_assert_str_eq(v[1].pack, keep);
	ck_assert_int_eq(v[1].exists, 1);
	ck_assert_uint_gt(v[0].size, 152 + strlen(pack));
	/* a cap both fit under: nothing removed */
	ck_assert_int_eq(subject_cache_tidy(cache, v[0].size + v[1].size), 0);
	subject_cache_list_free(v, n);
	ck_assert_int_eq(subject_cache_list(cache, &v, &n), 0);
	ck_assert_uint_eq(n, 2);
	/* one byte less: the older goes */
	ck_assert_int_eq(subject_cache_tidy(cache, v[0].size + v[1].size - 1), 0);
	subject_cache_list_free(v, n);
	ck_assert_int_eq(subject_cache_list(cache, &v, &n), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(v[0].pack, keep);
	subject_cache_list_free(v, n);
	/* its pack removed from a directory still there: gone, and tidy removes it */
	ck_assert_int_eq(unlink(keep), 0);
	ck_assert_int_eq(subject_cache_list(cache, &v, &n), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(v[0].exists, 0);
	ck_assert_int_eq(v[0].gone, 1);
	subject_cache_list_free(v, n);
	ck_assert_int_eq(subject_cache_tidy(cache, UINT64_MAX), 0);
	ck_assert_int_eq(subject_cache_list(cache, &v, &n), 0);
	ck_assert_uint_eq(n, 0);
	subject_cache_list_free(v, n);
	/* clear: tables and temporary files, not the rest */
	save_bound(cache, keep, 2000000000);
	snprintf(a, sizeof(a), "%s/pack-%040d.subjects.tmp99999999", cache, 2);
	f = fopen(a, "w");
	ck_assert_ptr_nonnull(f);
	fclose(f);
	ck_assert_int_eq(subject_cache_clear(cache, &removed), 0);
	ck_assert_uint_eq(removed, 2);
	ck_assert_int_eq(unlink(b), 0); /* still there */
	ck_assert_int_eq(rmdir(cache), 0); /* and nothing else */
	ck_assert_int_eq(unlink(pack), 0);
	ck_assert_int_eq(unlink(keep), 0);
	ck_assert_int_eq(rmdir(c2), 0);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* Little-endian fields of a table's bytes. */
static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/*
 * A table of many commits (sorted on two threads, the positions in three
 * radix passes): every row once, entries in order of folded subject then
 * position, the position list in position order.  Subjects repeat (5,000
 * of them for 40,000 rows, some with blanks to fold, long common
 * prefixes); positions are a shuffle, spread over 31 bits.
 */
START_TEST(test_build_large)
{
	enum { N = 40000 };
	subject_row *rows = malloc(N * sizeof(*rows));
	char (*subj)[64] = malloc(N * sizeof(*subj));
	uint32_t *perm = malloc(N * sizeof(*perm)), *seen = calloc(N, sizeof(*seen));
	uint64_t state = 7;
	const unsigned char *b, *ent, *bypos;
	const char *text;
	subject_table *t;
	size_t len;
	uint32_t n;

	ck_assert(rows && subj && perm && seen);
	for (uint32_t i = 0; i < N; i++)
		perm[i] = i;
	for (uint32_t i = N - 1; i > 0; i--) {
		uint32_t j = test_rand(&state) % (i + 1), x = perm[i];

		perm[i] = perm[j];
		perm[j] = x;
	}
	for (uint32_t i = 0; i < N; i++) {
		snprintf(subj[i], sizeof(subj[i]),
			 i % 7 ? "merge branch 'topic/%05u'" : " merge  branch 'topic/%05u'\t",
			 (i * 7919) % 5000);
		rows[i] = (subject_row){ subj[i], perm[i] * 50000u + 3, (int64_t)i, 0, 0 };
	}
	ck_assert_int_eq(subject_table_build(&t, RAW, sum_a, UINT32_MAX, rows, N), 0);
	b = subject_table_bytes(t, &len);
	n = le32(b + 52);
	ck_assert_uint_eq(n, N);
	/* the header, with the files it is for (and no pack path), the parents' counts (none) */
	ck_assert_uint_eq(le32(b + 152), UINT32_MAX);
	ent = b + 160;
	bypos = ent + (size_t)n * 24;
	text = (const char *)bypos + (size_t)n * 4;
	for (uint32_t i = 0; i < n; i++) {
		const unsigned char *e = ent + (size_t)i * 24;
		uint32_t pos = le32(e + 8), row = le32(e + 16);
		char want[64];

		/* each row once (its time is its index), its key folded, its subject as given */
		ck_assert_uint_lt(row, N);
		ck_assert_uint_eq(seen[row]++, 0);
		ck_assert_uint_eq(pos, rows[row].pos);
		subject_fold(want, subj[row], strlen(subj[row]));
		ck_assert_str_eq(text + le32(e), want);
		ck_assert_str_eq(text + le32(e + 4), subj[row]);
		if (i) {
			const unsigned char *d = e - 24;
			int c = strcmp(text + le32(d), text + le32(e));

			ck_assert(c < 0 || (c == 0 && le32(d + 8) < pos));
		}
		/* the position list: every entry once, positions ascending */
		ck_assert_uint_lt(le32(bypos + 4 * (size_t)i), n);
		if (i)
			ck_assert_uint_lt(le32(ent + (size_t)le32(bypos + 4 * (size_t)(i - 1)) * 24 + 8),
					  le32(ent + (size_t)le32(bypos + 4 * (size_t)i) * 24 + 8));
	}
	subject_table_free(t);
	free(rows);
	free(subj);
	free(perm);
	free(seen);
}
END_TEST

/* Put a file's CRC-32 (its last four bytes) right again. */
static void types_recrc(unsigned char *img, size_t len)
{
	uLong c = crc32(crc32(0, NULL, 0), img, (uInt)(len - 4));

	for (int i = 0; i < 4; i++)
		img[len - 4 + i] = (unsigned char)(c >> (8 * i));
}

static void types_write(const char *path, const unsigned char *img, size_t len)
{
	FILE *f = fopen(path, "wb");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(img, 1, len, f), len);
	fclose(f);
}

/*
 * A types table: seven objects (one byte's four and three in the next,
 * whose last two bits stay unused), every type, and the one tag's
 * target; the file read back gives them, and answers only for its pack's
 * checksum, count and files; a flipped bit in the body (its CRC then
 * wrong), in the unused bits, or a tag row naming a position that is not
 * a tag or an object of no type (the CRC recomputed) is refused; a type
 * that is not one of the four, or a tag at a position that is not a
 * tag's, is not written.
 */
START_TEST(test_types)
{
	static const unsigned char types[7] = { 1, 2, 3, 4, 3, 3, 1 };
	char dir[] = "/tmp/check-types-cache.XXXXXX", path[512];
	subject_bind bind = { { 1, 2, 3, 4, 5 }, { 1, 6, 7, 8, 9 }, "/x/pack-aa.pack" }, other;
	unsigned char got[7], img[512], bad[7] = { 1, 2, 3, 0, 3, 3, 1 };
	subject_tag tag = { 3, 1, { 0x12, 0x34 } }, wrong = { 2, 1, { 0x12, 0x34 } }, *gt = NULL;
	size_t len, plen = strlen(bind.pack_path), nt = 9, row;
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(subject_types_load(dir, RAW, sum_a, 7, &bind, got, &gt, &nt), 1);
	ck_assert_ptr_null(gt);
	ck_assert_uint_eq(nt, 0);
	ck_assert_int_eq(subject_types_save(dir, RAW, sum_a, 7, &bind, types, &tag, 1), 0);
	memset(got, 0, sizeof(got));
	ck_assert_int_eq(subject_types_load(dir, RAW, sum_a, 7, &bind, got, &gt, &nt), 0);
	ck_assert_mem_eq(got, types, 7);
	ck_assert_uint_eq(nt, 1);
	ck_assert_uint_eq(gt[0].pos, 3);
	ck_assert_uint_eq(gt[0].type, 1);
	ck_assert_mem_eq(gt[0].target, tag.target, RAW);
	free(gt);
	/* another pack, count or file: no table */
	ck_assert_int_eq(subject_types_load(dir, RAW, sum_b, 7, &bind, got, &gt, &nt), 1);
	ck_assert_int_eq(subject_types_load(dir, RAW, sum_a, 6, &bind, got, &gt, &nt), 1);
	other = bind;
	other.pack.ino++;
	ck_assert_int_eq(subject_types_load(dir, RAW, sum_a, 7, &other, got, &gt, &nt), 1);
	other = bind;
	other.idx.mtime_nsec++;
	ck_assert_int_eq(subject_types_load(dir, RAW, sum_a, 7, &other, got, &gt, &nt), 1);
	/* the file: 152 bytes of header, the path, two bytes of types, the tags, the CRC */
	snprintf(path, sizeof(path), "%s/pack-aa%038d.types", dir, 0);
	f = fopen(path, "rb");
	ck_assert_ptr_nonnull(f);
	len = fread(img, 1, sizeof(img), f);
	fclose(f);
	row = 152 + plen + 2 + 4;
	ck_assert_uint_eq(len, row + 8 + RAW + 4);
	/* types less one, two bits each from the lowest: 0 1 2 3 | 2 2 0 */
	ck_assert_uint_eq(img[152 + plen], 0xe4);
	ck_assert_uint_eq(img[152 + plen + 1], 0x0a);
	/* one tag: at position 3, pointing at a commit, 12 34 00 ... */
	ck_assert_uint_eq(img[row - 4], 1);
	ck_assert_uint_eq(img[row], 3);
	ck_assert_uint_eq(img[row + 4], 1);
	ck_assert_uint_eq(img[row + 8], 0x12);
	/* a bit of the body flipped: the CRC disagrees */
	img[152 + plen] ^= 1;
	types_write(path, img, len);
	ck_assert_int_eq(subject_types_load(dir, RAW, sum_a, 7, &bind, got, &gt, &nt), 1);
	img[152 + plen] ^= 1;
	/* an unused bit set, the CRC right: refused all the same */
	img[152 + plen + 1] |= 0x40;
	types_recrc(img, len);
	types_write(path, img, len);
	ck_assert_int_eq(subject_types_load(dir, RAW, sum_a, 7, &bind, got, &gt, &nt), 1);
	img[152 + plen + 1] &= (unsigned char)~0x40;
	/* the tag row at a blob's position, or pointing at no type: refused */
	img[row] = 2;
	types_recrc(img, len);
	types_write(path, img, len);
	ck_assert_int_eq(subject_types_load(dir, RAW, sum_a, 7, &bind, got, &gt, &nt), 1);
	ck_assert_ptr_null(gt);
	img[row] = 3;
	img[row + 4] = 5;
	types_recrc(img, len);
	types_write(path, img, len);
	ck_assert_int_eq(subject_types_load(dir, RAW, sum_a, 7, &bind, got, &gt, &nt), 1);
	img[row + 4] = 1;
	/* a count of tags past the rows there are: refused */
	img[row - 4] = 2;
	types_recrc(img, len);
	types_write(path, img, len);
	ck_assert_int_eq(subject_types_load(dir, RAW, sum_a, 7, &bind, got, &gt, &nt), 1);
	img[row - 4] = 1;
	/* all put back (and its CRC): a good table again, the tests above were fair */
	types_recrc(img, len);
	types_write(path, img, len);
	ck_assert_int_eq(subject_types_load(dir, RAW, sum_a, 7, &bind, got, &gt, &nt), 0);
	ck_assert_mem_eq(got, types, 7);
	ck_assert_uint_eq(nt, 1);
	free(gt);
	/* not one of the four types, or a tag where the types have none: nothing written */
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(subject_types_save(dir, RAW, sum_a, 7, &bind, bad, NULL, 0), 0);
	ck_assert_int_eq(access(path, F_OK), -1);
	ck_assert_int_eq(subject_types_save(dir, RAW, sum_a, 7, &bind, types, &wrong, 1), 0);
	ck_assert_int_eq(access(path, F_OK), -1);
	ck_assert_int_eq(rmdir(dir), 0); /* and no temporary file left */
}
END_TEST

/* Notes kept and read back; another stamp, pack, file or key: none */
START_TEST(test_notes)
{
	char dir[] = "/tmp/check-notes-cache.XXXXXX", path[600];
	subject_bind bind = { { 1, 2, 3, 4, 5 }, { 1, 6, 7, 8, 9 }, "/x/pack-aa.pack" }, other;
	commit_notes nt = { 0 }, got;
	size_t removed;
	uint32_t v;
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(commit_notes_load(dir, RAW, sum_a, 9, &bind, (const unsigned char *)"s1", 2,
					   &got), 1);
	ck_assert_int_eq(commit_notes_add(&nt, 7, 70), 0);
	ck_assert_int_eq(commit_notes_add(&nt, 2, 20), 0);
	ck_assert_int_eq(commit_notes_add(&nt, 7, 71), 0); /* the later one stays */
	ck_assert_int_eq(commit_notes_sort(&nt), 0);
	ck_assert_uint_eq(nt.n, 2);
	ck_assert_int_eq(commit_notes_save(dir, RAW, sum_a, 9, &bind, (const unsigned char *)"s1", 2,
					   &nt), 0);
	ck_assert_int_eq(commit_notes_load(dir, RAW, sum_a, 9, &bind, (const unsigned char *)"s1", 2,
					   &got), 0);
	ck_assert_uint_eq(got.n, 2);
	ck_assert_int_eq(commit_notes_find(&got, 2, &v), 1);
	ck_assert_uint_eq(v, 20);
	ck_assert_int_eq(commit_notes_find(&got, 7, &v), 1);
	ck_assert_uint_eq(v, 71);
	ck_assert_int_eq(commit_notes_find(&got, 3, &v), 0);
	commit_notes_free(&got);
	ck_assert_int_eq(commit_notes_load(dir, RAW, sum_a, 9, &bind, (const unsigned char *)"s2", 2,
					   &got), 1);
	ck_assert_int_eq(commit_notes_load(dir, RAW, sum_b, 9, &bind, (const unsigned char *)"s1", 2,
					   &got), 1);
	ck_assert_int_eq(commit_notes_load(dir, RAW, sum_a, 8, &bind, (const unsigned char *)"s1", 2,
					   &got), 1);
	other = bind;
	other.pack.ino++;
	ck_assert_int_eq(commit_notes_load(dir, RAW, sum_a, 9, &other, (const unsigned char *)"s1", 2,
					   &got), 1);
	/* a new key: the file is not sealed with it */
	snprintf(path, sizeof(path), "%s/key", dir);
	f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite("0123456789abcdef", 1, 16, f), 16);
	fclose(f);
	ck_assert_int_eq(chmod(path, 0600), 0);
	ck_assert_int_eq(commit_notes_load(dir, RAW, sum_a, 9, &bind, (const unsigned char *)"s1", 2,
					   &got), 1);
	/* a key others can read: no key, no notes */
	ck_assert_int_eq(commit_notes_save(dir, RAW, sum_a, 9, &bind, (const unsigned char *)"s1", 2,
					   &nt), 0);
	ck_assert_int_eq(chmod(path, 0644), 0);
	ck_assert_int_eq(commit_notes_load(dir, RAW, sum_a, 9, &bind, (const unsigned char *)"s1", 2,
					   &got), 1);
	commit_notes_free(&nt);
	/* --clear removes the notes (the one file), not the key */
	ck_assert_int_eq(subject_cache_clear(dir, &removed), 0);
	ck_assert_uint_eq(removed, 1);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* The file of the notes in dir (the one .notes file there) read whole: its bytes, *len of them. */
static unsigned char *notes_file(const char *dir, char *path, size_t pathsz, size_t *len)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	unsigned char *img = NULL;
	FILE *f;
	long n;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)))
		if (strstr(e->d_name, ".notes"))
			snprintf(path, pathsz, "%s/%s", dir, e->d_name);
	closedir(d);
	f = fopen(path, "rb");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	ck_assert_int_gt(n, 0);
	rewind(f);
	img = malloc((size_t)n);
	ck_assert_ptr_nonnull(img);
	ck_assert_uint_eq(fread(img, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return img;
}

static void notes_write(const char *path, const unsigned char *img, size_t len)
{
	FILE *f = fopen(path, "wb");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(img, 1, len, f), len);
	fclose(f);
	ck_assert_int_eq(chmod(path, 0600), 0);
}

/*
 * Notes with bytes (verify's digests) kept and read back, also after a
 * note is added to notes loaded; a byte of them changed with the CRC made
 * right (no seal can be made without the key), the file cut short, or
 * another build's stamp: not used.
 */
START_TEST(test_notes_bytes)
{
	char dir[] = "/tmp/check-notes-bytes.XXXXXX", path[600];
	subject_bind bind = { { 1, 2, 3, 4, 5 }, { 1, 6, 7, 8, 9 }, "/x/pack-aa.pack" };
	const unsigned char *st = (const unsigned char *)"build-1";
	commit_notes nt = { 0 }, got;
	const unsigned char *b;
	unsigned char *img;
	size_t n, len;
	uint32_t v;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(commit_notes_add_bytes(&nt, 5, 3, (const unsigned char *)"five", 4), 0);
	ck_assert_int_eq(commit_notes_add(&nt, 1, 10), 0);
	ck_assert_int_eq(commit_notes_add_bytes(&nt, 8, 2, (const unsigned char *)"eight!", 6), 0);
	ck_assert_int_eq(commit_notes_add_bytes(&nt, 5, 4, (const unsigned char *)"FIVE", 4), 0);
	ck_assert_int_eq(commit_notes_sort(&nt), 0);
	ck_assert_int_eq(commit_notes_save(dir, RAW, sum_a, 9, &bind, st, 7, &nt), 0);
	commit_notes_free(&nt);
	ck_assert_int_eq(commit_notes_load(dir, RAW, sum_a, 9, &bind, st, 7, &got), 0);
	ck_assert_uint_eq(got.n, 3);
	ck_assert_int_eq(commit_notes_find_bytes(&got, 1, &v, &b, &n), 1);
	ck_assert_uint_eq(v, 10);
	ck_assert_uint_eq(n, 0);
	ck_assert_int_eq(commit_notes_find_bytes(&got, 5, &v, &b, &n), 1); /* the later one */
	ck_assert_uint_eq(v, 4);
	ck_assert_uint_eq(n, 4);
	ck_assert_mem_eq(b, "FIVE", 4);
	ck_assert_int_eq(commit_notes_find_bytes(&got, 8, &v, &b, &n), 1);
	ck_assert_uint_eq(n, 6);
	ck_assert_mem_eq(b, "eight!", 6);
	ck_assert_int_eq(commit_notes_find_bytes(&got, 2, &v, &b, &n), 0);
	/* one more on the notes as loaded: the file's rows and bytes stay */
	ck_assert_int_eq(commit_notes_add_bytes(&got, 2, 7, (const unsigned char *)"two", 3), 0);
	ck_assert_int_eq(commit_notes_sort(&got), 0);
	ck_assert_int_eq(commit_notes_save(dir, RAW, sum_a, 9, &bind, st, 7, &got), 0);
	commit_notes_free(&got);
	ck_assert_int_eq(commit_notes_load(dir, RAW, sum_a, 9, &bind, st, 7, &got), 0);
	ck_assert_uint_eq(got.n, 4);
	ck_assert_int_eq(commit_notes_find_bytes(&got, 2, &v, &b, &n), 1);
	ck_assert_uint_eq(v, 7);
	ck_assert_mem_eq(b, "two", 3);
	ck_assert_int_eq(commit_notes_find_bytes(&got, 8, &v, &b, &n), 1);
	ck_assert_mem_eq(b, "eight!", 6);
	commit_notes_free(&got);
	/* another build's stamp */
	ck_assert_int_eq(commit_notes_load(dir, RAW, sum_a, 9, &bind,
					   (const unsigned char *)"build-2", 7, &got), 1);
	/* a byte of a digest changed, the CRC made right: the seal is wrong */
	img = notes_file(dir, path, sizeof(path), &len);
	{
		unsigned char *at = NULL;

		for (size_t i = 0; i + 6 <= len && !at; i++)
			if (!memcmp(img + i, "eight!", 6))
				at = img + i;
		ck_assert_ptr_nonnull(at);
		at[0] = 'E';
		put_le32(img + len - 4, subject_file_crc(img, len - 4));
		notes_write(path, img, len);
		ck_assert_int_eq(commit_notes_load(dir, RAW, sum_a, 9, &bind, st, 7, &got), 1);
		at[0] = 'e';
		put_le32(img + len - 4, subject_file_crc(img, len - 4));
		notes_write(path, img, len);
		ck_assert_int_eq(commit_notes_load(dir, RAW, sum_a, 9, &bind, st, 7, &got), 0);
		commit_notes_free(&got);
	}
	/* cut short, at every length: never used */
	for (size_t cut = 0; cut < len; cut += cut < 80 ? 1 : 7) {
		notes_write(path, img, cut);
		ck_assert_int_eq(commit_notes_load(dir, RAW, sum_a, 9, &bind, st, 7, &got), 1);
	}
	free(img);
	ck_assert_int_eq(unlink(path), 0);
	snprintf(path, sizeof(path), "%s/key", dir);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

Suite *make_subject_cache_suite(void)
{
	Suite *s = suite_create("subject_cache");
	TCase *core = tcase_create("core"), *errors = tcase_create("errors");

	tcase_add_checked_fixture(core, setup, teardown);
	tcase_add_test(core, test_fold);
	tcase_add_test(core, test_search_exact);
	tcase_add_test(core, test_search_prefix);
	tcase_add_test(core, test_lookup);
	tcase_add_test(core, test_lookup_many);
	tcase_add_test(core, test_build_large);
	tcase_add_test(core, test_parents);
	suite_add_tcase(s, core);
	tcase_add_checked_fixture(errors, setup, teardown);
	tcase_add_test(errors, test_parse_damage);
	tcase_add_test(errors, test_files);
	tcase_add_test(errors, test_types);
	tcase_add_test(errors, test_notes);
	tcase_add_test(errors, test_notes_bytes);
	tcase_add_test(errors, test_directory);
	suite_add_tcase(s, errors);
	return s;
}
