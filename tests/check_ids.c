/*
 * check_ids.c - unit tests of the ID-stream core: shards, stream lines,
 * decompression, sorting and batching, partial results and their merge.
 *
 * The merge tests are the heart: IDs made by the fixed LCG of
 * check_suites.h (shared prefixes of every length planted among them)
 * are reported whole, and split into N = 2, 16 and 256 shards whose
 * partial results go through the writer and the reader and are merged;
 * every emitter must then print the same bytes for both.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "check_suites.h"
#include "emit.h"
#include "hexid.h"
#include "idbatch.h"
#include "idline.h"
#include "idset.h"
#include "idstream.h"
#include "merge.h"
#include "partial.h"
#include "shard.h"
#include "sources.h"
#include "stats.h"

/* ---- shards ------------------------------------------------------------- */

START_TEST(test_shard_parse)
{
	shard sh;
	char err[128];

	ck_assert_int_eq(shard_parse(&sh, "3/16", err, sizeof(err)), 0);
	ck_assert_uint_eq(sh.k, 3);
	ck_assert_uint_eq(sh.n, 16);
	ck_assert_uint_eq(shard_lo(sh), 0x30);
	ck_assert_uint_eq(shard_hi(sh), 0x40);
	ck_assert(shard_has_byte(sh, 0x3f));
	ck_assert(!shard_has_byte(sh, 0x40));
	ck_assert(!shard_has_byte(sh, 0x2f));
	ck_assert_int_eq(shard_parse(&sh, "255/256", err, sizeof(err)), 0);
	ck_assert_uint_eq(shard_lo(sh), 255);
	ck_assert_uint_eq(shard_hi(sh), 256);
	ck_assert_int_eq(shard_parse(&sh, "0/1", err, sizeof(err)), 0);
	ck_assert(shard_is_all(sh));
	ck_assert_uint_eq(shard_hi(sh), 256);

	static const char *const bad[] = { "", "3", "3/", "/16", "16/16", "3/12", "3/512",
					   "-1/16", "3/0", "a/16", "3/16x", " 3/16", "3/+16",
					   "99999999999999999999/2" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		ck_assert_msg(shard_parse(&sh, bad[i], err, sizeof(err)) == -1, "%s", bad[i]);
		ck_assert_msg(strstr(err, "--shard") != NULL, "%s: %s", bad[i], err);
	}
	ck_assert_int_eq(shard_parse(&sh, NULL, err, sizeof(err)), -1);
}
END_TEST

START_TEST(test_shard_describe)
{
	char buf[64];

	ck_assert_str_eq(shard_describe(buf, sizeof(buf), (shard){ 3, 16 }), "3/16 (IDs 3...)");
	ck_assert_str_eq(shard_describe(buf, sizeof(buf), (shard){ 171, 256 }),
			 "171/256 (IDs ab...)");
	ck_assert_str_eq(shard_describe(buf, sizeof(buf), (shard){ 1, 2 }),
			 "1/2 (IDs 8... to f...)");
	ck_assert_str_eq(shard_describe(buf, sizeof(buf), (shard){ 1, 32 }),
			 "1/32 (IDs 08... to 0f...)");
	ck_assert_str_eq(shard_describe(buf, sizeof(buf), SHARD_ALL), "0/1 (all IDs)");
}
END_TEST

START_TEST(test_shard_cover)
{
	shard s[300];
	size_t a = 99, b = 99, m = 0;
	char missing[256];

	for (unsigned k = 0; k < 16; k++)
		s[m++] = (shard){ k, 16 };
	ck_assert_int_eq(shard_cover(s, m, &a, &b, missing, sizeof(missing)), 0);
	/* 3/16 given twice */
	s[m++] = (shard){ 3, 16 };
	ck_assert_int_eq(shard_cover(s, m, &a, &b, missing, sizeof(missing)), 1);
	ck_assert_uint_eq(a, 3);
	ck_assert_uint_eq(b, 16);
	/* 0/2 overlaps 0/16 .. 7/16 */
	s[16] = (shard){ 0, 2 };
	ck_assert_int_eq(shard_cover(s, m, &a, &b, missing, sizeof(missing)), 1);
	ck_assert_uint_eq(a, 0);
	ck_assert_uint_eq(b, 16);
	/* 0/2 and the second half by sixteenths, less 9/16 and 14/16 */
	m = 0;
	s[m++] = (shard){ 0, 2 };
	for (unsigned k = 8; k < 16; k++)
		if (k != 9 && k != 14)
			s[m++] = (shard){ k, 16 };
	ck_assert_int_eq(shard_cover(s, m, &a, &b, missing, sizeof(missing)), 2);
	ck_assert_str_eq(missing, "9/16, 14/16");
	/* mixed N that cover exactly: 0/2, 2/4, 6/8, 7/8 */
	s[0] = (shard){ 0, 2 };
	s[1] = (shard){ 2, 4 };
	s[2] = (shard){ 6, 8 };
	s[3] = (shard){ 7, 8 };
	ck_assert_int_eq(shard_cover(s, 4, &a, &b, missing, sizeof(missing)), 0);
	/* none: all of 0/1 missing */
	ck_assert_int_eq(shard_cover(s, 0, &a, &b, missing, sizeof(missing)), 2);
	ck_assert_str_eq(missing, "0/1");
}
END_TEST

