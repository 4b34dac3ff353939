/*
 * fuzz_pack.c - libFuzzer target for the pack, index, .rev, bitmap,
 * multi-pack-index, loose-object and alternates reader (src/walk/walk_pack*.c).
 *
 * The input becomes object directories in one private temp dir, made
 * once per process and removed at exit; each input's files are removed
 * before the next one's are written.  Layouts, by the first byte:
 *
 *  - odd: one loose object file, the rest of the input;
 *  - zero: one pack: a 4-byte big-endian length, that many bytes of .idx,
 *    the rest .pack;
 *  - any other even value: records, each a tag byte, a 2-byte big-endian
 *    length and that many bytes (cut at the input's end).  The tag's
 *    high nibble picks one of seven object directories (below), its low
 *    nibble what the bytes become there:
 *      0 1 2 8   pack A's .idx, .pack, .rev, .bitmap
 *      3 4 5     pack B's .idx, .pack, .rev
 *      6         a loose object: the first hash-width bytes name it, the
 *                rest is the file
 *      7         info/alternates
 *      9         GIT_ALTERNATE_OBJECT_DIRECTORIES (for this input only)
 *      10 11 12  pack/multi-pack-index, and its .bitmap and .rev, named
 *                after the last multi-pack-index's checksum (its last
 *                hash-width bytes) in that directory so far (zeros
 *                before one); its PNAM chunk names packs A and B as
 *                pack-1111....idx and pack-2222....idx
 *    In alternates text, each '%' stands for the temp dir's path, so that
 *    a seed can hold absolute entries.  Bit 2 of the first byte asks for
 *    SHA-256 IDs instead of SHA-1.
 *
 * The object directories: D0 objects (the repository's, the one walked),
 * D1 a1/objects (a symlink to store/x/objs, so that its relative
 * alternates must be resolved against the real directory: ../../y/objs
 * from it is D2 store/y/objs), D3..D6 n3/objects..n6/objects (enough for
 * a chain of alternates nested deeper than git's five).
 *
 * The walker must return a status, never crash, on failure give a
 * one-line message, and on success hold every ID once, in order.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "idset.h"
#include "walk.h"
#include "walk_pack.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NDIRS 7
#define MAX_FILES 64

static char base[64];              /* the temp dir */
static char objdir[NDIRS][96];       /* as the walker is given or finds them */
static const char *const rel[NDIRS] = {
	"objects", "store/x/objs", "store/y/objs", "n3/objects",
	"n4/objects", "n5/objects", "n6/objects",
};
static char *files[MAX_FILES];       /* this input's files, to remove */
static size_t nfiles;
static char *fanouts[MAX_FILES];     /* this input's loose fan-out dirs */
static int fanout_dir[MAX_FILES];    /* and the object dirs they are in */
static size_t nfanouts;
static int dirty[NDIRS];             /* changed since dated back: 1 the object dir, 2 its pack dir */

/* "a/b" into out (n bytes), which must hold it. */
static void path_of(char *out, size_t n, const char *a, const char *b)
{
	if ((size_t)snprintf(out, n, "%s/%s", a, b) >= n)
		abort();
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path) ? -1 : 0;
}

static void remove_all(void)
{
	if (base[0])
		nftw(base, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void mkdirs(const char *rel_path)
{
	char p[160], *s;

	path_of(p, sizeof(p), base, rel_path);
	for (s = p + strlen(base) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		if (mkdir(p, 0755) && errno != EEXIST)
			abort();
		*s = '/';
	}
	if (mkdir(p, 0755) && errno != EEXIST)
		abort();
}

static void setup(void)
{
	char p[160];

	/*
	 * In memory when there is a tmpfs: each input creates and removes
	 * some dozen files, which on a disk file system cost journal writes
	 * and several times the walk itself.
	 */
	strcpy(base, "/dev/shm/fuzz-pack-XXXXXX");
	if (!mkdtemp(base)) {
		strcpy(base, "/tmp/fuzz-pack-XXXXXX");
		if (!mkdtemp(base))
			abort();
	}
	atexit(remove_all);
	for (int d = 0; d < NDIRS; d++) {
		char sub[64];

		snprintf(sub, sizeof(sub), "%s/pack", rel[d]);
		mkdirs(sub);
		snprintf(sub, sizeof(sub), "%s/info", rel[d]);
		mkdirs(sub);
		path_of(objdir[d], sizeof(objdir[d]), base, rel[d]);
		dirty[d] = 3;
	}
	mkdirs("a1");
	path_of(p, sizeof(p), base, "a1/objects");
	if (symlink("../store/x/objs", p))
		abort();
}

static void write_file(const char *path, const uint8_t *p, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0)
		abort();
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w <= 0)
			abort();
		p += w;
		n -= (size_t)w;
	}
	close(fd);
}

