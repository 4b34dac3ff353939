/*
 * check_objread.c - unit tests of reading objects straight from the packs
 * (objread.h): a pack's commits found from its entry headers and by
 * their IDs, a second reader for another thread, a commit's first bytes,
 * the same bytes read with the maps' pages let go in between, and a
 * header or a stream that cannot be read.
 *
 * The repository is made here by git, which is the oracle: its commits
 * (`git cat-file --batch-all-objects`), their bytes (`git cat-file
 * commit`) and their offsets (`git verify-pack -v`).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "commit.h"
#include "objread.h"

#define RAW 20
#define COMMITS 40

static char tmpdir[64];

/* Run the shell script in the temporary directory; it must succeed. */
static void sh(const char *script)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "cd '%s' && %s", tmpdir, script);
	ck_assert_msg(system(cmd) == 0, "failed: %s", cmd);
}

/*
 * A repository of COMMITS commits (every fifth with a 12 KB message, some
 * others with 1.2 KB of random text, which no delta stores), a tag, one
 * pack: made once for the test case (an unchecked fixture, in the runner),
 * as base; each test gets a copy r of it (two of them damage the pack).
 */
static void setup_once(void)
{
	strcpy(tmpdir, "/tmp/check-objread.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
	sh("git init -q base && cd base && git config user.name T && git config user.email t@t && "
	   "for i in $(seq 1 40); do echo $i >f$i && git add f$i && "
	   "if [ $((i % 5)) = 0 ]; then m=$(seq -s ' word' 1 1500); "
	   "elif [ $((i % 3)) = 0 ]; then m=$(head -c 900 /dev/urandom | base64 -w 0); else m=; fi && "
	   "GIT_COMMITTER_DATE=\"$((1112911993 + i)) +0000\" git commit -q -m \"subject $i\" ${m:+-m \"$m\"}; "
	   "done && git tag -a -m t v1 && git repack -q -a -d --no-write-bitmap-index");
}

static void teardown_once(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	ck_assert_int_eq(system(cmd), 0);
}

static void setup(void)
{
	sh("rm -rf r && cp -a base r");
}

static void teardown(void)
{
	sh("rm -rf r");
}

/* Run cmd (in the repository) and read its output into buf: its length. */
static size_t git_out(const char *cmd, char *buf, size_t size)
{
	char full[1024];
	FILE *f;
	size_t n;

	snprintf(full, sizeof(full), "cd '%s/r' && %s", tmpdir, cmd);
	f = popen(full, "r");
	ck_assert_ptr_nonnull(f);
	n = fread(buf, 1, size - 1, f);
	buf[n] = '\0';
	ck_assert_int_eq(pclose(f), 0);
	return n;
}

/*
 * What git stores for commit h (hex): from one `git cat-file --batch` of
 * every commit, read on a test's first call, not a git per commit.
 */
static size_t git_commit(const char *h, char *buf, size_t size)
{
	static char batch[1 << 20];
	static size_t nbatch;
	char head[2 * RAW + 16], *end;
	const char *p;
	size_t len;

	if (!nbatch) {
		nbatch = git_out("git rev-list --all | git cat-file --batch", batch, sizeof(batch));
		ck_assert_uint_lt(nbatch, sizeof(batch) - 1);
	}
	snprintf(head, sizeof(head), "%s commit ", h);
	p = strstr(batch, head);
	ck_assert_msg(p != NULL, "%s is no commit to git", h);
	len = strtoul(p + strlen(head), &end, 10);
	ck_assert(*end == '\n' && len < size && (size_t)(end + 1 - batch) + len <= nbatch);
	memcpy(buf, end + 1, len);
	buf[len] = '\0';
	return len;
}

static objread *open_reader(void)
{
	char dir[128], err[512];
	objread *r;

	snprintf(dir, sizeof(dir), "%s/r/.git/objects", tmpdir);
	ck_assert_int_eq(objread_new(&r, dir, RAW, err, sizeof(err)), 0);
	ck_assert_uint_eq(objread_npacks(r), 1);
	return r;
}

static void hex(char *out, const unsigned char *id)
{
	for (int i = 0; i < RAW; i++)
		sprintf(out + 2 * i, "%02x", id[i]);
}

START_TEST(test_pack_commits)
{
	objread *r = open_reader();
	static char all[1 << 16], line[128];
	uint32_t *pos, n;
	uint64_t *off;
	size_t k;
	const unsigned char *sum, *ids;
	size_t stride;
	char err[512], h[2 * RAW + 1];

	git_out("git cat-file --batch-all-objects --batch-check='%(objectname) %(objecttype)' "
		"| grep -c ' commit$'", line, sizeof(line));
	ck_assert_int_eq(atoi(line), COMMITS);
	git_out("git verify-pack -v .git/objects/pack/*.idx", all, sizeof(all));
	ck_assert_int_eq(objread_pack_commits(r, 0, &pos, &off, &k, err, sizeof(err)), 0);
	ck_assert_uint_eq(k, COMMITS);
	objread_pack(r, 0, &sum, &n, &ids, &stride);
	for (size_t i = 0; i < k; i++) {
		uint64_t o;
		char want[128];

		/* in pack order, each a commit at the offset git says */
		ck_assert(i == 0 || off[i] > off[i - 1]);
		ck_assert_uint_lt(pos[i], n);
		hex(h, ids + (size_t)pos[i] * stride);
		snprintf(want, sizeof(want), "%s commit ", h);
		ck_assert_msg(strstr(all, want), "%s is no commit to git", h);
		ck_assert_int_eq(objread_offset(r, 0, pos[i], &o), 0);
		ck_assert_uint_eq(o, off[i]);
		/* found by its ID: the same place, as the .idx search finds it */
		{
			uint32_t p = 9, at = 0;
			uint64_t o2 = 0;

			ck_assert_int_eq(objread_locate_pos(r, ids + (size_t)pos[i] * stride, &p, &at,
							    &o2), 1);
			ck_assert_uint_eq(p, 0);
			ck_assert_uint_eq(at, pos[i]);
			ck_assert_uint_eq(o2, off[i]);
			ck_assert_uint_eq(objread_find_in(r, 0, ids + (size_t)pos[i] * stride), at);
		}
	}
	{
		unsigned char none[RAW];
		uint32_t p, at;
		uint64_t o2;

		memset(none, 0xff, sizeof(none));
		ck_assert_int_eq(objread_locate_pos(r, none, &p, &at, &o2), 0);
	}
	ck_assert_int_eq(objread_offset(r, 0, n, &off[0]), -2);
	free(pos);
	free(off);
	objread_free(r);
}
END_TEST

/* A fork reads the same bytes as its parent, each its own buffers, the parent's reads unspoilt. */
START_TEST(test_fork)
{
	objread *r = open_reader(), *f;
	uint32_t *pos;
	uint64_t *off;
	size_t k;
	char err[512], h[2 * RAW + 1];
	static char want[1 << 14];
	const unsigned char *sum, *ids;
	uint32_t n;
	size_t stride;

	ck_assert_int_eq(objread_pack_commits(r, 0, &pos, &off, &k, err, sizeof(err)), 0);
	ck_assert_int_eq(objread_fork(r, &f), 0);
	objread_pack(r, 0, &sum, &n, &ids, &stride);
	for (size_t i = 0; i < k; i++) {
		const unsigned char *a, *b;
		size_t la, lb, lw;
		int ta, tb;

		hex(h, ids + (size_t)pos[i] * stride);
		lw = git_commit(h, want, sizeof(want));
		ck_assert_int_eq(objread_read_at(r, 0, off[i], &ta, &a, &la), 1);
		ck_assert_int_eq(objread_read_at(f, 0, off[i], &tb, &b, &lb), 1);
		ck_assert_ptr_ne(a, b);
		ck_assert_int_eq(ta, 1);
		ck_assert_int_eq(tb, 1);
		ck_assert_uint_eq(la, lw);
		ck_assert_uint_eq(lb, lw);
		ck_assert(!memcmp(a, want, lw) && !memcmp(b, want, lw));
		/* the pages behind given back, as commits.c does (the fork maps the same) */
		objread_release(r, 0, i ? off[i - 1] : 0, off[i]);
	}
	objread_release(r, 0, 0, UINT64_MAX);
	objread_release(r, 0, 4096, 0); /* nothing */
	objread_release(r, 1, 0, UINT64_MAX); /* no such pack: nothing */
	objread_free(f);
	/* read again from the file by a fork with nothing in its cache: the same bytes */
	ck_assert_int_eq(objread_fork(r, &f), 0);
	for (size_t i = 0; i < k; i++) {
		const unsigned char *b;
		size_t lb;
		int tb;

		hex(h, ids + (size_t)pos[i] * stride);
		ck_assert_int_eq(objread_read_at(f, 0, off[i], &tb, &b, &lb), 1);
		ck_assert_uint_eq(lb, git_commit(h, want, sizeof(want)));
		ck_assert(!memcmp(b, want, lb));
	}
	objread_free(f);
	free(pos);
	free(off);
	objread_free(r);
}
END_TEST

static int enough(const char *d, size_t n)
{
	return commit_head_complete(d, n);
}

/*
 * The first bytes of each commit: git's own first bytes, whole for one
 * of up to 4 KiB (inflated in one go), and for a longer one (every fifth:
 * a 12 KB message) stored whole, as many as its headers and subject take.
 */
START_TEST(test_read_head)
{
	objread *r = open_reader();
	uint32_t *pos;
	uint64_t *off;
	size_t k, part = 0;
	char err[512], h[2 * RAW + 1];
	static char want[1 << 15];
	const unsigned char *sum, *ids;
	uint32_t n;
	size_t stride;

	ck_assert_int_eq(objread_pack_commits(r, 0, &pos, &off, &k, err, sizeof(err)), 0);
	objread_pack(r, 0, &sum, &n, &ids, &stride);
	for (size_t i = 0; i < k; i++) {
		const unsigned char *b;
		size_t len, lw;
		int type;

		hex(h, ids + (size_t)pos[i] * stride);
		lw = git_commit(h, want, sizeof(want));
		ck_assert_int_eq(objread_read_head(r, 0, off[i], enough, &type, &b, &len), 1);
		ck_assert_int_eq(type, 1);
		ck_assert_uint_le(len, lw);
		ck_assert(!memcmp(b, want, len));
		/* a part only of a long one stored whole (a delta is rebuilt whole) */
		ck_assert(len == lw || (lw > 4096 && enough((const char *)b, len)));
		part += len < lw;
	}
	ck_assert_uint_ge(part, 1);
	/* the pages let go between reads (the packs', or the .idx files' too): the same bytes */
	for (size_t i = 0; i < k; i++) {
		const unsigned char *b;
		size_t len, lw;
		int type;

		objread_trim_packs(r, (int)(i % 2));
		hex(h, ids + (size_t)pos[i] * stride);
		lw = git_commit(h, want, sizeof(want));
		ck_assert_int_eq(objread_read(r, ids + (size_t)pos[i] * stride, &type, &b, &len), 1);
		ck_assert_uint_eq(len, lw);
		ck_assert(!memcmp(b, want, len));
	}
	free(pos);
	free(off);
	objread_free(r);
}
END_TEST

/* A commit's zlib stream damaged: -2 from either read, never a part of it as if whole. */
START_TEST(test_bad_stream)
{
	objread *r;
	char line[128];
	const unsigned char *b;
	size_t len;
	int type;
	uint64_t o;

	/* the last commit (of the smaller ones): 4 bytes into its stream overwritten */
	git_out("git verify-pack -v .git/objects/pack/*.idx | "
		"awk '$2 == \"commit\" && $3 < 4096 { o = $5 } END { print o }'", line, sizeof(line));
	o = strtoull(line, NULL, 10);
	sh("cd r && p=$(ls .git/objects/pack/*.pack) && chmod u+w $p && "
	   "o=$(git verify-pack -v .git/objects/pack/*.idx | "
	   "awk '$2 == \"commit\" && $3 < 4096 { o = $5 } END { print o }') && "
	   "printf '\\377\\377\\377\\377' | dd of=$p bs=1 seek=$((o + 6)) conv=notrunc 2>/dev/null");
	r = open_reader();
	ck_assert_int_eq(objread_read_at(r, 0, o, &type, &b, &len), -2);
	ck_assert_int_eq(objread_read_head(r, 0, o, enough, &type, &b, &len), -2);
	objread_free(r);
}
END_TEST

/* A header of a type git has none of: -2 and the reason, nothing listed. */
START_TEST(test_bad_header)
{
	objread *r;
	uint32_t *pos;
	uint64_t *off;
	size_t k;
	char err[512], line[128], want[128];

	/* the first blob's header: its type bits (4-6) made 5 */
	git_out("git verify-pack -v .git/objects/pack/*.idx | awk '$2 == \"blob\" { print $5; exit }'",
		line, sizeof(line));
	sh("cd r && p=$(ls .git/objects/pack/*.pack) && chmod u+w $p && "
	   "o=$(git verify-pack -v .git/objects/pack/*.idx | awk '$2 == \"blob\" { print $5; exit }') && "
	   "b=$(od -An -tu1 -j $o -N1 $p | tr -d ' ') && "
	   "printf \"\\\\$(printf %o $(((b & 143) | 80)))\" | dd of=$p bs=1 seek=$o conv=notrunc 2>/dev/null");
	r = open_reader();
	ck_assert_int_eq(objread_pack_commits(r, 0, &pos, &off, &k, err, sizeof(err)), -2);
	ck_assert_ptr_null(pos);
	ck_assert_uint_eq(k, 0);
	snprintf(want, sizeof(want), "unknown object type 5 at offset %llu", strtoull(line, NULL, 10));
	ck_assert_msg(strstr(err, want), "'%s' does not say '%s'", err, want);
	objread_free(r);
}
END_TEST

Suite *make_objread_suite(void)
{
	Suite *s = suite_create("objread");
	TCase *tc = tcase_create("packs");

	tcase_add_unchecked_fixture(tc, setup_once, teardown_once);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_pack_commits);
	tcase_add_test(tc, test_fork);
	tcase_add_test(tc, test_read_head);
	tcase_add_test(tc, test_bad_stream);
	tcase_add_test(tc, test_bad_header);
	suite_add_tcase(s, tc);
	return s;
}