/* ---- lines -------------------------------------------------------------- */

static const char sha1[] = "3a1f0b2c4d5e6f708192a3b4c5d6e7f801234567";
static const char sha256[] = "3a1f0b2c4d5e6f708192a3b4c5d6e7f801234567"
			     "89abcdef0123456789abcdef";

static int parse(idline *l, const char *s, size_t rawsz)
{
	return idline_parse(l, s, strlen(s), rawsz);
}

START_TEST(test_idline_good)
{
	static const struct {
		const char *prefix, *suffix;
		int type;
	} good[] = {
		{ "", " commit", ABBREV_TYPE_COMMIT },
		{ "", " tree", ABBREV_TYPE_TREE },
		{ "", " blob 1234", ABBREV_TYPE_BLOB },  /* the default format's size */
		{ "", " tag\r", ABBREV_TYPE_TAG },
		{ "", "\tblob", ABBREV_TYPE_BLOB },
		{ "swh:1:rev:", "", ABBREV_TYPE_COMMIT },
		{ "swh:1:rel:", "", ABBREV_TYPE_TAG },
		{ "swh:1:dir:", "", ABBREV_TYPE_TREE },
		{ "swh:1:cnt:", ";origin=https://example.org/x;lines=1-3", ABBREV_TYPE_BLOB },
		{ "swh:1:cnt:", " extra fields", ABBREV_TYPE_BLOB },
	};
	unsigned char raw[20];
	char line[256];
	idline l;

	hexid_parse_prefix(raw, 20, sha1, 40);
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		snprintf(line, sizeof(line), "%s%s%s", good[i].prefix, sha1, good[i].suffix);
		ck_assert_msg(parse(&l, line, 0) == IDLINE_OBJECT, "%s: %s", line, l.reason);
		ck_assert_int_eq(l.type, good[i].type);
		ck_assert_uint_eq(l.rawsz, 20);
		ck_assert(!memcmp(l.id, raw, 20));
		ck_assert_int_eq(parse(&l, line, 20), IDLINE_OBJECT);
	}
	/* upper-case hex is the same ID */
	snprintf(line, sizeof(line), "3A1F0B2C4D5E6F708192A3B4C5D6E7F801234567 commit");
	ck_assert_int_eq(parse(&l, line, 20), IDLINE_OBJECT);
	ck_assert(!memcmp(l.id, raw, 20));
	/* SHA-256 */
	snprintf(line, sizeof(line), "%s tree", sha256);
	ck_assert_int_eq(parse(&l, line, 0), IDLINE_OBJECT);
	ck_assert_uint_eq(l.rawsz, 32);
	ck_assert_int_eq(l.type, ABBREV_TYPE_TREE);
	/* the other SWHID kinds */
	for (int k = 0; k < IDLINE_NOTHER; k++) {
		snprintf(line, sizeof(line), "swh:1:%s:%s", idline_other_name(k), sha1);
		ck_assert_int_eq(parse(&l, line, 20), IDLINE_OTHER);
		ck_assert_int_eq(l.other, k);
	}
}
END_TEST

START_TEST(test_idline_bad)
{
	char line[256];
	idline l;
	static const char *const bad[] = {
		"", "\r", "commit", "3a1f commit", "3a1f0b2c4d5e6f708192a3b4c5d6e7f80123456 commit",
		"3a1f0b2c4d5e6f708192a3b4c5d6e7f801234567",
		"3a1f0b2c4d5e6f708192a3b4c5d6e7f801234567 ",
		"3a1f0b2c4d5e6f708192a3b4c5d6e7f801234567 comit",
		"3a1f0b2c4d5e6f708192a3b4c5d6e7f801234567 missing",
		"3a1f0b2c4d5e6f708192a3b4c5d6e7f801234567x commit",
		"3a1f0b2c4d5e6f708192a3b4c5d6e7f801234567 commits",
		"3a1f0b2c4d5e6f708192a3b4c5d6e7f801234567  commit",
		"swh:1:rev:3a1f", "swh:1:xyz:3a1f0b2c4d5e6f708192a3b4c5d6e7f801234567",
		"swh:2:rev:3a1f0b2c4d5e6f708192a3b4c5d6e7f801234567",
		"swh:1:rev", "swh:1:revv3a1f0b2c4d5e6f708192a3b4c5d6e7f801234567",
		"swh:1:rev:3a1f0b2c4d5e6f708192a3b4c5d6e7f801234567x",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_msg(parse(&l, bad[i], 0) == IDLINE_BAD, "'%s' parsed", bad[i]);
		ck_assert_ptr_nonnull(l.reason);
		ck_assert(strlen(l.reason) > 5 && !strchr(l.reason, '\n'));
	}
	/* a width other than the stream's */
	snprintf(line, sizeof(line), "%s tree", sha256);
	ck_assert_int_eq(parse(&l, line, 20), IDLINE_BAD);
	ck_assert_ptr_nonnull(strstr(l.reason, "SHA-256 ID in a stream of SHA-1"));
	snprintf(line, sizeof(line), "%s tree", sha1);
	ck_assert_int_eq(parse(&l, line, 32), IDLINE_BAD);
	snprintf(line, sizeof(line), "swh:1:rev:%s", sha1);
	ck_assert_int_eq(parse(&l, line, 32), IDLINE_BAD);
}
END_TEST

