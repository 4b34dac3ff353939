/*
 * fuzz_pack.c - libFuzzer target for the pack, index and loose-object
 * reader (src/walk_pack*.c).
 *
 * The input becomes an object directory in a private temp dir: with the
 * first byte even, a pack (a 4-byte big-endian length, that many bytes of
 * .idx, the rest .pack); with it odd, one loose object file.  The walker
 * must return a status, never crash, and on success every ID it added
 * must be in order in the sets.
 */
#include <fcntl.h>
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

static char dir[64], objdir[96], packdir[128], loosedir[128];
static char idx[192], pack[192], loose[192];

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

static void settle(const char *path)
{
	struct timespec t[2] = { { 1000000000, 0 }, { 1000000000, 0 } };

	if (utimensat(AT_FDCWD, path, t, 0))
		abort();
}

static void setup(void)
{
	strcpy(dir, "/tmp/fuzz-pack-XXXXXX");
	if (!mkdtemp(dir))
		abort();
	snprintf(objdir, sizeof(objdir), "%s/objects", dir);
	snprintf(packdir, sizeof(packdir), "%s/pack", objdir);
	snprintf(loosedir, sizeof(loosedir), "%s/ab", objdir);
	if (mkdir(objdir, 0755) || mkdir(packdir, 0755) || mkdir(loosedir, 0755))
		abort();
	snprintf(idx, sizeof(idx), "%s/pack-0000000000000000000000000000000000000000.idx", packdir);
	snprintf(pack, sizeof(pack), "%s/pack-0000000000000000000000000000000000000000.pack", packdir);
	snprintf(loose, sizeof(loose), "%s/cdef0123456789abcdef0123456789abcdef01", loosedir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512];
	idsets *s;

	if (!dir[0])
		setup();
	unlink(idx);
	unlink(pack);
	unlink(loose);
	if (size < 1)
		return 0;
	if (data[0] & 1) {
		write_file(loose, data + 1, size - 1);
	} else {
		size_t n;

		if (size < 5)
			return 0;
		n = (size_t)data[1] << 24 | (size_t)data[2] << 16 | (size_t)data[3] << 8 | data[4];
		if (n > size - 5)
			n = size - 5;
		write_file(idx, data + 5, n);
		write_file(pack, data + 5 + n, size - 5 - n);
	}
	/*
	 * The walker waits for directories changed less than half a second
	 * ago (a gc may still be busy): date these back, as a repository
	 * left alone would be.
	 */
	settle(packdir);
	settle(loosedir);
	s = idsets_new(20);
	if (!s)
		abort();
	if (walk_pack_objects(objdir, s, NULL, err, sizeof(err)) == WALK_OK) {
		const unsigned char *id, *prev = NULL;
		idset_iter it;

		idset_iter_init(&it, s, ABBREV_SET_ALL);
		while (idset_iter_next(&it, &id, NULL)) {
			if (prev && memcmp(prev, id, 20) >= 0)
				abort();
			prev = id;
		}
	} else if (!err[0] || strchr(err, '\n')) {
		abort(); /* an error always comes with a one-line message */
	}
	idsets_free(s);
	return 0;
}