/* Write a file of this input, to be removed before the next one. */
static void add_file(const char *path, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < nfiles; i++)
		if (!strcmp(files[i], path)) { /* written twice: the last one counts */
			write_file(path, p, n);
			return;
		}
	if (nfiles == MAX_FILES)
		return;
	if (!(files[nfiles] = strdup(path)))
		abort();
	nfiles++;
	write_file(path, p, n);
}

/*
 * The walker waits for directories changed less than half a second
 * ago (a gc may still be busy): date these back, as a repository left
 * alone would be.
 */
static void settle(const char *path)
{
	struct timespec t[2] = { { 1000000000, 0 }, { 1000000000, 0 } };

	if (utimensat(AT_FDCWD, path, t, 0))
		abort();
}

static void clean(void)
{
	for (size_t i = 0; i < nfiles; i++) {
		unlink(files[i]);
		free(files[i]);
	}
	nfiles = 0;
	for (size_t i = 0; i < nfanouts; i++) {
		rmdir(fanouts[i]);
		free(fanouts[i]);
		dirty[fanout_dir[i]] |= 1;
	}
	nfanouts = 0;
}

static void loose_file(int d, const uint8_t *p, size_t n, size_t rawsz)
{
	char dir[160], path[320], hex[2 * 32 + 1];
	size_t i;

	if (n < rawsz)
		return;
	for (i = 0; i < rawsz; i++)
		sprintf(hex + 2 * i, "%02x", p[i]);
	snprintf(dir, sizeof(dir), "%s/%.2s", objdir[d], hex);
	if (mkdir(dir, 0755) == 0) {
		if (nfanouts == MAX_FILES) {
			rmdir(dir);
			return;
		}
		if (!(fanouts[nfanouts] = strdup(dir)))
			abort();
		fanout_dir[nfanouts++] = d;
		dirty[d] |= 1;
	} else if (errno != EEXIST) {
		abort();
	}
	snprintf(path, sizeof(path), "%s/%s", dir, hex + 2);
	add_file(path, p + rawsz, n - rawsz);
}

/*
 * Alternates text with each '%' replaced by the temp dir's path,
 * NUL-terminated; its length to *out_len.
 */
static char *alternates_text(const uint8_t *p, size_t n, size_t *out_len)
{
	size_t bl = strlen(base), len = 0, pct = 0;
	char *s;

	for (size_t i = 0; i < n; i++)
		pct += p[i] == '%';
	if (!(s = malloc(n + pct * bl + 1)))
		abort();
	for (size_t i = 0; i < n; i++) {
		if (p[i] == '%') {
			memcpy(s + len, base, bl);
			len += bl;
		} else {
			s[len++] = (char)p[i];
		}
	}
	s[len] = '\0';
	*out_len = len;
	return s;
}

static const char *const pack_name[2] = {
	"pack-1111111111111111111111111111111111111111",
	"pack-2222222222222222222222222222222222222222",
};

/* pack/multi-pack-index-<hex of sum>.<ext> of object directory d into path. */
static void midx_sibling(char *path, size_t n, int d, const uint8_t *sum, size_t rawsz,
			 const char *ext)
{
	char hex[2 * 32 + 1];

	for (size_t i = 0; i < rawsz; i++)
		sprintf(hex + 2 * i, "%02x", sum ? sum[i] : 0);
	if ((size_t)snprintf(path, n, "%s/pack/multi-pack-index-%s.%s", objdir[d], hex, ext) >= n)
		abort();
}