/* ---- streams ------------------------------------------------------------ */

static char tmpdir[64];

static void tmp_setup(void)
{
	strcpy(tmpdir, "/tmp/check-ids.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void tmp_teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	ck_assert_int_eq(system(cmd), 0);
}

static char *tmp_path(const char *name)
{
	static char path[128];

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	return path;
}

static void write_file(const char *path, const void *data, size_t n)
{
	FILE *f = fopen(path, "wb");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(data, 1, n, f), n);
	ck_assert_int_eq(fclose(f), 0);
}

/* Read every line of path; the lines joined with "\n" into out, their count returned. */
static int read_all(const char *path, char *out, size_t outsz, const char **comp,
		    uint64_t *bytes, uint32_t *crc, char *err, size_t errsz)
{
	idstream *s;
	const char *line;
	size_t len, o = 0;
	uint64_t lineno;
	int long_line, rc, n = 0;

	if ((rc = idstream_open(&s, path, err, errsz)))
		return rc;
	while ((rc = idstream_next(s, &line, &len, &lineno, &long_line, err, errsz)) == 1) {
		ck_assert_uint_eq(lineno, (uint64_t)++n);
		ck_assert_uint_lt(o + len + 2, outsz);
		memcpy(out + o, line, len);
		o += len;
		if (long_line)
			out[o++] = '+';
		out[o++] = '\n';
	}
	out[o] = '\0';
	*comp = idstream_compression(s);
	*bytes = idstream_bytes(s);
	*crc = idstream_crc(s);
	idstream_close(s);
	return rc ? rc : n;
}

/* Text of n lines "<i> blob" plus whatever. */
static size_t make_text(char *buf, size_t n)
{
	size_t o = 0;

	for (size_t i = 0; i < n; i++)
		o += (size_t)sprintf(buf + o, "line %zu of the stream\n", i);
	return o;
}

START_TEST(test_stream_formats)
{
	static char text[200000], got[220000];
	size_t n = make_text(text, 6000);
	uLong want_crc = crc32(crc32(0L, Z_NULL, 0), (const Bytef *)text, (uInt)n);
	char err[256];
	const char *comp;
	uint64_t bytes;
	uint32_t crc;

	/* plain */
	write_file(tmp_path("plain"), text, n);
	ck_assert_int_eq(read_all(tmp_path("plain"), got, sizeof(got), &comp, &bytes, &crc, err,
				  sizeof(err)), 6000);
	ck_assert_str_eq(got, text);
	ck_assert_str_eq(comp, "plain");
	ck_assert_uint_eq(bytes, n);
	ck_assert_uint_eq(crc, want_crc);

	/* gzip, two members (cat a.gz b.gz) */
	gzFile gz = gzopen(tmp_path("gz"), "wb");
	ck_assert_ptr_nonnull(gz);
	ck_assert_int_eq(gzwrite(gz, text, (unsigned)(n / 3)), (int)(n / 3));
	ck_assert_int_eq(gzclose(gz), Z_OK);
	gz = gzopen(tmp_path("gz"), "ab");
	ck_assert_int_eq(gzwrite(gz, text + n / 3, (unsigned)(n - n / 3)), (int)(n - n / 3));
	ck_assert_int_eq(gzclose(gz), Z_OK);
	ck_assert_int_eq(read_all(tmp_path("gz"), got, sizeof(got), &comp, &bytes, &crc, err,
				  sizeof(err)), 6000);
	ck_assert_str_eq(got, text);
	ck_assert_str_eq(comp, "gzip");
	ck_assert_uint_eq(crc, want_crc);

	/* zstd, two frames */
	size_t cap = ZSTD_compressBound(n) * 2, z1, z2;
	char *z = malloc(cap);
	ck_assert_ptr_nonnull(z);
	z1 = ZSTD_compress(z, cap, text, n / 2, 3);
	ck_assert(!ZSTD_isError(z1));
	z2 = ZSTD_compress(z + z1, cap - z1, text + n / 2, n - n / 2, 3);
	ck_assert(!ZSTD_isError(z2));
	write_file(tmp_path("zst"), z, z1 + z2);
	ck_assert_int_eq(read_all(tmp_path("zst"), got, sizeof(got), &comp, &bytes, &crc, err,
				  sizeof(err)), 6000);
	ck_assert_str_eq(got, text);
	ck_assert_str_eq(comp, "zstd");
	ck_assert_uint_eq(bytes, n);
	ck_assert_uint_eq(crc, want_crc);

	/* cut short: an error naming the file, never a shorter count */
	write_file(tmp_path("zst-cut"), z, z1 + z2 / 2);
	ck_assert_int_eq(read_all(tmp_path("zst-cut"), got, sizeof(got), &comp, &bytes, &crc, err,
				  sizeof(err)), IDSTREAM_ERR);
	ck_assert_ptr_nonnull(strstr(err, "zst-cut: zstd data cut short"));
	free(z);

	FILE *f = fopen(tmp_path("gz"), "rb");
	static char gzbytes[100000];
	size_t gn = fread(gzbytes, 1, sizeof(gzbytes), f);
	fclose(f);
	write_file(tmp_path("gz-cut"), gzbytes, gn - 10);
	ck_assert_int_eq(read_all(tmp_path("gz-cut"), got, sizeof(got), &comp, &bytes, &crc, err,
				  sizeof(err)), IDSTREAM_ERR);
	ck_assert_ptr_nonnull(strstr(err, "gz-cut: gzip data cut short"));
	gzbytes[gn / 2] ^= 0x55;
	gzbytes[gn / 2 + 1] ^= 0x55;
	write_file(tmp_path("gz-bad"), gzbytes, gn);
	ck_assert_int_eq(read_all(tmp_path("gz-bad"), got, sizeof(got), &comp, &bytes, &crc, err,
				  sizeof(err)), IDSTREAM_ERR);
	ck_assert_ptr_nonnull(strstr(err, "gz-bad: "));

	/* missing file */
	ck_assert_int_eq(read_all(tmp_path("none"), got, sizeof(got), &comp, &bytes, &crc, err,
				  sizeof(err)), IDSTREAM_ERR);
	ck_assert_ptr_nonnull(strstr(err, "none: No such file"));
}
END_TEST

START_TEST(test_stream_lines)
{
	static char text[3 * IDSTREAM_MAX_LINE], got[3 * IDSTREAM_MAX_LINE], want[64];
	char err[256];
	const char *comp;
	uint64_t bytes;
	uint32_t crc;

	/* empty input: no line */
	write_file(tmp_path("empty"), "", 0);
	ck_assert_int_eq(read_all(tmp_path("empty"), got, sizeof(got), &comp, &bytes, &crc, err,
				  sizeof(err)), 0);
	/* a last line without newline; an empty line in between */
	write_file(tmp_path("last"), "a\n\nb", 4);
	ck_assert_int_eq(read_all(tmp_path("last"), got, sizeof(got), &comp, &bytes, &crc, err,
				  sizeof(err)), 3);
	ck_assert_str_eq(got, "a\n\nb\n");
	/* a line past the limit is cut there and marked; the next one is whole */
	memset(text, 'x', IDSTREAM_MAX_LINE + 100);
	strcpy(text + IDSTREAM_MAX_LINE + 100, "\nshort\n");
	write_file(tmp_path("long"), text, strlen(text));
	ck_assert_int_eq(read_all(tmp_path("long"), got, sizeof(got), &comp, &bytes, &crc, err,
				  sizeof(err)), 2);
	ck_assert_uint_eq(strlen(got), IDSTREAM_MAX_LINE + 1 + 1 + 6);
	ck_assert_int_eq(got[IDSTREAM_MAX_LINE], '+');
	snprintf(want, sizeof(want), "+\nshort\n");
	ck_assert_str_eq(got + IDSTREAM_MAX_LINE, want);
}
END_TEST

/* ---- sorting and batching ----------------------------------------------- */

static size_t cmp_recsz;

static int cmp_rec(const void *a, const void *b)
{
	return memcmp(a, b, cmp_recsz);
}