/* Build the object directories from the records. */
static void build(const uint8_t *data, size_t size, size_t rawsz, char **env)
{
	const uint8_t *midx_sum[NDIRS] = { 0 };
	size_t at = 1;

	while (at + 3 <= size) {
		int tag = data[at], d = (tag >> 4) % NDIRS, kind = tag & 15;
		size_t n = (size_t)data[at + 1] << 8 | data[at + 2];
		const uint8_t *p = data + at + 3;
		char path[320], *text;
		size_t len;

		at += 3;
		if (n > size - at)
			n = size - at;
		at += n;
		switch (kind) {
		case 0: case 1: case 2: case 8:
		case 3: case 4: case 5: {
			static const char *const ext[] = { "idx", "pack", "rev" };
			int pk = kind >= 3 && kind <= 5;
			const char *e = kind == 8 ? "bitmap" : ext[pk ? kind - 3 : kind];

			snprintf(path, sizeof(path), "%s/pack/%s.%s", objdir[d], pack_name[pk], e);
			add_file(path, p, n);
			dirty[d] |= 2;
			break;
		}
		case 6:
			loose_file(d, p, n, rawsz);
			break;
		case 7:
			text = alternates_text(p, n, &len);
			snprintf(path, sizeof(path), "%s/info/alternates", objdir[d]);
			add_file(path, (const uint8_t *)text, len);
			free(text);
			break;
		case 9:
			free(*env);
			*env = alternates_text(p, n, &len);
			break;
		case 10:
			snprintf(path, sizeof(path), "%s/pack/multi-pack-index", objdir[d]);
			add_file(path, p, n);
			if (n >= rawsz)
				midx_sum[d] = p + n - rawsz;
			dirty[d] |= 2;
			break;
		case 11: case 12:
			midx_sibling(path, sizeof(path), d, midx_sum[d], rawsz,
				     kind == 11 ? "bitmap" : "rev");
			add_file(path, p, n);
			dirty[d] |= 2;
			break;
		default:
			break;
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512], *env = NULL;
	size_t rawsz = 20;
	idsets *s;

	if (!base[0])
		setup();
	/* the last input's files go, and so their pack directories' dates */
	for (size_t i = 0; i < nfiles; i++)
		for (int d = 0; d < NDIRS; d++)
			if (!strncmp(files[i], objdir[d], strlen(objdir[d])) &&
			    !strncmp(files[i] + strlen(objdir[d]), "/pack/", 6))
				dirty[d] |= 2;
	clean();
	if (size < 1)
		return 0;
	if (data[0] & 1) {
		loose_file(0, (const uint8_t *)"\xab\xcd\xef\x01\x23\x45\x67\x89\xab\xcd"
					       "\xef\x01\x23\x45\x67\x89\xab\xcd\xef\x01",
			   20, 20);
		/* that made the directory and an empty file: the input is its content */
		write_file(files[nfiles - 1], data + 1, size - 1);
	} else if (data[0] == 0) {
		char path[320];
		size_t n;

		if (size < 5)
			return 0;
		n = (size_t)data[1] << 24 | (size_t)data[2] << 16 | (size_t)data[3] << 8 | data[4];
		if (n > size - 5)
			n = size - 5;
		snprintf(path, sizeof(path), "%s/pack/%s.idx", objdir[0], pack_name[0]);
		add_file(path, data + 5, n);
		snprintf(path, sizeof(path), "%s/pack/%s.pack", objdir[0], pack_name[0]);
		add_file(path, data + 5 + n, size - 5 - n);
		dirty[0] |= 2;
	} else {
		if (data[0] & 4)
			rawsz = 32;
		build(data, size, rawsz, &env);
	}
	for (int d = 0; d < NDIRS; d++) {
		char pdir[160];

		if (dirty[d] & 1)
			settle(objdir[d]);
		path_of(pdir, sizeof(pdir), objdir[d], "pack");
		if (dirty[d] & 2)
			settle(pdir);
		dirty[d] = 0;
	}
	for (size_t i = 0; i < nfanouts; i++)
		settle(fanouts[i]);
	if (env)
		setenv("GIT_ALTERNATE_OBJECT_DIRECTORIES", env, 1);
	s = idsets_new(rawsz);
	if (!s)
		abort();
	if (walk_pack_objects(objdir[0], s, NULL, err, sizeof(err)) == WALK_OK) {
		const unsigned char *id, *prev = NULL;
		idset_iter it;

		idset_iter_init(&it, s, ABBREV_SET_ALL);
		while (idset_iter_next(&it, &id, NULL)) {
			if (prev && memcmp(prev, id, rawsz) >= 0)
				abort();
			prev = id;
		}
	} else if (!err[0] || strchr(err, '\n')) {
		abort(); /* an error always comes with a one-line message */
	}
	idsets_free(s);
	if (env) {
		unsetenv("GIT_ALTERNATE_OBJECT_DIRECTORIES");
		free(env);
	}
	return 0;
}