START_TEST(test_batch_sort)
{
	static const size_t sizes[] = { 0, 1, 2, 31, 33, 1000, 20000 };
	uint64_t st = 42;

	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		size_t n = sizes[k], recsz = 21;
		unsigned char *a = malloc(n * recsz + 1), *b = malloc(n * recsz + 1);

		ck_assert(a && b);
		for (size_t i = 0; i < n; i++) {
			unsigned char *r = a + i * recsz;

			test_rand_id(r, recsz, &st);
			/* one shard's first byte, shared prefixes, exact duplicates */
			if (k % 2)
				r[0] = 0x5c;
			if (i && test_rand(&st) % 4 == 0)
				memcpy(r, r - recsz, 1 + test_rand(&st) % recsz);
		}
		memcpy(b, a, n * recsz);
		cmp_recsz = recsz;
		if (n)
			qsort(b, n, recsz, cmp_rec);
		idbatch_sort_records(a, n, recsz);
		ck_assert_msg(!n || !memcmp(a, b, n * recsz), "n = %zu", n);
		free(a);
		free(b);
	}
}
END_TEST

START_TEST(test_batch_fill)
{
	idbatch *b = idbatch_new(20);
	idsets *s = idsets_new(20);
	unsigned char id[20];
	const unsigned char *got;
	uint64_t st = 7, dups;
	char err[256];
	int type;
	idset_iter it;

	ck_assert(b && s);
	/* 500 IDs, each pushed 1 to 3 times, in random order */
	unsigned char ids[500][20];
	for (int i = 0; i < 500; i++)
		test_rand_id(ids[i], 20, &st);
	size_t pushed = 0;
	for (int round = 0; round < 3; round++)
		for (int i = 0; i < 500; i++)
			if (round == 0 || (i + round) % 3 == 0) {
				ck_assert_int_eq(idbatch_push(b, ids[(i * 7 + round) % 500],
							      1 + ids[(i * 7 + round) % 500][5] % 4), 0);
				pushed++;
			}
	ck_assert_uint_eq(idbatch_count(b), pushed);
	ck_assert_int_eq(idbatch_fill(b, s, &dups, err, sizeof(err)), 0);
	ck_assert_uint_eq(dups, pushed - 500);
	ck_assert_uint_eq(idsets_count(s, ABBREV_SET_ALL), 500);
	/* in order, each with its type */
	idset_iter_init(&it, s, ABBREV_SET_ALL);
	memset(id, 0, sizeof(id));
	for (int i = 0; i < 500; i++) {
		ck_assert(idset_iter_next(&it, &got, &type));
		ck_assert(i == 0 || memcmp(id, got, 20) < 0);
		ck_assert_int_eq(type, 1 + got[5] % 4);
		memcpy(id, got, 20);
	}
	ck_assert(!idset_iter_next(&it, &got, &type));
	idsets_free(s);
	idbatch_free(b);

	/* one ID with two types is no git object */
	b = idbatch_new(20);
	s = idsets_new(20);
	test_id(id, 20, "00ff");
	ck_assert_int_eq(idbatch_push(b, id, ABBREV_TYPE_TREE), 0);
	ck_assert_int_eq(idbatch_push(b, id, ABBREV_TYPE_COMMIT), 0);
	ck_assert_int_eq(idbatch_fill(b, s, &dups, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "00ff000000000000000000000000000000000000 is listed as a commit "
			      "and as a tree");
	idsets_free(s);
	idbatch_free(b);
}
END_TEST

/* ---- partial results and the merge -------------------------------------- */

#define NIDS 3000

static unsigned char gen_ids[NIDS * 32];
static int gen_types[NIDS];

/* The first NDUP IDs of gen_ids are read twice (an ID list's repeats). */
#define NDUP 5

/* The repeats among the IDs of a report's shard: those read, less those counted. */
static uint64_t shard_dups(const stats_report *r)
{
	return r->kept.n - r->sets[ABBREV_SET_ALL].count;
}

/*
 * The report of the IDs of gen_ids in shard sh, with its shard set and
 * the spread of all n IDs read (those of every shard, and the first NDUP
 * twice), as every shard of one run computes it.
 */
static void shard_report(stats_report *r, idsets **keep, size_t rawsz, size_t n, shard sh)
{
	idsets *s = idsets_new(rawsz);
	idset_spread sp;

	ck_assert_ptr_nonnull(s);
	for (size_t i = 0; i < n; i++)
		if (shard_has_byte(sh, gen_ids[i * rawsz]))
			ck_assert_int_ge(idsets_add(s, gen_ids + i * rawsz, gen_types[i]), 0);
	memset(r, 0, sizeof(*r));
	ck_assert_int_eq(stats_report_compute(r, s), 0);
	r->shard = sh;
	memset(&sp, 0, sizeof(sp));
	for (size_t i = 0; i < n; i++)
		idset_spread_add(&sp, gen_ids + i * rawsz, rawsz);
	for (size_t i = 0; i < NDUP && i < n; i++)
		idset_spread_add(&sp, gen_ids + i * rawsz, rawsz);
	stats_report_prints(r, &sp);
	r->improbable = 1e-4;
	*keep = s;
}

static char *to_text(int (*fn)(FILE *, const stats_report *, int), const stats_report *r,
		     int format)
{
	char *mem = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&mem, &len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fn(f, r, format), 0);
	ck_assert_int_eq(fclose(f), 0);
	return mem;
}

static int write_partial_fmt(FILE *f, const stats_report *r, int unused)
{
	(void)unused;
	return partial_write(f, r);
}

/* Write a partial result (of inputs src) and read it back. */
static void round_trip(partial *p, stats_report *r, const sources *src)
{
	char *mem = NULL, err[256];
	size_t len = 0;
	FILE *f = open_memstream(&mem, &len);

	r->sources = src;
	ck_assert_int_eq(partial_write(f, r), 0);
	fclose(f);
	f = fmemopen(mem, len, "r");
	ck_assert_msg(partial_read(p, f, "part", err, sizeof(err)) == 0, "%s", err);
	fclose(f);
	free(mem);
}

START_TEST(test_merge_equals_whole)
{
	static const unsigned ns[] = { 2, 16, 256 };
	size_t rawsz = _i ? 32 : 20;
	stats_report whole;
	idsets *ws;
	sources src = { 0 };
	source in = { .name = "ids.txt", .stream = 1, .bytes = 999, .crc = 0xabcdef01,
		      .lines = 3005, .bad = 2, .other = { 3 } };
	stats_input total;

	test_gen_ids(gen_ids, gen_types, NULL, NIDS, rawsz, 1000 + (uint64_t)_i);
	ck_assert_int_eq(sources_add(&src, &in), 0);
	shard_report(&whole, &ws, rawsz, NIDS, SHARD_ALL);
	sources_totals(&src, &total);
	total.duplicates = shard_dups(&whole);
	whole.input = &total;
	whole.sources = &src;
	whole.repos = (const char *const *)src.names;
	whole.nrepos = src.nnames;
	ck_assert_uint_gt(whole.sets[ABBREV_SET_ALL].longest, 16); /* past a Judy key */

	for (size_t k = 0; k < sizeof(ns) / sizeof(ns[0]); k++) {
		unsigned n = ns[k];
		partial *parts = calloc(n, sizeof(*parts)), merged;
		const char **paths = calloc(n, sizeof(*paths));
		char err[256];

		ck_assert(parts && paths);
		/* the shards in a shuffled order: the merge sorts them */
		for (unsigned j = 0; j < n; j++) {
			unsigned kk = (j * 5 + 3) % n;
			stats_report r;
			stats_input in_shard = total;
			idsets *s;

			if (n == 2)
				kk = 1 - j;
			shard_report(&r, &s, rawsz, NIDS, (shard){ kk, n });
			in_shard.duplicates = shard_dups(&r);
			r.input = &in_shard;
			round_trip(&parts[j], &r, &src);
			paths[j] = "part";
			stats_report_clear(&r);
			idsets_free(s);
		}
		ck_assert_int_eq(merge_partials(&merged, parts, paths, n, err, sizeof(err)), 0);
		merged.rep.improbable = whole.improbable;
		for (int fmt = ABBREV_FORMAT_TEXT; fmt <= ABBREV_FORMAT_CLASSIC; fmt++) {
			for (int set = 0; set < ABBREV_SET_COUNT; set++) {
				char *a, *b;

				if (set && fmt != ABBREV_FORMAT_CLASSIC)
					break;
				whole.set = merged.rep.set = set;
				a = to_text(emit_report, &whole, fmt);
				b = to_text(emit_report, &merged.rep, fmt);
				ck_assert_msg(!strcmp(a, b), "N = %u, format %d differs", n, fmt);
				free(a);
				free(b);
			}
		}
		/* and the partial result of the merge is the whole run's */
		{
			char *a = to_text(write_partial_fmt, &whole, 0);
			char *b = to_text(write_partial_fmt, &merged.rep, 0);

			ck_assert_str_eq(a, b);
			free(a);
			free(b);
		}
		partial_clear(&merged);
		for (unsigned j = 0; j < n; j++)
			partial_clear(&parts[j]);
		free(parts);
		free(paths);
	}
	stats_report_clear(&whole);
	idsets_free(ws);
	sources_clear(&src);
}
END_TEST

START_TEST(test_merge_errors)
{
	partial parts[4];
	const char *paths[4] = { "a.part", "b.part", "c.part", "d.part" };
	stats_report r;
	idsets *s;
	sources none = { 0 };
	partial merged;
	char err[256];

	test_gen_ids(gen_ids, gen_types, NULL, 200, 20, 3);
	shard_report(&r, &s, 20, 200, (shard){ 0, 2 });
	round_trip(&parts[0], &r, &none);
	stats_report_clear(&r);
	idsets_free(s);
	shard_report(&r, &s, 20, 200, (shard){ 1, 4 });
	round_trip(&parts[1], &r, &none);
	stats_report_clear(&r);
	idsets_free(s);
	shard_report(&r, &s, 20, 200, (shard){ 1, 4 });
	round_trip(&parts[2], &r, &none);
	stats_report_clear(&r);
	idsets_free(s);
	shard_report(&r, &s, 20, 200, (shard){ 3, 4 });
	round_trip(&parts[3], &r, &none);
	stats_report_clear(&r);
	idsets_free(s);

	ck_assert_int_eq(merge_partials(&merged, parts, paths, 2, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "parts of different shard counts: a.part is a part of 2, b.part of 4");
	ck_assert_int_eq(merge_partials(&merged, parts + 1, paths + 1, 2, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "shard 1/4 (IDs 4... to 7...) is given twice: b.part and c.part");
	ck_assert_int_eq(merge_partials(&merged, parts + 2, paths + 2, 2, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "shards missing: 0/4, 2/4");
	ck_assert_int_eq(merge_partials(&merged, parts, paths, 0, err, sizeof(err)), -1);
	for (int i = 0; i < 4; i++)
		partial_clear(&parts[i]);
}
END_TEST

/* A damaged partial result is refused with its line. */
START_TEST(test_partial_damaged)
{
	static const struct {
		const char *from, *to, *msg;
	} edits[] = {
		{ "git-abbrev partial 2", "git-abbrev partial 9", "part:1: not a partial result" },
		{ "git-abbrev partial 2", "git-abbrev partial 1", "part:1: a partial result of an older" },
		{ "\nend\n", "\n", "not a record" },
		{ "\nkept ids=", "\nkept ids=1", "the IDs kept are not those of shard 0/1" },
		{ "\nset all count=", "\nset all count=1", "the set of all objects counts" },
		{ "hash sha1", "hash md5", "part:2: unknown hash" },
		{ "shard 0/1", "shard 0/3", "part:3: a shard is K/N" },
		{ "length all 5 ", "length all 6 ", "lengths run from 4" },
		{ "set tag ", "set tig ", "unknown set" },
		{ "\ncvo 4 ", "\ncvo 5 ", "commit-vs-other lengths run" },
		{ "\nmember all ", "\nmember all x", "a member is a full ID" },
		{ "\ngroup all ", "\ngroup all 99", "a group has a shared length" },
		{ "\nend\n", "\nend\nhash sha1\n", "a record after \"end\"" },
		{ "\nend\n", "\nend\nsha256 00\nsha256 00\n", "a record after the digest" },
		{ "\nset commit", "\nset all", "a set given twice" },
		{ "source stream \"a b\\\"c\"", "source stream \"a b\\qc\"", "not a record" },
	};
	stats_report r;
	idsets *s;
	sources src = { 0 };
	source in = { .name = "a b\"c", .stream = 1, .lines = 10 };
	stats_input total;
	char *mem = NULL, err[256], *edited;
	size_t len = 0;
	FILE *f;
	partial p;

	test_gen_ids(gen_ids, gen_types, NULL, 400, 20, 11);
	shard_report(&r, &s, 20, 400, SHARD_ALL);
	ck_assert_int_eq(sources_add(&src, &in), 0);
	f = open_memstream(&mem, &len);
	r.sources = &src;
	sources_totals(&src, &total);
	total.duplicates = shard_dups(&r);
	r.input = &total;
	ck_assert_int_eq(partial_write(f, &r), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(mem, "\nmember all "));
	for (size_t i = 0; i < sizeof(edits) / sizeof(edits[0]); i++) {
		char *at = strstr(mem, edits[i].from);

		ck_assert_msg(at != NULL, "%s not in the partial result", edits[i].from);
		edited = malloc(len + 64);
		ck_assert_ptr_nonnull(edited);
		memcpy(edited, mem, (size_t)(at - mem));
		strcpy(edited + (at - mem), edits[i].to);
		strcat(edited, at + strlen(edits[i].from));
		/* the records are checked without the digest, which no edit matches */
		f = fmemopen(edited, strlen(edited), "r");
		ck_assert_int_eq(partial_read_unsealed(&p, f, "part", err, sizeof(err)), -1);
		ck_assert_msg(strstr(err, edits[i].msg) != NULL, "edit %zu: %s", i, err);
		ck_assert_msg(!strncmp(err, "part:", 5), "%s", err);
		fclose(f);
		if (i > 1) {
			f = fmemopen(edited, strlen(edited), "r");
			ck_assert_int_eq(partial_read(&p, f, "part", err, sizeof(err)), -1);
			ck_assert_msg(strstr(err, "the sha256 digest does not match") ||
				      strstr(err, "a sha256 digest that is not") ||
				      strstr(err, "cut short"), "edit %zu, sealed: %s", i, err);
			fclose(f);
		}
		free(edited);
	}
	/* the untouched file reads back, with the quoted name */
	f = fmemopen(mem, len, "r");
	ck_assert_int_eq(partial_read(&p, f, "part", err, sizeof(err)), 0);
	ck_assert_str_eq(p.src.v[0].name, "a b\"c");
	ck_assert_uint_eq(p.input.lines, 10);
	fclose(f);
	partial_clear(&p);
	free(mem);
	stats_report_clear(&r);
	idsets_free(s);
	sources_clear(&src);
}
END_TEST

START_TEST(test_sources)
{
	sources l = { 0 };
	source a = { .name = "-", .stream = 1, .bytes = 10, .crc = 1, .lines = 2, .bad = 1 };
	source b = a;
	stats_input t;

	b.crc = 2;
	ck_assert_int_eq(sources_add(&l, &a), 0);
	ck_assert_int_eq(sources_add(&l, &a), 0);   /* the same input again: once */
	ck_assert_int_eq(sources_add(&l, &b), 0);   /* same name, other content: adds up */
	ck_assert_uint_eq(l.n, 2);
	ck_assert_uint_eq(l.nnames, 1);
	sources_totals(&l, &t);
	ck_assert_uint_eq(t.lines, 4);
	ck_assert_uint_eq(t.bad, 2);
	sources_clear(&l);
}
END_TEST

/* A shard of a collection: filtered while adding, or copied afterwards. */
START_TEST(test_idsets_range)
{
	idsets *all = idsets_new(20), *kept = idsets_new(20), *copy;
	uint64_t st = 5;
	size_t in_shard = 0;
	shard sh = { 5, 16 };

	ck_assert(all && kept);
	idsets_keep_range(kept, shard_lo(sh), shard_hi(sh));
	for (int i = 0; i < 3000; i++) {
		unsigned char id[20];
		int type = 1 + i % 3, a, k; /* no tags: those are kept whatever their shard */

		test_rand_id(id, 20, &st);
		a = idsets_add(all, id, type);
		k = idsets_add(kept, id, type);
		ck_assert_int_eq(a, 1);
		ck_assert_int_eq(k, shard_has_byte(sh, id[0]) ? 1 : 0);
		in_shard += (size_t)k;
	}
	ck_assert_uint_gt(in_shard, 100);
	copy = idsets_copy_range(all, shard_lo(sh), shard_hi(sh));
	ck_assert_ptr_nonnull(copy);
	for (int set = 0; set < ABBREV_SET_COUNT; set++) {
		idset_iter a, b;
		const unsigned char *x, *y;
		int tx, ty;

		ck_assert_uint_eq(idsets_count(copy, set), idsets_count(kept, set));
		idset_iter_init(&a, copy, set);
		idset_iter_init(&b, kept, set);
		while (idset_iter_next(&a, &x, &tx)) {
			ck_assert(idset_iter_next(&b, &y, &ty));
			ck_assert(!memcmp(x, y, 20) && tx == ty);
		}
		ck_assert(!idset_iter_next(&b, &y, &ty));
	}
	/* an annotated tag of another shard stays (tag chains cross shards), and a copy drops it */
	unsigned char tag[20] = { 0xf0, 1 };

	ck_assert_int_eq(idsets_add(kept, tag, ABBREV_TYPE_TAG), 1);
	idsets_free(copy);
	copy = idsets_copy_range(kept, shard_lo(sh), shard_hi(sh));
	ck_assert_ptr_nonnull(copy);
	ck_assert_uint_eq(idsets_count(copy, ABBREV_SET_ALL), in_shard);
	idsets_free(all);
	idsets_free(kept);
	idsets_free(copy);
}
END_TEST

Suite *make_ids_suite(void)
{
	Suite *s = suite_create("ids");
	TCase *tc = tcase_create("core");
	TCase *io = tcase_create("streams");

	tcase_add_test(tc, test_shard_parse);
	tcase_add_test(tc, test_shard_describe);
	tcase_add_test(tc, test_shard_cover);
	tcase_add_test(tc, test_idline_good);
	tcase_add_test(tc, test_idline_bad);
	tcase_add_test(tc, test_batch_sort);
	tcase_add_test(tc, test_batch_fill);
	tcase_add_test(tc, test_sources);
	tcase_add_test(tc, test_idsets_range);
	tcase_add_loop_test(tc, test_merge_equals_whole, 0, 2);
	tcase_add_test(tc, test_merge_errors);
	tcase_add_test(tc, test_partial_damaged);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	tcase_add_checked_fixture(io, tmp_setup, tmp_teardown);
	tcase_add_test(io, test_stream_formats);
	tcase_add_test(io, test_stream_lines);
	suite_add_tcase(s, io);
	return s;
}
